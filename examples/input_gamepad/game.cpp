/* input_gamepad - what GameInput holds for one fixed step: keys, mouse, gamepad, drawn as they are.

   The ship moves with WASD, the arrows, the left stick or the d-pad, and turns toward the mouse or the
   right stick. Every key and axis the panels show is read from GameInput, which is plain data: the
   host records it. F7 starts a loop (the state is copied and every step's input kept), F7 again replays
   those steps over and over from the copy (watch the step counter rewind), F7 a third time returns to
   live play. Live edit: ACCEL, DRAG, the panel colours. */
#include "game_engine.h"

static constexpr auto ACCEL = TWEAK(2200.0f);      /* pixels per second squared at full stick */
static constexpr auto DRAG = TWEAK(5.0f);          /* per second */
static constexpr auto KEY_ON = TWEAK_COLOR(0xFFC040);
static constexpr auto KEY_OFF = TWEAK_COLOR(0x2A3040);

/* render() gets no GameInput: update leaves the step's input here for the panels. A library global, not
   state: it is refilled every step, and a reload (which resets it) is followed by a step before a render. */
static GameInput g_last;

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("input_gamepad");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) {
        gs->ship = v2_make(640, 420);
        for (int i = 0; i < TRAIL; i++) gs->trail[i] = gs->ship;
        gs->initialized = 1;
    }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    g_last = *in;
    gs->steps++;
    v2 move = v2_make((float)(in->down[KEY_D] + in->down[KEY_RIGHT] + in->down[KEY_PAD_RIGHT] - in->down[KEY_A] - in->down[KEY_LEFT] - in->down[KEY_PAD_LEFT]),
                      (float)(in->down[KEY_S] + in->down[KEY_DOWN] + in->down[KEY_PAD_DOWN] - in->down[KEY_W] - in->down[KEY_UP] - in->down[KEY_PAD_UP]));
    move = v2_add(move, v2_make(in->axis[AXIS_LEFT_X], in->axis[AXIS_LEFT_Y]));
    if (v2_len(move) > 1) move = v2_norm(move);
    gs->ship_vel = v2_add(gs->ship_vel, v2_scale(move, ACCEL * in->dt));
    gs->ship_vel = v2_scale(gs->ship_vel, 1.0f / (1.0f + DRAG * in->dt));
    gs->ship = v2_add(gs->ship, v2_scale(gs->ship_vel, in->dt));
    gs->ship.x = th_clampf(gs->ship.x, 40, (float)pf->view_width - 40);
    gs->ship.y = th_clampf(gs->ship.y, 300, (float)pf->view_height - 60);
    v2 look = v2_make(in->axis[AXIS_RIGHT_X], in->axis[AXIS_RIGHT_Y]);
    if (v2_len2(look) < 0.1f && (in->mouse_x != 0 || in->mouse_y != 0)) look = v2_sub(v2_make(in->mouse_x, in->mouse_y), gs->ship);
    if (v2_len2(look) > 0.1f) gs->ship_angle = atan2f(look.y, look.x);
    if (gs->steps % 3 == 0) { gs->trail[gs->trail_next] = gs->ship; gs->trail_next = (gs->trail_next + 1) % TRAIL; }
    gs->wheel_total += in->wheel;
    gs->clicks += in->pressed[KEY_MOUSE_LEFT] + in->pressed[KEY_MOUSE_RIGHT] + in->pressed[KEY_MOUSE_MIDDLE];
}

/* ---------------------------------------------------------------- the panels */
static void key_cap(const PlatformAPI *pf, const char *label, float x, float y, float w, int down)
{
    pf->draw_rect(x, y, w, 40, down ? (uint32_t)KEY_ON : (uint32_t)KEY_OFF, GAME_LAYER_UI);
    float tw, th;
    pf->measure_text(label, 16, &tw, &th);
    pf->draw_text(label, x + (w - tw) / 2, y + 10, 16, down ? 0x101010FF : 0xC0C8D8FF, GAME_LAYER_UI + 1);
}

static void stick(const PlatformAPI *pf, const char *label, float cx, float cy, float ax, float ay)
{
    pf->draw_rect(cx - 40, cy - 40, 80, 80, KEY_OFF, GAME_LAYER_UI);
    pf->draw_rect(cx - 1, cy - 40, 2, 80, 0x404858FF, GAME_LAYER_UI + 1);
    pf->draw_rect(cx - 40, cy - 1, 80, 2, 0x404858FF, GAME_LAYER_UI + 1);
    pf->draw_rect(cx + ax * 34 - 7, cy + ay * 34 - 7, 14, 14, KEY_ON, GAME_LAYER_UI + 2);
    pf->draw_text(label, cx - 40, cy + 46, 14, 0x8890A0FF, GAME_LAYER_UI);
}

static void panel(const PlatformAPI *pf, const char *title, float x, float w)
{
    pf->draw_rect(x, 90, w, 200, 0x161A24FF, GAME_LAYER_UI - 1);
    pf->draw_text(title, x + 12, 98, 16, 0xFFFFFFFF, GAME_LAYER_UI);
}

