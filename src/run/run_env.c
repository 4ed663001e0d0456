#include "run/run_env.h"

#include "run/gpu_select.h"

#include <stdlib.h>
#include <string.h>

void dl_env_change_add(dl_env_changes *c, dl_env_op op, const char *name, const char *value)
{
    dl_env_change *e;
    c->v = dl_xrealloc(c->v, (c->n + 1) * sizeof *c->v);
    e = &c->v[c->n++];
    e->op = op;
    e->name = dl_strdup(name);
    e->value = op == DL_ENV_UNSET ? NULL : dl_strdup(value);
}

void dl_env_changes_free(dl_env_changes *c)
{
    size_t i;
    for (i = 0; i < c->n; i++) {
        free(c->v[i].name);
        free(c->v[i].value);
    }
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

void dl_env_gpu_changes(dl_env_changes *c, bool cpu, const long *indices, size_t n)
{
    char *list = cpu ? dl_strdup("") : dl_gpu_index_list(indices, n);
    dl_env_change_add(c, DL_ENV_SET, "CUDA_VISIBLE_DEVICES", list);
    dl_env_change_add(c, DL_ENV_SET, "CUDA_DEVICE_ORDER", "PCI_BUS_ID");
    dl_env_change_add(c, DL_ENV_SET, "HIP_VISIBLE_DEVICES", list);
    if (cpu)
        dl_env_change_add(c, DL_ENV_UNSET, "ZE_AFFINITY_MASK", NULL);
    else
        dl_env_change_add(c, DL_ENV_SET, "ZE_AFFINITY_MASK", list);
    free(list);
}

static const char *last_name(const char *path)
{
    const char *p, *name = path;
    for (p = path; *p; p++)
        if ((*p == '/' || *p == '\\') && p[1])
            name = p + 1;
    return name;
}

/* conda activate's PATH entries for a Windows env, in its order. */
static char *conda_windows_path(const char *prefix)
{
    static const char *const subdirs[] = {"Library\\mingw-w64\\bin", "Library\\usr\\bin",
                                          "Library\\bin", "Scripts", "bin"};
    dl_buf b = {0};
    size_t i;
    dl_buf_puts(&b, prefix);
    for (i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        char *dir = dl_path_join(prefix, subdirs[i]);
        dl_buf_printf(&b, ";%s", dir);
        free(dir);
    }
    return dl_buf_take(&b);
}

void dl_env_python_changes(dl_env_changes *c, dl_env_kind kind, const char *prefix,
                           const char *bin_dir, bool windows)
{
    if (kind == DL_PY_CONDA && windows) {
        char *path = conda_windows_path(prefix);
        dl_env_change_add(c, DL_ENV_PREPEND, "PATH", path);
        free(path);
    } else {
        dl_env_change_add(c, DL_ENV_PREPEND, "PATH", bin_dir);
    }
    if (kind == DL_PY_VENV) {
        dl_env_change_add(c, DL_ENV_SET, "VIRTUAL_ENV", prefix);
    } else if (kind == DL_PY_CONDA) {
        char *name = dl_strdup(last_name(prefix));
        char *end = name + strlen(name);
        while (end > name && (end[-1] == '/' || end[-1] == '\\'))
            *--end = '\0';
        dl_env_change_add(c, DL_ENV_SET, "CONDA_PREFIX", prefix);
        dl_env_change_add(c, DL_ENV_SET, "CONDA_DEFAULT_ENV", name);
        dl_env_change_add(c, DL_ENV_UNSET, "VIRTUAL_ENV", NULL);
        free(name);
    }
    dl_env_change_add(c, DL_ENV_UNSET, "PYTHONHOME", NULL);
}

static bool same_name(const char *a, const char *b, size_t n, bool ignore_case)
{
    size_t i;
    if (!ignore_case)
        return strncmp(a, b, n) == 0;
    for (i = 0; i < n; i++) {
        char x = a[i] >= 'a' && a[i] <= 'z' ? (char)(a[i] - 'a' + 'A') : a[i];
        char y = b[i] >= 'a' && b[i] <= 'z' ? (char)(b[i] - 'a' + 'A') : b[i];
        if (x != y)
            return false;
    }
    return true;
}

/* The length of entry's name: up to its '=', where a Windows entry may start with '='
 * ("=C:=C:\dir"), which belongs to the name. */
static size_t name_length(const char *entry)
{
    const char *eq = strchr(entry + (entry[0] == '=' ? 1 : 0), '=');
    return eq ? (size_t)(eq - entry) : strlen(entry);
}

static bool entry_is(const char *entry, const char *name, bool ignore_case)
{
    size_t n = strlen(name);
    return name_length(entry) == n && same_name(entry, name, n, ignore_case);
}

const char *dl_env_lookup(const dl_strv *env, const char *name, bool ignore_case)
{
    size_t i;
    for (i = 0; i < env->n; i++)
        if (env->v[i] && entry_is(env->v[i], name, ignore_case))
            return env->v[i] + strlen(name) + 1;
    return NULL;
}

static void remove_at(dl_strv *out, size_t i)
{
    free(out->v[i]);
    memmove(&out->v[i], &out->v[i + 1], (out->n - i - 1) * sizeof *out->v);
    out->n--;
}

/* A POSIX environment may hold a name twice: what getenv does not see, a program reading
 * environ might, so only one entry per name is left. */
static void remove_later(dl_strv *out, size_t first, const char *name, bool ignore_case)
{
    size_t i = first + 1;
    while (i < out->n)
        if (entry_is(out->v[i], name, ignore_case))
            remove_at(out, i);
        else
            i++;
}

/* One change to out: the entry is replaced where it stands (keeping the spelling of its
 * name), removed, or added at the end. */
static void apply_one(dl_strv *out, const dl_env_change *c, bool ignore_case, char sep)
{
    size_t i;
    char *entry = NULL;
    for (i = 0; i < out->n; i++)
        if (entry_is(out->v[i], c->name, ignore_case))
            break;
    if (c->op != DL_ENV_UNSET) {
        const char *name = i < out->n ? out->v[i] : c->name;
        size_t n = strlen(c->name);
        const char *old = i < out->n ? out->v[i] + n + 1 : NULL;
        if (c->op == DL_ENV_PREPEND && old && *old)
            entry = dl_fmt("%.*s=%s%c%s", (int)n, name, c->value, sep, old);
        else
            entry = dl_fmt("%.*s=%s", (int)n, name, c->value);
    }
    if (i == out->n) {
        if (entry)
            dl_strv_add(out, entry);
        return;
    }
    remove_later(out, i, c->name, ignore_case);
    if (entry) {
        free(out->v[i]);
        out->v[i] = entry;
    } else {
        remove_at(out, i);
    }
}

void dl_env_apply(const char *const *base, size_t n, const dl_env_changes *c, bool ignore_case,
                  char sep, dl_strv *out)
{
    size_t i;
    for (i = 0; i < n; i++)
        dl_strv_add(out, dl_strdup(base[i]));
    for (i = 0; i < c->n; i++)
        apply_one(out, &c->v[i], ignore_case, sep);
}
