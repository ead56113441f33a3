/*
 * The case files' generic field reader and writer (case/fields.c) over a
 * hand-made schema holding every kind of field no built operator has yet:
 * INT, UINT_ARRAY and INT_ARRAY sharing a count, ENUM, FLOAT, SCALAR_UNION
 * with its DataType field, an optional STRUCT.  Each kind is read, written,
 * read back (read -> write -> read gives the same desc and the same text),
 * and each malformed form is refused with its message.  The case reader's
 * tensor slots (an optional tensor, a counted array) are read against a second
 * hand-made schema (case_options.schema), and a JOIN case's binding is checked
 * in the desc the reader builds.  Linked like fuzz_case
 * with the command's objects.  Prints "fields: N passed, N failed".
 */
#include "case/case.h"
#include "case/fields.h"
#include "case/json.h"
#include "case/value.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct TEST_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
    int32_t Shift;
    uint32_t DimensionCount;
    const uint32_t *Sizes;
    const int32_t *Strides;
    uint32_t Mode;
    float Value;
    uint32_t FillDataType;
    union {
        unsigned char Bytes[8];
        uint64_t UInt64;
        double Float64;
    } Fill;
    const DMLREF_SCALE_BIAS *ScaleBias;
} TEST_OPERATOR_DESC;

typedef TEST_OPERATOR_DESC D;

static const char *const modes[] = {"CONSTANT", "EDGE", NULL, "REFLECTION"};
static const char *const types[] = {"UNKNOWN", "FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32",
                                    "INT16",   "INT8",    "FLOAT64", "UINT64", "INT64"};
static const char *const scale_bias[] = {"Scale", "Bias"};

static const dmlref_tensor_slot slots[] = {
    {.name = "InputTensor", .offset = offsetof(D, InputTensor)},
    {.name = "OutputTensor", .offset = offsetof(D, OutputTensor), .is_output = 1},
};
static const dmlref_param params[] = {
    {.name = "Axis", .offset = offsetof(D, Axis), .kind = DMLREF_PARAM_UINT},
    {.name = "Shift", .offset = offsetof(D, Shift), .kind = DMLREF_PARAM_INT},
    {.name = "DimensionCount", .offset = offsetof(D, DimensionCount), .kind = DMLREF_PARAM_UINT, .is_count = 1},
    {.name = "Sizes", .offset = offsetof(D, Sizes), .kind = DMLREF_PARAM_UINT_ARRAY,
     .count_offset = offsetof(D, DimensionCount), .count_name = "DimensionCount"},
    {.name = "Strides", .offset = offsetof(D, Strides), .kind = DMLREF_PARAM_INT_ARRAY,
     .count_offset = offsetof(D, DimensionCount), .count_name = "DimensionCount"},
    {.name = "Mode", .offset = offsetof(D, Mode), .kind = DMLREF_PARAM_ENUM, .enum_names = modes, .enum_count = 4},
    {.name = "Value", .offset = offsetof(D, Value), .kind = DMLREF_PARAM_FLOAT},
    {.name = "FillDataType", .offset = offsetof(D, FillDataType), .kind = DMLREF_PARAM_ENUM, .enum_names = types,
     .enum_count = 12},
    {.name = "Fill", .offset = offsetof(D, Fill), .kind = DMLREF_PARAM_SCALAR_UNION,
     .type_offset = offsetof(D, FillDataType)},
    {.name = "ScaleBias", .offset = offsetof(D, ScaleBias), .kind = DMLREF_PARAM_STRUCT, .is_optional = 1,
     .struct_size = sizeof(DMLREF_SCALE_BIAS), .field_names = scale_bias, .field_count = 2},
};
static const dmlref_schema schema = {(DMLREF_OPERATOR_TYPE)9999, "TEST", sizeof(D), DMLREF_FEATURE_LEVEL_1_0,
                                     0, 2, slots, sizeof params / sizeof params[0], params};

static int passed, failed;

#define CHECK(c)                                                                                       \
    do {                                                                                               \
        if (c) ++passed;                                                                               \
        else {                                                                                         \
            ++failed;                                                                                  \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                                        \
        }                                                                                              \
    } while (0)

/* Reads the fields of the JSON object text into *d (store st); 0 or -1 with err. */
static int read_text(const char *text, D *d, fields_store *st, char *err, size_t cap) {
    memset(d, 0, sizeof *d);
    err[0] = '\0';
    json_doc doc;
    if (json_parse(text, strlen(text), &doc, err, cap) != JSON_OK) return -1;
    const int rc = fields_read_params(&schema, doc.root, d, st, err, cap);
    json_free(&doc);
    return rc;
}

