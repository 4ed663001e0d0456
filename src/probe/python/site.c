/* One site-packages directory, read from the files installers leave there: *.dist-info and
 * *.egg-info metadata, torch/version.py, torch/lib and the nvidia CUDA wheels, and, for a
 * conda prefix, conda-meta. The directory is listed once and its names matched, since a
 * site can hold thousands of entries and every interpreter's site is read on each run. */
#include "probe/python/site.h"

#include "base/str.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define SMALL_FILE_MAX (64 * 1024)          /* version.py, INSTALLER, direct_url.json */
#define HEADERS_HEAD (8 * 1024)            /* most METADATA headers fit; longer are streamed */
#define CONDA_META_MAX (64 * 1024 * 1024)   /* its "files" list makes pytorch's MBs long */

/* Packages reported whatever they declare: torch, its companions and what users most
 * often mismatch with it. nvidia-* wheels are matched apart, by prefix. */
static const char *const wanted_packages[] = {
    "torch", "torchvision", "torchaudio", "triton", "pytorch-triton", "pytorch-triton-rocm",
    "pytorch-triton-xpu", "numpy", "d2l", "xformers", "intel-extension-for-pytorch",
    "torch-directml", "flash-attn", "bitsandbytes", "apex", "deepspeed", "vllm", "mmcv",
    "mmcv-full", NULL};

/* Packages that carry native code built against one torch: the folder they import from,
 * whose shared libraries are listed (bitsandbytes names its CUDA in them). */
static const struct {
    const char *name, *folder;
} extension_folders[] = {
    {"xformers", "xformers"}, {"flash-attn", "flash_attn"}, {"bitsandbytes", "bitsandbytes"},
    {"apex", "apex"}, {"deepspeed", "deepspeed"}, {"vllm", "vllm"}, {"mmcv", "mmcv"},
    {"mmcv-full", "mmcv"}, {"torchvision", "torchvision"}, {"torchaudio", "torchaudio"},
    {"triton", "triton"}};

static const char *const wanted_conda[] = {
    "pytorch", "pytorch-cuda", "pytorch-mutex", "cpuonly", "torchvision", "torchaudio", "mkl",
    "cudatoolkit", "cuda-version", "libtorch", "pytorch-gpu", "pytorch-cpu", NULL};

/* torch/lib files that say what torch was built against and carries: "prefix*suffix". */
static const char *const bundled_patterns[] = {
    "libcudnn*", "libcublas*", "libcudart*", "libnvrtc*", "libnccl*", "libnvJitLink*",
    "libcusparse*", "libcufft*", "libcurand*", "libcusolver*", "libtorch_cuda*",
    "libc10_cuda*", "libamdhip*", "libMIOpen*", "libiomp5*", "libgomp*", "cudnn*.dll",
    "cublas*.dll", "cudart*.dll", "c10_cuda.dll", "torch_cuda.dll", "libiomp5md.dll",
    "nvrtc*.dll", "zlibwapi.dll", NULL};

#define NO_INSTALLER "no INSTALLER file (installed by a distribution package or setup.py?)"

/* ---- names ----------------------------------------------------------------------------- */

/* Python package names compare case-insensitively with '-', '_' and '.' alike (PEP 503):
 * the dist-info directory says nvidia_cudnn_cu12 where the metadata says nvidia-cudnn-cu12. */
static int name_char(char c)
{
    return (c == '_' || c == '.') ? '-' : tolower((unsigned char)c);
}

static bool name_eqn(const char *a, size_t alen, const char *b)
{
    size_t i;
    for (i = 0; i < alen && b[i]; i++)
        if (name_char(a[i]) != name_char(b[i]))
            return false;
    return i == alen && !b[i];
}

static bool name_has_prefix(const char *a, size_t alen, const char *prefix)
{
    size_t i;
    for (i = 0; prefix[i]; i++)
        if (i >= alen || name_char(a[i]) != name_char(prefix[i]))
            return false;
    return true;
}

