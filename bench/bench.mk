# Benchmarks: figures printed, never asserted.
#
#   make bench             the engine: random 4-player games on one core (`catan bench`)
#   make bench-codec       bytes per stored event and dump+parse time over random games
#   make bench-store       append throughput vs pgbench, load time by game length, bytes per
#                          event (DATABASE_URL, or a throwaway cluster of scripts/with-postgres.sh)
#   make bench-http        moves/s over HTTP, and a 4-bot game from creation to winner
#   make bench-http-haproxy  moves/s through HAProxy in front of 1, 2 and 3 servers

bench: $(CATAN)
	@$(CATAN) bench --games $${BENCH_GAMES:-20000} --players 4 --seed 1
.PHONY: bench

# The store benchmark talks to PostgreSQL directly (pgbench-like rows) too.
EXTRA_CFLAGS_bench := $(PQ_CFLAGS)

BENCH_CODEC := $(B)/bench/codec_bench
$(BENCH_CODEC): $(B)/obj/bench/codec_bench.o $(B)/obj/bench/games.o $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS)

bench-codec: $(BENCH_CODEC)
	@$(BENCH_CODEC) $${BENCH_CODEC_GAMES:-100}
.PHONY: bench-codec

STORE_BENCH := $(B)/bench/store_bench
$(STORE_BENCH): $(B)/obj/bench/store_bench.o $(B)/obj/bench/games.o $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(DB_LIBS) $(CODEC_LIBS)

bench-store: $(STORE_BENCH)
	@scripts/with-postgres.sh $(STORE_BENCH)
.PHONY: bench-store

HTTP_BENCH := $(B)/bench/http_bench
$(HTTP_BENCH): $(B)/obj/bench/http_bench.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl -ljansson -lpthread

bench-http: $(SERVER) $(HTTP_BENCH)
	@scripts/with-postgres.sh scripts/bench-http.sh $(SERVER) $(HTTP_BENCH)
.PHONY: bench-http

bench-http-haproxy: $(SERVER) $(HTTP_BENCH)
	@BENCH_MODE=haproxy scripts/with-postgres.sh scripts/bench-http.sh $(SERVER) $(HTTP_BENCH)
.PHONY: bench-http-haproxy

ALL_TARGETS += $(BENCH_CODEC) $(STORE_BENCH) $(HTTP_BENCH)
