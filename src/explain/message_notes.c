#include "explain/message_notes.h"

#include "base/str.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"

/* Whether the text holds any of a static list of words (the list's own length). */
#define TEXT_HOLDS(e, words)                                                                   \
    (dl_paste_find_any(&(e)->paste, (words), sizeof(words) / sizeof((words)[0])) >= 0)

/* Lightning's banner with the GPU seen and not used, in both its forms below */
#define LIGHTNING_GPU_UNUSED                                                                   \
    "Lightning sees the GPU but the Trainer was not asked to use it: "                         \
    "Trainer(accelerator=\"gpu\", devices=1) (in darts: pl_trainer_kwargs={\"accelerator\": " \
    "\"gpu\", \"devices\": [0]}); torch and the install are fine"

/* Each message with its note: vLLM's check of the model's dtype against the GPU and
 * Triton's of an FP8 type (what to load the model in instead); torch's own warnings that
 * change nothing. */
static const struct {
    const char *message, *note;
    bool alone; /* when shown, the notes after it would mislead */
} messages[] = {
    /* vLLM's own floor: below it no dtype helps, so it comes before the bfloat16 note */
    {"gpus with compute capability below 7.0 are not supported",
     "vLLM runs only on GPUs of compute capability 7.0 or newer (Volta and later); this GPU "
     "is older (a P100 or GTX 10xx is 6.x), and no dtype or install changes that: run the "
     "model with transformers, llama.cpp or ollama, or on a newer GPU; torch and the install "
     "are fine (vllm-project/vllm#1284)",
     true},
    {"bfloat16 is only supported on gpus with compute capability of at least 8.0",
     "the GPU (compute capability below 8.0) has no bfloat16, and the model is loaded in "
     "bfloat16: load it in float16 (vLLM --dtype half, or LLM(model=..., dtype=\"half\"); "
     "transformers torch_dtype=torch.float16); torch and the install are fine "
     "(vllm-project/vllm#946)",
     false},
    {"current cuda device does not support bfloat16",
     "the GPU (compute capability below 8.0: a T4, V100, P100 or RTX 20xx) has no bfloat16, "
     "and the program asks for it: use float16 (torch.autocast(\"cuda\", dtype=torch.float16); "
     "transformers' fp16=True in place of bf16=True); torch and the install are fine",
     false},
    {"your setup doesn't support bf16/gpu",
     "the GPU (compute capability below 8.0: a T4, V100, P100 or RTX 20xx) has no bfloat16, "
     "and the trainer was asked for it: set fp16=True in place of bf16=True (or "
     "--fp16/--bf16 False); torch and the install are fine",
     false},
    {"feature '.bf16' requires .target sm_80",
     "a Triton kernel (torch.compile, a fused optimizer) was compiled for bfloat16 on a GPU "
     "older than compute capability 8.0, which has none: run in float16 or float32; torch and "
     "the install are fine",
     false},
    {"bf16 is only supported on a100+ gpus",
     "xformers' kernel needs bfloat16 on compute capability 8.0 or newer and this GPU is "
     "older: load the model in float16; torch and the install are fine",
     false},
    /* Lightning's banner, older and newer forms: torch sees the GPU, and the Trainer was not
     * given it (unit8co/darts#801) */
    {"gpu available: true (cuda), used: false",
     LIGHTNING_GPU_UNUSED,
     false},
    {"gpu available: true, used: false",
     LIGHTNING_GPU_UNUSED,
     false},
    {"pytorch is not linked with support for xpu devices",
     "the program asks for Intel's xpu device and this torch has no XPU backend: on an NVIDIA "
     "machine set the program's device to cuda; for an Intel GPU install torch's XPU build "
     "(python -m pip install torch torchvision --index-url https://download.pytorch.org/whl/xpu, "
     "torch 2.5 or later), or with intel_extension_for_pytorch import it first",
     false},
    {"type fp8e4nv not supported in this architecture",
     "the GPU is older than FP8 (e4m3) needs, compute capability 8.9 (Ada, Hopper, "
     "Blackwell), and the model or its compiled kernels ask for FP8: use the model's "
     "BF16/FP16 checkpoint (or an int4 one), or in ComfyUI the fp16 weights; torch and the "
     "install are fine",
     false},
    /* torchvision/io/image.py only warns: its image ops load lazily */
    {"failed to load image python extension",
     "torchvision's image extension did not load, which matters only to code that decodes "
     "images with torchvision.io (decode_jpeg, read_image); a missing libnvjpeg or libjpeg "
     "belongs to a torchvision built from source (rebuild with TORCHVISION_USE_NVJPEG=0, or "
     "take PyTorch's wheel of the version made for this torch)",
     false},
    /* kijai's nodes (WanVideoWrapper#407, #10): an attention backend to choose, not a
     * dependency */
    {"no module named 'sageattention'",
     "SageAttention is an optional attention kernel: choose sdpa (PyTorch's own) as the "
     "attention mode in the loader node or the program's settings, or install a SageAttention "
     "wheel built for this torch, its CUDA and this Python (on Windows it needs "
     "triton-windows too); torch and the install are fine",
     false},
    /* SYCL's refusal of a double-precision kernel (intel/intel-extension-for-pytorch#699,
     * #285): Arc and other client GPUs have no FP64 */
    {"required aspect fp64 is not supported",
     "Intel's client GPUs (Arc, Iris Xe) have no double precision (FP64), and the operation "
     "ran a kernel that needs it: torch 2.4's XPU build targets the Data Center GPU Max only, "
     "so on Arc use torch 2.5 or later from https://download.pytorch.org/whl/xpu (python -m pip "
     "install torch --index-url https://download.pytorch.org/whl/xpu), and keep tensors in "
     "float32 (no .double(), no float64 NumPy arrays turned into tensors)",
     false},
    /* the same missing FP64 through DirectML, and through IPEX's compiler on Arc */
    {"does not support double (float64) operations",
     "this GPU (Intel Arc and Iris Xe, many integrated GPUs) has no double precision (FP64), "
     "and the program sent a float64 tensor to it: keep tensors in float32 (no .double(), "
     "convert float64 NumPy arrays with .float() before .to(device), do float64 printing and "
     "conversion on the CPU); the install is fine",
     false},
    {"double type is not supported on this platform",
     "this GPU (Intel Arc and Iris Xe) has no double precision (FP64), and the program ran "
     "a float64 kernel on it: keep tensors in float32 (no .double(), float64 NumPy arrays "
     "converted with .float() first); Intel's driver can emulate FP64 when the variables "
     "OverrideDefaultFP64Settings=1 and IGC_EnableDPEmulation=1 are set, slowly; the "
     "install is fine",
     false},
    /* MPS: an allocator setting of the user's, and a padding mode without an MPS kernel */
    {"invalid low watermark ratio",
     "PYTORCH_MPS_HIGH_WATERMARK_RATIO is set below the low watermark ratio MPS uses (1.4 "
     "by default on Apple silicon): unset it, or set PYTORCH_MPS_LOW_WATERMARK_RATIO to a value "
     "no higher than it; torch and the install are fine (kohya-ss/sd-scripts#603)",
     false},
    /* an operator without an MPS kernel; the fallback variable is read when torch starts
     * (pytorch/pytorch#86195: set from inside a running notebook, too late) */
    {"is not currently implemented for the mps device",
     "this torch has no MPS kernel for that operator: set PYTORCH_ENABLE_MPS_FALLBACK=1 "
     "before Python starts (export it in the shell, or conda env config vars set and "
     "activate the environment again; setting it inside a running notebook is too late) to "
     "run that operator on the CPU, or use a newer torch that has it; torch and the install "
     "are fine",
     false},
    /* MPS has no double type (pytorch/pytorch#122602: expected behaviour) */
    {"cannot convert a mps tensor to float64 dtype",
     "the MPS device has no float64: make the tensor float32 before moving it to mps "
     "(tensor.float(), or float32 numpy arrays and torch.set_default_dtype(torch.float32)); "
     "torch and the install are fine",
     false},
    {"mps: unsupported border padding mode",
     "grid_sample's border padding has no MPS kernel before torch 2.13, and "
     "PYTORCH_ENABLE_MPS_FALLBACK does not cover it: upgrade torch, or run that grid_sample on "
     "the CPU (pytorch/pytorch#125098)",
     false},
    /* inductor asks for the CUDA architecture while it compiles, even for the CPU, and logs
     * the answer of a torch without CUDA (pytorch/pytorch#151650, fixed by PR #151528) */
    {"error getting cuda arch: torch not compiled with cuda enabled",
     "\"Error getting cuda arch\" is torch.compile's (inductor's) log line, printed when it "
     "compiles for the CPU with a torch that has no CUDA: on a machine without an NVIDIA GPU "
     "it is harmless (a torch bug, pytorch/pytorch#151650); with a GPU that should be used, "
     "the torch is the CPU-only build. Judge the run by the error after it, if any",
     false},
    /* ROCm builds answer to the cuda device type; "hip" has no kernels registered
     * (Cambridge-ICCS/FTorch PR #385) */
    {"with arguments from the 'hip' backend",
     "ROCm builds of torch expose the AMD GPU as the cuda device: the code asked for the "
     "hip device type, which has no kernels; use torch.device(\"cuda\") (or .to(\"cuda\")), "
     "torch.version.hip tells it is a ROCm build; torch and the install are fine",
     false},
    /* quantized ops run on the engine torch.backends.quantized.engine names; fbgemm is
     * x86-only (pytorch/pytorch#123507, has workaround) */
    {"didn't find engine for operation quantized::",
     "the quantized engine in use (fbgemm or x86) does not exist on this CPU, most often an "
     "ARM one (Apple silicon, aarch64, Jetson): set torch.backends.quantized.engine = "
     "\"qnnpack\" before preparing the model (and get_default_qconfig(\"qnnpack\")); if "
     "torch.backends.quantized.supported_engines lists only 'none', this torch was built "
     "without one: use an official wheel",
     false},
    {"quantized engine qnnpack is not supported",
     "this torch was built without the QNNPACK quantized engine: "
     "torch.backends.quantized.supported_engines lists what it has; on ARM use an official "
     "wheel (or NVIDIA's for a Jetson), which has QNNPACK",
     false},
    /* Triton's launch check of a kernel's on-chip shared memory (triton/compiler/
     * compiler.py); the limit is the GPU's, per block, not its VRAM */
    {"out of resource: shared memory",
     "a Triton kernel asks for more on-chip shared memory per block than this GPU has (the "
     "Hardware limit: 49152 on Pascal, 65536 on Turing, about 100 KB on consumer Ampere and "
     "Ada, 227 KB on A100 and H100); this is not GPU memory (VRAM): use the project's "
     "setting or patch for smaller block sizes or num_stages, or a GPU it supports; torch "
     "and the install are fine",
     false},
    /* torch's own check before an FP8 matrix multiply (aten/src/ATen/native/cuda/Blas.cpp) */
    {"_scaled_mm is only supported on cuda devices with compute capability",
     "the GPU is older than FP8 matrix multiplies need (compute capability 8.9: Ada, Hopper, "
     "Blackwell), and the program asks for them (ComfyUI's --fast, an fp8 weight dtype): run "
     "without --fast and load the model in fp16 or bf16; torch and the install are fine",
     false},
    /* xformers tries to import triton at start and logs the failure; Triton had no Windows
     * builds, and xformers runs without it (stable-diffusion-webui-forge#1139,
     * invoke-ai/InvokeAI#4055) */
    {"a matching triton is not available",
     "xformers' \"A matching Triton is not available, some optimizations will not be "
     "enabled\" (with its \"No module named 'triton'\") is a warning: xformers runs without "
     "Triton, which had no Windows builds; nothing needs installing for it. Judge the run "
     "by the error after it, if any",
     false},
    /* NCCL's check that each rank has a GPU of its own (init.cc): the program's launch, not
     * the environment (facebookresearch/ViewDiff#24: four processes, one GPU) */
    {"duplicate gpu detected",
     "NCCL's \"Duplicate GPU detected\" says two ranks run on the same GPU: more processes "
     "were launched than there are GPUs (accelerate's num_processes, torchrun's "
     "--nproc_per_node), or the program never moves each rank to its own device; launch one "
     "process per GPU and call torch.cuda.set_device(local_rank) before "
     "init_process_group; torch and the install are fine",
     false},
    /* libdrm's table of AMD GPU names, looked for where a ROCm install would put it; the
     * wheels run without it (ROCm/pytorch#984, from AMD) */
    {"amdgpu.ids: no such file or directory",
     "\"amdgpu.ids: No such file or directory\" is harmless: libdrm looks for its table of "
     "AMD GPU names where a full ROCm install keeps it, and torch's ROCm wheels run without "
     "it; to silence it, install the distribution's libdrm-amdgpu-common (or link "
     "/usr/share/libdrm/amdgpu.ids to the path it names). Judge the run by the error after "
     "it, if any",
     false},
    /* WSL's libcuda files are copies, not links, so every ldconfig run (an apt install)
     * warns (microsoft/WSL#5663) */
    {"libcuda.so.1 is not a symbolic link",
     "ldconfig's warning that /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link is "
     "harmless: Windows puts WSL's libcuda files there as copies, not links, and CUDA loads "
     "them all the same. Judge the machine by the error after it, if any",
     false},
    /* Python's own "python.exe: can't open file 'x.py': [Errno 2]": a launcher (torchrun,
     * accelerate) reports its child's exit after it, which is no distributed fault */
    {"can't open file",
     "Python could not open the script it was given (\"can't open file ... [Errno 2] No such "
     "file or directory\"): run the command from the folder that holds the script, or give "
     "its path; the launcher's errors after it (exitcode 2, the socket warnings) follow from "
     "that, and torch and the install are not judged by them",
     false},
    /* torch 2.1-2.3 pre-open cuDNN 8's cnn_infer by its bare name (pytorch PR #98644);
     * cuDNN itself finds it beside the pip wheel's other libraries */
    {"userwarning: attempt to open cnn_infer failed",
     "torch's warning \"Attempt to open cnn_infer failed\" is harmless: torch 2.1 to 2.3 "
     "look for cuDNN's cnn_infer library by name, and cuDNN loads it itself; it stops with "
     "a cuDNN 9 torch (2.4 and later), or when the pip cuDNN's lib folder is on "
     "LD_LIBRARY_PATH. Judge the run by the error after it, if any",
     false},
};

