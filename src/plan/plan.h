/* The install planner: which torch, which variant (cpu, cuXYZ, rocmX.Y, xpu, the macOS
 * wheels) and which index fit a machine, decided from every signal together: OS and
 * architecture, Python version and bitness, the GPUs and their compute capability, the
 * driver with minor-version compatibility, and the wheel's architecture list.
 *
 * The machine is a plain description (dl_plan_machine) so the same planner serves this
 * machine (built from the facts), a machine described by flags, and doctor's fixes. Pure
 * functions of the description and the knowledge tables: no I/O.
 *
 * The text fields are fixed arrays, and none is cut silently. A value that must be exact
 * (a version, a variant, a driver) either fits by construction (said at the field) or is
 * refused when it does not: dl_plan_make fails naming it, a driver minimum that does not
 * fit is no minimum. Prose (names, why-texts) is written with dl_fixed_fmt: a cut one
 * ends in "…" and sets the struct's `cut` flag, which `plan --json` carries. */
#ifndef DLENV_PLAN_PLAN_H
#define DLENV_PLAN_PLAN_H

#include "know/tables.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum dl_plan_os { DL_PLAN_OS_UNKNOWN, DL_PLAN_OS_LINUX, DL_PLAN_OS_WINDOWS,
                          DL_PLAN_OS_MACOS } dl_plan_os;

typedef enum dl_gpu_vendor { DL_GPU_NVIDIA, DL_GPU_AMD, DL_GPU_INTEL, DL_GPU_APPLE,
                             DL_GPU_OTHER } dl_gpu_vendor;

typedef struct dl_plan_gpu {
    dl_gpu_vendor vendor;
    char name[96];                /* prose: ends in "…" when cut */
    unsigned cc_major, cc_minor;  /* NVIDIA compute capability; 0.0 when unknown */
    char guessed[96];             /* the table's name the capability came from when the
                                     given name was a near miss ("did you mean") */
    char unknown_why[200];        /* why the capability is unknown, when the name is known
                                     but ambiguous; "" otherwise */
    char target[24];              /* AMD gfx id / Intel Xe family from the chip codename
                                     (a PCI id); "": decided by the name */
} dl_plan_gpu;

#define DL_PLAN_MAX_GPUS 16

/* Said after a Windows minimum driver that is Linux's figure (min_driver_from_linux). */
#define DL_PLAN_LINUX_FIGURE_NOTE " (Linux figure; NVIDIA publishes none for Windows)"

typedef struct dl_plan_machine {
    dl_plan_os os;
    char arch[16];                /* x86_64, arm64, x86; a longer one ends in "…" and
                                     matches no wheel */
    unsigned py_major, py_minor;  /* 0.0: unknown (every Python is considered) */
    bool py_free_threaded;        /* a 3.13t-style build: needs cpXYt wheels */
    int py_bits;                  /* 64, 32; 0 unknown */
    dl_plan_gpu gpus[DL_PLAN_MAX_GPUS];
    size_t n_gpus;
    char driver[32];              /* the NVIDIA driver in Linux form ("535.98"); "" none.
                                     dl_driver_normalize refuses one that does not fit */
    int driver_cuda;              /* the driver's newest CUDA (12040); 0: from the table */
} dl_plan_machine;

typedef enum dl_plan_want { DL_WANT_ANY, DL_WANT_CPU, DL_WANT_CUDA, DL_WANT_ROCM,
                            DL_WANT_XPU, DL_WANT_MPS } dl_plan_want;

typedef struct dl_plan_constraints {
    dl_plan_want want;
    const char *torch;            /* "2.3" (= 2.3.*), "2.3.1", ">=2.1,<2.4"; NULL: any */
} dl_plan_constraints;

/* Why a candidate cannot be installed, in the order the checks run. The ids are stable:
 * they appear in `plan --json` ("reason"). */
