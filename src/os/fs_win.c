/* Files (Windows). Machine paths are Windows paths ("C:\Users\李明\...", either slash);
 * under --root DIR they are read below DIR instead, with the drive letter as a directory
 * (C:\x -> DIR\C\x), so a Windows tree can be inspected as a fixture. Below the root a
 * path is taken lexically ("." dropped, ".." stops at the root), a symbolic link or
 * junction on the way is not followed (it would point at this machine's files), and a DOS
 * device name (CON, NUL, COM1) is refused. Only files on a disk are read: never a pipe or
 * a console. Every call takes UTF-16, so non-ASCII user names work. */
#include "os/os.h"

#include "base/str.h"
#include "os/fs_names.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <fcntl.h>
#include <io.h>
#include <stdint.h>
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
    n = (DWORD)strlen(m->root);
    while (n > 3 && (m->root[n - 1] == '\\' || m->root[n - 1] == '/'))
        m->root[--n] = '\0'; /* components are added with their own separator */
    m->live = false;
    return true;
}

void dl_machine_close(dl_machine *m)
{
    free(m->root);
    m->root = NULL;
}

static void set_message(dl_io_error *e, const char *what, const char *path, const char *why)
{
    if (!e)
        return;
    free(e->message);
    e->status = DL_IO_FAILED;
    e->message = dl_fmt("cannot %s %s: %s", what, path, why);
}

static bool under_root(const dl_machine *m)
{
    return m->root && *m->root;
}

/* CON, NUL, COM1, LPT1.txt ...: Windows opens the device whatever folder names it. */
static bool dos_device(const char *name, size_t n)
{
    static const char *const devices[] = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"};
    size_t base = 0, i;
    while (base < n && name[base] != '.')
        base++;
    while (base && name[base - 1] == ' ')
        base--;
    for (i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (strlen(devices[i]) == base && _strnicmp(name, devices[i], base) == 0)
            return true;
    return base == 4 && (_strnicmp(name, "COM", 3) == 0 || _strnicmp(name, "LPT", 3) == 0) &&
           name[3] >= '0' && name[3] <= '9';
}

/* The components of a machine path below the root, lexically: "C:" is the folder C, "."
 * is dropped and ".." stops at the root, as a chroot's would. False with err for a name
 * Windows would not read as a plain file there: a DOS device, or a ':' (a stream). */
static bool components(const char *path, dl_strv *out, const char *what, dl_io_error *err)
{
    const char *p = path;
    if (p[0] && p[1] == ':') {
        dl_strv_add(out, dl_strndup(p, 1));
        p += 2;
    }
    while (*p) {
        size_t n = strcspn(p, "/\\");
        if (n == 2 && strncmp(p, "..", 2) == 0) {
            if (out->n)
                free(out->v[--out->n]);
        } else if (n && !(n == 1 && *p == '.')) {
            if (dos_device(p, n) || memchr(p, ':', n)) {
                set_message(err, what, path, "not a plain file name under --root");
                return false;
            }
            dl_strv_add(out, dl_strndup(p, n));
        }
        p += n;
        p += *p != '\0';
    }
    return true;
}

/* Every component below the root must be a plain folder or file: a symbolic link or
 * junction in an inspected tree points at this machine's own files, so none is followed.
 * A missing one ends the check: the call that follows reports it. */
static bool no_link_below(const char *root, const dl_strv *parts, const char *what,
                          const char *path, dl_io_error *err)
{
    dl_buf b = {0};
    size_t i;
    bool ok = true;
    dl_buf_puts(&b, root);
    for (i = 0; ok && i < parts->n; i++) {
        wchar_t *w;
        DWORD a;
        dl_buf_printf(&b, "\\%s", parts->v[i]);
        w = dl_wide(b.data);
        a = GetFileAttributesW(w);
        free(w);
        if (a == INVALID_FILE_ATTRIBUTES)
            break;
        if (a & FILE_ATTRIBUTE_REPARSE_POINT) {
            set_message(err, what, path, "a symbolic link or junction, which is not followed "
                                         "under --root");
            ok = false;
        }
    }
    dl_buf_free(&b);
    return ok;
}

/* The host path of a machine path: as it is on this machine; under --root the lexical
 * path below the root with no link on the way. NULL with err. */
static char *host_path(const dl_machine *m, const char *path, const char *what,
                       dl_io_error *err)
{
    dl_strv parts = {0};
    dl_buf b = {0};
    size_t i;
    if (!under_root(m))
        return dl_strdup(path);
    if (!components(path, &parts, what, err) ||
        !no_link_below(m->root, &parts, what, path, err)) {
        dl_strv_free(&parts);
        return NULL;
    }
    dl_buf_puts(&b, m->root);
    for (i = 0; i < parts.n; i++)
        dl_buf_printf(&b, "\\%s", parts.v[i]);
    dl_strv_free(&parts);
    return dl_buf_take(&b);
}

/* Only a file on a disk is read: a pipe or a device (a console) may block or act on being
 * read; a link under --root is not followed. */
static HANDLE open_for_read(const dl_machine *m, const char *path, dl_io_error *err)
{
    char *host = host_path(m, path, "read", err);
    wchar_t *w;
    HANDLE h;
    BY_HANDLE_FILE_INFORMATION info;
    if (!host)
        return INVALID_HANDLE_VALUE;
    w = dl_wide(host);
    free(host);
    h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, OPEN_EXISTING,
                    FILE_ATTRIBUTE_NORMAL | (under_root(m) ? FILE_FLAG_OPEN_REPARSE_POINT : 0),
                    NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        set_error(err, GetLastError(), "read", path);
        return h;
    }
    if (GetFileType(h) != FILE_TYPE_DISK) {
        set_message(err, "read", path, "not a regular file (a device or a pipe)");
    } else if (!GetFileInformationByHandle(h, &info)) {
        set_error(err, GetLastError(), "read", path);
    } else if (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) {
        set_message(err, "read", path, "not a regular file");
    } else {
        return h;
    }
    CloseHandle(h);
    return INVALID_HANDLE_VALUE;
}

