/* The NVIDIA driver: installed, loaded, matching, and answering. Which of the "not
 * loaded" causes it is decides the fix, so the specific rules come first and the general
 * driver_not_loaded stays quiet when one of them fired. */
#include "base/str.h"
#include "facts/query.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <string.h>

/* A Linux host's NVIDIA GPU: the kernel-module rules below are about it. Windows has no
 * module to load; its driver is the display driver (windows_no_driver). */
static bool nvidia_on_pci(const dl_facts *f)
{
    return dl_q_pci_gpus(f, DL_PCI_NVIDIA) > 0 && !dl_q_is_wsl(f) && !dl_q_is_windows(f);
}

/* The driver's kernel part belongs to the host: inside a container, what is missing is
 * the GPU passed in (container rules), not a driver install. */
static bool host_driver_visible(const dl_facts *f)
{
    return nvidia_on_pci(f) && !dl_q_in_container(f);
}

static bool nvidia_module_loaded(const dl_facts *f)
{
    return dl_q_module_loaded(f, "nvidia") || f->nvidia_kernel.driver_version.value;
}

static bool nouveau_holds_gpu(const dl_facts *f)
{
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, DL_PCI_NVIDIA);
    return dl_q_module_loaded(f, "nouveau") || (g && dl_q_text_is(&g->driver, "nouveau"));
}

static void evidence_gpu(dl_finding *x, const dl_facts *f)
{
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, DL_PCI_NVIDIA);
    if (g)
        dl_finding_evidence(x, "gpus[].driver", "%s %s bound to %s",
                            g->address.value ? g->address.value : "?",
                            g->device_name.value ? g->device_name.value : "NVIDIA GPU",
                            g->driver.value ? g->driver.value : "?");
}

static void fix_install_driver(dl_finding *x, const dl_facts *f)
{
    const char *d = dl_fix_distro(f);
    if (strcmp(d, "ubuntu") == 0) {
        dl_fix_as_root(x, f, "ubuntu-drivers install");
    } else if (strcmp(d, "debian") == 0) {
        dl_fix_note(x, "enable the contrib and non-free components of your apt sources first");
        dl_fix_as_root(x, f, "apt-get install -y nvidia-driver firmware-misc-nonfree");
    } else if (strcmp(d, "fedora") == 0) {
        dl_fix_note(x, "from RPM Fusion: enable it first (https://rpmfusion.org/Configuration)");
        dl_fix_as_root(x, f, "dnf install -y akmod-nvidia xorg-x11-drv-nvidia-cuda");
    } else if (strcmp(d, "arch") == 0) {
        dl_fix_as_root(x, f, "pacman -S --noconfirm nvidia");
    } else {
        dl_fix_note(x, "install NVIDIA's driver for this GPU "
                       "(https://www.nvidia.com/Download/index.aspx), then reboot");
        return;
    }
    dl_fix_as_root(x, f, "reboot");
}

/* The command that rebuilds the initramfs, so a blacklist applies at boot. */
static const char *initramfs_command(const dl_facts *f)
{
    const char *d = dl_fix_distro(f);
    return !strcmp(d, "fedora") ? "dracut --force"
           : !strcmp(d, "arch") ? "mkinitcpio -P"
                                : "update-initramfs -u";
}

void dl_rule_nouveau_loaded(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x;
    if (!nvidia_on_pci(f) || !nouveau_holds_gpu(f))
        return;
    x = dl_finding_add(out, "nouveau_loaded", DL_SEV_FAILURE,
                       "The open-source nouveau driver holds the GPU; CUDA needs NVIDIA's driver");
    evidence_gpu(x, f);
    if (dl_q_module_loaded(f, "nouveau"))
        dl_finding_evidence(x, "nvidia_kernel.loaded_modules", "nouveau");
    dl_fix_as_root(x, f, "sh -c \"printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' > "
                         "/etc/modprobe.d/blacklist-nouveau.conf\"");
    dl_fix_as_root(x, f, "%s", initramfs_command(f));
    fix_install_driver(x, f);
}

/* Windows: the NVIDIA adapter runs Microsoft's Basic Display driver (or none) and no
 * nvml.dll answers from System32. */
static void windows_no_driver(const dl_facts *f, dl_findings *out)
{
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, DL_PCI_NVIDIA);
    dl_finding *x;
    if (!g || (g->driver.value && dl_contains_ci(g->driver.value, "NVIDIA")) ||
        f->nvml.driver_version.value || f->cuda_driver.driver_version.known)
        return;
    x = dl_finding_add(out, "no_driver_installed", DL_SEV_FAILURE,
                       "An NVIDIA GPU is present but NVIDIA's driver is not installed");
    dl_finding_evidence(x, "gpus[].driver", "%s runs the driver of %s",
                        g->device_name.value ? g->device_name.value : "the NVIDIA adapter",
                        g->driver.value ? g->driver.value : "no provider");
    dl_finding_evidence(x, "nvml.library", "%s", f->nvml.library.value ? f->nvml.library.value
                                                  : f->nvml.library.why ? f->nvml.library.why
                                                                        : "not loaded");
    dl_fix_note(x, "install the driver for this GPU from "
                   "https://www.nvidia.com/Download/index.aspx (or the NVIDIA App), then "
                   "restart Windows");
}

