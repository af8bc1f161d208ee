// test_th_aseprite.cpp - th_aseprite.h on Aseprite files built here, in memory, by a small writer (zlib
// streams made of stored deflate blocks and an adler32, no compression library): the three color depths,
// layers with opacity and blend modes, hidden layers and groups, linked cels, tags, slices, an empty frame,
// composited pixels checked against values worked out by hand; then damaged files: truncated at every
// byte, bad magic, huge sizes, a chunk past its frame, bad zlib, each refused with a reason and no leak.
#define THASE_STB_ZLIB
#define TH_ASEPRITE_IMPLEMENTATION
#include "th_aseprite.h"
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"

#include <stdlib.h>
#include <string.h>
#include <vector>

// ---------------------------------------------------------------- the writer

struct Bytes {
    std::vector<uint8_t> b;
    Bytes &u8(int v) { b.push_back((uint8_t)v); return *this; }
    Bytes &u16(int v) { u8(v & 255); return u8((v >> 8) & 255); }
    Bytes &u32(uint32_t v) { u16((int)(v & 0xFFFF)); return u16((int)(v >> 16)); }
    Bytes &zeros(int n) { for (int i = 0; i < n; i++) u8(0); return *this; }
    Bytes &str(const char *s) { size_t n = strlen(s); u16((int)n); b.insert(b.end(), s, s + n); return *this; }
    Bytes &raw(const std::vector<uint8_t> &v) { b.insert(b.end(), v.begin(), v.end()); return *this; }
};

struct Chunk { int type; Bytes body; };
struct Frame { int duration; std::vector<Chunk> chunks; };

// zlib (RFC 1950) around stored deflate blocks (RFC 1951, BTYPE 00)
static std::vector<uint8_t> zlib_stored(const std::vector<uint8_t> &data)
{
    std::vector<uint8_t> z = { 0x78, 0x01 };
    size_t at = 0;
    do {
        size_t n = data.size() - at > 65535 ? 65535 : data.size() - at;
        z.push_back(at + n == data.size() ? 1 : 0);
        z.push_back((uint8_t)n); z.push_back((uint8_t)(n >> 8));
        z.push_back((uint8_t)~n); z.push_back((uint8_t)(~n >> 8));
        z.insert(z.end(), data.begin() + (long)at, data.begin() + (long)(at + n));
        at += n;
    } while (at < data.size());
    uint32_t a = 1, b = 0;
    for (uint8_t c : data) { a = (a + c) % 65521; b = (b + a) % 65521; }
    uint32_t adler = b << 16 | a;
    for (int k = 3; k >= 0; k--) z.push_back((uint8_t)(adler >> (8 * k)));
    return z;
}

static Chunk layer(int flags, int type, int level, int blend, int opacity, const char *name)
{
    Chunk c = { 0x2004, {} };
    c.body.u16(flags).u16(type).u16(level).u16(0).u16(0).u16(blend).u8(opacity).zeros(3).str(name);
    return c;
}

static Chunk cel_head(int lay, int x, int y, int opacity, int type)
{
    Chunk c = { 0x2005, {} };
    c.body.u16(lay).u16(x & 0xFFFF).u16(y & 0xFFFF).u8(opacity).u16(type).u16(0).zeros(5);
    return c;
}

static Chunk cel_raw(int lay, int x, int y, int opacity, int w, int h, const std::vector<uint8_t> &px)
{
    Chunk c = cel_head(lay, x, y, opacity, 0);
    c.body.u16(w).u16(h).raw(px);
    return c;
}

static Chunk cel_zlib(int lay, int x, int y, int opacity, int w, int h, const std::vector<uint8_t> &px)
{
    Chunk c = cel_head(lay, x, y, opacity, 2);
    c.body.u16(w).u16(h).raw(zlib_stored(px));
    return c;
}

static Chunk cel_linked(int lay, int x, int y, int opacity, int frame)
{
    Chunk c = cel_head(lay, x, y, opacity, 1);
    c.body.u16(frame);
    return c;
}

struct TagDesc { int from, to, dir, repeat; const char *name; };
static Chunk tags(const std::vector<TagDesc> &list)
{
    Chunk c = { 0x2018, {} };
    c.body.u16((int)list.size()).zeros(8);
    for (const TagDesc &t : list) c.body.u16(t.from).u16(t.to).u8(t.dir).u16(t.repeat).zeros(6).u8(1).u8(2).u8(3).u8(0).str(t.name);
    return c;
}

static Chunk palette(int first, const std::vector<uint8_t> &rgba, int size)
{
    Chunk c = { 0x2019, {} };
    int n = (int)rgba.size() / 4;
    c.body.u32((uint32_t)size).u32((uint32_t)first).u32((uint32_t)(first + n - 1)).zeros(8);
    for (int i = 0; i < n; i++) {
        c.body.u16(i == 0 ? 1 : 0).u8(rgba[i * 4]).u8(rgba[i * 4 + 1]).u8(rgba[i * 4 + 2]).u8(rgba[i * 4 + 3]);
        if (i == 0) c.body.str("first");
    }
    return c;
}

