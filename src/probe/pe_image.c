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
 * RVA 0). Every read is checked against both the section it belongs to and the bytes we have,
 * all in 64-bit arithmetic, so no field of a hostile file can make us read out of bounds. */
#include "probe/pe_image.h"

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
#define PE_DELAY_RVA_BASED 0x1u     /* delay descriptor attributes: fields are RVAs */

typedef enum pe_status { PE_OK, PE_BAD, PE_NEED_MORE } pe_status;

typedef struct pe_reader {
    const unsigned char *data;
    size_t len;
    bool prefix;               /* data is only the start of a longer file */
    uint64_t need;             /* PE_NEED_MORE: how much of the file would let us go on */
    char *error;               /* PE_BAD */
    uint64_t sections;         /* file offset of the section table */
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
    r->error = message;
    return PE_BAD;
}

/* Whether the file's bytes [off, off + n) are in hand. Offsets come from 32-bit fields plus
 * small sizes, so the sum cannot wrap in 64 bits. */
static pe_status have(pe_reader *r, uint64_t off, uint64_t n, const char *what)
{
    if (off + n <= r->len)
        return PE_OK;
    if (r->prefix) {
        r->need = off + n;
        return PE_NEED_MORE;
    }
    return bad(r, dl_fmt("truncated %s", what));
}

/* The file offset of the image byte at rva, and where the file-backed range holding it ends
 * (the section's raw data, or the headers). False when no section maps it. */
