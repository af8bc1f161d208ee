/* th_fontbake.h - baked fonts: the glyph page and metrics a font turns into, as one checked file.

   th_fontbake.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     A TrueType file is untrusted input, and stb_truetype reads it without bounds checks: a damaged
     table can crash whatever process parses it. So the engine never parses TTFs in the host. The
     tool tools/font_bake (a child process) runs stb_truetype and writes what the host needs - one
     alpha page with every glyph at every baked size, the glyph boxes and advances, the kerning pairs
     and the vertical metrics - in this header's format. The host reads only that, with
     thfb_decode, which checks every field and length before it trusts any of it. A crash in the
     child costs a message; a bad baked file is refused with a reason.
     The header also owns what is baked: the pixel sizes (thfb_sizes) and the characters (ASCII,
     Latin-1, Latin Extended-A, common punctuation; U+FFFD stands in for every other one).

   USE
     #define TH_FONTBAKE_IMPLEMENTATION   (in exactly one C or C++ file)
     #include "th_fontbake.h"
     C99 or C++. Allocates with THFB_MALLOC/THFB_FREE (default malloc/free).

   EXAMPLE
     thfb_font f;
     char err[256];
     if (thfb_decode(bytes, len, &f, err, sizeof err)) {
         int slot = thfb_slot(0x00E9);                      // 'é'
         const thfb_char *c = &f.chars[thfb_size_index(20.0f)][slot];
         float kern = thfb_kern(&f, thfb_slot('A'), thfb_slot('V')) * f.unit * 20.0f;  // pixels at 20 px
         thfb_free(&f);
     } else printf("font: %s\n", err);

   THE FORMAT (binary, little-endian; each count is checked against the file's length)
     "THFONT01"                                    8 bytes: magic and version
     u32 size_count glyph_count                    must equal THFB_SIZE_COUNT, THFB_GLYPH_COUNT
     u32 page_w page_h white_x white_y             the alpha page (1..8192 a side) and the 6x6 white
                                                   block rectangles sample
     f32 ascent descent line_gap unit              font units; unit = scale for a 1 px line height
     u32 kern_count
     size_count * glyph_count chars:               u16 x0 y0 x1 y1 (box in the page), f32 xoff yoff
                                                   xadvance (pixels at that size)
     kern_count pairs:                             u16 slot_a slot_b, f32 advance (font units),
                                                   sorted by (a, b), no duplicates, no zeros needed
     page_w * page_h bytes                         the alpha page, row by row
   Nothing follows. Limits: |metrics|, |advance| <= 65536; |offsets| <= 8192; kern_count <=
   THFB_MAX_KERNS; every float finite; ascent > descent; 0 < unit <= 1.

   ERRORS
     thfb_decode returns 0 and writes a one-line reason into err (which may be NULL); the font is
     then empty and needs no thfb_free.

   Names: public thfb_, private thfb__.
*/
#ifndef TH_FONTBAKE_H
#define TH_FONTBAKE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define THFB_SIZE_COUNT  10
#define THFB_EXTRA_COUNT 15
#define THFB_GLYPH_COUNT (95 + (0x180 - 0xA0) + THFB_EXTRA_COUNT)
#define THFB_WHITE       6                 /* side of the white block */
#define THFB_MAX_SIDE    8192
#define THFB_MAX_KERNS   (1 << 20)

typedef struct thfb_char {
    uint16_t x0, y0, x1, y1;               /* box in the page; empty (x0 == x1) for blank glyphs */
    float    xoff, yoff, xadvance;         /* pixels at the size it was baked at */
} thfb_char;

typedef struct thfb_kern_pair {
    uint16_t a, b;                         /* slots */
    float    advance;                      /* font units */
} thfb_kern_pair;

typedef struct thfb_font {
    int            page_w, page_h;
    int            white_x, white_y;
    float          ascent, descent, line_gap, unit;
    thfb_char      chars[THFB_SIZE_COUNT][THFB_GLYPH_COUNT];
    int            kern_count;
    thfb_kern_pair *kerns;
    unsigned char  *alpha;                 /* page_w * page_h */
} thfb_font;

