/* --redact by structure: homes where a path starts, user names as a path component where
 * they name an account, hosts and users in addresses and URLs, user= tokens; a word that
 * merely equals a name (an enumerated value, /usr/lib) never changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "render/redact.h"

#include <stdlib.h>
#include <string.h>

static dl_redaction who(const char *home, const char *user, const char *host)
{
    dl_redaction r;
    memset(&r, 0, sizeof r);
    dl_redaction_add_home(&r, home);
    dl_redaction_add_user(&r, user);
    dl_redaction_add_host(&r, host);
    return r;
}

static void expect(const dl_redaction *r, const char *text, const char *want)
{
    char *got = dl_redact_text(text, r);
    assert_string_equal(got, want);
    free(got);
}

static void linux_paths_and_names(void **state)
{
    dl_redaction r = who("/home/ana", "ana", "ana-laptop");
    (void)state;
    expect(&r, "/home/ana/venv/bin/python", "~/venv/bin/python");
    /* a longer name that starts with the user's is someone else's */
    expect(&r, "/home/anastasia/x and /home/ana", "/home/anastasia/x and ~");
    expect(&r, "/home/ana/anaconda3/bin/python", "~/anaconda3/bin/python");
    expect(&r, "user ana@ana-laptop, ana@Ana-Laptop.lan", "user <user>@<host>, <user>@<host>.lan");
    expect(&r, "/srv/Ana/data /mnt/ana", "/srv/<user>/data /mnt/<user>");
    /* words are words: the user's and the host's names outside a path or an address */
    expect(&r, "banana ana.smith ana ana-laptop", "banana ana.smith ana ana-laptop");
    /* a PATH list, a relative path, an assignment, a reason with a path */
    expect(&r, "/usr/bin:/home/ana/.local/bin:/srv/ana/bin",
           "/usr/bin:~/.local/bin:/srv/<user>/bin");
    expect(&r, "envs/ana/bin PYTHONPATH=/home/ana/src",
           "envs/<user>/bin PYTHONPATH=~/src");
    expect(&r, "cannot read /home/ana/.cache/x: Permission denied",
           "cannot read ~/.cache/x: Permission denied");
    dl_redaction_free(&r);
}

/* A user called "root": the word stays, the home and paths go. */
static void user_named_like_a_word(void **state)
{
    dl_redaction r = who("/root", "root", "build-07");
    (void)state;
    expect(&r, "Root cause: driver_not_loaded (root of the tree)",
           "Root cause: driver_not_loaded (root of the tree)");
    expect(&r, "/root/.venv/bin/python and /srv/root/x", "~/.venv/bin/python and /srv/<user>/x");
    /* /srv/root is not /root */
    expect(&r, "/srv/root", "/srv/<user>");
    dl_redaction_free(&r);
}

/* The host "linux": os.family's value, the kernel's name and "Linux" in prose stay. */
static void host_named_like_a_value(void **state)
{
    dl_redaction r = who("/home/ana", "ana", "linux");
    (void)state;
    expect(&r, "linux", "linux");
    expect(&r, "Linux 6.1.0 x86_64 linux-gnu", "Linux 6.1.0 x86_64 linux-gnu");
    expect(&r, "ana@linux http://linux:8888/tree ssh://ana@linux.lan/x",
           "<user>@<host> http://<host>:8888/tree ssh://<user>@<host>.lan/x");
    expect(&r, "\\\\linux\\share\\env", "\\\\<host>\\share\\env");
    dl_redaction_free(&r);
}

/* The user "lib" (or "nvidia", a Jetson's default): the system's folders keep their names,
 * the user's folder does not. */
