/*
 * Duplicate object keys in a JSON text.  json-c keeps only the last value of a
 * repeated key, and another team's parser may keep the first: a case file that
 * repeats a key anywhere means two different things, so it is refused.
 */
#ifndef DMLREF_CLI_JSONDUP_H
#define DMLREF_CLI_JSONDUP_H

#include <stddef.h>

/*
 * Scans text[0..len), which json-c has already accepted as JSON.  Returns 0
 * when no object repeats a key; 1 with a message in err naming the earliest
 * repeated key (in text order), its line and column, the object's path and the
 * first occurrence; -1 when out of memory (message in err).  Keys compare as
 * decoded strings ("A\u0078is" repeats "Axis").
 */
int json_find_duplicate_key(const char *text, size_t len, char *err, size_t errcap);

#endif
