# The game service (game/*.c), free of HTTP: every read and write of a game (play.c over
# game_repo.c, the glue between the event store and the engine), the timer workers
# (worker.c), and the doors through which the floors above reach the store (lobby,
# messages, quota, webhooks, outbox, mailing, feed, changes). It needs $(DB_LIB),
# $(CODEC_LIB), $(ENGINE_LIB) and $(BASE_LIB).

GAME_SRC := $(wildcard game/*.c)
GAME_OBJ := $(GAME_SRC:%.c=$(B)/obj/%.o)
GAME_LIB := $(B)/libgame.a

$(GAME_LIB): $(GAME_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(GAME_LIB)
