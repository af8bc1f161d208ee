/* th_collide.h beside Box2D 2.4.1 (Debian's libbox2d-dev), on the same seeded pools, with an exact oracle.
   Anyone can rerun it: ./build.sh bench (it installs libbox2d-dev), or alone:
       g++ -O2 -DNDEBUG -Itinyheaders tests/bench/bench_collide_box2d24.cpp -lbox2d -o b && ./b
   Box2D 2.4 has circles and polygons, no capsule: the pairs are circle, aabb (a box polygon for Box2D) and poly
   (3-6 vertex hulls or boxes at random angles), every ordered pair but circle first against a polygon where
   2.4's function wants the polygon first (the wrapper swaps the pair and turns the normal round). Queries:
     overlap   thc_overlap                     b2TestOverlap
     manifold  thc_collide                     b2CollideCircles / b2CollidePolygonAndCircle / b2CollidePolygons,
                                               then b2WorldManifold::Initialize (points and normal in the world)
     distance  thc_distance                    b2DistanceProxy::Set x2 + b2Distance (useRadii, empty cache)
     ray       thc_raycast                     b2Shape::RayCast (p1 = start, p2 = start + d * length)
     toi       thc_toi (B still)               b2TimeOfImpact (sweeps without rotation, tMax 1)
   Box2D's shapes are built once per pool entry, as th's are: a circle at its centre, an aabb as SetAsBox at its
   centre, a polygon from th's local vertices with th's transform (b2Rot's c and s set to th's). A polygon's skin
   (m_radius, b2_polygonRadius = 0.01) is set to 0 so both libraries answer the same shapes.
   Pools (seeded, 512 entries; 4096 for the oracle count): overlap, manifold and distance half overlapping and
   half apart (by the oracle), each half half near the origin and half at +-1e5; rays start 30 units out aimed
   near the shape; TOI movers start 45 units out aimed at a still target, half at +-1e5 for the oracle and all
   near the origin for the time: at +-1e5 b2TimeOfImpact ends e_failed on about half of the pairs (its target,
   a quarter of b2_linearSlop, is below the rounding of such coordinates) after about a millisecond each, which
   would make the time a count of failures.
   The oracle (double precision, on the float inputs): both shapes' cores (a circle's centre, a box's corners, a
   polygon's world vertices taken in double from its float transform), the Minkowski difference's hull grown by
   the radius. An answer is wrong when it misses the oracle by more than tol = 1e-4 + 4e-7 * (the largest
   coordinate) (the inputs' own rounding at 1e5 is 4e-3): overlap against the sign of the exact depth (pairs
   within tol of touching are not counted); a manifold's count, its deepest point's depth (A's face may stay the
   reference over a better B face by 0.5% + 5e-4, as both libraries do) and its normal (the push along it must
   separate: the Minkowski support along n equals the depth); distance; a ray's hit and entry; a TOI's hit and
   the gap at its time (within 0.02: th stops 5e-4 short of the touch, Box2D's target is b2_linearSlop apart for
   polygons and 3 b2_linearSlop deep for circles; grazing passes within tol are not counted).
   Metrics: collide_vs_box2d24_<query>_<a>_<b>_x = th's time per call / Box2D's (median of repeats, both on the
   same pool in turn), with both times as ..._th_ns and ..._box2d24_ns; collide_wrong_th and collide_wrong_box2d24
   (wrong answers over every query and pair), collide_wrong_checked (answers checked per library).
   BENCH_QUICK=1: 3 repeats of 2 loops and a 1024-entry oracle pool (seconds); the same metrics. */
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"
#include "bench_time.h"

#include <box2d/box2d.h>
#include <box2d/b2_distance.h>
#include <box2d/b2_time_of_impact.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>

// ---------------------------------------------------------------- seeded numbers
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint32_t u32() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 16); }
    float range(float a, float b) { return a + (b - a) * (float)(u32() & 0xFFFFFF) / 16777216.0f; }
};
static thc_v2 V(float x, float y) { thc_v2 r = { x, y }; return r; }

