/* The commands that install a planned candidate: pip of the chosen interpreter, uv,
 * inside conda, and for a machine without internet the wheel files to fetch elsewhere. */
#ifndef DLENV_PLAN_COMMANDS_H
#define DLENV_PLAN_COMMANDS_H

#include "base/str.h"
#include "plan/plan.h"
#include "plan/python_command.h"

#define DL_PLAN_DEFAULT_INDEX "https://download.pytorch.org/whl"

typedef struct dl_plan_commands {
    char *packages;    /* "torch==2.9.1 torchvision==0.24.1 torchaudio==2.9.1" */
    char *index_url;   /* NULL for the macOS wheels (PyPI) */
    char *pip;
    char *uv;
    char *conda;
    char *torch_wheel; /* the torch wheel's file name, when the platform tag is known */
    char *torch_url;
    char *download;    /* pip download for another machine: every file incl. dependencies */
    char *install_downloaded;
} dl_plan_commands;

/* Each command is one line for the machine's shell (PowerShell for Windows), its values
 * quoted. py: how to start the interpreter; mirror: --index-mirror, replacing
 * https://download.pytorch.org/whl. */
void dl_plan_commands_make(const dl_knowledge *k, const dl_plan *p, const dl_plan_candidate *c,
                           const dl_plan_machine *m, const dl_python_command *py,
                           const char *mirror, dl_plan_commands *out);
void dl_plan_commands_free(dl_plan_commands *c);

#endif
