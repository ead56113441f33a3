/*
 * The byte decoder shared by the descriptor fuzz targets (fuzz/fuzz_desc_valid.c:
 * validation at every feature level; fuzz/fuzz_desc_exec.c: execution, oracle
 * against the fast paths).  Both read the same inputs, so fuzz/corpus/fuzz_desc/
 * seeds both.  Each target is one translation unit that includes this header
 * after defining FUZZ_NAME (the prefix of its failure messages).
 *
 * The input bytes decode into one descriptor of any DirectML operator type
 * (walking the schema of those this build implements: slots and parameters)
 * with arbitrary sizes, strides, counts, axes, dimension counts, data types,
 * flags, alignments and TotalTensorSizeInBytes, plus a payload that fills the
 * input buffers.  While decoding, every tensor's dmlref_calc_buffer_tensor_size
 * is compared with an independent 128-bit computation (0 exactly when the
 * result does not fit); a difference aborts.
 *
 * Byte format (little-endian; missing bytes read as 0):
 *   header: u8 op, u8 level, u8 misc, u8 fill, u32 p0, u32 p1, u32 p2
 *     op     op_types[op % 64] (below): a fixed table of DirectML operator type
 *            values, so a byte means the same operator in every build and
 *            whatever the registry holds.  An operator this build does not
 *            implement (or no operator at all) decodes with no parameters and
 *            no tensors, its Desc pointing at zeros: the library must refuse
 *            it with DMLREF_ERROR_UNSUPPORTED_OPERATOR.
 *     level  0..14 the known levels 1_0..6_4; 15 -> 0, 16 -> 0x1001,
 *            17 -> 0x7000, 18 -> 0xFFFFFFFF; else level % 15
 *     misc   bit0: probe a binding one byte short (fuzz_desc_exec),
 *            bit1: probe unknown option flags (fuzz_desc_valid),
 *            bits 2-4 all set: DMLREF_OPERATOR_DESC.Desc is NULL,
 *            bits 5-6: the unknown level fuzz_desc_valid validates too
 *     fill   bit0: index buffers get small signed values (int8 payload bytes)
 *            instead of raw payload bytes
 *     p0..p2 the operator's first three parameters in schema order (GATHER:
 *            Axis, IndexDimensions; SCATTER_ND: InputDimensionCount,
 *            IndicesDimensionCount; SPLIT/JOIN: the count, Axis; TILE:
 *            RepeatsCount (replaced by the array's length), Repeats' length
 *            % 9); parameters past the third, and what arrays, unions and
 *            structs hold, are read after the header (decode_params)
 *   then one tensor record per tensor: the single slots in schema order, then
 *   each array slot's min(count, MAX_PIECES) pieces (SPLIT/JOIN: the whole
 *   tensor first, then the pieces):
 *     u8 ctl    0 normal; 1 TENSOR_DESC* NULL (for an optional slot: absent, no buffer
 *               bound); 2 Type 0; 3 Type 7; 4 Desc NULL;
 *               5 Sizes NULL
 *     u8 dtype  DMLREF_TENSOR_DATA_TYPE value (255 -> 0x80000000)
 *     u8 flags  DMLREF_TENSOR_FLAGS value
 *     u8 ndims  DimensionCount (the arrays get exactly that many entries)
 *     u8 smode  0 Strides NULL; 1 u32 strides; 2 u8 strides; 3 packed strides
 *               given explicitly
 *     u32 sizes[min(ndims, 8)], then the strides (smode 1: u32, 2: u8 each)
 *     u8 tmode  TotalTensorSizeInBytes: 0 minimum; 1 minimum + u8; 2 raw u64;
 *               3 minimum - 1; 4 UINT64_MAX; 5 UINT64_MAX - 3; 6 minimum - 4
 *     u8 align  0 -> 0; 1..31 -> 1 << (align - 1); else the raw value
 *   the rest is the payload, cycled over the input buffers in binding order.
 *
 * fuzz/gen_desc_corpus.py writes inputs in this format.
 */
