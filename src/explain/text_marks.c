#include "explain/text_marks.h"

#include "plan/gpu_names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* True when every `word` on `low` comes right after one of the n words `before` ("no ",
 * "without "): the writer denies it each time. */
static bool every_word_denied(const char *low, const char *word, const char *const *before,
                              size_t n)
{
    const char *at;
    size_t k;
    for (at = strstr(low, word); at; at = strstr(at + 1, word)) {
        bool denied = false;
        for (k = 0; k < n && !denied; k++) {
            size_t len = strlen(before[k]);
            denied = (size_t)(at - low) >= len && !strncmp(at - len, before[k], len);
        }
        if (!denied)
            return false;
    }
    return true;
}

/* "no gpu support", "without CUDA support": the writer describes a machine or a build
 * without the GPU, which asks nothing about it; true when every `word` on `low` is so. */
static bool setup_without_gpu(const char *low, const char *word)
{
    static const char *const without[] = {"no gpu ", "no cuda ", "without gpu ",
                                          "without cuda "};
    return every_word_denied(low, word, without, sizeof without / sizeof without[0]);
}

/* Every "cuda" of the line is the writer's "no CUDA" / "without CUDA" (a machine or setup
 * without it: "torch 1.3.0, no CUDA"): that line asks nothing of CUDA. */
static bool cuda_denied(const char *low)
{
    static const char *const denials[] = {"no ", "without ", "w/o ", "non-", "non "};
    return every_word_denied(low, "cuda", denials, sizeof denials / sizeof denials[0]);
}

/* "cuda" on the line other than inside a library's file name (libcudart.so.13,
 * libcuda.so.1): a loader's message names the library, not a wish for CUDA. */
static bool cuda_outside_library_name(const char *low)
{
    const char *at;
    for (at = strstr(low, "cuda"); at; at = strstr(at + 1, "cuda"))
        if (at - low < 3 || strncmp(at - 3, "lib", 3) != 0)
            return true;
    return false;
}

bool dl_text_wants_cuda(const dl_paste *p)
{
    /* collect_env's own labels, package rows and cuDNN files ("GPU models and configuration:
     * No CUDA", "[pip3] nvidia-cuda-runtime-cu12==...", "/usr/local/cuda/lib/libcudnn.so.9")
     * name CUDA in every report, wanted or not */
    static const char *const labels[] = {"cuda used to build", "is cuda available",
                                         "cuda_module_loading", "cuda runtime version",
                                         "gpu models and configuration", "nvidia driver version",
                                         "[pip3] nvidia-", "[pip] nvidia-", "[conda] nvidia-",
                                         "[conda] pytorch-cuda", "[conda] cuda-",
                                         "cudnn version", "/libcudnn"};
    /* or asks whether torch still supports the GPU, in a few languages ("unterstützt",
     * "不支持", "не поддерживает") */
    static const char *const support[] = {"support", "unterst\xc3\xbctz",
                                          "\xe6\x94\xaf\xe6\x8c\x81",
                                          "\xd0\xbf\xd0\xbe\xd0\xb4\xd0\xb4\xd0\xb5\xd1\x80\xd0\xb6"};
    size_t i, k;
    long at;
    for (k = 0; k < sizeof support / sizeof support[0]; k++)
        for (at = dl_paste_find(p, 0, support[k]); at >= 0;
             at = dl_paste_find(p, (size_t)at + 1, support[k]))
            if (!setup_without_gpu(p->lines[at].lower, support[k]))
                return true;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        bool label = false;
        if (!cuda_outside_library_name(low))
            continue;
        for (k = 0; k < sizeof labels / sizeof labels[0]; k++)
            label |= strstr(low, labels[k]) != NULL;
        if (!label && !cuda_denied(low))
            return true;
    }
    return false;
}

bool dl_text_shows_error(const dl_paste *p)
{
    return dl_paste_find(p, 0, "traceback (most recent call last)") >= 0 ||
           dl_paste_find(p, 0, "error:") >= 0;
}

/* A line that is the word False alone (the REPL's answer). */
static bool only_false(const char *low)
{
    low += strspn(low, " \t");
    if (strncmp(low, "false", 5) != 0)
        return false;
    low += 5;
    return low[strspn(low, " \t\r")] == '\0';
}

/* A script's "assert torch.cuda.is_available(), ..." whose AssertionError the text shows
 * within the next few lines: the assertion failing is is_available() returning False, said
 * in the form a traceback writes it. -1 when none. */
static long failed_availability_assert(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "is_available"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "is_available")) {
        const char *low = p->lines[i].lower;
        long err = dl_paste_find(p, (size_t)i, "assertionerror");
        low += strspn(low, " \t>");
        if (strncmp(low, "assert ", 7) == 0 && err >= i && err <= i + 3)
            return i;
    }
    return -1;
}

/* A line that is the word False alone once quotes and markdown are set aside ("`False`",
 * "\"False\".", "Out[3]: False"). */
static bool false_alone(const char *low)
{
    char word[16];
    size_t n;
    const char *out = strstr(low, "]:");
    if (!strncmp(low + strspn(low, " \t"), "out[", 4) && out)
        low = out + 2;
    low += strspn(low, " \t>`'\"*");
    n = strcspn(low, "`'\"*.!\r");
    if (n >= sizeof word || low[n + strspn(low + n, "`'\"*.! \t\r")] != '\0')
        return false;
    memcpy(word, low, n);
    word[n] = '\0';
    return only_false(word);
}

