// Unit tests for tinyheaders/th_math.h, compiled as C++17.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "th_math.h"

#include <stdint.h>
#include <string.h>

static void test_v2_basics(void)
{
    v2 a = v2_make(3.0f, 4.0f), b = v2_make(-1.0f, 2.0f);
    TH_CHECK(a.x == 3.0f && a.y == 4.0f);
    v2 s = v2_add(a, b);
    TH_CHECK(s.x == 2.0f && s.y == 6.0f);
    v2 d = v2_sub(a, b);
    TH_CHECK(d.x == 4.0f && d.y == 2.0f);
    v2 k = v2_scale(a, 0.5f);
    TH_CHECK(k.x == 1.5f && k.y == 2.0f);
    v2 m = v2_mul(a, b);
    TH_CHECK(m.x == -3.0f && m.y == 8.0f);
    v2 n = v2_neg(a);
    TH_CHECK(n.x == -3.0f && n.y == -4.0f);
    TH_CHECK_NEAR(v2_dot(a, b), 5.0f, 0.0f);
    TH_CHECK_NEAR(v2_cross(a, b), 10.0f, 0.0f);
    TH_CHECK_NEAR(v2_cross(v2_make(1, 0), v2_make(0, 1)), 1.0f, 0.0f);
    TH_CHECK_NEAR(v2_len(a), 5.0f, 1e-6f);
    TH_CHECK_NEAR(v2_len2(a), 25.0f, 0.0f);
    TH_CHECK_NEAR(v2_dist(a, b), sqrtf(20.0f), 1e-6f);
    v2 p = v2_perp(a);
    TH_CHECK(p.x == -4.0f && p.y == 3.0f);
    TH_CHECK_NEAR(v2_dot(a, p), 0.0f, 0.0f);
}

static void test_v2_norm(void)
{
    v2 z = v2_norm(v2_make(0.0f, 0.0f));
    TH_CHECK(z.x == 0.0f && z.y == 0.0f);
    v2 u = v2_norm(v2_make(3.0f, -4.0f));
    TH_CHECK_NEAR(u.x, 0.6f, 1e-6f);
    TH_CHECK_NEAR(u.y, -0.8f, 1e-6f);
    v2 tiny = v2_norm(v2_make(1e-20f, 0.0f));    // len2 is subnormal
    TH_CHECK_NEAR(tiny.x, 1.0f, 1e-6f);
    TH_CHECK(tiny.y == 0.0f);
    v2 tiny2 = v2_norm(v2_make(3e-30f, -4e-30f)); // len2 underflows to 0
    TH_CHECK_NEAR(tiny2.x, 0.6f, 1e-6f);
    TH_CHECK_NEAR(tiny2.y, -0.8f, 1e-6f);
    v2 big = v2_norm(v2_make(1e30f, 1e30f));      // len2 overflows to inf
    TH_CHECK_NEAR(big.x, 0.70710678f, 1e-6f);
    TH_CHECK_NEAR(big.y, 0.70710678f, 1e-6f);
    v2 neg0 = v2_norm(v2_make(-0.0f, 0.0f));
    TH_CHECK(neg0.x == 0.0f && neg0.y == 0.0f);
}

static void test_v2_lerp_rotate(void)
{
    v2 a = v2_make(1, 2), b = v2_make(5, -2);
    v2 l0 = v2_lerp(a, b, 0.0f), l1 = v2_lerp(a, b, 1.0f), lh = v2_lerp(a, b, 0.5f);
    TH_CHECK(l0.x == 1 && l0.y == 2);
    TH_CHECK(l1.x == 5 && l1.y == -2);
    TH_CHECK(lh.x == 3 && lh.y == 0);
    v2 r = v2_rotate(v2_make(1, 0), TH_PI / 2);
    TH_CHECK_NEAR(r.x, 0.0f, 1e-6f);
    TH_CHECK_NEAR(r.y, 1.0f, 1e-6f);
    v2 q = v2_rotate(v2_make(2, 3), TH_PI / 2);
    v2 pp = v2_perp(v2_make(2, 3));
    TH_CHECK_NEAR(q.x, pp.x, 1e-5f);
    TH_CHECK_NEAR(q.y, pp.y, 1e-5f);
    v2 full = v2_rotate(v2_make(2, 3), 2 * TH_PI);
    TH_CHECK_NEAR(full.x, 2.0f, 1e-5f);
    TH_CHECK_NEAR(full.y, 3.0f, 1e-5f);
    v2 fa = v2_from_angle(TH_PI);
    TH_CHECK_NEAR(fa.x, -1.0f, 1e-6f);
    TH_CHECK_NEAR(fa.y, 0.0f, 1e-6f);
}

