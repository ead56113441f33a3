/*
 * dmlref: a CPU reference implementation of DirectML's tensor data-movement
 * operators and of its exact conversions, selects and fills (the 34 of
 * src/core/operators.def: GATHER, SCATTER, SLICE, PADDING, JOIN, SPLIT, TILE,
 * ONE_HOT, CAST, ELEMENT_WISE_IF, RESAMPLE, UNFOLD, ...; dmlref_execute below
 * lists them all).
 *
 * One file of about 730 lines, on purpose: it is the whole public API, one
 * header as DirectML's is one (directml.h), so that a caller includes one file
 * and the DMLREF_ types sit next to the functions that take them.
 *
 * The DMLREF_ types mirror directml.h field for field and value for value, so a
 * caller holding a real DML_OPERATOR_DESC can pass it with a cast.  Semantics
 * follow the project's specification, docs/operators.md.
 *
 * Lifecycle:  dmlref_compile() validates and plans (allocates once, through
 *             the caller's allocator when options name one);
 *             dmlref_execute() copies bytes (allocates nothing in the default
 *             mode, see dmlref_execute_memory; touches no global state, may
 *             run on several threads at once with the same compiled operator);
 *             dmlref_release() frees.   dmlref_run() does all three.
 */
#ifndef DMLREF_H
#define DMLREF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMLREF_VERSION_MAJOR 0
#define DMLREF_VERSION_MINOR 1
#define DMLREF_VERSION_PATCH 0
#define DMLREF_VERSION_STRING "0.1.0"

/*
 * DMLREF_API marks the public functions: the library is built with
 * -fvisibility=hidden, so these are the only symbols it exports (and the only
 * global ones in the shipped libdmlref.a).  For a caller it changes nothing.
 * Define DMLREF_API (for example to nothing) before including this header to
 * override it.
 */
#ifndef DMLREF_API
#if defined(__GNUC__) || defined(__clang__)
#define DMLREF_API __attribute__((visibility("default")))
#else
#define DMLREF_API
#endif
#endif

/* The library's version at run time ("0.1.0"); the macros above give the
 * version of the header a program was compiled with. */
DMLREF_API const char *dmlref_version(void);

/* ------------------------------------------------------------------------- */
/* directml.h mirrors                                                         */
/* ------------------------------------------------------------------------- */

typedef enum DMLREF_TENSOR_DATA_TYPE {
    DMLREF_TENSOR_DATA_TYPE_UNKNOWN = 0,
    DMLREF_TENSOR_DATA_TYPE_FLOAT32 = 1,
    DMLREF_TENSOR_DATA_TYPE_FLOAT16 = 2,
    DMLREF_TENSOR_DATA_TYPE_UINT32 = 3,
    DMLREF_TENSOR_DATA_TYPE_UINT16 = 4,
    DMLREF_TENSOR_DATA_TYPE_UINT8 = 5,
    DMLREF_TENSOR_DATA_TYPE_INT32 = 6,
    DMLREF_TENSOR_DATA_TYPE_INT16 = 7,
    DMLREF_TENSOR_DATA_TYPE_INT8 = 8,
    DMLREF_TENSOR_DATA_TYPE_FLOAT64 = 9,
    DMLREF_TENSOR_DATA_TYPE_UINT64 = 10,
    DMLREF_TENSOR_DATA_TYPE_INT64 = 11,
    DMLREF_TENSOR_DATA_TYPE_UINT4 = 12, /* accepted by no operator here */
    DMLREF_TENSOR_DATA_TYPE_INT4 = 13   /* accepted by no operator here */
} DMLREF_TENSOR_DATA_TYPE;

typedef enum DMLREF_TENSOR_TYPE {
    DMLREF_TENSOR_TYPE_INVALID = 0,
    DMLREF_TENSOR_TYPE_BUFFER = 1
} DMLREF_TENSOR_TYPE;

typedef enum DMLREF_TENSOR_FLAGS {
    DMLREF_TENSOR_FLAG_NONE = 0x0,
    DMLREF_TENSOR_FLAG_OWNED_BY_DML = 0x1 /* inputs only; no semantic effect */
} DMLREF_TENSOR_FLAGS;

typedef struct DMLREF_BUFFER_TENSOR_DESC {
    DMLREF_TENSOR_DATA_TYPE DataType;
    DMLREF_TENSOR_FLAGS Flags;
    uint32_t DimensionCount;          /* 1..8, per operator and feature level  */
    const uint32_t *Sizes;            /* DimensionCount entries, each >= 1      */
    const uint32_t *Strides;          /* optional, in elements; NULL = packed   */
    uint64_t TotalTensorSizeInBytes;  /* >= dmlref_calc_buffer_tensor_size()    */
    uint32_t GuaranteedBaseOffsetAlignment; /* 0 or a power of two >= element size */
} DMLREF_BUFFER_TENSOR_DESC;

typedef struct DMLREF_TENSOR_DESC {
    DMLREF_TENSOR_TYPE Type; /* must be DMLREF_TENSOR_TYPE_BUFFER */
    const void *Desc;        /* const DMLREF_BUFFER_TENSOR_DESC*   */
} DMLREF_TENSOR_DESC;

typedef enum DMLREF_OPERATOR_TYPE {
    DMLREF_OPERATOR_INVALID = 0,
    DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY = 1,
    DMLREF_OPERATOR_SLICE = 60,
    DMLREF_OPERATOR_CAST = 61,
    DMLREF_OPERATOR_SPLIT = 62,
    DMLREF_OPERATOR_JOIN = 63,
    DMLREF_OPERATOR_PADDING = 64,
    DMLREF_OPERATOR_UPSAMPLE_2D = 66,
    DMLREF_OPERATOR_GATHER = 67,
    DMLREF_OPERATOR_SPACE_TO_DEPTH = 68,
    DMLREF_OPERATOR_DEPTH_TO_SPACE = 69,
    DMLREF_OPERATOR_TILE = 70,
    DMLREF_OPERATOR_TOP_K = 71,
    DMLREF_OPERATOR_ELEMENT_WISE_IF = 88,
    DMLREF_OPERATOR_MAX_UNPOOLING = 92,
    DMLREF_OPERATOR_DIAGONAL_MATRIX = 93,
    DMLREF_OPERATOR_SCATTER_ELEMENTS = 94,
    DMLREF_OPERATOR_SCATTER = 94,
    DMLREF_OPERATOR_ONE_HOT = 95,
    DMLREF_OPERATOR_RESAMPLE = 96,
    DMLREF_OPERATOR_FILL_VALUE_CONSTANT = 103,
    DMLREF_OPERATOR_FILL_VALUE_SEQUENCE = 104,
    DMLREF_OPERATOR_REVERSE_SUBSEQUENCES = 106,
    DMLREF_OPERATOR_GATHER_ELEMENTS = 107,
    DMLREF_OPERATOR_GATHER_ND = 108,
    DMLREF_OPERATOR_SCATTER_ND = 109,
    DMLREF_OPERATOR_SLICE1 = 111,
    DMLREF_OPERATOR_TOP_K1 = 112,
    DMLREF_OPERATOR_DEPTH_TO_SPACE1 = 113,
    DMLREF_OPERATOR_SPACE_TO_DEPTH1 = 114,
    DMLREF_OPERATOR_RESAMPLE1 = 116,
    DMLREF_OPERATOR_NONZERO_COORDINATES = 133,
    DMLREF_OPERATOR_SLICE_GRAD = 135,
    DMLREF_OPERATOR_ARGMIN = 137,
    DMLREF_OPERATOR_ARGMAX = 138,
    DMLREF_OPERATOR_GATHER_ND1 = 140,
    DMLREF_OPERATOR_PADDING1 = 155,
    DMLREF_OPERATOR_RESAMPLE2 = 161,
    DMLREF_OPERATOR_DIAGONAL_MATRIX1 = 163,
    DMLREF_OPERATOR_RESAMPLE3 = 175,
    DMLREF_OPERATOR_UNFOLD = 177
} DMLREF_OPERATOR_TYPE;

