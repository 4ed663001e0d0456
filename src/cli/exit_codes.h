/* The exit codes of every command: scripts and CI depend on them, so they never change. */
#ifndef DLENV_CLI_EXIT_CODES_H
#define DLENV_CLI_EXIT_CODES_H

enum {
    DL_EXIT_OK = 0,        /* done; no failure found */
    DL_EXIT_FINDINGS = 1,  /* a failure was found (doctor, diff: different) */
    DL_EXIT_USAGE = 2,     /* unknown command or option, missing or bad option value */
    DL_EXIT_TOOL = 3,      /* dlenv itself failed (cannot write output, internal error) */
    DL_EXIT_BAD_INPUT = 4, /* the input is unusable: --root missing or not a directory, a
                              malformed file given to read */
    DL_EXIT_CANNOT_JUDGE = 5, /* doctor, verify: no failure found, but a layer could not be
                                judged (its facts are unknown), so "works" cannot be said */
    DL_EXIT_NOT_BUILT = 6    /* the command is not built into this binary (lint without its
                                parser: a cross build, or no network at build time) */
};

#endif
