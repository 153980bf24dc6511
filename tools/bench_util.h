/* bench_util.h -- what the benchmark drivers share: medians, the models of a directory, and (after byoc_sim.h)
   seeded program inputs. */
#ifndef BYOC_TOOLS_BENCH_UTIL_H
#define BYOC_TOOLS_BENCH_UTIL_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The drivers take positional arguments only (paths, counts). --help or -h anywhere prints the usage on
   standard output and gives 0 (exit with it); any other argument starting with '-' is refused with the usage
   on standard error and gives 1, so an option is never taken for an output path (a JSON file named --help was
   once written and committed). -1: go on. */
static inline int tool_args(int argc, char **argv, const char *usage) {
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: %s\n", usage);
            return 0;
        }
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "%s: unknown option '%s'\nusage: %s\n", argv[0], argv[i], usage);
            return 1;
        }
    return -1;
}

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
#ifdef BYOC_SIM_H_INCLUDED /* after byoc_sim.h: seeded program inputs */
static uint64_t seed_state = 0x9e3779b97f4a7c15ull;
static inline uint64_t next_random(void) {
    uint64_t z = (seed_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* seeded inputs as byocc run makes them: floats in [-0.5, 0.5), integers (token ids, indices) in [0, 4) */
static inline int make_inputs(byoc_sim_program *p, byoc_tensor *in, int max) {
    int n = byoc_sim_input_count(p);
    if (n > max) return -1;
    for (int i = 0; i < n; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        in[i].dtype = io->dtype;
        in[i].rank = io->rank;
        memcpy(in[i].dims, io->dims, sizeof in[i].dims);
        in[i].data = calloc(1, io->nbytes ? io->nbytes : 1);
        if (!in[i].data) return -1;
        size_t count = io->nbytes / byoc_dtype_size(io->dtype);
        for (size_t e = 0; e < count; ++e) {
            uint64_t r = next_random();
            if (io->dtype == BYOC_FLOAT32) ((float *)in[i].data)[e] = (float)((double)(r >> 11) / 9007199254740992.0 - 0.5);
            else if (io->dtype == BYOC_INT64) ((int64_t *)in[i].data)[e] = (int64_t)(r % 4);
            else if (io->dtype == BYOC_INT32) ((int32_t *)in[i].data)[e] = (int32_t)(r % 4);
        }
    }
    return n;
}
#endif
#endif
