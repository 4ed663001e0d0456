#include "explain/dtype_note.h"

#include "base/str.h"

/* vLLM's check of the model's dtype against the GPU, and Triton's of an FP8 type; each
 * with what to load the model in instead. */
static const struct {
    const char *message, *note;
} formats[] = {
    {"bfloat16 is only supported on gpus with compute capability of at least 8.0",
     "the GPU (compute capability below 8.0) has no bfloat16, and the model is loaded in "
     "bfloat16: load it in float16 (vLLM --dtype half, or LLM(model=..., dtype=\"half\"); "
     "transformers torch_dtype=torch.float16); torch and the install are fine "
     "(vllm-project/vllm#946)"},
    {"type fp8e4nv not supported in this architecture",
     "the GPU is older than FP8 (e4m3) needs, compute capability 8.9 (Ada, Hopper, "
     "Blackwell), and the model or its compiled kernels ask for FP8: use the model's "
     "BF16/FP16 checkpoint (or an int4 one), or in ComfyUI the fp16 weights; torch and the "
     "install are fine"},
};

void dl_explain_dtype_beyond_gpu(dl_explanation *e)
{
    size_t k;
    for (k = 0; k < sizeof formats / sizeof formats[0]; k++)
        if (dl_paste_find(&e->paste, 0, formats[k].message) >= 0)
            dl_strv_add_once(&e->notes, formats[k].note);
}
