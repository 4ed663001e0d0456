/* The platform seam. Everything that touches the operating system goes through these
 * functions: *_posix.c implement them on POSIX systems, *_win.c on Windows (CMake picks by
 * suffix); files without a suffix are portable. Probes call only this API, which is what
 * lets tests redirect a whole machine with --root and a Windows registry with a fixture
 * (dl_machine.registry, os/registry.h). */
#ifndef DLENV_OS_OS_H
#define DLENV_OS_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- the machine being inspected ------------------------------------------------------ */

/* root is the prefix every absolute path is read under ("/" for this machine). live is
 * true when the inspected machine is the one we run on, so values that cannot come from
 * files (cpuid, uname, the C library we are linked against) may be asked for. */
typedef struct dl_registry dl_registry;   /* os/registry.h */

typedef struct dl_machine {
    char *root;
    bool live;
    /* Its Windows registry: NULL is this machine's own (none outside Windows); the tests
     * set a fixture (dl_registry_parse). Not owned. */
    const dl_registry *registry;
} dl_machine;

/* How a read went, in the categories a probe reports. */
typedef enum dl_io_status {
    DL_IO_OK = 0,
    DL_IO_NOT_FOUND,
    DL_IO_NO_PERMISSION,
    DL_IO_FAILED
} dl_io_status;

typedef struct dl_io_error {
    dl_io_status status;
    char *message;          /* "cannot read /etc/os-release: No such file or directory" */
} dl_io_error;

void dl_io_error_clear(dl_io_error *e);

/* Checks that root exists and is a directory; on failure returns false and a message. */
bool dl_machine_open(dl_machine *m, const char *root, char **error);
void dl_machine_close(dl_machine *m);
/* How a machine path is read (fs_posix.c / fs_win.c): under a root every component is
 * resolved inside it, as the inspected system (or a chroot) would: an absolute link
 * restarts at the root, ".." stops there, a link loop is an error; nothing is ever
 * reached outside the root. Only regular files are opened for reading: a FIFO, socket or
 * device gives "not a regular file" without being opened. */

/* Reads at most max bytes of a file; *truncated says whether there was more. The text is
 * NUL-terminated (binary files may hold NULs before len). */
bool dl_fs_read(const dl_machine *m, const char *path, size_t max, char **data, size_t *len,
                bool *truncated, dl_io_error *err);
/* Reads up to len bytes at offset of a file into buf; *got is how many (fewer at the end
 * of the file). For big files read piecewise (a PE image's headers and import tables). */
bool dl_fs_read_at(const dl_machine *m, const char *path, uint64_t offset, void *buf,
                   size_t len, size_t *got, dl_io_error *err);
/* The regular file path opened for reading as a stream (binary), resolved as dl_fs_read
 * does; NULL with err. */
FILE *dl_fs_open_read(const dl_machine *m, const char *path, dl_io_error *err);
/* Line-by-line reading for large files (pci.ids) without loading them whole. */
typedef struct dl_lines dl_lines;
dl_lines *dl_lines_open(const dl_machine *m, const char *path, dl_io_error *err);
/* The next line without its newline, NULL at the end. A line longer than
 * DL_LINES_MAX bytes is cut there (the rest of it skipped), so one endless line cannot
 * take the memory. */
#define DL_LINES_MAX (64u * 1024u)
const char *dl_lines_next(dl_lines *l, size_t *len);
void dl_lines_close(dl_lines *l);

typedef enum dl_fs_kind { DL_FS_NONE, DL_FS_FILE, DL_FS_DIR, DL_FS_OTHER } dl_fs_kind;
/* Follows symbolic links. */
dl_fs_kind dl_fs_kind_of(const dl_machine *m, const char *path, dl_io_error *err);
/* Whether this user may open the file for reading and writing (permissions only: the file
 * is not opened, since opening a device node can wake its driver). */
bool dl_fs_can_read_write(const dl_machine *m, const char *path, dl_io_error *err);
/* The machine path of a file with every symbolic link resolved inside the root (absolute
 * links restart at the root); NULL with err when a component is missing or links loop. */
char *dl_fs_realpath(const dl_machine *m, const char *path, dl_io_error *err);
/* The target text of a symbolic link, unresolved. */
bool dl_fs_readlink(const dl_machine *m, const char *path, char **target, dl_io_error *err);
/* Names in a directory, without "." and "..", sorted bytewise so output is stable. */
bool dl_fs_list(const dl_machine *m, const char *dir, char ***names, size_t *count,
                dl_io_error *err);
void dl_fs_list_free(char **names, size_t count);

/* ---- this process ----------------------------------------------------------------------- */

