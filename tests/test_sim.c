/* Tests of byoc_sim.h: lowering, the memory plan and the runtime. Every program's outputs are checked against
   byoc_module_evaluate on the same inputs, and against the same program lowered with fused tiling, in-place
   writes and views turned off; every memory plan goes through a checker that rebuilds lifetimes from the
   schedule's accesses on its own. */
#include "byoc_sim.h"
#include "test.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static uint64_t rng_state;
static uint32_t rnd(uint32_t n) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}
static float rnd_float(float scale) { return ((float)rnd(2001) / 1000.0f - 1.0f) * scale; }

static byoc_module *parse_typed(const char *text) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "t.relay", NULL, &d);
    if (!m) { fprintf(stderr, "%s\n", d.message); return NULL; }
    if (byoc_infer_type(m, &d) != BYOC_OK) { fprintf(stderr, "%s\n", d.message); byoc_module_destroy(m); return NULL; }
    return m;
}

static const byoc_type *f32(byoc_module *m, int rank, int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t dims[4] = {a, b, c, d};
    return byoc_tensor_type(m, BYOC_FLOAT32, rank, dims);
}

/* a constant with values uniform in [-scale, scale] */
static byoc_node *weights(byoc_module *m, const byoc_type *t, float scale) {
    int64_t n = byoc_type_num_elements(t);
    float *data = (float *)malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; ++i) data[i] = rnd_float(scale);
    byoc_node *c = byoc_constant(m, t, data, sizeof(float) * (size_t)n);
    free(data);
    return c;
}

/* conv2d (OIHW weights scaled by fan-in) with a per-channel scale and shift, as a folded batch norm leaves them */
static byoc_node *conv_bn(byoc_module *m, byoc_node *x, int64_t cin, int64_t cout, int64_t k, int64_t stride, int64_t groups, int relu) {
    byoc_attrs a = {0};
    int64_t pad[2] = {k / 2, k / 2}, strides[2] = {stride, stride};
    byoc_attrs_set_ints(m, &a, "padding", pad, 2);
    byoc_attrs_set_ints(m, &a, "strides", strides, 2);
    byoc_attrs_set_int(m, &a, "groups", groups);
    byoc_node *args[2] = {x, weights(m, f32(m, 4, cout, cin / groups, k, k), 1.5f / sqrtf((float)(cin / groups * k * k)))};
    byoc_node *y = byoc_call(m, "nn.conv2d", args, 2, &a);
    byoc_node *mul[2] = {y, weights(m, f32(m, 3, cout, 1, 1, 1), 1.0f)};
    y = byoc_call(m, "multiply", mul, 2, NULL);
    byoc_node *add[2] = {y, weights(m, f32(m, 3, cout, 1, 1, 1), 0.2f)};
    y = byoc_call(m, "add", add, 2, NULL);
    return relu ? byoc_call(m, "nn.relu", &y, 1, NULL) : y;
}

static byoc_node *pool(byoc_module *m, const char *op, byoc_node *x, int64_t size, int64_t stride, int64_t pad) {
    byoc_attrs a = {0};
    int64_t ps[2] = {size, size}, st[2] = {stride, stride}, pd[2] = {pad, pad};
    byoc_attrs_set_ints(m, &a, "pool_size", ps, 2);
    byoc_attrs_set_ints(m, &a, "strides", st, 2);
    byoc_attrs_set_ints(m, &a, "padding", pd, 2);
    return byoc_call(m, op, &x, 1, &a);
}

static byoc_node *binary(byoc_module *m, const char *op, byoc_node *a, byoc_node *b) {
    byoc_node *args[2] = {a, b};
    return byoc_call(m, op, args, 2, NULL);
}

static byoc_node *concat(byoc_module *m, byoc_node *const *parts, int n, int axis) {
    byoc_attrs a = {0};
    byoc_attrs_set_int(m, &a, "axis", axis);
    byoc_node *t = byoc_tuple(m, parts, n);
    return byoc_call(m, "concatenate", &t, 1, &a);
}

static byoc_node *reshape(byoc_module *m, byoc_node *x, const int64_t *shape, int n) {
    byoc_attrs a = {0};
    byoc_attrs_set_ints(m, &a, "newshape", shape, n);
    return byoc_call(m, "reshape", &x, 1, &a);
}

/* global average pool, flatten, dense, softmax */
static byoc_node *classifier(byoc_module *m, byoc_node *x, int64_t channels, int64_t classes) {
    x = byoc_call(m, "nn.global_avg_pool2d", &x, 1, NULL);
    int64_t flat[2] = {1, channels};
    x = reshape(m, x, flat, 2);
    byoc_node *args[2] = {x, weights(m, f32(m, 2, classes, channels, 0, 0), 1.0f / sqrtf((float)channels))};
    x = byoc_call(m, "nn.dense", args, 2, NULL);
    x = binary(m, "add", x, weights(m, f32(m, 2, 1, classes, 0, 0), 0.1f));
    return byoc_call(m, "nn.softmax", &x, 1, NULL);
}

static byoc_module *finish(byoc_module *m, byoc_node *x, byoc_node *body) {
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, body, NULL, NULL));
    byoc_diag d;
    if (byoc_module_error(m) || byoc_infer_type(m, &d) != BYOC_OK) {
        fprintf(stderr, "%s\n", byoc_module_error(m) ? byoc_module_error(m)->message : d.message);
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* ResNet-like: a stem, three stages of two basic blocks (the first of a stage strided, with a 1x1 projection) */
static byoc_module *resnet_like(void) {
    rng_state = 11;
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, 3, 32, 32));
    byoc_node *y = conv_bn(m, x, 3, 16, 3, 1, 1, 1);
    int64_t c = 16;
    for (int stage = 0; stage < 3; ++stage) {
        int64_t cout = 16 << stage;
        for (int block = 0; block < 2; ++block) {
            int64_t stride = stage > 0 && block == 0 ? 2 : 1;
            byoc_node *shortcut = stride > 1 || c != cout ? conv_bn(m, y, c, cout, 1, stride, 1, 0) : y;
            byoc_node *z = conv_bn(m, y, c, cout, 3, stride, 1, 1);
            z = conv_bn(m, z, cout, cout, 3, 1, 1, 0);
            byoc_node *sum = binary(m, "add", z, shortcut);
            y = byoc_call(m, "nn.relu", &sum, 1, NULL);
            c = cout;
        }
    }
    return finish(m, x, classifier(m, y, c, 10));
}

/* SqueezeNet-like: fire modules (squeeze 1x1, expand 1x1 and 3x3, concatenated) between max pools */
static byoc_node *fire(byoc_module *m, byoc_node *x, int64_t cin, int64_t squeeze, int64_t expand) {
    byoc_node *s = conv_bn(m, x, cin, squeeze, 1, 1, 1, 1);
    byoc_node *parts[2] = {conv_bn(m, s, squeeze, expand, 1, 1, 1, 1), conv_bn(m, s, squeeze, expand, 3, 1, 1, 1)};
    return concat(m, parts, 2, 1);
}
static byoc_module *squeezenet_like(void) {
    rng_state = 12;
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, 3, 48, 48));
    byoc_node *y = conv_bn(m, x, 3, 32, 3, 2, 1, 1);
    y = pool(m, "nn.max_pool2d", y, 3, 2, 1);
    y = fire(m, y, 32, 8, 16);
    y = fire(m, y, 32, 8, 16);
    y = pool(m, "nn.max_pool2d", y, 3, 2, 1);
    y = fire(m, y, 32, 12, 24);
    y = fire(m, y, 48, 12, 24);
    y = conv_bn(m, y, 48, 10, 1, 1, 1, 1);
    return finish(m, x, classifier(m, y, 10, 10));
}

/* ShuffleNet-v2-like: units that split the channels, run one half through 1x1 / depthwise 3x3 / 1x1, concatenate
   and shuffle the channels (reshape, transpose, reshape); strided units run both branches on the whole input */
