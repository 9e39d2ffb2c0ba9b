# The event store: a static library over libpq, with the schema migrations compiled in.
#
#   $(DB_LIB)      db/*.c and the generated $(B)/gen/migrations.c; link with $(DB_LIBS)

# PQ_CFLAGS: from build/.deps.mk (the Makefile, scripts/pkg-flags.sh).
EXTRA_CFLAGS_db := $(PQ_CFLAGS)

DB_SRC := $(wildcard db/*.c)
DB_OBJ := $(DB_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/migrations.o
DB_LIB := $(B)/libstore.a
DB_LIBS := -lpq -lcrypto -lpthread
DB_MIGRATIONS := $(sort $(wildcard db/migrations/*.sql))

$(B)/gen/migrations.c: db/gen_migrations.sh scripts/c_lines.sh $(DB_MIGRATIONS)
	@mkdir -p $(dir $@)
	sh db/gen_migrations.sh $(DB_MIGRATIONS) > $@

$(B)/obj/gen/migrations.o: $(B)/gen/migrations.c db/migrations.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(DB_LIB): $(DB_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(DB_LIB)

