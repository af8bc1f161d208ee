/* Tests for platform/services/render.cpp (with assets.cpp, font.cpp and notice.cpp), compiled into this program with stub host services, under SDL's
   offscreen video driver and software renderer: batched drawing equals SDL_RenderCopy drawing pixel
   for pixel, one draw call per (layer, page) run, text boxes match measure_text, placeholders for
   unknown/broken sprites and fonts, the camera, screenshots, and assets reloading while it runs. */
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

#include <dirent.h>
#include <map>
#include <time.h>

/* ---------------------------------------------------------------- host stubs */
static std::string g_root;
static std::vector<std::string> g_logs;
static std::vector<std::pair<std::string, std::string>> g_events;   /* (ev, fields) */

void log_message(int level, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_logs.push_back(std::string(level >= LOG_ERROR ? "error: " : level == LOG_WARN ? "warn: " : "info: ") + buf);
    printf("  [log] %s\n", g_logs.back().c_str());
}

void log_event(const char *ev, const char *fields_fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fields_fmt);
    vsnprintf(buf, sizeof buf, fields_fmt, ap);
    va_end(ap);
    g_events.push_back({ ev, buf });
}

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

void parse_json_escape(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    for (; *in && o + 7 < cap; in++) {
        unsigned char c = (unsigned char)*in;
        if (c == '"' || c == '\\') { out[o++] = '\\'; out[o++] = (char)c; }
        else if (c < 0x20) o += (size_t)snprintf(out + o, cap - o, "\\u%04x", c);
        else out[o++] = (char)c;
    }
    out[o] = 0;
}

/* ---------------------------------------------------------------- fixture */
static const int VIEW_W = 320, VIEW_H = 240;
static SDL_Window *g_win;
static SDL_Renderer *g_ren;
PlatformAPI g_pf;
PlatformAPI *services_api(void) { return &g_pf; }
static std::string g_repo;

static int count_events(const char *ev, const char *needle = "")
{
    int n = 0;
    for (auto &e : g_events) n += e.first == ev && e.second.find(needle) != std::string::npos;
    return n;
}

static int count_logs(const char *needle)
{
    int n = 0;
    for (auto &l : g_logs) n += l.find(needle) != std::string::npos;
    return n;
}

static void write_png(const std::string &rel, int w, int h, unsigned seed, int solid = -1)
{
    std::vector<unsigned char> px((size_t)w * h * 4);
    for (size_t i = 0; i < px.size(); i += 4) {
        seed = seed * 1103515245u + 12345u;
        unsigned v = seed >> 8;
        if (solid >= 0) v = (unsigned)solid;
        px[i] = (unsigned char)v; px[i + 1] = (unsigned char)(v >> 8); px[i + 2] = (unsigned char)(v >> 16);
        px[i + 3] = solid >= 0 ? 255 : (unsigned char)((v >> 24) % 3 == 0 ? 255 : (v >> 24) % 3 == 1 ? 0 : 128);
    }
    std::string path = g_root + "/assets/sprites/" + rel;
    std::string dir = path.substr(0, path.rfind('/'));
    std::string cmd = "mkdir -p '" + dir + "'";
    if (system(cmd.c_str()) != 0) printf("mkdir failed\n");
    std::string tmp = path + ".partial";
    stbi_write_png(tmp.c_str(), w, h, 4, px.data(), w * 4);
    rename(tmp.c_str(), path.c_str());
}

/* Four flat quadrants: rotated copies from two rasterizers then differ only along edges. */
static void write_blocks(const std::string &rel, int w, int h)
{
    std::vector<unsigned char> px((size_t)w * h * 4);
    static const unsigned char C[4][3] = { { 230, 40, 40 }, { 40, 200, 60 }, { 50, 80, 230 }, { 240, 220, 60 } };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const unsigned char *c = C[(y >= h / 2) * 2 + (x >= w / 2)];
            unsigned char *p = &px[((size_t)y * w + x) * 4];
            p[0] = c[0]; p[1] = c[1]; p[2] = c[2]; p[3] = 255;
        }
    std::string path = g_root + "/assets/sprites/" + rel;
    stbi_write_png(path.c_str(), w, h, 4, px.data(), w * 4);
}

static void write_file(const std::string &path, const std::string &text)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f) return;
    fwrite(text.data(), 1, text.size(), f);
    fclose(f);
}

static bool run(const std::string &cmd) { return system(cmd.c_str()) == 0; }

