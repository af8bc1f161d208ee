// Bad input to tinyheaders/th_collide.h, from the repros of issue 29: point clouds thc_make_poly must hull
// (a repeated point, more points than fit, more than 64 points), hand-built polygons THC_VALIDATE must name
// (clockwise, count 9, count 0), NaN and infinite inputs (no overlap, no hit, distance NaN, no contact),
// and the grazing circle sweep that tunnelled by 3.87e-5 at a box corner.
// Compiled with THC_VALIDATE on, as the game's development build is; mistakes are caught by THC_REPORT.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#ifndef THC_VALIDATE
#define THC_VALIDATE
#endif
static char g_report[256];
static int g_reports = 0;
#include <stdio.h>
#define THC_REPORT(where, text) (snprintf(g_report, sizeof g_report, "%s: %s", (where), (text)), g_reports++)
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"

#include <math.h>
#include <string.h>

#include "collide_shapes.h"

static double poly_area(const thc_poly &p)
{
    double a = 0;
    for (int i = 0; i < p.count; i++) {
        thc_v2 u = p.verts[i], v = p.verts[(i + 1) % p.count];
        a += (double)u.x * v.y - (double)u.y * v.x;
    }
    return a / 2;
}

// The hull's vertices are points of the cloud, counter-clockwise, strictly convex, with unit outward normals.
static bool is_hull_of(const thc_poly &p, const thc_v2 *pts, int n)
{
    if (p.count < 3) return false;
    for (int i = 0; i < p.count; i++) {
        thc_v2 a = p.verts[i], b = p.verts[(i + 1) % p.count], c = p.verts[(i + 2) % p.count];
        if ((double)(b.x - a.x) * (c.y - b.y) - (double)(b.y - a.y) * (c.x - b.x) <= 0) return false;
        double ex = b.x - a.x, ey = b.y - a.y, l = sqrt(ex * ex + ey * ey);
        if (fabs(p.norms[i].x - ey / l) > 1e-5 || fabs(p.norms[i].y + ex / l) > 1e-5) return false;
        bool found = false;
        for (int k = 0; k < n; k++) found |= pts[k].x == a.x && pts[k].y == a.y;
        if (!found) return false;
        for (int k = 0; k < n; k++)   // every point inside or on this edge's line
            if ((double)(pts[k].x - a.x) * p.norms[i].x + (double)(pts[k].y - a.y) * p.norms[i].y > 1e-4 * (1 + l)) return false;
    }
    return true;
}

static void test_repeated_point_is_the_triangle(void)
{
    thc_v2 pts[4] = { { 0, 0 }, { 4, 0 }, { 4, 4 }, { 0, 0 } };
    thc_poly p;
    TH_CHECK_EQ_INT(thc_make_poly(&p, pts, 4), 3);
    TH_CHECK(is_hull_of(p, pts, 4));
    TH_CHECK_NEAR(poly_area(p), 8.0, 1e-9);
    thc_circle c = { { 3, 1 }, 0.5f };
    TH_CHECK(thc_circle_to_poly(&c, &p, NULL));
    TH_CHECK(thc_distance(&c, THC_CIRCLE, NULL, &p, THC_POLY, NULL, NULL, NULL) == 0);
    thc_manifold m;
    thc_circle_to_poly_manifold(&c, &p, NULL, &m);
    TH_CHECK(m.count > 0);
    thc_ray ray = { { -10, 2 }, { 1, 0 }, 100 };
    thc_ray_hit h;
    TH_CHECK(thc_ray_to_poly(ray, &p, NULL, &h));
    TH_CHECK_NEAR(h.t, 12.0, 1e-4);
}

// Duplicates, collinear points, any order and any count (here 1000 points of which 5 are corners).
static void test_hull_of_any_cloud(void)
{
    uint32_t s = 12345;
    for (int round = 0; round < 2000; round++) {
        thc_v2 pts[300];
        int n = 3 + (int)((s = s * 1664525u + 1013904223u) >> 8) % 250;
        int corners = 3 + round % (THC_MAX_POLY_VERTS - 2);
        float r = round % 3 == 0 ? 1e5f : 10.0f;
        for (int i = 0; i < n; i++) {
            s = s * 1664525u + 1013904223u;
            int k = (int)(s >> 8) % corners, k2 = (k + 1) % corners;
            float a0 = 6.2831853f * k / corners, a1 = 6.2831853f * k2 / corners;
            thc_v2 c0 = V(roundf(r * cosf(a0)), roundf(r * sinf(a0))), c1 = V(roundf(r * cosf(a1)), roundf(r * sinf(a1)));
            int kind = (int)(s >> 4) % 4;
            float t = (float)((s >> 12) % 5) / 4.0f;   // 0, 1/4, 1/2, 3/4, 1 of an edge: exactly on it
            if (kind == 0) pts[i] = c0;                                     // a corner (repeated)
            else if (kind == 1) pts[i] = V(c0.x + (c1.x - c0.x) * t, c0.y + (c1.y - c0.y) * t);   // on an edge
            else pts[i] = V(c0.x * 0.3f * t, c0.y * 0.3f * t);              // inside
        }
        for (int k = 0; k < corners; k++) {   // every corner at least once, somewhere
            float a = 6.2831853f * k / corners;
            pts[(k * 7919) % n] = V(roundf(r * cosf(a)), roundf(r * sinf(a)));
        }
        thc_poly p;
        int got = thc_make_poly(&p, pts, n);
        TH_CHECK_MSG(got == p.count && is_hull_of(p, pts, n), "round %d: %d points, %d corners, got %d", round, n, corners, got);
        if (!(got == p.count && is_hull_of(p, pts, n))) return;
    }
    thc_v2 many[1000];
    for (int i = 0; i < 1000; i++) {
        float a = 6.2831853f * (i % 5) / 5.0f;
        float f = (float)(i % 7) / 7.0f;
        many[i] = V(roundf(100 * cosf(a)) * (i < 5 ? 1 : f), roundf(100 * sinf(a)) * (i < 5 ? 1 : f));
    }
    many[999] = many[0]; many[0] = V(0, 0);
    thc_poly p;
    TH_CHECK_EQ_INT(thc_make_poly(&p, many, 1000), 5);
    TH_CHECK(is_hull_of(p, many, 1000));
}

