/* Every rule: a machine where it fires and a near miss where it must not. Each case starts
 * from the healthy machine of tests/doctor/base.json (an RTX 4090, driver 550, torch
 * 2.3.1+cu121 working), then changes one thing. The knowledge tables are the built-in
 * ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "facts/facts_json.h"
#include "know/tables.h"
#include "test_know.h"
#include "rules/catalog.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>


/* tests/doctor/base.json, the doctor fixtures' healthy machine, embedded by
 * tests/CMakeLists.txt so the Windows build reads it too. */
extern const char dl_test_base_json[];

/* That machine, read through the real facts reader: one machine for the rule tests and
 * the doctor fixtures, and a fixture the reader must still read. */
static void healthy(dl_facts *f)
{
    char *error = NULL;
    if (!dl_facts_from_json_text(dl_test_base_json, strlen(dl_test_base_json), f, &error))
        fail_msg("tests/doctor/base.json: %s", error);
}

static dl_python *main_py(dl_facts *f)
{
    return &DL_LIST_AT(f->pythons, dl_python, 0);
}

static dl_nvml_gpu *nvml0(dl_facts *f)
{
    return &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0);
}

/* Runs every rule; returns the findings. */
static void diagnose(const dl_facts *f, dl_findings *out)
{
    dl_rule_input in;
    in.facts = f;
    in.know = &dl_test_know;
    memset(out, 0, sizeof *out);
    dl_rules_run(&in, NULL, out);
}

static const dl_finding *find(const dl_findings *fs, const char *id)
{
    size_t i;
    for (i = 0; i < fs->items.count; i++)
        if (strcmp(DL_LIST_AT(fs->items, dl_finding, i).id.value, id) == 0)
            return &DL_LIST_AT(fs->items, dl_finding, i);
    return NULL;
}

/* Empties a list of structs, freeing what its elements own. */
static void clear(dl_list *l, const dl_schema *s)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        dl_schema_free(s, (char *)l->items + i * s->size);
    l->count = 0;
}

/* Empties a list of texts: a mutator that sets a list replaces what base.json has. */
static void clear_texts(dl_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        free(DL_LIST_AT(*l, char *, i));
    l->count = 0;
    dl_list_known(l);
}

typedef void (*mutator)(dl_facts *f);

/* Fires: the id is found, with the severity and root cause asked for (NULL: any). */
static void expect_finding(mutator m, const char *id, const char *severity, const char *root)
{
    dl_facts f;
    dl_findings fs;
    const dl_finding *x;
    healthy(&f);
    m(&f);
    diagnose(&f, &fs);
    x = find(&fs, id);
    if (!x)
        fail_msg("%s did not fire", id);
    assert_true(x->title.value && *x->title.value);
    assert_true(x->evidence.count > 0);
    if (!strcmp(x->severity.value, "failure")) /* information may need no action */
        assert_true(x->fix.count > 0);
    if (severity)
        assert_string_equal(x->severity.value, severity);
    if (root) {
        assert_non_null(fs.root_cause.value);
        assert_string_equal(fs.root_cause.value, root);
    }
    dl_findings_free(&fs);
    dl_facts_free(&f);
}

static void expect(mutator m, const char *id, const char *root)
{
    expect_finding(m, id, NULL, root);
}

static void expect_severity(mutator m, const char *id, const char *severity)
{
    expect_finding(m, id, severity, NULL);
}

static void expect_not(mutator m, const char *id)
{
    dl_facts f;
    dl_findings fs;
    healthy(&f);
    m(&f);
    diagnose(&f, &fs);
    if (find(&fs, id))
        fail_msg("%s fired on a near miss", id);
    dl_findings_free(&fs);
    dl_facts_free(&f);
}

static void nothing(dl_facts *f) { (void)f; }

static void healthy_machine_has_no_findings(void **state)
{
    dl_facts f;
    dl_findings fs;
    (void)state;
    healthy(&f);
    diagnose(&f, &fs);
    if (fs.items.count)
        fail_msg("a healthy machine gave %s", DL_LIST_AT(fs.items, dl_finding, 0).id.value);
    assert_null(fs.root_cause.value);
    dl_findings_free(&fs);
    dl_facts_free(&f);
}

/* ---- hardware ---- */
static void m_no_gpu(dl_facts *f)
{
    dl_schema_free(&dl_facts_schema, f);
    dl_facts_init(f);
    dl_list_known(&f->gpus);
    dl_list_known(&f->pythons);
}
static void m_amd_only(dl_facts *f)
{
    dl_int_set(&DL_LIST_AT(f->gpus, dl_pci_gpu, 0).vendor_id, 0x1002);
    dl_text_set(&DL_LIST_AT(f->gpus, dl_pci_gpu, 0).driver, "amdgpu");
    clear(&f->nvml.gpus, &dl_nvml_gpu_schema);
}
static void hardware(void **state)
{
    (void)state;
    expect(m_no_gpu, "no_gpu", NULL);
    expect_not(nothing, "no_gpu");
    expect_not(m_amd_only, "no_gpu");
    expect(m_amd_only, "non_nvidia_gpu", NULL);
    expect_not(nothing, "non_nvidia_gpu");
}

