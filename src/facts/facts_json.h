/* The JSON form of the facts ("schema": "dlenv.report/1"). Writing then reading gives
 * back equal facts. An unknown value is written as {"unknown": "reason"}. */
#ifndef DLENV_FACTS_FACTS_JSON_H
#define DLENV_FACTS_FACTS_JSON_H

#include "facts/facts.h"
#include "facts/schema.h"

#include <stdbool.h>
#include <stddef.h>

struct cJSON;

struct cJSON *dl_schema_to_json(const dl_schema *s, const void *obj);
/* path names the object in error messages ("$.os"). */
bool dl_schema_from_json(const dl_schema *s, const struct cJSON *json, void *obj,
                         const char *path, char **error);

char *dl_facts_to_json_text(const dl_facts *f, bool pretty);
bool dl_facts_from_json_text(const char *text, size_t len, dl_facts *f, char **error);
/* dl_facts_from_json_text in two halves, for a reader that looks at the document too
 * (fleet report reads 10,000 of them: parse once): the checked parse (NULL with *error;
 * free with cJSON_Delete), then the facts of the parsed document. */
struct cJSON *dl_report_json_parse(const char *text, size_t len, char **error);
bool dl_facts_from_json(const struct cJSON *doc, dl_facts *f, char **error);

#endif
