/* NVML, the driver's management library, loaded at run time. This runs inside a child
 * process (see child.c): nvmlInit can hang or crash on a broken install, and the report
 * must still come out. Its functions are one typed table, filled once when the library
 * loads (driver_lib.h); the ones it lacks are the fact missing_symbols. Every call that
 * fails leaves its fact unknown with NVML's own words for why. */
#include "probe/gpu/gather.h"

#include "base/str.h"
#include "probe/gpu/driver_lib.h"
#include "probe/gpu/nvml_api.h"

#include <stdlib.h>
#include <string.h>

/* The functions of nvml_api.h, from NVIDIA's NVML API reference. */
typedef struct nvml_api {
    nvmlInit_fn init;
    nvmlShutdown_fn shutdown;
    nvmlErrorString_fn error_string;
    nvmlSystemGetString_fn driver_version;
    nvmlSystemGetString_fn nvml_version;
    nvmlSystemGetCudaDriverVersion_fn cuda_version;
    nvmlDeviceGetCount_fn count;
    nvmlDeviceGetHandleByIndex_fn handle;
    nvmlDeviceGetString_fn name;
    nvmlDeviceGetString_fn uuid;
    nvmlDeviceGetPciInfo_fn pci;
    nvmlDeviceGetUint_fn minor;
    nvmlDeviceGetIntPair_fn capability;
    nvmlDeviceGetMemoryInfo_fn memory;
    nvmlDeviceGetUint_fn pcie_gen;
    nvmlDeviceGetUint_fn pcie_gen_max;
    nvmlDeviceGetUint_fn pcie_width;
    nvmlDeviceGetUint_fn pcie_width_max;
    nvmlDeviceGetClock_fn clock;
    nvmlDeviceGetClock_fn clock_max;
    nvmlDeviceGetUint_fn power;
    nvmlDeviceGetUint_fn power_limit;
    nvmlDeviceGetUint_fn power_limit_default;
    nvmlDeviceGetClock_fn app_clock;
    nvmlDeviceGetClock_fn app_clock_default;
    nvmlDeviceGetInt_fn display_active;
    nvmlDeviceGetInt_fn display_mode;
    nvmlDeviceGetUint_fn pstate;
    nvmlDeviceGetU64_fn clocks_event_reasons;
    nvmlDeviceGetInt_fn persistence;
    nvmlDeviceGetUintPair_fn mig;
    nvmlDeviceGetIntPair_fn ecc;
    nvmlDeviceGetInt_fn compute_mode;
    nvmlDeviceGetIntPair_fn driver_model;
    nvmlDeviceGetProcesses_fn processes;
    nvmlDeviceGetTopology_fn topology;
    nvmlDeviceGetNvLinkState_fn nvlink_state;
    nvmlDeviceGetNvLinkRemotePci_fn nvlink_remote;
} nvml_api;

typedef struct nvml {
    dl_lib *lib;
    nvml_api api;
    dl_nvml_facts *facts;
} nvml;

/* Every function, once. lacking gets the names this library does not have, in the order the
 * report lists them; the error text, shutdown, Windows' driver model and NVLink are asked for
 * quietly (their absence says nothing about the driver's age). */
