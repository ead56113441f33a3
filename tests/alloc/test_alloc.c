/*
 * The caller's allocator (include/dmlref.h: dmlref_allocator, dmlref_compile_memory,
 * dmlref_execute_memory) over random valid cases of every operator, drawn by the
 * builders (builders/builder.h, `dmlref gen`'s), each compiled with the option
 * variants of `variants` below (threads = 1):
 *
 *   sizes    dmlref_compile_memory is the sum of DMLREF_ALLOC_PADDED over the
 *            requests a counting allocator sees in a compile; a bump allocator
 *            over a buffer of exactly that many bytes compiles, one byte less
 *            fails with DMLREF_ERROR_OUT_OF_MEMORY; each execute from a fresh bump
 *            arena of exactly dmlref_execute_memory bytes succeeds with outputs
 *            byte-identical to a default-options (malloc) compile and execute, and
 *            one that made a request fails with one byte less, outputs untouched;
 *            ELEMENT_WISE_IDENTITY (the in-place operator) also in place;
 *   oom      the allocator fails its Nth request, for every N of the compile:
 *            OUT_OF_MEMORY with a message, no operator, nothing left allocated;
 *            and the execute's request: OUT_OF_MEMORY, outputs (in place: the
 *            buffer) untouched, nothing left after release;
 *   no libc  with an allocator set, compile, execute and release call none of
 *            libc's malloc, calloc, realloc, free, posix_memalign, aligned_alloc
 *            (the binary is linked with -Wl,--wrap of each: the traps below count
 *            calls while `trapping` is set).  threads = 1: with more, OpenMP's
 *            runtime may allocate inside libgomp (not the library's call).
 *
 *   test_alloc [CASES_PER_OPERATOR [SEED]]     (default 40, 1)
 * Prints what it covered, the checks, and "alloc: N passed, N failed" over the
 * (case, variant) pairs (one fails when any of its checks does).
 */
#include "builders/builder.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FL DMLREF_FEATURE_LEVEL_6_4

/* ---- the traps: libc's allocation functions, counted while trapping -------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
int __real_posix_memalign(void **p, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);

static int trapping;
static unsigned long trapped;

void *__wrap_malloc(size_t size) {
    trapped += trapping;
    return __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size) {
    trapped += trapping;
    return __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t size) {
    trapped += trapping;
    return __real_realloc(p, size);
}
void __wrap_free(void *p) {
    trapped += trapping;
    __real_free(p);
}
int __wrap_posix_memalign(void **p, size_t align, size_t size) {
    trapped += trapping;
    return __real_posix_memalign(p, align, size);
}
void *__wrap_aligned_alloc(size_t align, size_t size) {
    trapped += trapping;
    return __real_aligned_alloc(align, size);
}

/* ---- results ----------------------------------------------------------------- */

static unsigned long passed, failed; /* checks */
static unsigned long units_passed, units_failed; /* (case, variant) pairs: the result line's */
static const char *cur_op;
static uint64_t cur_case;
static const char *cur_variant;

static void check_at(int ok, int line, const char *what) {
    if (ok) {
        ++passed;
        return;
    }
    ++failed;
    if (failed <= 30)
        printf("FAIL line %d: %s: %s case %llu (%s)\n", line, what, cur_op, (unsigned long long)cur_case,
               cur_variant);
}
#define CHECK(cond, what) check_at((cond) != 0, __LINE__, what)

/* ---- the test allocators ------------------------------------------------------- */

/* Counting: malloc-backed (libc's real one), every request counted and checked
 * (alignment, size); fails the request numbered fail_at (1-based; 0: none). */
typedef struct tracker {
    unsigned long requests, live, bad;
    uint64_t padded; /* sum of DMLREF_ALLOC_PADDED over the requests */
    unsigned long fail_at;
} tracker;

static void *track_alloc(void *ctx, size_t size, size_t alignment) {
    tracker *t = ctx;
    ++t->requests;
    t->padded += DMLREF_ALLOC_PADDED(size);
    if (alignment != DMLREF_ALLOC_ALIGNMENT || size == 0) ++t->bad;
    if (t->fail_at && t->requests == t->fail_at) return NULL;
    void *p = NULL; /* posix_memalign: armhf's malloc aligns to 8 only */
    if (__real_posix_memalign(&p, DMLREF_ALLOC_ALIGNMENT, size ? size : 1) != 0) p = NULL;
    if (p && ((uintptr_t)p & (alignment - 1))) ++t->bad;
    if (p) ++t->live;
    return p;
}