static void test_too_many_vertices_fail_with_a_reason(void)
{
    thc_v2 pts[THC_MAX_POLY_VERTS * 2];
    int n = THC_MAX_POLY_VERTS * 2;
    for (int i = 0; i < n; i++) pts[i] = V(10 * cosf(6.2831853f * i / n), 10 * sinf(6.2831853f * i / n));
    thc_poly p;
    p.count = 7;
    TH_CHECK_EQ_INT(thc_make_poly(&p, pts, n), 0);
    TH_CHECK_EQ_INT(p.count, 0);
    TH_CHECK_EQ_INT(thc_hull(&p, pts, n), THC_ERR_TOO_MANY_VERTS);
    TH_CHECK(strstr(thc_error_text(THC_ERR_TOO_MANY_VERTS), "THC_MAX_POLY_VERTS") != NULL);
    // the 16-gon of radius 10 at the default size; a circle inside its hull is never answered "apart"
    thc_v2 g[16];
    for (int i = 0; i < 16; i++) g[i] = V(10 * cosf(6.2831853f * i / 16), 10 * sinf(6.2831853f * i / 16));
    int got = thc_make_poly(&p, g, 16);
    if (THC_MAX_POLY_VERTS < 16) {
        TH_CHECK_EQ_INT(got, 0);
        TH_CHECK_EQ_INT(thc_hull(&p, g, 16), THC_ERR_TOO_MANY_VERTS);
    } else {
        TH_CHECK_EQ_INT(got, 16);
        TH_CHECK_NEAR(poly_area(p), 306.1467, 1e-3);
    }
    // more than 64 points, 4 of them corners: the hull is the square, whatever their order
    thc_v2 cloud[100];
    for (int i = 0; i < 100; i++) cloud[i] = V((float)(i % 10), (float)(i / 10) * 0.5f);
    cloud[99] = V(20, 20);
    TH_CHECK_EQ_INT(thc_make_poly(&p, cloud, 100), 4);
    TH_CHECK(is_hull_of(p, cloud, 100));
    // fewer than 3 points, no area, and a NaN: each its own reason
    TH_CHECK_EQ_INT(thc_hull(&p, cloud, 2), THC_ERR_FEW_POINTS);
    thc_v2 line[5] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 0, 0 }, { 3, 3 } };
    TH_CHECK_EQ_INT(thc_hull(&p, line, 5), THC_ERR_NO_AREA);
    thc_v2 bad[3] = { { 0, 0 }, { 1, 0 }, { NAN, 1 } };
    TH_CHECK_EQ_INT(thc_hull(&p, bad, 3), THC_ERR_NOT_FINITE);
    TH_CHECK_EQ_INT(thc_hull(&p, pts, 3), THC_OK);
    for (int e = THC_OK; e <= THC_ERR_NORMALS; e++) TH_CHECK(strlen(thc_error_text((thc_error)e)) > 5);
}

// Hand-built polygons: thc_poly_check names the mistake, and under THC_VALIDATE every query reports it
// (THC_REPORT) and answers as for NaN input instead of reading past the array.
static void test_hand_built_polygons_are_validated(void)
{
    thc_poly cw;
    memset(&cw, 0, sizeof cw);
    thc_v2 v[4] = { { -5, -5 }, { -5, 5 }, { 5, 5 }, { 5, -5 } };   // clockwise
    cw.count = 4;
    for (int i = 0; i < 4; i++) cw.verts[i] = v[i];
    for (int i = 0; i < 4; i++) {   // each edge's right-hand normal, as thc_poly_normals took them before issue 42
        thc_v2 e = V(v[(i + 1) % 4].x - v[i].x, v[(i + 1) % 4].y - v[i].y);
        float l = sqrtf(e.x * e.x + e.y * e.y);
        cw.norms[i] = V(e.y / l, -e.x / l);
    }
    TH_CHECK_EQ_INT(thc_poly_check(&cw), THC_ERR_CLOCKWISE);
    thc_circle c = { { 0, 0 }, 1 };
    g_reports = 0;
    g_report[0] = 0;
    TH_CHECK_EQ_INT(thc_circle_to_poly(&c, &cw, NULL), 0);
    TH_CHECK(g_reports == 1 && strstr(g_report, "clockwise") != NULL);
    TH_CHECK_MSG(strstr(g_report, "thc_overlap: ") == g_report, "report: %s", g_report);
    thc_circle far = { { 20, 0 }, 0 };
    TH_CHECK(isnan(thc_distance(&far, THC_CIRCLE, NULL, &cw, THC_POLY, NULL, NULL, NULL)));
    thc_manifold m;
    m.count = 5;
    thc_collide(&c, THC_CIRCLE, NULL, &cw, THC_POLY, NULL, &m);
    TH_CHECK_EQ_INT(m.count, 0);

    thc_poly nine = cw;
    thc_make_box(&nine, 5, 5);
    TH_CHECK_EQ_INT(thc_poly_check(&nine), THC_OK);
    nine.count = THC_MAX_POLY_VERTS + 1;
    TH_CHECK_EQ_INT(thc_poly_check(&nine), THC_ERR_COUNT);
    g_reports = 0;
    TH_CHECK_EQ_INT(thc_overlap(&c, THC_CIRCLE, NULL, &nine, THC_POLY, NULL), 0);
    TH_CHECK(g_reports == 1 && strstr(g_report, "count") != NULL);
    thc_poly zero = nine;
    zero.count = 0;
    TH_CHECK_EQ_INT(thc_poly_check(&zero), THC_ERR_COUNT);
    TH_CHECK(isnan(thc_distance(&far, THC_CIRCLE, NULL, &zero, THC_POLY, NULL, NULL, NULL)));
    thc_ray ray = { { -10, 0 }, { 1, 0 }, 100 };
    thc_ray_hit h;
    TH_CHECK_EQ_INT(thc_ray_to_poly(ray, &zero, NULL, &h), 0);
    thc_toi_result t = thc_toi_circle_poly(&far, V(-40, 0), &zero, NULL);
    TH_CHECK_EQ_INT(t.hit, 0);

    thc_poly dent;   // counter-clockwise but not convex
    thc_v2 d[5] = { { 0, 0 }, { 4, 0 }, { 4, 4 }, { 2, 1 }, { 0, 4 } };
    dent.count = 5 <= THC_MAX_POLY_VERTS ? 5 : 0;
    for (int i = 0; i < 5; i++) dent.verts[i] = d[i];
    thc_poly_normals(&dent);
    TH_CHECK_EQ_INT(thc_poly_check(&dent), THC_ERR_NOT_CONVEX);
    thc_poly wrong_normal;
    thc_make_box(&wrong_normal, 2, 2);
    wrong_normal.norms[1] = V(0, 1);
    TH_CHECK_EQ_INT(thc_poly_check(&wrong_normal), THC_ERR_NORMALS);
    thc_poly nan_vert;
    thc_make_box(&nan_vert, 2, 2);
    nan_vert.verts[2].x = NAN;
    TH_CHECK_EQ_INT(thc_poly_check(&nan_vert), THC_ERR_NOT_FINITE);
}

