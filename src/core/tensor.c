/*
 * The rules every buffer tensor obeys (docs/operators.md 1.2 - 1.5, rules T1-T15), in one place:
 * DMLREF_TENSOR_DESC / DMLREF_BUFFER_TENSOR_DESC checks, DMLCalcBufferTensorSize,
 * and the output no-overlap rule.  All arithmetic is 64-bit and checked.
 */
#include "internal.h"
#include "overlap.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* a * b into *r; 0 on overflow. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *r) {
    if (a != 0 && b > UINT64_MAX / a) return 0;
    *r = a * b;
    return 1;
}

static int add_u64(uint64_t a, uint64_t b, uint64_t *r) {
    if (b > UINT64_MAX - a) return 0;
    *r = a + b;
    return 1;
}

static uint32_t data_type_bits(DMLREF_TENSOR_DATA_TYPE dt) {
    if (dt == DMLREF_TENSOR_DATA_TYPE_UINT4 || dt == DMLREF_TENSOR_DATA_TYPE_INT4) return 4;
    return 8 * dmlref_data_type_size(dt);
}

uint64_t dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE data_type,
                                        uint32_t dimension_count,
                                        const uint32_t *sizes,
                                        const uint32_t *strides) {
    uint64_t bits = data_type_bits(data_type), count, bytes;
    if (bits == 0 || dimension_count == 0 || sizes == NULL) return 0;
    for (uint32_t i = 0; i < dimension_count; ++i)
        if (sizes[i] == 0) return 0;
    if (strides == NULL) {
        count = 1;
        for (uint32_t i = 0; i < dimension_count; ++i)
            if (!mul_u64(count, sizes[i], &count)) return 0;
    } else {
        uint64_t last = 0, term;
        for (uint32_t i = 0; i < dimension_count; ++i) {
            term = (uint64_t)(sizes[i] - 1) * strides[i]; /* < 2^64: both < 2^32 */
            if (!add_u64(last, term, &last)) return 0;
        }
        if (!add_u64(last, 1, &count)) return 0;
    }
    /* In bytes, not bits: count * bits would overflow for results in
     * [2^61, 2^64) that validation accepts. */
    if (bits % 8 == 0) {
        if (!mul_u64(count, bits / 8, &bytes)) return 0;
    } else {
        bytes = count / 2 + count % 2; /* 4-bit types */
    }
    if (bytes > UINT64_MAX - 3) return 0;
    return (bytes + 3) & ~UINT64_C(3);
}

static const char *list_str(char *buf, size_t cap, const uint32_t *v, uint32_t n,
                            const char *open, const char *close) {
    size_t len = (size_t)snprintf(buf, cap, "%s", open);
    for (uint32_t i = 0; i < n && len < cap; ++i)
        len += (size_t)snprintf(buf + len, cap - len, i ? ",%" PRIu32 : "%" PRIu32, v[i]);
    if (len < cap) snprintf(buf + len, cap - len, "%s", close);
    return buf;
}

const char *sizes_str(char *buf, size_t cap, const uint32_t *sizes, uint32_t n) {
    return list_str(buf, cap, sizes, n, "{", "}");
}

const char *coord_str(char *buf, size_t cap, const uint32_t *coord, uint32_t n) {
    return list_str(buf, cap, coord, n, "[", "]");
}

/*
 * Output elements must not share memory.  A zero stride on a dimension of size
 * > 1 is always an overlap.  Otherwise, when the dimensions sorted by stride
 * each step past the extent of all smaller ones, the layout is provably
 * disjoint; layouts that interleave are checked exactly: with a bitmap when
 * their span is small enough, else by sorting the element offsets when there
 * are few enough elements, else by the bounded search of overlap.c over the
 * coefficient vectors that make two elements meet.  Only when that search runs
 * out of its budget without an answer does the check say so, with its own status
 * (DMLREF_ERROR_CANNOT_VERIFY): never "invalid".
 */
#define OVERLAP_BITMAP_MAX_SPAN (UINT64_C(1) << 22)
#define OVERLAP_SORT_MAX_ELEMENTS (UINT64_C(1) << 20)

/* The bitmap and sort checks and the message stay out of line, out of each other
 * and out of tensor_check: inlined, their iterators and message buffers added up
 * in one frame under every operator's compile (docs/baremetal.md, "Stack"). */
static DMLREF_NOINLINE dmlref_status overlap_error(MSG_ONLY(const char *op) const char *name, const tensor_t *t,
                                                   const uint32_t *coord, uint64_t off, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    char buf[128];
    return set_rule_error(err, DMLREF_ERROR_OUTPUT_OVERLAP, "T15", name, "Strides",
                     "%s: %s.Strides make the element at %s share element offset %" PRIu64 " with an earlier element",
                     op, name, coord_str(buf, sizeof buf, coord, t->n), off);
}

