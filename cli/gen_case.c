/*
 * One case of `dmlref gen` (gen.h): drawn through the operator's builder into
 * the case model (case/case.h) until it is valid and meets gen's filters, given
 * a feature level, executed by the oracle for its expected values, checked, and
 * written as its file with case_write (plus gen's "features" line).  The case a
 * builder makes is the one executed; its file text is only read back at the end,
 * as a check that it reads as the case it was written from.
 */
#include "gen.h"
#include "execute.h"

#include "builders/features.h"
#include "framework.h"
#include "onnx.h"
#include "webnn.h"
#include "case/case.h"
#include "case/memout.h"
#include "case/prng.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cfg_filters(const gen_cfg *cfg) {
    return cfg->b.data_types || cfg->b.index_types || cfg->b.no_negative_indices || cfg->b.packed ||
           cfg->b.max_elements || cfg->level || cfg->max_dims || cfg->expressible;
}

enum { R_DATA, R_INDEX, R_DIMS, R_PACKED, R_NEGATIVE, R_ELEMENTS, R_ONNX, R_WEBNN, R_LEVEL, R_N };
static const char *const reason_text[R_N] = {"a data type outside --data-types", "an index type outside --index-types",
                                             "a DimensionCount above --max-dims", "a layout that is not packed",
                                             "a negative index", "a tensor above --max-elements elements",
                                             "not expressible in ONNX", "not expressible in WebNN",
                                             "not valid at --feature-level"};

/* --expressible: R_ONNX or R_WEBNN when `export --onnx` / `--webnn` would not express the case
 * (the reason in why), -1 when both would, or CASE_OUT_OF_MEMORY. */
static int inexpressible(const dmlref_case *c, unsigned which, char *why, size_t cap) {
    fw_form f;
    f.in = calloc(c->n_inputs + 1, sizeof *f.in);
    f.out = calloc(c->n_outputs + 1, sizeof *f.out);
    int rc = f.in && f.out ? -1 : CASE_OUT_OF_MEMORY;
    const int frc = rc < 0 ? framework_form(c, &f) : -1;
    if (frc == CASE_OUT_OF_MEMORY) rc = frc;
    const fw_form *form = frc == 0 ? &f : NULL;
    if (rc < 0 && (which & GEN_ONNX)) {
        onnx_model m;
        if (onnx_build(c, form, IDX_OK, &m)) rc = CASE_OUT_OF_MEMORY;
        else if (!m.expressible) {
            rc = R_ONNX;
            snprintf(why, cap, "%s", m.why);
        }
        onnx_model_free(&m);
    }
    if (rc < 0 && (which & GEN_WEBNN)) {
        webnn_test w;
        if (webnn_build(c, form, IDX_OK, NULL, &w)) rc = CASE_OUT_OF_MEMORY;
        else if (!w.expressible) {
            rc = R_WEBNN;
            snprintf(why, cap, "%s", w.why);
        }
        webnn_test_free(&w);
    }
    free(f.in);
    free(f.out);
    return rc;
}

/* The first filter g breaks (R_*), or -1.  (The feature level: the caller.) */
static int violation(const dmlref_case *c, const gen_cfg *cfg) {
    slot_tensor ts[2 * GEN_MAX_TENSORS];
    const uint32_t n = features_tensors(c, ts, 2 * GEN_MAX_TENSORS);
    for (uint32_t k = 0; k < n; ++k) {
        const case_tensor *t = ts[k].t;
        /* a type the operator fixes (ELEMENT_WISE_IF's UINT8 condition) is no filter's */
        const uint32_t mask = features_fixed_type(ts[k].sl) ? 0 : ts[k].sl->is_index ? cfg->b.index_types : cfg->b.data_types;
        if (mask && !(mask >> t->buf.DataType & 1u)) return ts[k].sl->is_index ? R_INDEX : R_DATA;
        const uint32_t dims = t->buf.DimensionCount;
        if (cfg->max_dims && dims > cfg->max_dims) return R_DIMS;
        if (cfg->b.packed && (t->buf.Strides || t->buf.TotalTensorSizeInBytes != features_min_total_bytes(t)))
            return R_PACKED;
        if (cfg->b.no_negative_indices && ts[k].sl->is_index && features_has_negative(t)) return R_NEGATIVE;
        if (cfg->b.max_elements && bld_product(t->sizes, dims) > cfg->b.max_elements) return R_ELEMENTS;
    }
    return -1;
}