static void make_root(void)
{
    char tmpl[] = "/tmp/render_test_0x_XXXXXX";   /* "0x" always in the name: a check must not match the folder */
    g_root = mkdtemp(tmpl);
    write_png("a.png", 32, 32, 1);
    write_png("b.png", 20, 12, 2);
    write_png("c/d.png", 7, 30, 3);
    write_png("big1.png", 600, 600, 4);   /* too big for a shared 512 page: a page of its own each */
    write_png("big2.png", 600, 600, 5);
    write_png("feet.png", 16, 16, 6);
    write_blocks("blocks.png", 32, 24);
    write_file(g_root + "/assets/sprites/feet.pivot", "0.5 1\n");
    write_file(g_root + "/assets/sprites/bad.png", "not a png");
    run("mkdir -p '" + g_root + "/build/tools' '" + g_root + "/assets/fonts'");
    run("ln -s '" + g_repo + "build/tools/atlas_pack' '" + g_root + "/build/tools/atlas_pack'");
    run("ln -s '" + g_repo + "build/tools/font_bake' '" + g_root + "/build/tools/font_bake'");
    run("'" + g_root + "/build/tools/atlas_pack' '" + g_root + "/assets/sprites' '" + g_root + "/build/assets' > /dev/null 2>&1");
}

static void wait_idle(double seconds = 5)
{
    double end = log_time() + seconds;
    while (log_time() < end) {
        assets_update();
        if (!g_render.pack.pid && g_render.atlas_worker.state == 0 && !g_render.pack_queued && g_render.font_worker.state == 0 && !g_render.font_queued) return;
        SDL_Delay(2);
    }
}

static bool wait_event(const char *ev, const char *needle, int before, double seconds = 10)
{
    double end = log_time() + seconds;
    while (log_time() < end) {
        assets_update();
        if (count_events(ev, needle) > before) return true;
        SDL_Delay(2);
    }
    return false;
}

static void start(const char *font)
{
    render_init(g_ren, VIEW_W, VIEW_H, font);
    memset(&g_pf, 0, sizeof g_pf);
    render_fill_api(&g_pf);
    wait_idle();
}

static std::vector<uint32_t> read_screen(int w = VIEW_W, int h = VIEW_H)
{
    std::vector<uint32_t> px((size_t)w * h);
    SDL_Rect r = { 0, 0, w, h };
    SDL_RenderReadPixels(g_ren, &r, SDL_PIXELFORMAT_RGBA32, px.data(), w * 4);
    return px;
}

static void clear(void)
{
    SDL_SetRenderDrawColor(g_ren, 16, 18, 24, 255);
    SDL_RenderClear(g_ren);
}

static uint32_t rgba(uint32_t px, int ch) { return (px >> (8 * ch)) & 255; }   /* RGBA32 read as uint32: r is byte 0 */

static GameSprite spr(const char *name, float x, float y, int layer)
{
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.sprite = name ? game_sprite_id(name) : 0;
    s.x = x; s.y = y;
    s.scale_x = s.scale_y = 1;
    s.color = 0xFFFFFFFFu;
    s.layer = (int16_t)layer;
    return s;
}

/* The same sprites drawn one SDL_RenderCopyEx each, in the order the batch promises. */
static void draw_reference(const std::vector<GameSprite> &in)
{
    struct Item { int idx, page; };
    std::vector<Item> items;
    for (int i = 0; i < (int)in.size(); i++) {
        const SpriteInfo *si = render_sprite_lookup(in[(size_t)i].sprite);
        int page = in[(size_t)i].sprite == 0 ? PAGE_SYSTEM : si && si->page >= 0 ? si->page : PAGE_PLACEHOLDER;
        items.push_back({ i, page });
    }
    std::stable_sort(items.begin(), items.end(), [&](const Item &a, const Item &b) {
        int la = in[(size_t)a.idx].layer, lb = in[(size_t)b.idx].layer;
        return la != lb ? la < lb : a.page < b.page;
    });
    for (const Item &it : items) {
        const GameSprite &s = in[(size_t)it.idx];
        SDL_Texture *tex;
        SDL_Rect src;
        float w, h, px = 0.5f, py = 0.5f;
        if (it.page == PAGE_SYSTEM) {
            tex = g_render.system;
            src = { g_render.font->white_x + 2, g_render.font->white_y + 2, 2, 2 };
            w = h = 1;
        } else if (it.page == PAGE_PLACEHOLDER) {
            tex = g_render.placeholder;
            src = { 0, 0, 16, 16 };
            api_sprite_size(s.sprite, &w, &h);
        } else {
            const SpriteInfo *si = render_sprite_lookup(s.sprite);
            const Page &pg = g_render.pages[it.page];
            tex = pg.tex;
            src = { (int)lroundf(si->u0 * pg.w), (int)lroundf(si->v0 * pg.h), (int)si->w, (int)si->h };
            w = si->w; h = si->h; px = si->pivot_x; py = si->pivot_y;
        }
        w *= s.scale_x;
        h *= s.scale_y;
        float ox = s.origin_x == GAME_ORIGIN_PIVOT ? px : s.origin_x, oy = s.origin_x == GAME_ORIGIN_PIVOT ? py : s.origin_y;
        float x = s.x, y = s.y;
        if (s.layer < GAME_LAYER_UI) {
            x = (x - g_render.cam_x) * g_render.cam_zoom;
            y = (y - g_render.cam_y) * g_render.cam_zoom;
            w *= g_render.cam_zoom;
            h *= g_render.cam_zoom;
        }
        SDL_FRect dst = { x - ox * w, y - oy * h, w, h };
        SDL_FPoint center = { ox * w, oy * h };
        SDL_SetTextureColorMod(tex, (Uint8)(s.color >> 24), (Uint8)(s.color >> 16), (Uint8)(s.color >> 8));
        SDL_SetTextureAlphaMod(tex, (Uint8)s.color);
        int flip = ((s.flags & SPRITE_FLIP_X) ? SDL_FLIP_HORIZONTAL : 0) | ((s.flags & SPRITE_FLIP_Y) ? SDL_FLIP_VERTICAL : 0);
        SDL_RenderCopyExF(g_ren, tex, &src, &dst, s.rotation * 57.29577951308232, &center, (SDL_RendererFlip)flip);
        SDL_SetTextureColorMod(tex, 255, 255, 255);
        SDL_SetTextureAlphaMod(tex, 255);
    }
}

