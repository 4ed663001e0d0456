/* extension_mismatch: a package with native code for torch (xformers, flash-attn,
 * bitsandbytes, triton, apex, deepspeed's prebuilt ops, vllm, mmcv) was built for another
 * torch or CUDA than the one installed. What it was built for is read from what its
 * installer left: an exact torch pin, its version's local tag (+cu118, +pt21cu118), its
 * wheel's name (direct_url.json), the CUDA in its libraries' names, its own version file.
 * torchvision and torchaudio are torchvision_mismatch's.
 * The runtime probe's import of each package (pythons[0].runtime.extensions) weighs in:
 * an import that fails or warns the way a build for another torch does is a failure even
 * where the metadata said nothing, and names what the message says it was built for; a
 * metadata mismatch whose import went cleanly stays a warning (it may fall back quietly). */
#include "base/str.h"
#include "facts/query.h"
#include "rules/ext_runtime.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A CUDA version: major 12, minor 1; minor -1 when only the major is said ("cu12"); major
 * -1 for no CUDA (a CPU build), ROCM for a ROCm build, 0 when unknown. */
#define ROCM (-2)
typedef struct cuda_ver {
    int major, minor;
} cuda_ver;

/* What a package was built for; NULL / major 0 where nothing says. */
typedef struct built_for {
    char *torch;              /* "2.1.0", "2.3" */
    const char *torch_from;   /* the fact that says it */
    char *torch_said;         /* its words */
    cuda_ver cuda;            /* major -1: a CPU build */
    bool cuda_exact;          /* the minor must match too (the package's own variant tag) */
    const char *cuda_from;
    char *cuda_said;
} built_for;

static void built_for_free(built_for *b)
{
    free(b->torch);
    free(b->torch_said);
    free(b->cuda_said);
}

/* ---- reading tokens ------------------------------------------------------------------------ */

/* strstr, ASCII case-insensitively: wheel names write cu121 and CU121 alike. */
static const char *find_ci(const char *text, const char *needle)
{
    size_t n = strlen(needle), i;
    for (; *text; text++) {
        for (i = 0; i < n && text[i] &&
                    tolower((unsigned char)text[i]) == tolower((unsigned char)needle[i]);
             i++)
            ;
        if (i == n)
            return text;
    }
    return NULL;
}

/* "121" -> 12.1, "118" -> 11.8, "12" -> 12 (major only), "92" -> 9.2. */
static bool cuda_from_digits(const char *d, size_t n, cuda_ver *v)
{
    if (n == 3 || (n == 2 && d[0] != '1')) {
        v->major = n == 3 ? (d[0] - '0') * 10 + (d[1] - '0') : d[0] - '0';
        v->minor = d[n - 1] - '0';
        return true;
    }
    if (n == 2) {
        v->major = (d[0] - '0') * 10 + (d[1] - '0');
        v->minor = -1;
        return true;
    }
    return false;
}

/* "12.1" -> 12.1; false for "none", "0.0" or no number. */
static bool cuda_from_text(const char *t, cuda_ver *v)
{
    char *end;
    long major = t ? strtol(t, &end, 10) : 0;
    if (!t || major <= 0 || *end != '.')
        return false;
    v->major = (int)major;
    v->minor = (int)strtol(end + 1, NULL, 10);
    return true;
}

static bool letter_before(const char *text, const char *at)
{
    return at > text && isalpha((unsigned char)at[-1]);
}

/* The first "cuXYZ" (not inside a word: "+cu121", "/cu118/", "pt21cu118") in text. */
static bool find_cuda_tag(const char *text, cuda_ver *v, char **said)
{
    const char *p;
    for (p = text; (p = find_ci(p, "cu")) != NULL; p += 2) {
        size_t n = strspn(p + 2, "0123456789");
        if (!letter_before(text, p) && !isalpha((unsigned char)p[2 + n]) &&
            cuda_from_digits(p + 2, n, v)) {
            *said = dl_strndup(p, n + 2);
            return true;
        }
    }
    return false;
}

/* "torch2.3", "torch2.1.0" (flash-attn's wheel names, mmcv's index paths) or "pt21"
 * (apex / detectron-style tags). Caller frees. */
