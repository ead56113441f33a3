/*
 * Names in case files and on the command line: feature levels ("4_1") and
 * operators ("GATHER", SCATTER_ELEMENTS for SCATTER), both ways (case.h).
 */
#include "case.h"
#include "case_internal.h"

#include <stdio.h>
#include <string.h>

static const uint32_t levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                  0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

uint32_t case_feature_level_from_name(const char *name) {
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i)
        if (strcmp(dmlref_feature_level_name((DMLREF_FEATURE_LEVEL)levels[i]), name) == 0) return levels[i];
    return 0;
}

/* The schema for an operator's name in a case file (SCATTER_ELEMENTS: SCATTER's other name), or NULL. */
const dmlref_schema *case_schema_from_name(const char *name) {
    const dmlref_schema *s;
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL; ++i)
        if (strcmp(s->name, name) == 0) return s;
    if (strcmp(name, "SCATTER_ELEMENTS") == 0) return dmlref_operator_schema(DMLREF_OPERATOR_SCATTER_ELEMENTS);
    return NULL;
}

DMLREF_OPERATOR_TYPE case_operator_from_name(const char *name) {
    const dmlref_schema *s = case_schema_from_name(name);
    return s ? s->type : DMLREF_OPERATOR_INVALID;
}

const char *case_operator_names(char *buf, size_t cap) {
    const dmlref_schema *s;
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; (s = dmlref_operator_schema_at(i)) != NULL && len < cap; ++i)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", s->name);
    return buf;
}