static RenderStats draw_batched(const std::vector<GameSprite> &in)
{
    render_begin_frame();
    for (const GameSprite &s : in) g_pf.draw_sprite(&s);
    return render_end_frame();
}

struct Diff { int differ, big; };
static Diff compare(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b, int tol)
{
    Diff d = { 0, 0 };
    for (size_t i = 0; i < a.size(); i++) {
        if (a[i] == b[i]) continue;
        d.differ++;
        int m = 0;
        for (int c = 0; c < 4; c++) m = std::max(m, abs((int)rgba(a[i], c) - (int)rgba(b[i], c)));
        if (m > tol) d.big++;
    }
    return d;
}

static void save_png(const char *name, const std::vector<uint32_t> &px, int w = VIEW_W, int h = VIEW_H)
{
    std::string p = g_repo + "build/tests/" + name;
    stbi_write_png(p.c_str(), w, h, 4, px.data(), w * 4);
}

/* ---------------------------------------------------------------- tests */
static void test_atlas_loaded(void)
{
    TH_CHECK_EQ_INT(g_render.page_count, 3);
    const SpriteInfo *b1 = render_sprite_lookup(game_sprite_id("big1")), *b2 = render_sprite_lookup(game_sprite_id("big2"));
    TH_CHECK(b1 && b2 && b1->page != b2->page);
    float w = 0, h = 0;
    TH_CHECK_EQ_INT(g_pf.sprite_size(game_sprite_id("b"), &w, &h), 1);
    TH_CHECK(w == 20 && h == 12);
    TH_CHECK_EQ_INT(g_pf.sprite_size(game_sprite_id("c/d"), &w, &h), 1);
    TH_CHECK(w == 7 && h == 30);
    TH_CHECK_EQ_INT(g_pf.sprite_size(game_sprite_id("nope"), &w, &h), 0);
    TH_CHECK_EQ_INT(g_pf.sprite_size(game_sprite_id("bad"), &w, &h), 0);
    TH_CHECK_EQ_INT(g_pf.sprite_size(0, &w, &h), 1);
    /* the broken image was reported once, with its file and reason */
    TH_CHECK_EQ_INT(count_events("asset_error", "bad.png"), 1);
    TH_CHECK_EQ_INT(count_logs("bad.png"), 1);
}

static std::vector<GameSprite> scene(void)
{
    std::vector<GameSprite> v;
    const char *names[] = { "a", "b", "c/d", "big1", "big2", "feet", nullptr };
    unsigned seed = 5;
    for (int i = 0; i < 120; i++) {
        seed = seed * 1103515245u + 12345u;
        GameSprite s = spr(names[(seed >> 8) % 7], (float)((seed >> 12) % 300), (float)((seed >> 3) % 220), (int)((seed >> 20) % 4) * 10);
        if (s.sprite == game_sprite_id("big1") || s.sprite == game_sprite_id("big2")) s.scale_x = s.scale_y = 0.1f;
        if (!s.sprite) { s.scale_x = 9; s.scale_y = 5; }
        if (i % 5 == 1) s.flags = SPRITE_FLIP_X;
        if (i % 7 == 2) s.flags = SPRITE_FLIP_Y;
        if (i % 4 == 3) { s.scale_x *= 2; s.scale_y *= 1.5f; }
        if (i % 6 == 0) s.color = 0xFF8040C0u;
        if (i % 9 == 0) s.origin_x = s.origin_y = 0.5f;
        if (i % 11 == 0) s.origin_x = GAME_ORIGIN_PIVOT;
        if (i % 13 == 0) s.layer = GAME_LAYER_UI + 1;
        v.push_back(s);
    }
    v.push_back(spr("nope", 10, 200, 20));   /* unknown id: placeholder page */
    v.push_back(spr("bad", 60, 200, 20));    /* broken image: placeholder page */
    return v;
}

static int expected_runs(const std::vector<GameSprite> &in)
{
    std::vector<std::pair<int, int>> keys;
    for (const GameSprite &s : in) {
        const SpriteInfo *si = render_sprite_lookup(s.sprite);
        keys.push_back({ s.layer, s.sprite == 0 ? PAGE_SYSTEM : si && si->page >= 0 ? si->page : PAGE_PLACEHOLDER });
    }
    std::sort(keys.begin(), keys.end());
    return (int)(std::unique(keys.begin(), keys.end()) - keys.begin());
}

