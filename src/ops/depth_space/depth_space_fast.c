/*
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH and their 1 forms: the fast path
 * (depth_space.h's depth_space_plan, every class's plan hook), bit-identical to
 * the oracle in depth_space.c (the rules and the oracle) and tested against it
 * on random cases.  Both operators are pure permutations: one strided copy over
 * the 6-D view (n, c, h, i, w, j) of the two tensors, with a kernel that
 * interleaves (or deinterleaves) the B rows of the block's innermost dimension.
 */
#include "ops/kernels.h"
#include "depth_space.h"

#include "engine/plan.h"
#include "simd/simd.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fast path: a strided copy over the 6-D view ---------------------- */

/*
 * Row kernels.  A row pair of the two innermost dimensions (o: n elements, q:
 * lanes) of a collapsed copy nest where
 *   interleave:    the destination is contiguous over (o, q) and each of the q
 *                  source rows (rs bytes apart) is contiguous along o:
 *                  d[k*q + l] = s_l[k]   (DEPTH_TO_SPACE's block columns)
 *   deinterleave:  the reverse: s[k*q + l] -> d_l[k], destination rows rs bytes
 *                  apart (SPACE_TO_DEPTH)
 * Elements move as W-byte integers or SIMD lanes, never as values.
 */
typedef void (*row_fn)(unsigned char *d, const unsigned char *s, uint64_t rs, uint64_t n, uint64_t q);

/* Any lane count: one strided run per lane. */
#define ROWS_ANY(W, T)                                                                                    \
    static void interleave_x##W(unsigned char *d, const unsigned char *s, uint64_t rs, uint64_t n,        \
                                uint64_t q) {                                                             \
        for (uint64_t l = 0; l < q; ++l) {                                                                \
            const unsigned char *r = s + l * rs;                                                          \
            unsigned char *o = d + l * W;                                                                 \
            for (uint64_t k = 0; k < n; ++k) {                                                            \
                T v;                                                                                      \
                memcpy(&v, r + k * W, W);                                                                 \
                memcpy(o + k * q * W, &v, W);                                                             \
            }                                                                                             \
        }                                                                                                 \
    }                                                                                                     \
    static void deinterleave_x##W(unsigned char *d, const unsigned char *s, uint64_t rs, uint64_t n,      \
                                  uint64_t q) {                                                           \
        for (uint64_t l = 0; l < q; ++l) {                                                                \
            const unsigned char *r = s + l * W;                                                           \
            unsigned char *o = d + l * rs;                                                                \
            for (uint64_t k = 0; k < n; ++k) {                                                            \
                T v;                                                                                      \
                memcpy(&v, r + k * q * W, W);                                                             \
                memcpy(o + k * W, &v, W);                                                                 \
            }                                                                                             \
        }                                                                                                 \
    }
ROWS_ANY(1, uint8_t)
ROWS_ANY(2, uint16_t)
ROWS_ANY(4, uint32_t)
ROWS_ANY(8, uint64_t)

/*
 * Two lanes (BlockSize 2, the common case).  With SIMD, 16 bytes of each lane
 * per step: interleaving is one unpacklo/unpackhi pair at the element width;
 * deinterleaving 32 bytes is the same perfect shuffle applied log2(32/W) - 1
 * times (a perfect shuffle of 2^k positions rotates the position's bits left
 * by one; k - 1 rotations leave the even positions in the first half and the
 * odd ones in the second).  Lane moves only, so the result does not depend on
 * the host's byte order.  The scalar loops take the tails and SIMD=0 builds.
 */
