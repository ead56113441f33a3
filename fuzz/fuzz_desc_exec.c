/*
 * libFuzzer target: operator descriptors executed through the oracle and the
 * fast paths, byte for byte.
 *
 * Inputs are those of fuzz_desc_valid (the byte format: fuzz/desc_decode.h).
 * Descriptors whose buffers total more than 256 KiB, whose tensors hold more
 * than 8192 elements together, or with an alignment above 4096 are skipped
 * before anything is compiled (small_enough): the bugs this target looks for
 * live mostly in shapes, strides, counts and index values, and small buffers
 * keep every input well under a millisecond.  Not all of them: a few fast
 * paths change at fixed sizes that such buffers never reach: the chunked
 * JOIN/SPLIT copy and copies split into chunks (a contiguous block above
 * COPY_CHUNK, 256 KiB, src/engine/copy_plan.c), GATHER_ELEMENTS slabs narrowed by
 * SLAB_BYTES (512 KiB, src/ops/gather/gather_fast.c), SCATTER slabs above
 * STREAM_MAX_SLAB (256 KiB, src/ops/scatter/op_scatter.c).  FUZZ_DESC_LARGE=1 in the
 * environment restores the limits of the single target this one replaced
 * (64 MiB, 2^20 elements, alignment 1 MiB) for a campaign aimed at them, at a
 * few hundred inputs per second.
 * Verdicts (validate against compile, every feature level, error messages)
 * are fuzz_desc_valid's; here a descriptor is compiled with the oracle once,
 * and the input ends there unless that succeeds.  Then, aborting on any
 * violation so that libFuzzer reports it:
 *
 *   - every buffer is allocated at exactly its TotalTensorSizeInBytes (ASan
 *     sees any overrun), at a multiple of its GuaranteedBaseOffsetAlignment,
 *     and filled from the payload; outputs are prefilled with a pattern;
 *   - the oracle, the default (fast) path with threads 1 and the default path
 *     with threads 2 (through dmlref_run) give byte-identical output buffers;
 *     the fast path compiles wherever the oracle does;
 *   - the oracle writes no output byte that no output element addresses;
 *   - the checking option (through dmlref_run) either succeeds with the
 *     oracle's bytes or reports an index error with every output byte
 *     untouched;
 *   - (misc bit 0) a binding one byte short is refused with
 *     DMLREF_ERROR_BINDING, writing nothing.
 *
 * Each of the four configurations is one compile (options are fixed at
 * compile time); nothing else is compiled or validated.
 *
 * FUZZ_DESC_VERBOSE=1 in the environment prints, per input, whether it ran
 * and the oracle compile's status.  The thresholds of the threaded and
 * large-tensor kernels are tiny here (set_small_thresholds).
 */
#define FUZZ_NAME "fuzz_desc_exec"
#include "desc_decode.h"

/* The limits: all buffers of one input together, the elements of all its
 * tensors together, GuaranteedBaseOffsetAlignment; [1] with FUZZ_DESC_LARGE=1. */
static const uint64_t max_buffer_bytes[2] = {UINT64_C(256) << 10, UINT64_C(64) << 20};
static const uint64_t max_work_elements[2] = {UINT64_C(8192), UINT64_C(1) << 20};
static const uint32_t max_align[2] = {UINT32_C(4096), UINT32_C(1) << 20};
static int large; /* FUZZ_DESC_LARGE=1 */

/* Copies into dst, from src, every byte that some element of b addresses. */
static void copy_addressed(const DMLREF_BUFFER_TENSOR_DESC *b, unsigned char *dst, const unsigned char *src) {
    const uint32_t n = b->DimensionCount, esize = dmlref_data_type_size(b->DataType);
    uint64_t stride[8];
    uint32_t coord[8] = {0};
    if (b->Strides) {
        for (uint32_t d = 0; d < n; ++d) stride[d] = b->Strides[d];
    } else {
        uint64_t s = 1;
        for (uint32_t d = n; d-- > 0;) {
            stride[d] = s;
            s *= b->Sizes[d];
        }
    }
    for (;;) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < n; ++d) off += coord[d] * stride[d];
        memcpy(dst + off * esize, src + off * esize, esize);
        uint32_t d = n;
        while (d-- > 0) {
            if (++coord[d] < b->Sizes[d]) break;
            coord[d] = 0;
        }
        if (d == UINT32_MAX) return;
    }
}

