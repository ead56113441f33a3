/*
 * The operator registry and its public schemas: every built operator has a
 * consistent schema (names, offsets inside the desc, counts), its support rows
 * start at the level the schema says it was introduced, and lookups by type,
 * by index and by name agree.
 */
#include "check.h"
#include "core/registry.h"

TEST(registry_schemas_are_consistent) {
    uint32_t n = 0;
    const dmlref_schema *sc;
    for (uint32_t i = 0; (sc = dmlref_operator_schema_at(i)) != NULL; ++i, ++n) {
        CHECK(dmlref_operator_schema(sc->type) == sc);
        CHECK(sc->name && strcmp(sc->name, dmlref_operator_name(sc->type)) == 0);
        const op_class *cls = registry_find(sc->type);
        CHECK(cls && cls->schema == sc && cls->compile);
        if (!cls) continue;
        CHECK(cls->n_support >= 1);
        CHECK_EQ_U64(sc->introduced, cls->support[0].from);
        for (uint32_t r = 1; r < cls->n_support; ++r) CHECK(cls->support[r].from > cls->support[r - 1].from);
        CHECK(dmlref_feature_level_name(sc->introduced) != NULL);
        uint32_t inputs = 0, outputs = 0, arrays = 0;
        for (uint32_t k = 0; k < sc->n_slots; ++k) {
            const dmlref_tensor_slot *sl = &sc->slots[k];
            CHECK(sl->name && sl->name[0]);
            CHECK(sl->offset + sizeof(void *) <= sc->desc_size);
            if (sl->is_array) {
                ++arrays;
                CHECK(sl->count_name != NULL);
                CHECK(sl->count_offset + sizeof(uint32_t) <= sc->desc_size);
            }
            if (sl->is_output) ++outputs;
            else ++inputs;
        }
        CHECK(outputs >= 1 && arrays <= 1);
        /* every operator reads an input, except the generators DIAGONAL_MATRIX (P10) and the fills (Q4) */
        CHECK(inputs >= 1 || sc->type == DMLREF_OPERATOR_DIAGONAL_MATRIX || sc->type == DMLREF_OPERATOR_FILL_VALUE_CONSTANT ||
              sc->type == DMLREF_OPERATOR_FILL_VALUE_SEQUENCE);
        for (uint32_t k = 0; k < sc->n_params; ++k) {
            const dmlref_param *pm = &sc->params[k];
            CHECK(pm->name && pm->name[0]);
            CHECK(pm->kind >= DMLREF_PARAM_UINT && pm->kind <= DMLREF_PARAM_BOOL);
            if (pm->kind == DMLREF_PARAM_SIZE_2D) CHECK(pm->offset + 8 <= sc->desc_size);
            CHECK(pm->offset + 4 <= sc->desc_size);
            /* a SCALAR_UNION's data-type field is an ENUM parameter listed before it */
            if (pm->kind == DMLREF_PARAM_SCALAR_UNION) {
                int found = 0;
                for (uint32_t j = 0; j < k; ++j)
                    if (sc->params[j].kind == DMLREF_PARAM_ENUM && sc->params[j].offset == pm->type_offset) found = 1;
                CHECK(found);
                CHECK(pm->offset + 8 <= sc->desc_size);
            }
            /* a count parameter is the count of an array slot or of an array parameter */
            if (pm->is_count) {
                int found = 0;
                for (uint32_t j = 0; j < sc->n_slots; ++j)
                    if (sc->slots[j].is_array && sc->slots[j].count_offset == pm->offset &&
                        strcmp(sc->slots[j].count_name, pm->name) == 0)
                        found = 1;
                for (uint32_t j = 0; j < sc->n_params; ++j)
                    if ((sc->params[j].kind == DMLREF_PARAM_UINT_ARRAY || sc->params[j].kind == DMLREF_PARAM_INT_ARRAY ||
                         sc->params[j].kind == DMLREF_PARAM_FLOAT_ARRAY) &&
                        sc->params[j].count_offset == pm->offset && sc->params[j].count_name &&
                        strcmp(sc->params[j].count_name, pm->name) == 0)
                        found = 1;
                CHECK(found);
            }
            /* an array parameter names its count field, inside the desc */
            if (pm->kind == DMLREF_PARAM_UINT_ARRAY || pm->kind == DMLREF_PARAM_INT_ARRAY ||
                pm->kind == DMLREF_PARAM_FLOAT_ARRAY) {
                CHECK(pm->count_name != NULL);
                CHECK(pm->count_offset + sizeof(uint32_t) <= sc->desc_size);
                CHECK(pm->offset + sizeof(void *) <= sc->desc_size);
            }
        }
    }
    CHECK(n >= 5);
    CHECK(dmlref_operator_schema_at(n) == NULL);
    CHECK(dmlref_operator_schema_at(UINT32_MAX) == NULL);
    CHECK(dmlref_operator_schema((DMLREF_OPERATOR_TYPE)999) == NULL); /* a value no DirectML operator has */
    CHECK(dmlref_operator_schema((DMLREF_OPERATOR_TYPE)0) == NULL);
}

