/* world.cpp - collisions: walls, the broadphase over moving bodies, swept tests for bullets, and
   the F2 debug view of shapes, contacts and normals. All shape math is tinyheaders/th_collide.h. */
#include "game.h"

static const float GRID_CELL        = 96.0f;   /* broadphase cell size, about two big enemies */
static const int   MAX_WALLS        = 64;      /* walls the step's list holds; past it, calls scan the entities */
static constexpr auto SEPARATION_PUSH  = TWEAK(0.5f);    /* share of an enemy-enemy overlap resolved per step */
static constexpr auto CONTACT_KNOCK    = TWEAK(180.0f);  /* enemy bounce off the player on contact */

/* ---------------------------------------------------------------- debug record (per frame, not state) */
#define DEBUG_CONTACTS 256
static struct { v2 p, n; float depth; } g_debug_contacts[DEBUG_CONTACTS];
static int g_debug_contact_count;

static void debug_contact(v2 p, v2 n, float depth)
{
    if (g_debug_contact_count < DEBUG_CONTACTS) {
        g_debug_contacts[g_debug_contact_count].p = p;
        g_debug_contacts[g_debug_contact_count].n = n;
        g_debug_contacts[g_debug_contact_count].depth = depth;
        g_debug_contact_count++;
    }
}

/* ---------------------------------------------------------------- shapes */
static thc_v2 to_thc(v2 p) { thc_v2 r; r.x = p.x; r.y = p.y; return r; }
static v2 from_thc(thc_v2 p) { return v2_make(p.x, p.y); }

static thc_circle circle_of(v2 p, float r) { thc_circle c; c.p = to_thc(p); c.r = r; return c; }

/* A wall is an AABB, or a box polygon with a transform when rotated. */
static void wall_poly(const Entity *w, thc_poly *poly, thc_transform *xf)
{
    thc_v2 pts[4] = { { -w->half.x, -w->half.y }, { w->half.x, -w->half.y }, { w->half.x, w->half.y }, { -w->half.x, w->half.y } };
    thc_make_poly(poly, pts, 4);
    *xf = thc_make_transform(to_thc(w->pos), w->rot);
}

static thc_aabb wall_aabb(const Entity *w)
{
    thc_aabb b;
    b.min = to_thc(v2_sub(w->pos, w->half));
    b.max = to_thc(v2_add(w->pos, w->half));
    return b;
}

/* A wall's shape, made once: its box when axis aligned, its polygon and transform when rotated. */
typedef struct WallShape { const Entity *e; thc_aabb box; thc_poly poly; thc_transform xf; } WallShape;

static void wall_shape(const Entity *w, WallShape *s)
{
    s->e = w;
    if (w->rot == 0) s->box = wall_aabb(w);
    else wall_poly(w, &s->poly, &s->xf);
}

/* Manifold of a circle against a wall: normal from the circle into the wall. */
static int circle_wall_manifold(const WallShape *w, v2 p, float r, thc_manifold *m)
{
    thc_circle c = circle_of(p, r);
    if (w->e->rot == 0) thc_circle_to_aabb_manifold(&c, &w->box, m);
    else thc_circle_to_poly_manifold(&c, &w->poly, &w->xf, m);
    return m->count > 0;
}

static int circle_wall_toi(const WallShape *w, v2 from, v2 to, float r, float *t, v2 *n)
{
    thc_circle c = circle_of(from, r);
    thc_toi_result res;
    if (w->e->rot == 0) res = thc_toi_circle_aabb(&c, to_thc(v2_sub(to, from)), &w->box);
    else res = thc_toi_circle_poly(&c, to_thc(v2_sub(to, from)), &w->poly, &w->xf);
    if (!res.hit) return 0;
    *t = res.t;
    *n = from_thc(res.n);
    return 1;
}

/* ---------------------------------------------------------------- the step's walls
   Every mover and shot tests the walls each step. world_begin_step lists them with their shapes, in the order
   of the live list, which is the order a scan of the entities meets them: a circle is pushed by the same walls
   in the same order, a sweep's ties go the same way. Walls come with the arena and never move, and nothing
   is freed before the step's end, so the list holds until world_resolve_contacts drops it. Without a list
   (outside a step, or more walls than MAX_WALLS) the calls scan every entity for walls. */
static WallShape g_walls[MAX_WALLS];
static int g_wall_count = -1;   /* -1: no list */

static int wall_slots(GameState *gs) { return g_wall_count >= 0 ? g_wall_count : (int)thh_fixed_count(&gs->handles.head); }

/* Slot i's wall: the listed one, or entity i of the live list made into *tmp; NULL when that is no wall. */
static const WallShape *wall_at(GameState *gs, int i, WallShape *tmp)
{
    if (g_wall_count >= 0) return &g_walls[i];
    const Entity *w = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, (uint32_t)i))];
    if (w->type != ENTITY_WALL) return NULL;
    wall_shape(w, tmp);
    return tmp;
}