#ifndef FUZZ_DESC_DECODE_H
#define FUZZ_DESC_DECODE_H

#include "dmlref.h"
#include "core/env.h"
#include "core/registry.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_NAME
#error "define FUZZ_NAME before including desc_decode.h"
#endif

__extension__ typedef unsigned __int128 u128;

#define MAX_PIECES 16u
#define MAX_TENSORS (MAX_PIECES + 1u)

#define FAIL(...)                                                   \
    do {                                                            \
        fprintf(stderr, FUZZ_NAME ": " __VA_ARGS__);                 \
        fputc('\n', stderr);                                        \
        abort();                                                    \
    } while (0)

/* ---- reading the input ------------------------------------------------------ */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t rd_u8(reader *r) {
    if (!r->n) return 0;
    --r->n;
    return *r->p++;
}

static uint32_t rd_u32(reader *r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= (uint32_t)rd_u8(r) << (8 * i);
    return v;
}

static uint64_t rd_u64(reader *r) {
    uint64_t lo = rd_u32(r);
    return lo | (uint64_t)rd_u32(r) << 32;
}

/* ---- tensors ------------------------------------------------------------------ */

typedef struct ftensor {
    DMLREF_BUFFER_TENSOR_DESC buf;
    uint32_t *sizes, *strides; /* exactly DimensionCount entries each */
    const DMLREF_TENSOR_DESC *ptr; /* what the operator desc points to */
} ftensor;

/* 128-bit DMLCalcBufferTensorSize; 0 when the library must answer 0. */
static uint64_t ref_calc_size(uint32_t dt, uint32_t n, const uint32_t *sizes, const uint32_t *strides) {
    uint64_t bits;
    switch (dt) {
    case 1: case 3: case 6: bits = 32; break;
    case 2: case 4: case 7: bits = 16; break;
    case 5: case 8: bits = 8; break;
    case 9: case 10: case 11: bits = 64; break;
    case 12: case 13: bits = 4; break;
    default: return 0;
    }
    if (n == 0 || !sizes) return 0;
    for (uint32_t i = 0; i < n; ++i)
        if (sizes[i] == 0) return 0;
    u128 count = 1;
    if (!strides) {
        for (uint32_t i = 0; i < n; ++i) {
            count *= sizes[i];
            if (count > UINT64_MAX) return 0;
        }
    } else {
        u128 last = 0;
        for (uint32_t i = 0; i < n; ++i) last += (u128)(sizes[i] - 1) * strides[i];
        count = last + 1;
        if (count > UINT64_MAX) return 0;
    }
    const u128 bytes = (count * bits + 7) / 8;
    if (bytes > UINT64_MAX - 3) return 0;
    return (uint64_t)((bytes + 3) / 4 * 4);
}

