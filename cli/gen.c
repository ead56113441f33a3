/*
 * dmlref gen: N random valid cases with `expected` filled in by the scalar
 * oracle -- a golden suite for another backend.
 *
 * Every case is drawn from its own splitmix64 stream seeded from (seed,
 * operator, case number), so the same arguments give the same files on every
 * machine, and --count 5 writes the first 5 files of --count 50.  What a case
 * contains: every data type the chosen feature level allows, DimensionCount 1
 * to 8, packed layouts and permuted layouts with gaps between rows, zero-stride
 * (broadcast) inputs, negative indices (signed index types), JOIN/SPLIT with
 * 1 to 6 pieces of unequal sizes, TotalTensorSizeInBytes sometimes above the
 * minimum, nested data for some packed inputs.  Never: out-of-range indices,
 * duplicate scatter targets, index values beyond the int32 range.  The plain
 * flavour has no NaN payloads other than the canonical quiet NaN and no
 * subnormals, and small tensors (at most a few hundred elements); --bits and
 * --max-elements are the other flavours, the filters (--data-types ...) narrow
 * what cases hold (builders/builder.h's bld_opts, and a check here that redraws
 * a case that still breaks one).  ELEMENT_WISE_IDENTITY's ScaleBias (arithmetic,
 * not data movement) appears only under --scale-bias.  This file is the
 * command line and the files; one case (drawn, executed, checked, written):
 * gen_case.c.  A case that fails gen's own checks stops it with a `repro:` line
 * that draws the same case again.
 */
#include "gen.h"

#include "args.h"
#include "case/case.h"
#include "cli.h"
#include "dirs.h"
#include "case/file_atomic.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_gen[] =
    "usage: dmlref gen --operator OP --count N --seed S --out DIR [filters] [--bits] [--max-elements M]\n"
    "                  [--scale-bias]\n"
    "       dmlref gen --suite DIR --seed S [--operator OP] [--count N] [--large-count L]\n"
    "                  [--bits-count B] [--max-elements M] [--scale-bias] [filters]\n"
    "\n"
    "Writes N random valid cases DIR/gen_<op>_<S>_<i>.json (i = 0 .. N-1) with `expected`\n"
    "filled in by the scalar oracle.  OP: %s\n"
    "(a comma-separated list of them, or ALL: N cases of each).  S: a 64-bit unsigned seed;\n"
    "the same arguments give the same files.  DIR is created if missing (with its parents).\n"
    "Expected lists cover the whole output buffer: slots no output element addresses hold\n"
    "0xCD bytes (a backend's comparer must mask them: DirectML may write there).  Each file's\n"
    "\"features\" object says which features the case uses.\n"
    "\n"
    "Filters (every case meets them; a case that does not is drawn again):\n"
    "  --data-types T,T,...   data types of the data tensors (FLOAT64 ... UINT8)\n"
    "  --index-types T,...    types of the index tensors (INT64 INT32 UINT64 UINT32)\n"
    "  --feature-level L      cases valid at L (1_0 ... 6_4), their feature_level <= L\n"
    "  --max-dims N           DimensionCount <= N (1 .. 8)\n"
    "  --no-negative-indices  index values >= 0 only\n"
    "  --packed               packed layouts only: no Strides, no gaps, no broadcast,\n"
    "                         minimal TotalTensorSizeInBytes\n"
    "  --expressible F,...    cases `export --onnx` / `--webnn` can express (F: onnx, webnn)\n"
    "Flavours:\n"
    "  --bits                 special bit patterns in the data (subnormals, signalling NaNs,\n"
    "                         NaN payloads, -0.0, infinities, integer extremes); files\n"
    "                         gen-bits_<op>_<S>_<i>.json\n"
    "  --max-elements M       larger cases: tensors of up to M elements (256 .. 16777216);\n"
    "                         files gen-large_<op>_<S>_<i>.json\n"
    "  --scale-bias           ELEMENT_WISE_IDENTITY cases are FLOAT32 or FLOAT16 with a ScaleBias\n"
    "                         (x * Scale + Bias: arithmetic, left out of every suite unless\n"
    "                         asked for); the other operators' cases are as without it; files\n"
    "                         gen-scale-bias_<op>_<S>_<i>.json\n"
    "--suite DIR: every operator (or OP) into DIR/small (N cases, default 100), DIR/large\n"
    "(L cases, default 4, --max-elements M, default 65536) and DIR/bits (B cases, default 25);\n"
    "the filters apply to all three.  With ALL (and --suite), an operator no case of which\n"
    "meets the filters is skipped with a note.\n"
    "\n"
    "exit status: 0 ok, 4 bad command line or filters no case of an operator can meet,\n"
    "5 a file could not be written, 8 out of memory\n";


