// Unit tests for tinyheaders/th_collide.h, compiled as C++17.
// Property tests over seeded random shapes for every ordered pair of {circle, aabb, capsule, poly},
// checked against independent oracles written here in double precision (signed distance functions,
// closed-form ray answers, brute-force pair sets and pixel loops), plus hand-picked degenerate cases.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"

#include <stdint.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "collide_shapes.h"

// ---------------------------------------------------------------- random numbers
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint32_t u32() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
    float f01() { return (float)(u32() & 0xFFFFFF) / 16777216.0f; }
    float range(float a, float b) { return a + (b - a) * f01(); }
    int irange(int a, int b) { return a + (int)(u32() % (uint32_t)(b - a + 1)); }
};

static float snap(float v, bool on) { return on ? roundf(v * 128.0f) / 128.0f : v; }

// A random shape of the given type around the origin; snapped to 1/128 so it can be moved to 100000 exactly.
static Shape random_shape(Rng &r, thc_type t, float spread, bool snapped)
{
    Shape s;
    memset(&s, 0, sizeof s);
    s.type = t;
    float cx = snap(r.range(-spread, spread), snapped), cy = snap(r.range(-spread, spread), snapped);
    float size = r.range(0.5f, 10.0f);
    switch (t) {
    case THC_CIRCLE:
        s.c.p = V(cx, cy);
        s.c.r = snap(r.f01() < 0.05f ? 0.0f : size, snapped);
        break;
    case THC_AABB: {
        float hw = r.f01() < 0.05f ? 0.0f : r.range(0.2f, size), hh = r.range(0.2f, size);
        s.b.min = V(snap(cx - hw, snapped), snap(cy - hh, snapped));
        s.b.max = V(snap(cx + hw, snapped), snap(cy + hh, snapped));
        break;
    }
    case THC_CAPSULE: {
        float a = r.range(0, 6.2831853f), len = r.f01() < 0.05f ? 0.0f : r.range(0, 2 * size);
        s.k.a = V(snap(cx + cosf(a) * len * 0.5f, snapped), snap(cy + sinf(a) * len * 0.5f, snapped));
        s.k.b = V(snap(cx - cosf(a) * len * 0.5f, snapped), snap(cy - sinf(a) * len * 0.5f, snapped));
        s.k.r = snap(r.f01() < 0.1f ? 0.0f : r.range(0.1f, size * 0.5f), snapped);
        break;
    }
    default: {
        for (;;) {
            if (r.f01() < 0.25f) {
                thc_make_box(&s.p, r.range(0.2f, size), r.range(0.2f, size));
            } else {
                thc_v2 pts[8];
                int n = r.irange(3, 8);
                for (int i = 0; i < n; i++) pts[i] = V(r.range(-size, size), r.range(-size, size));
                thc_make_poly(&s.p, pts, n);
            }
            if (s.p.count >= 3) break;
        }
        s.xf = thc_make_transform(V(cx, cy), r.range(-3.14159f, 3.14159f));
        break;
    }
    }
    return s;
}

// ---------------------------------------------------------------- an independent oracle: exact signed distance, in double
struct D2 { double x, y; };
static double dot(D2 a, D2 b) { return a.x * b.x + a.y * b.y; }
static D2 sub(D2 a, D2 b) { D2 r = { a.x - b.x, a.y - b.y }; return r; }
static D2 d2(thc_v2 v) { D2 r = { v.x, v.y }; return r; }
static double seg_dist(D2 p, D2 a, D2 b)
{
    D2 e = sub(b, a), ap = sub(p, a);
    double ee = dot(e, e), t = ee > 0 ? std::max(0.0, std::min(1.0, dot(ap, e) / ee)) : 0;
    D2 q = { a.x + e.x * t - p.x, a.y + e.y * t - p.y };
    return sqrt(dot(q, q));
}

static double sdf(const Shape &s, D2 p)
{
    switch (s.type) {
    case THC_CIRCLE: { D2 d = sub(p, d2(s.c.p)); return sqrt(dot(d, d)) - s.c.r; }
    case THC_AABB: {
        double cx = 0.5 * ((double)s.b.min.x + s.b.max.x), cy = 0.5 * ((double)s.b.min.y + s.b.max.y);
        double hx = 0.5 * ((double)s.b.max.x - s.b.min.x), hy = 0.5 * ((double)s.b.max.y - s.b.min.y);
        double qx = fabs(p.x - cx) - hx, qy = fabs(p.y - cy) - hy;
        double ox = std::max(qx, 0.0), oy = std::max(qy, 0.0);
        return sqrt(ox * ox + oy * oy) + std::min(std::max(qx, qy), 0.0);
    }
    case THC_CAPSULE: return seg_dist(p, d2(s.k.a), d2(s.k.b)) - s.k.r;
    default: {
        double c = s.xf.c, sn = s.xf.s;
        D2 w = sub(p, d2(s.xf.p));
        D2 l = { c * w.x + sn * w.y, -sn * w.x + c * w.y };
        int n = s.p.count;
        double inside = -1e300, out = 1e300;
        for (int i = 0; i < n; i++) {
            D2 a = d2(s.p.verts[i]), b = d2(s.p.verts[(i + 1) % n]);
            D2 e = sub(b, a);
            double len = sqrt(dot(e, e));
            D2 nn = { e.y / len, -e.x / len };
            inside = std::max(inside, dot(nn, sub(l, a)));
            out = std::min(out, seg_dist(l, a, b));
        }
        return inside <= 0 ? inside : out;
    }
    }
}

static float max_depth(const thc_manifold &m)
{
    float d = 0;
    for (int i = 0; i < m.count; i++) d = std::max(d, m.depths[i]);
    return d;
}

static bool finite_manifold(const thc_manifold &m)
{
    if (m.count < 0 || m.count > 2) return false;
    if (!m.count) return true;
    if (!std::isfinite(m.n.x) || !std::isfinite(m.n.y) || fabsf(sqrtf(m.n.x * m.n.x + m.n.y * m.n.y) - 1) > 1e-4f) return false;
    for (int i = 0; i < m.count; i++)
        if (!std::isfinite(m.depths[i]) || m.depths[i] < 0 || !std::isfinite(m.contact_points[i].x) || !std::isfinite(m.contact_points[i].y)) return false;
    return true;
}

// Prints a shape pair and both manifolds, for the first few failures of a kind.
static int g_dumps = 0;
static void dump_manifold(const char *tag, const thc_manifold &m)
{
    printf("  %s count %d n (%.6f, %.6f)", tag, m.count, m.n.x, m.n.y);
    for (int i = 0; i < m.count; i++) printf(" [(%.6f, %.6f) depth %.6f]", m.contact_points[i].x, m.contact_points[i].y, m.depths[i]);
    printf("\n");
}
static void dump(const char *what, const Shape &a, const Shape &b)
{
    if (g_dumps++ >= 12) return;
    thc_manifold m, ms;
    thc_collide(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), &m);
    thc_collide(b.ptr(), b.type, b.x(), a.ptr(), a.type, a.x(), &ms);
    printf("%s\n", what);
    print_shape("A", a);
    print_shape("B", b);
    dump_manifold("A-B", m);
    dump_manifold("B-A", ms);
}