static void test_scalars(void)
{
    TH_CHECK(th_clampf(5, 0, 1) == 1);
    TH_CHECK(th_clampf(-5, 0, 1) == 0);
    TH_CHECK(th_clampf(0.25f, 0, 1) == 0.25f);
    TH_CHECK(th_minf(2, 3) == 2 && th_maxf(2, 3) == 3);
    TH_CHECK(th_minf(-2, -3) == -3 && th_maxf(-2, -3) == -2);
    TH_CHECK(th_signf(-0.5f) == -1 && th_signf(0) == 0 && th_signf(7) == 1);
    TH_CHECK(th_absf(-2.5f) == 2.5f);
    TH_CHECK(th_lerpf(10, 20, 0) == 10);
    TH_CHECK(th_lerpf(10, 20, 1) == 20);
    TH_CHECK(th_lerpf(10, 20, 0.25f) == 12.5f);
    TH_CHECK(th_lerpf(0.1f, 1e8f, 1.0f) == 1e8f);   // exact endpoint even across magnitudes

    TH_CHECK(th_approachf(0, 10, 3) == 3);
    TH_CHECK(th_approachf(9, 10, 3) == 10);          // never overshoots
    TH_CHECK(th_approachf(10, 0, 4) == 6);
    TH_CHECK(th_approachf(1, 0, 4) == 0);
    TH_CHECK(th_approachf(5, 5, 1) == 5);
    float x = 0;
    for (int i = 0; i < 100; i++) x = th_approachf(x, 1.0f, 0.3f);
    TH_CHECK(x == 1.0f);

    TH_CHECK(th_smoothstepf(0, 1, -1) == 0);
    TH_CHECK(th_smoothstepf(0, 1, 2) == 1);
    TH_CHECK(th_smoothstepf(0, 1, 0.5f) == 0.5f);
    TH_CHECK_NEAR(th_smoothstepf(0, 1, 0.25f), 0.15625f, 1e-7f);
    TH_CHECK(th_smoothstepf(2, 2, 1.9f) == 0 && th_smoothstepf(2, 2, 2.1f) == 1);
    TH_CHECK(th_smoothstepf(1, 0, 0.0f) == 1);       // reversed edges fall instead of rising

    TH_CHECK_NEAR(th_wrap_anglef(3 * TH_PI), -TH_PI, 1e-5f);
    TH_CHECK_NEAR(th_wrap_anglef(-TH_PI / 2), -TH_PI / 2, 1e-6f);
    TH_CHECK_NEAR(th_wrap_anglef(2 * TH_PI + 0.5f), 0.5f, 1e-5f);
    TH_CHECK_NEAR(th_wrap_anglef(-2 * TH_PI - 0.5f), -0.5f, 1e-5f);
}

static void test_damp(void)
{
    // One full second in one step leaves exactly `smoothing` of the gap.
    TH_CHECK_NEAR(th_damp(0, 100, 0.25f, 1.0f), 75.0f, 1e-4f);
    TH_CHECK(th_damp(3, 100, 0.5f, 0.0f) == 3);
    TH_CHECK(th_damp(3, 100, 0.0f, 0.016f) == 100);
    TH_CHECK(th_damp(3, 100, 1.0f, 0.016f) == 3);
    // Frame-rate independence: 60 steps of 1/60 s land where 1 step of 1 s lands.
    float a = 0, b = 0;
    for (int i = 0; i < 60; i++) a = th_damp(a, 100, 0.01f, 1.0f / 60.0f);
    for (int i = 0; i < 240; i++) b = th_damp(b, 100, 0.01f, 1.0f / 240.0f);
    float one = th_damp(0, 100, 0.01f, 1.0f);
    TH_CHECK_NEAR(a, 99.0f, 1e-3f);
    TH_CHECK_NEAR(b, 99.0f, 1e-3f);
    TH_CHECK_NEAR(one, 99.0f, 1e-3f);
}

typedef float (*ease_fn)(float);

