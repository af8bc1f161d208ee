/* Tests for the per-sprite blend modes and the glow pass of platform/services/render.cpp, read back as pixels, on SDL's
   software renderer (offscreen video driver) and, in a child of this program under Xvfb, on SDL's OpenGL
   renderer (Mesa's llvmpipe): additive sprites add, GLOW sprites get a halo that reaches past their edge, a
   sprite without the flag or an intensity of 0 has none, and the glow adds over what is under it; on the software
   renderer, the glow added on the CPU matches SDL's additive copy, letterboxed in a resized window too. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "services/render.cpp"
#include "services/assets.cpp"
#include "services/sprite_anim.cpp"
#include "services/font.cpp"
#include "services/notice.cpp"
#include "services/archive.cpp"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"

#include <time.h>

/* ---------------------------------------------------------------- host stubs */
#include "render_host_stubs.h"
#include "gl_child.h"
void log_message(int level, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("  [log %d] %s\n", level, buf);
}
void log_event(const char *ev, const char *fields_fmt, ...) { (void)ev; (void)fields_fmt; }

/* ---------------------------------------------------------------- fixture */
static const int VIEW_W = 320, VIEW_H = 240;
static SDL_Window *g_win;
static SDL_Renderer *g_ren;
PlatformAPI g_pf;
PlatformAPI *services_api(void) { return &g_pf; }
static std::string g_repo, g_renderer_name;

static bool run(const std::string &cmd) { return system(cmd.c_str()) == 0; }

static void wait_idle(double seconds = 10)
{
    double end = log_time() + seconds;
    while (log_time() < end) {
        assets_update();
        if (!g_render.pack.pid && g_render.atlas_worker.state == 0 && !g_render.pack_queued && g_render.font_worker.state == 0 && !g_render.font_queued) return;
        SDL_Delay(2);
    }
}

static std::vector<uint32_t> frame(void)
{
    render_end_frame();
    std::vector<uint32_t> px((size_t)VIEW_W * VIEW_H);
    SDL_Rect r = { 0, 0, VIEW_W, VIEW_H };
    SDL_RenderReadPixels(g_ren, &r, SDL_PIXELFORMAT_RGBA32, px.data(), VIEW_W * 4);
    return px;
}

static void begin(uint8_t grey = 0)
{
    SDL_SetRenderDrawColor(g_ren, grey, grey, grey, 255);
    SDL_RenderClear(g_ren);
    render_begin_frame();
}

static int red(const std::vector<uint32_t> &px, int x, int y) { return (int)(px[(size_t)y * VIEW_W + x] & 255); }

static void square(float x, float y, float size, uint32_t color, uint16_t flags, int layer = 0)
{
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.sprite = 0;   /* the white pixel */
    s.x = x; s.y = y;
    s.scale_x = s.scale_y = size;
    s.color = color;
    s.layer = (int16_t)layer;
    s.flags = flags;
    g_pf.draw_sprite(&s);
}

/* ---------------------------------------------------------------- tests */
static void test_additive_adds(void)
{
    begin();
    square(100, 100, 40, 0x404040FFu, 0);
    square(120, 100, 40, 0x404040FFu, 0);              /* alpha-blended: covers */
    square(100, 180, 40, 0x404040FFu, SPRITE_ADDITIVE);
    square(120, 180, 40, 0x404040FFu, SPRITE_ADDITIVE); /* additive: adds */
    std::vector<uint32_t> px = frame();
    TH_CHECK_EQ_INT(red(px, 130, 120), 0x40);
    TH_CHECK(abs(red(px, 130, 200) - 0x80) <= 2);
    TH_CHECK(abs(red(px, 105, 200) - 0x40) <= 2);
}

/* A 16 px white square on black: with GLOW, light 4..10 px outside its edge; the square itself stays white. */
static void test_glow_halo(void)
{
    g_pf.set_glow(1.0f);
    begin();
    square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
    std::vector<uint32_t> px = frame();
    printf("  glow on %s: centre %d, +4 px %d, +8 px %d, +12 px %d, far %d (%.2f ms)\n", g_renderer_name.c_str(), red(px, 160, 120),
           red(px, 172, 120), red(px, 176, 120), red(px, 180, 120), red(px, 40, 40), g_render.glow_ms);
    TH_CHECK_EQ_INT(red(px, 160, 120), 255);
    TH_CHECK(red(px, 172, 120) >= 24);   /* 4 px right of the edge */
    TH_CHECK(red(px, 176, 120) >= 10);   /* 8 px */
    TH_CHECK(red(px, 160, 132) >= 24);   /* 4 px below */
    TH_CHECK(red(px, 172, 120) >= red(px, 176, 120) && red(px, 176, 120) >= red(px, 180, 120));   /* fading with distance */
    TH_CHECK(red(px, 172, 120) > red(px, 180, 120));
    TH_CHECK_EQ_INT(red(px, 40, 40), 0);                /* and nothing far away */
    TH_CHECK(g_render.glow_ms > 0);
}

