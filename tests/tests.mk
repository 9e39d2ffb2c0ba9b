# Test programs: tests/<library>/test_*.c, a folder per library they test (engine, codec,
# render, db, game, api), each program one Check suite linked with tests/check_main.c; a
# section per folder below. Engine and codec tests need nothing else; db, game and HTTP
# tests run against a real PostgreSQL (scripts/with-postgres.sh starts a throwaway cluster
# when none is configured).
#
# Running: every program is a target of its own, run/<program> (a static pattern rule per
# kind below, through scripts/run-test.sh), so `make -j` runs them side by side; `make test`
# does, with TEST_JOBS jobs and the output of each program kept together (-O). A program that
# needs PostgreSQL gets a throwaway cluster of its own (run-test.sh --pg), so the ones that
# stop and start their database disturb no other. Each run appends its seconds to
# $(TEST_TIMES).
TEST_TIMES := $(B)/test-times.txt
# Check's per-test timeouts are a guard against a hung test, not a measure of speed: they
# stretch for the sanitizers and for programs that share the 2 cores with TEST_JOBS others.
TEST_TIMEOUT_MULTIPLIER ?= $(if $(SAN),6,2)
# ... for every program, also those whose rule names no multiplier (the unit tests, whose
# cases keep Check's 4 s default: an ASan build of test_view_read took 3.2 s of it on a
# loaded machine and once ran out).
export CK_TIMEOUT_MULTIPLIER := $(TEST_TIMEOUT_MULTIPLIER)
RUN_TEST := scripts/run-test.sh

# CHECK_LIBS: from build/.deps.mk (the Makefile, scripts/pkg-flags.sh).
TEST_SUPPORT_OBJ := $(B)/obj/tests/check_main.o $(B)/obj/tests/engine/support.o

ENGINE_TEST_SRC := $(wildcard tests/engine/test_*.c)
ENGINE_TESTS := $(ENGINE_TEST_SRC:tests/%.c=$(B)/tests/%)

$(B)/tests/engine/%: $(B)/obj/tests/engine/%.o $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(ENGINE_TESTS)

# The floor (base/): allocation, log lines, backoff and counters, on their own. The log's
# test holds its quoting against jansson's (-ljansson), which the floor itself never links.
BASE_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/base/test_*.c))
$(BASE_TESTS): $(B)/tests/base/%: $(B)/obj/tests/base/%.o $(B)/obj/tests/check_main.o $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(CHECK_LIBS)

ALL_TARGETS += $(BASE_TESTS)

BASE_RUNS := $(BASE_TESTS:%=run/%)
$(BASE_RUNS): run/%: %
	@$(RUN_TEST) $(TEST_TIMES) $<
test-base: $(BASE_RUNS)
.PHONY: test-base $(BASE_RUNS)
TEST_RUN_EXTRA += test-base

