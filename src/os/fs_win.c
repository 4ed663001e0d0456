/* Files (Windows). Machine paths are Windows paths ("C:\Users\李明\...", either slash);
 * under --root DIR they are read below DIR instead, with the drive letter as a directory
 * (C:\x -> DIR\C\x), so a Windows tree can be inspected as a fixture. Every call takes
 * UTF-16, so non-ASCII user names work. */
#include "os/os.h"

#include "base/str.h"
#include "os/fs_names.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(dl_io_error *e, DWORD code, const char *what, const char *path)
{
    char *why;
    if (!e)
        return;
    free(e->message);
    e->status = (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND ||
                 code == ERROR_INVALID_NAME || code == ERROR_BAD_NETPATH ||
                 code == ERROR_INVALID_DRIVE || code == ERROR_NOT_READY)
                    ? DL_IO_NOT_FOUND
                : (code == ERROR_ACCESS_DENIED || code == ERROR_SHARING_VIOLATION)
                    ? DL_IO_NO_PERMISSION
                    : DL_IO_FAILED;
    why = dl_win_error_text(code);
    e->message = dl_fmt("cannot %s %s: %s", what, path, why);
    free(why);
}

/* "/" as well: callers that mean "this machine" on every system pass it. */
static bool is_live_root(const char *root)
{
    return !root || !*root || strcmp(root, "/") == 0;
}

bool dl_machine_open(dl_machine *m, const char *root, char **error)
{
    wchar_t *w, full[MAX_PATH * 4];
    DWORD attrs, n;
    memset(m, 0, sizeof *m);
    if (is_live_root(root)) {
        m->root = dl_strdup("");
        m->live = true;
        return true;
    }
    w = dl_wide(root);
    attrs = GetFileAttributesW(w);
    if (attrs == INVALID_FILE_ATTRIBUTES) {
        char *why = dl_win_error_text(GetLastError());
        *error = dl_fmt("--root %s: %s", root, why);
        free(why);
        free(w);
        return false;
    }
    if (!(attrs & FILE_ATTRIBUTE_DIRECTORY)) {
        *error = dl_fmt("--root %s: not a directory", root);
        free(w);
        return false;
    }
    n = GetFullPathNameW(w, (DWORD)(sizeof full / sizeof full[0]), full, NULL);
    free(w);
    m->root = (n && n < sizeof full / sizeof full[0]) ? dl_narrow(full) : dl_strdup(root);
    m->live = false;
    return true;
}

void dl_machine_close(dl_machine *m)
{
    free(m->root);
    m->root = NULL;
}

char *dl_machine_path(const dl_machine *m, const char *path)
{
    if (!m->root || !*m->root)
        return dl_strdup(path);
    /* C:\x under a root is ROOT\C\x; /x (a Linux path) is ROOT\x */
    if (path[0] && path[1] == ':')
        return dl_fmt("%s\\%c%s", m->root, path[0], path + 2);
    return dl_fmt("%s%s%s", m->root, (path[0] == '/' || path[0] == '\\') ? "" : "\\", path);
}

static HANDLE open_for_read(const dl_machine *m, const char *path, DWORD *code)
{
    char *host = dl_machine_path(m, path);
    wchar_t *w = dl_wide(host);
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    *code = h == INVALID_HANDLE_VALUE ? GetLastError() : 0;
    free(w);
    free(host);
    return h;
}

bool dl_fs_read(const dl_machine *m, const char *path, size_t max, char **data, size_t *len,
                bool *truncated, dl_io_error *err)
{
    DWORD code;
    HANDLE h = open_for_read(m, path, &code);
    dl_buf b = {0};
    char chunk[65536];
    bool more = false;
    if (h == INVALID_HANDLE_VALUE) {
        set_error(err, code, "read", path);
        return false;
    }
    for (;;) {
        DWORD want = sizeof chunk, got = 0;
        if (b.len >= max) {
            char probe;
            more = ReadFile(h, &probe, 1, &got, NULL) && got > 0;
            break;
        }
        if (want > max - b.len)
            want = (DWORD)(max - b.len);
        if (!ReadFile(h, chunk, want, &got, NULL)) {
            set_error(err, GetLastError(), "read", path);
            CloseHandle(h);
            dl_buf_free(&b);
            return false;
        }
        if (got == 0)
            break;
        dl_buf_add(&b, chunk, got);
    }
    CloseHandle(h);
    if (len)
        *len = b.len;
    if (truncated)
        *truncated = more;
    if (!b.data)
        dl_buf_puts(&b, "");
    *data = dl_buf_take(&b);
    return true;
}

static DWORD attributes_of(const dl_machine *m, const char *path, DWORD *code)
{
    char *host = dl_machine_path(m, path);
    wchar_t *w = dl_wide(host);
    DWORD a = GetFileAttributesW(w);
    *code = a == INVALID_FILE_ATTRIBUTES ? GetLastError() : 0;
    free(w);
    free(host);
    return a;
}

