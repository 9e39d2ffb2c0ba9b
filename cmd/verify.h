/*
 * verify.h - `catan verify EXPORT.json` (docs/fairness.md): check a finished game's export.
 */
#ifndef CATAN_CMD_VERIFY_H
#define CATAN_CMD_VERIFY_H

#include <stddef.h>
#include <stdio.h>

/* Verify the export text[0 .. size): print what was checked to `out` ("412 rolls, 31 steals,
 * 25 draws: all match") and return 0, or print the first mismatch to `err` and return 1. */
int verify_export(const char *text, size_t size, FILE *out, FILE *err);

#endif
