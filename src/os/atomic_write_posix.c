/* Writing a file whole or not at all (POSIX): a temporary file beside the target, written,
 * flushed to disk, then renamed over it. rename() within one directory is atomic, so a
 * reader sees the old file or the new one, never half of one, and a crash or a full disk
 * leaves no partial file under the target's name. */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

bool dl_file_write_atomic(const char *path, const char *data, size_t len, char **error)
{
    char *tmp = dl_fmt("%s.tmp-XXXXXX", path);
    const char *what = "create";
    int fd = mkstemp(tmp), saved;
    if (fd < 0)
        goto failed;
    what = "write";
    if (fchmod(fd, default_mode()) != 0 || !write_all(fd, data, len) || fsync(fd) != 0)
        goto failed;
    what = "close";
    if (close(fd) != 0) {
        fd = -1;
        goto failed;
    }
    fd = -1;
    what = "rename";
    if (rename(tmp, path) != 0)
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
