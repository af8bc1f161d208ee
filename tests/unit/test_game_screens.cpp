/* NEON SWARM's screens, checked by pixels: the game (tests/unit/game_harness.h) drawn through the host's real
   renderer (platform/services/render.cpp, the project's atlas and font, SDL's software renderer offscreen at 1280x720),
   the state played there by the autopilot without drawing. Five moments, each also written to
   build/tests/neon_<name>.png to look at: wave 1; wave 6 with at least 8 enemies on screen; a bomb going off;
   an upgrade taken (its bar under the score); the glow (the same frame with the glow pass and without). */
#define TH_TEST_IMPLEMENTATION
#define THP_DISABLE   /* no profiler in this program: its zones are no-ops */
#include "th_test.h"
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
#include "game_harness.h"

#include <time.h>

/* ---------------------------------------------------------------- host stubs */
#include "render_host_stubs.h"
void log_message(int level, const char *fmt, ...)
{
    if (level < LOG_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}
void log_event(const char *ev, const char *fields_fmt, ...) { (void)ev; (void)fields_fmt; }
PlatformAPI g_pf;
struct thp_profile g_profile_main;   /* profile.cpp is not part of this program */
PlatformAPI *services_api(void) { return &g_pf; }
struct thp_profile *profile_main(void) { return &g_profile_main; }

/* ---------------------------------------------------------------- fixture */
static const int W = 1280, H = 720;
static SDL_Renderer *g_ren;
static Harness g_h;
static GameState *g_gs;

struct Shot { std::vector<uint8_t> px; };   /* RGB */

static Shot shot(const char *name, bool glow = true)
{
    SDL_SetRenderDrawColor(g_ren, 16, 18, 24, 255);
    SDL_RenderClear(g_ren);
    render_begin_frame();
    g_h.api.render(&g_h.mem, 0.0f, &g_h.pf);
    if (!glow) g_h.pf.set_glow(0);
    render_end_frame();
    Shot s;
    s.px.resize((size_t)W * H * 3);
    SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_RGB24, s.px.data(), W * 3);
    std::string path = g_root + "/build/tests/neon_" + name + ".png";
    stbi_write_png(path.c_str(), W, H, 3, s.px.data(), W * 3);
    return s;
}

static double mean_lum(const Shot &s, int x0 = 0, int y0 = 0, int x1 = W, int y1 = H)
{
    double sum = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = &s.px[((size_t)y * W + x) * 3];
            sum += 0.3 * p[0] + 0.6 * p[1] + 0.1 * p[2];
        }
    return sum / ((double)(x1 - x0) * (y1 - y0));
}

/* pixels close to a colour, in a rectangle */
static int count_near(const Shot &s, uint32_t rgb, int tol, int x0 = 0, int y0 = 0, int x1 = W, int y1 = H)
{
    int n = 0, r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = &s.px[((size_t)y * W + x) * 3];
            n += abs(p[0] - r) <= tol && abs(p[1] - g) <= tol && abs(p[2] - b) <= tol;
        }
    return n;
}

static void steps(int n, int key = -1)
{
    for (int i = 0; i < n; i++) {
        GameInput in;
        memset(&in, 0, sizeof in);
        if (key >= 0 && i == 0) in.pressed[key] = 1;
        harness_step(&g_h, &in);
    }
}

static int enemies_on_screen(void)
{
    int n = 0;
    float z = g_gs->zoom, hw = W * 0.5f / z, hh = H * 0.5f / z;
    for (uint32_t i = 0; i < thh_fixed_count(&g_gs->handles.head); i++) {
        Entity *e = &g_gs->entities[thh_index(thh_fixed_at(&g_gs->handles.head, i))];
        n += !e->dead && is_enemy(e->type) && fabsf(e->pos.x - g_gs->cam.x) < hw && fabsf(e->pos.y - g_gs->cam.y) < hh;
    }
    return n;
}

/* ---------------------------------------------------------------- the moments */
static void test_wave_1(void)
{
    g_gs = harness_start(&g_h, 11);
    steps(1, KEY_ENTER);
    for (int i = 0; i < 60 * 30 && !(g_gs->wave == 1 && enemies_on_screen() >= 3); i++) steps(1);
    steps(30);
    TH_CHECK_EQ_INT(g_gs->wave, 1);
    Shot s = shot("wave1");
    TH_CHECK(mean_lum(s, 14, 12, 250, 120) < 60);                 /* the score's dark plate */
    TH_CHECK(count_near(s, 0xE8F4FF, 40, 14, 12, 250, 60) > 30);   /* the score on it */
    TH_CHECK(count_near(s, 0xFF4FD8, 80) > 40);                    /* drones, magenta */
    TH_CHECK(count_near(s, 0x4FE3FF, 70, W / 2 - 200, H / 2 - 200, W / 2 + 200, H / 2 + 200) > 20);   /* the ship, cyan, near the middle */
}

