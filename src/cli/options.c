/* The parser: argv against the command's own option table (cli/commands.c names it) and
 * the common one. Options may come before the command, so the command is found first. */
#include "cli/options.h"

#include "cli/commands.h"
#include "cli/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool same_ci(const char *a, const char *b)
{
    for (; *a && tolower((unsigned char)*a) == tolower((unsigned char)*b); a++, b++)
        ;
    return !*a && !*b;
}

static bool set_color(dl_cli *cli, const dl_option *o, const char *value, char **error)
{
    static const char *const names[] = {"auto", "always", "never"};
    size_t i;
    (void)o;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (same_ci(value, names[i])) {
            cli->color = (dl_color_mode)i;
            return true;
        }
    *error = dl_fmt("--color takes auto, always or never, not '%s'", value);
    return false;
}

static bool set_no_color(dl_cli *cli, const dl_option *o, const char *value, char **error)
{
    (void)o;
    (void)value;
    (void)error;
    cli->color = DL_COLOR_NEVER;
    return true;
}

const dl_option dl_common_options[] = {
    DL_OPT_FLAG("help", 'h', help, "show this help and exit"),
    DL_OPT_FLAG("version", 'V', version, "show the version and exit"),
    DL_OPT_TEXT("data", 0, "DIR", data_dir, "use DIR/<table>.csv in place of the built-in tables"),
    DL_OPT_FLAG("ascii", 0, ascii, "plain ASCII output, no symbols"),
    DL_OPT_CALL("color", "WHEN", set_color,
                "colour: auto (a terminal, no NO_COLOR), always, never"),
    DL_OPT_CALL("no-color", NULL, set_no_color, "same as --color never"),
    DL_OPT_END,
};

bool dl_opt_set_gpu(dl_cli *cli, const dl_option *o, const char *value, char **error)
{
    (void)o;
    if (cli->n_gpus == DL_CLI_MAX_GPUS) {
        *error = dl_fmt("--gpu given more than %d times", DL_CLI_MAX_GPUS);
        return false;
    }
    cli->gpus[cli->n_gpus++] = value;
    return true;
}

/* Pythons that exist or may: 2.0 to 2.7, 3.0 to 3.29 (3.99 is a typo, not a plan). */
static bool plausible_python(unsigned major, unsigned minor)
{
    return (major == 2 && minor <= 7) || (major == 3 && minor <= 29);
}

/* A path names a folder (/, \, or a drive letter, C:python.exe): "abc" is neither a path
 * nor a version, and would be looked for in the current folder by surprise. */
static bool looks_like_path(const char *s)
{
    return strpbrk(s, "/\\") || (isalpha((unsigned char)s[0]) && s[1] == ':');
}

/* "3.12", "3.13t": a version (digits, a dot, digits, perhaps "t"); anything else that
 * starts with a digit is a bad one. */
static bool parse_version(const char *s, dl_python_version *v, char **error)
{
    size_t n1 = strspn(s, "0123456789"), n2 = 0;
    const char *tail = s + n1;
    memset(v, 0, sizeof *v);
    if (*tail == '.') {
        n2 = strspn(tail + 1, "0123456789");
        tail += 1 + n2;
    }
    if (!n1 || !n2 || n1 > 3 || n2 > 3 || (*tail && strcmp(tail, "t"))) {
        *error = dl_fmt("--python '%s': expected a version X.Y (3.12, 3.13t) or an "
                        "interpreter's path", s);
        return false;
    }
    v->major = (unsigned)strtoul(s, NULL, 10);
    v->minor = (unsigned)strtoul(s + n1 + 1, NULL, 10);
    v->free_threaded = *tail == 't';
    if (!plausible_python(v->major, v->minor)) {
        *error = dl_fmt("--python '%s': no Python has that version (3.12, 3.13t ...)", s);
        memset(v, 0, sizeof *v);
        return false;
    }
    return true;
}

/* --python for plan: an interpreter's path, or X.Y for a described (or adjusted) machine. */
bool dl_opt_set_python_or_version(dl_cli *cli, const dl_option *o, const char *value,
                                  char **error)
{
    (void)o;
    if (looks_like_path(value)) {
        cli->python = value;
        memset(&cli->python_version, 0, sizeof cli->python_version);
        return true;
    }
    if (!isdigit((unsigned char)value[0])) {
        *error = dl_fmt("--python '%s': expected a version X.Y (3.12, 3.13t) or an "
                        "interpreter's path (./%s if it is here)", value, value);
        return false;
    }
    cli->python = NULL;
    return parse_version(value, &cli->python_version, error);
}

/* --python elsewhere: an interpreter, so a path. */
bool dl_opt_set_python_path(dl_cli *cli, const dl_option *o, const char *value, char **error)
{
    (void)o;
    if (looks_like_path(value)) {
        cli->python = value;
        return true;
    }
    if (isdigit((unsigned char)value[0]))
        *error = dl_fmt("--python '%s': '%s' takes an interpreter's path; a version describes "
                        "a machine to `dlenv plan`", value, cli->command);
    else
        *error = dl_fmt("--python '%s': expected an interpreter's path (./%s if it is here)",
                        value, value);
    return false;
}

