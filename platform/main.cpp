/* main.cpp - the host's frame loop: poll input, watch/build/reload, run fixed steps, draw, present.
   Each step of it is one call into the file that owns the job (see host.h). */
#include "host.h"

#include <SDL.h>

#include <stdlib.h>
#include <string.h>

Options     g_options;
FrameLoop   g_loop;
PlatformAPI g_pf;

/* The running game, as reload.cpp (development) or release.cpp (a release) keeps it. */
GameRun     g_reload;
BuildStatus g_build_status;
CrashReport g_crash;
BlockLayout g_block_layout;
GameLib     g_lib;
GameAPI     g_api;

static void on_terminate(void) { g_loop.quit = 1; }

#if !defined(HOST_RELEASE)
static void find_root(const char *argv0)
{
    char real[HOST_PATH];
    if (g_options.root[0]) {
        if (os_real_path(g_options.root, real, sizeof real)) snprintf(g_options.root, sizeof g_options.root, "%s", real);
        return;
    }
    /* build/host lives in <root>/build/ */
    if (os_real_path(argv0, real, sizeof real)) {
        char *slash = strrchr(real, '/');
        if (slash) *slash = 0;
        slash = strrchr(real, '/');
        if (slash) *slash = 0;
        snprintf(g_options.root, sizeof g_options.root, "%s", real);
    } else {
        snprintf(g_options.root, sizeof g_options.root, ".");
    }
}
#endif

/* Between frames: sleep until `until` (os_mono_seconds), but wake for a saved file or the build child, so
   a save is handled the moment its debounce ends and a finished build is loaded at once, not on the next
   frame. Returns 1 when new code was loaded or TWEAK values went live: the caller runs the next step at
   once instead of waiting for the clock. */
static int wait_for_work(double until)
{
    int step_now = 0;
    for (;;) {
        double now = os_mono_seconds();
        if (now >= until || g_loop.quit) break;
        double timeout = until - now;
        double due = g_options.watch ? watch_due_in() : -1;
        if (due >= 0 && due < timeout) timeout = due;
        int fds[2] = { g_options.watch ? os_watch_fd() : -1, build_fd() };
        PROFILE_BEGIN("wait (build child, clock)");
        os_wait_readable(fds, 2, timeout);
        PROFILE_END();
        FileChanges changes;
        if (g_options.watch && watch_poll(&changes) && reload_handle_changes(&changes)) { step_now = 1; break; }
        BuildResult br;
        build_poll(&br);
        g_build_status.running = build_running();
        if (br.finished) {
            int before = g_reload.version_counter;
            reload_handle_build(&br);
            log_drain_game();   /* what the load hook logged, right after the reload event */
            if (g_reload.version_counter != before && g_reload.loaded && g_reload.fresh) { step_now = 1; break; }
        }
    }
    return step_now;
}

/* A headless frame nobody sees (no screenshot of it) skips the glow pass: the software renderer's most
   expensive part, and the frame loop of a test runs faster. */
static int frame_is_seen(const Options *o)
{
    if (!o->headless || g_loop.want_screenshot) return 1;
    for (int i = 0; i < o->shot_count; i++)
        if ((int64_t)g_loop.frame == o->shot_frame[i]) return 1;
    return 0;
}

static void take_screenshots(void)
{
    for (int i = 0; i < g_options.shot_count; i++) {
        if ((int64_t)g_loop.frame == g_options.shot_frame[i]) {
            int ok = render_screenshot(g_options.shot_path[i]);
            char esc[HOST_PATH * 2];
            host_json_escape(g_options.shot_path[i], esc, sizeof esc);
            host_event("screenshot", "\"path\":\"%s\",\"ok\":%s", esc, ok ? "true" : "false");
        }
    }
    if (g_loop.want_screenshot) {
        static int counter;
        g_loop.want_screenshot = 0;
        char p[HOST_PATH];
        snprintf(p, sizeof p, "%s/build/screenshots", g_options.root);
        os_make_dir(p);
        snprintf(p, sizeof p, "%s/build/screenshots/shot_%d_%04d.png", g_options.root, os_pid(), counter++);
        int ok = render_screenshot(p);
        host_log(ok ? LOG_INFO : LOG_ERROR, "F12: screenshot %s %s", p, ok ? "written" : "failed");
        char esc[HOST_PATH * 2];
        host_json_escape(p, esc, sizeof esc);
        host_event("screenshot", "\"path\":\"%s\",\"ok\":%s", esc, ok ? "true" : "false");
    }
}

