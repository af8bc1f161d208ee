// test_th_wav.cpp - th_wav.h: the manual's example, a write/read round trip, each encoding, refusals.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_WAV_IMPLEMENTATION
#include "th_wav.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

static std::vector<unsigned char> slurp(const char *path)
{
    std::vector<unsigned char> v;
    FILE *f = fopen(path, "rb");
    if (!f) return v;
    int c;
    while ((c = fgetc(f)) != EOF) v.push_back((unsigned char)c);
    fclose(f);
    return v;
}
static void use(const float *s, uint32_t frames, uint32_t channels, uint32_t rate)
{
    TH_CHECK(frames == 100 && channels == 1 && rate == 22050 && s[50] > 0.49f && s[50] < 0.51f);
}

static void test_manual_example(void)
{
    float tone[100];
    for (int i = 0; i < 100; i++) tone[i] = 0.5f;
    thw_write_wav16("tone.wav", tone, 100, 1, 22050);
    std::vector<unsigned char> file = slurp("tone.wav");
    const unsigned char *buf = file.data();
    size_t len = file.size();
    thw_sound s;
    if (thw_parse(buf, len, &s)) { use(s.samples, s.frames, s.channels, s.rate); thw_free(&s); }
    else fprintf(stderr, "tone.wav: %s\n", thw_error());
    TH_CHECK(len == 44 + 200);
    remove("tone.wav");
}

static std::vector<unsigned char> wav(int format, int bits, int channels, const std::vector<unsigned char> &data)
{
    std::vector<unsigned char> w;
    auto u32 = [&](uint32_t v) { for (int i = 0; i < 4; i++) w.push_back((unsigned char)(v >> (8 * i))); };
    auto u16 = [&](uint32_t v) { w.push_back((unsigned char)v); w.push_back((unsigned char)(v >> 8)); };
    w.insert(w.end(), { 'R', 'I', 'F', 'F' }); u32(36 + (uint32_t)data.size());
    w.insert(w.end(), { 'W', 'A', 'V', 'E', 'f', 'm', 't', ' ' }); u32(16);
    u16((uint32_t)format); u16((uint32_t)channels); u32(8000); u32(8000u * (uint32_t)(channels * bits / 8));
    u16((uint32_t)(channels * bits / 8)); u16((uint32_t)bits);
    w.insert(w.end(), { 'd', 'a', 't', 'a' }); u32((uint32_t)data.size());
    w.insert(w.end(), data.begin(), data.end());
    return w;
}

static void test_encodings(void)
{
    thw_sound s;
    auto w8 = wav(1, 8, 1, { 0, 128, 255 });
    TH_CHECK(thw_parse(w8.data(), w8.size(), &s) && s.frames == 3);
    if (s.samples) { TH_CHECK(s.samples[0] == -1.0f && s.samples[1] == 0.0f && s.samples[2] > 0.99f); }
    thw_free(&s);
    auto w24 = wav(1, 24, 2, { 0, 0, 0x80, 0xFF, 0xFF, 0x7F });   // -1, ~+1
    TH_CHECK(thw_parse(w24.data(), w24.size(), &s) && s.frames == 1 && s.channels == 2);
    if (s.samples) { TH_CHECK(s.samples[0] == -1.0f && s.samples[1] > 0.999f); }
    thw_free(&s);
    float f[2] = { 0.25f, 7.0f };   // out of range floats are clamped
    std::vector<unsigned char> fd((unsigned char *)f, (unsigned char *)f + 8);
    auto wf = wav(3, 32, 1, fd);
    TH_CHECK(thw_parse(wf.data(), wf.size(), &s) && s.frames == 2);
    if (s.samples) { TH_CHECK(s.samples[0] == 0.25f && s.samples[1] == 1.0f); }
    thw_free(&s);
}

static void test_refusals_say_why(void)
{
    thw_sound s;
    const char *junk = "hello, not a wav";
    TH_CHECK(!thw_parse(junk, strlen(junk), &s) && strstr(thw_error(), "RIFF"));
    auto w = wav(1, 16, 1, { 1, 2, 3, 4 });
    TH_CHECK(!thw_parse(w.data(), 30, &s) && thw_error()[0]);                 // cut inside fmt
    auto mp3 = wav(0x55, 16, 1, { 1, 2 });
    TH_CHECK(!thw_parse(mp3.data(), mp3.size(), &s) && strstr(thw_error(), "encoding"));
    auto six = wav(1, 16, 6, std::vector<unsigned char>(24, 0));
    TH_CHECK(!thw_parse(six.data(), six.size(), &s) && strstr(thw_error(), "stereo"));
    auto empty = wav(1, 16, 1, {});
    TH_CHECK(!thw_parse(empty.data(), empty.size(), &s) && strstr(thw_error(), "no samples"));
    // a data chunk that claims more than the file holds: the samples that are there
    auto cut = wav(1, 16, 1, { 0, 0x40, 0, 0x40, 0, 0x40 });
    TH_CHECK(thw_parse(cut.data(), cut.size() - 2, &s) && s.frames == 2);
    thw_free(&s);
}

static void test_decoded_file(void)
{
    float x[4] = { 0.1f, -0.2f, 0.3f, -0.4f };
    std::vector<unsigned char> f(thw_pcm_bytes(2, 2));
    thw_pcm_header(f.data(), 2, 44100, 2);
    memcpy(f.data() + THW_PCM_HEADER, x, sizeof x);
    thw_sound v;
    TH_CHECK(thw_pcm_parse(f.data(), f.size(), &v) && v.frames == 2 && v.channels == 2 && v.rate == 44100 && v.samples[3] == -0.4f);
    TH_CHECK(!thw_pcm_parse(f.data(), f.size() - 4, &v));
    f[8] = 3;   // three channels
    TH_CHECK(!thw_pcm_parse(f.data(), f.size(), &v));
}

int main(void)
{
    TH_RUN(test_manual_example);
    TH_RUN(test_encodings);
    TH_RUN(test_refusals_say_why);
    TH_RUN(test_decoded_file);
    return th_test_finish();
}
