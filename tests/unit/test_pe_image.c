/* The PE image reader on images written here, in memory, field by field from the PE/COFF
 * layout: well-formed ones (PE32+ DLL, PE32 EXE, delay-load imports, no imports) and broken
 * or hostile ones, which must each give an error and never a read out of bounds (every
 * input is copied into an allocation of exactly its size, so the sanitizer build sees any). */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/str.h"
#include "os/os.h"
#include "probe/windows/pe_image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <unistd.h>
#endif

/* ---- a small PE writer ------------------------------------------------------------------- */

#define E_LFANEW 0x80u
#define COFF (E_LFANEW + 4u)
#define OPT (COFF + 20u)
#define HEADERS_SIZE 0x200u
#define TEXT_VA 0x1000u
#define IMPORT_DESC 20u
#define DELAY_DESC 32u

typedef struct pe_spec {
    uint16_t machine;
    bool pe32;                   /* PE32 (32-bit) rather than PE32+ */
    bool dll;
    const char *const *imports;
    size_t import_count;
    bool no_import_dir;          /* import directory address 0 (else it is written, even empty) */
    const char *const *delay;
    size_t delay_count;          /* the delay directory is written when this is nonzero */
    bool delay_v1;               /* delay descriptors holding VAs, attributes 0 */
    uint32_t text_size;          /* raw bytes of the first section; 0x200 when 0 */
} pe_spec;

typedef struct pe_built {
    unsigned char *data;
    size_t len;
    size_t opt_size;
    size_t dirs;                 /* file offset of the data directories */
    size_t sections;             /* file offset of the section table */
    size_t idata;                /* file offset of the import section */
    uint32_t idata_va;
    size_t delay_at;             /* offset of the delay descriptors inside the import section */
} pe_built;

static void put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)(v >> 8 & 0xff);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)(v & 0xffffffffu));
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

static void put_section(unsigned char *s, const char *name, uint32_t vsize, uint32_t va,
                        uint32_t raw_size, uint32_t raw_ptr, uint32_t flags)
{
    memcpy(s, name, strlen(name));
    put32(s + 8, vsize);
    put32(s + 12, va);
    put32(s + 16, raw_size);
    put32(s + 20, raw_ptr);
    put32(s + 36, flags);
}

/* DOS header, "PE\0\0", COFF header, optional header with 16 directories, .text (zeros) and
 * .idata: import descriptors, delay descriptors, one null thunk, then the names, the last of
 * whose NUL is the file's last byte (so every shorter prefix lacks something the parser
 * needs). */
