/*
 * What a drawn case uses (features.h): the "features" object of gen's files and
 * what gen's filters check.  It walks the tensors' elements through their strides
 * (a builder's case keeps them even for a tensor written without Strides).
 */
#include "features.h"
#include "builder.h"

#include "case/descbuf.h"
#include "case/value.h"

#include <stdlib.h>
#include <string.h>

const uint32_t features_levels[15] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                      0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

static const char *const special_names[SV_N] = {"negative_zero", "infinity",  "nan",
                                                "nan_payload",   "signaling_nan", "subnormal",
                                                "integer_extremes"};

uint32_t features_tensors(const dmlref_case *c, slot_tensor *out, uint32_t cap) {
    const dmlref_schema *s = c->schema;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        const DMLREF_TENSOR_DESC *first;
        memcpy(&first, (const unsigned char *)c->desc_mem + sl->offset, sizeof first);
        if (!first) continue;
        const uint32_t at = (uint32_t)(first - (sl->is_output ? c->out_descs : c->in_descs));
        const uint32_t cnt = sl->is_array ? desc_get_u32(c->desc_mem, sl->count_offset) : 1;
        for (uint32_t j = 0; j < cnt && n < cap; ++j)
            out[n++] = (slot_tensor){sl, (sl->is_output ? c->outputs : c->inputs) + at + j};
    }
    return n;
}

static int is_signed_int(DMLREF_TENSOR_DATA_TYPE dt) {
    return dt == DMLREF_TENSOR_DATA_TYPE_INT8 || dt == DMLREF_TENSOR_DATA_TYPE_INT16 ||
           dt == DMLREF_TENSOR_DATA_TYPE_INT32 || dt == DMLREF_TENSOR_DATA_TYPE_INT64;
}

/* Whether the signed integer at slot is negative: its sign bit. */
static int negative_at(const case_tensor *t, uint64_t slot) {
    return (int)(value_load_bits(t->data + slot * t->esize, t->esize) >> (8 * t->esize - 1) & 1u);
}

/* Whether an index tensor's elements (its addressed slots) hold a negative value. */
int features_has_negative(const case_tensor *t) {
    if (!is_signed_int(t->buf.DataType)) return 0;
    uint32_t c[8] = {0};
    do
        if (negative_at(t, bld_slot_of(t, c))) return 1;
    while (bld_next_coord(t->sizes, t->buf.DimensionCount, c));
    return 0;
}

/* The special values among t's elements, as bits (1u << SV_*). */
static uint32_t special_values(const case_tensor *t) {
    const uint32_t es = t->esize, nbits = 8 * es;
    const int is_float = value_is_float(t->buf.DataType);
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
        } else if (is_signed_int(t->buf.DataType) ? v == top || v == top - 1 : v == ones) {
            sv |= 1u << SV_INT_EXTREMES;
        }
    } while (bld_next_coord(t->sizes, t->buf.DimensionCount, c));
    return sv;
}

uint64_t features_min_total_bytes(const case_tensor *t) { return (t->span_slots * t->esize + 3) & ~UINT64_C(3); }

/* Whether some slot below IndexOfLastElement is addressed by no element. */
static int has_gaps(const case_tensor *t) {
    unsigned char *seen = calloc((size_t)t->span_slots, 1);
    if (!seen) {
        bld_out_of_memory = 1; /* the answer is unknown: gen stops */
        return 0;
    }
    uint64_t distinct = 0;
    uint32_t c[8] = {0};
    do {
        const uint64_t s = bld_slot_of(t, c);
        distinct += !seen[s];
        seen[s] = 1;
    } while (bld_next_coord(t->sizes, t->buf.DimensionCount, c));
    free(seen);
    return distinct < t->span_slots;
}

static int has_broadcast(const case_tensor *t) {
    for (uint32_t d = 0; t->buf.Strides && d < t->buf.DimensionCount; ++d)
        if (t->strides[d] == 0 && t->sizes[d] > 1) return 1;
    return 0;
}

/* Slots whose type the operator fixes whatever the data type: ELEMENT_WISE_IF's condition
 * (UINT8), TOP_K's index output (UINT32 or UINT64), NONZERO_COORDINATES' outputs (UINT32): in
 * no type list, under no type filter. */
int features_fixed_type(const dmlref_tensor_slot *sl) {
    return strcmp(sl->name, "ConditionTensor") == 0 || strcmp(sl->name, "OutputIndexTensor") == 0 ||
           strcmp(sl->name, "OutputCountTensor") == 0 || strcmp(sl->name, "OutputCoordinatesTensor") == 0;
}

void features_of(const dmlref_case *c, features *ft) {
    slot_tensor ts[2 * GEN_MAX_TENSORS];
    const uint32_t n = features_tensors(c, ts, 2 * GEN_MAX_TENSORS);
    memset(ft, 0, sizeof *ft);
    for (uint32_t k = 0; k < n; ++k) {
        const case_tensor *t = ts[k].t;
        if (features_fixed_type(ts[k].sl)) {
            /* the operator's own type: in no type list */
        } else if (ts[k].sl->is_index) {
            ft->index_types |= 1u << t->buf.DataType;
            ft->negative_indices |= features_has_negative(t);
        } else {
            ft->data_types |= 1u << t->buf.DataType;
            if (!ts[k].sl->is_output) ft->special |= special_values(t);
        }
        if (t->buf.DimensionCount > ft->max_dims) ft->max_dims = t->buf.DimensionCount;
        ft->strides |= t->buf.Strides != NULL;
        ft->broadcast |= has_broadcast(t);
        ft->gaps |= has_gaps(t);
        ft->padded_total |= t->buf.TotalTensorSizeInBytes > features_min_total_bytes(t);
    }
    for (size_t k = 0; k < sizeof features_levels / sizeof features_levels[0] && !ft->min_level; ++k) {
        const dmlref_status st = dmlref_validate(&c->desc, (DMLREF_FEATURE_LEVEL)features_levels[k], NULL);
        if (st == DMLREF_ERROR_OUT_OF_MEMORY) bld_out_of_memory = 1; /* no verdict: gen stops */
        else if (st == DMLREF_OK) ft->min_level = features_levels[k];
    }
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
void features_write(FILE *f, const features *ft) {
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