extern const float thfb_sizes[THFB_SIZE_COUNT];   /* baked pixel heights, ascending */

int      thfb_slot(uint32_t codepoint);            /* slot of a character; U+FFFD's for one not baked */
uint32_t thfb_codepoint(int slot);                 /* the character baked in a slot */
int      thfb_size_index(float px);                /* the smallest baked size >= px (the largest if none) */
float    thfb_kern(const thfb_font *f, int slot_a, int slot_b);  /* font units, 0 if no pair */

size_t   thfb_encoded_size(const thfb_font *f);
size_t   thfb_encode(const thfb_font *f, unsigned char *out, size_t cap);   /* bytes written, 0 if cap is short */
int      thfb_decode(const unsigned char *data, size_t len, thfb_font *out, char *err, size_t errcap);
void     thfb_free(thfb_font *f);

#ifdef __cplusplus
}
#endif
#endif /* TH_FONTBAKE_H */

/* ==================================================================================== implementation */
#ifdef TH_FONTBAKE_IMPLEMENTATION
#ifndef TH_FONTBAKE_IMPLEMENTED
#define TH_FONTBAKE_IMPLEMENTED
#include <string.h>
#include <stdio.h>
#include <math.h>

#ifndef THFB_MALLOC
#include <stdlib.h>
#define THFB_MALLOC(n) malloc(n)
#define THFB_FREE(p)   free(p)
#endif

#ifdef __cplusplus
extern "C" {
#endif

const float thfb_sizes[THFB_SIZE_COUNT] = { 12, 14, 16, 20, 24, 28, 32, 40, 48, 64 };

static const uint32_t thfb__extra[THFB_EXTRA_COUNT] = { 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2026,
                                                        0x20AC, 0x2122, 0x2190, 0x2191, 0x2192, 0x2193, 0xFFFD };

int thfb_slot(uint32_t cp)
{
    int i;
    if (cp >= 32 && cp < 127) return (int)cp - 32;
    if (cp >= 0xA0 && cp < 0x180) return 95 + (int)cp - 0xA0;
    for (i = 0; i < THFB_EXTRA_COUNT; i++) if (thfb__extra[i] == cp) return 95 + (0x180 - 0xA0) + i;
    return THFB_GLYPH_COUNT - 1;   /* U+FFFD */
}

uint32_t thfb_codepoint(int slot)
{
    if (slot < 0 || slot >= THFB_GLYPH_COUNT) return 0xFFFD;
    if (slot < 95) return (uint32_t)slot + 32;
    if (slot < 95 + (0x180 - 0xA0)) return (uint32_t)(slot - 95) + 0xA0;
    return thfb__extra[slot - 95 - (0x180 - 0xA0)];
}

int thfb_size_index(float px)
{
    int i;
    for (i = 0; i < THFB_SIZE_COUNT; i++) if (thfb_sizes[i] >= px) return i;
    return THFB_SIZE_COUNT - 1;
}

float thfb_kern(const thfb_font *f, int a, int b)
{
    uint32_t key = (uint32_t)a << 16 | (uint32_t)b;
    int lo = 0, hi = f->kern_count - 1;
    if (a < 0 || b < 0 || a >= THFB_GLYPH_COUNT || b >= THFB_GLYPH_COUNT) return 0;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        uint32_t k = (uint32_t)f->kerns[mid].a << 16 | f->kerns[mid].b;
        if (k == key) return f->kerns[mid].advance;
        if (k < key) lo = mid + 1; else hi = mid - 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- writing */
#define THFB__HEADER (8 + 4 * 2 + 4 * 4 + 4 * 4 + 4)
#define THFB__CHAR   (2 * 4 + 4 * 3)
#define THFB__KERN   (2 * 2 + 4)

size_t thfb_encoded_size(const thfb_font *f)
{
    return THFB__HEADER + (size_t)THFB_SIZE_COUNT * THFB_GLYPH_COUNT * THFB__CHAR + (size_t)f->kern_count * THFB__KERN +
           (size_t)f->page_w * (size_t)f->page_h;
}

static unsigned char *thfb__u16(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); return p + 2; }
static unsigned char *thfb__u32(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24); return p + 4; }
static unsigned char *thfb__f32(unsigned char *p, float v) { uint32_t u; memcpy(&u, &v, 4); return thfb__u32(p, u); }

