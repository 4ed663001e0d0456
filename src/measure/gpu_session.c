/* Opening a GPU for measuring and timing work on it with events (NVIDIA's own method in
 * nvbandwidth and the CUDA samples): the GPU's clock, not the host's, times the work, and
 * a sample never includes the launch of the next. */
#include "measure/gpu_session.h"

#include "base/str.h"
#include "measure/measure.h"

#include <stdlib.h>
#include <string.h>

extern const char dl_gpu_kernels_ptx[];

static bool attribute(dl_gpu_session *s, int attr, const char *what, int *v)
{
    char *label = dl_fmt("cuDeviceGetAttribute(%s)", what);
    bool ok = dl_cuda_ok(s->cu, s->cu->attribute(v, attr, s->dev), label);
    free(label);
    return ok;
}

/* The driver compiles the PTX; when it cannot, its log says why (an old driver, a PTX
 * version it does not know), so the log goes into the error. */
static bool load_module(dl_gpu_session *s)
{
    char log[2048] = {0};
    CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2];
    CUresult rc;
    vals[0] = log;
    vals[1] = (void *)(size_t)(sizeof log - 1);
    rc = s->cu->module_load(&s->module, dl_gpu_kernels_ptx, 2, opts, vals);
    if (rc != CUDA_SUCCESS) {
        char *what;
        log[sizeof log - 1] = '\0';
        what = log[0] ? dl_fmt("cuModuleLoadDataEx (the driver compiling dlenv's PTX; its log: "
                               "%s)", dl_trim(log))
                      : dl_strdup("cuModuleLoadDataEx (the driver compiling dlenv's PTX)");
        dl_cuda_ok(s->cu, rc, what);
        free(what);
        s->module = NULL;
        return false;
    }
    return dl_cuda_ok(s->cu, s->cu->module_function(&s->check, s->module, "dl_fma_check"),
                      "cuModuleGetFunction(dl_fma_check)") &&
           dl_cuda_ok(s->cu, s->cu->module_function(&s->peak, s->module, "dl_fma_peak"),
                      "cuModuleGetFunction(dl_fma_peak)") &&
           dl_cuda_ok(s->cu, s->cu->module_function(&s->copy, s->module, "dl_copy"),
                      "cuModuleGetFunction(dl_copy)");
}

static bool create_events(dl_gpu_session *s)
{
    int want = 2 * (s->budget->samples > DL_GPU_MAX_SAMPLES ? DL_GPU_MAX_SAMPLES
                                                             : s->budget->samples);
    while (s->n_events < want) {
        if (!dl_cuda_ok(s->cu, s->cu->event_create(&s->events[s->n_events], 0),
                        "cuEventCreate"))
            return false;
        s->n_events++;
    }
    return true;
}

bool dl_gpu_session_open(dl_gpu_session *s, dl_cuda *cu, int ordinal,
                         const dl_gpu_budget *budget, dl_gpu_measure *out)
{
    memset(s, 0, sizeof *s);
    s->cu = cu;
    s->budget = budget;
    s->out = out;
    if (!dl_cuda_ok(cu, cu->device_get(&s->dev, ordinal), "cuDeviceGet") ||
        !attribute(s, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT",
                   &s->sms) ||
        !attribute(s, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                   "MAX_THREADS_PER_MULTIPROCESSOR", &s->threads_per_sm))
        return false;
    if (s->sms <= 0 || s->threads_per_sm < 256) {
        dl_cuda_ok(cu, CUDA_ERROR_INVALID_VALUE, "the device reports no usable SMs");
        return false;
    }
    if (!dl_cuda_ok(cu, cu->ctx_retain(&s->ctx, s->dev), "cuDevicePrimaryCtxRetain"))
        return false;
    return dl_cuda_ok(cu, cu->ctx_set(s->ctx), "cuCtxSetCurrent") && load_module(s) &&
           dl_cuda_ok(cu, cu->stream_create(&s->stream, CU_STREAM_NON_BLOCKING),
                      "cuStreamCreate") &&
           create_events(s);
}

/* Tears down what open made, ignoring errors: after a failed launch the context is
 * unusable and every call fails, which is already recorded. */