static void read_tensor(reader *r, ftensor *t, DMLREF_TENSOR_DESC *td) {
    const uint8_t ctl = rd_u8(r), dt = rd_u8(r), flags = rd_u8(r), n = rd_u8(r), smode = rd_u8(r);
    memset(&t->buf, 0, sizeof t->buf);
    t->buf.DataType = dt == 255 ? (DMLREF_TENSOR_DATA_TYPE)0x80000000u : (DMLREF_TENSOR_DATA_TYPE)dt;
    t->buf.Flags = (DMLREF_TENSOR_FLAGS)flags;
    t->buf.DimensionCount = n;
    /* exactly n entries, so a read past DimensionCount is an ASan report */
    t->sizes = malloc(n * sizeof *t->sizes);
    t->strides = malloc(n * sizeof *t->strides);
    if ((n && (!t->sizes || !t->strides))) abort();
    for (uint32_t d = 0; d < n; ++d) t->sizes[d] = d < 8 ? rd_u32(r) : 1;
    for (uint32_t d = 0; d < n; ++d)
        t->strides[d] = d >= 8 ? 1 : smode == 1 ? rd_u32(r) : smode == 2 ? rd_u8(r) : 0;
    if (smode == 3) {
        uint64_t s = 1;
        for (uint32_t d = n; d-- > 0;) {
            t->strides[d] = (uint32_t)s;
            s *= t->sizes[d] ? t->sizes[d] : 1;
            if (s > UINT32_MAX) s = 1;
        }
    }
    t->buf.Sizes = t->sizes;
    t->buf.Strides = smode >= 1 && smode <= 3 ? t->strides : NULL;

    const uint64_t min = dmlref_calc_buffer_tensor_size(t->buf.DataType, n, t->sizes, t->buf.Strides);
    const uint64_t want = ref_calc_size((uint32_t)t->buf.DataType, n, t->sizes, t->buf.Strides);
    if (min != want)
        FAIL("dmlref_calc_buffer_tensor_size gives %llu, the 128-bit reference %llu",
             (unsigned long long)min, (unsigned long long)want);
    switch (rd_u8(r)) {
    case 1: t->buf.TotalTensorSizeInBytes = min + rd_u8(r); break;
    case 2: t->buf.TotalTensorSizeInBytes = rd_u64(r); break;
    case 3: t->buf.TotalTensorSizeInBytes = min - 1; break;
    case 4: t->buf.TotalTensorSizeInBytes = UINT64_MAX; break;
    case 5: t->buf.TotalTensorSizeInBytes = UINT64_MAX - 3; break;
    case 6: t->buf.TotalTensorSizeInBytes = min - 4; break;
    default: t->buf.TotalTensorSizeInBytes = min; break;
    }
    const uint8_t align = rd_u8(r);
    t->buf.GuaranteedBaseOffsetAlignment = align == 0 ? 0 : align < 32 ? UINT32_C(1) << (align - 1) : align;

    td->Type = DMLREF_TENSOR_TYPE_BUFFER;
    td->Desc = &t->buf;
    t->ptr = td;
    switch (ctl) {
    case 1: t->ptr = NULL; break;
    case 2: td->Type = DMLREF_TENSOR_TYPE_INVALID; break;
    case 3: td->Type = (DMLREF_TENSOR_TYPE)7; break;
    case 4: td->Desc = NULL; break;
    case 5: t->buf.Sizes = NULL; break;
    default: break;
    }
}

static void free_tensor(ftensor *t) {
    free(t->sizes);
    free(t->strides);
}

/* ---- the operator desc ---------------------------------------------------------- */

#define MAX_SLOTS 8
#define MAX_BLOCKS 16

typedef struct fcase {
    const dmlref_schema *schema;
    DMLREF_OPERATOR_DESC op;
    union {
        max_align_t align;
        unsigned char bytes[512];
    } u;                           /* the operator desc, walked by the schema       */
    uint32_t n_tensors;
    ftensor t[MAX_TENSORS];        /* single slots (schema order), then the arrays' */
    DMLREF_TENSOR_DESC single[MAX_SLOTS];
    DMLREF_TENSOR_DESC *pieces[MAX_SLOTS]; /* per array slot: exactly its entries    */
    uint32_t n_pieces[MAX_SLOTS], first_piece[MAX_SLOTS];
    void *blocks[MAX_BLOCKS];      /* parameter arrays and structs                  */
    uint32_t n_blocks;
    /* binding order */
    uint32_t n_in, n_out;
    const DMLREF_BUFFER_TENSOR_DESC *in[MAX_TENSORS], *out[MAX_TENSORS];
    int in_is_index[MAX_TENSORS];
} fcase;

static const uint32_t levels[15] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                    0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

/* Whether concat_compile must reject before looking at the pieces array: the
 * whole tensor is unreadable, Axis is out of range, or count > Sizes[Axis]. */
