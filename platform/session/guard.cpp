/* guard.cpp - running library code guarded: a fault inside the call, or a call the watchdog finds
   running longer than --watchdog seconds, returns here (1) instead of ending the host. Nothing else.
   The OS side (handlers, the jump, the interrupt that carries the call's number) is in os_linux.cpp
   (os_win32_guard.cpp on Windows). */
#include "session.h"

#include <atomic>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

const char *const GUARD_NAMES[] = { "load", "update", "render", "migrate", "stats", "static initializers",
                                     "game_get_api", "static destructors" };

static GuardReport g_guard_report;

const GuardReport *guard_report(void) { return &g_guard_report; }

static struct {
    std::atomic<uint64_t> seq;          /* the guarded call running now; 0 = none */
    std::atomic<double>   started;      /* os_mono_seconds() when it began */
    std::atomic<double>   held_at_start; /* `held` when it began */
    std::atomic<double>   held;         /* seconds the whole process was held (debugger, SIGSTOP) */
    uint64_t              next_seq;
    double                limit_s;
    double                started_watching;   /* os_mono_seconds() in guard_init: a thread that starts late
                                                 still sees a stop that came before its first sleep */
    OsThread              watchdog;
    std::atomic<int>      what;         /* GuardWhat of the call running now */
} g_watchdog;

GuardWhat guard_current(void) { return (GuardWhat)g_watchdog.what.load(); }

/* An oversleep of the watchdog's own sleep longer than this means every thread of the process was held: a
   debugger's breakpoint (all-stop), SIGSTOP, a suspended laptop - holds of seconds. Shorter ones are the
   scheduler's on a loaded machine, when the step may well have been running, and count (at 0.05 s a
   loaded 2-core machine lost half the watchdog's interrupts of a 0.05 s limit to "held" time). */
static const double HELD_MIN_S = 0.25;

/* Every 20 ms (or a quarter of the limit): a call running past the limit is interrupted by its own number, so an
   interrupt that arrives after the call returned cannot hit the next one. Time the process was held is nobody's step:
   it is kept in `held` and left out of a call's running time. A call blocked in a system call is not held (this thread
   runs on) and counts. */
static void *watchdog_main(void *arg)
{
    (void)arg;
    uint64_t interrupted = 0, told = 0;
    int poll_ms = (int)(g_watchdog.limit_s * 1000 / 4);
    poll_ms = poll_ms < 1 ? 1 : poll_ms > 20 ? 20 : poll_ms;
    double woke = g_watchdog.started_watching;
    for (;;) {
        os_sleep_ms(poll_ms);
        double now = os_mono_seconds(), over = now - woke - poll_ms / 1000.0;
        woke = now;
        if (over > HELD_MIN_S) g_watchdog.held.store(g_watchdog.held.load() + over);
        uint64_t seq = g_watchdog.seq.load();
        restart_check_stall(seq != 0);
        double started = g_watchdog.started.load(), held = g_watchdog.held.load() - g_watchdog.held_at_start.load();
        if (!seq || seq == interrupted || seq != g_watchdog.seq.load()) continue;
        double running = now - started - held;
        if (running <= g_watchdog.limit_s) continue;
        if (os_interrupt_guarded_call(seq)) interrupted = seq;
        else if (seq == g_watchdog.seq.load() && seq != told) {
            /* still running and not interruptible (Windows: blocked inside a system call); stdio, not
               the host log: this is the watchdog's thread */
            fprintf(stderr, "host: watchdog: the step has run %.1f s and cannot be interrupted: %s\n",
                    running, os_error_text());
            told = seq;
        }
    }
    return NULL;
}

void guard_init(double watchdog_s)
{
    g_watchdog.limit_s = watchdog_s;
    os_fault_init();
    g_watchdog.started_watching = os_mono_seconds();
    if (watchdog_s > 0) os_thread_start(&g_watchdog.watchdog, watchdog_main, NULL);   /* --watchdog 0: off */
}

int guard_run(GuardWhat what, void (*fn)(void *), void *arg)
{
    static OsFault fault;
    uint64_t seq = ++g_watchdog.next_seq;
    g_watchdog.held_at_start.store(g_watchdog.held.load());
    g_watchdog.started.store(os_mono_seconds());
    g_watchdog.what.store((int)what);
    g_watchdog.seq.store(seq);
    int zone_depth = profile_guard_enter();
    int crashed = os_guarded_call(fn, arg, seq, &fault);
    profile_guard_leave(zone_depth);   /* the game's zones a jump (or a missing end) left open */
    g_watchdog.seq.store(0);
    if (crashed) {
        g_guard_report.what = what;
        g_guard_report.fault = fault;
    }
    return crashed;
}

/* ---------------------------------------------------------------- game code that ends the process */
/* The game library is linked with --wrap=exit,_exit,_Exit,quick_exit (build.sh): its calls come here, to
   the host's exported __wrap_* (the executable exports them), and are a crash of that library like any
   fault: rolled back, the message naming the call ("exit(0)") and the line that made it. A harness would
   otherwise read exit 0 as a normal quit and the session would be gone. */
