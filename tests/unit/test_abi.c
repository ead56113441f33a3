/*
 * ABI pins: the DMLREF_ structs and enums must have directml.h's layout and
 * values, so that a caller can pass a real DML_OPERATOR_DESC with a cast.
 * The offsets are those of the directml.h field lists (docs/operators.md 1.1, 1.2, 2.1,
 * 3.1, 4.1, 5.1, 6.1) as the C ABIs lay them out, pinned for the three ABIs
 * dmlref is built for: LP64 (x86-64, aarch64, s390x: pointers 8 bytes),
 * ILP32 with 8-byte-aligned uint64_t (armhf, wasm32) and ILP32 with
 * 4-byte-aligned uint64_t (i386).  UINT and enums are 4 bytes everywhere.
 */
#include <stddef.h>

#include "check.h"

#define CHECK_OFF(type, field, want) CHECK_EQ_U64(offsetof(type, field), (want))

enum { ABI_LP64, ABI_ILP32_A8, ABI_ILP32_A4, ABI_UNKNOWN };
static const char *const abi_names[] = {"LP64", "ILP32 (uint64_t aligned to 8)", "ILP32 (uint64_t aligned to 4)"};

/* The host's ABI as a struct member sees it (_Alignof of a scalar may give
 * the preferred, not the in-struct, alignment on some compilers). */
static int host_abi(void) {
    struct probe { char c; uint64_t u; };
    const size_t a64 = offsetof(struct probe, u);
    if (sizeof(void *) == 8 && a64 == 8) return ABI_LP64;
    if (sizeof(void *) == 4 && a64 == 8) return ABI_ILP32_A8;
    if (sizeof(void *) == 4 && a64 == 4) return ABI_ILP32_A4;
    return ABI_UNKNOWN;
}

/* Sets *abi, or marks the test skipped (an ABI no table here describes). */
static int abi_or_skip(int *abi) {
    *abi = host_abi();
    if (*abi == ABI_UNKNOWN) {
        TEST_SKIP("no layout table for this host's ABI");
        return 0;
    }
    return 1;
}

TEST(abi_pointer_and_scalar_sizes) {
    int abi;
    if (!abi_or_skip(&abi)) return;
    printf("ABI: %s\n", abi_names[abi]);
    CHECK_EQ_U64(sizeof(uint32_t), 4);
    CHECK_EQ_U64(sizeof(uint64_t), 8);
    CHECK_EQ_U64(sizeof(size_t), sizeof(void *));
    /* directml.h enums are C enums: 4 bytes. */
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_DATA_TYPE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_TYPE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_FLAGS), 4);
    CHECK_EQ_U64(sizeof(DMLREF_OPERATOR_TYPE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_FEATURE_LEVEL), 4);
    CHECK_EQ_U64(sizeof(dmlref_status), 4);
}

TEST(abi_buffer_tensor_desc_layout) {
    /* DataType, Flags, DimensionCount, Sizes, Strides, TotalTensorSizeInBytes,
     * GuaranteedBaseOffsetAlignment, sizeof, alignment */
    static const uint32_t want[3][9] = {
        {0, 4, 8, 16, 24, 32, 40, 48, 8},
        {0, 4, 8, 12, 16, 24, 32, 40, 8},
        {0, 4, 8, 12, 16, 20, 28, 32, 4},
    };
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t *w = want[abi];
    struct probe { char c; DMLREF_BUFFER_TENSOR_DESC d; };
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, DataType, w[0]);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, Flags, w[1]);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, DimensionCount, w[2]);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, Sizes, w[3]);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, Strides, w[4]);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes, w[5]);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment, w[6]);
    CHECK_EQ_U64(sizeof(DMLREF_BUFFER_TENSOR_DESC), w[7]);
    CHECK_EQ_U64(offsetof(struct probe, d), w[8]);
}

TEST(abi_tensor_and_operator_desc_layout) {
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t p = abi == ABI_LP64 ? 8 : 4; /* the pointer after a 4-byte enum */
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_DESC), 2 * p);
    CHECK_OFF(DMLREF_TENSOR_DESC, Type, 0);
    CHECK_OFF(DMLREF_TENSOR_DESC, Desc, p);
    CHECK_EQ_U64(sizeof(DMLREF_OPERATOR_DESC), 2 * p);
    CHECK_OFF(DMLREF_OPERATOR_DESC, Type, 0);
    CHECK_OFF(DMLREF_OPERATOR_DESC, Desc, p);
}

