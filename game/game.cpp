/* game.cpp - NEON SWARM, the sample game: its entry points. The other files (fx, sound, entities, world,
   waves, bot, ui) share game.h, where each declares what the others call; the build packs the files into a
   few translation units (docs/design.md, "What a save compiles"). The game talks to the host only through
   game_api.h and keeps all its state in GameMemory. Start reading at game_update. */
#include "game.h"

/* ---------------------------------------------------------------- entry points */
static GameState *game_state(GameMemory *mem) { return (GameState *)mem->base; }

/* The arena after the state holds only caches (the broadphase grid): every load lays it out anew. */
static void caches_init(GameState *gs, GameMemory *mem)
{
    uint8_t *after = (uint8_t *)mem->base + sizeof(GameState);
    tha_arena_init(&gs->arena, after, (size_t)(mem->size - sizeof(GameState)));
    gs->grid_mem = NULL;
    gs->grid_bytes = 0;
    world_init(gs);
}

static void game_init(GameState *gs, GameMemory *mem, const PlatformAPI *pf)
{
    gs->rng = th_rng_seed(0x5eed5eedull);
    thh_fixed_init(&gs->handles.head, MAX_ENTITIES);
    caches_init(gs, mem);
    arena_build(gs);
    gs->cam = gs->prev_cam = v2_make(ARENA_W / 2, ARENA_H / 2);
    gs->aim = v2_make(1, 0);
    gs->mode = MODE_TITLE;
    gs->zoom = gs->prev_zoom = 1.0f;
    gs->mouse_idle = 1e6f;
    gs->initialized = 1;
    best_load(gs, pf);
    pf->log(LOG_INFO, "NEON SWARM started (best %d)", gs->best_score);
}

/* Everything the rest of the code takes for granted about the state; what the host's tests read after a
   migration ("consistent" in the stats). Returns 1, or 0 and what is wrong in why. */
static int state_check(GameState *gs, char *why, size_t cap)
{
    thh_fixed *h = &gs->handles.head;
    why[0] = 0;
    if (h->capacity != MAX_ENTITIES || h->count > MAX_ENTITIES) { snprintf(why, cap, "handle pool %u/%u", h->count, h->capacity); return 0; }
    if (gs->particle_count > MAX_PARTICLES) { snprintf(why, cap, "particle_count %u", gs->particle_count); return 0; }
    for (uint32_t i = 0; i < thh_fixed_count(h); i++) {
        thh_handle e = thh_fixed_at(h, i);
        if (!thh_fixed_valid(h, e)) { snprintf(why, cap, "dense handle %u invalid", i); return 0; }
        if ((uint32_t)gs->entities[thh_index(e)].type >= ENTITY_TYPE_COUNT) { snprintf(why, cap, "entity %u has type %u", thh_index(e), (uint32_t)gs->entities[thh_index(e)].type); return 0; }
    }
    if (gs->mode == MODE_PLAY && !entity_get(gs, gs->player)) { snprintf(why, cap, "playing without a player"); return 0; }
    if ((uint32_t)gs->mode > MODE_GAMEOVER) { snprintf(why, cap, "mode %u", (uint32_t)gs->mode); return 0; }
    return 1;
}

/* The host rewrote the state for a new state.h (matched by name, new fields at their defaults): what
   derives from the arrays is rebuilt here, and what only the game knows is checked. */
static void state_after_migration(GameState *gs, const PlatformAPI *pf)
{
    thh_fixed_rebuild(&gs->handles.head, MAX_ENTITIES);   /* MAX_ENTITIES may have changed: the free list follows */
    for (uint32_t i = thh_fixed_count(&gs->handles.head); i-- > 0;) {
        thh_handle h = thh_fixed_at(&gs->handles.head, i);
        Entity *e = &gs->entities[thh_index(h)];
        if ((uint32_t)e->type >= ENTITY_TYPE_COUNT) { e->type = ENTITY_GEM; e->dead = 1; thh_fixed_free(&gs->handles.head, h); }
        else e->self = h;
    }
    /* a smaller MAX_ENTITIES may have cut the player off: the run is over, as if it had died */
    if (gs->mode == MODE_PLAY && !entity_get(gs, gs->player)) { gs->mode = MODE_GAMEOVER; gs->mode_time = 0; }
    char why[128];
    if (!state_check(gs, why, sizeof why)) pf->log(LOG_WARN, "state after migration: %s", why);
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);   /* every entry point: a reload resets the library's globals */
    g_zone_pf = pf;
    for (int i = 0; i < SPR_COUNT; i++) g_sprite_ids[i] = game_sprite_id(SPRITE_NAMES[i]);
    sound_load(pf);
    pf->set_title("NEON SWARM");
    GameState *gs = game_state(mem);
    if (!gs->initialized) game_init(gs, mem, pf);
    else caches_init(gs, mem);
    if (mem->migrated && gs->initialized) state_after_migration(gs, pf);
    mem->used = sizeof(GameState) + gs->arena.high_water;
}

