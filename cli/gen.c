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
 * not data movement) appears only under --scale-bias.  Each case is written to
 * memory, read back with case_parse, re-executed and compared before its file
 * is written.
 */
#include "args.h"
#include "builders/builder.h"
#include "case/case.h"
#include "case/fields.h"
#include "cli.h"
#include "dirs.h"
#include "case/file_atomic.h"
#include "case/json_out.h"
#include "case/prng.h"
#include "case/value.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    "5 a file could not be written\n";

static const uint32_t all_levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                      0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

/* ---- what a case uses: the "features" object, and the filters' check ------------------- */

enum { SV_NEGATIVE_ZERO, SV_INFINITY, SV_NAN, SV_NAN_PAYLOAD, SV_SIGNALING_NAN, SV_SUBNORMAL, SV_INT_EXTREMES, SV_N };
static const char *const special_names[SV_N] = {"negative_zero", "infinity",  "nan",
                                                "nan_payload",   "signaling_nan", "subnormal",
                                                "integer_extremes"};

typedef struct features {
    uint32_t data_types, index_types; /* bit (1u << dt) */
    uint32_t max_dims, min_level;
    int negative_indices, strides, broadcast, gaps, padded_total;
    uint32_t special; /* bit (1u << SV_*) */
} features;

/* One tensor of a case with its slot: tensors in slot order (an array slot: each). */
typedef struct slot_tensor {
    const dmlref_tensor_slot *sl;
    const gtensor *t;
} slot_tensor;

static uint32_t case_tensors(const gcase *g, slot_tensor *out) {
    const dmlref_schema *s = g->schema;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        const DMLREF_TENSOR_DESC *first;
        memcpy(&first, g->u.bytes + sl->offset, sizeof first);
        if (!first) continue;
        const uint32_t at = (uint32_t)(first - (sl->is_output ? g->out_desc : g->in_desc));
        const uint32_t cnt = sl->is_array ? desc_get_u32(g->u.bytes, sl->count_offset) : 1;
        for (uint32_t j = 0; j < cnt && n < 2 * GEN_MAX_TENSORS; ++j)
            out[n++] = (slot_tensor){sl, (sl->is_output ? g->out : g->in) + at + j};
    }
    return n;
}

static int is_signed_int(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
           dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
}

/* Whether the signed integer at slot is negative: its sign bit. */
static int negative_at(const gtensor *t, uint64_t slot) {
    return (int)(value_load_bits(t->data + slot * t->es, t->es) >> (8 * t->es - 1) & 1u);
}

/* Whether an index tensor's elements (its addressed slots) hold a negative value. */
static int has_negative(const gtensor *t) {
    if (!is_signed_int(t->dt)) return 0;
    uint32_t c[8] = {0};
    do
        if (negative_at(t, bld_slot_of(t, c))) return 1;
    while (bld_next_coord(t->sizes, t->n, c));
    return 0;
}

/* The special values among t's elements, as bits (1u << SV_*). */
static uint32_t special_values(const gtensor *t) {
    const uint32_t es = t->es, nbits = 8 * es;
    const int is_float = value_is_float(t->dt);
    const int ebits = es == 2 ? 5 : es == 4 ? 8 : 11, mbits = (int)nbits - 1 - ebits;
    const uint64_t ones = es == 8 ? UINT64_MAX : (UINT64_C(1) << nbits) - 1, top = UINT64_C(1) << (nbits - 1);
    uint32_t sv = 0;
    uint32_t c[8] = {0};
    do {
        const uint64_t v = value_load_bits(t->data + bld_slot_of(t, c) * es, es);
        if (is_float) {
            const uint64_t man = v & ((UINT64_C(1) << mbits) - 1), e = (v >> mbits) & ((UINT64_C(1) << ebits) - 1),
                           emax = (UINT64_C(1) << ebits) - 1, quiet = UINT64_C(1) << (mbits - 1);
            if (e == emax && man == 0) sv |= 1u << SV_INFINITY;
            else if (e == emax && v == (emax << mbits | quiet)) sv |= 1u << SV_NAN;
            else if (e == emax) sv |= 1u << (man & quiet ? SV_NAN_PAYLOAD : SV_SIGNALING_NAN);
            else if (e == 0 && man != 0) sv |= 1u << SV_SUBNORMAL;
            else if (e == 0 && v != 0) sv |= 1u << SV_NEGATIVE_ZERO;
        } else if (is_signed_int(t->dt) ? v == top || v == top - 1 : v == ones) {
            sv |= 1u << SV_INT_EXTREMES;
        }
    } while (bld_next_coord(t->sizes, t->n, c));
    return sv;
}

