/*
 * The case library's JSON reader (case/json.c) on its own and under the case
 * reader: the tree (kinds, offsets, members in order, numbers as written,
 * every escape, surrogate pairs), each refusal with its exact message, hostile
 * inputs (100000 nested brackets, a 1 MB string, a number of 1 MB, every
 * control character), every prefix of every documented case file (a clean
 * message, never a crash), and out of memory: malloc, calloc, realloc and
 * posix_memalign are wrapped at link time (-Wl,--wrap=...) so that the Nth
 * allocation fails; the reader must say JSON_OOM, the case reader must fail
 * with a message, and neither may crash or leak (ASan: make test-asan).
 * Argument: the case folder (default tests/cases).  Prints
 * "json_read: N passed, N failed".
 */
#include "case/case.h"
#include "case/json.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(c)                                                                                       \
    do {                                                                                               \
        if (c) ++passed;                                                                               \
        else {                                                                                         \
            ++failed;                                                                                  \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                                        \
        }                                                                                              \
    } while (0)

/* ---- the allocation that fails ---------------------------------------------------------- */

/* Allocations left before one fails (-1: none fails); allocations made since the count was set. */
static long alloc_left = -1, alloc_made;

static int alloc_fails(void) {
    ++alloc_made;
    if (alloc_left < 0) return 0;
    return alloc_left-- == 0;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);

void *__wrap_malloc(size_t n) { return alloc_fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return alloc_fails() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return alloc_fails() ? NULL : __real_realloc(p, n); }
int __wrap_posix_memalign(void **p, size_t align, size_t n) {
    return alloc_fails() ? 12 /* ENOMEM */ : __real_posix_memalign(p, align, n);
}

/* ---- helpers --------------------------------------------------------------------------- */

static char err[1024];

/* Parses text[0..len): the status; the tree in *doc when it is JSON_OK. */
static json_status parse_n(const char *text, size_t len, json_doc *doc) { return json_parse(text, len, doc, err, sizeof err); }

/* text must be refused (JSON_BAD) with exactly the message want. */
static int refused_n(const char *text, size_t len, const char *want) {
    json_doc doc;
    const json_status st = parse_n(text, len, &doc);
    if (st == JSON_OK) json_free(&doc);
    if (st == JSON_BAD && strcmp(err, want) == 0 && !doc.root && !doc.mem) return 1;
    printf("    %.60s: status %d, message '%s', wanted '%s'\n", text, (int)st, err, want);
    return 0;
}
static int refused(const char *text, const char *want) { return refused_n(text, strlen(text), want); }

/* The root of text, which must parse (NULL and a line when it does not); free with json_free. */
static const jv *parsed(const char *text, json_doc *doc) {
    if (parse_n(text, strlen(text), doc) == JSON_OK) return doc->root;
    printf("    %.60s: refused: %s\n", text, err);
    return NULL;
}

/* A string of n bytes: `head`, then c repeated, then `tail` (malloc'd, NUL-terminated). */
static char *repeated(const char *head, char c, size_t n, const char *tail) {
    const size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + n + t + 1);
    if (!s) return NULL;
    memcpy(s, head, h);
    memset(s + h, c, n);
    memcpy(s + h + n, tail, t + 1);
    return s;
}

/* ---- the tree --------------------------------------------------------------------------- */