/* The written fields of d as a JSON object's text (malloc'd). */
static char *write_text(const D *d) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputs("{\n", f);
    fields_write_params(f, &schema, d, 2);
    fputs("  \"end\": 0\n}\n", f);
    fclose(f);
    return buf;
}

static uint32_t f32_bits(float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

static const char *const base =
    "\"Axis\": 3, \"Shift\": -2147483648, \"Sizes\": [1, 4294967295, 7], \"Strides\": [-1, 0, 2147483647], "
    "\"Mode\": \"REFLECTION\", \"Value\": -1.5, ";

/* A case: the base fields, then `rest`. */
static int read_with(const char *rest, D *d, fields_store *st, char *err, size_t cap) {
    char text[2048];
    snprintf(text, sizeof text, "{%s%s}", base, rest);
    return read_text(text, d, st, err, cap);
}

static void round_trip(const char *rest) {
    D a, b;
    fields_store sa = {0}, sb = {0};
    char err[512];
    const int rc = read_with(rest, &a, &sa, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        printf("  %s: %s\n", rest, err);
        fields_store_free(&sa);
        return;
    }
    char *t1 = write_text(&a);
    CHECK(t1 != NULL);
    CHECK(read_text(t1, &b, &sb, err, sizeof err) == 0);
    char *t2 = write_text(&b);
    CHECK(t2 && strcmp(t1, t2) == 0);
    CHECK(a.Axis == b.Axis && a.Shift == b.Shift && a.DimensionCount == b.DimensionCount && a.Mode == b.Mode);
    CHECK(f32_bits(a.Value) == f32_bits(b.Value));
    CHECK(a.FillDataType == b.FillDataType && memcmp(a.Fill.Bytes, b.Fill.Bytes, 8) == 0);
    CHECK(a.Sizes && b.Sizes && memcmp(a.Sizes, b.Sizes, 4 * a.DimensionCount) == 0);
    CHECK(a.Strides && b.Strides && memcmp(a.Strides, b.Strides, 4 * a.DimensionCount) == 0);
    CHECK((a.ScaleBias == NULL) == (b.ScaleBias == NULL));
    if (a.ScaleBias && b.ScaleBias) CHECK(memcmp(a.ScaleBias, b.ScaleBias, sizeof *a.ScaleBias) == 0);
    free(t1);
    free(t2);
    fields_store_free(&sa);
    fields_store_free(&sb);
}

/* rest must be refused with a message containing `want`. */
static void refused(const char *rest, const char *want) {
    D d;
    fields_store st = {0};
    char err[512];
    const int rc = read_with(rest, &d, &st, err, sizeof err);
    if (rc == 0 || !strstr(err, want)) {
        ++failed;
        printf("FAIL: %s: got \"%s\", wanted \"%s\"\n", rest, rc ? err : "(accepted)", want);
    } else {
        ++passed;
    }
    fields_store_free(&st);
}

/* A whole text (not the base) must be refused with `want`. */
static void refused_text(const char *text, const char *want) {
    D d;
    fields_store st = {0};
    char err[512];
    const int rc = read_text(text, &d, &st, err, sizeof err);
    if (rc == 0 || !strstr(err, want)) {
        ++failed;
        printf("FAIL: %s: got \"%s\", wanted \"%s\"\n", text, rc ? err : "(accepted)", want);
    } else {
        ++passed;
    }
    fields_store_free(&st);
}

static void test_values(void) {
    D d;
    fields_store st = {0};
    char err[512];
    /* every kind, read */
    int rc = read_with("\"DimensionCount\": 3, \"FillDataType\": \"INT64\", \"Fill\": -9223372036854775808, "
                       "\"ScaleBias\": {\"Scale\": 2, \"Bias\": 0.1}",
                       &d, &st, err, sizeof err);
    CHECK(rc == 0);
    if (rc) printf("  %s\n", err);
    CHECK(d.Axis == 3 && d.Shift == INT32_MIN && d.DimensionCount == 3);
    CHECK(d.Sizes && d.Sizes[0] == 1 && d.Sizes[1] == UINT32_MAX && d.Sizes[2] == 7);
    CHECK(d.Strides && d.Strides[0] == -1 && d.Strides[1] == 0 && d.Strides[2] == INT32_MAX);
    CHECK(d.Mode == 3);
    CHECK(f32_bits(d.Value) == 0xBFC00000u);
    CHECK(d.FillDataType == DMLREF_TENSOR_DATA_TYPE_INT64);
    CHECK(value_load_bits(d.Fill.Bytes, 8) == UINT64_C(0x8000000000000000));
    CHECK(d.ScaleBias && f32_bits(d.ScaleBias->Scale) == 0x40000000u && f32_bits(d.ScaleBias->Bias) == 0x3DCCCCCDu);
    fields_store_free(&st);

    /* a union is stored from byte 0 in its type's encoding, the rest zero */
    rc = read_with("\"FillDataType\": \"INT8\", \"Fill\": -1", &d, &st, err, sizeof err);
    CHECK(rc == 0 && d.Fill.Bytes[0] == 0xFF);
    CHECK(rc == 0 && value_load_bits(d.Fill.Bytes + 1, 4) == 0 && value_load_bits(d.Fill.Bytes + 4, 4) == 0);
    CHECK(d.ScaleBias == NULL); /* absent: NULL */
    fields_store_free(&st);
    rc = read_with("\"FillDataType\": \"FLOAT16\", \"Fill\": 1, \"ScaleBias\": null", &d, &st, err, sizeof err);
    CHECK(rc == 0 && value_load_bits(d.Fill.Bytes, 2) == 0x3C00 && value_load_bits(d.Fill.Bytes + 2, 2) == 0);
    CHECK(d.ScaleBias == NULL); /* null: NULL */
    fields_store_free(&st);
    rc = read_with("\"FillDataType\": \"FLOAT32\", \"Fill\": \"0x7fc00001\"", &d, &st, err, sizeof err);
    CHECK(rc == 0 && value_load_bits(d.Fill.Bytes, 4) == 0x7FC00001u && value_load_bits(d.Fill.Bytes + 4, 4) == 0);
    fields_store_free(&st);
    rc = read_with("\"FillDataType\": \"UINT64\", \"Fill\": 18446744073709551615", &d, &st, err, sizeof err);
    CHECK(rc == 0 && value_load_bits(d.Fill.Bytes, 8) == UINT64_MAX);
    fields_store_free(&st);

    /* FLOAT: nearest FLOAT32, and the special strings */
    static const struct {
        const char *text;
        uint32_t bits;
    } floats[] = {{"0.1", 0x3DCCCCCDu},        {"\"nan\"", 0x7FC00000u}, {"\"inf\"", 0x7F800000u},
                  {"\"-inf\"", 0xFF800000u},  {"\"0x00000001\"", 1u},   {"-0", 0x80000000u},
                  {"3.4028235e38", 0x7F7FFFFFu}, {"1e-46", 0u}};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; ++i) {
        char text[512];
        snprintf(text, sizeof text, "{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [], \"Strides\": [], \"Mode\": \"EDGE\", "
                                    "\"FillDataType\": \"UINT8\", \"Fill\": 0, \"Value\": %s}", floats[i].text);
        rc = read_text(text, &d, &st, err, sizeof err);
        CHECK(rc == 0 && f32_bits(d.Value) == floats[i].bits);
        if (rc || f32_bits(d.Value) != floats[i].bits) printf("  Value %s: %s %08x\n", floats[i].text, err, (unsigned)f32_bits(d.Value));
        CHECK(d.DimensionCount == 0);
        fields_store_free(&st);
    }

    /* the writer: one line per field, counts after the other fields, names for enums */
    rc = read_with("\"FillDataType\": \"INT16\", \"Fill\": -300, \"ScaleBias\": {\"Scale\": \"nan\", \"Bias\": -0}",
                   &d, &st, err, sizeof err);
    CHECK(rc == 0);
    char *t = write_text(&d);
    static const char want[] =
        "{\n  \"Axis\": 3,\n  \"Shift\": -2147483648,\n  \"Sizes\": [1, 4294967295, 7],\n"
        "  \"Strides\": [-1, 0, 2147483647],\n  \"Mode\": \"REFLECTION\",\n  \"Value\": -1.5,\n"
        "  \"FillDataType\": \"INT16\",\n  \"Fill\": -300,\n  \"ScaleBias\": {\"Scale\": \"nan\", \"Bias\": -0.0},\n"
        "  \"DimensionCount\": 3,\n  \"end\": 0\n}\n";
    CHECK(t && strcmp(t, want) == 0);
    if (t && strcmp(t, want) != 0) printf("  written:\n%s", t);
    free(t);
    fields_store_free(&st);
}

