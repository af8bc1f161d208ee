// Exact oracles for tinyheaders/th_collide.h, in double precision, over seeded random shapes.
//
// Every shape is a convex core (1 point: circle, 2: capsule, 3+: polygon/box) grown by a radius. For two
// shapes A and B the set A - B (Minkowski difference) is the core hull Q = hull{a_i - b_j} grown by
// rA + rB; everything below is read off Q exactly:
//   - penetration depth = distance from the origin to the boundary of Q (+ r), normal = the axis that
//     attains it. Q's faces are exactly the face normals of both cores (the SAT's candidate axes); when
//     the origin lies outside Q (cores apart, radii overlapping) the axis is the closest-feature direction.
//     A reported normal n is checked by its support value: pushing A by depth along n must separate, so
//     h_Q(n) + r must equal the reported depth. This accepts every valid axis at ties and rejects a tilt.
//   - distance = dist(origin, Q) - r when apart.
//   - time of impact with relative motion v = va - vb: the ray -v t from the origin entering Q grown by r,
//     solved in closed form (offset faces and vertex circles).
// Plus exact segment-segment distance and grazing sweeps against long thin walls at pixel scale.
// Each defect class of issue 13 has its own test function so a failure names it.
// Counts shrink under sanitizers (THC_ORACLE_SCALE) so the ASan pass stays quick.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <vector>

#include "collide_shapes.h"

#if defined(__SANITIZE_ADDRESS__)
#define THC_ORACLE_SCALE 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define THC_ORACLE_SCALE 4
#endif
#endif
#ifndef THC_ORACLE_SCALE
#define THC_ORACLE_SCALE 1
#endif
#define COUNT(n) ((n) / THC_ORACLE_SCALE)

// ---------------------------------------------------------------- random numbers
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint32_t u32() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
    double f01() { return (double)(u32() & 0xFFFFFF) / 16777216.0; }
    float range(double a, double b) { return (float)(a + (b - a) * f01()); }
};

// ---------------------------------------------------------------- double-precision geometry
struct D2 { double x, y; };
static D2 d2(double x, double y) { D2 r = { x, y }; return r; }
static D2 dv(thc_v2 v) { return d2(v.x, v.y); }
static D2 operator+(D2 a, D2 b) { return d2(a.x + b.x, a.y + b.y); }
static D2 operator-(D2 a, D2 b) { return d2(a.x - b.x, a.y - b.y); }
static D2 operator*(D2 a, double s) { return d2(a.x * s, a.y * s); }
static double dot(D2 a, D2 b) { return a.x * b.x + a.y * b.y; }
static double cross(D2 a, D2 b) { return a.x * b.y - a.y * b.x; }
static double len(D2 a) { return sqrt(dot(a, a)); }

static D2 closest_on_seg(D2 p, D2 a, D2 b)
{
    D2 e = b - a;
    double ee = dot(e, e), t = ee > 0 ? dot(p - a, e) / ee : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return a + e * t;
}

// exact segment-segment distance: 0 if they cross, else the least of the four end-to-segment distances
static double seg_seg_dist(D2 a0, D2 a1, D2 b0, D2 b1)
{
    D2 da = a1 - a0, db = b1 - b0;
    double x = cross(da, db);
    if (x != 0) {
        double s = cross(b0 - a0, db) / x, t = cross(b0 - a0, da) / x;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) return 0;
    }
    double d = len(closest_on_seg(a0, b0, b1) - a0);
    d = std::min(d, len(closest_on_seg(a1, b0, b1) - a1));
    d = std::min(d, len(closest_on_seg(b0, a0, a1) - b0));
    d = std::min(d, len(closest_on_seg(b1, a0, a1) - b1));
    return d;
}

// A shape's exact core in double (the polygon's world vertices from its float transform, computed in double).
static int shape_core(const Shape &s, D2 *out, double *r)
{
    switch (s.type) {
    case THC_CIRCLE: out[0] = dv(s.c.p); *r = s.c.r; return 1;
    case THC_AABB:
        out[0] = dv(s.b.min); out[1] = d2(s.b.max.x, s.b.min.y); out[2] = dv(s.b.max); out[3] = d2(s.b.min.x, s.b.max.y); *r = 0; return 4;
    case THC_CAPSULE: out[0] = dv(s.k.a); out[1] = dv(s.k.b); *r = s.k.r; return 2;
    default:
        for (int i = 0; i < s.p.count; i++) {
            double vx = s.p.verts[i].x, vy = s.p.verts[i].y;
            out[i] = d2((double)s.xf.c * vx - (double)s.xf.s * vy + s.xf.p.x, (double)s.xf.s * vx + (double)s.xf.c * vy + s.xf.p.y);
        }
        *r = 0;
        return s.p.count;
    }
}

static Shape circle(D2 p, double r) { Shape s; memset(&s, 0, sizeof s); s.type = THC_CIRCLE; s.c.p = V((float)p.x, (float)p.y); s.c.r = (float)r; return s; }
static Shape capsule(D2 a, D2 b, double r) { Shape s; memset(&s, 0, sizeof s); s.type = THC_CAPSULE; s.k.a = V((float)a.x, (float)a.y); s.k.b = V((float)b.x, (float)b.y); s.k.r = (float)r; return s; }
static Shape box(D2 c, double hw, double hh) { Shape s; memset(&s, 0, sizeof s); s.type = THC_AABB; s.b.min = V((float)(c.x - hw), (float)(c.y - hh)); s.b.max = V((float)(c.x + hw), (float)(c.y + hh)); return s; }
static Shape obb(D2 c, double hw, double hh, double angle)
{
    Shape s; memset(&s, 0, sizeof s); s.type = THC_POLY;
    thc_make_box(&s.p, (float)hw, (float)hh);
    s.xf = thc_make_transform(V((float)c.x, (float)c.y), (float)angle);
    return s;
}

static Shape random_shape(Rng &r, thc_type t, double cx, double cy, double size)
{
    Shape s;
    memset(&s, 0, sizeof s);
    s.type = t;
    switch (t) {
    case THC_CIRCLE: return circle(d2(cx, cy), r.range(0.2 * size, size));
    case THC_AABB: return box(d2(cx, cy), r.range(0.2 * size, size), r.range(0.2 * size, size));
    case THC_CAPSULE: {
        double a = r.range(0, 6.2831853), l = r.range(0.2 * size, 1.5 * size);
        return capsule(d2(cx + cos(a) * l, cy + sin(a) * l), d2(cx - cos(a) * l, cy - sin(a) * l), r.range(0.1 * size, 0.6 * size));
    }
    default:
        for (;;) {
            thc_v2 pts[THC_MAX_POLY_VERTS];
            int n = 3 + (int)(r.u32() % (THC_MAX_POLY_VERTS - 2));
            for (int i = 0; i < n; i++) {
                double a = r.range(0, 6.2831853), l = r.range(0.5 * size, size);
                pts[i] = V((float)(cos(a) * l), (float)(sin(a) * l));
            }
            if (thc_make_poly(&s.p, pts, n) >= 3) break;
        }
        s.xf = thc_make_transform(V((float)cx, (float)cy), r.range(-3.14159, 3.14159));
        return s;
    }
}

// ---------------------------------------------------------------- the Minkowski difference A - B
struct Mink {
    int n;              // hull vertex count (1: a point, 2: a segment)
    D2 v[THC_MAX_POLY_VERTS * THC_MAX_POLY_VERTS + 1];
    double r;
};

static Mink minkowski(const Shape &A, const Shape &B)
{
    D2 a[THC_MAX_POLY_VERTS], b[THC_MAX_POLY_VERTS];
    double ra, rb;
    int na = shape_core(A, a, &ra), nb = shape_core(B, b, &rb);
    std::vector<D2> pts;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) pts.push_back(a[i] - b[j]);
    std::sort(pts.begin(), pts.end(), [](D2 p, D2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
    // Andrew's monotone chain, counter-clockwise, collinear points dropped
    std::vector<D2> h(pts.size() * 2 + 1);
    int k = 0;
    for (size_t i = 0; i < pts.size(); i++) {
        while (k >= 2 && cross(h[k - 1] - h[k - 2], pts[i] - h[k - 2]) <= 0) k--;
        h[k++] = pts[i];
    }
    for (int i = (int)pts.size() - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && cross(h[k - 1] - h[k - 2], pts[(size_t)i] - h[k - 2]) <= 0) k--;
        h[k++] = pts[(size_t)i];
    }
    Mink m;
    m.r = ra + rb;
    m.n = k > 1 ? k - 1 : 1;
    if (pts.size() == 1) m.n = 1;
    for (int i = 0; i < m.n; i++) m.v[i] = h[i];
    if (m.n == 1) m.v[0] = pts[0];
    return m;
}

static double support(const Mink &m, D2 n)   // h_Q(n) + r for a unit n
{
    double s = -1e300;
    for (int i = 0; i < m.n; i++) s = std::max(s, dot(m.v[i], n));
    return s + m.r * len(n);
}

// Signed distance from the point x to Q grown by r (negative inside), with the outward normal there.
static double sdist(const Mink &m, D2 x, D2 *normal)
{
    if (m.n >= 3) {
        bool inside = true;
        double best_in = 1e300;
        D2 nin = d2(1, 0);
        for (int i = 0; i < m.n; i++) {
            D2 a = m.v[i], e = m.v[(i + 1) % m.n] - a;
            D2 n = d2(e.y, -e.x) * (1 / len(e));
            double s = dot(x - a, n);
            if (s > 0) inside = false;
            if (-s < best_in) { best_in = -s; nin = n; }
        }
        if (inside) { *normal = nin; return -best_in - m.r; }
    }
    double best = 1e300;
    D2 q = m.v[0];
    int edges = m.n >= 3 ? m.n : m.n == 2 ? 1 : 0;
    for (int i = 0; i < edges; i++) {
        D2 c = closest_on_seg(x, m.v[i], m.v[(i + 1) % m.n]);
        if (len(x - c) < best) { best = len(x - c); q = c; }
    }
    if (edges == 0) best = len(x - q);
    *normal = best > 0 ? (x - q) * (1 / best) : d2(1, 0);
    return best - m.r;
}

// Penetration depth (> 0 overlapping, < 0: minus the distance) of A and B. A moved by -n * depth touches B.
static double oracle_depth(const Mink &m) { D2 n; return -sdist(m, d2(0, 0), &n); }
// how deep p lies inside S (negative: outside by that much)
static double surface_gap(const Shape &S, thc_v2 p) { return oracle_depth(minkowski(circle(dv(p), 0), S)); }

// The exact first t >= 0 at which the ray x(t) = p + d t enters Q grown by r (-1: never); the normal there.
static double ray_rounded(const Mink &m, D2 p, D2 d, D2 *normal)
{
    D2 n0;
    if (sdist(m, p, &n0) <= 0) { *normal = n0; return 0; }
    double best = -1;
    int edges = m.n >= 3 ? m.n : m.n == 2 ? 2 : 0;
    for (int i = 0; i < edges; i++) {   // faces pushed out by r
        D2 a = m.v[i], b = m.v[(i + 1) % m.n], e = b - a;
        D2 n = d2(e.y, -e.x) * (1 / len(e));
        double den = dot(n, d);
        if (den >= 0) continue;
        double t = (m.r - dot(p - a, n)) / den;
        if (t < 0) continue;
        D2 x = p + d * t;
        double u = dot(x - a, e) / dot(e, e);
        if (u >= 0 && u <= 1 && (best < 0 || t < best)) { best = t; *normal = n; }
    }
    for (int i = 0; i < m.n; i++) {   // vertex circles
        D2 w = p - m.v[i];
        double qa = dot(d, d), qb = dot(w, d), qc = dot(w, w) - m.r * m.r, disc = qb * qb - qa * qc;
        if (qa <= 0 || disc < 0 || qb >= 0) continue;
        double t = qc / (-qb + sqrt(disc));
        if (t >= 0 && (best < 0 || t < best)) {
            best = t;
            D2 x = p + d * t;
            *normal = len(x - m.v[i]) > 0 ? (x - m.v[i]) * (1 / len(x - m.v[i])) : d2(1, 0);
        }
    }
    if (m.n >= 3 && m.r == 0) {   // sharp polygon: the ray against every face's half-plane
        double lo = 0, hi = 1e300;
        D2 nb = d2(1, 0);
        for (int i = 0; i < m.n; i++) {
            D2 a = m.v[i], e = m.v[(i + 1) % m.n] - a;
            D2 n = d2(e.y, -e.x) * (1 / len(e));
            double num = dot(n, a - p), den = dot(n, d);
            if (den == 0) { if (num < 0) return -1; continue; }
            double t = num / den;
            if (den < 0) { if (t > lo) { lo = t; nb = n; } }
            else hi = std::min(hi, t);
        }
        if (lo > hi) return -1;
        *normal = nb;
        return lo;
    }
    return best;
}

static double shape_scale(const Shape &s)
{
    thc_aabb b = thc_shape_aabb(s.ptr(), s.type, s.x());
    return std::max(1.0, (double)std::max(fabsf(b.max.x) + fabsf(b.min.x), fabsf(b.max.y) + fabsf(b.min.y)));
}


static int g_prints = 0;
static void report(const char *what, const Shape &a, const Shape &b, double want, double got)
{
    if (g_prints++ >= (getenv("ORACLE_PRINTS") ? atoi(getenv("ORACLE_PRINTS")) : 6)) return;
    printf("%s: oracle %.9g, th %.9g\n", what, want, got);
    print_shape("A", a);
    print_shape("B", b);
}

// ---------------------------------------------------------------- rest queries against the exact answer
// Checks overlap, manifold (depth and that its normal attains it) and distance of one pair; returns the
// number of wrong answers.
static int check_rest(const Shape &A, const Shape &B, const char *tag)
{
    Mink m = minkowski(A, B);
    double depth = oracle_depth(m), scale = std::max(shape_scale(A), shape_scale(B));
    double tol = 2e-5 * scale + 2e-5 * (len(dv(thc_shape_aabb(A.ptr(), A.type, A.x()).min)));
    int bad = 0;
    int ov = thc_overlap(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x());
    if ((depth > tol && !ov) || (depth < -tol && ov)) { bad++; report(tag, A, B, depth, ov ? 1 : 0); }
    thc_manifold man;
    thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &man);
    if (depth > tol) {
        if (man.count == 0) { bad++; report("manifold missing", A, B, depth, 0); }
        else {
            double got = man.depths[0];
            for (int i = 1; i < man.count; i++) got = std::max(got, (double)man.depths[i]);
            D2 n = dv(man.n);
            // the push -n * got must separate, and no more than the least push: h_Q(n) + r == depth
            double need = support(m, n * (1 / len(n)));
            // A's face stays the reference unless B's is better by 0.5% + 0.0005 (no flicker between nearly equal
            // axes), so the depth may exceed the least one by that much, never fall short of it
            if (got < depth - tol || got > depth * (1 + 5e-3) + 5e-4 + tol) { bad++; report("manifold depth", A, B, depth, got); }
            else if (need - got > tol) { bad++; report("manifold normal leaves overlap (support - depth)", A, B, 0, need - got); }
        }
    } else if (depth < -tol && man.count) { bad++; report("manifold on apart shapes", A, B, depth, man.count); }
    if (depth < -tol) {
        thc_v2 pa, pb;
        double got = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
        if (fabs(got + depth) > tol) { bad++; report("distance", A, B, -depth, got); }
        else if (fabs(len(dv(pb) - dv(pa)) - got) > tol) { bad++; report("distance points", A, B, got, len(dv(pb) - dv(pa))); }
    }
    return bad;
}