static Controls read_controls(GameState *gs, const GameInput *in, const PlatformAPI *pf)
{
    Controls c;
    memset(&c, 0, sizeof c);
    c.move.x = (float)(in->down[KEY_D] - in->down[KEY_A]) + in->axis[AXIS_LEFT_X];
    c.move.y = (float)(in->down[KEY_S] - in->down[KEY_W]) + in->axis[AXIS_LEFT_Y];
    v2 keys = v2_make((float)(in->down[KEY_RIGHT] - in->down[KEY_LEFT]), (float)(in->down[KEY_DOWN] - in->down[KEY_UP]));
    v2 stick = v2_make(in->axis[AXIS_RIGHT_X], in->axis[AXIS_RIGHT_Y]);
    Entity *pl = entity_get(gs, gs->player);
    if (v2_len2(stick) > 0.09f) { c.aim = stick; c.fire = 1; }
    else if (v2_len2(keys) > 0) { c.aim = keys; c.fire = 1; }
    else if (pl && (in->down[KEY_MOUSE_LEFT] || in->mouse_x || in->mouse_y)) {
        float z = gs->zoom > 0.05f ? gs->zoom : 1.0f;
        v2 mouse_world = v2_add(gs->cam, v2_scale(v2_sub(v2_make(in->mouse_x, in->mouse_y),
                                                         v2_make(pf->view_width * 0.5f, pf->view_height * 0.5f)), 1.0f / z));
        c.aim = v2_sub(mouse_world, pl->pos);
        c.fire = in->down[KEY_MOUSE_LEFT];
    }
    c.fire |= in->down[KEY_PAD_RB] || in->axis[AXIS_TRIGGER_RIGHT] > 0.4f;
    c.dash = in->pressed[KEY_SPACE] || in->pressed[KEY_PAD_A] || in->pressed[KEY_MOUSE_RIGHT] || in->pressed[KEY_PAD_LB];
    c.bomb = in->pressed[KEY_Q] || in->pressed[KEY_E] || in->pressed[KEY_PAD_Y] || in->pressed[KEY_MOUSE_MIDDLE];
    return c;
}

static void play_step(GameState *gs, float dt, const PlatformAPI *pf)
{
    PROFILE_ZONE("play step");
    if (gs->hitstop > 0) { gs->hitstop -= dt; fx_update(gs, dt * 0.25f); return; }
    world_begin_step(gs);
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead) continue;
        e->prev_pos = e->pos;
        if (e->type != ENTITY_PLAYER) e->flash = th_maxf(0, e->flash - dt);
        ENTITY_KINDS[e->type].update(gs, e, dt);
    }
    world_resolve_contacts(gs);
    /* the dead leave at the end of the step; backwards, because freeing swaps the live list */
    for (uint32_t i = thh_fixed_count(&gs->handles.head); i-- > 0;) {
        thh_handle h = thh_fixed_at(&gs->handles.head, i);
        Entity *e = &gs->entities[thh_index(h)];
        if (e->dead && e->type != ENTITY_PLAYER) thh_fixed_free(&gs->handles.head, h);
    }
    waves_update(gs, dt, pf);
    Entity *pl = entity_get(gs, gs->player);
    if (pl && pl->dead && gs->mode == MODE_PLAY) {
        gs->mode = MODE_GAMEOVER;
        gs->mode_time = -1.2f;   /* let the explosion play before the screen */
        gs->deaths++;
        gs->paused = 0;
        best_save(gs, pf);
        char f[128];
        snprintf(f, sizeof f, "\"score\":%d,\"wave\":%d,\"best\":%d,\"new_best\":%s,\"demo\":%s", gs->score, gs->wave, gs->best_score,
                 !gs->demo && gs->score > gs->best_before_run ? "true" : "false", gs->demo ? "true" : "false");
        pf->event("player_died", f);
        sfx_ui(SND_GAME_OVER);
    }
}

/* Back to the title because the player asked: the autopilot stops too, or it would start the next run 1.5 s
   later and the player's next Esc would pause that run instead of quitting. F10 brings it back. */
static void title_enter(GameState *gs)
{
    gs->mode = MODE_TITLE;
    gs->mode_time = 0;
    gs->autopilot = 0;
}