void dl_rule_no_driver_installed(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x;
    if (dl_q_is_windows(f)) {
        windows_no_driver(f, out);
        return;
    }
    if (!host_driver_visible(f) || nvidia_module_loaded(f) || nouveau_holds_gpu(f) ||
        dl_q_driver_libraries_present(f) ||
        (f->nvidia_kernel.module_file.known && f->nvidia_kernel.module_file.value))
        return;
    x = dl_finding_add(out, "no_driver_installed", DL_SEV_FAILURE,
                       "An NVIDIA GPU is present but no NVIDIA driver is installed");
    evidence_gpu(x, f);
    dl_finding_evidence(x, "nvml.library", "%s", f->nvml.library.value ? f->nvml.library.value
                                                  : f->nvml.library.why ? f->nvml.library.why
                                                                        : "not loaded");
    fix_install_driver(x, f);
}

void dl_rule_secure_boot_blocks_module(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_nvidia_kernel_facts *k = &f->nvidia_kernel;
    dl_finding *x;
    if (!host_driver_visible(f) || nvidia_module_loaded(f) || !k->module_file.known ||
        !k->module_file.value || !k->secure_boot.known || !k->secure_boot.value)
        return;
    x = dl_finding_add(out, "secure_boot_blocks_module", DL_SEV_FAILURE,
                       "Secure Boot refuses the NVIDIA kernel module, so it is not loaded");
    dl_finding_evidence(x, "nvidia_kernel.secure_boot", "on");
    dl_finding_evidence(x, "nvidia_kernel.module_path", "%s",
                        k->module_path.value ? k->module_path.value : "present");
    dl_finding_evidence(x, "nvidia_kernel.loaded_modules", "no nvidia");
    dl_fix_as_root(x, f, "mokutil --import /var/lib/shim-signed/mok/MOK.der");
    dl_fix_note(x, "then reboot and choose \"Enroll MOK\" (or turn Secure Boot off in the "
                   "firmware)");
}

void dl_rule_kernel_module_not_built(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_nvidia_kernel_facts *k = &f->nvidia_kernel;
    dl_finding *x;
    if (!host_driver_visible(f) || nvidia_module_loaded(f) || !dl_q_driver_libraries_present(f) ||
        !k->module_file.known || k->module_file.value)
        return;
    x = dl_finding_add(out, "kernel_module_not_built", DL_SEV_FAILURE,
                       "The NVIDIA driver has no kernel module for the running kernel %s",
                       f->os.kernel_release.value ? f->os.kernel_release.value : "");
    dl_finding_evidence(x, "os.kernel_release", "%s",
                        f->os.kernel_release.value ? f->os.kernel_release.value : "?");
    dl_finding_evidence(x, "nvidia_kernel.module_file", "no nvidia.ko under /lib/modules/%s",
                        f->os.kernel_release.value ? f->os.kernel_release.value : "?");
    if (!strcmp(dl_fix_distro(f), "fedora")) {
        dl_fix_as_root(x, f, "akmods --force");
    } else {
        if (!strcmp(dl_fix_distro(f), "debian") || !strcmp(dl_fix_distro(f), "ubuntu"))
            dl_fix_as_root(x, f, "apt-get install -y linux-headers-$(uname -r)");
        dl_fix_as_root(x, f, "dkms autoinstall");
    }
    dl_fix_as_root(x, f, "reboot");
}

void dl_rule_driver_not_loaded(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_nvidia_kernel_facts *k = &f->nvidia_kernel;
    bool no_nodes = k->device_nodes.known && k->device_nodes.count == 0;
    dl_finding *x;
    if (!nvidia_on_pci(f) || !dl_q_driver_libraries_present(f) || nouveau_holds_gpu(f) ||
        (nvidia_module_loaded(f) && !no_nodes) || dl_q_in_container(f) ||
        dl_findings_has(out, "secure_boot_blocks_module") ||
        dl_findings_has(out, "kernel_module_not_built"))
        return;
    x = dl_finding_add(out, "driver_not_loaded", DL_SEV_FAILURE,
                       "The NVIDIA driver is installed but its kernel part is not running");
    dl_finding_evidence(x, "nvidia_kernel.driver_version", "%s",
                        k->driver_version.value ? k->driver_version.value : "no module loaded");
    if (no_nodes)
        dl_finding_evidence(x, "nvidia_kernel.device_nodes", "no /dev/nvidia* nodes");
    dl_fix_as_root(x, f, "modprobe -a nvidia nvidia_uvm");
    dl_fix_note(x, "if that fails, reboot");
}

