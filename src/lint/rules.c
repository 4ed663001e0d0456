/* The rule table, in the order of value (docs/lint.md documents each id). The ids are
 * stable: `# noqa: ID`, --select and --ignore name them. "syntax", "source" and "walk"
 * are the engine's own findings (a file that does not parse, cannot be read, a folder
 * that cannot be walked). */
#include "lint/rules.h"

#include <string.h>

const dl_lint_rule dl_lint_rules[] = {
    {"load", "torch.load without weights_only", dl_lint_rule_load, NULL},
    {"amp", "torch.cuda.amp / torch.cpu.amp instead of torch.amp", dl_lint_rule_amp_call,
     dl_lint_rule_amp_node},
    {"guard", "worker processes started from module code with no __main__ guard",
     dl_lint_rule_guard, dl_lint_rule_guard_node},
    {"paths", "backslashes in non-raw strings, drive-absolute and working-directory paths",
     dl_lint_rule_paths_call, dl_lint_rule_paths},
    {"encoding", "open() / read_text() / write_text() in text mode without encoding",
     dl_lint_rule_encoding, NULL},
    {"save", "torch.save straight to the final file name", dl_lint_rule_save, NULL},
    {"device", "CUDA used with no is_available() fallback", dl_lint_rule_device, NULL},
    {"pin", "pin_memory=True where no CUDA device exists", dl_lint_rule_pin, NULL},
    {"dist", "NCCL or the libuv TCPStore where they do not exist", dl_lint_rule_dist, NULL},
    {"visible", "CUDA_VISIBLE_DEVICES set after CUDA was used", NULL, dl_lint_rule_visible},
    {"tqdm", "tqdm bars without ascii=True on Windows consoles", dl_lint_rule_tqdm, NULL},
    {"seed", "cudnn.benchmark = True in a script seeded for reproducibility", NULL,
     dl_lint_rule_seed},
};
const size_t dl_lint_n_rules = sizeof dl_lint_rules / sizeof dl_lint_rules[0];

static const dl_lint_rule_info engine_ids[] = {
    {"syntax", "the file is not valid Python (reported where, the rest still checked)"},
    {"source", "the file cannot be read, is not UTF-8 or holds NUL bytes"},
    {"walk", "a path that cannot be walked: missing, unreadable, a symbolic link loop"},
};

const dl_lint_rule_info *dl_lint_rule_infos(size_t *n)
{
    static dl_lint_rule_info all[sizeof dl_lint_rules / sizeof dl_lint_rules[0] +
                                 sizeof engine_ids / sizeof engine_ids[0]];
    size_t i;
    for (i = 0; i < dl_lint_n_rules; i++) {
        all[i].id = dl_lint_rules[i].id;
        all[i].summary = dl_lint_rules[i].summary;
    }
    for (i = 0; i < sizeof engine_ids / sizeof engine_ids[0]; i++)
        all[dl_lint_n_rules + i] = engine_ids[i];
    *n = sizeof all / sizeof all[0];
    return all;
}

bool dl_lint_rule_known(const char *id)
{
    size_t n, i;
    const dl_lint_rule_info *all = dl_lint_rule_infos(&n);
    for (i = 0; i < n; i++)
        if (!strcmp(all[i].id, id))
            return true;
    return false;
}
