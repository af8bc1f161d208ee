/* game_scenes.h - NEON SWARM moments built on the harness (game_harness.h), shared by the test that screenshots
   them (test_game_spectacle.cpp) and the benchmark that times their frames (tests/bench/bench_game_frame.cpp).
   Each starts a fresh state on a fixed seed and plays it to the moment, without drawing.
     scene_late   the late game: the autopilot plays with the flow's clock moved on to minute 7, the ship kept
                  alive, until the arena holds at least `alive` enemies (the flow's late population)
     scene_well   a gravity well beside the ship, a crowd of drones around, after a second and a half
     scene_snake  a snake weaving towards the ship */
#ifndef GAME_SCENES_H
#define GAME_SCENES_H

#include "game_harness.h"

static inline void scene_steps(Harness *h, int n, int key = -1)
{
    for (int i = 0; i < n; i++) {
        GameInput in;
        memset(&in, 0, sizeof in);
        if (key >= 0 && i == 0) in.pressed[key] = 1;
        harness_step(h, &in);
    }
}

static inline void scene_keep_alive(GameState *gs)
{
    Entity *pl = entity_get(gs, gs->player);
    if (pl) { pl->hp = player_max_hp(); pl->timer = th_maxf(pl->timer, 0.5f); }
}

/* Returns the enemies alive when it stopped (at most 60 s of play after the jump to minute 7). */
static inline int scene_late(Harness *h, uint64_t seed, int alive)
{
    GameState *gs = harness_start(h, seed);
    scene_steps(h, 1, KEY_F10);
    for (int i = 0; i < 200 && gs->mode != MODE_PLAY; i++) scene_steps(h, 1);
    scene_steps(h, 60);
    gs->run_time = 420.0f;   /* minute 7: phase 15 comes next step */
    gs->wave = 14;
    gs->bombs = 0;           /* a bomb would empty the arena */
    for (int i = 0; i < 60 * 60 && gs->alive_now < alive; i++) { scene_keep_alive(gs); scene_steps(h, 1); }
    scene_keep_alive(gs);
    return gs->alive_now;
}

static inline Entity *scene_spawn(GameState *gs, EntityType type, v2 at)
{
    Entity *e = entity_spawn(gs, ENTITY_SPAWNER, at);
    if (!e) return NULL;
    e->spawn_type = type;
    e->timer = 0;
    e->radius = 1;
    return e;
}

static inline GameState *scene_start_play(Harness *h, uint64_t seed)
{
    GameState *gs = harness_start(h, seed);
    scene_steps(h, 1, KEY_ENTER);
    scene_steps(h, 30);
    return gs;
}

static inline void scene_well(Harness *h)
{
    GameState *gs = scene_start_play(h, 21);
    Entity *pl = entity_get(gs, gs->player);
    scene_spawn(gs, ENTITY_WELL, v2_add(pl->pos, v2_make(260, 40)));
    for (int i = 0; i < 16; i++) scene_spawn(gs, ENTITY_DRONE, v2_add(pl->pos, v2_scale(v2_from_angle(i * 0.39f), 420)));
    GameInput in;
    for (int i = 0; i < 90; i++) {   /* the ship fires past the well, leaning away: its shots curve in */
        memset(&in, 0, sizeof in);
        in.axis[AXIS_RIGHT_X] = 1.0f;
        in.axis[AXIS_RIGHT_Y] = 0.8f;   /* past the well: the shots bend towards it */
        in.axis[AXIS_LEFT_X] = -0.45f;   /* and leans away from its pull */
        scene_keep_alive(gs);
        harness_step(h, &in);
    }
}

static inline void scene_snake(Harness *h)
{
    GameState *gs = scene_start_play(h, 22);
    Entity *pl = entity_get(gs, gs->player);
    scene_spawn(gs, ENTITY_SNAKE, v2_add(pl->pos, v2_make(-380, -160)));
    scene_spawn(gs, ENTITY_SNAKE, v2_add(pl->pos, v2_make(380, 200)));
    for (int i = 0; i < 100; i++) { scene_keep_alive(gs); scene_steps(h, 1); }
}

#endif
