/*
 * Exact uniform float draws (draw.h).  Big integers of 32-bit limbs; only
 * the limbs in use are touched, so the usual bounds (-1 .. 1, 0 .. 255) cost
 * a few limbs per element.
 */
#include "draw.h"

#include <string.h>

static void big_norm(draw_big *r) {
    while (r->n && r->w[r->n - 1] == 0) --r->n;
}

/* r = m << shift (shift + 96 <= 32 * DRAW_LIMBS) */
static void big_set(draw_big *r, uint64_t m, uint32_t shift) {
    memset(r, 0, sizeof *r);
    const uint32_t l = shift / 32, o = shift % 32;
    const uint64_t lo = m << o, hi = o ? m >> (64 - o) : 0;
    r->w[l] = (uint32_t)lo;
    r->w[l + 1] = (uint32_t)(lo >> 32);
    r->w[l + 2] = (uint32_t)hi;
    r->n = l + 3;
    big_norm(r);
}

static int big_cmp(const draw_big *a, const draw_big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (uint32_t i = a->n; i-- > 0;)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* r = a + b (r may be a or b) */
static void big_add(draw_big *r, const draw_big *a, const draw_big *b) {
    const uint32_t n = a->n > b->n ? a->n : b->n;
    uint64_t carry = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t t = (uint64_t)(i < a->n ? a->w[i] : 0) + (i < b->n ? b->w[i] : 0) + carry;
        r->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    r->n = n;
    if (carry) r->w[r->n++] = (uint32_t)carry;
}

/* r = a - b, a >= b (r may be a or b) */
static void big_sub(draw_big *r, const draw_big *a, const draw_big *b) {
    uint64_t borrow = 0;
    for (uint32_t i = 0; i < a->n; ++i) {
        const uint64_t s = (uint64_t)(i < b->n ? b->w[i] : 0) + borrow;
        const uint64_t x = a->w[i];
        r->w[i] = (uint32_t)(x - s);
        borrow = x < s;
    }
    r->n = a->n;
    big_norm(r);
}

/* r = a * k, k < 2^64 (r is not a) */
static void big_mul64(draw_big *r, const draw_big *a, uint64_t k) {
    const uint64_t kl = (uint32_t)k, kh = k >> 32;
    uint64_t carry = 0;
    for (uint32_t i = 0; i < a->n; ++i) {
        const uint64_t t = (uint64_t)a->w[i] * kl + carry;
        r->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    r->w[a->n] = (uint32_t)carry;
    carry = 0;
    for (uint32_t i = 0; i < a->n; ++i) {
        /* at most (2^32-1)^2 + 2 (2^32-1) = 2^64 - 1 */
        const uint64_t t = (uint64_t)a->w[i] * kh + r->w[i + 1] + carry;
        r->w[i + 1] = (uint32_t)t;
        carry = t >> 32;
    }
    r->w[a->n + 1] = (uint32_t)carry;
    r->n = a->n ? a->n + 2 : 0;
    big_norm(r);
}

static uint32_t big_bitlen(const draw_big *a) {
    if (!a->n) return 0;
    uint32_t top = a->w[a->n - 1], b = 1;
    for (uint32_t step = 16; step; step /= 2)
        if (top >> step) top >>= step, b += step;
    return 32 * (a->n - 1) + b;
}

static uint32_t big_limb(const draw_big *a, uint32_t i) { return i < a->n ? a->w[i] : 0; }

/* (a >> i) mod 2^64, for results below 2^64 - 2^32 */
static uint64_t big_bits_from(const draw_big *a, uint32_t i) {
    const uint32_t l = i / 32, o = i % 32;
    const uint64_t lo = (uint64_t)big_limb(a, l) | (uint64_t)big_limb(a, l + 1) << 32;
    uint64_t r = lo >> o;
    if (o) r |= (uint64_t)big_limb(a, l + 2) << (64 - o);
    return r;
}

/* 1 when some bit of a below bit i is set */
static int big_any_below(const draw_big *a, uint32_t i) {
    const uint32_t l = i / 32, o = i % 32;
    for (uint32_t k = 0; k < l && k < a->n; ++k)
        if (a->w[k]) return 1;
    return o && (big_limb(a, l) & ((UINT32_C(1) << o) - 1)) != 0;
}

static void decode(const draw_float *df, uint64_t bits, int *neg, uint64_t *m, int32_t *e) {
    const uint32_t ebits = 8 * df->width - df->p;
    const uint64_t ex = (bits >> (df->p - 1)) & ((UINT64_C(1) << ebits) - 1);
    const uint64_t fr = bits & ((UINT64_C(1) << (df->p - 1)) - 1);
    *neg = (int)(bits >> (8 * df->width - 1) & 1);
    *m = ex ? fr | UINT64_C(1) << (df->p - 1) : fr;
    *e = df->qmin + (ex ? (int32_t)ex - 1 : 0);
    while (*m && !(*m & 1)) *m >>= 1, ++*e; /* fewer limbs for round bounds */
    if (!*m) *neg = 0;
}

/* an integer that orders the finite values as the bits' values order them (+0 == -0) */
static int64_t order_key(const draw_float *df, uint64_t bits) {
    const uint64_t sign = UINT64_C(1) << (8 * df->width - 1);
    const int64_t mag = (int64_t)(bits & (sign - 1));
    return bits & sign ? -mag : mag;
}

int draw_float_init(draw_float *df, DMLREF_TENSOR_DATA_TYPE dt, uint64_t low_bits, uint64_t high_bits) {
    memset(df, 0, sizeof *df);
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) df->width = 2, df->p = 11, df->qmin = -24;
    else if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) df->width = 4, df->p = 24, df->qmin = -149;
    else df->width = 8, df->p = 53, df->qmin = -1074;
    if (order_key(df, low_bits) > order_key(df, high_bits)) return -1;
    df->low_bits = low_bits;
    df->same = low_bits == high_bits;
    int ln, hn;
    uint64_t lm, hm;
    int32_t le, he;
    decode(df, low_bits, &ln, &lm, &le);
    decode(df, high_bits, &hn, &hm, &he);
    int32_t E = lm && hm ? (le < he ? le : he) : lm ? le : hm ? he : df->qmin;
    draw_big A, B;
    big_set(&A, lm, (uint32_t)(lm ? le - E : 0));
    big_set(&B, hm, (uint32_t)(hm ? he - E : 0));
    /* d = high - low in units of 2^E; low <= high */
    if (!ln && !hn) big_sub(&df->d, &B, &A);
    else if (ln && !hn) big_add(&df->d, &B, &A);
    else big_sub(&df->d, &A, &B);
    big_set(&df->a, lm, (uint32_t)(lm ? le - E + 53 : 0));
    df->a_neg = ln;
    df->scale = E - 53;
    df->small = big_bitlen(&df->d) <= 10 && big_bitlen(&df->a) <= 62;
    df->d64 = big_bits_from(&df->d, 0);
    df->a64 = big_bits_from(&df->a, 0);
    return 0;
}

