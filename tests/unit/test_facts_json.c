#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "facts/facts_json.h"
#include "facts/json_check.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Facts with every kind of value: known, unknown, absent, lists, dictionaries. */
static void build(dl_facts *f)
{
    dl_pci_gpu *g;
    dl_probe_run *r;
    dl_facts_init(f);
    dl_text_set(&f->tool.name, "dlenv");
    dl_text_set(&f->tool.version, "0.1.0");
    r = dl_list_push(&f->tool.probes, sizeof *r);
    dl_text_set(&r->name, "pci");
    dl_text_set(&r->status, "no_permission");
    dl_text_set(&r->detail, "cannot list /sys/bus/pci/devices: Permission denied");
    dl_num_set(&r->duration_ms, 0.123456789);
    dl_text_set(&f->os.family, "linux");
    dl_text_unknown(&f->os.distro_version, "/etc/os-release has no VERSION_ID");
    dl_text_set(&f->os.pretty_name, "Caf\xE9 Linux");
    dl_flag_set(&f->os.wsl.detected, true);
    dl_int_set(&f->os.wsl.version, 2);
    dl_textlist_add(&f->os.wsl.evidence, "/dev/dxg exists");
    dl_flag_unknown(&f->os.container.detected, "no /proc");
    dl_list_known(&f->cpu.isa);
    dl_textlist_add(&f->cpu.isa, "avx2");
    dl_textlist_add(&f->cpu.isa, "fma");
    dl_int_set(&f->memory.total_bytes, 68719476736LL);
    dl_int_unknown(&f->memory.available_bytes, "/proc/meminfo has no readable MemAvailable line");
    g = dl_list_push(&f->gpus, sizeof *g);
    dl_text_set(&g->address, "0000:01:00.0");
    dl_int_set(&g->class_code, 0x030200);
    dl_int_set(&g->vendor_id, 0x10de);
    dl_int_set(&g->device_id, 0x2684);
    dl_text_set(&g->driver, "nvidia");
    dl_text_unknown(&g->device_name, "pci.ids has no entry for 10de:2684");
    dl_dict_add(&f->environment, "CUDA_VISIBLE_DEVICES", "");
    dl_dict_add(&f->environment, "PATH", "/usr/bin:/bin");
}

static void round_trip_gives_equal_facts(void **state)
{
    dl_facts a, b;
    char *ja, *jb, *error = NULL;
    (void)state;
    build(&a);
    ja = dl_facts_to_json_text(&a, true);
    assert_true(dl_facts_from_json_text(ja, strlen(ja), &b, &error));
    jb = dl_facts_to_json_text(&b, true);
    assert_string_equal(ja, jb);
    assert_string_equal(b.os.distro_version.why, "/etc/os-release has no VERSION_ID");
    assert_null(b.os.distro_version.value);
    assert_int_equal(DL_LIST_AT(b.gpus, dl_pci_gpu, 0).vendor_id.value, 0x10de);
    assert_string_equal(dl_dict_get(&b.environment, "CUDA_VISIBLE_DEVICES"), "");
    assert_true(DL_LIST_AT(b.tool.probes, dl_probe_run, 0).duration_ms.value == 0.123456789);
    assert_false(b.os.distro_id.value || b.os.distro_id.why); /* absent stays absent */
    free(ja);
    free(jb);
    dl_facts_free(&a);
    dl_facts_free(&b);
}

static void json_shape_is_documented_form(void **state)
{
    dl_facts a;
    char *text;
    cJSON *j, *gpu, *why;
    (void)state;
    build(&a);
    text = dl_facts_to_json_text(&a, false);
    j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "schema")->valuestring, "dlenv.report/1");
    gpu = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "gpus"), 0);
    assert_string_equal(cJSON_GetObjectItem(gpu, "vendor_id")->valuestring, "0x10de");
    assert_string_equal(cJSON_GetObjectItem(gpu, "class_code")->valuestring, "0x030200");
    why = cJSON_GetObjectItem(cJSON_GetObjectItem(gpu, "device_name"), "unknown");
    assert_string_equal(why->valuestring, "pci.ids has no entry for 10de:2684");
    /* invalid UTF-8 never reaches the JSON */
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetObjectItem(j, "os"), "pretty_name")->valuestring,
        "Caf\\xE9 Linux");
    /* a list never gathered is absent, not an empty list */
    assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "os"), "libc_name"));
    cJSON_Delete(j);
    free(text);
    dl_facts_free(&a);
}

static void reading_rejects_wrong_types_with_a_path(void **state)
{
    dl_facts f;
    char *error = NULL;
    const char *bad = "{\"schema\":\"dlenv.report/1\",\"gpus\":[{\"vendor_id\":\"10de\"}]}";
    (void)state;
    assert_false(dl_facts_from_json_text(bad, strlen(bad), &f, &error));
    assert_non_null(strstr(error, "$.gpus[0].vendor_id"));
    free(error);
    error = NULL;
    bad = "{\"schema\":\"dlenv.report/1\",\"memory\":{\"total_bytes\":1.5}}";
    assert_false(dl_facts_from_json_text(bad, strlen(bad), &f, &error));
    assert_non_null(strstr(error, "$.memory.total_bytes: expected an integer"));
    free(error);
}

