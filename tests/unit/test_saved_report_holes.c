/* Every reader of a saved report takes any JSON: a healthy Linux and a Windows report
 * (tests/doctor/base.json, windows.json) with holes made in them one at a time (every
 * member removed; every value an unknown; every list emptied, or holding one empty item)
 * go through what `doctor --from`, `report --from`, `plan --from` and `diff` do with
 * them: the rules, the doctor's text, Markdown and JSON, the report's text, the planner,
 * and the diff against the whole report, both ways. None may crash (ASan runs this too),
 * and no output may print a NULL as "(null)". The doctor documents those reports give
 * are holed the same way in their findings, for diff. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "cli/snapshot.h"
#include "diff/facts_diff.h"
#include "diff/snapshot.h"
#include "facts/facts_json.h"
#include "facts/query.h"
#include "os/os.h"
#include "plan/machine_facts.h"
#include "plan/plan.h"
#include "render/diff_render.h"
#include "render/text_doctor.h"
#include "render/text_report.h"
#include "rules/rules.h"
#include "test_know.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t holes_tried, nulls_printed;
/* Holes near a change (a patch, an added item): the rules and views on them, but not the
 * planner and the diff's second direction again (the whole reports' holes have those):
 * this test runs under ASan too, where each hole costs tens of milliseconds. */
static bool light;

static char *read_fixture(const char *name)
{
    char *path = dl_fmt("%s/doctor/%s", DLENV_TEST_DATA, name);
    FILE *f = fopen(path, "rb");
    dl_buf b = {0};
    char chunk[4096];
    size_t n;
    assert_non_null(f);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        dl_buf_add(&b, chunk, n);
    fclose(f);
    free(path);
    return dl_buf_take(&b);
}

/* Counted, and each one named, so that one run lists them all. */
/* How many holes each test made, for the record. */
static int count_holes(void **state)
{
    (void)state;
    if (holes_tried)
        print_message("%zu holes\n", holes_tried);
    holes_tried = 0;
    return 0;
}

static void no_null_printed(const char *what, const char *text, const char *hole)
{
    const char *at = text ? strstr(text, "(null)") : NULL;
    const char *from = at;
    if (!at)
        return;
    while (from > text && from[-1] != '\n')
        from--;
    print_message("%s prints (null) with the hole %s: %.*s\n", what, hole,
                  (int)strcspn(from, "\n"), from);
    nulls_printed++;
}

static void render_doctor(const dl_facts *f, const dl_findings *fs, const char *hole)
{
    dl_doctor_view view;
    dl_doctor_input in;
    dl_style plain = {false, false}, fancy = {true, true};
    char *text;
    dl_doctor_view_build(&view, f, fs, NULL);
    in.facts = f;
    in.findings = fs;
    in.view = &view;
    in.verbose = true;
    text = dl_render_doctor_text(&in, &fancy);
    no_null_printed("doctor", text, hole);
    free(text);
    text = dl_render_doctor_markdown(&in);
    no_null_printed("doctor --markdown", text, hole);
    free(text);
    text = dl_render_doctor_json(&in);
    no_null_printed("doctor --json", text, hole);
    free(text);
    text = dl_render_report_text(f, &plain);
    no_null_printed("report", text, hole);
    free(text);
    dl_doctor_view_free(&view);
}

static void plan_for(const dl_facts *f)
{
    dl_plan_machine m;
    dl_plan_constraints cons;
    dl_plan p;
    char *error = NULL;
    dl_plan_machine_from_facts(f, NULL, &dl_test_know, &m);
    memset(&cons, 0, sizeof cons);
    if (dl_plan_make(&dl_test_know, &m, &cons, &p, &error))
        dl_plan_free(&p);
    free(error);
}

