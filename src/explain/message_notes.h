/* Messages that name no fault of the environment: a model loaded in a number format the
 * GPU lacks (bfloat16 below compute capability 8.0, FP8 e4m3 below 8.9), the program's or
 * model's choice that no install changes, and torch's warnings that change nothing. */
#ifndef DLENV_EXPLAIN_MESSAGE_NOTES_H
#define DLENV_EXPLAIN_MESSAGE_NOTES_H

#include "explain/explain.h"

/* Adds a note for each such message the text shows (no finding: torch and the install are
 * fine), saying what to do instead. */
void dl_explain_message_notes(dl_explanation *e);

/* Adds a note for a PermissionError on the program's own files when nothing else was read:
 * a locked or unwritable file, not the environment. */
void dl_explain_program_file_locked_note(dl_explanation *e);

/* The text shows a GB10 (DGX Spark) whose memory NVML does not report, and no CPU build. */
bool dl_text_unified_memory_unreported(const dl_paste *p);
/* Adds a note for it when nothing else was read: normal for the chip, not a fault. */
void dl_explain_unified_memory_note(dl_explanation *e);

/* Adds a note for CUDA tensors shared between processes on Windows or WSL 2, where CUDA
 * IPC does not exist, when nothing else was read. */
void dl_explain_cuda_ipc_note(dl_explanation *e);

/* A note for CUDA used in a forked worker (DataLoader, multiprocessing): old torch's bare
 * "initialization error" beside a worker's frames, or newer torch's own sentence. */
void dl_explain_cuda_in_forked_worker_note(dl_explanation *e);

/* A note for float16 run on the CPU ("addmm_impl_cpu_" not implemented for 'Half'). */
void dl_explain_half_on_cpu_note(dl_explanation *e);

/* A note for a package installed in a running notebook that does not import: restart
 * the kernel. */
void dl_explain_notebook_restart_note(dl_explanation *e);
/* Paddle's libcuda warning before its own GPU self-check passed: noise. */
void dl_explain_paddle_libcuda_warning_note(dl_explanation *e);

#endif
