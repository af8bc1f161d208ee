/* fx.cpp - what makes hits feel like hits: particles, screen shake, hit-stop, score popups, camera. */
#include "game.h"

static constexpr auto SHAKE_MAX_OFFSET   = TWEAK(14.0f);   /* pixels at full trauma */
static constexpr auto SHAKE_DECAY        = TWEAK(1.6f);    /* trauma lost per second */
static constexpr auto CAMERA_SMOOTHING   = TWEAK(0.004f);  /* fraction of the gap left after one second */
static constexpr auto CAMERA_LOOK_AHEAD  = TWEAK(90.0f);   /* pixels towards where the player aims */
static constexpr auto POPUP_SECONDS      = TWEAK(0.9f);
static constexpr auto PARTICLE_WELL_PULL = TWEAK(1800.0f);  /* px/s^2 a well puts on a spark near its rim */
static constexpr auto ZOOM_MIN           = TWEAK(0.56f);   /* the furthest out the camera goes (0.53: the whole arena) */
static constexpr auto ZOOM_MARGIN        = TWEAK(170.0f);  /* world pixels kept around the action */
static constexpr auto ZOOM_SMOOTHING     = TWEAK(0.25f);   /* fraction of the zoom gap left after one second */
static constexpr auto ACTION_PULL        = TWEAK(0.35f);   /* how far the view leans from the ship towards the action */
static constexpr auto GRID_STIFFNESS     = TWEAK(28.0f);   /* spring back to rest */
static constexpr auto GRID_COUPLING      = TWEAK(55.0f);   /* pull towards the neighbours */
static constexpr auto GRID_DAMPING       = TWEAK(3.5f);
static constexpr auto GRID_MAX_OFFSET    = TWEAK(48.0f);   /* world pixels a point may move */
static constexpr auto GRID_COLOR         = TWEAK_COLOR(0x24306EC0);
static constexpr auto GRID_MAJOR_BRIGHT  = TWEAK(1.35f);   /* the glowing major lines: GRID_COLOR this much brighter, opaque */
static constexpr auto GRID_HOT_COLOR     = TWEAK_COLOR(0x7FD8FFFF);   /* where it is stretched */

/* ---------------------------------------------------------------- particles */
static Particle *particle_new(GameState *gs)
{
    if (gs->particle_count >= MAX_PARTICLES) return NULL;
    Particle *p = &gs->particles[gs->particle_count++];
    memset(p, 0, sizeof *p);
    p->drag = 1.0f;
    return p;
}

void fx_burst(GameState *gs, v2 at, int count, uint32_t color, uint32_t color_end, float speed_lo, float speed_hi,
                     float size, float life)
{
    for (int i = 0; i < count; i++) {
        Particle *p = particle_new(gs);
        if (!p) return;
        v2 dir = th_rng_unit_v2(&gs->rng);
        p->pos = at;
        p->vel = v2_scale(dir, th_rng_range(&gs->rng, speed_lo, speed_hi));
        p->max_life = p->life = life * th_rng_range(&gs->rng, 0.6f, 1.2f);
        p->size = size * th_rng_range(&gs->rng, 0.7f, 1.3f);
        p->size_end = 0.0f;
        p->drag = 0.05f;
        p->color = color;
        p->color_end = color_end;
        p->look = i % 3 == 0 ? LOOK_SPARK : LOOK_DOT;
        p->angle = atan2f(dir.y, dir.x);
    }
}

/* Sparks flung out in one colour, fading from it: the bulk of an explosion. */
void fx_burst_sparks(GameState *gs, v2 at, int count, uint32_t color, float speed_hi, float life)
{
    for (int i = 0; i < count; i++) {
        Particle *p = particle_new(gs);
        if (!p) return;
        v2 dir = th_rng_unit_v2(&gs->rng);
        float speed = th_rng_range(&gs->rng, 0.15f, 1.0f);
        p->pos = at;
        p->vel = v2_scale(dir, speed * speed_hi);
        p->max_life = p->life = life * th_rng_range(&gs->rng, 0.5f, 1.2f);
        p->size = th_rng_range(&gs->rng, 8, 16);
        p->size_end = 2;
        p->drag = 0.12f;
        p->color = color;
        p->color_end = color & 0xFFFFFF00u;
        p->look = LOOK_SPARK;
        p->angle = atan2f(dir.y, dir.x);
    }
}

