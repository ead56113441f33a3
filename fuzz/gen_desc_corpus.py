#!/usr/bin/env python3
"""Writes the seed corpus of the descriptor fuzz targets, fuzz_desc_valid and
fuzz_desc_exec (fuzz/corpus/fuzz_desc/), in their byte format (the comment at
the top of fuzz/desc_decode.h):

  - every operator this build implements, through its schema (read from the
    shared library with ctypes, so a new operator needs no change here): each
    case file of tests/cases/ (the documented examples) and the descriptor-level
    ones of tests/cases/bad/ (e1_, e2_, e7_), cases written by `dmlref gen`
    (strided, broadcast, gapped layouts, every data type, random feature levels),
    and variants of the operator's first case that take its rejection paths
    (Desc NULL, an unknown level, a level before the operator's, a size below
    the minimum, overlapping output, a parameter of 2^32-1, data type 99, an
    output owned by DML) or probe bindings and options;
  - hand-written inputs for GATHER, GATHER_ELEMENTS, SCATTER_ND, SPLIT, JOIN and
    GATHER_ND(1) (docs/operators.md sections 2.5, 3.4, 4.5, 5.4, 6.4, P1.4, and
    strided, typed and deliberately invalid variants), under their historical
    names.

    make lib cli && python3 fuzz/gen_desc_corpus.py [--build DIR] [OUTDIR]

A seed's file is NAME-DIGEST (the first 8 hex digits of its SHA-1); an older
file of the same NAME in OUTDIR is replaced.  The operator byte indexes the
fixed table op_types of fuzz/desc_decode.h (OP_INDEX is read from it), so a
seed means the same operator in every build.
"""
import argparse
import ctypes
import glob
import hashlib
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The operator byte's index of each DMLREF_OPERATOR_ name: op_types of fuzz/desc_decode.h, read
# from that file (entries "DMLREF_OPERATOR_X,  /* i */"); OP_INDEX adds the invalid values 24-27.
OP_INDEX = {name: int(i) for name, i in re.findall(
    r"^\s*DMLREF_OPERATOR_(\w+),\s*/\*\s*(\d+)\s*\*/", open(os.path.join(HERE, "desc_decode.h")).read(), re.M)}
assert OP_INDEX.get("INVALID") == 0 and OP_INDEX.get("ELEMENT_WISE_IDENTITY") == 1, OP_INDEX
OP_INDEX["SCATTER_ELEMENTS"] = OP_INDEX["SCATTER"]
OP_INDEX["TYPE_0xFFFFFFFF"] = 24
OP_INDEX["TYPE_0x80000000"] = 25
OP_INDEX["ELEMENT_WISE_ABS"] = 26  # DirectML's type 2, which dmlref does not know
OP_INDEX["GATHER_HIGH_BIT"] = 27   # 0x10000 | GATHER
MISC_DESC_NULL = 0x1C

LEVELS = ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2",
          "6_0", "6_1", "6_2", "6_3", "6_4"]
LEVEL_UNKNOWN = 16  # the level byte for 0x1001
DT = {"FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6,
      "INT16": 7, "INT8": 8, "FLOAT64": 9, "UINT64": 10, "INT64": 11, "UINT4": 12,
      "INT4": 13}
ESIZE = {1: 4, 2: 2, 3: 4, 4: 2, 5: 1, 6: 4, 7: 2, 8: 1, 9: 8, 10: 8, 11: 8}
PACK = {1: "<f", 2: "<e", 3: "<I", 4: "<H", 5: "<B", 6: "<i", 7: "<h", 8: "<b",
        9: "<d", 10: "<Q", 11: "<q"}
MAX_LEN = 4096  # the targets' -max_len (Makefile): longer seeds would be cut


class T:
    """One tensor record.  data: element values in memory order (inputs only)."""

    def __init__(self, dtype, sizes, strides=None, data=None, ctl=0, flags=0,
                 ndims=None, smode=None, tmode=0, textra=b"", align=0):
        self.dt = DT[dtype] if isinstance(dtype, str) else dtype
        self.sizes, self.strides, self.data = list(sizes), strides, data
        self.ctl, self.flags, self.tmode, self.textra, self.align = ctl, flags, tmode, textra, align
        self.ndims = len(self.sizes) if ndims is None else ndims
        self.smode = (0 if strides is None else 1) if smode is None else smode
        self.raw = None  # buffer bytes given directly (schema-driven seeds)

    def encode(self):
        out = struct.pack("<5B", self.ctl, self.dt, self.flags, self.ndims, self.smode)
        for s in self.sizes[:8]:
            out += struct.pack("<I", s)
        if self.smode == 1:
            out += b"".join(struct.pack("<I", s) for s in self.strides[:8])
        elif self.smode == 2:
            out += bytes(self.strides[:8])
        return out + bytes([self.tmode]) + self.textra + bytes([self.align])

    def minimum(self):
        """DMLCalcBufferTensorSize (what tmode 0 gives)."""
        if self.strides is None:
            count = 1
            for s in self.sizes:
                count *= s
        else:
            count = 1 + sum((s - 1) * st for s, st in zip(self.sizes, self.strides))
        return (count * ESIZE[self.dt] + 3) // 4 * 4

    def total(self):
        """TotalTensorSizeInBytes as the record gives it (tmode 0, 1 and 2)."""
        if self.tmode == 1:
            return self.minimum() + self.textra[0]
        if self.tmode == 2:
            return struct.unpack("<Q", self.textra)[0]
        return self.minimum()

    def payload(self):
        """The buffer bytes: the data values, zero-padded to the buffer size."""
        if self.dt not in ESIZE or self.ndims != len(self.sizes) or self.total() > 1 << 16:
            return b""
        if self.raw is not None:
            raw = self.raw
        else:
            raw = b"".join(struct.pack(PACK[self.dt], v) for v in (self.data or []))
        raw = raw[:self.total()]
        return raw + bytes(self.total() - len(raw))


