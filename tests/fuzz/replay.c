/* The fuzz targets without libFuzzer: each file named (or each file in a folder named) is
 * one input to LLVMFuzzerTestOneInput. ctest runs every target over its seeds and its
 * regression inputs (tests/fuzz/regress/TARGET) this way, in the plain and the ASan +
 * UBSan builds, so a crash once found stays fixed without clang. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long len;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    /* libFuzzer hands over a buffer of exactly the input's size: so does this, and ASan
     * sees a read past its end */
    data = malloc(len ? (size_t)len : 1);
    if (!data || fread(data, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        fclose(f);
        free(data);
        return 1;
    }
    fclose(f);
    printf("replay: %s\n", path);
    fflush(stdout);
    LLVMFuzzerTestOneInput(data, (size_t)len);
    free(data);
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int failed = 0;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or folder: %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    d = opendir(path);
    if (!d)
        return 1;
    while ((e = readdir(d)) != NULL) {
        char *full;
        if (e->d_name[0] == '.')
            continue;
        full = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (!full)
            abort();
        sprintf(full, "%s/%s", path, e->d_name);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
            failed |= run_file(full);
        free(full);
    }
    closedir(d);
    return failed;
}

int main(int argc, char **argv)
{
    int i, failed = 0;
    for (i = 1; i < argc; i++)
        failed |= run_path(argv[i]);
    return failed;
}