/* ---- the command line ---------------------------------------------------------------------- */

/* A comma-separated list of data type names into a mask (index_only: INT32/INT64/UINT32/UINT64
 * only); 0, or -1 with a message on stderr. */
static int parse_types(const char *opt, const char *v, int index_only, uint32_t *mask) {
    const DMLREF_TENSOR_DATA_TYPE *names = index_only ? bld_index_types : bld_data_types;
    const uint32_t n_names = index_only ? 4 : 11;
    char all[160];
    size_t al = 0;
    for (uint32_t k = 0; k < n_names; ++k)
        al += (size_t)snprintf(all + al, sizeof all - al, "%s%s", k ? " " : "", dmlref_data_type_name(names[k]));
    *mask = 0;
    const char *p = v;
    for (;;) {
        const char *e = strchr(p, ',');
        const size_t l = e ? (size_t)(e - p) : strlen(p);
        char name[32];
        if (l == 0 || l >= sizeof name) {
            fprintf(stderr, "dmlref gen: %s: an empty or overlong name in '%s' (%s)\n", opt, v, all);
            return -1;
        }
        memcpy(name, p, l);
        name[l] = '\0';
        int found = 0;
        for (uint32_t k = 0; k < n_names && !found; ++k)
            if (strcmp(dmlref_data_type_name(names[k]), name) == 0) *mask |= 1u << names[k], found = 1;
        if (!found) {
            fprintf(stderr, "dmlref gen: %s: unknown %s '%s' (%s)\n", opt, index_only ? "index type" : "data type",
                    name, all);
            return -1;
        }
        if (!e) return 0;
        p = e + 1;
    }
}

/* " --data-types A,B --index-types ... --bits": the options that shape the files, as the
 * comment names them. */
static void cfg_args(gen_cfg *cfg) {
    size_t n = 0;
    char *a = cfg->args;
    const size_t cap = sizeof cfg->args;
    a[0] = '\0';
    for (int which = 0; which < 2; ++which) {
        const uint32_t mask = which ? cfg->b.index_types : cfg->b.data_types;
        const DMLREF_TENSOR_DATA_TYPE *order = which ? bld_index_types : bld_data_types;
        if (!mask) continue;
        n += (size_t)snprintf(a + n, cap - n, " %s", which ? "--index-types" : "--data-types");
        const char *sep = " ";
        for (uint32_t k = 0; k < (which ? 4u : 11u) && n < cap; ++k)
            if (mask >> order[k] & 1u) {
                n += (size_t)snprintf(a + n, cap - n, "%s%s", sep, dmlref_data_type_name(order[k]));
                sep = ",";
            }
    }
    if (cfg->level && n < cap)
        n += (size_t)snprintf(a + n, cap - n, " --feature-level %s",
                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)cfg->level));
    if (cfg->max_dims && n < cap) n += (size_t)snprintf(a + n, cap - n, " --max-dims %u", (unsigned)cfg->max_dims);
    if (cfg->b.no_negative_indices && n < cap) n += (size_t)snprintf(a + n, cap - n, " --no-negative-indices");
    if (cfg->b.packed && n < cap) n += (size_t)snprintf(a + n, cap - n, " --packed");
    if (cfg->expressible && n < cap)
        n += (size_t)snprintf(a + n, cap - n, " --expressible %s",
                              cfg->expressible == (GEN_ONNX | GEN_WEBNN) ? "onnx,webnn"
                              : cfg->expressible == GEN_ONNX            ? "onnx"
                                                                        : "webnn");
    if (cfg->b.bits && n < cap) n += (size_t)snprintf(a + n, cap - n, " --bits");
    if (cfg->b.max_elements && n < cap)
        n += (size_t)snprintf(a + n, cap - n, " --max-elements %" PRIu64, cfg->b.max_elements);
    if (cfg->b.scale_bias && n < cap) n += (size_t)snprintf(a + n, cap - n, " --scale-bias");
    static const char *const prefixes[8] = {"gen",            "gen-bits",            "gen-large",
                                            "gen-bits-large", "gen-scale-bias",      "gen-bits-scale-bias",
                                            "gen-large-scale-bias", "gen-bits-large-scale-bias"};
    cfg->prefix = prefixes[(cfg->b.bits ? 1 : 0) | (cfg->b.max_elements ? 2 : 0) | (cfg->b.scale_bias ? 4 : 0)];
}

