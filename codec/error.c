/*
 * error.c - the strings of error.h's table.
 */
#include "codec/error.h"

static const char *const codec_error_code_names[CODEC_ERROR_COUNT] = {[CODEC_ERROR_NONE] = "none",
#define CODEC_ERROR_NAME(name, code) [CODEC_ERROR_##name] = code,
								      CODEC_ERROR_TABLE(CODEC_ERROR_NAME)
#undef CODEC_ERROR_NAME
};

const char *codec_error_code_name(enum codec_error_code code)
{
	return (unsigned)code < CODEC_ERROR_COUNT ? codec_error_code_names[code] : "none";
}