static void test_wave_6_crowded(void)
{
    g_gs = harness_start(&g_h, 5);
    steps(1, KEY_F10);
    for (int i = 0; i < 60 * 60 * 8 && g_gs->wave < 6; i++) steps(1);
    TH_CHECK_EQ_INT(g_gs->wave, 6);
    int best = 0;
    for (int i = 0; i < 60 * 60 && g_gs->wave == 6 && (best = enemies_on_screen()) < 8; i++) steps(1);
    printf("  wave %d: %d enemies on screen, zoom %.2f\n", g_gs->wave, best, g_gs->zoom);
    TH_CHECK_EQ_INT(g_gs->wave, 6);
    TH_CHECK(best >= 8);
    Shot s = shot("wave6");
    int colored = 0;   /* enemy colours: magenta, orange, yellow, red */
    colored += count_near(s, 0xFF4FD8, 80) + count_near(s, 0xFF9A3C, 70) + count_near(s, 0xFFE14A, 70) + count_near(s, 0xFF3B3B, 70);
    printf("  wave 6: %d enemy-coloured pixels\n", colored);
    TH_CHECK(colored > 300);
}

static void test_bomb(void)
{
    Shot before = shot("before_bomb");
    if (g_gs->bombs <= 0) g_gs->bombs = 1;
    Entity *pl = entity_get(g_gs, g_gs->player);
    TH_CHECK(pl != NULL);
    if (pl) { pl->hp = 5; pl->timer = 0; }
    steps(1, KEY_F10);   /* the autopilot off: a person's Q */
    steps(1, KEY_Q);
    steps(4);
    TH_CHECK_EQ_INT(enemies_on_screen(), 0);
    Shot s = shot("bomb");
    printf("  bomb: mean brightness %.1f, before %.1f\n", mean_lum(s), mean_lum(before));
    TH_CHECK(mean_lum(s) > mean_lum(before) + 15);   /* the flash and the rings */
}

static void test_upgrade(void)
{
    Entity *pl = entity_get(g_gs, g_gs->player);
    TH_CHECK(pl != NULL);
    if (!pl) return;
    upgrade_drop(g_gs, pl->pos, UPGRADE_SPREAD);
    for (int i = 0; i < 60 && g_gs->upgrade_time[UPGRADE_SPREAD] <= 0; i++) steps(1);
    TH_CHECK(g_gs->upgrade_time[UPGRADE_SPREAD] > 0);
    steps(20);
    Shot s = shot("upgrade");
    TH_CHECK(count_near(s, 0x5CFF7A, 40, 12, 128, 252, 158) > 100);   /* the SPREAD bar under the score */
}

static void test_glow(void)
{
    Shot on = shot("glow"), off = shot("no_glow", false);
    Entity *pl = entity_get(g_gs, g_gs->player);
    double a = mean_lum(on), b = mean_lum(off);
    printf("  glow: mean brightness %.2f with the pass, %.2f without\n", a, b);
    TH_CHECK(a > b * 1.05);
    /* the HUD is not glowed over: its plates only let through what shows under them */
    double hud = mean_lum(on, 14, 12, 250, 120) - mean_lum(off, 14, 12, 250, 120);
    TH_CHECK_MSG(hud < 0.35 * (a - b), "the HUD brightened by %.2f, the frame by %.2f", hud, a - b);
    (void)pl;
}

int main(void)
{
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/unit/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/unit/");
    g_root = at == std::string::npos ? std::string(".") : here.substr(0, at);
    if (g_root.empty()) g_root = ".";
    if (g_root[0] != '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) g_root = std::string(cwd) + "/" + g_root;
    }
    if (!g_root.empty() && g_root.back() == '/') g_root.pop_back();
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { printf("SDL_Init: %s\n0 passed, 1 failed\n", SDL_GetError()); return 1; }
    SDL_Window *win = SDL_CreateWindow("neon", 0, 0, W, H, 0);
    g_ren = win ? SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE) : nullptr;
    if (!g_ren) { printf("no renderer\n0 passed, 1 failed\n"); return 1; }
    SDL_RenderSetLogicalSize(g_ren, W, H);
    if (!render_init(g_ren, W, H, nullptr)) { printf("render_init failed (./build.sh assets tools)\n0 passed, 1 failed\n"); return 1; }
    double end = log_time() + 20;   /* the font bakes on a worker */
    while (log_time() < end && (g_render.font_worker.state != 0 || g_render.font_queued)) { assets_update(); SDL_Delay(5); }
    assets_update();
    harness_init(&g_h);
    render_fill_api(&g_h.pf);
    g_pf = g_h.pf;
    if (system(("mkdir -p '" + g_root + "/build/tests'").c_str()) != 0) return 1;

    TH_RUN(test_wave_1);
    TH_RUN(test_wave_6_crowded);
    TH_RUN(test_bomb);
    TH_RUN(test_upgrade);
    TH_RUN(test_glow);
    printf("  screenshots: %s/build/tests/neon_*.png\n", g_root.c_str());

    harness_free(&g_h);
    render_shutdown();
    SDL_DestroyRenderer(g_ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    return th_test_finish();
}