/* ---- one case ------------------------------------------------------------------------------- */

/* Draws a case meeting the filters can take: then make_case gives up (GEN_UNMET). */
#define GEN_FILTER_DRAWS 100000

/* splitmix64's output function: a bijection that scatters nearby inputs. */
static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void gen_lower_name(const char *op, char *lower, size_t cap) {
    size_t n = 0;
    for (; op[n] && n + 1 < cap; ++n) lower[n] = (char)(op[n] >= 'A' && op[n] <= 'Z' ? op[n] - 'A' + 'a' : op[n]);
    lower[n] = '\0';
}

/* Why cases were not valid at --feature-level: up to 4 rules, each with a count and its first message. */
typedef struct level_why {
    char key[DMLREF_ERROR_RULE_MAX + DMLREF_ERROR_FIELD_MAX + 2];
    uint64_t n;
    char message[sizeof(((dmlref_error *)0)->message)];
} level_why;

static void note_level_why(level_why *why, uint32_t *n_why, const dmlref_error *derr) {
    char key[sizeof why[0].key];
    snprintf(key, sizeof key, "%s %s", derr->rule, derr->field);
    uint32_t w = 0;
    while (w < *n_why && strcmp(why[w].key, key) != 0) ++w;
    if (w == *n_why && w < 4) {
        memcpy(why[w].key, key, sizeof key);
        memcpy(why[w].message, derr->message, sizeof derr->message);
        why[w].n = 0;
        ++*n_why;
    }
    if (w < *n_why) ++why[w].n;
}

/* Draws from r through the operator's builder until a case is valid and meets the filters:
 * CASE_OK (c holds it), CASE_OUT_OF_MEMORY (an allocation failed, in a builder or in
 * dmlref_validate: drawing again would give another case than the arguments name),
 * GEN_SELF_CHECK (the builder draws no valid case) or GEN_UNMET (none met the filters within
 * GEN_FILTER_DRAWS draws; err says what they broke).  On failure c holds nothing. */
