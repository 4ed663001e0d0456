/* Virtual machines: the CPU's hypervisor bit and the hypervisor's own name (cpuid, live
 * x86 only), the "hypervisor" flag of /proc/cpuinfo (which also describes a --root tree),
 * the firmware's maker and product (DMI), and /sys/hypervisor. A VM matters for the GPU:
 * without passthrough (or vGPU) it has no NVIDIA device at all. */
#include "probe/probe.h"

#include "base/str.h"
#include "facts/schema.h"

#include <stdlib.h>
#include <string.h>

typedef struct vm_name {
    const char *token;
    const char *hypervisor;
} vm_name;

/* cpuid leaf 0x40000000's 12-byte signatures. */
static const vm_name cpuid_names[] = {
    {"KVMKVMKVM", "kvm"},          {"Linux KVM Hv", "kvm"},   {"Microsoft Hv", "hyper-v"},
    {"VMwareVMware", "vmware"},    {"XenVMMXenVMM", "xen"},   {"VBoxVBoxVBox", "virtualbox"},
    {"TCGTCGTCGTCG", "qemu"},      {"prl hyperv", "parallels"},
    {" lrpepyh  vr", "parallels"}, {"bhyve bhyve", "bhyve"},  {"ACRNACRNACRN", "acrn"},
    {"QNXQVMBSQG", "qnx"},         {"Apple VZ", "apple"},
};

/* Words in DMI's sys_vendor + product_name, compared without case. Order matters: the
 * first that appears names the hypervisor. */
static const vm_name dmi_names[] = {
    {"VMware", "vmware"},           {"VirtualBox", "virtualbox"}, {"innotek", "virtualbox"},
    {"QEMU", "qemu"},               {"KVM", "kvm"},               {"Bochs", "bochs"},
    {"Xen", "xen"},                 {"Amazon EC2", "aws"},        {"Google Compute", "gcp"},
    {"Parallels", "parallels"},     {"OpenStack", "openstack"},   {"BHYVE", "bhyve"},
    {"Microsoft Corporation Virtual Machine", "hyper-v"},         {"Alibaba Cloud", "alibaba"},
    {"DigitalOcean", "digitalocean"}, {"Hetzner vServer", "hetzner"},
};

static void note(dl_virtualization_facts *v, const char *hypervisor, char *evidence)
{
    dl_textlist_add(&v->evidence, evidence);
    free(evidence);
    if (hypervisor && !v->hypervisor.value)
        dl_text_set(&v->hypervisor, hypervisor);
}

static const char *name_in(const vm_name *names, size_t n, const char *text, bool any_case)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (any_case ? dl_contains_ci(text, names[i].token)
                     : strstr(text, names[i].token) != NULL)
            return names[i].hypervisor;
    return NULL;
}

/* True when /proc/cpuinfo could be read; the flag itself is evidence. */
static bool check_cpuinfo(const dl_machine *m, dl_virtualization_facts *v)
{
    char *text;
    const char *p;
    if (!dl_fs_read(m, "/proc/cpuinfo", 4u << 20, &text, NULL, NULL, NULL))
        return false;
    for (p = strstr(text, "hypervisor"); p; p = strstr(p + 1, "hypervisor"))
        if ((p == text || p[-1] == ' ') && (p[10] == ' ' || p[10] == '\n' || !p[10])) {
            note(v, NULL, dl_strdup("/proc/cpuinfo flags: hypervisor"));
            break;
        }
    free(text);
    return true;
}

/* Hyper-V also runs under Windows itself when VBS or Hyper-V is on: the host is then its
 * root partition (leaf 0x40000003, EBX bit 0: it may create partitions), not a guest. */
static bool check_cpuid(const dl_machine *m, dl_virtualization_facts *v, bool *host)
{
    uint32_t r[4], flags[4];
    char sig[13];
    const char *hv;
    if (!m->live || !dl_cpuid_hypervisor_leaf(0x40000000u, r))
        return m->live && dl_cpuid(1, 0, r); /* no hypervisor bit: cpuid answered "none" */
    memcpy(sig, &r[1], 4);
    memcpy(sig + 4, &r[2], 4);
    memcpy(sig + 8, &r[3], 4);
    sig[12] = '\0';
    hv = name_in(cpuid_names, DL_COUNT(cpuid_names), sig, false);
    if (hv && !strcmp(hv, "hyper-v") && dl_cpuid_hypervisor_leaf(0x40000003u, flags) &&
        (flags[1] & 1u)) {
        *host = true;
        return true;
    }
    note(v, hv, dl_fmt("cpuid: hypervisor bit set%s%s%s", sig[0] ? ", signature \"" : "",
                       sig[0] ? dl_trim(sig) : "", sig[0] ? "\"" : ""));
    return true;
}

static char *dmi_value(const dl_machine *m, const char *name)
{
    char *path = dl_fmt("/sys/class/dmi/id/%s", name), *text = NULL;
    if (dl_fs_read(m, path, 4096, &text, NULL, NULL, NULL)) {
        char *t = dl_trim(text);
        memmove(text, t, strlen(t) + 1);
    }
    free(path);
    return text;
}

/* A bare-metal cloud instance ("c5.metal") has the cloud's maker in DMI too. */
static bool check_dmi(const dl_machine *m, dl_virtualization_facts *v)
{
    char *vendor = dmi_value(m, "sys_vendor"), *product = dmi_value(m, "product_name");
    char *both = dl_fmt("%s %s", vendor ? vendor : "", product ? product : "");
    const char *hv = name_in(dmi_names, DL_COUNT(dmi_names), both, true);
    bool read = vendor != NULL || product != NULL;
    bool metal = product != NULL && dl_contains_ci(product, ".metal");
    free(product);
    free(vendor);
    if (hv && !metal)
        note(v, hv, dl_fmt("DMI: %s", dl_trim(both)));
    free(both);
    return read;
}

static bool check_sys_hypervisor(const dl_machine *m, dl_virtualization_facts *v)
{
    char *type;
    if (!dl_fs_read(m, "/sys/hypervisor/type", 256, &type, NULL, NULL, NULL))
        return false;
    if (*dl_trim(type))
        note(v, dl_trim(type), dl_fmt("/sys/hypervisor/type: %s", dl_trim(type)));
    free(type);
    return true;
}

void dl_probe_virtualization(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_virtualization_facts *v = &f->os.virtualization;
    bool asked = false, host = false;
    dl_list_known(&v->evidence);
    asked |= check_cpuid(m, v, &host);
    asked |= check_cpuinfo(m, v);
    asked |= check_dmi(m, v);
    asked |= check_sys_hypervisor(m, v);
    if (!asked) {
        dl_flag_unknown(&v->detected, "no source to ask: no cpuid, /proc/cpuinfo or DMI");
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, "no cpuid, /proc/cpuinfo or DMI to read");
        return;
    }
    /* Windows with VBS runs as Hyper-V's root partition: cpuinfo-style evidence alone
     * (the hypervisor bit) then describes the host, not a guest. */
    dl_flag_set(&v->detected, v->evidence.count > 0 && !host);
    if (host)
        dl_textlist_add(&v->evidence, "cpuid: Hyper-V's root partition, the host itself");
    if (v->detected.value && !v->hypervisor.value)
        dl_text_unknown(&v->hypervisor, "the evidence does not name the hypervisor");
}
