/* debug_timeline - bouncing balls, a ship that shoots them and a score: a game whose past is worth going back to.

   Play a little (Left/Right or A/D move, Space fires), then press F8: the game pauses on the timeline's bar. Scrub
   back with Left/Right (Shift: a second), drag the bar, P plays forward, V replays every kept step and checks it, E
   writes the timeline to a session file, F8 again plays on from the step shown. Paused in the past, edit SHOT_SPEED
   or GRAVITY below and save: the same seconds replay with the new code. README.md walks through it. Every step reads
   only the state and the input (the generator lives in the state, time is in->dt), so V finds no divergence. */
#include "game_engine.h"

static constexpr auto SHIP_SPEED = TWEAK(420.0f);   /* pixels per second */
static constexpr auto SHOT_SPEED = TWEAK(700.0f);
static constexpr auto GRAVITY = TWEAK(240.0f);      /* the balls fall and bounce off the floor */
static constexpr auto FIRE_EVERY = TWEAK(0.18f);    /* seconds between shots while Space is held */
static const uint32_t PALETTE[4] = { 0xFF6B6BFF, 0x6BCBFFFF, 0xFFD36BFF, 0x9BFF8AFF };
#define SHIP_Y_FROM_BOTTOM 60.0f

static void ball_spawn(GameState *gs, Ball *b, float w)
{
    b->radius = th_rng_range(&gs->rng, 14, 34);
    b->pos = v2_make(th_rng_range(&gs->rng, b->radius, w - b->radius), th_rng_range(&gs->rng, 60, 200));
    b->vel = v2_make(th_rng_range(&gs->rng, -160, 160), th_rng_range(&gs->rng, -60, 60));
    b->hue = (uint32_t)th_rng_int(&gs->rng, 0, 3);
    b->alive = 1;
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("debug_timeline");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) {
        gs->rng = th_rng_seed(2024);
        gs->ship_x = (float)pf->view_width * 0.5f;
        for (int i = 0; i < 10; i++) ball_spawn(gs, &gs->balls[i], (float)pf->view_width);
        gs->initialized = 1;
    }
    mem->used = sizeof(GameState);
}

static void move_balls(GameState *gs, float dt, float w, float h)
{
    for (int i = 0; i < MAX_BALLS; i++) {
        Ball *b = &gs->balls[i];
        if (!b->alive) continue;
        b->vel.y += GRAVITY * dt;
        b->pos = v2_add(b->pos, v2_scale(b->vel, dt));
        if (b->pos.x < b->radius) { b->pos.x = b->radius; b->vel.x = -b->vel.x; }
        if (b->pos.x > w - b->radius) { b->pos.x = w - b->radius; b->vel.x = -b->vel.x; }
        float floor_y = h - SHIP_Y_FROM_BOTTOM - 30;
        if (b->pos.y > floor_y - b->radius) { b->pos.y = floor_y - b->radius; b->vel.y = -fabsf(b->vel.y) * 0.98f; }
    }
}

/* a shot that meets a ball: the ball splits in two smaller ones, or goes when it is small */
static void hit_ball(GameState *gs, Ball *b, float w)
{
    gs->score += (int32_t)(40 - b->radius);
    gs->hits++;
    gs->flash = 0.15f;
    if (b->radius < 18) { b->alive = 0; }
    else {
        b->radius *= 0.7f;
        b->vel = v2_make(-fabsf(b->vel.x) - 60, -220);
        for (int i = 0; i < MAX_BALLS; i++)
            if (!gs->balls[i].alive) { gs->balls[i] = *b; gs->balls[i].vel.x = -b->vel.x; break; }
    }
    int alive = 0;
    for (int i = 0; i < MAX_BALLS; i++) alive += (int)gs->balls[i].alive;
    if (alive < 4)
        for (int i = 0; i < MAX_BALLS && alive < 8; i++)
            if (!gs->balls[i].alive) { ball_spawn(gs, &gs->balls[i], w); alive++; }
}

