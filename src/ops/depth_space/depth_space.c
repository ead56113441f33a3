/*
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH and their 1 forms (docs/operators.md, P6).
 * B = BlockSize; the "space" tensor is {N, C', H*B, W*B}, the "depth" tensor
 * {N, C'*B*B, H, W}; DEPTH_TO_SPACE reads depth and writes space,
 * SPACE_TO_DEPTH the reverse.  With ch the depth channel of space coordinate
 * (n, c, h*B + i, w*B + j):
 *
 *   ch = (Order == DEPTH_COLUMN_ROW) ? (i*B + j)*C' + c    ONNX "DCR"
 *                                    : c*B*B + i*B + j;    ONNX "CRD"
 *   DEPTH_TO_SPACE(1): out[n][c][h*B + i][w*B + j] = in[n][ch][h][w]
 *   SPACE_TO_DEPTH(1): out[n][ch][h][w] = in[n][c][h*B + i][w*B + j]
 *
 *   DS1  Input and Output are exactly 4-D (every feature level)
 *   DS2  Input.DataType == Output.DataType, in the level's set
 *   DS3  BlockSize >= 1 (dmlref's decision: 0 is invalid, 1 is a copy)
 *   DS4  DEPTH_TO_SPACE: C % (B*B) == 0 (decision), Output = {N, C/(B*B), H*B, W*B}
 *   DS5  SPACE_TO_DEPTH: H % B == 0 and W % B == 0 (decision),
 *        Output = {N, C*B*B, H/B, W/B} (the pages print DS4's formula: section 9 item 31)
 *   DS6  (the 1 forms) Order is DEPTH_COLUMN_ROW (0) or COLUMN_ROW_DEPTH (1)
 *
 * Both are pure permutations: the fast path (depth_space_fast.c) is one
 * strided copy over a 6-D view (n, c, h, i, w, j) of the two tensors, with a
 * kernel that interleaves (or deinterleaves) the B rows of the block's
 * innermost dimension.
 */
#include "depth_space.h"

#include "core/registry.h"

#include <inttypes.h>

const char *const depth_space_order_names[2] = {"DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"};

/* ---- the oracle ------------------------------------------------------------- */

static dmlref_status depth_space_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const depth_space_params *p = OP_CPARAMS(op, depth_space_params);
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t B = p->block, BB = B * B; /* B < 2^32: B*B < 2^64 */
    const uint64_t Cs = p->to_space ? out->sizes[1] : in->sizes[1]; /* C': the space side's channels */
    const int dcr = p->order == DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t ic[4];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        const uint32_t *oc = it.coord;
        ic[0] = oc[0];
        if (p->to_space) { /* output (n, c, h*B + i, w*B + j) <- input (n, ch, h, w) */
            const uint64_t c = oc[1], h = oc[2] / B, i = oc[2] % B, w = oc[3] / B, j = oc[3] % B;
            const uint64_t ch = dcr ? (i * B + j) * Cs + c : c * BB + i * B + j;
            ic[1] = (uint32_t)ch;
            ic[2] = (uint32_t)h;
            ic[3] = (uint32_t)w;
        } else { /* output (n, ch, h, w) <- input (n, c, h*B + i, w*B + j) */
            const uint64_t ch = oc[1];
            const uint64_t c = dcr ? ch % Cs : ch / BB, k = dcr ? ch / Cs : ch % BB; /* k = i*B + j */
            const uint64_t i = k / B, j = k % B;
            ic[1] = (uint32_t)c;
            ic[2] = (uint32_t)(oc[2] * B + i);
            ic[3] = (uint32_t)(oc[3] * B + j);
        }
        memcpy(dst + it.offset[0], src + tensor_offset(in, ic), out->esize);
    }
    return DMLREF_OK;
}

/* ---- validation ------------------------------------------------------------- */

/* a * b, or UINT64_MAX when the product does not fit. */
static uint64_t mul_sat(uint64_t a, uint64_t b) {
    if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
    return a * b;
}

/* Rules DS3, DS6 and DS4 / DS5 (after the tensor rules, DS1 and DS2), then the output's 4 Sizes
 * (saturated at 2^64 - 1) into want: the one shape computation of compile and output_sizes. */