static char *find_torch_tag(const char *text, char **said)
{
    const char *p;
    for (p = text; (p = find_ci(p, "torch")) != NULL; p += 5) {
        size_t n = strspn(p + 5, "0123456789.");
        while (n && p[5 + n - 1] == '.')
            n--;
        if (n && isdigit((unsigned char)p[5]) && strchr(p + 5, '.') &&
            (size_t)(strchr(p + 5, '.') - (p + 5)) < n) {
            *said = dl_strndup(p, n + 5);
            return dl_strndup(p + 5, n);
        }
    }
    for (p = text; (p = find_ci(p, "pt")) != NULL; p += 2) {
        size_t n = strspn(p + 2, "0123456789");
        if (!letter_before(text, p) && n >= 2 && n <= 3) {
            *said = dl_strndup(p, n + 2);
            return dl_fmt("%c.%.*s", p[2], (int)(n - 1), p + 3);
        }
    }
    return NULL;
}

/* "torch (==2.1.0)", "torch==2.1.0+cu118" -> "2.1.0+cu118"; NULL for ranges. */
static char *exact_pin(const char *req)
{
    const char *eq = req ? strstr(req, "==") : NULL;
    size_t n;
    if (!eq || eq[2] == '=')
        return NULL;
    eq += 2;
    n = strspn(eq, "0123456789.+abcdefghijklmnopqrstuvwxyz");
    return n && eq[n] != '*' ? dl_strndup(eq, n) : NULL;
}

/* deepspeed's "torch_info = {'version': '2.1', ..., 'cuda_version': '12.1', ...}". */
static char *dict_value(const char *text, const char *key)
{
    const char *p = text ? strstr(text, key) : NULL;
    size_t n;
    if (!p)
        return NULL;
    p += strlen(key);
    p += strspn(p, "'\": ");
    n = strcspn(p, "'\",}");
    return n ? dl_strndup(p, n) : NULL;
}

/* pip records a local wheel's path as a URL ("%2Bcu121" for "+cu121"). Caller frees. */
static char *unescape_url(const char *url)
{
    char *out = dl_strdup(url), *w = out;
    const char *r;
    for (r = url; *r; r++) {
        if (r[0] == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2])) {
            char hex[3] = {r[1], r[2], '\0'};
            *w++ = (char)strtol(hex, NULL, 16);
            r += 2;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return out;
}

/* ---- what one package was built for --------------------------------------------------------- */

static void take_torch(built_for *b, char *torch, const char *from, char *said)
{
    if (b->torch || !torch) {
        free(torch);
        free(said);
        return;
    }
    b->torch = torch;
    b->torch_from = from;
    b->torch_said = said;
}

static void take_cuda(built_for *b, cuda_ver v, bool exact, const char *from, char *said)
{
    if (b->cuda.major) {
        free(said);
        return;
    }
    b->cuda = v;
    b->cuda_exact = exact;
    b->cuda_from = from;
    b->cuda_said = said;
}

/* "torch2.1 in https://.../flash_attn-2.5.8+cu122torch2.1...whl": a URL's token with the
 * URL, a version's as it is. Takes token. */
static char *in_text(char *token, const char *text, bool version)
{
    char *both;
    if (!token || version)
        return token;
    both = dl_fmt("%s in %s", token, text);
    free(token);
    return both;
}

/* The tags in a version's local part or a wheel's URL: cuXYZ / cpu, torchX.Y / ptXY. */
static void read_tags(built_for *b, const char *text, const char *from, bool exact, bool url)
{
    cuda_ver v = {0, 0};
    char *said = NULL, *torch;
    if (!text)
        return;
    torch = find_torch_tag(text, &said);
    /* a wheel's name says the release it was built with (torch2.1.0), and it serves that
     * release's patch versions alike: only major.minor counts */
    if (torch && url && strchr(torch, '.') && strchr(strchr(torch, '.') + 1, '.'))
        *strchr(strchr(torch, '.') + 1, '.') = '\0';
    take_torch(b, torch, from, in_text(said, text, !url));
    said = NULL;
    if (find_cuda_tag(text, &v, &said))
        take_cuda(b, v, exact, from, in_text(said, text, !url));
    else if (find_ci(text, "+cpu") || find_ci(text, "/cpu/"))
        take_cuda(b, (cuda_ver){-1, -1}, true, from, dl_strdup("cpu"));
}