TEST(registry_schema_of_split) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_SPLIT);
    if (!sc) {
        TEST_SKIP("SPLIT is not built (make OPS=...)");
        return;
    }
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_SPLIT_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_1_0);
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output && !sc->slots[0].is_array);
    CHECK(strcmp(sc->slots[1].name, "OutputTensors") == 0 && sc->slots[1].is_output && sc->slots[1].is_array);
    CHECK_EQ_U64(sc->slots[1].offset, offsetof(DMLREF_SPLIT_OPERATOR_DESC, OutputTensors));
    CHECK_EQ_U64(sc->slots[1].count_offset, offsetof(DMLREF_SPLIT_OPERATOR_DESC, OutputCount));
    CHECK(strcmp(sc->slots[1].count_name, "OutputCount") == 0);
    CHECK_EQ_U64(sc->n_params, 2);
    CHECK(strcmp(sc->params[0].name, "OutputCount") == 0 && sc->params[0].is_count);
    CHECK(strcmp(sc->params[1].name, "Axis") == 0 && sc->params[1].kind == DMLREF_PARAM_UINT);
    CHECK_EQ_U64(sc->params[1].offset, offsetof(DMLREF_SPLIT_OPERATOR_DESC, Axis));
}

/* The binding names of execute's messages come from the schema's slots. */
TEST(registry_binding_names_follow_the_schema) {
    const uint32_t sizes[1] = {2};
    DMLREF_BUFFER_TENSOR_DESC b = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 1, sizes, NULL, 8, 0};
    DMLREF_TENSOR_DESC t[3] = {{DMLREF_TENSOR_TYPE_BUFFER, &b}, {DMLREF_TENSOR_TYPE_BUFFER, &b},
                               {DMLREF_TENSOR_TYPE_BUFFER, &b}};
    const uint32_t whole_sizes[1] = {4};
    DMLREF_BUFFER_TENSOR_DESC wb = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 1, whole_sizes, NULL, 16, 0};
    DMLREF_TENSOR_DESC whole = {DMLREF_TENSOR_TYPE_BUFFER, &wb};
    DMLREF_JOIN_OPERATOR_DESC j = {2, t, &whole, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    dmlref_operator *op = NULL;
    dmlref_error err;
    if (!dmlref_operator_schema(DMLREF_OPERATOR_JOIN)) {
        TEST_SKIP("JOIN is not built (make OPS=...)");
        return;
    }
    CHECK_STATUS(dmlref_compile(&d, DMLREF_FEATURE_LEVEL_6_4, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    float a[2] = {1, 2}, c[2] = {3, 4}, out[4];
    dmlref_cbuffer ins[2] = {{a, sizeof a}, {NULL, sizeof c}};
    dmlref_buffer outs[1] = {{out, sizeof out}};
    CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "JOIN: the InputTensors[1] buffer is NULL");
    ins[1].data = c;
    outs[0].size = 15;
    CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "JOIN: the OutputTensor buffer holds 15 bytes");
    dmlref_release(op);
}

/* GATHER's shape rule, public: the documented example and every refused argument. */
TEST(registry_gather_output_sizes) {
    const uint32_t in[4] = {1, 1, 3, 2}, ix[4] = {1, 1, 1, 4};
    uint32_t out[4] = {0};
    CHECK(dmlref_gather_output_sizes(4, 2, 1, in, ix, out) == 0);
    const uint32_t want[4] = {1, 1, 4, 2};
    CHECK_MEM(out, want, sizeof want);
    const uint32_t in2[3] = {1, 5, 6}, ix2[3] = {1, 2, 3};
    uint32_t out2[3];
    CHECK(dmlref_gather_output_sizes(3, 1, 2, in2, ix2, out2) == 0); /* K = 2: the leading input dim cropped */
    const uint32_t want2[3] = {2, 3, 6};
    CHECK_MEM(out2, want2, sizeof want2);
    uint32_t untouched[4] = {9, 9, 9, 9};
    CHECK(dmlref_gather_output_sizes(0, 0, 0, in, ix, untouched) == -1);
    CHECK(dmlref_gather_output_sizes(9, 0, 0, in, ix, untouched) == -1);
    CHECK(dmlref_gather_output_sizes(4, 4, 1, in, ix, untouched) == -1); /* G3 */
    CHECK(dmlref_gather_output_sizes(4, 3, 5, in, ix, untouched) == -1); /* G4 */
    CHECK(dmlref_gather_output_sizes(4, 1, 3, in, ix, untouched) == -1); /* G5 */
    CHECK(dmlref_gather_output_sizes(4, 2, 1, NULL, ix, untouched) == -1);
    CHECK(untouched[0] == 9 && untouched[3] == 9);
}

