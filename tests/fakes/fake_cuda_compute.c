/* The fake libcuda's compute half: contexts, the module, memory, streams, events and
 * launches, for `dlenv verify`'s GPU measurements. Work runs on the host at once; time is
 * a virtual clock that each operation advances by what the scenario says the GPU does:
 *
 *   dev<d>.threads_per_sm   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
 *   dev<d>.mem_free         bytes free before dlenv allocates (default: half of mem_total)
 *   dev<d>.alloc_max        the largest single cuMemAlloc that succeeds (default: all free)
 *   dev<d>.fma_tflops       the rate of dl_fma_peak (default 1)
 *   dev<d>.mem_gbps         dl_copy and cuMemcpyDtoD, bytes read + written (default 100)
 *   dev<d>.h2d_gbps / d2h_gbps   pinned copies (default 10); pageable ones run at
 *   dev<d>.pageable_factor  times that (default 0.5)
 *   dev<d>.check_wrong      an element dl_fma_check gets wrong (default none)
 *   dev<d>.copy_drops = 1   dl_copy writes nothing
 *   dev<d>.launch           error:<N>: every launch fails so
 *   cuda.jit                error:<N>: the module does not load; cuda.jit_log its log
 *
 * dl_fma_check and dl_copy really compute (the measurement checks their results); the
 * module must be dlenv's PTX (its three entry points are looked for in the text). */
#include "fake_scenario.h"
#include "probe/gpu/cuda_api.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALLOCS 64
#define BACKED_LIMIT ((size_t)256 << 20)   /* larger allocations are never touched */

static int current = -1;          /* the device whose context is current */
static double clock_ms;           /* the virtual GPU clock */
static struct { uintptr_t addr; size_t size; void *mem; } allocs[MAX_ALLOCS];
static uintptr_t next_unbacked = (uintptr_t)1 << 40;
static char fake_module, fake_stream, fake_events[64];
static int events_used;
static double event_time[64];
static char fn_check, fn_peak, fn_copy;

static double dev_num(const char *field, double fallback)
{
    const char *v = fake_scenario_getf("dev%d.%s", current, field);
    char *end = NULL;
    double x;
    if (v == NULL)
        return fallback;
    x = strtod(v, &end);
    return end != v ? x : fallback;
}

static int launch_error(void)
{
    int code = 0;
    if (fake_scenario_is_error(fake_scenario_getf("dev%d.launch", current), &code))
        return code;
    return 0;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d)
{
    if (ctx == NULL || d < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *ctx = (CUcontext)(uintptr_t)(0x1000 + d);
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain_fn);

FAKE_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    (void)d;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDevicePrimaryCtxRelease_v2, cuDevicePrimaryCtxRelease_fn);

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    current = ctx ? (int)((uintptr_t)ctx - 0x1000) : -1;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuCtxSetCurrent, cuCtxSetCurrent_fn);

FAKE_EXPORT CUresult cuCtxSynchronize(void)
{
    return current < 0 ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuCtxSynchronize, cuCtxSynchronize_fn);