static void game_exit_call(const char *name, int code, void *caller)
{
    os_guard_name_call("%s(%d)", name, code);
    os_guard_game_exit(caller);
    /* nothing could take it (no guard, no restart): end as asked, but say who asked */
    fprintf(stderr, "host: the game called %s outside any guarded call; the host ends (exit code 70)\n",
            os_guard_called());
    _Exit(70);
}

extern "C" {
__attribute__((visibility("default"), noinline)) void __wrap_exit(int code)
{
    game_exit_call("exit", code, __builtin_return_address(0));
}
__attribute__((visibility("default"), noinline)) void __wrap__exit(int code)
{
    game_exit_call("_exit", code, __builtin_return_address(0));
}
__attribute__((visibility("default"), noinline)) void __wrap__Exit(int code)
{
    game_exit_call("_Exit", code, __builtin_return_address(0));
}
__attribute__((visibility("default"), noinline)) void __wrap_quick_exit(int code)
{
    game_exit_call("quick_exit", code, __builtin_return_address(0));
}
}

/* close() in game code (also --wrap): a descriptor the host holds (its window's connection, the audio's pipes,
   the logs, the watcher) would leave the host polling a dead descriptor or writing into whatever file takes
   its number next. Inside a guarded call it is a crash of the library, rolled back like exit(); on a thread
   the game started it is refused (EBADF-like -1). Any other descriptor is the game's to close. */
extern "C" __attribute__((visibility("default"), noinline)) int __wrap_close(int fd)
{
    if (!os_fd_is_host(fd)) return os_fd_close(fd);
    os_guard_name_call("close(%d) of a host descriptor", fd);
    if (os_guard_in_call()) os_guard_game_exit(__builtin_return_address(0));
    return -1;
}

const char *guard_fault_name(void)
{
    if (g_guard_report.fault.kind == OS_FAULT_EXIT && os_guard_called()[0]) return os_guard_called();
    return os_fault_name(g_guard_report.fault.kind);
}

/* Turns the captured return addresses inside the game library into "function (file:line)" (os_describe_code). */
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
        /* return addresses point after the call; step back into it (the interrupted instruction itself is
           exact: stepping back from it could name the code laid out before it, another function's line) */
        char fn[256], where[300];
        int exact = !len || pc == (uintptr_t)f->pc;
        os_describe_code(lib_path, base, pc - (exact ? 0 : 1), fn, sizeof fn, where, sizeof where);
        int w = snprintf(out + len, cap - len, "%s%s (%s)", len ? " <- " : "", fn, where);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
}

/* ---------------------------------------------------------------- services called from guarded code */
/* A watchdog interrupt never lands inside a host service: a jump out of it could strand a lock it holds
   (stdio, malloc, the locale). The service finishes, then the call is interrupted. pf->log and
   pf->event do the same inside log.cpp (they take varargs). */
static PlatformAPI g_real_services;


/* enter, the service, leave: a deferred interrupt jumps in leave, once the service has returned */
template <typename F> static auto service_call(F call) -> decltype(call())
{
    os_guard_service_enter();
    if constexpr (std::is_void_v<decltype(call())>) { call(); os_guard_service_leave(); }
    else { auto r = call(); os_guard_service_leave(); return r; }
}

/* svc_<name> for each X entry of PLATFORM_SERVICES (game_api.h); SELF entries guard themselves */
#define SERVICE_WRAPPER(ret, name, params, args) \
    static ret svc_##name params { return service_call([&] { return g_real_services.name args; }); }
#define SERVICE_SELF(ret, name, params, args)
PLATFORM_SERVICES(SERVICE_WRAPPER, SERVICE_SELF)

int guard_missing_services(const PlatformAPI *pf, char *out, size_t cap)
{
    int missing = 0;
    size_t len = 0;
    out[0] = 0;
#define SERVICE_CHECK(ret, name, params, args) \
    if (!pf->name) { \
        int w = snprintf(out + len, cap - len, "%s%s", missing++ ? ", " : "", #name); \
        if (w > 0) len = len + (size_t)w < cap ? len + (size_t)w : cap - 1; \
    }
    PLATFORM_SERVICES(SERVICE_CHECK, SERVICE_CHECK)
#undef SERVICE_CHECK
    return missing;
}

void guard_wrap_services(PlatformAPI *pf)
{
    char missing[512];
    if (guard_missing_services(pf, missing, sizeof missing))
        log_message(LOG_ERROR, "PlatformAPI: the host filled no function for %s (a game that calls one crashes)",
                    missing);
    g_real_services = *pf;
#define SERVICE_WRAP(ret, name, params, args) if (pf->name) pf->name = svc_##name;
    PLATFORM_SERVICES(SERVICE_WRAP, SERVICE_SELF)
#undef SERVICE_WRAP
}
