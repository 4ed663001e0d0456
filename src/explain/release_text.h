/* Readings of one torch release: a known-bad release whose message the text shows, MKL's
 * error beside it, and a regression between two builds the text names. */
#ifndef DLENV_EXPLAIN_RELEASE_TEXT_H
#define DLENV_EXPLAIN_RELEASE_TEXT_H

#include "explain/explain.h"

/* A release the known-bad table lists for the text's OS (or a text that names no OS but
 * names the release) whose row names the error message the text shows (condition
 * "text:<message>", or the `message` column's forms where the condition is a machine's,
 * kept for doctor): the broken release is the cause, whatever the message would read as
 * alone. A row whose message no other release gives (condition "message:<message>", or a
 * `message` cell starting "alone: ") names its release even where the text gives no
 * version: the message is that release's signature. Runs before the signatures so that it comes first in
 * its layer; one pass over the table's few rows, one search per matching row. */
void dl_explain_known_bad_message(const dl_knowledge *k, dl_explanation *e);

/* Row r of the known-bad table as the cause the text's line shows ("this error is torch
 * X's known problem"), with the release that fixed it: for the readings of one message. */
dl_finding *dl_explain_known_bad_row(const dl_knowledge *k, const dl_table *kb, size_t r,
                                     dl_explanation *e, size_t line);

/* Row r's fix on x: the release that fixed it as a pip command (with its torchvision, and
 * the index of the build the text shows where that release has it), the same release
 * without pip's cache where the fix was a re-upload, else the row's words; the sources as a
 * note. */
void dl_explain_known_bad_fix(const dl_knowledge *k, const dl_table *kb, size_t r,
                              dl_explanation *e, dl_finding *x);

/* The text shows an illegal instruction (SIGILL) on an ARMv8.0 aarch64 CPU (a Raspberry Pi
 * 3/4, a Cortex-A53/A72, AWS a1; or aarch64 with no newer core named) under a torch release
 * whose aarch64 wheel the known-bad table lists for CPUs without LSE atomics (condition
 * "aarch64_lacks:atomics"): that wheel, not the machine, is the cause. Runs before the
 * signatures, so the import-crash reading stays out. */
void dl_explain_known_bad_on_old_arm(const dl_knowledge *k, dl_explanation *e);

/* A row of the known-bad table for a package beside torch (its torch_version cell is
 * "<package> <version>", its condition "package_message:<message>") whose message the text
 * shows: that release of the package is the cause (torch-directml 0.2.1.dev240521 sends
 * dropout to the CPU), and a newer one fixes it. */
void dl_explain_known_bad_package_message(const dl_knowledge *k, dl_explanation *e);

/* One of torch's own DLLs (torch\lib\*.dll) fails to load through ctypes ("FileNotFoundError:
 * Could not find module '...\torch\lib\caffe2_nvrtc.dll' (or one of its dependencies)"),
 * the form only torch 1.5.0's loader gives, on Python 3.8 or later: the release's row
 * (condition "ctypes_dll_load") is the cause unless the text names another release; a
 * missing DLL stays a candidate. */
void dl_explain_known_bad_ctypes_dll(const dl_knowledge *k, dl_explanation *e);

/* Beside a known-bad release's failure whose DLL the text shows (1.5.0's ctypes loader
 * above; the text's torch is a release whose Windows row names the DLL, 2.4.0 and
 * fbgemm.dll), the missing-DLL reading of the same line (and the VC++ runtime's) is a
 * candidate, not the cause: the release ships or loads that DLL wrong. */
void dl_explain_demote_dll_beside_release(const dl_knowledge *k, dl_explanation *e);

/* The text says one torch build works and another does not ("worked with 0.4.0", "the first
 * build where it broke", "downgraded to 2.0.1 and it works") and names both, with nothing else
 * found: a regression in the newer build, which its release notes or issue tracker know,
 * not the machine (the same machine ran the other build). */
void dl_explain_regression_between_builds(dl_explanation *e);

/* A release the known-bad table names for the text's MKL error (libtorch 2.2.2 / 2.3.0 on
 * Windows without MKL's dispatched DLLs) explains "Cannot load mkl_...": the two-MKL reading
 * of the same line stays a candidate, not the cause. */
void dl_explain_demote_mkl_beside_known_bad(dl_explanation *e);

/* A known-bad release whose problem is torch's import ("import torch fails ...", "import torch
 * dies ...") while the text shows torch past its import (it answered a check, a program logged
 * its device): the release is a candidate, not the cause the text shows. */
void dl_explain_known_bad_import_beside_running_torch(dl_explanation *e);
/* A known-bad release read from "no kernel image" and the build alone (no GPU in the text)
 * where a package's own op is what failed (extension_mismatch among the findings): the
 * package's build is the cause the text shows, the release a candidate. */
void dl_explain_known_bad_beside_extension_kernel(dl_explanation *e);

/* "Error loading ...\torch\lib\fbgemm.dll or one of its dependencies" read as a missing DLL
 * where the text names no torch release: the release the known-bad table lists for that DLL
 * (2.4.0's wheels without libomp140) is a candidate, and the installed release the question
 * that decides. */
void dl_explain_fbgemm_release_candidate(const dl_knowledge *k, dl_explanation *e);

#endif
