/* What json-c reads differently from other parsers (repeated keys, \u0000, lone surrogates); see jsondup.h. */
#include "jsondup.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct key_ent {
    size_t pos;      /* offset of the opening quote in the text */
    size_t raw_len;  /* bytes between the quotes                */
    size_t cp, ncp;  /* decoded code points: pool[cp .. cp + ncp) */
} key_ent;

typedef struct frame {
    int is_object;
    int expect_key;        /* object: the next string is a key      */
    size_t index;          /* array: the current element's index    */
    size_t key_pos, key_len; /* object: the current key (raw, quotes excluded) */
    size_t ent0, pool0;    /* this object's first key entry, pool mark */
} frame;

typedef struct scan {
    const char *text;
    size_t len;
    frame *fr;
    size_t nfr, capfr;
    key_ent *ent;
    size_t nent, capent;
    uint32_t *pool;
    size_t npool, cappool;
    int found;          /* a duplicate recorded in best_* */
    size_t best_pos, best_first, best_len;
    char path[256];
    const char *bad;    /* a string that means two things: what (the first in text order) */
    size_t bad_pos;     /*   where its escape starts                  */
    int bad_is_key;
} scan;

/* The array p with room for `need` elements of esz bytes (moved, *cap updated), or NULL
 * when that fails (p untouched and still the caller's). */
static void *grow(void *p, size_t *cap, size_t need, size_t esz) {
    if (need <= *cap) return p;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2 / esz) return NULL;
        c *= 2;
    }
    void *q = realloc(p, c * esz);
    if (q) *cap = c;
    return q;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 0;
}

/* Decodes the string whose opening quote is at *i (valid JSON: escapes and
 * UTF-8 already checked by json-c) into the pool; *i ends past the closing quote.
 * Surrogate pairs combine, so an escaped and a literal character compare equal. */
static int decode_string(scan *s, size_t *i, size_t *ncp) {
    const unsigned char *t = (const unsigned char *)s->text;
    size_t k = *i + 1, n = 0;
    uint32_t pending_hi = 0;
    while (k < s->len && t[k] != '"') {
        uint32_t cp;
        if (t[k] == '\\' && k + 1 < s->len) {
            const unsigned char e = t[k + 1];
            k += 2;
            if (e == 'u' && k + 4 <= s->len) {
                cp = (uint32_t)(hexval((char)t[k]) << 12 | hexval((char)t[k + 1]) << 8 | hexval((char)t[k + 2]) << 4 |
                                hexval((char)t[k + 3]));
                k += 4;
            } else {
                cp = e == 'b' ? 8 : e == 'f' ? 12 : e == 'n' ? 10 : e == 'r' ? 13 : e == 't' ? 9 : e;
            }
        } else {
            const unsigned char b = t[k];
            int more = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
            cp = more == 3 ? (b & 0x07u) : more == 2 ? (b & 0x0Fu) : more == 1 ? (b & 0x1Fu) : b;
            ++k;
            while (more-- > 0 && k < s->len) cp = cp << 6 | (t[k++] & 0x3Fu);
        }
        if (pending_hi) {
            if (cp >= 0xDC00 && cp <= 0xDFFF) {
                s->pool[s->npool - 1] = 0x10000 + ((pending_hi - 0xD800) << 10) + (cp - 0xDC00);
                pending_hi = 0;
                continue;
            }
            pending_hi = 0;
        }
        uint32_t *pool = grow(s->pool, &s->cappool, s->npool + 1, sizeof *s->pool);
        if (!pool) return 0;
        s->pool = pool;
        s->pool[s->npool++] = cp;
        ++n;
        if (cp >= 0xD800 && cp <= 0xDBFF) pending_hi = cp;
    }
    *i = k < s->len ? k + 1 : k;
    *ncp = n;
    return 1;
}

static int ent_cmp(const scan *s, const key_ent *a, const key_ent *b) {
    const size_t n = a->ncp < b->ncp ? a->ncp : b->ncp;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t x = s->pool[a->cp + i], y = s->pool[b->cp + i];
        if (x != y) return x < y ? -1 : 1;
    }
    if (a->ncp != b->ncp) return a->ncp < b->ncp ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Stable merge sort of v[0..n) by (key, position), with tmp as scratch. */
