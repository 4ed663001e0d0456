#include "cli/options.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

typedef enum opt_id { OPT_HELP, OPT_VERSION, OPT_ROOT, OPT_JSON, OPT_ASCII, OPT_COLOR,
                      OPT_NO_COLOR, OPT_PROBE_TIMEOUT, OPT_IMPORT_TIMEOUT, OPT_PYTHON,
                      OPT_NO_RUNTIME, OPT_DATA, OPT_MARKDOWN, OPT_REDACT, OPT_VERBOSE,
                      OPT_LIST_CHECKS, OPT_CHECK, OPT_STRICT, OPT_WHY, OPT_OFFLINE, OPT_TORCH,
                      OPT_FOR, OPT_INDEX_MIRROR, OPT_OS, OPT_ARCH, OPT_GPU, OPT_DRIVER,
                      OPT_FROM, OPT_QUICK, OPT_FULL, OPT_CPU, OPT_ENV, OPT_FORMAT, OPT_OUTPUT,
                      OPT_NAME, OPT_LOCK } opt_id;

typedef struct option_spec {
    opt_id id;
    const char *name;      /* long name without "--" */
    char short_name;       /* 0: none */
    const char *arg;       /* NULL: a flag */
    const char *commands;  /* space-separated command names; NULL: every command */
    const char *help;
} option_spec;

static const dl_command commands[] = {
    {"report", "gather the facts about this machine and print them", dl_cmd_report},
    {"doctor", "say which layer is broken, with the evidence and the exact fix",
     dl_cmd_doctor},
    {"plan", "the exact install command for this machine, or for one described by flags",
     dl_cmd_plan},
    {"explain", "diagnose somebody's pasted collect_env / nvidia-smi / error output (FILE or -)",
     dl_cmd_explain},
    {"verify", "measure the compute path: CPU peak, memory bandwidth, torch's matrix product, "
               "each next to its limit", dl_cmd_verify},
    {"data", "list the knowledge tables, where each came from and the sources they cite",
     dl_cmd_data},
    {"snapshot", "record this machine's facts and findings (JSON, with time and host) to "
                 "compare later", dl_cmd_snapshot},
    {"diff", "what changed between two snapshots, most important first (- is this machine "
             "now)", dl_cmd_diff},
    {"run", "run a command on the CPU or chosen GPUs, in a chosen venv or conda env",
     dl_cmd_run},
    {"profile", "`run`'s settings as a file: sh, bat, ps1, dotenv, VS Code launch.json",
     dl_cmd_profile},
};

