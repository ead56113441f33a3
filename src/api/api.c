/* The public lifecycle: validate, compile, execute, release, run. */
#include "core/env.h"
#include "core/registry.h"
#include "ops/kernels.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void dmlref_release(dmlref_operator *op) {
    if (!op) return;
    const dmlref_allocator al = op->alloc; /* op itself is freed through it last */
    if (op->plan && op->plan_free) op->plan_free(&al, op->plan);
#if OP_INLINE_TENSORS
    if (op->inputs != op->tensor_store) /* op_alloc_tensors allocated them */
#endif
    {
        mem_free(&al, op->inputs);
        mem_free(&al, op->outputs);
    }
    mem_free(&al, op);
}

/* The operators this build implements, for messages: "GATHER 67, ..." (only
 * named in a message's arguments, which DMLREF_MESSAGES=0 never evaluates) */
#if DMLREF_MESSAGES
static const char *built_list(char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    const dmlref_schema *sc;
    for (uint32_t i = 0; (sc = dmlref_operator_schema_at(i)) != NULL && len < cap; ++i)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s %u", i ? ", " : "", sc->name, (unsigned)sc->type);
    return buf;
}
#else
#define built_list(buf, cap) ((void)(cap), (const char *)(buf))
#endif

static const char *binding_name(const op_t *op, int is_output, uint32_t i, char *buf, size_t cap);

/* Validation never depends on the host; compiling does: every buffer must be
 * addressable here (TotalTensorSizeInBytes <= SIZE_MAX, which only a 32-bit
 * host can fail). */
static dmlref_status check_host_limits(const op_t *op, dmlref_error *err) {
    /* 64-bit: n_inputs + n_outputs may pass 2^32 - 1 (a JOIN of 2^32 - 1 pieces) */
    for (uint64_t i = 0; i < (uint64_t)op->n_inputs + op->n_outputs; ++i) {
        const int is_out = i >= op->n_inputs;
        const uint32_t k = (uint32_t)(is_out ? i - op->n_inputs : i);
        const tensor_t *t = is_out ? &op->outputs[k] : &op->inputs[k];
        if (t->total_bytes <= (uint64_t)SIZE_MAX) continue;
        char name[48];
        return set_error(err, DMLREF_ERROR_HOST_LIMIT,
                         "%s: %s.TotalTensorSizeInBytes (%" PRIu64 ") is valid but exceeds what this host can "
                         "address (SIZE_MAX %" PRIu64 "): it cannot be compiled or executed here",
                         op->name, binding_name(op, is_out, k, name, sizeof name), t->total_bytes,
                         (uint64_t)SIZE_MAX);
    }
    return DMLREF_OK;
}

static void clear_error(dmlref_error *err) {
    if (err) {
        err->code = DMLREF_OK;
        err->message[0] = '\0';
        err->rule[0] = '\0';
        err->field[0] = '\0';
    }
}

/* The desc's class at feature_level (desc not NULL): DMLREF_OK and *out, or the status. */
static dmlref_status find_class(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                                const op_class **out, dmlref_error *err) {
    support_t s;
    if (!feature_level_known((uint32_t)feature_level))
        return set_error(err, DMLREF_ERROR_FEATURE_LEVEL,
                         "feature level 0x%x is not a DirectML feature level (1_0 = 0x1000 ... 6_4 = 0x6400)",
                         (unsigned)feature_level);
    const op_class *cls = registry_find(desc->Type);
    char list[256];
    if (!cls && registry_left_out(desc->Type))
        return set_error(err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
                         "%s: not built into this library (build it with make OPS=\"...\" naming it, or without "
                         "OPS); this build has %s",
                         dmlref_operator_name(desc->Type), built_list(list, sizeof list));
    if (!cls)
        return set_error(err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, "operator type %u is not supported (%s)",
                         (unsigned)desc->Type, built_list(list, sizeof list));
    const char *name = cls->schema->name;
    if (!support_lookup(cls, (uint32_t)feature_level, &s))
        return set_error(err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
                         "%s: not available at feature level %s (introduced in %s)", name,
                         dmlref_feature_level_name(feature_level),
                         dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)cls->support[0].from));
    if (!desc->Desc) return set_error(err, DMLREF_ERROR_NULL_POINTER, "%s: DMLREF_OPERATOR_DESC.Desc is NULL", name);
    *out = cls;
    return DMLREF_OK;
}

