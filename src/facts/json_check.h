/* Strict JSON (RFC 8259) for the documents dlenv reads back: reports, snapshots, doctor
 * documents. cJSON is lenient where a reader must not be: it stops at a NUL in a string
 * (a key "os\u0000x" reads as "os"), cuts a string at an escape it cannot decode, and
 * leaves text after the document to the caller. This check runs first and refuses, with
 * the line and column: anything but one value and white space, a \u escape that is not
 * four hexadecimal digits, \u0000, a lone surrogate, a control character or invalid
 * UTF-8 in a string, a malformed number, nesting deeper than cJSON's limit. */
#ifndef DLENV_FACTS_JSON_CHECK_H
#define DLENV_FACTS_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when text[0..len) is exactly one JSON value; else false and *error, e.g.
 * "not valid JSON (line 3, column 14): a \u escape needs four hexadecimal digits".
 * Caller frees *error. */
bool dl_json_check(const char *text, size_t len, char **error);

#endif
