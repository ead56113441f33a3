/* The dmlref command's subcommands in files of their own (main.c dispatches). */
#ifndef DMLREF_CLI_CLI_H
#define DMLREF_CLI_CLI_H

int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_gen(int argc, char **argv);

#endif
