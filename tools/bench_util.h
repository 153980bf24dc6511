/* bench_util.h -- what the benchmark drivers share: medians, and the models of a directory. */
#ifndef BYOC_TOOLS_BENCH_UTIL_H
#define BYOC_TOOLS_BENCH_UTIL_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* sorts v */
static inline double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(double), by_value);
    return v[n / 2];
}

static inline int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* a directory's subdirectories (want_dirs) or .onnx files, sorted; the names are malloc'd */
static inline int list_dir(const char *dir, char **names, int max, int want_dirs) {
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && n < max) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(e->d_name);
        int is_onnx = len > 5 && !strcmp(e->d_name + len - 5, ".onnx");
        if (want_dirs == !is_onnx && (names[n] = (char *)malloc(len + 1)) != NULL) memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof *names, by_name);
    return n;
}

/* calls fn(label, path, user) for each model under dir: DIR/NAME/model.onnx as NAME, and every .onnx of a
   directory without one (zoo_light) as NAME/FILE; returns how many */
static inline int for_each_model(const char *dir, void (*fn)(const char *label, const char *path, void *user), void *user) {
    char *dirs[256];
    int ndirs = list_dir(dir, dirs, 256, 1), count = 0;
    for (int i = 0; i < ndirs; ++i) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/model.onnx", dir, dirs[i]);
        FILE *probe = fopen(path, "rb");
        if (probe) {
            fclose(probe);
            fn(dirs[i], path, user);
            count++;
        } else {
            char sub[2048], *files[64];
            snprintf(sub, sizeof sub, "%s/%s", dir, dirs[i]);
            int nf = list_dir(sub, files, 64, 0);
            for (int f = 0; f < nf; ++f) {
                char label[512];
                snprintf(path, sizeof path, "%s/%s", sub, files[f]);
                snprintf(label, sizeof label, "%s/%.*s", dirs[i], (int)(strlen(files[f]) - 5), files[f]);
                fn(label, path, user);
                count++;
                free(files[f]);
            }
        }
        free(dirs[i]);
    }
    return count;
}
#endif
