/* `dlenv fleet gres-conf`: Slurm gres.conf lines for this node's GPUs as NVML sees them
 * (gres.conf(5)): one `NodeName=N Name=gpu Type=T File=/dev/nvidiaM` line per GPU, M the
 * minor number the kernel gave it (not always NVML's index), Links= when NVLink joins
 * them, and as comments the slurm.conf side and the AutoDetect=nvml alternative. */
#include "render/fleet_view.h"

#include "base/str.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool starts_nvidia(const char *s)
{
    const char *want = "nvidia ";
    size_t i;
    for (i = 0; want[i]; i++)
        if (tolower((unsigned char)s[i]) != want[i])
            return false;
    return true;
}

/* NVML's name as a Type: lower case, without "NVIDIA ", every other character than
 * [a-z0-9.-] an underscore (no ':' or ',', which Gres=gpu:TYPE:N would split on). Spaces
 * as underscores keep it a substring of what AutoDetect=nvml detects. */
static char *gpu_type(const char *name)
{
    dl_buf b = {0};
    const char *p = name;
    if (!p || !*p)
        return NULL;
    if (starts_nvidia(p))
        p += 7;
    for (; *p; p++) {
        char c = (char)tolower((unsigned char)*p);
        if (!(isalnum((unsigned char)c) || c == '.' || c == '-'))
            c = '_';
        if (c == '_' && (b.len == 0 || b.data[b.len - 1] == '_'))
            continue;
        dl_buf_add(&b, &c, 1);
    }
    while (b.len && b.data[b.len - 1] == '_')
        b.data[--b.len] = '\0';
    if (!b.len) {
        dl_buf_free(&b);
        return NULL;
    }
    return dl_buf_take(&b);
}

static const dl_nvml_gpu *gpu_at(const dl_facts *f, size_t i)
{
    return &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
}

/* NVLinks between NVML's GPUs a and b (0 when the topology does not say). */
static long long nvlinks(const dl_facts *f, long long a, long long b)
{
    size_t i;
    for (i = 0; i < f->nvml.topology.count; i++) {
        const dl_gpu_link *l = &DL_LIST_AT(f->nvml.topology, dl_gpu_link, i);
        if (l->gpu_a.known && l->gpu_b.known && l->nvlinks.known &&
            ((l->gpu_a.value == a && l->gpu_b.value == b) ||
             (l->gpu_a.value == b && l->gpu_b.value == a)))
            return l->nvlinks.value;
    }
    return 0;
}

static bool any_nvlink(const dl_facts *f)
{
    size_t i;
    for (i = 0; i < f->nvml.topology.count; i++) {
        const dl_gpu_link *l = &DL_LIST_AT(f->nvml.topology, dl_gpu_link, i);
        if (l->nvlinks.known && l->nvlinks.value > 0)
            return true;
    }
    return false;
}

/* Links=-1,2,0,...: the NVLinks from this GPU to each GPU in NVML's order (Slurm numbers
 * GPUs by PCI bus id, as NVML does), -1 for itself. */
static void add_links(const dl_facts *f, size_t gi, dl_buf *b)
{
    size_t j;
    long long self = gpu_at(f, gi)->index.known ? gpu_at(f, gi)->index.value : (long long)gi;
    dl_buf_printf(b, " Links=");
    for (j = 0; j < f->nvml.gpus.count; j++) {
        long long other = gpu_at(f, j)->index.known ? gpu_at(f, j)->index.value : (long long)j;
        if (j == gi)
            dl_buf_printf(b, "%s-1", j ? "," : "");
        else
            dl_buf_printf(b, "%s%lld", j ? "," : "", nvlinks(f, self, other));
    }
}

