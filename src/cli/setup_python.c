#include "cli/setup_python.h"

#include "cli/exit_codes.h"
#include "cli/output.h"

#include "base/str.h"
#include "os/os.h"
#include "setup/commands.h"

#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#define THIS_OS "windows"
#elif defined(__APPLE__)
#define THIS_OS "macos"
#else
#define THIS_OS "linux"
#endif

/* The interpreter path a command prints (`py -3.12 -c ...`, `uv python find 3.12`), when
 * it ends well and that path exists; NULL otherwise. */
static char *path_answered(const dl_strv *argv)
{
    char *found = NULL;
    dl_proc_opts o;
    dl_proc_result r;
    const char **v = dl_xcalloc(argv->n + 1, sizeof *v);
    size_t i;
    for (i = 0; i < argv->n; i++)
        v[i] = argv->v[i];
    memset(&o, 0, sizeof o);
    o.timeout_ms = 30000;
    o.max_output = 1u << 16;
    dl_proc_run(v, &o, &r);
    if (r.started && r.exited && r.exit_code == 0 && r.out) {
        const char *path = dl_trim(r.out);
        if (*path && dl_path_kind(path) != DL_FS_NONE)
            found = dl_strdup(path);
    }
    dl_proc_result_free(&r);
    free(v);
    return found;
}

/* The interpreter of version X.Y by the launcher `py -X.Y` (Windows), when there is one on
 * PATH and it knows that version: the path it answers. NULL otherwise. */
static char *by_launcher(const char *version)
{
    char *py = dl_proc_find("py", dl_env_get("PATH")), *found;
    dl_strv argv = {0};
    if (!py)
        return NULL;
    dl_setup_py_launcher_argv(py, version, &argv);
    found = path_answered(&argv);
    dl_strv_free(&argv);
    free(py);
    return found;
}

/* The Python X.Y uv would make the environment from (a system one or one uv installed
 * earlier; never a download): `uv python find --system X.Y`. NULL when it has none. */
static char *by_uv(const char *uv, const char *version)
{
    dl_strv argv = {0};
    char *found;
    dl_setup_uv_find_python_argv(uv, version, &argv);
    found = path_answered(&argv);
    dl_strv_free(&argv);
    return found;
}

/* No Python X.Y: which to install, for this system, and how uv could fetch it. */
static int no_python(const dl_setup_job *job)
{
    const char *v = job->python_version;
    const char *uv_options = !job->uv ? NULL
                             : job->tool == DL_TOOL_UV ? "--allow-python-download"
                                                       : "--tool uv --allow-python-download";
    char *hint = dl_setup_python_install_hint(THIS_OS, v, uv_options);
    dl_cli_error("no Python %s to make the environment from%s: %s", v,
                 job->cli->allow_python_download && !job->uv
                     ? " (--allow-python-download: uv is not on PATH to fetch it)"
                     : "", hint);
    free(hint);
    return DL_EXIT_NO_PYTHON;
}

int dl_setup_python_of_version(dl_setup_job *job)
{
    if (job->tool == DL_TOOL_UV) {
        job->base_python = by_uv(job->uv, job->python_version);
        job->fetch_python = !job->base_python && job->cli->allow_python_download;
        if (job->fetch_python)
            job->base_python = dl_strdup(job->python_version);
    } else {
        char *name = dl_fmt("python%s", job->python_version);
        job->base_python = dl_proc_find(name, dl_env_get("PATH"));
        free(name);
        if (!job->base_python)
            job->base_python = by_launcher(job->python_version);
    }
    return job->base_python ? DL_EXIT_OK : no_python(job);
}
