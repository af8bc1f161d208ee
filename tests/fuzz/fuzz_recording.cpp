/* fuzz_recording - the recording header reader on arbitrary files. */
#include "parse.cpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    RecordingHeader h;
    char err[256];
    if (recording_header_parse(data, size, &h, err, sizeof err)) {
        if (RECORDING_HEADER_BYTES + h.snapshot_bytes + h.steps * sizeof(GameInput) != size) __builtin_trap();
        uint8_t again[RECORDING_HEADER_BYTES];
        recording_header_write(again, &h);
        if (memcmp(again, data, RECORDING_HEADER_BYTES) != 0) __builtin_trap();
    }
    return 0;
}
