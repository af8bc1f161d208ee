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
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

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
static float text_layout(const char *utf8, float x, float y, float px, uint32_t color, int layer, bool draw,
                         float *box_h)
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
                          (float)pc.x0 / fb->w, (float)pc.y0 / fb->h, (float)pc.x1 / fb->w, (float)pc.y1 / fb->h, color,
                          layer);
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
    log_message(LOG_WARN, "draw_sprite: sprite id 0x%08x is not in %s; drawn as a placeholder", id,
                g_render.manifest_path.c_str());
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
    s.flags =
        (uint16_t)(((gs->flags & SPRITE_FLIP_X) ? THSB_FLIP_X : 0) | ((gs->flags & SPRITE_FLIP_Y) ? THSB_FLIP_Y : 0));
    s.page = (uint16_t)(s.page | ((gs->flags & SPRITE_ADDITIVE) ? PAGE_ADDITIVE : 0) |
                        ((gs->flags & SPRITE_GLOW) ? PAGE_GLOW : 0));
    s.reserved = 0;
    thsb_push(&g_render.sb, &s);
}

/* A rectangle of an atlas sprite (pixels of its image) drawn at x, y (top-left) with size w, h: a map's tile.
   An unknown or broken sprite draws the placeholder's checker. */
void render_push_region(uint32_t sprite, float src_x, float src_y, float src_w, float src_h, float x, float y, float w,
                        float h, float rotation, int flips, uint32_t color, int layer)
{
    if (!g_render.sb.sprites) return;
    thsb_sprite s;
    const SpriteInfo *si = render_sprite_lookup(sprite);
    if (si && si->page >= 0 && si->w > 0 && si->h > 0) {
        float du = (si->u1 - si->u0) / si->w, dv = (si->v1 - si->v0) / si->h;
        s.page = (uint16_t)si->page;
        s.u0 = si->u0 + src_x * du; s.u1 = si->u0 + (src_x + src_w) * du;
        s.v0 = si->v0 + src_y * dv; s.v1 = si->v0 + (src_y + src_h) * dv;
    } else {
        s.page = PAGE_PLACEHOLDER;
        s.u0 = s.v0 = 0;
        s.u1 = s.v1 = 1;
    }
    s.w = w; s.h = h;
    s.scale_x = s.scale_y = 1;
    s.x = x + w * 0.5f; s.y = y + h * 0.5f;
    s.origin_x = s.origin_y = 0.5f;
    s.rotation = rotation;
    s.color = color;
    s.layer = (int16_t)(layer < -32768 ? -32768 : layer > 32767 ? 32767 : layer);
    s.flags = (uint16_t)flips;
    s.reserved = 0;
    thsb_push(&g_render.sb, &s);
}

