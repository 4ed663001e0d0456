/* The paste reader: line ends, markdown fences, quoting, HTML entities, tabs, invalid
 * UTF-8, long lines, and the original line numbers kept for evidence; and the search the
 * signatures use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse/env_prefix.h"
#include "parse/paste.h"
#include "parse/paste_index.h"
#include "parse/text_facts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DL_TEN(c) c c c c c c c c c c
#define DL_X100 DL_TEN(DL_TEN("x"))
#define DL_Y100 DL_TEN(DL_TEN("y"))
#define DL_Z100 DL_TEN(DL_TEN("z"))

static void read_text(const char *text, dl_paste *p)
{
    dl_paste_read(text, strlen(text), p);
}

/* The facts a text gives, as explain reads them (free both). */
static void read_facts(const char *text, dl_paste *p, dl_facts *f)
{
    dl_text_facts w;
    read_text(text, p);
    dl_facts_init(f);
    dl_text_facts_read(p, f, &w);
}

/* The OS family the facts name: want's, or none when want is NULL. */
static void assert_os_family(const dl_facts *f, const char *want, const char *text)
{
    if (want && (!f->os.family.value || strcmp(f->os.family.value, want) != 0))
        fail_msg("\"%s\": os %s, want %s", text,
                 f->os.family.value ? f->os.family.value : "none", want);
    if (!want && f->os.family.value)
        fail_msg("\"%s\": os %s, want none", text, f->os.family.value);
}

static void line_ends_and_numbers(void **state)
{
    dl_paste p;
    (void)state;
    read_text("one\r\ntwo\rthree\nfour", &p);
    assert_int_equal(p.count, 4);
    assert_string_equal(p.lines[1].text, "two");
    assert_string_equal(p.lines[3].text, "four");
    assert_int_equal(p.lines[3].number, 4);
    dl_paste_free(&p);
}

static void fences_quotes_entities_tabs(void **state)
{
    dl_paste p;
    (void)state;
    read_text("```text\n> > Error &lt;804&gt; &amp; more\n\tindented\n```\nafter", &p);
    /* The fence lines are dropped, the numbers of the others kept. */
    assert_int_equal(p.count, 3);
    assert_string_equal(p.lines[0].text, "Error <804> & more");
    assert_int_equal(p.lines[0].number, 2);
    assert_string_equal(p.lines[1].text, " indented");
    assert_int_equal(p.lines[2].number, 5);
    dl_paste_free(&p);
}

/* The lines the paste reader makes of text, as they must read. */
static void assert_lines(const char *text, const char *const *want, size_t n)
{
    dl_paste p;
    size_t i;
    read_text(text, &p);
    assert_int_equal(p.count, n);
    for (i = 0; i < n; i++)
        assert_string_equal(p.lines[i].text, want[i]);
    dl_paste_free(&p);
}

static void a_fence_glued_to_text_keeps_the_text(void **state)
{
    /* "```Successfully installed torch-2.4.0+cu121```": the text between the marks is the
     * line; "``` python" and "~~~shell" are fences; a closing fence glued to the end of a
     * line goes, a lone backtick stays. */
    static const char *const want[] = {"Successfully installed torch-2.4.0+cu121",
                                       "import torch`", "No module named 'torch'",
                                       "Traceback (most recent call last):"};
    (void)state;
    assert_lines("```Successfully installed torch-2.4.0+cu121```\n``` python\nimport torch`\n"
                 "~~~shell\nNo module named 'torch' ```\n```Traceback (most recent call last):",
                 want, sizeof want / sizeof want[0]);
}

static void a_two_cell_table_row_is_a_field(void **state)
{
    /* an issue form's table: "| OS | Windows 10 |" is the field "OS: Windows 10"; the
     * separator, one cell (nvidia-smi's header) and three cells stay as they are */
    static const char *const want[] = {
        "Key: Value", "|---|:---:|", "OS: Windows 10",
        "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05 |", "| 0 | N/A | 3MiB |"};
    (void)state;
    assert_lines("| Key | Value |\n|---|:---:|\n|  OS  |  Windows 10  |\n"
                 "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05 |\n| 0 | N/A | 3MiB |",
                 want, sizeof want / sizeof want[0]);
}

static void invalid_utf8_stays_readable(void **state)
{
    dl_paste p;
    const char text[] = "Auslagerungsdatei zu klein f\xfcr \x1b[31mrot";
    (void)state;
    dl_paste_read(text, sizeof text - 1, &p);
    assert_int_equal(p.count, 1);
    assert_non_null(strstr(p.lines[0].text, "f\\xFCr") ? strstr(p.lines[0].text, "f\\xFCr")
                                                       : strstr(p.lines[0].text, "f\\xfcr"));
    assert_null(strchr(p.lines[0].text, '\x1b'));
    dl_paste_free(&p);
}

static void long_lines_are_cut_and_nul_bytes_survive(void **state)
{
    dl_paste p;
    size_t n = 3 * DL_PASTE_MAX_LINE;
    char *text = malloc(n + 8);
    (void)state;
    memset(text, 'x', n);
    memcpy(text + n, "\nA\0B\n", 5);
    dl_paste_read(text, n + 5, &p);
    assert_int_equal(p.count, 2);
    assert_int_equal(strlen(p.lines[0].text), DL_PASTE_MAX_LINE);
    assert_non_null(strstr(p.lines[1].text, "A"));
    dl_paste_free(&p);
    free(text);
}