/* Elements of a decoded tensor, saturating at UINT64_MAX (sizes past the
 * eighth dimension are 1). */
static uint64_t elements_saturating(const DMLREF_BUFFER_TENSOR_DESC *b, const uint32_t *sizes) {
    uint64_t e = 1;
    for (uint32_t d = 0; d < b->DimensionCount && d < 8; ++d) {
        if (sizes[d] && e > UINT64_MAX / sizes[d]) return UINT64_MAX;
        e *= sizes[d];
    }
    return e;
}

/* Whether the input is small enough to run (decided from the decoded tensors,
 * before any compile). */
static int small_enough(const fcase *c) {
    uint64_t bytes = 0, work = 0;
    for (uint32_t k = 0; k < c->n_tensors; ++k) {
        const DMLREF_BUFFER_TENSOR_DESC *b = &c->t[k].buf;
        if (b->GuaranteedBaseOffsetAlignment > max_align[large]) return 0;
        if (b->TotalTensorSizeInBytes > max_buffer_bytes[large] - bytes) return 0;
        bytes += b->TotalTensorSizeInBytes;
        const uint64_t e = elements_saturating(b, c->t[k].sizes);
        if (e > max_work_elements[large] - work) return 0;
        work += e;
    }
    return 1;
}

/* dst[i] = period[(start + i) % plen] for i < n, in memcpy runs. */
static void fill_periodic(unsigned char *dst, size_t n, const unsigned char *period, size_t plen, size_t start) {
    size_t i = 0, at = start % plen;
    while (i < n) {
        const size_t run = plen - at < n - i ? plen - at : n - i;
        memcpy(dst + i, period + at, run);
        i += run;
        at = 0;
    }
}

static unsigned char prefill_byte(uint32_t k, uint64_t i) { return (unsigned char)(0xA5u ^ (i * 29u + k * 7u)); }

/* Each output's prefill pattern (prefill_byte), built once per input by
 * execute_all, so that prefilling and the checks against it are memcpy and
 * memcmp. */
static unsigned char *pattern[MAX_TENSORS];

static void prefill(dmlref_buffer *outs, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) memcpy(outs[k].data, pattern[k], outs[k].size);
}

static int is_prefilled(const dmlref_buffer *outs, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k)
        if (memcmp(outs[k].data, pattern[k], outs[k].size) != 0) return 0;
    return 1;
}

static void compare(const char *what, const dmlref_buffer *a, const dmlref_buffer *b, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k)
        if (memcmp(a[k].data, b[k].data, a[k].size) != 0) {
            size_t i = 0;
            while (((const unsigned char *)a[k].data)[i] == ((const unsigned char *)b[k].data)[i]) ++i;
            FAIL("%s: output %u differs from the oracle's at byte %zu (0x%02x, oracle 0x%02x)", what, k, i,
                 ((const unsigned char *)b[k].data)[i], ((const unsigned char *)a[k].data)[i]);
        }
}

/* A buffer at a multiple of the tensor's GuaranteedBaseOffsetAlignment (which
 * execute checks). */
static void *aligned_buffer(size_t size, uint32_t align) {
    void *p = NULL;
    if (posix_memalign(&p, align > 16 ? align : 16, size ? size : 1) != 0) abort();
    return p;
}

