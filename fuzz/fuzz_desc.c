/*
 * (Over 600 lines on purpose: a libFuzzer target is one translation unit,
 * its byte decoder, executions and checks together.)
 *
 * libFuzzer target: arbitrary operator descriptors through validate, compile
 * and execute.
 *
 * The input bytes decode (see "Byte format" below) into one descriptor of any
 * operator of the library's schema list (walking its slots and parameters) with arbitrary sizes, strides, counts, axes, dimension counts,
 * data types, flags, alignments and TotalTensorSizeInBytes, plus a payload that
 * fills the buffers.  The target then checks, aborting on any violation so that
 * libFuzzer reports it:
 *
 *   - dmlref_calc_buffer_tensor_size agrees with an independent 128-bit
 *     computation (0 exactly when the result does not fit);
 *   - validate, compile with the oracle and compile with the fast path agree on
 *     the status; an error carries its code and a non-empty message;
 *   - when valid and small enough, every buffer is allocated at exactly its
 *     TotalTensorSizeInBytes (ASan sees any overrun) and the operator runs
 *     through the oracle, the default fast path with threads 1 and with
 *     threads 2 (through dmlref_run), giving byte-identical output buffers;
 *   - the oracle writes no output byte that no output element addresses;
 *   - the checking option either succeeds with the oracle's bytes or reports
 *     an index error with every output byte untouched;
 *   - a binding one byte short and unknown option flags are rejected.
 *
 * FUZZ_DESC_VERBOSE=1 in the environment prints each input's validation result.
 * DMLREF_PAR_GRAIN defaults to 16 bytes here so that threads=2 really splits,
 * DMLREF_SLAB_MIN and DMLREF_STREAM_MIN to 0 so that small tensors take the
 * large-tensor kernels.
 *
 * Byte format (little-endian; missing bytes read as 0):
 *   header: u8 op, u8 level, u8 misc, u8 fill, u32 p0, u32 p1, u32 p2
 *     op     op % (the number of schemas): the schema list's order (all five built:
 *            0 GATHER 1 GATHER_ELEMENTS 2 SCATTER_ND 3 SPLIT 4 JOIN); and
 *            5 INVALID(0), 6 GATHER_ND(108), 7 0xFFFFFFFF, 8 Desc NULL
 *     level  0..14 the known levels 1_0..6_4; 15 -> 0, 16 -> 0x1001,
 *            17 -> 0x7000, 18 -> 0xFFFFFFFF; else level % 15
 *     misc   bit0: probe a binding one byte short, bit1: probe unknown option flags
 *     fill   bit0: index buffers get small signed values (int8 payload bytes)
 *            instead of raw payload bytes
 *     p0..p2 the operator's parameters in schema order (GATHER: Axis,
 *            IndexDimensions; SCATTER_ND: InputDimensionCount,
 *            IndicesDimensionCount; SPLIT/JOIN: the count, Axis); parameters
 *            past the third, and what arrays, unions and structs hold, are
 *            read after the header (decode_params)
 *   then one tensor record per tensor: the single slots in schema order, then
 *   each array slot's min(count, MAX_PIECES) pieces (SPLIT/JOIN: the whole
 *   tensor first, then the pieces):
 *     u8 ctl    0 normal; 1 TENSOR_DESC* NULL; 2 Type 0; 3 Type 7; 4 Desc NULL;
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
 */
#include "dmlref.h"
#include "env.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

#define MAX_PIECES 16u
#define MAX_TENSORS (MAX_PIECES + 1u)
#define MAX_BUFFER_BYTES (UINT64_C(64) << 20) /* all buffers of one run together */
#define MAX_WORK_ELEMENTS (UINT64_C(1) << 20) /* elements of all tensors together */