static void test_no_flag_no_halo(void)
{
    g_pf.set_glow(1.0f);
    begin();
    square(152, 112, 16, 0xFFFFFFFFu, 0);
    std::vector<uint32_t> px = frame();
    TH_CHECK_EQ_INT(red(px, 160, 120), 255);
    TH_CHECK_EQ_INT(red(px, 172, 120), 0);
    TH_CHECK_EQ_INT(red(px, 176, 120), 0);
    TH_CHECK(g_render.glow_ms == 0);   /* no GLOW sprite: no pass */
    g_pf.set_glow(0.0f);
    begin();
    square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
    px = frame();
    TH_CHECK_EQ_INT(red(px, 172, 120), 0);   /* intensity 0: off */
    g_pf.set_glow(1.0f);
}

/* The glow goes over the world's layers, under the screen-space ones (the HUD stays crisp). */
static void test_glow_under_ui_layers(void)
{
    g_pf.set_glow(1.0f);
    begin();
    square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
    square(170, 100, 10, 0x000000FFu, 0, GAME_LAYER_UI);   /* a black HUD plate right of the square */
    square(150, 100, 10, 0x000000FFu, 0, GAME_LAYER_UI - 1); /* the same in the world, left of it */
    std::vector<uint32_t> px = frame();
    TH_CHECK_EQ_INT(red(px, 173, 109), 0);   /* the HUD plate: no glow over it */
    TH_CHECK(red(px, 155, 109) >= 10);       /* the world plate: glowed over */
}

/* The halo is added over what is under it (a grey floor), and the intensity scales it. */
static void test_glow_adds_and_scales(void)
{
    g_pf.set_glow(1.0f);
    begin(40);
    square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
    std::vector<uint32_t> one = frame();
    g_pf.set_glow(2.0f);
    begin(40);
    square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
    std::vector<uint32_t> two = frame();
    g_pf.set_glow(1.0f);
    TH_CHECK_EQ_INT(red(one, 40, 40), 40);
    TH_CHECK(red(one, 172, 120) >= 40 + 24);
    int d1 = red(one, 174, 120) - 40, d2 = red(two, 174, 120) - 40;
    printf("  intensity 1: +%d, intensity 2: +%d\n", d1, d2);
    TH_CHECK(d2 >= 2 * d1 - 3 && d2 <= 2 * d1 + 3);
}

/* On the software renderer the glow is added on the CPU (SDL's additive copy of a whole frame is slow there): the
   picture is the one SDL's additive copy makes, to within the filtering (one bilinear 4x stretch instead of a
   bilinear 2x and a nearest 2x), on a scene of squares and thin lines over a grey floor, at intensities 1 and 1.5. */
static void test_cpu_add_matches_sdl_add(void)
{
    if (!g_render.glow_soft) return;   /* the OpenGL child: no CPU path */
    auto scene = [](float intensity) {
        g_pf.set_glow(intensity);
        begin(30);
        square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
        square(40, 30, 24, 0xFF4080FFu, SPRITE_GLOW);
        square(300, 220, 30, 0x40FF40FFu, SPRITE_GLOW);   /* over the right and bottom edges */
        for (int i = 0; i < 8; i++) square(20.0f + 37 * i, 180, 2, 0x80C0FFFFu, SPRITE_GLOW);
        return frame();
    };
    int worst = 0, lit = 0;
    double sum = 0, n = 0;
    for (float intensity : { 1.0f, 1.5f }) {
        g_render.glow_soft = 0;
        std::vector<uint32_t> sdl = scene(intensity);
        g_render.glow_soft = 1;
        std::vector<uint32_t> cpu = scene(intensity);
        for (size_t i = 0; i < cpu.size(); i++)
            for (int c = 0; c < 24; c += 8) {
                int d = abs((int)(cpu[i] >> c & 255) - (int)(sdl[i] >> c & 255));
                worst = std::max(worst, d);
                sum += d;
                n++;
                lit += (sdl[i] >> c & 255) > 40;
            }
    }
    g_pf.set_glow(1.0f);
    printf("  CPU add vs SDL's additive copy: largest channel difference %d, mean %.3f (%d lit channels)\n", worst, sum / n, lit);
    TH_CHECK(lit > 1000);
    TH_CHECK(worst <= 20);
    TH_CHECK(sum / n < 1.0);
}

