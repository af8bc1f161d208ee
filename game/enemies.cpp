/* enemies.cpp - how the four enemy kinds move and attack: their tuning and their steps. What an enemy is
   worth, how it spawns, dies and looks is in entities.cpp, whose per-type table calls these steps. */
#include "game.h"

/* ---------------------------------------------------------------- tuning */
static constexpr auto DRONE_SPEED         = TWEAK(175.0f);
static constexpr auto DRONE_ACCEL         = TWEAK(700.0f);
static constexpr auto SHOOTER_SPEED       = TWEAK(120.0f);
static constexpr auto SHOOTER_RANGE       = TWEAK(330.0f);   /* distance it tries to keep */
static constexpr auto SHOOTER_FIRE_EVERY  = TWEAK(1.9f);
static constexpr auto ENEMY_BULLET_SPEED  = TWEAK(330.0f);
static constexpr auto SHOOTER_SPREAD_WAVE = TWEAK(5);        /* from this wave on, gunners fire three at once */
static constexpr auto DASHER_AIM_SECONDS  = TWEAK(0.65f);
static constexpr auto DASHER_SPEED        = TWEAK(880.0f);
static constexpr auto BRUTE_SPEED         = TWEAK(70.0f);
static constexpr auto WAVE_SPEEDUP        = TWEAK(0.12f);    /* enemies move, charge and fire this much faster per wave */
static constexpr auto HUNT_SPEEDUP        = TWEAK(1.6f);     /* the last few of a wave move this much faster */

/* Waves 1-2 teach: their enemies are slower. */
static float wave_pressure(GameState *gs)
{
    float early = gs->wave <= 1 ? 0.52f : gs->wave == 2 ? 0.78f : 1.0f;
    return early * (1.0f + WAVE_SPEEDUP * (float)(gs->wave > 2 ? gs->wave - 2 : 0)) * (stragglers_hunt(gs) ? HUNT_SPEEDUP : 1.0f);
}

/* ---------------------------------------------------------------- per-kind steps */
void drone_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    steer(e, v2_scale(dir_to(e->pos, target), DRONE_SPEED * wave_pressure(gs)), DRONE_ACCEL, dt);
    e->prev_angle = e->angle;
    e->angle += 4.0f * dt;
    move_and_collide(gs, e, dt);
}

void shooter_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    e->prev_angle = e->angle;
    if (!pl) { steer(e, v2_make(0, 0), 300, dt); move_and_collide(gs, e, dt); return; }
    v2 to = v2_sub(pl->pos, e->pos);
    float dist = v2_len(to);
    v2 d = v2_norm(to);
    float range = stragglers_hunt(gs) ? SHOOTER_RANGE * 0.5f : SHOOTER_RANGE;   /* a straggler closes in */
    float radial = dist > range + 40 ? 1.0f : dist < range - 40 ? -1.0f : 0.0f;
    float strafe = (thh_index(e->self) & 1) ? 0.6f : -0.6f;
    steer(e, v2_scale(v2_norm(v2_add(v2_scale(d, radial), v2_scale(v2_perp(d), strafe))), SHOOTER_SPEED * wave_pressure(gs)), 500, dt);
    e->angle = face(d);
    e->timer -= dt;
    if (e->timer <= 0 && dist < 700) {
        e->timer = SHOOTER_FIRE_EVERY / wave_pressure(gs);
        int shots = gs->wave >= SHOOTER_SPREAD_WAVE ? 3 : 1;   /* later gunners fire a fan */
        for (int k = 0; k < shots; k++) {
            v2 dk = v2_from_angle(face(d) + (k - (shots - 1) * 0.5f) * 0.22f);
            Entity *b = entity_spawn(gs, ENTITY_ENEMY_BULLET, v2_add(e->pos, v2_scale(dk, 24)));
            if (b) { b->vel = v2_scale(dk, ENEMY_BULLET_SPEED * wave_pressure(gs)); b->radius = 6; b->timer = 4.0f; }
        }
        fx_trail(gs, v2_add(e->pos, v2_scale(d, 24)), v2_scale(d, 80), 0xFFB060FF, 14);
        sfx(gs, SND_ENEMY_SHOOT, e->pos);
    }
    move_and_collide(gs, e, dt);
}

/* phase 0: drift closer; 1: stop and aim (flashing); 2: charge */
void dasher_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    e->prev_angle = e->angle;
    e->timer -= dt;
    if (e->phase == 0) {
        steer(e, v2_scale(dir_to(e->pos, target), 90 * wave_pressure(gs)), 400, dt);
        e->angle = face(dir_to(e->pos, target));
        if (e->timer <= 0) { e->phase = 1; e->timer = DASHER_AIM_SECONDS; }
    } else if (e->phase == 1) {
        steer(e, v2_make(0, 0), 900, dt);
        e->angle = face(dir_to(e->pos, target));
        if (e->timer <= 0) {
            e->phase = 2;
            e->timer = 0.5f;
            e->vel = v2_scale(v2_from_angle(e->angle), DASHER_SPEED * wave_pressure(gs));
            sfx(gs, SND_CHARGE, e->pos);
        }
    } else {
        if (gs->steps % 2 == 0) fx_trail(gs, e->pos, v2_make(0, 0), 0xFFE14A90, 16);
        if (e->timer <= 0) { e->phase = 0; e->timer = th_rng_range(&gs->rng, 0.8f, 1.6f); }
    }
    v2 before = e->vel;
    move_and_collide(gs, e, dt);
    if (e->phase == 2 && v2_len2(v2_sub(before, e->vel)) > 200 * 200) {
        e->phase = 0;
        e->timer = 1.0f;
        e->vel = v2_scale(e->vel, 0.2f);
        fx_shake(gs, 0.12f);
        fx_burst(gs, e->pos, 8, 0xFFFFFFFF, 0xFFE14A00, 60, 200, 8, 0.3f);
    }
}

void brute_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    steer(e, v2_scale(dir_to(e->pos, target), BRUTE_SPEED * wave_pressure(gs)), 200, dt);
    e->prev_angle = e->angle;
    e->angle = face(dir_to(e->pos, target));
    move_and_collide(gs, e, dt);
}
