/* restart.cpp - the session outlives the process. The game's block, the rollback snapshot and what the
   host needs to go on (the restart count and the fault here; the modules' slices and the areas they reserved,
   which it places without knowing what they hold) live in one shared memory object (a memfd), kept current as
   plain data at all times. When continuing is unsafe -
   a fault or watchdog stop inside the C library or the loader, a fault on another thread or in the host's
   own code, a static destructor that crashed, unloaded libraries piling up, a frame loop that stopped -
   the host re-executes itself with the memfd handed over: nothing is saved at fault time (the heap may be
   locked or corrupt). The new process maps the block at the same address, reloads the last good library
   (or the running one), restores the snapshot when the code was at fault, and goes on.
   What is kept, when to restart and the limit live here, once; the mechanism is os.h's os_session_*
   (Linux: a memfd and execve; Windows: a paging-file section and CreateProcess, see docs/hot_restart.md). */
#include "session.h"

#include <atomic>
#include <stdlib.h>
#include <string.h>

#if !defined(HOST_RELEASE)

#define SESSION_MAGIC        0x32736e6f69737365ull   /* "essions2" */
#define SESSION_HEADER_BYTES (64u << 10)
#define SESSION_ENV          "ENGINE_SESSION_FD"
#define SESSION_BLOCK_AT     0x200000000000ull       /* the block's fixed address (the header sits below it) */
#define RESTART_LIMIT        3                        /* hot restarts within RESTART_WINDOW_S stop the host */
#define RESTART_WINDOW_S     60.0
#define SESSION_AREAS        8                        /* the named areas past the block and its snapshot */
#define SESSION_AREA_ALIGN   4096ull

typedef struct SessionArea {            /* restart_reserve: bytes of the session a module keeps, found by name */
    char     name[32];
    uint64_t offset, bytes;             /* from the header's start */
    uint64_t used;                      /* how much of it is in use (what a renewed session copies) */
} SessionArea;

typedef struct SessionHeader {
    uint64_t magic, header_bytes, block_bytes, total_bytes;
    uint64_t base;                          /* where the mapping (this header) sits */
    double   start_mono;                    /* the first process's start: event times go on from it */
    /* restarts */
    uint32_t restarts;
    double   restart_mono[RESTART_LIMIT];   /* the most recent ones, oldest first */
    int      pending;                       /* RESTART_* of the restart in progress */
    int      what;                          /* the GuardWhat running at the fault (-1: none) */
    char     reason[256];                   /* planned restarts: why */
    OsUnsafeFault fault;                    /* fault restarts: what happened */
    int      unload_failures;               /* unloaded libraries still mapped in this process */
    int      restoring;                     /* the fault hit while the host wrote a snapshot back */
    uint32_t area_count;                    /* the areas the modules reserved, after the rollback snapshot */
    SessionArea areas[SESSION_AREAS];
} SessionHeader;
/* the modules' slices (core.h, session_slice) follow the header in its space */
#define SESSION_SLICES_AT ((sizeof(SessionHeader) + 63) & ~(size_t)63)
static_assert(SESSION_SLICES_AT + 4096 <= SESSION_HEADER_BYTES, "the session header outgrew its space");

static void attach_slices(SessionHeader *h, int kept)
{
    session_slices_attach((uint8_t *)h + SESSION_SLICES_AT, SESSION_HEADER_BYTES - SESSION_SLICES_AT, kept);
}

/* header | block | rollback snapshot | the reserved areas in the order they were asked for: their places, and the
   session's size */
static uint64_t session_lay_out(uint64_t block, SessionArea *areas, uint32_t count)
{
    uint64_t at = SESSION_HEADER_BYTES + 2 * block;
    for (uint32_t i = 0; i < count; i++) {
        areas[i].offset = at;
        at += (areas[i].bytes + SESSION_AREA_ALIGN - 1) & ~(SESSION_AREA_ALIGN - 1);
    }
    return at;
}

enum { RESTART_NONE, RESTART_KEEP, RESTART_ROLLBACK };

