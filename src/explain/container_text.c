#include "explain/container_text.h"

#include "explain/text_cause.h"
#include "explain/quote.h"
#include "rules/fixes.h"
#include "explain/text_marks.h"
#include "facts/query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text names a Jetson and no NVIDIA index for Jetson wheels (the same marks as the
 * signature for a Jetson's container in data/error_signatures.csv, so that where this drops
 * the container's reading, that signature reads the text). */
static bool jetson_named(const dl_paste *p)
{
    static const char *const words[] = {"jetson",   "xavier",    "jetpack", "agx orin",
                                        "agx-orin", "orin nano", "orin nx", "l4t-"};
    static const char *const nvidia_wheels[] = {"developer.download.nvidia", "jetson-ai-lab"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0 &&
           dl_paste_find_any(p, nvidia_wheels, sizeof nvidia_wheels / sizeof nvidia_wheels[0]) < 0;
}

/* A plain release ("1.12.0", "2.1.0") or a "+cpu" build: what pip installs from PyPI, not
 * NVIDIA's Jetson build ("1.12.0a0+2c916ef.nv22.3"). */
static bool plain_release(const char *v)
{
    return v && *v && (strspn(v, "0123456789.") == strlen(v) || strstr(v, "+cpu"));
}

const char *dl_container_jetson_torch(const dl_paste *p, const dl_facts *f, const char *id)
{
    /* the same marks as the signature for a Jetson's container, which then reads it */
    bool unavailable = dl_paste_find(p, 0, "is_available") >= 0 &&
                       dl_paste_find(p, 0, "false") >= 0;
    if (unavailable && dl_text_in_container(p) && jetson_named(p) &&
        plain_release(dl_q_first_torch_version(f)))
        return "";
    return id;
}

bool dl_container_toolkit_ran(const dl_paste *p)
{
    static const char *const marks[] = {"nvidia-container-cli", "error running hook",
                                        "error running prestart hook"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* The text starts the container with the GPUs: the options of docker, nvidia-docker, a
 * compose file's device reservation, Kubernetes' GPU resource. */
bool dl_container_given_gpus(const dl_paste *p)
{
    static const char *const gpus[] = {"--gpus", "--runtime=nvidia", "--runtime nvidia",
                                       "nvidia-docker", "runtime: nvidia", "driver: nvidia",
                                       "capabilities: [gpu]", "nvidia.com/gpu"};
    return dl_paste_find_any(p, gpus, sizeof gpus / sizeof gpus[0]) >= 0;
}

/* Where the text says is_available() is False: on its line, the REPL's next line, or a
 * sentence within the next three lines ("It returns False"); collect_env's "Is CUDA
 * available: False" too. -1 when it does not. */
static long unavailable_line(const dl_paste *p)
{
    long i = dl_text_unavailable_line(p);
    if (i >= 0)
        return i;
    for (i = dl_paste_find(p, 0, "is_available"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "is_available")) {
        size_t j;
        for (j = (size_t)i + 1; j < p->count && j <= (size_t)i + 3; j++)
            if (strstr(p->lines[j].lower, "false"))
                return (long)j;
    }
    return dl_paste_find(p, 0, "cuda available: false");
}

/* One of n words occurs in the lowered line. */
/* nvidia-smi said to show the GPU inside the container ("`nvidia-smi` within container
 * will show that I have GPU available", "nvidia-smi works inside the container"): the
 * container has the GPU and the driver; -1 when the text does not say so. */
static long smi_sees_gpu_inside_line(const dl_paste *p)
{
    static const char *const inside[] = {"within container", "within the container",
                                         "inside container", "inside the container",
                                         "in the container", "in container", "docker exec"};
    static const char *const sees[] = {"show", "works", "work fine", "lists", "can see",
                                       "detects", "displays", "recognizes", "recognises"};
    static const char *const fails[] = {"not found", "fail", "no devices", "couldn't",
                                        "could not", "doesn't", "does not", "not work", "error",
                                        "unable"};
    long i;
    for (i = dl_paste_find(p, 0, "nvidia-smi"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "nvidia-smi")) {
        const char *low = p->lines[i].lower;
        if (dl_line_has_any(low, inside, sizeof inside / sizeof inside[0]) &&
            dl_line_has_any(low, sees, sizeof sees / sizeof sees[0]) &&
            !dl_line_has_any(low, fails, sizeof fails / sizeof fails[0]))
            return i;
    }
    return -1;
}

void dl_explain_container_sees_gpu_torch_does_not(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "The container has the GPU (nvidia-smi inside it shows it) and the program still "
        "runs on the CPU: the image's torch does not use CUDA, most often a CPU-only build",
        "# in the Dockerfile, install torch from a CUDA index that the host's driver runs "
        "(a CUDA no newer than the CUDA Version nvidia-smi prints; dlenv plan --gpu with the "
        "GPU's name prints the command)",
        {"driver_too_old"},
        "`python -c \"import torch; print(torch.__version__, torch.version.cuda, "
        "torch.cuda.is_available())\"` inside the container"};
    long smi, line;
    if (dl_text_cause_read(e) || !dl_text_in_container(&e->paste) ||
        !dl_container_given_gpus(&e->paste) || dl_text_other_vendor_gpu(&e->facts) ||
        (smi = smi_sees_gpu_inside_line(&e->paste)) < 0 ||
        ((line = unavailable_line(&e->paste)) < 0 &&
         (line = dl_text_gpu_unused_line(&e->paste)) < 0 &&
         (line = dl_text_app_no_gpu_line(&e->paste)) < 0))
        return;
    dl_text_cause_add(e, &cause, line, smi);
}

void dl_explain_container_gpus_given_unavailable(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu_visible",
        "torch sees no GPU inside a container that was started with the GPUs: the text "
        "does not say why",
        "# run `nvidia-smi` inside the container: no GPU there is the host's toolkit or "
        "driver; a GPU there with torch still blind is the image's torch (its CUDA "
        "against the driver's, or a CPU build)",
        {"driver_too_old", "cpu_only_build", "docker_no_gpu_passthrough"},
        "`nvidia-smi` inside the container (the GPU and the driver's CUDA Version) and "
        "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` there"};
    long line;
    if (dl_text_cause_read(e) || !dl_text_in_container(&e->paste) ||
        !dl_container_given_gpus(&e->paste) || dl_text_other_vendor_gpu(&e->facts) ||
        (line = unavailable_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* One list for every reading that asks where the run is (readings.c's container without
 * GPUs, the insufficient driver below): an image's name says "in a container" as well as
 * the writer's words do. */
bool dl_container_named(const dl_paste *p)
{
    static const char *const marks[] = {
        "in a docker", "inside a docker", "in docker", "inside docker", "in a container",
        "in container", "in the container", "inside the container", "inside a container",
        "docker run", "docker-compose", "docker compose", "dockerfile", "kubernetes", "k8s",
        "kubectl", "kind: pod", "kind: job", "kind: deployment", "kind: statefulset",
        "nvcr.io/", "pytorch/pytorch:", "nvidia/cuda:", "-devel-ubuntu", "-runtime-ubuntu",
        "-cudnn8-runtime", "-cudnn8-devel", "-cudnn9-runtime", "-cudnn9-devel"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* torch's CUDA (major.minor as 12040) is newer than the driver's: the old driver is then
 * read from the numbers, not guessed. */
static bool torch_cuda_beyond_driver(const dl_facts *f)
{
    const char *cuda = dl_q_torch_cuda(f);
    unsigned major = 0, minor = 0;
    if (!cuda || sscanf(cuda, "%u.%u", &major, &minor) != 2)
        return false;
    return (long)(major * 1000 + minor * 10) > f->nvml.cuda_driver_version.value;
}

static long insufficient_driver_line(const dl_paste *p)
{
    static const char *const words[] = {"driver version is insufficient",
                                        "cudaerrorinsufficientdriver", "insufficient driver",
                                        "cuda_error_insufficient_driver"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
}

void dl_explain_insufficient_driver_in_container(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "docker_no_gpu_passthrough",
        "CUDA's runtime finds no usable driver inside a container, while the host's driver "
        "runs CUDA 12: a container started without the GPU has no libcuda, and the runtime "
        "then says the driver is insufficient",
        "# start the container with the GPUs (docker run --gpus all with the NVIDIA Container "
        "Toolkit; Kubernetes: the runtime class and a nvidia.com/gpu resource limit), then "
        "check `nvidia-smi` inside it",
        {"driver_too_old"},
        "`nvidia-smi` inside the container (does it see the GPU and the driver?) and the CUDA "
        "the image or program was built with"};
    dl_finding *x = dl_findings_get(&e->findings, "driver_too_old");
    long line = insufficient_driver_line(&e->paste);
    size_t i, failures = 0;
    for (i = 0; i < e->findings.items.count; i++)
        failures += dl_q_failure(&DL_LIST_AT(e->findings.items, dl_finding, i));
    /* torch's own "driver on your system is too old" means it found libcuda and read it */
    if (!x || !dl_q_failure(x) || failures != 1 || line < 0 ||
        dl_paste_find(&e->paste, 0, "driver on your system is too old") >= 0 ||
        !dl_container_named(&e->paste) || dl_container_given_gpus(&e->paste) ||
        !e->facts.nvml.cuda_driver_version.known ||
        e->facts.nvml.cuda_driver_version.value < 12000 || torch_cuda_beyond_driver(&e->facts))
        return;
    dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_insufficient_driver_without_gpu_runtime(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "docker_no_gpu_passthrough",
        "Inside a Singularity/Apptainer container started without --nv: the host's driver "
        "libraries are not bound into it, and CUDA's runtime then calls the driver "
        "insufficient",
        "# run the container with --nv: singularity exec --nv IMAGE.sif COMMAND (apptainer "
        "the same), then check nvidia-smi inside it",
        {"driver_too_old"},
        "the exact `singularity`/`apptainer` command and `nvidia-smi` inside the container"};
    static const char *const runtime[] = {"singularity", "apptainer", ".sif"};
    static const char *const with_gpu[] = {"--nv", "--nvccli"};
    static const dl_text_cause devices_only = {
        "docker_no_gpu_passthrough",
        "The container got the GPU's device files (--device /dev/nvidia*) but not the host "
        "driver's libraries, which only the NVIDIA runtime mounts: CUDA's runtime finds no "
        "libcuda of the host's and calls the driver insufficient",
        "# start the container with the NVIDIA Container Toolkit instead of --device: docker "
        "run --gpus all (it mounts the driver's libraries beside the device files)",
        {"driver_too_old"},
        "the exact `docker run` command and `nvidia-smi` inside the container"};
    static const char *const runtime_given[] = {"--gpus", "--runtime=nvidia", "--runtime nvidia",
                                                "nvidia-docker", "runtime: nvidia",
                                                "nvidia.com/gpu", "nvidia_driver",
                                                "/usr/local/nvidia"};
    dl_finding *x = dl_findings_get(&e->findings, "driver_too_old");
    long line = insufficient_driver_line(&e->paste), where;
    const dl_text_cause *which = &cause;
    /* torch's own "driver on your system is too old" means it found libcuda and read it */
    if (!x || !dl_q_failure(x) || line < 0 ||
        dl_paste_find(&e->paste, 0, "driver on your system is too old") >= 0)
        return;
    if ((where = dl_paste_find_any(&e->paste, runtime, 3)) >= 0) {
        if (dl_paste_find_any(&e->paste, with_gpu, 2) >= 0)
            return;
    } else if ((where = dl_paste_find(&e->paste, 0, "--device /dev/nvidia")) < 0 ||
               dl_paste_find(&e->paste, 0, "docker run") < 0 ||
               dl_paste_find_any(&e->paste, runtime_given,
                                 sizeof runtime_given / sizeof runtime_given[0]) >= 0)
        return;
    else
        which = &devices_only;
    dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
    dl_text_cause_add(e, which, line, where == line ? -1 : where);
}

/* A shell prompt of a container ("root@5561000296a4:~#"): docker names the container's host
 * by the first 12 hex digits of its id. */
static bool container_prompt(const char *low)
{
    const char *at = strstr(low, "root@");
    size_t n;
    if (!at)
        return false;
    at += 5;
    n = strspn(at, "0123456789abcdef");
    return n == 12 && at[n] == ':';
}

/* The text puts the failing run inside a container: the marks of dl_container_named, the
 * writer's "docker container" or "docker image", a container's prompt. Kubernetes nodes
 * are left out: their driver is the node's, which an installer updates under running pods. */
static long mismatch_in_container_line(const dl_paste *p)
{
    static const char *const more[] = {"docker contain", "docker image", "container built",
                                       "lxd", "lxc container", "lxc exec"};
    static const char *const cluster[] = {"kubernetes", "k8s", "kubectl", "gke", "kind: pod",
                                          "daemonset", "nvidia.com/gpu", "gpu operator",
                                          "gpu-operator"};
    /* the host's own voice: nvidia-docker 1's plugin ("nvidia-docker | ... Error: nvml:"),
     * its service, the Container Toolkit's hook ("nvml error: driver/library version
     * mismatch: unknown", raised before the container exists), the kernel's NVRM lines, the
     * host's automatic upgrades */
    static const char *const host[] = {"nvidia-docker |", "nvidia-docker.service",
                                       "error: nvml:",    "nvml error:",
                                       "nvrm:",           "error running hook",
                                       "oci runtime create failed", "unattended-upgrade"};
    long i;
    if (dl_paste_find_any(p, cluster, sizeof cluster / sizeof cluster[0]) >= 0 ||
        dl_paste_find_any(p, host, sizeof host / sizeof host[0]) >= 0)
        return -1;
    if ((i = dl_paste_find_any(p, more, sizeof more / sizeof more[0])) >= 0)
        return i;
    for (i = dl_paste_find(p, 0, "root@"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "root@"))
        if (container_prompt(p->lines[i].lower))
            return i;
    return dl_container_named(p) ? 0 : -1;
}

void dl_explain_mismatch_inside_container(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "driver_library_mismatch");
    long line;
    if (!x || !dl_q_failure(x) || !dl_finding_fix_is_only(x, "sudo rmmod nvidia_uvm") ||
        dl_container_toolkit_ran(&e->paste) ||
        (line = mismatch_in_container_line(&e->paste)) < 0)
        return;
    dl_text_set(&x->title, "Inside a container, the NVIDIA driver libraries it loads differ from "
                           "the host's kernel module: libraries the image carries (a driver, "
                           "cuda-drivers or cuda-compat package installed in it), or a "
                           "container made before the host's driver was updated");
    if (line > 0)
        dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# inside the container, see whose libraries load: ls -l "
                      "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so* /usr/local/cuda/compat; a "
                      "version other than the host's nvidia-smi shows is the image's own: take "
                      "the driver out of the image (no nvidia-driver-*, cuda-drivers, "
                      "libnvidia-compute-* or .run driver in the Dockerfile; the NVIDIA "
                      "Container Toolkit mounts the host's) and rebuild it");
    dl_finding_fix(x, "# a container made before the host's driver was updated keeps the old "
                      "driver's files: remove it (docker rm with its name from docker ps -a) and "
                      "start a new one from the image with --gpus all");
    dl_finding_fix(x, "# when nvidia-smi on the host fails the same way, the host's driver was "
                      "updated under its running module: reboot the host");
    dl_strv_add(&e->ask, dl_strdup("`nvidia-smi` on the host (does it work?) and `ls -l "
                                   "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so*` inside the "
                                   "container"));
}

/* A container's shell prompt running nvidia-smi ("Singularity image:~> nvidia-smi",
 * "Apptainer> nvidia-smi") with the driver's header within the lines after it: the
 * container has the host's driver. The prompt's line; -1 when none. */
static long smi_answered_in_container(const dl_paste *p)
{
    long i, k;
    for (i = dl_paste_find(p, 0, "> nvidia-smi"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "> nvidia-smi")) {
        const char *low = p->lines[i].lower;
        while (*low == ' ' || *low == '$')
            low++;
        if (strncmp(low, "singularity", 11) && strncmp(low, "apptainer", 9))
            continue;
        for (k = i + 1; k < (long)p->count && k <= i + 4; k++)
            if (strstr(p->lines[k].lower, "driver version:"))
                return i;
    }
    return -1;
}

void dl_explain_driver_answers_in_container(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_too_old",
        "nvidia-smi answers inside the container, so the host's driver is bound into it; "
        "that driver is older than the CUDA runtime the program was built with",
        "# update the host's NVIDIA driver to one that supports the image's CUDA (nvidia-smi's "
        "\"CUDA Version\" must reach it), or use an image built for the CUDA the driver runs",
        {"docker_no_gpu_passthrough"},
        "`nvidia-smi` inside the container and the CUDA the image was built with"};
    static const char *const passthrough[] = {"docker_no_gpu_passthrough"};
    dl_finding *x = dl_findings_get(&e->findings, "driver_too_old");
    long line = smi_answered_in_container(&e->paste);
    if (!x || line < 0 || !dl_findings_has_failure(&e->findings, passthrough[0]) ||
        insufficient_driver_line(&e->paste) < 0)
        return;
    dl_text_causes_step_back(e, passthrough, 1);
    dl_text_set(&x->severity, dl_severity_name(DL_SEV_FAILURE));
    dl_quote_line(dl_text_cause_restate(e, &cause, line), &e->paste, (size_t)line);
}

/* An L4T release "rMAJ.MIN[.PATCH]" at `at` (after "l4t-" or an l4t image's ':'), as
 * MAJ*10000 + MIN*100 + PATCH; 0 when it is none. */
static long l4t_release_at(const char *at)
{
    long major, minor = 0, patch = 0;
    char *end;
    if (*at != 'r' || !isdigit((unsigned char)at[1]))
        return 0;
    major = strtol(at + 1, &end, 10);
    if (*end == '.')
        minor = strtol(end + 1, &end, 10);
    if (*end == '.')
        patch = strtol(end + 1, &end, 10);
    return major * 10000 + minor * 100 + patch;
}

/* The L4T release in the tag of a dustynv/ image ("dustynv/opencv:4.8.1-r36.2.0",
 * "dustynv/jetson-inference:r32.7.2"): jetson-containers tags each build with it, without
 * the "l4t-" word; 0 when the text names none. */
static long dustynv_image_release(const dl_paste *p, long *line)
{
    long i, release;
    for (i = dl_paste_find(p, 0, "dustynv/"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "dustynv/")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "dustynv/"); at; at = strstr(at + 8, "dustynv/")) {
            const char *tag = at + 8 + strcspn(at + 8, ": \t`'\"");
            if (*tag != ':')
                continue;
            for (tag++; *tag && !strchr(" \t`'\"", *tag); tag++)
                if (*tag == 'r' && (tag[-1] == ':' || tag[-1] == '-') &&
                    (release = l4t_release_at(tag)) / 10000 >= 28) {
                    *line = i;
                    return release;
                }
        }
    }
    return 0;
}

/* The L4T release an image's tag is built for ("dustynv/ros:foxy-pytorch-l4t-r32.5.0",
 * "nvcr.io/nvidia/l4t-pytorch:r32.4.2-pth1.5-py3", or a dustynv/ tag without "l4t-"); 0
 * when the text names none. */
static long l4t_image_release(const dl_paste *p, long *line)
{
    long i, release;
    for (i = dl_paste_find(p, 0, "l4t-"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "l4t-")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "l4t-"); at; at = strstr(at + 4, "l4t-")) {
            const char *tag = at + 4;
            if (*tag != 'r') {
                tag += strspn(tag, "abcdefghijklmnopqrstuvwxyz-");
                if (*tag++ != ':')
                    continue;
            }
            if ((release = l4t_release_at(tag)) > 0) {
                *line = i;
                return release;
            }
        }
    }
    return dustynv_image_release(p, line);
}

