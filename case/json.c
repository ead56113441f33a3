/*
 * The strict JSON reader (json.h).  One parser runs twice: the first pass
 * checks the text and counts, the second fills the tree in one allocation.
 * While the text is read, finished values wait on a stack at the front of that
 * allocation; when their array or object closes they move, as one block, to
 * the back (memmove: the block may overlap where they were), and the array or
 * object takes their place on the stack.  Every value read so far is on the
 * stack or in a block, so the stack never reaches the blocks, and the root
 * ends up first.  Arrays and objects open frames (at most JSON_MAX_DEPTH), so
 * nothing recurses.
 */
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define END_OF_DATA "unexpected end of data"
#define UNEXPECTED "unexpected character"
#define PATH_CAP 256

typedef struct frame {
    jv_kind kind;            /* JV_ARRAY or JV_OBJECT                                 */
    size_t offset;           /* its '[' or '{'                                        */
    size_t base;             /* second pass: its first child on the stack             */
    size_t count;            /* elements, or members, finished so far                 */
    size_t key_pos, key_len; /* an object's current key as written, for paths         */
} frame;

typedef struct parser {
    const char *t;
    size_t len, i;
    char *err;
    size_t errcap;
    frame fr[JSON_MAX_DEPTH];
    size_t depth;
    int fill;                   /* 0: the first pass, 1: the second               */
    size_t n_values, max_members, used; /* counted: values and keys, an object's members, string bytes */
    jv scratch;                 /* the first pass writes its values here           */
    jv *vals;                   /* second pass: n_values of them                   */
    size_t top, bottom;         /*   the stack vals[0, top), the blocks vals[bottom, n_values) */
    size_t *order;              /*   max_members: the keys of an object, sorted    */
    char *bytes;                /*   the strings' and numbers' text                */
    const char *bad;            /* the first key or string that means two things   */
    size_t bad_pos;             /*   its escape                                     */
    int bad_is_key;
    char bad_path[PATH_CAP];
    int dup;                    /* the earliest repeated key                        */
    size_t dup_pos, dup_first;  /*   its quote, and the first occurrence's         */
    char dup_path[PATH_CAP];    /*   the object's path                              */
} parser;

