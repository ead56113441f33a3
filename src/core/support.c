/*
 * The checks shared by every operator: equal DimensionCount, equal DataType,
 * allowed at the feature level (the class's support rows, docs/operators.md 1.6), equal sizes.
 */
#include "registry.h"

#include <inttypes.h>
#include <stdio.h>

/* The names of PARAM_DATA_TYPE fields (registry.h).  Here, not in registry.c: the
 * operator files that use it are what registry.c lists, so that would be a cycle. */
const char *const data_type_enum_names[N_DATA_TYPE_NAMES] = {
    NULL, "FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32", "INT16", "INT8", "FLOAT64", "UINT64", "INT64"};
const char *const interpolation_mode_enum_names[N_INTERPOLATION_MODE_NAMES] = {"NEAREST_NEIGHBOR", "LINEAR"};
const char *const axis_direction_enum_names[N_AXIS_DIRECTION_NAMES] = {"INCREASING", "DECREASING"};

int support_lookup(const op_class *cls, uint32_t fl, support_t *s) {
    for (uint32_t i = cls->n_support; i-- > 0;) /* the last row from at or below fl (rows rise in `from`) */
        if (cls->support[i].from <= fl) {
            s->min_dims = cls->support[i].s.min_dims;
            s->max_dims = cls->support[i].s.max_dims;
            s->data_types = cls->support[i].s.data_types;
            s->index_types = cls->support[i].s.index_types;
            return 1;
        }
    return 0;
}

dmlref_status(check_same_dims)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                               MSG_ONLY(const char *ref_name) const tensor_t *ref, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    MSG_LOCAL(const char *ref_name);
    if (t->n == ref->n) return DMLREF_OK;
    return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, rule, name, "DimensionCount",
                     "%s: %s.DimensionCount (%" PRIu32 ") must equal %s.DimensionCount (%" PRIu32 ")",
                     op, name, t->n, ref_name, ref->n);
}

dmlref_status(check_same_type)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                               MSG_ONLY(const char *ref_name) const tensor_t *ref, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    MSG_LOCAL(const char *ref_name);
    if (t->dtype == ref->dtype) return DMLREF_OK;
    return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, rule, name, "DataType", "%s: %s.DataType (%s) must equal %s.DataType (%s)",
                     op, name, dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)t->dtype), ref_name,
                     dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)ref->dtype));
}

dmlref_status(check_sizes_but_axis)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                                    MSG_ONLY(const char *ref_name) const tensor_t *ref, uint32_t axis,
                                    dmlref_error *err) {
    MSG_LOCAL(const char *op);
    MSG_LOCAL(const char *ref_name);
    for (uint32_t d = 0; d < ref->n; ++d)
        if (d != axis && t->sizes[d] != ref->sizes[d])
            return set_rule_error(err, DMLREF_ERROR_SIZES, rule, name, "Sizes",
                                  "%s: %s.Sizes[%" PRIu32 "] (%" PRIu32 ") must equal %s.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") in every dimension but Axis (%" PRIu32 ")",
                                  op, name, d, t->sizes[d], ref_name, d, ref->sizes[d], axis);
    return DMLREF_OK;
}

dmlref_status(check_value_type)(MSG_ONLY(const char *op) const char *rule, const char *field, uint32_t value_type,
                                const tensor_t *out, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    if (value_type == out->dtype) return DMLREF_OK;
    const char *vn = DMLREF_MESSAGES ? dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)value_type) : NULL;
#if DMLREF_MESSAGES /* else vn is named in no message */
    char num[16];
    if (!vn) {
        snprintf(num, sizeof num, "%" PRIu32, value_type);
        vn = num;
    }
#endif
    return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, rule, field, NULL,
                          "%s: %s (%s) must equal OutputTensor.DataType (%s)", op, field, vn,
                          dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)out->dtype));
}

#if DMLREF_MESSAGES
static void type_list(char *buf, size_t cap, uint32_t mask) {
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t dt = 1; dt <= 11 && len < cap; ++dt)
        if (mask & (1u << dt))
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "",
                                    dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)dt));
}
#endif

dmlref_status(check_support)(MSG_ONLY(const char *op) const char *dims_rule, const char *type_rule,
                             const char *name, const tensor_t *t, const support_t *s, int is_index,
                             MSG_ONLY(uint32_t fl) dmlref_error *err) {
    MSG_LOCAL(const char *op);
    MSG_LOCAL(uint32_t fl);
    const char *level; /* named only in a message: looked up off the hot path */
    if (!is_index && (t->n < s->min_dims || t->n > s->max_dims)) {
        level = DMLREF_MESSAGES ? dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)fl) : NULL;
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, dims_rule, name, "DimensionCount",
                         "%s: %s.DimensionCount (%" PRIu32 ") must be in [%" PRIu32 ", %" PRIu32
                         "] at feature level %s",
                         op, name, t->n, s->min_dims, s->max_dims, level);
    }
    const uint32_t mask = is_index ? s->index_types : s->data_types;
    if (!(mask & (1u << t->dtype))) {
        char buf[160];
        level = DMLREF_MESSAGES ? dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)fl) : NULL;
#if DMLREF_MESSAGES /* else the list is named in no message */
        type_list(buf, sizeof buf, mask);
