/* make_sfx - renders the game's sounds from small parameter files: effects and a music loop.

     make_sfx <in.sfx> <out.wav>          one file (what the host runs when a .sfx is saved)
     make_sfx --all <sfx_dir> <out_dir>   every .sfx below sfx_dir -> out_dir/<same path>.wav

   A .sfx file is "key = value" lines ('#' after a space or at the start begins a comment). Lines before the first section set
   the sound; each [layer] section adds one synthesized layer to an effect, each [track] section
   one line of a music loop. Output: 16-bit mono WAV, peak-normalized to `gain`, effects with
   2 ms edges (no click), music loops seamless (notes ringing past the end wrap to the start).

   Sound keys:   rate (44100), gain (peak, 0.8), type (effect | music), bpm (120), steps (64 sixteenths)
   Layer/track:  wave      sine | square | saw | triangle | noise | kick
                 freq, freq_end        Hz at the start and end (exponential glide; end = start if absent)
                 duty                  square pulse width (0.5)
                 attack, hold, decay   envelope seconds (0.005, 0, 0.2); decay falls as a square curve
                 delay                 seconds before the layer starts (effects)
                 volume                (1)
                 vibrato_hz, vibrato   vibrato rate and depth (fraction of freq)
                 lowpass, lowpass_end  one-pole low-pass cutoff Hz (off when absent)
                 pattern               music: one token per sixteenth: a note (C4, F#3, Bb2), x (= freq), . (rest)
   Errors go to stderr as "<file>:<line>: <what>" and the exit status is 1. */
#define TH_WAV_IMPLEMENTATION
#include "th_wav.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <string>
#include <vector>

struct Layer {
    int wave = 0;   /* 0 sine 1 square 2 saw 3 triangle 4 noise 5 kick */
    double freq = 440, freq_end = -1, duty = 0.5, attack = 0.005, hold = 0, decay = 0.2, delay = 0, volume = 1;
    double vib_hz = 0, vib = 0, lowpass = 0, lowpass_end = -1;
    std::vector<double> pattern;   /* music: Hz per step, 0 = rest */
};

struct Sound {
    int rate = 44100, music = 0, steps = 64;
    double gain = 0.8, bpm = 120;
    std::vector<Layer> layers;
};

static std::string g_err;

static bool note_hz(const char *t, double *hz)
{
    static const int SEMI[7] = { 9, 11, 0, 2, 4, 5, 7 };   /* A B C D E F G from C */
    char c = t[0];
    if (c < 'A' || c > 'G') return false;
    int semi = SEMI[c - 'A'];
    int i = 1;
    if (t[i] == '#') { semi++; i++; } else if (t[i] == 'b') { semi--; i++; }
    char *end;
    long oct = strtol(t + i, &end, 10);
    if (end == t + i || *end) return false;
    int midi = (int)(oct + 1) * 12 + semi;
    *hz = 440.0 * pow(2.0, (midi - 69) / 12.0);
    return true;
}

