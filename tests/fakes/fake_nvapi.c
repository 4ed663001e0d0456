/* A fake NVAPI (nvapi64.dll on Windows, libnvapi.so.1 for the Linux unit tests): the one
 * export nvapi_QueryInterface hands out the driver-settings calls dlenv makes, answering
 * from the scenario file named by DLENV_FAKE_SCENARIO (see fake_scenario.h):
 *   nvapi.init = error:-6          NvAPI_Initialize's status (default NVAPI_OK)
 *   nvapi.init_hang = 1            NvAPI_Initialize never returns
 *   nvapi.create_session = error:N, nvapi.load_settings = error:N   those calls' status
 *   nvapi.no_global_profile = 1    no NvAPI_DRS_GetCurrentGlobalProfile (an old driver)
 *   nvapi.power_mode = 5           PREFERRED_PSTATE in the global profile; absent: not set
 *                                  (NVAPI_SETTING_NOT_FOUND); error:N: that status */
#include "fake_scenario.h"
#include "probe/windows/nvapi_api.h"

#include <stdio.h>
#include <string.h>

struct nvapi_drs_session {
    int loaded;
};
struct nvapi_drs_profile {
    int base;
};

static int fake_initialized;
static struct nvapi_drs_session fake_session;
static struct nvapi_drs_profile fake_global = {0}, fake_base = {1};

/* The status a scenario key names: error:N, else NVAPI_OK. */
static nvapi_status fake_status(const char *key)
{
    const char *v = fake_scenario_get(key);
    int code;
    return v && fake_scenario_is_error(v, &code) ? code : NVAPI_OK;
}

static nvapi_status fake_initialize(void)
{
    nvapi_status s;
    const char *hang = fake_scenario_get("nvapi.init_hang");
    if (hang && strcmp(hang, "1") == 0)
        fake_hang();
    s = fake_status("nvapi.init");
    if (s == NVAPI_OK)
        fake_initialized = 1;
    return s;
}
FAKE_CHECK_TYPE(fake_initialize, nvapi_void_fn);

static nvapi_status fake_unload(void)
{
    if (!fake_initialized)
        return NVAPI_API_NOT_INITIALIZED;
    fake_initialized = 0;
    return NVAPI_OK;
}
FAKE_CHECK_TYPE(fake_unload, nvapi_void_fn);

static nvapi_status fake_error_message(nvapi_status s, char text[64])
{
    const char *name = s == NVAPI_ERROR                     ? "NVAPI_ERROR"
                       : s == NVAPI_NVIDIA_DEVICE_NOT_FOUND ? "NVAPI_NVIDIA_DEVICE_NOT_FOUND"
                       : s == NVAPI_API_NOT_INITIALIZED     ? "NVAPI_API_NOT_INITIALIZED"
                                                            : NULL;
    if (!name)
        return NVAPI_INVALID_ARGUMENT;
    snprintf(text, 64, "%s", name);
    return NVAPI_OK;
}
FAKE_CHECK_TYPE(fake_error_message, nvapi_error_message_fn);

static nvapi_status fake_create_session(nvapi_drs_session_t *session)
{
    nvapi_status s;
    if (!fake_initialized)
        return NVAPI_API_NOT_INITIALIZED;
    if (!session)
        return NVAPI_INVALID_ARGUMENT;
    if ((s = fake_status("nvapi.create_session")) != NVAPI_OK)
        return s;
    fake_session.loaded = 0;
    *session = &fake_session;
    return NVAPI_OK;
}
FAKE_CHECK_TYPE(fake_create_session, nvapi_create_session_fn);

static nvapi_status fake_destroy_session(nvapi_drs_session_t session)
{
    return session == &fake_session ? NVAPI_OK : NVAPI_INVALID_ARGUMENT;
}
FAKE_CHECK_TYPE(fake_destroy_session, nvapi_session_fn);

static nvapi_status fake_load_settings(nvapi_drs_session_t session)
{
    nvapi_status s;
    if (session != &fake_session)
        return NVAPI_INVALID_ARGUMENT;
    if ((s = fake_status("nvapi.load_settings")) != NVAPI_OK)
        return s;
    session->loaded = 1;
    return NVAPI_OK;
}
FAKE_CHECK_TYPE(fake_load_settings, nvapi_session_fn);

