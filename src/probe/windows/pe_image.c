/* PE/COFF images, as Microsoft's "PE Format" specification lays them out:
 *
 *   DOS header ("MZ", e_lfanew at offset 60) -> "PE\0\0" -> COFF file header (20 bytes)
 *   -> optional header (PE32 magic 0x10b or PE32+ 0x20b, ending in the data directories)
 *   -> section table (40 bytes a section).
 *
 * Data directory 1 is the import table: 20-byte descriptors, the DLL name's RVA at offset 12,
 * ended by an entry without a name. Directory 13 is the delay-load import table: 32-byte
 * descriptors, the name at offset 4. RVAs become file offsets through the section whose
 * [VirtualAddress, VirtualAddress + SizeOfRawData) holds them (or the headers, mapped at
 * RVA 0).
 *
 * One parser serves images in memory (dl_pe_parse) and files (dl_pe_read): it asks a fetch
 * callback for the bytes at a file offset, and only for the ones it needs: the headers, the
 * section table, each descriptor and each name. A file is never read whole: torch_cuda.dll is
 * about 1 GB, nearly all of it code and CUDA fat binaries, and its import tables are a few KB.
 * Every read is checked against both the section it belongs to and the bytes the fetch gave,
 * all in 64-bit arithmetic, so no field of a hostile file can make us read out of bounds, and
 * the bytes fetched in all are capped (PE_MAX_FETCH), so none can make us read much. */
#include "probe/windows/pe_image.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

#define PE_MAGIC_PE32 0x10bu
#define PE_MAGIC_PE32_PLUS 0x20bu
#define PE_FILE_DLL 0x2000u         /* IMAGE_FILE_DLL in the COFF Characteristics */
#define PE_DIR_IMPORT 1u
#define PE_DIR_DELAY_IMPORT 13u
#define PE_SECTION_SIZE 40u
#define PE_MAX_NAME 4096u           /* longer DLL names are rejected, not copied */
#define PE_NAME_FIRST 256u          /* a name is looked for in this many bytes first */
#define PE_DELAY_RVA_BASED 0x1u     /* delay descriptor attributes: fields are RVAs */

/* Small reads go through two cached blocks of PE_BLOCK bytes, one for the descriptors and
 * one for the names they point at, so a file is opened and read a handful of times, not
 * once a descriptor and once a name. The first block, at offset 0, holds the headers and
 * section table of any ordinary image. A broken or hostile image whose reads would add up
 * to more than PE_MAX_FETCH (a million-section table, names scattered over the file) is
 * refused; ordinary ones need well under 1 MiB. */
#define PE_BLOCK ((size_t)16 << 10)
#define PE_MAX_FETCH ((uint64_t)16 << 20)

/* Copies up to n bytes at file offset off into buf; *got is how many, fewer only at the end
 * of the file. false with *error (naming the file) when it cannot be read. */
typedef bool (*pe_fetch_fn)(void *ctx, uint64_t off, unsigned char *buf, size_t n,
                            size_t *got, char **error);

/* PE_BAD: r->error says what is wrong with the image. PE_IO: r->error is the fetch's own
 * message, which names the file. */
typedef enum pe_status { PE_OK, PE_BAD, PE_IO } pe_status;

typedef struct pe_block {
    unsigned char *data;       /* PE_BLOCK bytes, allocated when first used */
    uint64_t off;              /* the file offset of data[0] */
    size_t len;                /* bytes in hand */
    bool eof;                  /* the file ends at off + len */
    unsigned long used;        /* when last used: the older block is the one replaced */
} pe_block;

typedef struct pe_reader {
    pe_fetch_fn fetch;
    void *ctx;
    uint64_t fetched;          /* bytes asked of fetch so far, at most PE_MAX_FETCH */
    uint64_t size_max;         /* the file ends at or before this offset */
    bool size_known;           /* ... and at exactly this one */
    pe_block blocks[2];
    unsigned long clock;
    char *error;               /* PE_BAD and PE_IO */
    unsigned char *sections;   /* the section table, section_count * 40 bytes */
    unsigned section_count;
    uint32_t size_of_headers;
    uint64_t image_base;
    uint32_t size_of_image;
} pe_reader;

