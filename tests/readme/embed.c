/* Harness of a README snippet (see tests/readme_snippets.sh): the embedded runtime, with an allocator
   that counts what is live (nothing may be left) and a zero input image. */
@TOP@
#include <stdlib.h>

typedef struct pool { size_t live; } pool;
static void *my_alloc(size_t n, void *user_data) { ((pool *)user_data)->live++; return malloc(n); }
static void my_free(void *ptr, void *user_data) { ((pool *)user_data)->live--; free(ptr); }

int main(void) {
    pool the_pool = {0};
    pool *my_pool = &the_pool;
    static float image[3 * 240 * 320];
@BODY@
    printf("allocations left in the pool: %lu\n", (unsigned long)the_pool.live);
    return the_pool.live == 0 ? 0 : 1;
}
