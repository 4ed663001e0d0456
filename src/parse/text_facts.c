#include "parse/text_facts.h"
#include "parse/env_prefix.h"
#include "parse/os_signs.h"

#include "base/str.h"
#include "know/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dl_text_facts_note(dl_text_facts *w, const char *fact, size_t line)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        if (!strcmp(w->where[i].fact, fact))
            return; /* the first mention is the evidence */
    if (w->n < DL_TEXT_FACT_MAX) {
        w->where[w->n].fact = fact;
        w->where[w->n].line = line;
        w->where[w->n].inferred_from = NULL;
        w->n++;
    }
}

static void note(dl_text_facts *w, const char *fact, size_t line)
{
    dl_text_facts_note(w, fact, line);
}

/* The fact came from another line than first noted: this one is its evidence now. */
static void note_again(dl_text_facts *w, const char *fact, size_t line)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        if (!strcmp(w->where[i].fact, fact))
            w->where[i].line = line;
}

/* collect_env's value replaces what an earlier line said, so its line is the evidence */
static void note_value(dl_text_facts *w, const char *fact, size_t line)
{
    note(w, fact, line);
    note_again(w, fact, line);
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
    /* every value read here is ASCII: a byte past it is prose that follows with no space, as
     * Chinese and Japanese punctuation does ("2.1.0+cu121，驱动版本") */
    /* a requirement check's row ends the value at its operator (ultralytics' "torch
     * 2.1.0>=1.8.0") */
    while (*p && *p != ' ' && *p != ',' && *p != ')' && *p != '(' &&
           !(i > 0 && (*p == '<' || *p == '>')) && (unsigned char)*p < 0x80 && i + 1 < n)
        out[i++] = *p++;
    /* markdown and prose close around the value ("`torch==2.10.0+cu130`", "'2.1.0'.",
     * "**True**"): what closes it is no part of it */
    while (i > 0 && strchr("`'\";.*]", out[i - 1]))
        i--;
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

/* A torch that pip or conda lists: installed, not necessarily imported. */
static void set_gpu_name(dl_facts *f, dl_text_facts *w, size_t i, const char *name, size_t n);

static void add_package(dl_facts *f, const char *name, const char *version, const char *build);
static bool package_listed(dl_facts *f, const char *name);

static dl_torch_install *installed_torch(dl_facts *f)
{
    dl_python *py = python(f);
    dl_site_packages *site;
    if (!py->site_packages.count) {
        site = dl_list_push(&py->site_packages, sizeof *site);
        dl_text_set(&site->path, "(from the pasted text)");
        dl_list_push(&site->torches, sizeof(dl_torch_install));
        dl_list_known(&site->packages);
    }
    site = &DL_LIST_AT(py->site_packages, dl_site_packages, 0);
    return &DL_LIST_AT(site->torches, dl_torch_install, 0);
}

static void set_installed(dl_facts *f, dl_text_facts *w, size_t i, const char *version,
                          const char *cuda)
{
    dl_torch_install *t = installed_torch(f);
    dl_torch_version v;
    dl_variant var;
    if (t->version.value)
        return;
    dl_text_set(&t->version, version);
    dl_text_set(&t->location, "(from the pasted text)");
    if (!package_listed(f, "torch"))
        add_package(f, "torch", version, NULL);
    note(w, "pythons[0].site_packages[0].torches[0].version", i);
    /* "2.3.1+cu121" names its CUDA; "+cpu" none. */
    if (!cuda && dl_torch_version_parse(version, &v)) {
        var = dl_torch_variant(v.local);
        if (var.kind == DL_VARIANT_CUDA)
            cuda = var.version;
        else if (var.kind == DL_VARIANT_CPU)
            cuda = "none";
    }
    if (cuda) {
        dl_text_set(&t->cuda, cuda);
        dl_text_set(&t->hip, "none");
    }
}

/* A torch the text only asks for (an install command), with the CUDA of its build: the
 * version when the command pins one. */
static void install_asked(dl_facts *f, dl_text_facts *w, size_t i, const char *version,
                          const char *cuda)
{
    dl_torch_install *t = installed_torch(f);
    /* a version read elsewhere ("pytorch==1.6.0" in a title) is the command's when the
     * command pins none or the same */
    if (t->version.value && *version && strcmp(t->version.value, version) != 0)
        return;
    if (*version && !t->version.value) {
        set_installed(f, w, i, version, cuda);
        return;
    }
    dl_text_set(&t->location, "(from the pasted text)");
    dl_text_set(&t->cuda, cuda);
    dl_text_set(&t->hip, "none");
    note(w, "pythons[0].site_packages[0].torches[0].cuda", i);
}

static dl_nvml_gpu *gpu(dl_facts *f)
{
    if (!f->nvml.gpus.count) {
        dl_list_known(&f->nvml.gpus);
        dl_list_push(&f->nvml.gpus, sizeof(dl_nvml_gpu));
    }
    return &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0);
}

/* "2.1.0", "1.13": a digit before and after the first dot ("2.x", "1." say no version) */
static bool looks_like_version(const char *s)
{
    const char *dot = strchr(s, '.');
    return isdigit((unsigned char)s[0]) && dot && isdigit((unsigned char)dot[1]);
}

/* ---- one reader per kind of line ---- */

/* A path only a Mac has: home folders under /Users/ (Linux has /home/, Windows C:\\Users\\
 * or C:/Users/), Homebrew's /opt/homebrew, python.org's framework build. /Users/ must start
 * the path: /data/users/ or /home/users/ on a Linux cluster is a folder inside another. */
/* `at` (in s) starts a path's root: nothing of a word, a drive or a name before it. */
static bool root_starts(const char *s, const char *at)
{
    return at == s || !(isalnum((unsigned char)at[-1]) || at[-1] == ':' || at[-1] == '_' ||
                        at[-1] == '-' || at[-1] == '.');
}

static bool mac_path(const char *text, const char *low)
{
    const char *u = strstr(low, "/users/");
    /* macOS spells its home root "/Users/"; a cluster's lower-case /users/NAME is Linux's */
    bool users_root = u && text[u - low + 1] == 'U' && root_starts(low, u);
    /* macOS mounts other disks under "/Volumes/" (capitalised) */
    const char *v = strstr(text, "/Volumes/");
    return users_root || (v && root_starts(text, v)) || strstr(low, "/opt/homebrew/") ||
           strstr(low, "python.framework/");
}

/* A Windows drive path: "c:\\users", or with forward slashes as Python, Git Bash and
 * many tools print it ("c:/users/me/venv"); the drive letter is a word of its own, so a
 * URL's "http://" is none. */
static bool drive_path(const char *low)
{
    const char *at;
    for (at = strchr(low, ':'); at; at = strchr(at + 1, ':'))
        if (at - low >= 1 && isalpha((unsigned char)at[-1]) &&
            (at - low == 1 || !isalnum((unsigned char)at[-2])) &&
            (at[1] == '\\' || (at[1] == '/' && at[2] != '/' && at[2] != ' ' && at[2])))
            return true;
    return false;
}

/* A Linux shared object named: ".so" at a word's end or before its version ("libc10.so",
 * "libcudart.so.12"), not in a word that goes on ("[tool.uv.sources]", "also.some"). */
static bool shared_object(const char *low)
{
    const char *at;
    for (at = strstr(low, ".so"); at; at = strstr(at + 3, ".so"))
        if (!isalnum((unsigned char)at[3]) && at[3] != '_' && at > low &&
            isalnum((unsigned char)at[-1]))
            return true;
    return false;
}

/* The OS a line's paths and messages belong to; NULL when it shows none. Each test needs
 * one of line_os_marks (below) in the line: a new test adds its mark there. */
static const char *line_os(const char *text, const char *low)
{
    /* an assert names the source file as its build machine had it ("INTERNAL ASSERT FAILED
     * at \"/home/vsts/work/1/s/...\"": torch-directml's Windows wheels are built there) */
    if (strstr(low, "internal assert failed at") || strstr(low, "/home/vsts/"))
        return NULL;
    /* an environment marker names the systems a requirement is for, not this one (pip's
     * "Ignoring bitsandbytes: markers 'sys_platform == \"darwin\"' don't match your
     * environment" on Windows) */
    if (strstr(low, "sys_platform") || strstr(low, "platform_system"))
        return NULL;
    /* Python's "DLL load failed" is Windows' loader's message alone */
    if (strstr(low, "winerror") || drive_path(low) || strstr(low, ".dll") ||
        strstr(low, "dll load failed") || strstr(low, "os: microsoft windows") ||
        /* nvidia-smi's driver model column: WDDM and TCC are Windows' */
        (strstr(low, "wddm") && strchr(low, '|')) || dl_os_windows_sign(low))
        return "windows";
    if (strstr(low, "darwin") || strstr(low, "os: macos") || mac_path(text, low) ||
        strstr(low, ".dylib"))
        return "macos";
    if (strstr(low, "gnu/linux") || strstr(low, "os: ubuntu") || strstr(low, "os: debian") ||
        strstr(low, "/site-packages/") || strstr(low, "/dist-packages/") || shared_object(low) ||
        dl_os_linux_sign(low))
        return "linux";
    return NULL;
}

/* Every line line_os reads an OS from holds one of these (at most DL_PASTE_CURSOR_MARKS,
 * all a cursor reads; a drive path holds ":\\" or
 * ":/"): the lines without any are skipped, a long training log's almost all. */
static const char *const line_os_marks[] = {
    "winerror", ":\\", ":/", "dll", "windows", "darwin", "os: macos",
    "/users/", "/opt/homebrew/", "python.framework/", "gnu/linux", "os: ubuntu", "os: debian",
    "/site-packages/", "/dist-packages/", ".so", "\\site-packages\\", "\\appdata\\", ".\\",
    "wddm", ".dylib", "/opt/", "-linux-gnu", "/usr/lib64/", "/usr/local/cuda", "/home/",
    "root@", "/content/", "/mnt/", "/media/", "/root/", "/pytorch/"};

/* torch's own errors about the MPS device, which only macOS has ("Cannot convert a MPS
 * Tensor to float64 dtype as the MPS framework doesn't support float64") */
static bool mps_error(const char *low)
{
    return strstr(low, "mps tensor") || strstr(low, "mps framework") ||
           strstr(low, "mps backend out of memory") || strstr(low, "on mps device") ||
           strstr(low, "for the mps device");
}

static void os_family(const char *text, const char *low, dl_facts *f, dl_text_facts *w, size_t i,
                      dl_paste_cursor *os_lines)
{
    const char *family;
    if (!f->os.family.value && dl_paste_cursor_at(os_lines, i)) {
        if ((family = line_os(text, low)) != NULL) {
            dl_text_set(&f->os.family, family);
            note(w, "os.family", i);
        }
    }
    /* A site-packages path reads as Linux, but one to a darwin module or a .dylib is a
     * Mac's (a traceback's first frames come before the dlopen line that shows it). */
    if (f->os.family.value && !strcmp(f->os.family.value, "linux") && !f->os.pretty_name.value &&
        ((strstr(low, "-packages/") && (strstr(low, "-darwin.so") || strstr(low, ".dylib"))) ||
         mps_error(low))) {
        dl_text_set(&f->os.family, "macos");
        note_again(w, "os.family", i);
    }
}

/* v, written after a driver's label, is a driver release ("535.104.05", "31.0.15.5222")
 * into norm. A two-digit first part is a CUDA version ("CUDA Driver Version: 12.8", "CUDA
 * Driver: 12.0"): the newest CUDA the driver runs, which goes to cuda_driver_version. */
static bool driver_release_value(const char *v, char *norm, size_t n, dl_facts *f,
                                 dl_text_facts *w, size_t i)
{
    int cuda;
    if (!dl_driver_normalize(v, norm, n))
        return false;
    if (strspn(norm, "0123456789") >= 3)
        return true;
    if (dl_cuda_version_to_int(v, &cuda) && !f->nvml.cuda_driver_version.known) {
        dl_int_set(&f->nvml.cuda_driver_version, cuda);
        note(w, "nvml.cuda_driver_version", i);
    }
    return false;
}

/* A line's driver facts; each test needs one of driver_marks in dl_text_facts_read. */
static void driver(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    char v[64], norm[32];
    if ((strstr(low, "driver version") || strstr(low, "nvidia driver version")) &&
        !f->nvml.driver_version.value &&
        value_after(low, strstr(low, "nvidia driver version") ? "nvidia driver version"
                                                               : "driver version",
                    v, sizeof v) &&
        driver_release_value(v, norm, sizeof norm, f, w, i)) {
        dl_text_set(&f->nvml.driver_version, norm);
        note(w, "nvml.driver_version", i);
    }
    /* an issue form's "- Driver: 531.41", "**NVIDIA driver**: 535.104.05"; "CUDA Driver:
     * 12.0 (Driver 528.49)" says the release in brackets */
    if (!f->nvml.driver_version.value && strstr(low, "driver") &&
        (value_after(low, "driver:", v, sizeof v) || value_after(low, "driver**:", v, sizeof v)) &&
        driver_release_value(v, norm, sizeof norm, f, w, i)) {
        dl_text_set(&f->nvml.driver_version, norm);
        note(w, "nvml.driver_version", i);
    }
    if (!f->nvml.driver_version.value && strstr(low, "(driver ") &&
        value_after(low, "(driver ", v, sizeof v) &&
        driver_release_value(v, norm, sizeof norm, f, w, i)) {
        dl_text_set(&f->nvml.driver_version, norm);
        note(w, "nvml.driver_version", i);
    }
    /* nvidia-smi prints its header only when it found a GPU and the driver answered. */
    if (strstr(low, "nvidia-smi") && strstr(low, "driver version"))
        gpu(f);
    /* nvidia-smi's header: "CUDA Version: 12.4" is the driver's newest CUDA. The toolkit's
     * version.txt says "CUDA Version 9.0.176": a third part is a toolkit's build. */
    if (strstr(l, "CUDA Version") && value_after(low, "cuda version", v, sizeof v)) {
        int cuda;
        const char *dot = strchr(v, '.');
        bool toolkit = dot && strchr(dot + 1, '.');
        if (!toolkit && dl_cuda_version_to_int(v, &cuda) && !f->nvml.cuda_driver_version.known) {
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

static bool spaced_local_tag(const char *after, char *out, size_t n, const char *version,
                             size_t len);

/* The version v read from low, with a local tag written apart after it ("torch 2.5.1 cu124",
 * "pytorch 2.7.1 (cu128)") joined on. */
static void join_spaced_tag(const char *low, char *v, size_t n)
{
    const char *at = strstr(low, v);
    char joined[64];
    size_t len = strlen(v);
    if (at && !strchr(v, '+') && spaced_local_tag(at + len, joined, sizeof joined, v, len))
        snprintf(v, n, "%s", joined);
}

/* The version's local tag names the CUDA torch was built with ("2.2.0+cu121": 12.1, "+cpu":
 * none): an issue form's "PyTorch Version: 2.2.0+cu121" says the build even where no
 * "CUDA used to build PyTorch" line follows (a later one still overrides it). */
static void runtime_cuda_from_tag(dl_python *py, dl_text_facts *w, size_t i, const char *version)
{
    dl_torch_version v;
    dl_variant var;
    if (py->runtime.cuda.value || !dl_torch_version_parse(version, &v))
        return;
    var = dl_torch_variant(v.local);
    if (var.kind == DL_VARIANT_ROCM) {
        /* a ROCm build ("2.1.0+rocm5.6") has no CUDA: torch.version.cuda is None */
        dl_text_set(&py->runtime.cuda, "none");
        dl_text_set(&py->runtime.hip, var.version[0] ? var.version : "rocm");
        note(w, "pythons[0].runtime.hip", i);
        return;
    }
    if (var.kind != DL_VARIANT_CUDA && var.kind != DL_VARIANT_CPU)
        return;
    dl_text_set(&py->runtime.cuda, var.kind == DL_VARIANT_CUDA ? var.version : "none");
    note(w, "pythons[0].runtime.cuda", i);
}

/* The first "torch==" of low that is the package torch itself, not the end of another's
 * name ("open-clip-torch==2.20.0", "ema-pytorch==0.2.3", "gpytorch=="); NULL when none. */
static const char *torch_pin(const char *low)
{
    const char *at;
    for (at = strstr(low, "torch=="); at; at = strstr(at + 1, "torch==")) {
        unsigned char before = at > low ? (unsigned char)at[-1] : ' ';
        if (!isalnum(before) && before != '-' && before != '_' && before != '.')
            return at;
    }
    return NULL;
}

/* A line's torch facts; each test needs one of torch_marks in dl_text_facts_read. */
static void torch_build(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *pin = torch_pin(low);
    char v[64];
    dl_python *py;
    bool collect_env_line;
    (void)l;
    /* "pip install torch==X", pip's "requirement torch==X" and "No matching distribution found
     * for torch==X", or "xformers 0.0.20 requires torch==X, but you have torch Y" ask for a
     * torch, they do not show one installed. */
    bool asked = (strstr(low, "install ") && !strstr(low, "successfully installed")) ||
                 strstr(low, "requirement") || strstr(low, "requires torch") ||
                 strstr(low, "distribution found for");
    /* torch 2.13's own warning names the installed build, then asks to reinstall it:
     * "Your installed torch==2.13.0+cu126 does not include kernels for this GPU" */
    if (strstr(low, "your installed torch=="))
        asked = false;
    if (((!asked && pin && value_after(pin, "torch==", v, sizeof v)) ||
         (!strncmp(low, "torch ", 6) && value_after(low, "torch", v, sizeof v)) ||
         (!strncmp(low, "torch:", 6) && value_after(low, "torch:", v, sizeof v))) &&
        looks_like_version(v)) {
        join_spaced_tag(low, v, sizeof v);
        set_installed(f, w, i, v, NULL);
    }
    /* collect_env's first line; pasted, its colon is sometimes lost ("PyTorch version
     * 1.5.0" at the start of the line) */
    collect_env_line = strstr(low, "pytorch version:") ||
                       (!strncmp(low, "pytorch version ", 16) && isdigit((unsigned char)low[16]));
    if (collect_env_line && value_after(low, "pytorch version", v, sizeof v)) {
        if (looks_like_version(v)) {
            py = python(f);
            if (!py->runtime.version.value) {
                dl_text_set(&py->runtime.version, v);
                note(w, "pythons[0].runtime.version", i);
            }
            /* collect_env imports torch to say this: the build facts are the runtime's. */
            {
                dl_text_set(&py->runtime.status, "imported");
                if (!py->runtime.hip.value)
                    dl_text_set(&py->runtime.hip, "none");
                runtime_cuda_from_tag(py, w, i, v);
            }
        }
    }
    if (strstr(low, "rocm used to build pytorch") &&
        value_after(low, "rocm used to build pytorch", v, sizeof v)) {
        py = python(f);
        dl_text_set(&py->runtime.hip, !strcmp(v, "n/a") || !strcmp(v, "none") ? "none" : v);
        note_value(w, "pythons[0].runtime.hip", i);
    }
    if (strstr(low, "cuda used to build pytorch") &&
        value_after(low, "cuda used to build pytorch", v, sizeof v)) {
        /* "None" is a CPU build, and so is "Could not collect": collect_env prints that for
         * a torch.version.cuda of None where it found a GPU; a ROCm build says "N/A" (its
         * torch.version.cuda is None too, and its "ROCM used to build" line says the rest). */
        py = python(f);
        dl_text_set(&py->runtime.cuda, !strcmp(v, "none") || !strcmp(v, "could") ||
                                               !strcmp(v, "n/a")
                                           ? "none"
                                           : v);
        note_value(w, "pythons[0].runtime.cuda", i);
    }
    /* "True"/"False"; collect_env of torch 1.x said "Yes"/"No". */
    if (strstr(low, "is cuda available") && value_after(low, "is cuda available", v, sizeof v) &&
        (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "yes") || !strcmp(v, "no"))) {
        py = python(f);
        dl_flag_set(&py->runtime.cuda_available, !strcmp(v, "true") || !strcmp(v, "yes"));
        note_value(w, "pythons[0].runtime.cuda_available", i);
    }
    /* OpenMMLab's collect_env (mmcv, mmdet, mmaction2): "CUDA available: True" opens its
     * line, after "sys.platform:" and "Python:" */
    if (!strncmp(low + strspn(low, " "), "cuda available:", 15) &&
        value_after(low, "cuda available", v, sizeof v) &&
        (!strcmp(v, "true") || !strcmp(v, "false"))) {
        py = python(f);
        dl_flag_set(&py->runtime.cuda_available, !strcmp(v, "true"));
        note_value(w, "pythons[0].runtime.cuda_available", i);
    }
}

/* Ultralytics' banner names the device it runs on: "torch-2.5.1 CUDA:0 (NVIDIA GeForce RTX
 * 3060, 12288MiB)"; it prints CUDA:N only where torch.cuda.is_available() is True
 * (ultralytics/utils/torch_utils.py select_device), else "CPU (...)". */
static void ultralytics_device(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *t = strstr(low, "torch-"), *c = t ? strstr(t, " cuda:") : NULL;
    if (!c || !isdigit((unsigned char)c[6]) || python(f)->runtime.cuda_available.known)
        return;
    dl_flag_set(&python(f)->runtime.cuda_available, true);
    note(w, "pythons[0].runtime.cuda_available", i);
}

/* nvidia-smi's table row: "|   0  NVIDIA GeForce RTX 4090        Off |   00000000:01:00.0 ...". */
static void smi_row(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *p = l + 1, *end;
    if (low[0] != '|' || !strstr(low, "nvidia") || strstr(low, "nvidia-smi") ||
        strstr(low, "driver version"))
        return;
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return;
    while (isdigit((unsigned char)*p))
        p++;
    while (*p == ' ')
        p++;
    end = strstr(p, "  ");
    if (!end || !strchr(end, '|'))
        return;
    if (!f->nvml.gpus.count || !gpu(f)->name.value)
        set_gpu_name(f, w, i, p, (size_t)(end - p));
}

/* xFormers' "Python 3.11.7 (you have 3.11.6)": the first is its build's, the one after
 * "you have" the Python that runs; v keeps the first where the line has no such part. */
static void python_you_have(const char *low, char *v, size_t n)
{
    const char *have = strstr(low, "(you have ");
    size_t k = have ? strspn(have + 10, "0123456789.") : 0;
    /* a Python's version ("3.11.6"), not another package's update notice beside a
     * python3.10 path (Albumentations' "1.4.17 (you have 1.4.15)") */
    if (k && k < n && !strncmp(have + 10, "3.", 2))
        snprintf(v, n, "%.*s", (int)k, have + 10);
}

static void python_version(const char *l, const char *low, dl_facts *f, dl_text_facts *w,
                           size_t i)
{
    char v[64];
    (void)l;
    /* not pip's "Ignored the following versions that require a different python version:
     * 1.6.2 Requires-Python ...", whose numbers are a package's releases */
    if ((strstr(low, "python version:") && !strstr(low, "different python version") &&
         value_after(low, "python version", v, sizeof v)) ||
        (!strncmp(low, "python 3.", 9) && value_after(low, "python", v, sizeof v)) ||
        (!strncmp(low, "python 2.", 9) && value_after(low, "python", v, sizeof v))) {
        dl_python *py = python(f);
        python_you_have(low, v, sizeof v);
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

/* The interpreter's build from its banner or its install path: "[MSC v.1915 64 bit (AMD64)]"
 * is a Windows build, "32 bit (Intel)" a 32-bit one, and python.org's 32-bit installer puts
 * Python in "Python37-32". */
/* The bits a Windows banner gives right after its compiler ("[MSC v.1929 32 bit"), even
 * where a log wraps the line before "(Intel)]"; 0 when it gives none. */
static int msc_banner_bits(const char *low)
{
    const char *at = strstr(low, "[msc v.");
    if (!at)
        return 0;
    at += 7;
    while (isdigit((unsigned char)*at))
        at++;
    if (!strncmp(at, " 32 bit", 7))
        return 32;
    return !strncmp(at, " 64 bit", 7) ? 64 : 0;
}

static void interpreter_build(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *at = strstr(low, "python3");
    bool path32 = false;
    if (!at && !strstr(low, " bit (") && !msc_banner_bits(low))
        return;
    if (at) {
        at += 7;
        while (isdigit((unsigned char)*at))
            at++;
        path32 = !strncmp(at, "-32\\", 4) || !strncmp(at, "-32/", 4) || !strncmp(at, "-32 ", 4) ||
                 !strcmp(at, "-32");
    }
    if (path32 || strstr(low, "32 bit (intel)") || msc_banner_bits(low) == 32) {
        dl_python *py = python(f);
        /* a banner that said 64 bit is the running interpreter; a path may be another */
        if (!py->bits.known || (py->bits.value != 32 && !path32)) {
            dl_int_set(&py->bits, 32);
            note(w, "pythons[0].bits", i);
        }
    } else if ((strstr(low, "64 bit (amd64)") || msc_banner_bits(low) == 64) &&
               !python(f)->bits.known) {
        dl_int_set(&python(f)->bits, 64);
    }
    if ((path32 || strstr(low, "[msc v.")) && !f->os.family.value) {
        dl_text_set(&f->os.family, "windows");
        note(w, "os.family", i);
    }
}

/* The first line at or after from holding any of words at a place accept takes (NULL: any
 * place); -1 when none. One search over the whole text per word (a 10 MB log stays fast). */
static long first_line_where(const dl_paste *p, size_t from, const char *const *words,
                             size_t n, dl_paste_accept_fn accept)
{
    long best = -1;
    size_t k;
    for (k = 0; k < n; k++) {
        long at = accept ? dl_paste_find_where(p, from, words[k], accept)
                         : dl_paste_find(p, from, words[k]);
        if (at >= 0 && (best < 0 || at < best))
            best = at;
    }
    return best;
}

static long first_line_from(const dl_paste *p, size_t from, const char *const *words,
                            size_t n)
{
    return first_line_where(p, from, words, n, NULL);
}

static long first_line_of(const dl_paste *p, const char *const *words, size_t n)
{
    return first_line_from(p, 0, words, n);
}

/* "Python 3.8 32-bit", "Python 3.10.5 (32 bit)": the bits right after a Python's version
 * (past spaces, '(' and ','); the line, or -1. */
static long version_then_32_bits(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "python "); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "python ")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "python "); at; at = strstr(at + 1, "python ")) {
            const char *v = at + 7;
            if (!isdigit((unsigned char)*v))
                continue;
            while (isdigit((unsigned char)*v) || *v == '.')
                v++;
            while (*v == ' ' || *v == '(' || *v == ',')
                v++;
            if (!strncmp(v, "32-bit", 6) || !strncmp(v, "32 bit", 6) || !strncmp(v, "32bit", 5))
                return i;
        }
    }
    return -1;
}

