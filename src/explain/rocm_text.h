/* Readings of a ROCm build of torch on an AMD GPU: torch sees no GPU because the GPU's gfx
 * target is not among the targets the build was compiled for (data/wheel_targets.csv). */
#ifndef DLENV_EXPLAIN_ROCM_TEXT_H
#define DLENV_EXPLAIN_ROCM_TEXT_H

#include "explain/explain.h"

#include <stdbool.h>

/* The text shows a ROCm build of torch: the listed torch's local tag ("+rocm6.0"), "+rocm"
 * written in the text, collect_env's "ROCM used to build PyTorch: <version>", or HIP's own
 * words ("No HIP GPUs are available", "HIP initialization", hipError...). */
bool dl_text_rocm_build(const dl_explanation *e);

/* A ROCm build of torch beside an NVIDIA GPU the text names: a build without CUDA for that
 * GPU (cpu_only_build), whatever HIP says about finding no AMD GPU. */
void dl_explain_rocm_build_on_nvidia(dl_explanation *e);

/* The web UI's "Torch is not able to use GPU" off Windows where lspci lists an NVIDIA and
 * an AMD display controller: webui.sh chose the ROCm build whenever lspci showed AMD (a
 * Ryzen's integrated graphics) until it learnt to look for NVIDIA first, so the NVIDIA GPU
 * got a torch without CUDA. The same where the text shows the ROCm build installed and the
 * writer names the integrated graphics (a laptop's AMD iGPU beside its NVIDIA GPU), with
 * non_nvidia_gpu the candidate lspci would rule out. */
void dl_explain_webui_rocm_beside_nvidia(dl_explanation *e);

/* A ROCm build shown (its tag, HIP's words, a ROCm index) whose only complaint is libdrm's
 * "amdgpu.ids: No such file or directory", with no unavailable GPU: the rules' "an AMD GPU,
 * so CUDA cannot work" steps back (a note says the message is harmless). */
void dl_explain_rocm_build_in_use(dl_explanation *e);

/* HIP's "No HIP GPUs are available" (hipErrorNoDevice, hipGetDeviceCount's Error 101): the
 * ROCm twin of "No CUDA GPUs", whose causes are ROCm's own: the render/video groups, a
 * container without /dev/kfd and /dev/dri, WSL2 without AMD's WSL driver and wheels. */
void dl_explain_rocm_no_gpu(dl_explanation *e);

/* An AMD GPU off Windows, pip pointed at a ROCm index of pytorch.org, torch answering
 * is_available() False, and nothing showing a ROCm build: pip took another build (PyPI's,
 * through --extra-index-url, or a CPU one). cpu_only_build, with non_nvidia_gpu (a CUDA
 * build) as the candidate the version would decide. */
void dl_explain_amd_torch_without_rocm(dl_explanation *e);

/* "is_available() False" (or "No HIP GPUs are available") with a ROCm torch whose release
 * the table knows and an AMD target (the GPU's name, or a gfx id that rocminfo printed)
 * that build lacks: arch_not_in_wheel, with HSA_OVERRIDE_GFX_VERSION as the fix where the
 * build has a target of the same family (gfx1031 runs gfx1030's code). */
void dl_explain_rocm_target_not_in_build(const dl_knowledge *k, dl_explanation *e);

/* ROCm's "invalid device function" read with the table's general fix, on an RDNA2 or RDNA3
 * GPU that is not its family's first target (gfx1031, gfx1032, gfx1101, gfx1102): the
 * override to that first target, which every ROCm build lists. */
void dl_explain_rocm_override_fix(const dl_knowledge *k, dl_explanation *e);

/* A ROCm build that sees no GPU where no reading decided why (the CUDA driver is no reading
 * there): the candidates, a target the build lacks or /dev/kfd out of reach, and what
 * decides. False, adding nothing, when the text shows no ROCm build. */
bool dl_explain_rocm_candidates(dl_explanation *e);

/* ZLUDA runs CUDA torch on an AMD GPU on purpose: where the text shows it, "an AMD GPU, so
 * CUDA cannot work" (the rules' reading of the GPU's vendor) is no failure; ZLUDA's own
 * signatures say what went wrong. */
void dl_explain_zluda_rules(const dl_paste *p, dl_findings *rules);

/* The text shows ZLUDA running (its device tag "[ZLUDA]", its folder, ComfyUI-Zluda, its
 * patch scripts), not only named as a wish. */
bool dl_text_zluda_in_use(const dl_paste *p);

/* "Found no NVIDIA driver" read as another vendor's GPU on the strength of collect_env's
 * "ROCM used to build PyTorch: N/A" alone: that line is in every collect_env of a CUDA or
 * CPU build and names no AMD GPU, so the reading steps back to a candidate and the
 * driver's readings decide (pytorch/pytorch#74733). */
void dl_explain_rocm_na_is_no_amd(dl_explanation *e);

#endif
