/* Where in a long text a token cannot be: one small trigram filter per 64 KB block.
 * Explain looks for some hundreds of tokens, and almost all of them are absent; each absent
 * token cost a strstr over the whole text, which in a 10 MB log is most of the run. The
 * filter says, per block, "no occurrence starts here" for most of them, so only the blocks
 * that may hold the token are searched. Short texts get no index: strstr is cheap there. */
#ifndef DLENV_PARSE_PASTE_INDEX_H
#define DLENV_PARSE_PASTE_INDEX_H

#include <stddef.h>

typedef struct dl_paste_index dl_paste_index;

/* NULL when text (of len bytes, NUL-terminated) is short enough to search whole. */
dl_paste_index *dl_paste_index_build(const char *text, size_t len);
void dl_paste_index_free(dl_paste_index *ix);

/* The first occurrence of needle in text at or after from (a byte offset), as strstr
 * would find it; NULL when none. ix may be NULL (then it is strstr). */
const char *dl_paste_index_find(const dl_paste_index *ix, const char *text, size_t from,
                                const char *needle);

#endif