typedef struct DMLREF_OPERATOR_DESC {
    DMLREF_OPERATOR_TYPE Type;
    const void *Desc; /* points to the DMLREF_*_OPERATOR_DESC matching Type */
} DMLREF_OPERATOR_DESC;

/*
 * GATHER.   data [d0..dN) T, indices UINT32|INT32|UINT64|INT64 [1.., k0..kK),
 * out = Input.Sizes[0..Axis) ++ Indices.Sizes[N-K..N) ++ Input.Sizes[Axis+1..N),
 * right-aligned to N (docs/operators.md 2.3).   output[...] = input[..., indices[...], ...]
 */
typedef struct DMLREF_GATHER_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
    uint32_t IndexDimensions;
} DMLREF_GATHER_OPERATOR_DESC;

/* GATHER_ELEMENTS.  out.Sizes == indices.Sizes; indices match input except on Axis. */
typedef struct DMLREF_GATHER_ELEMENTS_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
} DMLREF_GATHER_ELEMENTS_OPERATOR_DESC;

/* SCATTER_ND.  output = input; output[indices[...]] = updates[...] (docs/operators.md 4.3). */
typedef struct DMLREF_SCATTER_ND_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *UpdatesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t InputDimensionCount;
    uint32_t IndicesDimensionCount;
} DMLREF_SCATTER_ND_OPERATOR_DESC;

/* SPLIT: input first, then the count (directml.h order). */
typedef struct DMLREF_SPLIT_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    uint32_t OutputCount;
    const DMLREF_TENSOR_DESC *OutputTensors;
    uint32_t Axis;
} DMLREF_SPLIT_OPERATOR_DESC;

/* JOIN: the count first (directml.h order). */
typedef struct DMLREF_JOIN_OPERATOR_DESC {
    uint32_t InputCount;
    const DMLREF_TENSOR_DESC *InputTensors;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
} DMLREF_JOIN_OPERATOR_DESC;

/* DML_SCALE_BIAS: x * Scale + Bias (ELEMENT_WISE_IDENTITY's optional ScaleBias). */
typedef struct DMLREF_SCALE_BIAS {
    float Scale;
    float Bias;
} DMLREF_SCALE_BIAS;

/* ELEMENT_WISE_IDENTITY: output = input, a strided copy with the same sizes on both
 * sides (bytes copied, any type).  The output may be bound to the input's very
 * buffer (in place: every input element is read before any output element is
 * written).  With a non-NULL ScaleBias, output = x * Scale + Bias: arithmetic, for
 * FLOAT32 and FLOAT16 only (any other type: DMLREF_ERROR_PARAMETER, rule ID5),
 * computed as fl32(fl32(x * Scale) + Bias) -- two roundings, no fused multiply-add;
 * FLOAT16 widened exactly to binary32 first and rounded to nearest even last; every
 * NaN result the canonical quiet NaN (payloads do not survive); -0.0 becomes +0.0
 * even with {1, 0} (docs/operators.md P7).
 *   in  [d0..dn] T,  out [d0..dn] T (same sizes, any strides) */
typedef struct DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    const DMLREF_SCALE_BIAS *ScaleBias; /* optional */
} DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC;

/* ---- phase 2 (docs/operators.md): enums, the scalar union, the descs ---- */

typedef enum DMLREF_PADDING_MODE {
    DMLREF_PADDING_MODE_CONSTANT = 0,
    DMLREF_PADDING_MODE_EDGE = 1,
    DMLREF_PADDING_MODE_REFLECTION = 2,
    DMLREF_PADDING_MODE_SYMMETRIC = 3, /* from feature level 3_0 */
    DMLREF_PADDING_MODE_WRAP = 4       /* from feature level 6_4 */
} DMLREF_PADDING_MODE;

typedef enum DMLREF_DEPTH_SPACE_ORDER {
    DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW = 0,
    DMLREF_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH = 1
} DMLREF_DEPTH_SPACE_ORDER;

/* DML_SCALAR_UNION: 8 bytes, 8-aligned.  A value of the type its companion
 * ...DataType field names starts at byte 0 in that type's host encoding; a
 * FLOAT16 is its binary16 bit pattern as a host uint16_t in Bytes[0..1]. */
typedef union DMLREF_SCALAR_UNION {
    uint8_t Bytes[8];
    int8_t Int8;
    uint8_t UInt8;
    int16_t Int16;
    uint16_t UInt16;
    int32_t Int32;
    uint32_t UInt32;
    int64_t Int64;
    uint64_t UInt64;
    float Float32;
    double Float64;
} DMLREF_SCALAR_UNION;

/* GATHER_ND: output[batch, ...] = input[batch, indices[batch, ...], ...]. */
typedef struct DMLREF_GATHER_ND_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t InputDimensionCount;
    uint32_t IndicesDimensionCount;
} DMLREF_GATHER_ND_OPERATOR_DESC;

typedef struct DMLREF_GATHER_ND1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t InputDimensionCount;
    uint32_t IndicesDimensionCount;
    uint32_t BatchDimensionCount;
} DMLREF_GATHER_ND1_OPERATOR_DESC;

/* SCATTER (= SCATTER_ELEMENTS): output = input; output[.., indices[c], ..] = updates[c]. */
typedef struct DMLREF_SCATTER_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *UpdatesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
} DMLREF_SCATTER_OPERATOR_DESC;
typedef DMLREF_SCATTER_OPERATOR_DESC DMLREF_SCATTER_ELEMENTS_OPERATOR_DESC;

typedef struct DMLREF_SLICE_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t DimensionCount;
    const uint32_t *Offsets;
    const uint32_t *Sizes;
    const uint32_t *Strides;
} DMLREF_SLICE_OPERATOR_DESC;

typedef struct DMLREF_SLICE1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t DimensionCount;
    const uint32_t *InputWindowOffsets;
    const uint32_t *InputWindowSizes;
    const int32_t *InputWindowStrides; /* signed; never 0 */
} DMLREF_SLICE1_OPERATOR_DESC;