// every ordered pair of shape types, at the origin, at pixel scale and far away
static void test_rest_queries_exact(void)
{
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(1000 + ia * 4 + ib);
            int bad = 0, over = 0, n = COUNT(3000);
            for (int i = 0; i < n; i++) {
                double size = i % 3 == 0 ? 1.5 : 10, far = i % 5 == 0 ? 4096 : 0;
                Shape A = random_shape(r, TYPES[ia], far + r.range(-1, 1), far + r.range(-1, 1), size);
                Shape B = random_shape(r, TYPES[ib], far + r.range(-2.5 * size, 2.5 * size), far + r.range(-2.5 * size, 2.5 * size), size);
                bad += check_rest(A, B, "overlap");
                over += oracle_depth(minkowski(A, B)) > 0;
            }
            TH_CHECK_MSG(bad == 0, "rest %s-%s: %d of %d wrong", type_name(TYPES[ia]), type_name(TYPES[ib]), bad, n);
            TH_CHECK_MSG(over > n / 10 && over < n * 9 / 10, "rest %s-%s: %d of %d overlap", type_name(TYPES[ia]), type_name(TYPES[ib]), over, n);
        }
}

// ---------------------------------------------------------------- defect 1: nearly parallel segments
static void test_nearly_parallel_segments(void)
{
    Rng r(2001);
    int bad_seg = 0, bad_cap = 0, n = COUNT(4000);
    for (int i = 0; i < n; i++) {
        double L = r.range(2, 60), ang = r.range(0, 6.2831853);
        double eps = r.range(1e-5, 1e-3) * (r.u32() & 1 ? 1 : -1);   // 0.0006 .. 0.06 degrees
        D2 da = d2(cos(ang), sin(ang)), db = d2(cos(ang + eps), sin(ang + eps)), nrm = d2(-da.y, da.x);
        D2 a0 = d2(r.range(-5, 5), r.range(-5, 5)), a1 = a0 + da * L;
        double along = r.range(-0.9 * L, 0.9 * L), off = r.range(-1, 1);
        D2 b0 = a0 + da * along + nrm * off, b1 = b0 + db * r.range(0.5 * L, 1.5 * L);
        if (r.u32() & 1) std::swap(b0, b1);
        thc_v2 pa, pb;
        float got = thc_segment_closest(V((float)a0.x, (float)a0.y), V((float)a1.x, (float)a1.y), V((float)b0.x, (float)b0.y), V((float)b1.x, (float)b1.y), &pa, &pb);
        Shape A = capsule(a0, a1, r.range(0.05, 0.5)), B = capsule(b0, b1, r.range(0.05, 0.5));
        D2 fa0 = dv(A.k.a), fa1 = dv(A.k.b), fb0 = dv(B.k.a), fb1 = dv(B.k.b);
        double want = seg_seg_dist(fa0, fa1, fb0, fb1), tol = 2e-5 * (L + 10);
        if (fabs(got - want) > tol || fabs(len(dv(pb) - dv(pa)) - want) > tol) { bad_seg++; report("segment_closest", A, B, want, got); }
        bad_cap += check_rest(A, B, "capsule-capsule overlap");
    }
    TH_CHECK_MSG(bad_seg == 0, "nearly parallel segment distance: %d of %d wrong", bad_seg, n);
    TH_CHECK_MSG(bad_cap == 0, "nearly parallel capsules: %d of %d wrong", bad_cap, n);
}

// ---------------------------------------------------------------- time of impact against the closed form
struct TOICheck { int bad_t, bad_point, bad_normal, hits; };

static void check_toi(const Shape &A, thc_v2 va, const Shape &B, thc_v2 vb, TOICheck *c, bool check_point, bool check_normal)
{
    Mink m = minkowski(A, B);
    D2 v = dv(va) - dv(vb), nrm;
    double speed = len(v), scale = std::max(shape_scale(A), shape_scale(B));
    if (speed < 1e-3) return;
    double t = ray_rounded(m, d2(0, 0), v * -1.0, &nrm);   // A - B + v t touches the origin
    thc_toi_result res = thc_toi(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb);
    if (t == 0) return;   // overlapping at the start: not a sweep
    double eps = 4e-5 * scale + 4e-6 * speed;
    if (!res.hit) {
        // a miss is right only if the exact sweep misses (or touches only at the very end)
        if (t >= 0 && t < 1 - eps / speed) { c->bad_t++; report("toi missed", A, B, t, -1); }
        return;
    }
    c->hits++;
    // where th stops, the shapes are apart by at most the tolerance and never overlap by more than 1e-3
    double gap = sdist(m, v * -(double)res.t, &nrm);
    if (gap > THC_TOLERANCE + eps || gap < -1e-3) { c->bad_t++; report("toi gap at t (t exact, gap)", A, B, t, gap); return; }
    if (t < 0) return;   // a near miss within the tolerance
    if (!(t > 0)) return;
    ray_rounded(m, d2(0, 0), v * -1.0, &nrm);
    double tt = res.t;
    if (check_point) {
        // the point is on B where B is at the time of impact, and on A there (within the tolerance)
        D2 p = dv(res.p), pb = p - dv(vb) * tt, pa = p - dv(va) * tt;
        D2 bc[THC_MAX_POLY_VERTS], ac[THC_MAX_POLY_VERTS], nn;
        double rb, ra;
        int nb = shape_core(B, bc, &rb), na = shape_core(A, ac, &ra);
        Mink mb, ma;
        mb.n = nb; mb.r = rb; ma.n = na; ma.r = ra;
        for (int i = 0; i < nb; i++) mb.v[i] = bc[i];
        for (int i = 0; i < na; i++) ma.v[i] = ac[i];
        double db = sdist(mb, pb, &nn), da = sdist(ma, pa, &nn), ptol = 2 * THC_TOLERANCE + 4e-5 * (scale + speed);
        if (fabs(db) > ptol || da > ptol) { c->bad_point++; report("toi point (distance to B, to A)", A, B, db, da); }
    }
    if (check_normal) {
        // the normal must support the rounded difference at the exact touching point: any tilt shows
        D2 n = dv(res.n) * (-1 / len(dv(res.n))), x = v * -t;   // res.n points from B to A; Q's outward normal from A to B
        double sup = support(m, n) - dot(n, x);
        double ang = acos(std::max(-1.0, std::min(1.0, dot(n, nrm))));
        if (sup > 2e-5 * scale + 1e-5 * speed + 1e-4 && ang > 1e-3) { c->bad_normal++; report("toi normal (support excess, angle deg)", A, B, sup, ang * 57.29578); }
    }
}

static void test_toi_exact(void)
{
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(3000 + ia * 4 + ib);
            TOICheck c = { 0, 0, 0, 0 };
            int n = COUNT(1500);
            for (int i = 0; i < n; i++) {
                double size = i % 2 ? 2 : 10;
                Shape A = random_shape(r, TYPES[ia], r.range(-60, 60), r.range(-60, 60), size);
                Shape B = random_shape(r, TYPES[ib], r.range(-10, 10), r.range(-10, 10), size);
                thc_v2 vb = i % 3 ? V(r.range(-40, 40), r.range(-40, 40)) : V(0, 0);
                // aim A roughly at B so most sweeps hit
                D2 aim = dv(thc_shape_aabb(B.ptr(), B.type, B.x()).min) - dv(thc_shape_aabb(A.ptr(), A.type, A.x()).min);
                double k = r.range(1.0, 2.5);
                thc_v2 va = V((float)(aim.x * k + r.range(-10, 10)) + vb.x, (float)(aim.y * k + r.range(-10, 10)) + vb.y);
                check_toi(A, va, B, vb, &c, false, false);
            }
            TH_CHECK_MSG(c.bad_t == 0, "toi %s-%s: %d wrong t (%d hits)", type_name(TYPES[ia]), type_name(TYPES[ib]), c.bad_t, c.hits);
            TH_CHECK(c.hits > n / 4);
        }
}

// ---------------------------------------------------------------- defect 2: the contact point moves with B
static void test_toi_point_where_b_is(void)
{
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(4000 + ia * 4 + ib);
            TOICheck c = { 0, 0, 0, 0 };
            int n = COUNT(2000);
            for (int i = 0; i < n; i++) {
                Shape A = random_shape(r, TYPES[ia], -40 + r.range(-5, 5), r.range(-5, 5), 6);
                Shape B = random_shape(r, TYPES[ib], 40 + r.range(-5, 5), r.range(-5, 5), 6);
                thc_v2 vb = V(r.range(-90, -30), r.range(-10, 10)), va = V(r.range(40, 100), r.range(-10, 10));
                check_toi(A, va, B, vb, &c, true, false);
            }
            TH_CHECK_MSG(c.bad_point == 0 && c.bad_t == 0, "toi point %s-%s: %d points not on B at impact, %d wrong t (%d hits)",
                         type_name(TYPES[ia]), type_name(TYPES[ib]), c.bad_point, c.bad_t, c.hits);
            TH_CHECK(c.hits > n / 4);
        }
}

// ---------------------------------------------------------------- defect 3: grazing shots at long thin walls never tunnel
static void test_grazing_walls(void)
{
    const double angles_deg[] = { 0.05, 0.1, 0.2, 0.35, 0.5, 1, 2, 3 };
    const int shots = COUNT(2000);
    for (int wall_kind = 0; wall_kind < 3; wall_kind++)
        for (int mover = 0; mover < 3; mover++) {
            int bad = 0, total = 0;
            Rng r(5000 + wall_kind * 3 + mover);
            for (double adeg : angles_deg) {
                double a = adeg * 3.14159265358979 / 180;
                for (int s = 0; s < shots; s++) {
                    // a wall 2000 px long, 2 px thick, along x, its top face at y = 1, somewhere on screen
                    D2 wc = d2(r.range(200, 1800), r.range(100, 1000));
                    double tilt = wall_kind == 1 ? r.range(-0.3, 0.3) : 0;
                    Shape W = wall_kind == 0 ? box(wc, 1000, 1) : wall_kind == 1 ? obb(wc, 1000, 1, tilt) : capsule(wc - d2(1000, 0), wc + d2(1000, 0), 1);
                    D2 along = d2(cos(tilt), sin(tilt)), up = d2(-sin(tilt), cos(tilt));
                    // the mover starts 0.2-6 px above the face and travels 200-1500 px at angle a toward it,
                    // aimed to strike well inside the wall's length
                    double h = r.range(0.2, 6), speed = r.range(200, 1500);
                    double run = h / tan(a);
                    double dir = r.u32() & 1 ? 1 : -1;
                    double startx = -dir * std::min(run * r.range(0.1, 0.9), 700.0);
                    D2 start = wc + along * startx + up * (1 + h);
                    double size = r.range(0.5, 2);
                    Shape M = mover == 0 ? circle(start + up * size, size) : mover == 1 ? capsule(start + up * size + along * size, start + up * size - along * size, size * 0.5)
                                                                                   : obb(start + up * size, size, size, r.range(-3, 3));
                    D2 v = (along * (dir * cos(a)) - up * sin(a)) * std::max(speed, 1.2 * (h + 2 * size) / sin(a));
                    Mink m = minkowski(M, W);
                    D2 nrm, vel = v;
                    double t = ray_rounded(m, d2(0, 0), vel * -1.0, &nrm);
                    if (!(t > 0 && t < 0.95)) continue;
                    total++;
                    thc_v2 va = V((float)v.x, (float)v.y), zero = V(0, 0);
                    thc_toi_result res = thc_toi(M.ptr(), M.type, M.x(), va, W.ptr(), W.type, W.x(), zero);
                    Shape P = M;
                    P.move(V((float)(v.x * res.t), (float)(v.y * res.t)));
                    double pen = res.hit ? oracle_depth(minkowski(P, W)) : 1e9;
                    if (!res.hit || pen > 1e-3) {
                        bad++;
                        if (g_prints < 6) printf("grazing %.2f deg: hit %d t %.9g (exact %.9g) penetration %.6g px\n", adeg, res.hit, res.t, t, pen);
                        report("grazing", M, W, t, res.t);
                    }
                }
            }
            TH_CHECK_MSG(bad == 0, "grazing, wall %d mover %d: %d of %d shots missed or stopped deeper than 1e-3 px", wall_kind, mover, bad, total);
            TH_CHECK(total > 8 * shots / 2);
        }
}

// ---------------------------------------------------------------- issue 29: grazing shots at every pair, at corners too
// Each shot's relative path is a line at depth delta inside the rounded difference Q (its support along the
// line's normal minus delta), delta from 1e-6 to 1e-3 of the size either way, near the origin and at +-1e5. No
// miss while the exact path overlaps by more than tol = 1e-6 x max(1, coordinates), and no stop deeper than tol
// (the issue asks for 1e-5; with the corner's discriminant as b^2 - |d|^2 cc circle movers missed at 1e-6).
static double deepest_along(const Mink &m, D2 p0, D2 d)   // max over t in [0, 1] of -sdist(p0 + d t)
{
    double lo = 0, hi = 1;
    D2 n;
    for (int k = 0; k < 80; k++) {
        double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
        if (sdist(m, p0 + d * a, &n) < sdist(m, p0 + d * b, &n)) hi = b; else lo = a;
    }
    return -sdist(m, p0 + d * (0.5 * (lo + hi)), &n);
}

static void test_grazing_every_pair(void)
{
    const int shots = COUNT(100000) / 16;
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(29000 + ia * 4 + ib);
            int missed = 0, sunk = 0, grazes = 0, hits = 0;
            for (int i = 0; i < shots; i++) {
                double size = i % 3 ? 4 : 40, far = i % 4 == 3 ? (i % 8 == 3 ? 1e5 : -1e5) : 0;
                Shape A = random_shape(r, TYPES[ia], 0, 0, size), B = random_shape(r, TYPES[ib], far + r.range(-size, size), far + r.range(-size, size), size);
                double tol = 1e-6 * std::max(1.0, fabs(far) + 3 * size);
                Mink m = minkowski(A, B);
                double ang = r.range(0, 6.2831853);
                D2 u = d2(cos(ang), sin(ang)), n = d2(-u.y, u.x);
                double umin = 1e300, umax = -1e300;
                for (int k = 0; k < m.n; k++) { umin = std::min(umin, dot(m.v[k], u)); umax = std::max(umax, dot(m.v[k], u)); }
                double delta = (r.u32() & 1 ? 1 : -1) * size * pow(10.0, r.range(-6, -3));
                double s = support(m, n) - delta, back = r.range(1, 3) * size;
                // the path y(t) = y0 + u L t in Q's frame; A is moved by w = -y0 and moves by v = -u L
                D2 y0 = n * s + u * (umin - m.r - back);
                double L = umax - umin + 2 * m.r + back + r.range(0.2, 2) * size;
                Shape M = A;
                M.move(V((float)-y0.x, (float)-y0.y));
                thc_v2 v = V((float)(-u.x * L), (float)(-u.y * L)), still = V(0, 0);
                Mink mm = minkowski(M, B);
                D2 vel = dv(v), nrm;
                if (sdist(mm, d2(0, 0), &nrm) <= tol) continue;   // must start apart
                thc_toi_result res = thc_toi(M.ptr(), M.type, M.x(), v, B.ptr(), B.type, B.x(), still);
                grazes += fabs(delta) < 10 * tol;
                if (!res.hit) {
                    double deep = deepest_along(mm, d2(0, 0), vel * -1.0);
                    if (deep > tol) { missed++; report("grazing miss (depth along the path, delta)", M, B, deep, delta); }
                    continue;
                }
                hits++;
                double gap = sdist(mm, vel * -(double)res.t, &nrm);
                if (gap < -tol) { sunk++; report("grazing sink (gap at t, t)", M, B, gap, res.t); }
            }
            TH_CHECK_MSG(missed == 0 && sunk == 0, "grazing %s-%s: %d missed, %d sunk beyond tol, of %d shots (%d within 10 tol of grazing, %d hits)",
                         type_name(TYPES[ia]), type_name(TYPES[ib]), missed, sunk, shots, grazes, hits);
            TH_CHECK(hits > shots / 4);
        }
}