static uint64_t min_total_bytes(const gtensor *t) { return (t->span_slots * t->es + 3) & ~UINT64_C(3); }

/* Whether some slot below IndexOfLastElement is addressed by no element. */
static int has_gaps(const gtensor *t) {
    unsigned char *seen = calloc((size_t)t->span_slots, 1);
    if (!seen) return 0;
    uint64_t distinct = 0;
    uint32_t c[8] = {0};
    do {
        const uint64_t s = bld_slot_of(t, c);
        distinct += !seen[s];
        seen[s] = 1;
    } while (bld_next_coord(t->sizes, t->n, c));
    free(seen);
    return distinct < t->span_slots;
}

static int has_broadcast(const gtensor *t) {
    for (uint32_t d = 0; t->has_strides && d < t->n; ++d)
        if (t->strides[d] == 0 && t->sizes[d] > 1) return 1;
    return 0;
}

static void case_features(const gcase *g, features *ft) {
    slot_tensor ts[2 * GEN_MAX_TENSORS];
    const uint32_t n = case_tensors(g, ts);
    memset(ft, 0, sizeof *ft);
    for (uint32_t k = 0; k < n; ++k) {
        const gtensor *t = ts[k].t;
        if (ts[k].sl->is_index) {
            ft->index_types |= 1u << t->dt;
            ft->negative_indices |= has_negative(t);
        } else {
            ft->data_types |= 1u << t->dt;
            if (!ts[k].sl->is_output) ft->special |= special_values(t);
        }
        if (t->n > ft->max_dims) ft->max_dims = t->n;
        ft->strides |= t->has_strides;
        ft->broadcast |= has_broadcast(t);
        ft->gaps |= has_gaps(t);
        ft->padded_total |= t->buf.TotalTensorSizeInBytes > min_total_bytes(t);
    }
    for (size_t k = 0; k < sizeof all_levels / sizeof all_levels[0] && !ft->min_level; ++k)
        if (dmlref_validate(&g->desc, (DMLREF_FEATURE_LEVEL)all_levels[k], NULL) == DMLREF_OK) ft->min_level = all_levels[k];
}

static void write_type_list(FILE *f, uint32_t mask, const DMLREF_TENSOR_DATA_TYPE *order, uint32_t n) {
    int first = 1;
    fputc('[', f);
    for (uint32_t k = 0; k < n; ++k)
        if (mask >> order[k] & 1u) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ", dmlref_data_type_name(order[k]));
            first = 0;
        }
    fputc(']', f);
}

/* `  "features": {...},\n`: one line (docs/case-format.md; readers ignore it). */
static void write_features(FILE *f, const features *ft) {
    static const char *const tf[2] = {"false", "true"};
    fputs("  \"features\": {\"data_types\": ", f);
    write_type_list(f, ft->data_types, bld_data_types, 11);
    fputs(", \"index_types\": ", f);
    write_type_list(f, ft->index_types, bld_index_types, 4);
    fprintf(f, ", \"max_dimension_count\": %u, \"min_feature_level\": \"%s\", \"negative_indices\": %s, "
               "\"strides\": %s, \"broadcast\": %s, \"gaps\": %s, \"padded_total\": %s, \"special_values\": [",
            (unsigned)ft->max_dims, dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)ft->min_level),
            tf[ft->negative_indices], tf[ft->strides], tf[ft->broadcast], tf[ft->gaps], tf[ft->padded_total]);
    int first = 1;
    for (int k = 0; k < SV_N; ++k)
        if (ft->special >> k & 1u) {
            fprintf(f, "%s\"%s\"", first ? "" : ", ", special_names[k]);
            first = 0;
        }
    fputs("]},\n", f);
}