size_t thfb_encode(const thfb_font *f, unsigned char *out, size_t cap)
{
    size_t need = thfb_encoded_size(f);
    unsigned char *p = out;
    int s, g, k;
    if (cap < need) return 0;
    memcpy(p, "THFONT01", 8); p += 8;
    p = thfb__u32(p, THFB_SIZE_COUNT); p = thfb__u32(p, THFB_GLYPH_COUNT);
    p = thfb__u32(p, (uint32_t)f->page_w); p = thfb__u32(p, (uint32_t)f->page_h);
    p = thfb__u32(p, (uint32_t)f->white_x); p = thfb__u32(p, (uint32_t)f->white_y);
    p = thfb__f32(p, f->ascent); p = thfb__f32(p, f->descent); p = thfb__f32(p, f->line_gap); p = thfb__f32(p, f->unit);
    p = thfb__u32(p, (uint32_t)f->kern_count);
    for (s = 0; s < THFB_SIZE_COUNT; s++)
        for (g = 0; g < THFB_GLYPH_COUNT; g++) {
            const thfb_char *c = &f->chars[s][g];
            p = thfb__u16(p, c->x0); p = thfb__u16(p, c->y0); p = thfb__u16(p, c->x1); p = thfb__u16(p, c->y1);
            p = thfb__f32(p, c->xoff); p = thfb__f32(p, c->yoff); p = thfb__f32(p, c->xadvance);
        }
    for (k = 0; k < f->kern_count; k++) {
        p = thfb__u16(p, f->kerns[k].a); p = thfb__u16(p, f->kerns[k].b); p = thfb__f32(p, f->kerns[k].advance);
    }
    memcpy(p, f->alpha, (size_t)f->page_w * (size_t)f->page_h);
    return need;
}

/* ---------------------------------------------------------------- reading */
static uint32_t thfb__ru16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t thfb__ru32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static float thfb__rf32(const unsigned char *p) { uint32_t u = thfb__ru32(p); float v; memcpy(&v, &u, 4); return v; }
static int thfb__within(float v, float limit) { return v == v && v >= -limit && v <= limit; }   /* NaN fails v == v */

static int thfb__fail(thfb_font *out, char *err, size_t cap, const char *why)
{
    if (err && cap) snprintf(err, cap, "%s", why);
    THFB_FREE(out->kerns);
    THFB_FREE(out->alpha);
    memset(out, 0, sizeof *out);
    return 0;
}

