/* th_wav.h - reading and writing WAV files, and the engine's decoded-sound file, with every byte checked.

   th_wav.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     thw_parse reads a RIFF/WAVE file held in memory and converts its samples to float in
     [-1, 1]: PCM 8/16/24/32-bit, IEEE float 32/64-bit, WAVE_FORMAT_EXTENSIBLE wrapping either,
     1 or 2 channels. It validates every size against the buffer before reading (odd chunk
     padding, truncated data chunks, absurd rates), so any input - random bytes included - ends
     in either a sound or an error string; tests/fuzz/fuzz_sound_decode.cpp holds it to that.
     thw_write_wav16 writes mono/stereo 16-bit PCM (what tools/make_sfx renders).

     The decoded-sound file ("THSND1") is what the engine's decoder child hands the host:
     a 24-byte header (magic, channels, rate, frames) and the float samples. thw_pcm_parse
     validates one (size, channels, rate) and points at its samples.

   USE
     #define TH_WAV_IMPLEMENTATION in one C or C++ file before including; C99 or C++.
     Dependencies: <stdint.h>, <stddef.h>, <string.h>, <stdio.h>, <stdlib.h>.

     int  thw_parse(const void *data, size_t len, thw_sound *out);   1 ok; out->samples is malloc'ed
     void thw_free(thw_sound *s);
     const char *thw_error(void);                                    why the last call failed
     int  thw_write_wav16(const char *path, const float *samples, uint32_t frames, uint32_t channels, uint32_t rate);
     size_t thw_pcm_bytes(uint32_t frames, uint32_t channels);        header + samples
     void thw_pcm_header(uint8_t out[THW_PCM_HEADER], uint32_t channels, uint32_t rate, uint32_t frames);
     int  thw_pcm_parse(const void *data, size_t len, thw_sound *view);  1 ok; view->samples points into data

   LIMITS
     THW_MAX_FRAMES (default 48000 * 600: ten minutes at 48 kHz), rates 1000..384000 Hz.

   EXAMPLE (compiled by tests/unit/test_th_wav.cpp)

     float tone[100];
     for (int i = 0; i < 100; i++) tone[i] = 0.5f;
     thw_write_wav16("tone.wav", tone, 100, 1, 22050);
     // ... read the file into buf/len ...
     thw_sound s;
     if (thw_parse(buf, len, &s)) { use(s.samples, s.frames, s.channels, s.rate); thw_free(&s); }
     else fprintf(stderr, "tone.wav: %s\n", thw_error());
*/
#ifndef TH_WAV_H
#define TH_WAV_H

#include <stdint.h>
#include <stddef.h>

#ifndef THW_MAX_FRAMES
#define THW_MAX_FRAMES (48000u * 600u)
#endif
#define THW_PCM_HEADER 24

#ifdef __cplusplus
extern "C" {
#endif

typedef struct thw_sound {
    float   *samples;    /* interleaved */
    uint32_t frames, channels, rate;
} thw_sound;

int         thw_parse(const void *data, size_t len, thw_sound *out);
void        thw_free(thw_sound *s);
const char *thw_error(void);
int         thw_write_wav16(const char *path, const float *samples, uint32_t frames, uint32_t channels, uint32_t rate);
size_t      thw_pcm_bytes(uint32_t frames, uint32_t channels);
void        thw_pcm_header(uint8_t out[THW_PCM_HEADER], uint32_t channels, uint32_t rate, uint32_t frames);
int         thw_pcm_parse(const void *data, size_t len, thw_sound *view);

#ifdef __cplusplus
}
#endif
#endif /* TH_WAV_H */

#ifdef TH_WAV_IMPLEMENTATION
#ifndef TH_WAV_IMPLEMENTED
#define TH_WAV_IMPLEMENTED
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

static const char *thw__err = "";
const char *thw_error(void) { return thw__err; }
static int thw__fail(const char *why) { thw__err = why; return 0; }

static uint32_t thw__u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t thw__u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void thw__put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
static void thw__put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

void thw_free(thw_sound *s)
{
    if (!s) return;
    free(s->samples);
    s->samples = 0;
    s->frames = 0;
}

