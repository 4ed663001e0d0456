/* Memory bandwidth, measured natively (no Python): the STREAM triad a[i] = b[i] + s * c[i]
 * on arrays larger than the caches, on every CPU this process may use. Part of
 * `dlenv verify`. */
#ifndef DLENV_MEASURE_MEMORY_BANDWIDTH_H
#define DLENV_MEASURE_MEMORY_BANDWIDTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dl_memory_bandwidth {
    double triad_gbps;   /* 10^9 bytes per second, counted as STREAM does (below) */
    size_t array_bytes;  /* of each of the three arrays */
    unsigned threads;
    double spread_pct;   /* (max-min)/median of the timed passes */
} dl_memory_bandwidth;

/* Measures for about seconds_budget seconds plus the time to allocate and first-touch the
 * arrays, with arrays of dl_memory_bandwidth_default_bytes(). Each thread first writes its
 * own slice (so the pages are its NUMA node's and never the shared zero page), then one
 * untimed pass, then 3 to 20 timed passes, the median. Every pass's result is checked
 * (each slice's ends and 16 elements across the arrays), so a pass that did not happen is
 * an error, never a rate. Bandwidth counts 3 x 8 bytes per element, STREAM's convention
 * (two reads, one write); a CPU that reads the destination's line before writing it
 * (write-allocate) moves 4 x 8 bytes, so the bus does more than the figure says. */
bool dl_measure_memory_bandwidth(double seconds_budget, dl_memory_bandwidth *out,
                                 char **error);
/* The same with each array array_bytes long (at least 1 MiB; 0: the default). */
bool dl_measure_memory_bandwidth_sized(double seconds_budget, size_t array_bytes,
                                       dl_memory_bandwidth *out, char **error);

/* Bytes per array by default: 4 x the last-level cache (STREAM's rule, so no array stays
 * cached), at least 64 MiB and at most 256 MiB (768 MiB in all, not to strain a small
 * machine or container; a caller that knows the free memory may ask for more). */
size_t dl_memory_bandwidth_default_bytes(void);
/* The largest cache level's size from cpuid (leaf 4, or AMD's 0x8000001D), per instance
 * (one socket's); 0 when unknown (not x86). */
uint64_t dl_measure_llc_bytes(void);

#endif