/* What gen was asked for: the helpers' settings, the filters only gen checks, the
 * options as the comment names them, the file names' prefix. */
typedef struct gen_cfg {
    bld_settings b;
    uint32_t level;    /* --feature-level; 0: none */
    uint32_t max_dims; /* --max-dims; 0: none */
    char args[256];    /* " --data-types ... --bits": "" for the plain flavour */
    const char *prefix; /* "gen", "gen-bits", "gen-large", "gen-bits-large", each + "-scale-bias" */
} gen_cfg;

static int cfg_filters(const gen_cfg *cfg) {
    return cfg->b.data_types || cfg->b.index_types || cfg->b.no_negative_indices || cfg->b.packed ||
           cfg->b.max_elements || cfg->level || cfg->max_dims;
}

enum { R_DATA, R_INDEX, R_DIMS, R_PACKED, R_NEGATIVE, R_ELEMENTS, R_LEVEL, R_N };
static const char *const reason_text[R_N] = {"a data type outside --data-types", "an index type outside --index-types",
                                             "a DimensionCount above --max-dims", "a layout that is not packed",
                                             "a negative index", "a tensor above --max-elements elements",
                                             "not valid at --feature-level"};

/* The first filter g breaks (R_*), or -1.  (The feature level: the caller.) */
static int violation(const gcase *g, const gen_cfg *cfg) {
    slot_tensor ts[2 * GEN_MAX_TENSORS];
    const uint32_t n = case_tensors(g, ts);
    for (uint32_t k = 0; k < n; ++k) {
        const gtensor *t = ts[k].t;
        const uint32_t mask = ts[k].sl->is_index ? cfg->b.index_types : cfg->b.data_types;
        if (mask && !(mask >> t->dt & 1u)) return ts[k].sl->is_index ? R_INDEX : R_DATA;
        if (cfg->max_dims && t->n > cfg->max_dims) return R_DIMS;
        if (cfg->b.packed && (t->has_strides || t->buf.TotalTensorSizeInBytes != min_total_bytes(t))) return R_PACKED;
        if (cfg->b.no_negative_indices && ts[k].sl->is_index && has_negative(t)) return R_NEGATIVE;
        if (cfg->b.max_elements && bld_product(t->sizes, t->n) > cfg->b.max_elements) return R_ELEMENTS;
    }
    return -1;
}

/* ---- writing ---------------------------------------------------------------------------- */

static void write_nested(FILE *f, const gtensor *t, uint32_t d, uint64_t *slot) {
    if (d + 1 == t->n) {
        jout_values(f, t->data + *slot * t->es, t->sizes[d], t->dt, 0, 0);
        *slot += t->sizes[d];
        return;
    }
    fputc('[', f);
    for (uint32_t i = 0; i < t->sizes[d]; ++i) {
        if (i) fputs(", ", f);
        write_nested(f, t, d + 1, slot);
    }
    fputc(']', f);
}

static void write_tensor(FILE *f, const char *key, const gtensor *t, int with_data, unsigned indent) {
    if (key) fprintf(f, "  \"%s\": ", key);
    fprintf(f, "{\"DataType\": \"%s\", \"Sizes\": ", dmlref_data_type_name(t->dt));
    jout_u32_list(f, t->sizes, t->n);
    if (t->has_strides) {
        fputs(", \"Strides\": ", f);
        jout_u32_list(f, t->strides, t->n);
    }
    if (t->total_given) fprintf(f, ", \"TotalTensorSizeInBytes\": %" PRIu64, t->buf.TotalTensorSizeInBytes);
    if (with_data) {
        fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
        if (t->nested) {
            uint64_t slot = 0;
            write_nested(f, t, 0, &slot);
        } else {
            jout_values(f, t->data, t->whole ? t->total_slots : t->span_slots, t->dt, 0, 0);
        }
    }
    fputc('}', f);
}

