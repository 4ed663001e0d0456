#ifndef DLENV_CLI_PROBE_CHILD_H
#define DLENV_CLI_PROBE_CHILD_H

/* The hidden `__probe` command: one driver probe (or verify's GPU measurements, arg being
 * the level), answered as JSON. */
int dl_probe_child_main(const char *which, const char *arg);

#endif