static void test_easing(void)
{
    ease_fn fns[] = { th_ease_out_cubic, th_ease_in_out_quad, th_ease_out_back, th_ease_out_elastic };
    const char *names[] = { "out_cubic", "in_out_quad", "out_back", "out_elastic" };
    for (int i = 0; i < 4; i++) {
        TH_CHECK_MSG(fabsf(fns[i](0.0f)) < 1e-6f, "%s(0) = %g", names[i], (double)fns[i](0.0f));
        TH_CHECK_MSG(fabsf(fns[i](1.0f) - 1.0f) < 1e-6f, "%s(1) = %g", names[i], (double)fns[i](1.0f));
        TH_CHECK_MSG(fns[i](-3.0f) == fns[i](0.0f), "%s clamps below", names[i]);
        TH_CHECK_MSG(fns[i](4.0f) == fns[i](1.0f), "%s clamps above", names[i]);
        for (int k = 0; k <= 100; k++) {
            float v = fns[i](k / 100.0f);
            TH_CHECK_MSG(v > -0.5f && v < 1.5f && v == v, "%s(%d/100) = %g", names[i], k, (double)v);
        }
    }
    TH_CHECK_NEAR(th_ease_out_cubic(0.5f), 0.875f, 1e-6f);
    TH_CHECK_NEAR(th_ease_in_out_quad(0.25f), 0.125f, 1e-6f);
    TH_CHECK_NEAR(th_ease_in_out_quad(0.5f), 0.5f, 1e-6f);
    TH_CHECK_NEAR(th_ease_in_out_quad(0.75f), 0.875f, 1e-6f);
    // out_cubic and in_out_quad are monotonic; out_back overshoots 1.
    float prev = -1, maxback = 0;
    for (int k = 0; k <= 1000; k++) {
        float v = th_ease_out_cubic(k / 1000.0f);
        TH_CHECK(v >= prev);
        prev = v;
        maxback = th_maxf(maxback, th_ease_out_back(k / 1000.0f));
    }
    TH_CHECK(maxback > 1.05f && maxback < 1.15f);
}

static void test_rng_known_values(void)
{
    // Reference values computed independently (splitmix64, high 32 bits).
    th_rng r = th_rng_seed(0);
    TH_CHECK_EQ_INT(th_rng_u32(&r), 0xe220a839u);
    TH_CHECK_EQ_INT(th_rng_u32(&r), 0x6e789e6au);
    TH_CHECK_EQ_INT(th_rng_u32(&r), 0x06c45d18u);
    r = th_rng_seed(1234567);
    TH_CHECK_EQ_INT(th_rng_u32(&r), 0x599ed017u);
    TH_CHECK_EQ_INT(th_rng_u32(&r), 0x2c73f084u);
    TH_CHECK_EQ_INT(th_rng_u32(&r), 0x883ebce5u);
    r = th_rng_seed(0);
    TH_CHECK(th_rng_u64(&r) == 0xe220a8397b1dcdafull);
}

static void test_rng_determinism(void)
{
    th_rng a = th_rng_seed(99), b = th_rng_seed(99), c = th_rng_seed(100);
    int same_as_other_seed = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t x = th_rng_u32(&a), y = th_rng_u32(&b), z = th_rng_u32(&c);
        TH_CHECK(x == y);
        same_as_other_seed += (x == z);
    }
    TH_CHECK(same_as_other_seed < 3);
    // The state is the whole generator: copying it (a snapshot) replays the sequence.
    th_rng snap;
    memcpy(&snap, &a, sizeof a);
    float f1 = th_rng_f01(&a), f2 = th_rng_range(&a, -5, 5);
    v2 d1 = th_rng_unit_v2(&a);
    TH_CHECK(th_rng_f01(&snap) == f1);
    TH_CHECK(th_rng_range(&snap, -5, 5) == f2);
    v2 d2 = th_rng_unit_v2(&snap);
    TH_CHECK(d1.x == d2.x && d1.y == d2.y);
    TH_CHECK(sizeof(th_rng) == 8);
}

static void test_rng_f01_and_range(void)
{
    th_rng r = th_rng_seed(7);
    double sum = 0;
    float lo = 1, hi = 0;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        float f = th_rng_f01(&r);
        TH_CHECK(f >= 0.0f && f < 1.0f);
        sum += f;
        lo = th_minf(lo, f);
        hi = th_maxf(hi, f);
    }
    TH_CHECK_NEAR(sum / n, 0.5, 0.01);
    TH_CHECK(lo < 0.001f && hi > 0.999f);

    for (int i = 0; i < 100000; i++) {
        float v = th_rng_range(&r, -3.0f, 7.0f);
        TH_CHECK(v >= -3.0f && v < 7.0f);
        float w = th_rng_range(&r, 1.0f, 1.0000001f);   // hi - lo is one ulp: rounding must not reach hi
        TH_CHECK(w >= 1.0f && w < 1.0000001f);
    }
    TH_CHECK(th_rng_range(&r, 2.0f, 2.0f) == 2.0f);
    // A state whose next output is 0xFFFFFFFF12345678 (found by inverting splitmix64):
    // f01 gives its largest value, 1 - 2^-24, and lo + (hi - lo) * f rounds up to hi.
    th_rng top;
    top.s = 0xdf4fdc1b984492d9ull;
    th_rng copy = top;
    TH_CHECK(th_rng_f01(&copy) == 1.0f - 1.0f / 16777216.0f);
    copy = top;
    float v = th_rng_range(&copy, 1.0f, 2.0f);
    TH_CHECK(v < 2.0f && v > 1.9999f);
    copy = top;
    v = th_rng_range(&copy, -2.0f, -1.0f);
    TH_CHECK(v < -1.0f && v > -1.0001f);
}