// NaN or infinity in a centre, a corner, a radius, a transform, a ray or a velocity: no overlap, no contact,
// distance NaN, mtv zero, no ray hit, no time of impact. Every pair, every field, both orders.
static Shape base_shape(thc_type t)
{
    Shape s;
    memset(&s, 0, sizeof s);
    s.type = t;
    s.c.p = V(0.5f, 0.25f); s.c.r = 2;
    s.b.min = V(-1.5f, -1); s.b.max = V(2, 1.5f);
    s.k.a = V(-1, 0.5f); s.k.b = V(1.5f, -0.5f); s.k.r = 1;
    thc_make_box(&s.p, 1.5f, 1);
    s.xf = thc_make_transform(V(0.25f, 0.5f), 0.3f);
    return s;
}

static int field_count(thc_type t) { return t == THC_CIRCLE ? 3 : t == THC_AABB ? 4 : t == THC_CAPSULE ? 5 : 4; }

static float *field(Shape &s, int i)
{
    switch (s.type) {
    case THC_CIRCLE: { float *f[3] = { &s.c.p.x, &s.c.p.y, &s.c.r }; return f[i]; }
    case THC_AABB: { float *f[4] = { &s.b.min.x, &s.b.min.y, &s.b.max.x, &s.b.max.y }; return f[i]; }
    case THC_CAPSULE: { float *f[5] = { &s.k.a.x, &s.k.a.y, &s.k.b.x, &s.k.b.y, &s.k.r }; return f[i]; }
    default: { float *f[4] = { &s.xf.p.x, &s.xf.p.y, &s.xf.c, &s.xf.s }; return f[i]; }
    }
}

// Wrong answers counted per query and pair, one failed check each, with the first case printed.
static const char *QUERIES[5] = { "overlap", "manifold", "mtv", "distance", "toi" };
static int g_wrong[5][5][5];
static void bad_answer(int q, float v, int i, const Shape &a, const Shape &b)
{
    if (g_wrong[q][a.type][b.type]++ == 0) {
        printf("  %s %s-%s wrong with %g in field %d of A or B:\n", QUERIES[q], type_name(a.type), type_name(b.type), v, i);
        print_shape("A", a);
        print_shape("B", b);
    }
}

// The documented exception: the bare formulas of the circle-circle, circle-box and box-box overlap and manifold
// and of the circle-capsule overlap read an infinite radius, and a box side that is NaN or infinite, literally.
static bool literal(int q, const Shape &a, const Shape &b, thc_type bad_type, int i)
{
    bool simple = (a.type == THC_CIRCLE || a.type == THC_AABB) && (b.type == THC_CIRCLE || b.type == THC_AABB);
    bool radius = (bad_type == THC_CIRCLE && i == 2) || (bad_type == THC_CAPSULE && i == 4);
    if (q <= 2 && simple && (bad_type == THC_AABB || radius)) return true;
    return q == 0 && radius && (a.type == THC_CAPSULE || b.type == THC_CAPSULE) && (a.type == THC_CIRCLE || b.type == THC_CIRCLE);
}

static void check_bad_pair(const Shape &a, const Shape &b, float v, int i, thc_type bad_type)
{
    if (thc_overlap(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x()) && !literal(0, a, b, bad_type, i)) bad_answer(0, v, i, a, b);
    thc_manifold m;
    thc_collide(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), &m);
    if (m.count != 0 && !literal(1, a, b, bad_type, i)) bad_answer(1, v, i, a, b);
    thc_v2 mtv = thc_mtv(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x());
    if ((mtv.x != 0 || mtv.y != 0) && !literal(2, a, b, bad_type, i)) bad_answer(2, v, i, a, b);
    float d = thc_distance(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), NULL, NULL);
    if (!isnan(d)) bad_answer(3, v, i, a, b);
    thc_toi_result t = thc_toi(a.ptr(), a.type, a.x(), V(3, 1), b.ptr(), b.type, b.x(), V(0, 0));
    if (t.hit) bad_answer(4, v, i, a, b);
}

// B where the pair overlaps (first), and moved so that it touches A at other features or stands apart: the
// answers come from different roads (and from different tests inside one road), each of which must say "none".
static const thc_v2 B_MOVES[5] = { { 0, 0 }, { 3.9f, 0.4f }, { -0.6f, -3.7f }, { 9, 2 }, { -30, 12 } };