/* The Jetson's own L4T release from /etc/nv_tegra_release ("# R32 (release), REVISION:
 * 3.1"); 0 when the text has none. */
static long l4t_host_release(const dl_paste *p, long *line)
{
    long i = dl_paste_find(p, 0, "(release), revision:");
    const char *low, *r, *rev;
    long major, minor, patch = 0;
    char *end;
    if (i < 0)
        return 0;
    low = p->lines[i].lower;
    rev = strstr(low, "(release), revision:") + 20;
    for (r = rev - 20; r > low && r[-1] != 'r'; r--)
        ;
    if (r == low || !isdigit((unsigned char)*r))
        return 0;
    major = strtol(r, NULL, 10);
    minor = strtol(rev, &end, 10);
    if (*end == '.')
        patch = strtol(end + 1, NULL, 10);
    *line = i;
    return major * 10000 + minor * 100 + patch;
}

/* After a release's label ("l4t", "jetpack", "jp"): the separators and the word "version"
 * that may stand between it and the number ("L4T_VERSION=32.7.4", "JetPack version: 5.1",
 * "Jetpack6.2"). */
static const char *past_release_label(const char *at)
{
    at += strspn(at, " _=:-");
    if (!strncmp(at, "version", 7))
        at += 7;
    return at + strspn(at, " _=:-");
}

