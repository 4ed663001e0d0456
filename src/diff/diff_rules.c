#include "diff/diff_rules.h"

#include "base/str.h"

#include <ctype.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* pattern matches shape itself and everything below it. */
static bool under(const char *shape, const char *pattern)
{
    size_t n = strlen(pattern);
    return strncmp(shape, pattern, n) == 0 &&
           (shape[n] == '\0' || shape[n] == '.' || shape[n] == '[');
}

/* Besides the fields the schema marks DL_VOLATILE (timings, the tool's version): what
 * changes on the same machine minute to minute, so two snapshots of an unchanged machine
 * compare equal. Measurements (verify) are volatile as a whole. */
static const char *const volatile_shapes[] = {
    "schema",                         /* the document's form, not the machine */
    "memory.available_bytes",
    "memory.swap_free_bytes",
    "os.windows.commit_limit_bytes",  /* a system-managed paging file grows and shrinks */
    "gpus[].luid",                    /* DXGI assigns it at boot */
    "nvml.gpus[].memory_used_bytes",
    "nvml.gpus[].pcie_generation",    /* the current link: it drops when the GPU idles */
    "nvml.gpus[].pcie_width",
    "nvml.gpus[].sm_clock_mhz",
    "nvml.gpus[].memory_clock_mhz",
    "nvml.gpus[].power_draw_watts",
    "nvml.gpus[].performance_state",
    "nvml.gpus[].throttle_reasons",
    "nvml.gpus[].processes",
    "pythons[].runtime.matmul_size",  /* sized by timing */
    "cpu_measure",
    "gpu_measure",
};

bool dl_diff_shape_is_volatile(const char *shape)
{
    size_t i;
    for (i = 0; i < COUNT(volatile_shapes); i++)
        if (under(shape, volatile_shapes[i]))
            return true;
    return false;
}

typedef struct group_rule {
    const char *shape;
    dl_diff_group group;
} group_rule;

/* First match wins, so the specific rows come before the general ones. */
static const group_rule group_rules[] = {
    {"nvidia_kernel", DL_DIFF_DRIVER},
    {"nvml.gpus", DL_DIFF_OTHER},              /* the GPUs themselves: hardware */
    {"nvml.topology", DL_DIFF_OTHER},
    {"nvml", DL_DIFF_DRIVER},                  /* its library, version, CUDA version */
    {"cuda_driver.devices", DL_DIFF_OTHER},
    {"cuda_driver.device_count", DL_DIFF_OTHER},
    {"cuda_driver", DL_DIFF_DRIVER},
    {"gpus[].driver", DL_DIFF_DRIVER},         /* the bound kernel driver: nvidia, nouveau */
    {"gpus[].driver_version", DL_DIFF_DRIVER},
    {"gpus[].nvidia_driver_version", DL_DIFF_DRIVER},
    {"gpus[].driver_date", DL_DIFF_DRIVER},
    {"cuda_toolkits", DL_DIFF_CUDA},
    {"pythons[].site_packages[].torches[].cuda", DL_DIFF_CUDA},
    {"pythons[].site_packages[].torches[].hip", DL_DIFF_CUDA},
    {"pythons[].runtime.cuda", DL_DIFF_CUDA},
    {"pythons[].runtime.hip", DL_DIFF_CUDA},
    {"pythons[].runtime.cudnn_version", DL_DIFF_CUDA},
    {"pythons[].runtime.loaded_libraries", DL_DIFF_LIBRARIES}, /* what the import mapped */
    {"pythons[].site_packages[].torches", DL_DIFF_TORCH},
    {"pythons[].site_packages[].packages", DL_DIFF_TORCH},
    {"pythons[].runtime", DL_DIFF_TORCH},
    {"pythons", DL_DIFF_PYTHON},
    {"os.windows.python_registry", DL_DIFF_PYTHON},
    {"libraries", DL_DIFF_LIBRARIES},
    {"environment", DL_DIFF_SETTINGS},
    {"os.windows.product_name", DL_DIFF_OTHER}, /* the Windows release, not a setting */
    {"os.windows.display_version", DL_DIFF_OTHER},
    {"os.windows.build", DL_DIFF_OTHER},
    {"os.windows.edition", DL_DIFF_OTHER},
    {"os.windows", DL_DIFF_SETTINGS},
};

dl_diff_group dl_diff_group_of(const char *shape)
{
    size_t i;
    for (i = 0; i < COUNT(group_rules); i++)
        if (under(shape, group_rules[i].shape))
            return group_rules[i].group;
    return DL_DIFF_OTHER;
}

typedef struct identity_rule {
    const char *shape;
    const char *keys;
} identity_rule;