static byoc_node *shuffle(byoc_module *m, byoc_node *x, int64_t c, int64_t h) {
    int64_t five[5] = {1, 2, c / 2, h, h}, four[4] = {1, c, h, h}, axes[5] = {0, 2, 1, 3, 4};
    x = reshape(m, x, five, 5);
    byoc_attrs a = {0};
    byoc_attrs_set_ints(m, &a, "axes", axes, 5);
    x = byoc_call(m, "transpose", &x, 1, &a);
    return reshape(m, x, four, 4);
}
static byoc_node *shuffle_unit(byoc_module *m, byoc_node *x, int64_t c, int64_t h, int strided) {
    byoc_node *left, *right;
    if (strided) {
        left = conv_bn(m, conv_bn(m, x, c, c, 3, 2, c, 0), c, c, 1, 1, 1, 1);
        right = conv_bn(m, x, c, c, 1, 1, 1, 1);
        right = conv_bn(m, conv_bn(m, right, c, c, 3, 2, c, 0), c, c, 1, 1, 1, 1);
        byoc_node *parts[2] = {left, right};
        return shuffle(m, concat(m, parts, 2, 1), 2 * c, h / 2);
    }
    byoc_attrs a = {0};
    byoc_attrs_set_int(m, &a, "indices_or_sections", 2);
    byoc_attrs_set_int(m, &a, "axis", 1);
    byoc_node *halves = byoc_call(m, "split", &x, 1, &a);
    left = byoc_tuple_get_item(m, halves, 0);
    right = conv_bn(m, byoc_tuple_get_item(m, halves, 1), c / 2, c / 2, 1, 1, 1, 1);
    right = conv_bn(m, conv_bn(m, right, c / 2, c / 2, 3, 1, c / 2, 0), c / 2, c / 2, 1, 1, 1, 1);
    byoc_node *parts[2] = {left, right};
    return shuffle(m, concat(m, parts, 2, 1), c, h);
}
static byoc_module *shufflenet_like(void) {
    rng_state = 13;
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, 3, 64, 64));
    byoc_node *y = conv_bn(m, x, 3, 24, 3, 2, 1, 1);
    y = pool(m, "nn.max_pool2d", y, 3, 2, 1); /* 24 x 16 x 16 */
    y = shuffle_unit(m, y, 24, 16, 1);         /* 48 x 8 x 8 */
    y = shuffle_unit(m, y, 48, 8, 0);
    y = shuffle_unit(m, y, 48, 8, 0);
    y = shuffle_unit(m, y, 48, 8, 1);          /* 96 x 4 x 4 */
    y = shuffle_unit(m, y, 96, 4, 0);
    return finish(m, x, classifier(m, y, 96, 10));
}

/* the program's inputs, filled with seeded values */
static byoc_tensor *make_inputs(const byoc_sim_program *p, uint64_t seed) {
    int n = byoc_sim_input_count(p);
    byoc_tensor *in = (byoc_tensor *)calloc((size_t)(n ? n : 1), sizeof *in);
    rng_state = seed;
    for (int i = 0; i < n; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        in[i].dtype = io->dtype;
        in[i].rank = io->rank;
        memcpy(in[i].dims, io->dims, sizeof io->dims);
        in[i].data = malloc(io->nbytes ? io->nbytes : 1);
        for (size_t k = 0; k < io->nbytes / sizeof(float); ++k) ((float *)in[i].data)[k] = rnd_float(1.0f);
    }
    return in;
}
static void free_inputs(byoc_tensor *in, int n) {
    for (int i = 0; i < n; ++i) free(in[i].data);
    free(in);
}

/* the argument for a parameter of type t from the input tensors in[*at...] (a tuple parameter takes one per field) */
static byoc_node *argument(byoc_module *m, const byoc_type *t, const byoc_tensor *in, int *at) {
    if (t->kind == BYOC_TYPE_TUPLE) {
        byoc_node *fields[8];
        for (int i = 0; i < t->nfields && i < 8; ++i) fields[i] = argument(m, t->fields[i], in, at);
        return byoc_tuple(m, fields, t->nfields);
    }
    const byoc_tensor *x = &in[(*at)++];
    const byoc_type *ty = byoc_tensor_type(m, x->dtype, x->rank, x->dims);
    return byoc_constant(m, ty, x->data, (size_t)byoc_type_num_elements(ty) * byoc_dtype_size(x->dtype));
}

/* byoc_module_evaluate's result on the same inputs, as one flat float array per output */
static int evaluate(byoc_module *m, const byoc_tensor *in, int nin, float **outs, int nout, char *why, size_t cap) {
    byoc_node *main_fn = byoc_module_function(m, "main");
    byoc_node *args[16];
    int at = 0;
    for (int i = 0; i < main_fn->nparams && i < 16; ++i) args[i] = argument(m, main_fn->params[i]->checked_type, in, &at);
    if (at != nin) { snprintf(why, cap, "%d inputs for %d tensors of parameters", nin, at); return 0; }
    byoc_node *out = NULL;
    byoc_diag d;
    byoc_result r = byoc_module_evaluate(m, args, main_fn->nparams, &out, &d);
    if (r != BYOC_OK) { snprintf(why, cap, "evaluate: %s", d.message); return 0; }
    /* flatten the result's tensor leaves, depth first */
    const byoc_node *stack[64];
    int top = 0, k = 0;
    stack[top++] = out;
    const byoc_node *order[64];
    int norder = 0;
    while (top) { /* fields in order: push them reversed */
        const byoc_node *n = stack[--top];
        if (n->kind == BYOC_NODE_TUPLE) for (int i = n->nargs - 1; i >= 0; --i) stack[top++] = n->args[i];
        else order[norder++] = n;
    }
    if (norder != nout) { snprintf(why, cap, "evaluate gave %d outputs, the program %d", norder, nout); return 0; }
    for (k = 0; k < nout; ++k) {
        size_t n = byoc_constant_nbytes(order[k]) / sizeof(float);
        outs[k] = (float *)malloc(sizeof(float) * (n ? n : 1));
        memcpy(outs[k], order[k]->data, sizeof(float) * n);
    }
    return 1;
}

/* bitwise, or within 1e-5 relative to the value (with a floor at 1e-3 of the output's largest magnitude) */
static int close_enough(const float *got, const float *want, size_t n, int bitwise, char *why, size_t cap) {
    float scale = 0;
    for (size_t i = 0; i < n; ++i) if (fabsf(want[i]) > scale) scale = fabsf(want[i]);
    for (size_t i = 0; i < n; ++i) {
        int ok = bitwise ? memcmp(&got[i], &want[i], sizeof(float)) == 0 : fabsf(got[i] - want[i]) <= 1e-5f * (fabsf(want[i]) + 1e-3f * scale);
        if (!ok) {
            snprintf(why, cap, "element %zu: %.9g, expected %.9g", i, got[i], want[i]);
            return 0;
        }
    }
    return 1;
}

/* Is arena buffer a a slice of b (directly or through slices of slices), at the place the offsets say? */
static int slice_within(const byoc_sim_program *p, int a, int b) {
    byoc_sim_buffer_info A = byoc_sim_buffer(p, a), B = byoc_sim_buffer(p, b);
    size_t at = 0;
    for (int x = a; x >= 0; x = byoc_sim_buffer(p, x).slice_of) {
        if (x == b) return A.offset == B.offset + at && A.offset + A.size <= B.offset + B.size;
        at += byoc_sim_buffer(p, x).slice_offset;
    }
    return 0;
}

/* The independent plan checker: rebuilds each buffer's lifetime from the accesses (first write, last access) and
   checks that arena buffers alive at the same slot do not overlap, except an in-place pair at the one slot where
   the older is read for the last time and the newer written for the first, and a concatenation's input that is a
   slice of its result (read for the last time where the result is made); that every buffer fits its storage;
   and that the reported lower bound is the peak of live bytes (a result whose inputs are slices holds its bytes from
   the first slice's write on, the slices none of their own). */
