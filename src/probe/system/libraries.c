/* Which copy of each CUDA library the dynamic loader would load, and every other copy it
 * passes over. This is answered from files alone, in the loader's own order for a program
 * without RPATH: LD_LIBRARY_PATH, /etc/ld.so.cache, then the default directories. Nothing
 * is dlopen'ed, because the question matters most when loading would go wrong. */
#include "probe/probe.h"

#include "base/str.h"
#include "probe/system/ld_cache.h"

#include <stdlib.h>
#include <string.h>

#define CONF_BYTES_MAX (1u << 20)
#define CONF_DEPTH_MAX 8        /* ld.so.conf includes nest; a loop must end */
#define NOT_FOUND_WHY "not found in LD_LIBRARY_PATH, ld.so.cache or the default directories"

/* A library is one exact soname, or a family (libcudart.so.*) whose soname changes with
 * every major version, so any of them answers "which libcudart would a program get". */
typedef struct lib_target {
    const char *name;
    bool family;
} lib_target;

static const lib_target TARGETS[] = {
    {"libcuda.so.1", false},   {"libcudart.so", true},  {"libcublas.so", true},
    {"libcublasLt.so", true},  {"libcudnn.so", true},   {"libnvJitLink.so", true},
    {"libnccl.so", true},      {"libnvidia-ml.so.1", false},
};
#define N_TARGETS (sizeof TARGETS / sizeof TARGETS[0])

/* The loader's built-in directories (Debian multiarch first, then Fedora's lib64, then
 * plain lib), and WSL's driver directory, which holds libcuda.so.1 there. */
static const char *const DEFAULT_DIRS[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
};
#define WSL_DIR "/usr/lib/wsl/lib"
#define WSL_KIND "wsl, not on the loader's path"

typedef struct search {
    const dl_machine *m;
    dl_library_lookup *lookups;   /* one per TARGETS entry */
    dl_list listed;               /* directories already matched, each listed once */
} search;

/* ---- names --------------------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether a path has a directory named "stubs": the toolkit's link-time stand-ins, which
 * fail every call at run time. */
static bool in_stubs(const char *path)
{
    size_t n = strlen("/stubs/");
    const char *p = path;
    while ((p = strstr(p, "/stubs")) != NULL) {
        if (p[n - 1] == '/' || p[n - 1] == '\0')
            return true;
        p++;
    }
    return false;
}

/* A soname the loader accepts for this target. */
static bool soname_matches(const lib_target *t, const char *name)
{
    size_t n = strlen(t->name);
    if (!t->family)
        return strcmp(name, t->name) == 0;
    return strncmp(name, t->name, n) == 0 && name[n] == '.' && name[n + 1] != '\0';
}

/* The stubs directory holds libcuda.so (not .1), and a broken container links
 * libcuda.so.1 to it, so that file belongs in the report although no program loads it
 * by that name. The same holds for libnvidia-ml.so. */
static bool is_stub_name(const lib_target *t, const char *name, const char *dir)
{
    size_t n = strlen(name);
    return !t->family && in_stubs(dir) && strncmp(t->name, name, n) == 0 &&
           strcmp(t->name + n, ".1") == 0;
}

/* ---- real paths, resolved inside the root ------------------------------------------- */

/* The canonical path of a file, following every link the way the inspected machine
 * would; NULL with *why when a link dangles or loops. */
static char *real_path_of(const dl_machine *m, const char *path, char **why)
{
    dl_io_error err = {DL_IO_OK, NULL};
    char *real = dl_fs_realpath(m, path, &err);
    if (!real)
        *why = dl_strdup(err.message);
    dl_io_error_clear(&err);
    return real;
}

/* "libcudart.so.12.4.127" -> "12.4.127": what follows ".so." in the real file's name.
 * A file named just like the soname (WSL's libcuda.so.1) says nothing about the driver. */
static void set_version(dl_text *v, const char *soname, const char *real,
                        const char *why_no_real)
{
    const char *name, *so;
    if (!real) {
        dl_text_unknown(v, "%s", why_no_real);
        return;
    }
    name = base_name(real);
    so = strstr(name, ".so.");
    if (strcmp(name, soname) == 0)
        dl_text_unknown(v, "the file name %s is the soname and carries no version", name);
    else if (so && so[4])
        dl_text_set(v, so + 4);
    else
        dl_text_unknown(v, "the file name %s carries no version", name);
}

/* ---- recording copies ---------------------------------------------------------------- */

static bool already_listed(const dl_library_lookup *l, const char *path, const char *real)
{
    size_t i;
    for (i = 0; i < l->copies.count; i++) {
        const dl_library_copy *c = &DL_LIST_AT(l->copies, dl_library_copy, i);
        const char *seen = c->real_path.value ? c->real_path.value : c->path.value;
        if (strcmp(seen, real ? real : path) == 0)
            return true;
    }
    return false;
}

