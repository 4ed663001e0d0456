/* paths: Windows paths written into the code. A backslash in a non-raw string is an
 * escape ("C:\new" holds a newline), and a drive-absolute path exists on one machine.
 * encoding: text files opened without an encoding use the locale's (cp1252 on most
 * Windows machines), so the same file reads differently there. */
#include "lint/rules.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const path_functions[] = {
    "open", "io.open", "os.path.join", "os.path.exists", "os.makedirs", "os.listdir",
    "os.chdir", "pathlib.Path", "torch.save", "torch.load", "os.path.isfile",
    "os.path.isdir", "os.mkdir", "shutil.copy", "shutil.rmtree",
};

static bool drive_prefix(const char *t, size_t len)
{
    return len >= 3 && isalpha((unsigned char)t[0]) && t[1] == ':' &&
           (t[2] == '\\' || t[2] == '/');
}

/* Components between backslashes that look like names (no regex or format syntax). */
static bool path_like(const char *t, size_t len)
{
    size_t i, parts = 1;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\\' || c == '/') {
            if (c == '\\' && i + 1 < len && t[i + 1] == '\\')
                i++;
            parts++;
            continue;
        }
        if (!(isalnum(c) || c == '_' || c == '-' || c == '.' || c == ' ' || c == '~' ||
              c == ':' || c >= 0x80))
            return false;
    }
    return parts >= 2;
}

static bool path_argument(const dl_lint_file *f, TSNode str)
{
    TSNode args = ts_node_parent(str), call;
    char buf[256];
    const char *q;
    size_t i;
    if (dl_lint_is(args, "keyword_argument"))
        args = ts_node_parent(args);
    if (!dl_lint_is(args, "argument_list"))
        return false;
    call = ts_node_parent(args);
    q = dl_lint_qualified(f, ts_node_child_by_field_name(call, "function", 8), buf,
                          sizeof buf);
    for (i = 0; q && i < sizeof path_functions / sizeof *path_functions; i++)
        if (!strcmp(q, path_functions[i]) || dl_lint_name_ends(q, "Path"))
            return true;
    return false;
}

static bool has_extension(const char *t, size_t len)
{
    size_t i = len;
    while (i > 0 && t[i - 1] != '\\' && t[i - 1] != '/' && t[i - 1] != '.')
        i--;
    return i > 0 && t[i - 1] == '.' && i < len && len - i <= 5;
}

/* Making it raw keeps what the author meant: no doubled backslash, no escaped quote, no
 * backslash at the end, no interpolation. */
static bool raw_is_safe(const char *t, size_t len, const dl_lint_string *s)
{
    size_t i;
    if (s->fstring || s->bytes || (len && t[len - 1] == '\\'))
        return false;
    for (i = 0; i + 1 < len; i++)
        if (t[i] == '\\' && (t[i + 1] == '\\' || t[i + 1] == '"' || t[i + 1] == '\'' ||
                             t[i + 1] == '\n' || t[i + 1] == '\r'))
            return false;
    return true;
}

void dl_lint_rule_paths(dl_lint_file *f, TSNode n, const char *type)
{
    dl_lint_string s;
    const char *t;
    size_t len;
    bool drive, backslash;
    if (strcmp(type, "string") != 0 || !dl_lint_string_of(f, n, &s) || s.bytes)
        return;
    if (dl_lint_is(ts_node_parent(n), "expression_statement"))
        return; /* a docstring */
    t = f->src + s.body_start;
    len = s.body_end - s.body_start;
    drive = drive_prefix(t, len);
    backslash = !s.raw && memchr(t, '\\', len) != NULL;
    if (backslash && path_like(t, len) &&
        (drive || has_extension(t, len) || path_argument(f, n))) {
        dl_lint_finding *x = dl_lint_report(
            f, n, "paths", DL_LINT_WARNING,
            "a Windows path in a non-raw string: each backslash starts an escape (\"\\n\" is "
            "a newline, \"\\t\" a tab); write r\"...\", forward slashes or "
            "pathlib.Path parts%s", drive ? ", and take the drive-absolute part from an "
                                            "argument or a setting" : "");
        if (x && raw_is_safe(t, len, &s))
            dl_lint_fix_add(x, ts_node_start_byte(n) + s.prefix_len,
                            ts_node_start_byte(n) + s.prefix_len, "r");
        return;
    }
    if (drive && path_like(t, len))
        dl_lint_report(f, n, "paths", DL_LINT_WARNING,
                       "a drive-absolute path exists on one Windows machine only: take it "
                       "from an argument, an environment variable or a setting");
}

