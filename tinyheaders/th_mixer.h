/* th_mixer.h - a software audio mixer for games: voices, buses, a lock-free command queue.

   th_mixer.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     Mixes up to THM_MAX_VOICES voices into interleaved stereo float output. Each voice plays
     one sound (mono or stereo float samples at any rate) with its own volume, pan, pitch
     (linear interpolation), looping and fades. Voices go through a bus (music, effects) and
     the master bus; a peak limiter on the master keeps a crowded mix from clipping.

     Two threads use one thm_mixer:
       - the CONTROL side (the game's main thread) calls thm_play, thm_stop, thm_set,
         thm_bus, thm_set_sound, thm_reclaim, thm_playing. It decides which voice a sound
         gets (stealing the lowest priority, oldest voice when all are busy) so it can hand
         out a handle at once.
       - the RENDER side (the audio callback) calls thm_mix. It never allocates, never locks
         and never waits: control calls reach it through a single-producer single-consumer
         ring of fixed-size commands, and it reports back through atomics.

     A handle is a uint32_t: low 8 bits voice index + 1, high 24 bits the voice's generation
     (0 is never a handle). A handle outlives its sound harmlessly: calls on a stale handle do
     nothing. Handles are plain integers, so they may live in a hot-reloaded memory block.

     Replacing a sound's samples while voices play it (a live asset reload) crossfades every
     such voice from the old samples to the new ones at the same position over THM_XFADE
     frames, so re-saving a file does not click. The same crossfade covers a stolen voice.
     The old buffer is the caller's to free once thm_reclaim hands it back (after the render
     side can no longer read it).

   USE
     #define TH_MIXER_IMPLEMENTATION in one C or C++ file before including; C99 or C++.
     Needs GCC/Clang __atomic builtins (or MSVC, x86/x64). Dependencies: <stdint.h>, <string.h>, <math.h>.

     thm_init(m, out_rate)                        zeroes the mixer (caller owns the memory)
     thm_set_sound(m, slot, &data)                install/replace sound `slot` (0..THM_MAX_SOUNDS-1)
     thm_play(m, slot, &params, now_s)            -> handle, 0 if refused (cooldown, priority, no samples)
     thm_stop(m, handle, fade_s)                  fade out and free the voice
     thm_set(m, handle, volume, pan, pitch)       new targets, ramped over one block
     thm_bus(m, bus, volume, fade_s)              THM_BUS_MASTER / MUSIC / EFFECTS
     thm_stop_all(m, fade_s)
     thm_playing(m, handle)                       1 while the voice still plays that sound
     thm_reclaim(m)                               one replaced sample buffer safe to free, or NULL
     thm_voices_busy(m), thm_frames_done(m)       voices playing; frames mixed so far
     thm_levels(m, &peak, &limited_frames)        the loudest sample before the limiter, and how many
                                                  frames were in blocks over its ceiling (0.98), i.e.
                                                  turned down by it (a mix with headroom: 0)
     thm_mix(m, out, frames)                      RENDER side: writes frames*2 floats

   PLAY PARAMETERS (zero means default)
     volume 0 -> 1 (at most THM_MAX_VOLUME), pitch 0 -> 1 (THM_MIN_PITCH..THM_MAX_PITCH), pan -1..1, bus 0 -> THM_BUS_EFFECTS, priority 0..255 (higher
     wins a voice), loop, fade_in_s, cooldown_s (refuse a play of the same slot sooner than
     this after the last one), max_instances (0 = unlimited; beyond it the oldest instance of
     that slot is stolen), unique (if that slot already plays, return its handle).

   UNTRUSTED VALUES
     Every float a caller passes (volume, pan, pitch, fade and cooldown seconds, bus volume) is
     checked: NaN takes the default (volume 1 on play, unchanged on thm_set, a bus volume is not
     changed; pan 0; pitch 1; no fade; no cooldown), infinities and out-of-range values are
     clamped (fades and cooldowns to THM_MAX_SECONDS). The render side checks each voice's and
     bus's state every block and each voice's output: a voice that produces NaN or infinity
     anyway (a sound file holding NaN samples) ends, a bus is reset to its target or 1, and no
     such sample reaches the output.

   CUSTOMIZATION
     THM_MAX_VOICES (default 64, at most 255), THM_MAX_SOUNDS (512), THM_QUEUE (1024, power
     of two), THM_XFADE (frames, 256), THM_BLOCK (frames per gain ramp, 64), THM_MAX_VOLUME (16).

   EXAMPLE (compiled by tests/unit/test_th_mixer.cpp)

     static thm_mixer mixer;
     static float tone[4800];
     thm_init(&mixer, 48000);
     for (int i = 0; i < 4800; i++) tone[i] = sinf(i * 0.05f);
     thm_sound_data sd = { tone, 4800, 1, 48000 };
     thm_set_sound(&mixer, 7, &sd);
     thm_play_params pp; memset(&pp, 0, sizeof pp);
     pp.volume = 0.5f; pp.pan = -0.3f;
     uint32_t h = thm_play(&mixer, 7, &pp, 0.0);
     float out[2 * 480];
     thm_mix(&mixer, out, 480);            // normally in the audio callback
     thm_stop(&mixer, h, 0.05f);
*/
#ifndef TH_MIXER_H
#define TH_MIXER_H

