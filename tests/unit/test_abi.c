/*
 * ABI pins: the DMLREF_ structs and enums must have directml.h's layout and
 * values, so that a caller can pass a real DML_OPERATOR_DESC with a cast.
 * The offsets are those of the directml.h field lists (spec 1.1, 1.2, 2.1,
 * 3.1, 4.1, 5.1, 6.1) on an LP64 target: UINT and enums 4 bytes, pointers 8.
 */
#include <stddef.h>

#include "check.h"

#define CHECK_OFF(type, field, want) CHECK_EQ_U64(offsetof(type, field), (want))

TEST(abi_pointer_and_scalar_sizes) {
    /* The offsets below hold for 8-byte pointers; a 32-bit build must fail here
     * rather than pass silently with other offsets. */
    CHECK_EQ_U64(sizeof(void *), 8);
    CHECK_EQ_U64(sizeof(uint32_t), 4);
    CHECK_EQ_U64(sizeof(uint64_t), 8);
    CHECK_EQ_U64(_Alignof(uint64_t), 8);
    /* directml.h enums are C enums: 4 bytes. */
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_DATA_TYPE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_TYPE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_FLAGS), 4);
    CHECK_EQ_U64(sizeof(DMLREF_OPERATOR_TYPE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_FEATURE_LEVEL), 4);
}

#if UINTPTR_MAX == UINT64_MAX

TEST(abi_buffer_tensor_desc_layout) {
    CHECK_EQ_U64(sizeof(DMLREF_BUFFER_TENSOR_DESC), 48);
    CHECK_EQ_U64(_Alignof(DMLREF_BUFFER_TENSOR_DESC), 8);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, DataType, 0);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, Flags, 4);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, DimensionCount, 8);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, Sizes, 16);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, Strides, 24);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes, 32);
    CHECK_OFF(DMLREF_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment, 40);
}

TEST(abi_tensor_and_operator_desc_layout) {
    CHECK_EQ_U64(sizeof(DMLREF_TENSOR_DESC), 16);
    CHECK_OFF(DMLREF_TENSOR_DESC, Type, 0);
    CHECK_OFF(DMLREF_TENSOR_DESC, Desc, 8);
    CHECK_EQ_U64(sizeof(DMLREF_OPERATOR_DESC), 16);
    CHECK_OFF(DMLREF_OPERATOR_DESC, Type, 0);
    CHECK_OFF(DMLREF_OPERATOR_DESC, Desc, 8);
}

TEST(abi_gather_desc_layout) {
    CHECK_EQ_U64(sizeof(DMLREF_GATHER_OPERATOR_DESC), 32);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, Axis, 24);
    CHECK_OFF(DMLREF_GATHER_OPERATOR_DESC, IndexDimensions, 28);
}

TEST(abi_gather_elements_desc_layout) {
    CHECK_EQ_U64(sizeof(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC), 32); /* 28 + 4 tail padding */
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFF(DMLREF_GATHER_ELEMENTS_OPERATOR_DESC, Axis, 24);
}

TEST(abi_scatter_nd_desc_layout) {
    CHECK_EQ_U64(sizeof(DMLREF_SCATTER_ND_OPERATOR_DESC), 40);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, IndicesTensor, 8);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, UpdatesTensor, 16);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, OutputTensor, 24);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, InputDimensionCount, 32);
    CHECK_OFF(DMLREF_SCATTER_ND_OPERATOR_DESC, IndicesDimensionCount, 36);
}

TEST(abi_split_desc_layout) {
    /* InputTensor, UINT OutputCount (+4 padding), OutputTensors, UINT Axis */
    CHECK_EQ_U64(sizeof(DMLREF_SPLIT_OPERATOR_DESC), 32);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, InputTensor, 0);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, OutputCount, 8);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, OutputTensors, 16);
    CHECK_OFF(DMLREF_SPLIT_OPERATOR_DESC, Axis, 24);
}

TEST(abi_join_desc_layout) {
    /* UINT InputCount (+4 padding), InputTensors, OutputTensor, UINT Axis */
    CHECK_EQ_U64(sizeof(DMLREF_JOIN_OPERATOR_DESC), 32);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, InputCount, 0);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, InputTensors, 8);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, OutputTensor, 16);
    CHECK_OFF(DMLREF_JOIN_OPERATOR_DESC, Axis, 24);
}

#endif /* LP64 */

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
    CHECK(dmlref_operator_name(DMLREF_OPERATOR_TILE) == NULL);
    CHECK(strcmp(dmlref_feature_level_name(DMLREF_FEATURE_LEVEL_3_1), "3_1") == 0);
    CHECK(dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)0x1234) == NULL);
    CHECK(strcmp(dmlref_status_name(DMLREF_ERROR_DUPLICATE_INDEX), "DMLREF_ERROR_DUPLICATE_INDEX") == 0);
}
