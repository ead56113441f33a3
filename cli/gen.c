/*
 * dmlref gen: N random valid cases with `expected` filled in by the scalar
 * oracle -- a golden suite for another backend.
 *
 * Every case is drawn from its own splitmix64 stream seeded from (seed,
 * operator, case number), so the same arguments give the same files on every
 * machine, and --count 5 writes the first 5 files of --count 50.  What a case
 * contains: every data type the chosen feature level allows, DimensionCount 1
 * to 8, packed layouts and permuted layouts with gaps between rows, zero-stride
 * (broadcast) inputs, negative indices (signed index types), JOIN/SPLIT with
 * 1 to 6 pieces of unequal sizes, TotalTensorSizeInBytes sometimes above the
 * minimum, nested data for some packed inputs.  Never: out-of-range indices,
 * duplicate scatter targets, index values beyond the int32 range, NaN payloads
 * other than the canonical quiet NaN, subnormals.  Tensors are small (at most
 * a few hundred elements).  Each case is written to memory, read back with
 * case_parse, re-executed and compared before its file is written.
 */
#include "args.h"
#include "../builders/builder.h"
#include "case.h"
#include "fields.h"
#include "cli.h"
#include "file_atomic.h"
#include "json_out.h"
#include "prng.h"
#include "value.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_gen[] =
    "usage: dmlref gen --operator OP --count N --seed S --out DIR\n"
    "\n"
    "Writes N random valid cases DIR/gen_<op>_<S>_<i>.json (i = 0 .. N-1) with `expected`\n"
    "filled in by the scalar oracle.  OP: %s\n"
    "(or ALL: N cases of each).  S: a 64-bit unsigned seed; the same arguments give the\n"
    "same files.  DIR is created if missing.  Expected lists cover the whole output\n"
    "buffer: slots no output element addresses hold 0xCD bytes (a backend's comparer\n"
    "must mask them: DirectML may write there).\n"
    "\n"
    "exit status: 0 ok, 4 bad command line, 5 a file could not be written\n";

static const uint32_t all_levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                      0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

/* ---- writing ---------------------------------------------------------------------------- */

static void write_nested(FILE *f, const gtensor *t, uint32_t d, uint64_t *slot) {
    if (d + 1 == t->n) {
        jout_values(f, t->data + *slot * t->es, t->sizes[d], t->dt, 0, 0);
        *slot += t->sizes[d];
        return;
    }
    fputc('[', f);
    for (uint32_t i = 0; i < t->sizes[d]; ++i) {
        if (i) fputs(", ", f);
        write_nested(f, t, d + 1, slot);
    }
    fputc(']', f);
}

static void write_tensor(FILE *f, const char *key, const gtensor *t, int with_data, unsigned indent) {
    if (key) fprintf(f, "  \"%s\": ", key);
    fprintf(f, "{\"DataType\": \"%s\", \"Sizes\": ", dmlref_data_type_name(t->dt));
    jout_u32_list(f, t->sizes, t->n);
    if (t->has_strides) {
        fputs(", \"Strides\": ", f);
        jout_u32_list(f, t->strides, t->n);
    }
    if (t->total_given) fprintf(f, ", \"TotalTensorSizeInBytes\": %" PRIu64, t->buf.TotalTensorSizeInBytes);
    if (with_data) {
        fprintf(f, ",\n%*s\"data\": ", (int)indent + 2, "");
        if (t->nested) {
            uint64_t slot = 0;
            write_nested(f, t, 0, &slot);
        } else {
            jout_values(f, t->data, t->whole ? t->total_slots : t->span_slots, t->dt, 0, 0);
        }
    }
    fputc('}', f);
}