static nvapi_status fake_profile(nvapi_drs_session_t session, nvapi_drs_profile_t *profile,
                                 struct nvapi_drs_profile *which)
{
    if (session != &fake_session || !profile)
        return NVAPI_INVALID_ARGUMENT;
    if (!session->loaded)
        return NVAPI_ERROR;   /* the settings were never loaded */
    *profile = which;
    return NVAPI_OK;
}

static nvapi_status fake_global_profile(nvapi_drs_session_t session, nvapi_drs_profile_t *profile)
{
    return fake_profile(session, profile, &fake_global);
}
FAKE_CHECK_TYPE(fake_global_profile, nvapi_get_profile_fn);

static nvapi_status fake_base_profile(nvapi_drs_session_t session, nvapi_drs_profile_t *profile)
{
    return fake_profile(session, profile, &fake_base);
}
FAKE_CHECK_TYPE(fake_base_profile, nvapi_get_profile_fn);

static nvapi_status fake_get_setting(nvapi_drs_session_t session, nvapi_drs_profile_t profile,
                                     uint32_t id, nvapi_drs_setting *setting)
{
    const char *v = fake_scenario_get("nvapi.power_mode");
    long long n;
    int code;
    if (session != &fake_session || (profile != &fake_global && profile != &fake_base) ||
        !setting)
        return NVAPI_INVALID_ARGUMENT;
    if (setting->version != NVAPI_DRS_SETTING_VER1)
        return NVAPI_INCOMPATIBLE_STRUCT_VERSION;
    if (id != NVAPI_PREFERRED_PSTATE_ID || !v)
        return NVAPI_SETTING_NOT_FOUND;
    if (fake_scenario_is_error(v, &code))
        return code;
    if (!fake_scenario_ll(v, 10, &n))
        return NVAPI_ERROR;
    setting->id = id;
    setting->type = 0;
    setting->location = profile == &fake_base ? 2 : 1;
    setting->is_current_predefined = 0;
    setting->current.u32 = (uint32_t)n;
    return NVAPI_OK;
}
FAKE_CHECK_TYPE(fake_get_setting, nvapi_get_setting_fn);

/* A function as the void * nvapi_QueryInterface returns (the dlsym idiom). */
#define AS_POINTER(fn, out) memcpy(&(out), &(void (*)(void)){(void (*)(void))(fn)}, sizeof(out))

FAKE_EXPORT void *nvapi_QueryInterface(uint32_t id);
FAKE_EXPORT void *nvapi_QueryInterface(uint32_t id)
{
    const char *old = fake_scenario_get("nvapi.no_global_profile");
    void *p = NULL;
    switch (id) {
    case NVAPI_ID_INITIALIZE: AS_POINTER(fake_initialize, p); break;
    case NVAPI_ID_UNLOAD: AS_POINTER(fake_unload, p); break;
    case NVAPI_ID_GET_ERROR_MESSAGE: AS_POINTER(fake_error_message, p); break;
    case NVAPI_ID_DRS_CREATE_SESSION: AS_POINTER(fake_create_session, p); break;
    case NVAPI_ID_DRS_DESTROY_SESSION: AS_POINTER(fake_destroy_session, p); break;
    case NVAPI_ID_DRS_LOAD_SETTINGS: AS_POINTER(fake_load_settings, p); break;
    case NVAPI_ID_DRS_GET_CURRENT_GLOBAL_PROFILE:
        if (!old || strcmp(old, "1") != 0)
            AS_POINTER(fake_global_profile, p);
        break;
    case NVAPI_ID_DRS_GET_BASE_PROFILE: AS_POINTER(fake_base_profile, p); break;
    case NVAPI_ID_DRS_GET_SETTING: AS_POINTER(fake_get_setting, p); break;
    default: break;
    }
    return p;
}
FAKE_CHECK_TYPE(nvapi_QueryInterface, nvapi_QueryInterface_fn);
