/* sound_decode - turns one WAV or OGG file into the engine's decoded-sound file (THSND1, floats).

     sound_decode <in.wav|in.ogg> <out.pcm>

   The host runs this as a child process for every sound it loads, so a file that crashes a
   decoder costs that file, never the session. Exit 0 and <out.pcm> written (atomically, via a
   temporary name) on success; exit 1 and one line on stderr saying what is wrong otherwise.
   WAV goes through tinyheaders/th_wav.h (validated and fuzzed); OGG Vorbis through stb_vorbis. */
#define TH_WAV_IMPLEMENTATION
#include "th_wav.h"
#include <stb_vorbis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

static int fail(const char *why) { fprintf(stderr, "%s\n", why); return 1; }

int main(int argc, char **argv)
{
    if (argc != 3) return fail("usage: sound_decode <in.wav|in.ogg> <out.pcm>");
    FILE *f = fopen(argv[1], "rb");
    if (!f) return fail("cannot open the file");
    std::vector<unsigned char> in;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        in.insert(in.end(), buf, buf + n);
        if (in.size() > (256u << 20)) { fclose(f); return fail("larger than 256 MB"); }
    }
    fclose(f);
    if (in.empty()) return fail("the file is empty");

    std::vector<float> samples;
    uint32_t channels = 0, rate = 0, frames = 0;
    if (in.size() >= 4 && memcmp(in.data(), "OggS", 4) == 0) {
        int ch = 0, sr = 0;
        short *pcm = nullptr;
        int got = stb_vorbis_decode_memory(in.data(), (int)in.size(), &ch, &sr, &pcm);
        if (got <= 0 || !pcm) { free(pcm); return fail("not a readable Ogg Vorbis stream"); }
        if (ch < 1 || sr < 1000 || sr > 384000 || (uint32_t)got > THW_MAX_FRAMES) { free(pcm); return fail("Ogg Vorbis stream out of range"); }
        channels = ch >= 2 ? 2 : 1;   /* more than two channels: the first two */
        rate = (uint32_t)sr;
        frames = (uint32_t)got;
        samples.resize((size_t)frames * channels);
        for (uint32_t i = 0; i < frames; i++)
            for (uint32_t c = 0; c < channels; c++) samples[(size_t)i * channels + c] = pcm[(size_t)i * ch + c] / 32768.0f;
        free(pcm);
    } else if (in.size() >= 4 && memcmp(in.data(), "RIFF", 4) == 0) {
        thw_sound s;
        if (!thw_parse(in.data(), in.size(), &s)) return fail(thw_error());
        channels = s.channels; rate = s.rate; frames = s.frames;
        samples.assign(s.samples, s.samples + (size_t)frames * channels);
        thw_free(&s);
    } else {
        return fail("neither a WAV (RIFF) nor an Ogg Vorbis file");
    }

    std::string tmp = std::string(argv[2]) + ".tmp";
    FILE *o = fopen(tmp.c_str(), "wb");
    if (!o) return fail("cannot write the decoded file");
    uint8_t h[THW_PCM_HEADER];
    thw_pcm_header(h, channels, rate, frames);
    bool ok = fwrite(h, 1, sizeof h, o) == sizeof h &&
              fwrite(samples.data(), sizeof(float), samples.size(), o) == samples.size();
    if (fclose(o) != 0) ok = false;
    if (!ok || rename(tmp.c_str(), argv[2]) != 0) { remove(tmp.c_str()); return fail("cannot write the decoded file"); }
    return 0;
}
