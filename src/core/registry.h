/*
 * The operator registry: one class per operator (src/core/operators.def lists them),
 * holding its public schema, its feature-level support rows and its hooks.
 * The layers above (api.c) reach operators only through it.
 */
#ifndef DMLREF_REGISTRY_H
#define DMLREF_REGISTRY_H

#include "internal.h"

#include <stddef.h>

/* From feature level `from` on (until the operator's next row), this support
 * (support_t's fields, packed: 8 bytes a row, not 20; a value that does not fit
 * its field is a -Woverflow error in the table's initializer). */
typedef struct support_row {
    uint16_t from; /* DMLREF_FEATURE_LEVEL_*: 0x1000 .. 0x6400 */
    struct {
        uint8_t min_dims, max_dims;
        uint16_t data_types, index_types; /* DT() masks: data types 1 .. 13 */
    } s;
} support_row;

/* A class's plan hook.  DMLREF_ORACLE_ONLY=1 (make ORACLE_ONLY=1, which also leaves
 * out the *_fast.c files): no class has one, every operator runs its oracle, and
 * the plan functions are unused (not compiled into anything). */
#if DMLREF_ORACLE_ONLY
#define PLAN_HOOK(f) NULL
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#else
#define PLAN_HOOK(f) f
#endif

typedef struct op_class {
    const dmlref_schema *schema; /* name, type, slots, parameters          */
    const support_row *support;           /* n_support rows, increasing `from`      */
    uint32_t n_support;
    /* Validates desc at op->feature_level (every rule of the operator, messages
     * naming operator, field, rule and values) and fills op: its tensors
     * (op_alloc_tensors), its parameters (op->params), op->oracle and, when it
     * has one, op->check (the checking option's pre-pass). */
    dmlref_status (*compile)(op_t *op, const void *desc, dmlref_error *err);
    /* Optional: picks a fast path (may set op->kernel, kernel_name, plan,
     * plan_free; leaves the oracle when none applies; a failed allocation is
     * DMLREF_ERROR_OUT_OF_MEMORY, plan_out_of_memory).  Called after compile. */
    dmlref_status (*plan)(op_t *op, dmlref_error *err);
    /* Output `output`'s DimensionCount and Sizes from the desc's inputs and parameters
     * (dmlref_output_sizes; every class has one).  op holds only cls, type, name and
     * feature_level (no tensors).  Checks, in compile's order, the rules of the inputs
     * and parameters the shape is computed from, with compile's messages; the output
     * descs are not read, except for what the inputs and parameters leave free, which
     * shape_given() reads (SPLIT, ONE_HOT, DIAGONAL_MATRIX(1)).  Writes *n and sizes[0..*n)
     * only on DMLREF_OK. */
    dmlref_status (*output_sizes)(const op_t *op, const void *desc, uint32_t output, uint32_t *n, uint32_t *sizes,
                                  dmlref_error *err);
} op_class;

/* Schema entries (designated initializers over the desc struct T). */
#define SLOT(T, field, out, index) {.name = #field, .offset = offsetof(T, field), .is_output = (out), .is_index = (index)}
#define SLOT_IN(T, field) SLOT(T, field, 0, 0)
#define SLOT_INDICES(T, field) SLOT(T, field, 0, 1)
#define SLOT_OUT(T, field) SLOT(T, field, 1, 0)
#define SLOT_ARRAY(T, field, out, count)                                                                      \
    {.name = #field, .offset = offsetof(T, field), .is_output = (out), .is_array = 1,                           \
     .count_offset = offsetof(T, count), .count_name = #count}
#define PARAM(T, field, k) {.name = #field, .offset = offsetof(T, field), .kind = (k)}
#define PARAM_UINT(T, field) PARAM(T, field, DMLREF_PARAM_UINT)
#define PARAM_COUNT(T, field) {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_UINT, .is_count = 1}
#define N_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
/* An optional pointer to a struct S of float fields (names: a static array). */
#define PARAM_STRUCT(T, field, S, names)                                                                      \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_STRUCT, .is_optional = 1,                 \
     .struct_size = sizeof(S), .field_names = (names), .field_count = N_OF(names)}

