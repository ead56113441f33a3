/* dmlref_version(): the version the library was built as (include/dmlref.h). */
#include "dmlref.h"

const char *dmlref_version(void) {
    return DMLREF_VERSION_STRING;
}
