/* The NVIDIA driver's power-management mode ("Manage 3D settings > Power management
 * mode") in the global 3D profile, through NVAPI's driver-settings (DRS) calls. This runs
 * only inside `dlenv __probe nvapi` (probe/gpu/child.c), under the child timeout: a wedged
 * display driver can hang its first call, and the report must still come out. */
#include "probe/windows/power.h"

#include "base/str.h"
#include "probe/windows/nvapi_api.h"

#include <stdlib.h>
#include <string.h>

typedef struct nvapi {
    nvapi_void_fn initialize, unload;
    nvapi_error_message_fn error_message;
    nvapi_create_session_fn create_session;
    nvapi_session_fn destroy_session, load_settings;
    nvapi_get_profile_fn global_profile, base_profile;
    nvapi_get_setting_fn get_setting;
} nvapi;

const char *dl_nvapi_power_mode_name(uint32_t value)
{
    switch (value) {
    case NVAPI_PSTATE_ADAPTIVE: return "adaptive";
    case NVAPI_PSTATE_PREFER_MAX: return "prefer_max_performance";
    case NVAPI_PSTATE_DRIVER_CONTROLLED: return "driver_controlled";
    case NVAPI_PSTATE_PREFER_CONSISTENT: return "prefer_consistent_performance";
    case NVAPI_PSTATE_PREFER_MIN: return "prefer_min_power";
    case NVAPI_PSTATE_OPTIMAL_POWER: return "optimal_power";
    default: return NULL;
    }
}

/* A function pointer from nvapi_QueryInterface, through a plain function-pointer type
 * (ISO C has no cast between object and function pointers; this is the dlsym idiom). */
static void (*lookup(nvapi_QueryInterface_fn query, uint32_t id))(void)
{
    void *p = query(id);
    void (*fn)(void) = NULL;
    if (p)
        memcpy(&fn, &p, sizeof fn);
    return fn;
}

static bool load_api(nvapi_QueryInterface_fn q, nvapi *a)
{
    a->initialize = (nvapi_void_fn)lookup(q, NVAPI_ID_INITIALIZE);
    a->unload = (nvapi_void_fn)lookup(q, NVAPI_ID_UNLOAD);
    a->error_message = (nvapi_error_message_fn)lookup(q, NVAPI_ID_GET_ERROR_MESSAGE);
    a->create_session = (nvapi_create_session_fn)lookup(q, NVAPI_ID_DRS_CREATE_SESSION);
    a->destroy_session = (nvapi_session_fn)lookup(q, NVAPI_ID_DRS_DESTROY_SESSION);
    a->load_settings = (nvapi_session_fn)lookup(q, NVAPI_ID_DRS_LOAD_SETTINGS);
    a->global_profile = (nvapi_get_profile_fn)lookup(q, NVAPI_ID_DRS_GET_CURRENT_GLOBAL_PROFILE);
    a->base_profile = (nvapi_get_profile_fn)lookup(q, NVAPI_ID_DRS_GET_BASE_PROFILE);
    a->get_setting = (nvapi_get_setting_fn)lookup(q, NVAPI_ID_DRS_GET_SETTING);
    return a->initialize && a->create_session && a->destroy_session && a->load_settings &&
           (a->global_profile || a->base_profile) && a->get_setting;
}

/* "NvAPI_DRS_LoadSettings: NVAPI_ERROR (-1)", in NVAPI's own words where it has them. */
static char *failure(const nvapi *a, const char *call, nvapi_status s)
{
    char text[64];
    memset(text, 0, sizeof text);
    if (a->error_message && a->error_message(s, text) == NVAPI_OK && text[0]) {
        text[sizeof text - 1] = '\0';
        return dl_fmt("%s failed: %s (%d)", call, text, s);
    }
    return dl_fmt("%s failed with NVAPI status %d", call, s);
}

/* The global profile: the one "Global Settings" edits (a preset can replace the base
 * profile there); the base profile where the driver lacks the call. */
static nvapi_status global_profile(const nvapi *a, nvapi_drs_session_t session,
                                   nvapi_drs_profile_t *profile, const char **call)
{
    nvapi_status s = NVAPI_NO_IMPLEMENTATION;
    *call = "NvAPI_DRS_GetCurrentGlobalProfile";
    if (a->global_profile)
        s = a->global_profile(session, profile);
    if (s != NVAPI_OK && a->base_profile) {
        *call = "NvAPI_DRS_GetBaseProfile";
        s = a->base_profile(session, profile);
    }
    return s;
}