static int check_plan(const byoc_sim_program *p, char *why, size_t cap) {
    int nb = byoc_sim_buffer_count(p), na;
    const byoc_sim_access *acc = byoc_sim_accesses(p, &na);
    byoc_sim_memory_plan plan = byoc_sim_memory(p);
    int *first = (int *)malloc(sizeof(int) * (size_t)(nb ? nb : 1)), *last = (int *)malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    int ok = 1;
    for (int b = 0; b < nb; ++b) first[b] = INT_MAX, last[b] = -1;
    for (int i = 0; i < na && ok; ++i) {
        int b = acc[i].buffer;
        if (acc[i].write && acc[i].slot < first[b]) first[b] = acc[i].slot;
        if (acc[i].slot > last[b]) last[b] = acc[i].slot;
        if (i && acc[i].slot < acc[i - 1].slot) { snprintf(why, cap, "accesses out of slot order"); ok = 0; }
    }
    for (int b = 0; b < nb && ok; ++b) {
        byoc_sim_buffer_info bi = byoc_sim_buffer(p, b);
        if (bi.kind == BYOC_SIM_BUFFER_ARENA || bi.kind == BYOC_SIM_BUFFER_OUTPUT) {
            size_t room = bi.kind == BYOC_SIM_BUFFER_ARENA ? plan.arena_bytes : plan.output_bytes;
            if (bi.offset + bi.size > room) { snprintf(why, cap, "buffer %d [%zu, %zu) is outside its storage of %zu bytes", b, bi.offset, bi.offset + bi.size, room); ok = 0; }
            if (first[b] == INT_MAX) { snprintf(why, cap, "buffer %d is never written", b); ok = 0; }
            for (int i = 0; i < na && ok; ++i)
                if (acc[i].buffer == b && !acc[i].write && acc[i].slot < first[b]) { snprintf(why, cap, "buffer %d is read at slot %d before it is written", b, acc[i].slot); ok = 0; }
        }
    }
    for (int a = 0; a < nb && ok; ++a) {
        byoc_sim_buffer_info A = byoc_sim_buffer(p, a);
        if (A.kind != BYOC_SIM_BUFFER_ARENA) continue;
        for (int b = a + 1; b < nb && ok; ++b) {
            byoc_sim_buffer_info B = byoc_sim_buffer(p, b);
            if (B.kind != BYOC_SIM_BUFFER_ARENA) continue;
            int in_time = first[a] <= last[b] && first[b] <= last[a];
            int in_space = A.offset < B.offset + B.size && B.offset < A.offset + A.size;
            if (!in_time || !in_space) continue;
            int legal = (B.inplace_of == a && first[b] == last[a] && B.size == A.size && B.offset == A.offset) ||
                        (A.inplace_of == b && first[a] == last[b] && A.size == B.size && A.offset == B.offset) ||
                        (slice_within(p, a, b) && last[a] <= first[b]) || (slice_within(p, b, a) && last[b] <= first[a]);
            if (!legal) {
                snprintf(why, cap, "buffers %d (slots %d-%d, bytes %zu-%zu) and %d (slots %d-%d, bytes %zu-%zu) overlap", a, first[a], last[a], A.offset, A.offset + A.size, b,
                         first[b], last[b], B.offset, B.offset + B.size);
                ok = 0;
            }
        }
    }
    /* a slice lies where its offset says, inside its concatenation's result */
    for (int b = 0; b < nb && ok; ++b) {
        byoc_sim_buffer_info bi = byoc_sim_buffer(p, b);
        if (bi.slice_of < 0) continue;
        if (!slice_within(p, b, bi.slice_of) || byoc_sim_buffer(p, bi.slice_of).kind != bi.kind) {
            snprintf(why, cap, "buffer %d is not inside buffer %d at offset %zu", b, bi.slice_of, bi.slice_offset);
            ok = 0;
        }
    }
    /* a slice result's storage is held from the first write of any slice nested in it */
    int *held = (int *)malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    for (int b = 0; b < nb; ++b) held[b] = first[b];
    for (int b = 0; b < nb; ++b) {
        int r = b;
        while (byoc_sim_buffer(p, r).slice_of >= 0) r = byoc_sim_buffer(p, r).slice_of;
        if (first[b] < held[r]) held[r] = first[b];
    }
    /* peak of live bytes: an in-place pair shares one storage at its boundary slot */
    size_t peak = 0;
    for (int s = 0; s < plan.slots && ok; ++s) {
        size_t live = 0;
        for (int b = 0; b < nb; ++b) {
            byoc_sim_buffer_info bi = byoc_sim_buffer(p, b);
            if (bi.kind != BYOC_SIM_BUFFER_ARENA || bi.slice_of >= 0 || held[b] > s || last[b] < s) continue;
            if (bi.inplace_of >= 0 && first[b] == s && last[bi.inplace_of] == s) continue;
            live += bi.size;
        }
        if (live > peak) peak = live;
    }
    if (ok && peak != plan.lower_bound_bytes) { snprintf(why, cap, "lower bound %zu, the checker finds %zu", plan.lower_bound_bytes, peak); ok = 0; }
    if (ok && plan.arena_bytes < plan.lower_bound_bytes) { snprintf(why, cap, "arena %zu below the lower bound %zu", plan.arena_bytes, plan.lower_bound_bytes); ok = 0; }
    free(held);
    free(first);
    free(last);
    return ok;
}

/* Lowers m with opt, checks the plan, runs it three times on seeded inputs and returns the outputs of the last run
   (copies, in *outs; the count in *nout), after checking that every run gives the same bytes. */
static int run_program(byoc_module *m, const byoc_sim_options *opt, float ***outs, int *nout, byoc_sim_memory_plan *plan, char *why, size_t cap) {
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(m, opt, &d);
    if (!p) { snprintf(why, cap, "lower: %s", d.message); return 0; }
    int ok = check_plan(p, why, cap);
    int nin = byoc_sim_input_count(p), no = byoc_sim_output_count(p);
    byoc_tensor *in = make_inputs(p, 99);
    byoc_tensor *out = (byoc_tensor *)calloc((size_t)(no ? no : 1), sizeof *out);
    float **first = (float **)calloc((size_t)(no ? no : 1), sizeof *first);
    for (int r = 0; ok && r < 3; ++r) {
        if (byoc_sim_run(p, in, nin, out, no, &d) != BYOC_OK) { snprintf(why, cap, "run %d: %s", r, d.message); ok = 0; break; }
        for (int k = 0; ok && k < no; ++k) {
            size_t n = byoc_sim_output(p, k)->nbytes;
            if (!first[k]) {
                first[k] = (float *)malloc(n ? n : 1);
                memcpy(first[k], out[k].data, n);
            } else if (memcmp(first[k], out[k].data, n)) {
                snprintf(why, cap, "run %d gives other bytes for output %d than run 0", r, k);
                ok = 0;
            }
        }
    }
    if (plan) *plan = byoc_sim_memory(p);
    *outs = first;
    *nout = no;
    free_inputs(in, nin);
    free(out);
    byoc_sim_program_destroy(p);
    return ok;
}

static void free_outputs(float **o, int n) {
    for (int i = 0; o && i < n; ++i) free(o[i]);
    free(o);
}

/* The whole check for one module: the program (default options) equals byoc_module_evaluate and the program with
   fused tiling, in-place writes and views off (within 1e-5: byoc.h's sigmoid, tanh and exp compute lanes of a
   vector and the scalar tail differently, so an element's last bit depends on where a tile starts); the plans
   are valid. */
static int check_module(byoc_module *m, byoc_sim_memory_plan *plan, char *why, size_t cap) {
    byoc_sim_options plain;
    memset(&plain, 0, sizeof plain);
    plain.no_fused_tiling = plain.no_inplace = plain.no_alias = 1;
    float **got = NULL, **ref = NULL, **want = NULL;
    int n = 0, n2 = 0, ok = run_program(m, NULL, &got, &n, plan, why, cap) && run_program(m, &plain, &ref, &n2, NULL, why, cap);
    byoc_diag d;
    byoc_sim_program *p = ok ? byoc_sim_lower(m, NULL, &d) : NULL;
    if (ok && !p) { snprintf(why, cap, "lower: %s", d.message); ok = 0; }
    int nin = p ? byoc_sim_input_count(p) : 0;
    byoc_tensor *in = p ? make_inputs(p, 99) : NULL;
    if (ok) want = (float **)calloc((size_t)(n ? n : 1), sizeof *want);
    ok = ok && evaluate(m, in, nin, want, n, why, cap);
    for (int k = 0; ok && k < n; ++k) {
        size_t count = byoc_sim_output(p, k)->nbytes / sizeof(float);
        char sub[400];
        if (!close_enough(got[k], ref[k], count, 0, sub, sizeof sub)) { snprintf(why, cap, "output %d, fused vs op by op: %s", k, sub); ok = 0; }
        else if (!close_enough(got[k], want[k], count, 0, sub, sizeof sub)) { snprintf(why, cap, "output %d vs evaluate: %s", k, sub); ok = 0; }
    }
    if (in) free_inputs(in, nin);
    byoc_sim_program_destroy(p);
    free_outputs(got, n);
    free_outputs(ref, n2);
    free_outputs(want, n);
    return ok;
}

static byoc_module *fused(byoc_module *m) {
    byoc_diag d;
    byoc_module *f = byoc_module_clone(m, NULL);
    if (byoc_fuse_ops(f, 256, &d) != BYOC_OK) { fprintf(stderr, "%s\n", d.message); byoc_module_destroy(f); return NULL; }
    return f;
}

/* ---- tests ---- */
static void test_mnist_unfused_and_fused(void) {
    byoc_diag d;
    byoc_module *m = byoc_module_load("tests/inputs/mnist.relay", NULL, &d);
    CHECKF(m != NULL, "%s", d.message);
    char why[600];
    byoc_sim_memory_plan plan;
    CHECKF(check_module(m, &plan, why, sizeof why), "unfused: %s", why);
    byoc_module *f = fused(m);
    CHECK(f != NULL);
    CHECKF(check_module(f, &plan, why, sizeof why), "fused: %s", why);
    /* fused: pad, conv+add+relu (anchor), pool, pad, conv+add+relu, pool, dense+add; the reshape is a view */
    byoc_sim_program *p = byoc_sim_lower(f, NULL, &d);
    CHECK(p != NULL);
    CHECKF(byoc_sim_kernel_count(p) == 7, "%d kernels", byoc_sim_kernel_count(p));
    CHECK(byoc_sim_kernel(p, 1)->exec == BYOC_SIM_EXEC_ANCHOR && byoc_sim_kernel(p, 1)->nops == 3);
    CHECK(!strcmp(byoc_sim_kernel(p, 1)->ops, "nn.conv2d+add+nn.relu"));
    CHECK(byoc_sim_kernel(p, 6)->exec == BYOC_SIM_EXEC_ANCHOR && !strcmp(byoc_sim_kernel(p, 6)->ops, "nn.dense+add"));
    CHECK(byoc_sim_memory(p).views == 1);
    CHECK(byoc_sim_input_count(p) == 1 && !strcmp(byoc_sim_input(p, 0)->name, "%x"));
    CHECK(byoc_sim_output_count(p) == 1 && byoc_sim_output(p, 0)->nbytes == 40);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}