/* bitsandbytes before 0.45 loads libbitsandbytes_cudaXYZ for torch.version.cuda, and
 * fails when no library has that CUDA; read only when none does (b->cuda stays unset
 * when one fits). */
static void read_bitsandbytes(built_for *b, const dl_py_package *p, cuda_ver torch_cuda)
{
    size_t i;
    dl_buf all = {0};
    cuda_ver v = {0, 0};
    bool any = false;
    for (i = 0; p->libraries.known && i < p->libraries.count; i++) {
        const char *name = DL_LIST_AT(p->libraries, char *, i);
        const char *at = strstr(name, "libbitsandbytes_cuda");
        cuda_ver one;
        if (!at)
            continue;
        at += strlen("libbitsandbytes_cuda");
        if (!cuda_from_digits(at, strspn(at, "0123456789"), &one))
            continue;
        if (one.major == torch_cuda.major && one.minor == torch_cuda.minor) {
            free(dl_buf_take(&all));
            return;
        }
        if (!any || one.major > v.major || (one.major == v.major && one.minor > v.minor))
            v = one;
        any = true;
        dl_buf_printf(&all, "%s%s", all.len ? ", " : "", name);
    }
    if (any)
        take_cuda(b, v, true, "libraries", dl_buf_take(&all));
    else
        free(dl_buf_take(&all));
}

static void read_built_for(built_for *b, const dl_py_package *p, cuda_ver torch_cuda)
{
    const char *plus = p->version.value ? strchr(p->version.value, '+') : NULL;
    char *v;
    cuda_ver c = {0, 0};
    bool flash = p->name.value && dl_contains_ci(p->name.value, "flash");
    memset(b, 0, sizeof *b);
    take_torch(b, exact_pin(p->requires_torch.value), "requires_torch",
               p->requires_torch.value ? dl_strdup(p->requires_torch.value) : NULL);
    /* flash-attn's wheels name a CUDA major's build (cu122 serves every CUDA 12); other
     * packages' variant tags (+cu118) name the torch index they match exactly */
    if (plus)
        read_tags(b, plus, "version", !flash, false);
    if (p->direct_url.value) {
        char *url = unescape_url(p->direct_url.value);
        read_tags(b, url, "direct_url", false, true);
        free(url);
    }
    if (p->built_with.value) {
        take_torch(b, dict_value(p->built_with.value, "'version'"), "built_with",
                   dl_strdup(p->built_with.value));
        v = dict_value(p->built_with.value, "'cuda_version'");
        if (v && cuda_from_text(v, &c))
            take_cuda(b, c, false, "built_with", dl_fmt("CUDA %s", v));
        free(v);
    }
    if (p->name.value && dl_contains_ci(p->name.value, "bitsandbytes") && torch_cuda.major > 0)
        read_bitsandbytes(b, p, torch_cuda);
}

/* ---- comparing ------------------------------------------------------------------------------- */

/* "2.3" fits "2.3.1+cu121"; "2.1.0" does not fit "2.1.2": the built-for version's own
 * precision decides. */
static bool torch_fits(const char *built, const char *installed)
{
    size_t n = strcspn(built, "+");
    return strncmp(built, installed, n) == 0 &&
           (installed[n] == '\0' || installed[n] == '.' || installed[n] == '+') &&
           (built[n] == '\0' || strcmp(built, installed) == 0 || !strchr(installed, '+') ||
            strcmp(built + n, strchr(installed, '+')) == 0);
}

static bool cuda_fits(const built_for *b, cuda_ver torch_cuda)
{
    if (!b->cuda.major || !torch_cuda.major)
        return true; /* nothing says, or torch's CUDA is unknown */
    if (b->cuda.major < 0)
        return true;  /* a CPU build of the extension runs beside any torch variant */
    if (torch_cuda.major < 0)
        return false; /* its CUDA kernels need a CUDA torch */
    if (b->cuda.major != torch_cuda.major)
        return false;
    return !b->cuda_exact || b->cuda.minor < 0 || b->cuda.minor == torch_cuda.minor;
}

static char *cuda_words(cuda_ver v)
{
    if (v.major == ROCM)
        return dl_strdup("a ROCm build");
    if (v.major < 0)
        return dl_strdup("a CPU build");
    if (v.minor < 0)
        return dl_fmt("CUDA %d", v.major);
    return dl_fmt("CUDA %d.%d", v.major, v.minor);
}