struct KeyDesc { int frame, x, y, w, h, cx, cy, cw, ch, px, py; };
static Chunk slice(const char *name, int flags, const std::vector<KeyDesc> &keys)
{
    Chunk c = { 0x2022, {} };
    c.body.u32((uint32_t)keys.size()).u32((uint32_t)flags).u32(0).str(name);
    for (const KeyDesc &k : keys) {
        c.body.u32((uint32_t)k.frame).u32((uint32_t)k.x).u32((uint32_t)k.y).u32((uint32_t)k.w).u32((uint32_t)k.h);
        if (flags & 1) c.body.u32((uint32_t)k.cx).u32((uint32_t)k.cy).u32((uint32_t)k.cw).u32((uint32_t)k.ch);
        if (flags & 2) c.body.u32((uint32_t)k.px).u32((uint32_t)k.py);
    }
    return c;
}

// the whole file; *chunk_at (when given) receives the byte offset of every chunk in write order
static std::vector<uint8_t> ase_file(int w, int h, int depth, uint32_t flags, int transparent, const std::vector<Frame> &frames,
                                     std::vector<size_t> *chunk_at = nullptr)
{
    Bytes f;
    f.u32(0).u16(0xA5E0).u16((int)frames.size()).u16(w).u16(h).u16(depth).u32(flags).u16(100).u32(0).u32(0);
    f.u8(transparent).zeros(3).u16(0).u8(1).u8(1).zeros(92);
    for (const Frame &fr : frames) {
        size_t start = f.b.size();
        f.u32(0).u16(0xF1FA).u16((int)fr.chunks.size()).u16(fr.duration).zeros(2).u32((uint32_t)fr.chunks.size());
        for (const Chunk &c : fr.chunks) {
            if (chunk_at) chunk_at->push_back(f.b.size());
            f.u32((uint32_t)(c.body.b.size() + 6)).u16(c.type).raw(c.body.b);
        }
        uint32_t n = (uint32_t)(f.b.size() - start);
        memcpy(&f.b[start], &n, 4);   // little-endian hosts only, as the whole engine
    }
    uint32_t n = (uint32_t)f.b.size();
    memcpy(&f.b[0], &n, 4);
    return f.b;
}

static std::vector<uint8_t> fill(int pixels, std::vector<uint8_t> px)
{
    std::vector<uint8_t> out;
    for (int i = 0; i < pixels; i++) out.insert(out.end(), px.begin(), px.end());
    return out;
}

// With THASE_SEED_DIR set, the files the tests build are also written there: the fuzz target's seeds
// (tests/fuzz/seeds/fuzz_th_aseprite) come from this.
static void seed(const char *name, const std::vector<uint8_t> &file)
{
    const char *dir = getenv("THASE_SEED_DIR");
    if (!dir) return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f) { fwrite(file.data(), 1, file.size(), f); fclose(f); }
}

// ---------------------------------------------------------------- a counting allocator

struct Counts { int allocs, frees; };
static void *count_alloc(void *user, size_t n) { ((Counts *)user)->allocs++; return malloc(n); }
static void count_free(void *user, void *p) { ((Counts *)user)->frees++; free(p); }

static bool pixel_is(const uint8_t *rgba, int i, int r, int g, int b, int a)
{
    const uint8_t *p = rgba + i * 4;
    if (p[0] == r && p[1] == g && p[2] == b && p[3] == a) return true;
    printf("    pixel %d is (%d,%d,%d,%d), expected (%d,%d,%d,%d)\n", i, p[0], p[1], p[2], p[3], r, g, b, a);
    return false;
}

