/* camera_zoom - pf->set_camera: world layers move and scale with the camera, UI layers stay put.

   Everything below GAME_LAYER_UI is in world units: the floor, the walls, the drones and the signposts
   (text drawn on a world layer zooms with it). From GAME_LAYER_UI up is screen space: the HUD, the
   minimap, and the drones' name tags, placed by projecting world points with the same formula the host
   uses, screen = (world - camera) * zoom. WASD flies, the wheel or Q/E zooms, 0 resets.
   Live edit: START_ZOOM, FOLLOW, ZOOM_SMOOTHING, the world's size. */
#include "game_engine.h"

static constexpr auto START_ZOOM = TWEAK(1.5f);
static constexpr auto FOLLOW = TWEAK(6.0f);          /* how fast the camera catches up, per second */
static constexpr auto ZOOM_SMOOTHING = TWEAK(0.001f); /* th_damp: the fraction of the zoom gap left after a second */
static constexpr auto SHIP_SPEED = TWEAK(420.0f);
static const float WORLD_W = 2400, WORLD_H = 1600;
enum { DRONES = 12 };

static v2 drone_at(int i, uint64_t steps)            /* drones circle fixed points: a function of the step */
{
    float t = (float)steps / 60.0f * (0.3f + 0.05f * (float)i) + (float)i;
    v2 c = v2_make(300 + (float)((i * 733) % 1800), 250 + (float)((i * 419) % 1100));
    return v2_add(c, v2_scale(v2_make(cosf(t), sinf(t)), 120));
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("camera_zoom");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) {
        gs->ship = gs->cam = v2_make(WORLD_W / 2, WORLD_H / 2);
        gs->zoom = gs->zoom_target = START_ZOOM;
        gs->initialized = 1;
    }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    v2 move = v2_make((float)(in->down[KEY_D] - in->down[KEY_A]) + in->axis[AXIS_LEFT_X], (float)(in->down[KEY_S] - in->down[KEY_W]) + in->axis[AXIS_LEFT_Y]);
    if (v2_len(move) > 1) move = v2_norm(move);
    gs->ship_vel = v2_lerp(gs->ship_vel, v2_scale(move, SHIP_SPEED), th_minf(1, 8 * in->dt));
    gs->ship = v2_add(gs->ship, v2_scale(gs->ship_vel, in->dt));
    gs->ship.x = th_clampf(gs->ship.x, 0, WORLD_W);
    gs->ship.y = th_clampf(gs->ship.y, 0, WORLD_H);
    if (v2_len2(gs->ship_vel) > 100) gs->ship_angle = atan2f(gs->ship_vel.y, gs->ship_vel.x);
    float z = gs->zoom_target * (1 + 0.1f * in->wheel) * (1 + (in->down[KEY_E] - in->down[KEY_Q]) * in->dt);
    gs->zoom_target = in->pressed[KEY_0] ? (float)START_ZOOM : th_clampf(z, 0.25f, 4);
    gs->zoom = th_damp(gs->zoom, gs->zoom_target, ZOOM_SMOOTHING, in->dt);
    gs->cam = v2_lerp(gs->cam, gs->ship, th_minf(1, FOLLOW * in->dt));
}

static void sprite(const PlatformAPI *pf, const char *name, v2 at, float scale, float angle, uint32_t color, int layer)
{
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.sprite = game_sprite_id(name); s.color = color; s.x = at.x; s.y = at.y;
    s.scale_x = s.scale_y = scale; s.rotation = angle; s.origin_x = s.origin_y = 0.5f; s.layer = (int16_t)layer;
    pf->draw_sprite(&s);
}

/* A world rect cut to the part in view: the host's software renderer pays for every pixel of a quad,
   even off screen, and a zoomed-in floor is many screens big. */
