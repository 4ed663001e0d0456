#include "test_know.h"

#include <stdlib.h>

dl_knowledge dl_test_know;

int dl_test_know_setup(void **state)
{
    char *error = NULL;
    (void)state;
    if (!dl_knowledge_load(&dl_test_know, NULL, &error)) {
        free(error);
        return -1;
    }
    return 0;
}

int dl_test_know_teardown(void **state)
{
    (void)state;
    dl_knowledge_free(&dl_test_know);
    return 0;
}