static void walls_list(GameState *gs)
{
    g_wall_count = 0;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        const Entity *w = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (w->type != ENTITY_WALL) continue;
        if (g_wall_count == MAX_WALLS) { g_wall_count = -1; return; }
        wall_shape(w, &g_walls[g_wall_count++]);
    }
}

/* ---------------------------------------------------------------- the world */
static thc_grid *world_grid(GameState *gs) { return (thc_grid *)gs->grid_mem; }

/* The broadphase is rebuilt every step, so every load re-initialises it: a new th_collide.h may lay
   its grid out differently, and its memory is only ever read by the code that filled it. */
void world_init(GameState *gs)
{
    g_wall_count = -1;
    thc_grid_desc d;
    memset(&d, 0, sizeof d);
    d.cell_size = GRID_CELL;
    d.max_bodies = MAX_ENTITIES;
    size_t bytes = thc_grid_bytes(&d);
    if (!gs->grid_mem || bytes > gs->grid_bytes) {
        gs->grid_mem = tha_push(&gs->arena, bytes, 16);
        gs->grid_bytes = bytes;
    }
    if (gs->grid_mem) thc_grid_init(gs->grid_mem, gs->grid_bytes, &d);
}

int world_blocked(GameState *gs, v2 at, float radius)
{
    thc_manifold m;
    WallShape tmp;
    for (int i = 0; i < wall_slots(gs); i++) {
        const WallShape *w = wall_at(gs, i, &tmp);
        if (w && circle_wall_manifold(w, at, radius, &m)) return 1;
    }
    return 0;
}

int world_push_out(GameState *gs, v2 *pos, float radius, v2 *normal)
{
    int hit = 0;
    WallShape tmp;
    for (int pass = 0; pass < 2; pass++)   /* a second pass settles corners where two walls meet */
        for (int i = 0; i < wall_slots(gs); i++) {
            const WallShape *w = wall_at(gs, i, &tmp);
            thc_manifold m;
            if (!w || !circle_wall_manifold(w, *pos, radius, &m)) continue;
            v2 n = from_thc(m.n);
            *pos = v2_sub(*pos, v2_scale(n, m.depths[0]));
            *normal = v2_neg(n);
            debug_contact(from_thc(m.contact_points[0]), v2_neg(n), m.depths[0]);
            hit = 1;
        }
    return hit;
}

int world_sweep_walls(GameState *gs, v2 from, v2 to, float radius, float *t, v2 *normal)
{
    int hit = 0;
    WallShape tmp;
    for (int i = 0; i < wall_slots(gs); i++) {
        const WallShape *w = wall_at(gs, i, &tmp);
        float wt;
        v2 wn;
        if (w && circle_wall_toi(w, from, to, radius, &wt, &wn) && wt <= *t) {
            *t = wt;
            *normal = wn;
            hit = 1;
        }
    }
    return hit;
}

int world_sweep_circle(v2 from, v2 to, float radius, v2 center, float center_radius, float *t)
{
    thc_circle mover = circle_of(from, radius), target = circle_of(center, center_radius);
    thc_toi_result r = thc_toi_circle_circle(&mover, to_thc(v2_sub(to, from)), &target);
    if (!r.hit) return 0;
    *t = r.t;
    return 1;
}

/* Enemies are in the grid; a bullet asks only the cells its path crosses. */
Entity *world_sweep_enemies(GameState *gs, v2 from, v2 to, float radius, float *t, uint32_t skip)
{
    thc_aabb box;
    box.min = to_thc(v2_sub(v2_make(th_minf(from.x, to.x), th_minf(from.y, to.y)), v2_make(radius, radius)));
    box.max = to_thc(v2_add(v2_make(th_maxf(from.x, to.x), th_maxf(from.y, to.y)), v2_make(radius, radius)));
    uint32_t found[64];
    int n = thc_grid_query_aabb(world_grid(gs), box, found, 64);
    Entity *best = NULL;
    float best_t = 2.0f;
    for (int i = 0; i < n; i++) {
        thh_handle h = { found[i] };
        Entity *e = entity_get(gs, h);
        float et;
        if (!e || e->dead || !is_enemy(e->type) || e->self.value == skip) continue;
        if (world_sweep_circle(from, to, radius, e->pos, e->radius, &et) && et < best_t) { best_t = et; best = e; }
    }
    if (best) *t = best_t;
    return best;
}

void world_begin_step(GameState *gs)
{
    g_debug_contact_count = 0;
    g_well_count = 0;
    walls_list(gs);
    thc_grid *g = world_grid(gs);
    thc_grid_clear(g);
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead || !(is_enemy(e->type) || e->type == ENTITY_PLAYER)) continue;
        if (e->type == ENTITY_WELL && g_well_count < MAX_WELLS) {
            g_wells[g_well_count].pos = e->pos;
            g_wells[g_well_count].strength = 1.0f + 0.05f * e->fed;
            g_well_count++;
        }
        thc_aabb b;
        b.min = to_thc(v2_sub(e->pos, v2_make(e->radius, e->radius)));
        b.max = to_thc(v2_add(e->pos, v2_make(e->radius, e->radius)));
        thc_grid_insert(g, e->self.value, b);
    }
}