static struct {
    SessionHeader       *h;
    int64_t              handle;
    int                  inherited;          /* this process was handed a session (kept or not) */
    int                  restarted;          /* this process is a hot restart that kept the session */
    int                  enabled;            /* hot restarts armed (after start) */
    char                 fresh_reason[512];  /* an inherited session that could not be used */
    char                 planned[256];       /* a planned restart at the end of this frame */
    std::atomic<double>  heartbeat;          /* os_mono_seconds() of the last frame */
    std::atomic<int>     in_restart;
    volatile int         restoring;          /* restart_restoring: a snapshot is being written back */
    double               stall_s;
    int                  first_frame_told;
    SessionArea          asked[SESSION_AREAS];   /* restart_reserve, before the session is created or taken on */
    uint32_t             asked_count;
    uint32_t             prev_restarts;      /* a session that could not be mapped: its restart history */
    double               prev_restart_mono[RESTART_LIMIT];
} g_session;

/* ---------------------------------------------------------------- async-signal-safe bits */
static void say(const char *s) { os_write_stderr(s); }

static void restart_exec(int mode, double at)
{
    SessionHeader *h = g_session.h;
    if (!h || !g_session.enabled) return;
    /* The host was asked to quit (a signal, the window closed, --frames ran out): a new process would undo that.
       What stopped it now - the game's static destructors slow inside the loader on a busy machine, a shutdown
       that stalled - ends the process, as the quit would have. */
    if (frame_loop()->quit) {
        say("host: quitting: a hang or a fault while the host quit; it ends here instead of restarting\n");
        _Exit(0);
    }
    if (g_session.in_restart.exchange(1)) { for (;;) os_sleep_ms(1000); }   /* another thread is restarting */
    h->pending = mode;
    h->fault.mono = at;
    say("host: restarting the process to recover; the game state is kept\n");
    os_session_exec();
    say("host: the restart failed\n");
    g_session.in_restart.store(0);
}

/* In the signal handler: no locks, no allocation, no stdio. */
static void on_unsafe_fault(const OsUnsafeFault *f)
{
    SessionHeader *h = g_session.h;
    if (!h || !g_session.enabled) return;
    int what = f->guarded ? guard_current() : -1;
    int mode = RESTART_KEEP;
    if (f->where == OS_UNSAFE_THREAD) mode = f->game_thread ? RESTART_ROLLBACK : RESTART_KEEP;
    else if (f->guarded && what != GUARD_OPEN && what != GUARD_GET_API && what != GUARD_UNLOAD) mode = RESTART_ROLLBACK;
    /* the host's own code faulted while it wrote a snapshot back (a rollback): game code made the block or the
       snapshot unreadable before it crashed. Keep mode would load that library again, which does it again. */
    else if (g_session.restoring) mode = RESTART_ROLLBACK;
    h->restoring = g_session.restoring;
    h->fault = *f;
    h->what = what;
    h->reason[0] = 0;
    restart_exec(mode, f->mono);
}

/* ---------------------------------------------------------------- opening the session */
static void append(char *out, size_t cap, const char *s)
{
    size_t n = strlen(out);
    while (*s && n + 1 < cap) out[n++] = *s++;
    out[n] = 0;
}

int restart_open(int argc, char **argv)
{
    os_signals_reset();
    g_session.handle = os_session_inherited(SESSION_ENV);
    if (g_session.handle < 0) return 1;
    g_session.inherited = 1;
    os_close_inherited(g_session.handle);   /* the previous image's files, sockets and display connection */
    static SessionHeader peek;
    if (!os_session_read(g_session.handle, &peek, sizeof peek) || peek.magic != SESSION_MAGIC ||
        peek.header_bytes != SESSION_HEADER_BYTES || peek.area_count > SESSION_AREAS ||
        peek.total_bytes < SESSION_HEADER_BYTES + 2 * peek.block_bytes) {
        snprintf(g_session.fresh_reason, sizeof g_session.fresh_reason,
                 "the previous process's memory is not a session of this host");
    } else {
        /* a fresh state still counts its restarts: a fault that keeps coming back must not loop */
        g_session.prev_restarts = peek.restarts;
        memcpy(g_session.prev_restart_mono, peek.restart_mono, sizeof peek.restart_mono);
        void *p = os_session_attach(g_session.handle, peek.total_bytes, (uintptr_t)peek.base);
        if (!p)
            snprintf(g_session.fresh_reason, sizeof g_session.fresh_reason,
                     "its block cannot be mapped at the same address: %s", os_error_text());
        else g_session.h = (SessionHeader *)p;
    }
    if (!g_session.h) {
        os_session_close(g_session.handle, NULL, 0);
        g_session.handle = -1;
        return 1;
    }
    g_session.restarted = 1;
    attach_slices(g_session.h, 1);
    (void)argc; (void)argv;
    return 1;
}

