/* Containers: the marker files runtimes leave, cgroup paths, and the root mount. */
#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

typedef struct cgroup_hint {
    const char *token;
    const char *runtime;
} cgroup_hint;

/* Order matters: kubepods paths also contain the runtime's name. */
static const cgroup_hint cgroup_hints[] = {
    {"kubepods", "kubernetes"}, {"libpod", "podman"}, {"docker", "docker"},
    {"containerd", "containerd"}, {"lxc", "lxc"},
};

static void note(dl_container_facts *c, const char *runtime, const char *evidence)
{
    dl_textlist_add(&c->evidence, evidence);
    if (runtime && !c->runtime.value)
        dl_text_set(&c->runtime, runtime);
}

/* True when a cgroup file could be read at all. */
static bool check_cgroup(const dl_machine *m, dl_container_facts *c)
{
    static const char *const files[] = {"/proc/1/cgroup", "/proc/self/cgroup"};
    size_t f, h;
    bool read = false;
    for (f = 0; f < 2; f++) {
        char *data;
        if (!dl_fs_read(m, files[f], 64 * 1024, &data, NULL, NULL, NULL))
            continue;
        read = true;
        for (h = 0; h < sizeof cgroup_hints / sizeof cgroup_hints[0]; h++) {
            if (strstr(data, cgroup_hints[h].token)) {
                char *e = dl_fmt("%s mentions %s", files[f], cgroup_hints[h].token);
                note(c, cgroup_hints[h].runtime, e);
                free(e);
                break;
            }
        }
        free(data);
        if (c->evidence.count)
            return true;
    }
    return read;
}

/* The fourth and fifth fields of a mountinfo line are the mount's root and mount point;
 * the filesystem type follows " - ". */
static bool root_is_overlay(const char *mountinfo)
{
    const char *line = mountinfo;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char *copy = dl_strndup(line, len);
        dl_strv tok = {0};
        size_t i;
        bool is_root = false, overlay = false;
        dl_strv_split(&tok, copy, ' ');
        for (i = 0; i < tok.n; i++) {
            if (i == 4)
                is_root = strcmp(tok.v[i], "/") == 0;
            if (strcmp(tok.v[i], "-") == 0) {
                overlay = i + 1 < tok.n && strcmp(tok.v[i + 1], "overlay") == 0;
                break;
            }
        }
        dl_strv_free(&tok);
        free(copy);
        if (is_root && overlay)
            return true;
        line = nl ? nl + 1 : NULL;
    }
    return false;
}

void dl_probe_container(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_container_facts *c = &f->os.container;
    char *mountinfo;
    bool looked;
    dl_list_known(&c->evidence);
    if (dl_fs_kind_of(m, "/.dockerenv", NULL) != DL_FS_NONE)
        note(c, "docker", "/.dockerenv exists");
    if (dl_fs_kind_of(m, "/run/.containerenv", NULL) != DL_FS_NONE)
        note(c, "podman", "/run/.containerenv exists");
    if (dl_fs_kind_of(m, "/run/secrets/kubernetes.io", NULL) == DL_FS_DIR)
        note(c, "kubernetes", "/run/secrets/kubernetes.io exists");
    if (m->live && dl_env_get("KUBERNETES_SERVICE_HOST"))
        note(c, "kubernetes", "KUBERNETES_SERVICE_HOST is set");
    looked = check_cgroup(m, c);
    if (dl_fs_read(m, "/proc/self/mountinfo", 1u << 20, &mountinfo, NULL, NULL, NULL)) {
        looked = true;
        if (root_is_overlay(mountinfo))
            note(c, NULL, "the root filesystem is an overlay mount");
        free(mountinfo);
    }
    /* No marker and no /proc to read (a tree under --root without one): no answer. */
    if (!looked && !c->evidence.count) {
        dl_flag_unknown(&c->detected, "no marker file, and no /proc/1/cgroup, "
                                      "/proc/self/cgroup or /proc/self/mountinfo to read");
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, "no /proc to read");
        return;
    }
    dl_flag_set(&c->detected, c->evidence.count > 0);
    if (c->evidence.count && !c->runtime.value)
        dl_text_unknown(&c->runtime, "no marker names the runtime");
}
