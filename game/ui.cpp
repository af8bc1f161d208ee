/* ui.cpp - the HUD, the title screen, the game-over screen and the floor. Screen-space layers. */
#include "game.h"

static constexpr auto UI_TEXT      = TWEAK_COLOR(0xE8F4FFFF);
static constexpr auto UI_DIM       = TWEAK_COLOR(0x8FA3B8FF);
static constexpr auto UI_ACCENT    = TWEAK_COLOR(0x4FE3FFFF);
static constexpr auto UI_WARN      = TWEAK_COLOR(0xFF5C7AFF);
static constexpr auto GLOW_INTENSITY = TWEAK(1.2f);      /* the host's glow pass (set_glow) */

/* Screen-space layers, bottom to top: edge markers, HUD panels, HUD text, then the menus on top. */
enum {
    UI_MARKERS = LAYER_HUD, UI_PANEL, UI_WORDS, UI_DIM_ALL, UI_MENU_PANEL, UI_MENU_WORDS, UI_CURSOR,
};
static constexpr auto UI_BACKING   = TWEAK_COLOR(0x070A12D0);
static constexpr auto MARKER_INSET = TWEAK(26.0f);      /* pixels from the screen edge */
static constexpr auto HUD_SCORE_AT = TWEAK_SCREEN_POS(12.0f, 10.0f);    /* the score's plate, top left */
static constexpr auto HUD_WAVE_AT  = TWEAK_SCREEN_POS(640.0f, 10.0f);   /* the wave's plate, top centre */

static float text_at(const PlatformAPI *pf, const char *s, float x, float y, float size, uint32_t color, int layer)
{
    return pf->draw_text(s, x, y, size, color, layer);
}

static const uint32_t TIER_COLORS[4] = { 0x4FE3FFFF, 0x5CFF7AFF, 0xFFD24AFF, 0xFF4FD8FF };   /* x1-4, x5-9, x10-19, x20+ */

static void text_centered(const PlatformAPI *pf, const char *s, float cx, float y, float size, uint32_t color, int layer = UI_WORDS)
{
    float w, h;
    pf->measure_text(s, size, &w, &h);
    pf->draw_text(s, cx - w / 2, y, size, color, layer);
}

/* A dark plate under HUD text with a thin accent edge: readable over walls, enemies and explosions. */
static void panel(const PlatformAPI *pf, float x, float y, float w, float h, uint32_t accent, int layer = UI_PANEL)
{
    pf->draw_rect(x, y, w, h, UI_BACKING, layer);
    pf->draw_rect(x, y + h - 2, w, 2, (accent & 0xFFFFFF00u) | 0x90u, layer);
}

static uint32_t with_alpha(uint32_t c, float a) { return (c & 0xFFFFFF00u) | (uint32_t)(255 * th_clampf(a, 0, 1) * ((c & 255) / 255.0f)); }

/* The top-left world point of the view and the zoom (world -> screen), this frame. */
static v2 view_top_left(GameState *gs, float alpha, const PlatformAPI *pf, float *zoom)
{
    v2 c;
    camera_view(gs, alpha, &c, zoom);
    return v2_sub(c, v2_make(pf->view_width * 0.5f / *zoom, pf->view_height * 0.5f / *zoom));
}

void floor_draw(GameState *gs, float alpha, const PlatformAPI *pf)
{
    float z;
    v2 tl = view_top_left(gs, alpha, pf, &z);
    pf->set_glow(GLOW_INTENSITY);
    grid_draw(gs, tl.x, tl.y, tl.x + pf->view_width / z, tl.y + pf->view_height / z, z, pf);
}

/* The strip the host may put its banners in (crash, build errors, loop recording): the bottom half on the
   side away from the ship, above the autopilot line; never over the score, the hearts or the ship. */
void safe_area_report(GameState *gs, float alpha, const PlatformAPI *pf)
{
    float W = (float)pf->view_width, H = (float)pf->view_height, z;
    v2 tl = view_top_left(gs, alpha, pf, &z);
    Entity *pl = entity_get(gs, gs->player);
    float ship_x = pl && gs->mode != MODE_TITLE ? (pl->pos.x - tl.x) * z : W;
    float x = ship_x > W / 2 ? 12 : W / 2 + 20;
    pf->set_safe_area(x, H * 0.42f, W / 2 - 32, H * 0.58f - 52);
}