def assemble(opsel, level, params, tensors, inputs, misc=0, fill=0, stream=b""):
    """Header, the parameters' stream, tensor records, then the inputs' bytes
    (cut so that the whole stays within MAX_LEN: the targets cycle it)."""
    head = struct.pack("<4B", opsel, level, misc, fill)
    head += struct.pack("<3I", *(list(params) + [0] * (3 - len(params))))
    body = head + stream + b"".join(t.encode() for t in tensors)
    payload = b"".join(t.payload() for t in inputs)
    return body + payload[:max(0, MAX_LEN - len(body))]


def case(op, level, params, tensors, inputs, misc=0, fill=0, opsel=None):
    return assemble(OP_INDEX[op] if opsel is None else opsel,
                    LEVELS.index(level) if isinstance(level, str) else level,
                    params, tensors, inputs, misc, fill)


def gather(level, axis, k, inp, idx, out, **kw):
    return case("GATHER", level, [axis, k], [inp, idx, out], [inp, idx], **kw)


def gather_elements(level, axis, inp, idx, out, **kw):
    return case("GATHER_ELEMENTS", level, [axis], [inp, idx, out], [inp, idx], **kw)


def scatter(level, r, q, inp, idx, upd, out, **kw):
    return case("SCATTER_ND", level, [r, q], [inp, idx, upd, out], [inp, idx, upd], **kw)


def split(level, axis, inp, outs, count=None, **kw):
    return case("SPLIT", level, [len(outs) if count is None else count, axis], [inp] + outs, [inp], **kw)


def join(level, axis, ins, out, count=None, **kw):
    return case("JOIN", level, [len(ins) if count is None else count, axis], [out] + ins, ins, **kw)


def gather_nd(level, r, q, inp, idx, out, b=None, **kw):
    """GATHER_ND, or GATHER_ND1 when b (BatchDimensionCount) is given."""
    return case("GATHER_ND" if b is None else "GATHER_ND1", level, [r, q] + ([] if b is None else [b]),
                [inp, idx, out], [inp, idx], **kw)


def identity(level, scale_bias, inp, out, payload=None, misc=0):
    """ELEMENT_WISE_IDENTITY: p0 bit 0 says a ScaleBias follows the header in the parameters'
    stream (Scale and Bias as u32 bit patterns: a float is packed, an int taken as the bits)."""
    stream = b"".join(struct.pack("<f", v) if isinstance(v, float) else struct.pack("<I", v)
                      for v in (scale_bias or ()))
    body = assemble(OP_INDEX["ELEMENT_WISE_IDENTITY"], LEVELS.index(level), [1 if scale_bias else 0],
                    [inp, out], [], misc, 0, stream)
    return body + (inp.payload() if payload is None else payload)


def identity_seeds():
    """ScaleBias (docs/operators.md P7): the arithmetic's edges (the no-FMA values, -0.0, NaNs,
    subnormals, overflow), broadcast rows long enough for the vector kernel, FLOAT16 at 1_0, a NaN
    Scale; FLOAT64 refused (ID5; INT32: tests/cases/bad's case, through the schemas)."""
    F, H = "FLOAT32", "FLOAT16"
    s = {}
    special = struct.pack("<8I", 0x80000000, 0x7FC01234, 0x7F800001, 0x00000001, 0x7F800000, 0x3F800800,
                          0x7F7FFFFF, 0xFF800000)
    s["identity_scale_bias_f32_transpose"] = identity("6_4", (2.0, -1.0), T(F, [2, 3], strides=[1, 2], data=list(range(6))),
                                                      T(F, [2, 3], strides=[4, 1]))
    s["identity_scale_bias_f32_specials"] = identity("6_4", (0x3F800800, 0xBF801000), T(F, [8]), T(F, [8]),
                                                     payload=special)
    s["identity_scale_bias_f32_broadcast_rows"] = identity("3_0", (0.5, 0.25), T(F, [3, 37], strides=[0, 1],
                                                           data=list(range(37))), T(F, [3, 37]), misc=3)
    s["identity_scale_bias_f16_fl1_0"] = identity("1_0", (1.0, 0.0), T(H, [1, 1, 2, 3], data=[-0.0, 1.5, 65504.0, 3.0, 0.25, -2.0]),
                                                  T(H, [1, 1, 2, 3], strides=[12, 12, 6, 2]))
    s["identity_scale_bias_nan"] = identity("6_4", (0x7FA00000, 0x80000000), T(F, [4], data=[1.0, 2.0, 3.0, 4.0]), T(F, [4]))
    s["bad_identity_scale_bias_float64"] = identity("6_4", (1.0, 0.0), T("FLOAT64", [3], data=[1.0, 2.0, 3.0]),
                                                    T("FLOAT64", [3]))
    return s


