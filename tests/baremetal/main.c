/*
 * The bare-metal test (make test-baremetal, docs/baremetal.md): runs the table
 * gen_table.c wrote on the board, every compile and execute from one static
 * arena through the caller's allocator, sized with dmlref_compile_memory and
 * dmlref_execute_memory.  Documented examples: the fast path and the oracle
 * each against `expected`, byte for byte (a "nan" slot: any NaN).  Random
 * cases: the fast path against the oracle, every byte of every output buffer.
 * Each case also passes dmlref_validate (DMLREF_NO_MALLOC: on its stack arena)
 * and is refused by dmlref_compile without an allocator (DMLREF_ERROR_OPTIONS); one
 * broken rule must keep its status, rule id and field (every build, MESSAGES=0 too).
 * It also measures the stack dmlref_compile and dmlref_execute use (a painted
 * region below the caller's frame), the worst per operator.  Prints
 * "baremetal: N passed, M failed"; exit status 1 when anything failed.
 */
#include "dmlref.h"

#include "bm_table.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_T 16
#define DESC_MAX 512
#define ARENA_BYTES (64 * 1024)
#define OUT_BYTES (96 * 1024)
#define PAINT_BYTES (24 * 1024) /* below the caller's frame; the stack is 32 KiB (Makefile) */
#define PAINT 0xA5A5A5A5u

static _Alignas(64) unsigned char arena[ARENA_BYTES];
static _Alignas(64) unsigned char outs[2][OUT_BYTES];

typedef struct bump {
    size_t used, cap;
} bump;

static void *bump_alloc(void *ctx, size_t size, size_t alignment) {
    bump *b = ctx;
    const size_t at = (b->used + alignment - 1) & ~(alignment - 1);
    if (at > b->cap || size > b->cap - at) return NULL;
    b->used = at + size;
    return arena + at;
}

static void bump_free(void *ctx, void *ptr) {
    (void)ctx, (void)ptr;
}

/* ---- painted-stack measurement ---------------------------------------------------- */

static __attribute__((noinline)) void paint(uintptr_t top) {
    volatile uint32_t *p = (volatile uint32_t *)((top - PAINT_BYTES) & ~(uintptr_t)3);
    volatile uint32_t *end = (volatile uint32_t *)((top - 256) & ~(uintptr_t)3);
    while (p < end) *p++ = PAINT;
}

static __attribute__((noinline)) size_t used(uintptr_t top) {
    volatile uint32_t *p = (volatile uint32_t *)((top - PAINT_BYTES) & ~(uintptr_t)3);
    while (*p == PAINT) ++p;
    return (size_t)(top - (uintptr_t)p);
}

static size_t stack_compile[256], stack_execute[256]; /* by operator type (< 256) */

/* ---- a desc from the table, through the target's schema --------------------------- */

static _Alignas(8) unsigned char desc_mem[DESC_MAX];
static DMLREF_BUFFER_TENSOR_DESC bt[MAX_T];
static DMLREF_TENSOR_DESC td[MAX_T];

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }

static int build_desc(const bm_case *c, const dmlref_schema *sc, DMLREF_OPERATOR_DESC *d) {
    const uint32_t nt = c->n_inputs + c->n_outputs;
    if (sc->desc_size > DESC_MAX || nt > MAX_T) return -1;
    memset(desc_mem, 0, sizeof desc_mem);
    for (uint32_t i = 0; i < sc->n_params; ++i) {
        const dmlref_param *p = &sc->params[i];
        const bm_param *v = &c->p[i];
        unsigned char *f = desc_mem + p->offset;
        switch (p->kind) {
        case DMLREF_PARAM_UINT_ARRAY: case DMLREF_PARAM_INT_ARRAY: case DMLREF_PARAM_FLOAT_ARRAY:
            memcpy(f, &v->ptr, sizeof v->ptr);
            put32(desc_mem + p->count_offset, v->n);
            break;
        case DMLREF_PARAM_STRUCT: memcpy(f, &v->ptr, sizeof v->ptr); break;
        case DMLREF_PARAM_SCALAR_UNION:
            memcpy(f, &v->bits, 8);
            put32(desc_mem + p->type_offset, v->n);
            break;
        case DMLREF_PARAM_SIZE_2D:
            put32(f, (uint32_t)v->bits);
            put32(f + 4, (uint32_t)(v->bits >> 32));
            break;
        default: put32(f, (uint32_t)v->bits); break;
        }
    }
    for (uint32_t k = 0; k < nt; ++k) {
        const bm_tensor *t = &c->t[k];
        bt[k] = (DMLREF_BUFFER_TENSOR_DESC){(DMLREF_TENSOR_DATA_TYPE)t->data_type, (DMLREF_TENSOR_FLAGS)t->flags,
                                            t->dims, t->sizes, t->strides, t->total, t->align};
        td[k] = (DMLREF_TENSOR_DESC){DMLREF_TENSOR_TYPE_BUFFER, &bt[k]};
    }
    for (uint32_t s = 0; s < sc->n_slots; ++s) {
        const dmlref_tensor_slot *sl = &sc->slots[s];
        const DMLREF_TENSOR_DESC *first = NULL;
        uint32_t n = 0;
        for (uint32_t k = 0; k < nt; ++k)
            if (c->t[k].slot == (int)s) {
                if (!first) first = &td[k];
                ++n;
            }
        memcpy(desc_mem + sl->offset, &first, sizeof first);
        if (sl->is_array) put32(desc_mem + sl->count_offset, n);
    }
    *d = (DMLREF_OPERATOR_DESC){(DMLREF_OPERATOR_TYPE)c->type, desc_mem};
    return 0;
}

