#include "facts/value.h"

#include "base/str.h"
#include "base/url.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Every text that becomes a fact: valid UTF-8 without control characters, and no URL
 * with its credentials (a password in direct_url.json must reach no output). */
static char *fact_text(const char *s, size_t len)
{
    return dl_url_strip_userinfo(dl_utf8_clean(s, len));
}

DL_PRINTF_LIKE(1, 0)
static char *vreason(const char *fmt, va_list ap)
{
    char *raw = dl_vfmt(fmt, ap);
    char *clean = fact_text(raw, strlen(raw));
    free(raw);
    return clean;
}

#define SET_WHY(target)               \
    do {                              \
        va_list ap;                   \
        va_start(ap, fmt);            \
        free(target);                 \
        (target) = vreason(fmt, ap);  \
        va_end(ap);                   \
    } while (0)

const char *dl_text_or(const dl_text *t, const char *otherwise)
{
    return t->value ? t->value : otherwise;
}

void dl_text_set(dl_text *t, const char *value)
{
    dl_text_setn(t, value, value ? strlen(value) : 0);
}

void dl_text_setn(dl_text *t, const char *value, size_t len)
{
    free(t->value);
    free(t->why);
    t->why = NULL;
    t->value = value ? fact_text(value, len) : NULL;
}

void dl_text_unknown(dl_text *t, const char *fmt, ...)
{
    free(t->value);
    t->value = NULL;
    SET_WHY(t->why);
}

void dl_int_set(dl_int *v, long long value)
{
    free(v->why);
    v->why = NULL;
    v->known = true;
    v->value = value;
}

void dl_int_unknown(dl_int *v, const char *fmt, ...)
{
    v->known = false;
    v->value = 0;
    SET_WHY(v->why);
}

void dl_flag_set(dl_flag *v, bool value)
{
    free(v->why);
    v->why = NULL;
    v->known = true;
    v->value = value;
}

void dl_flag_unknown(dl_flag *v, const char *fmt, ...)
{
    v->known = false;
    v->value = false;
    SET_WHY(v->why);
}

void dl_num_set(dl_num *v, double value)
{
    free(v->why);
    v->why = NULL;
    v->known = true;
    v->value = value;
}

void dl_num_unknown(dl_num *v, const char *fmt, ...)
{
    v->known = false;
    v->value = 0;
    SET_WHY(v->why);
}

void dl_list_known(dl_list *l)
{
    free(l->why);
    l->why = NULL;
    l->known = true;
}

void *dl_list_push(dl_list *l, size_t item_size)
{
    char *slot;
    dl_list_known(l);
    l->items = dl_xrealloc(l->items, (l->count + 1) * item_size);
    slot = (char *)l->items + l->count * item_size;
    memset(slot, 0, item_size);
    l->count++;
    return slot;
}

/* Only an empty list can become unknown: elements would have no owner to free them. */
void dl_list_unknown(dl_list *l, const char *fmt, ...)
{
    l->known = false;
    SET_WHY(l->why);
}

void dl_textlist_add(dl_list *l, const char *text)
{
    char **slot = dl_list_push(l, sizeof(char *));
    *slot = fact_text(text, strlen(text));
}

bool dl_textlist_has(const dl_list *l, const char *text)
{
    size_t i;
    for (i = 0; l->known && i < l->count; i++)
        if (strcmp(DL_LIST_AT(*l, char *, i), text) == 0)
            return true;
    return false;
}

void dl_dict_add(dl_list *l, const char *name, const char *value)
{
    dl_pair *p = dl_list_push(l, sizeof(dl_pair));
    p->name = fact_text(name, strlen(name));
    p->value = fact_text(value, strlen(value));
}

const char *dl_dict_get(const dl_list *l, const char *name)
{
    size_t i;
    for (i = 0; l->known && i < l->count; i++)
        if (strcmp(DL_LIST_AT(*l, dl_pair, i).name, name) == 0)
            return DL_LIST_AT(*l, dl_pair, i).value;
    return NULL;
}
