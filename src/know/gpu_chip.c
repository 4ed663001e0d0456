/* Chip code -> compute capability and last driver branch; see gpu_chip.h. */
#include "know/gpu_chip.h"

#include "know/arch.h"
#include "know/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How well pattern matches the start of name: 0 not at all; otherwise higher is better
 * (an exact character counts more than an x). */
static int match_score(const char *pattern, const char *name)
{
    size_t i, n = strlen(pattern);
    int score = 0;
    for (i = 0; i < n; i++) {
        if (pattern[i] == 'x' && isdigit((unsigned char)name[i]))
            score += 1;
        else if (name[i] && pattern[i] == name[i])
            score += 2;
        else
            return 0;
    }
    /* what follows the code is a suffix of letters (M, GL, GLM, B, BM), then the end of
     * the code; "GB102" is not "GB10" with a suffix */
    for (; isalpha((unsigned char)name[i]); i++)
        ;
    if (isalnum((unsigned char)name[i]) || name[i] == '_')
        return 0;
    return score;
}

static int branch_of(const dl_table *t, size_t row)
{
    const char *cell = dl_table_cell(t, row, DL_COL_gpu_chips_last_driver_branch);
    return cell ? atoi(cell) : 0;
}

bool dl_gpu_chip_lookup(const dl_knowledge *k, const char *name, dl_gpu_chip *out)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_chips) : NULL;
    long best = -1;
    int best_score = 0;
    size_t r;
    memset(out, 0, sizeof *out);
    if (!name)
        return false;
    while (*name == ' ')
        name++;
    for (r = 0; t && r < t->rows; r++) {
        const char *chip = dl_table_cell(t, r, DL_COL_gpu_chips_chip);
        int score = chip && *chip ? match_score(chip, name) : 0;
        if (score > best_score) {
            best = (long)r;
            best_score = score;
        }
    }
    if (best < 0 || !dl_cc_parse(dl_table_cell(t, (size_t)best, DL_COL_gpu_chips_compute_capability),
                                 &out->cc_major, &out->cc_minor))
        return false;
    out->chip = dl_table_cell(t, (size_t)best, DL_COL_gpu_chips_chip);
    out->architecture = dl_table_cell(t, (size_t)best, DL_COL_gpu_chips_architecture);
    out->last_driver_branch = branch_of(t, (size_t)best);
    out->source = dl_table_cell(t, (size_t)best, DL_COL_gpu_chips_source);
    return true;
}

int dl_gpu_last_driver_branch(const dl_knowledge *k, unsigned major, unsigned minor)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_chips) : NULL;
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        unsigned ma, mi;
        if (branch_of(t, r) > 0 &&
            dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_chips_compute_capability), &ma, &mi) && ma == major &&
            mi == minor)
            return branch_of(t, r);
    }
    return 0;
}

const char *dl_gpu_first_cudnn_without(const dl_knowledge *k, unsigned major, unsigned minor)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_chips) : NULL;
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        unsigned ma, mi;
        const char *cell = dl_table_cell(t, r, DL_COL_gpu_chips_first_cudnn_without);
        if (cell && *cell && dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_chips_compute_capability), &ma, &mi) &&
            ma == major && mi == minor)
            return cell;
    }
    return NULL;
}

bool dl_gpu_bundled_cudnn_lacks(const dl_knowledge *k, const char *torch_version,
                                const char *variant, unsigned major, unsigned minor,
                                const char **bundled, const char **without)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_cudnn) : NULL;
    dl_torch_version v;
    dl_version have, limit;
    char release_minor[32];
    size_t r;
    *bundled = NULL;
    *without = dl_gpu_first_cudnn_without(k, major, minor);
    if (!t || !*without || !dl_torch_version_parse(torch_version, &v) ||
        !dl_version_parse(*without, &limit))
        return false;
    snprintf(release_minor, sizeof release_minor, "%lu.%lu", v.release.part[0],
             v.release.part[1]);
    for (r = 0; r < t->rows && !*bundled; r++)
        if (!strcmp(dl_table_cell(t, r, DL_COL_cudnn_torch_minor), release_minor) &&
            !strcmp(dl_table_cell(t, r, DL_COL_cudnn_cuda_variant), variant))
            *bundled = dl_table_cell(t, r, DL_COL_cudnn_cudnn_version);
    return *bundled && dl_version_parse(*bundled, &have) && dl_version_cmp(&have, &limit) >= 0;
}