typedef struct DMLREF_TILE_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t RepeatsCount;
    const uint32_t *Repeats;
} DMLREF_TILE_OPERATOR_DESC;

typedef struct DMLREF_PADDING_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_PADDING_MODE PaddingMode;
    float PaddingValue; /* converted to the element type */
    uint32_t DimensionCount;
    const uint32_t *StartPadding;
    const uint32_t *EndPadding;
} DMLREF_PADDING_OPERATOR_DESC;

typedef struct DMLREF_PADDING1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_PADDING_MODE PaddingMode;
    DMLREF_TENSOR_DATA_TYPE PaddingValueDataType; /* must equal OutputTensor's */
    DMLREF_SCALAR_UNION PaddingValue;
    uint32_t DimensionCount;
    const uint32_t *StartPadding;
    const uint32_t *EndPadding;
} DMLREF_PADDING1_OPERATOR_DESC;

typedef struct DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t BlockSize;
} DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC;

typedef struct DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t BlockSize;
} DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC;

typedef struct DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t BlockSize;
    DMLREF_DEPTH_SPACE_ORDER Order;
} DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC;

typedef struct DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t BlockSize;
    DMLREF_DEPTH_SPACE_ORDER Order;
} DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC;

/* ONE_HOT: Indices first, then Values ([off, on, ...]), Output, Axis. */
typedef struct DMLREF_ONE_HOT_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *IndicesTensor;
    const DMLREF_TENSOR_DESC *ValuesTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
} DMLREF_ONE_HOT_OPERATOR_DESC;

typedef struct DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *SequenceLengthsTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
} DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC;

typedef struct DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *OutputTensor;
    int32_t Offset;
    float Value; /* converted to the element type */
} DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC;

typedef struct DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor; /* optional */
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_TENSOR_DATA_TYPE ValueDataType; /* must equal OutputTensor's */
    DMLREF_SCALAR_UNION Value;
    int32_t DiagonalFillBegin; /* inclusive */
    int32_t DiagonalFillEnd;   /* exclusive */
} DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC;

/* UNFOLD (FL 6_4): im2col.  DimensionCount is the length of the five arrays: the
 * spatial count, InputTensor.DimensionCount - 2. */
typedef struct DMLREF_UNFOLD_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t DimensionCount;
    const uint32_t *WindowSizes;
    const uint32_t *Strides;
    const uint32_t *Dilations;
    const uint32_t *StartPadding;
    const uint32_t *EndPadding;
} DMLREF_UNFOLD_OPERATOR_DESC;
/* CAST: output = input converted to the output's DataType, element by element
 * (docs/operators.md, CAST: rounding, saturation, wrap and NaN rules). */
typedef struct DMLREF_CAST_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
} DMLREF_CAST_OPERATOR_DESC;
typedef struct DMLREF_SLICE_GRAD_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputGradientTensor;  /* the forward SLICE1's output sizes */
    const DMLREF_TENSOR_DESC *OutputGradientTensor; /* the forward SLICE1's input sizes */
    uint32_t DimensionCount;
    const uint32_t *InputWindowOffsets;
    const uint32_t *InputWindowSizes;
    const int32_t *InputWindowStrides; /* signed (INT in the header, UINT on the page); never 0 */
} DMLREF_SLICE_GRAD_OPERATOR_DESC;

typedef struct DMLREF_MAX_UNPOOLING_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *IndicesTensor; /* row-major linear indices into OutputTensor */
    const DMLREF_TENSOR_DESC *OutputTensor;
} DMLREF_MAX_UNPOOLING_OPERATOR_DESC;
/* ---- phase 3 (docs/operators.md): enums, DML_SIZE_2D, BOOL, the descs ---- */

typedef enum DMLREF_INTERPOLATION_MODE {
    DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR = 0,
    DMLREF_INTERPOLATION_MODE_LINEAR = 1 /* refused by dmlref (rules US5, RS6) */
} DMLREF_INTERPOLATION_MODE;

typedef enum DMLREF_AXIS_DIRECTION {
    DMLREF_AXIS_DIRECTION_INCREASING = 0,
    DMLREF_AXIS_DIRECTION_DECREASING = 1
} DMLREF_AXIS_DIRECTION;

/* DML_SIZE_2D: Width first. */
typedef struct DMLREF_SIZE_2D {
    uint32_t Width;
    uint32_t Height;
} DMLREF_SIZE_2D;

/* DirectML's BOOL: a 32-bit int (0 false, anything else true). */
typedef int32_t DMLREF_BOOL;

/* UPSAMPLE_2D (NEAREST_NEIGHBOR only): the last two dimensions (H, W of NCHW or
 * NCDHW) repeated: out[..., h, w] = in[..., h / Height, w / Width] (integer division). */
typedef struct DMLREF_UPSAMPLE_2D_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_SIZE_2D ScaleSize;
    DMLREF_INTERPOLATION_MODE InterpolationMode;
} DMLREF_UPSAMPLE_2D_OPERATOR_DESC;

/* RESAMPLE (NEAREST_NEIGHBOR only): RESAMPLE1 with InputPixelOffsets 0.5 and
 * OutputPixelOffsets -0.5: i = floor(fl32(fl32(o + 0.5) / Scales[d])). */
typedef struct DMLREF_RESAMPLE_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_INTERPOLATION_MODE InterpolationMode;
    uint32_t ScaleCount;
    const float *Scales;
} DMLREF_RESAMPLE_OPERATOR_DESC;

/* RESAMPLE1 (NEAREST_NEIGHBOR only): RESAMPLE2 DECREASING with the input offset
 * fl32(InputPixelOffsets[d] - 0.5) (floor(x + 1/2): nearest, halves up). */
typedef struct DMLREF_RESAMPLE1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_INTERPOLATION_MODE InterpolationMode;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
} DMLREF_RESAMPLE1_OPERATOR_DESC;

/* RESAMPLE2 (NEAREST_NEIGHBOR only): per dimension d and output coordinate o,
 * t = fl32(fl32(fl32(o - OutputPixelOffsets[d]) / Scales[d]) - InputPixelOffsets[d]),
 * i = floor(t) (DECREASING) or ceil(t) (INCREASING), clamped to [0, In.Sizes[d] - 1];
 * out[o...] = in[i...] (a bit copy).  Output.Sizes are free (docs/operators.md). */
typedef struct DMLREF_RESAMPLE2_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_INTERPOLATION_MODE InterpolationMode;
    DMLREF_AXIS_DIRECTION RoundingDirection;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
} DMLREF_RESAMPLE2_OPERATOR_DESC;

