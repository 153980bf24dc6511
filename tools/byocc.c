/* byocc -- the byoc.h command-line tool.
   Build: cc -std=c99 -O2 -I. tools/byocc.c -o build/byocc -lm
   Exit codes: 0 ok, 1 usage, 2 invalid input (message names file and position), 3 internal error,
   4 run --compare-to found an output beyond the tolerance.
   Layout: every command is a row of the command table (name, usage, the options it takes, its function);
   one parser (parse_options, over the option table) reads the options of every command into a
   cli_options, and the backends it opens live in a session, both passed down (no mutable globals). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime: profiles and run times on a monotonic wall clock */
#define BYOC_IMPLEMENTATION
#define BYOC_ONNX_IMPLEMENTATION
#define BYOC_SIM_IMPLEMENTATION
#define BYOC_QUANTIZE_IMPLEMENTATION
#include "../byoc.h"
#include "../byoc_sim.h"
#include "byoc_onnx.h"
#include "byoc_quantize.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>   /* a .backend file's neighbours, for "did you mean" */
#include <sys/stat.h> /* mkdir: --output-dir */
#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h> /* getrusage: --repeat's peak memory */
#endif
#if defined(__GLIBC__)
#include <malloc.h> /* mallopt: keep_freed_memory */
#endif

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_INTERNAL = 3, EXIT_MISMATCH = 4 };

/* the limits of the command line, one each */
enum {
    MAX_BACKENDS = 64,   /* --backend, per command */
    MAX_IO = 64,         /* --input files, and a model's inputs and outputs for run */
    MAX_PINS = 256,      /* --pin */
    MAX_PIN_TEXT = 160,  /* one --pin NODE=BACKEND, in bytes */
    MAX_DIMS = 32,       /* --dim */
    MAX_CONFIGS = 64,    /* --config */
    MAX_COUNT = 1000000, /* the largest count: --repeat, --max-depth, --state-budget, ... */
    MAX_FILES = 2,       /* positional arguments (explain: MODEL.byoc NODE) */
    MAX_EMITS = 4        /* --emit FORMAT[=FILE], for run, compile and info */
};

/* ---- usage: one section per command, in the order of the overview ---- */
typedef struct usage_section {
    const char *command;
    const char *text; /* "  NAME ..." (each a literal of its own: C99 guarantees 4095 characters per literal) */
} usage_section;

static const char *const usage_head = "usage: byocc <command> [options]\n\ncommands:\n";
static const usage_section usage_sections[] = {
    {"opt",
     "  opt FILE.relay --passes p1,p2,... [--backend B.backend]... [--emit relay|json] [--json]\n"
     "      [--print-types] [-o OUT.relay] [--print-after-all] [--print-after=NAME,...] [--time-passes]\n"
     "      [--no-verify] [--opt-level N] [--config KEY=VALUE]...\n"
     "        run passes in order and print the module, or with -o write it to OUT.relay and its\n"
     "        constants to OUT.weights;\n"
     "        the IR is verified after every pass; --json: the passes run with their times, the node\n"
     "        counts before and after, and the module's text\n"},
    {"partition",
     "  partition FILE.relay --backend B.backend... [--emit report|json|dot|relay] [--json]\n"
     "      [--strategy greedy|collage] [--pin NODE=BACKEND]... [--no-fallback] [--min-partition-ops N]\n"
     "      [--max-partitions N] [--no-merge-regions] [--config KEY=VALUE]... [-o OUT.relay]\n"
     "      [--estimator analytic|measured] [--cost-cache FILE] [--max-depth N] [--state-budget N]\n"
     "      [--save-placement FILE] [--placement FILE] [--no-fq2i] [--fixed-point-requantize] [--threads N]\n"
     "        greedy: place every op on the first backend (by priority, then as given) that takes it,\n"
     "        host last;\n"
     "        collage: the cheapest plan under the device models (never dearer than greedy), with its\n"
     "        statistics; --save-placement writes it, --placement replays one (refused when it no\n"
     "        longer fits); --threads N (default: BYOC_THREADS, else the online cores): above 1, the\n"
     "        baseline plans are made beside the candidates (the same plan for every N);\n"
     "        NODE is a frontend name, a %N label of @main or #ID;\n"
     "        a quantized (QDQ) model's groups become qnn ops first (FakeQuantizationToInteger, each\n"
     "        group left in float32 listed with its reason); --no-fq2i keeps them in float;\n"
     "        --fixed-point-requantize: every qnn.requantize in the devices' fixed point (TFLite's),\n"
     "        on the host too, instead of ONNX Runtime's float32 arithmetic\n"},
    {"match",
     "  match FILE.relay (--pattern TEXT | --pattern-file F) [--partition NAME] [--json]\n"
     "        list the expressions of @main the pattern matches (outputs first, as the matcher visits\n"
     "        them); with --partition, group each non-overlapping match into fn(...) { ... } with\n"
     "        Composite=NAME and print the module; --json: the matches, and that module's text\n"},
    {"import",
     "  import MODEL.onnx [-o OUT.relay] [--print-types] [--input [NAME=]FILE.npy]... [--json]\n"
     "        the ONNX model as Relay text (printed, or written to OUT.relay with its constants in\n"
     "        OUT.weights);\n"
     "        --input takes the inputs' shapes from example tensors (.npy or .pb); --json: opset, node\n"
     "        counts, inputs and outputs with their types, warnings, and the module's text\n"},
    {"run",
     "  run MODEL [--input [NAME=]FILE.npy|.npz]... [--output-dir D] [--compare-to DIR|FILE.npy]\n"
     "      [--tolerance T] [--lsb N] [--backend npu|dsp|B.backend [-option=value]...]... [--reference host]\n"
     "      [--profile] [--trace FILE.json] [--repeat N] [--threads N] [--side-by-side] [--no-fuse]\n"
     "      [--strategy greedy|collage] [partition's collage options] [--emit json|csv[=FILE]]... [--json]\n"
     "        compile (SimplifyInference, FoldConstant, placement, host rewrites, FuseOps) and run on\n"
     "        the host runtime; --compare-to checks every output against DIR/NAME.npy (or ort_output_K.npy,\n"
     "        output_K.npy, expected_K.npy): floats within T x max(1, max|ref|) (T = 1e-4), integers\n"
     "        exactly (--lsb N: within N, as the devices' fixed-point requantize needs 1), one-row\n"
     "        scores by argmax; exit 4 when an output is off. Inputs not given (and\n"
     "        none given): seeded values, or with --compare-to DIR, DIR's input_K.npy (or .pb);\n"
     "        --output-dir creates D when it is missing\n"
     "        --repeat N: p50/p90/p99, inferences/s and peak memory; a per-device summary ends the\n"
     "        output; --emit json|csv writes it as JSON, or one CSV row per layer (to FILE, or to\n"
     "        standard output, the human lines then going to standard error)\n"
     "        --backend npu / dsp: the built-in simulated devices (partitions run as command streams);\n"
     "        --reference host: compare with the model compiled for the host alone;\n"
     "        --trace: Chrome trace JSON\n"
     "        --threads N: host kernels split their outputs over N threads (default: BYOC_THREADS\n"
     "        when set, else the online cores); the outputs are the same bytes for every N, and\n"
     "        --profile's times are each kernel's wall time with all its threads\n"
     "        --side-by-side: independent kernels (a detector's heads, a block's branches) run side by\n"
     "        side, one thread each, instead of each over all threads; --profile lists the groups\n"},
    {"quantize",
     "  quantize MODEL.onnx --calibrate DIR [--per-channel] [--method minmax|percentile|entropy]\n"
     "      [--activation-type uint8|int8] -o MODEL_q.onnx [--json]\n"
     "        post-training static quantization to a QDQ ONNX file, as ONNX Runtime's quantize_static:\n"
     "        int8 symmetric weights (per output channel with --per-channel), int32 biases, uint8 (or\n"
     "        int8) activations whose ranges come from running the float model on DIR's samples\n"
     "        (DIR/input_K.npy is one, each subdirectory holding input_K.npy files one more; a tensor\n"
     "        whose leading dim is a multiple of the input's is split into samples); --json: every\n"
     "        node's fate and every activation's calibration range, scale and zero point\n"},
    {"compile",
     "  compile MODEL --backend B... [run's compile options] [--input [NAME=]FILE.npy]...\n"
     "      -o OUT.byoc [--source-map FILE.json] [--emit json|csv[=FILE]]... [--json]\n"
     "        the run pipeline, saved as one artifact: the host program, each device partition's blob\n"
     "        with its compatibility strings (backend, kind, format, producer, target), the weights,\n"
     "        the memory plan, the kernel list and the source map; it is loaded back (every check of\n"
     "        the loader) before it is written; then the per-device summary of one run on zeros\n"},
    {"run",
     "  run MODEL.byoc [--input NAME=FILE.npy]... [--backend B]... [run's output options] [--json]\n"
     "        runs an artifact; with --backend, only those devices are offered, and a partition\n"
     "        compiled for a backend not offered, or for other device parameters, is refused;\n"
     "        --threads N as for a model\n"},
    {"explain",
     "  explain MODEL.byoc NODE [--json]\n"
     "        where a frontend node (onnx:NAME, or NAME) ran: its IR ops, composite, partition, kernel\n"
     "        (with its simulated time), device layer and commands, and why there (or why it has no\n"
     "        op left)\n"},
    {"report",
     "  report MODEL [--backend B]... [--strategy greedy|collage] [partition's collage options]\n"
     "      [--input [NAME=]FILE.npy]... [--repeat N] [--threads N] [--no-fuse] -o REPORT.html [--json]\n"
     "        compile and run as run does (seeded inputs unless given) and write one self-contained\n"
     "        HTML page (no network): the graph laid out top to bottom, coloured by device, with the\n"
     "        partitions boxed and each node's placement reason on a click; the simulated timeline per\n"
     "        device with DMA and transfers; the greedy and Collage plans side by side with the ops\n"
     "        that moved (with backends both are always made, the other one from a second import);\n"
     "        the memory plan's buffers over time; the kernels with simulated and measured times\n"},
    {"backends",
     "  backends [--json]\n"
     "        the built-in device backends, their parameters and the device presets\n"},
    {"info",
     "  info FILE.relay [--json]\n"
     "        node count, op histogram, parameter bytes, input and output types\n"
     "  info MODEL.byoc [--emit json|csv[=FILE]]... [--json]\n"
     "        what the executable holds, and its per-device summary (one run on zeros)\n"},
    {"ops",
     "  ops [--json]\n"
     "        the registered ops with their pattern kind and attributes\n"},
    {"passes",
     "  passes [--json]\n"
     "        the registered passes and configuration keys\n"},
    {"version",
     "  version [--json]\n"
     "        the headers' versions, the compiler and options of this build, the CPU features used\n"},
};
static const char *const usage_tail =
    "\n"
    "FILE.relay loads FILE.weights beside it when present (else constants get seeded values).\n"
    "Every command that reads a module also takes MODEL.onnx; --dim NAME=N sets a symbolic input dim\n"
    "(unset ones are taken as 1, with a note; with --dynamic-dims they import as '?', their extents\n"
    "taken from each run's inputs). Options that take a value also take it as --option=value;\n"
    "output files' directories are checked before any work; --input also takes numpy's .npz;\n"
    "every command answers --help (or -h) with its own usage.\n"
    "--json, on every command: its report as one JSON document on standard output (human lines, if any,\n"
    "go to standard error); where --emit exists, --json is --emit json.\n";

/* the overview (command NULL), or one command's usage */
static void print_wrapped(FILE *f, const char *text, size_t len, int keep_tables);
static void print_usage(FILE *f, const char *command) {
    char text[4200];
    if (!command) fputs(usage_head, f);
    for (size_t k = 0; k < sizeof usage_sections / sizeof usage_sections[0]; ++k) {
        if (command && strcmp(usage_sections[k].command, command)) continue;
        int n = snprintf(text, sizeof text, command ? "usage: byocc%s" : "%s", usage_sections[k].text + (command ? 1 : 0));
        print_wrapped(f, text, n > 0 && (size_t)n < sizeof text ? (size_t)n : strlen(text), 0);
    }
    print_wrapped(f, usage_tail, strlen(usage_tail), 0);
}

/* Text from a file or the command line, as a message may show it: control bytes (and DEL) escaped as \n, \t,
   \r or \xHH, so a crafted name cannot move the cursor or split the message. Cut to fit cap, with "...". */
static const char *shown(const char *s, char *buf, size_t cap) {
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (; s && *s && n + 8 < cap; ++s) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch != 0x7f) { buf[n++] = (char)ch; continue; }
        buf[n++] = '\\';
        if (ch == '\n') buf[n++] = 'n';
        else if (ch == '\t') buf[n++] = 't';
        else if (ch == '\r') buf[n++] = 'r';
        else {
            buf[n++] = 'x';
            buf[n++] = hex[ch >> 4];
            buf[n++] = hex[ch & 15];
        }
    }
    if (s && *s && n + 3 < cap) buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n < cap ? n : cap - 1] = 0;
    return buf;
}
#define SHOWN_MAX 600 /* the buffer of one shown() name in a message */

/* ---- JSON: the --json documents of every command ---- */
/* s as a JSON string, through the library's one writer (byoc__json_str: escapes, U+FFFD for bytes that are
   not well-formed UTF-8, NULL as null) */
static void json_string_to(FILE *f, const char *s) {
    static const byoc_allocator heap = {NULL, NULL, NULL}; /* no functions: BYOC_MALLOC / BYOC_FREE */
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.alloc = &heap;
    byoc__json_str(&b, s);
    if (b.data) fwrite(b.data, 1, b.len, f);
    byoc__buf_free(&b, b.data);
}

typedef struct op_count {
    const char *name;
    int count;
} op_count;

static int by_count(const void *a, const void *b) {
    const op_count *x = (const op_count *)a, *y = (const op_count *)b;
    if (x->count != y->count) return y->count - x->count;
    return strcmp(x->name, y->name);
}

/* What a module holds: every distinct node reachable from any function (nested functions included, a node
   shared by two functions counted once), by kind, and the op histogram (most used first). info prints it;
   opt and import report it before and after their work. */
typedef struct module_counts {
    int functions, nodes, constants;
    int by_kind[BYOC_NODE_LOOP + 1]; /* indexed by byoc_node_kind */
    size_t param_bytes;
    op_count *ops; /* malloc'd */
    int nops;
} module_counts;

static int count_op(module_counts *c, const char *op, int *cap) {
    int k = 0;
    while (k < c->nops && strcmp(c->ops[k].name, op) != 0) ++k;
    if (k == c->nops) {
        if (c->nops == *cap) {
            *cap = *cap ? *cap * 2 : 16;
            op_count *grown = (op_count *)realloc(c->ops, sizeof(op_count) * (size_t)*cap);
            if (!grown) return 0;
            c->ops = grown;
        }
        c->ops[c->nops].name = op;
        c->ops[c->nops++].count = 0;
    }
    c->ops[k].count++;
    return 1;
}

/* EXIT_OK, or EXIT_INTERNAL when out of memory (c then holds nothing to free) */
static int count_module(byoc_module *m, module_counts *c) {
    int ok = 1, cap = 0, nf = byoc_module_function_count(m);
    memset(c, 0, sizeof *c);
    c->functions = nf;
    byoc_graph *graphs = nf ? (byoc_graph *)calloc((size_t)nf, sizeof(byoc_graph)) : NULL;
    if (nf && !graphs) return EXIT_INTERNAL;
    int built = 0;
    for (int f = 0; f < nf && ok; ++f) {
        if (byoc_graph_build(m, byoc_module_function_at(m, f).function, BYOC_GRAPH_ENTER_FUNCTIONS, &graphs[f]) !=
            BYOC_OK) {
            ok = 0;
            break;
        }
        built++;
        for (int i = 0; i < graphs[f].count && ok; ++i) {
            byoc_node *n = graphs[f].nodes[i].node;
            int shared = 0; /* already counted in an earlier function */
            for (int e = 0; e < f && !shared; ++e) shared = byoc_graph_index(&graphs[e], n) >= 0;
            if (shared) continue;
            c->nodes++;
            c->by_kind[n->kind]++;
            if (n->kind == BYOC_NODE_CONSTANT) {
                c->constants++;
                c->param_bytes += byoc_constant_nbytes(n);
            }
            if (n->kind == BYOC_NODE_CALL && n->op) ok = count_op(c, n->op->def.name, &cap);
        }
    }
    for (int f = 0; f < built; ++f) byoc_graph_free(&graphs[f]);
    free(graphs);
    if (!ok) {
        free(c->ops);
        memset(c, 0, sizeof *c);
        return EXIT_INTERNAL;
    }
    if (c->nops) qsort(c->ops, (size_t)c->nops, sizeof(op_count), by_count);
    return EXIT_OK;
}

/* the counts as JSON members (no braces): info's document, and the "before" and "after" of opt and import */
static void write_counts_json(FILE *f, const module_counts *c) {
    fprintf(f,
            "\"functions\": %d, \"nodes\": %d, \"calls\": %d, \"constants\": %d, \"parameter_bytes\": %zu, \"ops\": {",
            c->functions, c->nodes, c->by_kind[BYOC_NODE_CALL], c->constants, c->param_bytes);
    for (int k = 0; k < c->nops; ++k) {
        if (k) fputs(", ", f);
        json_string_to(f, c->ops[k].name);
        fprintf(f, ": %d", c->ops[k].count);
    }
    fputc('}', f);
}

/* a value's type as a JSON string ("Tensor[(1, 10), float32]"; null when unknown) */
static void write_type_json(FILE *f, const byoc_type *t) {
    char ty[512];
    if (!t) {
        fputs("null", f);
        return;
    }
    byoc_type_to_string(t, ty, sizeof ty);
    json_string_to(f, ty);
}

/* ---- "did you mean": the closest of a set of names ---- */
/* edit distance (insertions, deletions, substitutions, swaps of neighbours), 99 for names longer than 63 bytes */
static int edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    int d[64][64];
    if (n > 63 || m > 63) return 99;
    for (size_t i = 0; i <= n; ++i)
        for (size_t j = 0; j <= m; ++j) {
            if (!i || !j) { d[i][j] = (int)(i + j); continue; }
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best) best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* the best candidate so far: within a third of the word's length (1 to 3 edits), or one the word begins */
typedef struct suggestion {
    char best[256];
    int distance;
} suggestion;
static void suggest(suggestion *sg, const char *word, const char *candidate) {
    int limit = (int)strlen(word) / 3, d = edit_distance(word, candidate);
    if (limit < 1) limit = 1;
    if (limit > 3) limit = 3;
    if (d > limit && strlen(word) >= 3 && !strncmp(candidate, word, strlen(word))) d = limit; /* a prefix: --out for --output-dir */
    if (d > limit || !strcmp(word, candidate) || (sg->best[0] && d >= sg->distance)) return;
    snprintf(sg->best, sizeof sg->best, "%s", candidate);
    sg->distance = d;
}
/* "; did you mean 'X'?", or "" */
static const char *did_you_mean(const suggestion *sg, char *buf, size_t cap) {
    char text[SHOWN_MAX];
    if (!sg->best[0]) return "";
    snprintf(buf, cap, "; did you mean '%s'?", shown(sg->best, text, sizeof text));
    return buf;
}

/* ---- human output: lines wrap at 100 columns ---- */
/* 100, or $COLUMNS when it is set to 40 or more (POSIX's preferred width: COLUMNS=100000 keeps lines whole,
   as the lit tests do to match one node per line) */
static size_t wrap_columns(void) {
    const char *c = getenv("COLUMNS");
    long v = c ? strtol(c, NULL, 10) : 0;
    return v >= 40 ? (size_t)v : 100;
}
/* One line (without its newline), wrapped at wrap_columns(): a long line breaks after the last ", " or "; " that
   fits (else the last space), continuation lines indented by indent. */
static void print_wrapped_line(FILE *f, const char *line, size_t len, size_t indent) {
    size_t at = 0, col = 0, width = wrap_columns();
    if (indent > width / 2) indent = 8;
    while (len - at + col > width) {
        size_t room = width - col, comma = 0, semi = 0, space = 0, cut;
        for (size_t i = 1; i < room && at + i < len; ++i) {
            if (line[at + i] != ' ') continue;
            if (line[at + i - 1] == ',') comma = i;
            if (line[at + i - 1] == ';') semi = i;
            space = i;
        }
        cut = comma > room / 2 ? comma : comma > semi ? comma : semi; /* a list's items stay whole */
        if (!cut) cut = space ? space : room;
        fwrite(line + at, 1, cut, f);
        fprintf(f, "\n%*s", (int)indent, "");
        at += cut;
        while (at < len && line[at] == ' ') at++;
        col = indent;
    }
    fwrite(line + at, 1, len - at, f);
    fputc('\n', f);
}
/* printf to f, each line wrapped at 100 columns (continuations indented 4 past the line's own indent) */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void say(FILE *f, const char *fmt, ...);

/* Text of many lines, each wrapped; with keep_tables, a line that begins with a space (a table row) stays whole. */
static void print_wrapped(FILE *f, const char *text, size_t len, int keep_tables) {
    for (size_t at = 0; at < len;) {
        const char *nl = (const char *)memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at, lead = 0;
        while (lead < n && text[at + lead] == ' ') lead++;
        if (keep_tables && lead) {
            fwrite(text + at, 1, n, f);
            fputc('\n', f);
        } else
            print_wrapped_line(f, text + at, n, lead + 4 < 40 ? lead + 4 : 40);
        at += n + 1;
    }
}

static int usage_error(const char *fmt, const char *arg) {
    char text[SHOWN_MAX];
    fprintf(stderr, "byocc: ");
    fprintf(stderr, fmt, shown(arg, text, sizeof text));
    fprintf(stderr, "\n(run 'byocc' with no arguments for usage)\n");
    return EXIT_USAGE;
}

/* a library diagnostic: its message may quote text from the input file, so it is shown escaped */
static int input_error(const byoc_diag *d) {
    char text[4 * sizeof d->message];
    fprintf(stderr, "byocc: error: %s\n", shown(d->message, text, sizeof text));
    return d->code == BYOC_ERR_OUT_OF_MEMORY || d->code == BYOC_ERR_INTERNAL ? EXIT_INTERNAL : EXIT_INPUT;
}

static void say(FILE *f, const char *fmt, ...) {
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    print_wrapped(f, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, 0);
}

/* ---- the session: what the command line opened, for the whole command ---- */
typedef struct session {
    /* --backend NAME|FILE.backend [-option=value ...]: built-in device backends and .backend files, open for
       the whole command (byoc_sim_backend_open registers device backends and their target hooks) */
    byoc_sim_backend *backends[MAX_BACKENDS];
    int nbackends;
    byoc_onnx_dim dims[MAX_DIMS]; /* --dim NAME=N values for symbolic ONNX input dims (names malloc'd) */
    int ndims;
    int dynamic_dims;    /* --dynamic-dims: symbolic input dims --dim does not set import as '?' */
    char defaulted[400]; /* "batch=1, sequence=1": the symbolic dims the last ONNX import took as 1 */
} session;

static int ends_with(const char *s, const char *suffix);

/* a backend that does not open: the closest built-in backend, device kind, or .backend file in the directory named */
static void backend_hint(const char *arg, char *hint, size_t cap) {
    char name[256], dir[512], path[1024];
    suggestion sg;
    memset(&sg, 0, sizeof sg);
    hint[0] = 0;
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, " \t"), arg);
    for (int i = 0; i < byoc_sim_builtin_backend_count(); ++i) suggest(&sg, name, byoc_sim_builtin_backend(i, NULL));
    for (int i = 1; i < byoc_sim_device_kind_count(); ++i) suggest(&sg, name, byoc_sim_device_kind_at(i)->name);
    const char *slash = strrchr(name, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - name) + 1 : 2, slash ? name : "./");
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (!ends_with(e->d_name, ".backend")) continue;
        snprintf(path, sizeof path, "%s%s", slash ? dir : "", e->d_name);
        suggest(&sg, name, path);
    }
    if (d) closedir(d);
    did_you_mean(&sg, hint, cap);
}

static byoc_sim_backend *open_backend(session *s, const char *arg, byoc_diag *d) {
    if (s->nbackends == MAX_BACKENDS) {
        snprintf(d->message, sizeof d->message, "at most %d backends", MAX_BACKENDS);
        d->code = BYOC_ERR_INVALID_ARGUMENT;
        return NULL;
    }
    byoc_sim_backend *b = byoc_sim_backend_open(arg, d);
    if (b) s->backends[s->nbackends++] = b;
    else if (strstr(d->message, "not a built-in backend")) { /* a name or file that is not there: the closest that is */
        char hint[300];
        backend_hint(arg, hint, sizeof hint);
        size_t n = strlen(d->message);
        snprintf(d->message + n, sizeof d->message - n, "%s", hint);
    }
    return b;
}

