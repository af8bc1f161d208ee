/* fuzz_pack - the archive reader (th_pack.h) on arbitrary bytes. The input is tried twice: as is, and
   with the header's index check and size field recomputed, so the fuzzer gets past the checksum and
   reaches the offset/size/name validation. Whatever opens must hand out only bytes inside the input,
   names that follow the rules, and must write back (thpk_writer) to an archive holding the same files. */
#define TH_PACK_IMPLEMENTATION
#include "th_pack.h"

#include <stdlib.h>
#include <string.h>
#include <vector>

static void check(const uint8_t *data, size_t size)
{
    thpk_archive a;
    char err[256] = "";
    if (!thpk_open_memory(&a, data, size, err, sizeof err)) {
        if (!err[0]) __builtin_trap();                      /* a refusal says why */
        return;
    }
    thpk_writer w;
    thpk_writer_init(&w);
    for (uint32_t i = 0; i < a.count; i++) {
        const char *name = thpk_name(&a, (int)i);
        if (!name || !thpk_name_valid(name, strlen(name))) __builtin_trap();
        if (thpk_find(&a, name) != (int)i) __builtin_trap();
        size_t n = 0;
        const uint8_t *p = (const uint8_t *)thpk_get(&a, (int)i, &n, err, sizeof err);
        if (!p) { if (!err[0]) __builtin_trap(); continue; }
        if (p < data || n > size || (size_t)(p - data) > size - n) __builtin_trap();
        if (!thpk_writer_add(&w, name, p, n, err, sizeof err)) __builtin_trap();
    }
    size_t len = 0;
    uint8_t *again = (uint8_t *)thpk_writer_build(&w, &len, err, sizeof err);
    if (!again) __builtin_trap();
    thpk_archive b;
    if (!thpk_open_memory(&b, again, len, err, sizeof err) || b.count != (uint32_t)w.count) __builtin_trap();
    for (int i = 0; i < w.count; i++) {
        int j = thpk_find(&b, w.items[i].name);
        size_t n = 0;
        const void *p = j >= 0 ? thpk_get(&b, j, &n, err, sizeof err) : NULL;
        if (!p || n != w.items[i].size || (n && memcmp(p, w.items[i].data, n) != 0)) __builtin_trap();
    }
    free(again);
    thpk_writer_free(&w);
    thpk_close(&a);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exact-size copies, so ASan sees any read past the end */
    std::vector<uint8_t> raw(data, data + size);
    check(raw.data(), raw.size());
    if (size >= THPK_HEADER_BYTES) {
        std::vector<uint8_t> fixed(data, data + size);
        uint8_t *h = fixed.data();
        uint32_t index_bytes = (uint32_t)h[16] | (uint32_t)h[17] << 8 | (uint32_t)h[18] << 16 | (uint32_t)h[19] << 24;
        if ((uint64_t)index_bytes <= size - THPK_HEADER_BYTES) {
            uint32_t c = (uint32_t)thpk_hash(h + THPK_HEADER_BYTES, index_bytes, 0);
            for (int k = 0; k < 4; k++) h[20 + k] = (uint8_t)(c >> (8 * k));
        }
        for (int k = 0; k < 8; k++) h[24 + k] = (uint8_t)((uint64_t)size >> (8 * k));
        check(fixed.data(), fixed.size());
    }
    return 0;
}
