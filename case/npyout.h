/*
 * A case's tensors as .npy files in a directory (run --npy, export), named by the
 * desc's slot: DIR/<base><suffix>.npy with <base> "InputTensor", or "OutputTensors_2"
 * for a tensor of an array slot.  Every file is written atomically and little-endian
 * (npy.h), so the same case gives the same bytes on every host.
 */
#ifndef DMLREF_CLI_NPYOUT_H
#define DMLREF_CLI_NPYOUT_H

#include "case.h"

#include <stddef.h>

/* "InputTensor", "OutputTensors_2". */
const char *npyout_base(const case_tensor *t, char *buf, size_t cap);

/* DIR/<base><suffix>.npy (suffix "", ".logical" or ".slots") in a new string, freed by the
 * caller; NULL when out of memory. */
char *npyout_path(const char *dir, const case_tensor *t, const char *suffix);

/* The writers below: 0, or -1 with a message in err, or CASE_OUT_OF_MEMORY (status.h) with one
 * when an allocation failed. */

/* DIR/<base>.npy: `slots` elements of data (a buffer in t's type) as a 1-D array. */
int npyout_buffer(const char *dir, const case_tensor *t, const unsigned char *data, uint64_t slots, char *err,
                  size_t errcap);

/* DIR/<base>.logical.npy: the elements of buf (in t's layout) in t's logical shape. */
int npyout_logical(const char *dir, const case_tensor *t, const unsigned char *buf, char *err, size_t errcap);

/* DIR/<base>.slots.npy: each element's slot in the buffer (uint64), in t's logical shape. */
int npyout_slots(const char *dir, const case_tensor *t, char *err, size_t errcap);

#endif
