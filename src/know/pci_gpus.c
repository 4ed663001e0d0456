/* Device id -> chip code; see pci_gpus.h. */
#include "know/pci_gpus.h"

#include "know/gpu_target.h"

#include <stdio.h>
#include <string.h>

const char *dl_pci_gpu_chip(const dl_knowledge *k, long vendor, long device)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_pci_gpus) : NULL;
    char v[20], d[20];
    size_t r;
    if (vendor < 0 || vendor > 0xffff || device < 0 || device > 0xffff)
        return NULL;
    snprintf(v, sizeof v, "%04lx", (unsigned long)vendor);
    snprintf(d, sizeof d, "%04lx", (unsigned long)device);
    for (r = 0; t && r < t->rows; r++)
        if (!strcmp(dl_table_cell(t, r, DL_COL_pci_gpus_vendor), v) &&
            dl_target_in_list(dl_table_cell(t, r, DL_COL_pci_gpus_devices), d))
            return dl_table_cell(t, r, DL_COL_pci_gpus_chip);
    return NULL;
}

bool dl_pci_gpus_version(const dl_knowledge *k, char *out, size_t cap)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_pci_gpus) : NULL;
    const char *src = t && t->rows ? dl_table_cell(t, 0, DL_COL_pci_gpus_source) : NULL;
    size_t n;
    out[0] = '\0';
    if (!src || strncmp(src, "pci.ids ", 8) != 0)
        return false;
    n = strcspn(src + 8, ", ");
    if (!n)
        return false;
    snprintf(out, cap, "%.*s", (int)n, src + 8);
    return true;
}
