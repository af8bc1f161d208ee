// bench_mixer - the cost of mixing with th_mixer, as the audio callback runs it.
//
// mix_32_voices_us  microseconds of CPU to mix 10 ms of 48 kHz stereo output with 32 voices playing
//                   (looping, mono and stereo sources at 44.1/48 kHz, varied pitch and pan, so every
//                   voice resamples), median of 2000 blocks of 480 frames
#define TH_MIXER_IMPLEMENTATION
#include "th_mixer.h"
#include "bench_time.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

static thm_mixer g_mixer;

int main(void)
{
    thm_init(&g_mixer, 48000);
    std::vector<float> mono(44100), stereo(2 * 48000);
    for (size_t i = 0; i < mono.size(); i++) mono[i] = 0.3f * sinf((float)i * 0.07f);
    for (size_t i = 0; i < stereo.size(); i++) stereo[i] = 0.3f * sinf((float)i * 0.013f);
    thm_sound_data a = { mono.data(), 44100, 1, 44100 }, b = { stereo.data(), 48000, 2, 48000 };
    thm_set_sound(&g_mixer, 0, &a);
    thm_set_sound(&g_mixer, 1, &b);
    for (int v = 0; v < 32; v++) {
        thm_play_params p;
        memset(&p, 0, sizeof p);
        p.loop = 1;
        p.volume = 0.1f;
        p.pan = -1.0f + (float)v / 16.0f;
        p.pitch = 0.7f + 0.02f * (float)v;
        p.bus = v % 4 == 0 ? THM_BUS_MUSIC : THM_BUS_EFFECTS;
        thm_play(&g_mixer, (uint32_t)(v % 2), &p, 0);
    }
    static float out[2 * 480];
    thm_mix(&g_mixer, out, 480);
    if (thm_voices_busy(&g_mixer) != 32) { fprintf(stderr, "bench_mixer: %d voices\n", thm_voices_busy(&g_mixer)); return 1; }
    std::vector<double> t;
    double sink = 0;
    for (int i = 0; i < bench_runs(2000, 100); i++) {
        double t0 = bench_now_ms() * 1e3;
        thm_mix(&g_mixer, out, 480);
        t.push_back(bench_now_ms() * 1e3 - t0);
        sink += out[i % 960];
    }
    std::sort(t.begin(), t.end());
    fprintf(stderr, "bench_mixer: p50 %.1f us, p95 %.1f us per 10 ms (sink %g)\n", bench_median(t), t[t.size() * 95 / 100], sink);
    printf("{\"mix_32_voices_us\": %.1f}\n", bench_median(t));
    return 0;
}