/* The L4T release a JetPack version stands for (JetPack 4 is R32; 5.0 and 5.0.1 are R34,
 * the later 5.x R35; 6 is R36), major release only; 0 when it is none. */
static long l4t_of_jetpack(const char *v)
{
    if (!isdigit((unsigned char)v[0]))
        return 0;
    if (v[0] == '5')
        return (!strncmp(v, "5.0", 3) && (v[3] != '.' || v[4] == '0' || v[4] == '1') &&
                !isdigit((unsigned char)v[3]))
                   ? 340000
                   : 350000;
    return v[0] == '4' ? 320000 : v[0] == '6' ? 360000 : v[0] == '7' ? 380000 : 0;
}

/* "32.7.4" or "r32.7.4" at v as an L4T release; 0 when it is none. */
static long l4t_release_number(const char *v)
{
    char r[24];
    size_t n = strspn(v + (*v == 'r'), "0123456789.");
    if (n == 0 || n + 2 > sizeof r)
        return 0;
    r[0] = 'r';
    memcpy(r + 1, v + (*v == 'r'), n);
    r[n + 1] = '\0';
    return l4t_release_at(r);
}

/* An L4T release the writer gives for the Jetson in prose ("on Jetson NX with version
 * r32.6", "L4T 32.6.1", "L4T_VERSION=32.7.4", "JetPack 4.6", "JP 4.6.1"), other than the
 * image's own `image`: on a line that names the board or its release, outside an image's
 * tag. JetPack gives only the major release. 0 when the text has none. */