/* options.threadpool (include/dmlref.h): a pool that can run something, and a thread
 * count it can honour. */
static dmlref_status check_threadpool(const char *name, const dmlref_options *options, dmlref_error *err) {
    const dmlref_threadpool *tp = options->threadpool;
    if (!tp) return DMLREF_OK;
    if (!tp->parallel_for)
        return set_error(err, DMLREF_ERROR_OPTIONS, "%s: options.threadpool->parallel_for is NULL", name);
    if (tp->threads == 0)
        return set_error(err, DMLREF_ERROR_OPTIONS,
                         "%s: options.threadpool->threads is 0 (a pool runs at least 1 task at once)", name);
    if (options->threads > tp->threads)
        return set_error(err, DMLREF_ERROR_OPTIONS,
                         "%s: options.threads (%u) exceeds options.threadpool->threads (%u), the tasks the pool "
                         "runs at once (0: as many as the pool runs)",
                         name, (unsigned)options->threads, (unsigned)tp->threads);
    return DMLREF_OK;
}

/* dmlref_compile and dmlref_validate: api names the caller in messages;
 * validate_only stops after the descriptor rules (no host limits, no plan). */
static dmlref_status compile_impl(const char *api, const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                                  const dmlref_options *options, int validate_only, dmlref_operator **out_op,
                                  dmlref_error *err) {
    static const dmlref_options defaults = {.flags = 0, .threads = 0, .allocator = NULL};
    clear_error(err);
    if (!out_op) return set_error(err, DMLREF_ERROR_NULL_POINTER, "%s: op is NULL", api);
    *out_op = NULL;
    if (!desc) return set_error(err, DMLREF_ERROR_NULL_POINTER, "%s: desc is NULL", api);
    const op_class *cls = NULL;
    TRY(find_class(desc, feature_level, &cls, err));
    const char *name = cls->schema->name;
    if (!options) options = &defaults;
    if (options->flags & ~(uint32_t)(DMLREF_OPTION_CHECK_INDICES | DMLREF_OPTION_FORCE_ORACLE | DMLREF_OPTION_BASELINE_ISA))
        return set_error(err, DMLREF_ERROR_OPTIONS, "%s: options.flags (0x%x) has unknown bits", name,
                         (unsigned)options->flags);
    TRY(check_threadpool(name, options, err));
#if DMLREF_NO_MALLOC
    if (!options->allocator)
        return set_error(err, DMLREF_ERROR_OPTIONS,
                         "%s: options.allocator is NULL and this build has no default allocator "
                         "(DMLREF_NO_MALLOC: every compile needs the caller's allocator)", name);
#endif
    const dmlref_allocator *al = options->allocator ? options->allocator : &mem_default;
    if (!al->alloc || !al->free)
        return set_error(err, DMLREF_ERROR_OPTIONS, "%s: options.allocator has a NULL %s", name,
                         al->alloc ? "free" : "alloc");

    op_t *op = mem_zalloc(al, sizeof *op); /* libc's memset: an inlined one of this size is `rep stos`, slow to start */
    if (!op) return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, "%s: out of memory for the compiled operator", name);
    op->cls = cls;
    op->type = desc->Type;
    op->name = name;
    op->feature_level = (uint32_t)feature_level;
    op->options = *options;
    if (options->threadpool) { /* the copy: the caller's struct need not outlive compile */
        op->pool = *options->threadpool;
        op->options.threadpool = &op->pool;
    }
    op->options.allocator = NULL; /* the caller's struct need not outlive compile: op->alloc is the copy */
    op->alloc = *al;
    dmlref_status st = cls->compile(op, desc->Desc, err);
    if (st == DMLREF_OK && !validate_only) st = check_host_limits(op, err);
    if (st == DMLREF_OK && !validate_only) {
        op->kernel = op->oracle;
        op->kernel_name = KERNEL_NAME(ORACLE);
        const int force = env_force_oracle(options->flags, &st, err); /* st: OPTIONS for a bad DMLREF_* variable */
        if (!force && cls->plan) st = cls->plan(op, err);
    }
    if (st != DMLREF_OK || validate_only) {
        dmlref_release(op);
        return st;
    }
    *out_op = op;
    return DMLREF_OK;
}

