/* Inside the lint engine: one parsed file as the rules see it, the helpers they share
 * (node text, arguments, string literals, qualified names) and the rule table's row. */
#ifndef DLENV_LINT_ENGINE_H
#define DLENV_LINT_ENGINE_H

#include "lint/lint.h"

#include <tree_sitter/api.h>

#include <stdint.h>

/* One name an import binds in the file: `import torch as T` binds T to "torch";
 * `from torch.cuda import amp` binds amp to "torch.cuda.amp". */
typedef struct dl_lint_binding {
    char *local;
    char *qualified;
} dl_lint_binding;

/* What the walk knows about the node being visited. */
typedef struct dl_lint_scope {
    unsigned defs;           /* nesting of function, class and lambda definitions */
    unsigned funcs;          /* of those, functions and lambdas: 0 is code that runs when
                                the module is imported (class bodies included) */
    unsigned main_guards;    /* inside the block `if __name__ == "__main__":` guards */
    const char *def_name;    /* the top-level function or the method of a top-level class
                                the node is in (into src), or NULL */
    size_t def_name_len;
    const char *cls;         /* the top-level class the node is in (into src), or NULL */
    size_t cls_len;
    const void *guard_body;  /* the block the enclosing guard `if` guards (its id) */
} dl_lint_scope;

typedef struct dl_lint_modules dl_lint_modules;
struct dl_lint_graph;

/* cuda_check.c's facts of one scope (a function, a lambda, the module). */
typedef struct dl_lint_scope_facts {
    const void *id;               /* the scope node's id; NULL: unused */
    size_t first_check, first_stop;
} dl_lint_scope_facts;
#define DL_LINT_SCOPE_CACHE 8

typedef struct dl_lint_file {
    const char *path;
    const char *src;         /* the text parsed (after a UTF-8 BOM) */
    size_t len;
    TSNode root;
    const dl_lint_settings *opts;
    dl_lint_findings *out;
    dl_lint_binding *bindings;
    size_t n_bindings;
    /* facts of the whole file, from the first pass (names.c) */
    bool replaces_atomically;     /* os.replace / Path.replace called */
    bool seeds;                   /* torch.manual_seed, deterministic algorithms */
    bool sets_use_libuv;          /* "USE_LIBUV" appears in a string */
    size_t first_cuda_use;        /* byte offset of the first CUDA touch; SIZE_MAX: none */
    struct dl_lint_graph *graph;  /* the call graph (callgraph.c) */
    dl_lint_modules *modules;     /* the run's files, for imports between them */
    bool wrap_offered;            /* the __main__ wrap is on a finding already */
    bool starts_workers;          /* a worker-starting call anywhere (guarded or not), or
                                     a call of one in another linted file that the
                                     module code or the __main__ block reaches */
    bool summary;                 /* collected only for its call graph (an imported file) */
    dl_lint_scope scope;          /* during the rules' walk */
    dl_lint_scope_facts scope_cache[DL_LINT_SCOPE_CACHE];
    unsigned scope_cache_next;
} dl_lint_file;

typedef struct dl_lint_rule {
    const char *id;
    const char *summary;
    /* A call, with its function's qualified name ("torch.load"; NULL when it has none,
     * such as a call on a call's result). */
    void (*on_call)(dl_lint_file *f, TSNode call, const char *qualified);
    /* Any other named node (strings, assignments, attributes). */
    void (*on_node)(dl_lint_file *f, TSNode node, const char *type);
} dl_lint_rule;

extern const dl_lint_rule dl_lint_rules[];
extern const size_t dl_lint_n_rules;

/* names.c: the first pass (bindings, file facts) and qualified names. */
void dl_lint_collect(dl_lint_file *f);
void dl_lint_file_free(dl_lint_file *f);
/* The dotted name an expression stands for, imports resolved ("T.load" after `import
 * torch as T` is "torch.load"), written into buf; NULL when it is not a dotted name or
 * does not fit. A name no import binds stands for itself ("open", "DataLoader"). */
