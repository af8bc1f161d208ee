/* audio.cpp - the audio device and the mixer behind the PlatformAPI sound services.

   Device: SDL's default output, stereo float, 48 kHz asked (whatever rate SDL gives is used).
           No device (no driver, no card) -> logged once, and the mixer runs on the main thread
           into a scratch buffer at the wall clock's pace: handles, voice lifetimes and cooldowns
           behave the same, nothing is heard.
   Mixer:  tinyheaders/th_mixer.h. The audio callback only calls thm_mix: no allocation, no lock;
           the main thread's calls reach it through the mixer's command ring. It lives in the host,
           so sounds play on across a library reload, a rollback and a state restart.
   Sounds: sound_assets.cpp decodes files and hands the samples here (audio_set_sound); a replaced
           buffer is freed once the mixer says the callback can no longer read it. */
#include <SDL.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "services.h"
#define TH_MIXER_IMPLEMENTATION
#include "th_mixer.h"

static struct {
    thm_mixer         mixer;           /* large: a static, never on a stack */
    SDL_AudioDeviceID device;          /* 0 = no device: the main thread mixes into scratch */
    int               started;
    double            silent_clock;    /* no device: seconds already mixed */
    float             scratch[2 * 4096];
    uint32_t          unknown_reported[64];
    int               unknown_count;
} g_audio;

static void audio_callback(void *user, Uint8 *stream, int len)
{
    (void)user;
    profile_audio_begin();
    thm_mix(&g_audio.mixer, (float *)(void *)stream, (uint32_t)len / (2 * sizeof(float)));
    profile_audio_end();
}

/* The volumes the game set, kept across a hot restart (a slice of the session, core.h): a restarted process
   plays at them from its first frame. */
typedef struct KeptBuses { float volume[3]; int set[3]; } KeptBuses;

static int mixer_bus(int bus)
{
    return bus == SOUND_BUS_MUSIC ? THM_BUS_MUSIC : bus == SOUND_BUS_EFFECTS ? THM_BUS_EFFECTS : THM_BUS_MASTER;
}

static void resume_buses(void)
{
    if (!session_slice_kept("audio.buses")) return;
    const KeptBuses *kept = (const KeptBuses *)session_slice("audio.buses", sizeof(KeptBuses));
    for (int bus = 0; bus < 3; bus++)
        if (kept->set[bus]) thm_bus(&g_audio.mixer, mixer_bus(bus), kept->volume[bus], 0);
}

int audio_init(void)
{
    thm_init(&g_audio.mixer, 48000);
    resume_buses();
    g_audio.started = 1;
    g_audio.silent_clock = log_time();
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
        log_message(LOG_WARN, "audio: no audio driver (%s): the game runs silent", SDL_GetError());
        log_event("audio", "\"device\":false,\"rate\":48000");
        return 0;
    }
    SDL_AudioSpec want, have;
    memset(&want, 0, sizeof want);
    want.freq = 48000;
    want.format = AUDIO_F32SYS;
    want.channels = 2;
    want.samples = 512;   /* ~10.7 ms per callback */
    want.callback = audio_callback;
    g_audio.device = SDL_OpenAudioDevice(NULL, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE);
    if (!g_audio.device) {
        log_message(LOG_WARN, "audio: no audio device (%s): the game runs silent", SDL_GetError());
        log_event("audio", "\"device\":false,\"rate\":48000");
        return 0;
    }
    thm_init(&g_audio.mixer, (uint32_t)have.freq);
    resume_buses();
    const char *driver = SDL_GetCurrentAudioDriver();
    log_message(LOG_INFO, "audio: %s, %d Hz, %d frames per callback", driver ? driver : "?", have.freq, have.samples);
    log_event("audio", "\"device\":true,\"driver\":\"%s\",\"rate\":%d,\"buffer\":%d", driver ? driver : "?", have.freq,
              have.samples);
    SDL_PauseAudioDevice(g_audio.device, 0);
    return 1;
}

void audio_update(void)
{
    if (!g_audio.started) return;
    if (!g_audio.device) {   /* keep the silent mixer's clock with the wall clock */
        double now = log_time();
        double frames = (now - g_audio.silent_clock) * g_audio.mixer.rate;
        if (frames > 4096) { frames = 4096; g_audio.silent_clock = now; }
        else g_audio.silent_clock += floor(frames) / g_audio.mixer.rate;
        PROFILE_ZONE("audio mix");
        if (frames >= 1) thm_mix(&g_audio.mixer, g_audio.scratch, (uint32_t)frames);
    }
    const float *old;
    while ((old = thm_reclaim(&g_audio.mixer))) free((void *)old);
}