#if DMLREF_SIMD
#define LD(p) simde_mm_loadu_si128((const simde__m128i *)(const void *)(p))
#define ST(p, v) simde_mm_storeu_si128((simde__m128i *)(void *)(p), (v))
#define SIMD_PAIR_LOOPS(W, BITS, ROUNDS)                                                                  \
    for (; k + 16 / W <= n; k += 16 / W) {                                                                \
        const simde__m128i va = LD(a + k * W), vb = LD(b + k * W);                                        \
        ST(d + 2 * k * W, simde_mm_unpacklo_epi##BITS(va, vb));                                          \
        ST(d + 2 * k * W + 16, simde_mm_unpackhi_epi##BITS(va, vb));                                     \
    }
#define SIMD_SPLIT_LOOPS(W, BITS, ROUNDS)                                                                 \
    for (; k + 16 / W <= n; k += 16 / W) {                                                                \
        simde__m128i lo = LD(s + 2 * k * W), hi = LD(s + 2 * k * W + 16);                                 \
        for (int r_ = 0; r_ < ROUNDS; ++r_) {                                                             \
            const simde__m128i t_ = simde_mm_unpacklo_epi##BITS(lo, hi);                                 \
            hi = simde_mm_unpackhi_epi##BITS(lo, hi);                                                     \
            lo = t_;                                                                                      \
        }                                                                                                 \
        ST(a + k * W, lo);                                                                                \
        ST(b + k * W, hi);                                                                                \
    }
#else
#define SIMD_PAIR_LOOPS(W, BITS, ROUNDS)
#define SIMD_SPLIT_LOOPS(W, BITS, ROUNDS)
#endif

#define ROWS_TWO(W, T, BITS, ROUNDS)                                                                      \
    static void interleave2_x##W(unsigned char *d, const unsigned char *s, uint64_t rs, uint64_t n,       \
                                 uint64_t q) {                                                            \
        const unsigned char *a = s, *b = s + rs;                                                          \
        uint64_t k = 0;                                                                                   \
        (void)q;                                                                                          \
        SIMD_PAIR_LOOPS(W, BITS, ROUNDS)                                                                  \
        for (; k < n; ++k) {                                                                              \
            T x, y;                                                                                       \
            memcpy(&x, a + k * W, W);                                                                     \
            memcpy(&y, b + k * W, W);                                                                     \
            memcpy(d + 2 * k * W, &x, W);                                                                 \
            memcpy(d + 2 * k * W + W, &y, W);                                                             \
        }                                                                                                 \
    }                                                                                                     \
    static void deinterleave2_x##W(unsigned char *d, const unsigned char *s, uint64_t rs, uint64_t n,     \
                                   uint64_t q) {                                                          \
        unsigned char *a = d, *b = d + rs;                                                                \
        uint64_t k = 0;                                                                                   \
        (void)q;                                                                                          \
        SIMD_SPLIT_LOOPS(W, BITS, ROUNDS)                                                                 \
        for (; k < n; ++k) {                                                                              \
            T x, y;                                                                                       \
            memcpy(&x, s + 2 * k * W, W);                                                                 \
            memcpy(&y, s + 2 * k * W + W, W);                                                             \
            memcpy(a + k * W, &x, W);                                                                     \
            memcpy(b + k * W, &y, W);                                                                     \
        }                                                                                                 \
    }
ROWS_TWO(1, uint8_t, 8, 4)
ROWS_TWO(2, uint16_t, 16, 3)
ROWS_TWO(4, uint32_t, 32, 2)
ROWS_TWO(8, uint64_t, 64, 1)

enum { DS_COPY, DS_INTERLEAVE2, DS_INTERLEAVE, DS_DEINTERLEAVE2, DS_DEINTERLEAVE, DS_MODES };

/* Kernel names, [to_space][mode][log2 W]: operator.mode.xW.isa; DS_COPY is
 * named by the copy's kind instead (ds_copy_names, the COPY_* order). */