static int draw_case(DMLREF_OPERATOR_TYPE type, prng *r, const gen_cfg *cfg, dmlref_case *c, char *err,
                     size_t errcap) {
    const int filtered = cfg_filters(cfg);
    const builder *b = builder_find(type);
    const dmlref_schema *schema = dmlref_operator_schema(type);
    if (!b || !schema) {
        snprintf(err, errcap, "internal: no case builder for %s", dmlref_operator_name(type));
        return CASE_SYSTEM;
    }
    uint64_t rejected[R_N] = {0};
    uint32_t invalid = 0, n_level_why = 0;
    char expr_why[200] = ""; /* the first reason a case was not expressible */
    const char *never = cfg->expressible & GEN_WEBNN ? webnn_unsupported(schema->name) : NULL;
    if (never) {
        snprintf(err, errcap, "%s: no case meets the filters (--expressible webnn: %s)", schema->name, never);
        return GEN_UNMET;
    }
    level_why level_why[4];
    dmlref_error derr;
    for (uint32_t attempt = 0;; ++attempt) {
        if (bld_case_init(c, type)) {
            snprintf(err, errcap, "%s: out of memory drawing a case", schema->name);
            return CASE_OUT_OF_MEMORY;
        }
        int rc = b->build(r, c);
        for (uint32_t k = 0; rc == 0 && k < c->n_inputs; ++k) rc = c->inputs[k].data ? 0 : -1;
        for (uint32_t k = 0; rc == 0 && k < c->n_outputs; ++k) rc = c->outputs[k].data ? 0 : -1;
        dmlref_status vst = DMLREF_OK;
        if (rc == 0 && !bld_out_of_memory) {
            bld_bind(c);
            vst = dmlref_validate(&c->desc, DMLREF_FEATURE_LEVEL_6_4, &derr);
        }
        int why = -1;
        if (rc == 0 && !bld_out_of_memory && vst == DMLREF_OK && filtered) {
            why = violation(c, cfg);
            if (why < 0 && cfg->level) {
                vst = dmlref_validate(&c->desc, (DMLREF_FEATURE_LEVEL)cfg->level, &derr);
                if (vst != DMLREF_OK && vst != DMLREF_ERROR_OUT_OF_MEMORY) {
                    why = R_LEVEL;
                    note_level_why(level_why, &n_level_why, &derr);
                    vst = DMLREF_OK; /* valid at 6_4: a case the filter rejects */
                }
            }
            if (why < 0 && vst == DMLREF_OK && cfg->expressible) {
                char reason[200] = "";
                const int e = inexpressible(c, cfg->expressible, reason, sizeof reason);
                if (e == CASE_OUT_OF_MEMORY) vst = DMLREF_ERROR_OUT_OF_MEMORY;
                else if (e >= 0) {
                    why = e;
                    if (!expr_why[0]) snprintf(expr_why, sizeof expr_why, "%s", reason);
                }
            }
        }
        if (bld_out_of_memory || vst == DMLREF_ERROR_OUT_OF_MEMORY) {
            bld_case_free(c);
            snprintf(err, errcap, "%s: out of memory drawing a case", schema->name);
            return CASE_OUT_OF_MEMORY;
        }
        if (rc == 0) {
            if (vst == DMLREF_OK) {
                if (why < 0) return CASE_OK;
                ++rejected[why];
            } else if (++invalid > 200) {
                snprintf(err, errcap, "internal: generated an invalid case: %s", derr.message);
                bld_case_free(c);
                return GEN_SELF_CHECK;
            }
        }
        bld_case_free(c);
        if (!filtered && attempt > 1000) {
            snprintf(err, errcap, "internal: no valid case after 1000 attempts");
            return GEN_SELF_CHECK;
        }
        if (filtered && attempt + 1 >= GEN_FILTER_DRAWS) {
            size_t n = (size_t)snprintf(err, errcap, "%s: no case meets the filters in %d draws (rejected:",
                                        schema->name, GEN_FILTER_DRAWS);
            const char *sep = " ";
            for (int k = 0; k < R_N && n < errcap; ++k)
                if (rejected[k]) {
                    n += (size_t)snprintf(err + n, errcap - n, "%s%" PRIu64 " %s", sep, rejected[k], reason_text[k]);
                    if (k == R_LEVEL && n < errcap)
                        n += (size_t)snprintf(err + n, errcap - n, " %s",
                                              dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)cfg->level));
                    for (uint32_t w = 0; k == R_LEVEL && w < n_level_why && n < errcap; ++w)
                        n += (size_t)snprintf(err + n, errcap - n, "%s%" PRIu64 " for \"%s\"", w ? "; " : " (",
                                              level_why[w].n, level_why[w].message);
                    if (k == R_LEVEL && n_level_why && n < errcap) n += (size_t)snprintf(err + n, errcap - n, ")");
                    if ((k == R_ONNX || k == R_WEBNN) && expr_why[0] && n < errcap)
                        n += (size_t)snprintf(err + n, errcap - n, " (first: %s)", expr_why);
                    sep = ", ";
                }
            if (n < errcap) snprintf(err + n, errcap - n, "%s)", *sep == ' ' ? " none: the builder drew no valid case" : "");
            return GEN_UNMET;
        }
    }
}

/* Sets every output to 0xCD bytes (what a case file's outputs start as). */
static void clear_outputs(dmlref_case *c) {
    for (uint32_t k = 0; k < c->n_outputs; ++k) memset(c->outputs[k].data, 0xCD, c->outputs[k].bytes);
}

/* An allocation failed (here or in the library) while case `name` was made: no self-check failed. */
static int out_of_memory(const char *name, const char *doing, char *err, size_t errcap) {
    snprintf(err, errcap, "%s: out of memory %s", name, doing);
    return CASE_OUT_OF_MEMORY;
}

/* The oracle's outputs (index checking on, as a guard) become c's expected values (whole
 * output buffers); then the case is run again as a reader of its file would, and must give
 * them.  CASE_OK, CASE_OUT_OF_MEMORY or GEN_SELF_CHECK. */