static void api_draw_rect(float x, float y, float w, float h, uint32_t color, int layer)
{
    if (!g_render.sb.sprites) return;
    push_quad(x, y, 1, 1, w, h, PAGE_SYSTEM, g_render.white_u0, g_render.white_v0, g_render.white_u1, g_render.white_v1,
              color, layer);
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

void render_camera(float *x, float *y, float *zoom)
{
    *x = g_render.cam_x;
    *y = g_render.cam_y;
    *zoom = g_render.cam_zoom;
}

static void api_set_glow(float intensity)
{
    g_render.glow_intensity = intensity >= 0 && intensity <= 8 ? intensity : intensity > 8 ? 8.0f : 0.0f; /* NaN: off */
}

static void api_set_safe_area(float x, float y, float w, float h)
{
    const float W = (float)g_render.view_w, H = (float)g_render.view_h;
    if (!(w > 0 && h > 0 && x == x && y == y && w <= 1e6f && h <= 1e6f)) {
        g_render.safe_w = g_render.safe_h = 0;
        return;
    }
    x = std::min(std::max(x, 0.0f), W); y = std::min(std::max(y, 0.0f), H);   /* kept inside the view */
    g_render.safe_x = x; g_render.safe_y = y;
    g_render.safe_w = std::min(w, W - x); g_render.safe_h = std::min(h, H - y);
}

void render_safe_area(float *x, float *y, float *w, float *h)
{
    if (g_render.safe_w > 0 && g_render.safe_h > 0) {
        *x = g_render.safe_x;
        *y = g_render.safe_y;
        *w = g_render.safe_w;
        *h = g_render.safe_h;
    } else {
        *x = 0;
        *y = 0;
        *w = (float)g_render.view_w;
        *h = (float)g_render.view_h;
    }
}

int render_view_size(int *w, int *h) { *w = g_render.view_w; *h = g_render.view_h; return g_render.view_w > 0; }
double render_glow_ms(void) { return g_render.glow_ms; }
void render_glow_seen(int seen) { g_render.glow_unseen = !seen; }

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
    /* A game with its own assets/sprites gets an atlas of its own (in its build folder): its sprites first,
       then the engine's shared ones for the names it does not have. */
    g_render.game_sprites_dir.clear();
    const char *game = g_host_mode.game_folder ? g_host_mode.game_folder() : nullptr;
    const char *game_build = g_host_mode.game_build_folder ? g_host_mode.game_build_folder() : nullptr;
    if (!archive_mounted() && game && game_build) {
        std::string own = std::string(game) + "/assets/sprites";
        if (own != g_render.sprites_dir && os_list_dir(own.c_str(), [](void *, const char *, int) {}, nullptr)) {
            g_render.game_sprites_dir = own;
            g_render.assets_out = std::string(game_build) + "/assets";
        }
    }
    g_render.manifest_path = g_render.assets_out + "/atlas.txt";
    g_render.packer = g_render.root + "/build/tools/atlas_pack" OS_EXE_SUFFIX;
    g_render.cam_x = g_render.cam_y = 0;
    g_render.cam_zoom = 1;
    /* Smooth scaling where the renderer filters geometry (GPU renderers; the packer pads each sprite
       with its edge pixels). The software renderer samples geometry nearest, so its pages stay
       nearest too and every draw path looks the same. */
    SDL_RendererInfo info;
    g_render.page_filter = SDL_GetRendererInfo(r, &info) == 0 && strcmp(info.name, "software") != 0
                               ? SDL_ScaleModeLinear
                               : SDL_ScaleModeNearest;
    g_render.glow_soft = g_render.page_filter == SDL_ScaleModeNearest;
    g_render.fill_rects = g_render.glow_soft;

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
    for (SDL_Texture *&t : g_render.glow) { if (t) SDL_DestroyTexture(t); t = nullptr; }
    g_render.glow_w = g_render.glow_h = 0;
    if (g_render.glow_frame) SDL_DestroyTexture(g_render.glow_frame);
    g_render.glow_frame = nullptr;
    g_render.glow_frame_w = g_render.glow_frame_h = 0;
    g_render.safe_w = g_render.safe_h = 0;
    g_render.glow_intensity = 1.0f;
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
    pf->set_glow = api_set_glow;
    pf->set_safe_area = api_set_safe_area;
    pf->sprite_anim_info = sprite_anim_info_api;
    pf->sprite_slice = sprite_slice_api;
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

/* One (layer, page) run: the page's texture, blended as the run's page bits say. */
/* An axis-aligned rectangle of one colour from the white block, big enough to matter: its pixels, as
   SDL_RenderFillRectF draws them. */
static bool quad_as_fill(const thsb_vertex *q, SDL_FRect *r)
{
    float x0 = q[0].x, x1 = q[0].x, y0 = q[0].y, y1 = q[0].y;
    for (int k = 1; k < 4; k++) {
        x0 = std::min(x0, q[k].x); x1 = std::max(x1, q[k].x);
        y0 = std::min(y0, q[k].y); y1 = std::max(y1, q[k].y);
    }
    if ((x1 - x0) * (y1 - y0) < 4096.0f) return false;   /* small: one triangle pair in the batch costs less */
    for (int k = 0; k < 4; k++) {
        if ((q[k].x != x0 && q[k].x != x1) || (q[k].y != y0 && q[k].y != y1)) return false;   /* turned */
        if (q[k].r != q[0].r || q[k].g != q[0].g || q[k].b != q[0].b || q[k].a != q[0].a) return false;
        if (q[k].u < g_render.white_u0 || q[k].u > g_render.white_u1 || q[k].v < g_render.white_v0 ||
            q[k].v > g_render.white_v1)
            return false;   /* a glyph, not the white block */
    }
    if ((q[0].x == q[1].x) == (q[0].y == q[1].y)) return false;   /* a corner repeated: not a rectangle */
    *r = SDL_FRect{ x0, y0, x1 - x0, y1 - y0 };
    return true;
}

/* The software renderer draws a triangle pair through its texture sampler, pixel by pixel (a full-screen dim
   rectangle: 8.6 ms at 1280x720), and fills a rectangle a row at a time. So there, the big one-colour
   rectangles of the host's page (menus' panels, dims) are filled, in their place among the batch's quads. */
static void draw_quads(SDL_Texture *tex, const thsb_vertex *v, int quads)
{
    SDL_Renderer *ren = g_render.ren;
    Uint8 r0, g0, b0, a0;
    SDL_BlendMode mode0;
    bool saved = false;
    int run = 0;   /* quads not filled, waiting to be drawn as geometry */
    for (int q = 0; q <= quads; q++) {
        SDL_FRect fr;
        bool fill = q < quads && quad_as_fill(v + 4 * q, &fr);
        if (q < quads && !fill) { run++; continue; }
        if (run)
            SDL_RenderGeometry(ren, tex, (const SDL_Vertex *)(v + 4 * (q - run)), 4 * run, g_render.sb.indices,
                               6 * run);
        run = 0;
        if (!fill) continue;
        if (!saved) {
            SDL_GetRenderDrawColor(ren, &r0, &g0, &b0, &a0);
            SDL_GetRenderDrawBlendMode(ren, &mode0);
            SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);
            saved = true;
        }
        const thsb_vertex &c = v[4 * q];
        SDL_SetRenderDrawColor(ren, c.r, c.g, c.b, c.a);
        SDL_RenderFillRectF(ren, &fr);
        g_render.fills++;
    }
    if (saved) {
        SDL_SetRenderDrawColor(ren, r0, g0, b0, a0);
        SDL_SetRenderDrawBlendMode(ren, mode0);
    }
}