/* Only where the first field is not the identity by itself. */
static const identity_rule identity_rules[] = {
    {"gpus[]", "address|device_name"},          /* Windows lists adapters without address */
    {"nvml.gpus[]", "uuid|pci_bus_id|index"},
    {"nvml.topology[]", "gpu_a+gpu_b"},
    {"cuda_driver.devices[]", "pci_bus_id|index"},
    {"pythons[].site_packages[].torches[].missing_dlls[]", "name+needed_by"},
};

const char *dl_diff_identity_of(const char *shape)
{
    size_t i;
    for (i = 0; i < COUNT(identity_rules); i++)
        if (strcmp(shape, identity_rules[i].shape) == 0)
            return identity_rules[i].keys;
    return NULL;
}

/* ---- importance ------------------------------------------------------------------------ */

/* The local tag of a torch version ("2.3.1+cu121" -> "cu121") or a local_tag value as
 * is; NULL when there is none. */
static const char *local_tag(const char *shape, const char *value)
{
    const char *plus;
    if (!value)
        return NULL;
    if (dl_ends_with(shape, ".local_tag"))
        return value;
    plus = strchr(value, '+');
    return plus ? plus + 1 : NULL;
}

static bool gpu_tag(const char *tag)
{
    return tag && ((tag[0] == 'c' && tag[1] == 'u' && isdigit((unsigned char)tag[2])) ||
                   dl_starts_with(tag, "rocm") || dl_starts_with(tag, "xpu"));
}

static bool is_version_field(const char *shape)
{
    return dl_ends_with(shape, ".version") || dl_ends_with(shape, ".local_tag");
}

/* The torch build lost its GPU: cu121 -> cpu in a version or variant. */
static bool gpu_build_lost(const char *shape, const char *old_value, const char *new_value)
{
    const char *before = local_tag(shape, old_value), *after = local_tag(shape, new_value);
    return is_version_field(shape) && gpu_tag(before) && after && strcmp(after, "cpu") == 0;
}

/* torch.version.cuda went from a version to none: the build was CUDA, now it is not (a
 * PyPI build on Linux has no local tag, so the tag alone misses this). */
static bool cuda_build_lost(const char *shape, const char *old_value, const char *new_value)
{
    return (dl_ends_with(shape, "torches[].cuda") || strcmp(shape, "pythons[].runtime.cuda") == 0)
           && old_value && strcmp(old_value, "none") != 0 && !dl_starts_with(old_value, "unknown")
           && new_value && strcmp(new_value, "none") == 0;
}

static bool was_now(const char *old_value, const char *new_value, const char *was)
{
    return old_value && new_value && strcmp(old_value, was) == 0 && strcmp(new_value, was) != 0;
}

static bool import_broke(const char *shape, const char *old_value, const char *new_value)
{
    return strcmp(shape, "pythons[].runtime.status") == 0 &&
           was_now(old_value, new_value, "imported");
}

static bool cuda_init_broke(const char *shape, const char *old_value, const char *new_value)
{
    return strcmp(shape, "cuda_driver.init_result") == 0 &&
           was_now(old_value, new_value, "CUDA_SUCCESS");
}

static bool cuda_unavailable(const char *shape, const char *old_value, const char *new_value)
{
    return strcmp(shape, "pythons[].runtime.cuda_available") == 0 &&
           was_now(old_value, new_value, "true");
}

typedef bool (*high_test)(const char *shape, const char *old_value, const char *new_value);

/* The high-importance changes, in the order they claim the headline: the cause (the
 * build was swapped) before its symptoms (no CUDA seen). */
static const struct {
    high_test test;
    const char *note;
} high_rules[] = {
    {gpu_build_lost, "a GPU build of torch was replaced by a CPU-only build"},
    {import_broke, "import torch no longer works"},
    {cuda_init_broke, "the CUDA driver no longer initialises"},
    {cuda_build_lost, "torch is no longer a CUDA build"},
    {cuda_unavailable, "torch no longer sees CUDA"},
};

dl_diff_importance dl_diff_importance_of(dl_diff_group group, const char *shape, bool detail,
                                         dl_diff_kind kind, const char *old_value,
                                         const char *new_value, const char **note, int *rank)
{
    size_t i;
    *note = NULL;
    *rank = -1;
    for (i = 0; kind == DL_DIFF_CHANGED && i < COUNT(high_rules); i++)
        if (high_rules[i].test(shape, old_value, new_value)) {
            *note = high_rules[i].note;
            *rank = (int)i;
            return DL_DIFF_HIGH;
        }
    return group == DL_DIFF_OTHER || detail ? DL_DIFF_LOW : DL_DIFF_MEDIUM;
}