/* arena within 1.25x of the lower bound on CNN-like graphs, unfused and fused */
static void check_cnn(byoc_module *(*build)(void), const char *name) {
    byoc_module *m = build();
    CHECKF(m != NULL, "%s did not build", name);
    char why[600];
    byoc_sim_memory_plan plan;
    CHECKF(check_module(m, &plan, why, sizeof why), "%s unfused: %s", name, why);
    double r1 = (double)plan.arena_bytes / (double)plan.lower_bound_bytes;
    CHECKF(r1 <= 1.25, "%s unfused: arena %zu, lower bound %zu (%.3f)", name, plan.arena_bytes, plan.lower_bound_bytes, r1);
    CHECKF(plan.in_place > 0, "%s unfused: nothing in place", name);
    byoc_sim_memory_plan unfused = plan;
    byoc_module *f = fused(m);
    CHECK(f != NULL);
    CHECKF(check_module(f, &plan, why, sizeof why), "%s fused: %s", name, why);
    double r2 = (double)plan.arena_bytes / (double)plan.lower_bound_bytes;
    CHECKF(r2 <= 1.25, "%s fused: arena %zu, lower bound %zu (%.3f)", name, plan.arena_bytes, plan.lower_bound_bytes, r2);
    printf("%s: arena %zu, lower bound %zu (%.3f) unfused; %zu, %zu (%.3f) fused\n", name, unfused.arena_bytes, unfused.lower_bound_bytes, r1,
           plan.arena_bytes, plan.lower_bound_bytes, r2);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}
static void test_resnet_like(void) { check_cnn(resnet_like, "resnet-like"); }
static void test_squeezenet_like(void) { check_cnn(squeezenet_like, "squeezenet-like"); }
static void test_shufflenet_like(void) { check_cnn(shufflenet_like, "shufflenet-like"); }

/* random DAGs of feature maps with residual adds, concatenate + split, tuples, reshapes, broadcast constants */
static byoc_module *random_module(uint64_t seed) {
    rng_state = seed;
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, 8, 6, 6));
    byoc_node *vals[48];
    int n = 1, target = 6 + (int)rnd(24);
    vals[0] = x;
    while (n < target) {
        byoc_node *a = vals[rnd(4) ? n - 1 - (int)rnd((uint32_t)(n < 3 ? n : 3)) : (int)rnd((uint32_t)n)], *b = vals[rnd((uint32_t)n)], *r = NULL;
        switch (rnd(11)) {
        case 0: r = byoc_call(m, "nn.relu", &a, 1, NULL); break;
        case 1: r = byoc_call(m, rnd(2) ? "sigmoid" : "tanh", &a, 1, NULL); break;
        case 2: r = binary(m, "add", a, b); break; /* a residual add */
        case 3: r = binary(m, rnd(2) ? "multiply" : "subtract", a, weights(m, f32(m, 3, 8, 1, 1, 0), 1.0f)); break;
        case 4: r = binary(m, "maximum", a, weights(m, f32(m, 0, 0, 0, 0, 0), 0.5f)); break; /* a scalar */
        case 5: r = conv_bn(m, a, 8, 8, rnd(2) ? 3 : 1, 1, rnd(3) ? 1 : 8, (int)rnd(2)); break;
        case 6: { /* concatenate on channels, split back, keep one half */
            byoc_node *parts[2] = {a, b};
            byoc_attrs sa = {0};
            byoc_attrs_set_int(m, &sa, "indices_or_sections", 2);
            byoc_attrs_set_int(m, &sa, "axis", 1);
            byoc_node *cat = concat(m, parts, 2, 1);
            r = byoc_tuple_get_item(m, byoc_call(m, "split", &cat, 1, &sa), (int)rnd(2));
            break;
        }
        case 7: { /* flatten and back: views */
            int64_t flat[2] = {1, 288}, back[4] = {1, 8, 6, 6};
            r = reshape(m, reshape(m, a, flat, 2), back, 4);
            break;
        }
        case 8: { /* a tuple built and taken apart */
            byoc_node *fields[2] = {byoc_call(m, "negative", &a, 1, NULL), b};
            byoc_node *t = byoc_tuple(m, fields, 2);
            r = binary(m, "add", byoc_tuple_get_item(m, t, 0), byoc_tuple_get_item(m, t, 1));
            break;
        }
        case 9: { /* nn.bias_add along channels, then clip */
            byoc_node *args[2] = {a, weights(m, f32(m, 1, 8, 0, 0, 0), 0.5f)};
            r = byoc_call(m, "nn.bias_add", args, 2, NULL);
            byoc_attrs ca = {0};
            byoc_attrs_set_float(m, &ca, "a_min", -0.5);
            byoc_attrs_set_float(m, &ca, "a_max", 0.75);
            r = byoc_call(m, "clip", &r, 1, &ca);
            break;
        }
        default: r = byoc_call(m, "annotation.stop_fusion", &a, 1, NULL); break;
        }
        vals[n++] = r;
    }
    /* two outputs: the last value and one from earlier, as a tuple */
    byoc_node *fields[2] = {vals[n - 1], vals[n / 2]};
    return finish(m, x, byoc_tuple(m, fields, 2));
}

static void test_random_graphs(void) {
    char why[600];
    for (uint64_t seed = 1; seed <= 40; ++seed) {
        byoc_module *m = random_module(seed);
        CHECKF(m != NULL, "seed %llu did not build", (unsigned long long)seed);
        CHECKF(check_module(m, NULL, why, sizeof why), "seed %llu unfused: %s", (unsigned long long)seed, why);
        byoc_module *f = fused(m);
        CHECK(f != NULL);
        CHECKF(check_module(f, NULL, why, sizeof why), "seed %llu fused: %s", (unsigned long long)seed, why);
        byoc_module_destroy(f);
        byoc_module_destroy(m);
    }
}

/* A fused elementwise chain runs tile by tile with identical results (bit for bit for exactly rounded ops), whatever
   the tile size: ragged last tiles, broadcasting along and across the split, scalars, bias_add along an axis, two
   full-size inputs; a diamond of transcendental ops needs several scratch slots. */