static void session_close(session *s) {
    for (int k = 0; k < s->nbackends; ++k) byoc_sim_backend_close(s->backends[k]);
    for (int k = 0; k < s->ndims; ++k) free((void *)s->dims[k].name);
    s->nbackends = s->ndims = 0;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The symbolic dims an ONNX import took by default, from its notes ("input 'x' dim 0 (batch) taken as 1"), as
   "batch=1, sequence=1" in out (each name once). */
static void defaulted_dims(const char *const *notes, char *out, size_t cap) {
    out[0] = 0;
    for (int i = 0; notes && notes[i]; ++i) {
        const char *open = strrchr(notes[i], '('), *close = open ? strstr(open, ") taken as ") : NULL;
        char item[200];
        if (!close) continue;
        snprintf(item, sizeof item, "%.*s=%s", (int)(close - open - 1), open + 1, close + strlen(") taken as "));
        size_t n = strlen(item), used = strlen(out);
        int seen = 0;
        for (const char *p = out; !seen && (p = strstr(p, item)) != NULL; p += n) seen = (p == out || p[-1] == ' ') && (p[n] == ',' || !p[n]);
        if (!seen && used + n + 3 < cap) snprintf(out + used, cap - used, "%s%s", used ? ", " : "", item);
    }
}

/* --dim NAME=N must name a symbolic dim of the model: an import without them lists every one */
static int check_dims(const session *s, const char *path, byoc_diag *d) {
    byoc_onnx_options o;
    byoc_onnx_model model;
    char names[1000], name[200], hint[300], text[SHOWN_MAX];
    memset(&o, 0, sizeof o);
    o.free_dim_default = 1;
    if (byoc_onnx_load(path, &o, &model, d) != BYOC_OK) return 1; /* the import proper reports it */
    defaulted_dims(model.notes, names, sizeof names);
    byoc_onnx_model_free(&model);
    for (int k = 0; k < s->ndims; ++k) {
        suggestion sg;
        memset(&sg, 0, sizeof sg);
        int found = 0;
        for (const char *p = names; *p;) { /* "batch=1, sequence=1" */
            size_t n = strcspn(p, "=");
            snprintf(name, sizeof name, "%.*s", (int)n, p);
            found |= !strcmp(name, s->dims[k].name);
            suggest(&sg, s->dims[k].name, name);
            p += n + strcspn(p + n, ",");
            while (*p == ',' || *p == ' ') p++;
        }
        if (found) continue;
        char list[1000];
        size_t used = 0;
        list[0] = 0;
        for (const char *p = names; *p && used + 2 < sizeof list; ++p) /* the names without their values */
            if (*p == '=') p += strcspn(p, ",") - 1;
            else list[used++] = *p, list[used] = 0;
        d->code = BYOC_ERR_INVALID_ARGUMENT;
        snprintf(d->message, sizeof d->message, "%s: --dim %s: the model has no symbolic dim of that name (%s%.300s)%s", path,
                 shown(s->dims[k].name, text, sizeof text), names[0] ? "its symbolic dims: " : "its inputs have none", list, did_you_mean(&sg, hint, sizeof hint));
        return 0;
    }
    return 1;
}

/* The import failed: which symbolic dims did it take as 1? Those of an import without dims or shapes, less the ones
   --dim gives and those of inputs whose shape an --input file gives. */
static void failed_import_dims(session *s, const char *path, const byoc_onnx_input_shape *shapes, int nshapes) {
    byoc_onnx_options o;
    byoc_onnx_model model;
    byoc_diag d;
    const char *kept[64];
    int nkept = 0;
    memset(&o, 0, sizeof o);
    o.free_dim_default = 1;
    s->defaulted[0] = 0;
    if (byoc_onnx_load(path, &o, &model, &d) != BYOC_OK) return;
    for (int i = 0; model.notes[i] && nkept < 63; ++i) {
        const char *q = strchr(model.notes[i], '\''), *open = strrchr(model.notes[i], '(');
        int skip = !q || !open;
        for (int k = 0; !skip && k < s->ndims; ++k) skip = !strncmp(open + 1, s->dims[k].name, strlen(s->dims[k].name)) && open[1 + strlen(s->dims[k].name)] == ')';
        for (int k = 0; !skip && k < nshapes; ++k) {
            const char *input = shapes[k].input ? shapes[k].input : k < model.ninputs ? model.input_names[k] : "";
            skip = !strncmp(q + 1, input, strlen(input)) && q[1 + strlen(input)] == '\'';
        }
        if (!skip) kept[nkept++] = model.notes[i];
    }
    kept[nkept] = NULL;
    defaulted_dims(kept, s->defaulted, sizeof s->defaulted);
    byoc_onnx_model_free(&model);
}

/* A .relay (with its .weights) or an .onnx model. For ONNX, *info (when given) receives the import's
   facts (input and output names); the caller frees it with byoc_onnx_model_free, which also destroys
   the module. shapes (import and run --input): the shapes of example tensors. Symbolic dims not given with
   --dim are taken as 1: s->defaulted lists them, for a note after the command, or its error. */
static byoc_module *load_model_info(session *s, const char *path, const byoc_onnx_input_shape *shapes, int nshapes, byoc_onnx_model *info,
                                    byoc_diag *d) {
    if (info) memset(info, 0, sizeof *info);
    if (ends_with(path, ".onnx")) {
        byoc_onnx_options o;
        memset(&o, 0, sizeof o);
        o.dims = s->dims;
        o.ndims = s->ndims;
        /* --dynamic-dims: unset symbolic dims stay '?' (not 1), and example inputs do not fix them: the
           program takes each run's extents */
        o.free_dim_default = s->dynamic_dims ? 0 : 1;
        o.dynamic_dims = s->dynamic_dims;
        o.shapes = s->dynamic_dims ? NULL : shapes;
        o.nshapes = s->dynamic_dims ? 0 : nshapes;
        byoc_onnx_model model;
        if (s->ndims && !check_dims(s, path, d)) return NULL;
        if (byoc_onnx_load(path, &o, &model, d) != BYOC_OK) {
            if (d->code != BYOC_ERR_OUT_OF_MEMORY && !s->dynamic_dims) failed_import_dims(s, path, shapes, nshapes);
            return NULL;
        }
        defaulted_dims(model.notes, s->defaulted, sizeof s->defaulted);
        if (info) { *info = model; return model.module; }
        byoc_module *m = model.module;
        byoc_free(m, (void *)model.input_names);
        byoc_free(m, (void *)model.output_names);
        byoc_free(m, (void *)model.notes);
        byoc_free(m, (void *)model.node_spans);
        byoc_free(m, (void *)model.node_ops);
        byoc_free(m, (void *)model.node_folded);
        return m;
    }
    if (!ends_with(path, ".relay")) {
        d->code = BYOC_ERR_UNSUPPORTED;
        snprintf(d->message, sizeof d->message, "%s: unsupported model file (expected FILE.relay or FILE.onnx)", path);
        return NULL;
    }
    if (s->dynamic_dims) { /* a module's types are what its text says */
        d->code = BYOC_ERR_INVALID_ARGUMENT;
        snprintf(d->message, sizeof d->message,
                 "%s: --dynamic-dims: a .relay module has no symbolic dims (write '?' in its types instead)", path);
        return NULL;
    }
    if (s->ndims) { /* a module's types are concrete */
        char text[SHOWN_MAX];
        d->code = BYOC_ERR_INVALID_ARGUMENT;
        snprintf(d->message, sizeof d->message, "%s: --dim %s: a .relay module has no symbolic dims (--dim is for .onnx models)", path,
                 shown(s->dims[0].name, text, sizeof text));
        return NULL;
    }
    return byoc_module_load(path, NULL, d);
}

/* an error after the model loaded: with the symbolic dims taken as 1, which may be why */
static const char *dims_note(const session *s, char *buf, size_t cap) {
    if (!s || !s->defaulted[0]) return "";
    snprintf(buf, cap, " (symbolic dims defaulted: %s; give --dim NAME=V)", s->defaulted);
    return buf;
}
static int model_error(const session *s, const byoc_diag *d) {
    char text[4 * sizeof d->message], note[600];
    fprintf(stderr, "byocc: error: %s%s\n", shown(d->message, text, sizeof text), dims_note(s, note, sizeof note));
    return d->code == BYOC_ERR_OUT_OF_MEMORY || d->code == BYOC_ERR_INTERNAL ? EXIT_INTERNAL : EXIT_INPUT;
}

static byoc_module *load_model(session *s, const char *path, byoc_diag *d) { return load_model_info(s, path, NULL, 0, NULL, d); }

/* --config KEY=VALUE for command cmd */
static int set_config(byoc_pass_context *ctx, const char *cmd, const char *text) {
    char kv[512], msg[1200];
    byoc_diag d;
    snprintf(kv, sizeof kv, "%s", text);
    char *eq = strchr(kv, '=');
    if (!eq) {
        snprintf(msg, sizeof msg, "%s: --config expects KEY=VALUE, got '%s'", cmd, kv);
        return usage_error("%s", msg);
    }
    *eq = 0;
    if (byoc_pass_context_set(ctx, kv, eq + 1, &d) != BYOC_OK) {
        snprintf(msg, sizeof msg, "%s: %s", cmd, d.message);
        return usage_error("%s", msg);
    }
    return EXIT_OK;
}

/* ---- the options: one table, one parser, for every command ---- */
enum { /* the commands, as bits of the option table's masks */
    C_OPT = 1 << 0, C_PARTITION = 1 << 1, C_MATCH = 1 << 2, C_IMPORT = 1 << 3, C_RUN = 1 << 4, C_COMPILE = 1 << 5, C_EXPLAIN = 1 << 6,
    C_BACKENDS = 1 << 7, C_INFO = 1 << 8, C_OPS = 1 << 9, C_PASSES = 1 << 10, C_VERSION = 1 << 11,
    C_QUANTIZE = 1 << 12, C_REPORT = 1 << 13, C_COUNT = 14, C_ALL = (1 << C_COUNT) - 1,
    C_PLACE = C_PARTITION | C_RUN | C_COMPILE | C_REPORT, /* the commands that place ops on backends */
    /* the commands whose report --json prints as one JSON document (where --emit exists: --emit json); a new
       command joins when it writes its report so */
    C_JSON = C_OPT | C_PARTITION | C_MATCH | C_IMPORT | C_RUN | C_COMPILE | C_EXPLAIN | C_BACKENDS | C_INFO | C_OPS |
             C_PASSES | C_VERSION | C_QUANTIZE | C_REPORT
};

/* the commands' names, by bit */
static const char *const command_names[C_COUNT] = {"opt", "partition", "match", "import", "run",
                                                    "compile", "explain", "backends", "info", "ops",
                                                    "passes", "version", "quantize", "report"};

typedef enum option_id {
    O_BACKEND, O_INPUT, O_DIM, O_CONFIG, O_PIN, O_OUT, O_EMIT, O_JSON, O_PRINT_TYPES,
    O_STRATEGY, O_ESTIMATOR, O_COST_CACHE, O_SAVE_PLACEMENT, O_PLACEMENT, O_MAX_DEPTH, O_STATE_BUDGET,
    O_NO_FALLBACK, O_NO_MERGE_REGIONS, O_MIN_PARTITION_OPS, O_MAX_PARTITIONS,
    O_PASSES, O_PRINT_AFTER_ALL, O_PRINT_AFTER, O_TIME_PASSES, O_NO_VERIFY, O_OPT_LEVEL,
    O_PATTERN, O_PATTERN_FILE, O_PARTITION,
    O_OUTPUT_DIR, O_COMPARE_TO, O_TOLERANCE, O_LSB, O_REFERENCE, O_PROFILE, O_TRACE, O_REPEAT, O_THREADS, O_NO_FUSE, O_SIDE_BY_SIDE, O_SOURCE_MAP,
    O_DYNAMIC_DIMS, O_NO_FQ2I, O_FIXED_REQUANTIZE, O_CALIBRATE, O_PER_CHANNEL, O_METHOD, O_ACTIVATION_TYPE
} option_id;

typedef struct option_spec {
    const char *name;  /* "--backend", "-o" */
    option_id id;
    int takes_value;   /* --name VALUE, or --name=VALUE */
    unsigned commands; /* the C_ bits of the commands that take it */
} option_spec;

/* every option of every command (the candidates of a "did you mean" too) */
static const option_spec option_table[] = {
    {"--backend", O_BACKEND, 1, C_OPT | C_PLACE},
    {"--input", O_INPUT, 1, C_IMPORT | C_RUN | C_COMPILE | C_REPORT},
    {"--dim", O_DIM, 1, C_ALL},
    {"--dynamic-dims", O_DYNAMIC_DIMS, 0, C_ALL},
    {"--config", O_CONFIG, 1, C_OPT | C_PARTITION},
    {"--pin", O_PIN, 1, C_PARTITION},
    {"-o", O_OUT, 1, C_OPT | C_PARTITION | C_IMPORT | C_COMPILE | C_QUANTIZE | C_REPORT},
    {"--emit", O_EMIT, 1, C_OPT | C_PARTITION | C_RUN | C_COMPILE | C_INFO},
    {"--json", O_JSON, 0, C_JSON},
    {"--print-types", O_PRINT_TYPES, 0, C_OPT | C_IMPORT},
    {"--strategy", O_STRATEGY, 1, C_PLACE},
    {"--estimator", O_ESTIMATOR, 1, C_PLACE},
    {"--cost-cache", O_COST_CACHE, 1, C_PLACE},
    {"--save-placement", O_SAVE_PLACEMENT, 1, C_PLACE},
    {"--placement", O_PLACEMENT, 1, C_PLACE},
    {"--max-depth", O_MAX_DEPTH, 1, C_PLACE},
    {"--state-budget", O_STATE_BUDGET, 1, C_PLACE},
    {"--no-fallback", O_NO_FALLBACK, 0, C_PARTITION},
    {"--no-merge-regions", O_NO_MERGE_REGIONS, 0, C_PARTITION},
    {"--min-partition-ops", O_MIN_PARTITION_OPS, 1, C_PARTITION},
    {"--max-partitions", O_MAX_PARTITIONS, 1, C_PARTITION},
    {"--no-fq2i", O_NO_FQ2I, 0, C_PLACE},
    {"--fixed-point-requantize", O_FIXED_REQUANTIZE, 0, C_PLACE},
    {"--passes", O_PASSES, 1, C_OPT},
    {"--print-after-all", O_PRINT_AFTER_ALL, 0, C_OPT},
    {"--print-after", O_PRINT_AFTER, 1, C_OPT},
    {"--time-passes", O_TIME_PASSES, 0, C_OPT},
    {"--no-verify", O_NO_VERIFY, 0, C_OPT},
    {"--opt-level", O_OPT_LEVEL, 1, C_OPT},
    {"--pattern", O_PATTERN, 1, C_MATCH},
    {"--pattern-file", O_PATTERN_FILE, 1, C_MATCH},
    {"--partition", O_PARTITION, 1, C_MATCH},
    /* run's options; compile takes them to say they belong to run */
    {"--output-dir", O_OUTPUT_DIR, 1, C_RUN | C_COMPILE},
    {"--compare-to", O_COMPARE_TO, 1, C_RUN | C_COMPILE},
    {"--tolerance", O_TOLERANCE, 1, C_RUN | C_COMPILE},
    {"--lsb", O_LSB, 1, C_RUN | C_COMPILE},
    {"--reference", O_REFERENCE, 1, C_RUN | C_COMPILE},
    {"--profile", O_PROFILE, 0, C_RUN | C_COMPILE},
    {"--trace", O_TRACE, 1, C_RUN | C_COMPILE},
    {"--repeat", O_REPEAT, 1, C_RUN | C_COMPILE | C_REPORT},
    {"--threads", O_THREADS, 1, C_PARTITION | C_RUN | C_COMPILE | C_REPORT},
    {"--no-fuse", O_NO_FUSE, 0, C_RUN | C_COMPILE | C_REPORT},
    {"--side-by-side", O_SIDE_BY_SIDE, 0, C_RUN | C_COMPILE},
    {"--source-map", O_SOURCE_MAP, 1, C_COMPILE},
    {"--calibrate", O_CALIBRATE, 1, C_QUANTIZE},
    {"--per-channel", O_PER_CHANNEL, 0, C_QUANTIZE},
    {"--method", O_METHOD, 1, C_QUANTIZE},
    {"--activation-type", O_ACTIVATION_TYPE, 1, C_QUANTIZE},
};

/* ---- placement strategies: greedy, or the Collage search ---- */
typedef struct strategy_options {
    const char *strategy;       /* "greedy" or "collage" */
    const char *estimator;      /* collage: "analytic" or "measured" */
    const char *cost_cache;     /* measured: the cache file */
    const char *save_placement; /* write the chosen plan */
    const char *placement;      /* replay a saved plan */
    int max_depth, state_budget;
} strategy_options;

/* what the command line asked for (pointers into argv; the backends it opened are in the session) */
typedef struct cli_options {
    const char *cmd; /* the command's name, for messages */
    const char *files[MAX_FILES];
    int nfiles;
    const char *out, *emit; /* -o, --emit (NULL: the command's default) */
    const char *emits[MAX_EMITS]; /* run, compile, info: --emit json|csv[=FILE]... */
    int nemits;
    int json, print_types;
    /* opt */
    const char *passes, *print_after;
    int print_after_all, time_passes, no_verify, opt_level, opt_level_given;
    const char *configs[MAX_CONFIGS];
    int nconfigs;
    /* partition, run, compile */
    strategy_options so;
    int no_fallback, no_merge_regions, min_partition_ops, max_partitions;
    int no_fq2i; /* --no-fq2i: QDQ groups stay dequantize -> float op -> quantize */
    int fixed_requantize; /* --fixed-point-requantize: qnn.requantize in the devices' fixed point everywhere */
    byoc_pin pins[MAX_PINS];
    char pin_text[MAX_PINS][MAX_PIN_TEXT];
    int npins;
    /* match */
    const char *pattern, *pattern_file, *partition;
    /* import, run, compile */
    const char *inputs[MAX_IO]; /* [NAME=]FILE */
    int ninputs;
    const char *output_dir, *compare_to, *reference, *trace, *source_map;
    double tolerance;
    int lsb; /* integer outputs within this many units of the reference (0: exactly) */
    int profile, repeat, no_fuse, side_by_side;
    int threads; /* --threads (0: not given) */
    /* quantize */
    const char *calibrate, *method, *activation_type;
    int per_channel;
} cli_options;

static int parse_count(const char *cmd, const char *text, const char *option, int *out) {
    char *end = NULL, msg[200];
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < 0 || v > MAX_COUNT) {
        snprintf(msg, sizeof msg, "%s: %s expects a count (0 to %d), got '%%s'", cmd, option, MAX_COUNT);
        return usage_error(msg, text);
    }
    *out = (int)v;
    return EXIT_OK;
}

/* a thread count, 1 to 1024 (--threads, BYOC_THREADS) */
static int parse_threads(const char *cmd, const char *option, const char *text, int *out) {
    char *end = NULL, msg[200];
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < 1 || v > 1024) {
        snprintf(msg, sizeof msg, "%s: %s expects a thread count (1 to 1024), got '%%s'", cmd, option);
        return usage_error(msg, text);
    }
    *out = (int)v;
    return EXIT_OK;
}
/* the host kernels' threads: --threads, else BYOC_THREADS, else the online cores; 0 when BYOC_THREADS is bad */
static int host_threads(const cli_options *o) {
    const char *env = getenv("BYOC_THREADS");
    int n = 0;
    if (o->threads) return o->threads;
    if (env && *env) return parse_threads(o->cmd, "BYOC_THREADS", env, &n) == EXIT_OK ? n : 0;
    return byoc_sim_online_cores();
}

/* value must be one of the words of list ("a, b, c") */
static int one_of(const char *cmd, const char *option, const char *value, const char *list) {
    char word[64];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        if (!strcmp(word, value)) return EXIT_OK;
        p += n;
        while (*p == ',' || *p == ' ') p++;
    }
    char msg[300];
    snprintf(msg, sizeof msg, "%s: %s '%%s' is not one of %s", cmd, option, list);
    return usage_error(msg, value);
}

/* --dim NAME=N into the session */
static int take_dim(session *s, const char *kv) {
    const char *eq = strchr(kv, '=');
    char *end = NULL;
    long long v = eq ? strtoll(eq + 1, &end, 10) : 0;
    if (!eq || eq == kv || !end || *end || v < 1 || v > 2147483647LL) return usage_error("--dim expects NAME=N with N >= 1, got '%s'", kv);
    if (s->ndims == MAX_DIMS) {
        char msg[100];
        snprintf(msg, sizeof msg, "at most %d --dim flags%%s", MAX_DIMS);
        return usage_error(msg, "");
    }
    size_t n = (size_t)(eq - kv);
    char *name = (char *)malloc(n + 1);
    if (!name) return EXIT_INTERNAL;
    memcpy(name, kv, n);
    name[n] = 0;
    s->dims[s->ndims].name = name;
    s->dims[s->ndims++].value = v;
    return EXIT_OK;
}

/* --pin NODE=BACKEND */
static int take_pin(cli_options *o, const char *pv) {
    const char *eq = strrchr(pv, '=');
    char msg[200];
    if (!eq || eq == pv || !eq[1]) {
        snprintf(msg, sizeof msg, "%s: --pin expects NODE=BACKEND, got '%%s'", o->cmd);
        return usage_error(msg, pv);
    }
    if (o->npins == MAX_PINS || strlen(pv) >= MAX_PIN_TEXT) {
        snprintf(msg, sizeof msg, "%s: too many or too long pins (at most %d of %d bytes): '%%s'", o->cmd, MAX_PINS, MAX_PIN_TEXT - 1);
        return usage_error(msg, pv);
    }
    char *text = o->pin_text[o->npins];
    snprintf(text, MAX_PIN_TEXT, "%s", pv);
    text[eq - pv] = 0;
    o->pins[o->npins].node = text;
    o->pins[o->npins].backend = text + (eq - pv) + 1;
    o->npins++;
    return EXIT_OK;
}

/* a list option: one more value, up to cap */
static int take_listed(const char *cmd, const char **list, int *count, int cap, const char *what, const char *value) {
    if (*count == cap) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s: at most %d %s%%s", cmd, cap, what);
        return usage_error(msg, "");
    }
    list[(*count)++] = value;
    return EXIT_OK;
}

/* one option with its value (NULL for a flag) into o, or the session */
static int apply_option(session *s, cli_options *o, const option_spec *spec, const char *v) {
    byoc_diag d;
    const char *cmd = o->cmd;
    switch (spec->id) {
    case O_BACKEND: return open_backend(s, v, &d) ? EXIT_OK : input_error(&d);
    case O_INPUT: return take_listed(cmd, o->inputs, &o->ninputs, MAX_IO, "inputs", v);
    case O_DIM: return take_dim(s, v);
    case O_DYNAMIC_DIMS: s->dynamic_dims = 1; break;
    case O_CONFIG: return take_listed(cmd, o->configs, &o->nconfigs, MAX_CONFIGS, "--config options", v);
    case O_PIN: return take_pin(o, v);
    case O_OUT: o->out = v; break;
    case O_EMIT:
        if (o->nemits == MAX_EMITS || (o->nemits && strcmp(cmd, "run") && strcmp(cmd, "compile") && strcmp(cmd, "info")))
            return usage_error("--emit '%s': one --emit at most (run, compile and info take up to 4)", v);
        o->emits[o->nemits++] = v;
        o->emit = o->emits[0];
        break;
    case O_JSON: o->json = 1; break;
    case O_PRINT_TYPES: o->print_types = 1; break;
    case O_STRATEGY: o->so.strategy = v; return one_of(cmd, spec->name, v, "greedy, collage");
    case O_ESTIMATOR: o->so.estimator = v; return one_of(cmd, spec->name, v, "analytic, measured");
    case O_COST_CACHE: o->so.cost_cache = v; break;
    case O_SAVE_PLACEMENT: o->so.save_placement = v; break;
    case O_PLACEMENT: o->so.placement = v; break;
    case O_MAX_DEPTH: return parse_count(cmd, v, spec->name, &o->so.max_depth);
    case O_STATE_BUDGET: return parse_count(cmd, v, spec->name, &o->so.state_budget);
    case O_NO_FALLBACK: o->no_fallback = 1; break;
    case O_NO_MERGE_REGIONS: o->no_merge_regions = 1; break;
    case O_MIN_PARTITION_OPS: return parse_count(cmd, v, spec->name, &o->min_partition_ops);
    case O_MAX_PARTITIONS: return parse_count(cmd, v, spec->name, &o->max_partitions);
    case O_PASSES: o->passes = v; break;
    case O_PRINT_AFTER_ALL: o->print_after_all = 1; break;
    case O_PRINT_AFTER: o->print_after = v; break;
    case O_TIME_PASSES: o->time_passes = 1; break;
    case O_NO_VERIFY: o->no_verify = 1; break;
    case O_OPT_LEVEL: o->opt_level = atoi(v); o->opt_level_given = 1; break;
    case O_PATTERN: o->pattern = v; break;
    case O_PATTERN_FILE: o->pattern_file = v; break;
    case O_PARTITION: o->partition = v; break;
    case O_OUTPUT_DIR: o->output_dir = v; break;
    case O_COMPARE_TO: o->compare_to = v; break;
    case O_TOLERANCE: {
        char *end;
        o->tolerance = strtod(v, &end);
        if (!*v || *end || !(o->tolerance >= 0)) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: --tolerance expects a number >= 0, got '%%s'", cmd);
            return usage_error(msg, v);
        }
        break;
    }
    case O_LSB: {
        char *end;
        long n = strtol(v, &end, 10);
        if (!*v || *end || n < 0 || n > 65535) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: --lsb expects an integer in [0, 65535], got '%%s'", cmd);
            return usage_error(msg, v);
        }
        o->lsb = (int)n;
        break;
    }
    case O_REFERENCE: {
        char msg[200];
        o->reference = v;
        snprintf(msg, sizeof msg, "%s: --reference takes 'host' (the model compiled for the host alone), got '%%s'", cmd);
        return strcmp(v, "host") ? usage_error(msg, v) : EXIT_OK;
    }
    case O_PROFILE: o->profile = 1; break;
    case O_TRACE: o->trace = v; break;
    case O_REPEAT: return parse_count(cmd, v, spec->name, &o->repeat);
    case O_THREADS: return parse_threads(cmd, spec->name, v, &o->threads);
    case O_NO_FUSE: o->no_fuse = 1; break;
    case O_SIDE_BY_SIDE: o->side_by_side = 1; break;
    case O_NO_FQ2I: o->no_fq2i = 1; break;
    case O_FIXED_REQUANTIZE: o->fixed_requantize = 1; break;
    case O_SOURCE_MAP: o->source_map = v; break;
    case O_CALIBRATE: o->calibrate = v; break;
    case O_PER_CHANNEL: o->per_channel = 1; break;
    case O_METHOD: o->method = v; return one_of(cmd, spec->name, v, "minmax, percentile, entropy");
    case O_ACTIVATION_TYPE: o->activation_type = v; return one_of(cmd, spec->name, v, "uint8, int8");
    }
    return EXIT_OK;
}

/* the option named name that command (a C_ bit) takes, NULL for none */
static const option_spec *find_option(const char *name, size_t len, unsigned command) {
    for (size_t k = 0; k < sizeof option_table / sizeof option_table[0]; ++k) {
        const option_spec *spec = &option_table[k];
        if ((spec->commands & command) && strlen(spec->name) == len && !strncmp(spec->name, name, len)) return spec;
    }
    return NULL;
}

/* an argument that is no option of the command: the closest option it takes, or the commands that take it */
static int unknown_option(const char *cmd, const char *arg, unsigned command) {
    char msg[600], name[256], hint[300] = "", others[200] = "";
    suggestion sg;
    memset(&sg, 0, sizeof sg);
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
    for (size_t k = 0; k < sizeof option_table / sizeof option_table[0]; ++k) {
        const option_spec *spec = &option_table[k];
        if (spec->commands & command) suggest(&sg, name, spec->name);
        else if (!strcmp(spec->name, name))
            for (int c = 0; c < C_COUNT; ++c)
                if ((spec->commands >> c & 1u) && strlen(others) + 40 < sizeof others)
                    snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s", others[0] ? ", " : "; it belongs to ", command_names[c]);
    }
    snprintf(msg, sizeof msg, "%s: unknown or incomplete option '%%s'%s", cmd, others[0] ? others : did_you_mean(&sg, hint, sizeof hint));
    return usage_error(msg, arg);
}

/* An output file's directory must be there before the work starts (--output-dir is created instead). */
static int check_output_path(const char *option, const char *path) {
    char dir[4096];
    struct stat st;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!path || !*path || !strcmp(path, "-")) return EXIT_OK;
    if (strlen(path) >= sizeof dir) {
        fprintf(stderr, "byocc: error: %s %s: the path is too long\n", option, path);
        return EXIT_INPUT;
    }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char text[SHOWN_MAX];
        fprintf(stderr, "byocc: error: %s %s: the directory %s %s\n", option, shown(path, text, sizeof text), dir,
                stat(dir, &st) != 0 ? "does not exist" : "is not a directory");
        return EXIT_INPUT;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "byocc: error: %s %s: is a directory\n", option, path);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}
