/* render_internal.h - what render.cpp (drawing), assets.cpp (atlas pages, the packer child) and font.cpp
   share: the tunables, the page and font types and the one RenderState. Not seen outside those three. */
#ifndef RENDER_INTERNAL_H
#define RENDER_INTERNAL_H

#include <SDL.h>

#include <atomic>
#include <string>
#include <vector>

#include "services.h"
#include "th_spritebatch.h"
#include "th_atlas.h"
#include "th_fontbake.h"

/* ---------------------------------------------------------------- tunables */
static const int   RENDER_MAX_SPRITES = 1 << 17;      /* submissions per frame, text glyphs included */
static const int   MAX_ATLAS_PAGES    = 64;
static const char *const DEFAULT_FONT       = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
static const char *const PROJECT_FONT       = "assets/fonts/default.ttf";  /* used instead when it exists */
static const char *const PACKED_ATLAS       = "atlas";              /* a release's archive: atlas/atlas.txt + pages */
static const char *const PACKED_FONT = "fonts/default.thfb"; /* ... the font, baked by font_bake at packing time */
static const float PLACEHOLDER_SIZE   = 32;           /* size of a sprite nobody knows the size of */
static const double FONT_BAKE_TIMEOUT_S = 30;         /* font_bake also limits its own CPU to 20 s */
static const unsigned char GLOW_WIDE_WEIGHT  = 56;    /* each of the 9 copies of the 1/8 blur, /255 */
static const unsigned char GLOW_TIGHT_WEIGHT = 200;   /* the 1/4 copy added onto the wide halo, /255 */

enum { PAGE_PLACEHOLDER = 254, PAGE_SYSTEM = 255 };
/* A batch's page also carries how it blends: the bits above the texture's number (the sort then puts a
   layer's additive and glowing runs after its plain ones, and never mixes them in one draw call). */
enum { PAGE_TEXTURE_MASK = 0xFF, PAGE_ADDITIVE = 0x100, PAGE_GLOW = 0x200 };

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

struct FontBake {              /* a font baked by the font_bake child: read on a worker, installed on the main thread */
    int         ok = 0;
    std::string path, error;
    thfb_font baked = {}; /* checked by thfb_decode: sizes, boxes, kerning, metrics (alpha freed once installed) */
    std::vector<unsigned char> rgba;    /* the system page */
    int         w = 0, h = 0;
    int         white_x = 0, white_y = 0;
    ~FontBake();
};

struct AtlasJob {              /* manifest + changed pages, decoded on a worker */
    std::string dir, manifest_path;
    struct Snap { std::string file; uint64_t hash; int w, h; bool loaded; };
    std::vector<Snap> current;
    thal_manifest m;
    int  manifest_ok = 0;
    char manifest_err[512] = "";
    std::string anims_text;        /* anims.txt beside the manifest (the Aseprite files' frames and tags) */
    int  have_anims = 0;
    struct Out { unsigned char *pixels = nullptr; bool reuse = false; std::string err; };
    std::vector<Out> pages;
    /* why it ran */
    std::string trigger;
    double change_t = -1;
    OsFileStamp manifest_st;
    int have_st = 0;
};

/* render.cpp: a rectangle of an atlas sprite at (x, y, w, h), rotated about its centre (THSB_FLIP_* flips);
   tilemap.cpp's tiles. An unknown sprite draws the placeholder's checker. */
void render_push_region(uint32_t sprite, float src_x, float src_y, float src_w, float src_h, float x, float y, float w,
                        float h, float rotation, int flips, uint32_t color, int layer);
int  render_view_size(int *w, int *h);   /* render.cpp: the logical resolution; 0 before render_init */

/* sprite_anim.cpp: the Aseprite files' animations, installed with the atlas they came with */
void sprite_anims_install(const char *text, size_t len, const std::string &path);   /* text NULL: none */
int  sprite_anim_info_api(uint32_t sprite, const char *tag, GameAnimInfo *out);      /* PlatformAPI.sprite_anim_info */
int  sprite_slice_api(uint32_t sprite, const char *name, GameSlice *out);          /* PlatformAPI.sprite_slice */

struct Worker {
    OsThread th;
    std::atomic<int> state{0};     /* 0 idle, 1 running, 2 finished */
};

struct RenderState {
    SDL_Renderer *ren = nullptr;
    int view_w = 0, view_h = 0;
    std::string root, sprites_dir, assets_out, manifest_path, packer;
    std::string game_sprites_dir;   /* <game>/assets/sprites when the game has its own art ("": none), packed first */

    void *sb_memory = nullptr;
    thsb_batcher sb;
    float cam_x = 0, cam_y = 0, cam_zoom = 1;
    double last_drop_log = -1e9;

    Page pages[MAX_ATLAS_PAGES];
    int page_count = 0;
    SpriteInfo *table = nullptr;
    uint32_t table_mask = 0;
    OsFileStamp manifest_st;
    int have_manifest_st = 0;
    std::vector<uint32_t> warned_ids;

