/* GPU device ids -> the chip code pci.ids names them with, from data/pci_gpus.csv (made by
 * scripts/pci_gpus.py from one pci.ids version: ids and chip codes only). It answers where
 * no pci.ids is installed (Windows, minimal containers) and is asked before the host's
 * pci.ids, which only ids newer than the table need. Pure: no I/O. */
#ifndef DLENV_KNOW_PCI_GPUS_H
#define DLENV_KNOW_PCI_GPUS_H

#include "know/tables.h"

#include <stdbool.h>

/* The chip code of vendor:device ("GP106", "Navi 31", "DG2"), or NULL when the table does
 * not hold that id. The string points into the knowledge tables. */
const char *dl_pci_gpu_chip(const dl_knowledge *k, long vendor, long device);

/* The pci.ids version the table was generated from ("2026.08.22"), into out; false when
 * the source cell does not name one. */
bool dl_pci_gpus_version(const dl_knowledge *k, char *out, size_t cap);

#endif