static void test_tree(void) {
    json_doc doc;
    const char *text = "{\"b\": [1, -0, 2.5e-3, true, false, null, \"x\"],\n \"a\": {}, \"\": [], \"n\": -12345678901234567890123}";
    const jv *r = parsed(text, &doc);
    CHECK(r && jv_is(r, JV_OBJECT) && jv_count(r) == 4 && r->offset == 0);
    if (!r) return;
    /* members in the text's order, keys decoded */
    CHECK(strcmp(jv_key(r, 0), "b") == 0 && strcmp(jv_key(r, 1), "a") == 0 && strcmp(jv_key(r, 2), "") == 0 &&
          strcmp(jv_key(r, 3), "n") == 0 && jv_key(r, 4) == NULL && jv_value(r, 4) == NULL);
    const jv *b = jv_get(r, "b");
    CHECK(b == jv_value(r, 0) && jv_is(b, JV_ARRAY) && jv_count(b) == 7 && b->offset == 6);
    CHECK(strcmp(jv_number(jv_at(b, 0)), "1") == 0 && jv_at(b, 0)->offset == 7);
    CHECK(strcmp(jv_number(jv_at(b, 1)), "-0") == 0 && jv_at(b, 1)->len == 2);
    CHECK(strcmp(jv_number(jv_at(b, 2)), "2.5e-3") == 0);
    CHECK(jv_is(jv_at(b, 3), JV_BOOL) && jv_at(b, 3)->u.b == 1 && jv_at(b, 4)->u.b == 0);
    CHECK(jv_is(jv_at(b, 5), JV_NULL) && jv_at(b, 7) == NULL);
    CHECK(strcmp(jv_string(jv_at(b, 6)), "x") == 0 && jv_number(jv_at(b, 6)) == NULL && jv_string(jv_at(b, 0)) == NULL);
    const jv *a = jv_get(r, "a");
    CHECK(jv_is(a, JV_OBJECT) && jv_count(a) == 0 && a->offset == 53 && jv_get(a, "b") == NULL);
    CHECK(jv_is(jv_get(r, ""), JV_ARRAY) && jv_count(jv_get(r, "")) == 0);
    CHECK(strcmp(jv_number(jv_get(r, "n")), "-12345678901234567890123") == 0);
    CHECK(jv_get(r, "c") == NULL && jv_get(b, "b") == NULL && jv_at(r, 0) == NULL);
    /* kinds, for messages; NULL is "null" */
    CHECK(strcmp(jv_kind_name(r), "an object") == 0 && strcmp(jv_kind_name(b), "an array") == 0 &&
          strcmp(jv_kind_name(jv_at(b, 0)), "a number") == 0 && strcmp(jv_kind_name(jv_at(b, 3)), "a boolean") == 0 &&
          strcmp(jv_kind_name(jv_at(b, 5)), "null") == 0 && strcmp(jv_kind_name(jv_at(b, 6)), "a string") == 0 &&
          strcmp(jv_kind_name(NULL), "null") == 0);
    CHECK(!jv_is(NULL, JV_NULL) && jv_count(NULL) == 0 && jv_number(NULL) == NULL && jv_get(NULL, "a") == NULL);
    json_free(&doc);
    CHECK(doc.root == NULL && doc.mem == NULL);

    /* top-level values of every kind, with and without white space after them */
    const char *tops[] = {"null", "true", "false", "0", "-1.5E+3", "\"s\"", "[]", "{}", " \t\r\nnull\n", "[[[]]]\n"};
    const jv_kind kinds[] = {JV_NULL, JV_BOOL, JV_BOOL, JV_NUMBER, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT, JV_NULL, JV_ARRAY};
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; ++i) {
        r = parsed(tops[i], &doc);
        CHECK(r && r->kind == kinds[i]);
        json_free(&doc);
    }
}

/* ---- strings ---------------------------------------------------------------------------- */