dmlref_status dmlref_compile(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                             const dmlref_options *options, dmlref_operator **out_op, dmlref_error *err) {
    return compile_impl("dmlref_compile", desc, feature_level, options, 0, out_op, err);
}

/* The counting allocator of dmlref_compile_memory: forwards to `to` and adds
 * up DMLREF_ALLOC_PADDED of every request (failed ones too: a bump allocator
 * needs the room before it can tell). */
typedef struct counting {
    const dmlref_allocator *to;
    uint64_t bytes;
} counting;

static void *counting_alloc(void *ctx, size_t size, size_t alignment) {
    counting *c = ctx;
    c->bytes += DMLREF_ALLOC_PADDED((uint64_t)size); /* size <= SIZE_MAX - 16 (mem_alloc): no wrap */
    return c->to->alloc(c->to->ctx, size, alignment);
}

static void counting_free(void *ctx, void *ptr) {
    counting *c = ctx;
    c->to->free(c->to->ctx, ptr);
}

dmlref_status dmlref_compile_memory(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                                    const dmlref_options *options, size_t *bytes, dmlref_error *err) {
    clear_error(err);
    if (!bytes) return set_error(err, DMLREF_ERROR_NULL_POINTER, "dmlref_compile_memory: bytes is NULL");
    *bytes = 0;
    dmlref_options o = {.flags = 0, .threads = 0};
    if (options) o = *options;
#if DMLREF_NO_MALLOC
    if (!o.allocator) /* the compile it runs needs memory: compile_impl's message */
        return compile_impl("dmlref_compile_memory", desc, feature_level, &o, 0, &(dmlref_operator *){NULL}, err);
#endif
    counting c = {o.allocator ? o.allocator : &mem_default, 0};
    if (!c.to->alloc || !c.to->free) c.to = &mem_default; /* compile_impl refuses it below, with its message */
    const dmlref_allocator counter = {counting_alloc, counting_free, &c};
    const dmlref_allocator *given = o.allocator;
    o.allocator = given && (!given->alloc || !given->free) ? given : &counter;
    dmlref_operator *op = NULL;
    const dmlref_status st = compile_impl("dmlref_compile_memory", desc, feature_level, &o, 0, &op, err);
    dmlref_release(op);
    if (st != DMLREF_OK) return st;
    if (c.bytes > (uint64_t)SIZE_MAX) /* a 32-bit host: the compile's own requests would have failed */
        return set_error(err, DMLREF_ERROR_OUT_OF_MEMORY, "dmlref_compile_memory: %s needs more than SIZE_MAX bytes",
                         dmlref_operator_name(desc->Type));
    *bytes = (size_t)c.bytes;
    return DMLREF_OK;
}

size_t dmlref_execute_memory(const dmlref_operator *op) {
    if (!op || !op->exec_request) return 0;
    if (op->exec_request > (uint64_t)SIZE_MAX - DMLREF_ALLOC_ALIGNMENT) return SIZE_MAX;
    return DMLREF_ALLOC_PADDED((size_t)op->exec_request);
}

dmlref_status dmlref_output_sizes(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                                  uint32_t output, uint32_t *dimension_count, uint32_t sizes[8], dmlref_error *err) {
    clear_error(err);
    if (!dimension_count || !sizes)
        return set_error(err, DMLREF_ERROR_NULL_POINTER, "dmlref_output_sizes: %s is NULL",
                         dimension_count ? "sizes" : "dimension_count");
    if (!desc) return set_error(err, DMLREF_ERROR_NULL_POINTER, "dmlref_output_sizes: desc is NULL");
    const op_class *cls = NULL;
    TRY(find_class(desc, feature_level, &cls, err));
    const dmlref_schema *sc = cls->schema;
    /* The outputs in binding order: the output slots, an array slot counting its count field. */
    uint32_t n_outputs = 0;
    for (uint32_t i = 0; i < sc->n_slots; ++i)
        if (sc->slots[i].is_output)
            n_outputs += sc->slots[i].is_array
                             ? *(const uint32_t *)(const void *)((const char *)desc->Desc + sc->slots[i].count_offset)
                             : 1u;
    if (output >= n_outputs)
        return set_error(err, DMLREF_ERROR_PARAMETER,
                         "dmlref_output_sizes: %s has %" PRIu32 " output%s; there is no output %" PRIu32, sc->name,
                         n_outputs, n_outputs == 1 ? "" : "s", output);
    if (!cls->output_sizes)
        return set_error(err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, "dmlref_output_sizes: %s has no output_sizes hook",
                         sc->name);
    op_t op;
    memset(&op, 0, sizeof op);
    op.cls = cls;
    op.type = desc->Type;
    op.name = sc->name;
    op.feature_level = (uint32_t)feature_level;
    uint32_t n = 0, got[MAX_DIMS];
    TRY(cls->output_sizes(&op, desc->Desc, output, &n, got, err));
    *dimension_count = n;
    for (uint32_t d = 0; d < n; ++d) sizes[d] = got[d];
    return DMLREF_OK;
}