/* False told as the answer in prose: after a verb of answering, with quotes or markdown
 * between ("yielded \"False\"", "it returns `False`", "printed: False"); not code's
 * "return False". */
static bool false_answered(const char *low)
{
    static const char *const verbs[] = {"yielded", "yields", "returns", "returned", "prints",
                                        "printed", "outputs", "gives", "gave", "got", "shows",
                                        "says", "said", "answered", "is still"};
    const char *at;
    for (at = strstr(low, "false"); at; at = strstr(at + 5, "false")) {
        const char *b = at;
        size_t k;
        while (b > low && strchr(" \t`'\"*:", b[-1]))
            b--;
        for (k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
            size_t n = strlen(verbs[k]);
            if ((size_t)(b - low) >= n && !strncmp(b - n, verbs[k], n) &&
                (b - n == low || !isalnum((unsigned char)b[-(long)n - 1])))
                return true;
        }
    }
    return false;
}

/* A line that is True alone (the REPL's other answer), quotes aside. */
static bool true_alone(const char *low)
{
    low += strspn(low, " \t>`'\"*");
    return !strncmp(low, "true", 4) && low[4 + strspn(low + 4, "`'\"*.! \t\r")] == '\0';
}

/* The answer to an is_available() call at line i given a few lines below it, as a REPL or
 * a writer puts it: after a closing code fence ("```" then 'yielded "False"'), after the
 * version printed first ("1.3.1" then "False"), after "returns:". The search stops at the
 * next call and at a True; -1 when no False comes. */
static long false_below(const dl_paste *p, size_t i)
{
    const char *call = p->lines[i].lower, *at = strstr(call, "is_available");
    size_t j, len = strlen(call);
    /* a condition's lines below are its body ("if torch.cuda.is_available():" then code
     * that returns False), not an answer */
    while (len && strchr(" \t\r", call[len - 1]))
        len--;
    if ((len && call[len - 1] == ':') || strstr(call, "if ") || strstr(call, "assert") ||
        strstr(call, "while ") || (at && strstr(at, " else ")))
        return -1;
    for (j = i + 1; j < p->count && j <= i + 6; j++) {
        const char *low = p->lines[j].lower;
        if (strstr(low, "is_available") || true_alone(low))
            return -1;
        /* "return False" alone under a printed call is the writer's answer in prose */
        if (false_alone(low) || false_answered(low) ||
            !strcmp(low + strspn(low, " \t"), "return false"))
            return (long)j;
    }
    return -1;
}

/* The sentence around `at` in low (from its last '.', '!', '?' or the line's start) says
 * the words under a condition or asks about them: "if CUDA is not available, ...", "what
 * to do when the GPU is not detected", "cuda not available?". */
static bool hypothetical(const char *low, const char *at, size_t len)
{
    static const char *const conditions[] = {"if ", "when ", "whether ", "in case ", "unless ",
                                             "otherwise"};
    const char *start = at, *end = at + len;
    size_t k;
    while (start > low && !strchr(".!?", start[-1]))
        start--;
    end += strcspn(end, ".!?");
    if (*end == '?')
        return true;
    for (k = 0; k < sizeof conditions / sizeof conditions[0]; k++) {
        const char *c = strstr(start, conditions[k]);
        if (c && c < at && (c == low || !isalpha((unsigned char)c[-1])))
            return true;
    }
    return false;
}

/* A line of code that holds the words in a string ("raise RuntimeError('CUDA is not
 * available')", "print(\"cuda not available\")"): the program's text, not what it did. */
static bool in_code(const char *low)
{
    static const char *const code[] = {"raise ", "print(", "assert ", "warn(", "log(",
                                       "logger.", "else:", "return "};
    return dl_line_has_any(low, code, sizeof code / sizeof code[0]);
}

/* The writer tells what the program said or did before `at`, in the same sentence: "it
 * says CUDA is not available", "I get cuda not available", "still shows that". */
static bool told(const char *low, const char *at)
{
    static const char *const verbs[] = {"says", "said", "saying", "shows", "showed", "showing",
                                        "tells", "told", "reports", "reported", "claims",
                                        "i get ", "i got ", "getting ", "it thinks"};
    const char *start = at;
    size_t k;
    while (start > low && !strchr(".!?", start[-1]))
        start--;
    for (k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
        const char *v = strstr(start, verbs[k]);
        if (v && v < at)
            return true;
    }
    return false;
}

/* An issue's title that is the complaint itself: "cuda is not available", "CUDA not
 * available on Windows 11" (a title has no verb of telling; a program's message has its
 * fallback or a log's mark beside it, which a title of a few words has not). */
static bool titled_unavailable(const char *low)
{
    static const char *const words[] = {"cuda is not available", "cuda isn't available",
                                        "cuda not available", "cuda unavailable",
                                        "cuda is unavailable"};
    size_t n = strlen(low);
    if (n > 60 || strstr(low, "cpu") || strchr(low, '[') || strchr(low, '?') ||
        strstr(low, "warn") || strstr(low, "error") || strstr(low, "if "))
        return false;
    return dl_line_has_any(low, words, sizeof words / sizeof words[0]);
}

/* is_available() False retold in prose, without the call: "it says CUDA is not available",
 * "it still says that cuda isnt available", "pytorch doesn't detect my GPU", "run.py fails
 * to detect the gpu". A program's own "CUDA is not available" (a log line) is no retelling:
 * the CUDA words need a verb of telling before them. Not under a condition or in a question
 * ("if CUDA is not available, ..."), not in a line of code. -1 when none. */