static uint16_t rd16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static pe_status bad(pe_reader *r, char *message)
{
    free(r->error);
    r->error = message;
    return PE_BAD;
}

/* Asks fetch for n bytes at off, within the budget, and learns where the file ends from a
 * short answer. */
static pe_status fetch(pe_reader *r, uint64_t off, unsigned char *buf, size_t n, size_t *got)
{
    *got = 0;
    if ((uint64_t)n > PE_MAX_FETCH - r->fetched)
        return bad(r, dl_fmt("the headers and import tables take more than %u MiB of reads "
                             "(a broken or hostile image?)",
                             (unsigned)(PE_MAX_FETCH >> 20)));
    r->fetched += n;
    if (!r->fetch(r->ctx, off, buf, n, got, &r->error))
        return PE_IO;
    if (*got > n)
        *got = n;
    if (*got < n && off + *got <= r->size_max) {
        r->size_max = off + *got;
        r->size_known = *got > 0 || off == 0;
    }
    return PE_OK;
}

/* Up to n bytes at file offset off into buf; *got is how many (fewer only at the end of the
 * file). Offsets come from 32-bit fields plus small sizes, so sums cannot wrap in 64 bits. */
static pe_status get_some(pe_reader *r, uint64_t off, size_t n, unsigned char *buf, size_t *got)
{
    pe_block *b;
    size_t i, skip;
    pe_status st;
    *got = 0;
    if (n == 0 || off >= r->size_max)
        return PE_OK;
    for (i = 0; i < 2; i++) {
        b = &r->blocks[i];
        if (b->data && off >= b->off && off - b->off <= b->len &&
            (off - b->off + n <= b->len || b->eof)) {
            skip = (size_t)(off - b->off);
            *got = b->len - skip < n ? b->len - skip : n;
            memcpy(buf, b->data + skip, *got);
            b->used = ++r->clock;
            return PE_OK;
        }
    }
    if (n > PE_BLOCK) /* the optional header or section table of an unusual image */
        return fetch(r, off, buf, n, got);
    b = !r->blocks[0].data                     ? &r->blocks[0]
        : !r->blocks[1].data                   ? &r->blocks[1]
        : r->blocks[0].used < r->blocks[1].used ? &r->blocks[0]
                                                : &r->blocks[1];
    if (!b->data)
        b->data = dl_xmalloc(PE_BLOCK);
    b->len = 0;
    b->eof = false;
    b->off = off;
    st = fetch(r, off, b->data, PE_BLOCK, &b->len);
    if (st != PE_OK) {
        b->len = 0;
        return st;
    }
    b->eof = b->len < PE_BLOCK;
    b->used = ++r->clock;
    *got = b->len < n ? b->len : n;
    memcpy(buf, b->data, *got);
    return PE_OK;
}

/* Exactly n bytes at off, or "truncated <what>". */
static pe_status get(pe_reader *r, uint64_t off, size_t n, unsigned char *buf, const char *what)
{
    size_t got;
    pe_status st = get_some(r, off, n, buf, &got);
    if (st != PE_OK)
        return st;
    if (got < n)
        return bad(r, dl_fmt("truncated %s", what));
    return PE_OK;
}

/* The file offset of the image byte at rva, and where the file-backed range holding it ends
 * (the section's raw data, or the headers). False when no section maps it. */
static bool map_rva(const pe_reader *r, uint32_t rva, uint64_t *off, uint64_t *end)
{
    unsigned i;
    for (i = 0; i < r->section_count; i++) {
        const unsigned char *s = r->sections + (size_t)i * PE_SECTION_SIZE;
        uint32_t va = rd32(s + 12), raw_size = rd32(s + 16), raw_ptr = rd32(s + 20);
        if (rva >= va && rva - va < raw_size) {
            *off = (uint64_t)raw_ptr + (rva - va);
            *end = (uint64_t)raw_ptr + raw_size;
            return true;
        }
    }
    if (rva < r->size_of_headers) {
        *off = rva;
        *end = r->size_of_headers;
        return true;
    }
    return false;
}