static void load_api(dl_lib *lib, nvml_api *a, dl_strv *lacking)
{
#define SYM(newest, older) dl_driver_sym(lib, newest, older, lacking)
#define QUIET(name) dl_driver_sym(lib, name, NULL, NULL)
    a->init = (nvmlInit_fn)SYM("nvmlInit_v2", "nvmlInit");
    a->shutdown = (nvmlShutdown_fn)QUIET("nvmlShutdown");
    a->error_string = (nvmlErrorString_fn)QUIET("nvmlErrorString");
    a->driver_version = (nvmlSystemGetString_fn)SYM("nvmlSystemGetDriverVersion", NULL);
    a->nvml_version = (nvmlSystemGetString_fn)SYM("nvmlSystemGetNVMLVersion", NULL);
    a->cuda_version = (nvmlSystemGetCudaDriverVersion_fn)SYM(
        "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion");
    a->count = (nvmlDeviceGetCount_fn)SYM("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    a->handle = (nvmlDeviceGetHandleByIndex_fn)SYM("nvmlDeviceGetHandleByIndex_v2",
                                                   "nvmlDeviceGetHandleByIndex");
    a->name = (nvmlDeviceGetString_fn)SYM("nvmlDeviceGetName", NULL);
    a->uuid = (nvmlDeviceGetString_fn)SYM("nvmlDeviceGetUUID", NULL);
    a->pci = (nvmlDeviceGetPciInfo_fn)SYM("nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2");
    a->minor = (nvmlDeviceGetUint_fn)QUIET("nvmlDeviceGetMinorNumber");
    a->capability = (nvmlDeviceGetIntPair_fn)SYM("nvmlDeviceGetCudaComputeCapability", NULL);
    a->memory = (nvmlDeviceGetMemoryInfo_fn)SYM("nvmlDeviceGetMemoryInfo", NULL);
    a->pcie_gen = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetCurrPcieLinkGeneration", NULL);
    a->pcie_gen_max = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetMaxPcieLinkGeneration", NULL);
    a->pcie_width = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetCurrPcieLinkWidth", NULL);
    a->pcie_width_max = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetMaxPcieLinkWidth", NULL);
    a->clock = (nvmlDeviceGetClock_fn)SYM("nvmlDeviceGetClockInfo", NULL);
    a->clock_max = (nvmlDeviceGetClock_fn)SYM("nvmlDeviceGetMaxClockInfo", NULL);
    a->power = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetPowerUsage", NULL);
    a->power_limit = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetEnforcedPowerLimit", NULL);
    a->power_limit_default =
        (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetPowerManagementDefaultLimit", NULL);
    a->app_clock = (nvmlDeviceGetClock_fn)SYM("nvmlDeviceGetApplicationsClock", NULL);
    a->app_clock_default =
        (nvmlDeviceGetClock_fn)SYM("nvmlDeviceGetDefaultApplicationsClock", NULL);
    a->display_active = (nvmlDeviceGetInt_fn)SYM("nvmlDeviceGetDisplayActive", NULL);
    a->display_mode = (nvmlDeviceGetInt_fn)SYM("nvmlDeviceGetDisplayMode", NULL);
    a->pstate = (nvmlDeviceGetUint_fn)SYM("nvmlDeviceGetPerformanceState", NULL);
    a->clocks_event_reasons = (nvmlDeviceGetU64_fn)SYM(
        "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons");
    a->persistence = (nvmlDeviceGetInt_fn)SYM("nvmlDeviceGetPersistenceMode", NULL);
    a->mig = (nvmlDeviceGetUintPair_fn)SYM("nvmlDeviceGetMigMode", NULL);
    a->ecc = (nvmlDeviceGetIntPair_fn)SYM("nvmlDeviceGetEccMode", NULL);
    a->compute_mode = (nvmlDeviceGetInt_fn)SYM("nvmlDeviceGetComputeMode", NULL);
    a->driver_model = (nvmlDeviceGetIntPair_fn)QUIET("nvmlDeviceGetDriverModel");
    a->processes = (nvmlDeviceGetProcesses_fn)SYM("nvmlDeviceGetComputeRunningProcesses_v3", NULL);
    a->topology = (nvmlDeviceGetTopology_fn)SYM("nvmlDeviceGetTopologyCommonAncestor", NULL);
    a->nvlink_state = (nvmlDeviceGetNvLinkState_fn)QUIET("nvmlDeviceGetNvLinkState");
    a->nvlink_remote =
        (nvmlDeviceGetNvLinkRemotePci_fn)QUIET("nvmlDeviceGetNvLinkRemotePciInfo_v2");
#undef SYM
#undef QUIET
}

static const char *errstr(const nvml *n, nvmlReturn_t rc)
{
    const char *s = n->api.error_string ? n->api.error_string(rc) : NULL;
    return s ? s : "unknown NVML error";
}

/* Records why a value is unknown: the function is missing, or what it answered. */
static bool check(nvml *n, void *fn, const char *name, nvmlReturn_t rc, void *unknown_target,
                  dl_field_kind kind)
{
    char *why;
    if (fn && rc == NVML_SUCCESS)
        return true;
    if (!fn) {
        why = dl_fmt("this driver's NVML has no %s", name); /* in missing_symbols since load */
    } else {
        why = dl_fmt("%s: %s", name, errstr(n, rc));
    }
    dl_value_set_unknown(kind, unknown_target, why);
    free(why);
    return false;
}

static void device_text(nvml *n, nvmlDevice_t d, nvmlDeviceGetString_fn fn, const char *name,
                        dl_text *t)
{
    char buf[NVML_STRING_BUFFER] = {0};
    nvmlReturn_t rc = fn ? fn(d, buf, sizeof buf) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, t, DL_F_TEXT))
        dl_text_set(t, buf);
}