#if DMLREF_NO_MALLOC
/* DMLREF_NO_MALLOC: dmlref_validate allocates from a bump arena of
 * DMLREF_VALIDATE_ARENA bytes on its own stack (the compiled operator's
 * structure and tensor descriptions; validation makes no other request).
 * A desc with more tensors than fit is DMLREF_ERROR_OUT_OF_MEMORY; then
 * dmlref_compile_memory + dmlref_compile validate it with the caller's memory. */
#ifndef DMLREF_VALIDATE_ARENA
#define DMLREF_VALIDATE_ARENA 2560
#endif
typedef struct stack_arena {
    unsigned char *base;
    size_t used, cap;
} stack_arena;

static void *arena_alloc(void *ctx, size_t size, size_t alignment) {
    stack_arena *a = ctx;
    const size_t at = (a->used + alignment - 1) & ~(alignment - 1);
    if (at > a->cap || size > a->cap - at) return NULL;
    a->used = at + size;
    return a->base + at;
}

static void arena_free(void *ctx, void *ptr) {
    (void)ctx, (void)ptr;
}
#endif

dmlref_status dmlref_validate(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                              dmlref_error *err) {
    dmlref_operator *op = NULL;
#if DMLREF_NO_MALLOC
    _Alignas(DMLREF_ALLOC_ALIGNMENT) unsigned char buf[DMLREF_VALIDATE_ARENA];
    stack_arena a = {buf, 0, sizeof buf};
    const dmlref_allocator al = {arena_alloc, arena_free, &a};
    const dmlref_options o = {.flags = 0, .threads = 0, .allocator = &al};
    return compile_impl("dmlref_validate", desc, feature_level, &o, 1, &op, err);
#else
    return compile_impl("dmlref_validate", desc, feature_level, NULL, 1, &op, err);
#endif
}

/* The desc field bound as input (or output) number i: the schema's slots in
 * order, an array slot taking as many bindings as its count. */
static const char *binding_name(const op_t *op, int is_output, uint32_t i, char *buf, size_t cap) {
    const dmlref_schema *sc = op->cls->schema;
    const uint32_t arrays = is_output ? op->n_outputs : op->n_inputs;
    uint32_t singles = 0;
    for (uint32_t k = 0; k < sc->n_slots; ++k)
        if (sc->slots[k].is_output == is_output && !sc->slots[k].is_array) ++singles;
    const uint32_t array_len = arrays - singles; /* the one array slot's count, if any */
    for (uint32_t k = 0; k < sc->n_slots; ++k) {
        const dmlref_tensor_slot *sl = &sc->slots[k];
        if (sl->is_output != is_output) continue;
        const uint32_t n = sl->is_array ? array_len : 1;
        if (i < n) {
            field_name(buf, cap, sl->name, sl->is_array ? i : FIELD_NO_INDEX);
            return buf;
        }
        i -= n;
    }
    field_name(buf, cap, "?", FIELD_NO_INDEX);
    return buf;
}

/* [a, a + na) and [b, b + nb) share a byte.  Written with differences, not
 * sums: a TotalTensorSizeInBytes near 2^64 would wrap a + na.  Without branches:
 * b - a (mod the pointer width) is below na exactly when b lies in a's range, and
 * the other way round (a range of 0 bytes holds nothing). */
static int ranges_overlap(const void *a, uint64_t na, const void *b, uint64_t nb) {
    const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return ((uint64_t)(uintptr_t)(pb - pa) < na) | ((uint64_t)(uintptr_t)(pa - pb) < nb);
}

