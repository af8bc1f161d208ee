/* fuzz_tweak - the TWEAK literal parser, the site scanner and the shape check on arbitrary text. */
#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"

#include <string.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    static thtw_site sites[64], again[64];
    int n = thtw_scan(text, size, sites, 64);
    int filled = n < 64 ? n : 64;
    for (int i = 0; i < filled; i++) {
        const thtw_site &s = sites[i];
        if (s.arg_begin < 0 || s.arg_end < s.arg_begin || (size_t)s.arg_end > size) __builtin_trap();
        if (i && s.arg_begin < sites[i - 1].arg_end) __builtin_trap();   /* in order, not overlapping */
        if (s.kind < THTW_FLOAT || s.kind > THTW_SCREEN_POS) __builtin_trap();   /* every kind a site can be */
        uint64_t v[2];
        for (int k = THTW_FLOAT; k <= THTW_COLOR; k++) thtw_parse(k, text + s.arg_begin, (size_t)(s.arg_end - s.arg_begin), v);
        if (thtw_find(sites, filled, s.line, s.literal) == -1 && s.literal[0]) __builtin_trap();
    }
    /* a text always has its own shape; scanning twice gives the same sites */
    if (n <= 64) {
        int m = thtw_scan(text, size, again, 64);
        if (m != n || !thtw_same_shape(text, size, sites, n, text, size, again, m)) __builtin_trap();
    }
    /* every literal form on the whole input */
    uint64_t v[2];
    for (int k = 0; k <= THTW_COLOR + 1; k++) thtw_parse(k, text, size, v);
    char out[64];
    int len = thtw_normalize(text, size, out, sizeof out);
    if (len >= (int)sizeof out || (len >= 0 && out[len] != 0)) __builtin_trap();
    return 0;
}
