/* The planner's pieces on the built-in tables: driver minimums and the CUDA a driver runs
 * (cuda_driver.csv), GPU names / compute capabilities / PCI ids, the install commands, and
 * the planner's own choices that the machine table (tests/plan) does not isolate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "know/tables.h"
#include "test_know.h"
#include "plan/commands.h"
#include "plan/driver_table.h"
#include "plan/gpu_names.h"
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>


static void driver_minimums(void **state)
{
    char out[32];
    bool from_linux;
    (void)state;
    assert_true(dl_driver_min_for_cuda(&dl_test_know, "12.6", DL_PLAN_OS_LINUX, out, sizeof out,
                                       &from_linux));
    assert_string_equal(out, "560.28.03");
    assert_false(from_linux);
    assert_true(dl_driver_min_for_cuda(&dl_test_know, "12.6", DL_PLAN_OS_WINDOWS, out, sizeof out,
                                       &from_linux));
    assert_string_equal(out, "560.76");
    /* NVIDIA publishes no Windows minimum for 13.x: the Linux one stands in, said so. */
    assert_true(dl_driver_min_for_cuda(&dl_test_know, "13.0", DL_PLAN_OS_WINDOWS, out, sizeof out,
                                       &from_linux));
    assert_string_equal(out, "580.65.06");
    assert_true(from_linux);
    assert_false(dl_driver_min_for_cuda(&dl_test_know, "9.9", DL_PLAN_OS_LINUX, out, sizeof out,
                                        &from_linux));
}

static void driver_mvc(void **state)
{
    (void)state;
    assert_string_equal(dl_driver_mvc_min(&dl_test_know, "12.6", DL_PLAN_OS_LINUX), ">=525");
    assert_string_equal(dl_driver_mvc_min(&dl_test_know, "12.6", DL_PLAN_OS_WINDOWS), ">=528.33");
    assert_string_equal(dl_driver_mvc_min(&dl_test_know, "13.2", DL_PLAN_OS_LINUX), ">=580");
    /* Unpublished for Windows 13.x: no guess. */
    assert_null(dl_driver_mvc_min(&dl_test_know, "13.2", DL_PLAN_OS_WINDOWS));
    assert_null(dl_driver_mvc_min(&dl_test_know, "10.2", DL_PLAN_OS_LINUX));
}

static void cuda_of_driver(void **state)
{
    (void)state;
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "550.54.14", DL_PLAN_OS_LINUX), 12040);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "550.54.13", DL_PLAN_OS_LINUX), 12030);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "580.65.06", DL_PLAN_OS_LINUX), 13000);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "595.45.04", DL_PLAN_OS_LINUX), 13020);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "560.94", DL_PLAN_OS_WINDOWS), 12060);
    /* The Windows form converts first: 31.0.15.3598 is 535.98 (12.2 needs 536.25). */
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "31.0.15.3598", DL_PLAN_OS_WINDOWS),
                     12010);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "418.87.01", DL_PLAN_OS_LINUX), 10010);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "340.108", DL_PLAN_OS_LINUX), 0);
    assert_int_equal(dl_driver_cuda_for_driver(&dl_test_know, "not a driver", DL_PLAN_OS_LINUX), 0);
}

static void cc_of(const char *name, unsigned major, unsigned minor)
{
    unsigned a = 0, b = 0;
    if (!dl_gpu_cc_from_name(&dl_test_know, name, &a, &b))
        fail_msg("%s: no compute capability", name);
    if (a != major || b != minor)
        fail_msg("%s: %u.%u, expected %u.%u", name, a, b, major, minor);
}

