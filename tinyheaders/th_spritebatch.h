/* th_spritebatch.h - sort 2D sprites and turn them into batched quads.

   th_spritebatch.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     You push sprite records (position, size, scale, rotation, origin, color, layer, texture page
     and UV rectangle) into a buffer. thsb_end() orders them by layer, then page, then submission
     order (stable), writes one quad (4 vertices) per sprite and groups consecutive quads that share
     (layer, page) into batches: one draw call each. It knows nothing about textures, atlases or a
     graphics API; the vertex layout is the one of SDL_Vertex (float x,y; uint8 r,g,b,a; float u,v).
     All memory comes from the caller, once, at thsb_init(): nothing is allocated per frame.

   USE
     #define TH_SPRITEBATCH_IMPLEMENTATION   (in exactly one C or C++ file)
     #include "th_spritebatch.h"
     C99 or C++11 and later. Needs <math.h> (link -lm in C).

   EXAMPLE (tests/unit/test_spritebatch.cpp compiles this text and checks it is identical)
     static unsigned char sb_memory[64 * 1024];

     static void my_draw(int page, const thsb_vertex *v, int nv, const int *idx, int ni)
     {
         (void)page; (void)v; (void)nv; (void)idx; (void)ni;   // e.g. SDL_RenderGeometry
     }

     static int draw_two_sprites(void)
     {
         thsb_batcher sb;
         thsb_sprite s;
         int i;
         if (!thsb_init(&sb, sb_memory, sizeof sb_memory, 100)) return -1;
         thsb_begin(&sb);
         memset(&s, 0, sizeof s);
         s.w = 32; s.h = 32;                 // pixel size of the source rectangle
         s.scale_x = s.scale_y = 1;
         s.u1 = s.v1 = 1;                    // whole page; u0 = v0 = 0
         s.color = 0xFFFFFFFFu;              // 0xRRGGBBAA
         s.x = 100; s.y = 50; s.layer = 2; s.page = 0;
         thsb_push(&sb, &s);
         s.x = 10; s.layer = 1; s.page = 3;
         s.rotation = 0.5f; s.origin_x = s.origin_y = 0.5f;
         thsb_push(&sb, &s);
         thsb_end(&sb);
         for (i = 0; i < sb.batch_count; i++) {
             const thsb_batch *b = &sb.batches[i];
             my_draw(b->page, sb.vertices + b->first_vertex, b->vertex_count, sb.indices, b->index_count);
         }
         return sb.batch_count;              // 2: layer 1 (page 3) first, then layer 2
     }

   OUTPUT
     sb.vertices[0 .. vertex_count)   4 per drawn sprite, corners top-left, top-right, bottom-right,
                                      bottom-left of the unrotated sprite box.
     sb.indices                       written once by thsb_init: entry 6q+k is 4q + {0,1,2,0,2,3}[k].
                                      The pattern repeats, so a batch can be drawn either with
                                      (vertices + first_vertex, indices from 0) as above, or with
                                      (all vertices, indices + first_index).
     sb.batches[0 .. batch_count)     {page, layer, first_vertex, vertex_count, first_index, index_count}
     sb.stats                         sprites pushed, culled, dropped (buffer full), batches, and
                                      whether the frame needed sorting at all.

   SPRITE RECORD (thsb_sprite)
     x, y               where the origin lands, in output pixels
     w, h               size at scale 1 (usually the source rectangle's pixel size)
     scale_x, scale_y   multiply w, h (negative values mirror the quad)
     rotation           radians; positive turns clockwise when y points down
     origin_x, origin_y the rotation/placement point inside the box, 0..1 (0,0 = top-left). Flips
                        mirror the texture inside the box; they do not move the origin.
     u0, v0, u1, v1     texture rectangle (normalized or not: they are copied through)
     color              0xRRGGBBAA, copied to every vertex
     layer              int16, drawn in ascending order
     page               uint16 texture page, the second sort key
     flags              THSB_FLIP_X | THSB_FLIP_Y

   ORDER AND SPEED
     The sort key is (layer, page) with the submission index as tie-break. When the pushes already
     arrive in key order (a game drawing layer by layer) the sort is skipped. Otherwise it is an LSD
     radix sort over the 32-bit (layer, page) key, 8 bits per pass, skipping the passes whose byte
     is the same for every sprite (4 layers x 4 pages: 2 passes). Quads are built in blocks of 64:
     the block's sin/cos are computed first in a branch-free loop that compilers vectorize (error
     below 1e-6), then every sprite takes the same straight-line path, rotated or not, flipped or not.
     On the benchmark machine: 100,000 sprites in random order, half rotated, ~1 ms.

   CULLING
     thsb_set_cull(&sb, x0, y0, x1, y1) drops quads whose bounding box lies entirely outside that
     rectangle (counted in stats.culled). Off by default; thsb_set_cull(&sb, 0, 0, 0, 0) turns it off.

   ERRORS
     thsb_init returns 0 when the memory is too small (thsb_memory_size(n) says how much) or the
     capacity is out of range. thsb_push returns NULL when the buffer is full; the sprite is counted
     in stats.dropped and the frame still draws everything that fit.

   CUSTOMIZATION
     THSB_ASSERT(x)     defaults to assert(x)
*/
#ifndef TH_SPRITEBATCH_H
#define TH_SPRITEBATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { THSB_FLIP_X = 1, THSB_FLIP_Y = 2 };
#define THSB_MAX_CAPACITY (1 << 24)