void hud_draw(GameState *gs, const PlatformAPI *pf)
{
    char s[96];
    float W = (float)pf->view_width;
    /* score, multiplier and its tier, best: top left */
    v2 at = HUD_SCORE_AT;
    uint32_t tier_color = TIER_COLORS[gs->tier < 1 ? 0 : gs->tier > 4 ? 3 : gs->tier - 1];
    panel(pf, at.x, at.y, 240, 112, gs->multiplier > 1 ? tier_color : UI_DIM);
    snprintf(s, sizeof s, "%d", gs->score);
    text_at(pf, s, at.x + 12, at.y + 4, 40, UI_TEXT, UI_WORDS);
    snprintf(s, sizeof s, "x%d", gs->multiplier);
    float mw = text_at(pf, s, at.x + 14, at.y + 50, 24, gs->multiplier > 1 ? tier_color : UI_DIM, UI_WORDS);
    snprintf(s, sizeof s, "TIER %d", gs->tier > 0 ? gs->tier : 1);
    text_at(pf, s, at.x + 28 + mw, at.y + 56, 16, gs->tier > 1 ? tier_color : UI_DIM, UI_WORDS);
    if (gs->demo) text_at(pf, "DEMO RUN - no best", at.x + 14, at.y + 82, 16, UI_WARN, UI_WORDS);
    else {
        snprintf(s, sizeof s, "BEST %d", gs->best_score);
        text_at(pf, s, at.x + 14, at.y + 82, 16, gs->score > 0 && gs->score >= gs->best_score ? UI_ACCENT : UI_DIM, UI_WORDS);
    }
    /* weapon upgrades: under the score, a bar each for the time left */
    float uy = at.y + 118;
    for (int k = 0; k < (int)UPGRADE_COUNT; k++) {
        if (gs->upgrade_time[k] <= 0) continue;
        panel(pf, at.x, uy, 240, 26, UPGRADE_COLORS[k]);
        text_at(pf, UPGRADE_NAMES[k], at.x + 10, uy + 4, 16, UPGRADE_COLORS[k], UI_WORDS);
        pf->draw_rect(at.x + 98, uy + 10, 130 * th_clampf(gs->upgrade_time[k] / upgrade_seconds(), 0, 1), 6, UPGRADE_COLORS[k], UI_WORDS);
        uy += 30;
    }
    /* the phase, its time and how many are alive: top centre */
    v2 wv = HUD_WAVE_AT;
    panel(pf, wv.x - 130, wv.y, 260, 78, UI_ACCENT);
    snprintf(s, sizeof s, "PHASE %d", wave_shown(gs));
    text_centered(pf, s, wv.x, wv.y + 4, 28, UI_TEXT);
    if (gs->wave_phase == WAVE_BREAK) snprintf(s, sizeof s, "get ready");
    else snprintf(s, sizeof s, "%s   %d alive", wave_theme_name(gs->wave), gs->alive_now);
    text_centered(pf, s, wv.x, wv.y + 40, 16, UI_DIM);
    float done = gs->wave_phase == WAVE_BREAK ? 0.0f : (gs->run_time - phase_seconds() * (float)(gs->wave - 1)) / phase_seconds();
    pf->draw_rect(wv.x - 110, wv.y + 64, 220, 4, 0x2A3444FF, UI_WORDS);
    pf->draw_rect(wv.x - 110, wv.y + 64, 220 * th_clampf(done, 0, 1), 4, UI_ACCENT, UI_WORDS);
    /* hearts: top right */
    int max_hp = (int)player_max_hp();
    panel(pf, W - 24 - max_hp * 30, 10, max_hp * 30 + 12, 50, UI_WARN);
    Entity *pl = entity_get(gs, gs->player);
    int hp = pl ? (int)pl->hp : 0;
    for (int i = 0; i < max_hp; i++) {
        GameSprite h;
        memset(&h, 0, sizeof h);
        h.sprite = SPR(UI_HEART);
        h.x = W - 40 - i * 30;
        h.y = 35;
        h.scale_x = h.scale_y = 1.2f;
        h.origin_x = h.origin_y = 0.5f;
        h.color = i < hp ? 0xFFFFFFFF : 0xFFFFFF30;
        h.layer = UI_WORDS;
        pf->draw_sprite(&h);
    }
    /* bombs: under the hearts */
    panel(pf, W - 24 - max_hp * 30, 64, max_hp * 30 + 12, 30, UI_ACCENT);
    snprintf(s, sizeof s, "BOMBS %d  (Q)", gs->bombs);
    text_at(pf, s, W - 16 - max_hp * 30, 69, 16, gs->bombs > 0 ? UI_TEXT : UI_DIM, UI_WORDS);
    /* the bomb's flash lights the world under the ship (world layers below LAYER_PLAYER), never the ship itself */
    if (gs->bomb_flash > 0) {
        float z = gs->zoom > 0.05f ? gs->zoom : 1.0f, hw = pf->view_width * 0.5f / z + 60, hh = pf->view_height * 0.5f / z + 60;
        pf->draw_rect(gs->cam.x - hw, gs->cam.y - hh, 2 * hw, 2 * hh, with_alpha(0xFFFFFFFF, gs->bomb_flash * 0.5f), LAYER_PLAYER - 1);
    }
    if (gs->autopilot) {
        panel(pf, W / 2 - 170, (float)pf->view_height - 44, 340, 32, UI_WARN);
        text_centered(pf, "AUTOPILOT  (F10 to take over)", W / 2, (float)pf->view_height - 38, 16, UI_WARN);
    }
}

