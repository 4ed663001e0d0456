/* dlenv profile write: what `dlenv run` with the same options would do, as a file for
 * people who prefer one: a shell script, a .bat, a PowerShell script, a dotenv file, or a
 * configuration merged into VS Code's launch.json. Files are written whole or not at all. */
#include "cli/exit_codes.h"
#include "cli/input.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/run_setup.h"

#include "base/str.h"
#include "os/os.h"
#include "run/launch_json.h"
#include "run/launcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAUNCH_JSON_MAX (8u << 20)

const dl_option dl_profile_options[] = {
    DL_OPTS_RUN,
    DL_OPT_LOWER("format", "FORMAT", format, "sh, bat, ps1, env (dotenv) or vscode (launch.json)"),
    DL_OPT_TEXT("output", 'o', "FILE", output,
                "write to FILE (default stdout; vscode .vscode/launch.json)"),
    DL_OPT_TEXT("name", 0, "NAME", name, "the profile's name (default: from the GPUs)"),
    DL_OPT_END,
};

static int usage(const char *message)
{
    dl_cli_error("%s", message);
    return DL_EXIT_USAGE;
}

static int check_options(const dl_cli *cli, dl_launcher_format *format)
{
    const char *p;
    if (!cli->n_args || strcmp(cli->args[0], "write"))
        return usage("profile takes one action, write: dlenv profile write --gpu 1 --format sh");
    if (!cli->format)
        return usage("profile write needs --format: sh, bat, ps1, env or vscode");
    if (!dl_launcher_format_parse(cli->format, format)) {
        char *m = dl_fmt("--format takes %s, not '%s'", dl_launcher_format_names(), cli->format);
        int code = usage(m);
        free(m);
        return code;
    }
    for (p = cli->name; p && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return usage("--name holds a control character");
    return DL_EXIT_OK;
}

static int write_file(const char *path, const char *text, bool executable)
{
    char *error = NULL;
    if (!dl_file_write_atomic(path, text, strlen(text), &error) ||
        (executable && !dl_file_make_executable(path, &error))) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_TOOL;
    }
    return DL_EXIT_OK;
}

/* The launch.json there, or NULL for none; *code is set when it exists but cannot be read. */
static char *existing_text(const char *path, int *code)
{
    FILE *f = dl_fopen(path, "rb");
    size_t len;
    char *text;
    *code = DL_EXIT_OK;
    if (!f)
        return NULL;
    fclose(f);
    text = dl_cli_read_input(path, LAUNCH_JSON_MAX, &len);
    if (!text)
        *code = DL_EXIT_BAD_INPUT;
    return text;
}

/* Without -o: .vscode/launch.json in the current folder, .vscode made if need be. */
static int write_vscode(const dl_cli *cli, const dl_launcher *l)
{
    const char *path = cli->output ? cli->output : ".vscode/launch.json";
    char *error = NULL, *existing, *text;
    bool dropped = false;
    int code;
    if (!cli->output && !dl_dir_make(".vscode", &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_TOOL;
    }
    existing = existing_text(path, &code);
    if (code != DL_EXIT_OK)
        return code;
    text = dl_launch_json_merge(existing, l, &dropped, &error);
    if (!text) {
        dl_cli_error("%s: %s (left as it was)", path, error);
        code = existing ? DL_EXIT_BAD_INPUT : DL_EXIT_USAGE;
    } else if ((code = write_file(path, text, false)) == DL_EXIT_OK) {
        dl_cli_error("wrote the configuration \"%s\" to %s%s", l->name, path,
                dropped ? " (its comments are not kept)" : "");
    }
    free(error);
    free(existing);
    free(text);
    return code;
}

static int write_launcher(const dl_cli *cli, dl_launcher_format format, const dl_launcher *l)
{
    char *error = NULL, *text;
    int code;
    if (format == DL_LAUNCH_VSCODE)
        return write_vscode(cli, l);
    text = dl_launcher_text(format, l, &error);
    if (!text) {
        dl_cli_error("--format %s: %s", cli->format, error);
        free(error);
        return DL_EXIT_USAGE;
    }
    code = cli->output ? write_file(cli->output, text, format == DL_LAUNCH_SH)
                       : dl_cli_write(text, false);
    free(text);
    return code;
}

int dl_cmd_profile(const dl_cli *cli, const dl_context *ctx)
{
    dl_launcher_format format = DL_LAUNCH_SH;
    dl_run_setup s;
    dl_launcher l;
    char *name;
    int code = check_options(cli, &format);
    (void)ctx;
    if (code != DL_EXIT_OK)
        return code;
    if ((code = dl_run_setup_make(cli, false, &s)) != DL_EXIT_OK) {
        dl_run_setup_free(&s);
        return code;
    }
    name = cli->name ? dl_strdup(cli->name) : dl_fmt("dlenv: %s", s.label);
    memset(&l, 0, sizeof l);
    l.name = name;
    l.changes = &s.changes;
    l.argv = (const char *const *)s.argv.v;
    l.argc = s.argv.n;
    l.python = s.interpreter;
    l.windows = dl_path_list_separator() == ';';
    code = write_launcher(cli, format, &l);
    free(name);
    dl_run_setup_free(&s);
    return code;
}
