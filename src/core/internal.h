/* Internal definitions shared by the library's source files. */
#ifndef DMLREF_INTERNAL_H
#define DMLREF_INTERNAL_H

#include "dmlref.h"

#include <stdint.h>
#include <string.h>

#define MAX_DIMS 8u
#define MAX_ELEMENTS UINT64_C(0xFFFFFFFF) /* 2^32 - 1 elements per tensor */

/* DMLREF_SMALL=1 (make SMALL=1): a small target.  The fast paths keep their chunk
 * buffers on the stack at most 256 bytes each (host builds: up to 16 KiB, sized for
 * speed); the chunking changes, the bytes written do not. */
#ifndef DMLREF_SMALL
#define DMLREF_SMALL 0
#endif

/* DMLREF_SIMD (make SIMD=1, the default; simd/simd.h): the same default here, for
 * the headers that test it without simd.h (engine/plan.h's plan_stream). */
#ifndef DMLREF_SIMD
#define DMLREF_SIMD 1
#endif

/* DMLREF_ALWAYS_INLINE: a function whose callers pass constants (an element size, a
 * direction) that make each inlined call a loop of its own, or one that takes or returns
 * vectors (a split-off copy would pass vectors by value, an ABI question on an i386 build
 * without SSE: gcc's -Wpsabi).  DMLREF_NOINLINE: a function kept out of its caller's frame
 * (a walk or a message buffer that would otherwise add up on the stack under every
 * compile: docs/baremetal.md, "Stack"). */
#if defined(__GNUC__)
#define DMLREF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define DMLREF_ALWAYS_INLINE inline __attribute__((always_inline))
#define DMLREF_NOINLINE __attribute__((noinline))
#else
#define DMLREF_PRINTF(a, b)
#define DMLREF_ALWAYS_INLINE inline
#define DMLREF_NOINLINE
#endif

/* The tensors a compiled operator holds in itself (dmlref_operator.tensor_store): up to this
 * many inputs and outputs together cost no allocation (each side counts at least 1).  None
 * with SMALL=1: the operator's structure stays small (dmlref_output_sizes keeps one on the
 * stack; DMLREF_NO_MALLOC's validate arena holds one). */
#if DMLREF_SMALL
#define OP_INLINE_TENSORS 0
#else
#define OP_INLINE_TENSORS 3 /* GATHER's three, SCATTER's four not: the structure stays under glibc's tcache limit (1032 bytes) */
#endif

/* A validated buffer tensor: strides always materialized. */
typedef struct tensor {
    uint32_t dtype;          /* DMLREF_TENSOR_DATA_TYPE                          */
    uint32_t esize;          /* element size in bytes (1, 2, 4, 8)               */
    uint32_t n;              /* DimensionCount                                   */
    uint32_t sizes[MAX_DIMS];
    uint32_t strides[MAX_DIMS];  /* in elements (DirectML's are UINT32; packed ones < 2^32) */
    uint64_t bstrides[MAX_DIMS]; /* in bytes                                    */
    uint64_t elements;       /* product of sizes (<= 2^32 - 1)                   */
    uint64_t span_bytes;     /* (IndexOfLastElement + 1) * esize                 */
    uint64_t total_bytes;    /* TotalTensorSizeInBytes                           */
    uint32_t align;          /* GuaranteedBaseOffsetAlignment (0 or a power of 2) */
    uint32_t align_mask;     /* align - 1, or 0 when align is 0: the base address bits that must be 0 */
} tensor_t;

/* All zeros (tensor.c): what tensor_check starts a tensor from. */
extern const tensor_t tensor_zero;

/* ---- memory (alloc.c) ------------------------------------------------------ */

/* The default allocator: malloc and free. */
extern const dmlref_allocator mem_default;
/* size bytes (1 when 0) through a, DMLREF_ALLOC_ALIGNMENT-aligned, or NULL. */
void *mem_alloc(const dmlref_allocator *a, size_t size);
/* mem_alloc, zeroed. */
void *mem_zalloc(const dmlref_allocator *a, size_t size);
/* memset(p, 0, n) through a call, for structures of a few hundred bytes on the compile path:
 * gcc inlines a memset of a constant size that large as `rep stos`, whose start costs tens of
 * cycles on AMD (the whole of a tiny tensor check's time); libc's memset uses vector stores. */