/* The software renderer's budget: with a pass over it, every other frame adds the last pass's glow again (the
   halo stays where the square was), and the frame after draws a new one; under it, every frame draws its own. */
static void test_soft_budget_alternates(void)
{
    if (!g_render.glow_soft) return;   /* the OpenGL child: no budget */
    auto at = [](float x) {
        begin();
        square(x, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
        return frame();
    };
    g_pf.set_glow(1.0f);
    double budget = g_render.glow_budget_ms;
    g_render.glow_budget_ms = 1e9;   /* under budget: no frame reuses */
    at(60); at(60);
    TH_CHECK_EQ_INT(g_render.glow_reused, 0);
    g_render.glow_budget_ms = 0;     /* any pass is over it */
    at(60);                             /* reuses the last pass (the frame before drew its own) */
    TH_CHECK_EQ_INT(g_render.glow_reused, 1);
    std::vector<uint32_t> a = at(60);   /* a new pass */
    TH_CHECK_EQ_INT(g_render.glow_reused, 0);
    std::vector<uint32_t> b = at(220);  /* reuses: the halo is still around x = 68, none around x = 228 yet */
    TH_CHECK_EQ_INT(g_render.glow_reused, 1);
    std::vector<uint32_t> c = at(220);  /* a new pass again */
    TH_CHECK_EQ_INT(g_render.glow_reused, 0);
    printf("  budget: halo at the old place %d -> %d, at the new %d -> %d\n", red(a, 80, 120), red(b, 80, 120), red(b, 240, 120),
           red(c, 240, 120));
    TH_CHECK(red(b, 80, 120) >= 24 && red(b, 80, 120) == red(a, 80, 120));
    TH_CHECK(red(b, 240, 120) == 0 && red(c, 240, 120) >= 24);
    TH_CHECK_EQ_INT(red(b, 228, 120), 255);   /* the square itself is drawn where it is */
    g_render.glow_budget_ms = budget;
    at(0);   /* the next test starts from a frame of its own */
}

/* A window resized away from the view's shape: the view is scaled and letterboxed in it, and the CPU add still
   lands where SDL's additive copy does (the whole output read back, bars included). */
static void test_cpu_add_letterboxed(void)
{
    if (!g_render.glow_soft) return;
    SDL_SetWindowSize(g_win, 400, 360);   /* 320x240 at 1.25: 400x300, bars of 30 px above and below */
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) {}
    int ow = 0, oh = 0;
    SDL_GetRendererOutputSize(g_ren, &ow, &oh);
    auto shot = [&](int soft) {
        g_render.glow_soft = soft;
        begin(30);
        square(152, 112, 16, 0xFFFFFFFFu, SPRITE_GLOW);
        square(300, 220, 30, 0x40FF40FFu, SPRITE_GLOW);
        render_end_frame();
        SDL_RenderFlush(g_ren);
        SDL_RenderSetLogicalSize(g_ren, 0, 0);
        std::vector<uint32_t> px((size_t)ow * oh);
        SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_RGBA32, px.data(), ow * 4);
        SDL_RenderSetLogicalSize(g_ren, VIEW_W, VIEW_H);
        return px;
    };
    std::vector<uint32_t> sdl = shot(0), cpu = shot(1);
    int worst = 0, lit = 0;
    for (size_t i = 0; i < cpu.size(); i++)
        for (int c = 0; c < 24; c += 8) {
            worst = std::max(worst, abs((int)(cpu[i] >> c & 255) - (int)(sdl[i] >> c & 255)));
            lit += (sdl[i] >> c & 255) > 40;
        }
    /* the halo right of the square: (172, 120) in the view is (215, 180) in the output */
    printf("  letterboxed %dx%d: largest channel difference %d (%d lit channels), halo at the output's (215, 180): %d\n", ow, oh,
           worst, lit, (int)(cpu[(size_t)180 * ow + 215] & 255));
    SDL_SetWindowSize(g_win, VIEW_W, VIEW_H);
    while (SDL_PollEvent(&ev)) {}
    TH_CHECK(ow == 400 && oh == 360);
    TH_CHECK(lit > 300);
    TH_CHECK(worst <= 24);
    TH_CHECK((int)(cpu[(size_t)180 * ow + 215] & 255) >= 30 + 24);
    TH_CHECK((int)(cpu[(size_t)10 * ow + 200] & 255) == 30);   /* the bar above the view (cleared grey): nothing added */
}

