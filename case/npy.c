#include "npy.h"
#include "file_atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *code; /* without the byte-order character */
    DMLREF_TENSOR_DATA_TYPE dt;
} dtypes[] = {
    {"f2", DMLREF_TENSOR_DATA_TYPE_FLOAT16}, {"f4", DMLREF_TENSOR_DATA_TYPE_FLOAT32},
    {"f8", DMLREF_TENSOR_DATA_TYPE_FLOAT64}, {"i1", DMLREF_TENSOR_DATA_TYPE_INT8},
    {"i2", DMLREF_TENSOR_DATA_TYPE_INT16},   {"i4", DMLREF_TENSOR_DATA_TYPE_INT32},
    {"i8", DMLREF_TENSOR_DATA_TYPE_INT64},   {"u1", DMLREF_TENSOR_DATA_TYPE_UINT8},
    {"u2", DMLREF_TENSOR_DATA_TYPE_UINT16},  {"u4", DMLREF_TENSOR_DATA_TYPE_UINT32},
    {"u8", DMLREF_TENSOR_DATA_TYPE_UINT64},
};

const char *npy_descr(DMLREF_TENSOR_DATA_TYPE dt) {
    static const char *const names[] = {NULL,  "<f4", "<f2", "<u4", "<u2", "|u1",
                                        "<i4", "<i2", "|i1", "<f8", "<u8", "<i8"};
    return (unsigned)dt < sizeof names / sizeof names[0] ? names[dt] : NULL;
}

