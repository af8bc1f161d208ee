/* font_bake - turns a TrueType/OpenType font into a baked font file (format: tinyheaders/th_fontbake.h).

   usage: font_bake <font.ttf> <out.thfb>

   The host runs this as a child process for the font it uses (at start and whenever the file is
   saved) and reads only the result: stb_truetype trusts its input, and a crafted or damaged font
   can make it read far outside the file. Here that costs this process, never the host.

   What it bakes: every character of thfb_codepoint() at every size of thfb_sizes, packed into one
   alpha page 1024 wide (height: the power of two that holds them, at most 8192), a 6x6 white block
   for rectangles, the glyph boxes and advances, every non-zero kerning pair between baked
   characters (from 'kern' or 'GPOS', as stb_truetype reads them) and the vertical metrics.

   Before stb_truetype sees the file, its table directory, the tables the baker reads and the glyph
   locations are checked, so an ordinary truncated or garbage file gets a reason rather than a
   crash. Limits on CPU time (20 s) and memory (2 GB) stop a font that makes the baker loop or grow.

   Output: written to <out>.tmp.<pid> and renamed, so a reader never sees half a file.
   Errors: one line "font_bake: <file>: <reason>" on stderr. Exit status: 0 written, 1 the font
   cannot be baked, 2 bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <string>
#include <vector>

#include <stb_rect_pack.h>
#include <stb_truetype.h>

#define TH_FONTBAKE_IMPLEMENTATION
#include "th_fontbake.h"

static const long MAX_FONT_BYTES = 64L << 20;
static const char *g_path = "";

static int fail(const std::string &why)
{
    fprintf(stderr, "font_bake: %s: %s\n", g_path, why.c_str());
    return 1;
}

static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t be16(const unsigned char *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* The table directory, the tables stb_truetype starts from, and the glyph locations. */
static bool font_check(const unsigned char *d, size_t n, std::string *why)
{
    if (n < 12) { *why = "file too small to be a font"; return false; }
    uint32_t base = 0, tag = be32(d);
    if (tag == 0x74746366u) {               /* 'ttcf': first font of a collection */
        if (n < 16) { *why = "truncated font collection"; return false; }
        base = be32(d + 12);
        if ((size_t)base + 12 > n) { *why = "truncated font collection"; return false; }
        tag = be32(d + base);
    }
    if (tag != 0x00010000u && tag != 0x74727565u /* true */ && tag != 0x4F54544Fu /* OTTO */) { *why = "not a TrueType/OpenType file"; return false; }
    uint32_t ntables = be16(d + base + 4);
    if (base + 12 + (size_t)ntables * 16 > n) { *why = "truncated table directory"; return false; }
    uint32_t off_cmap = 0, off_head = 0, off_hhea = 0, off_hmtx = 0, off_loca = 0, off_glyf = 0, off_maxp = 0, off_cff = 0;
    uint32_t len_loca = 0, len_glyf = 0, len_head = 0, len_maxp = 0, len_hhea = 0, len_hmtx = 0, len_cmap = 0;
    for (uint32_t i = 0; i < ntables; i++) {
        const unsigned char *r = d + base + 12 + i * 16;
        uint32_t t = be32(r), off = be32(r + 8), len = be32(r + 12);
        if ((uint64_t)off + len > n) {
            char b[96];
            snprintf(b, sizeof b, "table '%c%c%c%c' runs past the end of the file (truncated?)", r[0], r[1], r[2], r[3]);
            *why = b;
            return false;
        }
        switch (t) {
        case 0x636D6170u: off_cmap = off; len_cmap = len; break;
        case 0x68656164u: off_head = off; len_head = len; break;
        case 0x68686561u: off_hhea = off; len_hhea = len; break;
        case 0x686D7478u: off_hmtx = off; len_hmtx = len; break;
        case 0x6C6F6361u: off_loca = off; len_loca = len; break;
        case 0x676C7966u: off_glyf = off; len_glyf = len; break;
        case 0x6D617870u: off_maxp = off; len_maxp = len; break;
        case 0x43464620u: off_cff = off; break;
        default: break;
        }
    }
    if (!off_cmap || !off_head || !off_hhea || !off_hmtx || !off_maxp) { *why = "a required table (cmap, head, hhea, hmtx, maxp) is missing"; return false; }
    if (len_head < 54 || len_maxp < 6 || len_hhea < 36 || len_cmap < 4) { *why = "head/maxp/hhea/cmap table too short"; return false; }
    uint32_t nsub = be16(d + off_cmap + 2);
    if (4 + (uint64_t)nsub * 8 > len_cmap) { *why = "cmap table too short for its encodings"; return false; }
    for (uint32_t i = 0; i < nsub; i++)
        if ((uint64_t)be32(d + off_cmap + 4 + i * 8 + 4) + 4 > len_cmap) { *why = "a cmap encoding points outside the cmap table"; return false; }
    uint32_t nglyphs = be16(d + off_maxp + 4), nmetrics = be16(d + off_hhea + 34);
    if (nmetrics == 0 || (uint64_t)nmetrics * 4 > len_hmtx) { *why = "hmtx table too short"; return false; }
    if (off_cff) return true;
    if (!off_loca || !off_glyf) { *why = "no glyph outlines (glyf/loca or CFF)"; return false; }
    int long_loca = (int)be16(d + off_head + 50);
    uint64_t need = ((uint64_t)nglyphs + 1) * (long_loca ? 4 : 2);
    if (need > len_loca) { *why = "loca table too short"; return false; }
    uint64_t prev = 0;
    for (uint32_t g = 0; g <= nglyphs; g++) {
        uint64_t o = long_loca ? be32(d + off_loca + g * 4) : (uint64_t)be16(d + off_loca + g * 2) * 2;
        if (o > len_glyf || o < prev) { *why = "glyph locations point outside the glyf table"; return false; }
        prev = o;
    }
    return true;
}