/* `  "Name": tensor,\n`, or for an array slot `  "Name": [\n    tensor,\n    ...\n  ],\n`. */
static void write_slot(FILE *f, const dmlref_tensor_slot *sl, const gtensor *t, uint32_t n) {
    const int with_data = !sl->is_output;
    if (!sl->is_array) {
        write_tensor(f, sl->name, t, with_data, 2);
        fputs(",\n", f);
        return;
    }
    fprintf(f, "  \"%s\": [\n", sl->name);
    for (uint32_t k = 0; k < n; ++k) {
        fputs("    ", f);
        write_tensor(f, NULL, &t[k], with_data, 4);
        fputs(k + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
}

/* The case file: its fields (fields_write_params), its tensors slot by slot (inputs with
 * data, outputs without), then `expected` (whole output buffers). */
static void write_case(FILE *f, const gcase *g, const char *name, uint64_t seed, uint64_t i) {
    const dmlref_schema *s = g->schema;
    const char *op = s->name;
    fprintf(f, "{\n  \"name\": \"%s\",\n", name);
    fprintf(f, "  \"comment\": \"dmlref gen --operator %s --seed %" PRIu64 ", case %" PRIu64 " (dmlref %s); expected "
               "lists cover whole output buffers: 0xCD slots are bytes no output element addresses\",\n",
            op, seed, i, DMLREF_VERSION_STRING);
    fprintf(f, "  \"operator\": \"%s\",\n  \"feature_level\": \"%s\",\n", op,
            dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)g->fl));
    fields_write_params(f, s, g->u.bytes, 2);
    for (int out = 0; out < 2; ++out)
        for (uint32_t k = 0; k < s->n_slots; ++k) {
            const dmlref_tensor_slot *sl = &s->slots[k];
            if (sl->is_output != out) continue;
            const DMLREF_TENSOR_DESC *first;
            memcpy(&first, g->u.bytes + sl->offset, sizeof first);
            if (!first) continue; /* an absent optional tensor: left out of the file */
            const uint32_t at = (uint32_t)(first - (out ? g->out_desc : g->in_desc));
            write_slot(f, sl, (out ? g->out : g->in) + at, sl->is_array ? desc_get_u32(g->u.bytes, sl->count_offset) : 1);
        }
    fputs("  \"expected\": {", f);
    int first_out = 1;
    for (uint32_t k = 0; k < s->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &s->slots[k];
        if (!sl->is_output) continue;
        const DMLREF_TENSOR_DESC *first;
        memcpy(&first, g->u.bytes + sl->offset, sizeof first);
        const gtensor *t = g->out + (first - g->out_desc);
        fprintf(f, "%s\"%s\": ", first_out ? "" : ", ", sl->name);
        first_out = 0;
        if (!sl->is_array) {
            jout_values(f, t->data, t->total_slots, t->dt, 0, 0);
            continue;
        }
        const uint32_t n = desc_get_u32(g->u.bytes, sl->count_offset);
        fputs("[\n", f);
        for (uint32_t j = 0; j < n; ++j) {
            fputs("    ", f);
            jout_values(f, t[j].data, t[j].total_slots, t[j].dt, 0, 0);
            fputs(j + 1 < n ? ",\n" : "\n", f);
        }
        fputs("  ]", f);
    }
    fputs("}\n}\n", f);
}

/* ---- one case ------------------------------------------------------------------------------- */

