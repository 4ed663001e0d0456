/* What every system's file layer shares: a directory's names as a growing, sorted list,
 * and the error and list clean-up of os.h (fs_common.c). */
#ifndef DLENV_OS_FS_NAMES_H
#define DLENV_OS_FS_NAMES_H

#include <stddef.h>

/* Appends owned to *names (n used, cap allocated), growing it as needed. */
void dl_names_push(char ***names, size_t *n, size_t *cap, char *owned);
/* Sorts bytewise, so listings are the same on every system and run. */
void dl_names_sort(char **names, size_t n);

#endif
