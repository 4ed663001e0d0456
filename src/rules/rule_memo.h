/* What a rule works out from the knowledge tables alone, kept for the next machine that
 * asks the same question. A fleet's nodes mostly share their OS, architecture and Python,
 * and planning the wheels for them was over half of judging one node (issue 23's 10,000
 * node fold). Only answers that are pure functions of their key and the knowledge are
 * kept, so a memo changes how fast the rules answer, never what they answer.
 *
 * One memo serves one thread and one knowledge (which must outlive it). */
#ifndef DLENV_RULES_RULE_MEMO_H
#define DLENV_RULES_RULE_MEMO_H

#include "plan/plan.h"

#include <stdbool.h>

typedef struct dl_rule_memo dl_rule_memo;

dl_rule_memo *dl_rule_memo_new(void);
void dl_rule_memo_free(dl_rule_memo *memo);

/* python_unsupported's question: which releases have a wheel for this Python here. */
typedef struct dl_wheel_key {
    dl_plan_os os;
    char arch[sizeof ((dl_plan_machine *)0)->arch];
    unsigned py_major, py_minor;
    bool py_free_threaded;
    int py_bits;
} dl_wheel_key;

/* The planner's CPU candidates (one per release, newest first) for that machine. */
typedef struct dl_wheel_answer {
    bool planned;          /* false: the planner refused the machine; nothing to say */
    long ok;               /* the newest candidate with a wheel for this Python; -1 */
    long newest;           /* the newest candidate at all; -1 */
    char platform[sizeof ((dl_plan *)0)->platform];           /* "linux-x86_64" */
    char ok_torch[sizeof ((dl_plan_candidate *)0)->torch];    /* when ok >= 0 */
    char newest_torch[sizeof ((dl_plan_candidate *)0)->torch]; /* when newest >= 0 */
    char newest_why[sizeof ((dl_plan_candidate *)0)->detail[0]]; /* newest's Python detail */
    const char *published; /* when ok < 0: the newest torch_wheels lists for this Python
                              (older than the planner's releases too); a table cell; NULL */
} dl_wheel_answer;

/* The answer kept for key, or NULL. */
const dl_wheel_answer *dl_rule_memo_wheels(const dl_rule_memo *memo, const dl_wheel_key *key);
/* Keeps a copy (a memo holds a bounded number: past it, answers are not kept). */
void dl_rule_memo_keep_wheels(dl_rule_memo *memo, const dl_wheel_key *key,
                              const dl_wheel_answer *answer);

#endif
