/* The few NVAPI declarations dlenv uses, written from NVIDIA's public NVAPI SDK
 * (github.com/NVIDIA/nvapi: nvapi.h, nvapi_interface.h, NvApiDriverSettings.h). NVAPI
 * exports one function, nvapi_QueryInterface, which returns every other function by a
 * fixed 32-bit id. The library (nvapi64.dll, nvapi.dll for 32-bit programs) comes with the
 * display driver in System32 and is loaded at run time. The fake in tests/fakes implements
 * the same declarations. Calls are __cdecl, the only convention x64 and arm64 have. */
#ifndef DLENV_PROBE_WINDOWS_NVAPI_API_H
#define DLENV_PROBE_WINDOWS_NVAPI_API_H

#include <stdint.h>

typedef int nvapi_status;     /* NvAPI_Status: an int-sized enum, 0 is NVAPI_OK */

enum {
    NVAPI_OK = 0,
    NVAPI_ERROR = -1,
    NVAPI_LIBRARY_NOT_FOUND = -2,
    NVAPI_NO_IMPLEMENTATION = -3,
    NVAPI_API_NOT_INITIALIZED = -4,
    NVAPI_INVALID_ARGUMENT = -5,
    NVAPI_NVIDIA_DEVICE_NOT_FOUND = -6,
    NVAPI_INCOMPATIBLE_STRUCT_VERSION = -9,
    NVAPI_SETTING_NOT_FOUND = -160,
    NVAPI_PROFILE_NOT_FOUND = -163
};

/* nvapi_interface.h's ids (defines: several are above INT_MAX, too big for an enum). */
#define NVAPI_ID_INITIALIZE 0x0150e828u
#define NVAPI_ID_UNLOAD 0xd22bdd7eu
#define NVAPI_ID_GET_ERROR_MESSAGE 0x6c2d048cu
#define NVAPI_ID_DRS_CREATE_SESSION 0x0694d52eu
#define NVAPI_ID_DRS_DESTROY_SESSION 0xdad9cff8u
#define NVAPI_ID_DRS_LOAD_SETTINGS 0x375dbd6bu
#define NVAPI_ID_DRS_GET_CURRENT_GLOBAL_PROFILE 0x617bff9fu
#define NVAPI_ID_DRS_GET_BASE_PROFILE 0xda8466a0u
#define NVAPI_ID_DRS_GET_SETTING 0x73bf8338u

/* NvApiDriverSettings.h: "Power management mode" and its values. The SDK names optimal
 * power the driver's default. */
#define NVAPI_PREFERRED_PSTATE_ID 0x1057eb71u
enum {
    NVAPI_PSTATE_ADAPTIVE = 0,
    NVAPI_PSTATE_PREFER_MAX = 1,
    NVAPI_PSTATE_DRIVER_CONTROLLED = 2,
    NVAPI_PSTATE_PREFER_CONSISTENT = 3,
    NVAPI_PSTATE_PREFER_MIN = 4,
    NVAPI_PSTATE_OPTIMAL_POWER = 5
};

/* NVDRS_SETTING, version 1: a name of 2048 UTF-16 units, then the id, type, where the value
 * comes from, and two unions (a DWORD, a binary blob of 4 + 4096 bytes, or a string) for
 * the predefined and the current value. Only the DWORDs are read here. */
typedef struct nvapi_drs_setting {
    uint32_t version;
    uint16_t name[2048];
    uint32_t id;
    uint32_t type;                  /* 0: DWORD */
    uint32_t location;              /* 0 this profile, 1 global, 2 base, 3 driver default */
    uint32_t is_current_predefined; /* nonzero: the driver's value, not the user's */
    uint32_t is_predefined_valid;
    union {
        uint32_t u32;
        unsigned char bytes[4 + 4096];
    } predefined;
    union {
        uint32_t u32;
        unsigned char bytes[4 + 4096];
    } current;
} nvapi_drs_setting;

_Static_assert(sizeof(nvapi_drs_setting) == 12320, "NVDRS_SETTING_V1 is 12320 bytes");

/* MAKE_NVAPI_VERSION: the structure's size in the low 16 bits, its version above. */
#define NVAPI_DRS_SETTING_VER1 ((uint32_t)sizeof(nvapi_drs_setting) | (1u << 16))

typedef struct nvapi_drs_session *nvapi_drs_session_t;   /* NvDRSSessionHandle */
typedef struct nvapi_drs_profile *nvapi_drs_profile_t;   /* NvDRSProfileHandle */

typedef void *(*nvapi_QueryInterface_fn)(uint32_t id);
typedef nvapi_status (*nvapi_void_fn)(void);                       /* Initialize, Unload */
typedef nvapi_status (*nvapi_error_message_fn)(nvapi_status s, char text[64]);
typedef nvapi_status (*nvapi_create_session_fn)(nvapi_drs_session_t *session);
typedef nvapi_status (*nvapi_session_fn)(nvapi_drs_session_t session); /* Destroy, Load */
typedef nvapi_status (*nvapi_get_profile_fn)(nvapi_drs_session_t session,
                                             nvapi_drs_profile_t *profile);
typedef nvapi_status (*nvapi_get_setting_fn)(nvapi_drs_session_t session,
                                             nvapi_drs_profile_t profile, uint32_t id,
                                             nvapi_drs_setting *setting);

#endif
