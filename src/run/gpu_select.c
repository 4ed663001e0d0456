#include "run/gpu_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool well_formed(const char *token);

dl_gpu_status dl_gpu_split(const char *const *values, size_t n, dl_strv *tokens, char **error)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const char *p = values[i];
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char *token = dl_strndup(p, len), *t = dl_trim(token);
            if (!*t) {
                *error = dl_fmt("--gpu '%s': an empty entry (give an index, a GPU-UUID or a "
                                "PCI bus id; --cpu for none)", values[i]);
                free(token);
                return DL_GPU_SYNTAX;
            }
            if (!well_formed(t)) {
                *error = dl_fmt("--gpu '%s': not a GPU index, UUID (GPU-...) or PCI bus id "
                                "(--cpu for no GPU)", t);
                free(token);
                return DL_GPU_SYNTAX;
            }
            dl_strv_add(tokens, dl_strdup(t));
            free(token);
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    return DL_GPU_OK;
}

static bool is_index(const char *s, long *out)
{
    const char *p;
    if (!*s || strlen(s) > 6)
        return false;
    for (p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    *out = strtol(s, NULL, 10);
    return true;
}

static bool has_prefix_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++) {
        char a = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
        char b = *prefix >= 'A' && *prefix <= 'Z' ? (char)(*prefix - 'A' + 'a') : *prefix;
        if (!*s || a != b)
            return false;
    }
    return true;
}

/* "[domain:]bus:device.function" in hex, as nvidia-smi and lspci write it. */
static bool parse_bus_id(const char *s, unsigned v[4])
{
    int used = 0;
    v[0] = 0;
    if (sscanf(s, "%x:%x:%x.%x%n", &v[0], &v[1], &v[2], &v[3], &used) == 4 && !s[used])
        return true;
    used = 0;
    v[0] = 0; /* the first attempt may have read the bus as the domain */
    return sscanf(s, "%x:%x.%x%n", &v[1], &v[2], &v[3], &used) == 3 && !s[used];
}

static bool same_bus_id(const char *token, const char *gpu)
{
    unsigned a[4], b[4];
    return gpu && parse_bus_id(token, a) && parse_bus_id(gpu, b) &&
           !memcmp(a, b, sizeof a);
}

/* The GPUs that token names: how many, and the first one's position. */
static size_t match(const char *token, const dl_gpu_entry *gpus, size_t n, size_t *first)
{
    size_t i, found = 0;
    long index;
    bool by_index = is_index(token, &index), by_uuid = has_prefix_ci(token, "GPU-");
    for (i = 0; i < n; i++) {
        bool hit = by_index ? gpus[i].index == index
                 : by_uuid  ? gpus[i].uuid && has_prefix_ci(gpus[i].uuid, token)
                            : same_bus_id(token, gpus[i].pci_bus_id);
        if (hit && found++ == 0)
            *first = i;
    }
    return found;
}

static bool well_formed(const char *token)
{
    long index;
    unsigned bus[4];
    return is_index(token, &index) || (has_prefix_ci(token, "GPU-") && token[4]) ||
           parse_bus_id(token, bus);
}

static dl_gpu_status not_found(const char *token, size_t count, const dl_gpu_entry *gpus,
                               size_t n, char **error)
{
    char *list = dl_gpu_list_text(gpus, n);
    if (count > 1)
        *error = dl_fmt("--gpu %s: matches %zu GPUs, give more of the UUID; this machine "
                        "has %s", token, count, list);
    else
        *error = dl_fmt("--gpu %s: no such GPU; this machine has %s", token, list);
    free(list);
    return DL_GPU_NO_SUCH;
}

dl_gpu_status dl_gpu_resolve(const dl_strv *tokens, const dl_gpu_entry *gpus, size_t n,
                             long **chosen, size_t *n_chosen, char **error)
{
    size_t i, j, first = 0, count;
    *chosen = dl_xcalloc(tokens->n + 1, sizeof **chosen);
    *n_chosen = 0;
    for (i = 0; i < tokens->n; i++) {
        const char *t = tokens->v[i];
        count = match(t, gpus, n, &first);
        if (count != 1)
            return not_found(t, count, gpus, n, error);
        for (j = 0; j < *n_chosen; j++)
            if ((*chosen)[j] == gpus[first].index) {
                *error = dl_fmt("--gpu %s: GPU %ld is already chosen", t, gpus[first].index);
                return DL_GPU_SYNTAX;
            }
        (*chosen)[(*n_chosen)++] = gpus[first].index;
    }
    return DL_GPU_OK;
}

/* A UUID's first group is what people read and what a prefix needs. */
static void short_uuid(dl_buf *b, const char *uuid)
{
    const char *dash = strchr(uuid + (has_prefix_ci(uuid, "GPU-") ? 4 : 0), '-');
    dl_buf_add(b, uuid, dash ? (size_t)(dash - uuid) : strlen(uuid));
}

char *dl_gpu_list_text(const dl_gpu_entry *gpus, size_t n)
{
    dl_buf b = {0};
    size_t i;
    if (n == 0)
        return dl_strdup("none");
    for (i = 0; i < n; i++) {
        dl_buf_printf(&b, "%s%ld %s", i ? ", " : "", gpus[i].index,
                      gpus[i].name ? gpus[i].name : "(name unknown)");
        if (gpus[i].uuid) {
            dl_buf_puts(&b, " (");
            short_uuid(&b, gpus[i].uuid);
            dl_buf_puts(&b, ")");
        }
    }
    return dl_buf_take(&b);
}

char *dl_gpu_index_list(const long *indices, size_t n)
{
    dl_buf b = {0};
    size_t i;
    dl_buf_puts(&b, "");
    for (i = 0; i < n; i++)
        dl_buf_printf(&b, "%s%ld", i ? "," : "", indices[i]);
    return dl_buf_take(&b);
}
