/* sound.cpp - what NEON SWARM sounds like: one table of sounds and one call at each event site.

   sfx(gs, SND_EXPLODE, pos) only notes the event; sound_flush() plays the step's events at its end
   through the host's mixer, panned and attenuated by where they happen relative to the camera. A
   swarm stays pleasant because every sound has a cooldown (the same sound again sooner is dropped),
   a cap on how many copies ring at once (the oldest copy gives way) and a priority (when all the
   host's voices are busy, the player's own sounds win over the swarm's). The music loop's handle is a
   library global, not state: it is the mixer's answer, and a replay of recorded steps (the F8 timeline) must give
   the same state whatever the mixer plays now. After a reload it is 0, and the unique loop's play hands back the
   voice still playing.
   The sounds themselves are assets/sfx/<name>.sfx parameter files: edit one and save to hear it. */
#include "game.h"

/* name, volume, priority, cooldown s, max copies, pitch wobble (fraction); one row per SoundName (game.h), in its order */
#define SOUND_LIST(X) \
    X(SHOT,        "player/shot",       0.15f, 120, 0.09f,  2, 0.14f) \
    X(DASH,        "player/dash",       0.55f, 200, 0.10f,  1, 0.00f) \
    X(HURT,        "player/hurt",       0.62f, 240, 0.10f,  1, 0.00f) \
    X(HIT,         "enemy/hit",         0.18f,  40, 0.035f, 3, 0.12f) \
    X(EXPLODE,     "enemy/explode",     0.26f, 100, 0.05f,  4, 0.15f) \
    X(EXPLODE_BIG, "enemy/explode_big", 0.45f, 180, 0.10f,  2, 0.05f) \
    X(ENEMY_SHOOT, "enemy/shoot",       0.19f,  60, 0.08f,  3, 0.10f) \
    X(SPAWN,       "enemy/spawn",       0.15f,  20, 0.10f,  2, 0.10f) \
    X(CHARGE,      "enemy/charge",      0.25f,  70, 0.15f,  2, 0.05f) \
    X(GEM,         "pickup/gem",        0.24f, 150, 0.08f,  2, 0.03f) \
    X(HEALTH,      "pickup/health",     0.42f, 200, 0.10f,  1, 0.00f) \
    X(START,       "ui/start",          0.45f, 250, 0.30f,  1, 0.00f) \
    X(WAVE_START,  "ui/wave_start",     0.38f, 230, 0.50f,  1, 0.00f) \
    X(GAME_OVER,   "ui/game_over",      0.65f, 250, 1.00f,  1, 0.00f) \
    X(MUSIC,       "music/loop",        0.34f, 255, 0.00f,  1, 0.00f) \
    X(DODGE,       "enemy/dodge",       0.16f,  50, 0.12f,  2, 0.10f) \
    X(SNAKE,       "enemy/snake",       0.30f, 120, 0.40f,  1, 0.05f) \
    X(SPLIT,       "enemy/split",       0.24f,  90, 0.08f,  2, 0.10f) \
    X(WELL,        "enemy/well",        0.36f, 160, 0.50f,  1, 0.03f) \
    X(WELL_BURST,  "enemy/well_burst",  0.50f, 200, 0.20f,  1, 0.05f)

static constexpr float SOUND_HEAR_RADIUS = 1300.0f;  /* beyond this from the camera centre: quietest */
static constexpr float SOUND_FAR_VOLUME  = 0.3f;     /* the quietest an event is */
static constexpr float SOUND_PAN_WIDTH   = 0.8f;     /* |pan| at the edge of the screen */
static constexpr float MUSIC_FADE_IN     = 1.5f;
static constexpr float MUSIC_FADE_OUT    = 2.0f;

