/* FILL_VALUE_CONSTANT's random valid cases: an output of 1 to 8 dims (packed, gapped or
 * permuted) of any data type, Value any element of that type (bld_rand_value: edges,
 * specials, the canonical NaN; NaN payloads, subnormals and -0 under the bits flavour) with
 * ValueDataType the output's.  A FLOAT16 Value is its binary16 bits, which onnxruntime's
 * ConstantOfShape passes too (raw value bytes), so it is not held to 0 as DIAGONAL_MATRIX1's
 * and PADDING1's are. */
#include "builder.h"

#include <string.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    const dmlref_param *pt = desc_param(g->schema, "ValueDataType"), *pv = desc_param(g->schema, "Value");
    if (!pt || !pv) return -1;
    desc_set_u32(bld_desc(g), pt->offset, (uint32_t)dt);
    memset(bld_desc(g) + pv->offset, 0, 8);
    bld_rand_value(r, dt, bld_desc(g) + pv->offset);
    g->n_inputs = 0;
    g->n_outputs = 1;
    bld_tensor_init(&g->outputs[0], dt, N, sizes);
    bld_layout(r, &g->outputs[0], 0);
    return 0;
}

const builder fill_value_constant_builder = {DMLREF_OPERATOR_FILL_VALUE_CONSTANT, build};
