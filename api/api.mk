# The API: api/*.c (the route table, the handlers and their glue to the game service) as a
# static library, with the OpenAPI document and the web client's files compiled in. The
# program `catan-server` (cmd/catan_server.c) links it before $(DELIVER_LIB) and
# $(HTTP_LIB), on which it stands.

API_SRC := $(wildcard api/*.c)
API_OBJ := $(API_SRC:%.c=$(B)/obj/%.o) $(B)/obj/gen/openapi_json.o $(B)/obj/gen/web_files.o $(B)/obj/gen/docs_files.o
API_LIB := $(B)/libapi.a
API_LIBS := -lpthread -lm

$(B)/gen/openapi_json.c: openapi/openapi.json scripts/embed.sh scripts/c_lines.sh
	@mkdir -p $(dir $@)
	sh scripts/embed.sh openapi_json openapi/openapi.json > $@

$(B)/obj/gen/openapi_json.o: $(B)/gen/openapi_json.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The web client's committed build (web/dist, see web/web.mk), served by api/web.c.
WEB_DIST_FILES := $(sort $(wildcard web/dist/*))

$(B)/gen/web_files.c: $(WEB_DIST_FILES) scripts/embed_web.sh scripts/c_lines.sh
	@mkdir -p $(dir $@)
	sh scripts/embed_web.sh web/dist > $@

$(B)/obj/gen/web_files.o: $(B)/gen/web_files.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The API reference's committed build (openapi/docs, see openapi/openapi.mk), served at /docs.
DOCS_FILES := $(sort $(wildcard openapi/docs/*))

$(B)/gen/docs_files.c: $(DOCS_FILES) scripts/embed_web.sh scripts/c_lines.sh
	@mkdir -p $(dir $@)
	sh scripts/embed_web.sh openapi/docs docs > $@

$(B)/obj/gen/docs_files.o: $(B)/gen/docs_files.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(API_LIB): $(API_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(API_LIB)

