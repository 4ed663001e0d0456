#include "plan/python_command.h"

#include <stdlib.h>
#include <string.h>

/* Where the venv for a distribution's Python goes: a literal the shell expands (~), so it
 * is written bare, never quoted. */
#define VENV_DIR "~/.venvs/torch"

dl_shell dl_plan_shell(const dl_plan_machine *m)
{
    return m->os == DL_PLAN_OS_WINDOWS ? DL_SHELL_POWERSHELL : DL_SHELL_POSIX;
}

/* "3.12", "3.13t"; "" when the version is unknown. */
static char *version_text(const dl_plan_machine *m)
{
    if (!m->py_major)
        return dl_strdup("");
    return dl_fmt("%u.%u%s", m->py_major, m->py_minor, m->py_free_threaded ? "t" : "");
}

static void described(dl_shell sh, const dl_plan_machine *m, dl_python_command *out)
{
    char *v = version_text(m);
    if (sh == DL_SHELL_POWERSHELL)
        out->run = *v ? dl_fmt("py -%s", v) : dl_strdup("py");
    else
        out->run = *v ? dl_fmt("python%s", v) : dl_strdup("python3");
    out->uv_python = *v ? dl_strdup(v) : dl_strdup(out->run);
    free(v);
}

void dl_python_command_make(dl_shell sh, const char *path, bool externally_managed,
                            const char *conda_env, const dl_plan_machine *m,
                            dl_python_command *out)
{
    char *program;
    memset(out, 0, sizeof *out);
    out->conda_env = dl_strdup(conda_env);
    if (!path) {
        described(sh, m, out);
        return;
    }
    program = dl_shell_program(sh, path);
    if (externally_managed && sh == DL_SHELL_POSIX) {
        out->make_venv = dl_fmt("%s -m venv " VENV_DIR, program);
        out->run = dl_strdup(VENV_DIR "/bin/python");
        out->uv_python = dl_strdup(VENV_DIR "/bin/python");
        free(program);
        return;
    }
    out->run = program;
    out->uv_python = dl_shell_quote(sh, path);
}

void dl_python_command_free(dl_python_command *c)
{
    free(c->run);
    free(c->uv_python);
    free(c->make_venv);
    free(c->conda_env);
    memset(c, 0, sizeof *c);
}