int thw_parse(const void *data, size_t len, thw_sound *out)
{
    const uint8_t *d = (const uint8_t *)data;
    memset(out, 0, sizeof *out);
    if (!d || len < 12) return thw__fail("too short for a WAV header");
    if (memcmp(d, "RIFF", 4) != 0 || memcmp(d + 8, "WAVE", 4) != 0) return thw__fail("not a RIFF/WAVE file");
    size_t at = 12;
    int have_fmt = 0;
    uint16_t format = 0, channels = 0, bits = 0, block = 0;
    uint32_t rate = 0;
    const uint8_t *pcm = 0;
    size_t pcm_len = 0;
    while (at + 8 <= len) {
        const uint8_t *ck = d + at;
        uint32_t size = thw__u32(ck + 4);
        size_t body = at + 8;
        size_t avail = len - body;
        if (memcmp(ck, "fmt ", 4) == 0) {
            if (size < 16 || size > avail) return thw__fail("fmt chunk is truncated");
            format = thw__u16(ck + 8);
            channels = thw__u16(ck + 10);
            rate = thw__u32(ck + 12);
            block = thw__u16(ck + 20);
            bits = thw__u16(ck + 22);
            if (format == 0xFFFE) {   /* WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first 2 bytes */
                if (size < 40) return thw__fail("extensible fmt chunk is truncated");
                format = thw__u16(ck + 8 + 24);
            }
            have_fmt = 1;
        } else if (memcmp(ck, "data", 4) == 0) {
            pcm = ck + 8;
            pcm_len = size <= avail ? size : avail;   /* a data chunk cut short: use what is there */
            if (!have_fmt) return thw__fail("data chunk before the fmt chunk");
            break;
        }
        if (size > avail) return thw__fail("a chunk runs past the end of the file");
        at = body + size + (size & 1u);
    }
    if (!have_fmt) return thw__fail("no fmt chunk");
    if (!pcm) return thw__fail("no data chunk");
    if (format != 1 && format != 3) return thw__fail("unsupported WAV encoding (only PCM and float)");
    if (channels < 1 || channels > 2) return thw__fail("only mono and stereo WAV files are supported");
    if (rate < 1000 || rate > 384000) return thw__fail("sample rate out of range (1000..384000 Hz)");
    if (format == 1 && bits != 8 && bits != 16 && bits != 24 && bits != 32) return thw__fail("unsupported PCM bit depth");
    if (format == 3 && bits != 32 && bits != 64) return thw__fail("unsupported float bit depth");
    uint32_t bytes = bits / 8u;
    if (block != bytes * channels) return thw__fail("block align does not match channels x bits");
    size_t frames = pcm_len / block;
    if (frames == 0) return thw__fail("no samples");
    if (frames > THW_MAX_FRAMES) return thw__fail("longer than the engine accepts (THW_MAX_FRAMES)");
    float *s = (float *)malloc(frames * channels * sizeof(float));
    if (!s) return thw__fail("out of memory");
    size_t n = frames * channels;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = pcm + i * bytes;
        float v;
        if (format == 3) {
            if (bits == 32) { uint32_t u = thw__u32(p); float f; memcpy(&f, &u, 4); v = f; }
            else { uint64_t u = (uint64_t)thw__u32(p) | (uint64_t)thw__u32(p + 4) << 32; double f; memcpy(&f, &u, 8); v = (float)f; }
            if (!(v == v)) v = 0;            /* NaN */
            if (v > 1) v = 1;
            if (v < -1) v = -1;
        } else if (bits == 8) v = ((float)p[0] - 128.0f) / 128.0f;
        else if (bits == 16) v = (float)(int16_t)thw__u16(p) / 32768.0f;
        else if (bits == 24) v = (float)((int32_t)((uint32_t)p[0] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 24) >> 8) / 8388608.0f;
        else v = (float)((double)(int32_t)thw__u32(p) / 2147483648.0);
        s[i] = v;
    }
    out->samples = s;
    out->frames = (uint32_t)frames;
    out->channels = channels;
    out->rate = rate;
    return 1;
}

int thw_write_wav16(const char *path, const float *samples, uint32_t frames, uint32_t channels, uint32_t rate)
{
    if (channels < 1 || channels > 2) return thw__fail("channels must be 1 or 2");
    uint32_t data = frames * channels * 2u;
    uint8_t h[44];
    memcpy(h, "RIFF", 4); thw__put32(h + 4, 36 + data); memcpy(h + 8, "WAVEfmt ", 8);
    thw__put32(h + 16, 16); thw__put16(h + 20, 1); thw__put16(h + 22, (uint16_t)channels);
    thw__put32(h + 24, rate); thw__put32(h + 28, rate * channels * 2u); thw__put16(h + 32, (uint16_t)(channels * 2u));
    thw__put16(h + 34, 16); memcpy(h + 36, "data", 4); thw__put32(h + 40, data);
    FILE *f = fopen(path, "wb");
    if (!f) return thw__fail("cannot open the file for writing");
    int ok = fwrite(h, 1, 44, f) == 44;
    for (uint32_t i = 0; ok && i < frames * channels; i++) {
        float v = samples[i] * 32767.0f;
        v = v > 32767.0f ? 32767.0f : v < -32768.0f ? -32768.0f : v;
        uint8_t b[2];
        thw__put16(b, (uint16_t)(int16_t)(v < 0 ? v - 0.5f : v + 0.5f));
        ok = fwrite(b, 1, 2, f) == 2;
    }
    if (fclose(f) != 0) ok = 0;
    return ok ? 1 : thw__fail("write failed");
}

size_t thw_pcm_bytes(uint32_t frames, uint32_t channels) { return THW_PCM_HEADER + (size_t)frames * channels * sizeof(float); }

void thw_pcm_header(uint8_t out[THW_PCM_HEADER], uint32_t channels, uint32_t rate, uint32_t frames)
{
    memcpy(out, "THSND1\0\0", 8);
    thw__put32(out + 8, channels);
    thw__put32(out + 12, rate);
    thw__put32(out + 16, frames);
    thw__put32(out + 20, 0);
}

int thw_pcm_parse(const void *data, size_t len, thw_sound *view)
{
    const uint8_t *d = (const uint8_t *)data;
    memset(view, 0, sizeof *view);
    if (!d || len < THW_PCM_HEADER || memcmp(d, "THSND1\0\0", 8) != 0) return thw__fail("not a decoded-sound file");
    uint32_t ch = thw__u32(d + 8), rate = thw__u32(d + 12), frames = thw__u32(d + 16);
    if (ch < 1 || ch > 2 || rate < 1000 || rate > 384000 || frames > THW_MAX_FRAMES) return thw__fail("decoded-sound header out of range");
    if (len != thw_pcm_bytes(frames, ch)) return thw__fail("decoded-sound file has the wrong size");
    if (((uintptr_t)(d + THW_PCM_HEADER)) % sizeof(float)) return thw__fail("decoded-sound data is misaligned");
    view->samples = (float *)(uintptr_t)(d + THW_PCM_HEADER);
    view->frames = frames;
    view->channels = ch;
    view->rate = rate;
    return 1;
}

#endif /* TH_WAV_IMPLEMENTED */
#endif /* TH_WAV_IMPLEMENTATION */

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
