/*
 * worker.h - the server's own moves: bot seats and expired deadlines.
 *
 * Worker threads (any number per server, on any number of servers) claim due rows of
 * game_timers (db/store_timers.h) and make the move each stands for through the same decide and
 * append path as a player's move (play_move(), game/play.h), logged with origin "bot" or
 * "timeout". A claim is a lease: a worker that dies mid-work delays the game by the lease,
 * never loses it. A bot chain (several bot seats moving in a row) is played by one worker
 * without waiting, each move appended as it is made.
 */
#ifndef CATAN_GAME_WORKER_H
#define CATAN_GAME_WORKER_H

/* Start `count` worker threads. */
void worker_start(int count);

/* Wake the workers now (a bot move became due in this process). Cheap; callable anywhere. */
void worker_wake(void);

/* The hard bots' playouts per decision at no load (BOT_PLAYOUTS); set before
 * worker_start(). */
void worker_set_bot_playouts(int playouts);

/* Stop the threads (after their current game). */
void worker_stop(void);

#endif