static void test_batched_equals_rendercopy(void)
{
    for (int cam = 0; cam < 2; cam++) {
        if (cam) g_pf.set_camera(-13, 7, 0.75f);
        std::vector<GameSprite> sc = scene();
        clear();
        RenderStats st = draw_batched(sc);
        std::vector<uint32_t> batched = read_screen();
        clear();
        draw_reference(sc);
        std::vector<uint32_t> ref = read_screen();
        Diff d = compare(batched, ref, 2);
        TH_CHECK_MSG(d.big == 0, "camera %d: %d pixels differ by more than 2 (%d differ at all)", cam, d.big, d.differ);
        TH_CHECK_EQ_INT(st.sprites, (int)sc.size());
        TH_CHECK_EQ_INT(st.batches, expected_runs(sc));
        TH_CHECK_EQ_INT(st.draw_calls, st.batches);
        TH_CHECK(st.batches > 8);
        int lit = 0;
        for (uint32_t p : batched) lit += p != batched[0];
        TH_CHECK_MSG(lit > 5000, "scene mostly empty (%d pixels drawn)", lit);
        if (cam == 0) save_png("render_scene.png", batched);
    }
    g_pf.set_camera(0, 0, 1);
}

static void test_rotated_sprites_close_to_rendercopyex(void)
{
    std::vector<GameSprite> sc;
    for (int i = 0; i < 12; i++) {
        GameSprite s = spr("blocks", 30.0f + (i % 6) * 50, 60.0f + (i / 6) * 100, i);
        s.rotation = 0.3f + 0.5f * i;
        s.origin_x = s.origin_y = 0.5f;
        s.scale_x = s.scale_y = 1.5f;
        sc.push_back(s);
    }
    clear();
    draw_batched(sc);
    std::vector<uint32_t> batched = read_screen();
    clear();
    draw_reference(sc);
    std::vector<uint32_t> ref = read_screen();
    Diff d = compare(batched, ref, 40);
    int covered = 0;
    for (size_t i = 0; i < ref.size(); i++) covered += ref[i] != ref[0] || batched[i] != batched[0];
    /* two rasterizers: edges and sample positions differ a little, the picture may not */
    TH_CHECK_MSG(covered > 3000 && d.big < covered / 10, "%d of %d covered pixels differ by more than 40", d.big, covered);
    save_png("render_rotated.png", batched);
}

static void test_batch_boundaries_and_order(void)
{
    /* page order inside a layer, submission order inside a page, layers ascending */
    std::vector<GameSprite> sc;
    sc.push_back(spr("big1", 0, 0, 5));
    sc.push_back(spr("a", 0, 0, 5));
    sc.push_back(spr(nullptr, 0, 0, 5));
    sc.push_back(spr("b", 0, 0, 5));
    sc.push_back(spr("a", 0, 0, -3));
    sc.push_back(spr("nope", 0, 0, 5));
    clear();
    RenderStats st = draw_batched(sc);
    TH_CHECK_EQ_INT(st.batches, expected_runs(sc));
    TH_CHECK_EQ_INT(st.draw_calls, expected_runs(sc));
    const thsb_batcher &sb = g_render.sb;
    for (int b = 1; b < sb.batch_count; b++)
        TH_CHECK(std::make_pair(sb.batches[b - 1].layer, sb.batches[b - 1].page) < std::make_pair(sb.batches[b].layer, sb.batches[b].page));
    TH_CHECK_EQ_INT(sb.batches[0].layer, -3);
    TH_CHECK_EQ_INT(sb.batches[sb.batch_count - 1].page, PAGE_SYSTEM);
    TH_CHECK_EQ_INT(sb.batches[sb.batch_count - 2].page, PAGE_PLACEHOLDER);
}

static void test_camera_and_pivot(void)
{
    g_pf.set_camera(50, 20, 2);
    GameSprite w = spr(nullptr, 100, 100, 0);           /* 1x1 white at world (100,100) -> screen (100,160), 2x2 */
    GameSprite u = spr(nullptr, 10, 10, GAME_LAYER_UI);  /* screen space: untouched */
    u.scale_x = u.scale_y = 3;
    u.color = 0xFF0000FFu;
    clear();
    draw_batched({ w, u });
    std::vector<uint32_t> px = read_screen();
    auto at = [&](int x, int y) { return px[(size_t)y * VIEW_W + x]; };
    TH_CHECK_EQ_INT(rgba(at(100, 160), 0), 255);
    TH_CHECK_EQ_INT(rgba(at(101, 161), 1), 255);
    TH_CHECK(rgba(at(102, 160), 0) < 100);
    TH_CHECK(rgba(at(99, 160), 0) < 100);
    TH_CHECK_EQ_INT(rgba(at(10, 10), 0), 255);
    TH_CHECK_EQ_INT(rgba(at(12, 12), 1), 0);
    TH_CHECK(rgba(at(13, 13), 0) < 100);
    g_pf.set_camera(0, 0, 1);
    /* "feet" has pivot (0.5, 1): drawn with GAME_ORIGIN_PIVOT its bottom centre lands on (x, y) */
    GameSprite f = spr("feet", 100, 100, 0);
    f.origin_x = GAME_ORIGIN_PIVOT;
    clear();
    draw_batched({ f });
    px = read_screen();
    int minx = VIEW_W, maxx = -1, miny = VIEW_H, maxy = -1;
    for (int y = 0; y < VIEW_H; y++)
        for (int x = 0; x < VIEW_W; x++)
            if (at(x, y) != at(0, 0)) { minx = std::min(minx, x); maxx = std::max(maxx, x); miny = std::min(miny, y); maxy = std::max(maxy, y); }
    TH_CHECK(minx >= 92 && maxx <= 107 && miny >= 84 && maxy <= 99 && maxy >= 95);
}