/* A long text's search goes through per-block filters: it must find exactly what strstr
 * finds, for tokens inside a block, across a block's end, absent ones, and the shortest
 * and longest the filters answer for. */
static uint32_t next_random(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static char *random_log(size_t len, uint32_t seed)
{
    static const char *const words[] = {"cuda", "error", "torch", "step", "loss", "0.0042",
                                        "driver", "libcudnn.so.8", "c:\\users\\me", "nvidia",
                                        "warning:", "found", "the", "of", "sm_86", "epoch"};
    char *t = malloc(len + 1);
    size_t i = 0;
    assert_non_null(t);
    while (i < len) {
        const char *w = words[next_random(&seed) % (sizeof words / sizeof words[0])];
        size_t n = strlen(w);
        if (i + n + 1 > len)
            break;
        memcpy(t + i, w, n);
        i += n;
        t[i++] = next_random(&seed) % 9 ? ' ' : '\n';
    }
    memset(t + i, 'q', len - i);
    t[len] = '\0';
    return t;
}

static void index_find_agrees_with_strstr(void **state)
{
    size_t len = 3u * 1024u * 1024u + 77u, k;
    char *text = random_log(len, 7u), needle[300];
    dl_paste_index *ix = dl_paste_index_build(text, len);
    uint32_t seed = 99u;
    (void)state;
    assert_non_null(ix);
    assert_null(dl_paste_index_build(text, 1000));
    for (k = 0; k < 3000; k++) {
        /* every third token straddles a multiple of 8 KB (a block's end) */
        size_t n = 3 + next_random(&seed) % (k % 50 ? 40 : 260);
        size_t at = k % 3 ? next_random(&seed) % (len - n)
                          : (1 + next_random(&seed) % (len / 8192 - 1)) * 8192 - n / 2;
        size_t from = k % 4 ? 0 : next_random(&seed) % len;
        memcpy(needle, text + at, n);
        needle[n] = '\0';
        if (k % 7 == 0)
            needle[n / 2] = 'Z'; /* absent: the text has no capitals */
        assert_ptr_equal(dl_paste_index_find(ix, text, from, needle), strstr(text + from, needle));
    }
    memcpy(needle, text + len - 20, 20);
    needle[20] = '\0';
    assert_ptr_equal(dl_paste_index_find(ix, text, 0, needle), strstr(text, needle));
    dl_paste_index_free(ix);
    free(text);
}

/* "gpu" as a word of its own, not inside "gpus" or "egpu". */
static bool gpu_alone(const char *low, const char *at, size_t len)
{
    return (at == low || !isalpha((unsigned char)at[-1])) && !isalpha((unsigned char)at[len]);
}

static void find_where_offers_every_occurrence(void **state)
{
    dl_paste p;
    (void)state;
    read_text("two gpus here\nan egpu, then a GPU alone\nGPU\n", &p);
    /* line 0 has only "gpus"; line 1's first occurrence is refused, its second taken */
    assert_int_equal(dl_paste_find_where(&p, 0, "gpu", gpu_alone), 1);
    assert_int_equal(dl_paste_find_where(&p, 2, "gpu", gpu_alone), 2);
    assert_int_equal(dl_paste_find_where(&p, 3, "gpu", gpu_alone), -1);
    assert_int_equal(dl_paste_find_where(&p, 0, "tpu", gpu_alone), -1);
    {
        /* the needles in their order: "tpu" is absent, "gpu" first taken on line 1 */
        static const char *const needles[] = {"tpu", "gpu"};
        assert_int_equal(dl_paste_find_any_where(&p, needles, 2, gpu_alone), 1);
    }
    dl_paste_free(&p);
}

static void cursor_visits_the_lines_holding_a_mark(void **state)
{
    static const char *const marks[] = {".dll", "winerror", "absent mark"};
    dl_paste p;
    dl_paste_cursor c;
    bool held[7];
    size_t i;
    (void)state;
    read_text("step 1\nfoo.DLL missing\nstep 2\n[WinError 126] and a.dll\nstep 3\n"
              "step 4\nWinError\n", &p);
    dl_paste_cursor_init(&c, &p, marks, sizeof marks / sizeof marks[0]);
    for (i = 0; i < p.count; i++)
        held[i] = dl_paste_cursor_at(&c, i);
    assert_int_equal(p.count, 7);
    assert_false(held[0]);
    assert_true(held[1]);
    assert_false(held[2]);
    assert_true(held[3]);
    assert_false(held[4]);
    assert_false(held[5]);
    assert_true(held[6]);
    /* lines skipped over are no matter: the next asked about is still answered */
    dl_paste_cursor_init(&c, &p, marks, sizeof marks / sizeof marks[0]);
    assert_true(dl_paste_cursor_at(&c, 3));
    assert_true(dl_paste_cursor_at(&c, 6));
    dl_paste_free(&p);
}

static void find_in_a_long_paste_reports_lines(void **state)
{
    size_t len = 2u * 1024u * 1024u;
    char *text = random_log(len, 3u);
    const char *tail = "\nFailed to initialize NVML: Driver/Library version mismatch\nend\n";
    dl_paste p;
    long at;
    (void)state;
    memcpy(text + len - strlen(tail), tail, strlen(tail));
    dl_paste_read(text, len, &p);
    assert_non_null(p.index);
    at = dl_paste_find(&p, 0, "driver/library version mismatch");
    assert_true(at >= 0);
    assert_string_equal(p.lines[at].text,
                        "Failed to initialize NVML: Driver/Library version mismatch");
    assert_int_equal(dl_paste_find(&p, (size_t)at + 1, "driver/library"), -1);
    assert_int_equal(dl_paste_find(&p, 0, "not there at all"), -1);
    at = dl_paste_find(&p, 0, "libcudnn.so.8");
    assert_true(at >= 0 && strstr(p.lines[at].lower, "libcudnn.so.8"));
    assert_true(at == 0 || !strstr(p.lines[at - 1].lower, "libcudnn.so.8"));
    dl_paste_free(&p);
    free(text);
}

static void find_ignores_case_and_reports_lines(void **state)
{
    dl_paste p;
    (void)state;
    read_text("nothing\nFailed to initialize NVML: Driver/Library version mismatch\nend", &p);
    assert_int_equal(dl_paste_find(&p, 0, "driver/library version mismatch"), 1);
    assert_int_equal(dl_paste_find(&p, 2, "driver/library"), -1);
    assert_int_equal(dl_paste_find(&p, 0, "not there"), -1);
    dl_paste_free(&p);
    read_text("", &p);
    assert_int_equal(p.count, 0);
    assert_int_equal(dl_paste_find(&p, 0, "x"), -1);
    dl_paste_free(&p);
}

static void typographic_spaces_quotes_and_escapes(void **state)
{
    dl_paste p;
    (void)state;
    /* a web page's no-break spaces, a word processor's quotes, a zero-width space, a BOM
     * and a terminal's colours and link read as the ASCII the writer saw */
    read_text("\xef\xbb\xbfNo\xc2\xa0module named \xe2\x80\x98torch\xe2\x80\x99\n"
              "\x1b[1;31mError\x1b[0m \xe2\x80\x9c" "804\xe2\x80\x9d\xe2\x80\x8b"
              "\x1b]8;;http://x\x07link\x1b]8;;\x07",
              &p);
    assert_int_equal(p.count, 2);
    assert_string_equal(p.lines[0].text, "No module named 'torch'");
    assert_string_equal(p.lines[1].text, "Error \"804\"link");
    dl_paste_free(&p);
}

static void utf16_from_powershell(void **state)
{
    dl_paste p;
    const char le[] = "\xff\xfeO\0K\0\r\0\n\0\xac\x20\0\xd8\0\xdc";
    const char be_no_bom[] = "\0O\0K";
    (void)state;
    dl_paste_read(le, sizeof le - 1, &p);
    assert_int_equal(p.count, 2);
    assert_string_equal(p.lines[0].text, "OK");
    /* the euro sign and a surrogate pair (U+10000) as UTF-8 */
    assert_string_equal(p.lines[1].text, "\xe2\x82\xac\xf0\x90\x80\x80");
    assert_int_equal(p.bytes, sizeof le - 1);
    dl_paste_free(&p);
    dl_paste_read(be_no_bom, sizeof be_no_bom - 1, &p);
    assert_int_equal(p.count, 1);
    assert_string_equal(p.lines[0].text, "OK");
    dl_paste_free(&p);
}

static void log_prefixes_are_dropped(void **state)
{
    dl_paste p;
    (void)state;
    read_text("2025-01-02 10:11:12,345 ERROR RuntimeError: x\n"
              "[2025-01-02T10:11:12.5+01:00] [WARNING] - y\n"
              "> 2025/01/02 10:11:12 z\n"
              "2025-01-02 is the day\n"
              "2025-01-02 10:11:12 INFORMATION w",
              &p);
    assert_int_equal(p.count, 5);
    assert_string_equal(p.lines[0].text, "RuntimeError: x");
    assert_string_equal(p.lines[1].text, "y");
    assert_string_equal(p.lines[2].text, "z");
    assert_string_equal(p.lines[3].text, "2025-01-02 is the day");
    assert_string_equal(p.lines[4].text, "INFORMATION w"); /* no level, a word */
    dl_paste_free(&p);
    /* docker compose's service column (v2 and v1), alone or before a dated prefix; a name
     * without its replica number, or a shell pipe, is left as written */
    read_text("chatterbox-tts-server-1  | NVIDIA GeForce RTX 5070 Ti with\n"
              "web_app_2 | 2025-01-02 10:11:12 ERROR boom\n"
              "webui  | kept\n"
              "nvidia-smi | grep 1\n",
              &p);
    assert_int_equal(p.count, 4);
    assert_string_equal(p.lines[0].text, "NVIDIA GeForce RTX 5070 Ti with");
    assert_string_equal(p.lines[1].text, "boom");
    assert_string_equal(p.lines[2].text, "webui  | kept");
    assert_string_equal(p.lines[3].text, "nvidia-smi | grep 1");
    dl_paste_free(&p);
}

static void lines_cut_at_80_columns_are_joined(void **state)
{
    dl_paste p;
    char text[400], want[100];
    (void)state;
    /* 80 columns (the last a two-byte character), then the rest of the line; a line of 79
     * columns, and one of 80 before a blank line, stay as they are */
    snprintf(text, sizeof text, "%.79s\xc3\xa9\nrest\n%.79s\nShort\n%.80s\n\nnext",
             DL_X100, DL_Y100, DL_Z100);
    read_text(text, &p);
    assert_int_equal(p.count, 6);
    snprintf(want, sizeof want, "%.79s\xc3\xa9rest", DL_X100);
    assert_string_equal(p.lines[0].text, want);
    assert_int_equal(p.lines[1].number, 3);
    assert_int_equal(strlen(p.lines[1].text), 79);
    assert_string_equal(p.lines[2].text, "Short");
    assert_int_equal(strlen(p.lines[3].text), 80);
    assert_string_equal(p.lines[4].text, "");
    assert_string_equal(p.lines[5].text, "next");
    assert_int_equal(p.lines[5].number, 7);
    dl_paste_free(&p);
}

static void lines_of_80_columns_that_end_there_stay(void **state)
{
    dl_paste p;
    char text[600];
    (void)state;
    /* a line of its own after an 80-column one: a "key: value" line, a capitalised word,
     * an indented line, a table row; cut ones: a single space before a word, inside an
     * upper-case word */
    snprintf(text, sizeof text,
             "%.80s\nName: torch\n%.80s\nType \"help\"\n%.80s\n  File x\n|%.78s|\nxyz\n"
             "%.78sAM\nD64)\n%.80s\n this platform.",
             DL_X100, DL_X100, DL_X100, DL_Y100, DL_Z100, DL_Z100);
    read_text(text, &p);
    assert_int_equal(p.count, 10);
    assert_string_equal(p.lines[1].text, "Name: torch");
    assert_string_equal(p.lines[3].text, "Type \"help\"");
    assert_string_equal(p.lines[5].text, "  File x");
    assert_string_equal(p.lines[7].text, "xyz");
    assert_non_null(strstr(p.lines[8].text, "zzAMD64)"));
    assert_non_null(strstr(p.lines[9].text, "zz this platform."));
    assert_int_equal(p.lines[9].number, 11);
    dl_paste_free(&p);
    /* the cut moved a capitalised word down with its one space (" UserWarning: ..."); two
     * spaces are an indent, and a line that ends in ':' introduces the next */
    snprintf(text, sizeof text, "%.80s\n UserWarning: CUDA initialization\n%.80s\n  Traceback x\n"
             "%.79s:\n Name: torch",
             DL_X100, DL_Y100, DL_Z100);
    read_text(text, &p);
    assert_int_equal(p.count, 5);
    assert_non_null(strstr(p.lines[0].text, "xx UserWarning: CUDA initialization"));
    assert_string_equal(p.lines[2].text, "  Traceback x");
    assert_string_equal(p.lines[4].text, " Name: torch");
    dl_paste_free(&p);
    /* a markdown list item after an 80-column line is a line of its own ("- OS : Ubuntu");
     * a cut inside a hyphenated word ("...-" + "-x") is not */
    snprintf(text, sizeof text, "%.80s\n- OS : Ubuntu\n* GPU: RTX\n%.80s\n-x", DL_X100, DL_Y100);
    read_text(text, &p);
    assert_int_equal(p.count, 4);
    assert_string_equal(p.lines[1].text, "OS : Ubuntu"); /* its list mark dropped */
    assert_non_null(strstr(p.lines[3].text, "yy-x"));
    dl_paste_free(&p);
    /* a cut that left "mbol: _ZN3c10" looks like a field but starts with no capital */
    snprintf(text, sizeof text, "%.68sundefined sy\nmbol: _ZN3c10\n", DL_X100);
    read_text(text, &p);
    assert_int_equal(p.count, 1);
    assert_non_null(strstr(p.lines[0].text, "undefined symbol: _ZN3c10"));
    dl_paste_free(&p);
}

static void lines_wrapped_at_a_space_are_joined(void **state)
{
    dl_paste p;
    (void)state;
    /* "available" would not have fitted on the 76-column line: wrapped there; a conda list
     * row's next row would have fitted (77 columns), and a capitalised line starts anew */
    read_text("train.py, training will encounter an error: `RuntimeError: No CUDA GPUs are\n"
              "available`.\n"
              "pytorch                   1.9.0           py3.8_cpu_0    pytorch\n"
              "torchvision               0.10.0               py38_cpu    pytorch\n"
              "it will encounter an error that nobody expected when it started the Python\n"
              "Traceback (most recent call last):",
              &p);
    assert_int_equal(p.count, 5);
    assert_non_null(strstr(p.lines[0].text, "No CUDA GPUs are available."));
    assert_int_equal(p.lines[1].number, 3);
    assert_string_equal(p.lines[2].text,
                        "torchvision               0.10.0               py38_cpu    pytorch");
    assert_string_equal(p.lines[4].text, "Traceback (most recent call last):");
    dl_paste_free(&p);
}

static void a_wrap_before_a_capital_or_a_quote_is_joined(void **state)
{
    dl_paste p;
    (void)state;
    /* inside a sentence a text box wraps before a capitalised word or a quoted name too;
     * a labelled line, a line that introduces the next, a shell command's output and a
     * layout in columns stay lines of their own */
    read_text("and then I get the error AttributeError: module 'torch._C' has no attribute\n"
              "'_cuda_setDevice' when I call it\n"
              "I installed the latest driver and the toolkit but it still says Torch not\n"
              "Compiled with CUDA enabled\n"
              "the same happens when I run the training script from the repository again\n"
              "RuntimeError: CUDA error: no kernel image is available\n"
              "this is what I see in the console window of the application when it starts\n"
              "Traceback (most recent call last):\n"
              "(venv) C:\\Users\\me\\Documents\\projects\\a-long-project-name>echo %PATH%\n"
              "C:\\Windows\\system32\n"
              "NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 12.1\n"
              "Quadro",
              &p);
    assert_int_equal(p.count, 10);
    assert_non_null(strstr(p.lines[0].text, "has no attribute '_cuda_setDevice' when"));
    assert_non_null(strstr(p.lines[1].text, "Torch not Compiled with CUDA enabled"));
    assert_string_equal(p.lines[3].text, "RuntimeError: CUDA error: no kernel image is available");
    assert_string_equal(p.lines[5].text, "Traceback (most recent call last):");
    assert_string_equal(p.lines[7].text, "C:\\Windows\\system32");
    assert_string_equal(p.lines[9].text, "Quadro");
    dl_paste_free(&p);
}

static void a_symbol_wrapped_after_undefined_symbol_is_joined(void **state)
{
    dl_paste p;
    (void)state;
    /* the mangled name would have crossed column 80: wrapped at the space after "symbol:";
     * a short name that would have fitted, or a sentence after the colon, is not joined */
    read_text("ImportError: /home/a/ops/_ext.cpython-38-x86_64-linux-gnu.so: undefined symbol:\n"
              "_ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE`\n"
              "ImportError: knn.so: undefined symbol:\n"
              "_ZN3c10\n"
              "the loader printed this line and then undefined symbol:\n"
              "I rebuilt it and it still fails the same way on every single run",
              &p);
    assert_int_equal(p.count, 5);
    assert_non_null(strstr(p.lines[0].text, "undefined symbol: _ZN2at4_ops5zeros4call"));
    assert_string_equal(p.lines[2].text, "_ZN3c10");
    assert_string_equal(p.lines[4].text,
                        "I rebuilt it and it still fails the same way on every single run");
    dl_paste_free(&p);
}

static void a_short_line_before_a_long_path_is_joined(void **state)
{
    dl_paste p;
    (void)state;
    /* a sentence wrapped before a path too long for any line; "where python" (a command,
     * not a sentence) and a short word after a short line stay apart */
    read_text("FileNotFoundError: Could not find module\n"
              "'C:\\Users\\ana\\.conda\\envs\\sd\\lib\\site-packages\\torch\\lib\\"
              "caffe2_nvrtc.dll' (or one)\n"
              "where python\n"
              "c:\\users\\ana\\appdata\\local\\programs\\python\\python310\\envs\\"
              "project\\scripts\\python.exe\n"
              "it failed again after I reinstalled\n"
              "torch",
              &p);
    assert_int_equal(p.count, 5);
    assert_non_null(strstr(p.lines[0].text, "find module 'C:\\Users"));
    assert_string_equal(p.lines[1].text, "where python");
    assert_string_equal(p.lines[4].text, "torch");
    dl_paste_free(&p);
}

static void a_message_wrapped_at_its_own_colon_or_before_a_path_is_joined(void **state)
{
    dl_paste p;
    (void)state;
    /* the message goes on where its first word would have crossed column 80: the shell's
     * "command not found", pip's "(from versions: ...)", a path after "error at" or after
     * a sentence's ':'; an indented line (a code block's) is not a layout in columns; a
     * label's path that would have fitted, and a list after a label, stay apart */
    read_text("\"!nvidia-smi\" in the notebook does also not work: \"/bin/bash: nvidia-smi:\n"
              "command not found\"\n"
              "ERROR: Could not find a version that satisfies the requirement torch>=2.1.0dev\n"
              "(from versions: 2.0.0)\n"
              "[Running on windows 10] cuda runtime error (30) : unknown error at\n"
              "..\\aten\\src\\THC\\THCGeneral.cpp:87\n"
              "OSError: Could not load this library:\n"
              "/home/user/app/venv/lib/python3.12/site-packages/torchaudio/lib/"
              "_torchaudio.abi3.so\n"
              "    ERROR: torch-1.6.0+cpu-cp36-cp36m-linux_x86_64.whl is not a supported wheel\n"
              "on this platform.\n"
              "Here are the files that it found:\n"
              "/usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
              "Location:\n"
              "/usr/lib/python3/dist-packages/torch/lib/libtorch_cuda_linalg_and_other_parts.so",
              &p);
    assert_int_equal(p.count, 9);
    assert_non_null(strstr(p.lines[0].text, "nvidia-smi: command not found"));
    assert_non_null(strstr(p.lines[1].text, "torch>=2.1.0dev (from versions: 2.0.0)"));
    assert_non_null(strstr(p.lines[2].text, "unknown error at ..\\aten"));
    assert_non_null(strstr(p.lines[3].text, "this library: /home/user/app"));
    assert_non_null(strstr(p.lines[4].text, "supported wheel on this platform."));
    assert_string_equal(p.lines[6].text, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    assert_string_equal(p.lines[7].text, "Location:");
    dl_paste_free(&p);
}

static void a_sentence_that_ends_at_80_columns_stays(void **state)
{
    dl_paste p;
    (void)state;
    /* 80 columns that end a sentence, then a line of code or a new sentence: no "1650.torch"
     * nor "1650!it" (a text box's wrap at the space, at most); a 79-column sentence before
     * code is not wrapped either; "x = torch." + "cuda..." and
     * "python3." + "dll" are cut inside one token and go on */
    read_text("xI reinstalled everything twice today and still get the same result on GTX 1650.\n"
              "torch.cuda.is_available() returns False\n"
              "I still see no GPU at all, after I reinstalled everything twice, on my GTX 1650!\n"
              "it says no\n"
              "I reinstalled everything twice today and still get the same result on GTX 1650.\n"
              "torch.cuda.is_available() returns False\n"
              "so I went and wrote it down once more, line by line, and it printed yyy = torch.\n"
              "cuda.is_available()\n"
              "xSo I went and wrote it down once more, line by line; it could not load python3.\n"
              "dll",
              &p);
    assert_int_equal(p.count, 7);
    assert_string_equal(p.lines[1].text, "torch.cuda.is_available() returns False");
    assert_non_null(strstr(p.lines[2].text, "GTX 1650! it says no")); /* wrapped, not cut */
    assert_string_equal(p.lines[4].text, "torch.cuda.is_available() returns False");
    assert_non_null(strstr(p.lines[5].text, "yyy = torch.cuda.is_available()"));
    assert_non_null(strstr(p.lines[6].text, "python3.dll"));
    dl_paste_free(&p);
}

static void list_markers_and_indented_blocks(void **state)
{
    dl_paste p;
    (void)state;
    /* an issue form's bullets; a markdown code block by indentation keeps only its own
     * (relative) indentation; a paragraph with an unindented line keeps all of it */
    read_text("- OS: Windows 11\n* Name: torch\n-1 is not a marker\n\n    Traceback:\n"
              "      File x\n\nError\n    at y",
              &p);
    assert_string_equal(p.lines[0].text, "OS: Windows 11");
    assert_string_equal(p.lines[1].text, "Name: torch");
    assert_string_equal(p.lines[2].text, "-1 is not a marker");
    assert_string_equal(p.lines[4].text, "Traceback:");
    assert_string_equal(p.lines[5].text, "  File x");
    assert_string_equal(p.lines[5].lower, "  file x");
    assert_string_equal(p.lines[8].text, "    at y");
    dl_paste_free(&p);
}

static void markdown_inline_marks_of_fields(void **state)
{
    dl_paste p;
    (void)state;
    read_text("**PyTorch version**: `2.3.1`\nf(*a, **kwargs)\nthen `py app.py`: it fails", &p);
    assert_string_equal(p.lines[0].text, "PyTorch version: 2.3.1");
    assert_string_equal(p.lines[1].text, "f(*a, **kwargs)");
    assert_string_equal(p.lines[2].text, "then `py app.py`: it fails");
    dl_paste_free(&p);
}

/* WSL named as where the text runs, not a denial of it. */
static void wsl_said_not_denied(void **state)
{
    static const struct {
        const char *text;
        long line;
    } cases[] = {
        {"Ubuntu 22.04 in WSL2 on Windows 11", 0},
        {"native Ubuntu (not WSL)\nnvidia-smi fails", -1},
        {"dual boot, without wsl\nno WSL either", -1},
        {"not WSL\nWindows Subsystem for Linux, Ubuntu", 1},
        {"not WSL1 but WSL2", 0},
        {"wsl", 0},
        {"Ubuntu on bare metal", -1},
        {"\xe6\xb2\xa1\xe6\x9c\x89\xe4\xbd\xbf\xe7\x94\xa8WSL", -1},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dl_paste p;
        read_text(cases[i].text, &p);
        if (dl_text_wsl_line(&p) != cases[i].line)
            fail_msg("\"%s\": line %ld, want %ld", cases[i].text, dl_text_wsl_line(&p),
                     cases[i].line);
        dl_paste_free(&p);
    }
}

/* The facts a text gives: the OS from a Mac's words over a path form pip writes alike on
 * both, a version closed by markdown's backtick without the backtick, the build a conda
 * install command pins, and a GPU name nvidia-smi cut short without its cut word. */
static void os_and_version_read_from_words(void **state)
{
    static const struct {
        const char *text, *family, *torch, *cuda, *gpu;
    } cases[] = {
        {"MacBook Pro M2, macOS 14\n  File \"/opt/venv/lib/python3.11/site-packages/torch/x.py\"",
         "macos", NULL, NULL, NULL},
        {"  File \"/opt/venv/lib/python3.11/site-packages/torch/x.py\"\nOS: Ubuntu 22.04 on my mac",
         "linux", NULL, NULL, NULL},
        {"OS: Ubuntu 22.04\nFile \"/usr/lib/python3/dist-packages/a.py\"", "linux", NULL, NULL,
         NULL},
        {"I have `torch==2.10.0+cu130` and an RTX 5090", NULL, "2.10.0+cu130", "13.0", NULL},
        {"conda install pytorch torchvision cudatoolkit=10.2 -c pytorch", NULL, NULL, "10.2",
         NULL},
        {"fails with pytorch==1.6.0\n`conda install pytorch==1.6.0 cudatoolkit=10.1 -c pytorch`",
         NULL, "1.6.0", "10.1", NULL},
        {"conda install pytorch cpuonly -c pytorch", NULL, NULL, NULL, NULL},
        {"|   0  GeForce GTX 108...  Off  | 00000000:02:00.0 Off |   N/A |", NULL, NULL, NULL,
         "GeForce GTX"},
        /* Windows by its short names; "-": no OS at all (near misses) */
        {"Win 11 Pro, RTX 4070", "windows", NULL, NULL, NULL},
        {"win 10 pro 22H2", "windows", NULL, NULL, NULL},
        {"System : Window 11", "windows", NULL, NULL, NULL},
        {"Windows11 with an RTX 4090", "windows", NULL, NULL, NULL},
        {"unpacked it with winrar", "-", NULL, NULL, NULL},
        {"Winston here, win32 api question", "-", NULL, NULL, NULL},
        {"Darwin 10.8.0 kernel", "macos", NULL, NULL, NULL},
        /* A driver number in NVIDIA's Windows form (a major since 410 that is no branch:
         * 536.23) or a Windows shell the writer ran in ("in the CMD", PowerShell) names
         * Windows when nothing else names the OS; a branch's own major (535, 410) is either's,
         * a template's "```powershell" fence is no shell, and a container or a named Linux
         * keeps them out. */
        {"pytorch: Version: 2.0.1\nnvidia driver:536.23", "windows", NULL, NULL, NULL},
        {"Driver Version: 551.61   CUDA Version: 12.4", "windows", NULL, NULL, NULL},
        {"Driver Version: 535.54.03   CUDA Version: 12.2", "-", NULL, NULL, NULL},
        {"nvidia driver: 535.98", "-", NULL, NULL, NULL},
        {"nvidia driver: 410.48", "-", NULL, NULL, NULL},
        {"nvidia driver: 418.67", "-", NULL, NULL, NULL},
        {"docker run --gpus all img\nDriver Version: 536.23", "-", NULL, NULL, NULL},
        {"Ubuntu 22.04\nnvidia driver: 536.23", "linux", NULL, NULL, NULL},
        {"when I launch it, it says in the CMD that GPU is not available", "windows", NULL, NULL,
         NULL},
        {"I ran it from PowerShell", "windows", NULL, NULL, NULL},
        {"set it in cmdline args", "-", NULL, NULL, NULL},
        {"### Logs\n```powershell\nDevice: cpu\n```", "-", NULL, NULL, NULL},
        {"in PowerShell: docker run -it img python app.py", "-", NULL, NULL, NULL},
        /* Path forms only one OS writes: a backslash site-packages or AppData with no
         * drive, a relative ".\\" typed at a prompt, an issue form's "OS: Windows"; Linux's
         * rooted /home, /content, /mnt, /pytorch (its wheels' build root), /opt/conda, a root
         * prompt; a Mac's .dylib. A URL's /home/, a README's Windows step quoted in prose,
         * "OS: Windows 11 + WSL2" and /opt/anaconda3 (a Mac's install too) are none. */
        {"  File \"\\sd\\venv\\lib\\site-packages\\torch\\cuda\\__init__.py\"", "windows", NULL,
         NULL, NULL},
        {"File ~\\AppData\\Local\\miniconda3\\envs\\a\\lib", "windows", NULL, NULL, NULL},
        {"(venv) PS > .\\webui-user.bat", "windows", NULL, NULL, NULL},
        {" pip install .\\torch_directml-0.2.0-cp310-cp310-win_amd64.whl", "windows", NULL, NULL,
         NULL},
        {"the README says .\\venv\\Scripts\\activate, see there", "-", NULL, NULL, NULL},
        {"OS: Windows 10", "windows", NULL, NULL, NULL},
        {"OS: Windows 11 + WSL2 Ubuntu", "linux", NULL, NULL, NULL},
        {"OS: Windows 11\nRunning in WSL2, Ubuntu 22.04", "linux", NULL, NULL, NULL},
        {"OS: Windows 11\nnative, not WSL", "windows", NULL, NULL, NULL},
        {"  File \"/home/me/QuaRot/quarot/nn/linear.py\", line 50", "linux", NULL, NULL, NULL},
        {"  File \"/data/home/me/main.py\", line 56", "linux", NULL, NULL, NULL},
        {"see https://example.com/home/docs", "-", NULL, NULL, NULL},
        {"-e USER_HOME=/home/lab", "linux", NULL, NULL, NULL},
        {"at /pytorch/c10/cuda/CUDACachingAllocator.cpp:513", "linux", NULL, NULL, NULL},
        {"at /opt/conda/conda-bld/pytorch_1579022060824/work/aten/src/THC/THCGeneral.cpp:50",
         "linux", NULL, NULL, NULL},
        {"cd /opt/anaconda3/envs/a", "-", NULL, NULL, NULL},
        {"root@a192be7bc1bc:/workspace# bash gui.sh", "linux", NULL, NULL, NULL},
        {"In google colab: /content/drive/MyDrive", "linux", NULL, NULL, NULL},
        {"OMP: Error #15: Initializing libiomp5.dylib", "macos", NULL, NULL, NULL},
        /* and last, a Windows script or program run by name, or a tool only Linux has;
         * both on one line say nothing, a container keeps the Windows names out, and a
         * "MBP" is a Mac */
        {"after opening the webui-user.bat file, CMD returned", "windows", NULL, NULL, NULL},
        {"sudo modprobe nvidia fails", "linux", NULL, NULL, NULL},
        {"I could run all the scripts in colab, from GPU by the way.", "-", NULL, NULL, NULL},
        {"setup.bat or apt-get install, both fail", "-", NULL, NULL, NULL},
        {"docker compose up, then run.bat in the container", "-", NULL, NULL, NULL},
        {"a battery.bat-tery", "-", NULL, NULL, NULL},
        {"Running on a 2016 MBP\n  File \"/usr/local/lib/python3.7/site-packages/torch/x.py\"",
         "macos", NULL, NULL, NULL},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dl_paste p;
        dl_facts f;
        read_facts(cases[i].text, &p, &f);
        if (cases[i].family)
            assert_os_family(&f, strcmp(cases[i].family, "-") ? cases[i].family : NULL,
                             cases[i].text);
        if (cases[i].torch || cases[i].cuda) {
            const dl_python *py = &DL_LIST_AT(f.pythons, dl_python, 0);
            const dl_site_packages *sp = &DL_LIST_AT(py->site_packages, dl_site_packages, 0);
            const dl_torch_install *t = &DL_LIST_AT(sp->torches, dl_torch_install, 0);
            if (cases[i].torch)
                assert_string_equal(t->version.value, cases[i].torch);
            if (cases[i].cuda)
                assert_string_equal(t->cuda.value, cases[i].cuda);
        }
        if (!cases[i].torch && !cases[i].cuda && !cases[i].gpu &&
            (!cases[i].family || !strcmp(cases[i].family, "-")))
            assert_int_equal(f.pythons.count, 0);
        if (cases[i].gpu)
            assert_string_equal(DL_LIST_AT(f.nvml.gpus, dl_nvml_gpu, 0).name.value,
                                cases[i].gpu);
        dl_facts_free(&f);
        dl_paste_free(&p);
    }
}

/* The conda environment of the paths a text shows: POSIX and Windows forms in the writer's
 * case; a pyenv-virtualenv "envs" folder and a file under envs/ that is not the
 * environment's Python or packages are not conda's. */
static void conda_prefix_from_paths(void **state)
{
    static const struct {
        const char *text, *prefix;
    } cases[] = {
        {"  File \"/home/Me/miniconda3/envs/dl-2/lib/python3.10/site-packages/torch/x.py\"",
         "/home/Me/miniconda3/envs/dl-2"},
        {"C:\\Users\\Ana\\anaconda3\\envs\\sd\\Lib\\site-packages\\torch\\lib\\c10.dll",
         "C:\\Users\\Ana\\anaconda3\\envs\\sd"},
        {"(/opt/miniforge3/envs/ml/bin/python -m pip list)", "/opt/miniforge3/envs/ml"},
        {"  File \"C:\\Users\\Ana Lee\\anaconda3\\envs\\sd\\Lib\\site-packages\\x.py\", line 6",
         "C:\\Users\\Ana Lee\\anaconda3\\envs\\sd"},
        {"PS C:\\> C:\\Users\\Ana Lee\\miniconda3\\envs\\sd\\python.exe -m pip list",
         "C:\\Users\\Ana Lee\\miniconda3\\envs\\sd"},
        {"echo \"hi\" /srv/mambaforge/envs/t/bin/python", "/srv/mambaforge/envs/t"},
        {"/home/me/.pyenv/versions/3.10.4/envs/x/lib/python3.10/site-packages/torch", NULL},
        {"cat /home/me/miniconda3/envs/dl/conda-meta/history", NULL},
        {"see /home/me/miniconda3/envs/ for the list", NULL},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dl_paste p;
        char buf[256];
        size_t line = 99;
        bool found;
        read_text(cases[i].text, &p);
        found = dl_text_conda_prefix(&p, buf, sizeof buf, &line);
        if (!cases[i].prefix && found)
            fail_msg("\"%s\": prefix %s, want none", cases[i].text, buf);
        if (cases[i].prefix) {
            if (!found)
                fail_msg("\"%s\": no prefix, want %s", cases[i].text, cases[i].prefix);
            assert_string_equal(buf, cases[i].prefix);
            assert_int_equal(line, 0);
        }
        dl_paste_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_ends_and_numbers),
        cmocka_unit_test(fences_quotes_entities_tabs),
        cmocka_unit_test(a_fence_glued_to_text_keeps_the_text),
        cmocka_unit_test(a_two_cell_table_row_is_a_field),
        cmocka_unit_test(invalid_utf8_stays_readable),
        cmocka_unit_test(long_lines_are_cut_and_nul_bytes_survive),
        cmocka_unit_test(find_ignores_case_and_reports_lines),
        cmocka_unit_test(find_where_offers_every_occurrence),
        cmocka_unit_test(cursor_visits_the_lines_holding_a_mark),
        cmocka_unit_test(index_find_agrees_with_strstr),
        cmocka_unit_test(find_in_a_long_paste_reports_lines),
        cmocka_unit_test(typographic_spaces_quotes_and_escapes),
        cmocka_unit_test(utf16_from_powershell),
        cmocka_unit_test(log_prefixes_are_dropped),
        cmocka_unit_test(lines_cut_at_80_columns_are_joined),
        cmocka_unit_test(lines_of_80_columns_that_end_there_stay),
        cmocka_unit_test(lines_wrapped_at_a_space_are_joined),
        cmocka_unit_test(a_wrap_before_a_capital_or_a_quote_is_joined),
        cmocka_unit_test(a_symbol_wrapped_after_undefined_symbol_is_joined),
        cmocka_unit_test(a_short_line_before_a_long_path_is_joined),
        cmocka_unit_test(a_message_wrapped_at_its_own_colon_or_before_a_path_is_joined),
        cmocka_unit_test(a_sentence_that_ends_at_80_columns_stays),
        cmocka_unit_test(list_markers_and_indented_blocks),
        cmocka_unit_test(markdown_inline_marks_of_fields),
        cmocka_unit_test(wsl_said_not_denied),
        cmocka_unit_test(os_and_version_read_from_words),
        cmocka_unit_test(conda_prefix_from_paths),
        };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
