#include "know/tables.h"

#include "know/csv.h"
#include "os/os.h"

#include <stdlib.h>
#include <string.h>

/* The bytes of data/<name>.csv, written by cmake/embed.cmake (NUL-terminated). */
extern const char dl_data_torch_releases_csv[];
extern const char dl_data_cuda_driver_csv[];
extern const char dl_data_wheel_arches_csv[];
extern const char dl_data_gpu_compute_capability_csv[];
extern const char dl_data_cudnn_csv[];
extern const char dl_data_cudnn_libraries_csv[];
extern const char dl_data_torch_wheels_csv[];
extern const char dl_data_known_bad_releases_csv[];
extern const char dl_data_error_signatures_csv[];
extern const char dl_data_gpu_arch_csv[];
extern const char dl_data_gpu_chips_csv[];

/* A table's file is untrusted input when it comes from --data: bound what we read. */
#define MAX_TABLE_BYTES (16u * 1024u * 1024u)

/* The columns code relies on. Free-text columns (notes, verification) stay optional so a
 * table may drop or add commentary without breaking anything. */
static const char *const torch_releases_cols[] = {
    "torch_version", "release_date", "python_min", "python_max", "cuda_variants_linux",
    "cuda_variants_windows", "rocm_variants_linux", "pypi_default_cuda_linux", "torchvision",
    "torchaudio", "status", "source", NULL};
static const char *const cuda_driver_cols[] = {
    "cuda_version", "min_driver_linux", "min_driver_windows", "mvc_min_driver_linux",
    "mvc_min_driver_windows", "source", NULL};
static const char *const wheel_arches_cols[] = {
    "torch_minor", "cuda_variant", "os", "torch_cuda_arch_list", "sass_archs", "ptx_archs",
    "source", NULL};
static const char *const gpu_compute_capability_cols[] = {
    "gpu_name", "compute_capability", "sm", "architecture", "source", NULL};
static const char *const cudnn_cols[] = {
    "torch_minor", "cuda_variant", "cudnn_version", "torch_backends_cudnn_version", "linkage",
    "source", NULL};
static const char *const cudnn_libraries_cols[] = {
    "cudnn_major", "os", "main_library", "sublibraries", "version_encoding", "source", NULL};
static const char *const torch_wheels_cols[] = {
    "torch_version", "platform", "python_tags", "platform_tags", "source", NULL};
static const char *const known_bad_releases_cols[] = {
    "torch_version", "os", "variant", "python", "scope", "condition", "symptom", "fixed_in",
    "source", NULL};
static const char *const error_signatures_cols[] = {
    "signature", "finding", "layer", "title", "fix", "all_of", "none_of", "alternatives",
    "ask", "source",
    NULL};
static const char *const gpu_arch_cols[] = {
    "compute_capability", "architecture", "fp32_lanes_per_sm", "fp64_lanes_per_sm",
    "tf32_tensor_flops_per_clk_sm", "fp16_tensor_flops_per_clk_sm",
    "bf16_tensor_flops_per_clk_sm", "geforce_fp32acc_factor", "geforce_tf32_factor",
    "reduced_rate_devices", "source", NULL};
static const char *const gpu_chips_cols[] = {
    "chip", "compute_capability", "architecture", "last_driver_branch", "first_cudnn_without",
    "source", NULL};

typedef struct table_spec {
    const char *name;
    const char *builtin;
    const char *const *required;
    bool may_be_empty;   /* a table of exceptions; the others are what dlenv knows */
} table_spec;

static const table_spec specs[DL_TABLE_COUNT] = {
    {"torch_releases", dl_data_torch_releases_csv, torch_releases_cols, false},
    {"cuda_driver", dl_data_cuda_driver_csv, cuda_driver_cols, false},
    {"wheel_arches", dl_data_wheel_arches_csv, wheel_arches_cols, false},
    {"gpu_compute_capability", dl_data_gpu_compute_capability_csv,
     gpu_compute_capability_cols, false},
    {"cudnn", dl_data_cudnn_csv, cudnn_cols, false},
    {"cudnn_libraries", dl_data_cudnn_libraries_csv, cudnn_libraries_cols, false},
    {"torch_wheels", dl_data_torch_wheels_csv, torch_wheels_cols, false},
    {"known_bad_releases", dl_data_known_bad_releases_csv, known_bad_releases_cols, true},
    {"error_signatures", dl_data_error_signatures_csv, error_signatures_cols, false},
    {"gpu_arch", dl_data_gpu_arch_csv, gpu_arch_cols, false},
    {"gpu_chips", dl_data_gpu_chips_csv, gpu_chips_cols, false},
};

const char *dl_table_name(size_t i)
{
    return i < DL_TABLE_COUNT ? specs[i].name : NULL;
}

const char *const *dl_table_required(const char *name)
{
    size_t i;
    for (i = 0; name && i < DL_TABLE_COUNT; i++)
        if (strcmp(specs[i].name, name) == 0)
            return specs[i].required;
    return NULL;
}

static bool blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return !*s;
}

/* What the CSV reader cannot know: this table's required columns, and a source in every
 * row, since a fact nobody can check must not reach a user as advice. */
static bool check_table(const table_spec *spec, const char *file, const dl_csv *c,
                        char **error)
{
    size_t i;
    long source;
    for (i = 0; spec->required[i]; i++)
        if (dl_csv_column(c, spec->required[i]) < 0) {
            *error = dl_fmt("%s:1: missing required column '%s'", file, spec->required[i]);
            return false;
        }
    /* an empty torch_releases is no plan at all: unusable input (exit 4), not a usage
     * error later on */
    if (!c->rows && !spec->may_be_empty) {
        *error = dl_fmt("%s:2: no rows: the %s table cannot be empty", file, spec->name);
        return false;
    }
    source = dl_csv_column(c, "source");
    for (i = 0; i < c->rows; i++)
        if (blank(c->cells[i * c->cols + (size_t)source])) {
            *error = dl_fmt("%s:%zu: row has no source", file, c->lines[i]);
            return false;
        }
    return true;
}

