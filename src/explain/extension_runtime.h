/* A compiled package beside torch (vLLM, flash-attn, xformers, torchaudio...) that fails to
 * load the CUDA runtime of another CUDA major than torch's: it was built for that CUDA. */
#ifndef DLENV_EXPLAIN_EXTENSION_RUNTIME_H
#define DLENV_EXPLAIN_EXTENSION_RUNTIME_H

#include "explain/explain.h"

/* Adds extension_mismatch (torchvision_mismatch for torchvision / torchaudio) when a line
 * names libcudart.so.N and a compiled package's import or library next to it (three lines
 * before to one after), torch's own import is not what fails there, and torch's CUDA,
 * when the text gives it, has another major than N. */
void dl_explain_extension_runtime(dl_explanation *e);

/* "import torch fails on an undefined symbol" read from an undefined symbol alone, where the
 * symbol is torch's own C++ API (at::, c10::, torch::, caffe2::, their vtables) and the text
 * never shows torch's import or torch's own libraries: a library compiled against another
 * torch lacks it, and which one (an extension, torchvision / torchaudio / torchtext, or
 * torch's own from a mixed install) the text does not say. The finding becomes a candidate
 * beside those two, and the whole traceback is asked for. */
void dl_explain_torch_symbol_unplaced(dl_explanation *e);

/* extension_mismatch read from an undefined symbol of torch's own C++ API alone: the text
 * names no library, package, import or install ("undefined symbol: _ZN6caffe26detail36_type
 * MetaDataInstance_preallocated_7E" and a question). Whether a package's own extension,
 * torchvision / torchaudio / torchtext or torch's own library lacks it, the text does not
 * say: the finding becomes a candidate beside those, and the whole traceback is asked for. */
void dl_explain_extension_symbol_unplaced(dl_explanation *e);

/* pip installs torchvision / torchaudio / torchtext into an environment that has torch
 * ("Successfully installed torchaudio-0.10.0") and the next import of that package fails
 * loading its compiled library (ctypes' dlopen, an undefined symbol, a DLL): the wheel pip
 * chose was built for another torch or CUDA variant (PyPI's default build beside a +cuXYZ
 * torch) -- torchvision_mismatch, with nothing else found. */
void dl_explain_domain_library_just_installed(dl_explanation *e);

/* "from torchvision import _C" and, right after it with no other import between, the DLL
 * failing to load ("DLL load failed", WinError 126/127), nothing but a missing DLL read: torch
 * imported and torchvision's own compiled ops do not load beside it, so that torchvision was
 * built for another torch or CUDA variant (torchvision_mismatch; the missing DLL stays a
 * candidate). */
void dl_explain_torchvision_c_fails_to_load(dl_explanation *e);

/* torchvision's "Failed to load image Python extension" is a warning (it says so: only
 * torchvision.io needs that library): beside another failure read in the text, with nothing
 * else pointing at the torch / torchvision pair, what its line is read as (the pair, or the
 * DLL it could not find) steps back to a candidate. */
void dl_explain_torchvision_image_warning_beside_error(dl_explanation *e);

/* Nothing else found, the text shows an error, and it names torch and torchvision releases
 * that torch_releases.csv does not pair (torch 2.3.0 beside torchvision 0.16, which was built
 * for torch 2.1): that torchvision was built for another torch (torchvision_mismatch, an
 * extension built for another torch the other candidate). */
void dl_explain_torchvision_pair_from_table(const dl_knowledge *k, dl_explanation *e);

/* Nothing else found, a prebuilt wheel whose name carries the torch it was built for
 * ("flash_attn-2.3.2+cu118torch2.2cxx11abiFALSE-...whl") and, from there on, an import said to
 * fail (not "No module named"): extension_mismatch, unless the text's torch is that release
 * (then the name cannot tell: its ABI or CUDA is asked for elsewhere). */
void dl_explain_wheel_for_other_torch(dl_explanation *e);

/* Nothing else found, and pip's legacy resolver says "torchvision X has requirement
 * torch==Y, but you'll have torch Z" (torchaudio and torchtext likewise):
 * torchvision_mismatch, unless the text also installs that package at another release (a
 * wheel "torchvision-A-...", a pin
 * "torchvision==A"): then a later command sets the pair right and the message was only on
 * the way (pytorch-lr-finder#17). */
void dl_explain_domain_requirement_warning(dl_explanation *e);

/* The text names the link flag -lcuda as its trouble ("Install problem with -lcuda", "error
 * with -lcuda") but not the linker's message, nothing else found: the linker finds no
 * libcuda.so. On WSL2 (named) that is WSL's /usr/lib/wsl/lib; elsewhere the text cannot
 * tell a missing unversioned libcuda.so from WSL, so both stay candidates, no root. */
void dl_explain_lcuda_flag_named(dl_explanation *e);

#endif