def seeds():
    F, U = "FLOAT32", "UINT32"
    r = lambda n, start=1: list(range(start, start + n))
    s = {}
    # GATHER (operators.md 2.5)
    s["gather_doc1_remap"] = gather("4_1", 0, 1, T(F, [4], data=[11, 12, 13, 14]),
                                    T(U, [5], data=[3, 1, 3, 0, 2]), T(F, [5]))
    s["gather_doc2_rows"] = gather("4_1", 0, 1, T(F, [3, 2], data=r(6)), T(U, [1, 4], data=[0, 1, 1, 2]),
                                   T(F, [4, 2]))
    s["gather_doc3_swap_columns"] = gather("4_1", 1, 1, T(F, [3, 2], data=r(6)), T(U, [1, 2], data=[1, 0]),
                                           T(F, [3, 2]))
    s["gather_doc4_axis2_k2"] = gather("4_1", 2, 2, T(F, [1, 3, 3], data=r(9)), T(U, [1, 1, 2], data=[0, 2]),
                                       T(F, [3, 1, 2]))
    s["gather_doc5_axis1_k2"] = gather("4_1", 1, 2, T(F, [1, 3, 2], data=r(6)),
                                       T(U, [1, 2, 2], data=[0, 1, 1, 2]), T(F, [2, 2, 2]))
    s["gather_ort_scalar_k0"] = gather("4_1", 0, 0, T(F, [3, 4], data=r(12)), T("INT64", [1, 1], data=[2]),
                                       T(F, [1, 4]))
    s["gather_onnx_rank5"] = gather("4_1", 3, 2, T("FLOAT16", [1, 2, 3, 4, 5], data=r(120)),
                                    T("INT32", [1, 1, 1, 6, 7]), T("FLOAT16", [2, 3, 6, 7, 5]), fill=1)
    s["gather_out_of_range"] = gather("4_1", 0, 0, T(F, [2, 12], data=r(24)), T("INT32", [1, 1], data=[-10]),
                                      T(F, [1, 12]))
    s["gather_fl1_0_4d"] = gather("1_0", 3, 1, T(F, [1, 1, 2, 3], data=r(6)), T(U, [1, 1, 1, 4], data=[2, 0, 1, 2]),
                                  T(F, [1, 1, 2, 4]))
    s["gather_strided_int64"] = gather("6_4", 1, 1, T("INT64", [2, 3], strides=[4, 1], data=r(8)),
                                       T("INT64", [1, 4], data=[-1, 0, 2, -3]), T("INT64", [2, 4], strides=[1, 2]))
    s["gather_broadcast_uint8"] = gather("4_1", 0, 1, T("UINT8", [5, 3], strides=[0, 1], data=[7, 8, 9]),
                                         T("UINT64", [1, 2], data=[4, 1]), T("UINT8", [2, 3]))
    # GATHER_ELEMENTS (operators.md 3.4)
    s["gather_elements_doc_axis0"] = gather_elements("4_1", 0, T(F, [3, 3], data=r(9)),
                                                     T(U, [2, 3], data=[1, 2, 0, 2, 0, 0]), T(F, [2, 3]))
    s["gather_elements_wpt_axis1"] = gather_elements("4_1", 1, T(F, [3, 3], data=r(9)),
                                                     T(U, [3, 2], data=[1, 0, 2, 2, 1, 0]), T(F, [3, 2]))
    s["gather_elements_int8_negative"] = gather_elements("4_1", 2, T("INT8", [2, 2, 4], data=r(16)),
                                                         T("INT32", [2, 2, 3]), T("INT8", [2, 2, 3]), fill=1)
    s["gather_elements_fl2_1"] = gather_elements("2_1", 3, T("UINT16", [1, 1, 2, 3], data=r(6)),
                                                 T(U, [1, 1, 2, 2], data=[2, 0, 1, 1]),
                                                 T("UINT16", [1, 1, 2, 2], strides=[8, 8, 4, 1]))
    # SCATTER_ND (operators.md 4.5)
    s["scatter_doc_1d"] = scatter("4_1", 1, 2, T(F, [1, 8], data=r(8)), T(U, [4, 1], data=[4, 3, 1, 7]),
                                  T(F, [1, 4], data=[9, 10, 11, 12]), T(F, [1, 8]))
    s["scatter_doc_shape_5d"] = scatter("4_1", 5, 3, T("UINT8", [3, 4, 5, 6, 7]), T("INT32", [1, 1, 1, 2, 3]),
                                        T("UINT8", [1, 1, 2, 6, 7]), T("UINT8", [3, 4, 5, 6, 7]), fill=1)
    s["scatter_insert_slices"] = scatter("4_1", 3, 2, T(F, [1, 4, 4, 4], data=r(64)),
                                         T("INT64", [1, 1, 2, 1], data=[0, 2]),
                                         T(F, [1, 2, 4, 4], data=r(32, 100)), T(F, [1, 4, 4, 4]))
    s["scatter_duplicates"] = scatter("4_1", 1, 2, T(F, [1, 8], data=r(8)), T("INT32", [3, 1], data=[5, -3, 1]),
                                      T(F, [1, 3], data=[9, 10, 11]), T(F, [1, 8]))
    s["scatter_fl2_1_4d"] = scatter("2_1", 2, 2, T("INT16", [1, 1, 3, 3], data=r(9)),
                                    T(U, [1, 1, 2, 2], data=[0, 1, 2, 2]), T("INT16", [1, 1, 1, 2], data=[-1, -2]),
                                    T("INT16", [1, 1, 3, 3]))
    # SPLIT (operators.md 5.4)
    inp = T(F, [1, 1, 6, 2], data=r(12))
    s["split_doc_axis2"] = split("4_1", 2, inp, [T(F, [1, 1, 2, 2]), T(F, [1, 1, 1, 2]), T(F, [1, 1, 3, 2])])
    s["split_doc_axis3"] = split("4_1", 3, inp, [T(F, [1, 1, 6, 1]), T(F, [1, 1, 6, 1])])
    s["split_fl1_0_strided_out"] = split("1_0", 3, inp, [T(F, [1, 1, 6, 1], strides=[12, 12, 2, 1]),
                                                         T(F, [1, 1, 6, 1], strides=[6, 6, 1, 1])])
    s["split_float64_8d"] = split("6_4", 7, T("FLOAT64", [1, 1, 1, 1, 1, 2, 1, 5], data=r(10)),
                                  [T("FLOAT64", [1, 1, 1, 1, 1, 2, 1, 2]), T("FLOAT64", [1, 1, 1, 1, 1, 2, 1, 3])])
    # JOIN (operators.md 6.4)
    s["join_doc_axis3"] = join("4_1", 3, [T(F, [1, 1, 2, 3], data=r(6)), T(F, [1, 1, 2, 4], data=r(8, 7))],
                               T(F, [1, 1, 2, 7]))
    three = [T(F, [1, 1, 2, 2], data=r(4, 1 + 4 * i)) for i in range(3)]
    s["join_doc_three_axis1"] = join("4_1", 1, three, T(F, [1, 3, 2, 2]))
    s["join_doc_three_axis2"] = join("4_1", 2, three, T(F, [1, 1, 6, 2]))
    s["join_doc_three_axis3"] = join("4_1", 3, three, T(F, [1, 1, 2, 6]))
    s["join_fl3_0_5d_broadcast"] = join("3_0", 4, [T("INT8", [1, 1, 1, 2, 2], strides=[0, 0, 0, 0, 1], data=[1, 2]),
                                                   T("INT8", [1, 1, 1, 2, 1], data=[3, 4])],
                                        T("INT8", [1, 1, 1, 2, 3]))
    # blocks above COPY_CHUNK (256 KiB, src/engine/copy_plan.c): the chunked copies, which only
    # fuzz_desc_exec with FUZZ_DESC_LARGE=1 runs (1 MiB of buffers)
    s["join_chunked_float64_large"] = join("4_1", 1, [T("FLOAT64", [2, 32800]), T("FLOAT64", [2, 4])],
                                           T("FLOAT64", [2, 32804]))
    s["split_chunked_float64_large"] = split("4_1", 1, T("FLOAT64", [2, 32804]),
                                             [T("FLOAT64", [2, 4]), T("FLOAT64", [2, 32800])])
    # GATHER_ND / GATHER_ND1 (operators.md P1.4)
    s["gather_nd_doc1"] = gather_nd("6_4", 2, 2, T(F, [2, 2], data=r(4, 0)), T(U, [2, 1], data=[1, 0]), T(F, [2, 2]))
    s["gather_nd_doc1_fl2_1"] = gather_nd("2_1", 2, 2, T(F, [1, 1, 2, 2], data=r(4, 0)), T(U, [1, 1, 2, 1], data=[1, 0]),
                                          T(F, [1, 1, 2, 2]))
    s["gather_nd_doc2"] = gather_nd("2_1", 3, 2, T(F, [1, 2, 2, 2], data=r(8, 0)),
                                    T(U, [1, 1, 2, 2], data=[0, 1, 1, 0]), T(F, [1, 1, 2, 2]))
    s["gather_nd1_doc3_batch"] = gather_nd("3_0", 3, 3, T(F, [1, 3, 2, 2], data=r(12, 0)),
                                           T(U, [1, 3, 2, 2], data=[0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0]),
                                           T(F, [1, 1, 3, 2]), b=1)
    s["gather_nd_doc4_shapes_uint8"] = gather_nd("4_1", 5, 3, T("UINT8", [3, 4, 5, 6, 7]), T("INT32", [1, 1, 1, 2, 3]),
                                                 T("UINT8", [1, 1, 2, 6, 7]), fill=1)
    s["gather_nd_signed_out_of_range"] = gather_nd("4_1", 2, 2, T("FLOAT16", [2, 3], data=r(6)),
                                                   T("INT64", [3, 2], data=[-1, 5, -9, -3, 1, 2]),
                                                   T("FLOAT16", [1, 3]))
    s["gather_nd1_broadcast_indices"] = gather_nd("6_4", 2, 3, T("UINT16", [1, 3, 5], data=r(15)),
                                                  T(U, [3, 4, 1], strides=[0, 1, 1], data=[4, 0, 9, 2]),
                                                  T("UINT16", [1, 3, 4], strides=[16, 5, 1]), b=1)
    s["gather_nd_rows_strided_int64"] = gather_nd("6_4", 3, 2, T("INT64", [4, 3, 5], strides=[20, 6, 1], data=r(80)),
                                                  T("UINT64", [1, 6, 2], data=[0, 0, 3, 2, 1, 1, 9, 9, 2, 0, 3, 1]),
                                                  T("INT64", [1, 6, 5], strides=[48, 8, 1]))
    s["bad_gather_nd1_batch_fields"] = gather_nd("6_4", 5, 5, T(F, [1, 3, 4, 5, 6, 7]), T(U, [1, 3, 4, 5, 6, 7]),
                                                 T(F, [1, 1, 3, 4, 5, 6]), b=2)
    s["bad_gather_nd1_counts_max"] = gather_nd("6_4", 0xFFFFFFFF, 0xFFFFFFFF, T(F, [2, 2]), T(U, [2, 1]),
                                               T(F, [2, 2]), b=0xFFFFFFFF)
    # invalid on purpose: the rejection paths
    s["bad_split_count_max"] = split("4_1", 2, inp, [T(F, [1, 1, 6, 2])], count=0xFFFFFFFF)
    s["bad_join_count_max"] = join("4_1", 3, three, T(F, [1, 1, 2, 6]), count=0xFFFFFFFF)
    s["total_uint64_max_valid"] = gather("4_1", 0, 1, T(F, [4], data=r(4), tmode=4), T(U, [5]), T(F, [5]))
    s["bad_total_below_min"] = gather("4_1", 0, 1, T(F, [4]), T(U, [5], tmode=3), T(F, [5]))
    s["bad_dims_0"] = gather("4_1", 0, 1, T(F, [], ndims=0), T(U, [5]), T(F, [5]))
    s["bad_dims_9"] = gather("4_1", 0, 1, T(F, [1] * 9), T(U, [1] * 9), T(F, [1] * 9))
    s["bad_dtype_uint4"] = split("4_1", 0, T("UINT4", [4]), [T("UINT4", [2]), T("UINT4", [2])])
    s["bad_dtype_99"] = gather_elements("4_1", 0, T(99, [3]), T(U, [3]), T(99, [3]))
    s["bad_sizes_huge"] = gather("4_1", 0, 1, T(F, [0xFFFFFFFF, 2]), T(U, [5]), T(F, [5]))
    s["bad_span_overflow"] = gather("4_1", 0, 1, T(F, [0xFFFFFFFF], strides=[0xFFFFFFFF]), T(U, [1]), T(F, [1]))
    s["span_near_2_64_valid"] = gather("4_1", 0, 1, T("UINT8", [0xFFFFFFFF], strides=[0xFFFFFFFF], tmode=4),
                                       T(U, [1]), T("UINT8", [1]))
    s["bad_output_overlap"] = gather("4_1", 0, 1, T(F, [4], data=r(4)), T(U, [5]), T(F, [5], strides=[0]))
    s["bad_axis_max"] = gather("4_1", 0xFFFFFFFF, 0xFFFFFFFF, T(F, [4]), T(U, [5]), T(F, [5]))
    s["bad_scatter_counts_max"] = scatter("4_1", 0xFFFFFFFF, 0xFFFFFFFF, T(F, [1, 8]), T(U, [4, 1]), T(F, [1, 4]),
                                          T(F, [1, 8]))
    s["bad_level_unknown"] = gather(16, 0, 1, T(F, [4]), T(U, [5]), T(F, [5]))
    s["bad_flags_output_owned"] = gather("4_1", 0, 1, T(F, [4]), T(U, [5]), T(F, [5], flags=1))
    s["bad_alignment"] = gather("4_1", 0, 1, T(F, [4], align=200), T(U, [5]), T(F, [5]))
    s["bad_null_desc"] = gather("4_1", 0, 1, T(F, [4], ctl=4), T(U, [5]), T(F, [5]))
    s["probe_bindings_options"] = gather("4_1", 0, 1, T(F, [4], data=r(4)), T(U, [5], data=[3, 1, 3, 0, 2]),
                                         T(F, [5]), misc=3)
    s.update(identity_seeds())
    return s