uint64_t draw_float_bits(const draw_float *df, uint64_t k) {
    if (df->same) return df->low_bits;
    draw_big N;
    int neg = 0;
    if (df->small) { /* the same sums in 64 bits: d * k < 2^63, a < 2^62 */
        uint64_t n = df->d64 * k;
        if (!df->a_neg) n += df->a64;
        else if (n >= df->a64) n -= df->a64;
        else {
            n = df->a64 - n;
            neg = 1;
        }
        /* the rounding below, in 64 bits: n < 2^63, so sh < 64 (see big path) */
        const uint64_t sign = (uint64_t)neg << (8 * df->width - 1);
        if (!n) return sign;
        uint32_t len = 1;
        for (uint64_t top = n, step = 32; step; step /= 2)
            if (top >> step) top >>= step, len += (uint32_t)step;
        const int32_t p = (int32_t)df->p;
        int32_t q = (int32_t)len - 1 + df->scale - (p - 1);
        if (q < df->qmin) q = df->qmin;
        const int32_t sh = q - df->scale;
        if (sh < 64) {
            uint64_t m;
            if (sh <= 0) m = n << -sh;
            else {
                m = n >> sh;
                const uint64_t below = n & ((UINT64_C(1) << (sh - 1)) - 1);
                if ((n >> (sh - 1) & 1) && ((m & 1) || below)) ++m;
            }
            if (m >> p) {
                m >>= 1;
                ++q;
            }
            const uint64_t hidden = UINT64_C(1) << (p - 1);
            if (m < hidden) return sign | m;
            return sign | (uint64_t)(q - df->qmin + 1) << (p - 1) | (m - hidden);
        }
        N.w[0] = (uint32_t)n;
        N.w[1] = (uint32_t)(n >> 32);
        N.n = 2;
        big_norm(&N);
    } else {
        big_mul64(&N, &df->d, k);
        if (!df->a_neg) big_add(&N, &N, &df->a);
        else if (big_cmp(&N, &df->a) >= 0) big_sub(&N, &N, &df->a);
        else {
            big_sub(&N, &df->a, &N);
            neg = 1;
        }
    }
    const uint64_t sign = (uint64_t)neg << (8 * df->width - 1);
    if (!N.n) return sign;
    /* value = N * 2^scale; round to a multiple of 2^q, q the quantum of its binade (or of the subnormals) */
    const int32_t p = (int32_t)df->p, t = (int32_t)big_bitlen(&N) - 1 + df->scale;
    int32_t q = t - (p - 1);
    if (q < df->qmin) q = df->qmin;
    const int32_t sh = q - df->scale;
    uint64_t m;
    if (sh <= 0) {
        m = big_bits_from(&N, 0) << -sh; /* exact: N < 2^p here */
    } else {
        m = big_bits_from(&N, (uint32_t)sh);
        const int half = (int)(big_bits_from(&N, (uint32_t)sh - 1) & 1);
        if (half && ((m & 1) || big_any_below(&N, (uint32_t)sh - 1))) ++m;
    }
    if (m >> p) { /* rounded up to 2^p */
        m >>= 1;
        ++q;
    }
    const uint64_t hidden = UINT64_C(1) << (p - 1);
    if (m < hidden) return sign | m; /* subnormal (q == qmin) or zero */
    return sign | (uint64_t)(q - df->qmin + 1) << (p - 1) | (m - hidden);
}