/* ---- driver ---- */
static void m_nouveau(dl_facts *f)
{
    dl_text_set(&DL_LIST_AT(f->gpus, dl_pci_gpu, 0).driver, "nouveau");
    dl_text_set(&f->nvidia_kernel.driver_version, NULL);
    dl_text_unknown(&f->nvidia_kernel.driver_version, "not loaded");
    dl_list_known(&f->nvidia_kernel.loaded_modules);
    DL_LIST_AT(f->nvidia_kernel.loaded_modules, char *, 0)[0] = 'X'; /* "Xvidia" */
}
static void unload(dl_facts *f)
{
    size_t i;
    dl_text_unknown(&f->nvidia_kernel.driver_version, "not loaded");
    for (i = 0; i < f->nvidia_kernel.loaded_modules.count; i++)
        DL_LIST_AT(f->nvidia_kernel.loaded_modules, char *, i)[0] = 'X';
}
static void no_libraries(dl_facts *f)
{
    dl_text_unknown(&f->nvml.library, "libnvidia-ml.so.1: cannot open shared object file");
    dl_text_unknown(&DL_LIST_AT(f->libraries, dl_library_lookup, 0).chosen, "not found");
    DL_LIST_AT(DL_LIST_AT(f->libraries, dl_library_lookup, 0).copies, dl_library_copy, 0)
        .chosen.value = false;
}
static void m_no_driver(dl_facts *f)
{
    unload(f);
    no_libraries(f);
    dl_flag_set(&f->nvidia_kernel.module_file, false);
}
static void m_secure_boot(dl_facts *f)
{
    unload(f);
    dl_flag_set(&f->nvidia_kernel.secure_boot, true);
}
static void m_secure_boot_off_not_loaded(dl_facts *f)
{
    unload(f);
}
static void m_module_not_built(dl_facts *f)
{
    unload(f);
    dl_flag_set(&f->nvidia_kernel.module_file, false);
}
static void m_mismatch(dl_facts *f)
{
    dl_text_set(&f->nvml.init_result, "RM has detected an NVML/RM version mismatch");
}
static void m_versions_differ(dl_facts *f)
{
    dl_text_set(&f->nvml.driver_version, "550.67");
}
static void m_cuinit(dl_facts *f, long long code)
{
    dl_int_set(&f->cuda_driver.init_code, code);
}
static void m_804(dl_facts *f) { m_cuinit(f, 804); }
static void m_802(dl_facts *f) { m_cuinit(f, 802); }
static void m_999(dl_facts *f) { m_cuinit(f, 999); }
static void m_100(dl_facts *f) { m_cuinit(f, 100); }
static void m_denied(dl_facts *f)
{
    dl_flag_set(&DL_LIST_AT(f->nvidia_kernel.device_nodes, dl_device_node, 0).accessible, false);
}
static void m_driver_old(dl_facts *f)
{
    dl_int_set(&f->nvml.cuda_driver_version, 11040);
    dl_int_set(&f->cuda_driver.driver_version, 11040);
    dl_text_set(&f->nvml.driver_version, "470.82.01");
    dl_text_set(&f->nvidia_kernel.driver_version, "470.82.01");
}
static void m_driver_minor_compat(dl_facts *f)
{
    dl_int_set(&f->nvml.cuda_driver_version, 12000);
    dl_text_set(&f->nvml.driver_version, "525.147.05");
    dl_text_set(&f->nvidia_kernel.driver_version, "525.147.05");
}
static void driver(void **state)
{
    (void)state;
    expect(m_nouveau, "nouveau_loaded", "nouveau_loaded");
    expect_not(nothing, "nouveau_loaded");
    expect(m_no_driver, "no_driver_installed", "no_driver_installed");
    expect_not(m_module_not_built, "no_driver_installed"); /* libraries are there */
    expect(m_secure_boot, "secure_boot_blocks_module", "secure_boot_blocks_module");
    expect_not(m_secure_boot_off_not_loaded, "secure_boot_blocks_module");
    expect(m_module_not_built, "kernel_module_not_built", "kernel_module_not_built");
    expect_not(m_secure_boot, "kernel_module_not_built");
    expect(m_secure_boot_off_not_loaded, "driver_not_loaded", "driver_not_loaded");
    expect_not(m_secure_boot, "driver_not_loaded"); /* the specific cause wins */
    expect(m_mismatch, "driver_library_mismatch", "driver_library_mismatch");
    expect(m_versions_differ, "driver_library_mismatch", NULL);
    expect_not(nothing, "driver_library_mismatch");
    expect(m_804, "forward_compat_unsupported", NULL);
    expect(m_802, "fabricmanager_missing", NULL);
    expect(m_999, "suspend_resume_uvm", NULL);
    expect_not(m_100, "forward_compat_unsupported");
    expect_not(m_100, "fabricmanager_missing");
    expect_not(m_100, "suspend_resume_uvm");
    expect(m_denied, "device_permission_denied", "device_permission_denied");
    expect_not(nothing, "device_permission_denied");
    expect(m_driver_old, "driver_too_old", "driver_too_old");
    expect_not(m_driver_minor_compat, "driver_too_old"); /* 12.1 on a 12.0 driver: MVC */
}