TEST(abi_gather_desc_layout) {
    /* InputTensor, IndicesTensor, OutputTensor, Axis, IndexDimensions, sizeof */
    static const uint32_t want[3][6] = {{0, 8, 16, 24, 28, 32}, {0, 4, 8, 12, 16, 20}, {0, 4, 8, 12, 16, 20}};
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t *w = want[abi];
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, InputTensor, w[0]);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, IndicesTensor, w[1]);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, OutputTensor, w[2]);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, Axis, w[3]);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, IndexDimensions, w[4]);
    CHECK_EQ_U64(sizeof(DMLREF_GATHER_OPERATOR_DESC), w[5]);
}

TEST(abi_gather_elements_desc_layout) {
    /* InputTensor, IndicesTensor, OutputTensor, Axis, sizeof (LP64: 28 + 4 tail padding) */
    static const uint32_t want[3][5] = {{0, 8, 16, 24, 32}, {0, 4, 8, 12, 16}, {0, 4, 8, 12, 16}};
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t *w = want[abi];
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, InputTensor, w[0]);
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, IndicesTensor, w[1]);
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, OutputTensor, w[2]);
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, Axis, w[3]);
    CHECK_EQ_U64(sizeof(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC), w[4]);
}

TEST(abi_scatter_nd_desc_layout) {
    /* InputTensor, IndicesTensor, UpdatesTensor, OutputTensor, InputDimensionCount,
     * IndicesDimensionCount, sizeof */
    static const uint32_t want[3][7] = {{0, 8, 16, 24, 32, 36, 40}, {0, 4, 8, 12, 16, 20, 24}, {0, 4, 8, 12, 16, 20, 24}};
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t *w = want[abi];
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, InputTensor, w[0]);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, IndicesTensor, w[1]);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, UpdatesTensor, w[2]);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, OutputTensor, w[3]);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, InputDimensionCount, w[4]);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, IndicesDimensionCount, w[5]);
    CHECK_EQ_U64(sizeof(DMLREF_SCATTER_ND_OPERATOR_DESC), w[6]);
}

TEST(abi_split_desc_layout) {
    /* InputTensor, UINT OutputCount (+4 padding on LP64), OutputTensors, UINT Axis, sizeof */
    static const uint32_t want[3][5] = {{0, 8, 16, 24, 32}, {0, 4, 8, 12, 16}, {0, 4, 8, 12, 16}};
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t *w = want[abi];
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, InputTensor, w[0]);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, OutputCount, w[1]);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, OutputTensors, w[2]);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, Axis, w[3]);
    CHECK_EQ_U64(sizeof(DMLREF_SPLIT_OPERATOR_DESC), w[4]);
}

TEST(abi_join_desc_layout) {
    /* UINT InputCount (+4 padding on LP64), InputTensors, OutputTensor, UINT Axis, sizeof */
    static const uint32_t want[3][5] = {{0, 8, 16, 24, 32}, {0, 4, 8, 12, 16}, {0, 4, 8, 12, 16}};
    int abi;
    if (!abi_or_skip(&abi)) return;
    const uint32_t *w = want[abi];
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, InputCount, w[0]);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, InputTensors, w[1]);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, OutputTensor, w[2]);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, Axis, w[3]);
    CHECK_EQ_U64(sizeof(DMLREF_JOIN_OPERATOR_DESC), w[4]);
}

TEST(abi_data_type_values) {
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_UNKNOWN, 0);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_FLOAT32, 1);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_FLOAT16, 2);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_UINT32, 3);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_UINT16, 4);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_UINT8, 5);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_INT32, 6);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_INT16, 7);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_INT8, 8);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_FLOAT64, 9);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_UINT64, 10);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_INT64, 11);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_UINT4, 12);
    CHECK_EQ_U64(DMLREF_TENSOR_DATA_TYPE_INT4, 13);
}

TEST(abi_tensor_type_and_flag_values) {
    CHECK_EQ_U64(DMLREF_TENSOR_TYPE_INVALID, 0);
    CHECK_EQ_U64(DMLREF_TENSOR_TYPE_BUFFER, 1);
    CHECK_EQ_U64(DMLREF_TENSOR_FLAG_NONE, 0);
    CHECK_EQ_U64(DMLREF_TENSOR_FLAG_OWNED_BY_DML, 1);
}