/* Enemies out of view show at the screen edge as a small copy of themselves with an arrow, so no
   straggler is ever lost. */
void offscreen_markers_draw(GameState *gs, float alpha, const PlatformAPI *pf)
{
    float W = (float)pf->view_width, H = (float)pf->view_height, z;
    v2 top_left = view_top_left(gs, alpha, pf, &z);
    static const int SPRITE_OF[5] = { 0, SPR_DRONE, SPR_SHOOTER, SPR_DASHER, SPR_BRUTE };
    int hunt = stragglers_hunt(gs);
    float pulse = 1.0f + (hunt ? 0.25f * sinf(gs->mode_time * 10.0f) : 0.0f);
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead || !is_enemy(e->type) || e->type == ENTITY_SNAKE_BODY) continue;
        v2 p = v2_scale(v2_sub(e->pos, top_left), z);
        if (p.x > -e->radius && p.x < W + e->radius && p.y > -e->radius && p.y < H + e->radius) continue;
        v2 d = v2_sub(p, v2_make(W / 2, H / 2));
        float sx = (W / 2 - MARKER_INSET) / th_maxf(fabsf(d.x), 1e-3f), sy = (H / 2 - MARKER_INSET) / th_maxf(fabsf(d.y), 1e-3f);
        v2 at = v2_add(v2_make(W / 2, H / 2), v2_scale(d, th_minf(sx, sy)));
        float far = th_clampf(1.0f - (v2_len(d) - W / 2) / 1400.0f, 0.45f, 1.0f);
        GameSprite m;
        memset(&m, 0, sizeof m);
        m.sprite = e->type < 5 ? g_sprite_ids[SPRITE_OF[e->type]] : SPR(FX_DOT);
        m.x = at.x; m.y = at.y;
        m.scale_x = m.scale_y = 0.55f * pulse * (e->type == ENTITY_BRUTE ? 0.7f : 1.0f);
        m.origin_x = m.origin_y = 0.5f;
        m.color = with_alpha(e->type < 5 ? 0xFFFFFFFF : enemy_info(e->type).color, far);
        m.layer = UI_MARKERS;
        pf->draw_sprite(&m);
        v2 n = v2_norm(d);
        GameSprite a = m;
        a.sprite = SPR(FX_SPARK);
        a.x = at.x + n.x * 16; a.y = at.y + n.y * 16;
        a.scale_x = 1.4f; a.scale_y = 1.6f;
        a.rotation = atan2f(n.y, n.x);
        a.color = with_alpha(hunt ? UI_WARN : 0xFFFFFFFF, far);
        pf->draw_sprite(&a);
    }
}

/* The aim point: the mouse while it is in use, otherwise a reticle ahead of the ship. */
void crosshair_draw(GameState *gs, float alpha, const PlatformAPI *pf)
{
    v2 at;
    Entity *pl = entity_get(gs, gs->player);
    if (gs->mouse_idle < 3.0f) at = gs->mouse;
    else if (gs->mode == MODE_PLAY && !gs->paused && pl && !pl->dead) {
        float z;
        v2 tl = view_top_left(gs, alpha, pf, &z);
        v2 p = v2_scale(v2_sub(v2_lerp(pl->prev_pos, pl->pos, alpha), tl), z);
        at = v2_add(p, v2_scale(gs->aim, 120 * z));
    } else return;
    const float gap = 5, len = 9;
    struct { float x, y, w, h; } bars[4] = {
        { at.x - gap - len, at.y - 1, len, 2 }, { at.x + gap, at.y - 1, len, 2 },
        { at.x - 1, at.y - gap - len, 2, len }, { at.x - 1, at.y + gap, 2, len },
    };
    for (auto &b : bars) {
        pf->draw_rect(b.x - 1, b.y - 1, b.w + 2, b.h + 2, 0x000000C0, UI_CURSOR);
        pf->draw_rect(b.x, b.y, b.w, b.h, UI_ACCENT, UI_CURSOR + 1);
    }
    pf->draw_rect(at.x - 1, at.y - 1, 2, 2, UI_TEXT, UI_CURSOR + 1);
}

