#include "explain/windows_text.h"

#include "base/str.h"
#include "explain/quote.h"
#include "explain/release_text.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "know/version.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* The text names a torch release other than 2.3.0 (a pre-release of another counts). */
static bool other_release_than_2_3_0(const dl_facts *f)
{
    const char *v = dl_q_first_torch_version(f);
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    unsigned major = 0, minor = 0;
    dl_torch_version tv;
    /* 2.3.0's wheels end at Python 3.12 */
    if (py && py->version.value && sscanf(py->version.value, "%u.%u", &major, &minor) == 2 &&
        (major > 3 || (major == 3 && minor >= 13)))
        return true;
    if (!v || !dl_torch_version_parse(v, &tv))
        return false;
    return tv.release.part[0] != 2 || tv.release.part[1] != 3 || tv.release.part[2] != 0;
}

/* ROCm named as the build: any line naming it but collect_env's own "ROCM used to build
 * PyTorch: N/A", which every CUDA or CPU torch's report carries. */
static bool rocm_build_named(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "rocm"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "rocm"))
        if (!strstr(p->lines[i].lower, "rocm used to build pytorch: n/a"))
            return true;
    return false;
}

/* torch 2.3.0's Windows wheels load shm.dll with a new MKL dependency that lands where the
 * DLL search does not look (a per-user install, an embedded Python, an install to a target
 * folder): "Error loading ...\torch\lib\shm.dll or one of its dependencies" (pytorch#125109,
 * fixed in 2.3.1). The same line with WinError 1455 is the paging file, with 1114 or 127 an
 * initialisation or symbol failure; those have their own readings. */
long dl_shm_dll_release_line(const dl_paste *p, const dl_facts *f)
{
    static const char *const other_errors[] = {"winerror 1455", "paging file",
                                               "winerror 1114", "winerror 127",
                                               "procedure could not be found"};
    /* another build of torch than 2.3.0's wheels, or a Windows torch 2 no longer runs on */
    static const char *const other_builds[] = {"gfx1", "windows 7", "win7", "win 7",
                                               "/whl/nightly", ".dev20"};
    long i;
    if (dl_paste_find_any(p, other_errors, sizeof other_errors / sizeof other_errors[0]) >= 0 ||
        dl_paste_find_any(p, other_builds, sizeof other_builds / sizeof other_builds[0]) >= 0 ||
        rocm_build_named(p) || other_release_than_2_3_0(f))
        return -1;
    for (i = dl_paste_find(p, 0, "shm.dll"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "shm.dll")) {
        const char *low = p->lines[i].lower;
        if (strstr(low, "error loading") || strstr(low, "winerror 126") ||
            strstr(low, "one of its dependencies") || strstr(low, "could not find module"))
            return i;
    }
    return -1;
}

void dl_explain_shm_dll_release(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    long line = dl_shm_dll_release_line(&e->paste, &e->facts);
    size_t r;
    if (!kb || line < 0 || dl_findings_has(&e->findings, "known_bad_release"))
        return;
    for (r = 0; r < kb->rows; r++)
        if (!strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_os), "windows") &&
            strstr(dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom), "shm.dll"))
            break;
    if (r == kb->rows)
        return;
    dl_explain_known_bad_row(k, kb, r, e, (size_t)line);
    dl_strv_add(&e->alternatives, dl_strdup("win_dll_dependency_missing"));
    dl_strv_add(&e->ask, dl_strdup("`python -m pip show torch` (the release: 2.3.0's wheels had "
                                   "this failure) and how torch was installed (--user, an "
                                   "embedded Python, a target folder)"));
}

/* A pip command run as itself ("pip install", "pip.exe uninstall torch"), not through the
 * embedded interpreter ("python_embeded\\python.exe -m pip"): -1 when none. */