/* 1 on a big-endian host.  The answer is a constant the compiler folds. */
int host_big_endian(void) {
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

/* Reverses the bytes of each of the count elements of es bytes at p. */
static void swap_elements(unsigned char *p, uint64_t count, uint32_t es) {
    for (uint64_t i = 0; i < count; ++i, p += es)
        for (uint32_t a = 0, b = es - 1; a < b; ++a, --b) {
            const unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

void npy_copy_host(const npy_array *a, void *dst) {
    if (!a->data_bytes) return;
    memcpy(dst, a->data, a->data_bytes);
    if (a->big_endian != host_big_endian() && a->esize > 1) swap_elements(dst, a->count, a->esize);
}

typedef struct cursor {
    const char *p, *end;
} cursor;

static void ws(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) ++c->p;
}

static int lit(cursor *c, const char *s) {
    const size_t n = strlen(s);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, s, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

/* A Python string literal ('...' or "...") without escapes, into buf. */
static int pystr(cursor *c, char *buf, size_t cap) {
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return 0;
    const char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= cap) return 0;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end) return 0;
    ++c->p;
    buf[n] = '\0';
    return 1;
}

int npy_parse(const void *bytes, size_t len, npy_array *out, char *err, size_t errcap) {
    const unsigned char *b = bytes;
    memset(out, 0, sizeof *out);
    if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0) {
        snprintf(err, errcap, "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    const int major = b[6], minor = b[7];
    size_t hlen, hstart;
    if (major == 1) {
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
        hstart = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) {
            snprintf(err, errcap, "truncated .npy header");
            return -1;
        }
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
        hstart = 12;
    } else {
        snprintf(err, errcap, ".npy format version %d.%d is not supported (1.0, 2.0, 3.0 are)", major, minor);
        return -1;
    }
    if (minor != 0) {
        snprintf(err, errcap, ".npy format version %d.%d is not supported (1.0, 2.0, 3.0 are)", major, minor);
        return -1;
    }
    if (hlen > len - hstart) {
        snprintf(err, errcap, "truncated .npy header (%zu header bytes announced, %zu present)", hlen, len - hstart);
        return -1;
    }
    out->version = major;
    cursor c = {(const char *)b + hstart, (const char *)b + hstart + hlen};
    char key[32], descr[32];
    int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0;
    ws(&c);
    if (!lit(&c, "{")) goto bad_header;
    for (;;) {
        ws(&c);
        if (lit(&c, "}")) break;
        if (!pystr(&c, key, sizeof key)) goto bad_header;
        ws(&c);
        if (!lit(&c, ":")) goto bad_header;
        ws(&c);
        if (strcmp(key, "descr") == 0) {
            if (c.p < c.end && *c.p == '[') {
                snprintf(err, errcap, "structured .npy dtypes are not supported");
                return -1;
            }
            if (!pystr(&c, descr, sizeof descr)) goto bad_header;
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (lit(&c, "True")) fortran = 1;
            else if (!lit(&c, "False")) goto bad_header;
            have_fortran = 1;
        } else if (strcmp(key, "shape") == 0) {
            if (!lit(&c, "(")) goto bad_header;
            for (;;) {
                ws(&c);
                if (lit(&c, ")")) break;
                if (c.p >= c.end || *c.p < '0' || *c.p > '9') goto bad_header;
                uint64_t v = 0;
                while (c.p < c.end && *c.p >= '0' && *c.p <= '9') {
                    const uint64_t d = (uint64_t)(*c.p++ - '0');
                    if (v > (UINT64_MAX - d) / 10) {
                        snprintf(err, errcap, ".npy shape entry too large");
                        return -1;
                    }
                    v = v * 10 + d;
                }
                if (out->ndim >= NPY_MAX_DIMS) {
                    snprintf(err, errcap, ".npy shape has more than %d dimensions", NPY_MAX_DIMS);
                    return -1;
                }
                out->shape[out->ndim++] = v;
                ws(&c);
                if (lit(&c, ")")) break;
                if (!lit(&c, ",")) goto bad_header;
            }
            have_shape = 1;
        } else {
            snprintf(err, errcap, ".npy header has an unknown key '%s'", key);
            return -1;
        }
        ws(&c);
        if (lit(&c, "}")) break;
        if (!lit(&c, ",")) goto bad_header;
    }
    if (!have_descr || !have_fortran || !have_shape) {
        snprintf(err, errcap, ".npy header lacks %s", !have_descr ? "'descr'" : !have_fortran ? "'fortran_order'" : "'shape'");
        return -1;
    }
    if (fortran) {
        snprintf(err, errcap, ".npy files with fortran_order True are not supported (write C order)");
        return -1;
    }
    /* dtype: a byte-order character and one of the codes above */
    out->dtype = DMLREF_TENSOR_DATA_TYPE_UNKNOWN;
    if (strlen(descr) == 3) {
        for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; ++i)
            if (strcmp(descr + 1, dtypes[i].code) == 0) out->dtype = dtypes[i].dt;
        const int one_byte = descr[2] == '1', order = descr[0];
        if (out->dtype != DMLREF_TENSOR_DATA_TYPE_UNKNOWN && !one_byte) {
            /* '=' (native) would mean a different thing on each host: refused, as '|' is (it says
             * "not applicable", which a multi-byte type is not) */
            if (order == '=') {
                snprintf(err, errcap, ".npy dtype '%s' gives no byte order ('=' is the writer's native one); "
                                      "write '<' or '>'", descr);
                return -1;
            }
            if (order != '<' && order != '>') {
                snprintf(err, errcap, ".npy dtype '%s' has an invalid byte order (write '<' or '>')", descr);
                return -1;
            }
            out->big_endian = order == '>';
        } else if (out->dtype != DMLREF_TENSOR_DATA_TYPE_UNKNOWN &&
                   !(order == '|' || order == '<' || order == '>' || order == '=')) {
            out->dtype = DMLREF_TENSOR_DATA_TYPE_UNKNOWN;
        }
    }
    if (out->dtype == DMLREF_TENSOR_DATA_TYPE_UNKNOWN) {
        snprintf(err, errcap,
                 ".npy dtype '%s' is not supported (f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8, '<' or '>' byte order)", descr);
        return -1;
    }
    out->esize = dmlref_data_type_size(out->dtype);
    out->count = 1;
    for (uint32_t i = 0; i < out->ndim; ++i) {
        if (out->shape[i] != 0 && out->count > UINT64_MAX / out->shape[i]) {
            snprintf(err, errcap, ".npy shape holds more than 2^64 elements");
            return -1;
        }
        out->count *= out->shape[i];
    }
    const size_t avail = len - hstart - hlen;
    if (out->count > avail / out->esize) {
        snprintf(err, errcap, "truncated .npy data: the shape holds %llu elements of %u bytes, the file has %zu data bytes",
                 (unsigned long long)out->count, (unsigned)out->esize, avail);
        return -1;
    }
    out->data_bytes = (size_t)out->count * out->esize;
    if (out->data_bytes != avail) {
        snprintf(err, errcap, ".npy file has %zu bytes after the data its shape describes", avail - out->data_bytes);
        return -1;
    }
    out->data = b + hstart + hlen;
    return 0;
bad_header:
    snprintf(err, errcap, "malformed .npy header (expected {'descr': ..., 'fortran_order': ..., 'shape': (...)})");
    return -1;
}