static constexpr struct { int id; const char *name; float volume; uint8_t priority; float cooldown; uint16_t max_instances; float wobble; } SOUNDS[SND_COUNT] = {
#define SOUND_ROW(id, name, vol, prio, cool, maxn, wob) { SND_##id, name, vol, prio, cool, maxn, wob },
    SOUND_LIST(SOUND_ROW)
};
static constexpr bool sounds_in_order(int i) { return i == SND_COUNT || (SOUNDS[i].id == i && sounds_in_order(i + 1)); }
static_assert(sounds_in_order(0), "SOUND_LIST has a row for every SoundName in game.h, in the same order");
static uint32_t g_sound_ids[SND_COUNT];   /* library globals: refilled by every load */
static uint32_t g_music;                  /* the music loop's voice (0: none); asked for again after a load */

/* This step's sound events: library globals, emptied by sound_flush at the end of every update. */
static struct { uint32_t sound; v2 pos; int positional; } g_sound_events[64];
static uint32_t g_sound_event_count;

static void sfx_at(uint32_t sound, v2 pos, int positional)
{
    for (uint32_t i = 0; i < g_sound_event_count; i++)
        if (g_sound_events[i].sound == sound) return;   /* once per step is enough */
    if (g_sound_event_count < 64) g_sound_events[g_sound_event_count++] = { sound, pos, positional };
}
void sfx(GameState *gs, SoundName s, v2 pos) { (void)gs; sfx_at((uint32_t)s, pos, 1); }
void sfx_ui(SoundName s) { sfx_at((uint32_t)s, v2_make(0, 0), 0); }

void sound_load(const PlatformAPI *pf)
{
    for (int i = 0; i < SND_COUNT; i++) {
        g_sound_ids[i] = game_sound_id(SOUNDS[i].name);
        pf->sound_name(SOUNDS[i].name);   /* the host reports a missing file by name */
    }
    g_sound_event_count = 0;
}

void sound_flush(GameState *gs, const PlatformAPI *pf)
{
    for (uint32_t i = 0; i < g_sound_event_count; i++) {
        uint32_t s = g_sound_events[i].sound;
        GameSoundPlay p;
        memset(&p, 0, sizeof p);
        p.volume = SOUNDS[s].volume;
        p.priority = SOUNDS[s].priority;
        p.cooldown = SOUNDS[s].cooldown;
        p.max_instances = SOUNDS[s].max_instances;
        p.bus = SOUND_BUS_EFFECTS;
        /* pitch wobble from a hash of the step, not from gs->rng: sound never changes the game */
        uint32_t h = (uint32_t)(gs->steps * 2654435761u) ^ (s * 40503u);
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        p.pitch = 1.0f + SOUNDS[s].wobble * ((float)(h & 0xFFFF) / 32768.0f - 1.0f);
        if (g_sound_events[i].positional) {
            v2 d = v2_sub(g_sound_events[i].pos, gs->cam);
            float far = th_clampf(v2_len(d) / SOUND_HEAR_RADIUS, 0, 1);
            p.volume *= 1.0f - (1.0f - SOUND_FAR_VOLUME) * far;
            p.pan = th_clampf(d.x / (pf->view_width * 0.5f), -1, 1) * SOUND_PAN_WIDTH;
        }
        pf->sound_play(g_sound_ids[s], &p);
    }
    g_sound_event_count = 0;

    /* the music plays on the title and during a run, and fades out when a run ends */
    if (gs->mode == MODE_PLAY || gs->mode == MODE_TITLE) {
        if (!pf->sound_playing(g_music)) {
            GameSoundPlay p;
            memset(&p, 0, sizeof p);
            p.volume = SOUNDS[SND_MUSIC].volume;
            p.priority = SOUNDS[SND_MUSIC].priority;
            p.bus = SOUND_BUS_MUSIC;
            p.fade_in = MUSIC_FADE_IN;
            p.flags = SOUND_LOOP | SOUND_UNIQUE;   /* a restarted state finds the loop still playing */
            g_music = pf->sound_play(g_sound_ids[SND_MUSIC], &p);
        }
    } else if (g_music) {
        pf->sound_stop(g_music, MUSIC_FADE_OUT);
        g_music = 0;
    }
}
