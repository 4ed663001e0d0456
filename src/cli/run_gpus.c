#include "cli/run_gpus.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/output.h"
#include "os/os.h"
#include "probe/platform.h"
#include "run/gpu_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVML's GPUs as the selection sees them; the strings stay in f. */
static dl_gpu_entry *entries_of(const dl_nvml_facts *nvml, size_t *n)
{
    dl_gpu_entry *e = dl_xcalloc(nvml->gpus.count + 1, sizeof *e);
    size_t i;
    for (i = 0; i < nvml->gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(nvml->gpus, dl_nvml_gpu, i);
        e[i].index = g->index.known ? (long)g->index.value : (long)i;
        e[i].uuid = g->uuid.value;
        e[i].name = g->name.value;
        e[i].pci_bus_id = g->pci_bus_id.value;
    }
    *n = nvml->gpus.count;
    return e;
}

/* The display adapters the system itself lists (PCI on Linux, the registry on Windows), to
 * name what is there when no NVIDIA driver answers. */
static char *adapters_text(const dl_machine *m)
{
    dl_facts f;
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    dl_buf b = {0};
    size_t i;
    dl_probe_ctx ctx = {NULL, {0}};
    ctx.machine = m;
    dl_facts_init(&f);
    dl_probe_display_adapters(&ctx, &f, &out);
    for (i = 0; i < f.gpus.count; i++) {
        const dl_pci_gpu *g = &DL_LIST_AT(f.gpus, dl_pci_gpu, i);
        dl_buf_printf(&b, "%s%s %s", i ? ", " : "",
                      g->vendor_name.value ? g->vendor_name.value : "?",
                      g->device_name.value ? g->device_name.value : "(unknown device)");
    }
    if (!f.gpus.count)
        dl_buf_puts(&b, "no display adapter");
    free(out.detail);
    dl_facts_free(&f);
    return dl_buf_take(&b);
}

static int no_driver(const dl_machine *m, const dl_cli *cli, const dl_facts *f,
                     const dl_probe_outcome *out)
{
    const char *why = f->nvml.gpus.why ? f->nvml.gpus.why
                    : out->detail      ? out->detail
                                       : "it lists no GPU";
    char *adapters = adapters_text(m);
    dl_cli_error("--gpu %s: no NVIDIA driver answers (NVML: %s); this machine has "
                    "%s; --cpu runs without a GPU", cli->gpus[0], why, adapters);
    free(adapters);
    return DL_EXIT_BAD_INPUT;
}

static int resolve(const dl_strv *tokens, const dl_facts *f, long **chosen, size_t *n_chosen)
{
    char *error = NULL;
    size_t n = 0;
    dl_gpu_entry *entries = entries_of(&f->nvml, &n);
    dl_gpu_status st = dl_gpu_resolve(tokens, entries, n, chosen, n_chosen, &error);
    if (st != DL_GPU_OK)
        dl_cli_error("%s", error);
    free(error);
    free(entries);
    return st == DL_GPU_OK ? DL_EXIT_OK : st == DL_GPU_SYNTAX ? DL_EXIT_USAGE : DL_EXIT_BAD_INPUT;
}

int dl_run_choose_gpus(const dl_cli *cli, long **chosen, size_t *n_chosen)
{
    dl_machine m;
    dl_facts f;
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    dl_strv tokens = {0};
    char *error = NULL;
    dl_probe_ctx ctx;
    int code;
    *chosen = NULL;
    *n_chosen = 0;
    /* a malformed value is a usage error before any driver is asked */
    if (dl_gpu_split(cli->gpus, cli->n_gpus, &tokens, &error) != DL_GPU_OK) {
        dl_cli_error("%s", error);
        free(error);
        dl_strv_free(&tokens);
        return DL_EXIT_USAGE;
    }
    if (!dl_machine_open(&m, NULL, &error)) {
        dl_cli_error("%s", error);
        free(error);
        dl_strv_free(&tokens);
        return DL_EXIT_TOOL;
    }
    ctx.machine = &m;
    dl_cli_probe_settings(cli, &ctx.settings);
    dl_facts_init(&f);
    dl_probe_nvml(&ctx, &f, &out);
    free((char *)ctx.settings.self_path);
    if (!f.nvml.gpus.known || (f.nvml.gpus.count == 0 && out.status != DL_PROBE_OK))
        code = no_driver(&m, cli, &f, &out);
    else
        code = resolve(&tokens, &f, chosen, n_chosen);
    dl_strv_free(&tokens);
    free(out.detail);
    dl_facts_free(&f);
    dl_machine_close(&m);
    return code;
}
