/* What one streaming multiprocessor of each NVIDIA compute capability does per clock
 * (data/gpu_arch.csv), and the peak arithmetic verify compares a measurement with:
 *   peak FLOP/s = SMs x FLOPs per clock per SM x clock.
 * Pure functions: no I/O, nothing allocated; the strings returned point into the
 * knowledge tables and live as long as they do.
 *
 * Every rate is in FLOPs per clock per SM, an FMA counting as 2, so one formula serves
 * CUDA cores and tensor cores alike. Tensor rates are dense (no 2:4 sparsity) with FP32
 * accumulate, what torch uses for fp16/bf16 matmul. A rate the table does not know, or an
 * architecture without that kind of math (no TF32 before Ampere), has has_x false and
 * the value 0: never read the value without the flag. */
#ifndef DLENV_KNOW_GPU_ARCH_H
#define DLENV_KNOW_GPU_ARCH_H

#include "know/tables.h"

#include <stdbool.h>

typedef struct dl_gpu_rate {
    bool known;
    double flops_per_clk_sm;
} dl_gpu_rate;

typedef struct dl_gpu_arch {
    unsigned cc_major, cc_minor;
    const char *architecture; /* "Ampere" */
    const char *source;       /* the row's source cell */
    dl_gpu_rate fp32;         /* CUDA cores: 2 x FP32 FMA lanes */
    dl_gpu_rate fp64;         /* 2 x FP64 FMA lanes (not reduced for GeForce) */
    dl_gpu_rate tf32;         /* tensor cores */
    dl_gpu_rate fp16;
    dl_gpu_rate bf16;
    /* The device runs tensor math with FP32 accumulate below the professional parts'
     * rate (a GeForce, or a name in the row's reduced_rate_devices): fp16/bf16 were
     * multiplied by fp32acc_factor and tf32 by tf32_factor. */
    bool reduced;
    double fp32acc_factor, tf32_factor;
    /* Set when the capability has a row but a cell of it is not a number: the table is
     * broken (a --data override), which the caller should say instead of "unknown". */
    const char *bad_column;
} dl_gpu_arch;

/* The row of compute_capability ("8.9") from the gpu_arch table, with the GeForce factor
 * applied when device_name (may be NULL) contains "GeForce" or is one of the row's
 * reduced_rate_devices. False when the capability is malformed or has no row (and then
 * out->bad_column is NULL), or when a cell of the row is not a number (bad_column set). */
bool dl_gpu_arch_lookup(const dl_knowledge *k, const char *compute_capability,
                        const char *device_name, dl_gpu_arch *out);

/* The capabilities of an architecture named as a word ("Pascal", "Blackwell"; "Ada
 * Lovelace" for Ada), as major*10+minor: the lowest and highest of its rows. False when the
 * name starts with no architecture of the table. */
bool dl_gpu_arch_span_of_name(const dl_knowledge *k, const char *name, unsigned *lo,
                              unsigned *hi);

/* A Quadro or Tesla named by NVIDIA's letter for its architecture and a model number the
 * name table lacks ("Quadro P400", "Tesla M10", "Quadro K2100M"): the architecture's
 * capabilities (K Kepler, M Maxwell, P Pascal, V Volta, and for a Quadro T Turing; a Quadro K
 * may also be a first Maxwell: K620 to K2200). False for any other name. */
bool dl_gpu_pro_model_span(const dl_knowledge *k, const char *name, unsigned *lo,
                           unsigned *hi);

/* Peak FLOP/s = sms x per_sm_per_clk x clock (clock in kHz, as CUDA's clockRate). 0 when
 * an input is not positive: callers check the rate's flag and the clock first. */
double dl_gpu_peak_flops(int sms, double per_sm_per_clk, double clock_khz);

/* Peak device-memory bandwidth in GB/s (10^9 bytes) = 2 x clock x bus width / 8, the
 * double-data-rate convention of CUDA's bandwidthTest/deviceQuery, with the memory clock
 * in kHz as cudaDeviceProp.memoryClockRate reports it. 0 for a non-positive input. */
double dl_gpu_mem_peak_gbps(double memory_clock_khz, int bus_width_bits);

/* Peak PCIe payload bandwidth in GB/s per direction for a link generation (1-6) and
 * width (lanes), after line encoding: 2.5 and 5 GT/s with 8b/10b (gen 1, 2), 8, 16 and
 * 32 GT/s with 128b/130b (gen 3-5), 64 GT/s in FLIT mode (gen 6: 236 TLP bytes in each
 * 256-byte flit). Packet headers are not subtracted. 0 for an unknown generation or a
 * non-positive width. */
double dl_pcie_peak_gbps(int generation, int width);

#endif
