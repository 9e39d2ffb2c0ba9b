/*
 * ladder.h - the `catan` subcommands about bot levels: `catan ladder` (cmd/ladder.c) and
 * `catan bot` (cmd/bot_cli.c). Each takes main()'s arguments (argv[1] is the subcommand)
 * and returns the exit status.
 */
#ifndef CATAN_CMD_LADDER_H
#define CATAN_CMD_LADDER_H

int ladder_run(int argc, char **argv);
int bot_cli_run(int argc, char **argv);

#endif
