#include "webnn.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int webnn_build(const dmlref_case *c, const fw_form *f, int index_issue, const char *name, webnn_test *w) {
    (void)c; (void)f; (void)index_issue; (void)name;
    memset(w, 0, sizeof *w);
    snprintf(w->why, sizeof w->why, "todo");
    return 0;
}
void webnn_test_free(webnn_test *w) { free(w->text); w->text = NULL; }
