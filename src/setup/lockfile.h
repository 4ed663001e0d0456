/* dlenv.lock: what `dlenv setup` installed, exactly, as a pip requirements file that
 * `dlenv restore` (or plain `pip install -r`) installs again: the index lines, then one
 * name==version per package with the sha256 of the file installed (pip checks hashes all
 * or none: a lock lacking one has none, and says which). A header of # lines says what it
 * was made for (Python, torch, variant, tool). The packages come from pip's installation
 * report (`pip install --report`), which names every file it installed, its version and
 * its sha256 (the index's, or pip's own of the file); with uv, from `pip inspect` and the
 * sha256 of the files downloaded first. Pure: no I/O. */
#ifndef DLENV_SETUP_LOCKFILE_H
#define DLENV_SETUP_LOCKFILE_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>

#define DL_LOCK_SCHEMA "dlenv.lock/1"

typedef struct dl_locked_package {
    char *name, *version;
    char *sha256;       /* NULL: the index published none */
    char *url;          /* where pip took it from; NULL unknown */
} dl_locked_package;

typedef struct dl_lock {
    char *python;       /* "3.11" */
    char *torch;        /* "2.9.1+cpu" */
    char *variant;      /* "cpu", "cu126" */
    char *tool;         /* venv, uv */
    char *index_url, *extra_index_url; /* NULL: none */
    dl_locked_package *packages;
    size_t n;
    bool all_hashed;    /* every package has its sha256 */
} dl_lock;

/* The packages of pip's --report JSON (text) into lock (the rest of it is the caller's);
 * or of `pip inspect`'s (an environment uv installed into: versions, no hashes), without
 * the venv's own pip, setuptools and wheel. False with *error when the text is neither. */
bool dl_lock_from_pip_report(const char *text, size_t len, dl_lock *lock, char **error);
/* The version pip's report (or a lock) gives name; NULL when it has none. */
const char *dl_lock_version_of(const dl_lock *lock, const char *name);
/* The sha256 of the files themselves, for the packages the report gave none (uv's
 * environments, an old pip): lines "NAME<TAB>VERSION<TAB>SHA256", one a file, as setup's
 * hashing of the downloaded files prints them (NAME as the file spells it). How many
 * packages got one. */
size_t dl_lock_fill_hashes(dl_lock *lock, const char *lines);
/* Drops the packages without a sha256: where every file installed was hashed (uv's, from
 * the files downloaded first), those are what the environment was made with (uv venv
 * --seed: pip, setuptools, wheel, packaging), not what was installed. */
void dl_lock_keep_hashed(dl_lock *lock);

char *dl_lock_write(const dl_lock *lock, const char *made_at, const char *host);
/* Reads a lock written by dl_lock_write: its header and packages. False with *error (one
 * line, with the line number) when it is not one. */
bool dl_lock_read(const char *text, size_t len, dl_lock *lock, char **error);
void dl_lock_free(dl_lock *lock);

#endif
