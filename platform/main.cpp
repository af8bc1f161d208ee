/* main.cpp - the host's frame loop: poll input, watch/build/reload, run fixed steps, draw, present.
   Each phase is one small function below, calling into the file that owns the job (see host.h); what
   only the development host does goes through g_host_mode (develop.cpp, or release.cpp's stand-ins). */
#include "host.h"

#include <SDL.h>

#include <stdlib.h>
#include <string.h>

#define VIEW_W 1280               /* the game's view, scaled to the window */
#define VIEW_H 720
static const double STEP = 1.0 / 60.0;

static struct {
    SDL_Window   *window;
    SDL_Renderer *renderer;
    int           vsync;          /* the renderer waits for the display (trusted while frames come at its rate) */
    int           fast_frames;    /* frames in a row that came faster than vsync would let them */
} g_video;

static struct {
    double acc, prev;             /* the fixed-step clock: time not yet stepped, the last frame's start */
    int    run_now;               /* new code was loaded between frames: step it at once */
} g_clock;

static struct {                   /* the once-a-second frame_stats event */
    double      since, fps;
    int         frames;
    double      max_ms, sum_ms, max_interval, last_frame_start;
    RenderStats rs;               /* the last frame's */
} g_stats;

static void on_terminate(void) { frame_loop()->quit = 1; }

/* ================================================================ start */
static int open_window(void)
{
    const Options *opt = options();
    if (opt->headless) {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");   /* no GL probing through EGL */
        SDL_SetHint(SDL_HINT_AUDIODRIVER, "dummy");
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER) != 0) {
        log_message(LOG_ERROR, "SDL_Init: %s%s", SDL_GetError(), opt->headless ? "" : " (no display? try --headless)");
        return 0;
    }
    /* No display: SDL quietly falls back to its offscreen driver and a window nobody sees would run forever. */
    const char *video = SDL_GetCurrentVideoDriver();
    if (!opt->headless && video && (!strcmp(video, "offscreen") || !strcmp(video, "dummy")) &&
        !getenv("SDL_VIDEODRIVER")) {
        log_message(LOG_ERROR,
                    "no display to open a window on (SDL picked its '%s' video driver): run it on a desktop, "
                    "or with --headless to run without a window",
                    video);
        SDL_Quit();
        return 0;
    }
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
        log_message(LOG_WARN, "no game controller support: %s", SDL_GetError());
    g_video.window = SDL_CreateWindow("engine", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, opt->window_w,
                                      opt->window_h, SDL_WINDOW_RESIZABLE);
    if (!g_video.window) { log_message(LOG_ERROR, "SDL_CreateWindow: %s", SDL_GetError()); return 0; }
    window_attach(g_video.window);
    SDL_Renderer *ren =
        opt->headless ? NULL
                      : SDL_CreateRenderer(g_video.window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!ren) ren = SDL_CreateRenderer(g_video.window, -1, SDL_RENDERER_SOFTWARE);
    if (!ren) { log_message(LOG_ERROR, "SDL_CreateRenderer: %s", SDL_GetError()); return 0; }
    SDL_RendererInfo rinfo;
    SDL_GetRendererInfo(ren, &rinfo);
    g_video.renderer = ren;
    g_video.vsync = !opt->headless && (rinfo.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    SDL_RenderSetLogicalSize(ren, VIEW_W, VIEW_H);
    SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);
    return 1;
}

/* The memory block, the guard and the services handed to the game. */
static int start_services(void)
{
    const Options *opt = options();
    if (!memory_init(opt->memory_mb << 20)) return 0;
    guard_init(opt->watchdog_s);
    PlatformAPI *pf = services_api();
    memset(pf, 0, sizeof *pf);
    log_fill_api(pf);
    g_host_mode.fill_api(pf);
    pf->view_width = VIEW_W;
    pf->view_height = VIEW_H;
    if (!render_init(g_video.renderer, VIEW_W, VIEW_H, opt->font_path))
        log_message(LOG_WARN, "render: started with missing assets (placeholders shown)");
    render_between_batches(g_host_mode.pump);   /* drawing is most of a frame: a save moves on between its batches */
    render_fill_api(pf);
    audio_init();
    audio_fill_api(pf);
    savedata_fill_api(pf);
    window_fill_api(pf);
    profile_fill_api(pf);
    sound_assets_init(opt->root);
    tilemap_init(opt->root);
    tilemap_fill_api(pf);
    guard_wrap_services(pf);
    return 1;
}

