# Catan game service: one library per folder (README's source layout), from the floor
# (base/) and the pure rules (engine/) up to the API (api/), and the programs (cmd/).
#
#   make            build everything into build/ (runs scripts/deps.sh first)
#   make test       every test suite, then again under ASan+UBSan (build/asan/), then a
#                   short pass of the libFuzzer targets (tests/fuzz/fuzz.mk), then the
#                   concurrent suites against a ThreadSanitizer server (tests/tsan.mk)
#   make fuzz       each libFuzzer target for FUZZ_SECONDS (60) seconds
#   make bench      engine benchmark: random 4-player games on one core
#   make run        serve on http://localhost:8080 (private PostgreSQL under ./var/); the
#                   web client is at http://localhost:8080/ (web/web.mk: make web-build,
#                   make test-web)
#
# Each folder adds its targets in its own fragment (<folder>/<folder>.mk: base/base.mk ...
# api/api.mk, cmd/cmd.mk; tests/tests.mk, tests/fuzz/fuzz.mk). B is the build directory
# and SAN=1 builds with sanitizers; the sanitizer pass of `make test` is this same
# Makefile run with B=build/asan SAN=1.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY:

B ?= build
SAN ?=
CC ?= cc
ifeq ($(CC),cc)
CC := gcc
endif

WARNINGS := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
OPTFLAGS ?= -O2
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPTFLAGS := -O1
endif
# TSAN=1: ThreadSanitizer instead (tests/tsan.mk: `make test-tsan` builds the server so).
ifeq ($(TSAN),1)
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
OPTFLAGS := -O1
endif
CPPFLAGS := -D_DEFAULT_SOURCE -I.
CFLAGS := $(WARNINGS) $(OPTFLAGS) -g $(SANFLAGS) -MMD -MP
LDFLAGS := $(SANFLAGS)

# The packages' flags, read by pkg-config only after scripts/deps.sh has installed them: a
# fresh machine's first `make` must work, so no fragment calls pkg-config while the Makefile
# is read. build/.deps.mk is made (deps.sh, then pkg-config) and included; make reads the
# Makefile again once it exists. It is also the order-only prerequisite of every object.
# SKIP_DEPS=1 (e.g. in docker/Dockerfile, which installs its own packages) skips deps.sh.
DEPS_STAMP := build/.deps.mk

$(DEPS_STAMP): scripts/deps.sh scripts/pkg-flags.sh
	@if [ "$(SKIP_DEPS)" != 1 ]; then scripts/deps.sh; fi
	@mkdir -p $(dir $@)
	@sh scripts/pkg-flags.sh > $@.tmp && mv $@.tmp $@

include $(DEPS_STAMP)

deps: $(DEPS_STAMP)
.PHONY: deps

$(B)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_$(firstword $(subst /, ,$<))) -c $< -o $@

# One fragment per folder, each building exactly that folder (see README's source layout):
# the libraries first, then the programs that link them, then the tests.
include base/base.mk
include engine/engine.mk
include codec/codec.mk
include render/render.mk
include db/db.mk
include game/game.mk
include http/http.mk
include deliver/deliver.mk
include api/api.mk
include cmd/cmd.mk
include bench/bench.mk
include web/web.mk
include tests/tests.mk
include tests/fuzz/fuzz.mk
-include openapi/openapi.mk
include tests/tsan.mk

all: $(ALL_TARGETS)
.PHONY: all

# Every library, lowest last (the order a program links them in).
LIBRARIES := $(API_LIB) $(DELIVER_LIB) $(HTTP_LIB) $(GAME_LIB) $(DB_LIB) $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) \
	$(BASE_LIB)

# Everything CI checks: the format, the layers, the contract's lint, every suite, then every suite again under
# AddressSanitizer and UndefinedBehaviorSanitizer, then a short pass of every fuzz target
# with its corpus and saved crashes as regression inputs (tests/fuzz/fuzz.mk; once, as it
# builds with clang and the sanitizers itself), then the suites of concurrent requests and
# the stresses against a ThreadSanitizer build of the server (tests/tsan.mk; its short form).
# The programs of each pass run TEST_JOBS at a time (most wait on sockets and timers, not
# on the CPU), each with a cluster of its own; -k runs them all before saying which failed.
TEST_JOBS ?= 4
# Each stage's minutes are printed as it ends and kept in build/test-stages.txt.
test: all
	@rm -f build/test-times.txt build/asan/test-times.txt build/test-stages.txt
	scripts/timed.sh checks sh -c 'scripts/format-check.sh && B=$(B) scripts/check-layers.sh && \
		scripts/check-cairo-calls.sh && $(MAKE) lint'
	scripts/timed.sh normal $(MAKE) -k -j$(TEST_JOBS) -O test-run || \
		{ $(MAKE) --no-print-directory test-times; exit 1; }
	@$(MAKE) --no-print-directory test-times
	scripts/timed.sh asan $(MAKE) -k -j$(TEST_JOBS) -O B=build/asan SAN=1 test-run || \
		{ $(MAKE) --no-print-directory B=build/asan SAN=1 test-times; exit 1; }
	@$(MAKE) --no-print-directory B=build/asan SAN=1 test-times
	scripts/timed.sh fuzz $(MAKE) test-fuzz
	scripts/timed.sh tsan $(MAKE) test-tsan-short
	@cat build/test-stages.txt
.PHONY: test

# Each folder includes only the folders below it, and no two modules are in a circle of
# includes or of calls (scripts/check-layers.sh, scripts/check-cycles.py: the calls are read
# from the libraries' objects, so they are built first); every cairo call is checked for
# render/lock.h's lock (scripts/check-cairo-calls.sh). Run by `make test`.
check-layers: $(LIBRARIES) $(SERVER) $(CATAN)
	@B=$(B) scripts/check-layers.sh
	@scripts/check-cairo-calls.sh
.PHONY: check-layers

# Every C file as clang-format writes it under .clang-format (scripts/format-check.sh;
# `scripts/format-check.sh --fix` rewrites what differs). Run by `make test`.
format-check:
	@scripts/format-check.sh
.PHONY: format-check

run: $(SERVER)
	@scripts/run.sh $(SERVER)
.PHONY: run

clean:
	rm -rf build
.PHONY: clean

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