static void gpu_names(void **state)
{
    unsigned a, b;
    (void)state;
    cc_of("NVIDIA GeForce RTX 3060 Laptop GPU", 8, 6); /* as nvidia-smi prints it */
    cc_of("GeForce RTX 4090", 8, 9);
    cc_of("rtx 5090", 12, 0);                            /* short and lower case */
    cc_of("GeForce GTX 1080 Ti", 6, 1);                  /* not the plain 1080's row */
    assert_false(dl_gpu_cc_from_name(&dl_test_know, "Voodoo 3", &a, &b));
    assert_int_equal(dl_gpu_vendor_of_name("AMD Radeon RX 7900 XTX"), DL_GPU_AMD);
    assert_int_equal(dl_gpu_vendor_of_name("Intel(R) Arc(TM) A770"), DL_GPU_INTEL);
    assert_int_equal(dl_gpu_vendor_of_name("Intel Arc A770"), DL_GPU_INTEL);
    assert_int_equal(dl_gpu_vendor_of_name("NVIDIA GeForce RTX 3060"), DL_GPU_NVIDIA);
    /* "Arc" inside a word is not Intel's. */
    assert_int_equal(dl_gpu_vendor_of_name("Search GPU"), DL_GPU_NVIDIA);
}

static void gpu_cc_and_pci_text(void **state)
{
    unsigned a = 0, b = 0;
    long v, d;
    (void)state;
    assert_true(dl_gpu_cc_from_text("8.6", &a, &b));
    assert_true(a == 8 && b == 6);
    assert_true(dl_gpu_cc_from_text("sm_120", &a, &b));
    assert_true(a == 12 && b == 0);
    assert_true(dl_gpu_cc_from_text("compute_75", &a, &b));
    assert_true(a == 7 && b == 5);
    assert_false(dl_gpu_cc_from_text("RTX 3060", &a, &b));
    assert_false(dl_gpu_cc_from_text("0.0", &a, &b));
    assert_true(dl_gpu_pci_id_parse("10de:2684", &v, &d));
    assert_true(v == 0x10de && d == 0x2684);
    assert_false(dl_gpu_pci_id_parse("10de2684", &v, &d));
    assert_false(dl_gpu_pci_id_parse("zzzz:2684", &v, &d));
    assert_false(dl_gpu_pci_id_parse("10de:26845", &v, &d));
    assert_int_equal(dl_gpu_vendor_of_pci(0x1002), DL_GPU_AMD);
}

static dl_plan_machine linux_machine(unsigned py_major, unsigned py_minor)
{
    dl_plan_machine m;
    memset(&m, 0, sizeof m);
    m.os = DL_PLAN_OS_LINUX;
    strcpy(m.arch, "x86_64");
    m.py_major = py_major;
    m.py_minor = py_minor;
    m.py_bits = 64;
    return m;
}

static void plan_for(const dl_plan_machine *m, const char *torch, dl_plan_want want,
                     dl_plan *p)
{
    dl_plan_constraints cons;
    char *error = NULL;
    cons.want = want;
    cons.torch = torch;
    if (!dl_plan_make(&dl_test_know, m, &cons, p, &error))
        fail_msg("plan failed: %s", error);
}

static void commands(void **state)
{
    dl_plan_machine m = linux_machine(3, 12);
    dl_plan p;
    dl_plan_commands c;
    (void)state;
    plan_for(&m, "2.9.1", DL_WANT_CPU, &p);
    assert_true(p.best >= 0);
    dl_python_command py;
    dl_python_command_make(DL_SHELL_POSIX, "/v/bin/python", false, NULL, &m, &py);
    dl_plan_commands_make(&dl_test_know, &p, &p.c[p.best], &m, &py,
                          "https://mirror.example/whl/", &c);
    assert_string_equal(c.packages, "torch==2.9.1 torchvision==0.24.1 torchaudio==2.9.1");
    assert_string_equal(c.index_url, "https://mirror.example/whl/cpu");
    assert_string_equal(c.pip, "/v/bin/python -m pip install torch==2.9.1 torchvision==0.24.1 "
                               "torchaudio==2.9.1 --index-url https://mirror.example/whl/cpu");
    assert_string_equal(c.uv, "uv pip install --python /v/bin/python torch==2.9.1 "
                              "torchvision==0.24.1 torchaudio==2.9.1 --index-url "
                              "https://mirror.example/whl/cpu");
    /* PyPI's platform tag for 2.9.1 on Linux x86-64. */
    assert_string_equal(c.torch_wheel, "torch-2.9.1+cpu-cp312-cp312-manylinux_2_28_x86_64.whl");
    assert_non_null(strstr(c.torch_url, "/cpu/torch-2.9.1%2Bcpu-cp312-cp312-"));
    assert_non_null(strstr(c.download, "--python-version 3.12 --platform manylinux_2_28_x86_64"));
    assert_string_equal(c.conda, "conda create -y -n torch python=3.12 && conda run -n torch "
                                 "python -m pip install torch==2.9.1 torchvision==0.24.1 "
                                 "torchaudio==2.9.1 --index-url https://mirror.example/whl/cpu");
    dl_plan_commands_free(&c);
    dl_python_command_free(&py);
    dl_plan_free(&p);
}