static void test_nan_and_inf_inputs(void)
{
    const float bad[3] = { NAN, INFINITY, -INFINITY };
    for (int ta = 0; ta < 4; ta++)
        for (int tb = 0; tb < 4; tb++)
            for (int k = 0; k < 3 * 5; k++) {
                Shape a0 = base_shape(TYPES[ta]), b0 = base_shape(TYPES[tb]);
                b0.move(B_MOVES[k / 3]);
                if (k < 3) TH_CHECK(thc_overlap(a0.ptr(), a0.type, a0.x(), b0.ptr(), b0.type, b0.x()));
                for (int i = 0; i < field_count(a0.type); i++) {
                    bool radius = (a0.type == THC_CIRCLE && i == 2) || (a0.type == THC_CAPSULE && i == 4);
                    if (radius && bad[k % 3] < 0) continue;   // a negative radius is another matter
                    Shape a = a0;
                    *field(a, i) = bad[k % 3];
                    check_bad_pair(a, b0, bad[k % 3], i, a0.type);
                    check_bad_pair(b0, a, bad[k % 3], i, a0.type);
                }
            }
    for (int q = 0; q < 5; q++)
        for (int ta = 1; ta < 5; ta++)
            for (int tb = 1; tb < 5; tb++)
                TH_CHECK_MSG(g_wrong[q][ta][tb] == 0, "%s %s-%s: %d wrong answers", QUERIES[q], type_name((thc_type)ta),
                             type_name((thc_type)tb), g_wrong[q][ta][tb]);
    // rays: a NaN or infinite direction, start or length never hits; a NaN shape is never hit
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < 3; k++) {
            Shape s = base_shape(TYPES[t]);
            thc_ray_hit h;
            for (int f = 0; f < 5; f++) {
                thc_ray r = { { -10, 0.5f }, { 1, 0 }, 100 };
                float *fs[5] = { &r.p.x, &r.p.y, &r.d.x, &r.d.y, &r.t };
                *fs[f] = bad[k];
                if (f == 4 && bad[k] > 0) continue;   // an endless ray is a ray
                TH_CHECK_MSG(!thc_raycast(r, s.ptr(), s.type, s.x(), &h), "ray field %d = %g hits a %s", f, bad[k], type_name(s.type));
            }
            thc_ray in = { { 0.5f, 0.5f }, { NAN, 0 }, 100 };   // starting inside
            in.d.x = bad[k];
            TH_CHECK_MSG(!thc_raycast(in, s.ptr(), s.type, s.x(), &h), "a ray from inside with direction %g hits a %s", bad[k], type_name(s.type));
            for (int i = 0; i < field_count(s.type); i++) {
                bool radius = (s.type == THC_CIRCLE && i == 2) || (s.type == THC_CAPSULE && i == 4);
                if (radius && bad[k] < 0) continue;
                Shape b = s;
                *field(b, i) = bad[k];
                thc_ray r = { { -10, 0.5f }, { 1, 0 }, 100 };
                TH_CHECK_MSG(!thc_raycast(r, b.ptr(), b.type, b.x(), &h), "ray hits a %s with %g in field %d", type_name(b.type), bad[k], i);
                thc_ray slant = { { -10, -2 }, { 1, 0.25f }, 100 };   // along neither axis (the box's slabs)
                TH_CHECK_MSG(!thc_raycast(slant, b.ptr(), b.type, b.x(), &h), "a slanted ray hits a %s with %g in field %d", type_name(b.type), bad[k], i);
            }
            // slanted rays, from outside and from inside, with each of their numbers NaN or infinite
            thc_ray slant = { { -10, -2 }, { 1, 0.25f }, 100 };
            TH_CHECK_MSG(thc_raycast(slant, s.ptr(), s.type, s.x(), &h), "the slanted ray misses a %s", type_name(s.type));
            for (int f = 0; f < 5; f++) {
                thc_ray r = slant, ri = { { 0.5f, 0.5f }, { 0.75f, 0.5f }, 100 };
                float *fs[5] = { &r.p.x, &r.p.y, &r.d.x, &r.d.y, &r.t }, *fi[5] = { &ri.p.x, &ri.p.y, &ri.d.x, &ri.d.y, &ri.t };
                if (f == 4 && bad[k] > 0) continue;   // an endless ray is a ray
                *fs[f] = bad[k];
                *fi[f] = bad[k];
                TH_CHECK_MSG(!thc_raycast(r, s.ptr(), s.type, s.x(), &h), "slanted ray field %d = %g hits a %s", f, bad[k], type_name(s.type));
                TH_CHECK_MSG(!thc_raycast(ri, s.ptr(), s.type, s.x(), &h), "slanted ray from inside, field %d = %g, hits a %s", f, bad[k], type_name(s.type));
            }
        }
    // a NaN velocity never hits
    Shape c = base_shape(THC_CIRCLE), p = base_shape(THC_POLY);
    c.c.p = V(-20, 0);
    thc_toi_result t = thc_toi(c.ptr(), c.type, c.x(), V(NAN, 0), p.ptr(), p.type, p.x(), V(0, 0));
    TH_CHECK(!t.hit);
    t = thc_toi(c.ptr(), c.type, c.x(), V(40, 0), p.ptr(), p.type, p.x(), V(0, INFINITY));
    TH_CHECK(!t.hit);
}

// A NaN or infinite velocity of either shape never hits, on every road of thc_toi (the box sweep, the circle
// casts with the circle first or second, the Minkowski sweep of boxes, capsules and polygons, and advancement
// for shapes touching at the start): each road looks at the velocities where it answers.
static void test_nan_and_inf_velocities(void)
{
    const float bad[3] = { NAN, INFINITY, -INFINITY };
    int hits = 0, wrong = 0;
    for (int ta = 0; ta < 4; ta++)
        for (int tb = 0; tb < 4; tb++)
            for (int start = 0; start < 3; start++) {   // 20 units apart, touching at the start, or diagonal
                Shape a = base_shape(TYPES[ta]), b = base_shape(TYPES[tb]);
                // diagonal: both axes are entered after the start, so a NaN in either one is what decides
                a.move(start == 2 ? V(-20.0f, -20.0f) : V(start ? -1.0f : -20.0f, 0.2f));
                thc_v2 va = start == 2 ? V(40.0f, 39.0f) : V(start ? 3.0f : 40.0f, 0.5f), vb = V(-1, 0.25f);
                thc_toi_result t = thc_toi(a.ptr(), a.type, a.x(), va, b.ptr(), b.type, b.x(), vb);
                TH_CHECK_MSG(t.hit, "%s-%s: the finite sweep hits", type_name(a.type), type_name(b.type));
                hits += t.hit;
                for (int f = 0; f < 4; f++)
                    for (int k = 0; k < 3; k++) {
                        thc_v2 v[2] = { va, vb };
                        float *fs[4] = { &v[0].x, &v[0].y, &v[1].x, &v[1].y };
                        *fs[f] = bad[k];
                        t = thc_toi(a.ptr(), a.type, a.x(), v[0], b.ptr(), b.type, b.x(), v[1]);
                        if (t.hit && wrong++ == 0)
                            printf("  %s-%s hits with velocity (%g, %g) against (%g, %g), %s\n", type_name(a.type), type_name(b.type),
                                   v[0].x, v[0].y, v[1].x, v[1].y, start == 2 ? "diagonal" : start ? "touching at the start" : "apart");
                    }
            }
    TH_CHECK_MSG(wrong == 0, "%d hits with a NaN or infinite velocity", wrong);
    TH_CHECK(hits == 48);
}