const char *dl_env_get(const char *name);     /* NULL when unset */
double dl_clock_ms(void);                     /* monotonic milliseconds */
bool dl_term_is_tty(int fd);                  /* fd 1 or 2 */
bool dl_term_utf8(void);                      /* can the terminal show UTF-8 text */
char dl_path_list_separator(void);            /* ':' or ';' */
/* The first call in main. Windows: every DLL loaded by name from now on comes from
 * System32 only (SetDefaultDllDirectories), never from the program's folder, the current
 * directory or PATH. Elsewhere nothing. */
void dl_process_harden(void);
/* The command line as UTF-8 (Windows hands it over in UTF-16; elsewhere argv as is), with
 * the console switched to show UTF-8 where that is possible. Lives until the process ends. */
char **dl_process_args(int argc, char **argv);
/* fopen for a UTF-8 path. */
FILE *dl_fopen(const char *path, const char *mode);
/* Writes data to path whole or not at all: a new temporary file in the same directory,
 * flushed, then renamed over path (MoveFileExW with REPLACE_EXISTING on Windows). On
 * failure the temporary file is removed and *error says why, naming path.
 * (atomic_write_posix.c / atomic_write_win.c) */
bool dl_file_write_atomic(const char *path, const char *data, size_t len, char **error);

/* ---- facts only the live machine can give ------------------------------------------------- */

typedef struct dl_uname {
    char *sysname, *release, *version, *machine, *nodename;
} dl_uname;
bool dl_os_uname(dl_uname *u, char **error);
void dl_uname_free(dl_uname *u);
/* Whether dlenv runs as root (POSIX) or elevated (Windows). */
bool dl_os_is_admin(void);
/* Who runs dlenv, for --redact: every name this account goes by (the environment's, the
 * account database's; on Windows the profile folder's too) appended to users, and every
 * home directory to homes, each once. (identity_posix.c / identity_win.c) */
struct dl_strv; /* base/str.h */
void dl_os_identity(struct dl_strv *users, struct dl_strv *homes);
/* The C library this binary runs on: name ("glibc") and version, or false with why. */
bool dl_os_libc(char **name, char **version, char **error);

/* cpuid; false when the instruction does not exist on this architecture/compiler. */
bool dl_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
/* A hypervisor's cpuid leaf (0x40000000..0x400000ff); false when the CPU does not say it
 * runs under one (leaf 1, ECX bit 31) or has no cpuid. */
bool dl_cpuid_hypervisor_leaf(uint32_t leaf, uint32_t regs[4]);
/* XGETBV(0): which register states the OS saves; false when unavailable. */
bool dl_xgetbv0(uint64_t *xcr0);

/* ---- child processes ------------------------------------------------------------------------ */

typedef struct dl_proc_result {
    bool started;          /* false: could not start (see error) */
    bool timed_out;        /* killed at the deadline */
    int exit_code;         /* valid when exited */
    bool exited;
    int term_signal;       /* nonzero when killed by a signal */
    char *out, *err;       /* captured output, NUL-terminated */
    size_t out_len, err_len;
    bool out_truncated, err_truncated;
    char *error;           /* why it could not start or be waited for */
    double duration_ms;
} dl_proc_result;

typedef struct dl_proc_opts {
    int timeout_ms;        /* hard limit; the child and its process group are killed */
    size_t max_output;     /* per stream; the rest is read and dropped */
    const char *const *env;/* NULL: inherit */
    const char *cwd;       /* NULL: inherit */
    bool echo;             /* also copy both streams to dlenv's stderr as they come (an
                              installer's progress), besides capturing them */
} dl_proc_opts;

/* Runs argv[0] (looked up on PATH when it has no slash) directly, never through a shell. */
void dl_proc_run(const char *const *argv, const dl_proc_opts *opts, dl_proc_result *r);
void dl_proc_result_free(dl_proc_result *r);

/* ---- a command in place of dlenv (`dlenv run`: exec_posix.c / exec_win.c) ---------------- */

/* This process's environment, one "NAME=value" (UTF-8) per entry, in its own order. */
struct dl_strv; /* base/str.h */
void dl_env_snapshot(struct dl_strv *env);
/* The program name is looked up on path_list (a PATH value, NULL: none) as dl_proc_run
 * would: a name with a directory part is taken as it is; Windows tries .exe and .com too.
 * NULL when there is no such program. Caller frees. */
char *dl_proc_find(const char *name, const char *path_list);
/* Runs program with argv and exactly env (NULL-terminated), no shell. POSIX: execve, so
 * the command replaces dlenv (same process id, its signals and exit status are the
 * caller's to see) and this returns only on failure. Windows: a child in this console
 * (in a job that dies with dlenv while it runs); dlenv ignores Ctrl+C and Ctrl+Break,
 * which the child, in the same console, gets and handles; *exit_code is the child's.
 * A text file without "#!" runs with /bin/sh, as POSIX shells run it. False with *error
 * when it could not be started, and *exit_code what a shell would give: 127 not found,
 * 126 found but not runnable. */