/* A spark on a circle round a well, already falling in (the well's pull does the rest). */
void fx_swirl(GameState *gs, v2 at, float radius, uint32_t color)
{
    Particle *p = particle_new(gs);
    if (!p) return;
    v2 dir = th_rng_unit_v2(&gs->rng);
    p->pos = v2_add(at, v2_scale(dir, radius));
    p->vel = v2_scale(v2_perp(dir), 160);
    p->max_life = p->life = 0.9f;
    p->size = 10;
    p->size_end = 3;
    p->drag = 0.6f;
    p->color = color;
    p->color_end = 0xFFFFFF00u;
    p->look = LOOK_SPARK;
    p->angle = atan2f(p->vel.y, p->vel.x);
}

void fx_ring(GameState *gs, v2 at, float from, float to, float life, uint32_t color)
{
    Particle *p = particle_new(gs);
    if (!p) return;
    p->pos = at;
    p->max_life = p->life = life;
    p->size = from;
    p->size_end = to;
    p->color = color;
    p->color_end = color & 0xFFFFFF00u;
    p->look = LOOK_RING;
}

void fx_sparks(GameState *gs, v2 at, v2 normal, uint32_t color, int count)
{
    float base = atan2f(normal.y, normal.x);
    for (int i = 0; i < count; i++) {
        Particle *p = particle_new(gs);
        if (!p) return;
        float a = base + th_rng_range(&gs->rng, -1.1f, 1.1f);
        p->pos = at;
        p->vel = v2_scale(v2_from_angle(a), th_rng_range(&gs->rng, 120, 420));
        p->max_life = p->life = th_rng_range(&gs->rng, 0.12f, 0.3f);
        p->size = 10;
        p->size_end = 2;
        p->drag = 0.02f;
        p->color = color;
        p->color_end = color & 0xFFFFFF00u;
        p->look = LOOK_SPARK;
        p->angle = a;
    }
}

void fx_trail(GameState *gs, v2 at, v2 vel, uint32_t color, float size)
{
    Particle *p = particle_new(gs);
    if (!p) return;
    p->pos = v2_add(at, v2_make(th_rng_range(&gs->rng, -3, 3), th_rng_range(&gs->rng, -3, 3)));
    p->vel = vel;
    p->max_life = p->life = th_rng_range(&gs->rng, 0.18f, 0.32f);
    p->size = size;
    p->size_end = 0;
    p->drag = 0.01f;
    p->color = color;
    p->color_end = color & 0xFFFFFF00u;
    p->look = LOOK_DOT;
}

void fx_update(GameState *gs, float dt)
{
    for (uint32_t i = 0; i < gs->particle_count;) {
        Particle *p = &gs->particles[i];
        p->life -= dt;
        if (p->life <= 0) { *p = gs->particles[--gs->particle_count]; continue; }
        p->vel = v2_scale(p->vel, powf(p->drag, dt));
        if (g_well_count && p->look == LOOK_SPARK) {   /* wells pull the sparks in */
            p->vel = v2_add(p->vel, v2_scale(well_pull(p->pos, PARTICLE_WELL_PULL), dt));
            p->angle = atan2f(p->vel.y, p->vel.x);
        }
        p->pos = v2_add(p->pos, v2_scale(p->vel, dt));
        i++;
    }
    for (int i = 0; i < MAX_POPUPS; i++) {
        Popup *u = &gs->popups[i];
        if (u->life > 0) { u->life -= dt; u->pos.y -= 40 * dt; }
    }
    gs->trauma = th_maxf(0, gs->trauma - SHAKE_DECAY * dt);
}

void fx_shake(GameState *gs, float amount) { gs->trauma = th_minf(1.0f, gs->trauma + amount); }