static bool is_wanted(const char *name, size_t len)
{
    size_t i;
    for (i = 0; wanted_packages[i]; i++)
        if (name_eqn(name, len, wanted_packages[i]))
            return true;
    return name_has_prefix(name, len, "nvidia-");
}

/* Case-insensitive ASCII prefix test: Windows file names and metadata header keys are both
 * case-insensitive. */
static bool starts_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return false;
    return true;
}

static bool ends_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && starts_ci(s + n - k, suffix);
}

/* "prefix*suffix" or an exact name. */
static bool pattern_match(const char *name, const char *pattern)
{
    const char *star = strchr(pattern, '*');
    char *prefix;
    bool yes;
    if (!star)
        return strlen(name) == strlen(pattern) && starts_ci(name, pattern);
    prefix = dl_strndup(pattern, (size_t)(star - pattern));
    yes = starts_ci(name, prefix) && ends_ci(name + strlen(prefix), star + 1);
    free(prefix);
    return yes;
}

static bool is_bundled(const char *name)
{
    size_t i;
    for (i = 0; bundled_patterns[i]; i++)
        if (pattern_match(name, bundled_patterns[i]))
            return true;
    return false;
}

/* The distribution name in "name-version.dist-info" / "name-version-py3.11.egg-info" /
 * "name.egg-info": everything up to the first '-' (installers escape '-' in names to '_'). */
static size_t dist_name_len(const char *entry, const char *suffix)
{
    size_t n = strlen(entry) - strlen(suffix), dash = strcspn(entry, "-");
    return dash < n ? dash : n;
}

/* ---- the scan --------------------------------------------------------------------------- */

typedef struct scan {
    const dl_machine *m;
    const char *dir;              /* the site-packages directory */
    dl_site_packages *site;
    dl_probe_outcome *out;
    bool has_nvidia;              /* the site holds an nvidia/ namespace of CUDA wheels */
} scan;

/* Only a permission error is worth the outcome: a missing file is the ordinary answer. */
static void note_io(scan *s, const dl_io_error *err)
{
    if (err->status == DL_IO_NO_PERMISSION)
        dl_probe_note(s->out, DL_PROBE_NO_PERMISSION, err->message);
}

/* Reads a small file whole; NULL with *err set when it cannot be read. */
static char *read_small(scan *s, const char *path, size_t max, dl_io_error *err)
{
    char *data = NULL;
    if (!dl_fs_read(s->m, path, max, &data, NULL, NULL, err)) {
        note_io(s, err);
        return NULL;
    }
    return data;
}

/* ---- package metadata (METADATA, PKG-INFO) ---------------------------------------------- */

typedef struct meta {
    char *name;
    char *version;
    char *requires_torch;
    char *requires_triton;
} meta;

static void meta_free(meta *md)
{
    free(md->name);
    free(md->version);
    free(md->requires_torch);
    free(md->requires_triton);
}

/* A requirement on torch itself ("torch (==2.3.1)", "torch>=2; python_version>'3.8'"),
 * not on torchvision, and not one that only an optional extra pulls in: "pip install
 * transformers" does not install torch, so it would be wrong to say transformers needs it. */