static long l4t_release_in_prose(const dl_paste *p, long image, long *line)
{
    static const char *const words[] = {"jetson", "jetpack", "l4t", "host", "xavier", "orin",
                                        "jp"};
    size_t i, w;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *at;
        for (w = 0; w < sizeof words / sizeof words[0] && !strstr(low, words[w]); w++)
            ;
        if (w == sizeof words / sizeof words[0])
            continue;
        for (at = low; *at; at++) {
            long release = 0;
            bool word_start = at == low || !isalnum((unsigned char)at[-1]);
            if (!word_start || (at > low && (at[-1] == '-' || at[-1] == ':' || at[-1] == '/')))
                continue;
            if (!strncmp(at, "l4t", 3) && !isalpha((unsigned char)at[3]))
                release = l4t_release_number(past_release_label(at + 3));
            else if (!strncmp(at, "jetpack", 7))
                release = l4t_of_jetpack(past_release_label(at + 7));
            else if (!strncmp(at, "jp", 2) && !isalpha((unsigned char)at[2]))
                release = l4t_of_jetpack(past_release_label(at + 2));
            else if (at[0] == 'r' && isdigit((unsigned char)at[1]) &&
                     isdigit((unsigned char)at[2]) && at[3] == '.')
                release = l4t_release_at(at);
            if (release / 10000 >= 28 && release / 10000 <= 40 && release != image) {
                *line = (long)i;
                return release;
            }
        }
    }
    return 0;
}

