/* th_collide.h benchmarks, medians of repeats on one core.
   broadphase_10k_ms: 10,000 moving bodies (mostly 4-24 units across, 2% up to 120) in a 3000x3000
   world, about a fifth of it covered; per frame: clear the grid, insert every body, list every
   overlapping pair. broadphase_brute_10k_ms: the same pairs by testing every pair of boxes.
   *_manifold_ns: one manifold call on a pool of random pairs (about 5/6 overlap), every field of the
   answer summed into a sink; poly_poly pairs 3-6 vertex hulls with boxes, obb_obb is boxes only.
   collide_<query>_<a>_<b>_ns: one call of every query (overlap, manifold, distance, toi) for every pair of
   shape types through the any-pair entry points, and collide_ray_<shape>_ns, on seeded pools of 1024
   inputs: overlap/manifold pools mostly touch, distance pools mostly apart, TOI movers start ~45 units
   away aimed at a still target (about two thirds hit), rays start 30 units out aimed near the shape.
   collide_distance_mixed_<a>_<b>_ns: thc_distance on a seeded pool half overlapping and half apart, half near
   the origin and half at +-1e5. */
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"
#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include <algorithm>
#include <string>
#include <vector>


static float frand(float a, float b) { return a + (b - a) * (float)rand() / (float)RAND_MAX; }
static thc_v2 V(float x, float y) { thc_v2 r = { x, y }; return r; }

struct Body { thc_v2 p, v, half; };

static void step(std::vector<Body> &bodies, std::vector<thc_aabb> &boxes, float world)
{
    for (size_t i = 0; i < bodies.size(); i++) {
        Body &b = bodies[i];
        b.p.x += b.v.x; b.p.y += b.v.y;
        if (b.p.x < 0 || b.p.x > world) b.v.x = -b.v.x;
        if (b.p.y < 0 || b.p.y > world) b.v.y = -b.v.y;
        boxes[i].min = V(b.p.x - b.half.x, b.p.y - b.half.y);
        boxes[i].max = V(b.p.x + b.half.x, b.p.y + b.half.y);
    }
}

static int brute_pairs(const std::vector<thc_aabb> &boxes, thc_pair *out, int max_pairs)
{
    int n = (int)boxes.size(), count = 0;
    for (int i = 0; i < n; i++) {
        thc_aabb a = boxes[(size_t)i];
        for (int j = i + 1; j < n; j++) {
            const thc_aabb &b = boxes[(size_t)j];
            if (a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y && count < max_pairs) {
                out[count].a = (uint32_t)i;
                out[count].b = (uint32_t)j;
                count++;
            }
        }
    }
    return count;
}

// Everything a manifold holds feeds the sink, so an inlined call cannot drop the parts nobody reads.
static float consume(const thc_manifold &m)
{
    float s = 0;
    for (int k = 0; k < m.count; k++) s += m.depths[k] + m.contact_points[k].x + m.contact_points[k].y;
    return m.count ? s + m.n.x + m.n.y : 0;
}

template <typename F> static double time_ns_per_call(int calls, F f)
{
    std::vector<double> reps;
    for (int r = 0; r < bench_runs(15, 3); r++) {
        double t0 = bench_now_ms();
        f();
        reps.push_back((bench_now_ms() - t0) * 1e6 / calls);
    }
    return bench_median(reps);
}

// ---------------------------------------------------------------- every query, every pair
struct Shape {
    thc_type type;
    thc_circle c; thc_aabb b; thc_capsule k; thc_poly p; thc_transform xf;
    const void *ptr() const { return type == THC_CIRCLE ? (const void *)&c : type == THC_AABB ? (const void *)&b : type == THC_CAPSULE ? (const void *)&k : (const void *)&p; }
    const thc_transform *x() const { return type == THC_POLY ? &xf : NULL; }
};

static Shape make_shape(thc_type t, float cx, float cy)
{
    Shape s;
    memset(&s, 0, sizeof s);
    s.type = t;
    s.xf = thc_make_transform(V(0, 0), 0);
    if (t == THC_CIRCLE) { s.c.p = V(cx, cy); s.c.r = frand(2, 6); }
    else if (t == THC_AABB) { float hw = frand(2, 8), hh = frand(2, 8); s.b.min = V(cx - hw, cy - hh); s.b.max = V(cx + hw, cy + hh); }
    else if (t == THC_CAPSULE) {
        float a = frand(0, 6.28f), l = frand(2, 10);
        s.k.a = V(cx - cosf(a) * l, cy - sinf(a) * l); s.k.b = V(cx + cosf(a) * l, cy + sinf(a) * l); s.k.r = frand(1, 4);
    } else {
        if (rand() % 2) thc_make_box(&s.p, frand(3, 8), frand(3, 8));
        else {
            thc_v2 pts[6];
            for (int i = 0; i < 6; i++) pts[i] = V(frand(-8, 8), frand(-8, 8));
            if (!thc_make_poly(&s.p, pts, 6)) thc_make_box(&s.p, 5, 5);
        }
        s.xf = thc_make_transform(V(cx, cy), frand(-3.14f, 3.14f));
    }
    return s;
}