static void test_strings(void) {
    json_doc doc;
    /* every escape; \u in both cases; escaped and literal pairs are one character */
    const jv *r = parsed("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u00E9\\u20AC\\uD83D\\uDE00\\ud83d\\ude00\xF0\x9F\x98\x80"
                         "\\u007f\\uFFFF\\uDBFF\\uDFFF\"", &doc);
    const char want[] = "\"\\/\b\f\n\r\tA\xC3\xA9\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80"
                        "\x7F\xEF\xBF\xBF\xF4\x8F\xBF\xBF";
    CHECK(r && r->len == sizeof want - 1 && memcmp(jv_string(r), want, sizeof want) == 0);
    json_free(&doc);
    /* a key decodes like a value: "A\u0078is" is the key Axis */
    r = parsed("{\"A\\u0078is\": 1}", &doc);
    CHECK(r && jv_get(r, "Axis") && strcmp(jv_key(r, 0), "Axis") == 0);
    json_free(&doc);

    /* invalid escapes */
    CHECK(refused("\"\\x\"", "not JSON: line 1: invalid string sequence"));
    CHECK(refused("\"\\U0041\"", "not JSON: line 1: invalid string sequence"));
    CHECK(refused("\"\\u12G4\"", "not JSON: line 1: invalid string sequence"));
    CHECK(refused("\"\\u12\"", "not JSON: line 1: invalid string sequence"));
    CHECK(refused("\"\\uD83D\\uDZ00\"", "not JSON: line 1: invalid string sequence"));
    CHECK(refused("[\n\"\\\n\"]", "not JSON: line 2: invalid string sequence"));
    CHECK(refused("\"\\u00", "not JSON: line 1: unexpected end of data"));
    CHECK(refused("\"abc\\", "not JSON: line 1: unexpected end of data"));
    CHECK(refused("\"abc", "not JSON: line 1: unexpected end of data"));
    /* strings that mean two things: \u0000 and lone surrogates, with their path */
    CHECK(refused("{\"a\": \"x\\u0000y\"}", "line 1, column 9: the string at \"a\" holds \\u0000: a key or string may "
                  "not hold U+0000 (a C reader ends the string there, other parsers keep the rest)"));
    CHECK(refused("[1, {\"k\\u0000\": 2}]", "line 1, column 8: the key at \"[1].k\\u0000\" holds \\u0000: a key or "
                  "string may not hold U+0000 (a C reader ends the string there, other parsers keep the rest)"));
    CHECK(refused("\"\\uD800\"", "line 1, column 2: the string that is the top-level value holds a lone surrogate "
                  "escape: a high surrogate without a low one after it (some parsers read U+FFFD, others U+D800..DBFF)"));
    CHECK(refused("{\"c\": [\"a\", \"\\uDC00\\uD800\"]}", "line 1, column 14: the string at \"c[1]\" holds a lone "
                  "surrogate escape: a low surrogate without a high one before it (some parsers read U+FFFD, others "
                  "U+DC00..DFFF)"));
    CHECK(refused("\"\\ud83d\\u0041\"", "line 1, column 2: the string that is the top-level value holds a lone "
                  "surrogate escape: a high surrogate without a low one after it (some parsers read U+FFFD, others "
                  "U+D800..DBFF)"));
    /* \u0001 is an ordinary character (the number marker of the json-c days is gone) */
    r = parsed("\"\\u0001\"", &doc);
    CHECK(r && r->len == 1 && jv_string(r)[0] == 1);
    json_free(&doc);

    /* every control character, raw in a string, with its column */
    for (int c = 0; c < 0x20; ++c) {
        char text[16], want2[96];
        const size_t n = (size_t)snprintf(text, sizeof text, "[\"ab%c\"]", c);
        snprintf(want2, sizeof want2, "not JSON: line 1, column 5: control character 0x%02x in a string", c);
        CHECK(refused_n(text, n, want2));
    }
    /* DEL and every well-formed UTF-8 byte sequence are fine */
    r = parsed("\"\x7F\xC2\x80\xF4\x8F\xBF\xBF\"", &doc);
    CHECK(r && r->len == 7);
    json_free(&doc);

    /* a string of 1 MB, and one of 1 MB of escapes */
    const size_t mb = (size_t)1 << 20;
    char *big = repeated("[\"", 'x', mb, "\"]");
    r = big ? parsed(big, &doc) : NULL;
    CHECK(r && jv_at(r, 0)->len == mb && jv_string(jv_at(r, 0))[mb - 1] == 'x' && jv_string(jv_at(r, 0))[mb] == '\0');
    json_free(&doc);
    free(big);
    big = repeated("\"", 'n', 2 * mb, "\"");
    for (size_t i = 1; big && i < 2 * mb; i += 2) big[i] = '\\';
    r = big ? parsed(big, &doc) : NULL;
    CHECK(r && r->len == mb && jv_string(r)[0] == '\n' && jv_string(r)[mb - 1] == '\n');
    json_free(&doc);
    free(big);
}

