/* render.cpp - the PlatformAPI drawing services: sprite batch, text, camera, screenshots.

   Frame:  render_begin_frame() empties the batch; the game and the overlay submit sprites, rects and
           text (each one record in a host-owned th_spritebatch buffer); render_end_frame() applies the
           camera to world layers, sorts by (layer, page, submission), builds the quads and issues one
           SDL_RenderGeometry per (layer, page) run.
   Pages:  atlas pages 0..N-1 come from <root>/build/assets (assets.cpp loads them). Two more pages are
           the host's own: PAGE_SYSTEM holds the baked glyphs and a white block (rectangles and sprite
           id 0 use it, so text and rects on one layer keep their submission order), PAGE_PLACEHOLDER
           the magenta/black checker drawn for unknown or broken sprites. Within one layer, atlas pages
           draw first (in page order), then the placeholder, then text and rectangles. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include <stb_image_write.h>

#define TH_SPRITEBATCH_IMPLEMENTATION
#include "th_spritebatch.h"

static_assert(sizeof(thsb_vertex) == sizeof(SDL_Vertex), "thsb_vertex must match SDL_Vertex");
static_assert(offsetof(thsb_vertex, r) == offsetof(SDL_Vertex, color), "thsb_vertex color offset");
static_assert(offsetof(thsb_vertex, u) == offsetof(SDL_Vertex, tex_coord), "thsb_vertex uv offset");

RenderState g_render;

/* ---------------------------------------------------------------- small helpers */
SDL_Texture *render_make_texture(const unsigned char *rgba, int w, int h, SDL_ScaleMode mode)
{
    SDL_Texture *t = SDL_CreateTexture(g_render.ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, w, h);
    if (!t) return nullptr;
    if (SDL_UpdateTexture(t, nullptr, rgba, w * 4) != 0) { SDL_DestroyTexture(t); return nullptr; }
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(t, mode);
    return t;
}

/* ---------------------------------------------------------------- sprite table */
const SpriteInfo *render_sprite_lookup(uint32_t id)
{
    if (!g_render.table || !id) return nullptr;
    for (uint32_t i = id & g_render.table_mask;; i = (i + 1) & g_render.table_mask) {
        const SpriteInfo *s = &g_render.table[i];
        if (s->id == id) return s;
        if (!s->id) return nullptr;
    }
}