static void diff_with(const dl_snapshot *a, const dl_snapshot *b, const char *hole)
{
    dl_diff d;
    dl_diff_input in;
    dl_style plain = {false, false};
    char *text;
    memset(&d, 0, sizeof d);
    dl_diff_facts(&a->facts, &b->facts, true, &d);
    dl_diff_findings(&a->findings, &b->findings, &d);
    in.diff = &d;
    in.a.source = "a";
    in.a.schema = a->schema;
    in.a.taken_at = a->taken_at;
    in.a.host = a->host;
    in.b.source = "b";
    in.b.schema = b->schema;
    in.b.taken_at = b->taken_at;
    in.b.host = b->host;
    in.verbose = true;
    text = dl_render_diff_text(&in, &plain);
    no_null_printed("diff", text, hole);
    free(text);
    text = dl_render_diff_json(&in);
    no_null_printed("diff --json", text, hole);
    free(text);
    dl_diff_free(&d);
}

/* A document read as every command reads it: `--from` (dl_facts_from_json_text) and diff
 * (dl_snapshot_from_json_text, the rules' findings when it has none). Type errors are the
 * readers' to refuse (one line, exit 4); what they accept must go through everything. The
 * rules, the costly part, run once: on what diff read. */
static void read_every_way(const char *text, const dl_snapshot *whole, const char *hole)
{
    dl_facts f;
    dl_snapshot s;
    char *error = NULL;
    holes_tried++;
    if (dl_facts_from_json_text(text, strlen(text), &f, &error))
        dl_facts_free(&f);
    free(error);
    error = NULL;
    if (dl_snapshot_from_json_text(text, strlen(text), &s, &error)) {
        dl_cli_snapshot_judge(&s, &dl_test_know);
        render_doctor(&s.facts, &s.findings, hole);
        if (!light)
            plan_for(&s.facts);
        diff_with(whole, &s, hole);
        if (!light)
            diff_with(&s, whole, hole);
        dl_snapshot_free(&s);
    }
    free(error);
}

typedef enum hole_kind { HOLE_REMOVED, HOLE_UNKNOWN, HOLE_EMPTY_LIST, HOLE_EMPTY_ITEM } hole_kind;

/* A node of the document, by the child indices from the top. */
typedef struct address {
    int at[32];
    size_t depth;
} address;

static cJSON *node_at(cJSON *doc, const address *a)
{
    size_t i;
    for (i = 0; doc && i < a->depth; i++)
        doc = cJSON_GetArrayItem(doc, a->at[i]);
    return doc;
}

/* The document with one hole, as text; NULL when that hole does not apply there. */
static char *with_hole(const cJSON *whole, const address *a, hole_kind kind)
{
    cJSON *doc = cJSON_Duplicate(whole, true), *node = node_at(doc, a), *parent;
    address up = *a;
    char *text;
    up.depth--;
    parent = node_at(doc, &up);
    if (kind == HOLE_REMOVED && node->string) {
        cJSON_Delete(cJSON_DetachItemViaPointer(parent, node));
    } else if (kind == HOLE_UNKNOWN && node->string) {
        cJSON *unknown = cJSON_CreateObject();
        cJSON_AddStringToObject(unknown, "unknown", "a hole");
        cJSON_ReplaceItemInObjectCaseSensitive(parent, node->string, unknown);
    } else if ((kind == HOLE_EMPTY_LIST || kind == HOLE_EMPTY_ITEM) && cJSON_IsArray(node)) {
        while (node->child)
            cJSON_Delete(cJSON_DetachItemViaPointer(node, node->child));
        if (kind == HOLE_EMPTY_ITEM)
            cJSON_AddItemToArray(node, cJSON_CreateObject());
    } else {
        cJSON_Delete(doc);
        return NULL;
    }
    text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    return text;
}

/* Every hole below node (at address a, named path) in turn. */
static void holes_below(const cJSON *whole, const dl_snapshot *whole_read, const cJSON *node,
                        address *a, const char *path, bool deep, size_t kinds_used)
{
    static const char *const kinds[] = {"removed", "unknown", "= []", "= [{}]"};
    const cJSON *child;
    int i = 0;
    for (child = node->child; child && a->depth < 32; child = child->next, i++) {
        char *cpath = child->string ? dl_fmt("%s.%s", path, child->string)
                                    : dl_fmt("%s[%d]", path, i);
        size_t k;
        a->at[a->depth++] = i;
        for (k = 0; k < kinds_used; k++) {
            char *text = with_hole(whole, a, (hole_kind)k), *hole;
            if (!text)
                continue;
            hole = dl_fmt("%s %s", cpath, kinds[k]);
            read_every_way(text, whole_read, hole);
            free(hole);
            cJSON_free(text);
        }
        if (deep)
            holes_below(whole, whole_read, child, a, cpath, true, kinds_used);
        a->depth--;
        free(cpath);
    }
}