// ---------------------------------------------------------------- manifold properties, every ordered pair
static void test_pairs_properties(void)
{
    const int CASES = 2500;
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(1000 + ia * 4 + ib);
            int contacts = 0, normal_mismatch = 0, bad_bool = 0, bad_flip = 0, bad_push = 0, bad_finite = 0, bad_dist = 0, bad_mtv = 0;
            for (int i = 0; i < CASES; i++) {
                Shape A = random_shape(r, TYPES[ia], 8, false), B = random_shape(r, TYPES[ib], 8, false);
                thc_manifold m, ms;
                thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &m);
                thc_collide(B.ptr(), B.type, B.x(), A.ptr(), A.type, A.x(), &ms);
                int ov = thc_overlap(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x());
                if (ov != (m.count > 0)) bad_bool++;
                if (!finite_manifold(m) || !finite_manifold(ms)) { bad_finite++; continue; }
                if ((m.count > 0) != (ms.count > 0)) { bad_flip++; continue; }
                thc_v2 pa, pb;
                float dist = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
                if (!m.count) {
                    // apart: the distance is positive and its points lie on the surfaces
                    double ea = sdf(A, d2(pa)), eb = sdf(B, d2(pb));
                    double dd = sqrt(dot(sub(d2(pa), d2(pb)), sub(d2(pa), d2(pb))));
                    if (!(dist >= 0) || fabs(ea) > 2e-3 || fabs(eb) > 2e-3 || fabs(dd - dist) > 2e-3) bad_dist++;
                    continue;
                }
                contacts++;
                if (dist != 0) bad_dist++;
                float d = max_depth(m), ds = max_depth(ms);
                if (fabsf(d - ds) > 1e-3f + 6e-3f * d) { bad_flip++; dump("swap depth", A, B); }
                thc_v2 mtv = thc_mtv(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x());
                if (fabsf(mtv.x + m.n.x * d) > 1e-5f || fabsf(mtv.y + m.n.y * d) > 1e-5f) bad_mtv++;
                // pushing A out by the depth along -n separates the shapes (and so does the swapped answer)
                float push = d + 2e-3f + 1e-4f * d;
                Shape P = A;
                P.move(V(-m.n.x * push, -m.n.y * push));
                if (thc_overlap(P.ptr(), P.type, P.x(), B.ptr(), B.type, B.x())) { bad_push++; dump("push", A, B); }
                if (m.n.x * ms.n.x + m.n.y * ms.n.y > -0.999f) {
                    // the reference face's bias may pick a different axis of (almost) the same depth when swapped
                    normal_mismatch++;
                    Shape Q = A;
                    float push2 = ds + 2e-3f + 1e-4f * ds;
                    Q.move(V(ms.n.x * push2, ms.n.y * push2));
                    if (thc_overlap(Q.ptr(), Q.type, Q.x(), B.ptr(), B.type, B.x())) bad_push++;
                }
                // the contact points lie in the overlap region, give or take the depth
                for (int k = 0; k < m.count; k++) {
                    D2 cp = d2(m.contact_points[k]);
                    if (sdf(A, cp) > m.depths[k] + 1e-3 || sdf(B, cp) > m.depths[k] + 1e-3) { bad_push++; printf("cp %d sdf %g %g\n", k, sdf(A, cp), sdf(B, cp)); dump("contact point", A, B); }
                }
            }
            TH_CHECK_MSG(bad_bool == 0, "%s-%s: overlap disagrees with the manifold %d times", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_bool);
            TH_CHECK_MSG(bad_finite == 0, "%s-%s: %d manifolds not finite/normalised", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_finite);
            TH_CHECK_MSG(bad_flip == 0, "%s-%s: %d swapped answers differ", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_flip);
            TH_CHECK_MSG(bad_push == 0, "%s-%s: %d push-outs fail", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_push);
            TH_CHECK_MSG(bad_dist == 0, "%s-%s: %d distances wrong", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_dist);
            TH_CHECK_MSG(bad_mtv == 0, "%s-%s: %d MTVs wrong", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_mtv);
            TH_CHECK_MSG(contacts > CASES / 5 && contacts < CASES * 9 / 10, "%s-%s: %d contacts of %d: the scene is not mixed", type_name(TYPES[ia]), type_name(TYPES[ib]), contacts, CASES);
            TH_CHECK_MSG(normal_mismatch * 10 <= contacts, "%s-%s: swapped normals differ in %d of %d contacts", type_name(TYPES[ia]), type_name(TYPES[ib]), normal_mismatch, contacts);
        }
}

// ---------------------------------------------------------------- a dense point-sampling oracle
static void test_pairs_sampling_oracle(void)
{
    const int CASES = 400, N = 40;
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(2000 + ia * 4 + ib);
            int bad_false_neg = 0, bad_false_pos = 0, bad_aabb = 0;
            for (int i = 0; i < CASES; i++) {
                Shape A = random_shape(r, TYPES[ia], 12, false), B = random_shape(r, TYPES[ib], 12, false);
                thc_aabb ba = thc_shape_aabb(A.ptr(), A.type, A.x()), bb = thc_shape_aabb(B.ptr(), B.type, B.x());
                thc_manifold m;
                thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &m);
                // sample both boxes' union so the boxes themselves are checked too
                double x0 = std::min(ba.min.x, bb.min.x) - 1, x1 = std::max(ba.max.x, bb.max.x) + 1;
                double y0 = std::min(ba.min.y, bb.min.y) - 1, y1 = std::max(ba.max.y, bb.max.y) + 1;
                double hx = (x1 - x0) / N, hy = (y1 - y0) / N;
                bool both = false;
                double in_a = 0, in_b = 0;   // the deepest sample in each shape: about its inradius
                for (int yi = 0; yi <= N; yi++)
                    for (int xi = 0; xi <= N; xi++) {
                        D2 p = { x0 + xi * hx, y0 + yi * hy };
                        double sa = sdf(A, p), sb = sdf(B, p);
                        if (sa < -1e-3 && sb < -1e-3) both = true;
                        in_a = std::min(in_a, sa);
                        in_b = std::min(in_b, sb);
                        if ((sa < -1e-4 && (p.x < ba.min.x || p.x > ba.max.x || p.y < ba.min.y || p.y > ba.max.y)) ||
                            (sb < -1e-4 && (p.x < bb.min.x || p.x > bb.max.x || p.y < bb.min.y || p.y > bb.max.y))) bad_aabb++;
                        int in_lib = thc_point_in_shape(V((float)p.x, (float)p.y), A.ptr(), A.type, A.x());
                        if ((sa < -1e-3 && !in_lib) || (sa > 1e-3 && in_lib)) bad_aabb++;
                    }
                if (both && !m.count) bad_false_neg++;
                // a deep overlap must show up on a grid this fine (the overlap holds a disc of about the depth)
                bool thin = (A.type == THC_CIRCLE && A.c.r == 0) || (B.type == THC_CIRCLE && B.c.r == 0) ||
                            (A.type == THC_CAPSULE && A.k.r == 0) || (B.type == THC_CAPSULE && B.k.r == 0) ||
                            (A.type == THC_AABB && (A.b.min.x == A.b.max.x || A.b.min.y == A.b.max.y)) ||
                            (B.type == THC_AABB && (B.b.min.x == B.b.max.x || B.b.min.y == B.b.max.y));   // no inside to sample
                double h = std::max(hx, hy);
                if (!thin && !both && m.count && max_depth(m) > 3 * h && in_a < -3 * h && in_b < -3 * h) { bad_false_pos++; dump("sampling", A, B); }
            }
            TH_CHECK_MSG(bad_false_neg == 0, "%s-%s: %d overlaps seen by sampling but not by the library", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_false_neg);
            TH_CHECK_MSG(bad_false_pos == 0, "%s-%s: %d deep overlaps the sampling never sees", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_false_pos);
            TH_CHECK_MSG(bad_aabb == 0, "%s-%s: %d samples outside the shape's AABB or point-in disagreeing", type_name(TYPES[ia]), type_name(TYPES[ib]), bad_aabb);
        }
}

