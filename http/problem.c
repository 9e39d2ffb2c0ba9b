/*
 * problem.c - the table behind problem.h, and the problem+json body built from it.
 *
 * A body must always exist: a NULL one used to abort the server in json_dumps(). jansson
 * refuses strings that are not valid UTF-8, and the texts put into a body are not all
 * ours: a detail may quote a client's bytes (jansson's own parse error quotes the bytes
 * near the error, and stops inside a character when that character follows a bad escape)
 * and the instance is the request path as the client sent it.
 */
#include "http/problem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/text.h"

struct problem_entry {
	const char *code;
	int status;
	const char *title;
};

static const struct problem_entry problem_entries[PROBLEM_COUNT] = {
#define PROBLEM_ENTRY(name, code, status, title) {code, status, title},
	PROBLEM_TABLE(PROBLEM_ENTRY)
#undef PROBLEM_ENTRY
};

const char *problem_code(enum problem problem)
{
	return (unsigned)problem < PROBLEM_COUNT ? problem_entries[problem].code : "internal_error";
}

int problem_status(enum problem problem)
{
	return (unsigned)problem < PROBLEM_COUNT ? problem_entries[problem].status : 500;
}

const char *problem_title(enum problem problem)
{
	return (unsigned)problem < PROBLEM_COUNT ? problem_entries[problem].title : "Internal error";
}

int problem_status_of_error(enum error error)
{
	if (error == ERROR_TRADE_NOT_FOUND)
		return 404;
	return error_kind(error) == ERROR_KIND_INPUT ? 400 : 422;
}

const char *problem_title_of_error(enum error error)
{
	int status = problem_status_of_error(error);
	return status == 400 ? "Invalid move" : status == 404 ? "Not found" : "Move refused by the rules";
}

enum problem problem_of_codec_error(enum codec_error_code code)
{
	switch (code) {
#define PROBLEM_OF_CODEC_ERROR(name, code) \
	case CODEC_ERROR_##name:           \
		return PROBLEM_##name;
		CODEC_ERROR_TABLE(PROBLEM_OF_CODEC_ERROR)
#undef PROBLEM_OF_CODEC_ERROR
	default:
		return PROBLEM_INVALID_FIELD;
	}
}

json_t *problem_json(const char *instance, const char *code, int status, const char *title, const char *detail,
		     const char *field, long version)
{
	char type[96];
	snprintf(type, sizeof type, "urn:catan:problem:%s", code);
	json_t *body = json_pack("{s:s, s:s, s:i, s:o, s:s}", "type", type, "title", title, "status", status, "detail",
				 text_json(detail ? detail : title), "code", code);
	if (!body)
		return NULL;
	if (field)
		json_object_set_new(body, "field", text_json(field));
	if (version >= 0)
		json_object_set_new(body, "version", json_integer(version));
	json_object_set_new(body, "instance", text_json(instance));
	return body;
}

int problem_refuse(struct problem_refusal *refusal, enum problem problem, const char *field, const char *format, ...)
{
	refusal->problem = problem;
	refusal->field = field;
	va_list arguments;
	va_start(arguments, format);
	vsnprintf(refusal->detail, sizeof refusal->detail, format, arguments);
	va_end(arguments);
	return 0;
}