static void test_round_trips(void) {
    round_trip("\"FillDataType\": \"INT64\", \"Fill\": -9223372036854775808");
    round_trip("\"FillDataType\": \"FLOAT64\", \"Fill\": 0.1, \"ScaleBias\": {\"Scale\": 1e-45, \"Bias\": \"-inf\"}");
    round_trip("\"FillDataType\": \"FLOAT32\", \"Fill\": \"0x7fc00001\", \"ScaleBias\": null");
    round_trip("\"FillDataType\": \"FLOAT16\", \"Fill\": 65504");
    round_trip("\"FillDataType\": \"UINT8\", \"Fill\": 255, \"DimensionCount\": 3");
}

static void test_malformed(void) {
    const char *u8 = "\"FillDataType\": \"UINT8\", \"Fill\": 0";
    char rest[512];
    /* missing fields; the optional struct may be absent */
    refused_text("{\"Axis\": 1}", "missing \"Shift\" (a field of TEST)");
    refused_text("{\"Axis\": null}", "missing \"Axis\" (a field of TEST)");
    refused("\"FillDataType\": \"UINT8\"", "missing \"Fill\" (a field of TEST)");
    /* wrong JSON types */
    refused_text("{\"Axis\": \"3\"}", "Axis: expected an integer in [0, 4294967295], got a string");
    refused_text("{\"Axis\": -1}", "Axis: expected an integer in [0, 4294967295], got -1");
    refused_text("{\"Axis\": 1.0}", "Axis: expected an integer in [0, 4294967295], got 1.0");
    refused_text("{\"Axis\": 0, \"Shift\": 2147483648}", "Shift: expected an integer in [-2147483648, 2147483647], got 2147483648");
    refused_text("{\"Axis\": 0, \"Shift\": 0, \"Sizes\": 3}", "Sizes: expected an array of integers, got a number");
    refused_text("{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [1, -1]}", "Sizes[1]: expected an integer in [0, 4294967295], got -1");
    refused_text("{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [1], \"Strides\": [\"1\"]}",
                 "Strides[0]: expected an integer in [-2147483648, 2147483647], got a string");
    refused_text("{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [1], \"Strides\": [2147483648]}",
                 "Strides[0]: expected an integer in [-2147483648, 2147483647], got 2147483648");
    /* count mismatches */
    snprintf(rest, sizeof rest, "%s, \"DimensionCount\": 2", u8);
    refused(rest, "DimensionCount (2) differs from the length of Sizes (3)");
    refused_text("{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [1, 2], \"Strides\": [1]}",
                 "Strides: 1 entries, but Sizes has 2 (both are counted by DimensionCount)");
    refused_text("{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [1], \"DimensionCount\": \"1\"}",
                 "DimensionCount: expected an integer in [0, 4294967295], got a string");
    /* enums: names only */
    static const char head[] = "{\"Axis\": 0, \"Shift\": 0, \"Sizes\": [], \"Strides\": [], ";
    char text[512];
    snprintf(text, sizeof text, "%s\"Mode\": \"SYMMETRIC\"}", head);
    refused_text(text, "Mode: unknown value \"SYMMETRIC\" (CONSTANT, EDGE, REFLECTION)");
    snprintf(text, sizeof text, "%s\"Mode\": 1}", head);
    refused_text(text, "Mode: expected the name of a value (CONSTANT, EDGE, REFLECTION), got a number");
    snprintf(text, sizeof text, "%s\"Mode\": \"constant\"}", head);
    refused_text(text, "Mode: unknown value \"constant\"");
    /* FLOAT: beyond FLOAT32, bad strings, wrong type */
    static const struct {
        const char *value, *want;
    } bad_floats[] = {{"3.5e38", "Value: 3.5e38 is beyond the finite range of FLOAT32"},
                      {"-1e39", "Value: -1e39 is beyond the finite range of FLOAT32"},
                      {"\"0x7fc0\"", "Value: bit pattern \"0x7fc0\" must have exactly 8 hex digits"},
                      {"\"NaN\"", "Value: expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got \"NaN\""},
                      {"true", "Value: expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got"},
                      {"[1]", "Value: expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got an array"}};
    for (size_t i = 0; i < sizeof bad_floats / sizeof bad_floats[0]; ++i) {
        snprintf(text, sizeof text, "%s\"Mode\": \"EDGE\", \"Value\": %s}", head, bad_floats[i].value);
        refused_text(text, bad_floats[i].want);
    }
    /* unions: out of the type's range, wrong kind of value, no type */
    refused("\"FillDataType\": \"INT8\", \"Fill\": 128", "Fill: 128 is not representable in INT8 [-128, 127]");
    refused("\"FillDataType\": \"UINT16\", \"Fill\": -1", "Fill: -1 is not representable in UINT16 [0, 65535]");
    refused("\"FillDataType\": \"INT32\", \"Fill\": 1.5", "Fill: expected an integer for INT32, got 1.5");
    refused("\"FillDataType\": \"FLOAT16\", \"Fill\": 65520", "Fill: 65520 is beyond the finite range of FLOAT16");
    refused("\"FillDataType\": \"FLOAT32\", \"Fill\": \"0x7fc0\"", "Fill: bit pattern \"0x7fc0\" must have exactly 8 hex digits");
    refused("\"FillDataType\": \"INT8\", \"Fill\": true", "Fill: expected a value of INT8, got");
    refused("\"FillDataType\": \"UNKNOWN\", \"Fill\": 0", "Fill: its data type (0) has no element values");
    refused("\"FillDataType\": \"BOOL\", \"Fill\": 0", "FillDataType: unknown value \"BOOL\"");
    /* the optional struct */
    snprintf(rest, sizeof rest, "%s, \"ScaleBias\": 1", u8);
    refused(rest, "ScaleBias: expected an object {Scale, Bias} or null, got a number");
    snprintf(rest, sizeof rest, "%s, \"ScaleBias\": {\"Scale\": 1}", u8);
    refused(rest, "ScaleBias: missing \"Bias\"");
    snprintf(rest, sizeof rest, "%s, \"ScaleBias\": {\"Scale\": 1, \"Bias\": 0, \"Shift\": 0}", u8);
    refused(rest, "ScaleBias: unknown key \"Shift\" (Scale, Bias)");
    snprintf(rest, sizeof rest, "%s, \"ScaleBias\": {\"Scale\": 1e39, \"Bias\": 0}", u8);
    refused(rest, "ScaleBias.Scale: 1e39 is beyond the finite range of FLOAT32");
}