// ---------------------------------------------------------------- far from the origin
static void test_far_from_origin(void)
{
    const thc_v2 far_offsets[3] = { { 100000, 100000 }, { -100000, 100000 }, { 100000, -100000 } };
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(3000 + ia * 4 + ib);
            int bad = 0, checked = 0;
            for (int i = 0; i < 1000; i++) {
                Shape A = random_shape(r, TYPES[ia], 12, true), B = random_shape(r, TYPES[ib], 12, true);
                thc_v2 off = far_offsets[i % 3];
                Shape FA = A, FB = B;
                FA.move(off);
                FB.move(off);
                thc_manifold m, fm;
                thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &m);
                thc_collide(FA.ptr(), FA.type, FA.x(), FB.ptr(), FB.type, FB.x(), &fm);
                float dist = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), NULL, NULL);
                float fdist = thc_distance(FA.ptr(), FA.type, FA.x(), FB.ptr(), FB.type, FB.x(), NULL, NULL);
                if (fabsf(dist - fdist) > 1e-3f) { bad++; printf("far dist %g %g\n", dist, fdist); dump("far", A, B); dump("farF", FA, FB); }
                if (m.count && fm.count) {
                    checked++;
                    if (fabsf(max_depth(m) - max_depth(fm)) > 1e-3f || m.n.x * fm.n.x + m.n.y * fm.n.y < 0.9999f) { bad++; dump("far", A, B); dump("farF", FA, FB); }
                    if (fabsf(fm.contact_points[0].x - off.x - m.contact_points[0].x) > 0.02f ||
                        fabsf(fm.contact_points[0].y - off.y - m.contact_points[0].y) > 0.02f) { bad++; dump("farcp", A, B); dump("farF", FA, FB); }
                } else if ((m.count > 0) != (fm.count > 0) && fabsf(dist) > 1e-3f) {
                    bad++;
                }
                // rays and swept tests too
                thc_ray ray = { { r.range(-30, 30), r.range(-30, 30) }, { r.range(-1, 1), r.range(-1, 1) }, 60 };
                ray.p.x = snap(ray.p.x, true); ray.p.y = snap(ray.p.y, true);
                thc_ray fray = ray;
                fray.p.x += off.x; fray.p.y += off.y;
                thc_ray_hit h, fh;
                int hit = thc_raycast(ray, B.ptr(), B.type, B.x(), &h), fhit = thc_raycast(fray, FB.ptr(), FB.type, FB.x(), &fh);
                if (hit && fhit && fabsf(h.t - fh.t) > 2e-3f) { bad++; printf("far ray %g %g\n", h.t, fh.t); }
                thc_v2 vel = { r.range(-40, 40), r.range(-40, 40) }, zero = { 0, 0 };
                thc_toi_result t = thc_toi(A.ptr(), A.type, A.x(), vel, B.ptr(), B.type, B.x(), zero);
                thc_toi_result ft = thc_toi(FA.ptr(), FA.type, FA.x(), vel, FB.ptr(), FB.type, FB.x(), zero);
                if (t.hit && ft.hit && fabsf(t.t - ft.t) > 1e-3f) { bad++; printf("far toi %g %g\n", t.t, ft.t); }
            }
            TH_CHECK_MSG(bad == 0, "%s-%s: %d answers differ at 100000 (of %d contacts)", type_name(TYPES[ia]), type_name(TYPES[ib]), bad, checked);
        }
}

// ---------------------------------------------------------------- rays against analytic answers
static bool ray_slab(D2 p, D2 d, double tmax, const thc_aabb &b, double *t)
{
    double lo = 0, hi = tmax;
    double pp[2] = { p.x, p.y }, dd[2] = { d.x, d.y }, mn[2] = { b.min.x, b.min.y }, mx[2] = { b.max.x, b.max.y };
    for (int k = 0; k < 2; k++) {
        if (dd[k] == 0) { if (pp[k] < mn[k] || pp[k] > mx[k]) return false; continue; }
        double t0 = (mn[k] - pp[k]) / dd[k], t1 = (mx[k] - pp[k]) / dd[k];
        if (t0 > t1) std::swap(t0, t1);
        lo = std::max(lo, t0);
        hi = std::min(hi, t1);
        if (lo > hi) return false;
    }
    *t = lo;
    return true;
}

static void test_rays(void)
{
    for (int it = 0; it < 4; it++) {
        Rng r(4000 + it);
        int bad_hit = 0, bad_t = 0, bad_n = 0, hits = 0;
        for (int i = 0; i < 3000; i++) {
            Shape S = random_shape(r, TYPES[it], 5, false);
            thc_ray ray;
            ray.p = V(r.range(-25, 25), r.range(-25, 25));
            float a = r.range(0, 6.2831853f);
            ray.d = V(cosf(a), sinf(a));
            ray.t = r.range(0, 60);
            if (i % 3 == 0) { ray.d.x *= ray.t; ray.d.y *= ray.t; ray.t = 1; }   // segment form: fraction of d
            thc_ray_hit h;
            int hit = thc_raycast(ray, S.ptr(), S.type, S.x(), &h);
            // the reference answer: sphere tracing the exact signed distance, in double
            D2 p = d2(ray.p), d = d2(ray.d);
            double dl = sqrt(dot(d, d)), t = 0, ref_t = -1, closest = 1e300;
            bool ambiguous = false;
            if (sdf(S, p) <= 0) ref_t = 0;
            else
                for (int k = 0; k < 4000; k++) {
                    D2 q = { p.x + d.x * t, p.y + d.y * t };
                    double s = sdf(S, q);
                    closest = std::min(closest, s);
                    if (s < 1e-7) { ref_t = t; break; }
                    t += s / dl;
                    if (t > ray.t) break;
                    if (k == 3999) ambiguous = true;
                }
            if (ref_t < 0 && closest < 2e-3) ambiguous = true;   // grazing: either answer is fine
            if (ref_t >= 0 && ref_t > ray.t - 2e-3 / dl) ambiguous = true;   // the hit is at the very end
            if (ambiguous) continue;
            if (hit != (ref_t >= 0)) { bad_hit++; continue; }
            if (!hit) continue;
            hits++;
            if (fabs(h.t - ref_t) * dl > 2e-3) bad_t++;
            if (S.type == THC_AABB) {
                double st;
                if (!ray_slab(p, d, ray.t, S.b, &st) || fabs(st - h.t) * dl > 1e-4) bad_t++;
            }
            if (h.t > 0) {
                // the normal is the surface's outward normal at the hit: facing the ray, and the signed distance grows along it
                D2 q = { p.x + d.x * h.t, p.y + d.y * h.t };
                D2 out = { q.x + h.n.x * 1e-3, q.y + h.n.y * 1e-3 }, in = { q.x - h.n.x * 1e-3, q.y - h.n.y * 1e-3 };
                bool thin = (S.type == THC_CAPSULE && S.k.r == 0) || (S.type == THC_AABB && (S.b.min.x == S.b.max.x || S.b.min.y == S.b.max.y));
                if (h.n.x * d.x + h.n.y * d.y >= 0 || !(sdf(S, out) > 0.5e-3) || (!thin && !(sdf(S, in) < 0.5e-3))) { bad_n++; if (g_dumps++ < 12) { printf("ray n (%g,%g) t %g ray (%g,%g)+(%g,%g) sdf out %g in %g\n", h.n.x, h.n.y, h.t, ray.p.x, ray.p.y, ray.d.x, ray.d.y, sdf(S, out), sdf(S, in)); print_shape("S", S); } }
                if (S.type == THC_CIRCLE && S.c.r > 0) {
                    D2 g = sub(q, d2(S.c.p));
                    double gl = sqrt(dot(g, g));
                    if (fabs(g.x / gl - h.n.x) > 1e-3 || fabs(g.y / gl - h.n.y) > 1e-3) bad_n++;
                }
            }
        }
        TH_CHECK_MSG(bad_hit == 0 && bad_t == 0 && bad_n == 0, "rays vs %s: %d hit/miss, %d fraction, %d normal mistakes (%d hits)", type_name(TYPES[it]), bad_hit, bad_t, bad_n, hits);
        TH_CHECK(hits > 150);
    }
    // closed form for the circle: |p + d t - c| = r
    Rng r(4100);
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        thc_circle c = { { r.range(-5, 5), r.range(-5, 5) }, r.range(0.5f, 5) };
        thc_ray ray = { { r.range(-20, 20), r.range(-20, 20) }, { r.range(-1, 1), r.range(-1, 1) }, 40 };
        double mx = (double)ray.p.x - c.p.x, my = (double)ray.p.y - c.p.y;
        double A = (double)ray.d.x * ray.d.x + (double)ray.d.y * ray.d.y, Bq = mx * ray.d.x + my * ray.d.y, C = mx * mx + my * my - (double)c.r * c.r;
        double disc = Bq * Bq - A * C;
        thc_ray_hit h;
        int hit = thc_ray_to_circle(ray, &c, &h);
        if (C <= 0) { if (!hit || h.t != 0) bad++; continue; }
        double t = disc >= 0 && Bq < 0 ? (-Bq - sqrt(disc)) / A : -1;
        if (fabs(disc) < 1e-4 || fabs(t - ray.t) < 1e-3) continue;
        if (hit != (t >= 0 && t <= ray.t)) { bad++; continue; }
        if (hit && fabs(h.t - t) > 1e-4 * (1 + t)) bad++;
    }
    TH_CHECK_EQ_INT(bad, 0);
}

