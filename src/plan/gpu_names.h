/* A GPU as people name it: "NVIDIA GeForce RTX 3060 Laptop GPU" (nvidia-smi), "RTX 3060",
 * "8.6", "sm_86", or a PCI id "10de:2504". Names resolve to a compute capability through
 * gpu_compute_capability.csv; PCI ids through the pci.ids name first. */
#ifndef DLENV_PLAN_GPU_NAMES_H
#define DLENV_PLAN_GPU_NAMES_H

#include "plan/plan.h"

/* The vendor a marketing name implies (Radeon/Instinct: AMD; Arc/Iris/UHD: Intel;
 * Apple M1..: Apple; otherwise NVIDIA, whose names need no prefix). */
dl_gpu_vendor dl_gpu_vendor_of_name(const char *name);
/* Fills cc from the table when the name matches a row (exactly after dropping "NVIDIA ",
 * else the longest row name inside it on word boundaries). False when no row matches. */
bool dl_gpu_cc_from_name(const dl_knowledge *k, const char *name, unsigned *major,
                         unsigned *minor);
/* "8.6" / "sm_86" / "compute_86" -> 8, 6. */
bool dl_gpu_cc_from_text(const char *s, unsigned *major, unsigned *minor);
/* "10de:2504" -> vendor 0x10de, device 0x2504. */
bool dl_gpu_pci_id_parse(const char *s, long *vendor, long *device);
dl_gpu_vendor dl_gpu_vendor_of_pci(long vendor);

#endif