static void shift(Shape &s, float o)
{
    s.c.p.x += o; s.c.p.y += o; s.b.min.x += o; s.b.min.y += o; s.b.max.x += o; s.b.max.y += o;
    s.k.a.x += o; s.k.a.y += o; s.k.b.x += o; s.k.b.y += o; s.xf.p.x += o; s.xf.p.y += o;
}

static const char *shape_name(thc_type t) { return t == THC_CIRCLE ? "circle" : t == THC_AABB ? "aabb" : t == THC_CAPSULE ? "capsule" : "poly"; }

// Appends "collide_<query>_<pair>_ns": value pairs to out.
static void bench_every_pair(std::string &out, volatile float &sink)
{
    const int POOL = 1024, LOOPS = 20;
    const thc_type T[4] = { THC_CIRCLE, THC_AABB, THC_CAPSULE, THC_POLY };
    char key[96], buf[160];
    for (int ia = 0; ia < 4; ia++)
        for (int ib = ia; ib < 4; ib++) {
            srand(4242 + ia * 4 + ib);
            std::vector<Shape> A, B, FA, FB, M;
            std::vector<thc_v2> vel;
            for (int i = 0; i < POOL; i++) {
                A.push_back(make_shape(T[ia], frand(-6, 6), frand(-6, 6)));
                B.push_back(make_shape(T[ib], frand(-6, 6), frand(-6, 6)));
                FA.push_back(make_shape(T[ia], frand(-20, 20), frand(-20, 20)));
                FB.push_back(make_shape(T[ib], frand(-20, 20), frand(-20, 20)));
                float ang = frand(0, 6.28f);
                M.push_back(make_shape(T[ia], 45 * cosf(ang), 45 * sinf(ang)));
                vel.push_back(V(-45 * cosf(ang) * frand(0.6f, 1.6f) + frand(-8, 8), -45 * sinf(ang) * frand(0.6f, 1.6f) + frand(-8, 8)));
            }
            const char *pa = shape_name(T[ia]), *pb = shape_name(T[ib]);
            double ns[4];
            ns[0] = time_ns_per_call(POOL * LOOPS, [&] {
                int s = 0;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += thc_overlap(A[i].ptr(), A[i].type, A[i].x(), B[i].ptr(), B[i].type, B[i].x());
                sink = sink + (float)s;
            });
            ns[1] = time_ns_per_call(POOL * LOOPS, [&] {
                float s = 0;
                thc_manifold m = {};
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) { thc_collide(A[i].ptr(), A[i].type, A[i].x(), B[i].ptr(), B[i].type, B[i].x(), &m); s += consume(m); }
                sink = sink + s;
            });
            ns[2] = time_ns_per_call(POOL * LOOPS, [&] {
                float s = 0;
                thc_v2 qa, qb;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += thc_distance(FA[i].ptr(), FA[i].type, FA[i].x(), FB[i].ptr(), FB[i].type, FB[i].x(), &qa, &qb) + qa.x + qb.y;
                sink = sink + s;
            });
            ns[3] = time_ns_per_call(POOL * LOOPS, [&] {
                float s = 0;
                thc_v2 still = V(0, 0);
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) {
                        thc_toi_result r = thc_toi(M[i].ptr(), M[i].type, M[i].x(), vel[i], B[i].ptr(), B[i].type, B[i].x(), still);
                        s += r.t + r.n.x + r.p.y;
                    }
                sink = sink + s;
            });
            // the mixed pool (seeded): half of the pairs overlapping and half apart, half of each near the origin
            // and half at +-1e5, so neither the apart nor the overlapping answer hides the other
            std::vector<Shape> XA, XB;
            srand(9090 + ia * 4 + ib);
            while ((int)XA.size() < POOL) {
                int i = (int)XA.size();
                Shape a = make_shape(T[ia], frand(-20, 20), frand(-20, 20)), b = make_shape(T[ib], frand(-20, 20), frand(-20, 20));
                if ((thc_overlap(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x()) != 0) != (i % 2 == 0)) continue;
                float o = (i / 2) % 2 ? ((i / 4) % 2 ? 1e5f : -1e5f) : 0;
                shift(a, o); shift(b, o);
                XA.push_back(a); XB.push_back(b);
            }
            double mixed = time_ns_per_call(POOL * LOOPS, [&] {
                float s = 0;
                thc_v2 qa, qb;
                for (int l = 0; l < LOOPS; l++)
                    for (int i = 0; i < POOL; i++) s += thc_distance(XA[i].ptr(), XA[i].type, XA[i].x(), XB[i].ptr(), XB[i].type, XB[i].x(), &qa, &qb) + qa.x + qb.y;
                sink = sink + s;
            });
            snprintf(buf, sizeof buf, ", \"collide_distance_mixed_%s_%s_ns\": %.1f", pa, pb, mixed);
            out += buf;
            const char *q[4] = { "overlap", "manifold", "distance", "toi" };
            for (int k = 0; k < 4; k++) {
                snprintf(key, sizeof key, "collide_%s_%s_%s_ns", q[k], pa, pb);
                snprintf(buf, sizeof buf, ", \"%s\": %.1f", key, ns[k]);
                out += buf;
            }
            if (ia == ib) {
                std::vector<thc_ray> rays;
                for (int i = 0; i < POOL; i++) {
                    float ang = frand(0, 6.28f);
                    thc_v2 d = V(-cosf(ang) + frand(-0.3f, 0.3f), -sinf(ang) + frand(-0.3f, 0.3f));
                    float l = sqrtf(d.x * d.x + d.y * d.y);
                    thc_ray r = { V(30 * cosf(ang), 30 * sinf(ang)), V(d.x / l, d.y / l), 60 };
                    rays.push_back(r);
                }
                double rn = time_ns_per_call(POOL * LOOPS, [&] {
                    float s = 0;
                    thc_ray_hit h;
                    for (int l = 0; l < LOOPS; l++)
                        for (int i = 0; i < POOL; i++) if (thc_raycast(rays[i], A[i].ptr(), A[i].type, A[i].x(), &h)) s += h.t + h.n.x;
                    sink = sink + s;
                });
                snprintf(buf, sizeof buf, ", \"collide_ray_%s_ns\": %.1f", pa, rn);
                out += buf;
            }
        }
}