/* The pause menu: Esc / Start opens and closes it; up/down (or the mouse) picks, Enter / A / click chooses. */
static void pause_open(GameState *gs, const PlatformAPI *pf)
{
    gs->paused = 1;
    gs->pause_item = PAUSE_RESUME;
    gs->pause_time = 0;
    pf->event("pause", "\"on\":true");
}

static void pause_update(GameState *gs, const GameInput *in, const PlatformAPI *pf)
{
    gs->pause_time += in->dt;
    int up = in->pressed[KEY_UP] || in->pressed[KEY_W] || in->pressed[KEY_PAD_UP];
    int down = in->pressed[KEY_DOWN] || in->pressed[KEY_S] || in->pressed[KEY_PAD_DOWN] || in->pressed[KEY_TAB];
    gs->pause_item = (gs->pause_item + PAUSE_ITEM_COUNT + down - up) % PAUSE_ITEM_COUNT;
    int hovered = pause_item_at(pf, gs->mouse);
    if (hovered >= 0 && gs->mouse_idle == 0) gs->pause_item = hovered;
    int choose = in->pressed[KEY_ENTER] || in->pressed[KEY_SPACE] || in->pressed[KEY_PAD_A] ||
                 (in->pressed[KEY_MOUSE_LEFT] && hovered >= 0);
    if (in->pressed[KEY_ESCAPE] || in->pressed[KEY_PAD_START] || in->pressed[KEY_PAD_B]) { choose = 1; gs->pause_item = PAUSE_RESUME; }
    if (!choose) return;
    gs->paused = 0;
    pf->event("pause", "\"on\":false");
    if (gs->pause_item == PAUSE_RESTART) { best_save(gs, pf); run_start(gs, pf); }
    else if (gs->pause_item == PAUSE_QUIT) {   /* back to the title; Esc there quits */
        best_save(gs, pf);
        title_enter(gs);
        pf->event("quit_to_title", "");
    }
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    g_zone_pf = pf;
    PROFILE_ZONE("game update");
    GameState *gs = game_state(mem);
    if (!gs->initialized) game_init(gs, mem, pf);
    float dt = in->dt;
    gs->steps++;
    v2 mouse = v2_make(in->mouse_x, in->mouse_y);
    int clicked = in->down[KEY_MOUSE_LEFT] || in->down[KEY_MOUSE_RIGHT];
    gs->mouse_idle = (v2_dist(mouse, gs->mouse) > 0.5f || clicked) ? 0 : gs->mouse_idle + dt;
    gs->mouse = mouse;
    if (in->pressed[KEY_F10]) {
        gs->autopilot = !gs->autopilot;
        if (gs->autopilot && gs->mode == MODE_PLAY && !gs->demo) { gs->demo = 1; pf->event("demo_run", "\"why\":\"autopilot\""); }
    }
    if (gs->paused) { pause_update(gs, in, pf); return; }   /* nothing moves behind the menu */
    if (gs->mode == MODE_PLAY && (in->focus_lost || in->pressed[KEY_ESCAPE] || in->pressed[KEY_PAD_START])) {
        pause_open(gs, pf);
        return;
    }
    gs->mode_time += dt;
    if (in->pressed[KEY_F3] && gs->mode == MODE_PLAY) {
        wave_swarm(gs);
        if (!gs->demo) { gs->demo = 1; pf->event("demo_run", "\"why\":\"F3\""); }
    }
    int start = in->pressed[KEY_ENTER] || in->pressed[KEY_PAD_START] || (gs->autopilot && gs->mode_time > 1.5f);
    g_controls = gs->autopilot ? bot_controls(gs, dt) : read_controls(gs, in, pf);
    g_bombed = 0;
    switch (gs->mode) {
    case MODE_TITLE:
        if (in->pressed[KEY_ESCAPE]) { pf->event("quit_from_menu", ""); pf->quit(); }
        else if (start) run_start(gs, pf);
        break;
    case MODE_PLAY:
        play_step(gs, dt, pf);
        break;
    case MODE_GAMEOVER:
        g_controls = Controls();
        play_step(gs, dt, pf);   /* the world keeps moving behind the screen */
        if (in->pressed[KEY_ESCAPE] && gs->mode_time > 0.3f) title_enter(gs);
        else if (start && gs->mode_time > 0.8f) run_start(gs, pf);
        break;
    }
    if (g_bombed) {
        char f[64];
        snprintf(f, sizeof f, "\"bombs_left\":%d,\"wave\":%d", gs->bombs, gs->wave);
        pf->event("bomb", f);
    }
    gs->bomb_flash = th_maxf(0, gs->bomb_flash - dt);
    gs->tier_flash = th_maxf(0, gs->tier_flash - dt);
    banner_update(gs, dt);
    fx_update(gs, dt);
    grid_update(gs, dt);
    camera_update(gs, dt, pf);
    sound_flush(gs, pf);
    mem->used = sizeof(GameState) + gs->arena.high_water;
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    g_zone_pf = pf;
    PROFILE_ZONE("game render");
    GameState *gs = game_state(mem);
    if (!gs->initialized) return;
    camera_apply(gs, alpha, pf);
    floor_draw(gs, alpha, pf);
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead) continue;
        v2 p = v2_lerp(e->prev_pos, e->pos, alpha);
        float a = e->prev_angle + th_wrap_anglef(e->angle - e->prev_angle) * alpha;
        ENTITY_KINDS[e->type].draw(gs, e, p, a, pf);
    }
    fx_draw(gs, pf);
    if (pf->debug_draw) world_debug_draw(gs, pf);
    if (gs->mode == MODE_TITLE) title_draw(gs, pf);
    else {
        if (gs->mode == MODE_PLAY) offscreen_markers_draw(gs, alpha, pf);
        hud_draw(gs, pf);
        wave_banner_draw(gs, pf);
        if (gs->mode == MODE_GAMEOVER && gs->mode_time > 0) gameover_draw(gs, pf);
    }
    if (gs->paused) pause_draw(gs, pf);
    crosshair_draw(gs, alpha, pf);
    safe_area_report(gs, alpha, pf);
}

