/* main.cpp - the persistent host: flags, SDL window and input, the memory block, the fixed-step
   frame loop, live reload policy, crash/hang recovery, snapshots, input recording and the overlay. */
#include "host.h"

#include <SDL.h>

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static Options O;

/* ================================================================ logging and events */
static FILE *g_json, *g_logfile, *g_frame_log;
static double g_t0;
static uint64_t g_frame;

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

double host_time(void) { return mono_seconds() - g_t0; }
const char *host_root(void) { return O.root; }

void host_event(const char *ev, const char *fields_fmt, ...)
{
    if (!g_json) return;
    char fields[16384];
    va_list ap;
    va_start(ap, fields_fmt);
    vsnprintf(fields, sizeof fields, fields_fmt, ap);
    va_end(ap);
    fprintf(g_json, "{\"t\":%.4f,\"wall\":%.4f,\"frame\":%llu,\"ev\":\"%s\"%s%s}\n", host_time(), wall_seconds(),
            (unsigned long long)g_frame, ev, fields[0] ? "," : "", fields);
    fflush(g_json);
}

static const char *LEVEL_NAMES[] = { "debug", "info", "warn", "error" };

static char g_last_error[1024];   /* shown by the overlay */

static void host_vlog(int level, const char *fmt, va_list ap)
{
    if (level < LOG_DEBUG || level > LOG_ERROR) level = LOG_INFO;
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    double t = host_time();
    FILE *con = level >= LOG_WARN ? stderr : stdout;
    fprintf(con, "[%8.3f] %-5s %s\n", t, LEVEL_NAMES[level], msg);
    fflush(con);
    if (g_logfile) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
        fprintf(g_logfile, "%s [%8.3f] %-5s %s\n", stamp, t, LEVEL_NAMES[level], msg);
        fflush(g_logfile);
    }
    if (level == LOG_ERROR) snprintf(g_last_error, sizeof g_last_error, "%s", msg);
    char esc[8192];
    host_json_escape(msg, esc, sizeof esc);
    host_event("log", "\"level\":\"%s\",\"msg\":\"%s\"", LEVEL_NAMES[level], esc);
}

void host_log(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    host_vlog(level, fmt, ap);
    va_end(ap);
}

static void game_log(int level, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    host_log(level, "game: %s", msg);
}

static void game_event(const char *name, const char *fields_json)
{
    char esc[256];
    host_json_escape(name ? name : "", esc, sizeof esc);
    host_event("game", "\"name\":\"%s\"%s%s", esc, fields_json && fields_json[0] ? "," : "", fields_json ? fields_json : "");
}

static int64_t game_read_file(const char *path, void *dst, int64_t cap)
{
    char full[HOST_PATH];
    if (path[0] == '/') snprintf(full, sizeof full, "%s", path);
    else snprintf(full, sizeof full, "%s/%s", O.root, path);
    FILE *f = fopen(full, "rb");
    if (!f) { host_log(LOG_WARN, "read_file: %s: %s", full, strerror(errno)); return -1; }
    int64_t n = (int64_t)fread(dst, 1, (size_t)cap, f);
    fclose(f);
    return n;
}

static double game_time(void) { return host_time(); }

/* ================================================================ memory block */
typedef struct Memory {
    GameMemory game;
    uint8_t   *snapshot;          /* same size as the block, reserved lazily by the OS */
    uint64_t   snapshot_used;     /* 0 = no snapshot */
    uint64_t   snapshot_step;
    uint64_t   snapshot_faulted;  /* bytes of the snapshot area already touched */
} Memory;

static Memory M;

static int memory_init(uint64_t bytes)
{
    /* A fixed address in development keeps pointers inside the block valid across host runs
       (recordings, snapshots); any address works if the OS refuses it. */
    void *want = (void *)(uintptr_t)0x200000000000ull;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_FIXED_NOREPLACE
    void *p = mmap(want, bytes, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
#else
    void *p = mmap(want, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
#endif
    if (p == MAP_FAILED) { host_log(LOG_ERROR, "memory: cannot reserve %llu MB: %s", (unsigned long long)(bytes >> 20), strerror(errno)); return 0; }
    void *s = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (s == MAP_FAILED) { host_log(LOG_ERROR, "memory: cannot reserve the snapshot area: %s", strerror(errno)); return 0; }
    M.game.base = p;
    M.game.size = bytes;
    M.game.used = 0;
    M.snapshot = (uint8_t *)s;
    return 1;
}

/* The game reports its high-water mark in GameMemory.used; only that much is copied or cleared. */
static uint64_t memory_used(void)
{
    return M.game.used > M.game.size ? M.game.size : M.game.used;
}

/* The first write to a fresh page costs a fault (about 160 ms per 64 MiB here): touch the snapshot
   area a little every frame, ahead of the game's growth, so a reload never pays for it. */
static void snapshot_prefault(void)
{
    const uint64_t PER_FRAME = 2u << 20;
    uint64_t want = memory_used();
    if (M.snapshot_faulted >= want) return;
    uint64_t n = want - M.snapshot_faulted < PER_FRAME ? want - M.snapshot_faulted : PER_FRAME;
    memset(M.snapshot + M.snapshot_faulted, 0, n);
    M.snapshot_faulted += n;
}

static double snapshot_take(uint64_t step)
{
    double t = mono_seconds();
    M.snapshot_used = memory_used();
    memcpy(M.snapshot, M.game.base, M.snapshot_used);
    if (M.snapshot_used > M.snapshot_faulted) M.snapshot_faulted = M.snapshot_used;
    M.snapshot_step = step;
    return (mono_seconds() - t) * 1000.0;
}

static void snapshot_restore(void)
{
    uint64_t now_used = memory_used();
    memcpy(M.game.base, M.snapshot, M.snapshot_used);
    if (now_used > M.snapshot_used) memset((uint8_t *)M.game.base + M.snapshot_used, 0, now_used - M.snapshot_used);
}

static void memory_reset(void)
{
    memset(M.game.base, 0, memory_used());
    M.game.used = 0;
}

static uint64_t memory_hash(void)
{
    const uint8_t *p = (const uint8_t *)M.game.base;
    uint64_t h = 1469598103934665603ull, n = memory_used();
    for (uint64_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ull; }
    return h;
}

/* ================================================================ crash and hang guard */
/* Game code runs inside guarded(): a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or a step that
   the watchdog finds running too long jumps back here instead of killing the host. */
#define MAX_FRAMES_BT 32

static struct {
    sigjmp_buf         jmp;
    volatile sig_atomic_t active;
    volatile sig_atomic_t signal;
    volatile sig_atomic_t hang;
    volatile double    started;      /* mono seconds when the guarded call began */
    void              *bt[MAX_FRAMES_BT];
    volatile int       bt_count;
    void              *fault_addr;
    pthread_t          main_thread;
    uint8_t            altstack[1 << 16];
} G;

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (!G.active) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    G.active = 0;
    G.signal = sig;
    G.fault_addr = si ? si->si_addr : NULL;
    G.bt_count = backtrace(G.bt, MAX_FRAMES_BT);
    siglongjmp(G.jmp, 1);
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(20000);
        if (G.active && !G.hang && mono_seconds() - G.started > O.watchdog_s) {
            G.hang = 1;
            pthread_kill(G.main_thread, SIGUSR2);
        }
    }
    return NULL;
}

