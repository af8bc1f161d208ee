/* One frame of 10,000 32x32 sprites (4 atlas sprites, 4 layers, alpha-blended) in a 1280x720 view
   under SDL's offscreen driver and software renderer, two ways in the same run:
     render_10k_batched_ms     through platform/services/render.cpp: draw_sprite x 10,000, render_end_frame
                               (sort, quads, one SDL_RenderGeometry per (layer, page)), SDL_RenderFlush
     render_10k_rendercopy_ms  the same sprites, one SDL_RenderCopyF each in the same order, SDL_RenderFlush
     render_batched_vs_copy_x  rendercopy_ms / batched_ms (above 1: batching is faster)
   plus render_10k_batched_cpu_ms, the batched frame without the flush (what the host spends before
   the renderer rasterizes). Medians over interleaved repeats. Needs build/tools/atlas_pack.
   The glow pass (render.cpp's render_glow) at 1280x720: glow_pass_ms, a frame of 2,000 GLOW sprites minus the
   same frame without the flag (each ended by reading a pixel back, so the renderer has finished), and
   glow_pass_sdl_add_ms, the same with the glow added by SDL's additive copy rather than on the CPU;
   glow_pass_budgeted_ms, the mean over a run of glowing frames within the software renderer's budget (over it,
   every other frame adds the last pass's glow again).
   A menu over the game (a full-view dim and a panel, render.cpp's draw_quads): menu_dim_ms, filled as the software
   renderer does it, and menu_dim_triangles_ms, the same rectangles drawn as triangles, in the same run.
   Then all of it again on SDL's OpenGL renderer, in a child of this program under Xvfb with Mesa's llvmpipe:
   glow_pass_gl_ms and render_batched_vs_copy_gl_x (information only: llvmpipe rasterizes on the CPU). */
#include "services/render.cpp"
#include "services/assets.cpp"
#include "services/sprite_anim.cpp"
#include "services/font.cpp"
#include "services/notice.cpp"
#include "services/archive.cpp"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#include "bench_time.h"
#include "../unit/gl_child.h"

#include <time.h>