// ---------------------------------------------------------------- the RGBA sprite
// 3x1, four frames. Layers: 0 bg, 1 mul (multiply, layer opacity 128), 2 scr (screen), 3 add (addition),
// 4 hidden (not visible), 5 group (hidden) holding 6 inner (visible itself). bg's three pixels are opaque
// (200,100,50), opaque (10,20,30) and half-transparent (0,0,200,128); every upper layer's pixels are
// (100,150,50,255). Frame 0: bg (compressed), mul (raw), hidden and inner (both must not show).
// Frame 1: bg linked to frame 0, scr with cel opacity 128 (compressed). Frame 2: bg linked to frame 1, add.
// Frame 3: no cels at all.
static std::vector<uint8_t> rgba_file(std::vector<size_t> *chunk_at = nullptr)
{
    const std::vector<uint8_t> bg = { 200, 100, 50, 255, 10, 20, 30, 255, 0, 0, 200, 128 };
    const std::vector<uint8_t> top = fill(3, { 100, 150, 50, 255 });
    const std::vector<uint8_t> red = fill(3, { 255, 0, 0, 255 });
    std::vector<Frame> frames(4);
    frames[0].duration = 100;
    frames[0].chunks = {
        layer(1, 0, 0, THASE_BLEND_NORMAL, 255, "bg"),
        layer(1, 0, 0, THASE_BLEND_MULTIPLY, 128, "mul"),
        layer(1, 0, 0, THASE_BLEND_SCREEN, 255, "scr"),
        layer(1, 0, 0, THASE_BLEND_ADDITION, 255, "add"),
        layer(0, 0, 0, THASE_BLEND_NORMAL, 255, "hidden"),
        layer(0, 1, 0, THASE_BLEND_NORMAL, 255, "group"),
        layer(1, 0, 1, THASE_BLEND_NORMAL, 255, "inner"),
        tags({ { 0, 1, THASE_DIR_FORWARD, 0, "fwd" }, { 1, 2, THASE_DIR_REVERSE, 2, "rev" },
               { 0, 3, THASE_DIR_PING_PONG, 0, "pp" }, { 2, 3, THASE_DIR_PING_PONG_REVERSE, 1, "ppr" } }),
        slice("btn", 3, { { 0, 1, 2, 30, 40, 4, 5, 20, 25, 15, -3 }, { 2, -2, 3, 31, 41, 6, 7, 18, 22, 0, 9 } }),
        slice("plain", 0, { { 1, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0 } }),
        cel_zlib(0, 0, 0, 255, 3, 1, bg),
        cel_raw(1, 0, 0, 255, 3, 1, top),
        cel_raw(4, 0, 0, 255, 3, 1, red),
        cel_raw(6, 0, 0, 255, 3, 1, red),
    };
    frames[1].duration = 150;
    frames[1].chunks = { cel_linked(0, 0, 0, 255, 0), cel_zlib(2, 0, 0, 128, 3, 1, top) };
    frames[2].duration = 200;
    frames[2].chunks = { cel_linked(0, 0, 0, 255, 1), cel_raw(3, 0, 0, 255, 3, 1, top) };   // a link to a link
    frames[3].duration = 50;
    return ase_file(3, 1, 32, 1, 0, frames, chunk_at);
}

static void use_frame(const uint8_t *rgba, int w, int h, uint32_t ms) { (void)rgba; (void)w; (void)h; (void)ms; }

static void test_manual_example(void)
{
    std::vector<uint8_t> file = rgba_file();
    const uint8_t *bytes = file.data();
    size_t size = file.size();
    int drawn = 0;
    // the header's EXAMPLE, as written there
    thase_sprite s;
    if (thase_load(bytes, size, NULL, &s) == THASE_OK) {
        uint8_t *rgba = (uint8_t *)malloc((size_t)s.width * s.height * 4);
        for (int f = 0; f < s.frame_count; f++) {
            thase_composite(&s, f, rgba);
            use_frame(rgba, s.width, s.height, s.frames[f].duration_ms);
            drawn++;
        }
        free(rgba);
        thase_free(&s);
    } else fprintf(stderr, "hero.aseprite: %s\n", s.error);
    TH_CHECK_EQ_INT(drawn, 4);
}

