#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_desc (fuzz/corpus/fuzz_desc/): the documented
DirectML examples of docs/operators.md sections 2.5, 3.4, 4.5, 5.4 and 6.4 encoded in the
target's byte format (see the comment at the top of fuzz/fuzz_desc.c), plus a
few strided, typed and deliberately invalid variants.

    python3 fuzz/gen_desc_corpus.py [OUTDIR]
"""
import hashlib
import os
import struct
import sys

OPS = {"GATHER": 0, "GATHER_ELEMENTS": 1, "SCATTER_ND": 2, "SPLIT": 3, "JOIN": 4}
# op selects schema op % (the number of schemas) (5..8 are special: INVALID, GATHER_ND, ...): PADDING
# and PADDING1 are the last two of the registry's 14 (after SPACE_TO_DEPTH1).  The registry's order
# decides: regenerate their seeds when operators are added.
OPS.update({"PADDING": 12, "PADDING1": 13})
LEVELS = ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2",
          "6_0", "6_1", "6_2", "6_3", "6_4"]
DT = {"FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6,
      "INT16": 7, "INT8": 8, "FLOAT64": 9, "UINT64": 10, "INT64": 11, "UINT4": 12,
      "INT4": 13}
ESIZE = {1: 4, 2: 2, 3: 4, 4: 2, 5: 1, 6: 4, 7: 2, 8: 1, 9: 8, 10: 8, 11: 8}
PACK = {1: "<f", 2: "<e", 3: "<I", 4: "<H", 5: "<B", 6: "<i", 7: "<h", 8: "<b",
        9: "<d", 10: "<Q", 11: "<q"}


class T:
    """One tensor record.  data: element values in memory order (inputs only)."""

    def __init__(self, dtype, sizes, strides=None, data=None, ctl=0, flags=0,
                 ndims=None, smode=None, tmode=0, textra=b"", align=0):
        self.dt = DT[dtype] if isinstance(dtype, str) else dtype
        self.sizes, self.strides, self.data = list(sizes), strides, data
        self.ctl, self.flags, self.tmode, self.textra, self.align = ctl, flags, tmode, textra, align
        self.ndims = len(self.sizes) if ndims is None else ndims
        self.smode = (0 if strides is None else 1) if smode is None else smode

    def encode(self):
        out = struct.pack("<5B", self.ctl, self.dt, self.flags, self.ndims, self.smode)
        for s in self.sizes[:8]:
            out += struct.pack("<I", s)
        if self.smode == 1:
            out += b"".join(struct.pack("<I", s) for s in self.strides[:8])
        elif self.smode == 2:
            out += bytes(self.strides[:8])
        return out + bytes([self.tmode]) + self.textra + bytes([self.align])

    def total(self):
        """The minimum TotalTensorSizeInBytes (what tmode 0 gives)."""
        if self.strides is None:
            count = 1
            for s in self.sizes:
                count *= s
        else:
            count = 1 + sum((s - 1) * st for s, st in zip(self.sizes, self.strides))
        return (count * ESIZE[self.dt] + 3) // 4 * 4

    def payload(self):
        """The buffer bytes: the data values, zero-padded to the buffer size."""
        if self.dt not in ESIZE or self.ndims != len(self.sizes) or self.total() > 1 << 16:
            return b""
        raw = b"".join(struct.pack(PACK[self.dt], v) for v in (self.data or []))[:self.total()]
        return raw + bytes(self.total() - len(raw))


def case(op, level, params, tensors, inputs, misc=0, fill=0, opsel=None, extra=b""):
    head = struct.pack("<4B", OPS[op] if opsel is None else opsel,
                       LEVELS.index(level) if isinstance(level, str) else level, misc, fill)
    head += struct.pack("<3I", *(list(params) + [0] * (3 - len(params)))) + extra
    body = b"".join(t.encode() for t in tensors)
    payload = b"".join(t.payload() for t in inputs)
    return head + body + payload


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


def u32s(*v):
    return b"".join(struct.pack("<I", x & 0xFFFFFFFF) for x in v)


def padding(level, mode, value_bits, start, end, inp, out, count=None, **kw):
    """PADDING: PaddingMode, PaddingValue (float bits), DimensionCount in the header; then
    StartPadding and EndPadding (their length, then the entries)."""
    n = len(start) if count is None else count
    extra = u32s(len(start), *start) + u32s(len(end), *end)
    return case("PADDING", level, [mode, value_bits, n], [inp, out], [inp], extra=extra, **kw)


def padding1(level, mode, dtype, value, start, end, inp, out, count=None, **kw):
    """PADDING1: PaddingMode, PaddingValueDataType, the union's low word in the header; its high
    word, DimensionCount, then the arrays."""
    n = len(start) if count is None else count
    extra = u32s(value >> 32, n, len(start), *start) + u32s(len(end), *end)
    return case("PADDING1", level, [mode, DT[dtype] if isinstance(dtype, str) else dtype, value & 0xFFFFFFFF],
                [inp, out], [inp], extra=extra, **kw)


def padding_seeds():
    """PADDING and PADDING1 (operators.md P5.4): the page's examples in every mode, 1-D
    periodic folding, strided and broadcast layouts, 64-bit fills, and the rejections."""
    F = "FLOAT32"
    x = [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]
    s = {}
    for m, name in enumerate(["constant", "edge", "reflection", "symmetric", "wrap"]):
        lvl = "6_4" if m == 4 else "3_0" if m == 3 else "1_0"
        s["padding_doc_" + name] = padding(lvl, m, 0x41100000, [0, 0, 1, 2], [0, 0, 3, 4],
                                           T(F, [1, 1, 4, 4], data=x), T(F, [1, 1, 8, 10]))
        s["padding1_doc_" + name] = padding1("6_4" if m == 4 else "5_0", m, F, 0x41100000, [0, 0, 1, 2],
                                             [0, 0, 3, 4], T(F, [1, 1, 4, 4], data=x), T(F, [1, 1, 8, 10]))
        s["padding1_1d_fold_" + name] = padding1("6_4", m, "INT32", 7, [7], [7], T("INT32", [3], data=[1, 2, 3]),
                                                 T("INT32", [17]))
    s["padding1_int64_min_strided"] = padding1("6_4", 0, "INT64", 1 << 63, [1, 0, 2], [0, 3, 1],
                                               T("INT64", [2, 1, 3], strides=[0, 5, 1], data=[1, 2, 3, 4]),
                                               T("INT64", [3, 4, 6], strides=[1, 3, 12]))
    s["padding1_uint8_reflect_size1"] = padding1("6_4", 2, "UINT8", 0, [5, 0], [2, 9],
                                                 T("UINT8", [1, 4], data=[9, 8, 7, 6]), T("UINT8", [8, 13]))
    s["padding_int8_saturate"] = padding("6_4", 0, 0x43968000, [2], [2], T("INT8", [3], data=[1, 2, 3]),
                                         T("INT8", [7]))
    s["padding_float16_symmetric_8d"] = padding("5_0", 3, 0, [0, 1, 0, 2, 0, 0, 1, 0], [0, 0, 1, 0, 0, 1, 0, 3],
                                                T("FLOAT16", [1, 2, 1, 2, 1, 1, 2, 3], data=list(range(24))),
                                                T("FLOAT16", [1, 3, 2, 4, 1, 2, 3, 6]))
    s["bad_padding_mode_5"] = padding("6_4", 5, 0, [1], [1], T(F, [2]), T(F, [4]))
    s["bad_padding_wrap_6_3"] = padding("6_3", 4, 0, [1], [1], T(F, [2]), T(F, [4]))
    s["bad_padding1_value_type"] = padding1("6_4", 0, "INT32", 0, [1], [1], T(F, [2]), T(F, [4]))
    s["bad_padding_sizes_wrap_32"] = padding("6_4", 1, 0, [0xFFFFFFFF], [3], T(F, [2]), T(F, [4]))
    s["bad_padding_count"] = padding("6_4", 1, 0, [1, 1], [1, 1], T(F, [2]), T(F, [4]), count=1)
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
    s.update(padding_seeds())
    return s


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "fuzz_desc")
    os.makedirs(outdir, exist_ok=True)
    for name, blob in sorted(seeds().items()):
        digest = hashlib.sha1(blob).hexdigest()[:8]
        with open(os.path.join(outdir, f"{name}-{digest}"), "wb") as f:
            f.write(blob)
    print(f"{len(seeds())} seeds in {outdir}")


if __name__ == "__main__":
    main()