static int fill_expected(dmlref_case *c, char *err, size_t errcap) {
    dmlref_error derr;
    clear_outputs(c);
    const dmlref_options o = {.flags = DMLREF_OPTION_FORCE_ORACLE | DMLREF_OPTION_CHECK_INDICES, .threads = 1};
    dmlref_operator *op = NULL;
    dmlref_status st = dmlref_compile(&c->desc, c->feature_level, &o, &op, &derr);
    if (st == DMLREF_OK) st = dmlref_execute(op, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, &derr);
    /* the outputs' undefined elements (NONZERO_COORDINATES' rows past the count): the file's comment names them */
    if (st == DMLREF_OK && cli_mark_defined(c, op) != CASE_OK) st = DMLREF_ERROR_OUT_OF_MEMORY;
    dmlref_release(op);
    if (st == DMLREF_ERROR_OUT_OF_MEMORY) return out_of_memory(c->op_name, "running the oracle", err, errcap);
    if (st != DMLREF_OK) {
        snprintf(err, errcap, "internal: the oracle failed on a generated case: %s", derr.message);
        return GEN_SELF_CHECK;
    }
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        case_tensor *t = &c->outputs[k];
        const size_t bytes = (size_t)(t->total_slots * t->esize);
        t->expected = malloc(bytes ? bytes : 1);
        t->any_nan = calloc(t->total_slots ? (size_t)t->total_slots : 1, 1);
        if (!t->expected || !t->any_nan) return out_of_memory(c->op_name, "for the expected values", err, errcap);
        memcpy(t->expected, t->data, bytes);
        t->expected_slots = t->total_slots;
        t->has_expected = 1;
        c->has_expected = 1;
    }
    clear_outputs(c);
    const dmlref_options fo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    st = dmlref_run(&c->desc, c->feature_level, &fo, c->in_bufs, c->n_inputs, c->out_bufs, c->n_outputs, &derr);
    if (st == DMLREF_ERROR_OUT_OF_MEMORY) return out_of_memory(c->op_name, "running the oracle", err, errcap);
    if (st != DMLREF_OK) {
        snprintf(err, errcap, "internal: the oracle failed on a generated case without index checking: %s", derr.message);
        return GEN_SELF_CHECK;
    }
    if (case_compare(c, NULL, 0) != 0) {
        snprintf(err, errcap, "internal: a generated case gives other outputs when run again");
        return GEN_SELF_CHECK;
    }
    return CASE_OK;
}

/* Whether the file text reads back (case_parse, as any user would read it) to a case that
 * runs and gives its expected values: 0, or CASE_OUT_OF_MEMORY when an allocation failed on
 * the way (no answer), or another status with the reason in why. */
static int reads_back(const char *text, size_t len, char *why, size_t cap) {
    dmlref_case c;
    dmlref_error derr;
    int rc = case_parse(text, len, NULL, &c, why, cap);
    if (rc == CASE_OK) {
        const dmlref_options fo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        const dmlref_status st =
            dmlref_run(&c.desc, c.feature_level, &fo, c.in_bufs, c.n_inputs, c.out_bufs, c.n_outputs, &derr);
        if (st != DMLREF_OK) {
            snprintf(why, cap, "%s", derr.message);
            rc = st == DMLREF_ERROR_OUT_OF_MEMORY ? CASE_OUT_OF_MEMORY : CASE_INVALID;
        } else if (case_compare(&c, NULL, 0) != 0) {
            snprintf(why, cap, "expected values do not read back");
            rc = CASE_DIFFER;
        }
        case_free(&c);
    }
    return rc;
}