void fx_popup(GameState *gs, v2 at, int value, uint32_t color)
{
    int oldest = 0;
    for (int i = 0; i < MAX_POPUPS; i++) {
        if (gs->popups[i].life <= 0) { oldest = i; break; }
        if (gs->popups[i].life < gs->popups[oldest].life) oldest = i;
    }
    Popup *u = &gs->popups[oldest];
    u->pos = at;
    u->life = POPUP_SECONDS;
    u->value = value;
    u->color = color;
}

static uint32_t color_lerp(uint32_t a, uint32_t b, float t)
{
    uint32_t out = 0;
    for (int s = 0; s < 32; s += 8) {
        float ca = (float)((a >> s) & 255), cb = (float)((b >> s) & 255);
        out |= (uint32_t)(ca + (cb - ca) * t + 0.5f) << s;
    }
    return out;
}

void fx_draw(GameState *gs, const PlatformAPI *pf)
{
    for (uint32_t i = 0; i < gs->particle_count; i++) {
        Particle *p = &gs->particles[i];
        float t = 1.0f - p->life / p->max_life;
        float size = th_lerpf(p->size, p->size_end, t);
        GameSprite s;
        memset(&s, 0, sizeof s);
        s.x = p->pos.x;
        s.y = p->pos.y;
        s.color = color_lerp(p->color, p->color_end, t);
        s.origin_x = s.origin_y = 0.5f;
        s.layer = LAYER_FX;
        s.flags = SPRITE_ADDITIVE;   /* light adds up: a burst over a burst burns white */
        if (p->look == LOOK_RING) { s.sprite = SPR(FX_RING); s.scale_x = s.scale_y = size / 32.0f; s.flags |= SPRITE_GLOW; }   /* size is the radius; the ring art is 64 px across */
        else if (p->look == LOOK_SPARK) { s.sprite = SPR(FX_SPARK); s.scale_x = size / 8.0f; s.scale_y = 1.0f; s.rotation = p->angle; }
        else { s.sprite = SPR(FX_DOT); s.scale_x = s.scale_y = size / 16.0f; }
        pf->draw_sprite(&s);
    }
    for (int i = 0; i < MAX_POPUPS; i++) {
        Popup *u = &gs->popups[i];
        if (u->life <= 0) continue;
        char text[32];
        snprintf(text, sizeof text, "+%d", u->value);
        float a = th_clampf(u->life / POPUP_SECONDS * 2.0f, 0, 1);
        uint32_t c = (u->color & 0xFFFFFF00u) | (uint32_t)(a * 255);
        pf->draw_text(text, u->pos.x - 12, u->pos.y - 10, 18, c, LAYER_POPUP);
    }
}

/* ---------------------------------------------------------------- the grid
   Geometry Wars' living floor: a lattice of points on springs over the arena. Each point is pulled back to
   rest and towards its neighbours' displacement, damped; explosions and bullets push the points near them.
   Drawn as lines between the points; the major ones (and any stretched one) glow. */
static const float GRID_STEP_X = ARENA_W / (GRID_COLS - 1), GRID_STEP_Y = ARENA_H / (GRID_ROWS - 1);

void grid_push(GameState *gs, v2 at, float radius, float strength)
{
    int i0 = (int)floorf((at.x - radius) / GRID_STEP_X), i1 = (int)ceilf((at.x + radius) / GRID_STEP_X);
    int j0 = (int)floorf((at.y - radius) / GRID_STEP_Y), j1 = (int)ceilf((at.y + radius) / GRID_STEP_Y);
    if (i0 < 1) i0 = 1;
    if (j0 < 1) j0 = 1;
    if (i1 > GRID_COLS - 2) i1 = GRID_COLS - 2;
    if (j1 > GRID_ROWS - 2) j1 = GRID_ROWS - 2;
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            GridPoint *g = &gs->grid[j][i];
            v2 p = v2_add(v2_make(i * GRID_STEP_X, j * GRID_STEP_Y), g->d);
            v2 to = v2_sub(p, at);
            float d = v2_len(to);
            if (d >= radius || d < 1e-3f) continue;
            g->v = v2_add(g->v, v2_scale(to, strength * (1.0f - d / radius) / d));
        }
}