/* The CPU add, pixel for pixel: a frame of noise and a 1/4 glow of noise, black in places (whole rows, the ends of
   rows, a band in the middle), added at intensities 1, 1.5 and 0.6; the frame read back is the one the plain sum
   gives: every source row stretched bilinearly to the frame's width, two rows blended, each channel scaled by the
   intensity and added saturating, the frame's alpha kept. Any change in what the add draws shows here. */
static uint32_t ref_scale(uint32_t p, uint32_t k) { return ((p & 0xFF00FF) * k >> 8 & 0xFF00FF) | ((p & 0xFF00) * k >> 8 & 0xFF00); }
static uint32_t ref_mix(uint32_t p, uint32_t q, uint32_t f)
{
    uint32_t out = 0;
    for (int c = 0; c < 24; c += 8) out |= (((p >> c & 255) * (256 - f) + (q >> c & 255) * f) >> 8) << c;
    return out;
}
static void test_cpu_add_exact(void)
{
    if (!g_render.glow_soft) return;
    const int gw = VIEW_W / 4, gh = VIEW_H / 4;
    uint32_t seed = 12345;
    auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
    std::vector<uint32_t> glow((size_t)gw * gh), noise((size_t)VIEW_W * VIEW_H);
    for (int y = 0; y < gh; y++)
        for (int x = 0; x < gw; x++) {
            bool black = y < 5 || (y >= 20 && y < 23) || y == gh - 1 || x < 3 + y % 7 || x > gw - 10 + y % 5 || (x >= 30 && x < 36);
            uint32_t p = rnd();
            if (y % 4 == 0) p |= 0xF0F0F0;   /* some channels near 255: the add saturates */
            glow[(size_t)y * gw + x] = black ? (rnd() & 0xFF000000u) : (p & 0xFFFFFF) | (rnd() << 24);
        }
    for (uint32_t &p : noise) p = rnd() | 0xFF000000u;
    SDL_Texture *gt = SDL_CreateTexture(g_ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, gw, gh);
    SDL_Texture *nt = SDL_CreateTexture(g_ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, VIEW_W, VIEW_H);
    TH_CHECK(gt && nt);
    if (!gt || !nt) return;
    SDL_UpdateTexture(gt, nullptr, glow.data(), gw * 4);
    SDL_UpdateTexture(nt, nullptr, noise.data(), VIEW_W * 4);
    SDL_SetTextureBlendMode(nt, SDL_BLENDMODE_NONE);
    std::vector<uint32_t> g((size_t)gw * gh);   /* the glow as the add reads it */
    SDL_SetRenderTarget(g_ren, gt);
    SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_ARGB8888, g.data(), gw * 4);
    SDL_SetRenderTarget(g_ren, nullptr);
    int mismatched = 0, changed = 0, untouched = 0;
    for (float intensity : { 1.0f, 1.5f, 0.6f }) {
        SDL_RenderCopy(g_ren, nt, nullptr, nullptr);
        std::vector<uint32_t> before((size_t)VIEW_W * VIEW_H), after(before.size());
        SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_ARGB8888, before.data(), VIEW_W * 4);
        g_render.glow_intensity = intensity;
        TH_CHECK(render_glow_add_cpu(gt, gw, gh, nullptr) == 1);
        SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_ARGB8888, after.data(), VIEW_W * 4);
        std::vector<uint32_t> want = before;
        for (float left = intensity; left > 0.004f; left -= 1.0f) {
            const uint32_t k = (uint32_t)lroundf(256 * std::min(left, 1.0f));
            for (int y = 0; y < VIEW_H; y++) {
                float v = std::min(std::max((y + 0.5f) * gh / VIEW_H - 0.5f, 0.0f), (float)(gh - 1));
                int r0 = (int)v, r1 = std::min(r0 + 1, gh - 1);
                const uint32_t fy = (uint32_t)lroundf((v - r0) * 256);
                for (int x = 0; x < VIEW_W; x++) {
                    float u = std::min(std::max((x + 0.5f) * gw / VIEW_W - 0.5f, 0.0f), (float)(gw - 1));
                    int c = std::min((int)u, std::max(gw - 2, 0));
                    const uint32_t fx = (uint32_t)lroundf((u - c) * 256);
                    auto at = [&](int r, int cc) { return ref_scale(g[(size_t)r * gw + cc], k); };
                    uint32_t top = ref_mix(at(r0, c), at(r0, c + 1), fx), bottom = ref_mix(at(r1, c), at(r1, c + 1), fx);
                    uint32_t add = ref_mix(top, bottom, fy), &d = want[(size_t)y * VIEW_W + x];
                    uint32_t sum = d & 0xFF000000u;
                    for (int ch = 0; ch < 24; ch += 8) sum |= (uint32_t)std::min(255u, (d >> ch & 255) + (add >> ch & 255)) << ch;
                    d = sum;
                }
            }
        }
        for (size_t i = 0; i < after.size(); i++) {
            mismatched += after[i] != want[i];
            changed += before[i] != want[i];
            untouched += before[i] == want[i];
        }
    }
    g_render.glow_intensity = 1.0f;
    SDL_DestroyTexture(gt);
    SDL_DestroyTexture(nt);
    printf("  CPU add vs the plain sum: %d pixels differ (%d changed by the glow, %d left as they were)\n", mismatched, changed, untouched);
    TH_CHECK(mismatched == 0);
    TH_CHECK(changed > 50000 && untouched > 10000);
}