static void draw_batch(const thsb_batch &bt)
{
    const int tp = bt.page & PAGE_TEXTURE_MASK;
    SDL_Texture *tex = tp == PAGE_SYSTEM ? g_render.system : tp == PAGE_PLACEHOLDER ? g_render.placeholder
                     : tp < g_render.page_count ? g_render.pages[tp].tex : nullptr;
    const bool add = (bt.page & PAGE_ADDITIVE) != 0;
    const thsb_vertex *v = g_render.sb.vertices + bt.first_vertex;
    if (tp == PAGE_SYSTEM && !add && g_render.fill_rects && tex) {
        draw_quads(tex, v, bt.vertex_count / 4);
        return;
    }
    if (add && tex) SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_ADD);
    SDL_RenderGeometry(g_render.ren, tex, (const SDL_Vertex *)v, bt.vertex_count, g_render.sb.indices, bt.index_count);
    if (add && tex) SDL_SetTextureBlendMode(tex, SDL_BLENDMODE_BLEND);
}

static bool glow_targets(void)
{
    if (g_render.glow[0] && g_render.glow_w == g_render.view_w && g_render.glow_h == g_render.view_h) return true;
    for (SDL_Texture *&t : g_render.glow) { if (t) SDL_DestroyTexture(t); t = nullptr; }
    g_render.glow_w = g_render.view_w;
    g_render.glow_h = g_render.view_h;
    g_render.glow_have = 0;
    static const int DIV[5] = { 2, 4, 8, 8, 4 };
    for (int i = 0; i < 5; i++) {
        int w = std::max(1, g_render.view_w / DIV[i]), h = std::max(1, g_render.view_h / DIV[i]);
        g_render.glow[i] = SDL_CreateTexture(g_render.ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, h);
        if (!g_render.glow[i]) {
            log_message(LOG_WARN, "render: no glow (cannot make a %dx%d render target: %s)", w, h, SDL_GetError());
            for (SDL_Texture *&t : g_render.glow) { if (t) SDL_DestroyTexture(t); t = nullptr; }
            g_render.glow_intensity = 0;
            return false;
        }
        SDL_SetTextureScaleMode(g_render.glow[i], SDL_ScaleModeLinear);
        SDL_SetTextureBlendMode(g_render.glow[i], SDL_BLENDMODE_NONE);
    }
    return true;
}

