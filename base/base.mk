# The floor: what every library needs and nothing else (base/*.c, the C library only): the
# aborting allocator family and the growing text (base/xalloc.h), the monotonic clock
# (base/clock.h), backoff for background threads (base/backoff.h), the process's counters
# (base/counters.h) and its structured log lines (base/log.h). Linked last, after every
# library that uses it.

BASE_SRC := $(wildcard base/*.c)
BASE_OBJ := $(BASE_SRC:%.c=$(B)/obj/%.o)
BASE_LIB := $(B)/libbase.a

$(BASE_LIB): $(BASE_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(BASE_LIB)