/* Phase-2 field kinds (see dmlref_param in include/dmlref.h). */
#define SLOT_IN_OPTIONAL(T, field) {.name = #field, .offset = offsetof(T, field), .is_optional = 1}
#define PARAM_INT(T, field) PARAM(T, field, DMLREF_PARAM_INT)
#define PARAM_FLOAT(T, field) PARAM(T, field, DMLREF_PARAM_FLOAT)
/* A counted array whose count is the PARAM_COUNT field `count`. */
#define PARAM_UINT_ARRAY(T, field, count)                                                                     \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_UINT_ARRAY,                              \
     .count_offset = offsetof(T, count), .count_name = #count}
#define PARAM_INT_ARRAY(T, field, count)                                                                      \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_INT_ARRAY,                               \
     .count_offset = offsetof(T, count), .count_name = #count}
/* An enum; names: a static array indexed by value (NULL for a gap). */
#define PARAM_ENUM(T, field, names)                                                                           \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_ENUM, .enum_names = (names),             \
     .enum_count = N_OF(names)}
/* A DMLREF_SCALAR_UNION whose type is the DMLREF_TENSOR_DATA_TYPE field type_field
 * (itself a PARAM_ENUM over dmlref's data-type names, listed before it). */
#define PARAM_UNION(T, field, type_field)                                                                     \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_SCALAR_UNION,                            \
     .type_offset = offsetof(T, type_field)}

/* The DMLREF_TENSOR_DATA_TYPE names by value ("FLOAT32" at 1, ... "INT64" at 11;
 * NULL at 0), for a data-type field such as PADDING1's PaddingValueDataType. */
#define N_DATA_TYPE_NAMES 12u
extern const char *const data_type_enum_names[N_DATA_TYPE_NAMES];
#define PARAM_DATA_TYPE(T, field)                                                                             \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_ENUM, .enum_names = data_type_enum_names, \
     .enum_count = N_DATA_TYPE_NAMES}

/* Phase-3 field kinds. */
/* A counted array of FLOAT (const float *) whose count is the PARAM_COUNT field `count`. */
#define PARAM_FLOAT_ARRAY(T, field, count)                                                                    \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_FLOAT_ARRAY,                             \
     .count_offset = offsetof(T, count), .count_name = #count}
#define PARAM_SIZE_2D(T, field) PARAM(T, field, DMLREF_PARAM_SIZE_2D)
#define PARAM_BOOL(T, field) PARAM(T, field, DMLREF_PARAM_BOOL)

/* DML_INTERPOLATION_MODE and DML_AXIS_DIRECTION names by value (support.c): shared by
 * UPSAMPLE_2D, the RESAMPLE family and (phase 3b) TOP_K1, ARGMIN, ARGMAX. */
#define N_INTERPOLATION_MODE_NAMES 2u
extern const char *const interpolation_mode_enum_names[N_INTERPOLATION_MODE_NAMES];
#define PARAM_INTERPOLATION_MODE(T, field)                                                                    \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_ENUM,                                    \
     .enum_names = interpolation_mode_enum_names, .enum_count = N_INTERPOLATION_MODE_NAMES}
#define N_AXIS_DIRECTION_NAMES 2u
extern const char *const axis_direction_enum_names[N_AXIS_DIRECTION_NAMES];
#define PARAM_AXIS_DIRECTION(T, field)                                                                        \
    {.name = #field, .offset = offsetof(T, field), .kind = DMLREF_PARAM_ENUM,                                    \
     .enum_names = axis_direction_enum_names, .enum_count = N_AXIS_DIRECTION_NAMES}

/* ---- output_sizes hooks (shape.c) ----------------------------------------- */

/* An input the shape is computed from: tensor_check, then its feature-level row
 * (check_support with dims_rule and type_rule), as compile checks it. */
