/* release.cpp - what a release supplies to the frame loop in place of the development host's
   develop.cpp, live/, devtools/tweak_panel.cpp and devtools/inspector.cpp: HostMode's stand-ins and the
   running game. The game is linked into the executable and its entry point called directly: no library
   to load, no sources to watch or build, no TWEAK service (the game is compiled with THTW_LITERALS). Assets come from
   game.pak beside the executable, wherever the working directory is. A crash or hang is reported as in development (the
   fault, the function and file:line of each game frame, on stderr and in the logs) and ends the game with exit code 70:
   there is no earlier code to roll back to.

   Compiled only with -DHOST_RELEASE (a release links it instead of the files above: ENGINE_DEV_ONLY_SOURCES); in
   any other build this file is empty. */
#if defined(HOST_RELEASE)
#include "host.h"

#include <stdlib.h>
#include <string.h>

#define RELEASE_ARCHIVE "game.pak"   /* beside the executable */

extern "C" GAME_GET_API(game_get_api);   /* the game's entry point, linked in */

static BuildStatus g_build_status;       /* live/build.cpp's, never set: a release builds nothing */
BuildStatus *build_status(void) { return &g_build_status; }
static char g_exe[HOST_PATH];            /* this executable: where the archive is, what the symbolizer reads */

/* The folder of the executable becomes the root and its game.pak is mounted; 0 + why (naming the file). */
static int release_start(int argc, char **argv, char *err, size_t cap)
{
    (void)argc; (void)argv;
    options_edit()->watch = 0;   /* no sources to watch */
    options_edit()->timeline_s = 0;   /* the timeline is a development tool */
    if (!os_exe_path(g_exe, sizeof g_exe)) {
        snprintf(err, cap, "cannot find the executable's folder: %s", os_error_text());
        return 0;
    }
    snprintf(options_edit()->root, sizeof options()->root, "%s", g_exe);
    char *slash = strrchr(options_edit()->root, '/');
    if (slash) *slash = 0; else snprintf(options_edit()->root, sizeof options()->root, ".");
    char pak[HOST_PATH + 16];
    snprintf(pak, sizeof pak, "%s/" RELEASE_ARCHIVE, options()->root);
    return archive_mount(pak, err, cap);
}

/* ---------------------------------------------------------------- a crash ends the game, reported */
/* The executable holds the host as well as the game: of "a <- b <- c", keep the frames after the fault
   handler's (os_*.cpp) and before the guarded call's, which are the game's. */
static void keep_game_frames(char *where, size_t cap)
{
    char out[1500] = "", frame[600];
    size_t len = 0;
    int started = 0;
    for (const char *p = where; *p;) {
        const char *sep = strstr(p, " <- ");
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        snprintf(frame, sizeof frame, "%.*s", (int)n, p);
        p += n + (sep ? 4 : 0);
        if (strstr(frame, "os_guarded_call")) break;
        if (!started && (strstr(frame, "(os_linux.cpp") || strstr(frame, "(os_win32"))) continue;
        started = 1;
        int w = snprintf(out + len, sizeof out - len, "%s%s", len ? " <- " : "", frame);
        if (w < 0 || (size_t)w >= sizeof out - len) break;
        len += (size_t)w;
    }
    if (out[0]) snprintf(where, cap, "%s", out);
}

static void release_crash(GuardWhat what)
{
    const int hang = guard_report()->fault.kind == OS_FAULT_HANG;
    char where[1500], wesc[3000];
    guard_describe_backtrace(g_exe, where, sizeof where);
    keep_game_frames(where, sizeof where);
    parse_json_escape(where, wesc, sizeof wesc);
    log_event("crash",
              "\"version\":1,\"signal\":\"%s\",\"in\":\"%s\",\"where\":\"%s\",\"rolled_back_to\":0,\"halted\":true,"
              "\"step\":%llu",
              guard_fault_name(), GUARD_NAMES[what], wesc, (unsigned long long)frame_loop()->step);
    if (hang) log_message(LOG_ERROR, "the game stopped responding in %s (no step may run longer than %.1f s)%s%s",
                          GUARD_NAMES[what], options()->watchdog_s, where[0] ? ": " : "", where);
    else
        log_message(LOG_ERROR, "the game crashed (%s) in %s%s%s", guard_fault_name(), GUARD_NAMES[what],
                    where[0] ? ": " : "", where);
    fprintf(stderr, "The game has ended because of this error. Save data written before it is kept.\n");
    if (!options()->headless) {
        char text[2000];
        snprintf(text, sizeof text, "The game %s (%s) in %s%s%s\n\nSave data written before it is kept.",
                 hang ? "stopped responding" : "crashed", guard_fault_name(), GUARD_NAMES[what], where[0] ? ": " : "",
                 where);
        os_alert("The game has ended because of an error", text);
    }
    log_close();
    fflush(NULL);
    _Exit(70);   /* no destructors or atexit handlers after a fault: the audio thread may still be running */
}