typedef struct thsb_vertex {
    float   x, y;
    uint8_t r, g, b, a;
    float   u, v;
} thsb_vertex;

typedef struct thsb_sprite {
    float    x, y;
    float    w, h;
    float    scale_x, scale_y;
    float    rotation;
    float    origin_x, origin_y;
    float    u0, v0, u1, v1;
    uint32_t color;
    int16_t  layer;
    uint16_t page;
    uint16_t flags;
    uint16_t reserved;
} thsb_sprite;

typedef struct thsb_batch {
    int page;
    int layer;
    int first_vertex, vertex_count;
    int first_index, index_count;
} thsb_batch;

typedef struct thsb_stats {
    int sprites;      /* accepted by thsb_push this frame */
    int culled;       /* accepted but outside the cull rectangle */
    int dropped;      /* refused: the buffer was full */
    int batches;
    int sorted;       /* 1 if the frame needed a sort (pushes were not in key order) */
} thsb_stats;

typedef struct thsb_batcher {
    thsb_sprite *sprites;      /* pushed this frame, in submission order */
    int          sprite_count;
    int          capacity;
    thsb_vertex *vertices;
    int          vertex_count;
    int         *indices;      /* 6 * capacity, constant */
    thsb_batch  *batches;
    int          batch_count;
    thsb_stats   stats;
    float        cull_x0, cull_y0, cull_x1, cull_y1;
    int          cull;
    uint64_t    *sort_keys;    /* private: (key << 32 | index), two buffers for the radix sort */
    uint64_t    *sort_tmp;
} thsb_batcher;

size_t       thsb_memory_size(int capacity);                                    /* bytes thsb_init needs */
int          thsb_init(thsb_batcher *sb, void *memory, size_t bytes, int capacity); /* 1 ok, 0 too small */
void         thsb_set_cull(thsb_batcher *sb, float x0, float y0, float x1, float y1); /* all 0 = off */
void         thsb_begin(thsb_batcher *sb);                                      /* empties the buffer */
thsb_sprite *thsb_push(thsb_batcher *sb, const thsb_sprite *s);                 /* NULL when full */
int          thsb_end(thsb_batcher *sb);                                        /* sort + build; returns batch_count */

#ifdef __cplusplus
}
#endif
#endif /* TH_SPRITEBATCH_H */

#ifdef TH_SPRITEBATCH_IMPLEMENTATION
#ifndef TH_SPRITEBATCH_IMPLEMENTED
#define TH_SPRITEBATCH_IMPLEMENTED

#include <math.h>
#include <string.h>
#ifndef THSB_ASSERT
#include <assert.h>
#define THSB_ASSERT(x) assert(x)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define THSB__ALIGN(n) (((n) + (size_t)63) & ~(size_t)63)

size_t thsb_memory_size(int capacity)
{
    size_t n;
    if (capacity <= 0 || capacity > THSB_MAX_CAPACITY) return 0;
    n = (size_t)capacity;
    return 64 /* alignment slack */
         + THSB__ALIGN(n * sizeof(thsb_sprite))
         + THSB__ALIGN(n * 4 * sizeof(thsb_vertex))
         + THSB__ALIGN(n * 6 * sizeof(int))
         + THSB__ALIGN(n * sizeof(thsb_batch))
         + 2 * THSB__ALIGN(n * sizeof(uint64_t));
}

