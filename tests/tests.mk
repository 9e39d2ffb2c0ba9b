# Test programs: tests/<layer>/test_*.c, each one Check suite linked with tests/check_main.c.
# Engine tests need nothing else; db and api tests run against a real PostgreSQL
# (scripts/with-postgres.sh starts a throwaway cluster when none is configured).

CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)
TEST_SUPPORT_OBJ := $(B)/obj/tests/check_main.o $(B)/obj/tests/engine/support.o

ENGINE_TEST_SRC := $(wildcard tests/engine/test_*.c)
ENGINE_TESTS := $(ENGINE_TEST_SRC:tests/%.c=$(B)/tests/%)

$(B)/tests/engine/%: $(B)/obj/tests/engine/%.o $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(ENGINE_TESTS)

# The sanitizer pass plays 2000 property games (about 100 s of CPU under ASan): enough since
# the property test also checks a scarce bank and sampled offers to missing seats every game,
# which catch such breaks within the first games (see `make mutants`).
test-engine: $(ENGINE_TESTS)
	@set -e; for t in $(ENGINE_TESTS); do echo "== $$t"; PROPERTY_GAMES=$${PROPERTY_GAMES:-$(if $(SAN),2000,10000)} $$t; done
.PHONY: test-engine

# API unit tests: the JSON codec (codec/) and the problem bodies (api/problem.c), no
# database. bench/games.c plays random complete games for them (and for `make
# bench-codec`). The replay test also runs `catan replay` on a file, through the program
# named by $CATAN.
API_UNIT_TEST_SRC := $(wildcard tests/api/test_codec*.c) tests/api/test_problem.c
API_UNIT_TESTS := $(API_UNIT_TEST_SRC:tests/%.c=$(B)/tests/%)
CODEC_GAMES_OBJ := $(B)/obj/bench/games.o
PROBLEM_OBJ := $(B)/obj/api/problem.o