// ---------------------------------------------------------------- one shape, both libraries
struct Shape {
    thc_type type;
    thc_circle c; thc_aabb b; thc_poly p; thc_transform xf;
    b2CircleShape bc; b2PolygonShape bp; b2Transform bx;
    const void *ptr() const { return type == THC_CIRCLE ? (const void *)&c : type == THC_AABB ? (const void *)&b : (const void *)&p; }
    const thc_transform *x() const { return type == THC_POLY ? &xf : NULL; }
    const b2Shape *b2() const { return type == THC_CIRCLE ? (const b2Shape *)&bc : (const b2Shape *)&bp; }
};

static void to_box2d(Shape &s)
{
    if (s.type == THC_CIRCLE) {
        s.bc.m_p.Set(0, 0);
        s.bc.m_radius = s.c.r;
        s.bx.p.Set(s.c.p.x, s.c.p.y);
        s.bx.q.SetIdentity();
    } else if (s.type == THC_AABB) {
        s.bp.SetAsBox(0.5f * (s.b.max.x - s.b.min.x), 0.5f * (s.b.max.y - s.b.min.y));
        s.bp.m_radius = 0;
        s.bx.p.Set(0.5f * (s.b.min.x + s.b.max.x), 0.5f * (s.b.min.y + s.b.max.y));
        s.bx.q.SetIdentity();
    } else {
        b2Vec2 v[b2_maxPolygonVertices];
        for (int i = 0; i < s.p.count; i++) v[i].Set(s.p.verts[i].x, s.p.verts[i].y);
        s.bp.Set(v, s.p.count);
        s.bp.m_radius = 0;
        s.bx.p.Set(s.xf.p.x, s.xf.p.y);
        s.bx.q.c = s.xf.c;
        s.bx.q.s = s.xf.s;
    }
}

static Shape make_shape(Rng &r, thc_type t, float cx, float cy)
{
    Shape s;
    memset((void *)&s, 0, sizeof s);
    new (&s.bc) b2CircleShape();
    new (&s.bp) b2PolygonShape();
    s.type = t;
    s.xf = thc_make_transform(V(0, 0), 0);
    if (t == THC_CIRCLE) { s.c.p = V(cx, cy); s.c.r = r.range(2, 6); }
    else if (t == THC_AABB) { float hw = r.range(2, 8), hh = r.range(2, 8); s.b.min = V(cx - hw, cy - hh); s.b.max = V(cx + hw, cy + hh); }
    else {
        if (r.u32() % 2) thc_make_box(&s.p, r.range(3, 8), r.range(3, 8));
        else {
            thc_v2 pts[6];
            for (int i = 0; i < 6; i++) pts[i] = V(r.range(-8, 8), r.range(-8, 8));
            if (!thc_make_poly(&s.p, pts, 6)) thc_make_box(&s.p, 5, 5);
        }
        s.xf = thc_make_transform(V(cx, cy), r.range(-3.14f, 3.14f));
    }
    to_box2d(s);
    return s;
}

static void shift(Shape &s, float o)
{
    s.c.p.x += o; s.c.p.y += o; s.b.min.x += o; s.b.min.y += o; s.b.max.x += o; s.b.max.y += o;
    s.xf.p.x += o; s.xf.p.y += o;
    to_box2d(s);
}

// ---------------------------------------------------------------- Box2D 2.4.1, one call per query
static int b2_overlap(const Shape &a, const Shape &b) { return b2TestOverlap(a.b2(), 0, b.b2(), 0, a.bx, b.bx); }

