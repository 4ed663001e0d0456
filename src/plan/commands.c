#include "plan/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *packages(const dl_plan_candidate *c)
{
    dl_buf b = {0};
    dl_buf_printf(&b, "torch==%s", c->torch);
    if (c->torchvision[0])
        dl_buf_printf(&b, " torchvision==%s", c->torchvision);
    if (c->torchaudio[0])
        dl_buf_printf(&b, " torchaudio==%s", c->torchaudio);
    return dl_buf_take(&b);
}

/* The platform tag PyPI's torch wheels of this release use here, e.g.
 * manylinux_2_28_x86_64; NULL when the table does not say. */
static const char *platform_tag(const dl_knowledge *k, const char *torch, const char *platform)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_wheels);
    size_t r;
    for (r = 0; t && r < t->rows; r++)
        if (!strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_torch_version), torch) &&
            !strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_platform), platform)) {
            const char *tags = dl_table_cell(t, r, DL_COL_torch_wheels_platform_tags);
            return tags && *tags ? tags : NULL;
        }
    return NULL;
}

static void offline(const dl_knowledge *k, const dl_plan *p, const dl_plan_candidate *c,
                    const dl_plan_machine *m, const char *python, const char *index,
                    const char *index_arg, dl_plan_commands *out)
{
    char pyver[48] = "";
    const char *tags = platform_tag(k, c->torch, p->platform);
    char *first = tags ? dl_strndup(tags, strcspn(tags, ";")) : NULL;
    bool local = index != NULL;
    char abi[16];
    snprintf(abi, sizeof abi, "%s", p->python_tag);
    if (first && p->python_tag[0]) {
        size_t n = strlen(abi);
        /* A free-threaded wheel is cp313-cp313t: the Python tag has no "t". */
        char py[16];
        snprintf(py, sizeof py, "%.*s", (int)(abi[n - 1] == 't' ? n - 1 : n), abi);
        out->torch_wheel = dl_fmt("torch-%s%s%s-%s-%s-%s.whl", c->torch, local ? "+" : "",
                                  local ? c->variant : "", py, abi, first);
        out->torch_url = local ? dl_fmt("%s/%s/torch-%s%%2B%s-%s-%s-%s.whl", index,
                                        c->variant, c->torch, c->variant, py, abi, first)
                               : dl_fmt("https://pypi.org/project/torch/%s/#files", c->torch);
    }
    if (m->py_major)
        snprintf(pyver, sizeof pyver, " --python-version %u.%u", m->py_major, m->py_minor);
    out->download = dl_fmt("%s -m pip download %s%s%s --only-binary=:all:%s%s%s -d wheels",
                           python, out->packages, index ? " --index-url " : "",
                           index ? index_arg : "", pyver, first ? " --platform " : "",
                           first ? first : "");
    out->install_downloaded = dl_fmt("%s -m pip install --no-index --find-links wheels %s",
                                     python, out->packages);
    free(first);
}

/* conda: PyTorch stopped publishing conda packages (2.6), so pip inside the environment,
 * run there with `conda run` (no activation needed in the pasting shell); a new env named
 * torch when the interpreter is not in one. */
static char *conda_line(dl_shell sh, const dl_plan_machine *m, const dl_python_command *py,
                        const char *pip_args)
{
    char *env, *line, *python;
    if (py->conda_env) {
        env = dl_shell_quote(sh, py->conda_env);
        line = dl_fmt("conda run -p %s python -m pip install %s", env, pip_args);
        free(env);
        return line;
    }
    /* Windows PowerShell 5.1 has no &&: there the two commands are separated by ';'. A
     * free-threaded Python is conda-forge's python-freethreading. */
    python = !m->py_major ? dl_strdup("python")
             : m->py_free_threaded ? dl_fmt("-c conda-forge python-freethreading=%u.%u",
                                            m->py_major, m->py_minor)
                                   : dl_fmt("python=%u.%u", m->py_major, m->py_minor);
    line = dl_fmt("conda create -y -n torch %s%s conda run -n torch python -m pip install %s",
                  python, sh == DL_SHELL_POWERSHELL ? ";" : " &&", pip_args);
    free(python);
    return line;
}

void dl_plan_commands_make(const dl_knowledge *k, const dl_plan *p, const dl_plan_candidate *c,
                           const dl_plan_machine *m, const dl_python_command *py,
                           const char *mirror, dl_plan_commands *out)
{
    const char *base = mirror && *mirror ? mirror : DL_PLAN_DEFAULT_INDEX;
    size_t blen = strlen(base);
    dl_shell sh = dl_plan_shell(m);
    char *index_arg = NULL, *args;
    memset(out, 0, sizeof *out);
    out->packages = packages(c);
    if (m->os != DL_PLAN_OS_MACOS) {
        out->index_url = dl_fmt("%.*s/%s", (int)(base[blen - 1] == '/' ? blen - 1 : blen), base,
                                c->variant);
        index_arg = dl_shell_quote(sh, out->index_url);
    }
    args = dl_fmt("%s%s%s", out->packages, index_arg ? " --index-url " : "",
                  index_arg ? index_arg : "");
    out->pip = dl_fmt("%s -m pip install %s", py->run, args);
    out->uv = dl_fmt("uv pip install --python %s %s", py->uv_python, args);
    out->conda = conda_line(sh, m, py, args);
    offline(k, p, c, m, py->run, out->index_url ? base : NULL, index_arg, out);
    free(args);
    free(index_arg);
}

void dl_plan_commands_free(dl_plan_commands *c)
{
    free(c->packages);
    free(c->index_url);
    free(c->pip);
    free(c->uv);
    free(c->conda);
    free(c->torch_wheel);
    free(c->torch_url);
    free(c->download);
    free(c->install_downloaded);
    memset(c, 0, sizeof *c);
}
