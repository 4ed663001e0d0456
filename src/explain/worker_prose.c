#include "explain/worker_prose.h"

#include "explain/text_cause.h"
#include "plan/plan.h"

#include <ctype.h>
#include <string.h>

/* Words of a failure, in the line or the text. */
static const char *const fails[] = {"error", "fail", "crash", "exception", "not work",
                                    "don't work", "doesn't work", "throw",
                                    "\xe6\x8a\xa5\xe9\x94\x99" /* 报错 */};

/* Whether any of n words occurs in low[from, to). */
static bool word_between(const char *low, size_t from, size_t to, const char *const *words,
                         size_t n)
{
    size_t k;
    for (k = 0; k < n; k++) {
        const char *at = strstr(low + from, words[k]);
        if (at && (size_t)(at - low) + strlen(words[k]) <= to)
            return true;
    }
    return false;
}

/* The value said right after "num_workers" at `after`: skips "=", ":", quotes, "to", "as",
 * "为" ("set to 0", "= 0", "为0"); 0 when it is the number 0, 1 when another number, 2 for
 * words of "not zero" ("> 0", "!= 0", "not zero", "不等于0"), -1 when none of these. */
static int value_after(const char *after)
{
    static const char *const nonzero[] = {">0", "> 0", "!=0", "!= 0", ">=1", "not zero",
                                          "not 0", "other than 0",
                                          "\xe4\xb8\x8d\xe7\xad\x89\xe4\xba\x8e" /* 不等于 */,
                                          "\xe5\xa4\xa7\xe4\xba\x8e" /* 大于 */};
    size_t k;
    for (k = 0; k < sizeof nonzero / sizeof nonzero[0]; k++) {
        const char *at = strstr(after, nonzero[k]);
        if (at && at - after < 24)
            return 2;
    }
    for (;;) {
        if (*after == ' ' || *after == '=' || *after == ':' || *after == '`' ||
            *after == '\'' || *after == '"')
            after++;
        else if (!strncmp(after, "to ", 3) || !strncmp(after, "as ", 3))
            after += 3;
        else if (!strncmp(after, "\xe4\xb8\xba", 3) /* 为 */)
            after += 3;
        else
            break;
    }
    if (!isdigit((unsigned char)*after))
        return -1;
    return *after == '0' && !isdigit((unsigned char)after[1]) && after[1] != '.' ? 0 : 1;
}

/* "num_workers" (or "num_worker") at `at` in a line that says the loader fails with workers
 * and runs without them. */
static bool workers_fail_said(const char *low, const char *at, size_t len)
{
    static const char *const removed[] = {"comment", "remov", "delet", "without", "drop"};
    static const char *const works[] = {"work", "success", "fine", " ok", "run", "no error",
                                        "skip", "solve", "fix",
                                        "\xe5\x8f\xaf\xe4\xbb\xa5" /* 可以 */,
                                        "\xe6\xad\xa3\xe5\xb8\xb8" /* 正常 */};
    static const char *const no_help[] = {"still", "same error", "not help", "n't help",
                                          "not fix", "n't fix", "not work", "n't work",
                                          "not solve", "n't solve"};
    size_t pos = (size_t)(at - low), end = strlen(low);
    const char *after = at + len;
    int value;
    if (*after == 's')
        after++;
    value = value_after(after);
    /* "when num_workers is not zero there is an error" */
    if (value == 2)
        return word_between(low, 0, end, fails, sizeof fails / sizeof fails[0]);
    /* "set num_workers = 0, it works", "I comment num_workers=2, it successes"; not "with
     * num_workers=0 it still crashes": then the workers are not the cause */
    if (value == 0 || word_between(low, pos > 30 ? pos - 30 : 0, pos, removed,
                                   sizeof removed / sizeof removed[0]))
        return word_between(low, pos, end, works, sizeof works / sizeof works[0]) &&
               !word_between(low, pos, end, no_help, sizeof no_help / sizeof no_help[0]);
    return false;
}

void dl_explain_workers_fail_in_words(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "spawn_guard_missing",
        "the DataLoader fails with workers and runs without them, on Windows: workers start "
        "by spawn there, which re-imports the script (its top level must sit under `if "
        "__name__ == \"__main__\":`) and pickles the dataset to each worker",
        "# put the script's top level under `if __name__ == \"__main__\":` and define the "
        "Dataset at a module's top level; num_workers=0 avoids workers altogether",
        {"pagefile_too_small", NULL},
        "the whole error with num_workers above 0, and whether the script has `if __name__ "
        "== \"__main__\":`"};
    /* a pickling error or the paging file is a cause of its own, with its own reading */
    static const char *const other[] = {"can't pickle", "cannot pickle", "paging file",
                                        "winerror 1455"};
    long line;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        dl_paste_find_any(&e->paste, other, sizeof other / sizeof other[0]) >= 0 ||
        dl_paste_find_any(&e->paste, fails, sizeof fails / sizeof fails[0]) < 0)
        return; /* "num_workers=0 runs, but slowly": no failure to explain */
    line = dl_paste_find_where(&e->paste, 0, "num_worker", workers_fail_said);
    if (line >= 0)
        dl_text_cause_add(e, &cause, line, -1);
}
