/* fuzz_reflect_read - th_reflect's table reader (what the host runs on every game library's types table
   before it trusts it) on arbitrary bytes. A table it accepts is then walked end to end, and migrated
   onto itself over bytes of exactly its root's size: every access lands inside the block and the state. */
#define TH_REFLECT_IMPLEMENTATION
#include "th_reflect.h"

#include <stdlib.h>
#include <string.h>

static thr_migrator g_m;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly size bytes (ASan sees one past the end), 8-aligned as the host's copy is */
    uint8_t *blob = (uint8_t *)malloc(size ? size : 1);
    memcpy(blob, data, size);
    thr_types t;
    char err[256];
    if (thr_read(blob, size, &t, err, sizeof err)) {
        size_t sum = 0;
        for (uint32_t i = 0; i < t.header->type_count; i++) {
            sum += strlen(thr_name(&t, t.types[i].name));
            for (uint32_t f = 0; f < t.types[i].field_count; f++) {
                const thr_field *fd = &t.fields[t.types[i].first_field + f];
                sum += strlen(thr_name(&t, fd->name)) + strlen(thr_name(&t, fd->old_name));
            }
        }
        for (uint32_t e = 0; e < t.header->enum_count; e++)
            for (uint32_t v = 0; v < t.enums[e].value_count; v++) sum += strlen(thr_name(&t, t.values[t.enums[e].first_value + v].name));
        uint32_t root = t.types[t.header->root].size;
        if (root <= (1u << 20)) {
            uint8_t *old = (uint8_t *)malloc(root), *def = (uint8_t *)malloc(root), *out = (uint8_t *)malloc(root);
            for (uint32_t i = 0; i < root; i++) { old[i] = (uint8_t)(i * 131 + sum); def[i] = (uint8_t)(i * 7); }
            thr_migrate(&g_m, &t, old, root, &t, def, out, root);
            free(old); free(def); free(out);
        }
    } else if (!err[0]) {
        __builtin_trap();   /* a refusal always says why */
    }
    free(blob);
    return 0;
}
