#include "cli/setup_conda.h"

#include "base/shell.h"
#include "base/str.h"
#include "os/os.h"
#include "setup/commands.h"
#include "setup/user_shell.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONDA_TIMEOUT_MS (10 * 60 * 1000)

#ifdef _WIN32
#define THIS_WINDOWS true
#else
#define THIS_WINDOWS false
#endif

char *dl_setup_find_conda(void)
{
    const char *exe = dl_env_get("CONDA_EXE");
    if (exe && *exe && dl_path_kind(exe) == DL_FS_FILE)
        return dl_strdup(exe);
    return dl_proc_find("conda", dl_env_get("PATH"));
}

char *dl_setup_conda_named_prefix(const char *conda, const char *name, char **error)
{
    const char *argv[] = {conda, "info", "--json", NULL};
    dl_proc_opts o;
    dl_proc_result r;
    cJSON *doc = NULL, *dirs;
    char *prefix = NULL;
    memset(&o, 0, sizeof o);
    o.timeout_ms = 120000;
    o.max_output = 4u << 20;
    dl_proc_run(argv, &o, &r);
    if (r.started && r.exited && r.exit_code == 0 && r.out)
        doc = cJSON_Parse(r.out);
    dirs = cJSON_GetObjectItemCaseSensitive(doc, "envs_dirs");
    if (cJSON_IsArray(dirs) && cJSON_IsString(cJSON_GetArrayItem(dirs, 0)))
        prefix = dl_path_join(cJSON_GetArrayItem(dirs, 0)->valuestring, name);
    else
        *error = dl_fmt("--name %s: `%s info --json` did not say where conda keeps its "
                        "environments (envs_dirs); give the prefix as PATH instead", name, conda);
    cJSON_Delete(doc);
    dl_proc_result_free(&r);
    return prefix;
}

/* Runs argv (freed here), its output shown; NULL when it ended well, else how it ended. */
static char *run_shown(dl_strv *argv)
{
    dl_proc_opts o;
    dl_proc_result r;
    const char **v = dl_xcalloc(argv->n + 1, sizeof *v);
    bool known;
    char *line = dl_setup_argv_line(dl_setup_user_shell(THIS_WINDOWS, &known), argv);
    char *how = NULL;
    size_t i;
    for (i = 0; i < argv->n; i++)
        v[i] = argv->v[i];
    printf("\n$ %s\n", line);
    fflush(stdout);
    memset(&o, 0, sizeof o);
    o.timeout_ms = CONDA_TIMEOUT_MS;
    o.echo = true;
    o.max_output = 1u << 20;
    dl_proc_run(v, &o, &r);
    if (!r.started)
        how = dl_fmt("`%s` could not start: %s", line, r.error ? r.error : "unknown");
    else if (!r.exited || r.exit_code != 0 || r.timed_out)
        how = dl_fmt("`%s` failed (exit %d%s)", line, r.exit_code,
                     r.timed_out ? ", timed out" : "");
    dl_proc_result_free(&r);
    free(v);
    free(line);
    dl_strv_free(argv);
    return how;
}

bool dl_setup_conda_swap(const char *conda, const dl_setup_layout *l, bool *kept,
                         char **error)
{
    dl_strv argv = {0};
    char *how;
    *kept = false;
    if (dl_path_kind(l->previous) != DL_FS_NONE) {
        dl_setup_conda_remove_argv(conda, l->previous, &argv);
        if ((how = run_shown(&argv)) != NULL) {
            *error = dl_fmt("the older previous environment %s could not be removed: %s",
                            l->previous, how);
            free(how);
            return false;
        }
    }
    if (dl_path_kind(l->target) != DL_FS_NONE) {
        dl_setup_conda_rename_argv(conda, l->target, l->previous, &argv);
        if ((how = run_shown(&argv)) != NULL) {
            *error = dl_fmt("%s could not be moved aside (it is as it was): %s", l->target, how);
            free(how);
            return false;
        }
        *kept = true;
    }
    dl_setup_conda_rename_argv(conda, l->staging, l->target, &argv);
    if ((how = run_shown(&argv)) == NULL)
        return true;
    *error = dl_fmt("the new environment could not be moved into place: %s", how);
    free(how);
    if (*kept) {
        dl_setup_conda_rename_argv(conda, l->previous, l->target, &argv);
        if ((how = run_shown(&argv)) != NULL) {
            char *more = dl_fmt("%s; and putting the previous one back failed too: %s (it is "
                                "at %s)", *error, how, l->previous);
            free(*error);
            free(how);
            *error = more;
        }
        *kept = false;
    }
    return false;
}

bool dl_setup_conda_rollback(const char *conda, const dl_setup_layout *l, char **error)
{
    dl_strv argv = {0};
    char *how;
    if (dl_path_kind(l->previous) == DL_FS_NONE) {
        *error = dl_fmt("no previous environment of %s to roll back to (%s)", l->target,
                        l->previous);
        return false;
    }
    dl_setup_conda_rename_argv(conda, l->target, l->staging, &argv);
    if ((how = run_shown(&argv)) != NULL) {
        *error = dl_fmt("%s could not be moved aside (nothing changed): %s", l->target, how);
        free(how);
        return false;
    }
    dl_setup_conda_rename_argv(conda, l->previous, l->target, &argv);
    if ((how = run_shown(&argv)) != NULL) {
        *error = dl_fmt("the previous environment could not be moved into place: %s", how);
        free(how);
        dl_setup_conda_rename_argv(conda, l->staging, l->target, &argv);
        if ((how = run_shown(&argv)) != NULL) {
            char *more = dl_fmt("%s; and putting %s back failed too: %s (it is at %s)", *error,
                                l->target, how, l->staging);
            free(*error);
            free(how);
            *error = more;
        }
        return false;
    }
    dl_setup_conda_rename_argv(conda, l->staging, l->previous, &argv);
    if ((how = run_shown(&argv)) != NULL) {
        *error = dl_fmt("rolled back, but the replaced environment stays at %s: %s", l->staging,
                        how);
        free(how);
        return false;
    }
    return true;
}
