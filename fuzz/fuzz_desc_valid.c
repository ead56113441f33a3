/*
 * libFuzzer target: operator descriptors through validate and compile at every
 * feature level, without buffers or execution (fast: fuzz_desc_exec runs them).
 *
 * The input decodes into one descriptor (the byte format: fuzz/desc_decode.h;
 * the decoder also checks dmlref_calc_buffer_tensor_size against a 128-bit
 * computation for every tensor).  Then, aborting on any violation so that
 * libFuzzer reports it:
 *
 *   - dmlref_validate at each of the 15 known feature levels and at one
 *     unknown level (the input's, or 0, 0x1001, 0x7000 or 0xFFFFFFFF as misc
 *     bits 5-6 pick): every error carries its code, a non-empty message, and
 *     terminated rule and field strings; an unknown level is
 *     DMLREF_ERROR_FEATURE_LEVEL; an operator this build lacks, or a level
 *     before the operator's first support row, is
 *     DMLREF_ERROR_UNSUPPORTED_OPERATOR; a NULL Desc where the operator exists
 *     is DMLREF_ERROR_NULL_POINTER;
 *   - verdicts agree across levels.  A level enters validation only through
 *     the operator's support row (the allowed DimensionCount range and data
 *     types, src/core/registry.h; one rule reads the level otherwise: PD4, the
 *     PADDING modes, SYMMETRIC from 3_0 and WRAP from 6_4, whose pairs of
 *     levels are not compared when either verdict is PD4), and a wider
 *     row only turns failing support checks into passing ones.  So, for
 *     levels A and B whose rows are equal, the verdicts are identical
 *     (status, rule and field); where B's row contains A's, B's verdict is
 *     A's unless A's is a support failure (DIMENSION_COUNT or DATA_TYPE): in
 *     particular a descriptor valid at A is valid at every such B (every later
 *     level of today's tables);
 *   - at a level where it is valid, every tensor has TotalTensorSizeInBytes >=
 *     DMLCalcBufferTensorSize and at most 2^32-1 elements;
 *   - dmlref_compile at the input's level, with the default options and with
 *     DMLREF_OPTION_FORCE_ORACLE, gives validate's status there (or
 *     OUT_OF_MEMORY), *op set exactly when it succeeds, and the compiled
 *     operator expects the bindings the schema's walk gives; where it succeeds,
 *     it succeeds again from a bump allocator over exactly dmlref_compile_memory
 *     bytes, using all of them;
 *   - (misc bit 1) unknown option flags are refused whatever the descriptor.
 *
 * Heavy inputs are skipped: those with an output whose strides interleave
 * (no ordering of its dimensions puts each stride beyond the extent of the
 * smaller ones) over more than HEAVY_WORK elements.  The library's exact
 * overlap check (rule T15) walks a bitmap, sorts offsets or searches
 * coefficient vectors for them, the same work at every level, up to about
 * 0.5 s per validation under this instrumentation; with them the fuzzer spent
 * over 80% of its time there and ran at 400 executions per second, without
 * them 3,000 under the same load.  FUZZ_DESC_HEAVY=1 in the environment
 * includes them, validated at their own level and at the levels where the
 * operator has no support row, and compiled with the default options only
 * (two expensive calls, as the single descriptor target this one replaced
 * made), for a campaign aimed at that check.
 *
 * FUZZ_DESC_VERBOSE=1 in the environment prints each level's verdict.
 */
#define FUZZ_NAME "fuzz_desc_valid"
#include "desc_decode.h"

#define N_LEVELS 15u
#define HEAVY_WORK UINT64_C(256)

typedef struct verdict {
    dmlref_status st;
    char rule[DMLREF_ERROR_RULE_MAX];
    char field[DMLREF_ERROR_FIELD_MAX];
} verdict;

static const uint32_t unknown_levels[4] = {0, 0x1001, 0x7000, 0xFFFFFFFFu};

static int row_equal(const support_t *a, const support_t *b) {
    return a->min_dims == b->min_dims && a->max_dims == b->max_dims && a->data_types == b->data_types &&
           a->index_types == b->index_types;
}

