/* The architecture rule: can a GPU of compute capability X.Y run a wheel compiled for a
 * list of targets? Pure functions, no I/O, no allocation.
 *
 * Targets come in two notations: nvcc's ("sm_86", "sm_90a", "compute_90") as
 * torch.cuda.get_arch_list() and cuobjdump print them, and TORCH_CUDA_ARCH_LIST's
 * ("8.6", "9.0+PTX", "9.0a"). The rule (CUDA's binary compatibility):
 *   - SASS sm_XY runs on X.Z for Z >= Y: same major only (sm_86 on 8.9, not sm_90 on 8.9,
 *     not sm_75 on 8.0);
 *   - PTX compute_XY is JIT-compiled by the driver for any CC >= X.Y, whatever the major,
 *     if the driver is new enough to read that PTX;
 *   - arch-specific "a" targets (sm_90a, sm_100a) run only on exactly that CC. */
#ifndef DLENV_KNOW_ARCH_H
#define DLENV_KNOW_ARCH_H

#include <stdbool.h>
#include <stddef.h>

typedef enum dl_arch_code {
    DL_ARCH_SASS,  /* machine code for one architecture: sm_XY */
    DL_ARCH_PTX    /* virtual code the driver compiles: compute_XY, "+PTX" */
} dl_arch_code;

typedef struct dl_arch_target {
    unsigned major, minor;  /* 8, 6 for sm_86 */
    dl_arch_code code;
    bool specific;          /* an "a" target: runs on exactly major.minor */
} dl_arch_target;

#define DL_ARCH_MAX_TARGETS 64

typedef struct dl_arch_list {
    dl_arch_target t[DL_ARCH_MAX_TARGETS];
    size_t n;
    size_t n_bad;           /* tokens that were not a target (or did not fit): skipped */
    char first_bad[24];     /* the first of them, cut to fit, for the message */
} dl_arch_list;

/* One token: "sm_86", "sm_90a", "sm_100f", "compute_90", "8.6", "9.0a", "9.0+PTX".
 * "9.0+PTX" is two targets (SASS and PTX for 9.0), so out has room for two; *n says how
 * many were written. */
bool dl_arch_target_parse(const char *tok, size_t len, dl_arch_target out[2], size_t *n);
/* A list separated by ';', ',', spaces or tabs, in either notation (mixed is fine).
 * Garbage tokens are skipped and counted in n_bad. Returns false when n_bad > 0. */
bool dl_arch_list_parse(const char *s, dl_arch_list *list);
/* "sm_86" / "compute_90" / "sm_90a" for messages; false when out is too short. */
bool dl_arch_target_name(const dl_arch_target *t, char *out, size_t n);
/* A device compute capability "8.9" -> 8, 9. */
bool dl_cc_parse(const char *s, unsigned *major, unsigned *minor);

typedef enum dl_arch_verdict {
    DL_ARCH_RUNS_SASS,    /* target: the SASS the driver will pick */
    DL_ARCH_RUNS_PTX_JIT, /* target: the PTX the driver will JIT; needs_new_driver */
    DL_ARCH_TOO_NEW,      /* device newer than every target: arch_not_in_wheel */
    DL_ARCH_TOO_OLD,      /* device older than every target: gpu_arch_dropped */
    DL_ARCH_NOT_COVERED,  /* targets on both sides, none for this device (a gap such as
                           * Windows cu126 without sm_61): gpu_arch_dropped */
    DL_ARCH_UNKNOWN       /* no targets, or a device CC of 0.x */
} dl_arch_verdict;

typedef struct dl_arch_result {
    dl_arch_verdict verdict;
    dl_arch_target target;   /* set for RUNS_SASS and RUNS_PTX_JIT */
    /* PTX JIT needs a driver that knows the PTX version the wheel's CUDA wrote: a driver
     * running the wheel through minor-version compatibility cannot JIT it. */
    bool needs_new_driver;
    const char *diagnosis;   /* "arch_not_in_wheel", "gpu_arch_dropped", or NULL */
} dl_arch_result;

dl_arch_result dl_arch_check(unsigned cc_major, unsigned cc_minor, const dl_arch_list *list);

#endif
