/* Checks the fake driver libraries: each case runs in a forked child that dlopens one
 * fake with DLENV_FAKE_SCENARIO pointing at a scenario written to a temporary file. */
#include "probe/gpu/cuda_api.h"
#include "probe/gpu/nvml_api.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static const char scenario_main[] =
    "# two GPUs\n"
    "nvml.driver = 550.54.14\n"
    "nvml.nvml_version = 12.550.54.14\n"
    "nvml.cuda = 12040\n"
    "nvml.count = 2\n"
    "gpu0.name = NVIDIA GeForce RTX 4090   # trailing comment\n"
    "gpu0.uuid = GPU-11111111-2222-3333-4444-555555555555\n"
    "gpu0.bus_id = 00000000:01:00.0\n"
    "gpu0.pci_device_id = 0x268410de\n"
    "gpu0.cc = 8.9\n"
    "gpu0.mem_total = 25757220864\n"
    "gpu0.mem_used = 1073741824\n"
    "gpu0.power_mw = error:3\n"
    "gpu0.sm_clock = 2520\n"
    "gpu0.throttle = 0x24\n"
    "gpu0.mig = 1\n"
    "gpu0.processes = 1234:1073741824,5678:512\n"
    "gpu0.nvlink = 1,1\n"
    "gpu1.name = NVIDIA H100\n"
    "gpu1.bus_id = 00000000:3B:00.0\n"
    "gpu1.topology.0 = 20\n"
    "\n"
    "cuda.version = 12040\n"
    "cuda.count = 1\n"
    "dev0.name = NVIDIA GeForce RTX 4090\n"
    "dev0.cc = 8.9\n"
    "dev0.sm_count = 128\n"
    "dev0.mem_total = 25757220864\n"
    "dev0.pci_bus = error:999\n";

static const char scenario_broken[] =
    "nvml.init = 18\n"
    "cuda.init = 34\n"
    "cuda.version_result = 34\n";

static const char scenario_crash[] = "nvml.init_crash = 1\n";
static const char scenario_hang[] = "nvml.init_hang = 1\n";

static void *open_lib(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
        exit(2);
    }
    return h;
}

static void *sym(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (p == NULL) {
        fprintf(stderr, "missing symbol %s\n", name);
        exit(2);
    }
    return p;
}

