/* sound_mixer - the host's mixer: sounds on two buses under a master, with pan, pitch and loops.

   The music loops on the music bus (M toggles it; the handle is kept in the state, and the mixer plays on
   through reloads). Keys 1-5 play effects with the pan (Left/Right) and pitch (Up/Down) shown; the demo
   sweep (D toggles) plays a gem across the stereo field, climbing in pitch. Z/X and C/V turn the music
   and effects buses down/up, B/N the master. Each dot is one play: across = pan, up = pitch.
   Live edit: DEMO_EVERY, the SOUNDS table. */
#include "game_engine.h"

static constexpr auto DEMO_EVERY = TWEAK(12);       /* steps between the demo's plays */
static constexpr auto DOT = TWEAK_COLOR(0x60E0FF);

static const struct { const char *name; uint32_t color; } SOUNDS[] = {
    { "player/shot", 0x60E0FFFF }, { "enemy/explode", 0xFF7050FF }, { "pickup/gem", 0x70FF90FF },
    { "player/hurt", 0xFF50A0FF }, { "player/dash", 0xFFD060FF },
};
enum { SOUND_COUNT = sizeof SOUNDS / sizeof SOUNDS[0], DEMO_SOUND = 2 };
static const char *const BUS_NAMES[3] = { "master", "music", "effects" };

static void play(GameState *gs, int sound, float pan, float pitch, const PlatformAPI *pf)
{
    GameSoundPlay how;
    memset(&how, 0, sizeof how);
    how.volume = 0.8f;
    how.pan = pan;
    how.pitch = pitch;
    how.bus = SOUND_BUS_EFFECTS;
    how.max_instances = 6;
    pf->sound_play(game_sound_id(SOUNDS[sound].name), &how);
    Played *p = &gs->recent[gs->recent_next];
    gs->recent_next = (gs->recent_next + 1) % RECENT;
    p->step = gs->steps; p->sound = sound; p->pan = pan; p->pitch = pitch;
}

