/* render.cpp - the PlatformAPI drawing services: sprite batch, atlas pages, text, screenshots, and
   assets that reload while the host runs.

   Frame:  render_begin_frame() empties the batch; the game and the overlay submit sprites, rects and
           text (each one record in a host-owned th_spritebatch buffer); render_end_frame() applies the
           camera to world layers, sorts by (layer, page, submission), builds the quads and issues one
           SDL_RenderGeometry per (layer, page) run.
   Pages:  atlas pages 0..N-1 come from <root>/build/assets (atlas.txt + atlas_<n>.png, written by
           tools/atlas_pack). Two more pages are the host's own: PAGE_SYSTEM holds the baked glyphs and a
           white block (rectangles and sprite id 0 use it, so text and rects on one layer keep their
           submission order), PAGE_PLACEHOLDER the magenta/black checker drawn for unknown or broken
           sprites. Within one layer, atlas pages draw first (in page order), then the placeholder, then
           text and rectangles.
   Reload: render_asset_changed() starts atlas_pack as a child process for a changed PNG or .pivot;
           render_update() polls it, then decodes the new manifest and only the pages whose hash changed
           on a worker thread, and swaps them in on the frame after. A changed TTF is re-baked on a
           worker thread the same way. The frame never waits for either.
   Errors: a missing or broken manifest, page, image or font is logged once with the file and the
           reason (and an "asset_error" event); what it affects draws as a placeholder until fixed. */
#include <SDL.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_rect_pack.h>
#include <stb_truetype.h>

#include "host.h"
#define TH_SPRITEBATCH_IMPLEMENTATION
#include "th_spritebatch.h"
#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"

extern char **environ;

static_assert(sizeof(thsb_vertex) == sizeof(SDL_Vertex), "thsb_vertex must match SDL_Vertex");
static_assert(offsetof(thsb_vertex, r) == offsetof(SDL_Vertex, color), "thsb_vertex color offset");
static_assert(offsetof(thsb_vertex, u) == offsetof(SDL_Vertex, tex_coord), "thsb_vertex uv offset");

/* ---------------------------------------------------------------- tunables */
static const int   RENDER_MAX_SPRITES = 1 << 17;      /* submissions per frame, text glyphs included */
static const int   MAX_ATLAS_PAGES    = 64;
static const float FONT_SIZES[]       = { 12, 14, 16, 20, 24, 28, 32, 40, 48, 64 };  /* baked pixel heights */
static const char *DEFAULT_FONT       = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
static const char *PROJECT_FONT       = "assets/fonts/default.ttf";  /* used instead when it exists */
static const float PLACEHOLDER_SIZE   = 32;           /* size of a sprite nobody knows the size of */
static const int   MAX_FONT_BYTES     = 64 << 20;

enum { PAGE_PLACEHOLDER = 254, PAGE_SYSTEM = 255 };
enum { FONT_SIZE_COUNT = (int)(sizeof FONT_SIZES / sizeof FONT_SIZES[0]) };

/* The baked characters: ASCII, Latin-1, Latin Extended-A, common punctuation; U+FFFD stands in for the rest. */
static const uint32_t EXTRA_CODEPOINTS[] = { 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2026,
                                             0x20AC, 0x2122, 0x2190, 0x2191, 0x2192, 0x2193, 0xFFFD };
enum { EXTRA_COUNT = (int)(sizeof EXTRA_CODEPOINTS / sizeof EXTRA_CODEPOINTS[0]) };
enum { GLYPH_COUNT = 95 + (0x180 - 0xA0) + EXTRA_COUNT };

/* ---------------------------------------------------------------- state */
struct SpriteInfo {            /* one slot of the id -> sprite table (open addressing, id 0 = empty) */
    uint32_t id;
    int      page;             /* -1: known but broken (error in the manifest or its page failed) */
    float    w, h, pivot_x, pivot_y;
    float    u0, v0, u1, v1;
};

struct Page {
    SDL_Texture *tex;
    int          w, h;
    uint64_t     hash;
    std::string  file;
};

struct FontBake {              /* everything a font gives: built on a worker, installed on the main thread */
    int         ok = 0;
    std::string path, error;
    std::vector<unsigned char> ttf;
    stbtt_fontinfo info;
    int         glyph[GLYPH_COUNT];
    stbtt_packedchar chars[FONT_SIZE_COUNT][GLYPH_COUNT];
    float       ascent = 0, descent = 0, line_gap = 0, unit = 0;  /* font units; unit = scale for 1 px height */
    std::vector<unsigned char> rgba;    /* the system page */
    int         w = 0, h = 0;
    int         white_x = 0, white_y = 0;
};

