/* What the hardware allows each figure verify measures on a GPU: SMs x FLOPs per clock per
 * SM for its architecture (data/gpu_arch.csv) x clock; memory clock x bus width; the PCIe
 * link as trained under load. Worked out once here for the rules that judge the figures
 * (gpu_measured.c) and the verify view that shows them. The clock is the boost clock the
 * device reports: NVIDIA rates some parts' tensor peaks at a lower clock, so those read a
 * few percent low, never high. */
#ifndef DLENV_RULES_GPU_LIMITS_H
#define DLENV_RULES_GPU_LIMITS_H

#include "facts/facts.h"
#include "know/gpu_arch.h"

/* Below these shares of its limit a figure is too slow: the FMA kernel and the copies
 * reach 80-95% on a healthy GPU, cuBLAS 60-90% of the tensor peak at this size. */
#define DL_VERIFY_GPU_MIN_PCT 50.0
#define DL_VERIFY_MATMUL_MIN_PCT 25.0

typedef struct dl_limit {
    double value;   /* 0: no limit known */
    char *what;     /* how it was worked out ("2 x 1593 MHz x 5120 bits"); caller frees */
} dl_limit;

/* A device's architecture row, when its capability is known and the table has it. */
bool dl_gpu_arch_of(const dl_knowledge *know, const dl_cuda_device *d, dl_gpu_arch *out);
/* Peak TFLOPS at a per-SM rate ("fp32", "tensor" name the rate in the words). */
dl_limit dl_limit_flops(const dl_cuda_device *d, const dl_gpu_arch *arch,
                        const dl_gpu_rate *rate, const char *what);
dl_limit dl_limit_gpu_memory(const dl_cuda_device *d);   /* GB/s */
dl_limit dl_limit_pcie(const dl_gpu_measure *m);         /* GB/s per direction */
/* The rate torch's product in this dtype runs at (fp32 on CUDA cores, the rest on tensor
 * cores); NULL for a dtype the table has no column for. */
const dl_gpu_rate *dl_gpu_matmul_rate(const dl_gpu_arch *arch, const char *dtype);
/* The share of the limit reached in percent; negative without a limit or a value. */
double dl_limit_pct(const dl_limit *l, const dl_num *value);

#endif
