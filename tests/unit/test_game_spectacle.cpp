/* NEON SWARM's second round on screen: the late game's crowd, a gravity well bending the grid and the shots, and
   a snake, drawn through the host's real renderer (platform/services/render.cpp, SDL's software renderer offscreen at
   1280x720) from the moments in game_scenes.h, each checked by its numbers and its pixels and written to
   docs/neon_late.png, docs/neon_well.png and docs/neon_snake.png (the pictures docs/neon_swarm.md shows).
   - late game: at least 300 enemies alive, their sparks in their colours, at least 4,000 particles after a bomb;
   - a well: the grid around it pulled in, player shots curving into it, its colour on screen;
   - a snake: its head and body on screen, a shot on the body stops without hurting it. */
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
#include "game_scenes.h"

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

/* The frame drawn twice, the second one kept: over its budget the glow pass may reuse the last frame's glow, which
   must be this scene's, not the one before. */
static Shot shot(const char *name)
{
    Shot s;
    for (int pass = 0; pass < 2; pass++) {
        SDL_SetRenderDrawColor(g_ren, 16, 18, 24, 255);
        SDL_RenderClear(g_ren);
        render_begin_frame();
        g_h.api.render(&g_h.mem, 0.0f, &g_h.pf);
        render_end_frame();
    }
    s.px.resize((size_t)W * H * 3);
    SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_RGB24, s.px.data(), W * 3);
    std::string path = g_root + "/" + name;
    stbi_write_png(path.c_str(), W, H, 3, s.px.data(), W * 3);
    return s;
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

static int g_max_particles;

static int colored_pixels(const Shot &s)
{
    /* the new kinds' colours: wanderer green, pinwheel purple, snake blue, well orange; and the drones' magenta */
    return count_near(s, 0x5CFF7A, 70) + count_near(s, 0xB46CFF, 70) + count_near(s, 0x4FA8FF, 70) + count_near(s, 0xFF6A3C, 60) +
           count_near(s, 0xFF4FD8, 70);
}

static void test_late_game(void)
{
    int alive = scene_late(&g_h, 9, 300);
    g_gs = (GameState *)g_h.mem.base;
    printf("  late game: %d enemies alive at %.0f s (phase %d), %u particles, zoom %.2f\n", alive, g_gs->run_time, g_gs->wave,
           g_gs->particle_count, g_gs->zoom);
    TH_CHECK(alive >= 300);
    Shot s = shot("docs/neon_late.png");
    int c = colored_pixels(s);
    printf("  late game: %d pixels in the enemies' colours\n", c);
    TH_CHECK(c > 2000);
    /* a bomb on that crowd: every enemy bursts in its own colour, and none of it scores */
    int kills = g_gs->kills;
    g_gs->bombs = 1;
    GameInput in;
    memset(&in, 0, sizeof in);
    in.pressed[KEY_F10] = 1;   /* the autopilot off, then a person's Q */
    harness_step(&g_h, &in);
    memset(&in, 0, sizeof in);
    in.pressed[KEY_Q] = 1;
    harness_step(&g_h, &in);
    g_max_particles = (int)g_gs->particle_count;
    printf("  late game: a bomb leaves %u particles, kills scored %d -> %d\n", g_gs->particle_count, kills, g_gs->kills);
    TH_CHECK(g_gs->particle_count >= 4000);
    TH_CHECK_MSG(g_gs->kills == kills, "the bomb's kills scored: %d", g_gs->kills - kills);
    scene_steps(&g_h, 3);
    shot("build/tests/neon_late_bomb.png");
}

static float grid_bend(GameState *gs)
{
    float most = 0;
    for (int j = 0; j < GRID_ROWS; j++)
        for (int i = 0; i < GRID_COLS; i++) most = th_maxf(most, v2_len(gs->grid[j][i].d));
    return most;
}

static void test_well(void)
{
    scene_well(&g_h);
    g_gs = (GameState *)g_h.mem.base;
    int wells = 0, curved = 0;
    for (uint32_t i = 0; i < thh_fixed_count(&g_gs->handles.head); i++) {
        Entity *e = &g_gs->entities[thh_index(thh_fixed_at(&g_gs->handles.head, i))];
        wells += e->type == ENTITY_WELL && !e->dead;
        if (e->type == ENTITY_BULLET && !e->dead && fabsf(th_wrap_anglef(face(e->vel) - atan2f(0.8f, 1.0f))) > 0.1f) curved++;
    }
    float bend = grid_bend(g_gs);
    printf("  well: %d alive, grid bent %.1f px, %d of the shots in flight curved\n", wells, bend, curved);
    TH_CHECK_EQ_INT(wells, 1);
    TH_CHECK(bend > 8.0f);
    TH_CHECK(curved > 0);
    Shot s = shot("docs/neon_well.png");
    TH_CHECK(count_near(s, 0xFF6A3C, 60) > 100);
}

static void test_snake(void)
{
    scene_snake(&g_h);
    g_gs = (GameState *)g_h.mem.base;
    int heads = 0, body = 0;
    Entity *seg = NULL;
    for (uint32_t i = 0; i < thh_fixed_count(&g_gs->handles.head); i++) {
        Entity *e = &g_gs->entities[thh_index(thh_fixed_at(&g_gs->handles.head, i))];
        heads += e->type == ENTITY_SNAKE;
        body += e->type == ENTITY_SNAKE_BODY;
        if (e->type == ENTITY_SNAKE_BODY) seg = e;
    }
    printf("  snake: %d heads, %d body segments\n", heads, body);
    TH_CHECK(heads >= 1 && body >= 12);
    if (seg) {   /* the body is armour: a shot stops on it and nothing else happens */
        damage_enemy(g_gs, seg, 1.0f, v2_make(0, 0));
        TH_CHECK(!seg->dead);
    }
    Shot s = shot("docs/neon_snake.png");
    TH_CHECK(count_near(s, 0x4FA8FF, 70) > 100);
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

    TH_RUN(test_late_game);
    TH_RUN(test_well);
    TH_RUN(test_snake);
    printf("  screenshots: %s/docs/neon_{late,well,snake}.png\n", g_root.c_str());

    harness_free(&g_h);
    render_shutdown();
    SDL_DestroyRenderer(g_ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    return th_test_finish();
}