static void test_tiled_chains(void) {
    const char *text =
        "def @main(%x: Tensor[(2, 6, 7, 5), float32], %y: Tensor[(2, 6, 7, 5), float32], %c: Tensor[(6, 1, 1), float32], %r: Tensor[(5), float32],\n"
        "          %b: Tensor[(6), float32], %s: Tensor[(2, 1, 7, 1), float32]) {\n"
        "  %0 = add(%x, %c);\n  %1 = multiply(%0, %r);\n  %2 = nn.relu(%1);\n  %3 = nn.bias_add(%2, %b);\n"
        "  %4 = subtract(%3, %y);\n  %5 = multiply(%4, 0.5f);\n  %6 = maximum(%5, %s);\n  %7 = negative(%6);\n  add(%7, %y)\n}";
    byoc_module *m = parse_typed(text);
    CHECK(m != NULL);
    byoc_module *f = fused(m);
    CHECK(f != NULL);
    char why[600];
    CHECKF(check_module(f, NULL, why, sizeof why), "%s", why);
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(f, NULL, &d);
    CHECKF(p && byoc_sim_kernel_count(p) == 1, "%s", p ? "more than one kernel" : d.message);
    const byoc_sim_kernel_info *k = byoc_sim_kernel(p, 0);
    CHECKF(k->exec == BYOC_SIM_EXEC_TILED && k->nops == 9, "%s with %d ops", byoc_sim_exec_name(k->exec), k->nops);
    /* one pass: each input read once, the output written once */
    CHECK(k->bytes_written == 2 * 6 * 7 * 5 * 4);
    CHECK(k->bytes_read == (2 * 2 * 6 * 7 * 5 + 6 + 5 + 6 + 2 * 7 + 1) * 4); /* x, y, c, r, b, s and the scalar */
    byoc_tensor *in = make_inputs(p, 5);
    byoc_tensor out;
    CHECK(byoc_sim_run(p, in, 6, &out, 1, &d) == BYOC_OK);
    float *want = (float *)malloc(2 * 6 * 7 * 5 * sizeof(float));
    memcpy(want, out.data, 2 * 6 * 7 * 5 * sizeof(float));
    /* tiles of every size from one element to more than the tensor give the same bits */
    static const size_t tile_bytes[] = {4, 12, 20, 84, 100, 140, 1000, 1 << 20};
    for (size_t t = 0; t < sizeof tile_bytes / sizeof tile_bytes[0]; ++t) {
        byoc_sim_options o;
        memset(&o, 0, sizeof o);
        o.tile_bytes = tile_bytes[t];
        byoc_sim_program *q = byoc_sim_lower(f, &o, &d);
        CHECK(q != NULL);
        CHECKF(check_plan(q, why, sizeof why), "%s", why);
        byoc_tensor out2;
        CHECK(byoc_sim_run(q, in, 6, &out2, 1, &d) == BYOC_OK);
        CHECKF(!memcmp(out2.data, want, 2 * 6 * 7 * 5 * sizeof(float)), "tile of %zu bytes (%lld elements) differs", tile_bytes[t],
               (long long)byoc_sim_kernel(q, 0)->tile_elements);
        byoc_sim_program_destroy(q);
    }
    free(want);
    free_inputs(in, 6);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
    /* a diamond: two intermediates alive at once need two scratch slots */
    m = parse_typed("def @main(%x: Tensor[(3, 50, 41), float32]) {\n  %0 = sigmoid(%x);\n  %1 = tanh(%x);\n  %2 = exp(%0);\n"
                    "  %3 = multiply(%1, %2);\n  %4 = add(%3, %0);\n  subtract(%4, %1)\n}");
    CHECK(m != NULL);
    f = fused(m);
    CHECK(f != NULL);
    CHECKF(check_module(f, NULL, why, sizeof why), "diamond: %s", why);
    p = byoc_sim_lower(f, NULL, &d);
    CHECK(p && byoc_sim_kernel_count(p) == 1 && byoc_sim_kernel(p, 0)->exec == BYOC_SIM_EXEC_TILED);
    CHECK(byoc_sim_memory(p).tile_scratch_bytes >= 3 * (size_t)byoc_sim_kernel(p, 0)->tile_elements * sizeof(float));
    in = make_inputs(p, 6);
    CHECK(byoc_sim_run(p, in, 1, &out, 1, &d) == BYOC_OK);
    size_t count = 3 * 50 * 41;
    want = (float *)malloc(count * sizeof(float));
    memcpy(want, out.data, count * sizeof(float));
    for (size_t t = 0; t < sizeof tile_bytes / sizeof tile_bytes[0]; ++t) {
        byoc_sim_options o;
        memset(&o, 0, sizeof o);
        o.tile_bytes = tile_bytes[t];
        byoc_sim_program *q = byoc_sim_lower(f, &o, &d);
        CHECK(q != NULL);
        byoc_tensor out2;
        CHECK(byoc_sim_run(q, in, 1, &out2, 1, &d) == BYOC_OK);
        CHECKF(close_enough((const float *)out2.data, want, count, 0, why, sizeof why), "diamond, tile of %zu bytes: %s", tile_bytes[t], why);
        byoc_sim_program_destroy(q);
    }
    free(want);
    free_inputs(in, 1);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}

/* An elementwise result goes over its dying input, in a tiled chain and as a single op; a still-live input is
   never overwritten. */
static void test_in_place(void) {
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n"
                                 "  %0 = nn.conv2d(%x, %w, padding=[1, 1]);\n  %1 = nn.relu(%0);\n  %2 = sigmoid(%1);\n"
                                 "  %3 = add(%2, %1);\n  %4 = nn.conv2d(%3, %w, padding=[1, 1]);\n  %5 = nn.relu(%4);\n  nn.conv2d(%5, %w, padding=[1, 1])\n}");
    CHECK(m != NULL);
    char why[600];
    byoc_sim_memory_plan plan;
    CHECKF(check_module(m, &plan, why, sizeof why), "%s", why);
    /* relu over the first conv; add over sigmoid (relu's %1 is still read by add, so sigmoid cannot go over it); relu over the second conv */
    CHECKF(plan.in_place == 3, "%d in place", plan.in_place);
    byoc_diag d;
    byoc_sim_options o;
    memset(&o, 0, sizeof o);
    o.no_inplace = 1;
    byoc_sim_program *p = byoc_sim_lower(m, &o, &d);
    CHECK(p && byoc_sim_memory(p).in_place == 0 && byoc_sim_memory(p).arena_bytes >= plan.arena_bytes);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* outputs that are inputs, constants, views and tuples; a tuple parameter; a function called through a global and a
   literal (byoc_module_evaluate takes no tuple parameters, so the values are checked here) */
static void test_outputs_and_functions(void) {
    byoc_module *m = parse_typed("def @twice(%a: Tensor[(2, 3), float32]) { add(%a, %a) }\n"
                                 "def @main(%x: Tensor[(2, 3), float32], %t: (Tensor[(3), float32], Tensor[(2, 3), float32])) {\n"
                                 "  %0 = @twice(%x);\n  %1 = fn (%p: Tensor[(2, 3), float32]) { nn.relu(%p) };\n  %2 = %1(%0);\n"
                                 "  %3 = reshape(%2, newshape=[6]);\n  %4 = multiply(%t.1, %t.0);\n"
                                 "  (%x, meta[relay.Constant][0] /* ty=Tensor[(2, 2), float32] */, %3, %2, %4, %t.0)\n}");
    CHECK(m != NULL);
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    char why[600];
    CHECKF(check_plan(p, why, sizeof why), "%s", why);
    CHECK(byoc_sim_input_count(p) == 3);
    CHECK(!strcmp(byoc_sim_input(p, 1)->name, "%t.0") && !strcmp(byoc_sim_input(p, 2)->name, "%t.1"));
    CHECK(byoc_sim_output_count(p) == 6);
    int copies = 0;
    for (int k = 0; k < byoc_sim_kernel_count(p); ++k) copies += byoc_sim_kernel(p, k)->exec == BYOC_SIM_EXEC_COPY;
    CHECKF(copies == 3, "%d copies", copies); /* the input, the constant, the tuple field */
    byoc_tensor *in = make_inputs(p, 3), out[6];
    CHECK(byoc_sim_run(p, in, 3, out, 6, &d) == BYOC_OK);
    const float *x = (const float *)in[0].data, *t0 = (const float *)in[1].data, *t1 = (const float *)in[2].data;
    CHECK(out[0].data != in[0].data && !memcmp(out[0].data, x, 24));
    const byoc_node *c = byoc_module_function(m, "main")->body->args[1];
    CHECK(c->kind == BYOC_NODE_CONSTANT && out[1].rank == 2 && !memcmp(out[1].data, c->data, 16));
    CHECK(out[2].rank == 1 && out[2].dims[0] == 6 && out[2].data == out[3].data); /* the view shares its source's storage */
    for (int i = 0; i < 6; ++i) {
        CHECK(((float *)out[3].data)[i] == (x[i] + x[i] > 0 ? x[i] + x[i] : 0));
        CHECK(((float *)out[4].data)[i] == t1[i] * t0[i % 3]);
    }
    CHECK(!memcmp(out[5].data, t0, 12));
    free_inputs(in, 3);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* frontend names from spans, partitions and the profile table */
static void test_names_and_profile(void) {
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 2, 4, 4), float32] /* span=onnx:input */, %w: Tensor[(2, 2, 1, 1), float32]) {\n"
                                 "  %0 = nn.conv2d(%x, %w) /* span=onnx:conv1 */;\n  %1 = add(%0, 1f) /* span=onnx:bias1 */;\n"
                                 "  %2 = nn.relu(%1) /* span=onnx:relu1 */;\n  sigmoid(%2)\n}");
    CHECK(m != NULL);
    byoc_module *f = fused(m);
    CHECK(f != NULL);
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(f, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    CHECKF(byoc_sim_kernel_count(p) == 1, "%d kernels", byoc_sim_kernel_count(p));
    CHECKF(!strcmp(byoc_sim_kernel(p, 0)->name, "onnx:conv1+onnx:bias1+onnx:relu1+sigmoid"), "name %s", byoc_sim_kernel(p, 0)->name);
    CHECK(!strcmp(byoc_sim_kernel(p, 0)->device, "host") && byoc_sim_kernel(p, 0)->partition == NULL);
    byoc_tensor *in = make_inputs(p, 1), out;
    for (int r = 0; r < 4; ++r) CHECK(byoc_sim_run(p, in, 2, &out, 1, &d) == BYOC_OK);
    CHECK(byoc_sim_kernel(p, 0)->runs == 4 && byoc_sim_kernel(p, 0)->total_seconds >= byoc_sim_kernel(p, 0)->median_seconds);
    char *text = byoc_sim_profile_format(p, NULL);
    CHECK_CONTAINS(text, "onnx:conv1+onnx:bias1+onnx:relu1+sigmoid");
    CHECK_CONTAINS(text, "anchor");
    CHECK_CONTAINS(text, "nn.conv2d+add+nn.relu+sigmoid");
    char line[160];
    byoc_sim_memory_plan plan = byoc_sim_memory(p);
    snprintf(line, sizeof line, "arena %zu bytes (lower bound %zu bytes, ratio %.2f)", plan.arena_bytes, plan.lower_bound_bytes,
             plan.lower_bound_bytes ? (double)plan.arena_bytes / (double)plan.lower_bound_bytes : 1.0);
    CHECK_CONTAINS(text, line);
    byoc_sim_free(p, text);
    byoc_sim_profile_reset(p);
    CHECK(byoc_sim_kernel(p, 0)->runs == 0);
    free_inputs(in, 2);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}

