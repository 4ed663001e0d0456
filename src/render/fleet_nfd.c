/* fleet check as a node-feature-discovery local feature file (features.d/dlenv): an expiry
 * header, then one `dlenv.io/NAME=VALUE` label a line. Values are made valid Kubernetes
 * label values (at most 63 of A-Z a-z 0-9 - _ ., alphanumeric at both ends); an unknown
 * value gives no label rather than a made-up one. */
#include "render/fleet_view.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LABEL_VALUE_MAX 63

static bool alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* "2.3.1+cu121" -> "2.3.1_cu121", "8.0,9.0" -> "8.0_9.0"; NULL when nothing is left. */
static char *label_value(const char *value)
{
    char *out = dl_strdup(value), *start = out;
    size_t i, n;
    for (i = 0; out[i]; i++)
        if (!alnum(out[i]) && out[i] != '-' && out[i] != '.' && out[i] != '_')
            out[i] = '_';
    while (*start && !alnum(*start))
        start++;
    n = strlen(start);
    if (n > LABEL_VALUE_MAX)
        n = LABEL_VALUE_MAX;
    while (n > 0 && !alnum(start[n - 1]))
        n--;
    memmove(out, start, n);
    out[n] = '\0';
    if (!n) {
        free(out);
        return NULL;
    }
    return out;
}

static void label(dl_buf *b, const char *name, const char *value)
{
    char *v = value ? label_value(value) : NULL;
    if (v)
        dl_buf_printf(b, "dlenv.io/%s=%s\n", name, v);
    free(v);
}

/* RFC 3339 in UTC: the form NFD's +expiry-time directive reads. */
static void expiry_line(dl_buf *b, long long at)
{
    char text[32];
    time_t t = (time_t)at;
    const struct tm *tm = gmtime(&t);
    if (tm && strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", tm))
        dl_buf_printf(b, "# +expiry-time=%s\n", text);
}

char *dl_render_fleet_nfd(const dl_fleet_input *in)
{
    dl_buf b = {0};
    dl_fleet_info info;
    const char *status = dl_fleet_status(in);
    bool ok = !strcmp(status, "ok") || !strcmp(status, "warning");
    expiry_line(&b, in->now + in->expiry_s);
    label(&b, "torch-cuda-ok", ok ? "true" : "false");
    label(&b, "status", status);
    if (in->view->root)
        label(&b, "root-cause", in->view->root->id.value);
    dl_fleet_info_build(in->facts, &info);
    label(&b, "driver", info.driver);
    label(&b, "driver-max-cuda", info.max_cuda);
    label(&b, "torch", info.torch);
    label(&b, "gpu-capability", info.capability);
    dl_fleet_info_free(&info);
    return dl_buf_take(&b);
}