/* A 32-bit interpreter or system said in words ("32 bit windows 7 system", "my python is
 * 32-bit"): a 32-bit Windows runs only a 32-bit Python. A banner or path already read wins. */
static void bits_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const words[] = {"32 bit windows", "32-bit windows", "32bit windows",
                                        "windows 32 bit", "windows 32-bit", "windows 32bit",
                                        "32 bit python", "32-bit python", "32bit python",
                                        "python 32 bit", "python 32-bit", "python 32bit",
                                        "python is 32", "32 bit system", "32-bit system",
                                        "32 bit os", "32-bit os",
                                        /* conda's 32-bit channels, Anaconda's banner, a
                                         * Windows release named before its bits */
                                        "/win-32", "custom (32-bit)", "windows 10 32-bit",
                                        "windows 10 32 bit", "windows 7 32-bit",
                                        "windows 7 32 bit", "windows 11 32-bit"};
    long at;
    if (f->pythons.count && python(f)->bits.known)
        return;
    at = first_line_of(p, words, sizeof words / sizeof words[0]);
    if (at < 0)
        at = version_then_32_bits(p);
    if (at >= 0) {
        dl_int_set(&python(f)->bits, 32);
        note(w, "pythons[0].bits", (size_t)at);
    }
}

/* The text after a check's expression on its line ("print(sys.maxsize.bit_length())  -->
 * output is 31"), or the next line when nothing alnum follows it there (the REPL's answer
 * below the prompt). NULL when the expression is not on the line. */
static const char *check_answer(const dl_paste *p, size_t i, const char *expr)
{
    const char *at = strstr(p->lines[i].lower, expr), *s;
    if (!at)
        return NULL;
    for (s = at + strlen(expr); *s && !isalnum((unsigned char)*s); s++)
        ;
    if (!*s && i + 1 < p->count)
        for (s = p->lines[i + 1].lower; *s && !isalnum((unsigned char)*s); s++)
            ;
    return s;
}

/* The first number in s (answers follow words like "output is"), or -1. */
static long first_number(const char *s)
{
    for (; *s; s++)
        if (isdigit((unsigned char)*s))
            return strtol(s, NULL, 10);
    return -1;
}

/* The bits of one check's answer on line i: Python's own ways to ask for its width
 * (sys.maxsize.bit_length() is 31 or 63, sys.maxsize > 2**32 is False or True,
 * platform.architecture() starts with '32bit' or '64bit', struct.calcsize("P") is 4 or 8
 * bytes); 0 when the line holds none or its answer is not one of these. */
static int bits_of_check(const dl_paste *p, size_t i)
{
    const char *a;
    long n;
    if ((a = check_answer(p, i, "maxsize.bit_length()")) != NULL) {
        n = first_number(a);
        return n == 31 ? 32 : n == 63 ? 64 : 0;
    }
    if ((a = check_answer(p, i, "2**32")) != NULL || (a = check_answer(p, i, "2 ** 32")) != NULL) {
        if (!strstr(p->lines[i].lower, "maxsize"))
            return 0;
        return !strncmp(a, "true", 4) ? 64 : !strncmp(a, "false", 5) ? 32 : 0;
    }
    if ((a = check_answer(p, i, "platform.architecture()")) != NULL)
        return !strncmp(a, "32bit", 5) ? 32 : !strncmp(a, "64bit", 5) ? 64 : 0;
    if ((a = check_answer(p, i, "calcsize(")) != NULL && strstr(p->lines[i].lower, "struct")) {
        const char *close = strchr(a, ')');
        n = first_number(close ? close : a);
        return n == 4 || n == 32 ? 32 : n == 8 || n == 64 ? 64 : 0;
    }
    return 0;
}

/* The bits a user's own check printed: as sure as a banner, read where no banner said. */
static void bits_by_check(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const exprs[] = {"maxsize", "platform.architecture()", "calcsize("};
    long at;
    int bits;
    if (f->pythons.count && python(f)->bits.known)
        return;
    for (at = dl_paste_find_any(p, exprs, sizeof exprs / sizeof exprs[0]); at >= 0;
         at = first_line_from(p, (size_t)at + 1, exprs, sizeof exprs / sizeof exprs[0]))
        if ((bits = bits_of_check(p, (size_t)at)) != 0) {
            dl_int_set(&python(f)->bits, bits);
            note(w, "pythons[0].bits", (size_t)at);
            return;
        }
}

/* A capability in words: "GM630m => cuda capability 2.1", "(compute capability 6.1)",
 * "(compute capability: 3.5)": the "D.D" right after "cuda capability" or "compute
 * capability" and a space or a colon, one digit each side (no
 * GPU has two), followed by neither a digit nor a dot ("capability 3.7.0" is no such
 * value). NULL when there is none. */
static const char *prose_capability(const char *low)
{
    static const char *const keys[] = {"cuda capability ", "compute capability ",
                                       "cuda capability: ", "compute capability: "};
    size_t k;
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *at = strstr(low, keys[k]);
        if (at) {
            at += strlen(keys[k]);
            if (isdigit((unsigned char)at[0]) && at[1] == '.' && isdigit((unsigned char)at[2]) &&
                !isdigit((unsigned char)at[3]) && !(at[3] == '.' && isdigit((unsigned char)at[4])))
                return at;
        }
    }
    return NULL;
}

static size_t words_in(const char *s)
{
    size_t n = 0;
    while (*s) {
        s += strspn(s, " \t");
        if (*s)
            n++;
        s += strcspn(s, " \t");
    }
    return n;
}

/* s starts with the lower-case word w in any case */
static bool starts_lower(const char *s, const char *w)
{
    for (; *w; s++, w++)
        if (tolower((unsigned char)*s) != *w)
            return false;
    return true;
}

/* The GPU's name before torch's " with CUDA capability": what the driver calls it, after
 * whatever the writer put in front ("facing issue like NVIDIA GeForce RTX 5080"): from the
 * first vendor or family word that leaves a name of a few words; NULL where the words are
 * prose with none ("incompatible with 50XX cards"). */
static const char *name_before_capability(const char *name)
{
    static const char *const brands[] = {"nvidia", "geforce", "tesla", "quadro", "titan", "grid"};
    const char *s;
    if (words_in(name) <= 8)
        return name;
    for (s = name; *s; s++) {
        size_t k;
        if (s > name && isalnum((unsigned char)s[-1]))
            continue;
        for (k = 0; k < sizeof brands / sizeof brands[0]; k++)
            if (starts_lower(s, brands[k]) && words_in(s) <= 8)
                return s;
    }
    return NULL;
}

/* torch's warnings: "NAME with CUDA capability sm_86 is not compatible ...", "The current
 * PyTorch install supports CUDA capabilities sm_37 sm_50 ...", "Found GPU0 NAME which is
 * of cuda capability 5.0." */
/* The wheel's architectures in words: torch's warning ("The current PyTorch install supports
 * CUDA capabilities sm_50 sm_60 ...") or a program's check of get_arch_list() ("is not
 * supported by this PyTorch build. Supported architectures: sm_61, sm_70, ..."). */
static void arch_list_in_words(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    static const char *const intros[] = {"supports cuda capabilities",
                                         "supported architectures:"};
    dl_python *py;
    dl_strv parts = {0};
    const char *at = NULL;
    size_t k;
    for (k = 0; k < sizeof intros / sizeof intros[0] && !at; k++)
        if ((at = strstr(low, intros[k])) != NULL)
            at += strlen(intros[k]);
    if (!at || (py = python(f))->runtime.arch_list.known)
        return;
    dl_strv_split(&parts, at, ' ');
    for (k = 0; k < parts.n; k++) {
        size_t n = strlen(parts.v[k]);
        while (n && (parts.v[k][n - 1] == '.' || parts.v[k][n - 1] == ','))
            parts.v[k][--n] = '\0';
        if (!strncmp(parts.v[k], "sm_", 3) || !strncmp(parts.v[k], "compute_", 8)) {
            dl_list_known(&py->runtime.arch_list);
            dl_textlist_add(&py->runtime.arch_list, parts.v[k]);
        } else if (py->runtime.arch_list.known) {
            break; /* the list ended: "... sm_120. Try: pip install ..." */
        }
    }
    dl_strv_free(&parts);
    if (py->runtime.arch_list.known)
        note(w, "pythons[0].runtime.arch_list", i);
}

/* One capability "X.Y" at `s` as the arch list's "sm_XY"; false when `s` holds none. */
static bool add_cc_arch(dl_python *py, const char *s)
{
    unsigned major, minor;
    char sm[16];
    if (sscanf(s, "%u.%u", &major, &minor) != 2 || major < 1 || major > 20 || minor > 9)
        return false;
    snprintf(sm, sizeof sm, "sm_%u%u", major, minor);
    dl_list_known(&py->runtime.arch_list);
    dl_textlist_add(&py->runtime.arch_list, sm);
    return true;
}

/* torch 2.11 and later list the wheel's architectures as capabilities, one a line ("- 7.5
 * which supports hardware CC >=7.5,<8.0") or on one line ("This version of PyTorch was
 * built for: 7.5, 8.0, 8.6, 9.0"). */
static void arch_list_in_ccs(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    static const char *const intro = "this version of pytorch was built for:";
    const char *at = strstr(low, " which supports hardware cc >="), *s;
    dl_python *py = python(f);
    if (at) {
        for (s = low; s < at && !isdigit((unsigned char)*s); s++)
            ;
        if (s < at && add_cc_arch(py, s))
            note(w, "pythons[0].runtime.arch_list", i);
        return;
    }
    if ((at = strstr(low, intro)) == NULL || py->runtime.arch_list.known)
        return;
    for (s = at + strlen(intro); *s;) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!add_cc_arch(py, s))
            break;
        while (isdigit((unsigned char)*s) || *s == '.')
            s++;
    }
    if (py->runtime.arch_list.known)
        note(w, "pythons[0].runtime.arch_list", i);
}

