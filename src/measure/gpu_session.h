/* One GPU opened for measuring: its primary context, dlenv's kernels compiled by the
 * driver from the embedded PTX, a stream, and the timing of work with events. */
#ifndef DLENV_MEASURE_GPU_SESSION_H
#define DLENV_MEASURE_GPU_SESSION_H

#include "facts/facts.h"
#include "measure/gpu_driver.h"

#include <stdbool.h>
#include <stddef.h>

#define DL_GPU_MAX_SAMPLES 16

/* How long and how big: --quick, the default and --full differ only here. */
typedef struct dl_gpu_budget {
    double sample_ms;       /* one timed sample lasts about this long */
    int samples;            /* timed samples per figure (median, spread) */
    size_t copy_cap;        /* the largest device buffer the bandwidth uses */
    size_t transfer_cap;    /* the largest host buffer for host<->device copies */
} dl_gpu_budget;

typedef struct dl_gpu_session {
    dl_cuda *cu;
    CUdevice dev;
    int sms;
    int threads_per_sm;
    CUcontext ctx;
    CUmodule module;
    CUfunction check, peak, copy;
    CUstream stream;
    CUevent events[2 * DL_GPU_MAX_SAMPLES];
    int n_events;
    const dl_gpu_budget *budget;
    dl_gpu_measure *out;
} dl_gpu_session;

/* Work to time: enqueues `count` repetitions on the stream; false on a CUDA failure. */
typedef bool (*dl_gpu_work)(dl_gpu_session *s, void *arg, unsigned count);
/* Called while the timed samples run (NVML sampling); may be NULL. */
typedef void (*dl_gpu_during)(dl_gpu_session *s, void *arg);

/* Opens device `ordinal`: context, module (a JIT failure's log goes into the error),
 * functions, stream, events. False with s->cu->error set. */
bool dl_gpu_session_open(dl_gpu_session *s, dl_cuda *cu, int ordinal,
                         const dl_gpu_budget *budget, dl_gpu_measure *out);
void dl_gpu_session_close(dl_gpu_session *s);

/* Times `work`: one warm-up, a calibration that finds the repetitions one sample needs to
 * last budget->sample_ms, then budget->samples samples each between its own pair of
 * events, all enqueued before `during` runs, so the GPU is busy while it looks. Sets the
 * repetitions per sample and every sample's milliseconds. */
bool dl_gpu_time(dl_gpu_session *s, dl_gpu_work work, void *arg, dl_gpu_during during,
                 void *during_arg, unsigned *count, double *ms);

/* Launches f on the session's stream: grid x block threads, the kernel's parameters. */
bool dl_gpu_launch(dl_gpu_session *s, CUfunction f, const char *name, unsigned grid,
                   unsigned block, void **params);

/* A rate from samples: amount per repetition x repetitions / median time, and the spread
 * of the samples in percent. Amount in the figure's unit (GB, TFLOP). False when the
 * events measured no time at all (a rate from that would be fiction). */
bool dl_gpu_rate(const double *ms, int n, double amount_per_count, unsigned count,
                 double *rate, double *spread_pct);

#endif
