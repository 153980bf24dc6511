/* Shared by the fuzz targets that build a module: evaluate @main on made-up inputs when the typed graph
   is small (every tensor, and the FLOP model's total), so one input runs in milliseconds. Inputs are
   small integers (negative ones included, so index operands go out of range too) or small floats:
   kernels on hostile attributes are where crashes hide. A refused run must say why. */
#ifndef FUZZ_EVALUATE_H
#define FUZZ_EVALUATE_H
#include "../../byoc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a data-dependent shape is bounded by the small made-up inputs */
enum { FUZZ_MAX_ELEMENTS = 1 << 16, FUZZ_MAX_ITERATIONS = 1024 };
#define FUZZ_MAX_FLOPS 4e6

static int small_enough(const byoc_type *t) {
    if (!t) return 0;
    if (t->kind == BYOC_TYPE_TUPLE) {
        for (int i = 0; i < t->nfields; ++i)
            if (!small_enough(t->fields[i])) return 0;
        return 1;
    }
    if (t->kind != BYOC_TYPE_TENSOR) return 1;
    for (int i = 0; i < t->rank; ++i) /* a '?' extent is decided at run time, from the small inputs */
        if (t->dims[i] > FUZZ_MAX_ELEMENTS) return 0;
    int64_t n = byoc_type_num_elements(t);
    return n < 0 ? byoc_type_is_static(t) == 0 : n <= FUZZ_MAX_ELEMENTS;
}

/* the most iterations a loop can run: its trip count when that is a constant or one of @main's parameters
   (made up below, at most 4), else -1 (computed: unbounded here, up to the evaluator's million) */
static double loop_trip_bound(const byoc_node *loop, const byoc_node *main_fn) {
    const byoc_node *trip = loop->args[0];
    if (trip->kind == BYOC_NODE_CONSTANT && trip->data) {
        int64_t v;
        memcpy(&v, trip->data, sizeof v);
        return v < 0 ? 0 : (double)v;
    }
    for (int i = 0; i < main_fn->nparams; ++i)
        if (trip == main_fn->params[i]) return 4;
    return -1;
}

/* Loops multiply their bodies' work; the graph lists a body's ops once, so every op is charged as if inside
   every loop (an over-estimate when loops sit side by side), and a loop whose trip count is computed is not
   evaluated: nested runaway loops would each run to the evaluator's cap of a million iterations. */
static int cheap_to_evaluate(byoc_module *m, byoc_node *main_fn) {
    byoc_graph g;
    if (byoc_graph_build(m, main_fn, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return 0;
    int ok = 1;
    double flops = 0, iterations = 1;
    for (int i = 0; i < g.count && ok; ++i) {
        const byoc_node *n = g.nodes[i].node;
        if (n->kind == BYOC_NODE_FUNCTION) continue;
        if (!small_enough(n->checked_type)) ok = 0;
        if (n->kind == BYOC_NODE_LOOP) {
            double trips = loop_trip_bound(n, main_fn);
            if (trips < 0 || (iterations *= trips > 1 ? trips : 1) > FUZZ_MAX_ITERATIONS) ok = 0;
        }
        if (n->kind == BYOC_NODE_CALL && n->op) {
            double f = byoc_op_flops(n);
            if (!(f >= 0) || (flops += f) > FUZZ_MAX_FLOPS) ok = 0;
        }
    }
    if (ok && flops * iterations > 4 * FUZZ_MAX_FLOPS) ok = 0;
    byoc_graph_free(&g);
    return ok;
}

/* element i of a made-up input: integers cycling through [-2, 4], floats through [-2.5, 2.5], booleans
   alternating */
static void fill_input(void *data, byoc_dtype dt, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
        int64_t v = (i * 3 + 3) % 7 - 2;
        double f = (double)((i * 5 + 1) % 11 - 5) * 0.5;
        switch (dt) {
        case BYOC_FLOAT32: ((float *)data)[i] = (float)f; break;
        case BYOC_FLOAT64: ((double *)data)[i] = f; break;
        case BYOC_FLOAT16: ((uint16_t *)data)[i] = (uint16_t)(f < 0 ? 0xbc00 : 0x3c00); break; /* -1 or 1 */
        case BYOC_BFLOAT16: ((uint16_t *)data)[i] = (uint16_t)(f < 0 ? 0xbf80 : 0x3f80); break;
        case BYOC_INT8: ((int8_t *)data)[i] = (int8_t)v; break;
        case BYOC_UINT8: ((uint8_t *)data)[i] = (uint8_t)(v & 3); break;
        case BYOC_INT16: ((int16_t *)data)[i] = (int16_t)v; break;
        case BYOC_UINT16: ((uint16_t *)data)[i] = (uint16_t)(v & 3); break;
        case BYOC_INT32: ((int32_t *)data)[i] = (int32_t)v; break;
        case BYOC_UINT32: ((uint32_t *)data)[i] = (uint32_t)(v & 3); break;
        case BYOC_INT64: ((int64_t *)data)[i] = v; break;
        case BYOC_UINT64: ((uint64_t *)data)[i] = (uint64_t)(v & 3); break;
        case BYOC_BOOL: ((uint8_t *)data)[i] = (uint8_t)(i & 1); break;
        default: break;
        }
    }
}

/* Evaluates @main when its inputs and every intermediate are small; a refusal must say why, and when
   named_by is given (a frontend's span prefix, "onnx:"), name the node. */
static void evaluate_small(byoc_module *m, const char *named_by) {
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn || main_fn->nparams > 16 || !cheap_to_evaluate(m, main_fn)) return;
    byoc_node *inputs[16];
    for (int i = 0; i < main_fn->nparams; ++i) {
        const byoc_type *t = main_fn->params[i]->checked_type;
        if (!t || t->kind != BYOC_TYPE_TENSOR || !byoc_type_is_static(t)) return;
        int64_t count = byoc_type_num_elements(t);
        size_t nbytes = (size_t)count * byoc_dtype_size(t->dtype);
        void *data = calloc(nbytes ? nbytes : 1, 1);
        if (!data) return;
        fill_input(data, t->dtype, count);
        inputs[i] = byoc_constant(m, t, data, nbytes);
        free(data);
        if (!inputs[i]) return;
        inputs[i]->checked_type = t;
    }
    byoc_diag d;
    byoc_node *out = NULL;
    if (byoc_module_evaluate(m, inputs, main_fn->nparams, &out, &d) != BYOC_OK) {
        if (d.code == BYOC_OK || !d.message[0]) abort();
        if (named_by && !strstr(d.message, named_by)) {
            fprintf(stderr, "the error does not name the node: %s\n", d.message);
            abort();
        }
        return;
    }
    if (!out) abort();
}

#endif
