/* dlenv run's pure parts, part two: quoting for the Windows command line, sh, .bat,
 * PowerShell and dotenv; the launcher files; the launch.json merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "os/cmdline.h"
#include "run/launch_json.h"
#include "run/launcher.h"
#include "run/quote.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef bool (*quote_fn)(dl_buf *b, const char *arg);

static void expect_msvc(const char *arg, const char *want)
{
    dl_buf b = {0};
    dl_cmdline_quote(&b, arg, false);
    dl_buf_puts(&b, "");
    assert_string_equal(b.data, want);
    dl_buf_free(&b);
}

/* The C runtime's rules: backslashes are literal unless they precede a quote. */
static void windows_command_line(void **state)
{
    const char *argv[] = {"C:\\Program Files\\x.exe", "a", "", "b c", NULL};
    char *line;
    (void)state;
    expect_msvc("plain", "plain");
    expect_msvc("", "\"\"");
    expect_msvc("a b", "\"a b\"");
    expect_msvc("q\"uote", "\"q\\\"uote\"");
    expect_msvc("C:\\dir\\", "C:\\dir\\");
    expect_msvc("C:\\my dir\\", "\"C:\\my dir\\\\\"");
    expect_msvc("a\\\\\"b", "\"a\\\\\\\\\\\"b\"");
    expect_msvc("100%", "100%");
    expect_msvc("h\xC3\xA9llo \xE4\xB8\xAD", "\"h\xC3\xA9llo \xE4\xB8\xAD\"");
    line = dl_cmdline_build(argv[0], argv);
    assert_string_equal(line, "\"C:\\Program Files\\x.exe\" a \"\" \"b c\"");
    free(line);
}

static void expect_sh(const char *arg, const char *want)
{
    dl_buf b = {0};
    dl_quote_sh(&b, arg);
    assert_string_equal(b.data, want);
    dl_buf_free(&b);
}

static void posix_shell(void **state)
{
    (void)state;
    expect_sh("train.py", "train.py");
    expect_sh("--lr=1e-3", "--lr=1e-3");
    expect_sh("", "''");
    expect_sh("a b", "'a b'");
    expect_sh("it's", "'it'\\''s'");
    expect_sh("$HOME `x` \\ \"", "'$HOME `x` \\ \"'");
    expect_sh("*", "'*'");
    expect_sh("h\xC3\xA9", "'h\xC3\xA9'");
}

static void expect_bat(const char *const *args, const char *want)
{
    dl_buf b = {0};
    bool quoted = false;
    size_t i;
    for (i = 0; args[i]; i++) {
        if (i)
            dl_buf_puts(&b, " ");
        assert_true(dl_quote_bat(&b, args[i], &quoted));
    }
    assert_string_equal(b.data, want);
    dl_buf_free(&b);
}

static void batch_files(void **state)
{
    const char *simple[] = {"python", "100%", "a^b", "x&y|z", "(p)", "!bang!", NULL};
    /* cmd toggles at every quote, \" too: after "a\" it is outside, so b&c and the next
     * argument's d&e are escaped; f\"g's quote brings it back in, so h&i is not */
    const char *quote[] = {"a\"b&c", "d&e", "f\"g", "h&i", NULL};
    dl_buf b = {0};
    bool quoted = false;
    (void)state;
    expect_bat(simple, "\"python\" \"100%%\" \"a^b\" \"x&y|z\" \"(p)\" \"!bang!\"");
    expect_bat(quote, "\"a\\\"b^&c\" \"d^&e\" \"f\\\"g\" \"h&i\"");
    assert_false(dl_quote_bat(&b, "two\nlines", &quoted));
    assert_false(dl_quote_bat_value(&b, "a\"b"));
    assert_true(dl_quote_bat_value(&b, "C:\\100% & more"));
    assert_string_equal(b.data, "C:\\100%% & more");
    dl_buf_free(&b);
}

static void powershell_and_dotenv(void **state)
{
    dl_buf b = {0};
    (void)state;
    dl_quote_ps1(&b, "it's $x \"q\" `t");
    assert_string_equal(b.data, "'it''s $x \"q\" `t'");
    dl_buf_free(&b);
    /* U+2019, a typographic quote PowerShell also ends a string with */
    dl_quote_ps1(&b, "it\xE2\x80\x99s");
    assert_string_equal(b.data, "'it\xE2\x80\x99\xE2\x80\x99s'");
    dl_buf_free(&b);
    assert_true(dl_quote_dotenv(&b, "C:\\Program Files\\x"));
    dl_buf_puts(&b, "|");
    assert_true(dl_quote_dotenv(&b, "$HOME # not a comment"));
    dl_buf_puts(&b, "|");
    assert_true(dl_quote_dotenv(&b, "it's \"q\" \\"));
    dl_buf_puts(&b, "|");
    assert_true(dl_quote_dotenv(&b, ""));
    assert_string_equal(b.data, "C:\\Program Files\\x|'$HOME # not a comment'|"
                                "\"it's \\\"q\\\" \\\\\"|");
    assert_false(dl_quote_dotenv(&b, "a\nb"));
    dl_buf_free(&b);
}

