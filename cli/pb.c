/* The protobuf wire-format encoder (pb.h). */
#include "pb.h"

#include <stdlib.h>
#include <string.h>

void pb_free(pb_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static int grow(pb_buf *b, size_t n) {
    if (b->oom) return -1;
    if (n <= b->cap - b->len) return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;
    }
    unsigned char *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void pb_raw(pb_buf *b, const void *data, size_t n) {
    if (n == 0 || grow(b, n)) return;
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

void pb_varint(pb_buf *b, uint64_t v) {
    unsigned char tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v) tmp[n] |= 0x80;
        ++n;
    } while (v);
    pb_raw(b, tmp, n);
}

static void tag(pb_buf *b, uint32_t field, unsigned wire) { pb_varint(b, (uint64_t)field << 3 | wire); }

void pb_int(pb_buf *b, uint32_t field, int64_t v) {
    tag(b, field, PB_VARINT);
    pb_varint(b, (uint64_t)v); /* two's complement: C11 conversion to unsigned is modulo 2^64 */
}

void pb_bytes(pb_buf *b, uint32_t field, const void *data, size_t n) {
    tag(b, field, PB_LEN);
    pb_varint(b, n);
    pb_raw(b, data, n);
}

void pb_string(pb_buf *b, uint32_t field, const char *s) { pb_bytes(b, field, s, strlen(s)); }

void pb_message(pb_buf *b, uint32_t field, const pb_buf *sub) {
    if (sub->oom) b->oom = 1;
    pb_bytes(b, field, sub->p, sub->len);
}
