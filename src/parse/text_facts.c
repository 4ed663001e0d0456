#include "parse/text_facts.h"

#include "base/str.h"
#include "know/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void note(dl_text_facts *w, const char *fact, size_t line)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        if (!strcmp(w->where[i].fact, fact))
            return; /* the first mention is the evidence */
    if (w->n < DL_TEXT_FACT_MAX) {
        w->where[w->n].fact = fact;
        w->where[w->n].line = line;
        w->n++;
    }
}

/* The token after `key` in line (case-insensitive key), up to a space or the end. */
static bool value_after(const char *line, const char *key, char *out, size_t n)
{
    const char *lower_key = key, *p;
    size_t klen = strlen(lower_key), i = 0;
    for (p = line; *p; p++) {
        size_t j;
        for (j = 0; j < klen && p[j] && tolower((unsigned char)p[j]) == lower_key[j]; j++)
            ;
        if (j == klen)
            break;
    }
    if (!*p)
        return false;
    p += klen;
    while (*p == ' ' || *p == ':' || *p == '=')
        p++;
    while (*p && *p != ' ' && *p != ',' && *p != ')' && *p != '(' && i + 1 < n)
        out[i++] = *p++;
    out[i] = '\0';
    return i > 0;
}

static dl_python *python(dl_facts *f)
{
    if (!f->pythons.count) {
        dl_python *py;
        dl_list_known(&f->pythons);
        py = dl_list_push(&f->pythons, sizeof *py);
        dl_text_set(&py->path, "python");
    }
    return &DL_LIST_AT(f->pythons, dl_python, 0);
}

static dl_nvml_gpu *gpu(dl_facts *f)
{
    if (!f->nvml.gpus.count) {
        dl_list_known(&f->nvml.gpus);
        dl_list_push(&f->nvml.gpus, sizeof(dl_nvml_gpu));
    }
    return &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0);
}

static bool looks_like_version(const char *s)
{
    return isdigit((unsigned char)s[0]) && strchr(s, '.');
}

/* ---- one reader per kind of line ---- */

static void os_family(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *family = NULL;
    (void)l;
    if (strstr(low, "winerror") || strstr(low, ":\\") || strstr(low, ".dll") ||
        strstr(low, "os: microsoft windows"))
        family = "windows";
    else if (strstr(low, "darwin") || strstr(low, "os: macos"))
        family = "macos";
    else if (strstr(low, "gnu/linux") || strstr(low, "os: ubuntu") || strstr(low, "os: debian") ||
             strstr(low, "/site-packages/") || strstr(low, "/dist-packages/") ||
             strstr(low, ".so"))
        family = "linux";
    if (family && !f->os.family.value) {
        dl_text_set(&f->os.family, family);
        note(w, "os.family", i);
    }
}

static void driver(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    char v[64], norm[32];
    if ((strstr(low, "driver version") || strstr(low, "nvidia driver version")) &&
        value_after(low, strstr(low, "nvidia driver version") ? "nvidia driver version"
                                                               : "driver version",
                    v, sizeof v) &&
        dl_driver_normalize(v, norm, sizeof norm) && !f->nvml.driver_version.value) {
        dl_text_set(&f->nvml.driver_version, norm);
        note(w, "nvml.driver_version", i);
    }
    /* nvidia-smi's header: "CUDA Version: 12.4" is the driver's newest CUDA. */
    if (strstr(l, "CUDA Version") && value_after(low, "cuda version", v, sizeof v)) {
        int cuda;
        if (dl_cuda_version_to_int(v, &cuda) && !f->nvml.cuda_driver_version.known) {
            dl_int_set(&f->nvml.cuda_driver_version, cuda);
            note(w, "nvml.cuda_driver_version", i);
        }
    }
    /* torch: "The NVIDIA driver on your system is too old (found version 11040)". */
    if (strstr(low, "too old (found version") && value_after(low, "found version", v, sizeof v)) {
        unsigned long long n;
        if (dl_parse_u64(v, 10, &n) && n > 1000 && n < 100000 &&
            !f->nvml.cuda_driver_version.known) {
            dl_int_set(&f->nvml.cuda_driver_version, (long long)n);
            note(w, "nvml.cuda_driver_version", i);
        }
    }
}

static void torch_build(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    char v[64];
    dl_python *py;
    (void)l;
    if ((strstr(low, "pytorch version:") && value_after(low, "pytorch version", v, sizeof v)) ||
        (strstr(low, "torch==") && value_after(low, "torch==", v, sizeof v)) ||
        (!strncmp(low, "torch ", 6) && value_after(low, "torch", v, sizeof v)) ||
        (!strncmp(low, "torch:", 6) && value_after(low, "torch:", v, sizeof v))) {
        if (looks_like_version(v)) {
            py = python(f);
            if (!py->runtime.version.value) {
                dl_text_set(&py->runtime.version, v);
                note(w, "pythons[0].runtime.version", i);
            }
            /* collect_env imports torch to say this: the build facts are the runtime's. */
            if (strstr(low, "pytorch version:")) {
                dl_text_set(&py->runtime.status, "imported");
                if (!py->runtime.hip.value)
                    dl_text_set(&py->runtime.hip, "none");
            }
        }
    }
    if (strstr(low, "rocm used to build pytorch") &&
        value_after(low, "rocm used to build pytorch", v, sizeof v)) {
        py = python(f);
        dl_text_set(&py->runtime.hip, !strcmp(v, "n/a") || !strcmp(v, "none") ? "none" : v);
    }
    if (strstr(low, "cuda used to build pytorch") &&
        value_after(low, "cuda used to build pytorch", v, sizeof v)) {
        py = python(f);
        dl_text_set(&py->runtime.cuda, !strcmp(v, "none") || !strcmp(v, "could") ? "none" : v);
        note(w, "pythons[0].runtime.cuda", i);
    }
    if (strstr(low, "is cuda available") && value_after(low, "is cuda available", v, sizeof v)) {
        py = python(f);
        dl_flag_set(&py->runtime.cuda_available, !strcmp(v, "true"));
        note(w, "pythons[0].runtime.cuda_available", i);
    }
}