static void device_uint(nvml *n, nvmlDevice_t d, nvmlDeviceGetUint_fn fn, const char *name,
                        dl_int *v)
{
    unsigned int x = 0;
    nvmlReturn_t rc = fn ? fn(d, &x) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, v, DL_F_INT))
        dl_int_set(v, (long long)x);
}

static void device_clock(nvml *n, nvmlDevice_t d, nvmlDeviceGetClock_fn fn, const char *name,
                         int type, dl_int *v)
{
    unsigned int x = 0;
    nvmlReturn_t rc = fn ? fn(d, type, &x) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, v, DL_F_INT))
        dl_int_set(v, (long long)x);
}

static void device_watts(nvml *n, nvmlDevice_t d, nvmlDeviceGetUint_fn fn, const char *name,
                         dl_num *v)
{
    unsigned int mw = 0;
    nvmlReturn_t rc = fn ? fn(d, &mw) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, v, DL_F_NUM))
        dl_num_set(v, mw / 1000.0);
}

/* A feature state (persistence, a display): enabled or not. */
static void device_feature(nvml *n, nvmlDevice_t d, nvmlDeviceGetInt_fn fn, const char *name,
                           dl_flag *v)
{
    int cur = 0;
    nvmlReturn_t rc = fn ? fn(d, &cur) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, v, DL_F_FLAG))
        dl_flag_set(v, cur == NVML_FEATURE_ENABLED);
}

static void device_ecc(nvml *n, nvmlDevice_t d, dl_flag *v)
{
    nvmlDeviceGetIntPair_fn fn = n->api.ecc;
    int cur = 0, pending = 0;
    nvmlReturn_t rc = fn ? fn(d, &cur, &pending) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, "nvmlDeviceGetEccMode", rc, v, DL_F_FLAG))
        dl_flag_set(v, cur == NVML_FEATURE_ENABLED);
}

static void device_capability(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    const char *name = "nvmlDeviceGetCudaComputeCapability";
    nvmlDeviceGetIntPair_fn fn = n->api.capability;
    int major = 0, minor = 0;
    nvmlReturn_t rc = fn ? fn(d, &major, &minor) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, &g->compute_capability, DL_F_TEXT)) {
        char *cc = dl_fmt("%d.%d", major, minor);
        dl_text_set(&g->compute_capability, cc);
        free(cc);
    }
}

static void device_memory(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    const char *name = "nvmlDeviceGetMemoryInfo";
    nvmlDeviceGetMemoryInfo_fn fn = n->api.memory;
    nvmlMemory_t mem = {0, 0, 0};
    nvmlReturn_t rc = fn ? fn(d, &mem) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, name, rc, &g->memory_total_bytes, DL_F_INT)) {
        dl_int_set(&g->memory_total_bytes, (long long)mem.total);
        dl_int_set(&g->memory_used_bytes, (long long)mem.used);
    } else {
        dl_int_unknown(&g->memory_used_bytes, "%s", g->memory_total_bytes.why);
    }
}

static void device_pci(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    nvmlDeviceGetPciInfo_fn fn = n->api.pci;
    nvmlPciInfo_t pci;
    nvmlReturn_t rc;
    memset(&pci, 0, sizeof pci);
    rc = fn ? fn(d, &pci) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)fn, "nvmlDeviceGetPciInfo", rc, &g->pci_bus_id, DL_F_TEXT)) {
        pci.busId[sizeof pci.busId - 1] = '\0';
        dl_text_set(&g->pci_bus_id, pci.busId);
    }
}

/* Linux only: the N of /dev/nvidiaN, which gres.conf's File= names (the minor number the
 * kernel gave the GPU, not always NVML's index). Windows answers not supported: absent. */