/* ---------------------------------------------------------------- text layout */
static uint32_t utf8_next(const unsigned char **ps)
{
    const unsigned char *p = *ps;
    uint32_t c = p[0];
    int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0) { *ps = p + 1; return 0xFFFD; }
    uint32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xC0) != 0x80) { *ps = p + 1; return 0xFFFD; }
        cp = cp << 6 | (p[i] & 0x3F);
    }
    static const uint32_t MIN[4] = { 0, 0x80, 0x800, 0x10000 };
    *ps = p + 1 + extra;
    if (cp < MIN[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0xFFFD;
    return cp;
}

static void push_quad(float x, float y, float w, float h, float sx, float sy, int page, float u0, float v0, float u1,
                      float v1, uint32_t color, int layer)
{
    thsb_sprite s;
    s.x = x; s.y = y; s.w = w; s.h = h;
    s.scale_x = sx; s.scale_y = sy;
    s.rotation = 0;
    s.origin_x = s.origin_y = 0;
    s.u0 = u0; s.v0 = v0; s.u1 = u1; s.v1 = v1;
    s.color = color;
    s.layer = (int16_t)(layer < -32768 ? -32768 : layer > 32767 ? 32767 : layer);
    s.page = (uint16_t)page;
    s.flags = 0;
    s.reserved = 0;
    thsb_push(&g_render.sb, &s);
}

/* Lays out utf8 at size px with the text box's top-left at (x, y); pushes the glyphs when draw is
   set. Returns the widest line; *box_h gets the number of lines times the line height. */
static float text_layout(const char *utf8, float x, float y, float px, uint32_t color, int layer, bool draw, float *box_h)
{
    if (box_h) *box_h = 0;
    if (!utf8 || !(px > 0) || !g_render.sb.sprites) return 0;
    const FontBake *fb = g_render.font;
    const bool have_font = fb && fb->ok;
    const thfb_font *bf = have_font ? &fb->baked : nullptr;
    const int si = thfb_size_index(px);
    const float scale = px / thfb_sizes[si];
    const bool snap = scale == 1.0f;
    const float line_h = have_font ? (bf->ascent - bf->descent + bf->line_gap) * bf->unit * px : px;
    const float ascent = have_font ? bf->ascent * bf->unit * px : 0.8f * px;
    float pen = x, baseline = y + ascent, widest = 0;
    int lines = 1, prev_slot = -1;
    const unsigned char *p = (const unsigned char *)utf8;
    while (*p) {
        uint32_t cp = utf8_next(&p);
        if (cp == '\n') {
            widest = std::max(widest, pen - x);
            pen = x;
            baseline += line_h;
            lines++;
            prev_slot = -1;
            continue;
        }
        if (cp == '\r') continue;
        int repeat = 1;
        if (cp == '\t') { cp = ' '; repeat = 4; }
        for (int r = 0; r < repeat; r++) {
            if (!have_font) {
                if (cp != ' ' && draw)
                    push_quad(pen + 0.05f * px, y + (lines - 1) * line_h + 0.15f * px, 0.5f * px, 0.7f * px, 1, 1,
                              PAGE_PLACEHOLDER, 0, 0, 1, 1, color, layer);
                pen += 0.6f * px;
                continue;
            }
            int slot = thfb_slot(cp);
            if (prev_slot >= 0 && bf->kern_count) pen += thfb_kern(bf, prev_slot, slot) * bf->unit * px;
            const thfb_char &pc = bf->chars[si][slot];
            if (draw && pc.x1 > pc.x0 && pc.y1 > pc.y0) {
                float gx = pen + pc.xoff * scale, gy = baseline + pc.yoff * scale;
                if (snap) { gx = floorf(gx + 0.5f); gy = floorf(gy + 0.5f); }
                push_quad(gx, gy, (float)(pc.x1 - pc.x0), (float)(pc.y1 - pc.y0), scale, scale, PAGE_SYSTEM,
                          (float)pc.x0 / fb->w, (float)pc.y0 / fb->h, (float)pc.x1 / fb->w, (float)pc.y1 / fb->h, color, layer);
            }
            pen += pc.xadvance * scale;
            prev_slot = slot;
        }
    }
    widest = std::max(widest, pen - x);
    if (box_h) *box_h = lines * line_h;
    return widest;
}

/* ---------------------------------------------------------------- PlatformAPI drawing services */
static void warn_unknown(uint32_t id)
{
    for (uint32_t w : g_render.warned_ids) if (w == id) return;
    if (g_render.warned_ids.size() < 256) g_render.warned_ids.push_back(id);
    log_message(LOG_WARN, "draw_sprite: sprite id 0x%08x is not in %s; drawn as a placeholder", id, g_render.manifest_path.c_str());
}

static void api_draw_sprite(const GameSprite *gs)
{
    if (!gs || !g_render.sb.sprites) return;
    thsb_sprite s;
    float pivot_x = 0.5f, pivot_y = 0.5f;
    if (gs->sprite == 0) {
        s.page = PAGE_SYSTEM;
        s.w = s.h = 1;
        s.u0 = g_render.white_u0; s.v0 = g_render.white_v0; s.u1 = g_render.white_u1; s.v1 = g_render.white_v1;
    } else {
        const SpriteInfo *si = render_sprite_lookup(gs->sprite);
        if (si && si->page >= 0) {
            s.page = (uint16_t)si->page;
            s.u0 = si->u0; s.v0 = si->v0; s.u1 = si->u1; s.v1 = si->v1;
        } else {
            if (!si) warn_unknown(gs->sprite);
            s.page = PAGE_PLACEHOLDER;
            s.u0 = s.v0 = 0;
            s.u1 = s.v1 = 1;
        }
        s.w = si ? si->w : PLACEHOLDER_SIZE;
        s.h = si ? si->h : PLACEHOLDER_SIZE;
        if (si) { pivot_x = si->pivot_x; pivot_y = si->pivot_y; }
    }
    s.x = gs->x; s.y = gs->y;
    s.scale_x = gs->scale_x; s.scale_y = gs->scale_y;
    s.rotation = gs->rotation;
    if (gs->origin_x == GAME_ORIGIN_PIVOT) { s.origin_x = pivot_x; s.origin_y = pivot_y; }
    else { s.origin_x = gs->origin_x; s.origin_y = gs->origin_y; }
    s.color = gs->color;
    s.layer = gs->layer;
    s.flags = (uint16_t)(((gs->flags & SPRITE_FLIP_X) ? THSB_FLIP_X : 0) | ((gs->flags & SPRITE_FLIP_Y) ? THSB_FLIP_Y : 0));
    s.reserved = 0;
    thsb_push(&g_render.sb, &s);
}

static void api_draw_rect(float x, float y, float w, float h, uint32_t color, int layer)
{
    if (!g_render.sb.sprites) return;
    push_quad(x, y, 1, 1, w, h, PAGE_SYSTEM, g_render.white_u0, g_render.white_v0, g_render.white_u1, g_render.white_v1, color, layer);
}

static float api_draw_text(const char *utf8, float x, float y, float px_size, uint32_t color, int layer)
{
    return text_layout(utf8, x, y, px_size, color, layer, true, nullptr);
}

static void api_measure_text(const char *utf8, float px_size, float *w, float *h)
{
    float bh = 0;
    float bw = text_layout(utf8, 0, 0, px_size, 0, 0, false, &bh);
    if (w) *w = bw;
    if (h) *h = bh;
}

static int api_sprite_size(uint32_t sprite, float *w, float *h)
{
    float sw = PLACEHOLDER_SIZE, sh = PLACEHOLDER_SIZE;
    int known = 0;
    if (sprite == 0) { sw = sh = 1; known = 1; }
    else if (const SpriteInfo *si = render_sprite_lookup(sprite)) { sw = si->w; sh = si->h; known = si->page >= 0; }
    if (w) *w = sw;
    if (h) *h = sh;
    return known;
}

static void api_set_camera(float x, float y, float zoom)
{
    g_render.cam_x = x;
    g_render.cam_y = y;
    g_render.cam_zoom = zoom > 0 ? zoom : 1;
}

void render_camera(float *x, float *y, float *zoom) { *x = g_render.cam_x; *y = g_render.cam_y; *zoom = g_render.cam_zoom; }


/* ---------------------------------------------------------------- the rendering section of host.h */
static void make_placeholder(void)
{
    const int N = 16, CELL = 4;
    std::vector<unsigned char> px((size_t)N * N * 4);
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            unsigned char *p = &px[((size_t)y * N + x) * 4];
            bool magenta = ((x / CELL) + (y / CELL)) % 2 == 0;
            p[0] = magenta ? 255 : 0; p[1] = 0; p[2] = magenta ? 255 : 0; p[3] = 255;
        }
    g_render.placeholder = render_make_texture(px.data(), N, N, SDL_ScaleModeNearest);
}