#include <stdint.h>
#include <stddef.h>

#ifndef THM_MAX_VOICES
#define THM_MAX_VOICES 64
#endif
#ifndef THM_MAX_SOUNDS
#define THM_MAX_SOUNDS 512
#endif
#ifndef THM_QUEUE
#define THM_QUEUE 1024
#endif
#ifndef THM_XFADE
#define THM_XFADE 256
#endif
#ifndef THM_BLOCK
#define THM_BLOCK 64
#endif
#ifndef THM_MAX_VOLUME
#define THM_MAX_VOLUME 16.0f        /* volumes (voice and bus) are clamped to 0..this */
#endif
#define THM_MIN_PITCH (1.0f / 64)   /* pitch is clamped to this..THM_MAX_PITCH */
#define THM_MAX_PITCH 64.0f
#define THM_MAX_SECONDS 3600.0f     /* fades and cooldowns */
#define THM_RETIRE 64

#ifdef __cplusplus
extern "C" {
#endif

enum { THM_BUS_MASTER = 0, THM_BUS_MUSIC = 1, THM_BUS_EFFECTS = 2, THM_BUS_COUNT = 3 };

typedef struct thm_sound_data {
    const float *samples;   /* interleaved when channels == 2; NULL/0 frames = silence */
    uint32_t frames;
    uint32_t channels;      /* 1 or 2 */
    uint32_t rate;          /* Hz */
} thm_sound_data;

typedef struct thm_play_params {
    float volume, pan, pitch, fade_in_s, cooldown_s;
    uint8_t bus, priority, loop, unique;
    uint16_t max_instances;
} thm_play_params;

typedef struct thm__cmd {
    uint8_t kind, voice, bus, loop;
    uint32_t gen, slot;
    float a, b, c, d;          /* volume/pan/pitch/fade, or bus volume/fade */
    thm_sound_data data;
} thm__cmd;

typedef struct thm__src { const float *data; uint32_t frames, channels; double pos, step; } thm__src;

typedef struct thm__voice {     /* render side */
    uint32_t gen, slot;
    uint8_t active, loop, bus, stopping;
    thm__src cur, prev;
    uint32_t xfade_left;
    float prev_gl, prev_gr;     /* gains the outgoing source keeps while it fades */
    float volume, pan, pitch;
    float gl, gr;               /* gains applied at the end of the last block */
    float fade, fade_target, fade_step;
} thm__voice;

typedef struct thm__ctl_voice { uint32_t gen, slot; uint64_t started; uint8_t live, priority; } thm__ctl_voice;
typedef struct thm__retired { const float *ptr; uint64_t seq, frames_free; } thm__retired;

typedef struct thm_mixer {
    /* shared */
    thm__cmd queue[THM_QUEUE];
    uint64_t q_write, q_read;                    /* atomics */
    uint32_t ended_gen[THM_MAX_VOICES];          /* atomics: render -> control, the generation that ended */
    uint64_t applied_seq, frames_done;           /* atomics: render -> control */
    uint64_t limited_frames;                     /* atomic: render -> control, frames of blocks that went over the limiter's ceiling */
    uint32_t peak_in;                            /* atomic: render -> control, the loudest sample before the limiter x 65536 */
    uint32_t rate;
    /* control side */
    thm__ctl_voice cv[THM_MAX_VOICES];
    thm_sound_data ctl_sound[THM_MAX_SOUNDS];
    double last_play[THM_MAX_SOUNDS];
    uint64_t seq, plays;
    thm__retired retired[THM_RETIRE];
    int retired_count;
    uint32_t dropped;                            /* commands lost to a full queue */
    int      last_play_started;                  /* 1 if the last thm_play started a voice (0: refused or `unique` hit) */
    /* render side */
    thm__voice v[THM_MAX_VOICES];
    thm_sound_data sound[THM_MAX_SOUNDS];
    float bus_vol[THM_BUS_COUNT], bus_target[THM_BUS_COUNT], bus_step[THM_BUS_COUNT];
    float limiter_gain;
} thm_mixer;

void     thm_init(thm_mixer *m, uint32_t out_rate);
int      thm_set_sound(thm_mixer *m, uint32_t slot, const thm_sound_data *data);  /* 0 if the queue is full */
uint32_t thm_play(thm_mixer *m, uint32_t slot, const thm_play_params *p, double now_s);
void     thm_stop(thm_mixer *m, uint32_t handle, float fade_s);
void     thm_set(thm_mixer *m, uint32_t handle, float volume, float pan, float pitch);
void     thm_bus(thm_mixer *m, int bus, float volume, float fade_s);
void     thm_stop_all(thm_mixer *m, float fade_s);
int      thm_playing(thm_mixer *m, uint32_t handle);
int      thm_voices_busy(thm_mixer *m);
uint64_t thm_frames_done(thm_mixer *m);         /* frames the render side has mixed so far */
void     thm_levels(thm_mixer *m, float *peak_before_limiter, uint64_t *limited_frames);
const float *thm_reclaim(thm_mixer *m);
void     thm_mix(thm_mixer *m, float *out, uint32_t frames);

#ifdef __cplusplus
}
#endif
#endif /* TH_MIXER_H */

