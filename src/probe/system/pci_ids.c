#include "probe/system/pci_ids.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

const char *const dl_pci_ids_paths[] = {
    "/usr/share/misc/pci.ids",  "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids",
    "/usr/local/share/pci.ids", "/var/lib/pciutils/pci.ids", NULL,
};

const char *dl_pci_ids_find(const dl_machine *m)
{
    size_t i;
    for (i = 0; dl_pci_ids_paths[i]; i++)
        if (dl_fs_kind_of(m, dl_pci_ids_paths[i], NULL) == DL_FS_FILE)
            return dl_pci_ids_paths[i];
    return NULL;
}

void dl_pci_ids_query_free(dl_pci_ids_query *q)
{
    free(q->vendor_name);
    free(q->device_name);
    free(q->subsystem_name);
    q->vendor_name = q->device_name = q->subsystem_name = NULL;
}

/* ---- one line ------------------------------------------------------------------------ */

/* An entry line: "vvvv  name", "\tdddd  name" or "\t\tsvsv sdsd  name". */
typedef struct entry {
    int depth; /* leading tabs: 0 vendor, 1 device, 2 subsystem */
    long id;
    long id2; /* the subsystem device, at depth 2 */
    const char *name;
    size_t name_len;
} entry;

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Exactly four hex digits at s (len bytes available). */
static bool hex4(const char *s, size_t len, long *out)
{
    long v = 0;
    size_t i;
    if (len < 4)
        return false;
    for (i = 0; i < 4; i++) {
        int d = hex_value(s[i]);
        if (d < 0)
            return false;
        v = v * 16 + d;
    }
    *out = v;
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The ids of an entry line, after its leading tabs; returns where the name begins or 0
 * when the line is not an entry (an id is never at offset 0 of what follows it). */
static size_t entry_ids(const char *line, size_t len, size_t i, entry *e)
{
    if (!hex4(line + i, len - i, &e->id))
        return 0;
    i += 4;
    if (e->depth == 2) {
        if (i >= len || line[i] != ' ' || !hex4(line + i + 1, len - i - 1, &e->id2))
            return 0;
        i += 5;
    }
    /* "10de5" is not the id 10de followed by a name. */
    if (i < len && !is_blank(line[i]))
        return 0;
    return i;
}

static bool parse_entry(const char *line, size_t len, entry *e)
{
    size_t i = 0, end = len;
    while (i < len && line[i] == '\t')
        i++;
    if (i > 2)
        return false;
    e->depth = (int)i;
    i = entry_ids(line, len, i, e);
    if (!i)
        return false;
    while (i < end && is_blank(line[i]))
        i++;
    while (end > i && is_blank(line[end - 1]))
        end--;
    e->name = line + i;
    e->name_len = end - i;
    return true;
}

static bool is_comment_or_blank(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && is_blank(line[i]))
        i++;
    return i == len || line[i] == '#';
}

/* ---- the scan -------------------------------------------------------------------------- */

typedef struct scan {
    dl_pci_ids_query *q;
    bool *passed;   /* per query: its vendor block is behind us */
    size_t n;
    size_t pending; /* queries whose vendor block has not been passed yet */
    long vendor;    /* the asked-for vendor block we are in, -1 when none */
    long device;    /* the device within it, -1 when none */
} scan;

/* First entry wins, so a duplicated id cannot overwrite what was found. */
static void set_name(char **dst, const entry *e)
{
    if (!*dst && e->name_len)
        *dst = dl_strndup(e->name, e->name_len);
}

static void leave_vendor(scan *s)
{
    size_t i;
    for (i = 0; s->vendor >= 0 && i < s->n; i++) {
        if (!s->passed[i] && s->q[i].vendor == s->vendor) {
            s->passed[i] = true;
            s->pending--;
        }
    }
    s->vendor = -1;
    s->device = -1;
}

static void on_vendor(scan *s, const entry *e)
{
    size_t i;
    leave_vendor(s);
    for (i = 0; i < s->n; i++) {
        if (!s->passed[i] && s->q[i].vendor == e->id) {
            set_name(&s->q[i].vendor_name, e);
            s->vendor = e->id;
        }
    }
}

static void on_device(scan *s, const entry *e)
{
    size_t i;
    if (s->vendor < 0)
        return;
    s->device = e->id;
    for (i = 0; i < s->n; i++)
        if (s->q[i].vendor == s->vendor && s->q[i].device == e->id)
            set_name(&s->q[i].device_name, e);
}

static void on_subsystem(scan *s, const entry *e)
{
    size_t i;
    if (s->vendor < 0 || s->device < 0)
        return;
    for (i = 0; i < s->n; i++) {
        const dl_pci_ids_query *q = &s->q[i];
        if (q->vendor == s->vendor && q->device == s->device && q->subvendor == e->id &&
            q->subdevice == e->id2)
            set_name(&s->q[i].subsystem_name, e);
    }
}

/* Takes one line; false when reading can stop. */
static bool feed(scan *s, const char *line, size_t len)
{
    entry e = {0};
    if (is_comment_or_blank(line, len))
        return true;
    if (!parse_entry(line, len, &e)) {
        /* "C 03  Display controller": the class section, which ends the file and whose
         * indented lines would otherwise look like devices. */
        if (line[0] == 'C' && len > 1 && is_blank(line[1]))
            return false;
        if (line[0] != '\t')
            leave_vendor(s);
        return s->pending > 0;
    }
    if (e.depth == 0)
        on_vendor(s, &e);
    else if (e.depth == 1)
        on_device(s, &e);
    else
        on_subsystem(s, &e);
    return s->pending > 0;
}

bool dl_pci_ids_lookup(const dl_machine *m, const char *path, dl_pci_ids_query *q,
                       size_t n, dl_io_error *err)
{
    scan s;
    dl_lines *l;
    const char *line;
    size_t i, len;
    memset(&s, 0, sizeof s);
    s.q = q;
    s.n = n;
    s.vendor = s.device = -1;
    for (i = 0; i < n; i++)
        s.pending += q[i].vendor >= 0;
    if (!s.pending)
        return true;
    l = dl_lines_open(m, path, err);
    if (!l)
        return false;
    s.passed = dl_xcalloc(n, sizeof *s.passed);
    while ((line = dl_lines_next(l, &len)) != NULL)
        if (!feed(&s, line, len))
            break;
    dl_lines_close(l);
    free(s.passed);
    return true;
}
