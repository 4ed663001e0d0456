/* A fake libnvidia-ml.so.1 for tests: answers from the scenario file named by
 * DLENV_FAKE_SCENARIO (see fake_scenario.h). Built twice: as is, and with
 * -DFAKE_OLD_DRIVER, which leaves out the symbols newer drivers added. */
#include "fake_scenario.h"
#include "probe/gpu/nvml_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_MAX_GPUS 64
#define FAKE_MAX_PROCS 64

struct nvmlDevice_st {
    unsigned int index;
};

static struct nvmlDevice_st fake_gpus[FAKE_MAX_GPUS];
static int fake_init_count;   /* nvmlInit calls not yet matched by nvmlShutdown */

/* Check each exported function against the probe's function type. */
/* ---- helpers ------------------------------------------------------------------------- */

static unsigned int fake_gpu_count(void)
{
    const char *v = fake_scenario_get("nvml.count");
    long long n;
    if (v == NULL || !fake_scenario_ll(v, 10, &n) || n < 0)
        return 0;
    return n > FAKE_MAX_GPUS ? FAKE_MAX_GPUS : (unsigned int)n;
}

/* NVML_SUCCESS and *index, or the error a call with this handle gets. */
static nvmlReturn_t fake_check(nvmlDevice_t d, unsigned int *index)
{
    if (fake_init_count <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (d == NULL || d < &fake_gpus[0] || d >= &fake_gpus[FAKE_MAX_GPUS])
        return NVML_ERROR_INVALID_ARGUMENT;
    unsigned int i = (unsigned int)(d - &fake_gpus[0]);
    if (i >= fake_gpu_count())
        return NVML_ERROR_INVALID_ARGUMENT;
    *index = i;
    return NVML_SUCCESS;
}

/* The raw value of gpu<i>.<field>: NVML_SUCCESS, NOT_SUPPORTED when absent, or the
 * error:<N> code. */
static nvmlReturn_t fake_gpu_value(unsigned int i, const char *field, const char **out)
{
    const char *v = fake_scenario_getf("gpu%u.%s", i, field);
    int code;
    if (v == NULL)
        return NVML_ERROR_NOT_SUPPORTED;
    if (fake_scenario_is_error(v, &code))
        return code;
    *out = v;
    return NVML_SUCCESS;
}

static nvmlReturn_t fake_bad_value(unsigned int i, const char *field, const char *v)
{
    fprintf(stderr, "fake nvml: cannot parse gpu%u.%s = %s\n", i, field, v);
    return NVML_ERROR_UNKNOWN;
}

static nvmlReturn_t fake_gpu_ull(unsigned int i, const char *field, int base,
                                 unsigned long long *out)
{
    const char *v = NULL;
    nvmlReturn_t r = fake_gpu_value(i, field, &v);
    if (r != NVML_SUCCESS)
        return r;
    if (!fake_scenario_ull(v, base, out))
        return fake_bad_value(i, field, v);
    return NVML_SUCCESS;
}

static nvmlReturn_t fake_gpu_ll(unsigned int i, const char *field, long long *out)
{
    const char *v = NULL;
    nvmlReturn_t r = fake_gpu_value(i, field, &v);
    if (r != NVML_SUCCESS)
        return r;
    if (!fake_scenario_ll(v, 10, out))
        return fake_bad_value(i, field, v);
    return NVML_SUCCESS;
}

static nvmlReturn_t fake_copy(const char *s, char *buf, unsigned int len)
{
    if (buf == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    size_t n = strlen(s);
    if (n + 1 > len)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(buf, s, n + 1);
    return NVML_SUCCESS;
}

/* A system-wide string key: needs init; absent → NOT_SUPPORTED. */
static nvmlReturn_t fake_system_string(const char *key, char *buf, unsigned int len)
{
    if (fake_init_count <= 0)
        return NVML_ERROR_UNINITIALIZED;
    const char *v = fake_scenario_get(key);
    int code;
    if (v == NULL)
        return NVML_ERROR_NOT_SUPPORTED;
    if (fake_scenario_is_error(v, &code))
        return code;
    return fake_copy(v, buf, len);
}

static nvmlReturn_t fake_device_string(nvmlDevice_t d, const char *field, char *buf,
                                       unsigned int len)
{
    unsigned int i;
    const char *v = NULL;
    nvmlReturn_t r = fake_check(d, &i);
    if (r == NVML_SUCCESS)
        r = fake_gpu_value(i, field, &v);
    if (r != NVML_SUCCESS)
        return r;
    return fake_copy(v, buf, len);
}

static nvmlReturn_t fake_device_uint(nvmlDevice_t d, const char *field, unsigned int *out)
{
    unsigned int i;
    unsigned long long v = 0;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (out == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    r = fake_gpu_ull(i, field, 10, &v);
    if (r == NVML_SUCCESS)
        *out = (unsigned int)v;
    return r;
}

static nvmlReturn_t fake_device_int(nvmlDevice_t d, const char *field, int *out)
{
    unsigned int i;
    long long v;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (out == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    r = fake_gpu_ll(i, field, &v);
    if (r == NVML_SUCCESS)
        *out = (int)v;
    return r;
}

/* PCI info of GPU i from gpu<i>.bus_id and gpu<i>.pci_device_id. */
static nvmlReturn_t fake_pci_info(unsigned int i, nvmlPciInfo_t *pci)
{
    const char *bus_id = NULL;
    unsigned long long dev_id = 0;
    nvmlReturn_t r = fake_gpu_value(i, "bus_id", &bus_id);
    if (r != NVML_SUCCESS)
        return r;
    r = fake_gpu_ull(i, "pci_device_id", 16, &dev_id);
    if (r != NVML_SUCCESS && r != NVML_ERROR_NOT_SUPPORTED)
        return r;
    if (r == NVML_ERROR_NOT_SUPPORTED)
        dev_id = 0;

    unsigned int domain, bus, device, function;
    if (sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4)
        return fake_bad_value(i, "bus_id", bus_id);
    const char *colon = strchr(bus_id, ':');
    size_t domain_len = (size_t)(colon - bus_id);

    memset(pci, 0, sizeof *pci);
    pci->domain = domain;
    pci->bus = bus;
    pci->device = device;
    pci->pciDeviceId = (unsigned int)dev_id;
    pci->pciSubSystemId = 0;
    if (domain_len >= 8) {   /* "00000000:01:00.0": legacy form drops 4 domain digits */
        snprintf(pci->busId, sizeof pci->busId, "%s", bus_id);
        snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%s", bus_id + (domain_len - 4));
    } else {                 /* "0000:01:00.0" given: widen the domain for busId */
        snprintf(pci->busId, sizeof pci->busId, "%.*s%s", (int)(8 - domain_len),
                 "00000000", bus_id);
        snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%s", bus_id);
    }
    return NVML_SUCCESS;
}

/* The peers listed in gpu<i>.nvlink ("1,1,2"); returns the count, or -1 with *err. */
static int fake_nvlinks(unsigned int i, unsigned int *peers, int max, nvmlReturn_t *err)
{
    const char *v = NULL;
    nvmlReturn_t r = fake_gpu_value(i, "nvlink", &v);
    if (r != NVML_SUCCESS) {
        *err = r;
        return -1;
    }
    int n = 0;
    const char *p = v;
    while (*p != '\0' && n < max) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        char *end;
        unsigned long peer = strtoul(p, &end, 10);
        if (end == p) {
            *err = fake_bad_value(i, "nvlink", v);
            return -1;
        }
        peers[n++] = (unsigned int)peer;
        p = end;
    }
    return n;
}

/* ---- exported API -------------------------------------------------------------------- */

static nvmlReturn_t fake_init(void)
{
    if (!fake_scenario_present())
        return NVML_ERROR_DRIVER_NOT_LOADED;
    const char *v = fake_scenario_get("nvml.init_crash");
    if (v != NULL && strcmp(v, "1") == 0) {
        fake_crash();
    }
    v = fake_scenario_get("nvml.init_hang");
    if (v != NULL && strcmp(v, "1") == 0)
        fake_hang();
    long long code = 0;
    v = fake_scenario_get("nvml.init");
    if (v != NULL && !fake_scenario_ll(v, 10, &code))
        code = NVML_ERROR_UNKNOWN;
    if (code == NVML_SUCCESS)
        fake_init_count++;
    return (nvmlReturn_t)code;
}

FAKE_EXPORT nvmlReturn_t nvmlInit(void)
{
    return fake_init();
}
FAKE_CHECK_TYPE(nvmlInit, nvmlInit_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlInit_v2(void)
{
    return fake_init();
}
FAKE_CHECK_TYPE(nvmlInit_v2, nvmlInit_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlShutdown(void)
{
    if (fake_init_count <= 0)
        return NVML_ERROR_UNINITIALIZED;
    fake_init_count--;
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlShutdown, nvmlShutdown_fn);

FAKE_EXPORT const char *nvmlErrorString(nvmlReturn_t r)
{
    switch (r) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NO_PERMISSION: return "Insufficient Permissions";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_LIB_RM_VERSION_MISMATCH:
        return "RM has detected an NVML/RM version mismatch";
    default: return "Unknown Error";
    }
}
FAKE_CHECK_TYPE(nvmlErrorString, nvmlErrorString_fn);

FAKE_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned int len)
{
    return fake_system_string("nvml.driver", buf, len);
}
FAKE_CHECK_TYPE(nvmlSystemGetDriverVersion, nvmlSystemGetString_fn);

FAKE_EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *buf, unsigned int len)
{
    return fake_system_string("nvml.nvml_version", buf, len);
}
FAKE_CHECK_TYPE(nvmlSystemGetNVMLVersion, nvmlSystemGetString_fn);

FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *version)
{
    if (fake_init_count <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (version == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    const char *v = fake_scenario_get("nvml.cuda");
    long long n;
    int code;
    if (v == NULL)
        return NVML_ERROR_NOT_SUPPORTED;
    if (fake_scenario_is_error(v, &code))
        return code;
    if (!fake_scenario_ll(v, 10, &n))
        return NVML_ERROR_UNKNOWN;
    *version = (int)n;
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlSystemGetCudaDriverVersion, nvmlSystemGetCudaDriverVersion_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version)
{
    return nvmlSystemGetCudaDriverVersion(version);
}
FAKE_CHECK_TYPE(nvmlSystemGetCudaDriverVersion_v2, nvmlSystemGetCudaDriverVersion_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned int *count)
{
    if (fake_init_count <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (count == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    const char *v = fake_scenario_get("nvml.count");
    int code;
    if (fake_scenario_is_error(v, &code))
        return code;
    *count = fake_gpu_count();
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetCount, nvmlDeviceGetCount_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
    return nvmlDeviceGetCount(count);
}
FAKE_CHECK_TYPE(nvmlDeviceGetCount_v2, nvmlDeviceGetCount_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t *device)
{
    if (fake_init_count <= 0)
        return NVML_ERROR_UNINITIALIZED;
    if (device == NULL || index >= fake_gpu_count())
        return NVML_ERROR_INVALID_ARGUMENT;
    fake_gpus[index].index = index;
    *device = &fake_gpus[index];
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetHandleByIndex, nvmlDeviceGetHandleByIndex_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index,
                                                      nvmlDevice_t *device)
{
    return nvmlDeviceGetHandleByIndex(index, device);
}
FAKE_CHECK_TYPE(nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetHandleByIndex_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned int len)
{
    return fake_device_string(d, "name", buf, len);
}
FAKE_CHECK_TYPE(nvmlDeviceGetName, nvmlDeviceGetString_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *buf, unsigned int len)
{
    return fake_device_string(d, "uuid", buf, len);
}
FAKE_CHECK_TYPE(nvmlDeviceGetUUID, nvmlDeviceGetString_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t d, nvmlPciInfo_t *pci)
{
    unsigned int i;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (pci == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    return fake_pci_info(i, pci);
}
FAKE_CHECK_TYPE(nvmlDeviceGetPciInfo_v2, nvmlDeviceGetPciInfo_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *pci)
{
    return nvmlDeviceGetPciInfo_v2(d, pci);
}
FAKE_CHECK_TYPE(nvmlDeviceGetPciInfo_v3, nvmlDeviceGetPciInfo_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major,
                                                           int *minor)
{
    unsigned int i;
    const char *v = NULL;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (major == NULL || minor == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    r = fake_gpu_value(i, "cc", &v);
    if (r != NVML_SUCCESS)
        return r;
    if (sscanf(v, "%d.%d", major, minor) != 2)
        return fake_bad_value(i, "cc", v);
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetCudaComputeCapability, nvmlDeviceGetIntPair_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *mem)
{
    unsigned int i;
    unsigned long long total, used = 0;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (mem == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    r = fake_gpu_ull(i, "mem_total", 10, &total);
    if (r != NVML_SUCCESS)
        return r;
    r = fake_gpu_ull(i, "mem_used", 10, &used);
    if (r == NVML_ERROR_NOT_SUPPORTED)
        used = 0;
    else if (r != NVML_SUCCESS)
        return r;
    mem->total = total;
    mem->used = used;
    mem->free = used <= total ? total - used : 0;
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetMemoryInfo, nvmlDeviceGetMemoryInfo_fn);

/* Linux: gpuN.minor, else N (the usual case); Windows' NVML does not support it. */
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned int *minor)
{
    unsigned int i;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (minor == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
#ifdef _WIN32
    return NVML_ERROR_NOT_SUPPORTED;
#else
    if (fake_scenario_getf("gpu%u.minor", i) == NULL) {
        *minor = i;
        return NVML_SUCCESS;
    }
    return fake_device_uint(d, "minor", minor);
#endif
}
FAKE_CHECK_TYPE(nvmlDeviceGetMinorNumber, nvmlDeviceGetUint_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int *v)
{
    return fake_device_uint(d, "pcie_gen", v);
}
FAKE_CHECK_TYPE(nvmlDeviceGetCurrPcieLinkGeneration, nvmlDeviceGetUint_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int *v)
{
    return fake_device_uint(d, "pcie_gen_max", v);
}
FAKE_CHECK_TYPE(nvmlDeviceGetMaxPcieLinkGeneration, nvmlDeviceGetUint_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int *v)
{
    return fake_device_uint(d, "pcie_width", v);
}
FAKE_CHECK_TYPE(nvmlDeviceGetCurrPcieLinkWidth, nvmlDeviceGetUint_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned int *v)
{
    return fake_device_uint(d, "pcie_width_max", v);
}
FAKE_CHECK_TYPE(nvmlDeviceGetMaxPcieLinkWidth, nvmlDeviceGetUint_fn);

static nvmlReturn_t fake_clock(nvmlDevice_t d, int type, unsigned int *mhz, int max)
{
    const char *field;
    switch (type) {
    case NVML_CLOCK_GRAPHICS:
    case NVML_CLOCK_SM: field = max ? "sm_clock_max" : "sm_clock"; break;
    case NVML_CLOCK_MEM: field = max ? "mem_clock_max" : "mem_clock"; break;
    default: {
        unsigned int i;
        nvmlReturn_t r = fake_check(d, &i);
        return r != NVML_SUCCESS ? r : NVML_ERROR_INVALID_ARGUMENT;
    }
    }
    return fake_device_uint(d, field, mhz);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
    return fake_clock(d, type, mhz, 0);
}
FAKE_CHECK_TYPE(nvmlDeviceGetClockInfo, nvmlDeviceGetClock_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type,
                                                  unsigned int *mhz)
{
    return fake_clock(d, type, mhz, 1);
}
FAKE_CHECK_TYPE(nvmlDeviceGetMaxClockInfo, nvmlDeviceGetClock_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw)
{
    return fake_device_uint(d, "power_mw", mw);
}
FAKE_CHECK_TYPE(nvmlDeviceGetPowerUsage, nvmlDeviceGetUint_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int *mw)
{
    return fake_device_uint(d, "power_limit_mw", mw);
}
FAKE_CHECK_TYPE(nvmlDeviceGetEnforcedPowerLimit, nvmlDeviceGetUint_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t d,
                                                                 unsigned int *mw)
{
    return fake_device_uint(d, "power_limit_default_mw", mw);
}
FAKE_CHECK_TYPE(nvmlDeviceGetPowerManagementDefaultLimit, nvmlDeviceGetUint_fn);

/* gpuN.app_clock_graphics / app_clock_mem, and their _default twins (MHz). */
static nvmlReturn_t fake_app_clock(nvmlDevice_t d, int type, unsigned int *mhz,
                                   const char *suffix)
{
    char field[64];
    unsigned int i;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (type != NVML_CLOCK_GRAPHICS && type != NVML_CLOCK_MEM)
        return NVML_ERROR_INVALID_ARGUMENT;
    snprintf(field, sizeof field, "app_clock_%s%s",
             type == NVML_CLOCK_GRAPHICS ? "graphics" : "mem", suffix);
    return fake_device_uint(d, field, mhz);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetApplicationsClock(nvmlDevice_t d, int type,
                                                       unsigned int *mhz)
{
    return fake_app_clock(d, type, mhz, "");
}
FAKE_CHECK_TYPE(nvmlDeviceGetApplicationsClock, nvmlDeviceGetClock_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t d, int type,
                                                              unsigned int *mhz)
{
    return fake_app_clock(d, type, mhz, "_default");
}
FAKE_CHECK_TYPE(nvmlDeviceGetDefaultApplicationsClock, nvmlDeviceGetClock_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetDisplayActive(nvmlDevice_t d, int *active)
{
    return fake_device_int(d, "display_active", active);
}
FAKE_CHECK_TYPE(nvmlDeviceGetDisplayActive, nvmlDeviceGetInt_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetDisplayMode(nvmlDevice_t d, int *connected)
{
    return fake_device_int(d, "display_mode", connected);
}
FAKE_CHECK_TYPE(nvmlDeviceGetDisplayMode, nvmlDeviceGetInt_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t d, int *pstate)
{
    return fake_device_int(d, "pstate", pstate);
}
FAKE_CHECK_TYPE(nvmlDeviceGetPerformanceState, nvmlDeviceGetInt_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d,
                                                                  unsigned long long *bits)
{
    unsigned int i;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (bits == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    return fake_gpu_ull(i, "throttle", 16, bits);
}
FAKE_CHECK_TYPE(nvmlDeviceGetCurrentClocksThrottleReasons, nvmlDeviceGetU64_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d,
                                                               unsigned long long *bits)
{
    return nvmlDeviceGetCurrentClocksThrottleReasons(d, bits);
}
FAKE_CHECK_TYPE(nvmlDeviceGetCurrentClocksEventReasons, nvmlDeviceGetU64_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int *mode)
{
    return fake_device_int(d, "persistence", mode);
}
FAKE_CHECK_TYPE(nvmlDeviceGetPersistenceMode, nvmlDeviceGetInt_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *current,
                                             unsigned int *pending)
{
    unsigned int v;
    if (current == NULL || pending == NULL) {
        unsigned int i;
        nvmlReturn_t r = fake_check(d, &i);
        return r != NVML_SUCCESS ? r : NVML_ERROR_INVALID_ARGUMENT;
    }
    nvmlReturn_t r = fake_device_uint(d, "mig", &v);
    if (r == NVML_SUCCESS)
        *current = *pending = v;
    return r;
}
FAKE_CHECK_TYPE(nvmlDeviceGetMigMode, nvmlDeviceGetUintPair_fn);
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, int *current, int *pending)
{
    int v = 0;
    if (current == NULL || pending == NULL) {
        unsigned int i;
        nvmlReturn_t r = fake_check(d, &i);
        return r != NVML_SUCCESS ? r : NVML_ERROR_INVALID_ARGUMENT;
    }
    nvmlReturn_t r = fake_device_int(d, "ecc", &v);
    if (r == NVML_SUCCESS)
        *current = *pending = v;
    return r;
}
FAKE_CHECK_TYPE(nvmlDeviceGetEccMode, nvmlDeviceGetIntPair_fn);

/* Windows only in the real library; the scenario's gpuN.driver_model (0 WDDM, 1 TCC,
 * 2 MCDM) answers, and without it the call is not supported, as on Linux. */
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetDriverModel(nvmlDevice_t d, int *current, int *pending)
{
    int v = 0;
    nvmlReturn_t r;
    if (current == NULL || pending == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    r = fake_device_int(d, "driver_model", &v);
    if (r == NVML_SUCCESS)
        *current = *pending = v;
    return r;
}
FAKE_CHECK_TYPE(nvmlDeviceGetDriverModel, nvmlDeviceGetIntPair_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, int *mode)
{
    return fake_device_int(d, "compute_mode", mode);
}
FAKE_CHECK_TYPE(nvmlDeviceGetComputeMode, nvmlDeviceGetInt_fn);

#ifndef FAKE_OLD_DRIVER
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d,
                                                                unsigned int *count,
                                                                nvmlProcessInfo_t *infos)
{
    unsigned int i;
    const char *v = NULL;
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (count == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    r = fake_gpu_value(i, "processes", &v);
    if (r != NVML_SUCCESS)
        return r;

    unsigned int pids[FAKE_MAX_PROCS];
    unsigned long long bytes[FAKE_MAX_PROCS];
    unsigned int n = 0;
    const char *p = v;
    while (*p != '\0' && n < FAKE_MAX_PROCS) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        char *end;
        unsigned long pid = strtoul(p, &end, 10);
        if (end == p || *end != ':')
            return fake_bad_value(i, "processes", v);
        p = end + 1;
        unsigned long long used = strtoull(p, &end, 10);
        if (end == p)
            return fake_bad_value(i, "processes", v);
        pids[n] = (unsigned int)pid;
        bytes[n] = used;
        n++;
        p = end;
    }

    if (*count < n) {
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (n > 0 && infos == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    for (unsigned int k = 0; k < n; k++) {
        infos[k].pid = pids[k];
        infos[k].usedGpuMemory = bytes[k];
        infos[k].gpuInstanceId = 0xFFFFFFFFu;   /* no MIG instance */
        infos[k].computeInstanceId = 0xFFFFFFFFu;
    }
    *count = n;
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetComputeRunningProcesses_v3, nvmlDeviceGetProcesses_fn);
#endif

static int fake_topology_name(const char *v, long long *level)
{
    static const struct { const char *name; int level; } names[] = {
        {"INTERNAL", NVML_TOPOLOGY_INTERNAL}, {"SINGLE", NVML_TOPOLOGY_SINGLE},
        {"MULTIPLE", NVML_TOPOLOGY_MULTIPLE}, {"HOSTBRIDGE", NVML_TOPOLOGY_HOSTBRIDGE},
        {"NODE", NVML_TOPOLOGY_NODE},         {"SYSTEM", NVML_TOPOLOGY_SYSTEM},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strcmp(v, names[k].name) == 0) {
            *level = names[k].level;
            return 1;
        }
    }
    return 0;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t d1, nvmlDevice_t d2,
                                                            int *level)
{
    unsigned int i, j;
    nvmlReturn_t r = fake_check(d1, &i);
    if (r == NVML_SUCCESS)
        r = fake_check(d2, &j);
    if (r != NVML_SUCCESS)
        return r;
    if (level == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    const char *v = fake_scenario_getf("gpu%u.topology.%u", i, j);
    if (v == NULL)
        v = fake_scenario_getf("gpu%u.topology.%u", j, i);
    if (v == NULL) {
        *level = i == j ? NVML_TOPOLOGY_INTERNAL : NVML_TOPOLOGY_SYSTEM;
        return NVML_SUCCESS;
    }
    int code;
    long long n;
    if (fake_scenario_is_error(v, &code))
        return code;
    if (!fake_scenario_ll(v, 10, &n) && !fake_topology_name(v, &n))
        return fake_bad_value(i, "topology", v);
    *level = (int)n;
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetTopologyCommonAncestor, nvmlDeviceGetTopology_fn);

/* NVML_SUCCESS and the peer of link, or the error. */
static nvmlReturn_t fake_link_peer(nvmlDevice_t d, unsigned int link, unsigned int *peer)
{
    unsigned int i;
    unsigned int peers[NVML_NVLINK_MAX_LINKS];
    nvmlReturn_t r = fake_check(d, &i);
    if (r != NVML_SUCCESS)
        return r;
    if (link >= NVML_NVLINK_MAX_LINKS)
        return NVML_ERROR_INVALID_ARGUMENT;
    int n = fake_nvlinks(i, peers, NVML_NVLINK_MAX_LINKS, &r);
    if (n < 0)
        return r;
    if (link >= (unsigned int)n)
        return NVML_ERROR_NOT_SUPPORTED;
    *peer = peers[link];
    return NVML_SUCCESS;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned int link,
                                                 int *active)
{
    unsigned int peer;
    nvmlReturn_t r = fake_link_peer(d, link, &peer);
    if (r != NVML_SUCCESS)
        return r;
    if (active == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    *active = NVML_FEATURE_ENABLED;
    return NVML_SUCCESS;
}
FAKE_CHECK_TYPE(nvmlDeviceGetNvLinkState, nvmlDeviceGetNvLinkState_fn);

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t d, unsigned int link,
                                                            nvmlPciInfo_t *pci)
{
    unsigned int peer;
    nvmlReturn_t r = fake_link_peer(d, link, &peer);
    if (r != NVML_SUCCESS)
        return r;
    if (pci == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    return fake_pci_info(peer, pci);
}
FAKE_CHECK_TYPE(nvmlDeviceGetNvLinkRemotePciInfo_v2, nvmlDeviceGetNvLinkRemotePci_fn);