static void guard_init(void)
{
    void *warm[2];
    backtrace(warm, 2);  /* loads the unwinder now, not inside a signal handler */
    stack_t ss;
    ss.ss_sp = G.altstack;
    ss.ss_size = sizeof G.altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = guard_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGUSR2 };
    for (int s : sigs) sigaction(s, &sa, NULL);
    G.main_thread = pthread_self();
    pthread_t t;
    pthread_create(&t, NULL, watchdog_main, NULL);
    pthread_detach(t);
}

typedef enum GuardWhat { GUARD_LOAD, GUARD_UPDATE, GUARD_RENDER, GUARD_MIGRATE } GuardWhat;
static const char *GUARD_NAMES[] = { "load", "update", "render", "migrate" };

/* Returns 0 when the call returned normally, 1 when it crashed or hung. */
#define GUARDED(call) \
    (sigsetjmp(G.jmp, 1) ? (G.active = 0, 1) \
                         : (G.signal = 0, G.hang = 0, G.started = mono_seconds(), G.active = 1, (call), G.active = 0, 0))

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV"; case SIGBUS: return "SIGBUS"; case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL"; case SIGABRT: return "SIGABRT"; case SIGUSR2: return "hang";
    default: return "signal";
    }
}

/* Turns the captured return addresses inside the game library into "function (file:line)". */
static void describe_backtrace(const char *lib_path, char *out, size_t cap)
{
    out[0] = 0;
    unsigned long lo[16], hi[16], base = 0;
    int ranges = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return;
    char l[HOST_PATH + 256];
    while (fgets(l, sizeof l, maps)) {
        unsigned long a, b, off;
        char perms[8];
        if (!strstr(l, lib_path) || sscanf(l, "%lx-%lx %7s %lx", &a, &b, perms, &off) != 4) continue;
        if (off == 0 && !base) base = a;
        if (ranges < 16) { lo[ranges] = a; hi[ranges] = b; ranges++; }
    }
    fclose(maps);
    size_t len = 0;
    for (int i = 0; i < G.bt_count && len + 200 < cap; i++) {
        unsigned long pc = (unsigned long)(uintptr_t)G.bt[i];
        int inside = 0;
        for (int r = 0; r < ranges; r++) inside |= pc >= lo[r] && pc < hi[r];
        if (!inside || !base) continue;
        /* return addresses point after the call; step back into it (the faulting frame is exact) */
        unsigned long off = pc - base - (len ? 1 : 0);
        char cmd[HOST_PATH + 128];
        snprintf(cmd, sizeof cmd, "addr2line -f -C -s -e '%s' 0x%lx 2>/dev/null", lib_path, off);
        char fn[256] = "?", where[256] = "?";
        FILE *p = popen(cmd, "r");
        if (p) {
            if (fgets(fn, sizeof fn, p)) fn[strcspn(fn, "\n")] = 0;
            if (fgets(where, sizeof where, p)) where[strcspn(where, "\n")] = 0;
            pclose(p);
        }
        int w = snprintf(out + len, cap - len, "%s%s (%s)", len ? " <- " : "", fn, where);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
}

/* ================================================================ input */
static const struct { SDL_Scancode sc; GameKey key; } KEYMAP[] = {
#define K(l) { SDL_SCANCODE_##l, KEY_##l }
    K(A), K(B), K(C), K(D), K(E), K(F), K(G), K(H), K(I), K(J), K(K), K(L), K(M), K(N), K(O), K(P), K(Q), K(R),
    K(S), K(T), K(U), K(V), K(W), K(X), K(Y), K(Z), K(0), K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9),
    K(UP), K(DOWN), K(LEFT), K(RIGHT), K(SPACE), K(ESCAPE), K(TAB), K(BACKSPACE), K(LSHIFT), K(RSHIFT),
    K(LCTRL), K(RCTRL), K(LALT), K(RALT), K(F1), K(F2), K(F3), K(F4), K(F5), K(F6), K(F7), K(F8), K(F9), K(F10),
    K(F11), K(F12),
#undef K
    { SDL_SCANCODE_RETURN, KEY_ENTER },
};

static const struct { SDL_GameControllerButton b; GameKey key; } PADMAP[] = {
    { SDL_CONTROLLER_BUTTON_A, KEY_PAD_A }, { SDL_CONTROLLER_BUTTON_B, KEY_PAD_B },
    { SDL_CONTROLLER_BUTTON_X, KEY_PAD_X }, { SDL_CONTROLLER_BUTTON_Y, KEY_PAD_Y },
    { SDL_CONTROLLER_BUTTON_START, KEY_PAD_START }, { SDL_CONTROLLER_BUTTON_BACK, KEY_PAD_BACK },
    { SDL_CONTROLLER_BUTTON_LEFTSHOULDER, KEY_PAD_LB }, { SDL_CONTROLLER_BUTTON_RIGHTSHOULDER, KEY_PAD_RB },
    { SDL_CONTROLLER_BUTTON_DPAD_UP, KEY_PAD_UP }, { SDL_CONTROLLER_BUTTON_DPAD_DOWN, KEY_PAD_DOWN },
    { SDL_CONTROLLER_BUTTON_DPAD_LEFT, KEY_PAD_LEFT }, { SDL_CONTROLLER_BUTTON_DPAD_RIGHT, KEY_PAD_RIGHT },
};

/* The live input state, fed by SDL and by scripted events; each step copies it into a GameInput. */
static struct {
    uint8_t down[KEY_COUNT];
    uint8_t went_down[KEY_COUNT];   /* since the last step: a tap shorter than a step still counts */
    uint8_t went_up[KEY_COUNT];
    float   axis[AXIS_COUNT];
    float   mouse_x, mouse_y, wheel;
    SDL_GameController *pad;
} IN;

static void hotkey(GameKey k);

static void input_key(GameKey k, int down)
{
    if (k <= KEY_NONE || k >= KEY_COUNT) return;
    if (down && !IN.down[k]) { IN.went_down[k] = 1; if (k >= KEY_F1 && k <= KEY_F12) hotkey(k); }
    if (!down && IN.down[k]) IN.went_up[k] = 1;
    IN.down[k] = (uint8_t)down;
}

static GameInput input_step(uint64_t step, float dt)
{
    GameInput gi;
    memset(&gi, 0, sizeof gi);
    gi.step = step;
    gi.dt = dt;
    for (int k = 0; k < KEY_COUNT; k++) {
        gi.down[k] = IN.down[k] || IN.went_down[k];
        gi.pressed[k] = IN.went_down[k];
        gi.released[k] = IN.went_up[k];
    }
    memcpy(gi.axis, IN.axis, sizeof gi.axis);
    gi.mouse_x = IN.mouse_x;
    gi.mouse_y = IN.mouse_y;
    gi.wheel = IN.wheel;
    gi.gamepad_connected = IN.pad != NULL;
    memset(IN.went_down, 0, sizeof IN.went_down);
    memset(IN.went_up, 0, sizeof IN.went_up);
    IN.wheel = 0;
    return gi;
}

