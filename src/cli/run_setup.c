#include "cli/run_setup.h"

#include "cli/exit_codes.h"
#include "cli/run_gpus.h"
#include "cli/run_python.h"
#include "cli/output.h"
#include "os/os.h"
#include "run/gpu_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *message)
{
    dl_cli_error("%s", message);
    return DL_EXIT_USAGE;
}

static int check_options(const dl_cli *cli, bool need_command)
{
    if (cli->cpu && cli->n_gpus)
        return usage("--cpu and --gpu exclude each other");
    if (cli->python && cli->env_name)
        return usage("--python and --env exclude each other");
    if (!cli->cpu && !cli->n_gpus && !cli->python && !cli->env_name)
        return usage("nothing to set: give --cpu, --gpu LIST, --python PATH or --env NAME");
    if (need_command && cli->command_argc == 0)
        return usage("no command to run: dlenv run --gpu 1 -- python train.py");
    return DL_EXIT_OK;
}

/* A bare `python` or `python3` means the chosen interpreter; a path stays what it names. */
static bool bare_python(const char *arg)
{
    static const char *const names[] = {"python", "python3", "python.exe", "python3.exe"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (dl_path_list_separator() == ';' ? dl_contains_ci(arg, names[i]) &&
                                                  strlen(arg) == strlen(names[i])
                                            : !strcmp(arg, names[i]))
            return true;
    return false;
}

static char *label_of(const dl_cli *cli, const long *gpus, size_t n, const char *env)
{
    char *list = dl_gpu_index_list(gpus, n), *label;
    const char *what = cli->cpu ? "CPU only" : n ? (n == 1 ? "GPU " : "GPUs ") : "";
    if (env && *what)
        label = dl_fmt("%s%s (env %s)", what, cli->cpu ? "" : list, env);
    else if (env)
        label = dl_fmt("env %s", env);
    else
        label = dl_fmt("%s%s", what, cli->cpu ? "" : list);
    free(list);
    return label;
}

/* --python's env, named by its folder (a venv's "venv" says little, but it is its name). */
static const char *env_folder(const char *prefix)
{
    const char *p, *name = prefix;
    if (!prefix)
        return NULL;
    for (p = prefix; *p; p++)
        if ((*p == '/' || *p == '\\') && p[1])
            name = p + 1;
    return name;
}

static void add_command(const dl_cli *cli, const dl_run_python *py, dl_run_setup *s)
{
    size_t i;
    for (i = 0; i < cli->command_argc; i++)
        dl_strv_add(&s->argv, dl_strdup(i == 0 && py->interpreter && bare_python(cli->command_argv[0])
                                            ? py->interpreter
                                            : cli->command_argv[i]));
}

int dl_run_setup_make(const dl_cli *cli, bool need_command, dl_run_setup *s)
{
    dl_run_python py;
    long *gpus = NULL;
    size_t n = 0;
    int code;
    memset(s, 0, sizeof *s);
    if ((code = check_options(cli, need_command)) != DL_EXIT_OK)
        return code;
    if (cli->n_gpus && (code = dl_run_choose_gpus(cli, &gpus, &n)) != DL_EXIT_OK) {
        free(gpus);
        return code;
    }
    if ((code = dl_run_find_python(cli, &py)) != DL_EXIT_OK) {
        free(gpus);
        return code;
    }
    if (cli->cpu || n)
        dl_env_gpu_changes(&s->changes, cli->cpu, gpus, n);
    if (py.interpreter)
        dl_env_python_changes(&s->changes, py.kind, py.prefix, py.bin_dir,
                              dl_path_list_separator() == ';');
    add_command(cli, &py, s);
    s->interpreter = dl_strdup(py.interpreter);
    s->label = label_of(cli, gpus, n, cli->env_name ? cli->env_name : env_folder(py.prefix));
    free(gpus);
    dl_run_python_free(&py);
    return DL_EXIT_OK;
}

void dl_run_setup_free(dl_run_setup *s)
{
    dl_env_changes_free(&s->changes);
    dl_strv_free(&s->argv);
    free(s->interpreter);
    free(s->label);
    memset(s, 0, sizeof *s);
}