// ---------------------------------------------------------------- swept time of impact
static void test_toi(void)
{
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(5000 + ia * 4 + ib);
            int hits = 0, bad_touch = 0, bad_before = 0, bad_miss = 0;
            for (int i = 0; i < 600; i++) {
                Shape A = random_shape(r, TYPES[ia], 5, false), B = random_shape(r, TYPES[ib], 5, false);
                A.move(V(r.range(-40, 40), r.range(-40, 40)));
                thc_v2 va = { r.range(-80, 80), r.range(-80, 80) }, vb = { r.range(-20, 20), r.range(-20, 20) };
                if (i % 4 == 0) vb = V(0, 0);
                thc_toi_result t = thc_toi(A.ptr(), A.type, A.x(), va, B.ptr(), B.type, B.x(), vb);
                thc_v2 rel = { va.x - vb.x, va.y - vb.y };
                float speed = sqrtf(rel.x * rel.x + rel.y * rel.y);
                if (speed < 1e-3f) continue;
                float before = t.hit ? t.t - 0.01f / speed : 1.0f;
                // not touching anywhere on the path before t (sampled), and touching at t
                for (int k = 0; k <= 64; k++) {
                    float s = k / 64.0f;
                    if (s > before) break;
                    Shape P = A, Q = B;
                    P.move(V(va.x * s, va.y * s));
                    Q.move(V(vb.x * s, vb.y * s));
                    if (thc_overlap(P.ptr(), P.type, P.x(), Q.ptr(), Q.type, Q.x())) { (t.hit ? bad_before : bad_miss)++; break; }
                }
                if (!t.hit) continue;
                hits++;
                Shape P = A, Q = B;
                P.move(V(va.x * t.t, va.y * t.t));
                Q.move(V(vb.x * t.t, vb.y * t.t));
                float gap = thc_distance(P.ptr(), P.type, P.x(), Q.ptr(), Q.type, Q.x(), NULL, NULL);
                if (gap > 2 * THC_TOLERANCE + 1e-4f * speed) bad_touch++;
                if (before > 0) {
                    Shape P2 = A, Q2 = B;
                    P2.move(V(va.x * before, va.y * before));
                    Q2.move(V(vb.x * before, vb.y * before));
                    if (thc_overlap(P2.ptr(), P2.type, P2.x(), Q2.ptr(), Q2.type, Q2.x())) bad_before++;
                }
                if (!std::isfinite(t.n.x) || fabsf(t.n.x * t.n.x + t.n.y * t.n.y - 1) > 1e-3f) bad_touch++;
            }
            TH_CHECK_MSG(bad_touch == 0 && bad_before == 0 && bad_miss == 0, "toi %s-%s: %d not touching at t, %d touching before t, %d missed hits (%d hits)",
                         type_name(TYPES[ia]), type_name(TYPES[ib]), bad_touch, bad_before, bad_miss, hits);
            TH_CHECK(hits > 20);
        }
}

static float gap_at(const Shape &a, thc_v2 v, const Shape &b, float t)
{
    Shape p = a;
    p.move(V(v.x * t, v.y * t));
    return thc_distance(p.ptr(), p.type, p.x(), b.ptr(), b.type, b.x(), NULL, NULL);
}

static void test_toi_bullet_and_circle_helpers(void)
{
    // a fast bullet against a thin wall: no tunnelling
    thc_circle bullet = { { -500, 3 }, 1 };
    thc_aabb wall = { { 0, -50 }, { 0.5f, 50 } };
    thc_v2 vel = { 1000, 0 }, zero = { 0, 0 };
    thc_toi_result t = thc_toi(&bullet, THC_CIRCLE, NULL, vel, &wall, THC_AABB, NULL, zero);
    TH_CHECK(t.hit);
    TH_CHECK_NEAR(t.t, 0.499f, 2e-6f);
    TH_CHECK(t.n.x < -0.999f);
    thc_toi_result t2 = thc_toi_circle_aabb(&bullet, vel, &wall);
    TH_CHECK(t2.hit);
    TH_CHECK_NEAR(t2.t, 0.499f, 1e-6f);
    // the specialised circle sweeps agree with the general one
    Rng r(5500);
    int bad = 0;
    for (int i = 0; i < 1000; i++) {
        Shape A = random_shape(r, THC_CIRCLE, 5, false), B = random_shape(r, i % 3 == 0 ? THC_CIRCLE : i % 3 == 1 ? THC_AABB : THC_POLY, 5, false);
        A.move(V(r.range(-40, 40), r.range(-40, 40)));
        thc_v2 v = { r.range(-80, 80), r.range(-80, 80) };
        thc_toi_result g = thc_toi(A.ptr(), A.type, NULL, v, B.ptr(), B.type, B.x(), zero), s;
        if (B.type == THC_CIRCLE) s = thc_toi_circle_circle(&A.c, v, &B.c);
        else if (B.type == THC_AABB) s = thc_toi_circle_aabb(&A.c, v, &B.b);
        else s = thc_toi_circle_poly(&A.c, v, &B.p, &B.xf);
        if (g.hit != s.hit && fabsf(g.t - 1) > 1e-3f && fabsf(s.t - 1) > 1e-3f) { bad++; printf("toi hit g %d %g s %d %g\n", g.hit, g.t, s.hit, s.t); dump("toi", A, B); }
        else if (g.hit && s.hit && fabsf(g.t - s.t) * sqrtf(v.x * v.x + v.y * v.y) > 3 * THC_TOLERANCE &&
                 !(gap_at(A, v, B, g.t) <= 2 * THC_TOLERANCE && gap_at(A, v, B, s.t) <= 2 * THC_TOLERANCE && g.t <= s.t)) { bad++; printf("toi g %g s %g\n", g.t, s.t); dump("toi", A, B); }
    }
    TH_CHECK_EQ_INT(bad, 0);
}