/* ---- numbers ---------------------------------------------------------------------------- */

static void test_numbers(void) {
    json_doc doc;
    const char *good[] = {"0", "-0", "7", "-0.0", "1e5", "1E+05", "1e-400", "0.5e00", "123456789012345678901234567890",
                          "18446744073709551616", "-9223372036854775809", "4.9406564584124654e-324"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
        const jv *r = parsed(good[i], &doc);
        CHECK(r && jv_is(r, JV_NUMBER) && strcmp(jv_number(r), good[i]) == 0 && r->len == strlen(good[i]));
        json_free(&doc);
    }
    const char *bad[] = {"01", "-01", "1.", ".5", "1e", "1e+", "-", "--1", "1.5.2", "1e5e5", "0x10", "1-2", "2.e3"};
    const char *bad_text[] = {"01", "-01", "1.", NULL, "1e", "1e+", "-", "--1", "1.5.2", "1e5e5", "0", "1-2", "2.e3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char text[64], want[128];
        snprintf(text, sizeof text, "{\"a\":\n [7, %s]}", bad[i]);
        if (bad_text[i] && strcmp(bad[i], "0x10") != 0)
            snprintf(want, sizeof want, "not JSON: line 2, column 6: invalid number '%s'", bad_text[i]);
        else if (bad_text[i]) /* 0 is a number; the x after it is no separator */
            snprintf(want, sizeof want, "not JSON: line 2: array value separator ',' expected");
        else
            snprintf(want, sizeof want, "not JSON: line 2: unexpected character");
        CHECK(refused(text, want));
    }
    CHECK(refused("[+1]", "not JSON: line 1: unexpected character"));
    /* NaN and Infinity are not JSON */
    CHECK(refused("[NaN]", "not JSON: line 1: unexpected character"));
    CHECK(refused("[nan]", "not JSON: line 1: null expected"));
    CHECK(refused("[Infinity]", "not JSON: line 1: unexpected character"));
    CHECK(refused("[-Infinity]", "not JSON: line 1, column 2: invalid number '-'"));
    /* a number of 1 MB (a huge exponent) is kept as written; a bad one is quoted up to 40 bytes */
    const size_t mb = (size_t)1 << 20;
    char *big = repeated("[1e", '9', mb, "]");
    const jv *r = big ? parsed(big, &doc) : NULL;
    CHECK(r && jv_at(r, 0)->len == mb + 2 && memcmp(jv_number(jv_at(r, 0)), big + 1, mb + 2) == 0);
    json_free(&doc);
    free(big);
    big = repeated("[1e", '9', mb, ".]");
    CHECK(big && refused(big, "not JSON: line 1, column 2: invalid number '1e99999999999999999999999999999999999999'"));
    free(big);
}

/* ---- structure -------------------------------------------------------------------------- */