/* ---- container / WSL ---- */
static void m_docker(dl_facts *f)
{
    dl_flag_set(&f->os.container.detected, true);
    dl_text_set(&f->os.container.runtime, "docker");
    clear(&f->nvidia_kernel.device_nodes, &dl_device_node_schema);
}
static void m_docker_with_gpu(dl_facts *f)
{
    dl_flag_set(&f->os.container.detected, true);
}
static void wsl(dl_facts *f)
{
    dl_flag_set(&f->os.wsl.detected, true);
    dl_int_set(&f->os.wsl.version, 2);
    dl_flag_set(&f->os.wsl.dev_dxg, true);
}
static void m_wsl_unreachable(dl_facts *f)
{
    dl_library_lookup *l = &DL_LIST_AT(f->libraries, dl_library_lookup, 0);
    dl_library_copy *c = &DL_LIST_AT(l->copies, dl_library_copy, 0);
    wsl(f);
    dl_text_unknown(&l->chosen, "not found");
    dl_text_set(&c->path, "/usr/lib/wsl/lib/libcuda.so.1");
    dl_flag_set(&c->chosen, false);
}
static void m_wsl_fine(dl_facts *f)
{
    dl_library_lookup *l = &DL_LIST_AT(f->libraries, dl_library_lookup, 0);
    wsl(f);
    dl_text_set(&l->chosen, "/usr/lib/wsl/lib/libcuda.so.1");
    dl_text_set(&DL_LIST_AT(l->copies, dl_library_copy, 0).path, "/usr/lib/wsl/lib/libcuda.so.1");
}
static void m_wsl_small(dl_facts *f)
{
    m_wsl_fine(f);
    dl_int_set(&f->memory.total_bytes, 4LL << 30);
}
static void m_wsl_big(dl_facts *f)
{
    m_wsl_fine(f);
    dl_int_set(&f->memory.total_bytes, 32LL << 30);
}
static void container(void **state)
{
    (void)state;
    expect(m_wsl_small, "wsl_memory_limit", NULL);
    expect_not(m_wsl_big, "wsl_memory_limit");
    expect(m_docker, "docker_no_gpu_passthrough", "docker_no_gpu_passthrough");
    expect_not(m_docker_with_gpu, "docker_no_gpu_passthrough");
    expect(m_wsl_unreachable, "wsl_libcuda_path", NULL);
    expect_not(m_wsl_fine, "wsl_libcuda_path");
}

/* ---- libraries ---- */
static void m_cvd_empty(dl_facts *f) { dl_dict_add(&f->environment, "CUDA_VISIBLE_DEVICES", ""); }
static void m_cvd_range(dl_facts *f) { dl_dict_add(&f->environment, "CUDA_VISIBLE_DEVICES", "1"); }
static void m_cvd_uuid(dl_facts *f)
{
    dl_dict_add(&f->environment, "CUDA_VISIBLE_DEVICES", "GPU-00000000-dead-beef");
}
static void m_cvd_ok(dl_facts *f) { dl_dict_add(&f->environment, "CUDA_VISIBLE_DEVICES", "0"); }
static void m_cvd_ok_uuid(dl_facts *f)
{
    dl_dict_add(&f->environment, "CUDA_VISIBLE_DEVICES", "GPU-5c2b6a8e-1f2d-3c4b-8a9e-0f1e2d3c4b5a");
}
static void m_stub(dl_facts *f)
{
    dl_library_copy *c =
        &DL_LIST_AT(DL_LIST_AT(f->libraries, dl_library_lookup, 0).copies, dl_library_copy, 0);
    dl_flag_set(&c->stub, true);
    dl_int_set(&f->cuda_driver.init_code, 34);
    dl_dict_add(&f->environment, "LD_LIBRARY_PATH", "/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs");
}
static void m_libcuda_missing(dl_facts *f)
{
    dl_library_lookup *l = &DL_LIST_AT(f->libraries, dl_library_lookup, 0);
    dl_text_unknown(&l->chosen, "not found");
    dl_text_unknown(&f->cuda_driver.library, "libcuda.so.1: cannot open shared object file");
}
static void m_ld_conflict(dl_facts *f)
{
    dl_library_lookup *l = dl_list_push(&f->libraries, sizeof *l);
    dl_library_copy *c;
    dl_torch_install *t =
        &DL_LIST_AT(DL_LIST_AT(main_py(f)->site_packages, dl_site_packages, 0).torches,
                    dl_torch_install, 0);
    dl_list_known(&t->bundled_libraries);
    dl_textlist_add(&t->bundled_libraries, "nvidia/cudnn/lib/libcudnn.so.8");
    dl_text_set(&l->name, "libcudnn.so");
    c = dl_list_push(&l->copies, sizeof *c);
    dl_text_set(&c->path, "/usr/local/cuda/lib64/libcudnn.so.8");
    dl_text_set(&c->real_path, "/usr/local/cuda/lib64/libcudnn.so.8.2.4");
    dl_text_set(&c->version, "8.2.4");
    dl_text_set(&c->directory_kind, "LD_LIBRARY_PATH");
    dl_dict_add(&f->environment, "LD_LIBRARY_PATH", "/usr/local/cuda/lib64");
    dl_list_known(&main_py(f)->runtime.loaded_libraries);
    dl_textlist_add(&main_py(f)->runtime.loaded_libraries, "/usr/local/cuda/lib64/libcudnn.so.8.2.4");
}
static void m_ld_other_soname(dl_facts *f)
{
    m_ld_conflict(f);
    strcpy(DL_LIST_AT(DL_LIST_AT(f->libraries, dl_library_lookup, 1).copies, dl_library_copy, 0)
               .path.value + strlen("/usr/local/cuda/lib64/libcudnn.so."), "7");
}
static void conda_pkg(dl_facts *f, const char *name, const char *version)
{
    dl_site_packages *s = &DL_LIST_AT(main_py(f)->site_packages, dl_site_packages, 0);
    dl_py_package *p = dl_list_push(&s->packages, sizeof *p);
    dl_text_set(&p->name, name);
    dl_text_set(&p->version, version);
    dl_text_set(&p->installer, "conda");
}
static void m_mkl_new(dl_facts *f)
{
    conda_pkg(f, "pytorch", "2.2.2 (py3.11_cuda12.1_cudnn8.9.2_0)");
    conda_pkg(f, "mkl", "2024.1.0 (intel_691)");
}
static void m_mkl_old(dl_facts *f)
{
    conda_pkg(f, "pytorch", "2.2.2 (py3.11_cuda12.1_cudnn8.9.2_0)");
    conda_pkg(f, "mkl", "2023.1.0 (h213fc3f_46344)");
}
static void libraries(void **state)
{
    (void)state;
    expect(m_ld_conflict, "ld_library_path_conflict", "ld_library_path_conflict");
    expect_not(m_ld_other_soname, "ld_library_path_conflict");
    expect(m_mkl_new, "mkl_incompatible", "mkl_incompatible");
    expect_not(m_mkl_old, "mkl_incompatible");
    expect(m_cvd_empty, "cuda_visible_devices", "cuda_visible_devices");
    expect(m_cvd_range, "cuda_visible_devices", NULL);
    expect(m_cvd_uuid, "cuda_visible_devices", NULL);
    expect_not(m_cvd_ok, "cuda_visible_devices");
    expect_not(m_cvd_ok_uuid, "cuda_visible_devices");
    expect(m_stub, "libcuda_stub_on_path", "libcuda_stub_on_path");
    expect_not(nothing, "libcuda_stub_on_path");
    expect(m_libcuda_missing, "libcuda_not_found", "libcuda_not_found");
    expect_not(nothing, "libcuda_not_found");
}