// ---------------------------------------------------------------- degenerate and hand-picked cases
static void test_degenerate_cases(void)
{
    thc_manifold m;
    // coincident centres
    thc_circle c1 = { { 3, 4 }, 2 }, c2 = { { 3, 4 }, 1 };
    thc_circle_to_circle_manifold(&c1, &c2, &m);
    TH_CHECK(m.count == 1 && m.n.x == 1 && m.n.y == 0);
    TH_CHECK_NEAR(m.depths[0], 3, 1e-6f);
    // zero radii: touching points
    thc_circle z1 = { { 0, 0 }, 0 }, z2 = { { 0, 0 }, 0 };
    thc_circle_to_circle_manifold(&z1, &z2, &m);
    TH_CHECK(m.count == 1 && m.depths[0] == 0);
    thc_capsule zc = { { 1, 1 }, { 1, 1 }, 0 };   // a capsule of no length and no radius: a point
    thc_collide(&z1, THC_CIRCLE, NULL, &zc, THC_CAPSULE, NULL, &m);
    TH_CHECK(m.count == 0);
    zc.r = 2;
    thc_collide(&z1, THC_CIRCLE, NULL, &zc, THC_CAPSULE, NULL, &m);
    TH_CHECK(m.count == 1 && finite_manifold(m));
    TH_CHECK_NEAR(m.depths[0], 2 - sqrtf(2), 1e-5f);
    // circle centre inside an AABB, also exactly at its centre
    thc_aabb box = { { -2, -1 }, { 2, 1 } };
    thc_circle in = { { 1.5f, 0 }, 0.25f };
    thc_circle_to_aabb_manifold(&in, &box, &m);
    TH_CHECK(m.count == 1 && m.n.x == -1 && m.n.y == 0);
    TH_CHECK_NEAR(m.depths[0], 0.75f, 1e-6f);
    thc_circle mid = { { 0, 0 }, 0 };
    thc_circle_to_aabb_manifold(&mid, &box, &m);
    TH_CHECK(m.count == 1 && finite_manifold(m) && fabsf(m.n.y) == 1);
    TH_CHECK_NEAR(m.depths[0], 1, 1e-6f);
    // zero-area polygon: the hull refuses it; a hand-made one collides as the segment it spans
    thc_v2 line[3] = { { 0, 0 }, { 1, 0 }, { 3, 0 } };
    thc_poly flat;
    TH_CHECK(thc_make_poly(&flat, line, 3) == 0 && flat.count == 0);
    thc_collide(&c1, THC_CIRCLE, NULL, &flat, THC_POLY, NULL, &m);
    TH_CHECK(m.count == 0);
    flat.count = 3;
    memcpy(flat.verts, line, sizeof line);
    thc_poly_normals(&flat);
    thc_circle above = { { 2, 0.5f }, 1 }, beyond = { { 3.9f, 0 }, 1 }, away = { { 4.5f, 0 }, 1 };
    thc_collide(&above, THC_CIRCLE, NULL, &flat, THC_POLY, NULL, &m);
    TH_CHECK(m.count == 1 && finite_manifold(m) && m.n.y < -0.999f);
    TH_CHECK_NEAR(m.depths[0], 0.5f, 1e-5f);
    thc_collide(&beyond, THC_CIRCLE, NULL, &flat, THC_POLY, NULL, &m);
    TH_CHECK(m.count == 1 && m.n.x < -0.999f);
    TH_CHECK(!thc_overlap(&away, THC_CIRCLE, NULL, &flat, THC_POLY, NULL));
    // collinear capsules apart along their axis, and overlapping along it
    thc_capsule k1 = { { 0, 0 }, { 2, 0 }, 0.5f }, k2 = { { 3.5f, 0 }, { 5, 0 }, 0.25f }, k3 = { { 1, 0 }, { 5, 0 }, 0.25f };
    TH_CHECK(!thc_capsule_to_capsule(&k1, &k2));
    thc_capsule_to_capsule_manifold(&k1, &k3, &m);
    TH_CHECK(m.count >= 1 && finite_manifold(m) && fabsf(m.n.y) > 0.999f);
    TH_CHECK_NEAR(max_depth(m), 0.75f, 1e-5f);
    // parallel edges: a box resting on a box gives two contacts of equal depth
    thc_poly b1, b2;
    thc_make_box(&b1, 2, 1);
    thc_make_box(&b2, 1, 1);
    thc_transform x1 = thc_make_transform(V(0, 0), 0), x2 = thc_make_transform(V(0.5f, 1.9f), 0);
    thc_poly_to_poly_manifold(&b1, &x1, &b2, &x2, &m);
    TH_CHECK(m.count == 2 && m.n.y > 0.999f);
    TH_CHECK_NEAR(m.depths[0], 0.1f, 1e-5f);
    TH_CHECK_NEAR(m.depths[1], 0.1f, 1e-5f);
    TH_CHECK(fabsf(fabsf(m.contact_points[0].x - m.contact_points[1].x) - 2) < 1e-5f);
    // exactly touching counts, with depth 0
    x2.p.y = 2;
    thc_poly_to_poly_manifold(&b1, &x1, &b2, &x2, &m);
    TH_CHECK(m.count == 2 && m.depths[0] == 0 && m.depths[1] == 0);
    // identical polygons on top of each other
    thc_poly_to_poly_manifold(&b1, &x1, &b1, &x1, &m);
    TH_CHECK(m.count >= 1 && finite_manifold(m));
    TH_CHECK_NEAR(max_depth(m), 2, 1e-5f);
    // a rounded box (capsule lying flat on a box) gives two points
    thc_capsule lying = { { -1, 1.5f }, { 1, 1.5f }, 0.6f };
    thc_capsule_to_poly_manifold(&lying, &b1, &x1, &m);
    TH_CHECK(m.count == 2 && m.n.y < -0.999f);
    TH_CHECK_NEAR(m.depths[0], 0.1f, 1e-5f);
    // degenerate AABB (a point) and a NULL transform
    thc_aabb dot_box = { { 0.5f, 0.5f }, { 0.5f, 0.5f } };
    thc_collide(&dot_box, THC_AABB, NULL, &b1, THC_POLY, NULL, &m);
    TH_CHECK(m.count >= 1 && finite_manifold(m));
    // rays that start inside, have no length, or run along an edge
    thc_ray inside = { { 0, 0 }, { 1, 0 }, 5 }, nolen = { { 5, 5 }, { 0, 0 }, 1 }, along = { { -5, 1 }, { 1, 0 }, 10 };
    thc_ray_hit h;
    TH_CHECK(thc_ray_to_poly(inside, &b1, NULL, &h) && h.t == 0 && h.n.x == -1);
    TH_CHECK(!thc_ray_to_poly(nolen, &b1, NULL, &h));
    TH_CHECK(thc_ray_to_aabb(along, &box, &h) && h.t == 3);
    thc_capsule seg = { { 0, -1 }, { 0, 1 }, 0 };   // a segment is a capsule of radius 0
    thc_ray cross = { { -3, 0 }, { 1, 0 }, 10 };
    TH_CHECK(thc_ray_to_capsule(cross, &seg, &h) && h.t == 3 && h.n.x == -1);
    // segment helpers
    float ta, tb;
    thc_v2 p;
    TH_CHECK(thc_segment_intersect(V(0, 0), V(2, 2), V(0, 2), V(2, 0), &ta, &tb, &p));
    TH_CHECK_NEAR(ta, 0.5f, 1e-6f);
    TH_CHECK_NEAR(tb, 0.5f, 1e-6f);
    TH_CHECK_NEAR(p.x, 1, 1e-6f);
    TH_CHECK(!thc_segment_intersect(V(0, 0), V(1, 0), V(0, 1), V(1, 1), NULL, NULL, NULL));   // parallel
    TH_CHECK(thc_segment_intersect(V(0, 0), V(2, 0), V(1, 0), V(3, 0), NULL, NULL, NULL));    // collinear overlap
    TH_CHECK(thc_segment_intersect(V(0, 0), V(1, 0), V(1, 0), V(1, 5), NULL, NULL, NULL));    // touching ends
    thc_v2 qa, qb;
    TH_CHECK_NEAR(thc_segment_closest(V(0, 0), V(4, 0), V(1, 1), V(3, 1), &qa, &qb), 1, 1e-6f);
    TH_CHECK_NEAR(thc_segment_closest(V(0, 0), V(0, 0), V(3, 4), V(3, 4), &qa, &qb), 5, 1e-6f);
    thc_v2 cs = thc_closest_on_segment(V(5, 5), V(0, 0), V(2, 0));
    TH_CHECK(cs.x == 2 && cs.y == 0);
    thc_v2 ca = thc_closest_on_aabb(V(5, 0.5f), &box);
    TH_CHECK(ca.x == 2 && ca.y == 0.5f);
    thc_v2 cc = thc_closest_on_circle(V(3, 8), &c1);
    TH_CHECK_NEAR(cc.x, 3, 1e-6f);
    TH_CHECK_NEAR(cc.y, 6, 1e-6f);
    // the hull: any order, interior points dropped, counter-clockwise with outward normals
    thc_v2 cloud[7] = { { 1, 1 }, { 0, 0 }, { 2, 0 }, { 0.5f, 0.5f }, { 2, 2 }, { 0, 2 }, { 1, 0 } };
    thc_poly hull;
    TH_CHECK_EQ_INT(thc_make_poly(&hull, cloud, 7), 4);
    for (int i = 0; i < hull.count; i++) {
        thc_v2 a = hull.verts[i], b = hull.verts[(i + 1) % hull.count];
        TH_CHECK((b.x - a.x) * (1 - a.y) - (b.y - a.y) * (1 - a.x) > 0);   // centre on the left
        TH_CHECK(hull.norms[i].x * 1 + hull.norms[i].y * 1 != 0);
    }
}

