/* collision_raycast_toi - rays (thc_raycast) and swept shapes (thc_toi) against every kind of obstacle.

   A fan of rays turns around the eye and stops at the first surface each one meets; the bright ray
   follows the mouse and shows the surface normal where it enters. Along the same line a ball makes one
   huge step: where it would land without a sweep (the ghost, past the thin wall) and where thc_toi stops
   it, touching. Right button moves the eye. Live edit: RAYS, BALL_RADIUS, STEP_LENGTH. */
#include "game_engine.h"

static constexpr auto RAYS = TWEAK(90);               /* rays in the fan */
static constexpr auto BALL_RADIUS = TWEAK(22.0f);
static constexpr auto STEP_LENGTH = TWEAK(700.0f);   /* how far the ball moves in its one step */
static constexpr auto FAN_SPEED = TWEAK(0.2f);        /* radians per second */

/* ---------------------------------------------------------------- the obstacles */
typedef struct Obstacle { thc_type type; thc_transform xf; union { thc_circle c; thc_aabb b; thc_capsule k; thc_poly p; }; } Obstacle;
static thc_v2 tv(v2 v) { thc_v2 r = { v.x, v.y }; return r; }
static v2 vt(thc_v2 v) { return v2_make(v.x, v.y); }
static const thc_transform *xf_of(const Obstacle *o) { return o->type == THC_POLY ? &o->xf : NULL; }

enum { OBSTACLES = 5 };
static void obstacles(Obstacle *o)
{
    memset(o, 0, sizeof(Obstacle) * OBSTACLES);
    o[0].type = THC_POLY; thc_make_box(&o[0].p, 5, 150); o[0].xf = thc_make_transform(tv(v2_make(620, 360)), 0.15f);  /* a thin wall */
    o[1].type = THC_CIRCLE; o[1].c.p = tv(v2_make(900, 180)); o[1].c.r = 70;
    o[2].type = THC_AABB; o[2].b.min = tv(v2_make(1040, 300)); o[2].b.max = tv(v2_make(1180, 430));
    o[3].type = THC_CAPSULE; o[3].k.a = tv(v2_make(760, 600)); o[3].k.b = tv(v2_make(1000, 560)); o[3].k.r = 30;
    thc_v2 hex[6];
    for (int i = 0; i < 6; i++) hex[i] = tv(v2_scale(v2_from_angle(i * TH_PI / 3), 60));
    o[4].type = THC_POLY; thc_make_poly(&o[4].p, hex, 6); o[4].xf = thc_make_transform(tv(v2_make(330, 560)), 0.3f);
}

static float cast(const Obstacle *o, v2 from, v2 dir, float len, v2 *normal)   /* nearest hit, or len */
{
    thc_ray r = { tv(from), tv(dir), len };
    float best = len;
    for (int i = 0; i < OBSTACLES; i++) {
        thc_ray_hit h;
        if (thc_raycast(r, &o[i].c, o[i].type, xf_of(&o[i]), &h) && h.t < best) { best = h.t; if (normal) *normal = vt(h.n); }
    }
    return best;
}

/* ---------------------------------------------------------------- drawing */
static void line(const PlatformAPI *pf, v2 a, v2 b, float width, uint32_t color, int layer)
{
    v2 d = v2_sub(b, a);
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.x = a.x; s.y = a.y; s.scale_x = v2_len(d); s.scale_y = width;
    s.rotation = atan2f(d.y, d.x); s.origin_y = 0.5f; s.color = color; s.layer = (int16_t)layer;
    pf->draw_sprite(&s);
}
static void arc(const PlatformAPI *pf, v2 c, float r, float from, float to, float width, uint32_t color, int layer)
{
    for (int i = 0; i < 20; i++)
        line(pf, v2_add(c, v2_scale(v2_from_angle(th_lerpf(from, to, i / 20.0f)), r)),
             v2_add(c, v2_scale(v2_from_angle(th_lerpf(from, to, (i + 1) / 20.0f)), r)), width, color, layer);
}
static void ring(const PlatformAPI *pf, v2 c, float r, float width, uint32_t color, int layer) { arc(pf, c, r, 0, 2 * TH_PI, width, color, layer); }
static void obstacle_draw(const PlatformAPI *pf, const Obstacle *o)
{
    const uint32_t color = 0x7890B0FF;
    if (o->type == THC_CIRCLE) { ring(pf, vt(o->c.p), o->c.r, 3, color, 3); return; }
    if (o->type == THC_CAPSULE) {
        v2 a = vt(o->k.a), b = vt(o->k.b), side = v2_scale(v2_perp(v2_norm(v2_sub(b, a))), o->k.r);
        line(pf, v2_add(a, side), v2_add(b, side), 3, color, 3); line(pf, v2_sub(a, side), v2_sub(b, side), 3, color, 3);
        float along = atan2f(b.y - a.y, b.x - a.x);
        arc(pf, a, o->k.r, along + TH_PI / 2, along + 1.5f * TH_PI, 3, color, 3); arc(pf, b, o->k.r, along - TH_PI / 2, along + TH_PI / 2, 3, color, 3);
        return;
    }
    v2 p[THC_MAX_POLY_VERTS];
    int n = 4;
    if (o->type == THC_AABB) { p[0] = vt(o->b.min); p[1] = v2_make(o->b.max.x, o->b.min.y); p[2] = vt(o->b.max); p[3] = v2_make(o->b.min.x, o->b.max.y); }
    else { n = o->p.count; for (int i = 0; i < n; i++) p[i] = vt(thc_mul_xf(o->xf, o->p.verts[i])); }
    for (int i = 0; i < n; i++) line(pf, p[i], p[(i + 1) % n], 3, color, 3);
}

