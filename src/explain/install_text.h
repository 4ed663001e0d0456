/* Readings of the text alone about installing torch: what an installer's resolver says
 * about the wheels it found. */
#ifndef DLENV_EXPLAIN_INSTALL_TEXT_H
#define DLENV_EXPLAIN_INSTALL_TEXT_H

#include "explain/explain.h"

/* Adds python_unsupported when uv says a plain torch release ("torch==2.6.0",
 * "torch>=2.7.0") "has no wheels with a matching platform tag": the release has no wheel
 * for this interpreter at all (an Intel Mac after 2.2, an ARM or 32-bit Python), which is
 * the interpreter's fit, not a wheel of another OS asked for by a local tag ("+cpu",
 * "+cu121"), which stays the wheel_tag_mismatch signature's reading. */
void dl_explain_release_without_platform_wheel(dl_explanation *e);
/* pip's "(from versions: ..., 2.2.2)" for torch: a list ending at the last release with
 * macOS x86_64 wheels is an Intel Mac or a Rosetta Python, whatever the Python version. */
void dl_explain_versions_end_at_intel_mac(dl_explanation *e);

/* The install command's index is a CUDA variant download.pytorch.org never had (cu131,
 * cu12.1: no row of wheel_arches.csv names it) and pip found no torch: the index, not the
 * Python, is what is wrong; the Python readings step back. */
void dl_explain_index_without_torch(const dl_knowledge *k, dl_explanation *e);

/* A torch pin with a build tag ("torch==1.4.0+cpu") that pip did not find, where the text
 * names no PyTorch index and shows the Python can have that release (pip's list holds it
 * untagged, or a 64-bit Python it has wheels for): the index is missing, not a wheel for the Python (wheel_tag_mismatch; the fix comes from
 * dl_explain_tagged_pin_fix). */
void dl_explain_tagged_pin_without_index(const dl_knowledge *k, dl_explanation *e);

/* wheel_tag_mismatch's general fix, where the text pins a tagged torch
 * ("torch==2.7.1+cu128"): the command for that release from that tag's index, or, where
 * torch_releases.csv says that release was never built for that tag, the builds it has. */
void dl_explain_tagged_pin_fix(const dl_knowledge *k, dl_explanation *e);

/* pip's list of versions on one build's index ("from versions: 2.1.0+cu121, ..., 2.5.1+cu121")
 * starts at that build's first release and ends at its last (so this Python has every
 * wheel of it), below the torch asked for: the index stops before that release, not the Python
 * (wheel_tag_mismatch, the index's problem, over python_unsupported). */
void dl_explain_index_stops_before_version(const dl_knowledge *k, dl_explanation *e);
void dl_explain_uv_index_stops_before_version(const dl_knowledge *k, dl_explanation *e);

/* A launcher's "Couldn't install torch" (the Stable Diffusion web UI's) where the release its
 * command pins has no wheel for the Python the text's banner names: python_unsupported. */
void dl_explain_launcher_torch_for_other_python(const dl_knowledge *k, dl_explanation *e);

/* pip's own "--version" line names a Python ("(python 3.10)") other than the interpreter's
 * own answer to `python --version` in the text ("Python 3.12.7"): the pip that ran belongs
 * to another interpreter (a system pip on PATH beside an embedded or portable Python), so
 * what it says about wheels ("not a supported wheel on this platform") is about that other
 * Python; the readings of its words step back to candidates. */
void dl_explain_pip_of_another_python(dl_explanation *e);

/* "No module named ..." and two sys.executable answers naming different interpreters (the
 * terminal's and a notebook kernel's or an editor's): the package went into one and the code
 * runs in the other, pip_python_mismatch. */
void dl_explain_two_executables(dl_explanation *e);

/* An app's start-up check ("This program is tested with 3.11.9 Python, but you have
 * 3.10.16") beside a message only a torch that imported gives ("Torch not compiled with CUDA
 * enabled", a CUDA OOM): torch had a wheel for this Python and runs, so the Python reading
 * steps back to a candidate and the torch's own failure is the cause. */
void dl_explain_python_check_beside_running_torch(dl_explanation *e);

/* poetry's "Unable to find installation candidates for torch (X)" or uv's "Distribution
 * torch==X ... doesn't have a source distribution or wheel for the current platform" with X
 * 2.3 or later on a Mac: the Intel-Mac reading (2.2.2 was the last macOS x86_64 release), in
 * that installer's terms. */
void dl_explain_installer_on_intel_mac(const dl_knowledge *k, dl_explanation *e);

#endif