/* A value newer than the SDK dlenv was written from: its number, for the report. */
static void set_other(dl_text *mode, uint32_t value)
{
    char *text = dl_fmt("value 0x%x", (unsigned)value);
    dl_text_set(mode, text);
    free(text);
}

/* The setting in the global profile; not set there means the driver's own default. */
static void read_mode(const nvapi *a, nvapi_drs_session_t session, dl_text *mode,
                      dl_probe_outcome *out)
{
    nvapi_drs_profile_t profile = NULL;
    nvapi_drs_setting *setting;
    const char *call = NULL, *name;
    nvapi_status s = a->load_settings(session);
    char *why = NULL;
    if (s != NVAPI_OK) {
        why = failure(a, "NvAPI_DRS_LoadSettings", s);
    } else if ((s = global_profile(a, session, &profile, &call)) != NVAPI_OK) {
        why = failure(a, call, s);
    } else {
        setting = dl_xcalloc(1, sizeof *setting);
        setting->version = NVAPI_DRS_SETTING_VER1;
        s = a->get_setting(session, profile, NVAPI_PREFERRED_PSTATE_ID, setting);
        if (s == NVAPI_SETTING_NOT_FOUND)
            dl_text_set(mode, "driver_default");
        else if (s != NVAPI_OK)
            why = failure(a, "NvAPI_DRS_GetSetting(PREFERRED_PSTATE)", s);
        else if (setting->type != 0)
            why = dl_fmt("PREFERRED_PSTATE is not a DWORD (type %u)", (unsigned)setting->type);
        else if ((name = dl_nvapi_power_mode_name(setting->current.u32)) != NULL)
            dl_text_set(mode, name);
        else
            set_other(mode, setting->current.u32);
        free(setting);
    }
    if (why) {
        dl_text_unknown(mode, "%s", why);
        dl_probe_note(out, DL_PROBE_FAILED, why);
        free(why);
    }
}

static const char *default_library(void)
{
    return sizeof(void *) == 8 ? "nvapi64.dll" : "nvapi.dll";
}

void dl_gather_nvapi(const char *library, dl_windows_power_facts *p, dl_probe_outcome *out)
{
    const char *name = library ? library : default_library();
    char *error = NULL, *why = NULL;
    dl_lib *lib = dl_lib_open(name, &error);
    void *query = lib ? dl_lib_sym(lib, "nvapi_QueryInterface") : NULL;
    nvapi_QueryInterface_fn q = NULL;
    nvapi_drs_session_t session = NULL;
    nvapi_status s;
    nvapi a;
    memset(&a, 0, sizeof a);
    if (query)
        memcpy(&q, &query, sizeof q);
    if (!lib) {
        why = dl_fmt("no NVIDIA display driver: %s", error ? error : name);
        dl_text_unknown(&p->nvidia_power_mode, "%s", why);
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, why);
    } else if (!q || !load_api(q, &a)) {
        why = dl_fmt("%s lacks nvapi_QueryInterface or the driver-settings calls", name);
        dl_text_unknown(&p->nvidia_power_mode, "%s", why);
        dl_probe_note(out, DL_PROBE_FAILED, why);
    } else if ((s = a.initialize()) != NVAPI_OK) {
        why = failure(&a, "NvAPI_Initialize", s);
        dl_text_unknown(&p->nvidia_power_mode, "%s", why);
        dl_probe_note(out, s == NVAPI_NVIDIA_DEVICE_NOT_FOUND ? DL_PROBE_NOT_PRESENT
                                                               : DL_PROBE_FAILED, why);
    } else {
        if ((s = a.create_session(&session)) != NVAPI_OK) {
            why = failure(&a, "NvAPI_DRS_CreateSession", s);
            dl_text_unknown(&p->nvidia_power_mode, "%s", why);
            dl_probe_note(out, DL_PROBE_FAILED, why);
        } else {
            read_mode(&a, session, &p->nvidia_power_mode, out);
            a.destroy_session(session);
        }
        if (a.unload)
            a.unload();
    }
    free(why);
    free(error);
    if (lib)
        dl_lib_close(lib);
}