void dl_explain_message_notes(dl_explanation *e)
{
    size_t k;
    for (k = 0; k < sizeof messages / sizeof messages[0]; k++)
        if (dl_paste_find(&e->paste, 0, messages[k].message) >= 0) {
            dl_strv_add_once(&e->notes, messages[k].note);
            if (messages[k].alone)
                return;
        }
}

/* A PermissionError from the program's own files (a checkpoint, an output folder, a model
 * cache) while it runs: another process holds the file or the user cannot write there.
 * pip's own failures, the GPU's device files and the compile caches have their rows. */
void dl_explain_program_file_locked_note(dl_explanation *e)
{
    static const char *const errors[] = {"permissionerror: [winerror 32]",
                                         "permissionerror: [winerror 5]",
                                         "permissionerror: [errno 13]"};
    static const char *const elsewhere[] = {
        "pip/_internal", "pip\\_internal", "could not install packages", "/dev/nvidia",
        "torch_extensions", "torchinductor_", "triton", "dll load failed", "site-packages\\torch\\lib",
        "uninstalling", "~orch"};
    if (dl_text_cause_read(e) || !TEXT_HOLDS(e, errors) || TEXT_HOLDS(e, elsewhere))
        return;
    dl_strv_add_once(&e->notes,
                     "a file or folder the program itself opens is held by another process "
                     "([WinError 32]: another run, an editor, antivirus or a sync client such "
                     "as OneDrive) or is not writable by this user ([Errno 13], [WinError 5]): "
                     "close what holds it, or point the program's output or cache folder "
                     "elsewhere (its output directory, HF_HOME); torch and the install are "
                     "not the cause");
}