/* ---- the fix -------------------------------------------------------------------------------- */

static char *release_of(const char *version)
{
    return dl_strndup(version, strcspn(version, "+"));
}

static void fix_for(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                    const char *name, const char *torch_version, const char *variant,
                    const char *needs)
{
    dl_shell sh = dl_fix_shell(in->facts);
    char *python = dl_fix_python(in->facts, py), *torch_pin = dl_fmt("torch==%s", torch_version);
    char *q_torch = dl_shell_quote(sh, torch_pin), *q_name = dl_shell_quote(sh, name);
    const dl_py_package *torch = dl_q_package(py, "torch");
    char *triton_pin = torch && dl_contains_ci(name, "triton")
                           ? exact_pin(torch->requires_triton.value)
                           : NULL;
    if (triton_pin) {
        /* torch pins the triton it was built with */
        char *spec = dl_fmt("%s==%s", name, triton_pin), *q_spec = dl_shell_quote(sh, spec);
        dl_finding_fix(x, "%s -m pip install --force-reinstall %s", python, q_spec);
        free(q_spec);
        free(spec);
        free(triton_pin);
    } else if (dl_contains_ci(name, "flash")) {
        /* its setup fetches the prebuilt wheel for the torch it finds installed */
        dl_finding_fix(x, "%s -m pip install --force-reinstall --no-deps --no-build-isolation "
                          "--no-cache-dir %s", python, q_name);
    } else if (dl_contains_ci(name, "mmcv")) {
        char *rel = release_of(torch_version), *dot = strchr(rel, '.');
        char *url;
        if (dot && strchr(dot + 1, '.'))
            *strchr(dot + 1, '.') = '\0';
        url = dl_fmt("https://download.openmmlab.com/mmcv/dist/%s/torch%s/index.html",
                     variant, rel);
        dl_finding_fix(x, "%s -m pip install --force-reinstall --no-deps %s -f %s", python,
                       q_name, url);
        free(url);
        free(rel);
    } else if (dl_contains_ci(name, "apex")) {
        /* PyPI's "apex" is another project: NVIDIA's is built from its repository, against
         * the torch that is installed */
        char *cpp = dl_shell_quote(sh, "--build-option=--cpp_ext");
        char *cuda = dl_shell_quote(sh, "--build-option=--cuda_ext");
        dl_finding_fix(x, "%s -m pip install -v --force-reinstall --no-deps --no-build-isolation "
                          "--no-cache-dir --config-settings %s --config-settings %s "
                          "git+https://github.com/NVIDIA/apex.git", python, cpp, cuda);
        free(cpp);
        free(cuda);
    } else if (dl_contains_ci(name, "deepspeed")) {
        /* without prebuilt ops: they are built at run time for the torch that runs */
        dl_finding_fix(x, "%s -m pip install --force-reinstall --no-deps --no-build-isolation "
                          "--no-cache-dir %s", python, q_name);
    } else {
        /* pip keeps the installed torch (pinned) and picks the release of the package whose
         * own requirements accept it */
        dl_finding_fix(x, "%s -m pip install --upgrade %s %s", python, q_name, q_torch);
    }
    if (needs)
        dl_fix_note(x, "or the torch %s was built for: %s", name, needs);
    free(q_name);
    free(q_torch);
    free(torch_pin);
    free(python);
}

/* ---- the rule --------------------------------------------------------------------------------- */

static const char *const extension_names[] = {
    "xformers", "flash-attn", "flash_attn", "bitsandbytes", "apex", "deepspeed", "vllm", "mmcv",
    "mmcv-full", "mmcv_full", NULL};

/* "xformers.requires_torch: torch ==2.1.2": the package's fact that says it. */
static void evidence(dl_finding *x, const dl_py_package *p, const char *field, const char *said)
{
    char *fact = dl_fmt("%s.%s", p->name.value, field);
    dl_finding_evidence(x, fact, "%s", said);
    free(fact);
}

/* the wheel index's name for torch's build: its local tag, else (PyPI's untagged build) its
 * CUDA. Caller frees. */