static pe_built build_pe(const pe_spec *s)
{
    pe_built b;
    uint32_t text_size = s->text_size ? s->text_size : 0x200u;
    uint32_t dirs_at = s->pe32 ? 96u : 112u;
    uint64_t image_base = s->pe32 ? (s->dll ? 0x10000000u : 0x400000u) : 0x180000000u;
    size_t import_len = s->no_import_dir ? 0 : (s->import_count + 1) * IMPORT_DESC;
    size_t delay_len = s->delay_count ? (s->delay_count + 1) * DELAY_DESC : 0;
    size_t thunk, names, idata_len, i, pos;
    unsigned char *p, *o;

    memset(&b, 0, sizeof b);
    b.opt_size = dirs_at + 16 * 8;
    b.dirs = OPT + dirs_at;
    b.sections = OPT + b.opt_size;
    b.idata = HEADERS_SIZE + text_size;
    b.idata_va = align_up(TEXT_VA + text_size, 0x1000u);
    b.delay_at = import_len;
    thunk = import_len + delay_len;
    names = thunk + 8;
    idata_len = names;
    for (i = 0; i < s->import_count; i++)
        idata_len += strlen(s->imports[i]) + 1;
    for (i = 0; i < s->delay_count; i++)
        idata_len += strlen(s->delay[i]) + 1;
    b.len = b.idata + idata_len;
    b.data = p = dl_xcalloc(1, b.len);

    p[0] = 'M';
    p[1] = 'Z';
    put32(p + 60, E_LFANEW);
    memcpy(p + E_LFANEW, "PE\0\0", 4);

    put16(p + COFF, s->machine);
    put16(p + COFF + 2, 2);                       /* NumberOfSections */
    put16(p + COFF + 16, (uint32_t)b.opt_size);
    put16(p + COFF + 18, 0x0002u | (s->pe32 ? 0x0100u : 0x0020u) | (s->dll ? 0x2000u : 0));

    o = p + OPT;
    put16(o, s->pe32 ? 0x10bu : 0x20bu);
    if (s->pe32)
        put32(o + 28, (uint32_t)image_base);
    else
        put64(o + 24, image_base);
    put32(o + 32, 0x1000u);                       /* SectionAlignment */
    put32(o + 36, 0x200u);                        /* FileAlignment */
    put32(o + 56, align_up(b.idata_va + (uint32_t)idata_len, 0x1000u)); /* SizeOfImage */
    put32(o + 60, HEADERS_SIZE);
    put16(o + 68, 3);                             /* console subsystem */
    put32(o + dirs_at - 4, 16);                   /* NumberOfRvaAndSizes */
    if (!s->no_import_dir) {
        put32(p + b.dirs + 8, b.idata_va);
        put32(p + b.dirs + 12, (uint32_t)import_len);
    }
    if (s->delay_count) {
        put32(p + b.dirs + 13 * 8, b.idata_va + (uint32_t)b.delay_at);
        put32(p + b.dirs + 13 * 8 + 4, (uint32_t)delay_len);
    }

    put_section(p + b.sections, ".text", text_size, TEXT_VA, text_size, HEADERS_SIZE,
                0x60000020u);
    put_section(p + b.sections + 40, ".idata", (uint32_t)idata_len, b.idata_va,
                (uint32_t)idata_len, (uint32_t)b.idata, 0xc0000040u);

    pos = names;
    for (i = 0; i < s->import_count; i++) {
        unsigned char *d = p + b.idata + i * IMPORT_DESC;
        put32(d, b.idata_va + (uint32_t)thunk);              /* OriginalFirstThunk */
        put32(d + 12, b.idata_va + (uint32_t)pos);           /* Name */
        put32(d + 16, b.idata_va + (uint32_t)thunk);         /* FirstThunk */
        memcpy(p + b.idata + pos, s->imports[i], strlen(s->imports[i]));
        pos += strlen(s->imports[i]) + 1;
    }
    for (i = 0; i < s->delay_count; i++) {
        unsigned char *d = p + b.idata + b.delay_at + i * DELAY_DESC;
        uint64_t base = s->delay_v1 ? image_base : 0;
        put32(d, s->delay_v1 ? 0 : 1);                       /* Attributes: RVA-based */
        put32(d + 4, (uint32_t)(base + b.idata_va + pos));   /* Name */
        put32(d + 8, (uint32_t)(base + b.idata_va + thunk)); /* ModuleHandle */
        put32(d + 12, (uint32_t)(base + b.idata_va + thunk));/* IAT */
        put32(d + 16, (uint32_t)(base + b.idata_va + thunk));/* INT */
        memcpy(p + b.idata + pos, s->delay[i], strlen(s->delay[i]));
        pos += strlen(s->delay[i]) + 1;
    }
    return b;
}

/* Parses the first len bytes of b from an allocation of exactly len bytes. */
static bool parse_prefix(const pe_built *b, size_t len, dl_pe_info *info, char **error)
{
    unsigned char *copy = dl_xmalloc(len ? len : 1);
    bool ok;
    memcpy(copy, b->data, len);
    ok = dl_pe_parse(copy, len, info, error);
    free(copy);
    return ok;
}

static void expect_ok(const pe_built *b, dl_pe_info *info)
{
    char *error = NULL;
    if (!parse_prefix(b, b->len, info, &error))
        fail_msg("parse failed: %s", error);
    assert_null(error);
}