int    restart_is_restart(void) { return g_session.inherited; }
double restart_start_mono(void) { return g_session.h ? g_session.h->start_mono : 0; }

void restart_reserve(const char *name, uint64_t bytes)
{
    uint32_t i = 0;
    while (i < g_session.asked_count && strncmp(g_session.asked[i].name, name, sizeof g_session.asked[i].name)) i++;
    if (i == SESSION_AREAS) return;   /* more kinds of kept areas than the header has room for: not kept */
    if (i == g_session.asked_count) g_session.asked_count++;
    snprintf(g_session.asked[i].name, sizeof g_session.asked[i].name, "%s", name);
    g_session.asked[i].bytes = bytes;
}

/* The session handed over holds the block and the areas this process asks for, at the same places; "" if so. */
static void kept_session_misfits(uint64_t bytes, char *why, size_t cap)
{
    const SessionHeader *h = g_session.h;
    SessionArea want[SESSION_AREAS];
    memcpy(want, g_session.asked, sizeof want);
    uint64_t total = session_lay_out(bytes, want, g_session.asked_count);
    int same = h->area_count == g_session.asked_count && h->total_bytes == total;
    for (uint32_t i = 0; same && i < g_session.asked_count; i++)
        same = !strncmp(h->areas[i].name, want[i].name, sizeof want[i].name) && h->areas[i].bytes == want[i].bytes &&
               h->areas[i].offset == want[i].offset;
    why[0] = 0;
    if (h->block_bytes != bytes)
        snprintf(why, cap, "its block is %llu MB, this process asks for %llu MB",
                 (unsigned long long)(h->block_bytes >> 20), (unsigned long long)(bytes >> 20));
    else if (!same) snprintf(why, cap, "the areas it keeps are not the ones this process asks for");
}

int restart_memory(uint64_t bytes, uint8_t **block, uint8_t **snapshot)
{
    if (g_session.h) kept_session_misfits(bytes, g_session.fresh_reason, sizeof g_session.fresh_reason);
    if (g_session.h && g_session.fresh_reason[0]) {
        g_session.prev_restarts = g_session.h->restarts;
        memcpy(g_session.prev_restart_mono, g_session.h->restart_mono, sizeof g_session.prev_restart_mono);
        os_session_close(g_session.handle, g_session.h, g_session.h->total_bytes);
        g_session.h = NULL;
        g_session.handle = -1;
        g_session.restarted = 0;
    }
    if (!g_session.h) {
        uint64_t total = session_lay_out(bytes, g_session.asked, g_session.asked_count);
        void *p = os_session_create(total, (uintptr_t)(SESSION_BLOCK_AT - SESSION_HEADER_BYTES), &g_session.handle);
        if (!p) return 0;
        SessionHeader *h = (SessionHeader *)p;
        memset(h, 0, sizeof *h);
        h->magic = SESSION_MAGIC;
        h->header_bytes = SESSION_HEADER_BYTES;
        h->block_bytes = bytes;
        h->total_bytes = total;
        h->base = (uint64_t)(uintptr_t)p;
        h->start_mono = os_mono_seconds();
        h->what = -1;
        h->area_count = g_session.asked_count;
        memcpy(h->areas, g_session.asked, sizeof h->areas);
        h->restarts = g_session.prev_restarts;
        memcpy(h->restart_mono, g_session.prev_restart_mono, sizeof h->restart_mono);
        g_session.h = h;
        attach_slices(h, 0);
    }
    *block = (uint8_t *)g_session.h + SESSION_HEADER_BYTES;
    *snapshot = *block + bytes;
    return 1;
}

/* After the services are up: arms the restart and, in a restarted process, says why it happened and stops
   a loop of them. 0: the host must stop (the message is out). */