/* Binding i (inputs first, then outputs) breaks B2, B3 or B4: the error, with
 * the binding's name (only computed here, off the hot path). */
static dmlref_status binding_error(const op_t *op, const dmlref_cbuffer *inputs, const dmlref_buffer *outputs,
                                   uint32_t n_inputs, uint64_t i, dmlref_error *err) {
    char name[48];
    const int is_out = i >= n_inputs;
    const uint32_t k = (uint32_t)(is_out ? i - n_inputs : i);
    const tensor_t *t = is_out ? &op->outputs[k] : &op->inputs[k];
    const void *data = is_out ? outputs[k].data : inputs[k].data;
    const size_t size = is_out ? outputs[k].size : inputs[k].size;
    binding_name(op, is_out, k, name, sizeof name);
    if (!data) return set_rule_error(err, DMLREF_ERROR_BINDING, "B2", name, NULL, "%s: the %s buffer is NULL", op->name, name);
    if ((uint64_t)size < t->total_bytes)
        return set_rule_error(err, DMLREF_ERROR_BINDING, "B3", name, NULL,
                              "%s: the %s buffer holds %zu bytes, less than its TotalTensorSizeInBytes (%" PRIu64 ")",
                              op->name, name, size, t->total_bytes);
    return set_rule_error(err, DMLREF_ERROR_BINDING, "B4", name, NULL,
                          "%s: the %s buffer at %p is not a multiple of its GuaranteedBaseOffsetAlignment (%" PRIu32 ")",
                          op->name, name, data, t->align);
}

/* Every binding rule (B1-B5), every call: the checks cost a few compares per
 * buffer; messages (and binding names) are only formatted on failure. */
/* B5: output k overlaps input i (other_is_output 0) or output i.  A function of its
 * own, not inlined: the names' buffers stay off execute's stack until an error. */
static DMLREF_NOINLINE dmlref_status overlap_error(const op_t *op, uint32_t k, int other_is_output, uint32_t i, dmlref_error *err) {
    char name[48], other[48];
    return set_rule_error(err, DMLREF_ERROR_BINDING, "B5", binding_name(op, 1, k, name, sizeof name), NULL,
                          "%s: the %s buffer overlaps the %s buffer", op->name, name,
                          binding_name(op, other_is_output, i, other, sizeof other));
}

/* A buffer that B2-B4 accept for tensor t. */
static inline int buffer_fits(const void *data, size_t size, const tensor_t *t) {
    return data && (uint64_t)size >= t->total_bytes && ((uintptr_t)data & t->align_mask) == 0;
}

static dmlref_status check_bindings(const op_t *op, const dmlref_cbuffer *inputs, uint32_t n_inputs,
                                    const dmlref_buffer *outputs, uint32_t n_outputs, dmlref_error *err) {
    if (n_inputs != op->n_inputs || n_outputs != op->n_outputs)
        return set_rule_error(err, DMLREF_ERROR_BINDING, "B1", NULL, NULL,
                         "%s: execute was given %" PRIu32 " input and %" PRIu32 " output buffers; the operator binds %" PRIu32
                         " and %" PRIu32,
                         op->name, n_inputs, n_outputs, op->n_inputs, op->n_outputs);
    if ((n_inputs && !inputs) || (n_outputs && !outputs))
        return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "B2", NULL, NULL, "%s: the %s buffer array is NULL", op->name,
                         n_inputs && !inputs ? "input" : "output");
    for (uint32_t k = 0; k < n_inputs; ++k)
        if (!buffer_fits(inputs[k].data, inputs[k].size, &op->inputs[k]))
            return binding_error(op, inputs, outputs, n_inputs, k, err);
    for (uint32_t k = 0; k < n_outputs; ++k)
        if (!buffer_fits(outputs[k].data, outputs[k].size, &op->outputs[k]))
            return binding_error(op, inputs, outputs, n_inputs, (uint64_t)n_inputs + k, err);
    /* An output may not overlap any input or another output; an in-place
     * operator's output may be its input's very buffer. */
    const int in_place = (op->cls->schema->flags & DMLREF_SCHEMA_IN_PLACE) != 0;
    for (uint32_t k = 0; k < n_outputs; ++k) {
        const uint64_t ok = op->outputs[k].total_bytes;
        for (uint32_t i = 0; i < n_inputs; ++i)
            if (ranges_overlap(outputs[k].data, ok, inputs[i].data, op->inputs[i].total_bytes) &&
                !(in_place && outputs[k].data == inputs[i].data))
                return overlap_error(op, k, 0, i, err);
        for (uint32_t i = 0; i < k; ++i)
            if (ranges_overlap(outputs[k].data, ok, outputs[i].data, op->outputs[i].total_bytes))
                return overlap_error(op, k, 1, i, err);
    }
    return DMLREF_OK;
}

