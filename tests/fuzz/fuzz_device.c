/* libFuzzer target: the device blob loader and the command-stream simulator. The harness rewrites the
   trailing checksum so mutations reach the structural checks behind it (a wrong checksum alone is
   covered by test_devices). A refused blob must come with a message; a loaded one must run on
   seeded inputs to completion or to an error with a message, never past its buffers. Programs whose
   scratch or tensors pass 64 MB are loaded and checked but not run (libFuzzer's memory limit). */
#define BYOC_SIM_IMPLEMENTATION
#include "../../byoc_sim.h"
#include <stdlib.h>

#define FUZZ_RUN_LIMIT (64u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned char *blob = (unsigned char *)malloc(size ? size : 1);
    if (!blob) return 0;
    if (size) memcpy(blob, data, size);
    if (size >= 16) {
        uint64_t sum = byoc__dv_fnv(blob, size - 8);
        for (int i = 0; i < 8; ++i) blob[size - 8 + i] = (unsigned char)(sum >> (8 * i));
    }
    byoc_diag d;
    memset(&d, 0, sizeof d);
    byoc_sim_device_program *dp = byoc_sim_device_load(blob, size, &d);
    if (!dp) {
        if (!d.message[0]) abort();
        free(blob);
        return 0;
    }
    byoc__dv_stream *s = &dp->s;
    byoc_tensor in[16], out[16];
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    uint64_t total = s->scratch_bytes;
    int runnable = s->ninputs <= 16 && s->noutputs <= 16;
    for (int i = 0; i < s->ntensors && runnable; ++i) {
        byoc__dv_tensor *t = &s->tensors[i];
        if (t->kind != BYOC__DV_INPUT && t->kind != BYOC__DV_OUTPUT) continue;
        byoc_tensor *x = t->kind == BYOC__DV_INPUT ? &in[t->index] : &out[t->index];
        if (x->data || t->nbytes > FUZZ_RUN_LIMIT || total + t->nbytes > FUZZ_RUN_LIMIT) { runnable = 0; break; }
        total += t->nbytes;
        x->dtype = (byoc_dtype)t->dtype;
        x->rank = t->rank;
        memcpy(x->dims, t->dims, sizeof x->dims);
        x->data = malloc(t->nbytes ? (size_t)t->nbytes : 1);
        if (!x->data) { runnable = 0; break; }
        for (uint64_t b = 0; b < t->nbytes; ++b) ((unsigned char *)x->data)[b] = (unsigned char)(b * 37 + 11) & 0x3f; /* finite floats */
    }
    for (int i = 0; i < s->ninputs && runnable; ++i) runnable = in[i].data != NULL;
    for (int i = 0; i < s->noutputs && runnable; ++i) runnable = out[i].data != NULL;
    if (runnable && total <= FUZZ_RUN_LIMIT) {
        byoc_sim_cost cost;
        if (byoc_sim_device_run(dp, in, s->ninputs, out, s->noutputs, &cost, &d) != BYOC_OK) {
            if (!d.message[0]) abort();
        } else {
            if (cost.commands != byoc_sim_device_command_count(dp)) abort();
            for (int i = 0; i < cost.commands; ++i) {
                byoc_sim_command_info c = byoc_sim_device_command(dp, i);
                if (c.start + c.cycles > cost.cycles) abort(); /* every command ends by the program's end */
            }
        }
    }
    for (int i = 0; i < 16; ++i) free(in[i].data), free(out[i].data);
    byoc_sim_device_program_destroy(dp);
    free(blob);
    return 0;
}
