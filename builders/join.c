/* JOIN's random valid cases: 1 to 6 pieces of unequal sizes along the axis (bld_split_join). */
#include "builder.h"

static int build(prng *r, dmlref_case *g) { return bld_split_join(r, g, 0); }

const builder join_builder = {DMLREF_OPERATOR_JOIN, build};