/* Adds src over the current target nine times, shifted by a texel around its place: a 3x3 box blur of
   src, each copy weighted k/255. Same size, so no scaled blended copy. */
static int add_blurred(SDL_Texture *src, int w, int h, Uint8 k)
{
    SDL_SetTextureBlendMode(src, SDL_BLENDMODE_ADD);
    SDL_SetTextureColorMod(src, k, k, k);
    int calls = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            SDL_Rect to = { dx, dy, w, h };
            SDL_RenderCopy(g_render.ren, src, nullptr, &to);
            calls++;
        }
    SDL_SetTextureColorMod(src, 255, 255, 255);
    SDL_SetTextureBlendMode(src, SDL_BLENDMODE_NONE);
    return calls;
}

/* Two halves of a bilinear stretch of the 1/4 glow over the frame. glow_stretch_row: one source row stretched to
   the frame's width (columns from col: source column << 9 | weight of the next, 0..256); red and blue, then green,
   two channels at a time in one 32-bit word, so a channel's product stays inside its 16 bits. */
static void glow_stretch_row(uint32_t *out, int w, const uint32_t *src, const int *col)
{
    int x = 0;
#if defined(__SSE2__) || defined(_M_X64)
    /* four columns at a time, a channel to a 16-bit lane: c0 * (256 - fx) + c1 * fx stays below 65,536, so the
       lanes give what the packed words above give */
    const __m128i zero = _mm_setzero_si128(), no_alpha = _mm_set1_epi32(0x00FFFFFF), w256 = _mm_set1_epi16(256);
    for (; x + 4 <= w; x += 4) {
        const int *cx = col + x;
        __m128i p0 =
            _mm_set_epi32((int)src[cx[3] >> 9], (int)src[cx[2] >> 9], (int)src[cx[1] >> 9], (int)src[cx[0] >> 9]);
        __m128i p1 = _mm_set_epi32((int)src[(cx[3] >> 9) + 1], (int)src[(cx[2] >> 9) + 1], (int)src[(cx[1] >> 9) + 1],
                                   (int)src[(cx[0] >> 9) + 1]);
        __m128i f = _mm_and_si128(_mm_loadu_si128((const __m128i *)cx), _mm_set1_epi32(0x1FF));
        f = _mm_or_si128(f, _mm_slli_epi32(f, 16));                        /* each column's weight in both halves */
        __m128i flo = _mm_unpacklo_epi32(f, f), fhi = _mm_unpackhi_epi32(f, f);   /* ... in its four channel lanes */
        __m128i lo =
            _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(p0, zero), _mm_sub_epi16(w256, flo)),
                                         _mm_mullo_epi16(_mm_unpacklo_epi8(p1, zero), flo)),
                           8);
        __m128i hi =
            _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(p0, zero), _mm_sub_epi16(w256, fhi)),
                                         _mm_mullo_epi16(_mm_unpackhi_epi8(p1, zero), fhi)),
                           8);
        _mm_storeu_si128((__m128i *)(out + x), _mm_and_si128(_mm_packus_epi16(lo, hi), no_alpha));
    }
#endif
    for (; x < w; x++) {
        const int c = col[x] >> 9;
        const uint32_t fx = (uint32_t)col[x] & 0x1FF, p0 = src[c], p1 = src[c + 1];
        out[x] = (((p0 & 0xFF00FF) * (256 - fx) + (p1 & 0xFF00FF) * fx) >> 8 & 0xFF00FF) |
                 (((p0 & 0xFF00) * (256 - fx) + (p1 & 0xFF00) * fx) >> 8 & 0xFF00);
    }
}

/* glow_add_row: two stretched rows blended by fy (0..256) and added to a frame row, each channel saturating at
   255 as an additive copy does; the frame's alpha is kept. */