struct AtlasJob {              /* manifest + changed pages, decoded on a worker */
    std::string dir, manifest_path;
    struct Snap { std::string file; uint64_t hash; int w, h; bool loaded; };
    std::vector<Snap> current;
    thal_manifest m;
    int  manifest_ok = 0;
    char manifest_err[512] = "";
    struct Out { unsigned char *pixels = nullptr; bool reuse = false; std::string err; };
    std::vector<Out> pages;
    /* why it ran */
    std::string trigger;
    double change_t = -1;
    struct stat manifest_st;
    int have_st = 0;
};

struct Worker {
    pthread_t th;
    std::atomic<int> state{0};     /* 0 idle, 1 running, 2 finished */
};

static struct RenderState {
    SDL_Renderer *ren = nullptr;
    int view_w = 0, view_h = 0;
    std::string root, sprites_dir, assets_out, manifest_path, packer;

    void *sb_memory = nullptr;
    thsb_batcher sb;
    float cam_x = 0, cam_y = 0, cam_zoom = 1;
    double last_drop_log = -1e9;

    Page pages[MAX_ATLAS_PAGES];
    int page_count = 0;
    SpriteInfo *table = nullptr;
    uint32_t table_mask = 0;
    struct stat manifest_st;
    int have_manifest_st = 0;
    std::vector<uint32_t> warned_ids;

    SDL_Texture *placeholder = nullptr;
    SDL_Texture *system = nullptr;
    FontBake *font = nullptr;
    float white_u0 = 0, white_v0 = 0, white_u1 = 0, white_v1 = 0;
    std::string font_path;          /* what is baked (or failed to bake) */
    int font_configured = 0;        /* 1: --font given; 0: default resolution */

    /* atlas_pack child */
    pid_t pack_pid = 0;
    int pack_fd = -1;
    std::string pack_err;
    std::string pack_trigger;
    double pack_change_t = -1;
    int pack_started_this_frame = 0;
    int pack_queued = 0;
    std::string queued_trigger;
    double queued_change_t = -1;

    Worker atlas_worker;
    AtlasJob *atlas_job = nullptr;
    Worker font_worker;
    FontBake *font_job = nullptr;
    std::string font_job_path;
    std::string font_job_trigger;
    double font_job_change_t = -1;
    int font_queued = 0;
    std::string font_queued_trigger;
    double font_queued_change_t = -1;
    SDL_ScaleMode page_filter;
} g_r;

/* ---------------------------------------------------------------- small helpers */
static bool file_exists(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return false;
    for (size_t i = 0; i < m; i++) {
        char a = s[n - m + i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != suffix[i]) return false;
    }
    return true;
}

static bool starts_with(const char *s, const std::string &prefix)
{
    return strncmp(s, prefix.c_str(), prefix.size()) == 0;
}

static std::string escaped(const std::string &s)
{
    std::vector<char> out(s.size() * 6 + 8);
    host_json_escape(s.c_str(), out.data(), out.size());
    return std::string(out.data());
}

static void asset_error(const std::string &file, const std::string &reason)
{
    host_log(LOG_ERROR, "asset %s: %s", file.c_str(), reason.c_str());
    host_event("asset_error", "\"file\":\"%s\",\"reason\":\"%s\"", escaped(file).c_str(), escaped(reason).c_str());
}

static bool same_file(const std::string &a, const std::string &b)
{
    if (a == b) return true;
    char ra[PATH_MAX], rb[PATH_MAX];
    if (realpath(a.c_str(), ra) && realpath(b.c_str(), rb)) return strcmp(ra, rb) == 0;
    return false;
}

static SDL_Texture *make_texture(const unsigned char *rgba, int w, int h, SDL_ScaleMode mode)
{
    SDL_Texture *t = SDL_CreateTexture(g_r.ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, w, h);
    if (!t) return nullptr;
    if (SDL_UpdateTexture(t, nullptr, rgba, w * 4) != 0) { SDL_DestroyTexture(t); return nullptr; }
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(t, mode);
    return t;
}

static void start_worker(Worker *w, void *(*fn)(void *), void *arg)
{
    w->state = 1;
    if (pthread_create(&w->th, nullptr, fn, arg) != 0) {
        fn(arg);                       /* no thread: do it now rather than not at all */
        w->th = pthread_self();
    }
}

static bool worker_finished(Worker *w)
{
    if (w->state != 2) return false;
    if (!pthread_equal(w->th, pthread_self())) pthread_join(w->th, nullptr);
    w->state = 0;
    return true;
}

static void worker_wait(Worker *w)
{
    while (w->state == 1) SDL_Delay(1);
    worker_finished(w);
}

/* ---------------------------------------------------------------- sprite table */
static const SpriteInfo *sprite_lookup(uint32_t id)
{
    if (!g_r.table || !id) return nullptr;
    for (uint32_t i = id & g_r.table_mask;; i = (i + 1) & g_r.table_mask) {
        const SpriteInfo *s = &g_r.table[i];
        if (s->id == id) return s;
        if (!s->id) return nullptr;
    }
}

