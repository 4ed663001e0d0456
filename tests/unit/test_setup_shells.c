/* What `dlenv setup` prints for a person to type on Windows, for PowerShell and for cmd:
 * the commands of the transaction (python -m venv, Scripts\python.exe -m pip, uv, py -X.Y),
 * the activation lines, and which shell dlenv was started from. Pure, so these run on Linux
 * and, in the MinGW build, under Wine (tests/windows/run.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/shell.h"
#include "base/str.h"
#include "setup/commands.h"
#include "setup/layout.h"

#include <stdlib.h>
#include <string.h>

static void expect_quoted(dl_shell sh, const char *arg, const char *want)
{
    char *got = dl_shell_quote(sh, arg);
    assert_string_equal(got, want);
    free(got);
}

/* cmd's prompt: double quotes as the C runtime reads them; % and " outside them, escaped
 * with ^ (cmd expands %NAME% even inside quotes). */
static void cmd_quoting(void **state)
{
    (void)state;
    expect_quoted(DL_SHELL_CMD, "torch==2.9.1", "torch==2.9.1");
    expect_quoted(DL_SHELL_CMD, "C:\\w\\env", "C:\\w\\env");
    expect_quoted(DL_SHELL_CMD, "C:\\Program Files\\Python312\\python.exe",
                  "\"C:\\Program Files\\Python312\\python.exe\"");
    expect_quoted(DL_SHELL_CMD, "C:\\R&D\\env", "\"C:\\R&D\\env\"");
    expect_quoted(DL_SHELL_CMD, "C:\\100%\\env", "\"C:\\100\"^%\"\\env\"");
    expect_quoted(DL_SHELL_CMD, "%PATH%", "\"\"^%\"PATH\"^%\"\"");
    /* backslashes before a quote the C runtime sees are doubled */
    expect_quoted(DL_SHELL_CMD, "C:\\a b\\", "\"C:\\a b\\\\\"");
    expect_quoted(DL_SHELL_CMD, "C:\\a\\%x", "\"C:\\a\\\\\"^%\"x\"");
    expect_quoted(DL_SHELL_CMD, "say \"hi\"", "\"say \"\\^\"\"hi\"\\^\"\"\"");
    expect_quoted(DL_SHELL_CMD, "", "\"\"");
    /* PowerShell: single quotes, % is no special character there but is quoted anyway */
    expect_quoted(DL_SHELL_POWERSHELL, "C:\\R&D\\it's", "'C:\\R&D\\it''s'");
}

static void programs(void **state)
{
    char *s;
    (void)state;
    s = dl_shell_program(DL_SHELL_CMD, "C:\\Program Files\\Python312\\python.exe");
    assert_string_equal(s, "\"C:\\Program Files\\Python312\\python.exe\"");
    free(s);
    s = dl_shell_program(DL_SHELL_CMD, "C:\\a=b\\python.exe");
    assert_string_equal(s, "\"C:\\a=b\\python.exe\"");
    free(s);
    s = dl_shell_program(DL_SHELL_POWERSHELL, "C:\\Program Files\\Python312\\python.exe");
    assert_string_equal(s, "& 'C:\\Program Files\\Python312\\python.exe'");
    free(s);
}

static char *line_of(dl_shell sh, const dl_strv *argv)
{
    return dl_setup_argv_line(sh, argv);
}

