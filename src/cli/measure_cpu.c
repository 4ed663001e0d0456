#include "cli/measure_cpu.h"

#include "measure/cpu_peak.h"
#include "measure/memory_bandwidth.h"

#include <stdlib.h>

/* Seconds for the peak and the triad: --quick stays under 3 s in all, the default under
 * 10 s (torch's import and product take the rest), --full is steadier. */
static void budgets(const dl_cli *cli, double *peak, double *triad)
{
    *peak = cli->quick ? 0.3 : cli->full ? 6.0 : 1.5;
    *triad = cli->quick ? 0.2 : cli->full ? 4.0 : 0.8;
}

/* Arrays of 4 x the last-level cache (the default) can be 3 x 256 MiB where a VM reports
 * its host's cache; the first touch of that alone takes a second. --quick and the default
 * keep each array at 64 / 128 MiB, still far beyond any client CPU's cache; --full takes
 * the default. */
static size_t triad_bytes(const dl_cli *cli)
{
    size_t def = dl_memory_bandwidth_default_bytes();
    size_t cap = cli->quick ? (size_t)64 << 20 : cli->full ? def : (size_t)128 << 20;
    return def < cap ? def : cap;
}

static void tell(void (*progress)(const char *), const char *what)
{
    if (progress)
        progress(what);
}

void dl_cli_measure_cpu(const dl_cli *cli, bool bandwidth, void (*progress)(const char *what),
                        dl_cpu_measure *c)
{
    dl_cpu_peak peak;
    dl_memory_bandwidth bw;
    double peak_s, triad_s;
    char *error = NULL;
    budgets(cli, &peak_s, &triad_s);
    tell(progress, "measuring the CPU's peak floating-point rate ...");
    if (dl_measure_cpu_peak(peak_s, &peak, &error)) {
        dl_text_set(&c->isa, peak.isa);
        dl_int_set(&c->threads, peak.threads);
        dl_num_set(&c->fp32_gflops_1core, peak.fp32_gflops_1core);
        dl_num_set(&c->fp64_gflops_1core, peak.fp64_gflops_1core);
        dl_num_set(&c->fp32_gflops_all, peak.fp32_gflops_all);
        dl_num_set(&c->fp64_gflops_all, peak.fp64_gflops_all);
        dl_num_set(&c->peak_spread_pct, peak.spread_pct);
    } else {
        dl_num_unknown(&c->fp32_gflops_1core, "%s", error);
        dl_num_unknown(&c->fp64_gflops_1core, "%s", error);
        dl_num_unknown(&c->fp32_gflops_all, "%s", error);
        dl_num_unknown(&c->fp64_gflops_all, "%s", error);
        free(error);
        error = NULL;
    }
    if (!bandwidth)
        return;
    tell(progress, "measuring the memory bandwidth ...");
    if (dl_measure_memory_bandwidth_sized(triad_s, triad_bytes(cli), &bw, &error)) {
        dl_num_set(&c->triad_gbps, bw.triad_gbps);
        dl_int_set(&c->triad_array_bytes, (long long)bw.array_bytes);
    } else {
        dl_num_unknown(&c->triad_gbps, "%s", error);
        free(error);
    }
}
