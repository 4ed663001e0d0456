/* A GPU that is found can still compute wrong (a bad card, a broken driver) or slowly. The
 * check runs a fused multiply-add over random data and compares every value with the CPU;
 * the peak runs 8 independent FMA chains per thread on every SM. */
#include "measure/gpu_compute.h"

#include "base/str.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_N (1u << 20)
#define BLOCK 256u

float dl_gpu_fma_reference(float a, float x, float y)
{
    /* the product of two floats is exact in a double; one more rounding for the sum */
    return (float)((double)a * (double)x + (double)y);
}

bool dl_gpu_float_close(float got, float want)
{
    float next_up, next_down;
    if (got == want)
        return true;
    if (isnan(got) || isnan(want))
        return false;
    next_up = nextafterf(want, INFINITY);
    next_down = nextafterf(want, -INFINITY);
    return got == next_up || got == next_down;
}

/* xorshift32: reproducible random data in [-1, 1) with no library state. */
static float random_float(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(x >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

static void compare(dl_gpu_measure *out, const float *x, const float *y, const float *got,
                    float a, unsigned n)
{
    unsigned i, wrong = 0, first = 0;
    for (i = 0; i < n; i++) {
        if (!dl_gpu_float_close(got[i], dl_gpu_fma_reference(a, x[i], y[i]))) {
            if (wrong++ == 0)
                first = i;
        }
    }
    dl_int_set(&out->check_elements, n);
    if (wrong == 0)
        dl_text_set(&out->check, "passed");
    else {
        char *what = dl_fmt("%u of %u values differ from the CPU (first at %u: %.9g, expected "
                            "%.9g)", wrong, n, first, (double)got[first],
                            (double)dl_gpu_fma_reference(a, x[first], y[first]));
        dl_text_set(&out->check, what);
        free(what);
    }
}

static bool run_check(dl_gpu_session *s, CUdeviceptr dx, CUdeviceptr dy, float *x, float *y,
                      float *got)
{
    uint32_t state = 0x9e3779b9u;
    float a = 1.5f + random_float(&state) * 0.25f;
    unsigned n = CHECK_N, i;
    size_t bytes = (size_t)n * sizeof(float);
    void *params[4];
    for (i = 0; i < n; i++) {
        x[i] = random_float(&state);
        y[i] = random_float(&state);
    }
    params[0] = &dx;
    params[1] = &dy;
    params[2] = &a;
    params[3] = &n;
    if (!dl_cuda_ok(s->cu, s->cu->htod(dx, x, bytes), "cuMemcpyHtoD") ||
        !dl_cuda_ok(s->cu, s->cu->htod(dy, y, bytes), "cuMemcpyHtoD") ||
        !dl_gpu_launch(s, s->check, "dl_fma_check", (n + BLOCK - 1) / BLOCK, BLOCK, params) ||
        !dl_cuda_ok(s->cu, s->cu->stream_sync(s->stream), "cuStreamSynchronize(dl_fma_check)") ||
        !dl_cuda_ok(s->cu, s->cu->dtoh(got, dy, bytes), "cuMemcpyDtoH"))
        return false;
    compare(s->out, x, y, got, a, n);
    return true;
}

bool dl_gpu_check_kernel(dl_gpu_session *s)
{
    size_t bytes = (size_t)CHECK_N * sizeof(float);
    CUdeviceptr dx = 0, dy = 0;
    float *host = malloc(3 * bytes);
    bool ok = false;
    if (!host) {
        dl_text_unknown(&s->out->check, "out of host memory for the check's data");
        return true;
    }
    if (dl_cuda_ok(s->cu, s->cu->mem_alloc(&dx, bytes), "cuMemAlloc") &&
        dl_cuda_ok(s->cu, s->cu->mem_alloc(&dy, bytes), "cuMemAlloc"))
        ok = run_check(s, dx, dy, host, host + CHECK_N, host + 2 * CHECK_N);
    if (dy)
        s->cu->mem_free(dy);
    if (dx)
        s->cu->mem_free(dx);
    free(host);
    return ok;
}

typedef struct peak_args {
    CUdeviceptr out;
    unsigned grid;
} peak_args;

/* `count` trips of the kernel's loop, in one launch. */
static bool peak_work(dl_gpu_session *s, void *arg, unsigned count)
{
    peak_args *p = arg;
    float b = 0.9999f, c = 0.0001f;
    void *params[4];
    params[0] = &p->out;
    params[1] = &b;
    params[2] = &c;
    params[3] = &count;
    return dl_gpu_launch(s, s->peak, "dl_fma_peak", p->grid, BLOCK, params);
}

bool dl_gpu_fp32_peak(dl_gpu_session *s, dl_gpu_during during, void *during_arg)
{
    peak_args p;
    double ms[DL_GPU_MAX_SAMPLES], tflops, spread;
    double threads;
    unsigned count = 0;
    bool ok;
    /* every SM full: as many 256-thread blocks as it holds at once */
    p.grid = (unsigned)s->sms * (unsigned)(s->threads_per_sm / (int)BLOCK);
    p.out = 0;
    threads = (double)p.grid * BLOCK;
    if (!dl_cuda_ok(s->cu, s->cu->mem_alloc(&p.out, (size_t)p.grid * BLOCK * sizeof(float)),
                    "cuMemAlloc"))
        return false;
    ok = dl_gpu_time(s, peak_work, &p, during, during_arg, &count, ms);
    if (ok && dl_gpu_rate(ms, s->n_events / 2, threads * 64.0 * 2.0 / 1e12, count, &tflops,
                          &spread)) {
        dl_num_set(&s->out->fp32_tflops, tflops);
        dl_num_set(&s->out->fp32_spread_pct, spread);
    } else if (ok) {
        dl_num_unknown(&s->out->fp32_tflops, "the GPU's events timed the FMA kernel at 0 ms");
    }
    s->cu->mem_free(p.out);
    return ok;
}
