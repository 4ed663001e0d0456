/* Files under a root prefix (POSIX).
 *
 * This machine (root "/") is read through the kernel's own path resolution: its view is
 * the truth. Under --root DIR every path is walked one component at a time from a
 * descriptor of DIR, the way the inspected system would resolve it (as a chroot would):
 * an absolute symbolic link restarts at the root, ".." stops at it, and each directory is
 * opened with O_NOFOLLOW relative to the one before, so no component is ever looked up
 * through a path the kernel would resolve again. A link swapped in meanwhile fails
 * instead of leading out of the root, and a loop is an error, never a fallback to the
 * raw path. Only regular files are opened for reading: a FIFO would block forever and a
 * device node may act on being opened. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE 1 /* O_PATH: walk directories this user may search but not list */
#endif
#include "os/os.h"

#include "base/str.h"
#include "os/fs_names.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40    /* as Linux's own limit for one lookup */
#define MAX_DEPTH 256   /* directories held open at once while walking */

#ifdef O_PATH
#define DIR_WALK_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define DIR_WALK_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

static dl_io_status status_of(int code)
{
    return (code == ENOENT || code == ENOTDIR) ? DL_IO_NOT_FOUND
           : (code == EACCES || code == EPERM) ? DL_IO_NO_PERMISSION
                                               : DL_IO_FAILED;
}

static void set_error(dl_io_error *e, int code, const char *what, const char *path)
{
    if (!e)
        return;
    free(e->message);
    e->status = status_of(code);
    e->message = dl_fmt("cannot %s %s: %s", what, path, strerror(code));
}

static const char *kind_name(mode_t mode)
{
    return S_ISFIFO(mode)   ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISLNK(mode)  ? "a symbolic link"
                            : "not a plain file";
}

/* A directory gives the read's own "Is a directory"; anything else that is not a regular
 * file is named, and never opened. */
static bool refuse_unless_regular(mode_t mode, const char *path, dl_io_error *err)
{
    if (S_ISREG(mode))
        return false;
    if (S_ISDIR(mode)) {
        set_error(err, EISDIR, "read", path);
        return true;
    }
    if (err) {
        free(err->message);
        err->status = DL_IO_FAILED;
        err->message = dl_fmt("cannot read %s: not a regular file (%s)", path, kind_name(mode));
    }
    return true;
}

static bool is_live(const dl_machine *m)
{
    return !m->root || strcmp(m->root, "/") == 0;
}

