/* Readings of GPU memory said in words ("OOMs on my 4 GB card"), not torch's message. */
#ifndef DLENV_EXPLAIN_MEMORY_TEXT_H
#define DLENV_EXPLAIN_MEMORY_TEXT_H

#include "explain/explain.h"

/* "OOM" said in words ("--medvram OOMs", "OOM at 512x512 on my 4 GB card") about a GPU,
 * with nothing else found: users write the allocator's "CUDA out of memory" so. Not where
 * the text speaks of the host's memory (the kernel's OOM killer, RAM, WSL's limit). Another
 * process on the GPU stays a candidate; torch's own message decides. */
void dl_explain_oom_in_words(dl_explanation *e);

/* torch's out-of-memory numbers that give another process more than half the GPU, but
 * less than half once a process's own CUDA context is allowed for (dl_oom_unexplained_bytes):
 * a model too big for what was left reads the same (users and maintainers settle the same
 * numbers either way), so a too-big batch stays a candidate. */
void dl_explain_oom_share_candidates(dl_explanation *e);
/* cuBLAS's "CUBLAS_STATUS_NOT_INITIALIZED" (or ALLOC_FAILED) at cublasCreate: most often the
 * GPU's memory is full, else a cuBLAS of another release found first; the text alone does
 * not tell, so the candidates and what decides. */
void dl_explain_cublas_handle_candidates(dl_explanation *e);

/* A failure to allocate GPU memory on one node of a cluster while "the same job works on
 * a different node", with nothing else found and no numbers of torch's: the job is not too
 * big for the GPU, something on that node holds its memory (a stuck process of another
 * user or run). Too big a job stays a candidate, for nodes with smaller GPUs. */
void dl_explain_oom_on_one_node(dl_explanation *e);
/* Out of memory (no numbers) where the writer says other work runs on the same GPU, or
 * nvidia-smi's table shows a GPU 90% full after the run failed: the memory is another
 * process's. */
void dl_explain_oom_beside_other_work(dl_explanation *e);

/* torch's CPU allocator refusing memory on Windows ("DefaultCPUAllocator: not enough memory:
 * you tried to allocate 26214400 bytes"), with nothing else found: Windows fails an
 * allocation when RAM and the paging file are committed, so a few megabytes refused means
 * the commit limit is reached, and a larger (system-managed) paging file is the fix users
 * and maintainers settle on. Not where the text is Linux's or a Mac's, not in a container,
 * and not for an allocation beyond any machine's memory (a size gone wrong). */
void dl_explain_cpu_allocator_commit_limit(dl_explanation *e);

/* Out of memory while torch.load restores a checkpoint's CUDA tensors (serialization's
 * _cuda_deserialize / default_restore_location in the traceback) with no map_location= : the
 * memory fix is loading onto the CPU, not a smaller batch; it goes first. */
void dl_explain_oom_while_loading(dl_explanation *e);

/* The other processes an OOM message lists on the GPU ("Process 101553 has 1.19 GiB memory
 * in use", two or more, each about the same small size) are the ranks of a distributed
 * job that all opened GPU 0: the fix is each rank's own device, not ending them. */
void dl_explain_oom_held_by_own_ranks(dl_explanation *e);

/* "HIP out of memory" is a ROCm build's: the memory findings' fixes name ROCm's tools and
 * variable (rocm-smi, PYTORCH_HIP_ALLOC_CONF), not NVIDIA's. */
void dl_explain_oom_on_rocm(dl_explanation *e);

/* An XPU (Intel GPU) out-of-memory: the Arc A-series' 4 GiB single-allocation limit where
 * the numbers show it, else a fix without the CUDA allocator's settings. */
void dl_explain_oom_on_xpu(dl_explanation *e);

/* An out-of-memory at a batch of one: the fix cannot lead with a smaller batch, so it names
 * what makes the model and its inputs smaller in memory. */
void dl_explain_oom_at_batch_one(dl_explanation *e);

#endif