/* B2-B5 for n_inputs inputs and one output, the counts and arrays checked (B1, B2). */
static inline int bindings_hold1(const op_t *op, const dmlref_cbuffer *inputs, uint32_t n_inputs,
                                 const dmlref_buffer *outputs) {
    const void *out = outputs[0].data;
    const uint64_t out_bytes = op->outputs[0].total_bytes;
    if (!buffer_fits(out, outputs[0].size, &op->outputs[0])) return 0;
    for (uint32_t k = 0; k < n_inputs; ++k) {
        const tensor_t *t = &op->inputs[k];
        if (!buffer_fits(inputs[k].data, inputs[k].size, t) ||
            (ranges_overlap(out, out_bytes, inputs[k].data, t->total_bytes) &&
             !(out == inputs[k].data && (op->cls->schema->flags & DMLREF_SCHEMA_IN_PLACE))))
            return 0;
    }
    return 1;
}

/* The same for two outputs (TOP_K, TOP_K1, NONZERO_COORDINATES, a SPLIT in two; an operator that
 * may run in place takes check_bindings, which knows its exception): each
 * output fits and overlaps neither the other nor any input. */
static inline int bindings_hold2(const op_t *op, const dmlref_cbuffer *inputs, uint32_t n_inputs,
                                 const dmlref_buffer *outputs) {
    const void *o0 = outputs[0].data, *o1 = outputs[1].data;
    const uint64_t b0 = op->outputs[0].total_bytes, b1 = op->outputs[1].total_bytes;
    if (!buffer_fits(o0, outputs[0].size, &op->outputs[0]) || !buffer_fits(o1, outputs[1].size, &op->outputs[1]) ||
        ranges_overlap(o0, b0, o1, b1) || (op->cls->schema->flags & DMLREF_SCHEMA_IN_PLACE))
        return 0;
    for (uint32_t k = 0; k < n_inputs; ++k) {
        const tensor_t *t = &op->inputs[k];
        if (!buffer_fits(inputs[k].data, inputs[k].size, t) || ranges_overlap(o0, b0, inputs[k].data, t->total_bytes) ||
            ranges_overlap(o1, b1, inputs[k].data, t->total_bytes))
            return 0;
    }
    return 1;
}

dmlref_status dmlref_execute(const dmlref_operator *op, const dmlref_cbuffer *inputs, uint32_t n_inputs,
                             const dmlref_buffer *outputs, uint32_t n_outputs, dmlref_error *err) {
    if (!op) return set_error(err, DMLREF_ERROR_NULL_POINTER, "dmlref_execute: op is NULL");
    /* One output (all but SPLIT, TOP_K, TOP_K1, NONZERO_COORDINATES) or two: B1-B5 in one pass
     * over the inputs, each tested against the outputs; any other binding, or one that breaks a
     * rule, through check_bindings, which finds the first rule broken and says which. */
    if (!(n_outputs == op->n_outputs && n_inputs == op->n_inputs && outputs && (inputs || !n_inputs) &&
          (n_outputs == 1   ? bindings_hold1(op, inputs, n_inputs, outputs)
           : n_outputs == 2 ? bindings_hold2(op, inputs, n_inputs, outputs)
                            : 0)))
        TRY(check_bindings(op, inputs, n_inputs, outputs, n_outputs, err));
    const exec_args args = {inputs, outputs};
    if ((op->options.flags & DMLREF_OPTION_CHECK_INDICES) && op->check) TRY(op->check(op, &args, err));
    return op->kernel(op, &args, err);
}