static long bare_pip_line(const dl_paste *p)
{
    static const char *const cmds[] = {"pip install", "pip uninstall", "pip.exe", "pip3 install",
                                       "pip3 uninstall"};
    size_t k;
    for (k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, cmds[k]); i >= 0; i = dl_paste_find(p, (size_t)i + 1, cmds[k])) {
            const char *low = p->lines[i].lower, *prompt = strrchr(low, '>');
            /* typed at a prompt whose folder is python_embeded: "...\python_embeded>pip
             * install x" is the bare pip too */
            const char *typed = prompt ? prompt + 1 + strspn(prompt + 1, " ") : NULL;
            if (typed && !strncmp(typed, cmds[k], strlen(cmds[k])))
                return i;
            if (!strstr(low, "python_embeded") && !strstr(low, "-m pip") &&
                !strstr(low, "python.exe"))
                return i;
        }
    }
    return -1;
}

/* pip's "Requirement already satisfied: X in <site-packages>" naming a site-packages that is
 * not the portable Python's (python_embeded): the line, or -1. */
static long pip_in_other_site(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "requirement already satisfied"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "requirement already satisfied")) {
        const char *low = p->lines[i].lower;
        if (strstr(low, " in ") && strstr(low, "site-packages") && !strstr(low, "python_embeded"))
            return i;
    }
    return -1;
}

/* ComfyUI's portable build runs its own interpreter (ComfyUI_windows_portable\python_embeded),
 * which is on no PATH: a bare pip changes the system's Python, not the one ComfyUI runs, so the
 * torch it installs or removes is not the one ComfyUI shows. Only when nothing else was found:
 * a bare pip beside a real error is a remark, not the cause. */
void dl_explain_portable_bare_pip(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "pip_python_mismatch",
        "a bare pip beside ComfyUI's portable Python: that pip belongs to "
        "another interpreter than the embedded one ComfyUI runs",
        "# install with python_embeded\\python.exe -m pip from the portable "
        "folder: the embedded Python changes its own packages",
        {NULL},
        "`python_embeded\\python.exe -m pip list` and `where pip` "
        "(which Python each pip belongs to)"};
    static const char *const pip_words[] = {"extension_mismatch", "torch_not_installed",
                                            "wheel_tag_mismatch", "python_32bit"};
    long pip, portable, elsewhere;
    if ((portable = dl_paste_find(&e->paste, 0, "python_embeded")) < 0 ||
        (pip = bare_pip_line(&e->paste)) < 0)
        return;
    /* pip's own output shows it working in another Python's site-packages: that is proof,
     * and what the program then misses (Triton, torch) follows from it */
    elsewhere = pip_in_other_site(&e->paste);
    if (elsewhere >= 0)
        dl_text_causes_step_back(e, pip_words, sizeof pip_words / sizeof pip_words[0]);
    else if (dl_text_cause_read(e))
        return;
    dl_text_cause_add(e, &cause, portable, elsewhere >= 0 ? elsewhere : pip);
}

bool dl_directml_failed(const dl_paste *p)
{
    static const char *const failed[] = {"requirement torch-directml",
                                         "no module named 'torch_directml'",
                                         "no module named torch_directml"};
    return dl_paste_find_any(p, failed, sizeof failed / sizeof failed[0]) >= 0;
}

void dl_explain_directml_rules(const dl_paste *p, dl_findings *rules)
{
    static const char *const intended[] = {"non_nvidia_gpu", "cpu_only_build"};
    size_t i, k;
    if (!dl_directml_failed(p))
        return;
    for (i = 0; i < rules->items.count; i++) {
        dl_finding *x = &DL_LIST_AT(rules->items, dl_finding, i);
        for (k = 0; k < sizeof intended / sizeof intended[0]; k++)
            if (!strcmp(x->id.value, intended[k]) && dl_q_failure(x))
                dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
    }
}

/* The text's Python as 3.N: N, or -1 when the text gives no 3.x version. */
static int python3_minor(const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    unsigned major, minor;
    if (!py || !py->version.value || sscanf(py->version.value, "%u.%u", &major, &minor) != 2 ||
        major != 3)
        return -1;
    return (int)minor;
}

/* torch-directml on PyPI has win_amd64 and manylinux x86_64 wheels only: for CPython 3.8 to
 * 3.10 from 0.1.13 (2022-12) through 0.2.0 (2023-04), to 3.12 since 0.2.1 (2024-05), none
 * for 3.13 (pypi.org/project/torch-directml/#files; microsoft/DirectML#473, #544). A 3.11 or
 * newer Python is where its installs failed most; 3.8 to 3.10 always had a wheel. */