static int check_output_paths(const cli_options *o) {
    int rc = EXIT_OK;
    if (rc == EXIT_OK && strcmp(o->cmd, "explain")) rc = check_output_path("-o", o->out);
    if (rc == EXIT_OK) rc = check_output_path("--trace", o->trace);
    if (rc == EXIT_OK) rc = check_output_path("--save-placement", o->so.save_placement);
    if (rc == EXIT_OK) rc = check_output_path("--source-map", o->source_map);
    for (int k = 0; rc == EXIT_OK && k < o->nemits; ++k)
        if (strchr(o->emits[k], '=')) rc = check_output_path("--emit", strchr(o->emits[k], '=') + 1);
    return rc;
}

/* One spelling of "the report as JSON on standard output": --json, on every command. Where --emit exists
   (opt, partition, run, compile, info) --json is --emit json and --emit json is --json, so each command
   reads o->json for the document on standard output and o->emits for the run summaries' files. */
static int unify_json(cli_options *o, unsigned command) {
    int plain = 0; /* an --emit json without =FILE */
    for (int k = 0; k < o->nemits; ++k) plain |= !strcmp(o->emits[k], "json");
    if (!(find_option("--emit", 6, command))) return EXIT_OK;
    if (plain) o->json = 1;
    if (o->json && !plain) {
        if (o->nemits && (command & (C_OPT | C_PARTITION))) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: --json is --emit json; it does not go with --emit '%%s'", o->cmd);
            return usage_error(msg, o->emits[0]);
        }
        if (o->nemits == MAX_EMITS) return usage_error("--json is one more --emit: at most 4%s", "");
        o->emits[o->nemits++] = "json";
        o->emit = o->emits[0];
    }
    int to_stdout = 0; /* standard output holds one document, so a tool can parse it */
    for (int k = 0; k < o->nemits; ++k) to_stdout += !strchr(o->emits[k], '=');
    if (to_stdout > 1) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "%s: --emit '%%s' and another --emit (or --json) both write standard output (give =FILE)", o->cmd);
        return usage_error(msg, o->emits[0]);
    }
    return EXIT_OK;
}

/* Reads argv (the arguments after the command's name) into o: "--name VALUE", "--name=VALUE", flags, and up to
   max_files positional arguments ("-" is one). Backends are opened and --dim values taken into s as they
   come. */
static int parse_options(session *s, unsigned command, int max_files, int argc, char **argv, cli_options *o) {
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            if (o->nfiles == max_files) {
                char msg[200];
                snprintf(msg, sizeof msg, "%s: %s ('%%s')", o->cmd,
                         max_files == 0 ? "takes no argument" : command == C_EXPLAIN ? "more than one node" : "more than one input file");
                return usage_error(msg, a);
            }
            o->files[o->nfiles++] = a;
            continue;
        }
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL; /* --name=VALUE */
        const option_spec *spec = find_option(a, eq ? (size_t)(eq - a) : strlen(a), command);
        if (!spec || (!spec->takes_value && eq) || (spec->takes_value && !eq && i + 1 >= argc)) return unknown_option(o->cmd, a, command);
        const char *value = !spec->takes_value ? NULL : eq ? eq + 1 : argv[++i];
        int rc = apply_option(s, o, spec, value);
        if (rc != EXIT_OK) return rc;
    }
    return EXIT_OK;
}

static char *read_file_text(const char *path, size_t *len, char *msg, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(msg, cap, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    size_t n = 0, got, want = 1 << 16;
    char *data = NULL;
    for (;;) {
        char *grown = (char *)realloc(data, n + want + 1);
        if (!grown) { free(data); fclose(f); snprintf(msg, cap, "%s: out of memory", path); return NULL; }
        data = grown;
        got = fread(data + n, 1, want, f);
        n += got;
        if (got < want) break;
        if (n > ((size_t)1 << 30)) { free(data); fclose(f); snprintf(msg, cap, "%s: larger than 1 GiB", path); return NULL; }
    }
    fclose(f);
    data[n] = 0;
    *len = n;
    return data;
}

/* --placement FILE: the saved plan, parsed into *arena (the caller destroys it) */
static int read_replay(const char *path, byoc_module **arena, byoc_collage_assignment **list, int *count, byoc_diag *d) {
    char msg[600];
    size_t len = 0;
    char *text = read_file_text(path, &len, msg, sizeof msg);
    *arena = byoc_module_create(NULL);
    if (!text || !*arena) {
        fprintf(stderr, "byocc: error: %s\n", text ? "out of memory" : msg);
        free(text);
        return EXIT_INPUT;
    }
    int rc = EXIT_OK;
    if (byoc_collage_placement_parse(text, len, path, *arena, list, count, d) != BYOC_OK) rc = input_error(d);
    free(text);
    if (rc == EXIT_OK && !*count) {
        fprintf(stderr, "byocc: error: %s: no ops are placed\n", path);
        rc = EXIT_INPUT;
    }
    return rc;
}

/* --save-placement FILE: the chosen plan */
static int save_placement(const char *path, const byoc_collage_stats *st) {
    size_t len = 0;
    int rc = EXIT_OK;
    char *text = byoc_collage_placement_format(st, &len);
    FILE *f = text ? fopen(path, "wb") : NULL;
    if (!f || fwrite(text, 1, len, f) != len) {
        fprintf(stderr, "byocc: error: %s: cannot write the placement: %s\n", path, strerror(errno));
        rc = EXIT_INPUT;
    }
    if (f && fclose(f) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "byocc: error: %s: cannot write the placement: %s\n", path, strerror(errno));
        rc = EXIT_INPUT;
    }
    free(text);
    return rc;
}

/* after a Collage search: the measured estimator's counts, and the plan saved where asked */
static int after_collage(const strategy_options *so, const byoc_collage_stats *st, int measured, int cache_hits) {
    if (so->estimator && !strcmp(so->estimator, "measured"))
        fprintf(stderr, "byocc: measured %d candidates, %d from the cost cache%s%s\n", measured, cache_hits, so->cost_cache ? " " : "",
                so->cost_cache ? so->cost_cache : "");
    return so->save_placement ? save_placement(so->save_placement, st) : EXIT_OK;
}

/* --placement and --save-placement go with the Collage search */
static int check_strategy(const strategy_options *so) {
    if (strcmp(so->strategy, "collage") && (so->placement || so->save_placement)) {
        fprintf(stderr, "byocc: error: --placement and --save-placement need --strategy collage\n");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The library's compile pipeline (byoc_sim_compile) for the opened backends and the strategy options (check: the
   options are checked, and a --placement file is read into *arena, which the caller destroys) */
static int strategy_compile_options(const session *s, const strategy_options *so, int check, byoc_sim_compile_options *co,
                                    byoc_module **arena, byoc_diag *d) {
    memset(co, 0, sizeof *co);
    *arena = NULL;
    if (check && check_strategy(so) != EXIT_OK) return EXIT_USAGE;
    byoc_collage_assignment *replay = NULL;
    if (check && so->placement) {
        int rc = read_replay(so->placement, arena, &replay, &co->nreplay, d);
        if (rc != EXIT_OK) return rc;
    }
    co->backends = s->backends;
    co->nbackends = s->nbackends;
    co->strategy = so->strategy;
    co->estimator = so->estimator;
    co->cost_cache = so->cost_cache;
    co->replay = replay;
    co->max_depth = so->max_depth;
    co->state_budget = so->state_budget;
    return EXIT_OK;
}

/* byoc_sim_compile failed: its error as byocc words it (a replayed plan that no longer fits names its file) */
static int compile_error(const session *s, const strategy_options *so, const byoc_sim_compiled *c, const byoc_diag *d) {
    if (!c || c->failed != BYOC_SIM_STAGE_PLACE) return model_error(s, d);
    if (so->placement && d->code != BYOC_ERR_OUT_OF_MEMORY) {
        fprintf(stderr, "byocc: error: %s: %s\n", so->placement, d->message);
        return EXIT_INPUT;
    }
    return input_error(d);
}

/* partition: after a Collage search, the measured estimator's counts and --save-placement */
typedef struct place_state { const strategy_options *so; int rc; } place_state;
static int partition_on_stage(byoc_sim_compile_stage stage, const char *pass, byoc_module *m, const byoc_sim_compiled *c,
                              void *user_data) {
    place_state *ps = (place_state *)user_data;
    (void)pass, (void)m;
    if (stage == BYOC_SIM_STAGE_PLACE && c->collage) ps->rc = after_collage(ps->so, c->collage, c->measured, c->cache_hits);
    return ps->rc != EXIT_OK;
}

/* ---- opt ---- */
typedef struct print_after { const char *names; int all; unsigned flags; } print_after;

/* --print-after-all / --print-after=NAME: the module after the pass, on stderr like mlir-opt */
static void after_pass(const char *pass, byoc_module *m, double seconds, void *user_data) {
    const print_after *pa = (const print_after *)user_data;
    (void)seconds;
    int wanted = pa->all;
    if (!wanted && pa->names) {
        char list[1024];
        snprintf(list, sizeof list, "%s", pa->names);
        for (char *tok = strtok(list, ","); tok && !wanted; tok = strtok(NULL, ",")) wanted = strcmp(tok, pass) == 0;
    }
    if (!wanted) return;
    char *text = byoc_module_print(m, pa->flags, NULL);
    fprintf(stderr, "// ---- after %s ----\n%s", pass, text ? text : "(out of memory)\n");
    byoc_free(m, text);
}

/* opt --json: what ran (each pass with its CPU seconds, as --time-passes), the module's counts before and
   after, and the module's text (or the file -o wrote) */
static void write_opt_json(const cli_options *o, const byoc_pass_context *ctx, const module_counts *before,
                           const module_counts *after, const char *text) {
    int n = 0;
    const byoc_pass_timing *t = byoc_pass_context_timings(ctx, &n);
    double total = 0;
    char names[1024];
    printf("{\"file\": ");
    json_string_to(stdout, o->files[0]);
    printf(", \"passes\": [");
    snprintf(names, sizeof names, "%s", o->passes ? o->passes : "");
    int k = 0;
    for (char *tok = strtok(names, ","); tok; tok = strtok(NULL, ",")) {
        printf("%s", k++ ? ", " : "");
        json_string_to(stdout, tok);
    }
    printf("], \"ran\": [");
    for (int i = 0; i < n; ++i) {
        printf("%s{\"pass\": ", i ? ", " : "");
        json_string_to(stdout, t[i].pass);
        printf(", \"seconds\": %.9g}", t[i].seconds);
        total += t[i].seconds;
    }
    printf("], \"seconds\": %.9g, \"before\": {", total);
    write_counts_json(stdout, before);
    printf("}, \"after\": {");
    write_counts_json(stdout, after);
    printf("}, \"output\": ");
    json_string_to(stdout, o->out);
    printf(", \"module\": ");
    json_string_to(stdout, text);
    printf("}\n");
}

/* the pass names exist (before any work) */
static int check_pass_names(const char *pass_list) {
    char names[1024];
    int rc = EXIT_OK;
    snprintf(names, sizeof names, "%s", pass_list);
    for (char *tok = strtok(names, ","); tok && rc == EXIT_OK; tok = strtok(NULL, ","))
        if (!byoc_pass_get(tok)) rc = usage_error("opt: unknown pass '%s' (byocc passes lists them)", tok);
    return rc;
}

static void print_pass_times(const byoc_pass_context *ctx) {
    int n;
    const byoc_pass_timing *t = byoc_pass_context_timings(ctx, &n);
    double total = 0;
    for (int i = 0; i < n; ++i) total += t[i].seconds;
    fprintf(stderr, "// pass timings (CPU seconds)\n");
    for (int i = 0; i < n; ++i) fprintf(stderr, "//   %-28s %10.6f\n", t[i].pass, t[i].seconds);
    fprintf(stderr, "//   %-28s %10.6f\n", "total", total);
}

static int cmd_opt(session *s, const cli_options *o) {
    const char *file = o->files[0], *pass_list = o->passes ? o->passes : "", *emit = o->emit ? o->emit : "relay";
    unsigned flags = o->print_types ? BYOC_PRINT_TYPES : 0;
    int rc = EXIT_OK;
    print_after pa = {o->print_after, o->print_after_all, 0};
    byoc_diag d;
    byoc_pass_context *ctx = byoc_pass_context_create();
    byoc_module *m = NULL;
    module_counts before, after;
    memset(&before, 0, sizeof before);
    memset(&after, 0, sizeof after);
    if (!ctx) return EXIT_INTERNAL;
    if (o->opt_level_given) byoc_pass_context_set_opt_level(ctx, o->opt_level);
    for (int k = 0; k < s->nbackends && rc == EXIT_OK; ++k)
        if (byoc_pass_context_add_backend(ctx, s->backends[k]->spec, &d) != BYOC_OK) rc = input_error(&d);
    for (int k = 0; k < o->nconfigs && rc == EXIT_OK; ++k) rc = set_config(ctx, "opt", o->configs[k]);
    if (rc == EXIT_OK && !file) rc = usage_error("opt: no input file%s", "");
    if (rc == EXIT_OK && strcmp(emit, "relay") && strcmp(emit, "json"))
        rc = usage_error("opt: --emit '%s' is not supported (use relay or json)", emit);
    if (rc == EXIT_OK) rc = check_pass_names(pass_list);
    if (rc == EXIT_OK && !(m = load_model(s, file, &d))) rc = model_error(s, &d);
    if (rc == EXIT_OK && o->json) rc = count_module(m, &before);
    if (rc == EXIT_OK) {
        pa.flags = flags;
        byoc_pass_instrument instrument = {after_pass, &pa};
        byoc_pass_context_set_instrument(ctx, &instrument);
        byoc_pass_context_set_verify(ctx, !o->no_verify);
        const char *lists[1] = {pass_list};
        if (byoc_run_passes(m, lists, 1, ctx, &d) != BYOC_OK) rc = model_error(s, &d);
        if (o->time_passes) print_pass_times(ctx);
    }
    if (rc == EXIT_OK && o->json) rc = count_module(m, &after);
    if (rc == EXIT_OK && o->out) {
        if (byoc_module_save(m, o->out, flags, &d) != BYOC_OK) rc = input_error(&d);
        else if (o->json) write_opt_json(o, ctx, &before, &after, NULL);
    } else if (rc == EXIT_OK) {
        size_t len;
        char *text = byoc_module_print(m, flags, &len);
        if (!text) {
            fprintf(stderr, "byocc: error: out of memory printing the module\n");
            rc = EXIT_INTERNAL;
        } else {
            if (o->json) write_opt_json(o, ctx, &before, &after, text);
            else fwrite(text, 1, len, stdout);
            byoc_free(m, text);
        }
    }
    free(before.ops);
    free(after.ops);
    byoc_module_destroy(m);
    byoc_pass_context_destroy(ctx);
    return rc;
}

/* ---- partition ---- */
/* The placement report as text, within 100 columns: the library's report with its table laid out again, each
   column as wide as its widest entry, the last (declined by, composite) wrapped beneath itself. */
static void print_placement_report(const byoc_placement_report *r, const char *text, size_t len) {
    const char *table = strstr(text, "\nnode "), *end = table ? strstr(table + 1, "\n\n") : NULL;
    if (!table || !end || (size_t)(end - text) >= len) { print_wrapped(stdout, text, len, 0); return; }
    print_wrapped(stdout, text, (size_t)(table + 1 - text), 0);
    static const int cap[5] = {16, 24, 28, 10, 32};
    int w[5] = {4, 2, 8, 7, 9};
    char node[80], line[1024], why[768];
    for (int pass = 0; pass < 2; ++pass) {
        if (pass) {
            int n = snprintf(line, sizeof line, "%-*s %-*s %-*s %-*s %-*s ", w[0], "node", w[1], "op", w[2], "frontend", w[3], "backend", w[4], "partition");
            snprintf(line + n, sizeof line - (size_t)n, "declined by");
            print_wrapped_line(stdout, line, strlen(line), 8);
        }
        for (int q = 0; q < r->count; ++q) {
            const byoc_placement *pl = &r->nodes[q];
            if (strcmp(pl->function, "main")) snprintf(node, sizeof node, "@%s:%s", pl->function, pl->label);
            else snprintf(node, sizeof node, "%s", pl->label);
            const char *col[5] = {node, pl->op, pl->source ? pl->source : "-", pl->backend, pl->partition ? pl->partition : "-"};
            if (!pass) {
                for (int c = 0; c < 5; ++c)
                    if ((int)strlen(col[c]) > w[c]) w[c] = (int)strlen(col[c]) < cap[c] ? (int)strlen(col[c]) : cap[c];
                continue;
            }
            size_t used = 0;
            why[0] = 0;
            for (int k = 0; k < pl->ndeclined && used + 8 < sizeof why; ++k)
                used += (size_t)snprintf(why + used, sizeof why - used, "%s%s: %s", k ? "; " : "", pl->declined[k].backend, pl->declined[k].reason);
            if (pl->composite && used < sizeof why) snprintf(why + used, sizeof why - used, "%s(in composite %s)", used ? " " : "", pl->composite);
            else if (!pl->ndeclined) snprintf(why, sizeof why, "-");
            int n = snprintf(line, sizeof line, "%-*s %-*s %-*s %-*s %-*s ", w[0], col[0], w[1], col[1], w[2], col[2], w[3], col[3], w[4], col[4]);
            if (n < 0 || (size_t)n >= sizeof line) n = (int)sizeof line - 1;
            size_t wl = strlen(why) < sizeof line - (size_t)n - 1 ? strlen(why) : sizeof line - (size_t)n - 1;
            memcpy(line + n, why, wl);
            line[(size_t)n + wl] = 0;
            print_wrapped_line(stdout, line, strlen(line), (int)wrap_columns() - n >= 24 ? (size_t)n : 8);
        }
    }
    print_wrapped(stdout, end + 1, len - (size_t)(end + 1 - text), 0);
}

/* partition --json: the library's placement report (one object) with two members added: "search", the
   Collage search's statistics (null under greedy), and "fq2i", the quantized groups FakeQuantizationToInteger
   left in float32, one line each with its reason */
static void write_partition_json(const char *report, size_t len, const char *search, const char *fq2i_notes) {
    while (len && (report[len - 1] == '\n' || report[len - 1] == ' ')) len--;
    if (len && report[len - 1] == '}') len--;
    fwrite(report, 1, len, stdout);
    printf(", \"search\": %s, \"fq2i\": [", search ? search : "null");
    for (const char *line = fq2i_notes; line && *line;) {
        size_t n = strcspn(line, "\n");
        char one[1024];
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), line);
        if (line != fq2i_notes) printf(", ");
        json_string_to(stdout, one);
        line += n + (line[n] == '\n');
    }
    printf("]}\n");
}

static int cmd_partition(session *s, const cli_options *opts) {
    const char *file = opts->files[0], *emit = opts->emit ? opts->emit : "report";
    const strategy_options so = opts->so;
    int rc = EXIT_OK;
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.no_fallback = opts->no_fallback;
    o.no_merge_regions = opts->no_merge_regions;
    o.min_partition_ops = opts->min_partition_ops;
    o.max_partitions = opts->max_partitions;
    byoc_diag d;
    byoc_pass_context *ctx = byoc_pass_context_create();
    if (!ctx) return EXIT_INTERNAL;
    for (int k = 0; k < opts->nconfigs && rc == EXIT_OK; ++k) rc = set_config(ctx, "partition", opts->configs[k]);
    if (rc == EXIT_OK && !file) rc = usage_error("partition: no input file%s", "");
    int collage = !strcmp(so.strategy, "collage");
    if (rc == EXIT_OK && collage && (o.no_fallback || o.min_partition_ops || o.max_partitions || o.no_merge_regions))
        rc = usage_error("partition: %s", "--no-fallback, --min-partition-ops, --max-partitions and --no-merge-regions shape the greedy strategy only");
    if (rc == EXIT_OK && strcmp(emit, "report") && strcmp(emit, "json") && strcmp(emit, "dot") && strcmp(emit, "relay"))
        rc = usage_error("partition: --emit '%s' is not one of report, json, dot, relay", emit);
    byoc_module *m = NULL;
    if (rc == EXIT_OK && !(m = load_model(s, file, &d))) rc = model_error(s, &d);
    /* the graph run compiles: inference simplified (batch norm and dropout gone), constants folded */
    char *fq2i_notes = NULL; /* the groups left in float32, each with its reason: before the report, or in the JSON */
    if (rc == EXIT_OK && !opts->no_fq2i) {
        if (byoc_fake_quantization_to_integer(m, &fq2i_notes, &d) != BYOC_OK) rc = model_error(s, &d);
        for (char *line = fq2i_notes; line && *line && !strcmp(emit, "report");) {
            size_t n = strcspn(line, "\n");
            printf("fq2i: %.*s\n", (int)n, line);
            line += n + (line[n] == '\n');
        }
    }
    /* the library's pipeline up to placement: the preparation, then greedy or the Collage search */
    byoc_sim_compile_options co;
    byoc_module *arena = NULL;
    byoc_sim_compiled *c = NULL;
    place_state ps = {&so, EXIT_OK};
    if (rc == EXIT_OK) rc = strategy_compile_options(s, &so, 1, &co, &arena, &d);
    if (rc == EXIT_OK) {
        o.pins = opts->pins;
        o.npins = opts->npins;
        o.mod_name = byoc_pass_context_string(ctx, "partition_graph.mod_name");
        o.bind_constants = (int)byoc_pass_context_int(ctx, "partition_graph.bind_constants");
        co.partition = &o;
        co.place_only = 1;
        co.threads = host_threads(opts); /* the Collage search's threads */
        if (!co.threads) rc = EXIT_USAGE;
        co.no_fq2i = opts->no_fq2i;
        co.fixed_point_requantize = opts->fixed_requantize;
        co.on_stage = partition_on_stage;
        co.stage_data = &ps;
        if (rc == EXIT_OK && byoc_sim_compile(m, &co, &c, &d) != BYOC_OK)
            rc = ps.rc != EXIT_OK ? ps.rc : compile_error(s, &so, c, &d);
    }
    byoc_module_destroy(arena);
    byoc_collage_stats none;
    memset(&none, 0, sizeof none);
    const byoc_placement_report *rep = c ? c->placement : NULL;
    const byoc_collage_stats *stats = c && c->collage ? c->collage : &none;
    if (rc == EXIT_OK && opts->out && byoc_module_save(m, opts->out, 0, &d) != BYOC_OK) rc = input_error(&d);
    if (rc == EXIT_OK) {
        size_t len = 0;
        char *text = strcmp(emit, "relay") == 0 ? byoc_module_print(m, 0, &len) : byoc_placement_report_format(rep, emit, &len);
        char *search = collage && strcmp(emit, "relay") && strcmp(emit, "dot") ? byoc_collage_stats_format(stats, strcmp(emit, "json") ? "text" : "json", NULL) : NULL;
        if (!text || (collage && strcmp(emit, "relay") && strcmp(emit, "dot") && !search)) {
            fprintf(stderr, "byocc: error: out of memory formatting the result\n");
            rc = EXIT_INTERNAL;
        } else if (!strcmp(emit, "json")) { /* the report's object, with the search's statistics and FQ2I's notes */
            write_partition_json(text, len, search, fq2i_notes);
        } else if (!strcmp(emit, "report")) { /* human text: within 100 columns */
            print_placement_report(rep, text, len);
            if (search) print_wrapped(stdout, search, strlen(search), 0);
        } else {
            fwrite(text, 1, len, stdout);
            if (search) fputs(search, stdout);
        }
        if (text && strcmp(emit, "relay") == 0) byoc_free(m, text);
        else if (text) byoc_free(rep->arena, text);
        free(search);
    }
    byoc_sim_compiled_free(c);
    if (m) byoc_free(m, fq2i_notes);
    byoc_module_destroy(m);
    byoc_pass_context_destroy(ctx);
    return rc;
}

/* ---- match ---- */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *grown = (char *)realloc(buf, cap);
            if (!grown) { free(buf); fclose(f); return NULL; }
            buf = grown;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf && !(buf = (char *)calloc(1, 1))) return NULL;
    buf[len] = 0;
    return buf;
}

/* Prints the matches of p in expr, roots last to first, then those in each control-flow body of expr (each
   body is a dataflow region of its own: a match never straddles its boundary); region names the body ("" for
   @main's own dataflow). found counts the matches so far (JSON objects after the first take a comma).
   Returns 0, or -1 when out of memory. */
static int list_matches(byoc_module *m, byoc_node *main_fn, const byoc_pattern *p, byoc_node *expr, const char *region,
                        int json, int *found) {
    byoc_graph g;
    if (byoc_graph_build(m, expr, 0, &g) != BYOC_OK) return -1;
    for (int i = g.count - 1; i >= 0; --i) {
        byoc_node *n = g.nodes[i].node;
        if (!byoc_pattern_match(p, n, &g, NULL)) continue;
        char label[64];
        byoc_node_label(m, main_fn, n, label, sizeof label);
        const char *what = n->kind == BYOC_NODE_CALL && n->op ? n->op->def.name
                           : n->kind == BYOC_NODE_TUPLE ? "tuple"
                           : n->kind == BYOC_NODE_TUPLE_GET_ITEM ? "tuple_get_item"
                           : n->kind == BYOC_NODE_VAR ? "var"
                           : n->kind == BYOC_NODE_CONSTANT ? "constant"
                           : n->kind == BYOC_NODE_CALL ? "call" : "expression";
        if (json) {
            printf("%s\n  {\"node\": ", *found ? "," : "");
            json_string_to(stdout, label);
            printf(", \"op\": ");
            json_string_to(stdout, what);
            printf(", \"region\": ");
            json_string_to(stdout, region);
            printf("}");
        } else printf("match %s (%s)%s%s\n", label, what, region[0] ? " in " : "", region);
        ++*found;
    }
    int rc = 0;
    for (int i = 0; i < g.count && rc == 0; ++i) {
        byoc_node *n = g.nodes[i].node;
        if (n->kind != BYOC_NODE_IF && n->kind != BYOC_NODE_LET && n->kind != BYOC_NODE_LOOP) continue;
        char label[64], inner[160];
        byoc_node_label(m, main_fn, n, label, sizeof label);
        for (int b = 0; b < n->nparams && rc == 0; ++b) {
            snprintf(inner, sizeof inner, "the %s of %s",
                     n->kind != BYOC_NODE_IF ? "body"
                     : b                     ? "else branch"
                                             : "then branch",
                     label);
            rc = list_matches(m, main_fn, p, n->params[b]->body, inner, json, found);
        }
    }
    byoc_graph_free(&g);
    return rc;
}

/* --partition NAME: each non-overlapping match grouped into fn(...) { ... } with Composite=NAME; the module's
   text (malloc'd by the module), or NULL with the error reported */
static char *partition_matches(byoc_module *m, byoc_node *main_fn, const byoc_pattern *p, const char *composite,
                               int *rc) {
    byoc_diag d;
    byoc_attrs attrs = {NULL, 0};
    byoc_attrs_set_string(m, &attrs, "Composite", composite);
    byoc_node *body = byoc_pattern_partition(m, p, main_fn->body, &attrs, NULL, NULL);
    byoc_node *fn =
        body ? byoc_function(m, main_fn->params, main_fn->nparams, body, main_fn->annotation, &main_fn->attrs) : NULL;
    if (!fn || byoc_module_set_function(m, "main", fn) != BYOC_OK || byoc_infer_type(m, &d) != BYOC_OK) {
        const byoc_diag *e = byoc_module_error(m);
        *rc = input_error(e ? e : &d);
        return NULL;
    }
    char *text = byoc_module_print(m, 0, NULL);
    if (!text) *rc = EXIT_INTERNAL;
    return text;
}