static void capability(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *at;
    if ((at = strstr(low, " with cuda capability sm_")) != NULL) {
        dl_nvml_gpu *g = gpu(f);
        unsigned cc = (unsigned)strtoul(at + 25, NULL, 10);
        char buf[16], *name = dl_strndup(l, (size_t)(at - low)), *start = name, *cut;
        snprintf(buf, sizeof buf, "%u.%u", cc / 10, cc % 10);
        /* the name follows what came before it on the line: "UserWarning: ", a quote */
        while ((cut = strpbrk(start, ":\"'`")) != NULL)
            start = cut + 1;
        start = (char *)name_before_capability(dl_trim(start));
        if (!g->compute_capability.value && cc >= 10) {
            dl_text_set(&g->compute_capability, buf);
            if (start && *start) {
                dl_text_set(&g->name, start);
                note(w, "nvml.gpus[0].name", i);
            }
            note(w, "nvml.gpus[0].compute_capability", i);
        }
        free(name);
    }
    /* torch 2.11 and later: "which is of compute capability (CC) 6.1." */
    if ((at = strstr(low, "which is of cuda capability ")) != NULL ||
        (at = strstr(low, "which is of compute capability (cc) ")) != NULL) {
        dl_nvml_gpu *g = gpu(f);
        char v[16];
        if (value_after(at, at[12] == 'c' && at[13] == 'u' ? "which is of cuda capability"
                                                            : "which is of compute capability (cc)",
                        v, sizeof v) &&
            !g->compute_capability.value) {
            size_t n = strlen(v);
            if (n && v[n - 1] == '.')
                v[n - 1] = '\0';
            dl_text_set(&g->compute_capability, v);
            note(w, "nvml.gpus[0].compute_capability", i);
        }
    }
    if ((at = prose_capability(low)) != NULL && !gpu(f)->compute_capability.value) {
        char v[8];
        snprintf(v, sizeof v, "%c.%c", at[0], at[2]);
        dl_text_set(&gpu(f)->compute_capability, v);
        note(w, "nvml.gpus[0].compute_capability", i);
    }
    arch_list_in_words(low, f, w, i);
    arch_list_in_ccs(low, f, w, i);
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

static void gpu_model(const dl_paste *p, const char *l, const char *low, dl_facts *f,
                      dl_text_facts *w, size_t i)
{
    const char *at = strstr(low, "gpu 0: ");
    /* collect_env's row, or its first GPU on the line after the label (several GPUs) */
    bool row = at && (strstr(low, "gpu models") ||
                      (at == low + strspn(low, " ") && i > 0 &&
                       strstr(p->lines[i - 1].lower, "gpu models and configuration")));
    if (!row)
        return;
    /* collect_env's GPU is the machine's: it wins over a name said in prose before it */
    {
        char *name = dl_strdup(l + (at - low) + 7);
        char *paren = strstr(name, " (uuid");
        if (paren)
            *paren = '\0';
        dl_text_set(&gpu(f)->name, dl_trim(name));
        note(w, "nvml.gpus[0].name", i);
        note_again(w, "nvml.gpus[0].name", i);
        free(name);
    }
}

static void set_gpu_name(dl_facts *f, dl_text_facts *w, size_t i, const char *name, size_t n)
{
    char *copy;
    if (gpu(f)->name.value)
        return;
    /* a name in prose keeps no punctuation after it ("titan X:", "gtx 1660 6gb/", "my
     * 3090."); nvidia-smi's "..." that marks a cut name stays */
    while (n && (strchr(":/,;!? ", name[n - 1]) ||
                 (name[n - 1] == '.' && !(n > 1 && name[n - 2] == '.'))))
        n--;
    /* "Your Tesla T4 GPU has ...", "on a v100 gpu": the word GPU after a model is no part
     * of its name */
    if (n > 4 && name[n - 4] == ' ' && tolower((unsigned char)name[n - 3]) == 'g' &&
        tolower((unsigned char)name[n - 2]) == 'p' && tolower((unsigned char)name[n - 1]) == 'u')
        n -= 4;
    copy = dl_strndup(name, n);
    dl_text_set(&gpu(f)->name, dl_trim(copy));
    note(w, "nvml.gpus[0].name", i);
    free(copy);
}

/* The license product a vGPU guest's nvidia-smi -q lists under "vGPU Software Licensed
 * Product" (its own "Product Name" line), not a GPU. */
static bool vgpu_license_product(const char *low)
{
    static const char *const products[] = {"virtual compute server", "virtual workstation",
                                           "virtual pc", "virtual applications"};
    return dl_line_has_any(low, products, sizeof products / sizeof products[0]);
}

/* nvidia-smi -q "Product Name : X", nvidia-smi -L "GPU 0: X (UUID: GPU-...)". */
static void smi_names(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    const char *at, *end;
    if ((at = strstr(low, "product name")) != NULL && strchr(at, ':') &&
        !vgpu_license_product(low)) {
        const char *v = l + (strchr(at, ':') - low) + 1;
        set_gpu_name(f, w, i, v, strlen(v));
    } else if (!strncmp(low, "gpu ", 4) && (at = strstr(low, ": ")) != NULL &&
               (end = strstr(low, "(uuid: gpu-")) != NULL && end > at + 2) {
        /* the name runs up to the UUID's parenthesis (the space before it, when there is
         * one, is trimmed with the name) */
        set_gpu_name(f, w, i, l + (at - low) + 2, (size_t)(end - (at + 2)));
    }
}

/* nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv: the header names
 * the columns of the next line. */
static void smi_csv(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    dl_strv head = {0}, row = {0};
    size_t k;
    const char *c;
    if (i + 1 >= p->count || !strstr(p->lines[i].lower, "driver_version") ||
        !strchr(p->lines[i].lower, ','))
        return;
    /* A header is field names and commas only (not the command that asked for them). */
    for (c = p->lines[i].lower; *c; c++)
        if (!(islower((unsigned char)*c) || *c == '_' || *c == '.' || *c == ',' || *c == ' '))
            return;
    dl_strv_split(&head, p->lines[i].lower, ',');
    dl_strv_split(&row, p->lines[i + 1].text, ',');
    for (k = 0; k < head.n && k < row.n; k++) {
        char norm[32];
        if (!strcmp(head.v[k], "name"))
            set_gpu_name(f, w, i + 1, row.v[k], strlen(row.v[k]));
        else if (!strcmp(head.v[k], "driver_version") &&
                 dl_driver_normalize(row.v[k], norm, sizeof norm) &&
                 !f->nvml.driver_version.value) {
            dl_text_set(&f->nvml.driver_version, norm);
            note(w, "nvml.driver_version", i + 1);
        } else if (!strncmp(head.v[k], "compute_cap", 11) &&
                   !gpu(f)->compute_capability.value) {
            dl_text_set(&gpu(f)->compute_capability, row.v[k]);
            note(w, "nvml.gpus[0].compute_capability", i + 1);
        }
    }
    dl_strv_free(&head);
    dl_strv_free(&row);
}

/* Where a list row's package name starts: after collect_env's "[pip3] " and a list's marks. */
static const char *row_start(const char *low)
{
    const char *p = low;
    if (!strncmp(p, "[pip3] ", 7) || !strncmp(p, "[conda] ", 8) || !strncmp(p, "[pip] ", 6))
        p = strchr(p, ' ') + 1;
    while (*p == ' ' || *p == '-' || *p == '*')
        p++;
    return p;
}

/* The version in a package row for `name`: pip list "torchvision 0.15.2", pip freeze and
 * collect_env "[pip3] torchvision==0.15.2", conda list "[conda] cpuonly 2.0 0 pytorch".
 * row: the line from row_start. */
static bool package_row(const char *row, const char *name, char *v, size_t n)
{
    size_t k = strlen(name), i = 0;
    const char *p = row;
    if (strncmp(p, name, k) != 0 || (p[k] != ' ' && p[k] != '=' && p[k] != '\t'))
        return false;
    p += k;
    while (*p == ' ' || *p == '=')
        p++;
    /* a requirement check's row ends the version at its operator: ultralytics' "torch
     * 2.1.0>=1.8.0" */
    while (*p && *p != ' ' && !strchr("<>!~,;", *p) && i + 1 < n)
        v[i++] = *p++;
    v[i] = '\0';
    return i > 0 && isdigit((unsigned char)v[0]);
}

static bool package_listed(dl_facts *f, const char *name)
{
    dl_site_packages *site;
    size_t j;
    if (!f->pythons.count || !python(f)->site_packages.count)
        return false;
    site = &DL_LIST_AT(python(f)->site_packages, dl_site_packages, 0);
    for (j = 0; j < site->packages.count; j++)
        if (!strcmp(DL_LIST_AT(site->packages, dl_py_package, j).name.value, name))
            return true;
    return false;
}

static void add_package(dl_facts *f, const char *name, const char *version, const char *build)
{
    dl_site_packages *site;
    dl_py_package *pkg;
    char both[96];
    installed_torch(f);
    site = &DL_LIST_AT(python(f)->site_packages, dl_site_packages, 0);
    pkg = dl_list_push(&site->packages, sizeof *pkg);
    dl_text_set(&pkg->name, name);
    /* conda's build string says the variant ("1.0 cpu" for pytorch-mutex) */
    snprintf(both, sizeof both, "%s%s%s", version, build && *build ? " " : "", build ? build : "");
    dl_text_set(&pkg->version, both);
    dl_text_set(&pkg->source, "(from the pasted text)");
}

/* Rows of the packages that say which torch variant is there: torchvision and torchaudio
 * (their local tag against torch's), conda's cpuonly / pytorch-mutex / pytorch-cpu; and
 * numpy, whose major release an older torch cannot run with. */
static void variant_packages(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    static const char *const names[] = {"torchvision", "torchaudio", "cpuonly", "pytorch-mutex",
                                        "numpy"};
    char v[64], build[32] = "";
    const char *row = row_start(low);
    size_t k;
    if (*row != 't' && *row != 'c' && *row != 'p' && *row != 'n')
        return; /* none of the names below (the common case, kept cheap for long logs) */
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *rest;
        if (!package_row(row, names[k], v, sizeof v) || package_listed(f, names[k]))
            continue;
        rest = strstr(low, v) + strlen(v);
        if (sscanf(rest, " %31s", build) != 1)
            build[0] = '\0';
        add_package(f, names[k], v, names[k][0] == 't' ? NULL : build);
        note(w, "pythons[0].site_packages[0].packages",
             i);
    }
    if (package_row(row, "pytorch-cpu", v, sizeof v))
        set_installed(f, w, i, v, "none");
}

/* A companion named by a file of its release: conda's package file
 * ("torchvision-0.15.2-cpu_py38h83e0c9b_0", as its solver and transaction list it) or pip's
 * wheel ("torchaudio-2.1.0+cu121-cp310-cp310-linux_x86_64.whl"): the release, with a wheel's
 * local tag, up to the '-' that ends it. */
static void companion_files(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    static const char *const names[] = {"torchvision-", "torchaudio-"};
    size_t k;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *at = strstr(low, names[k]), *v;
        char version[48], name[16];
        size_t n = 0;
        if (!at || (at > low && isalnum((unsigned char)at[-1])))
            continue;
        v = at + strlen(names[k]);
        /* digits and dots, then a local tag's letters once a '+' came ("+rocm6.2"); a dot
         * goes on only into a digit (".dist-info" ends it) */
        version[0] = '\0';
        while (n + 1 < sizeof version &&
               (isdigit((unsigned char)v[n]) || (v[n] == '.' && isdigit((unsigned char)v[n + 1])) ||
                (n && v[n] == '+' && !strchr(version, '+')) ||
                (islower((unsigned char)v[n]) && strchr(version, '+')))) {
            version[n] = v[n];
            version[++n] = '\0';
        }
        if (!n || v[n] != '-' || !looks_like_version(version))
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(strlen(names[k]) - 1), names[k]);
        if (package_listed(f, name))
            continue;
        add_package(f, name, version, NULL);
        note(w, "pythons[0].site_packages[0].packages", i);
    }
}

/* The answer to an expression in a REPL or a print: on the same line after the expression
 * ("torch.__version__ 2.1.0+cpu", "PyTorch version (GPU?): 2.1.0+cu121 (True)") or alone
 * on the next line ("'2.1.0+cpu'", "False", "None"): the answer in v, and the line that
 * shows it (the evidence a reader checks); -1 when none. */
static long answer_to(const dl_paste *p, size_t i, const char *expr, char *v, size_t n)
{
    const char *at = strstr(p->lines[i].lower, expr), *s;
    size_t k = 0, line = i;
    if (!at)
        return -1;
    s = at + strlen(expr);
    while (*s == ')' || *s == ' ' || *s == ':' || *s == '=' || *s == ',' || *s == '\'' ||
           *s == '#' || *s == '>')
        s++;
    if (!*s && i + 1 < p->count && strncmp(p->lines[i + 1].lower, ">>>", 3) != 0)
        s = p->lines[line = i + 1].lower;
    while (*s == ' ' || *s == '\'' || *s == '"')
        s++;
    while (*s && *s != ' ' && *s != '\'' && *s != '"' && *s != ')' && k + 1 < n)
        v[k++] = *s++;
    v[k] = '\0';
    return k > 0 ? (long)line : -1;
}

static void runtime_version(dl_facts *f, dl_text_facts *w, size_t i, const char *v)
{
    dl_python *py = python(f);
    dl_torch_version tv;
    dl_variant var;
    if (py->runtime.version.value || !looks_like_version(v))
        return;
    dl_text_set(&py->runtime.version, v);
    dl_text_set(&py->runtime.status, "imported");
    note(w, "pythons[0].runtime.version", i);
    if (!py->runtime.cuda.value && dl_torch_version_parse(v, &tv)) {
        var = dl_torch_variant(tv.local);
        if (var.kind == DL_VARIANT_CUDA || var.kind == DL_VARIANT_CPU) {
            dl_text_set(&py->runtime.cuda, var.kind == DL_VARIANT_CPU ? "none" : var.version);
            dl_text_set(&py->runtime.hip, "none");
        }
    }
}

/* Up to `max` pieces of s split at any of `seps`, each trimmed of spaces, quotes and
 * brackets; the count (max + 1: more than max). Pieces point into buf. */
static size_t pieces(const char *s, const char *seps, char *buf, size_t n, char **out,
                     size_t max)
{
    size_t count = 0;
    char *at, *next;
    snprintf(buf, n, "%s", s);
    for (at = buf; at; at = next) {
        char *end;
        next = strpbrk(at, seps);
        if (next)
            *next++ = '\0';
        at += strspn(at, " '\"([");
        end = at + strlen(at);
        while (end > at && strchr(" '\")]", end[-1]))
            *--end = '\0';
        if (!*at)
            continue;
        if (count == max)
            return max + 1;
        out[count++] = at;
    }
    return count;
}

/* One print of several checks and its answer on the next line: `print(torch.__version__,
 * torch.cuda.is_available())` then "2.1.0+cu121 False"; a REPL's tuple `>>>
 * torch.__version__, torch.version.cuda` then "('2.1.0+cu121', '12.1')" (nothing else starts
 * with "("). Each expression
 * takes the answer in its place; nothing is read when the counts differ. */
static void printed_together(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    const char *low = p->lines[i].lower, *args = strstr(low, "print("), *close;
    char abuf[512], ebuf[512], vbuf[512], *expr[8], *val[8];
    size_t ne, nv, k;
    if (i + 1 >= p->count)
        return;
    if (args) {
        args += 6;
        close = strrchr(args, ')');
    } else if (!strncmp(low, "torch.", 6) && p->lines[i + 1].lower[0] == '(') {
        args = low; /* the paste reader took the ">>> " prompt for quoting */
        close = NULL;
    } else {
        return;
    }
    if (!strchr(args, ',') || !strstr(args, "torch."))
        return;
    snprintf(abuf, sizeof abuf, "%.*s", (int)(close ? close - args : (long)strlen(args)), args);
    ne = pieces(abuf, ",", ebuf, sizeof ebuf, expr, 8);
    if (ne < 2 || ne > 8)
        return;
    nv = pieces(p->lines[i + 1].lower, " ,\t", vbuf, sizeof vbuf, val, 8);
    if (nv != ne)
        return;
    for (k = 0; k < ne; k++) {
        if (!strcmp(expr[k], "torch.__version__"))
            runtime_version(f, w, i + 1, val[k]);
        else if (!strcmp(expr[k], "torch.version.cuda") && !python(f)->runtime.cuda.value &&
                 (!strcmp(val[k], "none") || looks_like_version(val[k]))) {
            dl_text_set(&python(f)->runtime.cuda, val[k]);
            note(w, "pythons[0].runtime.cuda", i + 1);
        } else if (!strncmp(expr[k], "torch.cuda.is_available(", 24) &&
                   (!strcmp(val[k], "true") || !strcmp(val[k], "false")) &&
                   !python(f)->runtime.cuda_available.known) {
            dl_flag_set(&python(f)->runtime.cuda_available, !strcmp(val[k], "true"));
            note(w, "pythons[0].runtime.cuda_available", i + 1);
        }
    }
}

/* The answer to the call `name(...)` on line i: the rest of that line when it says
 * something after the call ("... get_device_capability(0) (8, 6)"), else the next line;
 * *at is the answer's line. NULL when the call is not on line i. */
static const char *call_answer(const dl_paste *p, size_t i, const char *name, size_t *at_line)
{
    const char *at = strstr(p->lines[i].lower, name), *close;
    if (!at)
        return NULL;
    at += strlen(name);
    if (*at == '(')
        at = (close = strchr(at, ')')) != NULL ? close + 1 : at + strlen(at);
    at += strspn(at, " )#:=->"); /* "# ['sm_50', ...]", "-> (8, 6)" */
    *at_line = i;
    if (*at || i + 1 >= p->count)
        return at;
    *at_line = i + 1;
    return p->lines[i + 1].lower;
}

/* torch.cuda.get_arch_list(): "['sm_50', 'sm_60', ..., 'compute_90']", the architectures
 * the torch that ran was built for. */
static void arch_list_answer(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    dl_python *py;
    size_t line, n, k;
    const char *s = call_answer(p, i, "get_arch_list", &line);
    char *list[32], buf[512];
    if (!s || strncmp(s + strspn(s, "[' \""), "sm_", 3) != 0 ||
        (py = python(f))->runtime.arch_list.known)
        return;
    n = pieces(s, ", ", buf, sizeof buf, list, 32);
    if (n > 32)
        return;
    dl_list_known(&py->runtime.arch_list);
    for (k = 0; k < n; k++)
        if (!strncmp(list[k], "sm_", 3) || !strncmp(list[k], "compute_", 8))
            dl_textlist_add(&py->runtime.arch_list, list[k]);
    note(w, "pythons[0].runtime.arch_list", line);
}

/* torch.cuda.get_device_capability(): "(8, 6)", the GPU's compute capability. */
static void capability_answer(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    size_t line;
    const char *s = call_answer(p, i, "get_device_capability", &line);
    unsigned major, minor;
    char v[16];
    if (!s || gpu(f)->compute_capability.value ||
        sscanf(s, " (%u , %u )", &major, &minor) != 2 || major < 1 || major > 20 || minor > 9)
        return;
    snprintf(v, sizeof v, "%u.%u", major, minor);
    dl_text_set(&gpu(f)->compute_capability, v);
    note(w, "nvml.gpus[0].compute_capability", line);
}

/* A torch release with its build's tag ("1.10.2+cu102", "2.3.0+cpu") at `s`: digits, dots,
 * a "+" and letters or digits; its length, 0 when none. */
static size_t tagged_version_at(const char *s)
{
    size_t n = strspn(s, "0123456789.");
    if (!n || !isdigit((unsigned char)s[0]) || !memchr(s, '.', n) || s[n] != '+' ||
        !isalpha((unsigned char)s[n + 1]))
        return 0;
    return n + 1 + strspn(s + n + 1, "abcdefghijklmnopqrstuvwxyz0123456789.");
}

/* print(torch.__version__) answered in the writer's words a line or two below ('gives me
 * "1.10.2+cu102"', "I get 2.3.0+cpu"): a release with its build's tag, the first such on
 * the next two lines that are not blank; nothing else there counts (a version without a tag
 * may be a requirement or another package's). */
static void tagged_version_below(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    size_t j, seen = 0;
    for (j = i + 1; j < p->count && seen < 2; j++) {
        const char *low = p->lines[j].lower, *c;
        if (!*low)
            continue;
        seen++;
        for (c = low; *c; c++) {
            size_t n;
            char v[48];
            if (c > low && (isalnum((unsigned char)c[-1]) || c[-1] == '.'))
                continue;
            n = tagged_version_at(c);
            if (!n || n >= sizeof v)
                continue;
            memcpy(v, c, n);
            v[n] = '\0';
            runtime_version(f, w, j, v);
            return;
        }
    }
}

/* What a user's own checks printed: torch.__version__, torch.version.cuda,
 * torch.cuda.is_available(), transformers' "PyTorch version (GPU?)". */
static void repl_answers(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    char v[64];
    long at;
    if (!strstr(p->lines[i].lower, "torch"))
        return;
    printed_together(p, i, f, w);
    if ((at = answer_to(p, i, "torch.__version__", v, sizeof v)) >= 0 ||
        (at = answer_to(p, i, "pytorch version (gpu?)", v, sizeof v)) >= 0)
        runtime_version(f, w, (size_t)at, v);
    if (strstr(p->lines[i].lower, "print(torch.__version__)"))
        tagged_version_below(p, i, f, w);
    /* LLaMA-Factory's and transformers' env: "PyTorch version: 2.4.0 (GPU)", "(GPU?): ...
     * (True)": torch sees a GPU; "(False)": it sees none. */
    if (strstr(p->lines[i].lower, "pytorch version") &&
        (strstr(p->lines[i].lower, "(gpu)") || strstr(p->lines[i].lower, "(true)") ||
         strstr(p->lines[i].lower, "(false)")) &&
        !python(f)->runtime.cuda_available.known) {
        dl_flag_set(&python(f)->runtime.cuda_available, !strstr(p->lines[i].lower, "(false)"));
        note(w, "pythons[0].runtime.cuda_available", i);
    }
    ultralytics_device(p->lines[i].lower, f, w, i);
    arch_list_answer(p, i, f, w);
    capability_answer(p, i, f, w);
    if ((at = answer_to(p, i, "torch.version.cuda", v, sizeof v)) >= 0 &&
        !python(f)->runtime.cuda.value && (!strcmp(v, "none") || looks_like_version(v))) {
        dl_text_set(&python(f)->runtime.cuda, v);
        note(w, "pythons[0].runtime.cuda", (size_t)at);
        /* a torch that answered was imported: its answer is the running build's */
        if (!python(f)->runtime.status.value)
            dl_text_set(&python(f)->runtime.status, "imported");
    }
    /* device_count() is 0 exactly where is_available() is False */
    if ((at = answer_to(p, i, "torch.cuda.device_count()", v, sizeof v)) >= 0 &&
        !strcmp(v, "0") && !python(f)->runtime.cuda_available.known) {
        dl_flag_set(&python(f)->runtime.cuda_available, false);
        note(w, "pythons[0].runtime.cuda_available", (size_t)at);
    }
    if ((at = answer_to(p, i, "torch.cuda.is_available()", v, sizeof v)) >= 0 &&
        (!strcmp(v, "true") || !strcmp(v, "false")) &&
        !python(f)->runtime.cuda_available.known) {
        dl_flag_set(&python(f)->runtime.cuda_available, !strcmp(v, "true"));
        note(w, "pythons[0].runtime.cuda_available", (size_t)at);
    }
}