/* `  "Name": tensor,\n`, or for an array slot `  "Name": [\n    tensor,\n    ...\n  ],\n`. */
static void write_slot(FILE *f, const dmlref_tensor_slot *sl, const gtensor *t, uint32_t n) {
    const int with_data = !sl->is_output;
    if (!sl->is_array) {
        write_tensor(f, sl->name, t, with_data, 2);
        fputs(",\n", f);
        return;
    }
    fprintf(f, "  \"%s\": [\n", sl->name);
    for (uint32_t k = 0; k < n; ++k) {
        fputs("    ", f);
        write_tensor(f, NULL, &t[k], with_data, 4);
        fputs(k + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
}

/* The case file: its fields (fields_write_params), its tensors slot by slot (inputs with
 * data, outputs without), then `expected` (whole output buffers). */
static void write_features(FILE *f, const features *ft);

static void write_case(FILE *f, const gcase *g, const features *ft, const char *name, uint64_t seed, uint64_t i,
                       const char *args) {
    const dmlref_schema *s = g->schema;
    const char *op = s->name;
    fprintf(f, "{\n  \"name\": \"%s\",\n", name);
    fprintf(f, "  \"comment\": \"dmlref gen --operator %s --seed %" PRIu64 "%s, case %" PRIu64 " (dmlref %s); expected "
               "lists cover whole output buffers: 0xCD slots are bytes no output element addresses\",\n",
            op, seed, args, i, DMLREF_VERSION_STRING);
    fprintf(f, "  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n", op,
            dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)g->fl));
    write_features(f, ft);
    fields_write_params(f, s, g->u.bytes, 2);
    for (int out = 0; out < 2; ++out)
        for (uint32_t k = 0; k < s->n_slots; ++k) {
            const dmlref_tensor_slot *sl = &s->slots[k];
            if (sl->is_output != out) continue;
            const DMLREF_TENSOR_DESC *first;
            memcpy(&first, g->u.bytes + sl->offset, sizeof first);
            if (!first) continue; /* an optional slot left NULL */
            const uint32_t at = (uint32_t)(first - (out ? g->out_desc : g->in_desc));
            write_slot(f, sl, (out ? g->out : g->in) + at, sl->is_array ? desc_get_u32(g->u.bytes, sl->count_offset) : 1);
        }
    fputs("  \"expected\": {", f);
    int first_out = 1;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        if (!sl->is_output) continue;
        const DMLREF_TENSOR_DESC *first;
        memcpy(&first, g->u.bytes + sl->offset, sizeof first);
        if (!first) continue;
        const gtensor *t = g->out + (first - g->out_desc);
        fprintf(f, "%s\"%s\": ", first_out ? "" : ", ", sl->name);
        first_out = 0;
        if (!sl->is_array) {
            jout_values(f, t->data, t->total_slots, t->dt, 0, 0);
            continue;
        }
        const uint32_t n = desc_get_u32(g->u.bytes, sl->count_offset);
        fputs("[\n", f);
        for (uint32_t j = 0; j < n; ++j) {
            fputs("    ", f);
            jout_values(f, t[j].data, t[j].total_slots, t[j].dt, 0, 0);
            fputs(j + 1 < n ? ",\n" : "\n", f);
        }
        fputs("  ]", f);
    }
    fputs("}\n}\n", f);
}

/* ---- one case ------------------------------------------------------------------------------- */

/* Draws a case meeting the filters can take: then make_case gives up (GEN_UNMET). */
#define GEN_FILTER_DRAWS 100000
#define GEN_UNMET (-1)