/* A DLL name: NUL-terminated within its section and within the file, copied as written.
 * Looked for in the first PE_NAME_FIRST bytes, then in up to PE_MAX_NAME. */
static pe_status read_name(pe_reader *r, uint32_t rva, const char *table, char **name)
{
    unsigned char buf[PE_MAX_NAME];
    uint64_t off, end, limit;
    size_t want, n, got;
    pe_status st;
    if (!map_rva(r, rva, &off, &end))
        return bad(r, dl_fmt("%s table: DLL name RVA 0x%08lx is not in any section", table,
                             (unsigned long)rva));
    limit = end - off < PE_MAX_NAME ? end : off + PE_MAX_NAME;
    want = (size_t)(limit - off); /* 1 to PE_MAX_NAME: map_rva gives off < end */
    n = want < PE_NAME_FIRST ? want : PE_NAME_FIRST;
    for (;;) {
        const unsigned char *nul;
        if ((st = get_some(r, off, n, buf, &got)) != PE_OK)
            return st;
        nul = memchr(buf, '\0', got);
        if (nul) {
            *name = dl_strndup((const char *)buf, (size_t)(nul - buf));
            return PE_OK;
        }
        if (got < n)
            return bad(r, dl_fmt("truncated %s table: the DLL name at RVA 0x%08lx runs past "
                                 "the end of the file", table, (unsigned long)rva));
        if (n == want)
            break;
        n = want;
    }
    if (limit == end)
        return bad(r, dl_fmt("%s table: the DLL name at RVA 0x%08lx is not NUL-terminated "
                             "within its section", table, (unsigned long)rva));
    return bad(r, dl_fmt("%s table: the DLL name at RVA 0x%08lx is longer than %u bytes",
                         table, (unsigned long)rva, PE_MAX_NAME));
}

/* The DLL names of an import (delay false) or delay-load import table at rva, in order. */
static pe_status read_table(pe_reader *r, uint32_t rva, bool delay, dl_strv *names)
{
    const char *table = delay ? "delay-load import" : "import";
    const char *what = delay ? "delay-load import table" : "import table";
    const size_t entry = delay ? 32 : 20;
    const unsigned name_at = delay ? 4 : 12;
    uint64_t off, end, i;
    if (!map_rva(r, rva, &off, &end))
        return bad(r, dl_fmt("%s table RVA 0x%08lx is not in any section", table,
                             (unsigned long)rva));
    for (i = 0;; i++) {
        uint64_t at = off + i * entry;
        unsigned char d[32];
        uint32_t name_rva;
        pe_status st;
        char *name = NULL;
        if (at + entry > end)
            return bad(r, dl_fmt("%s table runs past the end of its section without a final "
                                 "empty entry", table));
        if ((st = get(r, at, entry, d, what)) != PE_OK)
            return st;
        /* The loader stops at the first entry without a name; the specification's final
         * entry is all zeros, which this includes. */
        name_rva = rd32(d + name_at);
        if (name_rva == 0)
            return PE_OK;
        if (i == DL_PE_MAX_IMPORTS)
            return bad(r, dl_fmt("%s table has more than %d entries", table, DL_PE_MAX_IMPORTS));
        /* Version 1 delay descriptors (Visual C++ 6, attributes bit 0 clear) hold virtual
         * addresses, not RVAs: one that falls inside the image is taken back to its RVA. */
        if (delay && !(rd32(d) & PE_DELAY_RVA_BASED) && name_rva >= r->image_base &&
            name_rva - r->image_base < r->size_of_image)
            name_rva = (uint32_t)(name_rva - r->image_base);
        st = read_name(r, name_rva, table, &name);
        if (st != PE_OK)
            return st;
        dl_strv_add(names, name);
    }
}

