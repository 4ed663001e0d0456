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
    const dl_table *t = dl_knowledge_table(k, "torch_wheels");
    size_t r;
    for (r = 0; t && r < t->rows; r++)
        if (!strcmp(dl_table_get(t, r, "torch_version"), torch) &&
            !strcmp(dl_table_get(t, r, "platform"), platform)) {
            const char *tags = dl_table_get(t, r, "platform_tags");
            return tags && *tags ? tags : NULL;
        }
    return NULL;
}

static void offline(const dl_knowledge *k, const dl_plan *p, const dl_plan_candidate *c,
                    const dl_plan_machine *m, const char *python, const char *index,
                    dl_plan_commands *out)
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
                           index ? out->index_url : "", pyver, first ? " --platform " : "",
                           first ? first : "");
    out->install_downloaded = dl_fmt("%s -m pip install --no-index --find-links wheels %s",
                                     python, out->packages);
    free(first);
}

void dl_plan_commands_make(const dl_knowledge *k, const dl_plan *p, const dl_plan_candidate *c,
                           const dl_plan_machine *m, const char *python, const char *mirror,
                           dl_plan_commands *out)
{
    const char *base = mirror && *mirror ? mirror : DL_PLAN_DEFAULT_INDEX;
    size_t blen = strlen(base);
    char uv_python[512];
    memset(out, 0, sizeof *out);
    if (!python)
        python = "python";
    out->packages = packages(c);
    if (m->os != DL_PLAN_OS_MACOS)
        out->index_url = dl_fmt("%.*s/%s", (int)(base[blen - 1] == '/' ? blen - 1 : blen), base,
                                c->variant);
    out->pip = dl_fmt("%s -m pip install %s%s%s", python, out->packages,
                      out->index_url ? " --index-url " : "", out->index_url ? out->index_url : "");
    /* uv's --python takes a path or a version, not a launcher command ("py -3.12"), nor
     * PowerShell's call operator (& "C:\Program Files\...\python.exe"). */
    if (!strchr(python, '/') && !strchr(python, '\\') && m->py_major)
        snprintf(uv_python, sizeof uv_python, "%u.%u", m->py_major, m->py_minor);
    else
        snprintf(uv_python, sizeof uv_python, "%s",
                 dl_starts_with(python, "& ") ? python + 2 : python);
    out->uv = dl_fmt("uv pip install --python %s %s%s%s", uv_python, out->packages,
                     out->index_url ? " --index-url " : "", out->index_url ? out->index_url : "");
    /* PyTorch stopped publishing conda packages (2.6): in a conda env, pip of that env. */
    out->conda = dl_fmt("conda activate <env> && python -m pip install %s%s%s", out->packages,
                        out->index_url ? " --index-url " : "",
                        out->index_url ? out->index_url : "");
    offline(k, p, c, m, python, out->index_url ? base : NULL, out);
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
