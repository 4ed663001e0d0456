#include "plan/driver_table.h"

#include "base/str.h"
#include "know/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dl_column_id os_column(dl_plan_os os, bool mvc)
{
    if (os == DL_PLAN_OS_WINDOWS)
        return mvc ? DL_COL_cuda_driver_mvc_min_driver_windows
                   : DL_COL_cuda_driver_min_driver_windows;
    return mvc ? DL_COL_cuda_driver_mvc_min_driver_linux : DL_COL_cuda_driver_min_driver_linux;
}

/* A cell that names a real minimum: ">=525.60.13", not "", not "N/A". */
static bool usable(const char *cell)
{
    dl_requirement r;
    return cell && dl_requirement_parse(cell, &r) && r.op != DL_REQ_ANY;
}

static long first_row(const dl_table *t, const char *cuda)
{
    size_t r;
    for (r = 0; t && cuda && r < t->rows; r++) {
        const char *v = dl_table_cell(t, r, DL_COL_cuda_driver_cuda_version);
        if (v && strcmp(v, cuda) == 0)
            return (long)r;
    }
    return -1;
}

/* The cell for os, with Linux's standing in where Windows has none. */
static const char *cell_for(const dl_table *t, size_t row, dl_plan_os os, bool mvc,
                            bool *from_linux)
{
    const char *c = dl_table_cell(t, row, os_column(os, mvc));
    *from_linux = false;
    if (usable(c))
        return c;
    if (os == DL_PLAN_OS_WINDOWS) {
        c = dl_table_cell(t, row, os_column(DL_PLAN_OS_LINUX, mvc));
        *from_linux = true;
        if (usable(c))
            return c;
    }
    return NULL;
}

static const char *strip_operator(const char *cell)
{
    while (*cell == '>' || *cell == '=' || *cell == ' ')
        cell++;
    return cell;
}

bool dl_driver_min_for_cuda(const dl_knowledge *k, const char *cuda, dl_plan_os os, char *out,
                            size_t n, bool *from_linux)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_cuda_driver);
    long row = first_row(t, cuda);
    const char *c = row >= 0 ? cell_for(t, (size_t)row, os, false, from_linux) : NULL;
    if (!c)
        return false;
    /* a minimum that does not fit out is no minimum: a cut version would mislead */
    return dl_fixed_fmt(out, n, "%s", strip_operator(c));
}

const char *dl_driver_mvc_min(const dl_knowledge *k, const char *cuda, dl_plan_os os)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_cuda_driver);
    long row = first_row(t, cuda);
    /* MVC minimums are per major; Windows' are not all published, and a Linux figure
     * would be a guess there, so Windows gets only its own column. */
    const char *c = row >= 0 ? dl_table_cell(t, (size_t)row, os_column(os, true)) : NULL;
    return usable(c) ? c : NULL;
}

int dl_driver_cuda_for_driver(const dl_knowledge *k, const char *driver, dl_plan_os os)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_cuda_driver);
    int best = 0;
    size_t r;
    for (r = 0; t && driver && r < t->rows; r++) {
        const char *cuda = dl_table_cell(t, r, DL_COL_cuda_driver_cuda_version), *c;
        bool from_linux;
        int v, cmp;
        if (!cuda || first_row(t, cuda) != (long)r || !dl_cuda_version_to_int(cuda, &v))
            continue;
        c = cell_for(t, r, os, false, &from_linux);
        if (c && dl_driver_cmp(driver, strip_operator(c), &cmp) && cmp >= 0 && v > best)
            best = v;
    }
    return best;
}

bool dl_driver_unlock_for_cuda(const dl_knowledge *k, const char *cuda, dl_plan_os os,
                               char *out, size_t n, bool *through_mvc)
{
    char outright[32], first[32], major0[16];
    const char *mvc = dl_driver_mvc_min(k, cuda, os);
    bool from_linux;
    int cmp;
    *through_mvc = false;
    if (!dl_driver_min_for_cuda(k, cuda, os, outright, sizeof outright, &from_linux))
        return false;
    if (!dl_fixed_fmt(out, n, "%s", outright))
        return false;
    snprintf(major0, sizeof major0, "%d.0", atoi(cuda));
    if (!mvc || !dl_driver_min_for_cuda(k, major0, os, first, sizeof first, &from_linux))
        return true;
    /* ">=525" is a branch: its first real driver is X.0's minimum */
    if (dl_driver_cmp(strip_operator(mvc), first, &cmp) && cmp > 0)
        snprintf(first, sizeof first, "%s", strip_operator(mvc));
    if (dl_driver_cmp(first, outright, &cmp) && cmp < 0) {
        if (!dl_fixed_fmt(out, n, "%s", first))
            return false;
        *through_mvc = true;
    }
    return true;
}

int dl_driver_branch(const char *driver)
{
    return driver ? atoi(driver) : 0;
}