typedef struct off_pos {
    uint64_t off, pos; /* element offset, row-major position */
} off_pos;

static int cmp_off_pos(const void *pa, const void *pb) {
    const off_pos *a = pa, *b = pb;
    if (a->off != b->off) return a->off < b->off ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The exact check for spans too large for a bitmap: sort (offset, position)
 * pairs of the first `count` elements in row-major order; report the earliest
 * element whose offset an earlier one has. */
static DMLREF_NOINLINE dmlref_status overlap_by_sorting(const dmlref_allocator *al, MSG_ONLY(const char *op) const char *name,
                                                        const tensor_t *t, uint64_t count, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    off_pos *v = mem_array(al, count, sizeof *v);
    if (!v) return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, "%s: out of memory", op);
    const uint64_t *bs[1] = {t->bstrides};
    nd_iter it;
    uint64_t p = 0, first = UINT64_MAX, off = 0;
    for (nd_iter_init(&it, t->n, t->sizes, 1, bs); !it.done && p < count; nd_iter_next(&it), ++p) {
        v[p].off = it.offset[0] / t->esize; /* in elements */
        v[p].pos = p;
    }
    sort_items(v, (size_t)count, sizeof *v, cmp_off_pos);
    for (uint64_t i = 1; i < count; ++i)
        if (v[i].off == v[i - 1].off && v[i].pos < first) {
            first = v[i].pos;
            off = v[i].off;
        }
    mem_free(al, v);
    if (first == UINT64_MAX) return DMLREF_OK;
    uint32_t coord[MAX_DIMS];
    for (uint32_t d = t->n; d-- > 0;) {
        coord[d] = (uint32_t)(first % t->sizes[d]);
        first /= t->sizes[d];
    }
    return overlap_error(MSG_ONLY(op) name, t, coord, off, err);
}

/* Interleaved layouts beyond both the bitmap and the sort: overlap.c's exact
 * search.  When it runs out of budget after finding some colliding element at
 * row-major position P, the earliest one is among the first P + 1 elements: sort
 * those when they are few enough. */
static dmlref_status overlap_by_search(const dmlref_allocator *al, MSG_ONLY(const char *op) const char *name,
                                       const tensor_t *t, uint64_t span, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    uint32_t first[MAX_DIMS];
    int have_any = 0;
    const overlap_verdict v = overlap_search(t, first, &have_any);
    if (v == OVERLAP_DISJOINT) return DMLREF_OK;
    if (v == OVERLAP_FOUND) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < t->n; ++d) off += (uint64_t)first[d] * t->strides[d]; /* <= last */
        return overlap_error(MSG_ONLY(op) name, t, first, off, err);
    }
    if (have_any) {
        uint64_t pos = 0;
        for (uint32_t d = 0; d < t->n; ++d) pos = pos * t->sizes[d] + first[d]; /* < elements */
        if (pos < OVERLAP_SORT_MAX_ELEMENTS) return overlap_by_sorting(al, MSG_ONLY(op) name, t, pos + 1, err);
    }
    return set_rule_error(err, DMLREF_ERROR_CANNOT_VERIFY, "T15", name, "Strides",
                     "%s: %s.Strides interleave dimensions over a span of %" PRIu64
                     " elements; dmlref cannot verify that the output elements are disjoint"
                     " (its exact search stopped at its bound of %" PRIu64 " steps)",
                     op, name, span, OVERLAP_SEARCH_BUDGET);
}

/* Spans of at most OVERLAP_BITMAP_MAX_SPAN elements: one bit per element offset. */
static DMLREF_NOINLINE dmlref_status overlap_by_bitmap(const dmlref_allocator *al, MSG_ONLY(const char *op) const char *name,
                                                       const tensor_t *t, uint64_t span, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    unsigned char *seen = mem_zalloc(al, (size_t)(span / 8 + 1));
    if (!seen) return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, "%s: out of memory", op);
    /* The outer dims with the iterator, the innermost one as a tight loop.
     * At most span + 1 <= 2^22 + 1 elements are visited: with more elements
     * than slots, a repeat is found among the first span + 1.  (The limit
     * keeps a hostile descriptor's compile short: 2^26 took seconds under
     * the fuzzer's instrumentation.) */
    const uint32_t last = t->n - 1;
    const uint64_t *bs[1] = {t->bstrides};
    const uint64_t inner = t->sizes[last], istride = t->strides[last];
    nd_iter it;
    dmlref_status st = DMLREF_OK;
    for (nd_iter_init(&it, last, t->sizes, 1, bs); !it.done && st == DMLREF_OK; nd_iter_next(&it)) {
        for (uint64_t i = 0; i < inner; ++i) {
            const uint64_t e = it.offset[0] / t->esize + i * istride; /* in elements */
            if (seen[e / 8] & (1u << (e % 8))) {
                it.coord[last] = (uint32_t)i; /* not one of the iterator's dimensions */
                st = overlap_error(MSG_ONLY(op) name, t, it.coord, e, err);
                break;
            }
            seen[e / 8] |= (unsigned char)(1u << (e % 8));
        }
    }
    mem_free(al, seen);
    return st;
}