/* The pytorch channel's early build strings write the CUDA without its dot
 * ("py3.7_cuda100_cudnn7_1", "cuda90", "cuda92"): "100" is 10.0, "90" is 9.0. */
static void compact_cuda(char *c, size_t n)
{
    size_t k = strlen(c);
    if (strchr(c, '.') || k < 2 || k > 3 || k + 2 > n)
        return;
    memmove(c + k - 1 + 1, c + k - 1, 2); /* the last digit and the NUL move one on */
    c[k - 1] = '.';
}

/* conda list's row of torch, "pytorch 2.1.0 py3.10_cuda11.8_cudnn8.7.0_0 pytorch": conda's
 * record of it (version with build, and the channel), which says the fix comes from conda.
 * Only a row of exactly a list's shape: a build string (conda's hold '_') and, outside
 * collect_env's "[conda]" rows, a channel; "pypi" there is pip's torch. */
static void conda_torch_row(const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    char v[64], build[64], channel[64], extra[8];
    const char *row = !strncmp(low, "[conda] ", 8) ? low + 8 : low;
    int n = sscanf(row, "pytorch %63s %63s %63s %7s", v, build, channel, extra);
    dl_site_packages *site;
    dl_py_package *pkg;
    char *both;
    if (n < 2 || n > 3 || !strchr(build, '_') || (n == 2 && row == low) ||
        (n == 3 && (!strcmp(channel, "pypi") || channel[0] == '<')) ||
        package_listed(f, "pytorch"))
        return;
    installed_torch(f);
    site = &DL_LIST_AT(python(f)->site_packages, dl_site_packages, 0);
    pkg = dl_list_push(&site->packages, sizeof *pkg);
    dl_text_set(&pkg->name, "pytorch");
    both = dl_fmt("%s (%s)", v, build);
    dl_text_set(&pkg->version, both);
    free(both);
    dl_text_set(&pkg->installer, "conda");
    if (n == 3)
        dl_text_set(&pkg->channel, channel);
    dl_text_set(&pkg->source, "(from the pasted text)");
    note(w, "pythons[0].site_packages[0].packages", i);
}

/* pip show: "Name: torch" then "Version: 2.3.1"; conda list: "pytorch 2.2.2
 * py3.11_cuda12.1_cudnn8.9.2_0 pytorch"; collect_env's "[pip3] torch==1.13.1". */
static void packages(const dl_paste *p, size_t i, dl_facts *f, dl_text_facts *w)
{
    const char *low = p->lines[i].lower;
    char v[64];
    if (!strcmp(low, "name: torch") && i + 1 < p->count &&
        value_after(p->lines[i + 1].lower, "version:", v, sizeof v))
        set_installed(f, w, i + 1, v, NULL);
    /* not xFormers' "PyTorch X with CUDA Y (you have Z)" where a log's prefix took its
     * indentation: X is what it was built for (torch_installed_beside reads Z) */
    if ((!strncmp(low, "pytorch ", 8) || !strncmp(low, "[conda] pytorch ", 16)) &&
        !strstr(low, "(you have ") && value_after(low, "pytorch", v, sizeof v) &&
        looks_like_version(v)) {
        const char *cuda = strstr(low, "_cuda");
        char c[16] = "";
        size_t k = 0;
        if (cuda)
            for (cuda += 5; k + 1 < sizeof c && (isdigit((unsigned char)*cuda) || *cuda == '.');)
                c[k++] = *cuda++;
        c[k] = '\0';
        compact_cuda(c, sizeof c);
        if (!k)
            join_spaced_tag(low, v, sizeof v);
        set_installed(f, w, i, v, k ? c : strstr(low, "cpu_") ? "none" : NULL);
        conda_torch_row(low, f, w, i);
    }
    /* pip's own lines: "Successfully installed torch-1.7.1 ...", "Downloading
     * torch-1.7.1-cp38-cp38-win_amd64.whl" */
    if (strstr(low, " torch-") &&
        (strstr(low, "successfully installed ") || strstr(low, "downloading ")) &&
        value_after(low, " torch-", v, sizeof v)) {
        char *dash = strchr(v, '-');
        if (dash)
            *dash = '\0';
        if (looks_like_version(v))
            set_installed(f, w, i, v, NULL);
    }
    variant_packages(low, f, w, i);
}

/* /etc/os-release, uname -a, conda info's platform, echo $LD_LIBRARY_PATH / %PATH%. */
static void system_lines(const char *l, const char *low, dl_facts *f, dl_text_facts *w, size_t i)
{
    char v[128];
    if (!strncmp(low, "pretty_name=", 12) && !f->os.pretty_name.value) {
        snprintf(v, sizeof v, "%s", l + 12);
        dl_text_set(&f->os.pretty_name, v[0] == '"' ? v + 1 : v);
        if (strchr(f->os.pretty_name.value, '"'))
            *strchr(f->os.pretty_name.value, '"') = '\0';
        dl_text_set(&f->os.family, "linux");
        note(w, "os.pretty_name", i);
    }
    /* /proc/driver/nvidia/version: the kernel module that runs, which nvidia-smi's
     * libraries must match */
    if (!strncmp(low, "nvrm version: nvidia", 20) &&
        value_after(low, "kernel module", v, sizeof v) && looks_like_version(v) &&
        !f->nvidia_kernel.driver_version.value) {
        dl_text_set(&f->nvidia_kernel.proc_version, l);
        dl_text_set(&f->nvidia_kernel.driver_version, v);
        dl_text_set(&f->os.family, "linux");
        note(w, "nvidia_kernel.driver_version", i);
    }
    if (!strncmp(low, "linux ", 6) && strstr(low, " gnu/linux")) {
        dl_strv parts = {0};
        dl_strv_split(&parts, l, ' ');
        if (parts.n > 2 && !f->os.kernel_release.value) {
            dl_text_set(&f->os.kernel_release, parts.v[2]);
            note(w, "os.kernel_release", i);
        }
        dl_strv_free(&parts);
        if (strstr(low, "microsoft-standard")) {
            dl_flag_set(&f->os.wsl.detected, true);
            dl_int_set(&f->os.wsl.version, strstr(low, "wsl2") ? 2 : 1);
            note(w, "os.wsl.detected", i);
        }
    }
    if (strstr(low, "platform : ") && value_after(low, "platform :", v, sizeof v)) {
        const char *family = !strncmp(v, "win", 3) ? "windows" : !strncmp(v, "osx", 3) ? "macos"
                             : !strncmp(v, "linux", 5) ? "linux" : NULL;
        if (family && !f->os.family.value) {
            dl_text_set(&f->os.family, family);
            note(w, "os.family", i);
        }
    }
    /* A line that is a search path: "/a/lib64:/b/lib" or "C:\\a;C:\\b". */
    if (!strchr(l, ' ') && strlen(l) > 8) {
        bool unix_path = l[0] == '/' && strchr(l, ':');
        bool win_path = isalpha((unsigned char)l[0]) && l[1] == ':' && strchr(l, ';');
        const char *name = unix_path && strstr(low, "lib") ? "LD_LIBRARY_PATH"
                           : win_path ? "PATH" : NULL;
        if (name) {
            if (!f->environment.known)
                dl_list_known(&f->environment);
            dl_dict_add(&f->environment, name, l);
            note(w, unix_path ? "environment.LD_LIBRARY_PATH" : "environment.PATH", i);
        }
    }
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The first line holding any of words as a whole word ("mac" but not "machine", "m1" but
 * not "am1"); -1 when none. Each hit that is only part of a word moves the search on by a
 * line, so the text is still read once per word. */
static long first_word_line_of(const dl_paste *p, const char *const *words, size_t n)
{
    long best = -1;
    size_t k;
    for (k = 0; k < n; k++) {
        size_t len = strlen(words[k]);
        long at = dl_paste_find(p, 0, words[k]);
        while (at >= 0 && (best < 0 || at < best)) {
            const char *low = p->lines[at].lower, *hit = low;
            bool whole = false;
            while (!whole && (hit = strstr(hit, words[k])) != NULL) {
                /* a dotted name's part is no word: "ml.m4.xlarge" (an instance type),
                 * "v1.m2.x" */
                whole = (hit == low || (!word_char(hit[-1]) && hit[-1] != '.')) &&
                        !word_char(hit[len]) &&
                        !(hit[len] == '.' && isalpha((unsigned char)hit[len + 1]));
                hit++;
            }
            if (whole) {
                best = at;
                break;
            }
            at = dl_paste_find(p, (size_t)at + 1, words[k]);
        }
    }
    return best;
}

/* A run of host-name characters from s; its length. */
static size_t name_run(const char *s)
{
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '-' || s[n] == '_')
        n++;
    return n;
}

/* "user@host dir % command": the zsh prompt macOS sets in /etc/zshrc ('%n@%m %1~ %#'),
 * optionally after a conda or venv name in parentheses. Linux shells end theirs with
 * "host:~/dir$" or, zsh without a zshrc, "host% ", so this form names a Mac. */
static bool mac_zsh_prompt(const char *low)
{
    size_t n;
    while (*low == ' ')
        low++;
    if (*low == '(') {
        const char *close = strchr(low, ')');
        if (!close || close[1] != ' ')
            return false;
        low = close + 2;
    }
    if ((n = name_run(low)) == 0 || low[n] != '@')
        return false;
    low += n + 1;
    if ((n = name_run(low)) == 0 || low[n] != ' ')
        return false;
    low += n + 1;
    while (*low && *low != ' ')
        low++;
    return low[0] == ' ' && low[1] == '%' && (low[2] == '\0' || low[2] == ' ');
}

static long mac_prompt_line(const dl_paste *p)
{
    /* the NVIDIA driver answering (nvidia-smi's output, the kernel module's NVRM lines),
     * which macOS never has: a Linux host whose zsh was given the Mac's prompt form */
    static const char *const nvidia_driver[] = {"device handle for gpu", "nvidia-smi has failed",
                                                "nvrm:", "driver version:", "| nvidia-smi "};
    long at;
    if (first_line_of(p, nvidia_driver, sizeof nvidia_driver / sizeof nvidia_driver[0]) >= 0)
        return -1;
    for (at = dl_paste_find(p, 0, " %"); at >= 0; at = dl_paste_find(p, (size_t)at + 1, " %"))
        if (mac_zsh_prompt(p->lines[at].lower))
            return at;
    return -1;
}

/* The first line naming a Mac: the words of os_in_words, a whole-word "Mac", "MBP"
 * (MacBook Pro) or "OS X" (not inside "CentOS x86_64"), Apple silicon ("M1 Pro", "on an
 * M2"), or torch's Metal device ('mps'), which exists only on macOS. */
static long mac_line(const dl_paste *p)
{
    /* "[Clang 15.0.0 (clang-1500.3.9.4)]": Apple's clang names its build so in a Python
     * banner; other clangs print their version alone */
    static const char *const macos[] = {"macos", "mac os", "osx", "mac 1", "macbook",
                                        "imac", "apple silicon", "apple m1", "apple m2",
                                        "apple m3", "apple m4", "backends.mps", "'mps'",
                                        "\"mps\"", "device: mps", "(clang-1"};
    /* the chips' names run together too: "m1max", "M2Pro" */
    static const char *const mac_words[] = {"mac",    "mbp",    "os x",   "m1",     "m2",
                                            "m3",     "m4",     "m1max",  "m1pro",  "m2max",
                                            "m2pro",  "m3max",  "m3pro",  "m4max",  "m4pro",
                                            "m1ultra", "m2ultra", "m3ultra"};
    long a = first_line_of(p, macos, sizeof macos / sizeof macos[0]);
    long b = first_word_line_of(p, mac_words, sizeof mac_words / sizeof mac_words[0]);
    long c = mac_prompt_line(p);
    a = a < 0 ? b : b < 0 ? a : a < b ? a : b;
    return a < 0 ? c : c < 0 ? a : a < c ? a : c;
}

/* A mention of WSL that is not a denial ("not WSL", "without WSL", "native Linux, no
 * WSL"): the word right before it decides. */
static bool wsl_denied(const char *low, const char *at)
{
    /* and in Chinese: "没有使用WSL" (did not use), 未使用, 没有, 没用, 不是, 不用 */
    static const char *const denials[] = {
        "not", "no", "without", "outside", "instead of", "rather than", "(not",
        "\xe6\xb2\xa1\xe6\x9c\x89\xe4\xbd\xbf\xe7\x94\xa8", "\xe6\x9c\xaa\xe4\xbd\xbf\xe7\x94\xa8",
        "\xe6\xb2\xa1\xe6\x9c\x89", "\xe6\xb2\xa1\xe7\x94\xa8", "\xe4\xb8\x8d\xe6\x98\xaf",
        "\xe4\xb8\x8d\xe7\x94\xa8"};
    size_t k;
    while (at > low && at[-1] == ' ')
        at--;
    for (k = 0; k < sizeof denials / sizeof denials[0]; k++) {
        size_t n = strlen(denials[k]);
        if ((size_t)(at - low) >= n && !strncmp(at - n, denials[k], n) &&
            (at - n == low || !isalpha((unsigned char)at[-(long)n - 1])))
            return true;
    }
    return false;
}

/* The number nvidia-smi's header prints after a label ("NVIDIA-SMI 545.29.01"), and how
 * many dot-separated parts it has; 0 when the label is absent. */
static int smi_header_number(const char *low, const char *label, char *out, size_t n)
{
    const char *at = strstr(low, label);
    size_t len = 0;
    int parts = 1;
    if (!at)
        return 0;
    at += strlen(label);
    while (*at == ' ' || *at == ':')
        at++;
    while ((isdigit((unsigned char)at[len]) || at[len] == '.') && len + 1 < n) {
        parts += at[len] == '.';
        out[len] = at[len];
        len++;
    }
    out[len] = '\0';
    return len && isdigit((unsigned char)out[0]) ? parts : 0;
}

/* nvidia-smi inside WSL is a Linux build ("NVIDIA-SMI 545.29.01") that reports the Windows
 * host's driver ("Driver Version: 546.01"): a three-part tool beside a two-part driver.
 * On Windows and on Linux (containers too, which mount the host's tool) the two agree. */
static bool smi_header_in_wsl(const char *low)
{
    char tool[32], driver[32];
    return smi_header_number(low, "nvidia-smi ", tool, sizeof tool) == 3 &&
           smi_header_number(low, "driver version", driver, sizeof driver) == 2;
}

long dl_text_wsl_line(const dl_paste *p)
{
    static const char *const words[] = {"wsl", "subsystem for linux", "windows subsystem"};
    size_t k;
    long best = -1, i;
    for (i = dl_paste_find(p, 0, "driver version"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "driver version"))
        if (smi_header_in_wsl(p->lines[i].lower)) {
            best = i;
            break;
        }
    for (k = 0; k < sizeof words / sizeof words[0]; k++) {
        for (i = dl_paste_find(p, 0, words[k]); i >= 0 && (best < 0 || i < best);
             i = dl_paste_find(p, (size_t)i + 1, words[k])) {
            const char *low = p->lines[i].lower, *at;
            bool said = false;
            for (at = strstr(low, words[k]); at && !said; at = strstr(at + 1, words[k]))
                said = !wsl_denied(low, at);
            if (said) {
                best = i;
                break;
            }
        }
    }
    return best;
}

/* a Raspberry Pi runs Raspberry Pi OS (Raspbian), a Linux */
static const char *const linux_words[] = {"ubuntu", "debian", "centos", "fedora", "rhel",
                                          "linux", "raspberry pi", "raspbian"};

/* The line os.family was read from (lower case), or NULL where none was noted. */
static const char *os_family_line(const dl_paste *p, const dl_text_facts *w)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        if (!strcmp(w->where[i].fact, "os.family"))
            return p->lines[w->where[i].line].lower;
    return NULL;
}

/* os.family is Linux only because of a path form (a site-packages folder, a .so), which pip
 * and Python write alike on a Mac: not "GNU/Linux" or an issue form's "OS: Ubuntu". */
static bool linux_from_path_only(const dl_paste *p, const dl_facts *f, const dl_text_facts *w)
{
    const char *low;
    if (!f->os.family.value || strcmp(f->os.family.value, "linux") != 0 ||
        f->os.pretty_name.value || (low = os_family_line(p, w)) == NULL)
        return false;
    return !strstr(low, "gnu/linux") && !strstr(low, "os: ubuntu") && !strstr(low, "os: debian");
}

/* That path-only Linux, where no word names Linux and none says WSL: another OS the text
 * shows may take its place. */
static bool linux_path_alone(const dl_paste *p, const dl_facts *f, const dl_text_facts *w)
{
    return linux_from_path_only(p, f, w) &&
           first_line_of(p, linux_words, sizeof linux_words / sizeof linux_words[0]) < 0 &&
           dl_text_wsl_line(p) < 0;
}

/* A Mac the writer names ("macOS 14", "MacBook Pro", "M2") wins over a Linux read from a path
 * alone. */
static void mac_words_over_path(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    long mac;
    if (!linux_path_alone(p, f, w) || (mac = mac_line(p)) < 0)
        return;
    dl_text_set(&f->os.family, "macos");
    note_again(w, "os.family", (size_t)mac);
}

/* Linux read from a shared object's name alone ("libcudart.so not found", no path of
 * Linux's on that line), in a text whose Python lives on a Windows drive ("D:\\kohya\\venv\\
 * lib\\site-packages\\") or that prints pathlib's WindowsPath (Windows' own, whatever the
 * Linux read rests on): bitsandbytes and others name .so files on Windows too. */
static void windows_paths_over_so_name(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const windows_paths[] = {"\\site-packages\\", "\\scripts\\python",
                                                ":\\users\\", "\\appdata\\",
                                                "windowspath"};
    long win;
    if (!linux_path_alone(p, f, w) ||
        (win = first_line_of(p, windows_paths, sizeof windows_paths / sizeof windows_paths[0])) < 0 ||
        (dl_paste_find(p, 0, "windowspath") < 0 && strchr(os_family_line(p, w), '/')))
        return;
    dl_text_set(&f->os.family, "windows");
    note_again(w, "os.family", (size_t)win);
}

/* An issue form's "OS: Windows 11" is the host's when the text says WSL elsewhere ("WSL2
 * Ubuntu 22.04" a line below): torch runs on Linux there, as os_in_words reads it. */
static void wsl_over_windows_form(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    const char *low;
    long wsl;
    if (!f->os.family.value || strcmp(f->os.family.value, "windows") != 0 ||
        (low = os_family_line(p, w)) == NULL || !strstr(low, "os: windows") ||
        (wsl = dl_text_wsl_line(p)) < 0)
        return;
    dl_text_set(&f->os.family, "linux");
    note_again(w, "os.family", (size_t)wsl);
}

/* Windows in words: "Windows 10", "Windows11", "Win10", and the short name with a space
 * ("Win 11", "win 10 pro") or without its s ("System : Window 11"), read as a whole word
 * only: "darwin 10" is a Mac's kernel, and "winrar", "Winston", "win32" name no OS. */
