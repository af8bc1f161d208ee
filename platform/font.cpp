/* font.cpp - the text font: read from disk, checked, baked into the system page (glyphs at a few pixel
   sizes plus the white block rectangles sample) on a worker thread, installed on the main thread. A
   font that cannot be used is reported with the file and the reason; text then draws as boxes. */
#include "render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

/* ---------------------------------------------------------------- font */
int glyph_slot(uint32_t cp)
{
    if (cp >= 32 && cp < 127) return (int)cp - 32;
    if (cp >= 0xA0 && cp < 0x180) return 95 + (int)cp - 0xA0;
    for (int i = 0; i < EXTRA_COUNT; i++) if (EXTRA_CODEPOINTS[i] == cp) return 95 + (0x180 - 0xA0) + i;
    return GLYPH_COUNT - 1;  /* U+FFFD */
}

static uint32_t glyph_codepoint(int slot)
{
    if (slot < 95) return (uint32_t)slot + 32;
    if (slot < 95 + (0x180 - 0xA0)) return (uint32_t)(slot - 95) + 0xA0;
    return EXTRA_CODEPOINTS[slot - 95 - (0x180 - 0xA0)];
}

static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t be16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* stb_truetype trusts its input; check the table directory and the glyph locations first so a
   truncated or garbage file is refused with a reason instead of read out of bounds. */
static bool font_check(const unsigned char *d, size_t n, std::string *why)
{
    if (n < 12) { *why = "file too small to be a font"; return false; }
    uint32_t base = 0, tag = be32(d);
    if (tag == 0x74746366u) {               /* 'ttcf': first font of a collection */
        if (n < 16) { *why = "truncated font collection"; return false; }
        base = be32(d + 12);
        if ((size_t)base + 12 > n) { *why = "truncated font collection"; return false; }
        tag = be32(d + base);
    }
    if (tag != 0x00010000u && tag != 0x74727565u /* true */ && tag != 0x4F54544Fu /* OTTO */) { *why = "not a TrueType/OpenType file"; return false; }
    uint32_t ntables = be16(d + base + 4);
    if (base + 12 + (size_t)ntables * 16 > n) { *why = "truncated table directory"; return false; }
    uint32_t off_cmap = 0, off_head = 0, off_hhea = 0, off_hmtx = 0, off_loca = 0, off_glyf = 0, off_maxp = 0, off_cff = 0;
    uint32_t len_loca = 0, len_glyf = 0, len_head = 0, len_maxp = 0, len_hhea = 0, len_hmtx = 0;
    for (uint32_t i = 0; i < ntables; i++) {
        const unsigned char *r = d + base + 12 + i * 16;
        uint32_t t = be32(r), off = be32(r + 8), len = be32(r + 12);
        if ((uint64_t)off + len > n) {
            char b[96];
            snprintf(b, sizeof b, "table '%c%c%c%c' runs past the end of the file (truncated?)", r[0], r[1], r[2], r[3]);
            *why = b;
            return false;
        }
        switch (t) {
        case 0x636D6170u: off_cmap = off; break;
        case 0x68656164u: off_head = off; len_head = len; break;
        case 0x68686561u: off_hhea = off; len_hhea = len; break;
        case 0x686D7478u: off_hmtx = off; len_hmtx = len; break;
        case 0x6C6F6361u: off_loca = off; len_loca = len; break;
        case 0x676C7966u: off_glyf = off; len_glyf = len; break;
        case 0x6D617870u: off_maxp = off; len_maxp = len; break;
        case 0x43464620u: off_cff = off; break;
        default: break;
        }
    }
    if (!off_cmap || !off_head || !off_hhea || !off_hmtx || !off_maxp) { *why = "a required table (cmap, head, hhea, hmtx, maxp) is missing"; return false; }
    if (len_head < 54 || len_maxp < 6 || len_hhea < 36) { *why = "head/maxp/hhea table too short"; return false; }
    uint32_t nglyphs = be16(d + off_maxp + 4), nmetrics = be16(d + off_hhea + 34);
    if (nmetrics == 0 || (uint64_t)nmetrics * 4 > len_hmtx) { *why = "hmtx table too short"; return false; }
    if (off_cff) return true;
    if (!off_loca || !off_glyf) { *why = "no glyph outlines (glyf/loca or CFF)"; return false; }
    int long_loca = (int)be16(d + off_head + 50);
    uint64_t need = ((uint64_t)nglyphs + 1) * (long_loca ? 4 : 2);
    if (need > len_loca) { *why = "loca table too short"; return false; }
    uint64_t prev = 0;
    for (uint32_t g = 0; g <= nglyphs; g++) {
        uint64_t o = long_loca ? be32(d + off_loca + g * 4) : (uint64_t)be16(d + off_loca + g * 2) * 2;
        if (o > len_glyf || o < prev) { *why = "glyph locations point outside the glyf table"; return false; }
        prev = o;
    }
    return true;
}