// Two boxes swept along an axis (the other still, so the sweep takes its per-axis road), and along both: a NaN or
// infinite side of either box never hits, wherever the finite sweep does.
static void test_box_sweeps_with_bad_sides(void)
{
    const float bad[3] = { NAN, INFINITY, -INFINITY };
    const thc_v2 vels[3] = { { 40, 0 }, { 0, 40 }, { 40, 39 } };
    int wrong = 0;
    for (int m = 0; m < 3; m++) {
        Shape a = base_shape(THC_AABB), b = base_shape(THC_AABB);
        a.move(V(m == 1 ? 0.0f : -20.0f, m == 0 ? 0.0f : -20.0f));
        thc_toi_result t = thc_toi(a.ptr(), a.type, a.x(), vels[m], b.ptr(), b.type, b.x(), V(0, 0));
        TH_CHECK_MSG(t.hit, "the finite sweep %d hits", m);
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++) {
                Shape a2 = a, b2 = b;
                *field(i < 4 ? a2 : b2, i % 4) = bad[k];
                t = thc_toi(a2.ptr(), a2.type, a2.x(), vels[m], b2.ptr(), b2.type, b2.x(), V(0, 0));
                if (t.hit && wrong++ == 0) printf("  sweep %d hits with %g in field %d of %s\n", m, bad[k], i % 4, i < 4 ? "A" : "B");
            }
    }
    TH_CHECK_MSG(wrong == 0, "%d box sweeps hit with a NaN or infinite side", wrong);
}

// An infinite centre against a polygon whose faces are all slanted: no face normal has a zero component to turn
// the infinite offset into NaN, so the circle-polygon distance road must see the infinity itself.
static void test_infinite_centre_against_slanted_faces(void)
{
    thc_v2 pts[6];
    for (int i = 0; i < 6; i++) pts[i] = V(3 * cosf(0.3f + 1.0471976f * i), 3 * sinf(0.3f + 1.0471976f * i));
    thc_poly hex;
    TH_CHECK(thc_make_poly(&hex, pts, 6));
    thc_transform xf = thc_make_transform(V(1, 2), 0.2f);
    const thc_v2 centres[4] = { { INFINITY, 0.25f }, { -INFINITY, 0.25f }, { 0.5f, INFINITY }, { 0.5f, -INFINITY } };
    for (int i = 0; i < 4; i++) {
        thc_circle c = { centres[i], 1 };
        float d = thc_distance(&c, THC_CIRCLE, NULL, &hex, THC_POLY, &xf, NULL, NULL);
        TH_CHECK_MSG(isnan(d), "circle at (%g, %g): distance %g", c.p.x, c.p.y, d);
        d = thc_distance(&hex, THC_POLY, &xf, &c, THC_CIRCLE, NULL, NULL, NULL);
        TH_CHECK_MSG(isnan(d), "circle at (%g, %g), second: distance %g", c.p.x, c.p.y, d);
    }
}

// The grazing sweep of issue 29: the circle overlaps the box's corner by 3.87e-5 at t = 0.78525.
static void test_grazing_circle_at_a_corner(void)
{
    thc_circle c = { { 43.3899994f, 6.73881912f }, 1.54832387f };
    thc_aabb b = { { -6.60272455f, -4.73572493f }, { 6.60272455f, 4.73572493f } };
    thc_v2 v = { -63.6690941f, -0.579148293f };
    thc_toi_result r = thc_toi(&c, THC_CIRCLE, NULL, v, &b, THC_AABB, NULL, V(0, 0));
    TH_CHECK_MSG(r.hit, "the circle passes the corner with an overlap of 3.87e-5 and no hit");
    thc_toi_result r2 = thc_toi_circle_aabb(&c, v, &b);
    TH_CHECK(r2.hit);
    if (r.hit) TH_CHECK(r.t < 0.78525f);
}

// Finite but extreme input (issue 42): a capsule's length or radius past 1e20 makes every squared distance of the
// capsule-polygon road overflow, no candidate pair was kept, and the road read the polygon's vertex -1 (found by
// tests/fuzz/fuzz_th_collide.cpp; the ASan pass of this test sees the read). Every query answers without it.
static void test_extreme_capsule_against_a_flat_box(void)
{
    const thc_capsule caps[3] = {
        { { 105.160156f, 1e20f }, { 1e20f, -86.3398438f }, 3e38f },
        { { -3e38f, 3e38f }, { 3e38f, 81 }, INFINITY },
        { { 0, -10.598f }, { -3e38f, 1e37f }, 1e20f },
    };
    const thc_aabb boxes[3] = { { { 0, 0 }, { 0, 0 } }, { { 0, 0 }, { 0, 0 } }, { { 1e37f, -1e37f }, { 1e37f, 2e37f } } };
    for (int i = 0; i < 3; i++) {
        thc_manifold m;
        thc_collide(&caps[i], THC_CAPSULE, NULL, &boxes[i], THC_AABB, NULL, &m);
        TH_CHECK(m.count >= 0 && m.count <= 2);
        thc_collide(&boxes[i], THC_AABB, NULL, &caps[i], THC_CAPSULE, NULL, &m);
        TH_CHECK(m.count >= 0 && m.count <= 2);
        (void)thc_overlap(&caps[i], THC_CAPSULE, NULL, &boxes[i], THC_AABB, NULL);
        (void)thc_overlap(&boxes[i], THC_AABB, NULL, &caps[i], THC_CAPSULE, NULL);
        thc_poly p;
        thc_make_box(&p, 0.5f, 3);
        thc_transform xf = thc_make_transform(boxes[i].min, 0.25f);
        thc_collide(&caps[i], THC_CAPSULE, NULL, &p, THC_POLY, &xf, &m);
        TH_CHECK(m.count >= 0 && m.count <= 2);
        thc_collide(&p, THC_POLY, &xf, &caps[i], THC_CAPSULE, NULL, &m);
        TH_CHECK(m.count >= 0 && m.count <= 2);
    }
}