#define FAIL(...)                                                   \
    do {                                                            \
        fprintf(stderr, "fuzz_desc: " __VA_ARGS__);                 \
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

/* Elements of a tensor that validation accepted (sizes are >= 1, n in 1..8). */
static uint64_t elements_of(const DMLREF_BUFFER_TENSOR_DESC *b) {
    uint64_t e = 1;
    for (uint32_t d = 0; d < b->DimensionCount; ++d) e *= b->Sizes[d];
    return e;
}

/* Copies into dst, from src, every byte that some element of b addresses. */
static void copy_addressed(const DMLREF_BUFFER_TENSOR_DESC *b, unsigned char *dst, const unsigned char *src) {
    const uint32_t n = b->DimensionCount, esize = dmlref_data_type_size(b->DataType);
    uint64_t stride[8];
    uint32_t coord[8] = {0};
    if (b->Strides) {
        for (uint32_t d = 0; d < n; ++d) stride[d] = b->Strides[d];
    } else {
        uint64_t s = 1;
        for (uint32_t d = n; d-- > 0;) {
            stride[d] = s;
            s *= b->Sizes[d];
        }
    }
    for (;;) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < n; ++d) off += coord[d] * stride[d];
        memcpy(dst + off * esize, src + off * esize, esize);
        uint32_t d = n;
        while (d-- > 0) {
            if (++coord[d] < b->Sizes[d]) break;
            coord[d] = 0;
        }
        if (d == UINT32_MAX) return;
    }
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
 * u32 entries; a union's high word; a struct, present when value bit 0 is set, its
 * floats as u32 bit patterns; arrays sharing a count field take the first's length).
 * A tensor array's count is its parameter's value. */
static void decode_params(reader *r, fcase *c, const uint32_t *p) {
    const dmlref_schema *s = c->schema;
    for (uint32_t i = 0; i < s->n_params; ++i) {
        const dmlref_param *q = &s->params[i];
        const uint32_t v = i < 3 ? p[i] : rd_u32(r);
        switch (q->kind) {
        case DMLREF_PARAM_UINT_ARRAY:
        case DMLREF_PARAM_INT_ARRAY: {
            uint32_t n = v % 9;
            /* arrays that share a count field (PADDING's StartPadding and EndPadding:
             * DimensionCount) have the first one's length, as a caller's must */
            for (const dmlref_param *e = s->params; e < q; ++e)
                if ((e->kind == DMLREF_PARAM_UINT_ARRAY || e->kind == DMLREF_PARAM_INT_ARRAY) && q->count_name &&
                    e->count_name && e->count_offset == q->count_offset)
                    n = get_u32(c, q->count_offset);
            uint32_t *a = block(c, n * sizeof *a);
            for (uint32_t k = 0; k < n; ++k) {
                const uint32_t x = rd_u32(r);
                if (a) a[k] = x;
            }
            put_ptr(c, q->offset, a);
            if (q->count_name) put_u32(c, q->count_offset, a ? n : 0); /* no block left: an empty array */
            break;
        }
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
        default: /* UINT, INT, FLOAT, ENUM: the value's bits */
            put_u32(c, q->offset, v);
            break;
        }
    }
}

/* Decodes the header and tensors; returns the feature level.  Generic over the
 * schema: the operator is opsel % (the number of schemas) in the registry's order. */
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
    uint32_t n_schemas = 0;
    while (dmlref_operator_schema_at(n_schemas)) ++n_schemas;
    if (!n_schemas) abort();
    const dmlref_schema *s = dmlref_operator_schema_at(opsel % n_schemas);
    if (s->desc_size > sizeof c->u.bytes || s->n_slots > MAX_SLOTS) FAIL("%s: desc too large for the decoder", s->name);
    c->schema = s;
    c->op.Type = s->type;
    c->op.Desc = &c->u;
    switch (opsel) {
    case 5: c->op.Type = DMLREF_OPERATOR_INVALID; break;
    case 6: c->op.Type = DMLREF_OPERATOR_GATHER_ND; break;
    case 7: c->op.Type = (DMLREF_OPERATOR_TYPE)0xFFFFFFFFu; break;
    case 8: c->op.Desc = NULL; break;
    default: break;
    }
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

/* ---- running ---------------------------------------------------------------------- */

static void check_error(const char *what, dmlref_status st, const dmlref_error *err) {
    if (st == DMLREF_OK) return;
    if (err->code != st) FAIL("%s: status %d but err.code %d", what, (int)st, (int)err->code);
    if (!memchr(err->message, '\0', sizeof err->message)) FAIL("%s: message not terminated", what);
    if (err->message[0] == '\0') FAIL("%s: %s without a message", what, dmlref_status_name(st));
}

