/* Facts that only the running system can give (POSIX): uname and the C library. */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

bool dl_os_uname(dl_uname *u, char **error)
{
    struct utsname n;
    memset(u, 0, sizeof *u);
    if (uname(&n) != 0) {
        *error = dl_fmt("uname failed: %s", strerror(errno));
        return false;
    }
    u->sysname = dl_strdup(n.sysname);
    u->release = dl_strdup(n.release);
    u->version = dl_strdup(n.version);
    u->machine = dl_strdup(n.machine);
    u->nodename = dl_strdup(n.nodename);
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
#ifdef _CS_GNU_LIBC_VERSION
    char buf[128];
    size_t n = confstr(_CS_GNU_LIBC_VERSION, buf, sizeof buf);
    if (n > 0 && n <= sizeof buf) {
        /* "glibc 2.36" */
        char *space = strchr(buf, ' ');
        if (space) {
            *space = '\0';
            *name = dl_strdup(buf);
            *version = dl_strdup(space + 1);
            return true;
        }
    }
    *error = dl_strdup("confstr(_CS_GNU_LIBC_VERSION) gave no answer");
    return false;
#else
    (void)name;
    (void)version;
    *error = dl_strdup("this C library does not report its version");
    return false;
#endif
}

bool dl_os_is_admin(void)
{
    return geteuid() == 0;
}