/* Timeouts are kept in whole milliseconds, where 0 means "the default": below 1 ms a
 * value would silently become the default (0.0004 s waited 60 s), so it is refused, as
 * is anything over an hour, NaN, a sign, and text strtod would take but is no plain
 * number ("inf", " 5", "0x10"). */
#define MIN_SECONDS 0.001
#define MAX_SECONDS 3600.0

static bool parse_seconds(const dl_option *o, const char *value, double *out, char **error)
{
    char *end = NULL;
    double v = 0;
    bool plain = (value[0] >= '0' && value[0] <= '9') || value[0] == '.';
    if (plain && !strpbrk(value, "xX"))
        v = strtod(value, &end);
    if (!plain || strpbrk(value, "xX") || end == value || *end ||
        !(v >= MIN_SECONDS && v <= MAX_SECONDS)) {
        *error = dl_fmt("--%s takes seconds from 0.001 to 3600, not '%s'", o->name, value);
        return false;
    }
    *out = v;
    return true;
}

bool dl_option_apply(const dl_option *o, const char *value, dl_cli *cli, char **error)
{
    char *field = (char *)cli + o->field;
    switch (o->kind) {
    case DL_OPTK_FLAG:
        *(bool *)(void *)field = true;
        return true;
    case DL_OPTK_TEXT:
        *(const char **)(void *)field = value;
        return true;
    case DL_OPTK_LOWER: {
        char *low = dl_ascii_lower(value, strlen(value));
        dl_strv_add(&cli->owned, low);
        *(const char **)(void *)field = low;
        return true;
    }
    case DL_OPTK_SECONDS:
        return parse_seconds(o, value, (double *)(void *)field, error);
    case DL_OPTK_CALL:
        return o->set(cli, o, value, error);
    }
    return true;
}

const dl_option *dl_option_find(const dl_option *table, const char *name, size_t len,
                                char short_name)
{
    for (; table && table->name; table++)
        if (name ? strlen(table->name) == len && !strncmp(table->name, name, len)
                 : table->short_name && table->short_name == short_name)
            return table;
    return NULL;
}

/* In a command's table or the common one. */
static const dl_option *find_for(const dl_command *c, const char *name, size_t len, char s)
{
    const dl_option *o = c ? dl_option_find(c->options, name, len, s) : NULL;
    return o ? o : dl_option_find(dl_common_options, name, len, s);
}

/* In any table: the first pass, which looks for the command, needs to know which options
 * take a value; an option takes one wherever it appears. */
static const dl_option *find_any(const char *name, size_t len, char s)
{
    const dl_command *c;
    const dl_option *o = find_for(NULL, name, len, s);
    for (c = dl_commands; !o && c->name; c++)
        o = dl_option_find(c->options, name, len, s);
    return o;
}

/* The option a names ("--name", "--name=value", "-x"): in c's table and the common one, or
 * (any) in every table. */
static const dl_option *lookup_arg(const char *a, const dl_command *c, bool any,
                                   const char **eq)
{
    *eq = NULL;
    if (a[1] == '-') {
        size_t len;
        *eq = strchr(a + 2, '=');
        len = *eq ? (size_t)(*eq - a - 2) : strlen(a + 2);
        return any ? find_any(a + 2, len, 0) : find_for(c, a + 2, len, 0);
    }
    if (a[2] != '\0')
        return NULL;
    return any ? find_any(NULL, 0, a[1]) : find_for(c, NULL, 0, a[1]);
}

static bool is_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0';
}

/* The first argument that is neither an option nor an option's value: the command; 0 for
 * none. *unknown: the first option before it that no table knows (0: none). */
static int command_index(int argc, char **argv, int *unknown)
{
    int i;
    *unknown = 0;
    for (i = 1; i < argc; i++) {
        const char *eq;
        const dl_option *o;
        if (!strcmp(argv[i], "--"))
            return 0;
        if (!is_option(argv[i]))
            return i;
        o = lookup_arg(argv[i], NULL, true, &eq);
        if (o && o->arg && !eq)
            i++;
        if (!o && !*unknown)
            *unknown = i;
    }
    return 0;
}

/* An option the command does not know: one that another command has, one close to one of
 * its own ("--jsn": did you mean '--json'?), or none. */