static float axis_value(Sint16 raw, int trigger)
{
    float v = raw / 32767.0f;
    if (v < -1) v = -1;
    float dead = trigger ? 0.05f : 0.2f;
    if (v > -dead && v < dead) return 0;
    return v > 0 ? (v - dead) / (1 - dead) : (v + dead) / (1 - dead);
}

/* ---------------------------------------------------------------- scripted input (--input) */
static struct { ScriptEvent *ev; int count, next; } SC;

static int script_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "host: --input %s: %s\n", path, strerror(errno)); return 0; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = (char *)calloc(1, (size_t)(size > 0 ? size : 0) + 1);
    size_t got = fread(text, 1, (size_t)(size > 0 ? size : 0), f);
    text[got] = 0;
    fclose(f);
    char err[512];
    int ok = script_parse(text, path, &SC.ev, &SC.count, err, sizeof err);
    free(text);
    if (!ok) fprintf(stderr, "host: %s\n", err);
    return ok;
}

static int g_quit;
static uint64_t g_step;        /* fixed steps run since the host started */

/* Applies the script's events for this step. A tap is down now and up on the next step. */
static void script_apply(uint64_t step)
{
    static int pending_up[KEY_COUNT];
    for (int k = 0; k < KEY_COUNT; k++) if (pending_up[k]) { pending_up[k] = 0; input_key((GameKey)k, 0); }
    while (SC.next < SC.count && SC.ev[SC.next].step <= step) {
        ScriptEvent *e = &SC.ev[SC.next++];
        switch (e->kind) {
        case SCRIPT_DOWN: input_key((GameKey)e->key, 1); break;
        case SCRIPT_UP:   input_key((GameKey)e->key, 0); break;
        case SCRIPT_TAP:  input_key((GameKey)e->key, 1); pending_up[e->key] = 1; break;
        case SCRIPT_MOUSE: IN.mouse_x = e->a; IN.mouse_y = e->b; break;
        case SCRIPT_AXIS: IN.axis[e->key] = e->a; break;
        case SCRIPT_QUIT: g_quit = 1; break;
        }
    }
}

/* ================================================================ recording and looped playback */
/* A recording is a snapshot of the block followed by one GameInput per step. In memory (F7) it
   loops; on disk (--record/--replay) it has a RecordingHeader in front (parse.cpp). */

typedef enum LoopMode { LOOP_OFF, LOOP_RECORDING, LOOP_PLAYING } LoopMode;

static struct {
    LoopMode   mode;
    GameInput *inputs;
    uint64_t   count, cap, cursor;
    uint8_t   *start_state;       /* the recording's own snapshot (separate from crash snapshots) */
    uint64_t   start_used;
    FILE      *file;              /* --record */
    int        replaying_file;    /* --replay: play once, then report the state hash */
} REC;

static GameLib g_lib;            /* the running library */
static GameAPI g_api;            /* its entry points (a stub until a library loads) */
static PlatformAPI g_pf;

static void rec_push(const GameInput *gi)
{
    if (REC.count == REC.cap) {
        REC.cap = REC.cap ? REC.cap * 2 : 1024;
        REC.inputs = (GameInput *)realloc(REC.inputs, sizeof(GameInput) * REC.cap);
    }
    REC.inputs[REC.count++] = *gi;
}

static void rec_capture_start(void)
{
    REC.start_used = memory_used();
    REC.start_state = (uint8_t *)realloc(REC.start_state, REC.start_used);
    memcpy(REC.start_state, M.game.base, REC.start_used);
    REC.count = 0;
}

static void rec_restore_start(void)
{
    uint64_t now_used = memory_used();
    memcpy(M.game.base, REC.start_state, REC.start_used);
    if (now_used > REC.start_used) memset((uint8_t *)M.game.base + REC.start_used, 0, now_used - REC.start_used);
    REC.cursor = 0;
}

static void loop_toggle(void)
{
    if (REC.mode == LOOP_OFF) {
        double t = mono_seconds();
        rec_capture_start();
        REC.mode = LOOP_RECORDING;
        host_event("loop", "\"state\":\"recording\",\"snapshot_ms\":%.2f,\"bytes\":%llu", (mono_seconds() - t) * 1000,
                   (unsigned long long)REC.start_used);
        host_log(LOG_INFO, "F7: recording input (F7 again to loop it)");
    } else if (REC.mode == LOOP_RECORDING) {
        if (REC.count == 0) { REC.mode = LOOP_OFF; host_log(LOG_INFO, "F7: nothing recorded"); return; }
        REC.mode = LOOP_PLAYING;
        rec_restore_start();
        host_event("loop", "\"state\":\"playing\",\"steps\":%llu", (unsigned long long)REC.count);
        host_log(LOG_INFO, "F7: looping %llu recorded steps (F7 again to return to live play)", (unsigned long long)REC.count);
    } else {
        REC.mode = LOOP_OFF;
        host_event("loop", "\"state\":\"off\"");
        host_log(LOG_INFO, "F7: back to live play");
    }
}

static int rec_file_open(const char *path)
{
    REC.file = fopen(path, "wb");
    if (!REC.file) { host_log(LOG_ERROR, "--record %s: %s", path, strerror(errno)); return 0; }
    RecordingHeader h;
    memset(&h, 0, sizeof h);
    h.api = GAME_API_VERSION;
    h.state_version = g_api.state_version;
    h.state_size = g_api.state_size;
    h.snapshot_bytes = memory_used();
    h.start_step = g_step;
    uint8_t head[RECORDING_HEADER_BYTES];
    recording_header_write(head, &h);
    fwrite(head, 1, sizeof head, REC.file);
    fwrite(M.game.base, 1, h.snapshot_bytes, REC.file);
    host_event("record_start", "\"path\":\"%s\",\"bytes\":%llu", path, (unsigned long long)h.snapshot_bytes);
    return 1;
}