static void sort_ents(const scan *s, key_ent *v, key_ent *tmp, size_t n) {
    if (n < 2) return;
    const size_t h = n / 2;
    sort_ents(s, v, tmp, h);
    sort_ents(s, v + h, tmp, n - h);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) tmp[o++] = ent_cmp(s, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[o++] = v[i++];
    while (j < n) tmp[o++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* The path through the first `frames` frames of the stack, each object's current key and each
 * array's current index: "InputTensors[1]", or "" for the root. */
static void make_path_to(scan *s, size_t frames) {
    size_t o = 0;
    s->path[0] = '\0';
    for (size_t f = 0; f < frames && o < sizeof s->path; ++f) {
        const frame *fr = &s->fr[f];
        int w;
        if (fr->is_object)
            w = snprintf(s->path + o, sizeof s->path - o, o ? ".%.*s" : "%.*s",
                         (int)(fr->key_len > 64 ? 64 : fr->key_len), s->text + fr->key_pos);
        else
            w = snprintf(s->path + o, sizeof s->path - o, "[%zu]", fr->index);
        if (w < 0) break;
        o += (size_t)w;
    }
}

/* The path of the object on top of the stack. */
static void make_path(scan *s) { make_path_to(s, s->nfr - 1); }

static uint32_t hex4(const unsigned char *t) {
    return (uint32_t)(hexval((char)t[0]) << 12 | hexval((char)t[1]) << 8 | hexval((char)t[2]) << 4 |
                      hexval((char)t[3]));
}

/* The string whose opening quote is at i (valid JSON): a \u0000 or a lone surrogate escape in it is
 * recorded (the first one of the text) with the path of the value or key it is.  json-c keeps C
 * strings (a key ends at U+0000, and so does every string a C reader takes) and reads a lone
 * surrogate as U+FFFD; other parsers keep both. */
static void check_string(scan *s, size_t i, int is_key) {
    const unsigned char *t = (const unsigned char *)s->text;
    if (s->bad) return;
    for (size_t k = i + 1; k < s->len && t[k] != '"'; ++k) {
        if (t[k] != '\\') continue;
        if (k + 5 >= s->len || t[k + 1] != 'u') {
            ++k;
            continue;
        }
        const uint32_t cp = hex4(t + k + 2);
        const char *what = NULL;
        if (cp == 0) what = "\\u0000: a key or string may not hold U+0000 (json-c ends the string there, other "
                            "parsers keep the rest)";
        else if (cp >= 0xDC00 && cp <= 0xDFFF) what = "a lone surrogate escape: a low surrogate without a high one "
                                                      "before it (json-c reads U+FFFD, other parsers U+DC00..DFFF)";
        else if (cp >= 0xD800 && cp <= 0xDBFF) {
            const size_t n = k + 6;
            if (n + 5 < s->len && t[n] == '\\' && t[n + 1] == 'u' && hex4(t + n + 2) >= 0xDC00 &&
                hex4(t + n + 2) <= 0xDFFF) {
                k = n + 5; /* a pair: one character */
                continue;
            }
            what = "a lone surrogate escape: a high surrogate without a low one after it (json-c reads U+FFFD, other "
                   "parsers U+D800..DBFF)";
        }
        if (what) {
            s->bad = what;
            s->bad_pos = k;
            s->bad_is_key = is_key;
            make_path_to(s, s->nfr);
            return;
        }
        k += 5;
    }
}

/* Two keys with the same decoded code points (an empty key has none, and the
 * pool may not exist yet: no pointer arithmetic on it then). */
static int same_key(const scan *s, const key_ent *a, const key_ent *b) {
    return a->ncp == b->ncp && (a->ncp == 0 || memcmp(s->pool + a->cp, s->pool + b->cp, a->ncp * sizeof *s->pool) == 0);
}

/* An object closes: its repeated keys, the earliest repeat kept. */
static int close_object(scan *s) {
    frame *fr = &s->fr[s->nfr - 1];
    const size_t n = s->nent - fr->ent0;
    key_ent *v = n ? s->ent + fr->ent0 : NULL; /* no keys (an empty object): maybe no array yet */
    if (n > 1) {
        key_ent *tmp = malloc(n * sizeof *tmp);
        if (!tmp) return 0;
        sort_ents(s, v, tmp, n);
        free(tmp);
        for (size_t i = 1; i < n; ++i) {
            const key_ent *a = &v[i - 1], *b = &v[i];
            if (!same_key(s, a, b)) continue;
            /* b repeats the first of its run */
            size_t first = i - 1;
            while (first > 0 && same_key(s, &v[first - 1], b)) --first;
            if (!s->found || b->pos < s->best_pos) {
                s->found = 1;
                s->best_pos = b->pos;
                s->best_len = b->raw_len;
                s->best_first = v[first].pos;
                make_path(s);
            }
        }
    }
    s->nent = fr->ent0;
    s->npool = fr->pool0;
    return 1;
}

static void line_col(const char *text, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; ++i) {
        if (text[i] == '\n') { ++*line; *col = 1; }
        else ++*col;
    }
}

int json_check_meaning(const char *text, size_t len, char *err, size_t errcap) {
    scan s;
    memset(&s, 0, sizeof s);
    s.text = text;
    s.len = len;
    int rc = 0;
    for (size_t i = 0; i < len;) {
        const char c = text[i];
        frame *top = s.nfr ? &s.fr[s.nfr - 1] : NULL;
        if (c == '"') {
            if (top && top->is_object && top->expect_key) {
                key_ent *ents = grow(s.ent, &s.capent, s.nent + 1, sizeof *s.ent);
                if (!ents) { rc = -1; break; }
                s.ent = ents;
                key_ent *e = &s.ent[s.nent++];
                e->pos = i;
                e->cp = s.npool;
                if (!decode_string(&s, &i, &e->ncp)) { rc = -1; break; }
                e->raw_len = i - e->pos - 2;
                top->key_pos = e->pos + 1;
                top->key_len = e->raw_len;
                top->expect_key = 0;
                check_string(&s, e->pos, 1);
            } else {
                /* a value string: checked, then skipped */
                check_string(&s, i, 0);
                ++i;
                while (i < len && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
                ++i;
            }
            continue;
        }
        if (c == '{' || c == '[') {
            frame *frs = grow(s.fr, &s.capfr, s.nfr + 1, sizeof *s.fr);
            if (!frs) { rc = -1; break; }
            s.fr = frs;
            frame *f = &s.fr[s.nfr++];
            memset(f, 0, sizeof *f);
            f->is_object = c == '{';
            f->expect_key = f->is_object;
            f->ent0 = s.nent;
            f->pool0 = s.npool;
        } else if ((c == '}' || c == ']') && top) {
            if (top->is_object && !close_object(&s)) { rc = -1; break; }
            --s.nfr;
        } else if (c == ',' && top) {
            if (top->is_object) top->expect_key = 1;
            else ++top->index;
        }
        ++i;
    }
    if (rc == -1) {
        snprintf(err, errcap, "out of memory checking the case file for repeated keys");
    } else if (s.bad) {
        size_t line, col;
        line_col(text, s.bad_pos, &line, &col);
        snprintf(err, errcap, "line %zu, column %zu: %s %s%s%s holds %s", line, col,
                 s.bad_is_key ? "the key" : "the string",
                 s.path[0] ? "at \"" : s.bad_is_key ? "" : "that is the top-level value", s.path,
                 s.path[0] ? "\"" : "", s.bad);
        rc = 1;
    } else if (s.found) {
        size_t line, col, fline, fcol;
        line_col(text, s.best_pos, &line, &col);
        line_col(text, s.best_first, &fline, &fcol);
        snprintf(err, errcap,
                 "line %zu, column %zu: duplicate key \"%.*s\" in %s%s (first at line %zu, column %zu): "
                 "a key may appear once per object",
                 line, col, (int)(s.best_len > 64 ? 64 : s.best_len), text + s.best_pos + 1,
                 s.path[0] ? "" : "the top-level object", s.path, fline, fcol);
        rc = 1;
    }
    free(s.fr);
    free(s.ent);
    free(s.pool);
    return rc;
}