/* --record and --replay, once the first game runs (a hot restart goes on with the session's). */
static int start_recording(int resumed)
{
    const Options *opt = options();
    if (opt->replay_path && !resumed && !(running_run()->loaded && recording_file_load(opt->replay_path))) {
        log_message(LOG_ERROR, "--replay %s: nothing to replay", opt->replay_path);
        return 0;
    }
    if (opt->record_path && !resumed && !recording_file_open(opt->record_path)) return 0;
    if (resumed && (opt->record_path || opt->replay_path))
        log_message(LOG_WARN, "hot restart: the --record/--replay file ended at the restart");
    return 1;
}

/* ================================================================ one frame */
static void poll_events(void)
{
    PROFILE_ZONE("input");
    SDL_Event e;
    while (SDL_PollEvent(&e)) if (!window_handle_event(&e)) input_handle_event(&e);
    input_frame(frame_loop()->frame);   /* the script's "@F" events: the timeline's keys while paused */
}

/* Saved files, a finished build, reloaded assets. */
static ReloadPoll poll_reload(void)
{
    PROFILE_ZONE("reload, assets");
    ReloadPoll reload = g_host_mode.poll();
    assets_update();
    sound_assets_update();
    audio_update();
    memory_snapshot_prefault();
    return reload;
}

/* The fixed steps the clock owes the game (one with --fast; none while paused, but F9's). */
static void step_game(void)
{
    double now = os_mono_seconds();
    double elapsed = now - g_clock.prev;
    g_clock.prev = now;
    if (elapsed > 0.25) elapsed = 0.25;  /* after a stall, don't try to catch up forever */
    int steps = 0;
    if (options()->fast) { steps = 1; g_clock.acc = 0; }
    else {
        g_clock.acc += elapsed;
        if (g_clock.run_now && g_clock.acc < STEP) g_clock.acc = STEP;   /* at most one step early, once per reload */
        while (g_clock.acc >= STEP) { g_clock.acc -= STEP; steps++; }
    }
    g_clock.run_now = 0;
    FrameLoop *loop = frame_loop();
    GameRun *run = running_run();
    if (loop->paused) {   /* on the timeline, P and F9 move along the recorded steps; else F9 runs one live step */
        int bar = timeline_bar_frame(loop->single_step, steps);   /* P's playback: the steps the clock owes */
        steps = !bar && loop->single_step ? 1 : 0;
        loop->single_step = 0;
        if (bar != 2) g_clock.acc = 0;
    }
    for (int s = 0; s < steps && !loop->quit; s++) {
        PROFILE_ZONE("update");
        GameInput gi = input_step(loop->step, (float)STEP);
        recording_step(&gi);
        if (run->loaded) {
            timeline_before_step(loop->step);
            if (reload_call_update(&gi)) break;
            timeline_after_step(&gi);
            if (run->fresh) {
                run->fresh = 0;
                /* version: the load; code_of_version: whose code that is (after a rollback, the older one's) */
                int version = running_lib()->version;
                double seen = build_status()->change_seen_t;
                log_event(
                    "new_code_running",
                    "\"version\":%d,\"code_of_version\":%d,\"rolled_back\":%s,\"step\":%llu,\"since_change_ms\":%.1f",
                    version, run->code_of_version, run->code_of_version != version ? "true" : "false",
                    (unsigned long long)loop->step, seen > 0 ? (log_time() - seen) * 1000 : -1.0);
            }
        }
        loop->step++;
    }
    log_drain_game();
}

/* A headless frame nobody sees (no screenshot of it) skips the glow pass: the software renderer's most
   expensive part, and the frame loop of a test runs faster. */
static int frame_is_seen(const Options *o)
{
    if (!o->headless || frame_loop()->want_screenshot) return 1;
    for (int i = 0; i < o->shot_count; i++)
        if ((int64_t)frame_loop()->frame == o->shot_frame[i]) return 1;
    return 0;
}

static void take_screenshots(void)
{
    for (int i = 0; i < options()->shot_count; i++) {
        if ((int64_t)frame_loop()->frame == options()->shot_frame[i]) {
            int ok = render_screenshot(options()->shot_path[i]);
            char esc[HOST_PATH * 2];
            parse_json_escape(options()->shot_path[i], esc, sizeof esc);
            log_event("screenshot", "\"path\":\"%s\",\"ok\":%s", esc, ok ? "true" : "false");
        }
    }
    if (frame_loop()->want_screenshot) {
        static int counter;
        frame_loop()->want_screenshot = 0;
        char p[HOST_PATH];
        snprintf(p, sizeof p, "%s/build/screenshots", options()->root);
        os_make_dir(p);
        snprintf(p, sizeof p, "%s/build/screenshots/shot_%d_%04d.png", options()->root, os_pid(), counter++);
        int ok = render_screenshot(p);
        log_message(ok ? LOG_INFO : LOG_ERROR, "F12: screenshot %s %s", p, ok ? "written" : "failed");
        char esc[HOST_PATH * 2];
        parse_json_escape(p, esc, sizeof esc);
        log_event("screenshot", "\"path\":\"%s\",\"ok\":%s", esc, ok ? "true" : "false");
    }
}