static long prose_unavailable_line(const dl_paste *p)
{
    /* not "cuda not available": an app's own message in that form ("CUDA not available -
     * using CPU") retold is its fallback, read elsewhere with the app's other words */
    static const char *const said[] = {"cuda is not available", "cuda isn't available",
                                       "cuda isnt available", "cuda is unavailable",
                                       "gpu not detected", "gpu is not detected", "cuda false",
                                       "cuda: false", "cuda = false", "gpu unavailable",
                                       "gpu is unavailable", "gpu is not available",
                                       "gpu isn't available", "gpu not available"};
    static const char *const prose[] = {"does not detect my gpu", "doesn't detect my gpu",
                                        "doesnt detect my gpu", "not detecting my gpu",
                                        "does not detect the gpu", "doesn't detect the gpu",
                                        "not detecting the gpu", "fails to detect the gpu",
                                        "fails to detect my gpu", "does not see the gpu",
                                        "doesn't see the gpu", "doesnt see the gpu",
                                        "does not see my gpu", "doesn't see my gpu",
                                        "can't see my gpu", "cannot see my gpu",
                                        "can't see the gpu", "cannot see the gpu",
                                        "can't find my gpu", "cannot find my gpu",
                                        "can not find my gpu", "doesn't recognize my gpu",
                                        "does not recognize my gpu", "doesn't recognise my gpu",
                                        "not recognizing my gpu", "not detected by pytorch",
                                        "not detected by torch", "device_count() returns 0",
                                        "device_count() is 0", "device_count() gives 0",
                                        "device_count() = 0", "not detecting cuda",
                                        "doesn't detect cuda", "does not detect cuda",
                                        "can't find cuda", "cannot find cuda",
                                        "can not find cuda", "did not have cuda available",
                                        "didn't have cuda available",
                                        "doesn't have cuda available",
                                        "does not have cuda available",
                                        "have no cuda available",
                                        /* Chinese: cannot detect / recognise / find the
                                         * graphics card or GPU, CUDA unavailable, cannot (or
                                         * does not) use the GPU */
                                        "\xe6\xa3\x80\xe6\xb5\x8b\xe4\xb8\x8d\xe5\x88\xb0\xe6\x98\xbe\xe5\x8d\xa1",
                                        "\xe8\xaf\x86\xe5\x88\xab\xe4\xb8\x8d\xe5\x88\xb0\xe6\x98\xbe\xe5\x8d\xa1",
                                        "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0\xe6\x98\xbe\xe5\x8d\xa1",
                                        "\xe6\xa3\x80\xe6\xb5\x8b\xe4\xb8\x8d\xe5\x88\xb0gpu",
                                        "\xe8\xaf\x86\xe5\x88\xab\xe4\xb8\x8d\xe5\x88\xb0gpu",
                                        "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0gpu",
                                        "cuda\xe4\xb8\x8d\xe5\x8f\xaf\xe7\x94\xa8",
                                        "\xe6\x97\xa0\xe6\xb3\x95\xe4\xbd\xbf\xe7\x94\xa8gpu",
                                        "\xe7\x94\xa8\xe4\xb8\x8d\xe4\xba\x86gpu",
                                        "\xe4\xb8\x8d\xe8\x83\xbd\xe4\xbd\xbf\xe7\x94\xa8gpu",
                                        "\xe6\xb2\xa1\xe6\x9c\x89\xe4\xbd\xbf\xe7\x94\xa8gpu",
                                        /* "shows not detected", "CUDA not detected" */
                                        "\xe6\x98\xbe\xe7\xa4\xba\xe6\x9c\xaa\xe6\xa3\x80\xe6\xb5\x8b\xe5\x88\xb0",
                                        "\xe6\x9c\xaa\xe6\xa3\x80\xe6\xb5\x8b\xe5\x88\xb0\x63uda",
                                        "cuda\xe6\x9c\xaa\xe6\xa3\x80\xe6\xb5\x8b\xe5\x88\xb0"};
    /* every phrase holds one of these (Chinese: "graphics card"): the lines to look at */
    static const char *const topics[] = {"cuda", "gpu", "\xe6\x98\xbe\xe5\x8d\xa1"};
    const size_t n_said = sizeof said / sizeof said[0];
    dl_paste_cursor lines;
    size_t i, k;
    if (dl_text_other_framework(p))
        return -1;
    if (p->count && titled_unavailable(p->lines[0].lower))
        return 0;
    DL_PASTE_CURSOR_INIT(&lines, p, topics);
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        if (!dl_paste_cursor_at(&lines, i))
            continue;
        for (k = 0; k < n_said + sizeof prose / sizeof prose[0]; k++) {
            const char *w = k < n_said ? said[k] : prose[k - n_said];
            const char *at = strstr(low, w);
            if (at && (k >= n_said || told(low, at)) && !hypothetical(low, at, strlen(w)) &&
                !in_code(low))
                return (long)i;
        }
    }
    return -1;
}

/* A library's message that it prints only where torch.cuda.is_available() is False:
 * YOLOv5's and Ultralytics' device check, Lightning's summary and its accelerator checks,
 * Accelerate's fp16 check, Transformers' "device: cpu, n_gpu: 0" and its bitsandbytes
 * checks, and the scripts that
 * print "CUDA available: False". Not cpp_extension's "No CUDA runtime is found": a build on
 * a machine or in an image without a GPU prints it and is fine
 * (host-build-no-cuda-runtime.txt). -1 when none. */
