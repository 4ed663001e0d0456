/* Who runs dlenv, for --redact (POSIX): the names this account goes by and its home
 * directories. The environment can be empty or stale (env -i, a cron job, sudo), so the
 * password database is asked too: for the effective and the real user, and for the user
 * sudo was run by. */
#include "os/os.h"

#include "base/str.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static void add_account(dl_strv *users, dl_strv *homes, const struct passwd *pw)
{
    if (!pw)
        return;
    dl_strv_add_once(users, pw->pw_name);
    dl_strv_add_once(homes, pw->pw_dir);
}

void dl_os_identity(dl_strv *users, dl_strv *homes)
{
    const char *sudo_user = dl_env_get("SUDO_USER");
    dl_strv_add_once(users, dl_env_get("USER"));
    dl_strv_add_once(users, dl_env_get("LOGNAME"));
    dl_strv_add_once(homes, dl_env_get("HOME"));
    /* getpwuid's result lives until the next call: each is copied at once. */
    add_account(users, homes, getpwuid(geteuid()));
    add_account(users, homes, getpwuid(getuid()));
    if (sudo_user && *sudo_user) {
        dl_strv_add_once(users, sudo_user);
        add_account(users, homes, getpwnam(sudo_user));
    }
}
