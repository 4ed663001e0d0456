/* The CUDA driver API (libcuda), loaded at run time, inside a child process like NVML.
 * cuInit's answer is the single most telling fact about a broken CUDA setup: 34 is the
 * toolkit's stub library, 804 forward-compatibility libraries on unsupported hardware,
 * 802 a fabric manager that is not running, 999 a wedged driver. */
#include "probe/gpu/gather.h"

#include "base/str.h"
#include "probe/gpu/cuda_api.h"
#include "probe/gpu/cuda_errors.h"
#include "probe/gpu/driver_lib.h"

#include <stdlib.h>
#include <string.h>

/* The driver API functions the probe asks, from NVIDIA's CUDA Driver API reference:
 * resolved once when the library loads (driver_lib.h); NULL where this libcuda lacks one. */
typedef struct cuda {
    dl_lib *lib;
    cuInit_fn init;
    cuDriverGetVersion_fn driver_version;
    cuDeviceGetCount_fn device_count;
    cuDeviceGet_fn device_get;
    cuDeviceGetAttribute_fn attribute;
    cuDeviceGetName_fn name;
    cuDeviceTotalMem_fn total_mem;
    cuGetErrorName_fn error_name;
} cuda;

static void load_api(cuda *c)
{
    c->init = (cuInit_fn)dl_driver_sym(c->lib, "cuInit", NULL, NULL);
    c->driver_version = (cuDriverGetVersion_fn)dl_driver_sym(c->lib, "cuDriverGetVersion", NULL,
                                                             NULL);
    c->device_count = (cuDeviceGetCount_fn)dl_driver_sym(c->lib, "cuDeviceGetCount", NULL, NULL);
    c->device_get = (cuDeviceGet_fn)dl_driver_sym(c->lib, "cuDeviceGet", NULL, NULL);
    c->attribute = (cuDeviceGetAttribute_fn)dl_driver_sym(c->lib, "cuDeviceGetAttribute", NULL,
                                                         NULL);
    c->name = (cuDeviceGetName_fn)dl_driver_sym(c->lib, "cuDeviceGetName", NULL, NULL);
    c->total_mem = (cuDeviceTotalMem_fn)dl_driver_sym(c->lib, "cuDeviceTotalMem_v2", NULL, NULL);
    c->error_name = (cuGetErrorName_fn)dl_driver_sym(c->lib, "cuGetErrorName", NULL, NULL);
}

static void attribute(const cuda *c, CUdevice d, int attr, const char *what, dl_int *v)
{
    cuDeviceGetAttribute_fn fn = c->attribute;
    int x = 0;
    CUresult rc = fn ? fn(&x, attr, d) : CUDA_ERROR_NOT_INITIALIZED;
    if (!fn) {
        dl_int_unknown(v, "this libcuda has no cuDeviceGetAttribute");
    } else if (rc != CUDA_SUCCESS) {
        char *name = dl_cuda_error_name(c->error_name, rc);
        dl_int_unknown(v, "cuDeviceGetAttribute(%s): %s", what, name);
        free(name);
    } else {
        dl_int_set(v, x);
    }
}

/* Derived values keep the reason of the attribute they come from. */
static void derive_flag(const dl_int *from, dl_flag *to)
{
    if (from->known)
        dl_flag_set(to, from->value != 0);
    else
        dl_flag_unknown(to, "%s", from->why);
}

static void describe_identity(const cuda *c, CUdevice d, dl_cuda_device *dev)
{
    cuDeviceGetName_fn name_fn = c->name;
    cuDeviceTotalMem_fn mem_fn = c->total_mem;
    char buf[256] = {0};
    size_t bytes = 0;
    CUresult rc = name_fn ? name_fn(buf, (int)sizeof buf - 1, d) : CUDA_ERROR_NOT_INITIALIZED;
    char *why = dl_cuda_error_name(c->error_name, rc);
    if (name_fn && rc == CUDA_SUCCESS)
        dl_text_set(&dev->name, buf);
    else
        dl_text_unknown(&dev->name, "cuDeviceGetName: %s", name_fn ? why : "missing");
    free(why);
    rc = mem_fn ? mem_fn(&bytes, d) : CUDA_ERROR_NOT_INITIALIZED;
    why = dl_cuda_error_name(c->error_name, rc);
    if (mem_fn && rc == CUDA_SUCCESS)
        dl_int_set(&dev->memory_bytes, (long long)bytes);
    else
        dl_int_unknown(&dev->memory_bytes, "cuDeviceTotalMem_v2: %s", mem_fn ? why : "missing");
    free(why);
}