static void line_col(const char *t, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; ++i) {
        if (t[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* A syntax error at offset `at` (len: the text ended): the message, -1. */
static int fail_at(parser *p, size_t at, const char *what) {
    size_t line, col;
    line_col(p->t, at, &line, &col);
    snprintf(p->err, p->errcap, "not JSON: line %zu: %s", line, what);
    return -1;
}

/*
 * The offset of the first byte of t[0..len) that does not begin a well-formed UTF-8
 * sequence (RFC 3629: the shortest form, no surrogates U+D800..DFFF, nothing above
 * U+10FFFF, no 5- or 6-byte forms), or len when all is well.
 */
static size_t utf8_invalid(const unsigned char *t, size_t len) {
    size_t i = 0;
    while (i < len) {
        const unsigned char b = t[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        size_t n;
        unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
        if (b >= 0xC2 && b <= 0xDF) n = 2;
        else if (b >= 0xE0 && b <= 0xEF) {
            n = 3;
            if (b == 0xE0) lo = 0xA0;      /* below: overlong */
            else if (b == 0xED) hi = 0x9F; /* above: U+D800..DFFF */
        } else if (b >= 0xF0 && b <= 0xF4) {
            n = 4;
            if (b == 0xF0) lo = 0x90;      /* below: overlong */
            else if (b == 0xF4) hi = 0x8F; /* above: beyond U+10FFFF */
        } else return i; /* a continuation byte, C0/C1 (overlong), F5..FF */
        if (len - i < n || t[i + 1] < lo || t[i + 1] > hi) return i;
        for (size_t k = 2; k < n; ++k)
            if (t[i + k] < 0x80 || t[i + k] > 0xBF) return i;
        i += n;
    }
    return len;
}

/* Length of a valid RFC 8259 number at s (n chars available), or 0. */
static size_t number_len(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && s[i] == '-') ++i;
    if (i >= n) return 0;
    if (s[i] == '0') ++i;
    else if (s[i] >= '1' && s[i] <= '9')
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    else return 0;
    if (i < n && s[i] == '.') {
        const size_t j = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == j) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        const size_t j = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == j) return 0;
    }
    return i;
}

static int is_num_char(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void skip_ws(parser *p) {
    while (p->i < p->len && (p->t[p->i] == ' ' || p->t[p->i] == '\t' || p->t[p->i] == '\n' || p->t[p->i] == '\r'))
        ++p->i;
}

/* A new value or key at `offset`: on the stack (second pass) or in the scratch (first). */
static jv *push(parser *p, jv_kind kind, size_t offset) {
    jv *v = p->fill ? &p->vals[p->top++] : &p->scratch;
    if (!p->fill) ++p->n_values;
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->offset = offset;
    return v;
}

/* One byte of a string's or number's text (the first pass only counts it). */
static void put(parser *p, unsigned char c) {
    if (p->fill) p->bytes[p->used] = (char)c;
    ++p->used;
}

static void put_utf8(parser *p, uint32_t cp) {
    if (cp < 0x80) {
        put(p, (unsigned char)cp);
    } else if (cp < 0x800) {
        put(p, (unsigned char)(0xC0 | cp >> 6));
        put(p, (unsigned char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        put(p, (unsigned char)(0xE0 | cp >> 12));
        put(p, (unsigned char)(0x80 | (cp >> 6 & 0x3F)));
        put(p, (unsigned char)(0x80 | (cp & 0x3F)));
    } else {
        put(p, (unsigned char)(0xF0 | cp >> 18));
        put(p, (unsigned char)(0x80 | (cp >> 12 & 0x3F)));
        put(p, (unsigned char)(0x80 | (cp >> 6 & 0x3F)));
        put(p, (unsigned char)(0x80 | (cp & 0x3F)));
    }
}

/* The path through the first `frames` frames, each object's current key (as written,
 * at most 64 bytes) and each array's current index: "InputTensors[1].DataType". */
static void make_path(const parser *p, size_t frames, char *path) {
    size_t o = 0;
    path[0] = '\0';
    for (size_t f = 0; f < frames && o < PATH_CAP; ++f) {
        const frame *fr = &p->fr[f];
        int w;
        if (fr->kind == JV_OBJECT)
            w = snprintf(path + o, PATH_CAP - o, o ? ".%.*s" : "%.*s", (int)(fr->key_len > 64 ? 64 : fr->key_len),
                         p->t + fr->key_pos);
        else
            w = snprintf(path + o, PATH_CAP - o, "[%zu]", fr->count);
        if (w < 0) break;
        o += (size_t)w;
    }
}

/* Four hex digits at p->i into *cu, p->i past them; -1 with the message. */
static int hex4(parser *p, uint32_t *cu) {
    *cu = 0;
    for (int k = 0; k < 4; ++k, ++p->i) {
        if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
        const int h = hexval(p->t[p->i]);
        if (h < 0) return fail_at(p, p->i, "invalid string sequence");
        *cu = *cu << 4 | (uint32_t)h;
    }
    return 0;
}

/* 1 when the text at i is a \uXXXX escape of a low surrogate. */
static int low_surrogate_at(const parser *p, size_t i) {
    if (p->len - i < 6 || p->t[i] != '\\' || p->t[i + 1] != 'u') return 0;
    uint32_t cu = 0;
    for (size_t k = 2; k < 6; ++k) {
        const int h = hexval(p->t[i + k]);
        if (h < 0) return 0;
        cu = cu << 4 | (uint32_t)h;
    }
    return cu >= 0xDC00 && cu <= 0xDFFF;
}

/* The string whose quote is at p->i, decoded; a key sets its object's current key.  The
 * first \u0000 or lone surrogate escape of the text is recorded with its path. */
static int string(parser *p, int is_key) {
    const size_t open = p->i++, start = p->used;
    const char *bad = NULL;
    size_t bad_pos = 0;
    for (;;) {
        if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
        const unsigned char c = (unsigned char)p->t[p->i];
        if (c == '"') break;
        if (c < 0x20) {
            size_t line, col;
            line_col(p->t, p->i, &line, &col);
            snprintf(p->err, p->errcap, "not JSON: line %zu, column %zu: control character 0x%02x in a string", line,
                     col, c);
            return -1;
        }
        ++p->i;
        if (c != '\\') {
            put(p, c);
            continue;
        }
        if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
        const size_t esc = p->i - 1;
        switch (p->t[p->i++]) {
        case '"': put(p, '"'); continue;
        case '\\': put(p, '\\'); continue;
        case '/': put(p, '/'); continue;
        case 'b': put(p, '\b'); continue;
        case 'f': put(p, '\f'); continue;
        case 'n': put(p, '\n'); continue;
        case 'r': put(p, '\r'); continue;
        case 't': put(p, '\t'); continue;
        case 'u': break;
        default: return fail_at(p, p->i - 1, "invalid string sequence");
        }
        uint32_t cp, lo;
        const char *what = NULL;
        if (hex4(p, &cp)) return -1;
        if (cp >= 0xD800 && cp <= 0xDBFF && low_surrogate_at(p, p->i)) { /* a pair: one character */
            p->i += 2;
            if (hex4(p, &lo)) return -1;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp == 0) {
            what = "\\u0000: a key or string may not hold U+0000 (a C reader ends the string there, other parsers "
                   "keep the rest)";
        } else if (cp >= 0xD800 && cp <= 0xDBFF) {
            what = "a lone surrogate escape: a high surrogate without a low one after it (some parsers read U+FFFD, "
                   "others U+D800..DBFF)";
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            what = "a lone surrogate escape: a low surrogate without a high one before it (some parsers read U+FFFD, "
                   "others U+DC00..DFFF)";
        }
        if (what && !bad) {
            bad = what;
            bad_pos = esc;
        }
        put_utf8(p, cp);
    }
    ++p->i;
    jv *v = push(p, JV_STRING, open);
    put(p, '\0');
    v->len = p->used - start - 1;
    v->u.s = p->fill ? p->bytes + start : NULL;
    if (is_key) {
        frame *f = &p->fr[p->depth - 1];
        f->key_pos = open + 1;
        f->key_len = p->i - 1 - f->key_pos;
    }
    if (bad && !p->bad) {
        p->bad = bad;
        p->bad_pos = bad_pos;
        p->bad_is_key = is_key;
        make_path(p, p->depth, p->bad_path);
    }
    return 0;
}

static int number(parser *p) {
    size_t j = p->i;
    while (j < p->len && is_num_char(p->t[j])) ++j;
    const size_t n = j - p->i;
    if (number_len(p->t + p->i, n) != n) {
        size_t line, col;
        line_col(p->t, p->i, &line, &col);
        snprintf(p->err, p->errcap, "not JSON: line %zu, column %zu: invalid number '%.*s'", line, col,
                 (int)(n > 40 ? 40 : n), p->t + p->i);
        return -1;
    }
    jv *v = push(p, JV_NUMBER, p->i);
    const size_t start = p->used;
    for (size_t k = 0; k < n; ++k) put(p, (unsigned char)p->t[p->i + k]);
    put(p, '\0');
    v->len = n;
    v->u.s = p->fill ? p->bytes + start : NULL;
    p->i = j;
    return 0;
}

static int literal(parser *p, const char *word, const char *what, jv_kind kind) {
    const size_t n = strlen(word);
    for (size_t k = 0; k < n; ++k) {
        if (p->i + k >= p->len) return fail_at(p, p->len, END_OF_DATA);
        if (p->t[p->i + k] != word[k]) return fail_at(p, p->i + k, what);
    }
    push(p, kind, p->i)->u.b = word[0] == 't';
    p->i += n;
    return 0;
}

/* A value that is no array or object, at p->i. */
static int scalar(parser *p) {
    if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
    const char c = p->t[p->i];
    if (c == '"') return string(p, 0);
    if (c == '-' || (c >= '0' && c <= '9')) return number(p);
    if (c == 't') return literal(p, "true", "boolean expected", JV_BOOL);
    if (c == 'f') return literal(p, "false", "boolean expected", JV_BOOL);
    if (c == 'n') return literal(p, "null", "null expected", JV_NULL);
    return fail_at(p, p->i, UNEXPECTED);
}

/* An object's key at p->i and the ':' after it. */
static int key(parser *p) {
    if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
    if (p->t[p->i] != '"') return fail_at(p, p->i, "quoted object property name expected");
    if (string(p, 1)) return -1;
    skip_ws(p);
    if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
    if (p->t[p->i] != ':') return fail_at(p, p->i, "object property name separator ':' expected");
    ++p->i;
    return 0;
}

/* Order of keys a and b of an object (keys[2 * a], keys[2 * b]): decoded text, then position. */
static int key_cmp(const jv *keys, size_t a, size_t b) {
    const jv *x = &keys[2 * a], *y = &keys[2 * b];
    const int c = memcmp(x->u.s, y->u.s, x->len < y->len ? x->len : y->len);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void sift_down(const jv *keys, size_t *o, size_t root, size_t n) {
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && key_cmp(keys, o[c], o[c + 1]) < 0) ++c;
        if (key_cmp(keys, o[root], o[c]) >= 0) return;
        const size_t t = o[root];
        o[root] = o[c];
        o[c] = t;
        root = c;
    }
}

/* The object on top closes (second pass, its members on the stack): the earliest repeat
 * of a key in it, if earlier than the one recorded.  Heapsort: no recursion, no memory of
 * its own (p->order is part of the tree's allocation). */
static void find_repeats(parser *p, const frame *f) {
    const jv *keys = p->vals + f->base;
    size_t *o = p->order;
    const size_t n = f->count;
    for (size_t k = 0; k < n; ++k) o[k] = k;
    for (size_t k = n / 2; k-- > 0;) sift_down(keys, o, k, n);
    for (size_t end = n; end-- > 1;) {
        const size_t t = o[0];
        o[0] = o[end];
        o[end] = t;
        sift_down(keys, o, 0, end);
    }
    for (size_t k = 1; k < n; ++k) {
        const jv *a = &keys[2 * o[k - 1]], *b = &keys[2 * o[k]];
        if (a->len != b->len || memcmp(a->u.s, b->u.s, a->len) != 0) continue;
        /* b repeats a; the earliest repeat of a run comes right after its first */
        if (!p->dup || b->offset < p->dup_pos) {
            p->dup = 1;
            p->dup_pos = b->offset;
            p->dup_first = a->offset;
            make_path(p, p->depth - 1, p->dup_path);
        }
    }
}

static int open_container(parser *p) {
    if (p->depth == JSON_MAX_DEPTH) {
        char what[48];
        snprintf(what, sizeof what, "nesting deeper than %d levels", JSON_MAX_DEPTH);
        return fail_at(p, p->i, what);
    }
    frame *f = &p->fr[p->depth++];
    memset(f, 0, sizeof *f);
    f->kind = p->t[p->i] == '[' ? JV_ARRAY : JV_OBJECT;
    f->offset = p->i++;
    f->base = p->top;
    return 0;
}

/* The array or object on top closes: its children move from the stack to a block. */
static void close_container(parser *p) {
    const frame *f = &p->fr[p->depth - 1];
    if (f->kind == JV_OBJECT && f->count > p->max_members) p->max_members = f->count;
    if (p->fill) {
        if (f->kind == JV_OBJECT && f->count > 1) find_repeats(p, f);
        const size_t n = p->top - f->base;
        p->bottom -= n;
        if (n) memmove(p->vals + p->bottom, p->vals + f->base, n * sizeof *p->vals);
        p->top = f->base;
    }
    jv *v = push(p, f->kind, f->offset);
    v->len = f->count;
    v->u.items = p->fill ? p->vals + p->bottom : NULL;
    --p->depth;
}

/* The whole text: one value, then only white space.  0, or -1 with the message. */
static int parse(parser *p) {
    for (;;) {
        /* a value */
        skip_ws(p);
        if (p->i < p->len && (p->t[p->i] == '[' || p->t[p->i] == '{')) {
            if (open_container(p)) return -1;
            const frame *f = &p->fr[p->depth - 1];
            skip_ws(p);
            if (p->i >= p->len || p->t[p->i] != (f->kind == JV_ARRAY ? ']' : '}')) {
                if (f->kind == JV_OBJECT && key(p)) return -1;
                continue; /* its first value */
            }
            ++p->i; /* empty */
            close_container(p);
        } else if (scalar(p)) {
            return -1;
        }
        /* after a value: the end, a ',' or the bracket that closes its array or object */
        for (;;) {
            skip_ws(p);
            if (p->depth == 0) return p->i < p->len ? fail_at(p, p->i, UNEXPECTED) : 0;
            frame *f = &p->fr[p->depth - 1];
            const char closing = f->kind == JV_ARRAY ? ']' : '}';
            ++f->count;
            if (p->i >= p->len) return fail_at(p, p->len, END_OF_DATA);
            if (p->t[p->i] == closing) {
                ++p->i;
                close_container(p); /* a value of the array or object around it */
                continue;
            }
            if (p->t[p->i] != ',')
                return fail_at(p, p->i, f->kind == JV_ARRAY ? "array value separator ',' expected"
                                                            : "object value separator ',' expected");
            ++p->i;
            skip_ws(p);
            if (p->i < p->len && p->t[p->i] == closing) return fail_at(p, p->i, UNEXPECTED); /* a trailing comma */
            if (f->kind == JV_OBJECT && key(p)) return -1;
            break;
        }
    }
}

json_status json_parse(const char *text, size_t len, json_doc *doc, char *err, size_t errcap) {
    char dummy[8];
    if (!err || errcap == 0) {
        err = dummy;
        errcap = sizeof dummy;
    }
    err[0] = '\0';
    doc->root = NULL;
    doc->mem = NULL;
    if (len == 0) {
        snprintf(err, errcap, "not JSON: line 1: the file is empty");
        return JSON_BAD;
    }
    const size_t bad = utf8_invalid((const unsigned char *)text, len);
    if (bad < len) {
        size_t line, col;
        line_col(text, bad, &line, &col);
        /* the offending byte and the continuation bytes after it, up to 4 */
        char bytes[20] = "";
        for (size_t k = 0; k < 4 && bad + k < len && (k == 0 || ((unsigned char)text[bad + k] & 0xC0) == 0x80); ++k)
            snprintf(bytes + 4 * k, sizeof bytes - 4 * k, "\\x%02X", (unsigned char)text[bad + k]);
        snprintf(err, errcap,
                 "not UTF-8: byte offset %zu (line %zu, column %zu): %s is not a well-formed UTF-8 sequence "
                 "(RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)",
                 bad, line, col, bytes);
        return JSON_BAD;
    }
    parser ps, *p = &ps; /* about 4 KB: the frames */
    memset(p, 0, sizeof *p);
    p->t = text;
    p->len = len;
    p->err = err;
    p->errcap = errcap;
    size_t line, col, fline, fcol;
    if (parse(p)) return JSON_BAD;
    if (p->bad) {
        line_col(text, p->bad_pos, &line, &col);
        snprintf(err, errcap, "line %zu, column %zu: %s %s%s%s holds %s", line, col,
                 p->bad_is_key ? "the key" : "the string",
                 p->bad_path[0] ? "at \"" : p->bad_is_key ? "" : "that is the top-level value", p->bad_path,
                 p->bad_path[0] ? "\"" : "", p->bad);
        return JSON_BAD;
    }
    /* one allocation: the values, the scratch of the key sort, the text of strings and numbers */
    const size_t n = p->n_values, m = p->max_members, nb = p->used;
    if (n > SIZE_MAX / sizeof(jv) || m > (SIZE_MAX - n * sizeof(jv)) / sizeof(size_t) ||
        nb > SIZE_MAX - n * sizeof(jv) - m * sizeof(size_t)) {
        snprintf(err, errcap, "out of memory reading JSON (%zu bytes: its tree is larger than memory can be)", len);
        return JSON_OOM;
    }
    const size_t total = n * sizeof(jv) + m * sizeof(size_t) + nb;
    void *mem = malloc(total);
    if (!mem) {
        snprintf(err, errcap, "out of memory reading JSON (%zu bytes; its tree needs %zu)", len, total);
        return JSON_OOM;
    }
    p->vals = mem;
    p->order = (size_t *)(void *)(p->vals + n);
    p->bytes = (char *)(p->order + m);
    p->fill = 1;
    p->i = p->used = p->top = 0;
    p->bottom = n;
    if (parse(p) || p->top != 1 || p->bottom != 1) { /* never: the first pass read the same text */
        snprintf(err, errcap, "internal error: the JSON reader's passes disagree");
        free(mem);
        return JSON_BAD;
    }
    if (p->dup) {
        line_col(text, p->dup_pos, &line, &col);
        line_col(text, p->dup_first, &fline, &fcol);
        size_t k = p->dup_pos + 1; /* the key as written: up to its closing quote */
        while (text[k] != '"') k += text[k] == '\\' ? 2 : 1;
        const size_t raw = k - p->dup_pos - 1;
        snprintf(err, errcap,
                 "line %zu, column %zu: duplicate key \"%.*s\" in %s%s (first at line %zu, column %zu): "
                 "a key may appear once per object",
                 line, col, (int)(raw > 64 ? 64 : raw), text + p->dup_pos + 1, p->dup_path[0] ? "" : "the top-level object",
                 p->dup_path, fline, fcol);
        free(mem);
        return JSON_BAD;
    }
    doc->root = p->vals;
    doc->mem = mem;
    return JSON_OK;
}

void json_free(json_doc *doc) {
    free(doc->mem);
    doc->mem = NULL;
    doc->root = NULL;
}

int jv_is(const jv *v, jv_kind k) { return v && v->kind == k; }

const char *jv_number(const jv *v) { return jv_is(v, JV_NUMBER) ? v->u.s : NULL; }

const char *jv_string(const jv *v) { return jv_is(v, JV_STRING) ? v->u.s : NULL; }

size_t jv_count(const jv *v) { return jv_is(v, JV_ARRAY) || jv_is(v, JV_OBJECT) ? v->len : 0; }

const jv *jv_at(const jv *a, size_t i) { return jv_is(a, JV_ARRAY) && i < a->len ? &a->u.items[i] : NULL; }

const char *jv_key(const jv *o, size_t i) { return jv_is(o, JV_OBJECT) && i < o->len ? o->u.items[2 * i].u.s : NULL; }

const jv *jv_value(const jv *o, size_t i) { return jv_is(o, JV_OBJECT) && i < o->len ? &o->u.items[2 * i + 1] : NULL; }

const jv *jv_get(const jv *o, const char *key) {
    if (!jv_is(o, JV_OBJECT)) return NULL;
    for (size_t i = 0; i < o->len; ++i)
        if (strcmp(o->u.items[2 * i].u.s, key) == 0) return &o->u.items[2 * i + 1];
    return NULL;
}

const char *jv_kind_name(const jv *v) {
    switch (v ? v->kind : JV_NULL) {
    case JV_NULL: return "null";
    case JV_BOOL: return "a boolean";
    case JV_NUMBER: return "a number";
    case JV_STRING: return "a string";
    case JV_ARRAY: return "an array";
    case JV_OBJECT: return "an object";
    }
    return "?";
}