/* The transaction's commands as typed in each shell. */
static void command_lines(void **state)
{
    dl_strv argv = {0}, packages = {0};
    dl_setup_install in;
    char *s;
    const char *staging = "C:\\Users\\ana\\R&D 100%\\.env.dlenv-staging-7";
    const char *python = "C:\\Users\\ana\\R&D 100%\\.env.dlenv-staging-7\\Scripts\\python.exe";
    (void)state;
    dl_setup_venv_argv(DL_TOOL_VENV, NULL, "C:\\Program Files\\Python312\\python.exe", staging,
                       &argv);
    s = line_of(DL_SHELL_POWERSHELL, &argv);
    assert_string_equal(s, "& 'C:\\Program Files\\Python312\\python.exe' -m venv "
                           "'C:\\Users\\ana\\R&D 100%\\.env.dlenv-staging-7'");
    free(s);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "\"C:\\Program Files\\Python312\\python.exe\" -m venv "
                           "\"C:\\Users\\ana\\R&D 100\"^%\"\\.env.dlenv-staging-7\"");
    free(s);
    dl_strv_free(&argv);

    dl_strv_split(&packages, "torch==2.9.1+cpu torchvision==0.24.1", ' ');
    memset(&in, 0, sizeof in);
    in.python = python;
    in.index_url = "https://download.pytorch.org/whl/cpu";
    in.packages = &packages;
    dl_setup_install_argv(&in, &argv);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "\"C:\\Users\\ana\\R&D 100\"^%\"\\.env.dlenv-staging-7\\Scripts\\"
                           "python.exe\" -m pip install --no-input --disable-pip-version-check "
                           "--index-url https://download.pytorch.org/whl/cpu "
                           "torch==2.9.1+cpu torchvision==0.24.1");
    free(s);
    s = line_of(DL_SHELL_POWERSHELL, &argv);
    assert_string_equal(s, "& 'C:\\Users\\ana\\R&D 100%\\.env.dlenv-staging-7\\Scripts\\"
                           "python.exe' -m pip install --no-input --disable-pip-version-check "
                           "--index-url https://download.pytorch.org/whl/cpu "
                           "'torch==2.9.1+cpu' 'torchvision==0.24.1'");
    free(s);
    dl_strv_free(&argv);
    dl_strv_free(&packages);

    dl_setup_py_launcher_argv("py", "3.12", &argv);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "py -3.12 -c \"import sys; print(sys.executable)\"");
    free(s);
    s = line_of(DL_SHELL_POWERSHELL, &argv);
    assert_string_equal(s, "py -3.12 -c 'import sys; print(sys.executable)'");
    free(s);
    dl_strv_free(&argv);
}

/* uv fetching the planned Python, and what to install when it may not. */
static void uv_python(void **state)
{
    dl_strv argv = {0};
    char *s;
    (void)state;
    dl_setup_uv_find_python_argv("C:\\Tools\\uv.exe", "3.12", &argv);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "C:\\Tools\\uv.exe python find --system 3.12");
    free(s);
    dl_strv_free(&argv);
    dl_setup_uv_install_python_argv("C:\\My Tools\\uv.exe", "3.12", &argv);
    s = line_of(DL_SHELL_POWERSHELL, &argv);
    assert_string_equal(s, "& 'C:\\My Tools\\uv.exe' python install 3.12");
    free(s);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "\"C:\\My Tools\\uv.exe\" python install 3.12");
    free(s);
    dl_strv_free(&argv);
    s = dl_setup_python_install_hint("windows", "3.12", "--allow-python-download");
    assert_non_null(strstr(s, "winget install --exact --id Python.Python.3.12"));
    assert_non_null(strstr(s, "`py -3.12`"));
    assert_non_null(strstr(s, "add --allow-python-download (`uv python install 3.12`"));
    free(s);
    s = dl_setup_python_install_hint("macos", "3.13", NULL);
    assert_non_null(strstr(s, "brew install python@3.13"));
    assert_non_null(strstr(s, "with uv (https://docs.astral.sh/uv/): `uv python install 3.13`"));
    free(s);
    s = dl_setup_python_install_hint("linux", "3.12", "--tool uv --allow-python-download");
    assert_non_null(strstr(s, "sudo apt install python3.12 python3.12-venv"));
    assert_non_null(strstr(s, "ppa:deadsnakes/ppa"));
    assert_non_null(strstr(s, "add --tool uv --allow-python-download"));
    free(s);
}