void mem_zero(void *p, size_t n);
/* count * esize bytes (not zeroed), or NULL also when that does not fit in size_t. */
void *mem_array(const dmlref_allocator *a, uint64_t count, size_t esize);
/* Gives p back to a (nothing for NULL). */
void mem_free(const dmlref_allocator *a, void *p);

/* qsort's contract, without memory (libc's qsort may call malloc): an
 * unstable heapsort, so cmp must order all items (ties broken). */
void sort_items(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* ---- errors (error.c) ---------------------------------------------------- */

#ifndef DMLREF_MESSAGES
#define DMLREF_MESSAGES 1
#endif
#if DMLREF_MESSAGES
/* Records code and formatted message in err (if not NULL); returns code. */
dmlref_status set_error(dmlref_error *err, dmlref_status code, const char *fmt, ...)
    DMLREF_PRINTF(3, 4);

/* set_error for a broken rule: also records the rule's id in docs/operators.md
 * ("G9", "T13") and the desc field it is about, `field` or `field.sub` when sub
 * is not NULL ("IndicesTensor.Sizes", "Axis"). */
dmlref_status set_rule_error(dmlref_error *err, dmlref_status code, const char *rule, const char *field,
                             const char *sub, const char *fmt, ...) DMLREF_PRINTF(6, 7);
#else
/* DMLREF_MESSAGES=0: the same calls, inlined, so that the format strings are
 * dropped; the code, rule and field are recorded (error.c), the message is the
 * rule id or empty. */
/* The few snprintf calls that build field names and lists (not messages) use a
 * small formatter instead (error.c: %s %c %d %u %x, lengths h l ll z; returns the
 * length it would have written, as snprintf does), so no libc printf is linked. */
int dmlref_snprintf_(char *buf, size_t cap, const char *fmt, ...) DMLREF_PRINTF(3, 4);
#define snprintf dmlref_snprintf_
dmlref_status set_error_code(dmlref_error *err, dmlref_status code);
dmlref_status set_rule_code(dmlref_error *err, dmlref_status code, const char *rule, const char *field,
                            const char *sub);
/* Macros, so that the message's arguments (value and shape formatting for text
 * that would be dropped) are not evaluated either: the code, rule and field are
 * all that is kept.  (A message argument must then have no effect besides the
 * message: none has.) */
/* Declared, never defined: it appears only inside sizeof (not evaluated, so never
 * called), which keeps the format checked and the arguments "used". */
int dmlref_message_args_(const char *fmt, ...) DMLREF_PRINTF(1, 2);
#define set_error(err, code, ...) ((void)sizeof(dmlref_message_args_(__VA_ARGS__)), set_error_code((err), (code)))
#define set_rule_error(err, code, rule, field, sub, ...)                                                      \
    ((void)sizeof(dmlref_message_args_(__VA_ARGS__)), set_rule_code((err), (code), (rule), (field), (sub)))
#endif

/* MSG_ONLY(parameter declaration): a parameter that only messages name (the operator's
 * name, a reference tensor's name, the feature level), which a MESSAGES=0 build does not
 * pass: tensor_check and the check_* functions below.  There a macro of the function's
 * name takes the same arguments as with messages and drops those (inside sizeof: not
 * evaluated), so that no call site differs, and none pays for loading them (about 180
 * calls in a 22-operator image).  The functions are declared and defined with their
 * names in parentheses, which the macros do not expand; in their bodies MSG_LOCAL gives
 * a dropped parameter's name to the messages' type check (internal.h's set_rule_error). */
#if DMLREF_MESSAGES
#define MSG_ONLY(...) __VA_ARGS__,
#define MSG_LOCAL(decl) ((void)0)
#else
#define MSG_ONLY(...)
#define MSG_LOCAL(decl) decl = 0; (void)0
#endif

/* "base[k]" (or "base" when k is FIELD_NO_INDEX) into buf, cap >= 1 bytes, truncated
 * as snprintf truncates: a field name built without snprintf (error.c), so that
 * a MESSAGES=0 build links no formatter. */
#define FIELD_NO_INDEX UINT32_MAX
void field_name(char *buf, size_t cap, const char *base, uint32_t k);

/* 1 when dmlref_data_type_name(dt) is not NULL (types.c). */
int data_type_known(uint32_t dt);
/* Bytes by data type value (0 for 0 and for UINT4/INT4, which have no byte size), values below
 * N_DATA_TYPES: dmlref_data_type_size without the call. */
#define N_DATA_TYPES 14u
extern const uint8_t data_type_sizes[N_DATA_TYPES];

/* ---- tensor-desc rules (tensor.c) ----------------------------------------- */

/* Data-type bit for the support masks. */
#define DT(x) (1u << DMLREF_TENSOR_DATA_TYPE_##x)

/*
 * Checks the rules every buffer tensor obeys (docs/operators.md 1.2-1.5, rules T1-T15) and fills t.
 * name is the field path used in messages ("InputTensors[2]").
 * output_of: NULL for an input; for an output, the operator being compiled,
 * whose allocator the overlap check uses.  For outputs, OWNED_BY_DML and
 * elements that share memory are rejected.
 */
dmlref_status(tensor_check)(MSG_ONLY(const char *op) const char *name, const DMLREF_TENSOR_DESC *td,
                            const struct dmlref_operator *output_of, tensor_t *t, dmlref_error *err);
#if !DMLREF_MESSAGES
#define tensor_check(op, name, td, output_of, t, err) \
    ((void)sizeof(op), (tensor_check)((name), (td), (output_of), (t), (err)))
#endif

/* Printable list of sizes ("{1,3,2}") into buf. */
const char *sizes_str(char *buf, size_t cap, const uint32_t *sizes, uint32_t n);
/* Printable coordinate ("[0,2,1]") into buf. */
const char *coord_str(char *buf, size_t cap, const uint32_t *coord, uint32_t n);

/* ---- feature-level support (a class's rows: registry.h) ------------------ */

typedef struct support {
    uint32_t min_dims, max_dims; /* allowed DimensionCount range */
    uint32_t data_types;         /* DT() mask for data tensors   */
    uint32_t index_types;        /* DT() mask for index tensors  */
} support_t;

/* The usual data-type sets of the support tables (operators.md 1.6). */
#define DT_T6 (DT(FLOAT32) | DT(FLOAT16) | DT(INT32) | DT(INT16) | DT(UINT32) | DT(UINT16))
#define DT_T8 (DT_T6 | DT(INT8) | DT(UINT8))
#define DT_T11 (DT_T8 | DT(FLOAT64) | DT(INT64) | DT(UINT64))
#define DT_F32F16 (DT(FLOAT32) | DT(FLOAT16))
#define DT_IDXU32 DT(UINT32)
#define DT_IDX4 (DT(INT64) | DT(INT32) | DT(UINT64) | DT(UINT32))

/* 1 for a known DMLREF_FEATURE_LEVEL value. */
int feature_level_known(uint32_t fl);

/* Common per-operator checks; return DMLREF_OK or the error.  (MSG_ONLY: above.) */
dmlref_status(check_same_dims)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                               MSG_ONLY(const char *ref_name) const tensor_t *ref, dmlref_error *err);
dmlref_status(check_same_type)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                               MSG_ONLY(const char *ref_name) const tensor_t *ref, dmlref_error *err);
dmlref_status(check_support)(MSG_ONLY(const char *op) const char *dims_rule, const char *type_rule,
                             const char *name, const tensor_t *t, const support_t *s, int is_index,
                             MSG_ONLY(uint32_t fl) dmlref_error *err);