/* Banners, one at a time from the queue (banner_push): each springs in on a band, holds, fades, and the
   next follows. The band sits in the top third, or the bottom third while the ship is up there. */
static const float BANNER_SECONDS = 1.8f;

void banner_update(GameState *gs, float dt)
{
    if (gs->banner_count == 0) return;
    gs->banner_time += dt;
    if (gs->banner_time < BANNER_SECONDS) return;
    for (uint32_t i = 1; i < gs->banner_count; i++) { gs->banner_kind[i - 1] = gs->banner_kind[i]; gs->banner_value[i - 1] = gs->banner_value[i]; }
    gs->banner_count--;
    gs->banner_time = 0;
}

void wave_banner_draw(GameState *gs, const PlatformAPI *pf)
{
    if (gs->banner_count == 0 || gs->mode != MODE_PLAY) return;
    float t = gs->banner_time / BANNER_SECONDS;
    float size = 56 * th_ease_out_back(th_clampf(t * 4.0f, 0, 1));
    if (size < 4) return;
    float a = th_clampf((1.0f - t) * 4.0f, 0, 1);
    float W = (float)pf->view_width, H = (float)pf->view_height, z;
    v2 tl = view_top_left(gs, 1.0f, pf, &z);
    Entity *pl = entity_get(gs, gs->player);
    float ship_y = pl ? (pl->pos.y - tl.y) * z : H / 2;
    float cy = ship_y < H * 0.45f ? H * 0.66f : 100;   /* away from the ship */
    pf->draw_rect(W / 2 - 380, cy - 12, 760, 96, with_alpha(UI_BACKING, a), UI_PANEL);   /* between the score and the hearts */
    char s[64], sub[64];
    sub[0] = 0;
    uint32_t color = UI_ACCENT;
    int v = gs->banner_value[0];
    switch (gs->banner_kind[0]) {
    case BANNER_PHASE:
        snprintf(s, sizeof s, "PHASE %d  %s", v, wave_theme_name(v));
        if (v > 1) snprintf(sub, sizeof sub, "phase %d survived  +%d", v - 1, 50 * (v - 1));
        break;
    case BANNER_TIER:
        snprintf(s, sizeof s, "TIER %d", v);
        snprintf(sub, sizeof sub, "multiplier x%d  - a weapon drops by the ship", gs->multiplier);
        color = TIER_COLORS[v < 1 ? 0 : v > 4 ? 3 : v - 1];
        break;
    case BANNER_BOMB:
        snprintf(s, sizeof s, "+1 BOMB");
        snprintf(sub, sizeof sub, "%d ready (Q)", v);
        break;
    default: return;
    }
    text_centered(pf, s, W / 2, cy, size, with_alpha(color, a));
    if (sub[0]) text_centered(pf, sub, W / 2, cy + 62, 20, with_alpha(UI_TEXT, a));
}

void title_draw(GameState *gs, const PlatformAPI *pf)
{
    float cx = pf->view_width / 2.0f, y = 150;
    float pulse = 0.5f + 0.5f * sinf(gs->mode_time * 3.0f);
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x05070CB0, UI_PANEL);
    text_centered(pf, "NEON SWARM", cx, y, 104, UI_ACCENT);
    text_centered(pf, "a twin-stick arena shooter", cx, y + 120, 24, UI_DIM);
    uint32_t prompt = (UI_TEXT & 0xFFFFFF00u) | (uint32_t)(120 + 135 * pulse);
    text_centered(pf, "press ENTER or START", cx, y + 220, 32, prompt);
    text_centered(pf, "move  WASD / left stick      aim  mouse / arrows / right stick", cx, y + 300, 18, UI_DIM);
    text_centered(pf, "fire  hold mouse / arrows / right stick      dash  SPACE / A      bomb  Q / E / Y", cx, y + 326, 18, UI_DIM);
    text_centered(pf, "Esc pause / quit      F11 fullscreen      F10 autopilot      F1 engine overlay", cx, y + 352, 18, UI_DIM);
    if (gs->best_score > 0) {
        char s[64];
        snprintf(s, sizeof s, "best %d", gs->best_score);
        text_centered(pf, s, cx, y + 410, 24, UI_TEXT);
    }
}

