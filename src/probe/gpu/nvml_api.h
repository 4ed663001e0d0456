/* The few NVML declarations dlenv uses, written from NVIDIA's public NVML API reference
 * (docs.nvidia.com/deploy/nvml-api). The library is loaded at run time; nothing links
 * against it. The fake libnvidia-ml in tests/fakes implements the same declarations. */
#ifndef DLENV_PROBE_NVML_API_H
#define DLENV_PROBE_NVML_API_H

typedef int nvmlReturn_t;               /* an enum in nvml.h: int-sized */
typedef struct nvmlDevice_st *nvmlDevice_t;

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
    NVML_ERROR_UNKNOWN = 999
};

enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };
enum { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };
enum { NVML_DEVICE_MIG_DISABLE = 0, NVML_DEVICE_MIG_ENABLE = 1 };
enum {
    NVML_COMPUTEMODE_DEFAULT = 0,
    NVML_COMPUTEMODE_EXCLUSIVE_THREAD = 1,
    NVML_COMPUTEMODE_PROHIBITED = 2,
    NVML_COMPUTEMODE_EXCLUSIVE_PROCESS = 3
};
/* nvmlGpuTopologyLevel_t */
enum {
    NVML_TOPOLOGY_INTERNAL = 0,
    NVML_TOPOLOGY_SINGLE = 10,
    NVML_TOPOLOGY_MULTIPLE = 20,
    NVML_TOPOLOGY_HOSTBRIDGE = 30,
    NVML_TOPOLOGY_NODE = 40,
    NVML_TOPOLOGY_SYSTEM = 50
};
#define NVML_NVLINK_MAX_LINKS 18
#define NVML_STRING_BUFFER 96

/* Clock event ("throttle") reasons, nvmlClocksEventReasons. */
#define NVML_CLOCKS_EVENT_GPU_IDLE 0x1ULL
#define NVML_CLOCKS_EVENT_APPLICATIONS_CLOCKS 0x2ULL
#define NVML_CLOCKS_EVENT_SW_POWER_CAP 0x4ULL
#define NVML_CLOCKS_EVENT_HW_SLOWDOWN 0x8ULL
#define NVML_CLOCKS_EVENT_SYNC_BOOST 0x10ULL
#define NVML_CLOCKS_EVENT_SW_THERMAL 0x20ULL
#define NVML_CLOCKS_EVENT_HW_THERMAL 0x40ULL
#define NVML_CLOCKS_EVENT_HW_POWER_BRAKE 0x80ULL
#define NVML_CLOCKS_EVENT_DISPLAY_CLOCKS 0x100ULL

typedef struct nvmlPciInfo_st {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;      /* device << 16 | vendor */
    unsigned int pciSubSystemId;
    char busId[32];                /* "00000000:01:00.0" */
} nvmlPciInfo_t;