/* t's Sizes equal ref's in every dimension but axis (t has ref's DimensionCount). */
dmlref_status(check_sizes_but_axis)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                                    MSG_ONLY(const char *ref_name) const tensor_t *ref, uint32_t axis,
                                    dmlref_error *err);
/* A DML_SCALAR_UNION's data type field (PADDING1's PaddingValueDataType, DIAGONAL_MATRIX1's
 * ValueDataType) equals the output's DataType; the message names an unknown type by number. */
dmlref_status(check_value_type)(MSG_ONLY(const char *op) const char *rule, const char *field, uint32_t value_type,
                                const tensor_t *out, dmlref_error *err);
dmlref_status(check_same_sizes)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                                MSG_ONLY(const char *ref_name) const uint32_t *want, dmlref_error *err);
#if !DMLREF_MESSAGES
#define check_same_dims(op, rule, name, t, ref_name, ref, err) \
    ((void)sizeof(op), (void)sizeof(ref_name), (check_same_dims)((rule), (name), (t), (ref), (err)))
#define check_same_type(op, rule, name, t, ref_name, ref, err) \
    ((void)sizeof(op), (void)sizeof(ref_name), (check_same_type)((rule), (name), (t), (ref), (err)))
#define check_support(op, dims_rule, type_rule, name, t, s, is_index, fl, err)                     \
    ((void)sizeof(op), (void)sizeof(fl),                                                          \
     (check_support)((dims_rule), (type_rule), (name), (t), (s), (is_index), (err)))