/* ---- python ---- */
static void m_torch_missing(dl_facts *f)
{
    clear(&main_py(f)->site_packages, &dl_site_packages_schema);
    dl_text_set(&main_py(f)->runtime.status, "import_failed");
    dl_text_set(&main_py(f)->runtime.error, "ModuleNotFoundError: No module named 'torch'");
    dl_text_unknown(&main_py(f)->runtime.version, "import torch failed");
}
static void m_other_has_torch(dl_facts *f)
{
    dl_python *other;
    dl_site_packages *s;
    dl_torch_install *t;
    dl_py_package *p;
    m_torch_missing(f);
    other = dl_list_push(&f->pythons, sizeof *other);
    dl_text_set(&other->path, "/usr/bin/python3");
    s = dl_list_push(&other->site_packages, sizeof *s);
    t = dl_list_push(&s->torches, sizeof *t);
    dl_text_set(&t->version, "2.3.1+cu121");
    dl_text_set(&t->location, "/usr/local/lib/python3.11/dist-packages/torch");
    /* pip put it there (a distribution's torch would be no sign of a pip mix-up) */
    p = dl_list_push(&s->packages, sizeof *p);
    dl_text_set(&p->name, "torch");
    dl_text_set(&p->version, "2.3.1+cu121");
    dl_text_set(&p->installer, "pip");
}
static void m_32bit(dl_facts *f) { dl_int_set(&main_py(f)->bits, 32); }
/* A Python no wheel exists for has no torch installed (one installed would prove a wheel). */
static void m_python_27(dl_facts *f)
{
    m_torch_missing(f);
    dl_text_set(&main_py(f)->version, "2.7.18");
}
/* torch_wheels.csv: cp315 wheels from 2.15.0 (PyPI), none for 3.16; cp38 up to 2.4.1. */
static void m_python_315(dl_facts *f) { dl_text_set(&main_py(f)->version, "3.15.0"); }
static void m_python_316(dl_facts *f)
{
    m_torch_missing(f);
    dl_text_set(&main_py(f)->version, "3.16.0");
}
/* Tables that fall short of an installed torch are no failure of the Python. */
static void m_python_316_with_torch(dl_facts *f) { dl_text_set(&main_py(f)->version, "3.16.0"); }
static void m_python_38(dl_facts *f) { dl_text_set(&main_py(f)->version, "3.8.10"); }

static void python(void **state)
{
    (void)state;
    expect(m_torch_missing, "torch_not_installed", "torch_not_installed");
    expect_not(m_other_has_torch, "torch_not_installed");
    expect(m_other_has_torch, "pip_python_mismatch", "pip_python_mismatch");
    expect_not(m_torch_missing, "pip_python_mismatch");
    expect(m_32bit, "python_32bit", "python_32bit");
    expect_not(nothing, "python_32bit");
    expect(m_python_27, "python_unsupported", NULL);
    /* torch_wheels goes back to 1.0.0: 2.7 had wheels up to 1.4.0 (said, not failed). */
    expect_severity(m_python_27, "python_unsupported", "info");
    expect_severity(m_python_316, "python_unsupported", "failure");
    expect_not(m_python_316_with_torch, "python_unsupported");
    expect_not(nothing, "python_unsupported");
    /* Wheels, not the official range, decide: 3.15 has cp315 wheels in 2.15.0. */
    expect_not(m_python_315, "python_unsupported");
    /* An old Python still gets an old torch: said, not failed. */
    expect_severity(m_python_38, "python_unsupported", "info");
}