/* The image must be refused with an error that contains want. */
static void expect_error(const pe_built *b, size_t len, const char *want)
{
    dl_pe_info info;
    char *error = NULL;
    assert_false(parse_prefix(b, len, &info, &error));
    assert_non_null(error);
    if (want && !strstr(error, want))
        fail_msg("error \"%s\" does not contain \"%s\"", error, want);
    assert_int_equal(info.import_count, 0);
    assert_null(info.imports);
    assert_int_equal(info.delay_import_count, 0);
    assert_null(info.delay_imports);
    dl_pe_info_free(&info);
    free(error);
}

static const char *const three[] = {"KERNEL32.dll", "msvcrt.dll", "MyHelper.DLL"};
static const char *const delay_names[] = {"cudart64_12.dll", "nvcuda.dll"};

static pe_spec x64_dll(void)
{
    pe_spec s;
    memset(&s, 0, sizeof s);
    s.machine = 0x8664;
    s.dll = true;
    s.imports = three;
    s.import_count = 3;
    return s;
}

/* ---- well-formed images ------------------------------------------------------------------- */

static void x64_dll_three_imports_in_order(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    dl_pe_info info;
    (void)state;
    expect_ok(&b, &info);
    assert_int_equal(info.machine, 0x8664);
    assert_int_equal(info.bits, 64);
    assert_true(info.is_dll);
    assert_int_equal(info.import_count, 3);
    assert_string_equal(info.imports[0], "KERNEL32.dll");
    assert_string_equal(info.imports[1], "msvcrt.dll");
    assert_string_equal(info.imports[2], "MyHelper.DLL");
    assert_int_equal(info.delay_import_count, 0);
    assert_null(info.delay_imports);
    dl_pe_info_free(&info);
    assert_null(info.imports);
    dl_pe_info_free(&info); /* twice is harmless */
    free(b.data);
}

static void pe32_exe(void **state)
{
    static const char *const names[] = {"KERNEL32.dll", "USER32.dll"};
    pe_spec s;
    pe_built b;
    dl_pe_info info;
    (void)state;
    memset(&s, 0, sizeof s);
    s.machine = 0x14c;
    s.pe32 = true;
    s.imports = names;
    s.import_count = 2;
    b = build_pe(&s);
    expect_ok(&b, &info);
    assert_int_equal(info.machine, 0x14c);
    assert_int_equal(info.bits, 32);
    assert_false(info.is_dll);
    assert_int_equal(info.import_count, 2);
    assert_string_equal(info.imports[0], "KERNEL32.dll");
    assert_string_equal(info.imports[1], "USER32.dll");
    dl_pe_info_free(&info);
    free(b.data);
}

static void delay_imports(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    dl_pe_info info;
    (void)state;
    s.import_count = 1;
    s.delay = delay_names;
    s.delay_count = 2;
    b = build_pe(&s);
    expect_ok(&b, &info);
    assert_int_equal(info.import_count, 1);
    assert_string_equal(info.imports[0], "KERNEL32.dll");
    assert_int_equal(info.delay_import_count, 2);
    assert_string_equal(info.delay_imports[0], "cudart64_12.dll");
    assert_string_equal(info.delay_imports[1], "nvcuda.dll");
    dl_pe_info_free(&info);
    free(b.data);
}

/* Visual C++ 6 delay descriptors hold virtual addresses (ImageBase + RVA). */
static void delay_imports_version_1_addresses(void **state)
{
    pe_spec s;
    pe_built b;
    dl_pe_info info;
    (void)state;
    memset(&s, 0, sizeof s);
    s.machine = 0x14c;
    s.pe32 = true;
    s.dll = true;
    s.no_import_dir = true;
    s.delay = delay_names;
    s.delay_count = 2;
    s.delay_v1 = true;
    b = build_pe(&s);
    expect_ok(&b, &info);
    assert_int_equal(info.import_count, 0);
    assert_int_equal(info.delay_import_count, 2);
    assert_string_equal(info.delay_imports[0], "cudart64_12.dll");
    assert_string_equal(info.delay_imports[1], "nvcuda.dll");
    dl_pe_info_free(&info);
    free(b.data);
}

