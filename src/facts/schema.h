/* A description of the facts' shape: for each struct, its fields with their JSON key,
 * human label, kind and offset. JSON writing and reading, freeing and the text view all
 * walk this one description. */
#ifndef DLENV_FACTS_SCHEMA_H
#define DLENV_FACTS_SCHEMA_H

#include <stddef.h>

typedef enum dl_field_kind {
    DL_F_TEXT,
    DL_F_INT,
    DL_F_FLAG,
    DL_F_NUM,
    DL_F_OBJECT,   /* nested struct, always present */
    DL_F_LIST,     /* dl_list of structs described by sub */
    DL_F_TEXTLIST, /* dl_list of char* */
    DL_F_DICT      /* dl_list of dl_pair, a JSON object */
} dl_field_kind;

enum {
    DL_FMT_HEX4 = 1 << 0,   /* integer shown and stored as "0x10de" */
    DL_FMT_HEX6 = 1 << 1,   /* "0x030000" */
    DL_FMT_BYTES = 1 << 2,  /* text view in KiB/MiB/GiB */
    DL_OPTIONAL = 1 << 3,   /* may be absent: neither known nor unknown */
    DL_VOLATILE = 1 << 4    /* differs run to run (timings): fixtures ignore it */
};

typedef struct dl_schema dl_schema;

typedef struct dl_field {
    const char *key;
    const char *label;      /* NULL: not shown in the text view */
    dl_field_kind kind;
    size_t offset;
    const dl_schema *sub;
    unsigned flags;
} dl_field;

struct dl_schema {
    const char *name;
    size_t size;
    const dl_field *fields;
    size_t count;
};

/* One row of a field table, and the size of a table. */
#define DL_FIELD(type, key, label, kind, member, sub, flags) \
    { key, label, kind, offsetof(type, member), sub, flags }
#define DL_COUNT(a) (sizeof(a) / sizeof((a)[0]))

extern const dl_schema dl_facts_schema;
extern const dl_schema dl_pci_gpu_schema;
extern const dl_schema dl_probe_run_schema;
extern const dl_schema dl_nvml_gpu_schema;
extern const dl_schema dl_device_node_schema;
extern const dl_schema dl_nvidia_kernel_schema;
extern const dl_schema dl_nvml_schema;
extern const dl_schema dl_cuda_driver_schema;
extern const dl_schema dl_gpu_measure_schema;
extern const dl_schema dl_cuda_device_schema;
extern const dl_schema dl_site_packages_schema;
extern const dl_schema dl_torch_runtime_schema;
extern const dl_schema dl_python_schema;
extern const dl_schema dl_windows_power_schema;

/* Appends to out ("$.os.arch\n" ...) every value that is neither known nor unknown with a
 * reason, unless the schema marks it optional: a probe that went silent. Returns how
 * many. Tests run it on every report; "unknown" must always say why. */
struct dl_buf;
size_t dl_schema_find_silent(const dl_schema *s, const void *obj, const char *path,
                             struct dl_buf *out);

/* Marks every required value of obj that is still neither known nor unknown as unknown
 * with why: when a probe stops early, the rest says so. Optional values (DL_OPTIONAL) stay
 * absent, which is what they may be anyway: a reader never takes absence for a value. */
void dl_schema_fill_unknown(const dl_schema *s, void *obj, const char *why);

/* Marks one value of the given kind unknown with why. */
void dl_value_set_unknown(dl_field_kind kind, void *p, const char *why);

/* Replaces every string of obj (values, unknowns' reasons, list items, dictionary values;
 * not keys) with fn(string, ctx), a new allocation; the old one is freed.
 * (schema_map.c) */
typedef char *(*dl_text_map)(const char *text, void *ctx);
void dl_schema_map_text(const dl_schema *s, void *obj, dl_text_map fn, void *ctx);

/* Frees every value of a struct described by s (not the struct itself). */
void dl_schema_free(const dl_schema *s, void *obj);

#endif
