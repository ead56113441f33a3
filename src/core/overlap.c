/* Exact output no-overlap search; see overlap.h. */
#include "overlap.h"

#include <string.h>

/* A signed value as sign and magnitude: the partial sums reach +-(2^64 - 1). */
typedef struct sval {
    int neg;
    uint64_t mag;
} sval;

/* r - p for r >= 0, saturating the magnitude at UINT64_MAX (only ever used as a
 * bound, where any saturated value lies beyond every coefficient range). */
static sval sub_from(uint64_t r, sval p) {
    sval v;
    if (p.neg) {
        v.neg = 0;
        v.mag = p.mag > UINT64_MAX - r ? UINT64_MAX : r + p.mag;
    } else if (p.mag <= r) {
        v.neg = 0;
        v.mag = r - p.mag;
    } else {
        v.neg = 1;
        v.mag = p.mag - r;
    }
    return v;
}

static sval negate(sval v) {
    v.neg = v.mag != 0 && !v.neg;
    return v;
}

#define COEF_CLAMP (INT64_C(1) << 33) /* beyond every |c_d| <= 2^32 - 2 */

static int64_t clamp_q(uint64_t q) {
    return q > (uint64_t)COEF_CLAMP ? COEF_CLAMP : (int64_t)q;
}

/* floor(v / s), ceil(v / s) for s > 0, clamped to +-2^33. */
static int64_t floor_div(sval v, uint64_t s) {
    const uint64_t q = v.mag / s, r = v.mag % s;
    return v.neg ? -clamp_q(q + (r != 0)) : clamp_q(q);
}

static int64_t ceil_div(sval v, uint64_t s) {
    const uint64_t q = v.mag / s, r = v.mag % s;
    return v.neg ? -clamp_q(q) : clamp_q(q + (r != 0));
}

/* p + c * s, where the result is known to lie in [-2^64 + 1, 2^64 - 1]. */
static sval add_term(sval p, int64_t c, uint64_t s) {
    const uint64_t m = (uint64_t)(c < 0 ? -c : c) * s; /* |c| < 2^32, s < 2^32 */
    sval v;
    if (c == 0) return p;
    if ((c < 0) == (p.neg != 0) || p.mag == 0) {
        v.neg = c < 0;
        v.mag = p.mag + m;
    } else if (p.mag >= m) {
        v.neg = p.neg;
        v.mag = p.mag - m;
    } else {
        v.neg = c < 0;
        v.mag = m - p.mag;
    }
    if (v.mag == 0) v.neg = 0;
    return v;
}

typedef struct search {
    const tensor_t *t;
    uint32_t m, dim[MAX_DIMS];  /* the dimensions of size > 1, by descending stride */
    uint64_t rest[MAX_DIMS + 1]; /* rest[k]: sum of (size - 1) * stride over dim[k..m) */
    int64_t c[MAX_DIMS];         /* by tensor dimension */
    uint32_t *best;              /* lexicographic minimum of max(c, 0) so far (the caller's first) */
    int have_best;
    uint64_t steps;
    /* dfs's levels: level k assigns dim[k] */
    sval p[MAX_DIMS + 1];            /* p[k]: sum of c * stride over dim[0..k) */
    int64_t hi[MAX_DIMS];            /* the last coefficient level k tries */
    unsigned char lead[MAX_DIMS + 1]; /* lead[k]: every coefficient of dim[0..k) is 0 */
} search;

/* A complete assignment c: the pair's later element is max(sign c, 0), sign making
 * the first nonzero coefficient positive; kept in best when lexicographically
 * smaller (compared and copied a coordinate at a time: no array on the stack). */