void dl_explain_jetson_image_newer_than_l4t(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_too_old",
        "The container is built for a newer L4T (JetPack) release than the Jetson runs: on "
        "JetPack 4 (L4T R32) the NVIDIA runtime mounts the host's CUDA and cuDNN into the "
        "container, so an image for a newer L4T finds an older CUDA's libraries, or none",
        "# run the image whose l4t tag matches the Jetson's release (cat /etc/nv_tegra_release), "
        "or upgrade the Jetson to the JetPack of the image's L4T release",
        {"docker_no_gpu_passthrough"},
        "`cat /etc/nv_tegra_release` on the Jetson and the image's tag"};
    static const dl_text_cause major = {
        "driver_too_old",
        "The container is built for a later L4T (JetPack) release than the Jetson runs: the "
        "GPU driver is the host's, part of its JetPack, and an image of a later major L4T "
        "release needs that release's driver",
        "# run the image whose l4t tag matches the Jetson's release (cat /etc/nv_tegra_release), "
        "or flash the Jetson with the JetPack of the image's L4T release",
        {"docker_no_gpu_passthrough"},
        "`cat /etc/nv_tegra_release` on the Jetson and the image's tag"};
    static const char *const seen[] = {"docker_no_gpu_passthrough", "torch_import_failed",
                                       "ld_library_path_conflict", "wheel_tag_mismatch"};
    long image_line = -1, host_line = -1;
    long image = l4t_image_release(&e->paste, &image_line);
    long host = image ? l4t_host_release(&e->paste, &host_line) : 0;
    if (image && !host)
        host = l4t_release_in_prose(&e->paste, image, &host_line);
    if (!host || image <= host)
        return;
    /* an image of a later major release needs its JetPack's kernel driver; within R32 the
     * host's CUDA is mounted in; JetPack 5 and later images carry their own CUDA, so a later
     * minor release of those runs */
    if (image / 10000 == host / 10000 && (image / 10000 != 32 || host % 10000 == 0))
        return;
    dl_text_causes_step_back(e, seen, sizeof seen / sizeof seen[0]);
    if (!dl_text_cause_read(e))
        dl_text_cause_add(e, image / 10000 > host / 10000 ? &major : &cause, image_line,
                          host_line);
}