/* The same on SDL's OpenGL renderer: this program again, under a virtual X display with Mesa's llvmpipe. */
static std::string g_self;
/* On the software renderer a big rectangle of one colour is filled rather than rasterized (draw_quads): the
   pixels are the ones its triangle pair gives, in its place among the layer's text and quads. The scene: a dim
   over everything, text on it, a panel over the text, text over the panel, a small rectangle, a turned one and a
   big glyph (drawn as triangles), and a rectangle with fractional edges, in a window the view's size and in one scaled
   by 1.25 (letterboxed). */
static void test_rect_fills_match_geometry(void)
{
    if (!g_render.glow_soft) return;   /* the OpenGL child draws every quad as triangles */
    auto scene = []() {
        begin(30);
        square(100, 100, 40, 0xFF4080FFu, 0);
        g_pf.draw_rect(0, 0, (float)VIEW_W, (float)VIEW_H, 0x05070CB0u, 5);
        g_pf.draw_text("AB", 20, 20, 24, 0xFFFFFFFFu, 5);
        g_pf.draw_rect(10, 10, 120, 60, 0x2040A0C0u, 5);
        g_pf.draw_text("CD", 30, 40, 24, 0xFFE040FFu, 5);
        g_pf.draw_rect(200, 150, 6, 6, 0xFF0000FFu, 5);
        g_pf.draw_text("W", 150, 90, 140, 0xFF80FFFFu, 5);   /* a glyph as big as a panel: triangles */
        GameSprite t;
        memset(&t, 0, sizeof t);
        t.x = 240; t.y = 60;
        t.scale_x = 90; t.scale_y = 50;
        t.rotation = 0.5f;
        t.origin_x = t.origin_y = 0.5f;
        t.color = 0x40FF40A0u;
        t.layer = 5;
        g_pf.draw_sprite(&t);
        g_pf.draw_rect(150.5f, 120.25f, 100.5f, 70.75f, 0xC0C0FFFFu, 6);
        render_end_frame();
        int w = 0, h = 0;
        SDL_GetRendererOutputSize(g_ren, &w, &h);
        std::vector<uint32_t> px((size_t)w * h);
        SDL_RenderReadPixels(g_ren, nullptr, SDL_PIXELFORMAT_RGBA32, px.data(), w * 4);
        return px;
    };
    for (int scaled = 0; scaled < 2; scaled++) {
        if (scaled) SDL_SetWindowSize(g_win, 400, 360);
        g_render.fill_rects = 0;
        std::vector<uint32_t> tri = scene();
        TH_CHECK_EQ_INT(g_render.fills, 0);
        g_render.fill_rects = 1;
        std::vector<uint32_t> fill = scene();
        int fills = g_render.fills, worst = 0, differ = 0;
        for (size_t i = 0; i < fill.size() && i < tri.size(); i++) {
            int d = 0;
            for (int c = 0; c < 32; c += 8) d = std::max(d, abs((int)(fill[i] >> c & 255) - (int)(tri[i] >> c & 255)));
            worst = std::max(worst, d);
            differ += d > 0;
        }
        printf("  %s: %d rectangles filled, %d pixels differ, largest channel difference %d\n",
               scaled ? "scaled 1.25" : "unscaled", fills, differ, worst);
        TH_CHECK_EQ_INT(fills, 3);
        TH_CHECK_EQ_INT((int)fill.size(), (int)tri.size());
        TH_CHECK_EQ_INT(differ, 0);
    }
    SDL_SetWindowSize(g_win, VIEW_W, VIEW_H);
    g_render.fill_rects = 1;
    begin();
    frame();
}