/* the profile's summary by kernel class: each kernel counted once, in the class of the op it is built around */
static void test_profile_by_class(void) {
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32], "
                                 "%d: Tensor[(4, 1, 3, 3), float32]) {\n"
                                 "  %0 = nn.conv2d(%x, %w, padding=[1, 1]);\n  %1 = nn.relu(%0);\n"
                                 "  %2 = nn.conv2d(%1, %d, padding=[1, 1], groups=4);\n  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]);\n"
                                 "  transpose(%3, axes=[0, 2, 3, 1])\n}");
    CHECK(m != NULL);
    byoc_module *f = fused(m);
    CHECK(f != NULL);
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(f, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    int n = byoc_sim_kernel_count(p), seen_conv = 0, seen_dw = 0, seen_pool = 0, seen_move = 0;
    for (int i = 0; i < n; ++i) {
        const char *cls = byoc_sim_kernel_class(p, i), *ops = byoc_sim_kernel(p, i)->ops;
        CHECK(cls != NULL);
        if (!strcmp(ops, "nn.conv2d+nn.relu")) seen_conv += !strcmp(cls, "conv");
        if (!strcmp(ops, "nn.conv2d")) seen_dw += !strcmp(cls, "depthwise conv");
        if (!strcmp(ops, "nn.max_pool2d")) seen_pool += !strcmp(cls, "pool");
        if (!strcmp(ops, "transpose")) seen_move += !strcmp(cls, "data movement");
    }
    CHECKF(seen_conv == 1 && seen_dw == 1 && seen_pool == 1 && seen_move == 1, "classes %d %d %d %d of %d kernels",
           seen_conv, seen_dw, seen_pool, seen_move, n);
    CHECK(byoc_sim_kernel_class(p, n) == NULL);
    byoc_tensor *in = make_inputs(p, 1), out;
    for (int r = 0; r < 3; ++r) CHECK(byoc_sim_run(p, in, 3, &out, 1, &d) == BYOC_OK);
    byoc_sim_class_time rows[16];
    int nrows = byoc_sim_profile_by_class(p, rows, 16), kernels = 0;
    double seconds = 0, medians = 0;
    for (int c = 0; c < nrows; ++c) {
        kernels += rows[c].kernels;
        seconds += rows[c].seconds;
        if (c) CHECK(rows[c].seconds <= rows[c - 1].seconds);
    }
    for (int i = 0; i < n; ++i) medians += byoc_sim_kernel(p, i)->median_seconds;
    CHECKF(nrows == 4 && kernels == n, "%d classes, %d kernels", nrows, kernels);
    CHECK(seconds > 0 && fabs(seconds - medians) <= 1e-9 * medians + 1e-12);
    CHECK(byoc_sim_profile_by_class(p, rows, 2) == 2); /* the first classes that fit */
    char *text = byoc_sim_profile_format(p, NULL);
    CHECK_CONTAINS(text, "wall time by kernel class");
    CHECK_CONTAINS(text, "depthwise conv");
    byoc_sim_free(p, text);
    free_inputs(in, 3);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}

static void test_input_errors(void) {
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 1, 28, 28), float32], %n: Tensor[(3), int32]) { (nn.relu(%x), %n) }");
    CHECK(m != NULL);
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    float x[784] = {0};
    int32_t nums[3] = {1, 2, 3};
    byoc_tensor in[2] = {{BYOC_FLOAT32, 3, {1, 28, 28}, x}, {BYOC_INT32, 1, {3}, nums}}, out[2];
    CHECK(byoc_sim_run(p, in, 2, out, 2, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "byoc_sim_run: input 0 (%x): expected Tensor[(1, 1, 28, 28), float32], got Tensor[(1, 28, 28), float32]");
    byoc_tensor fixed = {BYOC_FLOAT32, 4, {1, 1, 28, 28}, x};
    in[0] = fixed;
    in[1].dtype = BYOC_INT64;
    CHECK(byoc_sim_run(p, in, 2, out, 2, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "input 1 (%n): expected Tensor[(3,), int32], got Tensor[(3,), int64]");
    in[1].dtype = BYOC_INT32;
    CHECK(byoc_sim_run(p, in, 1, out, 2, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "the program takes 2 inputs, 1 given");
    CHECK(byoc_sim_run(p, in, 2, out, 1, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "the program has 2 outputs, 1 given");
    in[0].data = NULL;
    CHECK(byoc_sim_run(p, in, 2, out, 2, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "input 0 (%x): no data");
    in[0].data = x;
    x[5] = -2;
    x[6] = 3;
    CHECK(byoc_sim_run(p, in, 2, out, 2, &d) == BYOC_OK);
    CHECK(((float *)out[0].data)[5] == 0 && ((float *)out[0].data)[6] == 3 && ((int32_t *)out[1].data)[2] == 3);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

static const byoc_type *no_kernel_rel(byoc_type_rel_ctx *ctx, const byoc_type *const *args, int nargs, const byoc_attrs *attrs) {
    (void)ctx; (void)nargs; (void)attrs;
    return args[0];
}

static void test_lowering_errors(void) {
    static const byoc_op_def def = {"test.no_kernel", 1, 1, BYOC_PATTERN_OPAQUE, NULL, 0, no_kernel_rel, NULL, "an op without a host kernel", BYOC_OP_CLASS_NONE, NULL, 0};
    byoc_diag d;
    if (!byoc_op_get("test.no_kernel")) CHECK(byoc_op_register(&def, &d) == BYOC_OK);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(4), float32]) { %0 = nn.relu(%x); test.no_kernel(%0) /* span=onnx:custom */ }");
    CHECK(m != NULL);
    CHECK(byoc_sim_lower(m, NULL, &d) == NULL);
    CHECK(d.code == BYOC_ERR_UNSUPPORTED);
    CHECK_CONTAINS(d.message, "byoc_sim_lower: test.no_kernel (onnx:custom) has no host kernel");
    byoc_module_destroy(m);
    /* '?' dims: inputs and unfused host op calls take them (tests/test_ops_dynamic.c; FuseOps leaves such calls
       unfused), a fused group does not */
    m = parse_typed("def @main(%x: Tensor[(?, 4), float32]) {\n"
                    "  %f = fn (%p: Tensor[(?, 4), float32], Primitive=1) { nn.relu(%p) };\n"
                    "  %f(%x)\n}");
    CHECK(m != NULL);
    CHECK(byoc_sim_lower(m, NULL, &d) == NULL);
    CHECK_CONTAINS(d.message, "has type Tensor[(?, 4), float32]; only inputs and host op calls outside fused groups");
    byoc_module_destroy(m);
    m = byoc_module_create(NULL);
    CHECK(byoc_sim_lower(m, NULL, &d) == NULL);
    CHECK_CONTAINS(d.message, "the module has no @main");
    byoc_module_destroy(m);
}

/* ---- partitions: with a runtime module (dispatched through it), and without (lowered inline) ---- */
static int runtime_runs;
static byoc_result doubling_run(void *state, byoc_module *m, byoc_node *const *args, int nargs, byoc_node **result, byoc_diag *d) {
    (void)state; (void)d;
    if (nargs != 1) return BYOC_ERR_INVALID_ARGUMENT;
    byoc_node *out = byoc_constant(m, args[0]->annotation, NULL, 0);
    if (!out) return BYOC_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < byoc_type_num_elements(args[0]->annotation); ++i) ((float *)out->data)[i] = 2.0f * ((const float *)args[0]->data)[i];
    runtime_runs++;
    *result = out;
    return BYOC_OK;
}
static byoc_result doubling_compiler(byoc_module *m, const char *name, void *ud, byoc_runtime_module *out, byoc_diag *d) {
    (void)m; (void)ud; (void)d;
    out->name = name;
    out->run = doubling_run;
    return BYOC_OK;
}
/* a runtime module that returns the wrong shape */
static byoc_result wrong_run(void *state, byoc_module *m, byoc_node *const *args, int nargs, byoc_node **result, byoc_diag *d) {
    (void)state; (void)args; (void)nargs; (void)d;
    int64_t two = 2;
    *result = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 1, &two), NULL, 0);
    return *result ? BYOC_OK : BYOC_ERR_OUT_OF_MEMORY;
}