/* The game, then the overlay, then screenshots of the result. */
static void render_frame(void)
{
    PROFILE_ZONE("render");
    SDL_SetRenderDrawColor(g_video.renderer, 16, 18, 24, 255);
    SDL_RenderClear(g_video.renderer);
    render_begin_frame();
    if (running_run()->loaded)
        reload_call_render(options()->fast || frame_loop()->paused ? 0.0f : (float)(g_clock.acc / STEP));
    if (!running_run()->loaded) {
        const char *msg = running_run()->halted ? "The game crashed and there is no earlier version: fix it and save."
                          : build_status()->running ? "Building the game..."
                                                   : "No game library: see the log.";
        services_api()->draw_text(msg, 40, 300, 28, 0xFFFFFFFFu, 30000);
    }
    overlay_draw(g_stats.rs, g_stats.fps);
    profile_view_draw();
    log_drain_game();
    notice_draw();
    PROFILE_BEGIN("batch build");
    render_glow_seen(frame_is_seen(options()));
    g_stats.rs = render_end_frame();
    PROFILE_END();
    take_screenshots();
}

static void present_frame(void)
{
    PROFILE_ZONE("present");
    SDL_RenderPresent(g_video.renderer);
}

/* Between frames: sleep until `until` (os_mono_seconds), but wake for a saved file or the build child, so
   a save is handled the moment its debounce ends and a finished build is loaded at once, not on the next
   frame. Returns 1 when new code was loaded or TWEAK values went live: the caller runs the next step at
   once instead of waiting for the clock. */
static int wait_for_work(double until)
{
    for (;;) {
        double now = os_mono_seconds();
        if (now >= until || frame_loop()->quit) return 0;
        double timeout = until - now, due;
        int fds[2];
        g_host_mode.wake_on(fds, &due);
        if (due >= 0 && due < timeout) timeout = due;
        PROFILE_BEGIN("wait (build child, clock)");
        os_wait_readable(fds, 2, timeout);
        PROFILE_END();
        if (g_host_mode.poll().step_now) return 1;
    }
}

/* A renderer may claim vsync and not wait (offscreen, some compositors): trust it only while frames
   really come at display rate, otherwise pace with the clock. */
static void pace_frame(double frame_start, double work_ms)
{
    if (g_video.vsync && work_ms < 5.0) {
        if (++g_video.fast_frames > 30) {
            g_video.vsync = 0;
            log_message(LOG_INFO, "vsync does not wait: pacing with the clock");
        }
    } else {
        g_video.fast_frames = 0;
    }
    if (!options()->fast && !g_video.vsync && work_ms < STEP * 1000.0 - 1.0)
        g_clock.run_now = wait_for_work(frame_start + STEP);
}

/* work_ms is the frame's own cost, interval_ms what the player sees; once a second, a frame_stats event. */
static void note_frame_stats(double frame_start, double work_ms, const ReloadPoll *reload)
{
    if (frame_loop()->frame == 0) log_event("first_frame", "\"since_start_ms\":%.1f", log_time() * 1000.0);
    double interval_ms = frame_loop()->frame ? (frame_start - g_stats.last_frame_start) * 1000.0 : work_ms;
    g_stats.last_frame_start = frame_start;
    log_frame_line(work_ms, g_stats.rs.sprites, g_stats.rs.draw_calls);
    overlay_note_frame(work_ms);
    if (build_status()->running || reload->build_finished) {
        if (interval_ms > build_status()->frame_max_ms) build_status()->frame_max_ms = interval_ms;
    }
    g_stats.frames++;
    g_stats.sum_ms += work_ms;
    if (work_ms > g_stats.max_ms) g_stats.max_ms = work_ms;
    if (interval_ms > g_stats.max_interval) g_stats.max_interval = interval_ms;
    if (os_mono_seconds() - g_stats.since < 1.0) return;
    const RenderStats *rs = &g_stats.rs;
    g_stats.fps = g_stats.frames / (os_mono_seconds() - g_stats.since);
    char gstats[1024];
    reload_call_stats(gstats, sizeof gstats);
    log_event("frame_stats",
              "\"fps\":%.1f,\"work_ms_avg\":%.2f,\"work_ms_max\":%.2f,\"interval_ms_max\":%.2f,"
              "\"step\":%llu,\"version\":%d,\"building\":%s,\"sprites\":%d,\"batches\":%d,\"draw_calls\":%d,"
              "\"mem_used\":%llu,\"guard_jumps\":%llu,\"game\":{%s}",
              g_stats.fps, g_stats.sum_ms / g_stats.frames, g_stats.max_ms, g_stats.max_interval,
              (unsigned long long)frame_loop()->step, running_lib()->version,
              build_status()->running ? "true" : "false", rs->sprites, rs->batches, rs->draw_calls,
              (unsigned long long)memory_state()->game.used, (unsigned long long)os_guard_jumps(), gstats);
    g_stats.since = os_mono_seconds();
    g_stats.frames = 0;
    g_stats.sum_ms = g_stats.max_ms = g_stats.max_interval = 0;
}

