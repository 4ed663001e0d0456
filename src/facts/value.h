/* The value types every fact is made of. A value is known, or unknown with the reason
 * ("unknown, because ..."); a value that is neither is absent and is not written. */
#ifndef DLENV_FACTS_VALUE_H
#define DLENV_FACTS_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/str.h"

typedef struct dl_text {
    char *value;  /* known when not NULL; always valid UTF-8 without control characters */
    char *why;    /* set when unknown */
} dl_text;

typedef struct dl_int {
    bool known;
    long long value;
    char *why;
} dl_int;

typedef struct dl_flag {
    bool known;
    bool value;
    char *why;
} dl_flag;

typedef struct dl_num {
    bool known;
    double value;
    char *why;
} dl_num;

/* A list of structs (or of char* for text lists, or dl_pair for dictionaries). */
typedef struct dl_list {
    bool known;
    char *why;
    size_t count;
    void *items;
} dl_list;

typedef struct dl_pair {
    char *name;
    char *value;
} dl_pair;

#define DL_PRINTF(a, b) DL_PRINTF_LIKE(a, b)

/* The value when known, else otherwise: a saved report may lack any member, or hold an
 * unknown where a probe always writes a value, so a reader never counts on one. */
const char *dl_text_or(const dl_text *t, const char *otherwise);
void dl_text_set(dl_text *t, const char *value);
void dl_text_setn(dl_text *t, const char *value, size_t len);
void dl_text_unknown(dl_text *t, const char *fmt, ...) DL_PRINTF(2, 3);
void dl_int_set(dl_int *v, long long value);
void dl_int_unknown(dl_int *v, const char *fmt, ...) DL_PRINTF(2, 3);
void dl_flag_set(dl_flag *v, bool value);
void dl_flag_unknown(dl_flag *v, const char *fmt, ...) DL_PRINTF(2, 3);
void dl_num_set(dl_num *v, double value);
void dl_num_unknown(dl_num *v, const char *fmt, ...) DL_PRINTF(2, 3);

/* Lists: mark known (empty), append an element (zeroed, returned), or mark unknown. */
void dl_list_known(dl_list *l);
void *dl_list_push(dl_list *l, size_t item_size);
void dl_list_unknown(dl_list *l, const char *fmt, ...) DL_PRINTF(2, 3);
#define DL_LIST_AT(list, type, i) (((type *)(list).items)[i])
void dl_textlist_add(dl_list *l, const char *text);
bool dl_textlist_has(const dl_list *l, const char *text);
void dl_dict_add(dl_list *l, const char *name, const char *value);
const char *dl_dict_get(const dl_list *l, const char *name);

#endif