static void ink_box(const std::vector<uint32_t> &px, int *x0, int *y0, int *x1, int *y1, int *count)
{
    *x0 = VIEW_W; *y0 = VIEW_H; *x1 = -1; *y1 = -1; *count = 0;
    for (int y = 0; y < VIEW_H; y++)
        for (int x = 0; x < VIEW_W; x++)
            if (rgba(px[(size_t)y * VIEW_W + x], 1) > 80) {
                *x0 = std::min(*x0, x); *x1 = std::max(*x1, x); *y0 = std::min(*y0, y); *y1 = std::max(*y1, y);
                (*count)++;
            }
}

static void test_text_box_matches_measure(void)
{
    struct Case { const char *s; float size; int lines; } cases[] = {
        { "Hello, W\xC3\xB6rld! AV", 32, 1 }, { "Jig\xC3\x89 quartz", 24, 1 }, { "line one\nsecond, longer line", 16, 2 },
        { "scaled 22px", 22, 1 }, { "tiny", 12, 1 }, { "Big", 64, 1 },
    };
    for (const Case &c : cases) {
        float mw = 0, mh = 0;
        g_pf.measure_text(c.s, c.size, &mw, &mh);
        float x = 20, y = 30;
        SDL_SetRenderDrawColor(g_ren, 0, 0, 0, 255);
        SDL_RenderClear(g_ren);
        render_begin_frame();
        float dw = g_pf.draw_text(c.s, x, y, c.size, 0xFFFFFFFFu, GAME_LAYER_UI);
        render_end_frame();
        std::vector<uint32_t> px = read_screen();
        int x0, y0, x1, y1, n;
        ink_box(px, &x0, &y0, &x1, &y1, &n);
        TH_CHECK_NEAR(dw, mw, 1e-3);
        TH_CHECK_MSG(n > c.size * 3, "'%s': only %d glyph pixels", c.s, n);
        TH_CHECK_MSG(x0 >= x - 2 && y0 >= y - 1 && x1 <= x + mw + 1 && y1 <= y + mh + 1,
                     "'%s' %.0fpx: ink (%d,%d)-(%d,%d) outside the measured box (%.0f,%.0f) %.1fx%.1f", c.s, c.size, x0, y0, x1, y1, x, y, mw, mh);
        TH_CHECK_MSG(x1 - x0 + 1 >= mw - 0.2f * c.size, "'%s': ink width %d vs measured %.1f", c.s, x1 - x0 + 1, mw);
        TH_CHECK_MSG(y1 - y0 + 1 >= mh * 0.55f, "'%s': ink height %d vs measured %.1f", c.s, y1 - y0 + 1, mh);
        TH_CHECK_NEAR(mh, c.lines * c.size, 0.5f);
        if (c.size == 32) save_png("render_text.png", px);
    }
    float a = 0, v = 0, av = 0, h = 0;
    g_pf.measure_text("A", 48, &a, &h);
    g_pf.measure_text("V", 48, &v, &h);
    g_pf.measure_text("AV", 48, &av, &h);
    TH_CHECK_MSG(av < a + v - 1, "no kerning: AV %.2f vs A+V %.2f", av, a + v);
    float e = 0, ea = 0;
    g_pf.measure_text("e", 32, &e, &h);
    g_pf.measure_text("\xC3\xA9", 32, &ea, &h);
    TH_CHECK_NEAR(e, ea, 0.01);
    float empty_w = 1, empty_h = 0;
    g_pf.measure_text("", 16, &empty_w, &empty_h);
    TH_CHECK(empty_w == 0 && empty_h == 16);
    /* invalid UTF-8 and unknown characters do not stop the string */
    float bad = 0;
    g_pf.measure_text("a\xFF\xC3(b\xE2\x82", 16, &bad, &h);
    TH_CHECK(bad > 0);
}