// A ray and a polygon's frame far apart near 3e38 (finite input): the ray taken into the polygon's frame overflowed
// (a coordinate -inf, a face's distance 0 * inf = NaN), NaN reset the clip's bounds and the ray "hit" at t = -inf
// or +inf (found by tests/fuzz/fuzz_th_collide.cpp). A hit's t is always within [0, ray.t]; these two rays miss,
// and a ray whose frame overflows but which does reach the polygon (at t = 6 of 10) hits it there.
static void test_ray_against_a_polygon_near_float_max(void)
{
    thc_poly box;
    thc_ray_hit h;
    thc_make_box(&box, 0x1.f8a82p+1f, 0x1.42a3f8p+2f);
    thc_transform xf = { { 0x1.323492p+124f, -0x1.e175fap+127f }, -0x1.d0e9fp-1f, -0x1.acf2bep-2f };
    thc_ray r = { { 0x1.c9abc8p+127f, -0x1.d5d6b6p+124f }, { 0x1.eada5cp+127f, 0 }, 1 };   /* was a hit at t = -inf */
    h.t = 0.5f;
    TH_CHECK(thc_raycast(r, &box, THC_POLY, &xf, &h) == 0);
    thc_make_box(&box, 0x1.f3d0c4p+15f, 0x1.53268p+15f);
    thc_transform xf2 = { { 0x1.1858b8p+3f, -0x1.9fbb7cp+127f }, 0x1.46438cp-1f, -0x1.8a954cp-1f };
    thc_ray r2 = { { -0x1.cce834p+127f, 0x1.112e3p+3f }, { -0x1.af48f2p+2f, -0x1.e12a44p+127f }, 1 };   /* was t = +inf */
    TH_CHECK(thc_raycast(r2, &box, THC_POLY, &xf2, &h) == 0);
    thc_make_box(&box, 1, 1);
    for (int k = 0; k < 2; k++) {
        float ang = k ? 0.3f : 0.0f;
        thc_transform at = thc_make_transform(thc_v2{ 3e38f, 0 }, ang);
        thc_ray far = { { -3e38f, 0.5f }, { 1e38f, 0 }, 10 };   /* x - 3e38 overflows in the frame */
        int hit = thc_raycast(far, &box, THC_POLY, &at, &h);
        TH_CHECK_MSG(hit && h.t >= 0 && h.t <= 10 && fabsf(h.t - 6) < 1e-5f, "angle %g: hit %d at t %g, want 6", ang, hit, hit ? h.t : 0.0f);
        if (hit) TH_CHECK(k ? h.n.x < 0 : h.n.x == -1);   /* turned, the ray's 0.5 off the centre is below 3e38's rounding */
        far.t = 5;
        TH_CHECK(thc_raycast(far, &box, THC_POLY, &at, &h) == 0);
    }
    /* a ray of length -0 from far outside a frame that is no rotation (c 27): the fuzzer's +inf once the look
       compared the bits of -0 */
    thc_make_box(&box, 0x1.b1bp+4f, 0x1.b1bp+4f);
    thc_transform scaled = { { 0x1.b1bp+4f, 0x1.b1bp+4f }, 0x1.b1bp+4f, 0x1.bp-4f };
    thc_ray zero = { { -0x1.fffffep+127f, 0x1.4e63fcp-27f }, { 0x1.3aacp+6f, -0.0f }, -0.0f };
    int hit = thc_raycast(zero, &box, THC_POLY, &scaled, &h);
    TH_CHECK_MSG(!hit || (h.t >= 0 && h.t <= 0), "ray.t -0: hit at t %g", hit ? h.t : 0.0f);
}

// A ray of negative length holds no point: it misses every shape, a start inside one too (the capsule answered
// a hit at t = 0 from inside, past the ray's end, where the circle, the box and the polygon missed; the fuzz
// target's strict check on the hit's t found it).
static void test_ray_of_negative_length_misses(void)
{
    thc_circle c = { { 0, 0 }, 2 };
    thc_aabb b = { { -2, -2 }, { 2, 2 } };
    thc_capsule k = { { -2, 0 }, { 2, 0 }, 1 };
    thc_poly p;
    thc_make_box(&p, 2, 2);
    thc_transform xf = thc_make_transform(thc_v2{ 0, 0 }, 0.5f);
    const void *s[4] = { &c, &b, &k, &p };
    const thc_type t[4] = { THC_CIRCLE, THC_AABB, THC_CAPSULE, THC_POLY };
    for (int i = 0; i < 4; i++) {
        thc_ray_hit h;
        thc_ray r = { { 0.5f, 0.25f }, { 1, 0 }, -1 };
        TH_CHECK_MSG(thc_raycast(r, s[i], t[i], t[i] == THC_POLY ? &xf : NULL, &h) == 0, "shape %d: a ray of length -1 from inside hits", i);
        r.t = 1;
        TH_CHECK_MSG(thc_raycast(r, s[i], t[i], t[i] == THC_POLY ? &xf : NULL, &h) == 1 && h.t == 0, "shape %d: a ray from inside misses", i);
    }
}

