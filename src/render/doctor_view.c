#include "render/doctor_view.h"

#include "base/str.h"
#include "facts/query.h"

#include <stdlib.h>
#include <string.h>

const char *dl_severity_word(dl_severity s)
{
    return dl_severity_name(s);
}

static void add_notes(dl_doctor_view *v, const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    if (f->nvml.driver_version.value)
        dl_strv_add(&v->notes, dl_strdup("nvidia-smi's \"CUDA Version\" is the newest CUDA the "
                                         "driver runs, not a CUDA that is installed."));
    if (f->cuda_toolkits.known && f->cuda_toolkits.count)
        dl_strv_add(&v->notes,
                    dl_fmt("The CUDA toolkit (%s) is not needed to run PyTorch wheels, which "
                           "bring their own CUDA libraries; it is for building extensions.",
                           dl_text_or(&DL_LIST_AT(f->cuda_toolkits, dl_cuda_toolkit, 0).path,
                                      "its folder unknown")));
    if (py && f->pythons.count > 1)
        dl_strv_add(&v->notes, dl_fmt("`python` runs %s: the first of %zu interpreters found "
                                      "(dlenv report lists them all).",
                                      dl_text_or(&py->path, "an interpreter"),
                                      f->pythons.count));
}

void dl_doctor_view_build(dl_doctor_view *v, const dl_facts *f, const dl_findings *fs,
                          const char *only)
{
    size_t i;
    memset(v, 0, sizeof *v);
    dl_judge(f, fs, only, &v->judged);
    for (i = 0; fs->root_cause.value && i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        if (x->id.value && strcmp(fs->root_cause.value, x->id.value) == 0)
            v->root = x;
    }
    add_notes(v, f);
}

char *dl_doctor_view_not_checked(const dl_doctor_view *v)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++)
        if (v->judged.layers[i].state == DL_STATE_SKIPPED)
            dl_buf_printf(&b, "%s%s", b.len ? ", " : "",
                          dl_layer_title(v->judged.layers[i].layer));
    return b.len ? dl_buf_take(&b) : NULL;
}

void dl_doctor_view_unknown(const dl_doctor_view *v, dl_strv *out)
{
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++)
        if (v->judged.layers[i].state == DL_STATE_UNKNOWN)
            dl_strv_add(out, dl_fmt("%s: %s", dl_layer_title(v->judged.layers[i].layer),
                                    v->judged.layers[i].summary));
}

void dl_doctor_view_free(dl_doctor_view *v)
{
    dl_judgement_free(&v->judged);
    dl_strv_free(&v->notes);
}