static char *variant_of(const char *torch_version, cuda_ver torch_cuda)
{
    return strchr(torch_version, '+') ? dl_strdup(strchr(torch_version, '+') + 1)
           : torch_cuda.major > 0 ? dl_fmt("cu%d%d", torch_cuda.major, torch_cuda.minor)
                                  : dl_strdup("cpu");
}

/* torch's CUDA as it ran (or as its files say); major 0 when unknown. */
static cuda_ver torch_cuda_of(const dl_python *py)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    const char *cuda, *hip;
    cuda_ver v = {0, 0};
    cuda = dl_q_torch_imported(py) ? py->runtime.cuda.value : t ? t->cuda.value : NULL;
    hip = dl_q_torch_imported(py) ? py->runtime.hip.value : t ? t->hip.value : NULL;
    if (cuda && !strcmp(cuda, "none"))
        v.major = v.minor = hip && strcmp(hip, "none") ? ROCM : -1;
    else if (!cuda_from_text(cuda, &v))
        v.major = 0;
    return v;
}

void dl_ext_fix(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                const char *package, const char *torch_version, const char *needs)
{
    char *variant = variant_of(torch_version, torch_cuda_of(py));
    fix_for(x, in, py, package, torch_version, variant, needs);
    free(variant);
}

/* The runtime's record of the package's import, as evidence: an import that failed, or
 * warned the way a build for another torch does. */
static void runtime_evidence(dl_finding *x, const dl_python *py, const char *name)
{
    size_t i;
    const dl_ext_import *r = dl_ext_record(py, name, &i);
    if (r && r->status.value && !dl_q_text_is(&r->status, "skipped"))
        dl_ext_evidence(x, r, i);
}

static void check_package(const dl_rule_input *in, dl_findings *out, const dl_python *py,
                          const dl_py_package *p, const char *torch_version, cuda_ver torch_cuda)
{
    built_for b;
    bool torch_ok, cuda_ok, clean;
    char *have, *want, *needs, *variant;
    const dl_ext_import *r = dl_ext_record(py, p->name.value, NULL);
    dl_finding *x;
    read_built_for(&b, p, torch_cuda);
    torch_ok = !b.torch || torch_fits(b.torch, torch_version);
    cuda_ok = cuda_fits(&b, torch_cuda);
    if (torch_ok && cuda_ok) {
        built_for_free(&b);
        return; /* the runtime's word alone: runtime_mismatch */
    }
    /* it imported without a word of complaint: the metadata may be wrong, or the package
     * falls back quietly (a slower path), so a warning */
    clean = r && dl_q_text_is(&r->status, "imported") && !dl_ext_says_mismatch(in, r);
    have = torch_cuda.major ? cuda_words(torch_cuda) : dl_strdup("its CUDA unknown");
    want = b.cuda.major ? cuda_words(b.cuda) : dl_strdup("");
    x = dl_finding_add(out, "extension_mismatch", clean ? DL_SEV_WARNING : DL_SEV_FAILURE,
                       "%s %s was built for %s%s%s%s, but torch %s (%s) is installed%s",
                       p->name.value, dl_text_or(&p->version, "?"),
                       !torch_ok ? "torch " : "", !torch_ok ? b.torch : "",
                       !torch_ok && !cuda_ok ? " with " : "", !cuda_ok ? want : "",
                       torch_version, have,
                       clean ? "; it imports without an error, but may fall back to slower "
                               "code"
                             : "");
    if (!torch_ok)
        evidence(x, p, b.torch_from, b.torch_said ? b.torch_said : b.torch);
    if (!cuda_ok)
        evidence(x, p, b.cuda_from, b.cuda_said ? b.cuda_said : want);
    dl_finding_evidence(x, "pythons[0].site_packages", "%s",
                        p->source.value ? p->source.value : p->name.value);
    runtime_evidence(x, py, p->name.value);
    /* what the package itself said at import beats what its metadata suggested */
    needs = r && !clean ? dl_ext_built_for_said(r) : NULL;
    if (!needs)
        needs = b.torch && b.cuda.major > 0 ? dl_fmt("torch %s with %s", b.torch, want)
                : b.torch                   ? dl_fmt("torch %s", b.torch)
                : b.cuda.major > 0          ? dl_fmt("a torch built for %s", want)
                                            : NULL;
    variant = variant_of(torch_version, torch_cuda);
    fix_for(x, in, py, p->name.value, torch_version, variant, needs);
    free(variant);
    free(needs);
    free(have);
    free(want);
    built_for_free(&b);
}