/* match's report: the matches (each with its node, op and region), their count, and with --partition the
   composite's name and the partitioned module's text */
static int report_matches(byoc_module *m, byoc_node *main_fn, const byoc_pattern *p, const cli_options *o,
                          const char *pattern_text) {
    int rc = EXIT_OK, found = 0;
    char *text = NULL;
    if (o->json) {
        printf("{\"file\": ");
        json_string_to(stdout, o->files[0]);
        printf(", \"pattern\": ");
        json_string_to(stdout, pattern_text);
        printf(", \"matches\": [");
    }
    if ((o->json || !o->partition) && list_matches(m, main_fn, p, main_fn->body, "", o->json, &found) < 0)
        return EXIT_INTERNAL;
    if (o->partition && !(text = partition_matches(m, main_fn, p, o->partition, &rc))) return rc;
    if (o->json) {
        printf("%s], \"count\": %d, \"composite\": ", found ? "\n" : "", found);
        json_string_to(stdout, o->partition);
        printf(", \"module\": ");
        json_string_to(stdout, text);
        printf("}\n");
    } else if (text) fputs(text, stdout);
    else printf("%d match%s in @main\n", found, found == 1 ? "" : "es");
    if (text) byoc_free(m, text);
    return rc;
}

static int cmd_match(session *s, const cli_options *o) {
    const char *file = o->files[0], *pattern_text = o->pattern, *pattern_file = o->pattern_file;
    if (!file) return usage_error("match: no input file%s", "");
    if (!pattern_text == !pattern_file) return usage_error("match: give exactly one of --pattern and --pattern-file%s", "");
    byoc_diag d;
    byoc_module *m = load_model(s, file, &d);
    if (!m) return model_error(s, &d);
    int rc = EXIT_OK;
    char *owned = NULL;
    if (pattern_file && !(pattern_text = owned = read_text(pattern_file))) {
        fprintf(stderr, "byocc: error: %s: cannot read the pattern file\n", pattern_file);
        rc = EXIT_INPUT;
    }
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (rc == EXIT_OK && !main_fn) {
        fprintf(stderr, "byocc: error: %s: the module has no @main\n", file);
        rc = EXIT_INPUT;
    }
    if (rc == EXIT_OK && byoc_infer_type(m, &d) != BYOC_OK) rc = input_error(&d);
    byoc_pattern *p = NULL;
    if (rc == EXIT_OK && !(p = byoc_pattern_parse(m, pattern_text, strlen(pattern_text), pattern_file ? pattern_file : "<pattern>", &d)))
        rc = input_error(&d);
    if (rc == EXIT_OK) rc = report_matches(m, main_fn, p, o, pattern_text);
    free(owned);
    byoc_module_destroy(m);
    return rc;
}

/* ---- passes ---- */
static void write_passes_json(void) {
    printf("{\"passes\": [");
    for (int i = 0; i < byoc_pass_count(); ++i) {
        const byoc_pass *p = byoc_pass_at(i);
        printf("%s\n  {\"name\": ", i ? "," : "");
        json_string_to(stdout, p->name);
        printf(", \"opt_level\": %d, \"sequence\": ", p->opt_level);
        json_string_to(stdout, p->run ? NULL : p->sequence);
        printf(", \"requires\": ");
        json_string_to(stdout, p->required);
        printf(", \"doc\": ");
        json_string_to(stdout, p->doc ? p->doc : "");
        printf("}");
    }
    printf("\n], \"config_keys\": [");
    for (int i = 0; i < byoc_config_key_count(); ++i) {
        const byoc_config_key *k = byoc_config_key_at(i);
        printf("%s\n  {\"name\": ", i ? "," : "");
        json_string_to(stdout, k->name);
        printf(", \"default\": ");
        json_string_to(stdout, k->default_text);
        printf(", \"doc\": ");
        json_string_to(stdout, k->doc ? k->doc : "");
        printf("}");
    }
    printf("\n]}\n");
}

static int cmd_passes(session *s, const cli_options *o) {
    (void)s;
    if (o->json) {
        write_passes_json();
        return EXIT_OK;
    }
    printf("passes:\n");
    for (int i = 0; i < byoc_pass_count(); ++i) {
        const byoc_pass *p = byoc_pass_at(i);
        say(stdout, "  %-24s opt_level %d  %s%s%s\n", p->name, p->opt_level, p->doc ? p->doc : "", p->required ? "; requires " : "",
            p->required ? p->required : "");
    }
    printf("config keys (--config KEY=VALUE):\n");
    for (int i = 0; i < byoc_config_key_count(); ++i) {
        const byoc_config_key *k = byoc_config_key_at(i);
        say(stdout, "  %-38s default %-10s %s\n", k->name, k->default_text, k->doc ? k->doc : "");
    }
    return EXIT_OK;
}

/* ---- info ---- */
static int cmd_info_artifact(const cli_options *o, const char *file);

static void print_info_text(byoc_module *m, const char *file, const module_counts *c, const byoc_node *main_fn) {
    char ty[512];
    printf("module %s\n", file);
    printf("functions  %d:", c->functions);
    for (int f = 0; f < c->functions; ++f) printf(" @%s", byoc_module_function_at(m, f).name);
    const int *by_kind = c->by_kind;
    printf("\nnodes      %d (%d calls, %d vars, %d constants, %d tuples, %d projections, %d functions)\n", c->nodes,
           by_kind[BYOC_NODE_CALL], by_kind[BYOC_NODE_VAR], c->constants, by_kind[BYOC_NODE_TUPLE],
           by_kind[BYOC_NODE_TUPLE_GET_ITEM], by_kind[BYOC_NODE_FUNCTION]);
    int control = by_kind[BYOC_NODE_IF] + by_kind[BYOC_NODE_LET] + by_kind[BYOC_NODE_LOOP];
    if (control)
        printf("control    %d (%d if, %d let, %d loop)\n", control, by_kind[BYOC_NODE_IF], by_kind[BYOC_NODE_LET],
               by_kind[BYOC_NODE_LOOP]);
    printf("parameters %d constants, %zu bytes\n", c->constants, c->param_bytes);
    printf("ops        %d distinct\n", c->nops);
    for (int k = 0; k < c->nops; ++k) printf("  %-28s %d\n", c->ops[k].name, c->ops[k].count);
    printf("inputs of @%s\n", main_fn == byoc_module_function(m, "main") ? "main" : byoc_module_function_at(m, 0).name);
    for (int i = 0; i < main_fn->nparams; ++i) {
        byoc_type_to_string(main_fn->params[i]->checked_type, ty, sizeof ty);
        printf("  %%%s: %s\n", main_fn->params[i]->name, ty);
    }
    byoc_type_to_string(main_fn->body->checked_type, ty, sizeof ty);
    printf("output\n  %s\n", ty);
}

static int cmd_info(session *s, const cli_options *o) {
    const char *file = o->files[0];
    if (!file) return usage_error("info: no input file%s", "");
    if (ends_with(file, ".byoc")) return cmd_info_artifact(o, file);
    for (int k = 0; k < o->nemits; ++k) /* --emit json is --json here; the summaries are a compiled model's */
        if (strcmp(o->emits[k], "json"))
            return usage_error("info: --emit json=FILE|csv describes a compiled MODEL.byoc ('%s' is not one; --json "
                               "describes a module)",
                               file);
    byoc_diag d;
    byoc_module *m = load_model(s, file, &d);
    if (!m) return model_error(s, &d);
    if (byoc_infer_type(m, &d) != BYOC_OK) {
        int rc = model_error(s, &d);
        byoc_module_destroy(m);
        return rc;
    }
    if (!byoc_module_function_count(m)) {
        fprintf(stderr, "byocc: error: %s: the module has no functions\n", file);
        byoc_module_destroy(m);
        return EXIT_INPUT;
    }
    module_counts c;
    if (count_module(m, &c) != EXIT_OK) {
        byoc_module_destroy(m);
        return EXIT_INTERNAL;
    }
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) main_fn = byoc_module_function_at(m, 0).function;
    if (o->json) {
        printf("{\"file\": ");
        json_string_to(stdout, file);
        printf(", ");
        write_counts_json(stdout, &c);
        printf(", \"inputs\": [");
        for (int i = 0; i < main_fn->nparams; ++i) {
            printf("%s{\"name\": ", i ? ", " : "");
            json_string_to(stdout, main_fn->params[i]->name);
            printf(", \"type\": ");
            write_type_json(stdout, main_fn->params[i]->checked_type);
            printf("}");
        }
        printf("], \"output\": ");
        write_type_json(stdout, main_fn->body->checked_type);
        printf("}\n");
    } else print_info_text(m, file, &c, main_fn);
    free(c.ops);
    byoc_module_destroy(m);
    return EXIT_OK;
}

/* ---- ops ---- */
static int cmd_ops(session *s, const cli_options *o) {
    int json = o->json;
    (void)s;
    if (json) printf("[");
    for (int i = 0; i < byoc_op_count(); ++i) {
        const byoc_op *op = byoc_op_at(i);
        if (json) {
            printf("%s{\"name\": ", i ? ", " : "");
            json_string_to(stdout, op->def.name);
            printf(", \"pattern\": \"%s\", \"min_args\": %d, \"max_args\": %d, \"attrs\": [", byoc_op_pattern_name(op->def.pattern), op->def.min_args,
                   op->def.max_args);
            for (int a = 0; a < op->def.nattrs; ++a) {
                if (a) printf(", ");
                json_string_to(stdout, op->def.attrs[a].name);
            }
            printf("], \"doc\": ");
            json_string_to(stdout, op->def.doc ? op->def.doc : "");
            printf("}");
        } else {
            char line[2048];
            size_t n = (size_t)snprintf(line, sizeof line, "%-26s %-21s", op->def.name, byoc_op_pattern_name(op->def.pattern));
            for (int a = 0; a < op->def.nattrs && n < sizeof line; ++a)
                n += (size_t)snprintf(line + n, sizeof line - n, " %s=%s", op->def.attrs[a].name,
                                      op->def.attrs[a].default_text ? op->def.attrs[a].default_text : "(required)");
            print_wrapped_line(stdout, line, n < sizeof line ? n : sizeof line - 1, 49);
        }
    }
    if (json) printf("]\n");
    return EXIT_OK;
}

/* ---- tensors in .npy files ---- */
typedef struct npy_array {
    byoc_dtype dtype;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    void *data;   /* malloc'd, little-endian, row-major */
    size_t nbytes;
} npy_array;

static const struct { const char *descr; byoc_dtype dtype; } npy_types[] = {
    {"<f4", BYOC_FLOAT32}, {"<f2", BYOC_FLOAT16}, {"<f8", BYOC_FLOAT64}, {"|i1", BYOC_INT8}, {"|u1", BYOC_UINT8}, {"<i2", BYOC_INT16},
    {"<u2", BYOC_UINT16}, {"<i4", BYOC_INT32}, {"<u4", BYOC_UINT32}, {"<i8", BYOC_INT64}, {"<u8", BYOC_UINT64}, {"|b1", BYOC_BOOL},
};

/* a .npy image in memory (format versions 1-3, C order, little-endian), named path in messages; msg gets the
   reason on failure */
static int npy_parse(const unsigned char *b, size_t len, const char *path, npy_array *a, char *msg, size_t cap) {
    memset(a, 0, sizeof *a);
    if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0 || b[6] < 1 || b[6] > 3) {
        snprintf(msg, cap, "%s: not a .npy file (bad magic or version)", path);
        return 0;
    }
    size_t hlen = (size_t)b[8] | (size_t)b[9] << 8, at = 10;
    if (b[6] >= 2) {
        if (len < 12) { snprintf(msg, cap, "%s: truncated header", path); return 0; }
        hlen |= (size_t)b[10] << 16 | (size_t)b[11] << 24;
        at = 12;
    }
    if (hlen > 1 << 20) { snprintf(msg, cap, "%s: header of %zu bytes is too long", path, hlen); return 0; }
    if (len - at < hlen) { snprintf(msg, cap, "%s: truncated header", path); return 0; }
    char *h = (char *)malloc(hlen + 1);
    if (!h) { snprintf(msg, cap, "%s: out of memory", path); return 0; }
    memcpy(h, b + at, hlen);
    h[hlen] = 0;
    at += hlen;
    const char *descr = strstr(h, "'descr'"), *fo = strstr(h, "'fortran_order'"), *shape = strstr(h, "'shape'");
    int ok = descr && fo && shape;
    if (ok) {
        const char *q = strchr(descr + 7, '\'');
        ok = 0;
        for (size_t k = 0; q && k < sizeof npy_types / sizeof npy_types[0]; ++k)
            if (!strncmp(q + 1, npy_types[k].descr, 3) && q[4] == '\'') { a->dtype = npy_types[k].dtype; ok = 1; }
        if (!ok) {
            char d[16] = "?", text[80];
            if (q) sscanf(q + 1, "%15[^']", d);
            snprintf(msg, cap, "%s: element type '%s' is not supported (float32, float16, float64, int8/16/32/64, uint8/16/32/64, bool)", path,
                     shown(d, text, sizeof text));
            free(h);
            return 0;
        }
    }
    if (ok) { /* 'fortran_order': True */
        const char *v = fo + strlen("'fortran_order'");
        while (*v == ' ' || *v == ':') v++;
        if (!strncmp(v, "True", 4)) { snprintf(msg, cap, "%s: Fortran-order arrays are not supported", path); free(h); return 0; }
    }
    if (ok) { /* (d0, d1, ...) */
        const char *p = strchr(shape, '(');
        ok = p != NULL;
        for (p = p ? p + 1 : p; ok && *p && *p != ')';) {
            while (*p == ' ' || *p == ',') p++;
            if (*p == ')') break;
            char *end;
            long long v = strtoll(p, &end, 10);
            if (end == p || v < 0 || v > BYOC_MAX_DIM || a->rank == BYOC_MAX_RANK) { ok = 0; break; }
            a->dims[a->rank++] = v;
            p = end;
        }
    }
    free(h);
    if (!ok) { snprintf(msg, cap, "%s: unreadable header (descr, fortran_order, shape)", path); return 0; }
    size_t count = 1;
    for (int d = 0; d < a->rank; ++d) {
        if (a->dims[d] && count > ((size_t)1 << 40) / (size_t)a->dims[d]) { snprintf(msg, cap, "%s: too many elements", path); return 0; }
        count *= (size_t)a->dims[d];
    }
    a->nbytes = count * byoc_dtype_size(a->dtype);
    if (len - at < a->nbytes) { snprintf(msg, cap, "%s: holds fewer bytes than its shape needs (%zu)", path, a->nbytes); return 0; }
    if (!(a->data = malloc(a->nbytes ? a->nbytes : 1))) { snprintf(msg, cap, "%s: out of memory for %zu bytes", path, a->nbytes); return 0; }
    if (a->nbytes) memcpy(a->data, b + at, a->nbytes);
    return 1;
}

static int npy_read(const char *path, npy_array *a, char *msg, size_t cap) {
    size_t len = 0;
    char *data = read_file_text(path, &len, msg, cap);
    if (!data) { memset(a, 0, sizeof *a); return 0; }
    int ok = npy_parse((const unsigned char *)data, len, path, a, msg, cap);
    free(data);
    return ok;
}

/* ---- .npz: numpy's zip of .npy files (numpy.savez stores its members; compressed ones are refused) ---- */
static uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return le16(p) | le16(p + 2) << 16; }
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
static uint32_t crc32_of(const unsigned char *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k) c = c >> 1 ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

typedef struct npz_member {
    char name[256];            /* without ".npy" */
    const unsigned char *data; /* in the zip image */
    size_t size;
} npz_member;

/* The zip's end record (and zip64's, which numpy writes): the central directory's entry count and offset. */
static int zip_directory(const unsigned char *z, size_t n, uint64_t *entries, uint64_t *offset) {
    size_t i = n >= 22 ? n - 22 : 0, stop = n > 22 + 65535 ? n - 22 - 65535 : 0;
    for (; n >= 22 && le32(z + i) != 0x06054b50u; --i)
        if (i == stop) return 0;
    if (n < 22) return 0;
    *entries = le16(z + i + 10);
    *offset = le32(z + i + 16);
    if (*offset == 0xffffffffu || *entries == 0xffffu) { /* zip64: the locator before the end record */
        if (i < 20 || le32(z + i - 20) != 0x07064b50u) return 0;
        uint64_t at = le64(z + i - 12);
        if (at > n || n - at < 56 || le32(z + at) != 0x06064b50u) return 0;
        *entries = le64(z + at + 32);
        *offset = le64(z + at + 48);
    }
    return *offset <= n;
}

/* the members of a zip image: every central-directory entry checked against the bytes present, CRC included */
static int npz_members(const char *path, const unsigned char *z, size_t n, npz_member *out, int cap, int *count, char *msg, size_t mcap) {
    uint64_t entries, at;
    *count = 0;
    if (!zip_directory(z, n, &entries, &at)) { snprintf(msg, mcap, "%s: not a zip file (no end of central directory)", path); return 0; }
    for (uint64_t e = 0; e < entries; ++e) {
        if (at > n || n - at < 46 || le32(z + at) != 0x02014b50u) { snprintf(msg, mcap, "%s: entry %llu: bad central directory", path, (unsigned long long)e); return 0; }
        const unsigned char *c = z + at;
        uint32_t method = le16(c + 10), crc = le32(c + 16), nlen = le16(c + 28), xlen = le16(c + 30), clen = le16(c + 32);
        uint64_t csize = le32(c + 20), usize = le32(c + 24), local = le32(c + 42);
        if (n - at - 46 < (uint64_t)nlen + xlen + clen) { snprintf(msg, mcap, "%s: entry %llu: truncated", path, (unsigned long long)e); return 0; }
        for (const unsigned char *x = c + 46 + nlen; x + 4 <= c + 46 + nlen + xlen; x += 4 + le16(x + 2)) { /* zip64 sizes and offset */
            const unsigned char *f = x + 4, *end = x + 4 + le16(x + 2);
            if (le16(x) != 1 || end > c + 46 + nlen + xlen) continue;
            if (usize == 0xffffffffu && f + 8 <= end) usize = le64(f), f += 8;
            if (csize == 0xffffffffu && f + 8 <= end) csize = le64(f), f += 8;
            if (local == 0xffffffffu && f + 8 <= end) local = le64(f);
        }
        char name[300], text[SHOWN_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(nlen < 255 ? nlen : 255), (const char *)c + 46);
        if (method != 0) { /* numpy.savez stores; savez_compressed deflates (method 8) */
            snprintf(msg, mcap, "%s: member %s is compressed (zip method %u%s); only stored members are read: write it with numpy.savez, or unzip it into .npy files",
                     path, shown(name, text, sizeof text), method, method == 8 ? ", deflate: numpy.savez_compressed" : "");
            return 0;
        }
        if (local > n || n - local < 30 || le32(z + local) != 0x04034b50u || n - local - 30 < (uint64_t)le16(z + local + 26) + le16(z + local + 28)) {
            snprintf(msg, mcap, "%s: member %s: bad local header", path, shown(name, text, sizeof text));
            return 0;
        }
        uint64_t data = local + 30 + le16(z + local + 26) + le16(z + local + 28);
        const unsigned char *bytes = z + data;
        if (*count == cap) { snprintf(msg, mcap, "%s: more than %d members", path, cap); return 0; }
        if (csize != usize || n - data < csize || crc32_of(bytes, (size_t)usize) != crc) {
            snprintf(msg, mcap, "%s: member %s: truncated or corrupt (size or CRC)", path, shown(name, text, sizeof text));
            return 0;
        }
        if (ends_with(name, ".npy")) name[strlen(name) - 4] = 0;
        snprintf(out[*count].name, sizeof out[*count].name, "%.255s", name);
        out[*count].data = bytes;
        out[(*count)++].size = (size_t)usize;
        at += 46 + (uint64_t)nlen + xlen + clen;
    }
    return 1;
}

/* a tensor file: .npy, or .pb (a serialized ONNX TensorProto, as in ONNX test data sets) */
static int tensor_read(const char *path, npy_array *a, char *msg, size_t cap) {
    if (!ends_with(path, ".pb")) return npy_read(path, a, msg, cap);
    memset(a, 0, sizeof *a);
    byoc_diag d;
    byoc_module *scratch = byoc_module_create(NULL);
    byoc_node *c = scratch ? byoc_onnx_tensor_read(scratch, path, NULL, &d) : NULL;
    if (!c) {
        snprintf(msg, cap, "%s", scratch ? d.message : "out of memory");
        byoc_module_destroy(scratch);
        return 0;
    }
    a->dtype = c->annotation->dtype;
    a->rank = c->annotation->rank;
    memcpy(a->dims, c->annotation->dims, sizeof a->dims);
    a->nbytes = byoc_constant_nbytes(c);
    a->data = malloc(a->nbytes ? a->nbytes : 1);
    if (a->data && a->nbytes) memcpy(a->data, c->data, a->nbytes);
    byoc_module_destroy(scratch);
    if (!a->data) { snprintf(msg, cap, "%s: out of memory", path); return 0; }
    return 1;
}

static int npy_write(const char *path, const byoc_tensor *t) {
    const char *descr = NULL;
    for (size_t k = 0; k < sizeof npy_types / sizeof npy_types[0]; ++k)
        if (npy_types[k].dtype == t->dtype) descr = npy_types[k].descr;
    if (!descr) return 0;
    char header[512], shape[300] = "";
    size_t used = 0;
    for (int d = 0; d < t->rank; ++d) used += (size_t)snprintf(shape + used, sizeof shape - used, "%lld%s", (long long)t->dims[d], t->rank == 1 ? "," : d + 1 < t->rank ? ", " : "");
    int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape);
    int total = 10 + n + 1, pad = (64 - total % 64) % 64; /* header padded so the data starts 64-byte aligned */
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    unsigned hl = (unsigned)(n + pad + 1);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    size_t count = 1;
    for (int d = 0; d < t->rank; ++d) count *= (size_t)t->dims[d];
    size_t nbytes = count * byoc_dtype_size(t->dtype);
    int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(header, 1, (size_t)n, f) == (size_t)n;
    for (int i = 0; ok && i < pad; ++i) ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF && fwrite(t->data, 1, nbytes, f) == nbytes;
    return fclose(f) == 0 && ok;
}

static void shape_text(byoc_dtype dt, int rank, const int64_t *dims, char *out, size_t cap) {
    size_t used = (size_t)snprintf(out, cap, "(");
    for (int d = 0; d < rank && used < cap; ++d) {
        if (dims[d] == BYOC_DIM_ANY) used += (size_t)snprintf(out + used, cap - used, "?%s", d + 1 < rank ? ", " : "");
        else used += (size_t)snprintf(out + used, cap - used, "%lld%s", (long long)dims[d], d + 1 < rank ? ", " : "");
    }
    if (used < cap) snprintf(out + used, cap - used, ") %s", byoc_dtype_name(dt));
}

/* ---- run ---- */

/* the name a user gives an input: the ONNX input name, the var's name, or its frontend name */
static int input_matches(const byoc_node *param, const char *onnx_name, const char *given) {
    if (onnx_name && strcmp(onnx_name, given) == 0) return 1;
    if (param->name && strcmp(param->name, given) == 0) return 1;
    const char *src = byoc_node_span(param)->source;
    return src && strncmp(src, "onnx:", 5) == 0 && strcmp(src + 5, given) == 0;
}

/* a file name from an output name: path separators and odd characters become '_' */
static void file_safe(const char *name, char *out, size_t cap) {
    size_t i = 0;
    for (; name[i] && i + 1 < cap; ++i) {
        char ch = name[i];
        out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' ? ch : '_';
    }
    out[i] = 0;
}

/* One output's comparison, as run --json gives it ("compare"): the line compare_output prints, in numbers */
typedef struct compare_row {
    char output[300];
    const char *against; /* the reference file, or "the host-only run" */
    const char *rule;    /* "tolerance", "lsb", "exact" or "shape" (the dtype or shape differs) */
    int ok;
    double max_abs, bound, max_rel; /* tolerance: the errors and the bound; lsb: max_abs is the LSB difference */
} compare_row;

/* One output against its reference: float32 / float64 within tol * max(1, max|ref|), integers within lsb (0:
   exactly), other dtypes exactly, and for a classifier-shaped output (one row of scores) the same argmax. Prints
   one line and fills *row; 1 when it holds. */
static int compare_output_line(FILE *f, const char *label, const byoc_tensor *got, const npy_array *ref,
                               const char *ref_path, double tol, int lsb, compare_row *row);
static int compare_output(FILE *f, const char *label, const byoc_tensor *got, const npy_array *ref,
                          const char *ref_path, double tol, int lsb, compare_row *row) {
    memset(row, 0, sizeof *row);
    snprintf(row->output, sizeof row->output, "%s", label);
    row->against = ref_path;
    return row->ok = compare_output_line(f, label, got, ref, ref_path, tol, lsb, row);
}
static int compare_output_line(FILE *f, const char *label, const byoc_tensor *got, const npy_array *ref,
                               const char *ref_path, double tol, int lsb, compare_row *row) {
    char gs[200], rs[200];
    shape_text(got->dtype, got->rank, got->dims, gs, sizeof gs);
    shape_text(ref->dtype, ref->rank, ref->dims, rs, sizeof rs);
    int same_shape = got->dtype == ref->dtype && got->rank == ref->rank && !memcmp(got->dims, ref->dims, sizeof(int64_t) * (size_t)got->rank);
    row->rule = "shape";
    if (!same_shape) {
        say(f, "  %-24s MISMATCH: output %s, reference %s is %s\n", label, gs, ref_path, rs);
        return 0;
    }
    size_t n = ref->nbytes / byoc_dtype_size(ref->dtype);
    byoc_dtype dt = ref->dtype;
    if (lsb > 0 && dt != BYOC_BOOL && dt != BYOC_INT64 && dt != BYOC_UINT64 && !byoc_dtype_is_float(dt)) {
        int64_t worst = 0;
        for (size_t i = 0; i < n; ++i) {
            int64_t e = (int64_t)byoc__load(dt, got->data, (int64_t)i) - (int64_t)byoc__load(dt, ref->data, (int64_t)i);
            if ((e < 0 ? -e : e) > worst) worst = e < 0 ? -e : e;
        }
        say(f, "  %-24s %s %s (within %d LSB: max difference %lld)\n", label, worst <= lsb ? "ok      " : "MISMATCH", gs,
            lsb, (long long)worst);
        row->rule = "lsb";
        row->max_abs = (double)worst;
        row->bound = lsb;
        return worst <= lsb;
    }
    if (dt != BYOC_FLOAT32 && dt != BYOC_FLOAT64) {
        int equal = !ref->nbytes || memcmp(got->data, ref->data, ref->nbytes) == 0;
        say(f, "  %-24s %s %s (exact)\n", label, equal ? "ok      " : "MISMATCH", gs);
        row->rule = "exact";
        return equal;
    }
    double max_abs = 0, max_rel = 0, max_ref = 0;
    size_t arg_got = 0, arg_ref = 0;
    int finite = 1;
    for (size_t i = 0; i < n; ++i) {
        double g = byoc__load(dt, got->data, (int64_t)i), r = byoc__load(dt, ref->data, (int64_t)i);
        if (g != g || r != r) { if ((g != g) != (r != r)) finite = 0; continue; }
        double e = fabs(g - r);
        if (e > max_abs) max_abs = e;
        if (fabs(r) > 0 && e / fabs(r) > max_rel) max_rel = e / fabs(r);
        if (fabs(r) > max_ref) max_ref = fabs(r);
        if (g > byoc__load(dt, got->data, (int64_t)arg_got)) arg_got = i;
        if (r > byoc__load(dt, ref->data, (int64_t)arg_ref)) arg_ref = i;
    }
    double bound = tol * (max_ref > 1 ? max_ref : 1);
    int classifier = n > 1 && (size_t)got->dims[got->rank ? got->rank - 1 : 0] * 1 <= n && n <= 100000 && (got->rank <= 2 || n == (size_t)got->dims[1]);
    int ok = finite && max_abs <= bound && (!classifier || arg_got == arg_ref);
    char argmax[80] = "";
    if (classifier) snprintf(argmax, sizeof argmax, ", argmax %zu (reference %zu)", arg_got, arg_ref);
    say(f, "  %-24s %s %s  max abs err %.3g (bound %.3g), max rel err %.3g%s\n", label, ok ? "ok      " : "MISMATCH", gs, max_abs, bound, max_rel, argmax);
    row->rule = "tolerance";
    row->max_abs = max_abs;
    row->bound = bound;
    row->max_rel = max_rel;
    return ok;
}

