/* The extension-import probe's answer (src/probe/python/ext_runtime.c) read into facts, and
 * what the rules read from one record (src/rules/ext_runtime.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "facts/facts.h"
#include "facts/schema.h"
#include "probe/python/ext_runtime.h"
#include "rules/ext_runtime.h"

#include <stdlib.h>
#include <string.h>

static const char answer[] =
    "whatever torch printed\n@@DLENV@@ not this one\n"
    "@@DLENV@@{\"extensions\": [{\"package\": \"xformers\", \"module\": \"xformers\", "
    "\"status\": \"imported\", \"output\": \"WARNING[XFORMERS]: xFormers can't load C++/CUDA "
    "extensions. xFormers was built for: | PyTorch 2.1.0+cu121 with CUDA 1201 (you have "
    "2.3.1+cu121)\", \"import_ms\": 12.5}, {\"package\": \"triton\", \"module\": \"triton\", "
    "\"status\": \"crashed\", \"signal\": 6, \"error\": \"the interpreter died (signal 6)\", "
    "\"import_ms\": {\"unknown\": \"it did not finish\"}}]}\n";

static void parses_each_record(void **state)
{
    dl_python py;
    char *why = NULL;
    const dl_ext_import *x, *t;
    size_t i = 99;
    (void)state;
    memset(&py, 0, sizeof py);
    dl_text_set(&py.runtime.status, "imported");
    assert_true(dl_python_ext_parse(answer, &py, &why));
    assert_true(py.runtime.extensions.known);
    assert_int_equal(py.runtime.extensions.count, 2);
    /* the rest of the runtime is left as it was */
    assert_string_equal(py.runtime.status.value, "imported");
    x = dl_ext_record(&py, "xformers", &i);
    assert_non_null(x);
    assert_int_equal(i, 0);
    assert_false(dl_ext_import_broken(x));
    t = dl_ext_record(&py, "triton", &i);
    assert_non_null(t);
    assert_int_equal(i, 1);
    assert_true(dl_ext_import_broken(t));
    assert_true(t->signal.known);
    assert_int_equal(t->signal.value, 6);
    assert_false(t->import_ms.known);
    assert_null(dl_ext_record(&py, "vllm", NULL));
    dl_schema_free(&dl_torch_runtime_schema, &py.runtime);
}

static void no_answer_says_why(void **state)
{
    dl_python py;
    char *why = NULL;
    (void)state;
    memset(&py, 0, sizeof py);
    assert_false(dl_python_ext_parse("Traceback ...\nKeyboardInterrupt\n", &py, &why));
    assert_non_null(why);
    free(why);
    why = NULL;
    assert_false(dl_python_ext_parse("@@DLENV@@{\"extensions\": 3}", &py, &why));
    assert_non_null(why);
    free(why);
    dl_schema_free(&dl_torch_runtime_schema, &py.runtime);
}

/* "flash-attn" (metadata), "flash_attn" (module) and "Flash_Attn" name one record. */
static void names_are_normalised(void **state)
{
    dl_python py;
    char *why = NULL;
    (void)state;
    memset(&py, 0, sizeof py);
    assert_true(dl_python_ext_parse("@@DLENV@@{\"extensions\": [{\"package\": \"flash_attn\", "
                                    "\"module\": \"flash_attn\", \"status\": \"imported\"}]}",
                                    &py, &why));
    assert_non_null(dl_ext_record(&py, "flash-attn", NULL));
    assert_non_null(dl_ext_record(&py, "Flash_Attn", NULL));
    assert_null(dl_ext_record(&py, "flash", NULL));
    dl_schema_free(&dl_torch_runtime_schema, &py.runtime);
}

static void built_for_from_the_message(void **state)
{
    dl_ext_import r;
    char *said;
    (void)state;
    memset(&r, 0, sizeof r);
    dl_text_set(&r.output, "xFormers was built for: | PyTorch 2.1.0+cu121 with CUDA 1201 "
                           "(you have 2.3.1+cu121)");
    said = dl_ext_built_for_said(&r);
    assert_string_equal(said, "torch 2.1.0+cu121 with CUDA 12.1");
    free(said);
    dl_text_set(&r.output, "xFormers was built for: PyTorch 2.0.1 (you have 2.3.1)");
    said = dl_ext_built_for_said(&r);
    assert_string_equal(said, "torch 2.0.1");
    free(said);
    /* near miss: PyTorch named, but not as what it was built for */
    dl_text_set(&r.output, "PyTorch 2.3.1 with CUDA 1201 is installed");
    assert_null(dl_ext_built_for_said(&r));
    free(r.output.value);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_each_record),
        cmocka_unit_test(no_answer_says_why),
        cmocka_unit_test(names_are_normalised),
        cmocka_unit_test(built_for_from_the_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
