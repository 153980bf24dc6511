/* byoc_quantize.h v0.1.0 -- post-training static quantization of ONNX models to QDQ form, for byoc.h.
   MIT license (see byoc.h).

   What ONNX Runtime's quantize_static(..., quant_format=QuantFormat.QDQ) does, in C: the float model is run
   on calibration inputs by byoc_sim.h's host runtime, every tensor the quantization needs observed, and
   the model is rewritten at the protobuf wire level into QuantizeLinear -> DequantizeLinear pairs around
   the ops ONNX Runtime's QDQ quantizer handles. Everything of the input file that is not changed (unknown
   fields, metadata, doc strings, value infos, other opset imports) is copied byte for byte.

   QUICK START
       #define BYOC_IMPLEMENTATION           // in exactly one file, and in that same file:
       #define BYOC_SIM_IMPLEMENTATION
       #define BYOC_ONNX_IMPLEMENTATION
       #define BYOC_QUANTIZE_IMPLEMENTATION
       #include "byoc_sim.h"
       #include "tools/byoc_onnx.h"
       #include "tools/byoc_quantize.h"

       byoc_quantize_calibration cal;        // DIR/input_K.npy, DIR/SUB/input_K.npy
       byoc_quantize_calibration_read("calib", &cal, &diag);
       byoc_quantize_options o;
       memset(&o, 0, sizeof o);              // minmax, per tensor, uint8 activations
       o.samples = cal.tensors; o.sample_labels = cal.files; o.nsamples = cal.nsamples; o.ninputs = cal.ninputs;
       byoc_quantize_result r;
       if (byoc_quantize_onnx(bytes, size, "model.onnx", &o, &r, &diag) != BYOC_OK) ... diag.message ...
       ... r.bytes, r.size: the QDQ model; r.summary: what was quantized, what was left in float ...
       byoc_quantize_result_free(&r);
       byoc_quantize_calibration_free(&cal);

   The implementation uses byoc.h's and byoc_onnx.h's internals (the protobuf reader), so
   BYOC_QUANTIZE_IMPLEMENTATION goes in the translation unit that defines BYOC_ONNX_IMPLEMENTATION and
   BYOC_SIM_IMPLEMENTATION. Private names are byoc_quantize__* / BYOC_QUANTIZE__*.

   WHAT IT WRITES (ONNX Runtime's QDQ quantizer, onnxruntime/python/tools/quantization/qdq_quantizer.py and
   operators/ directory, is the model followed)
   - Weights (the initializer operand of Conv, ConvTranspose, Gemm, MatMul): int8, symmetric (zero point 0,
     scale max|w| / 127, as quant_utils.compute_scale_zp with qmin = -127), per tensor, or per channel with
     per_channel (Conv axis 0, ConvTranspose axis 1, Gemm 0 with transB else 1, MatMul the last axis). ONNX
     Runtime quantizes a MatMul initializer without per_channel as an activation (uint8); here every weight
     is int8, which is what integer accelerators take. W becomes W_quantized + DequantizeLinear. A weight
     computed from initializers alone (a Reshape of one) is quantized from its calibration-run value, as
     after quant_pre_process's constant folding.
   - Bias (input 2 of Conv and Gemm, 1-D): int32, scale = x_scale * w_scale (per channel when the weight
     is), zero point 0, values round(b / scale) saturated (quantize_bias_static).
   - Activations: uint8 asymmetric by default (int8 with activation_type), scale = (rmax - rmin) / (qmax -
     qmin) with the range widened to include 0, zero point round(qmin - rmin / scale) half to even
     (compute_scale_zp); one QuantizeLinear -> DequantizeLinear pair per tensor, every consumer reading
     the dequantized name; a graph output keeps its name (its producer writes NAME_QuantizeLinear_Input).
   - Which tensors (operators/): Conv/Gemm/MatMul: inputs and output; Add, Mul, Concat, Sigmoid,
     LeakyRelu, GlobalAveragePool: every float input and the output, each with its own range (an
     initializer operand is quantized with the activation type over its own values); Softmax: its input,
     and its output over the fixed range [0, 1]; Reshape, Transpose, Squeeze, Unsqueeze, Flatten,
     AveragePool, MaxPool (opset >= 12), Resize (opset >= 11), Split: only when their input is quantized,
     the outputs then sharing the input's scale and zero point (quantize_output_same_as_input); Relu and
     Clip (min 0) after a quantized tensor nobody else reads are removed, the producer writing their output
     and its range being theirs (QDQRemovableActivation). Everything else stays float; tensors that are
     not float32 are never quantized.
   - Opset: below 10 it is raised to 11, and to 13 with per_channel (DequantizeLinear's axis), as ONNX
     Runtime does; the nodes whose form changed between the two are rewritten (Dropout's ratio, Squeeze,
     Unsqueeze, Split and ReduceSum axes, Clip's min/max, Slice's starts/ends/axes, Pad's pads, Resize's
     roi, BatchNormalization's spatial) or, when that cannot be done exactly (Softmax over more than one
     axis, Upsample, TopK, opset < 7), refused naming the node. IR version is raised to 7 if lower.

   CALIBRATION
   Methods (calibrate.py): minmax (min and max over all samples), percentile (a histogram of |x| with
   2048 bins grown as samples widen it, the 99.999th percentile, clipped to the observed range:
   PercentileCalibrater with its defaults, symmetric), entropy (a signed histogram of 128 bins grown
   symmetrically (coarsened past 2048 bins), the threshold of least KL divergence over 128 quantized bins:
   EntropyCalibrater).
   Samples: options.samples holds nsamples x ninputs tensors (sample-major, in the order of the model's
   graph inputs that are not initializers). A tensor whose shape is the input's is one sample; one whose
   leading dim is a multiple of the input's static leading dim (and whose other dims agree) is split into
   that many samples. NaN and infinite values are not counted in ranges or histograms.
   byoc_quantize_calibration_read reads a directory: DIR/input_K.npy (K = 0, 1, ...)
   is one sample, and each subdirectory of DIR holding input_K.npy files is one more (in name order).

   ERRORS
   Calls return byoc_result and fill a caller-owned byoc_diag (may be NULL) with one line naming the file
   and the input, node or tensor; NULL arguments are byoc.h's NULL-handle errors. The written model is
   imported back with byoc_onnx.h before it is returned (a model byocc cannot load is never written).

   TABLE OF CONTENTS
       [SECTION] api
       [SECTION] impl: npy files and calibration directories
       [SECTION] impl: protobuf wire writer
       [SECTION] impl: the model as read (nodes, initializers, tensors)
       [SECTION] impl: calibration (augmented model, observers, minmax, percentile, entropy)
       [SECTION] impl: quantization parameters (compute_scale_zp, weights, bias)
       [SECTION] impl: the QDQ plan (which tensors, after ONNX Runtime's QDQ quantizer)
       [SECTION] impl: opset upgrade (nodes whose form changed)
       [SECTION] impl: writing the QDQ model
       [SECTION] impl: the result's node and range lists
       [SECTION] impl: entry points
*/
#ifndef BYOC_QUANTIZE_H_INCLUDED
#define BYOC_QUANTIZE_H_INCLUDED
#include "../byoc.h"
#include "byoc_onnx.h"

#define BYOC_QUANTIZE_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

// [SECTION] api
typedef enum byoc_quantize_method {
    BYOC_QUANTIZE_MINMAX = 0,
    BYOC_QUANTIZE_PERCENTILE = 1,
    BYOC_QUANTIZE_ENTROPY = 2
} byoc_quantize_method;

typedef struct byoc_quantize_options {
    byoc_quantize_method method;
    int per_channel;                  /* weights per output channel (opset raised to 13 when lower) */
    byoc_dtype activation_type;       /* BYOC_UINT8 (also when BYOC_DTYPE_INVALID / 0 is given) or BYOC_INT8 */
    double percentile;                /* percentile method: 0 means 99.999 */
    const byoc_tensor *samples;       /* nsamples * ninputs tensors, sample-major (see CALIBRATION) */
    const char *const *sample_labels; /* NULL, or one label per tensor (a file name) for messages */
    int nsamples, ninputs;
    const byoc_onnx_options *import; /* NULL, or the importer's limits (external data, constant bytes);
                                               its shapes are replaced by the samples' */
} byoc_quantize_options;

/* what became of one ONNX node of the input */
typedef struct byoc_quantize_node_info {
    const char *name, *op; /* its name (or its first output's when it has none), its op_type */
    int quantized;         /* given QDQ on some tensor */
    int fused;             /* removed: a Relu or Clip its producer's quantized output covers */
    const char *float_reason; /* left in float: why (NULL when quantized or fused) */
} byoc_quantize_node_info;

/* one activation tensor quantized with a scale and zero point: the calibration's range and what came of it */
typedef struct byoc_quantize_range {
    const char *tensor;        /* its name in the input model */
    double seen_min, seen_max; /* over the calibration samples (both 0 when it was not observed) */
    double rmin, rmax;         /* the range the method chose (minmax: the seen one), before widening to hold 0 */
    float scale;
    int zero_point;
    int fixed;                 /* a fixed range (Softmax's output: [0, 1]) rather than a calibrated one */
    /* NULL, or the tensor whose scale and zero point it takes (ONNX Runtime's quantize_output_same_as_input:
       a Reshape, Transpose, MaxPool... after a quantized input); rmin, rmax are then that tensor's */
    const char *shares;
} byoc_quantize_range;

typedef struct byoc_quantize_result {
    uint8_t *bytes; /* the QDQ model (malloc'd) */
    size_t size;
    int nodes_in, nodes_quantized, nodes_removed; /* ONNX nodes: of the input, given QDQ, fused away */
    int qdq_pairs, weights, biases;               /* activation pairs, int8 weights, int32 biases written */
    int samples;                                  /* calibration samples run (after splitting) */
    int opset_in, opset_out;
    char *summary; /* malloc'd text: what was quantized, what stayed float and why, per op type */
    /* The same facts per node and per tensor, for tools (byocc quantize --json). Both arrays and their strings
       live in one allocation that ranges points to; byoc_quantize_result_free frees it. */
    byoc_quantize_node_info *nodes; /* nodes_in entries: every ONNX node of the input's graph, in order */
    byoc_quantize_range *ranges;    /* every activation given a QuantizeLinear -> DequantizeLinear pair */
    int nranges;
} byoc_quantize_result;

/* Quantizes the ONNX model held in memory (name is used in messages). On failure *out is zeroed. */
BYOC_API byoc_result byoc_quantize_onnx(const void *model, size_t size, const char *name,
                                        const byoc_quantize_options *options, byoc_quantize_result *out,
                                        byoc_diag *diag);
BYOC_API void byoc_quantize_result_free(byoc_quantize_result *r);
BYOC_API const char *byoc_quantize_method_name(byoc_quantize_method m);
/* "minmax", "percentile" or "entropy" -> *out; 0 when the name is none of them */
BYOC_API int byoc_quantize_method_parse(const char *name, byoc_quantize_method *out);

/* A .npy file (little-endian or byte data, C order; float32/64, int8/16/32/64, uint8/16/32/64, bool)
   as a tensor whose data is malloc'd (free(out->data)). name is used in messages. */
BYOC_API byoc_result byoc_quantize_npy_parse(const void *data, size_t size, const char *name, byoc_tensor *out,
                                             byoc_diag *diag);

/* Calibration samples read from a directory (see CALIBRATION). */
typedef struct byoc_quantize_calibration {
    byoc_tensor *tensors; /* nsamples * ninputs, sample-major */
    char **files;         /* the file of each tensor */
    int nsamples, ninputs;
} byoc_quantize_calibration;
BYOC_API byoc_result byoc_quantize_calibration_read(const char *dir, byoc_quantize_calibration *out, byoc_diag *diag);
BYOC_API void byoc_quantize_calibration_free(byoc_quantize_calibration *c);

#ifdef __cplusplus
}
#endif
#endif /* BYOC_QUANTIZE_H_INCLUDED */

#if defined(BYOC_QUANTIZE_IMPLEMENTATION) && !defined(BYOC_QUANTIZE_IMPLEMENTATION_INCLUDED)
#define BYOC_QUANTIZE_IMPLEMENTATION_INCLUDED
#if !defined(BYOC_ONNX_IMPLEMENTATION_INCLUDED) || !defined(BYOC_SIM_IMPLEMENTATION)
#error \
    "define BYOC_QUANTIZE_IMPLEMENTATION in the file that defines BYOC_ONNX_IMPLEMENTATION and BYOC_SIM_IMPLEMENTATION"
#endif
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// [SECTION] impl: npy files and calibration directories
BYOC_API const char *byoc_quantize_method_name(byoc_quantize_method m) {
    return m == BYOC_QUANTIZE_PERCENTILE ? "percentile" : m == BYOC_QUANTIZE_ENTROPY ? "entropy" : "minmax";
}

BYOC_API int byoc_quantize_method_parse(const char *name, byoc_quantize_method *out) {
    static const char *const names[] = {"minmax", "percentile", "entropy"};
    for (int k = 0; name && out && k < 3; ++k)
        if (!strcmp(name, names[k])) {
            *out = (byoc_quantize_method)k;
            return 1;
        }
    return 0;
}

/* the value of 'key': in a .npy header dict ("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }") */
BYOC__PRIVATE const char *byoc_quantize__npy_field(const char *h, const char *key) {
    const char *p = strstr(h, key);
    if (!p) return NULL;
    p += strlen(key);
    while (*p == ' ' || *p == ':') ++p;
    return p;
}

BYOC__PRIVATE byoc_dtype byoc_quantize__npy_dtype(const char *descr) {
    static const struct {
        const char *d;
        byoc_dtype t;
    } table[] = {{"<f4", BYOC_FLOAT32}, {"<f8", BYOC_FLOAT64}, {"|i1", BYOC_INT8},  {"|u1", BYOC_UINT8},
                 {"<i2", BYOC_INT16},   {"<u2", BYOC_UINT16},  {"<i4", BYOC_INT32}, {"<u4", BYOC_UINT32},
                 {"<i8", BYOC_INT64},   {"<u8", BYOC_UINT64},  {"|b1", BYOC_BOOL},  {"<f2", BYOC_FLOAT16}};
    for (size_t k = 0; k < sizeof table / sizeof table[0]; ++k)
        if (!strncmp(descr, table[k].d, 3) && descr[3] == '\'') return table[k].t;
    return BYOC_DTYPE_INVALID;
}

/* the shape tuple "(2, 3)" / "(5,)" / "()" */
BYOC__PRIVATE int byoc_quantize__npy_shape(const char *p, int *rank, int64_t *dims) {
    if (*p++ != '(') return 0;
    *rank = 0;
    for (;;) {
        while (*p == ' ' || *p == ',') ++p;
        if (*p == ')') return 1;
        if (*p < '0' || *p > '9' || *rank == BYOC_MAX_RANK) return 0;
        int64_t v = 0;
        while (*p >= '0' && *p <= '9') {
            if (v > BYOC_MAX_DIM) return 0;
            v = v * 10 + (*p++ - '0');
        }
        if (v > BYOC_MAX_DIM) return 0;
        dims[(*rank)++] = v;
    }
}