/* ================================================================================================ */
#ifdef TH_MIXER_IMPLEMENTATION
#ifndef TH_MIXER_IMPLEMENTED
#define TH_MIXER_IMPLEMENTED
#include <string.h>
#include <math.h>

#if defined(_MSC_VER) && !defined(__clang__)
/* x86/x64 loads and stores of aligned 32/64-bit values are atomic and ordered; the barrier stops the compiler */
#include <intrin.h>
#define thm__load(p) (_ReadWriteBarrier(), *(p))
#define thm__store(p, v) do { _ReadWriteBarrier(); *(p) = (v); _ReadWriteBarrier(); } while (0)
#else
#define thm__load(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define thm__store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#endif

enum { THM__PLAY = 1, THM__STOP, THM__SET, THM__BUS, THM__SOUND, THM__STOP_ALL };

void thm_init(thm_mixer *m, uint32_t out_rate)
{
    memset(m, 0, sizeof *m);
    m->rate = out_rate ? out_rate : 48000;
    for (int b = 0; b < THM_BUS_COUNT; b++) m->bus_vol[b] = m->bus_target[b] = 1.0f;
    m->limiter_gain = 1.0f;
    for (int i = 0; i < THM_MAX_SOUNDS; i++) m->last_play[i] = -1e30;
}

static int thm__push(thm_mixer *m, const thm__cmd *c)
{
    uint64_t w = m->q_write, r = thm__load(&m->q_read);
    if (w - r >= THM_QUEUE) { m->dropped++; return 0; }
    m->queue[w & (THM_QUEUE - 1)] = *c;
    m->seq = w + 1;
    thm__store(&m->q_write, w + 1);
    return 1;
}

/* ---------------------------------------------------------------- control side */
/* x clamped to lo..hi; NaN gives nan_value (x != x only for NaN; infinities clamp) */
static float thm__clamp(float x, float lo, float hi, float nan_value)
{
    if (x != x) return nan_value;
    return x < lo ? lo : x > hi ? hi : x;
}

static float thm__seconds(float s) { return thm__clamp(s, 0.0f, THM_MAX_SECONDS, 0.0f); }

/* pitch 0, negative or NaN -> 1 (the default) */
static float thm__pitch(float p) { return p > 0 ? thm__clamp(p, THM_MIN_PITCH, THM_MAX_PITCH, 1.0f) : 1.0f; }
static int thm__busy(thm_mixer *m, int i)
{
    return m->cv[i].live && thm__load(&m->ended_gen[i]) != m->cv[i].gen;
}