// ---------------------------------------------------------------- defect 4: a circle's centre just outside a polygon
static void test_circle_core_just_outside(void)
{
    int bad = 0, n = COUNT(6000);
    Rng r(6001);
    for (int i = 0; i < n; i++) {
        double size = i % 2 ? 1 : 40;
        Shape P = random_shape(r, i % 3 ? THC_POLY : THC_AABB, r.range(-5, 5), r.range(-5, 5), size);
        // a point on the boundary, then pushed out along the face normal by a hair (1e-6 .. 1e-3 of the size)
        D2 core[THC_MAX_POLY_VERTS];
        double rr;
        int nc = shape_core(P, core, &rr);
        int f = (int)(r.u32() % (uint32_t)nc);
        D2 a = core[f], e = core[(f + 1) % nc] - a, fn = d2(e.y, -e.x) * (1 / len(e));
        double u = r.range(0.05, 0.95), out = size * pow(10.0, r.range(-6, -3));
        Shape C = circle(a + e * u + fn * out, r.range(0.05, 0.5) * size);
        bad += check_rest(C, P, "circle core outside");
        bad += check_rest(P, C, "circle core outside (swapped)");
    }
    TH_CHECK_MSG(bad == 0, "circle centre just outside a polygon: %d wrong", bad);
}

// ---------------------------------------------------------------- defect 5: TOI normal at pixel scale
static void test_toi_normal_pixel_scale(void)
{
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 1; ib < 4; ib++) {
            Rng r(7000 + ia * 4 + ib);
            TOICheck c = { 0, 0, 0, 0 };
            int n = COUNT(1500);
            for (int i = 0; i < n; i++) {
                double size = r.range(0.3, 3);
                Shape A = random_shape(r, TYPES[ia], r.range(-30, 30), r.range(-30, 30), size);
                Shape B = random_shape(r, TYPES[ib], r.range(-2, 2), r.range(-2, 2), size * 2);
                D2 aim = dv(thc_shape_aabb(B.ptr(), B.type, B.x()).min) - dv(thc_shape_aabb(A.ptr(), A.type, A.x()).min);
                double k = r.range(1.2, 3);
                thc_v2 va = V((float)(aim.x * k + r.range(-3, 3)), (float)(aim.y * k + r.range(-3, 3)));
                check_toi(A, va, B, V(0, 0), &c, false, true);
            }
            TH_CHECK_MSG(c.bad_normal == 0 && c.bad_t == 0, "toi normal %s-%s: %d tilted normals, %d wrong t (%d hits)", type_name(TYPES[ia]), type_name(TYPES[ib]),
                         c.bad_normal, c.bad_t, c.hits);
            TH_CHECK(c.hits > n / 4);
        }
}

// ---------------------------------------------------------------- the oracle itself
static void test_oracle_sanity(void)
{
    // hand-worked answers, so the oracle cannot drift with the library
    Shape a = box(d2(0, 0), 2, 1), b = box(d2(3.5, 0.5), 2, 1);
    TH_CHECK(fabs(oracle_depth(minkowski(a, b)) - 0.5) < 1e-12);
    Shape c = circle(d2(0, 0), 1), k = capsule(d2(-5, 3), d2(5, 3), 0.5);
    TH_CHECK(fabs(oracle_depth(minkowski(c, k)) + 1.5) < 1e-12);
    D2 n;
    double t = ray_rounded(minkowski(c, k), d2(0, 0), d2(0, -10), &n);   // A moves up 10: touches after 1.5
    TH_CHECK(fabs(t - 0.15) < 1e-12 && fabs(n.y - 1) < 1e-12);   // Q's outward normal: from A toward B
    TH_CHECK(fabs(seg_seg_dist(d2(0, 0), d2(10, 0), d2(9, 1), d2(20, 1.0001)) - 1) < 1e-12);
    TH_CHECK(seg_seg_dist(d2(0, 0), d2(2, 2), d2(0, 2), d2(2, 0)) == 0);
}

// ---------------------------------------------------------------- rays against the closed form
// One ray against the exact answer; returns 1 when it is wrong, and counts hits.
static int check_ray(const Shape &S, thc_ray ray, double tol, int *hits)
{
    Mink m = minkowski(S, circle(d2(0, 0), 0));   // the core's hull (a polygon with no area: its segment), grown by r
    thc_v2 p = ray.p, d = ray.d;
    D2 nrm;
    double t = ray_rounded(m, dv(p), dv(d), &nrm);
    thc_ray_hit h;
    int got = thc_raycast(ray, S.ptr(), S.type, S.x(), &h);
    bool want = t >= 0 && t <= ray.t;
    if (want != (got != 0)) {
        if (!(fabs(t - ray.t) < tol || (t >= 0 && fabs(t) < tol))) { report("ray hit/miss", S, S, t, got ? h.t : -1); return 1; }
        return 0;
    }
    if (!got) return 0;
    (*hits)++;
    if (fabs(h.t - t) > tol) { report("ray t", S, S, t, h.t); return 1; }
    if (t > 0 && 1 - dot(dv(h.n), nrm) > 1e-5) {
        // at a corner any normal of the corner's cone is right: it must support the shape at the hit point
        D2 x = dv(p) + dv(d) * t, hn = dv(h.n);
        if (support(m, hn) - dot(hn, x) > tol) { report("ray normal (support excess)", S, S, 0, support(m, hn) - dot(hn, x)); return 1; }
    }
    return 0;
}

static void test_rays_exact(void)
{
    for (int it = 0; it < 4; it++) {
        Rng r(8000 + it);
        int bad = 0, hits = 0, n = COUNT(4000);
        for (int i = 0; i < n; i++) {
            double size = i % 2 ? 1.5 : 10;
            Shape S = random_shape(r, TYPES[it], r.range(-3, 3), r.range(-3, 3), size);
            double a = r.range(0, 6.2831853), far = r.range(0.5, 4) * size;
            thc_v2 p = V((float)(cos(a) * far), (float)(sin(a) * far)), d = V((float)(-cos(a) + r.range(-0.5, 0.5)), (float)(-sin(a) + r.range(-0.5, 0.5)));
            float dl = sqrtf(d.x * d.x + d.y * d.y);
            d.x /= dl; d.y /= dl;
            thc_ray ray = { p, d, (float)(far * 1.5) };
            bad += check_ray(S, ray, 2e-5 * (size + far), &hits);
        }
        TH_CHECK_MSG(bad == 0, "rays at %s: %d of %d wrong (%d hits)", type_name(TYPES[it]), bad, n, hits);
        TH_CHECK(hits > n / 4);
    }
}

// Rays from anywhere near a shape, inside it as often as not, in any direction (not aimed at it), over any
// length: a ray starting inside enters at t = 0, one starting outside takes every road the shape has
// (a circle's common case and the rest: inside, a zero radius). The exact answer decides.
static void test_rays_from_anywhere(void)
{
    for (int it = 0; it < 4; it++) {
        Rng r(8100 + it);
        int bad = 0, hits = 0, inside = 0, n = COUNT(4000);
        for (int i = 0; i < n; i++) {
            double size = i % 2 ? 1.5 : 10;
            Shape S = random_shape(r, TYPES[it], r.range(-3, 3), r.range(-3, 3), size);
            if (TYPES[it] == THC_CIRCLE && i % 8 == 0) S.c.r = 0;   // a point
            double a = r.range(0, 6.2831853), far = r.range(0, 2) * size;
            thc_aabb bb = thc_shape_aabb(S.ptr(), S.type, S.x());
            thc_v2 p = V((float)(0.5 * (bb.min.x + bb.max.x) + cos(a) * far), (float)(0.5 * (bb.min.y + bb.max.y) + sin(a) * far));
            double da = r.range(0, 6.2831853);
            thc_v2 d = V((float)cos(da), (float)sin(da));
            thc_ray ray = { p, d, (float)(r.range(0.05, 3) * size) };
            thc_ray_hit h;
            if (thc_raycast(ray, S.ptr(), S.type, S.x(), &h) && h.t == 0) inside++;
            bad += check_ray(S, ray, 2e-5 * (size + far), &hits);
        }
        TH_CHECK_MSG(bad == 0, "rays from anywhere at %s: %d of %d wrong (%d hits, %d from inside)", type_name(TYPES[it]), bad, n, hits, inside);
        TH_CHECK_MSG(hits > n / 4 && inside > n / 10 && hits - inside > n / 20, "rays from anywhere at %s: %d hits, %d from inside, of %d",
                     type_name(TYPES[it]), hits, inside, n);
    }
}

// Rays with no end (t = infinity) at every shape, and along the faces of unrotated boxes given as polygons,
// outside them: a face the ray runs parallel to (exactly, in the polygon's frame) shuts it out whatever the
// other faces say. The exact answer decides.
static void test_rays_unbounded(void)
{
    Rng r(8200);
    int bad = 0, hits = 0, n = COUNT(4000);
    for (int i = 0; i < n; i++) {
        double size = i % 2 ? 1.5 : 10;
        thc_type type = TYPES[i % 4];
        Shape S = random_shape(r, type, r.range(-3, 3), r.range(-3, 3), size);
        thc_aabb bb = thc_shape_aabb(S.ptr(), S.type, S.x());
        double cx = 0.5 * (bb.min.x + bb.max.x), cy = 0.5 * (bb.min.y + bb.max.y), a = r.range(0, 6.2831853), far = r.range(0, 3) * size;
        thc_v2 p = V((float)(cx + cos(a) * far), (float)(cy + sin(a) * far)), d;
        if (type == THC_POLY && i % 8 == 3) {   // a box polygon, unrotated; the ray along x or y beside it
            float hw = r.range(0.2 * size, size), hh = r.range(0.2 * size, size), off = r.range(0.01, 1) * (float)size;
            thc_make_box(&S.p, hw, hh);
            S.xf = thc_make_transform(V((float)cx, (float)cy), 0);
            int side = (int)(r.u32() % 4);
            float along = r.range(-3, 3) * (float)size;
            if (side < 2) { p = V((float)cx + along, (float)cy + (side ? hh + off : -hh - off)); d = V(r.u32() % 2 ? 1.0f : -1.0f, 0); }
            else { p = V((float)cx + (side == 3 ? hw + off : -hw - off), (float)cy + along); d = V(0, r.u32() % 2 ? 1.0f : -1.0f); }
        } else {
            double da = r.range(0, 6.2831853);
            d = V((float)cos(da), (float)sin(da));
        }
        thc_ray ray = { p, d, INFINITY };
        bad += check_ray(S, ray, 2e-5 * (size + far), &hits);
    }
    TH_CHECK_MSG(bad == 0, "unbounded rays: %d of %d wrong (%d hits)", bad, n, hits);
    TH_CHECK(hits > n / 10);
}

// Rays at polygons with (almost) no area, which the library treats as the segment they span, and at thin
// slivers just thick enough to be polygons: crossing them at any angle, running along them, missing past
// their ends. The polygon ray clips against the faces and looks at the area only after a miss that a
// polygon with no area could owe to rounding (a face parallel to the ray, or entering after leaving through
// a nearly opposite face); it must answer exactly as looking at the area after every miss does.
static void test_rays_at_flat_polygons(void)
{
    Rng r(8100);
    int bad = 0, hits = 0, segment = 0, differ = 0, n = COUNT(8000);
    const double thick[6] = { 0, 1e-8, 1e-7, 4e-7, 1e-5, 1e-3 };   // thickness / length; below 5e-7 it has no area
    for (int i = 0; i < n; i++) {
        double size = i % 2 ? 1.5 : 10, L = r.range(0.5, 2) * size, h = thick[i % 6] * L;
        bool world = i % 5 == 0;   // axis-aligned in world coordinates (no transform): rays exactly along it too
        Shape S;
        memset(&S, 0, sizeof S);
        S.type = THC_POLY;
        double y0 = world ? r.range(-2, 2) : 0, x0 = world ? r.range(-2, 2) : -L / 2;
        if ((i / 6) % 2) {   // a thin triangle
            S.p.count = 3;
            S.p.verts[0] = V((float)x0, (float)y0); S.p.verts[1] = V((float)(x0 + L), (float)y0); S.p.verts[2] = V((float)(x0 + L / 2), (float)(y0 + h));
        } else {             // a thin rectangle
            S.p.count = 4;
            S.p.verts[0] = V((float)x0, (float)y0); S.p.verts[1] = V((float)(x0 + L), (float)y0);
            S.p.verts[2] = V((float)(x0 + L), (float)(y0 + h)); S.p.verts[3] = V((float)x0, (float)(y0 + h));
        }
        if (!thc_poly_normals(&S.p)) continue;   // an edge of no length (h rounded away): not a polygon
        S.xf = world ? thc_make_transform(V(0, 0), 0) : thc_make_transform(V(r.range(-3, 3), r.range(-3, 3)), r.range(-3.14159, 3.14159));
        D2 e0 = d2(x0, y0), e1 = d2(x0 + L, y0);
        if (!world) {
            thc_v2 w0 = thc_mul_xf(S.xf, V((float)x0, (float)y0)), w1 = thc_mul_xf(S.xf, V((float)(x0 + L), (float)y0));
            e0 = dv(w0); e1 = dv(w1);
        }
        D2 ax = (e1 - e0) * (1 / len(e1 - e0));
        D2 q = e0 + (e1 - e0) * r.range(-0.1, 1.1);   // the aim: along the polygon, a little past its ends
        int kind = (i / 12) % 3;
        double ang = r.range(0, 6.2831853);
        D2 d = kind == 0 ? d2(cos(ang), sin(ang)) : kind == 1 ? ax * (r.u32() & 1 ? 1 : -1) : d2(-ax.y, ax.x);
        double dist = r.range(0.5, 3) * size;
        thc_v2 p = V((float)(q.x - d.x * dist), (float)(q.y - d.y * dist));
        if (kind == 1) {   // exactly along its line, or just beside it
            D2 side = d2(-ax.y, ax.x) * (r.u32() & 1 ? 0.0 : r.range(-1e-3, 1e-3) * size);
            p = V((float)(e0.x - d.x * dist + side.x), (float)(e0.y - d.y * dist + side.y));
            if (world) p.y = (float)(y0 + side.y);
        }
        thc_ray ray = { p, V((float)d.x, (float)d.y), (float)(2 * dist + 2 * L) };
        // the reference: the clip, and after any miss the segment when the polygon has no area
        thc_ray_hit want, got;
        int w = thc__ray_poly_local(&ray, &S.p, &S.xf, &want) > 0;
        if (!w && thc__poly_flat(&S.p)) {
            thc__proxy px;
            thc_v2 o = thc__anchor(&S.p, THC_POLY, &S.xf);
            thc__proxy_make(&px, &S.p, THC_POLY, &S.xf, o);
            w = thc__ray_proxy(&px, thc__sub(ray.p, o), ray.d, ray.t, &want);
            segment += w;
        }
        int g = thc_raycast(ray, &S.p, THC_POLY, &S.xf, &got);
        hits += g;
        // where they differ (a ray grazing along the polygon, whose reference answer is the segment's, decided
        // by a cancellation) the answer must be the exact one
        if (g != w || (g && (got.t != want.t || got.n.x != want.n.x || got.n.y != want.n.y))) {
            int dummy = 0;
            if (check_ray(S, ray, 2e-5 * (size + dist), &dummy)) { bad++; report("flat polygon ray (hit, reference hit)", S, S, w, g); }
            else differ++;
        }
    }
    TH_CHECK_MSG(bad == 0, "rays at flat polygons: %d of %d differ from the clip-then-area reference and the exact answer (%d hits)", bad, n, hits);
    TH_CHECK_MSG(differ < n / 20, "rays at flat polygons: %d of %d differ from the clip-then-area reference", differ, n);
    // (the segment's corners are circles of radius 0, solved exactly: a ray that passes one by a rounding misses it)
    TH_CHECK_MSG(hits > n / 4 && segment > n / 200, "rays at flat polygons: %d hits, %d of them on the segment", hits, segment);
}

