/* The command table. A row: name, one-line summary, handler, options (in the command's
 * own file), what it needs prepared, what it takes besides its options, more help. */
#include "cli/commands.h"

#include "cli/exit_codes.h"
#include "cli/output.h"
#include "cli/suggest.h"

#include <stdlib.h>
#include <string.h>

#define NONE {" [options]", 0, false}
#define KNOW DL_CMD_NEEDS_KNOWLEDGE

const dl_command dl_commands[] = {
    {"report", "gather the facts about this machine and print them", dl_cmd_report,
     dl_report_options, 0, NONE, NULL},
    {"doctor", "say which layer is broken, with the evidence and the exact fix", dl_cmd_doctor,
     dl_doctor_options, KNOW, NONE, NULL},
    {"plan", "the install command for this machine, or one described by flags",
     dl_cmd_plan, dl_plan_options, KNOW, NONE, NULL},
    {"setup", "make a working PyTorch environment, prove it works, and lock it",
     dl_cmd_setup, dl_setup_options, KNOW | DL_CMD_OWN_EXIT_CODES, {" [PATH] [options]", 1, false},
     "\nA transaction: the plan (as `dlenv plan` makes it) and the exact commands, asked once;\n"
     "then a staging folder beside PATH (default .venv) with its own venv, a pinned install\n"
     "with that environment's pip (or uv), the proof (`import torch` and the doctor's checks\n"
     "run in it), and only then the swap into place: the old one is kept for --rollback,\n"
     "dlenv.lock and dlenv-snapshot.json are written inside. Any failure removes the staging\n"
     "folder and leaves PATH as it was.\n"
     "\nExample: dlenv setup ./torch-env --cpu --with d2l==1.0.3\n"
     "\nExit codes: 0 done (or --dry-run), 1 no torch build fits, 2 usage, 3 dlenv failed,\n"
     "10 not confirmed, 11 no Python of the planned version, 12 PATH is not an environment\n"
     "(or is inside one), 13 a --with package needs another torch, 14 the index does not\n"
     "answer, 15 a package is not on the index, 16 a hash does not match, 17 the install\n"
     "failed, 18 the new environment does not work, 19 it could not be moved into place,\n"
     "20 another setup of PATH is running. See docs/setup.md.\n"},
    {"restore", "make the environment a dlenv.lock records again, hashes checked",
     dl_cmd_restore, dl_restore_options, KNOW | DL_CMD_OWN_EXIT_CODES,
     {" LOCK [PATH] [options]", 2, false},
     "\nThe same transaction as setup, from the lock: its index, its exact versions, every\n"
     "wheel's sha256 checked when the lock has them, nothing else installed. PATH defaults\n"
     "to the lock's folder. Exit codes: those of setup (4: the lock is unreadable).\n"},
    {"explain", "diagnose pasted collect_env / nvidia-smi / error output (FILE or -)",
     dl_cmd_explain, dl_explain_options, KNOW, {" [FILE|-] [options]", 1, false}, NULL},
    {"verify", "measure CPU, memory and torch's matrix product against their limits", dl_cmd_verify, dl_verify_options, KNOW, NONE, NULL},
    {"data", "list the knowledge tables, where each came from and what they cite",
     dl_cmd_data, dl_data_options, KNOW, NONE, NULL},
    {"snapshot", "record this machine's facts and findings as JSON, to compare later", dl_cmd_snapshot, dl_snapshot_options, KNOW,
     {" [-o FILE] [--lock] [options]", 0, false},
     "\nThe snapshot is one JSON document: {\"schema\": \"dlenv.snapshot/1\", \"taken_at\",\n"
     "\"host\", \"verdict\", \"root_cause\", \"findings\", \"facts\"} (facts: `dlenv report\n"
     "--json`). Files are written whole: a temporary file, then renamed over FILE.\n"
     "--lock writes pip (or uv, or conda) commands that pin every package of the torch\n"
     "stack with its local tag, each from its index (download.pytorch.org/whl/cu121, PyPI).\n"
     "Exit 1 with --lock: the interpreter has no torch.\n"},
    {"diff", "what changed between two snapshots, most important first", dl_cmd_diff, dl_diff_options, KNOW, {" A B [options]", 2, false},
     "\nA and B are snapshots (or `dlenv report --json` / `dlenv doctor --json` files); - is\n"
     "this machine now. Changes come in the order that matters: driver, CUDA, torch,\n"
     "Python, libraries on the path, settings, then the rest; then the findings that\n"
     "appeared or went away. Exit 0 equal, 1 different, 4 a file is unreadable or not a\n"
     "snapshot (or from a newer dlenv).\n"},
    {"run", "run a command on the CPU or chosen GPUs, in a venv or conda env",
     dl_cmd_run, dl_run_options, DL_CMD_OWN_EXIT_CODES,
     {" [options] [--] COMMAND [ARGS...]", 0, true},
     "\nSets CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER=PCI_BUS_ID (indices as nvidia-smi shows\n"
     "them), HIP_VISIBLE_DEVICES and ZE_AFFINITY_MASK, and with --python/--env what activate\n"
     "would (PATH, VIRTUAL_ENV or CONDA_PREFIX), then runs COMMAND in its place, arguments\n"
     "untouched (no shell).\n\nExample: dlenv run --gpu 1 --env torch -- python train.py\n"
     "\nExit codes: the command's own. Before it starts: 2 usage error, 4 no such GPU,\n"
     "interpreter or env, 126 the command cannot run, 127 it is not found.\n"},
    {"profile", "`run`'s settings as a file: sh, bat, ps1, dotenv, launch.json",
     dl_cmd_profile, dl_profile_options, 0,
     {" write [options] [--] [COMMAND [ARGS...]]", 1, true},
     "\nWrites what `dlenv run` with the same options would do as a file. Without COMMAND the\n"
     "launcher runs the command it is given (vscode: the file open in the editor). The\n"
     "vscode format adds or replaces the configuration of the same name in launch.json.\n"
     "\nExample: dlenv profile write --gpu 0,2 --format sh -o gpus02.sh\n"},
    {"lint", "find what breaks training scripts on Windows, CPU-only, new torch",
     dl_cmd_lint, dl_lint_options, 0, {" [PATH...] [options]", DL_POSITIONAL_LIST, false},
     "\nPATHs are files or folders (walked for *.py, honouring .gitignore; default: .).\n"
     "Output: FILE:LINE:COL: ID: MESSAGE [SEVERITY]. Rules and fixes: docs/lint.md.\n"
     "Severity follows the target: --env current (this machine: OS, torch found in its\n"
     "Python's site-packages without importing it, an NVIDIA GPU), or --os / --torch /\n"
     "--cuda. `# noqa: ID` on a line silences ID there.\n"
     "Exit 0 nothing at or above --fail-on, 1 something, 2 usage, 6 lint is not built\n"
     "into this binary.\n"},
    {"fleet", "cluster health checks; many nodes' reports folded into one",
     dl_cmd_fleet, dl_fleet_options, KNOW | DL_CMD_OWN_EXIT_CODES,
     {" check|report|gres-conf [--format F] [options] [-- LAUNCHER...]", 1, true},
     "\nfleet check runs the doctor's checks without `import torch` and without measuring,\n"
     "for health checkers: --format json, prom (a node_exporter textfile), nfd (a\n"
     "node-feature-discovery feature file), nhc (one line: `dlenv: <root cause>`) or\n"
     "slurm (one line per problem; with --drain, Slurm's HealthCheckProgram: a failing\n"
     "node is drained with reason \"dlenv: ...\", resumed once healthy, and a reason dlenv\n"
     "did not set is never touched).\n"
     "--textfile DIR writes DIR/dlenv.prom (prom) or DIR/dlenv (nfd) whole, by rename.\n"
     "--snapshot FILE (prom) adds the rates of a saved `dlenv verify --json` as shares of\n"
     "their peaks.\n"
     "Exit 0 healthy (warnings allowed), 1 a failure, 5 a layer cannot be judged, 2 usage,\n"
     "3 the file cannot be written or scontrol failed.\n"
     "\nfleet gres-conf prints Slurm gres.conf lines for this node's GPUs as NVML sees them\n"
     "(--node NAME, else $SLURMD_NODENAME, else the short host name).\n"
     "\nfleet report runs a launcher under --timeout (srun -N 4 --label, pdsh, clush, an ssh\n"
     "loop: each node runs `dlenv report --json`) or reads saved reports (--from DIR or\n"
     "files), judges each as `doctor --from` does and folds them: the largest group of\n"
     "equal nodes (driver, CUDA, GPUs, torch) is the reference, every other node is named\n"
     "with its difference, its root cause, its garbage output, or that it did not answer.\n"
     "--format text, json or markdown. Exit 0 all healthy, 1 a node fails, 7 a node did\n"
     "not answer (or not with a report), 5 a node cannot be judged. Give pdsh and clush\n"
     "their own limit per node, -u, under --timeout. See docs/fleet.md.\n"
     "\nExample: dlenv fleet report --timeout 60 --hosts 'gpu[1-4]' --\n"
     "           pdsh -u 50 -w 'gpu[1-4]' dlenv report --json\n"},
    {"help", "show the help of dlenv, or of one command", dl_cmd_help, dl_help_options, 0,
     {" [COMMAND]", 1, false}, NULL},
    {NULL, NULL, NULL, NULL, 0, {NULL, 0, false}, NULL},
};

const dl_command *dl_command_find(const char *name)
{
    const dl_command *c;
    for (c = dl_commands; name && c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    return NULL;
}

const char *dl_command_suggest(const char *typed)
{
    const dl_command *c;
    const char *best = NULL;
    size_t d = 0;
    for (c = dl_commands; c->name; c++)
        dl_suggest_consider(typed, c->name, &best, &d);
    return best;
}

int dl_command_run(const dl_cli *cli)
{
    const dl_command *c = dl_command_find(cli->command);
    dl_knowledge know;
    dl_context ctx;
    char *error = NULL;
    int rc;
    memset(&ctx, 0, sizeof ctx);
    if (c->flags & DL_CMD_NEEDS_KNOWLEDGE) {
        if (!dl_knowledge_load(&know, cli->data_dir, &error)) {
            dl_cli_error("%s", error);
            free(error);
            return DL_EXIT_BAD_INPUT;
        }
        ctx.know = &know;
    }
    rc = c->run(cli, &ctx);
    if (ctx.know)
        dl_knowledge_free(&know);
    return rc;
}
