/* Readings of a GPU against the wheels: older than every wheel's architectures, or newer
 * than most. Each only when nothing else was found. */
#ifndef DLENV_EXPLAIN_GPU_WHEEL_TEXT_H
#define DLENV_EXPLAIN_GPU_WHEEL_TEXT_H

#include "explain/explain.h"

/* A report about CUDA from a GPU older than every wheel dlenv knows (a Kepler GT 740M, a
 * Fermi): whatever torch was installed, it has no kernels for that GPU, even when the text
 * shows no error (the thread asks why torch does not use it). Only when nothing else was
 * found, and not when the text's torch is one the table does not reach (0.4 still had
 * sm_30). */
void dl_explain_gpu_below_every_wheel(const dl_knowledge *k, dl_explanation *e);

/* A GPU that only the newest wheels have kernels for (an RTX 50xx, sm_120: cu128 and later)
 * failing with an error the text cuts off, and torch's version not given: a wheel without
 * its architecture is the likely cause, not the certain one; collect_env and the whole
 * error decide. Only when nothing else was found. */
void dl_explain_gpu_newer_than_most_wheels(const dl_knowledge *k, dl_explanation *e);

/* A named NVIDIA GPU newer than every wheel of the torch release the text names (an RTX
 * 5080 under torch 2.6), where the text says the GPU fails: arch_not_in_wheel. */
/* SD.Next's "Device: device=... arch=sm_90 capability=(12, 0)": arch is the newest entry
 * of torch's arch list, so a GPU of a newer major architecture has no kernels in the build
 * (arch_not_in_wheel), whatever the run said after it. */
void dl_explain_device_line_arch_below_gpu(dl_explanation *e);

void dl_explain_gpu_newer_than_text_torch(const dl_knowledge *k, dl_explanation *e);

/* A Maxwell or Pascal GPU named with words that say torch does not (or no longer) support
 * it, torch's version not given: the newest wheels (cu128 and later) dropped its
 * architecture, which the older cu126 wheels still carry. Only when nothing else was
 * found and the text talks of no driver. */
void dl_explain_gpu_dropped_by_newest_wheels(const dl_knowledge *k, dl_explanation *e);

/* torch's start-up warning "Found GPU0 X which is of cuda capability 6.1. Minimum and
 * Maximum cuda capability supported by this version of PyTorch is (7.0) - (12.0)" (torch
 * 2.x; the older form, "no longer supports this GPU because it is too old", is a
 * signature), with nothing else found: below the range is gpu_arch_dropped, a newer major
 * than its top arch_not_in_wheel; a newer minor of the top major (a GB10's 12.1 against
 * 12.0) runs the same major's code and is no failure. */
void dl_explain_capability_outside_torch_range(dl_explanation *e);

/* A ROCm build's "no code object" / "invalid device function" (arch_not_in_wheel) on an
 * AMD GPU whose gfx target is older than every ROCm wheel's (a Polaris RX 580, gfx803):
 * the GPU is below every list, as a Kepler is below every CUDA wheel's; the wheel reading
 * steps back to a candidate. */
void dl_explain_amd_below_every_rocm_wheel(const dl_knowledge *k, dl_explanation *e);

/* gpu_arch_dropped with the table's general fix ("a wheel that still covers it"), for a GPU
 * below every wheel dlenv knows (a Kepler or Fermi card): no wheel covers it, so the fix
 * says what is left (the CPU build, a build from source, a newer GPU). */
void dl_explain_dropped_gpu_fix(const dl_knowledge *k, dl_explanation *e);

/* A rebuild's TORCH_CUDA_ARCH_LIST example becomes the capability of the one GPU the text
 * names. */
void dl_explain_arch_list_fix(dl_explanation *e);

/* arch_not_in_wheel with the table's example ("e.g. cu128+ for sm_120") where the text names
 * one NVIDIA GPU of one capability: the example becomes that GPU's capability and the plan
 * that picks a wheel for it (an RTX 3090 is not an sm_120 card). */
void dl_explain_wheel_example_fix(dl_explanation *e);

/* torch's CUDA from the facts (collect_env's "CUDA used to build PyTorch: 9.0.176") is a
 * CUDA 9 release, the GPU is a Turing one (sm_75) and the text shows a failure, where
 * nothing else was read: CUDA 9's libraries predate Turing (arch_not_in_wheel). The
 * signature for the same cause reads it from words and stands back when the text names
 * CUDA 10 anywhere, which a local toolkit beside torch's own CUDA 9 does. */
void dl_explain_cuda9_build_on_turing(dl_explanation *e);

/* driver_too_old's "update the driver" beside gpu_arch_dropped: the build with kernels leads. */
void dl_explain_driver_fix_beside_dropped_gpu(dl_explanation *e);

#endif