int render_init(SDL_Renderer *r, int view_w, int view_h, const char *font_path)
{
    render_shutdown();
    g_render.ren = r;
    g_render.view_w = view_w;
    g_render.view_h = view_h;
    g_render.root = host_root() ? host_root() : ".";
    g_render.sprites_dir = g_render.root + "/assets/sprites";
    g_render.assets_out = archive_mounted() ? std::string(PACKED_ATLAS) : g_render.root + "/build/assets";
    g_render.manifest_path = g_render.assets_out + "/atlas.txt";
    g_render.packer = g_render.root + "/build/tools/atlas_pack" OS_EXE_SUFFIX;
    g_render.cam_x = g_render.cam_y = 0;
    g_render.cam_zoom = 1;
    /* Smooth scaling where the renderer filters geometry (GPU renderers; the packer pads each sprite
       with its edge pixels). The software renderer samples geometry nearest, so its pages stay
       nearest too and every draw path looks the same. */
    SDL_RendererInfo info;
    g_render.page_filter = SDL_GetRendererInfo(r, &info) == 0 && strcmp(info.name, "software") != 0 ? SDL_ScaleModeLinear
                                                                                                : SDL_ScaleModeNearest;

    size_t bytes = thsb_memory_size(RENDER_MAX_SPRITES);
    g_render.sb_memory = malloc(bytes);
    if (!g_render.sb_memory || !thsb_init(&g_render.sb, g_render.sb_memory, bytes, RENDER_MAX_SPRITES)) {
        log_message(LOG_ERROR, "render: cannot allocate the sprite batch (%zu bytes)", bytes);
        free(g_render.sb_memory);
        g_render.sb_memory = nullptr;
        memset(&g_render.sb, 0, sizeof g_render.sb);
        return 0;
    }
    thsb_set_cull(&g_render.sb, 0, 0, (float)view_w, (float)view_h);
    thsb_begin(&g_render.sb);

    make_placeholder();
    int assets_ok = assets_init(font_path);
    return assets_ok && g_render.placeholder && g_render.system;
}

void render_shutdown(void)
{
    assets_shutdown();
    if (g_render.placeholder) SDL_DestroyTexture(g_render.placeholder);
    g_render.placeholder = nullptr;
    free(g_render.sb_memory);
    g_render.sb_memory = nullptr;
    memset(&g_render.sb, 0, sizeof g_render.sb);
    g_render.warned_ids.clear();
    g_render.ren = nullptr;
}