static bool map_rva(const pe_reader *r, uint32_t rva, uint64_t *off, uint64_t *end)
{
    unsigned i;
    for (i = 0; i < r->section_count; i++) {
        const unsigned char *s = r->data + (size_t)(r->sections + (uint64_t)i * PE_SECTION_SIZE);
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

/* A DLL name: NUL-terminated within its section and within the file, copied as written. */
static pe_status read_name(pe_reader *r, uint32_t rva, const char *table, char **name)
{
    uint64_t off, end, limit, i;
    if (!map_rva(r, rva, &off, &end))
        return bad(r, dl_fmt("%s table: DLL name RVA 0x%08lx is not in any section", table,
                             (unsigned long)rva));
    limit = end - off < PE_MAX_NAME ? end : off + PE_MAX_NAME;
    for (i = off; i < limit; i++) {
        if (i >= r->len) {
            if (r->prefix) {
                r->need = limit;
                return PE_NEED_MORE;
            }
            return bad(r, dl_fmt("truncated %s table: the DLL name at RVA 0x%08lx runs past "
                                 "the end of the file", table, (unsigned long)rva));
        }
        if (r->data[(size_t)i] == '\0') {
            *name = dl_strndup((const char *)r->data + (size_t)off, (size_t)(i - off));
            return PE_OK;
        }
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
    const uint64_t entry = delay ? 32 : 20;
    const unsigned name_at = delay ? 4 : 12;
    uint64_t off, end, i;
    if (!map_rva(r, rva, &off, &end))
        return bad(r, dl_fmt("%s table RVA 0x%08lx is not in any section", table,
                             (unsigned long)rva));
    for (i = 0;; i++) {
        uint64_t at = off + i * entry;
        uint32_t name_rva;
        pe_status st;
        char *name = NULL;
        if (at + entry > end)
            return bad(r, dl_fmt("%s table runs past the end of its section without a final "
                                 "empty entry", table));
        st = have(r, at, entry, what);
        if (st != PE_OK)
            return st;
        /* The loader stops at the first entry without a name; the specification's final
         * entry is all zeros, which this includes. */
        name_rva = rd32(r->data + (size_t)at + name_at);
        if (name_rva == 0)
            return PE_OK;
        if (i == DL_PE_MAX_IMPORTS)
            return bad(r, dl_fmt("%s table has more than %d entries", table, DL_PE_MAX_IMPORTS));
        /* Version 1 delay descriptors (Visual C++ 6, attributes bit 0 clear) hold virtual
         * addresses, not RVAs: one that falls inside the image is taken back to its RVA. */
        if (delay && !(rd32(r->data + (size_t)at) & PE_DELAY_RVA_BASED) &&
            name_rva >= r->image_base && name_rva - r->image_base < r->size_of_image)
            name_rva = (uint32_t)(name_rva - r->image_base);
        st = read_name(r, name_rva, table, &name);
        if (st != PE_OK)
            return st;
        dl_strv_add(names, name);
    }
}

/* Reads the headers and both tables into out. PE_NEED_MORE (with r->need) only when r->prefix;
 * *in_headers says whether that happened before the section table was in hand. */
static pe_status parse(pe_reader *r, dl_pe_info *out, bool *in_headers)
{
    uint32_t lfanew, rva_count, import_rva = 0, delay_rva = 0;
    unsigned opt_size, magic, dirs_at, room;
    uint64_t coff, opt;
    const unsigned char *o;
    dl_strv imports = {0}, delays = {0};
    pe_status st;

    *in_headers = true;
    if (r->len < 2 || r->data[0] != 'M' || r->data[1] != 'Z')
        return bad(r, dl_strdup("not a PE image: no MZ header"));
    if ((st = have(r, 0, 64, "DOS header")) != PE_OK)
        return st;
    lfanew = rd32(r->data + 60);
    coff = (uint64_t)lfanew + 4;
    if (!r->prefix && coff + 20 > r->len)
        return bad(r, dl_fmt("not a PE image: e_lfanew 0x%08lx is past the end of the file "
                             "(%zu bytes)", (unsigned long)lfanew, r->len));
    if ((st = have(r, lfanew, 24, "PE header")) != PE_OK)
        return st;
    if (memcmp(r->data + lfanew, "PE\0\0", 4) != 0)
        return bad(r, dl_strdup("not a PE image: no PE signature at e_lfanew"));

    out->machine = rd16(r->data + (size_t)coff);
    r->section_count = rd16(r->data + (size_t)coff + 2);
    opt_size = rd16(r->data + (size_t)coff + 16);
    out->is_dll = (rd16(r->data + (size_t)coff + 18) & PE_FILE_DLL) != 0;
    opt = coff + 20;
    if (opt_size < 2)
        return bad(r, dl_strdup("not a PE image: no optional header (an object file?)"));
    if ((st = have(r, opt, opt_size, "optional header")) != PE_OK)
        return st;
    o = r->data + (size_t)opt;
    magic = rd16(o);
    if (magic == PE_MAGIC_PE32) {
        out->bits = 32;
        dirs_at = 96;
    } else if (magic == PE_MAGIC_PE32_PLUS) {
        out->bits = 64;
        dirs_at = 112;
    } else {
        return bad(r, dl_fmt("unsupported optional header magic 0x%04x", magic));
    }
    if (opt_size < dirs_at)
        return bad(r, dl_fmt("optional header too small: %u bytes, PE32%s needs %u", opt_size,
                             out->bits == 64 ? "+" : "", dirs_at));
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
        import_rva = rd32(o + dirs_at + 8 * PE_DIR_IMPORT);
    if (rva_count > PE_DIR_DELAY_IMPORT && rd32(o + dirs_at + 8 * PE_DIR_DELAY_IMPORT + 4) != 0)
        delay_rva = rd32(o + dirs_at + 8 * PE_DIR_DELAY_IMPORT);

    r->sections = opt + opt_size;
    if ((st = have(r, r->sections, (uint64_t)r->section_count * PE_SECTION_SIZE,
                   "section table")) != PE_OK) {
        if (st == PE_BAD) {
            free(r->error);
            r->error = dl_fmt("truncated section table (%u sections claimed)", r->section_count);
        }
        return st;
    }
    *in_headers = false;

    if (import_rva != 0 && (st = read_table(r, import_rva, false, &imports)) != PE_OK)
        goto fail;
    if (delay_rva != 0 && (st = read_table(r, delay_rva, true, &delays)) != PE_OK)
        goto fail;
    out->imports = imports.v;
    out->import_count = imports.n;
    out->delay_imports = delays.v;
    out->delay_import_count = delays.n;
    return PE_OK;
fail:
    dl_strv_free(&imports);
    dl_strv_free(&delays);
    return st;
}

static pe_status parse_buffer(const unsigned char *data, size_t len, bool prefix,
                              dl_pe_info *out, char **error, uint64_t *need, bool *in_headers)
{
    pe_reader r;
    pe_status st;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    r.data = data;
    r.len = data ? len : 0;
    r.prefix = prefix;
    st = parse(&r, out, in_headers);
    if (st != PE_OK)
        memset(out, 0, sizeof *out);
    if (st == PE_BAD && error)
        *error = r.error;
    else
        free(r.error);
    *need = r.need;
    return st;
}

bool dl_pe_parse(const unsigned char *data, size_t len, dl_pe_info *out, char **error)
{
    uint64_t need;
    bool in_headers;
    if (error)
        *error = NULL;
    return parse_buffer(data, len, false, out, error, &need, &in_headers) == PE_OK;
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

/* How much of a file dl_pe_read holds. DLLs can be huge (torch_cuda.dll is about 1 GB, most of
 * it code and CUDA fat binaries) while the headers sit in the first kilobytes and the import
 * tables in .idata/.rdata, usually within the first tens of MB. dl_fs_read only reads a
 * prefix, so: read the first 1 MiB, which must hold the headers and section table; parse it
 * as a prefix; if a table or name lies beyond it, the parser says which file offset it needs,
 * and we read again up to that offset + 1 MiB (at least doubling, so hostile files with names
 * scattered far apart cost a handful of reads), never more than 512 MiB. Anything further
 * than that is refused with an error naming the offset rather than loading gigabytes. */
#define PE_FIRST_READ ((size_t)1 << 20)
#define PE_READ_SLACK ((uint64_t)1 << 20)
#define PE_MAX_READ ((size_t)512 << 20)

bool dl_pe_read(const dl_machine *m, const char *path, dl_pe_info *out, char **error)
{
    size_t cap = PE_FIRST_READ;
    char *why = NULL;
    if (error)
        *error = NULL;
    memset(out, 0, sizeof *out);
    for (;;) {
        char *data = NULL;
        size_t len = 0;
        bool truncated = false, in_headers = false;
        uint64_t need = 0, next;
        dl_io_error err = {DL_IO_OK, NULL};
        pe_status st;
        if (!dl_fs_read(m, path, cap, &data, &len, &truncated, &err)) {
            if (error)
                *error = err.message ? err.message : dl_fmt("cannot read %s", path);
            else
                free(err.message);
            return false;
        }
        st = parse_buffer((const unsigned char *)data, len, truncated, out, &why, &need,
                          &in_headers);
        free(data);
        if (st == PE_OK)
            return true;
        if (st == PE_BAD) {
            if (error)
                *error = dl_fmt("%s: %s", path, why);
            free(why);
            return false;
        }
        if (in_headers) {
            if (error)
                *error = dl_fmt("%s: the PE headers do not fit in the first %zu bytes", path,
                                cap);
            return false;
        }
        if (need > PE_MAX_READ || cap >= PE_MAX_READ) {
            if (error)
                *error = dl_fmt("%s: import data lies at file offset %llu, past the %zu MiB "
                                "read at most", path, (unsigned long long)need,
                                PE_MAX_READ >> 20);
            return false;
        }
        next = need + PE_READ_SLACK;
        if (next < (uint64_t)cap * 2)
            next = (uint64_t)cap * 2;
        cap = next > PE_MAX_READ ? PE_MAX_READ : (size_t)next;
    }
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
