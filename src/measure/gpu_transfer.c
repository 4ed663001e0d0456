/* Host<->device bandwidth the way NVIDIA's nvbandwidth measures it: the copy engine
 * (cuMemcpyAsync), large buffers, GPU events around each sample on one stream. A copy from
 * pageable memory goes through the driver's staging buffer, which is why it is slower and
 * why both are worth knowing: a DataLoader without pin_memory gets the pageable figure. */
#include "measure/gpu_transfer.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

#define MIN_TRANSFER ((size_t)8 << 20)

typedef struct transfer {
    CUdeviceptr dev;
    void *host;
    size_t bytes;
    bool to_device;
} transfer;

static bool transfer_work(dl_gpu_session *s, void *arg, unsigned count)
{
    transfer *t = arg;
    unsigned i;
    for (i = 0; i < count; i++) {
        CUresult rc = t->to_device ? s->cu->htod_async(t->dev, t->host, t->bytes, s->stream)
                                   : s->cu->dtoh_async(t->host, t->dev, t->bytes, s->stream);
        if (!dl_cuda_ok(s->cu, rc, t->to_device ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync"))
            return false;
    }
    return true;
}

static bool time_transfer(dl_gpu_session *s, transfer *t, dl_gpu_during during,
                          void *during_arg, dl_num *gbps)
{
    double ms[DL_GPU_MAX_SAMPLES], rate, spread;
    unsigned count = 0;
    if (!dl_gpu_time(s, transfer_work, t, during, during_arg, &count, ms))
        return false;
    if (dl_gpu_rate(ms, s->n_events / 2, (double)t->bytes / 1e9, count, &rate, &spread))
        dl_num_set(gbps, rate);
    else
        dl_num_unknown(gbps, "the GPU's events timed the copy at 0 ms");
    return true;
}

/* Both directions from one host buffer. */
static bool both_ways(dl_gpu_session *s, transfer *t, dl_gpu_during during, void *during_arg,
                      dl_num *h2d, dl_num *d2h)
{
    t->to_device = true;
    if (!time_transfer(s, t, during, during_arg, h2d))
        return false;
    t->to_device = false;
    return time_transfer(s, t, NULL, NULL, d2h);
}

static size_t transfer_size(dl_gpu_session *s)
{
    size_t free_bytes = 0, total = 0, bytes = s->budget->transfer_cap;
    if (!dl_cuda_ok(s->cu, s->cu->mem_info(&free_bytes, &total), "cuMemGetInfo"))
        return 0;
    if (bytes > free_bytes / 4)
        bytes = free_bytes / 4 / 4096 * 4096;
    return bytes;
}

static void all_unknown(dl_gpu_measure *o, const char *why)
{
    dl_num_unknown(&o->h2d_pinned_gbps, "%s", why);
    dl_num_unknown(&o->d2h_pinned_gbps, "%s", why);
    dl_num_unknown(&o->h2d_pageable_gbps, "%s", why);
    dl_num_unknown(&o->d2h_pageable_gbps, "%s", why);
}

bool dl_gpu_host_transfers(dl_gpu_session *s, dl_gpu_during during, void *during_arg)
{
    transfer t;
    void *pinned = NULL;
    bool ok;
    memset(&t, 0, sizeof t);
    t.bytes = transfer_size(s);
    if (s->cu->error)
        return false;
    if (t.bytes < MIN_TRANSFER) {
        all_unknown(s->out, "too little of the GPU's memory is free for the copies");
        return true;
    }
    dl_int_set(&s->out->transfer_bytes, (long long)t.bytes);
    t.host = malloc(t.bytes);
    if (!t.host) {
        all_unknown(s->out, "out of host memory for the copies");
        return true;
    }
    memset(t.host, 0x5a, t.bytes);   /* touched: the pageable figure is not first-touch */
    ok = dl_cuda_ok(s->cu, s->cu->mem_alloc(&t.dev, t.bytes), "cuMemAlloc") &&
         dl_cuda_ok(s->cu, s->cu->host_alloc(&pinned, t.bytes), "cuMemAllocHost");
    if (ok) {
        void *pageable = t.host;
        memset(pinned, 0x5a, t.bytes);
        t.host = pinned;
        ok = both_ways(s, &t, during, during_arg, &s->out->h2d_pinned_gbps,
                       &s->out->d2h_pinned_gbps);
        t.host = pageable;
        ok = ok && both_ways(s, &t, NULL, NULL, &s->out->h2d_pageable_gbps,
                             &s->out->d2h_pageable_gbps);
    }
    if (s->stream)
        s->cu->stream_sync(s->stream);
    if (pinned)
        s->cu->host_free(pinned);
    if (t.dev)
        s->cu->mem_free(t.dev);
    free(t.host);
    return ok;
}