static int thm__voice_of(thm_mixer *m, uint32_t handle)
{
    uint32_t idx = (handle & 0xFFu);
    if (idx == 0 || idx > THM_MAX_VOICES) return -1;
    idx--;
    if (m->cv[idx].gen != (handle >> 8) || !thm__busy(m, (int)idx)) return -1;
    return (int)idx;
}

int thm_set_sound(thm_mixer *m, uint32_t slot, const thm_sound_data *data)
{
    if (slot >= THM_MAX_SOUNDS || m->retired_count >= THM_RETIRE) return 0;
    thm__cmd c;
    memset(&c, 0, sizeof c);
    c.kind = THM__SOUND;
    c.slot = slot;
    if (data) c.data = *data;
    if (c.data.channels != 2) c.data.channels = 1;
    if (!c.data.samples || !c.data.rate) c.data.frames = 0;
    if (!thm__push(m, &c)) return 0;
    if (m->ctl_sound[slot].samples && m->ctl_sound[slot].samples != c.data.samples) {
        thm__retired *r = &m->retired[m->retired_count++];
        r->ptr = m->ctl_sound[slot].samples;
        r->seq = m->seq;
        r->frames_free = 0;
    }
    m->ctl_sound[slot] = c.data;
    return 1;
}

const float *thm_reclaim(thm_mixer *m)
{
    uint64_t applied = thm__load(&m->applied_seq);
    for (int i = 0; i < m->retired_count; i++) {
        thm__retired *r = &m->retired[i];
        if (applied < r->seq) continue;
        uint64_t done = thm__load(&m->frames_done);
        /* applied by a callback that ended at or before `done`: its crossfades end THM_XFADE frames later */
        if (!r->frames_free) { r->frames_free = done + THM_XFADE + 1; continue; }
        if (done < r->frames_free) continue;
        const float *p = r->ptr;
        m->retired[i] = m->retired[--m->retired_count];
        return p;
    }
    return 0;
}

uint32_t thm_play(thm_mixer *m, uint32_t slot, const thm_play_params *pp, double now_s)
{
    if (slot >= THM_MAX_SOUNDS || !m->ctl_sound[slot].frames) return 0;   /* nothing to hear (not loaded, broken) */
    thm_play_params p;
    if (pp) p = *pp; else memset(&p, 0, sizeof p);
    m->last_play_started = 0;
    if (p.unique) {
        for (int i = 0; i < THM_MAX_VOICES; i++)
            if (m->cv[i].slot == slot && thm__busy(m, i)) return (uint32_t)(i + 1) | (m->cv[i].gen << 8);
    }
    float cooldown = thm__seconds(p.cooldown_s);
    if (cooldown > 0 && now_s - m->last_play[slot] < cooldown) return 0;
    int pick = -1, same = 0, oldest_same = -1;
    for (int i = 0; i < THM_MAX_VOICES; i++) {
        if (!thm__busy(m, i)) { if (pick < 0) pick = i; continue; }
        if (m->cv[i].slot == slot) {
            same++;
            if (oldest_same < 0 || m->cv[i].started < m->cv[oldest_same].started) oldest_same = i;
        }
    }
    if (p.max_instances && same >= p.max_instances) pick = oldest_same;
    if (pick < 0) {   /* all busy: the lowest priority, then the oldest, if not above ours */
        for (int i = 0; i < THM_MAX_VOICES; i++) {
            if (m->cv[i].priority > p.priority) continue;
            if (pick < 0 || m->cv[i].priority < m->cv[pick].priority ||
                (m->cv[i].priority == m->cv[pick].priority && m->cv[i].started < m->cv[pick].started))
                pick = i;
        }
        if (pick < 0) return 0;
    }
    thm__ctl_voice *v = &m->cv[pick];
    uint32_t gen = (v->gen + 1) & 0xFFFFFFu;
    if (!gen) gen = 1;
    thm__cmd c;
    memset(&c, 0, sizeof c);
    c.kind = THM__PLAY;
    c.voice = (uint8_t)pick;
    c.gen = gen;
    c.slot = slot;
    c.a = p.volume == 0 ? 1.0f : thm__clamp(p.volume, 0.0f, THM_MAX_VOLUME, 1.0f);
    c.b = thm__clamp(p.pan, -1.0f, 1.0f, 0.0f);
    c.c = thm__pitch(p.pitch);
    c.d = thm__seconds(p.fade_in_s);
    c.bus = p.bus == THM_BUS_MUSIC ? THM_BUS_MUSIC : THM_BUS_EFFECTS;
    c.loop = p.loop ? 1 : 0;
    if (!thm__push(m, &c)) return 0;
    v->gen = gen;
    v->slot = slot;
    v->live = 1;
    v->priority = p.priority;
    v->started = ++m->plays;
    m->last_play[slot] = now_s;
    m->last_play_started = 1;
    return (uint32_t)(pick + 1) | (gen << 8);
}