/* RESAMPLE3: RESAMPLE2 plus Antialiased, which has no effect on NEAREST_NEIGHBOR. */
typedef struct DMLREF_RESAMPLE3_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_INTERPOLATION_MODE InterpolationMode;
    DMLREF_AXIS_DIRECTION RoundingDirection;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
    DMLREF_BOOL Antialiased;
} DMLREF_RESAMPLE3_OPERATOR_DESC;
/* ELEMENT_WISE_IF: out = cond != 0 ? A : B (the selected element's bytes). */
typedef struct DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *ConditionTensor; /* UINT8 */
    const DMLREF_TENSOR_DESC *ATensor;
    const DMLREF_TENSOR_DESC *BTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
} DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC;

/* FILL_VALUE_CONSTANT: every output element is Value. */
typedef struct DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_TENSOR_DATA_TYPE ValueDataType; /* must equal OutputTensor's */
    DMLREF_SCALAR_UNION Value;
} DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC;

/* FILL_VALUE_SEQUENCE: element i (row-major) is ValueStart + i * ValueDelta. */
typedef struct DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_TENSOR_DATA_TYPE ValueDataType; /* must equal OutputTensor's */
    DMLREF_SCALAR_UNION ValueStart;
    DMLREF_SCALAR_UNION ValueDelta;
} DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC;

/* TOP_K: the K largest elements of each sequence along Axis, largest first (ties by
 * ascending index), and their indices within the sequence. */
typedef struct DMLREF_TOP_K_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputValueTensor;
    const DMLREF_TENSOR_DESC *OutputIndexTensor; /* UINT32 (UINT64 too from 5_0) */
    uint32_t Axis;
    uint32_t K;
} DMLREF_TOP_K_OPERATOR_DESC;

/* TOP_K1: TOP_K with a direction (DECREASING: the largest first, as TOP_K;
 * INCREASING: the smallest first; ties by ascending index either way). */
typedef struct DMLREF_TOP_K1_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputValueTensor;
    const DMLREF_TENSOR_DESC *OutputIndexTensor;
    uint32_t Axis;
    uint32_t K;
    DMLREF_AXIS_DIRECTION AxisDirection;
} DMLREF_TOP_K1_OPERATOR_DESC;
/* NONZERO_COORDINATES: the count of Input's nonzero elements and, row r of an
 * M x N table (M = Input's element count), the last N components of the r-th
 * nonzero coordinate in row-major order; rows past the count are written as 0. */
typedef struct DMLREF_NONZERO_COORDINATES_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputCountTensor;       /* UINT32, every size 1       */
    const DMLREF_TENSOR_DESC *OutputCoordinatesTensor; /* UINT32 {1,...,1,M,N}       */
} DMLREF_NONZERO_COORDINATES_OPERATOR_DESC;
/* ARGMIN / ARGMAX (FL 3_0): per output element, the row-major position over the
 * reduced Axes (in increasing axis order, whatever order Axes lists them) of the
 * smallest / largest input element agreeing with it on the kept axes; a NaN wins,
 * +-0 tie; INCREASING gives the first such position, DECREASING the last. */
typedef struct DMLREF_ARGMIN_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor; /* INT64, INT32, UINT64 or UINT32 */
    uint32_t AxisCount;
    const uint32_t *Axes;
    DMLREF_AXIS_DIRECTION AxisDirection;
} DMLREF_ARGMIN_OPERATOR_DESC;
typedef struct DMLREF_ARGMAX_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor; /* INT64, INT32, UINT64 or UINT32 */
    uint32_t AxisCount;
    const uint32_t *Axes;
    DMLREF_AXIS_DIRECTION AxisDirection;
} DMLREF_ARGMAX_OPERATOR_DESC;

typedef enum DMLREF_FEATURE_LEVEL {
    DMLREF_FEATURE_LEVEL_1_0 = 0x1000,
    DMLREF_FEATURE_LEVEL_2_0 = 0x2000,
    DMLREF_FEATURE_LEVEL_2_1 = 0x2100,
    DMLREF_FEATURE_LEVEL_3_0 = 0x3000,
    DMLREF_FEATURE_LEVEL_3_1 = 0x3100,
    DMLREF_FEATURE_LEVEL_4_0 = 0x4000,
    DMLREF_FEATURE_LEVEL_4_1 = 0x4100,
    DMLREF_FEATURE_LEVEL_5_0 = 0x5000,
    DMLREF_FEATURE_LEVEL_5_1 = 0x5100,
    DMLREF_FEATURE_LEVEL_5_2 = 0x5200,
    DMLREF_FEATURE_LEVEL_6_0 = 0x6000,
    DMLREF_FEATURE_LEVEL_6_1 = 0x6100,
    DMLREF_FEATURE_LEVEL_6_2 = 0x6200,
    DMLREF_FEATURE_LEVEL_6_3 = 0x6300,
    DMLREF_FEATURE_LEVEL_6_4 = 0x6400
} DMLREF_FEATURE_LEVEL;

/* The newest level this build knows. */
#define DMLREF_FEATURE_LEVEL_LATEST DMLREF_FEATURE_LEVEL_6_4

/* ------------------------------------------------------------------------- */
/* Status and errors                                                          */
/* ------------------------------------------------------------------------- */

typedef enum dmlref_status {
    DMLREF_OK = 0,
    DMLREF_ERROR_NULL_POINTER = 1,          /* a required pointer is NULL                  */
    DMLREF_ERROR_FEATURE_LEVEL = 2,         /* unknown feature level                        */
    DMLREF_ERROR_UNSUPPORTED_OPERATOR = 3,  /* operator type unknown or absent at this level */
    DMLREF_ERROR_TENSOR_TYPE = 4,           /* DMLREF_TENSOR_DESC.Type is not BUFFER        */
    DMLREF_ERROR_DATA_TYPE = 5,             /* DataType not allowed, or types differ        */
    DMLREF_ERROR_DIMENSION_COUNT = 6,       /* DimensionCount not allowed, or counts differ */
    DMLREF_ERROR_SIZES = 7,                 /* a size is 0, or sizes break a shape rule      */
    DMLREF_ERROR_PARAMETER = 8,             /* Axis, IndexDimensions, counts out of range    */
    DMLREF_ERROR_TENSOR_SIZE = 9,           /* TotalTensorSizeInBytes below the minimum      */
    DMLREF_ERROR_TOO_LARGE = 10,            /* element limit or 64-bit arithmetic overflow   */
    DMLREF_ERROR_OUTPUT_OVERLAP = 11,       /* output strides make elements share memory     */
    DMLREF_ERROR_FLAGS = 12,                /* unknown flag, or OWNED_BY_DML on an output     */
    DMLREF_ERROR_ALIGNMENT = 13,            /* GuaranteedBaseOffsetAlignment not allowed      */
    DMLREF_ERROR_BINDING = 14,              /* execute: buffer count, NULL data, size, overlap,
                                               alignment                                      */
    DMLREF_ERROR_INDEX_OUT_OF_RANGE = 15,   /* checking option: an index is out of range      */
    DMLREF_ERROR_DUPLICATE_INDEX = 16,      /* checking option: two updates hit one element   */
    DMLREF_ERROR_OUT_OF_MEMORY = 17,
    DMLREF_ERROR_OPTIONS = 18,              /* unknown option flag                            */
    DMLREF_ERROR_HOST_LIMIT = 19,           /* compile/execute: a valid tensor is larger than
                                               this host can address (TotalTensorSizeInBytes
                                               above SIZE_MAX); never returned by validate    */
    DMLREF_ERROR_CANNOT_VERIFY = 20         /* validate/compile: dmlref cannot decide within
                                               its bounds whether a valid-looking descriptor
                                               is valid (an interleaved output layout whose
                                               disjointness its exact search could not settle);
                                               not a verdict that the descriptor is invalid  */
} dmlref_status;

