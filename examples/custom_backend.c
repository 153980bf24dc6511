/* custom_backend.c -- a "vanilla accelerator" brought to byoc.h in C, the way TVM's UMA tutorial does
   it in Python: patterns for conv2d and dense, a relay_to_tir hook that lowers each partition to a
   call of this file's own C kernel, and a tir_to_runtime hook that makes that call runnable. The
   result is checked against the library's reference evaluation of the unpartitioned model.

   Build and run (from the repository root):
       cc -std=c99 -O2 -I. examples/custom_backend.c -o build/custom_backend -lm && build/custom_backend */
#define BYOC_IMPLEMENTATION
#include "byoc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the accelerator's kernels (what its driver library would export) ---- */
static void my_ai_hw_conv2dnchw(const float *x, const float *w, float *out, int c, int h, int wd, int k, int kh, int kw, int pad) {
    int oh = h + 2 * pad - kh + 1, ow = wd + 2 * pad - kw + 1;
    for (int o = 0; o < k; ++o)
        for (int y = 0; y < oh; ++y)
            for (int xx = 0; xx < ow; ++xx) {
                float acc = 0;
                for (int ci = 0; ci < c; ++ci)
                    for (int ky = 0; ky < kh; ++ky)
                        for (int kx = 0; kx < kw; ++kx) {
                            int iy = y + ky - pad, ix = xx + kx - pad;
                            if (iy >= 0 && iy < h && ix >= 0 && ix < wd) acc += x[(ci * h + iy) * wd + ix] * w[((o * c + ci) * kh + ky) * kw + kx];
                        }
                out[(o * oh + y) * ow + xx] = acc;
            }
}

static void my_ai_hw_dense(const float *x, const float *w, float *out, int k, int units) {
    for (int u = 0; u < units; ++u) {
        float acc = 0;
        for (int i = 0; i < k; ++i) acc += x[i] * w[u * k + i];
        out[u] = acc;
    }
}