typedef struct nvmlMemory_st {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct nvmlProcessInfo_st {   /* the layout the _v3 call fills */
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

/* Function types, for dlsym. */
typedef nvmlReturn_t (*nvmlInit_fn)(void);
typedef nvmlReturn_t (*nvmlShutdown_fn)(void);
typedef const char *(*nvmlErrorString_fn)(nvmlReturn_t);
typedef nvmlReturn_t (*nvmlSystemGetString_fn)(char *, unsigned int);
typedef nvmlReturn_t (*nvmlSystemGetCudaDriverVersion_fn)(int *);
typedef nvmlReturn_t (*nvmlDeviceGetCount_fn)(unsigned int *);
typedef nvmlReturn_t (*nvmlDeviceGetHandleByIndex_fn)(unsigned int, nvmlDevice_t *);
typedef nvmlReturn_t (*nvmlDeviceGetString_fn)(nvmlDevice_t, char *, unsigned int);
typedef nvmlReturn_t (*nvmlDeviceGetPciInfo_fn)(nvmlDevice_t, nvmlPciInfo_t *);
typedef nvmlReturn_t (*nvmlDeviceGetIntPair_fn)(nvmlDevice_t, int *, int *);
typedef nvmlReturn_t (*nvmlDeviceGetUintPair_fn)(nvmlDevice_t, unsigned int *, unsigned int *);
typedef nvmlReturn_t (*nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t, nvmlMemory_t *);
typedef nvmlReturn_t (*nvmlDeviceGetUint_fn)(nvmlDevice_t, unsigned int *);
typedef nvmlReturn_t (*nvmlDeviceGetInt_fn)(nvmlDevice_t, int *);
typedef nvmlReturn_t (*nvmlDeviceGetClock_fn)(nvmlDevice_t, int, unsigned int *);
typedef nvmlReturn_t (*nvmlDeviceGetU64_fn)(nvmlDevice_t, unsigned long long *);
typedef nvmlReturn_t (*nvmlDeviceGetProcesses_fn)(nvmlDevice_t, unsigned int *,
                                                  nvmlProcessInfo_t *);
typedef nvmlReturn_t (*nvmlDeviceGetTopology_fn)(nvmlDevice_t, nvmlDevice_t, int *);
typedef nvmlReturn_t (*nvmlDeviceGetNvLinkState_fn)(nvmlDevice_t, unsigned int, int *);
typedef nvmlReturn_t (*nvmlDeviceGetNvLinkRemotePci_fn)(nvmlDevice_t, unsigned int,
                                                        nvmlPciInfo_t *);

/* The symbols, by name (nvml_gather.c resolves them once per load into a typed table;
 * the ones a driver lacks are the fact missing_symbols):
 *   nvmlInit_v2 | nvmlInit, nvmlShutdown, nvmlErrorString,
 *   nvmlSystemGetDriverVersion, nvmlSystemGetNVMLVersion,
 *   nvmlSystemGetCudaDriverVersion_v2 | nvmlSystemGetCudaDriverVersion,
 *   nvmlDeviceGetCount_v2 | nvmlDeviceGetCount,
 *   nvmlDeviceGetHandleByIndex_v2 | nvmlDeviceGetHandleByIndex,
 *   nvmlDeviceGetName, nvmlDeviceGetUUID, nvmlDeviceGetPciInfo_v3 | nvmlDeviceGetPciInfo_v2,
 *   nvmlDeviceGetCudaComputeCapability (int*, int*), nvmlDeviceGetMemoryInfo,
 *   nvmlDeviceGetCurrPcieLinkGeneration, nvmlDeviceGetMaxPcieLinkGeneration,
 *   nvmlDeviceGetCurrPcieLinkWidth, nvmlDeviceGetMaxPcieLinkWidth (unsigned*),
 *   nvmlDeviceGetClockInfo, nvmlDeviceGetMaxClockInfo (type, unsigned*),
 *   nvmlDeviceGetPowerUsage, nvmlDeviceGetEnforcedPowerLimit,
 *   nvmlDeviceGetPowerManagementDefaultLimit (unsigned* milliwatts),
 *   nvmlDeviceGetApplicationsClock, nvmlDeviceGetDefaultApplicationsClock (type, unsigned*),
 *   nvmlDeviceGetDisplayActive, nvmlDeviceGetDisplayMode (int*: nvmlEnableState_t),
 *   nvmlDeviceGetPerformanceState (int*: 0..15, 32 unknown),
 *   nvmlDeviceGetCurrentClocksEventReasons | nvmlDeviceGetCurrentClocksThrottleReasons (u64*),
 *   nvmlDeviceGetPersistenceMode (int*), nvmlDeviceGetMigMode (unsigned*, unsigned*),
 *   nvmlDeviceGetEccMode (int*, int*), nvmlDeviceGetComputeMode (int*),
 *   nvmlDeviceGetDriverModel (int* current, int* pending: 0 WDDM, 1 TCC, 2 MCDM; Windows),
 *   nvmlDeviceGetComputeRunningProcesses_v3,
 *   nvmlDeviceGetTopologyCommonAncestor (dev, dev, int*),
 *   nvmlDeviceGetNvLinkState (dev, link, int*), nvmlDeviceGetNvLinkRemotePciInfo_v2. */

#endif
