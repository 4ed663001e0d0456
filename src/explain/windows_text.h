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

#endif
