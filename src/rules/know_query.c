#include "rules/know_query.h"

#include "know/version.h"

#include <stdio.h>
#include <string.h>

long dl_kq_find(const dl_table *t, dl_column_id column, const char *value)
{
    size_t r;
    for (r = 0; t && value && r < t->rows; r++) {
        const char *v = dl_table_cell(t, r, column);
        if (v && strcmp(v, value) == 0)
            return (long)r;
    }
    return -1;
}

long dl_kq_torch_release(const dl_knowledge *k, const char *version)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_torch_releases) : NULL;
    size_t len = version ? strcspn(version, "+") : 0, r;
    for (r = 0; t && len && r < t->rows; r++) {
        const char *row = dl_table_cell(t, r, DL_COL_torch_releases_torch_version);
        if (strlen(row) == len && !strncmp(row, version, len))
            return (long)r;
    }
    return -1;
}

long dl_kq_newest_torch(const dl_knowledge *k)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_torch_releases) : NULL;
    dl_torch_version best, v;
    long row = -1;
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        const char *status = dl_table_cell(t, r, DL_COL_torch_releases_status);
        if (!status || strcmp(status, "released") != 0 ||
            !dl_torch_version_parse(dl_table_cell(t, r, DL_COL_torch_releases_torch_version), &v))
            continue;
        if (row < 0 || dl_torch_version_cmp(&v, &best) > 0) {
            best = v;
            row = (long)r;
        }
    }
    return row;
}

long dl_kq_wheel_arches(const dl_knowledge *k, const char *torch_version, const char *variant,
                        const char *os)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_wheel_arches) : NULL;
    dl_torch_version v;
    char minor[32];
    size_t r;
    if (!t || !dl_torch_version_parse(torch_version, &v))
        return -1;
    snprintf(minor, sizeof minor, "%lu.%lu", v.release.part[0], v.release.part[1]);
    for (r = 0; r < t->rows; r++) {
        const char *m = dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor),
                   *c = dl_table_cell(t, r, DL_COL_wheel_arches_cuda_variant),
                   *o = dl_table_cell(t, r, DL_COL_wheel_arches_os);
        if (m && c && o && strcmp(m, minor) == 0 && strcmp(c, variant) == 0 &&
            strcmp(o, os) == 0)
            return (long)r;
    }
    return -1;
}
