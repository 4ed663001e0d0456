/* A GPU as people name it: "NVIDIA GeForce RTX 3060 Laptop GPU" (nvidia-smi), "RTX 3060",
 * "8.6", "sm_86", or a PCI id "10de:2504". Names resolve to a compute capability through
 * gpu_compute_capability.csv; PCI ids through the built-in id table (pci_gpus.csv) and its
 * chip code first, then the host's pci.ids name. */
#ifndef DLENV_PLAN_GPU_NAMES_H
#define DLENV_PLAN_GPU_NAMES_H

#include "plan/plan.h"

/* The vendor a marketing name implies (Radeon/Instinct: AMD; Arc/Iris/UHD: Intel;
 * Apple M1..: Apple; otherwise NVIDIA, whose names need no prefix). */
dl_gpu_vendor dl_gpu_vendor_of_name(const char *name);
/* What a GPU's name says about its compute capability. */
typedef struct dl_gpu_match {
    bool found;             /* major.minor hold the capability */
    unsigned major, minor;
    char guessed[96];       /* the table's name when the given one was a near miss ("did
                               you mean"); "" when the name matched */
    char unknown_why[200];  /* why not found when the name is known but ambiguous */
    /* The capabilities the name allows, lowest and highest (major * 10 + minor): both the
     * match's when found; the two boards' when the name is ambiguous ("GT 730": 21 and 35),
     * which may still decide what is below or above a wheel's list; 0 when unknown. */
    unsigned span_lo, span_hi;
} dl_gpu_match;

/* The name (nvidia-smi's, a user's, or pci.ids' "GP106 [GeForce GTX 1060 6GB]") against
 * gpu_compute_capability.csv and gpu_chips.csv: case, spacing and the "NVIDIA"/"GeForce"
 * words do not matter; the longest row inside the name, then the chip code, then the
 * shortest row holding the name, then a near miss in the letters (never the digits). */
void dl_gpu_resolve_name(const dl_knowledge *k, const char *name, dl_gpu_match *out);
/* Resolves name into g's capability, guessed and unknown_why. */
void dl_plan_gpu_resolve(const dl_knowledge *k, const char *name, dl_plan_gpu *g);
/* A name no table knows may still be in pci.ids ("Quadro K620" is "GM107GL [Quadro
 * K620]"): the caller reads pci.ids line by line into a search, which compares each
 * NVIDIA device's bracketed names with the wanted one and resolves a match by its chip.
 * Two chips of different capabilities under one name leave it ambiguous. */
typedef struct dl_gpu_pci_search {
    char want[96];
    bool nvidia;            /* inside vendor 10de's devices */
    unsigned hits;
    unsigned major, minor;  /* the first match's capability */
    char first[160], other[160]; /* the first match's pci.ids name; one that disagrees */
    unsigned other_major, other_minor;
} dl_gpu_pci_search;

void dl_gpu_pci_search_begin(dl_gpu_pci_search *s, const char *name);
void dl_gpu_pci_search_line(const dl_knowledge *k, dl_gpu_pci_search *s, const char *line,
                            size_t len);
/* Writes what the search found into g (capability, or why it is ambiguous); false when
 * pci.ids names no such NVIDIA device. */
bool dl_gpu_pci_search_end(const dl_gpu_pci_search *s, dl_plan_gpu *g);
/* Fills cc from the table when the name matches a row (exactly after dropping "NVIDIA ",
 * else the longest row name inside it on word boundaries). False when no row matches. */
bool dl_gpu_cc_from_name(const dl_knowledge *k, const char *name, unsigned *major,
                         unsigned *minor);
/* "8.6" / "sm_86" / "compute_86" -> 8, 6. */
bool dl_gpu_cc_from_text(const char *s, unsigned *major, unsigned *minor);
/* A PCI id through data/pci_gpus.csv (no pci.ids needed): the chip code pci.ids names it
 * with decides, NVIDIA's through gpu_chips.csv, AMD's and Intel's through
 * gpu_codenames.csv into g->target. g->name becomes "PCI 10de:25a2 (GA107M)". True when
 * the chip resolves; false when the table lacks the id, or holds it with a chip no table
 * resolves (then g->name and g->unknown_why say so, and the host's pci.ids may still know
 * the marketing name). */
bool dl_plan_gpu_from_pci_table(const dl_knowledge *k, long vendor, long device,
                                dl_plan_gpu *g);
/* A pci.ids name of an AMD or Intel device ("Navi 31 [Radeon RX 7900 XT/7900 XTX]")
 * into g->target: its codename (device rows first), else its marketing name. */
void dl_plan_gpu_target_from_pci_name(const dl_knowledge *k, const char *full, long device,
                                      dl_plan_gpu *g);
/* "10de:2504" -> vendor 0x10de, device 0x2504. */
bool dl_gpu_pci_id_parse(const char *s, long *vendor, long *device);
dl_gpu_vendor dl_gpu_vendor_of_pci(long vendor);

#endif
