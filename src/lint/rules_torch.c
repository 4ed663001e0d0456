/* The rules about torch's API: load, amp, save, device, pin, dist, visible, seed, tqdm
 * (docs/lint.md). Each weighs the target: a rule that cannot matter there is off or
 * info. */
#include "lint/rules.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const dl_lint_target *target(const dl_lint_file *f)
{
    return &f->opts->target;
}

void dl_lint_rule_load(dl_lint_file *f, TSNode call, const char *q)
{
    dl_lint_tristate new_default;
    dl_lint_finding *x;
    if (!q || strcmp(q, "torch.load") != 0 || dl_lint_has_splat(call))
        return;
    if (!ts_node_is_null(dl_lint_kwarg(f, call, "weights_only")))
        return;
    new_default = dl_lint_torch_at_least(target(f), 2, 6);
    if (new_default == DL_LINT_YES)
        x = dl_lint_report(f, call, "load", DL_LINT_ERROR,
                       "torch.load without weights_only: torch >= 2.6 loads only tensors by "
                       "default, so a checkpoint holding other objects fails; pass "
                       "weights_only=True (or False for a file you trust)");
    else
        x = dl_lint_report(f, call, "load", DL_LINT_WARNING,
                           "torch.load without weights_only: it unpickles arbitrary objects "
                           "(code runs), and torch 2.6 changed the default to True; pass "
                           "weights_only=True (or False for a file you trust)");
    /* unsafe: a checkpoint holding other objects then fails to load */
    dl_lint_fix_add_kwarg(f, x, call, "weights_only=True");
}

/* torch.cuda.amp.X / torch.cpu.amp.X -> torch.amp.X("cuda" | "cpu", ...) */
static const char *amp_device(const char *q, const char **name)
{
    static const char *const names[] = {"autocast", "GradScaler", "custom_fwd", "custom_bwd"};
    const char *dev = dl_starts_with(q, "torch.cuda.amp.") ? "cuda"
                      : dl_starts_with(q, "torch.cpu.amp.") ? "cpu" : NULL;
    size_t i;
    if (!dev)
        return NULL;
    for (i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(q + strlen("torch.cuda.amp."), names[i]) ||
            !strcmp(q + strlen("torch.cpu.amp."), names[i])) {
            *name = names[i];
            return dev;
        }
    return NULL;
}

/* The fix, when the call spells the whole chain from a name bound to torch:
 * T.cuda.amp.autocast(x) -> T.amp.autocast("cuda", x). */
static void amp_fix(dl_lint_file *f, dl_lint_finding *x, TSNode call, const char *dev,
                    const char *name)
{
    TSNode fn = ts_node_child_by_field_name(call, "function", 8), root = fn;
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    char buf[256], *text;
    size_t len, depth = 0;
    const char *t;
    if (strcmp(name, "autocast") != 0 && strcmp(name, "GradScaler") != 0)
        return; /* custom_fwd takes device_type=, a keyword: written by hand */
    while (dl_lint_is(root, "attribute")) {
        root = ts_node_child_by_field_name(root, "object", 6);
        depth++;
    }
    if (depth != 3 || !dl_lint_is(root, "identifier") ||
        !dl_lint_qualified(f, root, buf, sizeof buf) || strcmp(buf, "torch") != 0 ||
        !dl_lint_is(args, "argument_list"))
        return;
    t = dl_lint_text(f, root, &len);
    text = dl_fmt("%.*s.amp.%s", (int)len, t, name);
    dl_lint_fix_add(x, ts_node_start_byte(fn), ts_node_end_byte(fn), text);
    free(text);
    text = dl_fmt("\"%s\"%s", dev, ts_node_named_child_count(args) ? ", " : "");
    dl_lint_fix_add(x, ts_node_start_byte(args) + 1, ts_node_start_byte(args) + 1, text);
    free(text);
}

void dl_lint_rule_amp_call(dl_lint_file *f, TSNode call, const char *q)
{
    const char *name = NULL, *dev = q ? amp_device(q, &name) : NULL;
    dl_lint_severity sev;
    dl_lint_finding *x;
    if (!dev)
        return;
    /* torch.amp.GradScaler exists from 2.3; deprecated warnings from 2.4 */
    sev = dl_lint_torch_at_least(target(f), 2, 3) == DL_LINT_NO ? DL_LINT_INFO
                                                                 : DL_LINT_WARNING;
    x = dl_lint_report(f, call, "amp", sev,
                       "%s is deprecated (a FutureWarning since torch 2.4): use "
                       "torch.amp.%s(\"%s\", ...)", q, name, dev);
    if (x)
        amp_fix(f, x, call, dev, name);
}

