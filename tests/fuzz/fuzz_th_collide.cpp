/* fuzz_th_collide - every query of th_collide.h on two shapes read from arbitrary bytes, in both orders. The
   numbers are drawn to reach what random shapes never do: any float bit pattern, extreme finite magnitudes
   (1e37 to FLT_MAX, where a difference or a squared length overflows), infinities, NaN, negative and zero
   radii, and ordinary values next to them. Polygons are thc_make_poly's hulls (extreme but finite points) or
   boxes, under any transform. Under ASan and UBSan a read outside an array (issue 42: a vertex index of -1 in
   the capsule-polygon manifold) ends the run; the answers' own shape is checked too (manifold counts 0..2,
   the TOI inside 0..1, a ray's hit inside 0..ray.t: a polygon's frame overflowing near 3e38 gave t = -inf). */
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

struct Reader {
    const uint8_t *d;
    size_t n, i;
    uint8_t byte() { return i < n ? d[i++] : 0; }
    float raw() { uint32_t u = 0; for (int k = 0; k < 4; k++) u |= (uint32_t)byte() << (8 * k); float f; memcpy(&f, &u, 4); return f; }
    float num()
    {
        static const float special[12] = { INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, 3e38f, -3e38f, 1e37f, -1e37f, 1e20f, 0.0f, -0.0f };
        uint8_t k = byte();
        switch (k & 7) {
        case 0: return raw();
        case 1: return special[(k >> 3) % 12];
        case 2: return (float)(int8_t)byte() * ((k >> 3) & 1 ? 1e36f : 1.0f);   /* large, with small neighbours */
        default: return (float)(int16_t)(byte() | byte() << 8) / 256.0f;         /* ordinary sizes */
        }
    }
};

struct Shape {
    thc_type t;
    thc_circle c;
    thc_aabb b;
    thc_capsule k;
    thc_poly p;
    thc_transform xf;
    const thc_transform *x;
    const void *ptr() const { return t == THC_CIRCLE ? (const void *)&c : t == THC_AABB ? (const void *)&b : t == THC_CAPSULE ? (const void *)&k : (const void *)&p; }
};

static bool read_shape(Reader &r, Shape &s)
{
    memset(&s, 0, sizeof s);
    s.t = (thc_type)(1 + r.byte() % 4);
    switch (s.t) {
    case THC_CIRCLE: s.c.p.x = r.num(); s.c.p.y = r.num(); s.c.r = r.num(); break;
    case THC_AABB: s.b.min.x = r.num(); s.b.min.y = r.num(); s.b.max.x = r.num(); s.b.max.y = r.num(); break;
    case THC_CAPSULE: s.k.a.x = r.num(); s.k.a.y = r.num(); s.k.b.x = r.num(); s.k.b.y = r.num(); s.k.r = r.num(); break;
    default: {
        uint8_t how = r.byte();
        if (how & 1) {
            if (!thc_make_box(&s.p, r.num(), r.num())) return false;
        } else {
            thc_v2 pts[THC_MAX_POLY_VERTS];
            int n = 3 + how / 2 % (THC_MAX_POLY_VERTS - 2);
            for (int i = 0; i < n; i++) { pts[i].x = r.num(); pts[i].y = r.num(); }
            if (!thc_make_poly(&s.p, pts, n)) return false;
        }
        s.xf.p.x = r.num(); s.xf.p.y = r.num();
        if (how & 2) { s.xf.c = r.num(); s.xf.s = r.num(); }
        else s.xf = thc_make_transform(s.xf.p, (float)r.byte() * 0.0246f);
        s.x = how & 4 ? NULL : &s.xf;
    }
    }
    return true;
}

static void pair(const Shape &a, const Shape &b, thc_v2 va, thc_v2 vb)
{
    (void)thc_overlap(a.ptr(), a.t, a.x, b.ptr(), b.t, b.x);
    thc_manifold m;
    memset(&m, 0, sizeof m);
    thc_collide(a.ptr(), a.t, a.x, b.ptr(), b.t, b.x, &m);
    if (m.count < 0 || m.count > 2) __builtin_trap();
    (void)thc_mtv(a.ptr(), a.t, a.x, b.ptr(), b.t, b.x);
    thc_v2 pa, pb;
    (void)thc_distance(a.ptr(), a.t, a.x, b.ptr(), b.t, b.x, &pa, &pb);
    thc_toi_result t = thc_toi(a.ptr(), a.t, a.x, va, b.ptr(), b.t, b.x, vb);
    if (t.hit && !(t.t >= 0 && t.t <= 1)) __builtin_trap();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Reader r = { data, size, 0 };
    Shape a, b;
    if (!read_shape(r, a) || !read_shape(r, b)) return 0;
    thc_v2 va = { r.num(), r.num() }, vb = { r.num(), r.num() };
    pair(a, b, va, vb);
    pair(b, a, vb, va);
    thc_ray ray = { { r.num(), r.num() }, { r.num(), r.num() }, r.num() };
    thc_ray_hit h;
    for (int i = 0; i < 2; i++) {
        const Shape &s = i ? b : a;
        if (thc_raycast(ray, s.ptr(), s.t, s.x, &h) && !(h.t >= 0 && h.t <= ray.t)) __builtin_trap();
        (void)thc_shape_aabb(s.ptr(), s.t, s.x);
        (void)thc_point_in_shape(ray.p, s.ptr(), s.t, s.x);
    }
    return 0;
}