// Nearly equal axes: two squares, one turned by +-1e-4 rad and slid sideways. The reference face
// and the contact points must not jump from frame to frame.
static void test_no_jitter(void)
{
    thc_poly sq;
    thc_make_box(&sq, 1, 1);
    thc_transform a = thc_make_transform(V(0, 0), 0);
    thc_v2 first_n = { 0, 0 };
    int flips = 0;
    for (int frame = 0; frame < 200; frame++) {
        float wobble = (frame & 1) ? 1e-4f : -1e-4f;
        thc_transform b = thc_make_transform(V(0.3f + frame * 1e-4f, 1.95f), wobble);
        thc_manifold m;
        thc_poly_to_poly_manifold(&sq, &a, &sq, &b, &m);
        TH_CHECK(m.count == 2);
        if (frame == 0) first_n = m.n;
        else if (m.n.x * first_n.x + m.n.y * first_n.y < 0.999f) flips++;
    }
    TH_CHECK_EQ_INT(flips, 0);
    // a square sitting corner-to-corner so both polygons' faces give the same depth: stays on A's face
    thc_transform c = thc_make_transform(V(1.9f, 1.9f), 0);
    thc_manifold m0, m1;
    thc_poly_to_poly_manifold(&sq, &a, &sq, &c, &m0);
    c.p.x += 1e-5f;
    thc_poly_to_poly_manifold(&sq, &a, &sq, &c, &m1);
    TH_CHECK(m0.count >= 1 && m1.count >= 1 && m0.n.x * m1.n.x + m0.n.y * m1.n.y > 0.999f);
}

// ---------------------------------------------------------------- pixel masks
static void test_masks(void)
{
    Rng r(6000);
    const int W = 70, H = 45;
    static uint8_t img[2][W * H * 4];
    static uint32_t mem[2][4096];
    thc_mask *mk[2];
    for (int k = 0; k < 2; k++) {
        memset(img[k], 0, sizeof img[k]);
        for (int blob = 0; blob < 3; blob++) {   // a few discs of alpha
            float cx = r.range(0, W), cy = r.range(0, H), rad = r.range(3, 12);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < rad * rad) img[k][(y * W + x) * 4 + 3] = (uint8_t)r.irange(100, 255);
        }
        TH_CHECK(thc_mask_bytes(W, H) <= sizeof mem[k]);
        TH_CHECK(thc_mask_make(mem[k], 10, img[k], W, H, W * 4, 0) == NULL);   // too small: refused
        mk[k] = thc_mask_make(mem[k], sizeof mem[k], img[k], W, H, W * 4, 160);
        TH_CHECK(mk[k] != NULL);
        if (!mk[k]) return;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                TH_CHECK(thc_mask_get(mk[k], x, y) == (img[k][(y * W + x) * 4 + 3] >= 160));
    }
    int bad = 0, hits = 0;
    for (int i = 0; i < 3000; i++) {
        int ax = r.irange(-1000, 1000), ay = r.irange(-1000, 1000);
        int bx = ax + r.irange(-W - 2, W + 2), by = ay + r.irange(-H - 2, H + 2);
        int hx = 0, hy = 0;
        int lib = thc_mask_overlap(mk[0], ax, ay, mk[1], bx, by, &hx, &hy);
        int ref = 0;
        for (int y = 0; y < H && !ref; y++)
            for (int x = 0; x < W && !ref; x++)
                if (img[0][(y * W + x) * 4 + 3] >= 160) {
                    int u = ax + x - bx, v = ay + y - by;
                    if (u >= 0 && v >= 0 && u < W && v < H && img[1][(v * W + u) * 4 + 3] >= 160) ref = 1;
                }
        if (lib != ref) bad++;
        if (lib) {
            hits++;
            if (!thc_mask_get(mk[0], hx - ax, hy - ay) || !thc_mask_get(mk[1], hx - bx, hy - by)) bad++;
        }
    }
    TH_CHECK_EQ_INT(bad, 0);
    TH_CHECK(hits > 300 && hits < 2900);
}

// ---------------------------------------------------------------- broadphase
typedef std::set<std::pair<uint32_t, uint32_t> > PairSet;