int gen_make_case(DMLREF_OPERATOR_TYPE type, uint64_t seed, uint64_t i, const gen_cfg *cfg, char **text,
                     size_t *len, char *err, size_t errcap) {
    /* a stream of its own per (seed, flavour, operator, case), through splitmix64's finaliser,
     * so no two cases share their draws however often either redraws (--scale-bias is no flavour
     * of its own here: only ELEMENT_WISE_IDENTITY's builder reads it, the others draw as without) */
    const uint64_t flavour = (cfg->b.bits ? 1u : 0u) | (cfg->b.max_elements ? 2u : 0u);
    prng r = {mix64(mix64(mix64(seed ^ (UINT64_C(0x5851F42D4C957F2D) * (flavour + 1))) + (uint64_t)type) + i)};
    (void)prng_next(&r);
    dmlref_case c;
    bld_opts = cfg->b;
    int rc = draw_case(type, &r, cfg, &c, err, errcap);
    bld_opts = (bld_settings){0};
    if (rc != CASE_OK) return rc;
    /* feature level: the newest (or --feature-level's) half of the time, else any level up to it
     * that accepts the case */
    const uint32_t top = cfg->level ? cfg->level : DMLREF_FEATURE_LEVEL_6_4;
    c.feature_level = (DMLREF_FEATURE_LEVEL)top;
    if (bld_rnd(&r, 2)) {
        uint32_t ok[15], n = 0;
        for (size_t k = 0; k < sizeof features_levels / sizeof features_levels[0]; ++k) {
            if (features_levels[k] > top) continue;
            const dmlref_status st = dmlref_validate(&c.desc, (DMLREF_FEATURE_LEVEL)features_levels[k], NULL);
            if (st == DMLREF_ERROR_OUT_OF_MEMORY) { /* no verdict: the draw below would differ */
                bld_case_free(&c);
                return out_of_memory(dmlref_operator_name(type), "choosing a feature level", err, errcap);
            }
            if (st == DMLREF_OK) ok[n++] = features_levels[k];
        }
        c.feature_level = (DMLREF_FEATURE_LEVEL)ok[bld_rnd(&r, n)];
    }
    features ft;
    features_of(&c, &ft);
    if (bld_out_of_memory) {
        bld_case_free(&c);
        return out_of_memory(dmlref_operator_name(type), "listing the case's features", err, errcap);
    }
    rc = fill_expected(&c, err, errcap);
    if (rc != CASE_OK) {
        bld_case_free(&c);
        return rc;
    }
    /* the file: the case as case_write writes it, with gen's "features" line */
    char name[128], lower[32], comment[512];
    gen_lower_name(dmlref_operator_name(type), lower, sizeof lower);
    snprintf(name, sizeof name, "%s_%s_%" PRIu64 "_%" PRIu64, cfg->prefix, lower, seed, i);
    snprintf(comment, sizeof comment,
             "dmlref gen --operator %s --seed %" PRIu64 "%s, case %" PRIu64 " (dmlref %s); expected lists cover whole "
             "output buffers: 0xCD slots are bytes no output element addresses",
             c.schema->name, seed, cfg->args, i, DMLREF_VERSION_STRING);
    for (uint32_t k = 0; k < c.n_outputs; ++k) {
        const case_tensor *t = &c.outputs[k];
        const size_t at = strlen(comment);
        if (t->undefined && at < sizeof comment)
            snprintf(comment + at, sizeof comment - at,
                     "; %s: only its first %" PRIu64 " elements (row-major) are defined, DirectML leaves the others "
                     "undefined (dmlref writes 0 there): a backend's comparer must mask them",
                     t->name, t->defined);
    }
    /* the text in memory (memout.h: a piece lost to a failed allocation is caught) */
    memout m;
    if (memout_open(&m) == 0) {
        case_write_begin(m.f, &c, name, comment);
        features_write(m.f, &ft);
        case_write_end(m.f, &c);
        rc = memout_close(&m);
    } else {
        rc = CASE_OUT_OF_MEMORY;
    }
    bld_case_free(&c);
    *text = m.text;
    *len = m.len;
    if (rc != CASE_OK) return out_of_memory(name, "writing the case", err, errcap);
    char why[512];
    rc = reads_back(*text, *len, why, sizeof why);
    if (rc != CASE_OK) {
        if (rc == CASE_OUT_OF_MEMORY) out_of_memory(name, "reading the case back", err, errcap);
        else snprintf(err, errcap, "internal: %s does not read back: %s", name, why);
        free(*text);
        *text = NULL;
        return case_failure(rc, GEN_SELF_CHECK);
    }
    return CASE_OK;
}
