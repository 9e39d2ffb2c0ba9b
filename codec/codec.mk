# The JSON codec: the one place that maps engine values to JSON and back, a file pair per
# concept (codec/error, names, options, log, shapes, and the internal reader and writer),
# and the quoting of client text (codec/text.c). A static library over jansson; the CLI,
# the store glue, the server and the tests link it. Names a person gives are judged with
# ICU's Unicode data (codec/person_name.c: libicuuc, Debian's libicu-dev).

CODEC_SRC := $(wildcard codec/*.c)
CODEC_OBJ := $(CODEC_SRC:%.c=$(B)/obj/%.o)
CODEC_LIB := $(B)/libcodec.a
CODEC_LIBS := -ljansson $(ICU_LIBS) -lm

$(CODEC_LIB): $(CODEC_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(CODEC_LIB)