#define DS_WIDTHS(dir, mode)                                                                              \
    {kernel_name_##dir##_##mode##_X1, kernel_name_##dir##_##mode##_X2, kernel_name_##dir##_##mode##_X4, kernel_name_##dir##_##mode##_X8}
#define DS_DIR(dir)                                                                                       \
    {{NULL, NULL, NULL, NULL}, DS_WIDTHS(dir, INTERLEAVE2),                \
     DS_WIDTHS(dir, INTERLEAVE), DS_WIDTHS(dir, DEINTERLEAVE2), DS_WIDTHS(dir, DEINTERLEAVE)}
static const char *const ds_names[2][DS_MODES][4] = {DS_DIR(SPACE_TO_DEPTH), DS_DIR(DEPTH_TO_SPACE)};
#define DS_COPY_KINDS(dir)                                                                                \
    {kernel_name_##dir##_COPY_BLOCK, kernel_name_##dir##_COPY_X1, kernel_name_##dir##_COPY_X2, kernel_name_##dir##_COPY_X4,   \
     kernel_name_##dir##_COPY_X8,    kernel_name_##dir##_COPY_B16, kernel_name_##dir##_COPY_SMALL}
static const char *const ds_copy_names[2][COPY_SMALL + 1] = {DS_COPY_KINDS(SPACE_TO_DEPTH), DS_COPY_KINDS(DEPTH_TO_SPACE)};

static const row_fn ds_rows[DS_MODES][4] = {
    {NULL, NULL, NULL, NULL},
    {interleave2_x1, interleave2_x2, interleave2_x4, interleave2_x8},
    {interleave_x1, interleave_x2, interleave_x4, interleave_x8},
    {deinterleave2_x1, deinterleave2_x2, deinterleave2_x4, deinterleave2_x8},
    {deinterleave_x1, deinterleave_x2, deinterleave_x4, deinterleave_x8},
};

/* Row modes with at most this many rows: their offsets in a table made at compile, so
 * that a tiny execute walks no nest. */
#define DS_TABLE_ROWS 16u

typedef struct ds_plan {
    copy_plan copy; /* the whole permutation (the DS_COPY mode)                */
    int mode;
    int table;      /* the row modes: 1 when roff holds every row's offsets    */
    uint64_t roff[DS_TABLE_ROWS][2]; /* row r's destination and source offsets */
    row_fn row;     /* the row modes: one call per point of `outer`            */
    nest_t outer;   /* the copy's nest without its two innermost dimensions    */
    uint64_t n, q;  /* elements per row, lanes                                 */
    uint64_t rs;    /* bytes between the lanes' rows (source or destination)  */
    uint64_t units;
    uint32_t nth;
} ds_plan;

typedef struct depth_space_ctx {
    const ds_plan *p;
    const exec_args *x;
} depth_space_ctx;

static void depth_space_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const depth_space_ctx *c = vc;
    const ds_plan *p = c->p;
    unsigned char *dst = OUT_DATA(c->x, 0);
    const unsigned char *src = IN_DATA(c->x, 0);
    (void)part;
    if (DMLREF_SMALL || p->mode == DS_COPY) {
        copy_plan_run(&p->copy, dst, src, lo, hi);
        return;
    }
    if (p->table) {
        for (uint64_t r = lo; r < hi; ++r) p->row(dst + p->roff[r][0], src + p->roff[r][1], p->rs, p->n, p->q);
        return;
    }
    const nest_t *nt = &p->outer;
    const uint64_t ds = nt->st[0][nt->m - 1], ss = nt->st[1][nt->m - 1];
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it))
        for (uint64_t k = 0; k < it.len; ++k) p->row(dst + it.off[0] + k * ds, src + it.off[1] + k * ss, p->rs, p->n, p->q);
}

static dmlref_status depth_space_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const depth_space_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->units, depth_space_range, &c);
    return DMLREF_OK;
}

static void depth_space_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

/* The byte stride of a view dimension: 0 for a dimension of size 1, whose
 * stride is never used (and whose product could exceed 64 bits).  For a
 * larger one the product is at most the offset of the tensor's last element
 * (its span, validated below 2^64). */
static uint64_t view_stride(uint64_t size, uint64_t a, uint64_t b) { return size > 1 ? a * b : 0; }

