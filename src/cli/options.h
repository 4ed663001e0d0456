/* The command line: one table of commands and options, which both the parser and
 * --help read. */
#ifndef DLENV_CLI_OPTIONS_H
#define DLENV_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define DL_CLI_MAX_GPUS 16

typedef enum dl_color_mode { DL_COLOR_AUTO, DL_COLOR_ALWAYS, DL_COLOR_NEVER } dl_color_mode;

typedef struct dl_cli {
    const char *command;   /* NULL: none given */
    bool help;
    bool version;
    const char *root;      /* --root DIR; NULL means "/" */
    bool json;
    bool ascii;
    dl_color_mode color;
    double probe_timeout_s;  /* --probe-timeout; 0: the default */
    double import_timeout_s; /* --import-timeout; 0: the default */
    const char *python;      /* --python PATH */
    bool no_runtime;
    bool markdown;
    bool redact;
    bool verbose;
    bool list_checks;
    const char *check;       /* --check ID */
    bool strict;
    const char *data_dir;    /* --data DIR: knowledge tables that replace the built-in ones */
    const char *from;        /* --from FILE: a saved report's facts */
    const char *input;       /* explain FILE, "-" for stdin; diff A */
    const char *input2;      /* diff B */
    bool lock;               /* snapshot --lock */
    /* plan */
    bool why;
    bool quick;            /* verify --quick */
    bool full;             /* verify --full */
    bool offline;
    const char *torch;       /* --torch VERSION|REQUIREMENTS */
    const char *for_kind;    /* --for cpu|cuda|rocm|xpu|mps */
    const char *index_mirror;
    const char *os, *arch, *driver;
    const char *gpus[DL_CLI_MAX_GPUS];
    size_t n_gpus;
    /* run, profile */
    bool cpu;                /* --cpu */
    const char *env_name;    /* --env NAME: a conda env or venv by name */
    const char *format;      /* profile --format sh|bat|ps1|env|vscode */
    const char *output;      /* profile -o FILE */
    const char *name;        /* profile --name */
    const char *action;      /* profile ACTION: write */
    char **command_argv;     /* the command after the options (or `--`), NULL-terminated */
    size_t command_argc;
    const char *argv0;
} dl_cli;

typedef int (*dl_command_fn)(const dl_cli *cli);

typedef struct dl_command {
    const char *name;
    const char *summary;
    dl_command_fn run;
} dl_command;

/* Parses argv into cli. On a usage error returns false with a one-line message. */
bool dl_cli_parse(int argc, char **argv, dl_cli *cli, char **error);
const dl_command *dl_cli_find_command(const char *name);
/* Writes the help for one command, or the general help when command is NULL. */
void dl_cli_help(FILE *out, const char *command);

/* Commands (src/cli/<name>.c). */
int dl_cmd_report(const dl_cli *cli);
int dl_cmd_doctor(const dl_cli *cli);
int dl_cmd_verify(const dl_cli *cli);
int dl_cmd_data(const dl_cli *cli);
int dl_cmd_plan(const dl_cli *cli);
int dl_cmd_explain(const dl_cli *cli);
int dl_cmd_snapshot(const dl_cli *cli);
int dl_cmd_diff(const dl_cli *cli);
int dl_cmd_run(const dl_cli *cli);
int dl_cmd_profile(const dl_cli *cli);

#endif
