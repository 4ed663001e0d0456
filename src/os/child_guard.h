/* Nothing a child process starts outlives dlenv (POSIX; proc_posix.c's helper). The
 * child's process group is not enough: a grandchild that calls setsid() leaves it, and a
 * Ctrl-C or SIGTERM sent to dlenv alone reaches no child at all (it has its own group).
 * So while a child runs, dlenv
 *   - is the reaper of its orphans (Linux: PR_SET_CHILD_SUBREAPER), so a grandchild whose
 *     parent died becomes dlenv's child instead of init's, where dlenv can find it;
 *   - catches SIGINT, SIGTERM, SIGHUP and SIGQUIT (unless they were ignored): the child's
 *     group is killed at once, and once the child and its orphans are gone the signal is
 *     raised again with its old disposition, so dlenv still ends as the sender meant. */
#ifndef DLENV_OS_CHILD_GUARD_H
#define DLENV_OS_CHILD_GUARD_H

#include <sys/types.h>

/* Before fork. */
void dl_child_guard_begin(void);
/* After fork: the child's process group, which a caught signal kills. */
void dl_child_guard_watch(pid_t group);
/* The signal caught since begin, 0 for none: the caller stops waiting for output. */
int dl_child_guard_caught(void);
/* After the child was reaped: every process left that dlenv adopted is killed and reaped,
 * the reaper role and the signal dispositions are given back, and a caught signal is
 * raised again. */
void dl_child_guard_end(void);

#endif
