/* byoc.h in the same program as a host-compiled stb_ds: BYOC_NO_STB_DS_IMPLEMENTATION avoids
   duplicate symbols, and byoc.h still works. */
#define BYOC_IMPLEMENTATION
#define BYOC_NO_STB_DS_IMPLEMENTATION
#include "byoc.h"
#include <stdio.h>

int host_sum_with_stb_ds(int n);

int main(void) {
    byoc_diag d;
    const char *text = "def @main(%x: Tensor[(4,), float32]) { nn.relu(%x) }";
    byoc_module *m = byoc_module_parse(text, strlen(text), "host.relay", NULL, &d);
    int ok = m && byoc_infer_type(m, &d) == BYOC_OK && host_sum_with_stb_ds(10) == 55;
    byoc_module_destroy(m);
    printf("%s\n", ok ? "host and byoc.h share stb_ds" : "broken");
    return ok ? 0 : 1;
}
