/*
 * The command's exit statuses (docs/cli.md), which the case library's functions
 * return: case_parse's results, and CASE_OUT_OF_MEMORY from the helpers that
 * otherwise return 0 or -1 (file_write_atomic, the .npy reader and writers, the
 * field readers, case_read_file), so that a failed allocation is never reported
 * as a bad file or a failed write.
 */
#ifndef DMLREF_CASE_STATUS_H
#define DMLREF_CASE_STATUS_H

enum {
    CASE_OK = 0,
    CASE_DIFFER = 1,    /* outputs differ from `expected`                 */
    CASE_INVALID = 2,   /* the descriptor is invalid (library's message)  */
    CASE_MALFORMED = 3, /* unreadable or malformed case file              */
    CASE_USAGE = 4,     /* bad command line                               */
    CASE_SYSTEM = 5,    /* cannot write an output file, internal failure   */
    CASE_HOST_LIMIT = 6, /* valid, but a buffer is larger than this host can
                            address (a 32-bit host; DMLREF_ERROR_HOST_LIMIT)  */
    CASE_CANNOT_VERIFY = 7, /* dmlref cannot decide whether the descriptor is
                               valid (DMLREF_ERROR_CANNOT_VERIFY): not "invalid" */
    CASE_OUT_OF_MEMORY = 8 /* an allocation failed, in the command or in the library
                              (DMLREF_ERROR_OUT_OF_MEMORY): no verdict on the case; the
                              message says "out of memory" */
};

/* A helper's failure as the caller reports it: out of memory stays out of memory (never
 * a bad file or a failed write); any other failure becomes `otherwise`; 0 stays 0. */
static inline int case_failure(int rc, int otherwise) {
    return rc == CASE_OUT_OF_MEMORY ? CASE_OUT_OF_MEMORY : rc ? otherwise : CASE_OK;
}

#endif
