/* Every version rule of dlenv: dotted versions, torch's PEP 440 versions and their local
 * tags, CUDA version integers, NVIDIA driver versions (Linux and Windows forms), the
 * requirement strings of shared/data/ CSVs, and the driver-vs-wheel CUDA rule with
 * minor-version compatibility. Pure functions: no I/O, no allocation, no global state, so
 * the rules engine can call them on live facts and on pasted text alike. */
#ifndef DLENV_KNOW_VERSION_H
#define DLENV_KNOW_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* ---- Generic dotted versions: "12.4", "12.4.127", "535.104.05", "31.0.15.3598" ---- */

#define DL_VERSION_MAX_PARTS 4

typedef struct dl_version {
    unsigned long part[DL_VERSION_MAX_PARTS]; /* unused parts are 0 */
    int n;                                    /* parts given, 1..4 */
} dl_version;

/* The whole string must be 1 to 4 dot-separated runs of digits (at most 9 digits each,
 * leading zeros allowed: "05" is 5). On failure *v is zeroed and false returned. */
bool dl_version_parse(const char *s, dl_version *v);
/* <0, 0, >0; missing parts count as 0, so "12.4" == "12.4.0". */
int dl_version_cmp(const dl_version *a, const dl_version *b);

/* ---- torch versions: "2.3.1+cu121", "2.4.0a0+git1234abc", "2.6.0.dev20241112+cu124" ---- */

typedef enum dl_pre_kind {
    DL_PRE_DEV,   /* ordered as PEP 440 orders them: dev < a < b < rc < final */
    DL_PRE_ALPHA,
    DL_PRE_BETA,
    DL_PRE_RC,
    DL_PRE_NONE   /* a final release */
} dl_pre_kind;

typedef struct dl_torch_version {
    dl_version release;     /* 2.3.1 */
    dl_pre_kind pre;        /* a/b/rc/dev tag, DL_PRE_NONE for a release */
    unsigned long pre_num;  /* the tag's number: 0 for "a0", 20241112 for ".dev20241112" */
    char local[64];         /* after '+': "cu121", "git1234abc"; "" when none */
} dl_torch_version;

/* Accepts release[tag][+local] where tag is a/b/rc/dev with an optional leading '.' and
 * an optional number. A local tag is [A-Za-z0-9._-]+ and shorter than 64 characters. */
bool dl_torch_version_parse(const char *s, dl_torch_version *v);
/* Orders by release then pre-release; the local tag names a build, not an order, and is
 * ignored ("2.3.1+cu121" == "2.3.1+cpu"). */
int dl_torch_version_cmp(const dl_torch_version *a, const dl_torch_version *b);

/* The torch release written right after `mark` in text ("(you have " then "2.4.0+cu121)"),
 * with its pre-release and local tag, into out (cut to fit). False when no dotted release
 * with a one-digit major follows: a sentence's full stop and a lone "+" are not
 * part of it. */
bool dl_torch_version_after(const char *text, const char *mark, char *out, size_t n);

typedef enum dl_variant_kind {
    DL_VARIANT_NONE,    /* no local tag: the PyPI default build */
    DL_VARIANT_CUDA,    /* cu121 */
    DL_VARIANT_CPU,     /* cpu, cpu.cxx11.abi */
    DL_VARIANT_ROCM,    /* rocm6.2.4 */
    DL_VARIANT_XPU,     /* xpu */
    DL_VARIANT_UNKNOWN  /* anything else: a source build ("git1234abc"), a vendor's tag */
} dl_variant_kind;

typedef struct dl_variant {
    dl_variant_kind kind;
    char version[16];   /* CUDA "12.1" or ROCm "6.2.4"; "" for the other kinds */
} dl_variant;

/* The build a torch local tag names. NULL and "" are DL_VARIANT_NONE. */
dl_variant dl_torch_variant(const char *local);
/* "12.8" (or "12.8.1") -> "cu128". False when not a CUDA version or out does not fit. */
bool dl_cuda_variant_name(const char *cuda, char *out, size_t n);

/* ---- CUDA version integers, as cuDriverGetVersion and NVML give them ---- */

/* 12040 -> "12.4", 13000 -> "13.0", 11080 -> "11.8". False for v <= 0 or a short out. */
bool dl_cuda_version_from_int(int v, char *out, size_t n);
/* "12.4" -> 12040: the inverse, to compare a wheel's CUDA with the driver's integer. */
bool dl_cuda_version_to_int(const char *s, int *out);

/* ---- NVIDIA driver versions ---- */

/* Windows' "31.0.15.3598" -> NVIDIA's "535.98": the last five digits of the last two
 * groups (the fourth zero-padded to four digits, as Windows prints it without zeros). */
bool dl_driver_from_windows(const char *win, char *out, size_t n);
/* A driver version in NVIDIA's form: four groups are the Windows form and are converted,
 * two or three ("535.98", "535.104.05") are copied. False when neither. */
bool dl_driver_normalize(const char *s, char *out, size_t n);
/* Compares two driver versions (either form) group by group as numbers:
 * "535.104.05" > "535.98" because 104 > 98. False when either does not parse. */
bool dl_driver_cmp(const char *a, const char *b, int *out);

/* ---- Requirement strings as the CSVs hold them: ">=450.80.02", "<525", "" ---- */

typedef enum dl_req_op {
    DL_REQ_ANY,  /* "" or "N/A": no requirement */
    DL_REQ_GE, DL_REQ_GT, DL_REQ_LE, DL_REQ_LT, DL_REQ_EQ, DL_REQ_NE
} dl_req_op;

typedef struct dl_requirement {
    dl_req_op op;
    dl_version version;
} dl_requirement;

/* An operator (>=, >, <=, <, ==, =, !=) then a dotted version; spaces around are allowed.
 * A bare version without operator is refused: the tables always say which way. */
bool dl_requirement_parse(const char *req, dl_requirement *r);
bool dl_requirement_test(const dl_requirement *r, const dl_version *v);
/* False also when req or version does not parse: an unreadable rule is not "satisfied". */
bool dl_requirement_ok(const char *req, const char *version);

/* ---- Can this driver run a wheel built with this CUDA? ---- */

typedef enum dl_cuda_compat {
    DL_CUDA_COMPAT_OK,              /* the driver supports the wheel's CUDA outright */
    DL_CUDA_COMPAT_OK_MINOR_COMPAT, /* runs through minor-version compatibility: PTX JIT
                                     * of newer PTX and some features need a newer driver */
    DL_CUDA_COMPAT_TOO_OLD,         /* driver_too_old */
    DL_CUDA_COMPAT_UNKNOWN          /* an input is missing or does not parse, or the MVC
                                     * minimum the answer depends on is not known */
} dl_cuda_compat;

/* driver_cuda: the driver's CUDA integer (12040). wheel_cuda: torch.version.cuda ("12.8").
 * driver_version: the driver ("550.54.14" or Windows form), may be NULL when unknown.
 * mvc_min_driver: the mvc_min_driver_linux/_windows cell of the wheel's CUDA row
 * (">=525", ">=450.80.02"); NULL or "" when not known. CUDA 10.x and older have no
 * minor-version compatibility. */
dl_cuda_compat dl_cuda_compat_check(int driver_cuda, const char *wheel_cuda,
                                    const char *driver_version, const char *mvc_min_driver);

#endif
