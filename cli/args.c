/* Command-line argument helpers shared by the subcommands (args.h). */
#include "args.h"

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out) {
    if (!s || !*s) return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; ++p) {
        if (*p < '0' || *p > '9') return -1;
        const uint64_t d = (uint64_t)(*p - '0');
        if (d > max || v > (max - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}