static void glow_add_row(uint32_t *dst, int w, const uint32_t *a, const uint32_t *b, uint32_t fy)
{
    int x = 0;
#if defined(__SSE2__) || defined(_M_X64)
    const __m128i zero = _mm_setzero_si128(), wa = _mm_set1_epi16((short)(256 - fy)), wb = _mm_set1_epi16((short)fy);
    const __m128i no_alpha = _mm_set1_epi32(0x00FFFFFF);
    for (; x + 4 <= w; x += 4) {
        __m128i pa = _mm_loadu_si128((const __m128i *)(a + x)), pb = _mm_loadu_si128((const __m128i *)(b + x));
        __m128i lo = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(pa, zero), wa),
                                                  _mm_mullo_epi16(_mm_unpacklo_epi8(pb, zero), wb)), 8);
        __m128i hi = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(pa, zero), wa),
                                                  _mm_mullo_epi16(_mm_unpackhi_epi8(pb, zero), wb)), 8);
        __m128i g = _mm_and_si128(_mm_packus_epi16(lo, hi), no_alpha);
        __m128i *d = (__m128i *)(dst + x);
        _mm_storeu_si128(d, _mm_adds_epu8(_mm_loadu_si128(d), g));
    }
#endif
    for (; x < w; x++) {
        const uint32_t p = a[x], q = b[x];
        uint32_t rb = (((p & 0xFF00FF) * (256 - fy) + (q & 0xFF00FF) * fy) >> 8 & 0xFF00FF) + (dst[x] & 0xFF00FF);
        uint32_t g = (((p & 0xFF00) * (256 - fy) + (q & 0xFF00) * fy) >> 8 & 0xFF00) + (dst[x] & 0xFF00);
        rb |= (rb & 0x1000100) - ((rb & 0x1000100) >> 8);   /* a carry out of a channel: that channel 255 */
        g |= (g & 0x10000) - ((g & 0x10000) >> 8);
        dst[x] = (dst[x] & 0xFF000000) | (rb & 0xFF00FF) | (g & 0xFF00);
    }
}

/* The glow's frame-sized texture and the source column each frame column samples ((x + 0.5) * gw / w - 0.5,
   between two source columns), made again when the output's size changes. */
static int glow_frame_texture(int w, int h, int gw)
{
    if (!g_render.glow_frame || g_render.glow_frame_w != w || g_render.glow_frame_h != h) {
        if (g_render.glow_frame) SDL_DestroyTexture(g_render.glow_frame);
        g_render.glow_frame =
            SDL_CreateTexture(g_render.ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w, h);
        g_render.glow_frame_w = w;
        g_render.glow_frame_h = h;
        if (!g_render.glow_frame) return 0;
        SDL_SetTextureBlendMode(g_render.glow_frame, SDL_BLENDMODE_NONE);
        g_render.glow_col.resize((size_t)w);
    }
    for (int x = 0; x < w; x++) {
        float u = std::min(std::max((x + 0.5f) * gw / w - 0.5f, 0.0f), (float)(gw - 1));
        int c = std::min((int)u, std::max(gw - 2, 0));
        g_render.glow_col[(size_t)x] = c << 9 | (int)lroundf((u - c) * 256);   /* the weight: 0..256, 9 bits */
    }
    return 1;
}