static void mixer_apply(GameState *gs, const PlatformAPI *pf)
{
    for (int b = 0; b < 3; b++) pf->sound_bus(b, gs->bus_volume[b], 0.1f);
    if (gs->music_on && !pf->sound_playing(gs->music)) {
        GameSoundPlay how;
        memset(&how, 0, sizeof how);
        how.volume = 0.7f; how.bus = SOUND_BUS_MUSIC; how.fade_in = 1.0f; how.flags = SOUND_LOOP | SOUND_UNIQUE;
        gs->music = pf->sound_play(game_sound_id("music/loop"), &how);
    } else if (!gs->music_on && gs->music) { pf->sound_stop(gs->music, 0.5f); gs->music = 0; }
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("sound_mixer");
    for (int i = 0; i < SOUND_COUNT; i++) pf->sound_name(SOUNDS[i].name);   /* a missing file is named at once */
    pf->sound_name("music/loop");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) { *gs = GameState(); gs->initialized = 1; }   /* the block starts zeroed */
    mixer_apply(gs, pf);
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    gs->pan = th_clampf(gs->pan + (in->down[KEY_RIGHT] - in->down[KEY_LEFT]) * in->dt, -1, 1);
    gs->pitch = th_clampf(gs->pitch + (in->down[KEY_UP] - in->down[KEY_DOWN]) * in->dt, 0.5f, 2);
    for (int i = 0; i < SOUND_COUNT; i++) if (in->pressed[KEY_1 + i]) play(gs, i, gs->pan, gs->pitch, pf);
    static const GameKey down_keys[3] = { KEY_B, KEY_Z, KEY_C }, up_keys[3] = { KEY_N, KEY_X, KEY_V };
    int changed = 0;
    for (int b = 0; b < 3; b++) {
        float d = (in->pressed[up_keys[b]] - in->pressed[down_keys[b]]) * 0.1f;
        if (d != 0) { gs->bus_volume[b] = th_clampf(gs->bus_volume[b] + d, 0, 1); changed = 1; }
    }
    if (in->pressed[KEY_M]) { gs->music_on = !gs->music_on; changed = 1; }
    if (in->pressed[KEY_D]) gs->demo_on = !gs->demo_on;
    if (changed) mixer_apply(gs, pf);
    int every = DEMO_EVERY < 1 ? 1 : DEMO_EVERY;
    if (gs->demo_on && gs->steps % (uint64_t)every == 0) {
        float k = (float)((gs->steps / (uint64_t)every) % 16) / 15.0f;           /* 0..1 across a sweep */
        play(gs, DEMO_SOUND, -1 + 2 * k, 0.6f + 1.2f * k, pf);
    }
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x101216FF, 0);
    pf->draw_text("sound_mixer", 24, 18, 32, 0xFFFFFFFF, 5);
    pf->draw_text("1-5 play with pan (Left/Right) and pitch (Up/Down)  -  M music loop, D demo sweep  -  buses: B/N master, Z/X music, C/V effects",
                  24, 58, 14, 0xA8B4C8FF, 5);
    const float fx = 80, fy = 120, fw = 760, fh = 500;               /* the stereo field: x = pan, y = pitch */
    pf->draw_rect(fx, fy, fw, fh, 0x181C24FF, 1);
    pf->draw_rect(fx + fw / 2, fy, 1, fh, 0x303848FF, 2);
    pf->draw_text("left", fx, fy + fh + 6, 14, 0x8890A0FF, 2);
    pf->draw_text("right", fx + fw - 34, fy + fh + 6, 14, 0x8890A0FF, 2);
    pf->draw_text("pitch 2", fx + 6, fy + 6, 14, 0x8890A0FF, 2);
    pf->draw_text("pitch 0.5", fx + 6, fy + fh - 22, 14, 0x8890A0FF, 2);
    for (int i = 0; i < RECENT; i++) {
        const Played *p = &gs->recent[i];
        if (!p->step) continue;
        float age = (float)(gs->steps - p->step) / 60.0f, fade = th_clampf(1 - age / 2.0f, 0.15f, 1);
        float x = fx + (p->pan + 1) / 2 * fw, y = fy + fh - (p->pitch - 0.5f) / 1.5f * fh, r = 10 + 14 * fade;
        uint32_t c = p->sound == DEMO_SOUND ? (uint32_t)DOT : SOUNDS[p->sound].color;
        pf->draw_rect(x - r / 2, y - r / 2, r, r, (c & 0xFFFFFF00u) | (uint32_t)(255 * fade), 3);
    }
    float cx = fx + (gs->pan + 1) / 2 * fw, cy = fy + fh - (gs->pitch - 0.5f) / 1.5f * fh;   /* the keys' setting */
    pf->draw_rect(cx - 14, cy - 1, 28, 2, 0xFFFFFFFF, 4);
    pf->draw_rect(cx - 1, cy - 14, 2, 28, 0xFFFFFFFF, 4);
    char text[96];
    for (int b = 0; b < 3; b++) {                                    /* the buses */
        float x = 900 + b * 120, h = 360 * gs->bus_volume[b];
        pf->draw_rect(x, 160, 60, 360, 0x181C24FF, 1);
        pf->draw_rect(x, 520 - h, 60, h, b == 1 ? 0xB080F0FF : b == 2 ? 0x60E0FFFF : 0xF0F0F0FF, 2);
        snprintf(text, sizeof text, "%s\n%.0f %%", BUS_NAMES[b], (double)(gs->bus_volume[b] * 100));
        pf->draw_text(text, x, 530, 16, 0xC0C8D8FF, 2);
    }
    snprintf(text, sizeof text, "pan %+.2f   pitch %.2f   music %s   demo %s", (double)gs->pan, (double)gs->pitch,
             gs->music_on ? "on (loop, music bus)" : "off", gs->demo_on ? "on" : "off");
    pf->draw_text(text, 24, (float)pf->view_height - 40, 16, 0xFFD070FF, 5);
    for (int i = 0; i < SOUND_COUNT; i++) {
        snprintf(text, sizeof text, "%d  %s", i + 1, SOUNDS[i].name);
        pf->draw_text(text, 900 + (i % 3) * 120, 600 + (i / 3) * 22, 14, SOUNDS[i].color, 5);
    }
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"music\":%u", (unsigned long long)gs->steps, gs->music);
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
