#include "plan/driver_table.h"

#include "know/version.h"

#include <stdio.h>
#include <string.h>

static const char *os_column(dl_plan_os os, bool mvc)
{
    if (os == DL_PLAN_OS_WINDOWS)
        return mvc ? "mvc_min_driver_windows" : "min_driver_windows";
    return mvc ? "mvc_min_driver_linux" : "min_driver_linux";
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
        const char *v = dl_table_get(t, r, "cuda_version");
        if (v && strcmp(v, cuda) == 0)
            return (long)r;
    }
    return -1;
}

/* The cell for os, with Linux's standing in where Windows has none. */
static const char *cell_for(const dl_table *t, size_t row, dl_plan_os os, bool mvc,
                            bool *from_linux)
{
    const char *c = dl_table_get(t, row, os_column(os, mvc));
    *from_linux = false;
    if (usable(c))
        return c;
    if (os == DL_PLAN_OS_WINDOWS) {
        c = dl_table_get(t, row, os_column(DL_PLAN_OS_LINUX, mvc));
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
    const dl_table *t = dl_knowledge_table(k, "cuda_driver");
    long row = first_row(t, cuda);
    const char *c = row >= 0 ? cell_for(t, (size_t)row, os, false, from_linux) : NULL;
    if (!c)
        return false;
    snprintf(out, n, "%s", strip_operator(c));
    return true;
}

const char *dl_driver_mvc_min(const dl_knowledge *k, const char *cuda, dl_plan_os os)
{
    const dl_table *t = dl_knowledge_table(k, "cuda_driver");
    long row = first_row(t, cuda);
    /* MVC minimums are per major; Windows' are not all published, and a Linux figure
     * would be a guess there, so Windows gets only its own column. */
    const char *c = row >= 0 ? dl_table_get(t, (size_t)row, os_column(os, true)) : NULL;
    return usable(c) ? c : NULL;
}

int dl_driver_cuda_for_driver(const dl_knowledge *k, const char *driver, dl_plan_os os)
{
    const dl_table *t = dl_knowledge_table(k, "cuda_driver");
    int best = 0;
    size_t r;
    for (r = 0; t && driver && r < t->rows; r++) {
        const char *cuda = dl_table_get(t, r, "cuda_version"), *c;
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