static bool parse(const char *path, const char *text, Sound *s)
{
    char line[4096];
    int lineno = 0;
    Layer *cur = nullptr;
    const char *p = text;
    auto fail = [&](const std::string &what) { g_err = std::string(path) + ":" + std::to_string(lineno) + ": " + what; return false; };
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (n >= sizeof line) return fail("line too long");
        memcpy(line, p, n);
        line[n] = 0;
        p += n + (nl ? 1 : 0);
        for (char *h = line; *h; h++)   /* a comment: '#' at the start or after a space (F#3 is a note) */
            if (*h == '#' && (h == line || h[-1] == ' ' || h[-1] == '\t')) { *h = 0; break; }
        char *k = line;
        while (*k == ' ' || *k == '\t' || *k == '\r') k++;
        char *e = k + strlen(k);
        while (e > k && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
        if (!*k) continue;
        if (*k == '[') {
            if (strcmp(k, "[layer]") != 0 && strcmp(k, "[track]") != 0) return fail(std::string("unknown section ") + k);
            s->layers.emplace_back();
            cur = &s->layers.back();
            continue;
        }
        char *eq = strchr(k, '=');
        if (!eq) return fail("expected key = value");
        *eq = 0;
        char *v = eq + 1;
        char *ke = eq;
        while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t')) *--ke = 0;
        while (*v == ' ' || *v == '\t') v++;
        std::string key = k;
        if (key == "type") {
            if (cur) return fail("type belongs before the first section");
            if (!strcmp(v, "music")) s->music = 1; else if (!strcmp(v, "effect")) s->music = 0; else return fail("type is effect or music");
            continue;
        }
        if (key == "wave") {
            if (!cur) { s->layers.emplace_back(); cur = &s->layers.back(); }
            static const char *W[] = { "sine", "square", "saw", "triangle", "noise", "kick" };
            int w = -1;
            for (int i = 0; i < 6; i++) if (!strcmp(v, W[i])) w = i;
            if (w < 0) return fail(std::string("unknown wave '") + v + "' (sine, square, saw, triangle, noise, kick)");
            cur->wave = w;
            continue;
        }
        if (key == "pattern") {
            if (!cur) return fail("pattern belongs in a [track]");
            cur->pattern.clear();
            for (char *t = strtok(v, " \t"); t; t = strtok(nullptr, " \t")) {
                double hz = 0;
                if (!strcmp(t, ".")) hz = 0;
                else if (!strcmp(t, "x")) hz = -1;
                else if (!note_hz(t, &hz)) return fail(std::string("bad note '") + t + "' (C4, F#3, Bb2, x or .)");
                cur->pattern.push_back(hz);
            }
            continue;
        }
        char *end;
        double x = strtod(v, &end);
        if (end == v || *end) return fail("'" + key + "' needs a number, got '" + v + "'");
        if (!std::isfinite(x)) return fail("'" + key + "' is not finite");
        auto range = [&](double lo, double hi) { return x >= lo && x <= hi; };
        bool ok = true;
        if (key == "rate") { ok = range(8000, 96000); s->rate = (int)x; }
        else if (key == "gain") { ok = range(0.01, 1); s->gain = x; }
        else if (key == "bpm") { ok = range(30, 300); s->bpm = x; }
        else if (key == "steps") { ok = range(1, 256); s->steps = (int)x; }
        else {
            if (!cur) { s->layers.emplace_back(); cur = &s->layers.back(); }
            if (key == "freq") { ok = range(1, 20000); cur->freq = x; }
            else if (key == "freq_end") { ok = range(1, 20000); cur->freq_end = x; }
            else if (key == "duty") { ok = range(0.01, 0.99); cur->duty = x; }
            else if (key == "attack") { ok = range(0, 10); cur->attack = x; }
            else if (key == "hold") { ok = range(0, 10); cur->hold = x; }
            else if (key == "decay") { ok = range(0.001, 10); cur->decay = x; }
            else if (key == "delay") { ok = range(0, 10); cur->delay = x; }
            else if (key == "volume") { ok = range(0, 4); cur->volume = x; }
            else if (key == "vibrato_hz") { ok = range(0, 100); cur->vib_hz = x; }
            else if (key == "vibrato") { ok = range(0, 1); cur->vib = x; }
            else if (key == "lowpass") { ok = range(10, 22000); cur->lowpass = x; }
            else if (key == "lowpass_end") { ok = range(10, 22000); cur->lowpass_end = x; }
            else return fail("unknown key '" + key + "'");
        }
        if (!ok) return fail("'" + key + "' = " + v + " is out of range");
    }
    if (s->layers.empty()) { lineno = 0; return fail("no layers: nothing to render"); }
    return true;
}

