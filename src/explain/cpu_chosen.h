/* A reading of the text alone: the user chose the CPU and the program asked for CUDA. */
#ifndef DLENV_EXPLAIN_CPU_CHOSEN_H
#define DLENV_EXPLAIN_CPU_CHOSEN_H

#include "explain/explain.h"

/* The text sets the CPU in so many words (device=cpu, gpu=False, --device cpu, an
 * unchecked "use GPU" box), names no NVIDIA GPU, and still shows a message that only a
 * request for CUDA gives (a checkpoint deserialised onto CUDA, "Torch not compiled with
 * CUDA enabled", "Found no NVIDIA driver"): the program ignored its own CPU setting (a
 * torch.load without map_location, a hard-coded .cuda()), which no install fixes. The
 * environment's readings of that message step back to candidates (an AMD or Intel GPU named
 * stays non_nvidia_gpu), a note says the fault is the program's, and the program's setting
 * is what to ask about. */
void dl_explain_cpu_chosen_cuda_asked(dl_explanation *e);

/* The line where the text chooses the CPU in so many words (a keyword argument or flag,
 * the app's box left unchecked, "CPU as the device"), not by a condition or a function's
 * default; -1 when none. */
long dl_text_cpu_chosen_line(const dl_paste *p);

/* Steps back from "no CUDA here" readings when autocast's spurious warning (torch 1.10,
 * 1.11) is all the text has: no GPU named, no error, no complaint. */
void dl_explain_autocast_warning_alone(dl_explanation *e);

#endif