int thfb_decode(const unsigned char *d, size_t len, thfb_font *out, char *err, size_t cap)
{
    const unsigned char *p;
    uint64_t need;
    uint32_t kern_count, page_w, page_h, white_x, white_y;
    int s, g, k;
    memset(out, 0, sizeof *out);
    if (len < THFB__HEADER || memcmp(d, "THFONT01", 8) != 0) return thfb__fail(out, err, cap, "not a baked font (bad header)");
    if (thfb__ru32(d + 8) != THFB_SIZE_COUNT || thfb__ru32(d + 12) != THFB_GLYPH_COUNT)
        return thfb__fail(out, err, cap, "baked for other sizes or characters (rebake it)");
    page_w = thfb__ru32(d + 16); page_h = thfb__ru32(d + 20);
    white_x = thfb__ru32(d + 24); white_y = thfb__ru32(d + 28);
    if (page_w < THFB_WHITE || page_h < THFB_WHITE || page_w > THFB_MAX_SIDE || page_h > THFB_MAX_SIDE)
        return thfb__fail(out, err, cap, "page size out of range");
    if (white_x > page_w - THFB_WHITE || white_y > page_h - THFB_WHITE) return thfb__fail(out, err, cap, "white block outside the page");
    out->page_w = (int)page_w; out->page_h = (int)page_h;
    out->white_x = (int)white_x; out->white_y = (int)white_y;
    out->ascent = thfb__rf32(d + 32); out->descent = thfb__rf32(d + 36);
    out->line_gap = thfb__rf32(d + 40); out->unit = thfb__rf32(d + 44);
    if (!thfb__within(out->ascent, 65536) || !thfb__within(out->descent, 65536) || !thfb__within(out->line_gap, 65536) ||
        !(out->ascent > out->descent) || !(out->unit > 0 && out->unit <= 1))
        return thfb__fail(out, err, cap, "bad vertical metrics");
    kern_count = thfb__ru32(d + 48);
    if (kern_count > THFB_MAX_KERNS) return thfb__fail(out, err, cap, "too many kerning pairs");
    need = (uint64_t)THFB__HEADER + (uint64_t)THFB_SIZE_COUNT * THFB_GLYPH_COUNT * THFB__CHAR +
           (uint64_t)kern_count * THFB__KERN + (uint64_t)page_w * page_h;
    if ((uint64_t)len != need) return thfb__fail(out, err, cap, len < need ? "truncated" : "trailing bytes after the page");
    p = d + THFB__HEADER;
    for (s = 0; s < THFB_SIZE_COUNT; s++)
        for (g = 0; g < THFB_GLYPH_COUNT; g++, p += THFB__CHAR) {
            thfb_char *c = &out->chars[s][g];
            c->x0 = (uint16_t)thfb__ru16(p); c->y0 = (uint16_t)thfb__ru16(p + 2);
            c->x1 = (uint16_t)thfb__ru16(p + 4); c->y1 = (uint16_t)thfb__ru16(p + 6);
            c->xoff = thfb__rf32(p + 8); c->yoff = thfb__rf32(p + 12); c->xadvance = thfb__rf32(p + 16);
            if (c->x0 > c->x1 || c->y0 > c->y1 || c->x1 > page_w || c->y1 > page_h)
                return thfb__fail(out, err, cap, "a glyph box lies outside the page");
            if (!thfb__within(c->xoff, 8192) || !thfb__within(c->yoff, 8192) || !thfb__within(c->xadvance, 8192))
                return thfb__fail(out, err, cap, "a glyph offset or advance is out of range");
        }
    out->kerns = (thfb_kern_pair *)THFB_MALLOC(kern_count ? (size_t)kern_count * sizeof *out->kerns : 1);
    out->alpha = (unsigned char *)THFB_MALLOC((size_t)page_w * page_h);
    if (!out->kerns || !out->alpha) return thfb__fail(out, err, cap, "out of memory");
    for (k = 0; k < (int)kern_count; k++, p += THFB__KERN) {
        thfb_kern_pair *kp = &out->kerns[k];
        uint32_t a = thfb__ru16(p), b = thfb__ru16(p + 2);
        kp->a = (uint16_t)a; kp->b = (uint16_t)b; kp->advance = thfb__rf32(p + 4);
        if (a >= THFB_GLYPH_COUNT || b >= THFB_GLYPH_COUNT) return thfb__fail(out, err, cap, "a kerning pair names a glyph that is not baked");
        if (!thfb__within(kp->advance, 65536)) return thfb__fail(out, err, cap, "a kerning advance is out of range");
        if (k && ((uint32_t)out->kerns[k - 1].a << 16 | out->kerns[k - 1].b) >= (a << 16 | b))
            return thfb__fail(out, err, cap, "kerning pairs out of order");
    }
    out->kern_count = (int)kern_count;
    memcpy(out->alpha, p, (size_t)page_w * page_h);
    return 1;
}

void thfb_free(thfb_font *f)
{
    THFB_FREE(f->kerns);
    THFB_FREE(f->alpha);
    f->kerns = NULL;
    f->alpha = NULL;
    f->kern_count = 0;
}

#ifdef __cplusplus
}
#endif
#endif /* TH_FONTBAKE_IMPLEMENTED */
#endif /* TH_FONTBAKE_IMPLEMENTATION */

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