static int concat_rejects_early(const ftensor *whole, uint32_t count, uint32_t axis) {
    const DMLREF_BUFFER_TENSOR_DESC *b = &whole->buf;
    if (!whole->ptr || whole->ptr->Type != DMLREF_TENSOR_TYPE_BUFFER || !whole->ptr->Desc) return 1;
    if (b->DimensionCount < 1 || b->DimensionCount > 8 || !b->Sizes) return 1;
    if (axis >= b->DimensionCount) return 1;
    return count > b->Sizes[axis];
}

static void *block(fcase *c, size_t bytes) {
    if (c->n_blocks == MAX_BLOCKS) return NULL;
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p) abort();
    return c->blocks[c->n_blocks++] = p;
}

static void put_u32(fcase *c, uint32_t offset, uint32_t v) { memcpy(c->u.bytes + offset, &v, sizeof v); }
static uint32_t get_u32(const fcase *c, uint32_t offset) {
    uint32_t v;
    memcpy(&v, c->u.bytes + offset, sizeof v);
    return v;
}
static void put_ptr(fcase *c, uint32_t offset, const void *p) { memcpy(c->u.bytes + offset, &p, sizeof p); }

/* The parameters, in schema order: the i-th takes header value p[i] (i < 3) or a u32
 * read after the header; kinds with more to them read it next (arrays: value % 9
 * u32 entries, in a block of 8 so that arrays sharing the count stay in bounds; FLOAT arrays
 * their entries' bit patterns; a union's high word; a DML_SIZE_2D's Height after its Width;
 * a struct, present when value bit 0 is set, its floats as u32 bit patterns; a BOOL is
 * the value's bits).  A tensor array's count is its parameter's value. */
static void decode_params(reader *r, fcase *c, const uint32_t *p) {
    const dmlref_schema *s = c->schema;
    for (uint32_t i = 0; i < s->n_params; ++i) {
        const dmlref_param *q = &s->params[i];
        const uint32_t v = i < 3 ? p[i] : rd_u32(r);
        switch (q->kind) {
        case DMLREF_PARAM_UINT_ARRAY:
        case DMLREF_PARAM_INT_ARRAY:
        case DMLREF_PARAM_FLOAT_ARRAY: { /* FLOAT: each entry's bit pattern */
            /* 8 entries always (zero past n): arrays sharing one count field (SLICE's
             * Offsets/Sizes/Strides) each hold as many values as the count says */
            const uint32_t n = v % 9;
            uint32_t *a = block(c, 8 * sizeof *a);
            for (uint32_t k = 0; k < n; ++k) {
                const uint32_t x = rd_u32(r);
                if (a) a[k] = x;
            }
            put_ptr(c, q->offset, a);
            if (q->count_name) put_u32(c, q->count_offset, a ? n : 0); /* no block left: an empty array */
            break;
        }
        case DMLREF_PARAM_SIZE_2D: /* Width = the value, Height read next */
            put_u32(c, q->offset, v);
            put_u32(c, q->offset + 4, rd_u32(r));
            break;
        case DMLREF_PARAM_SCALAR_UNION:
            put_u32(c, q->offset, v);
            put_u32(c, q->offset + 4, rd_u32(r));
            break;
        case DMLREF_PARAM_STRUCT: {
            unsigned char *o = (v & 1) ? block(c, q->struct_size) : NULL;
            for (uint32_t k = 0; (v & 1) && k < q->field_count; ++k) {
                const uint32_t x = rd_u32(r);
                if (o && (k + 1) * 4 <= q->struct_size) memcpy(o + 4 * k, &x, 4);
            }
            put_ptr(c, q->offset, o);
            break;
        }
        default: /* UINT, INT, FLOAT, ENUM, BOOL: the value's bits */
            put_u32(c, q->offset, v);
            break;
        }
    }
}