/* splitmix64's output function: a bijection that scatters nearby inputs. */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void lower_name(const char *op, char *lower, size_t cap) {
    size_t n = 0;
    for (; op[n] && n + 1 < cap; ++n) lower[n] = (char)(op[n] >= 'A' && op[n] <= 'Z' ? op[n] - 'A' + 'a' : op[n]);
    lower[n] = '\0';
}

/* Case i of the operator: CASE_OK (text, len: the file), CASE_SYSTEM, or GEN_UNMET (no
 * case met the filters within GEN_FILTER_DRAWS draws; err says what they broke). */
static int make_case(DMLREF_OPERATOR_TYPE type, uint64_t seed, uint64_t i, const gen_cfg *cfg, char **text,
                     size_t *len, char *err, size_t errcap) {
    const int filtered = cfg_filters(cfg);
    /* a stream of its own per (seed, flavour, operator, case), through splitmix64's finaliser,
     * so no two cases share their draws however often either redraws (--scale-bias is no flavour
     * of its own here: only ELEMENT_WISE_IDENTITY's builder reads it, the others draw as without) */
    const uint64_t flavour = (cfg->b.bits ? 1u : 0u) | (cfg->b.max_elements ? 2u : 0u);
    prng r = {mix64(mix64(mix64(seed ^ (UINT64_C(0x5851F42D4C957F2D) * (flavour + 1))) + (uint64_t)type) + i)};
    (void)prng_next(&r);
    const builder *b = builder_find(type);
    const dmlref_schema *schema = dmlref_operator_schema(type);
    if (!b || !schema || schema->desc_size > GEN_MAX_DESC) {
        snprintf(err, errcap, "internal: no case builder for %s", dmlref_operator_name(type));
        return CASE_SYSTEM;
    }
    uint64_t rejected[R_N] = {0};
    uint32_t invalid = 0;
    bld_opts = cfg->b;
    gcase g;
    dmlref_error derr;
    /* why cases were not valid at --feature-level: up to 4 rules, each with a count and its first message */
    struct {
        char key[DMLREF_ERROR_RULE_MAX + DMLREF_ERROR_FIELD_MAX + 2];
        uint64_t n;
        char message[sizeof derr.message];
    } level_why[4];
    uint32_t n_level_why = 0;
    for (uint32_t attempt = 0;; ++attempt) {
        memset(&g, 0, sizeof g);
        g.type = type;
        g.schema = schema;
        int rc = b->build(&r, &g);
        for (uint32_t k = 0; rc == 0 && k < g.n_in; ++k) rc = g.in[k].data ? 0 : -1;
        for (uint32_t k = 0; rc == 0 && k < g.n_out; ++k) rc = g.out[k].data ? 0 : -1;
        if (rc == 0) {
            bld_bind(&g);
            if (dmlref_validate(&g.desc, DMLREF_FEATURE_LEVEL_6_4, &derr) == DMLREF_OK) {
                if (!filtered) break;
                int why = violation(&g, cfg);
                if (why < 0 && cfg->level && dmlref_validate(&g.desc, (DMLREF_FEATURE_LEVEL)cfg->level, &derr) != DMLREF_OK) {
                    why = R_LEVEL;
                    char key[sizeof level_why[0].key];
                    snprintf(key, sizeof key, "%s %s", derr.rule, derr.field);
                    uint32_t w = 0;
                    while (w < n_level_why && strcmp(level_why[w].key, key) != 0) ++w;
                    if (w == n_level_why && w < 4) {
                        memcpy(level_why[w].key, key, sizeof key);
                        memcpy(level_why[w].message, derr.message, sizeof derr.message);
                        level_why[w].n = 0;
                        ++n_level_why;
                    }
                    if (w < n_level_why) ++level_why[w].n;
                }
                if (why < 0) break;
                ++rejected[why];
            } else if (++invalid > 200) {
                snprintf(err, errcap, "internal: generated an invalid case: %s", derr.message);
                bld_gcase_free(&g);
                bld_opts = (bld_settings){0};
                return CASE_SYSTEM;
            }
        }
        bld_gcase_free(&g);
        if (!filtered && attempt > 1000) {
            snprintf(err, errcap, "internal: no valid case after 1000 attempts");
            bld_opts = (bld_settings){0};
            return CASE_SYSTEM;
        }
        if (filtered && attempt + 1 >= GEN_FILTER_DRAWS) {
            size_t n = (size_t)snprintf(err, errcap, "%s: no case meets the filters in %d draws (rejected:",
                                        schema->name, GEN_FILTER_DRAWS);
            const char *sep = " ";
            for (int k = 0; k < R_N && n < errcap; ++k)
                if (rejected[k]) {
                    n += (size_t)snprintf(err + n, errcap - n, "%s%" PRIu64 " %s", sep, rejected[k], reason_text[k]);
                    if (k == R_LEVEL && n < errcap)
                        n += (size_t)snprintf(err + n, errcap - n, " %s",
                                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)cfg->level));
                    for (uint32_t w = 0; k == R_LEVEL && w < n_level_why && n < errcap; ++w)
                        n += (size_t)snprintf(err + n, errcap - n, "%s%" PRIu64 " for \"%s\"", w ? "; " : " (",
                                              level_why[w].n, level_why[w].message);
                    if (k == R_LEVEL && n_level_why && n < errcap) n += (size_t)snprintf(err + n, errcap - n, ")");
                    sep = ", ";
                }
            if (n < errcap) snprintf(err + n, errcap - n, "%s)", *sep == ' ' ? " none: the builder drew no valid case" : "");
            bld_opts = (bld_settings){0};
            return GEN_UNMET;
        }
    }
    bld_opts = (bld_settings){0};
    /* feature level: the newest (or --feature-level's) half of the time, else any level up to it
     * that accepts the case */
    const uint32_t top = cfg->level ? cfg->level : DMLREF_FEATURE_LEVEL_6_4;
    g.fl = top;
    if (bld_rnd(&r, 2)) {
        uint32_t ok[15], n = 0;
        for (size_t k = 0; k < sizeof all_levels / sizeof all_levels[0]; ++k)
            if (all_levels[k] <= top && dmlref_validate(&g.desc, (DMLREF_FEATURE_LEVEL)all_levels[k], NULL) == DMLREF_OK)
                ok[n++] = all_levels[k];
        g.fl = ok[bld_rnd(&r, n)];
    }
    features ft;
    case_features(&g, &ft);
    /* outputs: 0xCD, then the oracle, with index checking as a guard */
    dmlref_cbuffer ib[GEN_MAX_TENSORS];
    dmlref_buffer ob[GEN_MAX_TENSORS];
    for (uint32_t k = 0; k < g.n_in; ++k) ib[k] = (dmlref_cbuffer){g.in[k].data, (size_t)g.in[k].buf.TotalTensorSizeInBytes};
    for (uint32_t k = 0; k < g.n_out; ++k) {
        memset(g.out[k].data, 0xCD, (size_t)g.out[k].buf.TotalTensorSizeInBytes);
        ob[k] = (dmlref_buffer){g.out[k].data, (size_t)g.out[k].buf.TotalTensorSizeInBytes};
    }
    const dmlref_options o = {DMLREF_OPTION_FORCE_ORACLE | DMLREF_OPTION_CHECK_INDICES, 1};
    if (dmlref_run(&g.desc, (DMLREF_FEATURE_LEVEL)g.fl, &o, ib, g.n_in, ob, g.n_out, &derr) != DMLREF_OK) {
        snprintf(err, errcap, "internal: the oracle failed on a generated case: %s", derr.message);
        bld_gcase_free(&g);
        return CASE_SYSTEM;
    }
    char name[128], lower[32];
    lower_name(dmlref_operator_name(type), lower, sizeof lower);
    snprintf(name, sizeof name, "%s_%s_%" PRIu64 "_%" PRIu64, cfg->prefix, lower, seed, i);
    FILE *f = open_memstream(text, len);
    if (!f) {
        bld_gcase_free(&g);
        snprintf(err, errcap, "out of memory");
        return CASE_SYSTEM;
    }
    write_case(f, &g, &ft, name, seed, i, cfg->args);
    fclose(f);
    bld_gcase_free(&g);

    /* read it back as any user would, run it and compare */
    dmlref_case c;
    char perr[512];
    int rc = case_parse(*text, *len, NULL, &c, perr, sizeof perr);
    if (rc == CASE_OK) {
        const dmlref_options fo = {DMLREF_OPTION_FORCE_ORACLE, 1};
        if (dmlref_run(&c.desc, c.feature_level, &fo, c.in_bufs, c.n_inputs, c.out_bufs, c.n_outputs, &derr) != DMLREF_OK) {
            snprintf(perr, sizeof perr, "%s", derr.message);
            rc = CASE_INVALID;
        } else if (case_compare(&c, NULL, 0) != 0) {
            snprintf(perr, sizeof perr, "expected values do not read back");
            rc = CASE_DIFFER;
        }
        case_free(&c);
    }
    if (rc != CASE_OK) {
        snprintf(err, errcap, "internal: %s does not read back: %s", name, perr);
        free(*text);
        *text = NULL;
        return CASE_SYSTEM;
    }
    return CASE_OK;
}

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
    if (dir_create_path(dir, derr, sizeof derr)) {
        fprintf(stderr, "dmlref gen: %s\n", derr);
        return CASE_SYSTEM;
    }
    const size_t dl = strlen(dir);
    char *path = malloc(dl + 160);
    if (!path) return CASE_SYSTEM;
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
        lower_name(dmlref_operator_name(ops[k]), lower, sizeof lower);
        for (uint64_t i = 0; i < count && rc == CASE_OK; ++i) {
            char *text = NULL;
            size_t len = 0;
            rc = make_case(ops[k], seed, i, cfg, &text, &len, err, sizeof err);
            if (rc == GEN_UNMET && all && i == 0) {
                fprintf(stderr, "dmlref gen: skipped %s\n", err);
                rc = CASE_OK;
                break;
            }
            if (rc == GEN_UNMET) rc = CASE_USAGE;
            if (rc == CASE_OK) {
                snprintf(path, dl + 160, "%s/%s_%s_%" PRIu64 "_%" PRIu64 ".json", dir, cfg->prefix, lower, seed, i);
                const file_part part = {text, len};
                if (file_write_atomic(path, &part, 1, err, sizeof err)) rc = CASE_SYSTEM;
                else if (i == 0) ++*written;
            }
            free(text);
            if (rc != CASE_OK) fprintf(stderr, "dmlref gen: %s\n", err);
        }
    }
    free(path);
    return rc;
}

enum {
    O_OPERATOR, O_COUNT, O_SEED, O_OUT, O_SUITE, O_DATA_TYPES, O_INDEX_TYPES, O_LEVEL, O_MAX_DIMS,
    O_MAX_ELEMENTS, O_LARGE_COUNT, O_BITS_COUNT, O_N_VALUED, /* then the flags */
    O_NO_NEGATIVE = O_N_VALUED, O_PACKED, O_BITS, O_SCALE_BIAS, O_N
};
static const char *const opt_names[O_N] = {
    "--operator",    "--count",       "--seed",        "--out",        "--suite",
    "--data-types",  "--index-types", "--feature-level", "--max-dims", "--max-elements",
    "--large-count", "--bits-count",  "--no-negative-indices", "--packed", "--bits", "--scale-bias"};

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
            if (n_ops == 64 || (ops[n_ops] = case_operator_from_name(one)) == 0) {
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
        if (!dir) return CASE_SYSTEM;
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