/* count cases of each operator into dir.  all: skip (with a note) an operator whose first
 * case cannot meet the filters.  *written: operators with files. */
static int gen_dir(const DMLREF_OPERATOR_TYPE *ops, int n_ops, int all, uint64_t count, uint64_t seed,
                   const gen_cfg *cfg, const char *dir, int *written) {
    char derr[1024];
    const int drc = dir_create_path(dir, derr, sizeof derr);
    if (drc) {
        fprintf(stderr, "dmlref gen: %s\n", derr);
        return case_failure(drc, CASE_SYSTEM);
    }
    const size_t dl = strlen(dir);
    char *path = malloc(dl + 160);
    if (!path) {
        fprintf(stderr, "dmlref gen: %s: out of memory\n", dir);
        return CASE_OUT_OF_MEMORY;
    }
    char err[2048];
    int rc = CASE_OK;
    for (int k = 0; k < n_ops && rc == CASE_OK; ++k) {
        const dmlref_schema *s = dmlref_operator_schema(ops[k]);
        if (cfg->level && s && (uint32_t)s->introduced > cfg->level) {
            snprintf(err, sizeof err, "%s: not available at feature level %s (introduced in %s)", s->name,
                     dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)cfg->level),
                     dmlref_feature_level_name(s->introduced));
            if (all) {
                fprintf(stderr, "dmlref gen: skipped %s\n", err);
                continue;
            }
            fprintf(stderr, "dmlref gen: %s\n", err);
            rc = CASE_USAGE;
            break;
        }
        char lower[32];
        gen_lower_name(dmlref_operator_name(ops[k]), lower, sizeof lower);
        for (uint64_t i = 0; i < count && rc == CASE_OK; ++i) {
            char *text = NULL;
            size_t len = 0;
            rc = gen_make_case(ops[k], seed, i, cfg, &text, &len, err, sizeof err);
            if (rc == GEN_UNMET && all && i == 0) {
                fprintf(stderr, "dmlref gen: skipped %s\n", err);
                rc = CASE_OK;
                break;
            }
            if (rc == GEN_UNMET) rc = CASE_USAGE;
            const int self_check = rc == GEN_SELF_CHECK;
            if (self_check) rc = CASE_SYSTEM;
            if (rc == CASE_OK) {
                snprintf(path, dl + 160, "%s/%s_%s_%" PRIu64 "_%" PRIu64 ".json", dir, cfg->prefix, lower, seed, i);
                const file_part part = {text, len};
                const int wrc = file_write_atomic(path, &part, 1, err, sizeof err);
                if (wrc) rc = case_failure(wrc, CASE_SYSTEM);
                else if (i == 0) ++*written;
            }
            free(text);
            if (rc != CASE_OK) fprintf(stderr, "dmlref gen: %s\n", err);
            if (self_check) /* the same arguments draw the same case: as the last of --count i + 1 */
                fprintf(stderr, "repro: dmlref gen --operator %s --count %" PRIu64 " --seed %" PRIu64 " --out %s%s\n",
                        dmlref_operator_name(ops[k]), i + 1, seed, dir, cfg->args);
        }
    }
    free(path);
    return rc;
}

enum {
    O_OPERATOR, O_COUNT, O_SEED, O_OUT, O_SUITE, O_DATA_TYPES, O_INDEX_TYPES, O_LEVEL, O_MAX_DIMS,
    O_MAX_ELEMENTS, O_LARGE_COUNT, O_BITS_COUNT, O_EXPRESSIBLE, O_N_VALUED, /* then the flags */
    O_NO_NEGATIVE = O_N_VALUED, O_PACKED, O_BITS, O_SCALE_BIAS, O_N
};
static const char *const opt_names[O_N] = {
    "--operator",    "--count",       "--seed",        "--out",        "--suite",
    "--data-types",  "--index-types", "--feature-level", "--max-dims", "--max-elements",
    "--large-count", "--bits-count",  "--expressible", "--no-negative-indices", "--packed", "--bits", "--scale-bias"};