/* Every overlapping pair once, from the grid: enemies push apart, the player gets hurt. */
void world_resolve_contacts(GameState *gs)
{
    g_wall_count = -1;   /* the movers are done: what follows may free walls or build an arena */
    thc_pair pairs[4096];   /* a late-game crowd touches a lot */
    int n = thc_grid_pairs(world_grid(gs), pairs, 4096);
    for (int i = 0; i < n; i++) {
        thh_handle ha = { pairs[i].a }, hb = { pairs[i].b };
        Entity *a = entity_get(gs, ha), *b = entity_get(gs, hb);
        if (!a || !b || a->dead || b->dead) continue;
        thc_circle ca = circle_of(a->pos, a->radius), cb = circle_of(b->pos, b->radius);
        thc_manifold m;
        thc_circle_to_circle_manifold(&ca, &cb, &m);
        if (!m.count) continue;
        v2 nrm = from_thc(m.n);
        debug_contact(from_thc(m.contact_points[0]), nrm, m.depths[0]);
        if (a->type == ENTITY_PLAYER || b->type == ENTITY_PLAYER) {
            Entity *pl = a->type == ENTITY_PLAYER ? a : b, *en = a == pl ? b : a;
            if (pl->phase > 0) { damage_enemy(gs, en, 1.0f, v2_scale(v2_norm(pl->vel), 200)); continue; }  /* dash rams */
            player_hurt(gs, pl, en->pos);
            if (en->type != ENTITY_SNAKE_BODY && en->type != ENTITY_WELL)
                en->vel = v2_add(en->vel, v2_scale(v2_norm(v2_sub(en->pos, pl->pos)), CONTACT_KNOCK));
            continue;
        }
        if ((a->type == ENTITY_WELL) != (b->type == ENTITY_WELL)) {   /* a well swallows what it touches */
            Entity *w = a->type == ENTITY_WELL ? a : b, *food = w == a ? b : a;
            if (food->type == ENTITY_SNAKE_BODY) continue;
            well_feed(gs, w, food);
            continue;
        }
        if (a->type == ENTITY_SNAKE_BODY || b->type == ENTITY_SNAKE_BODY) continue;   /* snakes pass over the crowd */
        float wa = b->radius / (a->radius + b->radius);   /* the smaller one moves more */
        a->pos = v2_sub(a->pos, v2_scale(nrm, m.depths[0] * SEPARATION_PUSH * wa));
        b->pos = v2_add(b->pos, v2_scale(nrm, m.depths[0] * SEPARATION_PUSH * (1 - wa)));
    }
}

/* ---------------------------------------------------------------- F2: shapes, contacts, normals */
static void debug_line(const PlatformAPI *pf, v2 a, v2 b, float width, uint32_t color)
{
    v2 d = v2_sub(b, a);
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.x = a.x;
    s.y = a.y;
    s.scale_x = v2_len(d);
    s.scale_y = width;
    s.rotation = atan2f(d.y, d.x);
    s.origin_x = 0;
    s.origin_y = 0.5f;
    s.color = color;
    s.layer = LAYER_DEBUG;
    pf->draw_sprite(&s);
}

static void debug_circle(const PlatformAPI *pf, v2 c, float r, uint32_t color)
{
    const int N = 20;
    for (int i = 0; i < N; i++)
        debug_line(pf, v2_add(c, v2_scale(v2_from_angle(i * 2 * TH_PI / N), r)),
                   v2_add(c, v2_scale(v2_from_angle((i + 1) * 2 * TH_PI / N), r)), 1.5f, color);
}

void world_debug_draw(GameState *gs, const PlatformAPI *pf)
{
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->type == ENTITY_WALL) {
            thc_poly poly;
            thc_transform xf;
            wall_poly(e, &poly, &xf);
            for (int k = 0; k < poly.count; k++) {
                v2 a = from_thc(thc_mul_xf(xf, poly.verts[k])), b = from_thc(thc_mul_xf(xf, poly.verts[(k + 1) % poly.count]));
                debug_line(pf, a, b, 2, 0x40FF40FF);
                v2 mid = v2_scale(v2_add(a, b), 0.5f);
                debug_line(pf, mid, v2_add(mid, v2_scale(from_thc(thc_mul_rot(xf, poly.norms[k])), 14)), 1, 0x40FF40A0);
            }
        } else if (e->radius > 0 && e->type != ENTITY_SPAWNER) {
            debug_circle(pf, e->pos, e->radius, is_enemy(e->type) ? 0xFF4040FF : 0x40C0FFFF);
        }
    }
    for (int i = 0; i < g_debug_contact_count; i++) {
        v2 p = g_debug_contacts[i].p;
        pf->draw_rect(p.x - 3, p.y - 3, 6, 6, 0xFFFF00FF, LAYER_DEBUG + 1);
        debug_line(pf, p, v2_add(p, v2_scale(g_debug_contacts[i].n, 20)), 2, 0xFFFF00FF);
    }
}