static dmlref_status check_no_overlap(const dmlref_allocator *al, MSG_ONLY(const char *op) const char *name,
                                      const tensor_t *t, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    uint32_t idx[MAX_DIMS], m = 0;
    for (uint32_t d = 0; d < t->n; ++d) {
        if (t->sizes[d] <= 1) continue;
        if (t->strides[d] == 0)
            return set_rule_error(err, DMLREF_ERROR_OUTPUT_OVERLAP, "T15", name, "Strides",
                             "%s: %s.Strides[%" PRIu32 "] is 0 while %s.Sizes[%" PRIu32 "] is %" PRIu32
                             ": output elements would share memory",
                             op, name, d, name, d, t->sizes[d]);
        idx[m++] = d;
    }
    for (uint32_t i = 1; i < m; ++i) /* insertion sort by stride */
        for (uint32_t j = i; j > 0 && t->strides[idx[j]] < t->strides[idx[j - 1]]; --j) {
            uint32_t tmp = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = tmp;
        }
    uint64_t extent = 0;
    int provable = 1;
    for (uint32_t i = 0; i < m; ++i) {
        const uint64_t s = t->strides[idx[i]];
        if (s <= extent) { provable = 0; break; }
        extent += (uint64_t)(t->sizes[idx[i]] - 1) * s; /* <= span, which fits */
    }
    if (provable) return DMLREF_OK;

    const uint64_t span = t->span_bytes / t->esize;
    if (span > OVERLAP_BITMAP_MAX_SPAN && t->elements <= OVERLAP_SORT_MAX_ELEMENTS)
        return overlap_by_sorting(al, MSG_ONLY(op) name, t, t->elements, err);
    if (span > OVERLAP_BITMAP_MAX_SPAN) return overlap_by_search(al, MSG_ONLY(op) name, t, span, err);
    return overlap_by_bitmap(al, MSG_ONLY(op) name, t, span, err);
}

const tensor_t tensor_zero;