static void reading_rejects_non_reports(void **state)
{
    dl_facts f;
    char *error = NULL;
    (void)state;
    assert_false(dl_facts_from_json_text("{\"a\":1}", 7, &f, &error));
    assert_non_null(strstr(error, "not a dlenv report"));
    free(error);
    error = NULL;
    assert_false(dl_facts_from_json_text("{\"schema\":", 10, &f, &error));
    assert_string_equal(error, "not valid JSON (line 1, column 11): the document ends early");
    free(error);
}

static void expect_json_error(const char *text, size_t len, const char *want)
{
    char *error = NULL;
    assert_false(dl_json_check(text, len, &error));
    assert_string_equal(error, want);
    free(error);
}

/* What cJSON would let through or cut short is refused, with where and why. */
static void strict_json(void **state)
{
    static const char *const good[] = {
        "{}", " [1, -0, 0.5, 1e3, -2.5E-7, true, false, null] ", "\"\\u00e9\\ud83d\\ude00\"",
        "{\"a\": {\"b\": [\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]}}", "\"h\xC3\xA9 \xE4\xB8\xAD\"", "0"};
    char *error = NULL;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (!dl_json_check(good[i], strlen(good[i]), &error))
            fail_msg("%s: %s", good[i], error);
    }
    expect_json_error("", 0, "empty, not JSON");
    expect_json_error(" \n", 2, "empty, not JSON");
    expect_json_error("{} x", 4, "not valid JSON: more text after the document (line 1, column 4)");
    expect_json_error("{}{}", 4, "not valid JSON: more text after the document (line 1, column 3)");
    expect_json_error("{\"a\":\"x\\uZZZZ\"}", 15,
                      "not valid JSON (line 1, column 10): a \\u escape needs four hexadecimal digits");
    expect_json_error("{\"os\\u0000x\":1}", 16,
                      "not valid JSON (line 1, column 11): \\u0000 (a NUL character) in a string");
    expect_json_error("\"\\ud800\"", 8,
                      "not valid JSON (line 1, column 8): a \\u escape holds the first half of a "
                      "surrogate pair alone");
    expect_json_error("\"a\0b\"", 5,
                      "not valid JSON (line 1, column 3): a control character in a string (it "
                      "must be escaped)");
    expect_json_error("\"\xFF\"", 3, "not valid JSON (line 1, column 2): invalid UTF-8 in a string");
    expect_json_error("[01]", 4, "not valid JSON (line 1, column 3): expected ',' or ']'");
    expect_json_error("[1.]", 4, "not valid JSON (line 1, column 4): a malformed number");
    expect_json_error("{'a': 1}", 8,
                      "not valid JSON (line 1, column 2): expected a member name in double quotes");
    expect_json_error("[1,]", 4, "not valid JSON (line 1, column 4): expected a value");
    expect_json_error("[tru]", 5, "not valid JSON (line 1, column 2): expected a value");
    expect_json_error("{\"a\" 1}", 7, "not valid JSON (line 1, column 6): expected ':' after a member name");
    expect_json_error("\"\\x\"", 4, "not valid JSON (line 1, column 4): an unknown escape in a string");
}

/* --from's reader: the schema's name and a major version it knows, one document. */
static void reading_is_strict(void **state)
{
    static const struct { const char *doc, *error; } cases[] = {
        {"{\"schema\":\"dlenv.report/99\"}",
         "$.schema: \"dlenv.report/99\" is newer than this dlenv reads (dlenv.report/1): update "
         "dlenv"},
        {"{\"schema\":\"dlenv.report/x\"}", "$.schema: \"dlenv.report/x\" is not a dlenv report's schema"},
        {"{\"schema\":\"dlenv.report/1\"} trailing",
         "not valid JSON: more text after the document (line 1, column 29)"},
        {"{\"schema\":\"dlenv.report/1\"}{\"schema\":\"dlenv.report/1\"}",
         "not valid JSON: more text after the document (line 1, column 28)"},
        {"{\"schema\":\"dlenv.report/1\",\"os\\u0000x\":{}}",
         "not valid JSON (line 1, column 37): \\u0000 (a NUL character) in a string"},
        {"{\"schema\":\"dlenv.report/1\",\"os\":{\"distro_name\":\"a\\uZZZZ\"}}",
         "not valid JSON (line 1, column 52): a \\u escape needs four hexadecimal digits"},
        {"[{\"schema\":\"dlenv.report/1\"}]", "not a dlenv report (no \"schema\": \"dlenv.report/N\")"},
    };
    dl_facts f;
    char *error = NULL;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_false(dl_facts_from_json_text(cases[i].doc, strlen(cases[i].doc), &f, &error));
        assert_string_equal(error, cases[i].error);
        free(error);
        error = NULL;
    }
    assert_true(dl_facts_from_json_text("{\"schema\":\"dlenv.report/0\"}", 27, &f, &error));
    dl_facts_free(&f);
}

static void newer_keys_are_skipped(void **state)
{
    dl_facts f;
    char *error = NULL;
    const char *doc = "{\"schema\":\"dlenv.report/1\",\"future\":{\"x\":1},"
                      "\"os\":{\"family\":\"linux\",\"later\":true}}";
    (void)state;
    assert_true(dl_facts_from_json_text(doc, strlen(doc), &f, &error));
    assert_string_equal(f.os.family.value, "linux");
    dl_facts_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_gives_equal_facts),
        cmocka_unit_test(json_shape_is_documented_form),
        cmocka_unit_test(reading_rejects_wrong_types_with_a_path),
        cmocka_unit_test(reading_rejects_non_reports),
        cmocka_unit_test(newer_keys_are_skipped),
        cmocka_unit_test(strict_json),
        cmocka_unit_test(reading_is_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