/* How the run's mix fared, once at the end: the loudest sample before the limiter and the frames it had to
   turn down (a mix with headroom: 0). tests/e2e/test_mix.py reads it beside the disk driver's output. */
static void audio_log_levels(void)
{
    float peak = 0;
    uint64_t limited = 0;
    thm_levels(&g_audio.mixer, &peak, &limited);
    log_event("audio_levels", "\"frames\":%llu,\"peak_before_limiter\":%.4f,\"limited_frames\":%llu",
              (unsigned long long)thm_frames_done(&g_audio.mixer), peak, (unsigned long long)limited);
}

void audio_shutdown(void)
{
    if (g_audio.device) SDL_CloseAudioDevice(g_audio.device);   /* waits for the callback to return */
    g_audio.device = 0;
    if (g_audio.started) audio_log_levels();
    const float *old;
    while ((old = thm_reclaim(&g_audio.mixer))) free((void *)old);
    for (int i = 0; i < THM_MAX_SOUNDS; i++) free((void *)g_audio.mixer.ctl_sound[i].samples);
    g_audio.started = 0;
}

int audio_set_sound(int slot, float *samples, uint32_t frames, uint32_t channels, uint32_t rate)
{
    thm_sound_data d = { samples, frames, channels, rate };
    for (int attempt = 0; attempt < 2; attempt++) {
        if (thm_set_sound(&g_audio.mixer, (uint32_t)slot, &d)) return 1;
        audio_update();   /* queue or retire list full: let finished replacements go first */
    }
    free(samples);
    return 0;
}

uint64_t audio_frames_done(void) { return thm_frames_done(&g_audio.mixer); }
int      audio_rate(void) { return (int)g_audio.mixer.rate; }
int      audio_voices_busy(void) { return thm_voices_busy(&g_audio.mixer); }

/* ---------------------------------------------------------------- PlatformAPI sound services */
static PLATFORM_SOUND_PLAY(api_sound_play)
{
    int slot = sound_slot_of(sound_id);
    if (slot < 0) {
        for (int i = 0; i < g_audio.unknown_count; i++) if (g_audio.unknown_reported[i] == sound_id) return 0;
        if (g_audio.unknown_count < 64) g_audio.unknown_reported[g_audio.unknown_count++] = sound_id;
        log_message(LOG_WARN,
                    "sound: id %08x is no sound the host knows (name it with sound_name() to get the file reported)",
                    sound_id);
        return 0;
    }
    thm_play_params p;
    memset(&p, 0, sizeof p);
    if (how) {
        p.volume = how->volume;
        p.pan = how->pan;
        p.pitch = how->pitch;
        p.fade_in_s = how->fade_in;
        p.cooldown_s = how->cooldown;
        p.bus = how->bus == SOUND_BUS_MUSIC ? THM_BUS_MUSIC : THM_BUS_EFFECTS;
        p.priority = how->priority;
        p.max_instances = how->max_instances;
        p.loop = (how->flags & SOUND_LOOP) != 0;
        p.unique = (how->flags & SOUND_UNIQUE) != 0;
    }
    uint32_t h = thm_play(&g_audio.mixer, (uint32_t)slot, &p, log_time());
    if (h && g_audio.mixer.last_play_started)
        log_event("sound_play", "\"name\":\"%s\",\"handle\":%u,\"audio_frame\":%llu", sound_slot_name(slot), h,
                  (unsigned long long)audio_frames_done());
    return h;
}
static PLATFORM_SOUND_STOP(api_sound_stop) { thm_stop(&g_audio.mixer, handle, fade_s); }
static PLATFORM_SOUND_SET(api_sound_set) { thm_set(&g_audio.mixer, handle, volume, pan, pitch); }
static PLATFORM_SOUND_PLAYING(api_sound_playing) { return thm_playing(&g_audio.mixer, handle); }
static PLATFORM_SOUND_BUS(api_sound_bus)
{
    if (bus >= 0 && bus < 3) {
        KeptBuses *kept = (KeptBuses *)session_slice("audio.buses", sizeof(KeptBuses));
        kept->volume[bus] = volume;
        kept->set[bus] = 1;
    }
    thm_bus(&g_audio.mixer, mixer_bus(bus), volume, fade_s);
}

static PLATFORM_SOUND_NAME(api_sound_name) { sound_require(sound_name); }

void audio_fill_api(PlatformAPI *pf)
{
    pf->sound_play = api_sound_play;
    pf->sound_stop = api_sound_stop;
    pf->sound_set = api_sound_set;
    pf->sound_playing = api_sound_playing;
    pf->sound_bus = api_sound_bus;
    pf->sound_name = api_sound_name;
}
