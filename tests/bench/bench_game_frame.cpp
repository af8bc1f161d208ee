/* NEON SWARM's heavy late-game frame on the software renderer: the game (tests/unit/game_harness.h) in the late
   game of tests/unit/game_scenes.h (the autopilot at minute 7, at least 300 enemies alive), its sparks kept at
   4,000 or more, drawn through the host's renderer (platform/services/render.cpp) with SDL's software renderer under the
   offscreen driver at 1280x720, grid and glow on. Each frame: one game step, then the frame timed in parts:
     game_heavy_frame_p99_ms     the whole frame (game draw calls, batch build, rasterize and present), 99th
                                 percentile over the frames (the budget: 16.7 ms on a quiet machine)
     game_heavy_frame_ms         its median
     game_render_submit_ms       median: the game's render (its draw_sprite calls into the host's batch)
     render_batch_build_ms       median: render_end_frame (sort, quads, glow pass, SDL_RenderGeometry calls)
     render_present_ms           median: the software rasterizer finishing (a pixel read back) and SDL_RenderPresent
     game_heavy_update_ms        median: one fixed step of the game in that state
     game_heavy_enemies, game_heavy_particles   what the frames held (medians)
     game_heavy_frame_noglow_ms  median of the same frames with the glow pass off (set_glow(0)): the glow's share
   Then the step alone in a crowd made with F3 (wave_swarm: 90 enemies a press, one press every 5 steps from step
   95 of a run, the ship kept alive and still), no drawing:
     game_swarm_step_ms          median of one fixed step with about 1,600 enemies alive (F3 x20)
     game_swarm400_step_ms       the same with about 400 (F3 x5): the baseline of this run
     game_swarm_scaling_x        their ratio: 4 for a step linear in the crowd, 16 for a quadratic one
     game_swarm_enemies, game_swarm400_enemies   the crowds (medians)
   The same frames once more on SDL's OpenGL renderer (Mesa's software GL, llvmpipe, under xvfb-run: this machine
   has no GPU), in a child process of this program:
     game_heavy_frame_gl_p99_ms, game_heavy_frame_gl_ms, render_batch_build_gl_ms, render_present_gl_ms
   BENCH_QUICK=1: 12 frames instead of 240, 6 swarm steps instead of 120. */
#define THP_DISABLE   /* no profiler in this program: its zones are no-ops */
#include "services/render.cpp"
#include "services/assets.cpp"
#include "services/sprite_anim.cpp"
#include "services/font.cpp"
#include "services/notice.cpp"
#include "services/archive.cpp"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#undef THP_BEGIN   /* the host's profiler hooks (host.h): the game brings its own */
#undef THP_END
#include "../unit/game_scenes.h"
#include "../unit/render_host_stubs.h"
#include "bench_time.h"
#include "../unit/gl_child.h"

void log_message(int level, const char *fmt, ...)
{
    if (level < LOG_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
void log_event(const char *ev, const char *fields_fmt, ...) { (void)ev; (void)fields_fmt; }
PlatformAPI g_pf;
PlatformAPI *services_api(void) { return &g_pf; }
struct thp_profile g_profile_main;

static Harness g_h;
static const uint32_t MIN_PARTICLES = 4000;

/* Sparks in the enemies' colours at their places, until the state holds MIN_PARTICLES. */
static void top_up_sparks(GameState *gs)
{
    for (uint32_t i = 0; gs->particle_count < MIN_PARTICLES && thh_fixed_count(&gs->handles.head) > 0; i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i % thh_fixed_count(&gs->handles.head)))];
        if (is_enemy(e->type)) fx_burst_sparks(gs, e->pos, 20, enemy_info(e->type).color, 400, 1.0f);
        if (i > 100000) break;
    }
}

static double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    size_t k = (size_t)(p * (double)(v.size() - 1) + 0.5);
    return v[k < v.size() ? k : v.size() - 1];
}