void dl_explain_directml_python(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    int minor = python3_minor(f);
    bool pip = dl_paste_find(&e->paste, 0, "torch-directml") >= 0 &&
               dl_paste_find(&e->paste, 0, "from versions: none") >= 0;
    long line;
    dl_finding *x;
    size_t j;
    if (!dl_directml_failed(&e->paste) || (py && py->bits.known && py->bits.value == 32) ||
        (minor >= 8 && minor <= 10) || (minor < 0 && !pip) ||
        dl_findings_has(&e->findings, "python_unsupported"))
        return;
    line = dl_paste_find(&e->paste, 0, "torch-directml");
    if (line < 0)
        line = dl_paste_find(&e->paste, 0, "torch_directml");
    x = dl_finding_add(&e->findings, "python_unsupported", DL_SEV_FAILURE,
                       "torch-directml has no wheel for this Python (its wheels cover 3.8 to "
                       "3.10, 3.12 at most since 2024; 64-bit only)");
    if (line >= 0)
        dl_quote_line(x, &e->paste, (size_t)line);
    for (j = 0; j < e->where.n; j++)
        if (!strcmp(e->where.where[j].fact, "pythons[0].version"))
            dl_quote_line(x, &e->paste, e->where.where[j].line);
    dl_finding_fix(x, "# a 64-bit Python 3.10 for torch-directml (a venv: py -3.10 -m venv venv)");
    dl_strv_add(&e->alternatives, dl_strdup(pip ? "python_32bit" : "pip_python_mismatch"));
    dl_strv_add(&e->ask, dl_strdup("`python -VV` (the version and bits of the Python that "
                                   "runs) and `python -m pip install torch-directml`'s output"));
}

bool dl_directml_python_covered(const dl_paste *p, const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    int minor = python3_minor(f);
    return minor >= 8 && minor <= 10 && !(py && py->bits.known) &&
           dl_paste_find(p, 0, "requirement torch-directml") >= 0;
}

/* Every entry of pip's "(from versions: ...)" list on line i is a 0.1.x placeholder sdist. */
static bool only_placeholders(const char *low)
{
    const char *at = strstr(low, "from versions:");
    if (!at)
        return false;
    for (at += 14; *at && *at != ')'; at++) {
        while (*at == ' ' || *at == ',')
            at++;
        if (!*at || *at == ')')
            break;
        if (strncmp(at, "0.1.", 4) != 0)
            return false;
        while (*at && *at != ',' && *at != ')')
            at++;
        if (*at == ')')
            break;
    }
    return true;
}

bool dl_selector_command_on_32bit(const dl_paste *p, const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    int minor = python3_minor(f);
    long i = dl_paste_find(p, 0, "from versions:");
    return i >= 0 && dl_paste_find(p, 0, "torch===") >= 0 &&
           only_placeholders(p->lines[i].lower) && !(py && py->bits.known) && minor < 9;
}

/* Python ends with no message while importing: "dropped back to the command prompt",
 * "python silently exits", "crashes without any error"; -1 when the text says no such
 * thing. */
static long silent_exit_line(const dl_paste *p)
{
    static const char *const words[] = {
        "dropped back to the command prompt", "dropped back to the prompt",
        "back to the command prompt", "silently exits", "exits silently", "silently crashes",
        "crashes silently", "silently quits", "quits silently", "silently closes",
        "closes silently", "crashes without any error", "crashes without error",
        "exits without any error", "exits without error", "closes without any error",
        "closes without error", "quits without any error", "quits without error"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
}

/* The text imports torch or one of its domain libraries, whose DLLs load at import. */
static long torch_import_line(const dl_paste *p)
{
    static const char *const imports[] = {"import torch", "from torch"};
    return dl_paste_find_any(p, imports, sizeof imports / sizeof imports[0]);
}

void dl_explain_silent_exit_on_import(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "vc_redist_missing",
        "Python exits with no message while importing torch's libraries on Windows: "
        "a native crash in a DLL's start-up, most often an older Visual C++ runtime "
        "(msvcp140.dll) than the one the wheel was built with",
        "# install the latest VC++ 2015-2022 x64 redistributable "
        "(https://aka.ms/vs/17/release/vc_redist.x64.exe) and reboot",
        {"win_dll_dependency_missing", "omp_duplicate_runtime"},
        "`python -X faulthandler -c \"import torchvision\"` (the crash's module) and "
        "the Application event log's entry for python.exe (its faulting DLL)"};
    long line, import;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        (line = silent_exit_line(&e->paste)) < 0 || (import = torch_import_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, import);
}

