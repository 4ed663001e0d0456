/* `dlenv lint`: Python training scripts checked for the pitfalls that break them on
 * Windows, on CPU-only machines and on new torch releases (docs/lint.md lists the rules).
 * The engine: files and folders walked (walk.c), each parsed with tree-sitter
 * (source.c), imports resolved so rules see qualified names (names.c), the rules
 * (rules*.c, one table in rules.c), `# noqa`, safe fixes (fix.c) and the output views
 * (report.c). It reads files through os/ and never prints; cli/lint.c writes. */
#ifndef DLENV_LINT_LINT_H
#define DLENV_LINT_LINT_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum dl_lint_severity {
    DL_LINT_INFO = 0,
    DL_LINT_WARNING = 1,
    DL_LINT_ERROR = 2,
    DL_LINT_OFF = 3 /* a rule that cannot matter on the target: not reported */
} dl_lint_severity;

const char *dl_lint_severity_name(dl_lint_severity s);
/* "info", "warning", "error"; false for anything else. */
bool dl_lint_severity_parse(const char *text, dl_lint_severity *out);

/* Where the code will run. Each fact may be unknown: a rule then judges as if it could
 * go either way (usually a warning). */
typedef enum dl_lint_os { DL_LINT_OS_UNKNOWN, DL_LINT_OS_LINUX, DL_LINT_OS_WINDOWS,
                          DL_LINT_OS_MACOS } dl_lint_os;
typedef enum dl_lint_tristate { DL_LINT_UNKNOWN = -1, DL_LINT_NO = 0, DL_LINT_YES = 1 }
    dl_lint_tristate;

typedef struct dl_lint_target {
    dl_lint_os os;
    unsigned torch_major, torch_minor; /* 0.0: unknown */
    dl_lint_tristate cuda;             /* will a CUDA device exist there */
    char *described;                   /* "linux, torch 2.5, no CUDA" (owned) */
} dl_lint_target;

bool dl_lint_os_parse(const char *text, dl_lint_os *out);
const char *dl_lint_os_name(dl_lint_os os);
/* The target's torch is at least major.minor; unknown when it is not known. */
dl_lint_tristate dl_lint_torch_at_least(const dl_lint_target *t, unsigned major,
                                        unsigned minor);
void dl_lint_target_describe(dl_lint_target *t);
void dl_lint_target_free(dl_lint_target *t);

/* One replacement in a file's bytes. */
typedef struct dl_lint_edit {
    size_t start, end;  /* byte offsets, end exclusive */
    char *text;         /* owned */
} dl_lint_edit;

typedef struct dl_lint_finding {
    char *file;             /* as walked (owned) */
    unsigned line, column;  /* 1-based; 0: the whole file (cannot read, link loop) */
    const char *id;         /* a rule id (static) */
    dl_lint_severity severity;
    char *message;          /* owned */
    dl_lint_edit *edits;    /* a fix; NULL when there is none */
    size_t n_edits;
    bool unsafe_fix;        /* the fix is an unsafe one (--unsafe-fixes) */
    bool fixed;             /* --fix applied it */
} dl_lint_finding;

typedef struct dl_lint_findings {
    dl_lint_finding *v;
    size_t n, cap;
} dl_lint_findings;

typedef struct dl_lint_settings {
    dl_lint_target target;
    bool fix;                /* apply the safe fixes (write the files) */
    bool diff;               /* compute the fixes' diff, write nothing */
    bool unsafe_fixes;       /* offer the unsafe fixes too (docs/lint.md) */
    dl_strv select, ignore;  /* rule ids; empty select: all */
} dl_lint_settings;

typedef struct dl_lint_run {
    dl_lint_findings findings;
    size_t files, lines, bytes;
    char *diff;              /* --diff: a unified diff of every fix (owned; NULL: none) */
    size_t files_fixed;
    dl_strv errors;          /* paths that could not be written by --fix */
} dl_lint_run;

/* Lints every path (a file, or a folder walked for *.py honouring .gitignore). A path that
 * does not exist is a finding too (id "walk"); nothing here fails the run. */
void dl_lint_paths(const char *const *paths, size_t n, const dl_lint_settings *opts,
                   dl_lint_run *run);
void dl_lint_run_free(dl_lint_run *run);

/* The rules, for the help and the docs check. */
typedef struct dl_lint_rule_info {
    const char *id;
    const char *summary;
} dl_lint_rule_info;
const dl_lint_rule_info *dl_lint_rule_infos(size_t *n);
bool dl_lint_rule_known(const char *id);

/* Views (report.c): text like a compiler, JSON ("dlenv.lint/1"), SARIF 2.1.0. */
char *dl_lint_render_text(const dl_lint_run *run, const dl_lint_settings *opts);
char *dl_lint_render_json(const dl_lint_run *run, const dl_lint_settings *opts);
char *dl_lint_render_sarif(const dl_lint_run *run, const dl_lint_settings *opts);

/* The parser's identity for --version-like output ("tree-sitter-python 0.23.6"). */
const char *dl_lint_parser_name(void);

#endif
