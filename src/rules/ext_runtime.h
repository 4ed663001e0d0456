/* What importing an extension package after torch showed (the runtime probe's records,
 * pythons[i].runtime.extensions), read for the rules: extension_mismatch and
 * torchvision_mismatch take a record's error as their evidence, extension_import_failed
 * (ext_runtime.c) names the failures no mismatch explains. */
#ifndef DLENV_RULES_EXT_RUNTIME_H
#define DLENV_RULES_EXT_RUNTIME_H

#include "rules/finding.h"
#include "rules/rules.h"

/* The record for package (its metadata's name or its module, "flash-attn" = "flash_attn"),
 * NULL when the imports did not run or it is not among them. *index: its place. */
const dl_ext_import *dl_ext_record(const dl_python *py, const char *package, size_t *index);

/* Did the import fail (or crash, or hang)? */
bool dl_ext_import_broken(const dl_ext_import *r);

/* Does what the import said (its error, or what it printed while importing: xFormers'
 * fallback warning) read as a build for another torch? The error signatures decide
 * (data/error_signatures.csv: a row for extension_mismatch or torchvision_mismatch), as
 * they do for a pasted error, and so does a missing C++ symbol (_Z...) in the package's own
 * library, since torch itself imported in the same interpreter. */
bool dl_ext_says_mismatch(const dl_rule_input *in, const dl_ext_import *r);

/* What the message says it was built for: xFormers' "PyTorch 2.1.0+cu121 with CUDA 1201"
 * -> "torch 2.1.0+cu121 with CUDA 12.1"; NULL when it does not say. Caller frees. */
char *dl_ext_built_for_said(const dl_ext_import *r);

/* The record's status, error and output as evidence. */
void dl_ext_evidence(dl_finding *x, const dl_ext_import *r, size_t index);

/* extensions.c's fix for a package built for another torch (the matching build, or the
 * torch it needs: needs, may be NULL). */
void dl_ext_fix(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                const char *package, const char *torch_version, const char *needs);

#endif