static void table_build(const thal_manifest *m)
{
    uint32_t cap = 64;
    while (cap < (uint32_t)m->sprite_count * 2 + 16) cap *= 2;
    SpriteInfo *t = (SpriteInfo *)calloc(cap, sizeof(SpriteInfo));
    if (!t) { host_log(LOG_ERROR, "render: out of memory for the sprite table"); return; }
    for (int i = 0; i < m->sprite_count; i++) {
        const thal_sprite *s = &m->sprites[i];
        SpriteInfo info;
        memset(&info, 0, sizeof info);
        info.id = s->id;
        info.page = -1;
        info.w = info.h = PLACEHOLDER_SIZE;
        info.pivot_x = info.pivot_y = 0.5f;
        const SpriteInfo *old = sprite_lookup(s->id);
        if (old) { info.w = old->w; info.h = old->h; info.pivot_x = old->pivot_x; info.pivot_y = old->pivot_y; }
        if (!s->error) {
            info.w = (float)s->w;
            info.h = (float)s->h;
            info.pivot_x = s->pivot_x;
            info.pivot_y = s->pivot_y;
            if (s->page < g_r.page_count && g_r.pages[s->page].tex) {
                const Page &p = g_r.pages[s->page];
                info.page = s->page;
                info.u0 = (float)s->x / p.w;
                info.v0 = (float)s->y / p.h;
                info.u1 = (float)(s->x + s->w) / p.w;
                info.v1 = (float)(s->y + s->h) / p.h;
            }
        }
        for (uint32_t k = info.id & (cap - 1);; k = (k + 1) & (cap - 1))
            if (!t[k].id || t[k].id == info.id) { t[k] = info; break; }
    }
    free(g_r.table);
    g_r.table = t;
    g_r.table_mask = cap - 1;
}

/* ---------------------------------------------------------------- atlas loading */
static void atlas_job_run(AtlasJob *j)
{
    thal_init(&j->m);
    j->have_st = stat(j->manifest_path.c_str(), &j->manifest_st) == 0;
    j->manifest_ok = thal_load(&j->m, j->manifest_path.c_str(), j->manifest_err, sizeof j->manifest_err);
    if (!j->manifest_ok) return;
    int n = j->m.page_count < MAX_ATLAS_PAGES ? j->m.page_count : MAX_ATLAS_PAGES;
    j->pages.resize((size_t)n);
    for (int i = 0; i < n; i++) {
        const thal_page &p = j->m.pages[i];
        AtlasJob::Out &o = j->pages[(size_t)i];
        if (i < (int)j->current.size()) {
            const AtlasJob::Snap &c = j->current[(size_t)i];
            if (c.loaded && c.file == p.file && c.hash == p.hash && c.w == p.w && c.h == p.h) { o.reuse = true; continue; }
        }
        std::string path = j->dir + "/" + p.file;
        int w = 0, h = 0, comp = 0;
        o.pixels = stbi_load(path.c_str(), &w, &h, &comp, 4);
        if (!o.pixels) {
            const char *why = stbi_failure_reason();
            o.err = std::string("cannot decode: ") + (why ? why : "unknown error");
        } else if (w != p.w || h != p.h) {
            char b[160];
            snprintf(b, sizeof b, "is %dx%d but the manifest says %dx%d (repack with ./build.sh assets)", w, h, p.w, p.h);
            o.err = b;
            stbi_image_free(o.pixels);
            o.pixels = nullptr;
        }
    }
}

static void *atlas_thread(void *arg)
{
    atlas_job_run((AtlasJob *)arg);
    g_r.atlas_worker.state = 2;
    return nullptr;
}

static AtlasJob *atlas_job_new(const std::string &trigger, double change_t)
{
    AtlasJob *j = new AtlasJob;
    j->dir = g_r.assets_out;
    j->manifest_path = g_r.manifest_path;
    for (int i = 0; i < g_r.page_count; i++)
        j->current.push_back({ g_r.pages[i].file, g_r.pages[i].hash, g_r.pages[i].w, g_r.pages[i].h, g_r.pages[i].tex != nullptr });
    j->trigger = trigger;
    j->change_t = change_t;
    return j;
}

static void atlas_job_free(AtlasJob *j)
{
    for (AtlasJob::Out &o : j->pages) if (o.pixels) stbi_image_free(o.pixels);
    thal_free(&j->m);
    delete j;
}

