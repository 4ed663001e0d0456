#include "explain/readings.h"

#include "base/str.h"
#include "know/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version pip was asked for: "requirement torch==1.8.0+cu102", "torch===1.3.0". */
static bool requested_torch(const dl_paste *p, char *out, size_t n)
{
    long i = dl_paste_find(p, 0, "torch==");
    const char *at;
    size_t k = 0;
    if (i < 0)
        return false;
    at = strstr(p->lines[i].lower, "torch==") + 7;
    while (*at == '=')
        at++;
    while (*at && (isalnum((unsigned char)*at) || *at == '.' || *at == '+') && k + 1 < n)
        out[k++] = *at++;
    out[k] = '\0';
    return k > 0 && isdigit((unsigned char)out[0]);
}

static bool known_release(const dl_knowledge *k, const char *version)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_wheels);
    size_t r;
    for (r = 0; t && r < t->rows; r++)
        if (!strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_torch_version), version))
            return true;
    return false;
}

/* pip's "(from versions: 0.1.2, ..., 1.8.0+cpu, 1.8.0+cu101)" lists what exists for this
 * interpreter. Real releases in it (not only the 0.1.2 source stubs) prove this Python has
 * wheels: then a missing "+cuXYZ" of a listed release is a variant that was never built
 * (wheel_tag_mismatch), and a version no table knows is a typo, not the environment. */
static const char *from_versions(const dl_knowledge *k, const dl_paste *p, const char *id)
{
    long i = dl_paste_find(p, 0, "from versions:");
    dl_strv list = {0};
    char want[64], base[64], *plus, *close;
    const char *verdict = id;
    bool real = false, base_listed = false;
    size_t j;
    if (i < 0 || !requested_torch(p, want, sizeof want))
        return id;
    close = dl_strdup(strstr(p->lines[i].lower, "from versions:") + 14);
    if (strchr(close, ')'))
        *strchr(close, ')') = '\0';
    dl_strv_split(&list, close, ',');
    free(close);
    snprintf(base, sizeof base, "%s", want);
    if ((plus = strchr(base, '+')) != NULL)
        *plus = '\0';
    for (j = 0; j < list.n; j++) {
        const char *v = dl_trim(list.v[j]);
        real |= strncmp(v, "0.1.", 4) != 0 && strcmp(v, "none") != 0;
        base_listed |= !strncmp(v, base, strlen(base)) &&
                       (v[strlen(base)] == '\0' || v[strlen(base)] == '+');
    }
    dl_strv_free(&list);
    if (real && plus && base_listed)
        verdict = "wheel_tag_mismatch";
    else if (real && !known_release(k, base))
        verdict = "";
    return verdict;
}

/* "torch-1.0.0-cp37-cp37m-win_amd64.whl is not a supported wheel on this platform": when the
 * wheel's Python tag is the interpreter's own, a 64-bit Windows wheel fails only on a 32-bit
 * Python. */
static const char *wheel_name(const dl_paste *p, const dl_facts *f, const char *id)
{
    long i = dl_paste_find(p, 0, "is not a supported wheel");
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const char *at, *v = py ? py->version.value : NULL;
    char tag[16];
    unsigned major, minor;
    if (i < 0 || !v || (at = strstr(p->lines[i].lower, "-cp")) == NULL ||
        sscanf(at + 3, "%1u%2u", &major, &minor) != 2)
        return id;
    snprintf(tag, sizeof tag, "%u.%u", major, minor);
    if (strncmp(v, tag, strlen(tag)) != 0 || (v[strlen(tag)] != '\0' && v[strlen(tag)] != '.'))
        return id;
    if (strstr(p->lines[i].lower, "win_amd64") &&
        (!f->os.family.value || !strcmp(f->os.family.value, "windows")))
        return "python_32bit";
    return id;
}

/* "no kernel image" and "not compatible" name no GPU's age; the GPU does. Kepler and
 * Maxwell (below 6.0) are what wheels dropped; Volta and newer what an old wheel lacks. */
static const char *kernel_image(const dl_facts *f, const char *id)
{
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    double cc;
    if (!g || !g->compute_capability.value)
        return id;
    cc = strtod(g->compute_capability.value, NULL);
    if (cc > 0 && cc < 6.0)
        return "gpu_arch_dropped";
    if (cc >= 7.0)
        return "arch_not_in_wheel";
    return id;
}

/* Interpreters the text lists (`where python`, `which -a python`): distinct paths that end
 * in python.exe or bin/python. */
static size_t interpreters_listed(const dl_paste *p)
{
    dl_strv seen = {0};
    size_t i, n;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        size_t len = strlen(low);
        bool exe = len > 11 && !strcmp(low + len - 11, "\\python.exe") && low[1] == ':';
        bool unix_bin = len > 11 && low[0] == '/' && !strchr(low, ' ') &&
                        (!strcmp(low + len - 11, "/bin/python") ||
                         !strcmp(low + len - 12, "/bin/python3"));
        if ((exe || unix_bin) && !dl_strv_has(&seen, low))
            dl_strv_add(&seen, dl_strdup(low));
    }
    n = seen.n;
    dl_strv_free(&seen);
    return n;
}

/* "No module named 'torch'" where the text shows torch installed (a pip list row, pip's
 * "Successfully installed torch-...") or two interpreters: torch is in the other one. */
static const char *no_module(const dl_paste *p, const dl_facts *f, const char *id)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_site_packages *site = py && py->site_packages.count
                                       ? &DL_LIST_AT(py->site_packages, dl_site_packages, 0)
                                       : NULL;
    const dl_torch_install *t = site && site->torches.count
                                    ? &DL_LIST_AT(site->torches, dl_torch_install, 0) : NULL;
    if ((t && t->version.value && !(py->runtime.version.value)) || interpreters_listed(p) >= 2)
        return "pip_python_mismatch";
    return id;
}

/* "from versions: none" on Windows is a 32-bit Python, unless the banner says 64 bit: then
 * no release has a wheel for this Python (yet). */
static const char *no_wheel_at_all(const dl_facts *f, const char *id)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    if (py && py->bits.known && py->bits.value == 64)
        return "python_unsupported";
    return id;
}

const char *dl_reading_for(const dl_knowledge *k, const dl_paste *p, const dl_facts *f,
                           const char *id)
{
    if (!strcmp(id, "python_unsupported"))
        return from_versions(k, p, id);
    if (!strcmp(id, "wheel_tag_mismatch"))
        return wheel_name(p, f, id);
    if (!strcmp(id, "arch_not_in_wheel"))
        return kernel_image(f, id);
    if (!strcmp(id, "python_32bit"))
        return no_wheel_at_all(f, id);
    if (!strcmp(id, "torch_not_installed"))
        return no_module(p, f, id);
    return id;
}
