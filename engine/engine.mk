# The engine: a static library of pure rules, and the `catan` command-line program.

ENGINE_SRC := $(filter-out engine/cli.c,$(wildcard engine/*.c))
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(B)/obj/%.o)
ENGINE_LIB := $(B)/libengine.a

$(ENGINE_LIB): $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

CATAN := $(B)/catan
$(CATAN): $(B)/obj/engine/cli.o $(CODEC_LIB) $(ENGINE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS)

ALL_TARGETS += $(ENGINE_LIB) $(CATAN)

bench: $(CATAN)
	@$(CATAN) bench --games $${BENCH_GAMES:-20000} --players 4 --seed 1
.PHONY: bench

# The board tables are generated; this target re-generates them and fails if they drift.
check-board-tables:
	@python3 tools/gen_board.py | cmp -s - engine/board_tables.c || \
		{ echo "engine/board_tables.c differs from tools/gen_board.py output"; exit 1; }
.PHONY: check-board-tables