static long library_says_unavailable(const dl_paste *p)
{
    static const char *const said[] = {"cuda unavailable, invalid device",
                                       "invalid cuda 'device=", "invalid cuda '--device",
                                       "invalid cuda --device", "gpu available: false",
                                       "cuda available: false", "no supported gpu backend found",
                                       "gpus requested but none are available",
                                       "cudaaccelerator` can not run on your system",
                                       "cudaaccelerator can not run on your system",
                                       "gpuaccelerator` can not run on your system",
                                       "gpuaccelerator can not run on your system",
                                       "mixed precision requires a gpu",
                                       "device: cpu, n_gpu: 0",
                                       "but your machine only has: []",
                                       /* transformers' bitsandbytes checks, which fail
                                        * where torch.cuda.is_available() is False
                                        * (utils/import_utils.py is_bitsandbytes_available) */
                                       "no gpu found. a gpu is needed for quantization",
                                       "and the latest version of bitsandbytes",
                                       /* the VITS family's train.py (so-vits-svc, RVC,
                                        * Bert-VITS2): assert torch.cuda.is_available(),
                                        * "CPU training is not allowed."; GPT-SoVITS: "Only
                                        * GPU training is allowed." (it accepts MPS too) */
                                       "cpu training is not allowed",
                                       "only gpu training is allowed"};
    long i = dl_paste_find_any(p, said, sizeof said / sizeof said[0]);
    if (i >= 0)
        return i;
    /* transformers' TrainingArguments refuses --fp16 where torch sees no CUDA device ("...
     * (`--fp16`) and FP16 half precision evaluation ... can only be used on CUDA devices") */
    for (i = dl_paste_find(p, 0, "can only be used on cuda"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "can only be used on cuda"))
        if (strstr(p->lines[i].lower, "fp16"))
            return i;
    return -1;
}

/* The first line where the call spelt `call` is answered False (after it on its line, alone
 * on the next, or below it); -1 when none. */
static long call_answered_false(const dl_paste *p, const char *call)
{
    long i, below;
    for (i = dl_paste_find(p, 0, call); i >= 0; i = dl_paste_find(p, (size_t)i + 1, call)) {
        const char *after = strstr(p->lines[i].lower, call);
        /* torch.load's "Attempting to deserialize object on a CUDA device but
         * torch.cuda.is_available() is False" quotes the call: a checkpoint's reading
         * (checkpoint_text.c), not a report of what the call answered */
        if (strstr(p->lines[i].lower, "deserialize object on a cuda device"))
            continue;
        if (strstr(after, "false"))
            return i;
        if ((size_t)i + 1 < p->count && only_false(p->lines[i + 1].lower))
            return i + 1;
        if ((below = false_below(p, (size_t)i)) >= 0)
            return below;
    }
    return -1;
}

bool dl_text_other_framework(const dl_paste *p)
{
    static const char *const others[] = {"onnxruntime", "executionprovider", "tensorflow",
                                         "jax", "cupy", "llama.cpp", "llama_cpp", "ollama",
                                         "ctranslate2", "directml"};
    return dl_paste_find_any(p, others, sizeof others / sizeof others[0]) >= 0;
}

long dl_text_unavailable_line(const dl_paste *p)
{
    /* the call as writers misspell it when they retype it ("torch.cuda.is_availiable() is
     * false") */
    static const char *const calls[] = {"is_available", "is_avaliable", "is_availiable",
                                        "is_avaialable", "is_availabe", "is_availble",
                                        "is_avalible", "is_avilable", "isavailable"};
    long i, found = -1;
    size_t k;
    for (k = 0; k < sizeof calls / sizeof calls[0]; k++)
        if ((i = call_answered_false(p, calls[k])) >= 0 && (found < 0 || i < found))
            found = i;
    if (found >= 0)
        return found;
    /* autocast's warning says the same: "User provided device_type of 'cuda', but CUDA is
     * not available. Disabling" */
    i = dl_paste_find(p, 0, "but cuda is not available");
    if (i >= 0 || (i = failed_availability_assert(p)) >= 0 ||
        (i = library_says_unavailable(p)) >= 0)
        return i;
    return prose_unavailable_line(p);
}

/* The message at `at` opens the line or follows a log prefix ("Windows: ", "[INFO] ",
 * "WARNING - "), markdown's quotes aside: a program wrote it. */
static bool opens_message(const char *low, const char *at)
{
    const char *b = at;
    while (b > low && strchr(" \t`'\">*", b[-1]))
        b--;
    return b == low || b[-1] == ':' || b[-1] == ']' || b[-1] == '-' || b[-1] == '|';
}