static void test_rgba_layers_and_blends(void)
{
    std::vector<uint8_t> file = rgba_file();
    seed("rgba_layers_tags_slices", file);
    thase_sprite s;
    int e = thase_load(file.data(), file.size(), NULL, &s);
    TH_CHECK_MSG(e == THASE_OK, "load: %s", s.error);
    if (e) return;
    TH_CHECK(s.width == 3 && s.height == 1 && s.depth == 32);
    TH_CHECK_EQ_INT(s.frame_count, 4);
    TH_CHECK_EQ_INT(s.layer_count, 7);
    TH_CHECK(s.frames[0].duration_ms == 100 && s.frames[1].duration_ms == 150 && s.frames[2].duration_ms == 200 && s.frames[3].duration_ms == 50);
    TH_CHECK(strcmp(s.layers[1].name, "mul") == 0 && s.layers[1].opacity == 128 && s.layers[1].blend == THASE_BLEND_MULTIPLY);
    TH_CHECK(!s.layers[4].visible && !s.layers[5].visible);
    TH_CHECK(s.layers[6].parent == 5 && !s.layers[6].visible && (s.layers[6].flags & THASE_LAYER_VISIBLE));
    TH_CHECK(s.layers[5].type == THASE_LAYER_GROUP && s.layers[0].parent == -1);
    TH_CHECK_EQ_INT((int)s.unsupported_blends, 0);

    uint8_t px[3 * 4];
    // frame 0, multiply at 128: B = Cb*Cs/255; over opaque Co = Cb + (B - Cb)*128/255 (truncated):
    //   (200,100,50) x (100,150,50): B = (78,59,10), Co = (200-61, 100-20, 50-20) = (139,80,30)
    //   (10,20,30)   x (100,150,50): B = (4,12,6),   Co = (10-3, 20-4, 30-12)    = (7,16,18)
    //   over (0,0,200,128): as = ab = 128, B = (0,0,39), Cs' = Cs + (B-Cs)*128/255 = (50,75,44),
    //   ao = 128+128-64 = 192, Co = Cb + (Cs'-Cb)*128/192 = (33,50,96)
    TH_CHECK(thase_composite(&s, 0, px));
    TH_CHECK(pixel_is(px, 0, 139, 80, 30, 255));
    TH_CHECK(pixel_is(px, 1, 7, 16, 18, 255));
    TH_CHECK(pixel_is(px, 2, 33, 50, 96, 192));
    // frame 1, screen with cel opacity 128: B = Cb + Cs - Cb*Cs/255
    //   (200,100,50): B = (222,191,90), Co = (200+11, 100+45, 50+20) = (211,145,70)
    //   (10,20,30):   B = (106,158,74), Co = (10+48, 20+69, 30+22)   = (58,89,52)
    //   (0,0,200,128): B = (100,150,211), Cs' = (100,150,131), Co = (66,100,200-46) = (66,100,154), a 192
    TH_CHECK(thase_composite(&s, 1, px));
    TH_CHECK(pixel_is(px, 0, 211, 145, 70, 255));
    TH_CHECK(pixel_is(px, 1, 58, 89, 52, 255));
    TH_CHECK(pixel_is(px, 2, 66, 100, 154, 192));
    // frame 2, addition at full opacity: min(Cb+Cs, 255) over opaque; over (0,0,200,128):
    //   B = (100,150,250), Cs' = Cs + (B-Cs)*128/255 = (100,150,150), ao = 255, Co = Cs'
    TH_CHECK(thase_composite(&s, 2, px));
    TH_CHECK(pixel_is(px, 0, 255, 250, 100, 255));
    TH_CHECK(pixel_is(px, 1, 110, 170, 80, 255));
    TH_CHECK(pixel_is(px, 2, 100, 150, 150, 255));
    // frame 3 has no cels: transparent
    memset(px, 7, sizeof px);
    TH_CHECK(thase_composite(&s, 3, px));
    for (int i = 0; i < 3; i++) TH_CHECK(pixel_is(px, i, 0, 0, 0, 0));
    TH_CHECK(!thase_composite(&s, 4, px) && !thase_composite(&s, -1, px));

    // linked cels share the pixels of the cel they show
    int c0 = thase_find_cel(&s, 0, 0), c1 = thase_find_cel(&s, 0, 1), c2 = thase_find_cel(&s, 0, 2);
    TH_CHECK(c0 >= 0 && c1 >= 0 && c2 >= 0);
    if (c0 >= 0 && c1 >= 0 && c2 >= 0) {
        TH_CHECK(s.cels[c1].linked_frame == 0 && s.cels[c2].linked_frame == 1 && s.cels[c0].linked_frame == -1);
        TH_CHECK(s.cels[c1].pixels == s.cels[c0].pixels && s.cels[c2].pixels == s.cels[c0].pixels);
        TH_CHECK(!s.cels[c1].owns_pixels && !s.cels[c2].owns_pixels && s.cels[c0].owns_pixels);
    }
    TH_CHECK_EQ_INT(thase_find_cel(&s, 0, 3), -1);
    TH_CHECK_EQ_INT(thase_find_cel(&s, 7, 0), -1);
    thase_free(&s);
}

static void test_each_blend_mode(void)
{
    // 1x1: an opaque backdrop (200,100,50) under (100,150,50) at full opacity, so the result is B itself
    struct { int mode; int r, g, b; } want[] = {
        { THASE_BLEND_NORMAL, 100, 150, 50 },     { THASE_BLEND_MULTIPLY, 78, 59, 10 },
        { THASE_BLEND_SCREEN, 222, 191, 90 },     { THASE_BLEND_DARKEN, 100, 100, 50 },
        { THASE_BLEND_LIGHTEN, 200, 150, 50 },    { THASE_BLEND_DIFFERENCE, 100, 50, 0 },
        { THASE_BLEND_ADDITION, 255, 250, 100 },  { THASE_BLEND_SUBTRACT, 100, 0, 0 },
        { THASE_BLEND_OVERLAY, 100, 150, 50 },    { THASE_BLEND_DIVIDE, 100, 150, 50 },   // drawn as normal
    };
    for (auto &w : want) {
        std::vector<Frame> frames(1);
        frames[0].duration = 10;
        frames[0].chunks = { layer(1, 0, 0, 0, 255, "bg"), layer(1, 0, 0, w.mode, 255, "top"),
                             cel_raw(0, 0, 0, 255, 1, 1, { 200, 100, 50, 255 }), cel_raw(1, 0, 0, 255, 1, 1, { 100, 150, 50, 255 }) };
        std::vector<uint8_t> file = ase_file(1, 1, 32, 1, 0, frames);
        thase_sprite s;
        int e = thase_load(file.data(), file.size(), NULL, &s);
        TH_CHECK_MSG(e == THASE_OK, "%s: %s", thase_blend_name(w.mode), s.error);
        if (e) continue;
        uint8_t px[4];
        thase_composite(&s, 0, px);
        TH_CHECK_MSG(pixel_is(px, 0, w.r, w.g, w.b, 255), "mode %s", thase_blend_name(w.mode));
        bool unsupported = w.mode == THASE_BLEND_OVERLAY || w.mode == THASE_BLEND_DIVIDE;
        TH_CHECK_EQ_INT((int)s.unsupported_blends, unsupported ? 1 << w.mode : 0);
        thase_free(&s);
    }
    TH_CHECK(strcmp(thase_blend_name(THASE_BLEND_SUBTRACT), "subtract") == 0 && strcmp(thase_blend_name(99), "?") == 0);
}