static void track_free(void *ctx, void *p) {
    tracker *t = ctx;
    if (!p || !t->live) ++t->bad;
    --t->live;
    __real_free(p);
}

/* Bump: hands out DMLREF_ALLOC_PADDED(size) bytes of `arena` (base aligned) in
 * order, never reuses; frees are counted only.  The arena can be switched
 * (compile's, then a fresh one per execute). */
typedef struct bump {
    unsigned char *base;
    size_t cap, used;
    unsigned long requests, live;
} bump;

static void *bump_alloc(void *ctx, size_t size, size_t alignment) {
    bump *b = ctx;
    (void)alignment;
    const size_t need = DMLREF_ALLOC_PADDED(size);
    ++b->requests;
    if (need > b->cap - b->used) return NULL;
    void *p = b->base + b->used;
    b->used += need;
    ++b->live;
    return p;
}

static void bump_free(void *ctx, void *p) {
    bump *b = ctx;
    (void)p;
    --b->live;
}

/* An arena of exactly cap bytes at a multiple of DMLREF_ALLOC_ALIGNMENT
 * (posix_memalign: malloc aligns to 8 only on armhf; exact, so that ASan sees a
 * write past it). */
static unsigned char *arena_new(size_t cap) {
    void *p = NULL;
    if (__real_posix_memalign(&p, DMLREF_ALLOC_ALIGNMENT, cap ? cap : 1) != 0) p = NULL;
    unsigned char *a = p;
    if (!a || ((uintptr_t)a & (DMLREF_ALLOC_ALIGNMENT - 1))) {
        printf("alloc: cannot make an aligned arena of %zu bytes\n", cap);
        exit(2);
    }
    return a;
}

static void bump_reset(bump *b, unsigned char *arena, size_t cap) {
    b->base = arena;
    b->cap = cap;
    b->used = 0;
    b->requests = 0;
}

/* ---- buffers ------------------------------------------------------------------ */

#define SENTINEL 0xA5

typedef struct outs {
    dmlref_buffer b[GEN_MAX_TENSORS];
    uint32_t n;
} outs;

static void outs_new(outs *o, const dmlref_case *c) {
    o->n = c->n_outputs;
    for (uint32_t k = 0; k < o->n; ++k) {
        o->b[k].size = c->out_bufs[k].size;
        o->b[k].data = __real_malloc(o->b[k].size ? o->b[k].size : 1);
        memset(o->b[k].data, SENTINEL, o->b[k].size);
    }
}

static void outs_fill(outs *o) {
    for (uint32_t k = 0; k < o->n; ++k) memset(o->b[k].data, SENTINEL, o->b[k].size);
}

static int outs_equal(const outs *a, const outs *b) {
    for (uint32_t k = 0; k < a->n; ++k)
        if (memcmp(a->b[k].data, b->b[k].data, a->b[k].size) != 0) return 0;
    return 1;
}

static int outs_untouched(const outs *o) {
    for (uint32_t k = 0; k < o->n; ++k)
        for (size_t i = 0; i < o->b[k].size; ++i)
            if (((const unsigned char *)o->b[k].data)[i] != SENTINEL) return 0;
    return 1;
}

static void outs_free(outs *o) {
    for (uint32_t k = 0; k < o->n; ++k) __real_free(o->b[k].data);
}

/* In place (ELEMENT_WISE_IDENTITY): one buffer holding the input, bound as both. */
typedef struct inplace {
    unsigned char *buf, *init;
    size_t size;
    dmlref_cbuffer in;
    dmlref_buffer out;
} inplace;

static void inplace_new(inplace *p, const dmlref_case *c) {
    const size_t in_size = c->in_bufs[0].size, out_size = c->out_bufs[0].size;
    p->size = in_size > out_size ? in_size : out_size;
    p->buf = __real_malloc(p->size);
    p->init = __real_malloc(p->size);
    memset(p->init, SENTINEL, p->size);
    memcpy(p->init, c->in_bufs[0].data, in_size);
    memcpy(p->buf, p->init, p->size);
    p->in = (dmlref_cbuffer){p->buf, in_size};
    p->out = (dmlref_buffer){p->buf, out_size};
}

