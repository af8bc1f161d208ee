/* game.cpp - @NAME@: a ship bouncing off the edges of the screen, made by ./build.sh new.

   Run it with ./build.sh run @FOLDER@ and edit this file while it runs: every save rebuilds the game
   and the host swaps it in, keeping the state (state.h). Change a TWEAK(...) literal and the value
   changes at once, with no rebuild. docs/game_api.md lists what the host offers (pf->...).

   Its art and sound are its own: assets/sprites/ship.png is the sprite "ship", assets/sfx/bounce.sfx the
   sound "bounce" (a few numbers that make_sfx turns into a sound). Save either and it reloads while the game
   runs. A name this folder does not have comes from the engine's shared assets/ ("player/ship", "ui/start").

   When this file grows, split it: add enemies.cpp (every .cpp here is compiled) and a header both include
   (game.h, which includes game_engine.h) declaring what one file calls of the other; a save then recompiles
   only the part it touched (docs/game_api.md, "More than one file"). */
#include "game_engine.h"

/* Tuning: change these while the game runs. */
static constexpr auto SPEED = TWEAK(1.0f);                 /* how fast the ship moves */
static constexpr auto TINT  = TWEAK_COLOR(0x66DDFFFF);     /* the ship's color, 0xRRGGBBAA */

static const uint32_t TEXT_COLOR = 0xFFFFFFFF;

static GameState *game_state(GameMemory *mem) { return (GameState *)mem->base; }

/* Every entry point starts here: a reload resets the library's globals. */
static void enter(const PlatformAPI *pf)
{
    thtw_set_hook(pf->tweak);
    g_zone_pf = pf;
}

static GAME_LOAD(game_load)
{
    enter(pf);
    pf->set_title("@NAME@");   /* first: the title names the folder the save data lives in */
    GameState *gs = game_state(mem);
    if (!gs->initialized) {
        *gs = GameState();
        int32_t best = 0;
        if (pf->load("best", &best, sizeof best) == (int64_t)sizeof best) gs->best = best;
        gs->initialized = 1;
    }
    mem->used = sizeof(GameState);
    pf->sound_name("bounce");   /* "I use this sound": a missing file is reported by name */
}

static GAME_UPDATE(game_update)
{
    enter(pf);
    GameState *gs = game_state(mem);
    float dt = in->dt;
    gs->time += dt;
    gs->pos = v2_add(gs->pos, v2_scale(gs->vel, dt * SPEED));
    float w = (float)pf->view_width, h = (float)pf->view_height;
    int bounced = 0;
    if (gs->pos.x < 0 || gs->pos.x > w) { gs->vel.x = -gs->vel.x; gs->pos.x = gs->pos.x < 0 ? 0 : w; bounced = 1; }
    if (gs->pos.y < 0 || gs->pos.y > h) { gs->vel.y = -gs->vel.y; gs->pos.y = gs->pos.y < 0 ? 0 : h; bounced = 1; }
    if (bounced) {
        gs->bounces++;
        GameSoundPlay how = {};
        how.volume = 0.5f;
        how.pan = gs->pos.x / w * 2.0f - 1.0f;
        pf->sound_play(game_sound_id("bounce"), &how);
        if (gs->bounces > gs->best) {
            gs->best = gs->bounces;
            pf->save("best", &gs->best, sizeof gs->best);
        }
    }
    if (in->pressed[KEY_SPACE]) gs->bounces = 0;
    mem->used = sizeof(GameState);
}

static GAME_RENDER(game_render)
{
    enter(pf);
    (void)alpha;   /* how far between two steps this frame is, 0..1: smooth motion may interpolate with it */
    GameState *gs = game_state(mem);
    GameSprite s = {};
    s.sprite = game_sprite_id("ship");   /* this folder's assets/sprites/ship.png */
    s.color = TINT;
    s.x = gs->pos.x;
    s.y = gs->pos.y;
    s.scale_x = s.scale_y = 1.6f;
    s.rotation = atan2f(gs->vel.y, gs->vel.x) + 0.2f * sinf(gs->time * 3.0f);
    s.origin_x = s.origin_y = 0.5f;
    s.layer = 10;
    pf->draw_sprite(&s);
    char line[96];
    snprintf(line, sizeof line, "bounces %d   best %d   (space: reset)", gs->bounces, gs->best);
    pf->draw_text(line, 16, 16, 24, TEXT_COLOR, GAME_LAYER_UI);
    /* the host's boxes (BUILD FAILED, CRASHED, the F1 overlay) go in this part of the view: below the line above */
    pf->set_safe_area(0, 56, (float)pf->view_width, (float)pf->view_height - 56);
}

static GAME_STATS(game_stats)
{
    GameState *gs = game_state(mem);
    return snprintf(buf, (size_t)cap, "\"x\":%.1f,\"y\":%.1f,\"bounces\":%d,\"best\":%d", gs->pos.x, gs->pos.y, gs->bounces, gs->best);
}

GAME_EXPORT GAME_GET_API(game_get_api)
{
    GameAPI api = game_api_defaults();
    api.load = game_load;
    api.update = game_update;
    api.render = game_render;
    api.stats = game_stats;
    return api;
}