static int by_seconds(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static unsigned long long seeded_next(unsigned long long *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The frontend names op calls carry in every function of m, sorted: which ONNX nodes are still there; and the
   edges between differently named calls (producer's name, consumer's name), which name the QDQ group a
   DequantizeLinear or QuantizeLinear merged into. */
typedef struct span_set {
    const char **names;
    int count;
    const char **edge_from, **edge_to;
    int nedges, edge_cap;
} span_set;
static int span_set_edge(span_set *s, const byoc_graph *g, int input, const char *to, int depth) {
    const byoc_node *in = g->nodes[input].node;
    if (in->kind != BYOC_NODE_CALL) { /* through tuples and their fields (concatenate's operands) */
        for (int k = 0; depth < 4 && (in->kind == BYOC_NODE_TUPLE || in->kind == BYOC_NODE_TUPLE_GET_ITEM) &&
                        k < g->nodes[input].ninputs; ++k)
            if (!span_set_edge(s, g, g->nodes[input].inputs[k], to, depth + 1)) return 0;
        return 1;
    }
    const char *from = byoc_node_span(in)->source;
    if (!from || !strcmp(from, to)) return 1;
    if (s->nedges == s->edge_cap) {
        int cap = s->edge_cap ? 2 * s->edge_cap : 256;
        const char **f = (const char **)realloc((void *)s->edge_from, sizeof(char *) * (size_t)cap);
        if (f) s->edge_from = f;
        const char **t = (const char **)realloc((void *)s->edge_to, sizeof(char *) * (size_t)cap);
        if (t) s->edge_to = t;
        if (!f || !t) return 0;
        s->edge_cap = cap;
    }
    s->edge_from[s->nedges] = from;
    s->edge_to[s->nedges++] = to;
    return 1;
}
static int span_set_edges(span_set *s, const byoc_graph *g) {
    for (int i = 0; i < g->count; ++i) {
        const char *to = byoc_node_span(g->nodes[i].node)->source;
        if (!to || g->nodes[i].node->kind != BYOC_NODE_CALL) continue;
        for (int k = 0; k < g->nodes[i].ninputs; ++k)
            if (!span_set_edge(s, g, g->nodes[i].inputs[k], to, 0)) return 0;
    }
    return 1;
}
static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static int span_set_build(byoc_module *m, span_set *s) {
    memset(s, 0, sizeof *s);
    int cap = 0;
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_graph g;
        if (byoc_graph_build(m, byoc_module_function_at(m, f).function, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return 0;
        for (int i = 0; i < g.count; ++i) {
            const byoc_node *n = g.nodes[i].node;
            const char *src = byoc_node_span(n)->source;
            if (n->kind != BYOC_NODE_CALL || !n->op || !src) continue;
            if (s->count == cap) {
                cap = cap ? 2 * cap : 256;
                const char **grown = (const char **)realloc((void *)s->names, sizeof(char *) * (size_t)cap);
                if (!grown) { byoc_graph_free(&g); return 0; }
                s->names = grown;
            }
            s->names[s->count++] = src;
        }
        int edges_ok = span_set_edges(s, &g);
        byoc_graph_free(&g);
        if (!edges_ok) return 0;
    }
    if (s->count) qsort((void *)s->names, (size_t)s->count, sizeof(char *), by_name);
    return 1;
}
static int span_set_has(const span_set *s, const char *name) {
    return s->count && bsearch(&name, (const void *)s->names, (size_t)s->count, sizeof(char *), by_name) != NULL;
}

/* Why each ONNX node the compile pipeline leaves without an op is gone: the import's reason, else the first stage
   after which none of its ops remains. stages[k] holds the spans after stage k. */
#define NSTAGES 9
static const char *const stage_reasons[NSTAGES] = {
    "none of its ops is reachable from the graph outputs after import",
    "merged by FakeQuantizationToInteger into the qnn ops of its QDQ group (they carry the group's op's name)",
    "removed by SimplifyInference (an inference-time no-op)",
    "computed at compile time by FoldConstant (its inputs are constants)",
    "folded into a convolution's or dense layer's weights by FoldScaleAxis",
    "computed at compile time by FoldConstant (its inputs are constants)",
    "removed while partitioning",
    "merged into a neighbouring op by the host rewrites (SimplifyExpr, FoldScaleAxis, LayerNormFusion, GeluFusion)",
    "removed by FuseOps"};
#define STAGE_PARTITIONED 6
#define STAGE_HOST_REWRITTEN 7
#define STAGE_FUSED 8
/* a DequantizeLinear (QuantizeLinear) FakeQuantizationToInteger merged: the nodes it fed (that fed it) name its
   group; NULL when there are none (the stage's plain reason then) */
static char *qdq_merge_reason(const span_set *after_import, const char *name, const char *op) {
    int dequantize = !strcmp(op, "DequantizeLinear");
    if (!dequantize && strcmp(op, "QuantizeLinear")) return NULL;
    char list[400] = "";
    const char *named[8];
    size_t used = 0;
    int n = 0;
    for (int e = 0; e < after_import->nedges && n < 8 && used + 1 < sizeof list; ++e) {
        const char *self = dequantize ? after_import->edge_from[e] : after_import->edge_to[e];
        const char *other = dequantize ? after_import->edge_to[e] : after_import->edge_from[e];
        int seen = 0;
        for (int k = 0; k < n && !seen; ++k) seen = !strcmp(named[k], other);
        if (strcmp(self, name) || seen) continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s", n ? ", " : "", other);
        named[n++] = other;
        if (w > 0) used += (size_t)w;
    }
    if (!n) return NULL;
    size_t cap = strlen(list) + 160;
    char *r = (char *)malloc(cap);
    if (r)
        snprintf(r, cap, "merged by FakeQuantizationToInteger into the qnn ops of %s (its QDQ group; they carry %s)",
                 list, n > 1 ? "those names" : "that name");
    return r;
}
static byoc_sim_source_node *source_nodes_of(const byoc_onnx_model *info, const span_set *stages, char ***owned) {
    byoc_sim_source_node *nodes = (byoc_sim_source_node *)calloc((size_t)info->nnodes + 1, sizeof *nodes);
    *owned = (char **)calloc((size_t)info->nnodes + 1, sizeof(char *));
    if (!nodes || !*owned) { free(nodes); free(*owned); *owned = NULL; return NULL; }
    for (int i = 0; i < info->nnodes; ++i) {
        nodes[i].name = info->node_spans[i];
        nodes[i].op = info->node_ops[i];
        if (span_set_has(&stages[0], nodes[i].name) && !span_set_has(&stages[1], nodes[i].name)) {
            (*owned)[i] = qdq_merge_reason(&stages[0], nodes[i].name, nodes[i].op);
            if ((*owned)[i]) { nodes[i].removed = (*owned)[i]; continue; }
        }
        if (info->node_folded[i]) {
            size_t n = strlen(info->node_folded[i]) + 32;
            char *r = (char *)malloc(n);
            if (r) snprintf(r, n, "folded at import: %s", info->node_folded[i]);
            (*owned)[i] = r;
            nodes[i].removed = r ? r : info->node_folded[i];
            continue;
        }
        for (int k = 0; k < NSTAGES; ++k)
            if (!span_set_has(&stages[k], nodes[i].name)) { nodes[i].removed = stage_reasons[k]; break; }
    }
    return nodes;
}

/* "a\nb\nc" split in place into at most cap names */
static int split_lines(char *text, const char **out, int cap) {
    int n = 0;
    while (text && n < cap) {
        out[n++] = text;
        text = strchr(text, '\n');
        if (text) *text++ = 0;
    }
    return n;
}

static int write_bytes(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "byocc: error: cannot write %s: %s\n", path, strerror(errno));
    return ok;
}

/* run MODEL ..., and compile MODEL -o OUT.byoc (the same pipeline, saved instead of run) */
/* ---- --input [NAME=]FILE: example tensors (import, run, compile) ---- */
typedef struct input_files {
    npy_array arrays[MAX_IO];
    char *names[MAX_IO];       /* NAME of NAME=FILE (malloc'd), NULL for a file given by position */
    const char *paths[MAX_IO]; /* FILE, or FILE.npz:MEMBER */
    char *owned[MAX_IO];       /* the FILE.npz:MEMBER labels */
    byoc_onnx_input_shape shapes[MAX_IO];
    int count, named;
} input_files;

static void input_files_free(input_files *in) {
    for (int k = 0; k < in->count; ++k) {
        free(in->arrays[k].data);
        free(in->names[k]);
        free(in->owned[k]);
    }
    in->count = 0;
}

static char *copy_text(const char *s, size_t n) {
    char *c = (char *)malloc(n + 1);
    if (c) memcpy(c, s, n), c[n] = 0;
    return c;
}

/* one more array: its name (NULL: by position), its file's label */
static int input_files_add(input_files *in, const char *name, size_t name_len, const char *label, int own_label) {
    if (in->count == MAX_IO) {
        fprintf(stderr, "byocc: error: more than %d input arrays\n", MAX_IO);
        return EXIT_USAGE;
    }
    int k = in->count++;
    if ((name && !(in->names[k] = copy_text(name, name_len))) || (own_label && !(in->owned[k] = copy_text(label, strlen(label))))) return EXIT_INTERNAL;
    in->paths[k] = own_label ? in->owned[k] : label;
    in->named += name != NULL;
    return EXIT_OK;
}

/* FILE.npz: each member an input named as the member (numpy's arr_K by position); NAME=FILE.npz: the member NAME,
   or the only one */
static int input_files_npz(input_files *in, const char *name, size_t name_len, const char *path) {
    char msg[1200], label[1400];
    size_t len = 0;
    npz_member members[MAX_IO];
    int count = 0, rc = EXIT_OK, took = 0;
    unsigned char *z = (unsigned char *)read_file_text(path, &len, msg, sizeof msg);
    if (!z || !npz_members(path, z, len, members, MAX_IO, &count, msg, sizeof msg)) rc = EXIT_INPUT;
    for (int m = 0; rc == EXIT_OK && m < count; ++m) {
        if (name && count > 1 && (strlen(members[m].name) != name_len || strncmp(members[m].name, name, name_len))) continue;
        const char *tail = members[m].name + 4;
        int positional = !strncmp(members[m].name, "arr_", 4) && *tail && strspn(tail, "0123456789") == strlen(tail);
        snprintf(label, sizeof label, "%.1000s:%.255s", path, members[m].name);
        rc = input_files_add(in, name ? name : positional ? NULL : members[m].name, name ? name_len : strlen(members[m].name), label, 1);
        if (rc == EXIT_OK && !npy_parse(members[m].data, members[m].size, in->paths[in->count - 1], &in->arrays[in->count - 1], msg, sizeof msg))
            rc = EXIT_INPUT;
        took++;
    }
    if (rc == EXIT_OK && !took) {
        char text[SHOWN_MAX];
        snprintf(msg, sizeof msg, "%s: %s", path, count ? "" : "holds no arrays");
        if (count) snprintf(msg, sizeof msg, "%s: no member named '%s' (%d members)", path, shown(name, text, sizeof text), count);
        rc = EXIT_INPUT;
    }
    if (rc == EXIT_INPUT) fprintf(stderr, "byocc: error: %s\n", msg);
    free(z);
    return rc;
}

/* reads every --input file (specs: [NAME=]FILE); their shapes give ONNX's symbolic dims their values */
static int input_files_read(const char *const *specs, int nspecs, input_files *in) {
    memset(in, 0, sizeof *in);
    for (int i = 0; i < nspecs; ++i) {
        const char *spec = specs[i], *eq = strchr(spec, '='), *path = eq ? eq + 1 : spec;
        char msg[1200];
        int rc = ends_with(path, ".npz") ? input_files_npz(in, eq ? spec : NULL, eq ? (size_t)(eq - spec) : 0, path)
                                         : input_files_add(in, eq ? spec : NULL, eq ? (size_t)(eq - spec) : 0, path, 0);
        if (rc != EXIT_OK) return rc;
        if (!ends_with(path, ".npz") && !tensor_read(path, &in->arrays[in->count - 1], msg, sizeof msg)) {
            fprintf(stderr, "byocc: error: %s\n", msg);
            return EXIT_INPUT;
        }
    }
    for (int k = 0; k < in->count; ++k) {
        in->shapes[k].input = in->names[k];
        in->shapes[k].rank = in->arrays[k].rank;
        memcpy(in->shapes[k].dims, in->arrays[k].dims, sizeof in->shapes[k].dims);
    }
    return EXIT_OK;
}

/* run --compare-to DIR without --input: DIR's inputs, input_K.npy or input_K.pb (the shared models' and ONNX test
   data sets' layout), as the files given by position; 0 when DIR holds none */
static int inputs_of_dir(const char *dir, char **paths, int cap) {
    int n = 0;
    struct stat st;
    if (ends_with(dir, ".npy") || ends_with(dir, ".pb") || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return 0;
    for (; n < cap; ++n) {
        char path[2048];
        snprintf(path, sizeof path, "%s/input_%d.npy", dir, n);
        if (stat(path, &st) != 0) snprintf(path, sizeof path, "%s/input_%d.pb", dir, n);
        if (stat(path, &st) != 0 || !(paths[n] = copy_text(path, strlen(path)))) break;
    }
    return n;
}

/* mkdir -p: dir and its missing parents; 0 (errno set) when it is not a directory after */
static int make_dirs(const char *dir) {
    char path[4096];
    size_t n = strlen(dir);
    if (!n || n >= sizeof path) { errno = ENAMETOOLONG; return 0; }
    memcpy(path, dir, n + 1);
    for (char *p = path + 1;; ++p) {
        if (*p && *p != '/') continue;
        char c = *p;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return 0;
        *p = c;
        if (!c) break;
    }
    struct stat st;
    if (stat(dir, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) { errno = ENOTDIR; return 0; }
    return 1;
}

/* ---- summaries: per device (text, --emit json), per kernel (--emit csv), and --repeat's timing ---- */
/* one device in use: what the kernels placed on it did in the last run */
typedef struct device_row {
    const char *device, *kind;
    int kernels, ops, mac_array;
    uint64_t macs, cycles, dram, mac_capacity; /* mac_capacity: cycles x rows x cols, summed */
    double seconds;
    int64_t sram_bytes, sram_peak; /* -1 when unknown (the host) */
} device_row;

/* The devices the program's kernels ran on, in order of their first kernel, appended to rows[0, n); returns the new
   count. An if or a loop counts the kernels of its bodies instead: the branch it took, or the body times its
   iterations (each iteration's kernels cost what the last one's did: shapes and device costs do not change). */
static int device_rows_of(const byoc_sim_program *p, device_row *rows, int n, int cap, double times) {
    for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
        const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
        if (k->exec == BYOC_SIM_EXEC_CONTROL) {
            int nb = byoc_sim_kernel_body_count(p, i);
            int64_t it = byoc_sim_kernel_iterations(p, i);
            for (int b = 0; b < nb; ++b)
                n = device_rows_of(byoc_sim_kernel_body(p, i, b), rows, n, cap, times * (nb == 2 ? it == b : (double)it));
            continue;
        }
        if (times <= 0) continue;
        int r = 0;
        while (r < n && strcmp(rows[r].device, k->device)) r++;
        if (r == n) {
            if (n == cap) continue;
            memset(&rows[n], 0, sizeof rows[n]);
            rows[n].device = k->device;
            rows[n].kind = k->device_kind ? k->device_kind : "host";
            rows[n].sram_bytes = rows[n].sram_peak = -1;
            n++;
        }
        device_row *d = &rows[r];
        int64_t peak = 0;
        const byoc_sim_device *dev = byoc_sim_kernel_device(p, i, &peak);
        int kind = byoc_sim_device_kind_find(d->kind);
        d->kernels++;
        d->ops += k->nops;
        d->macs += (uint64_t)((double)k->macs * times);
        d->cycles += (uint64_t)((double)k->cycles * times);
        d->dram += (uint64_t)((double)k->dram_bytes * times);
        d->seconds += k->sim_seconds * times;
        if (dev) {
            d->sram_bytes = dev->sram_bytes;
            if (peak > d->sram_peak) d->sram_peak = peak;
            if (kind >= 0 && byoc_sim_device_kind_at(kind)->mac_array) {
                d->mac_array = 1;
                d->mac_capacity += (uint64_t)((double)k->cycles * times) * (uint64_t)dev->rows * (uint64_t)dev->cols;
            }
        }
    }
    return n;
}
static int device_rows(const byoc_sim_program *p, device_row *rows, int cap) { return device_rows_of(p, rows, 0, cap, 1.0); }

/* 1234567 as "1.23 M" (bytes: "1.18 MiB") */
static const char *scaled(double v, int bytes, char *buf, size_t cap) {
    static const char *const units[2][5] = {{"", " k", " M", " G", " T"}, {" B", " KiB", " MiB", " GiB", " TiB"}};
    int u = 0;
    while (v >= (bytes ? 1024.0 : 1000.0) && u < 4) v /= bytes ? 1024.0 : 1000.0, u++;
    snprintf(buf, cap, u ? "%.1f%s" : "%.0f%s", v, units[bytes][u]);
    return buf;
}

/* the per-device table, as Vela's summary gives it: one row per device in use */
static void print_device_summary(FILE *f, const byoc_sim_program *p) {
    device_row rows[MAX_BACKENDS + 1];
    int n = device_rows(p, rows, MAX_BACKENDS + 1);
    double total = byoc_sim_latency(p);
    char a[32], b[32], c[32], sram[80], util[16];
    fprintf(f, "per device (simulated, the last run: %.3f ms; SRAM: peak use of the tiles / size):\n", total * 1e3);
    fprintf(f, "  %-10s %7s %6s %9s %9s %7s  %-21s %11s %8s\n", "device", "kernels", "ops", "MACs", "time ms", "share", "SRAM peak / size", "DRAM", "MAC util");
    for (int r = 0; r < n; ++r) {
        const device_row *d = &rows[r];
        char name[160];
        snprintf(name, sizeof name, strcmp(d->device, d->kind) ? "%s (%s)" : "%s", d->device, d->kind);
        if (d->sram_bytes >= 0) snprintf(sram, sizeof sram, "%s / %s", scaled((double)d->sram_peak, 1, a, sizeof a), scaled((double)d->sram_bytes, 1, b, sizeof b));
        else snprintf(sram, sizeof sram, "-");
        if (d->mac_array && d->mac_capacity) snprintf(util, sizeof util, "%.1f%%", 100.0 * (double)d->macs / (double)d->mac_capacity);
        else snprintf(util, sizeof util, "-");
        fprintf(f, "  %-10s %7d %6d %9s %9.3f %6.1f%%  %-21s %11s %8s\n", name, d->kernels, d->ops, scaled((double)d->macs, 0, c, sizeof c), d->seconds * 1e3,
                total > 0 ? 100 * d->seconds / total : 0.0, sram, scaled((double)d->dram, 1, a, sizeof a), util);
    }
}

/* --repeat N: the timed runs' percentiles and rate, and peak memory */
typedef struct run_timing {
    int runs;
    double p50, p90, p99, min, per_second; /* seconds; inferences per second */
    long peak_rss_kib;                     /* the process's peak resident set (getrusage), -1 if unknown */
} run_timing;

static size_t planned_bytes(const byoc_sim_memory_plan *mp) { return mp->arena_bytes + mp->workspace_bytes + mp->tile_scratch_bytes + mp->output_bytes; }

/* One output as run prints it ("output K NAME: TYPE"), for run --json ("outputs") */
typedef struct output_row {
    char name[300], type[200], file[2048]; /* file: written to --output-dir, else empty */
    int elements;                          /* a sequence's elements (-1: an empty optional); -2 for a tensor */
} output_row;

/* What run adds to its JSON summary: its outputs, --profile's table and the comparisons' lines, in numbers */
typedef struct summary_extras {
    int profile;
    const compare_row *compared;
    int ncompared;
    const output_row *outputs;
    int noutputs;
} summary_extras;

/* "outputs": each output's name and type (a sequence's element count), and the file --output-dir got */
static void write_outputs_json(FILE *f, const output_row *rows, int n) {
    fprintf(f, ", \"outputs\": [");
    for (int r = 0; r < n; ++r) {
        fprintf(f, "%s{\"output\": ", r ? ", " : "");
        json_string_to(f, rows[r].name);
        if (rows[r].elements == -2) {
            fprintf(f, ", \"type\": ");
            json_string_to(f, rows[r].type);
            fprintf(f, ", \"file\": ");
            if (rows[r].file[0]) json_string_to(f, rows[r].file);
            else fprintf(f, "null");
        } else if (rows[r].elements >= 0)
            fprintf(f, ", \"elements\": %d", rows[r].elements);
        else
            fprintf(f, ", \"elements\": null");
        fprintf(f, "}");
    }
    fprintf(f, "]");
}

/* "profile": one object per kernel, the columns of --profile's table (byoc_sim_kernel_info's fields) */
static void write_profile_json(FILE *f, const byoc_sim_program *p) {
    fprintf(f, ", \"profile\": [");
    for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
        const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
        fprintf(f, "%s\n  {\"kernel\": %d, \"name\": ", i ? "," : "", i);
        json_string_to(f, k->name);
        fprintf(f, ", \"device\": ");
        json_string_to(f, k->device);
        fprintf(f, ", \"partition\": ");
        if (k->partition) json_string_to(f, k->partition);
        else fprintf(f, "null");
        fprintf(f, ", \"exec\": ");
        json_string_to(f, byoc_sim_exec_name(k->exec));
        fprintf(f, ", \"ops\": ");
        json_string_to(f, k->ops);
        fprintf(f, ", \"cycles\": %llu, \"simulated_us\": %.6g, \"mac_utilization\": %.4f, \"dram_bytes\": %llu, "
                   "\"transfer_bytes\": %llu, \"runs\": %d, \"wall_us\": %.6g}",
                (unsigned long long)k->cycles, k->sim_seconds * 1e6, k->mac_utilization,
                (unsigned long long)k->dram_bytes, (unsigned long long)k->transfer_bytes, k->runs,
                k->median_seconds * 1e6);
    }
    fprintf(f, "%s]", byoc_sim_kernel_count(p) ? "\n" : "");
}

/* "compare": each output against --compare-to's file or --reference host's run, as its printed line says */
static void write_compare_json(FILE *f, const compare_row *rows, int n) {
    int match = 1;
    fprintf(f, ", \"compare\": [");
    for (int r = 0; r < n; ++r) {
        match &= rows[r].ok;
        fprintf(f, "%s\n  {\"output\": ", r ? "," : "");
        json_string_to(f, rows[r].output);
        fprintf(f, ", \"against\": ");
        json_string_to(f, rows[r].against);
        fprintf(f, ", \"rule\": \"%s\", \"ok\": %s", rows[r].rule, rows[r].ok ? "true" : "false");
        if (!strcmp(rows[r].rule, "tolerance"))
            fprintf(f, ", \"max_abs_err\": %.6g, \"bound\": %.6g, \"max_rel_err\": %.6g", rows[r].max_abs,
                    rows[r].bound, rows[r].max_rel);
        else if (!strcmp(rows[r].rule, "lsb"))
            fprintf(f, ", \"max_abs_err\": %.0f, \"bound\": %.0f", rows[r].max_abs, rows[r].bound);
        fprintf(f, "}");
    }
    fprintf(f, "%s], \"match\": %s", n ? "\n" : "", match ? "true" : "false");
}

/* The summary as one JSON document (README "Summaries"): the model, the devices in use, the memory plan, the
   timing of --repeat, and run's extras (x: NULL for compile and info). */
static void write_summary_json(FILE *f, const char *model, const byoc_sim_program *p, const run_timing *t,
                               const summary_extras *x) {
    device_row rows[MAX_BACKENDS + 1];
    int n = device_rows(p, rows, MAX_BACKENDS + 1);
    double total = byoc_sim_latency(p);
    byoc_sim_memory_plan mp = byoc_sim_memory(p);
    fprintf(f, "{\"model\": ");
    json_string_to(f, model);
    fprintf(f, ", \"kernels\": %d, \"simulated_ms\": %.6g, \"devices\": [", byoc_sim_kernel_count(p), total * 1e3);
    for (int r = 0; r < n; ++r) {
        const device_row *d = &rows[r];
        fprintf(f, "%s\n  {\"device\": ", r ? "," : "");
        json_string_to(f, d->device);
        fprintf(f, ", \"kind\": ");
        json_string_to(f, d->kind);
        fprintf(f, ", \"kernels\": %d, \"ops\": %d, \"macs\": %llu, \"cycles\": %llu, \"simulated_ms\": %.6g, \"share\": %.4f, ", d->kernels, d->ops,
                (unsigned long long)d->macs, (unsigned long long)d->cycles, d->seconds * 1e3, total > 0 ? d->seconds / total : 0.0);
        if (d->sram_bytes >= 0) fprintf(f, "\"sram_bytes\": %lld, \"sram_peak_bytes\": %lld, ", (long long)d->sram_bytes, (long long)d->sram_peak);
        else fprintf(f, "\"sram_bytes\": null, \"sram_peak_bytes\": null, ");
        fprintf(f, "\"dram_bytes\": %llu, \"mac_utilization\": ", (unsigned long long)d->dram);
        if (d->mac_array && d->mac_capacity) fprintf(f, "%.4f}", (double)d->macs / (double)d->mac_capacity);
        else fprintf(f, "null}");
    }
    fprintf(f, "%s], \"memory\": {\"arena_bytes\": %zu, \"workspace_bytes\": %zu, \"tile_scratch_bytes\": %zu, \"output_bytes\": %zu, \"planned_bytes\": %zu}",
            n ? "\n" : "", mp.arena_bytes, mp.workspace_bytes, mp.tile_scratch_bytes, mp.output_bytes, planned_bytes(&mp));
    byoc_sim_class_time classes[16];
    int nclasses = byoc_sim_profile_by_class(p, classes, 16);
    double wall = 0;
    for (int c = 0; c < nclasses; ++c) wall += classes[c].seconds;
    if (wall > 0) { /* the kernels were timed (--repeat, --profile): where the wall time went */
        fprintf(f, ", \"kernel_classes\": [");
        for (int c = 0; c < nclasses; ++c) {
            fprintf(f, "%s{\"class\": ", c ? ", " : "");
            json_string_to(f, classes[c].kernel_class);
            fprintf(f, ", \"kernels\": %d, \"wall_ms\": %.6g, \"share\": %.4f}", classes[c].kernels,
                    classes[c].seconds * 1e3, classes[c].seconds / wall);
        }
        fprintf(f, "]");
    }
    if (t && t->runs) {
        fprintf(f, ", \"timing\": {\"runs\": %d, \"p50_ms\": %.6g, \"p90_ms\": %.6g, \"p99_ms\": %.6g, \"min_ms\": %.6g, \"inferences_per_second\": %.6g, \"peak_rss_bytes\": ",
                t->runs, t->p50 * 1e3, t->p90 * 1e3, t->p99 * 1e3, t->min * 1e3, t->per_second);
        if (t->peak_rss_kib >= 0) fprintf(f, "%lld}", (long long)t->peak_rss_kib * 1024);
        else fprintf(f, "null}");
    }
    if (x && x->outputs) write_outputs_json(f, x->outputs, x->noutputs);
    if (x && x->profile) write_profile_json(f, p);
    if (x && x->ncompared) write_compare_json(f, x->compared, x->ncompared);
    fprintf(f, "}\n");
}

/* a CSV field: quoted when it holds a comma, quote or line break */
static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\r\n")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* one device layer of kernel i as a CSV row: its commands' span in the last run, MACs and DRAM bytes */
static void write_layer_row(FILE *f, const byoc_sim_program *p, int i, const byoc_sim_device_program *dp, int layer) {
    const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
    const byoc_sim_device *dev = byoc_sim_device_of(dp);
    const char *ops = NULL, *name = byoc_sim_device_layer(dp, layer, &ops);
    uint64_t first = UINT64_MAX, last = 0, macs = 0, bytes = 0;
    for (int c = 0; c < byoc_sim_device_command_count(dp); ++c) {
        byoc_sim_command_info ci = byoc_sim_device_command(dp, c);
        if (ci.layer != layer) continue;
        if (ci.start < first) first = ci.start;
        if (ci.start + ci.cycles > last) last = ci.start + ci.cycles;
        macs += ci.macs;
        bytes += ci.bytes;
    }
    uint64_t span = first == UINT64_MAX ? 0 : last - first;
    int kind = byoc_sim_device_kind_find(k->device_kind ? k->device_kind : "host");
    fprintf(f, "%d,%d,", i, layer);
    csv_field(f, k->device);
    fputc(',', f);
    csv_field(f, k->device_kind ? k->device_kind : "host");
    fputc(',', f);
    csv_field(f, name ? name : "");
    fputc(',', f);
    csv_field(f, ops ? ops : "");
    fprintf(f, ",%llu,%.3f,%llu,%llu,", (unsigned long long)span, dev->clock_mhz > 0 ? (double)span / dev->clock_mhz : 0.0,
            (unsigned long long)macs, (unsigned long long)bytes);
    double pes = (double)dev->rows * (double)dev->cols;
    if (kind >= 0 && byoc_sim_device_kind_at(kind)->mac_array && span && pes > 0)
        fprintf(f, "%.4f\n", (double)macs / ((double)span * pes));
    else fprintf(f, "\n");
}

/* one row per layer, as Vela's per-layer report: a device kernel's layers (an anchor op and its fused
   epilogue) each, a host kernel as one */
static void write_layers_csv(FILE *f, const byoc_sim_program *p) {
    fprintf(f, "kernel,layer,device,kind,name,ops,cycles,simulated_us,macs,dram_bytes,mac_utilization\n");
    for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
        const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
        const byoc_sim_device_program *dp = byoc_sim_kernel_program(p, i);
        if (dp && byoc_sim_device_layer_count(dp) > 0) {
            for (int l = 0; l < byoc_sim_device_layer_count(dp); ++l) write_layer_row(f, p, i, dp, l);
            continue;
        }
        char first[256];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(k->name, "+"), k->name);
        fprintf(f, "%d,-,", i);
        csv_field(f, k->device);
        fputc(',', f);
        csv_field(f, k->device_kind ? k->device_kind : "host");
        fputc(',', f);
        csv_field(f, k->partition ? k->partition : first);
        fputc(',', f);
        csv_field(f, k->ops);
        fprintf(f, ",%llu,%.3f,%llu,%llu,\n", (unsigned long long)k->cycles, k->sim_seconds * 1e6, (unsigned long long)k->macs,
                (unsigned long long)k->dram_bytes);
    }
}

