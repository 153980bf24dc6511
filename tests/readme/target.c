/* Harness of a README snippet (see tests/readme_snippets.sh): a target kind and a target, whose option
   must read back as written. */
@TOP@
#define BYOC_IMPLEMENTATION
#include "byoc.h"

int main(void) {
    byoc_diag diag;
@BODY@
    int64_t sram = byoc_attrs_int(&t->attrs, "sram_kb", 0);
    printf("sram_kb = %lld\n", (long long)sram);
    byoc_target_free(t);
    return sram == 512 ? 0 : 1;
}