void dl_gpu_session_close(dl_gpu_session *s)
{
    int i;
    if (s->ctx) {
        if (s->stream)
            s->cu->stream_sync(s->stream);
        for (i = 0; i < s->n_events; i++)
            s->cu->event_destroy(s->events[i]);
        if (s->stream)
            s->cu->stream_destroy(s->stream);
        if (s->module)
            s->cu->module_unload(s->module);
        s->cu->ctx_set(NULL);
        s->cu->ctx_release(s->dev);
    }
    memset(s, 0, sizeof *s);
}

bool dl_gpu_launch(dl_gpu_session *s, CUfunction f, const char *name, unsigned grid,
                   unsigned block, void **params)
{
    char *what = dl_fmt("cuLaunchKernel(%s)", name);
    bool ok = dl_cuda_ok(s->cu, s->cu->launch(f, grid, 1, 1, block, 1, 1, 0, s->stream, params,
                                             NULL),
                         what);
    free(what);
    return ok;
}

static bool elapsed(dl_gpu_session *s, CUevent a, CUevent b, double *ms)
{
    float f = 0.0f;
    if (!dl_cuda_ok(s->cu, s->cu->event_sync(b), "cuEventSynchronize") ||
        !dl_cuda_ok(s->cu, s->cu->event_elapsed(&f, a, b), "cuEventElapsedTime"))
        return false;
    *ms = f;
    return true;
}

/* One sample of `count` repetitions between events 0 and 1. */
static bool one_sample(dl_gpu_session *s, dl_gpu_work work, void *arg, unsigned count,
                       double *ms)
{
    return dl_cuda_ok(s->cu, s->cu->event_record(s->events[0], s->stream), "cuEventRecord") &&
           work(s, arg, count) &&
           dl_cuda_ok(s->cu, s->cu->event_record(s->events[1], s->stream), "cuEventRecord") &&
           elapsed(s, s->events[0], s->events[1], ms);
}

/* Doubles the repetitions until one sample lasts a tenth of the target, then scales. */
static bool calibrate(dl_gpu_session *s, dl_gpu_work work, void *arg, unsigned *count)
{
    double ms = 0.0, target = s->budget->sample_ms;
    unsigned n = 1;
    if (!one_sample(s, work, arg, 1, &ms))   /* warm-up: first-touch and clock ramp */
        return false;
    for (;;) {
        if (!one_sample(s, work, arg, n, &ms))
            return false;
        if (ms >= target / 10.0 || n >= (1u << 20))
            break;
        n *= 2;
    }
    if (ms > 0.0 && ms < target) {
        double scaled = n * (target / ms);
        n = scaled > (double)(1u << 24) ? 1u << 24 : (unsigned)scaled;
    }
    *count = n > 0 ? n : 1;
    return true;
}

bool dl_gpu_time(dl_gpu_session *s, dl_gpu_work work, void *arg, dl_gpu_during during,
                 void *during_arg, unsigned *count, double *ms)
{
    int i, n = s->n_events / 2;
    if (!calibrate(s, work, arg, count))
        return false;
    for (i = 0; i < n; i++) {
        if (!dl_cuda_ok(s->cu, s->cu->event_record(s->events[2 * i], s->stream),
                        "cuEventRecord") ||
            !work(s, arg, *count) ||
            !dl_cuda_ok(s->cu, s->cu->event_record(s->events[2 * i + 1], s->stream),
                        "cuEventRecord"))
            return false;
    }
    if (during)
        during(s, during_arg);
    for (i = 0; i < n; i++)
        if (!elapsed(s, s->events[2 * i], s->events[2 * i + 1], &ms[i]))
            return false;
    return true;
}

bool dl_gpu_rate(const double *ms, int n, double amount_per_count, unsigned count,
                 double *rate, double *spread_pct)
{
    double sorted[DL_GPU_MAX_SAMPLES];
    double median;
    int i;
    for (i = 0; i < n && i < DL_GPU_MAX_SAMPLES; i++)
        sorted[i] = ms[i];
    median = dl_measure_median(sorted, (size_t)i);
    *spread_pct = dl_measure_spread_pct(sorted, (size_t)i);
    if (!(median > 0.0))
        return false;
    *rate = amount_per_count * count / (median / 1000.0);
    return true;
}
