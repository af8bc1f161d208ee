/* fuzz_atlas_manifest - the atlas manifest reader (th_atlas.h) on arbitrary text: it accepts or refuses
   with a reason, and what it accepts formats and re-reads to the same manifest. */
#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"

#include <stdlib.h>
#include <string.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    thal_manifest m, again;
    thal_init(&m);
    thal_init(&again);
    char err[512] = "";
    if (thal_parse(&m, (const char *)data, size, err, sizeof err)) {
        size_t len = 0;
        char *text = thal_format(&m, &len);
        if (!text) __builtin_trap();
        char err2[512] = "";
        if (!thal_parse(&again, text, len, err2, sizeof err2)) __builtin_trap();   /* its own output reads back */
        size_t len2 = 0;
        char *text2 = thal_format(&again, &len2);
        if (!text2 || len2 != len || memcmp(text, text2, len) != 0) __builtin_trap();
        free(text);
        free(text2);
    } else if (!err[0]) {
        __builtin_trap();   /* a refusal says why */
    }
    thal_free(&m);
    thal_free(&again);
    return 0;
}