/* ---- relay_to_tir: decide the lowering of one partition and record it on the function ---- */
/* the single conv2d or dense op inside a partition (inside its composite) */
static byoc_node *find_anchor(byoc_module *m, byoc_node *fn) {
    byoc_graph g;
    byoc_node *found = NULL;
    if (byoc_graph_build(m, fn->body, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return NULL;
    for (int i = 0; i < g.count; ++i) {
        byoc_node *n = g.nodes[i].node;
        if (n->kind == BYOC_NODE_CALL && n->op && (!strcmp(n->op->def.name, "nn.conv2d") || !strcmp(n->op->def.name, "nn.dense"))) found = n;
    }
    byoc_graph_free(&g);
    return found;
}

static byoc_result vanilla_relay_to_tir(byoc_module *m, const char *name, void *user_data, byoc_diag *diag) {
    (void)user_data;
    byoc_node *fn = byoc_module_function(m, name);
    byoc_node *anchor = find_anchor(m, fn);
    if (!anchor) {
        snprintf(diag->message, sizeof diag->message, "vanilla: @%s has no conv2d or dense to lower", name);
        return diag->code = BYOC_ERR_UNSUPPORTED;
    }
    /* the lowered form: which kernel runs it, with the tiling the current target asks for */
    const byoc_target *t = byoc_target_current();
    byoc_attrs attrs = fn->attrs;
    byoc_attrs_set_string(m, &attrs, "Kernel", strcmp(anchor->op->def.name, "nn.conv2d") ? "my_ai_hw_dense" : "my_ai_hw_conv2dnchw");
    byoc_attrs_set_int(m, &attrs, "Tiles", byoc_attrs_int(&t->attrs, "tiles", 1));
    return byoc_module_set_function(m, name, byoc_function(m, fn->params, fn->nparams, fn->body, fn->annotation, &attrs));
}

/* ---- tir_to_runtime: a runnable module calling the kernel ---- */
typedef struct vanilla_state {
    const byoc_node *anchor; /* the op, with its weight constant and attributes */
    int is_conv;
} vanilla_state;

static byoc_result vanilla_run(void *state, byoc_module *m, byoc_node *const *args, int nargs, byoc_node **result, byoc_diag *diag) {
    const vanilla_state *s = (const vanilla_state *)state;
    const byoc_node *w = s->anchor->args[1];
    if (nargs != 1 || args[0]->kind != BYOC_NODE_CONSTANT || w->kind != BYOC_NODE_CONSTANT || !args[0]->data || !w->data) {
        snprintf(diag->message, sizeof diag->message, "vanilla: expects one input and a constant weight");
        return diag->code = BYOC_ERR_UNSUPPORTED;
    }
    const byoc_type *out_type = s->anchor->checked_type, *xt = args[0]->annotation, *wt = w->annotation;
    byoc_node *out = byoc_constant(m, out_type, NULL, 0);
    if (!out) return diag->code = BYOC_ERR_OUT_OF_MEMORY;
    if (s->is_conv) {
        const byoc_attr_value *pad = byoc_attrs_get(&s->anchor->attrs, "padding");
        int p = pad && pad->count ? (int)pad->ints[0] : 0;
        my_ai_hw_conv2dnchw((const float *)args[0]->data, (const float *)w->data, (float *)out->data, (int)xt->dims[1], (int)xt->dims[2],
                            (int)xt->dims[3], (int)wt->dims[0], (int)wt->dims[2], (int)wt->dims[3], p);
    } else
        my_ai_hw_dense((const float *)args[0]->data, (const float *)w->data, (float *)out->data, (int)wt->dims[1], (int)wt->dims[0]);
    *result = out;
    return BYOC_OK;
}

static byoc_result vanilla_tir_to_runtime(byoc_module *m, const char *name, void *user_data, byoc_runtime_module *out, byoc_diag *diag) {
    (void)user_data;
    (void)diag;
    byoc_node *fn = byoc_module_function(m, name);
    vanilla_state *s = (vanilla_state *)malloc(sizeof *s);
    if (!s) return BYOC_ERR_OUT_OF_MEMORY;
    s->anchor = find_anchor(m, fn);
    s->is_conv = !strcmp(byoc_attrs_string(&fn->attrs, "Kernel", ""), "my_ai_hw_conv2dnchw");
    out->name = byoc_attrs_string(&fn->attrs, "Kernel", "vanilla");
    out->run = vanilla_run;
    out->state = s;
    out->release = free;
    return BYOC_OK;
}

/* ---- the model and the check ---- */
static const char model_text[] =
    "def @main(%x: Tensor[(1, 3, 8, 8), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 3, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
    "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(4, 1, 1), float32] */);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = reshape(%2, newshape=[1, 256]);\n"
    "  nn.dense(%3, meta[relay.Constant][2] /* ty=Tensor[(10, 256), float32] */)\n"
    "}\n";

int main(void) {
    byoc_diag d;
    /* 1. describe the backend: patterns, options, hooks (UMA's create step) */
    byoc_module *patterns = byoc_module_create(NULL);
    const char *conv_text = "is_op(\"nn.conv2d\")(wildcard(), is_constant()).has_attr({\"strides\": [1, 1], \"groups\": 1})";
    const char *dense_text = "is_op(\"nn.dense\")(wildcard(), is_constant())";
    byoc_pattern_entry table[2];
    memset(table, 0, sizeof table);
    table[0].name = "vanilla.conv2d";
    table[0].pattern = byoc_pattern_parse(patterns, conv_text, strlen(conv_text), "conv", &d);
    table[1].name = "vanilla.dense";
    table[1].pattern = byoc_pattern_parse(patterns, dense_text, strlen(dense_text), "dense", &d);
    static const byoc_target_option options[] = {{"tiles", BYOC_ATTR_INT, "4", "compute tiles"}};
    byoc_backend vanilla;
    memset(&vanilla, 0, sizeof vanilla);
    vanilla.spec.name = "vanilla";
    vanilla.spec.patterns = table;
    vanilla.spec.npatterns = 2;
    vanilla.options = options;
    vanilla.noptions = 1;
    vanilla.relay_to_tir = vanilla_relay_to_tir;
    vanilla.tir_to_runtime = vanilla_tir_to_runtime;
    /* 2. register it: target kind "vanilla" and pattern table "vanilla.*" */
    if (!table[0].pattern || !table[1].pattern || byoc_backend_register(&vanilla, &d) != BYOC_OK) { fprintf(stderr, "register: %s\n", d.message); return 1; }

    byoc_module *m = byoc_module_parse(model_text, sizeof model_text - 1, "model.relay", NULL, &d); /* seeded weights */
    if (!m || byoc_infer_type(m, &d) != BYOC_OK) { fprintf(stderr, "model: %s\n", d.message); return 1; }
    int64_t shape[4] = {1, 3, 8, 8};
    float input[192];
    for (int i = 0; i < 192; ++i) input[i] = (float)((i * 37) % 17) / 8.0f - 1.0f;
    byoc_node *x = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 4, shape), input, sizeof input);
    byoc_node *reference = NULL;
    if (byoc_module_evaluate(m, &x, 1, &reference, &d) != BYOC_OK) { fprintf(stderr, "reference: %s\n", d.message); return 1; }

    /* 3. partition (UMA's partition step), then lower and build with the target hooks */
    byoc_target *target = byoc_target_parse("vanilla -tiles=2", &d);
    const byoc_target *targets[1] = {target};
    if (!target || byoc_backend_partition(m, "vanilla", NULL, 0, &d) != BYOC_OK || byoc_run_target_hooks(m, targets, 1, &d) != BYOC_OK) {
        fprintf(stderr, "partition: %s\n", d.message);
        return 1;
    }
    char *text = byoc_module_print(m, 0, NULL);
    printf("%s\n", text);
    byoc_free(m, text);

    /* 4. run: host ops by the reference evaluator, partitions through their runtime modules */
    byoc_node *result = NULL;
    if (byoc_module_evaluate(m, &x, 1, &result, &d) != BYOC_OK) { fprintf(stderr, "run: %s\n", d.message); return 1; }
    int lowered = 0;
    for (int f = 0; f < byoc_module_function_count(m); ++f) lowered += byoc_module_runtime(m, byoc_module_function_at(m, f).name) != NULL;
    double worst = 0, scale = 0;
    for (int i = 0; i < 10; ++i) {
        worst = fmax(worst, fabs((double)byoc_constant_f32(result, i) - (double)byoc_constant_f32(reference, i)));
        scale = fmax(scale, fabs((double)byoc_constant_f32(reference, i)));
    }
    int ok = lowered == 2 && scale > 0 && worst <= 1e-5 * scale;
    printf("vanilla: %d partitions run by their own kernels; outputs up to %.3g, largest difference from the reference %.3g: %s\n", lowered, scale,
           worst, ok ? "OK" : "MISMATCH");
    byoc_target_free(target);
    byoc_module_destroy(m);
    byoc_module_destroy(patterns);
    return ok ? 0 : 1;
}