// thc_manifold's form: normal from A to B, world points, depths (b2's separations negated)
static void b2_manifold(const Shape &a, const Shape &b, thc_manifold *out)
{
    b2Manifold m;
    bool flip = false;
    const Shape *A = &a, *B = &b;
    if (a.type == THC_CIRCLE && b.type == THC_CIRCLE) b2CollideCircles(&m, &a.bc, a.bx, &b.bc, b.bx);
    else if (a.type == THC_CIRCLE) { b2CollidePolygonAndCircle(&m, &b.bp, b.bx, &a.bc, a.bx); flip = true; A = &b; B = &a; }
    else if (b.type == THC_CIRCLE) b2CollidePolygonAndCircle(&m, &a.bp, a.bx, &b.bc, b.bx);
    else b2CollidePolygons(&m, &a.bp, a.bx, &b.bp, b.bx);
    out->count = m.pointCount;
    if (!m.pointCount) return;
    b2WorldManifold wm;
    wm.Initialize(&m, A->bx, A->b2()->m_radius, B->bx, B->b2()->m_radius);
    out->n = flip ? V(-wm.normal.x, -wm.normal.y) : V(wm.normal.x, wm.normal.y);
    for (int i = 0; i < m.pointCount; i++) {
        out->depths[i] = -wm.separations[i];
        out->contact_points[i] = V(wm.points[i].x, wm.points[i].y);
    }
}

static float b2_distance(const Shape &a, const Shape &b, thc_v2 *pa, thc_v2 *pb)
{
    b2DistanceInput in;
    in.proxyA.Set(a.b2(), 0);
    in.proxyB.Set(b.b2(), 0);
    in.transformA = a.bx;
    in.transformB = b.bx;
    in.useRadii = true;
    b2SimplexCache cache;
    cache.count = 0;
    b2DistanceOutput out;
    b2Distance(&out, &cache, &in);
    *pa = V(out.pointA.x, out.pointA.y);
    *pb = V(out.pointB.x, out.pointB.y);
    return out.distance;
}

static int b2_ray(const thc_ray &r, const Shape &s, thc_ray_hit *h)
{
    b2RayCastInput in;
    in.p1.Set(r.p.x, r.p.y);
    in.p2.Set(r.p.x + r.d.x * r.t, r.p.y + r.d.y * r.t);
    in.maxFraction = 1;
    b2RayCastOutput out;
    if (!s.b2()->RayCast(&out, in, s.bx, 0)) return 0;
    h->t = out.fraction * r.t;
    h->n = V(out.normal.x, out.normal.y);
    return 1;
}

static thc_toi_result b2_toi(const Shape &a, thc_v2 va, const Shape &b)
{
    b2TOIInput in;
    in.proxyA.Set(a.b2(), 0);
    in.proxyB.Set(b.b2(), 0);
    float aa = a.bx.q.GetAngle(), ab = b.bx.q.GetAngle();
    in.sweepA.localCenter.SetZero();
    in.sweepA.c0 = a.bx.p;
    in.sweepA.c = a.bx.p + b2Vec2(va.x, va.y);
    in.sweepA.a0 = in.sweepA.a = aa;
    in.sweepA.alpha0 = 0;
    in.sweepB.localCenter.SetZero();
    in.sweepB.c0 = in.sweepB.c = b.bx.p;
    in.sweepB.a0 = in.sweepB.a = ab;
    in.sweepB.alpha0 = 0;
    in.tMax = 1;
    b2TOIOutput out;
    b2TimeOfImpact(&out, &in);
    thc_toi_result r;
    memset(&r, 0, sizeof r);
    r.hit = out.state == b2TOIOutput::e_touching;
    r.t = out.t;
    return r;
}

// ---------------------------------------------------------------- the exact oracle
struct D2 { double x, y; };
static D2 d2(double x, double y) { D2 r = { x, y }; return r; }
static D2 sub(D2 a, D2 b) { return d2(a.x - b.x, a.y - b.y); }
static double dot(D2 a, D2 b) { return a.x * b.x + a.y * b.y; }
static double cross(D2 a, D2 b) { return a.x * b.y - a.y * b.x; }
static double len(D2 a) { return sqrt(dot(a, a)); }