BYOC_API byoc_result byoc_quantize_npy_parse(const void *data, size_t size, const char *name, byoc_tensor *out,
                                             byoc_diag *diag) {
    if (!out) return byoc__null_arg(diag, __func__, "out");
    memset(out, 0, sizeof *out);
    if (!data && size) return byoc__null_arg(diag, __func__, "data");
    if (!name) name = "array.npy";
    const uint8_t *b = BYOC__CAST(const uint8_t *, data);
    if (size < 10 || memcmp(b, "\x93NUMPY", 6))
        return byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: not a .npy file (no \\x93NUMPY magic)", name);
    int major = b[6];
    size_t hlen = major == 1 ? (size_t)b[8] | (size_t)b[9] << 8 : 0, hstart = 10;
    if (major >= 2 && size >= 12) {
        hlen = (size_t)byoc_onnx__le32(b + 8);
        hstart = 12;
    }
    if (major < 1 || major > 3 || hlen > size - hstart || hlen > 65536)
        return byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: bad .npy header (version %d, length %zu)", name, major,
                          hlen);
    char header[65537];
    memcpy(header, b + hstart, hlen);
    header[hlen] = 0;
    const char *descr = byoc_quantize__npy_field(header, "'descr'");
    const char *order = byoc_quantize__npy_field(header, "'fortran_order'");
    const char *shape = byoc_quantize__npy_field(header, "'shape'");
    if (!descr || *descr != '\'' || !order || !shape)
        return byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: .npy header lacks descr, fortran_order or shape", name);
    byoc_dtype dt = byoc_quantize__npy_dtype(descr + 1);
    if (dt == BYOC_DTYPE_INVALID)
        return byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, 0, "%s: .npy dtype %.8s is not supported", name, descr);
    if (strncmp(order, "False", 5))
        return byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, 0, "%s: Fortran-order .npy arrays are not supported", name);
    out->dtype = dt;
    if (!byoc_quantize__npy_shape(shape, &out->rank, out->dims))
        return byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: bad .npy shape (more than %d dims, or too large)", name,
                          BYOC_MAX_RANK);
    uint64_t count = 1;
    for (int d = 0; d < out->rank; ++d) {
        count *= (uint64_t)out->dims[d];
        if (count > ((uint64_t)1 << 40)) break;
    }
    size_t avail = size - hstart - hlen, esize = byoc_dtype_size(dt);
    if (count > ((uint64_t)1 << 40) || count * esize != avail)
        return byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: .npy holds %zu data bytes, its shape needs %llu", name,
                          avail, (unsigned long long)(count * esize));
    out->data = malloc(avail ? avail : 1);
    if (!out->data) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", name);
    if (avail) memcpy(out->data, b + hstart + hlen, avail);
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc_quantize__npy_read(const char *path, byoc_tensor *out, byoc_diag *diag) {
    size_t size = 0;
    uint8_t *data = byoc_onnx__read_file(path, &size, diag);
    if (!data) return diag->code;
    byoc_result r = byoc_quantize_npy_parse(data, size, path, out, diag);
    free(data);
    return r;
}

BYOC_API void byoc_quantize_calibration_free(byoc_quantize_calibration *c) {
    if (!c) return;
    for (int i = 0; i < c->nsamples * c->ninputs; ++i) {
        if (c->tensors) free(c->tensors[i].data);
        if (c->files) free(c->files[i]);
    }
    free(c->tensors);
    free(c->files);
    memset(c, 0, sizeof *c);
}

BYOC__PRIVATE int byoc_quantize__is_file(const char *path) {
    struct stat s;
    return stat(path, &s) == 0 && S_ISREG(s.st_mode);
}

BYOC__PRIVATE int byoc_quantize__by_name(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the input_K.npy files of one directory (K from 0 while present); 0 when it has none */
BYOC__PRIVATE int byoc_quantize__sample_files(const char *dir, char ***paths) {
    int n = 0;
    for (;; ++n) {
        char path[4200];
        snprintf(path, sizeof path, "%s/input_%d.npy", dir, n);
        if (!byoc_quantize__is_file(path)) break;
        char *copy = BYOC__CAST(char *, malloc(strlen(path) + 1));
        if (!copy) break;
        strcpy(copy, path);
        stbds_arrput(*paths, copy);
    }
    return n;
}

/* DIR itself, then its subdirectories in name order: the directories that hold samples */
BYOC__PRIVATE byoc_result byoc_quantize__sample_dirs(const char *dir, char ***dirs, byoc_diag *diag) {
    DIR *d = opendir(dir);
    if (!d) return byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: cannot open the calibration directory", dir);
    char **subs = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = BYOC__CAST(char *, malloc(n));
        if (!path) break;
        snprintf(path, n, "%s/%s", dir, e->d_name);
        struct stat s;
        if (stat(path, &s) == 0 && S_ISDIR(s.st_mode)) stbds_arrput(subs, path);
        else free(path);
    }
    closedir(d);
    if (stbds_arrlen(subs)) qsort(subs, (size_t)stbds_arrlen(subs), sizeof(char *), byoc_quantize__by_name);
    char *self = BYOC__CAST(char *, malloc(strlen(dir) + 1));
    if (self) {
        strcpy(self, dir);
        stbds_arrput(*dirs, self);
    }
    for (int i = 0; i < (int)stbds_arrlen(subs); ++i) stbds_arrput(*dirs, subs[i]);
    stbds_arrfree(subs);
    return BYOC_OK;
}

BYOC_API byoc_result byoc_quantize_calibration_read(const char *dir, byoc_quantize_calibration *out, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    if (!out) return byoc__null_arg(diag, __func__, "out");
    memset(out, 0, sizeof *out);
    if (!dir) return byoc__null_arg(diag, __func__, "dir");
    char **dirs = NULL, **paths = NULL;
    byoc_result r = byoc_quantize__sample_dirs(dir, &dirs, diag);
    int ninputs = -1, nsamples = 0;
    const char *first = NULL;
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(dirs); ++i) {
        int n = byoc_quantize__sample_files(dirs[i], &paths);
        if (!n) continue;
        if (ninputs >= 0 && n != ninputs)
            r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                           "%s: holds %d input_K.npy file%s, %s holds %d (every sample gives every input)", dirs[i], n,
                           n == 1 ? "" : "s", first, ninputs);
        if (ninputs < 0) {
            ninputs = n;
            first = dirs[i];
        }
        nsamples++;
    }
    if (r == BYOC_OK && !nsamples)
        r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                       "%s: no calibration samples (expected input_0.npy, input_1.npy, ... in it or in its "
                       "subdirectories)",
                       dir);
    if (r == BYOC_OK) {
        int total = (int)stbds_arrlen(paths);
        out->tensors = BYOC__CAST(byoc_tensor *, calloc((size_t)total, sizeof(byoc_tensor)));
        out->files = BYOC__CAST(char **, calloc((size_t)total, sizeof(char *)));
        if (!out->tensors || !out->files)
            r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", dir);
        out->nsamples = nsamples;
        out->ninputs = ninputs;
        for (int i = 0; r == BYOC_OK && i < total; ++i) {
            out->files[i] = paths[i];
            paths[i] = NULL;
            r = byoc_quantize__npy_read(out->files[i], &out->tensors[i], diag);
        }
    }
    for (int i = 0; i < (int)stbds_arrlen(paths); ++i) free(paths[i]);
    for (int i = 0; i < (int)stbds_arrlen(dirs); ++i) free(dirs[i]);
    stbds_arrfree(paths);
    stbds_arrfree(dirs);
    if (r != BYOC_OK) byoc_quantize_calibration_free(out);
    return r;
}

// [SECTION] impl: protobuf wire writer
/* A growable byte buffer; a failed allocation sets oom and later writes do nothing. */
typedef struct byoc_quantize__buf {
    uint8_t *p;
    size_t n, cap;
    int oom;
} byoc_quantize__buf;

