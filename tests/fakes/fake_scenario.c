#include "fake_scenario.h"

#include <ctype.h>
#include <errno.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FS_MAX_ENTRIES 1024
#define FS_KEY_MAX 128
#define FS_VALUE_MAX 512

struct fs_entry {
    char key[FS_KEY_MAX];
    char value[FS_VALUE_MAX];
};

static struct fs_entry fs_entries[FS_MAX_ENTRIES];
static int fs_count;
static int fs_loaded;
#ifdef _WIN32
static INIT_ONCE fs_once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK fs_load_once(PINIT_ONCE once, PVOID arg, PVOID *ctx);
#define FS_ONCE() InitOnceExecuteOnce(&fs_once, fs_load_once, NULL, NULL)
#else
static pthread_once_t fs_once = PTHREAD_ONCE_INIT;
#define FS_ONCE() pthread_once(&fs_once, fs_load)
#endif

static char *fs_trim(char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static void fs_set(const char *key, const char *value)
{
    for (int i = 0; i < fs_count; i++) {
        if (strcmp(fs_entries[i].key, key) == 0) {
            snprintf(fs_entries[i].value, sizeof fs_entries[i].value, "%s", value);
            return;
        }
    }
    if (fs_count >= FS_MAX_ENTRIES) {
        fprintf(stderr, "fake driver: too many scenario keys, ignoring %s\n", key);
        return;
    }
    snprintf(fs_entries[fs_count].key, sizeof fs_entries[fs_count].key, "%s", key);
    snprintf(fs_entries[fs_count].value, sizeof fs_entries[fs_count].value, "%s", value);
    fs_count++;
}

static void fs_load(void)
{
    const char *path = getenv("DLENV_FAKE_SCENARIO");
    if (path == NULL || *path == '\0')
        return;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "fake driver: cannot read scenario %s: %s\n", path, strerror(errno));
        return;
    }
    char line[1024];
    while (fgets(line, sizeof line, f) != NULL) {
        char *s = fs_trim(line);
        if (*s == '\0' || *s == '#')
            continue;
        for (char *p = s + 1; *p; p++) {   /* trailing comment: white space, then '#' */
            if (*p == '#' && isspace((unsigned char)p[-1])) {
                *p = '\0';
                break;
            }
        }
        char *eq = strchr(s, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        char *key = fs_trim(s);
        char *value = fs_trim(eq + 1);
        if (*key != '\0')
            fs_set(key, value);
    }
    fclose(f);
    fs_loaded = 1;
}

#ifdef _WIN32
static BOOL CALLBACK fs_load_once(PINIT_ONCE once, PVOID arg, PVOID *ctx)
{
    (void)once;
    (void)arg;
    (void)ctx;
    fs_load();
    return TRUE;
}
#endif

/* Dies the way a broken driver does: SIGSEGV on POSIX, an access violation on Windows. */
void fake_crash(void)
{
#ifdef _WIN32
    RaiseException(0xC0000005u, EXCEPTION_NONCONTINUABLE, 0, NULL);
#else
    signal(SIGSEGV, SIG_DFL);   /* die by the signal even under a sanitizer's handler */
    raise(SIGSEGV);
#endif
}

void fake_hang(void)
{
    for (;;) {
#ifdef _WIN32
        Sleep(1000);
#else
        sleep(1);
#endif
    }
}

int fake_scenario_present(void)
{
    FS_ONCE();
    return fs_loaded;
}

const char *fake_scenario_get(const char *key)
{
    FS_ONCE();
    for (int i = 0; i < fs_count; i++)
        if (strcmp(fs_entries[i].key, key) == 0)
            return fs_entries[i].value;
    return NULL;
}

const char *fake_scenario_getf(const char *fmt, ...)
{
    char key[FS_KEY_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(key, sizeof key, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof key)
        return NULL;
    return fake_scenario_get(key);
}

int fake_scenario_ll(const char *value, int base, long long *out)
{
    if (value == NULL || *value == '\0')
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, base);
    if (errno != 0 || end == value)
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return 0;
    *out = v;
    return 1;
}

int fake_scenario_ull(const char *value, int base, unsigned long long *out)
{
    if (value == NULL || *value == '\0')
        return 0;
    const char *p = value;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-')
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (errno != 0 || end == p)
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0')
        return 0;
    *out = v;
    return 1;
}

int fake_scenario_is_error(const char *value, int *code)
{
    long long v;
    if (value == NULL || strncmp(value, "error:", 6) != 0)
        return 0;
    if (!fake_scenario_ll(value + 6, 10, &v))
        return 0;
    *code = (int)v;
    return 1;
}