/* A nightly torch named: the old package's name ("torch_nightly", "torch-nightly"), the
 * nightly index ("/whl/nightly/") or a dev version ("2.6.0.dev20241112"). */
static bool nightly_torch_named(const dl_paste *p)
{
    static const char *const marks[] = {"torch_nightly", "torch-nightly", "/whl/nightly/",
                                        ".dev20"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

void dl_explain_torchvision_dll_beside_nightly(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "torchvision_mismatch",
        "torchvision's DLLs fail to load beside a nightly torch: a released "
        "torchvision was built for another torch",
        "# install torchvision from the same nightly index as torch, in one pip "
        "command with torch",
        {NULL},
        "`python -m pip list` (torch's and torchvision's versions: a nightly torch needs "
        "the torchvision of the same day)"};
    static const char *const vision[] = {"importing torchvision", "import torchvision"};
    long line = dl_paste_find(&e->paste, 0, "dll load failed"), at;
    dl_finding *dll;
    /* another cause read: this reading is not needed */
    if (!dl_findings_failures_all(&e->findings, "win_dll_dependency_missing", &dll) || !dll ||
        line < 0 || !nightly_torch_named(&e->paste) ||
        (at = dl_paste_find_any(&e->paste, vision, 2)) < 0)
        return;
    dl_text_set(&dll->severity, dl_severity_name(DL_SEV_WARNING));
    dl_strv_add(&e->alternatives, dl_strdup("win_dll_dependency_missing"));
    dl_text_cause_add(e, &cause, at, line);
}

/* Windows hands out process ids in steps of four (its handle table's granularity), Linux and
 * macOS one by one: the worker ids of "DataLoader worker (pid(s) 1448, 8988)" all divisible
 * by four say Windows (two ids or more), one that is not says another OS. 1 Windows, 0
 * not, -1 no id or too few. */
static int worker_pids_say_windows(const char *low)
{
    const char *at = strstr(low, "pid(s) ");
    int seen = 0;
    /* "worker (pid 39637) exited unexpectedly with exit code 1" comes from the SIGCHLD
     * handler, which torch sets only where there are signals: not Windows */
    if (!at)
        return strstr(low, "worker (pid ") ? 0 : -1;
    at += 7;
    while (*at >= '0' && *at <= '9') {
        unsigned long pid = 0;
        for (; *at >= '0' && *at <= '9'; at++)
            pid = pid * 10 + (unsigned long)(*at - '0');
        if (pid % 4)
            return 0;
        seen++;
        while (*at == ',' || *at == ' ')
            at++;
    }
    /* one id divisible by four is a Linux id one time in four: it says nothing */
    return seen >= 2 ? 1 : -1;
}

/* A DataLoader worker that died while starting: torch's "DataLoader worker (pid(s) ...)
 * exited unexpectedly" (the parent's poll found it gone), or the parent's BrokenPipeError
 * while it hands a worker its task, next to the DataLoader. -1 when none. */
static long worker_start_failure_line(const dl_paste *p, int *pids_windows)
{
    static const char *const loader[] = {"dataloader", "num_workers", "w.start()",
                                         "forkingpickler", "_multiprocessingdataloaderiter"};
    long i = dl_paste_find(p, 0, "exited unexpectedly");
    *pids_windows = -1;
    for (; i >= 0; i = dl_paste_find(p, (size_t)i + 1, "exited unexpectedly"))
        if (strstr(p->lines[i].lower, "worker (pid")) {
            *pids_windows = worker_pids_say_windows(p->lines[i].lower);
            return i;
        }
    i = dl_paste_find(p, 0, "brokenpipeerror");
    if (i >= 0 && dl_paste_find_any(p, loader, sizeof loader / sizeof loader[0]) >= 0)
        return i;
    return -1;
}

void dl_explain_dataloader_worker_start(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "spawn_guard_missing",
        "a DataLoader worker died while starting: on Windows (and macOS) workers start by "
        "spawn, which re-imports the script (its top level must sit under `if __name__ == "
        "\"__main__\":`) and pickles the dataset to the child",
        "# put the script's top level under `if __name__ == \"__main__\":` (define the Dataset "
        "in a module, not a notebook); num_workers=0 shows the worker's own error",
        {"pagefile_too_small", NULL},
        "the worker's own error (rerun with num_workers=0) and the OS"};
    /* the kernel or a signal ended the worker: memory or shared memory, not its start */
    static const char *const ended[] = {"killed by signal", "bus error", "shared memory",
                                        "/dev/shm", "shm_size", "shm-size", "out of memory"};
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    int pids_windows;
    long line;
    if (dl_text_cause_read(e) ||
        (line = worker_start_failure_line(&e->paste, &pids_windows)) < 0 ||
        dl_paste_find_any(&e->paste, ended, sizeof ended / sizeof ended[0]) >= 0)
        return;
    /* fork (Linux's default) re-imports nothing; macOS spawns as Windows does */
    if (os == DL_PLAN_OS_LINUX || dl_text_in_container(&e->paste) ||
        (os == DL_PLAN_OS_UNKNOWN && pids_windows == 0))
        return;
    /* the poll's message alone, on a machine the text does not place: it ends every worker's
     * death (the OOM killer and /dev/shm on Linux as much as spawn on Windows) */
    if (os == DL_PLAN_OS_UNKNOWN && pids_windows != 1 &&
        strstr(e->paste.lines[line].lower, "exited unexpectedly"))
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* torch's own "Distributed package doesn't have NCCL built in" where the text's facts put the
 * machine on Windows (a drive path, the OS named) though no line names Windows or C:\ (the
 * signatures' marks): Windows builds of torch have no NCCL, only Gloo. */
void dl_explain_windows_nccl(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "nccl_on_windows",
        "Code asks for the NCCL backend on Windows: torch's Windows builds have no NCCL, "
        "only Gloo",
        "# use the gloo backend (init_process_group(\"gloo\")), or train on Linux or WSL2 "
        "where the code needs NCCL",
        {NULL},
        "the distributed backend the script or launcher asks for (nccl is the default "
        "for CUDA)"};
    /* the text names no OS: Windows is where most of these come from, but torch's CPU-only
     * and Jetson builds have no NCCL either */
    static const dl_text_cause unplaced = {
        "nccl_on_windows",
        "Code asks for the NCCL backend and this torch has none: torch's Windows builds have "
        "only Gloo (so do its CPU-only builds and some ARM ones)",
        "# use the gloo backend (init_process_group(\"gloo\")); on Windows train on Linux "
        "or WSL2 where the code needs NCCL; on Linux with an NVIDIA GPU install torch's CUDA "
        "build",
        {"cpu_only_build"},
        "the OS, and `python -c \"import torch; print(torch.__version__, "
        "torch.distributed.is_nccl_available())\"`"};
    long line;
    if (dl_text_cause_read(e) ||
        (line = dl_paste_find(&e->paste, 0, "have nccl built in")) < 0)
        return;
    /* a CPU-only torch shown (conda's CPU pick, a +cpu wheel) has no NCCL on any OS: that
     * build is the reading, not Windows */
    static const char *const cpu_build[] = {"+cpu", "cpuonly", "cpu_generic", "_cpu_",
                                            "cuda used to build pytorch: none",
                                            "not compiled with cuda", "pytorch-cpu", "cpu-only",
                                            "cpu only"};
    if (dl_q_text_is(&e->facts.os.family, "windows"))
        dl_text_cause_add(e, &cause, line, -1);
    else if (!e->facts.os.family.value &&
             dl_paste_find_any(&e->paste, cpu_build, sizeof cpu_build / sizeof cpu_build[0]) < 0)
        dl_text_cause_add(e, &unplaced, line, -1);
}