static GAME_STATS(game_stats)
{
    GameState *gs = game_state(mem);
    if (!gs->initialized) return snprintf(buf, (size_t)cap, "\"initialized\":false");
    Entity *pl = entity_get(gs, gs->player);
    int enemies = 0, walls = 0, on_screen = 0;
    float z = gs->zoom > 0.05f ? gs->zoom : 1.0f, hw = 640 / z, hh = 360 / z;   /* the 1280x720 view around the camera */
    float bullet_speed = 0;   /* of a live player bullet: shows a BULLET_SPEED edit taking effect */
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        enemies += is_enemy(e->type) && e->type != ENTITY_SNAKE_BODY;
        on_screen += is_enemy(e->type) && fabsf(e->pos.x - gs->cam.x) < hw && fabsf(e->pos.y - gs->cam.y) < hh;
        walls += e->type == ENTITY_WALL;
        if (e->type == ENTITY_BULLET && !e->dead) bullet_speed = v2_len(e->vel);
    }
    char why[128];
    int consistent = state_check(gs, why, sizeof why);
    return snprintf(buf, (size_t)cap,
                    "\"consistent\":%s,\"mode\":%u,\"steps\":%llu,\"entities\":%u,\"enemies\":%d,\"walls\":%d,\"particles\":%u,\"score\":%d,\"best\":%d,"
                    "\"wave\":%d,\"wave_shown\":%d,\"enemies_left\":%d,\"paused\":%u,\"runs\":%d,\"deaths\":%d,\"player_handle\":%u,\"player_x\":%.2f,\"player_y\":%.2f,"
                    "\"player_hp\":%.0f,\"autopilot\":%u,\"bullet_speed\":%.1f,\"shot_speed\":%.1f,\"demo\":%u,\"multiplier\":%d,\"tier\":%d,\"bombs\":%d,"
                    "\"zoom\":%.3f,\"on_screen\":%d,\"upgrades\":[%.1f,%.1f,%.1f],\"run_time\":%.1f,\"alive_peak\":%d",
                    consistent ? "true" : "false", (uint32_t)gs->mode, (unsigned long long)gs->steps, thh_fixed_count(&gs->handles.head), enemies, walls, gs->particle_count,
                    gs->score, gs->best_score, gs->wave, wave_shown(gs), gs->enemies_left, gs->paused, gs->runs, gs->deaths, gs->player.value,
                    pl ? pl->pos.x : 0.0f, pl ? pl->pos.y : 0.0f, pl ? pl->hp : 0.0f, gs->autopilot, bullet_speed, gs->shot_speed, gs->demo, gs->multiplier,
                    gs->tier, gs->bombs, z, on_screen, gs->upgrade_time[0], gs->upgrade_time[1], gs->upgrade_time[2],
                    gs->run_time, gs->alive_peak);
}

/* the contract's version, the layout stamp, the state's size and description (game_engine.h), then the game's own */
GAME_EXPORT GAME_GET_API(game_get_api)
{
    GameAPI api = game_api_defaults();
    api.load = game_load;
    api.update = game_update;
    api.render = game_render;
    api.stats = game_stats;
    return api;
}