static int rec_file_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { host_log(LOG_ERROR, "--replay %s: %s", path, strerror(errno)); return 0; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = (uint8_t *)malloc(size > 0 ? (size_t)size : 1);
    size_t got = fread(data, 1, size > 0 ? (size_t)size : 0, f);
    fclose(f);
    RecordingHeader h;
    char err[512];
    int ok = recording_header_parse(data, got, &h, err, sizeof err);
    if (!ok) host_log(LOG_ERROR, "--replay %s: %s", path, err);
    else if (h.api != GAME_API_VERSION || h.state_version != g_api.state_version || h.state_size != g_api.state_size) {
        host_log(LOG_ERROR, "--replay %s: recorded with another state layout (version %u size %llu; running %u %llu)",
                 path, h.state_version, (unsigned long long)h.state_size, g_api.state_version,
                 (unsigned long long)g_api.state_size);
        ok = 0;
    } else if (h.snapshot_bytes > M.game.size) {
        host_log(LOG_ERROR, "--replay %s: snapshot of %llu bytes exceeds --memory", path, (unsigned long long)h.snapshot_bytes);
        ok = 0;
    }
    if (!ok) { free(data); return 0; }
    const uint8_t *snap = data + RECORDING_HEADER_BYTES;
    REC.start_used = h.snapshot_bytes;
    REC.start_state = (uint8_t *)realloc(REC.start_state, h.snapshot_bytes ? h.snapshot_bytes : 1);
    memcpy(REC.start_state, snap, h.snapshot_bytes);
    REC.count = 0;
    for (uint64_t i = 0; i < h.steps; i++) {
        GameInput gi;
        memcpy(&gi, snap + h.snapshot_bytes + i * sizeof gi, sizeof gi);
        rec_push(&gi);
    }
    free(data);
    memcpy(M.game.base, REC.start_state, h.snapshot_bytes);
    M.game.used = h.snapshot_bytes;
    REC.cursor = 0;
    REC.mode = LOOP_PLAYING;
    REC.replaying_file = 1;
    host_event("replay_start", "\"path\":\"%s\",\"steps\":%llu", path, (unsigned long long)REC.count);
    return 1;
}

/* ================================================================ the running game */
typedef struct GameRun {
    int      loaded;             /* a library is loaded */
    int      halted;             /* crashed with nothing to roll back to: wait for a fix */
    int      fresh;              /* the current library has not run an update yet */
    int      version_counter;
    char     prev_good_path[HOST_PATH];  /* a copy of the library that ran before this one */
    int      prev_good_version;
    double   last_reload_t;
    double   last_build_ms;
    int      last_build_ok;
    int      building;
    double   build_frame_max_ms;
    char     build_errors[4096]; /* first errors of the last failed build, for the overlay */
    char     crash_text[2048];
    struct stat built_stat;      /* the libgame.so our own build produced last */
    double   change_seen_t;      /* when the watcher delivered the save that led to this build */
    int      mem_has_layout;     /* the block holds state laid out by some library ... */
    uint32_t mem_state_version;  /* ... with this stamp and size (kept while halted on the stub) */
    uint64_t mem_state_size;
} GameRun;

static GameRun R;
static int g_paused, g_single_step, g_overlay;

static GAME_LOAD(stub_load) { (void)mem; (void)pf; }
static GAME_UPDATE(stub_update) { (void)mem; (void)in; (void)pf; }
static GAME_RENDER(stub_render) { (void)mem; (void)alpha; (void)pf; }

static void use_stub(void)
{
    memset(&g_api, 0, sizeof g_api);
    g_api.load = stub_load;
    g_api.update = stub_update;
    g_api.render = stub_render;
}

static int copy_path(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb");
    if (!in) return 0;
    FILE *out = fopen(dst, "wb");
    if (!out) { fclose(in); return 0; }
    char buf[65536];
    size_t n;
    int ok = 1;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) if (fwrite(buf, 1, n, out) != n) ok = 0;
    fclose(in);
    if (fclose(out) != 0) ok = 0;
    return ok;
}

/* Runs the load hook of a freshly swapped library; a crash there is handled like any other. */
static void on_crash(GuardWhat what);

/* Each guarded call sits in its own small function so no caller's locals live across a longjmp. */
static int call_update(const GameInput *gi) { return GUARDED(g_api.update(&M.game, gi, &g_pf)); }
static int call_render(float alpha) { return GUARDED(g_api.render(&M.game, alpha, &g_pf)); }
static int call_migrate(uint32_t old_sv, uint64_t old_ss, int *migrated)
{
    *migrated = 0;
    return GUARDED(*migrated = g_api.migrate(&M.game, old_sv, old_ss, &g_pf));
}

static void run_load_hook(void)
{
    if (GUARDED(g_api.load(&M.game, &g_pf))) on_crash(GUARD_LOAD);
}

/* The reload sequence: open the new build under a fresh name, check its layout stamp, snapshot,
   swap, unload the old one and check it is gone. */
static int reload_from(const char *src, const char *why)
{
    double t0 = mono_seconds();
    GameLib next;
    char err[2048];
    int version = R.version_counter + 1;
    if (!library_open(src, version, &next, err, sizeof err)) {
        host_log(LOG_ERROR, "reload: %s", err);
        char esc[4096];
        host_json_escape(err, esc, sizeof esc);
        host_event("reload_failed", "\"version\":%d,\"reason\":\"%s\"", version, esc);
        return 0;
    }
    R.version_counter = version;
    int had_state = R.mem_has_layout;
    uint32_t old_sv = R.mem_state_version;
    uint64_t old_ss = R.mem_state_size;
    int layout_changed = had_state && (next.api.state_version != old_sv || next.api.state_size != old_ss);
    R.mem_has_layout = 1;
    R.mem_state_version = next.api.state_version;
    R.mem_state_size = next.api.state_size;

    /* Keep a copy of the running library: it is where a crash in the new one rolls back to. */
    if (R.loaded && !R.halted) {
        char keep[HOST_PATH];
        snprintf(keep, sizeof keep, "%s/build/game/loaded/rollback.%d.so", O.root, (int)getpid());
        if (copy_path(g_lib.path, keep)) {
            snprintf(R.prev_good_path, sizeof R.prev_good_path, "%s", keep);
            R.prev_good_version = g_lib.version;
        }
    }
    double snap_ms = snapshot_take(g_step);

    GameLib old = g_lib;
    g_lib = next;
    g_api = next.api;
    R.loaded = 1;
    R.halted = 0;
    R.fresh = 1;
    R.crash_text[0] = 0;

    const char *state_action = had_state ? "kept" : "new";
    if (layout_changed) {
        /* Never run new code on memory laid out for the old code. */
        int migrated = 0;
        if (g_api.migrate) {
            if (call_migrate(old_sv, old_ss, &migrated)) { migrated = 0; snapshot_restore(); }
        }
        if (migrated) {
            state_action = "migrated";
            host_log(LOG_INFO, "reload: state layout changed (version %u -> %u, %llu -> %llu bytes): migrated",
                     old_sv, g_api.state_version, (unsigned long long)old_ss, (unsigned long long)g_api.state_size);
        } else {
            memory_reset();
            state_action = "restarted";
            host_log(LOG_WARN, "reload: state layout changed (version %u -> %u, %llu -> %llu bytes) and the game has no "
                     "migration for it: the game state restarted from scratch", old_sv, g_api.state_version,
                     (unsigned long long)old_ss, (unsigned long long)g_api.state_size);
        }
        snapshot_take(g_step);
    }

    char uerr[2048] = "";
    int unmapped = 1;
    if (old.handle) unmapped = library_close(&old, uerr, sizeof uerr);
    double swap_ms = (mono_seconds() - t0) * 1000.0;
    R.last_reload_t = host_time();
    host_event("reload", "\"version\":%d,\"why\":\"%s\",\"swap_ms\":%.3f,\"snapshot_ms\":%.3f,\"state\":\"%s\","
               "\"state_version\":%u,\"state_size\":%llu,\"old_unmapped\":%s,\"step\":%llu,\"path\":\"%s\"",
               version, why, swap_ms, snap_ms, state_action, g_api.state_version,
               (unsigned long long)g_api.state_size, unmapped ? "true" : "false", (unsigned long long)g_step, g_lib.path);
    if (!unmapped) {
        host_log(LOG_ERROR, "reload: %s", uerr);
        char esc[4096];
        host_json_escape(uerr, esc, sizeof esc);
        host_event("unload_failed", "\"reason\":\"%s\"", esc);
    }
    host_log(LOG_INFO, "reload: version %d loaded in %.2f ms (%s), state %s", version, swap_ms, why, state_action);
    tweak_library_loaded();
    run_load_hook();
    return 1;
}