// ---------------------------------------------------------------- direct paths against the general one
// The manifold of the general proxy road (thc__manifold on the pair's proxies).
static thc_manifold general_manifold(const Shape &P, const Shape &Q)
{
    thc_manifold m;
    thc__proxy pa, pb;
    thc_v2 o;
    m.count = 0;
    if (thc__pair_proxies(P.ptr(), P.type, P.x(), Q.ptr(), Q.type, Q.x(), &pa, &pb, &o)) thc__manifold(&pa, &pb, o, &m);
    return m;
}

// 1 when thc_collide's answer differs from the general road's: count, depths and contact points within tol,
// normal within 1e-4.
static int direct_differs(const Shape &P, const Shape &Q, double tol, const char *what)
{
    thc_manifold fast, slow = general_manifold(P, Q);
    thc_collide(P.ptr(), P.type, P.x(), Q.ptr(), Q.type, Q.x(), &fast);
    bool same = fast.count == slow.count;
    for (int k = 0; same && k < fast.count; k++)
        same = fabsf(fast.depths[k] - slow.depths[k]) <= tol && len(dv(fast.contact_points[k]) - dv(slow.contact_points[k])) <= tol;
    if (same && fast.count) same = len(dv(fast.n) - dv(slow.n)) <= 1e-4;
    if (!same) report(what, P, Q, fast.count, slow.count);
    return !same;
}

// direct_differs for A-B and B-A, the tolerance scaled by the shapes' size and their distance from the origin.
static int both_ways_differ(const Shape &A, const Shape &B, double size, double far, const char *what)
{
    double tol = 1e-4 * size + 4e-7 * fabs(far);
    return direct_differs(A, B, tol, what) + direct_differs(B, A, tol, what);
}

// Circle-capsule and circle-polygon manifolds take a direct road; the general proxy road must agree with it
// on every field, contact points included (the oracle above checks depth and normal, not where contacts lie).
static void test_direct_paths_match_general(void)
{
    int bad = 0, n = COUNT(6000);
    Rng r(9001);
    for (int i = 0; i < n; i++) {
        double size = i % 2 ? 1.5 : 10;
        Shape A = random_shape(r, THC_CIRCLE, r.range(-1, 1), r.range(-1, 1), size);
        Shape B = random_shape(r, i % 3 ? THC_POLY : THC_CAPSULE, r.range(-2 * size, 2 * size), r.range(-2 * size, 2 * size), size);
        bad += direct_differs(A, B, 1e-4 * size, "direct path differs (count fast, count general)");
        bad += direct_differs(B, A, 1e-4 * size, "direct path differs (count fast, count general)");
    }
    TH_CHECK_MSG(bad == 0, "direct circle paths: %d of %d differ from the general path", bad, 2 * n);
}

// ---------------------------------------------------------------- distance/TOI closest features: GJK against the brute force
// thc_distance and thc_toi find the closest features with a (warm-startable) GJK and keep its answer only when
// the exact separation along its normal proves it; the brute force over every vertex-edge pair must agree on
// the distance, the points and the normal, and the proof must hold in most cases (else the fast road is dead).
static void test_gjk_closest_matches_brute_force(void)
{
    const thc_type T[3] = { THC_AABB, THC_CAPSULE, THC_POLY };
    int bad = 0, proven = 0, total = 0, n = COUNT(4000);
    Rng r(9100);
    for (int i = 0; i < n; i++) {
        double size = i % 3 == 0 ? 1.5 : 10, far = i % 5 == 0 ? 4096 : 0;
        Shape A = random_shape(r, T[r.u32() % 3], far + r.range(-1, 1), far + r.range(-1, 1), size);
        Shape B = random_shape(r, T[r.u32() % 3], far + r.range(-4 * size, 4 * size), far + r.range(-4 * size, 4 * size), size);
        thc__proxy pa, pb;
        thc_v2 o;
        thc__pair_proxies(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb, &o);
        if (pa.count * pb.count < 12) continue;   /* those take the brute force directly */
        thc__gjk_cache cache;
        cache.n = 0;
        thc_v2 step = V(r.range(-size, size), r.range(-size, size));
        for (int k = 0; k < 3; k++) {   /* A moved a little further each time, the cache carried along as in TOI */
            thc_v2 shift = V(step.x * k, step.y * k), qa, qb, nf, ma, mb, nb;
            double sep;
            float df = thc__closest_checked(&pa, shift, &pb, &cache, &qa, &qb, &nf, &sep);
            thc__proxy moved = pa;
            for (int j = 0; j < pa.count; j++) moved.v[j] = thc__add(pa.v[j], shift);
            float db = thc__core_closest(&moved, &pb, &ma, &mb, &nb);
            if (db <= 0) continue;   /* overlapping cores: no features to compare */
            total++;
            proven += cache.n > 0;
            double tol = 2e-5 * (size + far);
            /* parallel faces have many closest pairs: the points must lie on their cores, the distance apart */
            thc__proxy pt;
            thc_v2 u0, u1, un;
            pt.count = 1; pt.r = 0;
            pt.v[0] = qa;
            double on_a = thc__core_closest(&pt, &moved, &u0, &u1, &un);
            pt.v[0] = qb;
            double on_b = thc__core_closest(&pt, &pb, &u0, &u1, &un);
            bool same = fabs(df - db) <= tol && on_a <= tol && on_b <= tol && fabs(len(dv(qb) - dv(qa)) - db) <= tol;
            /* at a vertex-face near-tie either normal is right if the exact axis proves the distance */
            if (same && len(dv(nf) - dv(nb)) > 1e-4) same = sep + pa.r + pb.r >= db - tol;
            if (!same) { bad++; report("GJK closest features differ (GJK, brute force)", A, B, db, df); }
        }
    }
    TH_CHECK_MSG(bad == 0, "GJK closest features: %d of %d differ from the brute force", bad, total);
    TH_CHECK_MSG(total > n / 2, "GJK closest features: only %d comparisons", total);
    TH_CHECK_MSG(proven > total * 95 / 100, "GJK closest features: proven in only %d of %d (the rest fell back to the brute force)", proven, total);
}

// The direct circle-polygon road looks only at the face of greatest separation (and the next one past its
// end) and at the polygon's area only when a vertex barely turns. Polygons that test that: a vertex in the
// middle of an edge (two faces in line), vertices on a line in any order (no area: the segment between the
// extreme ones), thin triangles and rectangles on either side of the no-area limit, at pixel scale and
// around +-1e5; the direct road must agree with the general one.
// One of the odd polygons (kind 0-3) of length about L, placed at (cx, cy) with a random turn; count 0 when
// rounding left it an edge of no length.
static Shape odd_polygon(Rng &r, int kind, double L, double cx, double cy, bool thinner)
{
    Shape P;
    memset(&P, 0, sizeof P);
    P.type = THC_POLY;
    thc_v2 *v = P.p.verts;
    float h = (float)(L * (thinner ? 1e-7 : 1e-5));
    if (kind == 0) {   // a box with an extra vertex in the middle of its bottom edge
        P.p.count = 5;
        v[0] = V((float)(-L / 2), (float)(-L / 2)); v[1] = V(0, (float)(-L / 2)); v[2] = V((float)(L / 2), (float)(-L / 2));
        v[3] = V((float)(L / 2), (float)(L / 2)); v[4] = V((float)(-L / 2), (float)(L / 2));
    } else if (kind == 1) {   // three or four points on a line, in an order that folds back
        P.p.count = 3 + (int)(r.u32() % 2);
        v[0] = V((float)(-L / 2), 0); v[1] = V((float)(L / 2), 0); v[2] = V((float)r.range(-L / 2, L / 2), 0); v[3] = V((float)r.range(-L / 2, L / 2), 0);
    } else if (kind == 2) {   // a thin triangle, with no area or just enough
        P.p.count = 3;
        v[0] = V((float)(-L / 2), 0); v[1] = V((float)(L / 2), 0); v[2] = V(0, h);
    } else {                  // a thin rectangle
        P.p.count = 4;
        v[0] = V((float)(-L / 2), 0); v[1] = V((float)(L / 2), 0); v[2] = V((float)(L / 2), (float)(L * 1e-7)); v[3] = V((float)(-L / 2), (float)(L * 1e-7));
    }
    if (!thc_poly_normals(&P.p)) P.p.count = 0;
    P.xf = thc_make_transform(V((float)cx, (float)cy), r.range(-3.14159, 3.14159));
    return P;
}

static void test_circle_poly_odd_polygons(void)
{
    int bad = 0, n = COUNT(8000);
    Rng r(9201);
    for (int i = 0; i < n; i++) {
        double size = i % 3 == 0 ? 1.5 : 10, far = i % 7 == 0 ? (i % 2 ? 1e5 : -1e5) : 0, L = r.range(0.5, 2) * size;
        Shape P = odd_polygon(r, i % 4, L, far + r.range(-1, 1), far + r.range(-1, 1), i % 8 < 4);
        if (!P.p.count) continue;
        Shape C = random_shape(r, THC_CIRCLE, P.xf.p.x + r.range(-1.2 * L, 1.2 * L), P.xf.p.y + r.range(-1.2 * L, 1.2 * L), size);
        bad += both_ways_differ(C, P, size, far, "odd polygon: circle direct path differs (count fast, count general)");
    }
    TH_CHECK_MSG(bad == 0, "circles against odd polygons: %d of %d differ from the general path", bad, 2 * n);
}

// Two polygons, or a box and a polygon, take the lane road (thc__pp_sat/thc__pp_manifold), which loads each
// polygon and measures its area in one pass; it must agree with the general road for random polygons and boxes
// and for the odd polygons above with
// no vertex in the middle of an edge (two faces in line are equally good references, and the two roads may
// pick either), against random ones, at pixel scale and around +-1e5.
static void test_poly_pair_matches_general(void)
{
    int bad = 0, disagree = 0, n = COUNT(8000);
    Rng r(9301);
    for (int i = 0; i < n; i++) {
        double size = i % 3 == 0 ? 1.5 : 10, far = i % 7 == 0 ? (i % 2 ? 1e5 : -1e5) : 0, L = r.range(0.5, 2) * size;
        Shape A = i % 4 == 1 ? random_shape(r, THC_AABB, far + r.range(-1, 1), far + r.range(-1, 1), size)   // a box takes it as a polygon
                : i % 2 ? random_shape(r, THC_POLY, far + r.range(-1, 1), far + r.range(-1, 1), size)
                        : odd_polygon(r, 1 + (i / 2) % 3, L, far + r.range(-1, 1), far + r.range(-1, 1), i % 8 < 4);
        if (A.type == THC_POLY && !A.p.count) continue;
        thc_v2 at = A.type == THC_AABB ? A.b.min : A.xf.p;
        Shape B = random_shape(r, THC_POLY, at.x + r.range(-1.5 * size, 1.5 * size), at.y + r.range(-1.5 * size, 1.5 * size), size);
        bad += both_ways_differ(A, B, size, far, "polygon pair: lane road differs (count fast, count general)");
        thc_manifold m;   // the overlap test takes the same road, so it agrees with the manifold to the last bit
        thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &m);
        int ov = thc_overlap(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x());
        if (ov != (m.count > 0)) { disagree++; report("polygon pair: overlap and manifold disagree (overlap, count)", A, B, ov, m.count); }
    }
    TH_CHECK_MSG(bad == 0, "polygon pairs: %d of %d differ from the general path", bad, 2 * n);
    TH_CHECK_MSG(disagree == 0, "polygon pairs: overlap and manifold disagree on %d of %d", disagree, n);
}

// The lane road's face scan (thc__pp_faces, with SSE2 the minima kept in registers) and the clip shared by the
// capsule and general manifolds (thc__contacts, its kept points in locals) against the plain loops they
// replaced, copied here: the same face, the same separation, the same contacts, depths and normal, to the
// last bit, for random polygon pairs (3 to 8 vertices, pixel scale and around +-1e5) and random clips.
static int plain_faces(const thc__lanes *f, int nf, const thc__lanes *v, int nv, float *best)
{
    float s[THC__L], off[THC__L];
    for (int i = 0; i < THC__L; i++) {
        s[i] = FLT_MAX;
        off[i] = f->nx[i] * f->x[i] + f->ny[i] * f->y[i];
    }
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < THC__L; i++) {
            float e = f->nx[i] * v->x[j] + f->ny[i] * v->y[j];
            s[i] = e < s[i] ? e : s[i];
        }
    for (int i = 0; i < THC__L; i++) s[i] -= off[i];
    int k = 0;
    float top = s[0];
    for (int i = 1; i < nf; i++) {
        k = s[i] > top ? i : k;
        top = s[i] > top ? s[i] : top;
    }
    *best = top;
    return k;
}

static void plain_contacts(thc_v2 v1, thc_v2 v2, thc_v2 nd, thc_v2 pd, thc_v2 *w, int nw, thc_v2 deep,
                           float rr, float ri, thc_v2 out_n, thc_v2 o, thc_manifold *m)
{
    float r = rr + ri;
    thc_v2 t = thc__sub(v2, v1);
    if (nw == 2) nw = thc__clip(&w[0], &w[1], t, thc__dot(t, v1)) && thc__clip(&w[0], &w[1], thc__neg(t), -thc__dot(t, v2)) ? 2 : 0;
    m->count = 0;
    for (int i = 0; i < nw; i++) {
        float s = thc__dot(nd, thc__sub(w[i], pd));
        if (s > r) continue;
        m->depths[m->count] = r - s;
        m->contact_points[m->count] = thc__sub(w[i], thc__scale(nd, 0.5f * (ri + s - rr)));
        m->count++;
    }
    if (m->count == 2 && thc__dot(thc__sub(m->contact_points[0], m->contact_points[1]),
                                  thc__sub(m->contact_points[0], m->contact_points[1])) <= 1e-12f) m->count = 1;
    float sdeep = thc__dot(nd, thc__sub(deep, pd)), ddeep = r - sdeep, dmax = -FLT_MAX;
    for (int i = 0; i < m->count; i++) dmax = thc__maxf(dmax, m->depths[i]);
    if (m->count == 0) {
        float tt = thc__dot(t, t), u = tt > 0 ? thc__clamp(thc__dot(thc__sub(deep, v1), t) / tt, 0, 1) : 0;
        thc_v2 on = thc__add(thc__add(v1, thc__scale(t, u)), thc__scale(nd, thc__dot(nd, thc__sub(deep, v1))));
        m->count = 1;
        m->depths[0] = ddeep > 0 ? ddeep : 0;
        m->contact_points[0] = thc__sub(on, thc__scale(nd, 0.5f * (ri + sdeep - rr)));
    } else if (dmax < ddeep) {
        int k = m->count == 2 && m->depths[1] > m->depths[0] ? 1 : 0;
        m->depths[k] = ddeep;
    }
    for (int i = 0; i < m->count; i++) m->contact_points[i] = thc__add(m->contact_points[i], o);
    m->n = out_n;
}