TEST(abi_operator_type_values) {
    CHECK_EQ_U64(DMLREF_OPERATOR_INVALID, 0);
    CHECK_EQ_U64(DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, 1);
    CHECK_EQ_U64(DMLREF_OPERATOR_SLICE, 60);
    CHECK_EQ_U64(DMLREF_OPERATOR_CAST, 61);
    CHECK_EQ_U64(DMLREF_OPERATOR_SPLIT, 62);
    CHECK_EQ_U64(DMLREF_OPERATOR_JOIN, 63);
    CHECK_EQ_U64(DMLREF_OPERATOR_PADDING, 64);
    CHECK_EQ_U64(DMLREF_OPERATOR_GATHER, 67);
    CHECK_EQ_U64(DMLREF_OPERATOR_TILE, 70);
    CHECK_EQ_U64(DMLREF_OPERATOR_SCATTER_ELEMENTS, 94);
    CHECK_EQ_U64(DMLREF_OPERATOR_SCATTER, 94);
    CHECK_EQ_U64(DMLREF_OPERATOR_GATHER_ELEMENTS, 107);
    CHECK_EQ_U64(DMLREF_OPERATOR_GATHER_ND, 108);
    CHECK_EQ_U64(DMLREF_OPERATOR_SCATTER_ND, 109);
    CHECK_EQ_U64(DMLREF_OPERATOR_SLICE1, 111);
    CHECK_EQ_U64(DMLREF_OPERATOR_GATHER_ND1, 140);
    CHECK_EQ_U64(DMLREF_OPERATOR_PADDING1, 155);
}

TEST(abi_feature_level_values) {
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_1_0, 0x1000);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_2_0, 0x2000);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_2_1, 0x2100);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_3_0, 0x3000);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_3_1, 0x3100);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_4_0, 0x4000);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_4_1, 0x4100);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_5_0, 0x5000);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_5_1, 0x5100);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_5_2, 0x5200);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_6_0, 0x6000);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_6_1, 0x6100);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_6_2, 0x6200);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_6_3, 0x6300);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_6_4, 0x6400);
    CHECK_EQ_U64(DMLREF_FEATURE_LEVEL_LATEST, 0x6400);
}

TEST(abi_names_and_sizes_of_enums) {
    static const uint32_t sizes[14] = {0, 4, 2, 4, 2, 1, 4, 2, 1, 8, 8, 8, 0, 0};
    static const char *const names[14] = {NULL,    "FLOAT32", "FLOAT16", "UINT32", "UINT16",
                                          "UINT8", "INT32",   "INT16",   "INT8",   "FLOAT64",
                                          "UINT64", "INT64",  "UINT4",   "INT4"};
    for (int i = 0; i < 14; ++i) {
        CHECK_EQ_U64(dmlref_data_type_size((DMLREF_TENSOR_DATA_TYPE)i), sizes[i]);
        const char *n = dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)i);
        CHECK((n == NULL && names[i] == NULL) || (n && names[i] && strcmp(n, names[i]) == 0));
    }
    CHECK(dmlref_data_type_name((DMLREF_TENSOR_DATA_TYPE)14) == NULL);
    CHECK_EQ_U64(dmlref_data_type_size((DMLREF_TENSOR_DATA_TYPE)14), 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_GATHER), "GATHER") == 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_GATHER_ELEMENTS), "GATHER_ELEMENTS") == 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_SCATTER_ND), "SCATTER_ND") == 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_SPLIT), "SPLIT") == 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_JOIN), "JOIN") == 0);
    CHECK(dmlref_operator_name((DMLREF_OPERATOR_TYPE)2) == NULL); /* ELEMENT_WISE_ABS: DirectML's, not dmlref's */
    CHECK(strcmp(dmlref_feature_level_name(DMLREF_FEATURE_LEVEL_3_1), "3_1") == 0);
    CHECK(dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)0x1234) == NULL);
    CHECK(strcmp(dmlref_status_name(DMLREF_ERROR_DUPLICATE_INDEX), "DMLREF_ERROR_DUPLICATE_INDEX") == 0);
}