static void test_placeholder_checker(void)
{
    GameSprite u = spr("nope", 40, 40, 0);
    GameSprite b = spr("bad", 120, 40, 0);
    u.scale_x = u.scale_y = 2;
    clear();
    draw_batched({ u, b });
    std::vector<uint32_t> px = read_screen();
    auto count = [&](int x0, int y0, int w, int h, int *magenta, int *black) {
        *magenta = *black = 0;
        for (int y = y0; y < y0 + h; y++)
            for (int x = x0; x < x0 + w; x++) {
                uint32_t p = px[(size_t)y * VIEW_W + x];
                if (rgba(p, 0) == 255 && rgba(p, 1) == 0 && rgba(p, 2) == 255) (*magenta)++;
                if (rgba(p, 0) == 0 && rgba(p, 1) == 0 && rgba(p, 2) == 0) (*black)++;
            }
    };
    int m, k;
    count(40, 40, 64, 64, &m, &k);
    TH_CHECK_MSG(m > 1500 && k > 1500, "unknown id: %d magenta, %d black", m, k);
    count(120, 40, 32, 32, &m, &k);
    TH_CHECK_MSG(m > 400 && k > 400, "broken image: %d magenta, %d black", m, k);
    /* the message names the id (not just any "0x": the temp folder's random name can hold one) */
    char unknown[64];
    snprintf(unknown, sizeof unknown, "sprite id 0x%08x is not in", u.sprite);
    TH_CHECK_EQ_INT(count_logs(unknown), 1);   /* the unknown id is reported once... */
    draw_batched({ u });
    TH_CHECK_EQ_INT(count_logs(unknown), 1);   /* ...not every frame */
    save_png("render_placeholder.png", px);
}

static void test_capacity_overflow(void)
{
    render_begin_frame();
    for (int i = 0; i < RENDER_MAX_SPRITES + 100; i++) g_pf.draw_rect(1, 1, 1, 1, 0xFFFFFFFFu, 0);
    RenderStats st = render_end_frame();
    TH_CHECK_EQ_INT(st.sprites, RENDER_MAX_SPRITES + 100);
    TH_CHECK_EQ_INT(st.draw_calls, 1);
    TH_CHECK(count_logs("dropped") >= 1);
}

static void test_screenshot_output_size(void)
{
    SDL_SetWindowSize(g_win, VIEW_W * 2, VIEW_H * 2);
    SDL_RenderSetLogicalSize(g_ren, VIEW_W, VIEW_H);
    clear();
    render_begin_frame();
    g_pf.draw_rect(10, 10, 20, 10, 0x00FF00FFu, 0);
    render_end_frame();
    std::string path = g_root + "/shot.png";
    TH_CHECK_EQ_INT(render_screenshot(path.c_str()), 1);
    int w = 0, h = 0, n = 0;
    unsigned char *d = stbi_load(path.c_str(), &w, &h, &n, 3);
    TH_CHECK(d != NULL);
    if (d) {
        TH_CHECK_EQ_INT(w, VIEW_W * 2);
        TH_CHECK_EQ_INT(h, VIEW_H * 2);
        const unsigned char *in = d + ((size_t)30 * w + 30) * 3, *out = d + ((size_t)70 * w + 30) * 3;
        TH_CHECK(in[0] == 0 && in[1] == 255 && in[2] == 0);
        TH_CHECK(out[0] == 16 && out[1] == 18 && out[2] == 24);
        stbi_image_free(d);
    }
    int lw = 0, lh = 0;
    SDL_RenderGetLogicalSize(g_ren, &lw, &lh);
    TH_CHECK(lw == VIEW_W && lh == VIEW_H);
    TH_CHECK_EQ_INT(render_screenshot((g_root + "/no/such/dir/shot.png").c_str()), 0);
    SDL_SetWindowSize(g_win, VIEW_W, VIEW_H);
    SDL_RenderSetLogicalSize(g_ren, VIEW_W, VIEW_H);
}

static uint32_t pixel_of_sprite(const char *name)
{
    GameSprite s = spr(name, 100, 100, 0);
    clear();
    draw_batched({ s });
    std::vector<uint32_t> px = read_screen();
    return px[(size_t)110 * VIEW_W + 110];
}