static void test_structure(void) {
    json_doc doc;
    CHECK(refused("", "not JSON: line 1: the file is empty"));
    CHECK(refused(" \n\n", "not JSON: line 3: unexpected end of data"));
    CHECK(refused("nul", "not JSON: line 1: unexpected end of data"));
    CHECK(refused("nulx", "not JSON: line 1: null expected"));
    CHECK(refused("tru", "not JSON: line 1: unexpected end of data"));
    CHECK(refused("{\"a\": tRue}", "not JSON: line 1: boolean expected"));
    CHECK(refused("{\"a\": fals}", "not JSON: line 1: boolean expected"));
    CHECK(refused("{\"a\": truefalse}", "not JSON: line 1: object value separator ',' expected"));
    CHECK(refused("null x", "not JSON: line 1: unexpected character"));
    CHECK(refused("{}\n\n}", "not JSON: line 3: unexpected character"));
    CHECK(refused("{} {}", "not JSON: line 1: unexpected character"));
    CHECK(refused_n("{}\0", 3, "not JSON: line 1: unexpected character"));
    CHECK(refused("[1,]", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\": 1,\n}", "not JSON: line 2: unexpected character"));
    CHECK(refused("[,]", "not JSON: line 1: unexpected character"));
    CHECK(refused("{,}", "not JSON: line 1: quoted object property name expected"));
    CHECK(refused("{\"a\": 1,, \"b\": 2}", "not JSON: line 1: quoted object property name expected"));
    CHECK(refused("{a: 1}", "not JSON: line 1: quoted object property name expected"));
    CHECK(refused("{'a': 1}", "not JSON: line 1: quoted object property name expected"));
    CHECK(refused("{\"a\": 'x'}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\" 1}", "not JSON: line 1: object property name separator ':' expected"));
    CHECK(refused("{\"a\"}", "not JSON: line 1: object property name separator ':' expected"));
    CHECK(refused("{\"a\":}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\": 1 \"b\": 2}", "not JSON: line 1: object value separator ',' expected"));
    CHECK(refused("[1 2]", "not JSON: line 1: array value separator ',' expected"));
    CHECK(refused("{\"a\": [}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\": {]}", "not JSON: line 1: quoted object property name expected"));
    CHECK(refused("[1}", "not JSON: line 1: array value separator ',' expected"));
    CHECK(refused("{\"a\": /* c */ 1}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\": 1} // c", "not JSON: line 1: unexpected character"));
    CHECK(refused("\xEF\xBB\xBF{}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\":\f1}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\":\v1}", "not JSON: line 1: unexpected character"));
    CHECK(refused("{\"a\":\n\n\n", "not JSON: line 4: unexpected end of data"));
    CHECK(refused("{\"a\":\r\n1,\r\n}", "not JSON: line 3: unexpected character"));
    CHECK(refused("]", "not JSON: line 1: unexpected character"));
    /* strict UTF-8 over the whole text first, with the byte offset */
    CHECK(refused("[1,\n \"\xC0\xAF\"]", "not UTF-8: byte offset 6 (line 2, column 3): \\xC0\\xAF is not a well-formed "
                  "UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)"));
    CHECK(refused("[\"\xED\xA0\x80\", 01]", "not UTF-8: byte offset 2 (line 1, column 3): \\xED\\xA0\\x80 is not a "
                  "well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)"));
    /* the first error in the text's order */
    CHECK(refused("{\"a\": 1 \"b\": 01}", "not JSON: line 1: object value separator ',' expected"));

    /* nesting: 64 levels are fine, 65 are not, and 100000 cost no stack */
    char deep[200];
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    deep[128] = '\0';
    const jv *r = parsed(deep, &doc);
    size_t levels = 0;
    for (const jv *v = r; jv_is(v, JV_ARRAY); v = jv_at(v, 0)) ++levels;
    CHECK(levels == 64);
    json_free(&doc);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    CHECK(refused(deep, "not JSON: line 1: nesting deeper than 64 levels"));
    char *big = repeated("", '[', 100000, "");
    CHECK(big && refused(big, "not JSON: line 1: nesting deeper than 64 levels"));
    free(big);
    const size_t n = 100000;
    big = malloc(5 * n + 1);
    for (size_t i = 0; big && i < n; ++i) memcpy(big + 5 * i, "{\"a\":", 5);
    if (big) big[5 * n] = '\0';
    CHECK(big && refused(big, "not JSON: line 1: nesting deeper than 64 levels"));
    free(big);
    /* 100000 values in one array, each its own block of the tree */
    big = malloc(4 * n + 2);
    for (size_t i = 0; big && i < n; ++i) memcpy(big + 1 + 4 * i, "[0],", 4);
    if (big) {
        big[0] = '[';
        big[4 * n] = ']';
        big[4 * n + 1] = '\0';
    }
    r = big ? parsed(big, &doc) : NULL;
    CHECK(r && jv_count(r) == n && jv_count(jv_at(r, n - 1)) == 1 && strcmp(jv_number(jv_at(jv_at(r, n - 1), 0)), "0") == 0 &&
          jv_at(jv_at(r, 77), 0)->offset == 1 + 4 * 77 + 1);
    json_free(&doc);
    free(big);
}

