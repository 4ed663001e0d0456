/* Readings of the text alone about a Mac: what its GPU can and cannot run. */
#ifndef DLENV_EXPLAIN_MAC_TEXT_H
#define DLENV_EXPLAIN_MAC_TEXT_H

#include "explain/explain.h"

/* Adds no_cuda_on_macos when nothing else was found, the text's machine is a Mac, it names
 * a GPU that is not Apple's (an Intel Iris, an AMD Radeon, an NVIDIA card) and asks about
 * CUDA or about support for that GPU, with no error and no MPS in the text: the question
 * is whether torch can use that GPU at all on macOS. */
void dl_explain_mac_other_gpu(dl_explanation *e);

/* Adds no_cuda_on_macos when nothing else was found, the text's machine is a Mac (a
 * /Users/ path, Darwin, macOS in words) and it shows that CUDA is not available there
 * (is_available() False, Lightning's or transformers' check for a GPU): a Mac has no CUDA. */
void dl_explain_mac_cuda_unavailable(dl_explanation *e);

/* Adds no_cuda_on_macos when nothing else was found, the text's machine is a Mac and the
 * text asks for NCCL or torch says it has none ("Distributed package doesn't have NCCL
 * built in", a launcher's hard-coded init_process_group("nccl")): on macOS torch has no
 * CUDA, so no NCCL either; gloo is the backend there. */
void dl_explain_mac_nccl(dl_explanation *e);

/* Docker on a Mac started with --gpus (or failing to find NVIDIA's runtime): there is no
 * NVIDIA GPU to pass in, so the container reading steps back for no_cuda_on_macos. */
void dl_explain_mac_docker_gpus(dl_explanation *e);

/* torch's MPS refuses the Mac ("The MPS backend is supported on MacOS 12.3+") and the text's
 * macOS version is below what that torch needs: 12.3, or 13.0 for torch 2.5 and later
 * (whose message still says 12.3), or the version the message names. The OS is then too
 * old for the torch (driver_too_old, the Mac's OS standing in for the driver). At or above
 * the need the message comes from a process without a Metal device, and nothing is said. */
void dl_explain_mps_needs_newer_macos(dl_explanation *e);

#endif