/* Tensor slots: an optional input, a counted input array, an output. */
typedef struct SLOTS_OPERATOR_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    uint32_t InputCount;
    const DMLREF_TENSOR_DESC *InputTensors;
    const DMLREF_TENSOR_DESC *OutputTensor;
    uint32_t Axis;
} SLOTS_OPERATOR_DESC;

static const dmlref_tensor_slot slots2[] = {
    {.name = "InputTensor", .offset = offsetof(SLOTS_OPERATOR_DESC, InputTensor), .is_optional = 1},
    {.name = "InputTensors", .offset = offsetof(SLOTS_OPERATOR_DESC, InputTensors), .is_array = 1,
     .count_offset = offsetof(SLOTS_OPERATOR_DESC, InputCount), .count_name = "InputCount"},
    {.name = "OutputTensor", .offset = offsetof(SLOTS_OPERATOR_DESC, OutputTensor), .is_output = 1},
};
static const dmlref_param params2[] = {
    {.name = "InputCount", .offset = offsetof(SLOTS_OPERATOR_DESC, InputCount), .kind = DMLREF_PARAM_UINT, .is_count = 1},
    {.name = "Axis", .offset = offsetof(SLOTS_OPERATOR_DESC, Axis), .kind = DMLREF_PARAM_UINT},
};
static const dmlref_schema schema2 = {(DMLREF_OPERATOR_TYPE)9998, "SLOTS", sizeof(SLOTS_OPERATOR_DESC),
                                      DMLREF_FEATURE_LEVEL_1_0, 0, 3, slots2, 2, params2};

