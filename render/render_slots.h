/*
 * render_slots.h - how many board pictures this server draws at once.
 *
 * Drawing a picture is CPU work on an HTTP thread (a 2048 px PNG takes tens of
 * milliseconds; render/ draws with cairo one picture at a time, under its own lock, and
 * encodes PNGs in parallel: render/render.h), so a burst of picture requests for sizes nobody asked for before (cache
 * misses all) could take every CPU and every HTTP thread. A picture is drawn only in one
 * of RENDER_CONCURRENCY slots (default: the number of CPUs); a request that finds them all
 * taken waits up to RENDER_WAIT_MS (default 2000) for one, and at most half of THREADS
 * requests wait at a time, so the other half of the threads keeps answering everything
 * else (/healthz, moves). A request that gets no slot answers 503 render_busy with
 * Retry-After. Cached pictures and 304s take no slot.
 *
 * Thread-safe; render_slots_configure() once at start, before the HTTP threads run.
 */
#ifndef CATAN_RENDER_RENDER_SLOTS_H
#define CATAN_RENDER_RENDER_SLOTS_H

enum render_slot { RENDER_SLOT_TAKEN, RENDER_SLOT_TOO_MANY_WAITING, RENDER_SLOT_TIMED_OUT };

/* `slots` pictures at once (at least 1), at most `max_waiting` requests waiting (at least
 * 1), each for at most `wait_ms` milliseconds (0: no wait). Defaults before any call: 1
 * slot, 1 waiting, 2000 ms. */
void render_slots_configure(int slots, int max_waiting, int wait_ms);

/* Take a slot, waiting as configured: RENDER_SLOT_TAKEN (give it back with
 * render_slots_release()), or why not. */
enum render_slot render_slots_acquire(void);
void render_slots_release(void);

/* Slots taken and requests waiting now (for tests and /metrics). */
int render_slots_in_use(void);
int render_slots_waiting(void);

#endif
