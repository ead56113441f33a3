#include "json_out.h"
#include "value.h"

static void string_out(FILE *f, const char *s, int short_bf) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        case '\b':
        case '\f':
            if (short_bf) {
                fputs(*p == '\b' ? "\\b" : "\\f", f);
                break;
            }
            /* fall through */
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

void jout_string(FILE *f, const char *s) { string_out(f, s, 0); }

void jout_string_short(FILE *f, const char *s) { string_out(f, s, 1); }

void jout_u32_list(FILE *f, const uint32_t *v, uint32_t n) {
    fputc('[', f);
    for (uint32_t i = 0; i < n; ++i) fprintf(f, i ? ", %u" : "%u", (unsigned)v[i]);
    fputc(']', f);
}

void jout_values(FILE *f, const void *data, uint64_t count, DMLREF_TENSOR_DATA_TYPE dt, unsigned per_line,
                 unsigned indent) {
    jout_values_ex(f, data, count, dt, 0, per_line, indent);
}

void jout_values_ex(FILE *f, const void *data, uint64_t count, DMLREF_TENSOR_DATA_TYPE dt, unsigned flags,
                    unsigned per_line, unsigned indent) {
    const uint32_t es = dmlref_data_type_size(dt);
    const unsigned char *p = data;
    char buf[VALUE_TEXT_MAX + 8];
    fputc('[', f);
    for (uint64_t i = 0; i < count; ++i) {
        if (i) {
            fputc(',', f);
            if (per_line && i % per_line == 0) fprintf(f, "\n%*s", (int)indent, "");
            else fputc(' ', f);
        }
        fputs(value_format_ex(p + i * es, dt, flags, buf, sizeof buf), f);
    }
    fputc(']', f);
}

void jout_nested(FILE *f, const void *data, const uint32_t *sizes, uint32_t ndim, DMLREF_TENSOR_DATA_TYPE dt,
                 unsigned flags, unsigned indent) {
    if (ndim <= 1) {
        jout_values_ex(f, data, ndim ? sizes[0] : 1, dt, flags, 16, indent + 1);
        return;
    }
    uint64_t inner = 1; /* elements per entry of the outermost dimension */
    for (uint32_t d = 1; d < ndim; ++d) inner *= sizes[d];
    const size_t step = (size_t)inner * dmlref_data_type_size(dt);
    fputc('[', f);
    for (uint32_t i = 0; i < sizes[0]; ++i) {
        if (i) fprintf(f, ",\n%*s", (int)indent + 1, "");
        jout_nested(f, (const unsigned char *)data + i * step, sizes + 1, ndim - 1, dt, flags, indent + 1);
    }
    fputc(']', f);
}