static void inplace_reset(inplace *p) { memcpy(p->buf, p->init, p->size); }

static void inplace_free(inplace *p) {
    __real_free(p->buf);
    __real_free(p->init);
}

/* ---- one case ------------------------------------------------------------------ */

static const struct {
    uint32_t flags;
    const char *name;
} variants[] = {
    {0, "default"},
    {DMLREF_OPTION_CHECK_INDICES, "checking"},
    {DMLREF_OPTION_FORCE_ORACLE | DMLREF_OPTION_CHECK_INDICES, "oracle, checking"},
};

static unsigned long n_cases, n_compile_points, n_exec_points, n_exec_requests, n_inplace, n_tight_compile,
    n_tight_exec, n_trap_runs;
static uint64_t max_compile_bytes;

/* Executes op (compiled with tracker t, which is its allocator) in every way:
 * with no failure (outputs == ref), and with its one request failed. */
static void exec_oom(const dmlref_case *c, dmlref_operator *op, tracker *t, const outs *ref, outs *got,
                     inplace *ip, const unsigned char *ip_ref) {
    const size_t em = dmlref_execute_memory(op);
    for (int in_place = 0; in_place <= (ip != NULL); ++in_place) {
        const dmlref_cbuffer *ins = in_place ? &ip->in : c->in_bufs;
        const dmlref_buffer *os = in_place ? &ip->out : got->b;
        const unsigned long live = t->live;
        /* how many requests does this execute make? */
        t->requests = 0;
        t->padded = 0;
        t->fail_at = 0;
        if (in_place) inplace_reset(ip);
        else outs_fill(got);
        dmlref_error err;
        dmlref_status st = dmlref_execute(op, ins, c->n_inputs, os, c->n_outputs, &err);
        CHECK(st == DMLREF_OK, "execute with a counting allocator");
        CHECK(in_place ? memcmp(ip->buf, ip_ref, ip->size) == 0 : outs_equal(got, ref), "outputs as malloc's");
        CHECK(t->requests <= 1, "an execute makes at most one request");
        CHECK(t->padded == (t->requests ? em : 0), "the execute's request is dmlref_execute_memory");
        CHECK(t->live == live, "execute frees what it allocates");
        const unsigned long points = t->requests;
        for (unsigned long n = 1; n <= points; ++n) {
            ++n_exec_points;
            t->requests = 0;
            t->fail_at = n;
            if (in_place) inplace_reset(ip);
            else outs_fill(got);
            memset(&err, 0, sizeof err);
            st = dmlref_execute(op, ins, c->n_inputs, os, c->n_outputs, &err);
            CHECK(st == DMLREF_ERROR_OUT_OF_MEMORY, "a failed execute request: OUT_OF_MEMORY");
            CHECK(err.code == DMLREF_ERROR_OUT_OF_MEMORY && err.message[0], "... with a message");
            CHECK(in_place ? memcmp(ip->buf, ip->init, ip->size) == 0 : outs_untouched(got),
                  "a failed execute leaves the outputs untouched");
            CHECK(t->live == live, "a failed execute frees what it allocated");
        }
        t->fail_at = 0;
    }
}