dmlref_status(tensor_check)(MSG_ONLY(const char *op) const char *name, const DMLREF_TENSOR_DESC *td,
                           const dmlref_operator *output_of, tensor_t *t, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    const int is_output = output_of != NULL;
    *t = tensor_zero; /* a copy, not memset: gcc inlines that as `rep stos`, slow to start */
    if (!td) return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T1", name, NULL, "%s: %s is NULL", op, name);
    if (td->Type != DMLREF_TENSOR_TYPE_BUFFER)
        return set_rule_error(err, DMLREF_ERROR_TENSOR_TYPE, "T2", name, "Type",
                         "%s: %s.Type (%u) must be DML_TENSOR_TYPE_BUFFER (1)", op, name,
                         (unsigned)td->Type);
    const DMLREF_BUFFER_TENSOR_DESC *bd = td->Desc;
    if (!bd) return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T3", name, "Desc", "%s: %s.Desc is NULL", op, name);

    const uint32_t dt = (uint32_t)bd->DataType;
    if (dt == 0 || dt >= N_DATA_TYPES) /* data_type_known */
        return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, "T4", name, "DataType", "%s: %s.DataType (%u) is not a valid data type",
                         op, name, (unsigned)bd->DataType);
    t->esize = data_type_sizes[dt];
    if (t->esize == 0)
        return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, "T5", name, "DataType", "%s: %s.DataType %s is not supported by %s",
                         op, name, dmlref_data_type_name(bd->DataType), op);
    t->dtype = dt;

    if ((uint32_t)bd->Flags & ~(uint32_t)DMLREF_TENSOR_FLAG_OWNED_BY_DML)
        return set_rule_error(err, DMLREF_ERROR_FLAGS, "T6", name, "Flags", "%s: %s.Flags (0x%x) has unknown bits", op, name,
                         (unsigned)bd->Flags);
    if (is_output && (bd->Flags & DMLREF_TENSOR_FLAG_OWNED_BY_DML))
        return set_rule_error(err, DMLREF_ERROR_FLAGS, "T7", name, "Flags",
                         "%s: %s.Flags has DML_TENSOR_FLAG_OWNED_BY_DML, which only input tensors may have",
                         op, name);

    if (bd->DimensionCount < 1 || bd->DimensionCount > MAX_DIMS)
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "T8", name, "DimensionCount",
                         "%s: %s.DimensionCount (%" PRIu32 ") must be in [1, 8]", op, name,
                         bd->DimensionCount);
    t->n = bd->DimensionCount;
    if (!bd->Sizes) return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "T9", name, "Sizes", "%s: %s.Sizes is NULL", op, name);

    /* One pass: T10 names the first zero size wherever it is; T11 comes after every
     * size was seen non-zero (the product stops growing once past the limit). */
    uint64_t elements = 1;
    int too_many = 0;
    for (uint32_t d = 0; d < t->n; ++d) {
        const uint32_t size = bd->Sizes[d];
        t->sizes[d] = size;
        if (size == 0)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "T10", name, "Sizes", "%s: %s.Sizes[%" PRIu32 "] is 0; every size must be >= 1",
                             op, name, d);
        if (!too_many) {
            elements *= size; /* <= (2^32 - 1)^2: checked against 2^32-1 at each step */
            too_many = elements > MAX_ELEMENTS;
        }
    }
    if (too_many) {
        char buf[128];
        return set_rule_error(err, DMLREF_ERROR_TOO_LARGE, "T11", name, "Sizes",
                         "%s: %s.Sizes %s hold more than 4294967295 (2^32-1) elements, the limit of a buffer tensor",
                         op, name, sizes_str(buf, sizeof buf, t->sizes, t->n));
    }
    t->elements = elements;

    if (bd->Strides) {
        uint64_t last = 0, count;
        for (uint32_t d = 0; d < t->n; ++d) {
            t->strides[d] = bd->Strides[d];
            if (!add_u64(last, (uint64_t)(t->sizes[d] - 1) * t->strides[d], &last))
                return set_rule_error(err, DMLREF_ERROR_TOO_LARGE, "T12", name, "Strides",
                                 "%s: %s.Strides place the last element beyond 2^64 elements", op, name);
        }
        if (!add_u64(last, 1, &count) || !mul_u64(count, t->esize, &t->span_bytes) ||
            t->span_bytes > UINT64_MAX - 3)
            return set_rule_error(err, DMLREF_ERROR_TOO_LARGE, "T12", name, "Strides",
                             "%s: %s spans more than 2^64 bytes (IndexOfLastElement %" PRIu64 ")", op, name, last);
        for (uint32_t d = 0; d < t->n; ++d)
            t->bstrides[d] = t->strides[d] * t->esize; /* <= span_bytes when size > 1 */
    } else { /* packed: IndexOfLastElement + 1 is the element count, < 2^32: nothing can overflow */
        uint64_t s = 1;
        for (uint32_t d = t->n; d-- > 0;) {
            t->strides[d] = (uint32_t)s; /* <= elements <= 2^32-1 */
            t->bstrides[d] = s * t->esize;
            s *= t->sizes[d];
        }
        t->span_bytes = elements * t->esize;
    }

    const uint64_t minimum = (t->span_bytes + 3) & ~UINT64_C(3);
    t->total_bytes = bd->TotalTensorSizeInBytes;
    if (t->total_bytes < minimum)
        return set_rule_error(err, DMLREF_ERROR_TENSOR_SIZE, "T13", name, "TotalTensorSizeInBytes",
                         "%s: %s.TotalTensorSizeInBytes (%" PRIu64 ") is less than the minimum %" PRIu64
                         " that DMLCalcBufferTensorSize gives",
                         op, name, t->total_bytes, minimum);

    const uint32_t align = bd->GuaranteedBaseOffsetAlignment;
    if (align != 0 && ((align & (align - 1)) != 0 || align < t->esize))
        return set_rule_error(err, DMLREF_ERROR_ALIGNMENT, "T14", name, "GuaranteedBaseOffsetAlignment",
                         "%s: %s.GuaranteedBaseOffsetAlignment (%" PRIu32
                         ") must be 0 or a power of two >= the element size (%" PRIu32 ")",
                         op, name, align, t->esize);
    t->align = align;
    t->align_mask = align ? align - 1 : 0;

    /* T15: packed (no Strides) is disjoint by construction */
    if (is_output && bd->Strides) return check_no_overlap(&output_of->alloc, MSG_ONLY(op) name, t, err);
    return DMLREF_OK;
}