/* ---- repeated keys ------------------------------------------------------------------- */

static void test_repeats(void) {
    json_doc doc;
    CHECK(refused("{\"\": 1, \"\": 2}", "line 1, column 9: duplicate key \"\" in the top-level object (first at line 1, "
                  "column 2): a key may appear once per object"));
    CHECK(refused("{\n \"Axis\": 0,\n \"b\": 1,\n \"A\\u0078is\": 1}", "line 4, column 2: duplicate key \"A\\u0078is\" in "
                  "the top-level object (first at line 2, column 2): a key may appear once per object"));
    /* the earliest repeat in the text, wherever it is; the object named by its path */
    CHECK(refused("{\"t\": [{}, {\"x\": 1, \"y\": 2, \"x\": 3, \"y\": 4}], \"t\": 0}", "line 1, column 29: duplicate "
                  "key \"x\" in t[1] (first at line 1, column 13): a key may appear once per object"));
    CHECK(refused("{\"a\": {\"b\": {\"c\": 1, \"c\": 2}}, \"z\": 1, \"z\": 2}", "line 1, column 22: duplicate key "
                  "\"c\" in a.b (first at line 1, column 14): a key may appear once per object"));
    CHECK(refused("{\"k\": 1, \"k\": 2, \"k\": 3}", "line 1, column 10: duplicate key \"k\" in the top-level object (first "
                  "at line 1, column 2): a key may appear once per object"));
    /* a string that means two things is reported before a repeated key, with its own path */
    CHECK(refused("{\"a\": 1, \"a\": 2, \"b\\uD800\": 3}", "line 1, column 20: the key at \"b\\uD800\" holds a lone "
                  "surrogate escape: a high surrogate without a low one after it (some parsers read U+FFFD, others "
                  "U+D800..DBFF)"));
    /* keys that differ only after a common prefix, or in length, are different keys */
    const jv *r = parsed("{\"ab\": 1, \"a\": 2, \"abc\": 3, \"b\": 4, \"\": 5, \"\\u00e9\": 6, \"\xC3\xA9x\": 7}", &doc);
    CHECK(r && jv_count(r) == 7);
    json_free(&doc);
    /* 20000 keys, sorted in reverse and with one repeat at the end */
    const size_t n = 20000;
    char *big = malloc(16 * n + 32), *o = big;
    if (big) {
        *o++ = '{';
        for (size_t i = 0; i < n; ++i) o += sprintf(o, "\"k%05zu\": 0,", n - i);
        o += sprintf(o, "\"k%05zu\": 1}", (size_t)17);
        char want[160];
        snprintf(want, sizeof want, "line 1, column %zu: duplicate key \"k00017\" in the top-level object (first at line "
                 "1, column %zu): a key may appear once per object", (size_t)(o - big) - 12 + 1,
                 (size_t)(2 + 12 * (n - 17)));
        CHECK(refused(big, want));
    }
    free(big);
}

/* ---- every prefix of the documented cases; out of memory -------------------------------- */

static char *read_all(const char *path, size_t *len) {
    char e[256];
    char *text = NULL;
    return case_read_file(path, (size_t)1 << 26, &text, len, e, sizeof e) == 0 ? text : NULL;
}

