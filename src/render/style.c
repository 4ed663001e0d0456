#include "render/style.h"

const char *dl_style_on(const dl_style *s, dl_tone t)
{
    if (!s->color)
        return "";
    switch (t) {
    case DL_TONE_HEAD: return "\033[1m";
    case DL_TONE_GOOD: return "\033[32m";
    case DL_TONE_WARN: return "\033[33m";
    case DL_TONE_BAD: return "\033[31m";
    case DL_TONE_DIM: return "\033[2m";
    default: return "";
    }
}

const char *dl_style_off(const dl_style *s, dl_tone t)
{
    return s->color && t != DL_TONE_PLAIN ? "\033[0m" : "";
}

const char *dl_glyph_ok(const dl_style *s)
{
    return s->unicode ? "\xE2\x9C\x93" : "ok"; /* U+2713 check mark */
}

const char *dl_glyph_fail(const dl_style *s)
{
    return s->unicode ? "\xE2\x9C\x97" : "x"; /* U+2717 ballot x */
}

const char *dl_glyph_skip(const dl_style *s)
{
    return s->unicode ? "\xE2\x80\x93" : "-"; /* U+2013 en dash */
}
