/* PADDING1's random valid cases: builders/padding_common.h. */
#include "padding_common.h"

static int build(prng *r, dmlref_case *g) { return pad_build(r, g, 1); }

const builder padding1_builder = {DMLREF_OPERATOR_PADDING1, build};
