/* Signs of the OS in one lowercased line that are path forms (the ones text_facts.c's
 * line_os reads before these: drive letters, site-packages, .so). */
#ifndef DLENV_PARSE_OS_SIGNS_H
#define DLENV_PARSE_OS_SIGNS_H

#include <stdbool.h>

/* Windows: a backslash site-packages or AppData path with no drive ("\venv\lib\
 * site-packages\torch", "~\AppData\Local\"), a PowerShell relative path (".\venv\Scripts",
 * ".\webui-user.bat"), an issue form's "OS: Windows 10". */
bool dl_os_windows_sign(const char *low);

/* Linux: a path only Linux has: a home folder (/home/me, /data/home/me), Colab's /content,
 * /mnt, /media, /root, the Linux wheels' build root /pytorch, conda's docker and build root
 * /opt/conda, ROCm's and NGC's /opt folders, the multiarch library folders, /usr/local/cuda,
 * a root shell's prompt "root@host:/". */
bool dl_os_linux_sign(const char *low);

#endif