/* Every prefix of text: refused with "unexpected end of data" on the last line, or (cut in a number
 * or a UTF-8 sequence) an invalid number or "not UTF-8"; the case reader: malformed, with a message. */
static void prefixes(const char *name, const char *text, size_t len) {
    size_t end = len; /* the document ends at its last non-blank byte */
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ' || text[end - 1] == '\r')) --end;
    int bad = 0;
    for (size_t n = 0; n < len; ++n) {
        json_doc doc;
        const json_status st = parse_n(text, n, &doc);
        size_t line = 1;
        for (size_t i = 0; i < n; ++i) line += text[i] == '\n';
        char want[64];
        snprintf(want, sizeof want, "not JSON: line %zu: unexpected end of data", line);
        const int clean = n >= end ? st == JSON_OK
                          : n == 0 ? st == JSON_BAD && strcmp(err, "not JSON: line 1: the file is empty") == 0
                                   : st == JSON_BAD && (strcmp(err, want) == 0 || strstr(err, ": invalid number '") ||
                                                        strncmp(err, "not UTF-8: byte offset ", 23) == 0);
        if (st == JSON_OK) json_free(&doc);
        dmlref_case c;
        char e2[512] = "";
        const int rc = case_parse(text, n, NULL, &c, e2, sizeof e2);
        if (rc == CASE_OK) case_free(&c);
        if (!clean || (n < end && (rc != CASE_MALFORMED || e2[0] == '\0'))) {
            if (!bad++) printf("    %s cut at byte %zu: status %d '%s'; case_parse %d '%s'\n", name, n, (int)st, err, rc, e2);
        }
    }
    CHECK(bad == 0);
}

/* The Nth allocation fails, for every N until none does: json_parse makes exactly one (JSON_OOM
 * when it fails); case_parse fails cleanly with a message at each (ASan: nothing leaks). */
static void out_of_memory(const char *name, const char *text, size_t len, const char *dir) {
    json_doc doc;
    alloc_left = -1;
    alloc_made = 0;
    json_status st = parse_n(text, len, &doc);
    CHECK(st == JSON_OK && alloc_made == 1);
    if (st == JSON_OK) json_free(&doc);
    alloc_left = 0;
    st = parse_n(text, len, &doc);
    alloc_left = -1;
    CHECK(st == JSON_OOM && !doc.root && !doc.mem && strncmp(err, "out of memory reading JSON (", 28) == 0);

    int bad = 0, ok = 0;
    long n = 0;
    for (; n < 100000 && !ok; ++n) {
        dmlref_case c;
        char e2[512] = "";
        alloc_left = n;
        const int rc = case_parse(text, len, dir, &c, e2, sizeof e2);
        alloc_left = -1;
        if (rc == CASE_OK || rc == CASE_INVALID || rc == CASE_CANNOT_VERIFY) {
            ok = 1; /* no allocation failed: the case's own verdict */
        } else if (e2[0] == '\0' && !bad++) {
            printf("    %s with allocation %ld failing: status %d without a message\n", name, n, rc);
        }
        case_free(&c);
    }
    CHECK(ok && bad == 0 && n > 2); /* the reader's allocation and the case's: several failed in turn */
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_case_files(const char *dir) {
    DIR *d = opendir(dir);
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 512) {
        const size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0) names[n++] = strdup(e->d_name);
    }
    if (d) closedir(d);
    CHECK(n > 10);
    qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; i < n; ++i) {
        char path[1024];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = read_all(path, &len);
        CHECK(text != NULL);
        if (text) {
            prefixes(names[i], text, len);
            out_of_memory(names[i], text, len, dir);
        }
        free(text);
        free(names[i]);
    }
}

int main(int argc, char **argv) {
    test_tree();
    test_strings();
    test_numbers();
    test_structure();
    test_repeats();
    test_case_files(argc > 1 ? argv[1] : "tests/cases");
    printf("json_read: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