/* NVIDIA's GB10 (DGX Spark) shares the CPU's memory: NVML answers "Not Supported" for its
 * memory by design (the DGX Spark known issues), and tools that size the GPU by it report
 * no GPU (unsloth PR #10703) though driver and torch work. */
bool dl_text_unified_memory_unreported(const dl_paste *p)
{
    static const char *const chips[] = {"gb10", "dgx spark", "sm_121"};
    static const char *const unreported[] = {"nvmlerror_notsupported", "not supported",
                                             "[n/a]", "\"memory_total_gb\": null",
                                             "vram unknown", "0.00 gib"};
    static const char *const cpu_build[] = {"+cpu", "cuda used to build pytorch: none",
                                            "not compiled with cuda"};
    return dl_paste_find_any(p, chips, sizeof chips / sizeof chips[0]) >= 0 &&
           dl_paste_find_any(p, unreported, sizeof unreported / sizeof unreported[0]) >= 0 &&
           dl_paste_find_any(p, cpu_build, sizeof cpu_build / sizeof cpu_build[0]) < 0;
}

void dl_explain_unified_memory_note(dl_explanation *e)
{
    if (dl_text_cause_read(e) || !dl_text_unified_memory_unreported(&e->paste))
        return;
    dl_strv_add_once(&e->notes,
                     "the GB10 (DGX Spark) shares the CPU's memory, and NVML and nvidia-smi "
                     "report no GPU memory for it by design: a tool that sizes the GPU by "
                     "NVML then finds none; driver and torch are fine: update the tool, which "
                     "should read torch.cuda.mem_get_info() instead");
}