/* `with autocast():` is a call; a decorator without a call (@torch.cuda.amp.custom_fwd)
 * is not, so that form is caught here. */
void dl_lint_rule_amp_node(dl_lint_file *f, TSNode n, const char *type)
{
    char buf[256];
    const char *q, *name, *dev;
    TSNode e;
    if (strcmp(type, "decorator") != 0)
        return;
    e = ts_node_named_child(n, 0);
    if (!dl_lint_is(e, "attribute") && !dl_lint_is(e, "identifier"))
        return;
    q = dl_lint_qualified(f, e, buf, sizeof buf);
    dev = q ? amp_device(q, &name) : NULL;
    if (dev)
        dl_lint_report(f, e, "amp", DL_LINT_WARNING,
                       "%s is deprecated: use @torch.amp.%s(device_type=\"%s\")", q, name,
                       dev);
}

void dl_lint_rule_save(dl_lint_file *f, TSNode call, const char *q)
{
    TSNode dest;
    if (!q || strcmp(q, "torch.save") != 0 || f->replaces_atomically)
        return;
    dest = dl_lint_arg(call, 1);
    if (ts_node_is_null(dest))
        dest = dl_lint_kwarg(f, call, "f");
    /* a buffer (io.BytesIO()) or an open file object is not a path */
    if (ts_node_is_null(dest) || dl_lint_is(dest, "call")) {
        char buf[256];
        const char *dq = ts_node_is_null(dest) ? NULL
            : dl_lint_qualified(f, ts_node_child_by_field_name(dest, "function", 8), buf,
                                sizeof buf);
        if (!dq || dl_lint_name_ends(dq, "BytesIO") || !strcmp(dq, "open"))
            return;
    }
    dl_lint_report(f, call, "save", DL_LINT_WARNING,
                   "torch.save straight to its final name: an interrupted save (a crash, a "
                   "full disk, a preempted job) leaves a truncated checkpoint; save to a "
                   "temporary file in the same folder, then os.replace() it (os.rename fails "
                   "on Windows when the name exists, and remove-then-rename is not atomic)");
}

/* "cuda", "cuda:0", and f"cuda:{rank}" (a CUDA device whatever the index) */
static bool is_cuda_string(const dl_lint_file *f, TSNode n)
{
    dl_lint_string s;
    size_t len;
    const char *t;
    if (!dl_lint_string_of(f, n, &s))
        return false;
    t = f->src + s.body_start;
    len = s.body_end - s.body_start;
    return len >= 4 && !memcmp(t, "cuda", 4) && (s.fstring ? len > 4 && t[4] == ':'
                                                             : len == 4 || t[4] == ':');
}

static dl_lint_severity device_severity(dl_lint_file *f, TSNode at)
{
    if (dl_lint_cuda_checked(f, at))
        return DL_LINT_OFF;
    switch (target(f)->cuda) {
    case DL_LINT_NO: return DL_LINT_ERROR;
    case DL_LINT_YES: return DL_LINT_INFO;
    default: return DL_LINT_WARNING;
    }
}

/* torch.cuda functions that work (or do nothing) without a CUDA device; every other
 * torch.cuda call initialises CUDA and raises there. */
static bool cuda_call_safe(const char *q)
{
    static const char *const safe[] = {
        "is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all",
        "seed", "seed_all", "empty_cache", "is_bf16_supported", "get_arch_list",
    };
    const char *name = q + strlen("torch.cuda.");
    size_t i;
    if (strchr(name, '.')) /* torch.cuda.amp.*, torch.cuda.nvtx.*: other rules, or none */
        return true;
    for (i = 0; i < sizeof safe / sizeof *safe; i++)
        if (!strcmp(name, safe[i]))
            return true;
    return false;
}