dmlref_status dmlref_defined_elements(const dmlref_operator *op, const dmlref_buffer *outputs, uint32_t n_outputs,
                                      uint32_t output, uint64_t *defined, dmlref_error *err) {
    clear_error(err);
    if (!op || !defined)
        return set_error(err, DMLREF_ERROR_NULL_POINTER, "dmlref_defined_elements: %s is NULL", op ? "defined" : "op");
    if (output >= op->n_outputs)
        return set_error(err, DMLREF_ERROR_PARAMETER,
                         "dmlref_defined_elements: %s has %" PRIu32 " output%s; there is no output %" PRIu32, op->name,
                         op->n_outputs, op->n_outputs == 1 ? "" : "s", output);
    *defined = op->outputs[output].elements;
    if (!op->defined) return DMLREF_OK;
    if (n_outputs != op->n_outputs)
        return set_rule_error(err, DMLREF_ERROR_BINDING, "B1", NULL, NULL,
                              "%s: dmlref_defined_elements was given %" PRIu32
                              " output buffers; the operator binds %" PRIu32,
                              op->name, n_outputs, op->n_outputs);
    if (!outputs) return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "B2", NULL, NULL, "%s: the output buffer array is NULL", op->name);
    for (uint32_t k = 0; k < n_outputs; ++k)
        if (!outputs[k].data || (uint64_t)outputs[k].size < op->outputs[k].total_bytes)
            return set_rule_error(err, DMLREF_ERROR_BINDING, "B3", NULL, NULL,
                                  "%s: dmlref_defined_elements: output buffer %" PRIu32 " is NULL or too small",
                                  op->name, k);
    op->defined(op, outputs, output, defined);
    return DMLREF_OK;
}

/* dmlref_run with the default allocator: the compiled operator, its tensors and its plan
 * come from a bump arena of DMLREF_RUN_ARENA bytes on run's own stack, and only what does
 * not fit from malloc (a tiny call then makes no malloc or free; glibc's took about a
 * fifth of such a run's instructions).  0 turns it off; SMALL=1 and DMLREF_NO_MALLOC
 * builds (whose callers give an allocator) have none. */
#ifndef DMLREF_RUN_ARENA
#if DMLREF_SMALL || DMLREF_NO_MALLOC
#define DMLREF_RUN_ARENA 0
#else
#define DMLREF_RUN_ARENA 4096
#endif
#endif
#if DMLREF_RUN_ARENA
typedef struct run_arena {
    unsigned char *base;
    size_t used;
} run_arena;

static void *run_alloc(void *ctx, size_t size, size_t alignment) {
    run_arena *a = ctx;
    const size_t at = (a->used + alignment - 1) & ~(alignment - 1);
    if (at <= DMLREF_RUN_ARENA && size <= DMLREF_RUN_ARENA - at) {
        a->used = at + size;
        return a->base + at;
    }
    return mem_default.alloc(mem_default.ctx, size, alignment);
}

static void run_free(void *ctx, void *ptr) {
    const run_arena *a = ctx;
    if ((uintptr_t)ptr - (uintptr_t)a->base < DMLREF_RUN_ARENA) return; /* the arena's: freed with it */
    mem_default.free(mem_default.ctx, ptr);
}
#endif

dmlref_status dmlref_run(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                         const dmlref_options *options, const dmlref_cbuffer *inputs, uint32_t n_inputs,
                         const dmlref_buffer *outputs, uint32_t n_outputs, dmlref_error *err) {
    dmlref_operator *op = NULL;
#if DMLREF_RUN_ARENA
    _Alignas(DMLREF_ALLOC_ALIGNMENT) unsigned char buf[DMLREF_RUN_ARENA];
    run_arena arena = {buf, 0};
    const dmlref_allocator on_stack = {run_alloc, run_free, &arena};
    dmlref_options o;
    if (!options || !options->allocator) {
        if (options) o = *options;
        else o = (dmlref_options){.flags = 0, .threads = 0, .allocator = NULL};
        o.allocator = &on_stack;
        options = &o;
    }
#endif
    TRY(dmlref_compile(desc, feature_level, options, &op, err));
    const dmlref_status st = dmlref_execute(op, inputs, n_inputs, outputs, n_outputs, err);
    dmlref_release(op);
    return st;
}

uint32_t dmlref_input_count(const dmlref_operator *op) { return op ? op->n_inputs : 0; }
uint32_t dmlref_output_count(const dmlref_operator *op) { return op ? op->n_outputs : 0; }
const char *dmlref_kernel_name(const dmlref_operator *op) { return op ? op->kernel_name : NULL; }
