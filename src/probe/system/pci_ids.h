/* Names from the pci.ids database (https://pci-ids.ucw.cz/). The file is about 1.3 MB, so
 * it is streamed line by line and never held whole, and reading stops as soon as every
 * asked-for vendor block has been passed: most lookups read a fraction of the file. */
#ifndef DLENV_PROBE_PCI_IDS_H
#define DLENV_PROBE_PCI_IDS_H

#include "os/os.h"

#include <stdbool.h>
#include <stddef.h>

/* The candidate locations, in the order distributions put them; NULL-terminated. */
extern const char *const dl_pci_ids_paths[];

/* The first candidate that is a file under the machine's root, or NULL. */
const char *dl_pci_ids_find(const dl_machine *m);

/* One device to name. Ids are 0..0xffff, or -1 when unknown (that name is then not
 * looked up). The names are the raw bytes of the file (maybe not UTF-8; dl_text_set
 * cleans them), NULL when the database has no entry. */
typedef struct dl_pci_ids_query {
    long vendor, device, subvendor, subdevice;
    char *vendor_name;
    char *device_name;
    char *subsystem_name;
} dl_pci_ids_query;

/* Fills the names of all n queries in one pass over the file at path, so several GPUs
 * cost one read. False, with err set, when the file cannot be opened; the queries then
 * keep NULL names. When no query has a known vendor the file is not opened at all. */
bool dl_pci_ids_lookup(const dl_machine *m, const char *path, dl_pci_ids_query *q,
                       size_t n, dl_io_error *err);
void dl_pci_ids_query_free(dl_pci_ids_query *q);

#endif