/* ---- known bad releases (known_bad_releases.csv) ---- */
static void set_torch(dl_facts *f, const char *version)
{
    dl_site_packages *s = &DL_LIST_AT(main_py(f)->site_packages, dl_site_packages, 0);
    dl_text_set(&DL_LIST_AT(s->torches, dl_torch_install, 0).version, version);
}
static void m_windows_240(dl_facts *f)
{
    dl_text_set(&f->os.family, "windows");
    set_torch(f, "2.4.0+cu121");
}
static void m_windows_241(dl_facts *f)
{
    dl_text_set(&f->os.family, "windows");
    set_torch(f, "2.4.1+cu121");
}
static void m_linux_240(dl_facts *f) { set_torch(f, "2.4.0+cu121"); }
static void m_no_sse41_210(dl_facts *f)
{
    set_torch(f, "2.1.0+cu121");
    clear_texts(&f->cpu.isa);
    dl_textlist_add(&f->cpu.isa, "sse4a");
}
static void m_sse41_210(dl_facts *f)
{
    m_no_sse41_210(f);
    dl_textlist_add(&f->cpu.isa, "sse4_1");
}
static void m_prerelease_1130(dl_facts *f) { set_torch(f, "1.13.0a0"); }
/* torch 2.4.0's aarch64 wheel and an ARMv8.0 core (a Raspberry Pi 4: no LSE atomics) */
static void m_arm_v80_240(dl_facts *f)
{
    set_torch(f, "2.4.0");
    dl_text_set(&f->os.arch, "aarch64");
    clear_texts(&f->cpu.isa);
    dl_textlist_add(&f->cpu.isa, "neon");
}
static void m_arm_v82_240(dl_facts *f)
{
    m_arm_v80_240(f);
    dl_textlist_add(&f->cpu.isa, "atomics");
}
static void m_x86_240(dl_facts *f)
{
    set_torch(f, "2.4.0");
    dl_text_set(&f->os.arch, "x86_64");
}
static void known_bad(void **state)
{
    (void)state;
    expect(m_windows_240, "known_bad_release", NULL);
    expect_severity(m_windows_240, "known_bad_release", "failure");
    expect_not(m_windows_241, "known_bad_release");
    expect_not(m_linux_240, "known_bad_release");
    /* A narrow problem whose condition holds is a warning... */
    expect_severity(m_no_sse41_210, "known_bad_release", "warning");
    /* ...and stays quiet where the facts say the condition does not hold. */
    expect_not(m_sse41_210, "known_bad_release");
    /* Debian's 1.13.0a0 is a source build, not the 1.13.0 wheel the table describes. */
    expect_not(m_prerelease_1130, "known_bad_release");
    /* An aarch64 wheel's problem on an ARMv8.0 core: said there, never on another arch
     * or on an ARM core with LSE atomics. */
    expect_severity(m_arm_v80_240, "known_bad_release", "warning");
    expect_not(m_arm_v82_240, "known_bad_release");
    expect_not(m_x86_240, "known_bad_release");
}