static void on_crash(GuardWhat what)
{
    int sig = G.signal;
    const char *kind = G.hang ? "hang" : signal_name(sig);
    char where[1500];
    describe_backtrace(g_lib.path, where, sizeof where);
    char wesc[3000];
    host_json_escape(where, wesc, sizeof wesc);
    int crashed_version = g_lib.version;
    host_log(LOG_ERROR, "game version %d %s in %s%s%s", crashed_version, G.hang ? "hung (watchdog)" : kind,
             GUARD_NAMES[what], where[0] ? ": " : "", where);
    snprintf(R.crash_text, sizeof R.crash_text, "version %d: %s in %s %s", crashed_version, kind, GUARD_NAMES[what], where);

    /* Back to the state from just before this code first ran, and to the code that ran before it. */
    snapshot_restore();
    char err[1024];
    GameLib bad = g_lib;
    memset(&g_lib, 0, sizeof g_lib);
    library_close(&bad, err, sizeof err);
    int rolled_back = 0;
    if (R.prev_good_path[0]) {
        GameLib prev;
        R.version_counter++;
        /* The restored memory has the layout of the crashed code; older code may only run on it if it matches. */
        if (library_open(R.prev_good_path, R.version_counter, &prev, err, sizeof err) &&
            prev.api.state_version == R.mem_state_version && prev.api.state_size == R.mem_state_size) {
            g_lib = prev;
            g_api = prev.api;
            rolled_back = 1;
        } else if (prev.handle) {
            library_close(&prev, err, sizeof err);
        }
    }
    /* A rolled-back library is not a target to roll back to again. */
    R.prev_good_path[0] = 0;
    if (!rolled_back) {
        use_stub();
        R.halted = 1;
        R.loaded = 0;
    }
    host_event("crash", "\"version\":%d,\"signal\":\"%s\",\"in\":\"%s\",\"where\":\"%s\",\"rolled_back_to\":%d,"
               "\"halted\":%s,\"snapshot_step\":%llu,\"step\":%llu",
               crashed_version, kind, GUARD_NAMES[what], wesc, rolled_back ? R.prev_good_version : 0,
               R.halted ? "true" : "false", (unsigned long long)M.snapshot_step, (unsigned long long)g_step);
    tweak_library_loaded();
    if (rolled_back) {
        host_log(LOG_WARN, "rolled back to version %d and the state from step %llu; fix the code and save",
                 R.prev_good_version, (unsigned long long)M.snapshot_step);
        run_load_hook();
    } else {
        host_log(LOG_WARN, "nothing to roll back to: the game is halted until a build loads");
    }
}

/* ================================================================ hot keys */
static int g_shot_counter;
static int g_want_shot;

static void restart_state(void)
{
    memory_reset();
    REC.mode = LOOP_OFF;
    host_event("state_restart", "");
    host_log(LOG_INFO, "F6: game state restarted");
    if (R.loaded) run_load_hook();
}

static void hotkey(GameKey k)
{
    switch (k) {
    case KEY_F1: g_overlay = !g_overlay; break;
    case KEY_F2: g_pf.debug_draw = !g_pf.debug_draw; host_event("debug_draw", "\"on\":%s", g_pf.debug_draw ? "true" : "false"); break;
    case KEY_F5: host_log(LOG_INFO, "F5: rebuild and reload"); build_start(O.root); break;
    case KEY_F6: restart_state(); break;
    case KEY_F7: loop_toggle(); break;
    case KEY_F8: g_paused = !g_paused; host_event("pause", "\"on\":%s", g_paused ? "true" : "false"); break;
    case KEY_F9: if (g_paused) g_single_step = 1; break;
    case KEY_F12: g_want_shot = 1; break;
    default: break;
    }
}

/* ================================================================ overlay (F1) */
static void game_stats_text(char *buf, int cap)
{
    buf[0] = 0;
    if (g_api.stats && R.loaded && GUARDED(g_api.stats(&M.game, buf, cap))) buf[0] = 0;
}

#define FRAME_HISTORY 120
static float g_frame_ms[FRAME_HISTORY];
static int g_frame_ms_at;

