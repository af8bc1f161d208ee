/* th_math.h - 2D vectors, scalar helpers, easing curves, a deterministic RNG
   and a string hash for the game library.

   th_math.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     v2 is a plain two-float struct passed by value. The scalar helpers cover
     what gameplay code reaches for every frame: clamp, lerp, approach,
     smoothstep, frame-rate independent damping and four easing curves.
     th_rng is a splitmix64 generator whose entire state is one uint64_t, so
     it can live in the game's memory block, survive a library reload and be
     recorded into replays: the same seed gives the same sequence on every
     run of the same build.

   USE
     Header-only: every function is static inline, there is no
     IMPLEMENTATION macro. Include it anywhere, in C99 or C++.
     Dependencies: <stdint.h>, <math.h> (link with -lm in C).

   API
     v2:      v2_make add sub scale mul(component-wise) neg dot cross len len2
              dist norm lerp perp rotate from_angle
     scalars: th_minf th_maxf th_absf th_clampf th_signf th_lerpf th_approachf
              th_smoothstepf th_damp th_wrap_anglef
     easing:  th_ease_out_cubic th_ease_in_out_quad th_ease_out_back th_ease_out_elastic
     rng:     th_rng_seed th_rng_u64 th_rng_u32 th_rng_f01 th_rng_range th_rng_int
              th_rng_unit_v2
     hash:    th_hash_str (FNV-1a 32-bit), th_hash_bytes64 (FNV-1a 64-bit over bytes)

   CONVENTIONS
     Angles are radians; v2_perp turns a vector a quarter turn
     counter-clockwise in a y-up frame ((x, y) -> (-y, x)), which is
     clockwise on a y-down screen. Easing curves clamp t to [0, 1].
     th_rng_f01 returns [0, 1), th_rng_range returns [lo, hi),
     th_rng_int returns [lo, hi_inclusive] without modulo bias.

   th_damp
     th_damp(current, target, smoothing, dt) moves current toward target so
     that the fraction `smoothing` of the distance remains after one second,
     whatever the frame rate: it lerps by 1 - pow(smoothing, dt).
     smoothing 0.01 closes 99% of the gap per second; 0 snaps; 1 never moves.

   CUSTOMIZATION
     TH_PI is defined here as a float constant.
     TH_MATH_NO_MATH_H: define it before including to skip <math.h>. In C++
     that header is the standard library's <cmath> (about 100 ms of parsing
     on every compile); th_math.h then declares the libm functions itself:
     sqrtf sinf cosf tanf atan2f powf floorf ceilf fabsf fmodf expf logf
     nextafterf and the doubles sqrt sin cos pow floor. Don't include <math.h>
     in the same file then. The game library uses it to keep rebuilds short.

   EXAMPLE (compiled verbatim by tests/unit/test_th_base_c.c)

     #include "th_math.h"

     static float example_math(void) {
         th_rng rng = th_rng_seed(42);
         v2 pos = v2_make(0.0f, 0.0f);
         v2 dir = th_rng_unit_v2(&rng);
         pos = v2_add(pos, v2_scale(dir, th_rng_range(&rng, 1.0f, 2.0f)));
         float dist = v2_len(pos);                            // in [1, 2)
         float x = th_damp(0.0f, 10.0f, 0.01f, 1.0f / 60.0f); // one 60 Hz frame
         return dist + x * th_ease_out_cubic(0.5f);
     }

   END EXAMPLE
*/
#ifndef TH_MATH_H
#define TH_MATH_H

#include <stddef.h>
#include <stdint.h>
#if !defined(TH_MATH_NO_MATH_H) || defined(_MSC_VER)   /* MSVC: its own <math.h> is cheap */
#include <math.h>
#else
#if defined(__cplusplus) && defined(__GLIBC__)
#define TH__MATH_NOTHROW noexcept(true)   /* as glibc declares them in C++ */
#else
#define TH__MATH_NOTHROW
#endif
#ifdef __cplusplus
extern "C" {
#endif
float sqrtf(float) TH__MATH_NOTHROW;  float sinf(float) TH__MATH_NOTHROW;   float cosf(float) TH__MATH_NOTHROW;
float tanf(float) TH__MATH_NOTHROW;   float atan2f(float, float) TH__MATH_NOTHROW;
float powf(float, float) TH__MATH_NOTHROW;  float floorf(float) TH__MATH_NOTHROW; float ceilf(float) TH__MATH_NOTHROW;
float fabsf(float) TH__MATH_NOTHROW;  float fmodf(float, float) TH__MATH_NOTHROW;
float expf(float) TH__MATH_NOTHROW;   float logf(float) TH__MATH_NOTHROW;   float nextafterf(float, float) TH__MATH_NOTHROW;
double sqrt(double) TH__MATH_NOTHROW; double sin(double) TH__MATH_NOTHROW;  double cos(double) TH__MATH_NOTHROW;
double pow(double, double) TH__MATH_NOTHROW; double floor(double) TH__MATH_NOTHROW;
#ifdef __cplusplus
}
#endif
#endif