/* Holes everywhere in the document text, or only below its member key. */
static void hole_everything(const char *text, const char *key)
{
    dl_snapshot whole;
    char *error = NULL, *path;
    cJSON *doc = cJSON_Parse(text);
    const cJSON *top;
    address a;
    assert_non_null(doc);
    assert_true(dl_snapshot_from_json_text(text, strlen(text), &whole, &error));
    dl_cli_snapshot_judge(&whole, &dl_test_know);
    memset(&a, 0, sizeof a);
    top = doc;
    path = dl_strdup("$");
    if (key) {
        const cJSON *c;
        int i = 0;
        for (c = doc->child; c && strcmp(c->string, key) != 0; c = c->next)
            i++;
        assert_non_null(c);
        a.at[a.depth++] = i;
        top = c;
        free(path);
        path = dl_fmt("$.%s", key);
    }
    nulls_printed = 0;
    holes_below(doc, &whole, top, &a, path, true, 4);
    assert_int_equal(nulls_printed, 0);
    free(path);
    cJSON_Delete(doc);
    dl_snapshot_free(&whole);
}

/* The doctor document of a report (its findings with the facts), for the findings' holes. */
static char *doctor_document(const char *report)
{
    dl_facts f;
    dl_findings fs;
    dl_rule_input rin;
    dl_doctor_view view;
    dl_doctor_input in;
    char *error = NULL, *text;
    assert_true(dl_facts_from_json_text(report, strlen(report), &f, &error));
    memset(&fs, 0, sizeof fs);
    rin.facts = &f;
    rin.know = &dl_test_know;
    dl_rules_run(&rin, NULL, &fs);
    dl_doctor_view_build(&view, &f, &fs, NULL);
    in.facts = &f;
    in.findings = &fs;
    in.view = &view;
    in.verbose = false;
    text = dl_render_doctor_json(&in);
    dl_doctor_view_free(&view);
    dl_findings_free(&fs);
    dl_facts_free(&f);
    return text;
}

static void linux_report_with_holes(void **state)
{
    char *text = read_fixture("base.json");
    (void)state;
    hole_everything(text, NULL);
    free(text);
}

static void windows_report_with_holes(void **state)
{
    char *text = read_fixture("windows.json");
    (void)state;
    hole_everything(text, NULL);
    free(text);
}

/* A report with failures (a missing DLL, a device node this user may not open), so that
 * findings with evidence exist to be holed. */
static void holes_near(const char *report, const dl_strv *paths, const dl_strv *appended);