static void device_minor(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    nvmlDeviceGetUint_fn fn = n->api.minor;
    unsigned int x = 0;
    nvmlReturn_t rc;
    if (!fn)
        return;
    rc = fn(d, &x);
    if (rc == NVML_ERROR_NOT_SUPPORTED)
        return;
    if (check(n, (void *)fn, "nvmlDeviceGetMinorNumber", rc, &g->minor_number, DL_F_INT))
        dl_int_set(&g->minor_number, (long long)x);
}

static const struct {
    unsigned long long bit;
    const char *name;
} throttle_names[] = {
    {NVML_CLOCKS_EVENT_GPU_IDLE, "gpu_idle"},
    {NVML_CLOCKS_EVENT_APPLICATIONS_CLOCKS, "applications_clocks_setting"},
    {NVML_CLOCKS_EVENT_SW_POWER_CAP, "sw_power_cap"},
    {NVML_CLOCKS_EVENT_HW_SLOWDOWN, "hw_slowdown"},
    {NVML_CLOCKS_EVENT_SYNC_BOOST, "sync_boost"},
    {NVML_CLOCKS_EVENT_SW_THERMAL, "sw_thermal_slowdown"},
    {NVML_CLOCKS_EVENT_HW_THERMAL, "hw_thermal_slowdown"},
    {NVML_CLOCKS_EVENT_HW_POWER_BRAKE, "hw_power_brake_slowdown"},
    {NVML_CLOCKS_EVENT_DISPLAY_CLOCKS, "display_clock_setting"},
};

static void device_throttle(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    nvmlDeviceGetU64_fn fn = n->api.clocks_event_reasons;
    unsigned long long bits = 0;
    size_t i;
    nvmlReturn_t rc = fn ? fn(d, &bits) : NVML_ERROR_UNKNOWN;
    if (!check(n, (void *)fn, "nvmlDeviceGetCurrentClocksEventReasons", rc,
               &g->throttle_reasons, DL_F_TEXTLIST))
        return;
    dl_list_known(&g->throttle_reasons);
    for (i = 0; i < sizeof throttle_names / sizeof throttle_names[0]; i++)
        if (bits & throttle_names[i].bit)
            dl_textlist_add(&g->throttle_reasons, throttle_names[i].name);
}

static void device_mig(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    const char *name = "nvmlDeviceGetMigMode";
    nvmlDeviceGetUintPair_fn fn = n->api.mig;
    unsigned int cur = 0, pending = 0;
    nvmlReturn_t rc = fn ? fn(d, &cur, &pending) : NVML_ERROR_UNKNOWN;
    if (fn && rc == NVML_ERROR_NOT_SUPPORTED) {
        dl_flag_set(&g->mig_enabled, false); /* a GPU without MIG has it off */
        return;
    }
    if (check(n, (void *)fn, name, rc, &g->mig_enabled, DL_F_FLAG))
        dl_flag_set(&g->mig_enabled, cur == NVML_DEVICE_MIG_ENABLE);
}

static void device_compute_mode(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    static const char *const modes[] = {"default", "exclusive_thread", "prohibited",
                                        "exclusive_process"};
    const char *name = "nvmlDeviceGetComputeMode";
    nvmlDeviceGetInt_fn fn = n->api.compute_mode;
    int mode = 0;
    nvmlReturn_t rc = fn ? fn(d, &mode) : NVML_ERROR_UNKNOWN;
    if (!check(n, (void *)fn, name, rc, &g->compute_mode, DL_F_TEXT))
        return;
    if (mode >= 0 && mode < 4)
        dl_text_set(&g->compute_mode, modes[mode]);
    else
        dl_text_unknown(&g->compute_mode, "NVML reported compute mode %d", mode);
}

/* Windows only: WDDM (display), TCC (compute only) or MCDM. Elsewhere the call is not
 * supported and the value stays absent. */
static void device_driver_model(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    static const char *const models[] = {"wddm", "tcc", "mcdm"};
    nvmlDeviceGetIntPair_fn fn = n->api.driver_model;
    int current = -1, pending = -1;
    if (fn && fn(d, &current, &pending) == NVML_SUCCESS && current >= 0 && current < 3)
        dl_text_set(&g->driver_model, models[current]);
}