static dmlref_status depth_space_shape(const char *OP, int to_space, const tensor_t *in, uint32_t block_size,
                                       int has_order, uint32_t order, uint64_t *want, dmlref_error *err) {
    if (block_size == 0)                                                                     /* DS3 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "DS3", "BlockSize", NULL,
                              "%s: BlockSize (0) must be at least 1", OP);
    if (has_order && order > DMLREF_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH)                      /* DS6 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "DS6", "Order", NULL,
                              "%s: Order (%" PRIu32 ") must be DEPTH_COLUMN_ROW (0) or COLUMN_ROW_DEPTH (1)", OP,
                              order);

    const uint64_t B = block_size, BB = B * B; /* B < 2^32: B*B < 2^64 */
    const uint32_t *is = in->sizes;
    if (to_space) {
        if (is[1] % BB != 0)                                                                 /* DS4 */
            return set_rule_error(err, DMLREF_ERROR_SIZES, "DS4", "InputTensor", "Sizes",
                                  "%s: InputTensor.Sizes[1] (Channels, %" PRIu32
                                  ") must be a multiple of BlockSize * BlockSize (%" PRIu64 " * %" PRIu64
                                  " = %" PRIu64 ")",
                                  OP, is[1], B, B, BB);
        want[0] = is[0];
        want[1] = is[1] / BB;
        want[2] = mul_sat(is[2], B);
        want[3] = mul_sat(is[3], B);
    } else {
        for (uint32_t d = 2; d < 4; ++d)                                                     /* DS5 */
            if (is[d] % B != 0)
                return set_rule_error(err, DMLREF_ERROR_SIZES, "DS5", "InputTensor", "Sizes",
                                      "%s: InputTensor.Sizes[%" PRIu32 "] (%s, %" PRIu32
                                      ") must be a multiple of BlockSize (%" PRIu64 ")",
                                      OP, d, d == 2 ? "Height" : "Width", is[d], B);
        want[0] = is[0];
        want[1] = mul_sat(is[1], BB);
        want[2] = is[2] / B;
        want[3] = is[3] / B;
    }
    return DMLREF_OK;
}

dmlref_status depth_space_compile(op_t *op, int to_space, const DMLREF_TENSOR_DESC *input,
                                  const DMLREF_TENSOR_DESC *output, uint32_t block_size, int has_order,
                                  uint32_t order, dmlref_error *err) {
    const char *OP = op->name;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(OP, "InputTensor", input, NULL, in, err));
    TRY(tensor_check(OP, "OutputTensor", output, op, out, err));
    TRY(check_support(OP, "DS1", "DS2", "InputTensor", in, &s, 0, op->feature_level, err));  /* DS1, DS2 */
    TRY(check_same_type(OP, "DS2", "OutputTensor", out, "InputTensor", in, err));            /* DS2 */
    TRY(check_support(OP, "DS1", "DS2", "OutputTensor", out, &s, 0, op->feature_level, err)); /* DS1 */

    const uint64_t B = block_size;
    const uint32_t *is = in->sizes;
    uint64_t want[4];
    const char *rule = to_space ? "DS4" : "DS5";
    TRY(depth_space_shape(OP, to_space, in, block_size, has_order, order, want, err)); /* DS3, DS6, DS4/DS5 */
    for (uint32_t d = 0; d < 4; ++d)
        if (out->sizes[d] != want[d]) {
            char have[64];
            return set_rule_error(err, DMLREF_ERROR_SIZES, rule, "OutputTensor", "Sizes",
                                  "%s: OutputTensor.Sizes %s must equal %s = {%" PRIu64 ",%" PRIu64 ",%" PRIu64
                                  ",%" PRIu64 "} for InputTensor.Sizes {%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
                                  "} and BlockSize %" PRIu64 " (they differ at dimension %" PRIu32 ")",
                                  OP, sizes_str(have, sizeof have, out->sizes, 4),
                                  to_space ? "{N, C / (B * B), H * B, W * B}" : "{N, C * B * B, H / B, W / B}",
                                  want[0], want[1], want[2], want[3], is[0], is[1], is[2], is[3], B, d);
        }

    depth_space_params *p = OP_PARAMS(op, depth_space_params);
    p->block = block_size;
    p->order = has_order ? order : (uint32_t)DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    p->to_space = to_space ? 1u : 0u;
    op->oracle = depth_space_oracle;
    return DMLREF_OK;
}

dmlref_status depth_space_output_sizes(const op_t *op, int to_space, const DMLREF_TENSOR_DESC *input,
                                       uint32_t block_size, int has_order, uint32_t order, uint32_t *n,
                                       uint32_t *sizes, dmlref_error *err) {
    tensor_t in;
    uint64_t want[4];
    TRY(shape_input(op, "InputTensor", input, 0, "DS1", "DS2", &in, err)); /* DS1, DS2 */
    TRY(depth_space_shape(op->name, to_space, &in, block_size, has_order, order, want, err));
    TRY(shape_fit(op, to_space ? "DS4" : "DS5", "OutputTensor", 4, want, sizes, err));
    *n = 4;
    return DMLREF_OK;
}