# ---- the schemas, from the library (include/dmlref.h: dmlref_schema) ---------------

PARAM_UINT, PARAM_INT, PARAM_UINT_ARRAY, PARAM_INT_ARRAY, PARAM_FLOAT, PARAM_ENUM, PARAM_UNION, PARAM_STRUCT = range(1, 9)
PARAM_FLOAT_ARRAY, PARAM_SIZE_2D, PARAM_BOOL = range(9, 12)


class _Slot(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("offset", ctypes.c_uint32), ("is_output", ctypes.c_uint8),
                ("is_index", ctypes.c_uint8), ("is_array", ctypes.c_uint8), ("is_optional", ctypes.c_uint8),
                ("count_offset", ctypes.c_uint32), ("count_name", ctypes.c_char_p)]


class _Param(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("offset", ctypes.c_uint32), ("kind", ctypes.c_int),
                ("is_optional", ctypes.c_uint8), ("is_count", ctypes.c_uint8), ("count_offset", ctypes.c_uint32),
                ("count_name", ctypes.c_char_p), ("enum_names", ctypes.POINTER(ctypes.c_char_p)),
                ("enum_count", ctypes.c_uint32), ("type_offset", ctypes.c_uint32), ("struct_size", ctypes.c_uint32),
                ("field_names", ctypes.POINTER(ctypes.c_char_p)), ("field_count", ctypes.c_uint32)]


