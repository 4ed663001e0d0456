/* dlenv run: a command on the CPU or on chosen GPUs, optionally inside a venv or conda
 * env, with the variables each framework honours set and the GPUs checked to exist. The
 * command then takes dlenv's place (exec on POSIX; on Windows a child whose exit code is
 * passed back, Ctrl+C left to it). Its arguments go through untouched: no shell. */
#include "cli/exit_codes.h"
#include "cli/commands.h"
#include "cli/run_setup.h"
#include "cli/output.h"

#include "base/str.h"
#include "os/os.h"
#include "run/run_env.h"

#include <stdio.h>
#include <stdlib.h>

/* As a shell reports them: 127 the command is not found, 126 it cannot be run. */
enum { EXIT_CANNOT_RUN = 126, EXIT_NOT_FOUND = 127 };

static bool windows(void)
{
    return dl_path_list_separator() == ';';
}

/* This process's environment with the changes: the command's own. */
static void child_environment(const dl_run_setup *s, dl_strv *env)
{
    dl_strv base = {0};
    dl_env_snapshot(&base);
    dl_env_apply((const char *const *)base.v, base.n, &s->changes, windows(),
                 dl_path_list_separator(), env);
    dl_strv_free(&base);
}

static int start(const dl_run_setup *s)
{
    dl_strv env = {0}, argv = {0};
    char *program, *error = NULL;
    int code = EXIT_NOT_FOUND;
    size_t i;
    child_environment(s, &env);
    /* found on the PATH the command will have: a venv's bin/ comes first */
    program = dl_proc_find(s->argv.v[0], dl_env_lookup(&env, "PATH", windows()));
    if (!program) {
        dl_cli_error("%s: command not found", s->argv.v[0]);
    } else {
        for (i = 0; i < s->argv.n; i++)
            dl_strv_add(&argv, dl_strdup(s->argv.v[i]));
        dl_strv_add(&argv, NULL); /* both lists end with NULL for the exec */
        dl_strv_add(&env, NULL);
        code = EXIT_CANNOT_RUN;
        if (!dl_proc_exec(program, (const char *const *)argv.v, (const char *const *)env.v,
                          &code, &error))
            dl_cli_error("%s", error); /* code: 127 or 126, as shells say */
    }
    free(error);
    free(program);
    dl_strv_free(&argv);
    dl_strv_free(&env);
    return code;
}

const dl_option dl_run_options[] = {
    DL_OPTS_RUN,
    DL_OPT_END,
};

int dl_cmd_run(const dl_cli *cli, const dl_context *ctx)
{
    dl_run_setup s;
    int code = dl_run_setup_make(cli, true, &s);
    (void)ctx;
    if (code == DL_EXIT_OK)
        code = start(&s);
    dl_run_setup_free(&s);
    return code;
}
