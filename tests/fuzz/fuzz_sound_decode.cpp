/* fuzz_sound_decode - the decoder input path: th_wav.h's WAV reader on arbitrary bytes (what
   tools/sound_decode runs on a WAV), and its reader of the decoded-sound file the host loads from the
   decoder child. Each accepts or refuses with a reason; what the WAV reader accepts is in range and
   survives a round trip through the decoded-sound format. (OGG goes through stb_vorbis only inside
   the decoder child: a crash there costs that file, and test_sound covers it.) */
#define TH_WAV_IMPLEMENTATION
#include "th_wav.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    thw_sound s;
    if (thw_parse(data, size, &s)) {
        if (!s.samples || !s.frames || s.frames > THW_MAX_FRAMES || s.channels < 1 || s.channels > 2) __builtin_trap();
        if (s.rate < 1000 || s.rate > 384000) __builtin_trap();
        size_t n = (size_t)s.frames * s.channels;
        for (size_t i = 0; i < n; i++) if (!(fabsf(s.samples[i]) <= 1.0f)) __builtin_trap();   /* NaN fails too */
        size_t bytes = thw_pcm_bytes(s.frames, s.channels);
        uint8_t *pcm = (uint8_t *)malloc(bytes);
        thw_pcm_header(pcm, s.channels, s.rate, s.frames);
        memcpy(pcm + THW_PCM_HEADER, s.samples, n * sizeof(float));
        thw_sound v;
        if (!thw_pcm_parse(pcm, bytes, &v) || v.frames != s.frames || memcmp(v.samples, s.samples, n * sizeof(float)) != 0)
            __builtin_trap();
        if (thw_pcm_parse(pcm, bytes - 1, &v)) __builtin_trap();   /* one byte short is refused */
        free(pcm);
        thw_free(&s);
    } else if (!thw_error()[0]) {
        __builtin_trap();
    }
    /* the same bytes as a decoded-sound file: aligned copy, as the host reads it into malloc'ed memory */
    uint8_t *copy = (uint8_t *)malloc(size + 1);
    memcpy(copy, data, size);
    thw_sound v;
    if (thw_pcm_parse(copy, size, &v)) {
        if (v.channels < 1 || v.channels > 2 || thw_pcm_bytes(v.frames, v.channels) != size) __builtin_trap();
        volatile float sum = 0;
        for (size_t i = 0; i < (size_t)v.frames * v.channels; i++) sum += v.samples[i];
    }
    free(copy);
    return 0;
}
