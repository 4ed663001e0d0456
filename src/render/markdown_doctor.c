/* Markdown for a bug report: a table of layers, the root cause, the other findings and the
 * few facts a helper asks for first. */
#include "render/text_doctor.h"

#include "base/str.h"
#include "facts/query.h"

#include <string.h>

static const char *md_mark(dl_severity s)
{
    return s == DL_SEV_FAILURE ? "FAIL" : s == DL_SEV_WARNING ? "WARN" : s == DL_SEV_INFO ? "info"
                                                                                        : "ok";
}

static const char *md_state(dl_layer_state s)
{
    return s == DL_STATE_UNKNOWN ? "?" : s == DL_STATE_SKIPPED ? "-" : md_mark((dl_severity)s);
}

static const char *md_verdict(dl_verdict v)
{
    switch (v) {
    case DL_VERDICT_FAILURE: return "a failure was found";
    case DL_VERDICT_CANNOT_JUDGE: return "cannot judge (some layers are unknown)";
    case DL_VERDICT_WARNING: return "no failure; warnings";
    default: return "no problem found";
    }
}

/* Table cells may not hold '|' or line breaks. */
static void cell(dl_buf *b, const char *text)
{
    for (; text && *text; text++) {
        if (*text == '|')
            dl_buf_puts(b, "\\|");
        else if (*text == '\n')
            dl_buf_puts(b, " ");
        else
            dl_buf_add(b, text, 1);
    }
}

static void finding_md(dl_buf *b, const dl_finding *x, const char *heading, bool windows)
{
    size_t i;
    dl_buf_printf(b, "\n### %s `%s`: %s\n\n", heading, x->id.value, x->title.value);
    for (i = 0; i < x->evidence.count; i++)
        dl_buf_printf(b, "- `%s`: %s\n", DL_LIST_AT(x->evidence, dl_pair, i).name,
                      DL_LIST_AT(x->evidence, dl_pair, i).value);
    if (x->fix.count) {
        dl_buf_puts(b, windows ? "\nFix (PowerShell):\n\n```powershell\n" : "\nFix:\n\n```sh\n");
        for (i = 0; i < x->fix.count; i++)
            dl_buf_printf(b, "%s\n", DL_LIST_AT(x->fix, char *, i));
        dl_buf_puts(b, "```\n");
    }
}

static void key_facts(dl_buf *b, const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    dl_buf_puts(b, "\n### Machine\n\n");
    dl_buf_printf(b, "- OS: %s, kernel %s, %s\n", f->os.pretty_name.value ? f->os.pretty_name.value : "?",
                  f->os.kernel_release.value ? f->os.kernel_release.value : "?",
                  f->os.arch.value ? f->os.arch.value : "?");
    dl_buf_printf(b, "- NVIDIA driver: %s\n", f->nvml.driver_version.value
                                                  ? f->nvml.driver_version.value
                                              : f->nvidia_kernel.driver_version.value
                                                  ? f->nvidia_kernel.driver_version.value
                                                  : "none answered");
    if (py)
        dl_buf_printf(b, "- Python: %s (%s), torch: %s\n", dl_text_or(&py->path, "?"),
                      py->version.value ? py->version.value : "?",
                      py->runtime.version.value ? py->runtime.version.value : "not imported");
    dl_buf_printf(b, "- dlenv %s\n", f->tool.version.value ? f->tool.version.value : "?");
}

char *dl_render_doctor_markdown(const dl_doctor_input *in)
{
    dl_buf b = {0};
    const dl_doctor_view *v = in->view;
    bool windows = dl_q_is_windows(in->facts);
    size_t i;
    dl_buf_printf(&b, "## dlenv doctor\n\nVerdict: %s\n\n| | Layer | Status |\n|---|---|---|\n",
                  md_verdict(v->judged.verdict));
    for (i = 0; i < DL_LAYER_COUNT; i++) {
        const dl_layer_judgement *j = &v->judged.layers[i];
        dl_buf_printf(&b, "| %s | %s | ", md_state(j->state), dl_layer_title(j->layer));
        cell(&b, j->summary);
        dl_buf_puts(&b, j->consequence ? " (follows from the root cause) |\n" : " |\n");
    }
    if (v->root)
        finding_md(&b, v->root, "Root cause", windows);
    for (i = 0; i < in->findings->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(in->findings->items, dl_finding, i);
        if (x != v->root)
            finding_md(&b, x, md_mark((dl_severity)dl_severity_of_name(x->severity.value)),
                       windows);
    }
    key_facts(&b, in->facts);
    return dl_buf_take(&b);
}
