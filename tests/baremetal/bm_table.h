/* The table tests/baremetal/gen_table.c writes and main.c runs (docs/baremetal.md). */
#ifndef DMLREF_BM_TABLE_H
#define DMLREF_BM_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct bm_tensor {
    int slot;                        /* index in the schema's slots        */
    int is_output;
    uint32_t data_type, flags, dims;
    const uint32_t *sizes, *strides; /* strides NULL: packed               */
    uint64_t total;
    uint32_t align;
    const unsigned char *data;       /* the buffer's initial bytes         */
    size_t bytes;
    const unsigned char *expected;   /* outputs with `expected`, else NULL */
    const unsigned char *nan;        /* per expected slot: any NaN matches */
    uint64_t expected_slots;
    uint32_t esize;
} bm_tensor;

typedef struct bm_param {
    uint32_t index;    /* in the schema's params                                  */
    uint32_t n;        /* arrays: the count; SCALAR_UNION: its data type          */
    uint64_t bits;     /* scalars: the 4 (or SCALAR_UNION's 8) bytes              */
    const void *ptr;   /* arrays (uint32/int32), structs (floats), or NULL        */
} bm_param;

typedef struct bm_case {
    const char *name;
    uint32_t type, level, n_inputs, n_outputs;
    const bm_tensor *t; /* inputs then outputs, binding order                    */
    const bm_param *p;  /* one per schema param, in order                        */
    int has_expected;   /* a documented example; else random: oracle vs fast path */
} bm_case;

extern const bm_case bm_cases[];
extern const unsigned bm_case_count;

#endif
