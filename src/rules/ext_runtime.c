/* The extension packages' imports after torch (the runtime probe's records), for the rules:
 * which record belongs to a package, whether its error reads as a build for another torch,
 * and extension_import_failed for the failures that do not. */
#include "rules/ext_runtime.h"

#include "base/shell.h"
#include "base/str.h"
#include "facts/query.h"
#include "know/tables.h"
#include "parse/paste.h"
#include "parse/signatures.h"
#include "rules/fixes.h"

#include <stdlib.h>
#include <string.h>

const dl_ext_import *dl_ext_record(const dl_python *py, const char *package, size_t *index)
{
    size_t i;
    for (i = 0; py && py->runtime.extensions.known && i < py->runtime.extensions.count; i++) {
        const dl_ext_import *r = &DL_LIST_AT(py->runtime.extensions, dl_ext_import, i);
        if (dl_package_name_equal(r->package.value, package) || dl_package_name_equal(r->module.value, package)) {
            if (index)
                *index = i;
            return r;
        }
    }
    return NULL;
}

bool dl_ext_import_broken(const dl_ext_import *r)
{
    return r && (dl_q_text_is(&r->status, "import_failed") || dl_q_text_is(&r->status, "crashed") ||
                 dl_q_text_is(&r->status, "timed_out"));
}

static bool signatures_say_mismatch(const dl_rule_input *in, const char *text)
{
    const dl_table *cat = in->know ? dl_knowledge_at(in->know, DL_TABLE_error_signatures) : NULL;
    dl_signature_hits hits;
    dl_paste paste;
    bool found = false;
    size_t i;
    if (!cat || !text || !*text)
        return false;
    dl_paste_read(text, strlen(text), &paste);
    dl_signatures_match(cat, &paste, &hits);
    for (i = 0; i < hits.n && !found; i++) {
        const char *id = dl_table_cell(cat, hits.v[i].row, DL_COL_error_signatures_finding);
        found = !strcmp(id, "extension_mismatch") || !strcmp(id, "torchvision_mismatch");
    }
    dl_signature_hits_free(&hits);
    dl_paste_free(&paste);
    return found;
}

bool dl_ext_says_mismatch(const dl_rule_input *in, const dl_ext_import *r)
{
    const char *error = r->error.value;
    if (!r->status.value || dl_q_text_is(&r->status, "timed_out"))
        return false;
    if (signatures_say_mismatch(in, r->output.value))
        return true; /* printed while importing, even when the import went on */
    if (!dl_q_text_is(&r->status, "import_failed") && !dl_q_text_is(&r->status, "crashed"))
        return false;
    return signatures_say_mismatch(in, error) || (error && strstr(error, "undefined symbol: _Z"));
}

char *dl_ext_built_for_said(const dl_ext_import *r)
{
    const char *texts[2], *p;
    size_t i, n;
    texts[0] = r->output.value;
    texts[1] = r->error.value;
    for (i = 0; i < 2; i++) {
        char *version;
        long cuda;
        p = texts[i] ? strstr(texts[i], "built for") : NULL;
        p = p ? strstr(p, "PyTorch ") : NULL;
        if (!p)
            continue;
        p += strlen("PyTorch ");
        n = strspn(p, "0123456789.+abcdefghijklmnopqrstuvwxyz");
        if (!n)
            continue;
        version = dl_strndup(p, n);
        p = strstr(p + n, "with CUDA ");
        /* xFormers writes CUDA as major * 100 + minor: 1201 */
        cuda = p ? strtol(p + strlen("with CUDA "), NULL, 10) : 0;
        if (cuda >= 100) {
            char *both = dl_fmt("torch %s with CUDA %ld.%ld", version, cuda / 100, cuda % 100);
            free(version);
            return both;
        }
        p = dl_fmt("torch %s", version);
        free(version);
        return (char *)p;
    }
    return NULL;
}

