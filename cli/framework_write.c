/* A framework form as JSON (framework.h's framework_write): the object `dmlref export` puts
 * in a case's manifest entry, tensors named as their .npy files are (npyout_base). */
#include "framework.h"

#include "case/json_out.h"
#include "case/npyout.h"
#include "case/value.h"

#include <string.h>

#include <inttypes.h>

static void write_shape(FILE *f, const case_tensor *t, const fw_shape *s, int first, unsigned indent) {
    char base[64];
    fprintf(f, "%s\n%*s\"%s\": ", first ? "" : ",", (int)indent + 4, "", npyout_base(t, base, sizeof base));
    jout_u32_list(f, s->dims, s->rank);
}

void framework_write(FILE *f, const dmlref_case *c, const fw_form *form, unsigned indent) {
    fputs("{\"onnx\": ", f);
    jout_string(f, form->onnx);
    fputs(", \"webnn\": ", f);
    jout_string(f, form->webnn);
    fputs(", \"pytorch\": ", f);
    jout_string(f, form->pytorch);
    if (form->has_axis) fprintf(f, ", \"axis\": %u", (unsigned)form->axis);
    if (form->has_split) {
        fputs(", \"split\": [", f);
        for (uint32_t k = 0; k < c->n_outputs; ++k) fprintf(f, k ? ", %u" : "%u", (unsigned)form->out[k].dims[form->axis]);
        fputc(']', f);
    }
    if (form->mode) {
        fputs(", \"mode\": ", f);
        jout_string(f, form->mode);
    }
    if (form->dtype) {
        fputs(", \"dtype\": ", f);
        jout_string(f, form->dtype);
    }
    if (form->has_value) fprintf(f, ", \"value_bits\": \"0x%" PRIx64 "\"", form->value_bits);
    if (form->has_delta) fprintf(f, ", \"delta_bits\": \"0x%" PRIx64 "\"", form->delta_bits);
    for (uint32_t i = 0; i < form->n_ints; ++i) fprintf(f, ", \"%s\": %" PRId64, form->ints[i].name, form->ints[i].v);
    for (uint32_t l = 0; l < form->n_lists; ++l) {
        fprintf(f, ", \"%s\": [", form->lists[l].name);
        for (uint32_t k = 0; k < form->lists[l].n; ++k) fprintf(f, k ? ", %" PRId64 : "%" PRId64, form->lists[l].v[k]);
        fputc(']', f);
    }
    if (form->nearest_mode) {
        fputs(", \"nearest_mode\": ", f);
        jout_string(f, form->nearest_mode);
    }
    if (form->n_scales) {
        char buf[VALUE_TEXT_MAX];
        fputs(", \"scales\": [", f);
        for (uint32_t k = 0; k < form->n_scales; ++k) {
            float v;
            memcpy(&v, &form->scales_bits[k], sizeof v);
            fprintf(f, "%s%s", k ? ", " : "", value_format(&v, DMLREF_TENSOR_DATA_TYPE_FLOAT32, buf, sizeof buf));
        }
        fputc(']', f);
    }
    fprintf(f, ",\n%*s\"shapes\": {", (int)indent + 2, "");
    for (uint32_t k = 0; k < c->n_inputs; ++k) write_shape(f, &c->inputs[k], &form->in[k], k == 0, indent);
    for (uint32_t k = 0; k < c->n_outputs; ++k) write_shape(f, &c->outputs[k], &form->out[k], c->n_inputs == 0 && k == 0, indent);
    fprintf(f, "\n%*s}}", (int)indent + 2, "");
}
