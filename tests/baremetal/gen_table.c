/*
 * Host side of `make test-baremetal` (docs/baremetal.md): writes the C table
 * the bare-metal test program (tests/baremetal/main.c) runs.  Reads every case
 * file named on the command line with the case reader (the documented
 * examples, the case files of tests/cases: their `expected` outputs), then draws COUNT
 * random valid cases per operator with the builders (builders/, the PRNG of
 * the host tests; no `expected`: the board compares the fast path with the
 * oracle).  Each case becomes data the board turns back into a desc through
 * its own schema (dmlref_operator_schema: the target's offsets and pointer
 * sizes), so nothing of the host's struct layout is written.
 *
 *   gen_table SEED COUNT case.json... > table.c
 */
#include "dmlref.h"

#include "builders/builder.h"
#include "case/case.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FL_RANDOM DMLREF_FEATURE_LEVEL_6_4

static void bytes_out(const char *name, const unsigned char *p, uint64_t n) {
    printf("static const unsigned char %s[] __attribute__((aligned(16))) = {", name);
    for (uint64_t i = 0; i < (n ? n : 1); ++i) printf("%s%s%u", i ? "," : "", i % 32 ? "" : "\n", n ? p[i] : 0);
    printf("};\n");
}

static void u32_out(const char *name, const uint32_t *p, uint32_t n) {
    printf("static const uint32_t %s[] = {", name);
    for (uint32_t i = 0; i < (n ? n : 1); ++i) printf("%s%" PRIu32 "u", i ? "," : "", n ? p[i] : 0);
    printf("};\n");
}

static uint32_t ld32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static int slot_of(const dmlref_schema *sc, const char *name) {
    for (uint32_t i = 0; i < sc->n_slots; ++i)
        if (strcmp(sc->slots[i].name, name) == 0) return (int)i;
    return -1;
}