/* The op byte's operator types (op % 64).  FIXED: an entry is never moved or
 * changed, so that every input, committed or found, keeps meaning the same
 * operator.  Entries 0-23 are the DMLREF_OPERATOR_* of the first two phases in
 * increasing value (SCATTER_ELEMENTS is SCATTER); 24-27 are types no DirectML
 * operator has (or none dmlref knows); 28-43 are the phase-3 types in
 * increasing value; 44-63 are spare: invalid values now, and the place for a
 * DirectML operator type added to include/dmlref.h later (LLVMFuzzerInitialize
 * aborts while a built operator is missing here).  (Until phase 3 the table
 * had 32 entries, op % 32: an op byte of 32 or more found before then now
 * names another operator.) */
#define N_OP_TYPES 64u
static const uint32_t op_types[N_OP_TYPES] = {
    DMLREF_OPERATOR_INVALID,                /*  0 */
    DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY,  /*  1 */
    DMLREF_OPERATOR_SLICE,                  /*  2 */
    DMLREF_OPERATOR_CAST,                   /*  3 */
    DMLREF_OPERATOR_SPLIT,                  /*  4 */
    DMLREF_OPERATOR_JOIN,                   /*  5 */
    DMLREF_OPERATOR_PADDING,                /*  6 */
    DMLREF_OPERATOR_GATHER,                 /*  7 */
    DMLREF_OPERATOR_SPACE_TO_DEPTH,         /*  8 */
    DMLREF_OPERATOR_DEPTH_TO_SPACE,         /*  9 */
    DMLREF_OPERATOR_TILE,                   /* 10 */
    DMLREF_OPERATOR_DIAGONAL_MATRIX,        /* 11 */
    DMLREF_OPERATOR_SCATTER,                /* 12 */
    DMLREF_OPERATOR_ONE_HOT,                /* 13 */
    DMLREF_OPERATOR_REVERSE_SUBSEQUENCES,   /* 14 */
    DMLREF_OPERATOR_GATHER_ELEMENTS,        /* 15 */
    DMLREF_OPERATOR_GATHER_ND,              /* 16 */
    DMLREF_OPERATOR_SCATTER_ND,             /* 17 */
    DMLREF_OPERATOR_SLICE1,                 /* 18 */
    DMLREF_OPERATOR_DEPTH_TO_SPACE1,        /* 19 */
    DMLREF_OPERATOR_SPACE_TO_DEPTH1,        /* 20 */
    DMLREF_OPERATOR_GATHER_ND1,             /* 21 */
    DMLREF_OPERATOR_PADDING1,               /* 22 */
    DMLREF_OPERATOR_DIAGONAL_MATRIX1,       /* 23 */
    0xFFFFFFFFu,                            /* 24 */
    0x80000000u,                            /* 25 */
    2u,         /* 26: DirectML's ELEMENT_WISE_ABS, which dmlref does not know */
    0x10000u | DMLREF_OPERATOR_GATHER,      /* 27: GATHER's value with a high bit */
    DMLREF_OPERATOR_UPSAMPLE_2D,            /* 28 */
    DMLREF_OPERATOR_TOP_K,                  /* 29 */
    DMLREF_OPERATOR_ELEMENT_WISE_IF,        /* 30 */
    DMLREF_OPERATOR_MAX_UNPOOLING,          /* 31 */
    DMLREF_OPERATOR_RESAMPLE,               /* 32 */
    DMLREF_OPERATOR_FILL_VALUE_CONSTANT,    /* 33 */
    DMLREF_OPERATOR_FILL_VALUE_SEQUENCE,    /* 34 */
    DMLREF_OPERATOR_TOP_K1,                 /* 35 */
    DMLREF_OPERATOR_RESAMPLE1,              /* 36 */
    DMLREF_OPERATOR_NONZERO_COORDINATES,    /* 37 */
    DMLREF_OPERATOR_SLICE_GRAD,             /* 38 */
    DMLREF_OPERATOR_ARGMIN,                 /* 39 */
    DMLREF_OPERATOR_ARGMAX,                 /* 40 */
    DMLREF_OPERATOR_RESAMPLE2,              /* 41 */
    DMLREF_OPERATOR_RESAMPLE3,              /* 42 */
    DMLREF_OPERATOR_UNFOLD,                 /* 43 */
    0x7FFFFFFFu, 0xFFFFu, 0xFFFFFFFEu, 0x100u, /* 44-47: spare */
    0x7FFFFFFFu, 0xFFFFu, 0xFFFFFFFEu, 0x100u, /* 48-51: spare */
    0x7FFFFFFFu, 0xFFFFu, 0xFFFFFFFEu, 0x100u, /* 52-55: spare */
    0x7FFFFFFFu, 0xFFFFu, 0xFFFFFFFEu, 0x100u, /* 56-59: spare */
    0x7FFFFFFFu, 0xFFFFu, 0xFFFFFFFEu, 0x100u, /* 60-63: spare */
};

