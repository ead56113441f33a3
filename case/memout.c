/* Text built in memory through a FILE (memout.h). */
#include "memout.h"

#include "status.h"

#include <errno.h>
#include <stdlib.h>

int memout_open(memout *m) {
    m->text = NULL;
    m->len = 0;
    errno = 0;
    m->f = open_memstream(&m->text, &m->len);
    return m->f ? 0 : CASE_OUT_OF_MEMORY;
}

int memout_close(memout *m) {
    int bad = ferror(m->f) || errno == ENOMEM;
    bad |= fclose(m->f) != 0 || errno == ENOMEM || !m->text;
    m->f = NULL;
    if (bad) {
        free(m->text);
        m->text = NULL;
        m->len = 0;
        return CASE_OUT_OF_MEMORY;
    }
    return 0;
}