#define DMLREF_ERROR_MESSAGE_MAX 512

#define DMLREF_ERROR_RULE_MAX 16
#define DMLREF_ERROR_FIELD_MAX 64

typedef struct dmlref_error {
    dmlref_status code;
    char message[DMLREF_ERROR_MESSAGE_MAX]; /* "OPERATOR: Field ... rule (values)" */
    char rule[DMLREF_ERROR_RULE_MAX];       /* the rule's id in docs/operators.md ("G9",
                                               "T4", ...), or "" when none applies      */
    char field[DMLREF_ERROR_FIELD_MAX];     /* the desc field the rule is about
                                               ("IndicesTensor", "Axis"), or ""         */
} dmlref_error;

/* A short fixed name for a status ("DMLREF_ERROR_SIZES"). */
DMLREF_API const char *dmlref_status_name(dmlref_status status);

/* ------------------------------------------------------------------------- */
/* Helpers                                                                    */
/* ------------------------------------------------------------------------- */

/*
 * What DMLCalcBufferTensorSize computes (docs/operators.md 1.4): the minimum
 * TotalTensorSizeInBytes, rounded up to a multiple of 4.  Strides may be NULL
 * (packed).  Returns 0 for an unknown data type, DimensionCount 0, a size of 0,
 * NULL sizes, or a result that does not fit in 64 bits.
 */
DMLREF_API uint64_t dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE data_type,
                                                   uint32_t dimension_count,
                                                   const uint32_t *sizes,
                                                   const uint32_t *strides);

/*
 * GATHER's output shape (rule G6): Input.Sizes[0..Axis) ++
 * Indices.Sizes[N-IndexDimensions..N) ++ Input.Sizes[Axis+1..N), right-aligned
 * to N = dimension_count dimensions; the function validation uses.  Writes N
 * sizes and returns 0, or returns -1 (writing nothing) unless 1 <= N <= 8,
 * Axis < N, IndexDimensions <= N and IndexDimensions <= Axis + 1 (G3-G5).
 */
DMLREF_API int dmlref_gather_output_sizes(uint32_t dimension_count, uint32_t axis, uint32_t index_dimensions,
                                          const uint32_t *input_sizes, const uint32_t *indices_sizes,
                                          uint32_t *output_sizes);

/*
 * The DimensionCount and Sizes of output `output` (the binding order of
 * dmlref_execute's outputs: SPLIT's OutputTensors[output]; TOP_K's and TOP_K1's
 * OutputValueTensor 0 and OutputIndexTensor 1; 0 for the others) of desc at
 * feature level `feature_level`, computed from its inputs and parameters, as TFLite's
 * Prepare does: a desc whose output Sizes are left out gets them here, then compiles.
 * The output tensor descs are not read (they may be NULL or hold anything) except where
 * the inputs and parameters leave the shape free, when the output desc's own
 * DimensionCount and Sizes (nothing else of it) give the free part:
 *   SPLIT             OutputTensors[output].Sizes[Axis] (each piece's share of Axis);
 *   ONE_HOT           OutputTensor.Sizes[Axis] (the depth);
 *   DIAGONAL_MATRIX   the whole of OutputTensor's shape (there is no input);
 *   DIAGONAL_MATRIX1  the same without an InputTensor (with one: the input's Sizes).
 *   FILL_VALUE_CONSTANT, FILL_VALUE_SEQUENCE  the whole of OutputTensor's shape (no input).
 * There, a NULL output desc (or its Desc or Sizes) is DMLREF_ERROR_NULL_POINTER naming the
 * field and what it gives.  SLICE1's output may be smaller than its window reaches (rule
 * SL7): the largest, 1 + (InputWindowSizes[i] - 1) / |InputWindowStrides[i]|, is given.
 * Checks, in compile's order and with its messages, the rules of the inputs and
 * parameters the shape is computed from (their tensor rules, feature-level support and
 * the operator's parameter and size rules); dmlref_validate on the completed desc checks
 * the rest.  Writes *dimension_count and sizes[0..*dimension_count) (at most 8) and
 * returns DMLREF_OK, or the status and message of the first broken rule (writing
 * nothing); an `output` beyond the outputs is DMLREF_ERROR_PARAMETER.  Shared with
 * compile: compile checks the output Sizes it is given against the same computation.
 */
DMLREF_API dmlref_status dmlref_output_sizes(const DMLREF_OPERATOR_DESC *desc, DMLREF_FEATURE_LEVEL feature_level,
                                             uint32_t output, uint32_t *dimension_count, uint32_t sizes[8],
                                             dmlref_error *err);

/* Element size in bytes (0 for UNKNOWN, UINT4/INT4 and unknown values). */
DMLREF_API uint32_t dmlref_data_type_size(DMLREF_TENSOR_DATA_TYPE data_type);
/* "FLOAT32", ... or NULL. */
DMLREF_API const char *dmlref_data_type_name(DMLREF_TENSOR_DATA_TYPE data_type);
/* "GATHER", ... (without DML_OPERATOR_) or NULL. */
DMLREF_API const char *dmlref_operator_name(DMLREF_OPERATOR_TYPE type);
/* "4_1", ... or NULL for an unknown level. */
DMLREF_API const char *dmlref_feature_level_name(DMLREF_FEATURE_LEVEL level);

/* ------------------------------------------------------------------------- */
/* Validate, compile, execute                                                 */
/* ------------------------------------------------------------------------- */

enum {
    /* Out-of-range indices and duplicate scatter targets become errors
     * (DMLREF_ERROR_INDEX_OUT_OF_RANGE / DMLREF_ERROR_DUPLICATE_INDEX) naming
     * the index position and value, detected before any output byte is
     * written.  SCATTER's and SCATTER_ND's duplicate detection allocates a
     * sort array per execute (dmlref_execute_memory). */
    DMLREF_OPTION_CHECK_INDICES = 0x1,
    /* Run the scalar oracle, never a fast path (also: DMLREF_FORCE_ORACLE=1
     * in the environment at compile time). */
    DMLREF_OPTION_FORCE_ORACLE = 0x2,
    /* Plan only kernels of the build's baseline instruction set (SSE2 on
     * x86-64), none chosen at run time by the CPU's features (the F16C casts).
     * The outputs are the same bytes either way; the kernel and its speed differ. */
    DMLREF_OPTION_BASELINE_ISA = 0x4
};