/* One pass of the glow (g_render.glow_px, gw x gh) scaled by k/256 and stretched onto the frame's pixels (w x h). */
static void glow_add_pass(void *pixels, int pitch, int w, int h, int gw, int gh, uint32_t k)
{
    std::vector<uint32_t> &src = g_render.glow_px;
    const uint32_t *in = src.data();   /* k = 256 scales every channel by one: the glow as read */
    if (k != 256) {
        std::vector<uint32_t> &scaled = g_render.glow_scaled;
        scaled.resize(src.size());
        for (size_t i = 0; i < src.size(); i++)
            scaled[i] = ((src[i] & 0xFF00FF) * k >> 8 & 0xFF00FF) | ((src[i] & 0xFF00) * k >> 8 & 0xFF00);
        in = scaled.data();
    }
    /* each source row stretched to the frame's width, with the span of its lit pixels: adding a black
       pixel leaves the frame's pixel as it was, so a frame row is added only over its two rows' spans */
    std::vector<uint32_t> &rows = g_render.glow_rows;
    std::vector<int> &span = g_render.glow_span;
    rows.resize((size_t)w * gh);
    span.resize((size_t)gh * 2);
    for (int r = 0; r < gh; r++) {
        const uint32_t *s = &in[(size_t)r * gw];
        int c0 = 0, c1 = gw;   /* lit source columns: [c0, c1) */
        while (c0 < gw && !(s[c0] & 0xFFFFFF)) c0++;
        while (c1 > c0 && !(s[c1 - 1] & 0xFFFFFF)) c1--;
        int *sp = &span[(size_t)r * 2];
        uint32_t *row = &rows[(size_t)r * w];
        if (c0 == c1) { memset(row, 0, (size_t)w * sizeof *row); sp[0] = sp[1] = 0; continue; }
        glow_stretch_row(row, w, s, g_render.glow_col.data());
        int x0 = 0, x1 = w;
        while (x0 < w && !(row[x0] & 0xFFFFFF)) x0++;
        while (x1 > x0 && !(row[x1 - 1] & 0xFFFFFF)) x1--;
        sp[0] = x0; sp[1] = x1;
    }
    for (int y = 0; y < h; y++) {
        float v = std::min(std::max((y + 0.5f) * gh / h - 0.5f, 0.0f), (float)(gh - 1));
        int r0 = (int)v, r1 = std::min(r0 + 1, gh - 1);
        const int *s0 = &span[(size_t)r0 * 2], *s1 = &span[(size_t)r1 * 2];
        const bool lit0 = s0[1] > s0[0], lit1 = s1[1] > s1[0];
        if (!lit0 && !lit1) continue;
        const int x0 = lit0 && lit1 ? std::min(s0[0], s1[0]) : lit0 ? s0[0] : s1[0];
        const int x1 = lit0 && lit1 ? std::max(s0[1], s1[1]) : lit0 ? s0[1] : s1[1];
        glow_add_row((uint32_t *)((char *)pixels + (size_t)y * pitch) + x0, x1 - x0, &rows[(size_t)r0 * w] + x0,
                     &rows[(size_t)r1 * w] + x0, (uint32_t)lroundf((v - r0) * 256));
    }

}

/* The software renderer's last step: the frame read back into a streaming texture, the 1/4 glow added to it
   here (bilinear, saturating, as the additive copy would), copied back unblended. SDL's own additive copy of a
   full frame costs that renderer ~7 ms at 1280x720 and a scaled one a surface per call; this is ~1-2 ms.
   0 if a step failed (nothing drawn: the caller adds the glow the SDL way). */
static int render_glow_add_cpu(SDL_Texture *glow, int gw, int gh, SDL_Texture *frame)
{
    SDL_Renderer *ren = g_render.ren;
    g_render.glow_px.resize((size_t)gw * gh);
    if (SDL_SetRenderTarget(ren, glow) != 0 ||
        SDL_RenderReadPixels(ren, nullptr, SDL_PIXELFORMAT_ARGB8888, g_render.glow_px.data(), gw * 4) != 0) {
        SDL_SetRenderTarget(ren, frame);
        return 0;
    }
    SDL_SetRenderTarget(ren, frame);
    /* the view's place in the output's pixels (letterboxed under a logical size), read and written at scale 1 */
    SDL_Rect vp;
    float sx = 1, sy = 1;
    int lw = 0, lh = 0;
    SDL_RenderGetViewport(ren, &vp);
    SDL_RenderGetScale(ren, &sx, &sy);
    SDL_RenderGetLogicalSize(ren, &lw, &lh);
    SDL_Rect out = { (int)lroundf(vp.x * sx), (int)lroundf(vp.y * sy), (int)lroundf(vp.w * sx),
                     (int)lroundf(vp.h * sy) };
    if (out.w <= 0 || out.h <= 0) return 1;
    if (!glow_frame_texture(out.w, out.h, gw)) return 0;
    void *pixels = nullptr;
    int pitch = 0;
    if (SDL_LockTexture(g_render.glow_frame, nullptr, &pixels, &pitch) != 0) return 0;
    if (lw && lh) SDL_RenderSetLogicalSize(ren, 0, 0);
    int ok = SDL_RenderReadPixels(ren, &out, SDL_PIXELFORMAT_ARGB8888, pixels, pitch) == 0;
    if (ok) {
        if (gw == 1)
            for (uint32_t &p : g_render.glow_px) p = 0; /* no second column to blend with: never in practice */
        for (float left = g_render.glow_intensity; left > 0.004f; left -= 1.0f)   /* above 1: added again, as before */
            glow_add_pass(pixels, pitch, out.w, out.h, gw, gh, (uint32_t)lroundf(256 * std::min(left, 1.0f)));
    }
    SDL_UnlockTexture(g_render.glow_frame);
    if (ok) SDL_RenderCopy(ren, g_render.glow_frame, nullptr, &out);
    if (lw && lh) SDL_RenderSetLogicalSize(ren, lw, lh);
    return ok;
}