static bool requires_torch(const char *req)
{
    size_t n = strspn(req, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
    const char *marker = strchr(req, ';');
    return name_eqn(req, n, "torch") && !(marker && strstr(marker, "extra"));
}

/* torch's own pin on the triton its torch.compile needs ("triton==2.3.1; platform_system
 * == 'Linux'"); nightlies pin pytorch-triton. */
static bool requires_triton(const char *req)
{
    size_t n = strspn(req, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
    const char *marker = strchr(req, ';');
    return (name_eqn(req, n, "triton") || name_eqn(req, n, "pytorch-triton")) &&
           !(marker && strstr(marker, "extra"));
}

/* "Key: value" when line starts with key (case-insensitively); the trimmed value. */
static const char *header_value(char *line, const char *key)
{
    if (!starts_ci(line, key))
        return NULL;
    return dl_trim(line + strlen(key));
}

static void take_header(meta *md, char *line)
{
    const char *v;
    if (!md->name && (v = header_value(line, "Name:")) != NULL && *v)
        md->name = dl_strdup(v);
    else if (!md->version && (v = header_value(line, "Version:")) != NULL && *v)
        md->version = dl_strdup(v);
    else if (!md->requires_torch && (v = header_value(line, "Requires-Dist:")) != NULL &&
             requires_torch(v))
        md->requires_torch = dl_strdup(v);
    else if (!md->requires_triton && (v = header_value(line, "Requires-Dist:")) != NULL &&
             requires_triton(v))
        md->requires_triton = dl_strdup(v);
}

/* Parses header lines from text up to the first blank line. Returns whether that blank
 * line (or the end of a whole file) was reached, so a cut-off block can be read again. */
static bool parse_headers(char *text, bool whole, meta *md)
{
    char *line = text, *next;
    while (*line) {
        next = strchr(line, '\n');
        if (!next && !whole)
            return false; /* a partial last line: read the file again, line by line */
        if (next)
            *next++ = '\0';
        if (*line && line[strlen(line) - 1] == '\r')
            line[strlen(line) - 1] = '\0';
        if (!*line)
            return true;
        take_header(md, line);
        if (!next)
            break;
        line = next;
    }
    return whole;
}

static bool read_headers_by_line(scan *s, const char *path, meta *md, dl_io_error *err)
{
    dl_lines *l = dl_lines_open(s->m, path, err);
    const char *line;
    size_t len;
    if (!l) {
        note_io(s, err);
        return false;
    }
    while ((line = dl_lines_next(l, &len)) != NULL && len > 0) {
        char *copy = dl_strndup(line, len);
        take_header(md, copy);
        free(copy);
    }
    dl_lines_close(l);
    return true;
}

/* The header block only: it ends at the first blank line, after which comes the long
 * description (torch's is hundreds of lines, and may itself hold "Name:" lines). One read
 * of the file's head is enough for nearly every package; this runs for each of them. */
static bool read_headers(scan *s, const char *path, meta *md, dl_io_error *err)
{
    char *text = NULL;
    bool truncated = false, done;
    if (!dl_fs_read(s->m, path, HEADERS_HEAD, &text, NULL, &truncated, err)) {
        note_io(s, err);
        return false;
    }
    done = parse_headers(text, !truncated, md);
    free(text);
    if (done)
        return true;
    meta_free(md);
    memset(md, 0, sizeof *md);
    return read_headers_by_line(s, path, md, err);
}

/* egg-info keeps requirements in requires.txt rather than in PKG-INFO; only the lines
 * before the first [section] are unconditional (sections are extras or markers). */
static void read_requires_txt(scan *s, const char *egg_dir, meta *md)
{
    char *path = dl_path_join(egg_dir, "requires.txt"), *text, *line, *next;
    dl_io_error err = {DL_IO_OK, NULL};
    text = read_small(s, path, SMALL_FILE_MAX, &err);
    for (line = text; line && *line && *line != '['; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line = dl_trim(line);
        if (requires_torch(line)) {
            md->requires_torch = dl_strdup(line);
            break;
        }
        if (!next)
            break;
    }
    free(text);
    dl_io_error_clear(&err);
    free(path);
}

/* ---- one package ------------------------------------------------------------------------- */

static void read_installer(scan *s, const char *info_dir, dl_py_package *p)
{
    char *path = dl_path_join(info_dir, "INSTALLER"), *text;
    dl_io_error err = {DL_IO_OK, NULL};
    text = read_small(s, path, SMALL_FILE_MAX, &err);
    if (text) {
        char *first = dl_trim(text);
        first[strcspn(first, "\r\n")] = '\0';
        if (*first)
            dl_text_set(&p->installer, dl_trim(first));
        else
            dl_text_unknown(&p->installer, "%s is empty", path);
    } else if (err.status == DL_IO_NOT_FOUND) {
        dl_text_unknown(&p->installer, NO_INSTALLER);
    } else {
        dl_text_unknown(&p->installer, "%s", err.message);
    }
    free(text);
    dl_io_error_clear(&err);
    free(path);
}

/* PEP 610's record of where pip took the package from: a local wheel, a git URL, a
 * directory. Absent (not unknown) when there is no such file: an index install. */
static void read_direct_url(scan *s, const char *info_dir, dl_py_package *p)
{
    char *path = dl_path_join(info_dir, "direct_url.json"), *text;
    dl_io_error err = {DL_IO_OK, NULL};
    text = read_small(s, path, SMALL_FILE_MAX, &err);
    if (text) {
        cJSON *root = cJSON_Parse(text);
        const cJSON *url = cJSON_GetObjectItemCaseSensitive(root, "url");
        if (cJSON_IsString(url) && url->valuestring[0])
            dl_text_set(&p->direct_url, url->valuestring);
        else
            dl_text_unknown(&p->direct_url, "%s %s", path,
                            root ? "has no \"url\"" : "is not valid JSON");
        cJSON_Delete(root);
    } else if (err.status != DL_IO_NOT_FOUND) {
        dl_text_unknown(&p->direct_url, "%s", err.message);
    }
    free(text);
    dl_io_error_clear(&err);
    free(path);
}

/* ---- extension packages ------------------------------------------------------------------ */

static bool is_shared_library(const char *name)
{
    return dl_ends_with(name, ".so") || strstr(name, ".so.") != NULL || ends_ci(name, ".dll") ||
           ends_ci(name, ".pyd");
}

/* deepspeed's setup.py writes the torch it prebuilt its ops with into
 * deepspeed/git_version_info_installed.py: "torch_info = {'version': '2.1', ...}". Its raw
 * line is kept; the rule reads it. Absent when the file or line is (ops built at run time). */
static void read_deepspeed_info(scan *s, const char *folder, dl_py_package *p)
{
    char *path = dl_path_join(folder, "git_version_info_installed.py"), *text, *line, *ops;
    dl_io_error err = {DL_IO_OK, NULL};
    text = read_small(s, path, SMALL_FILE_MAX, &err);
    ops = text ? strstr(text, "installed_ops") : NULL;
    line = text ? strstr(text, "torch_info") : NULL;
    /* Only prebuilt ops are bound to that torch: ops built at run time fit whichever runs. */
    if (ops) {
        char *ops_line = dl_strndup(ops, strcspn(ops, "\r\n"));
        if (!strstr(ops_line, "True"))
            line = NULL;
        free(ops_line);
    }
    if (line) {
        line[strcspn(line, "\r\n")] = '\0';
        dl_text_set(&p->built_with, line);
    }
    free(text);
    dl_io_error_clear(&err);
    free(path);
}

/* The extension_folders row for a package name; NULL for other packages. */
static const char *extension_folder(const char *name)
{
    size_t i;
    for (i = 0; name && i < sizeof extension_folders / sizeof extension_folders[0]; i++)
        if (name_eqn(name, strlen(name), extension_folders[i].name))
            return extension_folders[i].folder;
    return NULL;
}

/* The shared libraries in an extension package's own folder: one listing, no reading
 * (deepspeed's one small file aside). */
static void read_extension(scan *s, dl_py_package *p)
{
    const char *name = p->name.value, *sub = extension_folder(name);
    char *folder, **names = NULL;
    size_t i, count = 0;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!sub)
        return;
    folder = dl_path_join(s->dir, sub);
    if (!dl_fs_list(s->m, folder, &names, &count, &err)) {
        note_io(s, &err);
        if (err.status != DL_IO_NOT_FOUND)
            dl_list_unknown(&p->libraries, "%s", err.message);
    } else {
        dl_list_known(&p->libraries);
        for (i = 0; i < count; i++)
            if (is_shared_library(names[i])) {
                char *rel = dl_fmt("%s/%s", sub, names[i]);
                dl_textlist_add(&p->libraries, rel);
                free(rel);
            }
        if (name_eqn(name, strlen(name), "deepspeed"))
            read_deepspeed_info(s, folder, p);
    }
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(folder);
}

static void fill_package(scan *s, dl_py_package *p, const char *info, const char *meta_path,
                         const meta *md, const char *dir_name, size_t dir_name_len,
                         const dl_io_error *err, bool info_is_dir)
{
    if (md->name)
        dl_text_set(&p->name, md->name);
    else
        dl_text_setn(&p->name, dir_name, dir_name_len);
    if (md->version)
        dl_text_set(&p->version, md->version);
    else if (err->message)
        dl_text_unknown(&p->version, "%s", err->message);
    else
        dl_text_unknown(&p->version, "%s has no Version: header", meta_path);
    dl_text_set(&p->source, info);
    if (md->requires_torch)
        dl_text_set(&p->requires_torch, md->requires_torch);
    if (md->requires_triton)
        dl_text_set(&p->requires_triton, md->requires_triton);
    read_extension(s, p);
    if (info_is_dir) {
        read_installer(s, info, p);
        read_direct_url(s, info, p);
    } else {
        dl_text_unknown(&p->installer, NO_INSTALLER);
    }
}

/* One *.dist-info or *.egg-info entry. Every package's headers are read, because a package
 * that pins torch matters whatever its name; only those that matter get a row. */
static void read_package(scan *s, const char *entry, const char *suffix)
{
    char *info = dl_path_join(s->dir, entry), *meta_path;
    bool egg = strcmp(suffix, ".egg-info") == 0, info_is_dir = true;
    size_t name_len = dist_name_len(entry, suffix);
    meta md = {NULL, NULL, NULL, NULL};
    dl_io_error err = {DL_IO_OK, NULL};
    /* Debian's python3-* packages install egg-info as a directory; setup.py of old
     * distutils wrote a single PKG-INFO-format file with the egg-info name. */
    if (egg)
        info_is_dir = dl_fs_kind_of(s->m, info, NULL) == DL_FS_DIR;
    meta_path = info_is_dir ? dl_path_join(info, egg ? "PKG-INFO" : "METADATA") : dl_strdup(info);
    if (read_headers(s, meta_path, &md, &err) && egg && info_is_dir && !md.requires_torch)
        read_requires_txt(s, info, &md);
    if (is_wanted(entry, name_len) || (md.name && is_wanted(md.name, strlen(md.name))) ||
        md.requires_torch) {
        dl_py_package *p = dl_list_push(&s->site->packages, sizeof *p);
        fill_package(s, p, info, meta_path, &md, entry, name_len, &err, info_is_dir);
    }
    meta_free(&md);
    dl_io_error_clear(&err);
    free(meta_path);
    free(info);
}

/* ---- torch/version.py ---------------------------------------------------------------------- */

/* The value of "name = 'x'", "name: Optional[str] = 'x'" or "name = None" on one line.
 * Returns false when the line assigns something else; *value is NULL for None. */
static bool py_assignment(const char *line, const char *name, char **value)
{
    size_t n = strlen(name);
    const char *p = line, *end;
    if (strncmp(p, name, n) != 0 || (p[n] != ' ' && p[n] != ':' && p[n] != '='))
        return false;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == ':') /* a type annotation, up to the '=' */
        p += strcspn(p, "=\n");
    if (*p != '=')
        return false;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "None", 4) == 0) {
        *value = NULL;
        return true;
    }
    if (*p != '\'' && *p != '"')
        return false;
    end = strchr(p + 1, *p);
    if (!end || memchr(p + 1, '\n', (size_t)(end - p - 1)))
        return false;
    *value = dl_strndup(p + 1, (size_t)(end - p - 1));
    return true;
}