/* The error log option pair, when given, receives the scenario's log. */
static void write_log(unsigned n, CUjit_option *opts, void **vals, const char *log)
{
    char *buf = NULL;
    size_t size = 0;
    unsigned i;
    for (i = 0; i < n; i++) {
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
            buf = vals[i];
        else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            size = (size_t)(uintptr_t)vals[i];
    }
    if (buf && size > 0)
        snprintf(buf, size, "%s", log);
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                                        CUjit_option *opts, void **vals)
{
    const char *text = image;
    const char *log = fake_scenario_get("cuda.jit_log");
    int code = 0;
    if (m == NULL || image == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (current < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (fake_scenario_is_error(fake_scenario_get("cuda.jit"), &code)) {
        write_log(n, opts, vals, log ? log : "");
        return code;
    }
    if (strstr(text, ".version") == NULL || strstr(text, ".target") == NULL)
        return CUDA_ERROR_INVALID_PTX;
    *m = (CUmodule)&fake_module;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuModuleLoadDataEx, cuModuleLoadDataEx_fn);

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    if (f == NULL || m != (CUmodule)&fake_module || name == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (strcmp(name, "dl_fma_check") == 0)
        *f = (CUfunction)&fn_check;
    else if (strcmp(name, "dl_fma_peak") == 0)
        *f = (CUfunction)&fn_peak;
    else if (strcmp(name, "dl_copy") == 0)
        *f = (CUfunction)&fn_copy;
    else
        return CUDA_ERROR_NOT_FOUND;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuModuleGetFunction, cuModuleGetFunction_fn);

FAKE_EXPORT CUresult cuModuleUnload(CUmodule m)
{
    return m == (CUmodule)&fake_module ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
FAKE_CHECK_TYPE(cuModuleUnload, cuModuleUnload_fn);

/* ---- memory --------------------------------------------------------------------------- */

static size_t allocated(void)
{
    size_t i, sum = 0;
    for (i = 0; i < MAX_ALLOCS; i++)
        sum += allocs[i].size;
    return sum;
}

static double free_at_start(void)
{
    return dev_num("mem_free", dev_num("mem_total", 0.0) / 2.0);
}

FAKE_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    double start = free_at_start();
    if (free_bytes == NULL || total == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (current < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    *free_bytes = (size_t)start - allocated();
    *total = (size_t)dev_num("mem_total", start);
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuMemGetInfo_v2, cuMemGetInfo_fn);

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
    size_t i, room = (size_t)free_at_start() - allocated();
    if (p == NULL || bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (current < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (bytes > room || bytes > (size_t)dev_num("alloc_max", (double)room))
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < MAX_ALLOCS && allocs[i].size != 0; i++)
        ;
    if (i == MAX_ALLOCS)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (bytes <= BACKED_LIMIT) {
        allocs[i].mem = malloc(bytes);
        if (allocs[i].mem == NULL)
            return CUDA_ERROR_OUT_OF_MEMORY;
        allocs[i].addr = (uintptr_t)allocs[i].mem;
    } else {
        allocs[i].mem = NULL;
        allocs[i].addr = next_unbacked;
        next_unbacked += (uintptr_t)1 << 40;
    }
    allocs[i].size = bytes;
    *p = (CUdeviceptr)allocs[i].addr;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuMemAlloc_v2, cuMemAlloc_fn);

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr p)
{
    size_t i;
    for (i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].size != 0 && allocs[i].addr == (uintptr_t)p) {
            free(allocs[i].mem);
            memset(&allocs[i], 0, sizeof allocs[i]);
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;
}
FAKE_CHECK_TYPE(cuMemFree_v2, cuMemFree_fn);

/* The host memory behind [p, p + bytes), or NULL when that is not one of ours. */
static void *device_mem(CUdeviceptr p, size_t bytes)
{
    size_t i;
    for (i = 0; i < MAX_ALLOCS; i++) {
        uintptr_t a = allocs[i].addr;
        if (allocs[i].mem && (uintptr_t)p >= a && (uintptr_t)p + bytes <= a + allocs[i].size)
            return (char *)allocs[i].mem + ((uintptr_t)p - a);
    }
    return NULL;
}

static void *pinned_last;   /* the latest pinned buffer, to tell pinned from pageable */

FAKE_EXPORT CUresult cuMemAllocHost_v2(void **p, size_t bytes)
{
    if (p == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *p = malloc(bytes);
    pinned_last = *p;
    return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
FAKE_CHECK_TYPE(cuMemAllocHost_v2, cuMemAllocHost_fn);

FAKE_EXPORT CUresult cuMemFreeHost(void *p)
{
    if (p == pinned_last)
        pinned_last = NULL;
    free(p);
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuMemFreeHost, cuMemFreeHost_fn);

FAKE_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr p, unsigned value, size_t n)
{
    uint32_t *m = device_mem(p, n * 4);
    size_t i;
    if (m == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    for (i = 0; i < n; i++)
        m[i] = value;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuMemsetD32_v2, cuMemsetD32_fn);

static CUresult host_copy(void *dst, const void *src, size_t bytes, const char *rate_key,
                          const void *host)
{
    double gbps = dev_num(rate_key, 10.0);
    if (dst == NULL || src == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (host != pinned_last)
        gbps *= dev_num("pageable_factor", 0.5);
    memcpy(dst, src, bytes);
    clock_ms += (double)bytes / (gbps * 1e6);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    return host_copy(device_mem(dst, bytes), src, bytes, "h2d_gbps", src);
}
FAKE_CHECK_TYPE(cuMemcpyHtoD_v2, cuMemcpyHtoD_fn);

FAKE_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    return host_copy(dst, device_mem(src, bytes), bytes, "d2h_gbps", dst);
}
FAKE_CHECK_TYPE(cuMemcpyDtoH_v2, cuMemcpyDtoH_fn);

FAKE_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                                          CUstream s)
{
    (void)s;
    return cuMemcpyHtoD_v2(dst, src, bytes);
}
FAKE_CHECK_TYPE(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_fn);

FAKE_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    (void)s;
    return cuMemcpyDtoH_v2(dst, src, bytes);
}
FAKE_CHECK_TYPE(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_fn);

FAKE_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                          CUstream s)
{
    void *d = device_mem(dst, bytes), *from = device_mem(src, bytes);
    (void)s;
    if (d == NULL || from == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(d, from, bytes);
    clock_ms += 2.0 * (double)bytes / (dev_num("mem_gbps", 100.0) * 1e6);
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_fn);

/* ---- streams and events --------------------------------------------------------------- */

FAKE_EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags)
{
    (void)flags;
    if (s == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *s = (CUstream)&fake_stream;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuStreamCreate, cuStreamCreate_fn);

FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream s)
{
    (void)s;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuStreamDestroy_v2, cuStreamDestroy_fn);

FAKE_EXPORT CUresult cuStreamSynchronize(CUstream s)
{
    (void)s;
    return launch_error() ? launch_error() : CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuStreamSynchronize, cuStreamSynchronize_fn);

FAKE_EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags)
{
    (void)flags;
    if (e == NULL || events_used >= 64)
        return CUDA_ERROR_INVALID_VALUE;
    *e = (CUevent)&fake_events[events_used++];
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuEventCreate, cuEventCreate_fn);

static int event_index(CUevent e)
{
    ptrdiff_t i = (char *)e - fake_events;
    return i >= 0 && i < 64 ? (int)i : -1;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent e)
{
    return event_index(e) >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
FAKE_CHECK_TYPE(cuEventDestroy_v2, cuEventDestroy_fn);

FAKE_EXPORT CUresult cuEventRecord(CUevent e, CUstream s)
{
    int i = event_index(e);
    (void)s;
    if (i < 0)
        return CUDA_ERROR_INVALID_VALUE;
    event_time[i] = clock_ms;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuEventRecord, cuEventRecord_fn);

FAKE_EXPORT CUresult cuEventSynchronize(CUevent e)
{
    return event_index(e) >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
FAKE_CHECK_TYPE(cuEventSynchronize, cuEventSynchronize_fn);

FAKE_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    int i = event_index(a), j = event_index(b);
    if (ms == NULL || i < 0 || j < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *ms = (float)(event_time[j] - event_time[i]);
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuEventElapsedTime, cuEventElapsedTime_fn);

/* ---- kernels -------------------------------------------------------------------------- */

static CUresult run_check(unsigned threads, void **params)
{
    CUdeviceptr x = *(CUdeviceptr *)params[0], y = *(CUdeviceptr *)params[1];
    float a = *(float *)params[2];
    unsigned n = *(unsigned *)params[3], i;
    float *xs = device_mem(x, (size_t)n * 4), *ys = device_mem(y, (size_t)n * 4);
    const char *wrong = fake_scenario_getf("dev%d.check_wrong", current);
    if (xs == NULL || ys == NULL || threads < n)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    for (i = 0; i < n; i++)
        ys[i] = fmaf(a, xs[i], ys[i]);
    if (wrong && (unsigned)atoi(wrong) < n)
        ys[atoi(wrong)] += 1.0f;
    clock_ms += 0.01;
    return CUDA_SUCCESS;
}

static CUresult run_peak(unsigned threads, void **params)
{
    CUdeviceptr out = *(CUdeviceptr *)params[0];
    unsigned iters = *(unsigned *)params[3];
    if (device_mem(out, (size_t)threads * 4) == NULL)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    clock_ms += (double)threads * iters * 128.0 / (dev_num("fma_tflops", 1.0) * 1e9);
    return CUDA_SUCCESS;
}

static CUresult run_copy(unsigned threads, void **params)
{
    CUdeviceptr src = *(CUdeviceptr *)params[0], dst = *(CUdeviceptr *)params[1];
    unsigned long long n16 = *(unsigned long long *)params[2];
    size_t bytes = (size_t)n16 * 16;
    void *s = device_mem(src, bytes), *d = device_mem(dst, bytes);
    const char *drops = fake_scenario_getf("dev%d.copy_drops", current);
    if (s == NULL || d == NULL || threads < n16)
        return CUDA_ERROR_ILLEGAL_ADDRESS;
    if (!(drops && strcmp(drops, "1") == 0))
        memcpy(d, s, bytes);
    clock_ms += 2.0 * (double)bytes / (dev_num("mem_gbps", 100.0) * 1e6);
    return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                    unsigned bx, unsigned by, unsigned bz, unsigned shared,
                                    CUstream s, void **params, void **extra)
{
    unsigned threads = gx * gy * gz * bx * by * bz;
    int err = launch_error();
    (void)shared;
    (void)s;
    (void)extra;
    if (current < 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (err)
        return err;
    if (params == NULL || bx > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    if (f == (CUfunction)&fn_check)
        return run_check(threads, params);
    if (f == (CUfunction)&fn_peak)
        return run_peak(threads, params);
    if (f == (CUfunction)&fn_copy)
        return run_copy(threads, params);
    return CUDA_ERROR_INVALID_VALUE;
}
FAKE_CHECK_TYPE(cuLaunchKernel, cuLaunchKernel_fn);
