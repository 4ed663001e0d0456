#include "rules/rule_memo.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* Far more distinct questions than a real fleet has (a few OS and Python versions);
 * the bound keeps a fleet of all-different nodes from holding one answer per node. */
#define MAX_WHEEL_ANSWERS 256

typedef struct wheel_entry {
    dl_wheel_key key;
    dl_wheel_answer answer;
} wheel_entry;

struct dl_rule_memo {
    wheel_entry *wheels;
    size_t n_wheels;
};

dl_rule_memo *dl_rule_memo_new(void)
{
    return dl_xcalloc(1, sizeof(dl_rule_memo));
}

void dl_rule_memo_free(dl_rule_memo *memo)
{
    if (!memo)
        return;
    free(memo->wheels);
    free(memo);
}

/* Field by field: a struct's padding bytes are not part of its value. */
static bool same_key(const dl_wheel_key *a, const dl_wheel_key *b)
{
    return a->os == b->os && !strcmp(a->arch, b->arch) && a->py_major == b->py_major &&
           a->py_minor == b->py_minor && a->py_free_threaded == b->py_free_threaded &&
           a->py_bits == b->py_bits;
}

const dl_wheel_answer *dl_rule_memo_wheels(const dl_rule_memo *memo, const dl_wheel_key *key)
{
    size_t i;
    for (i = 0; memo && i < memo->n_wheels; i++)
        if (same_key(&memo->wheels[i].key, key))
            return &memo->wheels[i].answer;
    return NULL;
}

void dl_rule_memo_keep_wheels(dl_rule_memo *memo, const dl_wheel_key *key,
                              const dl_wheel_answer *answer)
{
    if (!memo || memo->n_wheels == MAX_WHEEL_ANSWERS)
        return;
    memo->wheels = dl_xrealloc(memo->wheels, (memo->n_wheels + 1) * sizeof *memo->wheels);
    memo->wheels[memo->n_wheels].key = *key;
    memo->wheels[memo->n_wheels].answer = *answer;
    memo->n_wheels++;
}