static void no_import_directory(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    dl_pe_info info;
    (void)state;
    s.import_count = 0;
    s.no_import_dir = true;
    b = build_pe(&s);
    expect_ok(&b, &info);
    assert_int_equal(info.bits, 64);
    assert_int_equal(info.import_count, 0);
    assert_null(info.imports);
    assert_int_equal(info.delay_import_count, 0);
    dl_pe_info_free(&info);
    free(b.data);
}

static void empty_import_table(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    dl_pe_info info;
    (void)state;
    s.import_count = 0; /* the directory points at the final empty descriptor alone */
    b = build_pe(&s);
    expect_ok(&b, &info);
    assert_int_equal(info.import_count, 0);
    dl_pe_info_free(&info);
    free(b.data);
}

/* NumberOfRvaAndSizes below 2 means no import directory, below 14 no delay directory,
 * whatever bytes follow; a count larger than the header holds is cut to what it holds. */
static void number_of_rva_and_sizes(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    dl_pe_info info;
    uint32_t count;
    (void)state;
    s.delay = delay_names;
    s.delay_count = 2;
    b = build_pe(&s);
    for (count = 0; count < 2; count++) {
        put32(b.data + b.dirs - 4, count);
        expect_ok(&b, &info);
        assert_int_equal(info.import_count, 0);
        assert_int_equal(info.delay_import_count, 0);
        dl_pe_info_free(&info);
    }
    put32(b.data + b.dirs - 4, 13);
    expect_ok(&b, &info);
    assert_int_equal(info.import_count, 3);
    assert_int_equal(info.delay_import_count, 0);
    dl_pe_info_free(&info);
    put32(b.data + b.dirs - 4, 0xffffffffu);
    expect_ok(&b, &info);
    assert_int_equal(info.import_count, 3);
    assert_int_equal(info.delay_import_count, 2);
    dl_pe_info_free(&info);
    free(b.data);
}

static void exactly_the_maximum_imports(void **state)
{
    const char **names = dl_xcalloc(DL_PE_MAX_IMPORTS + 1, sizeof *names);
    pe_spec s = x64_dll();
    pe_built b;
    dl_pe_info info;
    size_t i;
    (void)state;
    for (i = 0; i <= DL_PE_MAX_IMPORTS; i++)
        names[i] = "a.dll";
    s.imports = names;
    s.import_count = DL_PE_MAX_IMPORTS;
    b = build_pe(&s);
    expect_ok(&b, &info);
    assert_int_equal(info.import_count, DL_PE_MAX_IMPORTS);
    dl_pe_info_free(&info);
    free(b.data);
    s.import_count = DL_PE_MAX_IMPORTS + 1;
    b = build_pe(&s);
    expect_error(&b, b.len, "more than 4096 entries");
    free(b.data);
    free(names);
}

static void machine_names(void **state)
{
    static const struct {
        uint16_t machine;
        const char *name;
    } cases[] = {{0x8664, "x64"}, {0x14c, "x86"}, {0xaa64, "arm64"}, {0x1c4, "arm"},
                 {0x1234, "unknown (0x1234)"}, {0, "unknown (0x0000)"}};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *name = dl_pe_machine_name(cases[i].machine);
        assert_string_equal(name, cases[i].name);
        free(name);
    }
}

/* ---- malformed and hostile images --------------------------------------------------------- */

static void truncated_at_every_length(void **state)
{
    pe_spec specs[2];
    size_t k, len;
    (void)state;
    specs[0] = x64_dll();
    specs[0].delay = delay_names;
    specs[0].delay_count = 2;
    memset(&specs[1], 0, sizeof specs[1]);
    specs[1].machine = 0x14c;
    specs[1].pe32 = true;
    specs[1].imports = three;
    specs[1].import_count = 3;
    for (k = 0; k < 2; k++) {
        pe_built b = build_pe(&specs[k]);
        for (len = 0; len < b.len; len++)
            expect_error(&b, len, NULL);
        free(b.data);
    }
    /* the first two lengths say what the file is not, the last what it lacks */
    {
        pe_built b = build_pe(&specs[0]);
        expect_error(&b, 0, "not a PE image: no MZ header");
        expect_error(&b, 1, "not a PE image: no MZ header");
        expect_error(&b, 40, "truncated DOS header");
        expect_error(&b, E_LFANEW + 10, "e_lfanew");
        expect_error(&b, b.sections + 10, "truncated section table");
        expect_error(&b, b.idata + 30, "truncated import table");
        expect_error(&b, b.len - 1, "runs past the end of the file");
        free(b.data);
    }
}

