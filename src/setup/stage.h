/* The folder moves of `dlenv setup`'s transaction, on this machine's files: whether a
 * folder is an environment, stale staging folders left by a setup that was killed, the
 * scripts' paths moved from the staging name to the target's, and the swap (target ->
 * previous, staging -> target, the previous put back when the second step fails) and its
 * reverse, --rollback. Every step says what it did or why it could not. */
#ifndef DLENV_SETUP_STAGE_H
#define DLENV_SETUP_STAGE_H

#include "base/str.h"
#include "setup/layout.h"

#include <stdbool.h>
#include <stddef.h>

/* A venv (pyvenv.cfg) or a conda environment (conda-meta/). */
bool dl_setup_is_environment(const char *dir);
/* The environment an ancestor folder of path is (the target would be inside it), or NULL. */
char *dl_setup_enclosing_environment(const char *path, bool windows);

/* The staging folders of earlier setups of this target: those whose process is gone go to
 * stale (their paths), one whose process still runs sets *running_pid (0: none). */
bool dl_setup_find_staging(const dl_setup_layout *l, dl_strv *stale, long *running_pid,
                           char **error);

/* The staging folder's own path written in its scripts (bin/ or Scripts\, pyvenv.cfg)
 * replaced by the target's, so activate and pip's launchers work once it is renamed. */
bool dl_setup_relocate(const dl_setup_layout *l, char **error);

/* data (len bytes) with every `from` replaced by `to` (*out_len bytes); NULL when it holds
 * none. */
char *dl_setup_replace_all(const char *data, size_t len, const char *from, const char *to,
                           size_t *out_len);

/* target (when there) -> previous (an older previous removed first), staging -> target;
 * when that fails, previous -> target again. *kept: a previous environment was kept. */
bool dl_setup_swap(const dl_setup_layout *l, bool *kept, char **error);
/* previous <-> target: the environment the last setup replaced back in place (the one it
 * made becomes the previous, so a second rollback undoes the first). */
bool dl_setup_rollback(const dl_setup_layout *l, char **error);

#endif