/* --emit json|csv[=FILE]: the word must be one of them */
static int check_emits(const cli_options *o) {
    for (int k = 0; k < o->nemits; ++k) {
        size_t n = strcspn(o->emits[k], "=");
        if ((n == 4 && !strncmp(o->emits[k], "json", 4)) || (n == 3 && !strncmp(o->emits[k], "csv", 3))) continue;
        char msg[200];
        snprintf(msg, sizeof msg, "%s: --emit '%%s' is not one of json, csv (FORMAT or FORMAT=FILE)", o->cmd);
        return usage_error(msg, o->emits[k]);
    }
    return EXIT_OK;
}

/* every --emit document: to its file, or to standard output */
static int write_emits(const cli_options *o, const char *model, const byoc_sim_program *p, const run_timing *t,
                       const summary_extras *x) {
    for (int k = 0; k < o->nemits; ++k) {
        const char *eq = strchr(o->emits[k], '=');
        FILE *f = eq ? fopen(eq + 1, "wb") : stdout;
        if (!f) {
            fprintf(stderr, "byocc: error: cannot write %s: %s\n", eq + 1, strerror(errno));
            return EXIT_INPUT;
        }
        if (!strncmp(o->emits[k], "json", 4)) write_summary_json(f, model, p, t, x);
        else write_layers_csv(f, p);
        if (eq && fclose(f) != 0) {
            fprintf(stderr, "byocc: error: cannot write %s: %s\n", eq + 1, strerror(errno));
            return EXIT_INPUT;
        }
    }
    return EXIT_OK;
}

/* an input's dims for a run that makes up its values, a '?' extent taken as 1; returns its bytes */
static size_t made_up_input_dims(const byoc_sim_io *io, int64_t *dims) {
    size_t n = byoc_dtype_size(io->dtype);
    for (int d = 0; d < io->rank; ++d) {
        dims[d] = io->dims[d] == BYOC_DIM_ANY ? 1 : io->dims[d];
        n *= (size_t)dims[d];
    }
    return n;
}

/* one run on zero inputs: the simulated times (the device and host models do not depend on the values); 0 if it failed */
static int run_on_zeros(byoc_sim_program *p) {
    int nin = byoc_sim_input_count(p), ok = nin <= MAX_IO;
    byoc_tensor zeros[MAX_IO];
    byoc_diag d;
    memset(zeros, 0, sizeof zeros);
    for (int i = 0; ok && i < nin; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        zeros[i].dtype = io->dtype;
        zeros[i].rank = io->rank;
        size_t nbytes = made_up_input_dims(io, zeros[i].dims);
        zeros[i].data = calloc(1, nbytes ? nbytes : 1);
        if (!zeros[i].data) ok = 0;
    }
    if (ok && byoc_sim_run(p, zeros, nin, NULL, 0, &d) != BYOC_OK) ok = 0;
    for (int i = 0; i < nin && i < MAX_IO; ++i) free(zeros[i].data);
    return ok;
}

/* ---- run and compile: one job, in steps ---- */
typedef struct run_job {
    session *s;
    const cli_options *o;
    const char *cmd, *file;
    int compile, from_exe, track;
    int place_always; /* report: a placement report even with no backend (every op on the host) */
    byoc_diag d;
    input_files in;
    /* the model and its program */
    byoc_onnx_model info; /* ONNX: the import's facts; an artifact: its input and output names */
    byoc_module *m;
    byoc_sim_executable *exe;
    byoc_sim_program *p;
    byoc_placement_report *rep;
    span_set stages[NSTAGES]; /* compile: the frontend names left after each stage */
    int prepared, stage_rc;   /* compile: preparation passes seen, and a failure recording one */
    char *exe_names;
    const char *exe_io[2 * MAX_IO];
    /* the run */
    byoc_node *main_fn;
    int nin, nout, mismatches;
    byoc_tensor inputs[MAX_IO], outputs[MAX_IO];
    void *seeded[MAX_IO];
    FILE *human;              /* stdout, or stderr when an --emit document goes to stdout */
    run_timing timing;        /* --repeat */
    char *dir_inputs[MAX_IO]; /* --compare-to DIR without --input: DIR's input files */
    int ndir_inputs;
    compare_row compared[2 * MAX_IO]; /* --compare-to's, then --reference host's, for run --json */
    char compared_paths[MAX_IO][2048];
    int ncompared;
    output_row output_rows[MAX_IO]; /* for run --json */
} run_job;

static void run_job_free(run_job *j) {
    input_files_free(&j->in);
    for (int k = 0; k < MAX_IO; ++k) free(j->seeded[k]), free(j->dir_inputs[k]);
    for (int k = 0; k < NSTAGES; ++k) {
        free((void *)j->stages[k].names);
        free((void *)j->stages[k].edge_from);
        free((void *)j->stages[k].edge_to);
    }
    byoc_placement_report_free(j->rep);
    if (j->exe) byoc_sim_executable_destroy(j->exe);
    else {
        byoc_sim_program_destroy(j->p);
        if (j->info.module) byoc_onnx_model_free(&j->info);
        else byoc_module_destroy(j->m);
    }
    free(j->exe_names);
}

/* the options that do not go together */
static int run_job_check(const run_job *j) {
    const cli_options *o = j->o;
    if (!j->file) return usage_error("%s: no input file", j->cmd);
    if (j->compile && !o->out) return usage_error("compile: no output file (-o OUT.byoc)%s", "");
    if (check_emits(o) != EXIT_OK) return EXIT_USAGE;
    if (j->compile && (o->output_dir || o->compare_to || o->trace || o->reference || o->profile || o->repeat || j->from_exe))
        return usage_error("compile: %s", "--output-dir, --compare-to, --trace, --reference, --profile and --repeat belong to run; the input is a model, not a .byoc");
    if (j->from_exe && (o->reference || o->no_fuse || o->side_by_side || strcmp(o->so.strategy, "greedy") || o->so.placement || o->so.save_placement || o->so.estimator))
        return usage_error("run: %s is compiled already: --strategy, --no-fuse, --side-by-side, --reference and the placement options do not apply", j->file);
    return EXIT_OK;
}

/* a compiled artifact: the devices given with --backend must be the ones it was built for */
static int run_job_read_artifact(run_job *j) {
    byoc_sim_runtime_backend offered[MAX_BACKENDS];
    byoc_sim_load_options lo;
    const session *s = j->s;
    memset(&lo, 0, sizeof lo);
    for (int k = 0; k < s->nbackends; ++k) {
        offered[k].name = s->backends[k]->spec->name;
        offered[k].device = s->backends[k]->target ? &s->backends[k]->device : NULL;
    }
    lo.backends = s->nbackends ? offered : NULL;
    lo.nbackends = s->nbackends;
    if (!(lo.threads = host_threads(j->o))) return EXIT_USAGE;
    if (!(j->exe = byoc_sim_executable_read(j->file, &lo, &j->d))) return input_error(&j->d);
    j->m = byoc_sim_executable_module(j->exe);
    j->p = byoc_sim_executable_program(j->exe);
    const char *ins = byoc_sim_executable_info(j->exe, "inputs"), *outs = byoc_sim_executable_info(j->exe, "outputs");
    size_t a = ins ? strlen(ins) + 1 : 0, b = outs ? strlen(outs) + 1 : 0;
    if (!(j->exe_names = (char *)malloc(a + b + 1))) return EXIT_INTERNAL;
    if (ins) memcpy(j->exe_names, ins, a);
    if (outs) memcpy(j->exe_names + a, outs, b);
    j->info.ninputs = ins ? split_lines(j->exe_names, j->exe_io, MAX_IO) : 0;
    j->info.noutputs = outs ? split_lines(j->exe_names + a, j->exe_io + MAX_IO, MAX_IO) : 0;
    j->info.input_names = j->exe_io;
    j->info.output_names = j->exe_io + MAX_IO;
    return EXIT_OK;
}

/* stage k of the compile pipeline is done: compile records which frontend nodes are left */
static int run_job_stage(run_job *j, int k) { return j->track && !span_set_build(j->m, &j->stages[k]) ? EXIT_INTERNAL : EXIT_OK; }

/* the model did not import: an --input file whose shape does not fit an input is named (the importer names the
   input and both shapes: "input 'x' expects (1, 3, 224, 224) float32, given (1, 3, 200, 200)") */
static int input_file_error(run_job *j) {
    const char *given = strstr(j->d.message, ", given (");
    for (int k = 0; given && k < j->in.count; ++k) {
        char have[200];
        shape_text(j->in.arrays[k].dtype, j->in.arrays[k].rank, j->in.arrays[k].dims, have, sizeof have);
        size_t n = strcspn(have, ")") + 1; /* "(1, 3, 200, 200)" */
        if (strncmp(given + 8, have, n) || given[8 + n]) continue;
        size_t used = strlen(j->d.message);
        snprintf(j->d.message + used, sizeof j->d.message - used, " in %s", j->in.paths[k]);
        break;
    }
    return model_error(j->s, &j->d);
}

/* The library's compile pipeline (byoc_sim_compile) reports each stage: compile records which frontend nodes are left
   after each (the source map); after placement come the measured estimator's counts, --save-placement and --profile's
   search statistics. A nonzero return stops the pipeline (j->stage_rc says why). */
static int run_job_on_stage(byoc_sim_compile_stage stage, const char *pass, byoc_module *m, const byoc_sim_compiled *c, void *user_data) {
    run_job *j = (run_job *)user_data;
    (void)pass, (void)m;
    if (j->stage_rc != EXIT_OK) return 1;
    if (stage == BYOC_SIM_STAGE_PREPARE) { /* the first passes of the preparation, one span set each */
        if (j->prepared + 1 < STAGE_PARTITIONED) j->stage_rc = run_job_stage(j, ++j->prepared);
    } else if (stage == BYOC_SIM_STAGE_PLACE && c->collage) {
        j->stage_rc = after_collage(&j->o->so, c->collage, c->measured, c->cache_hits);
        if (j->stage_rc == EXIT_OK && j->o->profile) {
            char *text = byoc_collage_stats_format(c->collage, "text", NULL);
            if (text) print_wrapped(j->human, text, strlen(text), 0);
            free(text);
        }
    } else if (stage == BYOC_SIM_STAGE_TARGET_HOOKS) j->stage_rc = run_job_stage(j, STAGE_PARTITIONED);
    else if (stage == BYOC_SIM_STAGE_HOST_REWRITES) j->stage_rc = run_job_stage(j, STAGE_HOST_REWRITTEN);
    else if (stage == BYOC_SIM_STAGE_FUSE) j->stage_rc = run_job_stage(j, STAGE_FUSED);
    return j->stage_rc != EXIT_OK;
}

/* the model loaded and compiled by the library's pipeline: inference simplified, constants folded, placement, device
   partitions lowered by their target hooks, the host rewrites, FuseOps, lowered to a host program */
static int run_job_compile_model(run_job *j) {
    const cli_options *o = j->o;
    session *s = j->s;
    int rc, unnamed_or_all = j->in.named == j->in.count || j->in.named == 0; /* unnamed files give the shape of the input in their position */
    if (!(j->m = load_model_info(s, j->file, j->in.shapes, unnamed_or_all ? j->in.count : 0, &j->info, &j->d))) return input_file_error(j);
    j->track = j->compile && j->info.node_spans; /* which stage removes each ONNX node, for the source map */
    if ((rc = run_job_stage(j, 0)) != EXIT_OK) return rc;
    byoc_sim_compile_options co;
    byoc_module *arena = NULL; /* a --placement file's plan */
    if ((rc = strategy_compile_options(s, &o->so, s->nbackends > 0, &co, &arena, &j->d)) != EXIT_OK) {
        byoc_module_destroy(arena);
        return rc;
    }
    if (!(co.threads = host_threads(o))) {
        byoc_module_destroy(arena);
        return EXIT_USAGE;
    }
    co.no_fq2i = o->no_fq2i;
    co.fixed_point_requantize = o->fixed_requantize;
    co.no_fuse = o->no_fuse;
    co.side_by_side = o->side_by_side;
    co.always_place = j->place_always; /* report: a host-only placement is still drawn */
    co.on_stage = run_job_on_stage;
    co.stage_data = j;
    byoc_sim_compiled *c = NULL;
    if (byoc_sim_compile(j->m, &co, &c, &j->d) != BYOC_OK) rc = j->stage_rc != EXIT_OK ? j->stage_rc : compile_error(s, &o->so, c, &j->d);
    byoc_module_destroy(arena);
    if (c) { /* the job keeps the program and the placement report */
        j->p = c->program;
        j->rep = c->placement;
        c->program = NULL;
        c->placement = NULL;
    }
    byoc_sim_compiled_free(c);
    return rc;
}

/* compile's summary: sizes, kernels, blobs (one line per backend and target), the source map */
static void print_artifact_summary(FILE *f, const byoc_sim_executable *back, const char *out_path, size_t size) {
    int removed = 0, nodes_seen = 0;
    for (int i = 0; i < byoc_sim_executable_source_count(back); ++i) {
        const byoc_sim_source_entry *e = byoc_sim_executable_source(back, i);
        if (i == 0 || byoc_sim_executable_source(back, i - 1)->frontend != e->frontend) nodes_seen++;
        removed += e->removed != NULL;
    }
    say(f, "%s: %zu bytes: %d kernels, %d device blobs, arena %zu bytes; source map: %d frontend nodes (%d without ops)\n", out_path, size,
           byoc_sim_kernel_count(byoc_sim_executable_program(back)), byoc_sim_executable_blob_count(back),
           byoc_sim_memory(byoc_sim_executable_program(back)).arena_bytes, nodes_seen, removed);
    for (int b = 0; b < byoc_sim_executable_blob_count(back); ++b) {
        const byoc_sim_blob_info *bi = byoc_sim_executable_blob(back, b);
        int seen = 0, count = 0;
        size_t bytes_total = 0;
        for (int c = 0; c < byoc_sim_executable_blob_count(back); ++c) {
            const byoc_sim_blob_info *other = byoc_sim_executable_blob(back, c);
            if (strcmp(other->backend, bi->backend) || strcmp(other->target, bi->target)) continue;
            if (c < b) seen = 1;
            count++;
            bytes_total += other->size;
        }
        if (!seen) say(f, "  %s: %d blob%s, %zu bytes, target %s\n", bi->backend, count, count == 1 ? "" : "s", bytes_total, bi->target);
    }
}

/* compile: save, load back (the loader's checks), write the artifact and the source map */
static int run_job_save(run_job *j) {
    const cli_options *o = j->o;
    int rc = EXIT_OK;
    char **owned = NULL;
    byoc_sim_source_node *nodes = j->track ? source_nodes_of(&j->info, j->stages, &owned) : NULL;
    if (j->track && !nodes) rc = EXIT_INTERNAL;
    byoc_sim_save_options sv;
    memset(&sv, 0, sizeof sv);
    sv.model = j->file;
    sv.strategy = j->s->nbackends ? o->so.strategy : "host";
    sv.source_nodes = nodes;
    sv.nsource_nodes = nodes ? j->info.nnodes : 0;
    sv.placement = j->rep;
    sv.input_names = j->info.input_names;
    sv.ninputs = j->info.ninputs;
    sv.output_names = j->info.output_names;
    sv.noutputs = j->info.noutputs;
    void *bytes = NULL;
    size_t size = 0;
    if (rc == EXIT_OK && byoc_sim_executable_save(j->p, &sv, &bytes, &size, &j->d) != BYOC_OK) rc = input_error(&j->d);
    byoc_sim_executable *back = NULL;
    if (rc == EXIT_OK && !(back = byoc_sim_executable_load(bytes, size, o->out, NULL, &j->d))) {
        char text[4 * sizeof j->d.message];
        fprintf(stderr, "byocc: internal error: the artifact does not load back: %s\n", shown(j->d.message, text, sizeof text));
        rc = EXIT_INTERNAL;
    }
    if (rc == EXIT_OK && !write_bytes(o->out, bytes, size)) rc = EXIT_INPUT;
    char *json = NULL;
    size_t json_len = 0;
    if (rc == EXIT_OK && o->source_map && (!(json = byoc_sim_executable_source_map_json(back, &json_len)) || !write_bytes(o->source_map, json, json_len)))
        rc = EXIT_INPUT;
    if (rc == EXIT_OK) {
        print_artifact_summary(j->human, back, o->out, size);
        byoc_sim_program *bp = byoc_sim_executable_program(back);
        if (run_on_zeros(bp)) { /* the simulated times of one run (the models do not depend on the values) */
            print_device_summary(j->human, bp);
            rc = write_emits(o, j->file, bp, NULL, NULL);
        }
    }
    byoc_sim_executable_free(back, json);
    byoc_sim_executable_destroy(back);
    free(bytes);
    free(nodes);
    for (int i = 0; owned && i < j->info.nnodes; ++i) free(owned[i]);
    free(owned);
    return rc;
}

/* the name of input i: the ONNX (or artifact) input name, else the var's */
static const char *input_name(const run_job *j, int i) { return i < j->info.ninputs ? j->info.input_names[i] : j->main_fn->params[i]->name; }

/* an --input file that names no input (with the closest name), names one twice, or is one too many */
static int report_unplaced_input(const run_job *j, int k, int found) {
    char t1[SHOWN_MAX], t2[SHOWN_MAX], hint[300];
    suggestion sg;
    memset(&sg, 0, sizeof sg);
    fprintf(stderr, "byocc: error: %s: ", j->file);
    if (found >= 0) fprintf(stderr, "input '%s' is given twice (again by %s);", shown(j->in.names[k], t1, sizeof t1), j->in.paths[k]);
    else if (j->in.names[k]) fprintf(stderr, "no input is named '%s' (%s); its inputs:", shown(j->in.names[k], t1, sizeof t1), j->in.paths[k]);
    else fprintf(stderr, "%d --input files for %d inputs (%s is one too many); its inputs:", j->in.count, j->nin, j->in.paths[k]);
    for (int i = 0; found < 0 && i < j->nin; ++i) {
        fprintf(stderr, " %s", shown(input_name(j, i), t2, sizeof t2));
        if (j->in.names[k]) suggest(&sg, j->in.names[k], input_name(j, i));
    }
    fprintf(stderr, "%s\n", did_you_mean(&sg, hint, sizeof hint));
    return EXIT_INPUT;
}

/* each given array goes to the input it names (or, unnamed, to the input in its position) */
static int run_job_bind_given(run_job *j, int *given) {
    for (int k = 0; k < j->in.count; ++k) {
        const npy_array *a = &j->in.arrays[k];
        int found = -1;
        for (int i = 0; i < j->nin && found < 0; ++i)
            if (j->in.names[k] ? input_matches(j->main_fn->params[i], i < j->info.ninputs ? j->info.input_names[i] : NULL, j->in.names[k]) : i == k) found = i;
        if (found < 0 || given[found] >= 0) return report_unplaced_input(j, k, found);
        const byoc_sim_io *io = byoc_sim_input(j->p, found);
        int fits = io->dtype == a->dtype && io->rank == a->rank;
        for (int d = 0; fits && d < io->rank; ++d) /* a '?' extent takes any */
            fits = io->dims[d] == BYOC_DIM_ANY || io->dims[d] == a->dims[d];
        if (!fits) {
            char want[200], have[200], text[SHOWN_MAX];
            shape_text(io->dtype, io->rank, io->dims, want, sizeof want);
            shape_text(a->dtype, a->rank, a->dims, have, sizeof have);
            char note[600];
            fprintf(stderr, "byocc: error: input '%s' expects %s, %s holds %s%s\n", shown(input_name(j, found), text, sizeof text), want, j->in.paths[k], have,
                    dims_note(j->s, note, sizeof note));
            return EXIT_INPUT;
        }
        given[found] = k;
        j->inputs[found].dtype = a->dtype;
        j->inputs[found].rank = a->rank;
        memcpy(j->inputs[found].dims, a->dims, sizeof j->inputs[found].dims);
        j->inputs[found].data = a->data;
    }
    return EXIT_OK;
}

/* the inputs: the given ones, and when none is given seeded values (for timing) */
static int run_job_bind_inputs(run_job *j) {
    int given[MAX_IO], rc;
    j->main_fn = byoc_module_function(j->m, "main");
    j->nin = byoc_sim_input_count(j->p);
    if (j->nin > MAX_IO || !j->main_fn || j->nin != j->main_fn->nparams) {
        fprintf(stderr, "byocc: error: %s: run takes at most %d tensor inputs (this module has %d, or tuple-typed ones)\n", j->file, MAX_IO, j->nin);
        return EXIT_INPUT;
    }
    for (int i = 0; i < MAX_IO; ++i) given[i] = -1;
    if ((rc = run_job_bind_given(j, given)) != EXIT_OK) return rc;
    for (int i = 0; i < j->nin; ++i) {
        if (given[i] >= 0) continue;
        const byoc_sim_io *io = byoc_sim_input(j->p, i);
        char want[200], name[SHOWN_MAX];
        shape_text(io->dtype, io->rank, io->dims, want, sizeof want);
        shown(input_name(j, i), name, sizeof name);
        if (j->in.count) {
            char note[600];
            fprintf(stderr, "byocc: error: input '%s' (%s) is not given: --input %s=FILE.npy%s\n", name, want, name, dims_note(j->s, note, sizeof note));
            return EXIT_INPUT;
        }
        int64_t dims[BYOC_MAX_RANK];
        size_t nbytes = made_up_input_dims(io, dims);
        fprintf(stderr, "byocc: note: input '%s' (%s) not given: seeded values%s\n", name, want,
                nbytes != io->nbytes ? " ('?' extents taken as 1)" : "");
        if (!(j->seeded[i] = malloc(nbytes ? nbytes : 1))) return EXIT_INTERNAL;
        unsigned long long seed = 0x9e3779b97f4a7c15ULL + (unsigned long long)i;
        size_t count = nbytes / byoc_dtype_size(io->dtype);
        for (size_t e = 0; e < count; ++e) {
            unsigned long long r = seeded_next(&seed);
            if (byoc_dtype_is_float(io->dtype)) byoc__store(io->dtype, j->seeded[i], (int64_t)e, (double)(r >> 11) / 9007199254740992.0 - 0.5);
            else byoc__store(io->dtype, j->seeded[i], (int64_t)e, (double)(r % (byoc_dtype_size(io->dtype) >= 4 ? 4 : 2)));
        }
        j->inputs[i].dtype = io->dtype;
        j->inputs[i].rank = io->rank;
        memcpy(j->inputs[i].dims, dims, sizeof(int64_t) * (size_t)io->rank);
        j->inputs[i].data = j->seeded[i];
    }
    return EXIT_OK;
}