int main(void)
{
    srand(12345);
    const int N = 10000, FRAMES = 101;
    const float WORLD = 3000;
    std::vector<Body> bodies((size_t)N);
    std::vector<thc_aabb> boxes((size_t)N);
    for (Body &b : bodies) {
        b.p = V(frand(0, WORLD), frand(0, WORLD));
        b.v = V(frand(-3, 3), frand(-3, 3));
        float s = rand() % 50 == 0 ? frand(30, 60) : frand(2, 12);
        b.half = V(s * frand(0.6f, 1), s * frand(0.6f, 1));
    }
    thc_grid_desc d = { 32, N };
    std::vector<unsigned char> mem(thc_grid_bytes(&d));
    thc_grid *g = thc_grid_init(mem.data(), mem.size(), &d);
    static thc_pair pairs[1 << 20];
    std::vector<double> grid_ms, brute_ms;
    int grid_count = 0, brute_count = 0;
    for (int f = 0; f < FRAMES; f++) {
        step(bodies, boxes, WORLD);
        double t0 = bench_now_ms();
        thc_grid_clear(g);
        for (int i = 0; i < N; i++) thc_grid_insert(g, (uint32_t)i, boxes[(size_t)i]);
        grid_count = thc_grid_pairs(g, pairs, 1 << 20);
        grid_ms.push_back(bench_now_ms() - t0);
        if (f % 20 == 0) {
            double t1 = bench_now_ms();
            brute_count = brute_pairs(boxes, pairs, 1 << 20);
            brute_ms.push_back(bench_now_ms() - t1);
            if (brute_count != grid_count) { fprintf(stderr, "bench_collide: grid %d pairs, brute force %d\n", grid_count, brute_count); return 1; }
        }
    }

    // narrow phase pools
    const int POOL = 1024, LOOPS = 200;
    std::vector<thc_poly> polys((size_t)POOL * 2);
    std::vector<thc_transform> xfs((size_t)POOL * 2);
    std::vector<thc_circle> circles((size_t)POOL * 2);
    std::vector<thc_capsule> caps((size_t)POOL);
    for (int i = 0; i < POOL * 2; i++) {
        if (i % 2) thc_make_box(&polys[(size_t)i], frand(4, 10), frand(4, 10));
        else {
            thc_v2 pts[6];
            for (int k = 0; k < 6; k++) pts[k] = V(frand(-8, 8), frand(-8, 8));
            if (!thc_make_poly(&polys[(size_t)i], pts, 6)) thc_make_box(&polys[(size_t)i], 5, 5);
        }
        xfs[(size_t)i] = thc_make_transform(V(frand(-8, 8), frand(-8, 8)), frand(-3.14f, 3.14f));
        circles[(size_t)i].p = V(frand(-8, 8), frand(-8, 8));
        circles[(size_t)i].r = frand(2, 6);
    }
    for (int i = 0; i < POOL; i++) {
        thc_v2 c = V(frand(-8, 8), frand(-8, 8));
        float a = frand(0, 6.28f), l = frand(2, 10);
        caps[(size_t)i].a = V(c.x - cosf(a) * l, c.y - sinf(a) * l);
        caps[(size_t)i].b = V(c.x + cosf(a) * l, c.y + sinf(a) * l);
        caps[(size_t)i].r = frand(1, 4);
    }
    volatile float sink = 0;
    int touching = 0;
    double pp_ns = time_ns_per_call(POOL * LOOPS, [&] {
        float s = 0;
        thc_manifold m = {};   // every call rewrites what consume() reads
        for (int l = 0; l < LOOPS; l++)
            for (int i = 0; i < POOL; i++) {
                thc_poly_to_poly_manifold(&polys[(size_t)i * 2], &xfs[(size_t)i * 2], &polys[(size_t)i * 2 + 1], &xfs[(size_t)i * 2 + 1], &m);
                s += consume(m);
            }
        sink = sink + s;
    });
    // the same with oriented boxes only (every pair has 4 + 4 vertices)
    std::vector<thc_poly> boxes_only((size_t)POOL * 2);
    for (int i = 0; i < POOL * 2; i++) thc_make_box(&boxes_only[(size_t)i], frand(4, 10), frand(4, 10));
    double obb_ns = time_ns_per_call(POOL * LOOPS, [&] {
        float s = 0;
        thc_manifold m = {};   // every call rewrites what consume() reads
        for (int l = 0; l < LOOPS; l++)
            for (int i = 0; i < POOL; i++) {
                thc_poly_to_poly_manifold(&boxes_only[(size_t)i * 2], &xfs[(size_t)i * 2], &boxes_only[(size_t)i * 2 + 1], &xfs[(size_t)i * 2 + 1], &m);
                s += consume(m);
            }
        sink = sink + s;
    });
    double cc_ns = time_ns_per_call(POOL * LOOPS, [&] {
        float s = 0;
        thc_manifold m = {};   // every call rewrites what consume() reads
        for (int l = 0; l < LOOPS; l++)
            for (int i = 0; i < POOL; i++) {
                thc_circle_to_circle_manifold(&circles[(size_t)i * 2], &circles[(size_t)i * 2 + 1], &m);
                s += consume(m);
            }
        sink = sink + s;
    });
    double kp_ns = time_ns_per_call(POOL * LOOPS, [&] {
        float s = 0;
        thc_manifold m = {};   // every call rewrites what consume() reads
        for (int l = 0; l < LOOPS; l++)
            for (int i = 0; i < POOL; i++) {
                thc_capsule_to_poly_manifold(&caps[(size_t)i], &polys[(size_t)i * 2], &xfs[(size_t)i * 2], &m);
                s += consume(m);
            }
        sink = sink + s;
    });
    for (int i = 0; i < POOL; i++) {
        thc_manifold m;
        thc_poly_to_poly_manifold(&polys[(size_t)i * 2], &xfs[(size_t)i * 2], &polys[(size_t)i * 2 + 1], &xfs[(size_t)i * 2 + 1], &m);
        touching += m.count > 0;
    }
    double grid = bench_median(grid_ms), brute = bench_median(brute_ms);
    fprintf(stderr, "bench_collide: %d pairs among %d bodies; %d of %d poly pairs touch (sink %g)\n", grid_count, N, touching, POOL, (double)sink);
    std::string every;
    bench_every_pair(every, sink);
    printf("{\"broadphase_10k_ms\": %.4f, \"broadphase_brute_10k_ms\": %.3f, \"broadphase_vs_brute_x\": %.1f, "
           "\"poly_poly_manifold_ns\": %.1f, \"obb_obb_manifold_ns\": %.1f, \"circle_circle_manifold_ns\": %.1f, \"capsule_poly_manifold_ns\": %.1f%s}\n",
           grid, brute, brute / grid, pp_ns, obb_ns, cc_ns, kp_ns, every.c_str());
    return 0;
}
