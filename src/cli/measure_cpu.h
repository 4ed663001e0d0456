/* This CPU measured natively, as `dlenv verify` shows it and setup's proof compares torch's
 * product with: its fp32/fp64 peak with the widest FMA kernel (one core and all) and, when
 * asked, a STREAM triad. One code for both, so both judge torch against the same figure. */
#ifndef DLENV_CLI_MEASURE_CPU_H
#define DLENV_CLI_MEASURE_CPU_H

#include "cli/options.h"
#include "facts/facts.h"

#include <stdbool.h>

/* Fills c (a figure that could not be measured is unknown with the reason); --quick and
 * --full of cli set the time spent. progress, when not NULL, is told each step. */
void dl_cli_measure_cpu(const dl_cli *cli, bool bandwidth, void (*progress)(const char *what),
                        dl_cpu_measure *c);

#endif
