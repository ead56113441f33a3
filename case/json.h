/*
 * A strict JSON reader (RFC 8259) for case files: json_parse turns a text into
 * a read-only tree of jv values, or says why it cannot.
 *
 * Strict: the text must be well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF; the message names the byte offset); only
 * space, tab, LF and CR are white space; no comments, single quotes, trailing
 * commas, NaN, Infinity, leading zeros or "+1"; no control character in a
 * string; one value, then only white space.  A number keeps its text exactly
 * as written (after a check against RFC 8259's grammar), so that the reader of
 * each field decides what it means: every INT64/UINT64 value and every float
 * survives, and what does not fit the field is refused there.  Arrays and
 * objects nest at most JSON_MAX_DEPTH deep (a case file needs about 6); the
 * parser does not recurse.
 *
 * A text that JSON parsers read differently is refused too, since a case file
 * must mean one thing to every team's parser: a key repeated in an object
 * (parsers keep the first value or the last), \u0000 in a key or string (C
 * readers end the string there, others keep the rest) and a lone surrogate
 * escape such as "\uD800" (some parsers read U+FFFD, others keep it).  Keys
 * compare as decoded strings ("A\u0078is" repeats "Axis").
 *
 * Memory: the text is read twice; the first pass checks it and counts the
 * values and string bytes, then one allocation holds the whole tree and the
 * second pass fills it.  Out of memory is its own outcome (JSON_OOM), never a
 * crash.
 */
#ifndef DMLREF_CASE_JSON_H
#define DMLREF_CASE_JSON_H

#include <stddef.h>

/* The deepest nesting of arrays and objects json_parse accepts. */
#define JSON_MAX_DEPTH 64

typedef enum jv_kind { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT } jv_kind;

/* One value of the tree. */
typedef struct jv {
    jv_kind kind;
    size_t offset; /* its first byte in the text (a string's opening quote), for messages */
    size_t len;    /* NUMBER, STRING: bytes of u.s; ARRAY: elements; OBJECT: members */
    union {
        int b;                  /* BOOL: 0 or 1 */
        const char *s;          /* NUMBER: the text as written; STRING: the decoded UTF-8; NUL after both */
        const struct jv *items; /* ARRAY: len values; OBJECT: 2 * len, each key (a STRING) before its value */
    } u;
} jv;

typedef enum json_status {
    JSON_OK = 0,  /* doc->root is the tree                               */
    JSON_BAD = 1, /* not JSON, or JSON that means two things: message in err */
    JSON_OOM = 2  /* out of memory (message in err)                      */
} json_status;

/* A parsed text: its root value and the memory that holds the tree. */
typedef struct json_doc {
    const jv *root;
    void *mem;
} json_doc;

/*
 * Parses text[0..len) into *doc (json_free releases it).  On JSON_BAD and
 * JSON_OOM doc holds nothing and err a message: "the file is empty",
 * "not UTF-8: byte offset ...", "not JSON: line N: <what>" (unexpected end of
 * data, unexpected character, ... ; with the column for a bad number or a
 * control character), "line N, column C: duplicate key ...".
 */
json_status json_parse(const char *text, size_t len, json_doc *doc, char *err, size_t errcap);

void json_free(json_doc *doc);

/* The accessors below take NULL (no value) as well as any kind of value. */

/* 1 when v is a value of kind k. */
int jv_is(const jv *v, jv_kind k);

/* The text of a number as written, or NULL when v is no number. */
const char *jv_number(const jv *v);

/* The decoded text of a string, or NULL when v is no string. */
const char *jv_string(const jv *v);

/* The elements of an array or the members of an object; 0 for anything else. */
size_t jv_count(const jv *v);

/* Element i of an array, or NULL. */
const jv *jv_at(const jv *a, size_t i);

/* Member i of an object (in the text's order): its key and its value, or NULL. */
const char *jv_key(const jv *o, size_t i);
const jv *jv_value(const jv *o, size_t i);

/* The value of key in object o, or NULL when o has no such key (or is no object). */
const jv *jv_get(const jv *o, const char *key);

/* What v is, for messages: "null" (NULL too), "a boolean", "a number", "a string", "an array", "an object". */
const char *jv_kind_name(const jv *v);

#endif
