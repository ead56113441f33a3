/*
 * FLOAT16 conversions.
 *
 * Decimal -> half without double rounding: strtod rounds the decimal to the
 * nearest double d.  Rounding d to half gives the right answer unless d lies
 * exactly halfway between two halves (a tie is a dyadic number with at most
 * 12 significant bits, so it is always representable as a double): the
 * decimal may then be slightly above or below the tie.  Only in that case the
 * text is converted again with strtod under FE_DOWNWARD and FE_UPWARD (C99
 * Annex F: strtod honours the rounding direction; glibc does).  If both agree
 * the decimal is exactly the tie (ties to even applies); otherwise the side
 * the decimal lies on decides.
 */
#include "fp16.h"

#include <errno.h>
#include <fenv.h>
#include <math.h>
#include <stdlib.h>

double fp16_to_double(uint16_t h) {
    const int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v;
    if (exp == 0x1f) v = man ? NAN : INFINITY;
    else if (exp == 0) v = ldexp((double)man, -24);
    else v = ldexp((double)(man | 0x400), exp - 25);
    return sign ? -v : v;
}

/* mode: 0 nearest-even, 1 toward zero, 2 away from zero (on the magnitude). */
static uint16_t round_mode(double d, int mode, int *tie) {
    const uint16_t sign = signbit(d) ? 0x8000 : 0;
    double a = fabs(d), m, q;
    int e;
    if (tie) *tie = 0;
    if (isnan(d)) return (uint16_t)(sign | 0x7e00);
    if (isinf(d)) return (uint16_t)(sign | 0x7c00);
    if (a == 0) return sign;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int E = e - 1;    /* a in [2^E, 2^(E+1)) */
    if (E < -14) E = -14; /* subnormal range: fixed quantum 2^-24 */
    if (E > 16) return (uint16_t)(sign | 0x7c00);
    m = ldexp(a, 10 - E); /* exact: scaling by a power of two */
    q = floor(m);
    const double frac = m - q;
    if (tie) *tie = frac == 0.5;
    if (frac != 0) {
        if (mode == 2) q += 1;
        else if (mode == 0 && (frac > 0.5 || (frac == 0.5 && fmod(q, 2.0) != 0))) q += 1;
    }
    /* q in [0, 2048]; normal numbers have q >= 1024 */
    if (q >= 2048) { q /= 2; E += 1; }
    if (q < 1024) return (uint16_t)(sign | (uint16_t)q); /* subnormal (E == -14) or zero */
    if (E > 15) return (uint16_t)(sign | 0x7c00);
    return (uint16_t)(sign | (uint16_t)((E + 15) << 10) | (uint16_t)((int)q - 1024));
}

uint16_t fp16_from_double(double d) { return round_mode(d, 0, NULL); }

int fp16_from_decimal(const char *text, uint16_t *out) {
    char *end;
    errno = 0;
    const double d = strtod(text, &end);
    if (end == text || *end != '\0') return -1;
    int tie = 0;
    uint16_t h = round_mode(d, 0, &tie);
    if (tie) {
        const int saved = fegetround();
        fesetround(FE_DOWNWARD);
        const double lo = strtod(text, NULL);
        fesetround(FE_UPWARD);
        const double hi = strtod(text, NULL);
        fesetround(saved);
        if (lo != hi) {
            /* the decimal is strictly between lo and hi; d is one of them */
            const int below = (d == hi); /* decimal < tie (in value) */
            const int neg = signbit(d) != 0;
            /* below a positive tie or above a negative one: toward zero */
            h = round_mode(d, below != neg ? 1 : 2, NULL);
        }
    }
    *out = h;
    return 0;
}