/* ---- one run ------------------------------------------------------------------------ */

/* Compiles (arena of exactly dmlref_compile_memory bytes) and executes into outs[which];
 * 0, or -1 with a line printed. */
static int run(const bm_case *c, const DMLREF_OPERATOR_DESC *d, uint32_t flags, int which) {
    const uintptr_t top = (uintptr_t)__builtin_frame_address(0);
    dmlref_error err;
    bump b = {0, ARENA_BYTES};
    const dmlref_allocator al = {bump_alloc, bump_free, &b};
    dmlref_options o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.allocator = &al;
    size_t need = 0;
    if (dmlref_compile_memory(d, (DMLREF_FEATURE_LEVEL)c->level, &o, &need, &err) != DMLREF_OK) {
        printf("FAIL %s: dmlref_compile_memory: %s %s %s\n", c->name, dmlref_status_name(err.code), err.rule,
               err.message);
        return -1;
    }
    b.used = 0;
    b.cap = need;
    dmlref_operator *op = NULL;
    paint(top);
    dmlref_status st = dmlref_compile(d, (DMLREF_FEATURE_LEVEL)c->level, &o, &op, &err);
    size_t s = used(top);
    if (s > stack_compile[c->type & 255]) stack_compile[c->type & 255] = s;
    if (st != DMLREF_OK) {
        printf("FAIL %s: dmlref_compile (arena %u bytes): %s %s %s\n", c->name, (unsigned)need,
               dmlref_status_name(err.code), err.rule, err.message);
        return -1;
    }
    b.cap = b.used + dmlref_execute_memory(op);
    dmlref_cbuffer in[MAX_T];
    dmlref_buffer out[MAX_T];
    size_t at = 0;
    for (uint32_t k = 0; k < c->n_inputs; ++k) in[k] = (dmlref_cbuffer){c->t[k].data, c->t[k].bytes};
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        const bm_tensor *t = &c->t[c->n_inputs + k];
        at = (at + 63) & ~(size_t)63;
        if (at + t->bytes > OUT_BYTES) {
            printf("FAIL %s: outputs exceed %u bytes\n", c->name, (unsigned)OUT_BYTES);
            return -1;
        }
        memcpy(outs[which] + at, t->data, t->bytes);
        out[k] = (dmlref_buffer){outs[which] + at, t->bytes};
        at += t->bytes;
    }
    paint(top);
    st = dmlref_execute(op, in, c->n_inputs, out, c->n_outputs, &err);
    s = used(top);
    if (s > stack_execute[c->type & 255]) stack_execute[c->type & 255] = s;
    dmlref_release(op);
    if (st != DMLREF_OK) {
        printf("FAIL %s: dmlref_execute: %s %s %s\n", c->name, dmlref_status_name(err.code), err.rule, err.message);
        return -1;
    }
    return 0;
}

static int is_nan(const unsigned char *p, uint32_t esize) {
    if (esize == 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        return (v & 0x7c00u) == 0x7c00u && (v & 0x3ffu);
    }
    if (esize == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu);
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return (v & 0x7ff0000000000000u) == 0x7ff0000000000000u && (v & 0xfffffffffffffu);
}

/* outs[which] against the case's expected values: the number of differing slots. */
static unsigned long compare_expected(const bm_case *c, int which) {
    unsigned long diff = 0;
    size_t at = 0;
    for (uint32_t k = 0; k < c->n_outputs; ++k) {
        const bm_tensor *t = &c->t[c->n_inputs + k];
        at = (at + 63) & ~(size_t)63;
        const unsigned char *got = outs[which] + at;
        for (uint64_t i = 0; t->expected && i < t->expected_slots; ++i) {
            const unsigned char *g = got + i * t->esize, *w = t->expected + i * t->esize;
            if (t->nan[i] ? !is_nan(g, t->esize) : memcmp(g, w, t->esize) != 0) ++diff;
        }
        at += t->bytes;
    }
    return diff;
}