/* dst[i] = period[(start + i) % plen] for i < n, in memcpy runs: buffers may
 * be tens of MiB, and a byte loop in this instrumented code would take seconds. */
static void fill_periodic(unsigned char *dst, size_t n, const unsigned char *period, size_t plen, size_t start) {
    size_t i = 0, at = start % plen;
    while (i < n) {
        const size_t run = plen - at < n - i ? plen - at : n - i;
        memcpy(dst + i, period + at, run);
        i += run;
        at = 0;
    }
}

static unsigned char prefill_byte(uint32_t k, uint64_t i) { return (unsigned char)(0xA5u ^ (i * 29u + k * 7u)); }

/* Each output's prefill pattern (prefill_byte), built once per input by
 * execute_all, so that prefilling and the checks against it are memcpy and
 * memcmp. */
static unsigned char *pattern[MAX_TENSORS];

static void prefill(dmlref_buffer *outs, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) memcpy(outs[k].data, pattern[k], outs[k].size);
}

static int is_prefilled(const dmlref_buffer *outs, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k)
        if (memcmp(outs[k].data, pattern[k], outs[k].size) != 0) return 0;
    return 1;
}

static void compare(const char *what, const dmlref_buffer *a, const dmlref_buffer *b, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k)
        if (memcmp(a[k].data, b[k].data, a[k].size) != 0) {
            size_t i = 0;
            while (((const unsigned char *)a[k].data)[i] == ((const unsigned char *)b[k].data)[i]) ++i;
            FAIL("%s: output %u differs from the oracle's at byte %zu (0x%02x, oracle 0x%02x)", what, k, i,
                 ((const unsigned char *)b[k].data)[i], ((const unsigned char *)a[k].data)[i]);
        }
}

/* A buffer at a multiple of the tensor's GuaranteedBaseOffsetAlignment (which
 * execute checks); execute_all skips descs whose alignment passes MAX_ALIGN. */
#define MAX_ALIGN (UINT32_C(1) << 20)
static void *aligned_buffer(size_t size, uint32_t align) {
    void *p = NULL;
    if (posix_memalign(&p, align > 16 ? align : 16, size ? size : 1) != 0) abort();
    return p;
}