static void bad_mz(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    b.data[1] = 'X';
    expect_error(&b, b.len, "not a PE image: no MZ header");
    free(b.data);
}

static void bad_pe_signature(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    b.data[E_LFANEW + 2] = 'X';
    expect_error(&b, b.len, "not a PE image: no PE signature");
    free(b.data);
}

static void e_lfanew_out_of_range(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    put32(b.data + 60, 0xfffffff0u);
    expect_error(&b, b.len, "e_lfanew 0xfffffff0 is past the end of the file");
    put32(b.data + 60, (uint32_t)b.len - 2);
    expect_error(&b, b.len, "past the end of the file");
    put32(b.data + 60, (uint32_t)b.len - 24); /* fits, but is no signature */
    expect_error(&b, b.len, "no PE signature");
    free(b.data);
}

static void import_rva_not_in_any_section(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    put32(b.data + b.dirs + 8, 0x90000u);
    expect_error(&b, b.len, "import table RVA 0x00090000 is not in any section");
    free(b.data);
}

static void name_rva_not_in_any_section(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    put32(b.data + b.idata + IMPORT_DESC + 12, 0x7ffffff0u); /* the second descriptor */
    expect_error(&b, b.len, "DLL name RVA 0x7ffffff0 is not in any section");
    free(b.data);
}

static void delay_rva_not_in_any_section(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    (void)state;
    s.delay = delay_names;
    s.delay_count = 2;
    b = build_pe(&s);
    put32(b.data + b.dirs + 13 * 8, 0xfffff000u);
    expect_error(&b, b.len, "delay-load import table RVA 0xfffff000 is not in any section");
    free(b.data);
}

static void unterminated_name_at_end_of_file(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    b.data[b.len - 1] = 'x';
    expect_error(&b, b.len, "not NUL-terminated within its section");
    free(b.data);
}

/* The section claims more raw bytes than the file has: the name runs off the file. */
static void section_longer_than_file(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    put32(b.data + b.sections + 40 + 16, 0x10000u);
    b.data[b.len - 1] = 'x';
    expect_error(&b, b.len, "truncated import table");
    /* and descriptors that start past the end of the file */
    put32(b.data + b.sections + 40 + 20, 0x7fff0000u);
    expect_error(&b, b.len, "truncated import table");
    free(b.data);
}

static void descriptors_without_final_entry(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    /* .idata's raw data cut after the first descriptor, whose name moves to the header
     * padding (the headers are mapped at RVA 0): no room for the rest of the table */
    memcpy(b.data + 0x1f0, "h.dll", 6);
    put32(b.data + b.idata + 12, 0x1f0);
    put32(b.data + b.sections + 40 + 16, IMPORT_DESC + 5);
    expect_error(&b, b.len, "runs past the end of its section");
    free(b.data);
}

static void huge_number_of_sections(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    put16(b.data + COFF + 2, 0xffff);
    expect_error(&b, b.len, "truncated section table (65535 sections claimed)");
    free(b.data);
}

static void name_too_long(void **state)
{
    char *longname = dl_xmalloc(5001);
    const char *names[1];
    pe_spec s = x64_dll();
    pe_built b;
    (void)state;
    memset(longname, 'a', 5000);
    longname[5000] = '\0';
    names[0] = longname;
    s.imports = names;
    s.import_count = 1;
    b = build_pe(&s);
    expect_error(&b, b.len, "longer than 4096 bytes");
    free(b.data);
    free(longname);
}

static void not_an_image(void **state)
{
    pe_spec s = x64_dll();
    pe_built b = build_pe(&s);
    (void)state;
    put16(b.data + OPT, 0x107); /* ROM image */
    expect_error(&b, b.len, "unsupported optional header magic 0x0107");
    put16(b.data + OPT, 0x20b);
    put16(b.data + COFF + 16, 0x40); /* too small for PE32+'s fields */
    expect_error(&b, b.len, "optional header too small");
    put16(b.data + COFF + 16, 0); /* an object file */
    expect_error(&b, b.len, "no optional header");
    free(b.data);
}