static long app_no_gpu(const dl_paste *p, bool bare)
{
    /* the first say the fallback itself (EasyOCR's two forms among them); the others need
     * the CPU or slowness after them */
    static const char *const alone[] = {"no gpu being used", "using cpu. note: this module",
                                        "neither cuda nor mps are available"};
    static const char *const needs[] = {"no gpu found", "no gpu was found", "no gpus found",
                                        "no gpu detected", "no gpu was detected", "no gpu available",
                                        "no cuda device", "no cuda-capable", "no cuda capable",
                                        "cuda is not available", "cuda not available",
                                        "gpu not available", "gpu is not available",
                                        "cuda unavailable", "no nvidia gpu"};
    long best = -1;
    size_t k;
    for (k = 0; k < sizeof alone / sizeof alone[0] + sizeof needs / sizeof needs[0]; k++) {
        bool sufficient = k < sizeof alone / sizeof alone[0];
        const char *mark = sufficient ? alone[k] : needs[k - sizeof alone / sizeof alone[0]];
        long i;
        for (i = dl_paste_find(p, 0, mark); i >= 0 && (best < 0 || i < best);
             i = dl_paste_find(p, (size_t)i + 1, mark)) {
            const char *low = p->lines[i].lower, *at = strstr(low, mark);
            const char *rest = at + strlen(mark);
            /* a question in the same sentence asks about it ("no gpu found? can I...") */
            size_t sentence = strcspn(rest, ".!");
            if (opens_message(low, at) && !memchr(rest, '?', sentence) &&
                (sufficient || bare || strstr(rest, "cpu") || strstr(rest, "slow"))) {
                best = i;
                break;
            }
        }
    }
    return best;
}

long dl_text_app_no_gpu_line(const dl_paste *p)
{
    return app_no_gpu(p, false);
}

long dl_text_app_no_gpu_bare_line(const dl_paste *p)
{
    return app_no_gpu(p, true);
}

/* "nvidia" not in words that deny or wish for one ("no NVIDIA GPU", "should I buy an NVIDIA
 * card", "only NVIDIA is supported"). */
static bool nvidia_owned(const char *low, const char *at, size_t len)
{
    static const char *const not_owned[] = {"no nvidia", "not nvidia", "non-nvidia",
                                            "non nvidia", "not an nvidia", "not a nvidia",
                                            "without", "buy", "instead of", "only",
                                            "don't have", "do not have", "dont have"};
    (void)at;
    (void)len;
    return !dl_line_has_any(low, not_owned, sizeof not_owned / sizeof not_owned[0]);
}

long dl_text_nvidia_owned_line(const dl_paste *p)
{
    return dl_paste_find_where(p, 0, "nvidia", nvidia_owned);
}

/* A phrase of the GPU left unused, unless it goes on to name which GPU ("instead of the gpu
 * ids I choose"): that is about picking among GPUs that work, not about the CPU. */
static bool not_gpu_index(const char *low, const char *at, size_t len)
{
    static const char *const which[] = {" id", " index", " indices", " number", " ordinal"};
    size_t k;
    (void)low;
    for (k = 0; k < sizeof which / sizeof which[0]; k++)
        if (!strncmp(at + len, which[k], strlen(which[k])))
            return false;
    return true;
}

/* The words of a GPU left unused or wished for: "make it run on my GPU", "it only uses the
 * CPU", "GPU usage is 0", in several languages. */
