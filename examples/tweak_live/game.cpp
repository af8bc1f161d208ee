/* tweak_live - TWEAK(...): constants you change in the source while the game runs.

   Open this file, change a number inside a TWEAK below and save: the host reads the new literal from the
   file and the next step uses it - no compile, no reload, the balls keep flying. Every kind of literal is
   here: float, int, bool, a vec2 and a colour. Changing anything outside a TWEAK's parentheses recompiles
   and reloads instead (the state survives that too). The panel prints what each TWEAK reads right now. */
#include "game_engine.h"

static constexpr auto GRAVITY = TWEAK_V2(0.0f, 900.0f);    /* pixels per second squared */
static constexpr auto BOUNCE = TWEAK(0.85f);               /* speed kept by a bounce */
static constexpr auto BALLS = TWEAK(24);                   /* how many (up to MAX_BALLS) */
static constexpr auto RADIUS = TWEAK(18.0f);
static constexpr auto BALL_COLOR = TWEAK_COLOR(0xFF8A3D);
static constexpr auto SHOW_TRAILS = TWEAK(true);

static int ball_count(void) { int n = BALLS; return n < 0 ? 0 : n > MAX_BALLS ? MAX_BALLS : n; }

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("tweak_live");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) { gs->rng = th_rng_seed(7); gs->initialized = 1; }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    int n = ball_count();
    for (; gs->spawned < n; gs->spawned++) {
        Ball *b = &gs->balls[gs->spawned];
        b->pos = v2_make(th_rng_range(&gs->rng, 520, 1200), th_rng_range(&gs->rng, 120, 400));
        b->vel = v2_make(th_rng_range(&gs->rng, -300, 300), th_rng_range(&gs->rng, -200, 100));
    }
    if (in->pressed[KEY_SPACE])                                     /* Space: a kick upwards */
        for (int i = 0; i < n; i++) gs->balls[i].vel.y -= th_rng_range(&gs->rng, 300, 700);
    v2 g = GRAVITY;
    float r = RADIUS, left = 500 + r, right = (float)pf->view_width - 20 - r, top = 100 + r, bottom = (float)pf->view_height - 20 - r;
    for (int i = 0; i < n; i++) {
        Ball *b = &gs->balls[i];
        b->vel = v2_add(b->vel, v2_scale(g, in->dt));
        b->pos = v2_add(b->pos, v2_scale(b->vel, in->dt));
        if (b->pos.x < left) { b->pos.x = left; b->vel.x = -b->vel.x * BOUNCE; }
        if (b->pos.x > right) { b->pos.x = right; b->vel.x = -b->vel.x * BOUNCE; }
        if (b->pos.y < top) { b->pos.y = top; b->vel.y = -b->vel.y * BOUNCE; }
        if (b->pos.y > bottom) { b->pos.y = bottom; b->vel.y = -b->vel.y * BOUNCE; }
    }
}

static void row(const PlatformAPI *pf, float y, const char *name, const char *value, const char *kind)
{
    pf->draw_text(name, 40, y, 20, 0xFFFFFFFF, 5);
    pf->draw_text(value, 220, y, 20, 0xFFD070FF, 5);
    pf->draw_text(kind, 380, y + 3, 14, 0x8890A0FF, 5);
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x111319FF, 0);
    pf->draw_rect(500, 100, (float)pf->view_width - 520, (float)pf->view_height - 120, 0x1A1E28FF, 1);
    uint32_t color = BALL_COLOR;
    float r = RADIUS;
    uint32_t dot = game_sprite_id("fx/dot");
    for (int i = 0; i < ball_count() && i < gs->spawned; i++) {
        const Ball *b = &gs->balls[i];
        GameSprite s;
        memset(&s, 0, sizeof s);
        s.sprite = dot; s.color = color; s.origin_x = s.origin_y = 0.5f; s.layer = 3;
        if (SHOW_TRAILS)
            for (int k = 1; k <= 4; k++) {                           /* where it was a few steps ago, fainter */
                v2 p = v2_sub(b->pos, v2_scale(b->vel, k * 0.02f));
                p.y = th_minf(p.y, (float)pf->view_height - 20 - r);
                s.x = p.x; s.y = p.y; s.scale_x = s.scale_y = r * 2 / 16 * (1 - k * 0.15f);
                s.color = (color & 0xFFFFFF00u) | (uint32_t)(160 - k * 35);
                pf->draw_sprite(&s);
            }
        s.x = b->pos.x; s.y = b->pos.y; s.scale_x = s.scale_y = r * 2 / 16; s.color = color; s.layer = 4;
        pf->draw_sprite(&s);
    }
    pf->draw_text("tweak_live", 24, 18, 32, 0xFFFFFFFF, 5);
    pf->draw_text("change a value inside TWEAK(...) in game.cpp and save: it applies at once, no rebuild  -  Space kicks",
                  24, 58, 16, 0xA8B4C8FF, 5);
    char v[64];
    v2 g = GRAVITY;
    pf->draw_text("what each TWEAK reads now:", 40, 120, 16, 0x8890A0FF, 5);
    snprintf(v, sizeof v, "%.0f, %.0f", (double)g.x, (double)g.y);   row(pf, 160, "GRAVITY", v, "TWEAK_V2");
    snprintf(v, sizeof v, "%.2f", (double)(float)BOUNCE);            row(pf, 200, "BOUNCE", v, "float");
    snprintf(v, sizeof v, "%d", (int)BALLS);                         row(pf, 240, "BALLS", v, "int");
    snprintf(v, sizeof v, "%.1f", (double)r);                        row(pf, 280, "RADIUS", v, "float");
    snprintf(v, sizeof v, "0x%06X", (unsigned)(color >> 8));         row(pf, 320, "BALL_COLOR", v, "TWEAK_COLOR");
    pf->draw_rect(318, 324, 48, 20, color, 5);
    row(pf, 360, "SHOW_TRAILS", SHOW_TRAILS ? "true" : "false", "bool");
    pf->draw_text("try: GRAVITY 0.0f, -400.0f  /  BALLS 60\nBOUNCE 1.0f  /  BALL_COLOR 0x40C0FF\n\nedits outside TWEAK(...) recompile\nand reload; the balls stay put",
                  40, 440, 16, 0x80C0FFFF, 5);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"balls\":%d,\"radius\":%.1f", (unsigned long long)gs->steps, ball_count(), (double)(float)RADIUS);
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