    SDL_Texture *placeholder = nullptr;
    SDL_Texture *system = nullptr;
    FontBake *font = nullptr;       /* what text draws with: the last font that baked (or the boxes) */
    float white_u0 = 0, white_v0 = 0, white_u1 = 0, white_v1 = 0;
    std::string font_path;          /* the font the host wants (it may have failed; its saves are watched) */
    int font_configured = 0;        /* 1: --font given; 0: default resolution */
    std::string font_baker;         /* <root>/build/tools/font_bake */
    int font_seq = 0;               /* numbers the bakes (their output files) */
    std::string notice, notice_file;   /* a font that does not bake, said along the bottom of the screen */

    /* atlas_pack child */
    OsChild pack;
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
    int font_job_seq = 0;
    std::string font_job_trigger;
    double font_job_change_t = -1;
    int font_queued = 0;
    std::string font_queued_trigger;
    double font_queued_change_t = -1;
    SDL_ScaleMode page_filter;

    /* the glow pass (render_glow): flagged sprites drawn again into glow[0] (1/2 size, opaque black), then
       halved to glow[1] (1/4) and glow[2] (1/8); glow[3] (1/8) is glow[2] blurred, glow[4] (1/4) that scaled
       up with glow[1] added onto it, added over the frame (through glow[0] at 1/2 on OpenGL, on the CPU on the
       software renderer). Made on first use, remade when the view size changes. */
    SDL_Texture *glow[5] = {};
    int glow_w = 0, glow_h = 0;
    /* the software renderer adds the 1/4 glow on the CPU (render_glow_add_cpu): SDL's own additive blit costs
       it ~7 ns a pixel, a full frame every frame. glow_soft: that renderer; the rest is its scratch. */
    int glow_soft = 0;
    /* the software renderer fills big one-colour rectangles instead of rasterizing them (draw_quads); fills: how
       many this frame */
    int fill_rects = 0, fills = 0;
    void (*between_batches)(void) = nullptr;   /* after each batch: the frame loop's pump (main.cpp) */
    SDL_Texture *glow_frame = nullptr;          /* streaming, the frame's size: the frame read back, glow added */
    int glow_frame_w = 0, glow_frame_h = 0;
    std::vector<uint32_t> glow_px, glow_scaled; /* the 1/4 glow read back; scaled by the intensity */
    std::vector<uint32_t> glow_rows;            /* its rows stretched to the frame's width */
    std::vector<int> glow_span;                 /* per row: the columns [first, last + 1) not black in it */
    std::vector<int> glow_col;                  /* per frame column: source column << 9 | weight of the next (0..256) */
    /* the software renderer's budget: when its last full pass (flagged sprites drawn at 1/2, scaled, blurred)
       took more than glow_budget_ms, every other frame adds that pass's glow again instead of drawing a new one
       (the halo trails its sprite by a frame; the pass costs half as much on average) */
    double glow_budget_ms = 3.0, glow_full_ms = 0;
    int glow_have = 0;              /* glow[4] holds a finished glow of the current size */
    int glow_reused = 0;            /* this frame added the previous frame's glow */
    float glow_intensity = 1.0f;
    double glow_ms = 0;             /* the last frame's glow pass, CPU time to submit it */
    int glow_unseen = 0;            /* render_glow_seen(0): the frame is never shown, no pass */
    float safe_x = 0, safe_y = 0, safe_w = 0, safe_h = 0;   /* set_safe_area; w or h <= 0: the whole view */
};

extern RenderState g_render;

/* ---------------------------------------------------------------- shared between the three files */
SDL_Texture      *render_make_texture(const unsigned char *rgba, int w, int h, SDL_ScaleMode mode);  /* render.cpp */
const SpriteInfo *render_sprite_lookup(uint32_t id);                                 /* render.cpp */
void assets_error(const std::string &file, const std::string &reason); /* assets.cpp; log + "asset_error" event */
void              assets_note_overrides(void);   /* the game's sprites the engine's assets/ has too, said once each */
std::string       assets_json_escaped(const std::string &s);
bool              assets_file_exists(const std::string &p);
bool              assets_same_file(const std::string &a, const std::string &b);
void              assets_worker_start(Worker *w, void *(*fn)(void *), void *arg);   /* state 1 -> 2 when fn returns */
bool              assets_worker_finished(Worker *w);                                /* joins a finished worker */
void              assets_worker_wait(Worker *w);
int               font_init(const char *configured);        /* font.cpp; 1 if the font asked for baked */
FontBake *font_bake(const std::string &path,
                    int seq); /* runs font_bake; never NULL; ->ok = 0 and ->error on a bad font */
void              font_install(FontBake *fb, bool announce, const std::string &trigger, double change_t);
std::string       font_resolve(const char *configured);    /* --font, the project font, or the system default */
void              font_start_bake(const std::string &path, const std::string &trigger, double change_t);
int               assets_init(const char *font_path);      /* font, atlas, packer check; 0 if something is missing */
void              assets_shutdown(void);
int64_t           assets_read_file(const char *path, void *dst, int64_t cap);  /* PlatformAPI read_file */

#endif /* RENDER_INTERNAL_H */
