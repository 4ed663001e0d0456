/* dlenv data: the knowledge tables dlenv would use, where each came from and what it
 * cites, so a person can check a piece of advice against its source. */
#include "cli/exit_codes.h"
#include "cli/commands.h"
#include "cli/output.h"

#include "base/str.h"
#include "know/tables.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 80

/* How many bytes of s (at most max characters wide, counting characters, not bytes) go on one line: up to the last space,
 * else after the last '/' (a long URL), else a hard break on a character boundary. */
static size_t line_cut(const char *s, size_t max)
{
    size_t i = 0, w = 0, space = 0, slash = 0;
    while (s[i] && w < max) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        w++;
        if (s[i] == ' ')
            space = i;
        else if (s[i - 1] == '/')
            slash = i;
    }
    if (!s[i])
        return i;
    return space ? space : slash ? slash : i;
}

/* One item at indent, its continuation lines a little deeper, within WIDTH columns. */
static void put_wrapped(dl_buf *b, const char *bullet, const char *text)
{
    size_t first = strlen(bullet), indent = first + 2;
    const char *s = text;
    dl_buf_puts(b, bullet);
    while (*s) {
        size_t max = WIDTH - (s == text ? first : indent);
        size_t n = line_cut(s, max);
        if (s != text)
            dl_buf_printf(b, "%*s", (int)indent, "");
        dl_buf_add(b, s, n);
        dl_buf_puts(b, "\n");
        s += n;
        while (*s == ' ')
            s++;
    }
    if (!*text)
        dl_buf_puts(b, "\n");
}

static void text_table(dl_buf *b, const dl_table *t, const dl_style *style)
{
    dl_strv sources = {0};
    size_t i;
    char *line, *origin = dl_utf8_clean(t->origin, strlen(t->origin));
    dl_table_sources(t, &sources);
    dl_buf_printf(b, "%s%s%s\n", dl_style_on(style, DL_TONE_HEAD), t->name,
                  dl_style_off(style, DL_TONE_HEAD));
    line = dl_fmt("%zu rows, %zu columns, from %s", t->rows, t->cols, origin);
    put_wrapped(b, "  ", line);
    free(line);
    free(origin);
    dl_buf_printf(b, "  %zu source%s:\n", sources.n, sources.n == 1 ? "" : "s");
    for (i = 0; i < sources.n; i++) {
        /* A --data table is untrusted: no terminal escapes, newlines shown as \x0a. */
        char *clean = dl_utf8_clean(sources.v[i], strlen(sources.v[i]));
        put_wrapped(b, "  - ", clean);
        free(clean);
    }
    dl_strv_free(&sources);
}

static char *render_text(const dl_knowledge *k, const dl_style *style)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < DL_TABLE_COUNT; i++) {
        if (i)
            dl_buf_puts(&b, "\n");
        text_table(&b, &k->tables[i], style);
    }
    return dl_buf_take(&b);
}

static cJSON *json_strings(char **v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
    return a;
}

static cJSON *json_table(const dl_table *t)
{
    cJSON *o = cJSON_CreateObject();
    dl_strv sources = {0};
    dl_table_sources(t, &sources);
    cJSON_AddStringToObject(o, "name", t->name);
    cJSON_AddStringToObject(o, "origin", t->origin);
    cJSON_AddNumberToObject(o, "rows", (double)t->rows);
    cJSON_AddItemToObject(o, "columns", json_strings(t->header, t->cols));
    cJSON_AddItemToObject(o, "sources", json_strings(sources.v, sources.n));
    dl_strv_free(&sources);
    return o;
}

static char *render_json(const dl_knowledge *k)
{
    cJSON *root = cJSON_CreateObject(), *tables = cJSON_CreateArray();
    char *printed, *text;
    size_t i;
    cJSON_AddStringToObject(root, "schema", "dlenv.data/1");
    for (i = 0; i < DL_TABLE_COUNT; i++)
        cJSON_AddItemToArray(tables, json_table(&k->tables[i]));
    cJSON_AddItemToObject(root, "tables", tables);
    printed = cJSON_Print(root);
    text = dl_strdup(printed);
    cJSON_free(printed);
    cJSON_Delete(root);
    return text;
}

const dl_option dl_data_options[] = {
    DL_OPT_JSON,
    DL_OPT_END,
};

int dl_cmd_data(const dl_cli *cli, const dl_context *ctx)
{
    char *text;
    int rc;
    if (cli->json) {
        text = render_json(ctx->know);
    } else {
        dl_style style = dl_cli_style(cli);
        text = render_text(ctx->know, &style);
    }
    rc = dl_cli_write(text, cli->json);
    free(text);
    return rc;
}