static const char *const gpu_unused_words[] = {
                                    "run it on my gpu", "run it on the gpu", "run on my gpu",
                                    "run on the gpu", "runs on the gpu", "run on gpu",
                                    "run on cuda", "use my gpu", "use the gpu",
                                    "recognize my gpu",
                                    "recognise my gpu", "detect my gpu", "only uses the cpu",
                                    "only uses cpu", "runs on the cpu", "running on cpu",
                                    "running on the cpu", "not using gpu",
                                    "not using the gpu", "not using my gpu",
                                    "but not for gpu", "but not on gpu",
                                    "not touching my vram", "instead of gpu",
                                    "instead of the gpu", "instead of my gpu",
                                    "on cpu instead of", "on the cpu instead of",
                                    "stays on cpu", "stays on the cpu", "stuck on cpu",
                                    "stuck on the cpu", "runs on cpu", "uses only the cpu",
                                    "uses only cpu", "gpu usage is 0", "gpu usage 0%",
                                    "gpu usage stays at 0", "gpu utilization is 0",
                                    "gpu utilization 0%", "gpu util is 0", "0% gpu usage",
                                    "0% gpu utilization", "is running using cpu",
                                    "will run on cpu", "runs using cpu",
                                    "using all available cores", "only cpu usage",
                                    "enable gpu usage", "didn't use my gpu",
                                    "did not use my gpu", "doesn't use my gpu",
                                    "does not use my gpu", "generated by cpu",
                                    "generated by the cpu", "using cpu rather than",
                                    "rather than my gpu", "rather than the gpu",
                                    "and not gpu", "nothing on gpu", "nothing on the gpu",
                                    "nothing on my gpu", "nothing on my nvidia",
                                    "only be using the cpu", "only using the cpu",
                                    "gpu sits there idl", "gpu sits idle",
                                    "still working on cpu", "still running on cpu",
                                    "using graphics card", "using the graphics card",
                                    "using my graphics card", "it is using my cpu",
                                    "only the cpu is used", "the cpu is being used",
                                    "couldn't use cuda", "could not use cuda",
                                    "can't use cuda", "cannot use cuda", "can not use cuda",
                                    "cuda not working", "cuda doesn't work",
                                    "cuda does not work", "cuda isn't working",
                                    "cuda is not working", "switch to cuda",
                                    "stands on cpu",
                                    "torch does not have cuda", "torch doesn't have cuda",
                                    /* Chinese: "the GPU is idle", "the GPU is not put to
                                     * use", "the GPU does not run", "did not use the
                                     * GPU" (two forms), "did not use the graphics card"
                                     * (three forms), "the CPU is running" */
                                    "gpu\xe7\xa9\xba\xe9\x97\xb2",
                                    "gpu\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\xa8\xe4\xb8\x8a",
                                    "gpu\xe4\xb8\x8d\xe8\xbf\x90\xe8\xa1\x8c",
                                    "\xe6\xb2\xa1\xe4\xbd\xbf\xe7\x94\xa8" "gpu",
                                    "\xe6\xb2\xa1\xe6\x9c\x89\xe4\xbd\xbf\xe7\x94\xa8" "gpu",
                                    "\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\xa8\xe6\x98\xbe\xe5\x8d\xa1",
                                    "\xe6\xb2\xa1\xe7\x94\xa8\xe6\x98\xbe\xe5\x8d\xa1",
                                    "\xe6\xb2\xa1\xe7\x94\xa8\xe4\xb8\x8a\xe6\x98\xbe\xe5\x8d\xa1",
                                    "cpu\xe5\x9c\xa8\xe8\xb7\x91",
                                    /* Russian (lower and capital first letter: the
                                     * lower-casing is ASCII's): "GPU is not used", "the
                                     * video card is not used", "is computed on the
                                     * processor" */
                                    "\xd0\xbd\xd0\xb5 \xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd1\x83\xd0\xb5\xd1\x82\xd1\x81\xd1\x8f gpu",
                                    "\xd0\x9d\xd0\xb5 \xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd1\x83\xd0\xb5\xd1\x82\xd1\x81\xd1\x8f gpu",
                                    "gpu \xd0\xbd\xd0\xb5 \xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd1\x83\xd0\xb5\xd1\x82\xd1\x81\xd1\x8f",
                                    "\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xba\xd0\xb0\xd1\x80\xd1\x82\xd0\xb0 \xd0\xbd\xd0\xb5 \xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd1\x83\xd0\xb5\xd1\x82\xd1\x81\xd1\x8f",
                                    "\xd0\x92\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xba\xd0\xb0\xd1\x80\xd1\x82\xd0\xb0 \xd0\xbd\xd0\xb5 \xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd1\x83\xd0\xb5\xd1\x82\xd1\x81\xd1\x8f",
                                    "\xd1\x81\xd1\x87\xd0\xb8\xd1\x82\xd0\xb0\xd0\xb5\xd1\x82\xd1\x81\xd1\x8f \xd0\xbd\xd0\xb0 \xd0\xbf\xd1\x80\xd0\xbe\xd1\x86\xd0\xb5\xd1\x81\xd1\x81\xd0\xbe\xd1\x80\xd0\xb5",
                                    /* Korean: "does not use the GPU (at all)", "only
                                     * with the CPU"; Japanese: "the GPU is not used",
                                     * "runs on the CPU" */
                                    "gpu\xeb\xa5\xbc \xec\xa0\x84\xed\x98\x80 \xec\x82\xac\xec\x9a\xa9\xed\x95\x98\xec\xa7\x80",
                                    "gpu\xeb\xa5\xbc \xec\x82\xac\xec\x9a\xa9\xed\x95\x98\xec\xa7\x80",
                                    "gpu\xeb\xa5\xbc \xec\x95\x88 \xec\x93\xb0",
                                    "cpu\xeb\xa1\x9c\xeb\xa7\x8c",
                                    "gpu\xe3\x81\x8c\xe4\xbd\xbf\xe3\x82\x8f\xe3\x82\x8c",
                                    "cpu\xe3\x81\xa7\xe5\x8b\x95",
                                    /* Portuguese and Spanish: "is not using the GPU",
                                     * "only the CPU" */
                                    "n\xc3\xa3o est\xc3\xa1 usando a gpu", "nao esta usando a gpu",
                                    "n\xc3\xa3o usa a gpu", "s\xc3\xb3 a cpu", "apenas a cpu",
                                    "no usa la gpu", "no utiliza la gpu",
                                    "no est\xc3\xa1 usando la gpu", "solo el cpu", "solo la cpu",
                                    "solo usa el cpu", "solo usa la cpu",
                                    /* Chinese: "can only use the CPU" (two verbs), "only
                                     * uses the CPU", "it is the CPU that is used" */
                                    "\xe5\x8f\xaa\xe8\x83\xbd\xe7\x94\xa8" "cpu",
                                    "\xe5\x8f\xaa\xe8\x83\xbd\xe4\xbd\xbf\xe7\x94\xa8" "cpu",
                                    "\xe5\x8f\xaa\xe7\x94\xa8" "cpu",
                                    "\xe7\x94\xa8\xe7\x9a\x84\xe6\x98\xaf" "cpu",
                                    /* "it is using the CPU to", "set it to GPU" */
                                    "\xe6\x98\xaf\xe7\x94\xa8" "cpu",
                                    "\xe8\xae\xbe\xe7\xbd\xae\xe6\x88\x90" "gpu",
                                    /* "only uses the CPU" (another verb), "GPU usage is
                                     * always 0", "GPU usage is 0" */
                                    "\xe5\x8f\xaa\xe4\xbd\xbf\xe7\x94\xa8" "cpu",
                                    "gpu\xe4\xbd\xbf\xe7\x94\xa8\xe7\x8e\x87\xe4\xb8\x80\xe7\x9b\xb4\xe6\x98\xaf" "0",
                                    "gpu\xe4\xbd\xbf\xe7\x94\xa8\xe7\x8e\x87\xe4\xb8\xba" "0",
                                    "gpu\xe4\xbd\xbf\xe7\x94\xa8\xe7\x8e\x87\xe6\x98\xaf" "0",
                                    /* "it shows (that it is) the CPU", "CUDA did not
                                     * take effect" (with and without its particle) */
                                    "\xe6\x98\xbe\xe7\xa4\xba\xe6\x98\xaf" "cpu",
                                    "\xe6\x98\xbe\xe7\xa4\xba\xe7\x9a\x84\xe6\x98\xaf" "cpu",
                                    "cuda\xe6\xb2\xa1\xe7\x94\x9f\xe6\x95\x88",
                                    "cuda\xe6\xb2\xa1\xe6\x9c\x89\xe7\x94\x9f\xe6\x95\x88"};

