/* fuzz_recording - everything --replay reads from a recording file before the game sees it
   (parse_recording: header, layout, size, every step record), on arbitrary files, and on well-formed
   files whose one step record is the input (so the record checks are reached, not just the header). */
#include "core/parse.cpp"

#include <math.h>

static void check_parsed(const uint8_t *data, size_t size, const RecordingExpect *want)
{
    RecordingHeader h;
    char err[256];
    if (!parse_recording(data, size, want, &h, err, sizeof err)) {
        if (!err[0]) __builtin_trap();                       /* a refusal always says why */
        return;
    }
    if (h.api != want->api || h.layout_hash != want->layout_hash || h.state_size != want->state_size) __builtin_trap();
    if (h.snapshot_bytes > want->block_size) __builtin_trap();
    if (RECORDING_HEADER_BYTES + h.snapshot_bytes + h.steps * sizeof(GameInput) != size) __builtin_trap();
    uint8_t again[RECORDING_HEADER_BYTES];
    parse_recording_header_write(again, &h);
    if (memcmp(again, data, RECORDING_HEADER_BYTES) != 0) __builtin_trap();
    /* what the loader does next: the snapshot into the block, every step to the game */
    static uint8_t block[1 << 16];
    memcpy(block, data + RECORDING_HEADER_BYTES, h.snapshot_bytes);
    for (uint64_t i = 0; i < h.steps; i++) {
        GameInput gi;
        memcpy(&gi, data + RECORDING_HEADER_BYTES + h.snapshot_bytes + i * sizeof gi, sizeof gi);
        if (!isfinite(gi.dt) || !isfinite(gi.mouse_x) || !isfinite(gi.wheel) || gi.down[0] > 1) __builtin_trap();
        for (int a = 0; a < AXIS_COUNT; a++) if (!(fabsf(gi.axis[a]) <= 1)) __builtin_trap();
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the file as it is, expected to match its own header (so the layout check passes) and a fixed game */
    RecordingExpect fixed = { GAME_API_VERSION, 7, 4096, 1 << 16 };
    check_parsed(data, size, &fixed);
    if (size >= RECORDING_HEADER_BYTES) {
        RecordingExpect own = fixed;
        memcpy(&own.api, data + 8, 4);
        memcpy(&own.layout_hash, data + 12, 4);
        memcpy(&own.state_size, data + 16, 8);
        check_parsed(data, size, &own);
    }
    /* a well-formed file: 16 bytes of snapshot and the input as its one step record */
    static uint8_t file[RECORDING_HEADER_BYTES + 16 + sizeof(GameInput)];
    memset(file + RECORDING_HEADER_BYTES, 0xAB, 16);
    RecordingHeader h = { fixed.api, fixed.layout_hash, fixed.state_size, 16, 0, 0, th_hash_bytes64(file + RECORDING_HEADER_BYTES, 16) };
    parse_recording_header_write(file, &h);
    GameInput gi;
    memset(&gi, 0, sizeof gi);
    memcpy(&gi, data, size < sizeof gi ? size : sizeof gi);
    memcpy(file + RECORDING_HEADER_BYTES + 16, &gi, sizeof gi);
    char err[256];
    int step_ok = parse_recording_input(&gi, err, sizeof err);
    RecordingHeader back;
    if (parse_recording(file, sizeof file, &fixed, &back, err, sizeof err) != step_ok || (step_ok && back.steps != 1)) __builtin_trap();
    check_parsed(file, sizeof file, &fixed);
    return 0;
}