static void test_grid_pairs_vs_brute(void)
{
    static unsigned char mem[1 << 21];
    const float offsets[3][2] = { { 0, 0 }, { 100000, -100000 }, { -100000.5f, 99999.25f } };
    for (int scene = 0; scene < 6; scene++) {
        Rng r(7000 + scene);
        int n = 200 + scene * 150;
        thc_grid_desc d = { scene % 2 ? 16.0f : 40.0f, n };
        TH_CHECK(thc_grid_bytes(&d) <= sizeof mem);
        thc_grid *g = thc_grid_init(mem, sizeof mem, &d);
        TH_CHECK(g != NULL);
        if (!g) return;
        std::vector<thc_aabb> boxes((size_t)n);
        std::vector<thc_v2> pos((size_t)n), vel((size_t)n), half((size_t)n);
        const float *off = offsets[scene % 3];
        for (int i = 0; i < n; i++) {
            pos[i] = V(off[0] + r.range(0, 600), off[1] + r.range(0, 400));
            vel[i] = V(r.range(-6, 6), r.range(-6, 6));
            float s = r.f01() < 0.03f ? r.range(60, 200) : r.range(1, 14);   // a few bodies big enough for the large list
            half[i] = V(s * r.range(0.3f, 1), s * r.range(0.3f, 1));
        }
        for (int frame = 0; frame < 8; frame++) {
            thc_grid_clear(g);
            for (int i = 0; i < n; i++) {
                pos[i].x += vel[i].x;
                pos[i].y += vel[i].y;
                boxes[i].min = V(pos[i].x - half[i].x, pos[i].y - half[i].y);
                boxes[i].max = V(pos[i].x + half[i].x, pos[i].y + half[i].y);
                TH_CHECK(thc_grid_insert(g, (uint32_t)(i * 3 + 1), boxes[i]));
            }
            TH_CHECK_EQ_INT(thc_grid_count(g), n);
            static thc_pair pairs[200000];
            int np = thc_grid_pairs(g, pairs, 200000);
            PairSet got, want;
            bool order_ok = true;
            for (int k = 0; k < np; k++) {
                got.insert(std::make_pair(pairs[k].a, pairs[k].b));
                if (pairs[k].a >= pairs[k].b) order_ok = false;   // ids grow with insertion order here
            }
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++)
                    if (thc_aabb_to_aabb(&boxes[i], &boxes[j])) want.insert(std::make_pair((uint32_t)(i * 3 + 1), (uint32_t)(j * 3 + 1)));
            TH_CHECK_MSG(got == want && (int)got.size() == np, "scene %d frame %d: %d pairs (%d unique) vs %d brute force", scene, frame, np, (int)got.size(), (int)want.size());
            TH_CHECK(order_ok);
            TH_CHECK(want.size() > (size_t)n / 4);
            // a capped call returns exactly the cap
            if (np > 10) TH_CHECK_EQ_INT(thc_grid_pairs(g, pairs, 10), 10);
        }
        // AABB queries, small and huge
        for (int q = 0; q < 200; q++) {
            thc_aabb box;
            float w = q % 20 == 0 ? 5000.0f : r.range(0, 80);
            box.min = V(off[0] + r.range(-50, 650), off[1] + r.range(-50, 450));
            box.max = V(box.min.x + w, box.min.y + r.range(0, 80));
            static uint32_t ids[4096];
            int k = thc_grid_query_aabb(g, box, ids, 4096);
            std::set<uint32_t> got(ids, ids + k), want;
            for (int i = 0; i < n; i++)
                if (thc_aabb_to_aabb(&boxes[i], &box)) want.insert((uint32_t)(i * 3 + 1));
            TH_CHECK(got == want && (int)got.size() == k);
        }
        // ray queries, nearest first
        int bad = 0;
        for (int q = 0; q < 200; q++) {
            thc_ray ray;
            ray.p = V(off[0] + r.range(-50, 650), off[1] + r.range(-50, 450));
            float a = r.range(0, 6.2831853f);
            ray.d = V(cosf(a), sinf(a));
            ray.t = q % 10 == 0 ? 3000.0f : r.range(0, 300);
            uint32_t ids[512];
            int k = thc_grid_query_ray(g, ray, ids, 512);
            std::set<uint32_t> got(ids, ids + k);
            if ((int)got.size() != k) bad++;
            double last = -1;
            for (int i = 0; i < k; i++) {
                double t;
                int idx = (int)(ids[i] - 1) / 3;
                if (!ray_slab(d2(ray.p), d2(ray.d), ray.t, boxes[idx], &t)) { bad++; continue; }
                if (t < last - 1e-3) bad++;
                last = t;
            }
            for (int i = 0; i < n; i++) {
                double t;
                thc_aabb grown = boxes[i], shrunk = boxes[i];
                grown.min.x -= 1e-2f; grown.min.y -= 1e-2f; grown.max.x += 1e-2f; grown.max.y += 1e-2f;
                shrunk.min.x += 1e-2f; shrunk.min.y += 1e-2f; shrunk.max.x -= 1e-2f; shrunk.max.y -= 1e-2f;
                bool in_got = got.count((uint32_t)(i * 3 + 1)) > 0;
                if (in_got && !ray_slab(d2(ray.p), d2(ray.d), ray.t, grown, &t)) bad++;
                if (!in_got && shrunk.min.x < shrunk.max.x && shrunk.min.y < shrunk.max.y && ray_slab(d2(ray.p), d2(ray.d), ray.t - 1e-2, shrunk, &t)) bad++;
            }
        }
        TH_CHECK_EQ_INT(bad, 0);
    }
}

static void test_grid_relocatable_and_full(void)
{
    static unsigned char mem_a[1 << 16], mem_b[1 << 16];
    thc_grid_desc d = { 10, 32 };
    thc_grid *g = thc_grid_init(mem_a, sizeof mem_a, &d);
    TH_CHECK(g != NULL);
    TH_CHECK(thc_grid_init(mem_a, 100, &d) == NULL);
    if (!g) return;
    for (int i = 0; i < 32; i++) {
        thc_aabb b = { { i * 5.0f, 0 }, { i * 5.0f + 6, 6 } };
        TH_CHECK(thc_grid_insert(g, (uint32_t)i, b));
    }
    thc_aabb extra = { { 0, 0 }, { 1, 1 } };
    TH_CHECK(thc_grid_insert(g, 99, extra) == 0);   // full
    thc_pair p1[64], p2[64];
    int n1 = thc_grid_pairs(g, p1, 64);
    TH_CHECK_EQ_INT(n1, 31);
    // the grid holds offsets, not pointers: a byte copy elsewhere answers the same
    memcpy(mem_b, mem_a, sizeof mem_a);
    memset(mem_a, 0xCD, sizeof mem_a);
    thc_grid *h = (thc_grid *)mem_b;
    int n2 = thc_grid_pairs(h, p2, 64);
    TH_CHECK(n1 == n2 && memcmp(p1, p2, sizeof(thc_pair) * (size_t)n1) == 0);
    uint32_t ids[8];
    thc_aabb q = { { 12, 2 }, { 13, 3 } };
    TH_CHECK_EQ_INT(thc_grid_query_aabb(h, q, ids, 8), 1);
    thc_ray ray = { { -10, 3 }, { 1, 0 }, 40 };
    int k = thc_grid_query_ray(h, ray, ids, 8);
    TH_CHECK(k == 7 && ids[0] == 0 && ids[1] == 1 && ids[6] == 6);
    thc_grid_clear(h);
    TH_CHECK(thc_grid_pairs(h, p2, 64) == 0 && thc_grid_count(h) == 0);
}