/* The bump arenas: compile from exactly cm bytes, execute from exactly em. */
static void bump_runs(const dmlref_case *c, uint32_t flags, size_t cm, const outs *ref, outs *got, inplace *ip,
                      const unsigned char *ip_ref) {
    bump b = {0};
    const dmlref_allocator al = {bump_alloc, bump_free, &b};
    const dmlref_options o = {.flags = flags, .threads = 1, .allocator = &al};
    dmlref_error err;
    dmlref_operator *op = NULL;

    unsigned char *carena = arena_new(cm);
    bump_reset(&b, carena, cm);
    dmlref_status st = dmlref_compile(&c->desc, FL, &o, &op, &err);
    CHECK(st == DMLREF_OK, "compile from a bump arena of dmlref_compile_memory bytes");
    CHECK(b.used == cm, "the compile used the whole arena (the query is tight)");
    if (st != DMLREF_OK) {
        __real_free(carena);
        return;
    }
    const size_t em = dmlref_execute_memory(op);
    for (int in_place = 0; in_place <= (ip != NULL); ++in_place) {
        const dmlref_cbuffer *ins = in_place ? &ip->in : c->in_bufs;
        const dmlref_buffer *os = in_place ? &ip->out : got->b;
        unsigned char *earena = arena_new(em);
        bump_reset(&b, earena, em);
        if (in_place) inplace_reset(ip);
        else outs_fill(got);
        st = dmlref_execute(op, ins, c->n_inputs, os, c->n_outputs, &err);
        CHECK(st == DMLREF_OK, "execute from a bump arena of dmlref_execute_memory bytes");
        CHECK(in_place ? memcmp(ip->buf, ip_ref, ip->size) == 0 : outs_equal(got, ref),
              "outputs byte-identical to a default-options compile and execute");
        const unsigned long requests = b.requests;
        n_exec_requests += requests;
        if (in_place && requests) ++n_inplace; /* a snapshot: the layouts differ */
        if (requests && em > 0) { /* one byte less: the request fails, nothing is written */
            ++n_tight_exec;
            bump_reset(&b, earena, em - 1);
            if (in_place) inplace_reset(ip);
            else outs_fill(got);
            st = dmlref_execute(op, ins, c->n_inputs, os, c->n_outputs, &err);
            CHECK(st == DMLREF_ERROR_OUT_OF_MEMORY, "execute from dmlref_execute_memory - 1 bytes: OUT_OF_MEMORY");
            CHECK(in_place ? memcmp(ip->buf, ip->init, ip->size) == 0 : outs_untouched(got),
                  "... outputs untouched");
        }
        __real_free(earena);
    }
    dmlref_release(op);
    CHECK(b.live == 0, "release frees everything the bump allocator handed out");
    __real_free(carena);

    /* one byte less for the compile */
    ++n_tight_compile;
    unsigned char *small = arena_new(cm - 1);
    bump_reset(&b, small, cm - 1);
    b.live = 0;
    op = NULL;
    st = dmlref_compile(&c->desc, FL, &o, &op, &err);
    CHECK(st == DMLREF_ERROR_OUT_OF_MEMORY && op == NULL, "compile from dmlref_compile_memory - 1 bytes: OUT_OF_MEMORY");
    CHECK(b.live == 0, "a failed compile frees what it allocated");
    dmlref_release(op);
    __real_free(small);
}

static void run_case(const dmlref_case *c) {
    const int identity = c->type == DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY;
    outs ref, got;
    outs_new(&ref, c);
    outs_new(&got, c);
    inplace ip;
    unsigned char *ip_ref = NULL;
    if (identity) inplace_new(&ip, c);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
        cur_variant = variants[v].name;
        const uint32_t flags = variants[v].flags;
        const unsigned long failed_before = failed;
        dmlref_error err;
        dmlref_operator *op = NULL;

        /* the reference: default options (malloc), threads 1 */
        const dmlref_options plain = {.flags = flags, .threads = 1};
        dmlref_status st = dmlref_compile(&c->desc, FL, &plain, &op, &err);
        CHECK(st == DMLREF_OK, "default compile");
        if (st != DMLREF_OK) {
            ++units_failed;
            continue;
        }
        outs_fill(&ref);
        st = dmlref_execute(op, c->in_bufs, c->n_inputs, ref.b, c->n_outputs, &err);
        CHECK(st == DMLREF_OK, "default execute");
        if (identity) {
            inplace_reset(&ip);
            st = dmlref_execute(op, &ip.in, 1, &ip.out, 1, &err);
            CHECK(st == DMLREF_OK, "default execute in place");
            ip_ref = __real_malloc(ip.size);
            memcpy(ip_ref, ip.buf, ip.size);
        }
        dmlref_release(op);

        /* the query, and a counting compile: the same requests */
        size_t cm = 0;
        st = dmlref_compile_memory(&c->desc, FL, &plain, &cm, &err);
        CHECK(st == DMLREF_OK && cm > 0, "dmlref_compile_memory");
        if (cm > max_compile_bytes) max_compile_bytes = cm;
        tracker t = {0};
        const dmlref_allocator tal = {track_alloc, track_free, &t};
        const dmlref_options tracked = {.flags = flags, .threads = 1, .allocator = &tal};
        op = NULL;
        trapping = 1;
        trapped = 0;
        st = dmlref_compile(&c->desc, FL, &tracked, &op, &err);
        trapping = 0;
        CHECK(st == DMLREF_OK, "compile with a counting allocator");
        CHECK(t.padded == cm, "dmlref_compile_memory == the counted requests");
        CHECK(t.bad == 0, "every request: size > 0, alignment DMLREF_ALLOC_ALIGNMENT, aligned");
        const unsigned long compile_requests = t.requests;
        if (st == DMLREF_OK) {
            trapping = 1;
            exec_oom(c, op, &t, &ref, &got, identity ? &ip : NULL, ip_ref);
            dmlref_release(op);
            trapping = 0;
            CHECK(trapped == 0, "no libc allocation call in compile, execute, release with an allocator set");
            ++n_trap_runs;
        }
        CHECK(t.live == 0 && t.bad == 0, "release frees everything, once");

        /* every compile request failed in turn */
        for (unsigned long n = 1; n <= compile_requests; ++n) {
            ++n_compile_points;
            tracker f = {.fail_at = n};
            const dmlref_allocator fal = {track_alloc, track_free, &f};
            const dmlref_options failing = {.flags = flags, .threads = 1, .allocator = &fal};
            dmlref_operator *fop = (dmlref_operator *)&f; /* compile must set it to NULL */
            memset(&err, 0, sizeof err);
            trapping = 1;
            st = dmlref_compile(&c->desc, FL, &failing, &fop, &err);
            trapping = 0;
            CHECK(st == DMLREF_ERROR_OUT_OF_MEMORY, "a failed compile request: OUT_OF_MEMORY");
            CHECK(err.code == DMLREF_ERROR_OUT_OF_MEMORY && err.message[0], "... with a message");
            CHECK(fop == NULL, "... and no operator");
            CHECK(f.live == 0 && f.bad == 0, "a failed compile frees what it allocated");
            CHECK(trapped == 0, "no libc allocation call in a failed compile");
            if (st == DMLREF_OK) dmlref_release(fop);
        }

        bump_runs(c, flags, cm, &ref, &got, identity ? &ip : NULL, ip_ref);
        __real_free(ip_ref);
        ip_ref = NULL;
        if (failed == failed_before) ++units_passed;
        else ++units_failed;
    }
    if (identity) inplace_free(&ip);
    outs_free(&ref);
    outs_free(&got);
    ++n_cases;
}