/* Sets t from the assignment to name in version.py. None means torch was not built for
 * that platform, which is a fact ("none"), not a gap. */
static void set_from_version_py(dl_text *t, const char *text, const char *name,
                                const char *path)
{
    const char *line = text;
    while (line && *line) {
        char *value = NULL;
        if (py_assignment(line, name, &value)) {
            dl_text_set(t, value ? value : "none");
            free(value);
            return;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    dl_text_unknown(t, "%s has no %s = line", path, name);
}

/* "2.3.1+cu121" -> cu121: the local version pip wheels use to say which build they are. */
static void set_local_tag(dl_torch_install *t)
{
    const char *plus = t->version.value ? strchr(t->version.value, '+') : NULL;
    if (!t->version.value)
        dl_text_unknown(&t->local_tag, "the version is unknown");
    else
        dl_text_set(&t->local_tag, plus && plus[1] ? plus + 1 : "none");
}

static void read_version_py(scan *s, const char *torch_dir, dl_torch_install *t)
{
    char *path = dl_path_join(torch_dir, "version.py"), *text;
    dl_io_error err = {DL_IO_OK, NULL};
    text = read_small(s, path, SMALL_FILE_MAX, &err);
    if (text) {
        set_from_version_py(&t->version, text, "__version__", path);
        set_from_version_py(&t->cuda, text, "cuda", path);
        set_from_version_py(&t->hip, text, "hip", path);
        set_from_version_py(&t->git_version, text, "git_version", path);
        set_local_tag(t);
    } else {
        dl_text_unknown(&t->version, "%s", err.message);
        dl_text_unknown(&t->local_tag, "%s", err.message);
        dl_text_unknown(&t->cuda, "%s", err.message);
        dl_text_unknown(&t->hip, "%s", err.message);
        dl_text_unknown(&t->git_version, "%s", err.message);
    }
    free(text);
    dl_io_error_clear(&err);
    free(path);
}

/* ---- bundled libraries --------------------------------------------------------------------- */

/* Names in dir, or none when it cannot be listed (a missing directory is no news). */
static char **list_quiet(scan *s, const char *dir, size_t *count, dl_io_error *err)
{
    char **names = NULL;
    *count = 0;
    if (!dl_fs_list(s->m, dir, &names, count, err)) {
        note_io(s, err);
        return NULL;
    }
    return names;
}

static void add_torch_lib(scan *s, dl_torch_install *t)
{
    char *dir = dl_fmt("%s/torch/lib", s->dir), **names;
    size_t count, i;
    dl_io_error err = {DL_IO_OK, NULL};
    names = list_quiet(s, dir, &count, &err);
    if (!names && err.status != DL_IO_NOT_FOUND)
        dl_list_unknown(&t->bundled_libraries, "%s", err.message);
    for (i = 0; i < count; i++)
        if (is_bundled(names[i])) {
            char *rel = dl_fmt("torch/lib/%s", names[i]);
            dl_textlist_add(&t->bundled_libraries, rel);
            free(rel);
        }
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(dir);
}

/* nvidia/<part>/lib (Linux) or nvidia/<part>/bin (Windows) of one CUDA wheel. */
static void add_nvidia_part(scan *s, dl_torch_install *t, const char *part, const char *sub)
{
    char *dir = dl_fmt("%s/nvidia/%s/%s", s->dir, part, sub), **names;
    size_t count, i;
    dl_io_error err = {DL_IO_OK, NULL};
    names = list_quiet(s, dir, &count, &err);
    for (i = 0; i < count; i++)
        if (is_shared_library(names[i])) {
            char *rel = dl_fmt("nvidia/%s/%s/%s", part, sub, names[i]);
            dl_textlist_add(&t->bundled_libraries, rel);
            free(rel);
        }
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(dir);
}

/* Since torch 2.1 the Linux CUDA wheels carry no CUDA libraries in torch/lib: they load
 * them from the nvidia-* wheels next to them, so those belong to this torch. */
static void add_nvidia_libs(scan *s, dl_torch_install *t)
{
    char *dir = dl_fmt("%s/nvidia", s->dir), **names;
    size_t count, i;
    dl_io_error err = {DL_IO_OK, NULL};
    names = list_quiet(s, dir, &count, &err);
    for (i = 0; i < count; i++) {
        if (names[i][0] == '_' || strchr(names[i], '.'))
            continue; /* __init__.py, __pycache__: not a wheel's directory */
        add_nvidia_part(s, t, names[i], "lib");
        add_nvidia_part(s, t, names[i], "bin");
    }
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(dir);
}

static void read_torch(scan *s)
{
    char *torch_dir = dl_path_join(s->dir, "torch");
    dl_torch_install *t;
    if (dl_fs_kind_of(s->m, torch_dir, NULL) != DL_FS_DIR) {
        free(torch_dir);
        return; /* a stray file named torch is no package */
    }
    t = dl_list_push(&s->site->torches, sizeof *t);
    dl_text_set(&t->location, torch_dir);
    read_version_py(s, torch_dir, t);
    dl_list_known(&t->bundled_libraries);
    add_torch_lib(s, t);
    if (s->has_nvidia && t->bundled_libraries.known)
        add_nvidia_libs(s, t);
    free(torch_dir);
}

/* ---- conda-meta ------------------------------------------------------------------------------ */

/* conda names its records "<name>-<version>-<build>.json"; the name itself may hold '-'
 * (pytorch-mutex-1.0-cpu.json), so it is what precedes the last two. 0 when the file name
 * has no such shape. The record's own fields are still what gets reported. */
static size_t conda_name_len(const char *entry)
{
    size_t i = strlen(entry) - strlen(".json"), dashes = 0;
    for (; i > 0 && dashes < 2; i--)
        if (entry[i - 1] == '-')
            dashes++;
    return dashes == 2 ? i : 0;
}

static bool conda_wanted(const char *entry)
{
    size_t n = conda_name_len(entry), i;
    for (i = 0; n && wanted_conda[i]; i++)
        if (strlen(wanted_conda[i]) == n && strncmp(entry, wanted_conda[i], n) == 0)
            return true;
    return false;
}

static const char *json_string(const cJSON *root, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

/* A record's "channel" is where conda got it: "https://conda.anaconda.org/pytorch/linux-64"
 * is the channel `-c pytorch`, Anaconda's own repository (repo.anaconda.com/pkgs/main) is
 * `-c defaults`; another URL is kept, less its platform folder, for `-c` takes URLs too. */
static void fill_channel(dl_py_package *p, const char *channel)
{
    static const char *const hosts[] = {"https://conda.anaconda.org/",
                                        "http://conda.anaconda.org/"};
    const char *slash;
    size_t i, n;
    char *name;
    if (!channel)
        return;
    if (strstr(channel, "pkgs/main") || strstr(channel, "pkgs/free") ||
        strstr(channel, "pkgs/r/")) {
        dl_text_set(&p->channel, "defaults");
        return;
    }
    for (i = 0; i < sizeof hosts / sizeof hosts[0]; i++)
        if (dl_starts_with(channel, hosts[i]))
            channel += strlen(hosts[i]);
    n = strlen(channel);
    slash = strrchr(channel, '/');
    if (slash && (dl_starts_with(slash + 1, "linux-") || dl_starts_with(slash + 1, "win-") ||
                  dl_starts_with(slash + 1, "osx-") || !strcmp(slash + 1, "noarch")))
        n = (size_t)(slash - channel);
    name = dl_strndup(channel, n);
    if (*name)
        dl_text_set(&p->channel, name);
    free(name);
}

static void fill_conda(dl_py_package *p, const char *path, const cJSON *root)
{
    const char *name = json_string(root, "name"), *version = json_string(root, "version");
    const char *build = json_string(root, "build");
    fill_channel(p, json_string(root, "channel"));
    if (name)
        dl_text_set(&p->name, name);
    else
        dl_text_unknown(&p->name, "%s has no \"name\"", path);
    if (version && build) {
        char *both = dl_fmt("%s (%s)", version, build);
        dl_text_set(&p->version, both);
        free(both);
    } else if (version) {
        dl_text_set(&p->version, version);
    } else {
        dl_text_unknown(&p->version, "%s has no \"version\"", path);
    }
}

static void read_conda_record(scan *s, const char *meta_dir, const char *entry)
{
    char *path = dl_path_join(meta_dir, entry), *text;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_py_package *p;
    text = read_small(s, path, CONDA_META_MAX, &err);
    p = dl_list_push(&s->site->packages, sizeof *p);
    if (text) {
        cJSON *root = cJSON_Parse(text);
        if (root)
            fill_conda(p, path, root);
        else
            dl_text_unknown(&p->version, "%s is not valid JSON", path);
        cJSON_Delete(root);
    } else {
        dl_text_unknown(&p->version, "%s", err.message);
    }
    if (!p->name.value && !p->name.why)
        dl_text_setn(&p->name, entry, conda_name_len(entry));
    dl_text_set(&p->installer, "conda");
    dl_text_set(&p->source, path);
    free(text);
    dl_io_error_clear(&err);
    free(path);
}

static void read_conda(scan *s, const char *prefix)
{
    char *meta_dir = dl_path_join(prefix, "conda-meta"), **names;
    size_t count, i;
    dl_io_error err = {DL_IO_OK, NULL};
    names = list_quiet(s, meta_dir, &count, &err);
    for (i = 0; i < count; i++)
        if (dl_ends_with(names[i], ".json") && conda_wanted(names[i]))
            read_conda_record(s, meta_dir, names[i]);
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(meta_dir);
}

/* ---- entry point ------------------------------------------------------------------------------- */

static void read_entries(scan *s, char **names, size_t count)
{
    size_t i;
    bool torch = false;
    for (i = 0; i < count; i++) {
        if (dl_ends_with(names[i], ".dist-info"))
            read_package(s, names[i], ".dist-info");
        else if (dl_ends_with(names[i], ".egg-info"))
            read_package(s, names[i], ".egg-info");
        else if (strcmp(names[i], "torch") == 0)
            torch = true;
        else if (strcmp(names[i], "nvidia") == 0)
            s->has_nvidia = true;
    }
    /* after the loop, so that torch's libraries may include the nvidia/ wheels whatever
     * order the names come in */
    if (torch)
        read_torch(s);
}

void dl_site_read(const dl_machine *m, const char *prefix, dl_site_packages *site,
                  dl_probe_outcome *out)
{
    scan s;
    char **names = NULL;
    size_t count = 0;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!site->path.value) {
        dl_list_unknown(&site->packages, "the site-packages directory is unknown");
        dl_list_unknown(&site->torches, "the site-packages directory is unknown");
        return;
    }
    memset(&s, 0, sizeof s);
    s.m = m;
    s.dir = site->path.value;
    s.site = site;
    s.out = out;
    if (!dl_fs_list(m, s.dir, &names, &count, &err)) {
        note_io(&s, &err);
        dl_list_unknown(&site->packages, "%s", err.message);
        dl_list_unknown(&site->torches, "%s", err.message);
        dl_io_error_clear(&err);
        return;
    }
    dl_list_known(&site->packages);
    dl_list_known(&site->torches);
    read_entries(&s, names, count);
    if (prefix)
        read_conda(&s, prefix);
    dl_fs_list_free(names, count);
}