void thm_stop(thm_mixer *m, uint32_t handle, float fade_s)
{
    int i = thm__voice_of(m, handle);
    if (i < 0) return;
    thm__cmd c;
    memset(&c, 0, sizeof c);
    c.kind = THM__STOP;
    c.voice = (uint8_t)i;
    c.gen = m->cv[i].gen;
    c.d = thm__seconds(fade_s);
    thm__push(m, &c);
}

void thm_set(thm_mixer *m, uint32_t handle, float volume, float pan, float pitch)
{
    int i = thm__voice_of(m, handle);
    if (i < 0) return;
    thm__cmd c;
    memset(&c, 0, sizeof c);
    c.kind = THM__SET;
    c.voice = (uint8_t)i;
    c.gen = m->cv[i].gen;
    c.a = thm__clamp(volume, 0.0f, THM_MAX_VOLUME, -1.0f);   /* -1: NaN keeps the voice's volume */
    c.b = thm__clamp(pan, -1.0f, 1.0f, 0.0f);
    c.c = thm__pitch(pitch);
    thm__push(m, &c);
}

void thm_bus(thm_mixer *m, int bus, float volume, float fade_s)
{
    if (bus < 0 || bus >= THM_BUS_COUNT) return;
    thm__cmd c;
    memset(&c, 0, sizeof c);
    c.kind = THM__BUS;
    c.bus = (uint8_t)bus;
    if (volume != volume) return;   /* NaN: no new target */
    c.a = thm__clamp(volume, 0.0f, THM_MAX_VOLUME, 1.0f);
    c.d = thm__seconds(fade_s);
    thm__push(m, &c);
}

void thm_stop_all(thm_mixer *m, float fade_s)
{
    thm__cmd c;
    memset(&c, 0, sizeof c);
    c.kind = THM__STOP_ALL;
    c.d = thm__seconds(fade_s);
    thm__push(m, &c);
}

int thm_playing(thm_mixer *m, uint32_t handle) { return thm__voice_of(m, handle) >= 0; }

uint64_t thm_frames_done(thm_mixer *m) { return thm__load(&m->frames_done); }

void thm_levels(thm_mixer *m, float *peak_before_limiter, uint64_t *limited_frames)
{
    if (peak_before_limiter) *peak_before_limiter = (float)thm__load(&m->peak_in) / 65536.0f;
    if (limited_frames) *limited_frames = thm__load(&m->limited_frames);
}

int thm_voices_busy(thm_mixer *m)
{
    int n = 0;
    for (int i = 0; i < THM_MAX_VOICES; i++) n += thm__busy(m, i);
    return n;
}

/* ---------------------------------------------------------------- render side */
#define thm__finite(x) ((x) - (x) == 0)   /* 0 for NaN and both infinities */
static void thm__end(thm_mixer *m, int i)
{
    m->v[i].active = 0;
    thm__store(&m->ended_gen[i], m->v[i].gen);
}

static void thm__src_from(thm__src *s, const thm_sound_data *d, float pitch, uint32_t rate)
{
    s->data = d->samples;
    s->frames = d->frames;
    s->channels = d->channels;
    s->step = (double)d->rate / (double)rate * pitch;
}

static void thm__fade_to(thm_mixer *m, thm__voice *v, float target, float secs)
{
    v->fade_target = target;
    float frames = secs * (float)m->rate;
    if (frames < 1) { v->fade = target; v->fade_step = 0; return; }
    v->fade_step = (target - v->fade) / frames;
}

