/* enemies.cpp - how the enemy kinds move and attack: their tuning and their steps. What an enemy is
   worth, how it spawns, dies and looks is in entities.cpp, whose per-type table calls these steps. */
#include "game.h"

/* ---------------------------------------------------------------- tuning */
static constexpr auto DRONE_SPEED         = TWEAK(175.0f);
static constexpr auto DRONE_ACCEL         = TWEAK(700.0f);
static constexpr auto SHOOTER_SPEED       = TWEAK(120.0f);
static constexpr auto SHOOTER_RANGE       = TWEAK(330.0f);   /* distance it tries to keep */
static constexpr auto SHOOTER_FIRE_EVERY  = TWEAK(1.9f);
static constexpr auto ENEMY_BULLET_SPEED  = TWEAK(330.0f);
static constexpr auto SHOOTER_SPREAD_WAVE = TWEAK(12);       /* from this phase on, gunners fire three at once */
static constexpr auto DASHER_AIM_SECONDS  = TWEAK(0.65f);
static constexpr auto DASHER_SPEED        = TWEAK(880.0f);
static constexpr auto BRUTE_SPEED         = TWEAK(70.0f);
static constexpr auto WAVE_SPEEDUP        = TWEAK(0.12f);    /* enemies move, charge and fire this much faster per wave */
static constexpr auto HUNT_SPEEDUP        = TWEAK(1.6f);     /* the last few of a wave move this much faster */
static constexpr auto SPEEDUP_SECONDS     = TWEAK(420.0f);   /* the run's pace rises over this long ... */
static constexpr auto SPEEDUP_MAX         = TWEAK(0.25f);    /* ... to this much faster */
static constexpr auto WANDERER_SPEED      = TWEAK(135.0f);
static constexpr auto WANDERER_DODGE_SPEED = TWEAK(330.0f);
static constexpr auto WANDERER_DODGE_ANGLE = TWEAK(0.28f);   /* radians off the aim line that count as aimed at */
static constexpr auto SNAKE_SPEED         = TWEAK(165.0f);
static constexpr auto SNAKE_SPACING       = TWEAK(15.0f);    /* between segments */
static constexpr auto PINWHEEL_SPEED      = TWEAK(85.0f);
static constexpr auto PINWHEEL_SMALL_SPEED = TWEAK(235.0f);
static constexpr auto WELL_SPEED          = TWEAK(22.0f);
static constexpr auto WELL_SHIP_PULL      = TWEAK(150.0f);   /* px/s a well drags the ship at, near its core */
static constexpr auto WELL_GRID_PULL      = TWEAK(-60.0f);   /* its pull on the grid, every step */

/* The first minute teaches: enemies start at half speed, reach full speed at 60 s, then slowly speed up. */
static float wave_pressure(GameState *gs)
{
    float t = gs->run_time;
    float early = t < 60 ? 0.55f + 0.45f * t / 60.0f : 1.0f;
    float later = 1.0f + SPEEDUP_MAX * th_clampf((t - 60) / SPEEDUP_SECONDS, 0, 1);
    return early * later * (stragglers_hunt(gs) ? HUNT_SPEEDUP : 1.0f);
}

v2 well_pull(v2 at, float strength)
{
    v2 acc = v2_make(0, 0);
    for (int i = 0; i < g_well_count; i++) {
        v2 d = v2_sub(g_wells[i].pos, at);
        float r = well_pull_radius() * g_wells[i].strength, len = v2_len(d);
        if (len >= r || len < 6) continue;
        acc = v2_add(acc, v2_scale(d, strength * g_wells[i].strength * (1.15f - len / r) / len));
    }
    return acc;
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

/* The wanderer comes in steadily, but when the ship aims at it while firing it sidesteps, fast, for a moment. */
void wanderer_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    v2 to = v2_sub(target, e->pos);
    float dist = v2_len(to);
    e->timer -= dt;
    e->prev_angle = e->angle;
    e->angle += 2.5f * dt;
    if (e->phase == 1) {   /* sidestepping */
        if (e->timer <= 0) { e->phase = 0; e->timer = 0.7f; }
    } else {
        steer(e, v2_scale(v2_norm(to), WANDERER_SPEED * wave_pressure(gs)), 500, dt);
        v2 from_ship = v2_scale(to, -1.0f / th_maxf(dist, 1));
        int aimed_at = v2_dot(from_ship, gs->aim) > cosf(WANDERER_DODGE_ANGLE);
        if (pl && g_controls.fire && e->timer <= 0 && dist < 650 && aimed_at) {
            v2 side = v2_perp(gs->aim);
            if (v2_dot(side, v2_sub(e->pos, pl->pos)) < 0) side = v2_neg(side);
            e->vel = v2_scale(side, WANDERER_DODGE_SPEED * wave_pressure(gs));
            e->phase = 1;
            e->timer = 0.3f;
            sfx(gs, SND_DODGE, e->pos);
        }
    }
    move_and_collide(gs, e, dt);
}

