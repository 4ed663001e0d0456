/* Questions asked of the facts (by rules, the planner, renderers and commands), answered
 * in one place so everyone asks them the same way. Pure functions. */
#ifndef DLENV_FACTS_QUERY_H
#define DLENV_FACTS_QUERY_H

#include "facts/facts.h"

#define DL_PCI_NVIDIA 0x10de
#define DL_PCI_AMD 0x1002
#define DL_PCI_INTEL 0x8086

/* GPUs on the PCI bus from this vendor (0: any vendor). */
size_t dl_q_pci_gpus(const dl_facts *f, long long vendor);
const dl_pci_gpu *dl_q_first_pci_gpu(const dl_facts *f, long long vendor);
bool dl_q_is_wsl(const dl_facts *f);
bool dl_q_is_windows(const dl_facts *f);
bool dl_q_in_container(const dl_facts *f);
bool dl_q_module_loaded(const dl_facts *f, const char *name);
/* An NVIDIA GPU is there: on the PCI bus, or (WSL) through /dev/dxg with NVML seeing one. */
bool dl_q_has_nvidia_gpu(const dl_facts *f);
/* Driver user-space libraries are installed (NVML loads, or libcuda is on the path). */
bool dl_q_driver_libraries_present(const dl_facts *f);
/* The CUDA driver's description of the device with this index, or NULL. */
const dl_cuda_device *dl_q_cuda_device(const dl_facts *f, long long index);
const dl_library_lookup *dl_q_library(const dl_facts *f, const char *name);
/* The interpreter `python` means: the first one found. */
const dl_python *dl_q_main_python(const dl_facts *f);
/* The first torch visible to an interpreter (in import order), or NULL. */
const dl_torch_install *dl_q_static_torch(const dl_python *py);
/* The torch in the interpreter's own site-packages (a venv's, or a system Python's own
 * dist-packages): not one reached through PYTHONPATH, the user site or a base install. */
const dl_torch_install *dl_q_own_torch(const dl_python *py);
const dl_py_package *dl_q_package(const dl_python *py, const char *name);
/* A conda record as `conda list --export` pins it: "2.3.1 (py3.11_cpu_0)" -> name=2.3.1=
 * py3.11_cpu_0 (its exact build), name=version when the build is unknown. Caller frees. */
char *dl_q_conda_spec(const dl_py_package *p);
/* Adds the -c channels conda needs to install record p again (once each): its own, and
 * nvidia's for a CUDA build from the pytorch channel (its CUDA libraries are there). False
 * when the record names no channel. */
bool dl_q_conda_channels(const dl_py_package *p, dl_strv *channels);
bool dl_q_torch_imported(const dl_python *py);
/* An import error that says torch itself is not there ("No module named 'torch'"), not a
 * module inside it ('torch._C'). */
bool dl_q_says_no_torch(const char *error);
/* The version of torch this interpreter has by its files (version.py, else pip's record). */
const char *dl_q_torch_version(const dl_python *py);
/* The first interpreter's torch version: by its files, else the one its runtime reports
 * (collect_env's "PyTorch version"); NULL when the facts give none. */
const char *dl_q_first_torch_version(const dl_facts *f);
/* The first torch the first interpreter's first site-packages lists (what a pasted pip list
 * or collect_env gives), or NULL. */
const dl_torch_install *dl_q_listed_torch(const dl_facts *f);
/* The CUDA torch was built with, as the facts give it: the runtime's answer when torch ran
 * (NULL there means it did not say), else the listed torch's; "none" for a CPU build. */
const char *dl_q_torch_cuda(const dl_facts *f);
/* The newest CUDA the driver runs (12040 for 12.4): NVML's answer, else the driver API's;
 * 0 when neither answered. */
long long dl_q_driver_cuda(const dl_facts *f);
bool dl_q_text_is(const dl_text *t, const char *value);

#endif