int npy_write_file(const char *path, DMLREF_TENSOR_DATA_TYPE dt, const void *data, uint64_t count, char *err,
                   size_t errcap) {
    return npy_write_file_shaped(path, dt, data, 1, &count, err, errcap);
}

int npy_write_file_shaped(const char *path, DMLREF_TENSOR_DATA_TYPE dt, const void *data, uint32_t ndim,
                          const uint64_t *shape, char *err, size_t errcap) {
    const char *descr = npy_descr(dt);
    const uint32_t es = dmlref_data_type_size(dt);
    if (!descr || !es) {
        snprintf(err, errcap, "%s: no .npy dtype for this data type", path);
        return -1;
    }
    if (ndim > NPY_MAX_DIMS) {
        snprintf(err, errcap, "%s: more than %d dimensions", path, NPY_MAX_DIMS);
        return -1;
    }
    /* the shape as a Python tuple: (), (n,), (a, b, ...) */
    char header[64 + NPY_MAX_DIMS * 22 + 128]; /* the text, then up to 63 pad bytes and the newline */
    int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    uint64_t count = 1;
    for (uint32_t d = 0; d < ndim; ++d) {
        n += snprintf(header + n, sizeof header - (size_t)n, d ? ", %llu" : "%llu", (unsigned long long)shape[d]);
        count = shape[d] && count > UINT64_MAX / shape[d] ? UINT64_MAX : count * shape[d];
    }
    n += snprintf(header + n, sizeof header - (size_t)n, "%s), }", ndim == 1 ? "," : "");
    size_t total = 10 + (size_t)n + 1;
    const size_t pad = (64 - total % 64) % 64;
    memset(header + n, ' ', pad);
    header[n + pad] = '\n';
    const size_t hlen = (size_t)n + pad + 1;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                             (unsigned char)(hlen >> 8)};

    if (count > SIZE_MAX / es) {
        snprintf(err, errcap, "%s: too many elements", path);
        return -1;
    }
    /* the header says little-endian: a big-endian host writes a byte-swapped copy */
    const size_t bytes = (size_t)count * es;
    unsigned char *swapped = NULL;
    if (es > 1 && bytes && host_big_endian()) {
        swapped = malloc(bytes);
        if (!swapped) {
            snprintf(err, errcap, "%s: out of memory (%zu bytes)", path, bytes);
            return -1;
        }
        memcpy(swapped, data, bytes);
        swap_elements(swapped, count, es);
    }
    const file_part parts[3] = {{pre, sizeof pre}, {header, hlen}, {swapped ? swapped : data, bytes}};
    const int rc = file_write_atomic(path, parts, 3, err, errcap);
    free(swapped);
    return rc;
}