dmlref_status depth_space_plan(op_t *op, dmlref_error *err) {
    const depth_space_params *prm = OP_CPARAMS(op, depth_space_params);
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const tensor_t *sp = prm->to_space ? out : in, *dp = prm->to_space ? in : out; /* space, depth */
    const uint64_t B = prm->block, e = out->esize;
    const uint64_t N = sp->sizes[0], Cs = sp->sizes[1], H = dp->sizes[2], W = dp->sizes[3];
    const int dcr = prm->order == DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    (void)err;

    /* The view (n, c, h, i, w, j), the space tensor's order: space element
     * (n, c, h*B + i, w*B + j) is depth element (n, ch, h, w). */
    const uint64_t sizes[6] = {N, Cs, H, B, W, B};
    const uint64_t *ss = sp->bstrides, *ds = dp->bstrides;
    const uint64_t space_st[6] = {ss[0], ss[1], view_stride(H, ss[2], B), ss[2], view_stride(W, ss[3], B), ss[3]};
    uint64_t depth_st[6] = {ds[0], 0, ds[2], 0, ds[3], 0};
    if (dcr) { /* ch = (i*B + j)*C' + c */
        depth_st[1] = ds[1];
        depth_st[3] = view_stride(B, ds[1], B * Cs);
        depth_st[5] = view_stride(B, ds[1], Cs);
    } else { /* ch = c*B*B + i*B + j */
        depth_st[1] = view_stride(Cs, ds[1], B * B);
        depth_st[3] = view_stride(B, ds[1], B);
        depth_st[5] = ds[1];
    }

    ds_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    copy_plan_init(&p->copy, 6, sizes, prm->to_space ? space_st : depth_st, prm->to_space ? depth_st : space_st, e);
    p->mode = DS_COPY;
    p->units = p->copy.units;

    /* The two innermost dimensions of the collapsed nest: o (n elements) and q
     * (lanes); 0 = destination, 1 = source. */
    const nest_t *nt = &p->copy.nest;
    /* With DMLREF_SMALL the copy only: on a core without vector moves the row
     * modes' element loops are what copy_plan's runs do, so the same bytes
     * land, and the 16 row functions are not linked. */
    if (!DMLREF_SMALL && nt->m >= 2 && p->copy.block == e && p->copy.chunks == 1) {
        const uint32_t o = nt->m - 2, q = nt->m - 1;
        const uint64_t n = nt->sizes[o], lanes = nt->sizes[q];
        if (nt->st[0][q] == e && nt->st[0][o] == lanes * e && nt->st[1][o] == e) {
            p->mode = lanes == 2 ? DS_INTERLEAVE2 : DS_INTERLEAVE;
            p->rs = nt->st[1][q];
        } else if (nt->st[1][q] == e && nt->st[1][o] == lanes * e && nt->st[0][o] == e) {
            p->mode = lanes == 2 ? DS_DEINTERLEAVE2 : DS_DEINTERLEAVE;
            p->rs = nt->st[0][q];
        }
        if (p->mode != DS_COPY) {
            p->n = n;
            p->q = lanes;
            p->outer.m = nt->m - 2; /* the outer dims of nt, field by field (a struct copy is `rep movs`) */
            p->outer.points = nt->points;
            for (uint32_t d = 0; d < p->outer.m; ++d) {
                p->outer.sizes[d] = nt->sizes[d];
                for (uint32_t t = 0; t < NEST_K; ++t) p->outer.st[t][d] = nt->st[t][d];
            }
            if (p->outer.m == 0) {
                p->outer.m = 1;
                p->outer.sizes[0] = 1;
                for (uint32_t t = 0; t < NEST_K; ++t) p->outer.st[t][0] = 0;
            }
            p->outer.points = 1;
            for (uint32_t d = 0; d < p->outer.m; ++d) p->outer.points *= p->outer.sizes[d];
            p->units = p->outer.points;
            if (p->units <= DS_TABLE_ROWS) { /* the rows' offsets, in the walk's order */
                const nest_t *on = &p->outer;
                const uint64_t ds = on->st[0][on->m - 1], ss = on->st[1][on->m - 1];
                uint64_t r = 0;
                nest_it it;
                for (int more = nest_rows_begin(on, &it, 0, p->units); more; more = nest_rows_next(on, &it))
                    for (uint64_t k = 0; k < it.len; ++k, ++r) {
                        p->roff[r][0] = it.off[0] + k * ds;
                        p->roff[r][1] = it.off[1] + k * ss;
                    }
                p->table = 1;
            }
        }
    }
    const uint32_t w = e == 1 ? 0 : e == 2 ? 1 : e == 4 ? 2 : 3;
    p->row = DMLREF_SMALL ? NULL : ds_rows[p->mode][w];
    p->nth = plan_threads(op, 2 * out->elements * e);
    op->plan = p;
    op->plan_free = depth_space_free;
    op->kernel = depth_space_kernel;
    op->kernel_name = DMLREF_SMALL || p->mode == DS_COPY ? ds_copy_names[prm->to_space][p->copy.kind] : ds_names[prm->to_space][p->mode][w];
    return DMLREF_OK;
}