static void test_partition_runtime_module(void) {
    static const byoc_op_support ops[] = {{"negative", NULL, 0, NULL, NULL}};
    static byoc_backend doubler;
    memset(&doubler, 0, sizeof doubler);
    doubler.spec.name = "simdouble";
    doubler.spec.support = (byoc_op_support *)ops;
    doubler.spec.nsupport = 1;
    doubler.relay_to_runtime = doubling_compiler;
    byoc_diag d;
    CHECK(byoc_backend_register(&doubler, &d) == BYOC_OK);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(3), float32]) { %0 = negative(%x); add(%0, 1f) }");
    CHECK(m && byoc_backend_partition(m, "simdouble", NULL, 0, &d) == BYOC_OK);
    byoc_target *t = byoc_target_parse("simdouble", &d);
    const byoc_target *ts[1] = {t};
    CHECK(byoc_run_target_hooks(m, ts, 1, &d) == BYOC_OK);
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    int found = -1;
    for (int k = 0; k < byoc_sim_kernel_count(p); ++k)
        if (byoc_sim_kernel(p, k)->exec == BYOC_SIM_EXEC_RUNTIME) found = k;
    CHECK(found >= 0);
    CHECK(!strcmp(byoc_sim_kernel(p, found)->device, "simdouble"));
    CHECK(byoc_sim_kernel(p, found)->partition && strstr(byoc_sim_kernel(p, found)->partition, "simdouble"));
    CHECK(!strcmp(byoc_sim_kernel(p, found)->ops, "negative"));
    float xs[3] = {1, 2, 3};
    byoc_tensor in = {BYOC_FLOAT32, 1, {3}, xs}, out;
    int before = runtime_runs;
    for (int r = 0; r < 3; ++r) {
        CHECK(byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_OK);
        for (int i = 0; i < 3; ++i) CHECKF(((float *)out.data)[i] == 2 * xs[i] + 1, "element %d: %g", i, ((float *)out.data)[i]); /* the module's doubling, not the negation */
    }
    CHECK(runtime_runs == before + 3);
    char why[600];
    CHECKF(check_module(m, NULL, why, sizeof why), "%s", why); /* byoc_module_evaluate dispatches through it too */
    /* a runtime module that returns the wrong type is an error naming the partition */
    const char *fname = byoc_sim_kernel(p, found)->partition;
    byoc_runtime_module bad;
    memset(&bad, 0, sizeof bad);
    bad.name = "wrong";
    bad.run = wrong_run;
    CHECK(byoc_module_set_runtime(m, fname, &bad, &d) == BYOC_OK);
    CHECK(byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "returned Tensor[(2,), float32] for result 0, expected Tensor[(3,), float32]");
    CHECK_CONTAINS(d.message, fname);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    /* a concatenation of the partition's result (its runtime module's result, copied into the kernel's buffer) and
       a host kernel's: only the host kernel's is a slice of the result */
    m = parse_typed("def @main(%x: Tensor[(3), float32]) {\n  %0 = negative(%x);\n  %1 = abs(%x);\n"
                    "  %2 = concatenate((%0, %1), axis=0);\n  add(%2, 1f)\n}");
    CHECK(m && byoc_backend_partition(m, "simdouble", NULL, 0, &d) == BYOC_OK);
    CHECK(byoc_run_target_hooks(m, ts, 1, &d) == BYOC_OK);
    p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    CHECKF(check_plan(p, why, sizeof why), "%s", why);
    CHECKF(byoc_sim_memory(p).slices == 1, "%d slices", byoc_sim_memory(p).slices);
    for (int b = 0; b < byoc_sim_buffer_count(p); ++b)
        if (byoc_sim_buffer(p, b).slice_of >= 0) CHECK(byoc_sim_buffer(p, b).slice_offset == 12); /* abs's, second */
    CHECK(byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_OK);
    CHECK(out.rank == 1 && out.dims[0] == 6);
    for (int i = 0; i < 3; ++i) {
        CHECK(((float *)out.data)[i] == 2 * xs[i] + 1);
        CHECK(((float *)out.data)[3 + i] == fabsf(xs[i]) + 1);
    }
    byoc_sim_program_destroy(p);
    byoc_target_free(t);
    byoc_module_destroy(m);
}

