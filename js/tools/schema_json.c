/*
 * Prints the library's public schema (dmlref_operator_schema_at) as JSON on stdout: every
 * operator of the registry, its tensor slots and parameters.  js/tools/gen_operators.mjs
 * makes the JavaScript package's operator table and functions from it (make js-operators).
 */
#include "dmlref.h"

#include <stdio.h>

static void str(const char *s) {
    putchar('"');
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

int main(void) {
    printf("[");
    for (uint32_t i = 0;; ++i) {
        const dmlref_schema *s = dmlref_operator_schema_at(i);
        if (!s) break;
        printf("%s\n {\"name\": ", i ? "," : "");
        str(s->name);
        printf(", \"introduced\": %u, \"slots\": [", (unsigned)s->introduced);
        for (uint32_t k = 0; k < s->n_slots; ++k) {
            const dmlref_tensor_slot *t = &s->slots[k];
            printf("%s{\"name\": ", k ? ", " : "");
            str(t->name);
            printf(", \"is_output\": %d, \"is_index\": %d, \"is_array\": %d, \"is_optional\": %d, \"count_name\": ",
                   t->is_output, t->is_index, t->is_array, t->is_optional);
            if (t->count_name) str(t->count_name);
            else printf("null");
            printf("}");
        }
        printf("], \"params\": [");
        for (uint32_t k = 0; k < s->n_params; ++k) {
            const dmlref_param *p = &s->params[k];
            printf("%s\n  {\"name\": ", k ? "," : "");
            str(p->name);
            printf(", \"kind\": %d, \"is_optional\": %d, \"is_count\": %d, \"count_name\": ", (int)p->kind,
                   p->is_optional, p->is_count);
            if (p->count_name) str(p->count_name);
            else printf("null");
            printf(", \"enum_names\": [");
            for (uint32_t e = 0; p->enum_names && e < p->enum_count; ++e) {
                if (e) printf(", ");
                if (p->enum_names[e]) str(p->enum_names[e]);
                else printf("null");
            }
            printf("], \"type_field\": ");
            const char *tf = NULL;
            if (p->kind == DMLREF_PARAM_SCALAR_UNION)
                for (uint32_t q = 0; q < s->n_params; ++q)
                    if (s->params[q].offset == p->type_offset) tf = s->params[q].name;
            if (tf) str(tf);
            else printf("null");
            printf(", \"field_names\": [");
            for (uint32_t f = 0; p->field_names && f < p->field_count; ++f) {
                if (f) printf(", ");
                str(p->field_names[f]);
            }
            printf("]}");
        }
        printf("]}");
    }
    printf("\n]\n");
    return ferror(stdout) ? 1 : 0;
}
