/* A tensor's logical view and slot map (logical.h). */
#include "logical.h"

#include <stdlib.h>
#include <string.h>

/* DimensionCount is validated (at most 8) before a case's buffers exist; callers use validated cases. */
#define LOGICAL_MAX_DIMS 8

uint64_t logical_count(const case_tensor *t) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) n *= t->sizes[d]; /* validated: < 2^32 elements */
    return n;
}

void logical_strides(const case_tensor *t, uint64_t *strides) {
    uint64_t s = 1;
    for (uint32_t d = t->buf.DimensionCount; d-- > 0;) {
        strides[d] = t->strides ? t->strides[d] : s;
        s *= t->sizes[d];
    }
}

void logical_shape(const case_tensor *t, uint64_t *shape) {
    for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) shape[d] = t->sizes[d];
}

/* Walks the coordinates row-major, keeping the element's slot. */
typedef struct odometer {
    const case_tensor *t;
    uint64_t strides[LOGICAL_MAX_DIMS], coord[LOGICAL_MAX_DIMS];
    uint64_t slot;
} odometer;

static void odo_start(odometer *o, const case_tensor *t) {
    memset(o, 0, sizeof *o);
    o->t = t;
    logical_strides(t, o->strides);
}

static void odo_next(odometer *o) {
    for (uint32_t d = o->t->buf.DimensionCount; d-- > 0;) {
        o->slot += o->strides[d];
        if (++o->coord[d] < o->t->sizes[d]) return;
        o->slot -= o->strides[d] * o->coord[d];
        o->coord[d] = 0;
    }
}

void logical_slots(const case_tensor *t, uint64_t *slots) {
    odometer o;
    const uint64_t n = logical_count(t);
    odo_start(&o, t);
    for (uint64_t i = 0; i < n; ++i, odo_next(&o)) slots[i] = o.slot;
}

void logical_gather(const case_tensor *t, const unsigned char *buf, unsigned char *out) {
    odometer o;
    const uint64_t n = logical_count(t);
    const uint32_t es = t->esize;
    odo_start(&o, t);
    for (uint64_t i = 0; i < n; ++i, odo_next(&o)) memcpy(out + i * es, buf + o.slot * es, es);
}

unsigned char *logical_gather_alloc(const case_tensor *t, const unsigned char *buf) {
    const uint64_t n = logical_count(t);
    if (n > SIZE_MAX / t->esize) return NULL;
    unsigned char *out = malloc(n ? (size_t)n * t->esize : 1);
    if (out) logical_gather(t, buf, out);
    return out;
}
