/*
 * openapi_json.h - the OpenAPI document (openapi/openapi.json), compiled into the server
 * by the build (api/api.mk generates the definition from the file).
 */
#ifndef CATAN_API_OPENAPI_JSON_H
#define CATAN_API_OPENAPI_JSON_H

#include <stddef.h>

extern const char openapi_json[];
extern const size_t openapi_json_length;

#endif
