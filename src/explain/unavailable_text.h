/* Readings of "torch sees no GPU" with no error that names why: the driver (Linux), a Colab
 * runtime without a GPU, a fresh Windows without the VC++ runtime, CUDA_VISIBLE_DEVICES
 * hiding the GPU, a WSL2 kernel too old for GPU paravirtualisation. */
#ifndef DLENV_EXPLAIN_UNAVAILABLE_TEXT_H
#define DLENV_EXPLAIN_UNAVAILABLE_TEXT_H

#include "explain/explain.h"

/* torch.cuda.is_available() is False, and the text says nothing else: no error, no driver
 * version, no CPU build, no other vendor's GPU, not a Mac, not Windows (whose PyPI wheel
 * is a CPU build), not a container (whose runtime is another cause). A CUDA build returns
 * False without an error when the driver cannot run its CUDA (old torch printed nothing;
 * newer prints a warning that pastes often leave out), the usual cause on Linux; no
 * driver at all and a CPU build stay candidates, and `nvidia-smi` with collect_env
 * decides. */
void dl_explain_silent_unavailable(dl_explanation *e);

/* torch sees no GPU under ComfyUI's NVIDIA launcher (its echo quoted), on an NVIDIA machine
 * or one the text leaves unnamed: that launcher runs a bundle that ships torch's CUDA build,
 * so PyPI's CPU wheel (dl_explain_gpu_unused_on_windows) is not the first suspect; a driver
 * older than the bundle's CUDA is, with a CPU torch a custom node's install put there as the
 * candidate. */
void dl_explain_bundle_unavailable(dl_explanation *e);

/* is_available() False in one place and True in another (the terminal and an IDE or a
 * notebook, python and python3, a console and a script), with no update between them: no
 * driver or build reading holds; what differs between the two places does. Adds the
 * candidates and the question that decides, and says true; false (nothing added) when the
 * text shows no True. */
bool dl_explain_availability_differs(dl_explanation *e);

/* torch says it uses the GPU and nothing in the text answers False: is_available() True,
 * a program's "running on CUDA" / "Using device: cuda", kohya's "Torch detected GPU:". A
 * GPU that looks idle there is the program's choice or the monitor's view, not the build. */
bool dl_text_gpu_in_use_said(const dl_explanation *e);

/* torch.cuda.is_available() is False in a Colab notebook, with nothing else found (no old
 * driver's warning, no CPU build shown): Colab's runtimes bring a CUDA torch and the
 * driver, and a GPU only on a GPU runtime type, so the runtime has none. A torch the user
 * installed over Colab's stays a candidate. */
void dl_explain_colab_runtime_without_gpu(dl_explanation *e);

/* Torch that cannot use the GPU on a freshly installed Windows ("Torch is not able to use
 * GPU", is_available() False), with nothing else found: such a Windows lacks the Visual C++
 * runtime that torch's DLLs load, and launchers report the failed import as "cannot use
 * the GPU". The driver and a CPU build stay candidates. */
void dl_explain_gpu_unused_on_fresh_windows(dl_explanation *e);

/* The text sets CUDA_VISIBLE_DEVICES to a value that hides the first GPU and says
 * is_available() is False: the variable is the reading (a launch script's index written for
 * the author's second GPU), even without an error message. */
void dl_explain_gpus_hidden_by_variable(dl_explanation *e);

/* CUDA finds no driver or no device under a WSL2 kernel older than 5.10.43: that kernel
 * has no GPU paravirtualisation, so the Windows driver is never reached (it is not missing,
 * and installing a Linux driver inside WSL would break it). Runs before the signatures so
 * that "Found no NVIDIA driver" does not read as a driver to install. */
void dl_explain_wsl_kernel_without_gpu(dl_explanation *e);

/* WSL on a Windows build older than 19044 (Windows 10 21H2) with nvidia-smi or CUDA finding
 * no driver or device (or is_available() False): before that build (Insider builds from
 * 20145 aside) Windows does not pass the GPU into WSL at all, so no Linux-side fix helps.
 * Runs before the signatures and the WSL kernel reading: the Windows build is the lower
 * layer. */
void dl_explain_wsl_on_windows_without_gpu(dl_explanation *e);
/* WSL with the GPU in TCC mode on Windows (nvidia-smi's driver model, or the writer's
 * words) and CUDA or nvidia-smi failing inside: WSL 2 passes in only WDDM GPUs. Runs
 * beside the Windows build's reading, before the signatures. */