#define T1 "{\"DataType\": \"UINT8\", \"Sizes\": [2], \"data\": [1, 2]}"
#define T0 "{\"DataType\": \"UINT8\", \"Sizes\": [2]}"

/* The case (its fields after "operator") read against schema2: status and message. */
static void slots_case(const char *fields, int want_rc, const char *want) {
    char text[1024], err[512];
    snprintf(text, sizeof text, "{\"operator\": \"SLOTS\", %s}", fields);
    const case_options o = {NULL, 0, 0, &schema2, NULL, NULL, NULL};
    dmlref_case c;
    const int rc = case_parse_ex(text, strlen(text), &o, &c, err, sizeof err);
    if (rc != want_rc || (want && !strstr(err, want))) {
        ++failed;
        printf("FAIL: %s: exit %d \"%s\", wanted %d \"%s\"\n", fields, rc, err, want_rc, want ? want : "");
    } else {
        ++passed;
    }
    case_free(&c);
}

static void test_slots(void) {
    /* well-formed (the optional tensor present or absent): the library's validation is reached */
    slots_case("\"Axis\": 0, \"InputTensor\": " T1 ", \"InputTensors\": [" T1 ", " T1 "], \"OutputTensor\": " T0,
               CASE_INVALID, NULL);
    slots_case("\"Axis\": 0, \"InputCount\": 1, \"InputTensors\": [" T1 "], \"OutputTensor\": " T0, CASE_INVALID, NULL);
    /* malformed */
    slots_case("\"Axis\": 0, \"InputTensors\": [" T1 "]", CASE_MALFORMED, "missing \"OutputTensor\" (a tensor of SLOTS)");
    slots_case("\"Axis\": 0, \"OutputTensor\": " T0, CASE_MALFORMED, "missing \"InputTensors\" (an array of tensors)");
    slots_case("\"Axis\": 0, \"InputTensors\": " T1 ", \"OutputTensor\": " T0, CASE_MALFORMED,
               "InputTensors: expected an array of tensors, got an object");
    slots_case("\"Axis\": 0, \"InputCount\": 3, \"InputTensors\": [" T1 ", " T1 "], \"OutputTensor\": " T0,
               CASE_MALFORMED, "InputCount (3) differs from the length of InputTensors (2)");
    slots_case("\"InputTensors\": [" T1 "], \"OutputTensor\": " T0, CASE_MALFORMED, "missing \"Axis\" (a field of SLOTS)");
    slots_case("\"Axis\": 0, \"IndexDimensions\": 1", CASE_MALFORMED,
               "unknown key \"IndexDimensions\" (not a field of SLOTS or of a case file)");
    slots_case("\"Axis\": 0, \"InputTensor\": " T0 ", \"InputTensors\": [], \"OutputTensor\": " T0, CASE_MALFORMED,
               "InputTensor: missing data (give data, npy, random, distinct or pooled)");

    /* a real operator with a counted array: the reader's desc binds it by the schema */
    const dmlref_schema *join = dmlref_operator_schema(DMLREF_OPERATOR_JOIN);
    if (!join) return;
    static const char text[] = "{\"operator\": \"JOIN\", \"Axis\": 0, \"InputTensors\": [" T1 ", " T1 ", " T1 "], "
                               "\"OutputTensor\": {\"DataType\": \"UINT8\", \"Sizes\": [6]}, "
                               "\"expected\": {\"OutputTensor\": [1, 2, 1, 2, 1, 2, 205, 205]}}";
    dmlref_case c;
    char err[512];
    const int rc = case_parse(text, strlen(text), NULL, &c, err, sizeof err);
    CHECK(rc == CASE_OK);
    if (rc != CASE_OK) {
        printf("  JOIN: %s\n", err);
        return;
    }
    const DMLREF_JOIN_OPERATOR_DESC *j = c.desc_mem;
    CHECK(c.schema == join && c.n_inputs == 3 && c.n_outputs == 1);
    CHECK(j->InputCount == 3 && j->InputTensors == c.in_descs && j->OutputTensor == &c.out_descs[0] && j->Axis == 0);
    CHECK(c.inputs[2].index == 2 && strcmp(c.inputs[2].slot, "InputTensors") == 0 && c.outputs[0].index == -1);
    CHECK(dmlref_run(&c.desc, c.feature_level, NULL, c.in_bufs, c.n_inputs, c.out_bufs, c.n_outputs, NULL) == DMLREF_OK);
    CHECK(case_compare(&c, NULL, 0) == 0);
    case_free(&c);
}

