/* Every CUDA toolkit on the machine and the versions it carries, read from the files
 * NVIDIA installs next to it. nvcc is never run: a toolkit for another architecture, or
 * one under --root, must be described just the same. */
#include "probe/probe.h"

#include "base/str.h"
#include "probe/gpu/cuda_toolkits.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define SMALL_FILE_MAX (64 * 1024) /* version.json, version.txt, cudnn_version.h, nccl.h */
#define CUDA_H_MAX (256 * 1024)    /* cuda.h is ~1 MiB; CUDA_VERSION sits near its top */
#define CUDNN_PREFIX "libcudnn"

/* ---- pure readers ------------------------------------------------------------------------ */

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* The value of one line when it is "#define name <digits>"; false otherwise. */
static bool line_define(const char *p, const char *name, unsigned long long *value)
{
    size_t len = strlen(name);
    char *end;
    p = skip_blanks(p);
    if (*p != '#')
        return false;
    p = skip_blanks(p + 1);
    if (strncmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
        return false;
    p = skip_blanks(p + 6);
    if (strncmp(p, name, len) != 0 || (p[len] != ' ' && p[len] != '\t'))
        return false;
    p = skip_blanks(p + len);
    if (!isdigit((unsigned char)*p))
        return false;
    *value = strtoull(p, &end, 10);
    /* "13000ULL" would be a suffix; an identifier right after the digits is not a number */
    return !isalnum((unsigned char)*end) || *end == 'U' || *end == 'L' || *end == 'u' ||
           *end == 'l';
}

bool dl_cuda_header_define(const char *text, const char *name, unsigned long long *value)
{
    const char *line = text;
    while (line && *line) {
        if (line_define(line, name, value))
            return true;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return false;
}

char *dl_cuda_version_json(const char *text, const char **why)
{
    cJSON *root = cJSON_Parse(text);
    const cJSON *cuda, *version;
    char *out = NULL;
    if (!root) {
        *why = "is not valid JSON";
        return NULL;
    }
    cuda = cJSON_GetObjectItemCaseSensitive(root, "cuda");
    version = cJSON_GetObjectItemCaseSensitive(cuda, "version");
    if (cJSON_IsString(version) && version->valuestring[0])
        out = dl_strdup(version->valuestring);
    else
        *why = "has no \"cuda\": {\"version\": ...} entry";
    cJSON_Delete(root);
    return out;
}

/* The run of digits and dots a version is made of, starting at p. */
static char *version_at(const char *p)
{
    size_t n = strspn(p, "0123456789.");
    while (n && p[n - 1] == '.')
        n--;
    return n && isdigit((unsigned char)p[0]) ? dl_strndup(p, n) : NULL;
}

char *dl_cuda_version_txt(const char *text)
{
    const char *p = strstr(text, "CUDA Version");
    return p ? version_at(skip_blanks(p + strlen("CUDA Version"))) : NULL;
}

char *dl_cuda_version_header(const char *text)
{
    unsigned long long v;
    if (!dl_cuda_header_define(text, "CUDA_VERSION", &v))
        return NULL;
    /* cuda.h encodes major * 1000 + minor * 10 */
    return dl_fmt("%llu.%llu", v / 1000, (v % 1000) / 10);
}

/* ---- paths ------------------------------------------------------------------------------- */

/* The machine path with every symbolic link resolved inside the root, so two names of
 * one toolkit compare equal. NULL when it does not exist or its links loop. */
static char *real_path(const dl_machine *m, const char *path)
{
    return dl_fs_realpath(m, path, NULL);
}

static char *parent_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return dl_strdup("/");
    return dl_strndup(path, (size_t)(slash - path));
}


/* dir/<name>/leaf for each directory under root/targets: the per-architecture trees
 * (targets/x86_64-linux, targets/sbsa-linux) where headers and libraries really live. */
static void add_target_dirs(const dl_machine *m, const char *root, const char *leaf, dl_strv *s)
{
    char *targets = dl_path_join(root, "targets"), **names = NULL;
    size_t count = 0, i;
    if (dl_fs_list(m, targets, &names, &count, NULL)) {
        for (i = 0; i < count; i++)
            dl_strv_add(s, dl_fmt("%s/%s/%s", targets, names[i], leaf));
        dl_fs_list_free(names, count);
    }
    free(targets);
}

/* ---- the scan ------------------------------------------------------------------------------- */

typedef struct scan {
    const dl_machine *m;
    dl_facts *f;
    dl_probe_outcome *out;
} scan;

/* Only a permission error is worth the outcome: a missing file is the ordinary answer. */
static void note_io(scan *s, const dl_io_error *err)
{
    if (err->status == DL_IO_NO_PERMISSION)
        dl_probe_note(s->out, DL_PROBE_NO_PERMISSION, err->message);
}

static bool is_file(scan *s, const char *dir, const char *name)
{
    char *path = dl_path_join(dir, name);
    dl_io_error err = {DL_IO_OK, NULL};
    bool yes = dl_fs_kind_of(s->m, path, &err) == DL_FS_FILE;
    note_io(s, &err);
    dl_io_error_clear(&err);
    free(path);
    return yes;
}

static bool is_toolkit(scan *s, const char *dir)
{
    return is_file(s, dir, "bin/nvcc") || is_file(s, dir, "bin/nvcc.exe") ||
           is_file(s, dir, "version.json") ||
           is_file(s, dir, "version.txt") || is_file(s, dir, "include/cuda.h");
}

/* A conda environment is a toolkit only when CUDA was installed into it; its other
 * contents (version.txt of some package) must not make it one. */
static bool is_conda_toolkit(scan *s, const char *dir)
{
    return is_file(s, dir, "bin/nvcc") || is_file(s, dir, "include/cuda_runtime_api.h");
}

static bool already_listed(const dl_facts *f, const char *real)
{
    size_t i;
    for (i = 0; i < f->cuda_toolkits.count; i++) {
        const char *p = DL_LIST_AT(f->cuda_toolkits, dl_cuda_toolkit, i).path.value;
        if (p && strcmp(p, real) == 0)
            return true;
    }
    return false;
}

/* Reads dir/name whole (up to max); NULL when it is not there. Problems other than
 * absence are appended to *problems so an unknown can say what went wrong. */
static char *read_text(scan *s, const char *path, size_t max, dl_buf *problems)
{
    /* text, not data, is returned: GCC 12 at -O3 otherwise takes the result for a pointer
     * to the local data (-Wdangling-pointer) */
    char *data = NULL, *text = NULL;
    dl_io_error err = {DL_IO_OK, NULL};
    if (dl_fs_read(s->m, path, max, &data, NULL, NULL, &err)) {
        text = data;
    } else {
        if (err.status != DL_IO_NOT_FOUND && problems)
            dl_buf_printf(problems, "%s%s", problems->len ? "; " : "", err.message);
        note_io(s, &err);
    }
    dl_io_error_clear(&err);
    return text;
}

/* ---- the toolkit's own version ---------------------------------------------------------------- */

static char *from_json(scan *s, const char *root, dl_buf *problems)
{
    char *path = dl_path_join(root, "version.json"), *text = read_text(s, path, SMALL_FILE_MAX,
                                                                problems);
    char *version = NULL;
    const char *why = NULL;
    if (text) {
        version = dl_cuda_version_json(text, &why);
        if (!version)
            dl_buf_printf(problems, "%s%s %s", problems->len ? "; " : "", path, why);
    }
    free(text);
    free(path);
    return version;
}

static char *from_txt(scan *s, const char *root, dl_buf *problems)
{
    char *path = dl_path_join(root, "version.txt"), *text = read_text(s, path, SMALL_FILE_MAX,
                                                               problems);
    char *version = text ? dl_cuda_version_txt(text) : NULL;
    if (text && !version)
        dl_buf_printf(problems, "%s%s has no \"CUDA Version\" line", problems->len ? "; " : "",
                      path);
    free(text);
    free(path);
    return version;
}

char *dl_cuda_version_nvcc(const char *text)
{
    const char *p = text ? strstr(text, "Cuda compilation tools, release ") : NULL;
    const char *v;
    size_t n;
    if (!p || !(v = strstr(p, ", V")))
        return NULL;
    v += 3;
    n = strspn(v, "0123456789.");
    while (n && v[n - 1] == '.')
        n--;
    return n ? dl_strndup(v, n) : NULL;
}

/* Toolkits assembled from pip wheels have neither version.json nor version.txt, and
 * cuda.h only says major.minor: nvcc itself knows the full version. It is run only on the
 * live machine (a --root image may be another architecture), never through a shell, under
 * a timeout. */
static char *from_nvcc(scan *s, const char *root, dl_buf *problems)
{
    char *nvcc = dl_path_join(root, "bin/nvcc"), *version = NULL;
    const char *argv[3];
    dl_proc_opts opts;
    dl_proc_result r;
    if (!s->m->live || dl_fs_kind_of(s->m, nvcc, NULL) != DL_FS_FILE) {
        free(nvcc);
        return NULL;
    }
    argv[0] = nvcc;
    argv[1] = "--version";
    argv[2] = NULL;
    memset(&opts, 0, sizeof opts);
    opts.timeout_ms = 10000;
    opts.max_output = 64 * 1024;
    dl_proc_run(argv, &opts, &r);
    if (r.started && r.exited && r.exit_code == 0)
        version = dl_cuda_version_nvcc(r.out);
    if (!version)
        dl_buf_printf(problems, "%s%s --version gave no version%s", problems->len ? "; " : "",
                      nvcc, r.timed_out ? " (timed out)" : "");
    dl_proc_result_free(&r);
    free(nvcc);
    return version;
}

/* cuda.h is looked for where nvcc would find it: include/, then each target's include/. */
static char *from_header(scan *s, const char *root, dl_buf *problems)
{
    dl_strv dirs = {NULL, 0};
    char *version = NULL;
    size_t i;
    dl_strv_add(&dirs, dl_path_join(root, "include"));
    add_target_dirs(s->m, root, "include", &dirs);
    for (i = 0; i < dirs.n && !version; i++) {
        char *path = dl_path_join(dirs.v[i], "cuda.h"), *text = read_text(s, path, CUDA_H_MAX,
                                                                   problems);
        version = text ? dl_cuda_version_header(text) : NULL;
        if (text && !version)
            dl_buf_printf(problems, "%s%s has no CUDA_VERSION", problems->len ? "; " : "",
                          path);
        free(text);
        free(path);
    }
    dl_strv_free(&dirs);
    return version;
}

static void read_version(scan *s, const char *root, dl_cuda_toolkit *t)
{
    typedef char *(*reader)(scan *, const char *, dl_buf *);
    static const reader readers[] = {from_json, from_txt, from_nvcc, from_header};
    static const char *const sources[] = {"version.json", "version.txt", "nvcc", "cuda.h"};
    dl_buf problems = {0};
    size_t i;
    for (i = 0; i < sizeof readers / sizeof readers[0]; i++) {
        char *version = readers[i](s, root, &problems);
        if (version) {
            dl_text_set(&t->version, version);
            dl_text_set(&t->version_source, sources[i]);
            free(version);
            dl_buf_free(&problems);
            return;
        }
    }
    if (problems.len)
        dl_text_unknown(&t->version, "%s", problems.data);
    else
        dl_text_unknown(&t->version, "%s has no version.json, version.txt or include/cuda.h",
                        root);
    dl_buf_free(&problems);
}

/* ---- cuDNN and NCCL headers -------------------------------------------------------------------- */

/* Where distribution packages put these headers when they are not inside the toolkit
 * (Debian's libcudnn9-dev, libnccl-dev, or a tarball copied to /usr/local). */
static const char *const system_include_dirs[] = {
    "/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu",
    "/usr/local/include", NULL};

static void header_dirs(scan *s, const char *root, dl_strv *dirs)
{
    size_t i;
    dl_strv_add(dirs, dl_path_join(root, "include"));
    add_target_dirs(s->m, root, "include", dirs);
    for (i = 0; system_include_dirs[i]; i++)
        dl_strv_add(dirs, dl_strdup(system_include_dirs[i]));
}

/* The first of names found in dirs, read; *found is its path. NULL when none exists. */
static char *find_header(scan *s, const dl_strv *dirs, const char *const *names, char **found,
                         dl_buf *problems)
{
    size_t i, j;
    for (i = 0; i < dirs->n; i++) {
        for (j = 0; names[j]; j++) {
            char *path = dl_path_join(dirs->v[i], names[j]);
            char *text = read_text(s, path, SMALL_FILE_MAX, problems);
            if (text) {
                *found = path;
                return text;
            }
            free(path);
        }
    }
    return NULL;
}

/* "MAJOR.MINOR.PATCH" from three defines of one header, or unknown saying which is missing. */
static void set_triple(dl_text *t, const char *text, const char *path,
                       const char *const keys[3])
{
    unsigned long long v[3];
    size_t i;
    for (i = 0; i < 3; i++) {
        if (!dl_cuda_header_define(text, keys[i], &v[i])) {
            dl_text_unknown(t, "%s has no #define %s", path, keys[i]);
            return;
        }
    }
    {
        char *version = dl_fmt("%llu.%llu.%llu", v[0], v[1], v[2]);
        dl_text_set(t, version);
        free(version);
    }
}

static void read_header_version(scan *s, const char *root, const char *const *names,
                                const char *const keys[3], dl_text *t)
{
    dl_strv dirs = {NULL, 0};
    dl_buf problems = {0};
    char *found = NULL, *text;
    header_dirs(s, root, &dirs);
    text = find_header(s, &dirs, names, &found, &problems);
    if (text)
        set_triple(t, text, found, keys);
    else if (problems.len)
        dl_text_unknown(t, "%s", problems.data);
    else
        dl_text_unknown(t, "%s/include has no %s (nor do its targets/*/include or the "
                        "system include directories)", root, names[0]);
    free(text);
    free(found);
    dl_buf_free(&problems);
    dl_strv_free(&dirs);
}

static void read_cudnn_version(scan *s, const char *root, dl_cuda_toolkit *t)
{
    /* cuDNN 8 and 9 keep the version in cudnn_version.h; Debian's packages install it as
     * cudnn_version_v9.h behind an alternatives link that may be missing. */
    static const char *const names[] = {"cudnn_version.h", "cudnn_version_v9.h",
                                        "cudnn_version_v8.h", NULL};
    static const char *const keys[3] = {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"};
    read_header_version(s, root, names, keys, &t->cudnn_version);
}

static void read_nccl_version(scan *s, const char *root, dl_cuda_toolkit *t)
{
    static const char *const names[] = {"nccl.h", NULL};
    static const char *const keys[3] = {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"};
    read_header_version(s, root, names, keys, &t->nccl_version);
}

/* ---- cuDNN libraries ----------------------------------------------------------------------------- */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_cudnn(scan *s, const char *dir, dl_strv *found)
{
    char **names = NULL;
    size_t count = 0, i;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_list(s->m, dir, &names, &count, &err))
        note_io(s, &err);
    for (i = 0; i < count; i++) {
        /* libcudnn*.so* on Linux; cudnn64_9.dll, cudnn_ops64_9.dll ... in bin\ on Windows */
        if (dl_starts_with(names[i], CUDNN_PREFIX) ||
            (dl_starts_with(names[i], "cudnn") && dl_ends_with(names[i], ".dll"))) {
            dl_strv_add(found, names[i]);
            names[i] = NULL;
        }
    }
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
}

/* lib64 and lib are often one directory under two names, so the list is made unique. */
static void read_cudnn_libraries(scan *s, const char *root, dl_cuda_toolkit *t)
{
    dl_strv dirs = {NULL, 0}, found = {NULL, 0};
    size_t i;
    dl_strv_add(&dirs, dl_path_join(root, "lib64"));
    dl_strv_add(&dirs, dl_path_join(root, "lib"));
    dl_strv_add(&dirs, dl_path_join(root, "bin"));
    add_target_dirs(s->m, root, "lib", &dirs);
    for (i = 0; i < dirs.n; i++)
        collect_cudnn(s, dirs.v[i], &found);
    if (found.n)
        qsort(found.v, found.n, sizeof *found.v, compare_names);
    dl_list_known(&t->cudnn_libraries);
    for (i = 0; i < found.n; i++)
        if (i == 0 || strcmp(found.v[i], found.v[i - 1]) != 0)
            dl_textlist_add(&t->cudnn_libraries, found.v[i]);
    dl_strv_free(&found);
    dl_strv_free(&dirs);
}

/* ---- candidates ----------------------------------------------------------------------------------- */

static void describe(scan *s, const char *candidate, const char *real, const char *found_by)
{
    dl_cuda_toolkit *t = dl_list_push(&s->f->cuda_toolkits, sizeof *t);
    char *target = NULL;
    dl_text_set(&t->path, real);
    dl_text_set(&t->found_by, found_by);
    /* Only the candidate's own last component: that is the link users switch versions
     * with (/usr/local/cuda -> cuda-12.4, or /etc/alternatives/cuda). */
    if (dl_fs_readlink(s->m, candidate, &target, NULL))
        dl_text_set(&t->link_target, target);
    free(target);
    read_version(s, real, t);
    read_cudnn_version(s, real, t);
    read_cudnn_libraries(s, real, t);
    read_nccl_version(s, real, t);
}

static void consider(scan *s, const char *candidate, const char *found_by, bool conda)
{
    char *real = real_path(s->m, candidate);
    dl_io_error err = {DL_IO_OK, NULL};
    if (!real)
        return;
    if (dl_fs_kind_of(s->m, real, &err) != DL_FS_DIR)
        note_io(s, &err);
    else if (!already_listed(s->f, real) &&
             (conda ? is_conda_toolkit(s, real) : is_toolkit(s, real)))
        describe(s, candidate, real, found_by);
    dl_io_error_clear(&err);
    free(real);
}

/* /usr/local/cuda, C:\Program Files\..., \\server\share: not relative to a working
 * directory. */
static bool is_absolute(const char *path)
{
    return path[0] == '/' || (path[0] == '\\' && path[1] == '\\') ||
           (isalpha((unsigned char)path[0]) && path[1] == ':' &&
            (path[2] == '\\' || path[2] == '/'));
}

/* The process environment describes this machine only, never a --root tree. */
static void consider_env(scan *s, const char *name, bool conda)
{
    const char *value = s->m->live ? dl_env_get(name) : NULL;
    if (value && is_absolute(value))
        consider(s, value, name, conda);
}

/* The absolute ".../bin/nvcc" a wrapper script execs ("exec /usr/local/cuda-13.0/bin/nvcc
 * "$@""), or NULL when the file is not such a script. */
static char *wrapped_nvcc(scan *s, const char *nvcc)
{
    char *text = read_text(s, nvcc, 4096, NULL), *found = NULL;
    const char *hit = text && dl_starts_with(text, "#!") ? strstr(text, "/bin/nvcc") : NULL;
    if (hit) {
        size_t end = (size_t)(hit - text), start = end;
        while (start > 0 && !strchr(" \t\n\"'=", text[start - 1]))
            start--;
        end += strlen("/bin/nvcc");
        if (text[start] == '/' && !isalnum((unsigned char)text[end]))
            found = dl_strndup(text + start, end - start);
    }
    free(text);
    return found;
}

/* The real file of an nvcc: links resolved, and one wrapper script followed. */
static char *real_nvcc(scan *s, const char *nvcc)
{
    char *wrapped = wrapped_nvcc(s, nvcc), *real;
    if (wrapped && dl_fs_kind_of(s->m, wrapped, NULL) == DL_FS_FILE)
        real = real_path(s->m, wrapped);
    else
        real = real_path(s->m, nvcc);
    free(wrapped);
    return real;
}

/* The toolkit an nvcc on PATH belongs to: the directory above the bin/ its real file is
 * in, so /usr/bin/nvcc -> /usr/local/cuda-12.4/bin/nvcc names cuda-12.4, not /usr. Images
 * that put a wrapper script in /usr/local/bin get the same answer. */
static void consider_path_entry(scan *s, const char *entry)
{
    char *nvcc, *real, *bin, *top;
    if (!is_absolute(entry))
        return; /* a relative entry depends on the working directory, not on the install */
    nvcc = dl_path_join(entry, "nvcc");
    if (dl_fs_kind_of(s->m, nvcc, NULL) != DL_FS_FILE) {
        free(nvcc);
        nvcc = dl_path_join(entry, "nvcc.exe");
    }
    real = dl_fs_kind_of(s->m, nvcc, NULL) == DL_FS_FILE ? real_nvcc(s, nvcc) : NULL;
    if (real) {
        bin = parent_of(real);
        top = parent_of(bin);
        consider(s, top, "nvcc on PATH", false);
        free(top);
        free(bin);
    }
    free(real);
    free(nvcc);
}

static void consider_path(scan *s)
{
    const char *path = s->m->live ? dl_env_get("PATH") : NULL;
    char seps[2] = {'\0', '\0'};
    seps[0] = dl_path_list_separator();
    while (path && *path) {
        size_t n = strcspn(path, seps);
        char *entry = dl_strndup(path, n);
        consider_path_entry(s, entry);
        free(entry);
        path += n;
        if (*path)
            path++;
    }
}

/* Side-by-side installs: /usr/local/cuda-11.8, /usr/local/cuda-12.4, ... in name order. */
static void consider_versioned(scan *s)
{
    char **names = NULL;
    size_t count = 0, i;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_list(s->m, "/usr/local", &names, &count, &err))
        note_io(s, &err);
    for (i = 0; i < count; i++) {
        if (dl_starts_with(names[i], "cuda-")) {
            char *path = dl_path_join("/usr/local", names[i]);
            consider(s, path, "/usr/local/cuda-*", false);
            free(path);
        }
    }
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
}

#ifdef _WIN32
/* The installer sets CUDA_PATH to the newest toolkit and CUDA_PATH_V12_4 for each one, and
 * installs under Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4. */
static void consider_windows(scan *s)
{
    const char *pf = dl_env_get("ProgramW6432") ? dl_env_get("ProgramW6432")
                                                : dl_env_get("ProgramFiles");
    char **names = NULL, *base;
    size_t count = 0, i;
    int major, minor;
    for (major = 8; major <= 15; major++)
        for (minor = 0; minor <= 9; minor++) {
            char name[32];
            snprintf(name, sizeof name, "CUDA_PATH_V%d_%d", major, minor);
            consider_env(s, name, false);
        }
    base = dl_fmt("%s\\NVIDIA GPU Computing Toolkit\\CUDA", pf ? pf : "C:\\Program Files");
    if (dl_fs_list(s->m, base, &names, &count, NULL))
        for (i = 0; i < count; i++)
            if (names[i][0] == 'v') {
                char *path = dl_fmt("%s\\%s", base, names[i]);
                consider(s, path, "Program Files\\NVIDIA GPU Computing Toolkit", false);
                free(path);
            }
    dl_fs_list_free(names, count);
    free(base);
}
#endif

void dl_probe_cuda_toolkits(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    scan s;
    s.m = m;
    s.f = f;
    s.out = out;
    dl_list_known(&f->cuda_toolkits);
    consider_env(&s, "CUDA_HOME", false);
    consider_env(&s, "CUDA_PATH", false);
    consider_env(&s, "CUDA_ROOT", false);
    consider_path(&s);
#ifdef _WIN32
    if (m->live) { /* this Windows machine: no /usr/local to look in */
        consider_env(&s, "CONDA_PREFIX", true);
        consider_windows(&s);
        return;
    }
#endif
    consider(&s, "/usr/local/cuda", "/usr/local/cuda", false);
    consider_versioned(&s);
    consider(&s, "/opt/cuda", "/opt/cuda", false);
    consider_env(&s, "CONDA_PREFIX", true);
}
