# The board pictures (render/*.c): a spectator's view drawn with cairo as SVG or PNG (PNG
# bytes written by libpng), and the server's picture cache and drawing slots. A static
# library over the engine and the floor; the server, the CLI, the benchmark and the tests
# link it with $(RENDER_LIBS).

RENDER_SRC := $(wildcard render/*.c)
RENDER_OBJ := $(RENDER_SRC:%.c=$(B)/obj/%.o)
RENDER_LIB := $(B)/librender.a
# RENDER_CFLAGS and RENDER_LIBS: from build/.deps.mk (the Makefile, scripts/pkg-flags.sh).
EXTRA_CFLAGS_render := $(RENDER_CFLAGS)

$(RENDER_LIB): $(RENDER_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(RENDER_LIB)