long dl_text_gpu_unused_line(const dl_paste *p)
{
    return dl_paste_find_any_where(p, gpu_unused_words,
                                   sizeof gpu_unused_words / sizeof gpu_unused_words[0],
                                   not_gpu_index);
}

/* Those words where the same line says the CPU does the work ("it only runs on the CPU"):
 * a statement of what happens, not a wish. */
static bool cpu_said_beside(const char *low, const char *at, size_t len)
{
    return not_gpu_index(low, at, len) && strstr(low, "cpu");
}

long dl_text_gpu_unused_cpu_line(const dl_paste *p)
{
    return dl_paste_find_any_where(p, gpu_unused_words,
                                   sizeof gpu_unused_words / sizeof gpu_unused_words[0],
                                   cpu_said_beside);
}

long dl_text_cuda_tensor_line(const dl_paste *p)
{
    static const char *const marks[] = {"device='cuda:", "device=\"cuda:", "device(type='cuda'"};
    long i = dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]);
    if (i >= 0)
        return i;
    for (i = dl_paste_find(p, 0, "same device"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "same device"))
        if (strstr(p->lines[i].lower, "cuda:") && strstr(p->lines[i].lower, "devices"))
            return i;
    return -1;
}

bool dl_text_gpu_self_check_passed(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "works well on"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "works well on"))
        if (strstr(p->lines[i].lower, "paddle") && strstr(p->lines[i].lower, "gpu"))
            return true;
    /* Paddle's note on the device it opened: the driver API version comes from libcuda */
    for (i = dl_paste_find(p, 0, "gpu compute capability:"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "gpu compute capability:"))
        if (strstr(p->lines[i].lower, "driver api version: ") &&
            isdigit((unsigned char)strstr(p->lines[i].lower, "driver api version: ")[20]))
            return true;
    for (i = dl_paste_find(p, 0, "created device"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "created device"))
        if (strstr(p->lines[i].lower, "device:gpu:"))
            return true;
    return false;
}

bool dl_text_cuda_build_named(const dl_paste *p)
{
    static const char *const marks[] = {"download.pytorch.org/whl/cu", "+cu", "cudatoolkit",
                                        "pytorch-cuda"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* A freshly installed Windows ("a fresh install of Win10", "clean Windows 11 install") has
 * no Visual C++ runtime until some program brings one: a DLL of torch that fails to load
 * there lacks that runtime (but see dll_on_fresh_windows for those that need OpenMP). A
 * fresh venv or conda env in between ("fresh venv on Windows") is no fresh Windows. */
bool dl_text_fresh_windows(const dl_paste *p)
{
    static const char *const marks[] = {"fresh", "clean"};
    size_t i, k;
    for (i = 0; i < p->count; i++)
        for (k = 0; k < sizeof marks / sizeof marks[0]; k++) {
            const char *at = strstr(p->lines[i].lower, marks[k]);
            char near[32];
            const char *win;
            if (!at)
                continue;
            snprintf(near, sizeof near, "%s", at);
            win = strstr(near, "win");
            if (win && !strstr(near, "env") && !strstr(near, "python") && !strstr(near, "conda"))
                return true;
        }
    return false;
}

long dl_text_comfy_nvidia_launcher_line(const dl_paste *p)
{
    return dl_paste_find(p, 0, "if you see this and comfyui did not start");
}

bool dl_text_colab(const dl_paste *p)
{
    /* "collab" alone would be "collaborate"; a traceback's frames in /content, Colab's
     * working folder, or its mounted Drive are Colab's too */
    static const char *const colab[] = {"colab", "google collab", "google-collab",
                                        "google coolab", "file \"/content/", "/content/drive/"};
    return dl_paste_find_any(p, colab, sizeof colab / sizeof colab[0]) >= 0;
}

bool dl_text_in_container(const dl_paste *p)
{
    return dl_paste_find(p, 0, "docker") >= 0 || dl_paste_find(p, 0, "container") >= 0;
}

bool dl_text_hosted_or_remote(const dl_paste *p)
{
    /* "服务器" a server */
    static const char *const remote[] = {"kaggle",     "server",    "cluster", "ssh ",
                                         "sagemaker",  "runpod",    "vast.ai", "paperspace",
                                         "lambda labs", "\xe6\x9c\x8d\xe5\x8a\xa1\xe5\x99\xa8"};
    return dl_text_colab(p) || dl_paste_find_any(p, remote, sizeof remote / sizeof remote[0]) >= 0;
}

bool dl_text_other_vendor_gpu(const dl_facts *f)
{
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    return g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA;
}

bool dl_text_uvm_not_loaded_on_demand(const dl_paste *p)
{
    static const char *const places[] = {"nixos", "/nix/store/", "configuration.nix",
                                         "nix-shell", "flatpak"};
    static const char *const sleep[] = {"suspend", "hibernat", "wake", "woke", "sleep",
                                        "standby", "resum"};
    return dl_paste_find_any(p, places, sizeof places / sizeof places[0]) >= 0 &&
           dl_paste_find_any(p, sleep, sizeof sleep / sizeof sleep[0]) < 0;
}

/* A bare "nano" at `at` in low is the board: a word of its own ("nanoGPT", "nano_gpt" are
 * not), not the editor ("sudo nano", "nano ~/.bashrc", "nano /etc/...", "nano file.py"). */
static bool nano_board(const char *low, const char *at)
{
    const char *after = at + 4;
    if ((at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '_' || at[-1] == '-')) ||
        isalnum((unsigned char)*after) || *after == '_' || *after == '-')
        return false;
    if (at - low >= 5 && !strncmp(at - 5, "sudo ", 5))
        return false;
    if (*after == ' ') {
        const char *arg = after + 1;
        size_t n = strcspn(arg, " \t");
        if (*arg == '~' || *arg == '/' || *arg == '.' || memchr(arg, '.', n) || memchr(arg, '/', n))
            return false;
    }
    return true;
}

long dl_text_jetson_line(const dl_paste *p)
{
    static const char *const words[] = {"jetson", "xavier", "jetpack", "agx orin", "agx-orin",
                                        "orin nano", "orin nx", "l4t", " tegra", "nv_tegra",
                                        "tegrastats", "orin device", "orin board",
                                        "on an orin", "(nvgpu)"};
    static const char *const arm[] = {"jetpack", "l4t", "aarch64"};
    long i = dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
    if (i >= 0 || dl_paste_find_any(p, arm, sizeof arm / sizeof arm[0]) < 0)
        return i;
    for (i = dl_paste_find(p, 0, "nano"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "nano")) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, "nano"); at; at = strstr(at + 4, "nano"))
            if (nano_board(low, at))
                return i;
    }
    return -1;
}