/* ---- torch build ---- */
static void m_cpu_build(dl_facts *f)
{
    dl_text_set(&main_py(f)->runtime.cuda, "none");
    dl_text_set(&main_py(f)->runtime.version, "2.3.1+cpu");
    dl_flag_set(&main_py(f)->runtime.cuda_available, false);
}
static void m_cpu_build_no_gpu(dl_facts *f)
{
    m_cpu_build(f);
    m_no_gpu(f);
}
/* an RTX 5090 on the healthy machine's 550 driver, which predates it */
static void m_blackwell_old_driver(dl_facts *f)
{
    dl_text_set(&nvml0(f)->compute_capability, "12.0");
}
/* ... and on a 570 driver, which runs it */
static void m_blackwell(dl_facts *f)
{
    m_blackwell_old_driver(f);
    dl_text_set(&f->nvml.driver_version, "570.124.06");
    dl_text_set(&f->nvidia_kernel.driver_version, "570.124.06");
    dl_int_set(&f->nvml.cuda_driver_version, 12080);
    dl_int_set(&f->cuda_driver.driver_version, 12080);
}
/* a ROCm build (AMD's) where only the NVIDIA GPU is there: no CUDA for it */
static void m_rocm_build(dl_facts *f)
{
    dl_text_set(&main_py(f)->runtime.cuda, "none");
    dl_text_set(&main_py(f)->runtime.hip, "6.2.41133");
    dl_text_set(&main_py(f)->runtime.version, "2.5.1+rocm6.2");
    dl_flag_set(&main_py(f)->runtime.cuda_available, false);
}
/* ... beside an AMD GPU, which that build is for */
static void m_rocm_build_beside_amd(dl_facts *f)
{
    dl_pci_gpu *g;
    m_rocm_build(f);
    g = dl_list_push(&f->gpus, sizeof *g);
    dl_int_set(&g->vendor_id, 0x1002);
    dl_text_set(&g->driver, "amdgpu");
}
static void m_pascal(dl_facts *f)
{
    size_t i;
    dl_text_set(&nvml0(f)->compute_capability, "6.1");
    for (i = 0; i < 3; i++) /* sm_50, sm_60, sm_70 -> sm_75 */
        strcpy(DL_LIST_AT(main_py(f)->runtime.arch_list, char *, i), "sm_75");
}
static void m_cpuonly(dl_facts *f)
{
    dl_site_packages *s = &DL_LIST_AT(main_py(f)->site_packages, dl_site_packages, 0);
    dl_py_package *p = dl_list_push(&s->packages, sizeof *p);
    dl_text_set(&p->name, "cpuonly");
    dl_text_set(&p->version, "2.0");
}
static void m_tv_pin(dl_facts *f)
{
    dl_site_packages *s = &DL_LIST_AT(main_py(f)->site_packages, dl_site_packages, 0);
    dl_text_set(&DL_LIST_AT(s->packages, dl_py_package, 1).requires_torch, "torch (==2.2.0)");
    dl_text_set(&DL_LIST_AT(s->packages, dl_py_package, 1).version, "0.17.0+cu121");
}
static void m_tv_tag(dl_facts *f)
{
    dl_site_packages *s = &DL_LIST_AT(main_py(f)->site_packages, dl_site_packages, 0);
    dl_text_set(&DL_LIST_AT(s->packages, dl_py_package, 1).version, "0.18.1+cpu");
}
static void torch_build(void **state)
{
    (void)state;
    expect(m_cpu_build, "cpu_only_build", "cpu_only_build");
    expect_not(m_cpu_build_no_gpu, "cpu_only_build");
    expect(m_rocm_build, "cpu_only_build", "cpu_only_build");
    expect_not(m_rocm_build_beside_amd, "cpu_only_build");
    expect(m_blackwell, "arch_not_in_wheel", "arch_not_in_wheel");
    expect_not(m_blackwell, "driver_too_old");
    expect(m_blackwell_old_driver, "driver_too_old", "driver_too_old");
    expect_not(nothing, "arch_not_in_wheel");
    expect(m_pascal, "gpu_arch_dropped", "gpu_arch_dropped");
    expect_not(m_blackwell, "gpu_arch_dropped");
    expect(m_cpuonly, "conda_cpu_build_selected", NULL);
    expect_not(nothing, "conda_cpu_build_selected");
    expect(m_tv_pin, "torchvision_mismatch", "torchvision_mismatch");
    expect(m_tv_tag, "torchvision_mismatch", NULL);
    expect_not(nothing, "torchvision_mismatch");
}

/* ---- runtime and performance ---- */
static void m_not_available(dl_facts *f)
{
    dl_flag_set(&main_py(f)->runtime.cuda_available, false);
    dl_text_set(&main_py(f)->runtime.cuda_warning, "CUDA initialization: Unexpected error");
}
static void m_throttled(dl_facts *f)
{
    dl_textlist_add(&nvml0(f)->throttle_reasons, "hw_thermal_slowdown");
}
static void m_idle(dl_facts *f)
{
    dl_textlist_add(&nvml0(f)->throttle_reasons, "gpu_idle");
    dl_int_set(&nvml0(f)->pcie_generation, 1);
    dl_int_set(&nvml0(f)->performance_state, 8);
}
static void m_narrow(dl_facts *f) { dl_int_set(&nvml0(f)->pcie_width, 4); }
static void m_generic_blas(dl_facts *f) { dl_text_set(&main_py(f)->runtime.blas, "generic"); }
static void process(dl_facts *f, long long bytes)
{
    dl_gpu_process *p;
    dl_int_set(&nvml0(f)->memory_total_bytes, 24LL << 30);
    p = dl_list_push(&nvml0(f)->processes, sizeof *p);
    dl_int_set(&p->pid, 4242);
    dl_int_set(&p->used_memory_bytes, bytes);
}
static void m_hog(dl_facts *f) { process(f, 20LL << 30); }
static void m_small_user(dl_facts *f) { process(f, 1LL << 30); }
static void runtime_and_performance(void **state)
{
    (void)state;
    expect(m_hog, "gpu_memory_held_by_other_process", NULL);
    expect_not(m_small_user, "gpu_memory_held_by_other_process");
    expect(m_not_available, "no_gpu_visible", "no_gpu_visible");
    expect_not(m_cpu_build, "no_gpu_visible"); /* cpu_only_build explains it */
    expect(m_throttled, "gpu_throttled", NULL);
    expect_not(m_idle, "gpu_throttled");
    expect(m_narrow, "pcie_link_degraded", NULL);
    expect_not(m_idle, "pcie_link_degraded"); /* a link trains down at idle */
    expect(m_generic_blas, "cpu_matmul_slow", NULL);
    expect_not(nothing, "cpu_matmul_slow");
}

