/* dlenv diff's pieces: the schema walk (groups, identities, volatile values, the
 * headline), findings that appeared or went away, and the snapshot document both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "diff/facts_diff.h"
#include "diff/snapshot.h"

#include <stdlib.h>
#include <string.h>

static dl_site_packages *site(dl_python *py, const char *path)
{
    dl_site_packages *s = dl_list_push(&py->site_packages, sizeof *s);
    dl_text_set(&s->path, path);
    dl_text_set(&s->scope, "prefix");
    dl_list_known(&s->packages);
    dl_list_known(&s->torches);
    return s;
}

static void package(dl_site_packages *s, const char *name, const char *version)
{
    dl_py_package *p = dl_list_push(&s->packages, sizeof *p);
    dl_text_set(&p->name, name);
    dl_text_set(&p->version, version);
    dl_text_set(&p->installer, "pip");
}

/* A machine with a GPU, a driver, one venv with a CUDA torch and a loader search. */
static void machine(dl_facts *f, const char *driver, const char *torch)
{
    dl_nvml_gpu *g;
    dl_python *py;
    dl_site_packages *s;
    dl_torch_install *t;
    dl_library_lookup *lib;
    dl_library_copy *copy;
    dl_facts_init(f);
    dl_text_set(&f->os.family, "linux");
    dl_int_set(&f->memory.total_bytes, 34359738368LL);
    dl_int_set(&f->memory.available_bytes, 20000000000LL);
    dl_list_known(&f->nvidia_kernel.loaded_modules);
    dl_textlist_add(&f->nvidia_kernel.loaded_modules, "nvidia");
    dl_textlist_add(&f->nvidia_kernel.loaded_modules, "nvidia_uvm");
    dl_text_set(&f->nvml.driver_version, driver);
    g = dl_list_push(&f->nvml.gpus, sizeof *g);
    dl_int_set(&g->index, 0);
    dl_text_set(&g->uuid, "GPU-1234");
    dl_text_set(&g->name, "NVIDIA GeForce RTX 4090");
    dl_int_set(&g->memory_used_bytes, 1024);
    dl_int_set(&g->sm_clock_mhz, 210);
    dl_dict_add(&f->environment, "PATH", "/usr/bin:/bin");
    lib = dl_list_push(&f->libraries, sizeof *lib);
    dl_text_set(&lib->name, "libcudart.so.12");
    dl_text_set(&lib->chosen, "/usr/local/cuda/lib64/libcudart.so.12");
    copy = dl_list_push(&lib->copies, sizeof *copy);
    dl_text_set(&copy->path, "/usr/local/cuda/lib64/libcudart.so.12");
    dl_text_set(&copy->version, "12.4.127");
    dl_flag_set(&copy->chosen, true);
    py = dl_list_push(&f->pythons, sizeof *py);
    dl_text_set(&py->path, "/home/ana/venv/bin/python");
    dl_text_set(&py->version, "3.11.9");
    s = site(py, "/home/ana/venv/lib/python3.11/site-packages");
    package(s, "torch", torch);
    package(s, "nvidia-cudnn-cu12", "8.9.2.26");
    t = dl_list_push(&s->torches, sizeof *t);
    dl_text_set(&t->location, "/home/ana/venv/lib/python3.11/site-packages/torch");
    dl_text_set(&t->version, torch);
    dl_text_set(&t->local_tag, strchr(torch, '+') ? strchr(torch, '+') + 1 : "none");
    dl_text_set(&py->runtime.version, torch);
    dl_flag_set(&py->runtime.cuda_available, strstr(torch, "+cu") != NULL);
}

static const dl_fact_change *find(const dl_diff *d, const char *path)
{
    size_t i;
    for (i = 0; i < d->n_facts; i++)
        if (!strcmp(d->facts[i].path, path))
            return &d->facts[i];
    return NULL;
}

