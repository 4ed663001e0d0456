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
    DL_EXIT_NOT_BUILT = 6,   /* the command is not built into this binary (lint without its
                                parser: a cross build, or no network at build time) */
    DL_EXIT_NO_ANSWER = 7,   /* fleet report: no node fails, but some did not answer in time
                                or answered with something that is not a report */
    /* setup, restore: each way the transaction stops (docs/setup.md); in every one the
       staging folder is gone and the previous environment is as it was */
    DL_EXIT_DECLINED = 10,          /* not confirmed at the prompt (or no terminal to ask) */
    DL_EXIT_NO_PYTHON = 11,         /* no interpreter of the planned Python version */
    DL_EXIT_TARGET = 12,            /* the target is not an environment, or is inside one */
    DL_EXIT_WITH_CONFLICT = 13,     /* a --with package needs another torch than planned */
    DL_EXIT_INDEX_UNREACHABLE = 14, /* the package index did not answer */
    DL_EXIT_NOT_FOUND = 15,         /* a package or version is not on the index */
    DL_EXIT_HASH_MISMATCH = 16,     /* a wheel's sha256 is not the lock's */
    DL_EXIT_INSTALL_FAILED = 17,    /* the installer failed otherwise (exit code, timeout) */
    DL_EXIT_VERIFY_FAILED = 18,     /* the new environment does not work as planned */
    DL_EXIT_SWAP_FAILED = 19,       /* it could not be moved into place (previous put back) */
    DL_EXIT_BUSY = 20,              /* another setup of this target is running */
    DL_EXIT_DISK_FULL = 21          /* the disk filled while the environment was made */
};

#endif
