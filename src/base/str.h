/* Small string helpers shared by every layer: allocation that never returns NULL
 * silently, formatting into fresh strings, UTF-8 cleaning, a growable buffer. */
#ifndef DLENV_BASE_STR_H
#define DLENV_BASE_STR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h> /* __MINGW_PRINTF_FORMAT */

/* Allocation failure is not recoverable for a short-lived CLI; these abort with a message
 * instead of returning NULL so callers stay simple. */
void *dl_xmalloc(size_t n);
void *dl_xcalloc(size_t count, size_t size);
void *dl_xrealloc(void *p, size_t n);
char *dl_strdup(const char *s);              /* NULL stays NULL */
char *dl_strndup(const char *s, size_t n);
/* s with every `from` (not empty) replaced by `to`: a new string, NULL when out of memory. */
char *dl_str_replace(const char *s, const char *from, const char *to);
/* A string built piece by piece: built (freed; NULL at the start), then len bytes of from,
 * then with (NULL: nothing). A new string, NULL when out of memory. */
char *dl_str_grow(char *built, const char *from, size_t len, const char *with);
/* `item` is one of the entries of the ";"-separated `list` ("cu118;cu121"; NULL: none). */
bool dl_semicolon_list_has(const char *list, const char *item);
/* The `len` bytes at `at` in `s` touch a path separator ('/' or '\\') on either side: a
 * folder's or file's name in a path ("/home/radeon/"), not a word of prose. */
bool dl_str_in_path(const char *s, const char *at, size_t len);
/* printf checking; MinGW builds use its C99 printf (__USE_MINGW_ANSI_STDIO, for %zu),
 * whose format family is __MINGW_PRINTF_FORMAT. */
#if defined(__MINGW32__)
#define DL_PRINTF_LIKE(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define DL_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define DL_PRINTF_LIKE(f, a)
#endif
char *dl_fmt(const char *fmt, ...) DL_PRINTF_LIKE(1, 2);
char *dl_vfmt(const char *fmt, va_list ap) DL_PRINTF_LIKE(1, 0);
/* Formats into a fixed field of size bytes (size >= 4). True when the whole text fit;
 * false when it did not: then the field holds as much as fits, cut on a UTF-8 character
 * boundary, ending in "\u2026" (an ellipsis), so a cut never passes for the whole value.
 * Callers whose value must be exact (a version, a variant) check the result. */
bool dl_fixed_fmt(char *dst, size_t size, const char *fmt, ...) DL_PRINTF_LIKE(3, 4);
bool dl_fixed_vfmt(char *dst, size_t size, const char *fmt, va_list ap) DL_PRINTF_LIKE(3, 0);

bool dl_starts_with(const char *s, const char *prefix);
/* dir + name with the separator dir already uses: '\\' for a Windows path ("C:\\x",
 * "\\\\server\\x"), whose name's '/' become '\\' too; '/' otherwise. Caller frees. */
char *dl_path_join(const char *dir, const char *name);
bool dl_ends_with(const char *s, const char *suffix);
bool dl_contains_ci(const char *haystack, const char *needle);
/* Python package names as PEP 503 normalises them: case-free, runs of '-', '_' and '.'
 * alike ("flash-attn" = "Flash_Attn" = "flash.attn"); NULL equals nothing. */
bool dl_package_name_equal(const char *a, const char *b);
char *dl_ascii_lower(const char *s, size_t n);  /* copy of n bytes, A-Z as a-z */
char *dl_trim(char *s);                      /* in place; returns s advanced past spaces */

/* Copy of s where invalid UTF-8 bytes and control characters become the text "\xNN", so
 * names read from a broken file stay readable and every JSON we write is valid. */
char *dl_utf8_clean(const char *s, size_t len);
bool dl_utf8_valid(const char *s, size_t len);

/* Parse an unsigned integer in the given base from the whole (trimmed) string. */
bool dl_parse_u64(const char *s, int base, unsigned long long *out);

/* A growable array of owned strings. */
typedef struct dl_strv {
    char **v;
    size_t n;
} dl_strv;

/* Grows an array of *cap elements of elem bytes to hold at least need, doubling: appending
 * one element at a time costs a copy of the whole array on every call otherwise (realloc
 * seldom grows in place under AddressSanitizer, nor for large blocks). */
void *dl_xgrow(void *array, size_t *cap, size_t need, size_t elem);

void dl_strv_add(dl_strv *s, char *owned);   /* takes ownership */
bool dl_strv_has(const dl_strv *s, const char *text);
/* Adds a copy of text unless it is NULL, empty or already there. */
void dl_strv_add_once(dl_strv *s, const char *text);
void dl_strv_free(dl_strv *s);
/* Adds each sep-separated field of text, trimmed of spaces, skipping empty ones
 * ("cu126; cu128" -> "cu126", "cu128"). Portable where strtok_r is not (MSVC). */
void dl_strv_split(dl_strv *s, const char *text, char sep);
/* The next token of *cursor, cut at any of seps (empty tokens skipped), or NULL at the
 * end; *cursor moves past it. strtok_r's job in standard C (MSVC has no strtok_r). */
char *dl_str_token(char **cursor, const char *seps);

typedef struct dl_buf {
    char *data;
    size_t len;
    size_t cap;
} dl_buf;

void dl_buf_add(dl_buf *b, const char *s, size_t n);
void dl_buf_puts(dl_buf *b, const char *s);
void dl_buf_printf(dl_buf *b, const char *fmt, ...) DL_PRINTF_LIKE(2, 3);
char *dl_buf_take(dl_buf *b);                /* returns the NUL-terminated text, resets b */
void dl_buf_free(dl_buf *b);

#endif