static long windows_line(const dl_paste *p)
{
    static const char *const windows[] = {"windows", "win10", "win11"};
    static const char *const spaced[] = {"win 10", "win 11", "win 7", "win 8", "window 10",
                                         "window 11"};
    long a = first_line_of(p, windows, sizeof windows / sizeof windows[0]);
    long b = first_word_line_of(p, spaced, sizeof spaced / sizeof spaced[0]);
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

/* A Linux name as a word of its own: not a conda platform's package or folder
 * ("gxx_linux-64", "ld_impl_linux-64", "linux-64/") nor a wheel's tag ("manylinux"), which a
 * Mac's or Windows' conda and pip print as well. */
static bool linux_word_place(const char *low, const char *at, size_t len)
{
    return !(at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
           !(at[len] == '-' && !strncmp(at, "linux", len));
}


/* "Windows 10", "on windows", "OSX", "mac 13.0", "M1 Mac", "Ubuntu 22.04" in prose or an
 * issue form: the first mention. */
static void os_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    long at[3];
    const char *family[3] = {"windows", "macos", "linux"};
    size_t k, best = 3;
    long in_wsl;
    if (f->os.family.value)
        return;
    /* WSL reports name Windows too, but torch runs on Linux there. */
    in_wsl = dl_text_wsl_line(p);
    if (in_wsl >= 0) {
        dl_text_set(&f->os.family, "linux");
        note(w, "os.family", (size_t)in_wsl);
        return;
    }
    at[0] = windows_line(p);
    at[1] = mac_line(p);
    at[2] = first_line_where(p, 0, linux_words, sizeof linux_words / sizeof linux_words[0],
                             linux_word_place);
    /* torchrun's "Redirects are currently not supported in Windows or MacOs" names both and
     * is printed on both: it says neither */
    if (at[0] >= 0 && at[0] == at[1] &&
        strstr(p->lines[at[0]].lower, "not supported in windows or macos"))
        at[0] = at[1] = -1;
    for (k = 0; k < 3; k++)
        if (at[k] >= 0 && (best == 3 || at[k] < at[best]))
            best = k;
    if (best < 3) {
        dl_text_set(&f->os.family, family[best]);
        note(w, "os.family", (size_t)at[best]);
    }
}

/* "Python 3.13", "python version 3.12", "Python: 3.10", "lib/python3.8/": the version. */
static bool python_version_in(const char *low, char *v, size_t n)
{
    const char *at = low;
    while ((at = strstr(at, "python")) != NULL) {
        const char *q = at + 6;
        /* pip's "Ignored the following versions that require a different python version:
         * 2.3.0 Requires-Python >=3.11" lists the package's versions, not the Python's */
        bool other = at - low >= 10 && !strncmp(at - 10, "different ", 10);
        size_t i = 0;
        at = q;
        if (!strncmp(q, " version", 8))
            q += 8;
        while (*q == ' ' || *q == ':' || *q == '=')
            q++;
        /* Python 2's torch-era releases are 2.6 and 2.7 ("2.3.0" after "python" is a
         * package's version) */
        if (other || q[1] != '.' ||
            !((q[0] == '3' && isdigit((unsigned char)q[2])) ||
              (q[0] == '2' && (q[2] == '6' || q[2] == '7'))))
            continue;
        while ((isdigit((unsigned char)*q) || *q == '.') && i + 1 < n)
            v[i++] = *q++;
        while (i && v[i - 1] == '.')
            i--;
        v[i] = '\0';
        return true;
    }
    return false;
}

/* A Windows install folder names its Python: python.org's "C:\Program Files\Python311\",
 * "...\Programs\Python\Python310\", the user site "...\Roaming\Python\Python39\" (or
 * with forward slashes): "python3" right after a separator, then the minor's digits (no dot:
 * Linux's "python3.10" is another form) and a separator. Writes "3.11" into v. */
static bool python_version_in_path(const char *low, char *v, size_t n)
{
    const char *at;
    for (at = strstr(low, "python3"); at; at = strstr(at + 1, "python3")) {
        const char *d = at + 7;
        size_t k = 0;
        if (at == low || (at[-1] != '\\' && at[-1] != '/'))
            continue;
        while (isdigit((unsigned char)d[k]))
            k++;
        if (k >= 1 && k <= 2 && d[0] != '0' && (strchr("\\/-\"' ", d[k]) || !d[k])) {
            snprintf(v, n, "3.%.*s", (int)k, d);
            return true;
        }
    }
    return false;
}

static void python_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    char v[32];
    long at;
    if (f->pythons.count && python(f)->version.value)
        return;
    for (at = dl_paste_find(p, 0, "python"); at >= 0; at = dl_paste_find(p, (size_t)at + 1,
                                                                          "python"))
        if (python_version_in(p->lines[at].lower, v, sizeof v)) {
            python_you_have(p->lines[at].lower, v, sizeof v);
            dl_text_set(&python(f)->version, v);
            note(w, "pythons[0].version", (size_t)at);
            return;
        }
    /* no version in words: the install folder's, where the text shows one */
    for (at = dl_paste_find(p, 0, "python3"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "python3"))
        if (python_version_in_path(p->lines[at].lower, v, sizeof v)) {
            dl_text_set(&python(f)->version, v);
            note(w, "pythons[0].version", (size_t)at);
            return;
        }
}

/* A local tag written apart from its version: "2.8.0 + cu129", "2.1.0 +cpu", "2.7.1
 * (cu128)", "2.5.1 cu124": a CUDA, ROCm or CPU tag only (any other word after it is prose).
 * Writes "2.8.0+cu129" into out. */
static bool spaced_local_tag(const char *after, char *out, size_t n, const char *version,
                             size_t len)
{
    const char *t = after;
    size_t tag = 0;
    bool marked;
    while (*t == ' ')
        t++;
    /* "2.8.0 + cu129", "2.7.1 (cu128)", "2.5.1 cu124"; a bare "cpu" after a version is
     * prose ("2.5.1 CPU inference") */
    marked = *t == '+' || *t == '(';
    if (marked)
        t++;
    else if (t == after)
        return false;
    while (*t == ' ')
        t++;
    if (!(!strncmp(t, "cu", 2) && isdigit((unsigned char)t[2])) &&
        (!marked || strncmp(t, "cpu", 3) != 0) &&
        !(!strncmp(t, "rocm", 4) && isdigit((unsigned char)t[4])))
        return false;
    while (isalnum((unsigned char)t[tag]) || (t[tag] == '.' && isdigit((unsigned char)t[tag + 1])))
        tag++;
    if (len + 1 + tag + 1 > n)
        return false;
    memcpy(out, version, len);
    out[len] = '+';
    memcpy(out + len + 1, t, tag);
    out[len + 1 + tag] = '\0';
    return true;
}

/* The pre-release part of a version at `s` (".dev20251114", "a0", "rc1", ".post1"): its
 * length, at most `room`; 0 when none. */
static size_t prerelease_part(const char *s, size_t room)
{
    static const char *const marks[] = {".dev", "a", "b", "rc", ".post"};
    size_t k, m, len;
    for (k = 0; k < sizeof marks / sizeof marks[0]; k++) {
        m = strlen(marks[k]);
        if (strncmp(s, marks[k], m) != 0 || !isdigit((unsigned char)s[m]))
            continue;
        len = m + strspn(s + m, "0123456789");
        return len <= room ? len : 0;
    }
    return 0;
}

/* "torch 2.3.0+cu121", "PyTorch version 1.5.0", "pytorch 1.13" in a sentence, an issue
 * form's "PyTorch Version (e.g., 1.0): 1.7.1" or "**PyTorch**: 2.0.0": the version after the
 * word, up to its local tag. False unless it looks like a release ("2.3",
 * "1.13.1", "2.8.0+cu128"); "torchvision 0.15" and "torch/" are other things. */
static bool torch_version_in(const char *low, char *out, size_t n)
{
    const char *at;
    for (at = strstr(low, "torch"); at; at = strstr(at + 5, "torch")) {
        const char *v = at + 5, *word = at;
        size_t k = 0, dots = 0;
        /* "pytorch", and "libtorch 2.3.0": the C++ distribution carries torch's release
         * number */
        if (at - low >= 2 && !strncmp(at - 2, "py", 2))
            word = at - 2;
        else if (at - low >= 3 && !strncmp(at - 3, "lib", 3))
            word = at - 3;
        /* a word of its own: "facenet-pytorch 0.1.0", "open_clip_torch 2.20.0" and
         * "gpytorch 1.11" are other packages, whose versions are theirs */
        if (word > low && (isalnum((unsigned char)word[-1]) || word[-1] == '-' || word[-1] == '_'))
            continue;
        /* what an issue form puts between the word and the value: " version", "**",
         * "(e.g., 1.0)", ":" */
        for (;;) {
            if (*v == ' ' || *v == ':' || *v == '*' || *v == '`')
                v++;
            /* "torch：2.0.1": a full-width colon (U+FF1A), as Chinese and Japanese forms
             * write it */
            else if (!strncmp(v, "\xef\xbc\x9a", 3))
                v += 3;
            /* "Torch=1.0" (one '=': "torch==2.0.1" is a requirement, not what is installed) */
            else if (*v == '=' && v[1] != '=' && (v == at + 5 || v[-1] == ' '))
                v++;
            /* "we're using torch == 2.8.0": spaced, a statement of what runs (pip's
             * requirements are written unspaced) */
            else if (!strncmp(v, "== ", 3) && v[-1] == ' ')
                v += 2;
            /* "PyTorch Version is `1.1.0`", "torch is 1.13.1" */
            else if (!strncmp(v, "is ", 3) || !strncmp(v, "is:", 3))
                v += 2;
            /* Ultralytics' banner glues name and release: "Python-3.10 torch-2.1.0+cpu" */
            else if (*v == '-' && v == at + 5 && isdigit((unsigned char)v[1]))
                v++;
            /* a quoted key and its value, as a JSON or dict dump writes them (InvokeAI's
             * "dependencies": {"torch": "2.6.0+cu124"}) */
            else if (at > low && (at[-1] == '"' || at[-1] == '\'') && *v == at[-1])
                v++;
            else if (!strncmp(v, "version", 7))
                v += 7;
            /* Chinese and Japanese forms: "torch版本：2.1.0", "torch版本为 2.1.0",
             * "PyTorchのバージョン: 2.1.0" */
            else if (!strncmp(v, "\xe7\x89\x88\xe6\x9c\xac", 6)) /* 版本 */
                v += 6;
            else if (!strncmp(v, "\xe3\x83\x90\xe3\x83\xbc\xe3\x82\xb8\xe3\x83\xa7\xe3\x83\xb3",
                              15)) /* バージョン */
                v += 15;
            else if (!strncmp(v, "\xe3\x81\xae", 3) || !strncmp(v, "\xe4\xb8\xba", 3) ||
                     !strncmp(v, "\xe6\x98\xaf", 3)) /* の, 为, 是 */
                v += 3;
            /* DJL names its libtorch "PyTorch engine 2.3.0" */
            else if (!strncmp(v, "engine", 6))
                v += 6;
            else if (!strncmp(v, "stable(", 7) && isdigit((unsigned char)v[7]))
                v += 7; /* the install page's channel: "PyTorch Stable(1.5)" */
            else if (*v == '(' && strchr(v, ')'))
                v = strchr(v, ')') + 1;
            else
                break;
        }
        /* "pytorch1.8.0", "Pytorch1.0": glued to the word (not "torch2trt", which has no
         * dot after its digit) */
        if (v == at + 5 && !isdigit((unsigned char)*v))
            continue;
        while ((isdigit((unsigned char)v[k]) || (v[k] == '.' && isdigit((unsigned char)v[k + 1]))) &&
               k + 1 < n)
            dots += v[k++] == '.';
        if (!dots || !isdigit((unsigned char)v[0]))
            continue;
        /* "PyTorch 2.2.*" is a release line asked for (IPEX's "needs to work with PyTorch
         * 2.2.*, but PyTorch 2.1.0+cu121 is found"), not what is installed */
        if (v[k] == '.' && v[k + 1] == '*')
            continue;
        /* NVIDIA's images are tagged by release date ("nvcr.io/nvidia/pytorch:21.02-py3"):
         * no torch release has a major of 10 or more */
        if (atoi(v) >= 10)
            continue;
        /* a pre-release keeps its part: a nightly's ".dev20251114", "2.4.0a0", "2.1.0rc1" */
        k += prerelease_part(v + k, n - 1 - k);
        /* "torch is 3.13 compatible", "torch supports 3.12": the Python it runs under */
        if (!strncmp(v + k, " compatible", 11) || !strncmp(v + k, "-compatible", 11) ||
            !strncmp(v + k, " support", 8))
            continue;
        if (v[k] == '+')
            for (k++; isalnum((unsigned char)v[k]) && k + 1 < n; k++)
                ;
        else if (spaced_local_tag(v + k, out, n, v, k))
            return true;
        if (isalnum((unsigned char)v[k]))
            continue;
        memcpy(out, v, k);
        out[k] = '\0';
        return true;
    }
    return false;
}

/* The installed torch on a line that names one beside another: an extension's "built for
 * PyTorch X (you have Y)", pip's "requires torch==X, but you'll have torch Y",
 * "Requirement already satisfied: torch in DIR (Y)", pyannote's "Model was trained with
 * torch X, yours is Y" and tch's "expects PyTorch X, got Y". */
static bool torch_installed_beside(const char *low, char *out, size_t n)
{
    if (dl_torch_version_after(low, "(you have ", out, n))
        return true;
    /* the "yours is" after "trained with torch": the same line may say it of pyannote.audio
     * first ("trained with pyannote.audio 0.0.1, yours is 3.1.1. ... trained with torch
     * 1.10.0+cu102, yours is 2.0.0+cu118") */
    {
        const char *trained = strstr(low, "trained with torch ");
        if (trained && dl_torch_version_after(trained, "yours is ", out, n))
            return true;
    }
    /* tch's "this tch version expects PyTorch 2.7.0, got 2.2.2" */
    if (strstr(low, "expects pytorch ") && dl_torch_version_after(low, ", got ", out, n))
        return true;
    if (strstr(low, "requirement already satisfied: torch ") ||
        strstr(low, "requirement already satisfied: torch=")) {
        const char *open = strrchr(low, '(');
        return open && dl_torch_version_after(open, "(", out, n);
    }
    return (strstr(low, "but you'll have torch ") || strstr(low, "but you have torch ")) &&
           (dl_torch_version_after(low, "but you'll have torch ", out, n) ||
            dl_torch_version_after(low, "but you have torch ", out, n));
}

/* A line about installing a torch (a command, a requirement, "I installed pytorch 1.3
 * with conda") shows what was asked for, not what runs; what an installer printed it put
 * in does: pip's "Successfully installed torch-2.4.0+cu121", poetry's "Installing torch
 * (2.5.1+cu124)", "Currently installed torch: X", "the installed torch is X". */
static bool asks_for_torch(const char *low)
{
    return (strstr(low, "install") && !strstr(low, "successfully installed") &&
            !strstr(low, "currently installed") && !strstr(low, "installed:") &&
            !strstr(low, "installing torch (") && !dl_ends_with(low, "the installed ") &&
            !dl_ends_with(low, "my installed ") && !dl_ends_with(low, "the installed py") &&
            !dl_ends_with(low, "my installed py")) ||
           strstr(low, "requirement") || strstr(low, "distribution found for") ||
           strstr(low, "conda create") ||
           strstr(low, "mamba create") || strstr(low, "uv add") || strstr(low, "poetry add");
}

/* asks_for_torch on the words before the line's first "torch" ("pip install torch==1.3"
 * asks), and a claim after it ("torch 2.7.1+cpu installed, but the app does not use it"
 * is what the writer believes, not what runs); a question after the version tells it:
 * "pytorch version is: 1.10.1. Should I install another version?". */
static bool asks_before_torch(const char *low)
{
    char head[DL_PASTE_MAX_LINE + 1];
    const char *at = strstr(low, "torch");
    size_t n = at ? (size_t)(at - low) : strlen(low);
    if (n > DL_PASTE_MAX_LINE)
        n = DL_PASTE_MAX_LINE;
    memcpy(head, low, n);
    head[n] = '\0';
    return asks_for_torch(head) || (strstr(low + n, "installed") && asks_for_torch(low + n));
}

/* "PyTorch 2.8" and later "PyTorch: 2.8.0+cu128": the later one says more of the same
 * release. */
static bool more_exact(const char *later, const char *first)
{
    size_t n = strlen(first);
    return strlen(later) > n && !strncmp(later, first, n) &&
           (later[n] == '.' || later[n] == '+');
}

/* torch's version said in words, where nothing else gave it: the first line that names
 * one, or a later one that says the same release more exactly; an installer's own word on
 * the installed torch (pip's "but you have torch 2.0.1") outranks the writer's prose
 * before it ("with torch version 2.0.0"). */
static void torch_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    char v[48], best[48] = "";
    long at, best_at = -1;
    bool best_beside = false;
    if (f->pythons.count && (python(f)->runtime.version.value ||
                             (python(f)->site_packages.count && installed_torch(f)->version.value)))
        return;
    for (at = dl_paste_find(p, 0, "torch"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "torch")) {
        const char *low = p->lines[at].lower;
        /* torch's own message about a release's change ("In PyTorch 2.6, we changed the
         * default value of ... weights_only"): that release, not the one installed */
        if (strstr(low, "we changed"))
            continue;
        bool beside = torch_installed_beside(low, v, sizeof v);
        if (!beside && (asks_before_torch(low) || !torch_version_in(low, v, sizeof v)))
            continue;
        if (best_at < 0 || more_exact(v, best) || (beside && !best_beside)) {
            snprintf(best, sizeof best, "%s", v);
            best_at = at;
            best_beside = beside;
        }
    }
    if (best_at >= 0)
        set_installed(f, w, (size_t)best_at, best, NULL);
}

/* The version after `key` in an install command ("cudatoolkit=10.2", "pytorch==1.6.0",
 * "pytorch-cuda=11.8"), the key a word of its own; false when absent or not a version. */
static bool pinned_after_sep(const char *low, const char *key, const char *sep, char *out,
                             size_t n)
{
    const char *at;
    size_t len = strlen(key), k;
    for (at = strstr(low, key); at; at = strstr(at + 1, key)) {
        const char *v = at + len;
        if ((at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '-' || at[-1] == '_')) ||
            !*v || !strchr(sep, *v))
            continue;
        v += strspn(v, sep);
        k = strspn(v, "0123456789.");
        if (!k || k >= n || !isdigit((unsigned char)v[0]) || !memchr(v, '.', k))
            continue;
        memcpy(out, v, k);
        out[k] = '\0';
        return true;
    }
    return false;
}

static bool pinned_after(const char *low, const char *key, char *out, size_t n)
{
    return pinned_after_sep(low, key, "=", out, n);
}

/* The text already shows the build of the torch it runs (the runtime's answers, or a
 * listed torch's CUDA): an install command says nothing more. */
static bool torch_build_read(dl_facts *f)
{
    return f->pythons.count &&
           (python(f)->runtime.version.value || python(f)->runtime.cuda.value ||
            (python(f)->site_packages.count && installed_torch(f)->cuda.value));
}

/* conda's install command names the build it asks for: "conda install pytorch
 * cudatoolkit=10.2 -c pytorch" (torch 1.x), "pytorch-cuda=11.8" (2.x), "cpuonly". Where
 * nothing shows the installed torch, that command is the build the writer has (a CUDA
 * conda build of that cudatoolkit; conda's own CPU pick has a reading of its own). */
static void conda_install_build(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const cuda_keys[] = {"cudatoolkit", "pytorch-cuda"};
    char cuda[16], version[24];
    long at;
    size_t k;
    if (torch_build_read(f))
        return;
    for (at = dl_paste_find(p, 0, "install"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "install")) {
        const char *low = p->lines[at].lower;
        if ((!strstr(low, "conda install") && !strstr(low, "mamba install")) ||
            !strstr(low, "pytorch") || strstr(low, "cpuonly"))
            continue;
        for (k = 0; k < sizeof cuda_keys / sizeof cuda_keys[0]; k++)
            if (pinned_after(low, cuda_keys[k], cuda, sizeof cuda))
                break;
        if (k == sizeof cuda_keys / sizeof cuda_keys[0])
            continue;
        if (!pinned_after(low, "pytorch", version, sizeof version))
            version[0] = '\0';
        install_asked(f, w, (size_t)at, version, cuda);
        return;
    }
    /* the environment said in words or an environment.yml line: "cudatoolkit=10.2 (conda)",
     * "cudatoolkit 10.0, pytorch 1.3.1 with conda": conda's pytorch is that CUDA's build */
    for (at = dl_paste_find(p, 0, "cudatoolkit"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "cudatoolkit")) {
        const char *low = p->lines[at].lower;
        if (!strstr(low, "conda") && !strstr(low, "environment.yml") &&
            strncmp(low + strspn(low, " "), "- cudatoolkit", 13) != 0)
            continue;
        if (!pinned_after_sep(low, "cudatoolkit", "= ", cuda, sizeof cuda))
            continue;
        if (!pinned_after_sep(low, "pytorch", "= ", version, sizeof version))
            version[0] = '\0';
        install_asked(f, w, (size_t)at, version, cuda);
        return;
    }
}

