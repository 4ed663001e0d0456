/* What `dlenv explain` renders; the renderers only read the explanation. */
#ifndef DLENV_RENDER_EXPLAIN_VIEW_H
#define DLENV_RENDER_EXPLAIN_VIEW_H

#include "explain/explain.h"
#include "render/style.h"

char *dl_render_explain_text(const dl_explanation *e, const char *name, const dl_style *s);
char *dl_render_explain_json(const dl_explanation *e, const char *name);

#endif
