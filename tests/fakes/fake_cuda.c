/* A fake libcuda.so.1 for tests: answers from the scenario file named by
 * DLENV_FAKE_SCENARIO (see fake_scenario.h). */
#include "fake_scenario.h"
#include "probe/gpu/cuda_api.h"

#include <stdio.h>
#include <string.h>

static int fake_initialized;

static int fake_dev_count(void)
{
    const char *v = fake_scenario_get("cuda.count");
    long long n;
    if (v == NULL || !fake_scenario_ll(v, 10, &n) || n < 0)
        return 0;
    return n > 1024 ? 1024 : (int)n;
}

static CUresult fake_check(CUdevice d)
{
    if (!fake_initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (d < 0 || d >= fake_dev_count())
        return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

/* dev<d>.<field>: CUDA_SUCCESS, INVALID_VALUE when absent, or the error:<N> code. */
static CUresult fake_dev_value(CUdevice d, const char *field, const char **out)
{
    const char *v = fake_scenario_getf("dev%d.%s", d, field);
    int code;
    if (v == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_scenario_is_error(v, &code))
        return code;
    *out = v;
    return CUDA_SUCCESS;
}

static CUresult fake_bad_value(CUdevice d, const char *field, const char *v)
{
    fprintf(stderr, "fake cuda: cannot parse dev%d.%s = %s\n", d, field, v);
    return CUDA_ERROR_UNKNOWN;
}

FAKE_EXPORT CUresult cuInit(unsigned int flags)
{
    if (!fake_scenario_present())
        return CUDA_ERROR_NO_DEVICE;
    const char *v = fake_scenario_get("cuda.init_crash");
    if (v != NULL && strcmp(v, "1") == 0) {
        fake_crash();
    }
    v = fake_scenario_get("cuda.init_hang");
    if (v != NULL && strcmp(v, "1") == 0)
        fake_hang();
    long long code = 0;
    v = fake_scenario_get("cuda.init");
    if (v != NULL && !fake_scenario_ll(v, 10, &code))
        code = CUDA_ERROR_UNKNOWN;
    if (code == CUDA_SUCCESS && flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (code == CUDA_SUCCESS)
        fake_initialized = 1;
    return (CUresult)code;
}
FAKE_CHECK_TYPE(cuInit, cuInit_fn);

FAKE_EXPORT CUresult cuDriverGetVersion(int *version)
{
    if (version == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    long long n = 0;
    const char *v = fake_scenario_get("cuda.version_result");
    if (v != NULL && fake_scenario_ll(v, 10, &n) && n != CUDA_SUCCESS)
        return (CUresult)n;
    v = fake_scenario_get("cuda.version");
    int code;
    if (v == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_scenario_is_error(v, &code))
        return code;
    if (!fake_scenario_ll(v, 10, &n))
        return CUDA_ERROR_UNKNOWN;
    *version = (int)n;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDriverGetVersion, cuDriverGetVersion_fn);

FAKE_EXPORT CUresult cuDeviceGetCount(int *count)
{
    if (!fake_initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (count == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    int code;
    if (fake_scenario_is_error(fake_scenario_get("cuda.count"), &code))
        return code;
    *count = fake_dev_count();
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDeviceGetCount, cuDeviceGetCount_fn);

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!fake_initialized)
        return CUDA_ERROR_NOT_INITIALIZED;
    if (device == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (ordinal < 0 || ordinal >= fake_dev_count())
        return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDeviceGet, cuDeviceGet_fn);

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    const char *v = NULL;
    CUresult r = fake_check(d);
    if (r != CUDA_SUCCESS)
        return r;
    if (name == NULL || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    r = fake_dev_value(d, "name", &v);
    if (r != CUDA_SUCCESS)
        return r;
    snprintf(name, (size_t)len, "%s", v);   /* truncates, as the real call does */
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDeviceGetName, cuDeviceGetName_fn);

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *value, int attrib, CUdevice d)
{
    CUresult r = fake_check(d);
    if (r != CUDA_SUCCESS)
        return r;
    if (value == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    const char *field;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: field = "clock_khz"; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: field = "sm_count"; break;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: field = "ecc"; break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: field = "pci_bus"; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: field = "pci_device"; break;
    case CU_DEVICE_ATTRIBUTE_TCC_DRIVER: field = "tcc"; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: field = "mem_clock_khz"; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: field = "bus_width"; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: field = "pci_domain"; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: field = "threads_per_sm"; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: field = "cc"; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    const char *v = NULL;
    r = fake_dev_value(d, field, &v);
    if (r != CUDA_SUCCESS)
        return r;
    if (strcmp(field, "cc") == 0) {
        int major, minor;
        if (sscanf(v, "%d.%d", &major, &minor) != 2)
            return fake_bad_value(d, field, v);
        *value = attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? major : minor;
        return CUDA_SUCCESS;
    }
    long long n;
    if (!fake_scenario_ll(v, 10, &n))
        return fake_bad_value(d, field, v);
    *value = (int)n;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDeviceGetAttribute, cuDeviceGetAttribute_fn);

FAKE_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    const char *v = NULL;
    CUresult r = fake_check(d);
    if (r != CUDA_SUCCESS)
        return r;
    if (bytes == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    r = fake_dev_value(d, "mem_total", &v);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned long long n;
    if (!fake_scenario_ull(v, 10, &n))
        return fake_bad_value(d, "mem_total", v);
    *bytes = (size_t)n;
    return CUDA_SUCCESS;
}
FAKE_CHECK_TYPE(cuDeviceTotalMem_v2, cuDeviceTotalMem_fn);

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char **str)
{
    static const struct { CUresult code; const char *name; } names[] = {
        {CUDA_SUCCESS, "CUDA_SUCCESS"},
        {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
        {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"},
        {CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY"},
        {CUDA_ERROR_INSUFFICIENT_DRIVER, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
        {CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
        {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
        {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
        {CUDA_ERROR_SYSTEM_NOT_READY, "CUDA_ERROR_SYSTEM_NOT_READY"},
        {CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
        {CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
         "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
        {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN"},
    };
    if (str == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (names[k].code == error) {
            *str = names[k].name;
            return CUDA_SUCCESS;
        }
    }
    *str = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}
FAKE_CHECK_TYPE(cuGetErrorName, cuGetErrorName_fn);