static int core(const Shape &s, D2 *out, double *r)
{
    *r = 0;
    if (s.type == THC_CIRCLE) { out[0] = d2(s.c.p.x, s.c.p.y); *r = s.c.r; return 1; }
    if (s.type == THC_AABB) {
        out[0] = d2(s.b.min.x, s.b.min.y); out[1] = d2(s.b.max.x, s.b.min.y); out[2] = d2(s.b.max.x, s.b.max.y); out[3] = d2(s.b.min.x, s.b.max.y);
        return 4;
    }
    for (int i = 0; i < s.p.count; i++) {
        double vx = s.p.verts[i].x, vy = s.p.verts[i].y;
        out[i] = d2((double)s.xf.c * vx - (double)s.xf.s * vy + s.xf.p.x, (double)s.xf.s * vx + (double)s.xf.c * vy + s.xf.p.y);
    }
    return s.p.count;
}

// A - B: the hull of the cores' differences (counter-clockwise), grown by r
struct Mink { int n; D2 v[THC_MAX_POLY_VERTS * THC_MAX_POLY_VERTS]; double r; };
static Mink minkowski(const Shape &A, const Shape &B)
{
    D2 a[THC_MAX_POLY_VERTS], b[THC_MAX_POLY_VERTS];
    double ra, rb;
    int na = core(A, a, &ra), nb = core(B, b, &rb), np = 0;
    D2 pts[THC_MAX_POLY_VERTS * THC_MAX_POLY_VERTS], h[2 * THC_MAX_POLY_VERTS * THC_MAX_POLY_VERTS + 1];
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) pts[np++] = sub(a[i], b[j]);
    std::sort(pts, pts + np, [](D2 p, D2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
    int k = 0;
    for (int i = 0; i < np; i++) {
        while (k >= 2 && cross(sub(h[k - 1], h[k - 2]), sub(pts[i], h[k - 2])) <= 0) k--;
        h[k++] = pts[i];
    }
    for (int i = np - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && cross(sub(h[k - 1], h[k - 2]), sub(pts[i], h[k - 2])) <= 0) k--;
        h[k++] = pts[i];
    }
    Mink m;
    m.r = ra + rb;
    m.n = np == 1 ? 1 : k - 1;
    for (int i = 0; i < m.n; i++) m.v[i] = np == 1 ? pts[0] : h[i];
    return m;
}

static double support(const Mink &m, D2 n)
{
    double s = -1e300;
    for (int i = 0; i < m.n; i++) s = std::max(s, dot(m.v[i], n));
    return s + m.r * len(n);
}

// signed distance from x to the grown hull (negative inside)
static double sdist(const Mink &m, D2 x)
{
    if (m.n >= 3) {
        bool inside = true;
        double best_in = 1e300;
        for (int i = 0; i < m.n; i++) {
            D2 a = m.v[i], e = sub(m.v[(i + 1) % m.n], a);
            double s = cross(e, sub(x, a)) / -len(e);   // outward normal (e.y, -e.x)
            if (s > 0) inside = false;
            best_in = std::min(best_in, -s);
        }
        if (inside) return -best_in - m.r;
    }
    double best = 1e300;
    int edges = m.n >= 3 ? m.n : m.n - 1;
    if (edges <= 0) best = len(sub(x, m.v[0]));
    for (int i = 0; i < edges; i++) {
        D2 a = m.v[i], e = sub(m.v[(i + 1) % m.n], a);
        double t = std::max(0.0, std::min(1.0, dot(sub(x, a), e) / dot(e, e)));
        best = std::min(best, len(sub(x, d2(a.x + e.x * t, a.y + e.y * t))));
    }
    return best - m.r;
}

// first t in [0, tmax] where p + d t enters the grown hull (-1: never), by stepping and bisection on sdist,
// which is 1-Lipschitz along a unit d: a step of the current distance never jumps over the surface
static double enter(const Mink &m, D2 p, D2 d, double tmax, double tol)
{
    double dl = len(d), t = 0;
    for (int i = 0; i < 100000 && t <= tmax; i++) {
        double s = sdist(m, d2(p.x + d.x * t, p.y + d.y * t));
        if (s <= 0.01 * tol) return t;
        t += std::max(s, 0.1 * tol) / dl;
    }
    return -1;
}