static void user_named_like_a_folder(void **state)
{
    dl_redaction r = who("/home/lib", "lib", "h1");
    dl_redaction n = who("/home/nvidia", "nvidia", "jetson");
    (void)state;
    expect(&r, "/usr/lib /usr/local/lib/python3.11 /lib64",
           "/usr/lib /usr/local/lib/python3.11 /lib64");
    expect(&r, "/home/lib/.venv/lib/python3.11", "~/.venv/lib/python3.11");
    expect(&r, "/data/home/lib/x /mnt/c/Users/lib", "/data/home/<user>/x /mnt/c/Users/<user>");
    expect(&r, "~/.venv/lib/python3/site-packages", "~/.venv/lib/python3/site-packages");
    expect(&n, "/usr/lib/x86_64-linux-gnu/nvidia /proc/driver/nvidia/version",
           "/usr/lib/x86_64-linux-gnu/nvidia /proc/driver/nvidia/version");
    expect(&n, "/home/nvidia/venv/lib/python3.10/site-packages/nvidia/cudnn",
           "~/venv/lib/python3.10/site-packages/nvidia/cudnn");
    dl_redaction_free(&r);
    dl_redaction_free(&n);
}

static void windows_paths(void **state)
{
    dl_redaction r = who("C:\\Users\\Ana", "Ana", "DESKTOP-7Q2");
    dl_redaction s = who("C:\\Users\\Ana Smith\\", "ana", "DESKTOP-7Q2");
    (void)state;
    expect(&r, "C:\\Users\\Ana\\venv\\Scripts\\python.exe", "~\\venv\\Scripts\\python.exe");
    expect(&r, "c:\\users\\ana\\AppData", "~\\AppData");
    expect(&r, "c:/users/ana/x on desktop-7q2", "~/x on desktop-7q2");
    expect(&r, "D:\\Users\\ana\\x;C:\\Windows\\System32",
           "D:\\Users\\<user>\\x;C:\\Windows\\System32");
    /* a folder with a space, in the home and after it */
    expect(&s, "C:\\Users\\Ana Smith\\AppData\\Local\\Programs\\Python",
           "~\\AppData\\Local\\Programs\\Python");
    expect(&r, "C:\\Program Files\\Ana\\x.dll is missing",
           "C:\\Program Files\\Ana\\x.dll is missing");
    dl_redaction_free(&r);
    dl_redaction_free(&s);
}

/* Names shorter than 3 characters are names too: only their places change. */
static void short_names(void **state)
{
    dl_redaction r = who("/home/al", "al", "pc");
    (void)state;
    expect(&r, "/home/al/x on pc, al@pc, /srv/al, also: alpha pc al",
           "~/x on pc, <user>@<host>, /srv/<user>, also: alpha pc al");
    dl_redaction_free(&r);
}

/* user=NAME (NCCL_DEBUG_SUBSYS-like values, connection strings): the name goes. */
static void user_tokens(void **state)
{
    dl_redaction r = who("/home/ana", "ana", "h1");
    (void)state;
    expect(&r, "INFO,user=ana", "INFO,user=<user>");
    expect(&r, "USER=ana LOGNAME=Ana username=bob", "USER=<user> LOGNAME=<user> username=bob");
    expect(&r, "https://ana:secret@pypi.example/simple",
           "https://<user>:secret@pypi.example/simple");
    dl_redaction_free(&r);
}

/* A home written with a trailing separator is the same home; "/" is nobody's. */
static void homes_normalised(void **state)
{
    dl_redaction r = who("/home/ana/", "ana", "h1");
    dl_redaction root = who("/", "x", "h1");
    dl_redaction none;
    (void)state;
    memset(&none, 0, sizeof none);
    expect(&r, "/home/ana/x /home/ana", "~/x ~");
    expect(&root, "/usr/lib /home/y", "/usr/lib /home/y");
    expect(&none, "/home/ana/x ana@h1", "/home/ana/x ana@h1");
    dl_redaction_free(&r);
    dl_redaction_free(&root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(linux_paths_and_names),
        cmocka_unit_test(user_named_like_a_word),
        cmocka_unit_test(host_named_like_a_value),
        cmocka_unit_test(user_named_like_a_folder),
        cmocka_unit_test(windows_paths),
        cmocka_unit_test(short_names),
        cmocka_unit_test(user_tokens),
        cmocka_unit_test(homes_normalised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