static const option_spec options[] = {
    {OPT_HELP, "help", 'h', NULL, NULL, "show this help and exit"},
    {OPT_VERSION, "version", 'V', NULL, NULL, "show the version and exit"},
    {OPT_ROOT, "root", 0, "DIR", "report doctor plan",
     "read the machine's files under DIR (a container image, a mounted disk)"},
    {OPT_JSON, "json", 0, NULL, "report doctor plan explain data verify diff", "print JSON (\"schema\": \"dlenv.<command>/1\")"},
    {OPT_FROM, "from", 0, "FILE", "report doctor plan",
     "use the facts of a saved `dlenv report --json` (- for stdin), not this machine's"},
    {OPT_PROBE_TIMEOUT, "probe-timeout", 0, "SECONDS",
     "report doctor plan verify snapshot diff run profile",
     "how long NVML or the CUDA driver may take to answer (default 15)"},
    {OPT_PYTHON, "python", 0, "PATH", "report doctor plan verify snapshot diff",
     "also inspect this interpreter, first (plan: a PATH, or X.Y for a described machine)"},
    {OPT_NO_RUNTIME, "no-runtime", 0, NULL, "report doctor snapshot diff",
     "do not run `import torch`"},
    {OPT_IMPORT_TIMEOUT, "import-timeout", 0, "SECONDS", "report doctor verify snapshot diff",
     "how long `import torch` may take in one interpreter (default 60)"},
    {OPT_DATA, "data", 0, "DIR", NULL,
     "use DIR/<table>.csv in place of the built-in tables"},
    {OPT_MARKDOWN, "markdown", 0, NULL, "doctor", "print Markdown, ready to paste into a bug report"},
    {OPT_REDACT, "redact", 0, NULL, "report doctor verify snapshot",
     "replace the user name, home directory and host name in the output"},
    {OPT_VERBOSE, "verbose", 'v', NULL, "doctor", "show every check and every probe's time"},
    {OPT_LIST_CHECKS, "list-checks", 0, NULL, "doctor", "list the checks and exit"},
    {OPT_CHECK, "check", 0, "ID", "doctor", "run only this check (an id from --list-checks)"},
    {OPT_STRICT, "strict", 0, NULL, "doctor verify", "warnings fail too (exit code 1)"},
    {OPT_QUICK, "quick", 0, NULL, "verify", "shorter measurements (under 3 s)"},
    {OPT_FULL, "full", 0, NULL, "verify", "longer, steadier measurements"},
    {OPT_WHY, "why", 0, NULL, "plan", "list every candidate and why it was rejected"},
    {OPT_OFFLINE, "offline", 0, NULL, "plan",
     "also the wheel files to download on another machine"},
    {OPT_TORCH, "torch", 0, "VERSION", "plan", "only this torch: 2.3, 2.3.1 or >=2.1,<2.4"},
    {OPT_FOR, "for", 0, "KIND", "plan", "only this kind of build: cpu, cuda, rocm, xpu, mps"},
    {OPT_INDEX_MIRROR, "index-mirror", 0, "URL", "plan snapshot",
     "a mirror of https://download.pytorch.org/whl to use in the commands"},
    {OPT_OS, "os", 0, "OS", "plan", "plan for another machine: windows, linux or macos"},
    {OPT_ARCH, "arch", 0, "ARCH", "plan", "its architecture: x86_64, arm64, x86 (32-bit)"},
    {OPT_GPU, "gpu", 0, "GPU", "plan",
     "its GPU, repeatable: a name as nvidia-smi prints it, 8.6 / sm_86, or 10de:2504"},
    /* run and profile: the same options, their meaning there */
    {OPT_GPU, "gpu", 0, "LIST", "run profile",
     "only these GPUs: 1 or 0,2, GPU-UUID (or prefix), PCI bus id"},
    {OPT_CPU, "cpu", 0, NULL, "run profile", "no GPU at all (CUDA_VISIBLE_DEVICES empty)"},
    {OPT_PYTHON, "python", 0, "PATH", "run profile",
     "in this interpreter's venv or conda env, as if activated"},
    {OPT_ENV, "env", 0, "NAME", "run profile",
     "in this conda env or venv, by name or by folder"},
    {OPT_FORMAT, "format", 0, "FORMAT", "profile",
     "sh, bat, ps1, env (dotenv) or vscode (launch.json)"},
    {OPT_OUTPUT, "output", 'o', "FILE", "profile",
     "write to FILE (default stdout; vscode .vscode/launch.json)"},
    {OPT_NAME, "name", 0, "NAME", "profile", "the profile's name (default: from the GPUs)"},
    /* snapshot and diff */
    {OPT_OUTPUT, "output", 'o', "FILE", "snapshot",
     "write to FILE, - for stdout (default: dlenv-snapshot-HOST-YYYYMMDD-HHMMSS.json here, "
     "UTC; --lock: stdout)"},
    {OPT_LOCK, "lock", 0, NULL, "snapshot",
     "write the exact reinstall commands of the torch stack of `python` (or --python)"},
    {OPT_VERBOSE, "verbose", 'v', NULL, "diff",
     "also show volatile values (clocks, memory in use, timings)"},
    {OPT_DRIVER, "driver", 0, "VERSION", "plan",
     "its NVIDIA driver: 535.104.05 or the Windows form 31.0.15.3598"},
    {OPT_ASCII, "ascii", 0, NULL, NULL, "plain ASCII output, no symbols"},
    {OPT_COLOR, "color", 0, "WHEN", NULL, "colour: auto (a terminal, no NO_COLOR), always, never"},
    {OPT_NO_COLOR, "no-color", 0, NULL, NULL, "same as --color never"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const dl_command *dl_cli_find_command(const char *name)
{
    size_t i;
    for (i = 0; name && i < COUNT(commands); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static bool applies_to(const option_spec *o, const char *command)
{
    const char *p;
    size_t n;
    if (!o->commands || !command)
        return true;
    n = strlen(command);
    for (p = strstr(o->commands, command); p; p = strstr(p + 1, command))
        if ((p == o->commands || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

/* One option may have a row per group of commands (--gpu: plan's machine, run's choice):
 * it applies when any of its rows does. */
static bool applies_any(const option_spec *o, const char *command)
{
    size_t i;
    for (i = 0; i < COUNT(options); i++)
        if (options[i].id == o->id && applies_to(&options[i], command))
            return true;
    return false;
}

/* run and profile write take a command after their options: the first argument that is
 * not an option (or everything after `--`) and the rest, untouched. */
static bool takes_command(const dl_cli *cli)
{
    return cli->command && (!strcmp(cli->command, "run") ||
                            (!strcmp(cli->command, "profile") && cli->action));
}

static const option_spec *find_long(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < COUNT(options); i++)
        if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
            return &options[i];
    return NULL;
}

static const option_spec *find_short(char c)
{
    size_t i;
    for (i = 0; i < COUNT(options); i++)
        if (options[i].short_name && options[i].short_name == c)
            return &options[i];
    return NULL;
}

/* Timeouts are kept in whole milliseconds, where 0 means "the default": below 1 ms a
 * value would silently become the default (0.0004 s waited 60 s), so it is refused, as
 * is anything over an hour, NaN, a sign, and text strtod would take but is no plain
 * number ("inf", " 5", "0x10"). */
#define MIN_SECONDS 0.001
#define MAX_SECONDS 3600.0

static bool parse_seconds(const option_spec *o, const char *value, double *out, char **error)
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

static bool apply(const option_spec *o, const char *value, dl_cli *cli, char **error)
{
    switch (o->id) {
    case OPT_HELP: cli->help = true; break;
    case OPT_VERSION: cli->version = true; break;
    case OPT_ROOT: cli->root = value; break;
    case OPT_JSON: cli->json = true; break;
    case OPT_ASCII: cli->ascii = true; break;
    case OPT_NO_COLOR: cli->color = DL_COLOR_NEVER; break;
    case OPT_PROBE_TIMEOUT:
        return parse_seconds(o, value, &cli->probe_timeout_s, error);
    case OPT_IMPORT_TIMEOUT:
        return parse_seconds(o, value, &cli->import_timeout_s, error);
    case OPT_PYTHON: cli->python = value; break;
    case OPT_NO_RUNTIME: cli->no_runtime = true; break;
    case OPT_MARKDOWN: cli->markdown = true; break;
    case OPT_REDACT: cli->redact = true; break;
    case OPT_VERBOSE: cli->verbose = true; break;
    case OPT_LIST_CHECKS: cli->list_checks = true; break;
    case OPT_CHECK: cli->check = value; break;
    case OPT_STRICT: cli->strict = true; break;
    case OPT_DATA: cli->data_dir = value; break;
    case OPT_WHY: cli->why = true; break;
    case OPT_QUICK: cli->quick = true; break;
    case OPT_FULL: cli->full = true; break;
    case OPT_FROM: cli->from = value; break;
    case OPT_OFFLINE: cli->offline = true; break;
    case OPT_TORCH: cli->torch = value; break;
    case OPT_FOR: cli->for_kind = value; break;
    case OPT_INDEX_MIRROR: cli->index_mirror = value; break;
    case OPT_OS: cli->os = value; break;
    case OPT_ARCH: cli->arch = value; break;
    case OPT_DRIVER: cli->driver = value; break;
    case OPT_CPU: cli->cpu = true; break;
    case OPT_ENV: cli->env_name = value; break;
    case OPT_FORMAT: cli->format = value; break;
    case OPT_OUTPUT: cli->output = value; break;
    case OPT_NAME: cli->name = value; break;
    case OPT_LOCK: cli->lock = true; break;
    case OPT_GPU:
        if (cli->n_gpus == DL_CLI_MAX_GPUS) {
            *error = dl_fmt("--gpu given more than %d times", DL_CLI_MAX_GPUS);
            return false;
        }
        cli->gpus[cli->n_gpus++] = value;
        break;
    case OPT_COLOR:
        if (strcmp(value, "auto") == 0)
            cli->color = DL_COLOR_AUTO;
        else if (strcmp(value, "always") == 0)
            cli->color = DL_COLOR_ALWAYS;
        else if (strcmp(value, "never") == 0)
            cli->color = DL_COLOR_NEVER;
        else {
            *error = dl_fmt("--color takes auto, always or never, not '%s'", value);
            return false;
        }
        break;
    }
    return true;
}

/* One "--name[=value]" or "-x" at argv[*i]; may consume the next argument as its value. */
static const option_spec *parse_one(int argc, char **argv, int *i, const char **value,
                                    char **error)
{
    const char *a = argv[*i];
    const option_spec *o;
    const char *eq = NULL;
    if (a[1] == '-') {
        eq = strchr(a + 2, '=');
        o = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
    } else {
        o = a[2] == '\0' ? find_short(a[1]) : NULL;
    }
    if (!o) {
        *error = dl_fmt("unknown option '%s' (see 'dlenv --help')", a);
        return NULL;
    }
    *value = NULL;
    if (o->arg) {
        if (eq)
            *value = eq + 1;
        else if (*i + 1 < argc)
            *value = argv[++*i];
        else {
            *error = dl_fmt("--%s needs a value (%s)", o->name, o->arg);
            return NULL;
        }
    } else if (eq) {
        *error = dl_fmt("--%s takes no value", o->name);
        return NULL;
    }
    return o;
}

bool dl_cli_parse(int argc, char **argv, dl_cli *cli, char **error)
{
    const option_spec *seen[64];
    size_t nseen = 0, k;
    int i;
    memset(cli, 0, sizeof *cli);
    cli->argv0 = argc > 0 ? argv[0] : NULL;
    *error = NULL;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *value;
        const option_spec *o;
        if (takes_command(cli) && (!strcmp(a, "--") || a[0] != '-' || a[1] == '\0')) {
            i += !strcmp(a, "--");
            cli->command_argv = argv + i;
            cli->command_argc = (size_t)(argc - i);
            break;
        }
        if (a[0] != '-' || a[1] == '\0') {
            if (cli->command && !strcmp(cli->command, "profile") && !cli->action) {
                cli->action = a; /* profile write */
                continue;
            }
            if (cli->command && !strcmp(cli->command, "diff") && !cli->input2) {
                *(cli->input ? &cli->input2 : &cli->input) = a; /* diff A B */
                continue;
            }
            if (cli->command && !strcmp(cli->command, "explain") && !cli->input) {
                cli->input = a; /* explain FILE|- */
                continue;
            }
            if (cli->command) {
                *error = dl_fmt("unexpected argument '%s'", a);
                return false;
            }
            if (!dl_cli_find_command(a)) {
                *error = dl_fmt("unknown command '%s' (see 'dlenv --help')", a);
                return false;
            }
            cli->command = a;
            continue;
        }
        o = parse_one(argc, argv, &i, &value, error);
        if (!o || !apply(o, value, cli, error))
            return false;
        if (nseen < COUNT(seen))
            seen[nseen++] = o;
    }
    /* Checked after the loop so that options may come before the command. */
    for (k = 0; k < nseen && !cli->help; k++)
        if (!applies_any(seen[k], cli->command)) {
            *error = dl_fmt("--%s does not apply to '%s'", seen[k]->name,
                            cli->command ? cli->command : "dlenv");
            return false;
        }
    /* --from's facts come from the file: a --root beside it would be ignored */
    if (cli->root && cli->from && !cli->help) {
        *error = dl_strdup("--root and --from exclude each other: --from reads a saved "
                           "report, --root a machine's files");
        return false;
    }
    return true;
}

static void option_help(FILE *out, const option_spec *o)
{
    char left[48];
    if (o->short_name)
        snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    else
        snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    fprintf(out, "  %-22s %s\n", left, o->help);
}

/* What a command takes besides its options, and what its help says after them. */
static const struct {
    const char *command, *usage, *notes;
} command_help[] = {
    {"explain", " [FILE|-] [options]", NULL},
    {"snapshot", " [-o FILE] [--lock] [options]",
     "\nThe snapshot is one JSON document: {\"schema\": \"dlenv.snapshot/1\", \"taken_at\",\n"
     "\"host\", \"verdict\", \"root_cause\", \"findings\", \"facts\"} (facts: `dlenv report\n"
     "--json`). Files are written whole: a temporary file, then renamed over FILE.\n"
     "--lock writes pip (or uv, or conda) commands that pin every package of the torch\n"
     "stack with its local tag, each from its index (download.pytorch.org/whl/cu121, PyPI).\n"
     "Exit 1 with --lock: the interpreter has no torch.\n"},
    {"diff", " A B [options]",
     "\nA and B are snapshots (or `dlenv report --json` / `dlenv doctor --json` files); - is\n"
     "this machine now. Changes come in the order that matters: driver, CUDA, torch,\n"
     "Python, libraries on the path, settings, then the rest; then the findings that\n"
     "appeared or went away. Exit 0 equal, 1 different, 4 a file is unreadable or not a\n"
     "snapshot (or from a newer dlenv).\n"},
    {"run", " [options] [--] COMMAND [ARGS...]",
     "\nSets CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER=PCI_BUS_ID (indices as nvidia-smi shows\n"
     "them), HIP_VISIBLE_DEVICES and ZE_AFFINITY_MASK, and with --python/--env what activate\n"
     "would (PATH, VIRTUAL_ENV or CONDA_PREFIX), then runs COMMAND in its place, arguments\n"
     "untouched (no shell). Example: dlenv run --gpu 1 --env torch -- python train.py\n"
     "\nExit codes: the command's own. Before it starts: 2 usage error, 4 no such GPU,\n"
     "interpreter or env, 126 the command cannot run, 127 it is not found.\n"},
    {"profile", " write [options] [--] [COMMAND [ARGS...]]",
     "\nWrites what `dlenv run` with the same options would do as a file. Without COMMAND the\n"
     "launcher runs the command it is given (vscode: the file open in the editor). The\n"
     "vscode format adds or replaces the configuration of the same name in launch.json.\n"
     "Example: dlenv profile write --gpu 0,2 --format sh -o gpus02.sh\n"},
};

static size_t help_index(const char *command)
{
    size_t i;
    for (i = 0; command && i < COUNT(command_help); i++)
        if (!strcmp(command_help[i].command, command))
            return i;
    return COUNT(command_help);
}

/* Without a command every option is listed once: the first row of one that has several. */
static bool first_row(size_t i)
{
    size_t j;
    for (j = 0; j < i; j++)
        if (options[j].id == options[i].id)
            return false;
    return true;
}

void dl_cli_help(FILE *out, const char *command)
{
    size_t i;
    const dl_command *c = dl_cli_find_command(command);
    size_t h = help_index(command);
    if (c) {
        fprintf(out, "Usage: dlenv %s%s\n\n%s.\n\nOptions:\n", c->name,
                h < COUNT(command_help) ? command_help[h].usage : " [options]", c->summary);
    } else {
        fprintf(out, "dlenv %s: makes a PyTorch environment work on the first try\n\n"
                     "Usage: dlenv <command> [options]\n\nCommands:\n",
                DLENV_VERSION);
        for (i = 0; i < COUNT(commands); i++)
            fprintf(out, "  %-22s %s\n", commands[i].name, commands[i].summary);
        fprintf(out, "\nOptions:\n");
    }
    for (i = 0; i < COUNT(options); i++)
        if (c ? applies_to(&options[i], c->name) : first_row(i))
            option_help(out, &options[i]);
    if (h < COUNT(command_help) && command_help[h].notes)
        fputs(command_help[h].notes, out);
    if (!c || strcmp(c->name, "run"))
        fprintf(out, "\nExit codes: 0 ok, 1 a failure was found, 2 usage error, 3 dlenv failed, "
                     "4 unusable input.\n");
}