/* The requirement "torch" as a word of its own in a command (not torchvision, torch-directml
 * nor torch_scatter); the text after the name, NULL when none. */
static const char *torch_requirement(const char *cmd)
{
    const char *at;
    for (at = strstr(cmd, "torch"); at; at = strstr(at + 1, "torch")) {
        char next = at[5];
        if ((at == cmd || at[-1] == ' ' || at[-1] == '"' || at[-1] == '\'') &&
            (next == '\0' || strchr(" =<>~!\"'", next)))
            return at + 5;
    }
    return NULL;
}

/* pip's install command pins the build it asks for: "pip install torch==2.0.1+cu118".
 * Where nothing shows the installed torch, that pin is the build the writer has, as with
 * conda's command. An index alone (--index-url .../whl/cu128) is not read: the thread may
 * be about that install not reaching the Python that runs, or an app's own advice. (A +cpu
 * tag has readings of its own in explain.) */
static void pip_install_build(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    char version[48];
    dl_variant var;
    long at;
    if (torch_build_read(f))
        return;
    for (at = dl_paste_find(p, 0, "pip"); at >= 0; at = dl_paste_find(p, (size_t)at + 1, "pip")) {
        const char *low = p->lines[at].lower, *cmd = strstr(low, "pip install");
        const char *after;
        size_t k = 0;
        if (!cmd)
            cmd = strstr(low, "pip3 install");
        if (!cmd || !(after = torch_requirement(cmd)))
            continue;
        if (after[0] == '=' && after[1] == '=') {
            k = strspn(after + 2, "0123456789.+abcdefghijklmnopqrstuvwxyz");
            if (k >= sizeof version)
                k = 0;
            memcpy(version, after + 2, k);
        }
        version[k] = '\0';
        var = dl_torch_variant(strchr(version, '+') ? strchr(version, '+') + 1 : NULL);
        if (var.kind != DL_VARIANT_CUDA)
            continue;
        install_asked(f, w, (size_t)at, version, var.version);
        return;
    }
}

/* The name so far holds its model number (a word with a digit: "5090", "A6000", "740M"). */
static bool model_seen(const char *name, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (isdigit((unsigned char)name[k]))
            return true;
    return false;
}

/* A word that still belongs to a GPU's name after its model number ("RTX 4070 Ti SUPER
 * Laptop GPU", "RX 6800 XT", "RTX 5000 Ada Generation", "8 GB"), unlike the prose that
 * follows it ("RTX 5090 just to test", "GT 740M CUDA"). */
static bool name_word(const char *low)
{
    static const char *const words[] = {"ti", "super", "laptop", "gpu", "mobile", "max-q",
                                        "xt", "xtx", "ada", "generation", "gb", "m", "le",
                                        "pcie", "sxm", "sxm4", "sxm5", "nvl", "blackwell"};
    size_t k, n = strcspn(low, " \t,|;()[]*`'\".");
    if (n && isdigit((unsigned char)low[0]))
        return true;
    for (k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k]) == n && !strncmp(low, words[k], n))
            return true;
    return false;
}

/* "gt650m", "gt1030" at `at`: GT glued to its model number (with a space, "gt " finds it),
 * a word of its own: after a space or a bracket, digits, maybe "m", then no letter, digit,
 * dot or underscore ("data/gt500/", "val_gt100.json", "gt300k" are no GPU). */
static bool glued_gt_model(const char *low, const char *at)
{
    const char *end = at + 2 + strspn(at + 2, "0123456789");
    if (end == at + 2 || (at > low && !strchr(" \t(", at[-1])))
        return false;
    if (*end == 'm')
        end++;
    return !isalnum((unsigned char)*end) && *end != '.' && *end != '_';
}

/* Where mark names a GPU in the line: at a word's start, and for the short marks (RTX,
 * GTX, GT, MX) with the model number after it ("rtx3060", "GT 1030", "MX450", "RTX A6000"),
 * so that
 * "gt " in prose or "mx" inside a word is not one. NULL when it does not. */
/* Radeon's "XT"/"XTX" after a bare model number ("AMD 6800XT", "AMD 7900 XTX"): Ryzen CPUs
 * written the same way end in "X" ("AMD 5950X", "AMD 7800X3D") and are no GPU. */
static bool amd_xt_suffix(const char *s)
{
    if (*s == ' ')
        s++;
    return s[0] == 'x' && s[1] == 't' && !isalpha((unsigned char)s[2 + (s[2] == 'x')]);
}

static const char *gpu_mark_at(const char *low, const char *mark)
{
    const char *at;
    size_t n = strlen(mark);
    bool short_mark = !strcmp(mark, "rtx") || !strcmp(mark, "gtx") || !strcmp(mark, "gt ") ||
                      !strcmp(mark, "mx") || !strcmp(mark, "gt") || !strcmp(mark, "rx");
    /* "Nvidia 1080ti", "NVIDIA 3090": the maker and a bare four-digit model number, nothing
     * between (three digits are a driver branch: "NVIDIA 535"; a dot makes a version) */
    /* "AMD 6800XT", "Arc B580": AMD's and Intel's maker or line and a bare model number */
    if (!strcmp(mark, "amd ") || !strcmp(mark, "arc ")) {
        for (at = strstr(low, mark); at; at = strstr(at + 1, mark)) {
            const char *model = at + n + (mark[0] == 'a' && mark[1] == 'r' &&
                                          (at[n] == 'a' || at[n] == 'b'));
            size_t digits = strspn(model, "0123456789");
            if ((at == low || !isalnum((unsigned char)at[-1])) && model > at + n - 1 &&
                (mark[1] == 'm' ? digits == 4 && amd_xt_suffix(model + digits)
                                : (model > at + n && digits == 3)) &&
                model[digits] != '.')
                return at;
        }
        return NULL;
    }
    if (!strcmp(mark, "nvidia ")) {
        for (at = strstr(low, mark); at; at = strstr(at + 1, mark))
            if ((at == low || !isalnum((unsigned char)at[-1])) &&
                ((strspn(at + n, "0123456789") == 4 && at[n + 4] != '.') ||
                 /* a data-center card without "Tesla": "NVIDIA P40", "NVIDIA K80" */
                 (strchr("kmpv", at[n]) && at[n] && strspn(at + n + 1, "0123456789") >= 2 &&
                  strspn(at + n + 1, "0123456789") <= 3 &&
                  !isalnum((unsigned char)at[n + 1 + strspn(at + n + 1, "0123456789")]))))
                return at;
        return NULL;
    }
    for (at = strstr(low, mark); at; at = strstr(at + 1, mark)) {
        const char *after = at + n;
        if (at > low && isalnum((unsigned char)at[-1]))
            continue;
        /* a folder's name ("/home/radeon/", "C:\\Users\\iris\\") */
        if (dl_str_in_path(low, at, n))
            continue;
        if (!strcmp(mark, "gt") && !glued_gt_model(low, at))
            continue;
        if (short_mark) {
            if (*after == ' ' && strcmp(mark, "gt ") != 0)
                after++;
            /* "RTX A6000", "RTX PRO 6000", "GTX TITAN X": models without a leading digit */
            /* model numbers have three or four digits: "gt 2" is no GPU */
            if (strspn(after, "0123456789") < 3 &&
                !(mark[0] != 'm' && mark[1] == 't' &&
                  ((isalpha((unsigned char)after[0]) && isdigit((unsigned char)after[1])) ||
                   !strncmp(after, "pro ", 4) || !strncmp(after, "titan", 5))))
                continue;
        } else if (isalnum((unsigned char)mark[n - 1]) && isalnum((unsigned char)*after) &&
                   !isdigit((unsigned char)mark[n - 1])) {
            continue;
        } else if (!strcmp(mark, "gb10") && isdigit((unsigned char)*after)) {
            continue; /* GB10 (DGX Spark) is the whole name; "16 GB1024" is no GPU */
        }
        return at;
    }
    return NULL;
}

/* A word of the sentence around a GPU's name, never part of it ("TITAN Black which is"). */
static bool prose_word(const char *low)
{
    static const char *const words[] = {"which", "is", "with", "and", "on", "in", "for", "but",
                                        "that", "to", "was", "has", "have", "card", "graphics"};
    size_t k, n = strcspn(low, " \t,|;()[]*`'\".");
    for (k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k]) == n && !strncmp(low, words[k], n))
            return true;
    return false;
}

/* A GPU named in prose or an issue form ("**GPU**: RTX 5090", "GPU is GeForce GT 740M |
 * 3.0", "Graphics card: 1 Tesla P100"): from the marketing word to the end of the name. */
/* The GPU at `hit` is the integrated one of a laptop that also has a dedicated GPU ("an
 * integrated Radeon 780M and a dedicated RTX 4070"): "integrated" within the two words
 * before it ("integrated AMD Radeon"), and the text names a dedicated or discrete GPU. The
 * dedicated one is the GPU the question is about. */
static bool integrated_beside_dedicated(const dl_paste *p, const char *low, const char *hit)
{
    static const char *const dedicated[] = {"dedicated", "discrete", "dgpu"};
    const char *from = hit - low > 24 ? hit - 24 : low;
    const char *at = strstr(from, "integrated"), *comma;
    if (!at || at >= hit)
        return false;
    comma = strchr(at, ',');
    if (comma && comma < hit)
        return false;
    return dl_paste_find_any(p, dedicated, sizeof dedicated / sizeof dedicated[0]) >= 0;
}

/* The text shows CUDA running on a device (a kernel launched, memory asked of it): that
 * device is NVIDIA's, whatever other GPU the machine also has. */
static bool cuda_ran_on_device(const dl_paste *p)
{
    static const char *const ran[] = {"no kernel image is available", "cuda out of memory",
                                      "is not compatible with the current pytorch installation",
                                      "invalid device function", "cudnn_status_"};
    return dl_paste_find_any(p, ran, sizeof ran / sizeof ran[0]) >= 0;
}

/* The earliest of n GPU marks in the text (its line and place); false when none. */
/* The mark at hit is the name of a CPU's integrated graphics ("AMD Ryzen 7 5800H with
 * Radeon Graphics", collect_env's CPU block): a laptop's APU, beside which an NVIDIA GPU
 * is common; it names no GPU the text is about. */
static bool apu_graphics(const char *low, const char *hit)
{
    static const char *const cpus[] = {"ryzen", "athlon", "processor", "apu"};
    size_t k;
    if (hit - low < 5 || strncmp(hit - 5, "with ", 5) != 0)
        return false;
    for (k = 0; k < sizeof cpus / sizeof cpus[0]; k++)
        if (strstr(low, cpus[k]) && strstr(low, cpus[k]) < hit)
            return true;
    return false;
}

static bool first_gpu_mark(const dl_paste *p, const char *const *marks, size_t n, long *line,
                           const char **best)
{
    size_t k;
    *line = -1;
    for (k = 0; k < n; k++) {
        long at;
        for (at = dl_paste_find(p, 0, marks[k]); at >= 0 && (*line < 0 || at <= *line);
             at = dl_paste_find(p, (size_t)at + 1, marks[k])) {
            const char *hit = gpu_mark_at(p->lines[at].lower, marks[k]);
            if (!hit || integrated_beside_dedicated(p, p->lines[at].lower, hit) ||
                apu_graphics(p->lines[at].lower, hit))
                continue;
            if (*line < 0 || at < *line || hit < *best) {
                *line = at;
                *best = hit;
            }
            break;
        }
    }
    return *line >= 0;
}

/* The n bytes of a name in lower case into out (cap bytes); false when they do not fit. */
static bool lower_copy(const char *name, size_t n, char *out, size_t cap)
{
    size_t k;
    if (n >= cap)
        return false;
    for (k = 0; k < n; k++)
        out[k] = (char)tolower((unsigned char)name[k]);
    out[n] = '\0';
    return true;
}

/* "RTX 5000 series", "RTX 4000-series": GeForce's 50 and 40 series written in thousands,
 * not the Quadro RTX 5000 or 4000 (Turing) whose names they share. name: the n bytes read
 * as the name; rest: the line after them. */
static bool thousand_series(const char *name, size_t n, const char *rest)
{
    char low[24];
    if (!lower_copy(name, n, low, sizeof low))
        return false;
    /* "RTX 5000-series": the hyphen kept the word in the name */
    if (n > 7 && !strcmp(low + n - 7, "-series")) {
        n -= 7;
        low[n] = '\0';
        rest = " series";
    }
    return n >= 8 && !strstr(low, "quadro") && !strncmp(low + n - 8, "rtx ", 4) &&
           low[n - 4] >= '2' && low[n - 4] <= '5' && !strcmp(low + n - 3, "000") &&
           (!strncmp(rest, " series", 7) || !strncmp(rest, "-series", 7));
}

/* The words before a GPU's name on its line make it a requirement ("only supported on",
 * "only supports", "requires"), not the machine's GPU. */
static bool requirement_before(const char *low, const char *name)
{
    static const char *const says[] = {"only supported on ", "only supports ", "requires ",
                                       "require ", "supported only on "};
    size_t k;
    for (k = 0; k < sizeof says / sizeof says[0]; k++) {
        const char *at = strstr(low, says[k]);
        if (at && at < name && name - (at + strlen(says[k])) < 8)
            return true;
    }
    return false;
}

/* "... or newer" within a few words after a GPU's name: a requirement. */
static bool newer_said_after(const char *s)
{
    static const char *const says[] = {" or newer", " or later", " and newer", " and above",
                                       " or above"};
    size_t k;
    for (k = 0; k < sizeof says / sizeof says[0]; k++) {
        const char *at = strstr(s, says[k]);
        if (at && at - s < 16)
            return true;
    }
    return false;
}

/* The n bytes read as a name are no GPU model: NVIDIA's software ("NVIDIA GeForce settings",
 * "GeForce Experience", "NVIDIA Control Panel", "nvidia drivers") or the kernel's device
 * prefix before a PCI address ("nvidia 0000:0a:00.0: AMD-Vi: ..."). */
static bool software_not_model(const char *name, size_t n)
{
    static const char *const words[] = {"settings", "experience", "control", "driver",
                                        "app", "panel", "0000:"};
    char low[64];
    size_t k;
    if (!lower_copy(name, n, low, sizeof low))
        return false;
    for (k = 0; k < sizeof words / sizeof words[0]; k++) {
        const char *at = strstr(low, words[k]);
        if (at && (at == low || at[-1] == ' '))
            return true;
    }
    return false;
}

/* A data-center card named by its three-character model alone ("K80", "P40", "M40"). */
static bool tesla_short_model(const char *low)
{
    static const char *const models[] = {"k80", "p40", "m40", "k40", "m60"};
    size_t k;
    for (k = 0; k < sizeof models / sizeof models[0]; k++)
        if (!strncmp(low, models[k], 3))
            return true;
    return false;
}

static void gpu_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const nvidia[] = {"geforce", "rtx", "gtx", "quadro", "tesla ", "titan ",
                                         "nvidia a100", "nvidia h100", "nvidia a10", "nvidia l4",
                                         "nvidia t4", "gt ", "gt", "mx", "a100", "h100", "h200",
                                         "v100", "p100", "l40", "a10g", "b200", "k80", "p40", "m40",
                                         "k40", "m60", "h800",
                                         "a800", "h20", "b300", "b100", "gb200", "gb300",
                                         "gb10", "nvidia "};
    /* AMD's "RX 6600", "rx6700xt", "RX 7900 XTX" are named without "Radeon" as often as
     * with it */
    static const char *const others[] = {"radeon", "intel hd", "intel uhd", "intel(r) uhd",
                                         "intel(r) hd", "iris", "intel arc", "rx", "amd ",
                                         "arc "};
    const char *l, *low, *best = NULL, *other_best = NULL;
    char out[64];
    long line = -1, other_line;
    size_t k, i = 0, words = 0;
    if (f->nvml.gpus.count && gpu(f)->name.value)
        return;
    first_gpu_mark(p, nvidia, sizeof nvidia / sizeof nvidia[0], &line, &best);
    /* the text's first GPU, unless CUDA ran on a device: that one is NVIDIA's */
    if (first_gpu_mark(p, others, sizeof others / sizeof others[0], &other_line, &other_best) &&
        (line < 0 || (!cuda_ran_on_device(p) &&
                      (other_line < line || (other_line == line && other_best < best))))) {
        line = other_line;
        best = other_best;
    }
    if (line < 0)
        return;
    l = p->lines[line].text;
    low = p->lines[line].lower;
    if (best - low >= 7 && !strncmp(best - 7, "nvidia ", 7))
        best -= 7;
    for (k = (size_t)(best - low); l[k] && i + 1 < sizeof out; k++) {
        char c = l[k];
        /* "TITAN X (Pascal)": the one name whose parenthesis tells two GPUs apart (the
         * Maxwell one is "GTX TITAN X") */
        if (c == '(' && !strncmp(low + k, "(pascal)", 8) && i + 8 < sizeof out) {
            memcpy(out + i, l + k, 8);
            i += 8;
            break;
        }
        /* a name is ASCII: the prose around it may not be ("1080ti显卡") */
        if (strchr(",|;()[]*`'\"", c) || (c == '.' && !isdigit((unsigned char)l[k + 1])) ||
            (unsigned char)c >= 0x80)
            break;
        if (c == ' ' && (++words >= 5 || prose_word(low + k + 1) ||
                         (model_seen(out, i) && !name_word(low + k + 1))))
            break;
        out[i++] = c;
    }
    /* nvidia-smi's table cuts a long name with "..." ("GeForce GTX 108..." for a 1080 Ti):
     * a number cut there is no model number, so it goes ("Tesla V100-SXM2..." keeps its
     * model) */
    if (i && (!strncmp(l + k, "...", 3) || !strncmp(l + k, "\xe2\x80\xa6", 3))) {
        size_t start = i;
        while (start && isdigit((unsigned char)out[start - 1]))
            start--;
        if (start < i && (!start || out[start - 1] == ' '))
            i = start;
    }
    while (i && out[i - 1] == ' ')
        i--;
    if (thousand_series(out, i, low + k))
        return; /* a line of cards, gpu_series_in_words' to name */
    /* a requirement, not the writer's GPU: "bf16 is only supported on A100+ GPUs", "requires
     * an A100 or newer" */
    if ((i && out[i - 1] == '+') || requirement_before(low, best) || newer_said_after(low + k) ||
        software_not_model(out, i))
        return;
    /* "K80 Tesla", "on a K80", "the P40's": the model alone, too short to stand as a name;
     * the mark it was found by is a Tesla model, so that is its family */
    if (i == 4 && tesla_short_model(best) && out[3] == 's')
        i = 3; /* "the P40s" */
    if (i == 3 && model_seen(out, i) && tesla_short_model(best)) {
        /* written in lower case it is as often a page or a part ("p40 of the manual") */
        if (strncmp(best, "k80", 3) != 0 && islower((unsigned char)l[best - low]))
            return;
        char named[16];
        snprintf(named, sizeof named, "Tesla %.3s", out);
        set_gpu_name(f, w, (size_t)line, named, strlen(named));
    }
    if (i > 3)
        set_gpu_name(f, w, (size_t)line, out, i);
}

/* A driver release at `s`: three digits, a dot, two digits, maybe a third part ("470.82",
 * "535.104.05"); not a CUDA or torch version (those have one or two digits first). */
