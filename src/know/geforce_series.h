/* The capability span of a three-digit GeForce named without a row in the name table: the
 * series (the hundreds digit: "GT 720M" is of the 700 series) fixes which chip generations it
 * may be made of (data/geforce_series.csv). Pure functions: no I/O. */
#ifndef DLENV_KNOW_GEFORCE_SERIES_H
#define DLENV_KNOW_GEFORCE_SERIES_H

#include "know/tables.h"

#include <stdbool.h>

/* The series of name ("NVIDIA GeForce GT 720M", "nvidia gt 630", "GTX 860 M", "gt650m"):
 * 100 to 900, or 0 when name is no three-digit GeForce (four digits, MX, RTX, Quadro,
 * Tesla, or no GeForce/GT/GTS/GTX word before the number). */
unsigned dl_geforce_series_of(const char *name);

/* The lowest and highest capability (major * 10 + minor) a GeForce of name's series may
 * have; false when name has no series or the table has no row for it. */
bool dl_geforce_series_span(const dl_knowledge *k, const char *name, unsigned *lo, unsigned *hi);

/* The span of a GeForce named by its whole line of cards, as explain names one read in words
 * ("RTX 50 series", "GTX 16 series"): the lowest and highest capability of that family's
 * four-digit models of the series in the name table (data/gpu_compute_capability.csv);
 * false for any other name or when the table has none. */
bool dl_geforce_line_span(const dl_knowledge *k, const char *name, unsigned *lo, unsigned *hi);

#endif
