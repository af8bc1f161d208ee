/* th_collide.h benchmarks, medians of repeats on one core.
   broadphase_10k_ms: 10,000 moving bodies (mostly 4-24 units across, 2% up to 120) in a 3000x3000
   world, about a fifth of it covered; per frame: clear the grid, insert every body, list every
   overlapping pair. broadphase_brute_10k_ms: the same pairs by testing every pair of boxes.
   *_manifold_ns: one manifold call on a pool of random pairs (about 5/6 overlap), every field of the
   answer summed into a sink; poly_poly pairs 3-6 vertex hulls with boxes, obb_obb is boxes only. */
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

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
    for (int r = 0; r < 15; r++) {
        double t0 = now_ms();
        f();
        reps.push_back((now_ms() - t0) * 1e6 / calls);
    }
    return median(reps);
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
        double t0 = now_ms();
        thc_grid_clear(g);
        for (int i = 0; i < N; i++) thc_grid_insert(g, (uint32_t)i, boxes[(size_t)i]);
        grid_count = thc_grid_pairs(g, pairs, 1 << 20);
        grid_ms.push_back(now_ms() - t0);
        if (f % 20 == 0) {
            double t1 = now_ms();
            brute_count = brute_pairs(boxes, pairs, 1 << 20);
            brute_ms.push_back(now_ms() - t1);
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
    double grid = median(grid_ms), brute = median(brute_ms);
    fprintf(stderr, "bench_collide: %d pairs among %d bodies; %d of %d poly pairs touch (sink %g)\n", grid_count, N, touching, POOL, (double)sink);
    printf("{\"broadphase_10k_ms\": %.4f, \"broadphase_brute_10k_ms\": %.3f, \"broadphase_vs_brute_x\": %.1f, "
           "\"poly_poly_manifold_ns\": %.1f, \"obb_obb_manifold_ns\": %.1f, \"circle_circle_manifold_ns\": %.1f, \"capsule_poly_manifold_ns\": %.1f}\n",
           grid, brute, brute / grid, pp_ns, obb_ns, cc_ns, kp_ns);
    return 0;
}
