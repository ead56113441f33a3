/* The framework forms' fill values and numpy type names (framework_fill.h), through the
 * library's public API and the case library. */
#include "framework_fill.h"

#include "case/status.h"
#include "case/value.h"

#include <ctype.h>
#include <string.h>

int fw_fill_from_float(DMLREF_OPERATOR_TYPE op, DMLREF_TENSOR_DATA_TYPE dt, float v, uint64_t *bits) {
    const uint32_t esize = dmlref_data_type_size(dt);
    if (esize == 0 || esize > 8) return -1;
    static const uint32_t one[2] = {1, 1}, two[1] = {2}, start[1] = {1}, end[1] = {0};
    const int is_pad = op == DMLREF_OPERATOR_PADDING;
    if (!is_pad && op != DMLREF_OPERATOR_DIAGONAL_MATRIX) return -1;
    /* PADDING: {1} padded by one in front, {2}; DIAGONAL_MATRIX: {1, 1}, the diagonal.  Element 0. */
    const uint32_t out_n = is_pad ? 1 : 2;
    const uint32_t *const out_sizes = is_pad ? two : one;
    const DMLREF_BUFFER_TENSOR_DESC in_buf = {dt, DMLREF_TENSOR_FLAG_NONE, 1, one, NULL,
                                              dmlref_calc_buffer_tensor_size(dt, 1, one, NULL), 0};
    const DMLREF_BUFFER_TENSOR_DESC out_buf = {dt, DMLREF_TENSOR_FLAG_NONE, out_n, out_sizes, NULL,
                                               dmlref_calc_buffer_tensor_size(dt, out_n, out_sizes, NULL), 0};
    const DMLREF_TENSOR_DESC in_t = {DMLREF_TENSOR_TYPE_BUFFER, &in_buf}, out_t = {DMLREF_TENSOR_TYPE_BUFFER, &out_buf};
    const DMLREF_PADDING_OPERATOR_DESC pad = {&in_t, &out_t, DMLREF_PADDING_MODE_CONSTANT, v, 1, start, end};
    const DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC diag = {&out_t, 0, v};
    const DMLREF_OPERATOR_DESC desc = {op, is_pad ? (const void *)&pad : (const void *)&diag};
    _Alignas(8) unsigned char in_mem[16] = {0}, out_mem[32] = {0};
    const dmlref_cbuffer in = {in_mem, sizeof in_mem};
    const dmlref_buffer out = {out_mem, sizeof out_mem};
    const dmlref_status st = dmlref_run(&desc, DMLREF_FEATURE_LEVEL_LATEST, NULL, &in, is_pad ? 1 : 0, &out, 1, NULL);
    if (st == DMLREF_ERROR_OUT_OF_MEMORY) return CASE_OUT_OF_MEMORY;
    if (st != DMLREF_OK) return -1;
    *bits = value_load_bits(out_mem, esize);
    return 0;
}

int fw_fill_from_union(const DMLREF_SCALAR_UNION *u, uint32_t esize, uint64_t *bits) {
    if (esize != 1 && esize != 2 && esize != 4 && esize != 8) return -1;
    *bits = value_load_bits(u->Bytes, esize);
    return 0;
}

const char *fw_set_dtype(fw_form *form, DMLREF_TENSOR_DATA_TYPE dt) {
    const char *name = dmlref_data_type_name(dt);
    form->dtype = NULL;
    if (!name || dmlref_data_type_size(dt) == 0 || strlen(name) >= sizeof form->dtype_name) return NULL;
    size_t k = 0;
    for (; name[k]; ++k) form->dtype_name[k] = (char)tolower((unsigned char)name[k]);
    form->dtype_name[k] = '\0';
    return form->dtype = form->dtype_name;
}