/* The glow pass. SDL's renderer has no shaders, so the glow is drawn from what the game flagged: the GLOW
   runs again, at half size, into a target cleared to opaque black (additive drawing keeps the destination's
   alpha, so a target cleared to alpha 0 would composite as nothing), halved to 1/4 and 1/8 with linear filtering
   and no blending (a scaled blended copy costs the software renderer a surface per call); the 1/8 copy is
   blurred 3x3 and scaled back up to 1/4, the 1/4 copy added onto it. On the software renderer that 1/4 glow is
   added to the frame on the CPU (render_glow_add_cpu); elsewhere it is scaled up to 1/2 and added over the frame
   once, scaled up, tinted by the intensity. Returns the draw calls it made. */
static int render_glow(void)
{
    SDL_RenderFlush(g_render.ren);   /* the frame's own drawing is not the pass's cost */
    double t0 = log_time();
    if (!glow_targets()) return 0;
    SDL_Renderer *ren = g_render.ren;
    SDL_Texture **g = g_render.glow;
    const int w8 = std::max(1, g_render.view_w / 8), h8 = std::max(1, g_render.view_h / 8);
    SDL_Texture *frame = SDL_GetRenderTarget(ren);
    Uint8 r, gr, b, a;
    SDL_GetRenderDrawColor(ren, &r, &gr, &b, &a);
    const int w4 = std::max(1, g_render.view_w / 4), h4 = std::max(1, g_render.view_h / 4);
    if (g_render.glow_soft && g_render.glow_have && !g_render.glow_reused &&
        g_render.glow_full_ms > g_render.glow_budget_ms) {
        /* over the software renderer's budget: this frame adds the last pass's glow again */
        int ok = render_glow_add_cpu(g[4], w4, h4, frame);
        SDL_SetRenderTarget(ren, frame);
        SDL_SetRenderDrawColor(ren, r, gr, b, a);
        if (ok) {
            g_render.glow_reused = 1;
            g_render.glow_ms = (log_time() - t0) * 1000;
            return 1;
        }
    }
    g_render.glow_reused = 0;
    int calls = 0;
    SDL_SetRenderDrawColor(ren, 0, 0, 0, 255);
    SDL_SetRenderTarget(ren, g[0]);   /* at half size: a quarter of the pixels to fill, and the 1/2 copy saved */
    SDL_RenderSetScale(ren, 0.5f, 0.5f);
    SDL_RenderClear(ren);
    for (int i = 0; i < g_render.sb.batch_count; i++)
        if (g_render.sb.batches[i].page & PAGE_GLOW) { draw_batch(g_render.sb.batches[i]); calls++; }
    SDL_RenderSetScale(ren, 1.0f, 1.0f);
    for (int i = 1; i < 3; i++) {   /* 1/4, 1/8 */
        SDL_SetRenderTarget(ren, g[i]);
        SDL_RenderCopy(ren, g[i - 1], nullptr, nullptr);
        calls++;
    }
    SDL_SetRenderTarget(ren, g[3]);   /* the wide halo: 1/8 blurred */
    SDL_RenderClear(ren);
    calls += add_blurred(g[2], w8, h8, GLOW_WIDE_WEIGHT);
    SDL_SetRenderTarget(ren, g[4]);   /* up to 1/4, and the tight halo on it */
    SDL_RenderCopy(ren, g[3], nullptr, nullptr);
    SDL_SetTextureBlendMode(g[1], SDL_BLENDMODE_ADD);
    SDL_SetTextureColorMod(g[1], GLOW_TIGHT_WEIGHT, GLOW_TIGHT_WEIGHT, GLOW_TIGHT_WEIGHT);
    SDL_RenderCopy(ren, g[1], nullptr, nullptr);
    SDL_SetTextureColorMod(g[1], 255, 255, 255);
    SDL_SetTextureBlendMode(g[1], SDL_BLENDMODE_NONE);
    calls += 2;
    if (g_render.glow_soft && render_glow_add_cpu(g[4], w4, h4, frame)) {
        SDL_SetRenderDrawColor(ren, r, gr, b, a);
        g_render.glow_ms = g_render.glow_full_ms = (log_time() - t0) * 1000;
        g_render.glow_have = 1;
        return calls + 1;
    }
    SDL_SetRenderTarget(ren, g[0]);   /* up to 1/2 (the software renderer's linear stretch to full size is slow) */
    SDL_RenderCopy(ren, g[4], nullptr, nullptr);
    calls++;
    SDL_SetRenderTarget(ren, frame);
    SDL_SetRenderDrawColor(ren, r, gr, b, a);
    SDL_Texture *out = g[0];   /* 2x to the frame: linear where the renderer filters cheaply, else nearest */
    SDL_SetTextureScaleMode(out, g_render.page_filter);
    SDL_SetTextureBlendMode(out, SDL_BLENDMODE_ADD);
    for (float left = g_render.glow_intensity; left > 0.004f; left -= 1.0f) {   /* above 1: added again */
        Uint8 k = (Uint8)lroundf(255 * std::min(left, 1.0f));
        SDL_SetTextureColorMod(out, k, k, k);
        SDL_RenderCopy(ren, out, nullptr, nullptr);
        calls++;
    }
    SDL_SetTextureColorMod(out, 255, 255, 255);
    SDL_SetTextureBlendMode(out, SDL_BLENDMODE_NONE);
    SDL_SetTextureScaleMode(out, SDL_ScaleModeLinear);
    g_render.glow_ms = (log_time() - t0) * 1000;
    return calls;
}