static size_t outputs_bytes(const bm_case *c) {
    size_t at = 0;
    for (uint32_t k = 0; k < c->n_outputs; ++k) at = ((at + 63) & ~(size_t)63) + c->t[c->n_inputs + k].bytes;
    return at;
}

int main(void) {
    unsigned passed = 0, failed = 0, docs = 0, random = 0;
    for (unsigned i = 0; i < bm_case_count; ++i) {
        const bm_case *c = &bm_cases[i];
        const dmlref_schema *sc = dmlref_operator_schema((DMLREF_OPERATOR_TYPE)c->type);
        DMLREF_OPERATOR_DESC d;
        int ok = sc && build_desc(c, sc, &d) == 0;
        if (!ok) printf("FAIL %s: not built, or too large for the test's tables\n", c->name);
        ok = ok && run(c, &d, 0, 0) == 0 && run(c, &d, DMLREF_OPTION_FORCE_ORACLE, 1) == 0;
        if (ok) { /* DMLREF_NO_MALLOC: validate on its stack arena; compile without an allocator refused */
            dmlref_error err;
            dmlref_operator *op = NULL;
            const dmlref_status v = dmlref_validate(&d, (DMLREF_FEATURE_LEVEL)c->level, &err);
            const dmlref_status n = dmlref_compile(&d, (DMLREF_FEATURE_LEVEL)c->level, NULL, &op, &err);
            if (v != DMLREF_OK || n != DMLREF_ERROR_OPTIONS || op) {
                printf("FAIL %s: dmlref_validate %s (want DMLREF_OK), dmlref_compile without an allocator %s "
                       "(want DMLREF_ERROR_OPTIONS)\n", c->name, dmlref_status_name(v), dmlref_status_name(n));
                ok = 0;
            }
        }
        if (ok && c->has_expected) {
            const unsigned long fast = compare_expected(c, 0), oracle = compare_expected(c, 1);
            if (fast || oracle) {
                printf("FAIL %s: %lu values differ from expected (fast path), %lu (oracle)\n", c->name, fast, oracle);
                ok = 0;
            }
        } else if (ok && memcmp(outs[0], outs[1], outputs_bytes(c)) != 0) {
            printf("FAIL %s: the fast path's outputs differ from the oracle's\n", c->name);
            ok = 0;
        }
        if (ok) ++passed;
        else ++failed;
        if (c->has_expected) ++docs;
        else ++random;
    }
    /* A broken rule keeps its status, rule id and field in every build (MESSAGES=0: the
     * message is the rule id): GATHER's Axis past the input's dimensions is G3 on "Axis". */
    for (unsigned i = 0; i < bm_case_count; ++i) {
        const bm_case *c = &bm_cases[i];
        const dmlref_schema *sc = dmlref_operator_schema((DMLREF_OPERATOR_TYPE)c->type);
        DMLREF_OPERATOR_DESC d;
        if (c->type != DMLREF_OPERATOR_GATHER || !sc || build_desc(c, sc, &d) != 0) continue;
        ((DMLREF_GATHER_OPERATOR_DESC *)(void *)desc_mem)->Axis = 99;
        dmlref_error err;
        const dmlref_status st = dmlref_validate(&d, (DMLREF_FEATURE_LEVEL)c->level, &err);
        if (st == DMLREF_ERROR_PARAMETER && err.code == st && strcmp(err.rule, "G3") == 0 &&
            strcmp(err.field, "Axis") == 0 && err.message[0]) {
            ++passed;
        } else {
            printf("FAIL %s with Axis 99: %s, rule \"%s\", field \"%s\", message \"%s\" (want "
                   "DMLREF_ERROR_PARAMETER, G3, Axis, a message)\n",
                   c->name, dmlref_status_name(st), err.rule, err.field, err.message);
            ++failed;
        }
        break;
    }
    printf("stack bytes (painted; worst over the cases, fast path and oracle):\n");
    printf("| operator | dmlref_compile | dmlref_execute |\n|---|---:|---:|\n");
    size_t wc = 0, we = 0;
    for (uint32_t i = 0; dmlref_operator_schema_at(i); ++i) {
        const dmlref_schema *sc = dmlref_operator_schema_at(i);
        const size_t sc_ = stack_compile[sc->type & 255], se = stack_execute[sc->type & 255];
        printf("| %s | %u | %u |\n", sc->name, (unsigned)sc_, (unsigned)se);
        if (sc_ > wc) wc = sc_;
        if (se > we) we = se;
    }
    printf("| worst | %u | %u |\n", (unsigned)wc, (unsigned)we);
    printf("cases: %u documented examples, %u random (fast path vs oracle)\n", docs, random);
    printf("baremetal: %u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
