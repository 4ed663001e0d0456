/* UTF-8 inside, UTF-16 at every Windows call: the conversions, and Windows error text. */
#ifndef DLENV_OS_WIDE_WIN_H
#define DLENV_OS_WIDE_WIN_H

#include <stdbool.h>
#include <wchar.h>

/* NULL input gives NULL; invalid sequences become U+FFFD. Caller frees. */
wchar_t *dl_wide(const char *utf8);
char *dl_narrow(const wchar_t *wide);
char *dl_narrow_n(const wchar_t *wide, int len);
/* "The system cannot find the file specified. (error 2)", without the trailing newline. */
char *dl_win_error_text(unsigned long code);
/* Machine paths use either slash; Windows paths are built with backslashes. */
void dl_wide_backslashes(wchar_t *path);
/* "NAME=value\0...\0\0" in UTF-16 for CREATE_UNICODE_ENVIRONMENT from a NULL-ended list,
 * sorted by name as CreateProcessW's documentation asks. Caller frees. */
wchar_t *dl_win_environment_block(const char *const *env);

#endif
