/* guard.cpp - running library code guarded: a fault inside the call, or a call the watchdog finds
   running longer than --watchdog seconds, returns here (1) instead of ending the host. Nothing else.
   The OS side (handlers, the jump, the interrupt that carries the call's number) is in os_linux.cpp
   (os_win32_guard.cpp on Windows). */
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
    std::atomic<double>   held_at_start; /* `held` when it began */
    std::atomic<double>   held;         /* seconds the whole process was held (debugger, SIGSTOP) */
    uint64_t              next_seq;
    double                limit_s;
    double                started_watching;   /* os_mono_seconds() in guard_init: a thread that starts late
                                                 still sees a stop that came before its first sleep */
    OsThread              watchdog;
} g_watchdog;

/* An oversleep of the watchdog's own sleep longer than this means every thread of the process was held: a
   debugger's breakpoint (all-stop), SIGSTOP, a suspended laptop - holds of seconds. Shorter ones are the
   scheduler's on a loaded machine, when the step may well have been running, and count (at 0.05 s a
   loaded 2-core machine lost half the watchdog's interrupts of a 0.05 s limit to "held" time). */
static const double HELD_MIN_S = 0.25;

/* Every 20 ms (or a quarter of the limit): a call running past the limit is interrupted by its own number, so an interrupt that
   arrives after the call returned cannot hit the next one. Time the process was held is nobody's step: it is
   kept in `held` and left out of a call's running time. A call blocked in a system call is not held (this
   thread runs on) and counts. */
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
    g_watchdog.seq.store(seq);
    int crashed = os_guarded_call(fn, arg, seq, &fault);
    g_watchdog.seq.store(0);
    if (crashed) {
        g_guard_report.what = what;
        g_guard_report.fault = fault;
    }
    return crashed;
}

const char *guard_fault_name(void) { return os_fault_name(g_guard_report.fault.kind); }

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
        /* return addresses point after the call; step back into it (the faulting frame is exact) */
        char fn[256], where[300];
        os_describe_code(lib_path, base, pc - (len ? 1 : 0), fn, sizeof fn, where, sizeof where);
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

void guard_service_enter(void) { os_guard_service_enter(); }
void guard_service_leave(void) { os_guard_service_leave(); }

#define SERVICE_CALL(expr) do { os_guard_service_enter(); expr; os_guard_service_leave(); } while (0)

static int64_t svc_read_file(const char *path, void *dst, int64_t cap)
{
    int64_t r;
    SERVICE_CALL(r = g_real_services.read_file(path, dst, cap));
    return r;
}
static double svc_time_seconds(void) { double r; SERVICE_CALL(r = g_real_services.time_seconds()); return r; }
static void svc_draw_sprite(const GameSprite *sp) { SERVICE_CALL(g_real_services.draw_sprite(sp)); }
static void svc_draw_rect(float x, float y, float w, float h, uint32_t color, int layer)
{
    SERVICE_CALL(g_real_services.draw_rect(x, y, w, h, color, layer));
}
static float svc_draw_text(const char *utf8, float x, float y, float px, uint32_t color, int layer)
{
    float r;
    SERVICE_CALL(r = g_real_services.draw_text(utf8, x, y, px, color, layer));
    return r;
}
static void svc_measure_text(const char *utf8, float px, float *w, float *h) { SERVICE_CALL(g_real_services.measure_text(utf8, px, w, h)); }
static int svc_sprite_size(uint32_t sprite, float *w, float *h) { int r; SERVICE_CALL(r = g_real_services.sprite_size(sprite, w, h)); return r; }
static void svc_set_camera(float x, float y, float zoom) { SERVICE_CALL(g_real_services.set_camera(x, y, zoom)); }
static void svc_tweak(const char *file, int line, int counter, int kind, const char *literal, void *value_inout)
{
    SERVICE_CALL(g_real_services.tweak(file, line, counter, kind, literal, value_inout));
}

static PLATFORM_SOUND_PLAY(svc_sound_play) { uint32_t r; SERVICE_CALL(r = g_real_services.sound_play(sound_id, how)); return r; }
static PLATFORM_SOUND_STOP(svc_sound_stop) { SERVICE_CALL(g_real_services.sound_stop(handle, fade_s)); }
static PLATFORM_SOUND_SET(svc_sound_set) { SERVICE_CALL(g_real_services.sound_set(handle, volume, pan, pitch)); }
static PLATFORM_SOUND_PLAYING(svc_sound_playing) { int r; SERVICE_CALL(r = g_real_services.sound_playing(handle)); return r; }
static PLATFORM_SOUND_BUS(svc_sound_bus) { SERVICE_CALL(g_real_services.sound_bus(bus, volume, fade_s)); }
static PLATFORM_SOUND_NAME(svc_sound_name) { SERVICE_CALL(g_real_services.sound_name(sound_name)); }

static int svc_save(const char *name, const void *data, int64_t size) { int r; SERVICE_CALL(r = g_real_services.save(name, data, size)); return r; }
static int64_t svc_load(const char *name, void *dst, int64_t cap) { int64_t r; SERVICE_CALL(r = g_real_services.load(name, dst, cap)); return r; }
static void svc_set_title(const char *utf8) { SERVICE_CALL(g_real_services.set_title(utf8)); }
static void svc_quit(void) { SERVICE_CALL(g_real_services.quit()); }

void guard_wrap_services(PlatformAPI *pf)
{
    g_real_services = *pf;
    if (pf->read_file) pf->read_file = svc_read_file;
    if (pf->time_seconds) pf->time_seconds = svc_time_seconds;
    if (pf->draw_sprite) pf->draw_sprite = svc_draw_sprite;
    if (pf->draw_rect) pf->draw_rect = svc_draw_rect;
    if (pf->draw_text) pf->draw_text = svc_draw_text;
    if (pf->measure_text) pf->measure_text = svc_measure_text;
    if (pf->sprite_size) pf->sprite_size = svc_sprite_size;
    if (pf->set_camera) pf->set_camera = svc_set_camera;
    if (pf->tweak) pf->tweak = svc_tweak;
    if (pf->sound_play) pf->sound_play = svc_sound_play;
    if (pf->sound_stop) pf->sound_stop = svc_sound_stop;
    if (pf->sound_set) pf->sound_set = svc_sound_set;
    if (pf->sound_playing) pf->sound_playing = svc_sound_playing;
    if (pf->sound_bus) pf->sound_bus = svc_sound_bus;
    if (pf->sound_name) pf->sound_name = svc_sound_name;
    if (pf->save) pf->save = svc_save;
    if (pf->load) pf->load = svc_load;
    if (pf->set_title) pf->set_title = svc_set_title;
    if (pf->quit) pf->quit = svc_quit;
}