/* One case as C: its tensors (binding order), its parameters, one bm_case row in rows. */
static void emit(unsigned id, const char *name, const dmlref_case *c, char *rows, size_t cap) {
    const dmlref_schema *sc = c->schema;
    const unsigned char *desc = c->desc_mem;
    char nm[64];
    const uint32_t nt = c->n_inputs + c->n_outputs;
    for (uint32_t k = 0; k < nt; ++k) {
        const case_tensor *t = k < c->n_inputs ? &c->inputs[k] : &c->outputs[k - c->n_inputs];
        snprintf(nm, sizeof nm, "c%u_s%u", id, k);
        u32_out(nm, t->buf.Sizes, t->buf.DimensionCount);
        if (t->buf.Strides) {
            snprintf(nm, sizeof nm, "c%u_st%u", id, k);
            u32_out(nm, t->buf.Strides, t->buf.DimensionCount);
        }
        snprintf(nm, sizeof nm, "c%u_d%u", id, k);
        bytes_out(nm, t->data, t->bytes);
        if (t->is_output && t->has_expected) {
            snprintf(nm, sizeof nm, "c%u_e%u", id, k);
            bytes_out(nm, t->expected, t->expected_slots * t->esize);
            snprintf(nm, sizeof nm, "c%u_n%u", id, k);
            bytes_out(nm, t->any_nan, t->expected_slots);
        }
    }
    printf("static const bm_tensor c%u_t[] = {\n", id);
    for (uint32_t k = 0; k < nt; ++k) {
        const case_tensor *t = k < c->n_inputs ? &c->inputs[k] : &c->outputs[k - c->n_inputs];
        const int slot = slot_of(sc, t->slot);
        if (slot < 0) {
            fprintf(stderr, "gen_table: %s: no slot %s\n", name, t->slot);
            exit(1);
        }
        const int e = t->is_output && t->has_expected;
        printf("  {%d, %d, %u, %u, %" PRIu32 ", c%u_s%u, ", slot, t->is_output, (unsigned)t->buf.DataType,
               (unsigned)t->buf.Flags, t->buf.DimensionCount, id, k);
        if (t->buf.Strides) printf("c%u_st%u, ", id, k);
        else printf("NULL, ");
        printf("%" PRIu64 "u, %" PRIu32 "u, c%u_d%u, %zu, ", t->buf.TotalTensorSizeInBytes,
               t->buf.GuaranteedBaseOffsetAlignment, id, k, t->bytes);
        if (e) printf("c%u_e%u, c%u_n%u, %" PRIu64 ", %u},\n", id, k, id, k, t->expected_slots, t->esize);
        else printf("NULL, NULL, 0, %u},\n", t->esize);
    }
    printf("};\n");
    /* parameters: by index in the schema; arrays and structs as data */
    for (uint32_t i = 0; i < sc->n_params; ++i) {
        const dmlref_param *p = &sc->params[i];
        const unsigned char *f = desc + p->offset;
        if (p->kind == DMLREF_PARAM_UINT_ARRAY || p->kind == DMLREF_PARAM_INT_ARRAY) {
            const uint32_t *a;
            memcpy(&a, f, sizeof a);
            snprintf(nm, sizeof nm, "c%u_p%u", id, i);
            u32_out(nm, a, a ? ld32(desc + p->count_offset) : 0);
        } else if (p->kind == DMLREF_PARAM_FLOAT_ARRAY) {
            const unsigned char *a;
            memcpy(&a, f, sizeof a);
            const uint32_t n = a ? ld32(desc + p->count_offset) : 0;
            printf("static const float c%u_p%u[] = {", id, i);
            for (uint32_t j = 0; j < n; ++j) {
                const uint32_t b = ld32(a + 4 * j);
                float x;
                memcpy(&x, &b, 4);
                if (x != x) /* a NaN: its sign, quiet bit and payload */
                    printf("%s%s__builtin_nan%sf(\"0x%" PRIx32 "\")", j ? "," : "", (b >> 31) ? "-" : "",
                           (b & 0x400000u) ? "" : "s", b & 0x3FFFFFu);
                else
                    printf("%s%a", j ? "," : "", (double)x);
            }
            printf("%s};\n", n ? "" : "0");
        } else if (p->kind == DMLREF_PARAM_STRUCT) {
            const float *s;
            memcpy(&s, f, sizeof s);
            if (s) {
                printf("static const float c%u_p%u[] = {", id, i);
                for (uint32_t j = 0; j < p->field_count; ++j) printf("%s%a", j ? "," : "", (double)s[j]);
                printf("};\n");
            }
        }
    }
    printf("static const bm_param c%u_p[] = {\n", id);
    for (uint32_t i = 0; i < sc->n_params; ++i) {
        const dmlref_param *p = &sc->params[i];
        const unsigned char *f = desc + p->offset;
        uint64_t bits = 0;
        const char *ptr = "NULL";
        char pn[32];
        uint32_t n = 0;
        switch (p->kind) {
        case DMLREF_PARAM_UINT_ARRAY: case DMLREF_PARAM_INT_ARRAY: case DMLREF_PARAM_FLOAT_ARRAY: {
            const void *a;
            memcpy(&a, f, sizeof a);
            n = a ? ld32(desc + p->count_offset) : 0;
            if (a) ptr = (snprintf(pn, sizeof pn, "c%u_p%u", id, i), pn);
            break;
        }
        case DMLREF_PARAM_STRUCT: {
            const void *s;
            memcpy(&s, f, sizeof s);
            if (s) ptr = (snprintf(pn, sizeof pn, "c%u_p%u", id, i), pn);
            break;
        }
        case DMLREF_PARAM_SCALAR_UNION: memcpy(&bits, f, 8); n = ld32(desc + p->type_offset); break;
        case DMLREF_PARAM_SIZE_2D: bits = (uint64_t)ld32(f) | (uint64_t)ld32(f + 4) << 32; break;
        default: bits = ld32(f); break;
        }
        printf("  {%u, %" PRIu32 ", 0x%" PRIx64 "u, %s},\n", i, n, bits, ptr);
    }
    if (sc->n_params == 0) printf("  {0, 0, 0x0u, NULL}, /* no parameters (C has no empty array): never read */\n");
    printf("};\n");
    const size_t len = strlen(rows);
    snprintf(rows + len, cap - len, "  {\"%s\", %u, 0x%x, %" PRIu32 ", %" PRIu32 ", c%u_t, c%u_p, %d},\n", name,
             (unsigned)c->type, (unsigned)c->feature_level, c->n_inputs, c->n_outputs, id, id, c->has_expected);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: gen_table SEED COUNT case.json...\n");
        return 2;
    }
    const uint64_t seed = strtoull(argv[1], NULL, 0);
    const unsigned count = (unsigned)strtoul(argv[2], NULL, 0);
    size_t cap = 1 << 20;
    char *rows = calloc(cap, 1);
    if (!rows) return 1;
    printf("/* Generated by tests/baremetal/gen_table.c (make test-baremetal): do not edit. */\n");
    printf("#include \"bm_table.h\"\n");
    unsigned id = 0, docs = 0, random = 0;
    for (int a = 3; a < argc; ++a) {
        char *text = NULL, err[512];
        size_t len = 0;
        if (case_read_file(argv[a], 1 << 24, &text, &len, err, sizeof err)) {
            fprintf(stderr, "gen_table: %s: %s\n", argv[a], err);
            return 1;
        }
        dmlref_case c;
        memset(&c, 0, sizeof c);
        const int rc = case_parse(text, len, "tests/cases", &c, err, sizeof err);
        free(text);
        if (rc != CASE_OK) {
            fprintf(stderr, "gen_table: %s: %s\n", argv[a], err);
            return 1;
        }
        const char *base = strrchr(argv[a], '/');
        emit(id++, base ? base + 1 : argv[a], &c, rows, cap);
        ++docs;
        case_free(&c);
    }
    for (uint32_t i = 0; dmlref_operator_schema_at(i); ++i) {
        const dmlref_schema *sc = dmlref_operator_schema_at(i);
        const builder *b = builder_find(sc->type);
        if (!b) continue;
        for (unsigned k = 0; k < count; ++k) {
            prng r = {seed * 1000003u + (uint64_t)sc->type * 1000 + k};
            dmlref_case c;
            int ok = 0;
            for (int attempt = 0; attempt < 1000 && !ok; ++attempt) {
                if (bld_case_init(&c, sc->type)) break;
                int rc = b->build(&r, &c);
                for (uint32_t j = 0; rc == 0 && j < c.n_inputs; ++j) rc = c.inputs[j].data ? 0 : -1;
                for (uint32_t j = 0; rc == 0 && j < c.n_outputs; ++j) rc = c.outputs[j].data ? 0 : -1;
                uint64_t bytes = 0;
                for (uint32_t j = 0; rc == 0 && j < c.n_inputs + c.n_outputs; ++j)
                    bytes += j < c.n_inputs ? c.inputs[j].bytes : c.outputs[j - c.n_inputs].bytes;
                if (rc == 0 && bytes <= 16384) {
                    bld_bind(&c);
                    c.feature_level = FL_RANDOM;
                    if (dmlref_validate(&c.desc, FL_RANDOM, NULL) == DMLREF_OK) ok = 1;
                }
                if (!ok) bld_case_free(&c);
            }
            if (!ok) continue;
            char name[64];
            snprintf(name, sizeof name, "random %s #%u", sc->name, k);
            emit(id++, name, &c, rows, cap);
            ++random;
            bld_case_free(&c);
        }
    }
    printf("const bm_case bm_cases[] = {\n%s};\n", rows);
    printf("const unsigned bm_case_count = %u; /* %u documented, %u random */\n", id, docs, random);
    free(rows);
    return 0;
}
