/* The library search probe and the ld.so.cache reader: on roots built at run time (with a
 * cache written by the small generator below, so no binary blob is committed), on this
 * machine's real /etc/ld.so.cache, and live with LD_LIBRARY_PATH pointing at the CUDA
 * toolkit's stubs when the toolkit is installed. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv, symlink */
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_run.h"

#include "base/str.h"
#include "facts/facts.h"
#include "os/os.h"
#include "probe/system/ld_cache.h"
#include "probe/probe.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOT_FOUND "not found in LD_LIBRARY_PATH, ld.so.cache or the default directories"
#define TOOLKIT_STUBS "/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs"
#define X86_64_LIBC6 0x0303
#define I386_LIBC6 0x0003

/* ---- building roots ------------------------------------------------------------------- */

static char *make_temp_dir(void)
{
    char *dir = dl_strdup("/tmp/dlenv-libpath-XXXXXX");
    if (!mkdtemp(dir))
        fail_msg("mkdtemp failed");
    return dir;
}

/* mkdir -p for root + rel. */
static void make_dirs(const char *root, const char *rel)
{
    char *path = dl_fmt("%s/%s", root, rel), *p;
    for (p = path + strlen(root) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    }
    mkdir(path, 0755);
    free(path);
}

static void parent_dirs(const char *root, const char *rel)
{
    const char *slash = strrchr(rel, '/');
    if (slash) {
        char *dir = dl_strndup(rel, (size_t)(slash - rel));
        make_dirs(root, dir);
        free(dir);
    }
}

static void put_bytes(const char *root, const char *rel, const void *data, size_t len)
{
    char *path = dl_fmt("%s/%s", root, rel);
    FILE *fp;
    parent_dirs(root, rel);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, len, fp), len);
    fclose(fp);
    free(path);
}

static void put_file(const char *root, const char *rel, const char *text)
{
    put_bytes(root, rel, text, strlen(text));
}

static void put_link(const char *root, const char *rel, const char *target)
{
    char *path = dl_fmt("%s/%s", root, rel);
    parent_dirs(root, rel);
    assert_int_equal(symlink(target, path), 0);
    free(path);
}

static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                char *child = dl_fmt("%s/%s", path, e->d_name);
                remove_tree(child);
                free(child);
            }
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ---- the cache generator: ldconfig's new format, little-endian --------------------------- */

typedef struct cache_lib {
    const char *key, *value;
    uint32_t flags;
} cache_lib;