/* What reaches a comment line, a dotenv file or launch.json from a hostile name. */
static void hostile_values(void **state)
{
    dl_buf b = {0};
    (void)state;
    dl_quote_comment(&b, "e\ntouch x\r\x1b[31m'\"$(y)`z` %P% ! ^ & \xC3\xA9");
    assert_string_equal(b.data, "e?touch x??[31m'\"$(y)`z` %P% ! ^ & \xC3\xA9");
    dl_buf_free(&b);
    dl_quote_bat_comment(&b, "e\n&calc|x<y>z ^ !v! \"q\" 50% (GPU 1) \xC3\xA9");
    assert_string_equal(b.data, "e??calc?x?y?z ? ?v? ?q? 50%% (GPU 1) ??");
    dl_buf_free(&b);
    /* python-dotenv reads \\ in single quotes as one, and ${X} in double quotes */
    assert_true(dl_quote_dotenv(&b, "a$b\\\\c"));
    assert_string_equal(b.data, "\"a$b\\\\\\\\c\"");
    assert_false(dl_quote_dotenv(&b, "it's ${HOME}"));
    assert_false(dl_quote_dotenv(&b, "C:\\${x}"));
    dl_buf_free(&b);
    assert_true(dl_quote_vscode_literal("$HOME `x` %P% \xC3\xA9"));
    assert_false(dl_quote_vscode_literal("${command:workbench.action.terminal.new}"));
    assert_false(dl_quote_vscode_literal("bad \xFF utf-8"));
}

/* ---- launchers ------------------------------------------------------------------------ */

static dl_env_changes cpu_and_venv(bool windows)
{
    dl_env_changes c = {0};
    dl_env_gpu_changes(&c, true, NULL, 0);
    dl_env_python_changes(&c, DL_PY_VENV, windows ? "C:\\v 1" : "/v 1",
                          windows ? "C:\\v 1\\Scripts" : "/v 1/bin", windows);
    return c;
}

static void shell_script(void **state)
{
    dl_env_changes c = cpu_and_venv(false);
    const char *argv[] = {"/v 1/bin/python", "train.py", "a b"};
    dl_launcher l = {"dlenv: CPU only", &c, argv, 3, "/v 1/bin/python", false};
    char *error = NULL, *text = dl_launcher_text(DL_LAUNCH_SH, &l, &error);
    (void)state;
    assert_non_null(text);
    assert_true(dl_starts_with(text, "#!/bin/sh\n# dlenv: CPU only: "));
    assert_non_null(strstr(text, "\nCUDA_VISIBLE_DEVICES=''\nexport CUDA_VISIBLE_DEVICES\n"));
    assert_non_null(strstr(text, "\nunset ZE_AFFINITY_MASK\n"));
    assert_non_null(strstr(text, "\nPATH='/v 1/bin'\"${PATH:+:$PATH}\"\nexport PATH\n"));
    assert_non_null(strstr(text, "\nunset PYTHONHOME\n"));
    assert_true(dl_ends_with(text, "\nexec '/v 1/bin/python' train.py 'a b' \"$@\"\n"));
    free(text);
    dl_env_changes_free(&c);
}

