/* fuzz_host_flags - the host's command-line parser on arbitrary argument lists (NUL-separated). */
#include "core/parse.cpp"

/* The documented ranges' ends are accepted (bounds are inclusive; --watchdog 0 is off). */
static void bounds_accepted(void)
{
    static const char *const ok[][2] = { { "--watchdog", "0" }, { "--watchdog", "0.01" }, { "--watchdog", "3600" },
                                         { "--memory", "1" }, { "--memory", "65536" }, { "--window", "64x64" },
                                         { "--window", "16384x16384" } };
    static const char *const refused[][2] = { { "--watchdog", "0.009" }, { "--watchdog", "3600.5" }, { "--watchdog", "-1" },
                                              { "--memory", "0" }, { "--memory", "65537" }, { "--window", "63x64" } };
    Options o;
    char err[256];
    for (const auto &f : ok) {
        char *argv[] = { (char *)"host", (char *)f[0], (char *)f[1], NULL };
        if (parse_flags(3, argv, &FLAGS_DEVELOPMENT, &o, err, sizeof err) != 1) { fprintf(stderr, "refused %s %s: %s\n", f[0], f[1], err); __builtin_trap(); }
    }
    for (const auto &f : refused) {
        char *argv[] = { (char *)"host", (char *)f[0], (char *)f[1], NULL };
        if (parse_flags(3, argv, &FLAGS_DEVELOPMENT, &o, err, sizeof err) != 0) { fprintf(stderr, "accepted %s %s\n", f[0], f[1]); __builtin_trap(); }
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int checked = (bounds_accepted(), 1);
    (void)checked;
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
    int r = parse_flags(argc, argv, &FLAGS_DEVELOPMENT, &o, err, sizeof err);
    if (r == 1) {
        if (o.memory_mb < 1 || o.memory_mb > 65536 || o.shot_count > MAX_SCREENSHOTS || o.frames < -1) __builtin_trap();
        if (!(o.watchdog_s == 0 || (o.watchdog_s >= 0.01 && o.watchdog_s <= 3600))) __builtin_trap();
        for (int i = 0; i < o.shot_count; i++) if (o.shot_frame[i] < 0 || !o.shot_path[i][0]) __builtin_trap();
    }
    if (r == 0 && !err[0]) __builtin_trap();   /* every refusal says why */
    return 0;
}
