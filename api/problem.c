/*
 * problem.c - the table behind problem.h.
 */
#include "api/problem.h"

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
