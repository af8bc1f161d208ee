/* game_harness.h - NEON SWARM (game/) compiled straight into a test or benchmark program, run without the
   host: a PlatformAPI of stubs (nothing drawn or heard, events counted), one memory block, and steps driven
   by GameInputs the program makes. Much faster than the headless host (no rendering, no frame pacing), so
   bots can play many runs on fixed seeds. Include it in one .cpp; it #includes every file of the game (one
translation unit, as a release compiles it; a file added to game/ goes in the list below). */
#ifndef GAME_HARNESS_H
#define GAME_HARNESS_H

#ifndef GAME_LAYOUT_HASH
#define GAME_LAYOUT_HASH 1u
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"   /* state_default is exported only with the build's state_types.inc */
#include "../../game/game.cpp"
#include "../../game/bot.cpp"
#include "../../game/enemies.cpp"
#include "../../game/entities.cpp"
#include "../../game/fx.cpp"
#include "../../game/sound.cpp"
#include "../../game/ui.cpp"
#include "../../game/waves.cpp"
#include "../../game/world.cpp"
#pragma GCC diagnostic pop
#include "tinyheaders.cpp"   /* platform/include/: the tinyheader implementations a game links */

#include <stdarg.h>
#include <stdlib.h>

static struct {
    int waves_started, bombs, player_died, sprites, glow_sprites, quits;
    char last_event[64];
    const char *text_wanted;   /* set by a test: draw_text calls whose text holds it are counted in text_seen */
    int text_seen;
    const char *tweak_literal;   /* set by a test: the TWEAK whose literal is this reads tweak_value instead */
    uint64_t tweak_value;
    void (*on_sprite)(const GameSprite *s);   /* set by a test: sees every sprite drawn */
} g_harness;

static void h_log(int level, const char *fmt, ...) { (void)level; (void)fmt; }
static void h_event(const char *name, const char *fields)
{
    (void)fields;
    snprintf(g_harness.last_event, sizeof g_harness.last_event, "%s", name);
    if (!strcmp(name, "wave_start")) g_harness.waves_started++;
    if (!strcmp(name, "bomb")) g_harness.bombs++;
    if (!strcmp(name, "player_died")) g_harness.player_died++;
}
static int64_t h_read_file(const char *path, void *dst, int64_t cap) { (void)path; (void)dst; (void)cap; return -1; }
static double h_time(void) { return 0; }
static void h_draw_sprite(const GameSprite *s)
{
    g_harness.sprites++;
    g_harness.glow_sprites += (s->flags & SPRITE_GLOW) != 0;
    if (g_harness.on_sprite) g_harness.on_sprite(s);
}
static void h_draw_rect(float x, float y, float w, float h, uint32_t color, int layer) { (void)x; (void)y; (void)w; (void)h; (void)color; (void)layer; g_harness.sprites++; }
static float h_draw_text(const char *utf8, float x, float y, float px, uint32_t color, int layer)
{
    (void)x; (void)y; (void)color; (void)layer;
    if (g_harness.text_wanted && strstr(utf8, g_harness.text_wanted)) g_harness.text_seen++;
    return (float)strlen(utf8) * px * 0.5f;
}
static void h_measure_text(const char *utf8, float px, float *w, float *h) { *w = (float)strlen(utf8) * px * 0.5f; *h = px; }
static int h_sprite_size(uint32_t sprite, float *w, float *h) { (void)sprite; *w = *h = 32; return 1; }
static void h_set_camera(float x, float y, float zoom) { (void)x; (void)y; (void)zoom; }
static void h_tweak(const char *file, int line, int counter, int kind, const char *literal, void *value_inout)
{
    (void)file; (void)line; (void)counter; (void)kind;
    if (g_harness.tweak_literal && !strcmp(literal, g_harness.tweak_literal)) memcpy(value_inout, &g_harness.tweak_value, THTW_IS_PAIR(kind) ? 8 : 4);
}
static uint32_t h_sound_play(uint32_t id, const GameSoundPlay *how) { (void)id; (void)how; return 0; }
static void h_sound_stop(uint32_t handle, float fade) { (void)handle; (void)fade; }
static void h_sound_set(uint32_t handle, float v, float p, float q) { (void)handle; (void)v; (void)p; (void)q; }
static int h_sound_playing(uint32_t handle) { (void)handle; return 0; }
static void h_sound_bus(int bus, float v, float fade) { (void)bus; (void)v; (void)fade; }
static void h_sound_name(const char *name) { (void)name; }
static int h_save(const char *name, const void *data, int64_t size) { (void)name; (void)data; (void)size; return 1; }
static int64_t h_load(const char *name, void *dst, int64_t cap) { (void)name; (void)dst; (void)cap; return -1; }
static void h_set_title(const char *utf8) { (void)utf8; }
static void h_quit(void) { g_harness.quits++; }
static void h_profile_begin(const char *name) { (void)name; }
static void h_profile_end(void) {}
static void h_set_glow(float intensity) { (void)intensity; }
static void h_set_safe_area(float x, float y, float w, float h) { (void)x; (void)y; (void)w; (void)h; }

typedef struct Harness {
    PlatformAPI pf;
    GameMemory  mem;
    GameAPI     api;
    uint64_t    step;
} Harness;

static void harness_init(Harness *h)
{
    memset(h, 0, sizeof *h);
    PlatformAPI *pf = &h->pf;
    pf->log = h_log; pf->event = h_event; pf->read_file = h_read_file; pf->time_seconds = h_time;
    pf->draw_sprite = h_draw_sprite; pf->draw_rect = h_draw_rect; pf->draw_text = h_draw_text;
    pf->measure_text = h_measure_text; pf->sprite_size = h_sprite_size; pf->set_camera = h_set_camera;
    pf->tweak = h_tweak; pf->sound_play = h_sound_play; pf->sound_stop = h_sound_stop; pf->sound_set = h_sound_set;
    pf->sound_playing = h_sound_playing; pf->sound_bus = h_sound_bus; pf->sound_name = h_sound_name;
    pf->save = h_save; pf->load = h_load; pf->set_title = h_set_title; pf->quit = h_quit;
    pf->profile_begin = h_profile_begin; pf->profile_end = h_profile_end;
    pf->set_glow = h_set_glow; pf->set_safe_area = h_set_safe_area;
    pf->view_width = 1280;
    pf->view_height = 720;
    h->mem.size = 32ull << 20;
    h->mem.base = calloc(1, (size_t)h->mem.size);
    h->api = game_get_api();
}

static inline void harness_free(Harness *h) { free(h->mem.base); h->mem.base = NULL; }

/* A fresh state (as the host starts one), loaded, its random numbers from seed. */
static GameState *harness_start(Harness *h, uint64_t seed)
{
    memset(h->mem.base, 0, (size_t)h->mem.size);
    h->step = 0;
    h->api.load(&h->mem, &h->pf);
    GameState *gs = (GameState *)h->mem.base;
    gs->rng = th_rng_seed(seed);
    memset(&g_harness, 0, sizeof g_harness);
    return gs;
}

static inline void harness_step(Harness *h, GameInput *in)
{
    in->step = h->step++;
    in->dt = 1.0f / 60.0f;
    h->api.update(&h->mem, in, &h->pf);
}

#endif