int thsb_init(thsb_batcher *sb, void *memory, size_t bytes, int capacity)
{
    size_t need = thsb_memory_size(capacity), n;
    unsigned char *p;
    int q;
    memset(sb, 0, sizeof *sb);
    if (!need || !memory || bytes < need) return 0;
    n = (size_t)capacity;
    p = (unsigned char *)memory;
    p += (64 - ((uintptr_t)p & 63)) & 63;
    sb->sprites   = (thsb_sprite *)(void *)p; p += THSB__ALIGN(n * sizeof(thsb_sprite));
    sb->vertices  = (thsb_vertex *)(void *)p; p += THSB__ALIGN(n * 4 * sizeof(thsb_vertex));
    sb->indices   = (int *)(void *)p;         p += THSB__ALIGN(n * 6 * sizeof(int));
    sb->batches   = (thsb_batch *)(void *)p;  p += THSB__ALIGN(n * sizeof(thsb_batch));
    sb->sort_keys = (uint64_t *)(void *)p;    p += THSB__ALIGN(n * sizeof(uint64_t));
    sb->sort_tmp  = (uint64_t *)(void *)p;
    sb->capacity = capacity;
    for (q = 0; q < capacity; q++) {
        int *ix = sb->indices + 6 * q, v = 4 * q;
        ix[0] = v; ix[1] = v + 1; ix[2] = v + 2;
        ix[3] = v; ix[4] = v + 2; ix[5] = v + 3;
    }
    return 1;
}

void thsb_set_cull(thsb_batcher *sb, float x0, float y0, float x1, float y1)
{
    sb->cull_x0 = x0; sb->cull_y0 = y0; sb->cull_x1 = x1; sb->cull_y1 = y1;
    sb->cull = !(x0 == 0 && y0 == 0 && x1 == 0 && y1 == 0);
}

void thsb_begin(thsb_batcher *sb)
{
    sb->sprite_count = 0;
    sb->vertex_count = 0;
    sb->batch_count = 0;
    memset(&sb->stats, 0, sizeof sb->stats);
}

thsb_sprite *thsb_push(thsb_batcher *sb, const thsb_sprite *s)
{
    thsb_sprite *d;
    if (sb->sprite_count >= sb->capacity) { sb->stats.dropped++; return NULL; }
    d = &sb->sprites[sb->sprite_count++];
    *d = *s;
    sb->stats.sprites++;
    return d;
}

static uint32_t thsb__key(const thsb_sprite *s)
{
    return ((uint32_t)((int32_t)s->layer + 32768) << 16) | (uint32_t)s->page;
}

/* sin and cos of a in one go: reduce to [-pi/4, pi/4] around the nearest multiple of pi/2 (in
   double, so large angles keep their precision), then Taylor series good to ~1e-9 there. */
static void thsb__sincos(float a, float *out_s, float *out_c)
{
    double q = (double)a * 0.63661977236758134308, k;
    float r, r2, sn, cs;
    long long quadrant;
    if (!(q > -1e15 && q < 1e15)) { *out_s = (float)sin((double)a); *out_c = (float)cos((double)a); return; }
    quadrant = (long long)(q < 0 ? q - 0.5 : q + 0.5);
    k = (double)quadrant;
    r = (float)((double)a - k * 1.57079632679489661923);
    r2 = r * r;
    sn = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
    cs = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320 + r2 * (-1.0f / 3628800)))));
    switch (quadrant & 3) {
    case 0:  *out_s = sn;  *out_c = cs;  break;
    case 1:  *out_s = cs;  *out_c = -sn; break;
    case 2:  *out_s = -sn; *out_c = -cs; break;
    default: *out_s = -cs; *out_c = sn;  break;
    }
}

#define THSB__BLOCK 64
#define THSB__FAST_RANGE 6000.0f

/* sin/cos of a fixed-size block, written as straight-line float code with a constant trip count so
   compilers vectorize it. pi/2 is split in three parts (Cody-Waite) so the reduction is exact for
   |a| <= THSB__FAST_RANGE; larger or non-finite angles are redone by thsb__sincos. */