/* One file found for a target. loadable: it carries the soname the loader asks for, so
 * the first one that exists is what a program gets. */
static void add_copy(search *s, dl_library_lookup *l, const char *path, const char *kind,
                     bool loadable)
{
    char *why = NULL, *real = real_path_of(s->m, path, &why);
    dl_library_copy *c;
    if (already_listed(l, path, real)) {
        free(real);
        free(why);
        return;
    }
    c = dl_list_push(&l->copies, sizeof *c);
    dl_text_set(&c->path, path);
    if (real)
        dl_text_set(&c->real_path, real);
    else
        dl_text_unknown(&c->real_path, "%s", why);
    set_version(&c->version, l->name.value, real, why);
    dl_text_set(&c->directory_kind, kind);
    dl_flag_set(&c->stub, in_stubs(path) || (real && in_stubs(real)));
    /* A dangling link is skipped by the loader, which goes on searching. WSL's folder is
     * listed so a missing entry shows, but the loader reaches it only through the cache
     * (/etc/ld.so.conf.d/ld.wsl.conf) or LD_LIBRARY_PATH, never by default. */
    dl_flag_set(&c->chosen,
                loadable && real && !l->chosen.value && strcmp(kind, WSL_KIND) != 0);
    if (c->chosen.value)
        dl_text_set(&l->chosen, path);
    free(real);
    free(why);
}

/* Matches one file name (from a listing, or a cache key) against every target. */
static void match_name(search *s, const char *name, const char *dir, const char *path,
                       const char *kind)
{
    size_t i;
    for (i = 0; i < N_TARGETS; i++) {
        bool loadable = soname_matches(&TARGETS[i], name);
        if (loadable || is_stub_name(&TARGETS[i], name, dir))
            add_copy(s, &s->lookups[i], path, kind, loadable);
    }
}

/* ---- the places the loader looks ------------------------------------------------------ */

/* Lists a directory once and matches every target against the listing, so the cost is
 * one readdir per directory however many libraries are asked about. */
static void search_dir(search *s, const char *dir, const char *kind)
{
    char **names = NULL, *clean = dl_strdup(dir), *real, *why = NULL;
    size_t count = 0, i, len = strlen(clean);
    while (len > 1 && clean[len - 1] == '/')
        clean[--len] = '\0';
    /* Relative entries depend on the program's directory: skipped. A directory reached
     * twice (/lib/x86_64-linux-gnu and /usr/lib/x86_64-linux-gnu under merged /usr) can
     * only repeat copies already seen, so it is listed once. */
    real = clean[0] == '/' ? real_path_of(s->m, clean, &why) : NULL;
    free(why);
    if (!real || dl_textlist_has(&s->listed, real)) {
        free(real);
        free(clean);
        return;
    }
    dl_textlist_add(&s->listed, real);
    free(real);
    /* A missing or unreadable directory is passed over by the loader just the same. */
    if (dl_fs_list(s->m, clean, &names, &count, NULL)) {
        for (i = 0; i < count; i++) {
            char *path = dl_fmt("%s%s%s", clean, len > 1 ? "/" : "", names[i]);
            match_name(s, names[i], clean, path, kind);
            free(path);
        }
    }
    dl_fs_list_free(names, count);
    free(clean);
}

/* LD_LIBRARY_PATH belongs to this process, so it describes only the live machine. glibc
 * splits it at ':' and ';'. */
static void search_ld_library_path(search *s)
{
    const char *env = s->m->live ? dl_env_get("LD_LIBRARY_PATH") : NULL;
    while (env && *env) {
        size_t n = strcspn(env, ":;");
        char *dir = dl_strndup(env, n);
        if (*dir && !strchr(dir, '$'))   /* $ORIGIN and friends mean nothing here */
            search_dir(s, dir, "LD_LIBRARY_PATH");
        free(dir);
        env += n;
        if (*env)
            env++;
    }
}

/* Only 64-bit x86 and Arm entries: the loader of a 64-bit program skips the i386 and x32
 * libraries that share the cache on multilib systems. */
static bool entry_usable(const dl_ld_cache_entry *e)
{
    int32_t arch = e->flags & DL_LD_CACHE_ARCH_MASK;
    return (e->flags & DL_LD_CACHE_TYPE_MASK) == DL_LD_CACHE_ELF_LIBC6 &&
           (arch == DL_LD_CACHE_X86_64 || arch == DL_LD_CACHE_AARCH64);
}

