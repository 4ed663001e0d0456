/* Writing a file whole or not at all (POSIX): a temporary file beside the target, written,
 * flushed to disk, then renamed over it. rename() within one directory is atomic, so a
 * reader sees the old file or the new one, never half of one, and a crash or a full disk
 * leaves no partial file under the target's name.
 *
 * Only a regular file is replaced that way. A device, a FIFO or a terminal (`-o /dev/null`,
 * a link to /proc/self/fd/1) is written to as it is: renaming over it would put a plain
 * file in place of /dev/null. A symbolic link is followed and its target replaced (the
 * temporary file goes beside the target), so the link stays a link; the replaced file keeps
 * its mode and, as far as this user may set it, its owner and group. */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* More links than this in a chain is a loop, as the kernel's own limit (40) says. */
#define MAX_LINK_HOPS 40

static bool write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* mkstemp creates the file 0600; a file the user asked for gets the usual 0666 & ~umask.
 * umask can only be read by setting it, so it is set back at once. */
static mode_t default_mode(void)
{
    mode_t mask = umask(077);
    umask(mask);
    return 0666 & ~mask;
}

/* The directory part of path, with its trailing slash ("" for a bare name). */
static char *dir_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? dl_strndup(path, (size_t)(slash - path) + 1) : dl_strdup("");
}

/* The file a chain of symbolic links ends at, which need not exist yet (a link to a file
 * still to be written). NULL with errno ELOOP for a loop. */
static char *link_target(const char *path)
{
    char *cur = dl_strdup(path);
    int hops;
    for (hops = 0; hops < MAX_LINK_HOPS; hops++) {
        char buf[PATH_MAX], *next, *dir;
        struct stat st;
        ssize_t n;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0)
            return cur;
        buf[n] = '\0';
        dir = dir_part(cur);
        next = buf[0] == '/' ? dl_strdup(buf) : dl_fmt("%s%s", dir, buf);
        free(dir);
        free(cur);
        cur = next;
    }
    free(cur);
    errno = ELOOP;
    return NULL;
}

/* A device, FIFO or terminal gets the bytes as they are: there is nothing to replace. */
static bool write_in_place(const char *path, const char *data, size_t len, char **error)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), saved;
    if (fd >= 0 && write_all(fd, data, len) && close(fd) == 0)
        return true;
    saved = errno;
    if (fd >= 0)
        close(fd);
    *error = dl_fmt("cannot write %s: %s", path, strerror(saved));
    return false;
}

/* The new file takes the old one's owner, group and mode. chown first: it clears the
 * set-user-id bits the mode may then set again. Another user's file stays with us when we
 * may not give it away (not root); the mode is still kept. */
static bool take_attributes(int fd, const struct stat *old)
{
    if (!old)
        return fchmod(fd, default_mode()) == 0;
    if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
        fchown(fd, old->st_uid, old->st_gid) != 0 && errno != EPERM)
        return false;
    return fchmod(fd, old->st_mode & 07777) == 0;
}

/* The temporary file beside target, renamed over it; error names path, the user's word. */
static bool replace(const char *path, const char *target, const struct stat *old,
                    const char *data, size_t len, char **error)
{
    char *tmp = dl_fmt("%s.tmp-XXXXXX", target);
    const char *what = "create";
    int fd = mkstemp(tmp), saved;
    if (fd < 0)
        goto failed;
    what = "write";
    if (!take_attributes(fd, old) || !write_all(fd, data, len) || fsync(fd) != 0)
        goto failed;
    what = "close";
    if (close(fd) != 0) {
        fd = -1;
        goto failed;
    }
    fd = -1;
    what = "rename";
    if (rename(tmp, target) != 0)
        goto failed;
    free(tmp);
    return true;
failed:
    saved = errno;
    /* The user named the target, not the temporary file: the message names it. */
    *error = dl_fmt("cannot %s %s: %s", !strcmp(what, "rename") ? "replace" : "write", path,
                    strerror(saved));
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    } else if (strcmp(what, "create") != 0) {
        unlink(tmp);
    }
    free(tmp);
    return false;
}

bool dl_file_write_atomic(const char *path, const char *data, size_t len, char **error)
{
    struct stat st;
    char *target;
    bool exists = stat(path, &st) == 0, ok;
    if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return write_in_place(path, data, len, error);
    /* realpath only resolves what exists; a link to a file not yet written is followed
     * by hand. */
    target = exists ? realpath(path, NULL) : link_target(path);
    if (!target) {
        *error = dl_fmt("cannot write %s: %s", path, strerror(errno));
        return false;
    }
    ok = replace(path, target, exists && S_ISREG(st.st_mode) ? &st : NULL, data, len, error);
    free(target);
    return ok;
}
