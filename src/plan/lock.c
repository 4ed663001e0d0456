#include "plan/lock.h"

#include "base/shell.h"
#include "base/str.h"
#include "base/url.h"
#include "facts/query.h"
#include "plan/commands.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool text_is(const dl_text *t, const char *value)
{
    return t->value && strcmp(t->value, value) == 0;
}

#define MAX_GROUPS 8

/* The packages that go through one index: a PyTorch index (its local tag) or PyPI. */
typedef struct group {
    char tag[32];       /* "cu121"; "" for PyPI */
    dl_buf pins;        /* "torch==2.3.1+cu121 torchvision==0.18.1+cu121" */
} group;

typedef struct lock {
    const dl_lock_input *in;
    const dl_py_package **chosen;   /* first copy of each name, in import order */
    size_t n;
    group groups[MAX_GROUPS];
    size_t n_groups;
    dl_buf conda;                   /* name=version=build, from conda-meta */
    dl_strv channels;               /* the -c channels conda-meta names for them */
    bool channel_unknown;           /* a record names none */
    dl_buf notes;                   /* # lines about what cannot be pinned exactly */
    dl_buf unmanaged;               /* installed without an installer record */
} lock;

static bool from_conda_meta(const dl_py_package *p)
{
    return p->source.value && strstr(p->source.value, "conda-meta");
}

/* The first copy of every name: what `import` finds, since sites are in import order. */
static void choose(lock *l)
{
    const dl_python *py = l->in->python;
    size_t i, j, k;
    for (i = 0; py->site_packages.known && i < py->site_packages.count; i++) {
        const dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        for (j = 0; s->packages.known && j < s->packages.count; j++) {
            const dl_py_package *p = &DL_LIST_AT(s->packages, dl_py_package, j);
            bool seen = false;
            if (!p->name.value)
                continue;
            for (k = 0; k < l->n && !seen; k++)
                seen = dl_package_name_equal(l->chosen[k]->name.value, p->name.value) &&
                       from_conda_meta(l->chosen[k]) == from_conda_meta(p);
            if (seen)
                continue;
            l->chosen = dl_xrealloc(l->chosen, (l->n + 1) * sizeof *l->chosen);
            l->chosen[l->n++] = p;
        }
    }
}

/* A local tag that names a PyTorch index: cu121, cpu, rocm6.0, xpu. */
static bool index_tag(const char *tag)
{
    return (tag[0] == 'c' && tag[1] == 'u' && isdigit((unsigned char)tag[2])) ||
           strcmp(tag, "cpu") == 0 || dl_starts_with(tag, "rocm") || strcmp(tag, "xpu") == 0;
}

static const char *tag_of(const char *version)
{
    const char *plus = strchr(version, '+');
    return plus ? plus + 1 : "";
}

/* torch's own index: where a companion with another kind of local tag (a triton build
 * "3.0.0+45fff310c8") came from too. */
static const char *torch_tag(const lock *l)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (dl_package_name_equal(l->chosen[i]->name.value, "torch") && l->chosen[i]->version.value &&
            !from_conda_meta(l->chosen[i]))
            return tag_of(l->chosen[i]->version.value);
    return "";
}

static group *group_for(lock *l, const char *tag)
{
    size_t i;
    for (i = 0; i < l->n_groups; i++)
        if (strcmp(l->groups[i].tag, tag) == 0)
            return &l->groups[i];
    if (l->n_groups == MAX_GROUPS)
        return &l->groups[MAX_GROUPS - 1];
    snprintf(l->groups[l->n_groups].tag, sizeof l->groups[0].tag, "%s", tag);
    return &l->groups[l->n_groups++];
}

/* conda's record pinned as `conda list --export` does (its exact build), with the channels
 * to fetch it from when the record names them. */
static void add_conda(lock *l, const dl_py_package *p)
{
    char *spec = dl_q_conda_spec(p);
    dl_buf_printf(&l->conda, " %s", spec);
    free(spec);
    if (!dl_q_conda_channels(p, &l->channels))
        l->channel_unknown = true;
}

static void sort_packages(lock *l)
{
    const char *ttag = torch_tag(l);
    bool conda_records = false;
    size_t i;
    for (i = 0; i < l->n; i++)
        conda_records = conda_records || from_conda_meta(l->chosen[i]);
    group_for(l, index_tag(ttag) ? ttag : ""); /* torch's index first */
    for (i = 0; i < l->n; i++) {
        const dl_py_package *p = l->chosen[i];
        const char *tag;
        group *g;
        if (!p->version.value) {
            dl_buf_printf(&l->notes, "# %s: its version is unknown (%s); not pinned\n",
                          p->name.value, p->version.why ? p->version.why : "no reason given");
            continue;
        }
        if (from_conda_meta(p)) {
            add_conda(l, p);
            continue;
        }
        if (conda_records && text_is(&p->installer, "conda"))
            continue; /* conda's own record of it is pinned with conda */
        if (!p->installer.value) {
            /* no INSTALLER file: a distribution's package (python3-torch) or setup.py;
             * pip cannot fetch "1.13.0a0+gitunknown" back */
            dl_buf_printf(&l->unmanaged, "%s %s %s", l->unmanaged.len ? "," : "#",
                          p->name.value, p->version.value);
            continue;
        }
        if (p->direct_url.value)
            dl_buf_printf(&l->notes, "# %s %s was installed from %s\n", p->name.value,
                          p->version.value, p->direct_url.value);
        tag = tag_of(p->version.value);
        tag = !*tag ? "" : index_tag(tag) ? tag : index_tag(ttag) ? ttag : "";
        g = group_for(l, tag);
        dl_buf_printf(&g->pins, "%s%s==%s", g->pins.len ? " " : "", p->name.value,
                      p->version.value);
    }
}