void dl_explain_driver_behind_container(dl_explanation *e)
{
    /* what a process inside a container without the GPU sees of the missing driver */
    static const char *const seen[] = {"no_driver_installed", "driver_not_loaded"};
    if (dl_findings_has_failure(&e->findings, "docker_no_gpu_passthrough"))
        dl_text_causes_step_back(e, seen, sizeof seen / sizeof seen[0]);
}

void dl_explain_container_gpu_reached(dl_explanation *e)
{
    /* only a torch that found the GPU names its capability or launches a kernel on it */
    static const char *const reached[] = {"with cuda capability sm_",
                                          "no kernel image is available for execution"};
    static const char *const arch[] = {"arch_not_in_wheel", "gpu_arch_dropped"};
    static const char *const passthrough[] = {"docker_no_gpu_passthrough"};
    size_t k;
    bool arch_failure = false;
    for (k = 0; k < sizeof arch / sizeof arch[0]; k++)
        arch_failure |= dl_findings_has_failure(&e->findings, arch[k]);
    if (arch_failure && dl_findings_has_failure(&e->findings, "docker_no_gpu_passthrough") &&
        dl_paste_find_any(&e->paste, reached, sizeof reached / sizeof reached[0]) >= 0)
        dl_text_causes_step_back(e, passthrough, 1);
}