/* The metadata said nothing wrong (or there is none), but the import failed or warned the
 * way a build for another torch does: the runtime's word decides. torchvision and
 * torchaudio are torchvision_mismatch's. */
static void runtime_mismatch(const dl_rule_input *in, dl_findings *out, const dl_python *py,
                             const char *torch_version, cuda_ver torch_cuda)
{
    size_t i, n = out->items.count;
    for (i = 0; py->runtime.extensions.known && i < py->runtime.extensions.count; i++) {
        const dl_ext_import *r = &DL_LIST_AT(py->runtime.extensions, dl_ext_import, i);
        const dl_py_package *p = r->package.value ? dl_q_package(py, r->package.value) : NULL;
        char *said, *have, *variant;
        size_t j;
        bool named = false;
        dl_finding *x;
        if (!r->package.value || dl_contains_ci(r->package.value, "torchvision") ||
            dl_contains_ci(r->package.value, "torchaudio") || !dl_ext_says_mismatch(in, r))
            continue;
        for (j = 0; j < n && !named; j++) {
            const dl_finding *f = &DL_LIST_AT(out->items, dl_finding, j);
            named = f->title.value && dl_starts_with(f->title.value, r->package.value);
        }
        if (named)
            continue;
        said = dl_ext_built_for_said(r);
        have = torch_cuda.major ? cuda_words(torch_cuda) : dl_strdup("its CUDA unknown");
        x = dl_finding_add(out, "extension_mismatch", DL_SEV_FAILURE,
                           "%s %s %s: it was built for %s, but torch %s (%s) is installed",
                           r->package.value, p ? dl_text_or(&p->version, "?") : "?",
                           dl_q_text_is(&r->status, "imported") ? "cannot load its native code"
                                                                : "fails to import",
                           said ? said : "another torch", torch_version, have);
        dl_ext_evidence(x, r, i);
        variant = variant_of(torch_version, torch_cuda);
        fix_for(x, in, py, r->package.value, torch_version, variant, said);
        free(variant);
        free(have);
        free(said);
    }
}

/* torch's own pin on triton (torch.compile's compiler) against the triton installed. */
static void check_triton(const dl_rule_input *in, dl_findings *out, const dl_python *py,
                         const dl_py_package *torch)
{
    const char *req = torch->requires_triton.value;
    const char *name = req && dl_contains_ci(req, "pytorch-triton") ? "pytorch-triton" : "triton";
    const dl_py_package *triton = dl_q_package(py, name);
    char *pin = exact_pin(req), *python, *spec, *quoted;
    dl_finding *x;
    if (!pin || !triton || !triton->version.value || torch_fits(pin, triton->version.value)) {
        free(pin);
        return;
    }
    x = dl_finding_add(out, "extension_mismatch", DL_SEV_FAILURE,
                       "%s %s is installed, but torch %s was built with %s %s",
                       name, triton->version.value, dl_text_or(&torch->version, "?"), name, pin);
    dl_finding_evidence(x, "torch.requires_triton", "%s", req);
    dl_finding_evidence(x, "pythons[0].site_packages", "%s",
                        triton->source.value ? triton->source.value : name);
    runtime_evidence(x, py, name);
    python = dl_fix_python(in->facts, py);
    spec = dl_fmt("%s==%s", name, pin);
    quoted = dl_shell_quote(dl_fix_shell(in->facts), spec);
    dl_finding_fix(x, "%s -m pip install %s", python, quoted);
    free(quoted);
    free(spec);
    free(python);
    free(pin);
}

void dl_rule_extension_mismatch(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *torch = dl_q_package(py, "torch");
    const char *version = dl_q_torch_version(py);
    cuda_ver torch_cuda;
    size_t i;
    if (!py || !version)
        return;
    torch_cuda = torch_cuda_of(py);
    for (i = 0; extension_names[i]; i++) {
        const dl_py_package *p = dl_q_package(py, extension_names[i]);
        if (p && p->name.value)
            check_package(in, out, py, p, version, torch_cuda);
    }
    if (torch)
        check_triton(in, out, py, torch);
    runtime_mismatch(in, out, py, version, torch_cuda);
}