int restart_arm(int argc, char **argv)
{
    SessionHeader *h = g_session.h;
    if (g_session.fresh_reason[0]) {
        log_message(LOG_ERROR, "hot restart: the game state starts fresh: %s", g_session.fresh_reason);
        notice_post(LOG_ERROR, "The host restarted itself but could not keep your game state: %s",
                    g_session.fresh_reason);
        char esc[1024];
        parse_json_escape(g_session.fresh_reason, esc, sizeof esc);
        log_event("hot_restart", "\"kept\":false,\"reason\":\"%s\"", esc);
    }
    if (!h) return 1;
    if (g_session.inherited) {
        double now = os_mono_seconds();
        int recent = 1;
        for (int i = 0; i < RESTART_LIMIT; i++)
            if (h->restart_mono[i] > 0 && now - h->restart_mono[i] < RESTART_WINDOW_S) recent++;
        memmove(h->restart_mono, h->restart_mono + 1, sizeof(double) * (RESTART_LIMIT - 1));
        h->restart_mono[RESTART_LIMIT - 1] = now;
        h->restarts++;
        if (recent >= RESTART_LIMIT) {
            char why[512];
            restart_reason(why, sizeof why);
            log_message(LOG_ERROR,
                        "hot restart: %d restarts within %.0f s (the last to recover from %s): stopping instead of "
                        "looping. Fix the cause and start the host again; the game state is in the last save only",
                        recent, RESTART_WINDOW_S, why);
            char esc[1024];
            parse_json_escape(why, esc, sizeof esc);
            log_event("hot_restart_loop", "\"restarts\":%d,\"window_s\":%.0f,\"reason\":\"%s\"", recent,
                      RESTART_WINDOW_S, esc);
            return 0;
        }
    }
    h->unload_failures = 0;
    if (!os_session_exec_prepare(g_session.handle, SESSION_ENV, argc, argv)) {
        log_message(LOG_WARN, "hot restart is off: %s", os_error_text());
        return 1;
    }
    g_session.stall_s = 10.0 + 3.0 * options()->watchdog_s;
    os_fault_on_unsafe(on_unsafe_fault);
    g_session.enabled = 1;
    return 1;
}

int restart_pending_mode(void) { return g_session.restarted && g_session.h ? g_session.h->pending : RESTART_NONE; }

/* Why the last restart happened, as a person reads it. */
void restart_reason(char *out, size_t cap)
{
    SessionHeader *h = g_session.h;
    out[0] = 0;
    if (!h) return;
    if (h->reason[0]) { snprintf(out, cap, "%s", h->reason); return; }
    const OsUnsafeFault *f = &h->fault;
    const char *kind = f->kind == OS_FAULT_HANG ? "a hang (watchdog)" : os_fault_name(f->kind);
    if (h->restoring) {
        snprintf(out, cap, "%s in the host's own code while it restored the state after a crash (game code had made "
                 "the block or its snapshot unreadable)", kind);
        return;
    }
    const char *in = h->what >= 0 && h->what <= GUARD_UNLOAD ? GUARD_NAMES[h->what] : "";
    switch (f->where) {
    case OS_UNSAFE_SYSTEM_CODE:
        snprintf(out, cap, "%s inside the C library or the loader, during the game's %s", kind, in); break;
    case OS_UNSAFE_SERVICE:
        snprintf(out, cap, "%s inside a host service the game's %s called", kind, in); break;
    case OS_UNSAFE_THREAD:
        snprintf(out, cap, "%s on a thread %s", kind, f->game_thread ? "the game started" : "of the host"); break;
    default:
        snprintf(out, cap, "%s in the host's own code, outside the game", kind); break;
    }
}

/* ---------------------------------------------------------------- kept current */
void restart_note_library(void)
{
    if (!g_session.h) return;
    uintptr_t lo, hi;
    running_keep(&lo, &hi);      /* the running game's slice, current */
    os_fault_game_code(lo, hi);  /* its code: for the handler (game threads, frames) */
}

void restart_restoring(int on) { g_session.restoring = on; }

/* Once a frame: game code that closed or replaced the session's memfd (close_range, dup2) left a hot restart
   nothing to hand over. A new one gets what is in use: the header, the block's and the snapshot's used parts,
   the used part of each reserved area. */