class _Schema(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("name", ctypes.c_char_p), ("desc_size", ctypes.c_uint32),
                ("introduced", ctypes.c_int), ("flags", ctypes.c_uint32), ("n_slots", ctypes.c_uint32),
                ("slots", ctypes.POINTER(_Slot)), ("n_params", ctypes.c_uint32), ("params", ctypes.POINTER(_Param))]


def _s(b):
    return None if b is None else b.decode()


def load_schemas(lib_path):
    """{operator name: schema dict} for every operator the library implements."""
    lib = ctypes.CDLL(lib_path)
    lib.dmlref_operator_schema_at.restype = ctypes.POINTER(_Schema)
    lib.dmlref_operator_schema_at.argtypes = [ctypes.c_uint32]
    lib.dmlref_feature_level_name.restype = ctypes.c_char_p
    lib.dmlref_feature_level_name.argtypes = [ctypes.c_int]
    out = {}
    i = 0
    while True:
        p = lib.dmlref_operator_schema_at(i)
        if not p:
            return out
        s = p.contents
        slots = [dict(name=_s(x.name), is_output=bool(x.is_output), is_index=bool(x.is_index),
                      is_array=bool(x.is_array), is_optional=bool(x.is_optional), count_name=_s(x.count_name))
                 for x in (s.slots[k] for k in range(s.n_slots))]
        params = []
        for k in range(s.n_params):
            x = s.params[k]
            params.append(dict(name=_s(x.name), offset=x.offset, kind=x.kind, is_count=bool(x.is_count),
                               count_name=_s(x.count_name), type_offset=x.type_offset,
                               enum_names=[_s(x.enum_names[e]) for e in range(x.enum_count)] if x.enum_names else [],
                               field_names=[_s(x.field_names[e]) for e in range(x.field_count)]
                               if x.field_names else []))
        out[_s(s.name)] = dict(name=_s(s.name), type=s.type, introduced=_s(lib.dmlref_feature_level_name(s.introduced)),
                               slots=slots, params=params)
        i += 1


