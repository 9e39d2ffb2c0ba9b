# Outbound delivery (deliver/*.c): the delivery threads and their one loop (deliver.c),
# one file per format of the table (standard.c, chat.c, mail.c), the HTTP POST guarded
# against private destinations (post.c, destination.c), and what the formats say
# (channels.c, summary.c, mail_message.c); the way in of play by mail: a reply read with
# GMime (mail_in.c) and its reply address (mail_reply.c). Over the game service; the
# programs link it after $(API_LIB) with $(DELIVER_LIBS).

DELIVER_SRC := $(wildcard deliver/*.c)
DELIVER_OBJ := $(DELIVER_SRC:%.c=$(B)/obj/%.o)
DELIVER_LIB := $(B)/libdeliver.a
DELIVER_LIBS := -lcurl -lcrypto -lpthread -lm $(GMIME_LIBS)
# GMime (deliver/mail_in.c) and glib's headers as system headers: the warnings are the tree's.
EXTRA_CFLAGS_deliver := $(patsubst -I%,-isystem %,$(GMIME_CFLAGS))

$(DELIVER_LIB): $(DELIVER_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(DELIVER_LIB)
