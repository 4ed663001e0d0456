/* Step 4 of `dlenv setup` (and `restore`, `setup --prove`): the proof that an environment
 * works as planned, before anything is moved into place. In the environment's own
 * interpreter: `import torch`, its version and variant as planned, the GPUs the plan
 * targets as torch sees them (count, names, capabilities), torch's matrix products right
 * on the CPU and on each planned GPU, then their rates against what the hardware does
 * (verify's figures and verify's own floor), and the doctor's rules on the result. The
 * first failure is said with its layer and evidence. Prints; changes nothing. */
#ifndef DLENV_CLI_SETUP_PROOF_H
#define DLENV_CLI_SETUP_PROOF_H

#include "cli/setup_transaction.h"
#include "diff/snapshot.h"

#include <stdbool.h>

/* torch's version as planned: 2.9.1 with the variant's tag (2.9.1+cpu); the macOS wheels
 * and PyPI's own have none. variant NULL: any. */
bool dl_setup_torch_as_planned(const char *version, const char *torch, const char *variant);

/* python proven for job's plan (job->torch, job->variant; none: the devices of its own
 * build); snap keeps the facts and findings for the snapshot. DL_EXIT_OK or
 * DL_EXIT_VERIFY_FAILED after the error naming the layer and its evidence. */
int dl_setup_prove_python(const dl_setup_job *job, const char *python, dl_snapshot *snap);

#endif