static void move_shots(GameState *gs, float dt, float w)
{
    for (int s = 0; s < MAX_SHOTS; s++) {
        Shot *sh = &gs->shots[s];
        if (!sh->alive) continue;
        sh->pos.y -= SHOT_SPEED * dt;
        if (sh->pos.y < -10) { sh->alive = 0; continue; }
        for (int i = 0; i < MAX_BALLS && sh->alive; i++) {
            Ball *b = &gs->balls[i];
            if (b->alive && v2_len(v2_sub(b->pos, sh->pos)) < b->radius + 3) { sh->alive = 0; hit_ball(gs, b, w); }
        }
    }
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    float w = (float)pf->view_width, h = (float)pf->view_height, dt = in->dt;
    gs->steps++;
    float dir = (float)((in->down[KEY_RIGHT] || in->down[KEY_D]) - (in->down[KEY_LEFT] || in->down[KEY_A]));
    gs->ship_x = th_clampf(gs->ship_x + dir * SHIP_SPEED * dt, 20, w - 20);
    gs->cooldown = gs->cooldown > dt ? gs->cooldown - dt : 0;
    gs->flash = gs->flash > dt ? gs->flash - dt : 0;
    if (in->down[KEY_SPACE] && gs->cooldown <= 0)
        for (int s = 0; s < MAX_SHOTS; s++)
            if (!gs->shots[s].alive) {
                gs->shots[s].pos = v2_make(gs->ship_x, h - SHIP_Y_FROM_BOTTOM - 12);
                gs->shots[s].alive = 1;
                gs->shots_fired++;
                gs->cooldown = FIRE_EVERY;
                break;
            }
    move_balls(gs, dt, w, h);
    move_shots(gs, dt, w);
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    float w = (float)pf->view_width, h = (float)pf->view_height;
    pf->draw_rect(0, 0, w, h, gs->flash > 0 ? 0x1A1030FFu : 0x0B0D18FFu, -10);
    pf->draw_rect(0, h - SHIP_Y_FROM_BOTTOM - 30, w, 2, 0x303850FF, 0);
    for (int i = 0; i < MAX_BALLS; i++) {
        const Ball *b = &gs->balls[i];
        if (!b->alive) continue;
        pf->draw_rect(b->pos.x - b->radius, b->pos.y - b->radius, 2 * b->radius, 2 * b->radius, PALETTE[b->hue % 4], 5);
    }
    for (int s = 0; s < MAX_SHOTS; s++)
        if (gs->shots[s].alive) pf->draw_rect(gs->shots[s].pos.x - 2, gs->shots[s].pos.y - 8, 4, 16, 0xFFFFFFFF, 6);
    pf->draw_rect(gs->ship_x - 18, h - SHIP_Y_FROM_BOTTOM - 8, 36, 16, 0xE0E8FFFF, 7);
    char line[160];
    pf->draw_rect(16, 16, 560, 96, 0x05060CE8, GAME_LAYER_UI);
    pf->draw_text("debug_timeline", 28, 24, 32, 0xFFFFFFFF, GAME_LAYER_UI + 1);
    snprintf(line, sizeof line, "score %d   hits %d of %d shots   step %llu", gs->score, gs->hits, gs->shots_fired,
             (unsigned long long)gs->steps);
    pf->draw_text(line, 28, 62, 16, 0xC8D0F0FF, GAME_LAYER_UI + 1);
    pf->draw_text("Left/Right move, Space fires  -  F8 the timeline (scrub, V check, E save)", 28, 86, 14, 0x8890B0FF,
                  GAME_LAYER_UI + 1);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    int alive = 0;
    for (int i = 0; i < MAX_BALLS; i++) alive += (int)gs->balls[i].alive;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"score\":%d,\"hits\":%d,\"shots\":%d,\"balls\":%d",
                    (unsigned long long)gs->steps, gs->score, gs->hits, gs->shots_fired, alive);
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