static size_t driver_number_at(const char *s)
{
    size_t n = 0;
    while (n < 3 && isdigit((unsigned char)s[n]))
        n++;
    if (n != 3 || s[3] != '.' || !isdigit((unsigned char)s[4]) || !isdigit((unsigned char)s[5]))
        return 0;
    n = 6;
    while (isdigit((unsigned char)s[n]) || (s[n] == '.' && isdigit((unsigned char)s[n + 1])))
        n++;
    return n;
}

/* A driver branch at `s`: three digits from 300 on that are neither a release ("470.82")
 * nor a quantity ("driver uses 500 MB", "550W"): "driver 470", "nvidia-driver-535-server",
 * "drivers 390 and". 0 when it is not one. */
static int driver_branch_at(const char *s)
{
    static const char *const units[] = {"mb", "mib", "gb", "gib", "kb", "w", "watt", "mhz",
                                        "ghz", "ms", "sec", "min", "fps", "times", "x", "%"};
    const char *after = s + 3;
    size_t k;
    if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) ||
        !isdigit((unsigned char)s[2]) || s[0] < '3' || isdigit((unsigned char)*after) ||
        /* "390.48" is a release; "drivers 390." ends a sentence */
        ((*after == '.' || *after == ',') && isdigit((unsigned char)after[1])))
        return 0;
    after += strspn(after, " ");
    for (k = 0; k < sizeof units / sizeof units[0]; k++) {
        size_t n = strlen(units[k]);
        if (!strncmp(after, units[k], n) && !isalpha((unsigned char)after[n]))
            return 0;
    }
    if (isalpha((unsigned char)s[3]))
        return 0;
    return (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
}

/* "NNN driver" with a word before the number that names a driver, not a count ("the 470
 * driver", "nvidia 390 driver", "my 535 driver"; not "uses 500 driver threads"). */
static bool branch_named_before(const char *low, const char *at)
{
    static const char *const before[] = {"the ", "nvidia ", "nvidia-", "my ", "a ", "an ",
                                         "proprietary ", "latest ", "older ", "newer "};
    size_t k, n;
    if (at - low < 4 || at[-1] != ' ')
        return false;
    for (k = 0; k < sizeof before / sizeof before[0]; k++) {
        n = strlen(before[k]);
        if (at - 4 - low >= (long)n && !strncmp(at - 4 - n, before[k], n) &&
            (at - 4 - n == low || !isalpha((unsigned char)at[-5 - (long)n])))
            return true;
    }
    return false;
}

/* The driver's branch alone, when no release was read: right after the word ("driver
 * 470", "drivers 390", "driver version 535", "nvidia-driver-550"), not further, so that a
 * GPU or a count in the same sentence is not taken for it. */
static void driver_branch_in_words(const dl_paste *p, const dl_facts *f, dl_text_facts *w)
{
    static const char *const words[] = {"driver"};
    long i;
    if (f->nvml.driver_version.value || f->nvml.cuda_driver_version.known)
        return;
    for (i = first_line_from(p, 0, words, 1); i >= 0 && !w->driver_branch;
         i = first_line_from(p, (size_t)i + 1, words, 1)) {
        const char *at = strstr(p->lines[i].lower, "driver"), *c = at + 6;
        if (*c == 's')
            c++;
        c += strspn(c, " :-=");
        if (!strncmp(c, "version", 7))
            c += 7 + strspn(c + 7, " :-=");
        else if (!strncmp(c, "is ", 3))
            c += 3;
        /* NVIDIA's own name for a branch: "drivers R570", "driver r535" */
        if (*c == 'r' && isdigit((unsigned char)c[1]))
            c++;
        if (c[-1] != '.' && !isdigit((unsigned char)c[-1]))
            w->driver_branch = driver_branch_at(c);
        /* the branch before the word: "the 470 driver", "nvidia 390 driver" */
        if (!w->driver_branch && branch_named_before(p->lines[i].lower, at))
            w->driver_branch = driver_branch_at(at - 4);
        w->driver_branch_line = (size_t)i;
    }
}

/* A driver release followed by "or later" / "or newer" / "+" is a minimum someone needs,
 * not the one installed. */
static bool driver_is_minimum(const char *after)
{
    return *after == '+' || !strncmp(after, " or later", 9) || !strncmp(after, " or newer", 9) ||
           !strncmp(after, " or above", 9) || !strncmp(after, " or higher", 10);
}

/* The first driver release (driver_number_at) that starts a word from `from` on, within
 * `limit` bytes of `at` (or the line's end): its length, its start in *start; 0 when none. */
static size_t driver_number_from(const char *from, const char *at, long limit,
                                 const char **start)
{
    const char *c;
    size_t n;
    for (c = from; *c && c - at < limit; c++)
        if ((c[-1] < '0' || c[-1] > '9') && c[-1] != '.' && (n = driver_number_at(c)) != 0) {
            *start = c;
            return n;
        }
    return 0;
}

/* The driver said in words: "my driver is 470.82", "nvidia driver vision of my machine is
 * 381.22", "驱动版本 470.82", "драйвер 535.104": the first driver-shaped number within a
 * few words after the word, when no structured line gave the driver. */
static void driver_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    /* driver, 驱动, драйвер and Драйвер (the lower-casing is ASCII's), ドライバ, 드라이버,
     * and the European words: controlador, treiber, pilote, sürücü */
    static const char *const words[] = {"driver", "\xe9\xa9\xb1\xe5\x8a\xa8",
                                        "\xd0\xb4\xd1\x80\xd0\xb0\xd0\xb9\xd0\xb2\xd0\xb5\xd1\x80",
                                        "\xd0\x94\xd1\x80\xd0\xb0\xd0\xb9\xd0\xb2\xd0\xb5\xd1\x80",
                                        "\xe3\x83\x89\xe3\x83\xa9\xe3\x82\xa4\xe3\x83\x90",
                                        "\xeb\x93\x9c\xeb\x9d\xbc\xec\x9d\xb4\xeb\xb2\x84",
                                        "controlador", "treiber", "pilote",
                                        "s\xc3\xbc" "r\xc3\xbc" "c\xc3\xbc"};
    const size_t n_words = sizeof words / sizeof words[0];
    size_t k;
    long i;
    /* only the lines that hold one of the words, found through the whole text's search */
    for (i = first_line_from(p, 0, words, n_words); i >= 0 && !f->nvml.driver_version.value;
         i = first_line_from(p, (size_t)i + 1, words, n_words))
        for (k = 0; k < n_words; k++) {
            const char *at = strstr(p->lines[i].lower, words[k]), *c = NULL;
            char v[32], norm[32];
            size_t n = 0;
            if (!at)
                continue;
            n = driver_number_from(at + strlen(words[k]), at, 48, &c);
            /* "built for NVIDIA Driver Release 535.86 or later, but version 520.56.06 was
             * detected": the first is what the container needs, the next what is there */
            if (n && driver_is_minimum(c + n))
                n = driver_number_from(c + n, at, 96, &c);
            if (!n || n >= sizeof v)
                continue;
            memcpy(v, c, n);
            v[n] = '\0';
            if (dl_driver_normalize(v, norm, sizeof norm)) {
                dl_text_set(&f->nvml.driver_version, norm);
                note(w, "nvml.driver_version", (size_t)i);
                break;
            }
        }
}

/* uv's hint names the machine's platform before the list of those torch has wheels for:
 * "You're on Linux (`manylinux_2_27_x86_64`), but torch only has wheels for the following
 * platforms: ..., `macosx_11_0_arm64`". The list names no OS of this machine, the hint does. */
static bool platform_list_line(const char *low)
{
    return strstr(low, "wheels for the following platform") || strstr(low, "wheels are available for");
}

/* uv's list of wheel tags in backticks, running on from its hint's line ("`macosx_11_0_arm64`,
 * `win_amd64`"), or a requirement's environment marker ("platform_machine == 'aarch64'"):
 * platforms named, not this machine's. */
static bool tag_list_or_marker(const char *low)
{
    return strstr(low, "platform_machine") || strstr(low, "`manylinux") ||
           strstr(low, "`macosx_") || strstr(low, "`win_");
}

static void uv_current_platform(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const struct { const char *says, *family; } on[] = {
        {"you're on linux (", "linux"}, {"you're on macos (", "macos"},
        {"you're on windows (", "windows"}};
    long i = dl_paste_find(p, 0, "you're on ");
    size_t k;
    if (i < 0)
        return;
    for (k = 0; k < sizeof on / sizeof on[0]; k++) {
        const char *at = strstr(p->lines[i].lower, on[k].says), *tag_end;
        if (!at)
            continue;
        if (!f->os.family.value) {
            dl_text_set(&f->os.family, on[k].family);
            note(w, "os.family", (size_t)i);
        }
        tag_end = strchr(at, ')');
        if (!f->os.arch.value && tag_end) {
            const char *tag = at + strlen(on[k].says);
            bool x86 = false, arm = false;
            for (; tag < tag_end; tag++) {
                x86 = x86 || !strncmp(tag, "x86_64", 6) || !strncmp(tag, "amd64", 5);
                arm = arm || !strncmp(tag, "aarch64", 7) || !strncmp(tag, "arm64", 5);
            }
            if (x86 || arm) {
                dl_text_set(&f->os.arch, x86 ? "x86_64" : on[k].family[0] == 'm' ? "arm64" : "aarch64");
                note(w, "os.arch", (size_t)i);
            }
        }
        return;
    }
}

/* A GitHub Actions macOS runner label at `at` ("macos-13", "macos-14-large"): the runner's
 * architecture, NULL where there is no label there. Up to macos-13 the plain labels are
 * Intel machines, from macos-14 Apple silicon; "-large" and "-intel" are Intel, "-xlarge"
 * Apple silicon. */
static const char *runner_label_arch(const char *at)
{
    const char *after = at + 6;
    long release;
    if (!isdigit((unsigned char)*after))
        return NULL;
    release = strtol(after, (char **)&after, 10);
    if (*after == '.' && release == 10) /* macos-10.15 */
        for (after++; isdigit((unsigned char)*after); after++)
            ;
    if (!strncmp(after, "-xlarge", 7))
        return "arm64";
    if (!strncmp(after, "-large", 6) || !strncmp(after, "-intel", 6))
        return "x86_64";
    if (isalnum((unsigned char)*after) || *after == '.' || *after == '-')
        return NULL;
    return release <= 13 ? "x86_64" : "arm64";
}

/* The architecture of the macOS runner a CI text names (GitHub Actions' runs-on labels). */
static void arch_of_runner(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    long i;
    if (f->os.arch.value)
        return;
    for (i = dl_paste_find(p, 0, "macos-"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "macos-")) {
        const char *low = p->lines[i].lower, *at, *arch;
        for (at = strstr(low, "macos-"); at; at = strstr(at + 6, "macos-"))
            if ((at == low || !isalnum((unsigned char)at[-1])) &&
                (arch = runner_label_arch(at)) != NULL) {
                dl_text_set(&f->os.arch, arch);
                note(w, "os.arch", (size_t)i);
                return;
            }
    }
}

/* The machine's architecture where the text names it: uname's or a wheel tag's "aarch64",
 * a Jetson's "-tegra" kernel or its name, an "arm64" word (Apple silicon, Windows on Arm); left
 * unknown otherwise (the planner then assumes x86_64 and says so). */
static void arch_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const arm[] = {"aarch64", "-tegra", "arm64", "jetson", "nvidia thor",
                                      "nvidia orin", "agx orin", "agx thor", "xavier"};
    long i;
    size_t k;
    if (f->os.arch.value)
        return;
    for (k = 0; k < sizeof arm / sizeof arm[0]; k++)
        for (i = dl_paste_find(p, 0, arm[k]); i >= 0; i = dl_paste_find(p, (size_t)i + 1, arm[k])) {
            const char *low = p->lines[i].lower, *at = strstr(low, arm[k]);
            /* a word of its own: not "x86_64-to-arm64" in a cross compiler's name; not in
             * a list of the platforms a package has wheels for */
            if ((at > low && isalnum((unsigned char)at[-1]) && k != 1) || platform_list_line(low) ||
                (i > 0 && platform_list_line(p->lines[i - 1].lower)) || tag_list_or_marker(low))
                continue;
            /* Jetson boards (Xavier, Orin, Thor) are arm64 Linux machines */
            dl_text_set(&f->os.arch, k == 2 ? "arm64" : "aarch64");
            note(w, "os.arch", (size_t)i);
            return;
        }
}

/* Intel's integrated GPU named loosely: "Intel i5 Graphics card", "Intel(R) Iris(R) Xe
 * Graphics", "intel R lris R Xe Graphics": "Intel", then "Graphics" at most four words on,
 * with no other maker, no conjunction and no punctuation between (so "Intel i7 and NVIDIA
 * graphics" or "Intel CPU, RTX graphics" is not one). The name runs from "Intel" to
 * "Graphics". */
static bool intel_graphics_at(const char *low, size_t *from, size_t *to)
{
    static const char *const stops[] = {"nvidia", "geforce", "rtx", "gtx", "amd", "radeon",
                                        "and", "with", "or", "plus", "cpu", "processor"};
    const char *at;
    for (at = strstr(low, "intel"); at; at = strstr(at + 5, "intel")) {
        const char *q = at + 5;
        size_t words = 0;
        if (at > low && isalnum((unsigned char)at[-1]))
            continue;
        while (words <= 4) {
            size_t n, k;
            bool stop = false;
            while (*q == ' ' || *q == '(' || *q == ')')
                q++;
            n = strcspn(q, " ,;|/+.()");
            if (!n)
                break;
            if (n == 8 && !strncmp(q, "graphics", 8)) {
                *from = (size_t)(at - low);
                *to = (size_t)(q + 8 - low);
                return true;
            }
            for (k = 0; k < sizeof stops / sizeof stops[0]; k++)
                stop |= strlen(stops[k]) == n && !strncmp(q, stops[k], n);
            if (stop)
                break;
            q += n;
            words++;
        }
    }
    return false;
}

static void intel_graphics_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    long at;
    if (f->nvml.gpus.count && gpu(f)->name.value)
        return;
    for (at = dl_paste_find(p, 0, "graphics"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "graphics")) {
        size_t from, to;
        if (intel_graphics_at(p->lines[at].lower, &from, &to)) {
            set_gpu_name(f, w, (size_t)at, p->lines[at].text + from, to - from);
            return;
        }
    }
}

/* An NVIDIA GPU named only by its architecture ("Blackwell GPUs are not supported", "my
 * Pascal card", "Kepler architecture"): the word, a word of its own, with "gpu", "card",
 * "architecture", "series" or "generation" right after it. The name stays the word; explain
 * derives the architecture's capabilities from it (derive.c). "Turing test", "pascal units"
 * are no GPU. */
static void gpu_architecture_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const archs[] = {"kepler", "maxwell", "pascal", "volta", "turing",
                                        "ampere", "ada lovelace", "hopper", "blackwell"};
    static const char *const after[] = {"gpu", "card", "architecture", "arch ", "series",
                                        "generation", "graphics"};
    size_t k, j;
    if (f->nvml.gpus.count && gpu(f)->name.value)
        return;
    for (k = 0; k < sizeof archs / sizeof archs[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, archs[k]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, archs[k])) {
            const char *low = p->lines[i].lower, *at = strstr(low, archs[k]), *next;
            size_t n = strlen(archs[k]);
            if ((at > low && isalnum((unsigned char)at[-1])) || isalnum((unsigned char)at[n]))
                continue;
            next = at + n;
            while (*next == ' ' || *next == '-')
                next++;
            /* a requirement ("only supports Ampere GPUs or newer", transformers' "You need
             * torch>=1.10, using Ampere GPU with cuda>=11.0"), not the writer's GPU */
            if (requirement_before(low, at) || newer_said_after(next) ||
                (strstr(low, "you need ") && strstr(low, "you need ") < at))
                continue;
            for (j = 0; j < sizeof after / sizeof after[0]; j++)
                if (!strncmp(next, after[j], strlen(after[j]))) {
                    /* the name is the first word: "Ada Lovelace" is the table's "Ada" */
                    set_gpu_name(f, w, (size_t)i, p->lines[i].text + (at - low),
                                 strcspn(archs[k], " "));
                    return;
                }
        }
    }
}

/* Whether the GeForce series at `at` (two digits: "50") is written as a whole line of
 * cards: "RTX 50 series", "rtx50-series", "RTX 50xx", "RTX 5000 series", or with no family
 * word "50 series GPUs" / "50-series card". */
static bool series_named_at(const char *low, const char *at)
{
    static const char *const family_after[] = {" series", "-series", "xx", "x0", "00 series",
                                               "00-series"};
    static const char *const bare_after[] = {" series gpu", "-series gpu", " series card",
                                             "-series card", " series graphics",
                                             "-series graphics", " series nvidia"};
    const char *before = at, *end = at + 2;
    size_t k;
    bool family;
    if (isalnum((unsigned char)end[0]) && strncmp(end, "xx", 2) && strncmp(end, "x0", 2) &&
        strncmp(end, "00", 2))
        return false;
    while (before > low && before[-1] == ' ')
        before--;
    family = before - low >= 3 &&
             (!strncmp(before - 3, "rtx", 3) || !strncmp(before - 3, "gtx", 3)) &&
             (before - low == 3 || !isalnum((unsigned char)before[-4]));
    if (!family && at > low && isalnum((unsigned char)at[-1]))
        return false;
    for (k = 0; family && k < sizeof family_after / sizeof family_after[0]; k++)
        if (!strncmp(end, family_after[k], strlen(family_after[k])) &&
            !isalnum((unsigned char)end[strlen(family_after[k])]))
            return true;
    for (k = 0; !family && k < sizeof bare_after / sizeof bare_after[0]; k++)
        if (!strncmp(end, bare_after[k], strlen(bare_after[k])))
            return true;
    return false;
}

/* The first line holding `mark` where the series is named as a line of cards; -1 if none. */
static long series_line(const dl_paste *p, const char *series, const char *mark)
{
    long i;
    for (i = dl_paste_find(p, 0, mark); i >= 0; i = dl_paste_find(p, (size_t)i + 1, mark)) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, series); at; at = strstr(at + 1, series))
            if (series_named_at(low, at))
                return i;
    }
    return -1;
}

/* A GeForce named only by its series ("the RTX 50 series is not supported", "my 50-series
 * card"): named "RTX 50 series" (GTX for 10 and 16), whose span explain takes from every
 * model of that series in the name table (know/geforce_series.c). */
static void gpu_series_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const series[] = {"10", "16", "20", "30", "40", "50"};
    static const char *const marks[] = {"series", "0xx", "0x0"};
    size_t k, m;
    if (f->nvml.gpus.count && gpu(f)->name.value)
        return;
    for (k = 0; k < sizeof series / sizeof series[0]; k++)
        for (m = 0; m < sizeof marks / sizeof marks[0]; m++) {
            long i = series_line(p, series[k], marks[m]);
            char name[24];
            if (i < 0)
                continue;
            snprintf(name, sizeof name, "%s %s series", k < 2 ? "GTX" : "RTX", series[k]);
            set_gpu_name(f, w, (size_t)i, name, strlen(name));
            return;
        }
}

/* A line that is only a GeForce model number with its suffix ("2070super", "1080 Ti",
 * "4070 SUPER"), as issue forms get filled in: the four digits of a GeForce series (10, 16,
 * 20, 30, 40, 50 and a tier 50-90) and "ti" or "super" after them, nothing else on the
 * line. Without the suffix a bare number is too often something else. */
static void gpu_model_alone(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const series[] = {"10", "16", "20", "30", "40", "50"};
    size_t i, k;
    if (f->nvml.gpus.count && gpu(f)->name.value)
        return;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *at;
        bool known = false;
        while (*low == ' ' || *low == '\t')
            low++;
        if (!isdigit((unsigned char)low[0]) || strspn(low, "0123456789") != 4 ||
            low[2] < '5' || low[3] != '0')
            continue;
        for (k = 0; k < sizeof series / sizeof series[0]; k++)
            known |= !strncmp(low, series[k], 2);
        at = low + 4;
        if (*at == ' ')
            at++;
        if (!known || (strncmp(at, "ti", 2) != 0 && strncmp(at, "super", 5) != 0))
            continue;
        at += at[0] == 't' ? 2 : 5;
        while (*at == ' ' || *at == '\t' || *at == '\r')
            at++;
        if (*at == '\0') {
            set_gpu_name(f, w, i, p->lines[i].text + (low - p->lines[i].lower), strlen(low));
            return;
        }
    }
}

