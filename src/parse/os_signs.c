/* Path forms that tell the OS a paste was made on. A path is the machine's own: prose
 * rarely writes one, and a Linux path never has a backslash. */
#include "parse/os_signs.h"
#include "parse/paste.h"

#include <ctype.h>
#include <string.h>

/* ".\name" typed as a command or its argument: PowerShell's and cmd's relative path at a
 * line's start, after a prompt ("PS C:\sd> .\webui-user.bat", "(venv) PS > .\run.ps1") or
 * as what pip installs ("pip install .\torch-...whl"). Prose that quotes a README's Windows
 * step ("the README says .\venv\Scripts\activate") is no sign of the writer's OS, nor a
 * regex's "a.\d". */
static bool relative_backslash(const char *low)
{
    const char *at;
    for (at = strstr(low, ".\\"); at; at = strstr(at + 1, ".\\")) {
        const char *b = at;
        while (b > low && b[-1] == ' ')
            b--;
        if (isalpha((unsigned char)at[2]) &&
            (b == low || b[-1] == '>' ||
             (b - low >= 8 && !strncmp(b - 8, " install", 8))))
            return true;
    }
    return false;
}

bool dl_os_windows_sign(const char *low)
{
    return strstr(low, "\\site-packages\\") || strstr(low, "\\appdata\\") ||
           relative_backslash(low) || (strstr(low, "os: windows") && !strstr(low, "wsl"));
}

/* The token holding "at" starts with '/' or '~' (a path, not a URL's "site.com/home/"). */
static bool rooted_path(const char *low, const char *at)
{
    const char *s = at;
    while (s > low && !strchr(" \t\"'`=(,:[", s[-1]))
        s--;
    return (*s == '/' || *s == '~') && !(s > low + 1 && s[-1] == ':' && s[-2] != ' ');
}

/* A folder at a path's root that only Linux has: home folders (/home/me), Colab's /content,
 * the mounts /mnt and /media, root's home, and /pytorch, the root the Linux wheels are built
 * in (their messages say "at /pytorch/c10/cuda/..."; the Mac's and Windows' name their
 * runner's folders). */
static bool linux_root(const char *low)
{
    static const char *const roots[] = {"/home/", "/content/", "/mnt/", "/media/", "/root/",
                                        "/pytorch/"};
    size_t k;
    for (k = 0; k < sizeof roots / sizeof roots[0]; k++) {
        const char *at;
        size_t n = strlen(roots[k]);
        for (at = strstr(low, roots[k]); at; at = strstr(at + 1, roots[k]))
            if (isalnum((unsigned char)at[n]) && rooted_path(low, at))
                return true;
    }
    return false;
}

/* "root@4f2a9c:/workspace#" or "root@host:~#": a root shell, which a Mac's Terminal never
 * shows (its prompt is "user@host ~ %"). */
static bool root_prompt(const char *low)
{
    const char *at = strstr(low, "root@");
    if (!at || (at > low && isalnum((unsigned char)at[-1])))
        return false;
    for (at += 5; isalnum((unsigned char)*at) || *at == '-' || *at == '_' || *at == '.'; at++)
        ;
    return at[0] == ':' && (at[1] == '/' || at[1] == '~');
}

bool dl_os_linux_sign(const char *low)
{
    static const char *const paths[] = {"/opt/conda/", "/opt/rocm", "/opt/amdgpu/",
                                        "/opt/nvidia/", "x86_64-linux-gnu", "aarch64-linux-gnu",
                                        "/usr/lib64/", "/usr/local/cuda"};
    return dl_line_has_any(low, paths, sizeof paths / sizeof paths[0]) || linux_root(low) ||
           root_prompt(low);
}
