/* fuzz_host_flags - the host's command-line parser on arbitrary argument lists (NUL-separated). */
#include "parse.cpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[4096];
    if (size >= sizeof buf) size = sizeof buf - 1;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"host";
    for (size_t i = 0; i <= size && argc < 63;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    Options o;
    char err[256];
    int r = options_parse(argc, argv, &o, err, sizeof err);
    if (r == 1) {
        if (o.memory_mb < 1 || o.memory_mb > 65536 || o.shot_count > MAX_SCREENSHOTS || o.frames < -1) __builtin_trap();
        for (int i = 0; i < o.shot_count; i++) if (o.shot_frame[i] < 0 || !o.shot_path[i][0]) __builtin_trap();
    }
    if (r == 0 && !err[0]) __builtin_trap();   /* every refusal says why */
    return 0;
}
