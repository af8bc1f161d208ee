/* develop.cpp - the development host's side of HostMode (host.h): the project folder, the session a hot
   restart hands over, the first library, watch -> build -> reload polling, F5 and TWEAK. A release links
   release.cpp's table instead (a release leaves this file out, with the others in tools/cmake/release.cmake's
   ENGINE_DEV_ONLY_SOURCES). */
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATCH_CLOCK_SLACK_S 0.05   /* a file's time comes from a coarser clock than os_wall_seconds */

static char g_default_log[HOST_PATH];    /* <root>/build/host.log, when no --log-file names one */

/* --root, or the folder above the executable: build/host lives in <root>/build/ */
static void find_root(const char *argv0)
{
    char real[HOST_PATH];
    if (options()->root[0]) {
        if (os_real_path(options()->root, real, sizeof real))
            snprintf(options_edit()->root, sizeof options()->root, "%s", real);
        return;
    }
    if (os_real_path(argv0, real, sizeof real)) {
        char *slash = strrchr(real, '/');
        if (slash) *slash = 0;
        slash = strrchr(real, '/');
        if (slash) *slash = 0;
        snprintf(options_edit()->root, sizeof options()->root, "%s", real);
    } else {
        snprintf(options_edit()->root, sizeof options()->root, ".");
    }
}

static int develop_start(int argc, char **argv, char *err, size_t cap)
{
    (void)err; (void)cap;
    find_root(argv[0]);
    /* the questions build.sh asks the host, so the build folder's name and what a game build compiles are
       decided in one place (game_folder.cpp, plan.cpp, build.cpp): answered, then the process ends (no window,
       no log) */
    if (options()->print_game_build) { printf("%s\n", game_build_folder()); fflush(stdout); exit(0); }
    if (options()->build_game) { fflush(stdout); exit(build_game_now(options()->root) ? 0 : 1); }
    if (options()->print_game_compile) { plan_print_compile(options()->root); fflush(stdout); exit(0); }
    if (options()->write_unity) {
        char unity[HOST_PATH];
        int ok = plan_write_unity(options()->root, unity, sizeof unity);
        if (ok) printf("%s\n", unity);
        fflush(stdout);
        exit(ok ? 0 : 1);
    }
#if !defined(_WIN32)
    { /* build.sh, when this host runs it for a game build, asks this executable (a copy of the project may have none)
       */
        char exe[HOST_PATH];
        if (os_exe_path(exe, sizeof exe)) setenv("ENGINE_HOST", exe, 1);
    }
#endif
    options_edit()->dev_keys = 1;   /* the hot keys are always on here */
    if (!options()->log_file) {
        snprintf(g_default_log, sizeof g_default_log, "%s/build", options()->root);
        os_make_dir(g_default_log);
        snprintf(g_default_log, sizeof g_default_log, "%s/build/host.log", options()->root);
        options_edit()->log_file = g_default_log;
    }
    restart_open(argc, argv);   /* a hot restart: the session the previous process handed over */
    /* the session's areas, in their order after the block and its snapshot (memory_init adds TWEAK's state copy) */
    recording_reserve(options()->memory_mb << 20);   /* the F7 loop's snapshot and inputs */
    tweak_reserve();                                /* the sources TWEAK baselines come from */
    return 1;
}

#define SOURCES_SEEN "develop.sources_seen"   /* a session slice (core.h): every save written before it was handled */

static int develop_start_game(int argc, char **argv)
{
    reload_init();
    control_start();   /* tests, bots and editors drive the game through it (docs/control.md) */
    if (options()->watch && !watch_init(options()->root))
        log_message(LOG_WARN, "live reload is off: cannot watch %s", options()->root);
    if (!restart_arm(argc, argv)) return -1;
    if (!restart_pending_mode()) { reload_start(); return 0; }
    restart_resume(reload_resume);
    recording_resume();
    /* saves the old process never handled (written while it faulted and exec'd, or a build it had not finished):
       taken as saved now, so the next poll builds or applies them */
    double seen = session_slice_kept(SOURCES_SEEN) ? *(double *)session_slice(SOURCES_SEEN, sizeof(double)) : 0;
    char first[HOST_PATH];
    int missed = seen > 0 && options()->watch ? watch_catch_up(seen - WATCH_CLOCK_SLACK_S, first, sizeof first) : 0;
    if (missed) {
        log_message(LOG_INFO, "hot restart: %d file(s) saved while the host restarted (%s%s): taken as saved now",
                    missed, first, missed > 1 ? ", ..." : "");
        char esc[HOST_PATH * 2];
        parse_json_escape(first, esc, sizeof esc);
        log_event("restart_catch_up", "\"files\":%d,\"first\":\"%s\"", missed, esc);
    }
    return 1;
}

static void develop_fill_api(PlatformAPI *pf) { pf->tweak = tweak_query; }

/* Game code can close or replace the host's descriptors past the close() wrapper (syscall(SYS_close),
   close_range, dup2 onto a host number). A few fstat calls a frame find it; what was lost is re-opened on
   its own number or re-created, and said. The session's memfd and the logs go first: they take back their
   own numbers before a new pipe or watch could take one. */