dl_fs_kind dl_fs_kind_of(const dl_machine *m, const char *path, dl_io_error *err)
{
    DWORD code, a = attributes_of(m, path, &code);
    if (a == INVALID_FILE_ATTRIBUTES) {
        set_error(err, code, "inspect", path);
        return DL_FS_NONE;
    }
    if (a & FILE_ATTRIBUTE_DIRECTORY)
        return DL_FS_DIR;
    if (a & FILE_ATTRIBUTE_DEVICE)
        return DL_FS_OTHER;
    return DL_FS_FILE;
}

bool dl_fs_can_read_write(const dl_machine *m, const char *path, dl_io_error *err)
{
    DWORD code, a = attributes_of(m, path, &code);
    if (a == INVALID_FILE_ATTRIBUTES) {
        set_error(err, code, "open", path);
        return false;
    }
    if (a & FILE_ATTRIBUTE_READONLY) {
        set_error(err, ERROR_ACCESS_DENIED, "open", path);
        return false;
    }
    return true;
}

/* The final path of an existing file, links and junctions resolved by the system. Under
 * --root the machine path is returned as given: the tree's links are plain files there. */
char *dl_fs_realpath(const dl_machine *m, const char *path, dl_io_error *err)
{
    char *host, *out;
    wchar_t *w, buf[MAX_PATH * 4];
    HANDLE h;
    DWORD n;
    if (m->root && *m->root) {
        if (dl_fs_kind_of(m, path, err) == DL_FS_NONE)
            return NULL;
        return dl_strdup(path);
    }
    host = dl_machine_path(m, path);
    w = dl_wide(host);
    free(host);
    h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                    OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        set_error(err, GetLastError(), "resolve", path);
        return NULL;
    }
    n = GetFinalPathNameByHandleW(h, buf, (DWORD)(sizeof buf / sizeof buf[0]),
                                  FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    CloseHandle(h);
    if (!n || n >= sizeof buf / sizeof buf[0])
        return dl_strdup(path);
    /* \\?\C:\x -> C:\x; \\?\UNC\server\share -> \\server\share */
    if (wcsncmp(buf, L"\\\\?\\UNC\\", 8) == 0) {
        char *rest = dl_narrow(buf + 8);
        out = dl_fmt("\\\\%s", rest);
        free(rest);
        return out;
    }
    return dl_narrow(wcsncmp(buf, L"\\\\?\\", 4) == 0 ? buf + 4 : buf);
}

/* Symbolic links are rare on Windows installs and need privileges to make; the probes
 * that ask (the Linux library search) do not run on Windows machines. */
bool dl_fs_readlink(const dl_machine *m, const char *path, char **target, dl_io_error *err)
{
    (void)m;
    *target = NULL;
    set_error(err, ERROR_NOT_A_REPARSE_POINT, "read link", path);
    return false;
}

bool dl_fs_list(const dl_machine *m, const char *dir, char ***names, size_t *count,
                dl_io_error *err)
{
    char *host = dl_machine_path(m, dir), *pattern;
    wchar_t *w;
    WIN32_FIND_DATAW fd;
    HANDLE h;
    size_t n = 0, cap = 0;
    char **out = NULL;
    *names = NULL;
    *count = 0;
    pattern = dl_fmt("%s\\*", host);
    free(host);
    w = dl_wide(pattern);
    free(pattern);
    h = FindFirstFileW(w, &fd);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD code = GetLastError();
        if (code == ERROR_FILE_NOT_FOUND) /* an empty directory */
            return true;
        set_error(err, code, "list", dir);
        return false;
    }
    do {
        if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0)
            continue;
        dl_names_push(&out, &n, &cap, dl_narrow(fd.cFileName));
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    dl_names_sort(out, n);
    *names = out;
    *count = n;
    return true;
}

bool dl_fs_read_at(const dl_machine *m, const char *path, uint64_t offset, void *buf,
                   size_t len, size_t *got, dl_io_error *err)
{
    DWORD code;
    HANDLE h = open_for_read(m, path, &code);
    size_t done = 0;
    *got = 0;
    if (h == INVALID_HANDLE_VALUE) {
        set_error(err, code, "read", path);
        return false;
    }
    if (offset > (uint64_t)INT64_MAX) /* past the end of any file */
        len = 0;
    while (done < len) {
        /* ReadFile takes a DWORD count; the OVERLAPPED offset says where, on this
         * synchronous handle as well */
        DWORD want = len - done < ((size_t)1 << 30) ? (DWORD)(len - done) : (DWORD)1 << 30;
        DWORD n = 0;
        uint64_t at = offset + done;
        OVERLAPPED ov;
        memset(&ov, 0, sizeof ov);
        ov.Offset = (DWORD)(at & 0xffffffffu);
        ov.OffsetHigh = (DWORD)(at >> 32);
        if (!ReadFile(h, (char *)buf + done, want, &n, &ov)) {
            code = GetLastError();
            if (code == ERROR_HANDLE_EOF) /* an offset at or past the end */
                break;
            set_error(err, code, "read", path);
            CloseHandle(h);
            return false;
        }
        if (n == 0)
            break;
        done += n;
    }
    CloseHandle(h);
    *got = done;
    return true;
}