void render_fill_api(PlatformAPI *pf)
{
    pf->draw_sprite = api_draw_sprite;
    pf->draw_rect = api_draw_rect;
    pf->draw_text = api_draw_text;
    pf->measure_text = api_measure_text;
    pf->sprite_size = api_sprite_size;
    pf->set_camera = api_set_camera;
    pf->read_file = assets_read_file;
}

void render_begin_frame(void)
{
    if (g_render.sb.sprites) thsb_begin(&g_render.sb);
}

/* A font that does not bake, along the bottom of the screen above everything else. */
static void draw_notice(void)
{
    const float px = 14, pad = 6;
    const int layer = 32000;
    float w = 0, h = 0;
    api_measure_text(g_render.notice.c_str(), px, &w, &h);
    float y = (float)g_render.view_h - h - 2 * pad;
    api_draw_rect(0, y, std::min(w + 2 * pad, (float)g_render.view_w), h + 2 * pad, 0x300808E0u, layer);
    api_draw_text(g_render.notice.c_str(), pad, y + pad, px, 0xFF8080FFu, layer + 1);
}

RenderStats render_end_frame(void)
{
    RenderStats st = { 0, 0, 0 };
    if (!g_render.sb.sprites || !g_render.ren) return st;
    if (!g_render.notice.empty()) draw_notice();
    const float cx = g_render.cam_x, cy = g_render.cam_y, z = g_render.cam_zoom;
    if (cx != 0 || cy != 0 || z != 1) {
        thsb_sprite *s = g_render.sb.sprites;
        for (int i = 0, n = g_render.sb.sprite_count; i < n; i++) {
            if (s[i].layer >= GAME_LAYER_UI) continue;
            s[i].x = (s[i].x - cx) * z;
            s[i].y = (s[i].y - cy) * z;
            s[i].scale_x *= z;
            s[i].scale_y *= z;
        }
    }
    thsb_end(&g_render.sb);
    for (int b = 0; b < g_render.sb.batch_count; b++) {
        const thsb_batch &bt = g_render.sb.batches[b];
        SDL_Texture *tex = bt.page == PAGE_SYSTEM ? g_render.system : bt.page == PAGE_PLACEHOLDER ? g_render.placeholder
                         : bt.page < g_render.page_count ? g_render.pages[bt.page].tex : nullptr;
        SDL_RenderGeometry(g_render.ren, tex, (const SDL_Vertex *)(g_render.sb.vertices + bt.first_vertex), bt.vertex_count,
                           g_render.sb.indices, bt.index_count);
        st.draw_calls++;
    }
    st.sprites = g_render.sb.stats.sprites + g_render.sb.stats.dropped;
    st.batches = g_render.sb.batch_count;
    if (g_render.sb.stats.dropped && log_time() - g_render.last_drop_log > 5.0) {
        g_render.last_drop_log = log_time();
        log_message(LOG_WARN, "render: %d sprites dropped this frame (the batch holds %d)", g_render.sb.stats.dropped, RENDER_MAX_SPRITES);
    }
    return st;
}

int render_screenshot(const char *png_path)
{
    if (!g_render.ren || !png_path) return 0;
    int lw = 0, lh = 0, w = 0, h = 0;
    SDL_RenderGetLogicalSize(g_render.ren, &lw, &lh);
    if (lw && lh) SDL_RenderSetLogicalSize(g_render.ren, 0, 0);
    int ok = SDL_GetRendererOutputSize(g_render.ren, &w, &h) == 0 && w > 0 && h > 0;
    std::vector<unsigned char> px;
    if (ok) {
        px.resize((size_t)w * h * 3);
        ok = SDL_RenderReadPixels(g_render.ren, nullptr, SDL_PIXELFORMAT_RGB24, px.data(), w * 3) == 0;
        if (!ok) log_message(LOG_ERROR, "screenshot: SDL_RenderReadPixels: %s", SDL_GetError());
    }
    if (lw && lh) SDL_RenderSetLogicalSize(g_render.ren, lw, lh);
    if (!ok) return 0;
    std::string tmp = std::string(png_path) + ".tmp";
    if (!stbi_write_png(tmp.c_str(), w, h, 3, px.data(), w * 3)) {
        log_message(LOG_ERROR, "screenshot: cannot write %s", tmp.c_str());
        remove(tmp.c_str());
        return 0;
    }
    if (rename(tmp.c_str(), png_path) != 0) {
        log_message(LOG_ERROR, "screenshot: cannot rename %s to %s: %s", tmp.c_str(), png_path, strerror(errno));
        remove(tmp.c_str());
        return 0;
    }
    return 1;
}
