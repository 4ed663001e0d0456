/* Facts that only the running system can give (Windows): the version the kernel reports
 * (RtlGetVersion, which unlike GetVersionEx is not shimmed to the manifest's version), the
 * native architecture, the computer name. */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);

static bool kernel_version(OSVERSIONINFOW *v)
{
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    rtl_get_version_fn fn;
    memset(v, 0, sizeof *v);
    v->dwOSVersionInfoSize = sizeof *v;
    if (!ntdll)
        return false;
    fn = (rtl_get_version_fn)(void (*)(void))GetProcAddress(ntdll, "RtlGetVersion");
    return fn && fn(v) == 0;
}

static const char *arch_name(WORD arch)
{
    switch (arch) {
    case PROCESSOR_ARCHITECTURE_AMD64: return "x86_64";
    case PROCESSOR_ARCHITECTURE_INTEL: return "i686";
    case 12: /* PROCESSOR_ARCHITECTURE_ARM64 */ return "aarch64";
    case PROCESSOR_ARCHITECTURE_ARM: return "arm";
    default: return "unknown";
    }
}

bool dl_os_uname(dl_uname *u, char **error)
{
    OSVERSIONINFOW v;
    SYSTEM_INFO si;
    wchar_t name[256];
    DWORD n = sizeof name / sizeof name[0];
    memset(u, 0, sizeof *u);
    if (!kernel_version(&v)) {
        *error = dl_strdup("RtlGetVersion gave no answer");
        return false;
    }
    GetNativeSystemInfo(&si);
    u->sysname = dl_strdup("Windows");
    u->release = dl_fmt("%lu.%lu.%lu", (unsigned long)v.dwMajorVersion,
                        (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
    u->version = dl_narrow(v.szCSDVersion);
    u->machine = dl_strdup(arch_name(si.wProcessorArchitecture));
    u->nodename = GetComputerNameExW(ComputerNameDnsHostname, name, &n) ? dl_narrow(name)
                                                                      : dl_strdup("");
    return true;
}

void dl_uname_free(dl_uname *u)
{
    free(u->sysname);
    free(u->release);
    free(u->version);
    free(u->machine);
    free(u->nodename);
    memset(u, 0, sizeof *u);
}

bool dl_os_libc(char **name, char **version, char **error)
{
    (void)name;
    (void)version;
    *error = dl_strdup("Windows programs carry their C runtime (the VC++ redistributable)");
    return false;
}

/* An elevated token: what "Run as administrator" gives (UAC's split token otherwise). */
bool dl_os_is_admin(void)
{
    HANDLE token = NULL;
    TOKEN_ELEVATION elevation;
    DWORD size = 0;
    bool admin = false;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token))
        return false;
    if (GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &size))
        admin = elevation.TokenIsElevated != 0;
    CloseHandle(token);
    return admin;
}
