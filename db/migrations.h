/*
 * migrations.h - the schema migrations compiled into the binary (internal to db/).
 *
 * db/gen_migrations.sh turns db/migrations/NNNN_name.sql into $(B)/gen/migrations.c at
 * build time, so a server applies its schema without the source tree. store_migrate()
 * (db/migrate.c) applies them in array order, which is the order of NNNN.
 */
#ifndef CATAN_DB_MIGRATIONS_H
#define CATAN_DB_MIGRATIONS_H

struct store_migration {
	int version;	  /* NNNN */
	const char *name; /* "NNNN_name" */
	const char *sql;  /* the file's text: one or more statements */
};

extern const struct store_migration store_migrations[];
extern const int store_migration_count;

#endif
