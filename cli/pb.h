/*
 * A small protobuf wire-format encoder (https://protobuf.dev/programming-guides/encoding/):
 * varints, length-delimited fields and nothing else, into a growing byte buffer.  It writes
 * the few ONNX messages `dmlref export --onnx` needs (cli/onnx.c) without protobuf-c, whose
 * generated code and library a wasm32 or bare-metal build does not have.  Bytes are produced
 * from integers, never from a host's memory layout, so the output is the same on every host.
 *
 * A failed allocation sets `oom` and every later call does nothing; the caller checks `oom`
 * once at the end.
 */
#ifndef DMLREF_CLI_PB_H
#define DMLREF_CLI_PB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pb_buf {
    unsigned char *p;
    size_t len, cap;
    int oom;
} pb_buf;

/* Wire types. */
enum { PB_VARINT = 0, PB_LEN = 2 };

void pb_free(pb_buf *b);
/* n raw bytes. */
void pb_raw(pb_buf *b, const void *data, size_t n);
/* A base-128 varint (7 bits a byte, low group first). */
void pb_varint(pb_buf *b, uint64_t v);
/* A varint field: int32, int64 (a negative value as its 64-bit two's complement, ten bytes),
 * enum. */
void pb_int(pb_buf *b, uint32_t field, int64_t v);
/* A length-delimited field: bytes, string, or an embedded message's encoding. */
void pb_bytes(pb_buf *b, uint32_t field, const void *data, size_t n);
void pb_string(pb_buf *b, uint32_t field, const char *s);
void pb_message(pb_buf *b, uint32_t field, const pb_buf *sub);

#endif