/*
 * The caller's memory.  Every allocation dmlref_compile makes for the compiled
 * operator (its tensors, its plan, its scratch), every one dmlref_execute makes
 * (the checking option's sort arrays, an in-place snapshot) and every free of
 * those (dmlref_release, a failed compile or execute) goes through
 * options->allocator when it is set; dmlref then calls no malloc, calloc, realloc
 * or free of libc (OpenMP's runtime, used when threads != 1, may allocate inside
 * itself).  dmlref_validate, which takes no options, uses malloc and free.
 *
 * Freestanding builds (docs/baremetal.md) may define, when compiling the library:
 *   DMLREF_NO_MALLOC=1  no malloc or free is referenced.  A NULL options.allocator
 *       is then DMLREF_ERROR_OPTIONS ("this build has no default allocator") from
 *       dmlref_compile and dmlref_compile_memory; dmlref_validate allocates from
 *       a bump arena of DMLREF_VALIDATE_ARENA bytes (default 2560) on its own
 *       stack, enough for the operator and 10 tensors on a 32-bit target; a desc with more
 *       tensors than fit is DMLREF_ERROR_OUT_OF_MEMORY from validate (compile
 *       with an allocator validates it the same way).
 *   DMLREF_NO_ENV=1     no getenv: the DMLREF_* environment variables
 *       (docs/environment.md) are never read, their defaults apply.
 *   DMLREF_MESSAGES=0   no message formatting: dmlref_error.code, .rule and
 *       .field are as usual, .message holds the rule id (or is empty).
 *   DMLREF_ORACLE_ONLY=1 (make ORACLE_ONLY=1) the fast paths are not compiled:
 *       every operator runs its scalar oracle, as with DMLREF_OPTION_FORCE_ORACLE.
 *   DMLREF_SMALL=1 (make SMALL=1) a small target's fast paths: chunk buffers of
 *       at most 256 bytes on the stack, one copy of each width-specialised
 *       mover; the same outputs (docs/baremetal.md).
 *
 *   alloc(ctx, size, alignment): size > 0 bytes at a multiple of alignment, or
 *       NULL when out of memory (then the call fails with
 *       DMLREF_ERROR_OUT_OF_MEMORY, having freed everything it had allocated).
 *       alignment is always DMLREF_ALLOC_ALIGNMENT.
 *   free(ctx, ptr): gives back what alloc returned (never NULL).
 *
 * Sizes (dmlref_compile_memory, dmlref_execute_memory): each request counts
 * DMLREF_ALLOC_PADDED(size) bytes, its size rounded up to a multiple of
 * DMLREF_ALLOC_ALIGNMENT.  A bump allocator over a buffer whose base is a
 * multiple of DMLREF_ALLOC_ALIGNMENT that hands out DMLREF_ALLOC_PADDED(size)
 * bytes per request, in order, and never reuses freed memory, needs exactly
 * the query's bytes: a buffer one byte smaller fails the last request.  (A
 * buffer of unknown alignment needs DMLREF_ALLOC_ALIGNMENT - 1 bytes more.)
 */
#define DMLREF_ALLOC_ALIGNMENT 16u
#define DMLREF_ALLOC_PADDED(size) \
    (((size) + (DMLREF_ALLOC_ALIGNMENT - 1u)) & ~(size_t)(DMLREF_ALLOC_ALIGNMENT - 1u))

typedef struct dmlref_allocator {
    void *(*alloc)(void *ctx, size_t size, size_t alignment); /* NULL when out of memory */
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} dmlref_allocator;

/*
 * The caller's threads (dmlref_options.threadpool): a pool that runs the parts a
 * compiled operator splits its work into, in place of OpenMP's thread team, as
 * XNNPACK's pthreadpool or ONNX Runtime's intra-op pool would.
 *
 * parallel_for(ctx, n, task, arg) must call task(arg, i) exactly once for every i
 * in [0, n), on any threads, in any order, possibly at once, and return only when
 * every call has returned (their writes visible to the caller: a join, a barrier).
 * dmlref calls it from inside dmlref_execute only, with n >= 2, and never from
 * inside a task; tasks neither block on one another nor call back into the pool,
 * so a pool may also run them one after another on the calling thread.  Several
 * executes (of one compiled operator or of different ones) may call it at once
 * from different threads when the caller executes from several threads.
 *
 * threads: how many tasks the pool can run at once (>= 1).  The work is split for
 * it exactly as for that many OpenMP threads: the same parts, so the same bytes.
 */
typedef struct dmlref_threadpool {
    void (*parallel_for)(void *ctx, uint32_t n, void (*task)(void *arg, uint32_t i), void *arg);
    void *ctx;
    uint32_t threads;
} dmlref_threadpool;

/*
 * Options of dmlref_compile (zero-initialised: the defaults; allocator: above).
 *
 * threads and threadpool:
 *   threadpool NULL   OpenMP's team: threads 0 = OpenMP's default
 *                     (omp_get_max_threads), 1 = serial, T = at most T threads;
 *                     a build without OpenMP (make OPENMP=0) is serial.
 *   threadpool set    the pool runs every part, and no OpenMP function or
 *                     parallel region is entered (in any build: a build without
 *                     OpenMP is parallel through its pool).  threads 0 = the
 *                     pool's threads, 1 = serial (the pool is never called),
 *                     T = at most T, where T must not exceed the pool's threads:
 *                     compile refuses T > threadpool->threads with
 *                     DMLREF_ERROR_OPTIONS (more parts than the pool runs at once
 *                     is a configuration error, not a request dmlref would cap
 *                     silently), as it refuses a pool whose parallel_for is NULL
 *                     or whose threads is 0.
 * Either way a part gets at least DMLREF_PAR_GRAIN bytes of work (docs/environment.md),
 * so small operators run serially, and there are at most 256 parts.  dmlref_compile
 * copies *threadpool into the compiled operator: the struct need not outlive the call,
 * but the pool (parallel_for, ctx) must outlive every execute of the operator.
 */
typedef struct dmlref_options {
    uint32_t flags;   /* DMLREF_OPTION_* */
    uint32_t threads; /* 0 = default (OpenMP's, or the pool's), 1 = serial, T = at most T */
    /* NULL: malloc/free (an error in a DMLREF_NO_MALLOC build).  Copied by dmlref_compile: the struct need not outlive
     * the call, but ctx must stay valid until dmlref_release. */
    const dmlref_allocator *allocator;
    const dmlref_threadpool *threadpool; /* NULL: OpenMP (or serial without it) */
} dmlref_options;

/* Input buffers: {pointer, size in bytes}; size must be >= TotalTensorSizeInBytes. */
typedef struct dmlref_cbuffer {
    const void *data;
    size_t size;
} dmlref_cbuffer;

/* Output buffers.  Bytes that no output element addresses are never written. */
typedef struct dmlref_buffer {
    void *data;
    size_t size;
} dmlref_buffer;