typedef enum dl_plan_reason {
    DL_REJ_TORCH_CONSTRAINT,   /* "torch_constraint": outside --torch */
    DL_REJ_VARIANT_CONSTRAINT, /* "variant_constraint": not what --for asked */
    DL_REJ_PLATFORM,           /* "no_wheels_for_platform": no wheel for this OS/arch */
    DL_REJ_PYTHON_32BIT,       /* "python_32bit" */
    DL_REJ_PYTHON,             /* "no_wheel_for_python" */
    DL_REJ_NO_GPU,             /* "no_matching_gpu": the variant needs a GPU not here */
    DL_REJ_DRIVER,             /* "driver_too_old" */
    DL_REJ_ARCH_DROPPED,       /* "gpu_arch_dropped": the GPU is older than the wheel */
    DL_REJ_ARCH_TOO_NEW,       /* "arch_not_in_wheel": the GPU is newer than the wheel */
    DL_REJ_KNOWN_BAD,          /* "known_bad_release" */
    DL_REJ_COUNT
} dl_plan_reason;

const char *dl_plan_reason_id(dl_plan_reason r);

typedef struct dl_plan_candidate {
    /* exact: dl_plan_make fails when a table's value does not fit these four */
    char torch[24];               /* "2.9.1" */
    char variant[24];             /* "cu126", "cpu", "rocm6.4", "xpu", "macos" */
    char torchvision[24], torchaudio[24];  /* "" when the table has none */
    unsigned fails;               /* bit per dl_plan_reason */
    char detail[DL_REJ_COUNT][160]; /* why, per failed check, in plain words */
    /* exact: a table minimum that does not fit is treated as no minimum */
    char min_driver[32];          /* the driver that runs this variant outright */
    bool min_driver_from_linux;   /* Windows, where NVIDIA publishes no minimum: Linux's */
    bool minor_compat;            /* runs through CUDA minor-version compatibility */
    char unlock_driver[32];       /* the smallest driver that runs it at all (through
                                     minor-version compatibility when that is lower) */
    bool unlock_mvc;              /* unlock_driver runs it through minor-version compat */
    bool needs_ptx_jit;           /* a GPU runs it only by JIT from PTX (no MVC then) */
    bool beyond_last_branch;      /* unlock_driver is newer than a GPU's last branch */
    bool python_unofficial;       /* a wheel exists, outside the official Python range */
    char arch_note[160];          /* where the arch list came from when not exact */
    char unverified[512];         /* why its fit to the GPU is unknown (an NVIDIA GPU whose
                                     compute capability is unknown); "" when known */
    bool cut;                     /* a prose field (detail, arch_note, unverified) did not
                                     fit and ends in "…" */
} dl_plan_candidate;

typedef struct dl_plan {
    dl_plan_candidate *c;         /* every candidate, newest torch first */
    size_t n;
    long best;                    /* index into c; -1: nothing fits */
    long after_driver_update;     /* better with a newer driver; -1: none */
    long cpu_alternative;         /* the best CPU build when best is a GPU one; -1 */
    long unverified_gpu;          /* the best GPU build whose fit to a GPU of unknown
                                     capability is unknown (never the recommendation); -1 */
    long gpu_blocked_by_python;   /* newest GPU build this Python lacks; -1 */
    long newer_python;            /* newest build a newer Python would unlock; -1 */
    char python_tag[16];          /* "cp312", "cp313t"; "" when the Python is unknown
                                     (dl_plan_make fails on one that does not fit) */
    int last_branch;              /* the newest driver branch every NVIDIA GPU here can
                                     run (470 Kepler, 580 Maxwell-Volta); 0: no limit */
    char driver_warning[240];     /* a driver that does not exist for a GPU here */
    char platform[24];            /* "linux-x86_64": torch_wheels' platform; fits by
                                     construction (OS name 7 + dash + arch 15) */
    bool cut;                     /* driver_warning, or a candidate's prose, ends in "…" */
} dl_plan;

/* Evaluates every release and variant for the machine. False (with *error, one line)
 * when the tables lack what the planner needs or a constraint does not parse. */
bool dl_plan_make(const dl_knowledge *k, const dl_plan_machine *m,
                  const dl_plan_constraints *cons, dl_plan *out, char **error);
void dl_plan_free(dl_plan *p);

/* The first reason a candidate failed; DL_REJ_COUNT when it passed. */
dl_plan_reason dl_plan_first_reason(const dl_plan_candidate *c);
/* A CUDA candidate on a machine whose driver is not known: its fit to the driver is a
 * claim nobody checked, so renderers must not mark it as proven. */
bool dl_plan_driver_unchecked(const dl_plan_machine *m, const dl_plan_candidate *c);

const char *dl_plan_os_name(dl_plan_os os);
dl_plan_os dl_plan_os_parse(const char *s);

#endif
