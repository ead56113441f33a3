/* ARGMIN: builders/argminmax_common.h. */
#include "argminmax_common.h"

const builder argmin_builder = {DMLREF_OPERATOR_ARGMIN, argminmax_build};
