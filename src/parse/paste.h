/* Pasted text as people paste it: markdown fences, `>` quoting, HTML entities from a web
 * page, CRLF or CR line ends, tabs, invalid UTF-8 from another code page, UTF-16 from
 * PowerShell, no-break spaces and curly quotes, a terminal's colour codes, a logger's
 * timestamps, lines cut at 80 columns. Normalised once, here, into lines that keep the
 * line numbers of the original, so evidence can quote "L12: ..." and no reader needs to
 * know how the text was written. */
#ifndef DLENV_PARSE_PASTE_H
#define DLENV_PARSE_PASTE_H

#include <stdbool.h>
#include <stddef.h>

/* Lines longer than this are cut (a 10 MB line of log is still one line). */
#define DL_PASTE_MAX_LINE 4096
/* A line exactly this wide was cut by the terminal it was copied from; read with the next. */
#define DL_PASTE_WRAP_COLUMNS 80

typedef struct dl_paste_line {
    char *text;      /* valid UTF-8, no control characters; invalid bytes as \xNN */
    char *lower;     /* text with ASCII letters in lower case, for matching */
    size_t number;   /* 1-based, in the original text */
} dl_paste_line;

typedef struct dl_paste {
    dl_paste_line *lines;
    size_t count;
    size_t bytes;    /* the size of the original */
    /* Every line's lower-case text joined by '\n', and where each starts: one strstr over
     * the whole text finds a token in a 10 MB log far faster than one per line. */
    char *lower_all;
    size_t *starts;
    struct dl_paste_index *index; /* where in lower_all a token cannot be; NULL if short */
    /* The lines' texts live in a few large blocks, not in an allocation each (a 10 MB log
     * has 200,000 lines). */
    char **blocks;
    size_t n_blocks;
    char *block_next;
    size_t block_left;
} dl_paste;

/* Never fails: any bytes give some lines (maybe none). */
void dl_paste_read(const char *data, size_t len, dl_paste *out);
void dl_paste_free(dl_paste *p);

/* The first line at or after `from` holding needle (already lower case); -1 when none. */
long dl_paste_find(const dl_paste *p, size_t from, const char *needle);
/* The line of the first of n needles (in their order) that the text holds; -1 when none. */
long dl_paste_find_any(const dl_paste *p, const char *const *needles, size_t n);
/* Whether the string s (a line, already lower case) holds any of n words. */
bool dl_line_has_any(const char *s, const char *const *words, size_t n);

/* Whether needle (len bytes) occurring at `at` in the lower-case line `low` counts: a word
 * alone, not a CPU's brand, a flag beside a word of trouble. */
typedef bool (*dl_paste_accept_fn)(const char *low, const char *at, size_t len);
/* The first line at or after `from` where needle occurs at a place accept takes (every
 * occurrence in a line is offered); -1 when none. */
long dl_paste_find_where(const dl_paste *p, size_t from, const char *needle,
                         dl_paste_accept_fn accept);
/* dl_paste_find_where for the first of n needles (in their order) that the text holds at an
 * accepted place; -1 when none. */
long dl_paste_find_any_where(const dl_paste *p, const char *const *needles, size_t n,
                             dl_paste_accept_fn accept);

/* The lines that hold any of a few marks, visited in order: a reader that can fire only on
 * such a line skips the rest of a long log. Each mark's next line is kept, so every mark's
 * lines are searched for once in all, however many lines are asked about. */
#define DL_PASTE_CURSOR_MARKS 32
typedef struct dl_paste_cursor {
    const dl_paste *paste;
    const char *const *marks;
    size_t n;
    long next[DL_PASTE_CURSOR_MARKS]; /* each mark's next line from the last asked; -1: none */
    long nearest;                      /* the least of next[]; -1 when no mark is left */
} dl_paste_cursor;

/* n at most DL_PASTE_CURSOR_MARKS (more are ignored); marks already lower case. */
void dl_paste_cursor_init(dl_paste_cursor *c, const dl_paste *p, const char *const *marks,
                          size_t n);
/* The same for a static array of marks; a list longer than the cursor holds is a build
 * error, not marks silently ignored. */
#define DL_PASTE_CURSOR_INIT(c, p, marks)                                                   \
    do {                                                                                    \
        _Static_assert(sizeof marks / sizeof *marks <= DL_PASTE_CURSOR_MARKS,               \
                       "raise DL_PASTE_CURSOR_MARKS for " #marks);                          \
        dl_paste_cursor_init(c, p, marks, sizeof marks / sizeof *marks);                    \
    } while (0)
/* Line `line` holds one of the marks; lines must be asked about in increasing order. */
bool dl_paste_cursor_at(dl_paste_cursor *c, size_t line);

#endif
