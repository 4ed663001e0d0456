/* Readings of a torch built without CUDA, from the text alone: a CPU build in a report about
 * CUDA, conda's CPU variant, a plain "pip install torch" where PyPI's wheel is a CPU build,
 * and the GPU-not-used question where the usual answer is that build. Each adds its finding
 * only when nothing else was found. */
#ifndef DLENV_EXPLAIN_CPU_BUILD_TEXT_H
#define DLENV_EXPLAIN_CPU_BUILD_TEXT_H

#include "explain/explain.h"

/* A CPU build of torch (a +cpu tag, "CUDA used to build: None", PyPI's untagged Windows
 * wheel) in a report that asks about CUDA: that build is why CUDA does not work, even when
 * the text does not show the GPU (the rule wants one). Not on macOS, not beside another
 * vendor's GPU: those have their own cause. */
void dl_explain_cpu_build_wanted_cuda(dl_explanation *e);

/* conda list shows pytorch's CPU build (its build string says cpu) in a report about CUDA:
 * conda's solver picked the CPU variant (a cpuonly or pytorch-mutex pin, no CUDA build for
 * the cudatoolkit asked for, conda-forge's cpu build). Not on macOS, not beside another
 * vendor's GPU. */
/* A conda command's plan (or the writer's words about it) replacing the CUDA pytorch
 * with a CPU one: conda_cpu_build_selected. */
void dl_explain_conda_swapped_to_cpu(dl_explanation *e);
void dl_explain_conda_cpu_row(dl_explanation *e);

/* PyPI's Windows wheels are CPU builds: a plain "pip install torch" on Windows in a report
 * about CUDA installed one, even when the text gives no version. */
void dl_explain_plain_pip_on_windows(dl_explanation *e);

/* On Windows, a CUDA build of torch named as uninstalled or replaced ("Uninstalling
 * torch-2.4.0+cu121", "uninstall the torch-2.11.0+cu128 and replace it with torch-2.12.0")
 * and, then, a plain release installed: pip resolved torch from PyPI for another package,
 * and PyPI's Windows wheel is a CPU build. */
void dl_explain_cuda_build_replaced_on_windows(dl_explanation *e);

/* PyPI's Linux aarch64 torch wheels have been CPU builds (the CUDA ones come from
 * download.pytorch.org's cuXYZ index): a plain "pip install torch" on an ARM Linux server in
 * a report about CUDA or the CPU build installed one. Not on a Mac (arm64 there has no CUDA
 * at all). */
void dl_explain_plain_pip_on_aarch64(dl_explanation *e);

/* torch in a conda environment sees no CUDA (is_available() False, autocast's "CUDA is not
 * available") on Linux, with nothing else found and no CUDA build named: conda's solver
 * picked the CPU variant of pytorch (cpuonly, pytorch-mutex, conda-forge's cpu build) far
 * more often than the driver failed. Not on Windows (a pip torch in a conda env there is
 * PyPI's CPU wheel, add_gpu_unused_on_windows), not on a Mac, not in a container. */
void dl_explain_conda_env_without_cuda(dl_explanation *e);

/* On Windows, torch that does not use the GPU and shows no error (is_available() False, or
 * the question in words) is most often PyPI's default wheel, a CPU build: the Linux
 * reading (add_silent_unavailable, an old driver) does not hold where pip's torch has no
 * CUDA at all. Not where the text shows a CUDA build asked for. The driver stays a
 * candidate and collect_env decides. */
void dl_explain_gpu_unused_on_windows(dl_explanation *e);

/* The GPU-not-seen question ("can't run on cuda", "how to make it recognize my GPU") with
 * nothing else: no OS, no error, no driver, no torch build, no other vendor's GPU. The
 * usual answer is that torch was installed without its CUDA build (PyPI's default on
 * Windows and macOS, or a requirements file that pinned plain "torch"); the driver stays a
 * candidate and collect_env decides. */
void dl_explain_gpu_unused_os_unknown(dl_explanation *e);

/* "CUDA not available" with the Rust crate tch: its build fetched a CPU-only libtorch
 * (the crate's default), whatever Python's torch on the same machine does. Not where a
 * CUDA libtorch is named. */
void dl_explain_tch_cpu_libtorch(dl_explanation *e);

/* An Ultralytics / YOLOv5 banner whose torch is a +cpu wheel and whose device is the CPU:
 * the report is about that run, so the CPU wheel is the cause. */
void dl_explain_cpu_banner(dl_explanation *e);

/* The text fetches from PyTorch's CPU-only downloads (the /whl/cpu index, a CPU libtorch,
 * a +cpu wheel's file) and is about CUDA, with no CUDA build named: cpu_only_build. */
void dl_explain_cpu_download_named(dl_explanation *e);

/* A program's log says torch's device is the CPU ("device=cpu", "Using device: cpu"), on
 * Windows or an unnamed OS, with an NVIDIA GPU named and no other GPU stack (ROCm, DirectML,
 * ZLUDA, Intel's), no CUDA build asked for, not in a container, nothing else found:
 * cpu_only_build; an old driver and a hidden GPU stay candidates. */
void dl_explain_cpu_device_logged(dl_explanation *e);

/* A program's log saying torch's device is the CPU ("Using device: cpu", "device=cpu"):
 * the value alone, not code that picks it; -1 when none. */
long dl_text_cpu_device_logged_line(const dl_paste *p);

/* A collect_env block says torch has no CUDA ("CUDA used to build PyTorch: None", "Is CUDA
 * available: False", on a Mac "OS: macOS"), and nothing else in the text asks for CUDA or
 * names an NVIDIA GPU: the block describes a machine, it is no complaint. The CPU-build and
 * Mac readings of those rows step back to candidates. */
void dl_explain_collect_env_without_complaint(dl_explanation *e);

#endif