static void test_partition_inline(void) {
    static const byoc_op_support ops[] = {{"nn.relu", NULL, 0, NULL, NULL}, {"add", NULL, 0, NULL, NULL}};
    static byoc_backend plain;
    memset(&plain, 0, sizeof plain);
    plain.spec.name = "siminline";
    plain.spec.support = (byoc_op_support *)ops;
    plain.spec.nsupport = 2;
    byoc_diag d;
    CHECK(byoc_backend_register(&plain, &d) == BYOC_OK);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 4, 5, 5), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n"
                                 "  %0 = nn.conv2d(%x, %w, padding=[1, 1]);\n  %1 = add(%0, %x);\n  %2 = nn.relu(%1);\n  nn.conv2d(%2, %w, padding=[1, 1])\n}");
    CHECK(m && byoc_backend_partition(m, "siminline", NULL, 0, &d) == BYOC_OK);
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    int tagged = 0;
    for (int k = 0; k < byoc_sim_kernel_count(p); ++k) {
        const byoc_sim_kernel_info *ki = byoc_sim_kernel(p, k);
        if (ki->partition) {
            tagged++;
            CHECK(strstr(ki->partition, "siminline") && !strcmp(ki->device, "host") && ki->exec == BYOC_SIM_EXEC_OPS);
        }
    }
    CHECKF(tagged == 2, "%d kernels from the partition", tagged); /* add and relu, one kernel each */
    byoc_sim_program_destroy(p);
    char why[600];
    CHECKF(check_module(m, NULL, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

/* ---- memory: everything through the allocator, nothing allocated per run after the first ---- */
static int allocations, live_allocations;
static void *counting_alloc(size_t n, void *ud) {
    (void)ud;
    allocations++;
    live_allocations++;
    return malloc(n);
}
static void counting_free(void *p, void *ud) {
    (void)ud;
    if (p) live_allocations--;
    free(p);
}

static void test_allocator_and_reruns(void) {
    byoc_diag d;
    byoc_module *m = byoc_module_load("tests/inputs/mnist.relay", NULL, &d);
    CHECK(m != NULL);
    byoc_module *f = fused(m);
    CHECK(f != NULL);
    byoc_allocator a = {counting_alloc, counting_free, NULL};
    byoc_sim_options o;
    memset(&o, 0, sizeof o);
    o.allocator = &a;
    allocations = live_allocations = 0;
    byoc_sim_program *p = byoc_sim_lower(f, &o, &d);
    CHECKF(p != NULL, "%s", d.message);
    CHECK(allocations > 0);
    byoc_tensor *in = make_inputs(p, 7), out;
    CHECK(byoc_sim_run(p, in, 1, &out, 1, &d) == BYOC_OK);
    int after_first = allocations;
    for (int r = 0; r < 10; ++r) CHECK(byoc_sim_run(p, in, 1, &out, 1, &d) == BYOC_OK);
    CHECKF(allocations == after_first, "%d allocations in 10 more runs", allocations - after_first);
    char *text = byoc_sim_profile_format(p, NULL);
    CHECK(text != NULL);
    byoc_sim_free(p, text);
    byoc_sim_program_destroy(p);
    CHECKF(live_allocations == 0, "%d allocations not freed", live_allocations);
    free_inputs(in, 1);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}

/* ---- concatenations written in place ---- */
/* Lowers the text, checks the plan, and checks that the program gives the same bytes as with no_alias (every
   concatenation a copy); the plan and each kernel's algorithm ("written in place", ...) are returned. */
typedef struct concat_case {
    byoc_sim_memory_plan plan;
    int written, partly; /* concatenation kernels written in place, partly */
} concat_case;
static int concat_case_run(const char *text, concat_case *c, char *why, size_t cap) {
    memset(c, 0, sizeof *c);
    byoc_module *m = parse_typed(text);
    if (!m) { snprintf(why, cap, "parse"); return 0; }
    byoc_sim_options plain;
    memset(&plain, 0, sizeof plain);
    plain.no_alias = 1;
    float **got = NULL, **want = NULL;
    int n = 0, n2 = 0;
    byoc_sim_memory_plan plain_plan;
    int ok = run_program(m, NULL, &got, &n, &c->plan, why, cap) && run_program(m, &plain, &want, &n2, &plain_plan, why, cap);
    if (ok && plain_plan.slices) { snprintf(why, cap, "no_alias still makes %d slices", plain_plan.slices); ok = 0; }
    byoc_diag d;
    byoc_sim_program *p = ok ? byoc_sim_lower(m, NULL, &d) : NULL;
    for (int k = 0; ok && k < n; ++k) {
        char sub[400];
        size_t count = byoc_sim_output(p, k)->nbytes / sizeof(float);
        if (!close_enough(got[k], want[k], count, 1, sub, sizeof sub)) { snprintf(why, cap, "output %d: %s", k, sub); ok = 0; }
    }
    for (int k = 0; p && k < byoc_sim_kernel_count(p); ++k) {
        const char *a = byoc_sim_kernel(p, k)->algorithm;
        c->written += a && !strcmp(a, "written in place");
        c->partly += a && !strcmp(a, "partly written in place");
    }
    byoc_sim_program_destroy(p);
    free_outputs(got, n);
    free_outputs(want, n2);
    byoc_module_destroy(m);
    return ok;
}

#define CONCAT_HEAD "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n" \
                    "  %a = nn.conv2d(%x, %w, padding=[1, 1]);\n  %b = nn.conv2d(%a, %w, padding=[1, 1]);\n"

/* Each condition of "sim impl: concatenations written in place", one module each: which inputs become slices of the
   result, and the same bytes as the copying program. */
static void test_concat_in_place(void) {
    static const struct {
        const char *what, *body;
        int slices, written, partly;
    } cases[] = {
        {"both producers write into the result", "  %c = concatenate((%a, %b), axis=1);\n  nn.relu(%c)\n}", 2, 1, 0},
        {"a negative axis", "  %c = concatenate((%a, %b), axis=-3);\n  nn.relu(%c)\n}", 2, 1, 0},
        {"a view of a producer's result", "  %r = reshape(%a, newshape=[1, 4, 64]);\n  %s = reshape(%b, newshape=[1, 4, 64]);\n"
                                          "  %c = concatenate((%r, %s), axis=1);\n  nn.relu(%c)\n}", 2, 1, 0},
        {"a graph input is copied", "  %c = concatenate((%x, %b), axis=1);\n  nn.relu(%c)\n}", 1, 0, 1},
        {"a constant is copied", "  %c = concatenate((meta[relay.Constant][0] /* ty=Tensor[(1, 4, 8, 8), float32] */, %b), axis=1);\n"
                                 "  nn.relu(%c)\n}", 1, 0, 1},
        {"the same tensor twice is one slice", "  %c = concatenate((%b, %b), axis=1);\n  nn.relu(%c)\n}", 1, 0, 1},
        {"a tensor read after the concatenation is copied", "  %c = concatenate((%a, %b), axis=1);\n  %d = sum(%c, axis=[1], keepdims=True);\n"
                                                            "  add(%d, %a)\n}", 1, 0, 1},
        {"a graph output is copied", "  %c = concatenate((%a, %b), axis=1);\n  (nn.relu(%c), %a)\n}", 1, 0, 1},
        {"a result that is a graph output: slices in the output storage", "  concatenate((%a, %b), axis=1)\n}", 2, 1, 0},
        {"... and a chain into one", "  %c = concatenate((%a, %b), axis=1);\n  %e = nn.relu(%x);\n"
                                     "  concatenate((%c, %e), axis=1)\n}", 4, 2, 0},
        {"chains compose their offsets", "  %c = concatenate((%a, %b), axis=1);\n  %e = nn.relu(%x);\n"
                                         "  %f = concatenate((%e, %c), axis=1);\n  nn.relu(%f)\n}", 4, 2, 0},
        {"read by two concatenations: a slice of the later one", "  %c = concatenate((%a, %b), axis=1);\n"
                                                                 "  %f = concatenate((%b, %a), axis=1);\n  add(%c, %f)\n}", 2, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[1200], why[600];
        snprintf(text, sizeof text, "%s%s", CONCAT_HEAD, cases[i].body);
        concat_case c;
        CHECKF(concat_case_run(text, &c, why, sizeof why), "%s: %s", cases[i].what, why);
        CHECKF(c.plan.slices == cases[i].slices && c.written == cases[i].written && c.partly == cases[i].partly,
               "%s: %d slices, %d written in place, %d partly (expected %d, %d, %d)", cases[i].what, c.plan.slices,
               c.written, c.partly, cases[i].slices, cases[i].written, cases[i].partly);
        CHECK(c.plan.concats_in_place == c.written);
    }
    /* batch 2: each input is two runs of the result, not one; no slices */
    concat_case c;
    char why[600];
    CHECKF(concat_case_run("def @main(%x: Tensor[(2, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n"
                           "  %a = nn.conv2d(%x, %w, padding=[1, 1]);\n  %b = nn.conv2d(%a, %w, padding=[1, 1]);\n"
                           "  %c = concatenate((%a, %b), axis=1);\n  nn.relu(%c)\n}", &c, why, sizeof why), "batch 2: %s", why);
    CHECKF(c.plan.slices == 0, "batch 2: %d slices", c.plan.slices);
    /* ... but along the batch axis they are */
    CHECKF(concat_case_run("def @main(%x: Tensor[(2, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32]) {\n"
                           "  %a = nn.conv2d(%x, %w, padding=[1, 1]);\n  %b = nn.conv2d(%a, %w, padding=[1, 1]);\n"
                           "  %c = concatenate((%a, %b), axis=0);\n  nn.relu(%c)\n}", &c, why, sizeof why), "axis 0: %s", why);
    CHECKF(c.plan.slices == 2, "axis 0: %d slices", c.plan.slices);
}

/* A concatenation that leads a fused group (concatenate + nn.relu, ShuffleNet's): its inputs become slices of its
   result as a lone concatenation's do, the group runs only the ReLU, and its traffic is the ReLU's; the bytes are
   those of the program with every concatenation a copy. */
static void test_concat_group_in_place(void) {
    byoc_module *m = parse_typed(CONCAT_HEAD "  %c = concatenate((%a, %b), axis=1);\n  %d = nn.relu(%c);\n"
                                             "  nn.max_pool2d(%d, pool_size=[2, 2], strides=[2, 2])\n}");
    CHECK(m != NULL);
    byoc_module *f = m ? fused(m) : NULL;
    CHECK(f != NULL);
    if (!f) { byoc_module_destroy(m); return; }
    byoc_sim_options plain;
    memset(&plain, 0, sizeof plain);
    plain.no_alias = 1;
    float **got = NULL, **want = NULL;
    int n = 0, n2 = 0;
    byoc_sim_memory_plan plan, plain_plan;
    char why[600];
    CHECKF(run_program(f, NULL, &got, &n, &plan, why, sizeof why), "%s", why);
    CHECKF(run_program(f, &plain, &want, &n2, &plain_plan, why, sizeof why), "no_alias: %s", why);
    CHECKF(plan.slices == 2 && plan.concats_in_place == 1, "%d slices, %d in place", plan.slices,
           plan.concats_in_place);
    CHECK(n == 1 && n2 == 1);
    if (n == 1 && n2 == 1) CHECKF(close_enough(got[0], want[0], 2 * 4 * 4 * 4, 1, why, sizeof why), "%s", why);
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(f, NULL, &d);
    int found = 0;
    for (int k = 0; p && k < byoc_sim_kernel_count(p); ++k) {
        const byoc_sim_kernel_info *ki = byoc_sim_kernel(p, k);
        if (strcmp(ki->ops, "concatenate+nn.relu")) continue;
        found = 1;
        CHECKF(ki->algorithm && !strcmp(ki->algorithm, "written in place"), "%s", ki->algorithm ? ki->algorithm : "-");
        /* the ReLU reads the 8 channels of 8x8 and writes them: nothing for the concatenation */
        CHECKF(ki->bytes_read == 8 * 64 * 4 && ki->bytes_written == 8 * 64 * 4, "read %llu, written %llu",
               (unsigned long long)ki->bytes_read, (unsigned long long)ki->bytes_written);
    }
    CHECKF(found, "no concatenate+nn.relu kernel");
    byoc_sim_program_destroy(p);
    free_outputs(got, n);
    free_outputs(want, n2);
    byoc_module_destroy(f);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_mnist_unfused_and_fused),
        TEST_ENTRY(test_resnet_like),
        TEST_ENTRY(test_squeezenet_like),
        TEST_ENTRY(test_shufflenet_like),
        TEST_ENTRY(test_random_graphs),
        TEST_ENTRY(test_tiled_chains),
        TEST_ENTRY(test_in_place),
        TEST_ENTRY(test_concat_in_place),
        TEST_ENTRY(test_concat_group_in_place),
        TEST_ENTRY(test_outputs_and_functions),
        TEST_ENTRY(test_names_and_profile),
        TEST_ENTRY(test_profile_by_class),
        TEST_ENTRY(test_input_errors),
        TEST_ENTRY(test_lowering_errors),
        TEST_ENTRY(test_partition_runtime_module),
        TEST_ENTRY(test_partition_inline),
        TEST_ENTRY(test_allocator_and_reruns),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