int restart_session_renew(void)
{
    SessionHeader *h = g_session.h;
    if (!h || g_session.handle < 0) return 0;
    uint64_t H = SESSION_HEADER_BYTES, B = h->block_bytes;
    const Memory *m = memory_state();
    OsSpan keep[2 + SESSION_AREAS] = {
        { 0, H + memory_used() },
        { H + B, m->snapshot_faulted > m->snapshot_used ? m->snapshot_faulted : m->snapshot_used },
    };
    int n = 2;
    for (uint32_t i = 0; i < h->area_count && i < SESSION_AREAS; i++)
        keep[n++] = OsSpan{ h->areas[i].offset, h->areas[i].used };
    int r = os_session_renew(g_session.handle, h, h->total_bytes, keep, n);
    if (r < 0)
        log_message(LOG_ERROR, "hot restart: cannot re-create the session's memory: %s; a restart would start fresh",
                    os_error_text());
    return r != 0;
}

void restart_note_unload_failed(void)
{
    SessionHeader *h = g_session.h;
    if (!h) return;
    if (++h->unload_failures >= 3) {
        char why[160];
        snprintf(why, sizeof why, "%d unloaded game libraries still mapped (the loader cannot free them)",
                 h->unload_failures);
        restart_request(why);
    }
}

/* Once per frame, at its end: the step and the game's high-water mark, and a heartbeat for the stall check. */
void restart_note_frame(void)
{
    SessionHeader *h = g_session.h;
    if (!h) return;
    frame_keep();    /* the step and frame, and how much of the block is in use: their owners' slices */
    memory_keep();
    g_session.heartbeat.store(os_mono_seconds());
    if (g_session.restarted && !g_session.first_frame_told) {
        g_session.first_frame_told = 1;
        log_event("hot_restart_frame", "\"since_fault_ms\":%.1f", (os_mono_seconds() - h->fault.mono) * 1000.0);
    }
}

static SessionArea *area_named(const char *name)
{
    SessionHeader *h = g_session.h;
    for (uint32_t i = 0; h && i < h->area_count && i < SESSION_AREAS; i++)
        if (!strncmp(h->areas[i].name, name, sizeof h->areas[i].name)) return &h->areas[i];
    return NULL;
}

uint8_t *restart_area(const char *name, uint64_t *cap)
{
    SessionArea *a = area_named(name);
    if (cap) *cap = a ? a->bytes : 0;
    return a ? (uint8_t *)g_session.h + a->offset : NULL;
}

void restart_area_used(const char *name, uint64_t used)
{
    SessionArea *a = area_named(name);
    if (a) a->used = used < a->bytes ? used : a->bytes;
}

/* ---------------------------------------------------------------- planned restarts and the stall check */
void restart_request(const char *reason)
{
    if (!g_session.h || g_session.planned[0]) return;
    snprintf(g_session.planned, sizeof g_session.planned, "%s", reason);
    log_message(LOG_WARN, "hot restart planned at the end of this frame: %s", reason);
}

int restart_requested(void) { return g_session.planned[0] != 0 && g_session.enabled; }

void restart_now(void)
{
    SessionHeader *h = g_session.h;
    if (!h || !g_session.enabled) return;
    restart_note_frame();
    h->what = -1;
    h->restoring = 0;
    memset(&h->fault, 0, sizeof h->fault);
    snprintf(h->reason, sizeof h->reason, "%s", g_session.planned);
    char esc[600];
    parse_json_escape(g_session.planned, esc, sizeof esc);
    log_event("hot_restart_begin", "\"reason\":\"%s\"", esc);
    log_drain_game();
    restart_exec(RESTART_KEEP, os_mono_seconds());
    g_session.planned[0] = 0;
}

/* From the watchdog's thread: a frame loop that has not finished a frame for stall_s seconds (a handler
   that deadlocked, a host service blocked for good, a loop in host code) restarts the process. No locks:
   the main thread may hold them. `running_guarded`: a guarded call is in progress (its code is the cause). */