void dl_lint_rule_device(dl_lint_file *f, TSNode call, const char *q)
{
    TSNode fn = ts_node_child_by_field_name(call, "function", 8), a;
    if (q && dl_starts_with(q, "torch.cuda.") && !cuda_call_safe(q)) {
        dl_lint_report(f, call, "device", device_severity(f, call),
                       "%s() with no torch.cuda.is_available() check on its path: it raises "
                       "where there is no CUDA device; call it under `if "
                       "torch.cuda.is_available():`", q);
        return;
    }
    if (dl_lint_is(fn, "attribute") &&
        dl_lint_text_is(f, ts_node_child_by_field_name(fn, "attribute", 9), "cuda") &&
        !(q && dl_starts_with(q, "torch."))) {
        dl_lint_report(f, call, "device", device_severity(f, call),
                       ".cuda() with no torch.cuda.is_available() check on its path: it "
                       "fails where there is no CUDA device; use .to(device) with device = "
                       "\"cuda\" if torch.cuda.is_available() else \"cpu\"");
        return;
    }
    a = dl_lint_arg(call, 0);
    if (((q && !strcmp(q, "torch.device")) ||
         (dl_lint_is(fn, "attribute") &&
          dl_lint_text_is(f, ts_node_child_by_field_name(fn, "attribute", 9), "to"))) &&
        !ts_node_is_null(a) && is_cuda_string(f, a)) {
        dl_lint_report(f, a, "device", device_severity(f, a),
                       "a fixed \"cuda\" device with no torch.cuda.is_available() check on "
                       "its path: it fails where there is no CUDA device");
        return;
    }
    a = dl_lint_kwarg(f, call, "device");
    if (!ts_node_is_null(a) && is_cuda_string(f, a)) {
        dl_lint_report(f, a, "device", device_severity(f, a),
                       "device=\"cuda\" with no torch.cuda.is_available() check on its "
                       "path: it fails where there is no CUDA device");
        return;
    }
    a = q && !strcmp(q, "torch.load") ? dl_lint_kwarg(f, call, "map_location") : (TSNode){0};
    if (!ts_node_is_null(a) && is_cuda_string(f, a)) {
        dl_lint_report(f, a, "device", device_severity(f, a),
                       "torch.load(map_location=\"cuda\") with no torch.cuda.is_available() "
                       "check on its path: loading fails where there is no CUDA device; pass "
                       "the device chosen with a fallback (or \"cpu\")");
        return;
    }
    if (q && !strcmp(q, "torch.load") && target(f)->cuda == DL_LINT_NO &&
        ts_node_is_null(dl_lint_kwarg(f, call, "map_location")) && !dl_lint_has_splat(call))
        /* unsafe: on a machine with a GPU it then loads to the CPU too */
        dl_lint_fix_add_kwarg(f,
                              dl_lint_report(f, call, "device", DL_LINT_INFO,
                                             "torch.load without map_location on a machine "
                                             "with no CUDA device: a checkpoint saved from a "
                                             "GPU fails to load; pass map_location=\"cpu\" "
                                             "(or the device chosen)"),
                              call, "map_location=\"cpu\"");
}

void dl_lint_rule_pin(dl_lint_file *f, TSNode call, const char *q)
{
    TSNode v;
    dl_lint_severity sev;
    if (!dl_lint_name_ends(q, "DataLoader"))
        return;
    v = dl_lint_kwarg(f, call, "pin_memory");
    if (!dl_lint_is_true(v))
        return;
    sev = target(f)->cuda == DL_LINT_NO ? DL_LINT_WARNING
          : target(f)->cuda == DL_LINT_YES ? DL_LINT_OFF : DL_LINT_INFO;
    dl_lint_report(f, v, "pin", sev,
                   "pin_memory=True where no CUDA device exists warns and does nothing; use "
                   "pin_memory=torch.cuda.is_available()");
}

