/* fuzz_session_file - the session file reader (platform/session/session_file.cpp, what --open-session runs on a file
   from anywhere) on arbitrary bytes, and on a small well-formed file with the input's edits applied and its checksum
   made right again, so the checks behind the checksum (counts, offsets, the snapshot table, the types table) are
   reached. A file it accepts is walked end to end: every part it points at lies inside the file. */
#define TH_REFLECT_IMPLEMENTATION
#include "session/session_file.cpp"
#include "../unit/reflect_build.h"

#include <stdlib.h>

static int walk(const uint8_t *data, size_t size)
{
    uint8_t *copy = (uint8_t *)malloc(size ? size : 1);   /* 8-aligned, exactly size bytes (ASan sees past it) */
    memcpy(copy, data, size);
    SessionFile f;
    char err[512];
    int ok = session_file_check(copy, size, &f, err, sizeof err);
    if (ok) {
        const uint8_t *end = copy + size;
        if ((const uint8_t *)(f.steps + f.count) > end || (const uint8_t *)(f.snaps + f.snap_count) > end) __builtin_trap();
        uint64_t sum = 0, x = 0;
        for (uint64_t k = 0; k < f.snap_count; k++) sum += f.snaps[k].bytes;
        if (f.packed + sum != end) __builtin_trap();
        for (uint64_t i = 0; i < f.count; i++) x += f.steps[i].hash;
        for (uint64_t i = 0; i < sum; i++) x += f.packed[i];
        if (x == 1) err[0] = 0;
    } else if (!err[0]) {
        __builtin_trap();   /* a refusal always says why */
    }
    free(copy);
    return ok;
}

static TimelineStep g_steps[4];
static uint8_t      g_packed[64];
static const TimelineStep *step_at(uint64_t step) { return &g_steps[step - 10]; }
static const uint8_t      *snap_bytes(uint64_t k) { return g_packed + k * 16; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    walk(data, size);
    static rb_table t;   /* a 16-byte state: two u64 */
    rb_init(&t);
    t.root = rb_struct(&t, "S", 16, 8);
    rb_field(&t, "a", 0, 8, 2, THR_U64, THR_NONE);
    size_t types = rb_finish(&t);
    for (int i = 0; i < 4; i++) { memset(&g_steps[i], 0, sizeof g_steps[i]); g_steps[i].input.step = 10 + (uint64_t)i; }
    SessionSnap snaps[2] = { { 10, 16, 16 }, { 12, 16, 16 } };
    SessionFile f;
    memset(&f, 0, sizeof f);
    snprintf(f.game, sizeof f.game, "game");
    f.state_size = 16;
    f.first = 10;
    f.count = 4;
    f.cursor = 14;
    f.types = t.blob;
    f.types_bytes = types;
    f.snaps = snaps;
    f.snap_count = 2;
    size_t n = session_file_size(&f);
    uint8_t *file = (uint8_t *)malloc(n);
    session_file_write(&f, step_at, snap_bytes, file);
    for (size_t i = 0; i + 3 <= size; i += 3) {   /* (offset, value) edits */
        size_t at = ((size_t)data[i] | (size_t)data[i + 1] << 8) % n;
        file[at] = data[i + 2];
    }
    put64(file + SH_CHECKSUM, checksum_of(file, n));
    if (!walk(file, n) && size < 3) __builtin_trap();   /* the file as written is accepted */
    free(file);
    return 0;
}
