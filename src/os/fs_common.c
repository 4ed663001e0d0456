/* The parts of the file layer that are the same on every system. */
#include "os/fs_names.h"
#include "os/os.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

void dl_io_error_clear(dl_io_error *e)
{
    if (!e)
        return;
    free(e->message);
    e->message = NULL;
    e->status = DL_IO_OK;
}

void dl_names_push(char ***names, size_t *n, size_t *cap, char *owned)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *names = dl_xrealloc(*names, *cap * sizeof **names);
    }
    (*names)[(*n)++] = owned;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void dl_names_sort(char **names, size_t n)
{
    if (n)
        qsort(names, n, sizeof *names, compare_names);
}

void dl_fs_list_free(char **names, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
