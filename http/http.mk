# The HTTP server (http/*.c, libmicrohttpd): connections and their guard, requests and
# responses, headers, CORS, rate limits, who the client is, problems, the access log, the
# request metrics, a router over the table the application hands in, and the framing of
# Server-Sent Events. It knows no handler and no game; the program links it after
# $(API_LIB) with $(HTTP_LIBS).

HTTP_SRC := $(wildcard http/*.c)
HTTP_OBJ := $(HTTP_SRC:%.c=$(B)/obj/%.o)
HTTP_LIB := $(B)/libhttp.a
HTTP_LIBS := -lmicrohttpd -lcrypto -lpthread

$(HTTP_LIB): $(HTTP_OBJ)
	@rm -f $@
	ar rcs $@ $^

ALL_TARGETS += $(HTTP_LIB)