$(API_UNIT_TESTS): $(B)/tests/api/%: $(B)/obj/tests/api/%.o $(CODEC_GAMES_OBJ) $(PROBLEM_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(API_UNIT_TESTS)

# The import judge (game/import.c: engine and codec only) on the random games of bench/games.c.
IMPORT_JUDGE_TEST := $(B)/tests/api/test_import_judge
$(IMPORT_JUDGE_TEST): $(B)/obj/tests/api/test_import_judge.o $(B)/obj/game/import.o $(CODEC_GAMES_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(IMPORT_JUDGE_TEST)

# A game's figures from its log (game/statistics.c: engine and jansson only) on random games.
STATISTICS_TEST := $(B)/tests/api/test_statistics
$(STATISTICS_TEST): $(B)/obj/tests/api/test_statistics.o $(B)/obj/game/statistics.o $(CODEC_GAMES_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(STATISTICS_TEST)

# The webhook destination rules (api/destination.c), on addresses alone: no network.
DESTINATION_TEST := $(B)/tests/api/test_destination
$(DESTINATION_TEST): $(B)/obj/tests/api/test_destination.o $(B)/obj/api/destination.o $(B)/obj/tests/check_main.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl $(CHECK_LIBS)

ALL_TARGETS += $(DESTINATION_TEST)

# The chat messages of channel webhooks (api/channels.c), on engine states alone.
CHANNELS_TEST := $(B)/tests/api/test_channels
$(CHANNELS_TEST): $(B)/obj/tests/api/test_channels.o $(B)/obj/api/channels.o $(B)/obj/api/summary.o \
		$(B)/obj/api/xalloc.o $(TEST_SUPPORT_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson -lm $(CHECK_LIBS)

ALL_TARGETS += $(CHANNELS_TEST)

# The parts of a mail (api/mail_message.c): addresses, link codes, the message; no relay.
MAIL_TEST := $(B)/tests/api/test_mail
$(MAIL_TEST): $(B)/obj/tests/api/test_mail.o $(B)/obj/api/mail_message.o $(B)/obj/api/xalloc.o \
		$(B)/obj/game/auth.o $(B)/obj/tests/check_main.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcrypto $(CHECK_LIBS)

ALL_TARGETS += $(MAIL_TEST)

test-api-unit: $(API_UNIT_TESTS) $(DESTINATION_TEST) $(IMPORT_JUDGE_TEST) $(STATISTICS_TEST) $(CHANNELS_TEST) $(MAIL_TEST) $(CATAN)
	@set -e; for t in $(API_UNIT_TESTS) $(DESTINATION_TEST) $(IMPORT_JUDGE_TEST) $(STATISTICS_TEST) $(CHANNELS_TEST) $(MAIL_TEST); do echo "== $$t"; CATAN=$(CATAN) $$t; done
.PHONY: test-api-unit


# The renderer (render/) without a server, the server's picture cache (api/picture_cache.c)
# and drawing slots (api/render_slots.c), and `catan render` (through the program named by $CATAN).
RENDER_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/render/test_*.c))
$(RENDER_TESTS): $(B)/tests/render/%: $(B)/obj/tests/render/%.o $(B)/obj/api/picture_cache.o $(B)/obj/api/render_slots.o \
		$(B)/obj/api/xalloc.o \
		$(CODEC_GAMES_OBJ) $(B)/obj/tests/check_main.o $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(RENDER_LIBS) $(CODEC_LIBS) -lpthread $(CHECK_LIBS)

ALL_TARGETS += $(RENDER_TESTS)

test-render: $(RENDER_TESTS) $(CATAN)
	@set -e; for t in $(RENDER_TESTS); do echo "== $$t"; CATAN=$(CATAN) $$t; done
.PHONY: test-render
TEST_RUN_EXTRA += test-render

# db tests: the event store (db/) and its glue to the engine (game/game_repo.c) against a
# real PostgreSQL: DATABASE_URL, or a throwaway cluster started by scripts/with-postgres.sh
# for the whole run (the outage test stops and starts that cluster).
DB_TEST_SRC := $(wildcard tests/db/test_*.c)
DB_TESTS := $(DB_TEST_SRC:tests/%.c=$(B)/tests/%)
DB_TEST_SUPPORT_OBJ := $(B)/obj/tests/check_main.o $(B)/obj/tests/db/support.o $(B)/obj/bench/games.o
EXTRA_CFLAGS_tests += $(PQ_CFLAGS)

$(DB_TESTS): $(B)/tests/db/%: $(B)/obj/tests/db/%.o $(DB_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(DB_TESTS)

test-db: $(DB_TESTS)
	@scripts/with-postgres.sh sh -c 'set -e; for t in $(DB_TESTS); do echo "== $$t"; $$t; done'
.PHONY: test-db
TEST_RUN_EXTRA += test-db

# HTTP tests: real catan-server processes (the one of this build directory, passed as
# CATAN_SERVER, so the sanitizer pass tests the sanitizer build) on a throwaway PostgreSQL
# (scripts/with-postgres.sh), driven with libcurl, with Prism (openapi/node_modules)
# validating responses against openapi/openapi.yaml. tests/api/http_support.c is their
# shared support; it reads the ground truth of games with game/game_repo.h and db/store.h.
# tests/api/http_fixture.c is the server, proxy and clients every suite registers.
# The programs run one after another: some stop and start the database.
HTTP_TEST_SRC := $(wildcard tests/api/test_http_*.c)
HTTP_TESTS := $(HTTP_TEST_SRC:tests/%.c=$(B)/tests/%)
HTTP_TEST_SUPPORT_OBJ := $(B)/obj/tests/check_main.o $(B)/obj/tests/api/http_support.o $(B)/obj/tests/api/http_process.o \
	$(B)/obj/tests/api/http_player.o $(B)/obj/tests/api/http_fixture.o

# (test_http_board decodes pictures with cairo and frames them with render/.)
EXTRA_CFLAGS_tests += $(RENDER_CFLAGS)
$(HTTP_TESTS): $(B)/tests/api/%: $(B)/obj/tests/api/%.o $(HTTP_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl $(DB_LIBS) $(RENDER_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(HTTP_TESTS)

# Asynchronous play (webhooks, deadlines, bot seats): the same support, plus a webhook
# receiver (tests/api/webhook_receiver.c, libmicrohttpd and OpenSSL's HMAC).
ASYNC_TEST_SRC := $(wildcard tests/api/test_async_*.c)
ASYNC_TESTS := $(ASYNC_TEST_SRC:tests/%.c=$(B)/tests/%)
WEBHOOK_RECEIVER_OBJ := $(B)/obj/tests/api/webhook_receiver.o

$(ASYNC_TESTS): $(B)/tests/api/%: $(B)/obj/tests/api/%.o $(HTTP_TEST_SUPPORT_OBJ) $(WEBHOOK_RECEIVER_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lmicrohttpd -lcurl -lcrypto $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(ASYNC_TESTS)

test-http: $(HTTP_TESTS) $(ASYNC_TESTS) $(SERVER) $(CATAN) openapi-deps
	@scripts/with-postgres.sh sh -c 'failed=""; for t in $(HTTP_TESTS) $(ASYNC_TESTS); do echo "== $$t"; \
		CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(if $(SAN),4,1) $$t || failed="$$failed $$t"; done; \
		[ -z "$$failed" ] || { echo "FAILED:$$failed"; exit 1; }'
.PHONY: test-http
TEST_RUN_EXTRA += test-http

# Just the asynchronous-play programs (they are part of test-http).
test-async: $(ASYNC_TESTS) $(SERVER) openapi-deps
	@scripts/with-postgres.sh sh -c 'failed=""; for t in $(ASYNC_TESTS); do echo "== $$t"; \
		CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(if $(SAN),4,1) $$t || failed="$$failed $$t"; done; \
		[ -z "$$failed" ] || { echo "FAILED:$$failed"; exit 1; }'
.PHONY: test-async


# The fault suite (tests/faults/): load from several clients while servers are killed
# with -9, PostgreSQL is restarted, and two servers race on the same moves (test_faults);
# three servers behind HAProxy, one killed under load (test_haproxy; Debian's haproxy,
# see scripts/deps.sh); then every acknowledged move is checked against the event store.
# Real processes on ephemeral ports of 127.0.0.1 and the throwaway cluster of
# scripts/with-postgres.sh. About 90 s; `make test` runs it once, in the normal pass only
# (under the sanitizers the time-bound load says little more than the HTTP suites).
# tests/faults/fault_support.c is its support, on top of the HTTP tests'.
FAULT_TEST_SRC := $(wildcard tests/faults/test_*.c)
FAULT_TESTS := $(FAULT_TEST_SRC:tests/%.c=$(B)/tests/%)
FAULT_SUPPORT_OBJ := $(B)/obj/tests/faults/fault_support.o

$(FAULT_TESTS): $(B)/tests/faults/%: $(B)/obj/tests/faults/%.o $(FAULT_SUPPORT_OBJ) $(HTTP_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(FAULT_TESTS)

test-faults: $(FAULT_TESTS) $(SERVER)
	@scripts/with-postgres.sh sh -c 'failed=""; for t in $(FAULT_TESTS); do echo "== $$t"; \
		CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(if $(SAN),4,1) $$t || failed="$$failed $$t"; done; \
		[ -z "$$failed" ] || { echo "FAILED:$$failed"; exit 1; }'
.PHONY: test-faults
ifeq ($(SAN),)
TEST_RUN_EXTRA += test-faults
endif

# The mutation check (tests/mutants.py): each listed rule break applied alone to a copy of
# the tree under build/mutants/, the engine suites run against it; lists the breaks no suite
# notices and fails if any. Not part of `make test` (minutes); MUTANTS="a b" picks some.
mutants:
	@python3 tests/mutants.py
.PHONY: mutants

# Every suite of this build directory (`make test` runs it twice: normal, then sanitizers).
# Last in the file: make reads a rule's prerequisites where the rule stands, so every
# TEST_RUN_EXTRA added above must come before it.
test-run: test-engine test-api-unit $(TEST_RUN_EXTRA)
.PHONY: test-run