static void case_nvml(void)
{
    void *h = open_lib(FAKE_NVML_PATH);
    nvmlInit_fn init = (nvmlInit_fn)sym(h, "nvmlInit_v2");
    nvmlErrorString_fn err_str = (nvmlErrorString_fn)sym(h, "nvmlErrorString");
    nvmlSystemGetString_fn driver = (nvmlSystemGetString_fn)sym(h, "nvmlSystemGetDriverVersion");
    nvmlSystemGetCudaDriverVersion_fn cuda_ver =
        (nvmlSystemGetCudaDriverVersion_fn)sym(h, "nvmlSystemGetCudaDriverVersion_v2");
    nvmlDeviceGetCount_fn get_count = (nvmlDeviceGetCount_fn)sym(h, "nvmlDeviceGetCount_v2");
    nvmlDeviceGetHandleByIndex_fn by_index =
        (nvmlDeviceGetHandleByIndex_fn)sym(h, "nvmlDeviceGetHandleByIndex_v2");
    nvmlDeviceGetString_fn get_name = (nvmlDeviceGetString_fn)sym(h, "nvmlDeviceGetName");
    nvmlDeviceGetPciInfo_fn get_pci = (nvmlDeviceGetPciInfo_fn)sym(h, "nvmlDeviceGetPciInfo_v3");
    nvmlDeviceGetIntPair_fn get_cc =
        (nvmlDeviceGetIntPair_fn)sym(h, "nvmlDeviceGetCudaComputeCapability");
    nvmlDeviceGetMemoryInfo_fn get_mem =
        (nvmlDeviceGetMemoryInfo_fn)sym(h, "nvmlDeviceGetMemoryInfo");
    nvmlDeviceGetUint_fn get_power = (nvmlDeviceGetUint_fn)sym(h, "nvmlDeviceGetPowerUsage");
    nvmlDeviceGetUint_fn get_width = (nvmlDeviceGetUint_fn)sym(h, "nvmlDeviceGetCurrPcieLinkWidth");
    nvmlDeviceGetClock_fn get_clock = (nvmlDeviceGetClock_fn)sym(h, "nvmlDeviceGetClockInfo");
    nvmlDeviceGetU64_fn get_events =
        (nvmlDeviceGetU64_fn)sym(h, "nvmlDeviceGetCurrentClocksEventReasons");
    nvmlDeviceGetUintPair_fn get_mig = (nvmlDeviceGetUintPair_fn)sym(h, "nvmlDeviceGetMigMode");
    nvmlDeviceGetProcesses_fn get_procs =
        (nvmlDeviceGetProcesses_fn)sym(h, "nvmlDeviceGetComputeRunningProcesses_v3");
    nvmlDeviceGetTopology_fn get_topo =
        (nvmlDeviceGetTopology_fn)sym(h, "nvmlDeviceGetTopologyCommonAncestor");
    nvmlDeviceGetNvLinkState_fn link_state =
        (nvmlDeviceGetNvLinkState_fn)sym(h, "nvmlDeviceGetNvLinkState");
    nvmlDeviceGetNvLinkRemotePci_fn link_pci =
        (nvmlDeviceGetNvLinkRemotePci_fn)sym(h, "nvmlDeviceGetNvLinkRemotePciInfo_v2");

    unsigned int count = 0, u = 0;
    nvmlDevice_t d0 = NULL, d1 = NULL, bad = NULL;
    char buf[NVML_STRING_BUFFER];

    CHECK(get_count(&count) == NVML_ERROR_UNINITIALIZED);
    CHECK(init() == NVML_SUCCESS);
    CHECK(strcmp(err_str(NVML_ERROR_NOT_SUPPORTED), "Not Supported") == 0);
    CHECK(strcmp(err_str(NVML_ERROR_LIB_RM_VERSION_MISMATCH),
                 "RM has detected an NVML/RM version mismatch") == 0);
    CHECK(driver(buf, sizeof buf) == NVML_SUCCESS && strcmp(buf, "550.54.14") == 0);
    CHECK(driver(buf, 4) == NVML_ERROR_INSUFFICIENT_SIZE);
    int v = 0;
    CHECK(cuda_ver(&v) == NVML_SUCCESS && v == 12040);
    CHECK(get_count(&count) == NVML_SUCCESS && count == 2);
    CHECK(by_index(0, &d0) == NVML_SUCCESS && d0 != NULL);
    CHECK(by_index(1, &d1) == NVML_SUCCESS && d1 != NULL && d1 != d0);
    CHECK(by_index(2, &bad) == NVML_ERROR_INVALID_ARGUMENT);

    CHECK(get_name(d0, buf, sizeof buf) == NVML_SUCCESS &&
          strcmp(buf, "NVIDIA GeForce RTX 4090") == 0);
    int major = 0, minor = 0;
    CHECK(get_cc(d0, &major, &minor) == NVML_SUCCESS && major == 8 && minor == 9);
    CHECK(get_cc(d1, &major, &minor) == NVML_ERROR_NOT_SUPPORTED);

    nvmlPciInfo_t pci;
    CHECK(get_pci(d0, &pci) == NVML_SUCCESS);
    CHECK(strcmp(pci.busId, "00000000:01:00.0") == 0);
    CHECK(strcmp(pci.busIdLegacy, "0000:01:00.0") == 0);
    CHECK(pci.domain == 0 && pci.bus == 1 && pci.device == 0);
    CHECK(pci.pciDeviceId == 0x268410deu);

    nvmlMemory_t mem;
    CHECK(get_mem(d0, &mem) == NVML_SUCCESS && mem.total == 25757220864ULL &&
          mem.used == 1073741824ULL && mem.free == mem.total - mem.used);
    CHECK(get_power(d0, &u) == NVML_ERROR_NOT_SUPPORTED);
    CHECK(get_width(d0, &u) == NVML_ERROR_NOT_SUPPORTED);
    CHECK(get_clock(d0, NVML_CLOCK_SM, &u) == NVML_SUCCESS && u == 2520);
    CHECK(get_clock(d0, NVML_CLOCK_GRAPHICS, &u) == NVML_SUCCESS && u == 2520);
    CHECK(get_clock(d0, NVML_CLOCK_MEM, &u) == NVML_ERROR_NOT_SUPPORTED);
    unsigned long long bits = 0;
    CHECK(get_events(d0, &bits) == NVML_SUCCESS &&
          bits == (NVML_CLOCKS_EVENT_SW_POWER_CAP | NVML_CLOCKS_EVENT_SW_THERMAL));
    unsigned int cur = 9, pend = 9;
    CHECK(get_mig(d0, &cur, &pend) == NVML_SUCCESS && cur == 1 && pend == 1);

    nvmlProcessInfo_t procs[4];
    unsigned int n = 0;
    CHECK(get_procs(d0, &n, NULL) == NVML_ERROR_INSUFFICIENT_SIZE && n == 2);
    n = 1;
    CHECK(get_procs(d0, &n, procs) == NVML_ERROR_INSUFFICIENT_SIZE && n == 2);
    n = 4;
    CHECK(get_procs(d0, &n, procs) == NVML_SUCCESS && n == 2);
    CHECK(procs[0].pid == 1234 && procs[0].usedGpuMemory == 1073741824ULL);
    CHECK(procs[1].pid == 5678 && procs[1].usedGpuMemory == 512);
    n = 4;
    CHECK(get_procs(d1, &n, procs) == NVML_ERROR_NOT_SUPPORTED);

    int level = 0;
    CHECK(get_topo(d0, d1, &level) == NVML_SUCCESS && level == NVML_TOPOLOGY_MULTIPLE);
    CHECK(get_topo(d1, d0, &level) == NVML_SUCCESS && level == NVML_TOPOLOGY_MULTIPLE);

    int state = -1;
    CHECK(link_state(d0, 0, &state) == NVML_SUCCESS && state == NVML_FEATURE_ENABLED);
    CHECK(link_state(d0, 1, &state) == NVML_SUCCESS);
    CHECK(link_state(d0, 2, &state) == NVML_ERROR_NOT_SUPPORTED);
    CHECK(link_state(d0, NVML_NVLINK_MAX_LINKS, &state) == NVML_ERROR_INVALID_ARGUMENT);
    CHECK(link_state(d1, 0, &state) == NVML_ERROR_NOT_SUPPORTED);
    CHECK(link_pci(d0, 1, &pci) == NVML_SUCCESS && pci.bus == 0x3b &&
          strcmp(pci.busId, "00000000:3B:00.0") == 0);
    dlclose(h);
}