/* Paths and a mirror that a shell would expand or split come out quoted, in the syntax of
 * the machine's shell. */
static void commands_quote_values(void **state)
{
    dl_plan_machine m = linux_machine(3, 12);
    dl_plan p;
    dl_plan_commands c;
    dl_python_command py;
    (void)state;
    plan_for(&m, "2.9.1", DL_WANT_CPU, &p);
    dl_python_command_make(DL_SHELL_POSIX, "/tmp/x$(touch P)/it's v/bin/python", false,
                           "/opt/my envs/t", &m, &py);
    dl_plan_commands_make(&dl_test_know, &p, &p.c[p.best], &m, &py, "https://m.example/a b;c",
                          &c);
    assert_string_equal(c.pip, "'/tmp/x$(touch P)/it'\\''s v/bin/python' -m pip install "
                               "torch==2.9.1 torchvision==0.24.1 torchaudio==2.9.1 "
                               "--index-url 'https://m.example/a b;c/cpu'");
    assert_non_null(strstr(c.uv, "--python '/tmp/x$(touch P)/it'\\''s v/bin/python' "));
    assert_string_equal(c.conda, "conda run -p '/opt/my envs/t' python -m pip install "
                                 "torch==2.9.1 torchvision==0.24.1 torchaudio==2.9.1 "
                                 "--index-url 'https://m.example/a b;c/cpu'");
    dl_plan_commands_free(&c);
    dl_python_command_free(&py);
    m.os = DL_PLAN_OS_WINDOWS;
    dl_python_command_make(DL_SHELL_POWERSHELL, "C:\\Program Files\\Python312\\python.exe",
                           false, NULL, &m, &py);
    dl_plan_commands_make(&dl_test_know, &p, &p.c[p.best], &m, &py, NULL, &c);
    assert_true(dl_starts_with(c.pip, "& 'C:\\Program Files\\Python312\\python.exe' -m pip "
                                      "install "));
    assert_true(dl_starts_with(c.uv, "uv pip install --python 'C:\\Program "
                                     "Files\\Python312\\python.exe' "));
    dl_plan_commands_free(&c);
    dl_python_command_free(&py);
    dl_plan_free(&p);
}

static void free_threaded_wheel_name(void **state)
{
    dl_plan_machine m = linux_machine(3, 14);
    dl_plan p;
    dl_plan_commands c;
    dl_python_command py;
    (void)state;
    m.py_free_threaded = true;
    plan_for(&m, "2.15.0", DL_WANT_CPU, &p);
    assert_true(p.best >= 0);
    assert_string_equal(p.python_tag, "cp314t");
    dl_python_command_make(DL_SHELL_POSIX, NULL, false, NULL, &m, &py);
    dl_plan_commands_make(&dl_test_know, &p, &p.c[p.best], &m, &py, NULL, &c);
    assert_string_equal(c.torch_wheel, "torch-2.15.0+cpu-cp314-cp314t-manylinux_2_28_x86_64.whl");
    /* The free-threaded interpreter, by its own name: python3.14 would be the GIL build. */
    assert_true(dl_starts_with(c.pip, "python3.14t -m pip install torch==2.15.0 "));
    assert_string_equal(c.uv, "uv pip install --python 3.14t torch==2.15.0 torchvision==0.29.2 "
                              "--index-url https://download.pytorch.org/whl/cpu");
    dl_plan_commands_free(&c);
    dl_python_command_free(&py);
    dl_plan_free(&p);
}