#define check_sizes_but_axis(op, rule, name, t, ref_name, ref, axis, err) \
    ((void)sizeof(op), (void)sizeof(ref_name), (check_sizes_but_axis)((rule), (name), (t), (ref), (axis), (err)))
#define check_value_type(op, rule, field, value_type, out, err) \
    ((void)sizeof(op), (check_value_type)((rule), (field), (value_type), (out), (err)))
#define check_same_sizes(op, rule, name, t, ref_name, want, err) \
    ((void)sizeof(op), (void)sizeof(ref_name), (check_same_sizes)((rule), (name), (t), (want), (err)))
#endif

/* ---- indices (index.c) --------------------------------------------------- */

/* index_value, index_read, index_normalize (the default clamp) and the
 * policy's one definition, index_norm(): index.h. */
#include "index.h"

/* ---- the canonical strided N-d iterator (iter.c) --------------------------- */

#define ITER_MAX_TENSORS 4u

/*
 * Visits every coordinate of `sizes` in row-major order (last dimension
 * fastest) and keeps one running byte offset per tracked tensor:
 *     offset[k] = sum_d coord[d] * bstrides[k][d].
 */
typedef struct nd_iter {
    uint32_t n;                 /* dimensions                       */
    uint32_t k;                 /* tracked tensors                  */
    uint32_t sizes[MAX_DIMS];
    uint32_t coord[MAX_DIMS];
    uint64_t bstrides[ITER_MAX_TENSORS][MAX_DIMS];
    uint64_t offset[ITER_MAX_TENSORS];
    int done;                   /* 1 once every coordinate was seen */
} nd_iter;

/* bstrides[i] may be NULL to track nothing for tensor i. */
void nd_iter_init(nd_iter *it, uint32_t n, const uint32_t *sizes,
                  uint32_t k, const uint64_t *const *bstrides);
void nd_iter_next(nd_iter *it);

/* Byte offset of the element at coord in t. */
static inline uint64_t tensor_offset(const tensor_t *t, const uint32_t *coord) {
    uint64_t off = 0;
    for (uint32_t d = 0; d < t->n; ++d) off += (uint64_t)coord[d] * t->bstrides[d];
    return off;
}

/* ---- compiled operators (api.c and the op_*.c files) ---------------------- */

typedef struct dmlref_operator op_t;

/* The bound buffers (sizes already checked against the tensors). */
typedef struct exec_args {
    const dmlref_cbuffer *in; /* n_inputs  */
    const dmlref_buffer *out; /* n_outputs */
} exec_args;

#define IN_DATA(a, i) ((const unsigned char *)(a)->in[i].data)
#define OUT_DATA(a, i) ((unsigned char *)(a)->out[i].data)

/* Returns from the calling function when expr is not DMLREF_OK. */
#define TRY(expr)                                   \
    do {                                            \
        dmlref_status try_st_ = (expr);             \
        if (try_st_ != DMLREF_OK) return try_st_;   \
    } while (0)

typedef dmlref_status (*kernel_fn)(const op_t *op, const exec_args *a, dmlref_error *err);

struct op_class;

/* Room for an operator's own parameters (its params struct, private to its
 * file; OP_PARAMS checks the size at compile time). */
#define OP_PARAMS_MAX 256u

