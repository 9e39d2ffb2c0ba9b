# The programs: `catan` (cmd/catan.c: sim, bench, bots, replay) and `catan-server`
# (cmd/catan_server.c: settings, migrations, the HTTP daemon and the background workers).

CATAN := $(B)/catan
$(CATAN): $(B)/obj/cmd/catan.o $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(RENDER_LIBS) $(CODEC_LIBS)

SERVER := $(B)/catan-server
$(SERVER): $(B)/obj/cmd/catan_server.o $(API_LIB) $(DELIVER_LIB) $(HTTP_LIB) $(GAME_LIB) $(DB_LIB) $(RENDER_LIB) $(CODEC_LIB) $(ENGINE_LIB) $(BASE_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(API_LIBS) $(DELIVER_LIBS) $(HTTP_LIBS) $(DB_LIBS) $(RENDER_LIBS) $(CODEC_LIBS)

ALL_TARGETS += $(CATAN) $(SERVER)