/* NVML's protocol: ask with room for some; INSUFFICIENT_SIZE says how many there are. */
static void device_processes(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    const char *name = "nvmlDeviceGetComputeRunningProcesses_v3";
    nvmlDeviceGetProcesses_fn fn = n->api.processes;
    unsigned int count = 16, i;
    nvmlProcessInfo_t *infos = NULL;
    nvmlReturn_t rc = NVML_ERROR_UNKNOWN;
    int tries;
    for (tries = 0; fn && tries < 3; tries++) {
        infos = dl_xrealloc(infos, (count ? count : 1) * sizeof *infos);
        memset(infos, 0, (count ? count : 1) * sizeof *infos);
        rc = fn(d, &count, infos);
        if (rc != NVML_ERROR_INSUFFICIENT_SIZE)
            break;
        count += 8; /* processes may start between the two calls */
    }
    if (check(n, (void *)fn, name, rc, &g->processes, DL_F_LIST)) {
        dl_list_known(&g->processes);
        for (i = 0; i < count; i++) {
            dl_gpu_process *p = dl_list_push(&g->processes, sizeof *p);
            dl_int_set(&p->pid, infos[i].pid);
            dl_int_set(&p->used_memory_bytes, (long long)infos[i].usedGpuMemory);
        }
    }
    free(infos);
}