static void findings_with_holes(void **state)
{
    static const char *const fixtures[] = {"windows.json", "base.json"};
    size_t i;
    (void)state;
    for (i = 0; i < 2; i++) {
        char *report = read_fixture(fixtures[i]), *doctor;
        cJSON *doc = cJSON_Parse(report), *text_doc;
        if (i == 0) {
            cJSON *torch = cJSON_GetArrayItem(
                cJSON_GetObjectItem(
                    cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
                                                               cJSON_GetObjectItem(doc, "pythons"), 0),
                                                           "site_packages"),
                                       1),
                    "torches"),
                0);
            cJSON *dll = cJSON_CreateObject();
            assert_non_null(torch);
            cJSON_AddStringToObject(dll, "name", "cudnn64_9.dll");
            cJSON_AddStringToObject(dll, "needed_by", "C:\\t\\c10_cuda.dll");
            cJSON_DeleteItemFromObject(torch, "missing_dlls");
            cJSON_AddItemToArray(cJSON_AddArrayToObject(torch, "missing_dlls"), dll);
        } else {
            cJSON *k = cJSON_GetObjectItem(doc, "nvidia_kernel"), *node = cJSON_CreateObject();
            cJSON_AddStringToObject(node, "path", "/dev/nvidia0");
            cJSON_AddBoolToObject(node, "accessible", false);
            cJSON_DeleteItemFromObject(k, "device_nodes");
            cJSON_AddItemToArray(cJSON_AddArrayToObject(k, "device_nodes"), node);
        }
        free(report);
        report = cJSON_PrintUnformatted(doc);
        cJSON_Delete(doc);
        doctor = doctor_document(report);
        text_doc = cJSON_Parse(doctor);
        assert_non_null(strstr(doctor, i == 0 ? "win_dll_dependency_missing"
                                              : "device_permission_denied"));
        cJSON_DeleteItemFromObject(text_doc, "facts");
        cJSON_AddItemToObject(text_doc, "facts", cJSON_Parse(report));
        free(doctor);
        doctor = cJSON_PrintUnformatted(text_doc);
        cJSON_Delete(text_doc);
        {
            dl_strv at = {0};
            dl_strv_add(&at, dl_strdup(i == 0 ? "pythons.0.site_packages.1.torches.0.missing_dlls"
                                              : "nvidia_kernel.device_nodes"));
            light = true;
            holes_near(report, &at, &at);        /* the rules on the holed facts */
            hole_everything(doctor, "findings"); /* a snapshot's holed findings, for diff */
            light = false;
            dl_strv_free(&at);
        }
        cJSON_free(doctor);
        cJSON_free(report);
    }
}

/* ---- the doctor's patched reports (tests/doctor, NAME.patch): each makes a rule fire ---- */

/* The node a dotted path names ("pythons.0.site_packages"), and its address. */
static cJSON *walk_path(cJSON *doc, const char *path, address *a)
{
    char *copy = dl_strdup(path), *save = NULL, *key;
    cJSON *node = doc;
    for (save = copy, key = dl_str_token(&save, "."); node && key;
         key = dl_str_token(&save, ".")) {
        cJSON *c;
        int i = 0;
        if (cJSON_IsArray(node)) {
            i = atoi(key);
            c = cJSON_GetArrayItem(node, i);
        } else if (cJSON_IsObject(node)) {
            for (c = node->child; c && strcmp(c->string, key) != 0; c = c->next)
                i++;
        } else {
            c = NULL;
        }
        if (a && a->depth < 32)
            a->at[a->depth++] = i;
        node = c;
    }
    free(copy);
    return node;
}

/* PATH = JSON, PATH += JSON, PATH - (apply_patch.py's lines); false for any other line. */
static bool apply_line(cJSON *doc, char *line, char **path_out)
{
    char *op = strstr(line, " += ");
    bool append = op != NULL;
    cJSON *parent, *target;
    char *last;
    if (!op)
        op = strstr(line, " = ");
    if (!op && dl_ends_with(line, " -"))
        op = line + strlen(line) - 2;
    if (!op)
        return false;
    *op = '\0';
    *path_out = dl_strdup(line);
    last = strrchr(line, '.');
    parent = last ? (*last = '\0', walk_path(doc, line, NULL)) : doc;
    last = last ? last + 1 : line;
    assert_non_null(parent);
    target = cJSON_IsArray(parent) ? cJSON_GetArrayItem(parent, atoi(last))
                                   : cJSON_GetObjectItem(parent, last);
    if (op[1] == '-') {
        cJSON_Delete(cJSON_DetachItemViaPointer(parent, target));
    } else {
        cJSON *value = cJSON_Parse(op + (append ? 4 : 3));
        assert_non_null(value);
        if (append)
            cJSON_AddItemToArray(target, value);
        else if (cJSON_IsArray(parent))
            cJSON_ReplaceItemInArray(parent, atoi(last), value);
        else if (target)
            cJSON_ReplaceItemInObjectCaseSensitive(parent, last, value);
        else
            cJSON_AddItemToObject(parent, last, value);
    }
    return true;
}

/* Holes next to what the patch changed: every member of the object holding it removed (not
 * deeper), and every hole inside a list item it added. */