static void test_png_reload_break_and_fix(void)
{
    std::string a = g_root + "/assets/sprites/a.png";
    std::string saved = g_root + "/a.saved";
    run("cp '" + a + "' '" + saved + "'");
    /* new art */
    int before = count_events("asset_reload");
    write_png("a.png", 32, 32, 0, 0x00FF00);
    assets_file_changed(a.c_str());
    TH_CHECK(wait_event("asset_reload", "a.png", before - 0));
    uint32_t p = pixel_of_sprite("a");
    TH_CHECK_MSG(rgba(p, 0) == 0 && rgba(p, 1) == 255 && rgba(p, 2) == 0, "after reload a is %08x", p);
    TH_CHECK_EQ_INT(g_render.page_count, 3);
    /* broken: placeholder + error event naming the file */
    int errors = count_events("asset_error", "a.png");
    write_file(a, "garbage");
    assets_file_changed(a.c_str());
    TH_CHECK(wait_event("asset_error", "a.png", errors));
    wait_idle();
    p = pixel_of_sprite("a");
    TH_CHECK_MSG((rgba(p, 0) == 255 && rgba(p, 2) == 255 && rgba(p, 1) == 0) || (rgba(p, 0) == 0 && rgba(p, 1) == 0 && rgba(p, 2) == 0),
                 "broken a is %08x, not the checker", p);
    float w = 0, h = 0;
    g_pf.sprite_size(game_sprite_id("a"), &w, &h);
    TH_CHECK(w == 32 && h == 32);   /* the placeholder keeps the last known size */
    /* fixed: back to the original pixels */
    before = count_events("asset_reload");
    run("cp '" + saved + "' '" + a + "'");
    assets_file_changed(a.c_str());
    TH_CHECK(wait_event("asset_reload", "a.png", before));
    int x0 = 0;
    std::vector<GameSprite> one = { spr("a", 100, 100, 0) };
    clear();
    draw_batched(one);
    std::vector<uint32_t> batched = read_screen();
    clear();
    draw_reference(one);
    std::vector<uint32_t> ref = read_screen();
    x0 = compare(batched, ref, 0).differ;
    TH_CHECK_EQ_INT(x0, 0);
    p = pixel_of_sprite("a");
    TH_CHECK(!(rgba(p, 0) == 0 && rgba(p, 1) == 255 && rgba(p, 2) == 0));
    /* several changes while a pack runs: exactly one more pack, then quiet */
    int packs_before = count_events("asset_reload");
    write_png("b.png", 20, 12, 77);
    assets_file_changed((g_root + "/assets/sprites/b.png").c_str());
    assets_update();
    for (int i = 0; i < 5; i++) assets_file_changed((g_root + "/assets/sprites/c/d.png").c_str());
    TH_CHECK_EQ_INT(g_render.pack_queued, 1);
    wait_idle();
    TH_CHECK_EQ_INT(count_events("asset_reload") - packs_before, 2);
    /* the ms field is there */
    const std::string &last = g_events.back().second;
    TH_CHECK(last.find("\"ms\":") != std::string::npos);
}

