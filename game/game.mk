# The game service's library: the glue between the event store and the engine
# (game/game_repo.c: a game's log and snapshots as engine states). It needs $(DB_LIB),
# $(CODEC_LIB) and $(ENGINE_LIB).

GAME_SRC := $(wildcard game/*.c)
GAME_OBJ := $(GAME_SRC:%.c=$(B)/obj/%.o)
GAME_LIB := $(B)/libgame.a

$(GAME_LIB): $(GAME_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(GAME_LIB)