/* One side of a schema's binding order as include/dmlref.h writes it: the slots
 * of that side in order, each its desc field without "Tensor", an array slot
 * followed by "[0 .. Count)", an optional one in brackets. */
static void binding_text(char *b, size_t cap, const dmlref_schema *sc, int outputs) {
    size_t n = 0;
    b[0] = '\0';
    for (uint32_t k = 0; k < sc->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &sc->slots[k];
        if (!sl->is_output != !outputs) continue;
        char name[64];
        const char *t = strstr(sl->name, "Tensor");
        if (t) snprintf(name, sizeof name, "%.*s%s", (int)(t - sl->name), sl->name, t + 6);
        else snprintf(name, sizeof name, "%s", sl->name);
        int w;
        if (sl->is_array) w = snprintf(b + n, cap - n, "%s%s[0 .. %s)", n ? ", " : "", name, sl->count_name);
        else if (sl->is_optional) w = snprintf(b + n, cap - n, "%s[%s]", n ? ", " : "", name);
        else w = snprintf(b + n, cap - n, "%s%s", n ? ", " : "", name);
        if (w < 0 || (size_t)w >= cap - n) return;
        n += (size_t)w;
    }
}

/* The text inside the braces after `key` in line, into out ("" for "{}"); 0 if absent. */
static int braces_after(const char *line, const char *key, char *out, size_t cap) {
    const char *p = strstr(line, key), *e;
    if (!p || !(e = strchr(p + strlen(key), '}'))) return 0;
    p += strlen(key);
    snprintf(out, cap, "%.*s", (int)(e - p), p);
    return 1;
}

/* include/dmlref.h's comment on dmlref_execute lists every operator's binding
 * order; each line must be the schema's slots (inputs in slot order, then the
 * outputs), and every built operator must have its line. */
TEST(registry_execute_binding_order_documented) {
    FILE *f = fopen("include/dmlref.h", "r");
    if (!f) {
        TEST_SKIP("include/dmlref.h is not there from the current directory (run from the repository root)");
        return;
    }
    char line[512];
    int in_block = 0;
    uint32_t listed = 0, seen[256] = {0};
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, " * Binds buffers in the order the desc lists its tensors")) in_block = 1;
        else if (in_block && strstr(line, "*/")) break;
        char ins[256], outs[256], name[64];
        if (!in_block || !braces_after(line, "inputs {", ins, sizeof ins)) continue;
        CHECK(braces_after(line, "outputs {", outs, sizeof outs));
        CHECK(sscanf(line, " *   %63s", name) == 1);
        ++listed;
        const dmlref_schema *sc = NULL, *s;
        uint32_t idx = 0;
        for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL; ++i)
            if (strcmp(s->name, name) == 0) sc = s, idx = i;
        if (!sc) { /* not built here (make OPS=...): still an operator's name */
            int known = 0;
            for (uint32_t t = 1; t < 256 && !known; ++t) {
                const char *nm = dmlref_operator_name((DMLREF_OPERATOR_TYPE)t);
                known = nm && strcmp(nm, name) == 0;
            }
            if (!known) test_fail(__FILE__, __LINE__, "include/dmlref.h lists \"%s\", no operator", name);
            continue;
        }
        if (idx < 256) ++seen[idx];
        char want_in[256], want_out[256];
        binding_text(want_in, sizeof want_in, sc, 0);
        binding_text(want_out, sizeof want_out, sc, 1);
        if (strcmp(ins, want_in) != 0 || strcmp(outs, want_out) != 0)
            test_fail(__FILE__, __LINE__, "include/dmlref.h: %s inputs {%s} outputs {%s}; the schema binds inputs {%s} outputs {%s}",
                      name, ins, outs, want_in, want_out);
    }
    fclose(f);
    CHECK(in_block);
    CHECK(listed >= 22);
    const dmlref_schema *s;
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL && i < 256; ++i)
        if (seen[i] != 1) test_fail(__FILE__, __LINE__, "include/dmlref.h lists %s %u times, not once", s->name, seen[i]);
}