/* The white block that rectangles sample; 6x6 so filtering around its centre stays white. */
enum { WHITE_BLOCK = 6 };

static void font_white_only(FontBake *fb)
{
    fb->w = fb->h = WHITE_BLOCK;
    fb->rgba.assign((size_t)WHITE_BLOCK * WHITE_BLOCK * 4, 255);
    fb->white_x = fb->white_y = 0;
}

FontBake *font_bake(const std::string &path)
{
    FontBake *fb = new FontBake;
    fb->path = path;
    size_t n = 0;
    char *data = os_read_file(path.c_str(), &n, (size_t)MAX_FONT_BYTES);
    if (!data || n == 0) {
        fb->error = !data ? (strcmp(os_error_text(), "file too large") == 0 ? std::string("larger than 64 MB")
                                                                          : std::string("cannot open (") + os_error_text() + ")")
                          : std::string("empty file");
        free(data);
        font_white_only(fb);
        return fb;
    }
    fb->ttf.assign((unsigned char *)data, (unsigned char *)data + n);
    free(data);
    std::string why;
    if (!font_check(fb->ttf.data(), fb->ttf.size(), &why)) {}
    else {
        int off = stbtt_GetFontOffsetForIndex(fb->ttf.data(), 0);
        if (off < 0 || !stbtt_InitFont(&fb->info, fb->ttf.data(), off)) why = "stb_truetype cannot read this font";
    }
    if (!why.empty()) {
        fb->error = why;
        font_white_only(fb);
        return fb;
    }

    int cps[GLYPH_COUNT];
    for (int k = 0; k < GLYPH_COUNT; k++) cps[k] = (int)glyph_codepoint(k);
    for (int k = 0; k < GLYPH_COUNT; k++) fb->glyph[k] = stbtt_FindGlyphIndex(&fb->info, cps[k]);
    stbtt_pack_range ranges[FONT_SIZE_COUNT];
    memset(ranges, 0, sizeof ranges);
    for (int s = 0; s < FONT_SIZE_COUNT; s++) {
        ranges[s].font_size = FONT_SIZES[s];
        ranges[s].array_of_unicode_codepoints = cps;
        ranges[s].num_chars = GLYPH_COUNT;
        ranges[s].chardata_for_range = fb->chars[s];
    }
    std::vector<stbrp_rect> rects((size_t)FONT_SIZE_COUNT * GLYPH_COUNT + 1);
    const int W = 1024;
    bool packed = false;
    int used_h = 0;
    for (int H = 1024; H <= 8192 && !packed; H *= 2) {
        stbtt_pack_context spc;
        if (!stbtt_PackBegin(&spc, nullptr, W, H, 0, 1, nullptr)) break;
        stbtt_PackSetOversampling(&spc, 1, 1);
        int nr = stbtt_PackFontRangesGatherRects(&spc, &fb->info, ranges, FONT_SIZE_COUNT, rects.data());
        stbrp_rect &white = rects[(size_t)nr];
        memset(&white, 0, sizeof white);
        white.w = white.h = WHITE_BLOCK;
        stbtt_PackFontRangesPackRects(&spc, rects.data(), nr + 1);
        packed = true;
        used_h = 0;
        for (int k = 0; k <= nr; k++) {
            if (!rects[(size_t)k].was_packed) { packed = false; break; }
            used_h = std::max(used_h, rects[(size_t)k].y + rects[(size_t)k].h);
        }
        if (packed) {
            std::vector<unsigned char> alpha((size_t)W * H, 0);
            spc.pixels = alpha.data();
            stbtt_PackFontRangesRenderIntoRects(&spc, &fb->info, ranges, FONT_SIZE_COUNT, rects.data());
            fb->white_x = white.x;
            fb->white_y = white.y;
            for (int y = 0; y < WHITE_BLOCK; y++) memset(&alpha[(size_t)(white.y + y) * W + white.x], 255, WHITE_BLOCK);
            fb->w = W;
            fb->h = 1;
            while (fb->h < used_h) fb->h *= 2;   /* power of two: exact UVs, like the atlas pages */
            used_h = fb->h;
            fb->rgba.resize((size_t)W * used_h * 4);
            for (size_t i = 0; i < (size_t)W * used_h; i++) {
                fb->rgba[i * 4 + 0] = fb->rgba[i * 4 + 1] = fb->rgba[i * 4 + 2] = 255;
                fb->rgba[i * 4 + 3] = alpha[i];
            }
        }
        stbtt_PackEnd(&spc);
    }
    if (!packed) {
        fb->error = "glyphs do not fit an 1024x8192 page";
        font_white_only(fb);
        return fb;
    }
    int asc = 0, desc = 0, gap = 0;
    stbtt_GetFontVMetrics(&fb->info, &asc, &desc, &gap);
    if (asc - desc <= 0) {
        fb->error = "bad vertical metrics";
        font_white_only(fb);
        return fb;
    }
    fb->ascent = (float)asc;
    fb->descent = (float)desc;
    fb->line_gap = (float)gap;
    fb->unit = 1.0f / (float)(asc - desc);
    fb->ok = 1;
    return fb;
}

