/* The Windows command line: how one argument is quoted so that CommandLineToArgvW and the
 * C runtime (what Python, and every program built with MSVC or MinGW, uses) read back
 * exactly the bytes that were meant. Pure and portable, so the rules are unit-tested on
 * every system; CreateProcessW (proc_win.c, exec_win.c) and the .bat launchers use them. */
#ifndef DLENV_OS_CMDLINE_H
#define DLENV_OS_CMDLINE_H

#include "base/str.h"

/* Appends arg, quoted only when it needs to be (empty, or holds a space, tab, line break
 * or double quote). always_quote: quoted even when it does not need it. */
void dl_cmdline_quote(dl_buf *b, const char *arg, bool always_quote);
/* argv[0] as program, then argv[1..] quoted, separated by spaces. Caller frees. */
char *dl_cmdline_build(const char *program, const char *const *argv);

#endif
