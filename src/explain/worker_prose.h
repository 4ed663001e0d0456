/* DataLoader workers told in words, with no worker error pasted: on Windows, "it throws an
 * error; then I comment num_workers=2, it successes", "when num_workers is not zero there
 * is an error". */
#ifndef DLENV_EXPLAIN_WORKER_PROSE_H
#define DLENV_EXPLAIN_WORKER_PROSE_H

#include "explain/explain.h"

/* Nothing else read, the text on Windows, and a line saying that the DataLoader fails with
 * workers and runs with none (num_workers 0, removed or commented out), or fails whenever
 * num_workers is not 0: spawn_guard_missing, the paging file a candidate. Not when the
 * text shows a pickling error (a local class, not the guard) or the paging file. */
void dl_explain_workers_fail_in_words(dl_explanation *e);

#endif