/* oracle: c compiled with DMLREF_OPTION_FORCE_ORACLE at level fl. */
static void execute_all(const fcase *c, dmlref_operator *oracle_op, uint32_t fl, uint8_t misc, uint8_t fill,
                        const uint8_t *payload, size_t payload_len) {
    dmlref_cbuffer ins[MAX_TENSORS];
    dmlref_buffer ref[MAX_TENSORS], got[MAX_TENSORS];
    size_t pos = 0;
    unsigned char ramp[256], period[256];
    for (size_t i = 0; i < sizeof ramp; ++i) ramp[i] = (unsigned char)(i * 131u + 7u);
    for (uint32_t k = 0; k < c->n_in; ++k) {
        const size_t size = (size_t)c->in[k]->TotalTensorSizeInBytes;
        unsigned char *p = aligned_buffer(size, c->in[k]->GuaranteedBaseOffsetAlignment);
        /* the payload's bytes in order, continuing across buffers, or i * 131 + 7 */
        if (payload_len) fill_periodic(p, size, payload, payload_len, pos);
        else fill_periodic(p, size, ramp, sizeof ramp, 0);
        pos += size;
        if ((fill & 1) && c->in_is_index[k]) {
            /* small signed values: each element slot keeps its first byte, sign-extended */
            const uint32_t es = dmlref_data_type_size(c->in[k]->DataType);
            for (size_t i = 0; i < size; ++i)
                if (i % es) p[i] = (unsigned char)((p[i - i % es] & 0x80) ? 0xFF : 0x00);
        }
        ins[k].data = p;
        ins[k].size = size;
    }
    for (uint32_t k = 0; k < c->n_out; ++k) {
        const size_t size = (size_t)c->out[k]->TotalTensorSizeInBytes;
        ref[k].data = aligned_buffer(size, c->out[k]->GuaranteedBaseOffsetAlignment);
        got[k].data = aligned_buffer(size, c->out[k]->GuaranteedBaseOffsetAlignment);
        ref[k].size = got[k].size = size;
        for (size_t i = 0; i < sizeof period; ++i) period[i] = prefill_byte(k, i); /* period 256 in i */
        pattern[k] = malloc(size ? size : 1);
        if (!pattern[k]) abort();
        fill_periodic(pattern[k], size, period, sizeof period, 0);
    }
    const DMLREF_FEATURE_LEVEL level = (DMLREF_FEATURE_LEVEL)fl;
    dmlref_error err;
    dmlref_operator *op = NULL;
    dmlref_status st;

    /* 1. the oracle */
    prefill(ref, c->n_out);
    st = dmlref_execute(oracle_op, ins, c->n_in, ref, c->n_out, &err);
    if (st != DMLREF_OK) FAIL("oracle execute: %s", err.message);
    if (misc & 1) { /* a binding one byte short is refused before anything runs */
        dmlref_buffer short_out[MAX_TENSORS];
        memcpy(short_out, got, c->n_out * sizeof *got);
        prefill(got, c->n_out);
        short_out[0].size -= 1;
        st = dmlref_execute(oracle_op, ins, c->n_in, short_out, c->n_out, &err);
        check_error("short binding", st, &err);
        if (st != DMLREF_ERROR_BINDING) FAIL("a short output binding gave %s", dmlref_status_name(st));
        if (!is_prefilled(got, c->n_out)) FAIL("a refused binding wrote output bytes");
    }

    /* The oracle writes only bytes that output elements address. */
    for (uint32_t k = 0; k < c->n_out; ++k) { /* the pattern with the addressed bytes taken from ref */
        unsigned char *want = malloc(ref[k].size ? ref[k].size : 1);
        if (!want) abort();
        memcpy(want, pattern[k], ref[k].size);
        copy_addressed(c->out[k], want, ref[k].data);
        if (memcmp(want, ref[k].data, ref[k].size) != 0)
            for (size_t i = 0; i < ref[k].size; ++i)
                if (want[i] != ((unsigned char *)ref[k].data)[i])
                    FAIL("the oracle wrote byte %zu of output %u, which no element addresses", i, k);
        free(want);
    }

    /* 2. the default (fast) path, serial */
    const dmlref_options fast1 = {.flags = 0, .threads = 1};
    st = dmlref_compile(&c->op, level, &fast1, &op, &err);
    check_error("compile (fast)", st, &err);
    if (st != DMLREF_OK) FAIL("compile (fast) failed where the oracle's succeeded: %s", err.message);
    prefill(got, c->n_out);
    st = dmlref_execute(op, ins, c->n_in, got, c->n_out, &err);
    if (st != DMLREF_OK) FAIL("fast execute (%s): %s", dmlref_kernel_name(op), err.message);
    compare(dmlref_kernel_name(op), ref, got, c->n_out);
    dmlref_release(op);
    op = NULL;

    /* 3. the default path with 2 threads, through dmlref_run */
    const dmlref_options fast2 = {.flags = 0, .threads = 2};
    prefill(got, c->n_out);
    st = dmlref_run(&c->op, level, &fast2, ins, c->n_in, got, c->n_out, &err);
    if (st != DMLREF_OK) FAIL("dmlref_run with 2 threads: %s", err.message);
    compare("threads=2", ref, got, c->n_out);

    /* 4. the checking option: never a crash; success means the oracle's bytes,
     * an index error means nothing was written. */
    const dmlref_options checking = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 0};
    prefill(got, c->n_out);
    st = dmlref_run(&c->op, level, &checking, ins, c->n_in, got, c->n_out, &err);
    check_error("checking", st, &err);
    if (st == DMLREF_OK)
        compare("checking", ref, got, c->n_out);
    else if (st == DMLREF_ERROR_INDEX_OUT_OF_RANGE || st == DMLREF_ERROR_DUPLICATE_INDEX) {
        if (!is_prefilled(got, c->n_out)) FAIL("the checking option wrote output bytes before failing");
    } else if (st != DMLREF_ERROR_OUT_OF_MEMORY) {
        FAIL("the checking option failed with %s: %s", dmlref_status_name(st), err.message);
    }

    for (uint32_t k = 0; k < c->n_in; ++k) free((void *)ins[k].data);
    for (uint32_t k = 0; k < c->n_out; ++k) {
        free(ref[k].data);
        free(got[k].data);
        free(pattern[k]);
        pattern[k] = NULL;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    set_small_thresholds();
    /* OpenMP's idle workers sleep at once instead of spinning (libomp spins
     * 200 ms after each parallel region by default: a quarter of this
     * target's CPU time went there, taken from the main thread on a small
     * machine).  Read when the runtime starts, at the first threads=2 run;
     * an explicit setting wins. */
    setenv("OMP_WAIT_POLICY", "passive", 0);
    setenv("KMP_BLOCKTIME", "0", 0);
    large = getenv("FUZZ_DESC_LARGE") && strcmp(getenv("FUZZ_DESC_LARGE"), "1") == 0;
    check_op_table();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    fcase *c = calloc(1, sizeof *c);
    if (!c) abort();
    uint8_t misc, fill;
    const uint32_t fl = decode(&r, c, &misc, &fill);
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_DESC_VERBOSE") != NULL;

    if (c->schema && c->op.Desc && small_enough(c)) {
        dmlref_error err;
        dmlref_operator *oracle_op = NULL;
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        const dmlref_status st = dmlref_compile(&c->op, (DMLREF_FEATURE_LEVEL)fl, &oracle, &oracle_op, &err);
        check_error("compile (oracle)", st, &err);
        if ((st == DMLREF_OK) != (oracle_op != NULL)) FAIL("compile status and *op disagree");
        if (verbose) fprintf(stderr, "oracle compile: %s %s\n", dmlref_status_name(st), st ? err.message : "");
        if (st == DMLREF_OK) {
            if (dmlref_input_count(oracle_op) != c->n_in || dmlref_output_count(oracle_op) != c->n_out)
                FAIL("the compiled operator binds %u inputs and %u outputs, the schema's walk %u and %u",
                     dmlref_input_count(oracle_op), dmlref_output_count(oracle_op), c->n_in, c->n_out);
            execute_all(c, oracle_op, fl, misc, fill, r.p, r.n);
        }
        dmlref_release(oracle_op);
    } else if (verbose) {
        fprintf(stderr, "skipped: %s\n", !c->schema ? "an operator this build lacks" : !c->op.Desc ? "Desc NULL" : "too large");
    }
    free_case(c);
    return 0;
}