/* Decodes the header and tensors; returns the feature level.  Generic over the
 * schema of the operator the op byte names (none when this build lacks it). */
static uint32_t decode(reader *r, fcase *c, uint8_t *misc, uint8_t *fill) {
    const uint8_t opsel = rd_u8(r), lsel = rd_u8(r);
    *misc = rd_u8(r);
    *fill = rd_u8(r);
    uint32_t p[3];
    for (int i = 0; i < 3; ++i) p[i] = rd_u32(r);
    uint32_t fl;
    switch (lsel) {
    case 15: fl = 0; break;
    case 16: fl = 0x1001; break;
    case 17: fl = 0x7000; break;
    case 18: fl = 0xFFFFFFFFu; break;
    default: fl = levels[lsel % 15]; break;
    }
    c->op.Type = (DMLREF_OPERATOR_TYPE)op_types[opsel % N_OP_TYPES];
    c->op.Desc = ((*misc >> 2) & 7) == 7 ? NULL : &c->u;
    const dmlref_schema *s = dmlref_operator_schema(c->op.Type);
    c->schema = s;
    if (!s) return fl; /* no parameters, no tensors: Desc is all zeros */
    if (s->desc_size > sizeof c->u.bytes || s->n_slots > MAX_SLOTS) FAIL("%s: desc too large for the decoder", s->name);
    decode_params(r, c, p);

    /* tensor records: the single slots in schema order, then each array slot's pieces */
    uint32_t nt = 0, n_single = 0, whole = UINT32_MAX;
    for (uint32_t i = 0; i < s->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &s->slots[i];
        if (sl->is_array) continue;
        read_tensor(r, &c->t[nt], &c->single[n_single]);
        put_ptr(c, sl->offset, c->t[nt].ptr);
        if (whole == UINT32_MAX) whole = nt;
        ++nt;
        ++n_single;
    }
    const dmlref_param *axis = NULL;
    for (uint32_t i = 0; i < s->n_params; ++i)
        if (strcmp(s->params[i].name, "Axis") == 0) axis = &s->params[i];
    for (uint32_t i = 0; i < s->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &s->slots[i];
        if (!sl->is_array) continue;
        uint32_t count = get_u32(c, sl->count_offset);
        const uint32_t room = MAX_TENSORS - nt < MAX_PIECES ? MAX_TENSORS - nt : MAX_PIECES;
        const uint32_t n = count < room ? count : room;
        /* A count beyond the array is only passed where the library promises to
         * reject before reading the array (ASan checks that promise): the concat
         * family, one whole tensor and an Axis. */
        if (count > n && !(n_single == 1 && axis && concat_rejects_early(&c->t[whole], count, get_u32(c, axis->offset))))
            count = n;
        c->pieces[i] = malloc((n ? n : 1) * sizeof *c->pieces[i]);
        if (!c->pieces[i]) abort();
        c->n_pieces[i] = n;
        c->first_piece[i] = nt;
        for (uint32_t k = 0; k < n; ++k) read_tensor(r, &c->t[nt + k], &c->pieces[i][k]);
        /* a NULL array where the first piece's ctl asks for a NULL pointer */
        const DMLREF_TENSOR_DESC *arr = n && !c->t[nt].ptr ? NULL : c->pieces[i];
        put_ptr(c, sl->offset, arr);
        put_u32(c, sl->count_offset, count);
        nt += n;
    }
    c->n_tensors = nt;

    /* binding order: input slots in schema order (an array: its pieces), then outputs */
    for (int o = 0; o < 2; ++o) {
        uint32_t single_at = 0;
        for (uint32_t i = 0; i < s->n_slots; ++i) {
            const dmlref_tensor_slot *sl = &s->slots[i];
            const uint32_t first = sl->is_array ? c->first_piece[i] : single_at;
            const uint32_t n = sl->is_array ? c->n_pieces[i] : 1;
            if (!sl->is_array) ++single_at;
            if ((sl->is_output != 0) != o) continue;
            /* an optional tensor left NULL (DIAGONAL_MATRIX1's InputTensor) binds no buffer */
            if (!sl->is_array && sl->is_optional && !c->t[first].ptr) continue;
            for (uint32_t k = 0; k < n; ++k) {
                if (o) c->out[c->n_out++] = &c->t[first + k].buf;
                else {
                    c->in_is_index[c->n_in] = sl->is_index;
                    c->in[c->n_in++] = &c->t[first + k].buf;
                }
            }
        }
    }
    return fl;
}

