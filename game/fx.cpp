/* fx.cpp - what makes hits feel like hits: particles, screen shake, hit-stop, score popups, camera. */
#include "game.h"

static constexpr auto SHAKE_MAX_OFFSET   = TWEAK(14.0f);   /* pixels at full trauma */
static constexpr auto SHAKE_DECAY        = TWEAK(1.6f);    /* trauma lost per second */
static constexpr auto CAMERA_SMOOTHING   = TWEAK(0.004f);  /* fraction of the gap left after one second */
static constexpr auto CAMERA_LOOK_AHEAD  = TWEAK(90.0f);   /* pixels towards where the player aims */
static constexpr auto POPUP_SECONDS      = TWEAK(0.9f);

/* ---------------------------------------------------------------- particles */
static Particle *particle_new(GameState *gs)
{
    if (gs->particle_count >= MAX_PARTICLES) return NULL;
    Particle *p = &gs->particles[gs->particle_count++];
    memset(p, 0, sizeof *p);
    p->drag = 1.0f;
    return p;
}

static void fx_burst(GameState *gs, v2 at, int count, uint32_t color, uint32_t color_end, float speed_lo, float speed_hi,
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

static void fx_ring(GameState *gs, v2 at, float from, float to, float life, uint32_t color)
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

static void fx_sparks(GameState *gs, v2 at, v2 normal, uint32_t color, int count)
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

static void fx_trail(GameState *gs, v2 at, v2 vel, uint32_t color, float size)
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

static void fx_update(GameState *gs, float dt)
{
    for (uint32_t i = 0; i < gs->particle_count;) {
        Particle *p = &gs->particles[i];
        p->life -= dt;
        if (p->life <= 0) { *p = gs->particles[--gs->particle_count]; continue; }
        p->vel = v2_scale(p->vel, powf(p->drag, dt));
        p->pos = v2_add(p->pos, v2_scale(p->vel, dt));
        i++;
    }
    for (int i = 0; i < MAX_POPUPS; i++) {
        Popup *u = &gs->popups[i];
        if (u->life > 0) { u->life -= dt; u->pos.y -= 40 * dt; }
    }
    gs->trauma = th_maxf(0, gs->trauma - SHAKE_DECAY * dt);
}

static void fx_shake(GameState *gs, float amount) { gs->trauma = th_minf(1.0f, gs->trauma + amount); }

static void fx_popup(GameState *gs, v2 at, int value, uint32_t color)
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

static void fx_draw(GameState *gs, const PlatformAPI *pf)
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
        if (p->look == LOOK_RING) { s.sprite = SPR(FX_RING); s.scale_x = s.scale_y = size / 32.0f; }   /* size is the radius; the ring art is 64 px across */
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

/* ---------------------------------------------------------------- camera */
static void camera_update(GameState *gs, float dt, const PlatformAPI *pf)
{
    gs->prev_cam = gs->cam;
    Entity *pl = entity_get(gs, gs->player);
    v2 target = v2_make(ARENA_W / 2, ARENA_H / 2);
    if (pl) target = v2_add(pl->pos, v2_scale(gs->aim, CAMERA_LOOK_AHEAD));
    float hw = pf->view_width * 0.5f, hh = pf->view_height * 0.5f;
    target.x = th_clampf(target.x, hw - 40, ARENA_W - hw + 40);
    target.y = th_clampf(target.y, hh - 40, ARENA_H - hh + 40);
    gs->cam.x = th_damp(gs->cam.x, target.x, CAMERA_SMOOTHING, dt);
    gs->cam.y = th_damp(gs->cam.y, target.y, CAMERA_SMOOTHING, dt);
}

/* Sets the host camera for this frame: interpolated position plus shake. */
static void camera_apply(GameState *gs, float alpha, const PlatformAPI *pf)
{
    v2 c = v2_lerp(gs->prev_cam, gs->cam, alpha);
    float shake = gs->trauma * gs->trauma * SHAKE_MAX_OFFSET;
    /* shake from smooth noise of time, not the game's rng: rendering must not change the state */
    float t = (float)gs->steps * 0.9f;
    c.x += shake * sinf(t * 1.7f + 0.3f) * cosf(t * 0.61f);
    c.y += shake * sinf(t * 1.31f + 1.1f) * cosf(t * 0.77f);
    pf->set_camera(c.x - pf->view_width * 0.5f, c.y - pf->view_height * 0.5f, 1.0f);
}