bool dl_machine_open(dl_machine *m, const char *root, char **error)
{
    struct stat st;
    char *real;
    memset(m, 0, sizeof *m);
    if (!root || !*root)
        root = "/";
    if (stat(root, &st) != 0) {
        *error = dl_fmt("--root %s: %s", root, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        *error = dl_fmt("--root %s: not a directory", root);
        return false;
    }
    real = realpath(root, NULL);
    m->root = dl_strdup(real ? real : root);
    free(real);
    m->live = strcmp(m->root, "/") == 0;
    return true;
}

void dl_machine_close(dl_machine *m)
{
    free(m->root);
    m->root = NULL;
}

/* ---- walking a path inside the root --------------------------------------------------- */

/* The directories of the walk so far, held open: fd[0] is the root, fd[depth - 1] the
 * current directory, and path its machine path ("" for the root). */
typedef struct walk {
    int fd[MAX_DEPTH];
    size_t path_len[MAX_DEPTH];
    size_t depth;
    dl_buf path;
} walk;

static bool walk_start(walk *w, const char *root, int *code)
{
    memset(w, 0, sizeof *w);
    dl_buf_puts(&w->path, "");
    w->fd[0] = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (w->fd[0] < 0) {
        *code = errno;
        dl_buf_free(&w->path);
        return false;
    }
    w->depth = 1;
    return true;
}

/* Back to depth levels (1: the root itself). */
static void walk_pop(walk *w, size_t depth)
{
    while (w->depth > depth)
        close(w->fd[--w->depth]);
    w->path.len = w->path_len[w->depth - 1];
    w->path.data[w->path.len] = '\0';
}

static void walk_end(walk *w)
{
    walk_pop(w, 1);
    close(w->fd[0]);
    dl_buf_free(&w->path);
}

static int walk_dir(const walk *w)
{
    return w->fd[w->depth - 1];
}

/* Descends into the directory name of the current one. */
static bool walk_push(walk *w, const char *name, int *code)
{
    int fd;
    if (w->depth == MAX_DEPTH) {
        *code = ENAMETOOLONG;
        return false;
    }
    fd = openat(walk_dir(w), name, DIR_WALK_FLAGS);
    if (fd < 0) {
        *code = errno;
        return false;
    }
    w->fd[w->depth] = fd;
    dl_buf_printf(&w->path, "/%s", name);
    w->path_len[w->depth++] = w->path.len;
    return true;
}

/* Follows the link name in the current directory: its target replaces it in what is left
 * of the path (*todo from *pos on). */
static bool walk_link(walk *w, const char *name, char **todo, size_t *pos, int *code)
{
    char target[4096], *rest;
    ssize_t n = readlinkat(walk_dir(w), name, target, sizeof target - 1);
    if (n < 0) {
        *code = errno;
        return false;
    }
    target[n] = '\0';
    if (target[0] == '/')
        walk_pop(w, 1); /* absolute: from the root of the inspected machine */
    rest = dl_fmt("%s/%s", target, *todo + *pos);
    free(*todo);
    *todo = rest;
    *pos = 0;
    return true;
}

/* Walks the directories of path inside the root. On success *leaf is its last component,
 * for the caller to look up in walk_dir(w) ("." when the path ends in a directory, such
 * as "/" itself); a missing last component is the caller's to report, with its own call's
 * error. follow_last: a link in the last component is followed too. */
static bool walk_path(walk *w, const char *path, bool follow_last, char **leaf, int *code)
{
    char *todo = dl_strdup(path);
    size_t pos = 0;
    int links = 0;
    bool ok = true;
    *leaf = NULL;
    while (ok && !*leaf) {
        struct stat st;
        size_t n;
        bool last;
        char *name;
        while (todo[pos] == '/')
            pos++;
        if (!todo[pos]) {
            *leaf = dl_strdup(".");
            break;
        }
        n = strcspn(todo + pos, "/");
        name = dl_strndup(todo + pos, n);
        pos += n;
        last = todo[pos + strspn(todo + pos, "/")] == '\0';
        if (strcmp(name, ".") == 0) {
            /* nothing to do */
        } else if (strcmp(name, "..") == 0) {
            if (w->depth > 1)
                walk_pop(w, w->depth - 1); /* never above the root */
        } else if (fstatat(walk_dir(w), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (last && errno == ENOENT) {
                *leaf = name;
                name = NULL;
            } else {
                *code = errno;
                ok = false;
            }
        } else if (S_ISLNK(st.st_mode) && (!last || follow_last)) {
            if (++links > MAX_LINKS) {
                *code = ELOOP;
                ok = false;
            } else {
                ok = walk_link(w, name, &todo, &pos, code);
            }
        } else if (last) {
            *leaf = name;
            name = NULL;
        } else if (!S_ISDIR(st.st_mode)) {
            *code = ENOTDIR;
            ok = false;
        } else {
            ok = walk_push(w, name, code);
        }
        free(name);
    }
    free(todo);
    return ok;
}

/* Starts a walk and walks path; on failure err says why, with what ("read", "list") and
 * the machine path the caller named. */
/* A Windows path under the root is read as fs_win.c reads one under --root: the drive
 * letter is a directory (upper case: drive letters have one case), either slash a
 * separator (C:\Python311\python.exe is ROOT/C/Python311/python.exe), so a Windows tree
 * can be inspected, and the Windows probes' logic tested, on every system. ".." still
 * stops at the root. NULL for any other path. */
static char *windows_path_in_root(const char *path)
{
    char *p, *mapped;
    if (!((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) ||
        path[1] != ':' || (path[2] != '\\' && path[2] != '/'))
        return NULL;
    mapped = dl_fmt("/%c/%s", toupper((unsigned char)path[0]), path + 3);
    for (p = mapped; *p; p++)
        if (*p == '\\')
            *p = '/';
    return mapped;
}

static bool walk_to(const dl_machine *m, const char *path, bool follow_last, walk *w,
                    char **leaf, const char *what, dl_io_error *err)
{
    int code = 0;
    char *windows = windows_path_in_root(path);
    bool ok = walk_start(w, m->root ? m->root : "/", &code);
    if (ok && !walk_path(w, windows ? windows : path, follow_last, leaf, &code)) {
        walk_end(w);
        ok = false;
    }
    if (!ok)
        set_error(err, code, what, path);
    free(windows);
    return ok;
}

/* ---- the operations -------------------------------------------------------------------- */

/* This machine's regular file path, opened for reading; -1 with err. */
static int open_live(const char *path, dl_io_error *err)
{
    struct stat st;
    int fd;
    if (stat(path, &st) != 0) {
        set_error(err, errno, "read", path);
        return -1;
    }
    if (refuse_unless_regular(st.st_mode, path, err))
        return -1;
    /* O_NONBLOCK: should a FIFO be swapped in after the stat, the open does not wait */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        set_error(err, errno, "read", path);
    return fd;
}

/* The same under the root: the last component opened with O_NOFOLLOW in the directory the
 * walk verified. */
static int open_in_root(const dl_machine *m, const char *path, dl_io_error *err)
{
    struct stat st;
    walk w;
    char *leaf;
    int fd = -1;
    if (!walk_to(m, path, true, &w, &leaf, "read", err))
        return -1;
    if (fstatat(walk_dir(&w), leaf, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        set_error(err, errno, "read", path);
    } else if (!refuse_unless_regular(st.st_mode, path, err)) {
        fd = openat(walk_dir(&w), leaf, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            set_error(err, errno, "read", path);
    }
    free(leaf);
    walk_end(&w);
    return fd;
}

/* A descriptor of the regular file path, for reading; -1 with err. */
static int open_regular(const dl_machine *m, const char *path, dl_io_error *err)
{
    struct stat st;
    int fd = is_live(m) ? open_live(path, err) : open_in_root(m, path, err);
    if (fd < 0)
        return -1;
    /* what was opened is what was checked: nothing was swapped in between */
    if (fstat(fd, &st) != 0) {
        set_error(err, errno, "read", path);
        close(fd);
        return -1;
    }
    if (refuse_unless_regular(st.st_mode, path, err)) {
        close(fd);
        return -1;
    }
    return fd;
}

bool dl_fs_read(const dl_machine *m, const char *path, size_t max, char **data, size_t *len,
                bool *truncated, dl_io_error *err)
{
    int fd = open_regular(m, path, err);
    dl_buf b = {0};
    char chunk[8192];
    bool more = false;
    if (fd < 0)
        return false;
    for (;;) {
        size_t want = sizeof chunk;
        ssize_t n;
        if (b.len >= max) {
            /* One more byte tells "exactly max" from "longer than max". */
            char probe;
            ssize_t extra = read(fd, &probe, 1);
            more = extra > 0;
            break;
        }
        if (want > max - b.len)
            want = max - b.len;
        n = read(fd, chunk, want);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            set_error(err, errno, "read", path);
            close(fd);
            dl_buf_free(&b);
            return false;
        }
        if (n == 0)
            break;
        dl_buf_add(&b, chunk, (size_t)n);
    }
    close(fd);
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
    int fd = open_regular(m, path, err);
    FILE *f;
    if (fd < 0)
        return NULL;
    f = fdopen(fd, "rb");
    if (!f) {
        set_error(err, errno, "read", path);
        close(fd);
    }
    return f;
}

/* stat (following links) of the file path names; false with err. */
static bool stat_of(const dl_machine *m, const char *path, struct stat *st, const char *what,
                    dl_io_error *err)
{
    walk w;
    char *leaf;
    bool ok;
    if (is_live(m)) {
        if (stat(path, st) == 0)
            return true;
        set_error(err, errno, what, path);
        return false;
    }
    if (!walk_to(m, path, true, &w, &leaf, what, err))
        return false;
    ok = fstatat(walk_dir(&w), leaf, st, AT_SYMLINK_NOFOLLOW) == 0;
    if (!ok)
        set_error(err, errno, what, path);
    free(leaf);
    walk_end(&w);
    return ok;
}

dl_fs_kind dl_fs_kind_of(const dl_machine *m, const char *path, dl_io_error *err)
{
    struct stat st;
    if (!stat_of(m, path, &st, "inspect", err))
        return DL_FS_NONE;
    if (S_ISREG(st.st_mode))
        return DL_FS_FILE;
    if (S_ISDIR(st.st_mode))
        return DL_FS_DIR;
    return DL_FS_OTHER;
}

bool dl_fs_can_read_write(const dl_machine *m, const char *path, dl_io_error *err)
{
    walk w;
    char *leaf;
    int rc, code;
    if (is_live(m)) {
        rc = access(path, R_OK | W_OK);
    } else {
        if (!walk_to(m, path, true, &w, &leaf, "open", err))
            return false;
        rc = faccessat(walk_dir(&w), leaf, R_OK | W_OK, 0);
        code = errno;
        free(leaf);
        walk_end(&w);
        errno = code;
    }
    if (rc != 0) {
        set_error(err, errno, "open", path);
        return false;
    }
    return true;
}

char *dl_fs_realpath(const dl_machine *m, const char *path, dl_io_error *err)
{
    struct stat st;
    walk w;
    char *leaf, *out = NULL;
    if (!walk_to(m, path, true, &w, &leaf, "resolve", err))
        return NULL;
    if (strcmp(leaf, ".") == 0) {
        out = dl_strdup(w.path.len ? w.path.data : "/");
    } else if (fstatat(walk_dir(&w), leaf, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        char *missing = dl_fmt("%s/%s", w.path.data, leaf);
        set_error(err, errno, "resolve", missing); /* names the missing piece */
        free(missing);
    } else {
        out = dl_fmt("%s/%s", w.path.data, leaf);
    }
    free(leaf);
    walk_end(&w);
    return out;
}

bool dl_fs_readlink(const dl_machine *m, const char *path, char **target, dl_io_error *err)
{
    char buf[4096], *leaf;
    ssize_t n;
    walk w;
    int code;
    if (is_live(m)) {
        n = readlink(path, buf, sizeof buf - 1);
    } else {
        if (!walk_to(m, path, false, &w, &leaf, "read link", err))
            return false;
        n = readlinkat(walk_dir(&w), leaf, buf, sizeof buf - 1);
        code = errno;
        free(leaf);
        walk_end(&w);
        errno = code;
    }
    if (n < 0) {
        set_error(err, errno, "read link", path);
        return false;
    }
    buf[n] = '\0';
    *target = dl_strdup(buf);
    return true;
}

static DIR *open_dir(const dl_machine *m, const char *dir, dl_io_error *err)
{
    walk w;
    char *leaf;
    int fd, code;
    DIR *d;
    if (is_live(m)) {
        d = opendir(dir);
        if (!d)
            set_error(err, errno, "list", dir);
        return d;
    }
    if (!walk_to(m, dir, true, &w, &leaf, "list", err))
        return NULL;
    fd = openat(walk_dir(&w), leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    code = errno;
    free(leaf);
    walk_end(&w);
    d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        code = fd >= 0 ? errno : code;
        if (fd >= 0)
            close(fd);
        set_error(err, code, "list", dir);
    }
    return d;
}

bool dl_fs_list(const dl_machine *m, const char *dir, char ***names, size_t *count,
                dl_io_error *err)
{
    DIR *d = open_dir(m, dir, err);
    struct dirent *e;
    size_t n = 0, cap = 0;
    char **out = NULL;
    *names = NULL;
    *count = 0;
    if (!d)
        return false;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        dl_names_push(&out, &n, &cap, dl_strdup(e->d_name));
    }
    closedir(d);
    dl_names_sort(out, n);
    *names = out;
    *count = n;
    return true;
}

bool dl_fs_read_at(const dl_machine *m, const char *path, uint64_t offset, void *buf,
                   size_t len, size_t *got, dl_io_error *err)
{
    int fd = open_regular(m, path, err);
    size_t done = 0;
    *got = 0;
    if (fd < 0)
        return false;
    /* An offset off_t cannot hold is past the end of any file this system can open. */
    if ((off_t)offset < 0 || (uint64_t)(off_t)offset != offset)
        len = 0;
    while (done < len) {
        /* at most 1 GiB a call: below SSIZE_MAX everywhere, and the sum stays in off_t */
        size_t want = len - done < ((size_t)1 << 30) ? len - done : (size_t)1 << 30;
        ssize_t n = pread(fd, (char *)buf + done, want, (off_t)offset + (off_t)done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            set_error(err, errno, "read", path);
            close(fd);
            return false;
        }
        if (n == 0)
            break;
        done += (size_t)n;
    }
    close(fd);
    *got = done;
    return true;
}
