/* C99 build of th_collide.h: compiles the manual's example verbatim, checks it still matches the
   manual, and runs a smoke check of every area of the API from C. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manual_example.h"

TH__EXAMPLE(example_collide_src,
static float example_collide(void) {
    thc_circle ball = { { 0, 0 }, 10 };
    thc_aabb wall = { { 5, -20 }, { 30, 20 } };
    thc_manifold m;
    thc_circle_to_aabb_manifold(&ball, &wall, &m);
    if (m.count) {
        ball.p.x -= m.n.x * m.depths[0];
        ball.p.y -= m.n.y * m.depths[0];
    }
    thc_v2 pts[4] = { { -8, -8 }, { 8, -8 }, { 8, 8 }, { -8, 8 } };
    thc_poly crate;
    thc_make_poly(&crate, pts, 4);
    thc_v2 crate_at = { 60, 0 };
    thc_transform crate_xf = thc_make_transform(crate_at, 0.5f);
    thc_v2 move = { 100, 0 }, still = { 0, 0 };
    thc_toi_result hit = thc_toi(&ball, THC_CIRCLE, NULL, move, &crate, THC_POLY, &crate_xf, still);
    thc_ray ray = { { -100, 0 }, { 1, 0 }, 500 };
    thc_ray_hit rc;
    int seen = thc_raycast(ray, &crate, THC_POLY, &crate_xf, &rc);
    return hit.hit && seen ? hit.t : -1.0f;
}
)

static void test_example_matches_manual(void) { check_manual_example("th_collide.h", example_collide_src); }

static void test_example_runs(void)
{
    float t = example_collide();
    /* the ball (radius 10, pushed back to x = -5) meets the crate (half-diagonal ~11.3) around x = 40 */
    TH_CHECK(t > 0.35f && t < 0.55f);
}

static void test_smoke_c(void)
{
    thc_circle c = { { 0, 0 }, 1 };
    thc_aabb box = { { 0.5f, -1 }, { 3, 1 } };
    thc_capsule cap = { { -2, 2 }, { 2, 2 }, 1.5f };
    thc_poly tri;
    thc_v2 tri_pts[3] = { { 0, 0 }, { 2, 0 }, { 0, 2 } };
    thc_manifold m;
    thc_ray_hit rc;
    thc_ray ray = { { -10, 0.25f }, { 1, 0 }, 100 };
    TH_CHECK(thc_make_poly(&tri, tri_pts, 3) == 3);
    TH_CHECK(thc_circle_to_aabb(&c, &box));
    TH_CHECK(thc_circle_to_capsule(&c, &cap));
    TH_CHECK(thc_capsule_to_poly(&cap, &tri, NULL));
    thc_capsule_to_poly_manifold(&cap, &tri, NULL, &m);
    TH_CHECK(m.count >= 1 && m.n.y < -0.99f);
    TH_CHECK(thc_ray_to_aabb(ray, &box, &rc));
    TH_CHECK_NEAR(rc.t, 10.5f, 1e-4f);
    TH_CHECK(rc.n.x == -1 && rc.n.y == 0);
    TH_CHECK(thc_point_in_shape(tri_pts[1], &tri, THC_POLY, NULL));
    {
        static uint32_t grid_mem[1 << 14];
        thc_grid_desc d = { 4, 16 };
        thc_grid *g;
        thc_pair pairs[8];
        TH_CHECK(thc_grid_bytes(&d) <= sizeof grid_mem);
        g = thc_grid_init(grid_mem, sizeof grid_mem, &d);
        TH_CHECK(g != NULL);
        if (!g) return;
        thc_grid_insert(g, 7, box);
        thc_grid_insert(g, 9, thc_shape_aabb(&c, THC_CIRCLE, NULL));
        TH_CHECK(thc_grid_pairs(g, pairs, 8) == 1 && pairs[0].a == 7 && pairs[0].b == 9);
    }
    {
        static uint32_t mem_a[64], mem_b[64];
        uint8_t img[4 * 4 * 4];
        thc_mask *a, *b;
        int hx = -1, hy = -1;
        memset(img, 0, sizeof img);
        img[(2 * 4 + 3) * 4 + 3] = 255;   /* pixel (3, 2) */
        a = thc_mask_make(mem_a, sizeof mem_a, img, 4, 4, 0, 0);
        b = thc_mask_make(mem_b, sizeof mem_b, img, 4, 4, 0, 0);
        TH_CHECK(a && b);
        if (!a || !b) return;
        TH_CHECK(thc_mask_overlap(a, 10, 10, b, 10, 10, &hx, &hy) && hx == 13 && hy == 12);
        TH_CHECK(!thc_mask_overlap(a, 10, 10, b, 11, 10, NULL, NULL));
    }
}

int main(void)
{
    TH_RUN(test_example_matches_manual);
    TH_RUN(test_example_runs);
    TH_RUN(test_smoke_c);
    return th_test_finish();
}