static void case_nvml_old(void)
{
    void *h = open_lib(FAKE_NVML_OLD_PATH);
    static const char *const absent[] = {
        "nvmlInit_v2", "nvmlSystemGetCudaDriverVersion_v2", "nvmlDeviceGetCount_v2",
        "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetPciInfo_v3",
        "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetMigMode",
        "nvmlDeviceGetComputeRunningProcesses_v3",
    };
    for (size_t k = 0; k < sizeof absent / sizeof absent[0]; k++) {
        if (dlsym(h, absent[k]) != NULL) {
            fprintf(stderr, "old driver exports %s\n", absent[k]);
            failures++;
        }
    }
    CHECK(dlsym(h, "fake_scenario_get") == NULL);   /* internals stay hidden */
    nvmlInit_fn init = (nvmlInit_fn)sym(h, "nvmlInit");
    nvmlDeviceGetCount_fn get_count = (nvmlDeviceGetCount_fn)sym(h, "nvmlDeviceGetCount");
    nvmlDeviceGetHandleByIndex_fn by_index =
        (nvmlDeviceGetHandleByIndex_fn)sym(h, "nvmlDeviceGetHandleByIndex");
    nvmlDeviceGetPciInfo_fn get_pci = (nvmlDeviceGetPciInfo_fn)sym(h, "nvmlDeviceGetPciInfo_v2");
    nvmlDeviceGetU64_fn get_throttle =
        (nvmlDeviceGetU64_fn)sym(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
    sym(h, "nvmlSystemGetCudaDriverVersion");

    unsigned int count = 0;
    nvmlDevice_t d0 = NULL;
    nvmlPciInfo_t pci;
    unsigned long long bits = 0;
    CHECK(init() == NVML_SUCCESS);
    CHECK(get_count(&count) == NVML_SUCCESS && count == 2);
    CHECK(by_index(0, &d0) == NVML_SUCCESS);
    CHECK(get_pci(d0, &pci) == NVML_SUCCESS && strcmp(pci.busIdLegacy, "0000:01:00.0") == 0);
    CHECK(get_throttle(d0, &bits) == NVML_SUCCESS && bits == 0x24);
    dlclose(h);
}

static void case_cuda(void)
{
    void *h = open_lib(FAKE_CUDA_PATH);
    cuInit_fn init = (cuInit_fn)sym(h, "cuInit");
    cuDriverGetVersion_fn version = (cuDriverGetVersion_fn)sym(h, "cuDriverGetVersion");
    cuDeviceGetCount_fn get_count = (cuDeviceGetCount_fn)sym(h, "cuDeviceGetCount");
    cuDeviceGet_fn get = (cuDeviceGet_fn)sym(h, "cuDeviceGet");
    cuDeviceGetName_fn get_name = (cuDeviceGetName_fn)sym(h, "cuDeviceGetName");
    cuDeviceGetAttribute_fn attr = (cuDeviceGetAttribute_fn)sym(h, "cuDeviceGetAttribute");
    cuDeviceTotalMem_fn total = (cuDeviceTotalMem_fn)sym(h, "cuDeviceTotalMem_v2");
    cuGetErrorName_fn err_name = (cuGetErrorName_fn)sym(h, "cuGetErrorName");

    const char *s = "x";
    int n = -1, v = 0;
    CUdevice d = -1;
    char name[64];
    size_t bytes = 0;
    CHECK(err_name(CUDA_ERROR_STUB_LIBRARY, &s) == CUDA_SUCCESS &&
          strcmp(s, "CUDA_ERROR_STUB_LIBRARY") == 0);
    CHECK(err_name(12345, &s) == CUDA_ERROR_INVALID_VALUE && s == NULL);
    CHECK(get_count(&n) == CUDA_ERROR_NOT_INITIALIZED);
    CHECK(version(&v) == CUDA_SUCCESS && v == 12040);
    CHECK(init(0) == CUDA_SUCCESS);
    CHECK(get_count(&n) == CUDA_SUCCESS && n == 1);
    CHECK(get(&d, 0) == CUDA_SUCCESS && d == 0);
    CHECK(get(&d, 1) == CUDA_ERROR_INVALID_DEVICE);
    CHECK(get_name(name, sizeof name, 0) == CUDA_SUCCESS &&
          strcmp(name, "NVIDIA GeForce RTX 4090") == 0);
    CHECK(attr(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0) == CUDA_SUCCESS && v == 8);
    CHECK(attr(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0) == CUDA_SUCCESS && v == 9);
    CHECK(attr(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0) == CUDA_SUCCESS && v == 128);
    CHECK(attr(&v, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 0) == CUDA_ERROR_INVALID_VALUE);
    CHECK(attr(&v, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0) == CUDA_ERROR_UNKNOWN);
    CHECK(total(&bytes, 0) == CUDA_SUCCESS && bytes == (size_t)25757220864ULL);
    dlclose(h);
}

static void case_no_scenario(void)
{
    unsetenv("DLENV_FAKE_SCENARIO");
    void *h = open_lib(FAKE_NVML_PATH);
    CHECK(((nvmlInit_fn)sym(h, "nvmlInit_v2"))() == NVML_ERROR_DRIVER_NOT_LOADED);
    dlclose(h);
    h = open_lib(FAKE_CUDA_PATH);
    CHECK(((cuInit_fn)sym(h, "cuInit"))(0) == CUDA_ERROR_NO_DEVICE);
    dlclose(h);
}

static void case_broken(void)
{
    void *h = open_lib(FAKE_NVML_PATH);
    unsigned int count = 0;
    CHECK(((nvmlInit_fn)sym(h, "nvmlInit_v2"))() == NVML_ERROR_LIB_RM_VERSION_MISMATCH);
    CHECK(((nvmlDeviceGetCount_fn)sym(h, "nvmlDeviceGetCount_v2"))(&count) ==
          NVML_ERROR_UNINITIALIZED);
    dlclose(h);
    h = open_lib(FAKE_CUDA_PATH);
    int v = 0;
    CHECK(((cuInit_fn)sym(h, "cuInit"))(0) == CUDA_ERROR_STUB_LIBRARY);
    CHECK(((cuDriverGetVersion_fn)sym(h, "cuDriverGetVersion"))(&v) == CUDA_ERROR_STUB_LIBRARY);
    dlclose(h);
}

static void case_init_only(void)
{
    alarm(2);   /* the hang case ends here, by SIGALRM */
    void *h = open_lib(FAKE_NVML_PATH);
    ((nvmlInit_fn)sym(h, "nvmlInit_v2"))();
}

/* Runs fn in a child with the given scenario; returns the child's wait status. */
static int run_case(const char *name, const char *scenario, void (*fn)(void))
{
    char path[] = "/tmp/dlenv-fake-scenario-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        exit(2);
    }
    size_t len = strlen(scenario);
    if (write(fd, scenario, len) != (ssize_t)len) {
        perror("write");
        exit(2);
    }
    close(fd);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        setenv("DLENV_FAKE_SCENARIO", path, 1);
        fn();
        _exit(failures == 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    unlink(path);
    fprintf(stderr, "case %s: status %d\n", name, status);
    return status;
}

static void expect_ok(const char *name, const char *scenario, void (*fn)(void))
{
    int status = run_case(name, scenario, fn);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "FAIL: case %s\n", name);
        failures++;
    }
}

static void expect_signal(const char *name, const char *scenario, int sig)
{
    int status = run_case(name, scenario, case_init_only);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != sig) {
        fprintf(stderr, "FAIL: case %s: expected signal %d\n", name, sig);
        failures++;
    }
}

int main(void)
{
    expect_ok("nvml", scenario_main, case_nvml);
    expect_ok("nvml-old", scenario_main, case_nvml_old);
    expect_ok("cuda", scenario_main, case_cuda);
    expect_ok("no-scenario", scenario_main, case_no_scenario);
    expect_ok("broken", scenario_broken, case_broken);
    expect_signal("init-crash", scenario_crash, SIGSEGV);
    expect_signal("init-hang", scenario_hang, SIGALRM);
    if (failures != 0) {
        fprintf(stderr, "fakes.selftest: %d failure(s)\n", failures);
        return 1;
    }
    fprintf(stderr, "fakes.selftest: ok\n");
    return 0;
}