static void put_le(unsigned char *p, uint64_t v, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The new-format section: 48-byte header, 24-byte entries, then the strings, whose
 * offsets count from the header's first byte. */
static unsigned char *new_section(const cache_lib *libs, size_t n, size_t *len)
{
    size_t strings = 48 + 24 * n, total = strings, i, at;
    unsigned char *b;
    for (i = 0; i < n; i++)
        total += strlen(libs[i].key) + 1 + strlen(libs[i].value) + 1;
    b = dl_xcalloc(total, 1);
    memcpy(b, "glibc-ld.so.cache1.1", 20);
    put_le(b + 20, n, 4);
    put_le(b + 24, total - strings, 4);
    b[28] = 2; /* little-endian */
    for (i = 0, at = strings; i < n; i++) {
        unsigned char *e = b + 48 + 24 * i;
        put_le(e, libs[i].flags, 4);
        put_le(e + 4, at, 4);
        memcpy(b + at, libs[i].key, strlen(libs[i].key) + 1);
        at += strlen(libs[i].key) + 1;
        put_le(e + 8, at, 4);
        memcpy(b + at, libs[i].value, strlen(libs[i].value) + 1);
        at += strlen(libs[i].value) + 1;
    }
    *len = total;
    return b;
}

/* The combined format: "ld.so-1.7.0", nlibs, 12-byte old entries (left zero: nothing
 * reads them), padding to 8, then the new section. */
static unsigned char *old_and_new(const cache_lib *libs, size_t n, size_t *len)
{
    size_t nlen, head = (16 + 12 * n + 7) & ~(size_t)7;
    unsigned char *sec = new_section(libs, n, &nlen), *b = dl_xcalloc(head + nlen, 1);
    memcpy(b, "ld.so-1.7.0", 11);
    put_le(b + 12, n, 4);
    memcpy(b + head, sec, nlen);
    free(sec);
    *len = head + nlen;
    return b;
}

static void put_cache(const char *root, const cache_lib *libs, size_t n)
{
    size_t len;
    unsigned char *b = new_section(libs, n, &len);
    put_bytes(root, "etc/ld.so.cache", b, len);
    free(b);
}

/* ---- running the probe ------------------------------------------------------------------- */

typedef dl_test_run run;

static void probe_root(run *r, const char *root)
{
    dl_test_run_open(r, root);
    dl_probe_libraries(&r->ctx, &r->f, &r->out);
    assert_true(r->f.libraries.known);
}

static const dl_library_lookup *lookup(const run *r, const char *name)
{
    size_t i;
    for (i = 0; i < r->f.libraries.count; i++) {
        const dl_library_lookup *l = &DL_LIST_AT(r->f.libraries, dl_library_lookup, i);
        if (strcmp(l->name.value, name) == 0) {
            assert_true(l->copies.known);
            return l;
        }
    }
    fail_msg("no lookup for %s", name);
    return NULL;
}

static const dl_library_copy *copy_at(const dl_library_lookup *l, size_t i)
{
    assert_true(i < l->copies.count);
    return &DL_LIST_AT(l->copies, dl_library_copy, i);
}

static void assert_text(const dl_text *t, const char *value)
{
    if (!t->value)
        fail_msg("expected '%s', got unknown: %s", value, t->why ? t->why : "(absent)");
    assert_string_equal(t->value, value);
    assert_null(t->why);
}

static void assert_unknown(const dl_text *t, const char *why_start)
{
    assert_null(t->value);
    assert_non_null(t->why);
    if (!dl_starts_with(t->why, why_start))
        fail_msg("reason '%s' does not start with '%s'", t->why, why_start);
}

static void assert_flag(const dl_flag *f, bool value)
{
    assert_true(f->known);
    assert_int_equal(f->value, value);
}

static void assert_copy(const dl_library_copy *c, const char *path, const char *real,
                        const char *version, const char *kind, bool chosen, bool stub)
{
    assert_text(&c->path, path);
    if (real)
        assert_text(&c->real_path, real);
    if (version)
        assert_text(&c->version, version);
    assert_text(&c->directory_kind, kind);
    assert_flag(&c->chosen, chosen);
    assert_flag(&c->stub, stub);
}

/* ---- the cache reader ------------------------------------------------------------------- */

static const cache_lib SMALL[] = {
    {"libcudnn.so.9", "/opt/a/libcudnn.so.9", X86_64_LIBC6},
    {"libc.so.6", "/lib32/libc.so.6", I386_LIBC6},
};

static void check_small(const dl_ld_cache *c)
{
    assert_int_equal(c->count, 2);
    assert_string_equal(c->entries[0].soname, "libcudnn.so.9");
    assert_string_equal(c->entries[0].path, "/opt/a/libcudnn.so.9");
    assert_int_equal(c->entries[0].flags, X86_64_LIBC6);
    assert_string_equal(c->entries[1].path, "/lib32/libc.so.6");
    assert_int_equal(c->entries[1].flags, I386_LIBC6);
}

static void test_cache_new_format(void **state)
{
    size_t len;
    unsigned char *b = new_section(SMALL, 2, &len);
    dl_ld_cache c;
    char *why = NULL;
    (void)state;
    assert_true(dl_ld_cache_parse(b, len, &c, &why));
    check_small(&c);
    dl_ld_cache_free(&c);
    free(b);
}

static void test_cache_old_prefix(void **state)
{
    size_t len;
    unsigned char *b = old_and_new(SMALL, 2, &len);
    dl_ld_cache c;
    char *why = NULL;
    (void)state;
    assert_true(dl_ld_cache_parse(b, len, &c, &why));
    check_small(&c);
    dl_ld_cache_free(&c);
    free(b);
}

static void expect_malformed(const unsigned char *b, size_t len, const char *why_start)
{
    dl_ld_cache c;
    char *why = NULL;
    assert_false(dl_ld_cache_parse(b, len, &c, &why));
    assert_non_null(why);
    if (!dl_starts_with(why, why_start))
        fail_msg("reason '%s' does not start with '%s'", why, why_start);
    assert_int_equal(c.count, 0);
    free(why);
}

static void test_cache_malformed(void **state)
{
    size_t len;
    unsigned char *b = new_section(SMALL, 2, &len);
    unsigned char *old;
    (void)state;
    /* The last string loses its NUL: the entry points outside the file. */
    expect_malformed(b, len - 1, "entry 1 points outside the file");
    expect_malformed(b, 40, "it does not start with glibc-ld.so.cache1.1");
    put_le(b + 20, 1000, 4);
    expect_malformed(b, len, "it claims 1000 entries");
    expect_malformed((const unsigned char *)"garbage", 7, "it does not start with");
    old = dl_xcalloc(64, 1);
    memcpy(old, "ld.so-1.7.0", 11);
    expect_malformed(old, 64, "it has only the old ld.so-1.7.0 format");
    put_le(old + 12, 1000, 4);
    expect_malformed(old, 64, "it claims 1000 old-format entries");
    free(old);
    free(b);
}

/* This machine's cache, as ldconfig wrote it, must parse and hold the C library. */
static void test_cache_this_machine(void **state)
{
    dl_machine m;
    dl_ld_cache c;
    char *error = NULL, *why = NULL;
    size_t i;
    bool found = false;
    dl_ld_cache_status st;
    (void)state;
    if (access(DL_LD_CACHE_PATH, R_OK) != 0)
        skip();
    assert_true(dl_machine_open(&m, "/", &error));
    st = dl_ld_cache_load(&m, &c, &why);
    if (st != DL_LD_CACHE_OK)
        fail_msg("%s", why);
    for (i = 0; i < c.count; i++)
        if (strcmp(c.entries[i].soname, "libc.so.6") == 0 &&
            dl_ends_with(c.entries[i].path, "/libc.so.6"))
            found = true;
    assert_true(found);
    dl_ld_cache_free(&c);
    dl_machine_close(&m);
}

/* ---- the probe on built roots --------------------------------------------------------------- */

/* A machine with the toolkit behind an absolute /usr/local/cuda link, two cuDNN copies in
 * the cache, the stubs directory wrongly cached for libcuda.so.1 (the broken container),
 * WSL's driver copy, merged /usr (/lib -> usr/lib) and one dangling link. */
static void build_machine(const char *root)
{
    static const cache_lib libs[] = {
        {"libcudnn.so.9", "/opt/a/libcudnn.so.9", X86_64_LIBC6},
        {"libcudnn.so.9", "/opt/b/libcudnn.so.9", X86_64_LIBC6},
        {"libcudart.so.12", "/usr/local/cuda/lib64/libcudart.so.12", X86_64_LIBC6},
        {"libcuda.so.1", "/usr/lib/i386-linux-gnu/libcuda.so.1", I386_LIBC6},
        {"libcuda.so.1", "/usr/local/cuda/lib64/stubs/libcuda.so", X86_64_LIBC6},
    };
    put_cache(root, libs, sizeof libs / sizeof libs[0]);
    put_file(root, "opt/a/libcudnn.so.9.1.0", "elf");
    put_link(root, "opt/a/libcudnn.so.9", "libcudnn.so.9.1.0");
    put_file(root, "opt/b/libcudnn.so.9.0.0", "elf");
    put_link(root, "opt/b/libcudnn.so.9", "libcudnn.so.9.0.0");
    put_file(root, "usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "elf");
    put_link(root, "usr/local/cuda-12.4/lib64/libcudart.so.12", "libcudart.so.12.4.127");
    put_file(root, "usr/local/cuda-12.4/lib64/stubs/libcuda.so", "stub");
    put_link(root, "usr/local/cuda", "/usr/local/cuda-12.4");
    put_file(root, "usr/lib/i386-linux-gnu/libcuda.so.1", "elf32");
    put_file(root, "usr/lib/wsl/lib/libcuda.so.1", "elf");
    put_file(root, "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05", "elf");
    put_link(root, "usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "libnvidia-ml.so.535.104.05");
    put_file(root, "usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89", "elf");
    put_link(root, "usr/lib/x86_64-linux-gnu/libcudart.so.11.0", "libcudart.so.11.8.89");
    put_link(root, "lib", "usr/lib");
    put_link(root, "usr/lib64/libnccl.so.2", "libnccl.so.2.18.1");
}

static void check_machine(const run *r)
{
    const dl_library_lookup *l = lookup(r, "libcudnn.so");
    assert_text(&l->chosen, "/opt/a/libcudnn.so.9");
    assert_int_equal(l->copies.count, 2);
    assert_copy(copy_at(l, 0), "/opt/a/libcudnn.so.9", "/opt/a/libcudnn.so.9.1.0", "9.1.0",
                "ld.so.cache", true, false);
    assert_copy(copy_at(l, 1), "/opt/b/libcudnn.so.9", "/opt/b/libcudnn.so.9.0.0", "9.0.0",
                "ld.so.cache", false, false);

    l = lookup(r, "libcudart.so");
    assert_text(&l->chosen, "/usr/local/cuda/lib64/libcudart.so.12");
    assert_int_equal(l->copies.count, 2);
    assert_copy(copy_at(l, 0), "/usr/local/cuda/lib64/libcudart.so.12",
                "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "12.4.127", "ld.so.cache",
                true, false);
    assert_copy(copy_at(l, 1), "/lib/x86_64-linux-gnu/libcudart.so.11.0",
                "/usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89", "11.8.89", "default", false,
                false);

    l = lookup(r, "libcuda.so.1");
    assert_text(&l->chosen, "/usr/local/cuda/lib64/stubs/libcuda.so");
    assert_int_equal(l->copies.count, 2);
    assert_copy(copy_at(l, 0), "/usr/local/cuda/lib64/stubs/libcuda.so",
                "/usr/local/cuda-12.4/lib64/stubs/libcuda.so", NULL, "ld.so.cache", true, true);
    assert_unknown(&copy_at(l, 0)->version, "the file name libcuda.so carries no version");
    assert_copy(copy_at(l, 1), "/usr/lib/wsl/lib/libcuda.so.1",
                "/usr/lib/wsl/lib/libcuda.so.1", NULL, "wsl, not on the loader's path", false,
                false);
    assert_unknown(&copy_at(l, 1)->version, "the file name libcuda.so.1 is the soname");

    l = lookup(r, "libnvidia-ml.so.1");
    assert_int_equal(l->copies.count, 1);
    assert_copy(copy_at(l, 0), "/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
                "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05", "535.104.05",
                "default", true, false);

    /* A dangling link is a copy the loader passes over, so nothing is chosen. */
    l = lookup(r, "libnccl.so");
    assert_unknown(&l->chosen, NOT_FOUND);
    assert_int_equal(l->copies.count, 1);
    assert_copy(copy_at(l, 0), "/usr/lib64/libnccl.so.2", NULL, NULL, "default", false, false);
    assert_unknown(&copy_at(l, 0)->real_path, "cannot resolve /usr/lib64/libnccl.so.2.18.1");
    assert_unknown(&copy_at(l, 0)->version, "cannot resolve /usr/lib64/libnccl.so.2.18.1");

    l = lookup(r, "libcublas.so");
    assert_unknown(&l->chosen, NOT_FOUND);
    assert_int_equal(l->copies.count, 0);
}

static void test_probe_root(void **state)
{
    char *root = make_temp_dir(), *ld = NULL;
    run r;
    (void)state;
    build_machine(root);
    /* Under --root this process's LD_LIBRARY_PATH says nothing about the image. */
    ld = dl_fmt("%s/opt/b", root);
    setenv("LD_LIBRARY_PATH", ld, 1);
    probe_root(&r, root);
    unsetenv("LD_LIBRARY_PATH");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_int_equal(r.f.libraries.count, 8);
    check_machine(&r);
    dl_test_run_free(&r);
    remove_tree(root);
    free(ld);
    free(root);
}

/* Same machine with the combined old+new cache format. */
static void test_probe_root_old_format_cache(void **state)
{
    static const cache_lib libs[] = {
        {"libcudnn.so.9", "/opt/a/libcudnn.so.9", X86_64_LIBC6},
    };
    char *root = make_temp_dir(), *path;
    unsigned char *b;
    size_t len;
    run r;
    (void)state;
    build_machine(root);
    path = dl_fmt("%s/etc/ld.so.cache", root);
    unlink(path);
    b = old_and_new(libs, 1, &len);
    put_bytes(root, "etc/ld.so.cache", b, len);
    probe_root(&r, root);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_text(&lookup(&r, "libcudnn.so")->chosen, "/opt/a/libcudnn.so.9");
    assert_int_equal(lookup(&r, "libcudnn.so")->copies.count, 1);
    dl_test_run_free(&r);
    remove_tree(root);
    free(b);
    free(path);
    free(root);
}

/* Without a usable cache, the directories ld.so.conf names are searched in its order. */
static void build_conf_machine(const char *root)
{
    put_file(root, "etc/ld.so.conf", "# comment\ninclude /etc/ld.so.conf.d/*.conf\n");
    put_file(root, "etc/ld.so.conf.d/cuda.conf",
             "/usr/local/cuda/lib64/stubs\n/usr/local/cuda/lib64   # toolkit\n");
    put_file(root, "etc/ld.so.conf.d/README", "/opt/ignored\n");
    put_file(root, "opt/ignored/libnccl.so.2", "elf");
    put_file(root, "usr/local/cuda/lib64/stubs/libcuda.so", "stub");
    put_file(root, "usr/local/cuda/lib64/libcublas.so.12.1.3.1", "elf");
    put_link(root, "usr/local/cuda/lib64/libcublas.so.12", "libcublas.so.12.1.3.1");
    put_file(root, "usr/local/cuda/lib64/libcublasLt.so.12.1.3.1", "elf");
    put_link(root, "usr/local/cuda/lib64/libcublasLt.so.12", "libcublasLt.so.12.1.3.1");
}

static void check_conf_machine(const run *r)
{
    const dl_library_lookup *l = lookup(r, "libcuda.so.1");
    assert_unknown(&l->chosen, NOT_FOUND);
    assert_int_equal(l->copies.count, 1);
    assert_copy(copy_at(l, 0), "/usr/local/cuda/lib64/stubs/libcuda.so",
                "/usr/local/cuda/lib64/stubs/libcuda.so", NULL, "ld.so.conf", false, true);

    l = lookup(r, "libcublas.so");
    assert_text(&l->chosen, "/usr/local/cuda/lib64/libcublas.so.12");
    assert_int_equal(l->copies.count, 1);
    assert_copy(copy_at(l, 0), "/usr/local/cuda/lib64/libcublas.so.12",
                "/usr/local/cuda/lib64/libcublas.so.12.1.3.1", "12.1.3.1", "ld.so.conf", true,
                false);
    l = lookup(r, "libcublasLt.so");
    assert_text(&l->chosen, "/usr/local/cuda/lib64/libcublasLt.so.12");
    assert_int_equal(lookup(r, "libnccl.so")->copies.count, 0);
}

static void test_probe_malformed_cache(void **state)
{
    char *root = make_temp_dir();
    run r;
    (void)state;
    build_conf_machine(root);
    put_file(root, "etc/ld.so.cache", "not a cache");
    probe_root(&r, root);
    assert_int_equal(r.out.status, DL_PROBE_FAILED);
    assert_string_equal(r.out.detail,
                        "/etc/ld.so.cache is malformed: it does not start with "
                        "glibc-ld.so.cache1.1 or ld.so-1.7.0; searched the ld.so.conf "
                        "directories instead");
    check_conf_machine(&r);
    dl_test_run_free(&r);
    remove_tree(root);
    free(root);
}

/* A missing cache is normal in a minimal image: the same search, and no failure. */
static void test_probe_missing_cache(void **state)
{
    char *root = make_temp_dir();
    run r;
    (void)state;
    build_conf_machine(root);
    probe_root(&r, root);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    check_conf_machine(&r);
    dl_test_run_free(&r);
    remove_tree(root);
    free(root);
}

/* ---- live, with the CUDA toolkit's stubs ------------------------------------------------------ */

static char *stub_real_path(void)
{
    char *stub = dl_fmt("%s/libcuda.so", TOOLKIT_STUBS), *real;
    real = realpath(stub, NULL);
    free(stub);
    return real;
}

static void probe_live(run *r, const char *ld_library_path)
{
    char *saved = dl_strdup(getenv("LD_LIBRARY_PATH"));
    setenv("LD_LIBRARY_PATH", ld_library_path, 1);
    probe_root(r, "/");
    if (saved)
        setenv("LD_LIBRARY_PATH", saved, 1);
    else
        unsetenv("LD_LIBRARY_PATH");
    free(saved);
    assert_true(r->m.live);
}

/* The broken container: libcuda.so.1 linked to the stub. The loader takes it. */
static void test_live_link_to_stub(void **state)
{
    char *real = stub_real_path(), *dir, *link;
    const dl_library_lookup *l;
    run r;
    (void)state;
    if (!real)
        skip();
    dir = make_temp_dir();
    link = dl_fmt("%s/libcuda.so.1", dir);
    assert_int_equal(symlink(TOOLKIT_STUBS "/libcuda.so", link), 0);
    probe_live(&r, dir);
    l = lookup(&r, "libcuda.so.1");
    assert_text(&l->chosen, link);
    assert_copy(copy_at(l, 0), link, real, NULL, "LD_LIBRARY_PATH", true, true);
    assert_unknown(&copy_at(l, 0)->version, "the file name libcuda.so carries no version");
    dl_test_run_free(&r);
    remove_tree(dir);
    free(link);
    free(dir);
    free(real);
}

/* Only the stubs directory on the path: no libcuda.so.1 there, but the stub is listed. */
static void test_live_stubs_dir(void **state)
{
    char *real = stub_real_path();
    const dl_library_lookup *l;
    size_t i;
    bool any_chosen = false;
    run r;
    (void)state;
    if (!real)
        skip();
    probe_live(&r, TOOLKIT_STUBS);
    l = lookup(&r, "libcuda.so.1");
    assert_copy(copy_at(l, 0), TOOLKIT_STUBS "/libcuda.so", real, NULL, "LD_LIBRARY_PATH",
                false, true);
    for (i = 0; i < l->copies.count; i++)
        any_chosen = any_chosen || copy_at(l, i)->chosen.value;
    /* A machine with a driver installed finds the real one later in the search. */
    if (!any_chosen)
        assert_unknown(&l->chosen, NOT_FOUND);
    dl_test_run_free(&r);
    free(real);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_new_format),
        cmocka_unit_test(test_cache_old_prefix),
        cmocka_unit_test(test_cache_malformed),
        cmocka_unit_test(test_cache_this_machine),
        cmocka_unit_test(test_probe_root),
        cmocka_unit_test(test_probe_root_old_format_cache),
        cmocka_unit_test(test_probe_malformed_cache),
        cmocka_unit_test(test_probe_missing_cache),
        cmocka_unit_test(test_live_link_to_stub),
        cmocka_unit_test(test_live_stubs_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
