#include "explain/host_compiler_fix.h"

#include <stdlib.h>
#include <string.h>

/* The catalog row's fix begins so (nvcc_host_compiler_unsupported). */
#define CATALOG_FIX "build with the newest gcc the message allows"

/* The N of "gcc versions later than N are not supported"; 0 when the text has none. */
static int newest_gcc_allowed(const dl_paste *p)
{
    static const char mark[] = "gcc versions later than ";
    long i = dl_paste_find(p, 0, mark);
    int n;
    if (i < 0)
        return 0;
    n = atoi(strstr(p->lines[i].lower, mark) + sizeof mark - 1);
    return n >= 4 && n < 100 ? n : 0;
}

void dl_explain_host_compiler_fix(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "extension_mismatch");
    int n = newest_gcc_allowed(&e->paste);
    if (!x || !n || !dl_finding_fix_is_only(x, CATALOG_FIX))
        return;
    dl_finding_fix_clear(x);
    /* a conda environment's nvcc takes conda's compiler packages first */
    dl_finding_fix(x, "# build with gcc %d, the newest this CUDA allows: sudo apt install gcc-%d "
                      "g++-%d, then export CC=gcc-%d CXX=g++-%d CUDAHOSTCXX=g++-%d and build "
                      "again (in a conda environment: conda install -c conda-forge gcc=%d "
                      "gxx=%d); or a CUDA toolkit new enough for the installed gcc (the one "
                      "torch was built with, or newer)",
                   n, n, n, n, n, n, n, n);
}