static void thm__apply(thm_mixer *m, const thm__cmd *c)
{
    thm__voice *v = c->voice < THM_MAX_VOICES ? &m->v[c->voice] : 0;
    switch (c->kind) {
    case THM__PLAY: {
        if (!v) break;
        if (v->active && v->cur.data && v->gl >= 0) {   /* stolen: the old sound fades out under the new one */
            v->prev = v->cur;
            v->prev_gl = v->gl;
            v->prev_gr = v->gr;
            v->xfade_left = THM_XFADE;
        } else {
            v->xfade_left = 0;
        }
        v->gen = c->gen;
        v->slot = c->slot;
        v->active = 1;
        v->stopping = 0;
        v->loop = c->loop;
        v->bus = c->bus;
        v->volume = c->a;
        v->pan = c->b;
        v->pitch = c->c;
        thm__src_from(&v->cur, &m->sound[c->slot], v->pitch, m->rate);
        v->cur.pos = 0;
        v->fade = 1;
        v->fade_step = 0;
        v->fade_target = 1;
        v->gl = v->gr = -1;   /* no ramp from the last sound: start at the target gains */
        if (c->d > 0) { v->fade = 0; thm__fade_to(m, v, 1, c->d); }
    } break;
    case THM__STOP:
        if (!v || !v->active || v->gen != c->gen) break;
        v->stopping = 1;
        thm__fade_to(m, v, 0, c->d > 0 ? c->d : 0.005f);   /* never cut: 5 ms at least */
        break;
    case THM__SET:
        if (!v || !v->active || v->gen != c->gen) break;
        if (c->a >= 0) v->volume = c->a;
        v->pan = c->b;
        if (c->c != v->pitch) {
            v->pitch = c->c;
            v->cur.step = (double)m->sound[v->slot].rate / (double)m->rate * v->pitch;
        }
        break;
    case THM__BUS: {
        int b = c->bus;
        m->bus_target[b] = c->a;
        float frames = c->d * (float)m->rate;
        if (frames < THM_BLOCK) frames = THM_BLOCK;
        m->bus_step[b] = (c->a - m->bus_vol[b]) / frames;
    } break;
    case THM__STOP_ALL:
        for (int i = 0; i < THM_MAX_VOICES; i++)
            if (m->v[i].active) { m->v[i].stopping = 1; thm__fade_to(m, &m->v[i], 0, c->d > 0 ? c->d : 0.005f); }
        break;
    case THM__SOUND: {
        if (c->slot >= THM_MAX_SOUNDS) break;
        m->sound[c->slot] = c->data;
        for (int i = 0; i < THM_MAX_VOICES; i++) {
            thm__voice *w = &m->v[i];
            if (!w->active || w->slot != c->slot) continue;
            if (w->gl < 0) { thm__src_from(&w->cur, &c->data, w->pitch, m->rate); continue; }   /* not heard yet */
            w->prev = w->cur;
            w->prev_gl = w->gl;
            w->prev_gr = w->gr;
            w->xfade_left = THM_XFADE;
            double pos = w->cur.pos;
            thm__src_from(&w->cur, &c->data, w->pitch, m->rate);
            w->cur.pos = pos;
            if (w->cur.frames && pos >= w->cur.frames) w->cur.pos = w->loop ? fmod(pos, (double)w->cur.frames) : w->cur.frames;
        }
    } break;
    default: break;
    }
}

/* Adds n frames of s to out with gains ramping gl->gl+n*dgl. Returns 0 when a one-shot source ran out. */
static int thm__render_src(thm__src *s, int loop, float *out, int n, float gl, float gr, float dgl, float dgr)
{
    if (!s->data || !s->frames) return 0;
    const float *d = s->data;
    const uint32_t frames = s->frames;
    double pos = s->pos;
    const double step = s->step;
    for (int i = 0; i < n; i++) {
        if (pos >= frames) {
            if (!loop) { s->pos = pos; return 0; }
            pos = fmod(pos, (double)frames);
        }
        uint32_t a = (uint32_t)pos;
        uint32_t b = a + 1 < frames ? a + 1 : (loop ? 0 : a);
        float t = (float)(pos - a);
        if (s->channels == 2) {
            float l = d[2 * a] + (d[2 * b] - d[2 * a]) * t;
            float r = d[2 * a + 1] + (d[2 * b + 1] - d[2 * a + 1]) * t;
            if (b == a && !loop) { l *= 1 - t; r *= 1 - t; }
            out[2 * i] += l * gl;
            out[2 * i + 1] += r * gr;
        } else {
            float x = d[a] + (d[b] - d[a]) * t;
            if (b == a && !loop) x *= 1 - t;
            out[2 * i] += x * gl;
            out[2 * i + 1] += x * gr;
        }
        gl += dgl;
        gr += dgr;
        pos += step;
    }
    s->pos = pos;
    return !(pos >= frames && !loop);
}