static void python_version(const char *l, const char *low, dl_facts *f, dl_text_facts *w,
                           size_t i)
{
    char v[64];
    (void)l;
    if ((strstr(low, "python version:") && value_after(low, "python version", v, sizeof v)) ||
        (!strncmp(low, "python 3.", 9) && value_after(low, "python", v, sizeof v)) ||
        (!strncmp(low, "python 2.", 9) && value_after(low, "python", v, sizeof v))) {
        dl_python *py = python(f);
        if (looks_like_version(v) && !py->version.value) {
            dl_text_set(&py->version, v);
            note(w, "pythons[0].version", i);
        }
        if (strstr(low, "(64-bit runtime)")) {
            dl_int_set(&py->bits, 64);
        } else if (strstr(low, "(32-bit runtime)") || strstr(low, "32 bit (intel)")) {
            dl_int_set(&py->bits, 32);
            note(w, "pythons[0].bits", i);
        }
    }
}

/* torch's warnings: "NAME with CUDA capability sm_86 is not compatible ...", "The current
 * PyTorch install supports CUDA capabilities sm_37 sm_50 ...", "Found GPU0 NAME which is
 * of cuda capability 5.0." */
static void capability(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *at;
    if ((at = strstr(low, " with cuda capability sm_")) != NULL) {
        dl_nvml_gpu *g = gpu(f);
        unsigned cc = (unsigned)strtoul(at + 25, NULL, 10);
        char buf[16], *name = dl_strndup(l, (size_t)(at - low));
        snprintf(buf, sizeof buf, "%u.%u", cc / 10, cc % 10);
        if (!g->compute_capability.value && cc >= 10) {
            dl_text_set(&g->compute_capability, buf);
            dl_text_set(&g->name, dl_trim(name));
            note(w, "nvml.gpus[0].compute_capability", i);
        }
        free(name);
    }
    if ((at = strstr(low, "which is of cuda capability ")) != NULL) {
        dl_nvml_gpu *g = gpu(f);
        char v[16];
        if (value_after(at, "which is of cuda capability", v, sizeof v) &&
            !g->compute_capability.value) {
            size_t n = strlen(v);
            if (n && v[n - 1] == '.')
                v[n - 1] = '\0';
            dl_text_set(&g->compute_capability, v);
            note(w, "nvml.gpus[0].compute_capability", i);
        }
    }
    if ((at = strstr(low, "supports cuda capabilities")) != NULL) {
        dl_python *py = python(f);
        dl_strv parts = {0};
        size_t k;
        if (py->runtime.arch_list.known)
            return;
        dl_list_known(&py->runtime.arch_list);
        dl_strv_split(&parts, at + strlen("supports cuda capabilities"), ' ');
        for (k = 0; k < parts.n; k++) {
            size_t n = strlen(parts.v[k]);
            if (n && parts.v[k][n - 1] == '.')
                parts.v[k][n - 1] = '\0';
            if (!strncmp(parts.v[k], "sm_", 3) || !strncmp(parts.v[k], "compute_", 8))
                dl_textlist_add(&py->runtime.arch_list, parts.v[k]);
        }
        dl_strv_free(&parts);
        note(w, "pythons[0].runtime.arch_list", i);
    }
}

static void toolkit(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    char v[64];
    (void)l;
    if (strstr(low, "cuda compilation tools, release") && value_after(low, ", v", v, sizeof v) &&
        !f->cuda_toolkits.count) {
        dl_cuda_toolkit *t;
        dl_list_known(&f->cuda_toolkits);
        t = dl_list_push(&f->cuda_toolkits, sizeof *t);
        dl_text_set(&t->version, v);
        dl_text_set(&t->version_source, "nvcc");
        note(w, "cuda_toolkits[0].version", i);
    }
}

static void gpu_model(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *at = strstr(low, "gpu 0: ");
    if (!at || !strstr(low, "gpu models"))
        return;
    if (!gpu(f)->name.value) {
        char *name = dl_strdup(l + (at - low) + 7);
        char *paren = strstr(name, " (uuid");
        if (paren)
            *paren = '\0';
        dl_text_set(&gpu(f)->name, dl_trim(name));
        note(w, "nvml.gpus[0].name", i);
        free(name);
    }
}

void dl_text_facts_read(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    size_t i;
    memset(w, 0, sizeof *w);
    for (i = 0; i < p->count; i++) {
        const char *l = p->lines[i].text, *low = p->lines[i].lower;
        os_family(l, low, f, w, i);
        driver(l, low, f, w, i);
        torch_build(l, low, f, w, i);
        python_version(l, low, f, w, i);
        capability(l, low, f, w, i);
        toolkit(l, low, f, w, i);
        gpu_model(l, low, f, w, i);
    }
}
