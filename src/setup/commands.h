/* The commands `dlenv setup` runs, as argument vectors (no shell): making the environment
 * (python -m venv, uv venv), installing into it with its own installer (pip of the
 * environment's interpreter, or uv pip --python), the dry-run resolution of the --with
 * packages, and what an installer's failure says. Pure: the Windows forms are tested on
 * Linux, and the same vectors are printed, quoted, before anything runs. */
#ifndef DLENV_SETUP_COMMANDS_H
#define DLENV_SETUP_COMMANDS_H

#include "base/shell.h"
#include "base/str.h"

typedef enum dl_setup_tool { DL_TOOL_VENV, DL_TOOL_UV, DL_TOOL_CONDA } dl_setup_tool;

/* The environment at dir made from the base interpreter (venv) or for a Python version
 * (uv: base is "3.12" or a path; conda: "3.12", `conda create --prefix DIR python=3.12 pip`,
 * pip being the installer used in it, as PyTorch publishes no conda packages any more).
 * program: uv's or conda's path. */
void dl_setup_venv_argv(dl_setup_tool tool, const char *program, const char *base,
                        const char *dir, dl_strv *argv);

/* conda's swap: a prefix renamed with `conda rename` (which rewrites the paths conda wrote
 * into it; a plain folder rename would leave them pointing at the old place), and an old
 * one removed with `conda env remove`. */
void dl_setup_conda_rename_argv(const char *conda, const char *from, const char *to,
                                dl_strv *argv);
void dl_setup_conda_remove_argv(const char *conda, const char *prefix, dl_strv *argv);

/* The Python launcher (`py`, Windows' python.org installs put only it on PATH) asked for
 * the interpreter of a version: py -X.Y -c <print sys.executable>. Asked when pythonX.Y is
 * not on PATH; its answer is then the interpreter the environment is made from. */
void dl_setup_py_launcher_argv(const char *py, const char *version, dl_strv *argv);

/* uv's Pythons: `uv python find --system X.Y` (the interpreter it would use, never a
 * virtual environment's, never downloading) and `uv python install X.Y` (fetched from
 * python-build-standalone's releases, or UV_PYTHON_INSTALL_MIRROR). */
void dl_setup_uv_find_python_argv(const char *uv, const char *version, dl_strv *argv);
void dl_setup_uv_install_python_argv(const char *uv, const char *version, dl_strv *argv);

/* What to run to get Python X.Y on os ("windows", "macos", else Linux): one sentence with
 * the commands, and uv's way: uv_options lets the uv here fetch it ("--allow-python-download"),
 * NULL when there is no uv. */
char *dl_setup_python_install_hint(const char *os, const char *version, const char *uv_options);

typedef struct dl_setup_install {
    dl_setup_tool tool;
    const char *uv;               /* uv's path (tool uv) */
    const char *python;           /* the environment's interpreter */
    const char *index_url;        /* NULL: the installer's default */
    const char *extra_index_url;  /* NULL: none */
    const char *find_links;       /* a wheelhouse: --no-index --find-links DIR, no index URL */
    const dl_strv *packages;      /* torch==2.9.1 torchvision==0.24.1 d2l==1.0.3 */
    const char *requirements;     /* -r FILE (restore: the lock); NULL none */
    bool require_hashes, no_deps;
    bool dry_run;                 /* resolve only: --dry-run --ignore-installed */
    const char *report;           /* pip's --report FILE (- for stdout); NULL none */
} dl_setup_install;

void dl_setup_install_argv(const dl_setup_install *in, dl_strv *argv);

/* The same packages (or -r requirements) fetched, not installed, into dest by the
 * environment's pip (`pip download`, whatever in->tool): the files are then hashed for the
 * lock and installed from dest alone. Only in->python, the index, requirements,
 * require_hashes and no_deps are read. */
void dl_setup_download_argv(const dl_setup_install *in, const char *dest, dl_strv *argv);

/* The vector as one line for the shell (each argument quoted when it needs it). */
char *dl_setup_argv_line(dl_shell sh, const dl_strv *argv);

/* What an installer's failed run says, from its error output. */
typedef enum dl_install_failure {
    DL_INSTALL_FAILED,        /* anything else: its exit code and last lines */
    DL_INSTALL_UNREACHABLE,   /* the index did not answer */
    DL_INSTALL_NOT_FOUND,     /* no such package or version on the index */
    DL_INSTALL_HASH_MISMATCH, /* a downloaded file's sha256 is not the lock's */
    DL_INSTALL_CONFLICT,      /* the requirements cannot be satisfied together */
    DL_INSTALL_DISK_FULL      /* no space left on the device it wrote to */
} dl_install_failure;

dl_install_failure dl_setup_install_failure(const char *err);
const char *dl_install_failure_text(dl_install_failure f);

#endif