// the least signed distance along p + d t, t in [0, tmax] (convex along a line: ternary search)
static double line_min(const Mink &m, D2 p, D2 d, double tmax)
{
    double lo = 0, hi = tmax;
    for (int i = 0; i < 100; i++) {
        double t1 = lo + (hi - lo) / 3, t2 = hi - (hi - lo) / 3;
        if (sdist(m, d2(p.x + d.x * t1, p.y + d.y * t1)) < sdist(m, d2(p.x + d.x * t2, p.y + d.y * t2))) hi = t2; else lo = t1;
    }
    return sdist(m, d2(p.x + d.x * lo, p.y + d.y * lo));
}

static double coord_max(const Shape &s)
{
    thc_aabb b = thc_shape_aabb(s.ptr(), s.type, s.x());
    return std::max(std::max(fabs(b.min.x), fabs(b.max.x)), std::max(fabs(b.min.y), fabs(b.max.y)));
}
static double tol_of(const Shape &a, const Shape &b) { return 1e-4 + 4e-7 * std::max(coord_max(a), coord_max(b)); }

// ---------------------------------------------------------------- checks: 1 when the answer is wrong
static int wrong_overlap(const Mink &m, double tol, int got)
{
    double depth = -sdist(m, d2(0, 0));
    return fabs(depth) > tol && (depth > 0) != (got != 0);
}

static int wrong_manifold(const Mink &m, double tol, const thc_manifold &man)
{
    double depth = -sdist(m, d2(0, 0));
    if (fabs(depth) <= tol) return 0;
    if ((depth > 0) != (man.count > 0)) return 1;
    if (!man.count) return 0;
    double got = man.depths[0];
    for (int i = 1; i < man.count; i++) got = std::max(got, (double)man.depths[i]);
    D2 n = d2(man.n.x, man.n.y);
    double ln = len(n);
    if (!(ln > 0.5)) return 1;
    n = d2(n.x / ln, n.y / ln);
    if (got < depth - tol || got > depth * (1 + 5e-3) + 5e-4 + tol) return 1;
    return support(m, n) - got > tol;
}

static int wrong_distance(const Mink &m, double tol, float got)
{
    double depth = -sdist(m, d2(0, 0));
    return !(fabs((double)got - std::max(0.0, -depth)) <= tol);
}

// the ray against the shape: the shape minus a point at the origin is the shape itself
static int wrong_ray(const Shape &s, const thc_ray &r, double tol, int hit, const thc_ray_hit &h)
{
    Shape pt;
    memset((void *)&pt, 0, sizeof pt);
    pt.type = THC_CIRCLE;
    Mink m = minkowski(s, pt);
    D2 p = d2(r.p.x, r.p.y), d = d2(r.d.x, r.d.y);
    double t = enter(m, p, d, r.t, tol);
    if (fabs(line_min(m, p, d, r.t)) <= 4 * tol) return 0;   // a grazing ray is not counted
    if ((t >= 0) != (hit != 0)) return 1;
    return hit && fabs(h.t - t) > 4 * tol;
}

static int wrong_toi(const Mink &m, thc_v2 va, double tol, const thc_toi_result &r)
{
    // A moved by va t touches B when va t enters -(A - B) ... : A + va t - B contains 0  <=>  -va t in (A - B)
    D2 d = d2(-(double)va.x, -(double)va.y);
    double t = enter(m, d2(0, 0), d, 1, tol);
    if (fabs(line_min(m, d2(0, 0), d, 1)) <= 4 * tol) return 0;   // a grazing pass is not counted
    if ((t >= 0) != (r.hit != 0)) return 1;
    // the gap at the answered time: th stops 5e-4 short, Box2D's target leaves rounded shapes 3 b2_linearSlop deep
    return r.hit && fabs(sdist(m, d2(d.x * r.t, d.y * r.t))) > 0.02 + tol;
}

// ---------------------------------------------------------------- pools
struct Pool { std::vector<Shape> A, B; std::vector<thc_v2> vel; std::vector<thc_ray> rays; };

