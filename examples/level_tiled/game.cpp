/* level_tiled - a level made in Tiled: tiles drawn by the host, walls to collide with, objects to spawn from.

   assets/maps/level1.tmj (exported from level1.tmx by Tiled; make_level.py writes both) is a 60x36 map of 32-pixel
   tiles, bigger than the screen. The host draws its tile layers (map_draw, culled to the camera), merges the
   tiles marked "solid" in the tileset into few boxes (map_solids), and hands over its objects (map_objects): a
   "spawn" point and "pickup" coins with a "value" property. The boxes go into th_collide's broadphase grid, which
   the player's moves ask for the walls near them. Arrow keys or WASD move the player; the camera
   follows. Save the map (in Tiled, or the .tmj by hand) while it runs: map_changed() says so on the next step,
   the walls and pickups are read again, and the player stays where it is with its score. */
#include "game_engine.h"

static constexpr auto SPEED = TWEAK(260.0f);      /* pixels per second */
static constexpr auto PLAYER_SIZE = TWEAK(22.0f);
static constexpr auto PLAYER_COLOR = TWEAK_COLOR(0xF2F2E6);
static constexpr auto COIN_COLOR = TWEAK_COLOR(0xFFD040);

static const char *const LEVEL = "level1";
static int g_tiles_drawn;   /* the last frame's, for the stats (a library global: a reload resets it) */

/* The walls in th_collide's broadphase grid: a cache built from gs->solids, in library globals (a reload or a level
   change builds it again), never in the state (the grid holds pointers into its buffer). */
static uint8_t g_grid_mem[384 * 1024];   /* thc_grid_bytes: 312 KB for 1024 bodies */
static thc_grid *g_grid;
static uint32_t g_grid_generation;

static void grid_build(const GameState *gs)
{
    thc_grid_desc d = { 128.0f, LEVEL_MAX_SOLIDS };
    g_grid = thc_grid_bytes(&d) <= sizeof g_grid_mem ? thc_grid_init(g_grid_mem, sizeof g_grid_mem, &d) : NULL;
    for (int32_t i = 0; g_grid && i < gs->solid_count; i++) {
        const GameMapBox *b = &gs->solids[i];
        thc_grid_insert(g_grid, (uint32_t)i, thc_aabb{ { b->x, b->y }, { b->x + b->w, b->y + b->h } });
    }
    g_grid_generation = gs->level_generation;
}

/* The level changed (or loaded): the walls and the pickups again from the map. The player keeps its place and
   score; a pickup already taken (same object id) stays taken. */
static void level_read(GameState *gs, const PlatformAPI *pf, uint32_t map)
{
    GameMapInfo info;
    if (!pf->map_info(map, &info)) return;
    gs->level_w = info.pixel_width;
    gs->level_h = info.pixel_height;
    gs->solid_count = pf->map_solids(map, 0, gs->solids, LEVEL_MAX_SOLIDS);
    Pickup kept[LEVEL_MAX_PICKUPS];
    int32_t kept_count = gs->pickup_count;
    memcpy(kept, gs->pickups, sizeof kept);
    gs->pickup_count = 0;
    GameMapObject objs[32];
    for (int32_t first = 0, n; (n = pf->map_objects(map, first, objs, 32)) > 0; first += n) {
        for (int32_t i = 0; i < n; i++) {
            const GameMapObject *o = &objs[i];
            if (!strcmp(o->type, "spawn") && gs->level_changes == 0) gs->player = v2_make(o->x, o->y);
            if (strcmp(o->type, "pickup") != 0 || gs->pickup_count >= LEVEL_MAX_PICKUPS) continue;
            Pickup *p = &gs->pickups[gs->pickup_count++];
            p->id = o->id;
            p->pos = v2_make(o->x + o->w * 0.5f, o->y + o->h * 0.5f);
            GameMapValue v;
            p->value = pf->map_property(map, o->id, "value", &v) && v.type == MAP_VALUE_INT ? (int32_t)v.i : 1;
            p->taken = 0;
            for (int32_t k = 0; k < kept_count; k++) if (kept[k].id == o->id) p->taken = kept[k].taken;
        }
    }
    gs->level_changes++;
    char f[160];
    snprintf(f, sizeof f, "\"generation\":%u,\"solids\":%d,\"pickups\":%d,\"x\":%.1f,\"y\":%.1f", gs->level_generation,
             gs->solid_count, gs->pickup_count, gs->player.x, gs->player.y);
    pf->event("level_changed", f);
}

/* Moves the player along one axis and stops it at the first wall it would overlap (the walls near it come from
   the grid); 1 if one stopped it. */