static char *unknown_option(const char *a, const dl_command *c)
{
    const char *best = NULL, *eq = strchr(a, '=');
    bool is_long = a[1] == '-';
    char *typed = is_long ? dl_strndup(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2))
                          : dl_strdup(a + 1);
    char *see = c ? dl_fmt("dlenv %s --help", c->name) : dl_strdup("dlenv --help"), *msg;
    const dl_option *o;
    const dl_command *other, *owner = NULL;
    size_t d = 0;
    for (o = c && is_long ? c->options : NULL; o && o->name; o++)
        dl_suggest_consider(typed, o->name, &best, &d);
    for (o = dl_common_options; is_long && o->name; o++)
        dl_suggest_consider(typed, o->name, &best, &d);
    for (other = dl_commands; is_long && !best && other->name; other++)
        for (o = other->options; o->name && !owner; o++) {
            dl_suggest_consider(typed, o->name, &best, &d);
            owner = best ? other : NULL;
        }
    if (!c && *typed && (is_long ? find_any(typed, strlen(typed), 0) : find_any(NULL, 0, *typed)))
        msg = dl_fmt("%s is an option of a command: dlenv <command> %s (see '%s')", a, a, see);
    else if (*typed && (is_long ? find_any(typed, strlen(typed), 0) : find_any(NULL, 0, *typed)))
        msg = dl_fmt("%s does not apply to '%s' (see '%s')", a, c ? c->name : "dlenv", see);
    else if (owner)
        msg = dl_fmt("unknown option '%s'; '--%s' is an option of '%s' (see '%s')", a, best,
                     owner->name, see);
    else if (best)
        msg = dl_fmt("unknown option '%s'; did you mean '--%s'? (see '%s')", a, best, see);
    else
        msg = dl_fmt("unknown option '%s' (see '%s')", a, see);
    free(typed);
    free(see);
    return msg;
}

/* One option at argv[*i]; may take the next argument as its value. */
static bool parse_option(int argc, char **argv, int *i, const dl_command *c, dl_cli *cli,
                         char **error)
{
    const char *a = argv[*i], *eq, *value = NULL;
    const dl_option *o = lookup_arg(a, c, false, &eq);
    if (!o) {
        *error = unknown_option(a, c);
        return false;
    }
    if (o->arg) {
        if (eq)
            value = eq + 1;
        else if (*i + 1 < argc)
            value = argv[++*i];
        else {
            *error = dl_fmt("--%s needs a value (%s)", o->name, o->arg);
            return false;
        }
    } else if (eq) {
        *error = dl_fmt("--%s takes no value", o->name);
        return false;
    }
    return dl_option_apply(o, value, cli, error);
}

/* A plain argument: one of the command's own, or where the command to run begins. */
static bool parse_plain(int argc, char **argv, int *i, const dl_command *c, dl_cli *cli,
                        char **error)
{
    const char *a = argv[*i];
    if (c && c->positional.max == DL_POSITIONAL_LIST) {
        cli->paths = dl_xrealloc((void *)cli->paths, (cli->n_paths + 1) * sizeof *cli->paths);
        cli->paths[cli->n_paths++] = a;
        return true;
    }
    if (c && cli->n_args < c->positional.max) {
        cli->args[cli->n_args++] = a;
        return true;
    }
    if (c && c->positional.then_command) {
        *i += !strcmp(a, "--");
        cli->command_argv = argv + *i;
        cli->command_argc = (size_t)(argc - *i);
        *i = argc;
        return true;
    }
    *error = dl_fmt("unexpected argument '%s'", a);
    return false;
}

static char *unknown_command(const char *name)
{
    const char *best = dl_command_suggest(name);
    if (best)
        return dl_fmt("unknown command '%s'; did you mean '%s'? (see 'dlenv --help')", name,
                      best);
    return dl_fmt("unknown command '%s' (see 'dlenv --help')", name);
}

static bool parse_all(int argc, char **argv, int at, const dl_command *c, dl_cli *cli,
                      char **error)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool ok;
        if (i == at)
            continue;
        if (c && c->positional.then_command && cli->n_args == c->positional.max && i > at &&
            (!is_option(a) || !strcmp(a, "--")))
            ok = parse_plain(argc, argv, &i, c, cli, error);
        else if (is_option(a))
            ok = parse_option(argc, argv, &i, c, cli, error);
        else
            ok = parse_plain(argc, argv, &i, c, cli, error);
        if (!ok)
            return false;
    }
    return true;
}

bool dl_cli_parse(int argc, char **argv, dl_cli *cli, char **error)
{
    int unknown, at = command_index(argc, argv, &unknown);
    const dl_command *c = NULL;
    memset(cli, 0, sizeof *cli);
    cli->argv0 = argc > 0 ? argv[0] : NULL;
    *error = NULL;
    if (at) {
        c = dl_command_find(argv[at]);
        if (!c) { /* "--gpus 1 run": the option is the mistake, not "1" */
            *error = unknown ? unknown_option(argv[unknown], NULL) : unknown_command(argv[at]);
            return false;
        }
        cli->command = c->name;
    }
    if (!parse_all(argc, argv, at, c, cli, error))
        return false;
    /* --from's facts come from the file: a --root beside it would be ignored */
    if (cli->root && cli->from && !cli->help) {
        *error = dl_strdup("--root and --from exclude each other: --from reads a saved "
                           "report, --root a machine's files");
        return false;
    }
    return true;
}

void dl_cli_free(dl_cli *cli)
{
    dl_strv_free(&cli->owned);
    free((void *)cli->paths);
    cli->paths = NULL;
    cli->n_paths = 0;
}