static void holes_near(const char *report, const dl_strv *paths, const dl_strv *appended)
{
    dl_snapshot whole;
    char *error = NULL;
    cJSON *doc = cJSON_Parse(report);
    size_t i;
    assert_true(dl_snapshot_from_json_text(report, strlen(report), &whole, &error));
    dl_cli_snapshot_judge(&whole, &dl_test_know);
    for (i = 0; i < paths->n; i++) {
        address a;
        char *parent_path = dl_strdup(paths->v[i]), *dot = strrchr(parent_path, '.');
        cJSON *node;
        memset(&a, 0, sizeof a);
        if (dot)
            *dot = '\0';
        node = dot ? walk_path(doc, parent_path, &a) : doc;
        if (node)
            holes_below(doc, &whole, node, &a, parent_path, false, 1);
        free(parent_path);
    }
    for (i = 0; i < appended->n; i++) {
        address a;
        cJSON *list;
        memset(&a, 0, sizeof a);
        list = walk_path(doc, appended->v[i], &a);
        if (list)
            holes_below(doc, &whole, list, &a, appended->v[i], true, 4);
    }
    cJSON_Delete(doc);
    dl_snapshot_free(&whole);
}

/* The lines of a patch that say what the doctor must answer, not what changes (run.sh). */
static bool is_check_line(const char *line)
{
    static const char *const verbs[] = {"expect ", "fires ", "quiet ", "fix ", "nofix ", "says ",
                                        "verdict ", "base "};
    size_t i;
    for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (dl_starts_with(line, verbs[i]))
            return true;
    return false;
}

static void patched_reports_with_holes(void **state)
{
    char *dir = dl_fmt("%s/doctor", DLENV_TEST_DATA), **names, *error = NULL;
    dl_machine m;
    size_t n, i;
    (void)state;
    assert_true(dl_machine_open(&m, NULL, &error));
    assert_true(dl_fs_list(&m, dir, &names, &n, NULL));
    nulls_printed = 0;
    for (i = 0; i < n; i++) {
        char *patch_path, *text, *line, *save = NULL, *base, *report;
        dl_strv paths = {0}, appended = {0};
        cJSON *doc;
        if (!dl_ends_with(names[i], ".patch"))
            continue;
        base = dl_strdup("base.json");
        patch_path = dl_fmt("%s/%s", dir, names[i]);
        assert_true(dl_fs_read(&m, patch_path, 1 << 20, &text, NULL, NULL, NULL));
        for (save = text, line = dl_str_token(&save, "\n"); line; line = dl_str_token(&save, "\n"))
            if (dl_starts_with(line, "base ")) {
                free(base);
                base = dl_strdup(line + 5);
            }
        free(text);
        report = read_fixture(base);
        doc = cJSON_Parse(report);
        free(report);
        assert_true(dl_fs_read(&m, patch_path, 1 << 20, &text, NULL, NULL, NULL));
        for (save = text, line = dl_str_token(&save, "\n"); line; line = dl_str_token(&save, "\n")) {
            char *path = NULL;
            if (line[0] == '#' || is_check_line(line) || !apply_line(doc, line, &path))
                continue;
            dl_strv_add(&paths, path);
            if (line[strlen(line) + 1] == '+') /* it was " += ": an item added */
                dl_strv_add(&appended, dl_strdup(path));
        }
        free(text);
        report = cJSON_PrintUnformatted(doc);
        cJSON_Delete(doc);
        light = true;
        holes_near(report, &paths, &appended);
        light = false;
        cJSON_free(report);
        dl_strv_free(&paths);
        dl_strv_free(&appended);
        free(base);
        free(patch_path);
    }
    assert_int_equal(nulls_printed, 0);
    dl_fs_list_free(names, n);
    free(dir);
    dl_machine_close(&m);
}

static int teardown(void **state)
{
    return dl_test_know_teardown(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(linux_report_with_holes, count_holes),
        cmocka_unit_test_teardown(windows_report_with_holes, count_holes),
        cmocka_unit_test_teardown(findings_with_holes, count_holes),
        cmocka_unit_test_teardown(patched_reports_with_holes, count_holes),
    };
    return cmocka_run_group_tests(tests, dl_test_know_setup, teardown);
}