/* ---------------------------------------------------------------- entry points */
static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("collision_raycast_toi");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) { gs->eye = v2_make(200, 300); gs->aim = v2_make(1100, 380); gs->initialized = 1; }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    gs->fan_angle += FAN_SPEED * in->dt;
    v2 mouse = v2_make(in->mouse_x, in->mouse_y);
    if (in->down[KEY_MOUSE_RIGHT]) gs->eye = mouse;
    else if (mouse.x != 0 || mouse.y != 0) gs->aim = mouse;
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x0E1016FF, 0);
    Obstacle o[OBSTACLES];
    obstacles(o);
    for (int i = 0; i < OBSTACLES; i++) obstacle_draw(pf, &o[i]);
    int rays = RAYS < 1 ? 1 : RAYS > 720 ? 720 : RAYS;
    for (int i = 0; i < rays; i++) {                                        /* the fan */
        v2 d = v2_from_angle(gs->fan_angle + i * 2 * TH_PI / rays);
        float t = cast(o, gs->eye, d, 1600, NULL);
        line(pf, gs->eye, v2_add(gs->eye, v2_scale(d, t)), 1.5f, 0xE0C05060, 1);
        if (t < 1600) pf->draw_rect(gs->eye.x + d.x * t - 2, gs->eye.y + d.y * t - 2, 4, 4, 0xFFD060C0, 2);
    }
    v2 dir = v2_norm(v2_sub(gs->aim, gs->eye)), n = v2_make(0, 0);            /* the mouse's ray */
    float t = cast(o, gs->eye, dir, 1600, &n);
    v2 hit = v2_add(gs->eye, v2_scale(dir, t));
    line(pf, gs->eye, hit, 2, 0xFFE070FF, 4);
    if (t < 1600) line(pf, hit, v2_add(hit, v2_scale(n, 60)), 3, 0x60FF90FF, 5);
    thc_circle ball = { tv(gs->eye), BALL_RADIUS };                         /* the ball's one swept step */
    v2 move = v2_scale(dir, STEP_LENGTH);
    thc_v2 still = { 0, 0 };
    thc_toi_result first = { 0, 1, { 0, 0 }, { 0, 0 } };
    for (int i = 0; i < OBSTACLES; i++) {
        thc_toi_result r = thc_toi(&ball, THC_CIRCLE, NULL, tv(move), &o[i].c, o[i].type, xf_of(&o[i]), still);
        if (r.hit && r.t < first.t) first = r;
    }
    ring(pf, gs->eye, BALL_RADIUS, 2, 0xFFFFFFFF, 6);
    ring(pf, v2_add(gs->eye, move), BALL_RADIUS, 2.5f, 0xFF7070D0, 6);          /* without a sweep: through the wall */
    if (first.hit) {
        v2 at = v2_add(gs->eye, v2_scale(move, first.t));
        ring(pf, at, BALL_RADIUS, 4, 0x70D0FFFF, 6);
        pf->draw_rect(first.p.x - 4, first.p.y - 4, 8, 8, 0x70D0FFFF, 7);
        line(pf, vt(first.p), v2_add(vt(first.p), v2_scale(vt(first.n), 40)), 2, 0x70D0FFFF, 7);
    }
    int ui = GAME_LAYER_UI;
    char text[200];
    pf->draw_text("collision_raycast_toi", 24, 18, 32, 0xFFFFFFFF, ui);
    pf->draw_text("yellow: rays stop at the first surface (thc_raycast), green: the normal there  -  mouse aims, right button moves the eye",
                  24, 58, 14, 0xB0B8C8FF, ui);
    snprintf(text, sizeof text, "blue: the ball's %.0f px step swept by thc_toi stops at t = %.3f; red ghost: where a plain step lands",
             (double)STEP_LENGTH, first.hit ? (double)first.t : 1.0);
    pf->draw_text(text, 24, (float)pf->view_height - 40, 16, 0x90D8FFFF, ui);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu", (unsigned long long)gs->steps);
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
