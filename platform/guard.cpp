/* guard.cpp - running library code guarded: a fault inside the call, or a call the watchdog finds
   running longer than --watchdog seconds, returns here (1) instead of ending the host. Nothing else.
   The OS side (handlers, the jump, the interrupt that carries the call's number) is in os_posix.cpp. */
#include "host.h"

#include <atomic>
#include <stdio.h>
#include <string.h>

const char *const GUARD_NAMES[] = { "load", "update", "render", "migrate", "stats", "static initializers",
                                     "game_get_api", "static destructors" };

GuardReport g_guard_report;

static struct {
    std::atomic<uint64_t> seq;          /* the guarded call running now; 0 = none */
    std::atomic<double>   started;      /* os_mono_seconds() when it began */
    uint64_t              next_seq;
    double                limit_s;
    OsThread              watchdog;
} g_guard;

/* Every 20 ms: a call running past the limit is interrupted by its own number, so an interrupt that
   arrives after the call returned cannot hit the next one. */
static void *watchdog_main(void *arg)
{
    (void)arg;
    uint64_t interrupted = 0;
    for (;;) {
        os_sleep_ms(20);
        uint64_t seq = g_guard.seq.load();
        double started = g_guard.started.load();
        if (!seq || seq == interrupted || seq != g_guard.seq.load()) continue;
        if (os_mono_seconds() - started > g_guard.limit_s && os_interrupt_guarded_call(seq)) interrupted = seq;
    }
    return NULL;
}

void guard_init(double watchdog_s)
{
    g_guard.limit_s = watchdog_s;
    os_fault_init();
    os_thread_start(&g_guard.watchdog, watchdog_main, NULL);
}

int guard_run(GuardWhat what, void (*fn)(void *), void *arg)
{
    static OsFault fault;
    uint64_t seq = ++g_guard.next_seq;
    g_guard.started.store(os_mono_seconds());
    g_guard.seq.store(seq);
    int crashed = os_guarded_call(fn, arg, seq, &fault);
    g_guard.seq.store(0);
    if (crashed) {
        g_guard_report.what = what;
        g_guard_report.fault = fault;
    }
    return crashed;
}

const char *guard_fault_name(void) { return os_fault_name(g_guard_report.fault.kind); }

/* Turns the captured return addresses inside the game library into "function (file:line)". */
void guard_describe_backtrace(const char *lib_path, char *out, size_t cap)
{
    out[0] = 0;
    OsRange ranges[16];
    int count = os_mapped_ranges(lib_path, ranges, 16);
    uintptr_t base = 0;
    for (int r = 0; r < count; r++) if (ranges[r].file_offset == 0 && !base) base = ranges[r].lo;
    size_t len = 0;
    const OsFault *f = &g_guard_report.fault;
    for (int i = 0; i < f->bt_count && len + 200 < cap; i++) {
        uintptr_t pc = (uintptr_t)f->bt[i];
        int inside = 0;
        for (int r = 0; r < count; r++) inside |= pc >= ranges[r].lo && pc < ranges[r].hi;
        if (!inside || !base) continue;
        /* return addresses point after the call; step back into it (the faulting frame is exact) */
        unsigned long off = (unsigned long)(pc - base - (len ? 1 : 0));
        char addr[32], text[600];
        snprintf(addr, sizeof addr, "0x%lx", off);
        const char *argv[] = { "addr2line", "-f", "-C", "-s", "-e", lib_path, addr, NULL };
        char fn[256] = "?", where[256] = "?";
        if (os_run(argv, text, sizeof text, 5.0) == 0) {
            char *nl = strchr(text, '\n');
            if (nl) {
                *nl = 0;
                snprintf(fn, sizeof fn, "%s", text);
                snprintf(where, sizeof where, "%s", nl + 1);
                where[strcspn(where, "\n")] = 0;
            }
        }
        int w = snprintf(out + len, cap - len, "%s%s (%s)", len ? " <- " : "", fn, where);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
}
