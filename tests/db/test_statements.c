/*
 * test_statements.c - the store's statement lists (db/store_internal.h) against the migrated
 * schema: every row of every area prepares, names a statement no other row names, and says
 * as many parameters as its SQL takes by the server's own count; a run that binds another
 * number is refused before anything is sent, and the connection stays usable.
 *
 * The lists are read here through STORE_AREAS, the way db/store_areas.c hands them to db/store.c, so a new
 * area or row is checked without touching this file.
 */
#include <stdio.h>
#include <string.h>

#include "db/store_events.h"
#include "db/store_internal.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define AREA_ADDRESS(area) &store__area_##area,
static const struct store_area *const areas[] = {STORE_AREAS(AREA_ADDRESS)};
#undef AREA_ADDRESS
#define AREA_COUNT ((int)(sizeof areas / sizeof areas[0]))

/* The statement named `name`, or NULL. */
static const struct store_statement *statement_named(const char *name)
{
	for (int area = 0; area < AREA_COUNT; area++)
		for (int i = 0; i < areas[area]->count; i++)
			if (strcmp(areas[area]->statements[i]->name, name) == 0)
				return areas[area]->statements[i];
	return NULL;
}

START_TEST(test_every_statement_takes_the_parameters_its_row_names)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	int statements = 0;
	for (int area = 0; area < AREA_COUNT; area++) {
		ck_assert_msg(areas[area]->count > 0, "area %s has no statement", areas[area]->name);
		for (int i = 0; i < areas[area]->count; i++) {
			const struct store_statement *statement = areas[area]->statements[i];
			/* Prepared without types, as a client that trusts nothing of the row: the
			 * server counts the parameters from the SQL alone. A name used twice fails
			 * here (the statement already exists on this connection). */
			PGresult *prepared = PQprepare(conn, statement->name, statement->sql, 0, NULL);
			ck_assert_msg(PQresultStatus(prepared) == PGRES_COMMAND_OK, "%s (area %s): %s", statement->name,
				      areas[area]->name, PQresultErrorMessage(prepared));
			PQclear(prepared);
			PGresult *described = PQdescribePrepared(conn, statement->name);
			ck_assert_int_eq(PQresultStatus(described), PGRES_COMMAND_OK);
			ck_assert_msg(PQnparams(described) == statement->params,
				      "%s (area %s): the SQL takes %d parameters, its row says %d", statement->name,
				      areas[area]->name, PQnparams(described), statement->params);
			PQclear(described);
			statements++;
		}
	}
	ck_assert_int_gt(statements, AREA_COUNT);
	PQfinish(conn);
}
END_TEST

START_TEST(test_a_run_with_another_number_of_parameters_is_refused)
{
	struct store *store = test_db_fixture.store;
	int64_t game = test_db_new_game(store, 3, 2);
	const struct store_statement *version = statement_named("version");
	ck_assert_ptr_nonnull(version);
	ck_assert_int_eq(version->params, 1);

	struct params two = {0};
	param_int(&two, game);
	param_int(&two, 7);
	PGresult *result = (PGresult *)1;
	ck_assert_int_eq(store__run(store, version, &two, 1, &result), STORE_INVALID);
	ck_assert_ptr_null(result);
	ck_assert_msg(strstr(store_message(store), "version takes 1 parameters, not 2") != NULL, "%s",
		      store_message(store));
	struct params none = {0};
	ck_assert_int_eq(store__run_and_notify(store, version, &none, game, 2, &result), STORE_INVALID);
	ck_assert_ptr_null(result);

	/* Nothing was sent: the same connection answers the right call. */
	int32_t current = -1;
	ck_assert_int_eq(store_version(store, game, &current), STORE_OK);
	ck_assert_int_eq(current, 2);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("statements");
	/* Preparing every statement of every area takes seconds, more on a loaded machine. */
	TCase *migrated = tcase_create("migrated");
	tcase_set_timeout(migrated, 120);
	test_db_fixture_add(migrated, TEST_DB_MIGRATED);
	tcase_add_test(migrated, test_every_statement_takes_the_parameters_its_row_names);
	suite_add_tcase(suite, migrated);
	TCase *store = tcase_create("store");
	tcase_set_timeout(store, 60);
	test_db_fixture_add(store, TEST_DB_WITH_STORE);
	tcase_add_test(store, test_a_run_with_another_number_of_parameters_is_refused);
	suite_add_tcase(suite, store);
	return suite;
}