dmlref_status shape_input(const op_t *op, const char *name, const DMLREF_TENSOR_DESC *td, int is_index,
                          const char *dims_rule, const char *type_rule, tensor_t *t, dmlref_error *err);
/* An output shaped like the input td (ELEMENT_WISE_IDENTITY, SCATTER, ...): shape_input, then its Sizes. */
dmlref_status shape_of_input(const op_t *op, const char *name, const DMLREF_TENSOR_DESC *td, const char *dims_rule,
                             const char *type_rule, uint32_t *n, uint32_t *sizes, dmlref_error *err);
/* What an output desc gives for the part of its shape the inputs and parameters leave
 * free (`what`: "the depth along Axis").  Reads only Type, Desc, DimensionCount and Sizes:
 * DMLREF_ERROR_NULL_POINTER when td (or its Desc or Sizes) is NULL, DMLREF_ERROR_TENSOR_TYPE
 * or DMLREF_ERROR_DIMENSION_COUNT (rule T3/T4-like) when it holds no buffer tensor of 1 to 8
 * dimensions. */
dmlref_status shape_given(const op_t *op, const char *name, const DMLREF_TENSOR_DESC *td, const char *what,
                          uint32_t *n, uint32_t *sizes, dmlref_error *err);
/* Copies sizes of 64-bit values into out; DMLREF_ERROR_SIZES (rule `rule`, field name.Sizes)
 * when one is above 2^32 - 1, the largest tensor size. */
dmlref_status shape_fit(const op_t *op, const char *rule, const char *name, uint32_t n, const uint64_t *want,
                        uint32_t *out, dmlref_error *err);

/* ---- the start of a compile hook (support.c) ------------------------------ */

/* The shared rules compile_slots checks after the tensor rules (NULL: none). */
typedef struct slot_rules {
    const char *dims_rule, *type_rule;
    uint8_t data;        /* the slot whose support row and DataType the others follow */
    uint8_t index_types; /* 1: then each index slot's data type at the level (check_support, is_index) */
} slot_rules;

/*
 * What most compile hooks start with, in this order (each step's first error is returned):
 *  1. op_alloc_tensors for the class's schema slots (op->inputs and op->outputs in slot order;
 *     an optional slot that desc leaves NULL has no tensor; no array slots) and the feature
 *     level's support row into *s;
 *  2. tensor_check of each slot in slot order, under its slot name (an output with its
 *     overlap rule);
 *  with r (the schema then has no optional slot, and lists its inputs first):
 *  3. check_same_dims(dims_rule) of every other slot against slot 0;
 *  4. check_support(dims_rule, type_rule) of slot r->data;
 *  5. check_same_type(type_rule) of every other slot that holds no indices against slot r->data;
 *  6. with r->index_types, check_support(dims_rule, type_rule, is_index) of each index slot.
 * One table-driven sequence instead of a call per tensor and rule in every hook (code size,
 * docs/baremetal.md); the calls, names and messages are those the hooks made themselves.
 */
dmlref_status compile_slots(op_t *op, const void *desc, const slot_rules *r, support_t *s, dmlref_error *err);
/* compile_slots' checks for an output_sizes hook (op: no tensors), the output slots left out
 * (their tensor rules, and steps 3 and 5 for them): the input slots' tensors into ins[], in slot
 * order (r->data an input slot).  GATHER's output_sizes hook checks its inputs so. */
dmlref_status check_input_slots(const op_t *op, const void *desc, const slot_rules *r, tensor_t *ins,
                                dmlref_error *err);

/* The class of a built operator, or NULL. */
const op_class *registry_find(DMLREF_OPERATOR_TYPE type);
/* 1 when dmlref knows the operator but this build left it out (make OPS=...). */
int registry_left_out(DMLREF_OPERATOR_TYPE type);

/* 1 and *s filled when the class exists at feature level fl, else 0 (support.c). */
int support_lookup(const op_class *cls, uint32_t fl, support_t *s);

#define DMLREF_OP(ENUM, name) extern const op_class name##_class;
#include "operators.def"
#undef DMLREF_OP

#endif