int main(int argc, char **argv)
{
    os_attach_console();   /* a Windows release is a GUI program: its console is the one it was started from */
    char perr[1024];
    int parsed = options_parse(argc, argv, &g_options, perr, sizeof perr);
    if (parsed == 2) { options_usage(stdout); return 0; }
    if (!parsed) { fprintf(stderr, "host: %s\n", perr); return 2; }
    const Options *o = &g_options;
#if defined(HOST_RELEASE)
    if (!release_start(perr, sizeof perr)) {
        fprintf(stderr, "error: %s\n", perr);
        if (!o->headless) os_alert("The game cannot start", perr);
        return 1;
    }
#else
    find_root(argv[0]);
    restart_open(argc, argv);   /* a hot restart: the session the previous process handed over */
#endif
    os_on_terminate(on_terminate);
    if (!log_open()) return 2;
    profile_init();
    if (!input_init()) return 2;

    char root_json[HOST_PATH * 2];   /* a project folder's name may hold quotes or backslashes */
    host_json_escape(o->root, root_json, sizeof root_json);
    host_event("start", "\"pid\":%d,\"root\":\"%s\",\"memory_mb\":%llu,\"headless\":%s,\"hot_restart\":%s", os_pid(), root_json,
               (unsigned long long)o->memory_mb, o->headless ? "true" : "false", restart_is_restart() ? "true" : "false");

    /* ---- window and renderer */
    if (o->headless) {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");   /* no GL probing through EGL */
        SDL_SetHint(SDL_HINT_AUDIODRIVER, "dummy");
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER) != 0) {
        host_log(LOG_ERROR, "SDL_Init: %s%s", SDL_GetError(), o->headless ? "" : " (no display? try --headless)");
        return 1;
    }
    /* No display: SDL quietly falls back to its offscreen driver and a window nobody sees would run forever. */
    const char *video = SDL_GetCurrentVideoDriver();
    if (!o->headless && video && (!strcmp(video, "offscreen") || !strcmp(video, "dummy")) && !getenv("SDL_VIDEODRIVER")) {
        host_log(LOG_ERROR, "no display to open a window on (SDL picked its '%s' video driver): run it on a desktop, "
                 "or with --headless to run without a window", video);
        SDL_Quit();
        return 1;
    }
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) host_log(LOG_WARN, "no game controller support: %s", SDL_GetError());
    SDL_Window *win = SDL_CreateWindow("engine", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o->window_w, o->window_h,
                                       SDL_WINDOW_RESIZABLE);
    if (!win) { host_log(LOG_ERROR, "SDL_CreateWindow: %s", SDL_GetError()); return 1; }
    window_attach(win);
    SDL_Renderer *ren = o->headless ? NULL : SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!ren) ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    if (!ren) { host_log(LOG_ERROR, "SDL_CreateRenderer: %s", SDL_GetError()); return 1; }
    SDL_RendererInfo rinfo;
    SDL_GetRendererInfo(ren, &rinfo);
    int vsync = !o->headless && (rinfo.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    int fast_frames = 0;
    const int VIEW_W = 1280, VIEW_H = 720;
    SDL_RenderSetLogicalSize(ren, VIEW_W, VIEW_H);
    SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);

    /* ---- memory, guard, services, the first library */
    if (!memory_init(o->memory_mb << 20)) return 1;
    guard_init(o->watchdog_s);
    memset(&g_pf, 0, sizeof g_pf);
    log_fill_api(&g_pf);
    g_pf.tweak = tweak_query;
    g_pf.view_width = VIEW_W;
    g_pf.view_height = VIEW_H;
    if (!render_init(ren, VIEW_W, VIEW_H, o->font_path)) host_log(LOG_WARN, "render: started with missing assets (placeholders shown)");
    render_fill_api(&g_pf);
    audio_init();
    audio_fill_api(&g_pf);
    savedata_fill_api(&g_pf);
    window_fill_api(&g_pf);
    profile_fill_api(&g_pf);
    sound_assets_init(o->root);
    guard_wrap_services(&g_pf);
    reload_init();
    if (o->watch && !watch_init(o->root)) host_log(LOG_WARN, "live reload is off: cannot watch %s", o->root);