typedef struct dmlref_operator dmlref_operator;

/* Checks every rule of docs/operators.md at the given level.  err may be NULL. */
DMLREF_API dmlref_status dmlref_validate(const DMLREF_OPERATOR_DESC *desc,
                                         DMLREF_FEATURE_LEVEL feature_level,
                                         dmlref_error *err);

/* Validates and plans.  options may be NULL (defaults).  On failure *op is NULL. */
DMLREF_API dmlref_status dmlref_compile(const DMLREF_OPERATOR_DESC *desc,
                                        DMLREF_FEATURE_LEVEL feature_level,
                                        const dmlref_options *options,
                                        dmlref_operator **op, dmlref_error *err);

/*
 * Binds buffers in the order the desc lists its tensors (the schema's slots,
 * dmlref_operator_schema: the inputs in slot order, then the outputs), each
 * named here by its desc field without "Tensor" (InputTensors: Inputs);
 * X[0 .. Count) is every tensor of the array X, in order; [X] is an optional
 * tensor, bound only when the desc gives it (not NULL):
 *   ELEMENT_WISE_IDENTITY    inputs {Input}                       outputs {Output}
 *   SLICE                    inputs {Input}                       outputs {Output}
 *   SPLIT                    inputs {Input}                       outputs {Outputs[0 .. OutputCount)}
 *   JOIN                     inputs {Inputs[0 .. InputCount)}     outputs {Output}
 *   PADDING                  inputs {Input}                       outputs {Output}
 *   GATHER                   inputs {Input, Indices}              outputs {Output}
 *   SPACE_TO_DEPTH           inputs {Input}                       outputs {Output}
 *   DEPTH_TO_SPACE           inputs {Input}                       outputs {Output}
 *   TILE                     inputs {Input}                       outputs {Output}
 *   MAX_UNPOOLING            inputs {Input, Indices}              outputs {Output}
 *   DIAGONAL_MATRIX          inputs {}                            outputs {Output}
 *   SCATTER                  inputs {Input, Indices, Updates}     outputs {Output}
 *   ONE_HOT                  inputs {Indices, Values}             outputs {Output}
 *   REVERSE_SUBSEQUENCES     inputs {Input, SequenceLengths}      outputs {Output}
 *   GATHER_ELEMENTS          inputs {Input, Indices}              outputs {Output}
 *   GATHER_ND                inputs {Input, Indices}              outputs {Output}
 *   SCATTER_ND               inputs {Input, Indices, Updates}     outputs {Output}
 *   SLICE1                   inputs {Input}                       outputs {Output}
 *   DEPTH_TO_SPACE1          inputs {Input}                       outputs {Output}
 *   SPACE_TO_DEPTH1          inputs {Input}                       outputs {Output}
 *   SLICE_GRAD               inputs {InputGradient}               outputs {OutputGradient}
 *   GATHER_ND1               inputs {Input, Indices}              outputs {Output}
 *   PADDING1                 inputs {Input}                       outputs {Output}
 *   DIAGONAL_MATRIX1         inputs {[Input]}                     outputs {Output}
 *   UNFOLD                   inputs {Input}                       outputs {Output}
 *   CAST                     inputs {Input}                       outputs {Output}
 *   UPSAMPLE_2D              inputs {Input}                       outputs {Output}
 *   RESAMPLE                 inputs {Input}                       outputs {Output}
 *   RESAMPLE1                inputs {Input}                       outputs {Output}
 *   RESAMPLE2                inputs {Input}                       outputs {Output}
 *   RESAMPLE3                inputs {Input}                       outputs {Output}
 *   ELEMENT_WISE_IF          inputs {Condition, A, B}             outputs {Output}
 *   FILL_VALUE_CONSTANT      inputs {}                            outputs {Output}
 *   FILL_VALUE_SEQUENCE      inputs {}                            outputs {Output}
 *   TOP_K                    inputs {Input}                       outputs {OutputValue, OutputIndex}
 *   TOP_K1                   inputs {Input}                       outputs {OutputValue, OutputIndex}
 *   NONZERO_COORDINATES      inputs {Input}                       outputs {OutputCount, OutputCoordinates}
 *   ARGMIN                   inputs {Input}                       outputs {Output}
 *   ARGMAX                   inputs {Input}                       outputs {Output}
 * (SCATTER is SCATTER_ELEMENTS; tests/unit/test_registry.c checks this list
 * against the schemas.)  Outputs must not overlap inputs or each other (except
 * that an operator whose schema has DMLREF_SCHEMA_IN_PLACE may bind its output
 * to its input's very buffer, same address), and a buffer whose tensor has a
 * non-zero GuaranteedBaseOffsetAlignment must start at a multiple of it (the
 * CPU form of DirectML's binding-offset rule).  err may be NULL.
 */
DMLREF_API dmlref_status dmlref_execute(const dmlref_operator *op,
                                        const dmlref_cbuffer *inputs, uint32_t n_inputs,
                                        const dmlref_buffer *outputs, uint32_t n_outputs,
                                        dmlref_error *err);

/*
 * How many of output `output`'s elements DirectML defines after dmlref_execute wrote
 * `outputs` (the same buffers, in binding order): the first *defined elements in
 * row-major logical order; the others hold whatever dmlref wrote (a comparer of
 * another backend must not check them).  Every element of every operator's outputs
 * is defined, except NONZERO_COORDINATES' OutputCoordinates rows at and past the
 * count (DirectML: "undefined"; dmlref writes 0): there *defined = count * N.
 * err may be NULL.
 */
DMLREF_API dmlref_status dmlref_defined_elements(const dmlref_operator *op, const dmlref_buffer *outputs,
                                                 uint32_t n_outputs, uint32_t output, uint64_t *defined,
                                                 dmlref_error *err);

DMLREF_API void dmlref_release(dmlref_operator *op);

/*
 * The most bytes dmlref_compile will request through the allocator for this
 * desc and options (the sum over its requests, in the order it makes them, of
 * DMLREF_ALLOC_PADDED(size): what a bump allocator needs, see dmlref_allocator),
 * so that an integrator can size an arena once.  It is measured, not estimated:
 * the compile is run and each request counted on its way to options->allocator
 * (or malloc when that is NULL); the operator is then released.  The same desc,
 * level and options give the same number in the same process and environment
 * (the thread count OpenMP reports when options->threads is 0, the DMLREF_*
 * variables).  On failure, the compile's status and error; *bytes is then 0.
 */
DMLREF_API dmlref_status dmlref_compile_memory(const DMLREF_OPERATOR_DESC *desc,
                                               DMLREF_FEATURE_LEVEL feature_level,
                                               const dmlref_options *options, size_t *bytes,
                                               dmlref_error *err);