/* Frees what decode allocated, and c. */
static void free_case(fcase *c) {
    for (uint32_t k = 0; k < c->n_tensors; ++k) free_tensor(&c->t[k]);
    for (uint32_t k = 0; k < MAX_SLOTS; ++k) free(c->pieces[k]);
    for (uint32_t k = 0; k < c->n_blocks; ++k) free(c->blocks[k]);
    free(c);
}

/* An error's code is its status; message, rule and field are terminated; the
 * message is not empty. */
static void check_error(const char *what, dmlref_status st, const dmlref_error *err) {
    if (st == DMLREF_OK) return;
    if (err->code != st) FAIL("%s: status %d but err.code %d", what, (int)st, (int)err->code);
    if (!memchr(err->message, '\0', sizeof err->message)) FAIL("%s: message not terminated", what);
    if (!memchr(err->rule, '\0', sizeof err->rule)) FAIL("%s: rule not terminated", what);
    if (!memchr(err->field, '\0', sizeof err->field)) FAIL("%s: field not terminated", what);
    if (err->message[0] == '\0') FAIL("%s: %s without a message", what, dmlref_status_name(st));
}

/* Every operator this build implements has an entry in op_types (else the
 * fuzzer could never reach it), and its schema fits the decoder. */
static void check_op_table(void) {
    const dmlref_schema *s;
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL; ++i) {
        uint32_t k = 0;
        while (k < N_OP_TYPES && op_types[k] != (uint32_t)s->type) ++k;
        if (k == N_OP_TYPES) FAIL("%s (%u) has no entry in op_types: give it a spare one", s->name, (unsigned)s->type);
        if (s->desc_size > sizeof ((fcase *)0)->u.bytes || s->n_slots > MAX_SLOTS)
            FAIL("%s: desc too large for the decoder", s->name);
    }
}

/* The thresholds that send small tensors through the fast paths' threaded
 * partitions (a grain of work per thread, 128 KiB by default) and large-tensor
 * kernels (GATHER_ELEMENTS slabs, SCATTER_ND rows_skip with streaming stores,
 * above 1 and 16 MiB): tiny here, so that the fuzzer's small tensors take all
 * of them.  Read at compile time; an explicit setting wins. */
static void set_small_thresholds(void) {
    setenv("DMLREF_PAR_GRAIN", "16", 0);
    setenv("DMLREF_SLAB_MIN", "0", 0);
    setenv("DMLREF_STREAM_MIN", "0", 0);
    env_reload(); /* the library reads the variables once: read them again */
}

#endif
