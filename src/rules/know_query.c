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

bool dl_kq_release_has_python(const dl_knowledge *k, const char *release, const char *python)
{
    return dl_kq_release_has_python_on(k, release, python, NULL);
}

bool dl_kq_release_has_python_on(const dl_knowledge *k, const char *release, const char *python,
                                 const char *platform)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_wheels);
    unsigned major, minor;
    char tag[16];
    size_t r;
    if (!python || !release || sscanf(python, "%u.%u", &major, &minor) != 2)
        return false;
    snprintf(tag, sizeof tag, "cp%u%u", major, minor);
    for (r = 0; t && r < t->rows; r++) {
        const char *tags = dl_table_cell(t, r, DL_COL_torch_wheels_python_tags), *at;
        if (!tags || strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_torch_version), release) != 0 ||
            (platform && strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_platform), platform) != 0))
            continue;
        for (at = strstr(tags, tag); at; at = strstr(at + 1, tag))
            if (at[strlen(tag)] == '\0' || at[strlen(tag)] == ';')
                return true;
    }
    return false;
}
