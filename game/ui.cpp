/* ui.cpp - the HUD, the title screen, the game-over screen and the floor. Screen-space layers. */

static constexpr auto UI_TEXT      = TWEAK_COLOR(0xE8F4FFFF);
static constexpr auto UI_DIM       = TWEAK_COLOR(0x8FA3B8FF);
static constexpr auto UI_ACCENT    = TWEAK_COLOR(0x4FE3FFFF);
static constexpr auto UI_WARN      = TWEAK_COLOR(0xFF5C7AFF);
static constexpr auto FLOOR_LINE   = TWEAK_COLOR(0x1B2433FF);
static constexpr auto GRID         = TWEAK(64.0f);

static void text_centered(const PlatformAPI *pf, const char *s, float cx, float y, float size, uint32_t color)
{
    float w, h;
    pf->measure_text(s, size, &w, &h);
    pf->draw_text(s, cx - w / 2, y, size, color, LAYER_HUD + 1);
}

static void floor_draw(GameState *gs, float alpha, const PlatformAPI *pf)
{
    v2 c = v2_lerp(gs->prev_cam, gs->cam, alpha);
    float x0 = c.x - pf->view_width / 2 - 40, y0 = c.y - pf->view_height / 2 - 40;
    float x1 = x0 + pf->view_width + 80, y1 = y0 + pf->view_height + 80;
    for (float x = floorf(x0 / GRID) * GRID; x < x1; x += GRID)
        if (x > 0 && x < ARENA_W) pf->draw_rect(x, th_maxf(0, y0), 1, th_minf(ARENA_H, y1) - th_maxf(0, y0), FLOOR_LINE, LAYER_FLOOR);
    for (float y = floorf(y0 / GRID) * GRID; y < y1; y += GRID)
        if (y > 0 && y < ARENA_H) pf->draw_rect(th_maxf(0, x0), y, th_minf(ARENA_W, x1) - th_maxf(0, x0), 1, FLOOR_LINE, LAYER_FLOOR);
}

static void hud_draw(GameState *gs, const PlatformAPI *pf)
{
    char s[96];
    float W = (float)pf->view_width;
    snprintf(s, sizeof s, "%d", gs->score);
    pf->draw_text(s, 24, 16, 40, UI_TEXT, LAYER_HUD);
    snprintf(s, sizeof s, "x%d", gs->multiplier);
    pf->draw_text(s, 26, 62, 24, gs->multiplier > 1 ? UI_ACCENT : UI_DIM, LAYER_HUD);
    snprintf(s, sizeof s, "BEST %d", gs->best_score);
    pf->draw_text(s, 26, 92, 16, UI_DIM, LAYER_HUD);
    snprintf(s, sizeof s, "WAVE %d", gs->wave > 0 ? gs->wave : 1);
    text_centered(pf, s, W / 2, 18, 28, UI_TEXT);
    Entity *pl = entity_get(gs, gs->player);
    int hp = pl ? (int)pl->hp : 0;
    for (int i = 0; i < (int)PLAYER_HP; i++) {
        GameSprite h;
        memset(&h, 0, sizeof h);
        h.sprite = SPR(UI_HEART);
        h.x = W - 40 - i * 30;
        h.y = 34;
        h.scale_x = h.scale_y = 1.2f;
        h.origin_x = h.origin_y = 0.5f;
        h.color = i < hp ? 0xFFFFFFFF : 0xFFFFFF30;
        h.layer = LAYER_HUD;
        pf->draw_sprite(&h);
    }
    if (gs->autopilot) text_centered(pf, "AUTOPILOT  (F10 to take over)", W / 2, (float)pf->view_height - 36, 16, UI_WARN);
}

/* Between waves the next wave's number springs in, then fades. */
static void wave_banner_draw(GameState *gs, const PlatformAPI *pf)
{
    if (gs->wave_phase != WAVE_BREAK || gs->mode != MODE_PLAY) return;
    float t = 1.0f - gs->wave_timer / WAVE_BREAK_SECONDS;
    if (gs->wave == 0) t = 1.0f - gs->wave_timer;
    float size = 64 * th_ease_out_back(th_clampf(t * 2.5f, 0, 1));
    if (size < 4) return;
    char s[32];
    snprintf(s, sizeof s, "WAVE %d", gs->wave + 1);
    uint32_t a = (uint32_t)(255 * th_clampf((1.0f - t) * 3.0f, 0, 1));
    text_centered(pf, s, pf->view_width / 2.0f, pf->view_height / 2.0f - 120, size, (UI_ACCENT & 0xFFFFFF00u) | a);
    if (gs->wave > 0) {
        snprintf(s, sizeof s, "wave %d cleared  +%d", gs->wave, 50 * gs->wave);
        text_centered(pf, s, pf->view_width / 2.0f, pf->view_height / 2.0f - 40, 22, (UI_TEXT & 0xFFFFFF00u) | a);
    }
}

static void title_draw(GameState *gs, const PlatformAPI *pf)
{
    float cx = pf->view_width / 2.0f, y = 150;
    float pulse = 0.5f + 0.5f * sinf(gs->mode_time * 3.0f);
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x05070C90, LAYER_HUD);
    text_centered(pf, "NEON SWARM", cx, y, 104, UI_ACCENT);
    text_centered(pf, "a twin-stick arena shooter", cx, y + 120, 24, UI_DIM);
    uint32_t prompt = (UI_TEXT & 0xFFFFFF00u) | (uint32_t)(120 + 135 * pulse);
    text_centered(pf, "press ENTER or START", cx, y + 220, 32, prompt);
    text_centered(pf, "move  WASD / left stick      aim  mouse / arrows / right stick", cx, y + 300, 18, UI_DIM);
    text_centered(pf, "fire  hold mouse / arrows / right stick      dash  SPACE / A", cx, y + 326, 18, UI_DIM);
    text_centered(pf, "F10 lets the autopilot play      F1 engine overlay", cx, y + 352, 18, UI_DIM);
    if (gs->best_score > 0) {
        char s[64];
        snprintf(s, sizeof s, "best %d", gs->best_score);
        text_centered(pf, s, cx, y + 410, 24, UI_TEXT);
    }
}

static void gameover_draw(GameState *gs, const PlatformAPI *pf)
{
    float cx = pf->view_width / 2.0f, y = 190;
    float t = th_clampf(gs->mode_time * 2, 0, 1);
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, (0x05070C00u | (uint32_t)(170 * t)), LAYER_HUD);
    text_centered(pf, "GAME OVER", cx, y, 88 * th_ease_out_back(t), UI_WARN);
    char s[96];
    snprintf(s, sizeof s, "score %d     wave %d", gs->score, gs->wave);
    text_centered(pf, s, cx, y + 130, 32, UI_TEXT);
    snprintf(s, sizeof s, gs->score >= gs->best_score && gs->score > 0 ? "NEW BEST!" : "best %d", gs->best_score);
    text_centered(pf, s, cx, y + 180, 26, gs->score >= gs->best_score ? UI_ACCENT : UI_DIM);
    if (gs->mode_time > 0.8f) text_centered(pf, "press ENTER or START to play again", cx, y + 260, 26, UI_TEXT);
}