void restart_check_stall(int running_guarded)
{
    static double last_tick;
    if (!g_session.enabled) return;
    double now = os_mono_seconds(), beat = g_session.heartbeat.load();
    /* the whole process was stopped (a debugger, Ctrl-Z): the frame loop was not stalled */
    if (last_tick > 0 && now - last_tick > 1.0) { last_tick = now; g_session.heartbeat.store(now); return; }
    last_tick = now;
    if (beat <= 0 || now - beat < g_session.stall_s) return;
    SessionHeader *h = g_session.h;
    int what = running_guarded ? guard_current() : -1;
    h->what = what;
    memset(&h->fault, 0, sizeof h->fault);
    h->fault.kind = OS_FAULT_HANG;
    char secs[16];
    int s = (int)(now - beat);
    int i = (int)sizeof secs;
    secs[--i] = 0;
    do { secs[--i] = (char)('0' + s % 10); s /= 10; } while (s && i > 0);
    h->reason[0] = 0;
    append(h->reason, sizeof h->reason, "the frame loop stalled for ");
    append(h->reason, sizeof h->reason, secs + i);
    append(h->reason, sizeof h->reason, running_guarded ? " s inside a call into the game that could not be stopped"
                                                        : " s in the host's own code");
    h->restoring = g_session.restoring;
    restart_exec((running_guarded && what != GUARD_OPEN && what != GUARD_GET_API && what != GUARD_UNLOAD) ||
                         g_session.restoring
                     ? RESTART_ROLLBACK
                     : RESTART_KEEP,
                 now);
}

/* ---------------------------------------------------------------- going on after a restart */
/* In a restarted process, in place of reload_start: the state, the step and the libraries as they were. */
void restart_resume(void (*resume)(const RestartResume *r))
{
    SessionHeader *h = g_session.h;
    int mode = h->pending;
    h->pending = RESTART_NONE;
    frame_resume();
    memory_resume();
    char why[512];
    restart_reason(why, sizeof why);
    RestartResume r;
    memset(&r, 0, sizeof r);
    running_kept(&r.run);
    char where[1500];
    running_describe_frames(&r.run, h->fault.frames, h->fault.frame_count, where, sizeof where);
    r.rollback = mode == RESTART_ROLLBACK;
    r.what = h->what;
    r.signal = h->fault.kind == OS_FAULT_HANG ? "hang" : os_fault_name(h->fault.kind);
    r.reason = why;
    r.where = where;
    r.restarts = (int)h->restarts;
    r.since_fault_ms = (os_mono_seconds() - h->fault.mono) * 1000.0;
    r.step = frame_loop()->step;
    resume(&r);
    restart_note_library();
    memory_keep();
    char note[600];
    snprintf(note, sizeof note, "the host restarted itself to recover from %s; your game state was kept", why);
    notice_post(LOG_WARN, "%s", note);
    log_message(LOG_WARN, "%s", note);
}

#else /* a release: no hot restart; the block and the snapshot are private memory */

int    restart_open(int argc, char **argv) { (void)argc; (void)argv; return 1; }
int    restart_is_restart(void) { return 0; }
double restart_start_mono(void) { return 0; }
int restart_memory(uint64_t bytes, uint8_t **block, uint8_t **snapshot)
{
    /* a fixed address where the OS allows it; anywhere otherwise */
    *block = (uint8_t *)os_reserve(bytes, (uintptr_t)0x200000000000ull);
    *snapshot = *block ? (uint8_t *)os_reserve(bytes, 0) : NULL;
    return *block && *snapshot;
}
int    restart_arm(int argc, char **argv) { (void)argc; (void)argv; return 1; }
int    restart_pending_mode(void) { return 0; }
void   restart_resume(void (*resume)(const RestartResume *r)) { (void)resume; }
void   restart_reason(char *out, size_t cap) { if (cap) out[0] = 0; }
void   restart_note_library(void) {}
void   restart_restoring(int on) { (void)on; }
int    restart_session_renew(void) { return 0; }
void   restart_note_unload_failed(void) {}
void   restart_note_frame(void) {}
void   restart_request(const char *reason) { (void)reason; }
int    restart_requested(void) { return 0; }
void   restart_now(void) {}
void   restart_check_stall(int running_guarded) { (void)running_guarded; }
void     restart_reserve(const char *name, uint64_t bytes) { (void)name; (void)bytes; }
uint8_t *restart_area(const char *name, uint64_t *cap) { (void)name; if (cap) *cap = 0; return NULL; }
void     restart_area_used(const char *name, uint64_t used) { (void)name; (void)used; }

#endif
