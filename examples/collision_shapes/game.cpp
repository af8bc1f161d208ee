/* collision_shapes - every pair of th_collide's shapes: circle, AABB, capsule, oriented box, polygon.

   Drag a shape with the left mouse button, turn it with the wheel. Every pair is tested each step with
   thc_collide (one call for any two shapes); touching shapes light up and a line lists the pairs in
   contact. F2 (the host's shape view) adds the bounding boxes, the contact points with their depths and
   the normal n, which points from A to B. Live edit: SPIN, the colours, or the layout in shapes_reset
   (R puts the shapes back to it). */
#include "game_engine.h"

static constexpr auto SPIN = TWEAK(0.25f);              /* radians per second the rotated shapes turn */
static constexpr auto COLOR_IDLE = TWEAK_COLOR(0x3C78C8);
static constexpr auto COLOR_HIT = TWEAK_COLOR(0xF0604C);
static const char *const KIND_NAMES[SHAPE_KIND_COUNT] = { "circle", "AABB", "capsule", "box", "polygon" };

static void shapes_reset(GameState *gs)
{
    static const Shape start[] = {
        { SHAPE_CIRCLE, { 260, 300 }, 0, { 70, 0 } },     { SHAPE_AABB, { 470, 470 }, 0, { 90, 60 } },
        { SHAPE_CAPSULE, { 700, 300 }, 0.4f, { 90, 40 } }, { SHAPE_BOX, { 930, 470 }, 0.3f, { 80, 50 } },
        { SHAPE_TRIANGLE, { 1060, 250 }, 0, { 90, 0 } },  { SHAPE_CIRCLE, { 560, 300 }, 0, { 45, 0 } },
    };
    gs->shape_count = (int32_t)(sizeof start / sizeof start[0]);
    for (int i = 0; i < gs->shape_count; i++) gs->shapes[i] = start[i];
    gs->dragging = -1;
}

/* ---------------------------------------------------------------- th_collide's view of a Shape */
typedef struct Collider { thc_type type; thc_transform xf; union { thc_circle c; thc_aabb b; thc_capsule k; thc_poly p; }; } Collider;
static thc_v2 tv(v2 v) { thc_v2 r = { v.x, v.y }; return r; }
static v2 vt(thc_v2 v) { return v2_make(v.x, v.y); }

static Collider collider_of(const Shape *s)
{
    Collider c;
    memset(&c, 0, sizeof c);
    c.xf = thc_make_transform(tv(s->pos), s->angle);
    switch (s->kind) {
    case SHAPE_CIRCLE: c.type = THC_CIRCLE; c.c.p = tv(s->pos); c.c.r = s->size.x; break;
    case SHAPE_AABB: c.type = THC_AABB; c.b.min = tv(v2_sub(s->pos, s->size)); c.b.max = tv(v2_add(s->pos, s->size)); break;
    case SHAPE_CAPSULE: {
        v2 d = v2_scale(v2_make(cosf(s->angle), sinf(s->angle)), s->size.x);
        c.type = THC_CAPSULE; c.k.a = tv(v2_sub(s->pos, d)); c.k.b = tv(v2_add(s->pos, d)); c.k.r = s->size.y; break;
    }
    case SHAPE_BOX: c.type = THC_POLY; thc_make_box(&c.p, s->size.x, s->size.y); break;
    default: {
        thc_v2 pts[3];
        for (int i = 0; i < 3; i++) pts[i] = tv(v2_scale(v2_make(cosf(i * 2.0944f), sinf(i * 2.0944f)), s->size.x));
        c.type = THC_POLY; thc_make_poly(&c.p, pts, 3); break;
    }
    }
    return c;
}
static const thc_transform *xf_of(const Collider *c) { return c->type == THC_POLY ? &c->xf : NULL; }

/* ---------------------------------------------------------------- drawing: outlines from segments, fills from rows */
static void line(const PlatformAPI *pf, v2 a, v2 b, float width, uint32_t color, int layer)
{
    v2 d = v2_sub(b, a);
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.x = a.x; s.y = a.y; s.scale_x = v2_len(d); s.scale_y = width;
    s.rotation = atan2f(d.y, d.x); s.origin_y = 0.5f; s.color = color; s.layer = (int16_t)layer;
    pf->draw_sprite(&s);
}

static int outline_of(const Shape *s, const Collider *c, v2 *out)   /* a convex outline, counter-clockwise */
{
    int n = 0;
    if (c->type == THC_POLY) { for (int i = 0; i < c->p.count; i++) out[n++] = vt(thc_mul_xf(c->xf, c->p.verts[i])); }
    else if (c->type == THC_AABB) { out[0] = vt(c->b.min); out[1] = v2_make(c->b.max.x, c->b.min.y); out[2] = vt(c->b.max); out[3] = v2_make(c->b.min.x, c->b.max.y); n = 4; }
    else if (c->type == THC_CIRCLE) { for (int i = 0; i < 32; i++) out[n++] = v2_add(s->pos, v2_scale(v2_from_angle(i * TH_PI / 16), s->size.x)); }
    else for (int end = 0; end < 2; end++)                          /* capsule: two half circles */
        for (int i = 0; i <= 16; i++) {
            float a = s->angle + TH_PI * (end ? 1.5f : 0.5f) + i * TH_PI / 16;
            out[n++] = v2_add(vt(end ? c->k.a : c->k.b), v2_scale(v2_from_angle(a + TH_PI), s->size.y));
        }
    return n;
}