static void world_rect(const PlatformAPI *pf, v2 view_min, v2 view_max, float x, float y, float w, float h, uint32_t color, int layer)
{
    float x0 = th_maxf(x, view_min.x), y0 = th_maxf(y, view_min.y), x1 = th_minf(x + w, view_max.x), y1 = th_minf(y + h, view_max.y);
    if (x1 > x0 && y1 > y0) pf->draw_rect(x0, y0, x1 - x0, y1 - y0, color, layer);
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    float vw = (float)pf->view_width, vh = (float)pf->view_height, z = gs->zoom;
    v2 top_left = v2_sub(gs->cam, v2_make(vw / 2 / z, vh / 2 / z));
    pf->set_camera(top_left.x, top_left.y, z);
    v2 lo = top_left, hi = v2_add(top_left, v2_make(vw / z, vh / z));
    world_rect(pf, lo, hi, 0, 0, WORLD_W, WORLD_H, 0x141824FF, 1);      /* world layers: 1..30 */
    for (float x = 0; x <= WORLD_W; x += 100) world_rect(pf, lo, hi, x - 1, 0, 2, WORLD_H, 0x232A3CFF, 2);
    for (float y = 0; y <= WORLD_H; y += 100) world_rect(pf, lo, hi, 0, y - 1, WORLD_W, 2, 0x232A3CFF, 2);
    for (int i = 0; i < 10; i++) {
        v2 at = v2_make(200 + (float)((i * 911) % 2000), 150 + (float)((i * 577) % 1300));
        sprite(pf, "wall/block", at, 1, 0, 0xFFFFFFFF, 10);
        char sign[32];
        snprintf(sign, sizeof sign, "block %d", i);                    /* world text: it zooms */
        pf->draw_text(sign, at.x - 24, at.y + 36, 14, 0x8090B0FF, 11);
    }
    for (int i = 0; i < DRONES; i++) sprite(pf, "enemy/drone", drone_at(i, gs->steps), 1, (float)gs->steps * 0.05f, 0xFFFFFFFF, 20);
    sprite(pf, "player/ship", gs->ship, 1, gs->ship_angle, 0xFFFFFFFF, 30);

    const int ui = GAME_LAYER_UI;                                     /* UI layers: screen pixels */
    for (int i = 0; i < DRONES; i++) {                                /* tags follow world points, at one size */
        v2 p = v2_scale(v2_sub(drone_at(i, gs->steps), top_left), z);
        if (p.x < -50 || p.y < -50 || p.x > vw + 50 || p.y > vh + 50) continue;
        char tag[16];
        snprintf(tag, sizeof tag, "drone %d", i);
        float tw, th;
        pf->measure_text(tag, 12, &tw, &th);
        pf->draw_rect(p.x + 14, p.y - 30, tw + 8, 18, 0x000000A0, ui);
        pf->draw_text(tag, p.x + 18, p.y - 29, 12, 0xFF9090FF, ui + 1);
    }
    pf->draw_rect(0, 0, vw, 88, 0x000000B0, ui);
    pf->draw_text("camera_zoom", 24, 12, 32, 0xFFFFFFFF, ui + 1);
    char text[128];
    snprintf(text, sizeof text, "zoom %.2f  -  world layers scale, UI layers (this bar, the tags, the map) do not  -  WASD, wheel or Q/E, 0",
             (double)z);
    pf->draw_text(text, 24, 54, 16, 0xA8B4C8FF, ui + 1);
    const float mx = vw - 260, my = vh - 190, ms = 240 / WORLD_W;     /* the minimap */
    pf->draw_rect(mx - 4, my - 4, WORLD_W * ms + 8, WORLD_H * ms + 8, 0x000000C0, ui);
    pf->draw_rect(mx, my, WORLD_W * ms, WORLD_H * ms, 0x1C2234FF, ui + 1);
    for (int i = 0; i < DRONES; i++) { v2 d = drone_at(i, gs->steps); pf->draw_rect(mx + d.x * ms - 2, my + d.y * ms - 2, 4, 4, 0xFF7070FF, ui + 2); }
    pf->draw_rect(mx + gs->ship.x * ms - 3, my + gs->ship.y * ms - 3, 6, 6, 0x60E0FFFF, ui + 3);
    float rx = mx + top_left.x * ms, ry = my + top_left.y * ms, rw = vw / z * ms, rh = vh / z * ms;   /* the view on the map */
    pf->draw_rect(rx, ry, rw, 1, 0xFFFFFFFF, ui + 3); pf->draw_rect(rx, ry + rh, rw, 1, 0xFFFFFFFF, ui + 3);
    pf->draw_rect(rx, ry, 1, rh, 0xFFFFFFFF, ui + 3); pf->draw_rect(rx + rw, ry, 1, rh, 0xFFFFFFFF, ui + 3);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"zoom\":%.3f", (unsigned long long)gs->steps, (double)gs->zoom);
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