/* The headers, up to and including the section table (into r->sections). */
static pe_status read_headers(pe_reader *r, dl_pe_info *out, uint32_t *import_rva,
                              uint32_t *delay_rva)
{
    unsigned char dos[64], pe[24], *o;
    uint32_t lfanew, rva_count;
    unsigned opt_size, magic, dirs_at, room;
    uint64_t coff, opt, sections;
    size_t got, table_size;
    pe_status st;

    if ((st = get_some(r, 0, sizeof dos, dos, &got)) != PE_OK)
        return st;
    if (got < 2 || dos[0] != 'M' || dos[1] != 'Z')
        return bad(r, dl_strdup("not a PE image: no MZ header"));
    if (got < sizeof dos)
        return bad(r, dl_strdup("truncated DOS header"));
    lfanew = rd32(dos + 60);
    coff = (uint64_t)lfanew + 4;
    if ((st = get_some(r, lfanew, sizeof pe, pe, &got)) != PE_OK)
        return st;
    if (got < sizeof pe) {
        if (r->size_known)
            return bad(r, dl_fmt("not a PE image: e_lfanew 0x%08lx is past the end of the "
                                 "file (%llu bytes)", (unsigned long)lfanew,
                                 (unsigned long long)r->size_max));
        return bad(r, dl_fmt("not a PE image: e_lfanew 0x%08lx is past the end of the file",
                             (unsigned long)lfanew));
    }
    if (memcmp(pe, "PE\0\0", 4) != 0)
        return bad(r, dl_strdup("not a PE image: no PE signature at e_lfanew"));

    out->machine = rd16(pe + 4);
    r->section_count = rd16(pe + 6);
    opt_size = rd16(pe + 20);
    out->is_dll = (rd16(pe + 22) & PE_FILE_DLL) != 0;
    opt = coff + 20;
    if (opt_size < 2)
        return bad(r, dl_strdup("not a PE image: no optional header (an object file?)"));
    o = dl_xmalloc(opt_size);
    if ((st = get(r, opt, opt_size, o, "optional header")) != PE_OK)
        goto done;
    magic = rd16(o);
    if (magic == PE_MAGIC_PE32) {
        out->bits = 32;
        dirs_at = 96;
    } else if (magic == PE_MAGIC_PE32_PLUS) {
        out->bits = 64;
        dirs_at = 112;
    } else {
        st = bad(r, dl_fmt("unsupported optional header magic 0x%04x", magic));
        goto done;
    }
    if (opt_size < dirs_at) {
        st = bad(r, dl_fmt("optional header too small: %u bytes, PE32%s needs %u", opt_size,
                           out->bits == 64 ? "+" : "", dirs_at));
        goto done;
    }
    r->image_base = out->bits == 64 ? rd64(o + 24) : rd32(o + 28);
    r->size_of_image = rd32(o + 56);
    r->size_of_headers = rd32(o + 60);
    rva_count = rd32(o + dirs_at - 4);
    /* NumberOfRvaAndSizes, but never more directories than the header has room for. */
    room = (opt_size - dirs_at) / 8;
    if (rva_count > room)
        rva_count = room;
    /* The import directory is used as the loader uses it: by its address alone (a zero
     * address is an empty table). The delay-load one is only a description of tables the
     * image's own delay-load helper walks, so a zero Size also counts as none. */
    if (rva_count > PE_DIR_IMPORT)
        *import_rva = rd32(o + dirs_at + 8 * PE_DIR_IMPORT);
    if (rva_count > PE_DIR_DELAY_IMPORT && rd32(o + dirs_at + 8 * PE_DIR_DELAY_IMPORT + 4) != 0)
        *delay_rva = rd32(o + dirs_at + 8 * PE_DIR_DELAY_IMPORT);

    /* At most 65535 * 40 bytes (2.6 MB); the fetch budget covers it. */
    sections = opt + opt_size;
    table_size = (size_t)r->section_count * PE_SECTION_SIZE;
    if (table_size) {
        r->sections = dl_xmalloc(table_size);
        st = get_some(r, sections, table_size, r->sections, &got);
        if (st == PE_OK && got < table_size)
            st = bad(r, dl_fmt("truncated section table (%u sections claimed)",
                               r->section_count));
    }
done:
    free(o);
    return st;
}

/* Reads the headers and both tables into out (zeroed on failure); on failure *error, when
 * error is not NULL, gets the message. */