struct dmlref_operator {
    const struct op_class *cls; /* the registry's class                        */
    DMLREF_OPERATOR_TYPE type;
    const char *name;           /* "GATHER", ...                               */
    uint32_t feature_level;
    dmlref_options options;     /* options.threadpool: &pool below, or NULL   */
    dmlref_threadpool pool;     /* the caller's pool, copied at compile        */
    uint32_t n_inputs, n_outputs;
    tensor_t *inputs;           /* n_inputs, in binding order                  */
    tensor_t *outputs;          /* n_outputs                                   */
    union {                     /* the operator's parameters (OP_PARAMS)       */
        unsigned char bytes[OP_PARAMS_MAX];
        uint64_t align_u64;
        void *align_ptr;
    } params;
    /* kernels */
    kernel_fn oracle;           /* the scalar reference                        */
    kernel_fn check;            /* the checking option's pre-pass, or NULL     */
    /* Set by compile when DirectML leaves some output elements undefined
     * (dmlref_defined_elements; NULL: every element is defined): after an
     * execution wrote `outputs`, how many of output `output`'s elements, a prefix
     * in row-major logical order, are defined.  NONZERO_COORDINATES: its rows
     * past the count. */
    void (*defined)(const op_t *op, const dmlref_buffer *outputs, uint32_t output, uint64_t *defined);
    kernel_fn kernel;           /* what execute runs (oracle unless planned)    */
    const char *kernel_name;
    void *plan;                 /* fast-path plan (owned), or NULL             */
    void (*plan_free)(const dmlref_allocator *al, void *plan);
    dmlref_allocator alloc;     /* every allocation's (options.allocator's copy,
                                   or mem_default); options.allocator is NULL */
    uint64_t exec_request;      /* the bytes execute's one request asks (0: none):
                                   set by compile, read by op_exec_alloc and
                                   dmlref_execute_memory                        */
#if OP_INLINE_TENSORS
    /* inputs and outputs when they fit (op_alloc_tensors): no allocation of their own */
    tensor_t tensor_store[OP_INLINE_TENSORS];
#endif
};

/* Execute's one allocation: op->exec_request bytes through op->alloc (give it
 * back with mem_free(&op->alloc, p)); NULL with DMLREF_ERROR_OUT_OF_MEMORY in
 * err, naming `what`, when that fails or does not fit in size_t. */
void *op_exec_alloc(const op_t *op, const char *what, dmlref_error *err);

/* The operator's parameters as its own struct type T. */
#define OP_PARAMS(op, T) \
    ((void)sizeof(char[sizeof(T) <= OP_PARAMS_MAX ? 1 : -1]), (T *)(void *)(op)->params.bytes)
#define OP_CPARAMS(op, T) \
    ((void)sizeof(char[sizeof(T) <= OP_PARAMS_MAX ? 1 : -1]), (const T *)(const void *)(op)->params.bytes)

/* Allocates op->inputs / op->outputs (zeroed, through op->alloc); count checked for overflow (op.c). */
dmlref_status op_alloc_tensors(op_t *op, uint32_t n_inputs, uint32_t n_outputs,
                               dmlref_error *err);

/* GATHER's output shape (rule G6): Input.Sizes[0..a) ++ Indices.Sizes[N-k..N) ++
 * Input.Sizes[a+1..N), right-aligned to n dimensions.  The one definition that
 * validation and the case builders use (op_gather.c). */
void gather_output_sizes(uint32_t n, uint32_t a, uint32_t k, const uint32_t *in_sizes, const uint32_t *ix_sizes,
                         uint32_t *out_sizes);

/* The checking option's pre-pass: every index in range (before any write).
 * Component c's bound is bounds[c], InputTensor.Sizes[bound_dim0 + c] (named so in
 * the message, which is formatted only on an error). */
dmlref_status check_indices_in_range(const op_t *op, const tensor_t *idx,
                                     const unsigned char *idx_data,
                                     const char *idx_name, uint32_t components,
                                     const uint64_t *bounds, uint32_t bound_dim0,
                                     dmlref_error *err);

/* The pre-pass of GATHER and GATHER_ELEMENTS: inputs[1] indexes inputs[0] along axis. */
dmlref_status check_indices_along_axis(const op_t *op, uint32_t axis, const exec_args *x, dmlref_error *err);

#endif /* DMLREF_INTERNAL_H */