const char *dl_lint_qualified(const dl_lint_file *f, TSNode expr, char *buf, size_t size);
/* An `if` testing `__name__ == "__main__"` (any spelling: either side, parentheses, one
 * operand of `and`; `!=`, whose else branch is the guarded one). */
bool dl_lint_is_main_guard(const dl_lint_file *f, TSNode if_statement);
/* The block such an `if` guards (its consequence, or its else clause for `!=`), or a
 * null node when it is no guard. */
TSNode dl_lint_main_guard_body(const dl_lint_file *f, TSNode if_statement);
/* rules_guard.c: what the call starts ("a DataLoader with worker processes",
 * "multiprocessing.Pool"), or NULL when it starts no worker process. */
const char *dl_lint_starts_workers(const dl_lint_file *f, TSNode call, const char *q);

/* node.c: helpers over nodes. */
const char *dl_lint_text(const dl_lint_file *f, TSNode n, size_t *len);
bool dl_lint_text_is(const dl_lint_file *f, TSNode n, const char *text);
bool dl_lint_is(TSNode n, const char *type);
/* The value of keyword argument name in a call, or a null node. */
TSNode dl_lint_kwarg(const dl_lint_file *f, TSNode call, const char *name);
/* The index-th positional argument (0-based), or a null node. */
TSNode dl_lint_arg(TSNode call, unsigned index);
bool dl_lint_has_splat(TSNode call); /* *args or **kwargs: any keyword may be there */
/* A string literal's parts: prefix letters (lower case), the quote, the body between the
 * quotes (raw bytes of the source). False for a node that is not one plain string. */
typedef struct dl_lint_string {
    char prefix[4];
    size_t prefix_len;
    size_t body_start, body_end;   /* offsets into f->src */
    size_t quote_len;              /* 1 or 3 */
    bool raw, bytes, fstring;
} dl_lint_string;
bool dl_lint_string_of(const dl_lint_file *f, TSNode n, dl_lint_string *s);
/* The body of a plain string literal (no escapes, no interpolation) equals text. */
bool dl_lint_string_is(const dl_lint_file *f, TSNode n, const char *text);
/* A literal True / a literal integer's value (false when it is not one). */
bool dl_lint_is_true(TSNode n);
bool dl_lint_int_value(const dl_lint_file *f, TSNode n, long long *value);
bool dl_lint_name_ends(const char *qualified, const char *last);

/* lint.c: a finding at node (NULL when noqa or the rule is filtered out or off). */
dl_lint_finding *dl_lint_report(dl_lint_file *f, TSNode at, const char *id,
                                dl_lint_severity severity, const char *fmt, ...)
    DL_PRINTF_LIKE(5, 6);
/* Adds a replacement to a finding's fix. */
void dl_lint_fix_add(dl_lint_finding *finding, size_t start, size_t end, const char *text);

/* fix_unsafe.c: the unsafe fixes, added only with --unsafe-fixes. `, TEXT` after a call's
 * last argument (weights_only=True); the module's last statements wrapped in
 * `if __name__ == "__main__":` when that is safely possible and covers at. */
void dl_lint_fix_add_kwarg(dl_lint_file *f, dl_lint_finding *x, TSNode call,
                           const char *text);
void dl_lint_fix_wrap_main(dl_lint_file *f, dl_lint_finding *x, TSNode at);

/* fix.c: the text with the edits applied (sorted, overlapping ones dropped); NULL when
 * none applies. Edits are offsets into src. */
char *dl_lint_apply_edits(const char *src, size_t len, dl_lint_edit *edits, size_t n,
                          size_t *out_len);
/* A unified diff (no context lines) of before -> after under the name path. */
void dl_lint_diff(dl_buf *out, const char *path, const char *before, size_t before_len,
                  const char *after, size_t after_len);

#endif