#define TH_RUN_FRESH(fn) do { g_dumps = 0; TH_RUN(fn); } while (0)
// Circle-circle and circle-box contact points lie midway between the circle's deepest point (centre + n r)
// and the other surface's (the other circle's centre - n r; the box's closest point to the centre, or, with
// the centre inside, its projection on the face the normal leaves through), in both argument orders.
static void test_circle_contacts_midway(void)
{
    Rng r(7300);
    int bad = 0, touching = 0, inside = 0;
    for (int i = 0; i < 8000; i++) {
        thc_circle c = { V(r.range(-10, 10), r.range(-10, 10)), r.range(0.5f, 6) };
        thc_manifold m, mr;
        thc_v2 other;
        if (i % 2) {
            thc_circle d = { V(c.p.x + r.range(-10, 10), c.p.y + r.range(-10, 10)), r.range(0.5f, 6) };
            thc_collide(&c, THC_CIRCLE, NULL, &d, THC_CIRCLE, NULL, &m);
            thc_collide(&d, THC_CIRCLE, NULL, &c, THC_CIRCLE, NULL, &mr);
            other = V(d.p.x - m.n.x * d.r, d.p.y - m.n.y * d.r);
        } else {
            float cx = c.p.x + r.range(-10, 10), cy = c.p.y + r.range(-10, 10), hw = r.range(0.5f, 8), hh = r.range(0.5f, 8);
            thc_aabb b = { V(cx - hw, cy - hh), V(cx + hw, cy + hh) };
            thc_collide(&c, THC_CIRCLE, NULL, &b, THC_AABB, NULL, &m);
            thc_collide(&b, THC_AABB, NULL, &c, THC_CIRCLE, NULL, &mr);
            bool in = c.p.x >= b.min.x && c.p.x <= b.max.x && c.p.y >= b.min.y && c.p.y <= b.max.y;
            inside += in && m.count;
            other = in ? V(m.n.x > 0 ? b.min.x : m.n.x < 0 ? b.max.x : c.p.x, m.n.y > 0 ? b.min.y : m.n.y < 0 ? b.max.y : c.p.y)
                       : V(fmaxf(b.min.x, fminf(c.p.x, b.max.x)), fmaxf(b.min.y, fminf(c.p.y, b.max.y)));
        }
        if (m.count != mr.count) { bad++; continue; }
        if (!m.count) continue;
        touching++;
        thc_v2 want = V(0.5f * (c.p.x + m.n.x * c.r + other.x), 0.5f * (c.p.y + m.n.y * c.r + other.y));
        float e = fabsf(m.contact_points[0].x - want.x) + fabsf(m.contact_points[0].y - want.y);
        float er = fabsf(mr.contact_points[0].x - want.x) + fabsf(mr.contact_points[0].y - want.y);
        if (e > 1e-4f || er > 1e-4f || fabsf(mr.n.x + m.n.x) > 1e-6f || fabsf(mr.n.y + m.n.y) > 1e-6f) bad++;
    }
    TH_CHECK_MSG(bad == 0 && touching > 2000 && inside > 100, "circle contacts midway: %d wrong of %d touching (%d inside a box)", bad, touching, inside);
}

// Overlapping shapes are at distance 0, at a point both shapes hold (pa == pb): on every road, near the origin and
// far from it, with shapes that merely touch and shapes that overlap deeply.
static void test_touching_distance_is_a_common_point(void)
{
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 4; ib++) {
            Rng r(2900 + ia * 4 + ib);
            int checked = 0, bad = 0;
            for (int i = 0; i < 3000; i++) {
                Shape A = random_shape(r, TYPES[ia], 4, i % 2 == 0), B = random_shape(r, TYPES[ib], 4, i % 2 == 0);
                if (i % 4 == 1) { A.move(V(1e5f, -1e5f)); B.move(V(1e5f, -1e5f)); }
                thc_manifold m;
                thc_collide(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &m);
                if (!m.count) continue;
                thc_v2 pa, pb;
                float d = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
                checked++;
                double tol = 1e-5 * (8 + fabs(pa.x) + fabs(pa.y));   // the point is rounded to float
                double ea = sdf(A, d2(pa)), eb = sdf(B, d2(pa));
                if (d != 0 || pa.x != pb.x || pa.y != pb.y || !(ea <= tol) || !(eb <= tol)) {
                    if (bad++ == 0) { dump("touching distance", A, B); printf("  d %g at (%g, %g) / (%g, %g), outside A by %g, B by %g\n", d, pa.x, pa.y, pb.x, pb.y, ea, eb); }
                }
            }
            TH_CHECK_MSG(bad == 0 && checked > 300, "%s-%s: %d of %d touching pairs not at distance 0 at a point of both",
                         type_name(TYPES[ia]), type_name(TYPES[ib]), bad, checked);
        }
}

// A polygon with (almost) no area takes the general road. Shapes touching it by their radius alone (their
// cores apart) are at distance 0 at a point of both: on the sliver, within the radius.
static void test_touching_flat_polygon_common_point(void)
{
    Shape F;
    memset(&F, 0, sizeof F);
    F.type = THC_POLY;
    thc_v2 sliver[3] = { V(0, 0), V(10, 0), V(5, 5e-6f) };
    TH_CHECK(thc_make_poly(&F.p, sliver, 3) == 3);
    F.xf = thc_make_transform(V(3, -2), 0.4f);
    int bad = 0, cases = 0;
    for (int i = 0; i < 40; i++) {
        Shape R;
        memset(&R, 0, sizeof R);
        thc_v2 above = thc_mul_xf(F.xf, V(0.5f + 0.2f * i, 0.5f + 0.01f * i));
        if (i % 2 == 0) { R.type = THC_CIRCLE; R.c.p = above; R.c.r = 0.6f + 0.01f * i; }
        else { R.type = THC_CAPSULE; R.k.a = above; R.k.b = thc_mul_xf(F.xf, V(0.9f + 0.2f * i, 0.8f + 0.01f * i)); R.k.r = 0.6f + 0.01f * i; }
        for (int swap = 0; swap < 2; swap++) {
            const Shape &A = swap ? F : R, &B = swap ? R : F;
            thc_v2 pa, pb;
            float d = thc_distance(A.ptr(), A.type, A.x(), B.ptr(), B.type, B.x(), &pa, &pb);
            cases++;
            if (d != 0 || pa.x != pb.x || pa.y != pb.y || !(sdf(A, d2(pa)) <= 1e-4) || !(sdf(B, d2(pa)) <= 1e-4)) {
                if (bad++ == 0) { dump("flat polygon touching", A, B); printf("  d %g at (%g, %g)\n", d, pa.x, pa.y); }
            }
        }
    }
    TH_CHECK_MSG(bad == 0, "%d of %d shapes touching a flat polygon not at 0 at a point of both", bad, cases);
}

int main(void)
{
    TH_RUN_FRESH(test_pairs_properties);
    TH_RUN_FRESH(test_pairs_sampling_oracle);
    TH_RUN_FRESH(test_circle_contacts_midway);
    TH_RUN_FRESH(test_far_from_origin);
    TH_RUN_FRESH(test_rays);
    TH_RUN_FRESH(test_toi);
    TH_RUN_FRESH(test_toi_bullet_and_circle_helpers);
    TH_RUN_FRESH(test_degenerate_cases);
    TH_RUN_FRESH(test_no_jitter);
    TH_RUN_FRESH(test_touching_distance_is_a_common_point);
    TH_RUN_FRESH(test_touching_flat_polygon_common_point);
    TH_RUN_FRESH(test_masks);
    TH_RUN_FRESH(test_grid_pairs_vs_brute);
    TH_RUN_FRESH(test_grid_relocatable_and_full);
    return th_test_finish();
}