static pe_status parse(pe_fetch_fn fetch_fn, void *ctx, uint64_t size, bool size_known,
                       dl_pe_info *out, char **error)
{
    pe_reader r;
    uint32_t import_rva = 0, delay_rva = 0;
    dl_strv imports = {0}, delays = {0};
    pe_status st;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    r.fetch = fetch_fn;
    r.ctx = ctx;
    r.size_max = size_known ? size : UINT64_MAX;
    r.size_known = size_known;
    st = read_headers(&r, out, &import_rva, &delay_rva);
    if (st == PE_OK && import_rva != 0)
        st = read_table(&r, import_rva, false, &imports);
    if (st == PE_OK && delay_rva != 0)
        st = read_table(&r, delay_rva, true, &delays);
    if (st == PE_OK) {
        out->imports = imports.v;
        out->import_count = imports.n;
        out->delay_imports = delays.v;
        out->delay_import_count = delays.n;
    } else {
        dl_strv_free(&imports);
        dl_strv_free(&delays);
        memset(out, 0, sizeof *out);
        if (!r.error) /* a fetch that failed without saying why */
            r.error = dl_strdup("cannot read the image");
    }
    if (st != PE_OK && error) {
        *error = r.error;
        r.error = NULL;
    }
    free(r.error);
    free(r.sections);
    free(r.blocks[0].data);
    free(r.blocks[1].data);
    return st;
}

/* ---- in memory ------------------------------------------------------------------------- */

typedef struct pe_memory {
    const unsigned char *data;
    size_t len;
} pe_memory;

static bool fetch_memory(void *ctx, uint64_t off, unsigned char *buf, size_t n, size_t *got,
                         char **error)
{
    const pe_memory *mem = ctx;
    (void)error;
    *got = 0;
    if (off < mem->len) {
        *got = mem->len - (size_t)off < n ? mem->len - (size_t)off : n;
        memcpy(buf, mem->data + (size_t)off, *got);
    }
    return true;
}

bool dl_pe_parse(const unsigned char *data, size_t len, dl_pe_info *out, char **error)
{
    pe_memory mem;
    if (error)
        *error = NULL;
    mem.data = data;
    mem.len = data ? len : 0;
    return parse(fetch_memory, &mem, mem.len, true, out, error) == PE_OK;
}

void dl_pe_info_free(dl_pe_info *info)
{
    size_t i;
    if (!info)
        return;
    for (i = 0; i < info->import_count; i++)
        free(info->imports[i]);
    free(info->imports);
    for (i = 0; i < info->delay_import_count; i++)
        free(info->delay_imports[i]);
    free(info->delay_imports);
    memset(info, 0, sizeof *info);
}

/* ---- files -------------------------------------------------------------------------------- */

typedef struct pe_file {
    const dl_machine *m;
    const char *path;
} pe_file;

static bool fetch_file(void *ctx, uint64_t off, unsigned char *buf, size_t n, size_t *got,
                       char **error)
{
    const pe_file *f = ctx;
    dl_io_error err = {DL_IO_OK, NULL};
    if (dl_fs_read_at(f->m, f->path, off, buf, n, got, &err))
        return true;
    free(*error);
    *error = err.message ? err.message : dl_fmt("cannot read %s", f->path);
    return false;
}

bool dl_pe_read(const dl_machine *m, const char *path, dl_pe_info *out, char **error)
{
    pe_file f;
    char *why = NULL;
    pe_status st;
    if (error)
        *error = NULL;
    f.m = m;
    f.path = path;
    st = parse(fetch_file, &f, 0, false, out, &why);
    if (st == PE_OK)
        return true;
    if (error) /* an I/O error names the file already */
        *error = st == PE_IO ? why : dl_fmt("%s: %s", path, why);
    if (!error || st != PE_IO)
        free(why);
    return false;
}

char *dl_pe_machine_name(uint16_t machine)
{
    switch (machine) {
    case DL_PE_MACHINE_AMD64:
        return dl_strdup("x64");
    case DL_PE_MACHINE_I386:
        return dl_strdup("x86");
    case DL_PE_MACHINE_ARM64:
        return dl_strdup("arm64");
    case DL_PE_MACHINE_ARMNT:
        return dl_strdup("arm");
    default:
        return dl_fmt("unknown (0x%04x)", (unsigned)machine);
    }
}