static void describe_device(nvml *n, nvmlDevice_t d, dl_nvml_gpu *g)
{
    const nvml_api *a = &n->api;
    device_text(n, d, a->name, "nvmlDeviceGetName", &g->name);
    device_text(n, d, a->uuid, "nvmlDeviceGetUUID", &g->uuid);
    device_pci(n, d, g);
    device_minor(n, d, g);
    device_capability(n, d, g);
    device_memory(n, d, g);
    device_uint(n, d, a->pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration", &g->pcie_generation);
    device_uint(n, d, a->pcie_gen_max, "nvmlDeviceGetMaxPcieLinkGeneration",
                &g->pcie_generation_max);
    device_uint(n, d, a->pcie_width, "nvmlDeviceGetCurrPcieLinkWidth", &g->pcie_width);
    device_uint(n, d, a->pcie_width_max, "nvmlDeviceGetMaxPcieLinkWidth", &g->pcie_width_max);
    device_clock(n, d, a->clock, "nvmlDeviceGetClockInfo", NVML_CLOCK_SM, &g->sm_clock_mhz);
    device_clock(n, d, a->clock_max, "nvmlDeviceGetMaxClockInfo", NVML_CLOCK_SM,
                 &g->sm_clock_max_mhz);
    device_clock(n, d, a->clock, "nvmlDeviceGetClockInfo", NVML_CLOCK_MEM,
                 &g->memory_clock_mhz);
    device_clock(n, d, a->clock_max, "nvmlDeviceGetMaxClockInfo", NVML_CLOCK_MEM,
                 &g->memory_clock_max_mhz);
    /* Read only: what nvidia-smi -ac set, against the board's default. */
    device_clock(n, d, a->app_clock, "nvmlDeviceGetApplicationsClock", NVML_CLOCK_GRAPHICS,
                 &g->app_clock_graphics_mhz);
    device_clock(n, d, a->app_clock_default, "nvmlDeviceGetDefaultApplicationsClock",
                 NVML_CLOCK_GRAPHICS, &g->app_clock_graphics_default_mhz);
    device_clock(n, d, a->app_clock, "nvmlDeviceGetApplicationsClock", NVML_CLOCK_MEM,
                 &g->app_clock_memory_mhz);
    device_clock(n, d, a->app_clock_default, "nvmlDeviceGetDefaultApplicationsClock",
                 NVML_CLOCK_MEM, &g->app_clock_memory_default_mhz);
    device_feature(n, d, a->display_active, "nvmlDeviceGetDisplayActive", &g->display_active);
    device_feature(n, d, a->display_mode, "nvmlDeviceGetDisplayMode", &g->display_connected);
    device_watts(n, d, a->power, "nvmlDeviceGetPowerUsage", &g->power_draw_watts);
    device_watts(n, d, a->power_limit, "nvmlDeviceGetEnforcedPowerLimit", &g->power_limit_watts);
    device_watts(n, d, a->power_limit_default, "nvmlDeviceGetPowerManagementDefaultLimit",
                 &g->power_limit_default_watts);
    device_uint(n, d, a->pstate, "nvmlDeviceGetPerformanceState", &g->performance_state);
    device_throttle(n, d, g);
    device_feature(n, d, a->persistence, "nvmlDeviceGetPersistenceMode", &g->persistence_mode);
    device_mig(n, d, g);
    device_ecc(n, d, &g->ecc_enabled);
    device_compute_mode(n, d, g);
    device_driver_model(n, d, g);
    device_processes(n, d, g);
}

static const char *topology_name(int level)
{
    switch (level) {
    case NVML_TOPOLOGY_INTERNAL: return "same_board";
    case NVML_TOPOLOGY_SINGLE: return "pcie_switch";
    case NVML_TOPOLOGY_MULTIPLE: return "pcie_switches";
    case NVML_TOPOLOGY_HOSTBRIDGE: return "host_bridge";
    case NVML_TOPOLOGY_NODE: return "numa_node";
    case NVML_TOPOLOGY_SYSTEM: return "system";
    default: return NULL;
    }
}

/* Active NVLinks of a whose far end is b (compared by PCI bus id). */
static void count_nvlinks(nvml *n, nvmlDevice_t a, const char *b_bus, dl_int *links)
{
    nvmlDeviceGetNvLinkState_fn state = n->api.nvlink_state;
    nvmlDeviceGetNvLinkRemotePci_fn remote = n->api.nvlink_remote;
    unsigned int l;
    long long count = 0;
    if (!state || !remote || !b_bus) {
        dl_int_unknown(links, !b_bus ? "the second GPU's PCI bus id is unknown"
                                     : "this driver's NVML has no NVLink queries");
        return;
    }
    for (l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
        int on = 0;
        nvmlPciInfo_t pci;
        memset(&pci, 0, sizeof pci);
        if (state(a, l, &on) != NVML_SUCCESS || on != NVML_FEATURE_ENABLED)
            continue;
        if (remote(a, l, &pci) != NVML_SUCCESS)
            continue;
        pci.busId[sizeof pci.busId - 1] = '\0';
        if (dl_contains_ci(pci.busId, b_bus) && dl_contains_ci(b_bus, pci.busId))
            count++; /* the same id, case aside */
    }
    dl_int_set(links, count);
}

static void describe_topology(nvml *n, nvmlDevice_t *dev, unsigned int count)
{
    nvmlDeviceGetTopology_fn fn = n->api.topology;
    unsigned int i, j;
    dl_list_known(&n->facts->topology);
    for (i = 0; i < count; i++)
        for (j = i + 1; j < count; j++) {
            dl_gpu_link *link = dl_list_push(&n->facts->topology, sizeof *link);
            const dl_nvml_gpu *gb = &DL_LIST_AT(n->facts->gpus, dl_nvml_gpu, j);
            int level = 0;
            nvmlReturn_t rc = fn ? fn(dev[i], dev[j], &level) : NVML_ERROR_UNKNOWN;
            dl_int_set(&link->gpu_a, i);
            dl_int_set(&link->gpu_b, j);
            if (check(n, (void *)fn, "nvmlDeviceGetTopologyCommonAncestor", rc, &link->path,
                      DL_F_TEXT)) {
                const char *name = topology_name(level);
                if (name)
                    dl_text_set(&link->path, name);
                else
                    dl_text_unknown(&link->path, "NVML reported topology level %d", level);
            }
            count_nvlinks(n, dev[i], gb->pci_bus_id.value, &link->nvlinks);
        }
}

static void describe_system(nvml *n)
{
    nvmlSystemGetString_fn drv = n->api.driver_version;
    nvmlSystemGetString_fn ver = n->api.nvml_version;
    nvmlSystemGetCudaDriverVersion_fn cuda = n->api.cuda_version;
    char buf[NVML_STRING_BUFFER] = {0};
    int v = 0;
    nvmlReturn_t rc = drv ? drv(buf, sizeof buf) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)drv, "nvmlSystemGetDriverVersion", rc, &n->facts->driver_version,
              DL_F_TEXT))
        dl_text_set(&n->facts->driver_version, buf);
    memset(buf, 0, sizeof buf);
    rc = ver ? ver(buf, sizeof buf) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)ver, "nvmlSystemGetNVMLVersion", rc, &n->facts->nvml_version,
              DL_F_TEXT))
        dl_text_set(&n->facts->nvml_version, buf);
    rc = cuda ? cuda(&v) : NVML_ERROR_UNKNOWN;
    if (check(n, (void *)cuda, "nvmlSystemGetCudaDriverVersion", rc,
              &n->facts->cuda_driver_version, DL_F_INT))
        dl_int_set(&n->facts->cuda_driver_version, v);
}