static void describe_device(const cuda *c, CUdevice d, dl_cuda_device *dev)
{
    dl_int major = {0}, minor = {0}, ecc = {0}, tcc = {0}, bus = {0}, slot = {0}, domain = {0};
    describe_identity(c, d, dev);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability", &major);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability", &minor);
    if (major.known && minor.known) {
        char *cc = dl_fmt("%lld.%lld", major.value, minor.value);
        dl_text_set(&dev->compute_capability, cc);
        free(cc);
    } else {
        dl_text_unknown(&dev->compute_capability, "%s", major.known ? minor.why : major.why);
    }
    attribute(c, d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count", &dev->sm_count);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "clock rate", &dev->clock_khz);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "memory clock rate",
              &dev->memory_clock_khz);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "memory bus width",
              &dev->memory_bus_width_bits);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_ECC_ENABLED, "ECC", &ecc);
    derive_flag(&ecc, &dev->ecc_enabled);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_TCC_DRIVER, "TCC driver", &tcc);
    derive_flag(&tcc, &dev->tcc_driver);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, "PCI domain", &domain);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, "PCI bus", &bus);
    attribute(c, d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, "PCI device", &slot);
    if (domain.known && bus.known && slot.known) {
        char *id = dl_fmt("%08llx:%02llx:%02llx.0", domain.value, bus.value, slot.value);
        dl_text_set(&dev->pci_bus_id, id);
        free(id);
    } else {
        dl_text_unknown(&dev->pci_bus_id, "%s",
                        !domain.known ? domain.why : !bus.known ? bus.why : slot.why);
    }
    free(major.why);
    free(minor.why);
    free(ecc.why);
    free(tcc.why);
    free(bus.why);
    free(slot.why);
    free(domain.why);
}

static void describe_devices(const cuda *c, dl_cuda_driver_facts *f)
{
    cuDeviceGetCount_fn count_fn = c->device_count;
    cuDeviceGet_fn get_fn = c->device_get;
    int count = 0, i;
    CUresult rc = count_fn ? count_fn(&count) : CUDA_ERROR_NOT_INITIALIZED;
    if (!count_fn || rc != CUDA_SUCCESS) {
        char *name = dl_cuda_error_name(c->error_name, rc);
        dl_int_unknown(&f->device_count, "cuDeviceGetCount: %s", count_fn ? name : "missing");
        dl_list_unknown(&f->devices, "%s", f->device_count.why);
        free(name);
        return;
    }
    dl_int_set(&f->device_count, count);
    dl_list_known(&f->devices);
    for (i = 0; i < count; i++) {
        dl_cuda_device *dev = dl_list_push(&f->devices, sizeof *dev);
        CUdevice d = 0;
        dl_int_set(&dev->index, i);
        rc = get_fn ? get_fn(&d, i) : CUDA_ERROR_NOT_INITIALIZED;
        if (get_fn && rc == CUDA_SUCCESS) {
            describe_device(c, d, dev);
        } else {
            char *name = dl_cuda_error_name(c->error_name, rc);
            char *why = dl_fmt("cuDeviceGet(%d): %s", i, get_fn ? name : "missing");
            dl_schema_fill_unknown(&dl_cuda_device_schema, dev, why);
            free(why);
            free(name);
        }
    }
}

static void describe_library(cuda *c, dl_cuda_driver_facts *f)
{
    char *path = dl_lib_path(c->lib);
    if (path)
        dl_text_set(&f->library, path);
    else
        dl_text_unknown(&f->library, "the loader did not say which file it loaded");
    free(path);
}

static void describe_version(const cuda *c, dl_cuda_driver_facts *f)
{
    cuDriverGetVersion_fn fn = c->driver_version;
    int v = 0;
    CUresult rc = fn ? fn(&v) : CUDA_ERROR_NOT_INITIALIZED;
    if (fn && rc == CUDA_SUCCESS) {
        dl_int_set(&f->driver_version, v);
    } else {
        char *name = dl_cuda_error_name(c->error_name, rc);
        dl_int_unknown(&f->driver_version, "cuDriverGetVersion: %s", fn ? name : "missing");
        free(name);
    }
}

void dl_gather_cuda(dl_cuda_driver_facts *f, dl_probe_outcome *out)
{
    cuda c;
    char *error = NULL, *name;
    cuInit_fn init;
    CUresult rc;
    memset(&c, 0, sizeof c);
    c.lib = dl_lib_open(dl_lib_name_cuda(), &error);
    if (!c.lib) {
        dl_text_unknown(&f->library, "%s", error);
        dl_schema_fill_unknown(&dl_cuda_driver_schema, f, error);
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, error);
        free(error);
        return;
    }
    describe_library(&c, f);
    load_api(&c);
    init = c.init;
    rc = init ? init(0) : CUDA_ERROR_NOT_INITIALIZED;
    name = init ? dl_cuda_error_name(c.error_name, rc) : dl_strdup("this libcuda has no cuInit");
    dl_int_set(&f->init_code, rc);
    dl_text_set(&f->init_result, name);
    describe_version(&c, f);
    if (init && rc == CUDA_SUCCESS) {
        describe_devices(&c, f);
    } else {
        char *why = dl_fmt("cuInit failed: %s", name);
        dl_schema_fill_unknown(&dl_cuda_driver_schema, f, why);
        dl_probe_note(out, DL_PROBE_FAILED, why);
        free(why);
    }
    free(name);
}
