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

test-engine: $(ENGINE_TESTS)
	@set -e; for t in $(ENGINE_TESTS); do echo "== $$t"; PROPERTY_GAMES=$${PROPERTY_GAMES:-$(if $(SAN),2000,10000)} $$t; done
.PHONY: test-engine

test-run: test-engine $(TEST_RUN_EXTRA)
.PHONY: test-run