/* One frame: poll, reload, step, render, present, then wait for the next. 0 once the host should quit. */
static int run_frame(void *unused)
{
    (void)unused;
    if (frame_loop()->quit) return 0;
    g_host_mode.frame_begin();
    double frame_start = os_mono_seconds();
    PROFILE_BEGIN("frame");
    poll_events();
    ReloadPoll reload = poll_reload();
    step_game();
    g_host_mode.pump();   /* a save or a compile that ended during the step moves on now, not after the frame */
    render_frame();
    g_host_mode.pump();
    present_frame();
    double work_ms = (os_mono_seconds() - frame_start) * 1000.0;
    pace_frame(frame_start, work_ms);
    note_frame_stats(frame_start, work_ms, &reload);
    frame_loop()->frame++;
    g_host_mode.frame_end();
    if (options()->frames >= 0 && (int64_t)frame_loop()->frame >= options()->frames) frame_loop()->quit = 1;
    PROFILE_END();
    profile_frame_end();
    return 1;
}

/* ================================================================ the end */
static void shut_down(void)
{
    timeline_files_exit();   /* --save-session */
    char gstats[1024];
    reload_call_stats(gstats, sizeof gstats);
    log_drain_game();
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)memory_hash());
    log_event("quit", "\"frames\":%llu,\"step\":%llu,\"state_hash\":\"%s\",\"version\":%d,\"game\":{%s}",
              (unsigned long long)frame_loop()->frame, (unsigned long long)frame_loop()->step, hash,
              running_lib()->version, gstats);
    recording_close();
    g_host_mode.shutdown();
    render_shutdown();
    sound_assets_shutdown();
    tilemap_shutdown();
    audio_shutdown();
    SDL_DestroyRenderer(g_video.renderer);
    SDL_DestroyWindow(g_video.window);
    SDL_Quit();
    profile_shutdown();
    log_close();
}

int main(int argc, char **argv)
{
    os_attach_console();   /* a Windows release is a GUI program: its console is the one it was started from */
    char perr[1024];
    int parsed = parse_flags(argc, argv, g_host_mode.flags, options_edit(), perr, sizeof perr);
    if (parsed == 2) {
        char exe[HOST_PATH];
        parse_flags_usage(g_host_mode.flags, os_exe_path(exe, sizeof exe) ? exe : NULL, stdout);
        return 0;
    }
    if (!parsed) { fprintf(stderr, "host: %s\n", perr); return 2; }
    if (!g_host_mode.start(argc, argv, perr, sizeof perr)) {
        fprintf(stderr, "error: %s\n", perr);
        if (!options()->headless) os_alert("The game cannot start", perr);
        return 1;
    }
    os_on_terminate(on_terminate);
    if (!log_open(restart_is_restart(), restart_start_mono())) return 2;
    profile_init();
    input_set_hooks(devtools_input_hooks());
    if (!input_init()) return 2;

    char root_json[HOST_PATH * 2];   /* a project folder's name may hold quotes or backslashes */
    parse_json_escape(options()->root, root_json, sizeof root_json);
    log_event("start",
              "\"pid\":%d,\"root\":\"%s\",\"memory_mb\":%llu,\"watchdog_s\":%g,\"headless\":%s,\"hot_restart\":%s",
              os_pid(), root_json, (unsigned long long)options()->memory_mb, options()->watchdog_s,
              options()->headless ? "true" : "false", restart_is_restart() ? "true" : "false");
    if (!open_window() || !start_services()) return 1;
    os_host_fds_record(); /* the window's, the audio's, the logs', the watcher's: a game's close() of one is a crash */
    int resumed = g_host_mode.start_game(argc, argv);
    if (resumed < 0) return 70;
    log_drain_game();
    if (!start_recording(resumed)) return 1;
    timeline_init(options()->timeline_s, options()->timeline_mb, reload_call_update);
    timeline_files_start();   /* --open-session: paused on the file's timeline */

    g_clock.prev = g_stats.since = g_stats.last_frame_start = os_mono_seconds();
    os_run_frames(run_frame, NULL);   /* in a browser it never returns: what follows runs on a desktop */
    shut_down();
    return 0;
}