static std::string g_root;
PlatformAPI g_pf;   /* the host's service table, which notice.cpp draws through */
PlatformAPI *services_api(void) { return &g_pf; }

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
double log_time(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
const char *host_root(void) { return g_root.c_str(); }
/* assets.cpp reads the game's files through g_host_mode: the project root here, nothing else of it */
static HostMode root_only_mode(void)
{
    HostMode m;
    memset(&m, 0, sizeof m);
    m.game_folder = host_root;
    return m;
}
const HostMode g_host_mode = root_only_mode();
void parse_json_escape(const char *in, char *out, size_t cap) { snprintf(out, cap, "%s", in); }

static void sync_pixel(SDL_Renderer *ren)
{
    Uint32 px;
    SDL_Rect r = { 0, 0, 1, 1 };
    SDL_RenderReadPixels(ren, &r, SDL_PIXELFORMAT_RGBA32, &px, 4);
}

int main(int argc, char **argv)
{
    const bool gl = argc > 1 && !strcmp(argv[1], "gl");
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/bench/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/bench/");
    std::string repo = at == std::string::npos ? std::string("./") : here.substr(0, at);
    if (repo.empty()) repo = "./";
    std::string packer = repo + "build/tools/atlas_pack";
    char tmpl[] = "/tmp/bench_render_XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    g_root = tmpl;
    std::string src = g_root + "/assets/sprites";
    if (system(("mkdir -p '" + src + "'").c_str()) != 0) return 1;
    for (int k = 0; k < 4; k++) {
        std::vector<unsigned char> px(32 * 32 * 4);
        for (int i = 0; i < 32 * 32; i++) {
            int x = i % 32, y = i / 32, dx = x - 16, dy = y - 16;
            px[i * 4 + 0] = (unsigned char)(60 * k + x * 4);
            px[i * 4 + 1] = (unsigned char)(200 - y * 5);
            px[i * 4 + 2] = (unsigned char)(40 + 50 * k);
            px[i * 4 + 3] = dx * dx + dy * dy < 15 * 15 ? 255 : 0;   /* a disc: real alpha edges */
        }
        stbi_write_png((src + "/s" + std::to_string(k) + ".png").c_str(), 32, 32, 4, px.data(), 32 * 4);
    }
    if (system(("'" + packer + "' '" + src + "' '" + g_root + "/build/assets' > /dev/null").c_str()) != 0) {
        fprintf(stderr, "bench_render: %s failed (run ./build.sh tools)\n", packer.c_str());
        return 1;
    }
    /* the host bakes its font with the project's tools (<root>/build/tools/font_bake): this folder's are the
       checkout's, so the frames measured draw text as the game's do, not boxes */
    char tools[4096];
    if (!realpath((repo + "build/tools").c_str(), tools) || symlink(tools, (g_root + "/build/tools").c_str()) != 0)
        fprintf(stderr, "bench_render: no %sbuild/tools to bake the font with (run ./build.sh tools)\n", repo.c_str());

    gl_child_video(gl);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { fprintf(stderr, "SDL_Init: %s\n", SDL_GetError()); return 1; }
    const int W = 1280, H = 720, N = 10000, REPEATS = bench_runs(21, 3);
    SDL_Window *win = SDL_CreateWindow("bench", 0, 0, W, H, 0);
    SDL_Renderer *ren = win ? SDL_CreateRenderer(win, -1, gl ? SDL_RENDERER_ACCELERATED : SDL_RENDERER_SOFTWARE) : nullptr;
    SDL_RendererInfo info;
    if (ren && SDL_GetRendererInfo(ren, &info) == 0 && gl != !strcmp(info.name, "opengl")) {
        fprintf(stderr, "bench_render: wanted the %s renderer, got %s\n", gl ? "opengl" : "software", info.name);
        return 1;
    }
    if (!ren) { fprintf(stderr, "renderer: %s\n", SDL_GetError()); return 1; }
    SDL_RenderSetLogicalSize(ren, W, H);
    render_init(ren, W, H, nullptr);
    PlatformAPI pf;
    memset(&pf, 0, sizeof pf);
    render_fill_api(&pf);

    std::vector<GameSprite> sprites((size_t)N);
    srand(3);
    for (GameSprite &s : sprites) {
        memset(&s, 0, sizeof s);
        s.sprite = game_sprite_id(("s" + std::to_string(rand() % 4)).c_str());
        s.x = (float)(rand() % (W - 32));
        s.y = (float)(rand() % (H - 32));
        s.scale_x = s.scale_y = 1;
        s.color = 0xFFFFFFFFu;
        s.layer = (int16_t)(rand() % 4);
    }
    /* the copy baseline draws in the batch's order, so both produce the same picture */
    std::vector<GameSprite> ordered = sprites;
    std::stable_sort(ordered.begin(), ordered.end(), [](const GameSprite &a, const GameSprite &b) { return a.layer < b.layer; });
    struct Copy { SDL_Texture *tex; SDL_Rect src; SDL_FRect dst; };
    std::vector<Copy> copies;
    for (const GameSprite &s : ordered) {
        const SpriteInfo *si = render_sprite_lookup(s.sprite);
        if (!si || si->page < 0) { fprintf(stderr, "bench_render: sprite missing from the atlas\n"); return 1; }
        const Page &pg = g_render.pages[si->page];
        copies.push_back({ pg.tex, { (int)lroundf(si->u0 * pg.w), (int)lroundf(si->v0 * pg.h), 32, 32 }, { s.x, s.y, 32, 32 } });
    }

    std::vector<double> t_batch, t_cpu, t_copy;
    RenderStats st = { 0, 0, 0 };
    for (int r = 0; r < REPEATS; r++) {
        SDL_SetRenderDrawColor(ren, 0, 0, 0, 255);
        SDL_RenderClear(ren);
        SDL_RenderFlush(ren);
        double t0 = log_time();
        render_begin_frame();
        for (const GameSprite &s : sprites) pf.draw_sprite(&s);
        st = render_end_frame();
        double t1 = log_time();
        SDL_RenderFlush(ren);
        double t2 = log_time();
        t_cpu.push_back((t1 - t0) * 1000);
        t_batch.push_back((t2 - t0) * 1000);

        SDL_RenderClear(ren);
        SDL_RenderFlush(ren);
        t0 = log_time();
        for (const Copy &c : copies) SDL_RenderCopyF(ren, c.tex, &c.src, &c.dst);
        SDL_RenderFlush(ren);
        t_copy.push_back((log_time() - t0) * 1000);
    }
    double b = bench_median(t_batch), c = bench_median(t_copy), cpu = bench_median(t_cpu);
    fprintf(stderr, "bench_render: %d sprites, %d batches, %d draw calls\n", st.sprites, st.batches, st.draw_calls);

    /* the glow pass: 2,000 sprites with and without SPRITE_GLOW, interleaved; on the software renderer also
       with the glow added by SDL's additive copy instead of on the CPU (how it was done before) */
    std::vector<double> t_glow, t_plain, t_pass, t_sdl_add, t_budget;
    const int soft = g_render.glow_soft;
    const double budget = g_render.glow_budget_ms;
    g_render.glow_budget_ms = 1e9;   /* the whole pass every frame */
    auto glow_frame = [&](uint16_t flags) {   /* one frame of the 2,000 sprites, ended by a pixel read back: ms */
        SDL_RenderClear(ren);
        sync_pixel(ren);
        double t0 = log_time();
        render_begin_frame();
        for (int i = 0; i < 2000; i++) {
            GameSprite s = sprites[(size_t)i];
            s.flags = flags;
            pf.draw_sprite(&s);
        }
        render_end_frame();
        sync_pixel(ren);
        return (log_time() - t0) * 1000;
    };
    for (int r = 0; r < REPEATS; r++)
        for (int with = 0; with < (soft ? 3 : 2); with++) {
            g_render.glow_soft = with == 2 ? 0 : soft;
            (with == 2 ? t_sdl_add : with ? t_glow : t_plain).push_back(glow_frame(with ? SPRITE_GLOW : 0));
            if (with == 1) t_pass.push_back(g_render.glow_ms);
        }
    g_render.glow_soft = soft;
    /* the software renderer as it runs: within its budget, every other frame of a long run of glowing frames adds
       the last pass's glow again (a mean: the frames alternate between two costs) */
    g_render.glow_budget_ms = budget;
    for (int r = 0; soft && r < 2 * REPEATS; r++) t_budget.push_back(glow_frame(SPRITE_GLOW));
    double budget_mean = 0;
    for (double t : t_budget) budget_mean += t / (double)t_budget.size();
    double glow_budgeted = soft ? std::max(0.0, budget_mean - bench_median(t_plain)) : 0;
    double glow = std::max(0.0, bench_median(t_glow) - bench_median(t_plain));
    double glow_sdl_add = soft ? std::max(0.0, bench_median(t_sdl_add) - bench_median(t_plain)) : 0;
    /* a menu over the game: a full-view dim and a 660x340 panel, filled on the software renderer against drawn as
       triangles (how every quad was drawn before), interleaved */
    std::vector<double> t_fill, t_tri;
    const int fill_rects = g_render.fill_rects;
    auto menu_frame = [&]() {
        SDL_RenderClear(ren);
        sync_pixel(ren);
        double t0 = log_time();
        render_begin_frame();
        pf.draw_rect(0, 0, 1280, 720, 0x05070CB0u, 900);
        pf.draw_rect(310, 190, 660, 340, 0x070A12F0u, 901);
        render_end_frame();
        sync_pixel(ren);
        return (log_time() - t0) * 1000;
    };
    for (int r = 0; r < REPEATS; r++)
        for (int fill = 0; fill < (soft ? 2 : 1); fill++) {
            g_render.fill_rects = fill;
            (fill ? t_fill : t_tri).push_back(menu_frame());
        }
    g_render.fill_rects = fill_rects;
    double menu_fill = soft ? bench_median(t_fill) : 0, menu_tri = bench_median(t_tri);
    fprintf(stderr, "bench_render: a menu's dim and panel: %.3f ms filled, %.3f ms as triangles\n", menu_fill, menu_tri);
    fprintf(stderr, "bench_render (%s): 2000 sprites %.3f ms, with glow %.3f ms (the pass's own submission %.3f ms)",
            gl ? "opengl" : "software", bench_median(t_plain), bench_median(t_glow), bench_median(t_pass));
    if (soft) fprintf(stderr, "; added by SDL's additive copy instead: %.3f ms; within the %.1f ms budget, a run of frames: %.3f ms mean",
                      bench_median(t_sdl_add), budget, budget_mean);
    fprintf(stderr, "\n");
    render_shutdown();
    SDL_DestroyRenderer(ren);
    SDL_DestroyWindow(win);
    SDL_Quit();
    if (system(("rm -rf '" + g_root + "'").c_str()) != 0) fprintf(stderr, "bench_render: could not remove %s\n", g_root.c_str());
    if (gl) {
        printf("{\"glow_pass_gl_ms\": %.3f, \"render_batched_vs_copy_gl_x\": %.3f}\n", glow, c / b);
        return 0;
    }
    /* the OpenGL numbers from the child, merged into this one line */
    std::string gl_part = gl_child_fields(argv[0], W, H);
    if (gl_part.empty()) { fprintf(stderr, "bench_render: no OpenGL numbers (is xvfb installed?)\n"); return 1; }
    printf("{\"render_10k_batched_ms\": %.3f, \"render_10k_rendercopy_ms\": %.3f, \"render_batched_vs_copy_x\": %.3f, "
           "\"render_10k_batched_cpu_ms\": %.3f, \"glow_pass_ms\": %.3f, \"glow_pass_sdl_add_ms\": %.3f, \"glow_pass_budgeted_ms\": %.3f, "
           "\"menu_dim_ms\": %.3f, \"menu_dim_triangles_ms\": %.3f, %s}\n",
           b, c, c / b, cpu, glow, glow_sdl_add, glow_budgeted, menu_fill, menu_tri, gl_part.c_str());
    return 0;
}
