# The engine: a static library of pure rules (the `catan` program is in cmd/).

ENGINE_SRC := $(wildcard engine/*.c)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(B)/obj/%.o)
ENGINE_LIB := $(B)/libengine.a

$(ENGINE_LIB): $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(ENGINE_LIB)

# The board tables are generated; this target re-generates them and fails if they drift.
check-board-tables:
	@python3 tools/gen_board.py | cmp -s - engine/board_tables.c || \
		{ echo "engine/board_tables.c differs from tools/gen_board.py output"; exit 1; }
.PHONY: check-board-tables