bool dl_proc_exec(const char *program, const char *const *argv, const char *const *env,
                  int *exit_code, char **error);
/* chmod a+x as the umask allows (a launcher script); true where there is no such bit. */
bool dl_file_make_executable(const char *path, char **error);
/* path made absolute against the current directory (not resolved: links stay), or a copy
 * when it already is. Caller frees. (dir_posix.c / dir_win.c) */
char *dl_path_absolute(const char *path);
/* Creates the directory dir (one level); true when it exists already. */
bool dl_dir_make(const char *dir, char **error);
/* What is at path on this machine (not under --root; a link is not followed, so a link
 * is DL_FS_OTHER). (tree_posix.c / tree_win.c) */
dl_fs_kind dl_path_kind(const char *path);
/* Renames from to to, in one step, refusing when to exists. */
bool dl_path_rename(const char *from, const char *to, char **error);
/* Renames the file from to to in one step, replacing the file to when there is one (a
 * reader sees the old file or the new, never none): for a file written whole under a name
 * its reader skips, then moved in. */
bool dl_file_move_over(const char *from, const char *to, char **error);
/* Removes path and everything under it; links are removed, never followed. True when
 * nothing is left (also when there was nothing). */
bool dl_tree_remove(const char *path, char **error);
/* The names in dir (no "." or ".."), sorted bytewise; free with dl_fs_list_free. */
bool dl_dir_list(const char *dir, char ***names, size_t *count, char **error);
/* This process's id, and whether a process with this id runs now. */
long dl_process_id(void);
bool dl_process_alive(long pid);
/* The file name of the program that started this process ("cmd.exe", "pwsh.exe"): on
 * Windows, from the process list; NULL when it is gone or cannot be told, and elsewhere
 * (where the shell is told by $SHELL, not asked for). Caller frees. */
char *dl_parent_process_name(void);

/* ---- display adapters (dxgi_win.c; none elsewhere) ------------------------------------------ */

typedef struct dl_dxgi_adapter {
    unsigned vendor_id, device_id;
    unsigned long luid_high, luid_low;   /* as CUDA reports an adapter's LUID */
    unsigned long long dedicated_memory; /* bytes */
} dl_dxgi_adapter;
/* Every adapter DXGI lists (software renderers too), in its order; false when DXGI cannot
 * be asked (not Windows, no dxgi.dll). *out is freed by the caller. */
bool dl_dxgi_adapters(dl_dxgi_adapter **out, size_t *count);

/* ---- dynamic libraries ---------------------------------------------------------------------- */

typedef struct dl_lib dl_lib;
dl_lib *dl_lib_open(const char *name, char **error);
void *dl_lib_sym(dl_lib *lib, const char *symbol);
/* The real path of the file that was loaded, or NULL when the system cannot say. */
char *dl_lib_path(dl_lib *lib);
void dl_lib_close(dl_lib *lib);
/* The file version ("14.40.33810.0") of a DLL in System32, from its version resource
 * (file_version_win.c); NULL with *why when it cannot be read, or off Windows. */
char *dl_system_dll_version(const char *name, char **why);
/* The driver libraries' names on this system: libnvidia-ml.so.1 / nvml.dll,
 * libcuda.so.1 / nvcuda.dll. */
const char *dl_lib_name_nvml(void);
const char *dl_lib_name_cuda(void);

/* ---- this program --------------------------------------------------------------------------- */

/* The path of the running executable, to start it again as an isolated child probe. */
char *dl_self_path(const char *argv0);
/* The name of a signal that ended a child ("SIGSEGV"), or NULL. */
const char *dl_signal_name(int sig);

/* ---- threads ---------------------------------------------------------------------------- */

/* Runs fn(arg, i) on n threads at once (i = 0..n-1) and waits for all; false with why if
 * a thread could not start (the ones that did are still joined). Every thread is created
 * first and waits behind a start gate that opens only once all n exist, so the work starts
 * together and a caller timing inside fn times only the parallel part. When a thread cannot
 * be created the gate opens with "cancelled": fn runs on none of them. */
typedef void (*dl_thread_fn)(void *arg, unsigned index);
bool dl_threads_run(unsigned n, dl_thread_fn fn, void *arg, char **error);
/* Logical CPUs this process may use (its affinity: sched_getaffinity / the process's
 * affinity mask, else GetActiveProcessorCount), >= 1. A container's CPU quota (cgroup
 * cpu.max) is not an affinity and is not counted. */
unsigned dl_cpu_count_online(void);
/* One lock for the whole process, around calls into a library that keeps global state:
 * cJSON's parse writes its last-error position to a global (fleet report parses on
 * several threads). Not recursive. */
void dl_library_lock(void);
void dl_library_unlock(void);

#endif