static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void test_lane_steps_match_plain_loops(void)
{
    int bad_faces = 0, bad_clip = 0, pairs = 0, two = 0, n = COUNT(20000);
    Rng r(9411);
    for (int i = 0; i < n; i++) {
        double size = i % 3 == 0 ? 1.5 : 10, far = i % 7 == 0 ? (i % 2 ? 1e5 : -1e5) : 0;
        Shape A = random_shape(r, THC_POLY, far + r.range(-1, 1), far + r.range(-1, 1), size);
        Shape B = random_shape(r, THC_POLY, A.xf.p.x + r.range(-1.5 * size, 1.5 * size), A.xf.p.y + r.range(-1.5 * size, 1.5 * size), size);
        int na = A.p.count < THC__L ? A.p.count : THC__L, nb = B.p.count < THC__L ? B.p.count : THC__L;
        thc__lanes la, lb, mb;
        if (na < 3 || nb < 3 || !thc__pp_load(&A.p, na, &la) || !thc__pp_load(&B.p, nb, &lb)) continue;
        thc__pp_move(&lb, &A.xf, &B.xf, &mb);
        pairs++;
        float s1, s2;
        int f1 = thc__pp_faces(&la, na, &mb, nb, &s1), f2 = plain_faces(&la, na, &mb, nb, &s2);
        if (f1 != f2 || !same_bits(s1, s2)) bad_faces++;
        f1 = thc__pp_faces(&mb, nb, &la, na, &s1);
        f2 = plain_faces(&mb, nb, &la, na, &s2);
        if (f1 != f2 || !same_bits(s1, s2)) bad_faces++;
    }
    for (int i = 0; i < n; i++) {
        float size = i % 3 == 0 ? 1.5f : 10, far = i % 7 == 0 ? (i % 2 ? 1e5f : -1e5f) : 0;
        thc_v2 v1 = V(far + (float)r.range(-size, size), far + (float)r.range(-size, size));
        float ang = (float)r.range(0, 6.2831853), len = (float)r.range(0.1, 2) * size;
        thc_v2 v2 = V(v1.x + cosf(ang) * len, v1.y + sinf(ang) * len), nref = V(sinf(ang), -cosf(ang)), nd = nref, pd = v1;
        if (i % 4 == 3) {   // cores apart: another normal and plane
            float b = ang + (float)r.range(-0.5, 0.5);
            nd = V(sinf(b), -cosf(b));
            pd = V(v1.x + (float)r.range(-1, 1), v1.y + (float)r.range(-1, 1));
        }
        thc_v2 w[2], w2[2], deep, o = V(far + (float)r.range(-5, 5), (float)r.range(-5, 5));
        for (int k = 0; k < 2; k++) w[k] = V(v1.x + (float)r.range(-1.5, 1.5) * size, v1.y + (float)r.range(-1.5, 1.5) * size);
        if (i % 5 == 4) w[1] = V(w[0].x + (float)r.range(-1e-7, 1e-7), w[0].y);   // nearly one point
        deep = (r.u32() & 1) ? w[0] : w[1];
        int nw = i % 9 == 8 ? 1 : 2;
        float rr = (float)r.range(0, 0.5) * size, ri = (float)r.range(0, 0.5) * size;
        thc_manifold m1, m2;
        w2[0] = w[0];
        w2[1] = w[1];
        thc__contacts(v1, v2, nd, pd, w, nw, deep, rr, ri, nd, o, &m1);
        plain_contacts(v1, v2, nd, pd, w2, nw, deep, rr, ri, nd, o, &m2);
        bool same = m1.count == m2.count && same_bits(m1.n.x, m2.n.x) && same_bits(m1.n.y, m2.n.y);
        for (int k = 0; same && k < m1.count; k++)
            same = same_bits(m1.depths[k], m2.depths[k]) && same_bits(m1.contact_points[k].x, m2.contact_points[k].x) &&
                   same_bits(m1.contact_points[k].y, m2.contact_points[k].y);
        bad_clip += !same;
        two += m1.count == 2;
    }
    TH_CHECK_MSG(bad_faces == 0, "lane face scan: %d of %d differ from the plain loops", bad_faces, 2 * pairs);
    TH_CHECK_MSG(pairs > n / 2, "lane face scan: only %d of %d pairs loaded", pairs, n);
    TH_CHECK_MSG(bad_clip == 0, "contact clip: %d of %d differ from the plain loop", bad_clip, n);
    TH_CHECK_MSG(two > n / 8, "contact clip: only %d of %d clips kept two points", two, n);
}

// A box and a polygon take thc__box_poly_manifold, the box's lanes filled from its extent: the same manifold,
// to the last bit, as the road it stands in for (the box made a polygon by thc__aabb_poly, then thc__poly_poly),
// both argument orders, for random and touching pairs, a polygon given in world vertices, at pixel scale and
// around +-1e5.
static bool same_manifold(const thc_manifold &a, const thc_manifold &b)
{
    if (a.count != b.count) return false;
    if (!a.count) return true;
    bool same = same_bits(a.n.x, b.n.x) && same_bits(a.n.y, b.n.y);
    for (int k = 0; same && k < a.count; k++)
        same = same_bits(a.depths[k], b.depths[k]) && same_bits(a.contact_points[k].x, b.contact_points[k].x) &&
               same_bits(a.contact_points[k].y, b.contact_points[k].y);
    return same;
}

static void test_box_poly_lanes_match_polygon_road(void)
{
    int bad = 0, touching = 0, n = COUNT(20000);
    Rng r(9412);
    for (int i = 0; i < n; i++) {
        double size = i % 3 == 0 ? 1.5 : 10, far = i % 7 == 0 ? (i % 2 ? 1e5 : -1e5) : 0;
        Shape A = random_shape(r, THC_AABB, far + r.range(-1, 1), far + r.range(-1, 1), size);
        Shape B = random_shape(r, THC_POLY, A.b.min.x + r.range(-1.5 * size, 1.5 * size), A.b.min.y + r.range(-1.5 * size, 1.5 * size), size);
        const thc_transform *bx = B.x();
        thc_poly world;   // every 5th pair: B in world vertices (no transform)
        if (i % 5 == 4) {
            world = B.p;
            for (int k = 0; k < world.count; k++) {
                world.verts[k] = thc_mul_xf(B.xf, B.p.verts[k]);
                world.norms[k] = thc_mul_rot(B.xf, B.p.norms[k]);
            }
            bx = NULL;
        }
        const thc_poly *bp = bx ? &B.p : &world;
        thc_poly box;
        thc_transform boxf;
        thc__aabb_poly(&A.b, &box, &boxf);
        for (int order = 0; order < 2; order++) {
            thc_manifold m1, m2;
            m1.count = m2.count = 0;
            int r2;
            if (order == 0) {
                thc_collide(&A.b, THC_AABB, NULL, bp, THC_POLY, bx, &m1);
                r2 = thc__poly_poly(&box, &boxf, bp, bx, &m2);
            } else {
                thc_collide(bp, THC_POLY, bx, &A.b, THC_AABB, NULL, &m1);
                r2 = thc__poly_poly(bp, bx, &box, &boxf, &m2);
            }
            if (r2 < 0) continue;   // the general road for both
            touching += m2.count > 0;
            if (!same_manifold(m1, m2)) { bad++; report("box-polygon: lanes differ from the polygon road (count lanes, count road)", A, B, m1.count, m2.count); }
        }
    }
    TH_CHECK_MSG(bad == 0, "box-polygon: %d of %d manifolds differ from the polygon road", bad, 2 * n);
    TH_CHECK_MSG(touching > n / 2, "box-polygon: only %d of %d touching", touching, 2 * n);
}

// Capsule-capsule manifolds take a direct segment-segment road: it must agree with the general road on every
// field, and with the oracle on depth and normal, for random pairs, nearly parallel ones (two contacts),
// exactly touching ones, deep ones (crossing cores), at pixel scale and around +-1e5.
static void test_capsule_pair_matches_general(void)
{
    int bad = 0, bad_oracle = 0, two = 0, n = COUNT(8000);
    Rng r(9101);
    for (int i = 0; i < n; i++) {
        int kind = i % 4;
        double size = i % 3 == 0 ? 1.5 : 10, far = (i / 4) % 5 == 0 ? ((i / 20) % 2 ? 1e5 : -1e5) : 0;
        Shape A, B;
        if (kind == 0) {   // random placement
            A = random_shape(r, THC_CAPSULE, far + r.range(-1, 1), far + r.range(-1, 1), size);
            B = random_shape(r, THC_CAPSULE, far + r.range(-2 * size, 2 * size), far + r.range(-2 * size, 2 * size), size);
        } else {
            // nearly parallel (up to ~0.6 degrees), side by side: touching exactly, a little apart or overlapping,
            // or deep (cores crossing near their middles)
            double L = r.range(0.3 * size, 2 * size), ang = r.range(0, 6.2831853), eps = r.range(0, 1e-2) * (r.u32() & 1 ? 1 : -1);
            if (kind == 3) eps = r.range(0.2, 1.4);
            D2 da = d2(cos(ang), sin(ang)), db = d2(cos(ang + eps), sin(ang + eps)), nrm = d2(-da.y, da.x);
            double ra = r.range(0.05, 0.5) * size, rb = r.range(0.05, 0.5) * size;
            double gap = kind == 1 ? 0 : kind == 2 ? r.range(-0.3, 0.05) * (ra + rb) : 0;
            D2 a0 = d2(far + r.range(-1, 1), far + r.range(-1, 1)), a1 = a0 + da * L;
            double along = r.range(-0.8 * L, 0.8 * L), off = (ra + rb + gap) * (r.u32() & 1 ? 1 : -1);
            if (kind == 3) off = r.range(-0.2, 0.2) * L;
            D2 b0 = a0 + da * along + nrm * off, b1 = b0 + db * r.range(0.5 * L, 1.5 * L);
            if (r.u32() & 1) std::swap(b0, b1);
            A = capsule(a0, a1, ra);
            B = capsule(b0, b1, rb);
        }
        bad += both_ways_differ(A, B, size, far, "capsule pair: direct path differs (count fast, count general)");
        bad_oracle += check_rest(A, B, "capsule pair");
        thc_manifold m;
        thc_collide(&A.k, THC_CAPSULE, NULL, &B.k, THC_CAPSULE, NULL, &m);
        two += m.count == 2;
    }
    TH_CHECK_MSG(bad == 0, "capsule pairs: %d of %d differ from the general path", bad, 2 * n);
    TH_CHECK_MSG(bad_oracle == 0, "capsule pairs: %d of %d wrong against the oracle", bad_oracle, n);
    TH_CHECK_MSG(two > n / 8, "capsule pairs: only %d of %d manifolds have two contacts", two, n);
}

// ---------------------------------------------------------------- two circles touching, directly
// thc_distance answers two touching circles without proxies: 0 where the general road (proxies, classify) finds
// them touching, at a point of both, also when the centres (nearly) coincide or one circle holds the other.
static void test_touching_circles_match_general(void)
{
    int bad = 0, touching = 0, n = COUNT(8000);
    Rng r(9300);
    for (int i = 0; i < n; i++) {
        double far = i % 4 == 0 ? 4096 : 0, ra = r.range(0.01, 10), rb = r.range(0.01, 10), ang = r.range(0, 6.283);
        /* centres from coincident to just apart: the gap runs from -(ra + rb) to 1e-3 (ra + rb) */
        double dc = i % 9 == 0 ? r.range(0, 2e-5) : (ra + rb) * (i % 3 ? r.range(0, 1) : 1 + r.range(-1e-5, 1e-3));
        Shape A = circle(d2(far + r.range(-1, 1), far + r.range(-1, 1)), ra);
        Shape B = circle(dv(A.c.p) + d2(cos(ang), sin(ang)) * dc, rb);
        thc_v2 pa, pb;
        float got = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
        thc__proxy xa, xb;
        thc_v2 o, qa, qb, nn;
        thc__pair_proxies(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &xa, &xb, &o);
        thc__sat st;
        double tol = 1e-5 * (ra + rb) + 4e-7 * far;
        if (thc__classify(&xa, &xb, &st)) {   /* the general road: 0, at a point of both */
            touching++;
            double ia = ra - len(dv(pa) - dv(A.c.p)), ib = rb - len(dv(pa) - dv(B.c.p));
            if (got != 0 || ia < -tol || ib < -tol || len(dv(pb) - dv(pa)) != 0) {
                bad++;
                report("touching circles (outside A by, distance)", A, B, -ia, got);
            }
        } else {   /* apart: the closest cores less the radii */
            double want = thc__core_closest(&xa, &xb, &qa, &qb, &nn) - (double)xa.r - xb.r;
            if (fabs(got - want) > tol) { bad++; report("circles apart (general, distance)", A, B, want, got); }
        }
    }
    TH_CHECK_MSG(bad == 0, "touching circles: %d of %d differ from the general road", bad, n);
    TH_CHECK_MSG(touching > n / 2, "touching circles: only %d of %d touch", touching, n);
}

// ---------------------------------------------------------------- a capsule against a polygon or a box, directly
// The direct road against the general one, both ways, as direct_differs does, except where either answer is
// right: contacts no deeper than tol (touching, where rounding keeps or drops a point at depth 0) are left out
// of the comparison, and two normals may differ when their depths tie within tol (a capsule inside a nearly
// symmetric polygon; the oracle checks the direct road's depth and normal).
static int capsule_poly_differs(const Shape &A, const Shape &B, double size, double far, const char *what)
{
    double tol = 1e-4 * size + 4e-7 * fabs(far);
    int bad = 0;
    for (int way = 0; way < 2; way++) {
        const Shape &P = way ? B : A, &Q = way ? A : B;
        thc_manifold fast, slow = general_manifold(P, Q);
        thc_collide(P.ptr(), P.type, P.x(), Q.ptr(), Q.type, Q.x(), &fast);
        D2 pf[2], pg[2];
        double df[2], dg[2], mf = 0, mg = 0;
        int nf = 0, ng = 0;
        /* a point near depth tol may fall either side of it by rounding: then leave out the points up to 2 tol */
        for (int cut = 1; cut <= 2 && (cut == 1 || nf != ng); cut++) {
            nf = ng = 0; mf = mg = 0;
            for (int k = 0; k < fast.count; k++) if (fast.depths[k] > cut * tol) { pf[nf] = dv(fast.contact_points[k]); mf = std::max(mf, df[nf++] = fast.depths[k]); }
            for (int k = 0; k < slow.count; k++) if (slow.depths[k] > cut * tol) { pg[ng] = dv(slow.contact_points[k]); mg = std::max(mg, dg[ng++] = slow.depths[k]); }
        }
        bool same = nf == ng;
        if (same && nf && len(dv(fast.n) - dv(slow.n)) > 1e-4) same = fabs(mf - mg) <= tol;   /* a tie, else wrong */
        else for (int k = 0; same && k < nf; k++) same = fabs(df[k] - dg[k]) <= tol && len(pf[k] - pg[k]) <= tol;
        if (!same) { bad++; report(what, P, Q, fast.count, slow.count); }
    }
    return bad;
}