static void batch_launcher(void **state)
{
    dl_env_changes c = cpu_and_venv(true);
    const char *argv[] = {"python", "100%"};
    const char *bad[] = {"python", "two\r\nlines"};
    const char *utf8[] = {"python", "h\xC3\xA9llo"};
    dl_launcher l = {"50% CPU", &c, argv, 2, NULL, true};
    char *error = NULL, *text = dl_launcher_text(DL_LAUNCH_BAT, &l, &error);
    (void)state;
    assert_non_null(text);
    assert_true(dl_starts_with(text, "@echo off\r\nrem 50%% CPU: "));
    assert_non_null(strstr(text, "\r\nsetlocal EnableExtensions DisableDelayedExpansion\r\n"));
    /* cmd cannot hold an empty variable: -1 hides every device */
    assert_non_null(strstr(text, "\r\nset \"CUDA_VISIBLE_DEVICES=-1\"\r\n"));
    assert_non_null(strstr(text, "\r\nset \"ZE_AFFINITY_MASK=\"\r\n"));
    assert_non_null(strstr(text, "\r\nset \"PATH=C:\\v 1\\Scripts;%PATH%\"\r\n"));
    assert_non_null(strstr(text, "\r\n\"python\" \"100%%\" %*\r\nexit /b %ERRORLEVEL%\r\n"));
    assert_null(strstr(text, "chcp"));
    free(text);
    /* non-ASCII text: cmd reads the file as UTF-8 only after chcp 65001 */
    l.argv = utf8;
    text = dl_launcher_text(DL_LAUNCH_BAT, &l, &error);
    assert_non_null(text);
    assert_non_null(strstr(text, "\r\nchcp 65001 >nul 2>&1\r\n"));
    assert_true(dl_ends_with(text, "\"h\xC3\xA9llo\" %*\r\nset \"dlenv_code=%ERRORLEVEL%\"\r\n"
                                   "chcp %dlenv_cp% >nul 2>&1\r\nexit /b %dlenv_code%\r\n"));
    free(text);
    l.argv = bad;
    assert_null(dl_launcher_text(DL_LAUNCH_BAT, &l, &error));
    assert_string_equal(error, "argument 1 holds a line break, which a .bat line cannot carry");
    free(error);
    dl_env_changes_free(&c);
}

static void powershell_launcher(void **state)
{
    dl_env_changes c = cpu_and_venv(true);
    dl_launcher l = {"ps", &c, NULL, 0, NULL, true};
    char *error = NULL, *text = dl_launcher_text(DL_LAUNCH_PS1, &l, &error);
    (void)state;
    assert_non_null(text);
    /* UTF-8 with a byte order mark, which Windows PowerShell 5.1 needs to read it so */
    assert_true(dl_starts_with(text, "\xEF\xBB\xBF# ps: written by"));
    assert_non_null(strstr(text, "[Environment]::SetEnvironmentVariable('CUDA_VISIBLE_DEVICES', '-1')"));
    assert_non_null(strstr(text, "[Environment]::SetEnvironmentVariable('ZE_AFFINITY_MASK', $null)"));
    assert_non_null(strstr(text, "[Environment]::SetEnvironmentVariable('PATH', 'C:\\v 1\\Scripts' "
                                 "+ [IO.Path]::PathSeparator + $env:PATH)"));
    assert_non_null(strstr(text, "& $args[0] @rest"));
    /* the session's variables are put back */
    assert_non_null(strstr(text, "} finally {"));
    free(text);
    dl_env_changes_free(&c);
}

static void dotenv_launcher(void **state)
{
    dl_env_changes c = cpu_and_venv(false);
    const char *argv[] = {"python"};
    dl_launcher l = {"env", &c, NULL, 0, NULL, false};
    char *error = NULL, *text = dl_launcher_text(DL_LAUNCH_ENV, &l, &error);
    (void)state;
    assert_non_null(text);
    assert_string_equal(text, "# env: written by `dlenv profile write`\n"
                              "CUDA_VISIBLE_DEVICES=\nCUDA_DEVICE_ORDER=PCI_BUS_ID\n"
                              "HIP_VISIBLE_DEVICES=\n"
                              "# ZE_AFFINITY_MASK: remove it (a dotenv file cannot)\n"
                              "PATH=/v 1/bin:${PATH}\nVIRTUAL_ENV=/v 1\n"
                              "# PYTHONHOME: remove it (a dotenv file cannot)\n");
    free(text);
    l.argv = argv;
    l.argc = 1;
    assert_null(dl_launcher_text(DL_LAUNCH_ENV, &l, &error));
    free(error);
    dl_env_changes_free(&c);
}

/* ---- launch.json ---------------------------------------------------------------------- */

static void jsonc(void **state)
{
    bool comments;
    char *plain = dl_jsonc_strip("{ // c\n \"a\": \"x // not /* a comment\", /* b\n */ "
                                 "\"l\": [1, 2,],\n}", &comments);
    cJSON *doc = cJSON_Parse(plain);
    (void)state;
    assert_true(comments);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "a")->valuestring, "x // not /* a comment");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "l")), 2);
    /* the lines stay where they were */
    assert_int_equal(strchr(plain, '\n') - plain, strchr("{ // c\n", '\n') - "{ // c\n");
    cJSON_Delete(doc);
    free(plain);
    plain = dl_jsonc_strip("{\"a\": \"\\\"//\"}", &comments);
    assert_false(comments);
    assert_string_equal(plain, "{\"a\": \"\\\"//\"}");
    free(plain);
}

