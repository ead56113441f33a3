/* A descriptor held as bytes, walked by the schema (descbuf.h). */
#include "descbuf.h"

#include <stdlib.h>
#include <string.h>

void *desc_alloc(const dmlref_schema *s) { return calloc(s->desc_size ? s->desc_size : 1, 1); }

uint32_t desc_get_u32(const void *desc, uint32_t offset) {
    uint32_t v;
    memcpy(&v, (const unsigned char *)desc + offset, sizeof v);
    return v;
}

void desc_set_u32(void *desc, uint32_t offset, uint32_t v) { memcpy((unsigned char *)desc + offset, &v, sizeof v); }

const dmlref_param *desc_param(const dmlref_schema *s, const char *name) {
    for (uint32_t i = 0; i < s->n_params; ++i)
        if (strcmp(s->params[i].name, name) == 0) return &s->params[i];
    return NULL;
}

int desc_is_array_count(const dmlref_schema *s, const char *name) {
    for (uint32_t i = 0; i < s->n_slots; ++i)
        if (s->slots[i].is_array && s->slots[i].count_name && strcmp(s->slots[i].count_name, name) == 0) return 1;
    for (uint32_t i = 0; i < s->n_params; ++i) {
        const dmlref_param_kind k = s->params[i].kind;
        if ((k == DMLREF_PARAM_UINT_ARRAY || k == DMLREF_PARAM_INT_ARRAY || k == DMLREF_PARAM_FLOAT_ARRAY) &&
            s->params[i].count_name &&
            strcmp(s->params[i].count_name, name) == 0)
            return 1;
    }
    return 0;
}

int desc_bind(const dmlref_schema *s, void *desc, const DMLREF_TENSOR_DESC *in, uint32_t n_in,
              const DMLREF_TENSOR_DESC *out, uint32_t n_out) {
    uint32_t singles[2] = {0, 0}, optional[2] = {0, 0}, arrays[2] = {0, 0}, next[2] = {0, 0}, absent[2] = {0, 0};
    const uint32_t total[2] = {n_in, n_out};
    for (uint32_t i = 0; i < s->n_slots; ++i) {
        const int o = s->slots[i].is_output != 0;
        if (s->slots[i].is_array) ++arrays[o];
        else ++singles[o], optional[o] += s->slots[i].is_optional != 0;
    }
    for (int o = 0; o < 2; ++o) {
        if (arrays[o] > 1) return -1;
        if (total[o] < singles[o]) { /* the last optional single slots stay NULL */
            absent[o] = singles[o] - total[o];
            if (absent[o] > optional[o]) return -1;
        } else if (!arrays[o] && total[o] != singles[o]) {
            return -1;
        }
    }
    uint8_t is_absent[64] = {0};
    if (s->n_slots > sizeof is_absent) return -1;
    for (uint32_t i = s->n_slots; i-- > 0;) {
        const dmlref_tensor_slot *sl = &s->slots[i];
        const int o = sl->is_output != 0;
        if (!sl->is_array && sl->is_optional && absent[o]) is_absent[i] = 1, --absent[o];
    }
    for (int o = 0; o < 2; ++o) absent[o] = total[o] < singles[o] ? singles[o] - total[o] : 0;
    for (uint32_t i = 0; i < s->n_slots; ++i) {
        const dmlref_tensor_slot *sl = &s->slots[i];
        const int o = sl->is_output != 0;
        const uint32_t n = sl->is_array ? total[o] + absent[o] - singles[o] : 1;
        const DMLREF_TENSOR_DESC *p = is_absent[i] ? NULL : (o ? out : in) + next[o];
        if (!is_absent[i]) next[o] += n;
        memcpy((unsigned char *)desc + sl->offset, &p, sizeof p);
        if (sl->is_array) desc_set_u32(desc, sl->count_offset, n);
    }
    return 0;
}
