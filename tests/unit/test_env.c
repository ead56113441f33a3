/*
 * The environment variables (docs/environment.md, src/core/env.c): read once,
 * parsed strictly, a bad value failing every compile with a message.
 */
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

TEST(env_parse_bool_table) {
    static const struct { const char *v; int want; } cases[] = {
        {"1", 1},     {"0", 0},     {"true", 1}, {"FALSE", 0}, {"Yes", 1},  {"no", 0},  {"ON", 1},
        {"off", 0},   {"", -1},     {"2", -1},   {"01", -1},   {"-1", -1},  {" 1", -1}, {"1 ", -1},
        {"truee", -1}, {"tru", -1}, {"y", -1},   {"enable", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        if (env_parse_bool(cases[i].v) != cases[i].want)
            test_fail(__FILE__, __LINE__, "env_parse_bool(\"%s\") = %d, wanted %d", cases[i].v,
                      env_parse_bool(cases[i].v), cases[i].want);
}

TEST(env_parse_bytes_table) {
    static const struct { const char *v; int ok; uint64_t want; } cases[] = {
        {"0", 1, 0},
        {"64", 1, 64},
        {"007", 1, 7},
        {"18446744073709551615", 1, UINT64_MAX},
        {"18446744073709551616", 0, 0}, /* 2^64: overflow */
        {"99999999999999999999", 0, 0},
        {"-1", 0, 0},                   /* strtoull took it as 2^64 - 1 */
        {"+5", 0, 0},
        {" 5", 0, 0},
        {"5 ", 0, 0},
        {"0x10", 0, 0},
        {"1e3", 0, 0},
        {"", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        uint64_t got = 12345;
        const int ok = env_parse_bytes(cases[i].v, &got);
        if (ok != cases[i].ok || (ok && got != cases[i].want))
            test_fail(__FILE__, __LINE__, "env_parse_bytes(\"%s\") = %d (%llu)", cases[i].v, ok,
                      (unsigned long long)got);
    }
}

/* JOIN {1,1,2,2} + {1,1,2,2} -> {1,1,4,2}: a fast kernel unless the oracle is forced */
typedef struct jcase {
    tdesc a, b, out;
    DMLREF_TENSOR_DESC pieces[2];
    DMLREF_JOIN_OPERATOR_DESC j;
    DMLREF_OPERATOR_DESC d;
} jcase;

static void jcase_init(jcase *c) {
    tdesc_init(&c->a, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 2, 2));
    tdesc_init(&c->b, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 2, 2));
    tdesc_init(&c->out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 4, 2));
    c->pieces[0] = c->a.desc;
    c->pieces[1] = c->b.desc;
    c->j = (DMLREF_JOIN_OPERATOR_DESC){2, c->pieces, &c->out.desc, 2};
    c->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_JOIN, &c->j};
}

/* The kernel name compile gives, or the status's name when it fails (message in err). */
static const char *kernel_of(const jcase *c, dmlref_error *err) {
    static char name[64];
    dmlref_operator *op = NULL;
    const dmlref_status st = dmlref_compile(&c->d, DMLREF_FEATURE_LEVEL_6_4, NULL, &op, err);
    if (st != DMLREF_OK) return dmlref_status_name(st);
    snprintf(name, sizeof name, "%s", dmlref_kernel_name(op));
    dmlref_release(op);
    return name;
}

TEST(env_force_oracle_read_once_and_strict) {
    jcase c;
    jcase_init(&c);
    dmlref_error err;
    unsetenv("DMLREF_FORCE_ORACLE");
    env_reload();
    char fast[64];
    snprintf(fast, sizeof fast, "%s", kernel_of(&c, &err));
    CHECK(strcmp(fast, "oracle") != 0 && strncmp(fast, "DMLREF_", 7) != 0);

    setenv("DMLREF_FORCE_ORACLE", "1", 1);
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), "oracle") == 0);
    /* read once: a later setenv changes nothing until the variables are read again */
    setenv("DMLREF_FORCE_ORACLE", "0", 1);
    CHECK(strcmp(kernel_of(&c, &err), "oracle") == 0);
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), fast) == 0);
    /* "false" does not force the oracle (it did: any value but "0" forced it) */
    setenv("DMLREF_FORCE_ORACLE", "false", 1);
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), fast) == 0);
    setenv("DMLREF_FORCE_ORACLE", "ON", 1);
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), "oracle") == 0);
    /* a bad value fails every compile, naming the variable and its value; validate is unaffected */
    setenv("DMLREF_FORCE_ORACLE", "maybe", 1);
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), "DMLREF_ERROR_OPTIONS") == 0);
    CHECK(strstr(err.message, "DMLREF_FORCE_ORACLE") != NULL && strstr(err.message, "\"maybe\"") != NULL);
    CHECK(dmlref_validate(&c.d, DMLREF_FEATURE_LEVEL_6_4, &err) == DMLREF_OK);
    unsetenv("DMLREF_FORCE_ORACLE");
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), fast) == 0);
}

TEST(env_bad_byte_count_fails_compile) {
    jcase c;
    jcase_init(&c);
    dmlref_error err;
    static const char *const names[] = {"DMLREF_PAR_GRAIN", "DMLREF_STREAM_MIN", "DMLREF_SLAB_MIN"};
    for (size_t i = 0; i < 3; ++i) {
        setenv(names[i], "-1", 1);
        env_reload();
        CHECK(strcmp(kernel_of(&c, &err), "DMLREF_ERROR_OPTIONS") == 0);
        CHECK(strstr(err.message, names[i]) != NULL && strstr(err.message, "\"-1\"") != NULL);
        CHECK(strstr(err.message, "byte count") != NULL);
        setenv(names[i], "18446744073709551616", 1);
        env_reload();
        CHECK(strcmp(kernel_of(&c, &err), "DMLREF_ERROR_OPTIONS") == 0);
        setenv(names[i], "64", 1);
        env_reload();
        CHECK(strncmp(kernel_of(&c, &err), "DMLREF_", 7) != 0);
        CHECK_EQ_U64(env_get()->has[i], 1);
        CHECK_EQ_U64(env_get()->bytes[i], 64);
        unsetenv(names[i]);
        env_reload();
    }
    /* a long bad value is quoted truncated */
    char longv[200];
    memset(longv, '9', sizeof longv - 2);
    longv[sizeof longv - 2] = 'x';
    longv[sizeof longv - 1] = '\0';
    setenv("DMLREF_SLAB_MIN", longv, 1);
    env_reload();
    CHECK(strcmp(kernel_of(&c, &err), "DMLREF_ERROR_OPTIONS") == 0);
    CHECK(strstr(err.message, "...\"") != NULL);
    unsetenv("DMLREF_SLAB_MIN");
    env_reload();
}
