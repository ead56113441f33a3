#include "jsonin.h"
#include "jsondup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK '\001'
#define MARK_ESC "\\u0001"

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
        size_t j = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == j) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        size_t j = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == j) return 0;
    }
    return i;
}

static int is_num_char(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static void where(const char *text, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; ++i) {
        if (text[i] == '\n') { ++*line; *col = 1; }
        else ++*col;
    }
}

/*
 * The offset of the first byte of text[0..len) that does not begin a well-formed UTF-8
 * sequence (RFC 3629: the shortest form, no surrogates U+D800..DFFF, nothing above U+10FFFF,
 * no 5- or 6-byte forms), or len when all is well.  json-c's own check lets overlong forms
 * and surrogates through, which Python's reader (and most others) refuse.
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

/*
 * Pass 1 (out == NULL) measures, pass 2 writes.  Returns the output length,
 * or (size_t)-1 with err set.
 */
static size_t rewrite(const char *text, size_t len, char *out, char *err, size_t errcap) {
    size_t o = 0, i = 0, line, col;
    while (i < len) {
        const char c = text[i];
        if (c == '"') {
            const size_t start = i++;
            while (i < len && text[i] != '"') {
                const unsigned char u = (unsigned char)text[i];
                if (u < 0x20) {
                    where(text, i, &line, &col);
                    snprintf(err, errcap, "not JSON: line %zu, column %zu: control character 0x%02x in a string",
                             line, col, u);
                    return (size_t)-1;
                }
                if (text[i] == '\\') {
                    if (i + 5 < len && text[i + 1] == 'u' && text[i + 2] == '0' && text[i + 3] == '0' &&
                        text[i + 4] == '0' && text[i + 5] == '1') {
                        where(text, i, &line, &col);
                        snprintf(err, errcap, "line %zu, column %zu: \\u0001 is not allowed in strings", line, col);
                        return (size_t)-1;
                    }
                    ++i;
                }
                ++i;
            }
            if (i < len) ++i;
            if (out) memcpy(out + o, text + start, i - start);
            o += i - start;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t j = i;
            while (j < len && is_num_char(text[j])) ++j;
            const size_t n = number_len(text + i, j - i);
            if (n != j - i) {
                where(text, i, &line, &col);
                snprintf(err, errcap, "not JSON: line %zu, column %zu: invalid number '%.*s'", line, col,
                         (int)((j - i) > 40 ? 40 : (j - i)), text + i);
                return (size_t)-1;
            }
            if (out) {
                out[o] = '"';
                memcpy(out + o + 1, MARK_ESC, 6);
                memcpy(out + o + 7, text + i, n);
                out[o + 7 + n] = '"';
            }
            o += n + 8;
            i = j;
        } else {
            if (out) out[o] = c;
            ++o;
            ++i;
        }
    }
    return o;
}

json_object *jsonin_parse(const char *text, size_t len, char *err, size_t errcap) {
    const size_t bad = utf8_invalid((const unsigned char *)text, len);
    if (bad < len) {
        size_t line, col;
        where(text, bad, &line, &col);
        /* the offending byte and the continuation bytes after it, up to 4 */
        char bytes[20] = "";
        for (size_t k = 0; k < 4 && bad + k < len && (k == 0 || ((unsigned char)text[bad + k] & 0xC0) == 0x80); ++k)
            snprintf(bytes + 4 * k, sizeof bytes - 4 * k, "\\x%02X", (unsigned char)text[bad + k]);
        snprintf(err, errcap,
                 "not UTF-8: byte offset %zu (line %zu, column %zu): %s is not a well-formed UTF-8 sequence "
                 "(RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)",
                 bad, line, col, bytes);
        return NULL;
    }
    const size_t n = rewrite(text, len, NULL, err, errcap);
    if (n == (size_t)-1) return NULL;
    if (n >= (size_t)INT_MAX) {
        snprintf(err, errcap, "the case file is too large to parse (%zu bytes)", len);
        return NULL;
    }
    char *buf = malloc(n + 1);
    if (!buf) {
        snprintf(err, errcap, "out of memory reading the case file (%zu bytes)", len);
        return NULL;
    }
    rewrite(text, len, buf, err, errcap);
    buf[n] = '\0';
    struct json_tokener *tok = json_tokener_new();
    if (!tok) {
        free(buf);
        snprintf(err, errcap, "out of memory");
        return NULL;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *root = json_tokener_parse_ex(tok, buf, (int)n);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    if (jerr == json_tokener_success) { /* root is NULL for the document `null` */
        while (end < n && (buf[end] == ' ' || buf[end] == '\t' || buf[end] == '\n' || buf[end] == '\r')) ++end;
        if (end < n) jerr = json_tokener_error_parse_unexpected;
    } else if (jerr == json_tokener_continue) {
        /* json-c ends a top-level literal (null, true, false) only at a delimiter: the NUL
         * after the text is one (without it, `null` with no newline was "unexpected end") */
        root = json_tokener_parse_ex(tok, "", 1);
        jerr = json_tokener_get_error(tok);
        if (jerr == json_tokener_continue) jerr = json_tokener_error_parse_eof;
        end = n;
    }
    if (jerr != json_tokener_success) {
        size_t line = 1;
        for (size_t i = 0; i < end && i < n; ++i) line += buf[i] == '\n';
        snprintf(err, errcap, "not JSON: line %zu: %s", line,
                 n == 0 ? "the file is empty" : json_tokener_error_desc(jerr));
        json_object_put(root);
        root = NULL;
    } else if (json_check_meaning(text, len, err, errcap) != 0) {
        /* json-c kept the last value of a repeated key (another parser may keep the first), cut a
         * string at \u0000 or read a lone surrogate as U+FFFD */
        json_object_put(root);
        root = NULL;
    }
    json_tokener_free(tok);
    free(buf);
    return root;
}

const char *jsonin_number_text(const json_object *o) {
    if (!o || json_object_get_type(o) != json_type_string) return NULL;
    const char *s = json_object_get_string((json_object *)o);
    return s[0] == MARK ? s + 1 : NULL;
}

int jsonin_is_string(const json_object *o) {
    return o && json_object_get_type(o) == json_type_string && !jsonin_number_text(o);
}

const char *jsonin_kind(const json_object *o) {
    if (!o) return "null";
    switch (json_object_get_type(o)) {
    case json_type_null: return "null";
    case json_type_boolean: return "a boolean";
    case json_type_double:
    case json_type_int: return "a non-standard number (NaN/Infinity)";
    case json_type_object: return "an object";
    case json_type_array: return "an array";
    case json_type_string: return jsonin_number_text(o) ? "a number" : "a string";
    }
    return "?";
}