void render_between_batches(void (*fn)(void)) { g_render.between_batches = fn; }

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
    g_render.fills = 0;
    /* the world's layers, then the glow over them, then the screen-space layers (HUD, menus, the host's
       banners) crisp on top: batches come sorted by layer */
    int glowing = 0, b = 0;
    for (; b < g_render.sb.batch_count && g_render.sb.batches[b].layer < GAME_LAYER_UI; b++) {
        draw_batch(g_render.sb.batches[b]);
        st.draw_calls++;
        if (g_render.between_batches) g_render.between_batches();
    }
    for (int i = 0; i < g_render.sb.batch_count; i++) glowing += (g_render.sb.batches[i].page & PAGE_GLOW) != 0;
    g_render.glow_ms = 0;
    if (glowing && g_render.glow_intensity > 0 && !g_render.glow_unseen) st.draw_calls += render_glow();
    for (; b < g_render.sb.batch_count; b++) {
        draw_batch(g_render.sb.batches[b]);
        st.draw_calls++;
        if (g_render.between_batches) g_render.between_batches();
    }
    st.sprites = g_render.sb.stats.sprites + g_render.sb.stats.dropped;
    st.batches = g_render.sb.batch_count;
    if (g_render.sb.stats.dropped && log_time() - g_render.last_drop_log > 5.0) {
        g_render.last_drop_log = log_time();
        log_message(LOG_WARN, "render: %d sprites dropped this frame (the batch holds %d)", g_render.sb.stats.dropped,
                    RENDER_MAX_SPRITES);
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