static void test_group_opacity(void)
{
    // header flags 1|2: a group at opacity 128 holding a normal layer at 255 over nothing: alpha 128
    std::vector<Frame> frames(1);
    frames[0].duration = 10;
    frames[0].chunks = { layer(1, 1, 0, 0, 128, "g"), layer(1, 0, 1, 0, 255, "child"), cel_raw(1, 0, 0, 255, 1, 1, { 10, 20, 30, 255 }) };
    std::vector<uint8_t> file = ase_file(1, 1, 32, 3, 0, frames);
    seed("group_opacity", file);
    thase_sprite s;
    TH_CHECK(thase_load(file.data(), file.size(), NULL, &s) == THASE_OK);
    uint8_t px[4];
    thase_composite(&s, 0, px);
    TH_CHECK(pixel_is(px, 0, 10, 20, 30, 128));
    thase_free(&s);
    // without header flag 2 the group's opacity is not applied; without flag 1 no layer opacity is
    file = ase_file(1, 1, 32, 1, 0, frames);
    TH_CHECK(thase_load(file.data(), file.size(), NULL, &s) == THASE_OK);
    thase_composite(&s, 0, px);
    TH_CHECK(pixel_is(px, 0, 10, 20, 30, 255));
    thase_free(&s);
    frames[0].chunks[1] = layer(1, 0, 1, 0, 64, "child");
    file = ase_file(1, 1, 32, 0, 0, frames);
    TH_CHECK(thase_load(file.data(), file.size(), NULL, &s) == THASE_OK);
    TH_CHECK(s.layers[1].opacity == 255);
    thase_free(&s);
}

static void test_tags_and_slices(void)
{
    std::vector<uint8_t> file = rgba_file();
    thase_sprite s;
    TH_CHECK(thase_load(file.data(), file.size(), NULL, &s) == THASE_OK);
    TH_CHECK_EQ_INT(s.tag_count, 4);
    int t = thase_find_tag(&s, "rev");
    TH_CHECK(t == 1 && s.tags[t].from == 1 && s.tags[t].to == 2 && s.tags[t].direction == THASE_DIR_REVERSE && s.tags[t].repeat == 2);
    TH_CHECK(s.tags[0].direction == THASE_DIR_FORWARD && s.tags[0].from == 0 && s.tags[0].to == 1);
    TH_CHECK(s.tags[2].direction == THASE_DIR_PING_PONG && s.tags[2].to == 3);
    TH_CHECK(s.tags[3].direction == THASE_DIR_PING_PONG_REVERSE && s.tags[3].from == 2 && s.tags[3].repeat == 1);
    TH_CHECK(s.tags[0].color[0] == 1 && s.tags[0].color[2] == 3);
    TH_CHECK_EQ_INT(thase_find_tag(&s, "nope"), -1);

    TH_CHECK_EQ_INT(s.slice_count, 2);
    int b = thase_find_slice(&s, "btn");
    TH_CHECK(b == 0);
    if (b == 0) {
        const thase_slice *sl = &s.slices[b];
        TH_CHECK(sl->flags == (THASE_SLICE_NINE_PATCH | THASE_SLICE_PIVOT) && sl->key_count == 2);
        const thase_slice_key *k = thase_slice_at(sl, 1);
        TH_CHECK(k && k->frame == 0 && k->x == 1 && k->y == 2 && k->width == 30 && k->height == 40);
        TH_CHECK(k && k->center_x == 4 && k->center_y == 5 && k->center_width == 20 && k->center_height == 25);
        TH_CHECK(k && k->pivot_x == 15 && k->pivot_y == -3);
        k = thase_slice_at(sl, 3);
        TH_CHECK(k && k->frame == 2 && k->x == -2 && k->width == 31 && k->center_x == 6 && k->pivot_y == 9);
    }
    int p = thase_find_slice(&s, "plain");
    TH_CHECK(p == 1 && s.slices[p].flags == 0 && s.slices[p].keys[0].width == 3);
    TH_CHECK(p == 1 && thase_slice_at(&s.slices[p], 0) == NULL);   // its only key starts at frame 1
    thase_free(&s);
}

