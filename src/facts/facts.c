#include "facts/facts.h"

#include "facts/schema.h"

#include <string.h>

void dl_facts_init(dl_facts *f)
{
    memset(f, 0, sizeof *f);
    dl_text_set(&f->schema, DL_REPORT_SCHEMA);
}

void dl_facts_free(dl_facts *f)
{
    dl_schema_free(&dl_facts_schema, f);
}