static int usage(const char *fmt, const char *a, const char *b) {
    fputs("dmlref gen: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputs(" (dmlref gen --help)\n", stderr);
    return CASE_USAGE;
}

int cmd_gen(int argc, char **argv) {
    const char *val[O_N] = {0};
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            char names[512];
            printf(usage_gen, case_operator_names(names, sizeof names));
            return 0;
        }
        int which = -1;
        for (int k = 0; k < O_N; ++k) {
            const size_t n = strlen(opt_names[k]);
            if (strncmp(a, opt_names[k], n) == 0 && (a[n] == '\0' || (a[n] == '=' && k < O_N_VALUED))) {
                which = k;
                if (k >= O_N_VALUED) v = "";
                else v = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
            }
        }
        if (which < 0) return usage("unexpected argument '%s'%s", a, "");
        if (!v) return usage("%s needs a value%s", opt_names[which], "");
        val[which] = v;
    }
    uint64_t count = 0, seed = 0, large_count = 4, bits_count = 25, u = 0;
    gen_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    const int suite = val[O_SUITE] != NULL;
    if (!val[O_SEED] || suite == (val[O_OUT] != NULL) || (!suite && (!val[O_OPERATOR] || !val[O_COUNT])))
        return usage("%s%s", "--operator, --count, --seed and --out are required (or --seed and --suite)", "");
    /* "" would be "/gen_..." files, or --suite's /small, /large, /bits at the root */
    if ((val[O_OUT] && !*val[O_OUT]) || (val[O_SUITE] && !*val[O_SUITE]))
        return usage("%s needs a directory%s", val[O_SUITE] ? "--suite" : "--out", "");
    if (cli_parse_u64(val[O_SEED], UINT64_MAX, &seed))
        return usage("--seed needs a non-negative integer, got '%s'%s", val[O_SEED], "");
    count = suite ? 100 : 0;
    if (val[O_COUNT] && cli_parse_u64(val[O_COUNT], 1000000, &count))
        return usage("--count needs a non-negative integer <= 1000000, got '%s'%s", val[O_COUNT], "");
    if (!suite && (val[O_LARGE_COUNT] || val[O_BITS_COUNT]))
        return usage("%s belongs to --suite%s", val[O_LARGE_COUNT] ? "--large-count" : "--bits-count", "");
    if (suite && val[O_BITS]) return usage("--suite writes its bits subset itself (its size: --bits-count)%s%s", "", "");
    if (val[O_LARGE_COUNT] && cli_parse_u64(val[O_LARGE_COUNT], 1000000, &large_count))
        return usage("--large-count needs a non-negative integer <= 1000000, got '%s'%s", val[O_LARGE_COUNT], "");
    if (val[O_BITS_COUNT] && cli_parse_u64(val[O_BITS_COUNT], 1000000, &bits_count))
        return usage("--bits-count needs a non-negative integer <= 1000000, got '%s'%s", val[O_BITS_COUNT], "");
    if (val[O_DATA_TYPES] && parse_types("--data-types", val[O_DATA_TYPES], 0, &cfg.b.data_types)) return CASE_USAGE;
    if (val[O_INDEX_TYPES] && parse_types("--index-types", val[O_INDEX_TYPES], 1, &cfg.b.index_types)) return CASE_USAGE;
    if (val[O_LEVEL] && !(cfg.level = case_feature_level_from_name(val[O_LEVEL])))
        return usage("unknown feature level '%s' (1_0 2_0 2_1 3_0 3_1 4_0 4_1 5_0 5_1 5_2 6_0 6_1 6_2 6_3 6_4)%s",
                     val[O_LEVEL], "");
    if (val[O_MAX_DIMS]) {
        if (cli_parse_u64(val[O_MAX_DIMS], 8, &u) || u < 1)
            return usage("--max-dims needs an integer in [1, 8], got '%s'%s", val[O_MAX_DIMS], "");
        cfg.max_dims = (uint32_t)u;
    }
    uint64_t max_elements = suite ? 65536 : 0;
    if (val[O_MAX_ELEMENTS] &&
        (cli_parse_u64(val[O_MAX_ELEMENTS], 16777216, &max_elements) || max_elements < BLD_SMALL_CAP))
        return usage("--max-elements needs an integer in [256, 16777216], got '%s'%s", val[O_MAX_ELEMENTS], "");
    if (val[O_EXPRESSIBLE]) {
        const char *e = val[O_EXPRESSIBLE];
        while (*e) {
            const size_t n = strcspn(e, ",");
            if (n == 4 && strncmp(e, "onnx", 4) == 0) cfg.expressible |= GEN_ONNX;
            else if (n == 5 && strncmp(e, "webnn", 5) == 0) cfg.expressible |= GEN_WEBNN;
            else return usage("--expressible takes onnx, webnn or onnx,webnn, got '%s'%s", val[O_EXPRESSIBLE], "");
            e += n + (e[n] == ',');
        }
        if (!cfg.expressible) return usage("--expressible takes onnx, webnn or onnx,webnn, got '%s'%s", val[O_EXPRESSIBLE], "");
    }
    cfg.b.no_negative_indices = val[O_NO_NEGATIVE] != NULL;
    cfg.b.packed = val[O_PACKED] != NULL;
    cfg.b.bits = val[O_BITS] != NULL;
    cfg.b.scale_bias = val[O_SCALE_BIAS] != NULL;

    /* the operators: ALL (every operator of the schema list, in its order) or a list of names */
    DMLREF_OPERATOR_TYPE ops[64];
    int n_ops = 0;
    const char *opname = val[O_OPERATOR] ? val[O_OPERATOR] : "ALL";
    const int all = strcmp(opname, "ALL") == 0;
    if (all) {
        const dmlref_schema *sc;
        for (uint32_t k = 0; (sc = dmlref_operator_schema_at(k)) != NULL && n_ops < 64; ++k) ops[n_ops++] = sc->type;
    } else {
        for (const char *p = opname;;) {
            const char *e = strchr(p, ',');
            const size_t l = e ? (size_t)(e - p) : strlen(p);
            char one[64];
            snprintf(one, sizeof one, "%.*s", (int)(l < sizeof one ? l : sizeof one - 1), p);
            if (n_ops == 64) {
                fprintf(stderr, "dmlref gen: --operator names more than 64 operators\n");
                return CASE_USAGE;
            }
            if ((ops[n_ops] = case_operator_from_name(one)) == 0) {
                char names[512];
                fprintf(stderr, "dmlref gen: unknown operator '%s' (%s, ALL)\n", one, case_operator_names(names, sizeof names));
                return CASE_USAGE;
            }
            ++n_ops;
            if (!e) break;
            p = e + 1;
        }
    }

    int written = 0, rc;
    if (!suite) {
        cfg.b.max_elements = max_elements;
        cfg_args(&cfg);
        rc = gen_dir(ops, n_ops, all, count, seed, &cfg, val[O_OUT], &written);
    } else {
        /* DIR/small, DIR/large, DIR/bits: the filters in each, a flavour apiece */
        const char *root = val[O_SUITE];
        const size_t rl = strlen(root);
        char *dir = malloc(rl + 16);
        if (!dir) {
            fprintf(stderr, "dmlref gen: %s: out of memory\n", root);
            return CASE_OUT_OF_MEMORY;
        }
        static const char *const sub[3] = {"small", "large", "bits"};
        const uint64_t counts[3] = {count, large_count, bits_count};
        rc = CASE_OK;
        for (int k = 0; k < 3 && rc == CASE_OK; ++k) {
            gen_cfg c = cfg;
            c.b.max_elements = k == 1 ? max_elements : 0;
            c.b.bits = k == 2;
            cfg_args(&c);
            snprintf(dir, rl + 16, "%s/%s", root, sub[k]);
            int w = 0;
            rc = gen_dir(ops, n_ops, all, counts[k], seed, &c, dir, &w);
            if (w > written) written = w;
        }
        free(dir);
    }
    if (rc == CASE_OK && all && written == 0 && count > 0) {
        fprintf(stderr, "dmlref gen: no operator has a case that meets the filters\n");
        return CASE_USAGE;
    }
    return rc;
}