/* CUDA tensors handed between processes travel by CUDA IPC, which Windows does not offer
 * (pytorch/pytorch#36037) and WSL 2 does not either (NVIDIA's CUDA on WSL guide): the
 * receiving side fails whatever the install. */
void dl_explain_cuda_ipc_note(dl_explanation *e)
{
    static const char *const sharing[] = {"storagesharing.cpp", "_new_shared_cuda",
                                          "rebuild_cuda_tensor", "cuda ipc"};
    bool windows = dl_q_text_is(&e->facts.os.family, "windows"),
         wsl = dl_q_is_wsl(&e->facts) || dl_paste_find(&e->paste, 0, "wsl") >= 0;
    if (dl_text_cause_read(e) || (!windows && !wsl) ||
        !TEXT_HOLDS(e, sharing))
        return;
    dl_strv_add_once(&e->notes,
                     "CUDA tensors passed between processes (torch.multiprocessing, a queue, "
                     "DataLoader workers that return CUDA tensors) travel by CUDA IPC, which "
                     "Windows does not offer and WSL 2 does not either: pass CPU tensors and "
                     "move them to the GPU in the receiving process (or use the program's "
                     "option that avoids sharing); torch and the install are fine");
}

/* CUDA used in a process forked after the parent initialised it (a DataLoader worker, a
 * multiprocessing pool started with fork): the CUDA runtime cannot work there. Older torch
 * says only "initialization error" (error 3); newer says so in words. The program's code,
 * not the install (pytorch/pytorch#2517, #40403). */