static void thsb__sincos_block(const float *a, float *out_s, float *out_c)
{
    int j, slow = 0;
    for (j = 0; j < THSB__BLOCK; j++) {
        float x = a[j], xc, k, r, r2, sn, cs, fs, fc, odd;
        uint32_t xb, in_range, q, sb_, cb_;
        int qi;
        memcpy(&xb, &x, 4);
        in_range = (uint32_t)(fabsf(x) <= THSB__FAST_RANGE);
        slow |= (int)(in_range ^ 1u);
        xb &= 0u - in_range;
        memcpy(&xc, &xb, 4);
        qi = (int)(xc * 0.636619772f + copysignf(0.5f, xc));
        k = (float)qi;
        q = (uint32_t)qi;
        r = ((xc - k * 1.5703125f) - k * 4.837512969970703125e-4f) - k * 7.549790126404332e-8f;
        r2 = r * r;
        sn = r * (1.0f + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
        cs = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320 + r2 * (-1.0f / 3628800)))));
        odd = (float)(q & 1u);
        fs = sn + odd * (cs - sn);
        fc = cs + odd * (sn - cs);
        memcpy(&sb_, &fs, 4);
        memcpy(&cb_, &fc, 4);
        sb_ ^= (q & 2u) << 30;
        cb_ ^= ((q + 1u) & 2u) << 30;
        memcpy(&out_s[j], &sb_, 4);
        memcpy(&out_c[j], &cb_, 4);
    }
    if (slow)
        for (j = 0; j < THSB__BLOCK; j++)
            if (!(fabsf(a[j]) <= THSB__FAST_RANGE)) thsb__sincos(a[j], &out_s[j], &out_c[j]);
}

/* Returns the sprites' order as (key << 32 | index) values, sorted. */
static const uint64_t *thsb__sort(thsb_batcher *sb)
{
    uint32_t hist[4][256];
    uint64_t *src = sb->sort_keys, *dst = sb->sort_tmp, *t;
    const thsb_sprite *s = sb->sprites;
    int n = sb->sprite_count, i, d, in_order = 1;
    uint32_t prev = 0;
    memset(hist, 0, sizeof hist);
    for (i = 0; i < n; i++) {
        uint32_t k = thsb__key(&s[i]);
        src[i] = ((uint64_t)k << 32) | (uint32_t)i;
        hist[0][k & 255]++;
        hist[1][(k >> 8) & 255]++;
        hist[2][(k >> 16) & 255]++;
        hist[3][k >> 24]++;
        in_order &= k >= prev;
        prev = k;
    }
    sb->stats.sorted = !in_order;
    if (in_order || n < 2) return src;
    for (d = 0; d < 4; d++) {
        uint32_t *h = hist[d], sum = 0;
        int shift = 32 + 8 * d;
        if (h[(src[0] >> shift) & 255] == (uint32_t)n) continue;
        for (i = 0; i < 256; i++) { uint32_t c = h[i]; h[i] = sum; sum += c; }
        for (i = 0; i < n; i++) {
            uint64_t v = src[i];
            dst[h[(v >> shift) & 255]++] = v;
        }
        t = src; src = dst; dst = t;
    }
    return src;
}

static void thsb__color(thsb_vertex *v, uint32_t c)
{
    v->r = (uint8_t)(c >> 24); v->g = (uint8_t)(c >> 16); v->b = (uint8_t)(c >> 8); v->a = (uint8_t)c;
}

/* (a, b) or, when mask is all ones, (b, a); bitwise so random flips cost no mispredicted branches. */
static void thsb__swap_if(float a, float b, uint32_t mask, float *out_a, float *out_b)
{
    uint32_t ab, bb, oa, ob;
    memcpy(&ab, &a, 4);
    memcpy(&bb, &b, 4);
    oa = (ab & ~mask) | (bb & mask);
    ob = (bb & ~mask) | (ab & mask);
    memcpy(out_a, &oa, 4);
    memcpy(out_b, &ob, 4);
}

