/* The views of a lint run: text like a compiler's (`file:line:col: id: message`), JSON
 * (`dlenv.lint/1`) and SARIF 2.1.0 (GitHub code scanning), each built whole as a string;
 * cli/lint.c writes it. */
#include "lint/lint.h"

#include <cjson/cJSON.h>

#include <stdlib.h>
#include <string.h>

static void counts(const dl_lint_run *run, size_t by[3], size_t *fixable, size_t *fixed)
{
    size_t i;
    by[0] = by[1] = by[2] = 0;
    *fixable = *fixed = 0;
    for (i = 0; i < run->findings.n; i++) {
        const dl_lint_finding *x = &run->findings.v[i];
        if (x->fixed) {
            (*fixed)++;
            continue;
        }
        by[x->severity]++;
        *fixable += x->n_edits > 0;
    }
}

char *dl_lint_render_text(const dl_lint_run *run, const dl_lint_settings *opts)
{
    dl_buf b = {0};
    size_t i, by[3], fixable, fixed;
    counts(run, by, &fixable, &fixed);
    for (i = 0; i < run->findings.n; i++) {
        const dl_lint_finding *x = &run->findings.v[i];
        if (x->fixed)
            continue;
        if (x->line)
            dl_buf_printf(&b, "%s:%u:%u: %s: %s [%s]\n", x->file, x->line, x->column, x->id,
                          x->message, dl_lint_severity_name(x->severity));
        else
            dl_buf_printf(&b, "%s: %s: %s [%s]\n", x->file, x->id, x->message,
                          dl_lint_severity_name(x->severity));
    }
    for (i = 0; i < run->errors.n; i++)
        dl_buf_printf(&b, "%s\n", run->errors.v[i]);
    dl_buf_printf(&b, "%zu error%s, %zu warning%s, %zu info in %zu file%s (%zu lines) for %s",
                  by[2], by[2] == 1 ? "" : "s", by[1], by[1] == 1 ? "" : "s", by[0],
                  run->files, run->files == 1 ? "" : "s", run->lines,
                  opts->target.described ? opts->target.described : "an unknown target");
    if (fixed)
        dl_buf_printf(&b, "; %zu fixed in %zu file%s", fixed, run->files_fixed,
                      run->files_fixed == 1 ? "" : "s");
    if (fixable && !opts->fix)
        dl_buf_printf(&b, "; %zu fixable with --fix", fixable);
    dl_buf_puts(&b, "\n");
    dl_buf_add(&b, "", 0);
    return dl_buf_take(&b);
}

static cJSON *edits_json(const dl_lint_finding *x)
{
    cJSON *a = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < x->n_edits; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "start", (double)x->edits[i].start);
        cJSON_AddNumberToObject(e, "end", (double)x->edits[i].end);
        cJSON_AddStringToObject(e, "text", x->edits[i].text);
        cJSON_AddItemToArray(a, e);
    }
    return a;
}

static char *print(cJSON *root)
{
    char *s = cJSON_Print(root), *out;
    cJSON_Delete(root);
    if (!s)
        return NULL;
    out = dl_strdup(s);
    cJSON_free(s);
    return out;
}

/* Text as JSON takes it: invalid UTF-8 in a file name cleaned to \xNN. */
static cJSON *text(const char *s)
{
    char *clean = dl_utf8_clean(s, strlen(s));
    cJSON *j = cJSON_CreateString(clean);
    free(clean);
    return j;
}

char *dl_lint_render_json(const dl_lint_run *run, const dl_lint_settings *opts)
{
    cJSON *root = cJSON_CreateObject(), *t, *list, *c;
    size_t i, by[3], fixable, fixed;
    counts(run, by, &fixable, &fixed);
    cJSON_AddStringToObject(root, "schema", "dlenv.lint/1");
    cJSON_AddStringToObject(root, "parser", dl_lint_parser_name());
    t = cJSON_AddObjectToObject(root, "target");
    if (opts->target.os)
        cJSON_AddStringToObject(t, "os", dl_lint_os_name(opts->target.os));
    else
        cJSON_AddNullToObject(t, "os");
    if (opts->target.torch_major) {
        char v[32];
        dl_fixed_fmt(v, sizeof v, "%u.%u", opts->target.torch_major, opts->target.torch_minor);
        cJSON_AddStringToObject(t, "torch", v);
    } else {
        cJSON_AddNullToObject(t, "torch");
    }
    if (opts->target.cuda == DL_LINT_UNKNOWN)
        cJSON_AddNullToObject(t, "cuda");
    else
        cJSON_AddBoolToObject(t, "cuda", opts->target.cuda == DL_LINT_YES);
    cJSON_AddNumberToObject(root, "files", (double)run->files);
    cJSON_AddNumberToObject(root, "lines", (double)run->lines);
    c = cJSON_AddObjectToObject(root, "counts");
    cJSON_AddNumberToObject(c, "error", (double)by[2]);
    cJSON_AddNumberToObject(c, "warning", (double)by[1]);
    cJSON_AddNumberToObject(c, "info", (double)by[0]);
    cJSON_AddNumberToObject(c, "fixed", (double)fixed);
    list = cJSON_AddArrayToObject(root, "findings");
    for (i = 0; i < run->findings.n; i++) {
        const dl_lint_finding *x = &run->findings.v[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "file", text(x->file));
        cJSON_AddNumberToObject(o, "line", x->line);
        cJSON_AddNumberToObject(o, "column", x->column);
        cJSON_AddStringToObject(o, "id", x->id);
        cJSON_AddStringToObject(o, "severity", dl_lint_severity_name(x->severity));
        cJSON_AddItemToObject(o, "message", text(x->message));
        cJSON_AddBoolToObject(o, "fixed", x->fixed);
        if (x->n_edits) {
            cJSON_AddItemToObject(o, "fix", edits_json(x));
            if (x->unsafe_fix)
                cJSON_AddBoolToObject(o, "fix_unsafe", true);
        }
        cJSON_AddItemToArray(list, o);
    }
    return print(root);
}

