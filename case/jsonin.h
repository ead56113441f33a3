/*
 * Reading JSON with json-c while keeping every number's exact text.
 *
 * json-c (0.16) keeps a double's original text but not an integer's: an
 * integer beyond the 64-bit ranges is silently saturated (2^64 reads as
 * 2^64-1) and "-0" becomes integer 0.  To round-trip every INT64/UINT64 value
 * and every float exactly, and to refuse what does not fit, jsonin_parse first
 * scans the text (strings skipped) and turns each number token into a JSON
 * string "\u0001<token>", after checking the token against RFC 8259's number
 * grammar.  json-c then does all the parsing (strict mode, nesting depth
 * limited); jsonin_number_text() gives a number's text back.  A string in the
 * file may therefore not contain U+0001 (refused).  Before that the whole text
 * must be strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF; json-c's own check lets overlongs and surrogates through),
 * the message naming the byte offset.  After it, what json-c reads differently
 * from other parsers is refused (jsondup.h): a repeated key, \u0000 in a key
 * or string, a lone surrogate escape.
 */
#ifndef DMLREF_CLI_JSONIN_H
#define DMLREF_CLI_JSONIN_H

#include <json-c/json.h>
#include <stddef.h>

/*
 * Parses text[0..len).  Returns the root (json_object_put it), or NULL with a
 * message in err, or NULL with err untouched for the valid document `null`
 * (json-c's representation of a JSON null): callers clear err first.
 */
json_object *jsonin_parse(const char *text, size_t len, char *err, size_t errcap);

/* The text of a number (as written), or NULL when o is not a number. */
const char *jsonin_number_text(const json_object *o);

/* 1 when o is a JSON string (not a number). */
int jsonin_is_string(const json_object *o);

/* A short word for o's JSON kind: "number", "string", "array", ... */
const char *jsonin_kind(const json_object *o);

#endif