static void same_machine_is_equal(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    (void)state;
    machine(&a, "550.54.14", "2.3.1+cu121");
    machine(&b, "550.54.14", "2.3.1+cu121");
    /* what changes minute to minute on the same machine */
    dl_int_set(&b.memory.available_bytes, 12345);
    DL_LIST_AT(b.nvml.gpus, dl_nvml_gpu, 0).sm_clock_mhz.value = 2520;
    DL_LIST_AT(b.nvml.gpus, dl_nvml_gpu, 0).memory_used_bytes.value = 1u << 30;
    dl_diff_facts(&a, &b, false, &d);
    assert_int_equal(d.n_facts, 0);
    assert_int_equal(d.n_volatile, 3);
    assert_true(dl_diff_equal(&d));
    assert_null(dl_diff_headline(&d));
    dl_diff_free(&d);
    /* -v keeps them, marked, and they still do not make a difference */
    dl_diff_facts(&a, &b, true, &d);
    assert_int_equal(d.n_facts, 3);
    assert_true(find(&d, "memory.available_bytes")->volatile_value);
    assert_true(find(&d, "memory.available_bytes")->bytes);
    assert_true(dl_diff_equal(&d));
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void driver_update_leads(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    const dl_fact_change *c;
    (void)state;
    machine(&a, "535.104.05", "2.3.1+cu121");
    machine(&b, "550.54.14", "2.3.1+cu121");
    dl_text_set(&b.os.family, "Linux"); /* a change in "the rest", found first in the walk */
    dl_diff_facts(&a, &b, false, &d);
    assert_int_equal(d.n_facts, 2);
    c = &d.facts[0];
    assert_string_equal(c->path, "nvml.driver_version");
    assert_string_equal(c->label, "NVML > Driver");
    assert_int_equal(c->group, DL_DIFF_DRIVER);
    assert_int_equal(c->kind, DL_DIFF_CHANGED);
    assert_string_equal(c->old_value, "535.104.05");
    assert_string_equal(c->new_value, "550.54.14");
    assert_int_equal(d.facts[1].group, DL_DIFF_OTHER);
    assert_ptr_equal(dl_diff_headline(&d), c);
    assert_false(dl_diff_equal(&d));
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void cpu_build_replacing_cuda_is_the_headline(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    const dl_fact_change *h;
    (void)state;
    machine(&a, "535.104.05", "2.3.1+cu121");
    machine(&b, "550.54.14", "2.3.1+cpu"); /* the driver changed too: it comes first */
    dl_diff_facts(&a, &b, false, &d);
    assert_int_equal(d.facts[0].group, DL_DIFF_DRIVER);
    h = dl_diff_headline(&d);
    assert_non_null(h);
    assert_int_equal(h->importance, DL_DIFF_HIGH);
    assert_int_equal(h->group, DL_DIFF_TORCH);
    assert_string_equal(h->note, "a GPU build of torch was replaced by a CPU-only build");
    /* packages are matched by name, interpreters and sites by path */
    assert_non_null(find(&d, "pythons[/home/ana/venv/bin/python].site_packages["
                             "/home/ana/venv/lib/python3.11/site-packages].packages[torch]"
                             ".version"));
    h = find(&d, "pythons[/home/ana/venv/bin/python].site_packages["
                 "/home/ana/venv/lib/python3.11/site-packages].torches["
                 "/home/ana/venv/lib/python3.11/site-packages/torch].local_tag");
    assert_non_null(h);
    assert_string_equal(h->old_value, "cu121");
    assert_string_equal(h->new_value, "cpu");
    /* the torch's location shortened inside its site-packages */
    assert_string_equal(h->label, "Python interpreters /home/ana/venv/bin/python > Site packages "
                                  "/home/ana/venv/lib/python3.11/site-packages > torch .../torch"
                                  " > Variant");
    h = find(&d, "pythons[/home/ana/venv/bin/python].runtime.cuda_available");
    assert_int_equal(h->importance, DL_DIFF_HIGH);
    assert_string_equal(h->note, "torch no longer sees CUDA");
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void near_miss_cpu_to_cuda_is_not_high(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    (void)state;
    machine(&a, "550.54.14", "2.3.1+cpu");
    machine(&b, "550.54.14", "2.3.1+cu121"); /* the other way round is an improvement */
    dl_diff_facts(&a, &b, false, &d);
    assert_true(d.n_facts > 0);
    assert_int_equal(dl_diff_headline(&d)->importance, DL_DIFF_MEDIUM);
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void items_and_lists(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    dl_library_copy *copy;
    dl_python *other;
    const dl_fact_change *c;
    (void)state;
    machine(&a, "550.54.14", "2.3.1+cu121");
    machine(&b, "550.54.14", "2.3.1+cu121");
    /* a new copy of libcudart first on the path, which the loader now picks */
    copy = dl_list_push(&DL_LIST_AT(b.libraries, dl_library_lookup, 0).copies, sizeof *copy);
    dl_text_set(&copy->path, "/opt/old/libcudart.so.12");
    dl_text_set(&copy->version, "12.1.105");
    dl_text_set(&DL_LIST_AT(b.libraries, dl_library_lookup, 0).chosen, "/opt/old/libcudart.so.12");
    /* a second interpreter; the module list reordered; a variable set */
    other = dl_list_push(&b.pythons, sizeof *other);
    dl_text_set(&other->path, "/usr/bin/python3");
    dl_text_set(&other->version, "3.12.3");
    dl_list_known(&b.nvidia_kernel.loaded_modules);
    free(DL_LIST_AT(b.nvidia_kernel.loaded_modules, char *, 0));
    DL_LIST_AT(b.nvidia_kernel.loaded_modules, char *, 0) = dl_strdup("nvidia_uvm");
    free(DL_LIST_AT(b.nvidia_kernel.loaded_modules, char *, 1));
    DL_LIST_AT(b.nvidia_kernel.loaded_modules, char *, 1) = dl_strdup("nvidia");
    dl_dict_add(&b.environment, "LD_LIBRARY_PATH", "/opt/old");
    dl_diff_facts(&a, &b, false, &d);
    c = find(&d, "libraries[libcudart.so.12].copies[/opt/old/libcudart.so.12]");
    assert_non_null(c);
    assert_int_equal(c->kind, DL_DIFF_ADDED);
    assert_int_equal(c->group, DL_DIFF_LIBRARIES);
    assert_string_equal(c->new_value, "/opt/old/libcudart.so.12 12.1.105");
    assert_null(c->old_value);
    c = find(&d, "libraries[libcudart.so.12].chosen");
    assert_string_equal(c->label, "Library search libcudart.so.12 > Loader picks");
    c = find(&d, "pythons[/usr/bin/python3]");
    assert_int_equal(c->kind, DL_DIFF_ADDED);
    assert_int_equal(c->group, DL_DIFF_PYTHON);
    assert_string_equal(c->new_value, "/usr/bin/python3 3.12.3");
    c = find(&d, "nvidia_kernel.loaded_modules");
    assert_int_equal(c->kind, DL_DIFF_CHANGED);
    assert_string_equal(c->old_value, "nvidia, nvidia_uvm");
    assert_string_equal(c->new_value, "nvidia_uvm, nvidia");
    c = find(&d, "environment.LD_LIBRARY_PATH");
    assert_int_equal(c->group, DL_DIFF_SETTINGS);
    assert_int_equal(c->kind, DL_DIFF_ADDED);
    /* in group order: driver, ..., Python, libraries, settings */
    assert_int_equal(d.facts[0].group, DL_DIFF_DRIVER);
    assert_int_equal(d.facts[d.n_facts - 1].group, DL_DIFF_SETTINGS);
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void unknown_and_absent_lists(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    const dl_fact_change *c;
    (void)state;
    machine(&a, "550.54.14", "2.3.1+cu121");
    machine(&b, "550.54.14", "2.3.1+cu121");
    dl_list_known(&b.cuda_toolkits); /* absent before (an older snapshot), empty now */
    dl_list_unknown(&b.cuda_driver.devices, "cuInit failed");
    dl_list_known(&a.cuda_driver.devices);
    dl_diff_facts(&a, &b, false, &d);
    assert_null(find(&d, "cuda_toolkits"));
    c = find(&d, "cuda_driver.devices");
    assert_non_null(c);
    assert_string_equal(c->old_value, "0 items");
    assert_string_equal(c->new_value, "unknown: cuInit failed");
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static const dl_fact_change *find_ending(const dl_diff *d, const char *end)
{
    size_t i, n = strlen(end);
    for (i = 0; i < d->n_facts; i++)
        if (strlen(d->facts[i].path) >= n &&
            !strcmp(d->facts[i].path + strlen(d->facts[i].path) - n, end))
            return &d->facts[i];
    return NULL;
}

/* A key an older dlenv did not record: absent against "unknown: ..." tells nothing and is
 * volatile; absent against a value is that value added. */
static void absent_key_against_unknown(void **state)
{
    dl_facts a, b;
    dl_diff d = {0};
    const dl_fact_change *c;
    (void)state;
    machine(&a, "550.54.14", "2.3.1+cu121");
    machine(&b, "550.54.14", "2.3.1+cu121");
    dl_text_unknown(&DL_LIST_AT(b.pythons, dl_python, 0).runtime.blas_core,
                    "no OpenBLAS in this process");
    dl_diff_facts(&a, &b, false, &d);
    assert_int_equal(d.n_facts, 0);
    assert_true(d.n_volatile >= 1);
    dl_diff_free(&d);
    dl_text_set(&DL_LIST_AT(b.pythons, dl_python, 0).runtime.blas_core, "SkylakeX");
    memset(&d, 0, sizeof d);
    dl_diff_facts(&a, &b, false, &d);
    c = find_ending(&d, "blas_core");
    assert_non_null(c);
    assert_int_equal(c->kind, DL_DIFF_ADDED);
    assert_string_equal(c->new_value, "SkylakeX");
    dl_diff_free(&d);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void finding(dl_findings *f, const char *id, const char *severity, const char *subject)
{
    dl_finding *x = dl_list_push(&f->items, sizeof *x);
    dl_text_set(&x->id, id);
    dl_text_set(&x->layer, "driver");
    dl_text_set(&x->severity, severity);
    dl_text_set(&x->title, id);
    dl_dict_add(&x->evidence, subject, "value");
}

static void findings_appear_and_go(void **state)
{
    dl_findings a, b;
    dl_diff d = {0};
    (void)state;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    finding(&a, "hags_enabled", "info", "os.windows.hags");
    finding(&a, "torchvision_mismatch", "warning", "pythons[0]");
    finding(&a, "pip_python_mismatch", "failure", "pythons[0].path");
    finding(&b, "pip_python_mismatch", "failure", "pythons[0].path");
    finding(&b, "torchvision_mismatch", "failure", "pythons[0]");
    finding(&b, "no_gpu_visible", "warning", "nvml.gpus");
    finding(&b, "cpu_only_build", "failure", "pythons[0].runtime.cuda");
    finding(&b, "cpu_only_build", "failure", "pythons[1].runtime.cuda"); /* per interpreter */
    dl_diff_findings(&a, &b, &d);
    assert_int_equal(d.n_findings, 5);
    /* appeared (failures first), changed, went away */
    assert_int_equal(d.findings[0].kind, DL_FINDING_APPEARED);
    assert_string_equal(d.findings[0].id, "cpu_only_build");
    assert_string_equal(d.findings[0].subject, "pythons[0].runtime.cuda");
    assert_string_equal(d.findings[1].subject, "pythons[1].runtime.cuda");
    assert_string_equal(d.findings[2].id, "no_gpu_visible");
    assert_int_equal(d.findings[3].kind, DL_FINDING_SEVERITY);
    assert_string_equal(d.findings[3].old_severity, "warning");
    assert_string_equal(d.findings[3].severity, "failure");
    assert_int_equal(d.findings[4].kind, DL_FINDING_GONE);
    assert_string_equal(d.findings[4].id, "hags_enabled");
    assert_false(dl_diff_equal(&d));
    dl_diff_free(&d);
    dl_findings_free(&a);
    dl_findings_free(&b);
}

/* ---- the snapshot document ---------------------------------------------------------- */

static void snapshot_round_trip(void **state)
{
    dl_snapshot s, back;
    char *text, *again, *error = NULL;
    dl_diff d = {0};
    (void)state;
    memset(&s, 0, sizeof s);
    machine(&s.facts, "550.54.14", "2.3.1+cu121");
    finding(&s.findings, "hags_enabled", "info", "os.windows.hags");
    s.taken_at = dl_strdup("2025-03-01T09:30:00Z");
    s.host = dl_strdup("ana-pc");
    text = dl_snapshot_to_json_text(&s);
    assert_non_null(strstr(text, "\"schema\":\t\"dlenv.snapshot/1\""));
    /* A machine of a few facts: the layers without them cannot be judged, whatever the
     * findings say. */
    assert_non_null(strstr(text, "\"verdict\":\t\"cannot_judge\""));
    assert_non_null(strstr(text, "\"root_cause\":\tnull"));
    assert_true(dl_snapshot_from_json_text(text, strlen(text), &back, &error));
    assert_string_equal(back.schema, "dlenv.snapshot/1");
    assert_string_equal(back.taken_at, "2025-03-01T09:30:00Z");
    assert_string_equal(back.host, "ana-pc");
    assert_true(back.has_findings);
    again = dl_snapshot_to_json_text(&back);
    assert_string_equal(text, again);
    dl_diff_facts(&s.facts, &back.facts, true, &d);
    dl_diff_findings(&s.findings, &back.findings, &d);
    assert_int_equal(d.n_facts + d.n_findings, 0);
    dl_diff_free(&d);
    free(text);
    free(again);
    dl_snapshot_free(&s);
    dl_snapshot_free(&back);
}

static void expect_error(const char *text, const char *error_text)
{
    dl_snapshot s;
    char *error = NULL;
    assert_false(dl_snapshot_from_json_text(text, strlen(text), &s, &error));
    assert_string_equal(error, error_text);
    assert_null(s.schema);
    free(error);
}

static void snapshot_errors(void **state)
{
    (void)state;
    expect_error("", "empty, not JSON");
    expect_error("{\"schema\": \"dlenv.snapshot/1\",\n \"facts\": {\"os\": ",
                 "not valid JSON (line 2, column 18): the document ends early");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"facts\": {}} x",
                 "not valid JSON: more text after the document (line 1, column 45)");
    expect_error("[1, 2]", "$: expected an object");
    expect_error("{\"name\": \"left-pad\"}",
                 "not a dlenv snapshot (no \"schema\": \"dlenv.snapshot/N\")");
    expect_error("{\"schema\": \"dlenv.plan/1\"}",
                 "$.schema: \"dlenv.plan/1\" is not a dlenv snapshot, report, doctor or "
                 "verify document");
    expect_error("{\"schema\": \"dlenv.snapshot/2\", \"facts\": {}}",
                 "$.schema: \"dlenv.snapshot/2\" is newer than this dlenv reads "
                 "(dlenv.snapshot/1): update dlenv");
    expect_error("{\"schema\": \"dlenv.snapshot/1\"}", "$.facts: missing");
    /* strict as the reports' reader: a string cut at a bad escape, a NUL in a key, two
     * documents, a major version it does not know in the facts */
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"host\": \"a\\uZZZZb\", \"facts\": {}}",
                 "not valid JSON (line 1, column 44): a \\u escape needs four hexadecimal "
                 "digits");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"facts\\u0000x\": {}}",
                 "not valid JSON (line 1, column 44): \\u0000 (a NUL character) in a string");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"facts\": {}}{}",
                 "not valid JSON: more text after the document (line 1, column 44)");
    /* a finding is nothing without its id */
    expect_error("{\"schema\": \"dlenv.doctor/1\", \"findings\": [{\"layer\": \"driver\", "
                 "\"severity\": \"failure\", \"title\": \"t\"}], \"facts\": {}}",
                 "$.findings[0].id: missing (every finding has an id, a layer, a severity and "
                 "a title)");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"facts\": {\"schema\": \"dlenv.report/7\"}}",
                 "$.facts.schema: \"dlenv.report/7\" is newer than this dlenv reads "
                 "(dlenv.report/1): update dlenv");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"host\": 3, \"facts\": {}}",
                 "$.host: expected a string");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"facts\": {\"nvml\": "
                 "{\"cuda_driver_version\": \"12.4\"}}}",
                 "$.facts.nvml.cuda_driver_version: expected an integer");
    expect_error("{\"schema\": \"dlenv.snapshot/1\", \"facts\": {}, \"findings\": [{\"id\": 1}]}",
                 "$.findings[0].id: expected a string");
}