# The HTTP server's modules (http/) on their own, no socket: the problem bodies
# (http/problem.c: every entry of the table) and who a request comes from (http/client.c:
# socket addresses and X-Forwarded-For alone). Each links only the objects of
# $(HTTP_LIB) it uses.
HTTP_UNIT_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/http/test_*.c))
$(HTTP_UNIT_TESTS): $(B)/tests/http/%: $(B)/obj/tests/http/%.o $(B)/obj/tests/check_main.o $(HTTP_LIB) $(CODEC_LIB) \
		$(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(HTTP_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(HTTP_UNIT_TESTS)

HTTP_UNIT_RUNS := $(HTTP_UNIT_TESTS:%=run/%)
$(HTTP_UNIT_RUNS): run/%: %
	@$(RUN_TEST) $(TEST_TIMES) $<
test-http-unit: $(HTTP_UNIT_RUNS)
.PHONY: test-http-unit $(HTTP_UNIT_RUNS)
TEST_RUN_EXTRA += test-http-unit

# Delivery's modules (deliver/) on their own, no network and no database: the destination
# rules (destination.c, on addresses alone), the chat messages of channel webhooks
# (channels.c, on engine states alone), the parts of a mail (mail_message.c:
# addresses, link codes, the message) and a reply coming in (mail_in.c with GMime, on the
# corpus tests/mail/corpus; mail_reply.c's codes). Each links only the objects it uses.
DELIVER_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/deliver/test_*.c))
$(DELIVER_TESTS): $(B)/tests/deliver/%: $(B)/obj/tests/deliver/%.o $(TEST_SUPPORT_OBJ) $(DELIVER_LIB) $(GAME_LIB) \
		$(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(DELIVER_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(DELIVER_TESTS)

DELIVER_RUNS := $(DELIVER_TESTS:%=run/%)
$(DELIVER_RUNS): run/%: %
	@$(RUN_TEST) $(TEST_TIMES) $<
test-deliver: $(DELIVER_RUNS)
.PHONY: test-deliver $(DELIVER_RUNS)
TEST_RUN_EXTRA += test-deliver

# The normal pass plays 4000 property games (~120 s of CPU), the sanitizer pass 2000 (about
# 100 s of CPU under ASan): enough since the property test also checks a scarce bank and
# sampled offers to missing seats every game, which catch such breaks within the first games
# (see `make mutants`). `make test-properties` is the long form: 40,000 games (PROPERTY_GAMES
# overrides it).
ENGINE_RUNS := $(ENGINE_TESTS:%=run/%)
$(ENGINE_RUNS): run/%: %
	@PROPERTY_GAMES=$${PROPERTY_GAMES:-$(if $(SAN),2000,4000)} $(RUN_TEST) $(TEST_TIMES) $<
test-engine: $(ENGINE_RUNS)
test-properties: $(B)/tests/engine/test_properties
	@PROPERTY_GAMES=$${PROPERTY_GAMES:-40000} $(RUN_TEST) $<
.PHONY: test-engine test-properties $(ENGINE_RUNS)

# ---- tests/codec/: the JSON codec (codec/), one suite per module (log, shapes, options,
# escape, person_name, places; tests/codec/support.c their shared helpers), no database. bench/games.c plays random complete games for them
# (and for `make bench-codec`). The log suite also runs `catan replay` on a file, through
# the program named by $CATAN.
CODEC_TEST_SRC := $(wildcard tests/codec/test_*.c)
CODEC_TESTS := $(CODEC_TEST_SRC:tests/%.c=$(B)/tests/%)
CODEC_GAMES_OBJ := $(B)/obj/bench/games.o
CODEC_TEST_SUPPORT_OBJ := $(B)/obj/tests/codec/support.o

$(CODEC_TESTS): $(B)/tests/codec/%: $(B)/obj/tests/codec/%.o $(CODEC_TEST_SUPPORT_OBJ) $(CODEC_GAMES_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(CODEC_TESTS)

CODEC_RUNS := $(CODEC_TESTS:%=run/%)
$(CODEC_RUNS): run/%: % $(CATAN)
	@CATAN=$(CATAN) $(RUN_TEST) $(TEST_TIMES) $<
test-codec: $(CODEC_RUNS)
.PHONY: test-codec $(CODEC_RUNS)



# The renderer (render/) without a server: pictures, the picture cache
# (render/picture_cache.c) and drawing slots (render/render_slots.c), and `catan render`
# (through the program named by $CATAN).
RENDER_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/render/test_*.c))
$(RENDER_TESTS): $(B)/tests/render/%: $(B)/obj/tests/render/%.o \
		$(CODEC_GAMES_OBJ) $(B)/obj/tests/check_main.o $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(RENDER_LIBS) $(CODEC_LIBS) -lpthread $(CHECK_LIBS)

ALL_TARGETS += $(RENDER_TESTS)

RENDER_RUNS := $(RENDER_TESTS:%=run/%)
$(RENDER_RUNS): run/%: % $(CATAN)
	@CATAN=$(CATAN) $(RUN_TEST) $(TEST_TIMES) $<
test-render: $(RENDER_RUNS)
.PHONY: test-render $(RENDER_RUNS)
TEST_RUN_EXTRA += test-render

# ---- tests/db/: the event store (db/) against a real PostgreSQL: DATABASE_URL, or a
# throwaway cluster per program started by scripts/with-postgres.sh (the outage test stops
# and starts its cluster). tests/db/support.c is their fixture (and tests/game/'s).
DB_TEST_SRC := $(wildcard tests/db/test_*.c)
DB_TESTS := $(DB_TEST_SRC:tests/%.c=$(B)/tests/%)
DB_TEST_SUPPORT_OBJ := $(B)/obj/tests/check_main.o $(B)/obj/tests/db/support.o $(B)/obj/bench/games.o
EXTRA_CFLAGS_tests += $(PQ_CFLAGS)

$(DB_TESTS): $(B)/tests/db/%: $(B)/obj/tests/db/%.o $(DB_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(DB_TESTS)

DB_RUNS := $(DB_TESTS:%=run/%)
$(DB_RUNS): run/%: %
	@$(RUN_TEST) --pg $(TEST_TIMES) $<
test-db: $(DB_RUNS)
.PHONY: test-db $(DB_RUNS)
TEST_RUN_EXTRA += test-db

# ---- tests/game/: the game service (game/). The import judge (game/import.c: engine and
# codec, and game/fairness.c's HMAC from libcrypto), a game's figures from its log (game/statistics.c: engine and jansson only)
# and the Actions body's text (game/actions.c: engine and codec)
# on the random games of bench/games.c, without a database; the store glue
# (game/game_repo.c) against a real PostgreSQL, with the db tests' support and fixture
# (tests/db/support.h), a throwaway cluster per program as for tests/db/.
GAME_UNIT_TESTS := $(B)/tests/game/test_import_judge $(B)/tests/game/test_statistics $(B)/tests/game/test_actions \
	$(B)/tests/game/test_mail_commands
GAME_DB_TESTS := $(filter-out $(GAME_UNIT_TESTS),$(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/game/test_*.c)))

$(B)/tests/game/test_import_judge: $(B)/obj/tests/game/test_import_judge.o $(B)/obj/game/import.o $(B)/obj/game/fairness.o $(CODEC_GAMES_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) -lcrypto $(CHECK_LIBS)

$(B)/tests/game/test_statistics: $(B)/obj/tests/game/test_statistics.o $(B)/obj/game/statistics.o $(CODEC_GAMES_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

$(B)/tests/game/test_actions: $(B)/obj/tests/game/test_actions.o $(B)/obj/game/actions.o $(CODEC_GAMES_OBJ) $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS) -lpthread

# The mail vocabulary (game/mail_commands.c: engine and codec only) on random games.
$(B)/tests/game/test_mail_commands: $(B)/obj/tests/game/test_mail_commands.o $(B)/obj/game/mail_commands.o $(TEST_SUPPORT_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) $(CHECK_LIBS)

$(GAME_DB_TESTS): $(B)/tests/game/%: $(B)/obj/tests/game/%.o $(DB_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(GAME_UNIT_TESTS) $(GAME_DB_TESTS)

GAME_UNIT_RUNS := $(GAME_UNIT_TESTS:%=run/%)
GAME_DB_RUNS := $(GAME_DB_TESTS:%=run/%)
$(GAME_UNIT_RUNS): run/%: %
	@$(RUN_TEST) $(TEST_TIMES) $<
$(GAME_DB_RUNS): run/%: %
	@$(RUN_TEST) --pg $(TEST_TIMES) $<
test-game: $(GAME_UNIT_RUNS) $(GAME_DB_RUNS)
.PHONY: test-game $(GAME_UNIT_RUNS) $(GAME_DB_RUNS)
TEST_RUN_EXTRA += test-game

# HTTP tests: real catan-server processes (the one of this build directory, passed as
# CATAN_SERVER, so the sanitizer pass tests the sanitizer build) on a throwaway PostgreSQL
# (scripts/with-postgres.sh), driven with libcurl, with Prism (openapi/node_modules)
# validating responses against openapi/openapi.yaml. tests/api/http_support.c is their
# shared support; it reads the ground truth of games with game/game_repo.h and db/store_events.h.
# tests/api/http_fixture.c is the server, proxy and clients every suite registers.
# The programs run one after another: some stop and start the database.
HTTP_TEST_SRC := $(wildcard tests/api/test_http_*.c)
HTTP_TESTS := $(HTTP_TEST_SRC:tests/%.c=$(B)/tests/%)
HTTP_TEST_SUPPORT_OBJ := $(B)/obj/tests/check_main.o $(B)/obj/tests/api/http_support.o $(B)/obj/tests/api/http_process.o \
	$(B)/obj/tests/api/http_player.o $(B)/obj/tests/api/http_fixture.o

# (test_http_board decodes pictures with cairo and frames them with render/.)
EXTRA_CFLAGS_tests += $(RENDER_CFLAGS)
$(HTTP_TESTS): $(B)/tests/api/%: $(B)/obj/tests/api/%.o $(HTTP_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl $(DB_LIBS) $(RENDER_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(HTTP_TESTS)

# The probe of every route (test_http_probe) reads the route table itself: api/routes.c,
# with the do-nothing handlers of tests/fuzz/fuzz_handlers.c behind its rows.
$(B)/tests/api/test_http_probe: $(B)/obj/api/routes.o $(B)/obj/http/router.o $(B)/obj/tests/fuzz/fuzz_handlers.o

# Asynchronous play (webhooks, deadlines, bot seats): the same support, plus a webhook
# receiver (tests/api/webhook_receiver.c, libmicrohttpd and OpenSSL's HMAC), the mailbox
# of the mail tests (tests/api/mail_sink.c) and a seat played by mail (tests/api/mail_player.c).
# test_async_mail_postfix runs itself under a private Postfix (tests/api/postfix_local.sh),
# skipped (status 77, scripts/run-test.sh) where Postfix is not installed or this is not root.
ASYNC_TEST_SRC := $(wildcard tests/api/test_async_*.c)
ASYNC_TESTS := $(ASYNC_TEST_SRC:tests/%.c=$(B)/tests/%)
WEBHOOK_RECEIVER_OBJ := $(B)/obj/tests/api/webhook_receiver.o $(B)/obj/tests/api/mail_sink.o \
	$(B)/obj/tests/api/mail_player.o

$(ASYNC_TESTS): $(B)/tests/api/%: $(B)/obj/tests/api/%.o $(HTTP_TEST_SUPPORT_OBJ) $(WEBHOOK_RECEIVER_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lmicrohttpd -lcurl -lcrypto $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(ASYNC_TESTS)

HTTP_RUNS := $(HTTP_TESTS:%=run/%)
ASYNC_RUNS := $(ASYNC_TESTS:%=run/%)
$(HTTP_RUNS) $(ASYNC_RUNS): run/%: % $(SERVER) $(CATAN) $(MAIL_IN) openapi-deps
	@CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(TEST_TIMEOUT_MULTIPLIER) $(RUN_TEST) --pg $(TEST_TIMES) $<
test-http: $(HTTP_RUNS) $(ASYNC_RUNS)
.PHONY: test-http $(HTTP_RUNS) $(ASYNC_RUNS)
TEST_RUN_EXTRA += test-http

# The long form of test_http_picture_stress (its short form, 3 clients x 150 uncached
# pictures, is part of test-http): 3 clients x 2,000, a few minutes. Not part of `make test`.
test-picture-stress: $(B)/tests/api/test_http_picture_stress $(SERVER)
	@scripts/with-postgres.sh sh -c 'CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(TEST_TIMEOUT_MULTIPLIER) \
		PICTURE_STRESS_PICTURES=$${PICTURE_STRESS_PICTURES:-2000} $(B)/tests/api/test_http_picture_stress'
.PHONY: test-picture-stress

# Just the asynchronous-play programs (they are part of test-http).
test-async: $(ASYNC_RUNS)
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

$(FAULT_TESTS): $(B)/tests/faults/%: $(B)/obj/tests/faults/%.o $(FAULT_SUPPORT_OBJ) $(HTTP_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(FAULT_TESTS)

FAULT_RUNS := $(FAULT_TESTS:%=run/%)
$(FAULT_RUNS): run/%: % $(SERVER)
	@CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(TEST_TIMEOUT_MULTIPLIER) $(RUN_TEST) --pg $(TEST_TIMES) $<
test-faults: $(FAULT_RUNS)
.PHONY: test-faults $(FAULT_RUNS)
ifeq ($(SAN),)
TEST_RUN_EXTRA += test-faults
endif

# The restore drill (tests/backup/): WAL archiving and a base backup of the throwaway
# cluster with the scripts of scripts/backup/ (docs/backup.md), games played through a real
# server, a time T, play on and a wrong DELETE, then a fresh cluster restored to T and a
# server on it: every game has exactly the moves acknowledged before T. 20-60 s; in the
# normal pass only (it tests the scripts and PostgreSQL's recovery more than the server).
# It links the fault suite's support (its ledger of acknowledged moves and its check).
BACKUP_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/backup/test_*.c))
$(BACKUP_TESTS): $(B)/tests/backup/%: $(B)/obj/tests/backup/%.o $(FAULT_SUPPORT_OBJ) $(HTTP_TEST_SUPPORT_OBJ) $(GAME_LIB) \
		$(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lcurl $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(BACKUP_TESTS)

BACKUP_RUNS := $(BACKUP_TESTS:%=run/%)
$(BACKUP_RUNS): run/%: % $(SERVER)
	@CATAN_SERVER=$(SERVER) CK_TIMEOUT_MULTIPLIER=$(TEST_TIMEOUT_MULTIPLIER) $(RUN_TEST) --pg $(TEST_TIMES) $<
test-backup: $(BACKUP_RUNS)
.PHONY: test-backup $(BACKUP_RUNS)
ifeq ($(SAN),)
TEST_RUN_EXTRA += test-backup
endif

# The high-availability suite (tests/ha/, issue 25): two servers on three PostgreSQL
# nodes under Patroni with etcd (scripts/ha/cluster.sh, started and stopped around the
# program by scripts/ha/run.sh; Debian's patroni, etcd-server, etcd-client, see
# scripts/deps.sh), games and webhooks under load while the leader's postmaster is killed,
# its node lost and a switchover made; then every acknowledged move and every announced
# event is checked on the new primary. `make test` runs one round (about 2-3 minutes), in
# the normal pass only; `make test-ha HA_ROUNDS=n` runs n rounds of the three faults.
HA_TEST_SRC := $(wildcard tests/ha/test_*.c)
HA_TESTS := $(HA_TEST_SRC:tests/%.c=$(B)/tests/%)

$(HA_TESTS): $(B)/tests/ha/%: $(B)/obj/tests/ha/%.o $(FAULT_SUPPORT_OBJ) $(WEBHOOK_RECEIVER_OBJ) $(HTTP_TEST_SUPPORT_OBJ) $(GAME_LIB) $(DB_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lmicrohttpd -lcurl -lcrypto $(DB_LIBS) $(CODEC_LIBS) $(CHECK_LIBS)

ALL_TARGETS += $(HA_TESTS)

HA_RUNS := $(HA_TESTS:%=run/%)
HA_ROUNDS ?= 1
$(HA_RUNS): run/%: % $(SERVER)
	@CATAN_SERVER=$(SERVER) HA_ROUNDS=$(HA_ROUNDS) CK_TIMEOUT_MULTIPLIER=$(TEST_TIMEOUT_MULTIPLIER) \
		$(RUN_TEST) $(TEST_TIMES) scripts/ha/run.sh $<
test-ha: $(HA_RUNS)
.PHONY: test-ha $(HA_RUNS)
ifeq ($(SAN),)
TEST_RUN_EXTRA += test-ha
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
# The longest programs are named first, so that `make -j` starts them first.
test-run: $(filter test-ha test-faults test-web,$(TEST_RUN_EXTRA)) test-engine test-codec $(TEST_RUN_EXTRA)
.PHONY: test-run

# What a test run took: the slowest programs, every failure and every skip (from $(TEST_TIMES)).
test-times:
	@[ -f $(TEST_TIMES) ] && { echo "slowest test programs ($(TEST_TIMES)):"; sort -rn $(TEST_TIMES) | head -12; \
		grep -E ' (FAILED|SKIPPED)$$' $(TEST_TIMES) || true; } || true
.PHONY: test-times
