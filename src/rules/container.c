/* Containers and WSL: the GPU has to be passed in, and WSL's driver lives in a folder of
 * its own that the loader must know. */
#include "facts/query.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <string.h>

void dl_rule_docker_no_gpu_passthrough(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_nvidia_kernel_facts *k = &f->nvidia_kernel;
    dl_finding *x;
    if (!dl_q_in_container(f) || dl_q_is_wsl(f) || !dl_q_pci_gpus(f, DL_PCI_NVIDIA) ||
        !k->device_nodes.known || k->device_nodes.count > 0)
        return;
    x = dl_finding_add(out, "docker_no_gpu_passthrough", DL_SEV_FAILURE,
                       "This container was started without access to the host's GPU");
    dl_finding_evidence(x, "os.container.runtime", "%s",
                        f->os.container.runtime.value ? f->os.container.runtime.value : "?");
    dl_finding_evidence(x, "nvidia_kernel.device_nodes", "no /dev/nvidia* nodes");
    dl_fix_note(x, "on the host: install the NVIDIA Container Toolkit "
                   "(https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/), then "
                   "start this container again with --gpus all in its docker run command");
}

static const dl_library_copy *wsl_copy(const dl_library_lookup *l)
{
    size_t i;
    for (i = 0; l && l->copies.known && i < l->copies.count; i++) {
        const dl_library_copy *c = &DL_LIST_AT(l->copies, dl_library_copy, i);
        if (c->path.value && strncmp(c->path.value, "/usr/lib/wsl/lib/", 17) == 0)
            return c;
    }
    return NULL;
}

void dl_rule_wsl_libcuda_path(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_library_lookup *l = dl_q_library(f, "libcuda.so.1");
    const dl_library_copy *w = wsl_copy(l);
    bool unreachable = l && !l->chosen.value && w;
    bool linux_driver = l && l->chosen.value && w &&
                        strncmp(l->chosen.value, "/usr/lib/wsl/lib/", 17) != 0;
    dl_finding *x;
    if (!dl_q_is_wsl(f) || (!unreachable && !linux_driver))
        return;
    x = dl_finding_add(out, "wsl_libcuda_path", DL_SEV_FAILURE,
                       unreachable ? "WSL's libcuda is in /usr/lib/wsl/lib but the loader "
                                     "does not look there"
                                   : "A Linux libcuda is found before WSL's own");
    dl_finding_evidence(x, "libraries[libcuda.so.1].chosen", "%s",
                        l->chosen.value ? l->chosen.value : "not found");
    dl_finding_evidence(x, "libraries[libcuda.so.1].copies", "%s", w->path.value);
    if (unreachable) {
        dl_fix_as_root(x, f, "sh -c 'echo /usr/lib/wsl/lib > /etc/ld.so.conf.d/ld.wsl.conf'");
        dl_fix_as_root(x, f, "ldconfig");
    } else {
        dl_fix_note(x, "remove the Linux NVIDIA driver packages installed inside WSL (the "
                       "Windows driver provides libcuda); never install a Linux driver in WSL");
    }
}

/* WSL2 gives its VM half the host's memory by default; under this, training data loaders
 * and large models run out. */
#define WSL_MEMORY_LOW (8LL << 30)

void dl_rule_wsl_memory_limit(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x;
    if (!dl_q_is_wsl(f) || !f->memory.total_bytes.known ||
        f->memory.total_bytes.value >= WSL_MEMORY_LOW)
        return;
    x = dl_finding_add(out, "wsl_memory_limit", DL_SEV_WARNING,
                       "The WSL2 VM has only %.1f GiB of memory",
                       (double)f->memory.total_bytes.value / (1 << 30));
    dl_finding_evidence(x, "memory.total_bytes", "%lld", f->memory.total_bytes.value);
    dl_fix_note(x, "on Windows, in the file .wslconfig of your user folder, under [wsl2]: "
                   "memory=16GB; then in PowerShell: wsl --shutdown");
}

/* A container gets 64 MiB of /dev/shm (Docker's and Kubernetes' default); DataLoader
 * workers pass every batch through it and NCCL its buffers between GPUs of one machine, so
 * training fails there with a bus error or NCCL's "unhandled system error". A size set
 * below a quarter of memory is such a limit; tmpfs's own default (half of memory) on a
 * small machine is not. */
#define SHM_LOW (1LL << 30)

void dl_rule_shm_too_small(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_int *shm = &f->memory.shm_bytes, *total = &f->memory.total_bytes;
    dl_finding *x;
    if (!shm->known || shm->value >= SHM_LOW ||
        (total->known && shm->value >= total->value / 4))
        return;
    x = dl_finding_add(out, "shm_too_small", DL_SEV_WARNING,
                       "/dev/shm holds only %.0f MiB: DataLoader workers and NCCL will run "
                       "out of shared memory",
                       (double)shm->value / (1 << 20));
    dl_finding_evidence(x, "memory.shm_bytes", "%lld", shm->value);
    if (total->known)
        dl_finding_evidence(x, "memory.total_bytes", "%lld", total->value);
    if (dl_q_in_container(f)) {
        dl_fix_note(x, "start this container again with --ipc=host (or --shm-size=8g) in its "
                       "docker run command; in Kubernetes mount an emptyDir with medium: "
                       "Memory at /dev/shm; until then DataLoader(num_workers=0) avoids it");
        return;
    }
    dl_fix_as_root(x, f, "mount -o remount,size=8G /dev/shm");
}