// thc_collide answers a capsule against a polygon (or a box, a polygon at its min corner) in the polygon's own
// frame; the general proxy road must give the same manifold, and both the oracle's depth and normal. Cases:
// random placement, a capsule lying nearly parallel to a face (touching exactly, a little apart or overlapping),
// deep (through the middle), a small capsule inside the polygon; at pixel scale, at 10 units and at +-1e5.
static void test_capsule_poly_matches_general(void)
{
    int bad = 0, bad_oracle = 0, two = 0, direct = 0, n = COUNT(6000);
    Rng r(9400);
    for (int i = 0; i < n; i++) {
        int kind = i % 5;
        double size = i % 3 == 0 ? r.range(0.3, 3) : 10, far = (i / 5) % 5 == 0 ? ((i / 25) % 2 ? 1e5 : -1e5) : 0;
        thc_type pt = (i / 2) % 3 == 0 ? THC_AABB : THC_POLY;
        Shape P = random_shape(r, pt, far + r.range(-1, 1), far + r.range(-1, 1), size), K;
        D2 core[THC_MAX_POLY_VERTS], mid = d2(0, 0);
        double pr;
        int nc = shape_core(P, core, &pr);
        for (int j = 0; j < nc; j++) mid = mid + core[j] * (1.0 / nc);
        double rk = r.range(0.05, 0.5) * size;
        if (kind == 0) {   // random placement
            K = random_shape(r, THC_CAPSULE, far + r.range(-2 * size, 2 * size), far + r.range(-2 * size, 2 * size), size);
        } else if (kind <= 2) {   // nearly parallel to a face (up to ~0.6 degrees): touching exactly, or a little apart or in
            int f = (int)(r.u32() % nc);
            D2 v0 = core[f], v1 = core[(f + 1) % nc], e = v1 - v0, t = e * (1.0 / len(e)), nrm = d2(t.y, -t.x);
            double eps = r.range(0, 1e-2) * (r.u32() & 1 ? 1 : -1), L = r.range(0.3, 1.5) * len(e);
            D2 dk = d2(t.x * cos(eps) - t.y * sin(eps), t.x * sin(eps) + t.y * cos(eps));
            double gap = kind == 1 ? 0 : r.range(-0.3, 0.05) * rk;
            D2 c0 = v0 + e * r.range(-0.3, 1.0) + nrm * (rk + gap);
            D2 c1 = c0 + dk * L;
            if (r.u32() & 1) std::swap(c0, c1);
            K = capsule(c0, c1, rk);
        } else if (kind == 3) {   // deep: through the middle at any angle
            double a = r.range(0, 6.2831853), l = r.range(0.2, 1.5) * size;
            D2 c = mid + d2(r.range(-0.2, 0.2), r.range(-0.2, 0.2)) * size, d = d2(cos(a), sin(a)) * l;
            K = capsule(c - d, c + d, rk);
        } else {   // small, inside the polygon (or nearly)
            double a = r.range(0, 6.2831853), l = r.range(0.01, 0.15) * size;
            D2 d = d2(cos(a), sin(a)) * l;
            K = capsule(mid - d, mid + d, r.range(0.01, 0.1) * size);
        }
        bad += capsule_poly_differs(K, P, size, far, "capsule-polygon: direct path differs (count fast, count general)");
        bad_oracle += check_rest(K, P, "capsule-polygon") + check_rest(P, K, "polygon-capsule");
        thc_manifold m;
        thc_collide(K.ptr(), K.type, K.x(), P.ptr(), P.type, P.x(), &m);
        two += m.count == 2;
        if (pt == THC_POLY) {   // the direct road answers (else the comparison above would only test the general one)
            thc_manifold d;
            direct += thc__capsule_poly_manifold(&K.k, &P.p, &P.xf, 1, &d, 1) && d.count == m.count;
        }
    }
    TH_CHECK_MSG(bad == 0, "capsule-polygon: %d of %d differ from the general path", bad, 2 * n);
    TH_CHECK_MSG(bad_oracle == 0, "capsule-polygon: %d of %d wrong against the oracle", bad_oracle, 2 * n);
    TH_CHECK_MSG(two > n / 8, "capsule-polygon: only %d of %d manifolds have two contacts", two, n);
    TH_CHECK_MSG(direct > n / 2, "capsule-polygon: the direct road answered only %d of %d", direct, n);
}

// ---------------------------------------------------------------- distance by the direct roads
// thc_distance answers two boxes, two capsules, a circle or a capsule and a polygon, or a box and a capsule apart
// without proxies; the general road (proxies, closest core features) must give the same distance, and the direct
// points must lie on the two surfaces that far apart.
static void test_direct_distance_matches_general(void)
{
    int bad = 0, total = 0, n = COUNT(10000);
    Rng r(9200);
    for (int i = 0; i < n; i++) {
        double size = i % 3 == 0 ? 1.5 : 10, far = i % 5 == 0 ? 4096 : 0;
        int kind = i % 5;   /* box-box, capsule-capsule; circle-polygon, box-capsule, capsule-polygon (either way round) */
        const thc_type ka[5] = { THC_AABB, THC_CAPSULE, THC_CIRCLE, THC_AABB, THC_CAPSULE }, kb[5] = { THC_AABB, THC_CAPSULE, THC_POLY, THC_CAPSULE, THC_POLY };
        thc_type t = ka[kind], u = kb[kind];
        if (kind >= 2 && i % 2) std::swap(t, u);
        Shape A = random_shape(r, t, far + r.range(-1, 1), far + r.range(-1, 1), size);
        Shape B = random_shape(r, u, far + r.range(-3 * size, 3 * size), far + r.range(-3 * size, 3 * size), size);
        if (i % 7 == 0) B = random_shape(r, u, far + r.range(-1, 1) + 2.2 * size, far + r.range(-0.2, 0.2), size);   /* side by side */
        if (kind == 4 && (i / 5) % 3 == 0) {   /* a thin capsule right through the polygon, its ends outside */
            Shape &P = A.type == THC_POLY ? A : B, &K = A.type == THC_POLY ? B : A;
            D2 dir = d2(cos(i * 0.7), sin(i * 0.7));
            K = capsule(dv(P.xf.p) - dir * (3 * size), dv(P.xf.p) + dir * (3 * size), 0.01 * size);
        }
        if (kind == 3 && (i / 5) % 3 == 0) {   /* a thin capsule right through the box, its ends outside */
            Shape &X = A.type == THC_AABB ? A : B, &K = A.type == THC_AABB ? B : A;
            D2 c = (dv(X.b.min) + dv(X.b.max)) * 0.5, dir = d2(cos(i * 0.7), sin(i * 0.7));
            double L = len(dv(X.b.max) - dv(X.b.min));
            K = capsule(c - dir * L, c + dir * L, 0.01 * size);
        }
        if (kind == 2 && (i / 5) % 3 == 0) {   /* a small circle deep inside the polygon */
            Shape &P = A.type == THC_POLY ? A : B, &C = A.type == THC_POLY ? B : A;
            C = circle(dv(P.xf.p), 0.01 * size);
        }
        thc_v2 pa, pb;
        float got = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
        thc__proxy xa, xb, pt;
        thc_v2 o, qa, qb, nn;
        thc__pair_proxies(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &xa, &xb, &o);
        double want = thc__core_closest(&xa, &xb, &qa, &qb, &nn) - (double)xa.r - xb.r;
        if (oracle_depth(minkowski(A, B)) > 2e-5 * (size + far)) {   /* overlapping (a centre inside too): 0 at a point of both */
            double tol = 2e-5 * (size + far);
            if (got != 0 || pa.x != pb.x || pa.y != pb.y || surface_gap(A, pa) < -tol || surface_gap(B, pa) < -tol) {
                bad++;
                report("direct distance of overlapping shapes (depth, distance)", A, B, oracle_depth(minkowski(A, B)), got);
            }
            continue;
        }
        if (want <= 1e-3 * size) continue;   /* touching or nearly: the general road answers both */
        total++;
        pt.count = 1; pt.r = 0;
        pt.v[0] = thc__sub(pa, o);
        double on_a = thc__core_closest(&pt, &xa, &qa, &qb, &nn) - xa.r;
        pt.v[0] = thc__sub(pb, o);
        double on_b = thc__core_closest(&pt, &xb, &qa, &qb, &nn) - xb.r;
        double tol = 2e-5 * (size + far);
        if (fabs(got - want) > tol || fabs(on_a) > tol || fabs(on_b) > tol || fabs(len(dv(pb) - dv(pa)) - want) > tol) {
            bad++;
            report("direct distance differs (general, direct)", A, B, want, got);
        }
    }
    TH_CHECK_MSG(bad == 0, "direct distance (box-box, capsule-capsule, circle-polygon, box-capsule, capsule-polygon): %d of %d differ from the general road", bad, total);
    TH_CHECK_MSG(total > n / 2, "direct box/capsule distance: only %d apart", total);
}

// ---------------------------------------------------------------- distance by the separating axis (lanes)
// thc_distance answers two polygons, a box and a polygon, and a capsule and a polygon by the greatest face
// separation and its witness vertex (vertex-face), else the proven vertex pair or a face next to it, GJK and
// the brute force only as a fallback. Checked against the exact double oracle: the road itself (when it
// answers, and it must answer nearly always) and thc_distance: the distance, the points on both surfaces that
// far apart, the normal (the oracle's closest-feature direction, or one whose exact separation reaches the
// distance, as at a vertex-face near-tie), and for touching shapes 0 exactly where thc_collide says they touch,
// at a point both shapes hold (box-capsule, capsule-capsule and circle-polygon pairs too). Random placements, parallel faces (tied witnesses), corners nearly past a face's end
// (vertex-face against vertex-vertex near-ties), pixel scale and around +-1e5.
static Shape road_shape(Rng &r, thc_type t, D2 c, double size, double ang)
{
    if (t == THC_POLY && r.u32() % 3 == 0) return obb(c, r.range(0.3 * size, size), r.range(0.3 * size, size), ang);
    Shape s = random_shape(r, t, c.x, c.y, size);
    if (t == THC_POLY) s.xf = thc_make_transform(V((float)c.x, (float)c.y), (float)ang);
    return s;
}

// The road's own answer with its normal (from A toward B, world): the lanes built as thc_distance builds them.
static float road_answer(const Shape &A, const Shape &B, thc_v2 *pa, thc_v2 *pb, thc_v2 *n)
{
    *n = V(0, 0);
    thc__pp q;
    thc__lanes bl;
    thc_v2 qa, qb, ln;
    float d = -1;
    if (A.type == THC_CAPSULE || B.type == THC_CAPSULE) {
        /* the road's answer (distance, points), and its normal from thc__capsule_poly_lanes's own steps (points
           far from the origin are too coarse to give it) */
        bool ka = A.type == THC_CAPSULE;
        const Shape &K = ka ? A : B, &P = ka ? B : A;
        thc_v2 pk, pp;
        float rd = thc__capsule_poly_lanes(&K.k, &P.p, &P.xf, &pk, &pp);
        if (rd < 0) return rd;
        *pa = ka ? pk : pp;
        *pb = ka ? pp : pk;
        q.na = P.p.count;
        q.nb = 2;
        thc__pp_load(&P.p, q.na, &q.a);
        thc_v2 s0 = thc__unplace(&P.xf, K.k.a), s1 = thc__unplace(&P.xf, K.k.b), e = thc__sub(s1, s0);
        float l = thc__len(e);
        memset(&q.b, 0, sizeof q.b);
        q.b.x[0] = s0.x; q.b.y[0] = s0.y; q.b.x[1] = s1.x; q.b.y[1] = s1.y;
        q.b.nx[0] = e.y * (1.0f / l); q.b.ny[0] = -e.x * (1.0f / l); q.b.nx[1] = -q.b.nx[0]; q.b.ny[1] = -q.b.ny[0];
        q.fa = thc__pp_faces(&q.a, q.na, &q.b, 2, &q.sa);
        q.fb = thc__pp_faces(&q.b, 2, &q.a, q.na, &q.sb);
        if (q.sa > 0) d = thc__pp_closest(&q, 0, &qa, &qb, &ln);
        if (d < 0 && q.sb > 0) d = thc__pp_closest(&q, 1, &qa, &qb, &ln);
        if (d >= 0) *n = thc_mul_rot(P.xf, ka ? thc__neg(ln) : ln);
        return rd;
    }
    /* two polygons, or a box (at its min corner) and a polygon: thc__pp_distance's steps, keeping the normal */
    thc_transform fa = A.xf, fb = B.xf;
    q.na = A.type == THC_AABB ? 4 : A.p.count;
    q.nb = B.type == THC_AABB ? 4 : B.p.count;
    if (A.type == THC_AABB) { fa = thc_make_transform(A.b.min, 0); if (!thc__pp_box(thc__sub(A.b.max, A.b.min), &q.a)) return -1; }
    else if (!thc__pp_load(&A.p, q.na, &q.a)) return -1;
    if (B.type == THC_AABB) { fb = thc_make_transform(B.b.min, 0); if (!thc__pp_box(thc__sub(B.b.max, B.b.min), &bl)) return -1; }
    else if (!thc__pp_load(&B.p, q.nb, &bl)) return -1;
    thc__pp_move(&bl, &fa, &fb, &q.b);
    q.fa = thc__pp_faces(&q.a, q.na, &q.b, q.nb, &q.sa);
    q.fb = thc__pp_faces(&q.b, q.nb, &q.a, q.na, &q.sb);
    if (q.sa > 0) d = thc__pp_closest(&q, 0, &qa, &qb, &ln);
    if (d < 0 && q.sb > 0) d = thc__pp_closest(&q, 1, &qa, &qb, &ln);
    if (d < 0) return d;
    *pa = thc_mul_xf(fa, qa);
    *pb = thc_mul_xf(fa, qb);
    *n = thc_mul_rot(fa, ln);
    return d;
}


static void test_sat_distance_road_exact(void)
{
    const thc_type TA[6] = { THC_POLY, THC_POLY, THC_POLY, THC_AABB, THC_CAPSULE, THC_CIRCLE };
    const thc_type TB[6] = { THC_POLY, THC_AABB, THC_CAPSULE, THC_CAPSULE, THC_CAPSULE, THC_POLY };
    int bad = 0, bad_touch = 0, apart = 0, lane_apart = 0, answered = 0, faces = 0, corners = 0, touching = 0, n = COUNT(24000);
    Rng r(9400);
    for (int i = 0; i < n; i++) {
        /* kinds 3-5 (box-capsule, capsule-capsule, circle-polygon): only their touching pairs take a new road */
        int kind = i % 6, place = (i / 12) % 4;
        double size = i % 5 == 0 ? 0.05 : i % 5 == 1 ? 1.5 : 10, far = (i / 6) % 7 == 0 ? ((i / 42) % 2 ? 1e5 : -1e5) : (i / 6) % 7 == 1 ? 4096 : 0;
        thc_type ta = TA[kind], tb = TB[kind];
        if ((i / 6) % 2) std::swap(ta, tb);
        double angA = r.range(-3.14159, 3.14159), angB = place == 1 ? angA : r.range(-3.14159, 3.14159);
        D2 ca = d2(far + r.range(-1, 1), far + r.range(-1, 1)), cb = ca + d2(r.range(-3 * size, 3 * size), r.range(-3 * size, 3 * size));
        if (place == 1 || place == 2) {   /* side by side along a turned axis: faces parallel (1) or a corner near a face's end (2) */
            double gap = size * (r.u32() % 2 ? r.range(1e-4, 1e-2) : r.range(0.05, 1)), lat = size * r.range(-1.2, 1.2);
            D2 ax = d2(cos(angA), sin(angA)), ay = d2(-sin(angA), cos(angA));
            cb = ca + ax * (2 * size + gap) + ay * lat;
        }
        Shape A = road_shape(r, ta, ca, size, angA), B = road_shape(r, tb, cb, size, angB);
        if (place == 3 && A.type == THC_POLY && B.type == THC_POLY) {
            /* B's vertex just past or just short of A's corner, off the face by a small gap: a vertex-face /
               vertex-vertex near-tie */
            D2 a0 = dv(thc_mul_xf(A.xf, A.p.verts[0])), a1 = dv(thc_mul_xf(A.xf, A.p.verts[1])), e = a1 - a0;
            D2 nn = dv(thc_mul_rot(A.xf, A.p.norms[0]));
            D2 want = a1 + nn * (size * r.range(1e-3, 0.2)) + e * (r.range(-1e-5, 1e-5));
            int k = (int)(r.u32() % (unsigned)B.p.count);
            D2 bk = dv(thc_mul_xf(B.xf, B.p.verts[k])), move = want - bk;
            B.xf.p = V((float)(B.xf.p.x + move.x), (float)(B.xf.p.y + move.y));
        }
        Mink m = minkowski(A, B);
        double depth = oracle_depth(m), tol = 2e-5 * (size + fabs(far));
        thc_manifold mf;
        thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &mf);
        thc_v2 pa, pb;
        float got = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
        if (mf.count) {   /* touching: 0 at a point both hold */
            touching++;
            if (got != 0 || pb.x != pa.x || pb.y != pa.y || surface_gap(A, pa) < -tol || surface_gap(B, pa) < -tol) {
                bad_touch++;
                report("lane distance of touching shapes (depth, distance)", A, B, depth, got);
            }
            continue;
        }
        if (!(got >= 0)) { bad++; report("lane distance of shapes apart is negative (depth, distance)", A, B, depth, got); continue; }
        if (-depth <= 1e-3 * size) continue;   /* nearly touching: another road may answer */
        apart++;
        double want = -depth;
        D2 on;
        sdist(m, d2(0, 0), &on);   /* from Q = A - B toward the origin: from A toward B */
        /* thc_distance */
        if (fabs(got - want) > tol || fabs(surface_gap(A, pa)) > tol || fabs(surface_gap(B, pb)) > tol || fabs(len(dv(pb) - dv(pa)) - want) > tol) {
            bad++;
            report("lane distance differs from the oracle (oracle, thc_distance)", A, B, want, got);
            continue;
        }
        /* the road itself, with its normal */
        if (kind >= 3) continue;
        lane_apart++;
        thc_v2 ra, rb, rn;
        float rd = road_answer(A, B, &ra, &rb, &rn);
        if (rd < 0) continue;
        answered++;
        bool ok = fabs(rd - want) <= tol && fabs(surface_gap(A, ra)) <= tol && fabs(surface_gap(B, rb)) <= tol && fabs(len(dv(rb) - dv(ra)) - want) <= tol;
        if (ok && len(dv(rn) - on) > 1e-4) {
            /* another normal is right only if the exact separation along it (-h_Q(n) - r) reaches the distance */
            D2 nd = dv(rn);
            ok = fabs(len(nd) - 1) < 1e-5 && -support(m, nd) >= want - tol;
        }
        if (!ok) { bad++; report("lane road differs from the oracle (oracle, road)", A, B, want, rd); }
        if (place == 1) faces++;
        if (place == 3) corners++;
    }
    TH_CHECK_MSG(bad == 0, "separating-axis distance: %d of %d wrong against the oracle", bad, apart);
    TH_CHECK_MSG(bad_touch == 0, "separating-axis distance: %d touching pairs not at 0 at a point of both", bad_touch);
    TH_CHECK_MSG(apart > n / 2, "separating-axis distance: only %d of %d apart", apart, n);
    TH_CHECK_MSG(answered > lane_apart * 95 / 100, "separating-axis distance: the road answered only %d of %d (the rest fell back)", answered, lane_apart);
    TH_CHECK_MSG(touching > n / 10, "separating-axis distance: only %d of %d touching", touching, n);
    TH_CHECK_MSG(faces > n / 20 && corners > n / 40, "separating-axis distance: only %d parallel-face and %d corner cases", faces, corners);
}