void dl_explain_wsl_gpu_in_tcc_mode(dl_explanation *e);
/* After the signatures: what they read from the same symptom inside WSL (WSL's library
 * path, a driver not loaded) becomes a candidate beside that Windows build or TCC mode. */
void dl_explain_demote_beside_old_windows(dl_explanation *e);

/* torch sees no CUDA GPU (is_available() False, "Invalid CUDA 'device=0'"), nothing else was
 * found, and the writer names AMD as the hardware, in any language ("how do I run it on
 * amd", "как запустить на amd"): the word itself, not AMD's CPUs (Ryzen, EPYC, "AMD CPU")
 * nor the amd64 architecture, and no NVIDIA GPU named beside it. CUDA needs an NVIDIA GPU;
 * a CPU build and an NVIDIA card beside the AMD one stay candidates. */
void dl_explain_amd_named_without_cuda(dl_explanation *e);

/* CUDA's "unknown error" (999) where nothing loads the nvidia_uvm module on demand (NixOS,
 * a Flatpak sandbox) and no suspend is named: the module is not loaded, so CUDA cannot
 * start (a suspend that wedged it stays the candidate; lsmod and /dev/nvidia-uvm decide). */
void dl_explain_uvm_missing_unknown_error(dl_explanation *e);

/* The line of a library's warning that it runs on the CPU (openai/whisper's "FP16 is not
 * supported on CPU; using FP32 instead"); -1 when none. The warning says where torch ran,
 * not why: on a machine without a GPU, or in a run given the CPU, it is no fault. */
long dl_text_cpu_run_warning_line(const dl_paste *p);

/* The text gives the run the CPU itself ("--device cpu", device="cpu", "--cpu", "CPU as
 * the device"): dl_text_cpu_chosen_line (cpu_chosen.c) finds a line. */
bool dl_text_chose_cpu(const dl_paste *p);

/* The text expects a GPU: it names one (a GPU fact), or the words GPU, CUDA, NVIDIA,
 * graphics, VRAM, hardware acceleration. */
bool dl_text_expects_gpu(const dl_paste *p, const dl_facts *f);

/* The CPU-run warning alone (readings.c drops the CPU build there: nothing expects a GPU)
 * with no other finding: no cause, and the CPU build and a GPU torch does not see stay the
 * candidates, with the question that decides. */
void dl_explain_cpu_run_warning_alone(dl_explanation *e);

/* The text names an AMD or Intel GPU and no NVIDIA one, shows no error, and asks whether
 * or how a GPU can do the work ("can AMD 6000 cards run this?", "it uses just the CPU:
 * how can I use the Intel GPU?"), with nothing else found and not on a Mac: torch's CUDA
 * needs NVIDIA's GPU; a machine without any GPU stays the candidate. */
void dl_explain_other_vendor_gpu_question(dl_explanation *e);

/* The writer says the machine has no (NVIDIA) GPU ("a laptop without any cuda GPUs", "my
 * computer does not have a GPU") and that the program does not work or asks to run it on
 * the CPU, with nothing else found, no NVIDIA GPU named and not on a Mac: the machine has
 * no GPU for CUDA, and the code needs one or its CPU path. */
void dl_explain_writer_without_gpu(dl_explanation *e);

/* torch's "Found no NVIDIA driver" is the only finding, and the text shows nothing of
 * NVIDIA's (no GPU named, no driver version or nvidia-smi, no word of a driver of the
 * writer's, no other vendor's GPU, no WSL): most likely the machine has no NVIDIA GPU, as
 * the corpus's reports of the bare message settled; no_driver_installed steps back to a
 * candidate. */
void dl_explain_no_driver_nothing_of_nvidia(dl_explanation *e);

/* The writer says the driver cannot be updated ("I can't update nvidia drivers", "no
 * permission to install a newer driver") in a text about CUDA, and nothing else was found:
 * the driver is the constraint the text is about, older than what is being installed
 * needs. */
void dl_explain_driver_cannot_be_updated(dl_explanation *e);

/* The first line naming AMD's GPU side as a word ("AMD 6800", "an AMD card"; not amd64, nor
 * AMD's CPUs); -1 when none. */
long dl_text_amd_gpu_line(const dl_paste *p);

#endif