static void thm__pan_gains(float pan, float *l, float *r)
{
    /* constant power, normalised so the centre is unity on both sides */
    float a = (pan + 1.0f) * 0.78539816f;   /* 0..pi/2 */
    *l = cosf(a) * 1.41421356f;
    *r = sinf(a) * 1.41421356f;
    if (*l > 1) *l = 1;
    if (*r > 1) *r = 1;
}

static float thm__advance(float x, float *step, float target, int n)
{
    float y = x + *step * (float)n;
    if (*step == 0 || (*step > 0 && y >= target) || (*step < 0 && y <= target)) { y = target; *step = 0; }
    return y;
}

/* A voice whose state is not finite (it would play NaN from here on) */
static int thm__voice_broken(const thm__voice *v)
{
    float f = v->volume + v->pan + v->pitch + v->fade + v->fade_step + v->fade_target + v->gl + v->gr;
    if (v->xfade_left) f += v->prev_gl + v->prev_gr + (float)v->prev.pos + (float)v->prev.step;
    return !thm__finite(f) || !thm__finite(v->cur.pos) || !thm__finite(v->cur.step);
}

static int thm__data_broken(const thm__src *s)
{
    if (!s->data) return 0;
    size_t count = (size_t)s->frames * s->channels;
    for (size_t k = 0; k < count; k++) if (!thm__finite(s->data[k])) return 1;
    return 0;
}

/* A block came out with NaN or infinity (rare: the entries are checked): the voices whose state went bad
   during it, or whose samples hold such a value (a sound file), end. */
static void thm__end_broken(thm_mixer *m)
{
    for (int i = 0; i < THM_MAX_VOICES; i++) {
        thm__voice *v = &m->v[i];
        if (v->active && (thm__voice_broken(v) || thm__data_broken(&v->cur) || (v->xfade_left && thm__data_broken(&v->prev))))
            thm__end(m, i);
    }
}

static void thm__mix_block(thm_mixer *m, float *out, int n)
{
    float bus0[THM_BUS_COUNT], bus1[THM_BUS_COUNT];
    for (int b = 0; b < THM_BUS_COUNT; b++) {
        if (!thm__finite(m->bus_vol[b] + m->bus_target[b] + m->bus_step[b])) {   /* reset: the target, or 1 */
            m->bus_target[b] = thm__finite(m->bus_target[b]) ? m->bus_target[b] : 1.0f;
            m->bus_vol[b] = m->bus_target[b];
            m->bus_step[b] = 0;
        }
        bus0[b] = m->bus_vol[b];
        bus1[b] = m->bus_vol[b] = thm__advance(m->bus_vol[b], &m->bus_step[b], m->bus_target[b], n);
    }
    const float inv_n = 1.0f / (float)n;
    float cur[2 * THM_BLOCK], prev[2 * THM_BLOCK];
    for (int i = 0; i < THM_MAX_VOICES; i++) {
        thm__voice *v = &m->v[i];
        if (!v->active) continue;
        if (thm__voice_broken(v)) { thm__end(m, i); continue; }
        float f0 = v->fade;
        float f1 = v->fade = thm__advance(v->fade, &v->fade_step, v->fade_target, n);
        float pl, pr;
        thm__pan_gains(v->pan, &pl, &pr);
        float g1 = v->volume * f1 * bus1[v->bus] * bus1[THM_BUS_MASTER];
        if (v->gl < 0) {   /* first block: no ramp from whatever the voice played before */
            float g0 = v->volume * f0 * bus0[v->bus] * bus0[THM_BUS_MASTER];
            v->gl = g0 * pl;
            v->gr = g0 * pr;
        }
        float tl = g1 * pl, tr = g1 * pr, gl = v->gl, gr = v->gr;
        int alive;
        if (!v->xfade_left) {
            alive = thm__render_src(&v->cur, v->loop, out, n, gl, gr, (tl - gl) * inv_n, (tr - gr) * inv_n);
        } else {
            /* old source weighted x (falling to 0 over THM_XFADE frames), new one 1 - x */
            memset(cur, 0, sizeof(float) * 2 * (size_t)n);
            memset(prev, 0, sizeof(float) * 2 * (size_t)n);
            alive = thm__render_src(&v->cur, v->loop, cur, n, gl, gr, (tl - gl) * inv_n, (tr - gr) * inv_n);
            int k = n < (int)v->xfade_left ? n : (int)v->xfade_left;
            thm__render_src(&v->prev, v->loop, prev, k, v->prev_gl, v->prev_gr, 0, 0);
            for (int j = 0; j < n; j++) {
                float x = j < k ? (float)(v->xfade_left - (uint32_t)j) / (float)THM_XFADE : 0.0f;
                out[2 * j] += cur[2 * j] * (1 - x) + prev[2 * j] * x;
                out[2 * j + 1] += cur[2 * j + 1] * (1 - x) + prev[2 * j + 1] * x;
            }
            v->xfade_left -= (uint32_t)k;
        }
        v->gl = tl;
        v->gr = tr;
        if ((!alive && !v->xfade_left) || (v->stopping && f1 <= 0.0f)) thm__end(m, i);
    }
}