// ---------------------------------------------------------------- exact sweeps in thc_toi: two boxes, a circle against anything
// Two AABBs sweep exactly (slabs), and a circle is cast as a ray against the other shape grown by its radius,
// instead of conservative advancement; the general road must agree on hit and on the gap where they stop (both
// within the tolerance of the touch), two boxes on the normal too. Where they disagree on hit, the exact oracle
// decides: the general road also counts passes within the tolerance as hits, the sweeps only touches. The
// oracle also checks every sweep's time, point and normal.
static int sweep_differs(const Shape &A, thc_v2 va, const Shape &B, thc_v2 vb, double size, double far, int *hits)
{
    thc_toi_result f = thc_toi(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb);
    thc_toi_result g;
    thc__toi_general(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb, &g);
    D2 v = dv(va) - dv(vb), nrm;
    Mink m = minkowski(A, B);
    double speed = len(v), eps = 4e-5 * (size + far) + 4e-6 * speed, exact = ray_rounded(m, d2(0, 0), v * -1.0, &nrm);
    if (exact == 0 || speed < 1e-3) return 0;   /* touching at the start: the general road answers both */
    *hits += f.hit;
    bool same = f.hit == g.hit;
    if (!same) {
        same = !f.hit && !(exact > 0 && exact < 1 - eps / speed);   /* the general road's near miss */
        if (!same) report("sweep hit differs (hit general, hit sweep)", A, B, g.hit, f.hit);
    } else if (f.hit) {
        /* a grazing mover covers more than the tolerance in that time: compare the gaps, not the times */
        same = sdist(m, v * -(double)f.t, &nrm) <= sdist(m, v * -(double)g.t, &nrm) + THC_TOLERANCE;
        /* near a corner the general road may stop at two corners, with the direction between them */
        if (same && A.type == THC_AABB && len(dv(f.n) - dv(g.n)) > 1e-6) same = fabs(g.n.x) > 1e-6 && fabs(g.n.y) > 1e-6;
        if (!same) report("sweep differs from the general road (t general, t sweep)", A, B, g.t, f.t);
    }
    return !same;
}

static void test_exact_sweeps_match_general(void)
{
    const thc_type pairs[9][2] = { { THC_AABB, THC_AABB }, { THC_CIRCLE, THC_CIRCLE }, { THC_CIRCLE, THC_AABB }, { THC_CIRCLE, THC_CAPSULE },
                                   { THC_CIRCLE, THC_POLY }, { THC_AABB, THC_CIRCLE }, { THC_CAPSULE, THC_CIRCLE }, { THC_POLY, THC_CIRCLE }, { THC_AABB, THC_AABB } };
    for (int pi = 0; pi < 9; pi++) {
        int bad = 0, hits = 0, n = COUNT(2000);
        TOICheck c = { 0, 0, 0, 0 };
        Rng r(9300 + pi);
        for (int i = 0; i < n; i++) {
            double size = i % 3 == 0 ? 1.5 : 10, far = i % 5 == 0 ? 4096 : 0;
            if (pi == 8) size = r.range(0.3, 3);   /* pixel scale */
            Shape A = random_shape(r, pairs[pi][0], far + r.range(-50, 50), far + r.range(-50, 50), size);
            Shape B = random_shape(r, pairs[pi][1], far + r.range(-5, 5), far + r.range(-5, 5), size);
            thc_v2 vb = i % 3 ? V(r.range(-30, 30), r.range(-30, 30)) : V(0, 0);
            D2 aim = dv(thc_shape_aabb(B.ptr(), B.type, B.x()).min) - dv(thc_shape_aabb(A.ptr(), A.type, A.x()).min);
            double k = r.range(0.8, 2.5);
            double spread = pi == 8 ? 3 : 15;
            thc_v2 va = V((float)(aim.x * k + r.range(-spread, spread)) + vb.x, (float)(aim.y * k + r.range(-spread, spread)) + vb.y);
            if (i % 4 == 0) va = V(i % 8 ? va.x : vb.x, i % 8 ? vb.y : va.y);   /* along one axis only */
            bad += sweep_differs(A, va, B, vb, size, far, &hits);
            check_toi(A, va, B, vb, &c, true, true);
        }
        const char *na = type_name(pairs[pi][0]), *nb = type_name(pairs[pi][1]);
        TH_CHECK_MSG(bad == 0, "%s-%s sweep: %d of %d differ from the general road", na, nb, bad, n);
        TH_CHECK_MSG(c.bad_t + c.bad_point + c.bad_normal == 0, "%s-%s sweep against the oracle: %d wrong t, %d points, %d normals", na, nb, c.bad_t, c.bad_point, c.bad_normal);
        TH_CHECK_MSG(hits > n / 4, "%s-%s sweep: only %d of %d hit", na, nb, hits, n);
    }
}

// ---------------------------------------------------------------- TOI's touch taken from the last step's proven pair
// thc_toi's general road ends on the vertex-edge pair its last step proved closest, moved to the new time, when
// that pair still projects inside the edge and meets the separation along its normal there, instead of running
// GJK (or the brute force) once more to confirm the touch. The reference runs the closest features at every
// step (thc__toi_advance with settle 0). They must agree on hit, time and normal; the point may differ only
// where two parallel edges tie (then both points lie on both shapes at the touch, which the oracle checks).
static void test_toi_settled_touch_matches_stepping(void)
{
    const thc_type pairs[7][2] = { { THC_POLY, THC_POLY }, { THC_AABB, THC_POLY }, { THC_POLY, THC_AABB }, { THC_CAPSULE, THC_POLY },
                                   { THC_POLY, THC_CAPSULE }, { THC_AABB, THC_CAPSULE }, { THC_CAPSULE, THC_CAPSULE } };
    for (int pi = 0; pi < 7; pi++) {
        int bad = 0, hits = 0, moved_point = 0, n = COUNT(3000);
        TOICheck c = { 0, 0, 0, 0 };
        Rng r(9700 + pi);
        for (int i = 0; i < n; i++) {
            double size = i % 3 == 0 ? 1.5 : i % 3 == 1 ? 10 : r.range(0.3, 3), far = i % 5 == 0 ? 4096 : 0;
            Shape A = random_shape(r, pairs[pi][0], far + r.range(-50, 50), far + r.range(-50, 50), size);
            Shape B = random_shape(r, pairs[pi][1], far + r.range(-5, 5), far + r.range(-5, 5), size);
            thc_v2 vb = i % 3 ? V(r.range(-30, 30), r.range(-30, 30)) : V(0, 0);
            D2 aim = dv(thc_shape_aabb(B.ptr(), B.type, B.x()).min) - dv(thc_shape_aabb(A.ptr(), A.type, A.x()).min);
            double k = r.range(0.8, 2.5);
            thc_v2 va = V((float)(aim.x * k + r.range(-15, 15)) + vb.x, (float)(aim.y * k + r.range(-15, 15)) + vb.y);
            if (i % 4 == 0) va = V(i % 8 ? va.x : vb.x, i % 8 ? vb.y : va.y);   /* along one axis only */
            thc_toi_result f, g;
            thc__toi_general(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb, &f);
            thc__toi_advance(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb, &g, 0);
            hits += f.hit;
            bool same = f.hit == g.hit && (!f.hit || (f.t == g.t && len(dv(f.n) - dv(g.n)) <= 1e-6));
            if (!same) { bad++; report("settled touch differs from stepping (t stepping, t settled)", A, B, g.hit ? g.t : -1, f.hit ? f.t : -1); }
            if (same && f.hit && len(dv(f.p) - dv(g.p)) > 1e-4 * (1 + far)) moved_point++;
            check_toi(A, va, B, vb, &c, true, true);
        }
        const char *na = type_name(pairs[pi][0]), *nb = type_name(pairs[pi][1]);
        TH_CHECK_MSG(bad == 0, "%s-%s toi: %d of %d settled touches differ from stepping", na, nb, bad, n);
        TH_CHECK_MSG(moved_point <= n / 50, "%s-%s toi: %d of %d touch points differ from stepping", na, nb, moved_point, n);
        TH_CHECK_MSG(c.bad_t + c.bad_point + c.bad_normal == 0, "%s-%s toi against the oracle: %d wrong t, %d points, %d normals", na, nb, c.bad_t, c.bad_point, c.bad_normal);
        TH_CHECK_MSG(hits > n / 4, "%s-%s toi: only %d of %d hit", na, nb, hits, n);
    }
}


// ---------------------------------------------------------------- the Minkowski sweep of polygons, boxes and capsules
// thc_toi sweeps two shapes of polygons, boxes and capsules (not two boxes) exactly: the ray v t clipped by the
// faces of B - A pushed out by the radii, with the rounded corners' circles past a face's end (thc__toi_sweep).
// Each sweep here is built on the exact difference: a touch point X on its rounded boundary (inside a face, at
// a face's end, on a corner's circle) and a direction into it (grazing a face at 0.05-3 degrees, grazing a
// corner, or anywhere inward), A moved so the relative motion reaches X at about t = 0.6; B moves in two of
// three, shapes sit near the origin, at 4096 or at +-100000, at pixel or screen scale. The sweep must answer
// nearly all of them itself, agree with the oracle on t (the gap where it stops), the point and the normal,
// and with conservative advancement on hit and gap. Shapes overlapping at the start keep advancement's answer.
static void test_minkowski_sweep(void)
{
    const thc_type pairs[8][2] = { { THC_POLY, THC_POLY }, { THC_AABB, THC_POLY }, { THC_POLY, THC_AABB }, { THC_CAPSULE, THC_POLY },
                                   { THC_POLY, THC_CAPSULE }, { THC_CAPSULE, THC_CAPSULE }, { THC_AABB, THC_CAPSULE }, { THC_CAPSULE, THC_AABB } };
    for (int pi = 0; pi < 8; pi++) {
        int n = COUNT(3000), answered = 0, sweeps = 0, bad = 0, hits = 0, corners = 0, short_bad = 0;
        TOICheck c = { 0, 0, 0, 0 };
        Rng r(9900 + pi);
        for (int i = 0; i < n; i++) {
            double size = i % 3 == 0 ? r.range(0.3, 3) : 10, far = i % 7 == 0 ? (i % 2 ? 100000 : -100000) : i % 5 == 0 ? 4096 : 0;
            Shape A = random_shape(r, pairs[pi][0], far + r.range(-20, 20), far + r.range(-20, 20), size);
            Shape B = random_shape(r, pairs[pi][1], far + r.range(-5, 5), far + r.range(-5, 5), size);
            Mink m = minkowski(A, B);   // A - B: the ray -v t from the origin
            if (m.n < 2) continue;
            int edges = m.n, f = (int)(r.u32() % (uint32_t)edges), kind = (int)(r.u32() % 4);
            D2 a0 = m.v[f], e = m.v[(f + 1) % m.n] - a0, prev = a0 - m.v[(f + m.n - 1) % m.n];
            D2 fn = d2(e.y, -e.x) * (1 / len(e)), pn = d2(prev.y, -prev.x) * (1 / len(prev)), ed = e * (1 / len(e));
            D2 x, nx, tan;
            if (kind <= 1) {   // inside the face (or within 2% of its ends), grazing it or not
                double u = kind == 0 ? r.range(0.02, 0.98) : (r.u32() & 1 ? r.range(0, 0.02) : r.range(0.98, 1));
                x = a0 + e * u + fn * m.r;
                nx = fn;
                tan = ed;
            } else {   // on the corner at a0 (its circle when rounded), between the two faces' normals
                double w = r.range(0.02, 0.98);
                nx = pn * (1 - w) + fn * w;
                nx = nx * (1 / len(nx));
                x = a0 + nx * m.r;
                tan = d2(-nx.y, nx.x);
                corners++;
            }
            if (r.u32() & 1) tan = tan * -1.0;
            double ang = kind % 2 == 0 ? r.range(0.05, 3) * 3.14159265358979 / 180 : r.range(0.05, 1.5);
            D2 d = tan * cos(ang) - nx * sin(ang);   // into the rounded difference at x
            if (m.r == 0 && kind >= 2 && !(dot(d, fn) < 0 && dot(d, pn) < 0)) d = (fn + pn) * (-1 / len(fn + pn));   // into a sharp corner
            double L = r.range(0.5, 60) * (size > 5 ? 1 : 0.3), T = r.range(0.3, 0.9);
            D2 delta = d * L - x;   // moving A by delta puts the ray's start L before x
            A.move(V((float)delta.x, (float)delta.y));
            thc_v2 vb = i % 3 ? V(r.range(-30, 30), r.range(-30, 30)) : V(0, 0);
            D2 vr = d * (-L / T);
            thc_v2 va = V((float)vr.x + vb.x, (float)vr.y + vb.y);
            D2 v = dv(va) - dv(vb), nrm;
            double exact = ray_rounded(minkowski(A, B), d2(0, 0), v * -1.0, &nrm), speed = len(v);
            if (exact == 0 || speed < 1e-3) continue;   // overlapping at the start (A's move rounded): not a sweep
            sweeps++;
            thc_toi_result s = thc__miss(), g;
            int took = thc__toi_sweep(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb, &s);
            if (took < 0) continue;
            answered++;
            hits += s.hit;
            thc__toi_general(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb, &g);
            Mink mm = minkowski(A, B);
            double eps = 4e-5 * (std::max(shape_scale(A), shape_scale(B))) + 4e-6 * speed;
            bool same = s.hit == g.hit;
            if (!same) same = !s.hit && !(exact > 0 && exact < 1 - eps / speed);   // advancement's near miss
            else if (s.hit) same = sdist(mm, v * -(double)s.t, &nrm) <= sdist(mm, v * -(double)g.t, &nrm) + THC_TOLERANCE;
            if (!same) { bad++; report("sweep differs from advancement (t advancement, t sweep)", A, B, g.hit ? g.t : -1, s.hit ? s.t : -1); }
            // it stops half the tolerance of travel short: apart there by that much times the sine of the incidence
            // (measured where the rounding of the time is small against it: steep shots near the origin, on a face
            // or a rounded corner, where the incidence is the one built)
            double gap = s.hit ? sdist(mm, v * -(double)s.t, &nrm) : 0;
            if (s.hit && (kind == 1 || (kind == 3 && m.r > 0)) && ang > 0.3 && far == 0 && !(gap > 0.2 * THC_TOLERANCE * sin(ang))) {
                short_bad++;
                report("sweep not stopped short of the touch (exact t, gap)", A, B, exact, gap);
            }
            if (s.hit != (thc_toi(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb).hit)) { bad++; report("thc_toi does not take the sweep", A, B, s.hit, -1); }
            int before = c.bad_t + c.bad_point + c.bad_normal;
            check_toi(A, va, B, vb, &c, true, true);
            if (getenv("SWEEP_DEBUG") && c.bad_t + c.bad_point + c.bad_normal != before)
                printf("  va (%.9g, %.9g) vb (%.9g, %.9g) kind %d ang %g: t %.9g n (%.7f, %.7f) p (%.7f, %.7f), exact t %.9g n (%.7f, %.7f)\n", va.x, va.y, vb.x, vb.y, kind, ang,
                       s.t, s.n.x, s.n.y, s.p.x, s.p.y, exact, -nrm.x, -nrm.y);
        }
        // shapes already overlapping at the start keep advancement's answer (its manifold), to the bit
        int overlapping = 0, changed = 0;
        for (int i = 0; i < n / 4; i++) {
            double size = i % 3 == 0 ? r.range(0.3, 3) : 10;
            Shape A = random_shape(r, pairs[pi][0], r.range(-0.5, 0.5) * size, r.range(-0.5, 0.5) * size, size);
            Shape B = random_shape(r, pairs[pi][1], r.range(-0.5, 0.5) * size, r.range(-0.5, 0.5) * size, size);
            thc_v2 va = V(r.range(-40, 40), r.range(-40, 40)), vb = i % 2 ? V(r.range(-30, 30), r.range(-30, 30)) : V(0, 0);
            if (!(oracle_depth(minkowski(A, B)) > 1e-3 * size)) continue;
            overlapping++;
            thc_toi_result f = thc_toi(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb), g;
            thc__toi_general(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb, &g);
            if (memcmp(&f, &g, sizeof f) != 0) { changed++; report("overlapping at the start: toi differs from advancement (t advancement, t toi)", A, B, g.t, f.t); }
        }
        const char *na = type_name(pairs[pi][0]), *nb = type_name(pairs[pi][1]);
        TH_CHECK_MSG(changed == 0 && overlapping > n / 20, "%s-%s overlapping at the start: %d of %d differ from advancement", na, nb, changed, overlapping);
        TH_CHECK_MSG(bad == 0, "%s-%s minkowski sweep: %d of %d differ from advancement", na, nb, bad, answered);
        TH_CHECK_MSG(c.bad_t + c.bad_point + c.bad_normal == 0, "%s-%s minkowski sweep against the oracle: %d wrong t, %d points, %d normals (%d hits)", na, nb,
                     c.bad_t, c.bad_point, c.bad_normal, c.hits);
        TH_CHECK_MSG(short_bad == 0, "%s-%s minkowski sweep: %d of %d hits not stopped short of the touch", na, nb, short_bad, hits);
        TH_CHECK_MSG(answered >= sweeps * 9 / 10, "%s-%s minkowski sweep: answered only %d of %d sweeps", na, nb, answered, sweeps);
        TH_CHECK_MSG(hits > sweeps * 8 / 10 && corners > n / 4, "%s-%s minkowski sweep: only %d hits of %d sweeps (%d corners)", na, nb, hits, sweeps, corners);
    }
}