/* conda on Windows: the prefix's interpreter is PREFIX\\python.exe, and the swap's renames. */
static void conda_commands(void **state)
{
    dl_setup_layout l;
    dl_strv argv = {0};
    char *error = NULL, *s;
    (void)state;
    assert_true(dl_setup_layout_make("C:\\envs\\torch env", true, 9, &l, &error));
    dl_setup_layout_for_conda(&l);
    assert_string_equal(l.python, "C:\\envs\\torch env\\python.exe");
    assert_string_equal(l.staging_python, "C:\\envs\\.torch env.dlenv-staging-9\\python.exe");
    dl_setup_venv_argv(DL_TOOL_CONDA, "C:\\Miniforge3\\Scripts\\conda.exe", "3.12", l.staging,
                       &argv);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "C:\\Miniforge3\\Scripts\\conda.exe create --yes --quiet --prefix "
                           "\"C:\\envs\\.torch env.dlenv-staging-9\" python=3.12 pip");
    free(s);
    dl_strv_free(&argv);
    dl_setup_conda_rename_argv("conda", l.staging, l.target, &argv);
    s = line_of(DL_SHELL_POWERSHELL, &argv);
    assert_string_equal(s, "conda rename --yes --prefix 'C:\\envs\\.torch env.dlenv-staging-9' "
                           "'C:\\envs\\torch env'");
    free(s);
    dl_strv_free(&argv);
    dl_setup_conda_remove_argv("conda", l.previous, &argv);
    s = line_of(DL_SHELL_CMD, &argv);
    assert_string_equal(s, "conda env remove --yes --prefix \"C:\\envs\\.torch env.dlenv-previous\"");
    free(s);
    dl_strv_free(&argv);
    dl_setup_layout_free(&l);
    {
        dl_setup_activation a;
        dl_setup_conda_activation_make("C:\\envs\\R&D 100%", true, &a);
        assert_string_equal(a.powershell, "conda activate 'C:\\envs\\R&D 100%'");
        assert_string_equal(a.cmd, "conda activate \"C:\\envs\\R&D 100\"^%\"\"");
        dl_setup_activation_free(&a);
    }
    assert_true(dl_setup_layout_make("/opt/envs/t", false, 9, &l, &error));
    dl_setup_layout_for_conda(&l);
    assert_string_equal(l.python, "/opt/envs/t/bin/python");
    dl_setup_layout_free(&l);
}

static void expect_activation(const char *shown, const char *powershell, const char *cmd)
{
    dl_setup_activation a;
    dl_setup_activation_make(shown, true, &a);
    assert_string_equal(a.powershell, powershell);
    assert_string_equal(a.cmd, cmd);
    assert_null(a.sh);
    dl_setup_activation_free(&a);
}

static void activation_lines(void **state)
{
    (void)state;
    expect_activation("env", ".\\env\\Scripts\\Activate.ps1", "env\\Scripts\\activate.bat");
    /* the default target: a dot first is no folder part */
    expect_activation(".venv", ".\\.venv\\Scripts\\Activate.ps1", ".venv\\Scripts\\activate.bat");
    expect_activation("./env", ".\\env\\Scripts\\Activate.ps1", ".\\env\\Scripts\\activate.bat");
    expect_activation("..\\envs\\t", "..\\envs\\t\\Scripts\\Activate.ps1",
                      "..\\envs\\t\\Scripts\\activate.bat");
    expect_activation("D:\\envs\\t", "D:\\envs\\t\\Scripts\\Activate.ps1",
                      "D:\\envs\\t\\Scripts\\activate.bat");
    expect_activation("my env", "& '.\\my env\\Scripts\\Activate.ps1'",
                      "\"my env\\Scripts\\activate.bat\"");
    expect_activation("C:\\R&D 100%\\env", "& 'C:\\R&D 100%\\env\\Scripts\\Activate.ps1'",
                      "\"C:\\R&D 100\"^%\"\\env\\Scripts\\activate.bat\"");
    expect_activation("C:\\it's", "& 'C:\\it''s\\Scripts\\Activate.ps1'",
                      "\"C:\\it's\\Scripts\\activate.bat\"");
}

static void which_shell(void **state)
{
    dl_shell sh = DL_SHELL_POSIX;
    (void)state;
    assert_true(dl_setup_windows_shell("cmd.exe", &sh));
    assert_int_equal(sh, DL_SHELL_CMD);
    assert_true(dl_setup_windows_shell("C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\"
                                       "PowerShell.EXE", &sh));
    assert_int_equal(sh, DL_SHELL_POWERSHELL);
    assert_true(dl_setup_windows_shell("pwsh.exe", &sh));
    assert_int_equal(sh, DL_SHELL_POWERSHELL);
    assert_true(dl_setup_windows_shell("CMD.EXE", &sh));
    assert_int_equal(sh, DL_SHELL_CMD);
    assert_false(dl_setup_windows_shell("explorer.exe", &sh));
    assert_false(dl_setup_windows_shell("xcmd.exe", &sh));
    assert_false(dl_setup_windows_shell("python.exe", &sh));
    assert_false(dl_setup_windows_shell(NULL, &sh));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cmd_quoting),    cmocka_unit_test(programs),
        cmocka_unit_test(command_lines),  cmocka_unit_test(activation_lines),
        cmocka_unit_test(which_shell),    cmocka_unit_test(uv_python),
        cmocka_unit_test(conda_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