/* Installs what the job read. Returns the number of atlas errors reported. */
static int atlas_apply(AtlasJob *j, bool announce)
{
    int errors = 0, reloaded = 0;
    g_r.have_manifest_st = j->have_st;
    if (j->have_st) g_r.manifest_st = j->manifest_st;
    if (!j->manifest_ok) {
        asset_error(j->manifest_path, std::string(j->manifest_err) +
                    (j->have_st ? "; every sprite draws as a placeholder" : "; run ./build.sh assets (sprites draw as placeholders)"));
        for (int i = 0; i < g_r.page_count; i++) if (g_r.pages[i].tex) SDL_DestroyTexture(g_r.pages[i].tex);
        for (int i = 0; i < g_r.page_count; i++) g_r.pages[i] = Page();
        g_r.page_count = 0;
        thal_manifest empty;
        thal_init(&empty);
        /* keep the ids that were known, now broken, so they keep their size */
        for (uint32_t k = 0; g_r.table && k <= g_r.table_mask; k++) {
            if (!g_r.table[k].id) continue;
            thal_sprite *s = thal_add_sprite(&empty);
            if (!s) break;
            s->id = g_r.table[k].id;
            s->error = 1;
        }
        table_build(&empty);
        thal_free(&empty);
        return 1;
    }
    Page next[MAX_ATLAS_PAGES];
    int n = (int)j->pages.size();
    for (int i = 0; i < n; i++) {
        const thal_page &mp = j->m.pages[i];
        AtlasJob::Out &o = j->pages[(size_t)i];
        next[i].w = mp.w;
        next[i].h = mp.h;
        next[i].hash = mp.hash;
        next[i].file = mp.file;
        if (o.reuse && i < g_r.page_count && g_r.pages[i].tex) {
            next[i].tex = g_r.pages[i].tex;
            g_r.pages[i].tex = nullptr;
            continue;
        }
        if (o.pixels) {
            next[i].tex = make_texture(o.pixels, mp.w, mp.h, g_r.page_filter);
            if (!next[i].tex) o.err = std::string("cannot create a texture: ") + SDL_GetError();
            else reloaded++;
        }
        if (!next[i].tex) {
            asset_error(j->dir + "/" + mp.file, o.err + "; its sprites draw as placeholders");
            errors++;
        }
    }
    if (j->m.page_count > MAX_ATLAS_PAGES) {
        asset_error(j->manifest_path, "more than " + std::to_string(MAX_ATLAS_PAGES) + " pages; the sprites beyond them draw as placeholders");
        errors++;
    }
    for (int i = 0; i < g_r.page_count; i++) if (g_r.pages[i].tex) SDL_DestroyTexture(g_r.pages[i].tex);
    for (int i = 0; i < MAX_ATLAS_PAGES; i++) g_r.pages[i] = i < n ? next[i] : Page();
    g_r.page_count = n;
    table_build(&j->m);
    for (int i = 0; i < j->m.sprite_count; i++) {
        const thal_sprite &s = j->m.sprites[i];
        if (!s.error) continue;
        asset_error(g_r.sprites_dir + "/" + s.file, s.reason);
        errors++;
    }
    if (announce) {
        double ms = j->change_t >= 0 ? (host_time() - j->change_t) * 1000.0 : -1.0;
        host_log(LOG_INFO, "assets: atlas reloaded (%d pages, %d new) %.1f ms after %s", n, reloaded, ms, j->trigger.c_str());
        host_event("asset_reload", "\"file\":\"%s\",\"ms\":%.1f,\"pages\":%d,\"pages_reloaded\":%d,\"errors\":%d",
                   escaped(j->trigger).c_str(), ms, n, reloaded, errors);
    }
    return errors;
}

/* ---------------------------------------------------------------- font */
static int glyph_slot(uint32_t cp)
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

static FontBake *font_bake(const std::string &path)
{
    FontBake *fb = new FontBake;
    fb->path = path;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) {
        fb->error = std::string("cannot open (") + strerror(errno) + ")";
        font_white_only(fb);
        return fb;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n <= 0 || n > MAX_FONT_BYTES) {
        fclose(f);
        fb->error = n <= 0 ? "empty file" : "larger than 64 MB";
        font_white_only(fb);
        return fb;
    }
    fb->ttf.resize((size_t)n);
    size_t got = fread(fb->ttf.data(), 1, (size_t)n, f);
    fclose(f);
    std::string why;
    if (got != (size_t)n) why = "cannot read";
    else if (!font_check(fb->ttf.data(), fb->ttf.size(), &why)) {}
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
    g_r.font_job = font_bake(g_r.font_job_path);
    g_r.font_worker.state = 2;
    return nullptr;
}

