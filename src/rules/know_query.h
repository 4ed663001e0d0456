/* Questions rules ask of the knowledge tables. */
#ifndef DLENV_RULES_KNOW_QUERY_H
#define DLENV_RULES_KNOW_QUERY_H

#include "know/tables.h"

/* The first row whose column equals value, or -1. */
long dl_kq_find(const dl_table *t, dl_column_id column, const char *value);
/* The torch_releases row of torch `version`'s release ("2.3.0+cu121": the row of 2.3.0), or
 * -1. */
long dl_kq_torch_release(const dl_knowledge *k, const char *version);
/* The newest released torch (status "released"): its row, or -1. */
long dl_kq_newest_torch(const dl_knowledge *k);
/* The row of the wheel_arches table for torch X.Y, a CUDA variant and an OS, or -1. */
long dl_kq_wheel_arches(const dl_knowledge *k, const char *torch_version, const char *variant,
                        const char *os);

/* torch_wheels.csv lists a wheel of release `release` ("1.4.0") for Python `python` ("3.8",
 * "3.8.2") on some platform. */
bool dl_kq_release_has_python(const dl_knowledge *k, const char *release, const char *python);
/* The same on one platform of the table ("macos-arm64"); NULL: any. */
bool dl_kq_release_has_python_on(const dl_knowledge *k, const char *release, const char *python,
                                 const char *platform);

#endif