void gameover_draw(GameState *gs, const PlatformAPI *pf)
{
    float W = (float)pf->view_width, cx = W / 2.0f, y = 190;
    float t = th_clampf(gs->mode_time * 2, 0, 1);
    pf->draw_rect(0, 0, W, (float)pf->view_height, 0x05070C00u | (uint32_t)(150 * t), UI_DIM_ALL);
    pf->draw_rect(cx - 330, y - 30, 660, 340, with_alpha(0x070A12F0, t), UI_MENU_PANEL);
    pf->draw_rect(cx - 330, y - 30, 660, 3, with_alpha(UI_WARN, t), UI_MENU_PANEL);
    text_centered(pf, "GAME OVER", cx, y, 88 * th_ease_out_back(t), UI_WARN, UI_MENU_WORDS);
    char s[96];
    snprintf(s, sizeof s, "score %d     wave %d", gs->score, gs->wave);
    text_centered(pf, s, cx, y + 130, 32, UI_TEXT, UI_MENU_WORDS);
    int new_best = !gs->demo && gs->score > gs->best_before_run;   /* a demo run is never a best (waves.cpp) */
    if (new_best) snprintf(s, sizeof s, "NEW BEST!  (was %d)", gs->best_before_run);
    else if (gs->demo) snprintf(s, sizeof s, "demo run - best %d", gs->best_score);
    else snprintf(s, sizeof s, "best %d", gs->best_score);
    text_centered(pf, s, cx, y + 180, 26, new_best ? UI_ACCENT : UI_DIM, UI_MENU_WORDS);
    if (gs->mode_time > 0.8f) {
        text_centered(pf, "press ENTER or START to play again", cx, y + 240, 26, UI_TEXT, UI_MENU_WORDS);
        text_centered(pf, "Esc for the title screen", cx, y + 276, 18, UI_DIM, UI_MENU_WORDS);
    }
}

/* ---------------------------------------------------------------- the pause menu */
static const char *const PAUSE_LABELS[PAUSE_ITEM_COUNT] = { "RESUME", "RESTART", "QUIT" };

static void pause_item_rect(const PlatformAPI *pf, int i, float *x, float *y, float *w, float *h)
{
    *w = 320; *h = 48;
    *x = pf->view_width / 2.0f - *w / 2;
    *y = pf->view_height / 2.0f - 30 + i * 60.0f;
}

int pause_item_at(const PlatformAPI *pf, v2 p)
{
    for (int i = 0; i < PAUSE_ITEM_COUNT; i++) {
        float x, y, w, h;
        pause_item_rect(pf, i, &x, &y, &w, &h);
        if (p.x >= x && p.x < x + w && p.y >= y && p.y < y + h) return i;
    }
    return -1;
}

void pause_draw(GameState *gs, const PlatformAPI *pf)
{
    float W = (float)pf->view_width, H = (float)pf->view_height, cx = W / 2;
    pf->draw_rect(0, 0, W, H, 0x05070CB8, UI_DIM_ALL);
    pf->draw_rect(cx - 220, H / 2 - 190, 440, 390, 0x070A12F4, UI_MENU_PANEL);
    pf->draw_rect(cx - 220, H / 2 - 190, 440, 3, UI_ACCENT, UI_MENU_PANEL);
    text_centered(pf, "PAUSED", cx, H / 2 - 170, 72, UI_ACCENT, UI_MENU_WORDS);
    for (int i = 0; i < PAUSE_ITEM_COUNT; i++) {
        float x, y, w, h;
        pause_item_rect(pf, i, &x, &y, &w, &h);
        int on = i == gs->pause_item;
        if (on) {
            float glow = 0.75f + 0.25f * sinf(gs->pause_time * 6.0f);
            pf->draw_rect(x, y, w, h, with_alpha(0x1E5A6AFF, glow), UI_MENU_PANEL);
            pf->draw_rect(x, y, 4, h, UI_ACCENT, UI_MENU_PANEL);
        }
        text_centered(pf, PAUSE_LABELS[i], cx, y + 8, 30, on ? UI_TEXT : UI_DIM, UI_MENU_WORDS);
    }
    text_centered(pf, "up/down choose   Enter select   Esc resume", cx, H / 2 + 170, 16, UI_DIM, UI_MENU_WORDS);
}