static bool read_file(const char *path, std::vector<unsigned char> *out, std::string *why)
{
    FILE *f = fopen(path, "rb");
    if (!f) { *why = std::string("cannot open (") + strerror(errno) + ")"; return false; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n <= 0 || n > MAX_FONT_BYTES) { fclose(f); *why = n <= 0 ? "empty file" : "larger than 64 MB"; return false; }
    out->resize((size_t)n);
    size_t got = fread(out->data(), 1, (size_t)n, f);
    fclose(f);
    if (got != (size_t)n) { *why = "cannot read"; return false; }
    return true;
}

/* CPU seconds and bytes of address space; on Windows only the host's timeout applies. */
static void limit_self(long cpu_seconds, unsigned long long bytes)
{
#ifdef _WIN32
    (void)cpu_seconds; (void)bytes;
#else
    struct rlimit r;
    r.rlim_cur = r.rlim_max = (rlim_t)cpu_seconds;
    setrlimit(RLIMIT_CPU, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)bytes;
    setrlimit(RLIMIT_AS, &r);
#endif
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: font_bake <font.ttf> <out.thfb>\n"); return 2; }
    g_path = argv[1];
    limit_self(20, 2ull << 30);

    std::vector<unsigned char> ttf;
    std::string why;
    if (!read_file(argv[1], &ttf, &why)) return fail(why);
    if (!font_check(ttf.data(), ttf.size(), &why)) return fail(why);
    stbtt_fontinfo info;
    int off = stbtt_GetFontOffsetForIndex(ttf.data(), 0);
    if (off < 0 || !stbtt_InitFont(&info, ttf.data(), off)) return fail("stb_truetype cannot read this font");

    static thfb_font font;
    memset(&font, 0, sizeof font);
    int cps[THFB_GLYPH_COUNT], glyph[THFB_GLYPH_COUNT];
    for (int k = 0; k < THFB_GLYPH_COUNT; k++) cps[k] = (int)thfb_codepoint(k);
    for (int k = 0; k < THFB_GLYPH_COUNT; k++) glyph[k] = stbtt_FindGlyphIndex(&info, cps[k]);

    static stbtt_packedchar chars[THFB_SIZE_COUNT][THFB_GLYPH_COUNT];
    stbtt_pack_range ranges[THFB_SIZE_COUNT];
    memset(ranges, 0, sizeof ranges);
    for (int s = 0; s < THFB_SIZE_COUNT; s++) {
        ranges[s].font_size = thfb_sizes[s];
        ranges[s].array_of_unicode_codepoints = cps;
        ranges[s].num_chars = THFB_GLYPH_COUNT;
        ranges[s].chardata_for_range = chars[s];
    }
    std::vector<stbrp_rect> rects((size_t)THFB_SIZE_COUNT * THFB_GLYPH_COUNT + 1);
    const int W = 1024;
    std::vector<unsigned char> page;
    for (int H = 1024; H <= THFB_MAX_SIDE && page.empty(); H *= 2) {
        stbtt_pack_context spc;
        if (!stbtt_PackBegin(&spc, nullptr, W, H, 0, 1, nullptr)) break;
        stbtt_PackSetOversampling(&spc, 1, 1);
        int nr = stbtt_PackFontRangesGatherRects(&spc, &info, ranges, THFB_SIZE_COUNT, rects.data());
        stbrp_rect &white = rects[(size_t)nr];
        memset(&white, 0, sizeof white);
        white.w = white.h = THFB_WHITE;
        stbtt_PackFontRangesPackRects(&spc, rects.data(), nr + 1);
        bool packed = true;
        int used_h = 0;
        for (int k = 0; k <= nr; k++) {
            if (!rects[(size_t)k].was_packed) { packed = false; break; }
            used_h = std::max(used_h, rects[(size_t)k].y + rects[(size_t)k].h);
        }
        if (packed) {
            std::vector<unsigned char> alpha((size_t)W * H, 0);
            spc.pixels = alpha.data();
            stbtt_PackFontRangesRenderIntoRects(&spc, &info, ranges, THFB_SIZE_COUNT, rects.data());
            font.white_x = white.x;
            font.white_y = white.y;
            for (int y = 0; y < THFB_WHITE; y++) memset(&alpha[(size_t)(white.y + y) * W + white.x], 255, THFB_WHITE);
            int h = 1;
            while (h < used_h) h *= 2;          /* power of two: exact UVs, like the atlas pages */
            alpha.resize((size_t)W * h);
            page.swap(alpha);
            font.page_w = W;
            font.page_h = h;
        }
        stbtt_PackEnd(&spc);
    }
    if (page.empty()) return fail("glyphs do not fit a 1024x8192 page");
    font.alpha = page.data();
    for (int s = 0; s < THFB_SIZE_COUNT; s++)
        for (int g = 0; g < THFB_GLYPH_COUNT; g++) {
            const stbtt_packedchar &pc = chars[s][g];
            thfb_char &c = font.chars[s][g];
            c.x0 = pc.x0; c.y0 = pc.y0; c.x1 = pc.x1; c.y1 = pc.y1;
            c.xoff = pc.xoff; c.yoff = pc.yoff; c.xadvance = pc.xadvance;
        }

    int asc = 0, desc = 0, gap = 0;
    stbtt_GetFontVMetrics(&info, &asc, &desc, &gap);
    if (asc - desc <= 0) return fail("bad vertical metrics");
    font.ascent = (float)asc;
    font.descent = (float)desc;
    font.line_gap = (float)gap;
    font.unit = 1.0f / (float)(asc - desc);

    /* every non-zero pair between baked characters, in (a, b) order */
    std::vector<thfb_kern_pair> kerns;
    for (int a = 0; a < THFB_GLYPH_COUNT; a++) {
        if (!glyph[a]) continue;
        for (int b = 0; b < THFB_GLYPH_COUNT; b++) {
            if (!glyph[b]) continue;
            int k = stbtt_GetGlyphKernAdvance(&info, glyph[a], glyph[b]);
            if (k) kerns.push_back({ (uint16_t)a, (uint16_t)b, (float)k });
        }
    }
    if (kerns.size() > THFB_MAX_KERNS) kerns.resize(THFB_MAX_KERNS);
    font.kerns = kerns.data();
    font.kern_count = (int)kerns.size();

    std::vector<unsigned char> out(thfb_encoded_size(&font));
    thfb_encode(&font, out.data(), out.size());
    std::string tmp = std::string(argv[2]) + ".tmp." + std::to_string(getpid());
    FILE *f = fopen(tmp.c_str(), "wb");
    if (!f) return fail("cannot write " + tmp + " (" + strerror(errno) + ")");
    bool ok = fwrite(out.data(), 1, out.size(), f) == out.size();
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp.c_str(), argv[2]) != 0) {
        remove(tmp.c_str());
        return fail(std::string("cannot write ") + argv[2]);
    }
    return 0;
}
