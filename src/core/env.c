/* The environment variables, read once; see env.h and docs/environment.md. */
#include "env.h"

#if !DMLREF_NO_ENV
#include <stdlib.h>
#endif
#include <string.h>

#ifndef __STDC_NO_ATOMICS__
#include <stdatomic.h>
#endif

static const char *const byte_names[ENV_BYTE_KNOBS] = {"DMLREF_PAR_GRAIN", "DMLREF_STREAM_MIN", "DMLREF_SLAB_MIN"};

static dmlref_env the_env;

static void note_bad(dmlref_env *e, const char *name, const char *value) {
    if (e->bad_name) return; /* the first one */
    e->bad_name = name;
    const size_t n = strlen(value);
    if (n > ENV_VALUE_SHOWN) {
        memcpy(e->bad_value, value, ENV_VALUE_SHOWN);
        memcpy(e->bad_value + ENV_VALUE_SHOWN, "...", 4);
    } else {
        memcpy(e->bad_value, value, n + 1);
    }
}

static int lower_eq(const char *s, const char *word) {
    for (; *s && *word; ++s, ++word) {
        const char c = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
        if (c != *word) return 0;
    }
    return *s == '\0' && *word == '\0';
}

/* 1, 0, or -1 for a value that is neither. */
int env_parse_bool(const char *v) {
    static const char *const yes[] = {"1", "true", "yes", "on"}, *const no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; ++i) {
        if (lower_eq(v, yes[i])) return 1;
        if (lower_eq(v, no[i])) return 0;
    }
    return -1;
}

/* Decimal digits only, no sign, no space, below 2^64: 1 and *out, else 0. */
int env_parse_bytes(const char *v, uint64_t *out) {
    uint64_t x = 0;
    if (*v == '\0') return 0;
    for (; *v; ++v) {
        if (*v < '0' || *v > '9') return 0;
        const uint64_t d = (uint64_t)(*v - '0');
        if (x > (UINT64_MAX - d) / 10) return 0;
        x = x * 10 + d;
    }
    *out = x;
    return 1;
}

#if DMLREF_NO_ENV
/* DMLREF_NO_ENV (freestanding builds, docs/baremetal.md): no getenv; every
 * knob is not set, so the compile-time defaults apply (the oracle is not
 * forced; DMLREF_OPTION_FORCE_ORACLE still forces it). */
static void load(dmlref_env *e) {
    memset(e, 0, sizeof *e);
    (void)byte_names;
    (void)note_bad;
}
#else
static void load(dmlref_env *e) {
    memset(e, 0, sizeof *e);
    /* An unset or empty variable is not set. */
    const char *v = getenv("DMLREF_FORCE_ORACLE");
    if (v && *v) {
        const int b = env_parse_bool(v);
        if (b < 0) note_bad(e, "DMLREF_FORCE_ORACLE", v);
        else e->force_oracle = b;
    }
    for (int k = 0; k < ENV_BYTE_KNOBS; ++k) {
        v = getenv(byte_names[k]);
        if (!v || !*v) continue;
        if (env_parse_bytes(v, &e->bytes[k])) e->has[k] = 1;
        else note_bad(e, byte_names[k], v);
    }
}
#endif

#ifndef __STDC_NO_ATOMICS__
static atomic_int state; /* 0: not read, 1: being read, 2: read */

const dmlref_env *env_get(void) {
    if (atomic_load_explicit(&state, memory_order_acquire) == 2) return &the_env;
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&state, &expected, 1, memory_order_acq_rel, memory_order_acquire)) {
        load(&the_env);
        atomic_store_explicit(&state, 2, memory_order_release);
    } else {
        while (atomic_load_explicit(&state, memory_order_acquire) != 2) {
            /* another thread is reading the variables: a few getenv calls */
        }
    }
    return &the_env;
}

void env_reload(void) {
    load(&the_env);
    atomic_store_explicit(&state, 2, memory_order_release);
}
#else
/* Without C11 atomics (single-threaded builds): read on the first call. */
static int loaded;

const dmlref_env *env_get(void) {
    if (!loaded) {
        load(&the_env);
        loaded = 1;
    }
    return &the_env;
}

void env_reload(void) {
    load(&the_env);
    loaded = 1;
}
#endif

int env_force_oracle(uint32_t option_flags, dmlref_status *st, dmlref_error *err) {
    const dmlref_env *e = env_get();
    if (e->bad_name) {
        *st = set_error(err, DMLREF_ERROR_OPTIONS,
                        "dmlref_compile: the environment variable %s has the value \"%s\", which is not %s "
                        "(docs/environment.md); every compile fails until it is corrected",
                        e->bad_name, e->bad_value,
                        strcmp(e->bad_name, "DMLREF_FORCE_ORACLE") == 0
                            ? "a boolean (1, 0, true, false, yes, no, on, off)"
                            : "a byte count (decimal digits only, below 2^64)");
        return 1;
    }
    return (option_flags & DMLREF_OPTION_FORCE_ORACLE) || e->force_oracle;
}

uint64_t env_bytes(env_knob k, uint64_t dflt) {
    const dmlref_env *e = env_get();
    return e->has[k] ? e->bytes[k] : dflt;
}
