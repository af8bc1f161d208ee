/* game.cpp - the game library: the one translation unit the build compiles. It includes every other
   game file, talks to the host only through game_api.h, and keeps all its state in GameMemory. */
#include "game_api.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "th_math.h"
#include "th_arena.h"
#include "th_handle.h"

#include "state.h"
#include "entities.cpp"

#ifndef GAME_LAYOUT_HASH
#define GAME_LAYOUT_HASH 0u   /* set by build.sh from state.h */
#endif

static const int START_BOUNCERS = 6;
static const int START_ORBITERS = 4;
static const int START_CHASERS  = 3;

static GameState *game_state(GameMemory *mem) { return (GameState *)mem->base; }

static void game_init(GameState *gs, GameMemory *mem, const PlatformAPI *pf)
{
    uint8_t *after = (uint8_t *)mem->base + sizeof(GameState);
    tha_arena_init(&gs->arena, after, (size_t)(mem->size - sizeof(GameState)));
    gs->rng = th_rng_seed(0x5eed);
    void *hmem = tha_push(&gs->arena, thh_pool_bytes(MAX_ENTITIES), 16);
    thh_pool_init(&gs->handles, hmem, MAX_ENTITIES);
    gs->entities = tha_push_array(&gs->arena, Entity, MAX_ENTITIES);
    float w = (float)pf->view_width, h = (float)pf->view_height;
    thh_handle first = { 0 };
    for (int i = 0; i < START_BOUNCERS; i++) {
        thh_handle b = entity_spawn(gs, ENTITY_BOUNCER, v2_make(th_rng_range(&gs->rng, 50, w - 100), th_rng_range(&gs->rng, 50, h - 100)), v2_make(28, 28));
        gs->entities[thh_index(b)].vel = th_rng_unit_v2(&gs->rng);
        if (!first.value) first = b;
    }
    for (int i = 0; i < START_ORBITERS; i++) {
        thh_handle o = entity_spawn(gs, ENTITY_ORBITER, v2_make(w / 2, h / 2), v2_make(20, 20));
        Entity *e = &gs->entities[thh_index(o)];
        e->anchor = v2_make(w / 2, h / 2);
        e->phase = i * (2 * TH_PI / START_ORBITERS);
    }
    for (int i = 0; i < START_CHASERS; i++) {
        thh_handle c = entity_spawn(gs, ENTITY_CHASER, v2_make(th_rng_range(&gs->rng, 0, w), th_rng_range(&gs->rng, 0, h)), v2_make(16, 16));
        gs->entities[thh_index(c)].target = first;
    }
    gs->initialized = 1;
    pf->log(LOG_INFO, "placeholder game started: %u entities", thh_count(&gs->handles));
}

static GAME_LOAD(game_load)
{
    GameState *gs = game_state(mem);
    if (!gs->initialized) game_init(gs, mem, pf);
    mem->used = sizeof(GameState) + gs->arena.high_water;
}

static GAME_UPDATE(game_update)
{
    GameState *gs = game_state(mem);
    if (!gs->initialized) game_init(gs, mem, pf);
    for (uint32_t i = 0; i < thh_count(&gs->handles); i++) {
        Entity *e = &gs->entities[thh_index(thh_at(&gs->handles, i))];
        e->prev_pos = e->pos;
        ENTITY_KINDS[e->type].update(gs, e, in->dt, pf);
    }
    gs->steps++;
    mem->used = sizeof(GameState) + gs->arena.high_water;
}

static GAME_RENDER(game_render)
{
    GameState *gs = game_state(mem);
    if (!gs->initialized) return;
    for (uint32_t i = 0; i < thh_count(&gs->handles); i++) {
        Entity *e = &gs->entities[thh_index(thh_at(&gs->handles, i))];
        v2 p = v2_lerp(e->prev_pos, e->pos, alpha);
        pf->draw_rect(p.x, p.y, e->size.x, e->size.y, ENTITY_KINDS[e->type].color, (int)e->type);
    }
    pf->draw_text("placeholder game - edit game/entities.cpp and save", 20, (float)pf->view_height - 40, 20, 0xFFFFFFFFu, GAME_LAYER_UI);
}

static GAME_STATS(game_stats)
{
    GameState *gs = game_state(mem);
    if (!gs->initialized) return snprintf(buf, (size_t)cap, "\"initialized\":false");
    Entity *e = &gs->entities[thh_index(thh_at(&gs->handles, 0))];
    return snprintf(buf, (size_t)cap, "\"entities\":%u,\"steps\":%llu,\"e0_x\":%.3f,\"e0_y\":%.3f,\"e0_speed\":%.3f",
                    thh_count(&gs->handles), (unsigned long long)gs->steps, e->pos.x, e->pos.y, v2_len(e->vel));
}

GAME_EXPORT GAME_GET_API(game_get_api)
{
    GameAPI api;
    memset(&api, 0, sizeof api);
    api.api_version = GAME_API_VERSION;
    api.state_version = GAME_LAYOUT_HASH;
    api.state_size = sizeof(GameState);
    api.load = game_load;
    api.update = game_update;
    api.render = game_render;
    api.stats = game_stats;
    return api;
}