static cJSON *merged(const char *existing, const dl_launcher *l, char **error)
{
    bool dropped;
    char *text = dl_launch_json_merge(existing, l, &dropped, error);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    free(text);
    return doc;
}

static void launch_json_merge(void **state)
{
    dl_env_changes c = cpu_and_venv(false);
    const char *argv[] = {"python3", "-X", "dev", "-m", "pkg.run", "--x", "1"};
    dl_launcher l = {"dlenv: CPU only", &c, argv, 7, "/v 1/bin/python", false};
    const char *existing = "{\"version\": \"0.2.0\", \"configurations\": ["
                           "{\"name\": \"other\", \"type\": \"node\"},"
                           "{\"name\": \"dlenv: CPU only\", \"program\": \"old.py\"}]}";
    char *error = NULL;
    cJSON *doc = merged(existing, &l, &error), *configs, *ours, *env;
    (void)state;
    assert_non_null(doc);
    configs = cJSON_GetObjectItem(doc, "configurations");
    assert_int_equal(cJSON_GetArraySize(configs), 2);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(configs, 0), "name")->valuestring,
                        "other");
    ours = cJSON_GetArrayItem(configs, 1);
    assert_null(cJSON_GetObjectItem(ours, "program"));
    assert_string_equal(cJSON_GetObjectItem(ours, "module")->valuestring, "pkg.run");
    assert_string_equal(cJSON_GetObjectItem(ours, "type")->valuestring, "debugpy");
    assert_string_equal(cJSON_GetObjectItem(ours, "python")->valuestring, "/v 1/bin/python");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ours, "pythonArgs")), 2);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ours, "args")), 2);
    env = cJSON_GetObjectItem(ours, "env");
    assert_string_equal(cJSON_GetObjectItem(env, "CUDA_VISIBLE_DEVICES")->valuestring, "");
    assert_string_equal(cJSON_GetObjectItem(env, "PATH")->valuestring,
                        "/v 1/bin${pathSeparator}${env:PATH}");
    assert_null(cJSON_GetObjectItem(env, "ZE_AFFINITY_MASK"));
    cJSON_Delete(doc);
    dl_env_changes_free(&c);
}

static void launch_json_new_and_errors(void **state)
{
    dl_env_changes c = {0};
    const char *not_python[] = {"torchrun", "x.py"};
    const char *inline_code[] = {"python", "-c", "pass"};
    dl_launcher l = {"n", &c, NULL, 0, NULL, false};
    char *error = NULL;
    cJSON *doc = merged("  \n", &l, &error), *config;
    (void)state;
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "version")->valuestring, "0.2.0");
    config = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "configurations"), 0);
    assert_string_equal(cJSON_GetObjectItem(config, "program")->valuestring, "${file}");
    cJSON_Delete(doc);
    assert_null(merged("[1]", &l, &error));
    assert_string_equal(error, "not a launch.json: the top level is not an object");
    free(error);
    error = NULL;
    assert_null(merged("{\"configurations\": {}}", &l, &error));
    assert_string_equal(error, "not a launch.json: \"configurations\" is not a list");
    free(error);
    error = NULL;
    assert_null(merged("{\n\n  \"a\": tru\n}", &l, &error));
    assert_string_equal(error, "not JSON at line 3");
    free(error);
    error = NULL;
    l.argv = not_python;
    l.argc = 2;
    assert_null(merged(NULL, &l, &error));
    assert_string_equal(error, "a VS Code configuration runs Python: the command must start with "
                               "python, not 'torchrun'");
    free(error);
    error = NULL;
    l.argv = inline_code;
    l.argc = 3;
    assert_null(merged(NULL, &l, &error));
    free(error);
}

static void formats(void **state)
{
    dl_launcher_format f;
    (void)state;
    assert_true(dl_launcher_format_parse("vscode", &f));
    assert_int_equal(f, DL_LAUNCH_VSCODE);
    assert_true(dl_launcher_format_parse("ps1", &f));
    assert_int_equal(f, DL_LAUNCH_PS1);
    assert_false(dl_launcher_format_parse("zsh", &f));
    assert_false(dl_launcher_format_parse(NULL, &f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(windows_command_line),
        cmocka_unit_test(posix_shell),
        cmocka_unit_test(batch_files),
        cmocka_unit_test(powershell_and_dotenv),
        cmocka_unit_test(hostile_values),
        cmocka_unit_test(shell_script),
        cmocka_unit_test(batch_launcher),
        cmocka_unit_test(powershell_launcher),
        cmocka_unit_test(dotenv_launcher),
        cmocka_unit_test(jsonc),
        cmocka_unit_test(launch_json_merge),
        cmocka_unit_test(launch_json_new_and_errors),
        cmocka_unit_test(formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
