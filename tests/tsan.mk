# ThreadSanitizer (issue 20): the server built with -fsanitize=thread (gcc's libtsan, which
# works with Debian 12's libraries) into build/tsan/, and the HTTP suites of this build
# directory run against it: the server processes are under TSan, the test clients are the
# normal ones (they only talk HTTP to it). tests/tsan_run.sh runs them with TSAN_OPTIONS
# that write every report to build/tsan/reports/ and fails the run when any report is
# there, whether or not the suites passed. tests/tsan.supp holds the suppressions, each for
# a library that is not instrumented and said why; none is for our code.
#
#   make test-tsan         every HTTP and async suite, then the stresses (many minutes)
#   make test-tsan-short   the suites of concurrent requests (concurrency, live streams,
#                          feed, pictures) and the two stresses (test_http_mixed_stress:
#                          moves, streams, feed, pictures and lists at once;
#                          test_http_picture_stress, 3 x 50 here): part of `make test`,
#                          about 3 minutes on a loaded 2-core machine, plus the build of
#                          the server (about a minute)

TSAN_B := build/tsan
TSAN_SERVER := $(TSAN_B)/catan-server
TSAN_SHORT := test_http_concurrency test_http_live test_http_feed test_http_board test_http_mixed_stress \
	test_http_picture_stress
TSAN_SHORT_TESTS := $(TSAN_SHORT:%=$(B)/tests/api/%)

# Always handed to the sub-make, which knows what is up to date.
tsan-server:
	@$(MAKE) --no-print-directory B=$(TSAN_B) TSAN=1 $(TSAN_SERVER)
.PHONY: tsan-server

# (after openapi/openapi.mk: test_http_typed_client and test_http_generated_client run the
# clients of this build directory, $(CLIENT_JS) and $(GEN_HEY_JS), which they would
# otherwise look for beside the TSan server)
test-tsan: tsan-server $(HTTP_TESTS) $(ASYNC_TESTS) $(CLIENT_JS) $(GEN_HEY_JS) openapi-deps
	@CATAN_TS_CLIENT=$(abspath $(CLIENT_JS)) CATAN_HEY_CLIENT=$(abspath $(GEN_HEY_JS)) scripts/with-postgres.sh sh tests/tsan_run.sh $(TSAN_SERVER) $(TSAN_B)/reports $(HTTP_TESTS) $(ASYNC_TESTS)
.PHONY: test-tsan

# (50 pictures per client: the picture stress is the slowest under TSan, and what TSan sees
# of drawing, our code around cairo, is the same in every picture)
test-tsan-short: tsan-server $(TSAN_SHORT_TESTS) openapi-deps
	@PICTURE_STRESS_PICTURES=50 scripts/with-postgres.sh sh tests/tsan_run.sh $(TSAN_SERVER) $(TSAN_B)/reports $(TSAN_SHORT_TESTS)
.PHONY: test-tsan-short