/* Four digits of a GeForce model at `d`: a series (10, 16, 20, 30, 40, 50) and a tier 50-90
 * ("1080", "3060", "4090"), nothing else a digit around them. */
static bool geforce_digits(const char *d)
{
    static const char *const series[] = {"10", "16", "20", "30", "40", "50"};
    size_t k;
    /* four digits and no fifth, tested in order so that no byte past the line's end is
     * read */
    if (!isdigit((unsigned char)d[0]) || !isdigit((unsigned char)d[1]) ||
        !isdigit((unsigned char)d[2]) || !isdigit((unsigned char)d[3]) ||
        isdigit((unsigned char)d[4]) || d[2] < '5' || d[3] != '0')
        return false;
    for (k = 0; k < sizeof series / sizeof series[0]; k++)
        if (!strncmp(d, series[k], 2))
            return true;
    return false;
}

/* The word before `at` is an article, a possessive or a count ("on a 1080", "my 3090",
 * "two 2080"): the number is a thing the writer has, not a year, a size or a resolution. */
static bool owned_word_before(const char *low, const char *at)
{
    /* "a dedicated 4070" beside an integrated GPU: the laptop's discrete GPU */
    static const char *const words[] = {"a", "an", "my", "our", "his", "her", "their", "one",
                                        "two", "single", "dual", "dedicated", "discrete"};
    const char *end = at, *start;
    size_t k;
    if (end == low || end[-1] != ' ')
        return false;
    end--;
    for (start = end; start > low && isalpha((unsigned char)start[-1]); start--)
        ;
    if (start > low && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
        return false;
    for (k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k]) == (size_t)(end - start) && !strncmp(start, words[k], (size_t)(end - start)))
            return true;
    return false;
}

/* The Chinese word for a graphics card right after a model number ("有4080显卡": "has a 4080
 * graphics card"), where no article comes before the number to say it is owned. */
static bool card_word_after(const char *after)
{
    static const char card[] = "\xe6\x98\xbe\xe5\x8d\xa1"; /* 显卡 */
    if (*after == ' ')
        after++;
    return !strncmp(after, card, sizeof card - 1);
}

/* The first digit from s, or its end; the first byte past a run of digits. Plain loops: a
 * long log has many short runs, and strspn's setup costs more than the run. */
static const char *next_digit(const char *s)
{
    while (*s && (unsigned char)(*s - '0') > 9)
        s++;
    return s;
}

static const char *past_digits(const char *s)
{
    while ((unsigned char)(*s - '0') <= 9)
        s++;
    return s;
}

/* A GeForce model number in prose without its marketing word first: "maybe 1080Ti", "a 2080
 * Ti", "on a 1080 (not sure)", "1050gtx ti": four digits of a series with "ti", "super" or
 * the brand after them (glued or not), or after an article or possessive with no letter or unit after them ("a 1080p
 * video", "1920x1080" are no GPU). Named with the series' word (GTX for 10 and 16, RTX
 * after), as the name tables know them. */
static void geforce_number_in_prose(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    size_t i;
    if (f->nvml.gpus.count && gpu(f)->name.value)
        return;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *at, *run;
        /* only a run of digits can start a model number, and only at its first digit (a
         * digit before it is alphanumeric): jump from run to run */
        for (run = next_digit(low); *run; run = next_digit(past_digits(run))) {
            const char *after = run + 4, *suffix = "", *brand;
            char name[32];
            bool branded;
            at = run;
            if (!geforce_digits(at) ||
                (at > low && (isalnum((unsigned char)at[-1]) || strchr("_.x*/-", at[-1]))))
                continue;
            /* the brand written after the number ("1050gtx ti", "3060 rtx") */
            brand = after + (*after == ' ');
            branded = (!strncmp(brand, "gtx", 3) || !strncmp(brand, "rtx", 3)) &&
                      !isalpha((unsigned char)brand[3]);
            if (branded)
                after = brand + 3;
            if (*after == ' ' && (!strncmp(after + 1, "ti", 2) || !strncmp(after + 1, "super", 5)))
                after++;
            if (!strncmp(after, "ti", 2) && !isalnum((unsigned char)after[2]))
                suffix = " Ti";
            else if (!strncmp(after, "super", 5) && !isalnum((unsigned char)after[5]))
                suffix = " SUPER";
            /* a laptop's "1070m" (the same chip as the desktop card's name reads), where it
             * starts the line or a title or follows "my"/"a", on a line about the GPU
             * ("at 1080m altitude" is a height) */
            else if (after[0] == 'm' && !isalnum((unsigned char)after[1]) &&
                     (at == low || owned_word_before(low, at) ||
                      (at - low >= 2 && at[-1] == ' ' && at[-2] == '#')) &&
                     (strstr(low, "cuda") || strstr(low, "gpu") || strstr(low, "nvidia") ||
                      strstr(low, "geforce") || strstr(low, "laptop")))
                suffix = "";
            else if (!branded && !card_word_after(after) &&
                     (isalnum((unsigned char)at[4]) ||
                      (at[4] == '.' && isalnum((unsigned char)at[5])) ||
                      !owned_word_before(low, at) || !strncmp(at + 4, " x", 2) ||
                      !strncmp(at + 4, " mb", 3) || !strncmp(at + 4, " px", 3)))
                continue;
            snprintf(name, sizeof name, "%s %.4s%s",
                     !strncmp(at, "10", 2) || !strncmp(at, "16", 2) ? "GTX" : "RTX", at, suffix);
            set_gpu_name(f, w, i, name, strlen(name));
            return;
        }
    }
}

/* The official image's tag names its torch and CUDA: "pytorch/pytorch:1.4-cuda10.1-cudnn7-
 * runtime", "pytorch/pytorch:2.1.0-cuda11.8-cudnn8-devel". Read when nothing else gave the
 * torch: the image is what runs. */
static void torch_image_tag(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char mark[] = "pytorch/pytorch:";
    long i;
    for (i = dl_paste_find(p, 0, mark); i >= 0; i = dl_paste_find(p, (size_t)i + 1, mark)) {
        const char *low = strstr(p->lines[i].lower, mark) + sizeof mark - 1, *c;
        size_t nv = strspn(low, "0123456789."), nc;
        char version[24], cuda[16];
        if (!nv || nv >= sizeof version || strncmp(low + nv, "-cuda", 5) != 0)
            continue;
        c = low + nv + 5;
        nc = strspn(c, "0123456789.");
        if (!nc || nc >= sizeof cuda || !strchr(c, '.') || strchr(c, '.') > c + nc)
            continue;
        memcpy(version, low, nv);
        version[nv] = '\0';
        memcpy(cuda, c, nc);
        cuda[nc] = '\0';
        set_installed(f, w, (size_t)i, version, cuda);
        return;
    }
}

/* Linux hosts a Windows machine runs torch in: a Windows driver number or shell in a text
 * that names one says nothing of the OS torch runs on. */
static const char *const linux_hosts[] = {"docker", "container", "wsl", "kubernetes",
                                          "podman"};

static bool names_linux_host(const dl_paste *p)
{
    return first_line_of(p, linux_hosts, sizeof linux_hosts / sizeof linux_hosts[0]) >= 0;
}

/* Windows' own shells named where the writer ran something ("says in the CMD", "typed it in
 * cmd", "a Command Prompt", "PowerShell", "cmd.exe"), when nothing else named the OS: the
 * shell is where the app or Python ran. "cmd" alone is any command (and a Dockerfile's
 * CMD), so only "in (the) cmd" as a word counts; a container named keeps it out, its
 * Linux torch being run from a Windows shell. */
static bool windows_shell_at(const char *low, const char *at, size_t len)
{
    /* a code fence's language ("```powershell") is an issue template's, whatever the OS
     * (ComfyUI's "Logs" section has it for Linux users too) */
    return (at == low || (!isalnum((unsigned char)at[-1]) && at[-1] != '`')) &&
           !isalnum((unsigned char)at[len]) && at[len] != '_';
}

static void os_from_windows_shell(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    /* the Anaconda Prompt and Miniforge Prompt are Start-menu shortcuts of the Windows
     * installers (Linux and macOS have no such prompt) */
    static const char *const shells[] = {"in the cmd", "in cmd", "cmd window", "cmd.exe",
                                         "command prompt", "powershell", "anaconda prompt",
                                         "miniforge prompt", "miniconda prompt"};
    size_t k;
    long best = -1;
    if (f->os.family.value || names_linux_host(p))
        return;
    for (k = 0; k < sizeof shells / sizeof shells[0]; k++) {
        long i = dl_paste_find_where(p, 0, shells[k], windows_shell_at);
        if (i >= 0 && (best < 0 || i < best))
            best = i;
    }
    if (best < 0)
        return;
    dl_text_set(&f->os.family, "windows");
    note(w, "os.family", (size_t)best);
}

/* A Windows program or script run by name ("webui-user.bat", "nvidia-smi.exe",
 * "install.ps1"): the name's end, after a name's own character. */
static bool windows_program_at(const char *low, const char *at, size_t len)
{
    return at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '-' || at[-1] == '_') &&
           !isalnum((unsigned char)at[len]) && at[len] != '-' && at[len] != '_';
}

/* A relative Windows path given as an option's value ("hyp=data\hyps\hyp.yaml",
 * "project=runs\train" in YOLO's argument dump): '=' then a name, a backslash and two
 * letters. A string's escape ("\n") follows no '=' and name this way. */
static long relative_backslash_path_line(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "\\"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "\\")) {
        const char *low = p->lines[i].lower, *at;
        for (at = strchr(low, '='); at; at = strchr(at + 1, '=')) {
            size_t name = strspn(at + 1, "abcdefghijklmnopqrstuvwxyz0123456789_.-");
            if (name >= 2 && at[1 + name] == '\\' && isalpha((unsigned char)at[2 + name]) &&
                isalpha((unsigned char)at[3 + name]))
                return i;
        }
    }
    return -1;
}

/* The prompt of cmd's `pause`, which ends every .bat launcher's log (A1111, Forge,
 * Fooocus, portable builds), in Windows' own languages; and a Rust error's Windows code
 * ("os error 1455", the paging file): -1 when none. */
static long windows_pause_line(const dl_paste *p)
{
    static const char *const prompts[] = {
        "press any key to continue", "drücken sie eine beliebige taste",
        "appuyez sur une touche pour continuer", "presione una tecla para continuar",
        "pressione qualquer tecla para continuar", "premere un tasto per continuare",
        "请按任意键继续", "請按任意鍵繼續", "続行するには何かキーを押してください",
        "계속하려면 아무 키나 누르십시오", "продолжения нажмите любую клавишу",
        "os error 1455"};
    return first_line_of(p, prompts, sizeof prompts / sizeof prompts[0]);
}

/* The last signs, when nothing else named the OS: a Windows script or program named, or a
 * tool only Linux has (apt, the kernel's modprobe/lsmod/dkms). The
 * first line with either wins; a container or WSL named keeps Windows' names out (a Windows
 * host's launcher starts a Linux torch there). */
static void os_from_tools(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    static const char *const programs[] = {".bat", ".exe", ".ps1"};
    /* not "Colab": "it runs in Colab" is as often said of where it works, the failing
     * machine being the writer's own (Colab's /content/ path is read above) */
    static const char *const linux_tools[] = {"apt install", "apt-get", "modprobe", "lsmod",
                                              "dkms"};
    size_t k;
    long win = -1, lin;
    if (f->os.family.value)
        return;
    for (k = 0; k < sizeof programs / sizeof programs[0] && !names_linux_host(p); k++) {
        long i = dl_paste_find_where(p, 0, programs[k], windows_program_at);
        if (i >= 0 && (win < 0 || i < win))
            win = i;
    }
    if (!names_linux_host(p)) {
        long i = relative_backslash_path_line(p), pause = windows_pause_line(p);
        if (i >= 0 && (win < 0 || i < win))
            win = i;
        if (pause >= 0 && (win < 0 || pause < win))
            win = pause;
    }
    lin = first_word_line_of(p, linux_tools, sizeof linux_tools / sizeof linux_tools[0]);
    /* both on one line ("setup.bat for Windows, apt-get for Linux"): the text cannot say */
    if ((win < 0 && lin < 0) || win == lin)
        return;
    dl_text_set(&f->os.family, lin < 0 || (win >= 0 && win < lin) ? "windows" : "linux");
    note(w, "os.family", (size_t)(lin < 0 || (win >= 0 && win < lin) ? win : lin));
}

/* A driver number in NVIDIA's Windows form names Windows when nothing else named the OS.
 * A Linux driver's major is its branch ("535.54.03", "470.82.01"), and every branch since
 * R410 but R418 is a multiple of 5 (data/cuda_driver.csv: 410, 418, 440, 450 ... 595); the
 * Windows drivers of a branch count on from it ("536.25", "551.61", "572.61" in the same
 * table). A major from 410 on that is neither is a Windows driver; a multiple of 5 is
 * either's (Windows has 545.84, 560.94). WSL and containers on a Windows host show the
 * Windows driver to a Linux torch, so a text that names a container says nothing here
 * (WSL is read before, as Linux). */
static void os_from_windows_driver(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    const char *v = f->nvml.driver_version.value;
    long major;
    size_t i;
    if (f->os.family.value || !v || !isdigit((unsigned char)v[0]) || names_linux_host(p))
        return;
    major = strtol(v, NULL, 10);
    if (major < 410 || major % 5 == 0 || major == 418)
        return;
    dl_text_set(&f->os.family, "windows");
    for (i = 0; i < w->n; i++)
        if (!strcmp(w->where[i].fact, "nvml.driver_version")) {
            note(w, "os.family", w->where[i].line);
            if (w->n && !strcmp(w->where[w->n - 1].fact, "os.family"))
                w->where[w->n - 1].inferred_from = "nvml.driver_version";
            break;
        }
}

/* The interpreter of an app's bundled Python or a venv the text's paths lie in, for a
 * Python the text shows only as "python": the one a fix's pip must run (a plain python on
 * a ComfyUI portable is the system's, or none). */
static void env_python(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    char path[512];
    size_t line;
    dl_python *py;
    if ((f->pythons.count &&
         ((python(f)->path.value && strcmp(python(f)->path.value, "python")) ||
          python(f)->prefix.value)) ||
        !dl_text_env_python(p, path, sizeof path, &line))
        return;
    py = python(f);
    dl_text_set(&py->path, path);
    note(w, "pythons[0].path", line);
}

/* The conda environment the text's paths lie in, for a Python the text already shows: the
 * prefix a conda fix acts on. */
static void conda_env_prefix(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    char prefix[512];
    size_t line;
    dl_python *py;
    if (!f->pythons.count || python(f)->prefix.value ||
        !dl_text_conda_prefix(p, prefix, sizeof prefix, &line))
        return;
    py = python(f);
    dl_text_set(&py->prefix, prefix);
    note(w, "pythons[0].prefix", line);
    if (!py->kind.value) {
        dl_text_set(&py->kind, "conda");
        note(w, "pythons[0].kind", line);
    }
}

/* ---- facts said in words, read only where the text has no structured line for them ---- */
static void facts_in_words(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    uv_current_platform(p, f, w);
    mac_words_over_path(p, f, w);
    windows_paths_over_so_name(p, f, w);
    wsl_over_windows_form(p, f, w);
    os_in_words(p, f, w);
    python_in_words(p, f, w);
    bits_by_check(p, f, w);
    bits_in_words(p, f, w);
    torch_image_tag(p, f, w);
    torch_in_words(p, f, w);
    conda_install_build(p, f, w);
    pip_install_build(p, f, w);
    gpu_in_words(p, f, w);
    gpu_model_alone(p, f, w);
    driver_in_words(p, f, w);
    driver_branch_in_words(p, f, w);
    arch_in_words(p, f, w);
    arch_of_runner(p, f, w);
    intel_graphics_in_words(p, f, w);
    geforce_number_in_prose(p, f, w);
    gpu_series_in_words(p, f, w);
    gpu_architecture_in_words(p, f, w);
    os_from_windows_shell(p, f, w);
    os_from_tools(p, f, w);
    os_from_windows_driver(p, f, w);
}

void dl_text_facts_read(const dl_paste *p, dl_facts *f, dl_text_facts *w)
{
    /* every test of driver() needs one of these in the line, and every test of
     * torch_build() one of those: the other lines of a long log are skipped */
    static const char *const driver_marks[] = {"driver", "cuda version", "found version"};
    static const char *const torch_marks[] = {"torch", "is cuda available", "cuda available:"};
    /* and so on for the readers below: each fires only on a line holding one of its marks
     * (python_version's and interpreter_build's tests all name "python", " bit (" or "[msc
     * v."; capability's a "capabilit" or "supported architectures:"; the GPU lists' "gpu 0:
     * ", "product name" or "(uuid: gpu-"; repl_answers' "torch"). A new test adds its mark
     * here. */
    static const char *const python_marks[] = {"python", " bit (", "[msc v."};
    static const char *const capability_marks[] = {"capabilit", "supported architectures:",
                                                   "supports hardware cc", "was built for:"};
    static const char *const toolkit_marks[] = {"cuda compilation tools, release"};
    static const char *const gpu_list_marks[] = {"gpu 0: ", "product name", "(uuid: gpu-"};
    static const char *const smi_csv_marks[] = {"driver_version"};
    size_t i;
    dl_paste_cursor os_lines, driver_lines, torch_lines, python_lines, capability_lines,
        toolkit_lines, gpu_list_lines, smi_csv_lines;
    memset(w, 0, sizeof *w);
    DL_PASTE_CURSOR_INIT(&os_lines, p, line_os_marks);
    DL_PASTE_CURSOR_INIT(&driver_lines, p, driver_marks);
    DL_PASTE_CURSOR_INIT(&torch_lines, p, torch_marks);
    DL_PASTE_CURSOR_INIT(&python_lines, p, python_marks);
    DL_PASTE_CURSOR_INIT(&capability_lines, p, capability_marks);
    DL_PASTE_CURSOR_INIT(&toolkit_lines, p, toolkit_marks);
    DL_PASTE_CURSOR_INIT(&gpu_list_lines, p, gpu_list_marks);
    DL_PASTE_CURSOR_INIT(&smi_csv_lines, p, smi_csv_marks);
    for (i = 0; i < p->count; i++) {
        const char *l = p->lines[i].text, *low = p->lines[i].lower;
        bool torch_line = dl_paste_cursor_at(&torch_lines, i);
        bool python_line = dl_paste_cursor_at(&python_lines, i);
        bool gpu_list_line = dl_paste_cursor_at(&gpu_list_lines, i);
        os_family(l, low, f, w, i, &os_lines);
        if (dl_paste_cursor_at(&driver_lines, i))
            driver(l, low, f, w, i);
        if (torch_line)
            torch_build(l, low, f, w, i);
        if (python_line) {
            python_version(l, low, f, w, i);
            interpreter_build(low, f, w, i);
        }
        if (dl_paste_cursor_at(&capability_lines, i))
            capability(l, low, f, w, i);
        if (dl_paste_cursor_at(&toolkit_lines, i))
            toolkit(l, low, f, w, i);
        if (gpu_list_line) {
            gpu_model(p, l, low, f, w, i);
            smi_names(l, low, f, w, i);
        }
        smi_row(l, low, f, w, i);
        if (dl_paste_cursor_at(&smi_csv_lines, i))
            smi_csv(p, i, f, w);
        packages(p, i, f, w);
        if (torch_line) {
            repl_answers(p, i, f, w);
            companion_files(low, f, w, i);
        }
        system_lines(l, low, f, w, i);
    }
    facts_in_words(p, f, w);
    conda_env_prefix(p, f, w);
    env_python(p, f, w);
}
