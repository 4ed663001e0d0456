/* Facts from pasted text: the parts of collect_env, nvidia-smi (table and -q), nvcc
 * --version, pip list / pip output, Python banners, uname and torch's own warnings that
 * say what the machine is. Fills the same dl_facts the probes fill, as far as the text
 * allows; everything it does not say stays absent. Each fact keeps the line it came from
 * for the evidence. */
#ifndef DLENV_PARSE_TEXT_FACTS_H
#define DLENV_PARSE_TEXT_FACTS_H

#include "facts/facts.h"
#include "parse/paste.h"

#define DL_TEXT_FACT_MAX 32

typedef struct dl_text_fact_line {
    const char *fact;   /* "nvml.driver_version" */
    size_t line;        /* paste index */
    /* NULL for a fact the text says; else the fact it was inferred from ("os.family" from
     * "nvml.driver_version": Windows' driver numbering), which the views show as such */
    const char *inferred_from;
} dl_text_fact_line;

typedef struct dl_text_facts {
    dl_text_fact_line where[DL_TEXT_FACT_MAX];
    size_t n;
    /* a driver named only by its branch ("driver 470", "nvidia-driver-535"), with no
     * release: 0 when none. Not a fact of its own (the schema's driver is a release), it
     * bounds the CUDA the driver runs (explain/derive.c); driver_branch_line is its line. */
    int driver_branch;
    size_t driver_branch_line;
} dl_text_facts;

void dl_text_facts_read(const dl_paste *p, dl_facts *f, dl_text_facts *where);

/* Keeps `line` as the evidence of `fact` (a schema path) unless the fact has one already;
 * for facts set after the reading (explain/derive.c). */
void dl_text_facts_note(dl_text_facts *w, const char *fact, size_t line);

/* The first line that says the text runs in WSL ("WSL2", "Windows Subsystem for Linux"),
 * not one that denies it ("native Ubuntu, not WSL"); -1 when none. */
long dl_text_wsl_line(const dl_paste *p);

#endif