/* ---- phase-3 kinds: FLOAT_ARRAY (two sharing a count), SIZE_2D, BOOL ---------------- */

typedef struct P3_DESC {
    const DMLREF_TENSOR_DESC *InputTensor;
    const DMLREF_TENSOR_DESC *OutputTensor;
    DMLREF_AXIS_DIRECTION Direction;
    uint32_t DimensionCount;
    const float *Scales;
    const float *Offsets;
    DMLREF_SIZE_2D Size;
    DMLREF_BOOL Flag;
} P3_DESC;

static const char *const directions[] = {"INCREASING", "DECREASING"};
static const dmlref_param p3_params[] = {
    {.name = "Direction", .offset = offsetof(P3_DESC, Direction), .kind = DMLREF_PARAM_ENUM, .enum_names = directions,
     .enum_count = 2},
    {.name = "DimensionCount", .offset = offsetof(P3_DESC, DimensionCount), .kind = DMLREF_PARAM_UINT, .is_count = 1},
    {.name = "Scales", .offset = offsetof(P3_DESC, Scales), .kind = DMLREF_PARAM_FLOAT_ARRAY,
     .count_offset = offsetof(P3_DESC, DimensionCount), .count_name = "DimensionCount"},
    {.name = "Offsets", .offset = offsetof(P3_DESC, Offsets), .kind = DMLREF_PARAM_FLOAT_ARRAY,
     .count_offset = offsetof(P3_DESC, DimensionCount), .count_name = "DimensionCount"},
    {.name = "Size", .offset = offsetof(P3_DESC, Size), .kind = DMLREF_PARAM_SIZE_2D},
    {.name = "Flag", .offset = offsetof(P3_DESC, Flag), .kind = DMLREF_PARAM_BOOL},
};
static const dmlref_schema p3_schema = {(DMLREF_OPERATOR_TYPE)9998, "P3", sizeof(P3_DESC), DMLREF_FEATURE_LEVEL_1_0,
                                        0, 2, slots, sizeof p3_params / sizeof p3_params[0], p3_params};

