#include "npy.h"
#include "file_atomic.h"
#include "status.h"

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

/* The magic, version and header length at b (len bytes, at least 10): 0 with *hstart (10 or 12)
 * and *hlen, 1 when b holds fewer than *hstart bytes (only then), -1 with a message. */
static int npy_preamble(const unsigned char *b, size_t len, size_t *hstart, size_t *hlen, char *err, size_t errcap) {
    if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0) {
        snprintf(err, errcap, "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    const int major = b[6], minor = b[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        snprintf(err, errcap, ".npy format version %d.%d is not supported (1.0, 2.0, 3.0 are)", major, minor);
        return -1;
    }
    *hstart = major == 1 ? 10 : 12;
    if (len < *hstart) return 1;
    *hlen = major == 1 ? (size_t)b[8] | (size_t)b[9] << 8
                       : (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    return 0;
}

/* The header dict b[hstart .. hstart + hlen) (the caller has checked that it is there). */
static int npy_header(const unsigned char *b, size_t hstart, size_t hlen, npy_array *out, char *err, size_t errcap) {
    out->version = b[6];
    out->data_offset = hstart + hlen;
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
    if (out->count > SIZE_MAX / out->esize) {
        snprintf(err, errcap, ".npy shape holds %llu elements of %u bytes, more than this host can address",
                 (unsigned long long)out->count, (unsigned)out->esize);
        return -1;
    }
    out->data_bytes = (size_t)out->count * out->esize;
    return 0;
bad_header:
    snprintf(err, errcap, "malformed .npy header (expected {'descr': ..., 'fortran_order': ..., 'shape': (...)})");
    return -1;
}

/* The data's length against what follows the header: avail bytes. */
static int npy_data_length(const npy_array *a, uint64_t avail, char *err, size_t errcap) {
    if (a->data_bytes > avail) {
        snprintf(err, errcap,
                 "truncated .npy data: the shape holds %llu elements of %u bytes, the file has %llu data bytes",
                 (unsigned long long)a->count, (unsigned)a->esize, (unsigned long long)avail);
        return -1;
    }
    if (a->data_bytes != avail) {
        snprintf(err, errcap, ".npy file has %llu bytes after the %zu data bytes its header describes (a .npy file "
                              "must hold exactly its header's data)",
                 (unsigned long long)(avail - a->data_bytes), a->data_bytes);
        return -1;
    }
    return 0;
}

int npy_parse(const void *bytes, size_t len, npy_array *out, char *err, size_t errcap) {
    const unsigned char *b = bytes;
    size_t hstart = 0, hlen = 0;
    memset(out, 0, sizeof *out);
    const int pre = npy_preamble(b, len, &hstart, &hlen, err, errcap);
    if (pre) {
        if (pre > 0) snprintf(err, errcap, "truncated .npy header");
        return -1;
    }
    if (hlen > len - hstart) {
        snprintf(err, errcap, "truncated .npy header (%zu header bytes announced, %zu present)", hlen, len - hstart);
        return -1;
    }
    if (npy_header(b, hstart, hlen, out, err, errcap) || npy_data_length(out, len - hstart - hlen, err, errcap))
        return -1;
    out->data = b + hstart + hlen;
    return 0;
}

/* Reads n bytes into p: 0, or -1 with "how many were there" in *got. */
static int read_exactly(FILE *f, void *p, size_t n, size_t *got) {
    *got = fread(p, 1, n, f);
    return *got == n ? 0 : -1;
}

int npy_read_header(FILE *f, npy_array *out, char *err, size_t errcap) {
    unsigned char pre[12];
    size_t got, hstart = 0, hlen = 0;
    memset(out, 0, sizeof *out);
    int rc = read_exactly(f, pre, 10, &got);
    if (ferror(f)) goto read_error;
    if (rc) {
        snprintf(err, errcap, got >= 6 && memcmp(pre, "\x93NUMPY", 6) == 0 ? "truncated .npy header"
                                                                             : "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    rc = npy_preamble(pre, 10, &hstart, &hlen, err, errcap);
    if (rc < 0) return -1;
    if (rc > 0) {
        if (read_exactly(f, pre + 10, 2, &got)) {
            if (ferror(f)) goto read_error;
            snprintf(err, errcap, "truncated .npy header");
            return -1;
        }
        if (npy_preamble(pre, 12, &hstart, &hlen, err, errcap)) return -1;
    }
    if (hlen > NPY_MAX_HEADER_BYTES) {
        snprintf(err, errcap, ".npy header of %zu bytes is longer than the %d this reader reads", hlen,
                 NPY_MAX_HEADER_BYTES);
        return -1;
    }
    unsigned char *b = malloc(hstart + hlen);
    if (!b) {
        snprintf(err, errcap, "out of memory reading a .npy header of %zu bytes", hlen);
        return CASE_OUT_OF_MEMORY;
    }
    memcpy(b, pre, hstart);
    if (read_exactly(f, b + hstart, hlen, &got)) {
        free(b);
        if (ferror(f)) goto read_error;
        snprintf(err, errcap, "truncated .npy header (%zu header bytes announced, %zu present)", hlen, got);
        return -1;
    }
    rc = npy_header(b, hstart, hlen, out, err, errcap);
    free(b);
    return rc;
read_error:
    snprintf(err, errcap, "cannot read: %s", strerror(errno));
    return -1;
}

int npy_read_data(FILE *f, const npy_array *a, void *dst, char *err, size_t errcap) {
    struct stat st;
    size_t got;
    /* a regular file says its length: one longer or shorter than the header's is refused unread */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0) {
        const uint64_t size = (uint64_t)st.st_size;
        if (npy_data_length(a, size > a->data_offset ? size - a->data_offset : 0, err, errcap)) return -1;
    }
    if (read_exactly(f, dst, a->data_bytes, &got)) {
        if (ferror(f)) goto read_error;
        return npy_data_length(a, got, err, errcap);
    }
    /* anything else (a pipe, a device): one byte more is one too many */
    unsigned char extra;
    if (read_exactly(f, &extra, 1, &got) == 0) {
        snprintf(err, errcap, ".npy file has bytes after the %zu data bytes its header describes (a .npy file must "
                              "hold exactly its header's data)", a->data_bytes);
        return -1;
    }
    if (ferror(f)) goto read_error;
    if (a->big_endian != host_big_endian() && a->esize > 1) swap_elements(dst, a->count, a->esize);
    return 0;
read_error:
    snprintf(err, errcap, "cannot read: %s", strerror(errno));
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
            return CASE_OUT_OF_MEMORY;
        }
        memcpy(swapped, data, bytes);
        swap_elements(swapped, count, es);
    }
    const file_part parts[3] = {{pre, sizeof pre}, {header, hlen}, {swapped ? swapped : data, bytes}};
    const int rc = file_write_atomic(path, parts, 3, err, errcap);
    free(swapped);
    return rc;
}
