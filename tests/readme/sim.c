/* Harness of a README snippet (see tests/readme_snippets.sh): lowering and running, given a module m
   loaded from model.relay and an input image; prints the profile table. */
@TOP@

int main(void) {
    byoc_diag diag;
    static float image[28 * 28];
    for (int i = 0; i < 28 * 28; ++i) image[i] = (float)(i % 17) / 17.0f;
    byoc_module *m = byoc_module_load("model.relay", NULL, &diag);
    if (!m) { fprintf(stderr, "%s\n", diag.message); return 1; }
@BODY@
    if (!table) return 1;
    printf("%s", table);
    byoc_sim_free(p, table);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    return 0;
}