static void test_grayscale(void)
{
    // 2x2; a 2x2 cel at (1,0): only its left column lands, at x = 1. Frame 1: the same cel at (-1,-1):
    // only its bottom-right pixel lands, at (0,0).
    const std::vector<uint8_t> g = { 100, 255, 50, 128, 10, 255, 20, 200 };
    std::vector<Frame> frames(2);
    frames[0].duration = 0;   // 0 takes the header's speed (100)
    frames[0].chunks = { layer(1, 0, 0, 0, 255, "g"), cel_raw(0, 1, 0, 255, 2, 2, g) };
    frames[1].duration = 30;
    frames[1].chunks = { cel_zlib(0, -1, -1, 255, 2, 2, g) };
    std::vector<uint8_t> file = ase_file(2, 2, 16, 1, 0, frames);
    seed("grayscale", file);
    thase_sprite s;
    int e = thase_load(file.data(), file.size(), NULL, &s);
    TH_CHECK_MSG(e == THASE_OK, "%s", s.error);
    if (e) return;
    TH_CHECK(s.frames[0].duration_ms == 100 && s.frames[1].duration_ms == 30);
    uint8_t px[16];
    thase_composite(&s, 0, px);
    TH_CHECK(pixel_is(px, 0, 0, 0, 0, 0));
    TH_CHECK(pixel_is(px, 1, 100, 100, 100, 255));
    TH_CHECK(pixel_is(px, 2, 0, 0, 0, 0));
    TH_CHECK(pixel_is(px, 3, 10, 10, 10, 255));
    thase_composite(&s, 1, px);
    TH_CHECK(pixel_is(px, 0, 20, 20, 20, 200));
    for (int i = 1; i < 4; i++) TH_CHECK(pixel_is(px, i, 0, 0, 0, 0));
    thase_free(&s);
}

static void test_indexed(void)
{
    // 4x1, transparent index 0, palette 0 (9,9,9,255), 1 (255,0,0,255), 2 (0,0,255,128); pixels 0,1,2,7
    // (7 is past the palette: opaque black). On a background layer index 0 is its palette color.
    const std::vector<uint8_t> pal = { 9, 9, 9, 255, 255, 0, 0, 255, 0, 0, 255, 128 };
    for (int background = 0; background < 2; background++) {
        std::vector<Frame> frames(1);
        frames[0].duration = 10;
        frames[0].chunks = { palette(0, pal, 3), layer(background ? 9 : 1, 0, 0, 0, 255, "px"), cel_zlib(0, 0, 0, 255, 4, 1, { 0, 1, 2, 7 }) };
        std::vector<uint8_t> file = ase_file(4, 1, 8, 1, 0, frames);
        seed(background ? "indexed_background" : "indexed", file);
        thase_sprite s;
        int e = thase_load(file.data(), file.size(), NULL, &s);
        TH_CHECK_MSG(e == THASE_OK, "%s", s.error);
        if (e) continue;
        TH_CHECK_EQ_INT(s.palette_count, 3);
        uint8_t px[16];
        thase_composite(&s, 0, px);
        if (background) TH_CHECK(pixel_is(px, 0, 9, 9, 9, 255));
        else TH_CHECK(pixel_is(px, 0, 0, 0, 0, 0));
        TH_CHECK(pixel_is(px, 1, 255, 0, 0, 255));
        TH_CHECK(pixel_is(px, 2, 0, 0, 255, 128));
        TH_CHECK(pixel_is(px, 3, 0, 0, 0, 255));
        thase_free(&s);
    }
    // the old palette chunks, used when there is no 0x2019: 0x0004 (0..255) skips 1 then sets 1 and 2;
    // 0x0011 (0..63, scaled by 255/63) in a second file sets 0 to (63,32,0) = (255,129,0)
    for (int six = 0; six < 2; six++) {
        Chunk old = { six ? 0x0011 : 0x0004, {} };
        if (six) old.body.u16(1).u8(0).u8(1).u8(63).u8(32).u8(0);
        else old.body.u16(1).u8(1).u8(2).u8(10).u8(20).u8(30).u8(40).u8(50).u8(60);
        std::vector<Frame> frames(1);
        frames[0].duration = 10;
        frames[0].chunks = { old, layer(1, 0, 0, 0, 255, "px"), cel_raw(0, 0, 0, 255, 3, 1, { 0, 1, 2 }) };
        std::vector<uint8_t> file = ase_file(3, 1, 8, 1, six ? 5 : 0, frames);
        seed(six ? "indexed_old_palette_0011" : "indexed_old_palette_0004", file);
        thase_sprite s;
        int e = thase_load(file.data(), file.size(), NULL, &s);
        TH_CHECK_MSG(e == THASE_OK, "%s", s.error);
        if (e) continue;
        uint8_t px[12];
        thase_composite(&s, 0, px);
        if (six) {
            TH_CHECK(pixel_is(px, 0, 255, 129, 0, 255));
        } else {
            TH_CHECK(pixel_is(px, 0, 0, 0, 0, 0));
            TH_CHECK(pixel_is(px, 1, 10, 20, 30, 255));
            TH_CHECK(pixel_is(px, 2, 40, 50, 60, 255));
        }
        thase_free(&s);
    }
}

static void test_tilemap_cels_are_skipped(void)
{
    std::vector<Frame> frames(1);
    frames[0].duration = 10;
    Chunk tile = cel_head(0, 0, 0, 255, 3);
    tile.body.u16(1).u16(1).u16(32).u32(0x1fffffff).u32(0).u32(0).u32(0).zeros(10).raw(zlib_stored({ 1, 0, 0, 0 }));
    frames[0].chunks = { layer(1, 0, 0, 0, 255, "t"), tile };
    std::vector<uint8_t> file = ase_file(1, 1, 32, 1, 0, frames);
    seed("tilemap_cel", file);
    thase_sprite s;
    TH_CHECK(thase_load(file.data(), file.size(), NULL, &s) == THASE_OK);
    TH_CHECK_EQ_INT(s.skipped_tilemap_cels, 1);
    TH_CHECK_EQ_INT(s.cel_count, 0);
    thase_free(&s);
}