/* Every descriptor that passes a's support checks passes b's. */
static int row_contains(const support_t *b, const support_t *a) {
    return b->min_dims <= a->min_dims && b->max_dims >= a->max_dims && (a->data_types & ~b->data_types) == 0 &&
           (a->index_types & ~b->index_types) == 0;
}

/* The rules that read the feature level beyond the support rows (docs/operators.md P5: PD4). */
static int level_rule(const verdict *v) { return strcmp(v->rule, "PD4") == 0; }

static int same_verdict(const verdict *a, const verdict *b) {
    return a->st == b->st && strcmp(a->rule, b->rule) == 0 && strcmp(a->field, b->field) == 0;
}

static const char *level_name(uint32_t fl) {
    const char *n = dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)fl);
    return n ? n : "(unknown)";
}

/* Validates at fl: the verdict, checked as an error; expect is the status it
 * must have, or -1 for any. */
static verdict validate_at(const fcase *c, uint32_t fl, int expect, int verbose) {
    dmlref_error err;
    verdict v;
    v.st = dmlref_validate(&c->op, (DMLREF_FEATURE_LEVEL)fl, &err);
    char what[64];
    snprintf(what, sizeof what, "validate at 0x%x", (unsigned)fl);
    check_error(what, v.st, &err);
    if (verbose) fprintf(stderr, "validate %s: %s %s\n", level_name(fl), dmlref_status_name(v.st), v.st ? err.message : "");
    if (v.st == DMLREF_OK) {
        v.rule[0] = v.field[0] = '\0';
    } else {
        memcpy(v.rule, err.rule, sizeof v.rule);
        memcpy(v.field, err.field, sizeof v.field);
    }
    if (expect >= 0 && v.st != (dmlref_status)expect && v.st != DMLREF_ERROR_OUT_OF_MEMORY)
        FAIL("validate at %s (0x%x) gives %s, expected %s", level_name(fl), (unsigned)fl, dmlref_status_name(v.st),
             dmlref_status_name((dmlref_status)expect));
    return v;
}

/* Elements of a tensor that validation accepted (sizes are >= 1, n in 1..8). */
static uint64_t elements_of(const DMLREF_BUFFER_TENSOR_DESC *b) {
    uint64_t e = 1;
    for (uint32_t d = 0; d < b->DimensionCount; ++d) e *= b->Sizes[d];
    return e;
}

/* The work the library's exact overlap check (rule T15) may do on an output:
 * 0 where the layout is disjoint by its strides alone (each dimension's stride
 * beyond the extent of the smaller-stride ones: the test src/core/tensor.c makes
 * first) or is refused at once (a zero stride, a bad DimensionCount), else
 * min(elements, span) -- the bitmap walk's, the sort's or the bounded
 * search's scale.  A cost estimate only: a wrong one changes speed, not what
 * is checked. */