/* The snake's head weaves towards the ship; its body follows (snake_body_update). */
void snake_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    e->timer += dt;
    float weave = 0.9f * sinf(e->timer * 2.2f + (float)(thh_index(e->self) % 7));
    v2 d = v2_from_angle(face(dir_to(e->pos, target)) + weave);
    steer(e, v2_scale(d, SNAKE_SPEED * wave_pressure(gs)), 420, dt);
    e->prev_angle = e->angle;
    e->angle = face(e->vel);
    move_and_collide(gs, e, dt);
}

/* A segment keeps its spacing behind the one ahead; when the head dies the body comes apart. */
void snake_body_update(GameState *gs, Entity *e, float dt)
{
    thh_handle h = { e->leader };
    Entity *ahead = entity_get(gs, h);
    if (!ahead || ahead->dead) {
        e->dead = 1;
        fx_burst_sparks(gs, e->pos, 10, enemy_info(ENTITY_SNAKE).color, 300, 0.7f);
        return;
    }
    v2 back = v2_sub(e->pos, ahead->pos);
    float len = v2_len(back);
    v2 want = len > SNAKE_SPACING ? v2_add(ahead->pos, v2_scale(back, SNAKE_SPACING / len)) : e->pos;
    e->vel = v2_scale(v2_sub(want, e->pos), 1.0f / dt);
    e->pos = want;
    e->prev_angle = e->angle;
    e->angle = face(v2_neg(back));
}

/* Big pinwheels tumble across the arena, changing course now and then; small ones (phase 1) hunt the ship. */
void pinwheel_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    e->prev_angle = e->angle;
    e->angle += (e->phase ? 9.0f : 3.0f) * dt;
    e->timer -= dt;
    if (e->phase) {
        if (e->timer <= 0) steer(e, v2_scale(dir_to(e->pos, target), PINWHEEL_SMALL_SPEED * wave_pressure(gs)), 600, dt);
    } else {
        if (e->timer <= 0) {
            e->timer = th_rng_range(&gs->rng, 1.5f, 3.5f);
            v2 d = v2_norm(v2_add(th_rng_unit_v2(&gs->rng), v2_scale(dir_to(e->pos, target), 0.6f)));
            e->cooldown = face(d);
        }
        steer(e, v2_scale(v2_from_angle(e->cooldown), PINWHEEL_SPEED * wave_pressure(gs)), 160, dt);
    }
    v2 before = e->vel;
    move_and_collide(gs, e, dt);
    if (v2_len2(v2_sub(before, e->vel)) > 1) { e->cooldown += 3.14159f; e->vel = v2_neg(before); }   /* bounce off walls */
}

/* The gravity well creeps towards the ship and pulls: the ship (a drag it can outrun), every bullet and spark
   (well_pull), the grid. What it touches it swallows (world_resolve_contacts); overfed, it bursts. */
void well_update(GameState *gs, Entity *e, float dt)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 target = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    steer(e, v2_scale(dir_to(e->pos, target), WELL_SPEED), 60, dt);
    e->prev_angle = e->angle;
    e->angle += dt;
    move_and_collide(gs, e, dt);
    float reach = well_pull_radius() * (1.0f + 0.05f * e->fed);
    if (pl && !pl->dead) {
        v2 to = v2_sub(e->pos, pl->pos);
        float d = v2_len(to);
        if (d < reach && d > 1) {
            pl->pos = v2_add(pl->pos, v2_scale(to, WELL_SHIP_PULL * (1.0f - d / reach) * dt / d));
            v2 n;
            world_push_out(gs, &pl->pos, pl->radius, &n);
        }
    }
    grid_push(gs, e->pos, reach * 0.7f, WELL_GRID_PULL * (1.0f + 0.1f * e->fed));
    if (gs->steps % 3 == 0) fx_swirl(gs, e->pos, reach * 0.6f, enemy_info(ENTITY_WELL).color);
}
