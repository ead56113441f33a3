/*
 * Text built in memory through a FILE (open_memstream): gen's case files, export's
 * manifest.  glibc's memory stream drops a write whose buffer cannot grow without
 * setting the stream's error flag (libio/strops.c: the text then silently lacks a
 * piece), and at fclose leaves no text when its last realloc fails; the one witness
 * of the first is errno, which malloc sets to ENOMEM.  memout_open clears errno and
 * memout_close checks it, so a text that lost a piece is never used.
 */
#ifndef DMLREF_CASE_MEMOUT_H
#define DMLREF_CASE_MEMOUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct memout {
    FILE *f;     /* write the text here (between open and close nothing else may set errno) */
    char *text;  /* after memout_close: the text, NUL-terminated, malloc'd */
    size_t len;
} memout;

/* 0, or CASE_OUT_OF_MEMORY (status.h) with nothing to close. */
int memout_open(memout *m);

/* Closes the stream: 0 (m->text, m->len: the whole text, freed by the caller), or
 * CASE_OUT_OF_MEMORY (an allocation failed while it was written: no text, m->text NULL). */
int memout_close(memout *m);

#endif