void dl_lint_rule_dist(dl_lint_file *f, TSNode call, const char *q)
{
    TSNode backend;
    const dl_lint_target *t = target(f);
    if (!q || strcmp(q, "torch.distributed.init_process_group") != 0 ||
        dl_lint_has_splat(call))
        return;
    backend = dl_lint_kwarg(f, call, "backend");
    if (ts_node_is_null(backend))
        backend = dl_lint_arg(call, 0);
    if (!ts_node_is_null(backend) && dl_lint_string_is(f, backend, "nccl")) {
        dl_lint_severity sev = t->os == DL_LINT_OS_WINDOWS || t->os == DL_LINT_OS_MACOS
                                   ? DL_LINT_ERROR
                               : t->cuda == DL_LINT_NO ? DL_LINT_WARNING
                               : t->os == DL_LINT_OS_UNKNOWN ? DL_LINT_WARNING
                                                              : DL_LINT_OFF;
        dl_lint_report(f, backend, "dist", sev,
                       "backend=\"nccl\" exists only on Linux with CUDA devices; use "
                       "\"nccl\" if torch.cuda.is_available() and not Windows, else \"gloo\"");
        return;
    }
    if (t->os == DL_LINT_OS_WINDOWS && ts_node_is_null(backend))
        dl_lint_report(f, call, "dist", DL_LINT_WARNING,
                       "init_process_group with no backend on Windows: name backend=\"gloo\" "
                       "(Windows has no NCCL)");
    if (t->os == DL_LINT_OS_WINDOWS && !f->sets_use_libuv &&
        dl_lint_torch_at_least(t, 2, 4) != DL_LINT_NO)
        dl_lint_report(f, call, "dist", DL_LINT_WARNING,
                       "torch >= 2.4 starts its TCPStore with libuv, which the Windows builds "
                       "lack: set os.environ[\"USE_LIBUV\"] = \"0\" before "
                       "init_process_group");
}

static unsigned line_of(const dl_lint_file *f, size_t at)
{
    unsigned line = 1;
    size_t i;
    for (i = 0; i < at && i < f->len; i++)
        line += f->src[i] == '\n';
    return line;
}

/* os.environ["CUDA_VISIBLE_DEVICES"] = ... after CUDA was first touched */
void dl_lint_rule_visible(dl_lint_file *f, TSNode n, const char *type)
{
    TSNode left, value, key;
    char buf[256];
    const char *q;
    if (strcmp(type, "assignment") != 0 || f->first_cuda_use == SIZE_MAX ||
        ts_node_start_byte(n) < f->first_cuda_use)
        return;
    left = ts_node_child_by_field_name(n, "left", 4);
    if (!dl_lint_is(left, "subscript"))
        return;
    value = ts_node_child_by_field_name(left, "value", 5);
    key = ts_node_child_by_field_name(left, "subscript", 9);
    q = dl_lint_qualified(f, value, buf, sizeof buf);
    if (!q || strcmp(q, "os.environ") != 0 || !dl_lint_string_is(f, key, "CUDA_VISIBLE_DEVICES"))
        return;
    dl_lint_report(f, n, "visible", target(f)->cuda == DL_LINT_NO ? DL_LINT_INFO
                                                                   : DL_LINT_WARNING,
                   "CUDA_VISIBLE_DEVICES set after CUDA was first used (line %u): the "
                   "devices are already fixed then; set it before the first CUDA call (or "
                   "outside: `dlenv run --gpu`)",
                   line_of(f, f->first_cuda_use));
}

void dl_lint_rule_tqdm(dl_lint_file *f, TSNode call, const char *q)
{
    if (!q || (strcmp(q, "tqdm.tqdm") != 0 && strcmp(q, "tqdm.auto.tqdm") != 0 &&
               strcmp(q, "tqdm.std.tqdm") != 0))
        return;
    if (!ts_node_is_null(dl_lint_kwarg(f, call, "ascii")) || dl_lint_has_splat(call))
        return;
    dl_lint_report(f, call, "tqdm",
                   target(f)->os == DL_LINT_OS_WINDOWS ? DL_LINT_INFO : DL_LINT_OFF,
                   "tqdm without ascii=True: the Windows console's legacy code pages draw its "
                   "bar as garbage; pass ascii=True (or ascii=os.name == \"nt\")");
}

/* torch.backends.cudnn.benchmark = True in a file that seeds for reproducibility */
void dl_lint_rule_seed(dl_lint_file *f, TSNode n, const char *type)
{
    TSNode left, right;
    char buf[256];
    const char *q;
    if (strcmp(type, "assignment") != 0 || !f->seeds)
        return;
    left = ts_node_child_by_field_name(n, "left", 4);
    right = ts_node_child_by_field_name(n, "right", 5);
    q = dl_lint_qualified(f, left, buf, sizeof buf);
    if (!q || strcmp(q, "torch.backends.cudnn.benchmark") != 0 || !dl_lint_is_true(right))
        return;
    dl_lint_report(f, n, "seed", DL_LINT_INFO,
                   "cudnn.benchmark = True picks convolution kernels by timing them, so runs "
                   "differ even with the seed set here; for reproducible runs set it to False "
                   "(and torch.use_deterministic_algorithms(True))");
}