/* A mark of Kubernetes, not the name of a CDI device ("nvidia.com/gpu=all",
 * "runtime.nvidia.com/gpu=0"), which Docker and Podman use too. */
static bool not_cdi_device(const char *low, const char *at, size_t len)
{
    return at[len] != '=' && !(at - low >= 8 && !strncmp(at - 8, "runtime.", 8));
}

/* Where the text puts the run in Kubernetes: a pod's spec, kubectl, or a managed cluster. */
static long kubernetes_line(const dl_paste *p)
{
    static const char *const marks[] = {
        "kubectl", "kind: pod", "kind: job", "kind: deployment", "kind: statefulset",
        "nvidia.com/gpu", "runtimeclassname", "kubernetes", "k8s", "microk8s", "k3s",
        " gke", "gke ", " eks ", " aks ", "kubelet"};
    return dl_paste_find_any_where(p, marks, sizeof marks / sizeof marks[0], not_cdi_device);
}

/* The finding's fix is Docker's (docker run --gpus, the compose file's devices), or none
 * of Kubernetes' own. */
static bool docker_fix(const dl_finding *x)
{
    size_t i;
    bool docker = x->fix.count == 0;
    for (i = 0; i < x->fix.count; i++) {
        const char *line = DL_LIST_AT(x->fix, char *, i);
        if (strstr(line, "nvidia.com/gpu") || strstr(line, "runtimeClassName") ||
            strstr(line, "default runtime"))
            return false;
        docker |= strstr(line, "docker") != NULL || strstr(line, "--gpus") != NULL ||
                  strstr(line, "below") != NULL;
    }
    return docker;
}