static void check_descriptors(void)
{
    char what[1024] = "";
    int session = restart_session_renew();
    log_reopen_lost(what, sizeof what);
    int build = build_restart_lost();
    int watcher = options()->watch && watch_reopen_lost();
    int plugged = os_host_fds_plug();   /* last: SDL's, whose sockets and pipes cannot be opened again */
    char sdl[96];
    snprintf(sdl, sizeof sdl, "%d of the window system's and input's descriptors (left quiet: no events from them)",
             plugged);
    const char *more[4] = { session ? "the session's memory (a hot restart's handover)" : NULL,
                            build ? "the running build's pipes (the build starts again)" : NULL,
                            watcher ? "the file watcher (saves made while it was gone are not seen: save again)" : NULL,
                            plugged ? sdl : NULL };
    for (int i = 0; i < 4; i++) {
        size_t len = strlen(what);
        if (more[i]) snprintf(what + len, sizeof what - len, "%s%s", len ? ", " : "", more[i]);
    }
    if (!what[0]) return;
    log_message(LOG_WARN,
                "game version %d closed or replaced the host's descriptors (close_range, syscall or dup2 past "
                "the close() wrapper); re-opened: %s",
                running_lib()->version, what);
    notice_post(LOG_WARN, "The game closed the host's files; re-opened: %s", what);
    char esc[2048], list[2300] = "";
    const char *p = what;
    while (*p) {   /* one JSON string per item */
        const char *end = strstr(p, ", ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char item[600];
        snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), p);
        parse_json_escape(item, esc, sizeof esc);
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s\"%s\"", len ? "," : "", esc);
        p = end ? end + 2 : p + n;
    }
    log_event("descriptors_reopened", "\"version\":%d,\"what\":[%s]", running_lib()->version, list);
}

static void develop_frame_begin(void)
{
    check_descriptors();
    if (restart_requested()) restart_now();   /* between frames: nothing of the host is half done */
}

static int g_tweak_live;   /* TWEAK values went live within the frame (develop_pump): the next poll says so */

/* What a restarted process must take as unseen saves (kept in the session's slice SOURCES_SEEN): everything
   written after the oldest of now, a save pending in the debounce and the saves a running build was started for. */
static double g_build_saves_wall;   /* the first save of the batch the running build compiles */

static void note_sources_seen(double now)
{
    double seen = now, pending = watch_pending_since();
    if (pending > 0 && pending < seen) seen = pending;
    if (build_running() && g_build_saves_wall > 0 && g_build_saves_wall < seen) seen = g_build_saves_wall;
    *(double *)session_slice(SOURCES_SEEN, sizeof(double)) = seen;
}

static ReloadPoll develop_poll(void)
{
    ReloadPoll p = { 0, g_tweak_live };
    g_tweak_live = 0;
    control_poll();   /* between frames: a request never runs inside a step */
    double now = os_wall_seconds();   /* before the watcher is read: a save after this is not handled yet */
    FileChanges changes;
    int was_building = build_running();
    if (options()->watch && watch_poll(&changes)) {
        if (reload_handle_changes(&changes)) p.step_now = 1;
        if (!was_building && build_running()) g_build_saves_wall = changes.first_seen_wall;
    }
    BuildResult br;
    build_poll(&br);
    build_status()->running = build_running();
    if (br.finished) {
        int before = running_run()->version_counter;
        reload_handle_build(&br);
        log_drain_game();   /* what the load hook logged, right after the reload event */
        p.build_finished = 1;
        if (running_run()->version_counter != before && running_run()->loaded && running_run()->fresh) p.step_now = 1;
    }
    note_sources_seen(now);
    return p;
}

/* Within a frame, so a save or a compile that ends while the frame is drawn moves on at once rather than when the
   frame ends: a batch of saved code goes to the build (its TWEAK values go live), a compile's link starts. A
   build's end, a reload and assets wait for develop_poll, between frames. */
static void develop_pump(void)
{
    FileChanges changes;
    int was_building = build_running();
    if (options()->watch && watch_poll_code(&changes)) {
        if (reload_handle_changes(&changes)) g_tweak_live = 1;
        if (!was_building && build_running()) g_build_saves_wall = changes.first_seen_wall;
    }
    build_pump();
    build_status()->running = build_running();
}

static void develop_wake_on(int fds[2], double *due_in)
{
    fds[0] = options()->watch ? os_watch_fd() : -1;
    fds[1] = build_fd();
    *due_in = options()->watch ? watch_due_in() : -1;
    if (build_ended() || g_tweak_live) *due_in = 0;   /* finished within the frame: handled at once */
}

static void develop_rebuild(void)
{
    log_message(LOG_INFO, "F5: rebuild and reload");
    build_start(options()->root);
}

static void develop_frame_end(void) { restart_note_frame(); }

static void develop_shutdown(void)
{
    control_stop();
    build_shutdown();
    watch_shutdown();
    char err[256];
    library_close(running_lib(), err, sizeof err);
    tweak_shutdown();
}

static const char *develop_game_folder(void) { return game_folder(); }
static const char *develop_game_build_folder(void) { return game_build_folder(); }
static const char *develop_game_name(void) { return game_folder_name(); }

static void develop_save_folder(const char *app, const char **org, const char **name)
{
    *org = app;     /* <data>/<game>/dev/: a development run never touches the release's save data */
    *name = "dev";
}

const HostMode g_host_mode = { &FLAGS_DEVELOPMENT, HOST_MODE_SERVICES(HOST_MODE_DEVELOP) };
