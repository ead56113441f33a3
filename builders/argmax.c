/* ARGMAX: builders/argminmax_common.h. */
#include "argminmax_common.h"

const builder argmax_builder = {DMLREF_OPERATOR_ARGMAX, argminmax_build};
