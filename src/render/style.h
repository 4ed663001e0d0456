/* How text output may look on this terminal: colour and the glyph set. Decided once in
 * main from the options and the environment; renderers only read it. */
#ifndef DLENV_RENDER_STYLE_H
#define DLENV_RENDER_STYLE_H

#include <stdbool.h>

typedef struct dl_style {
    bool color;
    bool unicode;
} dl_style;

typedef enum dl_tone { DL_TONE_PLAIN, DL_TONE_HEAD, DL_TONE_GOOD, DL_TONE_WARN, DL_TONE_BAD,
                       DL_TONE_DIM } dl_tone;

const char *dl_style_on(const dl_style *s, dl_tone t);
const char *dl_style_off(const dl_style *s, dl_tone t);
const char *dl_glyph_ok(const dl_style *s);
const char *dl_glyph_fail(const dl_style *s);
const char *dl_glyph_skip(const dl_style *s);

#endif
