/* Files under a root prefix (POSIX). */
#include "os/os.h"

#include "base/str.h"
#include "os/fs_names.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_error(dl_io_error *e, int code, const char *what, const char *path)
{
    if (!e)
        return;
    free(e->message);
    e->status = (code == ENOENT || code == ENOTDIR) ? DL_IO_NOT_FOUND
                : (code == EACCES || code == EPERM) ? DL_IO_NO_PERMISSION
                                                    : DL_IO_FAILED;
    e->message = dl_fmt("cannot %s %s: %s", what, path, strerror(code));
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

/* Resolves path inside the root the way the inspected system would: an absolute symbolic
 * link (/etc/alternatives/..., a container image's /lib -> /usr/lib) restarts at the root
 * instead of escaping to this machine, and ".." stops at the root. Returns the machine
 * path ("/usr/lib/os-release"), or NULL with err set when strict and a component is
 * missing, or when links loop. follow_last says whether a link in the last component is
 * followed. */
static char *resolve_in_root(const char *root, const char *path, bool follow_last,
                             bool strict, dl_io_error *err)
{
    dl_buf done = {0};
    char *todo = dl_strdup(path);
    int links = 0;
    size_t pos = 0;
    dl_buf_puts(&done, "");
    for (;;) {
        char *host, target[4096];
        size_t n;
        ssize_t tl = -1;
        struct stat st;
        int rc;
        while (todo[pos] == '/')
            pos++;
        if (!todo[pos])
            break;
        n = strcspn(todo + pos, "/");
        if (n == 1 && todo[pos] == '.') {
            pos += n;
            continue;
        }
        if (n == 2 && strncmp(todo + pos, "..", 2) == 0) {
            char *slash = strrchr(done.data, '/');
            done.len = slash ? (size_t)(slash - done.data) : 0;
            done.data[done.len] = '\0';
            pos += n;
            continue;
        }
        dl_buf_printf(&done, "/%.*s", (int)n, todo + pos);
        pos += n;
        host = dl_fmt("%s%s", strcmp(root, "/") == 0 ? "" : root, done.data);
        rc = lstat(host, &st);
        if (rc != 0 && strict) {
            set_error(err, errno, "resolve", done.data); /* names the missing piece */
            free(host);
            free(todo);
            dl_buf_free(&done);
            return NULL;
        }
        if (rc == 0 && S_ISLNK(st.st_mode) && (todo[pos] || follow_last))
            tl = readlink(host, target, sizeof target - 1);
        free(host);
        if (tl < 0)
            continue;
        if (++links > 40) {
            set_error(err, ELOOP, "resolve", path);
            free(todo);
            dl_buf_free(&done);
            return NULL;
        }
        target[tl] = '\0';
        if (target[0] == '/') {
            done.len = 0;
        } else {
            char *slash = strrchr(done.data, '/');
            done.len = (size_t)(slash - done.data);
        }
        done.data[done.len] = '\0';
        {
            char *rest = dl_fmt("%s/%s", target, todo + pos);
            free(todo);
            todo = rest;
            pos = 0;
        }
    }
    free(todo);
    if (!done.len)
        dl_buf_puts(&done, "/");
    return dl_buf_take(&done);
}

char *dl_fs_realpath(const dl_machine *m, const char *path, dl_io_error *err)
{
    return resolve_in_root(m->root ? m->root : "/", path, true, true, err);
}

static char *host_path(const dl_machine *m, const char *path, bool follow_last)
{
    char *inside, *host;
    if (!m->root || strcmp(m->root, "/") == 0)
        return dl_strdup(path);
    /* not strict: a missing file is reported by the read that follows, with its errno */
    inside = resolve_in_root(m->root, path, follow_last, false, NULL);
    host = inside ? dl_fmt("%s%s", m->root, inside) : dl_fmt("%s%s", m->root, path);
    free(inside);
    return host;
}

char *dl_machine_path(const dl_machine *m, const char *path)
{
    return host_path(m, path, true);
}

bool dl_fs_read(const dl_machine *m, const char *path, size_t max, char **data, size_t *len,
                bool *truncated, dl_io_error *err)
{
    char *host = dl_machine_path(m, path);
    int fd = open(host, O_RDONLY | O_CLOEXEC);
    dl_buf b = {0};
    char chunk[8192];
    bool more = false;
    free(host);
    if (fd < 0) {
        set_error(err, errno, "read", path);
        return false;
    }
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
    *data = dl_buf_take(&b);
    return true;
}

dl_fs_kind dl_fs_kind_of(const dl_machine *m, const char *path, dl_io_error *err)
{
    char *host = dl_machine_path(m, path);
    struct stat st;
    int rc = stat(host, &st);
    free(host);
    if (rc != 0) {
        set_error(err, errno, "inspect", path);
        return DL_FS_NONE;
    }
    if (S_ISREG(st.st_mode))
        return DL_FS_FILE;
    if (S_ISDIR(st.st_mode))
        return DL_FS_DIR;
    return DL_FS_OTHER;
}

bool dl_fs_can_read_write(const dl_machine *m, const char *path, dl_io_error *err)
{
    char *host = dl_machine_path(m, path);
    int rc = access(host, R_OK | W_OK);
    int code = errno;
    free(host);
    if (rc != 0) {
        set_error(err, code, "open", path);
        return false;
    }
    return true;
}

bool dl_fs_readlink(const dl_machine *m, const char *path, char **target, dl_io_error *err)
{
    char *host = host_path(m, path, false);
    char buf[4096];
    ssize_t n = readlink(host, buf, sizeof buf - 1);
    free(host);
    if (n < 0) {
        set_error(err, errno, "read link", path);
        return false;
    }
    buf[n] = '\0';
    *target = dl_strdup(buf);
    return true;
}

bool dl_fs_list(const dl_machine *m, const char *dir, char ***names, size_t *count,
                dl_io_error *err)
{
    char *host = dl_machine_path(m, dir);
    DIR *d = opendir(host);
    struct dirent *e;
    size_t n = 0, cap = 0;
    char **out = NULL;
    free(host);
    *names = NULL;
    *count = 0;
    if (!d) {
        set_error(err, errno, "list", dir);
        return false;
    }
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
    char *host = dl_machine_path(m, path);
    int fd = open(host, O_RDONLY | O_CLOEXEC);
    size_t done = 0;
    free(host);
    *got = 0;
    if (fd < 0) {
        set_error(err, errno, "read", path);
        return false;
    }
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
