// test_th_mixer.cpp - the mixer core without a device: mixing, handles, stealing, fades, live replacement.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_MIXER_IMPLEMENTATION
#include "th_mixer.h"

#include <math.h>
#include <string.h>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

static thm_mixer g_m, g_m2;   // big: static, not on the stack

static std::vector<float> sine(int frames, float hz, float amp, int rate = 48000, float phase = 0)
{
    std::vector<float> s((size_t)frames);
    for (int i = 0; i < frames; i++) s[(size_t)i] = amp * sinf(phase + 6.2831853f * hz * (float)i / (float)rate);
    return s;
}

static float peak(const float *x, int n) { float p = 0; for (int i = 0; i < n; i++) p = fmaxf(p, fabsf(x[i])); return p; }
static float max_step(const float *x, int frames, int ch)   // largest sample-to-sample jump on one channel
{
    float m = 0;
    for (int i = 1; i < frames; i++) m = fmaxf(m, fabsf(x[2 * i + ch] - x[2 * (i - 1) + ch]));
    return m;
}
// Mixes n frames and returns the largest step on the left channel, counting the step from the last
// frame of the previous call (commands take effect at the start of a call: that is where a cut shows).
static float mix_steps(thm_mixer *m, float *out, int n, float *last)
{
    thm_mix(m, out, (uint32_t)n);
    float s = fmaxf(max_step(out, n, 0), fabsf(out[0] - *last));
    *last = out[2 * (n - 1)];
    return s;
}
static thm_play_params params(void) { thm_play_params p; memset(&p, 0, sizeof p); return p; }

static void test_manual_example(void)
{
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
    TH_CHECK(h != 0);
    TH_CHECK(peak(out, 960) > 0.3f && peak(out, 960) <= 0.5f * 1.0001f);
}

