/* Device memory. The buffers are far larger than any GPU's L2 cache (up to the budget's
 * cap, at most a quarter of free memory) and are filled with a non-zero pattern that the
 * copy must reproduce: a bandwidth of copying nothing would be fiction. */
#include "measure/gpu_memory.h"

#include "base/str.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PATTERN 0x3F8CCCCDu   /* 1.1f */
#define MIN_BUFFER ((size_t)16 << 20)
#define ALIGN ((size_t)4096)

typedef struct buffers {
    CUdeviceptr src, dst;
    size_t bytes;
} buffers;

static bool copy_kernel_work(dl_gpu_session *s, void *arg, unsigned count)
{
    buffers *b = arg;
    unsigned long long n16 = b->bytes / 16;
    unsigned i;
    void *params[3];
    params[0] = &b->src;
    params[1] = &b->dst;
    params[2] = &n16;
    for (i = 0; i < count; i++)
        if (!dl_gpu_launch(s, s->copy, "dl_copy", (unsigned)(n16 / 256), 256, params))
            return false;
    return true;
}

static bool dtod_work(dl_gpu_session *s, void *arg, unsigned count)
{
    buffers *b = arg;
    unsigned i;
    for (i = 0; i < count; i++)
        if (!dl_cuda_ok(s->cu, s->cu->dtod_async(b->dst, b->src, b->bytes, s->stream),
                        "cuMemcpyDtoDAsync"))
            return false;
    return true;
}

/* The copy really happened: the ends of the destination hold the pattern. */
static bool copied(dl_gpu_session *s, const buffers *b, bool *same)
{
    uint32_t head[1024], tail[1024];
    size_t i;
    if (!dl_cuda_ok(s->cu, s->cu->stream_sync(s->stream), "cuStreamSynchronize") ||
        !dl_cuda_ok(s->cu, s->cu->dtoh(head, b->dst, sizeof head), "cuMemcpyDtoH") ||
        !dl_cuda_ok(s->cu, s->cu->dtoh(tail, b->dst + b->bytes - sizeof tail, sizeof tail),
                    "cuMemcpyDtoH"))
        return false;
    *same = true;
    for (i = 0; i < 1024; i++)
        if (head[i] != PATTERN || tail[i] != PATTERN)
            *same = false;
    return true;
}

/* Times one way of copying and checks its result; the figure stays unknown, with the
 * reason, when the copy did not copy. */
static bool time_copy(dl_gpu_session *s, buffers *b, dl_gpu_work work, dl_num *gbps)
{
    double ms[DL_GPU_MAX_SAMPLES], rate, spread;
    unsigned count = 0;
    bool same = false;
    if (!dl_cuda_ok(s->cu, s->cu->memset32(b->dst, 0, b->bytes / 4), "cuMemsetD32") ||
        !dl_gpu_time(s, work, b, NULL, NULL, &count, ms) || !copied(s, b, &same))
        return false;
    if (!same)
        dl_num_unknown(gbps, "the copied buffer does not hold what was copied");
    else if (dl_gpu_rate(ms, s->n_events / 2, 2.0 * (double)b->bytes / 1e9, count, &rate,
                         &spread))
        dl_num_set(gbps, rate);
    else
        dl_num_unknown(gbps, "the GPU's events timed the copy at 0 ms");
    return true;
}

static size_t buffer_size(const dl_gpu_session *s, size_t free_bytes)
{
    size_t bytes = free_bytes / 4;
    if (bytes > s->budget->copy_cap)
        bytes = s->budget->copy_cap;
    return bytes / ALIGN * ALIGN;
}

bool dl_gpu_memory_bandwidth(dl_gpu_session *s)
{
    buffers b;
    size_t free_bytes = 0, total = 0;
    bool ok;
    memset(&b, 0, sizeof b);
    if (!dl_cuda_ok(s->cu, s->cu->mem_info(&free_bytes, &total), "cuMemGetInfo"))
        return false;
    b.bytes = buffer_size(s, free_bytes);
    if (b.bytes < MIN_BUFFER) {
        char *why = dl_fmt("only %llu MiB of the GPU's memory is free",
                             (unsigned long long)(free_bytes >> 20));
        dl_num_unknown(&s->out->copy_kernel_gbps, "%s", why);
        dl_num_unknown(&s->out->dtod_gbps, "%s", why);
        free(why);
        return true;
    }
    dl_int_set(&s->out->copy_buffer_bytes, (long long)b.bytes);
    ok = dl_cuda_ok(s->cu, s->cu->mem_alloc(&b.src, b.bytes), "cuMemAlloc") &&
         dl_cuda_ok(s->cu, s->cu->mem_alloc(&b.dst, b.bytes), "cuMemAlloc") &&
         dl_cuda_ok(s->cu, s->cu->memset32(b.src, PATTERN, b.bytes / 4), "cuMemsetD32") &&
         time_copy(s, &b, copy_kernel_work, &s->out->copy_kernel_gbps) &&
         time_copy(s, &b, dtod_work, &s->out->dtod_gbps);
    if (b.dst)
        s->cu->mem_free(b.dst);
    if (b.src)
        s->cu->mem_free(b.src);
    return ok;
}

size_t dl_gpu_bisect_allocation(size_t free_bytes, size_t step, dl_gpu_try_alloc try_alloc,
                                void *ctx)
{
    size_t lo = 0, hi;   /* lo works, hi does not */
    if (step == 0 || free_bytes < step)
        return 0;
    hi = free_bytes / step * step + step;
    if (try_alloc(ctx, hi - step))
        return hi - step;
    hi -= step;
    while (hi - lo > step) {
        size_t mid = lo + (hi - lo) / 2 / step * step;
        if (mid == lo)
            mid = lo + step;
        if (try_alloc(ctx, mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

typedef struct alloc_ctx {
    dl_gpu_session *s;
    CUresult last;
} alloc_ctx;

/* A plain cuMemAlloc, freed at once: never managed memory, never oversubscribed. */
static bool try_device_alloc(void *ctx, size_t bytes)
{
    alloc_ctx *a = ctx;
    CUdeviceptr p = 0;
    a->last = a->s->cu->mem_alloc(&p, bytes);
    if (a->last != CUDA_SUCCESS)
        return false;
    a->s->cu->mem_free(p);
    return true;
}

bool dl_gpu_max_allocation(dl_gpu_session *s)
{
    size_t free_bytes = 0, total = 0, step, best;
    alloc_ctx a;
    if (!dl_cuda_ok(s->cu, s->cu->mem_info(&free_bytes, &total), "cuMemGetInfo"))
        return false;
    dl_int_set(&s->out->memory_free_bytes, (long long)free_bytes);
    dl_int_set(&s->out->memory_total_bytes, (long long)total);
    /* 1/512 of free memory, at least 2 MiB (the allocation granularity): about 9 tries */
    step = free_bytes / 512;
    if (step < ((size_t)2 << 20))
        step = (size_t)2 << 20;
    a.s = s;
    a.last = CUDA_SUCCESS;
    best = dl_gpu_bisect_allocation(free_bytes, step, try_device_alloc, &a);
    if (best > 0)
        dl_int_set(&s->out->max_alloc_bytes, (long long)best);
    else
        dl_int_unknown(&s->out->max_alloc_bytes, "no allocation of %llu MiB succeeded",
                       (unsigned long long)(step >> 20));
    return true;
}