static bool parse_table(const table_spec *spec, const char *file, const char *text,
                        size_t len, dl_table *t, char **error)
{
    dl_csv c;
    if (!dl_csv_parse(file, text, len, &c, error))
        return false;
    if (!check_table(spec, file, &c, error)) {
        dl_csv_free(&c);
        return false;
    }
    t->name = spec->name;
    t->rows = c.rows;
    t->cols = c.cols;
    t->header = c.header;
    t->cells = c.cells;
    free(c.lines);
    return true;
}

static bool load_builtin(const table_spec *spec, dl_table *t, char **error)
{
    char *file = dl_fmt("data/%s.csv", spec->name);
    bool ok = parse_table(spec, file, spec->builtin, strlen(spec->builtin), t, error);
    free(file);
    if (ok)
        t->origin = dl_strdup("built-in");
    return ok;
}

/* DIR/<name>.csv when it exists; *found says whether it did (else: use the built-in). */
static bool load_override(const dl_machine *m, const char *dir, const table_spec *spec,
                          dl_table *t, bool *found, char **error)
{
    size_t n = strlen(dir);
    bool sep = n && (dir[n - 1] == '/' || dir[n - 1] == '\\');
    char *file = dl_fmt("%s%s%s.csv", dir, sep ? "" : "/", spec->name), *data = NULL;
    size_t len = 0;
    bool truncated = false, ok = false;
    dl_io_error err = {0};
    *found = dl_fs_read(m, file, MAX_TABLE_BYTES, &data, &len, &truncated, &err);
    if (!*found && err.status == DL_IO_NOT_FOUND)
        ok = true;
    else if (!*found)
        *error = dl_strdup(err.message);
    else if (truncated)
        *error = dl_fmt("%s: larger than %u bytes", file, MAX_TABLE_BYTES);
    else if (parse_table(spec, file, data, len, t, error)) {
        t->origin = file;
        file = NULL;
        ok = true;
    }
    dl_io_error_clear(&err);
    free(data);
    free(file);
    return ok;
}

/* --data must name a directory: a typo must not silently give the built-in tables. */
static bool open_data_dir(dl_machine *m, const char *dir, char **error)
{
    dl_io_error err = {0};
    dl_fs_kind kind;
    if (!dl_machine_open(m, NULL, error)) /* this machine: the tables are ours, not its */
        return false;
    kind = dl_fs_kind_of(m, dir, &err);
    if (kind != DL_FS_DIR)
        *error = kind == DL_FS_NONE ? dl_fmt("--data: %s", err.message)
                                    : dl_fmt("--data %s: not a directory", dir);
    dl_io_error_clear(&err);
    if (kind != DL_FS_DIR)
        dl_machine_close(m);
    return kind == DL_FS_DIR;
}

bool dl_knowledge_load(dl_knowledge *k, const char *data_dir, char **error)
{
    dl_machine m;
    size_t i;
    bool ok = true;
    memset(k, 0, sizeof *k);
    *error = NULL;
    if (data_dir && !open_data_dir(&m, data_dir, error))
        return false;
    for (i = 0; ok && i < DL_TABLE_COUNT; i++) {
        bool found = false;
        if (data_dir)
            ok = load_override(&m, data_dir, &specs[i], &k->tables[i], &found, error);
        if (ok && !found)
            ok = load_builtin(&specs[i], &k->tables[i], error);
    }
    if (data_dir)
        dl_machine_close(&m);
    if (!ok)
        dl_knowledge_free(k);
    return ok;
}

void dl_knowledge_free(dl_knowledge *k)
{
    size_t i, j;
    for (i = 0; i < DL_TABLE_COUNT; i++) {
        dl_table *t = &k->tables[i];
        for (j = 0; j < t->cols; j++)
            free(t->header[j]);
        for (j = 0; j < t->rows * t->cols; j++)
            free(t->cells[j]);
        free(t->header);
        free(t->cells);
        free(t->origin);
    }
    memset(k, 0, sizeof *k);
}

const dl_table *dl_knowledge_table(const dl_knowledge *k, const char *name)
{
    size_t i;
    for (i = 0; name && i < DL_TABLE_COUNT; i++)
        if (k->tables[i].name && strcmp(k->tables[i].name, name) == 0)
            return &k->tables[i];
    return NULL;
}

const char *dl_table_get(const dl_table *t, size_t row, const char *column)
{
    size_t i;
    if (!t || row >= t->rows || !column)
        return NULL;
    for (i = 0; i < t->cols; i++)
        if (strcmp(t->header[i], column) == 0)
            return t->cells[row * t->cols + i];
    return NULL;
}

static void add_unique(dl_strv *out, const char *s, size_t n)
{
    size_t i;
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n)
        return;
    for (i = 0; i < out->n; i++)
        if (strlen(out->v[i]) == n && strncmp(out->v[i], s, n) == 0)
            return;
    dl_strv_add(out, dl_strndup(s, n));
}

void dl_table_sources(const dl_table *t, dl_strv *out)
{
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        const char *s = dl_table_get(t, r, "source"), *sep;
        while (s && (sep = strstr(s, " ; ")) != NULL) {
            add_unique(out, s, (size_t)(sep - s));
            s = sep + 3;
        }
        if (s)
            add_unique(out, s, strlen(s));
    }
}