static void search_cache(search *s, const dl_ld_cache *c)
{
    size_t i;
    for (i = 0; i < c->count; i++) {
        const dl_ld_cache_entry *e = &c->entries[i];
        char *dir;
        if (!entry_usable(e) || e->path[0] != '/')
            continue;
        dir = dl_strndup(e->path, (size_t)(base_name(e->path) - e->path));
        match_name(s, e->soname, dir, e->path, "ld.so.cache");
        free(dir);
    }
}

/* ---- /etc/ld.so.conf, when there is no usable cache ------------------------------------ */

static void read_conf(search *s, const char *path, int depth);

/* "*" alone is what ld.so.conf includes use in practice (ld.so.conf.d/\*.conf). */
static bool glob_match(const char *pat, const char *name)
{
    if (*pat == '*')
        return glob_match(pat + 1, name) || (*name && glob_match(pat, name + 1));
    if (*pat != *name)
        return false;
    return *pat == '\0' || glob_match(pat + 1, name + 1);
}

static void include_conf(search *s, const char *from, const char *pattern, int depth)
{
    char *full = pattern[0] == '/' ? dl_strdup(pattern)
                                   : dl_fmt("%.*s%s", (int)(base_name(from) - from), from,
                                            pattern);
    char *slash = strrchr(full, '/'), **names = NULL;
    size_t count = 0, i;
    *slash = '\0';
    if (dl_fs_list(s->m, *full ? full : "/", &names, &count, NULL)) {
        for (i = 0; i < count; i++) {
            if (glob_match(slash + 1, names[i])) {
                char *file = dl_fmt("%s/%s", full, names[i]);
                read_conf(s, file, depth + 1);
                free(file);
            }
        }
    }
    dl_fs_list_free(names, count);
    free(full);
}

static void conf_line(search *s, const char *path, char *line, int depth)
{
    char *hash = strchr(line, '#'), *text;
    if (hash)
        *hash = '\0';
    text = dl_trim(line);
    if (strncmp(text, "include", 7) == 0 && (text[7] == ' ' || text[7] == '\t'))
        include_conf(s, path, dl_trim(text + 8), depth);
    else if (*text && strncmp(text, "hwcap", 5) != 0)
        search_dir(s, text, "ld.so.conf");
}

static void read_conf(search *s, const char *path, int depth)
{
    char *data = NULL, *line, *next;
    if (depth > CONF_DEPTH_MAX || !dl_fs_read(s->m, path, CONF_BYTES_MAX, &data, NULL, NULL,
                                              NULL))
        return;
    for (line = data; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        conf_line(s, path, line, depth);
    }
    free(data);
}

/* ---- the probe -------------------------------------------------------------------------- */

static void search_cache_or_conf(search *s, dl_probe_outcome *out)
{
    dl_ld_cache cache;
    char *why = NULL;
    dl_ld_cache_status st = dl_ld_cache_load(s->m, &cache, &why);
    if (st == DL_LD_CACHE_OK) {
        search_cache(s, &cache);
    } else {
        /* A broken cache is worth saying; a missing one is normal in minimal images. */
        if (st != DL_LD_CACHE_MISSING) {
            char *detail = dl_fmt("%s; searched the ld.so.conf directories instead", why);
            dl_probe_note(out, st == DL_LD_CACHE_UNREADABLE ? DL_PROBE_NO_PERMISSION
                                                            : DL_PROBE_FAILED,
                          detail);
            free(detail);
        }
        read_conf(s, "/etc/ld.so.conf", 0);
        include_conf(s, "/etc/ld.so.conf", "/etc/ld.so.conf.d/*.conf", 0);
    }
    dl_ld_cache_free(&cache);
    free(why);
}

void dl_probe_libraries(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    search s;
    size_t i;
    memset(&s, 0, sizeof s);
    s.m = m;
    dl_list_known(&f->libraries);
    for (i = 0; i < N_TARGETS; i++) {
        dl_library_lookup *l = dl_list_push(&f->libraries, sizeof *l);
        dl_text_set(&l->name, TARGETS[i].name);
        dl_list_known(&l->copies);
    }
    s.lookups = f->libraries.items;   /* complete: nothing is pushed to it from here on */
    search_ld_library_path(&s);
    search_cache_or_conf(&s, out);
    for (i = 0; i < sizeof DEFAULT_DIRS / sizeof DEFAULT_DIRS[0]; i++)
        search_dir(&s, DEFAULT_DIRS[i], "default");
    search_dir(&s, WSL_DIR, WSL_KIND);
    for (i = 0; i < N_TARGETS; i++)
        if (!s.lookups[i].chosen.value)
            dl_text_unknown(&s.lookups[i].chosen, NOT_FOUND_WHY);
    for (i = 0; i < s.listed.count; i++)
        free(DL_LIST_AT(s.listed, char *, i));
    free(s.listed.items);
    free(s.listed.why);
}