// ---------------------------------------------------------------- the inflate and allocator hooks

struct InflateCalls { int calls; };
static int my_inflate(void *user, const uint8_t *src, size_t n, uint8_t *dst, size_t want)
{
    ((InflateCalls *)user)->calls++;
    return stbi_zlib_decode_buffer((char *)dst, (int)want, (const char *)src, (int)n);
}

static void test_hooks(void)
{
    std::vector<uint8_t> file = rgba_file();
    Counts counts = { 0, 0 };
    InflateCalls calls = { 0 };
    thase_settings set;
    memset(&set, 0, sizeof set);
    set.alloc = count_alloc;
    set.free = count_free;
    set.alloc_user = &counts;
    set.inflate = my_inflate;
    set.inflate_user = &calls;
    thase_sprite s;
    TH_CHECK(thase_load(file.data(), file.size(), &set, &s) == THASE_OK);
    TH_CHECK_EQ_INT(calls.calls, 2);
    TH_CHECK(counts.allocs > 10 && counts.frees == 0);
    thase_free(&s);
    TH_CHECK_EQ_INT(counts.allocs, counts.frees);
    thase_free(&s);   // a second free is harmless
    TH_CHECK_EQ_INT(counts.allocs, counts.frees);
}

// ---------------------------------------------------------------- damaged files

static int load_with_counts(const uint8_t *d, size_t n, thase_sprite *s, const thase_settings *base = nullptr)
{
    Counts counts = { 0, 0 };
    thase_settings set;
    if (base) set = *base;
    else memset(&set, 0, sizeof set);
    set.alloc = count_alloc;
    set.free = count_free;
    set.alloc_user = &counts;
    int e = thase_load(d, n, &set, s);
    if (e == THASE_OK) thase_free(s);
    TH_CHECK_MSG(counts.allocs == counts.frees, "%d allocations, %d frees", counts.allocs, counts.frees);
    return e;
}

static void test_truncated_at_every_byte(void)
{
    std::vector<uint8_t> file = rgba_file();
    int refused = 0;
    for (size_t n = 0; n < file.size(); n++) {
        uint8_t *copy = (uint8_t *)malloc(n ? n : 1);   // exactly n bytes, so ASan sees any read past them
        memcpy(copy, file.data(), n);
        thase_sprite s;
        int e = load_with_counts(copy, n, &s);
        if (e != THASE_OK && s.error[0]) refused++;
        else printf("    %lu bytes: code %d, \"%s\"\n", (unsigned long)n, e, s.error);
        free(copy);
    }
    TH_CHECK_EQ_INT(refused, (int)file.size());
    // the same with the header's file size rewritten to each length: the parser meets the cut itself
    refused = 0;
    for (size_t n = 128; n < file.size(); n++) {
        uint8_t *copy = (uint8_t *)malloc(n);
        memcpy(copy, file.data(), n);
        uint32_t size = (uint32_t)n;
        memcpy(copy, &size, 4);
        thase_sprite s;
        if (load_with_counts(copy, n, &s) != THASE_OK && s.error[0]) refused++;
        free(copy);
    }
    TH_CHECK_EQ_INT(refused, (int)file.size() - 128);
}

static void test_bad_header(void)
{
    std::vector<uint8_t> file = rgba_file();
    thase_sprite s;
    std::vector<uint8_t> bad = file;
    bad[4] = 0xE1;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_FORMAT);
    TH_CHECK(strstr(s.error, "0xA5E0") != NULL);
    bad = file;
    bad[8] = bad[9] = bad[10] = bad[11] = 0xFF;   // 65535 x 65535
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_LIMIT);
    TH_CHECK(strstr(s.error, "65535x65535") != NULL);
    bad = file;
    bad[6] = bad[7] = 0xFF;   // 65535 frames: over max_frames
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_LIMIT);
    bad = file;
    bad[12] = 24;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_FORMAT);
    TH_CHECK(load_with_counts(nullptr, 0, &s) == THASE_ERR_ARGS);
    // a smaller limit from the settings
    thase_settings set;
    memset(&set, 0, sizeof set);
    set.max_dimension = 2;
    TH_CHECK(load_with_counts(file.data(), file.size(), &s, &set) == THASE_ERR_LIMIT);
    memset(&set, 0, sizeof set);
    set.max_pixel_bytes = 20;   // bg (12 bytes) fits, mul's 12 more do not
    TH_CHECK(load_with_counts(file.data(), file.size(), &s, &set) == THASE_ERR_LIMIT);
    TH_CHECK(strstr(s.error, "chunk 0x2005") != NULL);
    memset(&set, 0, sizeof set);
    set.max_layers = 3;
    TH_CHECK(load_with_counts(file.data(), file.size(), &s, &set) == THASE_ERR_LIMIT);
}