bool dl_fs_read(const dl_machine *m, const char *path, size_t max, char **data, size_t *len,
                bool *truncated, dl_io_error *err)
{
    HANDLE h = open_for_read(m, path, err);
    dl_buf b = {0};
    char chunk[65536];
    bool more = false;
    if (h == INVALID_HANDLE_VALUE)
        return false;
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

FILE *dl_fs_open_read(const dl_machine *m, const char *path, dl_io_error *err)
{
    HANDLE h = open_for_read(m, path, err);
    FILE *f = NULL;
    int fd;
    if (h == INVALID_HANDLE_VALUE)
        return NULL;
    fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
    } else if (!(f = _fdopen(fd, "rb"))) {
        _close(fd); /* closes the handle too */
    }
    if (!f)
        set_message(err, "read", path, "cannot open it as a stream");
    return f;
}

/* The attributes of path, INVALID_FILE_ATTRIBUTES with err (what: "inspect", "open"). */
static DWORD attributes_of(const dl_machine *m, const char *path, const char *what,
                           dl_io_error *err)
{
    char *host = host_path(m, path, what, err);
    wchar_t *w;
    DWORD a;
    if (!host)
        return INVALID_FILE_ATTRIBUTES;
    w = dl_wide(host);
    a = GetFileAttributesW(w);
    if (a == INVALID_FILE_ATTRIBUTES)
        set_error(err, GetLastError(), what, path);
    free(w);
    free(host);
    return a;
}

dl_fs_kind dl_fs_kind_of(const dl_machine *m, const char *path, dl_io_error *err)
{
    DWORD a = attributes_of(m, path, "inspect", err);
    if (a == INVALID_FILE_ATTRIBUTES)
        return DL_FS_NONE;
    if (a & FILE_ATTRIBUTE_DIRECTORY)
        return DL_FS_DIR;
    if (a & FILE_ATTRIBUTE_DEVICE)
        return DL_FS_OTHER;
    return DL_FS_FILE;
}

bool dl_fs_can_read_write(const dl_machine *m, const char *path, dl_io_error *err)
{
    DWORD a = attributes_of(m, path, "open", err);
    if (a == INVALID_FILE_ATTRIBUTES)
        return false;
    if (a & FILE_ATTRIBUTE_READONLY) {
        set_error(err, ERROR_ACCESS_DENIED, "open", path);
        return false;
    }
    return true;
}

/* Under --root: the machine path with "." and ".." taken out (links are not followed
 * there, so there are none to resolve), in the path's own style: C:\x\y or /x/y. */
static char *lexical_path(const char *path)
{
    dl_strv parts = {0};
    dl_buf b = {0};
    bool drive = path[0] && path[1] == ':';
    size_t i;
    if (!components(path, &parts, "resolve", NULL)) {
        dl_strv_free(&parts);
        return dl_strdup(path);
    }
    dl_buf_puts(&b, "");
    for (i = 0; i < parts.n; i++) {
        dl_buf_puts(&b, !drive ? "/" : i ? "\\" : "");
        dl_buf_puts(&b, parts.v[i]);
        if (drive && i == 0)
            dl_buf_puts(&b, ":");
    }
    if (!b.len || (drive && parts.n == 1))
        dl_buf_puts(&b, drive ? "\\" : "/");
    dl_strv_free(&parts);
    return dl_buf_take(&b);
}

/* The final path of an existing file, links and junctions resolved by the system. */
char *dl_fs_realpath(const dl_machine *m, const char *path, dl_io_error *err)
{
    char *out;
    wchar_t *w, buf[MAX_PATH * 4];
    HANDLE h;
    DWORD n;
    if (under_root(m)) {
        if (dl_fs_kind_of(m, path, err) == DL_FS_NONE)
            return NULL;
        return lexical_path(path);
    }
    w = dl_wide(path);
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
    char *host = host_path(m, dir, "list", err), *pattern;
    wchar_t *w;
    WIN32_FIND_DATAW fd;
    HANDLE h;
    size_t n = 0, cap = 0;
    char **out = NULL;
    *names = NULL;
    *count = 0;
    if (!host)
        return false;
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
    HANDLE h = open_for_read(m, path, err);
    size_t done = 0;
    *got = 0;
    if (h == INVALID_HANDLE_VALUE)
        return false;
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