// A polygon written down clockwise and finished by thc_poly_normals (issue 42, item 7): it used to take the
// inward normals and the queries answered wrongly (a point 3 outside the square at distance 5.66). The helper
// puts the vertices in counter-clockwise order, so every query answers as for the same square built right.
static void test_clockwise_polygon_from_the_normals_helper(void)
{
    const thc_v2 sq[4] = { { -5, -5 }, { -5, 5 }, { 5, 5 }, { 5, -5 } };   // clockwise (y up)
    for (int n = 3; n <= 4; n++) {   // the square, and the clockwise triangle of its first three corners
        thc_poly cw, ccw;
        memset(&cw, 0, sizeof cw);
        cw.count = n;
        for (int i = 0; i < n; i++) cw.verts[i] = sq[i];
        TH_CHECK(thc_poly_normals(&cw));
        TH_CHECK_EQ_INT(thc_poly_check(&cw), THC_OK);
        TH_CHECK(thc_make_poly(&ccw, sq, n) == n);
        g_reports = 0;
        const thc_v2 probes[4] = { { 8, 0 }, { 0, -9 }, { -7, 7 }, { 1, -2 } };
        for (int k = 0; k < 4; k++) {
            thc_circle c = { probes[k], 0.5f };
            thc_v2 pa, pb;
            float dw = thc_distance(&c, THC_CIRCLE, NULL, &cw, THC_POLY, NULL, &pa, &pb);
            float dr = thc_distance(&c, THC_CIRCLE, NULL, &ccw, THC_POLY, NULL, NULL, NULL);
            TH_CHECK_MSG(fabsf(dw - dr) < 1e-5f, "%d-gon, circle at (%g, %g): distance %g, built right %g", n, c.p.x, c.p.y, dw, dr);
            TH_CHECK_EQ_INT(thc_overlap(&c, THC_CIRCLE, NULL, &cw, THC_POLY, NULL), thc_overlap(&c, THC_CIRCLE, NULL, &ccw, THC_POLY, NULL));
            thc_ray ray = { probes[k], { -0.6f, 0.8f }, 100 };
            thc_ray_hit h1, h2;
            int r1 = thc_raycast(ray, &cw, THC_POLY, NULL, &h1), r2 = thc_raycast(ray, &ccw, THC_POLY, NULL, &h2);
            TH_CHECK(r1 == r2 && (!r1 || fabsf(h1.t - h2.t) < 1e-5f));
        }
        TH_CHECK_EQ_INT(g_reports, 0);
    }
    thc_poly p;
    memset(&p, 0, sizeof p);
    p.count = 4;
    for (int i = 0; i < 4; i++) p.verts[i] = sq[i];
    thc_circle c = { { 8, 0 }, 0 };
    TH_CHECK(thc_poly_normals(&p));
    TH_CHECK_NEAR(thc_distance(&c, THC_CIRCLE, NULL, &p, THC_POLY, NULL, NULL, NULL), 3.0, 1e-5);
}

// One rule for radii (issue 42, items 2 and 4): a negative radius counts as 0 (a circle is its centre, a capsule
// its segment) in every query of every pair; a NaN radius is NaN input (no overlap, no contact, distance NaN, no
// hit, no time of impact). Before, two circles of radius -3 five apart overlapped with depth -11, and a circle
// swept at a circle of radius NaN hit at the radius-0 time.
static bool same_f(float a, float b) { return a == b || (isnan(a) && isnan(b)) || fabsf(a - b) <= 1e-5f * (1 + fabsf(a)); }
static bool same_v(thc_v2 a, thc_v2 b) { return same_f(a.x, b.x) && same_f(a.y, b.y); }

// every answer of the pair, flattened, so that two pairs can be compared number by number
static int answers(const Shape &a, const Shape &b, float *out)
{
    int n = 0;
    out[n++] = (float)thc_overlap(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x());
    thc_manifold m;
    memset(&m, 0, sizeof m);
    thc_collide(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), &m);
    out[n++] = (float)m.count;
    for (int i = 0; i < m.count; i++) { out[n++] = m.depths[i]; out[n++] = m.contact_points[i].x; out[n++] = m.contact_points[i].y; }
    if (m.count) { out[n++] = m.n.x; out[n++] = m.n.y; }
    thc_v2 mtv = thc_mtv(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x()), pa, pb;
    out[n++] = mtv.x; out[n++] = mtv.y;
    out[n++] = thc_distance(a.ptr(), a.type, a.x(), b.ptr(), b.type, b.x(), &pa, &pb);
    thc_toi_result t = thc_toi(a.ptr(), a.type, a.x(), V(30, 5), b.ptr(), b.type, b.x(), V(-2, 0));
    out[n++] = (float)t.hit;
    if (t.hit) { out[n++] = t.t; out[n++] = t.n.x; out[n++] = t.n.y; }
    thc_ray_hit h;
    thc_ray ray = { { -12, 0.3f }, { 1, 0.05f }, 40 };
    int hit = thc_raycast(ray, b.ptr(), b.type, b.x(), &h);
    out[n++] = (float)hit;
    if (hit) { out[n++] = h.t; out[n++] = h.n.x; out[n++] = h.n.y; }
    thc_aabb box = thc_shape_aabb(b.ptr(), b.type, b.x());
    out[n++] = box.min.x; out[n++] = box.min.y; out[n++] = box.max.x; out[n++] = box.max.y;
    out[n++] = (float)thc_point_in_shape(V(0.4f, 0.2f), b.ptr(), b.type, b.x());
    return n;
}