/* ---- the commands ------------------------------------------------------------------------ */

static bool windows_path(const char *p)
{
    return p[0] && p[1] == ':' && (p[2] == '\\' || p[2] == '/');
}

/* A lock of a Windows interpreter is run in PowerShell, any other in a POSIX shell. */
static dl_shell shell_of(const dl_python *py)
{
    return py->path.value && windows_path(py->path.value) ? DL_SHELL_POWERSHELL
                                                          : DL_SHELL_POSIX;
}

/* A lock is a file to keep and share: a mirror's user and password stay out of it (pip
 * finds them again in ~/.netrc or its keyring). */
static char *index_url(const lock *l, const char *tag)
{
    const char *base = l->in->mirror && *l->in->mirror ? l->in->mirror : DL_PLAN_DEFAULT_INDEX;
    size_t n = strlen(base);
    int keep = (int)(base[n - 1] == '/' ? n - 1 : n);
    return dl_url_strip_userinfo(dl_fmt("%.*s/%s", keep, base, tag));
}

/* uv makes venvs without pip: what uv installed, uv reinstalls. */
static bool installed_by_uv(const lock *l)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (dl_package_name_equal(l->chosen[i]->name.value, "torch"))
            return text_is(&l->chosen[i]->installer, "uv");
    return false;
}

static void commands(lock *l, dl_buf *out)
{
    const dl_python *py = l->in->python;
    dl_shell sh = shell_of(py);
    char *word = dl_shell_program(sh, py->path.value ? py->path.value : "python");
    char *path = dl_shell_quote(sh, py->path.value ? py->path.value : "python");
    bool uv = installed_by_uv(l);
    size_t i;
    for (i = 0; i < l->n_groups; i++) {
        const group *g = &l->groups[i];
        char *url = *g->tag ? index_url(l, g->tag) : NULL;
        char *quoted = url ? dl_shell_quote(sh, url) : NULL;
        if (!g->pins.len) {
            free(quoted);
            free(url);
            continue;
        }
        if (uv)
            dl_buf_printf(out, "uv pip install --python %s %s", path, g->pins.data);
        else
            dl_buf_printf(out, "%s -m pip install %s", word, g->pins.data);
        dl_buf_printf(out, "%s%s\n", quoted ? " --index-url " : "", quoted ? quoted : "");
        free(quoted);
        free(url);
    }
    if (l->conda.len && py->prefix.value) {
        char *prefix = dl_shell_quote(sh, py->prefix.value);
        dl_buf_puts(out, l->channel_unknown ? "# installed by conda (channels not recorded for "
                                              "all of them: add the -c options you installed "
                                              "with)\n"
                                            : "# installed by conda\n");
        dl_buf_printf(out, "conda install --yes --prefix %s", prefix);
        for (i = 0; i < l->channels.n; i++) {
            char *c = dl_shell_quote(sh, l->channels.v[i]);
            dl_buf_printf(out, " -c %s", c);
            free(c);
        }
        dl_buf_printf(out, "%s\n", l->conda.data);
        free(prefix);
    } else if (l->conda.len) {
        dl_buf_printf(out, "# installed by conda, into an environment whose prefix is "
                           "unknown:%s\n", l->conda.data);
    }
    free(path);
    free(word);
}

static void header(const lock *l, dl_buf *out)
{
    const dl_python *py = l->in->python;
    dl_buf_printf(out, "# dlenv lock: the torch stack of %s", py->path.value);
    if (py->version.value)
        dl_buf_printf(out, " (Python %s)", py->version.value);
    if (l->in->host)
        dl_buf_printf(out, " on %s", l->in->host);
    if (l->in->taken_at)
        dl_buf_printf(out, ", %s", l->in->taken_at);
    dl_buf_puts(out, "\n# Reinstalls exactly these versions; run the lines in order.\n");
}

char *dl_lock_text(const dl_lock_input *in, char **error)
{
    lock l;
    dl_buf out = {0};
    size_t i;
    bool has_torch = false;
    *error = NULL;
    if (!in->python || !in->python->path.value) {
        *error = dl_strdup("no Python interpreter was found to lock");
        return NULL;
    }
    memset(&l, 0, sizeof l);
    l.in = in;
    choose(&l);
    for (i = 0; i < l.n && !has_torch; i++)
        has_torch = dl_package_name_equal(l.chosen[i]->name.value, "torch") ||
                    dl_package_name_equal(l.chosen[i]->name.value, "pytorch");
    if (!has_torch) {
        *error = dl_fmt("%s has no torch in its site-packages: nothing to lock",
                        in->python->path.value);
        free(l.chosen);
        return NULL;
    }
    sort_packages(&l);
    header(&l, &out);
    if (l.notes.len)
        dl_buf_add(&out, l.notes.data, l.notes.len);
    if (l.unmanaged.len)
        dl_buf_printf(&out, "# Installed without pip, uv or conda (no INSTALLER record: a "
                            "distribution's package?);\n# reinstall these with the system's "
                            "package manager:\n%s\n", l.unmanaged.data);
    commands(&l, &out);
    for (i = 0; i < l.n_groups; i++)
        dl_buf_free(&l.groups[i].pins);
    dl_buf_free(&l.conda);
    dl_strv_free(&l.channels);
    dl_buf_free(&l.notes);
    dl_buf_free(&l.unmanaged);
    free(l.chosen);
    return dl_buf_take(&out);
}
