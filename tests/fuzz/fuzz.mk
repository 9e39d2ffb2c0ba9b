# Fuzzing with libFuzzer (clang, with AddressSanitizer and UndefinedBehaviorSanitizer):
# one program per target, tests/fuzz/fuzz_<target>.c, built into build/fuzz/.
#
#   make fuzz                  each target for FUZZ_SECONDS (60) on a scratch copy of its
#                              corpus; prints executions per second and in total
#   make test-fuzz             every committed corpus file and every saved crash
#                              (tests/fuzz/crashes/<target>/) as regression inputs, then
#                              FUZZ_TEST_SECONDS (5) of fuzzing per target; part of `make test`
#   make fuzz-build            just the programs
#
# The committed corpora (tests/fuzz/corpus/<target>/) never grow by themselves: runs work on
# copies under build/fuzz/run/, and a crash's input lands in build/fuzz/artifacts/<target>/
# (copy it to tests/fuzz/crashes/<target>/ to keep it found). tests/fuzz/run.sh does the
# running. The libraries are compiled again here with clang and -fsanitize=fuzzer-no-link
# (coverage for libFuzzer) beside the sanitizers, separate from the gcc objects of build/.

FUZZ_B := build/fuzz
FUZZ_CC := clang
FUZZ_SECONDS ?= 60
FUZZ_TEST_SECONDS ?= 5
FUZZ_SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# clang warns about a few things gcc does not; those are reported, not fixed here.
FUZZ_CFLAGS := $(WARNINGS) -Wno-unused-but-set-variable -O1 -g $(FUZZ_SANITIZERS) -MMD -MP
FUZZ_LIBS := -ljansson -lcrypto -lcurl $(ICU_LIBS) $(GMIME_LIBS)

FUZZ_TARGETS := codec_options codec_move codec_event codec_replay http engine import
# Request bodies parsed as the handlers parse them (api/inputs.c).
FUZZ_TARGETS += names messages away join
# Registrations and the text of channels (issue 20): webhook bodies with formats and
# mentions, mail addresses, and the escape of player text per format.
FUZZ_TARGETS += webhook_body mail_address escape
# The input of `catan bot` (issue 27): a seat's view and the board, as the API shows them.
FUZZ_TARGETS += bot_position
# Play by mail (issue 29): a mail that comes in, read with GMime, and the command reader.
FUZZ_TARGETS += mail_in mail_commands
FUZZ_PROGRAMS := $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)

# What the targets run: the engine, the codec, and the parts of api/ that need no socket
# (the bodies the handlers read: api/inputs.c, with its time zones game/zones.c, and
# api/registration.c; the import's reading and judging: api/import_body.c, game/import.c
# and game/fairness.c; the channels' text).
FUZZ_LIB_SRC := $(wildcard engine/*.c) $(wildcard codec/*.c) http/problem.c http/router.c api/routes.c api/inputs.c \
	game/auth.c deliver/destination.c http/headers.c $(wildcard base/*.c) api/import_body.c game/import.c \
	game/fairness.c game/zones.c \
	tests/fuzz/fuzz_support.c tests/fuzz/fuzz_handlers.c \
	api/registration.c deliver/channels.c deliver/summary.c deliver/mail_message.c db/store_format.c \
	deliver/mail_in.c game/mail_commands.c
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_B)/obj/%.o)

$(FUZZ_B)/obj/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) $(FUZZ_EXTRA) -fsanitize=fuzzer-no-link -c $< -o $@

# GMime's and glib's headers, as system headers (deliver/mail_in.c alone includes them).
$(FUZZ_B)/obj/deliver/mail_in.o: FUZZ_EXTRA := $(patsubst -I%,-isystem %,$(GMIME_CFLAGS))

$(FUZZ_B)/main/%.o: tests/fuzz/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -c $< -o $@

$(FUZZ_B)/fuzz_%: $(FUZZ_B)/main/fuzz_%.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_SANITIZERS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

fuzz-build: $(FUZZ_PROGRAMS)
.PHONY: fuzz-build

fuzz: $(FUZZ_PROGRAMS)
	@sh tests/fuzz/run.sh fuzz $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
.PHONY: fuzz

test-fuzz: $(FUZZ_PROGRAMS)
	@sh tests/fuzz/run.sh test $(FUZZ_B) $(FUZZ_TEST_SECONDS) $(FUZZ_TARGETS)
.PHONY: test-fuzz

-include $(shell find $(FUZZ_B)/obj $(FUZZ_B)/main -name '*.d' 2>/dev/null)

# Re-make the seed corpora (tests/fuzz/gen_corpus.c, built with the normal compiler).
FUZZ_GEN := $(B)/tests/fuzz/gen_corpus
$(FUZZ_GEN): $(B)/obj/tests/fuzz/gen_corpus.o $(GAME_LIB) $(CODEC_GAMES_OBJ) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS) -lcrypto

ALL_TARGETS += $(FUZZ_GEN)

fuzz-corpus: $(FUZZ_GEN)
	rm -rf tests/fuzz/corpus
	$(FUZZ_GEN) tests/fuzz/corpus
.PHONY: fuzz-corpus