static int p3_read(const char *text, P3_DESC *d, fields_store *st, char *err, size_t cap) {
    memset(d, 0, sizeof *d);
    err[0] = '\0';
    json_doc doc;
    if (json_parse(text, strlen(text), &doc, err, cap) != JSON_OK) return -1;
    const int rc = fields_read_params(&p3_schema, doc.root, d, st, err, cap);
    json_free(&doc);
    return rc;
}

static char *p3_write(const P3_DESC *d) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputs("{\n", f);
    fields_write_params(f, &p3_schema, d, 2);
    fputs("  \"end\": 0\n}\n", f);
    fclose(f);
    return buf;
}

static void p3_refused(const char *text, const char *want) {
    P3_DESC d;
    fields_store st = {0};
    char err[512];
    const int rc = p3_read(text, &d, &st, err, sizeof err);
    if (rc == 0 || !strstr(err, want)) {
        ++failed;
        printf("FAIL: %s: got \"%s\", wanted \"%s\"\n", text, rc ? err : "(accepted)", want);
    } else {
        ++passed;
    }
    fields_store_free(&st);
}

static void test_phase3_kinds(void) {
    P3_DESC d, e;
    fields_store st = {0}, st2 = {0};
    char err[512];
    /* every accepted form: FLOAT entries as numbers (rounded once), "nan", "inf", "-inf", bit patterns */
    int rc = p3_read("{\"Direction\": \"DECREASING\", \"Scales\": [0.6, \"inf\", \"-inf\", \"0x7fc00001\", -0, 1e-46], "
                     "\"Offsets\": [0.5, -0.5, 3.4028235e38, \"nan\", 1, 0.1], \"DimensionCount\": 6, "
                     "\"Size\": {\"Height\": 2, \"Width\": 4294967295}, \"Flag\": true}",
                     &d, &st, err, sizeof err);
    CHECK(rc == 0);
    if (rc) printf("  %s\n", err);
    CHECK(d.Direction == DMLREF_AXIS_DIRECTION_DECREASING && d.DimensionCount == 6);
    CHECK(d.Scales && f32_bits(d.Scales[0]) == 0x3F19999Au && f32_bits(d.Scales[1]) == 0x7F800000u &&
          f32_bits(d.Scales[2]) == 0xFF800000u && f32_bits(d.Scales[3]) == 0x7FC00001u &&
          f32_bits(d.Scales[4]) == 0x80000000u && f32_bits(d.Scales[5]) == 0u);
    CHECK(d.Offsets && f32_bits(d.Offsets[0]) == 0x3F000000u && f32_bits(d.Offsets[1]) == 0xBF000000u &&
          f32_bits(d.Offsets[2]) == 0x7F7FFFFFu && f32_bits(d.Offsets[3]) == 0x7FC00000u &&
          f32_bits(d.Offsets[5]) == 0x3DCCCCCDu);
    CHECK(d.Size.Width == UINT32_MAX && d.Size.Height == 2 && d.Flag == 1);
    /* written: FLOAT values as a FLOAT field is written, {Width, Height} Width first, true/false, count last */
    char *t1 = p3_write(&d);
    static const char want[] =
        "{\n  \"Direction\": \"DECREASING\",\n  \"Scales\": [0.6, \"inf\", \"-inf\", \"0x7fc00001\", -0.0, 0],\n"
        "  \"Offsets\": [0.5, -0.5, 3.4028235e+38, \"nan\", 1, 0.1],\n  \"Size\": {\"Width\": 4294967295, \"Height\": 2},\n"
        "  \"Flag\": true,\n  \"DimensionCount\": 6,\n  \"end\": 0\n}\n";
    CHECK(t1 && strcmp(t1, want) == 0);
    if (t1 && strcmp(t1, want) != 0) printf("  written:\n%s", t1);
    /* round trip: read -> write -> read gives the same desc and text */
    rc = t1 ? p3_read(t1, &e, &st2, err, sizeof err) : -1;
    CHECK(rc == 0);
    char *t2 = rc == 0 ? p3_write(&e) : NULL;
    CHECK(t1 && t2 && strcmp(t1, t2) == 0);
    CHECK(rc == 0 && e.DimensionCount == 6 && memcmp(d.Scales, e.Scales, 24) == 0 && memcmp(d.Offsets, e.Offsets, 24) == 0);
    CHECK(rc == 0 && e.Size.Width == d.Size.Width && e.Size.Height == d.Size.Height && e.Flag == 1);
    free(t1);
    free(t2);
    fields_store_free(&st);
    fields_store_free(&st2);
    /* false, an empty array, the count absent */
    rc = p3_read("{\"Direction\": \"INCREASING\", \"Scales\": [], \"Offsets\": [], \"Size\": {\"Width\": 0, \"Height\": 0}, "
                 "\"Flag\": false}", &d, &st, err, sizeof err);
    CHECK(rc == 0 && d.Flag == 0 && d.DimensionCount == 0 && d.Direction == 0);
    fields_store_free(&st);

    /* refused forms (the command: exit 3) */
    static const char ok[] = "\"Direction\": \"INCREASING\", \"Size\": {\"Width\": 1, \"Height\": 1}, \"Flag\": false";
    static const struct {
        const char *fields, *want;
    } bad[] = {
        {"\"Scales\": 1, \"Offsets\": []", "Scales: expected an array of FLOAT values, got a number"},
        {"\"Scales\": [1, true], \"Offsets\": [1, 1]", "Scales[1]: expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got"},
        {"\"Scales\": [\"NaN\"], \"Offsets\": [1]", "Scales[0]: expected a number, \"nan\", \"inf\", \"-inf\" or \"0x...\", got \"NaN\""},
        {"\"Scales\": [3.5e38], \"Offsets\": [1]", "Scales[0]: 3.5e38 is beyond the finite range of FLOAT32"},
        {"\"Scales\": [\"0x7fc0\"], \"Offsets\": [1]", "Scales[0]: bit pattern \"0x7fc0\" must have exactly 8 hex digits"},
        {"\"Scales\": [1, 2], \"Offsets\": [1, 2], \"DimensionCount\": 3", "DimensionCount (3) differs from the length of Scales (2)"},
        {"\"Scales\": [1, 2], \"Offsets\": [1]", "Offsets: 1 entries, but Scales has 2 (both are counted by DimensionCount)"},
    };
    char text[768];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(text, sizeof text, "{%s, %s}", ok, bad[i].fields);
        p3_refused(text, bad[i].want);
    }
    static const char arr[] = "\"Direction\": \"INCREASING\", \"Scales\": [1], \"Offsets\": [1]";
    static const struct {
        const char *fields, *want;
    } bad2[] = {
        {"\"Size\": [1, 2], \"Flag\": false", "Size: expected an object {Width, Height}, got an array"},
        {"\"Size\": {\"Width\": 1}, \"Flag\": false", "Size: missing \"Height\""},
        {"\"Size\": {\"Height\": 1}, \"Flag\": false", "Size: missing \"Width\""},
        {"\"Size\": {\"Width\": 1, \"Height\": 1, \"Depth\": 1}, \"Flag\": false", "Size: unknown key \"Depth\" (Width, Height)"},
        {"\"Size\": {\"Width\": -1, \"Height\": 1}, \"Flag\": false", "Size.Width: expected an integer in [0, 4294967295], got -1"},
        {"\"Size\": {\"Width\": 1, \"Height\": 4294967296}, \"Flag\": false",
         "Size.Height: expected an integer in [0, 4294967295], got 4294967296"},
        {"\"Size\": {\"Width\": 1, \"Height\": 1}, \"Flag\": 1", "Flag: expected true or false, got a number"},
        {"\"Size\": {\"Width\": 1, \"Height\": 1}, \"Flag\": 0", "Flag: expected true or false, got a number"},
        {"\"Size\": {\"Width\": 1, \"Height\": 1}, \"Flag\": \"true\"", "Flag: expected true or false, got a string"},
        {"\"Size\": {\"Width\": 1, \"Height\": 1}", "missing \"Flag\" (a field of P3)"},
    };
    for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; ++i) {
        snprintf(text, sizeof text, "{%s, %s}", arr, bad2[i].fields);
        p3_refused(text, bad2[i].want);
    }
}

int main(void) {
    test_values();
    test_slots();
    test_round_trips();
    test_malformed();
    test_phase3_kinds();
    printf("fields: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