#if !defined(HOST_RELEASE)
    if (!restart_arm(argc, argv)) return 70;
    int resumed = restart_pending_mode() != 0;
    if (resumed) {
        for (int bus = 0; bus < 3; bus++) {   /* the volumes the game set before the restart */
            float v;
            if (restart_bus(bus, &v)) g_pf.sound_bus(bus, v, 0);
        }
        restart_resume();
        recording_resume();
    } else {
        reload_start();
    }
#else
    int resumed = 0;
    reload_start();
#endif
    log_drain_game();
    if (o->replay_path && !resumed && !(g_reload.loaded && recording_file_load(o->replay_path))) {
        host_log(LOG_ERROR, "--replay %s: nothing to replay", o->replay_path);
        return 1;
    }
    if (o->record_path && !resumed && !recording_file_open(o->record_path)) return 1;
    if (resumed && (o->record_path || o->replay_path))
        host_log(LOG_WARN, "hot restart: the --record/--replay file ended at the restart");

    const double STEP = 1.0 / 60.0;
    double acc = 0, prev = os_mono_seconds(), stats_t = prev, fps = 0;
    int stats_frames = 0;
    double stats_max_ms = 0, stats_sum_ms = 0, stats_max_interval = 0, last_frame_start = prev;
    RenderStats rs = { 0, 0, 0 };
    int run_now = 0;   /* new code was loaded between frames: step it at once */

    auto frame = [&]() -> int {
        if (g_loop.quit) return 0;
#if !defined(HOST_RELEASE)
        if (restart_requested()) restart_now();   /* between frames: nothing of the host is half done */
#endif
        double frame_start = os_mono_seconds();
        PROFILE_BEGIN("frame");
        /* ---- poll: window and input events */
        PROFILE_BEGIN("input");
        SDL_Event e;
        while (SDL_PollEvent(&e)) if (!window_handle_event(&e)) input_handle_event(&e);
        PROFILE_END();

        /* ---- live reload: saved files, a finished build, reloaded assets */
        PROFILE_BEGIN("reload, assets");
        FileChanges changes;
        if (o->watch && watch_poll(&changes)) reload_handle_changes(&changes);
        BuildResult br;
        build_poll(&br);
        g_build_status.running = build_running();
        if (br.finished) reload_handle_build(&br);
        assets_update();
        sound_assets_update();
        audio_update();
        memory_snapshot_prefault();
        PROFILE_END();

        /* ---- step: fixed steps of the game */
        double now = os_mono_seconds();
        double elapsed = now - prev;
        prev = now;
        if (elapsed > 0.25) elapsed = 0.25;  /* after a stall, don't try to catch up forever */
        int steps = 0;
        if (o->fast) { steps = 1; acc = 0; }
        else {
            acc += elapsed;
            if (run_now && acc < STEP) acc = STEP;   /* at most one step early, once per reload */
            while (acc >= STEP) { acc -= STEP; steps++; }
        }
        run_now = 0;
        if (g_loop.paused) { steps = g_loop.single_step ? 1 : 0; g_loop.single_step = 0; acc = 0; }
        for (int s = 0; s < steps && !g_loop.quit; s++) {
            PROFILE_ZONE("update");
            GameInput gi = input_step(g_loop.step, (float)STEP);
            recording_step(&gi);
            if (g_reload.loaded) {
                if (game_call_update(&gi)) break;
                if (g_reload.fresh) {
                    g_reload.fresh = 0;
                    /* version: the load; code_of_version: whose code that is (after a rollback, the older one's) */
                    host_event("new_code_running", "\"version\":%d,\"code_of_version\":%d,\"rolled_back\":%s,\"step\":%llu,\"since_change_ms\":%.1f",
                               g_lib.version, g_reload.code_of_version, g_reload.code_of_version != g_lib.version ? "true" : "false",
                               (unsigned long long)g_loop.step,
                               g_build_status.change_seen_t > 0 ? (host_time() - g_build_status.change_seen_t) * 1000 : -1.0);
                }
            }
            g_loop.step++;
        }
        log_drain_game();

        /* ---- render: the game, then the overlay, then screenshots of the result */
        PROFILE_BEGIN("render");
        SDL_SetRenderDrawColor(ren, 16, 18, 24, 255);
        SDL_RenderClear(ren);
        render_begin_frame();
        if (g_reload.loaded) game_call_render(o->fast || g_loop.paused ? 0.0f : (float)(acc / STEP));
        if (!g_reload.loaded) {
            const char *msg = g_reload.halted ? "The game crashed and there is no earlier version: fix it and save."
                                              : g_build_status.running ? "Building the game..." : "No game library: see the log.";
            g_pf.draw_text(msg, 40, 300, 28, 0xFFFFFFFFu, 30000);
        }
        overlay_draw(rs, fps);
        profile_view_draw();
        log_drain_game();
        notice_draw();
        PROFILE_BEGIN("batch build");
        render_glow_seen(frame_is_seen(o));
        rs = render_end_frame();
        PROFILE_END();
        take_screenshots();
        PROFILE_END();

        /* ---- present */
        PROFILE_BEGIN("present");
        SDL_RenderPresent(ren);
        PROFILE_END();

        /* ---- pacing and stats: work_ms is the frame's own cost, interval_ms what the player sees */
        double work_ms = (os_mono_seconds() - frame_start) * 1000.0;
        /* A renderer may claim vsync and not wait (offscreen, some compositors): trust it only while
           frames really come at display rate, otherwise pace with the clock. */
        if (vsync && work_ms < 5.0) { if (++fast_frames > 30) { vsync = 0; host_log(LOG_INFO, "vsync does not wait: pacing with the clock"); } }
        else fast_frames = 0;
        if (!o->fast && !vsync && work_ms < STEP * 1000.0 - 1.0) run_now = wait_for_work(frame_start + STEP);
        if (g_loop.frame == 0) host_event("first_frame", "\"since_start_ms\":%.1f", host_time() * 1000.0);
        double interval_ms = g_loop.frame ? (frame_start - last_frame_start) * 1000.0 : work_ms;
        last_frame_start = frame_start;
        log_frame_line(work_ms, rs.sprites, rs.draw_calls);
        overlay_note_frame(work_ms);
        if (g_build_status.running || br.finished) { if (interval_ms > g_build_status.frame_max_ms) g_build_status.frame_max_ms = interval_ms; }
        stats_frames++;
        stats_sum_ms += work_ms;
        if (work_ms > stats_max_ms) stats_max_ms = work_ms;
        if (interval_ms > stats_max_interval) stats_max_interval = interval_ms;
        if (os_mono_seconds() - stats_t >= 1.0) {
            fps = stats_frames / (os_mono_seconds() - stats_t);
            char gstats[1024];
            game_call_stats(gstats, sizeof gstats);
            host_event("frame_stats", "\"fps\":%.1f,\"work_ms_avg\":%.2f,\"work_ms_max\":%.2f,\"interval_ms_max\":%.2f,"
                       "\"step\":%llu,\"version\":%d,\"building\":%s,\"sprites\":%d,\"batches\":%d,\"draw_calls\":%d,"
                       "\"mem_used\":%llu,\"guard_jumps\":%llu,\"game\":{%s}",
                       fps, stats_sum_ms / stats_frames, stats_max_ms, stats_max_interval, (unsigned long long)g_loop.step,
                       g_lib.version, g_build_status.running ? "true" : "false", rs.sprites, rs.batches, rs.draw_calls,
                       (unsigned long long)g_memory.game.used, (unsigned long long)os_guard_jumps(), gstats);
            stats_t = os_mono_seconds();
            stats_frames = 0;
            stats_sum_ms = stats_max_ms = stats_max_interval = 0;
        }
        g_loop.frame++;
#if !defined(HOST_RELEASE)
        restart_note_frame();
#endif
        if (o->frames >= 0 && (int64_t)g_loop.frame >= o->frames) g_loop.quit = 1;
        PROFILE_END();
        profile_frame_end();
        return 1;
    };
    os_run_frames([](void *f) { return (*(decltype(frame) *)f)(); }, &frame);

    /* ---- shutdown */
    char gstats[1024];
    game_call_stats(gstats, sizeof gstats);
    log_drain_game();
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)memory_hash());
    host_event("quit", "\"frames\":%llu,\"step\":%llu,\"state_hash\":\"%s\",\"version\":%d,\"game\":{%s}",
               (unsigned long long)g_loop.frame, (unsigned long long)g_loop.step, hash, g_lib.version, gstats);
    recording_close();
    build_shutdown();
    watch_shutdown();
    char err[256];
    library_close(&g_lib, err, sizeof err);
    render_shutdown();
    sound_assets_shutdown();
    audio_shutdown();
    tweak_shutdown();
    SDL_DestroyRenderer(ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    profile_shutdown();
    log_close();
    return 0;
}