/* --repeat N: percentiles of the timed runs (nearest rank), their rate, and peak memory: the memory plan's, and the
   process's resident set as getrusage reports it */
static void report_timing(run_job *j, double *times, int runs) {
    run_timing *t = &j->timing;
    double sum = 0;
    qsort(times, (size_t)runs, sizeof(double), by_seconds);
    for (int r = 0; r < runs; ++r) sum += times[r];
    t->runs = runs;
    t->p50 = times[(runs * 50 + 99) / 100 - 1];
    t->p90 = times[(runs * 90 + 99) / 100 - 1];
    t->p99 = times[(runs * 99 + 99) / 100 - 1];
    t->min = times[0];
    t->per_second = sum > 0 ? runs / sum : 0;
    t->peak_rss_kib = -1;
#if defined(__unix__) || defined(__APPLE__)
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) t->peak_rss_kib = (long)usage.ru_maxrss;
#if defined(__APPLE__)
    t->peak_rss_kib /= 1024; /* bytes there */
#endif
#endif
    byoc_sim_memory_plan mp = byoc_sim_memory(j->p);
    char a[32], b[32];
    say(j->human, "time: %d run%s%s: p50 %.4f ms, p90 %.4f ms, p99 %.4f ms, min %.4f ms; %.1f inferences/s\n", runs, runs == 1 ? "" : "s",
        runs > 1 ? " after a warm-up" : "", 1e3 * t->p50, 1e3 * t->p90, 1e3 * t->p99, 1e3 * t->min, t->per_second);
    say(j->human, "memory: %s planned (the memory plan: arena %zu + workspace %zu + tile scratch %zu + outputs %zu bytes); process peak RSS %s%s\n",
        scaled((double)planned_bytes(&mp), 1, a, sizeof a), mp.arena_bytes, mp.workspace_bytes, mp.tile_scratch_bytes, mp.output_bytes,
        t->peak_rss_kib >= 0 ? scaled((double)t->peak_rss_kib * 1024, 1, b, sizeof b) : "unknown", t->peak_rss_kib >= 0 ? " (getrusage)" : "");
}

/* the runs: one, or --repeat N timed ones after a warm-up (--profile: ten after a warm-up) */
static int run_job_execute(run_job *j) {
    const cli_options *o = j->o;
    int rc = EXIT_OK, runs = o->repeat ? o->repeat : o->profile ? 10 : 1;
    for (int i = 0; i < byoc_sim_input_count(j->p); ++i)
        if (byoc_sim_input(j->p, i)->boxed) {
            fprintf(stderr, "byocc: error: %s: input %d (%s) is a sequence or an optional: byocc run feeds tensors "
                            "only (the C API takes a byoc_sim_sequence)\n", j->file, i, byoc_sim_input(j->p, i)->name);
            return EXIT_INPUT;
        }
    j->nout = byoc_sim_output_count(j->p);
    if (j->nout > MAX_IO) {
        fprintf(stderr, "byocc: error: %s: %d outputs (at most %d)\n", j->file, j->nout, MAX_IO);
        return EXIT_INPUT;
    }
    if (o->profile) { /* one warm-up run: first-touch page faults are not the kernels' time */
        if (byoc_sim_run(j->p, j->inputs, j->nin, j->outputs, j->nout, &j->d) != BYOC_OK) return model_error(j->s, &j->d);
        byoc_sim_profile_reset(j->p);
    }
    double *times = (double *)calloc((size_t)runs, sizeof(double));
    if (!times) return EXIT_INTERNAL;
    if (o->repeat > 1 && byoc_sim_run(j->p, j->inputs, j->nin, j->outputs, j->nout, &j->d) != BYOC_OK) rc = model_error(j->s, &j->d); /* warm-up */
    for (int r = 0; rc == EXIT_OK && r < runs; ++r) {
        double t0 = BYOC_SIM_CLOCK();
        if (byoc_sim_run(j->p, j->inputs, j->nin, j->outputs, j->nout, &j->d) != BYOC_OK) rc = model_error(j->s, &j->d);
        times[r] = BYOC_SIM_CLOCK() - t0;
    }
    if (rc == EXIT_OK && o->repeat > 0) report_timing(j, times, runs);
    free(times);
    return rc;
}

/* output k's label: its name, else output_K */
static void output_label(const run_job *j, int k, char *label, size_t cap) {
    snprintf(label, cap, "%s", k < j->info.noutputs ? j->info.output_names[k] : "");
    if (!label[0]) snprintf(label, cap, "output_%d", k);
}

/* the reference file of output k under --compare-to; ref_path empty (and a message) when there is none */
static int find_reference(const run_job *j, int k, const char *label, const char *safe, char *ref_path, size_t cap) {
    const char *dir = j->o->compare_to;
    char path[2048], text[SHOWN_MAX];
    ref_path[0] = 0;
    if (ends_with(dir, ".npy") || ends_with(dir, ".pb")) {
        if (j->nout != 1) {
            fprintf(stderr, "byocc: error: --compare-to FILE needs a model with one output (this one has %d); give a directory\n", j->nout);
            return EXIT_USAGE;
        }
        snprintf(ref_path, cap, "%s", dir);
        return EXIT_OK;
    }
    /* DIR/NAME.npy, else DIR/ort_output_K.npy, output_K.npy, expected_K.npy, output_K.pb */
    static const char *const forms[5] = {"%s/%s.npy", "%s/ort_output_%d.npy", "%s/output_%d.npy", "%s/expected_%d.npy", "%s/output_%d.pb"};
    for (int f = 0; f < 5 && !ref_path[0]; ++f) {
        if (f == 0) snprintf(path, sizeof path, forms[0], dir, safe);
        else snprintf(path, sizeof path, forms[f], dir, k);
        FILE *probe = fopen(path, "rb");
        if (probe) { fclose(probe); snprintf(ref_path, cap, "%s", path); }
    }
    if (ref_path[0]) return EXIT_OK;
    fprintf(stderr, "byocc: error: no reference for output %d (%s) in %s (looked for %s.npy, ort_output_%d.npy, output_%d.npy, expected_%d.npy, output_%d.pb)\n", k,
            shown(label, text, sizeof text), dir, safe, k, k, k, k);
    return EXIT_INPUT;
}

/* an output that is a sequence or an optional: each element printed and written to --output-dir as
   NAME_K.npy; --compare-to and --reference compare tensors only */
static int run_job_boxed_output(run_job *j, int k, const char *label, const char *safe) {
    const cli_options *o = j->o;
    int n = byoc_sim_output_elements(j->p, k);
    if (o->compare_to || o->reference) {
        fprintf(stderr, "byocc: error: output %d (%s) is a sequence or an optional: --compare-to and --reference "
                        "compare tensor outputs only\n", k, label);
        return EXIT_INPUT;
    }
    if (n < 0) say(j->human, "output %d %s: an empty optional\n", k, label);
    else say(j->human, "output %d %s: %d element%s\n", k, label, n, n == 1 ? "" : "s");
    for (int e = 0; e < n; ++e) {
        byoc_tensor t;
        char shape[200], path[2048];
        if (byoc_sim_output_element(j->p, k, e, &t, &j->d) != BYOC_OK) return model_error(j->s, &j->d);
        shape_text(t.dtype, t.rank, t.dims, shape, sizeof shape);
        say(j->human, "  element %d: %s\n", e, shape);
        if (!o->output_dir) continue;
        snprintf(path, sizeof path, "%s/%s_%d.npy", o->output_dir, safe, e);
        if (!npy_write(path, &t)) { fprintf(stderr, "byocc: error: cannot write %s\n", path); return EXIT_INPUT; }
    }
    return EXIT_OK;
}

/* each output: printed (shape), written to --output-dir, compared with --compare-to's reference */
static int run_job_outputs(run_job *j) {
    const cli_options *o = j->o;
    for (int k = 0; k < j->nout; ++k) {
        char label[300], safe[300], path[2048], shape[200], ref_path[2048];
        output_row *row = &j->output_rows[k];
        output_label(j, k, label, sizeof label);
        file_safe(label, safe, sizeof safe);
        snprintf(row->name, sizeof row->name, "%s", label);
        if (byoc_sim_output(j->p, k)->boxed) {
            int rc = run_job_boxed_output(j, k, label, safe);
            if (rc != EXIT_OK) return rc;
            row->elements = byoc_sim_output_elements(j->p, k);
            continue;
        }
        shape_text(j->outputs[k].dtype, j->outputs[k].rank, j->outputs[k].dims, shape, sizeof shape);
        snprintf(row->type, sizeof row->type, "%s", shape);
        row->elements = -2;
        if (!o->compare_to) say(j->human, "output %d %s: %s\n", k, label, shape);
        if (o->output_dir) {
            snprintf(path, sizeof path, "%s/%s.npy", o->output_dir, safe);
            if (!npy_write(path, &j->outputs[k])) { fprintf(stderr, "byocc: error: cannot write %s\n", path); return EXIT_INPUT; }
            snprintf(row->file, sizeof row->file, "%s", path);
        }
        if (!o->compare_to) continue;
        int rc = find_reference(j, k, label, safe, ref_path, sizeof ref_path);
        if (rc != EXIT_OK) return rc;
        npy_array ref;
        char msg[1200];
        if (!tensor_read(ref_path, &ref, msg, sizeof msg)) { fprintf(stderr, "byocc: error: %s\n", msg); return EXIT_INPUT; }
        if (k == 0) say(j->human, "%s against %s (tolerance %g x max(1, max|reference|)):\n", j->file, o->compare_to, o->tolerance);
        snprintf(j->compared_paths[k], sizeof j->compared_paths[k], "%s", ref_path);
        j->mismatches += !compare_output(j->human, label, &j->outputs[k], &ref, j->compared_paths[k], o->tolerance,
                                         o->lsb, &j->compared[j->ncompared++]);
        free(ref.data);
    }
    return EXIT_OK;
}

/* --reference host: the same inputs through the model compiled for the host alone */
static int run_job_reference(run_job *j) {
    const cli_options *o = j->o;
    int rc = EXIT_OK, ref_mismatches = 0;
    byoc_onnx_model rinfo;
    memset(&rinfo, 0, sizeof rinfo);
    byoc_module *rm = load_model_info(j->s, j->file, j->in.shapes, j->in.named == j->in.count || j->in.named == 0 ? j->in.count : 0, &rinfo, &j->d);
    byoc_sim_compile_options ro; /* the library's pipeline without backends */
    memset(&ro, 0, sizeof ro);
    ro.no_fq2i = o->no_fq2i;
    ro.fixed_point_requantize = o->fixed_requantize;
    ro.no_fuse = o->no_fuse;
    byoc_sim_compiled *rc_host = NULL;
    byoc_tensor routs[MAX_IO];
    if (!rm || byoc_sim_compile(rm, &ro, &rc_host, &j->d) != BYOC_OK ||
        byoc_sim_run(rc_host->program, j->inputs, j->nin, routs, j->nout, &j->d) != BYOC_OK)
        rc = input_error(&j->d);
    if (rc == EXIT_OK) say(j->human, "%s against the host-only run (tolerance %g x max(1, max|reference|)):\n", j->file, o->tolerance);
    for (int k = 0; rc == EXIT_OK && k < j->nout; ++k) {
        char label[300];
        output_label(j, k, label, sizeof label);
        npy_array ref;
        memset(&ref, 0, sizeof ref);
        ref.dtype = routs[k].dtype;
        ref.rank = routs[k].rank;
        memcpy(ref.dims, routs[k].dims, sizeof ref.dims);
        ref.data = routs[k].data;
        ref.nbytes = byoc_dtype_size(ref.dtype);
        for (int i = 0; i < ref.rank; ++i) ref.nbytes *= (size_t)ref.dims[i];
        ref_mismatches += !compare_output(j->human, label, &j->outputs[k], &ref, "the host-only run", o->tolerance,
                                          o->lsb, &j->compared[j->ncompared++]);
    }
    if (rc == EXIT_OK) say(j->human, "%s\n", ref_mismatches ? "MISMATCH: outputs differ from the host-only run" : "all outputs match the host-only run");
    if (rc == EXIT_OK) {
        double dev = byoc_sim_latency(j->p), host = byoc_sim_latency(rc_host->program);
        say(j->human, "simulated latency %.3f ms, host only %.3f ms (%.2fx)\n", dev * 1e3, host * 1e3, dev > 0 ? host / dev : 0.0);
    }
    byoc_sim_compiled_free(rc_host);
    if (rinfo.module) byoc_onnx_model_free(&rinfo);
    else byoc_module_destroy(rm);
    return rc == EXIT_OK && ref_mismatches ? EXIT_MISMATCH : rc;
}

/* after the run (rc 0 or 4): --profile's table, --trace's file, --compare-to's verdict */
static int run_job_report(run_job *j, int rc) {
    const cli_options *o = j->o;
    if (o->profile) {
        size_t len;
        char *table = byoc_sim_profile_format(j->p, &len);
        if (table) print_wrapped(j->human, table, len, 1); /* the table's rows stay whole */
        byoc_sim_free(j->p, table);
    }
    if (o->trace) {
        size_t len;
        char *json = byoc_sim_trace_format(j->p, &len);
        FILE *f = json ? fopen(o->trace, "wb") : NULL;
        if (!f || fwrite(json, 1, len, f) != len) {
            fprintf(stderr, "byocc: error: cannot write %s\n", o->trace);
            rc = EXIT_INPUT;
        }
        if (f) fclose(f);
        byoc_sim_free(j->p, json);
    }
    if (rc == EXIT_OK || rc == EXIT_MISMATCH) {
        print_device_summary(j->human, j->p);
        summary_extras x = {o->profile, j->compared, j->ncompared, j->output_rows, j->nout};
        int erc = write_emits(o, j->file, j->p, &j->timing, &x);
        if (erc != EXIT_OK) rc = erc;
    }
    if ((rc == EXIT_OK || rc == EXIT_MISMATCH) && o->compare_to) {
        say(j->human, "%s\n", j->mismatches ? "MISMATCH: outputs differ from the reference beyond the tolerance" : "all outputs match the reference");
        if (j->mismatches) rc = EXIT_MISMATCH;
    }
    return rc;
}

/* run MODEL ..., and compile MODEL -o OUT.byoc (the same pipeline, saved instead of run) */
static int run_or_compile(session *s, const cli_options *o, int compile) {
    run_job *j = (run_job *)calloc(1, sizeof *j);
    if (!j) return EXIT_INTERNAL;
    j->s = s;
    j->o = o;
    j->compile = compile;
    j->cmd = compile ? "compile" : "run";
    j->file = o->files[0];
    j->from_exe = j->file && ends_with(j->file, ".byoc");
    j->human = stdout;
    for (int k = 0; k < o->nemits; ++k)
        if (!strchr(o->emits[k], '=')) j->human = stderr;
    int rc = run_job_check(j);
    if (rc == EXIT_OK && o->output_dir && !make_dirs(o->output_dir)) { /* before the work, so the error comes first */
        fprintf(stderr, "byocc: error: cannot create the output directory %s: %s\n", o->output_dir, strerror(errno));
        rc = EXIT_INPUT;
    }
    /* the input files first: for ONNX, their shapes give symbolic dims their values */
    if (rc == EXIT_OK && !compile && o->compare_to && !o->ninputs && (j->ndir_inputs = inputs_of_dir(o->compare_to, j->dir_inputs, MAX_IO)) > 0) {
        fprintf(stderr, "byocc: note: the inputs of %s:", o->compare_to);
        for (int k = 0; k < j->ndir_inputs; ++k) fprintf(stderr, " %s", strrchr(j->dir_inputs[k], '/') + 1);
        fprintf(stderr, "\n");
    }
    if (rc == EXIT_OK) rc = j->ndir_inputs ? input_files_read((const char *const *)j->dir_inputs, j->ndir_inputs, &j->in) : input_files_read(o->inputs, o->ninputs, &j->in);
    if (rc == EXIT_OK) rc = j->from_exe ? run_job_read_artifact(j) : run_job_compile_model(j);
    if (rc == EXIT_OK && compile) rc = run_job_save(j);
    if (rc == EXIT_OK && !compile) {
        byoc_placement_report_free(j->rep); /* the run needs no placement report */
        j->rep = NULL;
        rc = run_job_bind_inputs(j);
        if (rc == EXIT_OK) rc = run_job_execute(j);
        if (rc == EXIT_OK) rc = run_job_outputs(j);
        if (rc == EXIT_OK && o->reference) rc = run_job_reference(j);
        if (rc == EXIT_OK || rc == EXIT_MISMATCH) rc = run_job_report(j, rc);
    }
    run_job_free(j);
    free(j);
    return rc;
}
static int cmd_run(session *s, const cli_options *o) { return run_or_compile(s, o, 0); }
static int cmd_compile(session *s, const cli_options *o) { return run_or_compile(s, o, 1); }

/* info MODEL.byoc: what the artifact holds, and the per-device summary of one run on zeros */
static int cmd_info_artifact(const cli_options *o, const char *file) {
    byoc_diag d;
    char shape[200], a[32];
    if (check_emits(o) != EXIT_OK) return EXIT_USAGE;
    byoc_sim_executable *exe = byoc_sim_executable_read(file, NULL, &d);
    if (!exe) return input_error(&d);
    byoc_sim_program *p = byoc_sim_executable_program(exe);
    FILE *f = stdout;
    for (int k = 0; k < o->nemits; ++k)
        if (!strchr(o->emits[k], '=')) f = stderr; /* the document has standard output */
    const char *model = byoc_sim_executable_info(exe, "model"), *strategy = byoc_sim_executable_info(exe, "strategy");
    const char *library = byoc_sim_executable_info(exe, "library"), *host = byoc_sim_executable_info(exe, "host");
    say(f, "artifact   %s (format %s, written by %s)\n", file, byoc_sim_executable_info(exe, "format") ? byoc_sim_executable_info(exe, "format") : "?",
        library ? library : "?");
    say(f, "model      %s, placed by %s; host model %s\n", model && *model ? model : "?", strategy && *strategy ? strategy : "?", host ? host : "?");
    char names[2][MAX_IO * 64];
    const char *lists[2] = {byoc_sim_executable_info(exe, "inputs"), byoc_sim_executable_info(exe, "outputs")};
    for (int io = 0; io < 2; ++io) {
        int n = io ? byoc_sim_output_count(p) : byoc_sim_input_count(p);
        const char *at = lists[io];
        snprintf(names[io], sizeof names[io], "%s", at ? at : "");
        say(f, "%s\n", io ? "outputs" : "inputs");
        for (int i = 0; i < n; ++i) {
            const byoc_sim_io *x = io ? byoc_sim_output(p, i) : byoc_sim_input(p, i);
            size_t len = at ? strcspn(at, "\n") : 0;
            shape_text(x->dtype, x->rank, x->dims, shape, sizeof shape);
            say(f, "  %.*s: %s\n", len ? (int)len : (int)strlen(x->name), len ? at : x->name, shape);
            at = at && at[len] ? at + len + 1 : NULL;
        }
    }
    byoc_sim_memory_plan mp = byoc_sim_memory(p);
    say(f, "memory     %s planned: arena %zu (lower bound %zu), workspace %zu, tile scratch %zu, outputs %zu bytes\n", scaled((double)planned_bytes(&mp), 1, a, sizeof a),
        mp.arena_bytes, mp.lower_bound_bytes, mp.workspace_bytes, mp.tile_scratch_bytes, mp.output_bytes);
    FILE *probe = fopen(file, "rb");
    long size = probe && fseek(probe, 0, SEEK_END) == 0 ? ftell(probe) : -1;
    if (probe) fclose(probe);
    print_artifact_summary(f, exe, file, size > 0 ? (size_t)size : 0);
    int rc = EXIT_OK;
    if (run_on_zeros(p)) {
        print_device_summary(f, p);
        rc = write_emits(o, model && *model ? model : file, p, NULL, NULL); /* --json is one of them */
    } else
        fprintf(stderr, "byocc: note: %s did not run on zero inputs: no per-device summary\n", file);
    byoc_sim_executable_destroy(exe);
    return rc;
}

/* ---- explain: where an ONNX node ran, in which kernel, and why there ---- */
/* the blob of a partition, NULL for none */
static const byoc_sim_blob_info *blob_of(const byoc_sim_executable *exe, const char *partition) {
    for (int b = 0; b < byoc_sim_executable_blob_count(exe); ++b)
        if (!strcmp(byoc_sim_executable_blob(exe, b)->function, partition)) return byoc_sim_executable_blob(exe, b);
    return NULL;
}
/* the cycles one layer spanned in the last run (its first command's start to its last one's end), and the
   device's clock */
static uint64_t layer_cycles(const byoc_sim_executable *exe, const byoc_sim_source_entry *e, double *mhz) {
    const byoc_sim_blob_info *blob = blob_of(exe, e->partition);
    uint64_t first = UINT64_MAX, last = 0;
    if (!blob) return 0;
    *mhz = byoc_sim_device_of(blob->program)->clock_mhz;
    for (int c = e->command_first; c >= 0 && c <= e->command_last; ++c) {
        byoc_sim_command_info ci = byoc_sim_device_command(blob->program, c);
        if (ci.start < first) first = ci.start;
        if (ci.start + ci.cycles > last) last = ci.start + ci.cycles;
    }
    return last > first && first != UINT64_MAX ? last - first : 0;
}
/* the kernel of a control-flow body (nested ones too) whose name holds the frontend node, with its path "K.B.J" */
static const byoc_sim_kernel_info *body_kernel_of(const byoc_sim_program *p, const char *frontend, char *path, size_t cap) {
    size_t n = strlen(frontend), len = strlen(path);
    for (int k = 0; k < byoc_sim_kernel_count(p); ++k)
        for (int b = 0; b < byoc_sim_kernel_body_count(p, k); ++b) {
            const byoc_sim_program *body = byoc_sim_kernel_body(p, k, b);
            for (int j = 0; j < byoc_sim_kernel_count(body); ++j) {
                const char *name = byoc_sim_kernel(body, j)->name, *at = strstr(name, frontend);
                if (at && (at == name || at[-1] == '+') && (at[n] == 0 || at[n] == '+')) {
                    snprintf(path + len, cap - len, "%d.%d.%d", k, b, j);
                    return byoc_sim_kernel(body, j);
                }
            }
            snprintf(path + len, cap - len, "%d.%d.", k, b);
            const byoc_sim_kernel_info *inner = body_kernel_of(body, frontend, path, cap);
            if (inner) return inner;
            path[len] = 0;
        }
    return NULL;
}
static int cmd_explain(session *s, const cli_options *o) {
    const char *file = o->files[0], *node = o->files[1];
    int json = o->json;
    (void)s;
    if (!file || !node) return usage_error("explain: expects MODEL.byoc NODE%s", "");
    byoc_diag d;
    byoc_sim_executable *exe = byoc_sim_executable_read(file, NULL, &d);
    if (!exe) return input_error(&d);
    int count = byoc_sim_executable_source_count(exe), found = 0;
    if (!count) {
        fprintf(stderr, "byocc: error: %s has no source map\n", file);
        byoc_sim_executable_destroy(exe);
        return EXIT_INPUT;
    }
    byoc_sim_program *p = byoc_sim_executable_program(exe);
    /* one run on zero inputs gives the simulated times (the device and host models do not depend on values) */
    int timed = run_on_zeros(p);
    double total = timed ? byoc_sim_latency(p) : 0;
    if (json) printf("[");
    for (int i = 0; i < count; ++i) {
        const byoc_sim_source_entry *e = byoc_sim_executable_source(exe, i);
        const char *bare = strncmp(e->frontend, "onnx:", 5) ? e->frontend : e->frontend + 5;
        if (strcmp(e->frontend, node) && strcmp(bare, node)) continue;
        if (json) {
            printf("%s\n{\"frontend\":", found ? "," : "");
            json_string_to(stdout, e->frontend);
            printf(",\"op\":");
            json_string_to(stdout, e->frontend_op);
            if (e->removed) {
                printf(",\"removed\":");
                json_string_to(stdout, e->removed);
            } else {
                printf(",\"function\":");
                json_string_to(stdout, e->function);
                printf(",\"node\":");
                json_string_to(stdout, e->node);
                printf(",\"ir_op\":");
                json_string_to(stdout, e->op);
                printf(",\"composite\":");
                json_string_to(stdout, e->composite);
                printf(",\"backend\":");
                json_string_to(stdout, e->backend);
                printf(",\"kernel\":%d,\"kernel_name\":", e->kernel);
                json_string_to(stdout, e->kernel >= 0 ? byoc_sim_kernel(p, e->kernel)->name : "");
                double mhz = 0;
                printf(",\"layer\":%d,\"commands\":[%d,%d],\"command_offset\":%llu", e->layer, e->command_first, e->command_last, (unsigned long long)e->command_offset);
                if (timed && e->kernel >= 0) printf(",\"kernel_sim_seconds\":%.9g,\"total_sim_seconds\":%.9g", byoc_sim_kernel(p, e->kernel)->sim_seconds, total);
                if (timed && e->layer >= 0) printf(",\"layer_cycles\":%llu", (unsigned long long)layer_cycles(exe, e, &mhz));
                printf(",\"reason\":");
                json_string_to(stdout, e->reason);
            }
            printf("}");
            found++;
            continue;
        }
        if (!found++) printf("%s (%s)\n", e->frontend, e->frontend_op[0] ? e->frontend_op : "?");
        if (e->removed) {
            printf("  no op left: %s\n", e->removed);
            continue;
        }
        printf("  %s in @%s%s%s%s\n", e->op, e->function, e->node[0] ? " " : "", e->node, "");
        if (e->composite[0]) printf("    composite: %s\n", e->composite);
        printf("    runs on:   %s%s%s\n", e->backend, e->partition[0] ? ", partition @" : "", e->partition);
        if (e->kernel >= 0) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(p, e->kernel);
            printf("    kernel:    %d %.60s%s (%s, %d ops, on %s)\n", e->kernel, k->name, strlen(k->name) > 60 ? "..." : "", byoc_sim_exec_name(k->exec), k->nops, k->device);
            char path[128] = "";
            const byoc_sim_kernel_info *in = k->exec == BYOC_SIM_EXEC_CONTROL ? body_kernel_of(p, e->frontend, path, sizeof path) : NULL;
            if (in) /* an op inside an if or a loop: its kernel in the body's own program */
                printf("    in body:   kernel %s %.60s (%s, on %s), ran %d times in the run on zeros\n", path, in->name, byoc_sim_exec_name(in->exec), in->device,
                       in->runs);
        } else
            printf("    kernel:    none (a view of its input's buffer)\n");
        if (e->layer >= 0) {
            const byoc_sim_blob_info *blob = blob_of(exe, e->partition);
            printf("    layer:     %d, commands %d to %d (first record at byte %llu of the blob)\n", e->layer, e->command_first, e->command_last,
                   (unsigned long long)e->command_offset);
            if (blob) printf("    target:    %s\n", blob->target);
        }
        if (timed && e->kernel >= 0) {
            double mhz = 0, k = byoc_sim_kernel(p, e->kernel)->sim_seconds;
            uint64_t cycles = e->layer >= 0 ? layer_cycles(exe, e, &mhz) : 0;
            printf("    time:      kernel %d takes %.1f us of %.3f ms simulated (%.1f%%)", e->kernel, k * 1e6, total * 1e3, total > 0 ? 100 * k / total : 0.0);
            if (cycles && mhz > 0) printf("; its layer spans %llu cycles (%.1f us at %.0f MHz)", (unsigned long long)cycles, (double)cycles / mhz, mhz);
            printf("\n");
        }
        printf("    why:       %s\n", e->reason[0] ? e->reason : "(no placement recorded)");
    }
    if (json) printf("%s]\n", found ? "\n" : "");
    byoc_sim_executable_destroy(exe);
    if (!found) {
        char text[SHOWN_MAX];
        fprintf(stderr, "byocc: error: %s: no frontend node '%s' in the source map (byocc compile --source-map FILE.json lists them)\n", file,
                shown(node, text, sizeof text));
        return EXIT_INPUT;
    }
    return EXIT_OK;
}
/* ---- backends ---- */
static int cmd_backends(session *s, const cli_options *o) {
    int json = o->json;
    byoc_diag d;
    char line[512];
    if (json) printf("{\"backends\": [");
    else say(stdout, "built-in backends (--backend NAME [-option=value]...; a .backend file with 'kind npu' or 'kind dsp' gets the same device model):\n");
    for (int i = 0; i < byoc_sim_builtin_backend_count(); ++i) {
        const char *spec_text = NULL, *name = byoc_sim_builtin_backend(i, &spec_text);
        byoc_sim_backend *b = open_backend(s, name, &d);
        if (!b) return input_error(&d);
        byoc_sim_device_describe(&b->device, line, sizeof line);
        if (json) {
            printf("%s\n  {\"name\": \"%s\", \"kind\": \"%s\", \"device\": \"%s\", \"preset\": \"%s\", \"priority\": %d, \"patterns\": [", i ? "," : "", name,
                   b->spec->kind ? b->spec->kind : name, line, b->device.preset, b->spec->priority);
            for (int k = 0; k < b->spec->npatterns; ++k) printf("%s\"%s\"", k ? ", " : "", b->spec->patterns[k].name);
            printf("], \"ops\": [");
            for (int k = 0; k < b->spec->nsupport; ++k) printf("%s\"%s\"", k ? ", " : "", b->spec->support[k].op);
            printf("]}");
            continue;
        }
        char list[4096];
        say(stdout, "  %-5s %s\n        priority %d\n", name, line, b->spec->priority);
        size_t n = (size_t)snprintf(list, sizeof list, "        patterns:");
        for (int k = 0; k < b->spec->npatterns && n < sizeof list; ++k) n += (size_t)snprintf(list + n, sizeof list - n, " %s", b->spec->patterns[k].name);
        print_wrapped_line(stdout, list, n < sizeof list ? n : sizeof list - 1, 12);
        n = (size_t)snprintf(list, sizeof list, "        ops:");
        for (int k = 0; k < b->spec->nsupport && n < sizeof list; ++k) n += (size_t)snprintf(list + n, sizeof list - n, " %s", b->spec->support[k].op);
        print_wrapped_line(stdout, list, n < sizeof list ? n : sizeof list - 1, 12);
    }
    if (json) printf("\n], \"presets\": [");
    else printf("\npresets (-preset=NAME):\n");
    for (int i = 0; i < byoc_sim_preset_count(); ++i) {
        const char *about = NULL;
        const byoc_sim_device *p = byoc_sim_preset(i, &about);
        byoc_sim_device_describe(p, line, sizeof line);
        if (json) printf("%s\n  {\"name\": \"%s\", \"device\": \"%s\", \"about\": \"%s\"}", i ? "," : "", p->preset, line, about);
        else say(stdout, "  %-14s %s\n                 %s\n", p->preset, line, about);
    }
    if (json) printf("\n]}\n");
    else
        say(stdout, "\ndevice options (in .backend files: option NAME VALUE; after --backend: -NAME=VALUE): preset, clock_mhz, rows, cols, "
                    "dataflow (\"os\"|\"ws\"), lanes, sram_kb, dram_bytes_per_cycle, dram_latency, burst_bytes, launch_cycles, double_buffer, "
                    "dtypes (\"float32,int8\")\n");
    return EXIT_OK;
}