/* One fixed step of the game with no input, in ms. */
static double timed_step(void)
{
    GameInput in;
    memset(&in, 0, sizeof in);
    double t0 = bench_now_ms();
    harness_step(&g_h, &in);
    return bench_now_ms() - t0;
}

/* The median of `steps` fixed steps after `presses` F3 presses (see the top); the crowd's median in *enemies. */
static double swarm_step_ms(int presses, int steps, double *enemies)
{
    GameState *gs = scene_start_play(&g_h, 7);
    scene_steps(&g_h, 65);
    for (int i = 0; i < presses; i++) { scene_keep_alive(gs); scene_steps(&g_h, 5, KEY_F3); }
    for (int i = 0; i < 60; i++) { scene_keep_alive(gs); scene_steps(&g_h, 1); }   /* the markers have hatched */
    std::vector<double> ms, crowd;
    for (int i = 0; i < steps; i++) {
        scene_keep_alive(gs);
        ms.push_back(timed_step());
        crowd.push_back(gs->alive_now);
    }
    *enemies = bench_median(crowd);
    return bench_median(ms);
}

static bool report_with_swarm_and_gl(const char *self, int W, int H, const std::vector<double> &frame,
                                     const std::vector<double> &submit, const std::vector<double> &batch,
                                     const std::vector<double> &present, const std::vector<double> &update,
                                     const std::vector<double> &enemies, const std::vector<double> &particles,
                                     const std::vector<double> &noglow);