static Pool make_pool(thc_type ta, thc_type tb, int n, uint32_t seed)
{
    Pool p;
    Rng r(seed);
    while ((int)p.A.size() < n) {   // half overlapping, half apart (by the oracle), half of each at +-1e5
        int i = (int)p.A.size();
        Shape a = make_shape(r, ta, r.range(-20, 20), r.range(-20, 20)), b = make_shape(r, tb, r.range(-20, 20), r.range(-20, 20));
        double depth = -sdist(minkowski(a, b), d2(0, 0));
        if ((depth > 0) != (i % 2 == 0) || fabs(depth) < 1e-3) continue;
        float o = (i / 2) % 2 ? ((i / 4) % 2 ? 1e5f : -1e5f) : 0;
        shift(a, o); shift(b, o);
        p.A.push_back(a); p.B.push_back(b);
    }
    return p;
}

static Pool make_toi_pool(thc_type ta, thc_type tb, int n, uint32_t seed, bool far_half)
{
    Pool p;
    Rng r(seed);
    for (int i = 0; i < n; i++) {
        float ang = r.range(0, 6.28f), o = far_half && i % 2 ? (i % 4 == 1 ? 1e5f : -1e5f) : 0;
        Shape a = make_shape(r, ta, 45 * cosf(ang), 45 * sinf(ang)), b = make_shape(r, tb, r.range(-6, 6), r.range(-6, 6));
        shift(a, o); shift(b, o);
        p.A.push_back(a); p.B.push_back(b);
        p.vel.push_back(V(-45 * cosf(ang) * r.range(0.6f, 1.6f) + r.range(-8, 8), -45 * sinf(ang) * r.range(0.6f, 1.6f) + r.range(-8, 8)));
    }
    return p;
}

static Pool make_ray_pool(thc_type t, int n, uint32_t seed)
{
    Pool p;
    Rng r(seed);
    for (int i = 0; i < n; i++) {
        p.A.push_back(make_shape(r, t, r.range(-6, 6), r.range(-6, 6)));
        float ang = r.range(0, 6.28f);
        thc_v2 d = V(-cosf(ang) + r.range(-0.3f, 0.3f), -sinf(ang) + r.range(-0.3f, 0.3f));
        float l = sqrtf(d.x * d.x + d.y * d.y);
        thc_ray ray = { V(30 * cosf(ang), 30 * sinf(ang)), V(d.x / l, d.y / l), 60 };
        p.rays.push_back(ray);
    }
    return p;
}

static float consume(const thc_manifold &m)
{
    float s = 0;
    for (int k = 0; k < m.count; k++) s += m.depths[k] + m.contact_points[k].x + m.contact_points[k].y;
    return m.count ? s + m.n.x + m.n.y : 0;
}

template <typename F> static double ns_per_call(int reps, int calls, F f)
{
    std::vector<double> v;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ms();
        f();
        v.push_back((bench_now_ms() - t0) * 1e6 / calls);
    }
    return bench_median(v);
}

static const char *name(thc_type t) { return t == THC_CIRCLE ? "circle" : t == THC_AABB ? "aabb" : "poly"; }

