/* The parsed command line (dl_cli) and the option rows that fill it. Each command lists
 * its own options (an array of dl_option in its file, named in cli/commands.c's table);
 * the rows shared by several commands are the DL_OPT_* macros below, so one option reads
 * and behaves the same wherever it appears. The parser and every --help read the rows. */
#ifndef DLENV_CLI_OPTIONS_H
#define DLENV_CLI_OPTIONS_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define DL_CLI_MAX_GPUS 16
#define DL_CLI_MAX_ARGS 2
#define DL_CLI_MAX_WITH 16

typedef enum dl_color_mode { DL_COLOR_AUTO, DL_COLOR_ALWAYS, DL_COLOR_NEVER } dl_color_mode;

/* --python X.Y: a Python described for `plan`, told from an interpreter's path once, when
 * parsed. major 0: none given. */
typedef struct dl_python_version {
    unsigned major, minor;
    bool free_threaded;      /* "3.13t" */
} dl_python_version;

typedef struct dl_cli {
    const char *command;     /* NULL: none given */
    const char *args[DL_CLI_MAX_ARGS]; /* the command's own arguments (explain FILE, diff A B,
                                          profile write), as its positional spec allows */
    size_t n_args;
    char **command_argv;     /* run, profile: the command after the options (or `--`) */
    size_t command_argc;
    const char *argv0;
    /* every command */
    bool help, version, ascii;
    dl_color_mode color;
    const char *data_dir;    /* --data DIR: knowledge tables that replace the built-in ones */
    /* the commands that gather facts */
    const char *root;        /* --root DIR; NULL means "/" */
    const char *from;        /* --from FILE: a saved report's facts */
    const char *python;      /* --python PATH: an interpreter (never a version) */
    dl_python_version python_version; /* plan --python X.Y */
    double probe_timeout_s;  /* 0: the default */
    double import_timeout_s; /* 0: the default */
    bool no_runtime, redact, json, strict, verbose;
    bool no_ext_import;      /* --no-ext-import: import torch, but no extension package */
    const char *skip_ext_import; /* --skip-ext-import LIST: these packages not */
    /* doctor */
    bool markdown, list_checks;
    const char *check;
    /* verify */
    bool quick, full;
    /* plan (a described machine: os, arch, gpus, driver) */
    bool why, offline;
    const char *torch, *for_kind, *index_mirror, *os, *arch, *driver;
    const char *gpus[DL_CLI_MAX_GPUS]; /* plan: a described GPU; run, profile: a choice */
    size_t n_gpus;
    /* snapshot */
    bool lock;
    /* run, profile */
    bool cpu;
    const char *env_name;    /* --env NAME: a conda env or venv by name or folder */
    const char *format, *output, *name;
    /* fleet check: the folder a textfile collector reads (node_exporter, NFD); a saved
       verify or snapshot whose measured figures go into the Prometheus textfile */
    const char *textfile, *snapshot;
    /* fleet check --format slurm --drain, fleet gres-conf: the node's name in Slurm */
    bool drain;
    const char *node;
    /* fleet report: the launcher's time limit, the hosts expected to answer */
    double timeout_s;
    const char *hosts;
    /* lint: its paths (any number), what fails, what to fix */
    const char **paths;
    size_t n_paths;
    const char *fail_on, *select, *ignore, *cuda;
    bool fix, diff, sarif, unsafe_fixes;
    /* setup, restore */
    bool yes, dry_run, rollback, prove, force;
    bool allow_python_download; /* setup, restore: uv may fetch the planned Python */
    const char *tool, *extra_index_url;
    const char *wheelhouse;  /* setup/restore --wheelhouse DIR: install from these wheels only */
    const char *with[DL_CLI_MAX_WITH]; /* --with PKG==V */
    size_t n_with;
    dl_strv owned;           /* values the parser made (lowercased ones); dl_cli_free */
} dl_cli;

typedef struct dl_option dl_option;
/* Stores value (NULL for a flag) in cli; false with a one-line *error when it is bad. */
typedef bool (*dl_option_set)(dl_cli *cli, const dl_option *o, const char *value,
                              char **error);

typedef enum dl_option_kind {
    DL_OPTK_FLAG,     /* bool field set to true */
    DL_OPTK_TEXT,     /* const char * field: the value as given */
    DL_OPTK_LOWER,    /* const char * field: the value in lower case (--os Windows) */
    DL_OPTK_SECONDS,  /* double field: 0.001 to 3600 */
    DL_OPTK_CALL      /* set() decides */
} dl_option_kind;

struct dl_option {
    const char *name;        /* long name without "--"; NULL ends a table */
    char short_name;         /* 0: none */
    const char *arg;         /* what the value is called in the help; NULL: a flag */
    const char *help;
    dl_option_kind kind;
    size_t field;            /* offsetof(dl_cli, ...) for every kind but DL_OPTK_CALL */
    dl_option_set set;       /* DL_OPTK_CALL only */
};

#define DL_OPT_ROW(name, s, arg, kind, field, help) \
    {name, s, arg, help, kind, offsetof(dl_cli, field), NULL}
