/* Which library misses a symbol, read from the loader's own message: macOS's dyld ("dlopen(
 * <pkg>/_ext.so, 2): Symbol not found: __ZN...", "Referenced from: <pkg>/_ext.so", "Expected
 * in: <site-packages>/torch/lib/libtorch_python.dylib") and glibc's ("<site-packages>/spconv/
 * libspconv.so: undefined symbol: NAME"). A package's library that misses one was built for
 * another torch; torch's own is a broken torch install. */
#ifndef DLENV_EXPLAIN_SYMBOL_OWNER_H
#define DLENV_EXPLAIN_SYMBOL_OWNER_H

#include "explain/explain.h"

/* dyld misses a C++ symbol in torch's own libraries (Expected in: .../torch/lib/, libtorch,
 * libc10): for a package's library (Referenced from: its file under site-packages) that is
 * extension_mismatch (torchvision_mismatch for torchvision / torchaudio / torchtext); for
 * torch's own library, torch_import_failed (its files come from two installs). */
void dl_explain_dyld_torch_symbol(dl_explanation *e);

/* glibc's "PATH: undefined symbol" where PATH is a library in a package's folder under
 * site-packages that is not torch's (nor the nvidia-* wheels' CUDA libraries): that package
 * was built for another torch (extension_mismatch; torchvision_mismatch for torchvision /
 * torchaudio / torchtext), and "import torch fails", which the message alone suggests,
 * steps back. Nothing is added where another reading named the package already. */
void dl_explain_package_library_symbol(dl_explanation *e);

/* A package's compiled library (under site-packages or a source checkout) misses a function
 * of CUDA's runtime API ("undefined symbol: cudaSetupArgument", which CUDA 10.1 removed),
 * read as extension_mismatch: the package was compiled by an nvcc of another CUDA than
 * torch's (detectron2#567, mmdetection#3974), so the first step compares the two and
 * builds again with the toolkit that matches torch. */
void dl_explain_cuda_runtime_symbol_fix(dl_explanation *e);

#endif