void dl_explain_cuda_in_forked_worker_note(dl_explanation *e)
{
    static const char *const workers[] = {"_worker_loop", "dataloader worker", "worker.py",
                                          "collate", "multiprocessing", "process-",
                                          "forkpoolworker", "celery", "gunicorn"};
    /* servers and task queues fork their workers themselves: spawn is not theirs to pick */
    static const char *const servers[] = {"gunicorn", "--preload", "celery", "forkpoolworker",
                                          "uwsgi"};
    static const char *const errors[] = {"cuda error: initialization error",
                                         "error=3 : initialization error",
                                         "cuda runtime error (3) : initialization error",
                                         "cuda error (3): initialization error"};
    if (dl_text_cause_read(e) || dl_paste_find(&e->paste, 0, "nvidia-container-cli") >= 0 ||
        (dl_paste_find(&e->paste, 0, "cannot re-initialize cuda in forked subprocess") < 0 &&
         (!TEXT_HOLDS(e, errors) || !TEXT_HOLDS(e, workers))))
        return;
    if (TEXT_HOLDS(e, servers)) {
        dl_strv_add_once(&e->notes,
                         "CUDA was started in the server's or queue's parent process (a model "
                         "loaded, even torch.cuda.is_available() called, at import or under "
                         "gunicorn's --preload), and the workers it forked cannot use it: load "
                         "the model in each worker instead (gunicorn: no --preload, the model "
                         "in post_worker_init or at the first request; Celery: a "
                         "worker_process_init handler, or --pool=solo / --pool=threads); torch "
                         "and the install are fine");
        return;
    }
    dl_strv_add_once(&e->notes,
                     "CUDA was used in a worker process forked after the parent had started "
                     "CUDA (a DataLoader worker, a multiprocessing pool), where CUDA cannot "
                     "work: keep the Dataset and collate_fn on the CPU and move each batch to "
                     "the GPU in the training loop (torch.load(..., map_location=\"cpu\") in "
                     "the dataset), or num_workers=0, or workers started with spawn "
                     "(multiprocessing_context=\"spawn\", with the script's code under if "
                     "__name__ == \"__main__\":); torch and the install are fine");
}