static void panels_draw(const PlatformAPI *pf)
{
    const GameInput *in = &g_last;
    panel(pf, "keyboard", 24, 400);
    key_cap(pf, "W", 84, 130, 48, in->down[KEY_W]);
    key_cap(pf, "A", 32, 176, 48, in->down[KEY_A]);
    key_cap(pf, "S", 84, 176, 48, in->down[KEY_S]);
    key_cap(pf, "D", 136, 176, 48, in->down[KEY_D]);
    key_cap(pf, "Up", 292, 130, 56, in->down[KEY_UP]);
    key_cap(pf, "Left", 232, 176, 56, in->down[KEY_LEFT]);
    key_cap(pf, "Down", 292, 176, 56, in->down[KEY_DOWN]);
    key_cap(pf, "Right", 352, 176, 64, in->down[KEY_RIGHT]);
    key_cap(pf, "Shift", 32, 232, 80, in->down[KEY_LSHIFT] || in->down[KEY_RSHIFT]);
    key_cap(pf, "Space", 120, 232, 200, in->down[KEY_SPACE]);
    key_cap(pf, "Enter", 328, 232, 88, in->down[KEY_ENTER]);
    panel(pf, "mouse", 440, 260);
    key_cap(pf, "L", 456, 130, 60, in->down[KEY_MOUSE_LEFT]);
    key_cap(pf, "M", 522, 130, 60, in->down[KEY_MOUSE_MIDDLE]);
    key_cap(pf, "R", 588, 130, 60, in->down[KEY_MOUSE_RIGHT]);
    char text[96];
    snprintf(text, sizeof text, "x %.0f  y %.0f\nwheel %+.0f this step", (double)in->mouse_x, (double)in->mouse_y, (double)in->wheel);
    pf->draw_text(text, 456, 190, 16, 0xC0C8D8FF, GAME_LAYER_UI);
    panel(pf, in->gamepad_connected ? "gamepad (connected)" : "gamepad (none: scripted axes still show)", 716, 540);
    stick(pf, "left", 776, 180, in->axis[AXIS_LEFT_X], in->axis[AXIS_LEFT_Y]);
    stick(pf, "right", 886, 180, in->axis[AXIS_RIGHT_X], in->axis[AXIS_RIGHT_Y]);
    pf->draw_rect(948, 140, 16, 80, KEY_OFF, GAME_LAYER_UI);
    pf->draw_rect(948, 220 - 80 * in->axis[AXIS_TRIGGER_LEFT], 16, 80 * in->axis[AXIS_TRIGGER_LEFT], KEY_ON, GAME_LAYER_UI + 1);
    pf->draw_rect(972, 140, 16, 80, KEY_OFF, GAME_LAYER_UI);
    pf->draw_rect(972, 220 - 80 * in->axis[AXIS_TRIGGER_RIGHT], 16, 80 * in->axis[AXIS_TRIGGER_RIGHT], KEY_ON, GAME_LAYER_UI + 1);
    pf->draw_text("LT RT", 946, 226, 12, 0x8890A0FF, GAME_LAYER_UI);
    key_cap(pf, "Y", 1100, 130, 40, in->down[KEY_PAD_Y]);
    key_cap(pf, "X", 1056, 176, 40, in->down[KEY_PAD_X]);
    key_cap(pf, "B", 1144, 176, 40, in->down[KEY_PAD_B]);
    key_cap(pf, "A", 1100, 222, 40, in->down[KEY_PAD_A]);
    key_cap(pf, "LB", 1000, 130, 44, in->down[KEY_PAD_LB]);
    key_cap(pf, "RB", 1196, 130, 44, in->down[KEY_PAD_RB]);
    key_cap(pf, "Back", 1000, 240, 44, in->down[KEY_PAD_BACK]);
    key_cap(pf, "Start", 1196, 240, 52, in->down[KEY_PAD_START]);
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x0C0E14FF, 0);
    for (int i = 0; i < TRAIL; i++) {                                      /* the trail, oldest faintest */
        int age = (int)((gs->trail_next + TRAIL - 1 - i) % TRAIL);
        uint32_t a = (uint32_t)(200 - age * 3);
        pf->draw_rect(gs->trail[i].x - 3, gs->trail[i].y - 3, 6, 6, 0x40A0FF00u | a, 1);
    }
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.sprite = game_sprite_id("player/ship");
    s.color = 0xFFFFFFFF;
    s.x = gs->ship.x; s.y = gs->ship.y;
    s.scale_x = s.scale_y = 1.2f;
    s.rotation = gs->ship_angle;
    s.origin_x = s.origin_y = 0.5f;
    s.layer = 2;
    pf->draw_sprite(&s);
    float tw, th;                                                    /* top right: the host shows F7's state top left */
    pf->measure_text("input_gamepad", 32, &tw, &th);
    pf->draw_text("input_gamepad", (float)pf->view_width - tw - 24, 18, 32, 0xFFFFFFFF, GAME_LAYER_UI);
    pf->draw_text("keys, mouse and pad from GameInput  -  move: WASD / arrows / stick / d-pad, aim: mouse / right stick",
                  24, 58, 16, 0xA8B4C8FF, GAME_LAYER_UI);
    char text[160];
    snprintf(text, sizeof text, "step %llu   wheel %.0f   clicks %u", (unsigned long long)gs->steps, (double)gs->wheel_total, gs->clicks);
    pf->draw_text(text, 24, (float)pf->view_height - 64, 16, 0xFFD070FF, GAME_LAYER_UI);
    pf->draw_text("F7 records a loop, F7 again replays it from the same state (the step counter rewinds), F7 once more: live",
                  24, (float)pf->view_height - 36, 16, 0x80C0FFFF, GAME_LAYER_UI);
    panels_draw(pf);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"ship_x\":%.1f,\"ship_y\":%.1f", (unsigned long long)gs->steps,
                    (double)gs->ship.x, (double)gs->ship.y);
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