static void macos_uses_pypi(void **state)
{
    dl_plan_machine m = linux_machine(3, 12);
    dl_plan p;
    dl_plan_commands c;
    dl_python_command py;
    (void)state;
    m.os = DL_PLAN_OS_MACOS;
    strcpy(m.arch, "arm64");
    plan_for(&m, NULL, DL_WANT_ANY, &p);
    assert_true(p.best >= 0);
    assert_string_equal(p.c[p.best].variant, "macos");
    dl_python_command_make(DL_SHELL_POSIX, NULL, false, NULL, &m, &py);
    dl_plan_commands_make(&dl_test_know, &p, &p.c[p.best], &m, &py, NULL, &c);
    assert_null(c.index_url);
    assert_null(strstr(c.pip, "--index-url"));
    dl_plan_commands_free(&c);
    dl_python_command_free(&py);
    dl_plan_free(&p);
}

static void constraints(void **state)
{
    dl_plan_machine m = linux_machine(3, 11);
    dl_plan_constraints cons = {DL_WANT_ANY, "2.3 or so"};
    dl_plan p;
    char *error = NULL;
    (void)state;
    assert_false(dl_plan_make(&dl_test_know, &m, &cons, &p, &error));
    assert_non_null(strstr(error, "--torch '2.3 or so'"));
    free(error);
    plan_for(&m, ">=2.1,<2.2", DL_WANT_CPU, &p);
    assert_string_equal(p.c[p.best].torch, "2.1.2");
    dl_plan_free(&p);
    plan_for(&m, "2.1.0", DL_WANT_CPU, &p);
    assert_string_equal(p.c[p.best].torch, "2.1.0");
    dl_plan_free(&p);
}

static void every_failure_is_recorded(void **state)
{
    /* A 32-bit Python with an NVIDIA GPU and an old driver: a CUDA candidate fails for
     * each reason at once, so "after a driver update" is never offered past a blocker. */
    dl_plan_machine m = linux_machine(3, 12);
    dl_plan p;
    size_t i;
    (void)state;
    m.py_bits = 32;
    m.n_gpus = 1;
    m.gpus[0].vendor = DL_GPU_NVIDIA;
    m.gpus[0].cc_major = 8;
    m.gpus[0].cc_minor = 6;
    strcpy(m.driver, "470.82.01");
    plan_for(&m, NULL, DL_WANT_ANY, &p);
    assert_int_equal(p.best, -1);
    assert_int_equal(p.after_driver_update, -1);
    for (i = 0; i < p.n; i++)
        if (!strcmp(p.c[i].torch, "2.15.0") && !strcmp(p.c[i].variant, "cu132")) {
            assert_true(p.c[i].fails & (1u << DL_REJ_PYTHON_32BIT));
            assert_true(p.c[i].fails & (1u << DL_REJ_DRIVER));
            assert_int_equal(dl_plan_first_reason(&p.c[i]), DL_REJ_PYTHON_32BIT);
        }
    dl_plan_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(driver_minimums),
        cmocka_unit_test(driver_mvc),
        cmocka_unit_test(cuda_of_driver),
        cmocka_unit_test(gpu_names),
        cmocka_unit_test(gpu_cc_and_pci_text),
        cmocka_unit_test(commands),
        cmocka_unit_test(commands_quote_values),
        cmocka_unit_test(free_threaded_wheel_name),
        cmocka_unit_test(macos_uses_pypi),
        cmocka_unit_test(constraints),
        cmocka_unit_test(every_failure_is_recorded),
    };
    return cmocka_run_group_tests(tests, dl_test_know_setup, dl_test_know_teardown);
}