int main(int argc, char **argv) {
    const unsigned long per_op = argc > 1 ? strtoul(argv[1], NULL, 10) : 40;
    const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    const dmlref_schema *sc;
    unsigned ops = 0;
    for (uint32_t i = 0; (sc = dmlref_operator_schema_at(i)) != NULL; ++i) {
        const builder *b = builder_find(sc->type);
        cur_op = sc->name;
        if (!b) {
            CHECK(0, "no builder");
            continue;
        }
        ++ops;
        prng r = {seed * 1000003u + sc->type};
        unsigned long made = 0;
        for (unsigned long attempt = 0; made < per_op && attempt < per_op * 50; ++attempt) {
            dmlref_case c;
            if (bld_case_init(&c, sc->type)) break;
            int rc = b->build(&r, &c);
            for (uint32_t k = 0; rc == 0 && k < c.n_inputs; ++k) rc = c.inputs[k].data ? 0 : -1;
            for (uint32_t k = 0; rc == 0 && k < c.n_outputs; ++k) rc = c.outputs[k].data ? 0 : -1;
            if (rc == 0) {
                bld_bind(&c);
                dmlref_error err;
                if (dmlref_validate(&c.desc, FL, &err) == DMLREF_OK) {
                    cur_case = made++;
                    run_case(&c);
                }
            }
            bld_case_free(&c);
        }
        CHECK(made == per_op, "the builder drew its cases");
    }
    printf("alloc: %lu cases of %u operators x %zu option variants; compile: %lu failure points, largest "
           "dmlref_compile_memory %llu bytes; execute: %lu requests from exact bump arenas (%lu one byte short, %lu in-place snapshots), "
           "%lu failure points; %lu compile arenas one byte short; %lu compile+execute+release runs trapped\n",
           n_cases, ops, sizeof variants / sizeof variants[0], n_compile_points, (unsigned long long)max_compile_bytes,
           n_exec_requests, n_tight_exec, n_inplace, n_exec_points, n_tight_compile, n_trap_runs);
    printf("alloc: %lu checks passed, %lu failed\n", passed, failed);
    /* the result line counts (case, variant) pairs, each passed when all its checks did */
    printf("alloc: %lu passed, %lu failed\n", units_passed, units_failed + (failed && !units_failed));
    return failed != 0;
}
