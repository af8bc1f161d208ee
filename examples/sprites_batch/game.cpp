/* sprites_batch - thousands of sprites on three layers, batched by the host into a few draw calls.

   Each mover is a plain struct in the state; render() submits one GameSprite per mover and the host
   sorts them by layer and draws them in batches. Live edit: change COUNT, SPEED or a layer's tint below
   and save - the running scene follows without a restart. Space pauses, F1 shows the host's draw calls. */
#include "game_engine.h"

static constexpr auto COUNT = TWEAK(5000);          /* how many sprites move (up to MAX_SPRITES) */
static constexpr auto SPEED = TWEAK(60.0f);         /* pixels per second of the back layer; nearer layers go faster */
static constexpr auto TINT_BACK = TWEAK_COLOR(0x5060A0);
static constexpr auto TINT_MID = TWEAK_COLOR(0xB080F0);
static constexpr auto TINT_FRONT = TWEAK_COLOR(0xFFE080);

static const char *const LAYER_SPRITES[3] = { "fx/dot", "enemy/drone", "pickup/gem" };
static const float LAYER_SCALE[3] = { 0.5f, 0.55f, 0.75f };

static void mover_spawn(GameState *gs, Mover *m, int i, const PlatformAPI *pf)
{
    m->layer = (uint32_t)(i % 8 == 0 ? 2 : i % 4 == 0 ? 1 : 0);   /* most in the back, few in front */
    m->pos = v2_make(th_rng_range(&gs->rng, 0, (float)pf->view_width), th_rng_range(&gs->rng, 0, (float)pf->view_height));
    float a = th_rng_range(&gs->rng, 0, 2 * TH_PI);
    m->vel = v2_scale(v2_make(cosf(a), sinf(a)), th_rng_range(&gs->rng, 0.5f, 1.5f));
    m->angle = a;
    m->spin = th_rng_range(&gs->rng, -2, 2);
}

static int live_count(void)
{
    int n = COUNT;
    return n < 0 ? 0 : n > MAX_SPRITES ? MAX_SPRITES : n;
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("sprites_batch");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) { gs->rng = th_rng_seed(12345); gs->initialized = 1; }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    if (in->pressed[KEY_SPACE]) gs->paused = !gs->paused;
    int n = live_count();
    for (; gs->spawned < n; gs->spawned++) mover_spawn(gs, &gs->movers[gs->spawned], gs->spawned, pf);
    if (gs->paused) return;
    float w = (float)pf->view_width, h = (float)pf->view_height;
    for (int i = 0; i < n; i++) {
        Mover *m = &gs->movers[i];
        float speed = SPEED * (1.0f + 1.5f * (float)m->layer);
        m->pos = v2_add(m->pos, v2_scale(m->vel, speed * in->dt));
        m->angle += m->spin * in->dt;
        if (m->pos.x < -20) m->pos.x += w + 40; else if (m->pos.x > w + 20) m->pos.x -= w + 40;   /* wrap around */
        if (m->pos.y < -20) m->pos.y += h + 40; else if (m->pos.y > h + 20) m->pos.y -= h + 40;
    }
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x0B0D18FF, -10);
    uint32_t ids[3], tints[3] = { TINT_BACK, TINT_MID, TINT_FRONT };
    for (int l = 0; l < 3; l++) ids[l] = game_sprite_id(LAYER_SPRITES[l]);
    int n = live_count(), per_layer[3] = { 0, 0, 0 };
    for (int i = 0; i < n && i < gs->spawned; i++) {
        const Mover *m = &gs->movers[i];
        GameSprite s;
        memset(&s, 0, sizeof s);
        s.sprite = ids[m->layer];
        s.color = tints[m->layer];
        s.x = m->pos.x;
        s.y = m->pos.y;
        s.scale_x = s.scale_y = LAYER_SCALE[m->layer];
        s.rotation = m->angle;
        s.origin_x = s.origin_y = 0.5f;
        s.layer = (int16_t)(m->layer * 10);   /* back 0, middle 10, front 20: drawn in that order */
        pf->draw_sprite(&s);
        per_layer[m->layer]++;
    }
    char line[160];
    pf->draw_rect(16, 16, 580, 112, 0x05060CE8, GAME_LAYER_UI);
    pf->draw_text("sprites_batch", 28, 24, 32, 0xFFFFFFFF, GAME_LAYER_UI + 1);
    snprintf(line, sizeof line, "%d sprites on 3 layers: %d back, %d middle, %d front", n, per_layer[0], per_layer[1], per_layer[2]);
    pf->draw_text(line, 28, 64, 16, 0xC8D0F0FF, GAME_LAYER_UI + 1);
    pf->draw_text("edit COUNT / SPEED / TINT_* in game.cpp and save  -  Space pauses  -  F1 draw calls", 28, 92, 14,
                  0x8890B0FF, GAME_LAYER_UI + 1);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"sprites\":%d", (unsigned long long)gs->steps, live_count());
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