# ---- a case file through the schema ------------------------------------------------


class Skip(Exception):
    """A case this byte format cannot hold (npy data, more than 8 array entries, ...)."""


def _flatten(v):
    if isinstance(v, list):
        for x in v:
            yield from _flatten(x)
    else:
        yield v


def pack_value(dt, v):
    """One element of data type dt, as a case file writes it (docs/case-format.md)."""
    es = ESIZE[dt]
    if isinstance(v, str):
        if v.startswith("0x"):
            return int(v, 16).to_bytes(es, "little")
        v = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v]
    fmt = PACK[dt]
    if fmt[1] in "efd":
        return struct.pack(fmt, float(v))
    return (int(v) % (1 << (8 * es))).to_bytes(es, "little")


def _float_bits(v):
    return struct.unpack("<I", pack_value(1, v))[0]


def tensor_record(j):
    """A T from a case file's tensor object."""
    dt = DT[j["DataType"]]
    sizes = j["Sizes"]
    if len(sizes) > 8 and any(s != 1 for s in sizes[8:]):
        raise Skip("sizes past the eighth dimension")
    if "DimensionCount" in j and j["DimensionCount"] != len(sizes):
        raise Skip("DimensionCount")
    t = T(dt, sizes, strides=j.get("Strides"), flags=j.get("Flags", 0))
    if dt not in ESIZE:
        raise Skip("a data type without an element size")
    if "TotalTensorSizeInBytes" in j:
        total, m = j["TotalTensorSizeInBytes"], t.minimum()
        if total == m:
            pass
        elif m < total <= m + 255:
            t.tmode, t.textra = 1, bytes([total - m])
        else:
            t.tmode, t.textra = 2, struct.pack("<Q", total)
    a = j.get("GuaranteedBaseOffsetAlignment", 0)
    if a and a & (a - 1) == 0 and a <= 1 << 30:
        t.align = a.bit_length()
    elif 32 <= a <= 255 or a == 0:
        t.align = a
    else:
        raise Skip("GuaranteedBaseOffsetAlignment")
    if "npy" in j:
        raise Skip("npy")
    if "data" in j:
        t.raw = b"".join(pack_value(dt, v) for v in _flatten(j["data"]))
    elif "random" in j:
        r = j["random"]
        rng = random.Random(r["seed"])
        n = min(t.total() // ESIZE[dt], MAX_LEN)
        if PACK[dt][1] in "efd":
            t.raw = b"".join(pack_value(dt, rng.uniform(r["low"], r["high"])) for _ in range(n))
        else:
            t.raw = b"".join(pack_value(dt, rng.randint(r["low"], r["high"])) for _ in range(n))
    return t


class Encoded:
    """A case in the byte format's parts, for variants to change before assemble()."""

    def __init__(self, schema, j):
        self.schema = schema
        self.opsel = OP_INDEX[schema["name"]]
        self.level = LEVELS.index(j.get("feature_level", "6_4"))
        self.misc = self.fill = 0
        lengths = {}  # count field -> the length of the array it counts
        for sl in schema["slots"]:
            if sl["is_array"]:
                lengths[sl["count_name"]] = len(j.get(sl["name"], []))
        for p in schema["params"]:
            if p["kind"] in (PARAM_UINT_ARRAY, PARAM_INT_ARRAY, PARAM_FLOAT_ARRAY) and p["name"] in j:
                lengths[p["count_name"]] = len(j[p["name"]])
        types = {p["offset"]: p for p in schema["params"]}
        self.values, self.extras = [], []  # per parameter: its value and what follows it
        for p in schema["params"]:
            v, extra = 0, b""
            given = j.get(p["name"])
            kind = p["kind"]
            if p["is_count"] or (given is None and p["name"] in lengths):
                v = lengths.get(p["name"], given or 0)
            elif kind in (PARAM_UINT, PARAM_INT):
                if given is None:
                    raise Skip(f"{p['name']} missing")
                v = given % (1 << 32)
            elif kind == PARAM_FLOAT:
                v = _float_bits(given)
            elif kind == PARAM_ENUM:
                v = p["enum_names"].index(given)
            elif kind in (PARAM_UINT_ARRAY, PARAM_INT_ARRAY):
                if len(given) > 8:
                    raise Skip("an array of more than 8 entries")
                v = len(given)
                extra = b"".join(struct.pack("<I", x % (1 << 32)) for x in given)
            elif kind == PARAM_FLOAT_ARRAY:
                if len(given) > 8:
                    raise Skip("an array of more than 8 entries")
                v = len(given)
                extra = b"".join(struct.pack("<I", _float_bits(x)) for x in given)
            elif kind == PARAM_SIZE_2D:
                v = given["Width"] % (1 << 32)
                extra = struct.pack("<I", given["Height"] % (1 << 32))
            elif kind == PARAM_BOOL:
                v = 1 if given else 0
            elif kind == PARAM_UNION:
                dt = DT[j[types[p["type_offset"]]["name"]]]
                b = pack_value(dt, given).ljust(8, b"\0")
                v, extra = struct.unpack("<I", b[:4])[0], b[4:]
            elif kind == PARAM_STRUCT:
                if given is not None:
                    v = 1
                    extra = b"".join(struct.pack("<I", _float_bits(given[f])) for f in p["field_names"])
            self.values.append(v)
            self.extras.append(extra)
        self.tensors, self.inputs, self.outputs = [], [], []
        singles, arrays = [], []
        for sl in schema["slots"]:
            if sl["is_array"]:
                pieces = [tensor_record(x) for x in j.get(sl["name"], [])]
                if len(pieces) > 16:
                    raise Skip("more than 16 pieces")
                arrays.append((sl, pieces))
            else:
                t = tensor_record(j[sl["name"]]) if j.get(sl["name"]) is not None else T(1, [1], ctl=1)
                singles.append((sl, [t]))
        for sl, ts in singles + arrays:
            self.tensors += ts
        for want_out in (False, True):
            for sl, ts in [(sl, ts) for sl, ts in singles + arrays if sl["is_output"] == want_out]:
                (self.outputs if want_out else self.inputs).extend(ts)

    def bytes(self):
        stream = b"".join((struct.pack("<I", v) if i >= 3 else b"") + e
                          for i, (v, e) in enumerate(zip(self.values, self.extras)))
        return assemble(self.opsel, self.level, self.values[:3], self.tensors, self.inputs,
                        self.misc, self.fill, stream)


def variants(enc):
    """(name, bytes) of the operator's first case changed to take rejection paths,
    and to probe bindings and options; only those that apply to its schema."""
    import copy
    out = []

    def v(name, change):
        e = copy.deepcopy(enc)
        if change(e) is not False:
            out.append((name, e.bytes()))

    def desc_null(e):
        e.misc = MISC_DESC_NULL

    def level_unknown(e):
        e.level = LEVEL_UNKNOWN

    def level_before(e):
        if e.schema["introduced"] == "1_0":
            return False
        e.level = LEVELS.index(e.schema["introduced"]) - 1

    def present(e):  # the first tensor the desc holds (not an absent optional one)
        return next(t for t in e.tensors if t.ctl == 0)

    def total_below_min(e):
        present(e).tmode, present(e).textra = 3, b""

    def output_overlap(e):
        t = e.outputs[0]
        if t.ctl or sum(s > 1 for s in t.sizes) == 0:
            return False
        t.strides, t.smode = [0] * len(t.sizes), 1
        t.tmode, t.textra = 0, b""

    def param_max(e):
        for i, p in enumerate(e.schema["params"]):
            if p["kind"] == PARAM_UINT and not p["is_count"]:
                e.values[i] = 0xFFFFFFFF
                return
        return False

    def dtype_99(e):
        present(e).dt = 99
        present(e).raw = b""

    def output_owned(e):
        e.outputs[0].flags = 1

    def probes(e):
        e.misc = 3

    def small_indices(e):
        if not any(s["is_index"] for s in e.schema["slots"]):
            return False
        e.fill = 1

    v("bad_desc_null", desc_null)
    v("bad_level_unknown", level_unknown)
    v("bad_level_before_introduced", level_before)
    v("bad_total_below_min", total_below_min)
    v("bad_output_overlap", output_overlap)
    v("bad_param_max", param_max)
    v("bad_dtype_99", dtype_99)
    v("bad_output_owned", output_owned)
    v("probe_bindings_options", probes)
    v("small_signed_indices", small_indices)
    return out


def schema_seeds(schemas, dmlref, gen_count, gen_seed):
    """{name: bytes}: the case files of tests/cases (and the descriptor-level
    ones of tests/cases/bad), `dmlref gen` cases and each operator's variants."""
    by_type = {}
    for s in schemas.values():
        by_type[s["type"]] = s
    alias = {"SCATTER_ELEMENTS": "SCATTER"}
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "*.json")))
    files += sorted(f for f in glob.glob(os.path.join(ROOT, "tests", "cases", "bad", "*.json"))
                    if re.match(r"e[127]_", os.path.basename(f)))
    out, first, first_gen, skipped = {}, {}, {}, []
    with tempfile.TemporaryDirectory() as tmp:
        if dmlref:
            for flavour in ([], ["--bits"]):
                subprocess.run([dmlref, "gen", "--operator", "ALL", "--count", str(1 if flavour else gen_count),
                                "--seed", str(gen_seed), "--out", os.path.join(tmp, "bits" if flavour else "plain")]
                               + flavour, check=True, stdout=subprocess.DEVNULL)
            files += sorted(glob.glob(os.path.join(tmp, "*", "*.json")))
        for f in files:
            is_gen = f.startswith(tmp)
            try:
                with open(f) as fh:
                    j = json.load(fh)
                op = alias.get(j.get("operator"), j.get("operator"))
                if op not in schemas:
                    raise Skip(f"operator {op} not in this build")
                enc = Encoded(schemas[op], j)
            except (Skip, KeyError, ValueError, TypeError, OverflowError, struct.error) as e:
                skipped.append(f"{os.path.relpath(f, tmp if is_gen else ROOT)}: {e!r}")
                continue
            stem = os.path.splitext(os.path.basename(f))[0]
            if is_gen:  # gen_<op>_<seed>_<i> -> gen_plain_<seed>_<i>, gen_bits_<seed>_<i>
                flavour = os.path.basename(os.path.dirname(f))
                stem = f"gen_{flavour}_" + "_".join(stem.split("_")[-2:])
                first_gen.setdefault(op, enc)
            elif os.path.basename(os.path.dirname(f)) == "bad":
                stem = "bad_case_" + stem
            else:
                stem = "case_" + stem
                first.setdefault(op, enc)
            out[f"{op.lower()}__{stem}"] = enc.bytes()
    for op in schemas:
        enc = first.get(op) or first_gen.get(op)
        if not enc:
            skipped.append(f"{op}: no case to make variants from")
            continue
        for name, blob in variants(enc):
            out[f"{op.lower()}__{name}"] = blob
    return out, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir", nargs="?", default=os.path.join(HERE, "corpus", "fuzz_desc"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the build directory holding libdmlref.so and dmlref (default: build)")
    ap.add_argument("--gen-count", type=int, default=3, help="dmlref gen cases per operator (default 3)")
    ap.add_argument("--gen-seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true", help="list the case files that were skipped")
    args = ap.parse_args()
    lib = os.path.join(args.build, "libdmlref.so")
    dmlref = os.path.join(args.build, "dmlref")
    for path in (lib, dmlref):
        if not os.path.exists(path):
            raise SystemExit(f"gen_desc_corpus.py: {path} is missing: run `make lib cli` first")
    schemas = load_schemas(lib)
    all_seeds = seeds()
    generated, skipped = schema_seeds(schemas, dmlref, args.gen_count, args.gen_seed)
    for name in generated:
        if name in all_seeds:
            raise SystemExit(f"gen_desc_corpus.py: two seeds named {name}")
    all_seeds.update(generated)
    os.makedirs(args.outdir, exist_ok=True)
    written = set()
    for name, blob in sorted(all_seeds.items()):
        digest = hashlib.sha1(blob).hexdigest()[:8]
        path = os.path.join(args.outdir, f"{name}-{digest}")
        written.add(os.path.basename(path))
        with open(path, "wb") as f:
            f.write(blob)
    replaced = 0
    for old in os.listdir(args.outdir):  # an older version of a seed written now
        base = old.rsplit("-", 1)[0]
        if "-" in old and base in all_seeds and old not in written:
            os.remove(os.path.join(args.outdir, old))
            replaced += 1
    ops = sorted({name.split("__")[0] for name in generated})
    print(f"{len(all_seeds)} seeds in {args.outdir} ({len(generated)} through the schemas of {len(ops)} operators: "
          f"{', '.join(ops)}; {replaced} older versions replaced; {len(skipped)} case files skipped)")
    if args.verbose:
        for s in skipped:
            print("  skipped", s)


if __name__ == "__main__":
    main()
