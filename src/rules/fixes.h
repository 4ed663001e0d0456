/* Fix text shared by rules: the install command for an interpreter, distribution-aware
 * package commands. */
#ifndef DLENV_RULES_FIXES_H
#define DLENV_RULES_FIXES_H

#include "base/shell.h"
#include "rules/rules.h"

#define DL_TORCH_INDEX "https://download.pytorch.org/whl/"

/* "<python> -m pip install --upgrade --force-reinstall torch torchvision torchaudio
 *  --index-url https://download.pytorch.org/whl/<variant>"; variant NULL picks the CUDA
 * variant that fits this machine's driver (dl_fix_cuda_variant); "cpu" asks for the CPU
 * build; "gpu" is for a finding that a GPU is there: where the planner cannot name a GPU
 * build (the GPU unknown) it says how to get one instead of offering the CPU build. */
void dl_fix_install_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                          const char *variant);
/* "<python> -m pip install --force-reinstall [--no-deps] torch==V --index-url <its tag's
 * index>": the same torch again, for a broken install; the plan's command when the
 * version is unknown. */
void dl_fix_reinstall_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                            bool with_dependencies);
/* "<python> -m pip install torch==RELEASE torchvision==PAIR --index-url <the installed
 * torch's CUDA index>": the release that fixes a known-bad one, in the build the installed
 * torch is (2.4.0+cu121 → 2.4.1 from cu121), where the tables list that build for it on this
 * OS. False (nothing added) for a CPU, conda or distribution torch, or an unlisted build. */
bool dl_fix_install_fixed_release(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                                  const char *release);
/* The newest CUDA wheel variant ("cu126") whose CUDA the driver runs, from the knowledge
 * tables; NULL when the tables or the driver's CUDA version are unknown. Caller frees. */
char *dl_fix_cuda_variant(const dl_rule_input *in);

/* The companion (torchvision, torchaudio) torch_releases.csv pairs with the installed torch,
 * from the index torch's local tag names, leaving torch as it is; where the table lacks
 * torch's release, a note saying which to install. False (nothing added) where pip may not
 * install into this Python. */
bool dl_fix_match_companion(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                            const char *name);
/* The shell the fixes for this machine are written for: PowerShell on Windows. */
dl_shell dl_fix_shell(const dl_facts *f);
/* The interpreter as a command for that shell (quoted; "python3" when unknown). Caller
 * frees. */
char *dl_fix_python(const dl_facts *f, const dl_python *py);
/* A step in words, shown as a comment ("# ..."), never pasted as a command. */
void dl_fix_note(dl_finding *x, const char *fmt, ...) DL_PRINTF_LIKE(2, 3);
/* A command that needs root: as it is for root, behind sudo for a user who has it, else
 * after a note saying to run it as root (Windows: in an administrator's PowerShell). */
void dl_fix_as_root(dl_finding *x, const dl_facts *f, const char *fmt, ...)
    DL_PRINTF_LIKE(3, 4);
/* A PATH-like variable's value without some of its entries: those equal to one of drop
 * (NULL: none) and those containing drop_part (NULL: none). Caller frees. */
char *dl_fix_list_without(const char *list, char sep, const dl_strv *drop, const char *drop_part);
/* The command that sets name to value for this session, or removes it when value is empty. */
void dl_fix_set_env(dl_finding *x, const dl_facts *f, const char *name, const char *value);
/* The distribution family for package commands: "ubuntu", "debian", "fedora", "arch", "other". */
const char *dl_fix_distro(const dl_facts *f);

#endif