static void older_forms_read(void **state)
{
    dl_snapshot s;
    char *error = NULL;
    /* an older snapshot: no host, no findings, facts without the newer keys */
    const char *old = "{\"schema\": \"dlenv.snapshot/0\", \"taken_at\": \"2024-01-01T00:00:00Z\","
                      " \"facts\": {\"schema\": \"dlenv.report/1\", \"nvml\": "
                      "{\"driver_version\": \"535.104.05\"}, \"a_key_from_elsewhere\": 1}}";
    const char *report = "{\"schema\": \"dlenv.report/1\", \"os\": {\"family\": \"linux\"}}";
    const char *doctor = "{\"schema\": \"dlenv.doctor/1\", \"root_cause\": null, \"findings\": "
                         "[{\"id\": \"no_gpu\", \"layer\": \"hardware\", \"severity\": "
                         "\"info\", \"title\": \"No GPU\"}], \"facts\": {}}";
    (void)state;
    assert_true(dl_snapshot_from_json_text(old, strlen(old), &s, &error));
    assert_string_equal(s.facts.nvml.driver_version.value, "535.104.05");
    assert_null(s.host);
    assert_false(s.has_findings);
    dl_snapshot_free(&s);
    assert_true(dl_snapshot_from_json_text(report, strlen(report), &s, &error));
    assert_string_equal(s.schema, "dlenv.report/1");
    assert_string_equal(s.facts.os.family.value, "linux");
    assert_null(s.taken_at);
    assert_false(s.has_findings);
    dl_snapshot_free(&s);
    assert_true(dl_snapshot_from_json_text(doctor, strlen(doctor), &s, &error));
    assert_true(s.has_findings);
    assert_int_equal(s.findings.items.count, 1);
    assert_null(s.findings.root_cause.value);
    dl_snapshot_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_machine_is_equal),
        cmocka_unit_test(driver_update_leads),
        cmocka_unit_test(cpu_build_replacing_cuda_is_the_headline),
        cmocka_unit_test(near_miss_cpu_to_cuda_is_not_high),
        cmocka_unit_test(items_and_lists),
        cmocka_unit_test(unknown_and_absent_lists),
        cmocka_unit_test(absent_key_against_unknown),
        cmocka_unit_test(findings_appear_and_go),
        cmocka_unit_test(snapshot_round_trip),
        cmocka_unit_test(snapshot_errors),
        cmocka_unit_test(older_forms_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