void grid_update(GameState *gs, float dt)
{
    PROFILE_ZONE("grid");
    const float k = GRID_STIFFNESS, c = GRID_COUPLING, damp = GRID_DAMPING, max_d = GRID_MAX_OFFSET;
    for (int j = 1; j < GRID_ROWS - 1; j++)   /* the border stays put */
        for (int i = 1; i < GRID_COLS - 1; i++) {
            GridPoint *g = &gs->grid[j][i];
            v2 lap = v2_sub(v2_add(v2_add(gs->grid[j][i - 1].d, gs->grid[j][i + 1].d), v2_add(gs->grid[j - 1][i].d, gs->grid[j + 1][i].d)),
                            v2_scale(g->d, 4));
            v2 acc = v2_sub(v2_add(v2_scale(g->d, -k), v2_scale(lap, c)), v2_scale(g->v, damp));
            g->v = v2_add(g->v, v2_scale(acc, dt));
        }
    for (int j = 1; j < GRID_ROWS - 1; j++)
        for (int i = 1; i < GRID_COLS - 1; i++) {
            GridPoint *g = &gs->grid[j][i];
            g->d = v2_add(g->d, v2_scale(g->v, dt));
            float len = v2_len(g->d);
            if (len > max_d) { g->d = v2_scale(g->d, max_d / len); g->v = v2_scale(g->v, 0.5f); }
            if (!(len == len)) { g->d = v2_make(0, 0); g->v = v2_make(0, 0); }   /* NaN: back to rest */
        }
}

static uint32_t color_lerp(uint32_t a, uint32_t b, float t);

/* The major lines' colour follows GRID_COLOR (a purple grid is purple all over): its red, green and blue scaled
   by k (up to 255), fully opaque. */
static uint32_t color_brighter(uint32_t c, float k)
{
    uint32_t out = 0xFFu;
    for (int s = 8; s < 32; s += 8) out |= (uint32_t)th_minf(255.0f, (float)((c >> s) & 255) * k + 0.5f) << s;
    return out;
}

static void grid_line(const PlatformAPI *pf, v2 a, v2 b, float width, uint32_t color, uint16_t flags)
{
    v2 d = v2_sub(b, a);
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.x = a.x;
    s.y = a.y;
    s.scale_x = v2_len(d) + width * 0.5f;
    s.scale_y = width;
    s.rotation = atan2f(d.y, d.x);
    s.origin_y = 0.5f;
    s.color = color;
    s.layer = LAYER_FLOOR;
    s.flags = flags;
    pf->draw_sprite(&s);
}

/* Only the segments inside the view (world rectangle x0,y0 .. x1,y1, at zoom) are drawn. */
void grid_draw(GameState *gs, float x0, float y0, float x1, float y1, float zoom, const PlatformAPI *pf)
{
    const float px = 1.0f / zoom;   /* widths in screen pixels: a line never thins below one */
    PROFILE_ZONE("grid draw");
    int i0 = th_maxf(0, floorf(x0 / GRID_STEP_X) - 1), i1 = th_minf(GRID_COLS - 1, ceilf(x1 / GRID_STEP_X) + 1);
    int j0 = th_maxf(0, floorf(y0 / GRID_STEP_Y) - 1), j1 = th_minf(GRID_ROWS - 1, ceilf(y1 / GRID_STEP_Y) + 1);
    const uint32_t minor_color = GRID_COLOR, major_color = color_brighter(minor_color, GRID_MAJOR_BRIGHT);
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            const GridPoint *g = &gs->grid[j][i];
            v2 p = v2_add(v2_make(i * GRID_STEP_X, j * GRID_STEP_Y), g->d);
            for (int dir = 0; dir < 2; dir++) {
                int ni = i + (dir == 0), nj = j + (dir == 1);
                if (ni > i1 || nj > j1) continue;
                const GridPoint *n = &gs->grid[nj][ni];
                v2 q = v2_add(v2_make(ni * GRID_STEP_X, nj * GRID_STEP_Y), n->d);
                int major = dir == 0 ? j % 3 == 0 : i % 4 == 0;
                float heat = th_clampf((fabsf(g->d.x) + fabsf(g->d.y) + fabsf(n->d.x) + fabsf(n->d.y)) / 40.0f, 0, 1);
                uint32_t col = color_lerp(major ? major_color : minor_color, GRID_HOT_COLOR, heat);
                grid_line(pf, p, q, (major ? 2.5f : 1.6f) * px, col, major || heat > 0.3f ? SPRITE_GLOW : 0);
            }
        }
}

