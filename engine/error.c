/*
 * error.c - the message table behind error.h.
 */
#include "error.h"

struct error_entry {
	const char *code;
	const char *message;
	enum error_kind kind;
};

static const struct error_entry error_entries[ERROR_COUNT] = {
#define ERROR_ENTRY(name, code, kind, message) {code, message, ERROR_KIND_##kind},
	ERROR_TABLE(ERROR_ENTRY)
#undef ERROR_ENTRY
};

const char *error_code(enum error error)
{
	if ((unsigned)error >= ERROR_COUNT)
		return "unknown";
	return error_entries[error].code;
}

const char *error_message(enum error error)
{
	if ((unsigned)error >= ERROR_COUNT)
		return "unknown error";
	return error_entries[error].message;
}

enum error_kind error_kind(enum error error)
{
	if ((unsigned)error >= ERROR_COUNT)
		return ERROR_KIND_INPUT;
	return error_entries[error].kind;
}
