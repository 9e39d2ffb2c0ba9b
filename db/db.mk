# The event store: a static library over libpq, with the schema migrations compiled in.
#
#   $(DB_LIB)      db/*.c and the generated $(B)/gen/migrations.c; link with $(DB_LIBS)
#   bench-store    append throughput vs pgbench, load time by game length, bytes per event
#                  (against DATABASE_URL, or a throwaway cluster from scripts/with-postgres.sh)

PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
EXTRA_CFLAGS_db := $(PQ_CFLAGS)

DB_SRC := $(wildcard db/*.c)
DB_OBJ := $(DB_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/migrations.o
DB_LIB := $(B)/libstore.a
DB_LIBS := -lpq -lcrypto -lpthread
DB_MIGRATIONS := $(sort $(wildcard db/migrations/*.sql))

# The glue between the store and the engine (api/game_repo.c), as a library so that a
# program links it only when it calls it; it needs $(CODEC_LIB) and $(ENGINE_LIB).
GAME_REPO_OBJ := $(B)/obj/api/game_repo.o
GAME_REPO_LIB := $(B)/libgamerepo.a

$(GAME_REPO_LIB): $(GAME_REPO_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/gen/migrations.c: db/gen_migrations.sh $(DB_MIGRATIONS)
	@mkdir -p $(dir $@)
	sh db/gen_migrations.sh $(DB_MIGRATIONS) > $@

$(B)/obj/gen/migrations.o: $(B)/gen/migrations.c db/migrations.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(DB_LIB): $(DB_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(DB_LIB)

# ---- Benchmark ----
STORE_BENCH := $(B)/bench/store_bench

$(STORE_BENCH): $(B)/obj/db/bench/store_bench.o $(B)/obj/tests/db/games.o $(GAME_REPO_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(DB_LIBS) $(CODEC_LIBS)

bench-store: $(STORE_BENCH)
	@scripts/with-postgres.sh $(STORE_BENCH)
.PHONY: bench-store
