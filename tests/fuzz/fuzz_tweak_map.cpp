/* fuzz_tweak_map - the mapper that turns a saved source file into live TWEAK values (thtw_map, what
   platform/live/tweak.cpp runs on every save) on two arbitrary texts: the compiled one and the saved one,
   split at the first 0 byte of the input. */
#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"

#include <string.h>

enum { MAX_SITES = 64 };

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *zero = (const char *)memchr(text, 0, size);
    size_t blen = zero ? (size_t)(zero - text) : size;
    const char *now = zero ? zero + 1 : text;
    size_t nlen = zero ? size - blen - 1 : size;
    static thtw_site bs[MAX_SITES], ns[MAX_SITES];
    static uint64_t values[MAX_SITES];
    static unsigned char ok[MAX_SITES];
    int bn = thtw_scan(text, blen, bs, MAX_SITES), nn = thtw_scan(now, nlen, ns, MAX_SITES);
    if (bn > MAX_SITES || nn > MAX_SITES) return 0;
    int r = thtw_map(text, blen, bs, bn, now, nlen, ns, nn, values, ok);
    if (r != THTW_MAP_OK && r != THTW_MAP_SHAPE && r != THTW_MAP_UNPARSED) __builtin_trap();
    if (r == THTW_MAP_OK) {
        if (bn != nn) __builtin_trap();
        for (int i = 0; i < bn; i++) {
            uint64_t v = 0;
            int parsed = thtw_parse(ns[i].kind, now + ns[i].arg_begin, (size_t)(ns[i].arg_end - ns[i].arg_begin), &v);
            if (parsed != ok[i] || (parsed && v != values[i])) __builtin_trap();
            if (ns[i].kind != bs[i].kind || ns[i].line != bs[i].line) __builtin_trap();
        }
    }
    /* a text always maps onto itself */
    if (thtw_map(text, blen, bs, bn, text, blen, bs, bn, values, ok) != THTW_MAP_OK) __builtin_trap();
    return 0;
}
