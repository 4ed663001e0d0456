/* The human view of the facts: sections, aligned labels, readable in 80 columns. */
#ifndef DLENV_RENDER_TEXT_REPORT_H
#define DLENV_RENDER_TEXT_REPORT_H

#include "facts/facts.h"
#include "render/style.h"

char *dl_render_report_text(const dl_facts *f, const dl_style *style);

#endif