static void font_install(FontBake *fb, bool announce, const std::string &trigger, double change_t)
{
    SDL_Texture *t = make_texture(fb->rgba.data(), fb->w, fb->h, SDL_ScaleModeLinear);
    if (!t) {
        host_log(LOG_ERROR, "render: cannot create the text texture: %s", SDL_GetError());
        delete fb;
        return;
    }
    if (g_r.system) SDL_DestroyTexture(g_r.system);
    g_r.system = t;
    delete g_r.font;
    g_r.font = fb;
    g_r.font_path = fb->path;
    g_r.white_u0 = (float)(fb->white_x + 2) / fb->w;
    g_r.white_v0 = (float)(fb->white_y + 2) / fb->h;
    g_r.white_u1 = (float)(fb->white_x + 4) / fb->w;
    g_r.white_v1 = (float)(fb->white_y + 4) / fb->h;
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

static std::string font_resolve(const char *configured)
{
    if (configured && *configured) {
        if (configured[0] == '/' || file_exists(configured)) return configured;
        std::string in_root = g_r.root + "/" + configured;
        return file_exists(in_root) ? in_root : std::string(configured);
    }
    std::string project = g_r.root + "/" + PROJECT_FONT;
    return file_exists(project) ? project : std::string(DEFAULT_FONT);
}

static void font_start_bake(const std::string &path, const std::string &trigger, double change_t)
{
    if (g_r.font_worker.state != 0) {
        g_r.font_queued = 1;
        g_r.font_queued_trigger = trigger;
        if (g_r.font_queued_change_t < 0) g_r.font_queued_change_t = change_t;
        return;
    }
    g_r.font_job_path = path;
    g_r.font_job_trigger = trigger;
    g_r.font_job_change_t = change_t;
    start_worker(&g_r.font_worker, font_thread, nullptr);
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
    thsb_push(&g_r.sb, &s);
}

/* Lays out utf8 at size px with the text box's top-left at (x, y); pushes the glyphs when draw is
   set. Returns the widest line; *box_h gets the number of lines times the line height. */
static float text_layout(const char *utf8, float x, float y, float px, uint32_t color, int layer, bool draw, float *box_h)
{
    if (box_h) *box_h = 0;
    if (!utf8 || !(px > 0) || !g_r.sb.sprites) return 0;
    const FontBake *fb = g_r.font;
    const bool have_font = fb && fb->ok;
    int si = FONT_SIZE_COUNT - 1;
    for (int i = 0; i < FONT_SIZE_COUNT; i++) if (FONT_SIZES[i] >= px) { si = i; break; }
    const float scale = px / FONT_SIZES[si];
    const bool snap = scale == 1.0f;
    const float line_h = have_font ? (fb->ascent - fb->descent + fb->line_gap) * fb->unit * px : px;
    const float ascent = have_font ? fb->ascent * fb->unit * px : 0.8f * px;
    float pen = x, baseline = y + ascent, widest = 0;
    int lines = 1, prev_glyph = -1;
    const unsigned char *p = (const unsigned char *)utf8;
    while (*p) {
        uint32_t cp = utf8_next(&p);
        if (cp == '\n') {
            widest = std::max(widest, pen - x);
            pen = x;
            baseline += line_h;
            lines++;
            prev_glyph = -1;
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
            int slot = glyph_slot(cp);
            int g = fb->glyph[slot];
            if (prev_glyph >= 0) pen += (float)stbtt_GetGlyphKernAdvance(&fb->info, prev_glyph, g) * fb->unit * px;
            const stbtt_packedchar &pc = fb->chars[si][slot];
            if (draw && pc.x1 > pc.x0 && pc.y1 > pc.y0) {
                float gx = pen + pc.xoff * scale, gy = baseline + pc.yoff * scale;
                if (snap) { gx = floorf(gx + 0.5f); gy = floorf(gy + 0.5f); }
                push_quad(gx, gy, (float)(pc.x1 - pc.x0), (float)(pc.y1 - pc.y0), scale, scale, PAGE_SYSTEM,
                          (float)pc.x0 / fb->w, (float)pc.y0 / fb->h, (float)pc.x1 / fb->w, (float)pc.y1 / fb->h, color, layer);
            }
            pen += pc.xadvance * scale;
            prev_glyph = g;
        }
    }
    widest = std::max(widest, pen - x);
    if (box_h) *box_h = lines * line_h;
    return widest;
}

/* ---------------------------------------------------------------- PlatformAPI drawing services */
static void warn_unknown(uint32_t id)
{
    for (uint32_t w : g_r.warned_ids) if (w == id) return;
    if (g_r.warned_ids.size() < 256) g_r.warned_ids.push_back(id);
    host_log(LOG_WARN, "draw_sprite: sprite id 0x%08x is not in %s; drawn as a placeholder", id, g_r.manifest_path.c_str());
}

static void api_draw_sprite(const GameSprite *gs)
{
    if (!gs || !g_r.sb.sprites) return;
    thsb_sprite s;
    float pivot_x = 0.5f, pivot_y = 0.5f;
    if (gs->sprite == 0) {
        s.page = PAGE_SYSTEM;
        s.w = s.h = 1;
        s.u0 = g_r.white_u0; s.v0 = g_r.white_v0; s.u1 = g_r.white_u1; s.v1 = g_r.white_v1;
    } else {
        const SpriteInfo *si = sprite_lookup(gs->sprite);
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
    thsb_push(&g_r.sb, &s);
}

static void api_draw_rect(float x, float y, float w, float h, uint32_t color, int layer)
{
    if (!g_r.sb.sprites) return;
    push_quad(x, y, 1, 1, w, h, PAGE_SYSTEM, g_r.white_u0, g_r.white_v0, g_r.white_u1, g_r.white_v1, color, layer);
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
    else if (const SpriteInfo *si = sprite_lookup(sprite)) { sw = si->w; sh = si->h; known = si->page >= 0; }
    if (w) *w = sw;
    if (h) *h = sh;
    return known;
}

static void api_set_camera(float x, float y, float zoom)
{
    g_r.cam_x = x;
    g_r.cam_y = y;
    g_r.cam_zoom = zoom > 0 ? zoom : 1;
}

/* ---------------------------------------------------------------- the packer child */
/* from_change: started while handling a batch of changes, so it sees every file of that batch. */
static void pack_start(const std::string &trigger, double change_t, bool force, bool from_change)
{
    if (access(g_r.packer.c_str(), X_OK) != 0) {
        asset_error(trigger, "cannot repack: " + g_r.packer + " is missing (run ./build.sh tools)");
        return;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        host_log(LOG_ERROR, "assets: pipe: %s", strerror(errno));
        return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    std::vector<char *> argv;
    argv.push_back((char *)g_r.packer.c_str());
    if (force) argv.push_back((char *)"--force");
    argv.push_back((char *)g_r.sprites_dir.c_str());
    argv.push_back((char *)g_r.assets_out.c_str());
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, g_r.packer.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        asset_error(trigger, std::string("cannot start atlas_pack: ") + strerror(rc));
        return;
    }
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    g_r.pack_pid = pid;
    g_r.pack_fd = fds[0];
    g_r.pack_err.clear();
    g_r.pack_trigger = trigger;
    g_r.pack_change_t = change_t;
    g_r.pack_started_this_frame = from_change;
}

static void pack_drain(void)
{
    if (g_r.pack_fd < 0) return;
    char buf[4096];
    for (;;) {
        ssize_t n = read(g_r.pack_fd, buf, sizeof buf);
        if (n > 0) { if (g_r.pack_err.size() < 16384) g_r.pack_err.append(buf, (size_t)n); continue; }
        if (n < 0 && errno == EINTR) continue;
        break;
    }
}

/* Returns 1 on the frame the child finished; *ok says whether it wrote a manifest. */
static int pack_poll(int *ok)
{
    if (!g_r.pack_pid) return 0;
    pack_drain();
    int status = 0;
    pid_t r = waitpid(g_r.pack_pid, &status, WNOHANG);
    if (r == 0) return 0;
    pack_drain();
    close(g_r.pack_fd);
    g_r.pack_fd = -1;
    g_r.pack_pid = 0;
    if (r < 0) { *ok = 1; return 1; }      /* reaped elsewhere: look at what is on disk */
    *ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!*ok) {
        std::string out = g_r.pack_err;
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        char b[64];
        if (WIFEXITED(status)) snprintf(b, sizeof b, "atlas_pack exited with %d", WEXITSTATUS(status));
        else snprintf(b, sizeof b, "atlas_pack killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        asset_error(g_r.assets_out, std::string(b) + (out.empty() ? "" : ": " + out) + "; keeping the previous atlas");
    }
    return 1;
}

static void pack_request(const std::string &trigger, double now)
{
    if (!g_r.pack_pid && g_r.atlas_worker.state == 0 && !g_r.pack_queued) {
        pack_start(trigger, now, true, true);
        return;
    }
    if (g_r.pack_started_this_frame) return;   /* started after this change was already on disk */
    if (!g_r.pack_queued) g_r.queued_change_t = now;
    g_r.pack_queued = 1;
    g_r.queued_trigger = trigger;
}

static bool manifest_changed_on_disk(void)
{
    struct stat st;
    if (stat(g_r.manifest_path.c_str(), &st) != 0) return g_r.have_manifest_st;
    if (!g_r.have_manifest_st) return true;
    const struct stat &o = g_r.manifest_st;
    return st.st_ino != o.st_ino || st.st_size != o.st_size || st.st_mtim.tv_sec != o.st_mtim.tv_sec ||
           st.st_mtim.tv_nsec != o.st_mtim.tv_nsec;
}

/* ---------------------------------------------------------------- public: rendering section of host.h */
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
    g_r.placeholder = make_texture(px.data(), N, N, SDL_ScaleModeNearest);
}

int render_init(SDL_Renderer *r, int view_w, int view_h, const char *font_path)
{
    render_shutdown();
    g_r.ren = r;
    g_r.view_w = view_w;
    g_r.view_h = view_h;
    g_r.root = host_root() ? host_root() : ".";
    g_r.sprites_dir = g_r.root + "/assets/sprites";
    g_r.assets_out = g_r.root + "/build/assets";
    g_r.manifest_path = g_r.assets_out + "/atlas.txt";
    g_r.packer = g_r.root + "/build/tools/atlas_pack";
    g_r.cam_x = g_r.cam_y = 0;
    g_r.cam_zoom = 1;
    /* Smooth scaling where the renderer filters geometry (GPU renderers; the packer pads each sprite
       with its edge pixels). The software renderer samples geometry nearest, so its pages stay
       nearest too and every draw path looks the same. */
    SDL_RendererInfo info;
    g_r.page_filter = SDL_GetRendererInfo(r, &info) == 0 && strcmp(info.name, "software") != 0 ? SDL_ScaleModeLinear
                                                                                                : SDL_ScaleModeNearest;

    size_t bytes = thsb_memory_size(RENDER_MAX_SPRITES);
    g_r.sb_memory = malloc(bytes);
    if (!g_r.sb_memory || !thsb_init(&g_r.sb, g_r.sb_memory, bytes, RENDER_MAX_SPRITES)) {
        host_log(LOG_ERROR, "render: cannot allocate the sprite batch (%zu bytes)", bytes);
        free(g_r.sb_memory);
        g_r.sb_memory = nullptr;
        memset(&g_r.sb, 0, sizeof g_r.sb);
        return 0;
    }
    thsb_set_cull(&g_r.sb, 0, 0, (float)view_w, (float)view_h);
    thsb_begin(&g_r.sb);

    make_placeholder();
    g_r.font_configured = font_path && *font_path;
    font_install(font_bake(font_resolve(font_path)), false, "", -1);
    bool font_ok = g_r.font && g_r.font->ok;

    AtlasJob *j = atlas_job_new("start", -1);
    atlas_job_run(j);
    bool atlas_ok = j->manifest_ok;
    int errors = atlas_apply(j, false);
    atlas_job_free(j);

    /* the assets may have changed while the host was not running: a no-op when they did not */
    if (access(g_r.packer.c_str(), X_OK) == 0) pack_start("start", host_time(), false, false);
    return font_ok && atlas_ok && errors == 0 && g_r.placeholder && g_r.system;
}

void render_shutdown(void)
{
    if (g_r.pack_pid) {
        kill(g_r.pack_pid, SIGTERM);
        waitpid(g_r.pack_pid, nullptr, 0);
        g_r.pack_pid = 0;
    }
    if (g_r.pack_fd >= 0) { close(g_r.pack_fd); g_r.pack_fd = -1; }
    worker_wait(&g_r.atlas_worker);
    if (g_r.atlas_job) { atlas_job_free(g_r.atlas_job); g_r.atlas_job = nullptr; }
    worker_wait(&g_r.font_worker);
    delete g_r.font_job;
    g_r.font_job = nullptr;
    for (int i = 0; i < g_r.page_count; i++) if (g_r.pages[i].tex) SDL_DestroyTexture(g_r.pages[i].tex);
    for (int i = 0; i < MAX_ATLAS_PAGES; i++) g_r.pages[i] = Page();
    g_r.page_count = 0;
    if (g_r.placeholder) SDL_DestroyTexture(g_r.placeholder);
    if (g_r.system) SDL_DestroyTexture(g_r.system);
    g_r.placeholder = g_r.system = nullptr;
    delete g_r.font;
    g_r.font = nullptr;
    free(g_r.table);
    g_r.table = nullptr;
    g_r.table_mask = 0;
    free(g_r.sb_memory);
    g_r.sb_memory = nullptr;
    memset(&g_r.sb, 0, sizeof g_r.sb);
    g_r.pack_queued = g_r.font_queued = 0;
    g_r.queued_change_t = g_r.font_queued_change_t = -1;
    g_r.have_manifest_st = 0;
    g_r.warned_ids.clear();
    g_r.ren = nullptr;
}

void render_fill_api(PlatformAPI *pf)
{
    pf->draw_sprite = api_draw_sprite;
    pf->draw_rect = api_draw_rect;
    pf->draw_text = api_draw_text;
    pf->measure_text = api_measure_text;
    pf->sprite_size = api_sprite_size;
    pf->set_camera = api_set_camera;
}

void render_begin_frame(void)
{
    if (g_r.sb.sprites) thsb_begin(&g_r.sb);
}

RenderStats render_end_frame(void)
{
    RenderStats st = { 0, 0, 0 };
    if (!g_r.sb.sprites || !g_r.ren) return st;
    const float cx = g_r.cam_x, cy = g_r.cam_y, z = g_r.cam_zoom;
    if (cx != 0 || cy != 0 || z != 1) {
        thsb_sprite *s = g_r.sb.sprites;
        for (int i = 0, n = g_r.sb.sprite_count; i < n; i++) {
            if (s[i].layer >= GAME_LAYER_UI) continue;
            s[i].x = (s[i].x - cx) * z;
            s[i].y = (s[i].y - cy) * z;
            s[i].scale_x *= z;
            s[i].scale_y *= z;
        }
    }
    thsb_end(&g_r.sb);
    for (int b = 0; b < g_r.sb.batch_count; b++) {
        const thsb_batch &bt = g_r.sb.batches[b];
        SDL_Texture *tex = bt.page == PAGE_SYSTEM ? g_r.system : bt.page == PAGE_PLACEHOLDER ? g_r.placeholder
                         : bt.page < g_r.page_count ? g_r.pages[bt.page].tex : nullptr;
        SDL_RenderGeometry(g_r.ren, tex, (const SDL_Vertex *)(g_r.sb.vertices + bt.first_vertex), bt.vertex_count,
                           g_r.sb.indices, bt.index_count);
        st.draw_calls++;
    }
    st.sprites = g_r.sb.stats.sprites + g_r.sb.stats.dropped;
    st.batches = g_r.sb.batch_count;
    if (g_r.sb.stats.dropped && host_time() - g_r.last_drop_log > 5.0) {
        g_r.last_drop_log = host_time();
        host_log(LOG_WARN, "render: %d sprites dropped this frame (the batch holds %d)", g_r.sb.stats.dropped, RENDER_MAX_SPRITES);
    }
    return st;
}

void render_asset_changed(const char *path)
{
    if (!path || !g_r.ren) return;
    double now = host_time();
    std::string sprites_prefix = g_r.sprites_dir + "/";
    if (starts_with(path, sprites_prefix) && (ends_with_ci(path, ".png") || ends_with_ci(path, ".pivot"))) {
        pack_request(path, now);
        return;
    }
    if (ends_with_ci(path, ".ttf") || ends_with_ci(path, ".otf")) {
        std::string p = path, target;
        if (g_r.font_configured) {
            if (same_file(p, g_r.font_path)) target = g_r.font_path;
        } else if (p == g_r.root + "/" + PROJECT_FONT) {
            target = font_resolve(nullptr);
        } else if (same_file(p, g_r.font_path)) {
            target = g_r.font_path;
        }
        if (!target.empty()) font_start_bake(target, p, now);
    }
}

void render_update(void)
{
    if (!g_r.ren) return;
    int ok = 0;
    g_r.pack_started_this_frame = 0;
    if (pack_poll(&ok)) {
        if (ok && (manifest_changed_on_disk() || g_r.pack_trigger != "start")) {
            g_r.atlas_job = atlas_job_new(g_r.pack_trigger, g_r.pack_change_t);
            start_worker(&g_r.atlas_worker, atlas_thread, g_r.atlas_job);
        }
    }
    if (worker_finished(&g_r.atlas_worker) && g_r.atlas_job) {
        atlas_apply(g_r.atlas_job, true);
        atlas_job_free(g_r.atlas_job);
        g_r.atlas_job = nullptr;
    }
    if (!g_r.pack_pid && g_r.atlas_worker.state == 0 && g_r.pack_queued) {
        g_r.pack_queued = 0;
        double t = g_r.queued_change_t;
        g_r.queued_change_t = -1;
        pack_start(g_r.queued_trigger, t, true, false);
    }
    if (worker_finished(&g_r.font_worker) && g_r.font_job) {
        FontBake *fb = g_r.font_job;
        g_r.font_job = nullptr;
        font_install(fb, true, g_r.font_job_trigger, g_r.font_job_change_t);
    }
    if (g_r.font_worker.state == 0 && g_r.font_queued) {
        g_r.font_queued = 0;
        double t = g_r.font_queued_change_t;
        g_r.font_queued_change_t = -1;
        std::string target = g_r.font_configured ? g_r.font_path : font_resolve(nullptr);
        font_start_bake(target, g_r.font_queued_trigger, t);
    }
}

int render_screenshot(const char *png_path)
{
    if (!g_r.ren || !png_path) return 0;
    int lw = 0, lh = 0, w = 0, h = 0;
    SDL_RenderGetLogicalSize(g_r.ren, &lw, &lh);
    if (lw && lh) SDL_RenderSetLogicalSize(g_r.ren, 0, 0);
    int ok = SDL_GetRendererOutputSize(g_r.ren, &w, &h) == 0 && w > 0 && h > 0;
    std::vector<unsigned char> px;
    if (ok) {
        px.resize((size_t)w * h * 3);
        ok = SDL_RenderReadPixels(g_r.ren, nullptr, SDL_PIXELFORMAT_RGB24, px.data(), w * 3) == 0;
        if (!ok) host_log(LOG_ERROR, "screenshot: SDL_RenderReadPixels: %s", SDL_GetError());
    }
    if (lw && lh) SDL_RenderSetLogicalSize(g_r.ren, lw, lh);
    if (!ok) return 0;
    std::string tmp = std::string(png_path) + ".tmp";
    if (!stbi_write_png(tmp.c_str(), w, h, 3, px.data(), w * 3)) {
        host_log(LOG_ERROR, "screenshot: cannot write %s", tmp.c_str());
        remove(tmp.c_str());
        return 0;
    }
    if (rename(tmp.c_str(), png_path) != 0) {
        host_log(LOG_ERROR, "screenshot: cannot rename %s to %s: %s", tmp.c_str(), png_path, strerror(errno));
        remove(tmp.c_str());
        return 0;
    }
    return 1;
}