/* A half-precision operation that only the CPU kernels lack ("addmm_impl_cpu_" not
 * implemented for 'Half'): the model runs in float16 on the CPU, because no GPU is seen or
 * the model was never moved to it. Not an install fault by itself (transformers#27769). */
void dl_explain_half_on_cpu_note(dl_explanation *e)
{
    static const char *const cpu_kernels[] = {"_cpu_\"", "_cpu\"", "layernormkernelimpl",
                                               "cpu_\" not"};
    long i = dl_paste_find(&e->paste, 0, "not implemented for 'half'");
    if (i < 0 || dl_text_cause_read(e) ||
        !dl_line_has_any(e->paste.lines[i].lower, cpu_kernels,
                         sizeof cpu_kernels / sizeof cpu_kernels[0]))
        return;
    dl_strv_add_once(&e->notes,
                     "the model runs in float16 on the CPU, whose kernels lack some half-precision "
                     "operations: either torch sees no GPU (python -c \"import torch; "
                     "print(torch.__version__, torch.cuda.is_available())\" tells) or the model "
                     "was never moved to it; on a machine without a GPU load it in float32 "
                     "(torch_dtype=torch.float32, or model.float())");
}

/* In a notebook, a package installed in this session that does not import (or imports an
 * older copy): the running kernel still holds what it loaded before the install, and sees
 * the new files only after a restart (Project-MONAI/MONAI#1040: restarting the runtime fixed
 * it). A note, since the install itself is fine. */
void dl_explain_notebook_restart_note(dl_explanation *e)
{
    static const char *const notebook[] = {"colab", "jupyter", "ipython-input", "localhost:8080",
                                           "notebook", "kaggle"};
    static const char *const installed[] = {"!pip install", "%pip install", "previous cell",
                                             "installed in the cell", "just installed"};
    static const char *const failing[] = {"no module named", "cannot import name"};
    if (dl_text_cause_read(e) ||
        !TEXT_HOLDS(e, notebook) || !TEXT_HOLDS(e, installed) || !TEXT_HOLDS(e, failing))
        return;
    dl_strv_add_once(&e->notes,
                     "a package installed with pip inside a running notebook is not seen (or "
                     "an older copy stays loaded) until the kernel restarts: Runtime > Restart "
                     "session in Colab, Kernel > Restart in Jupyter, then run the cells from the "
                     "top again, skipping the install cell; if it still does not import, !pip "
                     "installed it into another Python than the kernel's: install with %pip "
                     "install in the notebook, which uses the kernel's own");
}

/* Paddle's loader tries libcuda.so first where the driver's library is not (the CUDA
 * toolkit's folder, the unversioned name) and warns, then finds the driver's copy (WSL's
 * /usr/lib/wsl/lib, the driver's /usr/lib): when the GPU opens after the warning, the
 * warning is noise. */
void dl_explain_paddle_libcuda_warning_note(dl_explanation *e)
{
    if (dl_text_cause_read(e) || dl_paste_find(&e->paste, 0, "paddle depends on") < 0 ||
        !dl_text_gpu_self_check_passed(&e->paste))
        return;
    dl_strv_add_once(&e->notes,
                     "Paddle's warning that libcuda.so \"is not configured correctly\" comes from "
                     "its first try (a folder or a file name where the driver's library is not); "
                     "the GPU opened after it (its device note or self-check), so the driver's "
                     "library was found and the GPU works: the warning can be ignored");
}
