# Outbound delivery (deliver/*.c): the delivery threads and their one loop (deliver.c),
# one file per format of the table (standard.c, chat.c, mail.c), the HTTP POST guarded
# against private destinations (post.c, destination.c), and what the formats say
# (channels.c, summary.c, mail_message.c). Over the game service; the program links it
# after $(API_LIB) with $(DELIVER_LIBS).

DELIVER_SRC := $(wildcard deliver/*.c)
DELIVER_OBJ := $(DELIVER_SRC:%.c=$(B)/obj/%.o)
DELIVER_LIB := $(B)/libdeliver.a
DELIVER_LIBS := -lcurl -lcrypto -lpthread -lm

$(DELIVER_LIB): $(DELIVER_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(DELIVER_LIB)