// ---------------------------------------------------------------- issue 42: near-ties at a segment's end
// The cores apart, the shapes touching by their radii, and a vertex (a box's corner, a polygon's vertex, a
// capsule's end) projecting just inside a capsule's segment near its end, or a capsule's end projecting just
// inside an edge near its end: the vertex-to-end and the vertex-to-face pairs differ by rounding, and only the
// face's normal is right (the vertex-to-end direction is tilted by delta / dist, which a long reference face
// turns into depth). Every ordered pair, depth and normal against the exact oracle, both orders the same.
static D2 unit_at(double a) { return d2(cos(a), sin(a)); }
static D2 turn(D2 v, double a) { return d2(v.x * cos(a) - v.y * sin(a), v.x * sin(a) + v.y * cos(a)); }

// A shape of type t with one of its vertices V the only point of its core farthest along the unit m.
static Shape vertex_shape(Rng &r, thc_type t, D2 *v, D2 *m, double size)
{
    D2 c = d2(r.range(-20, 20), r.range(-20, 20));
    if (t == THC_AABB) {
        Shape s = box(c, r.range(0.2 * size, size), r.range(0.2 * size, size));
        int k = (int)(r.u32() % 4);   // the corner, counter-clockwise from min; its normals' cone starts at pi + k pi / 2
        D2 corners[4] = { dv(s.b.min), d2(s.b.max.x, s.b.min.y), dv(s.b.max), d2(s.b.min.x, s.b.max.y) };
        *v = corners[k];
        *m = unit_at(3.14159265358979 + k * 1.5707963267949 + r.range(0.1, 1.47));
        return s;
    }
    if (t == THC_CAPSULE) {
        *v = c;
        *m = unit_at(r.range(0, 6.2831853));
        D2 away = turn(*m * -1.0, r.range(-1.0, 1.0));
        return capsule(c, c + away * r.range(0.5 * size, 2 * size), 0);
    }
    Shape s = random_shape(r, THC_POLY, c.x, c.y, size);
    D2 w[THC_MAX_POLY_VERTS];
    double unused;
    int n = shape_core(s, w, &unused), i = (int)(r.u32() % (unsigned)n);
    D2 e0 = w[i] - w[(i + n - 1) % n], e1 = w[(i + 1) % n] - w[i];   // the edges into and out of V
    double a0 = atan2(-e0.x, e0.y), a1 = atan2(-e1.x, e1.y);       // their outward normals' angles
    if (a1 < a0) a1 += 6.2831853071796;
    *v = w[i];
    *m = unit_at(a0 + (a1 - a0) * r.range(0.05, 0.95));
    return s;
}

// A shape of type t with an edge P0-P1 (outward unit normal m) its core's nearest to anything beyond it along m.
static Shape edge_shape(Rng &r, thc_type t, D2 *p0, D2 *p1, D2 *m, double size)
{
    D2 c = d2(r.range(-20, 20), r.range(-20, 20));
    D2 w[THC_MAX_POLY_VERTS];
    double unused;
    Shape s = t == THC_AABB ? box(c, r.range(0.2 * size, size), r.range(0.2 * size, size))
            : t == THC_CAPSULE ? capsule(c, c + unit_at(r.range(0, 6.2831853)) * r.range(0.5 * size, 2 * size), 0)
            : random_shape(r, THC_POLY, c.x, c.y, size);
    int n = shape_core(s, w, &unused), i = (int)(r.u32() % (unsigned)n);
    *p0 = w[i];
    *p1 = w[(i + 1) % n];
    if (n == 2 && i == 1) std::swap(*p0, *p1);   // a capsule's core: either side, always counter-clockwise
    D2 e = *p1 - *p0;
    *m = d2(e.y, -e.x) * (1 / len(e));
    return s;
}

static void test_near_ties_at_segment_ends(void)
{
    const thc_type kinds[3] = { THC_AABB, THC_POLY, THC_CAPSULE };
    for (int kind = 0; kind < 3; kind++)
        for (int way = 0; way < 2; way++) {   // 0: X's vertex near the capsule's segment end, 1: the capsule's end near X's edge end
            Rng r(4200 + kind * 2 + way);
            int bad[2] = { 0, 0 }, disagree = 0, n = COUNT(2000);
            for (int i = 0; i < n; i++) {
                double size = 10, dist = r.range(0.2, 3), depth = r.range(0.001, 0.5);
                double delta = dist * pow(10.0, r.range(-6, -2.5)) * (r.u32() & 1 ? 1 : -0.2);   // inside (or just past) the end
                Shape X, K;
                D2 v, m;
                if (way == 0) {
                    X = vertex_shape(r, kinds[kind], &v, &m, size);
                    D2 t = d2(-m.y, m.x) * (r.u32() & 1 ? 1.0 : -1.0);
                    D2 e1 = v + m * dist + t * delta;
                    K = capsule(e1, e1 - t * r.range(0.5 * size, 2 * size), 0);
                } else {
                    D2 p0, p1;
                    X = edge_shape(r, kinds[kind], &p0, &p1, &m, size);
                    D2 t = (p1 - p0) * (1 / len(p1 - p0));
                    v = p1 - t * delta + m * dist;
                    K = capsule(v, v + turn(m, r.range(-1.0, 1.0)) * r.range(0.5 * size, 2 * size), 0);
                }
                double rk = X.type == THC_CAPSULE ? r.range(0.1, 1) * (dist + depth) : dist + depth;
                K.k.r = (float)rk;
                if (X.type == THC_CAPSULE) X.k.r = (float)(dist + depth - K.k.r);
                double got[2];
                for (int o = 0; o < 2; o++) {
                    const Shape &A = o ? K : X, &B = o ? X : K;
                    Mink mk = minkowski(A, B);
                    double want = oracle_depth(mk), tol = 2e-5 * std::max(shape_scale(A), shape_scale(B));
                    thc_manifold man;
                    thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &man);
                    got[o] = man.count ? man.depths[0] : -1;
                    for (int j = 1; j < man.count; j++) got[o] = std::max(got[o], (double)man.depths[j]);
                    double need = man.count ? support(mk, dv(man.n) * (1 / len(dv(man.n)))) : 0;
                    if (!man.count || fabs(got[o] - want) > tol || fabs(need - got[o]) > tol) {
                        bad[o]++;
                        report(man.count && fabs(got[o] - want) <= tol ? "near-tie normal (support - depth)" : "near-tie depth", A, B, want,
                               man.count && fabs(got[o] - want) <= tol ? need - got[o] : got[o]);
                    }
                }
                disagree += fabs(got[0] - got[1]) > 2e-5 * size;
            }
            for (int o = 0; o < 2; o++)
                TH_CHECK_MSG(bad[o] == 0, "near-tie %s-%s (%s): %d of %d wrong", type_name(o ? THC_CAPSULE : kinds[kind]),
                             type_name(o ? kinds[kind] : THC_CAPSULE), way ? "the capsule's end at an edge's end" : "a vertex at the capsule's end", bad[o], n);
            TH_CHECK_MSG(disagree == 0, "near-tie %s and capsule: %d of %d depend on the order", type_name(kinds[kind]), disagree, n);
        }
}

// ---------------------------------------------------------------- issue 42: touching agrees at every scale
// thc_overlap, thc_collide and thc_distance must agree on "touching" whatever the shapes' size: B is placed at an
// exact gap (or overlap) of 2e-5 to 1e-3 of the size from A, for shapes from 1e-3 to 1e3 across, near the origin
// and 10 sizes away. thc_distance used to answer 0 for any gap below 1e-5, so small shapes a visible gap apart
// (and two unit circles 9e-6 apart) were touching for it and apart for thc_overlap.
static void test_touching_agrees_at_every_scale(void)
{
    const double scales[5] = { 1e-3, 0.1, 1, 30, 1000 }, gaps[6] = { 2e-5, 1e-4, 1e-3, -2e-5, -1e-4, -1e-3 };
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(4242 + ia * 4 + ib);
            int bad = 0, n = 0;
            for (int si = 0; si < 5; si++)
                for (int gi = 0; gi < 6; gi++)
                    for (int k = 0; k < COUNT(24); k++) {
                        double size = scales[si], g = gaps[gi] * size, far = (k & 1) ? 10 * size : 0;
                        Shape A = random_shape(r, TYPES[ia], far, far, size);
                        Shape B0 = random_shape(r, TYPES[ib], far, far, size);
                        D2 u = unit_at(r.range(0, 6.2831853));
                        // the exact gap along u is -depth(t); bisect t (B moved by u t, in floats) to the wanted gap
                        double lo = 0, hi = 8 * size;
                        for (int it = 0; it < 60; it++) {
                            double t = 0.5 * (lo + hi);
                            Shape B = B0;
                            B.move(V((float)(u.x * t), (float)(u.y * t)));
                            if (-oracle_depth(minkowski(A, B)) < g) lo = t; else hi = t;
                        }
                        Shape B = B0;
                        B.move(V((float)(u.x * hi), (float)(u.y * hi)));
                        double exact = -oracle_depth(minkowski(A, B));
                        if (fabs(exact - g) > 0.25 * fabs(g)) continue;   // the float placement missed the gap: skip
                        n++;
                        int ov = thc_overlap(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x());
                        thc_manifold m;
                        thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &m);
                        float d = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), NULL, NULL);
                        bool apart = exact > 0;
                        if (ov != !apart || (m.count > 0) != !apart || (d > 0) != apart) {
                            bad++;
                            if (g_prints++ < 6) printf("scale %g, exact gap %.9g: overlap %d, contacts %d, distance %.9g\n", size, exact, ov, m.count, d);
                            if (g_prints <= 6) { print_shape("A", A); print_shape("B", B); }
                        }
                    }
            TH_CHECK_MSG(bad == 0, "touching %s-%s: %d of %d disagree", type_name(TYPES[ia]), type_name(TYPES[ib]), bad, n);
            TH_CHECK_MSG(n > COUNT(24) * 5 * 6 * 3 / 4, "touching %s-%s: only %d placed", type_name(TYPES[ia]), type_name(TYPES[ib]), n);
        }
}

int main(void)
{
    g_prints = 0; TH_RUN(test_oracle_sanity);
    g_prints = 0; TH_RUN(test_rest_queries_exact);
    g_prints = 0; TH_RUN(test_nearly_parallel_segments);          // defect 1
    g_prints = 0; TH_RUN(test_rays_exact);
    g_prints = 0; TH_RUN(test_rays_from_anywhere);
    g_prints = 0; TH_RUN(test_rays_unbounded);
    g_prints = 0; TH_RUN(test_rays_at_flat_polygons);
    g_prints = 0; TH_RUN(test_direct_paths_match_general);
    g_prints = 0; TH_RUN(test_gjk_closest_matches_brute_force);
    g_prints = 0; TH_RUN(test_capsule_pair_matches_general);
    g_prints = 0; TH_RUN(test_capsule_poly_matches_general);
    g_prints = 0; TH_RUN(test_circle_poly_odd_polygons);
    g_prints = 0; TH_RUN(test_poly_pair_matches_general);
    g_prints = 0; TH_RUN(test_lane_steps_match_plain_loops);
    g_prints = 0; TH_RUN(test_box_poly_lanes_match_polygon_road);
    g_prints = 0; TH_RUN(test_direct_distance_matches_general);
    g_prints = 0; TH_RUN(test_sat_distance_road_exact);
    g_prints = 0; TH_RUN(test_touching_circles_match_general);
    g_prints = 0; TH_RUN(test_exact_sweeps_match_general);
    g_prints = 0; TH_RUN(test_toi_settled_touch_matches_stepping);
    g_prints = 0; TH_RUN(test_minkowski_sweep);
    g_prints = 0; TH_RUN(test_toi_exact);
    g_prints = 0; TH_RUN(test_toi_point_where_b_is);              // defect 2
    g_prints = 0; TH_RUN(test_grazing_walls);                     // defect 3
    g_prints = 0; TH_RUN(test_grazing_every_pair);                // issue 29
    g_prints = 0; TH_RUN(test_circle_core_just_outside);          // defect 4
    g_prints = 0; TH_RUN(test_toi_normal_pixel_scale);            // defect 5
    g_prints = 0; TH_RUN(test_near_ties_at_segment_ends);         // issue 42
    g_prints = 0; TH_RUN(test_touching_agrees_at_every_scale);    // issue 42
    return th_test_finish();
}