static void overlay_draw(RenderStats rs, double fps)
{
    const int L = 30000;   /* above anything the game draws */
    const float S = 16;
    int show_errors = R.build_errors[0] && !R.last_build_ok;
    if (!g_overlay && !show_errors && !R.crash_text[0] && !R.halted) return;
    char line[1024];
    float x = 10, y = 10;
    float w = 600;
    uint32_t white = 0xFFFFFFFFu, grey = 0xB0B0B0FFu, red = 0xFF6060FFu, green = 0x70FF70FFu;
    if (g_overlay) {
        snprintf(line, sizeof line, "%.0f fps   work %.2f ms/frame   step %llu%s", fps, g_frame_ms[(g_frame_ms_at + FRAME_HISTORY - 1) % FRAME_HISTORY],
                 (unsigned long long)g_step, g_paused ? "   PAUSED (F8)" : "");
        g_pf.draw_text(line, x, y, S, white, L + 1); y += S + 4;
        /* frame-time graph: one bar per frame, the line marks 16.7 ms */
        float gx = x, gy = y + 40;
        for (int i = 0; i < FRAME_HISTORY; i++) {
            float ms = g_frame_ms[(g_frame_ms_at + i) % FRAME_HISTORY];
            float bh = ms > 40 ? 40 : ms * 40 / 33.3f;
            g_pf.draw_rect(gx + i * 4, gy - bh, 3, bh, ms > 16.7f ? 0xFF5050FFu : 0x50FF50FFu, L + 1);
        }
        g_pf.draw_rect(gx, gy - 20, FRAME_HISTORY * 4, 1, 0xFFFFFF80u, L + 2);
        y += 46;
        snprintf(line, sizeof line, "library v%d  reloaded %.1fs ago   build: %s", g_lib.version,
                 R.last_reload_t > 0 ? host_time() - R.last_reload_t : 0.0,
                 R.building ? "compiling..." : R.last_build_ms <= 0 ? "-" : R.last_build_ok ? "ok" : "FAILED");
        g_pf.draw_text(line, x, y, S, R.building ? grey : R.last_build_ok || R.last_build_ms <= 0 ? green : red, L + 1); y += S + 4;
        if (R.last_build_ms > 0) {
            snprintf(line, sizeof line, "last build %.0f ms", R.last_build_ms);
            g_pf.draw_text(line, x, y, S, grey, L + 1); y += S + 4;
        }
        if (tweak_status()[0]) { g_pf.draw_text(tweak_status(), x, y, S, grey, L + 1); y += S + 4; }
        char stats[1024];
        game_stats_text(stats, sizeof stats);
        snprintf(line, sizeof line, "memory %.2f / %llu MB   sprites %d  batches %d  draws %d",
                 M.game.used / 1048576.0, (unsigned long long)(M.game.size >> 20), rs.sprites, rs.batches, rs.draw_calls);
        g_pf.draw_text(line, x, y, S, white, L + 1); y += S + 4;
        /* the game's stats ("key":value,...) as "key value" pairs, wrapped to the panel */
        char pretty[1200];
        size_t o = 0, col = 0;
        for (const char *p = stats; *p && o + 2 < sizeof pretty; p++) {
            if (*p == '"' || *p == '{' || *p == '}') continue;
            char c = *p == ':' ? ' ' : *p;
            if (c == ',') { if (col > 60) { pretty[o++] = '\n'; col = 0; } else { pretty[o++] = ' '; pretty[o++] = ' '; col += 2; } continue; }
            pretty[o++] = c;
            col++;
        }
        pretty[o] = 0;
        int rows = 1;
        for (size_t i = 0; i < o; i++) rows += pretty[i] == '\n';
        g_pf.draw_text(pretty, x, y, 14, grey, L + 1); y += rows * 17 + 4;
        g_pf.draw_text("F1 overlay F2 shapes F5 reload F6 restart F7 loop F8 pause F9 step F12 shot Esc quit", x, y, 13, grey, L + 1);
        y += S + 6;
        const char *loop = REC.mode == LOOP_RECORDING ? "RECORDING (F7 to loop)" : REC.mode == LOOP_PLAYING ? "LOOPING (F7 to stop)" : NULL;
        if (loop) { g_pf.draw_text(loop, x, y, S, red, L + 1); y += S + 4; }
    } else {
        g_pf.draw_text("F1 for the overlay", x, y, S, grey, L + 1); y += S + 4;
    }
    if (R.crash_text[0]) {
        g_pf.draw_text(R.halted ? "CRASHED - waiting for a fix (save a file)" : "CRASHED - rolled back to the last good code", x, y, S, red, L + 1);
        y += S + 4;
        g_pf.draw_text(R.crash_text, x, y, 13, white, L + 1);
        float tw, th;
        g_pf.measure_text(R.crash_text, 13, &tw, &th);
        y += th + 6;
        if (tw + 12 > w) w = tw + 12;
    }
    if (show_errors) {
        g_pf.draw_text("BUILD FAILED - still running the last good code", x, y, S, red, L + 1);
        y += S + 4;
        g_pf.draw_text(R.build_errors, x, y, 13, white, L + 1);
        float tw, th;
        g_pf.measure_text(R.build_errors, 13, &tw, &th);
        y += th;
        if (tw + 12 > w) w = tw + 12;
    }
    /* the panel goes under the text (a lower layer), sized to what was drawn */
    g_pf.draw_rect(x - 6, 4, w, y - 4 + 6, 0x000000C0u, L);
}

/* Keeps the first few "file:line:col: message" lines of a failed build for the overlay. */
static void keep_build_errors(const char *output)
{
    R.build_errors[0] = 0;
    size_t len = 0;
    int lines = 0;
    const char *p = output;
    while (*p && lines < 6) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if ((memmem(p, n, ": error", 7) || memmem(p, n, "fatal error", 11)) && len + n + 2 < sizeof R.build_errors) {
            const char *base = p;
            const char *game = (const char *)memmem(p, n, "/game/", 6);
            if (game) base = game + 1;
            size_t m = n - (size_t)(base - p);
            if (m > 110) m = 110;
            memcpy(R.build_errors + len, base, m);
            len += m;
            R.build_errors[len++] = '\n';
            R.build_errors[len] = 0;
            lines++;
        }
        p += n + (end ? 1 : 0);
    }
    if (!lines) snprintf(R.build_errors, sizeof R.build_errors, "%.300s", output);
}

/* ================================================================ main */
static void on_term(int sig) { (void)sig; g_quit = 1; }

static void find_root(const char *argv0)
{
    if (O.root[0]) {
        char *real = realpath(O.root, NULL);
        if (real) { snprintf(O.root, sizeof O.root, "%s", real); free(real); }
        return;
    }
    /* build/host lives in <root>/build/ */
    char *real = realpath(argv0, NULL);
    if (real) {
        char *slash = strrchr(real, '/');
        if (slash) *slash = 0;
        slash = strrchr(real, '/');
        if (slash) *slash = 0;
        snprintf(O.root, sizeof O.root, "%s", real);
        free(real);
    } else {
        snprintf(O.root, sizeof O.root, ".");
    }
}

static void handle_changes(const FileChanges *c)
{
    int rebuild = 0;
    for (int i = 0; i < c->count; i++) {
        char esc[HOST_PATH * 2];
        host_json_escape(c->paths[i], esc, sizeof esc);
        host_event("file_changed", "\"path\":\"%s\"", esc);
        if (strstr(c->paths[i], "/assets/")) render_asset_changed(c->paths[i]);
        else if (!tweak_file_changed(c->paths[i])) rebuild = 1;   /* more than TWEAK literals changed */
    }
    /* after a failed build, any save rebuilds: the errors on screen must go when the code is fixed */
    if (c->code && (rebuild || R.build_errors[0])) {
        R.change_seen_t = host_time();
        build_start(O.root);
    }
    if (c->library && !build_running()) {
        struct stat st;
        const char *lib = library_built_path(O.root);
        if (stat(lib, &st) == 0 && (st.st_ino != R.built_stat.st_ino || st.st_mtime != R.built_stat.st_mtime)) {
            R.built_stat = st;
            reload_from(lib, "outside build");
        }
    }
}

static void handle_build(const BuildResult *b)
{
    host_event("build_frames", "\"max_frame_interval_ms\":%.2f,\"ok\":%s", R.build_frame_max_ms, b->ok ? "true" : "false");
    R.build_frame_max_ms = 0;
    R.last_build_ms = b->ms;
    R.last_build_ok = b->ok;
    if (!b->ok) {
        keep_build_errors(b->output);
        host_log(LOG_ERROR, "build failed in %.0f ms; still running version %d\n%s", b->ms, g_lib.version, R.build_errors);
        return;
    }
    R.build_errors[0] = 0;
    stat(library_built_path(O.root), &R.built_stat);
    reload_from(library_built_path(O.root), "build");
}