/* Every byte of the headers and import section set to a few values, and random damage:
 * the reader may accept or refuse, but must stay in bounds (the sanitizer build checks). */
static void damaged_bytes_stay_in_bounds(void **state)
{
    static const unsigned char values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    pe_spec s = x64_dll();
    pe_built b;
    uint32_t seed = 12345u;
    size_t i, v, round;
    (void)state;
    s.delay = delay_names;
    s.delay_count = 2;
    b = build_pe(&s);
    for (i = 0; i < b.len; i++) {
        unsigned char keep = b.data[i];
        if (i >= HEADERS_SIZE && i < b.idata)
            continue; /* .text: never read */
        for (v = 0; v < sizeof values; v++) {
            dl_pe_info info;
            char *error = NULL;
            b.data[i] = values[v];
            if (parse_prefix(&b, b.len, &info, &error))
                assert_null(error);
            else
                assert_non_null(error);
            dl_pe_info_free(&info);
            free(error);
        }
        b.data[i] = keep;
    }
    for (round = 0; round < 3000; round++) {
        unsigned char *copy = dl_xmalloc(b.len);
        dl_pe_info info;
        char *error = NULL;
        int n;
        memcpy(copy, b.data, b.len);
        for (n = 0; n < 4; n++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % b.len] = (unsigned char)(seed >> 24);
        }
        if (dl_pe_parse(copy, b.len, &info, &error))
            assert_null(error);
        else
            assert_non_null(error);
        dl_pe_info_free(&info);
        free(error);
        free(copy);
    }
    free(b.data);
}

/* ---- reading files -------------------------------------------------------------------------- */

typedef struct temp_file {
    char *dir;
    char *path;
} temp_file;