#define DL_OPT_FLAG(name, s, field, help) DL_OPT_ROW(name, s, NULL, DL_OPTK_FLAG, field, help)
#define DL_OPT_TEXT(name, s, arg, field, help) DL_OPT_ROW(name, s, arg, DL_OPTK_TEXT, field, help)
#define DL_OPT_LOWER(name, arg, field, help) DL_OPT_ROW(name, 0, arg, DL_OPTK_LOWER, field, help)
#define DL_OPT_CALL(name, arg, set, help) {name, 0, arg, help, DL_OPTK_CALL, 0, set}
#define DL_OPT_END {NULL, 0, NULL, NULL, DL_OPTK_FLAG, 0, NULL}

bool dl_opt_set_gpu(dl_cli *cli, const dl_option *o, const char *value, char **error);
bool dl_opt_set_python_path(dl_cli *cli, const dl_option *o, const char *value, char **error);
bool dl_opt_set_python_or_version(dl_cli *cli, const dl_option *o, const char *value,
                                  char **error);

/* The rows several commands share. */
#define DL_OPT_JSON DL_OPT_FLAG("json", 0, json, "print JSON (\"schema\": \"dlenv.<command>/1\")")
#define DL_OPT_ROOT                                                                         \
    DL_OPT_TEXT("root", 0, "DIR", root,                                                      \
                "read the machine's files under DIR (a container image, a mounted disk)")
#define DL_OPT_FROM                                                                         \
    DL_OPT_TEXT("from", 0, "FILE", from,                                                     \
                "use the facts of a saved `dlenv report --json` (- for stdin), not this "    \
                "machine's")
#define DL_OPT_PROBE_TIMEOUT                                                                \
    DL_OPT_ROW("probe-timeout", 0, "SECONDS", DL_OPTK_SECONDS, probe_timeout_s,              \
               "how long NVML or the CUDA driver may take to answer (default 15)")
#define DL_OPT_IMPORT_TIMEOUT                                                               \
    DL_OPT_ROW("import-timeout", 0, "SECONDS", DL_OPTK_SECONDS, import_timeout_s,            \
               "how long `import torch` may take in one interpreter (default 60); the "      \
               "extension packages imported after it get as long again")
#define DL_OPT_PYTHON                                                                       \
    DL_OPT_CALL("python", "PATH", dl_opt_set_python_path,                                    \
                "also inspect this interpreter, first")
#define DL_OPT_NO_RUNTIME DL_OPT_FLAG("no-runtime", 0, no_runtime, "do not run `import torch`")
/* The extension packages (xformers, flash-attn ...) imported after torch, each in its own
 * child under the import timeout. */
#define DL_OPTS_EXT_IMPORT                                                                  \
    DL_OPT_FLAG("no-ext-import", 0, no_ext_import,                                           \
                "do not import the extension packages (xformers, flash-attn ...) after "     \
                "torch"),                                                                    \
    DL_OPT_TEXT("skip-ext-import", 0, "LIST", skip_ext_import,                               \
                "do not import these extension packages (comma-separated: xformers,vllm)")
#define DL_OPT_REDACT                                                                       \
    DL_OPT_FLAG("redact", 0, redact,                                                         \
                "replace the user name, home directory and host name in the output")
#define DL_OPT_STRICT DL_OPT_FLAG("strict", 0, strict, "warnings fail too (exit code 1)")
#define DL_OPT_INDEX_MIRROR                                                                 \
    DL_OPT_TEXT("index-mirror", 0, "URL", index_mirror,                                      \
                "a mirror of https://download.pytorch.org/whl to use in the commands")
/* run and profile: where the command runs */
#define DL_OPTS_RUN                                                                         \
    DL_OPT_CALL("gpu", "LIST", dl_opt_set_gpu,                                               \
                "only these GPUs: 1 or 0,2, GPU-UUID (or prefix), PCI bus id"),              \
    DL_OPT_FLAG("cpu", 0, cpu, "no GPU at all (CUDA_VISIBLE_DEVICES empty)"),               \
    DL_OPT_CALL("python", "PATH", dl_opt_set_python_path,                                    \
                "in this interpreter's venv or conda env, as if activated"),                 \
    DL_OPT_TEXT("env", 0, "NAME", env_name,                                                  \
                "in this conda env or venv: by name, by folder, or ./NAME here (.venv)"),    \
    DL_OPT_PROBE_TIMEOUT

/* The options every command takes, after its own: --help, --version, --data, the style. */
extern const dl_option dl_common_options[];

/* Looks a long name (len bytes of name) or a short one (name NULL) up in a table. */
const dl_option *dl_option_find(const dl_option *table, const char *name, size_t len,
                                char short_name);
/* Applies one option; false with a one-line *error. */
bool dl_option_apply(const dl_option *o, const char *value, dl_cli *cli, char **error);

/* Parses argv into cli (dl_cli_free after). On a usage error returns false with a one-line
 * message (a close name offered for a mistyped command or option). */
bool dl_cli_parse(int argc, char **argv, dl_cli *cli, char **error);
void dl_cli_free(dl_cli *cli);

#endif
