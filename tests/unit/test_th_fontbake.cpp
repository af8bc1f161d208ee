// Unit tests for tinyheaders/th_fontbake.h: the baked-font file the host reads instead of a TTF.
// Every check thfb_decode makes is tried with one field broken in an otherwise valid file.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_FONTBAKE_IMPLEMENTATION
#include "th_fontbake.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

static thfb_font g_font;
static thfb_kern_pair g_kerns[3] = { { 33, 54, -120.0f }, { 33, 86, -80.0f }, { 54, 33, -100.0f } };  /* A-V, A-v, V-A */
static unsigned char g_alpha[16 * 8];

static void make_font(void)
{
    memset(&g_font, 0, sizeof g_font);
    g_font.page_w = 16;
    g_font.page_h = 8;
    g_font.white_x = 10;
    g_font.white_y = 2;
    g_font.ascent = 1901;
    g_font.descent = -483;
    g_font.line_gap = 0;
    g_font.unit = 1.0f / 2384;
    for (int s = 0; s < THFB_SIZE_COUNT; s++)
        for (int g = 0; g < THFB_GLYPH_COUNT; g++) {
            thfb_char &c = g_font.chars[s][g];
            c.x0 = (uint16_t)(g % 8); c.y0 = 1; c.x1 = (uint16_t)(c.x0 + 2); c.y1 = 7;
            c.xoff = -1.5f; c.yoff = -thfb_sizes[s]; c.xadvance = thfb_sizes[s] * 0.6f;
        }
    g_font.kern_count = 3;
    g_font.kerns = g_kerns;
    for (int i = 0; i < 16 * 8; i++) g_alpha[i] = (unsigned char)(i * 7);
    g_font.alpha = g_alpha;
}

static std::vector<unsigned char> encode(void)
{
    std::vector<unsigned char> out(thfb_encoded_size(&g_font));
    TH_CHECK(thfb_encode(&g_font, out.data(), out.size()) == out.size());
    return out;
}

static void test_round_trip(void)
{
    make_font();
    std::vector<unsigned char> bytes = encode();
    static thfb_font back;
    char err[128] = "";
    TH_CHECK(thfb_decode(bytes.data(), bytes.size(), &back, err, sizeof err));
    TH_CHECK(back.page_w == 16 && back.page_h == 8 && back.white_x == 10 && back.white_y == 2);
    TH_CHECK(back.ascent == 1901 && back.descent == -483 && back.unit == g_font.unit);
    TH_CHECK(memcmp(back.chars, g_font.chars, sizeof back.chars) == 0);
    TH_CHECK(back.kern_count == 3 && memcmp(back.alpha, g_alpha, sizeof g_alpha) == 0);
    TH_CHECK(thfb_kern(&back, thfb_slot('A'), thfb_slot('V')) == -120.0f);
    TH_CHECK(thfb_kern(&back, thfb_slot('V'), thfb_slot('A')) == -100.0f);
    TH_CHECK(thfb_kern(&back, thfb_slot('A'), thfb_slot('A')) == 0.0f);
    TH_CHECK(thfb_kern(&back, -1, 5000) == 0.0f);
    thfb_free(&back);
    TH_CHECK(back.alpha == NULL && back.kerns == NULL);
    TH_CHECK(thfb_encode(&g_font, bytes.data(), bytes.size() - 1) == 0);   /* too small: nothing written */
}

static void test_characters_and_sizes(void)
{
    TH_CHECK_EQ_INT(thfb_slot(' '), 0);
    TH_CHECK_EQ_INT(thfb_slot('~'), 94);
    TH_CHECK_EQ_INT(thfb_slot(0xE9), 95 + 0xE9 - 0xA0);
    TH_CHECK_EQ_INT(thfb_slot(0x1F600), THFB_GLYPH_COUNT - 1);              /* not baked: U+FFFD */
    TH_CHECK_EQ_INT(thfb_slot(0x20AC), thfb_slot(thfb_codepoint(thfb_slot(0x20AC))));
    for (int s = 0; s < THFB_GLYPH_COUNT; s++) TH_CHECK_EQ_INT(thfb_slot(thfb_codepoint(s)), s);
    TH_CHECK(thfb_codepoint(-1) == 0xFFFD && thfb_codepoint(THFB_GLYPH_COUNT) == 0xFFFD);
    TH_CHECK_EQ_INT(thfb_size_index(1), 0);
    TH_CHECK_EQ_INT(thfb_size_index(20), 3);
    TH_CHECK_EQ_INT(thfb_size_index(21), 4);
    TH_CHECK_EQ_INT(thfb_size_index(500), THFB_SIZE_COUNT - 1);
}