/* ---- cpu_matmul_slow: which cause, which fix ---- */
static void cpu_isa(dl_facts *f, const char *const *isa)
{
    clear_texts(&f->cpu.isa);
    for (; *isa; isa++)
        dl_textlist_add(&f->cpu.isa, *isa);
    dl_int_set(&f->cpu.physical_cores, 8);
    dl_int_set(&f->cpu.logical_threads, 16);
}
static void avx512_cpu(dl_facts *f)
{
    static const char *const isa[] = {"sse4_2", "avx", "avx2", "fma", "avx512f", NULL};
    cpu_isa(f, isa);
}
static void avx2_cpu(dl_facts *f)
{
    static const char *const isa[] = {"sse4_2", "avx", "avx2", "fma", NULL};
    cpu_isa(f, isa);
}
static void openblas(dl_facts *f, const char *core)
{
    dl_torch_runtime *r = &main_py(f)->runtime;
    dl_text_set(&r->blas, "generic");
    dl_textlist_add(&r->loaded_libraries,
                    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3");
    dl_text_set(&r->blas_core, core);
}
static void m_prescott_on_avx512(dl_facts *f) { avx512_cpu(f); openblas(f, "Prescott"); }
static void m_haswell_on_avx512(dl_facts *f) { avx512_cpu(f); openblas(f, "Haswell"); }
static void m_skylakex_on_avx512(dl_facts *f) { avx512_cpu(f); openblas(f, "SkylakeX"); }
static void m_sandybridge_on_avx2(dl_facts *f) { avx2_cpu(f); openblas(f, "Sandybridge"); }
static void m_zen_on_avx2(dl_facts *f) { avx2_cpu(f); openblas(f, "Zen"); }
static void m_static_build_on_avx512(dl_facts *f)
{
    avx512_cpu(f);
    openblas(f, "HASWELL");
    dl_text_set(&main_py(f)->runtime.blas_config,
                "OpenBLAS 0.3.26 NO_AFFINITY HASWELL MAX_THREADS=64");
}
static void m_dynamic_build_on_avx512(dl_facts *f)
{
    m_static_build_on_avx512(f);
    dl_text_set(&main_py(f)->runtime.blas_config,
                "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64");
}
static void m_arm_core(dl_facts *f) { avx512_cpu(f); openblas(f, "NeoverseN1"); }
static void m_prescott_isa_unknown(dl_facts *f)
{
    openblas(f, "Prescott");
    dl_list_unknown(&f->cpu.isa, "no cpuid");
}
/* Measured: the right kernel but 5% of the peak on one thread torch chose itself. */
static void m_measured_slow_one_thread(dl_facts *f)
{
    m_skylakex_on_avx512(f);
    dl_num_set(&main_py(f)->runtime.matmul_gflops, 25.0);
    dl_num_set(&f->cpu_measure.fp32_gflops_all, 500.0);
    dl_int_set(&main_py(f)->runtime.threads, 1);
}
static void m_measured_fast(dl_facts *f)
{
    m_prescott_on_avx512(f);
    dl_num_set(&main_py(f)->runtime.matmul_gflops, 25.0);
    dl_num_set(&f->cpu_measure.fp32_gflops_all, 100.0);
}
static void m_prescott_windows(dl_facts *f)
{
    m_prescott_on_avx512(f);
    dl_text_set(&f->os.family, "windows");
}
static void m_coretype_set_narrow(dl_facts *f)
{
    m_haswell_on_avx512(f);
    dl_dict_add(&f->environment, "OPENBLAS_CORETYPE", "Haswell");
}
static void m_omp_one(dl_facts *f)
{
    m_measured_slow_one_thread(f);
    dl_dict_add(&f->environment, "OMP_NUM_THREADS", "1");
}

/* The machine `m` makes, diagnosed; cpu_matmul_slow must be among the findings. */
static const dl_finding *matmul_finding(mutator m, dl_facts *f, dl_findings *fs)
{
    const dl_finding *x;
    healthy(f);
    m(f);
    diagnose(f, fs);
    x = find(fs, "cpu_matmul_slow");
    if (!x)
        fail_msg("cpu_matmul_slow did not fire");
    return x;
}

/* One of cpu_matmul_slow's fixes contains `needle` (or, with `absent`, none does). */
static void expect_fix(mutator m, const char *needle, bool absent)
{
    dl_facts f;
    dl_findings fs;
    const dl_finding *x = matmul_finding(m, &f, &fs);
    size_t i;
    bool seen = false;
    for (i = 0; i < x->fix.count; i++)
        seen = seen || strstr(DL_LIST_AT(x->fix, char *, i), needle);
    if (seen == absent)
        fail_msg("fix '%s' %s", needle, absent ? "given" : "missing");
    dl_findings_free(&fs);
    dl_facts_free(&f);
}

/* cpu_matmul_slow has evidence `fact` whose value contains `text`. */
static void expect_evidence(mutator m, const char *fact, const char *text)
{
    dl_facts f;
    dl_findings fs;
    const dl_finding *x = matmul_finding(m, &f, &fs);
    size_t i;
    bool seen = false;
    for (i = 0; i < x->evidence.count; i++) {
        const dl_pair *e = &DL_LIST_AT(x->evidence, dl_pair, i);
        seen = seen || (!strcmp(e->name, fact) && strstr(e->value, text));
    }
    if (!seen)
        fail_msg("no evidence %s: %s", fact, text);
    dl_findings_free(&fs);
    dl_facts_free(&f);
}

static void openblas_kernel(void **state)
{
    (void)state;
    expect(m_prescott_on_avx512, "cpu_matmul_slow", NULL);
    expect_fix(m_prescott_on_avx512, "export OPENBLAS_CORETYPE=SkylakeX", false);
    expect_fix(m_prescott_on_avx512, "apt install", true); /* OpenBLAS is already there */
    expect_fix(m_haswell_on_avx512, "OPENBLAS_CORETYPE=SkylakeX", false);
    expect_fix(m_sandybridge_on_avx2, "OPENBLAS_CORETYPE=Haswell", false);
    expect_fix(m_static_build_on_avx512, "built for HASWELL only", false);
    expect_fix(m_static_build_on_avx512, "OPENBLAS_CORETYPE", true); /* it would not obey */
    expect_fix(m_dynamic_build_on_avx512, "OPENBLAS_CORETYPE=SkylakeX", false);
    expect_not(m_skylakex_on_avx512, "cpu_matmul_slow");
    expect_not(m_zen_on_avx2, "cpu_matmul_slow");
    expect_not(m_arm_core, "cpu_matmul_slow");          /* not an x86 kernel: no judgement */
    expect_not(m_prescott_isa_unknown, "cpu_matmul_slow");
    expect_fix(m_measured_slow_one_thread, "torch.set_num_threads(8)", false);
    expect_fix(m_measured_slow_one_thread, "OPENBLAS_CORETYPE", true);
    /* Set to the cores, not removed: torch may pick one thread by itself. */
    expect_fix(m_omp_one, "export OMP_NUM_THREADS=", false);
    expect_fix(m_omp_one, "unset OMP_NUM_THREADS", true);
    expect_fix(m_coretype_set_narrow, "OPENBLAS_CORETYPE=SkylakeX", false);
    expect_evidence(m_coretype_set_narrow, "environment.OPENBLAS_CORETYPE", "Haswell (set");
    expect_fix(m_prescott_windows, "$env:OPENBLAS_CORETYPE = 'SkylakeX'", false);
    /* 25% of the peak, still the wrong kernel: said, with its fix. */
    expect_fix(m_measured_fast, "OPENBLAS_CORETYPE=SkylakeX", false);
}

/* The lowest failing layer is the root; failures above follow from it. */
static void root_cause_and_consequences(void **state)
{
    dl_facts f;
    dl_findings fs;
    const dl_finding *x;
    (void)state;
    healthy(&f);
    m_secure_boot_off_not_loaded(&f);
    m_not_available(&f);
    diagnose(&f, &fs);
    assert_string_equal(fs.root_cause.value, "driver_not_loaded");
    x = find(&fs, "no_gpu_visible");
    assert_non_null(x);
    assert_true(x->consequence.value);
    assert_false(find(&fs, "driver_not_loaded")->consequence.value);
    dl_findings_free(&fs);
    dl_facts_free(&f);
}

/* The ids come from the one catalog (rules/catalog.c), not from a copy here: every rule
 * and every error signature names an id of it, and a signature's layer is the catalog's. */
static void every_rule_has_a_documented_id(void **state)
{
    size_t i, n;
    const dl_rule *rules = dl_rule_table(&n);
    const dl_table *sig = dl_knowledge_table(&dl_test_know, "error_signatures");
    (void)state;
    for (i = 0; i < n; i++)
        if (!dl_diagnosis_find(rules[i].id) || dl_rule_layer(&rules[i]) >= DL_LAYER_COUNT)
            fail_msg("rule %s is not an id of the catalog", rules[i].id);
    assert_non_null(sig);
    assert_true(sig->rows > 0);
    for (i = 0; i < sig->rows; i++) {
        const char *id = dl_table_get(sig, i, "finding");
        const dl_diagnosis *d = dl_diagnosis_find(id);
        if (!d)
            fail_msg("signature row %zu names %s, not an id of the catalog", i + 1, id);
        else if (strcmp(dl_layer_name(d->layer), dl_table_get(sig, i, "layer")) != 0)
            fail_msg("signature row %zu puts %s in %s, the catalog in %s", i + 1, id,
                     dl_table_get(sig, i, "layer"), dl_layer_name(d->layer));
    }
}

static void unknown_id_is_never_the_root_cause(void **state)
{
    dl_findings fs;
    (void)state;
    memset(&fs, 0, sizeof fs);
    dl_finding_add(&fs, "not_in_the_catalog", DL_SEV_FAILURE, "a stray id");
    dl_finding_add(&fs, "no_python", DL_SEV_FAILURE, "no interpreter");
    assert_string_equal(DL_LIST_AT(fs.items, dl_finding, 0).layer.value, "unknown");
    assert_string_equal(DL_LIST_AT(fs.items, dl_finding, 1).layer.value, "python");
    dl_findings_mark_root(&fs);
    assert_string_equal(fs.root_cause.value, "no_python");
    dl_findings_free(&fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(healthy_machine_has_no_findings),
        cmocka_unit_test(hardware),
        cmocka_unit_test(driver),
        cmocka_unit_test(container),
        cmocka_unit_test(libraries),
        cmocka_unit_test(python),
        cmocka_unit_test(torch_build),
        cmocka_unit_test(known_bad),
        cmocka_unit_test(runtime_and_performance),
        cmocka_unit_test(openblas_kernel),
        cmocka_unit_test(root_cause_and_consequences),
        cmocka_unit_test(every_rule_has_a_documented_id),
        cmocka_unit_test(unknown_id_is_never_the_root_cause),
    };
    return cmocka_run_group_tests(tests, dl_test_know_setup, dl_test_know_teardown);
}