static void test_silence_then_sound(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(4800, 440, 0.8f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    TH_CHECK(thm_set_sound(&g_m, 1, &sd));
    static float out[2 * 1024];
    thm_mix(&g_m, out, 1024);
    TH_CHECK(peak(out, 2048) == 0.0f);
    thm_play_params p = params();
    uint32_t h = thm_play(&g_m, 1, &p, 0);
    TH_CHECK(h != 0 && thm_playing(&g_m, h));
    thm_mix(&g_m, out, 1024);
    TH_CHECK(fabsf(peak(out, 2048) - 0.8f) < 0.01f);
    // one-shot ends by itself (4800 frames), the handle goes stale, stale calls do nothing
    for (int i = 0; i < 5; i++) thm_mix(&g_m, out, 1024);
    TH_CHECK(!thm_playing(&g_m, h));
    thm_stop(&g_m, h, 0);
    thm_set(&g_m, h, 1, 0, 1);
    thm_mix(&g_m, out, 1024);
    TH_CHECK(peak(out, 2048) == 0.0f);
    TH_CHECK(thm_voices_busy(&g_m) == 0);
    TH_CHECK(!thm_playing(&g_m, 0) && !thm_playing(&g_m, 0xFFFFFFFFu));
}

static void test_pan_volume_pitch(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(48000, 200, 1.0f);
    thm_sound_data sd = { s.data(), 48000, 1, 48000 };
    thm_set_sound(&g_m, 3, &sd);
    thm_play_params p = params();
    p.pan = -1; p.volume = 0.5f; p.loop = 1;
    uint32_t h = thm_play(&g_m, 3, &p, 0);
    static float out[2 * 2400];
    thm_mix(&g_m, out, 2400);
    float l = 0, r = 0;
    for (int i = 0; i < 2400; i++) { l = fmaxf(l, fabsf(out[2 * i])); r = fmaxf(r, fabsf(out[2 * i + 1])); }
    TH_CHECK(fabsf(l - 0.5f) < 0.01f && r < 1e-4f);
    thm_set(&g_m, h, 0.25f, 1, 1);
    thm_mix(&g_m, out, 2400);   // ramps over the first block, then settles
    l = r = 0;
    for (int i = 200; i < 2400; i++) { l = fmaxf(l, fabsf(out[2 * i])); r = fmaxf(r, fabsf(out[2 * i + 1])); }
    TH_CHECK(l < 1e-4f && fabsf(r - 0.25f) < 0.01f);
    // a one-shot of 4800 frames at 24 kHz lasts 9600 output frames at 48 kHz, 4800 with pitch 2
    thm_init(&g_m, 48000);
    auto t = sine(4800, 100, 0.5f, 24000);
    thm_sound_data td = { t.data(), 4800, 1, 24000 };
    thm_set_sound(&g_m, 0, &td);
    p = params();
    p.pitch = 2;
    h = thm_play(&g_m, 0, &p, 0);
    thm_mix(&g_m, out, 2400);
    thm_mix(&g_m, out, 2300);
    TH_CHECK(thm_playing(&g_m, h));
    thm_mix(&g_m, out, 200);
    TH_CHECK(!thm_playing(&g_m, h));
}

static void test_stereo_source(void)
{
    thm_init(&g_m, 48000);
    std::vector<float> st(2 * 1000);
    for (int i = 0; i < 1000; i++) { st[2 * (size_t)i] = 0.5f; st[2 * (size_t)i + 1] = -0.25f; }
    thm_sound_data sd = { st.data(), 1000, 2, 48000 };
    thm_set_sound(&g_m, 9, &sd);
    thm_play_params p = params();
    thm_play(&g_m, 9, &p, 0);
    static float out[2 * 500];
    thm_mix(&g_m, out, 500);
    TH_CHECK(fabsf(out[2 * 100] - 0.5f) < 1e-5f && fabsf(out[2 * 100 + 1] + 0.25f) < 1e-5f);
}

static void test_fade_out_is_smooth_and_frees(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(4800, 440, 0.9f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    thm_play_params p = params();
    p.loop = 1;
    uint32_t h = thm_play(&g_m, 1, &p, 0);
    static float out[2 * 9600];
    thm_mix(&g_m, out, 1000);
    float natural = max_step(out, 1000, 0);
    thm_stop(&g_m, h, 0.1f);   // 4800 frames
    thm_mix(&g_m, out, 9600);
    TH_CHECK(max_step(out, 9600, 0) <= natural * 1.01f);
    TH_CHECK(peak(out + 2 * 4900, 2 * 4700) == 0.0f);
    TH_CHECK(!thm_playing(&g_m, h));
    // even a stop with no fade is not a cut
    h = thm_play(&g_m, 1, &p, 0);
    float last = 0;
    mix_steps(&g_m, out, 1000, &last);
    thm_stop(&g_m, h, 0);
    TH_CHECK(mix_steps(&g_m, out, 1000, &last) < 0.1f);
    // a loop keeps playing for a long time
    h = thm_play(&g_m, 1, &p, 0);
    for (int i = 0; i < 10; i++) thm_mix(&g_m, out, 9600);
    TH_CHECK(thm_playing(&g_m, h) && peak(out, 2 * 9600) > 0.8f);
}

static void test_stealing_by_priority(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(4800, 440, 0.01f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    thm_set_sound(&g_m, 2, &sd);
    thm_play_params p = params();
    p.loop = 1;
    p.priority = 5;
    uint32_t first = 0;
    for (int i = 0; i < THM_MAX_VOICES; i++) {
        uint32_t h = thm_play(&g_m, 1, &p, 0);
        TH_CHECK(h != 0);
        if (!i) first = h;
    }
    TH_CHECK(thm_voices_busy(&g_m) == THM_MAX_VOICES);
    thm_play_params low = params();
    low.priority = 4;
    TH_CHECK(thm_play(&g_m, 2, &low, 0) == 0);          // lower priority than every voice: refused
    thm_play_params high = params();
    high.priority = 9;
    uint32_t h = thm_play(&g_m, 2, &high, 0);
    TH_CHECK(h != 0 && (h & 0xFF) == (first & 0xFF));    // the oldest of the lowest priority gave way
    TH_CHECK(!thm_playing(&g_m, first) && thm_playing(&g_m, h));
    static float out[2 * 512];
    thm_mix(&g_m, out, 512);
    TH_CHECK(thm_voices_busy(&g_m) == THM_MAX_VOICES);
}

static void test_instances_cooldown_unique(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(48000, 440, 0.1f);
    thm_sound_data sd = { s.data(), 48000, 1, 48000 };
    thm_set_sound(&g_m, 4, &sd);
    thm_play_params p = params();
    p.max_instances = 2;
    uint32_t a = thm_play(&g_m, 4, &p, 0), b = thm_play(&g_m, 4, &p, 0), c = thm_play(&g_m, 4, &p, 0);
    TH_CHECK(a && b && c && !thm_playing(&g_m, a) && thm_playing(&g_m, b) && thm_playing(&g_m, c));
    TH_CHECK(thm_voices_busy(&g_m) == 2);
    p = params();
    p.cooldown_s = 0.05f;
    TH_CHECK(thm_play(&g_m, 4, &p, 1.0) != 0);
    TH_CHECK(thm_play(&g_m, 4, &p, 1.03) == 0);
    TH_CHECK(thm_play(&g_m, 4, &p, 1.06) != 0);
    p = params();
    p.unique = 1;
    p.loop = 1;
    thm_set_sound(&g_m, 5, &sd);
    uint32_t m1 = thm_play(&g_m, 5, &p, 0);
    TH_CHECK(g_m.last_play_started);
    uint32_t m2 = thm_play(&g_m, 5, &p, 0);
    TH_CHECK(m1 != 0 && m1 == m2 && !g_m.last_play_started);
}

static void test_buses(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(4800, 300, 0.5f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    thm_play_params p = params();
    p.loop = 1;
    p.bus = THM_BUS_MUSIC;
    thm_play(&g_m, 1, &p, 0);
    static float out[2 * 4800];
    float last = 0;
    mix_steps(&g_m, out, 1000, &last);
    thm_bus(&g_m, THM_BUS_MUSIC, 0, 0.01f);
    TH_CHECK(mix_steps(&g_m, out, 4800, &last) < 0.05f);
    TH_CHECK(peak(out + 2 * 1000, 2 * 3800) == 0.0f);
    p.bus = THM_BUS_EFFECTS;
    thm_play(&g_m, 1, &p, 0);
    thm_mix(&g_m, out, 4800);
    TH_CHECK(fabsf(peak(out, 2 * 4800) - 0.5f) < 0.01f);
    thm_bus(&g_m, THM_BUS_MASTER, 0.5f, 0);
    thm_mix(&g_m, out, 4800);
    TH_CHECK(fabsf(peak(out + 2 * 500, 2 * 4300) - 0.25f) < 0.01f);
}

static void test_limiter_never_clips(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(4800, 440, 1.0f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    thm_play_params p = params();
    p.loop = 1;
    for (int i = 0; i < 40; i++) thm_play(&g_m, 1, &p, 0);
    static float out[2 * 4800];
    thm_mix(&g_m, out, 4800);
    TH_CHECK(peak(out, 2 * 4800) <= 1.0f);
    TH_CHECK(peak(out + 2 * 2400, 2 * 2400) > 0.9f);   // limited, not muted
    float in_peak = 0;
    uint64_t limited = 0;
    thm_levels(&g_m, &in_peak, &limited);
    TH_CHECK(in_peak > 30.0f);                         // 40 copies of a full-scale tone, before the limiter
    TH_CHECK(limited == 4800);                          // every block went over the ceiling
}

// thm_levels reports a mix with headroom as such: its peak, and no frame turned down by the limiter.
static void test_levels_of_a_mix_that_fits(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(4800, 440, 0.4f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    thm_play_params p = params();
    p.loop = 1;
    thm_play(&g_m, 1, &p, 0);
    static float out[2 * 4800];
    thm_mix(&g_m, out, 4800);
    float in_peak = 0;
    uint64_t limited = 1;
    thm_levels(&g_m, &in_peak, &limited);
    TH_CHECK(fabsf(in_peak - peak(out, 2 * 4800)) < 0.001f);
    TH_CHECK(in_peak > 0.39f && in_peak < 0.41f);   // centre pan is unity on both sides
    TH_CHECK(limited == 0);
    thm_play(&g_m, 1, &p, 0);                     // two copies in phase: 0.8, still under the ceiling
    thm_mix(&g_m, out, 4800);
    thm_levels(&g_m, &in_peak, &limited);
    TH_CHECK(limited == 0);
    for (int i = 0; i < 2; i++) thm_play(&g_m, 1, &p, 0);   // four: 1.6, over it
    thm_mix(&g_m, out, 4800);
    thm_levels(&g_m, &in_peak, &limited);
    TH_CHECK(in_peak > 1.5f);
    TH_CHECK(limited > 0 && limited <= 4800);
}

// Replacing a playing sound with identical samples changes nothing; with different samples it
// crossfades: no jump larger than the signal's own.
static void test_replace_while_playing(void)
{
    auto a = sine(4800, 100, 0.8f), a2 = a, b = sine(4800, 100, 0.8f, 48000, 3.14159f);
    thm_sound_data da = { a.data(), 4800, 1, 48000 }, da2 = { a2.data(), 4800, 1, 48000 }, db = { b.data(), 4800, 1, 48000 };
    thm_play_params p = params();
    p.loop = 1;
    thm_init(&g_m, 48000);
    thm_init(&g_m2, 48000);
    thm_set_sound(&g_m, 1, &da);
    thm_set_sound(&g_m2, 1, &da);
    thm_play(&g_m, 1, &p, 0);
    thm_play(&g_m2, 1, &p, 0);
    static float o1[2 * 4000], o2[2 * 4000];
    thm_mix(&g_m, o1, 1000);
    thm_mix(&g_m2, o2, 1000);
    thm_set_sound(&g_m, 1, &da2);
    thm_mix(&g_m, o1, 4000);
    thm_mix(&g_m2, o2, 4000);
    float diff = 0;
    for (int i = 0; i < 8000; i++) diff = fmaxf(diff, fabsf(o1[i] - o2[i]));
    TH_CHECK(diff < 1e-5f);
    float natural = max_step(o2, 4000, 0);
    // the old buffer is not handed back until the crossfade is surely over
    TH_CHECK(thm_reclaim(&g_m) == nullptr);
    thm_mix(&g_m, o1, 100);
    TH_CHECK(thm_reclaim(&g_m) == nullptr);
    thm_mix(&g_m, o1, THM_XFADE + 1);
    TH_CHECK(thm_reclaim(&g_m) == a.data());
    TH_CHECK(thm_reclaim(&g_m) == nullptr);
    // opposite phase: a hard switch would jump by up to 1.6; the crossfade stays near the signal's own slope
    thm_mix(&g_m, o1, 100);
    float last = o1[2 * 99];   // the step across the replacement is between two mix calls
    thm_set_sound(&g_m, 1, &db);
    thm_mix(&g_m, o1, 4000);
    TH_CHECK(fabsf(o1[0] - last) < natural * 1.5f + 0.01f);
    TH_CHECK(max_step(o1, 4000, 0) < natural * 1.5f + 0.01f);
    TH_CHECK(peak(o1 + 2 * 1000, 2 * 3000) > 0.7f);
}

static void test_replace_with_silence_and_missing(void)
{
    thm_init(&g_m, 48000);
    auto a = sine(4800, 100, 0.8f);
    thm_sound_data da = { a.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &da);
    thm_play_params p = params();
    p.loop = 1;
    uint32_t h = thm_play(&g_m, 1, &p, 0);
    static float out[2 * 2000];
    float last = 0;
    mix_steps(&g_m, out, 1000, &last);
    thm_set_sound(&g_m, 1, nullptr);   // broken file -> silence, faded
    TH_CHECK(mix_steps(&g_m, out, 2000, &last) < 0.02f);
    TH_CHECK(peak(out + 2 * 400, 2 * 1600) == 0.0f);
    TH_CHECK(!thm_playing(&g_m, h));
    TH_CHECK(thm_play(&g_m, 700, &p, 0) == 0);   // slot out of range
    TH_CHECK(thm_play(&g_m, 2, &p, 0) == 0);     // never loaded: nothing to play
    TH_CHECK(thm_play(&g_m, 1, &p, 0) == 0);     // replaced by silence: the same
}

static void test_queue_full_is_refused(void)
{
    thm_init(&g_m, 48000);
    static float one[16];
    thm_sound_data sd = { one, 16, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    thm_play_params p = params();
    int ok = 0;
    for (int i = 0; i < THM_QUEUE + 9; i++) ok += thm_play(&g_m, 1, &p, 0) != 0;
    TH_CHECK(ok == THM_QUEUE - 1 && g_m.dropped == 10);   // the sound's own command took one slot
    static float out[2 * 64];
    thm_mix(&g_m, out, 64);
    TH_CHECK(thm_play(&g_m, 1, &p, 0) != 0);
}

static int all_finite(const float *x, int n)
{
    for (int i = 0; i < n; i++) if (!(x[i] - x[i] == 0)) return 0;
    return 1;
}

// NaN and infinities into every entry: the output stays finite, and a good call afterwards is heard
// (the audit's case: one NaN bus volume made every later sample NaN, even after sound_bus(..., 1, 0)).
static void test_untrusted_values(void)
{
    const float bad[] = { NAN, INFINITY, -INFINITY, 1e30f, -1e30f };
    thm_init(&g_m, 48000);
    auto s = sine(4800, 300, 0.5f);
    thm_sound_data sd = { s.data(), 4800, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    static float out[2 * 4800];
    for (float x : bad) {
        for (int b = 0; b < THM_BUS_COUNT; b++) { thm_bus(&g_m, b, x, 0); thm_bus(&g_m, b, 1, x); }
        thm_play_params p = params();
        p.loop = 1;
        p.volume = p.pan = p.pitch = p.fade_in_s = x;
        uint32_t h = thm_play(&g_m, 1, &p, 0);
        thm_set(&g_m, h, x, x, x);
        thm_mix(&g_m, out, 4800);
        TH_CHECK(all_finite(out, 2 * 4800));
        thm_stop(&g_m, h, x);
        thm_stop_all(&g_m, x);
        thm_mix(&g_m, out, 4800);
        TH_CHECK(all_finite(out, 2 * 4800));
        p = params();
        p.cooldown_s = x;
        thm_play(&g_m, 1, &p, 0);
        thm_mix(&g_m, out, 4800);
        TH_CHECK(all_finite(out, 2 * 4800));
    }
    // the fix: buses back to 1, a plain play is heard at its own level
    thm_stop_all(&g_m, 0);
    thm_mix(&g_m, out, 4800);
    for (int b = 0; b < THM_BUS_COUNT; b++) thm_bus(&g_m, b, 1, 0);
    thm_play_params p = params();
    TH_CHECK(thm_play(&g_m, 1, &p, 100.0) != 0);
    thm_mix(&g_m, out, 4800);
    TH_CHECK(all_finite(out, 2 * 4800) && fabsf(peak(out + 2 * 100, 2 * 4000) - 0.5f) < 0.01f);

    // a sound whose samples hold NaN: that voice ends, the output stays finite and the others play on
    static float poisoned[4800];
    for (int i = 0; i < 4800; i++) poisoned[i] = i == 1000 ? NAN : 0.25f;
    thm_sound_data pd = { poisoned, 4800, 1, 48000 };
    thm_set_sound(&g_m, 2, &pd);
    p = params();
    p.loop = 1;
    uint32_t good = thm_play(&g_m, 1, &p, 200.0), bad_voice = thm_play(&g_m, 2, &p, 200.0);
    thm_mix(&g_m, out, 4800);
    TH_CHECK(all_finite(out, 2 * 4800));
    TH_CHECK(thm_playing(&g_m, good) && !thm_playing(&g_m, bad_voice));
    thm_mix(&g_m, out, 4800);
    TH_CHECK(all_finite(out, 2 * 4800) && fabsf(peak(out, 2 * 4800) - 0.5f) < 0.01f);
}

// The control side and the render side on two threads, as in the host.
static void test_two_threads(void)
{
    thm_init(&g_m, 48000);
    auto s = sine(2000, 440, 0.2f);
    thm_sound_data sd = { s.data(), 2000, 1, 48000 };
    thm_set_sound(&g_m, 1, &sd);
    std::atomic<int> stop{0};
    std::atomic<long> frames{0};
    std::thread audio([&] {
        static float out[2 * 256];
        while (!stop.load()) { thm_mix(&g_m, out, 256); frames += 256; if (peak(out, 512) > 1.0f) frames = -1000000000L; }
    });
    std::vector<std::vector<float>> bufs;
    int plays = 0;
    for (int i = 0; i < 20000; i++) {
        thm_play_params p = params();
        p.priority = (uint8_t)(i % 7);
        p.pitch = 0.5f + (float)(i % 5) * 0.3f;
        // A full queue means the audio thread has not drained it yet (a loaded machine):
        // wait for it and try again, so the count below does not depend on scheduling.
        uint32_t dropped = g_m.dropped;
        uint32_t h = thm_play(&g_m, 1 + (uint32_t)(i % 3), &p, i * 0.001);
        for (int t = 0; h == 0 && g_m.dropped != dropped && t < 2000; t++) {
            std::this_thread::sleep_for(std::chrono::microseconds(500));
            dropped = g_m.dropped;
            h = thm_play(&g_m, 1 + (uint32_t)(i % 3), &p, i * 0.001);
        }
        plays += h != 0;
        if (i % 3 == 0) thm_stop(&g_m, h, 0.01f);
        if (i % 1000 == 0) {
            bufs.emplace_back(s);
            thm_sound_data nd = { bufs.back().data(), 2000, 1, 48000 };
            thm_set_sound(&g_m, 2, &nd);
        }
        while (thm_reclaim(&g_m)) {}
    }
    stop = 1;
    audio.join();
    TH_CHECK(plays > 1000);
    TH_CHECK(frames.load() > 0);
}

int main(void)
{
    TH_RUN(test_manual_example);
    TH_RUN(test_silence_then_sound);
    TH_RUN(test_pan_volume_pitch);
    TH_RUN(test_stereo_source);
    TH_RUN(test_fade_out_is_smooth_and_frees);
    TH_RUN(test_stealing_by_priority);
    TH_RUN(test_instances_cooldown_unique);
    TH_RUN(test_buses);
    TH_RUN(test_limiter_never_clips);
    TH_RUN(test_levels_of_a_mix_that_fits);
    TH_RUN(test_replace_while_playing);
    TH_RUN(test_replace_with_silence_and_missing);
    TH_RUN(test_queue_full_is_refused);
    TH_RUN(test_untrusted_values);
    TH_RUN(test_two_threads);
    return th_test_finish();
}