/* Decodes bytes that must be refused; the reason must mention `why`. */
static void refused(const std::vector<unsigned char> &bytes, const char *why)
{
    static thfb_font back;
    char err[128] = "";
    int ok = thfb_decode(bytes.data(), bytes.size(), &back, err, sizeof err);
    TH_CHECK_MSG(!ok && strstr(err, why), "wanted a refusal mentioning '%s', got ok=%d '%s'", why, ok, err);
    TH_CHECK(back.alpha == NULL && back.kerns == NULL);
}

static void put_u32(std::vector<unsigned char> &b, size_t at, uint32_t v) { for (int i = 0; i < 4; i++) b[at + i] = (unsigned char)(v >> (8 * i)); }
static void put_f32(std::vector<unsigned char> &b, size_t at, float f) { uint32_t v; memcpy(&v, &f, 4); put_u32(b, at, v); }

enum { HEADER = 52, CHARS = HEADER, KERNS = HEADER + THFB_SIZE_COUNT * THFB_GLYPH_COUNT * 20 };

static void test_every_check(void)
{
    make_font();
    const std::vector<unsigned char> good = encode();
    std::vector<unsigned char> b;
    refused(std::vector<unsigned char>(good.begin(), good.begin() + 20), "bad header");
    b = good; b[0] = 'X'; refused(b, "bad header");
    b = good; put_u32(b, 8, 9); refused(b, "other sizes");
    b = good; put_u32(b, 12, THFB_GLYPH_COUNT + 1); refused(b, "other sizes");
    b = good; put_u32(b, 16, 0); refused(b, "page size");
    b = good; put_u32(b, 20, 9000); refused(b, "page size");
    b = good; put_u32(b, 16, 0xFFFFFFFFu); refused(b, "page size");
    b = good; put_u32(b, 24, 11); refused(b, "white block");
    b = good; put_u32(b, 28, 0xFFFFFFFFu); refused(b, "white block");
    b = good; put_f32(b, 32, NAN); refused(b, "vertical metrics");
    b = good; put_f32(b, 32, -500); refused(b, "vertical metrics");          /* ascent below descent */
    b = good; put_f32(b, 40, INFINITY); refused(b, "vertical metrics");
    b = good; put_f32(b, 44, 0); refused(b, "vertical metrics");
    b = good; put_f32(b, 44, 2); refused(b, "vertical metrics");
    b = good; put_u32(b, 48, THFB_MAX_KERNS + 1); refused(b, "too many");
    b = good; put_u32(b, 48, 0xFFFFFFFFu); refused(b, "too many");
    b = good; put_u32(b, 48, 4); refused(b, "truncated");                     /* counts more than the file holds */
    b = good; b.pop_back(); refused(b, "truncated");
    b = good; b.push_back(0); refused(b, "trailing");
    b = good; b[CHARS + 4] = 17; b[CHARS + 5] = 0; refused(b, "outside the page");       /* x1 past page_w */
    b = good; b[CHARS + 0] = 5; b[CHARS + 4] = 4; refused(b, "outside the page");        /* x0 > x1 */
    b = good; put_f32(b, CHARS + 8, NAN); refused(b, "out of range");
    b = good; put_f32(b, CHARS + 16, 1e9f); refused(b, "out of range");
    b = good; b[KERNS] = 0xFF; b[KERNS + 1] = 0xFF; refused(b, "not baked");
    b = good; put_f32(b, KERNS + 4, NAN); refused(b, "out of range");
    b = good; memcpy(&b[KERNS + 8], &b[KERNS], 8); refused(b, "out of order");          /* a duplicate */
    b = good; b[KERNS + 16] = 0; refused(b, "out of order");                             /* (0, 33) after (33, 86) */
    /* the good file still decodes: each refusal came from its own broken field */
    static thfb_font back;
    TH_CHECK(thfb_decode(good.data(), good.size(), &back, NULL, 0));
    thfb_free(&back);
}

int main(void)
{
    TH_RUN(test_round_trip);
    TH_RUN(test_characters_and_sizes);
    TH_RUN(test_every_check);
    return th_test_finish();
}