/* ---------------------------------------------------------------- camera
   The view follows the ship and leans towards the action; it zooms out smoothly until the ship and every
   enemy fit (down to ZOOM_MIN, which shows nearly the whole arena), and back in when the fight is close. */
void camera_update(GameState *gs, float dt, const PlatformAPI *pf)
{
    gs->prev_cam = gs->cam;
    gs->prev_zoom = gs->zoom;
    Entity *pl = entity_get(gs, gs->player);
    v2 target = v2_make(ARENA_W / 2, ARENA_H / 2);
    float want_zoom = gs->zoom;
    if (pl) {
        v2 lo = pl->pos, hi = pl->pos;
        for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
            Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
            if (e->dead || !(is_enemy(e->type) || e->type == ENTITY_SPAWNER)) continue;
            lo = v2_make(th_minf(lo.x, e->pos.x), th_minf(lo.y, e->pos.y));
            hi = v2_make(th_maxf(hi.x, e->pos.x), th_maxf(hi.y, e->pos.y));
        }
        v2 action = v2_scale(v2_add(lo, hi), 0.5f);
        target = v2_add(v2_add(pl->pos, v2_scale(gs->aim, CAMERA_LOOK_AHEAD)), v2_scale(v2_sub(action, pl->pos), ACTION_PULL));
        /* what has to fit: the action box around the ship, seen from the target */
        float need_w = 2 * th_maxf(fabsf(hi.x - target.x), fabsf(lo.x - target.x)) + 2 * ZOOM_MARGIN;
        float need_h = 2 * th_maxf(fabsf(hi.y - target.y), fabsf(lo.y - target.y)) + 2 * ZOOM_MARGIN;
        want_zoom = th_clampf(th_minf(pf->view_width / need_w, pf->view_height / need_h), ZOOM_MIN, 1.0f);
    }
    gs->zoom = th_clampf(th_damp(gs->zoom, want_zoom, ZOOM_SMOOTHING, dt), ZOOM_MIN, 1.0f);
    if (!(gs->zoom > 0)) gs->zoom = 1.0f;
    float hw = pf->view_width * 0.5f / gs->zoom, hh = pf->view_height * 0.5f / gs->zoom;
    target.x = hw * 2 >= ARENA_W + 80 ? ARENA_W / 2 : th_clampf(target.x, hw - 40, ARENA_W - hw + 40);
    target.y = hh * 2 >= ARENA_H + 80 ? ARENA_H / 2 : th_clampf(target.y, hh - 40, ARENA_H - hh + 40);
    gs->cam.x = th_damp(gs->cam.x, target.x, CAMERA_SMOOTHING, dt);
    gs->cam.y = th_damp(gs->cam.y, target.y, CAMERA_SMOOTHING, dt);
}

/* The view this frame, interpolated: its centre and zoom (world pixels -> screen pixels). */
void camera_view(GameState *gs, float alpha, v2 *centre, float *zoom)
{
    *centre = v2_lerp(gs->prev_cam, gs->cam, alpha);
    float z = th_lerpf(gs->prev_zoom, gs->zoom, alpha);
    *zoom = z > 0.05f ? z : 1.0f;
}

/* Sets the host camera for this frame: interpolated position and zoom, plus shake. */
void camera_apply(GameState *gs, float alpha, const PlatformAPI *pf)
{
    v2 c;
    float z;
    camera_view(gs, alpha, &c, &z);
    float shake = gs->trauma * gs->trauma * SHAKE_MAX_OFFSET;
    /* shake from smooth noise of time, not the game's rng: rendering must not change the state */
    float t = (float)gs->steps * 0.9f;
    c.x += shake * sinf(t * 1.7f + 0.3f) * cosf(t * 0.61f);
    c.y += shake * sinf(t * 1.31f + 1.1f) * cosf(t * 0.77f);
    pf->set_camera(c.x - pf->view_width * 0.5f / z, c.y - pf->view_height * 0.5f / z, z);
}