static void execute_all(const fcase *c, uint32_t fl, uint8_t misc, uint8_t fill, const uint8_t *payload,
                        size_t payload_len) {
    uint64_t bytes = 0, work = 0;
    for (uint32_t k = 0; k < c->n_tensors; ++k) {
        if (c->t[k].buf.GuaranteedBaseOffsetAlignment > MAX_ALIGN) return;
        if (c->t[k].buf.TotalTensorSizeInBytes > MAX_BUFFER_BYTES - bytes) return;
        bytes += c->t[k].buf.TotalTensorSizeInBytes;
        work += elements_of(&c->t[k].buf);
        if (work > MAX_WORK_ELEMENTS) return;
    }
    dmlref_cbuffer ins[MAX_TENSORS];
    dmlref_buffer ref[MAX_TENSORS], got[MAX_TENSORS];
    size_t pos = 0;
    unsigned char ramp[256], period[256];
    for (size_t i = 0; i < sizeof ramp; ++i) ramp[i] = (unsigned char)(i * 131u + 7u);
    for (uint32_t k = 0; k < c->n_in; ++k) {
        const size_t size = (size_t)c->in[k]->TotalTensorSizeInBytes;
        unsigned char *p = aligned_buffer(size, c->in[k]->GuaranteedBaseOffsetAlignment);
        /* the payload's bytes in order, continuing across buffers, or i * 131 + 7 */
        if (payload_len) fill_periodic(p, size, payload, payload_len, pos);
        else fill_periodic(p, size, ramp, sizeof ramp, 0);
        pos += size;
        if ((fill & 1) && c->in_is_index[k]) {
            /* small signed values: each element slot keeps its first byte, sign-extended */
            const uint32_t es = dmlref_data_type_size(c->in[k]->DataType);
            for (size_t i = 0; i < size; ++i)
                if (i % es) p[i] = (unsigned char)((p[i - i % es] & 0x80) ? 0xFF : 0x00);
        }
        ins[k].data = p;
        ins[k].size = size;
    }
    for (uint32_t k = 0; k < c->n_out; ++k) {
        const size_t size = (size_t)c->out[k]->TotalTensorSizeInBytes;
        ref[k].data = aligned_buffer(size, c->out[k]->GuaranteedBaseOffsetAlignment);
        got[k].data = aligned_buffer(size, c->out[k]->GuaranteedBaseOffsetAlignment);
        ref[k].size = got[k].size = size;
        for (size_t i = 0; i < sizeof period; ++i) period[i] = prefill_byte(k, i); /* period 256 in i */
        pattern[k] = malloc(size ? size : 1);
        if (!pattern[k]) abort();
        fill_periodic(pattern[k], size, period, sizeof period, 0);
    }
    const DMLREF_FEATURE_LEVEL level = (DMLREF_FEATURE_LEVEL)fl;
    dmlref_error err;
    dmlref_operator *op = NULL;
    dmlref_status st;

    /* 1. the oracle */
    const dmlref_options oracle = {DMLREF_OPTION_FORCE_ORACLE, 1};
    st = dmlref_compile(&c->op, level, &oracle, &op, &err);
    check_error("compile (oracle)", st, &err);
    if (st != DMLREF_OK) FAIL("compile (oracle) failed after validation: %s", err.message);
    prefill(ref, c->n_out);
    st = dmlref_execute(op, ins, c->n_in, ref, c->n_out, &err);
    if (st != DMLREF_OK) FAIL("oracle execute: %s", err.message);
    if (misc & 1) { /* a binding one byte short is refused before anything runs */
        dmlref_buffer short_out[MAX_TENSORS];
        memcpy(short_out, got, c->n_out * sizeof *got);
        prefill(got, c->n_out);
        short_out[0].size -= 1;
        st = dmlref_execute(op, ins, c->n_in, short_out, c->n_out, &err);
        check_error("short binding", st, &err);
        if (st != DMLREF_ERROR_BINDING) FAIL("a short output binding gave %s", dmlref_status_name(st));
        if (!is_prefilled(got, c->n_out)) FAIL("a refused binding wrote output bytes");
    }
    dmlref_release(op);
    op = NULL;

    /* The oracle writes only bytes that output elements address. */
    for (uint32_t k = 0; k < c->n_out; ++k) { /* the pattern with the addressed bytes taken from ref */
        unsigned char *want = malloc(ref[k].size ? ref[k].size : 1);
        if (!want) abort();
        memcpy(want, pattern[k], ref[k].size);
        copy_addressed(c->out[k], want, ref[k].data);
        if (memcmp(want, ref[k].data, ref[k].size) != 0)
            for (size_t i = 0; i < ref[k].size; ++i)
                if (want[i] != ((unsigned char *)ref[k].data)[i])
                    FAIL("the oracle wrote byte %zu of output %u, which no element addresses", i, k);
        free(want);
    }

    /* 2. the default (fast) path, serial */
    const dmlref_options fast1 = {0, 1};
    st = dmlref_compile(&c->op, level, &fast1, &op, &err);
    check_error("compile (fast)", st, &err);
    if (st != DMLREF_OK) FAIL("compile (fast) failed after validation: %s", err.message);
    prefill(got, c->n_out);
    st = dmlref_execute(op, ins, c->n_in, got, c->n_out, &err);
    if (st != DMLREF_OK) FAIL("fast execute (%s): %s", dmlref_kernel_name(op), err.message);
    compare(dmlref_kernel_name(op), ref, got, c->n_out);
    dmlref_release(op);
    op = NULL;

    /* 3. the default path with 2 threads, through dmlref_run */
    const dmlref_options fast2 = {0, 2};
    prefill(got, c->n_out);
    st = dmlref_run(&c->op, level, &fast2, ins, c->n_in, got, c->n_out, &err);
    if (st != DMLREF_OK) FAIL("dmlref_run with 2 threads: %s", err.message);
    compare("threads=2", ref, got, c->n_out);

    /* 4. the checking option: never a crash; success means the oracle's bytes,
     * an index error means nothing was written. */
    const dmlref_options checking = {DMLREF_OPTION_CHECK_INDICES, 0};
    prefill(got, c->n_out);
    st = dmlref_run(&c->op, level, &checking, ins, c->n_in, got, c->n_out, &err);
    check_error("checking", st, &err);
    if (st == DMLREF_OK)
        compare("checking", ref, got, c->n_out);
    else if (st == DMLREF_ERROR_INDEX_OUT_OF_RANGE || st == DMLREF_ERROR_DUPLICATE_INDEX) {
        if (!is_prefilled(got, c->n_out)) FAIL("the checking option wrote output bytes before failing");
    } else if (st != DMLREF_ERROR_OUT_OF_MEMORY) {
        FAIL("the checking option failed with %s: %s", dmlref_status_name(st), err.message);
    }

    for (uint32_t k = 0; k < c->n_in; ++k) free((void *)ins[k].data);
    for (uint32_t k = 0; k < c->n_out; ++k) {
        free(ref[k].data);
        free(got[k].data);
        free(pattern[k]);
        pattern[k] = NULL;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fast paths only split work across threads above a grain of work per
 * thread (128 KiB), and take their large-tensor kernels (GATHER_ELEMENTS
 * slabs, SCATTER_ND rows_skip with streaming stores) above 1 and 16 MiB; tiny
 * thresholds make the small tensors the fuzzer produces take all of them.
 * Read at compile time; an explicit setting wins. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    setenv("DMLREF_PAR_GRAIN", "16", 0);
    setenv("DMLREF_SLAB_MIN", "0", 0);
    setenv("DMLREF_STREAM_MIN", "0", 0);
    env_reload(); /* the library reads the variables once: read them again */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    fcase *c = calloc(1, sizeof *c);
    if (!c) abort();
    uint8_t misc, fill;
    const uint32_t fl = decode(&r, c, &misc, &fill);
    const DMLREF_FEATURE_LEVEL level = (DMLREF_FEATURE_LEVEL)fl;

    dmlref_error err;
    const dmlref_status valid = dmlref_validate(&c->op, level, &err);
    check_error("validate", valid, &err);
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_DESC_VERBOSE") != NULL;
    if (verbose) fprintf(stderr, "validate: %s %s\n", dmlref_status_name(valid), valid ? err.message : "");
    if (valid == DMLREF_OK) {
        for (uint32_t k = 0; k < c->n_tensors; ++k) {
            const DMLREF_BUFFER_TENSOR_DESC *b = &c->t[k].buf;
            const uint64_t min = dmlref_calc_buffer_tensor_size(b->DataType, b->DimensionCount, b->Sizes, b->Strides);
            if (min == 0 || b->TotalTensorSizeInBytes < min)
                FAIL("tensor %u validated with TotalTensorSizeInBytes %llu below the minimum %llu", k,
                     (unsigned long long)b->TotalTensorSizeInBytes, (unsigned long long)min);
            if (elements_of(b) > UINT32_MAX) FAIL("tensor %u validated with more than 2^32-1 elements", k);
        }
    }

    /* compile with the fast path agrees with validate */
    dmlref_operator *op = NULL;
    const dmlref_status compiled = dmlref_compile(&c->op, level, NULL, &op, &err);
    check_error("compile", compiled, &err);
    if (compiled != valid && compiled != DMLREF_ERROR_OUT_OF_MEMORY)
        FAIL("validate gives %s but compile %s", dmlref_status_name(valid), dmlref_status_name(compiled));
    if ((compiled == DMLREF_OK) != (op != NULL)) FAIL("compile status and *op disagree");
    dmlref_release(op);

    if (misc & 2) { /* unknown option bits are refused whatever the desc */
        const dmlref_options bad = {0x80u, 1};
        op = NULL;
        const dmlref_status st = dmlref_compile(&c->op, level, &bad, &op, &err);
        check_error("bad options", st, &err);
        if (st == DMLREF_OK || op) FAIL("unknown option flags were accepted");
    }

    if (valid == DMLREF_OK && compiled == DMLREF_OK) execute_all(c, fl, misc, fill, r.p, r.n);

    for (uint32_t k = 0; k < c->n_tensors; ++k) free_tensor(&c->t[k]);
    for (uint32_t k = 0; k < MAX_SLOTS; ++k) free(c->pieces[k]);
    for (uint32_t k = 0; k < c->n_blocks; ++k) free(c->blocks[k]);
    free(c);
    return 0;
}
