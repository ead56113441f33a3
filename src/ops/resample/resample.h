/*
 * The RESAMPLE family (docs/operators.md, Q11): RESAMPLE2 (and its thin
 * relatives), NEAREST_NEIGHBOR only.  Every member reduces its desc to one
 * resample_params (per dimension: Scale, the effective input offset InOff,
 * OutputPixelOffset, and the rounding direction), and shares the rules, the
 * source index, the oracle and the fast path (resample_fast.c).
 *
 * The source index of output coordinate o along dimension d (Q11.3), each step
 * rounded to float32 (a volatile float store: no x87 excess precision, no
 * contraction):
 *   t = fl32((float)o - OutOff[d]);  t = fl32(t / Scale[d]);  t = fl32(t - InOff[d]);
 *   i = DECREASING ? floor(t) : ceil(t), clamped to [0, In.Sizes[d] - 1].
 */
#ifndef DMLREF_OPS_RESAMPLE_H
#define DMLREF_OPS_RESAMPLE_H

#include "core/registry.h"

#define RESAMPLE_MAX_DIMS 4u

typedef struct resample_params {
    uint32_t n;                          /* DimensionCount                          */
    uint32_t decreasing;                 /* 1: floor, 0: ceil                       */
    float scale[RESAMPLE_MAX_DIMS];      /* > 0, finite                             */
    float in_off[RESAMPLE_MAX_DIMS];     /* the effective input offset (InOff)      */
    float out_off[RESAMPLE_MAX_DIMS];    /* OutputPixelOffsets                      */
} resample_params;

/* What a member's desc gives, before its rules are checked. */
typedef struct resample_desc {
    const char *op;                      /* "RESAMPLE2", ...                        */
    const DMLREF_TENSOR_DESC *in, *out;
    uint32_t mode;                       /* InterpolationMode                       */
    uint32_t direction;                  /* RoundingDirection (or DECREASING)       */
    const char *count_name;              /* "DimensionCount" or "ScaleCount"        */
    uint32_t count;
    const float *scales;
    const float *in_offsets;             /* NULL: the member has none (RESAMPLE)    */
    const float *out_offsets;            /* NULL: the member has none (RESAMPLE)    */
    int has_direction;                   /* RoundingDirection is a field            */
    int variant;                         /* RESAMPLE_V2 (InOff = InputPixelOffsets),
                                            RESAMPLE_V1 (InOff = fl32(x - 0.5)),
                                            RESAMPLE_V0 (offsets 0.5 / -0.5)        */
} resample_desc;

enum { RESAMPLE_V0, RESAMPLE_V1, RESAMPLE_V2 };

/* The source index along one dimension of input size n (Q11.3). */
uint32_t resample_source_index(uint32_t o, float scale, float in_off, float out_off, int decreasing, uint32_t n);

/* Rules RS3 to RS6 (parameters) and the resample_params they give. */
dmlref_status resample_param_rules(const op_t *op, const resample_desc *d, uint32_t n, resample_params *p,
                                   dmlref_error *err);

/* The whole compile of a member: tensors (RS1, RS2), parameters, op->params, op->oracle. */
dmlref_status resample_compile(op_t *op, const resample_desc *d, dmlref_error *err);

/* The output_sizes hook of a member: the input's rules and the parameters' rules, then
 * the Sizes the output desc gives (free: Q11.2), with the same DimensionCount (RS1). */
dmlref_status resample_output_sizes(const op_t *op, const resample_desc *d, uint32_t *n, uint32_t *sizes,
                                    dmlref_error *err);

/* The fast path (resample_fast.c). */
dmlref_status resample_plan(op_t *op, dmlref_error *err);

/* A member's compile and output_sizes hooks, NAME_compile and NAME_output_sizes, over its
 * resample_desc maker DESC_FN (the one thing the four members write differently). */
#define RESAMPLE_HOOKS(NAME, DESC_FN)                                                                          \
    static dmlref_status NAME##_compile(op_t *op, const void *desc, dmlref_error *err) {                       \
        const resample_desc r = DESC_FN(desc);                                                                 \
        return resample_compile(op, &r, err);                                                                  \
    }                                                                                                          \
    static dmlref_status NAME##_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,   \
                                             uint32_t *sizes, dmlref_error *err) {                             \
        const resample_desc r = DESC_FN(desc);                                                                 \
        (void)output;                                                                                          \
        return resample_output_sizes(op, &r, n, sizes, err);                                                   \
    }

#endif