static int make_case(DMLREF_OPERATOR_TYPE type, uint64_t seed, uint64_t i, char **text, size_t *len, char *err,
                     size_t errcap) {
    prng r = {seed ^ (UINT64_C(0xD1B54A32D192ED03) * ((uint64_t)type + 1))};
    r.state += UINT64_C(0x9E3779B97F4A7C15) * (i + 1);
    (void)prng_next(&r);
    const builder *b = builder_find(type);
    const dmlref_schema *schema = dmlref_operator_schema(type);
    if (!b || !schema || schema->desc_size > GEN_MAX_DESC) {
        snprintf(err, errcap, "internal: no case builder for %s", dmlref_operator_name(type));
        return CASE_SYSTEM;
    }
    gcase g;
    dmlref_error derr;
    for (int attempt = 0;; ++attempt) {
        memset(&g, 0, sizeof g);
        g.type = type;
        g.schema = schema;
        int rc = b->build(&r, &g);
        for (uint32_t k = 0; rc == 0 && k < g.n_in; ++k) rc = g.in[k].data ? 0 : -1;
        for (uint32_t k = 0; rc == 0 && k < g.n_out; ++k) rc = g.out[k].data ? 0 : -1;
        if (rc == 0) {
            bld_bind(&g);
            if (dmlref_validate(&g.desc, DMLREF_FEATURE_LEVEL_6_4, &derr) == DMLREF_OK) break;
            if (attempt > 200) {
                snprintf(err, errcap, "internal: generated an invalid case: %s", derr.message);
                bld_gcase_free(&g);
                return CASE_SYSTEM;
            }
        }
        bld_gcase_free(&g);
        if (attempt > 1000) {
            snprintf(err, errcap, "internal: no valid case after 1000 attempts");
            return CASE_SYSTEM;
        }
    }
    /* feature level: the newest half of the time, else any level that accepts the case */
    g.fl = DMLREF_FEATURE_LEVEL_6_4;
    if (bld_rnd(&r, 2)) {
        uint32_t ok[15], n = 0;
        for (size_t k = 0; k < sizeof all_levels / sizeof all_levels[0]; ++k)
            if (dmlref_validate(&g.desc, (DMLREF_FEATURE_LEVEL)all_levels[k], NULL) == DMLREF_OK) ok[n++] = all_levels[k];
        g.fl = ok[bld_rnd(&r, n)];
    }
    /* outputs: 0xCD, then the oracle, with index checking as a guard */
    dmlref_cbuffer ib[GEN_MAX_TENSORS];
    dmlref_buffer ob[GEN_MAX_TENSORS];
    for (uint32_t k = 0; k < g.n_in; ++k) ib[k] = (dmlref_cbuffer){g.in[k].data, (size_t)g.in[k].buf.TotalTensorSizeInBytes};
    for (uint32_t k = 0; k < g.n_out; ++k) {
        memset(g.out[k].data, 0xCD, (size_t)g.out[k].buf.TotalTensorSizeInBytes);
        ob[k] = (dmlref_buffer){g.out[k].data, (size_t)g.out[k].buf.TotalTensorSizeInBytes};
    }
    const dmlref_options o = {DMLREF_OPTION_FORCE_ORACLE | DMLREF_OPTION_CHECK_INDICES, 1};
    if (dmlref_run(&g.desc, (DMLREF_FEATURE_LEVEL)g.fl, &o, ib, g.n_in, ob, g.n_out, &derr) != DMLREF_OK) {
        snprintf(err, errcap, "internal: the oracle failed on a generated case: %s", derr.message);
        bld_gcase_free(&g);
        return CASE_SYSTEM;
    }
    char name[96];
    char lower[32];
    const char *op = dmlref_operator_name(type);
    size_t n = 0;
    for (; op[n] && n + 1 < sizeof lower; ++n) lower[n] = (char)(op[n] >= 'A' && op[n] <= 'Z' ? op[n] - 'A' + 'a' : op[n]);
    lower[n] = '\0';
    snprintf(name, sizeof name, "gen_%s_%" PRIu64 "_%" PRIu64, lower, seed, i);
    FILE *f = open_memstream(text, len);
    if (!f) {
        bld_gcase_free(&g);
        snprintf(err, errcap, "out of memory");
        return CASE_SYSTEM;
    }
    write_case(f, &g, name, seed, i);
    fclose(f);
    bld_gcase_free(&g);

    /* read it back as any user would, run it and compare */
    dmlref_case c;
    char perr[512];
    int rc = case_parse(*text, *len, NULL, &c, perr, sizeof perr);
    if (rc == CASE_OK) {
        const dmlref_options fo = {DMLREF_OPTION_FORCE_ORACLE, 1};
        if (dmlref_run(&c.desc, c.feature_level, &fo, c.in_bufs, c.n_inputs, c.out_bufs, c.n_outputs, &derr) != DMLREF_OK) {
            snprintf(perr, sizeof perr, "%s", derr.message);
            rc = CASE_INVALID;
        } else if (case_compare(&c, NULL, 0) != 0) {
            snprintf(perr, sizeof perr, "expected values do not read back");
            rc = CASE_DIFFER;
        }
        case_free(&c);
    }
    if (rc != CASE_OK) {
        snprintf(err, errcap, "internal: %s does not read back: %s", name, perr);
        free(*text);
        *text = NULL;
        return CASE_SYSTEM;
    }
    return CASE_OK;
}