int main(int argc, char **argv)
{
    bool gl = argc > 1 && !strcmp(argv[1], "gl");
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/bench/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/bench/");
    g_root = at == std::string::npos ? std::string(".") : here.substr(0, at);
    if (g_root.empty()) g_root = ".";
    if (g_root.back() == '/') g_root.pop_back();
    gl_child_video(gl);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { fprintf(stderr, "SDL_Init: %s\n", SDL_GetError()); return 1; }
    const int W = 1280, H = 720, FRAMES = bench_runs(240, 12);
    SDL_Window *win = SDL_CreateWindow("bench_game_frame", 0, 0, W, H, 0);
    SDL_Renderer *ren = win ? SDL_CreateRenderer(win, -1, gl ? SDL_RENDERER_ACCELERATED : SDL_RENDERER_SOFTWARE) : nullptr;
    if (!ren) { fprintf(stderr, "no %s renderer: %s\n", gl ? "OpenGL" : "software", SDL_GetError()); return 1; }
    SDL_RendererInfo info;
    if (SDL_GetRendererInfo(ren, &info) != 0 || gl != !strcmp(info.name, "opengl")) {
        fprintf(stderr, "bench_game_frame: wanted the %s renderer, got %s\n", gl ? "opengl" : "software", info.name);
        return 1;
    }
    SDL_RenderSetLogicalSize(ren, W, H);
    if (!render_init(ren, W, H, nullptr)) { fprintf(stderr, "render_init failed (./build.sh assets tools)\n"); return 1; }
    double end = log_time() + 20;   /* the font bakes on a worker */
    while (log_time() < end && (g_render.font_worker.state != 0 || g_render.font_queued)) { assets_update(); SDL_Delay(5); }
    assets_update();
    harness_init(&g_h);
    render_fill_api(&g_h.pf);
    g_pf = g_h.pf;

    int alive = scene_late(&g_h, 9, 300);
    GameState *gs = (GameState *)g_h.mem.base;
    fprintf(stderr, "bench_game_frame: %d enemies alive at %.0f s, %u particles before the top-up\n", alive, gs->run_time, gs->particle_count);
    std::vector<double> frame, submit, batch, present, update, enemies, particles, noglow;
    for (int f = 0; f < FRAMES; f++) {
        bool glow = f % 4 != 3;   /* every fourth frame without the glow pass */
        scene_keep_alive(gs);
        top_up_sparks(gs);
        update.push_back(timed_step());
        top_up_sparks(gs);
        enemies.push_back(gs->alive_now);
        particles.push_back(gs->particle_count);
        SDL_SetRenderDrawColor(ren, 16, 18, 24, 255);
        double t0 = bench_now_ms();
        SDL_RenderClear(ren);
        render_begin_frame();
        g_h.api.render(&g_h.mem, 0.5f, &g_h.pf);
        if (!glow) g_h.pf.set_glow(0);
        double t1 = bench_now_ms();
        render_end_frame();
        double t2 = bench_now_ms();
        Uint32 px;
        SDL_Rect r = { 0, 0, 1, 1 };
        SDL_RenderReadPixels(ren, &r, SDL_PIXELFORMAT_RGBA32, &px, 4);
        SDL_RenderPresent(ren);
        double t3 = bench_now_ms();
        if (!glow) { noglow.push_back(t3 - t0); continue; }
        frame.push_back(t3 - t0);
        submit.push_back(t1 - t0);
        batch.push_back(t2 - t1);
        present.push_back(t3 - t2);
    }
    if (gl) {
        printf("{\"game_heavy_frame_gl_p99_ms\": %.3f, \"game_heavy_frame_gl_ms\": %.3f, \"render_batch_build_gl_ms\": %.3f, "
               "\"render_present_gl_ms\": %.3f}\n", percentile(frame, 0.99), bench_median(frame), bench_median(batch),
               bench_median(present));
    } else if (!report_with_swarm_and_gl(argv[0], W, H, frame, submit, batch, present, update, enemies, particles, noglow)) {
        return 1;
    }
    harness_free(&g_h);
    render_shutdown();
    SDL_DestroyRenderer(ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    return 0;
}

/* The parent's line: the software frames above, the swarm steps, and the OpenGL child's fields. */
static bool report_with_swarm_and_gl(const char *self, int W, int H, const std::vector<double> &frame,
                                     const std::vector<double> &submit, const std::vector<double> &batch,
                                     const std::vector<double> &present, const std::vector<double> &update,
                                     const std::vector<double> &enemies, const std::vector<double> &particles,
                                     const std::vector<double> &noglow)
{
    /* the OpenGL renderer's numbers from a child under a virtual X server, merged into this one line */
    std::string gl_part = gl_child_fields(self, W, H);
    if (gl_part.empty()) { fprintf(stderr, "bench_game_frame: no OpenGL numbers (is xvfb installed?)\n"); return false; }
    int swarm_steps = bench_runs(120, 6);
    double crowd400 = 0, crowd = 0;
    double step400 = swarm_step_ms(5, swarm_steps, &crowd400);
    double step = swarm_step_ms(20, swarm_steps, &crowd);
    fprintf(stderr, "bench_game_frame: swarm steps %.3f ms with %.0f enemies, %.3f ms with %.0f\n", step400, crowd400, step, crowd);
    printf("{\"game_heavy_frame_p99_ms\": %.3f, \"game_heavy_frame_ms\": %.3f, \"game_render_submit_ms\": %.3f, "
           "\"render_batch_build_ms\": %.3f, \"render_present_ms\": %.3f, \"game_heavy_update_ms\": %.3f, "
           "\"game_heavy_enemies\": %.0f, \"game_heavy_particles\": %.0f, \"game_heavy_frame_noglow_ms\": %.3f, "
           "\"game_swarm_step_ms\": %.3f, \"game_swarm400_step_ms\": %.3f, \"game_swarm_scaling_x\": %.2f, "
           "\"game_swarm_enemies\": %.0f, \"game_swarm400_enemies\": %.0f, %s}\n",
           percentile(frame, 0.99), bench_median(frame), bench_median(submit), bench_median(batch), bench_median(present),
           bench_median(update), bench_median(enemies), bench_median(particles), bench_median(noglow),
           step, step400, step400 > 0 ? step / step400 : 0.0, crowd, crowd400, gl_part.c_str());
    return true;
}
