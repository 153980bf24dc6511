/* A host program that compiles stb_ds's implementation itself (as many programs already do). */
#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>

int host_sum_with_stb_ds(int n) {
    int *values = NULL, sum = 0;
    for (int i = 1; i <= n; ++i) arrput(values, i);
    for (int i = 0; i < arrlen(values); ++i) sum += values[i];
    arrfree(values);
    return sum;
}