static void test_opengl_renderer(void)
{
    TH_CHECK(access("/usr/bin/xvfb-run", X_OK) == 0);   /* apt-get install xvfb xauth (build.sh's TEST_PACKAGES) */
    /* Under the sanitizers the child runs without LeakSanitizer: Mesa's and D-Bus's own allocations outlive
       the program (the software half above is checked for leaks as usual). */
    std::string cmd = gl_child_command(g_self, 640, 480, "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\"") + " 2>&1";
    printf("--- the OpenGL renderer under Xvfb ---\n");
    fflush(stdout);
    int rc = system(cmd.c_str());
    printf("--- (exit %d) ---\n", rc);
    TH_CHECK(rc == 0);
}

int main(int argc, char **argv)
{
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/unit/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/unit/");
    g_repo = at == std::string::npos ? std::string("./") : here.substr(0, at);
    if (g_repo.empty()) g_repo = "./";
    if (g_repo[0] != '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) g_repo = std::string(cwd) + "/" + g_repo;
    }
    const bool gl = argc > 1 && !strcmp(argv[1], "gl");   /* the child, under Xvfb */
    gl_child_video(gl);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { printf("SDL_Init: %s\n0 passed, 1 failed\n", SDL_GetError()); return 1; }
    g_win = SDL_CreateWindow("test", 0, 0, VIEW_W, VIEW_H, 0);
    g_ren = g_win ? SDL_CreateRenderer(g_win, -1, gl ? SDL_RENDERER_ACCELERATED : SDL_RENDERER_SOFTWARE) : nullptr;
    if (!g_ren) { printf("no renderer: %s\n0 passed, 1 failed\n", SDL_GetError()); return 1; }
    SDL_RendererInfo info;
    SDL_GetRendererInfo(g_ren, &info);
    g_renderer_name = info.name;
    printf("renderer %s\n", info.name);
    if (gl && g_renderer_name != "opengl") { printf("wanted SDL's opengl renderer, got %s\n0 passed, 1 failed\n", info.name); return 1; }
    SDL_RenderSetLogicalSize(g_ren, VIEW_W, VIEW_H);
    char tmpl[] = "/tmp/render_glow_XXXXXX";
    g_root = mkdtemp(tmpl);
    run("mkdir -p '" + g_root + "/build/tools' '" + g_root + "/assets/sprites'");
    run("ln -s '" + g_repo + "build/tools/font_bake' '" + g_root + "/build/tools/font_bake'");
    render_init(g_ren, VIEW_W, VIEW_H, nullptr);
    memset(&g_pf, 0, sizeof g_pf);
    render_fill_api(&g_pf);
    wait_idle();

    g_render.glow_budget_ms = 1e9;   /* every frame its own pass (a loaded machine would otherwise reuse some) */
    TH_RUN(test_additive_adds);
    TH_RUN(test_glow_halo);
    TH_RUN(test_no_flag_no_halo);
    TH_RUN(test_glow_adds_and_scales);
    TH_RUN(test_glow_under_ui_layers);
    TH_RUN(test_cpu_add_matches_sdl_add);
    TH_RUN(test_cpu_add_letterboxed);
    TH_RUN(test_cpu_add_exact);
    TH_RUN(test_soft_budget_alternates);
    TH_RUN(test_rect_fills_match_geometry);
    if (!gl) { g_self = argv[0]; TH_RUN(test_opengl_renderer); }

    render_shutdown();
    SDL_DestroyRenderer(g_ren);
    SDL_DestroyWindow(g_win);
    SDL_Quit();
    run("rm -rf '" + g_root + "'");
    return th_test_finish();
}
