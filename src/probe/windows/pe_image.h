/* A reader of Windows PE images (DLL/EXE) over a byte buffer: the machine, PE32 or PE32+,
 * whether it is a DLL, and the DLL names of its import and delay-load import tables. Pure
 * C with every read bounded, so it runs (and is tested) on any host, not only Windows. */
#ifndef DLENV_PROBE_PE_IMAGE_H
#define DLENV_PROBE_PE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/os.h"

#define DL_PE_MACHINE_I386 0x014cu
#define DL_PE_MACHINE_ARMNT 0x01c4u
#define DL_PE_MACHINE_AMD64 0x8664u
#define DL_PE_MACHINE_ARM64 0xaa64u

/* More entries than this in one table make the image rejected as hostile or broken. */
#define DL_PE_MAX_IMPORTS 4096

typedef struct dl_pe_info {
    uint16_t machine;      /* IMAGE_FILE_MACHINE_*: 0x8664 x64, 0x14c i386, 0xaa64 arm64 */
    int bits;              /* 64 for PE32+, 32 for PE32 */
    bool is_dll;
    char **imports;        /* names of the DLLs in the import table, in table order, as written */
    size_t import_count;
    char **delay_imports;  /* delay-load import DLL names, in table order, as written */
    size_t delay_import_count;
} dl_pe_info;

/* Parses a PE image in memory. false with *error ("not a PE image: no MZ header",
 * "truncated import table" ...) on malformed input; never reads out of bounds on any input.
 * *out is always initialised, so dl_pe_info_free may be called either way. */
bool dl_pe_parse(const unsigned char *data, size_t len, dl_pe_info *out, char **error);
void dl_pe_info_free(dl_pe_info *info);

/* Reads a file through the machine layer and parses it, reading only the bytes the parse
 * needs (the headers, the section table, the descriptors and names of the import tables),
 * never the whole file, which for a CUDA DLL can be a gigabyte; see pe_image.c. *error names
 * the path. */
bool dl_pe_read(const dl_machine *m, const char *path, dl_pe_info *out, char **error);

/* Machine name for display: "x64", "x86", "arm64", "arm", "unknown (0x1234)". Caller frees. */
char *dl_pe_machine_name(uint16_t machine);

#endif