int main(void)
{
    const bool quick = getenv("BENCH_QUICK") && atoi(getenv("BENCH_QUICK")) > 0;
    const int REPS = quick ? 3 : 15, LOOPS = quick ? 2 : 20, POOL = 512, ORACLE = quick ? 1024 : 4096;
    const thc_type T[3] = { THC_CIRCLE, THC_AABB, THC_POLY };
    volatile float sink = 0;
    long wrong_th = 0, wrong_b2 = 0, checked = 0;
    std::string out;
    char buf[256];
    auto put = [&](const char *q, const char *pair, double th, double b2) {
        snprintf(buf, sizeof buf, "%s\"collide_vs_box2d24_%s_%s_x\": %.3f, \"collide_vs_box2d24_%s_%s_th_ns\": %.1f, \"collide_vs_box2d24_%s_%s_box2d24_ns\": %.1f",
                 out.empty() ? "" : ", ", q, pair, th / b2, q, pair, th, q, pair, b2);
        out += buf;
        fprintf(stderr, "  %-8s %-12s th %7.1f ns  box2d 2.4.1 %7.1f ns  %.3fx\n", q, pair, th, b2, th / b2);
    };
    for (int ia = 0; ia < 3; ia++)
        for (int ib = 0; ib < 3; ib++) {
            char pair[32];
            snprintf(pair, sizeof pair, "%s_%s", name(T[ia]), name(T[ib]));
            // agreement with the oracle, on its own (larger) pools
            Pool o = make_pool(T[ia], T[ib], ORACLE, 777 + 4 * ia + ib);
            int w[2][3] = { { 0, 0, 0 }, { 0, 0, 0 } };
            for (int i = 0; i < ORACLE; i++) {
                const Shape &a = o.A[i], &b = o.B[i];
                Mink m = minkowski(a, b);
                double tol = tol_of(a, b);
                thc_manifold mt, mb;
                thc_v2 pa, pb;
                thc_collide(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), &mt);
                b2_manifold(a, b, &mb);
                w[0][0] += wrong_overlap(m, tol, thc_overlap(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x()));
                w[1][0] += wrong_overlap(m, tol, b2_overlap(a, b));
                w[0][1] += wrong_manifold(m, tol, mt);
                w[1][1] += wrong_manifold(m, tol, mb);
                w[0][2] += wrong_distance(m, tol, thc_distance(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), &pa, &pb));
                w[1][2] += wrong_distance(m, tol, b2_distance(a, b, &pa, &pb));
            }
            Pool ot = make_toi_pool(T[ia], T[ib], ORACLE / 4, 1777 + 4 * ia + ib, true);
            int wt[2] = { 0, 0 };
            for (int i = 0; i < ORACLE / 4; i++) {
                const Shape &a = ot.A[i], &b = ot.B[i];
                Mink m = minkowski(a, b);
                double tol = tol_of(a, b);
                wt[0] += wrong_toi(m, ot.vel[i], tol, thc_toi(a.ptr(), a.type, a.x(), ot.vel[i], b.ptr(), b.type, b.x(), V(0, 0)));
                wt[1] += wrong_toi(m, ot.vel[i], tol, b2_toi(a, ot.vel[i], b));
            }
            checked += 3 * ORACLE + ORACLE / 4;
            for (int k = 0; k < 2; k++) (k ? wrong_b2 : wrong_th) += w[k][0] + w[k][1] + w[k][2] + wt[k];
            fprintf(stderr, "%s: wrong (overlap, manifold, distance, toi) th %d %d %d %d, box2d 2.4.1 %d %d %d %d\n", pair,
                    w[0][0], w[0][1], w[0][2], wt[0], w[1][0], w[1][1], w[1][2], wt[1]);

            // time per call, th then Box2D on the same pool
            Pool p = make_pool(T[ia], T[ib], POOL, 9090 + 4 * ia + ib);
            const int calls = POOL * LOOPS;
            double th = ns_per_call(REPS, calls, [&] {
                int s = 0;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += thc_overlap(p.A[i].ptr(), p.A[i].type, p.A[i].x(), p.B[i].ptr(), p.B[i].type, p.B[i].x());
                sink = sink + (float)s;
            });
            double b2 = ns_per_call(REPS, calls, [&] {
                int s = 0;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += b2_overlap(p.A[i], p.B[i]);
                sink = sink + (float)s;
            });
            put("overlap", pair, th, b2);
            th = ns_per_call(REPS, calls, [&] {
                float s = 0;
                thc_manifold m;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) { thc_collide(p.A[i].ptr(), p.A[i].type, p.A[i].x(), p.B[i].ptr(), p.B[i].type, p.B[i].x(), &m); s += consume(m); }
                sink = sink + s;
            });
            b2 = ns_per_call(REPS, calls, [&] {
                float s = 0;
                thc_manifold m;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) { b2_manifold(p.A[i], p.B[i], &m); s += consume(m); }
                sink = sink + s;
            });
            put("manifold", pair, th, b2);
            th = ns_per_call(REPS, calls, [&] {
                float s = 0;
                thc_v2 qa, qb;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += thc_distance(p.A[i].ptr(), p.A[i].type, p.A[i].x(), p.B[i].ptr(), p.B[i].type, p.B[i].x(), &qa, &qb) + qa.x + qb.y;
                sink = sink + s;
            });
            b2 = ns_per_call(REPS, calls, [&] {
                float s = 0;
                thc_v2 qa, qb;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += b2_distance(p.A[i], p.B[i], &qa, &qb) + qa.x + qb.y;
                sink = sink + s;
            });
            put("distance", pair, th, b2);
            Pool pt = make_toi_pool(T[ia], T[ib], POOL, 5150 + 4 * ia + ib, false);   // timed near the origin: see the top
            th = ns_per_call(REPS, calls, [&] {
                float s = 0;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) {
                        thc_toi_result r = thc_toi(pt.A[i].ptr(), pt.A[i].type, pt.A[i].x(), pt.vel[i], pt.B[i].ptr(), pt.B[i].type, pt.B[i].x(), V(0, 0));
                        s += r.t + (float)r.hit;
                    }
                sink = sink + s;
            });
            b2 = ns_per_call(REPS, calls, [&] {
                float s = 0;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) { thc_toi_result r = b2_toi(pt.A[i], pt.vel[i], pt.B[i]); s += r.t + (float)r.hit; }
                sink = sink + s;
            });
            put("toi", pair, th, b2);
        }
    for (int it = 0; it < 3; it++) {   // rays, one shape type each
        Pool o = make_ray_pool(T[it], ORACLE, 2777 + it);
        int w[2] = { 0, 0 };
        for (int i = 0; i < ORACLE; i++) {
            thc_ray_hit h;
            double tol = 1e-4 + 4e-7 * std::max(coord_max(o.A[i]), 30.0);
            int hit = thc_raycast(o.rays[i], o.A[i].ptr(), o.A[i].type, o.A[i].x(), &h);
            w[0] += wrong_ray(o.A[i], o.rays[i], tol, hit, h);
            hit = b2_ray(o.rays[i], o.A[i], &h);
            w[1] += wrong_ray(o.A[i], o.rays[i], tol, hit, h);
        }
        checked += ORACLE;
        wrong_th += w[0];
        wrong_b2 += w[1];
        fprintf(stderr, "ray %s: wrong th %d, box2d 2.4.1 %d\n", name(T[it]), w[0], w[1]);
        Pool p = make_ray_pool(T[it], POOL, 3777 + it);
        const int calls = POOL * LOOPS;
        double th = ns_per_call(REPS, calls, [&] {
            float s = 0;
            thc_ray_hit h;
            for (int l = 0; l < LOOPS; l++)
                for (int i = 0; i < POOL; i++) if (thc_raycast(p.rays[i], p.A[i].ptr(), p.A[i].type, p.A[i].x(), &h)) s += h.t + h.n.x;
            sink = sink + s;
        });
        double b2 = ns_per_call(REPS, calls, [&] {
            float s = 0;
            thc_ray_hit h;
            for (int l = 0; l < LOOPS; l++)
                for (int i = 0; i < POOL; i++) if (b2_ray(p.rays[i], p.A[i], &h)) s += h.t + h.n.x;
            sink = sink + s;
        });
        char pair[32];
        snprintf(pair, sizeof pair, "%s_%s", name(T[it]), name(T[it]));
        put("ray", pair, th, b2);
    }
    fprintf(stderr, "bench_collide_box2d24: %ld answers checked per library, wrong: th %ld, box2d 2.4.1 %ld (sink %g)\n", checked, wrong_th,
            wrong_b2, (double)sink);
    printf("{%s, \"collide_wrong_th\": %ld, \"collide_wrong_box2d24\": %ld, \"collide_wrong_checked\": %ld}\n", out.c_str(), wrong_th, wrong_b2, checked);
    return 0;
}