void reload_on_crash(GuardWhat what) { release_crash(what); }

/* ---------------------------------------------------------------- the game, linked in */
static void run_load_hook(void)
{
    GameMemory mem = memory_lend();
    if (guarded(GUARD_LOAD, [&mem] { running_api()->load(&mem, services_api()); })) release_crash(GUARD_LOAD);
    else memory_take_back(&mem);
}

void reload_init(void)
{
    memset(running_api(), 0, sizeof *running_api());
    running_set_load_hook(reload_run_load);
}

void reload_run_load(int migrated)
{
    memory_state()->game.migrated = (uint32_t)migrated;
    if (running_run()->loaded) run_load_hook();
    memory_state()->game.migrated = 0;
}

void reload_start(void)
{
    GameAPI api;
    memset(&api, 0, sizeof api);
    if (guarded(GUARD_GET_API, [&api] { api = game_get_api(); })) release_crash(GUARD_GET_API);
    if (!api.load || !api.update || !api.render) {
        log_message(LOG_ERROR, "game_get_api() returned a NULL load/update/render: nothing to run");
        return;
    }
    *running_api() = api;
    running_lib()->api = api;
    running_lib()->version = 1;
    snprintf(running_lib()->path, sizeof running_lib()->path, "%s", g_exe);
    running_run()->loaded = 1;
    running_layout()->known = 1;
    running_layout()->layout_hash = api.layout_hash;
    running_layout()->state_size = api.state_size;
    run_load_hook();
}

int reload_call_update(const GameInput *gi)
{
    GameMemory mem = memory_lend();
    if (guarded(GUARD_UPDATE, [gi, &mem] { running_api()->update(&mem, gi, services_api()); }))
        release_crash(GUARD_UPDATE);
    else memory_take_back(&mem);
    return 0;
}

int reload_call_render(float alpha)
{
    GameMemory mem = memory_lend();
    if (guarded(GUARD_RENDER, [alpha, &mem] { running_api()->render(&mem, alpha, services_api()); }))
        release_crash(GUARD_RENDER);
    else memory_take_back(&mem);
    return 0;
}

void reload_call_stats(char *buf, int cap)
{
    buf[0] = 0;
    if (running_api()->stats && running_run()->loaded && guarded(GUARD_STATS, [buf, cap] {
            GameMemory mem = memory_lend();
            running_api()->stats(&mem, buf, cap);
        }))
        release_crash(GUARD_STATS);
}

void reload_restart_state(void)   /* F6, with --dev-keys */
{
    memory_reset();
    recording_stop();
    log_event("state_restart", "");
    if (running_run()->loaded) run_load_hook();
}

/* ---------------------------------------------------------------- HostMode: what a release does not have */
static int release_start_game(int argc, char **argv)
{
    (void)argc; (void)argv;
    reload_init();
    reload_start();
    return 0;
}

static void release_tweak_query(const char *file, int line, int counter, int kind, const char *literal,
                                void *value_inout)
{
    (void)file;
    (void)line;
    (void)counter;
    (void)kind;
    (void)literal;
    (void)value_inout; /* the compiled value stands */
}

static void       release_fill_api(PlatformAPI *pf) { pf->tweak = release_tweak_query; }
static void       release_frame_begin(void) {}
static ReloadPoll release_poll(void) { ReloadPoll p = { 0, 0 }; return p; }
static void       release_pump(void) {}
static void       release_wake_on(int fds[2], double *due_in) { fds[0] = fds[1] = -1; *due_in = -1; }
static void       release_rebuild(void) { log_message(LOG_INFO, "a release has no sources to rebuild"); }
static void       release_frame_end(void) {}
static void       release_shutdown(void) {}
static const char *release_game_folder(void) { return host_root(); }   /* the executable's folder */
static const char *release_game_build_folder(void) { return NULL; }
static const char *release_game_name(void) { return NULL; }

static void release_save_folder(const char *app, const char **org, const char **name)
{
    *org = "";
    *name = app;
}

const HostMode g_host_mode = { &FLAGS_RELEASE, HOST_MODE_SERVICES(HOST_MODE_RELEASE) };

const char *tweak_status(void) { return ""; }   /* the overlay's line: no TWEAK service here */
/* the F4 panel: input.cpp and overlay.cpp ask it first; a release has none */
int tweak_panel_key(GameKey, int, int) { return 0; }
int tweak_panel_mouse(float, float) { return 0; }
void tweak_panel_text(const char *) {}
int tweak_panel_wheel(float) { return 0; }
void tweak_panel_draw(void) {}
/* the Shift+F1 inspector: the same; a player's game shows no state */
int inspector_key(GameKey, int, int, int) { return 0; }
int inspector_mouse(float, float) { return 0; }
int inspector_wheel(float) { return 0; }
void inspector_text(const char *) {}
void inspector_draw(void) {}

#endif /* HOST_RELEASE */