static void test_bad_chunks(void)
{
    std::vector<size_t> at;
    std::vector<uint8_t> file = rgba_file(&at);
    thase_sprite s;
    char want[64];
    // the first cel (chunk 10 of frame 0) says it is bigger than what is left of its frame
    std::vector<uint8_t> bad = file;
    bad[at[10] + 2] = 0x7F;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_TRUNCATED);
    snprintf(want, sizeof want, "chunk 0x2005 at byte %lu", (unsigned long)at[10]);
    TH_CHECK_MSG(strstr(s.error, want) != NULL, "error \"%s\" lacks \"%s\"", s.error, want);
    // a chunk size under 6
    bad = file;
    bad[at[0]] = 3;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_TRUNCATED);
    // bad zlib: the adler32 (last byte of the first cel) and the zlib header (first bytes of its stream)
    size_t cel_end = at[11];
    bad = file;
    bad[cel_end - 1] ^= 0x55;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_ZLIB);
    snprintf(want, sizeof want, "chunk 0x2005 at byte %lu", (unsigned long)at[10]);
    TH_CHECK_MSG(strstr(s.error, want) != NULL, "error \"%s\" lacks \"%s\"", s.error, want);
    bad = file;
    bad[at[10] + 6 + 20] = 0x00;   // CMF
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_ZLIB);
    // a stream of the wrong length for its cel: 3x1 RGBA needs 12 bytes, this holds 8
    std::vector<Frame> frames(1);
    frames[0].duration = 10;
    Chunk c = cel_head(0, 0, 0, 255, 2);
    c.body.u16(3).u16(1).raw(zlib_stored(std::vector<uint8_t>(8, 1)));
    frames[0].chunks = { layer(1, 0, 0, 0, 255, "l"), c };
    std::vector<uint8_t> f2 = ase_file(3, 1, 32, 1, 0, frames);
    TH_CHECK(load_with_counts(f2.data(), f2.size(), &s) == THASE_ERR_ZLIB);
    // a cel on a layer that does not exist, a link to a later frame, a child with no group, a bad tag range
    frames[0].chunks = { layer(1, 0, 0, 0, 255, "l"), cel_raw(3, 0, 0, 255, 1, 1, { 1, 2, 3, 4 }) };
    f2 = ase_file(1, 1, 32, 1, 0, frames);
    TH_CHECK(load_with_counts(f2.data(), f2.size(), &s) == THASE_ERR_FORMAT);
    frames[0].chunks = { layer(1, 0, 0, 0, 255, "l"), cel_linked(0, 0, 0, 255, 0) };
    f2 = ase_file(1, 1, 32, 1, 0, frames);
    TH_CHECK(load_with_counts(f2.data(), f2.size(), &s) == THASE_ERR_FORMAT);
    frames[0].chunks = { layer(1, 0, 0, 0, 255, "l"), layer(1, 0, 1, 0, 255, "orphan") };
    f2 = ase_file(1, 1, 32, 1, 0, frames);
    TH_CHECK(load_with_counts(f2.data(), f2.size(), &s) == THASE_ERR_FORMAT);
    frames[0].chunks = { tags({ { 0, 1, 0, 0, "past" } }) };
    f2 = ase_file(1, 1, 32, 1, 0, frames);
    TH_CHECK(load_with_counts(f2.data(), f2.size(), &s) == THASE_ERR_FORMAT);
    // a frame whose byte count runs past the file, and a frame magic that is wrong
    bad = file;
    bad[128 + 3] = 0x40;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_TRUNCATED);
    bad = file;
    bad[128 + 4] = 0;
    TH_CHECK(load_with_counts(bad.data(), bad.size(), &s) == THASE_ERR_FORMAT);
}

// every single byte flipped: never a crash, and each outcome either a sprite or a reason
static void test_every_byte_flipped(void)
{
    std::vector<uint8_t> file = rgba_file();
    int bad = 0;
    for (size_t i = 0; i < file.size(); i++) {
        for (int flip : { 0x01, 0x80, 0xFF }) {
            std::vector<uint8_t> copy = file;
            copy[i] ^= (uint8_t)flip;
            thase_sprite s;
            int e = load_with_counts(copy.data(), copy.size(), &s);
            if (e != THASE_OK && !s.error[0]) bad++;
        }
    }
    TH_CHECK_EQ_INT(bad, 0);
}

int main(void)
{
    TH_RUN(test_manual_example);
    TH_RUN(test_rgba_layers_and_blends);
    TH_RUN(test_each_blend_mode);
    TH_RUN(test_group_opacity);
    TH_RUN(test_tags_and_slices);
    TH_RUN(test_grayscale);
    TH_RUN(test_indexed);
    TH_RUN(test_tilemap_cels_are_skipped);
    TH_RUN(test_hooks);
    TH_RUN(test_truncated_at_every_byte);
    TH_RUN(test_bad_header);
    TH_RUN(test_bad_chunks);
    TH_RUN(test_every_byte_flipped);
    return th_test_finish();
}