/*
 * The most bytes one dmlref_execute of this compiled operator requests through
 * its allocator, DMLREF_ALLOC_PADDED included: a fresh bump arena of this size
 * (base aligned, see dmlref_allocator) for each execute suffices.  An execute
 * makes at most one request, of exactly this size, or none; 0 when it never
 * allocates, which is every execute except: SCATTER (2+ updates per line) and
 * SCATTER_ND compiled with DMLREF_OPTION_CHECK_INDICES (the duplicate check's
 * sort array, after the range check passed), and ELEMENT_WISE_IDENTITY whose
 * input and output layouts differ, executed in place (the input's snapshot).
 * SIZE_MAX when the request cannot be addressed on this host (execute then
 * fails with DMLREF_ERROR_OUT_OF_MEMORY).  0 for NULL.
 */
DMLREF_API size_t dmlref_execute_memory(const dmlref_operator *op);

/* compile + execute + release.  With options->allocator NULL (malloc), the compiled
 * operator is built in a 4 KiB arena on dmlref_run's own stack and only what does not
 * fit comes from malloc: a tiny call makes no allocation (builds with SMALL=1 or
 * DMLREF_NO_MALLOC have no arena).  With an allocator set, every request goes to it. */
DMLREF_API dmlref_status dmlref_run(const DMLREF_OPERATOR_DESC *desc,
                                    DMLREF_FEATURE_LEVEL feature_level,
                                    const dmlref_options *options,
                                    const dmlref_cbuffer *inputs, uint32_t n_inputs,
                                    const dmlref_buffer *outputs, uint32_t n_outputs,
                                    dmlref_error *err);

/* Number of input / output buffers execute expects. */
DMLREF_API uint32_t dmlref_input_count(const dmlref_operator *op);
DMLREF_API uint32_t dmlref_output_count(const dmlref_operator *op);

/* Name of the kernel the compiled operator runs ("oracle", ...). */
DMLREF_API const char *dmlref_kernel_name(const dmlref_operator *op);

/* ------------------------------------------------------------------------- */
/* Operator schemas: what each operator's descriptor holds                    */
/* ------------------------------------------------------------------------- */

/*
 * A read-only description of one operator's DMLREF_*_OPERATOR_DESC, enough to
 * read, write, generate or bind any operator without knowing it: the command's
 * case reader and writer, `gen`, `bench`, the fuzz decoder and the numpy driver
 * walk these.  Offsets are offsetof() in the operator's desc struct.
 */

/* A tensor field of the desc: `const DMLREF_TENSOR_DESC *`, or for an array
 * slot a pointer to `count` DMLREF_TENSOR_DESCs whose count is the UINT field
 * at count_offset (InputCount, OutputCount). */
typedef struct dmlref_tensor_slot {
    const char *name;        /* "InputTensor", "OutputTensors", ...                    */
    uint32_t offset;         /* of the pointer                                         */
    uint8_t is_output;       /* 0: bound as an input, 1: as an output                  */
    uint8_t is_index;        /* holds indices (UINT32/INT32/UINT64/INT64)              */
    uint8_t is_array;        /* a counted array (count_offset, count_name)             */
    uint8_t is_optional;     /* may be NULL                                            */
    uint32_t count_offset;   /* array slots: offsetof the uint32_t count               */
    const char *count_name;  /* array slots: "OutputCount", ...; else NULL             */
} dmlref_tensor_slot;

typedef enum dmlref_param_kind {
    DMLREF_PARAM_UINT = 1,        /* uint32_t                                           */
    DMLREF_PARAM_INT = 2,         /* int32_t                                            */
    DMLREF_PARAM_UINT_ARRAY = 3,  /* const uint32_t *, count at count_offset            */
    DMLREF_PARAM_INT_ARRAY = 4,   /* const int32_t *, count at count_offset             */
    DMLREF_PARAM_FLOAT = 5,       /* float                                              */
    DMLREF_PARAM_ENUM = 6,        /* a C enum (4 bytes); enum_names[value]              */
    DMLREF_PARAM_SCALAR_UNION = 7,/* an 8-byte DML_SCALAR_UNION whose type is the
                                     DMLREF_TENSOR_DATA_TYPE field at type_offset        */
    DMLREF_PARAM_STRUCT = 8,      /* a pointer to a struct of struct_size bytes, made of
                                     the float fields field_names (e.g. ScaleBias)       */
    DMLREF_PARAM_FLOAT_ARRAY = 9, /* const float *, count at count_offset (Scales)      */
    DMLREF_PARAM_SIZE_2D = 10,    /* a DMLREF_SIZE_2D held in the desc (8 bytes: Width,
                                     then Height)                                       */
    DMLREF_PARAM_BOOL = 11        /* a 32-bit BOOL (int32_t): 0 false, else true        */
} dmlref_param_kind;

typedef struct dmlref_param {
    const char *name;               /* "Axis", "ScaleBias", ...                           */
    uint32_t offset;
    dmlref_param_kind kind;
    uint8_t is_optional;            /* STRUCT: may be NULL                                */
    uint8_t is_count;               /* a count another field depends on (InputCount ...):
                                       derived from the array's length by readers        */
    uint32_t count_offset;          /* arrays: offsetof the uint32_t count                */
    const char *count_name;         /* arrays: the count field's name                     */
    const char *const *enum_names;  /* ENUM: enum_count names, by value (NULL = gap)     */
    uint32_t enum_count;
    uint32_t type_offset;           /* SCALAR_UNION: offsetof its data-type field         */
    uint32_t struct_size;           /* STRUCT: sizeof the pointed-to struct               */
    const char *const *field_names; /* STRUCT: its float fields, in order                 */
    uint32_t field_count;
} dmlref_param;

/* dmlref_schema.flags */
enum {
    /* The output may be bound to the very buffer of the input (same address):
     * in-place execution, with snapshot semantics (DirectML's
     * DML_SCHEMA_OPERATOR_SUPPORT_FLAG_IN_PLACE_EXECUTION; ELEMENT_WISE_IDENTITY). */
    DMLREF_SCHEMA_IN_PLACE = 0x1
};

typedef struct dmlref_schema {
    DMLREF_OPERATOR_TYPE type;
    const char *name;                  /* "GATHER" (without DML_OPERATOR_)                */
    uint32_t desc_size;                /* sizeof the DMLREF_*_OPERATOR_DESC                */
    DMLREF_FEATURE_LEVEL introduced;   /* the first feature level that has it             */
    uint32_t flags;                    /* DMLREF_SCHEMA_*                                 */
    uint32_t n_slots;
    const dmlref_tensor_slot *slots;   /* in desc order; inputs bind in this order, then
                                          outputs                                         */
    uint32_t n_params;
    const dmlref_param *params;        /* in desc order                                   */
} dmlref_schema;

/* The schema of an operator this build implements, or NULL. */
DMLREF_API const dmlref_schema *dmlref_operator_schema(DMLREF_OPERATOR_TYPE type);
/* The i-th operator this build implements (i = 0, 1, ...; NULL past the last), in
 * the registry's order. */
DMLREF_API const dmlref_schema *dmlref_operator_schema_at(uint32_t i);

#ifdef __cplusplus
}
#endif

#endif /* DMLREF_H */