/* Gres=gpu:T:N,... for the slurm.conf comment: each type with its count, in first-seen order. */
static char *gres_value(const dl_facts *f)
{
    dl_strv types = {0};
    dl_buf b = {0};
    size_t i, j;
    for (i = 0; i < f->nvml.gpus.count; i++) {
        char *t = gpu_type(gpu_at(f, i)->name.value);
        if (!t)
            t = dl_strdup(""); /* no name: gpu:N without a type */
        if (dl_strv_has(&types, t))
            free(t);
        else
            dl_strv_add(&types, t);
    }
    for (i = 0; i < types.n; i++) {
        unsigned count = 0;
        for (j = 0; j < f->nvml.gpus.count; j++) {
            char *t = gpu_type(gpu_at(f, j)->name.value);
            count += !strcmp(t ? t : "", types.v[i]);
            free(t);
        }
        dl_buf_printf(&b, "%sgpu%s%s:%u", i ? "," : "", types.v[i][0] ? ":" : "", types.v[i],
                      count);
    }
    dl_strv_free(&types);
    return dl_buf_take(&b);
}

bool dl_gres_conf_complete(const dl_facts *f)
{
    size_t i;
    if (!f->nvml.gpus.known)
        return false;
    for (i = 0; i < f->nvml.gpus.count; i++)
        if (!gpu_at(f, i)->minor_number.known)
            return false;
    return true;
}

static void add_gpu(const dl_facts *f, const char *node, size_t i, bool links, dl_buf *b)
{
    const dl_nvml_gpu *g = gpu_at(f, i);
    char *type = gpu_type(g->name.value);
    long long index = g->index.known ? g->index.value : (long long)i;
    if (!g->minor_number.known) {
        dl_buf_printf(b, "# GPU %lld (%s): no line, its device file is unknown, because %s\n",
                      index, g->name.value ? g->name.value : "unknown name",
                      g->minor_number.why ? g->minor_number.why
                                          : "NVML did not give its minor number");
        free(type);
        return;
    }
    if (g->mig_enabled.known && g->mig_enabled.value)
        dl_buf_printf(b, "# GPU %lld has MIG enabled: this line gives the whole GPU; its MIG "
                         "instances need MultipleFiles= (or AutoDetect=nvml)\n", index);
    dl_buf_printf(b, "NodeName=%s Name=gpu", node);
    if (type)
        dl_buf_printf(b, " Type=%s", type);
    dl_buf_printf(b, " File=/dev/nvidia%lld", g->minor_number.value);
    if (links)
        add_links(f, i, b);
    dl_buf_printf(b, "\n");
    free(type);
}

char *dl_render_gres_conf(const dl_facts *f, const char *node)
{
    dl_buf b = {0};
    size_t i;
    bool links = f->nvml.gpus.count > 1 && any_nvlink(f);
    char *gres;
    dl_buf_printf(&b, "# gres.conf for %s from what NVML sees (dlenv fleet gres-conf)", node);
    if (f->nvml.driver_version.value)
        dl_buf_printf(&b, ", driver %s", f->nvml.driver_version.value);
    dl_buf_printf(&b, "\n");
    if (!f->nvml.gpus.known) {
        dl_buf_printf(&b, "# no lines: NVML gave no GPU list, because %s\n",
                      f->nvml.gpus.why ? f->nvml.gpus.why : "NVML was not asked");
        return dl_buf_take(&b);
    }
    if (!f->nvml.gpus.count) {
        dl_buf_printf(&b, "# no lines: NVML sees no GPU on this node\n");
        return dl_buf_take(&b);
    }
    gres = gres_value(f);
    dl_buf_printf(&b, "# slurm.conf: GresTypes=gpu, and Gres=%s on NodeName=%s's line\n", gres,
                  node);
    dl_buf_printf(&b, "# A Slurm built with NVML (its gpu_nvml plugin; Debian's is not) finds "
                      "these itself with:\n# NodeName=%s AutoDetect=nvml\n", node);
    free(gres);
    for (i = 0; i < f->nvml.gpus.count; i++)
        add_gpu(f, node, i, links, &b);
    return dl_buf_take(&b);
}
