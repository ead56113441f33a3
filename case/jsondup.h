/*
 * What json-c reads differently from other JSON parsers, found in the text.
 * json-c keeps only the last value of a repeated key, and another team's
 * parser may keep the first; json-c's keys are C strings, so "Axis\u0000x" is
 * the key "Axis" to it and another key to Python; it turns a lone surrogate
 * escape ("\uD800") into U+FFFD where Python keeps U+D800.  A case file with
 * any of these means two different things, so it is refused.
 */
#ifndef DMLREF_CLI_JSONDUP_H
#define DMLREF_CLI_JSONDUP_H

#include <stddef.h>

/*
 * Scans text[0..len), which json-c has already accepted as JSON.  Returns 0
 * when every key and string means one thing; 1 with a message in err when a
 * key or string value holds \u0000 or a lone surrogate escape (the first in
 * text order: its line, column and JSON path), else when an object repeats a
 * key (the earliest repeat in text order: its line and column, the object's
 * path and the first occurrence); -1 when out of memory (message in err).
 * Keys compare as decoded strings ("A\u0078is" repeats "Axis").
 */
int json_check_meaning(const char *text, size_t len, char *err, size_t errcap);

#endif