static void leaf(search *s) {
    const uint32_t n = s->t->n;
    int64_t sign = 0;
    for (uint32_t d = 0; d < n && sign == 0; ++d)
        if (s->c[d] != 0) sign = s->c[d] > 0 ? 1 : -1;
    if (sign == 0) return; /* c = 0: an element with itself */
    if (s->have_best) {
        uint32_t d = 0;
        uint64_t x = 0;
        for (; d < n; ++d) {
            const int64_t v = sign * s->c[d];
            x = v > 0 ? (uint64_t)v : 0;
            if (x != s->best[d]) break;
        }
        if (d == n || x > s->best[d]) return;
    }
    for (uint32_t d = 0; d < n; ++d) {
        const int64_t v = sign * s->c[d];
        s->best[d] = v > 0 ? (uint32_t)v : 0; /* |c_d| < Sizes[d] <= 2^32 - 1 */
    }
    s->have_best = 1;
}

/* Enumerates dim[0..m), each coefficient in increasing order within the interval
 * that the remaining dimensions can still cancel, calling leaf at every complete
 * assignment; 0 when the budget runs out.  While every earlier coefficient is 0
 * (lead), only c >= 0 is tried: c and -c describe the same pair of elements.
 * Iterative, a level's state in s->c, s->p, s->hi and s->lead, so that the stack
 * stays one frame deep whatever the rank. */
static int dfs(search *s) {
    uint32_t k = 0;
    int enter = 1;         /* level k starts; else it moves on to its next coefficient */
    s->p[0].neg = 0;
    s->p[0].mag = 0;
    s->lead[0] = 1;
    for (;;) {
        if (enter && k == s->m) {
            leaf(s);
        } else {
            const uint32_t d = s->dim[k];
            const uint64_t st = s->t->strides[d];
            if (enter) {
                const uint64_t r = s->rest[k + 1];
                const sval p = s->p[k];
                const int64_t nmax = (int64_t)s->t->sizes[d] - 1;
                /* -r <= p + c st <= r */
                int64_t lo = ceil_div(negate(sub_from(r, negate(p))), st); /* (-r - p) / st */
                int64_t hi = floor_div(sub_from(r, p), st);                /* (r - p) / st */
                if (lo < -nmax) lo = -nmax;
                if (s->lead[k] && lo < 0) lo = 0;
                if (hi > nmax) hi = nmax;
                s->c[d] = lo;
                s->hi[k] = hi;
            } else {
                ++s->c[d]; /* <= hi + 1 <= Sizes[d] */
            }
            const int64_t c = s->c[d];
            if (c <= s->hi[k]) {
                if (++s->steps > OVERLAP_SEARCH_BUDGET) return 0;
                s->p[k + 1] = add_term(s->p[k], c, st);
                s->lead[k + 1] = s->lead[k] && c == 0;
                ++k;
                enter = 1;
                continue;
            }
            s->c[d] = 0;
        }
        /* level k is done: back to level k - 1, taking its coefficient out of p */
        if (k == 0) return 1;
        --k;
        enter = 0;
    }
}

overlap_verdict overlap_search(const tensor_t *t, uint32_t first[MAX_DIMS], int *have_any) {
    search s;
    memset(&s, 0, sizeof s);
    s.t = t;
    s.best = first; /* written only with have_best set */
    for (uint32_t d = 0; d < t->n; ++d)
        if (t->sizes[d] > 1) s.dim[s.m++] = d;
    for (uint32_t i = 1; i < s.m; ++i) /* insertion sort, descending stride */
        for (uint32_t j = i; j > 0 && t->strides[s.dim[j]] > t->strides[s.dim[j - 1]]; --j) {
            const uint32_t tmp = s.dim[j];
            s.dim[j] = s.dim[j - 1];
            s.dim[j - 1] = tmp;
        }
    s.rest[s.m] = 0;
    for (uint32_t k = s.m; k-- > 0;) /* <= IndexOfLastElement, which fits */
        s.rest[k] = s.rest[k + 1] + (uint64_t)(t->sizes[s.dim[k]] - 1) * t->strides[s.dim[k]];
    const int done = dfs(&s);
    *have_any = s.have_best;
    if (!done) return OVERLAP_BOUND_HIT;
    return s.have_best ? OVERLAP_FOUND : OVERLAP_DISJOINT;
}
