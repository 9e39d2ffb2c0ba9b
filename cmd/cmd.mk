# The programs: `catan` (cmd/catan.c: sim, bench, bots, replay) and `catan-server`
# (cmd/catan_server.c: settings, migrations, the HTTP daemon and the background workers).

CATAN := $(B)/catan
# verify (cmd/verify.c) judges an export with the import's judge and the fairness
# derivation (game/import.o, game/fairness.o; HMAC from libcrypto) and reads a game id
# (db/store_format.o).
$(CATAN): $(B)/obj/cmd/catan.o $(B)/obj/cmd/ladder.o $(B)/obj/cmd/bot_cli.o $(B)/obj/cmd/verify.o \
		$(B)/obj/game/import.o $(B)/obj/game/fairness.o $(B)/obj/db/store_format.o \
		$(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RENDER_LIBS) $(CODEC_LIBS) -lcrypto

SERVER := $(B)/catan-server
$(SERVER): $(B)/obj/cmd/catan_server.o $(API_LIB) $(DELIVER_LIB) $(HTTP_LIB) $(GAME_LIB) $(DB_LIB) $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(API_LIBS) $(DELIVER_LIBS) $(HTTP_LIBS) $(DB_LIBS) $(RENDER_LIBS) $(CODEC_LIBS)

ALL_TARGETS += $(CATAN) $(SERVER)

# catan-mail-in (cmd/catan_mail_in.c): one reply mail on stdin, played by mail (Postfix's
# pipe transport runs it; README "Play by mail"). It links the game service like the server.
MAIL_IN := $(B)/catan-mail-in
$(MAIL_IN): $(B)/obj/cmd/catan_mail_in.o $(API_LIB) $(DELIVER_LIB) $(HTTP_LIB) $(GAME_LIB) $(DB_LIB) $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(API_LIBS) $(DELIVER_LIBS) $(HTTP_LIBS) $(DB_LIBS) $(RENDER_LIBS) $(CODEC_LIBS)

ALL_TARGETS += $(MAIL_IN)
EXTRA_CFLAGS_cmd := $(patsubst -I%,-isystem %,$(GMIME_CFLAGS))
