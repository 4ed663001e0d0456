/* Marks in a pasted text that several readings share: the report is about CUDA, shows an
 * error, says is_available() is False, asks why the GPU is unused, names a CUDA build, runs
 * in a container or in Colab, on a fresh Windows. */
#ifndef DLENV_EXPLAIN_TEXT_MARKS_H
#define DLENV_EXPLAIN_TEXT_MARKS_H

#include "facts/facts.h"
#include "parse/paste.h"

#include <stdbool.h>

/* The report is about CUDA: a line that names it other than collect_env's own labels. */
bool dl_text_wants_cuda(const dl_paste *p);

/* The text shows an error (a traceback, an "Error" line) but not which one. */
bool dl_text_shows_error(const dl_paste *p);
/* The first line that moves a tensor to CUDA or asks for it (".cuda()", ".to('cuda')",
 * device="cuda"); -1 when none. */
long dl_text_cuda_call_line(const dl_paste *p);

/* The text is about another framework's GPU (onnxruntime's CUDA provider, TensorFlow's GPU
 * list, CTranslate2, llama.cpp, DirectML): its words about a GPU are not torch's. */
bool dl_text_other_framework(const dl_paste *p);

/* The line where the text says torch.cuda.is_available() is False: on that line
 * ("is_available() returns False") or as the REPL's answer on the next; -1 when none.
 * None in a text about another framework's GPU. */
long dl_text_unavailable_line(const dl_paste *p);

/* A program's own log line that torch found no GPU and it falls back to the CPU, as apps
 * print it ("No GPU being used. Careful, inference might be very slow!", "CUDA not
 * available, using CPU"): at a line's start or after a log prefix ("Windows: ", "] "), not
 * the writer's "I have no GPU"; -1 when none. */
long dl_text_app_no_gpu_line(const dl_paste *p);

/* dl_text_app_no_gpu_line, also where the message stands alone ("WARNING:root:No GPU
 * found"), for a text that otherwise shows the machine has an NVIDIA GPU. */
long dl_text_app_no_gpu_bare_line(const dl_paste *p);

/* A line that says the machine has an NVIDIA GPU: "nvidia" not in words that deny or wish
 * for one; -1 when none. */
long dl_text_nvidia_owned_line(const dl_paste *p);

/* The text asks why torch does not use the GPU, in words ("how do I run it on my GPU",
 * "can't run on cuda", "does not recognize my gpu"); -1 when it does not. */
long dl_text_gpu_unused_line(const dl_paste *p);
/* The same words on a line that says the CPU does the work; -1 when none. */
long dl_text_gpu_unused_cpu_line(const dl_paste *p);

/* The text shows a tensor on a CUDA device: torch's "found at least two devices, cpu and
 * cuda:0" (a tensor left on the CPU beside one on the GPU) or a tensor's repr with
 * device='cuda:0'. That run's torch had CUDA and reached the GPU; -1 when none. */
long dl_text_cuda_tensor_line(const dl_paste *p);
/* A framework's own GPU self-check passed ("PaddlePaddle works well on 1 GPU" from
 * paddle.utils.run_check(), Paddle's "Please NOTE: device: 0, GPU Compute Capability: 8.6,
 * Driver API Version: 12.2", TensorFlow's "Created device ... device:GPU:0"): the driver's
 * library loads, so a warning before it that libcuda.so was not found where the framework
 * looked first (Paddle tries the CUDA toolkit's folder, WSL keeps it in /usr/lib/wsl/lib)
 * is no cause. */
bool dl_text_gpu_self_check_passed(const dl_paste *p);

/* The text shows a CUDA build was asked for: its index, a +cuXYZ tag, conda's CUDA
 * packages. Then the CPU build is not the likely reading. */
bool dl_text_cuda_build_named(const dl_paste *p);

/* The text says Windows was freshly installed ("a fresh install of Win10", "clean Windows
 * 11"): no Visual C++ runtime yet. */
bool dl_text_fresh_windows(const dl_paste *p);

/* The text runs in Google Colab ("colab", "Google Collab"): the machine is Google's
 * runtime, whose GPU comes with the runtime type chosen. */
bool dl_text_colab(const dl_paste *p);

/* ComfyUI's NVIDIA launchers (the portable build's run_nvidia_gpu.bat and the installers'
 * copies of it) echo "If you see this and ComfyUI did not start try updating your Nvidia
 * Drivers" after every exit, whatever went wrong: the line, or -1. */
long dl_text_comfy_nvidia_launcher_line(const dl_paste *p);

/* The text names docker or a container: a runtime of its own decides what the GPU sees. */
bool dl_text_in_container(const dl_paste *p);
/* The text runs on a machine other than the writer's desk: a hosted notebook or cloud GPU
 * (Colab, Kaggle, SageMaker, RunPod), a server, a cluster, a machine reached over ssh. */
bool dl_text_hosted_or_remote(const dl_paste *p);

/* The text's first GPU is named, and not NVIDIA's (an AMD or Intel GPU has causes of its
 * own). */
bool dl_text_other_vendor_gpu(const dl_facts *f);

/* The text runs where nothing loads the nvidia_uvm module on demand (NixOS: "nixos",
 * /nix/store/, configuration.nix; a Flatpak sandbox) and names no suspend or resume: there
 * CUDA's "unknown error" (999) is that module missing, not one a suspend left wedged. */
bool dl_text_uvm_not_loaded_on_demand(const dl_paste *p);

/* The first line that names a Jetson: "Jetson Nano", "Orin Nano", JetPack, L4T, Tegra, or a
 * bare "nano" where the text names JetPack, L4T or aarch64 (not the nano editor, not
 * "nanoGPT"); -1 when none. */
long dl_text_jetson_line(const dl_paste *p);
/* A conda list row of pytorch whose build string is a CPU build ("pytorch 2.1.0
 * py3.10_cpu_0 pytorch", "[conda] pytorch 2.1.0 cpu_generic_py310h... conda-forge"); -1 when
 * none. */
long dl_text_conda_cpu_row(const dl_paste *p);
/* conda chose the CPU build: its plan or its list shows one, or the writer asked conda for a CUDA
 * build; no pip command installed torch and no pip wheel's "+cpu" shows. */
bool dl_text_conda_chose_the_build(const dl_paste *p);

#endif
