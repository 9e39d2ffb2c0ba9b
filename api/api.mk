# The HTTP server `catan-server`: api/*.c (but the codec and the store glue, which are
# libraries of their own) with the OpenAPI document compiled in.

API_SRC := $(filter-out api/codec.c api/text.c api/game_repo.c,$(wildcard api/*.c))
API_OBJ := $(API_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/openapi_json.o
API_LIBS := -lmicrohttpd -lcurl -lpthread -lm
SERVER := $(B)/catan-server

$(B)/gen/openapi_json.c: openapi/openapi.json scripts/embed.sh
	@mkdir -p $(dir $@)
	sh scripts/embed.sh openapi_json openapi/openapi.json > $@

$(B)/obj/gen/openapi_json.o: $(B)/gen/openapi_json.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(SERVER): $(API_OBJ) $(GAME_REPO_OBJ) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(API_LIBS) $(DB_LIBS) $(CODEC_LIBS)

ALL_TARGETS += $(SERVER)

# ---- Benchmark: `make bench-http` ----
HTTP_BENCH := $(B)/bench/http_bench

$(HTTP_BENCH): $(B)/obj/api/bench/http_bench.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl -ljansson -lpthread

ALL_TARGETS += $(HTTP_BENCH)

bench-http: $(SERVER) $(HTTP_BENCH)
	@scripts/with-postgres.sh scripts/bench-http.sh $(SERVER) $(HTTP_BENCH)
.PHONY: bench-http

# Moves/s through HAProxy in front of 1, 2 and 3 servers (scripts/bench-http.sh).
bench-http-haproxy: $(SERVER) $(HTTP_BENCH)
	@BENCH_MODE=haproxy scripts/with-postgres.sh scripts/bench-http.sh $(SERVER) $(HTTP_BENCH)
.PHONY: bench-http-haproxy