long dl_text_conda_cpu_row(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "pytorch"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "pytorch")) {
        const char *c = p->lines[i].lower, *build;
        bool cpu_package;
        c += strspn(c, " \t");
        if (!strncmp(c, "[conda]", 7))
            c += 7 + strspn(c + 7, " \t");
        cpu_package = !strncmp(c, "pytorch-cpu", 11) && (c[11] == ' ' || c[11] == '\t');
        if (strncmp(c, "pytorch", 7) != 0 || (c[7] != ' ' && c[7] != '\t' && !cpu_package))
            continue;
        c += strcspn(c, " \t");
        c += strspn(c, " \t");
        if (!isdigit((unsigned char)*c))
            continue;
        build = c + strcspn(c, " \t");
        build += strspn(build, " \t");
        /* "pytorch-cpu" is the CPU package asked for by name (cpu_only_build's reading);
         * "pytorch" with a CPU build string is the variant conda chose */
        if (!cpu_package && (!strncmp(build, "cpu_", 4) || strstr(build, "_cpu_") ||
                             strstr(build, "_cpu ") || strstr(build, "_cpu\t")))
            return i;
    }
    return -1;
}

/* conda chose the build: its list shows pytorch with a CPU build string, its plan installs
 * a CPU pytorch ("pkgs/main/win-64::pytorch-1.0.1-cpu_py37h39a92a0_0",
 * "_pytorch_select-1.1.0-cpu"), or the writer asked conda (or mamba)
 * for a CUDA build (a command with pytorch-cuda or cudatoolkit and no cpuonly, or conda's
 * channel flags beside a CUDA: TUNA's mirror without "-c pytorch"); and no pip command
 * installed torch, and no pip wheel's "+cpu" shows. A CPU build there is conda's pick, not
 * a wheel the writer chose. */
bool dl_text_conda_chose_the_build(const dl_paste *p)
{
    static const char *const pip[] = {"pip install torch", "pip3 install torch",
                                      "pip install --upgrade torch", "pip install -u torch",
                                      "pip install --force-reinstall torch"};
    static const char *const installs[] = {"conda install", "mamba install",
                                           "micromamba install"};
    static const char *const channels[] = {"-c pytorch", "-c nvidia"};
    size_t i, k;
    /* conda list names pip's torch "torch ... pypi", never "pytorch": the row is conda's */
    if (dl_text_conda_cpu_row(p) >= 0)
        return true;
    if (dl_paste_find_any(p, pip, sizeof pip / sizeof pip[0]) >= 0 ||
        dl_paste_find(p, 0, "+cpu") >= 0)
        return false;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *plan = strstr(low, "::pytorch-");
        if (!plan)
            plan = strstr(low, "::_pytorch_select-");
        if (plan && strstr(plan, "-cpu"))
            return true;
        for (k = 0; k < sizeof installs / sizeof installs[0]; k++)
            if (strstr(low, installs[k]) && strstr(low, "pytorch") && !strstr(low, "cpuonly") &&
                (strstr(low, "pytorch-cuda") || strstr(low, "cudatoolkit")))
                return true;
    }
    return dl_paste_find_any(p, channels, sizeof channels / sizeof channels[0]) >= 0 &&
           dl_paste_find(p, 0, "conda") >= 0 && dl_paste_find(p, 0, "cuda") >= 0 &&
           dl_paste_find(p, 0, "cpuonly") < 0;
}

long dl_text_cuda_call_line(const dl_paste *p)
{
    static const char *const call[] = {".cuda()", "to('cuda", "to(\"cuda", "device='cuda",
                                       "device=\"cuda"};
    return dl_paste_find_any(p, call, sizeof call / sizeof call[0]);
}