BYOC__PRIVATE void byoc_quantize__put(byoc_quantize__buf *b, const void *data, size_t n) {
    if (b->oom || !n) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = BYOC__CAST(uint8_t *, realloc(b->p, cap));
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

BYOC__PRIVATE void byoc_quantize__varint(byoc_quantize__buf *b, uint64_t v) {
    uint8_t tmp[10];
    int n = 0;
    do {
        tmp[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    byoc_quantize__put(b, tmp, (size_t)n);
}

BYOC__PRIVATE void byoc_quantize__key(byoc_quantize__buf *b, uint32_t field, int wire) {
    byoc_quantize__varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

/* a LEN field: bytes, a string or a nested message already written to a buffer */
BYOC__PRIVATE void byoc_quantize__len(byoc_quantize__buf *b, uint32_t field, const void *data, size_t n) {
    byoc_quantize__key(b, field, BYOC_ONNX__WIRE_LEN);
    byoc_quantize__varint(b, n);
    byoc_quantize__put(b, data, n);
}

BYOC__PRIVATE void byoc_quantize__str(byoc_quantize__buf *b, uint32_t field, const char *s) {
    byoc_quantize__len(b, field, s, strlen(s));
}

BYOC__PRIVATE void byoc_quantize__int(byoc_quantize__buf *b, uint32_t field, int64_t v) {
    byoc_quantize__key(b, field, BYOC_ONNX__WIRE_VARINT);
    byoc_quantize__varint(b, (uint64_t)v);
}

BYOC__PRIVATE void byoc_quantize__msg(byoc_quantize__buf *b, uint32_t field, byoc_quantize__buf *inner) {
    if (inner->oom) b->oom = 1;
    byoc_quantize__len(b, field, inner->p, inner->n);
    free(inner->p);
    memset(inner, 0, sizeof *inner);
}

/* a TensorProto: dims (1), data_type (2), name (8), raw_data (9, little-endian as ONNX stores it) */
BYOC__PRIVATE void byoc_quantize__put_tensor(byoc_quantize__buf *b, const char *name, int onnx_type, int rank,
                                             const int64_t *dims, const void *raw, size_t nbytes) {
    byoc_quantize__buf t;
    memset(&t, 0, sizeof t);
    for (int d = 0; d < rank; ++d) byoc_quantize__int(&t, 1, dims[d]);
    byoc_quantize__int(&t, 2, onnx_type);
    byoc_quantize__str(&t, 8, name);
    byoc_quantize__len(&t, 9, raw, nbytes);
    byoc_quantize__msg(b, 5, &t);
}

/* a NodeProto: inputs (1), outputs (2), name (3), op_type (4), an int attribute (5) when attr is given */
BYOC__PRIVATE void byoc_quantize__put_node(byoc_quantize__buf *b, const char *name, const char *op,
                                           const char *const *inputs, int ninputs, const char *output, const char *attr,
                                           int64_t value) {
    byoc_quantize__buf n;
    memset(&n, 0, sizeof n);
    for (int i = 0; i < ninputs; ++i) byoc_quantize__str(&n, 1, inputs[i]);
    byoc_quantize__str(&n, 2, output);
    byoc_quantize__str(&n, 3, name);
    byoc_quantize__str(&n, 4, op);
    if (attr) {
        byoc_quantize__buf a;
        memset(&a, 0, sizeof a);
        byoc_quantize__str(&a, 1, attr);
        byoc_quantize__int(&a, 3, value);
        byoc_quantize__int(&a, 20, BYOC_ONNX__ATTR_INT);
        byoc_quantize__msg(&n, 5, &a);
    }
    byoc_quantize__msg(b, 1, &n);
}

/* one field of a message, as it was read: its key and its bytes */
typedef struct byoc_quantize__field {
    uint32_t number;
    int wire;
    const uint8_t *start, *end; /* the whole record, key included */
    byoc_onnx__bytes value;     /* a LEN field's payload */
} byoc_quantize__field;

/* the next field of a message (0 at its end or on malformed bytes, *bad set then) */
BYOC__PRIVATE int byoc_quantize__next(byoc_onnx__pb *pb, byoc_quantize__field *f, int *bad) {
    if (pb->p >= pb->end) return 0;
    f->start = pb->p;
    f->value.p = NULL;
    f->value.n = 0;
    if (!byoc_onnx__pb_key(pb, &f->number, &f->wire)) {
        *bad = 1;
        return 0;
    }
    if (f->wire == BYOC_ONNX__WIRE_LEN) {
        if (!byoc_onnx__pb_len(pb, &f->value)) {
            *bad = 1;
            return 0;
        }
    } else if (!byoc_onnx__pb_skip(pb, f->wire)) {
        *bad = 1;
        return 0;
    }
    f->end = pb->p;
    return 1;
}

BYOC__PRIVATE void byoc_quantize__copy(byoc_quantize__buf *b, const byoc_quantize__field *f) {
    byoc_quantize__put(b, f->start, (size_t)(f->end - f->start));
}

// [SECTION] impl: the model as read (nodes, initializers, tensors)
typedef struct byoc_quantize__node {
    byoc_onnx__bytes raw;
    byoc_onnx__node parsed;
    char *op, *name;  /* op_type, and the node's name or its first output's (for messages) */
    char **in, **out; /* stb_ds of malloc'd names ("" for an omitted input) */
    int default_domain, has_subgraph;
    /* the rewrite */
    int removed;            /* fused into its producer (Relu, Clip) */
    const char **new_in;    /* stb_ds: the inputs written (NULL: in), before renaming */
    const char **drop_attr; /* stb_ds: attributes not written */
    const char *add_attr;   /* an INT attribute written (add_value), NULL: none */
    int64_t add_value;
    int quantized; /* given QDQ on some tensor */
    const char *float_reason;
} byoc_quantize__node;

typedef struct byoc_quantize__init {
    byoc_onnx__bytes raw;
    char *name;
    int onnx_type, rank;
    int64_t dims[BYOC_MAX_RANK];
    int64_t count;
    float *values; /* decoded float32 data (NULL: not float32, external, or malformed) */
    int dropped;   /* replaced by a quantized initializer */
} byoc_quantize__init;

/* what the quantizer knows of one tensor name */
typedef struct byoc_quantize__tensor {
    char *name;
    int producer, init, graph_input, graph_output, consumers;
    int elem_type, decl_rank; /* a graph input's declared type (dims -1: symbolic) */
    int64_t decl_dims[BYOC_MAX_RANK];
    int observe;        /* calibration output index, -1: not observed */
    int observed_float; /* observed and float32 */
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    /* calibration */
    double rmin, rmax; /* the range used (after the method) */
    double seen_min, seen_max;
    double *hist;            /* stb_ds: histogram counts */
    double hist_lo, hist_hi; /* its edges: lo + i * (hi - lo) / n */
    double threshold;        /* entropy: the symmetric threshold the histogram spans (0: none yet) */
    int has_data;
    /* the plan */
    int quantize; /* an activation QDQ pair */
    int share;    /* -1, or the tensor whose scale and zero point it uses */
    int fixed;    /* the range is fixed (Softmax's output: [0, 1]) */
    int weight;   /* 1: an int8 weight, 2: an initializer quantized as an activation, 3: an int32 bias */
    int axis;     /* weight / bias channel axis, -1: per tensor */
    int bias_input, bias_weight;
    double beta;
    int gone;       /* no longer exists (a fused Relu's input) */
    int made_fresh; /* a name the rewrite made */
    int capture;    /* a weight computed from initializers: its value becomes an initializer */
    float scale;
    int zero_point;
    const char *scale_name, *zp_name, *dq_name, *q_input; /* names written */
} byoc_quantize__tensor;

typedef struct byoc_quantize__map {
    char *key;
    int value;
} byoc_quantize__map;

/* an initializer the rewrite adds */
typedef struct byoc_quantize__extra {
    const char *name;
    int onnx_type, rank;
    int64_t dims[BYOC_MAX_RANK];
    uint8_t *data; /* little-endian, malloc'd */
    size_t nbytes;
} byoc_quantize__extra;

/* a QuantizeLinear or DequantizeLinear node the rewrite adds, written after node `after` (-1: first) */
typedef struct byoc_quantize__qdq {
    const char *name, *op, *in[3], *out;
    int axis; /* -1: none */
    int after;
} byoc_quantize__qdq;

typedef struct byoc_quantize__model {
    byoc_onnx__state st; /* byoc_onnx.h's reader state: messages name the file */
    byoc_onnx__file mf;
    byoc_quantize__node *nodes;
    byoc_quantize__init *inits;
    byoc_quantize__tensor *tensors;
    byoc_quantize__map *names; /* tensor name -> index in tensors */
    char **input_names;        /* graph inputs that are not initializers, in order */
    char **output_names;       /* graph outputs, in order */
    int opset, target_opset;
    byoc_dtype act_type;
    int per_channel;
    char **owned;                /* stb_ds: strings made here */
    byoc_quantize__extra *extra; /* stb_ds */
    byoc_quantize__qdq *qdq;     /* stb_ds */
    int upgraded;                /* nodes rewritten for the new opset */
    int has_subgraph;            /* some node holds a graph (If, Loop, Scan) */
} byoc_quantize__model;

BYOC__PRIVATE char *byoc_quantize__dup(byoc_quantize__model *qm, const char *s, size_t n) {
    char *r = BYOC__CAST(char *, malloc(n + 1));
    if (!r) return NULL;
    if (n) memcpy(r, s, n);
    r[n] = 0;
    for (size_t i = 0; i < n; ++i)
        if (!r[i]) r[i] = '?';
    stbds_arrput(qm->owned, r);
    return r;
}

BYOC__PRIVATE char *byoc_quantize__bytes(byoc_quantize__model *qm, byoc_onnx__bytes b) {
    return byoc_quantize__dup(qm, (const char *)b.p, b.n);
}

BYOC__PRIVATE int byoc_quantize__find(const byoc_quantize__model *qm, const char *name) {
    byoc_quantize__map *names = qm->names; /* a lookup does not move a table (it would make an empty one) */
    if (!names) return -1;
    ptrdiff_t i = stbds_shgeti(names, name);
    return i >= 0 ? names[i].value : -1;
}

/* the tensor record of a name, made when new */
BYOC__PRIVATE int byoc_quantize__tensor_of(byoc_quantize__model *qm, const char *name) {
    int t = byoc_quantize__find(qm, name);
    if (t >= 0) return t;
    byoc_quantize__tensor r;
    memset(&r, 0, sizeof r);
    r.name = byoc_quantize__dup(qm, name, strlen(name));
    r.producer = r.init = r.observe = r.share = r.axis = r.bias_input = r.bias_weight = -1;
    r.beta = 1;
    stbds_arrput(qm->tensors, r);
    t = (int)stbds_arrlen(qm->tensors) - 1;
    stbds_shput(qm->names, r.name, t);
    return t;
}

/* a fresh tensor name from base (base, base_1, base_2, ...), registered */
BYOC__PRIVATE const char *byoc_quantize__fresh(byoc_quantize__model *qm, const char *base) {
    char name[600];
    int t = byoc_quantize__find(qm, base);
    if (t >= 0 && qm->tensors[t].made_fresh) return qm->tensors[t].name;
    snprintf(name, sizeof name, "%s", base);
    for (int k = 1; byoc_quantize__find(qm, name) >= 0; ++k) snprintf(name, sizeof name, "%.560s_%d", base, k);
    t = byoc_quantize__tensor_of(qm, name);
    qm->tensors[t].made_fresh = 1;
    return qm->tensors[t].name;
}

/* a float32 initializer's values (raw_data or float_data); other types, external data: NULL */
BYOC__PRIVATE float *byoc_quantize__float_data(const byoc_onnx__tensor *t, int64_t count) {
    if (t->data_type != 1 || t->external || t->segment || count < 0 || count > ((int64_t)1 << 32)) return NULL;
    float *v = BYOC__CAST(float *, malloc((size_t)(count ? count : 1) * sizeof(float)));
    if (!v) return NULL;
    if (t->has_raw && t->raw.n == (size_t)count * 4) {
        for (int64_t i = 0; i < count; ++i) {
            uint32_t bits = byoc_onnx__le32(t->raw.p + 4 * i);
            memcpy(&v[i], &bits, 4);
        }
        return v;
    }
    if (!t->has_raw && t->value_field == 4 && (int64_t)stbds_arrlen(t->values) == count) {
        for (int64_t i = 0; i < count; ++i) {
            uint32_t bits = (uint32_t)t->values[i];
            memcpy(&v[i], &bits, 4);
        }
        return v;
    }
    free(v);
    return NULL;
}

BYOC__PRIVATE byoc_result byoc_quantize__read_init(byoc_quantize__model *qm, byoc_onnx__bytes raw) {
    byoc_onnx__tensor t;
    byoc_result r = byoc_onnx__parse_tensor(&qm->st, raw, &t);
    if (r != BYOC_OK) return r;
    byoc_quantize__init in;
    memset(&in, 0, sizeof in);
    in.raw = raw;
    in.name = byoc_quantize__bytes(qm, t.name);
    in.onnx_type = t.data_type;
    in.rank = (int)stbds_arrlen(t.dims);
    in.count = 1;
    if (in.rank > BYOC_MAX_RANK) in.rank = -1;
    for (int d = 0; in.rank > 0 && d < in.rank; ++d) {
        in.dims[d] = (int64_t)t.dims[d];
        if (in.dims[d] < 0 || in.dims[d] > BYOC_MAX_DIM) in.rank = -1;
        else in.count *= in.dims[d];
    }
    if (in.rank >= 0) in.values = byoc_quantize__float_data(&t, in.count);
    byoc_onnx__tensor_free(&t);
    if (!in.name) return byoc_onnx__fail(&qm->st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    stbds_arrput(qm->inits, in);
    int k = byoc_quantize__tensor_of(qm, in.name);
    qm->tensors[k].init = (int)stbds_arrlen(qm->inits) - 1;
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc_quantize__read_node(byoc_quantize__model *qm, byoc_onnx__bytes raw) {
    byoc_quantize__node n;
    memset(&n, 0, sizeof n);
    n.raw = raw;
    byoc_result r = byoc_onnx__parse_node(&qm->st, raw, &n.parsed);
    if (r != BYOC_OK) return r;
    n.op = byoc_quantize__bytes(qm, n.parsed.op_type);
    n.default_domain = !n.parsed.domain.n || byoc_onnx__bytes_eq(n.parsed.domain, "ai.onnx");
    for (int i = 0; i < (int)stbds_arrlen(n.parsed.inputs); ++i)
        stbds_arrput(n.in, byoc_quantize__bytes(qm, n.parsed.inputs[i]));
    for (int i = 0; i < (int)stbds_arrlen(n.parsed.outputs); ++i)
        stbds_arrput(n.out, byoc_quantize__bytes(qm, n.parsed.outputs[i]));
    for (int i = 0; i < (int)stbds_arrlen(n.parsed.attrs); ++i)
        if (n.parsed.attrs[i].has_g || n.parsed.attrs[i].type == BYOC_ONNX__ATTR_GRAPH ||
            n.parsed.attrs[i].type == 10 /* GRAPHS */)
            n.has_subgraph = 1;
    n.name = n.parsed.name.n ? byoc_quantize__bytes(qm, n.parsed.name) : stbds_arrlen(n.out) ? n.out[0] : n.op;
    int index = (int)stbds_arrlen(qm->nodes);
    stbds_arrput(qm->nodes, n);
    for (int i = 0; i < (int)stbds_arrlen(n.in); ++i)
        if (n.in[i][0]) {
            int t = byoc_quantize__tensor_of(qm, n.in[i]); /* may move qm->tensors: index after the call */
            qm->tensors[t].consumers++;
        }
    for (int i = 0; i < (int)stbds_arrlen(n.out); ++i)
        if (n.out[i][0]) {
            int t = byoc_quantize__tensor_of(qm, n.out[i]);
            qm->tensors[t].producer = index;
        }
    return BYOC_OK;
}

/* the graph: nodes, initializers, inputs and outputs, every tensor name with its producer and consumers */
BYOC__PRIVATE byoc_result byoc_quantize__read(byoc_quantize__model *qm, const uint8_t *data, size_t size) {
    byoc_result r = byoc_onnx__parse_model(&qm->st, data, size, &qm->mf);
    if (r != BYOC_OK) return r;
    qm->opset = qm->mf.opset;
    byoc_onnx__pb pb = byoc_onnx__pb_of(qm->mf.graph);
    byoc_quantize__field f;
    int bad = 0;
    char **graph_inputs = NULL;
    while (r == BYOC_OK && byoc_quantize__next(&pb, &f, &bad)) {
        if (f.wire != BYOC_ONNX__WIRE_LEN) continue;
        if (f.number == 1) r = byoc_quantize__read_node(qm, f.value);
        else if (f.number == 5) r = byoc_quantize__read_init(qm, f.value);
        else if (f.number == 11 || f.number == 12) {
            byoc_onnx__value_info vi;
            r = byoc_onnx__parse_value_info(&qm->st, f.value, &vi);
            if (r != BYOC_OK) break;
            char *name = byoc_quantize__bytes(qm, vi.name);
            int t = byoc_quantize__tensor_of(qm, name);
            if (f.number == 11) {
                byoc_quantize__tensor *gi = &qm->tensors[t];
                gi->graph_input = 1;
                gi->elem_type = vi.elem_type;
                gi->decl_rank = vi.has_shape && !vi.too_many_dims ? vi.rank : -1;
                for (int d = 0; d < vi.rank && d < BYOC_MAX_RANK; ++d)
                    gi->decl_dims[d] = vi.dim_names[d].n ? -1 : vi.dims[d];
                stbds_arrput(graph_inputs, name);
            } else {
                qm->tensors[t].graph_output = 1;
                stbds_arrput(qm->output_names, name);
            }
        }
    }
    if (r == BYOC_OK && bad) r = byoc_onnx__fail(&qm->st, BYOC_ERR_CORRUPT, "malformed graph");
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(graph_inputs); ++i)
        if (qm->tensors[byoc_quantize__find(qm, graph_inputs[i])].init < 0)
            stbds_arrput(qm->input_names, graph_inputs[i]);
    stbds_arrfree(graph_inputs);
    return r;
}

BYOC__PRIVATE void byoc_quantize__model_free(byoc_quantize__model *qm) {
    for (int i = 0; i < (int)stbds_arrlen(qm->nodes); ++i) {
        byoc_quantize__node *n = &qm->nodes[i];
        byoc_onnx__node_free(&n->parsed);
        stbds_arrfree(n->in);
        stbds_arrfree(n->out);
        stbds_arrfree(n->new_in);
        stbds_arrfree(n->drop_attr);
    }
    for (int i = 0; i < (int)stbds_arrlen(qm->inits); ++i) free(qm->inits[i].values);
    for (int i = 0; i < (int)stbds_arrlen(qm->tensors); ++i) stbds_arrfree(qm->tensors[i].hist);
    for (int i = 0; i < (int)stbds_arrlen(qm->owned); ++i) free(qm->owned[i]);
    stbds_arrfree(qm->nodes);
    stbds_arrfree(qm->inits);
    stbds_arrfree(qm->tensors);
    stbds_shfree(qm->names);
    stbds_arrfree(qm->input_names);
    stbds_arrfree(qm->output_names);
    stbds_arrfree(qm->owned);
    for (int i = 0; i < (int)stbds_arrlen(qm->extra); ++i) free(qm->extra[i].data);
    stbds_arrfree(qm->extra);
    stbds_arrfree(qm->qdq);
}

// [SECTION] impl: calibration (augmented model, observers, minmax, percentile, entropy)
enum {
    BYOC_QUANTIZE__NONE,
    BYOC_QUANTIZE__WEIGHTED,
    BYOC_QUANTIZE__GENERAL,
    BYOC_QUANTIZE__DIRECT,
    BYOC_QUANTIZE__REMOVABLE
};

/* How ONNX Runtime's QDQ quantizer treats an op type (its QDQRegistry and the QLinear ops' defaults):
   WEIGHTED: QDQConv / QDQGemm / QDQMatMul; GENERAL: QDQOperatorBase (every input and the output, own
   ranges); DIRECT: QDQDirect8BitOp (the output shares the input's parameters); REMOVABLE:
   QDQRemovableActivation. MaxPool needs opset 12 and Resize 11 (QDQMaxPool, QDQResize). */
BYOC__PRIVATE int byoc_quantize__kind(const byoc_quantize__node *n, int opset) {
    static const char *const weighted[] = {"Conv", "ConvTranspose", "Gemm", "MatMul"};
    static const char *const general[] = {"Add",    "Mul", "Concat", "Sigmoid", "LeakyRelu", "GlobalAveragePool",
                                          "Softmax"};
    static const char *const direct[] = {"Reshape",     "Transpose", "Squeeze", "Unsqueeze", "Flatten",
                                         "AveragePool", "MaxPool",   "Resize",  "Split"};
    if (!n->default_domain) return BYOC_QUANTIZE__NONE;
    for (size_t k = 0; k < sizeof weighted / sizeof weighted[0]; ++k)
        if (!strcmp(n->op, weighted[k])) return BYOC_QUANTIZE__WEIGHTED;
    for (size_t k = 0; k < sizeof general / sizeof general[0]; ++k)
        if (!strcmp(n->op, general[k])) return BYOC_QUANTIZE__GENERAL;
    if ((!strcmp(n->op, "MaxPool") && opset < 12) || (!strcmp(n->op, "Resize") && opset < 11))
        return BYOC_QUANTIZE__NONE;
    for (size_t k = 0; k < sizeof direct / sizeof direct[0]; ++k)
        if (!strcmp(n->op, direct[k])) return BYOC_QUANTIZE__DIRECT;
    if (!strcmp(n->op, "Relu") || !strcmp(n->op, "Clip")) return BYOC_QUANTIZE__REMOVABLE;
    return BYOC_QUANTIZE__NONE;
}

/* a tensor computed from initializers alone (a weight behind a Reshape or Transpose, as exporters write):
   its value is the same for every sample */
BYOC__PRIVATE int byoc_quantize__constant_derived(const byoc_quantize__model *qm, int t, int depth) {
    if (t < 0 || depth > 16) return 0;
    if (qm->tensors[t].init >= 0) return 1;
    int p = qm->tensors[t].producer;
    if (p < 0) return 0;
    const byoc_quantize__node *n = &qm->nodes[p];
    if (!n->default_domain || n->has_subgraph || !strncmp(n->op, "Random", 6) || !strcmp(n->op, "Bernoulli") ||
        !strcmp(n->op, "Multinomial") || !strcmp(n->op, "Dropout"))
        return 0;
    for (int k = 0; k < (int)stbds_arrlen(n->in); ++k)
        if (n->in[k][0] && !byoc_quantize__constant_derived(qm, byoc_quantize__find(qm, n->in[k]), depth + 1)) return 0;
    return 1;
}

/* marks the tensors whose values calibration needs (the activations the plan may quantize, and the
   inputs of the Softmax family, whose shapes the opset upgrade checks); returns how many */
BYOC__PRIVATE int byoc_quantize__choose_observed(byoc_quantize__model *qm, char ***names) {
    int count = 0;
    for (int i = 0; i < (int)stbds_arrlen(qm->nodes); ++i) {
        const byoc_quantize__node *n = &qm->nodes[i];
        int kind = byoc_quantize__kind(n, qm->target_opset);
        int softmax = n->default_domain &&
                      (!strcmp(n->op, "Softmax") || !strcmp(n->op, "LogSoftmax") || !strcmp(n->op, "Hardmax"));
        if (kind == BYOC_QUANTIZE__NONE && !softmax) continue;
        int nin = (int)stbds_arrlen(n->in);
        if (kind == BYOC_QUANTIZE__WEIGHTED && nin > 2) nin = 2;         /* the bias is not observed */
        if (kind == BYOC_QUANTIZE__DIRECT || softmax) nin = nin ? 1 : 0; /* shape operands are not */
        for (int k = 0; k < nin + 1; ++k) {
            const char *name = k < nin ? n->in[k] : stbds_arrlen(n->out) ? n->out[0] : "";
            if (kind == BYOC_QUANTIZE__DIRECT && k == nin) continue;
            int t = name[0] ? byoc_quantize__find(qm, name) : -1;
            if (t < 0 || qm->tensors[t].init >= 0 || qm->tensors[t].observe >= 0) continue;
            qm->tensors[t].observe = 0; /* the output index is given below */
            /* a computed weight: its value is kept, and it is quantized as the weight it is (what ONNX
               Runtime's quant_pre_process achieves by folding constants first) */
            qm->tensors[t].capture =
                kind == BYOC_QUANTIZE__WEIGHTED && k == 1 && byoc_quantize__constant_derived(qm, t, 0);
            stbds_arrput(*names, qm->tensors[t].name);
            count++;
        }
    }
    return count;
}

/* the model with every observed tensor a graph output too (its outputs first, then those added) */
BYOC__PRIVATE byoc_result byoc_quantize__augment(byoc_quantize__model *qm, const uint8_t *data, size_t size,
                                                 char **observed, byoc_quantize__buf *out) {
    int nout = (int)stbds_arrlen(qm->output_names), extra = 0;
    for (int i = 0; i < (int)stbds_arrlen(observed); ++i) {
        int t = byoc_quantize__find(qm, observed[i]);
        int at = -1;
        for (int k = 0; k < nout && at < 0; ++k)
            if (!strcmp(qm->output_names[k], observed[i])) at = k;
        qm->tensors[t].observe = at >= 0 ? at : nout + extra++;
    }
    byoc_onnx__bytes whole = {data, size};
    byoc_onnx__pb pb = byoc_onnx__pb_of(whole);
    byoc_quantize__field f;
    int bad = 0;
    while (byoc_quantize__next(&pb, &f, &bad)) {
        if (f.number != 7 || f.wire != BYOC_ONNX__WIRE_LEN) {
            byoc_quantize__copy(out, &f);
            continue;
        }
        byoc_quantize__buf g;
        memset(&g, 0, sizeof g);
        byoc_quantize__put(&g, f.value.p, f.value.n);
        for (int i = 0; i < (int)stbds_arrlen(observed); ++i) {
            int t = byoc_quantize__find(qm, observed[i]);
            if (qm->tensors[t].observe < nout) continue;
            byoc_quantize__buf vi;
            memset(&vi, 0, sizeof vi);
            byoc_quantize__str(&vi, 1, observed[i]);
            byoc_quantize__msg(&g, 12, &vi);
        }
        byoc_quantize__msg(out, 7, &g);
    }
    if (bad) return byoc_onnx__fail(&qm->st, BYOC_ERR_CORRUPT, "malformed model");
    if (out->oom) return byoc_onnx__fail(&qm->st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    return BYOC_OK;
}

enum {
    BYOC_QUANTIZE__PERCENTILE_BINS = 2048,
    BYOC_QUANTIZE__ENTROPY_BINS = 128,
    BYOC_QUANTIZE__QUANTIZED_BINS = 128,
    BYOC_QUANTIZE__MAX_ENTROPY_BINS = 2048
};

/* numpy.histogram's binning over uniform edges lo + i * (hi - lo) / n: values outside [lo, hi] are not
   counted, hi falls in the last bin */
BYOC__PRIVATE void byoc_quantize__bin(double *hist, int n, double lo, double hi, const float *x, int64_t count,
                                      int absolute) {
    double width = (hi - lo) / n;
    for (int64_t i = 0; i < count; ++i) {
        double v = absolute ? fabs((double)x[i]) : (double)x[i];
        if (!isfinite(v) || v < lo || v > hi) continue;
        double f = width > 0 ? floor((v - lo) / width) : 0; /* a degenerate range: one bin */
        int64_t b = !(f >= 0) ? 0 : f >= n ? n - 1 : (int64_t)f;
        hist[b] += 1;
    }
}

/* PercentileCalibrater's collect_absolute_value: the first sample spans [min|x|, max|x|] with 2048 bins;
   later ones add bins of the same width up to their max|x| */
BYOC__PRIVATE void byoc_quantize__collect_absolute(byoc_quantize__tensor *t, const float *x, int64_t count) {
    double amin = HUGE_VAL, amax = 0;
    for (int64_t i = 0; i < count; ++i) {
        double v = fabs((double)x[i]);
        if (!isfinite(v)) continue;
        if (v < amin) amin = v;
        if (v > amax) amax = v;
    }
    if (amin > amax) amin = amax = 0;
    if (!stbds_arrlen(t->hist)) {
        if (amin == amax) {
            amin -= 0.5;
            amax += 0.5;
        } /* numpy widens an empty range so */
        stbds_arrsetlen(t->hist, BYOC_QUANTIZE__PERCENTILE_BINS);
        memset(t->hist, 0, sizeof(double) * BYOC_QUANTIZE__PERCENTILE_BINS);
        t->hist_lo = amin;
        t->hist_hi = amax;
    } else if (amax > t->hist_hi) {
        int n = (int)stbds_arrlen(t->hist);
        double width = (t->hist_hi - t->hist_lo) / n, grow = width > 0 ? ceil((amax - t->hist_hi) / width) : 1;
        int64_t more = !(grow < (1 << 20)) ? 1 << 20 : grow < 1 ? 1 : (int64_t)grow; /* bounded for outliers */
        stbds_arrsetlen(t->hist, n + (int)more);
        for (int k = n; k < n + (int)more; ++k) t->hist[k] = 0;
        t->hist_hi = t->hist_lo + width * (double)(n + more);
    }
    byoc_quantize__bin(t->hist, (int)stbds_arrlen(t->hist), t->hist_lo, t->hist_hi, x, count, 1);
}

/* EntropyCalibrater's collect_value / merge_histogram: 128 bins over [-th, th] (th = max|x|); a sample
   with a larger th adds bins of the same stride on both sides */
BYOC__PRIVATE void byoc_quantize__collect_signed(byoc_quantize__tensor *t, const float *x, int64_t count, double th) {
    int n = (int)stbds_arrlen(t->hist);
    if (!n || (t->threshold == 0 && th > 0) || (th > t->threshold && !(2 * t->threshold / n > 0))) {
        double *old = NULL;
        if (n) {
            stbds_arrsetlen(old, n);
            memcpy(old, t->hist, sizeof(double) * (size_t)n);
        }
        int bins = n ? n : BYOC_QUANTIZE__ENTROPY_BINS;
        stbds_arrsetlen(t->hist, bins);
        memset(t->hist, 0, sizeof(double) * (size_t)bins);
        t->threshold = th;
        t->hist_lo = th > 0 ? -th : -0.5;
        t->hist_hi = th > 0 ? th : 0.5;
        byoc_quantize__bin(t->hist, bins, t->hist_lo, t->hist_hi, x, count, 0);
        for (int k = 0; k < n; ++k) t->hist[k] += old[k]; /* merge_histogram adds the old counts as they are */
        stbds_arrfree(old);
        return;
    }
    if (th > t->threshold) {
        double stride = 2 * t->threshold / n, steps = floor((th - t->threshold) / stride) + 1;
        /* Unlike ONNX Runtime, the histogram is coarsened (adjacent bins merged, the stride doubled) rather
           than grown past BYOC_QUANTIZE__MAX_ENTROPY_BINS: the threshold search is quadratic in the bins. */
        while (n % 2 == 0 && n > BYOC_QUANTIZE__ENTROPY_BINS && n + 2 * steps > BYOC_QUANTIZE__MAX_ENTROPY_BINS) {
            for (int k = 0; k < n / 2; ++k) t->hist[k] = t->hist[2 * k] + t->hist[2 * k + 1];
            n /= 2;
            stbds_arrsetlen(t->hist, n);
            stride *= 2;
            steps = floor((th - t->threshold) / stride) + 1;
        }
        if (n + 2 * steps > BYOC_QUANTIZE__MAX_ENTROPY_BINS) { /* an outlier far out: n bins over [-th, th] */
            double *old = NULL, old_lo = t->hist_lo;
            stbds_arrsetlen(old, n);
            memcpy(old, t->hist, sizeof(double) * (size_t)n);
            memset(t->hist, 0, sizeof(double) * (size_t)n);
            t->threshold = th;
            t->hist_lo = -th;
            t->hist_hi = th;
            byoc_quantize__bin(t->hist, n, t->hist_lo, t->hist_hi, x, count, 0);
            for (int k = 0; k < n; ++k) { /* the old counts at their bins' centres */
                double f = floor((old_lo + (k + 0.5) * stride + th) / (2 * th / n));
                t->hist[!(f >= 0) ? 0 : f >= n ? n - 1 : (int)f] += old[k];
            }
            stbds_arrfree(old);
            return;
        }
        int half = (int)steps;
        double *old = NULL;
        stbds_arrsetlen(old, n);
        memcpy(old, t->hist, sizeof(double) * (size_t)n);
        stbds_arrsetlen(t->hist, n + 2 * half);
        memset(t->hist, 0, sizeof(double) * (size_t)(n + 2 * half));
        t->threshold = half * stride + t->threshold;
        t->hist_lo = -t->threshold;
        t->hist_hi = t->threshold;
        byoc_quantize__bin(t->hist, n + 2 * half, t->hist_lo, t->hist_hi, x, count, 0);
        for (int k = 0; k < n; ++k) t->hist[half + k] += old[k];
        stbds_arrfree(old);
        return;
    }
    byoc_quantize__bin(t->hist, n, t->hist_lo, t->hist_hi, x, count, 0);
}

BYOC__PRIVATE void byoc_quantize__observe(byoc_quantize__tensor *t, const float *x, int64_t count,
                                          byoc_quantize_method method) {
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (int64_t i = 0; i < count; ++i) { /* numpy.nanmin / nanmax; infinities are not counted either */
        double v = (double)x[i];
        if (!isfinite(v)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (lo > hi) lo = hi = 0;
    if (!t->has_data || lo < t->seen_min) t->seen_min = lo;
    if (!t->has_data || hi > t->seen_max) t->seen_max = hi;
    t->has_data = 1;
    if (method == BYOC_QUANTIZE_PERCENTILE) byoc_quantize__collect_absolute(t, x, count);
    else if (method == BYOC_QUANTIZE_ENTROPY) byoc_quantize__collect_signed(t, x, count, fmax(fabs(lo), fabs(hi)));
}

/* HistogramCollector.compute_percentile with symmetric=True: the edge where the CDF of |x| reaches p */
BYOC__PRIVATE void byoc_quantize__percentile_range(byoc_quantize__tensor *t, double percentile) {
    int n = (int)stbds_arrlen(t->hist);
    double total = 0, cdf = 0, width = (t->hist_hi - t->hist_lo) / n, edge = t->hist_hi;
    for (int k = 0; k < n; ++k) total += t->hist[k];
    for (int k = 0; total > 0 && k < n; ++k) {
        cdf += t->hist[k] / total;
        if (cdf >= percentile / 100.0) {
            edge = t->hist_lo + width * k;
            break;
        }
    }
    t->rmin = -edge < t->seen_min ? t->seen_min : -edge;
    t->rmax = edge > t->seen_max ? t->seen_max : edge;
}

/* smooth_distribution (eps 0.0001): zeros become eps, the mass taken from the others; 0 if impossible */
BYOC__PRIVATE int byoc_quantize__smooth(double *p, int n) {
    int zeros = 0;
    for (int k = 0; k < n; ++k) zeros += p[k] == 0;
    if (zeros == n) return 0;
    double eps = 0.0001, eps1 = eps * zeros / (n - zeros);
    if (eps1 >= 1.0) return 0;
    for (int k = 0; k < n; ++k) {
        p[k] += p[k] == 0 ? eps : -eps1;
        if (p[k] <= 0) return 0;
    }
    return 1;
}

/* scipy.stats.entropy(p, q): KL divergence of the normalized distributions */
BYOC__PRIVATE double byoc_quantize__kl(const double *p, const double *q, int n) {
    double sp = 0, sq = 0, kl = 0;
    for (int k = 0; k < n; ++k) {
        sp += p[k];
        sq += q[k];
    }
    for (int k = 0; k < n; ++k) {
        double pk = p[k] / sp, qk = q[k] / sq;
        if (pk > 0) kl += qk > 0 ? pk * log(pk / qk) : HUGE_VAL;
    }
    return kl;
}

/* the KL divergence of one candidate window [start, end) of the histogram (get_entropy_threshold's loop) */
BYOC__PRIVATE double byoc_quantize__window_kl(const double *hist, int n, int start, int end, double *p, double *q,
                                              double *merged) {
    int len = end - start, nq = BYOC_QUANTIZE__QUANTIZED_BINS, per = len / nq;
    double left = 0, right = 0;
    for (int k = 0; k < start; ++k) left += hist[k];
    for (int k = end; k < n; ++k) right += hist[k];
    for (int k = 0; k < len; ++k) p[k] = hist[start + k];
    p[0] += left;
    p[len - 1] += right;
    for (int b = 0; b < nq; ++b) {
        merged[b] = 0;
        for (int k = b * per; k < (b + 1) * per; ++k) merged[b] += hist[start + k];
    }
    for (int k = nq * per; k < len; ++k) merged[nq - 1] += hist[start + k];
    for (int k = 0; k < len; ++k) q[k] = 0;
    for (int b = 0; b < nq; ++b) {
        int nonzero = 0;
        for (int k = b * per; k < (b + 1) * per; ++k) nonzero += p[k] != 0;
        /* ONNX Runtime stores merged / nonzero into an int64 array: truncated */
        for (int k = b * per; nonzero && k < (b + 1) * per; ++k) q[k] = floor(merged[b] / nonzero);
    }
    if (!byoc_quantize__smooth(p, len) || !byoc_quantize__smooth(q, len)) return HUGE_VAL;
    return byoc_quantize__kl(p, q, len);
}

/* HistogramCollector.get_entropy_threshold: the symmetric window of least KL divergence */
BYOC__PRIVATE void byoc_quantize__entropy_range(byoc_quantize__tensor *t) {
    int n = (int)stbds_arrlen(t->hist), zero = n / 2, half = BYOC_QUANTIZE__QUANTIZED_BINS / 2;
    double width = (t->hist_hi - t->hist_lo) / n, best = HUGE_VAL;
    double *p = BYOC__CAST(double *, malloc(sizeof(double) * (size_t)(n + 1)));
    double *q = BYOC__CAST(double *, malloc(sizeof(double) * (size_t)(n + 1)));
    double merged[BYOC_QUANTIZE__QUANTIZED_BINS];
    int best_start = 0, best_end = n, first = 1;
    for (int i = half; p && q && i <= zero; ++i) { /* numpy.argmin: the first least divergence */
        int start = zero - i, end = zero + i + 1 < n ? zero + i + 1 : n;
        double kl = byoc_quantize__window_kl(t->hist, n, start, end, p, q, merged);
        if (first || kl < best) {
            best = kl;
            best_start = start;
            best_end = end;
            first = 0;
        }
    }
    free(p);
    free(q);
    double lo = t->hist_lo + width * best_start, hi = t->hist_lo + width * best_end;
    t->rmin = lo < t->seen_min ? t->seen_min : lo;
    t->rmax = hi > t->seen_max ? t->seen_max : hi;
}

/* a shape as text: "(1, 3, ?, 224)" */
BYOC__PRIVATE void byoc_quantize__shape_text(int rank, const int64_t *dims, char *out, size_t cap) {
    size_t used = (size_t)snprintf(out, cap, "(");
    for (int d = 0; d < rank && used < cap; ++d)
        used +=
            (size_t)snprintf(out + used, cap - used, dims[d] < 0 ? "%s?" : "%s%lld", d ? ", " : "", (long long)dims[d]);
    if (used < cap) snprintf(out + used, cap - used, ")");
}

/* how many samples one calibration tensor holds for its input (see CALIBRATION); 0 with diag set */
BYOC__PRIVATE int byoc_quantize__pieces(byoc_quantize__model *qm, const byoc_tensor *x, const char *label,
                                        const byoc_quantize__tensor *in, byoc_diag *diag) {
    byoc_dtype want = byoc_onnx__dtype(in->elem_type);
    char have[200], decl[200];
    byoc_quantize__shape_text(x->rank, x->dims, have, sizeof have);
    byoc_quantize__shape_text(in->decl_rank, in->decl_dims, decl, sizeof decl);
    if (x->dtype != want) {
        byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "%s: %s %s, but input '%s' of %s is %s %s", label,
                   byoc_dtype_name(x->dtype), have, in->name, qm->st.file, byoc_dtype_name(want), decl);
        return 0;
    }
    if (in->decl_rank < 0) return 1; /* no declared shape: the tensor is the shape */
    int same = x->rank == in->decl_rank,
        split = same && x->rank > 0 && in->decl_dims[0] > 0 && x->dims[0] > 0 && x->dims[0] % in->decl_dims[0] == 0;
    for (int d = 0; same && d < x->rank; ++d)
        if (in->decl_dims[d] >= 0 && in->decl_dims[d] != x->dims[d]) {
            same = 0;
            if (d == 0) continue;
            split = 0;
        }
    for (int d = 1; split && d < x->rank; ++d)
        if (in->decl_dims[d] >= 0 && in->decl_dims[d] != x->dims[d]) split = 0;
    if (same) return 1;
    if (split) return (int)(x->dims[0] / in->decl_dims[0]);
    byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
               "%s: shape %s does not fit input '%s' of %s %s (nor splits along its leading dim)", label, have,
               in->name, qm->st.file, decl);
    return 0;
}

typedef struct byoc_quantize__run {
    byoc_tensor *inputs; /* stb_ds: every sample piece's inputs, sample-major (views of the options' tensors) */
    int npieces;
} byoc_quantize__run;

/* splits the options' samples into the pieces the model runs on, checking types and shapes */
BYOC__PRIVATE byoc_result byoc_quantize__split(byoc_quantize__model *qm, const byoc_quantize_options *o,
                                               byoc_quantize__run *run, byoc_diag *diag) {
    int nin = (int)stbds_arrlen(qm->input_names);
    if (o->ninputs != nin) {
        char list[400] = "";
        for (int k = 0; k < nin; ++k)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'", k ? ", " : "", qm->input_names[k]);
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "%s: the calibration samples give %d input%s, the model has %d (%s)", qm->st.file, o->ninputs,
                          o->ninputs == 1 ? "" : "s", nin, list);
    }
    for (int s = 0; s < o->nsamples; ++s) {
        int pieces = -1;
        for (int k = 0; k < nin; ++k) {
            const byoc_tensor *x = &o->samples[s * nin + k];
            char label[300];
            if (o->sample_labels && o->sample_labels[s * nin + k])
                snprintf(label, sizeof label, "%s", o->sample_labels[s * nin + k]);
            else snprintf(label, sizeof label, "calibration sample %d input %d", s, k);
            if (!x->data || x->rank < 0 || x->rank > BYOC_MAX_RANK)
                return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "%s: not a valid tensor", label);
            int p =
                byoc_quantize__pieces(qm, x, label, &qm->tensors[byoc_quantize__find(qm, qm->input_names[k])], diag);
            if (!p) return diag->code;
            if (pieces >= 0 && p != pieces)
                return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                                  "%s: splits into %d samples, the sample's other inputs into %d", label, p, pieces);
            pieces = p;
        }
        for (int piece = 0; piece < pieces; ++piece)
            for (int k = 0; k < nin; ++k) {
                byoc_tensor v = o->samples[s * nin + k];
                if (pieces > 1) {
                    size_t bytes = byoc_dtype_size(v.dtype);
                    v.dims[0] /= pieces;
                    for (int d = 0; d < v.rank; ++d) bytes *= (size_t)v.dims[d];
                    v.data = (uint8_t *)v.data + bytes * (size_t)piece;
                }
                stbds_arrput(run->inputs, v);
            }
        run->npieces += pieces;
    }
    if (!run->npieces)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "%s: no calibration samples given", qm->st.file);
    return BYOC_OK;
}

/* a computed weight's value as an initializer record of its own (not in the file: nothing of it is written) */
BYOC__PRIVATE void byoc_quantize__capture(byoc_quantize__model *qm, int t, const byoc_tensor *v) {
    byoc_quantize__init in;
    memset(&in, 0, sizeof in);
    in.name = qm->tensors[t].name;
    in.onnx_type = 1;
    in.rank = v->rank;
    in.count = 1;
    for (int d = 0; d < v->rank; ++d) {
        in.dims[d] = v->dims[d];
        in.count *= v->dims[d];
    }
    in.values = BYOC__CAST(float *, malloc(sizeof(float) * (size_t)(in.count ? in.count : 1)));
    if (!in.values) return;
    if (in.count) memcpy(in.values, v->data, sizeof(float) * (size_t)in.count);
    stbds_arrput(qm->inits, in);
    qm->tensors[t].init = (int)stbds_arrlen(qm->inits) - 1;
}

/* runs the augmented float model on every sample and feeds the observers */
BYOC__PRIVATE byoc_result byoc_quantize__run_samples(byoc_quantize__model *qm, const byoc_quantize__buf *augmented,
                                                     const byoc_quantize__run *run, const byoc_quantize_options *o,
                                                     byoc_diag *diag) {
    int nin = (int)stbds_arrlen(qm->input_names);
    byoc_onnx_input_shape *shapes = BYOC__CAST(byoc_onnx_input_shape *, calloc((size_t)nin + 1, sizeof *shapes));
    if (!shapes) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", qm->st.file);
    for (int k = 0; k < nin; ++k) {
        shapes[k].input = qm->input_names[k];
        shapes[k].rank = run->inputs[k].rank;
        memcpy(shapes[k].dims, run->inputs[k].dims, sizeof shapes[k].dims);
    }
    byoc_onnx_options io;
    if (o->import) io = *o->import;
    else memset(&io, 0, sizeof io);
    io.shapes = shapes;
    io.nshapes = nin;
    byoc_onnx_model model;
    byoc_result r = byoc_onnx_import(augmented->p, augmented->n, qm->st.file, &io, &model, diag);
    free(shapes);
    if (r != BYOC_OK) return r;
    byoc_sim_program *p = byoc_sim_lower(model.module, NULL, diag);
    int nout = p ? byoc_sim_output_count(p) : 0;
    byoc_tensor *outs = BYOC__CAST(byoc_tensor *, calloc((size_t)nout + 1, sizeof(byoc_tensor)));
    if (!p) r = diag->code;
    else if (!outs) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", qm->st.file);
    for (int s = 0; r == BYOC_OK && s < run->npieces; ++s) {
        r = byoc_sim_run(p, &run->inputs[s * nin], nin, outs, nout, diag);
        for (int t = 0; r == BYOC_OK && t < (int)stbds_arrlen(qm->tensors); ++t) {
            byoc_quantize__tensor *x = &qm->tensors[t];
            if (x->observe < 0 || x->observe >= nout) continue;
            const byoc_tensor *v = &outs[x->observe];
            if (s == 0) {
                x->observed_float = v->dtype == BYOC_FLOAT32;
                x->rank = v->rank;
                memcpy(x->dims, v->dims, sizeof x->dims);
                if (x->capture && x->observed_float) byoc_quantize__capture(qm, t, v);
            }
            if (!x->observed_float) continue;
            int64_t count = 1;
            for (int d = 0; d < v->rank; ++d) count *= v->dims[d];
            byoc_quantize__observe(x, BYOC__CAST(const float *, v->data), count, o->method);
        }
    }
    free(outs);
    if (p) byoc_sim_program_destroy(p);
    byoc_onnx_model_free(&model);
    return r;
}

// [SECTION] impl: quantization parameters (compute_scale_zp, weights, bias)
/* quant_utils.compute_scale_zp: the range widened to include 0 (and made symmetric for weights), the
   scale computed in double and stored as float32, the zero point rounded half to even (numpy.round) */
BYOC__PRIVATE void byoc_quantize__scale_zp(double rmin, double rmax, int qmin, int qmax, int symmetric, float *scale,
                                           int *zero_point) {
    float lo = (float)(rmin < 0 ? rmin : 0), hi = (float)(rmax > 0 ? rmax : 0);
    if (symmetric) {
        float absmax = fabsf(lo) > fabsf(hi) ? fabsf(lo) : fabsf(hi);
        lo = -absmax;
        hi = absmax;
    }
    double s = ((double)hi - (double)lo) / (double)(qmax - qmin);
    if (!(s >= FLT_MIN) || !isfinite(s)) { /* a constant zero tensor (or no data): scale 1, zero point 0 */
        *scale = 1.0f;
        *zero_point = 0;
        return;
    }
    double zp = symmetric ? nearbyint((qmin + qmax) / 2.0) : nearbyint(qmin - (double)lo / s);
    *zero_point = zp < qmin ? qmin : zp > qmax ? qmax : (int)zp;
    *scale = (float)s;
}

BYOC__PRIVATE void byoc_quantize__act_range(byoc_dtype t, int *qmin, int *qmax) {
    *qmin = t == BYOC_INT8 ? -128 : 0;
    *qmax = t == BYOC_INT8 ? 127 : 255;
}

/* quantize_nparray: round(x / scale) half to even (in float32), plus the zero point, saturated */
BYOC__PRIVATE int byoc_quantize__value(float x, float scale, int zero_point, int qmin, int qmax) {
    float q = nearbyintf(x / scale) + (float)zero_point;
    if (!(q >= (float)qmin)) return qmin; /* NaN saturates low */
    return q > (float)qmax ? qmax : (int)q;
}

/* a weight's per-channel (axis >= 0) or per-tensor symmetric int8 scales: channel c's values are those
   whose index along axis is c (one pass over the values) */
BYOC__PRIVATE void byoc_quantize__weight_scales(const byoc_quantize__init *w, int axis, float *scales, int nchannels) {
    int64_t inner = 1;
    for (int d = axis + 1; axis >= 0 && d < w->rank; ++d) inner *= w->dims[d];
    double *lo = BYOC__CAST(double *, calloc((size_t)nchannels, sizeof(double)));
    double *hi = BYOC__CAST(double *, calloc((size_t)nchannels, sizeof(double)));
    for (int64_t i = 0; lo && hi && i < w->count; ++i) {
        int c = axis >= 0 ? (int)((i / inner) % nchannels) : 0;
        double v = w->values[i];
        if (v < lo[c]) lo[c] = v;
        if (v > hi[c]) hi[c] = v;
    }
    for (int c = 0; c < nchannels; ++c) {
        int zp;
        byoc_quantize__scale_zp(lo && hi ? lo[c] : 0, lo && hi ? hi[c] : 0, -127, 127, 1, &scales[c], &zp);
    }
    free(lo);
    free(hi);
}

// [SECTION] impl: the QDQ plan (which tensors, after ONNX Runtime's QDQ quantizer)
BYOC__PRIVATE int byoc_quantize__root(const byoc_quantize__model *qm, int t) {
    for (int guard = 0; t >= 0 && qm->tensors[t].share >= 0 && guard < 100000; ++guard) t = qm->tensors[t].share;
    return t;
}

BYOC__PRIVATE int byoc_quantize__is_quantized(const byoc_quantize__model *qm, const char *name) {
    int t = name[0] ? byoc_quantize__find(qm, name) : -1;
    return t >= 0 && (qm->tensors[t].quantize || qm->tensors[t].weight);
}

BYOC__PRIVATE const byoc_quantize__init *byoc_quantize__float_init(const byoc_quantize__model *qm, const char *name) {
    int t = name[0] ? byoc_quantize__find(qm, name) : -1;
    if (t < 0 || qm->tensors[t].init < 0) return NULL;
    const byoc_quantize__init *in = &qm->inits[qm->tensors[t].init];
    return in->values && in->rank >= 0 ? in : NULL;
}

/* quantize_activation_tensor: an activation gets a QDQ pair; a float initializer operand is quantized with
   the activation type over its own values. 1 when the tensor is (now) quantized. */
BYOC__PRIVATE int byoc_quantize__activation(byoc_quantize__model *qm, const char *name) {
    int t = name[0] ? byoc_quantize__find(qm, name) : -1;
    if (t < 0) return 0;
    byoc_quantize__tensor *x = &qm->tensors[t];
    if (x->quantize || x->weight) return 1;
    if (x->init >= 0) {
        if (!byoc_quantize__float_init(qm, name)) return 0;
        x->weight = 2;
        return 1;
    }
    if (!x->observed_float || !x->has_data || x->gone || (x->graph_input && x->graph_output)) return 0;
    x->quantize = 1;
    return 1;
}

BYOC__PRIVATE int byoc_quantize__weight(byoc_quantize__model *qm, const char *name, int axis) {
    const byoc_quantize__init *w = byoc_quantize__float_init(qm, name);
    if (!w) return byoc_quantize__activation(qm, name);
    byoc_quantize__tensor *x = &qm->tensors[byoc_quantize__find(qm, name)];
    if (x->weight) return 1;
    x->weight = 1;
    x->axis = qm->per_channel && axis >= 0 && axis < w->rank && w->dims[axis] > 0 ? axis : -1;
    return 1;
}

/* quantize_bias_tensor: a 1-D float bias whose input and weight are quantized */
BYOC__PRIVATE void byoc_quantize__bias(byoc_quantize__model *qm, const byoc_quantize__node *n, double beta) {
    if (stbds_arrlen(n->in) < 3 || !n->in[2][0]) return;
    const byoc_quantize__init *b = byoc_quantize__float_init(qm, n->in[2]);
    int x = byoc_quantize__find(qm, n->in[0]), w = byoc_quantize__find(qm, n->in[1]);
    if (!b || b->rank != 1 || x < 0 || w < 0 || !qm->tensors[x].quantize || qm->tensors[w].weight != 1) return;
    const byoc_quantize__tensor *wt = &qm->tensors[w];
    if (wt->axis >= 0 && qm->inits[wt->init].dims[wt->axis] != b->dims[0]) return;
    byoc_quantize__tensor *bt = &qm->tensors[byoc_quantize__find(qm, n->in[2])];
    if (bt->weight) return;
    bt->weight = 3;
    bt->bias_input = x;
    bt->bias_weight = w;
    bt->beta = beta;
    bt->axis = wt->axis >= 0 ? 0 : -1;
}

BYOC__PRIVATE const byoc_onnx__attr *byoc_quantize__attr(const byoc_quantize__node *n, const char *name) {
    for (int i = 0; i < (int)stbds_arrlen(n->parsed.attrs); ++i)
        if (byoc_onnx__bytes_eq(n->parsed.attrs[i].name, name)) return &n->parsed.attrs[i];
    return NULL;
}

BYOC__PRIVATE void byoc_quantize__plan_weighted(byoc_quantize__model *qm, byoc_quantize__node *n) {
    int nin = (int)stbds_arrlen(n->in), q = 0;
    if (!strcmp(n->op, "MatMul")) {
        for (int k = 0; k < nin && k < 2; ++k) {
            const byoc_quantize__init *w = byoc_quantize__float_init(qm, n->in[k]);
            q |= w ? byoc_quantize__weight(qm, n->in[k], k == 1 && w->rank >= 2 ? w->rank - 1 : -1)
                   : byoc_quantize__activation(qm, n->in[k]);
        }
    } else if (nin >= 2) {
        int axis = 0;
        double beta = 1;
        if (!strcmp(n->op, "ConvTranspose")) axis = 1;
        if (!strcmp(n->op, "Gemm")) {
            const byoc_onnx__attr *tb = byoc_quantize__attr(n, "transB"), *b = byoc_quantize__attr(n, "beta");
            axis = tb && tb->i ? 0 : 1;
            if (b && b->has_f) beta = b->f;
        }
        q |= byoc_quantize__activation(qm, n->in[0]);
        q |= byoc_quantize__weight(qm, n->in[1], axis);
        byoc_quantize__bias(qm, n, beta);
    }
    if (stbds_arrlen(n->out)) q |= byoc_quantize__activation(qm, n->out[0]);
    n->quantized = q;
}

/* Clip's lower bound is 0 (attribute before opset 11, a constant input from 11) */
BYOC__PRIVATE int byoc_quantize__clip_at_zero(const byoc_quantize__model *qm, const byoc_quantize__node *n) {
    if (!strcmp(n->op, "Relu")) return 1;
    const byoc_onnx__attr *a = byoc_quantize__attr(n, "min");
    if (a) return a->has_f && a->f == 0.0f;
    if (stbds_arrlen(n->in) < 2 || !n->in[1][0]) return 0;
    const byoc_quantize__init *m = byoc_quantize__float_init(qm, n->in[1]);
    return m && m->count == 1 && m->values[0] == 0.0f;
}

/* QDQRemovableActivation + try_replacing_upstream_output: the producer writes the activation's output */
BYOC__PRIVATE void byoc_quantize__plan_removable(byoc_quantize__model *qm, byoc_quantize__node *n, int has_subgraph) {
    if (!stbds_arrlen(n->in) || !stbds_arrlen(n->out) || !byoc_quantize__is_quantized(qm, n->in[0])) {
        n->float_reason = "its input is not quantized";
        return;
    }
    int up = byoc_quantize__find(qm, n->in[0]), out = byoc_quantize__find(qm, n->out[0]);
    byoc_quantize__tensor *u = &qm->tensors[up];
    if (!has_subgraph && byoc_quantize__clip_at_zero(qm, n) && out >= 0 && qm->tensors[out].observed_float &&
        u->consumers == 1 && !u->graph_output && !u->graph_input && u->init < 0 && u->producer >= 0 && u->quantize) {
        byoc_quantize__node *p = &qm->nodes[u->producer];
        for (int k = 0; k < (int)stbds_arrlen(p->out); ++k)
            if (!strcmp(p->out[k], n->in[0])) p->out[k] = qm->tensors[out].name;
        qm->tensors[out].producer = u->producer;
        u->quantize = 0;
        u->gone = 1;
        n->removed = 1;
    }
    byoc_quantize__activation(qm, n->out[0]);
    n->quantized = 1;
}

/* every node in order, as QDQQuantizer.quantize_model visits them */
BYOC__PRIVATE void byoc_quantize__plan(byoc_quantize__model *qm) {
    int has_subgraph = 0;
    for (int i = 0; i < (int)stbds_arrlen(qm->nodes); ++i) has_subgraph |= qm->nodes[i].has_subgraph;
    qm->has_subgraph = has_subgraph;
    for (int i = 0; i < (int)stbds_arrlen(qm->nodes); ++i) {
        byoc_quantize__node *n = &qm->nodes[i];
        int kind = byoc_quantize__kind(n, qm->target_opset), nin = (int)stbds_arrlen(n->in), q = 0;
        if (kind == BYOC_QUANTIZE__NONE)
            n->float_reason = !n->default_domain          ? "not in the default domain"
                              : !strcmp(n->op, "MaxPool") ? "MaxPool takes int8 from opset 12"
                              : !strcmp(n->op, "Resize")  ? "Resize takes int8 from opset 11"
                                                          : "not an op the QDQ quantizer handles";
        else if (kind == BYOC_QUANTIZE__WEIGHTED) byoc_quantize__plan_weighted(qm, n);
        else if (kind == BYOC_QUANTIZE__REMOVABLE) byoc_quantize__plan_removable(qm, n, has_subgraph);
        else if (kind == BYOC_QUANTIZE__GENERAL) {
            for (int k = 0; k < nin; ++k) q |= byoc_quantize__activation(qm, n->in[k]);
            if (stbds_arrlen(n->out) && byoc_quantize__activation(qm, n->out[0])) {
                q = 1;
                int t = byoc_quantize__find(qm, n->out[0]);
                if (!strcmp(n->op, "Softmax")) qm->tensors[t].fixed = 1; /* QDQSoftmax: [0, 1] */
            }
            n->quantized = q;
            if (!q) n->float_reason = "no float32 tensor to quantize";
        } else if (nin && byoc_quantize__is_quantized(qm, n->in[0]) &&
                   qm->tensors[byoc_quantize__find(qm, n->in[0])].quantize) {
            int from = byoc_quantize__find(qm, n->in[0]);
            int nout = !strcmp(n->op, "Split") ? (int)stbds_arrlen(n->out) : stbds_arrlen(n->out) ? 1 : 0;
            for (int k = 0; k < nout; ++k) { /* quantize_output_same_as_input */
                int t = n->out[k][0] ? byoc_quantize__find(qm, n->out[k]) : -1;
                if (t < 0 || qm->tensors[t].quantize || qm->tensors[t].weight) continue;
                qm->tensors[t].quantize = 1;
                qm->tensors[t].share = byoc_quantize__root(qm, from);
            }
            n->quantized = 1;
        } else n->float_reason = "its input is not quantized";
    }
}

/* scales and zero points of the activations (the method's range), and of the initializers quantized as
   activations */
BYOC__PRIVATE void byoc_quantize__params(byoc_quantize__model *qm, byoc_quantize_method method, double percentile) {
    int qmin, qmax;
    byoc_quantize__act_range(qm->act_type, &qmin, &qmax);
    for (int t = 0; t < (int)stbds_arrlen(qm->tensors); ++t) {
        byoc_quantize__tensor *x = &qm->tensors[t];
        if (x->quantize && x->share < 0) {
            if (x->fixed) {
                x->rmin = 0;
                x->rmax = 1;
            } else if (method == BYOC_QUANTIZE_PERCENTILE && stbds_arrlen(x->hist))
                byoc_quantize__percentile_range(x, percentile);
            else if (method == BYOC_QUANTIZE_ENTROPY && stbds_arrlen(x->hist)) byoc_quantize__entropy_range(x);
            else {
                x->rmin = x->seen_min;
                x->rmax = x->seen_max;
            }
            byoc_quantize__scale_zp(x->rmin, x->rmax, qmin, qmax, 0, &x->scale, &x->zero_point);
        } else if (x->weight == 2) {
            const byoc_quantize__init *in = &qm->inits[x->init];
            double lo = 0, hi = 0;
            for (int64_t i = 0; i < in->count; ++i) {
                if (in->values[i] < lo) lo = in->values[i];
                if (in->values[i] > hi) hi = in->values[i];
            }
            byoc_quantize__scale_zp(lo, hi, qmin, qmax, 0, &x->scale, &x->zero_point);
        }
    }
    for (int t = 0; t < (int)stbds_arrlen(qm->tensors); ++t) {
        byoc_quantize__tensor *x = &qm->tensors[t];
        if (!x->quantize || x->share < 0) continue;
        x->scale = qm->tensors[x->share].scale;
        x->zero_point = qm->tensors[x->share].zero_point;
    }
}

// [SECTION] impl: opset upgrade (nodes whose form changed)
/* a new initializer named after base; its (fresh) name */
BYOC__PRIVATE const char *byoc_quantize__add_init(byoc_quantize__model *qm, const char *base, int onnx_type, int rank,
                                                  const int64_t *dims, const void *data, size_t nbytes) {
    byoc_quantize__extra e;
    memset(&e, 0, sizeof e);
    e.name = byoc_quantize__fresh(qm, base); /* base itself when the caller made it fresh already */
    e.onnx_type = onnx_type;
    e.rank = rank;
    for (int d = 0; d < rank; ++d) e.dims[d] = dims[d];
    e.data = BYOC__CAST(uint8_t *, malloc(nbytes ? nbytes : 1));
    if (!e.data) return NULL;
    if (nbytes) memcpy(e.data, data, nbytes);
    e.nbytes = nbytes;
    stbds_arrput(qm->extra, e);
    return e.name;
}

/* an INTS attribute as a 1-D int64 initializer ("" when the node has no such attribute) */
BYOC__PRIVATE const char *byoc_quantize__ints_input(byoc_quantize__model *qm, byoc_quantize__node *n,
                                                    const char *attr) {
    const byoc_onnx__attr *a = byoc_quantize__attr(n, attr);
    if (!a) return "";
    int64_t count = (int64_t)stbds_arrlen(a->ints);
    uint8_t *bytes = BYOC__CAST(uint8_t *, malloc((size_t)(count ? count : 1) * 8));
    if (!bytes) return NULL;
    for (int64_t i = 0; i < count; ++i)
        for (int k = 0; k < 8; ++k) bytes[8 * i + k] = (uint8_t)(a->ints[i] >> (8 * k));
    char base[400];
    snprintf(base, sizeof base, "%.300s_%s", n->out && stbds_arrlen(n->out) ? n->out[0] : n->op, attr);
    const char *name = byoc_quantize__add_init(qm, base, 7, 1, &count, bytes, (size_t)count * 8);
    free(bytes);
    stbds_arrput(n->drop_attr, attr);
    return name;
}

/* a FLOAT attribute as a scalar float initializer ("" when absent) */
BYOC__PRIVATE const char *byoc_quantize__float_input(byoc_quantize__model *qm, byoc_quantize__node *n,
                                                     const char *attr) {
    const byoc_onnx__attr *a = byoc_quantize__attr(n, attr);
    if (!a) return "";
    uint8_t bytes[4];
    uint32_t bits;
    memcpy(&bits, &a->f, 4);
    for (int k = 0; k < 4; ++k) bytes[k] = (uint8_t)(bits >> (8 * k));
    char base[400];
    snprintf(base, sizeof base, "%.300s_%s", stbds_arrlen(n->out) ? n->out[0] : n->op, attr);
    stbds_arrput(n->drop_attr, attr);
    return byoc_quantize__add_init(qm, base, 1, 0, NULL, bytes, 4);
}

/* inputs: the node's first input, then the given names (trailing "" dropped) */
BYOC__PRIVATE void byoc_quantize__set_inputs(byoc_quantize__model *qm, byoc_quantize__node *n, const char *a,
                                             const char *b, const char *c) {
    const char *more[3] = {a, b, c};
    int last = -1;
    for (int k = 0; k < 3; ++k)
        if (more[k] && more[k][0]) last = k;
    stbds_arrput(n->new_in, stbds_arrlen(n->in) ? n->in[0] : byoc_quantize__dup(qm, "", 0));
    for (int k = 0; k <= last; ++k) stbds_arrput(n->new_in, more[k] ? more[k] : "");
    qm->upgraded++;
}

/* Softmax and its family before opset 13 flatten to 2-D at axis; from 13 they work along axis alone:
   the same only when the dims after axis are all 1 */
BYOC__PRIVATE byoc_result byoc_quantize__check_softmax(byoc_quantize__model *qm, byoc_quantize__node *n) {
    int t = stbds_arrlen(n->in) ? byoc_quantize__find(qm, n->in[0]) : -1;
    if (t < 0 || qm->tensors[t].observe < 0)
        return byoc_onnx__fail(&qm->st, BYOC_ERR_UNSUPPORTED,
                               "%s '%s': its input's shape is unknown, so it cannot "
                               "be carried to opset %d",
                               n->op, n->name, qm->target_opset);
    const byoc_onnx__attr *a = byoc_quantize__attr(n, "axis");
    int rank = qm->tensors[t].rank, axis = a ? (int)a->i : 1;
    if (!a) { /* the default axis became -1 at opset 13: say 1 */
        n->add_attr = "axis";
        n->add_value = 1;
        qm->upgraded++;
    }
    if (axis < 0) axis += rank;
    for (int d = axis + 1; d < rank; ++d)
        if (qm->tensors[t].dims[d] != 1)
            return byoc_onnx__fail(&qm->st, BYOC_ERR_UNSUPPORTED,
                                   "%s '%s' normalizes over dims %d.. of a rank-%d input at opset %d, over dim %d "
                                   "alone at opset %d: cannot raise the opset (quantize per tensor to keep it)",
                                   n->op, n->name, axis, rank, qm->opset, axis, qm->target_opset);
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc_quantize__refuse(byoc_quantize__model *qm, const byoc_quantize__node *n,
                                                const char *why) {
    return byoc_onnx__fail(&qm->st, BYOC_ERR_UNSUPPORTED,
                           "%s '%s': %s at opset %d, so the opset cannot be raised "
                           "to %d for quantization",
                           n->op, n->name, why, qm->opset, qm->target_opset);
}

/* the nodes whose form changed between the model's opset and the target (onnx's version converter
   adapters for these ops do the same) */
BYOC__PRIVATE byoc_result byoc_quantize__upgrade(byoc_quantize__model *qm) {
    int from = qm->opset, to = qm->target_opset;
    if (from == to) return BYOC_OK;
    if (from < 7)
        return byoc_onnx__fail(&qm->st, BYOC_ERR_UNSUPPORTED,
                               "opset %d is below 7 (legacy attributes): the opset "
                               "cannot be raised to %d for quantization",
                               from, to);
    for (int i = 0; i < (int)stbds_arrlen(qm->nodes); ++i) {
        byoc_quantize__node *n = &qm->nodes[i];
        const char *op = n->op;
        byoc_result r = BYOC_OK;
        if (!n->default_domain) continue;
        if (!strcmp(op, "Upsample") || (!strcmp(op, "TopK") && from < 10) || (!strcmp(op, "Scan") && from < 9))
            r = byoc_quantize__refuse(qm, n, "its signature differs");
        else if (!strcmp(op, "Dropout") && from < 12 && to >= 12 && byoc_quantize__attr(n, "ratio")) {
            stbds_arrput(n->drop_attr, "ratio"); /* an inference-time identity: ratio does not matter */
            qm->upgraded++;
        } else if ((!strcmp(op, "Softmax") || !strcmp(op, "LogSoftmax") || !strcmp(op, "Hardmax")) && from < 13 &&
                   to >= 13)
            r = byoc_quantize__check_softmax(qm, n);
        else if ((!strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze") || !strcmp(op, "ReduceSum")) && from < 13 &&
                 to >= 13 && byoc_quantize__attr(n, "axes"))
            byoc_quantize__set_inputs(qm, n, byoc_quantize__ints_input(qm, n, "axes"), NULL, NULL);
        else if (!strcmp(op, "Split") && from < 13 && to >= 13 && byoc_quantize__attr(n, "split"))
            byoc_quantize__set_inputs(qm, n, byoc_quantize__ints_input(qm, n, "split"), NULL, NULL);
        else if (!strcmp(op, "Clip") && from < 11 && (byoc_quantize__attr(n, "min") || byoc_quantize__attr(n, "max"))) {
            const char *lo = byoc_quantize__float_input(qm, n, "min");
            byoc_quantize__set_inputs(qm, n, lo, byoc_quantize__float_input(qm, n, "max"), NULL);
        } else if (!strcmp(op, "Slice") && from < 10) {
            const char *starts = byoc_quantize__ints_input(qm, n, "starts");
            const char *ends = byoc_quantize__ints_input(qm, n, "ends");
            byoc_quantize__set_inputs(qm, n, starts, ends, byoc_quantize__ints_input(qm, n, "axes"));
        } else if (!strcmp(op, "Pad") && from < 11) {
            const char *pads = byoc_quantize__ints_input(qm, n, "pads");
            byoc_quantize__set_inputs(qm, n, pads, byoc_quantize__float_input(qm, n, "value"), NULL);
        } else if (!strcmp(op, "Resize") && from == 10) {
            int64_t zero = 0;
            const char *roi = byoc_quantize__add_init(qm, "roi_empty", 1, 1, &zero, NULL, 0);
            byoc_quantize__set_inputs(qm, n, roi, stbds_arrlen(n->in) > 1 ? n->in[1] : "", NULL);
        } else if (!strcmp(op, "BatchNormalization") && from < 9 && byoc_quantize__attr(n, "spatial")) {
            if (byoc_quantize__attr(n, "spatial")->i != 1) r = byoc_quantize__refuse(qm, n, "spatial=0 is gone");
            else {
                stbds_arrput(n->drop_attr, "spatial");
                qm->upgraded++;
            }
        }
        if (r != BYOC_OK) return r;
    }
    return BYOC_OK;
}

// [SECTION] impl: writing the QDQ model
BYOC__PRIVATE const char *byoc_quantize__named(byoc_quantize__model *qm, const char *tensor, const char *suffix) {
    char base[700];
    snprintf(base, sizeof base, "%.600s%s", tensor, suffix);
    return byoc_quantize__fresh(qm, base);
}

BYOC__PRIVATE void byoc_quantize__add_qdq(byoc_quantize__model *qm, const char *name, const char *op, const char *x,
                                          const char *scale, const char *zp, const char *out, int axis, int after) {
    byoc_quantize__qdq q;
    q.name = name;
    q.op = op;
    q.in[0] = x;
    q.in[1] = scale;
    q.in[2] = zp;
    q.out = out;
    q.axis = axis;
    q.after = after;
    stbds_arrput(qm->qdq, q);
}

/* a scalar zero point of the activation type, or a run of int8 / int32 zeros */
BYOC__PRIVATE const char *byoc_quantize__zero_points(byoc_quantize__model *qm, const char *base, int onnx_type,
                                                     int rank, int64_t count, int value) {
    size_t esize = onnx_type == 6 ? 4 : 1;
    uint8_t *bytes = BYOC__CAST(uint8_t *, calloc((size_t)count, esize));
    if (!bytes) return NULL;
    if (count == 1 && esize == 1) bytes[0] = (uint8_t)(value & 0xff);
    const char *name = byoc_quantize__add_init(qm, base, onnx_type, rank, &count, bytes, (size_t)count * esize);
    free(bytes);
    return name;
}

BYOC__PRIVATE const char *byoc_quantize__scales(byoc_quantize__model *qm, const char *base, int rank, const float *s,
                                                int64_t count) {
    uint8_t *bytes = BYOC__CAST(uint8_t *, malloc((size_t)count * 4));
    if (!bytes) return NULL;
    for (int64_t i = 0; i < count; ++i) {
        uint32_t bits;
        memcpy(&bits, &s[i], 4);
        for (int k = 0; k < 4; ++k) bytes[4 * i + k] = (uint8_t)(bits >> (8 * k));
    }
    const char *name = byoc_quantize__add_init(qm, base, 1, rank, &count, bytes, (size_t)count * 4);
    free(bytes);
    return name;
}

/* an activation's QuantizeLinear -> DequantizeLinear pair after its producer (QDQQuantizer's
   _add_qdq_pair_for_activation); a graph output keeps its name on the DequantizeLinear */
BYOC__PRIVATE void byoc_quantize__build_activation(byoc_quantize__model *qm, int t) {
    int act = qm->act_type == BYOC_INT8 ? 3 : 2;
    const char *name = qm->tensors[t].name;
    if (qm->tensors[t].share < 0) {
        float s = qm->tensors[t].scale;
        const char *sn = byoc_quantize__scales(qm, byoc_quantize__named(qm, name, "_scale"), 0, &s, 1);
        const char *zn = byoc_quantize__zero_points(qm, byoc_quantize__named(qm, name, "_zero_point"), act, 0, 1,
                                                    qm->tensors[t].zero_point);
        qm->tensors[t].scale_name = sn;
        qm->tensors[t].zp_name = zn;
    }
    int root = byoc_quantize__root(qm, t);
    const char *sn = qm->tensors[root].scale_name, *zn = qm->tensors[root].zp_name;
    byoc_quantize__tensor *x = &qm->tensors[t];
    const char *q_in = x->graph_output ? byoc_quantize__named(qm, name, "_QuantizeLinear_Input") : name;
    x = &qm->tensors[t];
    x->q_input = q_in;
    const char *q_out = byoc_quantize__named(qm, name, "_QuantizeLinear_Output");
    const char *dq_out =
        qm->tensors[t].graph_output ? name : byoc_quantize__named(qm, name, "_DequantizeLinear_Output");
    qm->tensors[t].dq_name = dq_out;
    int after = qm->tensors[t].producer;
    byoc_quantize__add_qdq(qm, byoc_quantize__named(qm, name, "_QuantizeLinear"), "QuantizeLinear", q_in, sn, zn, q_out,
                           -1, after);
    byoc_quantize__add_qdq(qm, byoc_quantize__named(qm, name, "_DequantizeLinear"), "DequantizeLinear", q_out, sn, zn,
                           dq_out, -1, after);
}

/* an initializer's quantized values with their scales and zero points, and its DequantizeLinear */
BYOC__PRIVATE void byoc_quantize__build_initializer(byoc_quantize__model *qm, int t) {
    byoc_quantize__tensor x = qm->tensors[t];
    byoc_quantize__init *w = &qm->inits[x.init];
    int bias = x.weight == 3, nch = x.axis >= 0 ? (int)(bias ? w->dims[0] : w->dims[x.axis]) : 1;
    int qmin = -127, qmax = 127, zp = 0, type = bias ? 6 : x.weight == 1 ? 3 : qm->act_type == BYOC_INT8 ? 3 : 2;
    float *scales = BYOC__CAST(float *, malloc(sizeof(float) * (size_t)nch));
    int32_t *q = BYOC__CAST(int32_t *, malloc(sizeof(int32_t) * (size_t)(w->count ? w->count : 1)));
    uint8_t *bytes = BYOC__CAST(uint8_t *, malloc((size_t)(w->count ? w->count : 1) * (bias ? 4 : 1)));
    if (!scales || !q || !bytes) {
        free(scales);
        free(q);
        free(bytes);
        return;
    }
    if (x.weight == 1) byoc_quantize__weight_scales(w, x.axis, scales, nch);
    else if (x.weight == 2) {
        scales[0] = x.scale;
        zp = x.zero_point;
        byoc_quantize__act_range(qm->act_type, &qmin, &qmax);
    } else { /* quantize_bias_static: input scale x weight scale (x beta), in float32 */
        const byoc_quantize__tensor *in = &qm->tensors[byoc_quantize__root(qm, x.bias_input)];
        const byoc_quantize__tensor *wt = &qm->tensors[x.bias_weight];
        float *ws = BYOC__CAST(float *, malloc(sizeof(float) * (size_t)nch));
        if (ws) byoc_quantize__weight_scales(&qm->inits[wt->init], wt->axis, ws, nch);
        for (int c = 0; ws && c < nch; ++c) {
            scales[c] = in->scale * ws[c] * (float)x.beta;
            if (scales[c] == 0) scales[c] = 1; /* an all-zero weight: any scale quantizes 0 exactly */
        }
        free(ws);
        qmin = INT_MIN;
        qmax = INT_MAX;
    }
    int64_t inner = 1;
    for (int d = x.axis + 1; x.axis >= 0 && d < w->rank; ++d) inner *= w->dims[d];
    for (int64_t i = 0; i < w->count; ++i) {
        int c = x.axis >= 0 ? (int)((i / inner) % nch) : 0;
        if (bias) {
            double v = nearbyint((double)(w->values[i] / scales[c]));
            q[i] = v != v ? 0 : v < (double)INT_MIN ? INT_MIN : v > (double)INT_MAX ? INT_MAX : (int32_t)v;
        } else q[i] = byoc_quantize__value(w->values[i], scales[c], zp, qmin, qmax);
    }
    for (int64_t i = 0; i < w->count; ++i)
        for (int k = 0; k < (bias ? 4 : 1); ++k) bytes[(bias ? 4 : 1) * i + k] = (uint8_t)((uint32_t)q[i] >> (8 * k));
    const char *name = x.name;
    const char *qn = byoc_quantize__add_init(qm, byoc_quantize__named(qm, name, "_quantized"), type, w->rank, w->dims,
                                             bytes, (size_t)w->count * (bias ? 4 : 1));
    const char *sn = byoc_quantize__scales(qm, byoc_quantize__named(qm, name, bias ? "_quantized_scale" : "_scale"),
                                           x.axis >= 0 ? 1 : 0, scales, nch);
    const char *zn =
        byoc_quantize__zero_points(qm, byoc_quantize__named(qm, name, bias ? "_quantized_zero_point" : "_zero_point"),
                                   type, x.axis >= 0 ? 1 : 0, nch, zp);
    const char *dq = byoc_quantize__named(qm, name, "_DequantizeLinear_Output");
    byoc_quantize__add_qdq(qm, byoc_quantize__named(qm, name, "_DequantizeLinear"), "DequantizeLinear", qn, sn, zn, dq,
                           x.axis, -1);
    qm->tensors[t].dq_name = dq;
    /* a subgraph may read the float initializer by name (ONNX's outer scope): then it stays */
    qm->inits[x.init].dropped = !qm->has_subgraph;
    free(scales);
    free(q);
    free(bytes);
}

/* a name as its consumers now read it */
BYOC__PRIVATE const char *byoc_quantize__renamed(const byoc_quantize__model *qm, const char *name) {
    int t = name[0] ? byoc_quantize__find(qm, name) : -1;
    return t >= 0 && qm->tensors[t].dq_name ? qm->tensors[t].dq_name : name;
}

/* a node as written: its fields but inputs, outputs and dropped attributes, then inputs and outputs */
BYOC__PRIVATE void byoc_quantize__write_node(const byoc_quantize__model *qm, const byoc_quantize__node *n,
                                             byoc_quantize__buf *out) {
    byoc_quantize__buf b;
    memset(&b, 0, sizeof b);
    byoc_onnx__pb pb = byoc_onnx__pb_of(n->raw);
    byoc_quantize__field f;
    int bad = 0, attr = 0;
    while (byoc_quantize__next(&pb, &f, &bad)) {
        if (f.number == 1 || f.number == 2) continue;
        if (f.number == 5 && attr < (int)stbds_arrlen(n->parsed.attrs)) {
            int drop = 0;
            for (int k = 0; k < (int)stbds_arrlen(n->drop_attr); ++k)
                drop |= byoc_onnx__bytes_eq(n->parsed.attrs[attr].name, n->drop_attr[k]);
            attr++;
            if (drop) continue;
        }
        byoc_quantize__copy(&b, &f);
    }
    if (n->add_attr) {
        byoc_quantize__buf a;
        memset(&a, 0, sizeof a);
        byoc_quantize__str(&a, 1, n->add_attr);
        byoc_quantize__int(&a, 3, n->add_value);
        byoc_quantize__int(&a, 20, BYOC_ONNX__ATTR_INT);
        byoc_quantize__msg(&b, 5, &a);
    }
    const char *const *ins = n->new_in ? n->new_in : BYOC__CAST(const char *const *, n->in);
    for (int i = 0; i < (int)stbds_arrlen(ins); ++i) byoc_quantize__str(&b, 1, byoc_quantize__renamed(qm, ins[i]));
    for (int i = 0; i < (int)stbds_arrlen(n->out); ++i) {
        int t = n->out[i][0] ? byoc_quantize__find(qm, n->out[i]) : -1;
        byoc_quantize__str(&b, 2, t >= 0 && qm->tensors[t].q_input ? qm->tensors[t].q_input : n->out[i]);
    }
    byoc_quantize__msg(out, 1, &b);
}

BYOC__PRIVATE void byoc_quantize__write_qdq(const byoc_quantize__model *qm, int after, byoc_quantize__buf *out) {
    for (int i = 0; i < (int)stbds_arrlen(qm->qdq); ++i) {
        const byoc_quantize__qdq *q = &qm->qdq[i];
        if (q->after == after)
            byoc_quantize__put_node(out, q->name, q->op, q->in, 3, q->out, q->axis >= 0 ? "axis" : NULL, q->axis);
    }
}

/* the value info's name (field 1) */
BYOC__PRIVATE int byoc_quantize__vi_named(byoc_quantize__model *qm, byoc_onnx__bytes vi, const char **name) {
    byoc_onnx__pb pb = byoc_onnx__pb_of(vi);
    byoc_quantize__field f;
    int bad = 0;
    while (byoc_quantize__next(&pb, &f, &bad))
        if (f.number == 1 && f.wire == BYOC_ONNX__WIRE_LEN) {
            *name = byoc_quantize__bytes(qm, f.value);
            return *name != NULL;
        }
    return 0;
}

BYOC__PRIVATE void byoc_quantize__write_graph(byoc_quantize__model *qm, byoc_onnx__bytes graph, byoc_quantize__buf *g) {
    byoc_onnx__pb pb = byoc_onnx__pb_of(graph);
    byoc_quantize__field f;
    int bad = 0, node = 0, prologue = 0;
    while (byoc_quantize__next(&pb, &f, &bad)) {
        const char *name = NULL;
        if (f.number == 1 && f.wire == BYOC_ONNX__WIRE_LEN && node < (int)stbds_arrlen(qm->nodes)) {
            if (!prologue++) byoc_quantize__write_qdq(qm, -1, g);
            if (!qm->nodes[node].removed) byoc_quantize__write_node(qm, &qm->nodes[node], g);
            byoc_quantize__write_qdq(qm, node++, g);
            continue;
        }
        if (f.number == 5 && f.wire == BYOC_ONNX__WIRE_LEN) {
            int k = 0;
            while (k < (int)stbds_arrlen(qm->inits) && qm->inits[k].raw.p != f.value.p) ++k;
            if (k < (int)stbds_arrlen(qm->inits) && qm->inits[k].dropped) continue;
        }
        if ((f.number == 11 || f.number == 13) && f.wire == BYOC_ONNX__WIRE_LEN &&
            byoc_quantize__vi_named(qm, f.value, &name)) {
            int t = byoc_quantize__find(qm, name);
            if (t >= 0 && (qm->tensors[t].gone ||
                           (f.number == 11 && qm->tensors[t].init >= 0 && qm->inits[qm->tensors[t].init].dropped)))
                continue; /* a fused Relu's input, or a graph input standing for a replaced weight */
        }
        byoc_quantize__copy(g, &f);
    }
    if (!prologue) byoc_quantize__write_qdq(qm, -1, g);
    for (int i = 0; i < (int)stbds_arrlen(qm->extra); ++i) {
        const byoc_quantize__extra *e = &qm->extra[i];
        byoc_quantize__put_tensor(g, e->name, e->onnx_type, e->rank, e->dims, e->data, e->nbytes);
    }
}

/* the model: its fields as they are, but the graph, the default domain's opset and the IR version */
BYOC__PRIVATE void byoc_quantize__write_model(byoc_quantize__model *qm, const uint8_t *data, size_t size,
                                              byoc_quantize__buf *out) {
    byoc_onnx__bytes whole = {data, size};
    byoc_onnx__pb pb = byoc_onnx__pb_of(whole);
    byoc_quantize__field f;
    int bad = 0, saw_ir = 0, saw_opset = 0;
    while (byoc_quantize__next(&pb, &f, &bad)) {
        if (f.number == 1 && f.wire == BYOC_ONNX__WIRE_VARINT) {
            /* opset 13 came with IR 7; from IR 4 initializers need not be graph inputs */
            byoc_quantize__int(out, 1, qm->mf.ir_version < 7 ? 7 : qm->mf.ir_version);
            saw_ir = 1;
        } else if (f.number == 7 && f.wire == BYOC_ONNX__WIRE_LEN) {
            byoc_quantize__buf g;
            memset(&g, 0, sizeof g);
            byoc_quantize__write_graph(qm, f.value, &g);
            byoc_quantize__msg(out, 7, &g);
        } else if (f.number == 8 && f.wire == BYOC_ONNX__WIRE_LEN) {
            byoc_onnx__pb o = byoc_onnx__pb_of(f.value);
            byoc_quantize__field of;
            int obad = 0, is_default = 1;
            while (byoc_quantize__next(&o, &of, &obad))
                if (of.number == 1 && of.value.n && !byoc_onnx__bytes_eq(of.value, "ai.onnx")) is_default = 0;
            if (!is_default) {
                byoc_quantize__copy(out, &f);
                continue;
            }
            byoc_quantize__buf e;
            memset(&e, 0, sizeof e);
            byoc_quantize__str(&e, 1, "");
            byoc_quantize__int(&e, 2, qm->target_opset);
            byoc_quantize__msg(out, 8, &e);
            saw_opset = 1;
        } else byoc_quantize__copy(out, &f);
    }
    if (!saw_ir) byoc_quantize__int(out, 1, 7);
    if (!saw_opset) {
        byoc_quantize__buf e;
        memset(&e, 0, sizeof e);
        byoc_quantize__str(&e, 1, "");
        byoc_quantize__int(&e, 2, qm->target_opset);
        byoc_quantize__msg(out, 8, &e);
    }
}

// [SECTION] impl: the result's node and range lists
/* a copy of s at *pool (advanced past it); s is from the model, which is freed after the result is filled */
BYOC__PRIVATE const char *byoc_quantize__pool_copy(char **pool, const char *s) {
    char *at = *pool;
    size_t n = strlen(s) + 1;
    memcpy(at, s, n);
    *pool += n;
    return at;
}

/* r->nodes and r->ranges in one allocation (the arrays, then their strings); BYOC_ERR_OUT_OF_MEMORY when it fails */
BYOC__PRIVATE byoc_result byoc_quantize__fill_lists(const byoc_quantize__model *qm, byoc_quantize_result *r) {
    int nnodes = (int)stbds_arrlen(qm->nodes), ntensors = (int)stbds_arrlen(qm->tensors), nranges = 0;
    size_t text = 0;
    for (int i = 0; i < nnodes; ++i)
        text += strlen(qm->nodes[i].name) + strlen(qm->nodes[i].op) + 2 +
                (qm->nodes[i].float_reason ? strlen(qm->nodes[i].float_reason) + 1 : 0);
    for (int t = 0; t < ntensors; ++t)
        if (qm->tensors[t].quantize) text += strlen(qm->tensors[t].name) + 1, nranges++;
    size_t arrays = sizeof(byoc_quantize_range) * (size_t)nranges + sizeof(byoc_quantize_node_info) * (size_t)nnodes;
    char *block = BYOC__CAST(char *, malloc(arrays + text + 1));
    if (!block) return BYOC_ERR_OUT_OF_MEMORY;
    byoc_quantize_range *ranges = BYOC__CAST(byoc_quantize_range *, (void *)block);
    byoc_quantize_node_info *nodes = BYOC__CAST(byoc_quantize_node_info *, (void *)(ranges + nranges));
    char *pool = block + arrays;
    for (int i = 0; i < nnodes; ++i) {
        const byoc_quantize__node *n = &qm->nodes[i];
        nodes[i].name = byoc_quantize__pool_copy(&pool, n->name);
        nodes[i].op = byoc_quantize__pool_copy(&pool, n->op);
        nodes[i].fused = n->removed;
        nodes[i].quantized = n->quantized && !n->removed;
        nodes[i].float_reason =
            !n->removed && !n->quantized && n->float_reason ? byoc_quantize__pool_copy(&pool, n->float_reason) : NULL;
    }
    int k = 0;
    for (int t = 0; t < ntensors; ++t) {
        const byoc_quantize__tensor *x = &qm->tensors[t];
        if (!x->quantize) continue;
        /* a shared tensor's own range is never chosen: it reports the range whose parameters it takes */
        const byoc_quantize__tensor *owner = x->share >= 0 ? &qm->tensors[x->share] : x;
        byoc_quantize_range *q = &ranges[k++];
        q->tensor = byoc_quantize__pool_copy(&pool, x->name);
        q->seen_min = x->has_data ? x->seen_min : 0;
        q->seen_max = x->has_data ? x->seen_max : 0;
        q->rmin = owner->rmin;
        q->rmax = owner->rmax;
        q->scale = x->scale;
        q->zero_point = x->zero_point;
        q->fixed = owner->fixed;
        q->shares = NULL;
    }
    k = 0; /* the names shared are the names copied above */
    for (int t = 0; t < ntensors; ++t) {
        const byoc_quantize__tensor *x = &qm->tensors[t];
        if (!x->quantize) continue;
        if (x->share >= 0)
            for (int j = 0; j < nranges; ++j)
                if (!strcmp(ranges[j].tensor, qm->tensors[x->share].name)) ranges[k].shares = ranges[j].tensor;
        k++;
    }
    r->nodes = nodes;
    r->ranges = ranges;
    r->nranges = nranges;
    return BYOC_OK;
}

// [SECTION] impl: entry points
BYOC__PRIVATE void byoc_quantize__build(byoc_quantize__model *qm) {
    int n = (int)stbds_arrlen(qm->tensors); /* the records the build adds (new names) are not visited */
    for (int pass = 0; pass < 2; ++pass)    /* roots first: a shared tensor uses its root's names */
        for (int t = 0; t < n; ++t)
            if (qm->tensors[t].quantize && (qm->tensors[t].share < 0) == (pass == 0))
                byoc_quantize__build_activation(qm, t);
    for (int t = 0; t < n; ++t)
        if (qm->tensors[t].weight) byoc_quantize__build_initializer(qm, t);
}

typedef struct byoc_quantize__count {
    const char *op;
    int quantized, float_, removed;
    const char *reason;
} byoc_quantize__count;

/* "quantized Conv x26, Concat x8; fused away Relu x26; float Dropout x1 (not an op ...)" */
BYOC__PRIVATE char *byoc_quantize__summary(const byoc_quantize__model *qm, const byoc_quantize_result *r) {
    byoc_quantize__count *counts = NULL;
    for (int i = 0; i < (int)stbds_arrlen(qm->nodes); ++i) {
        const byoc_quantize__node *n = &qm->nodes[i];
        int k = 0;
        while (k < (int)stbds_arrlen(counts) && strcmp(counts[k].op, n->op)) ++k;
        if (k == (int)stbds_arrlen(counts)) {
            byoc_quantize__count c;
            memset(&c, 0, sizeof c);
            c.op = n->op;
            stbds_arrput(counts, c);
        }
        if (n->removed) counts[k].removed++;
        else if (n->quantized) counts[k].quantized++;
        else {
            counts[k].float_++;
            if (!counts[k].reason) counts[k].reason = n->float_reason;
        }
    }
    size_t cap = 4096 + 160 * (size_t)stbds_arrlen(counts), used = 0;
    char *text = BYOC__CAST(char *, malloc(cap));
    if (!text) {
        stbds_arrfree(counts);
        return NULL;
    }
    used += (size_t)snprintf(text, cap,
                             "%d of %d nodes quantized, %d fused away, %d QDQ pairs, %d int8 weights, "
                             "%d int32 biases, %d calibration samples; opset %d -> %d%s\n",
                             r->nodes_quantized, r->nodes_in, r->nodes_removed, r->qdq_pairs, r->weights, r->biases,
                             r->samples, r->opset_in, r->opset_out, qm->upgraded ? " (nodes rewritten for it)" : "");
    const char *heads[3] = {"quantized:", "fused into their producer:", "left in float:"};
    for (int h = 0; h < 3; ++h) {
        int any = 0;
        for (int k = 0; k < (int)stbds_arrlen(counts) && used < cap; ++k) {
            int c = h == 0 ? counts[k].quantized : h == 1 ? counts[k].removed : counts[k].float_;
            if (!c) continue;
            used += (size_t)snprintf(text + used, cap - used, "%s %s x%d", any ? "," : heads[h], counts[k].op, c);
            if (h == 2 && counts[k].reason && used < cap)
                used += (size_t)snprintf(text + used, cap - used, " (%s)", counts[k].reason);
            any = 1;
        }
        if (any && used < cap) used += (size_t)snprintf(text + used, cap - used, "\n");
    }
    stbds_arrfree(counts);
    return text;
}

BYOC__PRIVATE void byoc_quantize__fill(const byoc_quantize__model *qm, byoc_quantize_result *r) {
    r->nodes_in = (int)stbds_arrlen(qm->nodes);
    for (int i = 0; i < r->nodes_in; ++i) {
        r->nodes_removed += qm->nodes[i].removed;
        r->nodes_quantized += qm->nodes[i].quantized && !qm->nodes[i].removed;
    }
    for (int i = 0; i < (int)stbds_arrlen(qm->qdq); ++i) r->qdq_pairs += !strcmp(qm->qdq[i].op, "QuantizeLinear");
    for (int t = 0; t < (int)stbds_arrlen(qm->tensors); ++t) {
        r->weights += qm->tensors[t].weight == 1;
        r->biases += qm->tensors[t].weight == 3;
    }
    r->opset_in = qm->opset;
    r->opset_out = qm->target_opset;
}

/* calibration: the observed tensors, the augmented model, the samples run */
BYOC__PRIVATE byoc_result byoc_quantize__calibrate(byoc_quantize__model *qm, const uint8_t *data, size_t size,
                                                   const byoc_quantize_options *o, int *pieces, byoc_diag *diag) {
    char **observed = NULL;
    byoc_quantize__buf augmented;
    byoc_quantize__run run;
    memset(&augmented, 0, sizeof augmented);
    memset(&run, 0, sizeof run);
    byoc_quantize__choose_observed(qm, &observed);
    byoc_result r = byoc_quantize__split(qm, o, &run, diag);
    if (r == BYOC_OK) r = byoc_quantize__augment(qm, data, size, observed, &augmented);
    if (r == BYOC_OK) r = byoc_quantize__run_samples(qm, &augmented, &run, o, diag);
    *pieces = run.npieces;
    stbds_arrfree(observed);
    stbds_arrfree(run.inputs);
    free(augmented.p);
    return r;
}

BYOC_API byoc_result byoc_quantize_onnx(const void *model, size_t size, const char *name,
                                        const byoc_quantize_options *options, byoc_quantize_result *out,
                                        byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    if (!out) return byoc__null_arg(diag, __func__, "out");
    memset(out, 0, sizeof *out);
    if (!model) return byoc__null_arg(diag, __func__, "model");
    if (!options) return byoc__null_arg(diag, __func__, "options");
    if (!name) name = "model.onnx";
    if (options->nsamples > 0 && (!options->samples || options->ninputs < 0))
        return byoc__null_arg(diag, __func__, "options->samples");
    byoc_dtype act = options->activation_type == BYOC_DTYPE_INVALID ? BYOC_UINT8 : options->activation_type;
    if (act != BYOC_UINT8 && act != BYOC_INT8)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "%s: activation type %s is not uint8 or int8", name,
                          byoc_dtype_name(act));
    if ((int)options->method < 0 || (int)options->method > 2 || options->percentile < 0 || options->percentile > 100)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "%s: calibration method %d / percentile %g is "
                          "not valid",
                          name, (int)options->method, options->percentile);
    byoc_quantize__model qm;
    memset(&qm, 0, sizeof qm);
    qm.st.file = name;
    qm.st.diag = diag;
    qm.act_type = act;
    qm.per_channel = options->per_channel != 0;
    byoc_result r = byoc_quantize__read(&qm, BYOC__CAST(const uint8_t *, model), size);
    qm.target_opset = qm.opset < 10 ? 11 : qm.opset;
    if (qm.per_channel && qm.target_opset < 13) qm.target_opset = 13;
    int pieces = 0;
    if (r == BYOC_OK)
        r = byoc_quantize__calibrate(&qm, BYOC__CAST(const uint8_t *, model), size, options, &pieces, diag);
    if (r == BYOC_OK) r = byoc_quantize__upgrade(&qm);
    byoc_quantize__buf written;
    memset(&written, 0, sizeof written);
    if (r == BYOC_OK) {
        byoc_quantize__plan(&qm);
        byoc_quantize__params(&qm, options->method, options->percentile > 0 ? options->percentile : 99.999);
        byoc_quantize__build(&qm);
        byoc_quantize__write_model(&qm, BYOC__CAST(const uint8_t *, model), size, &written);
        if (written.oom) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", name);
    }
    if (r == BYOC_OK) { /* what is written must import (byocc loads it) */
        byoc_onnx_model back;
        byoc_diag why;
        char label[600];
        snprintf(label, sizeof label, "%s (quantized)", name);
        if (byoc_onnx_import(written.p, written.n, label, options->import, &back, &why) != BYOC_OK &&
            strstr(why.message, "symbolic") == NULL)
            r = byoc__diag(diag, BYOC_ERR_INTERNAL, 0, 0, 0, "the quantized model does not import: %s", why.message);
        byoc_onnx_model_free(&back);
    }
    if (r == BYOC_OK) {
        out->bytes = written.p;
        out->size = written.n;
        written.p = NULL;
        out->samples = pieces;
        byoc_quantize__fill(&qm, out);
        out->summary = byoc_quantize__summary(&qm, out);
        if (!out->summary || byoc_quantize__fill_lists(&qm, out) != BYOC_OK) {
            byoc_quantize_result_free(out);
            r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", name);
        }
    }
    free(written.p);
    byoc_quantize__model_free(&qm);
    return r;
}

BYOC_API void byoc_quantize_result_free(byoc_quantize_result *r) {
    if (!r) return;
    free(r->bytes);
    free(r->summary);
    free(r->ranges); /* the node list and the strings too: one block */
    memset(r, 0, sizeof *r);
}

#endif /* BYOC_QUANTIZE_IMPLEMENTATION */