static void *font_thread(void *arg)
{
    (void)arg;
    g_render.font_job = font_bake(g_render.font_job_path);
    g_render.font_worker.state = 2;
    return nullptr;
}

void font_install(FontBake *fb, bool announce, const std::string &trigger, double change_t)
{
    SDL_Texture *t = make_texture(fb->rgba.data(), fb->w, fb->h, SDL_ScaleModeLinear);
    if (!t) {
        host_log(LOG_ERROR, "render: cannot create the text texture: %s", SDL_GetError());
        delete fb;
        return;
    }
    if (g_render.system) SDL_DestroyTexture(g_render.system);
    g_render.system = t;
    delete g_render.font;
    g_render.font = fb;
    g_render.font_path = fb->path;
    g_render.white_u0 = (float)(fb->white_x + 2) / fb->w;
    g_render.white_v0 = (float)(fb->white_y + 2) / fb->h;
    g_render.white_u1 = (float)(fb->white_x + 4) / fb->w;
    g_render.white_v1 = (float)(fb->white_y + 4) / fb->h;
    fb->rgba.clear();
    fb->rgba.shrink_to_fit();
    if (!fb->ok) asset_error(fb->path, fb->error + "; text draws as boxes until the font loads");
    if (announce) {
        double ms = change_t >= 0 ? (host_time() - change_t) * 1000.0 : -1.0;
        host_log(fb->ok ? LOG_INFO : LOG_WARN, "assets: font %s re-baked %.1f ms after the change", fb->path.c_str(), ms);
        host_event("asset_reload", "\"file\":\"%s\",\"ms\":%.1f,\"font\":true,\"ok\":%s", escaped(trigger).c_str(), ms,
                   fb->ok ? "true" : "false");
    }
}

std::string font_resolve(const char *configured)
{
    if (configured && *configured) {
        if (configured[0] == '/' || file_exists(configured)) return configured;
        std::string in_root = g_render.root + "/" + configured;
        return file_exists(in_root) ? in_root : std::string(configured);
    }
    std::string project = g_render.root + "/" + PROJECT_FONT;
    return file_exists(project) ? project : std::string(DEFAULT_FONT);
}

void font_start_bake(const std::string &path, const std::string &trigger, double change_t)
{
    if (g_render.font_worker.state != 0) {
        g_render.font_queued = 1;
        g_render.font_queued_trigger = trigger;
        if (g_render.font_queued_change_t < 0) g_render.font_queued_change_t = change_t;
        return;
    }
    g_render.font_job_path = path;
    g_render.font_job_trigger = trigger;
    g_render.font_job_change_t = change_t;
    start_worker(&g_render.font_worker, font_thread, nullptr);
}

