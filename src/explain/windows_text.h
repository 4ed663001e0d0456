/* Readings that only Windows texts need: a DLL load failure that is one release's known
 * problem, and the DirectML package's narrow Python range. */
#ifndef DLENV_EXPLAIN_WINDOWS_TEXT_H
#define DLENV_EXPLAIN_WINDOWS_TEXT_H

#include "explain/explain.h"

/* The line where torch's shm.dll fails to load with a missing dependency (WinError 126, not
 * the paging file's 1455 nor an init failure), when torch's release may be the one whose
 * wheels shipped that failure (2.3.0, or no version in the text) and nothing else names
 * another torch build (a ROCm wheel, which 2.3.0 never had on Windows) or a Windows too old
 * for torch 2 (Windows 7); -1 otherwise. */
long dl_shm_dll_release_line(const dl_paste *p, const dl_facts *f);

/* Adds known_bad_release (the release in known_bad_releases.csv whose symptom names
 * shm.dll) when dl_shm_dll_release_line finds its line; the missing DLL stays a candidate. */
void dl_explain_shm_dll_release(const dl_knowledge *k, dl_explanation *e);

/* ComfyUI's portable build (its own Python in python_embeded) changed with a bare pip that
 * belongs to another Python: pip_python_mismatch, when nothing else was found. */
void dl_explain_portable_bare_pip(dl_explanation *e);

/* The text shows the DirectML package failing: pip finds no torch-directml, or
 * "No module named 'torch_directml'". */
bool dl_directml_failed(const dl_paste *p);

/* Where DirectML is what failed, a CPU build of torch and a GPU of another vendor than NVIDIA
 * are how torch-directml runs, not the cause: their rule failures become warnings in rules. */
void dl_explain_directml_rules(const dl_paste *p, dl_findings *rules);

/* Adds python_unsupported where torch-directml failed for a Python its wheels do not cover
 * (3.8 to 3.10 until 2024, 3.12 at most since), or where pip found no torch-directml at all
 * and the text gives neither the Python's version nor its bits. */
void dl_explain_directml_python(dl_explanation *e);

/* pip finds no torch-directml for a Python whose version its wheels always covered (3.8 to
 * 3.10) and whose bits the text does not give: a 32-bit Python is left. */
bool dl_directml_python_covered(const dl_paste *p, const dl_facts *f);

/* pip was given pytorch.org's own Windows command of its time ("torch===1.4.0 ... -f
 * torch_stable.html": the selector wrote "===") and saw only the 0.1.2 placeholders: the
 * release it asked for was the current one, whose wheels covered every current 64-bit
 * Python, so a 32-bit Python is the reading unless the text gives the Python's bits or a
 * version newer than that release's (3.9 or later: python.org's installer was 32-bit by
 * default until 3.9). */
bool dl_selector_command_on_32bit(const dl_paste *p, const dl_facts *f);

/* Python exits with no message while importing torch or a domain library on Windows (no
 * error text, nothing else found): a native crash at a DLL's start-up, most often an
 * older Visual C++ runtime than the wheel needs (vc_redist_missing); a missing DLL and two
 * OpenMP runtimes stay candidates. */
void dl_explain_silent_exit_on_import(dl_explanation *e);

/* "DLL load failed" when importing torchvision beside a nightly torch (its old package
 * torch_nightly, the nightly index, a .dev version): the released torchvision's binaries
 * were built for another torch (torchvision_mismatch); the missing-DLL reading becomes its
 * candidate. */
void dl_explain_torchvision_dll_beside_nightly(dl_explanation *e);

/* A DataLoader worker that died while starting ("DataLoader worker (pid(s) ...) exited
 * unexpectedly", or BrokenPipeError beside the DataLoader), nothing else found, no signal or
 * shared memory named, and not on Linux or in a container (fork re-imports nothing; worker
 * ids all divisible by four are Windows'): spawn_guard_missing, the paging file a candidate. */
void dl_explain_dataloader_worker_start(dl_explanation *e);

/* "Distributed package doesn't have NCCL built in" where the facts say Windows (a drive
 * path such as D:\python\lib\site-packages) with nothing else found: NCCL is not in
 * torch's Windows builds. */
void dl_explain_windows_nccl(dl_explanation *e);

#endif