static const char *sarif_level(dl_lint_severity s)
{
    return s == DL_LINT_ERROR ? "error" : s == DL_LINT_WARNING ? "warning" : "note";
}

/* The fix as SARIF: byte regions of the file replaced. */
static cJSON *sarif_fix(const dl_lint_finding *x)
{
    cJSON *fixes = cJSON_CreateArray(), *fix = cJSON_CreateObject(), *changes, *change, *reps;
    size_t i;
    cJSON_AddStringToObject(cJSON_AddObjectToObject(fix, "description"), "text",
                            x->unsafe_fix ? "dlenv lint --fix --unsafe-fixes (unsafe: it "
                                            "changes what the program does; review it)"
                                          : "dlenv lint --fix");
    changes = cJSON_AddArrayToObject(fix, "artifactChanges");
    change = cJSON_CreateObject();
    cJSON_AddItemToObject(cJSON_AddObjectToObject(change, "artifactLocation"), "uri",
                          text(x->file));
    reps = cJSON_AddArrayToObject(change, "replacements");
    for (i = 0; i < x->n_edits; i++) {
        cJSON *r = cJSON_CreateObject(), *region = cJSON_AddObjectToObject(r, "deletedRegion");
        cJSON_AddNumberToObject(region, "byteOffset", (double)x->edits[i].start);
        cJSON_AddNumberToObject(region, "byteLength",
                                (double)(x->edits[i].end - x->edits[i].start));
        cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "insertedContent"), "text",
                                x->edits[i].text);
        cJSON_AddItemToArray(reps, r);
    }
    cJSON_AddItemToArray(changes, change);
    cJSON_AddItemToArray(fixes, fix);
    return fixes;
}

char *dl_lint_render_sarif(const dl_lint_run *run, const dl_lint_settings *opts)
{
    cJSON *root = cJSON_CreateObject(), *runs, *r, *driver, *rules, *results;
    size_t i, n;
    const dl_lint_rule_info *infos = dl_lint_rule_infos(&n);
    (void)opts;
    cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(root, "version", "2.1.0");
    runs = cJSON_AddArrayToObject(root, "runs");
    r = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, r);
    driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(r, "tool"), "driver");
    cJSON_AddStringToObject(driver, "name", "dlenv lint");
    cJSON_AddStringToObject(driver, "version", DLENV_VERSION);
    cJSON_AddStringToObject(driver, "informationUri",
                            "https://github.com/dlenv/dlenv/blob/main/docs/lint.md");
    rules = cJSON_AddArrayToObject(driver, "rules");
    for (i = 0; i < n; i++) {
        cJSON *rule = cJSON_CreateObject();
        cJSON_AddStringToObject(rule, "id", infos[i].id);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(rule, "shortDescription"), "text",
                                infos[i].summary);
        cJSON_AddItemToArray(rules, rule);
    }
    results = cJSON_AddArrayToObject(r, "results");
    for (i = 0; i < run->findings.n; i++) {
        const dl_lint_finding *x = &run->findings.v[i];
        cJSON *res = cJSON_CreateObject(), *loc = cJSON_CreateObject(), *phys, *locs;
        if (x->fixed)
            continue;
        cJSON_AddStringToObject(res, "ruleId", x->id);
        cJSON_AddStringToObject(res, "level", sarif_level(x->severity));
        cJSON_AddItemToObject(cJSON_AddObjectToObject(res, "message"), "text",
                              text(x->message));
        locs = cJSON_AddArrayToObject(res, "locations");
        phys = cJSON_AddObjectToObject(loc, "physicalLocation");
        cJSON_AddItemToObject(cJSON_AddObjectToObject(phys, "artifactLocation"), "uri",
                              text(x->file));
        if (x->line) {
            cJSON *region = cJSON_AddObjectToObject(phys, "region");
            cJSON_AddNumberToObject(region, "startLine", x->line);
            cJSON_AddNumberToObject(region, "startColumn", x->column);
        }
        cJSON_AddItemToArray(locs, loc);
        if (x->n_edits)
            cJSON_AddItemToObject(res, "fixes", sarif_fix(x));
        cJSON_AddItemToArray(results, res);
    }
    return print(root);
}