/* os.path.join("..", ...): relative to the working directory, which is wherever the
 * script was started from (an IDE, a scheduler), not the script's folder. */
void dl_lint_rule_paths_call(dl_lint_file *f, TSNode call, const char *q)
{
    TSNode first;
    if (!q || strcmp(q, "os.path.join") != 0)
        return;
    first = dl_lint_arg(call, 0);
    if (!ts_node_is_null(first) &&
        (dl_lint_string_is(f, first, "..") || dl_lint_string_is(f, first, ".")))
        dl_lint_report(f, first, "paths", DL_LINT_INFO,
                       "a path relative to the working directory, not to this file: it breaks "
                       "when the script is started from elsewhere (an IDE, a scheduler); start "
                       "from os.path.dirname(os.path.abspath(__file__)) or "
                       "Path(__file__).resolve().parent");
}

/* The mode argument says binary, or cannot be read: then no encoding is wanted. */
static bool binary_or_unknown_mode(const dl_lint_file *f, TSNode mode)
{
    dl_lint_string s;
    if (ts_node_is_null(mode))
        return false;
    if (!dl_lint_string_of(f, mode, &s) || s.fstring)
        return true;
    return memchr(f->src + s.body_start, 'b', s.body_end - s.body_start) != NULL;
}

static void add_encoding_fix(dl_lint_file *f, dl_lint_finding *x, TSNode call)
{
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    uint32_t i, n;
    size_t close, at;
    const char *text;
    if (!x || !dl_lint_is(args, "argument_list"))
        return;
    n = ts_node_named_child_count(args);
    for (i = 0; i < n; i++)
        if (dl_lint_is(ts_node_named_child(args, i), "comment"))
            return;
    close = ts_node_end_byte(args) - 1;
    if (close >= f->len || f->src[close] != ')')
        return;
    at = close;
    while (at > ts_node_start_byte(args) + 1 && isspace((unsigned char)f->src[at - 1]))
        at--;
    text = f->src[at - 1] == '(' ? "encoding=\"utf-8\""
           : f->src[at - 1] == ',' ? " encoding=\"utf-8\"" : ", encoding=\"utf-8\"";
    dl_lint_fix_add(x, at, at, text);
}

void dl_lint_rule_encoding(dl_lint_file *f, TSNode call, const char *q)
{
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    dl_lint_os os = f->opts->target.os;
    dl_lint_severity sev = os == DL_LINT_OS_LINUX || os == DL_LINT_OS_MACOS ? DL_LINT_INFO
                                                                             : DL_LINT_WARNING;
    const char *what;
    if (dl_lint_has_splat(call) || !ts_node_is_null(dl_lint_kwarg(f, call, "encoding")))
        return;
    if (q && (!strcmp(q, "open") || !strcmp(q, "io.open"))) {
        TSNode mode = dl_lint_kwarg(f, call, "mode");
        if (ts_node_is_null(mode))
            mode = dl_lint_arg(call, 1);
        if (ts_node_is_null(dl_lint_arg(call, 0)) || binary_or_unknown_mode(f, mode) ||
            !ts_node_is_null(dl_lint_arg(call, 3)))
            return;
        what = "open()";
    } else if (dl_lint_is(fn, "attribute") &&
               dl_lint_text_is(f, ts_node_child_by_field_name(fn, "attribute", 9),
                               "read_text")) {
        if (!ts_node_is_null(dl_lint_arg(call, 0)))
            return;
        what = "read_text()";
    } else if (dl_lint_is(fn, "attribute") &&
               dl_lint_text_is(f, ts_node_child_by_field_name(fn, "attribute", 9),
                               "write_text")) {
        if (ts_node_is_null(dl_lint_arg(call, 0)) || !ts_node_is_null(dl_lint_arg(call, 1)))
            return;
        what = "write_text()";
    } else {
        return;
    }
    add_encoding_fix(f, dl_lint_report(f, call, "encoding", sev,
                                       "%s in text mode without encoding uses the locale's "
                                       "(cp1252 on most Windows machines): pass "
                                       "encoding=\"utf-8\"", what),
                     call);
}
