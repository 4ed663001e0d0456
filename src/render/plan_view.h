/* What `dlenv plan` renders: the machine described, the plan, and the commands of each
 * answer, built by the command and only read by the text and JSON renderers. */
#ifndef DLENV_RENDER_PLAN_VIEW_H
#define DLENV_RENDER_PLAN_VIEW_H

#include "plan/commands.h"
#include "plan/plan.h"
#include "render/style.h"

typedef struct dl_plan_view {
    const dl_plan_machine *machine;
    const dl_plan *plan;
    const char *machine_source;   /* "this machine" or "described by flags" */
    const char *python_path;      /* the interpreter on this machine; NULL when described */
    const char *venv_note;        /* "create a venv first: ..." or NULL */
    dl_plan_commands best;        /* commands of plan->best (zeroed when none) */
    dl_plan_commands after_update;
    bool why;
    bool offline;
} dl_plan_view;

char *dl_render_plan_text(const dl_plan_view *v, const dl_style *s);
char *dl_render_plan_json(const dl_plan_view *v);

/* "NVIDIA GeForce RTX 3060 (sm_86)", "AMD Radeon RX 7900 XTX": one GPU for messages. */
void dl_plan_gpu_describe(const dl_plan_gpu *g, char *out, size_t n);
/* "CUDA 12.6", "CPU only", "ROCm 6.4", "Intel XPU", "macOS (MPS on Apple silicon)". */
void dl_plan_variant_describe(const char *variant, char *out, size_t n);

#endif