static void temp_write(temp_file *t, const char *name, const unsigned char *data, size_t len)
{
    FILE *f;
#if defined(_WIN32)
    const char *tmp = dl_env_get("TEMP");
    t->dir = NULL;
    t->path = dl_fmt("%s\\dlenv-pe-%.0f-%s", tmp ? tmp : ".", dl_clock_ms(), name);
#else
    char dir[] = "/tmp/dlenv-pe-XXXXXX";
    assert_non_null(mkdtemp(dir));
    t->dir = dl_strdup(dir);
    t->path = dl_fmt("%s/%s", dir, name);
#endif
    f = fopen(t->path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void temp_remove(temp_file *t)
{
    remove(t->path);
#if !defined(_WIN32)
    rmdir(t->dir);
#endif
    free(t->path);
    free(t->dir);
}

static void open_live(dl_machine *m)
{
    char *error = NULL;
    if (!dl_machine_open(m, "/", &error))
        fail_msg("cannot open /: %s", error);
}

static void read_file(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    temp_file t;
    dl_machine m;
    dl_pe_info info;
    char *error = NULL, *missing;
    (void)state;
    s.delay = delay_names;
    s.delay_count = 1;
    b = build_pe(&s);
    temp_write(&t, "helper.dll", b.data, b.len);
    open_live(&m);
    if (!dl_pe_read(&m, t.path, &info, &error))
        fail_msg("%s", error);
    assert_int_equal(info.machine, 0x8664);
    assert_int_equal(info.import_count, 3);
    assert_string_equal(info.imports[2], "MyHelper.DLL");
    assert_int_equal(info.delay_import_count, 1);
    assert_string_equal(info.delay_imports[0], "cudart64_12.dll");
    dl_pe_info_free(&info);

    missing = dl_fmt("%s.missing", t.path);
    assert_false(dl_pe_read(&m, missing, &info, &error));
    assert_non_null(error);
    assert_non_null(strstr(error, missing));
    free(error);
    free(missing);
    error = NULL;

    /* a broken file's error names it */
    temp_remove(&t);
    b.data[b.len - 1] = 'x';
    temp_write(&t, "broken.dll", b.data, b.len);
    assert_false(dl_pe_read(&m, t.path, &info, &error));
    assert_non_null(error);
    assert_true(dl_starts_with(error, t.path));
    assert_non_null(strstr(error, "not NUL-terminated"));
    free(error);
    temp_remove(&t);
    dl_machine_close(&m);
    free(b.data);
}

/* The import section 3 MiB into the file: read where it lies. A section claimed at 1 GiB of
 * that 3 MiB file is a truncated table, found with a read that comes back empty. */
static void read_file_with_imports_far_in(void **state)
{
    pe_spec s = x64_dll();
    pe_built b;
    temp_file t;
    dl_machine m;
    dl_pe_info info;
    char *error = NULL;
    (void)state;
    s.text_size = 3u << 20;
    s.delay = delay_names;
    s.delay_count = 2;
    b = build_pe(&s);
    assert_true(b.idata > (2u << 20));
    temp_write(&t, "big.dll", b.data, b.len);
    open_live(&m);
    if (!dl_pe_read(&m, t.path, &info, &error))
        fail_msg("%s", error);
    assert_int_equal(info.import_count, 3);
    assert_string_equal(info.imports[0], "KERNEL32.dll");
    assert_int_equal(info.delay_import_count, 2);
    assert_string_equal(info.delay_imports[1], "nvcuda.dll");
    dl_pe_info_free(&info);
    temp_remove(&t);

    put32(b.data + b.sections + 40 + 20, 0x40000000u);
    temp_write(&t, "far.dll", b.data, b.len);
    assert_false(dl_pe_read(&m, t.path, &info, &error));
    assert_non_null(error);
    assert_true(dl_starts_with(error, t.path));
    if (!strstr(error, "truncated import table"))
        fail_msg("unexpected error: %s", error);
    assert_int_equal(info.import_count, 0);
    free(error);
    temp_remove(&t);
    dl_machine_close(&m);
    free(b.data);
}

#if !defined(_WIN32)
/* Writes b's headers and .text at 0 and the first tail_len bytes of its import section at
 * far (whose section header must already say so), then extends the file to total bytes
 * when total is not 0: the gaps are holes, so a gigabyte file costs no disk. */
static void write_sparse(temp_file *t, const char *name, const pe_built *b, uint32_t far,
                         size_t tail_len, uint64_t total)
{
    FILE *f;
    temp_write(t, name, b->data, b->idata);
    f = fopen(t->path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)far, SEEK_SET), 0);
    assert_int_equal(fwrite(b->data + b->idata, 1, tail_len, f), tail_len);
    assert_int_equal(fflush(f), 0);
    if (total)
        assert_int_equal(ftruncate(fileno(f), (off_t)total), 0);
    assert_int_equal(fclose(f), 0);
}

/* A 1 GiB file (torch_cuda.dll's size) with its import section at 768 MiB, past where a
 * reader of prefixes would give up: read at once, and so are its truncated versions. */
static void read_sparse_file_with_imports_at_768_mib(void **state)
{
    const uint32_t far = 768u << 20;
    pe_spec s = x64_dll();
    pe_built b;
    temp_file t;
    dl_machine m;
    dl_pe_info info;
    char *error = NULL;
    (void)state;
    s.delay = delay_names;
    s.delay_count = 2;
    b = build_pe(&s);
    put32(b.data + b.sections + 40 + 20, far);
    write_sparse(&t, "torch_cuda.dll", &b, far, b.len - b.idata, (uint64_t)1 << 30);
    open_live(&m);
    if (!dl_pe_read(&m, t.path, &info, &error))
        fail_msg("%s", error);
    assert_int_equal(info.machine, 0x8664);
    assert_true(info.is_dll);
    assert_int_equal(info.import_count, 3);
    assert_string_equal(info.imports[0], "KERNEL32.dll");
    assert_string_equal(info.imports[2], "MyHelper.DLL");
    assert_int_equal(info.delay_import_count, 2);
    assert_string_equal(info.delay_imports[0], "cudart64_12.dll");
    assert_string_equal(info.delay_imports[1], "nvcuda.dll");
    dl_pe_info_free(&info);
    temp_remove(&t);

    /* the file ends inside the second import descriptor */
    write_sparse(&t, "cut-descriptors.dll", &b, far, IMPORT_DESC + 10, 0);
    assert_false(dl_pe_read(&m, t.path, &info, &error));
    assert_true(dl_starts_with(error, t.path));
    if (!strstr(error, "truncated import table"))
        fail_msg("unexpected error: %s", error);
    assert_null(info.imports);
    free(error);
    error = NULL;
    temp_remove(&t);

    /* the file ends before the last name's NUL */
    write_sparse(&t, "cut-name.dll", &b, far, b.len - b.idata - 1, 0);
    assert_false(dl_pe_read(&m, t.path, &info, &error));
    assert_true(dl_starts_with(error, t.path));
    if (!strstr(error, "runs past the end of the file"))
        fail_msg("unexpected error: %s", error);
    free(error);
    temp_remove(&t);
    dl_machine_close(&m);
    free(b.data);
}