int thsb_end(thsb_batcher *sb)
{
    const uint64_t *order = thsb__sort(sb);
    const int n = sb->sprite_count;
    const int cull = sb->cull;
    const float cx0 = sb->cull_x0, cy0 = sb->cull_y0, cx1 = sb->cull_x1, cy1 = sb->cull_y1;
    const thsb_sprite *sprites = sb->sprites;
    thsb_vertex *v = sb->vertices;
    thsb_batch *b = NULL;
    uint32_t cur_key = 0;
    int base, quads = 0;
    float rot[THSB__BLOCK], sins[THSB__BLOCK], coss[THSB__BLOCK];
    for (base = 0; base < n; base += THSB__BLOCK) {
        const int m = n - base < THSB__BLOCK ? n - base : THSB__BLOCK;
        int j;
        for (j = 0; j < m; j++) {
#if defined(__GNUC__) || defined(__clang__)
            if (base + j + 16 < n) __builtin_prefetch(&sprites[(uint32_t)order[base + j + 16]]);
#endif
            rot[j] = sprites[(uint32_t)order[base + j]].rotation;
        }
        for (; j < THSB__BLOCK; j++) rot[j] = 0;
        thsb__sincos_block(rot, sins, coss);
        for (j = 0; j < m; j++) {
            const uint64_t ord = order[base + j];
            const thsb_sprite *s = &sprites[(uint32_t)ord];
            const uint32_t key = (uint32_t)(ord >> 32);
            const float w = s->w * s->scale_x, h = s->h * s->scale_y;
            const float lx0 = -s->origin_x * w, ly0 = -s->origin_y * h;
            const float lx1 = lx0 + w, ly1 = ly0 + h;
            const float sn = sins[j], cs = coss[j];
            const float ax = lx0 * cs, ay = lx0 * sn, bx = lx1 * cs, by = lx1 * sn;
            const float cx = ly0 * sn, cy = ly0 * cs, dx = ly1 * sn, dy = ly1 * cs;
            const uint32_t c = s->color;
            const uint32_t fx = 0u - (uint32_t)((s->flags & THSB_FLIP_X) != 0);
            const uint32_t fy = 0u - (uint32_t)((s->flags & THSB_FLIP_Y) != 0);
            float u0, u1, v0, v1;
            thsb__swap_if(s->u0, s->u1, fx, &u0, &u1);
            thsb__swap_if(s->v0, s->v1, fy, &v0, &v1);
            thsb_vertex *q = v + 4 * quads;
            q[0].x = s->x + ax - cx; q[0].y = s->y + ay + cy;
            q[1].x = s->x + bx - cx; q[1].y = s->y + by + cy;
            q[2].x = s->x + bx - dx; q[2].y = s->y + by + dy;
            q[3].x = s->x + ax - dx; q[3].y = s->y + ay + dy;
            if (cull) {
                float mnx = q[0].x, mxx = q[0].x, mny = q[0].y, mxy = q[0].y;
                int k;
                for (k = 1; k < 4; k++) {
                    if (q[k].x < mnx) mnx = q[k].x;
                    if (q[k].x > mxx) mxx = q[k].x;
                    if (q[k].y < mny) mny = q[k].y;
                    if (q[k].y > mxy) mxy = q[k].y;
                }
                if (mxx <= cx0 || mnx >= cx1 || mxy <= cy0 || mny >= cy1) { sb->stats.culled++; continue; }
            }
            q[0].u = u0; q[0].v = v0;
            q[1].u = u1; q[1].v = v0;
            q[2].u = u1; q[2].v = v1;
            q[3].u = u0; q[3].v = v1;
            thsb__color(&q[0], c);
            thsb__color(&q[1], c);
            thsb__color(&q[2], c);
            thsb__color(&q[3], c);
            if (!b || key != cur_key) {
                b = &sb->batches[sb->batch_count++];
                b->page = (int)(key & 0xFFFF);
                b->layer = (int)(key >> 16) - 32768;
                b->first_vertex = 4 * quads;
                b->first_index = 6 * quads;
                b->vertex_count = 0;
                b->index_count = 0;
                cur_key = key;
            }
            b->vertex_count += 4;
            b->index_count += 6;
            quads++;
        }
    }
    sb->vertex_count = 4 * quads;
    sb->stats.batches = sb->batch_count;
    return sb->batch_count;
}

#ifdef __cplusplus
}
#endif
#endif /* TH_SPRITEBATCH_IMPLEMENTED */
#endif /* TH_SPRITEBATCH_IMPLEMENTATION */

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