#endif
        return set_rule_error(err, DMLREF_ERROR_DATA_TYPE, type_rule, name, "DataType",
                         "%s: %s.DataType (%s) is not supported at feature level %s (allowed: %s)", op,
                         name, dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)t->dtype), level, buf);
    }
    return DMLREF_OK;
}

dmlref_status(check_same_sizes)(MSG_ONLY(const char *op) const char *rule, const char *name, const tensor_t *t,
                                MSG_ONLY(const char *ref_name) const uint32_t *want, dmlref_error *err) {
    MSG_LOCAL(const char *op);
    MSG_LOCAL(const char *ref_name);
    for (uint32_t d = 0; d < t->n; ++d)
        if (t->sizes[d] != want[d]) {
            char a[128], b[128];
            return set_rule_error(err, DMLREF_ERROR_SIZES, rule, name, "Sizes",
                             "%s: %s.Sizes %s must equal %s %s (they differ at dimension %" PRIu32 ")",
                             op, name, sizes_str(a, sizeof a, t->sizes, t->n), ref_name,
                             sizes_str(b, sizeof b, want, t->n), d);
        }
    return DMLREF_OK;
}

static const DMLREF_TENSOR_DESC *slot_desc(const void *desc, const dmlref_tensor_slot *sl) {
    const DMLREF_TENSOR_DESC *td;
    memcpy(&td, (const unsigned char *)desc + sl->offset, sizeof td);
    return td;
}

/* Steps 2-6 of compile_slots (registry.h) into ins[] and outs[] in slot order; outs NULL:
 * the output slots are left out (check_input_slots). */
static dmlref_status check_slots(const op_t *op, const void *desc, const slot_rules *r, support_t *s, tensor_t *ins,
                                 tensor_t *outs, dmlref_error *err) {
    const dmlref_tensor_slot *sl = op->cls->schema->slots;
    const uint32_t n = op->cls->schema->n_slots;
    uint32_t k[2] = {0, 0}; /* inputs, outputs */
    uint32_t dims = 0, types = 0, index_types = 0; /* each a set of the values seen (bit v for value v) */
    support_lookup(op->cls, op->feature_level, s);
    for (uint32_t i = 0; i < n; ++i) {
        const DMLREF_TENSOR_DESC *td = slot_desc(desc, &sl[i]);
        const int o = sl[i].is_output;
        if ((o && !outs) || (sl[i].is_optional && !td)) continue;
        tensor_t *t = o ? &outs[k[1]++] : &ins[k[0]++];
        TRY(tensor_check(op->name, sl[i].name, td, o ? op : NULL, t, err));
        dims |= 1u << t->n; /* n <= 8 */
        if (sl[i].is_index) index_types |= 1u << t->dtype; /* dtype < 32 */
        else types |= 1u << t->dtype;
    }
    if (!r) return DMLREF_OK;
    /* with r no slot is optional and the inputs come first: slot i's tensor is ins[i] or
     * outs[i - k[0]]; steps 3-6 as passes over the slots (one call site per check: code size) */
    const uint32_t dt = r->data;
    const tensor_t *data = sl[dt].is_output ? outs + (dt - k[0]) : ins + dt; /* an input when outs is NULL */
    /* Steps 3-6 all hold (the common case, every compile): the same tests as the passes below,
     * which run only to name the first that fails, on the sets gathered above: one
     * DimensionCount (3), data's dims and type supported (4), every other tensor data's type
     * (5), every index type supported (6). */
    const int ok = (dims & (dims - 1)) == 0 && data->n >= s->min_dims && data->n <= s->max_dims &&
                   (s->data_types & (1u << data->dtype)) && (types == 0 || types == 1u << data->dtype) &&
                   (!r->index_types || (index_types & ~s->index_types) == 0);
    if (ok) return DMLREF_OK;
    for (uint32_t pass = 3; pass <= 6; ++pass)
        for (uint32_t i = 0; i < n; ++i) {
            const int index = sl[i].is_index;
            if (sl[i].is_output && !outs) continue;
            const tensor_t *t = sl[i].is_output ? outs + (i - k[0]) : ins + i;
            if (pass == 3 && i > 0)
                TRY(check_same_dims(op->name, r->dims_rule, sl[i].name, t, sl[0].name, ins, err));
            if (pass == 5 && i != dt && !index)
                TRY(check_same_type(op->name, r->type_rule, sl[i].name, t, sl[dt].name, data, err));
            if ((pass == 4 && i == dt) || (pass == 6 && r->index_types && index))
                TRY(check_support(op->name, r->dims_rule, r->type_rule, sl[i].name, t, s, pass == 6,
                                  op->feature_level, err));
        }
    return DMLREF_OK;
}

dmlref_status compile_slots(op_t *op, const void *desc, const slot_rules *r, support_t *s, dmlref_error *err) {
    const dmlref_tensor_slot *sl = op->cls->schema->slots;
    uint32_t count[2] = {0, 0}; /* inputs, outputs */
    for (uint32_t i = 0; i < op->cls->schema->n_slots; ++i)
        if (!sl[i].is_optional || slot_desc(desc, &sl[i])) ++count[sl[i].is_output];
    TRY(op_alloc_tensors(op, count[0], count[1], err));
    return check_slots(op, desc, r, s, op->inputs, op->outputs, err);
}

dmlref_status check_input_slots(const op_t *op, const void *desc, const slot_rules *r, tensor_t *ins,
                                dmlref_error *err) {
    support_t s;
    return check_slots(op, desc, r, &s, ins, NULL, err);
}