/* 2000 names 32 KiB apart in a 64 MiB import section: each one a separate read, which adds
 * up past the reader's budget, so the image is refused instead of read all over. */
static void scattered_names_are_refused(void **state)
{
    const char **names = dl_xcalloc(2000, sizeof *names);
    const uint32_t stride = 0x8000u, spread = 2000u * 0x8000u;
    pe_spec s = x64_dll();
    pe_built b;
    temp_file t;
    dl_machine m;
    dl_pe_info info;
    char *error = NULL;
    size_t i;
    (void)state;
    for (i = 0; i < 2000; i++)
        names[i] = "a.dll";
    s.imports = names;
    s.import_count = 2000;
    b = build_pe(&s);
    for (i = 0; i < 2000; i++) /* each into the zeros of the hole: an empty name */
        put32(b.data + b.idata + i * IMPORT_DESC + 12,
              b.idata_va + 0x100000u + (uint32_t)i * stride);
    put32(b.data + b.sections + 40 + 16, 0x100000u + spread); /* .idata's raw size */
    write_sparse(&t, "scattered.dll", &b, (uint32_t)b.idata, b.len - b.idata,
                 b.idata + 0x100000u + spread);
    open_live(&m);
    assert_false(dl_pe_read(&m, t.path, &info, &error));
    assert_true(dl_starts_with(error, t.path));
    if (!strstr(error, "MiB of reads"))
        fail_msg("unexpected error: %s", error);
    assert_null(info.imports);
    free(error);
    temp_remove(&t);
    dl_machine_close(&m);
    free(b.data);
    free(names);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(x64_dll_three_imports_in_order),
        cmocka_unit_test(pe32_exe),
        cmocka_unit_test(delay_imports),
        cmocka_unit_test(delay_imports_version_1_addresses),
        cmocka_unit_test(no_import_directory),
        cmocka_unit_test(empty_import_table),
        cmocka_unit_test(number_of_rva_and_sizes),
        cmocka_unit_test(exactly_the_maximum_imports),
        cmocka_unit_test(machine_names),
        cmocka_unit_test(truncated_at_every_length),
        cmocka_unit_test(bad_mz),
        cmocka_unit_test(bad_pe_signature),
        cmocka_unit_test(e_lfanew_out_of_range),
        cmocka_unit_test(import_rva_not_in_any_section),
        cmocka_unit_test(name_rva_not_in_any_section),
        cmocka_unit_test(delay_rva_not_in_any_section),
        cmocka_unit_test(unterminated_name_at_end_of_file),
        cmocka_unit_test(section_longer_than_file),
        cmocka_unit_test(descriptors_without_final_entry),
        cmocka_unit_test(huge_number_of_sections),
        cmocka_unit_test(name_too_long),
        cmocka_unit_test(not_an_image),
        cmocka_unit_test(damaged_bytes_stay_in_bounds),
        cmocka_unit_test(read_file),
        cmocka_unit_test(read_file_with_imports_far_in),
#if !defined(_WIN32)
        cmocka_unit_test(read_sparse_file_with_imports_at_768_mib),
        cmocka_unit_test(scattered_names_are_refused),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
