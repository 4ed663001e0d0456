/* Every string of a struct the schema describes, rewritten in place: values, the reasons
 * of unknowns, list items and dictionary values (not their names, which are keys). What
 * --redact runs over the facts and the findings before anything is rendered, so no
 * renderer (text wrapped at 80 columns, JSON) can show a name it missed. */
#include "facts/schema.h"

#include "facts/value.h"

#include <stdlib.h>

static void map_string(char **p, dl_text_map fn, void *ctx)
{
    char *next;
    if (!*p)
        return;
    next = fn(*p, ctx);
    free(*p);
    *p = next;
}

static void map_list(const dl_field *fd, dl_list *l, dl_text_map fn, void *ctx)
{
    size_t i;
    map_string(&l->why, fn, ctx);
    for (i = 0; i < l->count; i++) {
        if (fd->kind == DL_F_LIST)
            dl_schema_map_text(fd->sub, (char *)l->items + i * fd->sub->size, fn, ctx);
        else if (fd->kind == DL_F_TEXTLIST)
            map_string(&DL_LIST_AT(*l, char *, i), fn, ctx);
        else
            map_string(&DL_LIST_AT(*l, dl_pair, i).value, fn, ctx);
    }
}

void dl_schema_map_text(const dl_schema *s, void *obj, dl_text_map fn, void *ctx)
{
    size_t i;
    for (i = 0; i < s->count; i++) {
        const dl_field *fd = &s->fields[i];
        void *p = (char *)obj + fd->offset;
        switch (fd->kind) {
        case DL_F_TEXT:
            map_string(&((dl_text *)p)->value, fn, ctx);
            map_string(&((dl_text *)p)->why, fn, ctx);
            break;
        case DL_F_INT: map_string(&((dl_int *)p)->why, fn, ctx); break;
        case DL_F_FLAG: map_string(&((dl_flag *)p)->why, fn, ctx); break;
        case DL_F_NUM: map_string(&((dl_num *)p)->why, fn, ctx); break;
        case DL_F_OBJECT: dl_schema_map_text(fd->sub, p, fn, ctx); break;
        case DL_F_LIST:
        case DL_F_TEXTLIST:
        case DL_F_DICT: map_list(fd, p, fn, ctx); break;
        }
    }
}
