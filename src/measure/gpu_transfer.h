/* Copies between host and GPU over PCIe (or NVLink-C2C), both directions, from pinned and
 * from pageable host memory. */
#ifndef DLENV_MEASURE_GPU_TRANSFER_H
#define DLENV_MEASURE_GPU_TRANSFER_H

#include "measure/gpu_session.h"

/* Sets h2d/d2h pinned/pageable GB/s and transfer_bytes; `during` runs while the timed
 * pinned host-to-device copies do (the link's state under load). */
bool dl_gpu_host_transfers(dl_gpu_session *s, dl_gpu_during during, void *during_arg);

#endif