static void test_rng_int(void)
{
    th_rng r = th_rng_seed(3);
    int counts[6] = { 0 };
    const int n = 60000;
    for (int i = 0; i < n; i++) {
        int v = th_rng_int(&r, 1, 6);
        TH_CHECK(v >= 1 && v <= 6);
        if (v >= 1 && v <= 6) counts[v - 1]++;
    }
    for (int k = 0; k < 6; k++) TH_CHECK_MSG(counts[k] > 9400 && counts[k] < 10600, "face %d: %d", k + 1, counts[k]);
    for (int i = 0; i < 1000; i++) {
        TH_CHECK(th_rng_int(&r, 5, 5) == 5);
        int v = th_rng_int(&r, -2, 2);
        TH_CHECK(v >= -2 && v <= 2);
        int w = th_rng_int(&r, 10, 8);                   // reversed bounds are swapped
        TH_CHECK(w >= 8 && w <= 10);
        int big = th_rng_int(&r, INT32_MIN, INT32_MAX);  // full range: no overflow (UBSan watches)
        (void)big;
        int half = th_rng_int(&r, 0, INT32_MAX);
        TH_CHECK(half >= 0);
        int neg = th_rng_int(&r, INT32_MIN, -1);
        TH_CHECK(neg < 0);
    }
    // A span of 3 * 2^30: a plain multiply-shift without rejection would give
    // values with (v - lo) % 3 == 0 half of the time instead of a third.
    int mod0 = 0;
    const int draws = 30000;
    for (int i = 0; i < draws; i++) {
        int v = th_rng_int(&r, INT32_MIN, (1 << 30) - 1);
        mod0 += (int)(((int64_t)v - INT32_MIN) % 3) == 0;
    }
    TH_CHECK_NEAR((double)mod0 / draws, 1.0 / 3.0, 0.02);
    // Both ends of a small range are reachable.
    int seen_lo = 0, seen_hi = 0;
    for (int i = 0; i < 1000; i++) {
        int v = th_rng_int(&r, 0, 1);
        seen_lo |= v == 0;
        seen_hi |= v == 1;
    }
    TH_CHECK(seen_lo && seen_hi);
}

static void test_rng_unit_v2(void)
{
    th_rng r = th_rng_seed(11);
    int quadrant[4] = { 0 };
    double sx = 0, sy = 0;
    const int n = 40000;
    for (int i = 0; i < n; i++) {
        v2 d = th_rng_unit_v2(&r);
        TH_CHECK_NEAR(v2_len(d), 1.0f, 1e-5f);
        quadrant[(d.x >= 0 ? 0 : 1) + (d.y >= 0 ? 0 : 2)]++;
        sx += d.x;
        sy += d.y;
    }
    for (int q = 0; q < 4; q++) TH_CHECK_MSG(quadrant[q] > n / 4 - 600 && quadrant[q] < n / 4 + 600, "quadrant %d: %d", q, quadrant[q]);
    TH_CHECK_NEAR(sx / n, 0.0, 0.02);
    TH_CHECK_NEAR(sy / n, 0.0, 0.02);
}

static void test_hash(void)
{
    TH_CHECK_EQ_INT(th_hash_str(""), 0x811c9dc5u);
    TH_CHECK_EQ_INT(th_hash_str("a"), 0xe40c292cu);
    TH_CHECK_EQ_INT(th_hash_str("foobar"), 0xbf9cf968u);
    TH_CHECK_EQ_INT(th_hash_str(NULL), 0x811c9dc5u);
    TH_CHECK(th_hash_str("player") != th_hash_str("playes"));
    const char high[] = { (char)0xC3, (char)0xA9, 0 };   // bytes >= 0x80 hash as unsigned
    uint32_t h = 2166136261u;
    h = (h ^ 0xC3u) * 16777619u;
    h = (h ^ 0xA9u) * 16777619u;
    TH_CHECK_EQ_INT(th_hash_str(high), h);
    /* 64-bit FNV-1a reference values */
    TH_CHECK(th_hash_bytes64("", 0) == 0xcbf29ce484222325ull);
    TH_CHECK(th_hash_bytes64("a", 1) == 0xaf63dc4c8601ec8cull);
    TH_CHECK(th_hash_bytes64("foobar", 6) == 0x85944171f73967e8ull);
}

int main(void)
{
    TH_RUN(test_v2_basics);
    TH_RUN(test_v2_norm);
    TH_RUN(test_v2_lerp_rotate);
    TH_RUN(test_scalars);
    TH_RUN(test_damp);
    TH_RUN(test_easing);
    TH_RUN(test_rng_known_values);
    TH_RUN(test_rng_determinism);
    TH_RUN(test_rng_f01_and_range);
    TH_RUN(test_rng_int);
    TH_RUN(test_rng_unit_v2);
    TH_RUN(test_hash);
    return th_test_finish();
}