/* The pod's way to the GPU, where Docker's "docker run --gpus all" cannot be typed. */
static void kubernetes_fix(dl_finding *x)
{
    dl_finding_fix_clear(x);
    dl_fix_note(x, "a pod gets a GPU only from the NVIDIA device plugin (or the GPU Operator): "
                   "ask for it in the container's resources (limits: nvidia.com/gpu: 1), and "
                   "where nvidia is not the node's default runtime (containerd, k3s, microk8s) "
                   "add runtimeClassName: nvidia to the pod spec; check the node offers GPUs:");
    dl_finding_fix(x, "kubectl describe nodes | grep nvidia.com/gpu");
    dl_fix_note(x, "on GKE the driver is mounted at /usr/local/nvidia/lib64: put it on "
                   "LD_LIBRARY_PATH in the image, or build on an nvidia/cuda base image");
}

void dl_explain_gpu_passthrough_in_kubernetes(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "docker_no_gpu_passthrough",
        "A Kubernetes pod that got no GPU from the NVIDIA runtime: the container has no "
        "driver library (libcuda) and no nvidia-smi, so CUDA finds no driver",
        "# give the pod the GPU (below)",
        {"no_driver_installed"},
        "`kubectl describe pod` (its resources and runtimeClassName) and `nvidia-smi` on the "
        "node"};
    /* libcuda missing from a link step is no missing GPU: GKE mounts it where the linker
     * does not look (/usr/local/nvidia/lib64) */
    static const char *const seen[] = {"no_driver_installed", "driver_not_loaded"};
    dl_finding *x = dl_findings_get(&e->findings, "docker_no_gpu_passthrough");
    long line = kubernetes_line(&e->paste);
    size_t k;
    bool driver_missing = false;
    if (line < 0)
        return;
    for (k = 0; k < sizeof seen / sizeof seen[0]; k++)
        driver_missing |= dl_findings_has_failure(&e->findings, seen[k]);
    if (!x && driver_missing) {
        x = dl_text_cause_add(e, &cause, line, -1);
        dl_text_causes_step_back(e, seen, sizeof seen / sizeof seen[0]);
    }
    if (x && dl_q_failure(x) && docker_fix(x))
        kubernetes_fix(x);
}