static void test_font_reload_and_missing_font(void)
{
    /* a project font appearing under assets/fonts/ replaces the default */
    float before = 0, after = 0, h = 0;
    g_pf.measure_text("iiii", 32, &before, &h);
    std::string proj = g_root + "/assets/fonts/default.ttf";
    run("cp /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf '" + proj + "'");
    int n = count_events("asset_reload", "default.ttf");
    assets_file_changed(proj.c_str());
    TH_CHECK(wait_event("asset_reload", "default.ttf", n));
    g_pf.measure_text("iiii", 32, &after, &h);
    TH_CHECK_MSG(after > before * 1.5f, "monospace 'iiii' %.1f vs proportional %.1f", after, before);
    /* corrupt it: one clear error, no crash, and the monospace font it had keeps drawing */
    const float mono = after;
    int errs = count_events("asset_error", "default.ttf");
    write_file(proj, std::string(4000, 'x'));
    assets_file_changed(proj.c_str());
    TH_CHECK(wait_event("asset_error", "default.ttf", errs));
    clear();
    render_begin_frame();
    float w = g_pf.draw_text("kept", 10, 10, 20, 0xFFFFFFFFu, GAME_LAYER_UI);
    render_end_frame();
    TH_CHECK(w > 0);
    g_pf.measure_text("iiii", 32, &after, &h);
    TH_CHECK_NEAR(after, mono, 0.01);
    /* truncated copy of a real font: the same */
    run("head -c 30000 /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf > '" + proj + "'");
    errs = count_events("asset_error", "default.ttf");
    assets_file_changed(proj.c_str());
    TH_CHECK(wait_event("asset_error", "default.ttf", errs));
    TH_CHECK(g_render.font->ok && g_render.font->path == proj);
    TH_CHECK(g_render.font_path == proj);                         /* still the font it wants: a fix reloads it */
    /* removing it goes back to the default font */
    remove(proj.c_str());
    n = count_events("asset_reload", "default.ttf");
    assets_file_changed(proj.c_str());
    TH_CHECK(wait_event("asset_reload", "default.ttf", n));
    TH_CHECK(g_render.font->ok);
    g_pf.measure_text("iiii", 32, &after, &h);
    TH_CHECK_NEAR(after, before, 0.01);

    /* a --font that does not exist: one error, and text still reads in the default font */
    render_shutdown();
    int logs = count_logs("/no/such/font.ttf");
    start("/no/such/font.ttf");
    TH_CHECK_EQ_INT(count_logs("/no/such/font.ttf") - logs, 1);
    TH_CHECK(count_events("asset_error", "/no/such/font.ttf") >= 1);
    TH_CHECK(g_render.font && g_render.font->ok && g_render.font->path == "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    g_pf.measure_text("iiii", 32, &after, &h);
    TH_CHECK_NEAR(after, before, 0.01);
    /* no baker either (tools not built): boxes stand in, and the message says what to do */
    render_shutdown();
    run("mv '" + g_root + "/build/tools/font_bake' '" + g_root + "/build/font_bake.saved'");
    int missing = count_events("asset_error", "run ./build.sh tools");
    start("/no/such/font.ttf");
    run("mv '" + g_root + "/build/font_bake.saved' '" + g_root + "/build/tools/font_bake'");
    TH_CHECK(count_events("asset_error", "run ./build.sh tools") > missing);
    TH_CHECK(g_render.font && !g_render.font->ok);
    clear();
    render_begin_frame();
    w = g_pf.draw_text("Missing font", 10, 10, 20, 0xFFFFFFFFu, GAME_LAYER_UI);
    float mw = 0, mh = 0;
    g_pf.measure_text("Missing font", 20, &mw, &mh);
    RenderStats st = render_end_frame();
    TH_CHECK(w > 0 && w == mw && mh == 20);
    TH_CHECK_EQ_INT(st.draw_calls, 3);                       /* the text, and the notice's panel and line */
    TH_CHECK(g_render.notice.find("/no/such/font.ttf") != std::string::npos);
    std::vector<uint32_t> px = read_screen();
    int magenta = 0;
    for (uint32_t p : px) magenta += rgba(p, 0) == 255 && rgba(p, 1) == 0 && rgba(p, 2) == 255;
    TH_CHECK(magenta > 100);
    /* rectangles still work without a font */
    clear();
    render_begin_frame();
    g_pf.draw_rect(5, 5, 10, 10, 0xFFFFFFFFu, 0);
    render_end_frame();
    px = read_screen();
    TH_CHECK(px[(size_t)8 * VIEW_W + 8] == 0xFFFFFFFFu);
    render_shutdown();
    start(nullptr);
}

static void test_missing_manifest_keeps_running(void)
{
    render_shutdown();
    std::string saved = g_root + "/build/assets.saved", tools = g_root + "/build/tools.saved";
    run("mv '" + g_root + "/build/assets' '" + saved + "'");
    run("mv '" + g_root + "/build/tools' '" + tools + "'");   /* no packer either: nothing rebuilds it */
    int errs = count_events("asset_error", "atlas.txt");
    TH_CHECK_EQ_INT(render_init(g_ren, VIEW_W, VIEW_H, nullptr), 0);
    render_fill_api(&g_pf);
    TH_CHECK_EQ_INT(count_events("asset_error", "atlas.txt") - errs, 1);
    uint32_t p = pixel_of_sprite("a");
    TH_CHECK((rgba(p, 0) == 255 && rgba(p, 1) == 0 && rgba(p, 2) == 255) || (rgba(p, 0) == 0 && rgba(p, 1) == 0 && rgba(p, 2) == 0));
    /* a change with no packer: reported, not fatal */
    errs = count_events("asset_error", "build/tools/atlas_pack");
    assets_file_changed((g_root + "/assets/sprites/a.png").c_str());
    assets_update();
    TH_CHECK_EQ_INT(count_events("asset_error", "atlas_pack") - errs, 1);
    render_shutdown();
    run("mv '" + saved + "' '" + g_root + "/build/assets'");
    run("mv '" + tools + "' '" + g_root + "/build/tools'");
    start(nullptr);
    TH_CHECK_EQ_INT(g_render.page_count, 3);
}

int main(void)
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
    run("mkdir -p '" + g_repo + "build/tests'");
    if (access((g_repo + "build/tools/atlas_pack").c_str(), X_OK) != 0) {
        printf("FAIL: %sbuild/tools/atlas_pack is not built (./build.sh tools)\n0 passed, 1 failed\n", g_repo.c_str());
        return 1;
    }
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    /* the window surface stays a plain software surface: otherwise SDL probes GL through EGL,
       whose driver leaks a little memory that LeakSanitizer would report */
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { printf("SDL_Init: %s\n0 passed, 1 failed\n", SDL_GetError()); return 1; }
    g_win = SDL_CreateWindow("test", 0, 0, VIEW_W, VIEW_H, 0);
    g_ren = g_win ? SDL_CreateRenderer(g_win, -1, SDL_RENDERER_SOFTWARE) : nullptr;
    if (!g_ren) { printf("no renderer: %s\n0 passed, 1 failed\n", SDL_GetError()); return 1; }
    SDL_RenderSetLogicalSize(g_ren, VIEW_W, VIEW_H);
    make_root();
    start(nullptr);

    TH_RUN(test_atlas_loaded);
    TH_RUN(test_batched_equals_rendercopy);
    TH_RUN(test_rotated_sprites_close_to_rendercopyex);
    TH_RUN(test_batch_boundaries_and_order);
    TH_RUN(test_camera_and_pivot);
    TH_RUN(test_text_box_matches_measure);
    TH_RUN(test_placeholder_checker);
    TH_RUN(test_capacity_overflow);
    TH_RUN(test_screenshot_output_size);
    TH_RUN(test_png_reload_break_and_fix);
    TH_RUN(test_font_reload_and_missing_font);
    TH_RUN(test_missing_manifest_keeps_running);

    render_shutdown();
    SDL_DestroyRenderer(g_ren);
    SDL_DestroyWindow(g_win);
    SDL_Quit();
    run("rm -rf '" + g_root + "'");
    return th_test_finish();
}
