/*
 * The list of builders, one per operator of src/core/operators.def: apart from
 * common.c, whose helpers the builders use, so that no file depends back on
 * one that depends on it.
 */
#include "builder.h"

#define DMLREF_OP(ENUM, name) extern const builder name##_builder;
#include "core/operators.def"
#undef DMLREF_OP

static const builder *const builders[] = {
#define DMLREF_OP(ENUM, name) &name##_builder,
#include "core/operators.def"
#undef DMLREF_OP
};

const builder *builder_find(DMLREF_OPERATOR_TYPE type) {
    if (!dmlref_operator_schema(type)) return NULL; /* left out of this build (make OPS=...) */
    for (size_t i = 0; i < sizeof builders / sizeof builders[0]; ++i)
        if (builders[i]->type == type) return builders[i];
    return NULL;
}