static void test_negative_and_nan_radii(void)
{
    const float negatives[4] = { -3, -0.25f, -1e-30f, -0.0f };
    int wrong = 0, cases = 0;
    for (int ta = 0; ta < 4; ta++)
        for (int tb = 0; tb < 4; tb++)
            for (int mv = 0; mv < 5; mv++)
                for (int side = 0; side < 2; side++) {
                    Shape a = base_shape(TYPES[ta]), b = base_shape(TYPES[tb]);
                    b.move(B_MOVES[mv]);
                    Shape &s = side ? b : a;
                    float *r = s.type == THC_CIRCLE ? &s.c.r : s.type == THC_CAPSULE ? &s.k.r : NULL;
                    if (!r) continue;
                    *r = 0;
                    float want[64], got[64];
                    int nw = answers(a, b, want);
                    for (int k = 0; k < 4; k++) {
                        *r = negatives[k];
                        int ng = answers(a, b, got);
                        bool same = ng == nw;
                        for (int i = 0; same && i < ng; i++) same = same_f(got[i], want[i]);
                        cases++;
                        if (!same && wrong++ < 3) {
                            printf("  radius %g answers otherwise than radius 0:\n", negatives[k]);
                            print_shape("A", a);
                            print_shape("B", b);
                        }
                    }
                }
    TH_CHECK_MSG(wrong == 0, "%d of %d pairs with a negative radius answer otherwise than with radius 0", wrong, cases);
    TH_CHECK_EQ_INT(cases, 16 * 5 * 4);   // 16 (pair, side) with a radius, 5 placements, 4 negatives

    // the two circles of radius -3, 5 apart: points 5 apart
    thc_circle n1 = { { 0, 0 }, -3 }, n2 = { { 5, 0 }, -3 };
    thc_manifold m;
    thc_collide(&n1, THC_CIRCLE, NULL, &n2, THC_CIRCLE, NULL, &m);
    TH_CHECK_EQ_INT(thc_overlap(&n1, THC_CIRCLE, NULL, &n2, THC_CIRCLE, NULL), 0);
    TH_CHECK_EQ_INT(m.count, 0);
    TH_CHECK_NEAR(thc_distance(&n1, THC_CIRCLE, NULL, &n2, THC_CIRCLE, NULL, NULL, NULL), 5.0, 1e-6);
    thc_circle neg = { { 0, 0 }, -3 }, big = { { 2, 0 }, 1 };
    TH_CHECK(!same_v(thc_closest_on_circle(V(4, 0), &neg), V(-3, 0)));
    TH_CHECK(same_v(thc_closest_on_circle(V(4, 0), &neg), V(0, 0)));
    TH_CHECK(thc_overlap(&neg, THC_CIRCLE, NULL, &big, THC_CIRCLE, NULL) == 0);

    // a NaN radius never hits: the sweep, and every pair swept straight at the other
    thc_circle ca = { { 0, 0 }, 3 }, cb = { { 6.5f, 1 }, NAN };
    thc_toi_result t = thc_toi(&ca, THC_CIRCLE, NULL, V(30, 5), &cb, THC_CIRCLE, NULL, V(0, 0));
    TH_CHECK_MSG(!t.hit, "a circle swept at a circle of radius NaN hits at t %g", t.t);
    int hits = 0, nan_hits = 0;
    for (int ta = 0; ta < 4; ta++)
        for (int tb = 0; tb < 4; tb++)
            for (int side = 0; side < 2; side++) {
                Shape a = base_shape(TYPES[ta]), b = base_shape(TYPES[tb]);
                a.move(V(-20, 0.2f));
                Shape &s = side ? b : a;
                float *r = s.type == THC_CIRCLE ? &s.c.r : s.type == THC_CAPSULE ? &s.k.r : NULL;
                if (!r) continue;
                t = thc_toi(a.ptr(), a.type, a.x(), V(40, 0.5f), b.ptr(), b.type, b.x(), V(-1, 0.25f));
                hits += t.hit;
                *r = NAN;
                t = thc_toi(a.ptr(), a.type, a.x(), V(40, 0.5f), b.ptr(), b.type, b.x(), V(-1, 0.25f));
                if (t.hit && nan_hits++ == 0) printf("  %s-%s hits with a NaN radius\n", type_name(a.type), type_name(b.type));
                if (side) {   // a ray straight through the centre or the first end
                    thc_v2 c = s.type == THC_CIRCLE ? s.c.p : s.k.a;
                    thc_ray ray = { { c.x - 10, c.y }, { 1, 0 }, 100 };
                    thc_ray_hit h;
                    TH_CHECK_MSG(!thc_raycast(ray, s.ptr(), s.type, s.x(), &h), "a ray through a %s of radius NaN hits", type_name(s.type));
                }
            }
    TH_CHECK_EQ_INT(hits, 16);
    TH_CHECK_MSG(nan_hits == 0, "%d sweeps hit with a NaN radius", nan_hits);
}

/* Shapes so far apart that every squared distance overflows: the closest points come from the shapes, never from
   what the caller's variables held before the call (the same answer, bit for bit, whatever they held). */
static void test_distance_past_float_range_reads_only_the_shapes(void)
{
    thc_capsule a = { { 3.0e38f, 1.0f }, { 3.1e38f, 2.0f }, 1.0f };
    thc_capsule b = { { -3.0e38f, -1.0f }, { -3.1e38f, 5.0f }, 2.0f };
    thc_poly p, q;
    thc_v2 square[4] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    TH_CHECK(thc_make_poly(&p, square, 4) == 4);
    q = p;
    for (int i = 0; i < 4; i++) { p.verts[i].x += 3.0e38f; q.verts[i].x -= 3.0e38f; }
    for (int pair = 0; pair < 2; pair++) {
        const void *sa = pair ? (const void *)&p : (const void *)&a, *sb = pair ? (const void *)&q : (const void *)&b;
        thc_type t = pair ? THC_POLY : THC_CAPSULE;
        thc_v2 pa1 = { 7, 7 }, pb1 = { -7, 7 }, pa2 = { 1e30f, -3 }, pb2 = { 5, 1e-30f };
        float d1 = thc_distance(sa, t, NULL, sb, t, NULL, &pa1, &pb1);
        float d2 = thc_distance(sa, t, NULL, sb, t, NULL, &pa2, &pb2);
        TH_CHECK(memcmp(&d1, &d2, sizeof d1) == 0);
        TH_CHECK(memcmp(&pa1, &pa2, sizeof pa1) == 0);
        TH_CHECK(memcmp(&pb1, &pb2, sizeof pb1) == 0);
        TH_CHECK(!(d1 < 0));   /* apart (or no answer), never overlapping */
    }
}

int main(void)
{
    TH_RUN(test_repeated_point_is_the_triangle);
    TH_RUN(test_hull_of_any_cloud);
    TH_RUN(test_too_many_vertices_fail_with_a_reason);
    TH_RUN(test_hand_built_polygons_are_validated);
    TH_RUN(test_clockwise_polygon_from_the_normals_helper);
    TH_RUN(test_nan_and_inf_inputs);
    TH_RUN(test_nan_and_inf_velocities);
    TH_RUN(test_box_sweeps_with_bad_sides);
    TH_RUN(test_infinite_centre_against_slanted_faces);
    TH_RUN(test_grazing_circle_at_a_corner);
    TH_RUN(test_extreme_capsule_against_a_flat_box);
    TH_RUN(test_negative_and_nan_radii);
    TH_RUN(test_ray_against_a_polygon_near_float_max);
    TH_RUN(test_ray_of_negative_length_misses);
    TH_RUN(test_distance_past_float_range_reads_only_the_shapes);
    return th_test_finish();
}