void dl_ext_evidence(dl_finding *x, const dl_ext_import *r, size_t index)
{
    char *fact = dl_fmt("pythons[0].runtime.extensions[%zu]", index);
    char *status = dl_fmt("%s.status", fact);
    dl_finding_evidence(x, status, "import %s: %s", dl_text_or(&r->module, "?"),
                        dl_text_or(&r->status, "?"));
    if (r->error.value) {
        char *f = dl_fmt("%s.error", fact);
        dl_finding_evidence(x, f, "%s", r->error.value);
        free(f);
    }
    if (r->output.value && *r->output.value) {
        char *f = dl_fmt("%s.output", fact);
        dl_finding_evidence(x, f, "%s", r->output.value);
        free(f);
    }
    free(status);
    free(fact);
}

/* ---- extension_import_failed ------------------------------------------------------------- */

/* Has a mismatch finding named this package already? Then it is that finding's evidence. */
static bool named_already(const dl_findings *out, const char *package)
{
    size_t i, n = strlen(package);
    for (i = 0; i < out->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(out->items, dl_finding, i);
        if ((dl_q_text_is(&x->id, "extension_mismatch") ||
             dl_q_text_is(&x->id, "torchvision_mismatch")) &&
            x->title.value && strncmp(x->title.value, package, n) == 0)
            return true;
    }
    return false;
}

/* "ModuleNotFoundError: No module named 'einops'" -> "einops". Caller frees. */
static char *missing_module(const char *error)
{
    const char *p = error ? strstr(error, "No module named '") : NULL;
    size_t n;
    if (!p)
        return NULL;
    p += strlen("No module named '");
    n = strcspn(p, "'.");
    return n ? dl_strndup(p, n) : NULL;
}

static void failed_fix(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                       const dl_ext_import *r)
{
    char *python = dl_fix_python(in->facts, py), *module = missing_module(r->error.value);
    const char *torch = dl_q_torch_version(py);
    if (dl_q_text_is(&r->status, "timed_out")) {
        dl_fix_note(x, "see which module its import stops in:");
        dl_finding_fix(x, "%s -X importtime -c \"import %s\"", python, r->module.value);
    } else if (module && strcmp(module, r->module.value) != 0) {
        char *quoted = dl_shell_quote(dl_fix_shell(in->facts), module);
        dl_fix_note(x, "it needs a module that is not installed (its pip name may differ):");
        dl_finding_fix(x, "%s -m pip install %s", python, quoted);
        free(quoted);
    } else if (torch) {
        dl_fix_note(x, "reinstall it for the torch that is installed:");
        dl_ext_fix(x, in, py, r->package.value, torch, NULL);
    }
    free(module);
    free(python);
}

void dl_rule_extension_import_failed(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    size_t i;
    for (i = 0; py && py->runtime.extensions.known && i < py->runtime.extensions.count; i++) {
        const dl_ext_import *r = &DL_LIST_AT(py->runtime.extensions, dl_ext_import, i);
        const dl_py_package *p;
        dl_finding *x;
        if (!dl_ext_import_broken(r) || !r->package.value || !r->module.value ||
            dl_ext_says_mismatch(in, r) || named_already(out, r->package.value))
            continue;
        p = dl_q_package(py, r->package.value);
        if (dl_q_text_is(&r->status, "timed_out"))
            x = dl_finding_add(out, "extension_import_failed", DL_SEV_FAILURE,
                               "%s %s: `import %s` hangs; it did not finish in time",
                               r->package.value, p ? dl_text_or(&p->version, "?") : "?",
                               r->module.value);
        else if (dl_q_text_is(&r->status, "crashed") && r->signal.known)
            x = dl_finding_add(out, "extension_import_failed", DL_SEV_FAILURE,
                               "%s %s: `import %s` crashes the interpreter (signal %lld)",
                               r->package.value, p ? dl_text_or(&p->version, "?") : "?",
                               r->module.value, r->signal.value);
        else if (dl_q_text_is(&r->status, "crashed"))
            x = dl_finding_add(out, "extension_import_failed", DL_SEV_FAILURE,
                               "%s %s: `import %s` crashes the interpreter",
                               r->package.value, p ? dl_text_or(&p->version, "?") : "?",
                               r->module.value);
        else
            x = dl_finding_add(out, "extension_import_failed", DL_SEV_FAILURE,
                               "%s %s: `import %s` fails: %.160s", r->package.value,
                               p ? dl_text_or(&p->version, "?") : "?", r->module.value,
                               dl_text_or(&r->error, "no message"));
        dl_ext_evidence(x, r, i);
        failed_fix(x, in, py, r);
    }
}