static void shape_draw(const PlatformAPI *pf, const v2 *pts, int n, uint32_t color)
{
    float top = 1e9f, bottom = -1e9f;
    for (int i = 0; i < n; i++) { top = th_minf(top, pts[i].y); bottom = th_maxf(bottom, pts[i].y); }
    for (float y = top + 1; y < bottom; y += 2) {                   /* fill: one 2-pixel row at a time */
        float x0 = 1e9f, x1 = -1e9f;
        for (int i = 0; i < n; i++) {
            v2 a = pts[i], b = pts[(i + 1) % n];
            if ((a.y <= y) == (b.y <= y)) continue;
            float x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x);
            x0 = th_minf(x0, x); x1 = th_maxf(x1, x);
        }
        if (x1 > x0) pf->draw_rect(x0, y - 1, x1 - x0, 2, (color & 0xFFFFFF00u) | 0x60, 1);
    }
    for (int i = 0; i < n; i++) line(pf, pts[i], pts[(i + 1) % n], 3, color, 2);
}

/* ---------------------------------------------------------------- entry points */
static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("collision_shapes");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) { shapes_reset(gs); gs->initialized = 1; }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    v2 mouse = v2_make(in->mouse_x, in->mouse_y);
    int under = -1;
    for (int i = 0; i < gs->shape_count; i++) {
        Collider c = collider_of(&gs->shapes[i]);
        if (thc_point_in_shape(tv(mouse), &c.c, c.type, xf_of(&c))) under = i;   /* the last drawn is on top */
    }
    if (in->pressed[KEY_MOUSE_LEFT] && under >= 0) { gs->dragging = under; gs->grab = v2_sub(gs->shapes[under].pos, mouse); }
    if (!in->down[KEY_MOUSE_LEFT]) gs->dragging = -1;
    if (gs->dragging >= 0) gs->shapes[gs->dragging].pos = v2_add(mouse, gs->grab);
    if (under >= 0) gs->shapes[under].angle += in->wheel * 0.15f;
    if (in->pressed[KEY_R]) shapes_reset(gs);
    for (int i = 0; i < gs->shape_count; i++)
        if (gs->shapes[i].kind == SHAPE_BOX || gs->shapes[i].kind == SHAPE_TRIANGLE) gs->shapes[i].angle += SPIN * in->dt;
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x101418FF, 0);
    Collider col[MAX_SHAPES];
    int hit[MAX_SHAPES] = { 0 };
    char pairs[512] = "";
    int npairs = 0;
    for (int i = 0; i < gs->shape_count; i++) col[i] = collider_of(&gs->shapes[i]);
    for (int i = 0; i < gs->shape_count; i++)
        for (int j = i + 1; j < gs->shape_count; j++) {
            thc_manifold m;
            thc_collide(&col[i].c, col[i].type, xf_of(&col[i]), &col[j].c, col[j].type, xf_of(&col[j]), &m);
            if (!m.count) continue;
            hit[i] = hit[j] = 1;
            size_t len = strlen(pairs);
            snprintf(pairs + len, sizeof pairs - len, "%s%s-%s", npairs++ ? ",  " : "", KIND_NAMES[gs->shapes[i].kind], KIND_NAMES[gs->shapes[j].kind]);
            if (!pf->debug_draw) continue;
            for (int k = 0; k < m.count; k++) {                       /* F2: contact points, depth, normal */
                v2 p = vt(m.contact_points[k]);
                pf->draw_rect(p.x - 4, p.y - 4, 8, 8, 0xFFE040FF, 5);
                line(pf, p, v2_add(p, v2_scale(vt(m.n), 40)), 2, 0xFFE040FF, 5);
                char depth[32];
                snprintf(depth, sizeof depth, "%.1f", m.depths[k]);
                pf->draw_text(depth, p.x + 8, p.y + 6, 14, 0xFFE040FF, 5);
            }
        }
    for (int i = 0; i < gs->shape_count; i++) {
        v2 pts[40];
        int n = outline_of(&gs->shapes[i], &col[i], pts);
        shape_draw(pf, pts, n, hit[i] ? (uint32_t)COLOR_HIT : (uint32_t)COLOR_IDLE);
        pf->draw_text(KIND_NAMES[gs->shapes[i].kind], gs->shapes[i].pos.x - 24, gs->shapes[i].pos.y - 8, 14, 0xFFFFFFC0, 3);
        if (pf->debug_draw) {                                          /* F2: each shape's bounding box */
            thc_aabb b = thc_shape_aabb(&col[i].c, col[i].type, xf_of(&col[i]));
            v2 c[4] = { vt(b.min), v2_make(b.max.x, b.min.y), vt(b.max), v2_make(b.min.x, b.max.y) };
            for (int k = 0; k < 4; k++) line(pf, c[k], c[(k + 1) % 4], 1, 0x60FF60C0, 4);
        }
    }
    int ui = GAME_LAYER_UI;
    pf->draw_text("collision_shapes", 24, 18, 32, 0xFFFFFFFF, ui);
    pf->draw_text("every shape pair through thc_collide  -  drag with the mouse, wheel turns, R resets, F2 shows contacts",
                  24, 58, 16, 0xA8B4C8FF, ui);
    char line_text[600];
    snprintf(line_text, sizeof line_text, "touching: %s", npairs ? pairs : "none");
    pf->draw_text(line_text, 24, (float)pf->view_height - 64, 16, npairs ? 0xFFB0A0FF : 0x8090A0FF, ui);
    pf->draw_text(pf->debug_draw ? "F2 view on: green boxes are the AABBs, yellow the contact points, depths and normals (A to B)"
                                 : "F2 view off", 24, (float)pf->view_height - 36, 14, 0x80C080FF, ui);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"dragging\":%d", (unsigned long long)gs->steps, gs->dragging);
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