#define TH_PI 3.14159265358979f

typedef struct v2 { float x, y; } v2;

typedef struct th_rng { uint64_t s; } th_rng;

/* ---------------------------------------------------------------- scalars */

static inline float th_minf(float a, float b) { return a < b ? a : b; }
static inline float th_maxf(float a, float b) { return a > b ? a : b; }
static inline float th_absf(float a) { return a < 0.0f ? -a : a; }
static inline float th_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline float th_signf(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); }

/* Exact at both ends: t = 0 gives a, t = 1 gives b. */
static inline float th_lerpf(float a, float b, float t) { return (1.0f - t) * a + t * b; }

/* Steps cur toward target by at most max_delta; never overshoots. */
static inline float th_approachf(float cur, float target, float max_delta)
{
    if (cur < target) return (target - cur > max_delta) ? cur + max_delta : target;
    if (cur > target) return (cur - target > max_delta) ? cur - max_delta : target;
    return target;
}

/* 0 below edge0, 1 above edge1, Hermite in between; edge0 == edge1 is a step. */
static inline float th_smoothstepf(float edge0, float edge1, float x)
{
    float t;
    if (edge0 == edge1) return x < edge0 ? 0.0f : 1.0f;
    t = th_clampf((x - edge0) / (edge1 - edge0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static inline float th_damp(float current, float target, float smoothing_per_second, float dt)
{
    float s = th_clampf(smoothing_per_second, 0.0f, 1.0f);
    if (dt <= 0.0f) return current;
    return th_lerpf(current, target, 1.0f - powf(s, dt));
}

/* Wraps an angle into [-pi, pi). */
static inline float th_wrap_anglef(float a)
{
    float two_pi = 2.0f * TH_PI;
    a = fmodf(a + TH_PI, two_pi);
    if (a < 0.0f) a += two_pi;
    return a - TH_PI;
}

/* ---------------------------------------------------------------- easing (t clamped to [0,1]) */

static inline float th_ease_out_cubic(float t)
{
    float u = 1.0f - th_clampf(t, 0.0f, 1.0f);
    return 1.0f - u * u * u;
}

static inline float th_ease_in_out_quad(float t)
{
    float u;
    t = th_clampf(t, 0.0f, 1.0f);
    if (t < 0.5f) return 2.0f * t * t;
    u = 2.0f - 2.0f * t;
    return 1.0f - 0.5f * u * u;
}

/* Overshoots to about 1.1 before settling at 1. */
static inline float th_ease_out_back(float t)
{
    const float k = 1.70158f;
    float u = th_clampf(t, 0.0f, 1.0f) - 1.0f;
    return 1.0f + (k + 1.0f) * u * u * u + k * u * u;
}

/* Springs past 1 and rings down; exactly 0 and 1 at the ends. */
static inline float th_ease_out_elastic(float t)
{
    t = th_clampf(t, 0.0f, 1.0f);
    if (t <= 0.0f) return 0.0f;
    if (t >= 1.0f) return 1.0f;
    return powf(2.0f, -10.0f * t) * sinf((10.0f * t - 0.75f) * (2.0f * TH_PI / 3.0f)) + 1.0f;
}

/* ---------------------------------------------------------------- v2 */

static inline v2 v2_make(float x, float y) { v2 r; r.x = x; r.y = y; return r; }
static inline v2 v2_add(v2 a, v2 b) { return v2_make(a.x + b.x, a.y + b.y); }
static inline v2 v2_sub(v2 a, v2 b) { return v2_make(a.x - b.x, a.y - b.y); }
static inline v2 v2_scale(v2 a, float s) { return v2_make(a.x * s, a.y * s); }
static inline v2 v2_mul(v2 a, v2 b) { return v2_make(a.x * b.x, a.y * b.y); }   /* component-wise */
static inline v2 v2_neg(v2 a) { return v2_make(-a.x, -a.y); }
static inline float v2_dot(v2 a, v2 b) { return a.x * b.x + a.y * b.y; }
static inline float v2_cross(v2 a, v2 b) { return a.x * b.y - a.y * b.x; }    /* z of the 3D cross */
static inline float v2_len2(v2 a) { return v2_dot(a, a); }
static inline float v2_len(v2 a) { return sqrtf(v2_len2(a)); }
static inline float v2_dist(v2 a, v2 b) { return v2_len(v2_sub(a, b)); }
static inline v2 v2_perp(v2 a) { return v2_make(-a.y, a.x); }
static inline v2 v2_from_angle(float radians) { return v2_make(cosf(radians), sinf(radians)); }

/* Unit length, or the zero vector for a zero-length input. Scaled by the
   largest component first so tiny and huge vectors neither underflow nor overflow. */
static inline v2 v2_norm(v2 a)
{
    float m = th_maxf(th_absf(a.x), th_absf(a.y)), l;
    if (!(m > 0.0f)) return v2_make(0.0f, 0.0f);
    a = v2_scale(a, 1.0f / m);
    l = v2_len(a);
    return v2_scale(a, 1.0f / l);
}

static inline v2 v2_lerp(v2 a, v2 b, float t) { return v2_make(th_lerpf(a.x, b.x, t), th_lerpf(a.y, b.y, t)); }

/* Counter-clockwise in a y-up frame. */
static inline v2 v2_rotate(v2 a, float radians)
{
    float c = cosf(radians), s = sinf(radians);
    return v2_make(a.x * c - a.y * s, a.x * s + a.y * c);
}

/* ---------------------------------------------------------------- rng (splitmix64) */

static inline th_rng th_rng_seed(uint64_t seed) { th_rng r; r.s = seed; return r; }

static inline uint64_t th_rng_u64(th_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The high half of the 64-bit output. */
static inline uint32_t th_rng_u32(th_rng *r) { return (uint32_t)(th_rng_u64(r) >> 32); }

/* 24 random bits scaled by 2^-24: every value is exact and below 1. */
static inline float th_rng_f01(th_rng *r) { return (float)(th_rng_u32(r) >> 8) * (1.0f / 16777216.0f); }

/* [lo, hi) for lo < hi; lo when lo == hi. */
static inline float th_rng_range(th_rng *r, float lo, float hi)
{
    float v = lo + (hi - lo) * th_rng_f01(r);
    if (lo < hi && v >= hi) v = nextafterf(hi, lo);
    return v;
}

/* Uniform in [lo, hi_inclusive] (bounds swapped if given backwards), unbiased. */
static inline int th_rng_int(th_rng *r, int lo, int hi_inclusive)
{
    uint64_t span, m;
    uint32_t low, threshold;
    if (hi_inclusive < lo) { int t = lo; lo = hi_inclusive; hi_inclusive = t; }
    span = (uint64_t)((int64_t)hi_inclusive - (int64_t)lo) + 1u;
    if (span > 0xFFFFFFFFull) return (int)((int64_t)lo + (int64_t)th_rng_u32(r));
    m = (uint64_t)th_rng_u32(r) * span;
    low = (uint32_t)m;
    if (low < (uint32_t)span) {
        threshold = (uint32_t)(0x100000000ull % span);
        while (low < threshold) {
            m = (uint64_t)th_rng_u32(r) * span;
            low = (uint32_t)m;
        }
    }
    return (int)((int64_t)lo + (int64_t)(m >> 32));
}

/* A uniformly distributed direction, by rejection in the unit disc: uses only
   +, *, / and sqrt, so the result does not depend on the libm's sin/cos. */
static inline v2 th_rng_unit_v2(th_rng *r)
{
    for (;;) {
        float x = th_rng_f01(r) * 2.0f - 1.0f;
        float y = th_rng_f01(r) * 2.0f - 1.0f;
        float l2 = x * x + y * y;
        if (l2 > 1e-6f && l2 <= 1.0f) {
            float inv = 1.0f / sqrtf(l2);
            return v2_make(x * inv, y * inv);
        }
    }
}

/* ---------------------------------------------------------------- hash */

/* FNV-1a, 32 bit. NULL hashes like "". */
static inline uint32_t th_hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    if (!s) return h;
    while (*s) {
        h ^= (uint8_t)*s++;
        h *= 16777619u;
    }
    return h;
}

/* FNV-1a, 64 bit, over n bytes. */
static inline uint64_t th_hash_bytes64(const void *data, size_t n)
{
    const uint8_t *p = (const uint8_t *)data;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

#endif /* TH_MATH_H */

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
