/* `dlenv fleet report`'s views of a folded fleet (diff/fleet_fold.h): text for people,
 * JSON ("schema": "dlenv.fleet_report/1") for scripts, Markdown for a ticket. */
#ifndef DLENV_RENDER_FLEET_REPORT_VIEW_H
#define DLENV_RENDER_FLEET_REPORT_VIEW_H

#include "diff/fleet_fold.h"

char *dl_render_fleet_report_text(const dl_fleet *fl);
char *dl_render_fleet_report_json(const dl_fleet *fl);
char *dl_render_fleet_report_markdown(const dl_fleet *fl);

#endif
