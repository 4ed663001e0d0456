/* The drain decision (slurm_drain.h): parse one `scontrol -o show node` line, pick the step. */
#include "cli/slurm_drain.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* The value of " KEY=" in a one-line record, up to the next space, or NULL. */
static char *field_word(const char *text, const char *key)
{
    size_t n = strlen(key);
    const char *p = text;
    while ((p = strstr(p, key)) != NULL) {
        if (p == text || p[-1] == ' ' || p[-1] == '\n') {
            const char *v = p + n, *end = v + strcspn(v, " \n\r");
            return dl_strndup(v, (size_t)(end - v));
        }
        p += n;
    }
    return NULL;
}

/* Reason= runs to the end of the line (it holds spaces); Slurm appends " [user@time]". */
static char *reason_of(const char *text)
{
    const char *p = strstr(text, " Reason=");
    const char *v, *end, *tail;
    if (!p)
        return NULL;
    v = p + strlen(" Reason=");
    end = v + strcspn(v, "\n\r");
    tail = end;
    if (end > v && end[-1] == ']') {
        const char *open = end;
        while (open > v && *open != '[')
            open--;
        if (*open == '[' && open > v && open[-1] == ' ' && memchr(open, '@', (size_t)(end - open)))
            tail = open - 1;
    }
    if (tail == v || (tail - v == 6 && !strncmp(v, "(null)", 6)))
        return NULL;
    return dl_strndup(v, (size_t)(tail - v));
}

static bool has_flag(const char *state, const char *flag)
{
    size_t n = strlen(flag);
    const char *p = state;
    while ((p = strstr(p, flag)) != NULL) {
        /* DRAIN, DRAINING, DRAINED: a whole '+'-separated word that starts with flag */
        if (p == state || p[-1] == '+')
            return true;
        p += n;
    }
    return false;
}

bool dl_slurm_node_parse(const char *text, dl_slurm_node *out, char **why)
{
    memset(out, 0, sizeof *out);
    out->state = field_word(text ? text : "", "State=");
    if (!out->state || !out->state[0]) {
        free(out->state);
        out->state = NULL;
        *why = dl_strdup("scontrol printed no State= for the node");
        return false;
    }
    out->drained = has_flag(out->state, "DRAIN");
    out->reason = reason_of(text);
    return true;
}

void dl_slurm_node_free(dl_slurm_node *n)
{
    free(n->state);
    free(n->reason);
    memset(n, 0, sizeof *n);
}

void dl_slurm_show_argv(const char *node, char *argv[DL_SLURM_MAX_ARGV])
{
    argv[0] = dl_strdup("scontrol");
    argv[1] = dl_strdup("-o");
    argv[2] = dl_strdup("show");
    argv[3] = dl_strdup("node");
    argv[4] = dl_strdup(node);
    argv[5] = NULL;
}

static void update_argv(const char *node, const char *state, const char *reason,
                        char *argv[DL_SLURM_MAX_ARGV])
{
    argv[0] = dl_strdup("scontrol");
    argv[1] = dl_strdup("update");
    argv[2] = dl_fmt("NodeName=%s", node);
    argv[3] = dl_fmt("State=%s", state);
    /* one argument, no shell: scontrol takes everything after "Reason=" as the text */
    argv[4] = reason ? dl_fmt("Reason=%s", reason) : NULL;
    argv[5] = NULL;
}

static bool ours(const dl_slurm_node *now)
{
    return now->reason && dl_starts_with(now->reason, DL_SLURM_REASON_PREFIX);
}

void dl_slurm_drain_step(const char *node, dl_slurm_health health, const char *reason,
                         const dl_slurm_node *now, dl_slurm_step *out)
{
    memset(out, 0, sizeof *out);
    out->verb = DL_SLURM_KEEP;
    if (health == DL_SLURM_UNKNOWN) {
        out->why = "the node cannot be judged: neither drained nor resumed";
    } else if (health == DL_SLURM_HEALTHY) {
        if (now->drained && ours(now)) {
            out->verb = DL_SLURM_RESUME;
            out->why = "healthy again; dlenv had drained it";
        } else if (now->drained) {
            out->why = "healthy, but drained by someone else: left drained";
        } else {
            out->why = "healthy";
        }
    } else if (now->reason && !ours(now)) {
        out->why = "failing, but it already has a reason dlenv did not set: left as it is";
    } else if (now->drained && now->reason && reason && !strcmp(now->reason, reason)) {
        out->why = "failing; already drained by dlenv for this reason";
    } else {
        out->verb = DL_SLURM_DRAIN;
        out->why = now->drained ? "failing for another reason than dlenv drained it for"
                                : "failing";
    }
    if (out->verb == DL_SLURM_DRAIN)
        update_argv(node, "DRAIN", reason ? reason : DL_SLURM_REASON_PREFIX " failing", out->argv);
    else if (out->verb == DL_SLURM_RESUME)
        update_argv(node, "RESUME", NULL, out->argv);
}

void dl_slurm_argv_free(char *argv[DL_SLURM_MAX_ARGV])
{
    size_t i;
    for (i = 0; i < DL_SLURM_MAX_ARGV; i++) {
        free(argv[i]);
        argv[i] = NULL;
    }
}