/* Adds one note of layer L starting at sample `start` into out (wrapping when `wrap`). */
static void render_note(const Layer &L, double hz, int rate, long start, std::vector<float> &out, bool wrap, uint32_t *seed)
{
    double dur = L.attack + L.hold + L.decay;
    long n = (long)(dur * rate);
    double f0 = hz, f1 = L.freq_end > 0 ? L.freq_end * (hz / L.freq) : hz;
    double lp0 = L.lowpass, lp1 = L.lowpass_end > 0 ? L.lowpass_end : L.lowpass;
    double phase = 0, y = 0, held = 0;
    long len = (long)out.size();
    for (long i = 0; i < n; i++) {
        long at = start + i;
        if (at >= len) { if (!wrap) break; at %= len; }
        double t = (double)i / rate, u = t / dur;
        double f = f0 * pow(f1 / f0, u);
        if (L.vib > 0) f *= 1 + L.vib * sin(6.283185307 * L.vib_hz * t);
        phase += f / rate;
        phase -= floor(phase);
        double x;
        switch (L.wave) {
        case 1: x = phase < L.duty ? 1 : -1; break;
        case 2: x = 2 * phase - 1; break;
        case 3: x = 4 * fabs(phase - 0.5) - 1; break;
        case 4:   /* noise, a new value f times a second: the frequency colours it */
            if (phase < f / rate || i == 0) { *seed = *seed * 1664525u + 1013904223u; held = (double)(*seed >> 8) / 8388608.0 - 1.0; }
            x = held;
            break;
        default: x = sin(6.283185307 * phase); break;   /* sine, kick (a sine with a steep glide) */
        }
        if (lp0 > 0) {
            double fc = lp0 * pow(lp1 / lp0, u);
            y += (1 - exp(-6.283185307 * fc / rate)) * (x - y);
            x = y;
        }
        double env = t < L.attack ? t / L.attack : t < L.attack + L.hold ? 1 : pow(1 - (t - L.attack - L.hold) / L.decay, 2);
        out[(size_t)at] += (float)(x * env * L.volume);
    }
}

static std::vector<float> render(const Sound &s)
{
    std::vector<float> out;
    uint32_t seed = 12345;
    if (s.music) {
        double step_s = 60.0 / s.bpm / 4.0;
        out.assign((size_t)(s.steps * step_s * s.rate), 0.0f);
        for (const Layer &L : s.layers) {
            if (L.pattern.empty()) continue;
            for (int st = 0; st < s.steps; st++) {
                double hz = L.pattern[(size_t)st % L.pattern.size()];
                if (hz == 0) continue;
                render_note(L, hz < 0 ? L.freq : hz, s.rate, (long)(st * step_s * s.rate), out, true, &seed);
            }
        }
    } else {
        double len = 0;
        for (const Layer &L : s.layers) len = fmax(len, L.delay + L.attack + L.hold + L.decay);
        out.assign((size_t)(len * s.rate) + 1, 0.0f);
        for (const Layer &L : s.layers) render_note(L, L.freq, s.rate, (long)(L.delay * s.rate), out, false, &seed);
    }
    float peak = 0;
    for (float x : out) peak = fmaxf(peak, fabsf(x));
    if (peak > 0) for (float &x : out) x *= (float)s.gain / peak;
    if (!s.music) {   /* 2 ms edges */
        size_t e = (size_t)(0.002 * s.rate);
        for (size_t i = 0; i < e && i < out.size(); i++) { float g = (float)i / (float)e; out[i] *= g; out[out.size() - 1 - i] *= g; }
    }
    return out;
}

static int make_one(const char *in, const char *out)
{
    FILE *f = fopen(in, "rb");
    if (!f) { fprintf(stderr, "%s: cannot open\n", in); return 1; }
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && text.size() < (1u << 20)) text.append(buf, n);
    fclose(f);
    Sound s;
    if (!parse(in, text.c_str(), &s)) { fprintf(stderr, "%s\n", g_err.c_str()); return 1; }
    std::vector<float> samples = render(s);
    std::string tmp = std::string(out) + ".tmp";
    if (!thw_write_wav16(tmp.c_str(), samples.data(), (uint32_t)samples.size(), 1, (uint32_t)s.rate) || rename(tmp.c_str(), out) != 0) {
        remove(tmp.c_str());
        fprintf(stderr, "%s: cannot write %s\n", in, out);
        return 1;
    }
    return 0;
}

static int make_all(const std::string &dir, const std::string &out_dir)
{
    DIR *d = opendir(dir.c_str());
    if (!d) return 0;
    int bad = 0;
    mkdir(out_dir.c_str(), 0755);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        std::string p = dir + "/" + e->d_name, name = e->d_name;
        struct stat st;
        if (stat(p.c_str(), &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) { bad += make_all(p, out_dir + "/" + name); continue; }
        if (name.size() < 5 || name.compare(name.size() - 4, 4, ".sfx") != 0) continue;
        bad += make_one(p.c_str(), (out_dir + "/" + name.substr(0, name.size() - 4) + ".wav").c_str());
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--all")) return make_all(argv[2], argv[3]) ? 1 : 0;
    if (argc == 3) return make_one(argv[1], argv[2]);
    fprintf(stderr, "usage: make_sfx <in.sfx> <out.wav> | make_sfx --all <sfx_dir> <out_dir>\n");
    return 2;
}