int cmd_gen(int argc, char **argv) {
    const char *opname = NULL, *outdir = NULL;
    uint64_t count = 0, seed = 0;
    int have_count = 0, have_seed = 0;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            char names[512];
            printf(usage_gen, case_operator_names(names, sizeof names));
            return 0;
        }
        static const char *const names[] = {"--operator", "--count", "--seed", "--out"};
        int which = -1;
        for (int k = 0; k < 4; ++k) {
            const size_t n = strlen(names[k]);
            if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
                which = k;
                v = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
            }
        }
        if (which < 0) {
            fprintf(stderr, "dmlref gen: unexpected argument '%s' (dmlref gen --help)\n", a);
            return CASE_USAGE;
        }
        if (!v) {
            fprintf(stderr, "dmlref gen: %s needs a value (dmlref gen --help)\n", names[which]);
            return CASE_USAGE;
        }
        if (which == 0) opname = v;
        else if (which == 3) outdir = v;
        else if (cli_parse_u64(v, which == 1 ? 1000000 : UINT64_MAX, which == 1 ? &count : &seed)) {
            fprintf(stderr, "dmlref gen: %s needs a non-negative integer%s, got '%s'\n", names[which],
                    which == 1 ? " <= 1000000" : "", v);
            return CASE_USAGE;
        } else if (which == 1) have_count = 1;
        else have_seed = 1;
    }
    if (!opname || !outdir || !have_count || !have_seed) {
        fprintf(stderr, "dmlref gen: --operator, --count, --seed and --out are required (dmlref gen --help)\n");
        return CASE_USAGE;
    }
    /* ALL: every operator of the schema list, in its order */
    DMLREF_OPERATOR_TYPE ops[64];
    int n_ops = 0;
    if (strcmp(opname, "ALL") == 0) {
        const dmlref_schema *sc;
        for (uint32_t k = 0; (sc = dmlref_operator_schema_at(k)) != NULL && n_ops < 64; ++k) ops[n_ops++] = sc->type;
    } else if ((ops[0] = case_operator_from_name(opname)) != 0) {
        n_ops = 1;
    } else {
        char names[512];
        fprintf(stderr, "dmlref gen: unknown operator '%s' (%s, ALL)\n", opname, case_operator_names(names, sizeof names));
        return CASE_USAGE;
    }
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "dmlref gen: cannot create %s: %s\n", outdir, strerror(errno));
        return CASE_SYSTEM;
    }
    const size_t dl = strlen(outdir);
    char *path = malloc(dl + 128);
    if (!path) return CASE_SYSTEM;
    char err[1024];
    int rc = CASE_OK;
    for (int k = 0; k < n_ops && rc == CASE_OK; ++k) {
        const char *op = dmlref_operator_name(ops[k]);
        char lower[32];
        size_t n = 0;
        for (; op[n] && n + 1 < sizeof lower; ++n) lower[n] = (char)(op[n] >= 'A' && op[n] <= 'Z' ? op[n] - 'A' + 'a' : op[n]);
        lower[n] = '\0';
        for (uint64_t i = 0; i < count && rc == CASE_OK; ++i) {
            char *text = NULL;
            size_t len = 0;
            rc = make_case(ops[k], seed, i, &text, &len, err, sizeof err);
            if (rc == CASE_OK) {
                snprintf(path, dl + 128, "%s/gen_%s_%" PRIu64 "_%" PRIu64 ".json", outdir, lower, seed, i);
                const file_part part = {text, len};
                if (file_write_atomic(path, &part, 1, err, sizeof err)) rc = CASE_SYSTEM;
            }
            free(text);
            if (rc != CASE_OK) fprintf(stderr, "dmlref gen: %s\n", err);
        }
    }
    free(path);
    return rc;
}
