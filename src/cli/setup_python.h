/* The interpreter a setup or a restore makes its environment from when only a version is
 * asked (--python X.Y, or the lock's Python): the one uv finds (tool uv; uv fetches it
 * first when --allow-python-download lets it), else pythonX.Y on PATH, else what the
 * launcher `py -X.Y` runs; none: which to install, for this system, and the exit code. */
#ifndef DLENV_CLI_SETUP_PYTHON_H
#define DLENV_CLI_SETUP_PYTHON_H

#include "cli/setup_transaction.h"

/* job->python_version ("3.12") to job->base_python (or job->fetch_python with the version
 * as uv's --python); DL_EXIT_OK, or DL_EXIT_NO_PYTHON after the error with the hint. */
int dl_setup_python_of_version(dl_setup_job *job);

#endif