/* ---- import ---- */
/* import --json: the ONNX model's facts (opset, IR version, producer, node counts), its inputs and outputs with
   their types, the Relay module's counts, what the import assumed (warnings), the nodes evaluated at import,
   and the module's text (or the file -o wrote) */
static void write_import_json(const byoc_onnx_model *model, const char *file, const char *out, const module_counts *c,
                              const char *text) {
    byoc_module *m = model->module;
    const byoc_node *main_fn = byoc_module_function(m, "main");
    const byoc_type *result = main_fn && main_fn->body ? main_fn->body->checked_type : NULL;
    printf("{\"file\": ");
    json_string_to(stdout, file);
    printf(", \"opset\": %d, \"ir_version\": %lld, \"producer\": ", model->opset, (long long)model->ir_version);
    json_string_to(stdout, model->producer);
    printf(", \"onnx_nodes\": %d, \"evaluated_at_import\": %d, \"inputs\": [", model->nnodes, model->nfolded);
    for (int i = 0; i < model->ninputs; ++i) {
        printf("%s{\"name\": ", i ? ", " : "");
        json_string_to(stdout, model->input_names[i]);
        printf(", \"type\": ");
        write_type_json(stdout, main_fn && i < main_fn->nparams ? main_fn->params[i]->checked_type : NULL);
        printf("}");
    }
    printf("], \"outputs\": [");
    for (int i = 0; i < model->noutputs; ++i) { /* one output is @main's result, more are its tuple's fields */
        const byoc_type *t = model->noutputs == 1                                               ? result
                             : result && result->kind == BYOC_TYPE_TUPLE && i < result->nfields ? result->fields[i]
                                                                                                : NULL;
        printf("%s{\"name\": ", i ? ", " : "");
        json_string_to(stdout, model->output_names[i]);
        printf(", \"type\": ");
        write_type_json(stdout, t);
        printf("}");
    }
    printf("], \"relay\": {");
    write_counts_json(stdout, c);
    printf("}, \"warnings\": [");
    for (int k = 0; model->notes && model->notes[k]; ++k) {
        if (k) printf(", ");
        json_string_to(stdout, model->notes[k]);
    }
    printf("], \"evaluated\": [");
    for (int i = 0, k = 0; i < model->nnodes; ++i) {
        if (!model->node_folded || !model->node_folded[i]) continue;
        printf("%s{\"node\": ", k++ ? ", " : "");
        json_string_to(stdout, model->node_spans[i]);
        printf(", \"op\": ");
        json_string_to(stdout, model->node_ops[i]);
        printf(", \"why\": ");
        json_string_to(stdout, model->node_folded[i]);
        printf("}");
    }
    printf("], \"output\": ");
    json_string_to(stdout, out);
    printf(", \"module\": ");
    json_string_to(stdout, text);
    printf("}\n");
}

static int cmd_import(session *s, const cli_options *o) {
    const char *file = o->files[0], *out = o->out;
    unsigned flags = o->print_types ? BYOC_PRINT_TYPES : 0;
    if (!file) return usage_error("import: no input file%s", "");
    if (!ends_with(file, ".onnx")) return usage_error("import: '%s' is not an .onnx file", file);
    if (out && !ends_with(out, ".relay")) return usage_error("import: the output '%s' must end in .relay", out);
    input_files in; /* example tensors give symbolic dims their values */
    int rc = input_files_read(o->inputs, o->ninputs, &in);
    if (rc == EXIT_OK && in.named && in.named != in.count) rc = usage_error("import: name every --input or none%s", "");
    byoc_diag d;
    byoc_onnx_model model;
    byoc_module *m = rc == EXIT_OK ? load_model_info(s, file, in.shapes, in.count, &model, &d) : NULL;
    if (rc == EXIT_OK && !m) rc = input_error(&d);
    input_files_free(&in);
    if (rc != EXIT_OK) return rc;
    module_counts c;
    memset(&c, 0, sizeof c);
    if (o->json) rc = count_module(m, &c);
    char *text = NULL;
    if (rc == EXIT_OK && out) {
        if (byoc_module_save(m, out, flags, &d) != BYOC_OK) rc = input_error(&d);
        else {
            fprintf(stderr, "byocc: %s: opset %d, %d nodes (%d evaluated at import), %d input%s, %d output%s -> %s\n", file, model.opset, model.nnodes,
                    model.nfolded, model.ninputs, model.ninputs == 1 ? "" : "s", model.noutputs, model.noutputs == 1 ? "" : "s", out);
        }
    } else if (rc == EXIT_OK && !(text = byoc_module_print(m, flags, NULL))) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && o->json) write_import_json(&model, file, out, &c, text);
    else if (rc == EXIT_OK && text) fputs(text, stdout);
    byoc_free(m, text);
    free(c.ops);
    byoc_onnx_model_free(&model);
    return rc;
}

/* ---- quantize ---- */
/* quantize --json: the settings, the counts of the summary line, every node (quantized, fused away, or left in
   float with why) and every activation's calibration range with the scale and zero point written */
static void write_quantize_json(const cli_options *o, const byoc_quantize_options *qo, const byoc_quantize_result *r) {
    printf("{\"model\": ");
    json_string_to(stdout, o->files[0]);
    printf(", \"output\": ");
    json_string_to(stdout, o->out);
    printf(", \"bytes\": %zu, \"method\": \"%s\", \"activation_type\": \"%s\", \"per_channel\": %s, \"samples\": %d, "
           "\"opset_in\": %d, \"opset_out\": %d, \"nodes_in\": %d, \"nodes_quantized\": %d, \"nodes_fused\": %d, "
           "\"qdq_pairs\": %d, "
           "\"weights\": %d, \"biases\": %d, \"nodes\": [",
           r->size, byoc_quantize_method_name(qo->method), byoc_dtype_name(qo->activation_type),
           qo->per_channel ? "true" : "false", r->samples, r->opset_in, r->opset_out, r->nodes_in, r->nodes_quantized,
           r->nodes_removed, r->qdq_pairs, r->weights, r->biases);
    for (int i = 0; i < r->nodes_in; ++i) {
        const byoc_quantize_node_info *n = &r->nodes[i];
        printf("%s\n  {\"name\": ", i ? "," : "");
        json_string_to(stdout, n->name);
        printf(", \"op\": ");
        json_string_to(stdout, n->op);
        printf(", \"state\": \"%s\", \"why\": ", n->fused ? "fused" : n->quantized ? "quantized" : "float");
        json_string_to(stdout, n->float_reason);
        printf("}");
    }
    printf("%s], \"ranges\": [", r->nodes_in ? "\n" : "");
    for (int i = 0; i < r->nranges; ++i) {
        const byoc_quantize_range *q = &r->ranges[i];
        printf("%s\n  {\"tensor\": ", i ? "," : "");
        json_string_to(stdout, q->tensor);
        printf(", \"seen_min\": %.9g, \"seen_max\": %.9g, \"min\": %.9g, \"max\": %.9g, \"scale\": %.9g, "
               "\"zero_point\": %d, "
               "\"fixed\": %s, \"shares\": ",
               q->seen_min, q->seen_max, q->rmin, q->rmax, (double)q->scale, q->zero_point,
               q->fixed ? "true" : "false");
        json_string_to(stdout, q->shares);
        printf("}");
    }
    printf("%s]}\n", r->nranges ? "\n" : "");
}

static int cmd_quantize(session *s, const cli_options *o) {
    const char *file = o->files[0], *out = o->out;
    if (s->ndims || s->dynamic_dims)
        return usage_error("quantize: the calibration samples' shapes give the inputs' dims (%s does not apply)",
                           s->ndims ? "--dim" : "--dynamic-dims");
    if (!file) return usage_error("quantize: no input file%s", "");
    if (!ends_with(file, ".onnx")) return usage_error("quantize: '%s' is not an .onnx file", file);
    if (!out || !ends_with(out, ".onnx"))
        return usage_error("quantize: give the output model: -o MODEL_q.onnx%s", "");
    if (!o->calibrate) return usage_error("quantize: give the calibration samples: --calibrate DIR%s", "");
    byoc_quantize_options qo;
    memset(&qo, 0, sizeof qo);
    qo.per_channel = o->per_channel;
    qo.activation_type = o->activation_type && !strcmp(o->activation_type, "int8") ? BYOC_INT8 : BYOC_UINT8;
    if (o->method) byoc_quantize_method_parse(o->method, &qo.method);
    byoc_diag d;
    size_t size = 0;
    uint8_t *model = byoc_onnx__read_file(file, &size, &d);
    if (!model) return input_error(&d);
    byoc_quantize_calibration cal;
    if (byoc_quantize_calibration_read(o->calibrate, &cal, &d) != BYOC_OK) {
        free(model);
        return input_error(&d);
    }
    qo.samples = cal.tensors;
    qo.sample_labels = (const char *const *)cal.files;
    qo.nsamples = cal.nsamples;
    qo.ninputs = cal.ninputs;
    byoc_quantize_result r;
    int rc = byoc_quantize_onnx(model, size, file, &qo, &r, &d) == BYOC_OK ? EXIT_OK : input_error(&d);
    if (rc == EXIT_OK && !write_bytes(out, r.bytes, r.size)) rc = EXIT_INPUT;
    if (rc == EXIT_OK) {
        fprintf(stderr, "byocc: %s -> %s (%s, %s activations%s, %zu bytes)\n", file, out,
                byoc_quantize_method_name(qo.method), byoc_dtype_name(qo.activation_type),
                qo.per_channel ? ", weights per channel" : "", r.size);
        if (r.summary) print_wrapped(stderr, r.summary, strlen(r.summary), 0);
        if (o->json) write_quantize_json(o, &qo, &r);
    }
    byoc_quantize_result_free(&r);
    byoc_quantize_calibration_free(&cal);
    free(model);
    return rc;
}

/* ---- report ---- */
/* With backends, the other strategy's plan of the same model for the page's comparison: a second import, prepared
   as the first, so node ids (the plans' origins) are the same; a failure leaves the page without it, with a note */
static void report_other_plan(run_job *j, const char *strategy, byoc_placement_report **other) {
    session *s = j->s;
    byoc_diag d;
    int unnamed_or_all = j->in.named == j->in.count || j->in.named == 0;
    byoc_module *m = load_model_info(s, j->file, j->in.shapes, unnamed_or_all ? j->in.count : 0, NULL, &d);
    int rc = m ? EXIT_OK : model_error(s, &d);
    strategy_options so = j->o->so;
    so.strategy = strategy;
    so.placement = so.save_placement = NULL; /* those belong to the plan compiled */
    byoc_sim_compile_options co;
    byoc_module *arena = NULL;
    byoc_sim_compiled *c = NULL;
    if (rc == EXIT_OK) rc = strategy_compile_options(s, &so, 0, &co, &arena, &d);
    if (rc == EXIT_OK) { /* the same preparation and placement as the compiled plan's, then stop */
        co.place_only = 1;
        co.no_fq2i = j->o->no_fq2i;
        co.fixed_point_requantize = j->o->fixed_requantize;
        if (byoc_sim_compile(m, &co, &c, &d) != BYOC_OK) rc = compile_error(s, &so, c, &d);
    }
    if (rc == EXIT_OK && c) {
        *other = c->placement;
        c->placement = NULL;
    }
    byoc_sim_compiled_free(c);
    byoc_module_destroy(arena);
    if (rc != EXIT_OK) fprintf(stderr, "byocc: note: the page shows no %s plan to compare with\n", strategy);
    byoc_module_destroy(m);
}

/* The page's inputs, gathered by run's pipeline: the model compiled with its placement report kept (every op on
   the host when no backend is given), one run (--repeat N: N after a warm-up) for the timeline and the measured
   times, and the other strategy's plan. One function, so that it can move to a library compile pipeline. */
static int report_gather(run_job *j, byoc_sim_report_input *in, byoc_placement_report **other, char *note, size_t cap) {
    const cli_options *o = j->o;
    int rc = input_files_read(o->inputs, o->ninputs, &j->in);
    j->place_always = 1;
    if (rc == EXIT_OK) rc = run_job_compile_model(j);
    if (rc == EXIT_OK) rc = run_job_bind_inputs(j);
    if (rc == EXIT_OK) rc = run_job_execute(j);
    if (rc != EXIT_OK) return rc;
    const char *strategy = o->so.strategy, *other_strategy = strcmp(strategy, "collage") ? "collage" : "greedy";
    if (j->s->nbackends) report_other_plan(j, other_strategy, other);
    const char *base = strrchr(j->file, '/');
    in->title = base ? base + 1 : j->file;
    in->placement = j->rep;
    in->strategy = strategy;
    in->other = *other;
    in->other_strategy = *other ? other_strategy : NULL;
    in->program = j->p;
    size_t at =
        (size_t)snprintf(note, cap, "byocc report (byoc.h %s): %s placement on", BYOC_SIM_VERSION_STRING, strategy);
    for (int k = 0; k < j->s->nbackends && at < cap; ++k)
        at += (size_t)snprintf(note + at, cap - at, " %s,", j->s->backends[k]->spec->name);
    if (at < cap)
        snprintf(note + at, cap - at, " host; %d host thread%s; %s", byoc_sim_threads(j->p),
                 byoc_sim_threads(j->p) == 1 ? "" : "s", o->ninputs ? "the given inputs" : "seeded inputs");
    return EXIT_OK;
}

static int cmd_report(session *s, const cli_options *o) {
    if (!o->files[0]) return usage_error("report: no input file%s", "");
    if (!o->out) return usage_error("report: no output file (-o REPORT.html)%s", "");
    if (ends_with(o->files[0], ".byoc"))
        return usage_error("report: %s is compiled already: the report needs the model (its placement)", o->files[0]);
    run_job *j = (run_job *)calloc(1, sizeof *j);
    if (!j) return EXIT_INTERNAL;
    j->s = s;
    j->o = o;
    j->cmd = "report";
    j->file = o->files[0];
    j->human = o->json ? stderr : stdout; /* --json: stdout holds the one document */
    byoc_sim_report_input in;
    memset(&in, 0, sizeof in);
    byoc_placement_report *other = NULL;
    char note[600];
    int rc = report_gather(j, &in, &other, note, sizeof note);
    if (rc == EXIT_OK) {
        size_t len = 0;
        in.note = note;
        char *html = byoc_sim_report_html(&in, &len, &j->d);
        if (!html) rc = model_error(s, &j->d);
        else if (!write_bytes(o->out, html, len)) /* it says why */ rc = EXIT_INPUT;
        else if (o->json) {
            printf("{\"file\": ");
            json_string_to(stdout, o->out);
            printf(", \"bytes\": %zu, \"nodes\": %d, \"partitions\": %d, \"kernels\": %d, \"plans\": [\"%s\"%s]}\n", len,
                   in.placement->count, in.placement->npartitions, byoc_sim_kernel_count(j->p), o->so.strategy,
                   other ? (strcmp(o->so.strategy, "collage") ? ", \"collage\"" : ", \"greedy\"") : "");
        } else
            say(stdout, "wrote %s (%zu bytes): %d nodes, %d partition%s, %d kernel%s%s\n", o->out, len,
                in.placement->count, in.placement->npartitions, in.placement->npartitions == 1 ? "" : "s",
                byoc_sim_kernel_count(j->p), byoc_sim_kernel_count(j->p) == 1 ? "" : "s",
                other ? ", both strategies' plans" : "");
        byoc_sim_report_free(html);
    }
    byoc_placement_report_free(other);
    run_job_free(j);
    free(j);
    return rc;
}

/* ---- version: the headers' versions and the facts of this build ---- */
static const char *compiler_text(void) {
#if defined(__clang__)
    return __VERSION__; /* "Debian Clang 14.0.6": it names itself */
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}
/* the CPU features the host kernels choose their code by at run time (byoc.h asks __builtin_cpu_supports
   on x86-64 with GCC or clang; elsewhere they take the portable vector path) */
typedef struct cpu_feature {
    const char *name;
    int present;
} cpu_feature;
static int cpu_features(cpu_feature *out) {
    int n = 0;
#if BYOC__X86_DISPATCH
    __builtin_cpu_init();
    out[n].name = "avx2", out[n++].present = __builtin_cpu_supports("avx2") != 0;
    out[n].name = "fma", out[n++].present = __builtin_cpu_supports("fma") != 0;
    out[n].name = "avx512f", out[n++].present = __builtin_cpu_supports("avx512f") != 0;
#else
    (void)out;
#endif
    return n;
}

static int cmd_version(session *s, const cli_options *o) {
    (void)s;
    cpu_feature cpu[4];
    int ncpu = cpu_features(cpu);
#if defined(__cplusplus)
    const char *language = "C++";
#else
    const char *language = "C99";
#endif
#if defined(BYOC_NO_THREADS)
    const int threads = 0;
#else
    const int threads = 1;
#endif
#if defined(__OPTIMIZE__)
    const int optimized = 1;
#else
    const int optimized = 0;
#endif
    if (!o->json) {
        printf("byocc %s (byoc.h %s, byoc_sim.h %s, byoc_onnx.h %s, byoc_quantize.h %s)\n", BYOC_VERSION_STRING,
               BYOC_VERSION_STRING, BYOC_SIM_VERSION_STRING, BYOC_ONNX_VERSION_STRING, BYOC_QUANTIZE_VERSION_STRING);
        say(stdout, "built by %s as %s%s, %s, %d-bit; %d cores online\n", compiler_text(), language,
            optimized ? " (optimized)" : "", threads ? "with threads" : "without threads (BYOC_NO_THREADS)",
            (int)(8 * sizeof(void *)), byoc_sim_online_cores());
        printf("CPU features the host kernels dispatch on:");
        for (int k = 0; k < ncpu; ++k) printf(" %s%s", cpu[k].name, cpu[k].present ? "" : " (absent)");
        printf("%s\n", ncpu ? "" : " none (the portable vector path)");
        return EXIT_OK;
    }
    printf("{\"version\": \"%s\", \"headers\": {\"byoc.h\": \"%s\", \"byoc_sim.h\": \"%s\", \"byoc_onnx.h\": \"%s\", "
           "\"byoc_quantize.h\": \"%s\"}, "
           "\"build\": {\"compiler\": ",
           BYOC_VERSION_STRING, BYOC_VERSION_STRING, BYOC_SIM_VERSION_STRING, BYOC_ONNX_VERSION_STRING,
           BYOC_QUANTIZE_VERSION_STRING);
    json_string_to(stdout, compiler_text());
    printf(", \"language\": \"%s\", \"optimized\": %s, \"threads\": %s, \"pointer_bits\": %d}, \"online_cores\": %d, "
           "\"cpu_features\": {",
           language, optimized ? "true" : "false", threads ? "true" : "false", (int)(8 * sizeof(void *)),
           byoc_sim_online_cores());
    for (int k = 0; k < ncpu; ++k)
        printf("%s\"%s\": %s", k ? ", " : "", cpu[k].name, cpu[k].present ? "true" : "false");
    printf("}}\n");
    return EXIT_OK;
}

/* ---- the commands ---- */
typedef struct command {
    const char *name;
    unsigned bit;  /* its C_ bit: the options it takes */
    int max_files; /* positional arguments */
    int (*run)(session *, const cli_options *);
} command;

static const command commands[] = {
    {"opt", C_OPT, 1, cmd_opt},
    {"partition", C_PARTITION, 1, cmd_partition},
    {"match", C_MATCH, 1, cmd_match},
    {"import", C_IMPORT, 1, cmd_import},
    {"run", C_RUN, 1, cmd_run},
    {"compile", C_COMPILE, 1, cmd_compile},
    {"explain", C_EXPLAIN, 2, cmd_explain},
    {"backends", C_BACKENDS, 0, cmd_backends},
    {"info", C_INFO, 1, cmd_info},
    {"ops", C_OPS, 0, cmd_ops},
    {"passes", C_PASSES, 0, cmd_passes},
    {"version", C_VERSION, 0, cmd_version},
    {"quantize", C_QUANTIZE, 1, cmd_quantize},
    {"report", C_REPORT, 1, cmd_report},
};

/* one command: --help (or -h) anywhere gives its usage; else its options, then the command */
static int run_command(session *s, const command *c, int argc, char **argv) {
    for (int i = 0; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            print_usage(stdout, c->name);
            return EXIT_OK;
        }
    cli_options *o = (cli_options *)calloc(1, sizeof *o);
    if (!o) return EXIT_INTERNAL;
    o->cmd = c->name;
    o->so.strategy = "greedy";
    o->tolerance = 1e-4;
    int rc = parse_options(s, c->bit, c->max_files, argc, argv, o);
    if (rc == EXIT_OK) rc = unify_json(o, c->bit);
    if (rc == EXIT_OK) rc = check_output_paths(o);
    if (rc == EXIT_OK) rc = c->run(s, o);
    fflush(stdout); /* the note after what the command printed */
    if ((rc == EXIT_OK || rc == EXIT_MISMATCH) && s->defaulted[0])
        fprintf(stderr, "byocc: note: symbolic dims defaulted: %s; give --dim NAME=V\n", s->defaulted);
    free(o);
    return rc;
}

/* glibc hands freed memory back to the system as soon as a few hundred KiB lie free at the top of the heap, and
   serves big blocks from fresh mappings it unmaps on free; a compile frees and takes again tens of MiB between its
   steps (the Collage search's copies of the module, its tables, the passes' rebuilt graphs), and every page taken
   again faults in anew (at 50k nodes, 170k faults and a fifth of the search's time in a VM). byocc is a short-lived
   process: it keeps what it freed for its next steps. */
static void keep_freed_memory(void) {
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

int main(int argc, char **argv) {
    keep_freed_memory();
    if (argc < 2) {
        print_usage(stderr, NULL);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) { /* help COMMAND: that command's usage */
        for (size_t k = 0; argc > 2 && k < sizeof commands / sizeof commands[0]; ++k)
            if (!strcmp(commands[k].name, argv[2])) {
                print_usage(stdout, commands[k].name);
                return EXIT_OK;
            }
        print_usage(stdout, NULL);
        return EXIT_OK;
    }
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; ++k) {
        if (strcmp(commands[k].name, name)) continue;
        session s;
        memset(&s, 0, sizeof s);
        int rc = run_command(&s, &commands[k], argc - 2, argv + 2);
        session_close(&s);
        return rc;
    }
    return usage_error("unknown command '%s'", name);
}