int main(int argc, char **argv)
{
    g_t0 = mono_seconds();
    char perr[1024];
    int parsed = options_parse(argc, argv, &O, perr, sizeof perr);
    if (parsed == 2) { options_usage(stdout); return 0; }
    if (!parsed) { fprintf(stderr, "host: %s\n", perr); return 2; }
    find_root(argv[0]);
    signal(SIGINT, on_term);
    signal(SIGTERM, on_term);
    signal(SIGPIPE, SIG_IGN);

    if (O.log_json) {
        g_json = fopen(O.log_json, "w");
        if (!g_json) { fprintf(stderr, "host: --log-json %s: %s\n", O.log_json, strerror(errno)); return 2; }
    }
    char logpath[HOST_PATH];
    if (O.log_file) snprintf(logpath, sizeof logpath, "%s", O.log_file);
    else { snprintf(logpath, sizeof logpath, "%s/build", O.root); mkdir(logpath, 0755); snprintf(logpath, sizeof logpath, "%s/build/host.log", O.root); }
    g_logfile = fopen(logpath, "a");
    if (!g_logfile) fprintf(stderr, "host: cannot open log file %s: %s\n", logpath, strerror(errno));
    if (O.input_path && !script_load(O.input_path)) return 2;
    if (O.frame_log && !(g_frame_log = fopen(O.frame_log, "w"))) {
        fprintf(stderr, "host: --frame-log %s: %s\n", O.frame_log, strerror(errno));
        return 2;
    }

    host_event("start", "\"pid\":%d,\"root\":\"%s\",\"memory_mb\":%llu,\"headless\":%s", (int)getpid(), O.root,
               (unsigned long long)O.memory_mb, O.headless ? "true" : "false");

    if (O.headless) {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");   /* no GL probing through EGL */
        SDL_SetHint(SDL_HINT_AUDIODRIVER, "dummy");
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER) != 0) {
        host_log(LOG_ERROR, "SDL_Init: %s%s", SDL_GetError(), O.headless ? "" : " (no display? try --headless)");
        return 1;
    }
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) host_log(LOG_WARN, "no game controller support: %s", SDL_GetError());
    SDL_Window *win = SDL_CreateWindow("engine", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, O.window_w, O.window_h,
                                       SDL_WINDOW_RESIZABLE);
    if (!win) { host_log(LOG_ERROR, "SDL_CreateWindow: %s", SDL_GetError()); return 1; }
    SDL_Renderer *ren = O.headless ? NULL : SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!ren) ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    if (!ren) { host_log(LOG_ERROR, "SDL_CreateRenderer: %s", SDL_GetError()); return 1; }
    SDL_RendererInfo rinfo;
    SDL_GetRendererInfo(ren, &rinfo);
    int vsync = !O.headless && (rinfo.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    int fast_frames = 0;
    const int VIEW_W = 1280, VIEW_H = 720;
    SDL_RenderSetLogicalSize(ren, VIEW_W, VIEW_H);
    SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);

    if (!memory_init(O.memory_mb << 20)) return 1;
    guard_init();

    memset(&g_pf, 0, sizeof g_pf);
    g_pf.log = game_log;
    g_pf.event = game_event;
    g_pf.read_file = game_read_file;
    g_pf.time_seconds = game_time;
    g_pf.tweak = tweak_query;
    g_pf.view_width = VIEW_W;
    g_pf.view_height = VIEW_H;
    if (!render_init(ren, VIEW_W, VIEW_H, O.font_path)) host_log(LOG_WARN, "render: started with missing assets (placeholders shown)");
    render_fill_api(&g_pf);
    use_stub();

    if (O.watch && !watch_init(O.root)) host_log(LOG_WARN, "live reload is off: cannot watch %s", O.root);

    /* Start from the library on disk if it is there; build it otherwise (the frames don't wait). */
    const char *lib = library_built_path(O.root);
    struct stat st;
    if (stat(lib, &st) == 0) {
        R.built_stat = st;
        reload_from(lib, "start");
    }
    if (!R.loaded) {
        host_log(LOG_INFO, "no game library yet: building it");
        build_start(O.root);
    }
    if (O.replay_path && !(R.loaded && rec_file_load(O.replay_path))) {
        host_log(LOG_ERROR, "--replay %s: nothing to replay", O.replay_path);
        return 1;
    }
    if (O.record_path && !rec_file_open(O.record_path)) return 1;

    const double STEP = 1.0 / 60.0;
    double acc = 0, prev = mono_seconds(), stats_t = prev, fps = 0;
    int stats_frames = 0;
    double stats_max_ms = 0, stats_sum_ms = 0, stats_max_interval = 0, last_frame_start = prev;
    RenderStats rs = { 0, 0, 0 };

    while (!g_quit) {
        double frame_start = mono_seconds();
        /* ---- events */
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            switch (e.type) {
            case SDL_QUIT: g_quit = 1; break;
            case SDL_KEYDOWN: case SDL_KEYUP:
                if (e.key.repeat) break;
                if (e.key.keysym.scancode == SDL_SCANCODE_ESCAPE && e.type == SDL_KEYDOWN) { g_quit = 1; break; }
                for (auto &k : KEYMAP) if (k.sc == e.key.keysym.scancode) input_key(k.key, e.type == SDL_KEYDOWN);
                break;
            case SDL_MOUSEMOTION: IN.mouse_x = (float)e.motion.x; IN.mouse_y = (float)e.motion.y; break;
            case SDL_MOUSEBUTTONDOWN: case SDL_MOUSEBUTTONUP: {
                GameKey k = e.button.button == SDL_BUTTON_LEFT ? KEY_MOUSE_LEFT : e.button.button == SDL_BUTTON_RIGHT ? KEY_MOUSE_RIGHT : KEY_MOUSE_MIDDLE;
                input_key(k, e.type == SDL_MOUSEBUTTONDOWN);
            } break;
            case SDL_MOUSEWHEEL: IN.wheel += (float)e.wheel.y; break;
            case SDL_CONTROLLERDEVICEADDED:
                if (!IN.pad) { IN.pad = SDL_GameControllerOpen(e.cdevice.which); if (IN.pad) host_log(LOG_INFO, "gamepad: %s", SDL_GameControllerName(IN.pad)); }
                break;
            case SDL_CONTROLLERDEVICEREMOVED:
                if (IN.pad && SDL_JoystickInstanceID(SDL_GameControllerGetJoystick(IN.pad)) == e.cdevice.which) {
                    SDL_GameControllerClose(IN.pad); IN.pad = NULL; memset(IN.axis, 0, sizeof IN.axis);
                }
                break;
            case SDL_CONTROLLERBUTTONDOWN: case SDL_CONTROLLERBUTTONUP:
                for (auto &p : PADMAP) if (p.b == e.cbutton.button) input_key(p.key, e.type == SDL_CONTROLLERBUTTONDOWN);
                break;
            case SDL_CONTROLLERAXISMOTION:
                if (e.caxis.axis < AXIS_COUNT) IN.axis[e.caxis.axis] = axis_value(e.caxis.value, e.caxis.axis >= SDL_CONTROLLER_AXIS_TRIGGERLEFT);
                break;
            default: break;
            }
        }

        /* ---- live reload */
        FileChanges changes;
        if (O.watch && watch_poll(&changes)) handle_changes(&changes);
        BuildResult br;
        build_poll(&br);
        R.building = build_running();
        if (br.finished) handle_build(&br);
        render_update();
        snapshot_prefault();

        /* ---- fixed steps */
        double now = mono_seconds();
        double elapsed = now - prev;
        prev = now;
        if (elapsed > 0.25) elapsed = 0.25;  /* after a stall, don't try to catch up forever */
        int steps = 0;
        if (O.fast) { steps = 1; acc = 0; }
        else { acc += elapsed; while (acc >= STEP) { acc -= STEP; steps++; } }
        if (g_paused) { steps = g_single_step ? 1 : 0; g_single_step = 0; acc = 0; }
        for (int s = 0; s < steps && !g_quit; s++) {
            if (SC.count) script_apply(g_step);
            GameInput gi = input_step(g_step, (float)STEP);
            if (REC.mode == LOOP_RECORDING) rec_push(&gi);
            if (REC.mode == LOOP_PLAYING && REC.count) {
                if (REC.cursor >= REC.count) {
                    if (REC.replaying_file) {
                        char hash[32];
                        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)memory_hash());
                        host_event("replay_end", "\"steps\":%llu,\"state_hash\":\"%s\"", (unsigned long long)REC.count, hash);
                        REC.mode = LOOP_OFF;
                        REC.replaying_file = 0;
                    } else {
                        rec_restore_start();
                        host_event("loop_restart", "");
                    }
                }
                if (REC.mode == LOOP_PLAYING) gi = REC.inputs[REC.cursor++];
            }
            if (REC.file) fwrite(&gi, sizeof gi, 1, REC.file);
            if (R.loaded) {
                if (call_update(&gi)) { on_crash(GUARD_UPDATE); break; }
                if (R.fresh) {
                    R.fresh = 0;
                    host_event("new_code_running", "\"version\":%d,\"step\":%llu,\"since_change_ms\":%.1f", g_lib.version,
                               (unsigned long long)g_step, R.change_seen_t > 0 ? (host_time() - R.change_seen_t) * 1000 : -1.0);
                }
            }
            g_step++;
        }

        /* ---- draw */
        SDL_SetRenderDrawColor(ren, 16, 18, 24, 255);
        SDL_RenderClear(ren);
        render_begin_frame();
        if (R.loaded) {
            float alpha = O.fast || g_paused ? 0.0f : (float)(acc / STEP);
            if (call_render(alpha)) on_crash(GUARD_RENDER);
        }
        if (!R.loaded) {
            const char *msg = R.halted ? "The game crashed and there is no earlier version: fix it and save."
                                       : R.building ? "Building the game..." : "No game library: see the log.";
            g_pf.draw_text(msg, 40, 300, 28, 0xFFFFFFFFu, 30000);
        }
        overlay_draw(rs, fps);
        rs = render_end_frame();
        for (int i = 0; i < O.shot_count; i++) {
            if ((int64_t)g_frame == O.shot_frame[i]) {
                int ok = render_screenshot(O.shot_path[i]);
                host_event("screenshot", "\"path\":\"%s\",\"ok\":%s", O.shot_path[i], ok ? "true" : "false");
            }
        }
        if (g_want_shot) {
            g_want_shot = 0;
            char p[HOST_PATH];
            snprintf(p, sizeof p, "%s/build/screenshots", O.root);
            mkdir(p, 0755);
            snprintf(p, sizeof p, "%s/build/screenshots/shot_%d_%04d.png", O.root, (int)getpid(), g_shot_counter++);
            int ok = render_screenshot(p);
            host_log(ok ? LOG_INFO : LOG_ERROR, "F12: screenshot %s %s", p, ok ? "written" : "failed");
            host_event("screenshot", "\"path\":\"%s\",\"ok\":%s", p, ok ? "true" : "false");
        }
        SDL_RenderPresent(ren);

        /* ---- pacing and stats: work_ms is the frame's own cost, interval_ms what the player sees */
        double work_ms = (mono_seconds() - frame_start) * 1000.0;
        /* A renderer may claim vsync and not wait (offscreen, some compositors): trust it only while
           frames really come at display rate, otherwise pace with the clock. */
        if (vsync && work_ms < 5.0) { if (++fast_frames > 30) { vsync = 0; host_log(LOG_INFO, "vsync does not wait: pacing with the clock"); } }
        else fast_frames = 0;
        if (!O.fast && !vsync && work_ms < STEP * 1000.0 - 1.0) SDL_Delay((Uint32)(STEP * 1000.0 - work_ms));
        double interval_ms = g_frame ? (frame_start - last_frame_start) * 1000.0 : work_ms;
        last_frame_start = frame_start;
        if (g_frame_log) fprintf(g_frame_log, "%llu %.3f %d %d\n", (unsigned long long)g_frame, work_ms, rs.sprites, rs.draw_calls);
        g_frame_ms[g_frame_ms_at] = (float)work_ms;
        g_frame_ms_at = (g_frame_ms_at + 1) % FRAME_HISTORY;
        if (R.building || br.finished) { if (interval_ms > R.build_frame_max_ms) R.build_frame_max_ms = interval_ms; }
        stats_frames++;
        stats_sum_ms += work_ms;
        if (work_ms > stats_max_ms) stats_max_ms = work_ms;
        if (interval_ms > stats_max_interval) stats_max_interval = interval_ms;
        if (mono_seconds() - stats_t >= 1.0) {
            fps = stats_frames / (mono_seconds() - stats_t);
            char gstats[1024];
            game_stats_text(gstats, sizeof gstats);
            host_event("frame_stats", "\"fps\":%.1f,\"work_ms_avg\":%.2f,\"work_ms_max\":%.2f,\"interval_ms_max\":%.2f,"
                       "\"step\":%llu,\"version\":%d,\"building\":%s,\"sprites\":%d,\"batches\":%d,\"draw_calls\":%d,"
                       "\"mem_used\":%llu,\"game\":{%s}",
                       fps, stats_sum_ms / stats_frames, stats_max_ms, stats_max_interval, (unsigned long long)g_step,
                       g_lib.version, R.building ? "true" : "false", rs.sprites, rs.batches, rs.draw_calls,
                       (unsigned long long)M.game.used, gstats);
            stats_t = mono_seconds();
            stats_frames = 0;
            stats_sum_ms = stats_max_ms = stats_max_interval = 0;
        }
        g_frame++;
        if (O.frames >= 0 && (int64_t)g_frame >= O.frames) g_quit = 1;
    }

    char gstats[1024];
    game_stats_text(gstats, sizeof gstats);
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)memory_hash());
    host_event("quit", "\"frames\":%llu,\"step\":%llu,\"state_hash\":\"%s\",\"version\":%d,\"game\":{%s}",
               (unsigned long long)g_frame, (unsigned long long)g_step, hash, g_lib.version, gstats);
    if (REC.file) fclose(REC.file);
    build_shutdown();
    watch_shutdown();
    char err[256];
    library_close(&g_lib, err, sizeof err);
    render_shutdown();
    tweak_shutdown();
    SDL_DestroyRenderer(ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    if (g_logfile) fclose(g_logfile);
    if (g_json) fclose(g_json);
    if (g_frame_log) fclose(g_frame_log);
    return 0;
}
