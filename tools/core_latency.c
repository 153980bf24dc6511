/* core_latency: how long one cache line takes to go from one core to another and back, measured with two threads
   pinned to the first two CPUs this process may use. make bench prints it beside each model's thread speedup
   (tools/bench_models.sh): on a virtual machine the host may place the two vCPUs on cores that share a last-level
   cache or on cores that do not, and a runtime whose threads hand data to each other (every kernel split over
   threads reads what the other thread wrote in the kernel before) runs at very different speeds in the two
   placements, ONNX Runtime as much as byocc. This tells a reader of the table which placement a row ran in.

   Usage: core_latency [ROUND_TRIPS]   (default 20000; seven runs, the median printed in nanoseconds)
   Prints "core round trip: N ns (cpu A <-> cpu B)", or says why it could not measure (one CPU, no threads). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#include <pthread.h>
#include <sched.h>
#define CORE_LATENCY_WORKS 1
#else
#define CORE_LATENCY_WORKS 0
#endif

#if CORE_LATENCY_WORKS
/* the line that goes back and forth: the caller writes odd values, the other thread answers with the next even */
static struct { long value; char rest[64 - sizeof(long)]; } line __attribute__((aligned(64)));
static long round_trips = 20000;
static int responder_cpu = -1, responder_unpinned;

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}
static int pin_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
}
static void *respond(void *arg) {
    long rounds = *(const long *)arg;
    if (!pin_to(responder_cpu)) __atomic_store_n(&responder_unpinned, 1, __ATOMIC_RELAXED); /* answers anyway */
    for (long i = 0; i < rounds; ++i) {
        while (__atomic_load_n(&line.value, __ATOMIC_ACQUIRE) != 2 * i + 1) relax();
        __atomic_store_n(&line.value, 2 * i + 2, __ATOMIC_RELEASE);
    }
    return NULL;
}
static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
/* one run: nanoseconds per round trip, or a negative number when the responder could not start */
static double one_run(void) {
    pthread_t responder;
    long rounds = round_trips;
    __atomic_store_n(&line.value, 0, __ATOMIC_RELEASE);
    if (pthread_create(&responder, NULL, respond, &rounds) != 0) return -1;
    double start = now_seconds();
    for (long i = 0; i < rounds; ++i) {
        __atomic_store_n(&line.value, 2 * i + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&line.value, __ATOMIC_ACQUIRE) != 2 * i + 2) relax();
    }
    double seconds = now_seconds() - start;
    pthread_join(responder, NULL);
    return 1e9 * seconds / (double)rounds;
}
static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
#endif

int main(int argc, char **argv) {
    if (argc > 2 || (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))) {
        fprintf(stderr, "usage: core_latency [ROUND_TRIPS]   (default 20000)\n");
        return argc > 2 ? 2 : 0;
    }
#if CORE_LATENCY_WORKS
    if (argc == 2) {
        char *end = NULL;
        round_trips = strtol(argv[1], &end, 10);
        if (!end || *end || round_trips < 1 || round_trips > 100000000) {
            fprintf(stderr, "core_latency: ROUND_TRIPS '%s' is not a count from 1 to 100000000\n", argv[1]);
            return 2;
        }
    }
    cpu_set_t allowed;
    int cpus[2], found = 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        printf("core round trip: - (the CPUs this process may use are unknown)\n");
        return 0;
    }
    for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
        if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
    if (found < 2) {
        printf("core round trip: - (one CPU)\n");
        return 0;
    }
    responder_cpu = cpus[1];
    if (!pin_to(cpus[0])) {
        printf("core round trip: - (cannot pin a thread to cpu %d)\n", cpus[0]);
        return 0;
    }
    double runs[7];
    for (int r = 0; r < 7; ++r) {
        runs[r] = one_run();
        if (runs[r] < 0) {
            printf("core round trip: - (no second thread)\n");
            return 0;
        }
    }
    if (responder_unpinned) {
        printf("core round trip: - (cannot pin a thread to cpu %d)\n", cpus[1]);
        return 0;
    }
    qsort(runs, 7, sizeof runs[0], by_value);
    printf("core round trip: %.0f ns (cpu %d <-> cpu %d)\n", runs[3], cpus[0], cpus[1]);
#else
    (void)argv;
    printf("core round trip: - (measured on Linux only)\n");
#endif
    return 0;
}
