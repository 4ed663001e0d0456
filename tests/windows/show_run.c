/* show_run.exe: what a program started by `dlenv run` (or a launcher) receives, as JSON in
 * the shape tests/windows/check.py reads ({"facts": ...}): its arguments as the C runtime
 * parsed them (wmain's, as Python and most programs see them) and as CommandLineToArgvW did, the raw
 * command line, and its whole environment. SHOW_EXIT=N makes it exit with N, SHOW_CRASH=1
 * makes it die of an access violation, so the exit code passed back can be checked.
 * SHOW_CTRL_C=1 sends Ctrl+C to its whole console (dlenv too) and exits 42 once its own
 * handler has seen it: dlenv must outlive the event to pass that 42 back. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <shellapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static void put_string(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = malloc(n > 0 ? (size_t)n : 1), *p;
    if (!s)
        exit(99);
    if (n <= 0 || !WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL))
        s[0] = '\0';
    putchar('"');
    for (p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
    free(s);
}

static void put_list(const char *key, wchar_t **v, int n)
{
    int i;
    printf("\"%s\": [", key);
    for (i = 0; i < n; i++) {
        if (i)
            printf(", ");
        put_string(v[i]);
    }
    printf("]");
}

/* The environment as an object; a name given twice keeps its last value in a JSON reader. */
static void put_env(void)
{
    wchar_t *block = GetEnvironmentStringsW(), *p;
    int first = 1;
    printf("\"env\": {");
    for (p = block; p && *p; p += wcslen(p) + 1) {
        wchar_t *eq = wcschr(p + 1, L'=');
        if (!eq)
            continue;
        *eq = L'\0';
        printf("%s", first ? "" : ", ");
        put_string(p);
        printf(": ");
        put_string(eq + 1);
        *eq = L'=';
        first = 0;
    }
    printf("}");
    if (block)
        FreeEnvironmentStringsW(block);
}

static volatile LONG interrupted;

static BOOL WINAPI on_ctrl(DWORD event)
{
    if (event != CTRL_C_EVENT)
        return FALSE;
    InterlockedExchange(&interrupted, 1);
    return TRUE;
}

/* Ctrl+C to every process of this console, then up to 5 s for the handler's thread. */
static int ctrl_c(void)
{
    int i;
    SetConsoleCtrlHandler(on_ctrl, TRUE);
    if (!GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0))
        return 43;
    for (i = 0; i < 500 && !interrupted; i++)
        Sleep(10);
    return interrupted ? 42 : 44;
}

int wmain(int argc, wchar_t **argv)
{
    int n = 0;
    wchar_t **shell = CommandLineToArgvW(GetCommandLineW(), &n);
    wchar_t *line = GetCommandLineW();
    char value[32];
    printf("{\"facts\": {");
    put_list("argv", argv, argc);
    printf(", ");
    put_list("argv_shell32", shell, n);
    printf(", \"command_line\": ");
    put_string(line);
    printf(", ");
    put_env();
    printf("}}\n");
    fflush(stdout);
    if (GetEnvironmentVariableA("SHOW_CTRL_C", value, sizeof value))
        return ctrl_c();
    if (GetEnvironmentVariableA("SHOW_CRASH", value, sizeof value))
        RaiseException(EXCEPTION_ACCESS_VIOLATION, EXCEPTION_NONCONTINUABLE, 0, NULL);
    if (GetEnvironmentVariableA("SHOW_EXIT", value, sizeof value))
        return atoi(value);
    return 0;
}