static uint64_t overlap_work(const DMLREF_BUFFER_TENSOR_DESC *b) {
    const uint32_t n = b->DimensionCount;
    if (!b->Strides || !b->Sizes || n == 0 || n > 8) return 0;
    uint32_t idx[8], m = 0;
    for (uint32_t d = 0; d < n; ++d) {
        if (b->Sizes[d] <= 1) continue;
        if (b->Strides[d] == 0) return 0;
        idx[m++] = d;
    }
    for (uint32_t i = 1; i < m; ++i)
        for (uint32_t j = i; j > 0 && b->Strides[idx[j]] < b->Strides[idx[j - 1]]; --j) {
            const uint32_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    u128 extent = 0, elements = 1;
    int provable = 1;
    for (uint32_t i = 0; i < m; ++i) {
        if (b->Strides[idx[i]] <= extent) provable = 0;
        extent += (u128)(b->Sizes[idx[i]] - 1) * b->Strides[idx[i]];
        elements *= b->Sizes[idx[i]];
    }
    if (provable) return 0;
    const u128 w = elements < extent + 1 ? elements : extent + 1;
    return w > UINT64_MAX ? UINT64_MAX : (uint64_t)w;
}

/* See "Heavy inputs" above. */
static int is_heavy(const fcase *c) {
    for (uint32_t k = 0; k < c->n_out; ++k)
        if (overlap_work(c->out[k]) > HEAVY_WORK) return 1;
    return 0;
}

/* What validation accepted: sizes at least the minimum, at most 2^32-1 elements. */
static void check_valid_tensors(const fcase *c) {
    for (uint32_t k = 0; k < c->n_tensors; ++k) {
        const DMLREF_BUFFER_TENSOR_DESC *b = &c->t[k].buf;
        if (!c->t[k].ptr) continue; /* an optional tensor left NULL: not part of the desc */
        const uint64_t min = dmlref_calc_buffer_tensor_size(b->DataType, b->DimensionCount, b->Sizes, b->Strides);
        if (min == 0 || b->TotalTensorSizeInBytes < min)
            FAIL("tensor %u validated with TotalTensorSizeInBytes %llu below the minimum %llu", k,
                 (unsigned long long)b->TotalTensorSizeInBytes, (unsigned long long)min);
        if (elements_of(b) > UINT32_MAX) FAIL("tensor %u validated with more than 2^32-1 elements", k);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
/* A bump allocator (include/dmlref.h, dmlref_allocator): DMLREF_ALLOC_PADDED bytes per
 * request from base (malloc's: aligned to 16 on the fuzzing hosts), never reused. */
typedef struct bump {
    unsigned char *base;
    size_t cap, used;
} bump;

static void *bump_alloc(void *ctx, size_t size, size_t alignment) {
    bump *b = ctx;
    const size_t need = DMLREF_ALLOC_PADDED(size);
    (void)alignment;
    if (need > b->cap - b->used) return NULL;
    b->used += need;
    return b->base + b->used - need;
}

static void bump_free(void *ctx, void *ptr) {
    (void)ctx;
    (void)ptr;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    set_small_thresholds(); /* compile plans as fuzz_desc_exec's compiles do */
    check_op_table();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    fcase *c = calloc(1, sizeof *c);
    if (!c) abort();
    uint8_t misc, fill;
    const uint32_t fl = decode(&r, c, &misc, &fill);
    const DMLREF_FEATURE_LEVEL level = (DMLREF_FEATURE_LEVEL)fl;
    static int verbose = -1, with_heavy = 0;
    if (verbose < 0) {
        verbose = getenv("FUZZ_DESC_VERBOSE") != NULL;
        with_heavy = getenv("FUZZ_DESC_HEAVY") && strcmp(getenv("FUZZ_DESC_HEAVY"), "1") == 0;
    }
    const int heavy = is_heavy(c);
    if (heavy && !with_heavy) {
        if (verbose) fprintf(stderr, "skipped: an interleaved output of more than %llu elements\n",
                             (unsigned long long)HEAVY_WORK);
        free_case(c);
        return 0;
    }

    /* every level (a heavy input: its own, and those without a support row) */
    const op_class *cls = c->schema ? registry_find(c->op.Type) : NULL;
    if (c->schema && !cls) FAIL("%s has a schema but no class", c->schema->name);
    verdict v[N_LEVELS], at_fl = {DMLREF_OK, "", ""};
    support_t row[N_LEVELS];
    int has_row[N_LEVELS], done[N_LEVELS], oom = 0, checked_valid = 0, fl_known = 0;
    for (uint32_t i = 0; i < N_LEVELS; ++i) {
        has_row[i] = cls && support_lookup(cls, levels[i], &row[i]);
        done[i] = !heavy || !has_row[i] || levels[i] == fl;
        if (!done[i]) continue;
        const int expect = !has_row[i] ? DMLREF_ERROR_UNSUPPORTED_OPERATOR : !c->op.Desc ? DMLREF_ERROR_NULL_POINTER : -1;
        v[i] = validate_at(c, levels[i], expect, verbose);
        if (v[i].st == DMLREF_ERROR_OUT_OF_MEMORY) oom = 1;
        if (v[i].st == DMLREF_OK && !checked_valid) {
            check_valid_tensors(c);
            checked_valid = 1;
        }
        if (levels[i] == fl) {
            at_fl = v[i];
            fl_known = 1;
        }
    }
    /* one unknown level: the input's, or the one misc bits 5-6 pick */
    const verdict u = validate_at(c, fl_known ? unknown_levels[(misc >> 5) & 3] : fl, DMLREF_ERROR_FEATURE_LEVEL, verbose);
    if (!fl_known) at_fl = u;

    /* across levels, through the support rows */
    for (uint32_t a = 0; a < N_LEVELS && !oom; ++a)
        for (uint32_t b = 0; b < N_LEVELS; ++b) {
            if (a == b || !done[a] || !done[b] || !has_row[a] || !has_row[b]) continue;
            if (level_rule(&v[a]) || level_rule(&v[b])) continue;
            const int equal = row_equal(&row[a], &row[b]);
            const int support_failure = v[a].st == DMLREF_ERROR_DIMENSION_COUNT || v[a].st == DMLREF_ERROR_DATA_TYPE;
            if ((equal || (row_contains(&row[b], &row[a]) && !support_failure)) && !same_verdict(&v[a], &v[b]))
                FAIL("validate gives %s (rule '%s', field '%s') at %s but %s (rule '%s', field '%s') at %s, whose "
                     "support row %s %s's",
                     dmlref_status_name(v[a].st), v[a].rule, v[a].field, level_name(levels[a]),
                     dmlref_status_name(v[b].st), v[b].rule, v[b].field, level_name(levels[b]),
                     equal ? "equals" : "contains", level_name(levels[a]));
        }

    /* compile at the input's level agrees with validate there */
    dmlref_error err;
    static const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 0};
    const dmlref_options *opts[2] = {NULL, &oracle};
    for (int k = 0; k < (heavy ? 1 : 2); ++k) {
        const char *what = k ? "compile (oracle)" : "compile";
        dmlref_operator *op = NULL;
        const dmlref_status st = dmlref_compile(&c->op, level, opts[k], &op, &err);
        check_error(what, st, &err);
        if (st != at_fl.st && st != DMLREF_ERROR_OUT_OF_MEMORY && at_fl.st != DMLREF_ERROR_OUT_OF_MEMORY)
            FAIL("validate gives %s but %s %s", dmlref_status_name(at_fl.st), what, dmlref_status_name(st));
        if ((st == DMLREF_OK) != (op != NULL)) FAIL("%s: status and *op disagree", what);
        if (op) { /* a bump arena of exactly dmlref_compile_memory bytes compiles it again */
            size_t bytes = 0;
            const dmlref_status mst = dmlref_compile_memory(&c->op, level, opts[k], &bytes, &err);
            if (mst == DMLREF_OK) {
                bump b = {malloc(bytes ? bytes : 1), bytes, 0};
                const dmlref_allocator al = {bump_alloc, bump_free, &b};
                dmlref_options o = {.flags = 0, .threads = 0};
                if (opts[k]) o = *opts[k];
                o.allocator = &al;
                dmlref_operator *again = NULL;
                const dmlref_status bst = b.base ? dmlref_compile(&c->op, level, &o, &again, &err) : DMLREF_OK;
                if (bst != DMLREF_OK)
                    FAIL("%s: from a bump arena of dmlref_compile_memory (%zu) bytes: %s", what, bytes,
                         dmlref_status_name(bst));
                if (b.base && b.used != bytes)
                    FAIL("%s: the bump arena used %zu of dmlref_compile_memory's %zu bytes", what, b.used, bytes);
                dmlref_release(again);
                free(b.base);
            } else if (mst != DMLREF_ERROR_OUT_OF_MEMORY) {
                FAIL("%s succeeds but dmlref_compile_memory gives %s", what, dmlref_status_name(mst));
            }
        }
        if (op && (dmlref_input_count(op) != c->n_in || dmlref_output_count(op) != c->n_out))
            FAIL("%s: the operator binds %u inputs and %u outputs, the schema's walk %u and %u", what,
                 dmlref_input_count(op), dmlref_output_count(op), c->n_in, c->n_out);
        dmlref_release(op);
    }

    if (misc & 2) { /* unknown option bits are refused whatever the desc */
        const dmlref_options bad = {.flags = 0x80u, .threads = 1};
        dmlref_operator *op = NULL;
        const dmlref_status st = dmlref_compile(&c->op, level, &bad, &op, &err);
        check_error("bad options", st, &err);
        if (st == DMLREF_OK || op) FAIL("unknown option flags were accepted");
    }
    (void)fill;
    free_case(c);
    return 0;
}