static void describe_devices(nvml *n)
{
    nvmlDeviceGetCount_fn count_fn = n->api.count;
    nvmlDeviceGetHandleByIndex_fn handle_fn = n->api.handle;
    unsigned int count = 0, i;
    nvmlDevice_t *dev;
    nvmlReturn_t rc = count_fn ? count_fn(&count) : NVML_ERROR_UNKNOWN;
    if (!check(n, (void *)count_fn, "nvmlDeviceGetCount", rc, &n->facts->gpus, DL_F_LIST)) {
        dl_list_unknown(&n->facts->topology, "%s", n->facts->gpus.why);
        return;
    }
    dl_list_known(&n->facts->gpus);
    dev = dl_xcalloc(count ? count : 1, sizeof *dev);
    for (i = 0; i < count; i++) {
        dl_nvml_gpu *g = dl_list_push(&n->facts->gpus, sizeof *g);
        dl_int_set(&g->index, i);
        rc = handle_fn ? handle_fn(i, &dev[i]) : NVML_ERROR_UNKNOWN;
        if (check(n, (void *)handle_fn, "nvmlDeviceGetHandleByIndex", rc, &g->name, DL_F_TEXT))
            describe_device(n, dev[i], g);
        else
            dl_schema_fill_unknown(&dl_nvml_gpu_schema, g, g->name.why);
    }
    describe_topology(n, dev, count);
    free(dev);
}

/* Loads and initialises NVML; false (with the facts saying why) when it cannot. */
static bool start(nvml *n, dl_probe_outcome *out)
{
    char *error = NULL;
    dl_strv lacking = {NULL, 0};
    size_t i;
    nvmlInit_fn init;
    nvmlReturn_t rc;
    n->lib = dl_lib_open(dl_lib_name_nvml(), &error);
    if (!n->lib) {
        dl_text_unknown(&n->facts->library, "%s", error);
        dl_schema_fill_unknown(&dl_nvml_schema, n->facts, error);
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, error);
        free(error);
        return false;
    }
    {
        char *path = dl_lib_path(n->lib);
        if (path)
            dl_text_set(&n->facts->library, path);
        else
            dl_text_unknown(&n->facts->library, "the loader did not say which file it loaded");
        free(path);
    }
    load_api(n->lib, &n->api, &lacking);
    dl_list_known(&n->facts->missing_symbols);
    for (i = 0; i < lacking.n; i++)
        dl_textlist_add(&n->facts->missing_symbols, lacking.v[i]);
    dl_strv_free(&lacking);
    init = n->api.init;
    rc = init ? init() : NVML_ERROR_UNKNOWN;
    if (init)
        dl_text_set(&n->facts->init_result, errstr(n, rc));
    if (!check(n, (void *)init, "nvmlInit", rc, &n->facts->driver_version, DL_F_TEXT)) {
        dl_schema_fill_unknown(&dl_nvml_schema, n->facts, n->facts->driver_version.why);
        dl_probe_note(out, DL_PROBE_FAILED, n->facts->driver_version.why);
        return false;
    }
    return true;
}

void dl_gather_nvml(dl_nvml_facts *facts, dl_probe_outcome *out)
{
    nvml n;
    memset(&n, 0, sizeof n);
    n.facts = facts;
    if (start(&n, out)) {
        describe_system(&n);
        describe_devices(&n);
        if (n.api.shutdown)
            n.api.shutdown();
    }
    /* The library stays loaded: the child exits right after, and unloading a driver
     * library has crashed real systems. */
}