void dl_rule_driver_library_mismatch(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const char *nvml = f->nvml.driver_version.value, *kern = f->nvidia_kernel.driver_version.value;
    bool said = f->nvml.init_result.value && dl_contains_ci(f->nvml.init_result.value, "mismatch");
    bool differ = nvml && kern && strcmp(nvml, kern) != 0;
    bool cuda803 = f->cuda_driver.init_code.known && f->cuda_driver.init_code.value == 803;
    dl_finding *x;
    if (!said && !differ && !cuda803)
        return;
    x = dl_finding_add(out, "driver_library_mismatch", DL_SEV_FAILURE,
                       "The driver's libraries and its loaded kernel module are different "
                       "versions (an update without a reboot)");
    if (said)
        dl_finding_evidence(x, "nvml.init_result", "%s", f->nvml.init_result.value);
    if (differ)
        dl_finding_evidence(x, "nvml.driver_version", "%s, kernel module %s", nvml, kern);
    if (cuda803)
        dl_finding_evidence(x, "cuda_driver.init_result", "%s",
                            f->cuda_driver.init_result.value ? f->cuda_driver.init_result.value
                                                             : "803");
    dl_fix_note(x, "reload the modules (when no program, desktop included, uses the GPU):");
    dl_fix_as_root(x, f, "rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia");
    dl_fix_as_root(x, f, "modprobe -a nvidia nvidia_uvm");
    dl_fix_note(x, "if a module is in use, reboot instead");
}

static dl_finding *cuinit_finding(const dl_facts *f, dl_findings *out, long long code,
                                  const char *id, const char *title)
{
    dl_finding *x;
    if (!f->cuda_driver.init_code.known || f->cuda_driver.init_code.value != code)
        return NULL;
    x = dl_finding_add(out, id, DL_SEV_FAILURE, "%s", title);
    dl_finding_evidence(x, "cuda_driver.init_result", "%lld %s", code,
                        f->cuda_driver.init_result.value ? f->cuda_driver.init_result.value : "");
    if (f->cuda_driver.library.value)
        dl_finding_evidence(x, "cuda_driver.library", "%s", f->cuda_driver.library.value);
    return x;
}

void dl_rule_forward_compat_unsupported(const dl_rule_input *in, dl_findings *out)
{
    dl_finding *x = cuinit_finding(in->facts, out, 804, "forward_compat_unsupported",
                                   "CUDA forward-compatibility libraries are loaded on a GPU "
                                   "that does not support them");
    if (x)
        dl_fix_note(x, "take the cuda-compat directory (/usr/local/cuda/compat) out of "
                       "LD_LIBRARY_PATH, or remove the cuda-compat package; then use a torch "
                       "wheel whose CUDA this driver supports (dlenv plan)");
}

void dl_rule_fabricmanager_missing(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = cuinit_finding(f, out, 802, "fabricmanager_missing",
                                   "The NVSwitch fabric manager is not running (cuInit: system "
                                   "not yet initialized)");
    if (!x)
        return;
    if (f->nvml.driver_version.value &&
        (!strcmp(dl_fix_distro(f), "ubuntu") || !strcmp(dl_fix_distro(f), "debian"))) {
        dl_fix_note(x, "the fabric manager's version must be the driver's, %s",
                    f->nvml.driver_version.value);
        dl_fix_as_root(x, f, "apt-get install -y nvidia-fabricmanager-%.*s",
                       (int)strcspn(f->nvml.driver_version.value, "."),
                       f->nvml.driver_version.value);
    } else {
        dl_fix_note(x, "install NVIDIA's fabric manager package of exactly the driver's version "
                       "(%s)", f->nvml.driver_version.value ? f->nvml.driver_version.value
                                                            : "nvidia-smi shows it");
    }
    dl_fix_as_root(x, f, "systemctl enable --now nvidia-fabricmanager");
}

void dl_rule_suspend_resume_uvm(const dl_rule_input *in, dl_findings *out)
{
    dl_finding *x = cuinit_finding(in->facts, out, 999, "suspend_resume_uvm",
                                   "The driver is wedged (cuInit: unknown error), typically "
                                   "after suspend and resume");
    if (!x)
        return;
    dl_fix_as_root(x, in->facts, "rmmod nvidia_uvm");
    dl_fix_as_root(x, in->facts, "modprobe nvidia_uvm");
    dl_fix_note(x, "if the module is in use, reboot instead");
}

void dl_rule_device_permission_denied(const dl_rule_input *in, dl_findings *out)
{
    const dl_nvidia_kernel_facts *k = &in->facts->nvidia_kernel;
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; k->device_nodes.known && i < k->device_nodes.count; i++) {
        const dl_device_node *n = &DL_LIST_AT(k->device_nodes, dl_device_node, i);
        if (!n->accessible.known || n->accessible.value)
            continue;
        if (!x)
            x = dl_finding_add(out, "device_permission_denied", DL_SEV_FAILURE,
                               "This user may not open the NVIDIA device nodes");
        dl_finding_evidence(x, dl_text_or(&n->path, "nvidia_kernel.device_nodes[].path"),
                            "not readable and writable by this user");
    }
    if (!x)
        return;
    dl_fix_as_root(x, in->facts, "usermod -aG video,render $USER");
    dl_fix_note(x, "log out and in again: new groups apply to new sessions (or fix the udev "
                   "rule that sets the nodes' mode)");
}
