/*
 * check_main.h - every test program is one Check suite: its file defines test_suite(), and
 * tests/check_main.c runs it and exits non-zero on any failure.
 */
#ifndef CATAN_TESTS_CHECK_MAIN_H
#define CATAN_TESTS_CHECK_MAIN_H

#include <check.h>

Suite *test_suite(void);

#endif