void thm_mix(thm_mixer *m, float *out, uint32_t frames)
{
    uint64_t w = thm__load(&m->q_write);
    uint64_t r = m->q_read;
    while (r < w) { thm__apply(m, &m->queue[r & (THM_QUEUE - 1)]); r++; }
    thm__store(&m->q_read, r);
    memset(out, 0, sizeof(float) * 2 * frames);
    uint32_t done = 0;
    uint64_t limited = 0;
    float loudest = 0;
    while (done < frames) {
        int n = frames - done < THM_BLOCK ? (int)(frames - done) : THM_BLOCK;
        float *o = out + 2 * done;
        thm__mix_block(m, o, n);
        /* peak limiter: the gain falls towards what keeps the block under 0.98 and recovers over
           ~100 ms, ramped across the block so it never steps; a clamp catches the ramp's first frames */
        float peak = 0;
        int bad = 0;
        for (int j = 0; j < 2 * n; j++) {
            float a = fabsf(o[j]);
            if (!thm__finite(a)) { o[j] = 0; a = 0; bad = 1; }   /* never out of the mixer */
            if (a > peak) peak = a;
        }
        if (bad) thm__end_broken(m);
        if (peak > loudest) loudest = peak;
        if (!thm__finite(m->limiter_gain)) m->limiter_gain = 1.0f;
        float target = peak > 0.98f ? 0.98f / peak : 1.0f;
        float g0 = m->limiter_gain;
        float g1 = target < g0 ? target : g0 + (1.0f - g0) * (float)n / (0.1f * (float)m->rate);
        if (g1 > 1) g1 = 1;
        if (target < 1.0f) limited += (uint64_t)n;
        if (g0 != 1.0f || g1 != 1.0f) {
            for (int j = 0; j < n; j++) {
                float g = g0 + (g1 - g0) * (float)(j + 1) / (float)n;
                float l = o[2 * j] * g, r = o[2 * j + 1] * g;
                o[2 * j] = l > 1 ? 1 : l < -1 ? -1 : l;
                o[2 * j + 1] = r > 1 ? 1 : r < -1 ? -1 : r;
            }
        }
        m->limiter_gain = g1;
        done += (uint32_t)n;
    }
    thm__store(&m->frames_done, m->frames_done + frames);
    if (limited) thm__store(&m->limited_frames, m->limited_frames + limited);
    uint32_t q = loudest < 65535.0f ? (uint32_t)(loudest * 65536.0f) : 0xFFFFFFFFu;
    if (q > m->peak_in) thm__store(&m->peak_in, q);
    thm__store(&m->applied_seq, r);
}

#endif /* TH_MIXER_IMPLEMENTED */
#endif /* TH_MIXER_IMPLEMENTATION */

/*
   LICENCE - this file is offered under your choice of A or B.

   A - MIT License

   Copyright (c) 2026 the engine's maintainers

   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all copies or
   substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
   NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
   OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

   B - Public domain

   The authors dedicate this file to the public domain, giving up every copyright interest in
   it, for the benefit of the public and to the detriment of their heirs and successors, and
   meaning it as a permanent act. Anyone may copy, modify, publish, use, compile, sell or distribute
   it, as source or as a compiled binary, for any purpose, commercial or not, and by any means,
   with no need to name the authors. Where a dedication to the public domain is not recognised, the
   authors grant everyone the same rights under the MIT License above, without its condition.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED. IN NO EVENT
   SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