static int move_axis(GameState *gs, int axis, float d)
{
    float half = PLAYER_SIZE * 0.5f;
    v2 p = gs->player;
    if (axis == 0) p.x += d; else p.y += d;
    thc_aabb reach = { { th_minf(p.x, gs->player.x) - half, th_minf(p.y, gs->player.y) - half },
                       { th_maxf(p.x, gs->player.x) + half, th_maxf(p.y, gs->player.y) + half } };
    uint32_t near[64];
    int n = g_grid ? thc_grid_query_aabb(g_grid, reach, near, 64) : 0, hit = 0;
    for (int k = 0; k < n; k++) {
        const GameMapBox *b = &gs->solids[near[k]];
        if (p.x + half <= b->x || p.x - half >= b->x + b->w || p.y + half <= b->y || p.y - half >= b->y + b->h) continue;
        hit = 1;
        if (axis == 0) p.x = d > 0 ? th_minf(p.x, b->x - half) : th_maxf(p.x, b->x + b->w + half);
        else p.y = d > 0 ? th_minf(p.y, b->y - half) : th_maxf(p.y, b->y + b->h + half);
    }
    gs->player = p;
    return hit;
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("level_tiled");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) { gs->player = v2_make(100, 100); gs->initialized = 1; }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    uint32_t map = game_map_id(LEVEL);
    if (map_changed(pf, map, &gs->level_generation)) level_read(gs, pf, map);
    if (!g_grid || g_grid_generation != gs->level_generation) grid_build(gs);
    v2 move = v2_make(0, 0);
    if (in->down[KEY_LEFT] || in->down[KEY_A]) move.x -= 1;
    if (in->down[KEY_RIGHT] || in->down[KEY_D]) move.x += 1;
    if (in->down[KEY_UP] || in->down[KEY_W]) move.y -= 1;
    if (in->down[KEY_DOWN] || in->down[KEY_S]) move.y += 1;
    if (move.x != 0 || move.y != 0) move = v2_scale(v2_norm(move), SPEED * in->dt);
    gs->blocked_x = move.x != 0 && move_axis(gs, 0, move.x);
    if (move.y != 0) move_axis(gs, 1, move.y);
    for (int32_t i = 0; i < gs->pickup_count; i++) {
        Pickup *p = &gs->pickups[i];
        if (p->taken || v2_len(v2_sub(p->pos, gs->player)) > PLAYER_SIZE) continue;
        p->taken = 1;
        gs->score += p->value;
    }
    /* the camera: the player at the centre, held inside the level */
    float vw = (float)pf->view_width, vh = (float)pf->view_height;
    gs->cam.x = th_clampf(gs->player.x - vw * 0.5f, 0, th_maxf(0, gs->level_w - vw));
    gs->cam.y = th_clampf(gs->player.y - vh * 0.5f, 0, th_maxf(0, gs->level_h - vh));
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    uint32_t map = game_map_id(LEVEL);
    pf->set_camera(floorf(gs->cam.x), floorf(gs->cam.y), 1.0f);
    g_tiles_drawn = pf->map_draw(map, NULL, 0);
    for (int32_t i = 0; i < gs->pickup_count; i++) {
        const Pickup *p = &gs->pickups[i];
        if (p->taken) continue;
        GameSprite s = {};
        s.color = COIN_COLOR;
        s.x = p->pos.x, s.y = p->pos.y;
        s.scale_x = s.scale_y = p->value > 1 ? 18.0f : 12.0f;
        s.rotation = 0.785398f;
        s.origin_x = s.origin_y = 0.5f;
        s.layer = 5;
        s.flags = SPRITE_GLOW;
        pf->draw_sprite(&s);
    }
    float half = PLAYER_SIZE * 0.5f;
    pf->draw_rect(gs->player.x - half, gs->player.y - half, PLAYER_SIZE, PLAYER_SIZE, PLAYER_COLOR, 6);
    if (pf->debug_draw)   /* F2: the merged boxes */
        for (int32_t i = 0; i < gs->solid_count; i++) {
            const GameMapBox *b = &gs->solids[i];
            pf->draw_rect(b->x, b->y, b->w, b->h, 0xFF00FF50, 7);
        }
    char line[160];
    int left = 0;
    for (int32_t i = 0; i < gs->pickup_count; i++) left += !gs->pickups[i].taken;
    pf->draw_rect(12, 12, 520, 70, 0x05060CD8, GAME_LAYER_UI);
    pf->draw_text("level_tiled", 24, 18, 26, 0xFFFFFFFF, GAME_LAYER_UI + 1);
    snprintf(line, sizeof line, "score %d   coins left %d   walls: %d boxes   level generation %u", gs->score, left,
             gs->solid_count, gs->level_generation);
    pf->draw_text(line, 24, 54, 15, 0xC8D0F0FF, GAME_LAYER_UI + 1);
    pf->draw_text("arrows / WASD move  -  open assets/maps/level1.tmj in Tiled, move a wall, save: the level changes",
                  24, (float)pf->view_height - 30, 15, 0xC8D0F0FF, GAME_LAYER_UI + 1);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    int left = 0;
    for (int32_t i = 0; i < gs->pickup_count; i++) left += !gs->pickups[i].taken;
    return snprintf(buf, (size_t)cap,
                    "\"steps\":%llu,\"x\":%.1f,\"y\":%.1f,\"blocked_x\":%u,\"generation\":%u,\"level_changes\":%u,"
                    "\"solids\":%d,\"pickups\":%d,\"left\":%d,\"score\":%d,\"tiles_drawn\":%d,\"cam_x\":%.1f",
                    (unsigned long long)gs->steps, gs->player.x, gs->player.y, gs->blocked_x, gs->level_generation,
                    gs->level_changes, gs->solid_count, gs->pickup_count, left, gs->score, g_tiles_drawn, gs->cam.x);
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
