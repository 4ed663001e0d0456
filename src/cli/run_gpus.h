/* `--gpu` for run and profile: the GPUs asked for, checked against the ones NVML lists on
 * this machine. */
#ifndef DLENV_CLI_RUN_GPUS_H
#define DLENV_CLI_RUN_GPUS_H

#include "cli/options.h"

#include <stddef.h>

/* The NVML indices of the GPUs cli->gpus names, in the order given (caller frees), and
 * DL_EXIT_OK; or, after printing one line, DL_EXIT_USAGE (a value that names no GPU in
 * any form, a GPU named twice) or DL_EXIT_BAD_INPUT (no such GPU here, no NVIDIA driver
 * answering). Only NVML is asked, in its isolated child: no Python, no torch. */
int dl_run_choose_gpus(const dl_cli *cli, long **chosen, size_t *n_chosen);

#endif
