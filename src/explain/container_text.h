/* Readings of texts from inside containers (Docker, NVIDIA's images, a Jetson's containers)
 * that the signatures alone read otherwise or not at all. */
#ifndef DLENV_EXPLAIN_CONTAINER_TEXT_H
#define DLENV_EXPLAIN_CONTAINER_TEXT_H

#include "explain/explain.h"

/* A container that sees no GPU on a Jetson (Orin, Xavier, Nano; L4T, JetPack), with a torch
 * whose version is a plain release (1.12.0, 2.1.0: no ".nv" tag, no "a0" pre-release):
 * that is pip's aarch64 wheel, which has no CUDA for a Jetson's integrated GPU, while
 * NVIDIA's Jetson builds say ".nv22.3" or "a0+<commit>". Returns "" there (the signature
 * for a Jetson's container reads cpu_only_build, so the container's runtime is not the
 * reading), else `id`. Called where a signature reads docker_no_gpu_passthrough. */
const char *dl_container_jetson_torch(const dl_paste *p, const dl_facts *f, const char *id);

/* The text shows the NVIDIA Container Toolkit's own error (nvidia-container-cli, its
 * prestart hook failing): the toolkit runs only for a container that asked for the GPUs, so
 * "started without GPU access" is not the reading there. */
bool dl_container_toolkit_ran(const dl_paste *p);

/* The run is inside a container by the writer's words, commands or image ("in a docker",
 * "inside the container", docker run, a Dockerfile, a k8s pod, an image such as nvcr.io/...
 * or nvidia/cuda:...-devel-ubuntu22.04): not a "Docker version" line among the tools listed,
 * which dl_text_in_container (any "docker") takes too. */
bool dl_container_named(const dl_paste *p);

/* The text starts the container with the GPUs: docker's --gpus or NVIDIA runtime,
 * nvidia-docker, a compose file's device reservation, Kubernetes' GPU resource. */
bool dl_container_given_gpus(const dl_paste *p);

/* torch.cuda.is_available() is False inside a container the text shows started WITH the
 * GPUs (nvidia-docker, --gpus, --runtime=nvidia, a compose file's GPU reservation), and
 * nothing else was found: the container was asked for the GPU and torch still sees none,
 * whose cause the text does not give (a host driver older than the image's CUDA, a CPU
 * build in the image, a toolkit that did not hook the devices): no_gpu_visible, with
 * those as candidates and `nvidia-smi` inside the container as the question. */
void dl_explain_container_gpus_given_unavailable(dl_explanation *e);

/* A container started with the GPUs whose nvidia-smi shows the GPU (the writer says so),
 * where torch still runs on the CPU or sees no GPU: the image's torch, most often a CPU
 * build (cpu_only_build; a CUDA newer than the host's driver the candidate). */
void dl_explain_container_sees_gpu_torch_does_not(dl_explanation *e);

/* "CUDA driver version is insufficient for CUDA runtime version" (cudaErrorInsufficientDriver,
 * error 35) read as driver_too_old, inside a container the writer names (not merely a
 * "Docker version" line), started with no GPU option the text shows, where the host's driver
 * runs CUDA 12 or newer and torch's CUDA (if given) is not newer than it: CUDA's runtime
 * gives error 35 also when it finds no libcuda at all, which is a container started without
 * the GPU, and a CUDA 12 driver runs every CUDA 12 runtime (minor-version compatibility).
 * The container's GPU access becomes the reading, the old driver its candidate. */
void dl_explain_insufficient_driver_in_container(dl_explanation *e);

/* CUDA's "driver version is insufficient" beside a Singularity/Apptainer run without --nv
 * (or --nvccli): the container has no libcuda of the host's, which the runtime reports as
 * an insufficient driver (panda-autograsp#150); not an old driver on the host. The same for
 * a docker run that passes only the device files (--device /dev/nvidia0) without the NVIDIA
 * runtime, which alone mounts the driver's libraries (NVIDIA/nvidia-docker#24). */
void dl_explain_insufficient_driver_without_gpu_runtime(dl_explanation *e);

/* driver_library_mismatch with the host's fix (reboot, reload the module) where the text
 * puts the failure inside a container (not a Kubernetes pod, and not the Container
 * Toolkit's own error, which is the host's): the libraries the container loads are the
 * image's own (a driver or cuda-compat package installed in it: nvidia-docker#528,
 * E4S-Project/e4s#172) or those of a container made before the host's driver update
 * (nvidia-docker#365, #737). The fix checks whose libraries load, then rebuilds the image
 * without the driver or recreates the container; the host's reboot comes last. */
void dl_explain_mismatch_inside_container(dl_explanation *e);

/* nvidia-smi run at a Singularity/Apptainer prompt answers with the driver's header, while
 * CUDA's runtime calls the driver insufficient and a reading put it on the container's GPU
 * access (no --nv in a command cut short): the container has the host's driver, so the
 * driver's age is the cause and the access its candidate (tensorflow#21832: driver 352 and a
 * CUDA 9 image). */
void dl_explain_driver_answers_in_container(dl_explanation *e);

/* A Jetson image tagged for a later L4T release ("l4t-r32.5.0", "l4t-pytorch:r32.4.2",
 * "dustynv/opencv:4.8.1-r36.2.0") than the host runs (/etc/nv_tegra_release, or the
 * writer's "L4T 32.7.4", "JetPack 4.6", "JP 4.6.1"): an image of a later major release needs
 * that JetPack's kernel driver (jetson-containers#149, #456); within R32, JetPack 4's
 * runtime mounts the host's CUDA into the container, which then misses the libraries its
 * torch needs (jetson-containers#126). driver_too_old (the host's L4T is behind), in place
 * of the passthrough and import readings of the same missing library. */
void dl_explain_jetson_image_newer_than_l4t(dl_explanation *e);

/* A container started without the GPU (a signature read it: Singularity without --nv, an
 * enroot image without NVIDIA_VISIBLE_DEVICES, docker without --gpus) and a missing or
 * unloaded driver read from the same symptom ("Found no NVIDIA driver"): inside such a
 * container no driver is what the process sees, so the driver readings step back to
 * candidates and the container is the cause. */
void dl_explain_driver_behind_container(dl_explanation *e);

/* A container's missing GPU access read (docker's "Unknown runtime specified nvidia") beside
 * torch naming the GPU's capability or launching a kernel on it, with the GPU's architecture
 * missing from the wheel read too: the container reached the GPU (the writer got past the
 * first error, "--gpus all got me further"), so the architecture is the cause and the
 * container's access its candidate. */
void dl_explain_container_gpu_reached(dl_explanation *e);

/* The text puts the run in a Kubernetes pod (a pod spec, kubectl, nvidia.com/gpu, a managed
 * cluster): a container without the GPU gets the pod's fix (the device plugin's resource
 * limit, runtimeClassName, GKE's driver folder), not Docker's, and a driver or libcuda
 * "missing" inside it is that pod's missing GPU. */
void dl_explain_gpu_passthrough_in_kubernetes(dl_explanation *e);

#endif
