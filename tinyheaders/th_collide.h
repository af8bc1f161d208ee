/* th_collide.h - 2D collision: shapes, overlap tests, manifolds, distance, rays, swept tests,
   pixel masks and a broadphase grid.

   th_collide.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     Shapes: circle, AABB, capsule (a segment with a radius; radius 0 is a plain segment), convex
     polygon of up to THC_MAX_POLY_VERTS vertices placed by a transform (position + rotation: an
     oriented box is a 4-vertex polygon), and rays/segments.
     For every pair of shapes:
       - a boolean overlap test               thc_circle_to_poly(...), or thc_overlap(...) for any pair
       - a manifold                           thc_circle_to_poly_manifold(...), or thc_collide(...)
         n points from A to B; up to 2 contact points, each with its depth (count 0 = no contact).
         Contact points lie midway between the two surfaces. Push A out of B by moving it
         -n * max(depths). Touching shapes (depth 0) count as overlapping.
       - the minimum translation vector       thc_mtv(...)
       - closest points and distance          thc_distance(...): apart, the gap and a point on each
         surface; touching or overlapping, 0 and one point both shapes hold (pa == pb). Touching is
         relative: a gap within 1e-6 of the cores' distance (the rounding of taking the radii off) is 0,
         so thc_overlap, thc_collide and thc_distance agree on it for shapes of any size.
       - swept time of impact by translation  thc_toi(...): both shapes may move; a fast bullet never
         tunnels through a thin wall.
     Ray casts against every shape (fraction along the ray and surface normal), closest point on a
     segment / AABB / circle, segment-segment intersection, point-in-shape, AABB of any shape.
     Pixel masks: a 1-bit mask built once from an RGBA image's alpha; two masks are compared only
     inside the overlap of their rectangles, 32 pixels at a time.
     Broadphase: a spatial-hash grid over caller memory; every overlapping pair once, plus AABB and
     ray queries. It is unbounded, so bodies far from the origin work like bodies near it.

   HOW
     Polygon-polygon (and every pair with a capsule or AABB side) uses SAT over the face normals of
     both shapes. When the shapes' cores overlap, the face of least penetration is the reference face
     (A's face wins unless B's is better by 0.5% + 0.0005, so nearly equal axes do not flip from frame to
     frame); the incident edge of the other shape is clipped against the reference face's side planes
     (Sutherland-Hodgman) and the points below the surface are kept. Capsules are 2-vertex polygons
     with a radius; circles are 1-vertex ones. When the cores are apart but the radii overlap, the
     exact closest features (every vertex against every edge, at most 8x8: the same answer GJK gives)
     decide the normal - the face's own normal when a vertex is closest to a face, never a direction
     taken from two nearly equal points - and a reference face lined up with it gives two contact points.
     Segment-segment distance is the crossing point or the best end-to-segment distance (exact for
     nearly parallel segments). thc_toi sweeps exactly where it can (below); what the sweeps leave (shapes
     touching at the start, polygons with no area or no transform, a grazing pass within rounding of a
     corner) it advances by a step proven safe along the deciding features' separating axis (see the
     comment at thc__toi_advance), so grazing shots at long walls neither miss nor sink. A circle's path
     meets a corner's circle by the discriminant |d|^2 r^2 - (m x d)^2, which does not cancel, so a circle
     grazing a corner by 1e-6 of the coordinates is not missed.
     thc_distance between two polygons, a box and a polygon, or a capsule and a polygon works by the
     separating axis in the lanes described below: the greatest face separation s of either side is a
     lower bound of the distance, and the other core's vertex that realises it, projected inside that
     face, reaches it (the face's own normal); else that face's nearer end and the vertex, or a face next
     to one of them against the other, are proven closest by each vertex being its core's support point
     along the pair's direction (convexity makes the local check global). Touching pairs answer 0 at a
     point both shapes hold, found from what the road measured, with no manifold: the middle of a
     segment's part inside a box or polygon (the segment clipped by its faces), two segments' crossing,
     a point on the way between the cores' nearest points within reach of both radii, the middle of two
     boxes' common part, a polygon vertex the other polygon holds (every vertex against every face at
     once, in lanes) or the middle of an edge's part inside the other polygon. What none of
     this settles, and thc_toi's advancement, find the features with GJK (warm-started from step to step
     in thc_toi) and keep GJK's pair only when the exact separation along its normal proves it closest,
     else the brute force decides. A step that lands within the tolerance ends on the vertex-edge pair it was taken
     from, moved to the new time, when that pair still projects inside the edge and meets the separation
     along its normal there (proven closest the same way), without another search. Two boxes sweep exactly
     (slabs), a circle is cast as a ray against the other shape grown by its radius, and any two of
     polygons, boxes and capsules are a ray against their Minkowski difference: its faces are both
     shapes' faces (a capsule's core is a 2-vertex polygon), cut lane by lane like the SAT, and when
     rounded, the circle at its vertex past the entering face's end; all stop half the tolerance of
     travel short of the touch; box-box, box-capsule,
     capsule-capsule, circle-polygon and capsule-polygon distances have direct roads, and thc_distance's
     general road works in a polygon's own frame (that polygon as stored, the other shape moved into it).
     Two polygons with area take a shorter road to the same answers (up to rounding): B is moved into
     A's own frame once and every face is measured against every vertex of the other lane by lane
     (vertex slots side by side, x and y apart, unused slots zeroed; with SSE2 loaded four slots at a
     time, so the vector loads that follow are forwarded from whole-vector stores, THC_NO_SIMD to keep
     plain C), with no branch on the vertex counts inside. Two capsules, and a circle against a capsule or a polygon, take direct roads to the
     same manifolds: the capsule pair is the steps above written out for two segments; a circle outside
     a polygon is closest to the face of greatest separation (or the next face past its end), worked in
     the polygon's frame, and the polygon's area is looked at only where the normals barely turn; a
     capsule against a polygon (or a box, a polygon at its min corner) is the steps above written out for
     a segment against a polygon in the polygon's frame. The any-pair entry points switch on the pair and
     answer circle/box pairs inline. Everything is computed in a frame centred on one of the shapes (A, or
     the polygon whose frame is used), so shapes around (100000, 100000) give the same answers as at the
     origin.

   USE
     #define TH_COLLIDE_IMPLEMENTATION in exactly one C or C++ file before including it.
     Everything else includes it plainly. C99 and C++ compatible. No allocation: the grid and the
     masks live in memory the caller hands over (thc_grid_bytes / thc_mask_bytes tell how much), and
     hold offsets, never pointers, so they may live in a block that is snapshotted and restored.

   CONVENTIONS
     Polygons are stored counter-clockwise in a y-up frame (clockwise as seen on a y-down screen);
     thc_make_poly takes any points and keeps their convex hull in that order, with outward normals.
     A thc_transform pointer may be NULL (identity); transforms apply to polygons only.
     A ray is p + d * t for t in [0, ray.t]: with d a unit vector t is a distance, with d = end - start
     and ray.t = 1 it is the fraction of the segment. Angles are radians. Units are the caller's
     (pixels in the sample game); THC_TOLERANCE is in those units.
     Degenerate input is answered, never crashed on: coincident centres give the normal (1, 0), a
     zero-length capsule is a circle, a zero-area polygon is the segment it spans, zero radii work.

   BAD INPUT
     thc_make_poly keeps the convex hull of any point cloud: repeated and collinear points, any order, any
     count (gift wrapping, count x hull-size steps, no memory of its own). A hull with more vertices than
     THC_MAX_POLY_VERTS is not cut: thc_make_poly returns 0, and thc_hull(&poly, pts, n), the same call,
     returns the reason (THC_ERR_TOO_MANY_VERTS, _FEW_POINTS, _NO_AREA, _NOT_FINITE); thc_error_text names it.
     Nothing is kept between calls (no global or thread-local state): the reason is the return value.
     A hand-built polygon (count, verts and norms filled in by the caller) must have 3..THC_MAX_POLY_VERTS
     vertices, counter-clockwise and convex, with thc_poly_normals' normals; thc_poly_check names its mistake.
     thc_poly_normals puts clockwise vertices in counter-clockwise order (it reverses them) before it takes
     the normals, so a polygon written down clockwise and finished by it is answered right.
     With THC_VALIDATE defined every query checks the polygons it is handed, reports a mistake through
     THC_REPORT(where, text) (default: one line on stderr) and answers as for NaN input. build.sh defines it in
     the game's development build and the tests, not in ./build.sh dist or the benchmarks (NDEBUG plays no
     part). Without it a polygon's count and vertices are trusted.
     NaN in any number, or an infinite centre, corner, end, transform, ray start or direction or velocity:
     no overlap, no contact (count 0, mtv zero), distance NaN, no ray hit, no time of impact (hit 0); never
     a FLT_MAX depth. The exception: the bare formulas of the circle-circle, circle-box and box-box overlap and
     manifold, and the circle-capsule overlap (22 to 79 instructions, where one more test would cost over
     2%), read an infinite radius and a NaN or infinite box side literally (a side at infinity is a half-plane,
     a NaN side is no side); a NaN centre or radius still answers no overlap there. An infinite ray length is
     a ray without an end.
     Radii, one rule for every query and pair: a negative radius counts as 0 (a circle is its centre, a capsule
     its segment; -0 is 0); a NaN radius is NaN input as above (no overlap, no contact, distance NaN, no hit, no
     time of impact). Where an infinite radius is looked at, -infinity is infinite too; the bare formulas above
     read it as 0.

   CUSTOMIZATION
     THC_MAX_POLY_VERTS   (8)     vertices per polygon, at least 4 (a box is answered as a 4-vertex polygon;
                                  fewer is a compile error); any count from 4 works, the speed is tuned at 8
     THC_GRID_MAX_CELLS   (16)    cells one body may cover before it goes on the grid's "large" list
     THC_TOLERANCE        (1e-3f) how close thc_toi brings two shapes before it calls them touching
     THC_NO_SIMD          (undefined) define it to keep the polygon lanes' loading in plain C (no SSE2)
     THC_VALIDATE         (undefined) check hand-built polygons in every query (BAD INPUT above)
     THC_REPORT(where, text)  how THC_VALIDATE reports: fprintf(stderr, ...) unless defined before the include

   EXAMPLE (compiled verbatim by tests/unit/test_th_collide_c.c)
     static float example_collide(void) {
         thc_circle ball = { { 0, 0 }, 10 };
         thc_aabb wall = { { 5, -20 }, { 30, 20 } };
         thc_manifold m;
         thc_circle_to_aabb_manifold(&ball, &wall, &m);      // m.count 1, m.n (1, 0), depth 5
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
   END EXAMPLE
*/
#ifndef TH_COLLIDE_H
#define TH_COLLIDE_H

#include <stddef.h>
#include <stdint.h>

#ifndef THC_MAX_POLY_VERTS
#define THC_MAX_POLY_VERTS 8
#endif
#if THC_MAX_POLY_VERTS < 4
#error "th_collide.h: THC_MAX_POLY_VERTS must be at least 4 (a box is answered as a 4-vertex polygon)"
#endif
#ifndef THC_GRID_MAX_CELLS
#define THC_GRID_MAX_CELLS 16
#endif
#ifndef THC_TOLERANCE
#define THC_TOLERANCE 1e-3f
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- types */
typedef struct thc_v2 { float x, y; } thc_v2;
typedef struct thc_circle { thc_v2 p; float r; } thc_circle;
typedef struct thc_aabb { thc_v2 min, max; } thc_aabb;
typedef struct thc_capsule { thc_v2 a, b; float r; } thc_capsule;                      /* segment a-b grown by r */
typedef struct thc_transform { thc_v2 p; float c, s; } thc_transform;   /* position, cos and sin of the rotation */
typedef struct thc_poly { int count; thc_v2 verts[THC_MAX_POLY_VERTS]; thc_v2 norms[THC_MAX_POLY_VERTS]; } thc_poly;
typedef struct thc_manifold { int count; float depths[2]; thc_v2 contact_points[2]; thc_v2 n; } thc_manifold;
typedef struct thc_toi_result { int hit; float t; thc_v2 n; thc_v2 p; } thc_toi_result;  /* n: surface normal at p, facing the mover */
typedef struct thc_ray { thc_v2 p, d; float t; } thc_ray;           /* p + d * t, t in [0, ray.t] */
typedef struct thc_ray_hit { float t; thc_v2 n; } thc_ray_hit;      /* where the ray enters, and the surface normal there */
typedef enum thc_type { THC_NONE = 0, THC_CIRCLE, THC_AABB, THC_CAPSULE, THC_POLY } thc_type;
typedef enum thc_error {            /* why a polygon was refused; thc_error_text names it */
    THC_OK = 0,
    THC_ERR_FEW_POINTS,                 /* fewer than 3 points (or pts NULL) */
    THC_ERR_NOT_FINITE,                 /* a NaN or infinite coordinate */
    THC_ERR_NO_AREA,                    /* every point on one line */
    THC_ERR_TOO_MANY_VERTS,             /* the hull has more vertices than THC_MAX_POLY_VERTS */
    THC_ERR_COUNT,                      /* a polygon's count is outside 3..THC_MAX_POLY_VERTS */
    THC_ERR_CLOCKWISE,                  /* the vertices turn clockwise (y up) */
    THC_ERR_NOT_CONVEX,                 /* a vertex lies outside another edge (a dent, or winding twice) */
    THC_ERR_NORMALS                     /* an edge has no length, or its normal is not its unit outward normal */
} thc_error;

/* ---------------------------------------------------------------- shapes and helpers */
int           thc_make_poly(thc_poly *out, const thc_v2 *pts, int count);  /* convex hull; returns vertex count (0 on failure: thc_hull says why) */
thc_error     thc_hull(thc_poly *out, const thc_v2 *pts, int count);      /* thc_make_poly with the reason: THC_OK or why out->count is 0 */
thc_error     thc_poly_check(const thc_poly *p);                           /* a hand-built polygon: THC_OK or its mistake */
const char   *thc_error_text(thc_error e);                                 /* one line naming the error */
int           thc_make_box(thc_poly *out, float half_w, float half_h);     /* centred box; with a transform it is an OBB */
int           thc_poly_normals(thc_poly *p);                               /* outward normals from verts (clockwise verts reversed first); 0 if an edge has no length */
thc_transform thc_make_transform(thc_v2 p, float radians);
thc_v2        thc_mul_xf(thc_transform xf, thc_v2 v);       /* local -> world point */
thc_v2        thc_mul_rot(thc_transform xf, thc_v2 v);      /* local -> world direction */
thc_v2        thc_mulT_xf(thc_transform xf, thc_v2 v);      /* world -> local point */
thc_v2        thc_mulT_rot(thc_transform xf, thc_v2 v);     /* world -> local direction */
thc_aabb      thc_shape_aabb(const void *s, thc_type t, const thc_transform *xf);          /* bounding box of any shape */
int           thc_point_in_shape(thc_v2 p, const void *s, thc_type t, const thc_transform *xf);  /* boundary counts as inside */
thc_v2        thc_closest_on_segment(thc_v2 p, thc_v2 a, thc_v2 b);
thc_v2        thc_closest_on_aabb(thc_v2 p, const thc_aabb *b);       /* p itself when inside */
thc_v2        thc_closest_on_circle(thc_v2 p, const thc_circle *c);   /* p itself when inside */
int           thc_segment_intersect(thc_v2 a0, thc_v2 a1, thc_v2 b0, thc_v2 b1, float *ta, float *tb, thc_v2 *p);  /* 1 if they cross or touch; ta/tb/p may be NULL */
float         thc_segment_closest(thc_v2 a0, thc_v2 a1, thc_v2 b0, thc_v2 b1, thc_v2 *pa, thc_v2 *pb);  /* distance between two segments */

/* ---------------------------------------------------------------- overlap tests, one per pair (1 = touching or overlapping) */
int thc_circle_to_circle(const thc_circle *a, const thc_circle *b);
int thc_circle_to_aabb(const thc_circle *a, const thc_aabb *b);
int thc_circle_to_capsule(const thc_circle *a, const thc_capsule *b);
int thc_circle_to_poly(const thc_circle *a, const thc_poly *b, const thc_transform *bx);
int thc_aabb_to_aabb(const thc_aabb *a, const thc_aabb *b);
int thc_aabb_to_capsule(const thc_aabb *a, const thc_capsule *b);
int thc_aabb_to_poly(const thc_aabb *a, const thc_poly *b, const thc_transform *bx);
int thc_capsule_to_capsule(const thc_capsule *a, const thc_capsule *b);
int thc_capsule_to_poly(const thc_capsule *a, const thc_poly *b, const thc_transform *bx);
int thc_poly_to_poly(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx);

/* ---------------------------------------------------------------- manifolds (normal from A to B) */
void thc_circle_to_circle_manifold(const thc_circle *a, const thc_circle *b, thc_manifold *m);
void thc_circle_to_aabb_manifold(const thc_circle *a, const thc_aabb *b, thc_manifold *m);
void thc_circle_to_capsule_manifold(const thc_circle *a, const thc_capsule *b, thc_manifold *m);
void thc_circle_to_poly_manifold(const thc_circle *a, const thc_poly *b, const thc_transform *bx, thc_manifold *m);
void thc_aabb_to_aabb_manifold(const thc_aabb *a, const thc_aabb *b, thc_manifold *m);
void thc_aabb_to_capsule_manifold(const thc_aabb *a, const thc_capsule *b, thc_manifold *m);
void thc_aabb_to_poly_manifold(const thc_aabb *a, const thc_poly *b, const thc_transform *bx, thc_manifold *m);
void thc_capsule_to_capsule_manifold(const thc_capsule *a, const thc_capsule *b, thc_manifold *m);
void thc_capsule_to_poly_manifold(const thc_capsule *a, const thc_poly *b, const thc_transform *bx, thc_manifold *m);
void thc_poly_to_poly_manifold(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx, thc_manifold *m);

/* ---------------------------------------------------------------- any pair, by type (transforms apply to THC_POLY, may be NULL) */
int    thc_overlap(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx);
void   thc_collide(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx, thc_manifold *m);
thc_v2 thc_mtv(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx);  /* move A by this to separate; 0 if apart */
float  thc_distance(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx,
                    thc_v2 *pa, thc_v2 *pb);   /* gap between the surfaces (0 when overlapping), closest points; pa/pb may be NULL */

/* ---------------------------------------------------------------- rays (hit: 1 and *out; a ray starting inside hits at t 0 with n = -d) */
int thc_ray_to_circle(thc_ray r, const thc_circle *c, thc_ray_hit *out);
int thc_ray_to_aabb(thc_ray r, const thc_aabb *b, thc_ray_hit *out);
int thc_ray_to_capsule(thc_ray r, const thc_capsule *c, thc_ray_hit *out);
int thc_ray_to_poly(thc_ray r, const thc_poly *p, const thc_transform *xf, thc_ray_hit *out);
int thc_raycast(thc_ray r, const void *s, thc_type t, const thc_transform *xf, thc_ray_hit *out);

/* ---------------------------------------------------------------- time of impact (t in 0..1 of the displacement) */
thc_toi_result thc_toi_circle_circle(const thc_circle *a, thc_v2 vel, const thc_circle *b);
thc_toi_result thc_toi_circle_aabb(const thc_circle *a, thc_v2 vel, const thc_aabb *b);
thc_toi_result thc_toi_circle_poly(const thc_circle *a, thc_v2 vel, const thc_poly *b, const thc_transform *bx);
thc_toi_result thc_toi(const void *a, thc_type ta, const thc_transform *ax, thc_v2 va,
                       const void *b, thc_type tb, const thc_transform *bx, thc_v2 vb);   /* A moves by va, B by vb; p on B, n from B toward A */

/* ---------------------------------------------------------------- pixel masks */
typedef struct thc_mask { int w, h, words_per_row; int bits_offset; } thc_mask;   /* bits follow in the same block */

size_t    thc_mask_bytes(int w, int h);
thc_mask *thc_mask_make(void *mem, size_t bytes, const uint8_t *rgba, int w, int h, int stride_bytes, uint8_t alpha_min);  /* solid where alpha >= alpha_min (0 means 128); NULL if bytes is too small */
int       thc_mask_get(const thc_mask *m, int x, int y);
int       thc_mask_overlap(const thc_mask *a, int ax, int ay, const thc_mask *b, int bx, int by, int *hit_x, int *hit_y);  /* masks placed at their top-left pixel; hit_* may be NULL */

/* ---------------------------------------------------------------- broadphase: a spatial-hash grid */
typedef struct thc_grid_desc { float cell_size; int max_bodies; } thc_grid_desc;   /* zero fields = 64, 1024 */
typedef struct thc_pair { uint32_t a, b; } thc_pair;   /* a was inserted before b */
typedef struct thc_grid thc_grid;

size_t    thc_grid_bytes(const thc_grid_desc *d);
thc_grid *thc_grid_init(void *mem, size_t bytes, const thc_grid_desc *d);   /* NULL if bytes is too small */
void      thc_grid_clear(thc_grid *g);                                      /* once per frame, then insert all */
int       thc_grid_insert(thc_grid *g, uint32_t id, thc_aabb box);          /* 0 when full */
int       thc_grid_count(const thc_grid *g);                                /* bodies inserted since the last clear */
int       thc_grid_query_aabb(thc_grid *g, thc_aabb box, uint32_t *ids, int max_ids);  /* ids overlapping box, once each */
int       thc_grid_query_ray(thc_grid *g, thc_ray ray, uint32_t *ids, int max_ids);    /* ids whose box the ray crosses, nearest first */
int       thc_grid_pairs(thc_grid *g, thc_pair *pairs, int max_pairs);      /* every overlapping pair once */

#ifdef __cplusplus
}
#endif
#endif /* TH_COLLIDE_H */

/* ==================================================================================== implementation */
#ifdef TH_COLLIDE_IMPLEMENTATION
#ifndef TH_COLLIDE_IMPLEMENTED
#define TH_COLLIDE_IMPLEMENTED
#include <float.h>
#include <math.h>
#include <string.h>

/* THC__INLINE: always inlined (hot helpers whose callers need their arguments folded in);
   THC__NOINLINE: kept out of line (general paths, so the simple pairs' entry pays for no stack frame);
   THC__FLATTEN: every call inside inlined (a road's own copy of a shared function, its flags folded) */
#if defined(__GNUC__)
#define THC__NOINLINE __attribute__((noinline))
#define THC__INLINE static inline __attribute__((always_inline))
#define THC__FLATTEN __attribute__((flatten))
#elif defined(_MSC_VER)
#define THC__NOINLINE __declspec(noinline)
#define THC__INLINE static __forceinline
#define THC__FLATTEN
#else
#define THC__NOINLINE
#define THC__INLINE static inline
#define THC__FLATTEN
#endif
/* THC__NO_SLP: g++'s SLP vectorizer packs a road's pairs of floats into vectors and back; in the capsule pair
   it cost 47 of 402 instructions a call in shuffles and spills */
#if defined(__GNUC__) && !defined(__clang__)
#define THC__NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define THC__NO_SLP
#endif

static thc_v2 thc__v(float x, float y) { thc_v2 r; r.x = x; r.y = y; return r; }
static thc_v2 thc__add(thc_v2 a, thc_v2 b) { return thc__v(a.x + b.x, a.y + b.y); }
static thc_v2 thc__sub(thc_v2 a, thc_v2 b) { return thc__v(a.x - b.x, a.y - b.y); }
static thc_v2 thc__scale(thc_v2 a, float s) { return thc__v(a.x * s, a.y * s); }
static thc_v2 thc__neg(thc_v2 a) { return thc__v(-a.x, -a.y); }
static thc_v2 thc__lerp(thc_v2 a, thc_v2 b, float t) { return thc__v(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t); }
static float  thc__dot(thc_v2 a, thc_v2 b) { return a.x * b.x + a.y * b.y; }
static float  thc__cross(thc_v2 a, thc_v2 b) { return a.x * b.y - a.y * b.x; }
static float  thc__len(thc_v2 a) { return sqrtf(thc__dot(a, a)); }
static float  thc__clamp(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }
static float  thc__minf(float a, float b) { return a < b ? a : b; }
static float  thc__maxf(float a, float b) { return a > b ? a : b; }
static thc_v2 thc__norm_or(thc_v2 a, thc_v2 fallback)
{
    float l = thc__len(a);
    return l > 1e-20f ? thc__scale(a, 1.0f / l) : fallback;
}

/* NaN and infinity: the sum of a shape's numbers (a polygon's transform; its vertices are thc_poly_check's)
   is NaN or infinite when one of them is (and, harmlessly, when they add past FLT_MAX), and s - s is then NaN,
   else 0. The queries answer such input as none: no overlap, no contact, distance NaN, no hit.
   Where SSE is there the sums are taken four lanes at a time (a box, a capsule's ends, a transform, a ray's
   start and direction are four floats in a row) and tested once: the look sits on every path that answers
   "touching" or "hit", and two shapes' numbers added one by one cost up to a quarter of a box ray. */
static int thc__nonfinite(float sum) { return !(sum - sum == 0); }
#if !defined(THC_NO_SIMD) && (defined(__SSE__) || defined(_M_X64) || defined(_M_AMD64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1))
#include <xmmintrin.h>
typedef __m128 thc__sum4;
#define THC__S4(a, b, c, d) _mm_setr_ps(a, b, c, d)
#define THC__S4_LOAD(f) _mm_loadu_ps(f)
#define THC__S4_ADD(x, y) _mm_add_ps(x, y)
#define THC__S4_ADD1(x, v) _mm_add_ss(x, _mm_set_ss(v))
THC__INLINE int thc__s4_bad(__m128 s) { s = _mm_sub_ps(s, s); return _mm_movemask_ps(_mm_cmpunord_ps(s, s)) != 0; }
#else
typedef float thc__sum4;
#define THC__S4(a, b, c, d) ((a) + (b) + (c) + (d))
#define THC__S4_LOAD(f) ((f)[0] + (f)[1] + (f)[2] + (f)[3])
#define THC__S4_ADD(x, y) ((x) + (y))
#define THC__S4_ADD1(x, v) ((x) + (v))
#define thc__s4_bad thc__nonfinite
#endif
/* each shape's numbers, its type known */
#define THC__SUM_CIRCLE(c) THC__S4((c)->p.x, (c)->p.y, (c)->r, 0.0f)
#define THC__SUM_BOX(b) THC__S4_LOAD(&(b)->min.x)
#define THC__SUM_CAPSULE(k) THC__S4_ADD1(THC__S4_LOAD(&(k)->a.x), (k)->r)
#define THC__SUM_XF(f) ((f) ? THC__S4_LOAD(&(f)->p.x) : THC__S4(0.0f, 0.0f, 0.0f, 0.0f))
#define THC__SUM_RAY(r) THC__S4_LOAD(&(r)->p.x)
#define THC__SUM_VEL(va, vb) THC__S4((va).x, (va).y, (vb).x, (vb).y)
#define THC__SUM_VEL2(va, vb) THC__S4((va).x + (vb).x, (va).y + (vb).y, 0.0f, 0.0f)   /* the same look, fewer lanes to fill */
#define THC__NO_MORE THC__S4(0.0f, 0.0f, 0.0f, 0.0f)
/* 0 (of either sign) for a finite number, NaN for NaN or infinity: a look folded into a road's own arithmetic */
#define THC__ZERO_OR_NAN(x) ((x) * 0.0f)
#define THC__ZERO_OR_NAN4(v) _mm_mul_ps(v, _mm_setzero_ps())   /* four lanes at once (SSE only) */
/* 1 when a number of the two sums is NaN or infinite */
#define THC__BAD1(x) thc__s4_bad(x)
#define THC__BAD2(x, y) thc__s4_bad(THC__S4_ADD(x, y))
#define THC__BAD3(x, y, z) thc__s4_bad(THC__S4_ADD(THC__S4_ADD(x, y), z))
THC__INLINE thc__sum4 thc__shape_sum(const void *s, thc_type t, const thc_transform *xf)
{
    switch (t) {
    case THC_CIRCLE: return THC__SUM_CIRCLE((const thc_circle *)s);
    case THC_AABB: return THC__SUM_BOX((const thc_aabb *)s);
    case THC_CAPSULE: return THC__SUM_CAPSULE((const thc_capsule *)s);
    default: return THC__SUM_XF(xf);
    }
}
/* Where the types are not known. Looked at only where an answer would say "touching" or "hit" (NaN already
   answers "apart" and "miss"). */
static THC__NOINLINE int thc__bad_pair(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx,
                                      thc__sum4 more)
{
    return THC__BAD3(thc__shape_sum(a, ta, ax), b ? thc__shape_sum(b, tb, bx) : THC__NO_MORE, more);
}
/* THC__NO_LOOK (measurement only, never for use: it answers NaN and infinity wrongly) takes every look above
   out, for docs/collision.md's "no look" column: what the bad-input contract costs on each row. */
#ifdef THC__NO_LOOK
#undef THC__BAD2
#undef THC__BAD3
#define THC__BAD2(x, y) ((void)(x), (void)(y), 0)
#define THC__BAD3(x, y, z) ((void)(x), (void)(y), (void)(z), 0)
static inline void thc__no_look_unused(void) { (void)thc__bad_pair; (void)thc__nonfinite; }
#define thc__bad_pair(a, ta, ax, b, tb, bx, more) 0
#define thc__nonfinite(s) 0
#undef THC__ZERO_OR_NAN
#define THC__ZERO_OR_NAN(x) ((void)(x), -0.0f)   /* x + -0.0f is x: the road as if unlooked */
#undef THC__ZERO_OR_NAN4
#define THC__ZERO_OR_NAN4(v) ((void)(v), _mm_set1_ps(-0.0f))
#undef THC__BAD1
#define THC__BAD1(x) ((void)(x), 0)
#endif

thc_transform thc_make_transform(thc_v2 p, float radians)
{
    thc_transform xf;
    xf.p = p;
    xf.c = cosf(radians);
    xf.s = sinf(radians);
    return xf;
}

thc_v2 thc_mul_rot(thc_transform xf, thc_v2 v) { return thc__v(xf.c * v.x - xf.s * v.y, xf.s * v.x + xf.c * v.y); }
thc_v2 thc_mul_xf(thc_transform xf, thc_v2 v) { return thc__add(thc_mul_rot(xf, v), xf.p); }
thc_v2 thc_mulT_rot(thc_transform xf, thc_v2 v) { return thc__v(xf.c * v.x + xf.s * v.y, -xf.s * v.x + xf.c * v.y); }
thc_v2 thc_mulT_xf(thc_transform xf, thc_v2 v) { return thc_mulT_rot(xf, thc__sub(v, xf.p)); }

int thc_poly_normals(thc_poly *p)
{
    int n = p->count;
    if (n < 2 || n > THC_MAX_POLY_VERTS) return 0;
    double area2 = 0;   /* clockwise vertices (a negative signed area) are put in counter-clockwise order */
    for (int i = 1; i + 1 < n; i++)
        area2 += ((double)p->verts[i].x - p->verts[0].x) * ((double)p->verts[i + 1].y - p->verts[0].y)
               - ((double)p->verts[i].y - p->verts[0].y) * ((double)p->verts[i + 1].x - p->verts[0].x);
    if (area2 < 0)
        for (int i = 0, j = n - 1; i < j; i++, j--) { thc_v2 t = p->verts[i]; p->verts[i] = p->verts[j]; p->verts[j] = t; }
    for (int i = 0; i < n; i++) {
        thc_v2 e = thc__sub(p->verts[(i + 1) % n], p->verts[i]);
        float l = thc__len(e);
        if (l <= 0) return 0;
        p->norms[i] = thc__v(e.y / l, -e.x / l);
    }
    return 1;
}

/* Gift wrapping from the lowest-then-leftmost point: the next vertex is the point no other lies clockwise of
   (the farthest of those on the line, so collinear and repeated points drop out). Turns are measured in double
   from float differences, which makes them exact up to one rounding; the walk ends back at the first point,
   compared by value. It costs count x hull size and keeps nothing but the hull, so any count works. */
thc_error thc_hull(thc_poly *out, const thc_v2 *pts, int count)
{
    out->count = 0;
    if (!pts || count < 3) return THC_ERR_FEW_POINTS;
    int start = 0;
    for (int i = 0; i < count; i++) {
        if (!(pts[i].x - pts[i].x == 0 && pts[i].y - pts[i].y == 0)) return THC_ERR_NOT_FINITE;
        if (pts[i].y < pts[start].y || (pts[i].y == pts[start].y && pts[i].x < pts[start].x)) start = i;
    }
    thc_v2 hull[THC_MAX_POLY_VERTS];
    int n = 0;
    thc_v2 cur = pts[start];
    for (;;) {
        if (n == THC_MAX_POLY_VERTS) return THC_ERR_TOO_MANY_VERTS;
        hull[n++] = cur;
        int next = -1;
        double nx = 0, ny = 0, nd = 0;
        for (int i = 0; i < count; i++) {
            double ex = (double)pts[i].x - cur.x, ey = (double)pts[i].y - cur.y, dd = ex * ex + ey * ey;
            if (dd == 0) continue;
            double c = nx * ey - ny * ex;
            if (next < 0 || c < 0 || (c == 0 && dd > nd)) { next = i; nx = ex; ny = ey; nd = dd; }
        }
        if (next < 0) return THC_ERR_NO_AREA;
        cur = pts[next];
        if (cur.x == hull[0].x && cur.y == hull[0].y) break;
    }
    double area2 = 0;
    for (int i = 0; i < n; i++) {
        thc_v2 a = hull[i], b = hull[(i + 1) % n];
        area2 += ((double)a.x - hull[0].x) * ((double)b.y - hull[0].y) - ((double)a.y - hull[0].y) * ((double)b.x - hull[0].x);
    }
    if (n < 3 || !(area2 > 0)) return THC_ERR_NO_AREA;
    for (int i = 0; i < n; i++) out->verts[i] = hull[i];
    out->count = n;
    if (!thc_poly_normals(out)) { out->count = 0; return THC_ERR_NO_AREA; }
    return THC_OK;
}

int thc_make_poly(thc_poly *out, const thc_v2 *pts, int count)
{
    thc_hull(out, pts, count);
    return out->count;
}

/* Count, finite values, edge normals, winding (the signed area, and the vertices going once around their
   mean), convexity (every vertex inside or on every edge's line), each to a tolerance relative to the size. */
thc_error thc_poly_check(const thc_poly *p)
{
    if (!p || p->count < 3 || p->count > THC_MAX_POLY_VERTS) return THC_ERR_COUNT;
    int n = p->count;
    double area2 = 0, mx = 0, my = 0, longest = 0, turn = 0, far = 0;   /* far: the rounding of the coordinates */
    for (int i = 0; i < n; i++) {
        thc_v2 v = p->verts[i], q = p->norms[i];
        if (!(v.x - v.x == 0 && v.y - v.y == 0 && q.x - q.x == 0 && q.y - q.y == 0)) return THC_ERR_NOT_FINITE;
        mx += v.x / (double)n; my += v.y / (double)n;
        far = fabs(v.x) > far ? fabs(v.x) : far;
        far = fabs(v.y) > far ? fabs(v.y) : far;
    }
    far *= 1e-6;
    for (int i = 0; i < n; i++) {
        thc_v2 a = p->verts[i], b = p->verts[(i + 1) % n];
        double ex = (double)b.x - a.x, ey = (double)b.y - a.y, l = sqrt(ex * ex + ey * ey), tn = 1e-3 + far / l;
        if (l == 0 || fabs(p->norms[i].x - ey / l) > tn || fabs(p->norms[i].y + ex / l) > tn) return THC_ERR_NORMALS;
        double ax = a.x - mx, ay = a.y - my, bx = b.x - mx, by = b.y - my;
        area2 += ax * by - ay * bx;
        turn += atan2(ax * by - ay * bx, ax * bx + ay * by);
        longest = l > longest ? l : longest;
    }
    double tol = 1e-5 * longest + far;
    if (area2 < -tol * longest) return THC_ERR_CLOCKWISE;
    if (area2 > tol * longest && turn > 7) return THC_ERR_NOT_CONVEX;   /* once around is 2 pi */
    for (int i = 0; i < n; i++) {
        thc_v2 a = p->verts[i];
        for (int k = 0; k < n; k++)
            if (((double)p->verts[k].x - a.x) * p->norms[i].x + ((double)p->verts[k].y - a.y) * p->norms[i].y > tol) return THC_ERR_NOT_CONVEX;
    }
    return THC_OK;
}

const char *thc_error_text(thc_error e)
{
    switch (e) {
    case THC_OK: return "no error";
    case THC_ERR_FEW_POINTS: return "fewer than 3 points";
    case THC_ERR_NOT_FINITE: return "a coordinate is NaN or infinite";
    case THC_ERR_NO_AREA: return "the points have no area (all on one line)";
    case THC_ERR_TOO_MANY_VERTS: return "the hull has more vertices than THC_MAX_POLY_VERTS (define it larger before the include)";
    case THC_ERR_COUNT: return "count is outside 3..THC_MAX_POLY_VERTS";
    case THC_ERR_CLOCKWISE: return "the vertices are clockwise (th_collide wants counter-clockwise, y up)";
    case THC_ERR_NOT_CONVEX: return "the polygon is not convex (a vertex lies outside another edge)";
    case THC_ERR_NORMALS: return "an edge has no length or its normal is wrong (call thc_poly_normals)";
    }
    return "unknown error";
}

int thc_make_box(thc_poly *out, float half_w, float half_h)
{
    thc_v2 pts[4] = { { -half_w, -half_h }, { half_w, -half_h }, { half_w, half_h }, { -half_w, half_h } };
    return thc_make_poly(out, pts, 4);
}

/* THC_VALIDATE: every query checks the polygons it is handed (thc_poly_check), reports a mistake through
   THC_REPORT(where, text) and answers as for NaN input (no overlap, no contact, distance NaN, no hit). */
#ifdef THC_VALIDATE
#ifndef THC_REPORT
#include <stdio.h>
#define THC_REPORT(where, text) fprintf(stderr, "th_collide: %s: %s\n", (where), (text))
#endif
static int thc__invalid(const void *s, thc_type t, const char *where)
{
    thc_error e = t == THC_POLY && s ? thc_poly_check((const thc_poly *)s) : THC_OK;
    if (e == THC_OK) return 0;
    THC_REPORT(where, thc_error_text(e));
    return 1;
}
#define THC__INVALID(a, ta, b, tb, where) (thc__invalid(a, ta, where) || thc__invalid(b, tb, where))
#else
#define THC__INVALID(a, ta, b, tb, where) 0
#endif

/* ---------------------------------------------------------------- closest points */
thc_v2 thc_closest_on_segment(thc_v2 p, thc_v2 a, thc_v2 b)
{
    thc_v2 e = thc__sub(b, a);
    float ee = thc__dot(e, e);
    if (ee <= 0) return a;
    return thc__add(a, thc__scale(e, thc__clamp(thc__dot(thc__sub(p, a), e) / ee, 0, 1)));
}

thc_v2 thc_closest_on_aabb(thc_v2 p, const thc_aabb *b)
{
    return thc__v(thc__clamp(p.x, b->min.x, b->max.x), thc__clamp(p.y, b->min.y, b->max.y));
}

thc_v2 thc_closest_on_circle(thc_v2 p, const thc_circle *c)
{
    thc_v2 d = thc__sub(p, c->p);
    float l = thc__len(d), r = thc__maxf(0, c->r);
    if (l <= r) return p;
    return thc__add(c->p, thc__scale(d, r / l));
}

/* Squared distance between segments p1-q1 and p2-q2 (either may have zero length), closest points in c1, c2.
   In the plane, two segments that do not cross are closest at an end of one of them, so the answer is the
   crossing point or the best of the four end-to-segment distances. No parametric solve: nearly parallel
   segments (where a 2x2 solve divides by almost nothing) get the same exact treatment as any others. */
static float thc__seg_seg(thc_v2 p1, thc_v2 q1, thc_v2 p2, thc_v2 q2, thc_v2 *c1, thc_v2 *c2)
{
    thc_v2 d1 = thc__sub(q1, p1), d2 = thc__sub(q2, p2), w = thc__sub(p2, p1);
    float x = thc__cross(d1, d2);
    if (x != 0) {
        float ta = thc__cross(w, d2) / x, tb = thc__cross(w, d1) / x;
        if (ta >= 0 && ta <= 1 && tb >= 0 && tb <= 1) {
            *c1 = *c2 = thc__add(p1, thc__scale(d1, ta));
            return 0;
        }
    }
    thc_v2 q, d;
    float best, dd;
    q = thc_closest_on_segment(p1, p2, q2); d = thc__sub(q, p1); best = thc__dot(d, d); *c1 = p1; *c2 = q;
    q = thc_closest_on_segment(q1, p2, q2); d = thc__sub(q, q1); dd = thc__dot(d, d);
    if (dd < best) { best = dd; *c1 = q1; *c2 = q; }
    q = thc_closest_on_segment(p2, p1, q1); d = thc__sub(p2, q); dd = thc__dot(d, d);
    if (dd < best) { best = dd; *c1 = q; *c2 = p2; }
    q = thc_closest_on_segment(q2, p1, q1); d = thc__sub(q2, q); dd = thc__dot(d, d);
    if (dd < best) { best = dd; *c1 = q; *c2 = q2; }
    return best;
}

float thc_segment_closest(thc_v2 a0, thc_v2 a1, thc_v2 b0, thc_v2 b1, thc_v2 *pa, thc_v2 *pb)
{
    thc_v2 o = a0, qa, qb;
    float d2 = thc__seg_seg(thc__sub(a0, o), thc__sub(a1, o), thc__sub(b0, o), thc__sub(b1, o), &qa, &qb);
    if (pa) *pa = thc__add(qa, o);
    if (pb) *pb = thc__add(qb, o);
    return sqrtf(d2);
}

int thc_segment_intersect(thc_v2 a0, thc_v2 a1, thc_v2 b0, thc_v2 b1, float *ta, float *tb, thc_v2 *p)
{
    thc_v2 o = a0, qa, qb;
    thc_v2 d1 = thc__sub(a1, o), p2 = thc__sub(b0, o), d2 = thc__sub(b1, b0);
    float d2sq = thc__seg_seg(thc__v(0, 0), d1, p2, thc__sub(b1, o), &qa, &qb);
    if (d2sq > 1e-12f * (thc__dot(d1, d1) + thc__dot(d2, d2))) return 0;
    if (ta) { float l = thc__dot(d1, d1); *ta = l > 0 ? thc__dot(qa, d1) / l : 0; }
    if (tb) { float l = thc__dot(d2, d2); *tb = l > 0 ? thc__dot(thc__sub(qa, p2), d2) / l : 0; }
    if (p) *p = thc__add(qa, o);
    return 1;
}

/* ---------------------------------------------------------------- proxies: every shape as a rounded convex polygon */
/* count 1: a point (circle), 2: a segment (capsule) with faces v0->v1 and v1->v0, 3+: a polygon. Vertices
   are relative to an origin chosen near the shapes, so far-away coordinates lose no precision. */
typedef struct thc__proxy { int count; float r; thc_v2 v[THC_MAX_POLY_VERTS]; thc_v2 n[THC_MAX_POLY_VERTS]; } thc__proxy;

static thc_v2 thc__anchor(const void *s, thc_type t, const thc_transform *xf)
{
    switch (t) {
    case THC_CIRCLE: return ((const thc_circle *)s)->p;
    case THC_AABB: return ((const thc_aabb *)s)->min;
    case THC_CAPSULE: return ((const thc_capsule *)s)->a;
    case THC_POLY:
        if (xf) return xf->p;
        return ((const thc_poly *)s)->count > 0 ? ((const thc_poly *)s)->verts[0] : thc__v(0, 0);
    default: return thc__v(0, 0);
    }
}

static void thc__proxy_segment(thc__proxy *px, thc_v2 a, thc_v2 b)
{
    thc_v2 e = thc__sub(b, a);
    float l = thc__len(e);
    px->v[0] = a;
    if (!(l > 1e-12f)) { px->count = 1; return; }
    px->count = 2;
    px->v[1] = b;
    px->n[0] = thc__v(e.y / l, -e.x / l);
    px->n[1] = thc__neg(px->n[0]);
}

/* A polygon with (almost) no area becomes the segment between its two extreme points. */
static void thc__proxy_flatten(thc__proxy *px)
{
    int n = px->count, i0 = 0, i1 = 0;
    float best = -1;
    for (int i = 1; i < n; i++) {
        thc_v2 d = thc__sub(px->v[i], px->v[0]);
        if (thc__dot(d, d) > best) { best = thc__dot(d, d); i0 = i; }
    }
    best = -1;
    for (int i = 0; i < n; i++) {
        thc_v2 d = thc__sub(px->v[i], px->v[i0]);
        if (thc__dot(d, d) > best) { best = thc__dot(d, d); i1 = i; }
    }
    thc__proxy_segment(px, px->v[i0], px->v[i1]);
}

static int thc__proxy_make(thc__proxy *px, const void *s, thc_type t, const thc_transform *xf, thc_v2 o)
{
    px->count = 0;
    px->r = 0;
    if (!s) return 0;
    switch (t) {
    case THC_CIRCLE: {
        const thc_circle *c = (const thc_circle *)s;
        px->count = 1;
        px->r = c->r < 0 ? 0 : c->r;   /* NaN stays NaN */
        px->v[0] = thc__sub(c->p, o);
        return 1;
    }
    case THC_AABB: {
        const thc_aabb *b = (const thc_aabb *)s;
        thc_v2 lo = thc__sub(b->min, o), hi = thc__sub(b->max, o);
        px->count = 4;
        px->v[0] = lo; px->v[1] = thc__v(hi.x, lo.y); px->v[2] = hi; px->v[3] = thc__v(lo.x, hi.y);
        px->n[0] = thc__v(0, -1); px->n[1] = thc__v(1, 0); px->n[2] = thc__v(0, 1); px->n[3] = thc__v(-1, 0);
        return 1;
    }
    case THC_CAPSULE: {
        const thc_capsule *c = (const thc_capsule *)s;
        thc__proxy_segment(px, thc__sub(c->a, o), thc__sub(c->b, o));
        px->r = c->r < 0 ? 0 : c->r;   /* NaN stays NaN */
        return 1;
    }
    case THC_POLY: {
        const thc_poly *p = (const thc_poly *)s;
        int n = p->count < THC_MAX_POLY_VERTS ? p->count : THC_MAX_POLY_VERTS;
        if (n <= 0) return 0;
        thc_transform x;
        if (xf) x = *xf;
        else { x.p = thc__v(0, 0); x.c = 1; x.s = 0; }
        thc_v2 tr = thc__sub(x.p, o), v0 = p->verts[0];
        float area2 = 0, ext2 = 0;
        thc_v2 a = thc__v(0, 0);   /* verts[i] - v0; the fan's first and last triangles have no area */
        for (int i = 0; i < n; i++) {
            thc_v2 v = p->verts[i];
            if (i + 1 < n) {
                thc_v2 b = thc__sub(p->verts[i + 1], v0);
                area2 += a.x * b.y - a.y * b.x;
                a = b;
                ext2 = thc__maxf(ext2, a.x * a.x + a.y * a.y);
            }
            px->v[i] = thc__v(x.c * v.x - x.s * v.y + tr.x, x.s * v.x + x.c * v.y + tr.y);
            px->n[i] = thc__v(x.c * p->norms[i].x - x.s * p->norms[i].y, x.s * p->norms[i].x + x.c * p->norms[i].y);
        }
        px->count = n;
        if (n == 2) thc__proxy_segment(px, px->v[0], px->v[1]);
        else if (n > 2 && !(area2 > 1e-6f * ext2)) thc__proxy_flatten(px);   /* no area: the segment it spans */
        return 1;
    }
    default: return 0;
    }
}

/* SAT over a's faces: the greatest separation of b from a face of a (negative = penetration).
   Stops early once a face separates by more than stop. */
static float thc__max_sep(const thc__proxy *a, const thc__proxy *b, int *face, float stop)
{
    float best = -FLT_MAX;
    int bf = 0;
    for (int i = 0; i < a->count; i++) {
        thc_v2 n = a->n[i];
        float s = FLT_MAX;
        for (int j = 0; j < b->count; j++) {
            float d = n.x * b->v[j].x + n.y * b->v[j].y;
            s = d < s ? d : s;
        }
        s -= n.x * a->v[i].x + n.y * a->v[i].y;
        if (s > best) { best = s; bf = i; if (s > stop) break; }
    }
    *face = bf;
    return best;
}

/* ---------------------------------------------------------------- closest features by GJK, for polygons
   The brute force above costs every vertex against every edge; GJK walks the Minkowski difference B - A
   toward the origin with a simplex of at most three support points and finds the closest region in a few
   steps. Its barycentric points are only as good as the simplex's conditioning, so it is used to pick the
   features, and the answer is then worked out from them exactly as the brute force does: a vertex
   projected onto an edge, with that edge's own normal. A vertex-vertex answer is checked against the
   edges next to both vertices, so a near-tie between a vertex and a face still ends on the face. */
typedef struct thc__sv { thc_v2 w; float a; int ia, ib; } thc__sv;   /* w = b.v[ib] - a.v[ia], barycentric a */

static int thc__support(const thc__proxy *p, thc_v2 d)
{
    int best = 0;
    float bv = thc__dot(p->v[0], d);
    for (int i = 1; i < p->count; i++) {
        float v = thc__dot(p->v[i], d);
        if (v > bv) { bv = v; best = i; }
    }
    return best;
}

/* Reduces the simplex to the part closest to the origin; 0 when the origin is inside the triangle. */
static int thc__simplex_solve(thc__sv *s, int *n)
{
    if (*n == 2) {
        thc_v2 w1 = s[0].w, w2 = s[1].w, e = thc__sub(w2, w1);
        float d2 = -thc__dot(w1, e), d1 = thc__dot(w2, e);
        if (d2 <= 0) { s[0].a = 1; *n = 1; return 1; }
        if (d1 <= 0) { s[0] = s[1]; s[0].a = 1; *n = 1; return 1; }
        float inv = 1.0f / (d1 + d2);
        s[0].a = d1 * inv; s[1].a = d2 * inv;
        return 1;
    }
    if (*n == 3) {
        thc_v2 w1 = s[0].w, w2 = s[1].w, w3 = s[2].w;
        thc_v2 e12 = thc__sub(w2, w1), e13 = thc__sub(w3, w1), e23 = thc__sub(w3, w2);
        float d12_1 = thc__dot(w2, e12), d12_2 = -thc__dot(w1, e12);
        float d13_1 = thc__dot(w3, e13), d13_2 = -thc__dot(w1, e13);
        float d23_1 = thc__dot(w3, e23), d23_2 = -thc__dot(w2, e23);
        float n123 = thc__cross(e12, e13);
        float d123_1 = n123 * thc__cross(w2, w3), d123_2 = n123 * thc__cross(w3, w1), d123_3 = n123 * thc__cross(w1, w2);
        if (d12_2 <= 0 && d13_2 <= 0) { s[0].a = 1; *n = 1; return 1; }
        if (d12_1 > 0 && d12_2 > 0 && d123_3 <= 0) { float i = 1.0f / (d12_1 + d12_2); s[0].a = d12_1 * i; s[1].a = d12_2 * i; *n = 2; return 1; }
        if (d13_1 > 0 && d13_2 > 0 && d123_2 <= 0) { float i = 1.0f / (d13_1 + d13_2); s[0].a = d13_1 * i; s[2].a = d13_2 * i; s[1] = s[2]; *n = 2; return 1; }
        if (d12_1 <= 0 && d23_2 <= 0) { s[0] = s[1]; s[0].a = 1; *n = 1; return 1; }
        if (d13_1 <= 0 && d23_1 <= 0) { s[0] = s[2]; s[0].a = 1; *n = 1; return 1; }
        if (d23_1 > 0 && d23_2 > 0 && d123_1 <= 0) { float i = 1.0f / (d23_1 + d23_2); s[2].a = d23_2 * i; s[0] = s[2]; s[1].a = d23_1 * i; *n = 2; return 1; }
        return 0;
    }
    s[0].a = 1;
    return 1;
}

/* Same contract as thc__core_closest; -1 when GJK cannot settle (the caller then uses the brute force). */
static float thc__core_closest_gjk(const thc__proxy *a, const thc__proxy *b, thc_v2 *pa, thc_v2 *pb, thc_v2 *n)
{
    thc__sv s[3];
    int k = 1;
    s[0].ia = 0; s[0].ib = 0; s[0].w = thc__sub(b->v[0], a->v[0]); s[0].a = 1;
    int it;
    for (it = 0; it < 24; it++) {
        int save_a[3], save_b[3], save_n = k;
        for (int i = 0; i < k; i++) { save_a[i] = s[i].ia; save_b[i] = s[i].ib; }
        if (!thc__simplex_solve(s, &k)) return 0;   /* the origin is inside: the cores overlap */
        thc_v2 p = thc__v(0, 0);
        for (int i = 0; i < k; i++) p = thc__add(p, thc__scale(s[i].w, s[i].a));
        thc_v2 d = thc__neg(p);
        if (thc__dot(d, d) < 1e-20f) return 0;
        int ia = thc__support(a, thc__neg(d)), ib = thc__support(b, d);
        int dup = 0;
        for (int i = 0; i < save_n; i++) if (save_a[i] == ia && save_b[i] == ib) dup = 1;
        if (dup) break;
        s[k].ia = ia; s[k].ib = ib; s[k].w = thc__sub(b->v[ib], a->v[ia]); s[k].a = 0;
        k++;
    }
    if (it == 24) return -1;
    /* the features near the simplex's support points: each of their vertices against the edges at the other
       side's support points, the nearest pair winning (a face at a near-tie) */
    int sa[2] = { s[0].ia, s[k > 1 ? 1 : 0].ia }, sb[2] = { s[0].ib, s[k > 1 ? 1 : 0].ib };
    float best = FLT_MAX;
    int kind = 0, fi = 0;
    for (int side = 0; side < 2; side++) {
        const thc__proxy *pv = side ? b : a, *pe = side ? a : b;
        const int *vs = side ? sb : sa, *es = side ? sa : sb;
        int ne = pe->count >= 3 ? pe->count : pe->count - 1;
        for (int c = 0; c < 2; c++) {
            if (c == 1 && vs[1] == vs[0]) break;
            thc_v2 v = pv->v[vs[c]];
            for (int g = 0; g < 4; g++) {   /* the edges starting and ending at the other side's points */
                int e = es[g >> 1];
                if (g & 1) e = pe->count >= 3 ? (e + pe->count - 1) % pe->count : 0;
                else if (pe->count < 3) e = 0;
                if (ne <= 0 || e >= ne) continue;
                thc_v2 e0 = pe->v[e], ev = thc__sub(pe->v[e + 1 < pe->count ? e + 1 : 0], e0), w = thc__sub(v, e0);
                float ee = thc__dot(ev, ev), u = thc__dot(w, ev), dd;
                int inside = u > 0 && u < ee;
                thc_v2 q = inside ? thc__add(e0, thc__scale(ev, u / ee)) : u <= 0 ? e0 : thc__add(e0, ev);
                thc_v2 dv = thc__sub(v, q);
                dd = thc__dot(dv, dv);
                if (dd < best || (inside && dd <= best * (1 + 1e-5f))) {
                    best = dd; kind = inside ? (side ? 2 : 1) : 0; fi = e;
                    if (side) { *pa = q; *pb = v; } else { *pa = v; *pb = q; }
                }
            }
            if (ne <= 0) {   /* the other side is a point */
                thc_v2 dv = thc__sub(v, pe->v[0]);
                float dd = thc__dot(dv, dv);
                if (dd < best) { best = dd; kind = 0; if (side) { *pa = pe->v[0]; *pb = v; } else { *pa = v; *pb = pe->v[0]; } }
            }
        }
    }
    if (best == FLT_MAX) { *pa = a->v[sa[0]]; *pb = b->v[sb[0]]; }   /* no finite pair (overflow): see the body's */
    thc_v2 d = thc__sub(*pb, *pa);
    float dist = sqrtf(thc__dot(d, d));
    *n = thc__v(1, 0);
    if (kind) {
        thc_v2 fn = kind == 1 ? thc__neg(b->n[fi]) : a->n[fi];
        *n = thc__dot(fn, d) >= 0 ? fn : thc__neg(fn);
    } else if (dist > 0) {
        *n = thc__scale(d, 1.0f / dist);
    }
    return dist;
}

/* Closest points between the cores when they do not overlap: every vertex against every edge; 0 when two
   segments cross. *n (unit, from a toward b) is the normal of the feature pair that decides: the edge's own
   normal when a vertex is closest to the inside of an edge, the direction between the points only when two
   vertices are closest. A direction taken from two nearly equal points carries their rounding error
   magnified by 1/distance; a face normal carries none, and it is the exact answer for vertex-face pairs. */
THC__INLINE float thc__core_closest_body(const thc__proxy *a, const thc__proxy *b, thc_v2 *pa, thc_v2 *pb, thc_v2 *n, int *feat)
{
    *n = thc__v(1, 0);
    if (feat) feat[0] = 0;
    if (a->count == 2 && b->count == 2) {   /* two segments that cross touch */
        thc_v2 d1 = thc__sub(a->v[1], a->v[0]), d2 = thc__sub(b->v[1], b->v[0]), w = thc__sub(b->v[0], a->v[0]);
        float x = thc__cross(d1, d2);
        if (x != 0) {
            float ta = thc__cross(w, d2) / x, tb = thc__cross(w, d1) / x;
            if (ta >= 0 && ta <= 1 && tb >= 0 && tb <= 1) { *pa = *pb = thc__add(a->v[0], thc__scale(d1, ta)); return 0; }
        }
    }
    if (a->count * b->count >= 12) {
        float g = thc__core_closest_gjk(a, b, pa, pb, n);
        if (g > 0) return g;
        if (g == 0) { *pa = *pb = a->v[0]; return 0; }
    }
    float best = FLT_MAX;
    int kind = 0, fi = 0;   /* 0: two vertices, 1: a vertex of a inside b's edge fi, 2: a vertex of b inside a's edge fi */
    int ea = a->count >= 3 ? a->count : a->count - 1, eb = b->count >= 3 ? b->count : b->count - 1;
    if (ea == 0 && eb == 0) {
        thc_v2 d = thc__sub(b->v[0], a->v[0]);
        best = thc__dot(d, d);
        *pa = a->v[0]; *pb = b->v[0];
    }
    /* squared distances without a square root or a division per pair: cross(w, e)^2 / |e|^2 inside an edge's
       span, the distance to the nearer end outside it; the closest point is worked out for the winner only */
    int bi = -1, bj = -1, bside = 0;
    float bu = 0;
    for (int side = 0; side < 2; side++) {
        const thc__proxy *pv = side ? b : a, *pe = side ? a : b;   /* vertices of pv against edges of pe */
        int edges = side ? ea : eb;
        for (int j = 0; j < edges; j++) {
            thc_v2 e0 = pe->v[j], e = thc__sub(pe->v[j + 1 < pe->count ? j + 1 : 0], e0);
            float ee = thc__dot(e, e), inv = ee > 0 ? 1.0f / ee : 0;
            for (int i = 0; i < pv->count; i++) {
                thc_v2 w = thc__sub(pv->v[i], e0);
                float u = thc__dot(w, e), dd;
                int inside = u > 0 && u < ee;
                if (inside) { float c = thc__cross(w, e); dd = c * c * inv; }
                else if (u <= 0) dd = thc__dot(w, w) * (1 + 1e-5f);
                else { thc_v2 w1 = thc__sub(w, e); dd = thc__dot(w1, w1) * (1 + 1e-5f); }
                /* a face wins ties, with a little slack, whichever pair comes first: at a vertex-face near-tie the
                   rounding decides which looks nearer, and only the face gives the exact normal (a vertex pair's
                   squared distance is scaled by 1 + 1e-5, as in thc__end_vs_seg) */
                if (dd < best) {
                    best = dd; bi = i; bj = j; bside = side; bu = u * inv; kind = inside ? (side ? 2 : 1) : 0;
                }
            }
        }
    }
    if (bi >= 0) {
        const thc__proxy *pv = bside ? b : a, *pe = bside ? a : b;
        thc_v2 e0 = pe->v[bj], e1 = pe->v[bj + 1 < pe->count ? bj + 1 : 0];
        thc_v2 q = kind ? thc__add(e0, thc__scale(thc__sub(e1, e0), bu)) : bu <= 0 ? e0 : e1;
        if (bside) { *pa = q; *pb = pv->v[bi]; } else { *pa = pv->v[bi]; *pb = q; }
        fi = bj;
        if (feat) { feat[0] = kind; feat[1] = bj; feat[2] = bi; }
        thc_v2 dq = thc__sub(*pb, *pa);
        best = thc__dot(dq, dq);   /* from the points themselves, as before */
    } else if (ea || eb) {
        /* no pair's distance is below FLT_MAX (coordinates so far apart the squares overflow): the first vertices
           stand for the points, never what the caller's variables held */
        *pa = a->v[0];
        *pb = b->v[0];
    }
    float dist = sqrtf(best);
    thc_v2 d = thc__sub(*pb, *pa);
    if (kind) {
        /* the edge's normal, turned to run from a to b (a segment, or a polygon with no width, faces both ways) */
        thc_v2 fn = kind == 1 ? thc__neg(b->n[fi]) : a->n[fi];
        *n = thc__dot(fn, d) >= 0 ? fn : thc__neg(fn);
    } else if (dist > 0) {
        *n = thc__scale(d, 1.0f / dist);
    }
    return dist;
}

/* Two segments (the capsule pairs, every TOI step of theirs) get a copy of the body with the counts known, so
   the loops unroll; the answer is the same code's. feat (or NULL): the deciding pair when a vertex (feat[2]) is
   closest to the inside of an edge (feat[1]): feat[0] 1 for a's vertex and b's edge, 2 for b's vertex and
   a's edge, else 0. */
static float thc__core_closest_feat(const thc__proxy *a, const thc__proxy *b, thc_v2 *pa, thc_v2 *pb, thc_v2 *n, int *feat)
{
    if (a->count == 2 && b->count == 2) return thc__core_closest_body(a, b, pa, pb, n, feat);
    return thc__core_closest_body(a, b, pa, pb, n, feat);
}

static float thc__core_closest(const thc__proxy *a, const thc__proxy *b, thc_v2 *pa, thc_v2 *pb, thc_v2 *n)
{
    if (a->count == 2 && b->count == 2) return thc__core_closest_body(a, b, pa, pb, n, NULL);
    return thc__core_closest_body(a, b, pa, pb, n, NULL);
}

/* Separation of b from a along the unit axis n (a's support pushed by shift), less the radii, in double:
   min over b of n.x minus max over a of n.x. Exact for any n, so a step it allows is safe whatever n is. */
static double thc__axis_sep(const thc__proxy *a, thc_v2 shift, const thc__proxy *b, thc_v2 n)
{
    double nx = n.x, ny = n.y, hi = -1e300, lo = 1e300;
    for (int i = 0; i < a->count; i++) {   /* the shift moves every vertex alike: added once after */
        double x = nx * a->v[i].x + ny * a->v[i].y;
        hi = x > hi ? x : hi;
    }
    hi += nx * shift.x + ny * shift.y;
    for (int j = 0; j < b->count; j++) {
        double x = nx * b->v[j].x + ny * b->v[j].y;
        lo = x < lo ? x : lo;
    }
    return lo - hi - ((double)a->r + b->r);
}

/* ---------------------------------------------------------------- closest features for distance and TOI
   The same answer as thc__core_closest, cheaper in the common case, and proven rather than trusted: GJK
   (optionally warm-started from the simplex of the previous TOI step) names at most two vertices per side;
   only those vertices against the edges at the other side's simplex points are settled exactly (a vertex
   projected on an edge, that edge's own normal; a face wins a near-tie as in the brute force). The result is
   then checked along its own normal in double: projection never lengthens a distance, so
       sep(n) <= true distance <= d,
   and when sep(n) reaches d (to rounding) the pair is the closest one. Otherwise (a rare ill-conditioned
   simplex) the brute force decides. *sep returns the exact separation along n (thc__axis_sep) either way. */
#define THC__GJK_PAIRS 12   /* vertex-edge pairs (count x count) from which GJK beats the brute force */
/* n, ia, ib: the simplex of the last answer; kind, fi, fv: its deciding pair when it was a vertex (fv) inside an
   edge (fi) and proven (kind 1: a's vertex, b's edge; 2: b's vertex, a's edge), else kind 0 */
typedef struct thc__gjk_cache { int n; unsigned char ia[2], ib[2]; int kind, fi, fv; } thc__gjk_cache;

static float thc__edge_test(const thc__proxy *pv, int vi, const thc__proxy *pe, int e, int side, float best, int *kind, int *fi,
                            int *fv, thc_v2 *pa, thc_v2 *pb)
{
    thc_v2 v = pv->v[vi], e0 = pe->v[e], ev = thc__sub(pe->v[e + 1 < pe->count ? e + 1 : 0], e0), w = thc__sub(v, e0);
    float ee = thc__dot(ev, ev), u = thc__dot(w, ev);
    int inside = u > 0 && u < ee;
    thc_v2 q = inside ? thc__add(e0, thc__scale(ev, u / ee)) : u <= 0 ? e0 : thc__add(e0, ev), dv = thc__sub(v, q);
    float dd = thc__dot(dv, dv) * (inside ? 1.0f : 1 + 1e-5f);   /* a face wins near-ties in either order, as thc__end_vs_seg */
    if (dd < best) {
        best = dd; *kind = inside ? (side ? 2 : 1) : 0; *fi = e; *fv = vi;
        if (side) { *pa = q; *pb = v; } else { *pa = v; *pb = q; }
    }
    return best;
}

/* The edges of p touching the simplex indices i0, i1 (equal: one vertex, its two edges); 0 edges when the
   indices are not neighbours (the caller then checks the whole answer anyway). */
static int thc__simplex_edges(const thc__proxy *p, int i0, int i1, int *e)
{
    int n = p->count;
    if (n < 2) return 0;
    if (n == 2) { e[0] = 0; return 1; }
    if (i0 == i1) { e[0] = i0; e[1] = i0 ? i0 - 1 : n - 1; return 2; }
    if (i1 == (i0 + 1 == n ? 0 : i0 + 1)) { e[0] = i0; return 1; }
    if (i0 == (i1 + 1 == n ? 0 : i1 + 1)) { e[0] = i1; return 1; }
    return 0;
}

static float thc__closest_checked(const thc__proxy *a, thc_v2 shift, const thc__proxy *b, thc__gjk_cache *cache,
                                  thc_v2 *pa, thc_v2 *pb, thc_v2 *n, double *sep)
{
    /* a is used as a + shift (the TOI mover) without copying it */
    thc__sv s[3];
    int k = 0;
    if (cache && cache->n > 0) {
        for (int i = 0; i < cache->n; i++) { s[i].ia = cache->ia[i]; s[i].ib = cache->ib[i]; }
        k = cache->n;
    } else { s[0].ia = 0; s[0].ib = 0; k = 1; }
    for (int i = 0; i < k; i++) s[i].w = thc__sub(b->v[s[i].ib], thc__add(a->v[s[i].ia], shift));   /* cached indices stay valid: the proxies do not change */
    int it, ok = a->count * b->count >= THC__GJK_PAIRS, inside = 0;   /* fewer pairs: the brute force is cheaper */
    for (it = 0; ok && it < 24; it++) {
        if (!thc__simplex_solve(s, &k)) { ok = 0; inside = 1; break; }   /* the origin is inside: the cores overlap */
        thc_v2 p = s[0].w;
        if (k == 2) p = thc__add(thc__scale(s[0].w, s[0].a), thc__scale(s[1].w, s[1].a));
        float pp = thc__dot(p, p);
        if (pp < 1e-20f) { ok = 0; inside = 1; break; }
        int ia = thc__support(a, p), ib = thc__support(b, thc__neg(p));
        /* done when the new support point is already in the simplex or brings it no nearer (a cycle among
           dropped points ends at 24 steps and goes to the brute force) */
        if ((ia == s[0].ia && ib == s[0].ib) || (k == 2 && ia == s[1].ia && ib == s[1].ib)) break;
        thc_v2 w = thc__sub(b->v[ib], thc__add(a->v[ia], shift));
        if (pp - thc__dot(p, w) <= 1e-6f * pp) break;
        s[k].ia = ia; s[k].ib = ib; s[k].w = w; s[k].a = 0;
        k++;
    }
    float d = -1;
    if (ok && it < 24 && k <= 2) {
        if (cache) { cache->n = k; for (int i = 0; i < k; i++) { cache->ia[i] = (unsigned char)s[i].ia; cache->ib[i] = (unsigned char)s[i].ib; } }
        int ia0 = s[0].ia, ia1 = s[k - 1].ia, ib0 = s[0].ib, ib1 = s[k - 1].ib, ea[2], eb[2];
        int nea = thc__simplex_edges(a, ia0, ia1, ea), neb = thc__simplex_edges(b, ib0, ib1, eb);
        /* a vertex of one side against an edge of the other (GJK's usual answer): that one pair; else (two
           vertices, or two edges) each vertex against the edges at the other side's points */
        int vf = k == 2 ? (ia0 == ia1 && ib0 != ib1 && neb == 1 ? 1 : ib0 == ib1 && ia0 != ia1 && nea == 1 ? 2 : 0) : 0;
        thc__proxy am;   /* the few vertices needed, shifted */
        am.count = a->count;
        am.v[ia0] = thc__add(a->v[ia0], shift); am.v[ia1] = thc__add(a->v[ia1], shift);
        if (vf != 1)
            for (int i = 0; i < nea; i++) { int e1 = ea[i] + 1 < a->count ? ea[i] + 1 : 0; am.v[ea[i]] = thc__add(a->v[ea[i]], shift); am.v[e1] = thc__add(a->v[e1], shift); }
        thc_v2 dv = thc__sub(b->v[ib0], am.v[ia0]);
        float best = thc__dot(dv, dv) * (1 + 1e-5f);   /* two vertices: scaled as thc__edge_test scales them */
        int kind = 0, fi = 0, fv = 0;
        *pa = am.v[ia0]; *pb = b->v[ib0];
        if (vf == 1) best = thc__edge_test(&am, ia0, b, eb[0], 0, best, &kind, &fi, &fv, pa, pb);
        else if (vf == 2) best = thc__edge_test(b, ib0, &am, ea[0], 1, best, &kind, &fi, &fv, pa, pb);
        else for (int c = 0; c < 2; c++) {
            int va = c ? ia1 : ia0, vb = c ? ib1 : ib0;
            if (c && va == ia0 && vb == ib0) break;
            if (!c || va != ia0) for (int i = 0; i < neb; i++) best = thc__edge_test(&am, va, b, eb[i], 0, best, &kind, &fi, &fv, pa, pb);
            if (!c || vb != ib0) for (int i = 0; i < nea; i++) best = thc__edge_test(b, vb, &am, ea[i], 1, best, &kind, &fi, &fv, pa, pb);
        }
        thc_v2 dq = thc__sub(*pb, *pa);
        d = sqrtf(thc__dot(dq, dq));
        *n = thc__v(1, 0);
        if (kind) {
            thc_v2 fn = kind == 1 ? thc__neg(b->n[fi]) : a->n[fi];
            *n = thc__dot(fn, dq) >= 0 ? fn : thc__neg(fn);
        } else if (d > 0) *n = thc__scale(dq, 1.0f / d);
        else d = -1;
        if (d > 0) {
            *sep = thc__axis_sep(a, shift, b, *n);
            float m = thc__maxf(thc__maxf(fabsf(pa->x), fabsf(pa->y)), thc__maxf(fabsf(pb->x), fabsf(pb->y)));
            if (*sep + (a->r + b->r) >= d - 1e-6 * (m + d)) {   /* proven closest (to rounding) */
                if (cache) { cache->kind = kind; cache->fi = fi; cache->fv = fv; }
                return d;
            }
        }
    }
    if (cache) cache->n = cache->kind = 0;
    if (inside && a->count * b->count >= 12) {   /* what thc__core_closest answers for overlapping cores */
        *pa = *pb = thc__add(a->v[0], shift);
        *n = thc__v(1, 0);
        *sep = cache ? thc__axis_sep(a, shift, b, *n) : 0;   /* only TOI (with a cache) looks at it for touching cores */
        return 0;
    }
    thc__proxy moved;
    const thc__proxy *am = a;
    if (shift.x != 0 || shift.y != 0) {
        moved = *a;
        for (int i = 0; i < a->count; i++) moved.v[i] = thc__add(a->v[i], shift);
        am = &moved;
    }
    d = thc__core_closest(am, b, pa, pb, n);
    *sep = thc__axis_sep(a, shift, b, *n);
    return d;
}

/* What the manifold and the overlap test share: whether the shapes touch and the features that decide it. */
typedef struct thc__sat {
    float sa, sb;         /* best face separations of the cores (-FLT_MAX: no faces) */
    int fa, fb;           /* their faces */
    float d;              /* distance between the cores when they are apart, else -1 */
    thc_v2 pa, pb;        /* closest core points when d >= 0 */
    thc_v2 n;             /* and the deciding features' normal, from a toward b */
} thc__sat;

#define THC__APART 1e-5f
/* thc_distance's touching, relative: a gap within THC__TOUCH_REL of the core distance it was taken from (the
   rounding of "distance minus radii") is 0, so a tiny gap between large shapes and a tiny gap between tiny ones
   are answered alike, and overlap, collide and distance agree on touching at every scale (issue 42; the
   absolute 1e-5 answered two unit circles 9e-6 apart as touching while thc_overlap said apart) */
#define THC__TOUCH_REL 1e-6f
#define THC__BIAS_ABS 5e-4f   /* B's face must beat A's by this much (plus the relative part) to become the reference */
#define THC__BIAS_REL 5e-3f   /* cores closer than this are treated as overlapping: no stable normal between them */

static int thc__classify(const thc__proxy *a, const thc__proxy *b, thc__sat *st)
{
    float r = a->r + b->r;
    st->sa = st->sb = -FLT_MAX;
    st->fa = st->fb = 0;
    st->d = -1;
    if (a->count == 0 || b->count == 0) return 0;
    if (a->count >= 2 && (st->sa = thc__max_sep(a, b, &st->fa, r)) > r) return 0;
    if (b->count >= 2 && (st->sb = thc__max_sep(b, a, &st->fb, r)) > r) return 0;
    if (a->count <= 2 && b->count <= 2) {   /* SAT over segment faces misses the end caps: measure instead */
        float d = thc__core_closest(a, b, &st->pa, &st->pb, &st->n);
        if (d > r) return 0;
        if (d > THC__APART) st->d = d;
        return 1;
    }
    if (st->sa > 0 || st->sb > 0) {
        float d = thc__core_closest(a, b, &st->pa, &st->pb, &st->n);
        if (d > r) return 0;
        if (d > THC__APART) st->d = d;   /* else touching: the SAT face decides */
    }
    return 1;
}

static int thc__proxy_overlap(const thc__proxy *a, const thc__proxy *b)
{
    thc__sat st;
    return thc__classify(a, b, &st);
}

/* Keeps the part of w0-w1 where dot(t, w) >= off. */
static inline int thc__clip(thc_v2 *w0, thc_v2 *w1, thc_v2 t, float off)
{
    float d0 = thc__dot(t, *w0) - off, d1 = thc__dot(t, *w1) - off;
    if (d0 < 0 && d1 < 0) return 0;
    if (d0 < 0) *w0 = thc__lerp(*w0, *w1, d0 / (d0 - d1));
    else if (d1 < 0) *w1 = thc__lerp(*w0, *w1, d0 / (d0 - d1));
    return 1;
}

/* The plane the depths are measured from when the cores are apart: through the farthest along nd of the
   reference core's closest point pd and its face's ends v1, v2. With the exact closest-feature normal that is
   pd itself; at a near tie in picking the closest features the normal may be off the true one (a vertex's
   direction where a face was closest), and then a face end reaches further along it: measuring from pd left
   the shapes overlapping by that much after pushing them apart by the depth. */
static inline thc_v2 thc__depth_plane(thc_v2 nd, thc_v2 pd, thc_v2 v1, thc_v2 v2)
{
    float s = thc__dot(nd, pd), s1 = thc__dot(nd, v1), s2 = thc__dot(nd, v2);
    if (s1 > s) { pd = v1; s = s1; }
    return s2 > s ? v2 : pd;
}

/* Two incident faces whose alignment with the normal differs by less than this are tied (rounding in one frame
   or another, as a polygon's two faces at equal angles to it, would pick either): every road takes the first
   of them, so the roads agree on the incident edge. */
#define THC__TIE 5e-7f

/* The contacts once the reference face v1-v2 (radius rr) is chosen: the incident
   edge w[0]-w[1] (nw 2; nw 1 for a single incident point, which is not clipped) is clipped to the face's
   side planes and its points within reach (r = rr + ri) kept, with depths measured along nd from the
   plane through pd. deep is the deepest incident point, which the contacts must reach. The contacts go
   back to the world by o; the normal is out_n. */
THC__INLINE void thc__contacts(thc_v2 v1, thc_v2 v2, thc_v2 nd, thc_v2 pd, thc_v2 *w, int nw, thc_v2 deep,
                          float rr, float ri, thc_v2 out_n, thc_v2 o, thc_manifold *m)
{
    float r = rr + ri;
    thc_v2 t = thc__sub(v2, v1);
    if (nw == 2) nw = thc__clip(&w[0], &w[1], t, thc__dot(t, v1)) && thc__clip(&w[0], &w[1], thc__neg(t), -thc__dot(t, v2)) ? 2 : 0;
    /* the kept points in locals, written to m once at the end: through m each point was stored, loaded back to
       be moved by o and stored again, and the count read back after every store */
    int cnt = 0;
    float d0 = 0, d1 = 0;
    thc_v2 c0 = thc__v(0, 0), c1 = c0;
    if (nw) {   /* nw is 0, 1 (a point incident) or 2 */
        float s0 = thc__dot(nd, thc__sub(w[0], pd));
        if (!(s0 > r)) { d0 = r - s0; c0 = thc__sub(w[0], thc__scale(nd, 0.5f * (ri + s0 - rr))); cnt = 1; }
    }
    if (nw == 2) {
        float s1 = thc__dot(nd, thc__sub(w[1], pd));
        if (!(s1 > r)) {
            float dd = r - s1;
            thc_v2 cc = thc__sub(w[1], thc__scale(nd, 0.5f * (ri + s1 - rr)));
            if (cnt) { d1 = dd; c1 = cc; } else { d0 = dd; c0 = cc; }
            cnt++;
        }
    }
    if (cnt == 2 && thc__dot(thc__sub(c0, c1), thc__sub(c0, c1)) <= 1e-12f) cnt = 1;
    float sdeep = thc__dot(nd, thc__sub(deep, pd)), ddeep = r - sdeep;
    float dmax = cnt == 2 ? thc__maxf(thc__maxf(-FLT_MAX, d0), d1) : thc__maxf(-FLT_MAX, d0);
    if (cnt == 0) {
        /* clipping kept nothing: one point at the deepest incident feature, slid onto the reference face's span
           and out along nd to its level (not along nref: two incident points tied along nd, as the ends of an
           edge square to it, then give the same point, whichever of them rounding made the deepest; nd is nref
           when the cores overlap) */
        float tt = thc__dot(t, t), u = tt > 0 ? thc__clamp(thc__dot(thc__sub(deep, v1), t) / tt, 0, 1) : 0;
        thc_v2 on = thc__add(thc__add(v1, thc__scale(t, u)), thc__scale(nd, thc__dot(nd, thc__sub(deep, v1))));
        cnt = 1;
        d0 = ddeep > 0 ? ddeep : 0;
        c0 = thc__sub(on, thc__scale(nd, 0.5f * (ri + sdeep - rr)));
    } else if (dmax < ddeep) {
        /* the deepest point lies past the reference face's side: the deepest kept point carries the
           axis's full depth, so pushing out by the largest depth always separates the shapes */
        if (cnt == 2 && d1 > d0) d1 = ddeep;
        else d0 = ddeep;
    }
    m->count = cnt;
    m->depths[0] = d0;
    m->contact_points[0] = thc__add(c0, o);
    if (cnt == 2) {
        m->depths[1] = d1;
        m->contact_points[1] = thc__add(c1, o);
    }
    m->n = out_n;
}

/* One contact midway between the surfaces when the cores are apart by d along the unit n (from a to b),
   their closest points pa and pb (relative to o). */
static void thc__apart_contact(thc_v2 pa, thc_v2 pb, thc_v2 n, float d, float ra, float rb, thc_v2 o, thc_manifold *m)
{
    m->count = 1;
    m->n = n;
    m->depths[0] = ra + rb - d;
    thc_v2 sa = thc__add(pa, thc__scale(n, ra)), sb = thc__sub(pb, thc__scale(n, rb));
    m->contact_points[0] = thc__add(o, thc__scale(thc__add(sa, sb), 0.5f));
}

static void thc__manifold(const thc__proxy *a, const thc__proxy *b, thc_v2 o, thc_manifold *m)
{
    thc__sat st;
    m->count = 0;
    if (!thc__classify(a, b, &st)) return;
    float r = a->r + b->r;
    if (a->count == 1 && b->count == 1) {   /* two circles */
        float d = st.d > 0 ? st.d : 0;
        m->count = 1;
        m->n = st.d > 0 ? st.n : thc__v(1, 0);
        m->depths[0] = r - d;
        m->contact_points[0] = thc__add(o, thc__add(a->v[0], thc__scale(m->n, a->r - 0.5f * m->depths[0])));
        return;
    }
    int flip, face;
    thc_v2 exact_n = thc__v(0, 0);
    if (st.d > 0) {
        /* cores apart: the closest features give the normal; a face lined up with it gives two points */
        exact_n = st.n;
        int faces = a->count >= 2 && b->count >= 2;   /* a circle touches at one point */
        float align_a = faces ? thc__dot(a->n[st.fa], exact_n) : -2;
        float align_b = faces ? -thc__dot(b->n[st.fb], exact_n) : -2;
        if (align_a >= 0.9999f) flip = 0;
        else if (align_b >= 0.9999f) flip = 1;
        else { thc__apart_contact(st.pa, st.pb, exact_n, st.d, a->r, b->r, o, m); return; }
    } else {
        flip = st.sb > st.sa + THC__BIAS_ABS + THC__BIAS_REL * fabsf(st.sa);   /* A's face unless B's is clearly better */
    }
    const thc__proxy *ref = flip ? b : a, *inc = flip ? a : b;
    face = flip ? st.fb : st.fa;
    thc_v2 nref = ref->n[face], v1 = ref->v[face], v2 = ref->v[(face + 1) % ref->count];
    /* Depths are measured along nd from the plane through pd: the reference face itself when the cores
       overlap; when they are apart, the exact closest-feature normal and the plane through the reference
       core's closest point (it separates the cores, and the closest incident point lies at exactly st.d),
       so the answer is the true least depth r - st.d, not the depth along a face that is merely close to it. */
    thc_v2 nd = nref, pd = v1;
    if (st.d > 0) { nd = flip ? thc__neg(exact_n) : exact_n; pd = thc__depth_plane(nd, flip ? st.pb : st.pa, v1, v2); }
    /* the deepest incident point, which the contacts must reach */
    thc_v2 deep = inc->v[0];
    for (int j = 1; j < inc->count; j++)
        if (thc__dot(nd, inc->v[j]) < thc__dot(nd, deep)) deep = inc->v[j];
    thc_v2 w[2];
    int nw = 1;
    w[0] = w[1] = inc->v[0];   /* w[1] read only with nw == 2; set so no compiler takes it for unset */
    if (inc->count >= 2) {   /* the incident edge: the face most anti-parallel to the normal the depths use */
        int k = 0;
        float lo = FLT_MAX;
        for (int j = 0; j < inc->count; j++) {
            float dd = thc__dot(nd, inc->n[j]);
            if (dd < lo) { lo = dd; k = j; }
        }
        for (k = 0; thc__dot(nd, inc->n[k]) > lo + THC__TIE; k++) {}   /* the first of faces tied within rounding */
        w[0] = inc->v[k];
        w[1] = inc->v[(k + 1) % inc->count];
        nw = 2;
    }
    thc__contacts(v1, v2, nd, pd, w, nw, deep, ref->r, inc->r, flip ? thc__neg(nd) : nd, o, m);
}

/* ---------------------------------------------------------------- polygon against polygon, the common case
   Two polygons with area and no radius: the SAT of the cores alone decides (a separating face means
   apart), so thc__manifold's steps reduce to the reference face and the clip. They run in A's own
   frame: only B is moved (its vertices and normals, once), A's stored vertices and normals are used as
   they are, and the contacts and normal are turned back into the world at the end. The answers are
   thc__manifold's up to rounding. A polygon that is flat (or has fewer than 3 vertices) takes the
   general path, which makes a segment of it.
   The work is laid out in lanes, one per vertex slot (THC_MAX_POLY_VERTS of them, x and y apart): all
   the faces of one polygon against one vertex of the other at a time, with the unused slots zeroed on
   loading and their answers thrown away, so the loops over slots have fixed lengths, no branches
   inside and compile to a few vector instructions; argmaxima look at the used slots only, with a
   conditional move each. */
#define THC__L THC_MAX_POLY_VERTS
typedef struct thc__lanes { float x[THC__L], y[THC__L], nx[THC__L], ny[THC__L]; } thc__lanes;   /* vertices and normals */
typedef struct thc__pp {
    int na, nb, fa, fb;
    float sa, sb;
    thc__lanes a, b;   /* A in its own frame, B in A's frame */
} thc__pp;

#if defined(__GNUC__) && !defined(__INTEL_COMPILER)
#define THC__UNROLL _Pragma("GCC unroll 16")
#else
#define THC__UNROLL
#endif

/* The lane holding the largest of the first n values, the first of equal ones (as the general path's
   strict comparisons pick), with a conditional move per lane and no branch. */
static inline int thc__lane_max(const float *s, int n, float *best)
{
    int k = 0;
    float top = s[0];
    for (int i = 1; i < n; i++) {
        k = s[i] > top ? i : k;
        top = s[i] > top ? s[i] : top;
    }
    *best = top;
    return k;
}

/* 1 when a polygon has (almost) no area: thc__proxy_make then treats it as the segment it spans. */
static int thc__poly_flat(const thc_poly *p)
{
    int n = p->count;
    if (n < 3 || n > THC_MAX_POLY_VERTS) return 1;
    /* twice the area as a fan around v0 (the closing edge adds nothing), and the farthest vertex */
    thc_v2 v0 = p->verts[0], a = thc__sub(p->verts[1], v0);
    float area2 = 0, ext2 = a.x * a.x + a.y * a.y;
    for (int i = 2; i < n; i++) {
        thc_v2 b = thc__sub(p->verts[i], v0);
        area2 += a.x * b.y - a.y * b.x;
        ext2 = thc__maxf(ext2, b.x * b.x + b.y * b.y);
        a = b;
    }
    return !(area2 > 1e-6f * ext2);
}

/* n points (of the THC__L a polygon holds) into x and y lanes, the unused slots 0. With SSE2 four slots at a
   time (a slot past n is read, as every polygon holds THC__L, and masked), so the lanes are written by whole
   vectors and the loops reading them whole get their values forwarded from the stores, not stalled. */
#if !defined(THC_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)) && THC__L % 4 == 0
#define THC__SSE2 1
#include <emmintrin.h>
#endif
THC__INLINE void thc__pp_split(const thc_v2 *v, int n, float *x, float *y)
{
#ifdef THC__SSE2
    __m128i cnt = _mm_set1_epi32(n);
    for (int i = 0; i < THC__L; i += 4) {
        __m128 lo = _mm_loadu_ps(&v[i].x), hi = _mm_loadu_ps(&v[i + 2].x);   /* x0 y0 x1 y1, x2 y2 x3 y3 */
        __m128 used = _mm_castsi128_ps(_mm_cmplt_epi32(_mm_setr_epi32(i, i + 1, i + 2, i + 3), cnt));
        _mm_storeu_ps(x + i, _mm_and_ps(used, _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))));
        _mm_storeu_ps(y + i, _mm_and_ps(used, _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1))));
    }
#else
    for (int i = 0; i < THC__L; i++) {
        x[i] = i < n ? v[i].x : 0;
        y[i] = i < n ? v[i].y : 0;
    }
#endif
}

/* Loads a polygon's n used slots (the rest as 0) and answers thc__proxy_make's test for a polygon with
   (almost) no area, which it flattens to a segment: 0 then. Twice the area as a fan around v0 and the farthest
   vertex from it; with SSE2 lane by lane (each vertex's cross product with the next one's, the unused slots
   and the fan's first and last triangles adding nothing), summed in another order, else one vertex at a time. */
static inline int thc__pp_load(const thc_poly *p, int n, thc__lanes *o)
{
    thc_v2 v0 = p->verts[0];
    float area2 = 0, ext2 = 0;
#ifdef THC__SSE2
    __m128i cnt = _mm_set1_epi32(n);
    __m128 x0 = _mm_set1_ps(v0.x), y0 = _mm_set1_ps(v0.y), zero = _mm_setzero_ps(), bx[THC__L / 4], by[THC__L / 4];
    for (int i = 0; i < THC__L; i += 4) {
        __m128 used = _mm_castsi128_ps(_mm_cmplt_epi32(_mm_setr_epi32(i, i + 1, i + 2, i + 3), cnt));
        __m128 lo = _mm_loadu_ps(&p->verts[i].x), hi = _mm_loadu_ps(&p->verts[i + 2].x);   /* x0 y0 x1 y1, x2 y2 x3 y3 */
        __m128 x = _mm_and_ps(used, _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))), y = _mm_and_ps(used, _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1)));
        _mm_storeu_ps(o->x + i, x);
        _mm_storeu_ps(o->y + i, y);
        bx[i / 4] = _mm_and_ps(used, _mm_sub_ps(x, x0));
        by[i / 4] = _mm_and_ps(used, _mm_sub_ps(y, y0));
        lo = _mm_loadu_ps(&p->norms[i].x);
        hi = _mm_loadu_ps(&p->norms[i + 2].x);
        _mm_storeu_ps(o->nx + i, _mm_and_ps(used, _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))));
        _mm_storeu_ps(o->ny + i, _mm_and_ps(used, _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1))));
    }
    __m128 ar = zero, ex = zero;
    for (int k = 0; k < THC__L / 4; k++) {   /* the next slot's vertex beside each: (b1 b2 b3 b4) from (b0 b1 b2 b3), (b4 ..) */
        __m128 tx = _mm_move_ss(bx[k], k + 1 < THC__L / 4 ? bx[k + 1] : zero), ty = _mm_move_ss(by[k], k + 1 < THC__L / 4 ? by[k + 1] : zero);
        __m128 sx = _mm_shuffle_ps(tx, tx, _MM_SHUFFLE(0, 3, 2, 1)), sy = _mm_shuffle_ps(ty, ty, _MM_SHUFFLE(0, 3, 2, 1));
        ar = _mm_add_ps(ar, _mm_sub_ps(_mm_mul_ps(bx[k], sy), _mm_mul_ps(by[k], sx)));
        ex = _mm_max_ps(ex, _mm_add_ps(_mm_mul_ps(bx[k], bx[k]), _mm_mul_ps(by[k], by[k])));
    }
    ar = _mm_add_ps(ar, _mm_movehl_ps(ar, ar));
    ex = _mm_max_ps(ex, _mm_movehl_ps(ex, ex));
    area2 = _mm_cvtss_f32(_mm_add_ss(ar, _mm_shuffle_ps(ar, ar, _MM_SHUFFLE(1, 1, 1, 1))));
    ext2 = _mm_cvtss_f32(_mm_max_ss(ex, _mm_shuffle_ps(ex, ex, _MM_SHUFFLE(1, 1, 1, 1))));
#else
    thc_v2 a = thc__v(0, 0);
    thc__pp_split(p->verts, n, o->x, o->y);
    thc__pp_split(p->norms, n, o->nx, o->ny);
    for (int i = 0; i < n; i++) {
        thc_v2 b = thc__sub(p->verts[i], v0);
        area2 += a.x * b.y - a.y * b.x;
        ext2 = thc__maxf(ext2, b.x * b.x + b.y * b.y);
        a = b;
    }
#endif
    return area2 > 1e-6f * ext2;
}

/* B's lanes (every slot) moved into A's frame: rotation R_A^T R_B, translation R_A^T (p_B - p_A). */
THC__INLINE void thc__pp_move(const thc__lanes *bl, const thc_transform *ax, const thc_transform *bx, thc__lanes *o)
{
    float c = ax->c * bx->c + ax->s * bx->s, sn = ax->c * bx->s - ax->s * bx->c;
    thc_v2 d = thc__sub(bx->p, ax->p);
    float tx = ax->c * d.x + ax->s * d.y, ty = ax->c * d.y - ax->s * d.x;
    for (int i = 0; i < THC__L; i++) {
        o->x[i] = c * bl->x[i] - sn * bl->y[i] + tx;
        o->y[i] = sn * bl->x[i] + c * bl->y[i] + ty;
        o->nx[i] = c * bl->nx[i] - sn * bl->ny[i];
        o->ny[i] = sn * bl->nx[i] + c * bl->ny[i];
    }
}

/* The faces of f (nf used) against the vertices of v (nv used): each face's separation of v (the least over
   v's vertices, less the face's offset); the best face, its separation in *best. */
THC__INLINE int thc__pp_faces(const thc__lanes *f, int nf, const thc__lanes *v, int nv, float *best)
{
#ifdef THC__SSE2
    /* the minima kept in registers: as plain loops they went through memory at every vertex, each step
       waiting on the last one's stores */
    __m128 s[THC__L / 4], fx[THC__L / 4], fy[THC__L / 4];
    float sm[THC__L];
    for (int i = 0; i < THC__L; i += 4) {
        s[i / 4] = _mm_set1_ps(FLT_MAX);
        fx[i / 4] = _mm_loadu_ps(f->nx + i);
        fy[i / 4] = _mm_loadu_ps(f->ny + i);
    }
    for (int j = 0; j < nv; j++) {
        __m128 vx = _mm_set1_ps(v->x[j]), vy = _mm_set1_ps(v->y[j]);
        for (int i = 0; i < THC__L / 4; i++) s[i] = _mm_min_ps(_mm_add_ps(_mm_mul_ps(fx[i], vx), _mm_mul_ps(fy[i], vy)), s[i]);
    }
    for (int i = 0; i < THC__L; i += 4) {
        __m128 off = _mm_add_ps(_mm_mul_ps(fx[i / 4], _mm_loadu_ps(f->x + i)), _mm_mul_ps(fy[i / 4], _mm_loadu_ps(f->y + i)));
        s[i / 4] = _mm_sub_ps(s[i / 4], off);
        _mm_storeu_ps(sm + i, s[i / 4]);
    }
    return thc__lane_max(sm, nf, best);
#else
    float s[THC__L], off[THC__L];
    for (int i = 0; i < THC__L; i++) {
        s[i] = FLT_MAX;
        off[i] = f->nx[i] * f->x[i] + f->ny[i] * f->y[i];
    }
    for (int j = 0; j < nv; j++) {
        float vx = v->x[j], vy = v->y[j];
        for (int i = 0; i < THC__L; i++) {
            float e = f->nx[i] * vx + f->ny[i] * vy;
            s[i] = e < s[i] ? e : s[i];
        }
    }
    for (int i = 0; i < THC__L; i++) s[i] -= off[i];
    return thc__lane_max(s, nf, best);
#endif
}

/* -1: not the common case (use the proxies), 0: apart, 1: touching (the SAT result is in q). */
static int thc__pp_sat(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx, thc__pp *q)
{
    int na = a->count < THC__L ? a->count : THC__L, nb = b->count < THC__L ? b->count : THC__L;
    thc__lanes bl;
    if (na < 3 || nb < 3) return -1;
    if (!thc__pp_load(a, na, &q->a) || !thc__pp_load(b, nb, &bl)) return -1;
    q->na = na;
    q->nb = nb;
    thc__pp_move(&bl, ax, bx, &q->b);
    q->fa = thc__pp_faces(&q->a, na, &q->b, nb, &q->sa);   /* A's faces against B's vertices */
    if (q->sa > 0) return 0;
    q->fb = thc__pp_faces(&q->b, nb, &q->a, na, &q->sb);   /* B's faces against A's vertices */
    return q->sb > 0 ? 0 : 1;
}

/* thc__manifold's reference face and clip for two polygons, from thc__pp_sat's answer, in A's frame. */
static void thc__pp_manifold(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx,
                             const thc__pp *q, thc_manifold *m)
{
    int flip = q->sb > q->sa + THC__BIAS_ABS + THC__BIAS_REL * fabsf(q->sa);   /* A's face unless B's is clearly better */
    int f = flip ? q->fb : q->fa, nr = flip ? q->nb : q->na, ni = flip ? q->na : q->nb, g = f + 1 < nr ? f + 1 : 0;
    const thc__lanes *rl = flip ? &q->b : &q->a, *il = flip ? &q->a : &q->b;
    thc_v2 nref = thc__v(rl->nx[f], rl->ny[f]), v1 = thc__v(rl->x[f], rl->y[f]), v2 = thc__v(rl->x[g], rl->y[g]);
    /* the deepest incident vertex, which the contacts must reach, and the incident edge: the most anti-parallel face */
    float dv[THC__L], dn[THC__L], lo;
    for (int j = 0; j < THC__L; j++) {
        dv[j] = -(nref.x * il->x[j] + nref.y * il->y[j]);
        dn[j] = -(nref.x * il->nx[j] + nref.y * il->ny[j]);
    }
    int kd = thc__lane_max(dv, ni, &lo), k = thc__lane_max(dn, ni, &lo);
    for (int j = ni - 1; j >= 0; j--) k = dn[j] >= lo - THC__TIE ? j : k;   /* the first of faces tied within rounding */
    int k1 = k + 1 < ni ? k + 1 : 0;
    thc_v2 deep = thc__v(il->x[kd], il->y[kd]), w[2];
    w[0] = thc__v(il->x[k], il->y[k]);
    w[1] = thc__v(il->x[k1], il->y[k1]);
    thc_v2 t = thc__sub(v2, v1);
    int nw = thc__clip(&w[0], &w[1], t, thc__dot(t, v1)) && thc__clip(&w[0], &w[1], thc__neg(t), -thc__dot(t, v2)) ? 2 : 0;
    /* the kept points (below the reference face) in locals, written to m once at the end: through m each
       point was stored, loaded back and stored again, and the count read back after every store */
    int cnt = 0;
    float d0 = 0, d1 = 0;
    thc_v2 c0 = thc__v(0, 0), c1 = c0;
    if (nw) {
        float s0 = thc__dot(nref, thc__sub(w[0], v1)), s1 = thc__dot(nref, thc__sub(w[1], v1));
        if (!(s0 > 0)) { d0 = 0 - s0; c0 = thc__sub(w[0], thc__scale(nref, 0.5f * s0)); cnt = 1; }
        if (!(s1 > 0)) {
            float dd = 0 - s1;
            thc_v2 cc = thc__sub(w[1], thc__scale(nref, 0.5f * s1));
            if (cnt) { d1 = dd; c1 = cc; } else { d0 = dd; c0 = cc; }
            cnt++;
        }
    }
    if (cnt == 2 && thc__dot(thc__sub(c0, c1), thc__sub(c0, c1)) <= 1e-12f) cnt = 1;
    float sdeep = thc__dot(nref, thc__sub(deep, v1)), ddeep = 0 - sdeep;
    float dmax = cnt == 2 ? thc__maxf(thc__maxf(-FLT_MAX, d0), d1) : thc__maxf(-FLT_MAX, d0);
    if (cnt == 0) {
        /* clipping kept nothing: one point at the deepest incident vertex, slid onto the reference face's span */
        float tt = thc__dot(t, t), u = tt > 0 ? thc__clamp(thc__dot(thc__sub(deep, v1), t) / tt, 0, 1) : 0;
        thc_v2 on = thc__add(thc__add(v1, thc__scale(t, u)), thc__scale(nref, sdeep));
        cnt = 1;
        d0 = ddeep > 0 ? ddeep : 0;
        c0 = thc__sub(on, thc__scale(nref, 0.5f * sdeep));
    } else if (dmax < ddeep) {
        /* the deepest point lies past the reference face's side: the deepest kept point carries the full depth */
        if (cnt == 2 && d1 > d0) d1 = ddeep;
        else d0 = ddeep;
    }
    /* back to the world (the normal turned as the proxies turn it, so it comes out the same) */
    m->count = cnt;
    m->depths[0] = d0;
    m->contact_points[0] = thc_mul_xf(*ax, c0);
    if (cnt == 2) {
        m->depths[1] = d1;
        m->contact_points[1] = thc_mul_xf(*ax, c1);
    }
    m->n = flip ? thc__neg(thc_mul_rot(*bx, b->norms[q->fb])) : thc_mul_rot(*ax, a->norms[q->fa]);
}

/* -1: not the common case (use the proxies), 0: apart, 1: touching, with the manifold in m unless m is NULL. */
static int thc__poly_poly(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx, thc_manifold *m)
{
    thc_poly shifted;
    thc_transform at, bt;
    thc__pp q;
    if (!ax) {   /* world vertices: measured from the first one, as the proxies do, so far-away polygons keep their precision */
        int n = a->count < THC_MAX_POLY_VERTS ? a->count : THC_MAX_POLY_VERTS;
        if (n < 3) return -1;
        at.p = a->verts[0];
        at.c = 1;
        at.s = 0;
        shifted.count = n;
        for (int i = 0; i < n; i++) {
            shifted.verts[i] = thc__sub(a->verts[i], at.p);
            shifted.norms[i] = a->norms[i];
        }
        a = &shifted;
        ax = &at;
    }
    if (!bx) {
        bt.p = thc__v(0, 0);
        bt.c = 1;
        bt.s = 0;
        bx = &bt;
    }
    int r = thc__pp_sat(a, ax, b, bx, &q);
    if (r == 1 && m) thc__pp_manifold(a, ax, b, bx, &q, m);
    return r;
}


/* ---------------------------------------------------------------- circles against capsules and polygons, directly
   The same answers thc__manifold gives for these pairs (a point core against a segment or polygon core),
   without building proxies. They return 0 for what they leave to it: a centre on the segment, a
   polygon with no area, or cores closer than THC__APART. */
/* x clamped to [0, 1] (NaN to 0) with no branch: min/max instructions where the compiler would branch */
#if defined(__SSE__) || defined(_M_X64) || defined(_M_AMD64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1)
#include <xmmintrin.h>
THC__INLINE float thc__clamp01(float x) { return _mm_cvtss_f32(_mm_min_ss(_mm_max_ss(_mm_set_ss(x), _mm_setzero_ps()), _mm_set_ss(1.0f))); }
/* a radius as the queries read it: a negative one is 0, NaN stays NaN (maxss keeps its second operand on NaN) */
THC__INLINE float thc__radius(float r) { return _mm_cvtss_f32(_mm_max_ss(_mm_setzero_ps(), _mm_set_ss(r))); }
/* sqrtf's value without its errno branch (sqrtss rounds exactly as sqrtf does) */
THC__INLINE float thc__sqrt(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
#else
THC__INLINE float thc__clamp01(float x) { return x > 0 ? (x < 1 ? x : 1) : 0; }
THC__INLINE float thc__radius(float r) { return r < 0 ? 0 : r; }
THC__INLINE float thc__sqrt(float x) { return sqrtf(x); }
#endif

/* The closest point of the segment at the clamped fraction, without branching on which part is closest
   (a mix of circles makes that unpredictable); a zero-length segment gives 0 / 0, clamped to 0. */
static int thc__circle_capsule_overlap(const thc_circle *c, const thc_capsule *k)
{
    float bx = k->b.x - k->a.x, by = k->b.y - k->a.y, px = c->p.x - k->a.x, py = c->p.y - k->a.y;
    float t = (px * bx + py * by) / (bx * bx + by * by);
    t = thc__clamp01(t);
    float dx = px - bx * t, dy = py - by * t, ra = c->r < 0 ? 0 : c->r, rb = k->r < 0 ? 0 : k->r, r = ra + rb;   /* NaN stays NaN */
    return dx * dx + dy * dy <= r * r;
}

/* NaN and infinity answer no contact here, folded into the tests the answer makes anyway: a NaN radius stays
   NaN and fails "within reach", a NaN or infinite centre puts the closest point at NaN or infinity (out of
   reach), and a contact is kept only with the segment and the radii finite (ee + r below FLT_MAX; an infinite
   end makes ee infinite or NaN, though the closest point may be the other, finite end). */
static int thc__circle_capsule_manifold(const thc_circle *c, const thc_capsule *k, thc_manifold *m)
{
    thc_v2 o = c->p, a = thc__sub(k->a, o), e = thc__sub(k->b, k->a);
    float ra = c->r < 0 ? 0 : c->r, rb = k->r < 0 ? 0 : k->r, ee = thc__dot(e, e);   /* NaN stays NaN */
    if (!(ee > 1e-24f)) return 0;
    float u = -thc__dot(a, e);
    int inside = u > 0 && u < ee;
    thc_v2 q = inside ? thc__add(a, thc__scale(e, u / ee)) : u <= 0 ? a : thc__add(a, e);
    float dd = thc__dot(q, q), r = ra + rb;
    m->count = 0;
    if (!(dd <= r * r) || !(ee + r < FLT_MAX)) return 1;
    float dist = sqrtf(dd);
    if (!(dist > THC__APART)) return 0;
    thc_v2 n;
    if (inside) {   /* the segment's own normal, facing away from the circle */
        float l = sqrtf(ee);
        n = thc__v(e.y / l, -e.x / l);
        if (thc__dot(n, q) < 0) n = thc__neg(n);
    } else {
        n = thc__scale(q, 1.0f / dist);
    }
    thc__apart_contact(thc__v(0, 0), q, n, dist, ra, rb, o, m);
    return 1;
}

/* The closest point to lc on face i's edge (kind 1 inside its span, 0 at an end), kept when nearer than
   *bd (a face wins ties). */
THC__INLINE void thc__edge_closest(const thc_poly *p, int i, thc_v2 lc, float *bd, thc_v2 *bq, int *kind, thc_v2 *bn)
{
    int n = p->count;
    thc_v2 v0 = p->verts[i], e = thc__sub(p->verts[i + 1 < n ? i + 1 : 0], v0), w = thc__sub(lc, v0);
    float ee = thc__dot(e, e), u = thc__dot(w, e);
    int inside = u > 0 && u < ee;
    thc_v2 q = inside ? thc__add(v0, thc__scale(e, u / ee)) : u <= 0 ? v0 : thc__add(v0, e);
    thc_v2 d = thc__sub(q, lc);
    float dd = thc__dot(d, d);
    if (dd < *bd || (inside && dd <= *bd)) { *bd = dd; *bq = q; *kind = inside; *bn = p->norms[i]; }
}

/* The centre in the polygon's frame: SAT over the faces; inside, out through the face of least penetration;
   outside, the closest feature lies on the face of greatest separation (for a convex polygon with area the
   point's Voronoi region touches that face), and on the next face past an end of it when the two are in
   line. Returns 0 for a polygon with no area and for cores closer than THC__APART. */
static int thc__circle_poly_manifold(const thc_circle *c, const thc_poly *p, const thc_transform *xf, thc_manifold *m)
{
    float cs = 1, sn = 0, rx = c->p.x, ry = c->p.y;
    if (xf) { cs = xf->c; sn = xf->s; rx -= xf->p.x; ry -= xf->p.y; }
    thc_v2 lc = thc__v(cs * rx + sn * ry, -sn * rx + cs * ry);   /* the centre in the polygon's frame */
    float ra = c->r < 0 ? 0 : c->r;   /* NaN stays NaN */
    int n = p->count, face = 0;
    if (n < 3 || n > THC_MAX_POLY_VERTS) return 0;
    /* NaN and infinity answer no contact without a look of their own: a NaN or infinite centre or transform
       makes every separation NaN or infinite (so the best is NaN or +inf: apart, or -inf: an infinite depth),
       a NaN radius fails the reach test, and a contact is kept only with a finite depth bound ra - best. */
    float best = p->norms[0].x * (lc.x - p->verts[0].x) + p->norms[0].y * (lc.y - p->verts[0].y);
    for (int i = 1; i < n; i++) {
        float s = p->norms[i].x * (lc.x - p->verts[i].x) + p->norms[i].y * (lc.y - p->verts[i].y);
        if (s > best) { best = s; face = i; }
    }
    m->count = 0;
    if (!(best <= ra) || !(ra - best < FLT_MAX)) return 1;   /* a separating face: apart, whatever the polygon's shape */
    /* A polygon with no area is the segment between its extreme points (the general path). Its normals
       barely turn at any vertex (they fold back where its points lie on a line), so the area is looked at
       only when they barely turn at an end of the deciding face; a thin polygon with corners answers as the
       segment it nearly is. */
    thc_v2 nf = p->norms[face], np = p->norms[face > 0 ? face - 1 : n - 1], nx = p->norms[face + 1 < n ? face + 1 : 0];
    if (thc__minf(thc__cross(np, nf), thc__cross(nf, nx)) <= 1e-3f && thc__poly_flat(p)) return 0;
    if (best <= 0) {   /* the centre is inside: out through the face of least penetration */
        thc_v2 wf = thc__v(cs * nf.x - sn * nf.y, sn * nf.x + cs * nf.y);
        m->count = 1;
        m->n = thc__neg(wf);
        m->depths[0] = ra - best;
        m->contact_points[0] = thc__sub(c->p, thc__scale(wf, 0.5f * (ra + best)));   /* midway between the surfaces */
        return 1;
    }
    /* outside: the closest feature decides - a face's own normal, or the direction to a vertex */
    float bd = FLT_MAX;
    thc_v2 bq = lc, bn = thc__v(1, 0);
    int kind = 0;
    thc__edge_closest(p, face, lc, &bd, &bq, &kind, &bn);
    if (!kind) {   /* at an end: the face on that side may hold the closest point when it is in line */
        int g = bq.x == p->verts[face].x && bq.y == p->verts[face].y ? (face > 0 ? face - 1 : n - 1) : (face + 1 < n ? face + 1 : 0);
        thc__edge_closest(p, g, lc, &bd, &bq, &kind, &bn);
    }
    float dist = sqrtf(bd);
    if (!(dist <= ra)) return 1;
    if (!(dist > THC__APART)) return 0;
    thc_v2 ln = kind ? thc__neg(bn) : thc__scale(thc__sub(bq, lc), 1.0f / dist), q = thc__sub(bq, lc);
    thc_v2 wn = thc__v(cs * ln.x - sn * ln.y, sn * ln.x + cs * ln.y), wq = thc__v(cs * q.x - sn * q.y, sn * q.x + cs * q.y);
    thc__apart_contact(thc__v(0, 0), wq, wn, dist, ra, 0, c->p, m);
    return 1;
}

/* ---------------------------------------------------------------- two capsules, directly
   thc__manifold's steps for two segment cores written out (the same answers up to rounding, without
   proxies or loops over vertex counts): each segment's two faces for the SAT; the closest features
   (the crossing point, else the best of the four end-against-segment distances, a face's own normal when
   an end lies inside the other segment's span); the reference face and the clip. Nearly parallel
   capsules get two contacts, others one. Returns 0 for what it leaves to the general path: a capsule
   with no length. Without contacts (thc_overlap) it stops at the tests and returns 2 for touching, so
   that the two answers agree. With contacts m->count is 0 on entry (thc_collide's first store) and is
   written only where contacts are made.
   A face wins a near-tie whichever candidate comes first: a point projecting just inside a segment near its end
   is as far from that end as from the segment, up to rounding, and only the segment's own normal is right (the
   direction to the end is tilted by the gap along the segment over the distance, which a long reference face
   turns into depth). So the squared distance to an end is scaled by 1 + 1e-5 before the strict comparison: an
   end replaces a face only when clearly nearer, a face replaces an end unless clearly farther (issue 42). *best
   holds the scaled value. */
static inline void thc__end_vs_seg(thc_v2 v, thc_v2 e0, thc_v2 e, float ee, float inv, int id,
                                   float *best, int *bid, float *bu, int *binside)
{
    thc_v2 w = thc__sub(v, e0);
    float u = thc__dot(w, e), dd;
    int inside = u > 0 && u < ee;
    if (inside) { float c = thc__cross(w, e); dd = c * c * inv; }
    else if (u <= 0) dd = thc__dot(w, w) * (1 + 1e-5f);
    else { thc_v2 w1 = thc__sub(w, e); dd = thc__dot(w1, w1) * (1 + 1e-5f); }
    if (dd < *best) { *best = dd; *bid = id; *bu = u * inv; *binside = inside; }
}

/* Far apart: the cores' middles farther apart than their half lengths and the radii, with a relative slack of
   1e-4 so that a pair within rounding of touching goes on to the exact tests (NaN fails this test). A's core
   runs from the origin to a1, B's from b0 to b1. */
THC__INLINE int thc__capsules_far(thc_v2 a1, thc_v2 b0, thc_v2 b1, float la, float lb, float r)
{
    thc_v2 mc = thc__sub(thc__add(b0, b1), a1);   /* both sides doubled */
    float reach = (la + lb + 2 * r) * 1.0001f;
    return thc__dot(mc, mc) > reach * reach;
}

THC__INLINE int thc__capsules(const thc_capsule *ka, const thc_capsule *kb, thc_manifold *m, int contacts)
{
    thc_v2 o = ka->a, a1 = thc__sub(ka->b, o), b0 = thc__sub(kb->a, o), b1 = thc__sub(kb->b, o), eb = thc__sub(b1, b0);
    float la = thc__sqrt(thc__dot(a1, a1)), lb = thc__sqrt(thc__dot(eb, eb));
    if (!(la > 1e-12f) || !(lb > 1e-12f)) return 0;
    float ra = thc__radius(ka->r), rb = thc__radius(kb->r), r = ra + rb;   /* NaN stays NaN */
    if (contacts && thc__capsules_far(a1, b0, b1, la, lb, r)) return 1;   /* thc_overlap's axes alone are cheaper */
    thc_v2 na = thc__v(a1.y / la, -a1.x / la), nb = thc__v(eb.y / lb, -eb.x / lb);
    thc_v2 zero = thc__v(0, 0);   /* A's core runs from the origin (its first end) to a1 */
    /* SAT: B's ends against A's two faces (na through the origin, -na through a1), A's ends against B's */
    float p0 = thc__dot(na, b0), p1 = thc__dot(na, b1), sa0 = thc__minf(p1, p0), sa1 = thc__dot(na, a1) - thc__maxf(p0, p1);
    int fa = sa1 > sa0;
    float sa = fa ? sa1 : sa0;
    if (!(sa <= r)) return 1;   /* NaN: apart */
    float q1 = thc__dot(nb, a1), sb0 = thc__minf(q1, 0.0f) - thc__dot(nb, b0), sb1 = thc__dot(nb, b1) - thc__maxf(0.0f, q1);
    int fb = sb1 > sb0;
    float sb = fb ? sb1 : sb0;
    /* NaN and infinity answer no contact: a NaN radius fails the tests above, an infinite end makes la or lb
       infinite (both ends of one segment infinite make it NaN, which the length test sent away) */
    if (!(sb <= r) || !(la + lb + r < FLT_MAX)) return 1;
    /* the closest features: two segments that cross touch */
    float x = thc__cross(a1, eb), dist = 0;
    int crossed = 0, flip;
    /* One segment clearly on one side of the other's line (a separation above 1e-5 of the lengths and radii,
       far beyond the rounding of both tests once the far look has bounded the ends) cannot cross it: the
       crossing test would say no, so it is skipped. */
    float slack = 1e-5f * (la + lb + r);
    if (!(contacts && (sa > slack || sb > slack)) && x != 0) {
        float ta = thc__cross(b0, eb) / x, tb = thc__cross(b0, a1) / x;
        crossed = ta >= 0 && ta <= 1 && tb >= 0 && tb <= 1;
    }
    thc_v2 pa = zero, pb = zero, n = thc__v(1, 0);
    if (!crossed) {
        float eeb = thc__dot(eb, eb), eea = thc__dot(a1, a1), best = FLT_MAX, bu = 0;
        float invb = 1.0f / eeb, inva = 1.0f / eea;   /* both lengths passed 1e-12 */
        int id = -1, inside = 0;
        thc__end_vs_seg(zero, b0, eb, eeb, invb, 0, &best, &id, &bu, &inside);
        thc__end_vs_seg(a1, b0, eb, eeb, invb, 1, &best, &id, &bu, &inside);
        thc__end_vs_seg(b0, zero, a1, eea, inva, 2, &best, &id, &bu, &inside);
        thc__end_vs_seg(b1, zero, a1, eea, inva, 3, &best, &id, &bu, &inside);
        /* branches, not selects: a select of two points packs them into integer registers and back */
        if (id < 2) {   /* an end of A against B's segment */
            if (id) pa = a1;
            if (inside) pb = thc__add(b0, thc__scale(thc__sub(b1, b0), bu));
            else if (bu <= 0) pb = b0;
            else pb = b1;
        } else {
            pb = b0;
            if (id == 3) pb = b1;
            if (inside) pa = thc__add(zero, thc__scale(thc__sub(a1, zero), bu));
            else if (!(bu <= 0)) pa = a1;
        }
        thc_v2 d = thc__sub(pb, pa);
        dist = thc__sqrt(thc__dot(d, d));
        if (inside) {   /* the segment's own normal, turned to run from a to b */
            thc_v2 fn = id < 2 ? thc__neg(nb) : na;
            n = thc__dot(fn, d) >= 0 ? fn : thc__neg(fn);
        } else if (dist > 0) {
            n = thc__scale(d, 1.0f / dist);
        }
        if (!(dist <= r)) return 1;
    }
    if (!contacts) return 2;
    int apart = dist > THC__APART;
    if (apart) {
        /* cores apart: the closest features give the normal; a face lined up with it gives two points */
        float an = thc__dot(na, n), bn = thc__dot(nb, n);
        if ((fa ? -an : an) >= 0.9999f) flip = 0;
        else if ((fb ? bn : -bn) >= 0.9999f) flip = 1;
        else { thc__apart_contact(pa, pb, n, dist, ra, rb, o, m); return 1; }
    } else {
        flip = sb > sa + THC__BIAS_ABS + THC__BIAS_REL * fabsf(sa);   /* A's face unless B's is clearly better */
    }
    /* the reference face v1-v2 (normal nref) and the incident segment i0-i1 (face normal in0) */
    thc_v2 v1, v2, nref, i0, i1, in0, w[2];
    if (flip) {
        i0 = zero; i1 = a1; in0 = na;
        if (fb) { v1 = b1; v2 = b0; nref = thc__neg(nb); } else { v1 = b0; v2 = b1; nref = nb; }
    } else {
        i0 = b0; i1 = b1; in0 = nb;
        if (fa) { v1 = a1; v2 = zero; nref = thc__neg(na); } else { v1 = zero; v2 = a1; nref = na; }
    }
    thc_v2 nd = nref, pd = v1;
    if (apart) { nd = flip ? thc__neg(n) : n; pd = thc__depth_plane(nd, flip ? pb : pa, v1, v2); }
    thc_v2 deep = i0;
    if (thc__dot(nd, i1) < thc__dot(nd, i0)) deep = i1;
    if (thc__dot(nref, in0) > 0) { w[0] = i1; w[1] = i0; }   /* the incident face: the more anti-parallel of in0 and -in0 */
    else { w[0] = i0; w[1] = i1; }
    thc__contacts(v1, v2, nd, pd, w, 2, deep, flip ? rb : ra, flip ? ra : rb, flip ? thc__neg(nd) : nd, o, m);
    return 1;
}

static int thc__capsule_capsule_manifold(const thc_capsule *ka, const thc_capsule *kb, thc_manifold *m)
{
    return thc__capsules(ka, kb, m, 1);
}

/* ---------------------------------------------------------------- any pair */
static int thc__pair_proxies(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                             const thc_transform *bx, thc__proxy *pa, thc__proxy *pb, thc_v2 *o)
{
    *o = thc__anchor(a, ta, ax);
    return thc__proxy_make(pa, a, ta, ax, *o) & thc__proxy_make(pb, b, tb, bx, *o);
}

/* A frame's rotation and placement, inline (world = f->p + rot(f) local). */
THC__INLINE thc_v2 thc__rot(const thc_transform *f, thc_v2 v) { return thc__v(f->c * v.x - f->s * v.y, f->s * v.x + f->c * v.y); }
THC__INLINE thc_v2 thc__place(const thc_transform *f, thc_v2 v) { return thc__v(f->c * v.x - f->s * v.y + f->p.x, f->s * v.x + f->c * v.y + f->p.y); }
THC__INLINE thc_v2 thc__unrot(const thc_transform *f, thc_v2 v) { return thc__v(f->c * v.x + f->s * v.y, -f->s * v.x + f->c * v.y); }
THC__INLINE thc_v2 thc__unplace(const thc_transform *f, thc_v2 v) { return thc__unrot(f, thc__sub(v, f->p)); }

/* A shape's proxy in the frame f (world = f.p + rot(f) local); the polygon whose transform f is comes over
   as it is stored (its vertices and normals copied, nothing rotated), every other shape through the one
   relative transform. */
static THC__NOINLINE int thc__proxy_in(thc__proxy *px, const void *s, thc_type t, const thc_transform *xf, const thc_transform *f)
{
    if (t == THC_POLY && xf == f) {
        const thc_poly *p = (const thc_poly *)s;
        int n = p->count;
        if (thc__poly_flat(p)) return thc__proxy_make(px, s, t, NULL, thc__v(0, 0));   /* flattened as usual */
        px->count = n;
        px->r = 0;
        for (int i = 0; i < n; i++) { px->v[i] = p->verts[i]; px->n[i] = p->norms[i]; }
        return 1;
    }
    thc_v2 ex = thc__v(f->c, -f->s), ey = thc__v(f->s, f->c);   /* the world axes in the frame */
    switch (t) {
    case THC_AABB: {
        const thc_aabb *b = (const thc_aabb *)s;
        thc_v2 lo = thc__sub(b->min, f->p), hi = thc__sub(b->max, f->p);
        thc_v2 xl = thc__scale(ex, lo.x), xh = thc__scale(ex, hi.x), yl = thc__scale(ey, lo.y), yh = thc__scale(ey, hi.y);
        px->count = 4;
        px->r = 0;
        px->v[0] = thc__add(xl, yl); px->v[1] = thc__add(xh, yl); px->v[2] = thc__add(xh, yh); px->v[3] = thc__add(xl, yh);
        px->n[0] = thc__neg(ey); px->n[1] = ex; px->n[2] = ey; px->n[3] = thc__neg(ex);
        return 1;
    }
    case THC_POLY: {
        thc_transform rel;
        if (xf) {
            rel.c = f->c * xf->c + f->s * xf->s;
            rel.s = f->c * xf->s - f->s * xf->c;
            rel.p = thc__unplace(f, xf->p);
        } else { rel.c = f->c; rel.s = -f->s; rel.p = thc__unplace(f, thc__v(0, 0)); }
        return thc__proxy_make(px, s, t, &rel, thc__v(0, 0));
    }
    case THC_CAPSULE: {
        const thc_capsule *c = (const thc_capsule *)s;
        thc__proxy_segment(px, thc__unplace(f, c->a), thc__unplace(f, c->b));
        px->r = c->r > 0 ? c->r : 0;
        return 1;
    }
    case THC_CIRCLE: {
        const thc_circle *c = (const thc_circle *)s;
        px->count = 1;
        px->r = c->r > 0 ? c->r : 0;
        px->v[0] = thc__unplace(f, c->p);
        return 1;
    }
    default: px->count = 0; px->r = 0; return 0;
    }
}

/* Both proxies in one frame *f (world = f->p + rot(f) local): a transformed polygon's own frame when there is
   one (B's first), so that polygon is copied as it is and only the other shape is moved into it; else the
   world axes at the usual anchor (rot(f) is then the identity and every point comes back exactly). 0 when a
   shape cannot be made. */
THC__INLINE int thc__pair_proxies_framed(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                    const thc_transform *bx, thc__proxy *pa, thc__proxy *pb, thc_transform *f)
{
    const thc_transform *pf = tb == THC_POLY && bx ? bx : ta == THC_POLY && ax ? ax : NULL;
    if (!pf || !a || !b) {
        f->c = 1; f->s = 0;
        return thc__pair_proxies(a, ta, ax, b, tb, bx, pa, pb, &f->p);
    }
    *f = *pf;
    return thc__proxy_in(pa, a, ta, ax, pf) & thc__proxy_in(pb, b, tb, bx, pf);
}

/* The any-pair entry points switch on the pair; the simple pairs are answered inline, the rest go to
   out-of-line paths so the simple ones pay for no stack frame. */
#define THC__PAIR(a, b) ((unsigned)(a) * 5u + (unsigned)(b))

/* A box as a 4-vertex polygon placed at its min corner, with the vertices and faces in the order the
   proxies give it, so it can take the lane road against a polygon. */
static void thc__aabb_poly(const thc_aabb *b, thc_poly *p, thc_transform *x)
{
    thc_v2 e = thc__sub(b->max, b->min);
    p->count = 4;
#ifdef THC__SSE2
    /* two vertices (or normals) to a store, every slot written: the lanes' vector loads that follow are
       forwarded from these stores, where loads spanning two 8-byte stores would wait for them to retire */
    _mm_storeu_ps(&p->verts[0].x, _mm_setr_ps(0, 0, e.x, 0));
    _mm_storeu_ps(&p->verts[2].x, _mm_setr_ps(e.x, e.y, 0, e.y));
    _mm_storeu_ps(&p->norms[0].x, _mm_setr_ps(0, -1, 1, 0));
    _mm_storeu_ps(&p->norms[2].x, _mm_setr_ps(0, 1, -1, 0));
    for (int i = 4; i < THC__L; i += 2) {
        _mm_storeu_ps(&p->verts[i].x, _mm_setzero_ps());
        _mm_storeu_ps(&p->norms[i].x, _mm_setzero_ps());
    }
#else
    p->verts[0] = thc__v(0, 0); p->verts[1] = thc__v(e.x, 0); p->verts[2] = e; p->verts[3] = thc__v(0, e.y);
    p->norms[0] = thc__v(0, -1); p->norms[1] = thc__v(1, 0); p->norms[2] = thc__v(0, 1); p->norms[3] = thc__v(-1, 0);
#endif
    x->p = b->min;
    x->c = 1;
    x->s = 0;
}

/* ---------------------------------------------------------------- a capsule against a polygon, directly
   thc__manifold's steps for a segment core against a polygon core with area, in the polygon's own frame
   (its stored vertices and normals used as they are, only the capsule's ends moved into the frame, the
   answer turned back into the world at the end): the SAT over the segment's two faces and the polygon's,
   the closest features by every end against every edge and every vertex against the segment (a face wins
   a near-tie, with its own normal), the reference face and the clip. The same answers as the general path
   up to rounding. seg_a: the capsule is shape A (the normal runs from A to B and A's face is preferred as
   the general path does). Returns 0 for what it leaves to the general path: a capsule with no length.
   Without contacts (thc_overlap) it stops at the tests and returns 2 for touching, so that the two answers
   agree. */
static int thc__capsule_poly_manifold(const thc_capsule *k, const thc_poly *p, const thc_transform *f, int seg_a, thc_manifold *m, int contacts)
{
    int n = p->count;
    thc_v2 s0 = thc__unplace(f, k->a), s1 = thc__unplace(f, k->b), e = thc__sub(s1, s0), zero = thc__v(0, 0);
    float l = thc__len(e), r = k->r > 0 ? k->r : 0;
    if (!(l > 1e-12f)) return 0;
    thc_v2 sn = thc__v(e.y / l, -e.x / l);
    /* SAT: the polygon against the segment's faces (sn through s0, -sn through s1), the ends against the polygon's */
    float lo = FLT_MAX, hi = -FLT_MAX, sp = -FLT_MAX;
    int fp = 0;
    for (int i = 0; i < n; i++) {
        thc_v2 v = p->verts[i], nn = p->norms[i];
        float d = thc__dot(sn, v), s = thc__minf(thc__dot(nn, s0), thc__dot(nn, s1)) - thc__dot(nn, v);
        lo = thc__minf(lo, d);
        hi = thc__maxf(hi, d);
        if (s > sp) { sp = s; fp = i; }
    }
    float ss0 = lo - thc__dot(sn, s0), ss1 = thc__dot(sn, s1) - hi;
    int fs = ss1 > ss0;
    float ss = fs ? ss1 : ss0;
    m->count = 0;
    if (ss > r || sp > r) return 1;
    float sa = seg_a ? ss : sp, sb = seg_a ? sp : ss, dist = 0;
    thc_v2 segn = fs ? thc__neg(sn) : sn, pa = zero, pb = zero, nab = thc__v(1, 0);
    if (ss > 0 || sp > 0) {   /* a face separates the cores: the closest features, A's vertices first as the brute force */
        float ee = thc__dot(e, e), inv = 1.0f / ee, best = FLT_MAX, bu = 0;
        int id = -1, inside = 0;
        for (int side = 0; side < 2; side++) {
            if (side == !seg_a) {   /* the segment's ends against each edge: id 2j + end */
                for (int j = 0; j < n; j++) {
                    thc_v2 v0 = p->verts[j], pe = thc__sub(p->verts[j + 1 < n ? j + 1 : 0], v0);
                    float pee = thc__dot(pe, pe), pinv = pee > 0 ? 1.0f / pee : 0;
                    thc__end_vs_seg(s0, v0, pe, pee, pinv, 2 * j, &best, &id, &bu, &inside);
                    thc__end_vs_seg(s1, v0, pe, pee, pinv, 2 * j + 1, &best, &id, &bu, &inside);
                }
            } else {   /* each vertex against the segment: id 2 * THC_MAX_POLY_VERTS + i, past every edge's */
                for (int i = 0; i < n; i++) thc__end_vs_seg(p->verts[i], s0, e, ee, inv, 2 * THC_MAX_POLY_VERTS + i, &best, &id, &bu, &inside);
            }
        }
        if (id < 0) return 0;   /* no distance compared below FLT_MAX (NaN, infinity, or an overflow): the general path */
        thc_v2 qs, qp, fn;
        if (id < 2 * THC_MAX_POLY_VERTS) {
            int j = id >> 1;
            thc_v2 v0 = p->verts[j], v1 = p->verts[j + 1 < n ? j + 1 : 0];
            qs = id & 1 ? s1 : s0;
            qp = inside ? thc__add(v0, thc__scale(thc__sub(v1, v0), bu)) : bu <= 0 ? v0 : v1;
            fn = p->norms[j];
        } else {
            qp = p->verts[id - 2 * THC_MAX_POLY_VERTS];
            qs = inside ? thc__add(s0, thc__scale(e, bu)) : bu <= 0 ? s0 : s1;
            fn = sn;
        }
        pa = seg_a ? qs : qp;
        pb = seg_a ? qp : qs;
        thc_v2 d = thc__sub(pb, pa);
        dist = sqrtf(thc__dot(d, d));
        if (inside) nab = thc__dot(fn, d) >= 0 ? fn : thc__neg(fn);   /* the edge's own normal, from a to b */
        else if (dist > 0) nab = thc__scale(d, 1.0f / dist);
        if (dist > r) return 1;
    }
    if (!contacts) return 2;
    int apart = dist > THC__APART, flip;
    if (apart) {   /* cores apart: the closest features give the normal; a face lined up with it gives two points */
        thc_v2 nfa = seg_a ? segn : p->norms[fp], nfb = seg_a ? p->norms[fp] : segn;
        if (thc__dot(nfa, nab) >= 0.9999f) flip = 0;
        else if (-thc__dot(nfb, nab) >= 0.9999f) flip = 1;
        else { thc__apart_contact(pa, pb, nab, dist, seg_a ? r : 0, seg_a ? 0 : r, zero, m); goto world; }
    } else {
        flip = sb > sa + THC__BIAS_ABS + THC__BIAS_REL * fabsf(sa);   /* A's face unless B's is clearly better */
    }
    {
        thc_v2 v1, v2, nref, deep, w[2];
        float rr, ri;
        int ref_seg = seg_a ^ flip;
        if (ref_seg) {   /* the segment's face against the polygon's most anti-parallel face */
            v1 = fs ? s1 : s0; v2 = fs ? s0 : s1; nref = segn; rr = r; ri = 0;
        } else {
            v1 = p->verts[fp]; v2 = p->verts[fp + 1 < n ? fp + 1 : 0]; nref = p->norms[fp]; rr = 0; ri = r;
        }
        thc_v2 nd = nref, pd = v1;
        if (apart) { nd = flip ? thc__neg(nab) : nab; pd = thc__depth_plane(nd, flip ? pb : pa, v1, v2); }
        if (ref_seg) {
            int kf = 0, kd = 0;
            float lo_n = FLT_MAX, lo_d = FLT_MAX, dns[THC_MAX_POLY_VERTS];
            for (int j = 0; j < n; j++) {
                float dn = dns[j] = thc__dot(nd, p->norms[j]), dd = thc__dot(nd, p->verts[j]);
                if (dn < lo_n) { lo_n = dn; kf = j; }
                if (dd < lo_d) { lo_d = dd; kd = j; }
            }
            for (kf = 0; dns[kf] > lo_n + THC__TIE; kf++) {}   /* as thc__manifold picks it */
            deep = p->verts[kd];
            w[0] = p->verts[kf];
            w[1] = p->verts[kf + 1 < n ? kf + 1 : 0];
        } else {
            int kk = thc__dot(nref, sn) > 0;   /* the more anti-parallel of the segment's two faces */
            deep = thc__dot(nd, s1) < thc__dot(nd, s0) ? s1 : s0;
            w[0] = kk ? s1 : s0;
            w[1] = kk ? s0 : s1;
        }
        thc__contacts(v1, v2, nd, pd, w, 2, deep, rr, ri, flip ? thc__neg(nd) : nd, zero, m);
    }
world:
    for (int i = 0; i < m->count; i++) m->contact_points[i] = thc__place(f, m->contact_points[i]);
    m->n = thc__rot(f, m->n);
    return 1;
}

/* 0: the general path decides, 1: apart, 2: touching (NaN and infinity not looked at). Its own copy of the
   tests (flattened), so the manifold's keeps its constant. */
static THC__FLATTEN int thc__capsule_poly_touch(const thc_capsule *k, const thc_poly *p, const thc_transform *f, int seg_a)
{
    thc_manifold unused;
    return thc__capsule_poly_manifold(k, p, f, seg_a, &unused, 0);
}

/* A "touching" answer is kept only when every number of the input is finite (NaN and infinity: no overlap),
   with the types known on the polygon roads. */
static THC__NOINLINE int thc__overlap_general(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                              const thc_transform *bx)
{
    if (!a || !b) return 0;
    if (ta == THC_POLY && tb == THC_POLY) {
        int r = thc__poly_poly((const thc_poly *)a, ax, (const thc_poly *)b, bx, NULL);
        if (r >= 0) return r && !THC__BAD2(THC__SUM_XF(ax), THC__SUM_XF(bx));
    }
    if ((ta == THC_AABB && tb == THC_CAPSULE) || (ta == THC_CAPSULE && tb == THC_AABB)) {   /* as thc_collide does */
        int box_a = ta == THC_AABB;
        const thc_aabb *bo = (const thc_aabb *)(box_a ? a : b);
        const thc_capsule *k = (const thc_capsule *)(box_a ? b : a);
        thc_poly box;
        thc_transform bxf;
        thc__aabb_poly(bo, &box, &bxf);
        int r = thc__capsule_poly_touch(k, &box, &bxf, !box_a);
        if (r) return r == 2 && !THC__BAD2(THC__SUM_BOX(bo), THC__SUM_CAPSULE(k));
    }
    if ((ta == THC_AABB && tb == THC_POLY) || (ta == THC_POLY && tb == THC_AABB)) {   /* as thc_collide does */
        thc_poly box;
        thc_transform bxf;
        int r;
        const thc_aabb *bo = (const thc_aabb *)(ta == THC_AABB ? a : b);
        thc__aabb_poly(bo, &box, &bxf);
        if (ta == THC_AABB) r = thc__poly_poly(&box, &bxf, (const thc_poly *)b, bx, NULL);
        else r = thc__poly_poly((const thc_poly *)a, ax, &box, &bxf, NULL);
        if (r >= 0) return r && !THC__BAD2(THC__SUM_BOX(bo), THC__SUM_XF(ta == THC_AABB ? bx : ax));
    }
    thc__proxy pa, pb;
    thc_v2 o;
    if (!thc__pair_proxies(a, ta, ax, b, tb, bx, &pa, &pb, &o)) return 0;
    return thc__proxy_overlap(&pa, &pb) && !thc__bad_pair(a, ta, ax, b, tb, bx, THC__NO_MORE);
}

/* Two capsules touch when their manifold would have a contact: its tests alone, no contacts built (NaN and
   infinity fail them). A capsule with no length takes the general road. */
static THC__NOINLINE int thc__capsule_capsule_overlap(const thc_capsule *ka, const thc_capsule *kb)
{
    thc_manifold unused;
    int r = thc__capsules(ka, kb, &unused, 0);
    return r ? r == 2 : thc__overlap_general(ka, THC_CAPSULE, NULL, kb, THC_CAPSULE, NULL);
}

/* A circle or a capsule against a polygon: the direct manifold roads decide in fewer instructions than the
   proxies' separating axes (a circle-polygon overlap 680 -> 237 instructions a call, capsule-polygon 823 -> 732
   with the contacts built, less without them, on half touching pairs), and so answer as thc_collide does. The
   circle road answers NaN and infinity itself. */
static THC__NOINLINE int thc__overlap_poly_roads(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                                const thc_transform *bx)
{
    thc_manifold m;
    int r;
    if (!a || !b) return 0;
    const thc_capsule *ka = (const thc_capsule *)a, *kb = (const thc_capsule *)b;
    const thc_poly *pa_ = (const thc_poly *)a, *pb_ = (const thc_poly *)b;
    switch (THC__PAIR(ta, tb)) {
    case THC__PAIR(THC_CIRCLE, THC_POLY): if (thc__circle_poly_manifold((const thc_circle *)a, pb_, bx, &m)) return m.count > 0; break;
    case THC__PAIR(THC_POLY, THC_CIRCLE): if (thc__circle_poly_manifold((const thc_circle *)b, pa_, ax, &m)) return m.count > 0; break;
    case THC__PAIR(THC_CAPSULE, THC_POLY):
        if (bx && !thc__poly_flat(pb_) && (r = thc__capsule_poly_touch(ka, pb_, bx, 1)))
            return r == 2 && !THC__BAD2(THC__SUM_CAPSULE(ka), THC__SUM_XF(bx));
        break;
    case THC__PAIR(THC_POLY, THC_CAPSULE):
        if (ax && !thc__poly_flat(pa_) && (r = thc__capsule_poly_touch(kb, pa_, ax, 0)))
            return r == 2 && !THC__BAD2(THC__SUM_CAPSULE(kb), THC__SUM_XF(ax));
        break;
    default: break;
    }
    return thc__overlap_general(a, ta, ax, b, tb, bx);
}

THC__INLINE int thc__cc_overlap(const thc_circle *a, const thc_circle *b)
{
    float dx = b->p.x - a->p.x, dy = b->p.y - a->p.y, r = thc__radius(a->r) + thc__radius(b->r);
    return dx * dx + dy * dy <= r * r;
}

THC__INLINE int thc__ca_overlap(const thc_circle *a, const thc_aabb *b)
{
    float dx = thc__maxf(b->min.x, thc__minf(a->p.x, b->max.x)) - a->p.x, dy = thc__maxf(b->min.y, thc__minf(a->p.y, b->max.y)) - a->p.y;
    float r = thc__radius(a->r);
    return dx * dx + dy * dy <= r * r;
}

/* All four compares combined without branching: a mix of touching and apart boxes makes any one of them
   unpredictable. */
THC__INLINE int thc__aa_overlap(const thc_aabb *a, const thc_aabb *b)
{
    return (a->min.x <= b->max.x) & (b->min.x <= a->max.x) & (a->min.y <= b->max.y) & (b->min.y <= a->max.y);
}

/* The simple pairs read their shapes without a NULL check, as thc_circle_to_circle does; every other
   path answers 0 (no contact) for a NULL shape. */
int thc_overlap(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx)
{
    if (THC__INVALID(a, ta, b, tb, "thc_overlap")) return 0;
    switch (THC__PAIR(ta, tb)) {
    case THC__PAIR(THC_CIRCLE, THC_CIRCLE): return thc__cc_overlap((const thc_circle *)a, (const thc_circle *)b);
    case THC__PAIR(THC_CIRCLE, THC_AABB): return thc__ca_overlap((const thc_circle *)a, (const thc_aabb *)b);
    case THC__PAIR(THC_AABB, THC_CIRCLE): return thc__ca_overlap((const thc_circle *)b, (const thc_aabb *)a);
    case THC__PAIR(THC_AABB, THC_AABB): return thc__aa_overlap((const thc_aabb *)a, (const thc_aabb *)b);
    /* a tail call (its answer is already 0 or 1), so no case pays for a stack frame */
    case THC__PAIR(THC_CIRCLE, THC_CAPSULE): return a && b ? thc__circle_capsule_overlap((const thc_circle *)a, (const thc_capsule *)b) : 0;
    case THC__PAIR(THC_CAPSULE, THC_CIRCLE): return a && b ? thc__circle_capsule_overlap((const thc_circle *)b, (const thc_capsule *)a) : 0;
    case THC__PAIR(THC_CAPSULE, THC_CAPSULE): return a && b ? thc__capsule_capsule_overlap((const thc_capsule *)a, (const thc_capsule *)b) : 0;
    case THC__PAIR(THC_CIRCLE, THC_POLY): case THC__PAIR(THC_POLY, THC_CIRCLE):
    case THC__PAIR(THC_CAPSULE, THC_POLY): case THC__PAIR(THC_POLY, THC_CAPSULE): return thc__overlap_poly_roads(a, ta, ax, b, tb, bx);
    default: return thc__overlap_general(a, ta, ax, b, tb, bx);
    }
}

THC__INLINE void thc__cc_manifold(const thc_circle *a, const thc_circle *b, thc_manifold *m)
{
    float ra = thc__radius(a->r), dx = b->p.x - a->p.x, dy = b->p.y - a->p.y, dist2 = dx * dx + dy * dy, r = ra + thc__radius(b->r);
    m->count = 0;
    if (!(dist2 <= r * r)) return;   /* NaN: no contact */
    float dist = thc__sqrt(dist2), depth = r - dist;
    thc_v2 n = dist > 1e-6f ? thc__v(dx / dist, dy / dist) : thc__v(1, 0);   /* coincident centres: any axis, but a fixed one */
    m->count = 1;
    m->n = n;
    m->depths[0] = depth;
    m->contact_points[0] = thc__add(a->p, thc__scale(n, ra - 0.5f * depth));
}

THC__INLINE void thc__ca_manifold(const thc_circle *a, const thc_aabb *b, thc_manifold *m)
{
    float dx = thc__maxf(b->min.x, thc__minf(a->p.x, b->max.x)) - a->p.x, dy = thc__maxf(b->min.y, thc__minf(a->p.y, b->max.y)) - a->p.y;
    float dist2 = dx * dx + dy * dy, r = thc__radius(a->r), depth;
    thc_v2 n, p = a->p;
    m->count = 0;
    if (!(dist2 <= r * r)) return;   /* NaN: no contact */
    /* the normal and depth in locals, stored once (read back through m they waited for their own stores) */
    if (dist2 > 1e-12f) {
        float dist = thc__sqrt(dist2);
        n = thc__v(dx / dist, dy / dist);
        depth = r - dist;
    } else {
        /* the centre is inside (or on the boundary): leave through the nearest face */
        float dl = p.x - b->min.x, dr = b->max.x - p.x, db = p.y - b->min.y, dt = b->max.y - p.y;
        float best = dl;
        n = thc__v(1, 0);
        if (dr < best) { best = dr; n = thc__v(-1, 0); }
        if (db < best) { best = db; n = thc__v(0, 1); }
        if (dt < best) { best = dt; n = thc__v(0, -1); }
        depth = r + (best > 0 ? best : 0);
    }
    m->count = 1;
    m->n = n;
    m->depths[0] = depth;
    m->contact_points[0] = thc__add(p, thc__scale(n, r - 0.5f * depth));
}

static int thc__box_poly_manifold(const thc_aabb *box, const thc_poly *p, const thc_transform *px, int box_a, thc_manifold *m);

/* Every pair but the simple ones: the direct paths, else the proxies. A contact is kept only when every number
   of the input is finite (THC__KEEP: NaN and infinity answer no contact), looked at once the answer is known. */
#define THC__KEEP(x, y) do { if (m->count && THC__BAD2(x, y)) m->count = 0; return; } while (0)
static THC__NOINLINE void thc__collide_general(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                               const thc_transform *bx, thc_manifold *m)
{
    if (!a || !b) return;
    const thc_circle *ca = (const thc_circle *)a, *cb = (const thc_circle *)b;
    const thc_capsule *ka = (const thc_capsule *)a, *kb = (const thc_capsule *)b;
    const thc_aabb *ba = (const thc_aabb *)a, *bb = (const thc_aabb *)b;
    const thc_poly *pa_ = (const thc_poly *)a, *pb_ = (const thc_poly *)b;
    switch (THC__PAIR(ta, tb)) {
    /* the circle and capsule roads answer NaN and infinity themselves */
    case THC__PAIR(THC_CIRCLE, THC_CAPSULE): if (thc__circle_capsule_manifold(ca, kb, m)) return; break;
    case THC__PAIR(THC_CAPSULE, THC_CIRCLE):
        if (thc__circle_capsule_manifold(cb, ka, m)) { if (m->count) m->n = thc__neg(m->n); return; }
        break;
    case THC__PAIR(THC_CIRCLE, THC_POLY): if (thc__circle_poly_manifold(ca, pb_, bx, m)) return; break;
    case THC__PAIR(THC_POLY, THC_CIRCLE):
        if (thc__circle_poly_manifold(cb, pa_, ax, m)) { if (m->count) m->n = thc__neg(m->n); return; }
        break;
    case THC__PAIR(THC_CAPSULE, THC_CAPSULE): if (thc__capsule_capsule_manifold(ka, kb, m)) return; break;
    case THC__PAIR(THC_POLY, THC_POLY): if (thc__poly_poly(pa_, ax, pb_, bx, m) >= 0) THC__KEEP(THC__SUM_XF(ax), THC__SUM_XF(bx)); break;
    case THC__PAIR(THC_AABB, THC_POLY): {
        if (thc__box_poly_manifold(ba, pb_, bx, 1, m) >= 0) THC__KEEP(THC__SUM_BOX(ba), THC__SUM_XF(bx));
        thc_poly box;
        thc_transform bxf;
        thc__aabb_poly(ba, &box, &bxf);
        if (thc__poly_poly(&box, &bxf, pb_, bx, m) >= 0) THC__KEEP(THC__SUM_BOX(ba), THC__SUM_XF(bx));
        break;
    }
    case THC__PAIR(THC_POLY, THC_AABB): {
        if (thc__box_poly_manifold(bb, pa_, ax, 0, m) >= 0) THC__KEEP(THC__SUM_BOX(bb), THC__SUM_XF(ax));
        thc_poly box;
        thc_transform bxf;
        thc__aabb_poly(bb, &box, &bxf);
        if (thc__poly_poly(pa_, ax, &box, &bxf, m) >= 0) THC__KEEP(THC__SUM_BOX(bb), THC__SUM_XF(ax));
        break;
    }
    case THC__PAIR(THC_CAPSULE, THC_POLY):
        if (bx && !thc__poly_flat(pb_) && thc__capsule_poly_manifold(ka, pb_, bx, 1, m, 1)) THC__KEEP(THC__SUM_CAPSULE(ka), THC__SUM_XF(bx));
        break;
    case THC__PAIR(THC_POLY, THC_CAPSULE):
        if (ax && !thc__poly_flat(pa_) && thc__capsule_poly_manifold(kb, pa_, ax, 0, m, 1)) THC__KEEP(THC__SUM_CAPSULE(kb), THC__SUM_XF(ax));
        break;
    case THC__PAIR(THC_AABB, THC_CAPSULE): case THC__PAIR(THC_CAPSULE, THC_AABB): {   /* a box is a polygon at its min corner */
        int box_a = ta == THC_AABB;
        const thc_aabb *bo = box_a ? ba : bb;
        const thc_capsule *k = box_a ? kb : ka;
        thc_poly box;
        thc_transform bxf;
        thc__aabb_poly(bo, &box, &bxf);
        if (thc__capsule_poly_manifold(k, &box, &bxf, !box_a, m, 1)) THC__KEEP(THC__SUM_BOX(bo), THC__SUM_CAPSULE(k));
        break;
    }
    default: break;
    }
    thc__proxy pa, pb;
    thc_v2 o;
    m->count = 0;
    if (!thc__pair_proxies(a, ta, ax, b, tb, bx, &pa, &pb, &o)) return;
    thc__manifold(&pa, &pb, o, m);
    if (m->count && thc__bad_pair(a, ta, ax, b, tb, bx, THC__NO_MORE)) m->count = 0;
}
#undef THC__KEEP

/* Two capsules from thc_collide straight to their road (through thc__collide_general's prologue and second
   switch it cost about 40 instructions a call); the general road for what the direct one leaves. It takes
   thc_collide's own arguments, so thc_collide reaches it by a jump with every register in place. */
static THC__NOINLINE THC__NO_SLP void thc__capsule_pair(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                                       const thc_transform *bx, thc_manifold *m)
{
    if (a && b && thc__capsules((const thc_capsule *)a, (const thc_capsule *)b, m, 1)) return;
    thc__collide_general(a, ta, ax, b, tb, bx, m);
}

/* As thc_overlap: the simple pairs read their shapes without a NULL check. */
void thc_collide(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx, thc_manifold *m)
{
    m->count = 0;
    if (THC__INVALID(a, ta, b, tb, "thc_collide")) return;
    /* two capsules before the switch: thc_collide then needs no stack frame and no register moves on their way
       (a capsule first pays one compare more; every other pair pays two, and saves the frame) */
    if (ta == THC_CAPSULE && tb == THC_CAPSULE) { thc__capsule_pair(a, ta, ax, b, tb, bx, m); return; }
    switch (THC__PAIR(ta, tb)) {
    case THC__PAIR(THC_CIRCLE, THC_CIRCLE): thc__cc_manifold((const thc_circle *)a, (const thc_circle *)b, m); return;
    case THC__PAIR(THC_CIRCLE, THC_AABB): thc__ca_manifold((const thc_circle *)a, (const thc_aabb *)b, m); return;
    case THC__PAIR(THC_AABB, THC_CIRCLE):
        thc__ca_manifold((const thc_circle *)b, (const thc_aabb *)a, m);
        if (m->count) m->n = thc__neg(m->n);
        return;
    case THC__PAIR(THC_AABB, THC_AABB): thc_aabb_to_aabb_manifold((const thc_aabb *)a, (const thc_aabb *)b, m); return;
    case THC__PAIR(THC_CAPSULE, THC_CAPSULE): thc__capsule_pair(a, ta, ax, b, tb, bx, m); return;   /* taken above */
    default: thc__collide_general(a, ta, ax, b, tb, bx, m); return;
    }
}

thc_v2 thc_mtv(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx)
{
    thc_manifold m;
    thc_collide(a, ta, ax, b, tb, bx, &m);
    float d = 0;
    for (int i = 0; i < m.count; i++) d = thc__maxf(d, m.depths[i]);
    return m.count ? thc__scale(m.n, -d) : thc__v(0, 0);
}

/* Where a point both shapes hold lies on the way from A's core point toward B's, d apart (d <= ra + rb): half
   way between the nearest and the farthest point within reach of both radii. */
THC__INLINE float thc__reach(float d, float ra, float rb) { return 0.5f * (thc__maxf(0, d - rb) + thc__minf(ra, d)); }

/* A circle and a polygon with area, directly in the polygon's own frame: every edge against the centre as the
   proxies' brute force does (a face wins a near-tie, with its own normal), without building proxies. Touching
   (or within THC__TOUCH_REL), 0 at a point both hold: the centre when it is inside, else on the way from it to the
   nearest edge point. -1 for a flat polygon, NaN and infinity. */
static float thc__circle_poly_distance(const thc_circle *c, const thc_poly *p, const thc_transform *xf, thc_v2 *pc, thc_v2 *pp)
{
    if (thc__poly_flat(p)) return -1;
    thc_transform x;
    if (xf) x = *xf;
    else { x.p = thc__v(0, 0); x.c = 1; x.s = 0; }
    thc_v2 lc = thc_mulT_xf(x, c->p), bq = lc, bn = thc__v(1, 0);   /* the centre in the polygon's frame */
    float bd = FLT_MAX, smax = -FLT_MAX, ra = c->r < 0 ? 0 : c->r;   /* NaN stays NaN */
    int n = p->count, kind = 0;
    for (int i = 0; i < n; i++) {
        thc_v2 v0 = p->verts[i], e = thc__sub(p->verts[i + 1 < n ? i + 1 : 0], v0), w = thc__sub(lc, v0);
        float ee = thc__dot(e, e), u = thc__dot(w, e), sd = thc__dot(p->norms[i], w);
        smax = sd > smax ? sd : smax;
        int inside = u > 0 && u < ee;
        thc_v2 q = inside ? thc__add(v0, thc__scale(e, u / ee)) : u <= 0 ? v0 : thc__add(v0, e), d = thc__sub(q, lc);
        float dd = thc__dot(d, d);
        if (dd < bd || (inside && dd <= bd * (1 + 1e-5f))) { bd = dd; bq = q; kind = inside; bn = p->norms[i]; }
    }
    float dist = sqrtf(bd);
    /* NaN and infinity go on to the roads that answer them (no look of its own): a NaN or infinite centre or
       transform puts lc at NaN or infinity, so no edge is nearer than FLT_MAX (bd stays at it) */
    if (!(bd < FLT_MAX) || !(ra < FLT_MAX)) return -1;
    if (!(smax > 0) || !(dist - ra > THC__TOUCH_REL * dist)) {   /* touching: the centre, or on the way to the edge */
        *pc = *pp = smax > 0 && dist > 0 ? thc__add(c->p, thc_mul_rot(x, thc__scale(thc__sub(bq, lc), thc__reach(dist, ra, 0) / dist))) : c->p;
        return 0;
    }
    thc_v2 ln = kind ? thc__neg(bn) : thc__scale(thc__sub(bq, lc), 1.0f / dist), wn = thc_mul_rot(x, ln);
    *pc = thc__add(c->p, thc__scale(wn, ra));
    *pp = thc__add(c->p, thc_mul_rot(x, thc__sub(bq, lc)));
    return dist - ra;
}

/* A capsule and a polygon with area, directly in the polygon's own frame: the segment clipped against every
   face (any part left inside means they touch: 0 at its middle), then each end against each edge and each
   vertex against the segment, the nearest pair winning with a face ahead at a near-tie, as the proxies' brute
   force does. Touching (or within THC__TOUCH_REL) by the radius, 0 at the polygon's nearest point. -1 for a flat
   polygon. *pk on the capsule, *pp on the polygon. */
static float thc__capsule_poly_distance(const thc_capsule *k, const thc_poly *p, const thc_transform *xf, thc_v2 *pk, thc_v2 *pp)
{
    if (thc__poly_flat(p)) return -1;
    thc_transform x;
    if (xf) x = *xf;
    else { x.p = thc__v(0, 0); x.c = 1; x.s = 0; }
    thc_v2 s0 = thc_mulT_xf(x, k->a), s1 = thc_mulT_xf(x, k->b), d = thc__sub(s1, s0);
    int n = p->count, meets = 1;
    float t0 = 0, t1 = 1;
    for (int i = 0; i < n && meets; i++) {   /* the segment clipped by every face's half-plane */
        float num = thc__dot(p->norms[i], thc__sub(p->verts[i], s0)), den = thc__dot(p->norms[i], d);
        if (den == 0) { if (num < 0) meets = 0; }
        else if (den < 0) t0 = thc__maxf(t0, num / den);
        else t1 = thc__minf(t1, num / den);
        if (t0 > t1) meets = 0;
    }
    if (meets) {
        *pk = *pp = thc__add(k->a, thc_mul_rot(x, thc__scale(d, 0.5f * (t0 + t1))));
        return 0;
    }
    float best = FLT_MAX, dd2 = thc__dot(d, d);
    thc_v2 qk = s0, qp = p->verts[0], ln = thc__v(1, 0);
    int kind = 0;   /* 0: two points, 1: an end inside a polygon edge, 2: a polygon vertex inside the segment */
    for (int i = 0; i < n; i++) {
        thc_v2 v0 = p->verts[i], e = thc__sub(p->verts[i + 1 < n ? i + 1 : 0], v0);
        float ee = thc__dot(e, e);
        for (int c = 0; c < 2; c++) {   /* each end against this edge */
            thc_v2 w = thc__sub(c ? s1 : s0, v0);
            float u = thc__dot(w, e), dd;
            int inside = u > 0 && u < ee;
            if (inside) { float cr = thc__cross(w, e); dd = cr * cr / ee; }
            else if (u <= 0) dd = thc__dot(w, w);
            else { thc_v2 w1 = thc__sub(w, e); dd = thc__dot(w1, w1); }
            if (dd < best || (inside && dd <= best * (1 + 1e-5f))) {
                best = dd; kind = inside; qk = c ? s1 : s0;
                qp = inside ? thc__add(v0, thc__scale(e, u / ee)) : u <= 0 ? v0 : thc__add(v0, e);
                if (inside) ln = thc__neg(p->norms[i]);   /* from the capsule toward the polygon */
            }
        }
        thc_v2 w = thc__sub(v0, s0);   /* this vertex against the segment */
        float u = thc__dot(w, d), dd;
        int inside = u > 0 && u < dd2;
        thc_v2 q = inside ? thc__add(s0, thc__scale(d, u / dd2)) : u <= 0 ? s0 : s1;
        if (inside) { float cr = thc__cross(w, d); dd = cr * cr / dd2; }
        else { thc_v2 g = thc__sub(v0, q); dd = thc__dot(g, g); }
        if (dd < best || (inside && dd <= best * (1 + 1e-5f))) { best = dd; kind = inside ? 2 : 0; qk = q; qp = v0; }
    }
    thc_v2 dq = thc__sub(qp, qk);
    float dist = sqrtf(thc__dot(dq, dq)), rk = k->r > 0 ? k->r : 0;
    if (!(dist - rk > THC__TOUCH_REL * dist)) {
        *pk = *pp = thc__add(k->a, thc_mul_rot(x, thc__sub(qp, s0)));
        return 0;
    }
    if (kind == 2) {   /* the segment's own normal, turned toward the polygon */
        float l = thc__len(d);
        ln = thc__v(d.y / l, -d.x / l);
        if (thc__dot(ln, dq) < 0) ln = thc__neg(ln);
    } else if (kind == 0) ln = thc__scale(dq, 1.0f / dist);
    thc_v2 wn = thc_mul_rot(x, ln);
    *pp = thc__add(k->a, thc_mul_rot(x, thc__sub(qp, s0)));   /* relative to an end: no precision lost far away */
    *pk = thc__add(k->a, thc__add(thc_mul_rot(x, thc__sub(qk, s0)), thc__scale(wn, rk)));
    return dist - rk;
}

/* A box and a capsule, directly: each end of the segment clamped into the box (a face's own axis when only one
   coordinate clamps) and each corner of the box against the segment (the segment's own normal inside its
   span), the nearest pair winning with a face ahead at a near-tie, as the proxies' brute force does. Touching
   (or within THC__TOUCH_REL), 0 at a point both hold: the middle of the segment's part inside the box, else the
   box's nearest point. Points: *pbx on the box, *pk on the capsule. */
static float thc__box_capsule_distance(const thc_aabb *bx, const thc_capsule *k, thc_v2 *pbx, thc_v2 *pk)
{
    thc_v2 o = bx->min, hi = thc__sub(bx->max, o), p0 = thc__sub(k->a, o), p1 = thc__sub(k->b, o), d = thc__sub(p1, p0);
    /* the segment against the box's slabs: any common point means they touch */
    float t0 = 0, t1 = 1, pv[2] = { p0.x, p0.y }, dv[2] = { d.x, d.y }, hv[2] = { hi.x, hi.y };
    int meets = 1;
    for (int i = 0; i < 2 && meets; i++) {
        if (dv[i] == 0) { if (pv[i] < 0 || pv[i] > hv[i]) meets = 0; continue; }
        float a = -pv[i] / dv[i], b = (hv[i] - pv[i]) / dv[i];
        if (a > b) { float t = a; a = b; b = t; }
        t0 = thc__maxf(t0, a); t1 = thc__minf(t1, b);
        if (t0 > t1) meets = 0;
    }
    if (meets) {
        *pbx = *pk = thc__add(k->a, thc__scale(d, 0.5f * (t0 + t1)));
        return 0;
    }
    float best = FLT_MAX, dd2 = thc__dot(d, d);
    thc_v2 qb = p0, qk = p0, n = thc__v(1, 0);
    int kind = 0;   /* 0: two points, 1: an end against a box face, 2: a corner against the segment's inside */
    for (int i = 0; i < 2; i++) {   /* each end against the box */
        thc_v2 e = i ? p1 : p0, q = thc__v(thc__clamp(e.x, 0, hi.x), thc__clamp(e.y, 0, hi.y)), w = thc__sub(e, q);
        float dd = thc__dot(w, w);
        int face = (q.x != e.x) != (q.y != e.y);
        if (dd < best || (face && dd <= best * (1 + 1e-5f))) {
            best = dd; qb = q; qk = e; kind = face;
            if (face) n = q.x != e.x ? thc__v(e.x > q.x ? 1.0f : -1.0f, 0) : thc__v(0, e.y > q.y ? 1.0f : -1.0f);
        }
    }
    for (int c = 0; c < 4; c++) {   /* each corner against the segment */
        thc_v2 v = thc__v(c == 1 || c == 2 ? hi.x : 0, c >= 2 ? hi.y : 0), w = thc__sub(v, p0);
        float u = thc__dot(w, d), dd;
        int inside = u > 0 && u < dd2;
        thc_v2 q = inside ? thc__add(p0, thc__scale(d, u / dd2)) : u <= 0 ? p0 : p1;
        if (inside) { float x = thc__cross(w, d); dd = x * x / dd2; }
        else { thc_v2 g = thc__sub(v, q); dd = thc__dot(g, g); }
        if (dd < best || (inside && dd <= best * (1 + 1e-5f))) { best = dd; qb = v; qk = q; kind = inside ? 2 : 0; }
    }
    thc_v2 dq = thc__sub(qk, qb);
    float dist = sqrtf(thc__dot(dq, dq)), rk = k->r > 0 ? k->r : 0;
    if (!(dist - rk > THC__TOUCH_REL * dist)) {
        *pbx = *pk = thc__add(o, qb);
        return 0;
    }
    if (kind == 2) {   /* the segment's own normal, as the proxy stores it, turned from the box toward the capsule */
        float l = thc__len(d);
        n = thc__v(d.y / l, -d.x / l);
        if (thc__dot(n, dq) < 0) n = thc__neg(n);
    } else if (kind == 0) n = thc__scale(dq, 1.0f / dist);
    *pbx = thc__add(o, qb);
    *pk = thc__add(o, thc__sub(qk, thc__scale(n, rk)));
    return dist - rk;
}

/* Two boxes or two capsules, directly: apart, the same answer as the proxies' closest features (box gaps along
   x and y; for segments the best end-to-segment pair, a face's own normal when an end is closest to the inside
   of the other segment), without building proxies. Touching (or within THC__TOUCH_REL), 0 at a point both hold:
   the middle of the boxes' common part, the segments' crossing, or on the way between their nearest points.
   NaN for a box with a NaN or infinite side. */
static float thc__distance_direct(const void *a, const void *b, thc_type t, thc_v2 *pa, thc_v2 *pb)
{
    if (t == THC_AABB) {
        const thc_aabb *x = (const thc_aabb *)a, *y = (const thc_aabb *)b;
#ifdef THC__SSE2
        /* the common part's corners lo = max of the mins, hi = min of the maxes, four lanes at once; the look
           folded in: e is NaN in the lanes of a NaN or infinite side and 0 else, and max/min pass on their
           second operand's NaN, so each gap is NaN when a side on its axis is */
        __m128 a4 = _mm_loadu_ps(&x->min.x), b4 = _mm_loadu_ps(&y->min.x), zero = _mm_setzero_ps();
        a4 = _mm_add_ps(a4, THC__ZERO_OR_NAN4(_mm_add_ps(a4, b4)));
        __m128 lohi = _mm_shuffle_ps(_mm_max_ps(b4, a4), _mm_min_ps(b4, a4), _MM_SHUFFLE(3, 2, 1, 0));
        __m128 g4 = _mm_max_ps(zero, _mm_sub_ps(lohi, _mm_movehl_ps(lohi, lohi)));   /* the gaps along x and y, 0 where the spans overlap */
        int before = _mm_movemask_ps(_mm_cmplt_ps(a4, b4)) >> 2;   /* A's max below B's, along x (bit 0) and y */
        float l[4], g[4];
        _mm_storeu_ps(l, lohi);
        _mm_storeu_ps(g, g4);
        float d = g[0] == 0 ? g[1] : g[1] == 0 ? g[0] : sqrtf(g[0] * g[0] + g[1] * g[1]);
        if (d <= 0) {   /* touching (not NaN): 0 at the middle of the boxes' common part */
            *pa = *pb = thc__v(0.5f * (l[0] + l[2]), 0.5f * (l[1] + l[3]));
            return 0;
        }
        /* apart along an axis: A's side is hi when A comes first, lo else, and B's the other; overlapping, lo */
        pa->x = g[0] > 0 && (before & 1) ? l[2] : l[0];
        pb->x = g[0] > 0 && !(before & 1) ? l[2] : l[0];
        pa->y = g[1] > 0 && (before & 2) ? l[3] : l[1];
        pb->y = g[1] > 0 && !(before & 2) ? l[3] : l[1];
        return d;
#else
        float gx1 = y->min.x - x->max.x, gx2 = x->min.x - y->max.x, gy1 = y->min.y - x->max.y, gy2 = x->min.y - y->max.y;
        float gx = thc__maxf(gx1, gx2), gy = thc__maxf(gy1, gy2);
        /* NaN and infinity in a side make z NaN, and the answer: the manifold reads sides literally */
        float z = THC__ZERO_OR_NAN(gx1 + gx2 + gy1 + gy2);
        thc_v2 qa, qb;
        qa.x = gx1 > gx2 ? x->max.x : x->min.x; qb.x = gx1 > gx2 ? y->min.x : y->max.x;
        qa.y = gy1 > gy2 ? x->max.y : x->min.y; qb.y = gy1 > gy2 ? y->min.y : y->max.y;
        if (gx <= 0) qa.x = qb.x = thc__maxf(x->min.x, y->min.x);   /* spans overlap in x: a corner above the other box */
        if (gy <= 0) qa.y = qb.y = thc__maxf(x->min.y, y->min.y);
        float d = gx <= 0 && gy <= 0 ? 0 : gx <= 0 ? gy : gy <= 0 ? gx : sqrtf(gx * gx + gy * gy);
        d += z;
        if (d <= 0) {   /* touching (not NaN): 0 at the middle of the boxes' common part */
            *pa = *pb = thc__v(0.5f * (thc__maxf(x->min.x, y->min.x) + thc__minf(x->max.x, y->max.x)),
                               0.5f * (thc__maxf(x->min.y, y->min.y) + thc__minf(x->max.y, y->max.y)));
            return 0;
        }
        *pa = qa; *pb = qb;
        return d;
#endif
    }
    const thc_capsule *ka = (const thc_capsule *)a, *kb = (const thc_capsule *)b;
    thc_v2 o = ka->a, v[4];   /* a0 a1 b0 b1, relative to a0 as the proxies are */
    v[0] = thc__v(0, 0); v[1] = thc__sub(ka->b, o); v[2] = thc__sub(kb->a, o); v[3] = thc__sub(kb->b, o);
    thc_v2 d1 = v[1], d2 = thc__sub(v[3], v[2]);
    float x = thc__cross(d1, d2);
    /* NaN and infinity, the look folded in: x is NaN or infinite when a coordinate is (every one reaches it
       through d1 or d2, where inf - inf and 0 * inf give NaN), so z is NaN for bad input and 0 else; a NaN
       answer goes on to the general road, which answers NaN */
    float z = THC__ZERO_OR_NAN(x + ka->r + kb->r);
    if (x != 0) {   /* segments that cross touch: 0 where they cross */
        float s = thc__cross(v[2], d2) / x, u = thc__cross(v[2], d1) / x;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
            *pa = *pb = thc__add(o, thc__scale(d1, s));
            return z;
        }
    }
    float best = FLT_MAX, bu = 0;
    int bi = -1, kind = 0;
    for (int i = 0; i < 4; i++) {   /* each end against the other segment */
        thc_v2 e0 = v[i < 2 ? 2 : 0], e = i < 2 ? d2 : d1, w = thc__sub(v[i], e0);
        float ee = thc__dot(e, e), u = thc__dot(w, e), dd;
        int inside = u > 0 && u < ee;
        if (inside) { float c = thc__cross(w, e); dd = c * c / ee; }
        else if (u <= 0) dd = thc__dot(w, w);
        else { thc_v2 w1 = thc__sub(w, e); dd = thc__dot(w1, w1); }
        if (dd < best || (inside && dd <= best * (1 + 1e-5f))) { best = dd; bi = i; bu = inside ? u / ee : u <= 0 ? 0 : 1; kind = inside; }
    }
    if (bi < 0) return NAN;   /* no pair measured below FLT_MAX (NaN, or numbers past it) */
    thc_v2 e0 = v[bi < 2 ? 2 : 0], e = bi < 2 ? d2 : d1, q = kind ? thc__add(e0, thc__scale(e, bu)) : bu <= 0 ? e0 : thc__add(e0, e);
    thc_v2 qa = bi < 2 ? v[bi] : q, qb = bi < 2 ? q : v[bi], dq = thc__sub(qb, qa), n;
    float dist = sqrtf(thc__dot(dq, dq)), ra = ka->r > 0 ? ka->r : 0, rb = kb->r > 0 ? kb->r : 0, gap = dist - ra - rb + z;
    if (!(gap > THC__TOUCH_REL * dist)) {   /* touching: 0 on the way from a's nearest point to b's */
        *pa = *pb = thc__add(o, dist > 0 ? thc__add(qa, thc__scale(dq, thc__reach(dist, ra, rb) / dist)) : qa);
        return z;
    }
    if (kind) {   /* the segment's own normal, as the proxy stores it, turned from a toward b */
        float l = thc__len(e);
        n = thc__v(e.y / l, -e.x / l);
        if (thc__dot(n, dq) < 0) n = thc__neg(n);
    } else n = thc__scale(dq, 1.0f / dist);
    *pa = thc__add(o, thc__add(qa, thc__scale(n, ra)));
    *pb = thc__add(o, thc__sub(qb, thc__scale(n, rb)));
    return gap;
}

/* ---------------------------------------------------------------- distance by the separating axis, in lanes
   Two cores without radius laid out as thc__pp_sat lays them out (A in its own frame, B moved into it, a
   segment as a 2-vertex polygon with the faces n and -n), apart: s, the greater of both sides' best face
   separations, is a lower bound of the distance (projection never lengthens one). The vertex of the other
   core that realises s (the witness) is then looked at against that face:
     - projected inside the face's span, it and its projection are s apart: the distance is s, reached by
       that pair, with the face's own normal (exact for a vertex-face answer; a near-tie goes to the face);
     - else the face's end nearer it and the witness are the candidate pair, and they are the closest pair
       when each is the support point of its core along the direction between them (so the separation
       along that axis equals their distance): the two edges at each vertex decide, as the cores are
       convex. Otherwise -1 (a tie between faces or witnesses, say), and the caller takes another road.
   Returns the distance with the points (pa on A, pb on B) and the normal from A toward B, in A's frame. */
/* Vertex v of X against edge i of Y (Y's vertex i to the next, outward normal n_i), both in lanes: the pair is
   the closest one when v projects inside the edge's span, lies outside it (distance n_i.(x_v - y_i) > 0) and is
   X's support point along -n_i (both its edges turn away from the face; convexity makes that global), so the
   separation along n_i is reached. 0 else. */
static int thc__pp_vf(const thc__lanes *X, int nx, int v, const thc__lanes *Y, int ny, int i, float *d, thc_v2 *x, thc_v2 *y)
{
    int i1 = i + 1 < ny ? i + 1 : 0, vp = v ? v - 1 : nx - 1, vn = v + 1 < nx ? v + 1 : 0;
    thc_v2 n = thc__v(Y->nx[i], Y->ny[i]), y0 = thc__v(Y->x[i], Y->y[i]), t = thc__v(Y->x[i1] - y0.x, Y->y[i1] - y0.y);
    thc_v2 xv = thc__v(X->x[v], X->y[v]), w = thc__sub(xv, y0);
    float u = thc__dot(w, t), s = thc__dot(n, w);
    if (!(u > 0 && u < thc__dot(t, t) && s > 0)) return 0;
    if (n.x * (X->x[vn] - xv.x) + n.y * (X->y[vn] - xv.y) < 0 || n.x * (X->x[vp] - xv.x) + n.y * (X->y[vp] - xv.y) < 0) return 0;
    *d = s;
    *x = xv;
    *y = thc__sub(xv, thc__scale(n, s));
    return 1;
}

THC__INLINE float thc__pp_closest(const thc__pp *q, int side, thc_v2 *pa, thc_v2 *pb, thc_v2 *n)
{
    const thc__lanes *rl = side ? &q->b : &q->a, *il = side ? &q->a : &q->b;
    int f = side ? q->fb : q->fa, nr = side ? q->nb : q->na, ni = side ? q->na : q->nb, g = f + 1 < nr ? f + 1 : 0;
    float s = side ? q->sb : q->sa, dv[THC__L], lo;
    thc_v2 nf = thc__v(rl->nx[f], rl->ny[f]), v1 = thc__v(rl->x[f], rl->y[f]), t = thc__sub(thc__v(rl->x[g], rl->y[g]), v1);
    for (int j = 0; j < THC__L; j++) dv[j] = -(nf.x * il->x[j] + nf.y * il->y[j]);
    int j = thc__lane_max(dv, ni, &lo);
    thc_v2 w = thc__v(il->x[j], il->y[j]), p, m = nf;   /* w on the incident side, p on the reference side, m from p toward w */
    float u = thc__dot(t, thc__sub(w, v1)), d;
    if (u > 0 && u < thc__dot(t, t)) {
        d = s;
        p = thc__sub(w, thc__scale(nf, s));
    } else {
        int k = u <= 0 ? f : g, kp = k ? k - 1 : nr - 1, kn = k + 1 < nr ? k + 1 : 0, jp = j ? j - 1 : ni - 1, jn = j + 1 < ni ? j + 1 : 0;
        p = thc__v(rl->x[k], rl->y[k]);
        thc_v2 e = thc__sub(w, p);
        float c1 = thc__dot(e, thc__v(rl->x[kn] - p.x, rl->y[kn] - p.y)), c2 = thc__dot(e, thc__v(rl->x[kp] - p.x, rl->y[kp] - p.y));
        float c3 = thc__dot(e, thc__v(il->x[jn] - w.x, il->y[jn] - w.y)), c4 = thc__dot(e, thc__v(il->x[jp] - w.x, il->y[jp] - w.y));
        if (c1 > 0 || c2 > 0 || c3 < 0 || c4 < 0) {
            /* not the two vertices: a face next to one of them, against the other vertex */
            if (c1 > 0 && thc__pp_vf(il, ni, j, rl, nr, k, &d, &w, &p)) m = thc__v(rl->nx[k], rl->ny[k]);
            else if (c2 > 0 && thc__pp_vf(il, ni, j, rl, nr, kp, &d, &w, &p)) m = thc__v(rl->nx[kp], rl->ny[kp]);
            else if (c3 < 0 && thc__pp_vf(rl, nr, k, il, ni, j, &d, &p, &w)) m = thc__v(-il->nx[j], -il->ny[j]);
            else if (c4 < 0 && thc__pp_vf(rl, nr, k, il, ni, jp, &d, &p, &w)) m = thc__v(-il->nx[jp], -il->ny[jp]);
            else return -1;
        } else {
            d = sqrtf(thc__dot(e, e));
            if (!(d > 0)) return -1;
            m = thc__scale(e, 1.0f / d);
        }
    }
    *n = side ? thc__neg(m) : m;
    if (side) { *pa = w; *pb = p; } else { *pa = p; *pb = w; }
    return d;
}

/* A box as thc__aabb_poly gives it (min corner at the origin, extent e) straight into lanes, with the test
   thc__pp_load makes (it comes out the same: twice the area 2 e.x e.y, the farthest corner |e|^2). */
static inline int thc__pp_box(thc_v2 e, thc__lanes *o)
{
#define THC__BOXL (THC__L > 4 ? THC__L : 4)
    static const float ux[THC__BOXL] = { 0, 1, 1, 0 }, uy[THC__BOXL] = { 0, 0, 1, 1 }, nx[THC__BOXL] = { 0, 1, 0, -1 }, ny[THC__BOXL] = { -1, 0, 1, 0 };
    if (THC__L < 4) return 0;   /* a box takes four lanes: the general road then */
    for (int i = 0; i < THC__L; i++) {
        o->x[i] = ux[i] * e.x;
        o->y[i] = uy[i] * e.y;
        o->nx[i] = nx[i];
        o->ny[i] = ny[i];
    }
    return 2 * e.x * e.y > 1e-6f * (e.x * e.x + e.y * e.y);
}

/* thc_collide for a box (A when box_a) and a polygon by the lane road, as thc__poly_poly takes them with the box
   as thc__aabb_poly makes it, the box's lanes filled straight from its extent (the same values for a box with
   positive extent, so the same answers); -1 for what it leaves to that road (a box without positive extent, a
   polygon A in world vertices, a polygon without area). */
static int thc__box_poly_manifold(const thc_aabb *box, const thc_poly *p, const thc_transform *px, int box_a, thc_manifold *m)
{
    thc__pp q;
    thc__lanes bl;
    thc_transform f, bt;
    thc_v2 e = thc__sub(box->max, box->min);
    int n = p->count < THC__L ? p->count : THC__L;
    if (!(e.x > 0 && e.y > 0) || n < 3) return -1;
    if (!px) {
        if (!box_a) return -1;
        bt.p = thc__v(0, 0); bt.c = 1; bt.s = 0;
        px = &bt;
    }
    f.p = box->min; f.c = 1; f.s = 0;
    const thc_transform *ax = box_a ? &f : px, *bx = box_a ? px : &f;
    q.na = box_a ? 4 : n;
    q.nb = box_a ? n : 4;
    if (!thc__pp_box(e, box_a ? &q.a : &bl) || !thc__pp_load(p, n, box_a ? &bl : &q.a)) return -1;
    thc__pp_move(&bl, ax, bx, &q.b);
    q.fa = thc__pp_faces(&q.a, q.na, &q.b, q.nb, &q.sa);
    if (q.sa > 0) return 0;
    q.fb = thc__pp_faces(&q.b, q.nb, &q.a, q.na, &q.sb);
    if (q.sb > 0) return 0;
    thc_poly bp;   /* the box as a polygon for the normal the manifold turns to the world */
    thc_transform bf;
    thc__aabb_poly(box, &bp, &bf);
    thc__pp_manifold(box_a ? &bp : p, ax, box_a ? p : &bp, bx, &q, m);
    return 1;
}

/* The first of v's vertices (nv used) that f's faces (nf used) hold, -1 when none is inside: each vertex
   measured against every face at once (unused slots are zero, so they measure 0 and hold everything). */
THC__INLINE int thc__pp_inside(const thc__lanes *f, const thc__lanes *v, int nv)
{
#ifdef THC__SSE2
    __m128 fx[THC__L / 4], fy[THC__L / 4], off[THC__L / 4], zero = _mm_setzero_ps();
    for (int i = 0; i < THC__L; i += 4) {
        fx[i / 4] = _mm_loadu_ps(f->nx + i);
        fy[i / 4] = _mm_loadu_ps(f->ny + i);
        off[i / 4] = _mm_add_ps(_mm_mul_ps(fx[i / 4], _mm_loadu_ps(f->x + i)), _mm_mul_ps(fy[i / 4], _mm_loadu_ps(f->y + i)));
    }
    for (int j = 0; j < nv; j++) {
        __m128 vx = _mm_set1_ps(v->x[j]), vy = _mm_set1_ps(v->y[j]), out = zero;
        for (int i = 0; i < THC__L / 4; i++)
            out = _mm_or_ps(out, _mm_cmpgt_ps(_mm_sub_ps(_mm_add_ps(_mm_mul_ps(fx[i], vx), _mm_mul_ps(fy[i], vy)), off[i]), zero));
        if (!_mm_movemask_ps(out)) return j;
    }
#else
    for (int j = 0; j < nv; j++) {
        int out = 0;
        for (int i = 0; i < THC__L; i++) out |= f->nx[i] * v->x[j] + f->ny[i] * v->y[j] - (f->nx[i] * f->x[i] + f->ny[i] * f->y[i]) > 0;
        if (!out) return j;
    }
#endif
    return -1;
}

/* A point both polygons hold when no face separates them (in A's frame): a vertex of one that the other
   holds, else the middle of the part of one of B's edges inside A (the edges cross). 0 when rounding finds
   none of these. */
static int thc__pp_witness(const thc__pp *q, thc_v2 *w)
{
    int j = thc__pp_inside(&q->a, &q->b, q->nb);
    if (j >= 0) { *w = thc__v(q->b.x[j], q->b.y[j]); return 1; }
    if ((j = thc__pp_inside(&q->b, &q->a, q->na)) >= 0) { *w = thc__v(q->a.x[j], q->a.y[j]); return 1; }
    for (j = 0; j < q->nb; j++) {   /* B's edge j clipped by A's faces */
        int k = j + 1 < q->nb ? j + 1 : 0;
        thc_v2 b0 = thc__v(q->b.x[j], q->b.y[j]), e = thc__v(q->b.x[k] - b0.x, q->b.y[k] - b0.y);
        float t0 = 0, t1 = 1;
        for (int i = 0; i < q->na && t0 <= t1; i++) {
            float num = q->a.nx[i] * (q->a.x[i] - b0.x) + q->a.ny[i] * (q->a.y[i] - b0.y), den = q->a.nx[i] * e.x + q->a.ny[i] * e.y;
            if (den == 0) { if (num < 0) t1 = -1; }
            else if (den < 0) t0 = thc__maxf(t0, num / den);
            else t1 = thc__minf(t1, num / den);
        }
        if (t0 <= t1) { *w = thc__add(b0, thc__scale(e, 0.5f * (t0 + t1))); return 1; }
    }
    return 0;
}

/* thc_distance for two polygons with area (A's lanes in q->a, B's own in bl, both counts in q), or a box and a
   polygon, in A's own frame (a box's: at its min corner): touching (no face separates them, the manifold's own
   test) gives 0 at a point both hold, apart the distance by the separating axis above. -1 for what it leaves
   to the general road: a pair the separating axis does not settle, or a touching one where rounding finds no
   common point. */
THC__INLINE float thc__pp_distance_lanes(thc__pp *q, const thc__lanes *bl, const thc_transform *ax, const thc_transform *bx, thc_v2 *pa, thc_v2 *pb)
{
    thc_v2 qa = thc__v(0, 0), qb = qa, n = qa;
    float d = -1;
    thc__pp_move(bl, ax, bx, &q->b);
    q->fa = thc__pp_faces(&q->a, q->na, &q->b, q->nb, &q->sa);
    if (q->sa > 0) d = thc__pp_closest(q, 0, &qa, &qb, &n);
    if (d < 0) {
        q->fb = thc__pp_faces(&q->b, q->nb, &q->a, q->na, &q->sb);
        if (q->sa <= 0 && q->sb <= 0) {   /* no face separates them: 0 at a point both hold */
            if (!thc__pp_witness(q, &qa)) return -1;
            *pa = *pb = thc__place(ax, qa);
            return 0;
        }
        if (q->sb > 0) d = thc__pp_closest(q, 1, &qa, &qb, &n);
        if (d < 0) return -1;
    }
    *pa = thc__place(ax, qa);
    *pb = thc__place(ax, qb);
    return d;
}

/* Two polygons; -1 also for a polygon with no area or A given in world vertices (no transform). */
static THC__NOINLINE float thc__pp_distance(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx, thc_v2 *pa, thc_v2 *pb)
{
    thc__pp q;
    thc__lanes bl;
    thc_transform bt;
    q.na = a->count < THC__L ? a->count : THC__L;
    q.nb = b->count < THC__L ? b->count : THC__L;
    if (!ax || q.na < 3 || q.nb < 3 || !thc__pp_load(a, q.na, &q.a) || !thc__pp_load(b, q.nb, &bl)) return -1;
    if (!bx) { bt.p = thc__v(0, 0); bt.c = 1; bt.s = 0; bx = &bt; }
    return thc__pp_distance_lanes(&q, &bl, ax, bx, pa, pb);
}

/* A box (A when box_a) and a polygon, the box as thc__aabb_poly makes it; -1 also for a flat one. */
static THC__NOINLINE float thc__box_poly_distance(const thc_aabb *box, const thc_poly *p, const thc_transform *px, int box_a, thc_v2 *pa, thc_v2 *pb)
{
    thc__pp q;
    thc__lanes bl;
    thc_transform f, bt;
    f.p = box->min; f.c = 1; f.s = 0;
    if (!px) { bt.p = thc__v(0, 0); bt.c = 1; bt.s = 0; px = &bt; }
    int n = p->count < THC__L ? p->count : THC__L;
    if (n < 3) return -1;
    thc_v2 e = thc__sub(box->max, box->min);
    q.na = box_a ? 4 : n;
    q.nb = box_a ? n : 4;
    if (box_a) {
        if (!thc__pp_box(e, &q.a) || !thc__pp_load(p, n, &bl)) return -1;
        return thc__pp_distance_lanes(&q, &bl, &f, px, pa, pb);
    }
    if (!thc__pp_box(e, &bl) || !thc__pp_load(p, n, &q.a) || px == &bt) return -1;   /* a polygon A in world vertices: the general road */
    return thc__pp_distance_lanes(&q, &bl, px, &f, pa, pb);
}

/* thc_distance for a capsule and a polygon with area, the same way in the polygon's own frame (the capsule's
   segment moved into it as a 2-vertex polygon), the radius taken off at the end: touching by the radius (or
   within THC__TOUCH_REL), 0 at the polygon's nearest point; NaN for NaN and infinity. It leaves the pair to
   thc__capsule_poly_distance with -2 when the input is known finite (the cores meet, or their closest
   features are not proven), -1 when it is not looked at yet (no transform, a flat polygon, a capsule without
   length). *pk on the capsule, *pp on the polygon. */
THC__INLINE float thc__capsule_poly_lanes(const thc_capsule *k, const thc_poly *p, const thc_transform *xf, thc_v2 *pk, thc_v2 *pp)
{
    int n = p->count < THC__L ? p->count : THC__L;
    thc__pp q;
    if (!xf || n < 3 || !thc__pp_load(p, n, &q.a)) return -1;
    thc_v2 s0 = thc__unplace(xf, k->a), s1 = thc__unplace(xf, k->b), e = thc__sub(s1, s0);
    float l = thc__len(e), r = k->r > 0 ? k->r : 0;
    /* NaN and infinity, the look folded in: l is NaN or infinite when an end or the transform is (the two ends
       move and turn alike, so inf - inf or 0 * inf make NaN), z then NaN, else 0 */
    float z = THC__ZERO_OR_NAN(l + k->r);
    if (!(l > 1e-12f)) return -1;
    float il = 1.0f / l, nx = e.y * il, ny = -e.x * il;
#ifdef THC__SSE2
    __m128 zero = _mm_setzero_ps();   /* whole-vector stores, as thc__pp_load makes them */
    _mm_storeu_ps(q.b.x, _mm_setr_ps(s0.x, s1.x, 0, 0));
    _mm_storeu_ps(q.b.y, _mm_setr_ps(s0.y, s1.y, 0, 0));
    _mm_storeu_ps(q.b.nx, _mm_setr_ps(nx, -nx, 0, 0));
    _mm_storeu_ps(q.b.ny, _mm_setr_ps(ny, -ny, 0, 0));
    for (int i = 4; i < THC__L; i += 4) { _mm_storeu_ps(q.b.x + i, zero); _mm_storeu_ps(q.b.y + i, zero); _mm_storeu_ps(q.b.nx + i, zero); _mm_storeu_ps(q.b.ny + i, zero); }
#else
    memset(&q.b, 0, sizeof q.b);
    q.b.x[0] = s0.x; q.b.y[0] = s0.y; q.b.x[1] = s1.x; q.b.y[1] = s1.y;
    q.b.nx[0] = nx; q.b.ny[0] = ny; q.b.nx[1] = -nx; q.b.ny[1] = -ny;
#endif
    q.na = n;
    q.nb = 2;
    thc_v2 qa = thc__v(0, 0), qb = qa, ln = qa;
    float d = -1;
    q.fa = thc__pp_faces(&q.a, n, &q.b, 2, &q.sa);
    if (q.sa > 0) d = thc__pp_closest(&q, 0, &qa, &qb, &ln);
    if (d < 0) {
        q.fb = thc__pp_faces(&q.b, 2, &q.a, n, &q.sb);
        if (q.sb > 0) d = thc__pp_closest(&q, 1, &qa, &qb, &ln);
        if (d < 0) return -2 + z;   /* the cores meet, or their closest features are not proven */
    }
    *pp = thc__place(xf, qa);
    if (!(d - r + z > THC__TOUCH_REL * d)) {   /* touching by the radius: 0 at the polygon's nearest point */
        *pk = *pp;
        return z;
    }
    *pk = thc__place(xf, thc__sub(qb, thc__scale(ln, r)));
    return d - r + z;
}

/* A capsule and a polygon: the lanes above (NaN for NaN and infinity), else the direct road (after the look
   when the lanes left the pair before looking). */
static THC__NOINLINE float thc__capsule_poly_road(const thc_capsule *k, const thc_poly *p, const thc_transform *xf, thc_v2 *pk, thc_v2 *pp)
{
    float d = thc__capsule_poly_lanes(k, p, xf, pk, pp);
    if (!(d < 0)) return d;
    if (d == -1 && THC__BAD2(THC__SUM_CAPSULE(k), THC__SUM_XF(xf))) return NAN;
    return thc__capsule_poly_distance(k, p, xf, pk, pp);
}

/* thc_distance's direct roads, the shapes in either order (by type: circle, box, capsule, polygon); -1 when none
   applies or the one that does declines (touching, nearly touching, a flat polygon). Each looks at NaN and
   infinity first with the pair's types known (NaN: the general road answers it). */
static float thc__distance_roads(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                 const thc_transform *bx, thc_v2 *pa, thc_v2 *pb)
{
    int swap = ta > tb;
    const void *x = swap ? b : a, *y = swap ? a : b;
    thc_type tx = swap ? tb : ta, ty = swap ? ta : tb;
    const thc_transform *yx = swap ? ax : bx;
    thc_v2 qx, qy;
    float d = -1;
    switch (THC__PAIR(tx, ty)) {
    case THC__PAIR(THC_CIRCLE, THC_POLY):   /* the road answers only finite input (the others look) */
        d = thc__circle_poly_distance((const thc_circle *)x, (const thc_poly *)y, yx, &qx, &qy); break;
    case THC__PAIR(THC_CAPSULE, THC_POLY):   /* NaN and infinity: NaN, which the general road answers */
        d = thc__capsule_poly_road((const thc_capsule *)x, (const thc_poly *)y, yx, &qx, &qy);
        break;
    case THC__PAIR(THC_AABB, THC_CAPSULE):
        if (THC__BAD2(THC__SUM_BOX((const thc_aabb *)x), THC__SUM_CAPSULE((const thc_capsule *)y))) return NAN;
        d = thc__box_capsule_distance((const thc_aabb *)x, (const thc_capsule *)y, &qx, &qy);
        break;
    case THC__PAIR(THC_CAPSULE, THC_CAPSULE):   /* NaN and infinity: NaN, which the general road answers */
        d = thc__distance_direct(x, y, tx, &qx, &qy);
        break;
    case THC__PAIR(THC_AABB, THC_AABB):   /* NaN and infinity: NaN, which the general road answers */
        return thc__distance_direct(x, y, tx, pa, pb);
    /* A and B as given for these (the manifold's order, which decides the contact point of touching ones) */
    case THC__PAIR(THC_POLY, THC_POLY):
        if (THC__BAD2(THC__SUM_XF(ax), THC__SUM_XF(bx))) return NAN;
        return thc__pp_distance((const thc_poly *)a, ax, (const thc_poly *)b, bx, pa, pb);
    case THC__PAIR(THC_AABB, THC_POLY):
        if (THC__BAD2(THC__SUM_BOX((const thc_aabb *)x), THC__SUM_XF(yx))) return NAN;
        return thc__box_poly_distance((const thc_aabb *)x, (const thc_poly *)y, yx, !swap, pa, pb);
    default: return -1;
    }
    if (d < 0) return -1;
    *pa = swap ? qy : qx;
    *pb = swap ? qx : qy;
    return d;
}

static THC__NOINLINE float thc__distance_general(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                                const thc_transform *bx, thc_v2 *pa, thc_v2 *pb);

float thc_distance(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb, const thc_transform *bx,
                   thc_v2 *pa, thc_v2 *pb)
{
    thc_v2 qa, qb;
    if (pa) *pa = thc__v(0, 0);
    if (pb) *pb = thc__v(0, 0);
    if (THC__INVALID(a, ta, b, tb, "thc_distance")) return NAN;
    if (a && b && (ta == THC_CIRCLE || tb == THC_CIRCLE) && ta != THC_POLY && tb != THC_POLY) {
        /* a circle against a circle, a box or a capsule, clearly apart: the nearest point of the other
           shape's core, directly */
        int swap = ta != THC_CIRCLE;
        const thc_circle *c = (const thc_circle *)(swap ? b : a);
        const void *other = swap ? a : b;
        thc_type to = swap ? ta : tb;
        thc_v2 d;   /* the nearest core point, relative to the centre (far from the origin loses nothing) */
        float rb = 0, ra = c->r < 0 ? 0 : c->r;   /* NaN stays NaN */
        float w = 0;   /* a box's width and height: NaN or infinite when one of its sides is (the clamp drops them) */
        if (to == THC_CIRCLE) { d = thc__sub(((const thc_circle *)other)->p, c->p); rb = ((const thc_circle *)other)->r; }
        else if (to == THC_AABB) {
            const thc_aabb *bo = (const thc_aabb *)other;
            d = thc__sub(thc_closest_on_aabb(c->p, bo), c->p);
            w = fabsf(bo->max.x - bo->min.x) + fabsf(bo->max.y - bo->min.y);
        }
        else {
            const thc_capsule *k = (const thc_capsule *)other;
            d = thc_closest_on_segment(thc__v(0, 0), thc__sub(k->a, c->p), thc__sub(k->b, c->p));
            rb = k->r;
        }
        rb = rb < 0 ? 0 : rb;
        float dist = thc__len(d);
        if (dist - ra - rb > THC__TOUCH_REL * dist && dist + w < FLT_MAX) {   /* an infinite centre or side goes on to the NaN answer */
            thc_v2 n = thc__scale(d, 1.0f / dist), sa = thc__add(c->p, thc__scale(n, ra)), sb = thc__add(c->p, thc__sub(d, thc__scale(n, rb)));
            if (pa) *pa = swap ? sb : sa;
            if (pb) *pb = swap ? sa : sb;
            return dist - ra - rb;
        }
        if (!(dist - ra - rb > THC__TOUCH_REL * dist) && dist + w + ra + rb < FLT_MAX) {
            /* touching (or within THC__TOUCH_REL): 0 at a point both hold, on the way from the centre to the
               nearest core point (NaN and infinity go on to the general road's NaN) */
            thc_v2 q = dist > 0 ? thc__add(c->p, thc__scale(d, thc__reach(dist, ra, rb) / dist)) : c->p;
            if (pa) *pa = q;
            if (pb) *pb = q;
            return 0;
        }
    }
    if (!a || !b) return NAN;
    if (a && b) {
        float d = thc__distance_roads(a, ta, ax, b, tb, bx, &qa, &qb);
        if (d >= 0) {
            if (pa) *pa = qa;
            if (pb) *pb = qb;
            return d;
        }
    }
    return thc__distance_general(a, ta, ax, b, tb, bx, pa, pb);
}

/* A point two touching shapes both hold, from their proxies (in one frame): on the way between the cores'
   closest points when they are apart (st's, when thc__classify found them apart; st may be NULL), else a
   vertex of one core inside the other, else where two edges cross, else between the closest points again. */
static thc_v2 thc__core_witness(const thc__proxy *a, const thc__proxy *b, const thc__sat *st)
{
    thc_v2 pa, pb, n;
    float d;
    if (st && st->d >= 0) { pa = st->pa; pb = st->pb; d = st->d; }
    else {
        for (int side = 0; side < 2; side++) {   /* a vertex of one inside the other */
            const thc__proxy *x = side ? b : a, *y = side ? a : b;
            if (x->count < 3) continue;
            for (int j = 0; j < y->count; j++) {
                int in = 1;
                for (int i = 0; i < x->count && in; i++) in = thc__dot(x->n[i], thc__sub(y->v[j], x->v[i])) <= 0;
                if (in) return y->v[j];
            }
        }
        int ea = a->count > 2 ? a->count : a->count - 1, eb = b->count > 2 ? b->count : b->count - 1;
        for (int i = 0; i < ea; i++)   /* edges crossing */
            for (int j = 0; j < eb; j++) {
                thc_v2 c;
                if (thc_segment_intersect(a->v[i], a->v[(i + 1) % a->count], b->v[j], b->v[(j + 1) % b->count], NULL, NULL, &c)) return c;
            }
        d = thc__core_closest(a, b, &pa, &pb, &n);
    }
    thc_v2 e = thc__sub(pb, pa);
    return d > 0 ? thc__add(pa, thc__scale(e, thc__reach(d, a->r, b->r) / d)) : pa;
}

/* thc_distance when no direct road answers, out of line so the direct roads pay for none of its stack: both
   shapes as proxies in one frame (a polygon's own when there is one). */
static THC__NOINLINE float thc__distance_general(const void *a, thc_type ta, const thc_transform *ax, const void *b, thc_type tb,
                                                const thc_transform *bx, thc_v2 *pa, thc_v2 *pb)
{
    thc__proxy xa, xb;
    thc_v2 qa, qb;
    thc_transform f;
    if (thc__bad_pair(a, ta, ax, b, tb, bx, THC__NO_MORE)) return NAN;
    if (!thc__pair_proxies_framed(a, ta, ax, b, tb, bx, &xa, &xb, &f)) return FLT_MAX;
    {
        /* the common case, shapes apart: the closest features, and their normal proven to separate the
           shapes (so the cores are disjoint and the distance between them is the answer) */
        thc_v2 n;
        double sep = 0;
        float d, r = xa.r + xb.r;
        if (xa.count * xb.count >= THC__GJK_PAIRS) d = thc__closest_checked(&xa, thc__v(0, 0), &xb, NULL, &qa, &qb, &n, &sep);
        else d = thc__core_closest(&xa, &xb, &qa, &qb, &n);   /* few vertex-edge pairs: the brute force is cheapest */
        if (d - r > THC__APART && (xa.count * xb.count >= THC__GJK_PAIRS || (sep = thc__axis_sep(&xa, thc__v(0, 0), &xb, n)) > THC__APART) && sep > THC__APART) {
            if (pa) *pa = thc__place(&f, thc__add(qa, thc__scale(n, xa.r)));
            if (pb) *pb = thc__place(&f, thc__sub(qb, thc__scale(n, xb.r)));
            return d - r;
        }
    }
    int touch = -1;
    thc__sat st;
    if (ta == THC_POLY && tb == THC_POLY && a && b)   /* the manifold's own test, so the two always agree */
        touch = thc__poly_poly((const thc_poly *)a, ax, (const thc_poly *)b, bx, NULL);
    if (touch == 1 || (touch < 0 && thc__classify(&xa, &xb, &st))) {   /* touching: 0 at a point both hold */
        thc_v2 q = thc__place(&f, thc__core_witness(&xa, &xb, touch < 0 ? &st : NULL));
        if (pa) *pa = q;
        if (pb) *pb = q;
        return 0;
    }
    thc_v2 n;
    float r = xa.r + xb.r, d = thc__core_closest(&xa, &xb, &qa, &qb, &n);   /* apart, so the cores are apart too */
    if (pa) *pa = thc__place(&f, thc__add(qa, thc__scale(n, xa.r)));
    if (pb) *pb = thc__place(&f, thc__sub(qb, thc__scale(n, xb.r)));
    return d - r;
}

/* ---------------------------------------------------------------- overlap tests and manifolds per pair */
int thc_circle_to_circle(const thc_circle *a, const thc_circle *b) { return thc__cc_overlap(a, b); }
int thc_circle_to_aabb(const thc_circle *a, const thc_aabb *b) { return thc__ca_overlap(a, b); }
int thc_aabb_to_aabb(const thc_aabb *a, const thc_aabb *b) { return thc__aa_overlap(a, b); }

int thc_circle_to_capsule(const thc_circle *a, const thc_capsule *b) { return thc_overlap(a, THC_CIRCLE, NULL, b, THC_CAPSULE, NULL); }
int thc_circle_to_poly(const thc_circle *a, const thc_poly *b, const thc_transform *bx) { return thc_overlap(a, THC_CIRCLE, NULL, b, THC_POLY, bx); }
int thc_aabb_to_capsule(const thc_aabb *a, const thc_capsule *b) { return thc_overlap(a, THC_AABB, NULL, b, THC_CAPSULE, NULL); }
int thc_aabb_to_poly(const thc_aabb *a, const thc_poly *b, const thc_transform *bx) { return thc_overlap(a, THC_AABB, NULL, b, THC_POLY, bx); }
int thc_capsule_to_capsule(const thc_capsule *a, const thc_capsule *b) { return thc_overlap(a, THC_CAPSULE, NULL, b, THC_CAPSULE, NULL); }
int thc_capsule_to_poly(const thc_capsule *a, const thc_poly *b, const thc_transform *bx) { return thc_overlap(a, THC_CAPSULE, NULL, b, THC_POLY, bx); }
int thc_poly_to_poly(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx) { return thc_overlap(a, THC_POLY, ax, b, THC_POLY, bx); }

void thc_circle_to_circle_manifold(const thc_circle *a, const thc_circle *b, thc_manifold *m) { thc__cc_manifold(a, b, m); }
void thc_circle_to_aabb_manifold(const thc_circle *a, const thc_aabb *b, thc_manifold *m) { thc__ca_manifold(a, b, m); }

void thc_aabb_to_aabb_manifold(const thc_aabb *a, const thc_aabb *b, thc_manifold *m)
{
    m->count = 0;
    if (!thc__aa_overlap(a, b)) return;
    float lox = thc__maxf(a->min.x, b->min.x), hix = thc__minf(a->max.x, b->max.x);
    float loy = thc__maxf(a->min.y, b->min.y), hiy = thc__minf(a->max.y, b->max.y);
    /* each side's push: the smaller of pushing A left/right (down/up) of B */
    float px = thc__minf(a->max.x - b->min.x, b->max.x - a->min.x), py = thc__minf(a->max.y - b->min.y, b->max.y - a->min.y);
    m->count = 2;
    if (px <= py) {
        float sx = (a->max.x - b->min.x) <= (b->max.x - a->min.x) ? 1.0f : -1.0f;
        float x = sx > 0 ? 0.5f * (b->min.x + a->max.x) : 0.5f * (a->min.x + b->max.x);
        m->n = thc__v(sx, 0);
        m->depths[0] = m->depths[1] = px;
        m->contact_points[0] = thc__v(x, loy);
        m->contact_points[1] = thc__v(x, hiy);
    } else {
        float sy = (a->max.y - b->min.y) <= (b->max.y - a->min.y) ? 1.0f : -1.0f;
        float y = sy > 0 ? 0.5f * (b->min.y + a->max.y) : 0.5f * (a->min.y + b->max.y);
        m->n = thc__v(0, sy);
        m->depths[0] = m->depths[1] = py;
        m->contact_points[0] = thc__v(lox, y);
        m->contact_points[1] = thc__v(hix, y);
    }
    if (m->contact_points[0].x == m->contact_points[1].x && m->contact_points[0].y == m->contact_points[1].y) m->count = 1;
}

void thc_circle_to_capsule_manifold(const thc_circle *a, const thc_capsule *b, thc_manifold *m) { thc_collide(a, THC_CIRCLE, NULL, b, THC_CAPSULE, NULL, m); }
void thc_circle_to_poly_manifold(const thc_circle *a, const thc_poly *b, const thc_transform *bx, thc_manifold *m) { thc_collide(a, THC_CIRCLE, NULL, b, THC_POLY, bx, m); }
void thc_aabb_to_capsule_manifold(const thc_aabb *a, const thc_capsule *b, thc_manifold *m) { thc_collide(a, THC_AABB, NULL, b, THC_CAPSULE, NULL, m); }
void thc_aabb_to_poly_manifold(const thc_aabb *a, const thc_poly *b, const thc_transform *bx, thc_manifold *m) { thc_collide(a, THC_AABB, NULL, b, THC_POLY, bx, m); }
void thc_capsule_to_capsule_manifold(const thc_capsule *a, const thc_capsule *b, thc_manifold *m) { thc_collide(a, THC_CAPSULE, NULL, b, THC_CAPSULE, NULL, m); }
void thc_capsule_to_poly_manifold(const thc_capsule *a, const thc_poly *b, const thc_transform *bx, thc_manifold *m) { thc_collide(a, THC_CAPSULE, NULL, b, THC_POLY, bx, m); }
void thc_poly_to_poly_manifold(const thc_poly *a, const thc_transform *ax, const thc_poly *b, const thc_transform *bx, thc_manifold *m)
{
    m->count = 0;
    if (THC__INVALID(a, THC_POLY, b, THC_POLY, "thc_poly_to_poly_manifold")) return;
    if (a && b && thc__poly_poly(a, ax, b, bx, m) >= 0) return;
    thc_collide(a, THC_POLY, ax, b, THC_POLY, bx, m);
}

/* ---------------------------------------------------------------- shape helpers */
thc_aabb thc_shape_aabb(const void *s, thc_type t, const thc_transform *xf)
{
    thc_aabb box;
    thc__proxy px;
    thc_v2 o = thc__anchor(s, t, xf);
    box.min = box.max = o;
    if (!thc__proxy_make(&px, s, t, xf, o)) return box;
    thc_v2 lo = px.v[0], hi = px.v[0];
    for (int i = 1; i < px.count; i++) {
        lo = thc__v(thc__minf(lo.x, px.v[i].x), thc__minf(lo.y, px.v[i].y));
        hi = thc__v(thc__maxf(hi.x, px.v[i].x), thc__maxf(hi.y, px.v[i].y));
    }
    box.min = thc__add(o, thc__v(lo.x - px.r, lo.y - px.r));
    box.max = thc__add(o, thc__v(hi.x + px.r, hi.y + px.r));
    return box;
}

int thc_point_in_shape(thc_v2 p, const void *s, thc_type t, const thc_transform *xf)
{
    thc__proxy px, pt;
    thc_v2 o = thc__anchor(s, t, xf);
    if (!thc__proxy_make(&px, s, t, xf, o)) return 0;
    pt.count = 1;
    pt.r = 0;
    pt.v[0] = thc__sub(p, o);
    return thc__proxy_overlap(&px, &pt);
}

/* ---------------------------------------------------------------- rays */
/* Entry t of the ray p + d t (t >= 0) into the circle c, r; -1 when it misses; 0 when p starts inside. */
/* The discriminant as |d|^2 r^2 - (m x d)^2: b^2 - |d|^2 cc cancels to nothing at a grazing pass, and lost the
   3.87e-5 by which a circle sweeping past a box's corner overlapped it. */
THC__INLINE float thc__ray_circle_t(thc_v2 p, thc_v2 d, thc_v2 c, float r)
{
    float mx = p.x - c.x, my = p.y - c.y, dx = d.x, dy = d.y, rr = r * r;
    float cc = mx * mx + my * my - rr;
    if (cc <= 0) return 0;
    float b = mx * dx + my * dy;
    if (!(b < 0)) return -1;   /* heading away (a zero d gives b = 0 too) */
    float x = mx * dy - my * dx, disc = (dx * dx + dy * dy) * rr - x * x;
    if (disc < 0) return -1;
    return cc / (-b + sqrtf(disc));   /* = (-b - sqrt(disc)) / a without the cancellation */
}

static int thc__ray_proxy(const thc__proxy *px, thc_v2 p, thc_v2 d, float tmax, thc_ray_hit *out)
{
    thc_v2 inward = thc__norm_or(thc__neg(d), thc__v(-1, 0));
    if (px->count == 0 || !(tmax >= 0)) return 0;
    if (px->count >= 3 && px->r == 0) {   /* clip the ray against every face's half-plane */
        float lo = 0, hi = tmax;
        int face = -1;
        for (int i = 0; i < px->count; i++) {
            float num = thc__dot(px->n[i], thc__sub(px->v[i], p)), den = thc__dot(px->n[i], d);
            if (den == 0) {
                if (num < 0) return 0;
            } else if (den < 0) {
                float t = num / den;
                if (t > lo) { lo = t; face = i; }
            } else {
                float t = num / den;
                if (t < hi) hi = t;
            }
            if (lo > hi) return 0;
        }
        out->t = lo;
        out->n = face >= 0 ? px->n[face] : inward;
        return 1;
    }
    /* rounded: the vertices' circles and the faces pushed out by the radius */
    thc__proxy pt;
    pt.count = 1;
    pt.r = 0;
    pt.v[0] = p;
    if (thc__proxy_overlap(px, &pt)) { out->t = 0; out->n = inward; return 1; }
    float best = FLT_MAX;
    thc_v2 bn = inward;
    for (int i = 0; i < px->count; i++) {
        float t = thc__ray_circle_t(p, d, px->v[i], px->r);
        if (t >= 0 && t < best) { best = t; bn = thc__norm_or(thc__sub(thc__add(p, thc__scale(d, t)), px->v[i]), inward); }
    }
    int faces = px->count >= 2 ? px->count : 0;
    for (int i = 0; i < faces; i++) {
        thc_v2 n = px->n[i], a = thc__add(px->v[i], thc__scale(n, px->r)), e = thc__sub(px->v[(i + 1) % px->count], px->v[i]);
        float den = thc__dot(n, d);
        if (den >= 0) continue;
        float t = thc__dot(n, thc__sub(a, p)) / den;
        if (t < 0) continue;
        float u = thc__dot(thc__sub(thc__add(p, thc__scale(d, t)), a), e), ee = thc__dot(e, e);
        if (ee > 0 && u >= 0 && u <= ee && t < best) { best = t; bn = n; }
    }
    if (best > tmax) return 0;
    out->t = best;
    out->n = bn;
    return 1;
}

/* ---------------------------------------------------------------- direct paths: the same answers as the proxies without building them */
/* The ray p + d t against the circle c, r (a negative radius is 0): where it enters (0 when p starts inside)
   and the normal there. A ray that neither starts inside nor heads towards the centre misses; else it
   misses when it passes farther than r from the centre, (m x d)^2 > r^2 |d|^2: the one test a mix of rays
   cannot predict, on a short chain (no division, no square root). The entry t = cc / (-b + sqrt(disc)) has
   no cancellation. Worked coordinate by coordinate. The common case (a radius, p outside) goes with one
   branch for hit or miss and one for the ray's end; the rest is out of line (rare = 1). */
static THC__NOINLINE int thc__ray_circle_rare(float mx, float my, float dx, float dy, float tmax, float r, thc_ray_hit *out);
/* m = p - c, the ray's start from the centre */
THC__INLINE int thc__ray_circle_m(float mx, float my, float dx, float dy, float tmax, float r, int rare, thc_ray_hit *out)
{
    float rr = r * r, cc = mx * mx + my * my - rr, b = mx * dx + my * dy, x = mx * dy - my * dx;
    float disc = (dx * dx + dy * dy) * rr - x * x;
    if (!rare && ((cc <= 0) | !(r > 0))) return thc__ray_circle_rare(mx, my, dx, dy, tmax, r, out);
    if (cc <= 0) {
        if (!(tmax >= 0) || thc__nonfinite(dx + dy + r)) return 0;
        out->t = 0;
        out->n = thc__norm_or(thc__v(-dx, -dy), thc__v(-1, 0));
        return 1;
    }
    if (!(b < 0) || disc < 0) return 0;   /* heading away (a zero d gives b = 0 too), or passing by */
    float t = cc / (-b + sqrtf(disc));
    if (!(t <= tmax)) return 0;
    out->t = t;
    float qx = mx + dx * t, qy = my + dy * t;
    if (r > 0) {
        float ir = 1.0f / r;
        out->n.x = qx * ir;
        out->n.y = qy * ir;
    } else {
        out->n = thc__norm_or(thc__v(qx, qy), thc__v(-1, 0));
    }
    return 1;
}

static THC__NOINLINE int thc__ray_circle_rare(float mx, float my, float dx, float dy, float tmax, float r, thc_ray_hit *out)
{
    return thc__ray_circle_m(mx, my, dx, dy, tmax, thc__maxf(0, r), 1, out);   /* NaN stays NaN: a miss */
}

/* every case inline (r >= 0): for the capsule's end circles */
THC__INLINE int thc__ray_circle(thc_v2 p, thc_v2 d, float tmax, thc_v2 c, float r, thc_ray_hit *out)
{
    return thc__ray_circle_m(p.x - c.x, p.y - c.y, d.x, d.y, tmax, r, 1, out);
}

/* The ray against the box [lo, hi] by slabs; the entering face gives the normal (the ray's reverse when it starts inside). */
static int thc__ray_box(thc_v2 p, thc_v2 d, float tmax, thc_v2 lo, thc_v2 hi, thc_ray_hit *out)
{
    float t0 = 0, t1 = tmax;
    thc_v2 n = thc__v(0, 0);
    int entered = 0;
    if (d.x == 0) { if (p.x < lo.x || p.x > hi.x) return 0; }
    else {
        float a = (lo.x - p.x) / d.x, b = (hi.x - p.x) / d.x;
        float tin = d.x > 0 ? a : b, tout = d.x > 0 ? b : a;
        if (tin > t0) { t0 = tin; n = thc__v(d.x > 0 ? -1.0f : 1.0f, 0); entered = 1; }
        if (tout < t1) t1 = tout;
    }
    if (d.y == 0) { if (p.y < lo.y || p.y > hi.y) return 0; }
    else {
        float a = (lo.y - p.y) / d.y, b = (hi.y - p.y) / d.y;
        float tin = d.y > 0 ? a : b, tout = d.y > 0 ? b : a;
        if (tin > t0) { t0 = tin; n = thc__v(0, d.y > 0 ? -1.0f : 1.0f); entered = 1; }
        if (tout < t1) t1 = tout;
    }
    if (t0 > t1 || !(tmax >= 0)) return 0;
    out->t = t0;
    out->n = entered ? n : thc__norm_or(thc__neg(d), thc__v(-1, 0));
    return 1;
}

/* The ray against the capsule a-b of radius r, with a at the origin, worked in the capsule's own axes
   (x along a-b, y across): inside, else the side facing the start pushed out by r, else the end circles. */
static THC__NOINLINE int thc__ray_from_inside(thc_v2 d, float tmax, float sum, thc_ray_hit *out)
{
    if (!(tmax >= 0) || thc__nonfinite(sum)) return 0;   /* a ray of negative length misses, as at every shape */
    out->t = 0; out->n = thc__norm_or(thc__neg(d), thc__v(-1, 0)); return 1;
}
static int thc__ray_capsule(thc_v2 p, thc_v2 d, float tmax, thc_v2 b, float r, thc_ray_hit *out)
{
    /* NaN and infinity miss on their own but where looked at: a NaN or infinite number of the ray, the end b
       or the radius turns the tests below NaN (an infinite b makes u NaN), or an infinite start or end leaves
       the end circles out of reach; a NaN b takes the point-capsule branch and an infinite b leaves a's end
       circle finite, so both are looked at there, and a start inside looks at the ray and the radius. */
    float ee = thc__dot(b, b);
    if (!(ee > 1e-24f) || !(ee <= FLT_MAX)) return !thc__nonfinite(ee) && thc__ray_circle(p, d, tmax, thc__v(0, 0), r, out);
    float l = sqrtf(ee);
    thc_v2 u = thc__scale(b, 1.0f / l), w = thc__v(-u.y, u.x);
    float px = thc__dot(p, u), py = thc__dot(p, w), dx = thc__dot(d, u), dy = thc__dot(d, w);
    float cx = thc__clamp(px, 0, l), ex = px - cx;
    if (ex * ex + py * py <= r * r) {
        return thc__ray_from_inside(d, tmax, dx + dy + r, out);
    }
    if (fabsf(py) > r && py * dy < 0) {   /* the side facing the start */
        float t = (fabsf(py) - r) / fabsf(dy), x = px + dx * t;
        if (x >= 0 && x <= l) {
            if (!(t <= tmax)) return 0;
            out->t = t;
            out->n = py > 0 ? w : thc__neg(w);
            return 1;
        }
    }
    thc_ray_hit ha, hb;
   /* an infinite b: NaN, and the end circles miss */
    int ia = thc__ray_circle(p, d, tmax, thc__v(0, 0), r, &ha), ib = thc__ray_circle(p, d, tmax, b, r, &hb);
    if (ia && (!ib || ha.t <= hb.t)) { *out = ha; return 1; }
    if (ib) { *out = hb; return 1; }
    return 0;
}

/* The ray moved into the polygon's own frame and clipped against every face's half-plane. */
/* 1: a hit in *out; 0: a miss; -1: a miss by so little that a polygon with (almost) no area could owe it
   to rounding (the caller then looks at the area). The margin of a miss is how far the ray stays outside
   the two faces that shut it out: (lo - hi) times their closing speeds, the least of which bounds it. */
static int thc__ray_poly_local(const thc_ray *r, const thc_poly *poly, const thc_transform *xf, thc_ray_hit *out)
{
    /* the ray in the polygon's frame, coordinate by coordinate */
    float c = 1, sn = 0, rx = r->p.x, ry = r->p.y, dx = r->d.x, dy = r->d.y, tmax = r->t;
    if (xf) { c = xf->c; sn = xf->s; rx -= xf->p.x; ry -= xf->p.y; }
    float lpx = c * rx + sn * ry, lpy = -sn * rx + c * ry, ldx = c * dx + sn * dy, ldy = -sn * dx + c * dy;
    /* slo, shi: the closing speeds of the faces that set lo, hi; hi starts finite (a ray with no end too), so a
       face parallel to the ray is tested by num < hi * 0 */
    float hi0 = thc__minf(tmax, FLT_MAX), lo = 0, hi = hi0, slo = FLT_MAX, shi = FLT_MAX, margin;
    int face = -1;
    if (!(tmax >= 0)) return 0;
    THC__UNROLL
    for (int i = 0; i < poly->count; i++) {
        float nx = poly->norms[i].x, ny = poly->norms[i].y;
        float num = nx * (poly->verts[i].x - lpx) + ny * (poly->verts[i].y - lpy), den = nx * ldx + ny * ldy;
        /* t = num / den, divided only when it moves a bound (an entering face's t above lo, a leaving one's
           below hi: num < bound * den either way, and for a face parallel to the ray, num < 0 puts the ray
           outside it); one test a face, the bounds can cross only when one moves */
        float bound = den < 0 ? lo : hi;
        if (!(num >= bound * den)) {   /* NaN comes in here and leaves as a miss (margin NaN) or -1 */
            if (den < 0) { lo = num / den; slo = -den; face = i; }
            else if (den > 0) { hi = num / den; shi = den; }
            else { margin = -num; goto miss; }
            if (lo > hi) break;
        }
    }
    if (!(lo <= hi)) {   /* a NaN bound too: margin NaN, a miss */
        margin = 0.5f * (lo - hi) * thc__minf(slo, shi);
        goto miss;
    }
    /* lo only grows from 0 and hi only falls from ray.t, unless the ray's frame overflowed (a start and a
       polygon near 3e38 on opposite sides; infinity or NaN in the input): a face's distance 0 * inf is NaN,
       which resets the bounds, and a "hit" came out at t = -inf or +inf. A hit outside [0, ray.t] is answered
       in double (-2). Compared as floats: lo's and hi0's bits compared as unsigned integers let +inf pass a
       ray.t of -0 (the sign bit), and making it +0 first cost more than the second compare */
    if (!(lo >= 0 && lo <= hi0)) return -2;
    out->t = lo;
    if (face >= 0) {
        float nx = poly->norms[face].x, ny = poly->norms[face].y;
        out->n = thc__v(c * nx - sn * ny, sn * nx + c * ny);
    } else {
        out->n = thc__norm_or(thc__v(-dx, -dy), thc__v(-1, 0));
    }
    return 1;
miss:
    /* an overflowed frame makes the margin's scale infinite (or NaN) and the margin NaN or within it: answered
       in double (-2) */
    if (margin > 1e-5f * (fabsf(lpx) + fabsf(lpy) + fabsf(poly->verts[0].x) + fabsf(poly->verts[0].y))) return 0;
    return thc__nonfinite(lpx + lpy + ldx + ldy) ? -2 : -1;
}

/* The clip of thc__ray_poly_local in double, for a ray whose frame overflowed in float: every finite input fits
   (no difference or product of floats overflows a double), so it answers exactly what the float clip answers
   for smaller numbers; NaN and infinity in the ray or the transform answer no hit. The hit's t is within
   [0, ray.t]. */
static THC__NOINLINE int thc__ray_poly_wide(const thc_ray *r, const thc_poly *poly, const thc_transform *xf, thc_ray_hit *out)
{
    double c = 1, sn = 0, rx = r->p.x, ry = r->p.y, dx = r->d.x, dy = r->d.y, tmax = r->t;
    if (xf) { c = xf->c; sn = xf->s; rx -= xf->p.x; ry -= xf->p.y; }
    double sum = rx + ry + dx + dy + c + sn;
    if (!(sum - sum == 0) || !(tmax >= 0)) return 0;
    if (tmax > FLT_MAX) tmax = FLT_MAX;   /* a ray with no end, as the float clip takes it */
    double lpx = c * rx + sn * ry, lpy = -sn * rx + c * ry, ldx = c * dx + sn * dy, ldy = -sn * dx + c * dy;
    double lo = 0, hi = tmax;
    int face = -1;
    for (int i = 0; i < poly->count; i++) {
        double nx = poly->norms[i].x, ny = poly->norms[i].y;
        double num = nx * (poly->verts[i].x - lpx) + ny * (poly->verts[i].y - lpy), den = nx * ldx + ny * ldy;
        if (!(num - num == 0) || !(den - den == 0)) return 0;   /* a polygon holding NaN or infinity */
        if (den < 0) { if (num < lo * den) { lo = num / den; face = i; } }
        else if (den > 0) { if (num < hi * den) hi = num / den; }
        else if (num < 0) return 0;
        if (lo > hi) return 0;
    }
    out->t = (float)lo;   /* lo <= tmax, a float: rounding keeps it there */
    if (face >= 0) {
        float nx = poly->norms[face].x, ny = poly->norms[face].y, fc = (float)c, fs = (float)sn;
        out->n = thc__v(fc * nx - fs * ny, fs * nx + fc * ny);
    } else {
        out->n = thc__norm_or(thc__v(-r->d.x, -r->d.y), thc__v(-1, 0));
    }
    return 1;
}

/* Each shape's ray out of line but the circle's, so the entry stays small. */
static THC__NOINLINE int thc__raycast_proxy(const thc_ray *r, const void *s, thc_type t, const thc_transform *xf, thc_ray_hit *out)
{
    thc__proxy px;
    thc_v2 o = thc__anchor(s, t, xf);
    if (!thc__proxy_make(&px, s, t, xf, o)) return 0;
    return thc__ray_proxy(&px, thc__sub(r->p, o), r->d, r->t, out);
}

/* A ray along neither axis: the slabs with min/max in place of the branches on the direction's signs and on
   which slab is entered last (both unpredictable over a mix of rays); the one branch left is hit or miss.
   The same entry t as thc__ray_box, which takes the rays along an axis. */
/* the sum of the ray's numbers and the box's: s - s is NaN when one of them is NaN or infinite */
#define THC__RAY_BOX_BAD(r, b) THC__BAD2(THC__SUM_RAY(r), THC__SUM_BOX(b))

THC__INLINE int thc__raycast_aabb(const thc_ray *r, const thc_aabb *b, thc_ray_hit *out)
{
    float px = r->p.x - b->min.x, py = r->p.y - b->min.y, hx = b->max.x - b->min.x, hy = b->max.y - b->min.y;
    float dx = r->d.x, dy = r->d.y, tmax = r->t;
    if (dx == 0 || dy == 0 || !(tmax >= 0))
        return thc__ray_box(thc__v(px, py), r->d, tmax, thc__v(0, 0), thc__v(hx, hy), out) && !THC__RAY_BOX_BAD(r, b);
    /* NaN and infinity miss in the slabs themselves. A NaN start or direction makes its slab's times NaN, an
       infinite start makes them one infinity that misses. A side of the box NaN or infinite makes hx or hy
       so, and zx or zy NaN (an infinite far side would give a finite hit): zx rides in ay's numerator, in
       place of its negation, and zy is t0's floor. The min/max below keep their second operand on NaN, so each
       is ordered to carry ax's NaN to t1, ay's to tin and zy to t0: a NaN t0 or t1 fails !(t0 <= t1), a NaN
       tin fails tin > 0 and is looked at with the start inside. An infinite direction leaves its slab [0, 0]:
       it can only hit from inside too. */
    float zx = THC__ZERO_OR_NAN(hx), zy = THC__ZERO_OR_NAN(hy);
    float ax = -px / dx, bx = (hx - px) / dx, ay = (zx - py) / dy, by = (hy - py) / dy;
    float inx = thc__minf(bx, ax), iny = thc__minf(by, ay), tin = thc__maxf(inx, iny);
    float tout = thc__minf(thc__maxf(by, ay), thc__maxf(bx, ax));
    float t0 = thc__maxf(tin, zy), t1 = thc__minf(tmax, tout);
    if (!(t0 <= t1)) return 0;
    if (!(tin > 0)) {   /* starts inside (or tin is NaN) */
        if (thc__nonfinite(dx + dy + tin)) return 0;
        out->t = 0;
        out->n = thc__norm_or(thc__v(-dx, -dy), thc__v(-1, 0));
        return 1;
    }
    out->t = tin;
    float fx = (float)(inx >= iny);   /* the x slab is entered last (it wins a tie) */
    out->n.x = (dx > 0 ? -fx : fx) + 0.0f;
    out->n.y = (dy > 0 ? fx - 1.0f : 1.0f - fx) + 0.0f;
    return 1;
}

static THC__NOINLINE int thc__raycast_capsule(const thc_ray *r, const thc_capsule *c, thc_ray_hit *out)
{
    return thc__ray_capsule(thc__sub(r->p, c->a), r->d, r->t, thc__sub(c->b, c->a), thc__maxf(0, c->r), out);   /* NaN r stays NaN */
}

static THC__NOINLINE int thc__raycast_poly_proxy(const thc_ray *r, const thc_poly *p, const thc_transform *xf, thc_ray_hit *out)
{
    return thc__raycast_proxy(r, p, THC_POLY, xf, out) && !THC__BAD2(THC__SUM_RAY(r), THC__SUM_XF(xf));
}

THC__INLINE int thc__raycast_poly_roads(const thc_ray *r, const thc_poly *p, const thc_transform *xf, thc_ray_hit *out)
{
    /* a polygon with no area is the segment it spans (the proxy path); the clip can only miss it, so
       the area is looked at only after a miss that could be one */
    if (p->count < 3 || p->count > THC_MAX_POLY_VERTS) return thc__raycast_poly_proxy(r, p, xf, out);
    int hit = thc__ray_poly_local(r, p, xf, out);
    if (hit >= 0) return hit;
    if (hit == -2) return thc__ray_poly_wide(r, p, xf, out);
    if (!thc__poly_flat(p)) return 0;
    return thc__raycast_poly_proxy(r, p, xf, out);
}

/* The clip misses NaN and infinity by itself (every face's test fails on NaN and sends it to a miss) or, where
   they reset its bounds, hands the ray to the double road, which looks at them. */
THC__INLINE int thc__raycast_poly(const thc_ray *r, const thc_poly *p, const thc_transform *xf, thc_ray_hit *out)
{
    return thc__raycast_poly_roads(r, p, xf, out);
}

static THC__NOINLINE int thc__raycast_no_out(thc_ray r, const void *s, thc_type t, const thc_transform *xf)
{
    thc_ray_hit tmp;
    return thc_raycast(r, s, t, xf, &tmp);
}

int thc_raycast(thc_ray r, const void *s, thc_type t, const thc_transform *xf, thc_ray_hit *out)
{
    if (!s || THC__INVALID(s, t, NULL, THC_NONE, "thc_raycast")) return 0;
    if (!out) return thc__raycast_no_out(r, s, t, xf);
    if (t == THC_CIRCLE) {   /* NaN misses by itself; the start inside (out of line) looks at the ray */
        const thc_circle *c = (const thc_circle *)s;
        return thc__ray_circle_m(r.p.x - c->p.x, r.p.y - c->p.y, r.d.x, r.d.y, r.t, c->r, 0, out);
    }
    switch (t) {   /* each looks at NaN and infinity only once it would answer a hit */
    case THC_AABB: return thc__raycast_aabb(&r, (const thc_aabb *)s, out);
    case THC_CAPSULE: return thc__raycast_capsule(&r, (const thc_capsule *)s, out);
    case THC_POLY: return thc__raycast_poly(&r, (const thc_poly *)s, xf, out);
    default: return 0;
    }
}

int thc_ray_to_circle(thc_ray r, const thc_circle *c, thc_ray_hit *out) { return thc_raycast(r, c, THC_CIRCLE, NULL, out); }
int thc_ray_to_aabb(thc_ray r, const thc_aabb *b, thc_ray_hit *out) { return thc_raycast(r, b, THC_AABB, NULL, out); }
int thc_ray_to_capsule(thc_ray r, const thc_capsule *c, thc_ray_hit *out) { return thc_raycast(r, c, THC_CAPSULE, NULL, out); }
int thc_ray_to_poly(thc_ray r, const thc_poly *p, const thc_transform *xf, thc_ray_hit *out) { return thc_raycast(r, p, THC_POLY, xf, out); }

/* ---------------------------------------------------------------- time of impact */
static thc_toi_result thc__miss(void) { thc_toi_result r; memset(&r, 0, sizeof r); r.t = 1; return r; }

thc_toi_result thc_toi_circle_circle(const thc_circle *a, thc_v2 vel, const thc_circle *b)
{
    thc_toi_result r = thc__miss();
    if (THC__BAD3(THC__SUM_CIRCLE(a), THC__SUM_CIRCLE(b), THC__S4(vel.x, vel.y, 0.0f, 0.0f))) return r;
    float rb = thc__radius(b->r), t = thc__ray_circle_t(a->p, vel, b->p, thc__radius(a->r) + rb);
    if (!(t >= 0 && t <= 1)) return r;
    r.hit = 1;
    r.t = t;
    thc_v2 d = thc__add(thc__sub(a->p, b->p), thc__scale(vel, t));
    float l = thc__len(d);
    r.n = l > 1e-6f ? thc__scale(d, 1.0f / l) : thc__v(1, 0);
    r.p = thc__add(b->p, thc__scale(r.n, rb));
    return r;
}

/* The circle's centre against the polygon grown by the radius: a ray against a rounded polygon. */
static thc_toi_result thc__toi_circle_proxy(thc__proxy *px, thc_v2 c, float radius, thc_v2 vel)
{
    thc_toi_result r = thc__miss();
    thc_ray_hit rc;
    px->r = radius = radius > 0 ? radius : 0;   /* NaN was looked at by the caller */
    if (!thc__ray_proxy(px, c, vel, 1, &rc)) return r;
    r.hit = 1;
    r.t = rc.t;
    r.n = rc.n;
    if (rc.t == 0) {   /* already touching: the normal out of the overlap */
        thc__proxy pt;
        thc_manifold m;
        pt.count = 1;
        pt.r = 0;
        pt.v[0] = c;
        thc__manifold(px, &pt, thc__v(0, 0), &m);
        if (m.count) r.n = m.n;
    }
    r.p = thc__sub(thc__add(c, thc__scale(vel, r.t)), thc__scale(r.n, radius));
    return r;
}

thc_toi_result thc_toi_circle_aabb(const thc_circle *a, thc_v2 vel, const thc_aabb *b)
{
    thc__proxy px;
    thc_v2 o = b->min;
    if (THC__BAD3(THC__SUM_CIRCLE(a), THC__SUM_BOX(b), THC__S4(vel.x, vel.y, 0.0f, 0.0f))) return thc__miss();
    thc__proxy_make(&px, b, THC_AABB, NULL, o);
    thc_toi_result r = thc__toi_circle_proxy(&px, thc__sub(a->p, o), a->r, vel);
    r.p = thc__add(r.p, o);
    return r;
}

thc_toi_result thc_toi_circle_poly(const thc_circle *a, thc_v2 vel, const thc_poly *b, const thc_transform *bx)
{
    thc__proxy px;
    if (THC__INVALID(b, THC_POLY, NULL, THC_NONE, "thc_toi_circle_poly") ||
        THC__BAD3(THC__SUM_CIRCLE(a), THC__SUM_XF(bx), THC__S4(vel.x, vel.y, 0.0f, 0.0f))) return thc__miss();
    thc_v2 o = thc__anchor(b, THC_POLY, bx);
    if (!thc__proxy_make(&px, b, THC_POLY, bx, o)) return thc__miss();
    thc_toi_result r = thc__toi_circle_proxy(&px, thc__sub(a->p, o), a->r, vel);
    r.p = thc__add(r.p, o);
    return r;
}

/* Two boxes, neither rotating: the exact sweep (A's faces entering B's slabs along x and y), stopped short
   of the first touch by half the tolerance of travel, so the gap there lies in (0, tol/2] as conservative
   advancement would leave it; the normal is the face the last slab entered through. -1 when the boxes
   touch at the start or the motion is nil: the general road decides then, and for NaN and infinity (which make
   the slab times NaN or infinite, so z NaN; with an axis still, the boxes' numbers are looked at). */
static int thc__toi_boxes(const thc_aabb *a, thc_v2 va, const thc_aabb *b, thc_v2 vb, thc_toi_result *res)
{
    thc_v2 v = thc__sub(va, vb);
    float vv[2] = { v.x, v.y }, alo[2] = { a->min.x, a->min.y }, ahi[2] = { a->max.x, a->max.y }, blo[2] = { b->min.x, b->min.y }, bhi[2] = { b->max.x, b->max.y };
    float tin = -FLT_MAX, tout = FLT_MAX, z;
    int axis = 0;
    if (v.x != 0 && v.y != 0) {
#ifdef THC__SSE2
        /* moving along both axes (or NaN): the four slab times at once, each slab's entry and exit by min and
           max, no branch on the signs; they meet when every entry comes before every exit, compared four lanes
           at once. NaN fails a compare; the look is folded into the exits (t * 0 is NaN for an infinite time,
           which an infinite side gives) */
        __m128 a4 = _mm_loadu_ps(&a->min.x), b4 = _mm_loadu_ps(&b->min.x);
        __m128 t4 = _mm_div_ps(_mm_sub_ps(b4, _mm_shuffle_ps(a4, a4, _MM_SHUFFLE(1, 0, 3, 2))), _mm_setr_ps(v.x, v.y, v.x, v.y));   /* ax ay bx by */
        t4 = _mm_add_ps(t4, THC__ZERO_OR_NAN4(t4));
        __m128 th = _mm_movehl_ps(t4, t4), in2 = _mm_min_ps(t4, th), out2 = _mm_max_ps(th, t4);   /* x and y: entry (b's NaN), exit (a's) */
        int meet = _mm_movemask_ps(_mm_cmple_ps(_mm_movelh_ps(in2, in2), _mm_shuffle_ps(out2, out2, _MM_SHUFFLE(0, 1, 1, 0)))) == 15;
        float inx = _mm_cvtss_f32(in2), iny = _mm_cvtss_f32(_mm_shuffle_ps(in2, in2, _MM_SHUFFLE(1, 1, 1, 1)));
        tin = thc__maxf(inx, iny);
        tout = meet ? tin : -FLT_MAX;
        axis = iny > inx;   /* the x slab wins a tie */
        z = 0;
#else
        /* moving along both axes (or NaN): each slab's two times by min and max, no branch on the signs. The
           min/max keep their second operand on NaN, so they are ordered to carry ax's NaN to tout and ay's to
           tin (a NaN velocity); a side NaN or infinite makes a slab time so, and its width (z) NaN */
        float ax = (blo[0] - ahi[0]) / v.x, bx = (bhi[0] - alo[0]) / v.x, ay = (blo[1] - ahi[1]) / v.y, by = (bhi[1] - alo[1]) / v.y;
        float inx = thc__minf(bx, ax), iny = thc__minf(by, ay);
        tin = thc__maxf(inx, iny);
        tout = thc__minf(thc__maxf(by, ay), thc__maxf(bx, ax));
        axis = iny > inx;   /* the x slab wins a tie */
        z = THC__ZERO_OR_NAN((bx - ax) + (by - ay));
#endif
    } else {   /* an axis still: the slabs one at a time, the boxes' numbers looked at (the general road) */
        if (THC__BAD2(THC__SUM_BOX(a), THC__SUM_BOX(b))) return -1;
        z = 0;
        for (int k = 0; k < 2; k++) {
            float t0, t1;
            if (vv[k] > 0) { t0 = (blo[k] - ahi[k]) / vv[k]; t1 = (bhi[k] - alo[k]) / vv[k]; }
            else if (!(vv[k] >= 0)) { t0 = (bhi[k] - alo[k]) / vv[k]; t1 = (blo[k] - ahi[k]) / vv[k]; }   /* NaN too */
            else if (ahi[k] < blo[k] || bhi[k] < alo[k]) return 0;   /* apart along a still axis: never meet */
            else continue;
            if (!(t0 <= tin)) { tin = t0; axis = k; }   /* NaN taken */
            if (t1 < tout) tout = t1;
        }
    }
    if (!(tin > z) || !(v.x != 0 || v.y != 0)) return -1;   /* touching at the start, or not moving */
    if (!(tin <= tout) || tin > 1) return 0;
    float speed = sqrtf(v.x * v.x + v.y * v.y), t = thc__maxf(tin - 0.5f * THC_TOLERANCE / speed, 0);
    res->hit = 1;
    res->t = t;
    res->n = axis ? thc__v(0, v.y > 0 ? -1.0f : 1.0f) : thc__v(v.x > 0 ? -1.0f : 1.0f, 0);
    /* on B's face, midway along the overlap of the two faces at the touch, where B is at t */
    int o = 1 - axis;
    float lo = thc__maxf(alo[o] + vv[o] * tin, blo[o]), hi = thc__minf(ahi[o] + vv[o] * tin, bhi[o]);
    float face = vv[axis] > 0 ? blo[axis] : bhi[axis], side = thc__clamp(0.5f * (lo + hi), blo[o], bhi[o]);
    res->p = axis ? thc__v(side, face) : thc__v(face, side);
    res->p = thc__add(res->p, thc__scale(vb, t));
    return 1;
}

/* A circle against any other shape: its centre cast as a ray against the other shape grown by the radius
   (thc__ray_proxy: the face's own normal, or the radial one at a rounded corner), stopped half the tolerance
   of travel short of the touch as for two boxes. The circle is A (c_is_a) or B; vc, vo: their motions.
   -1 when they touch at the start or the motion is nil: the general road decides then. */
static int thc__toi_circle_cast(const thc_circle *c, thc_v2 vc, const void *o, thc_type to, const thc_transform *ox, thc_v2 vo,
                                int c_is_a, thc_toi_result *res)
{
    thc__proxy px;
    thc_v2 org, v = thc__sub(vc, vo);
    /* NaN and infinity in the circle, the velocities, a circle or a polygon miss in the cast itself (a NaN
       radius kept NaN below); a box's far side or a capsule's far end is dropped by the proxy's anchor, so
       those two are looked at on a hit */
    thc__sum4 so = THC__NO_MORE;
    switch (to) {   /* thc__anchor's answer, the type looked up once for both */
    case THC_CIRCLE: org = ((const thc_circle *)o)->p; break;
    case THC_AABB: org = ((const thc_aabb *)o)->min; so = THC__SUM_BOX((const thc_aabb *)o); break;
    case THC_CAPSULE: org = ((const thc_capsule *)o)->a; so = THC__SUM_CAPSULE((const thc_capsule *)o); break;
    default: org = thc__anchor(o, to, ox); break;
    }
    if (!thc__proxy_make(&px, o, to, ox, org) || !(v.x != 0 || v.y != 0)) return -1;
    float rc = thc__maxf(0, c->r);   /* NaN stays NaN */
    px.r += rc;
    thc_ray_hit h;
    if (!thc__ray_proxy(&px, thc__sub(c->p, org), v, 1, &h)) return 0;
    if (!(h.t > 0)) return -1;
    float speed = sqrtf(v.x * v.x + v.y * v.y), t = thc__maxf(h.t - 0.5f * THC_TOLERANCE / speed, 0);
    /* the normal from the closest features where the centre stops (a face's own normal, or the direction
       from a corner, now a radius away): the ray's touch point at a grazing corner carries the quadratic's
       rounding, the stopped centre does not */
    thc__proxy pt;
    thc_v2 qc, qo, m;
    pt.count = 1; pt.r = 0;
    pt.v[0] = thc__add(thc__sub(c->p, org), thc__scale(v, t));
    if (!(thc__core_closest(&pt, &px, &qc, &qo, &m) > 0)) return -1;   /* m: from the centre toward the other core */
    if ((to == THC_AABB || to == THC_CAPSULE) && THC__BAD1(so)) return 0;
    res->hit = 1;
    res->t = t;
    res->n = c_is_a ? thc__neg(m) : m;   /* from B toward A */
    /* on B's surface at t, where B is then */
    thc_v2 at = thc__add(org, thc__scale(vo, t));
    res->p = thc__add(at, c_is_a ? thc__sub(qo, thc__scale(m, px.r - rc)) : thc__add(pt.v[0], thc__scale(m, rc)));
    return 1;
}

/* A shape's core in the frame f (world = f->p + rot(f) local) for the Minkowski sweep below: a polygon's
   vertices and outward normals (as stored when f is its own transform: own), a box's four corners, a
   capsule's two ends with the segment's two normals; unused lanes hold zeros (normals of zero length, which
   no sweep axis can come from). Returns the vertex count, 0 for what the sweep leaves to advancement: a
   polygon with (almost) no area or without a transform, a capsule with no length, a circle. */
static int thc__sweep_core(const void *s, thc_type t, const thc_transform *xf, const thc_transform *f, int own, thc__lanes *o, float *r,
                           thc__sum4 *sum)
{
    *r = 0;
    if (t == THC_POLY) {
        const thc_poly *p = (const thc_poly *)s;
        int n = p->count;
        if (!xf || n < 3 || n > THC__L) return 0;
        *sum = THC__SUM_XF(xf);
        if (own) return thc__pp_load(p, n, o) ? n : 0;
        thc__lanes l;
        if (!thc__pp_load(p, n, &l)) return 0;
        thc__pp_move(&l, f, xf, o);
        return n;
    }
    if (THC__L < 4) return 0;   /* a box takes four lanes */
    memset(o, 0, sizeof *o);
    int turn = f->s != 0 || f->c != 1;   /* a polygon's frame; else the world axes, moved only */
    if (t == THC_AABB) {
        const thc_aabb *b = (const thc_aabb *)s;
        thc_v2 lo = thc__sub(b->min, f->p), hi = thc__sub(b->max, f->p);
        *sum = THC__SUM_BOX(b);
        if (!turn) {
            o->x[0] = lo.x; o->y[0] = lo.y; o->x[1] = hi.x; o->y[1] = lo.y; o->x[2] = hi.x; o->y[2] = hi.y; o->x[3] = lo.x; o->y[3] = hi.y;
            o->ny[0] = -1; o->nx[1] = 1; o->ny[2] = 1; o->nx[3] = -1;
            return 4;
        }
        thc_v2 v[4] = { lo, thc__v(hi.x, lo.y), hi, thc__v(lo.x, hi.y) }, ex = thc__v(f->c, -f->s), ey = thc__v(f->s, f->c);   /* the world axes in the frame */
        thc_v2 n[4] = { thc__neg(ey), ex, ey, thc__neg(ex) };
        for (int i = 0; i < 4; i++) {
            thc_v2 p = thc__unrot(f, v[i]);
            o->x[i] = p.x; o->y[i] = p.y; o->nx[i] = n[i].x; o->ny[i] = n[i].y;
        }
        return 4;
    }
    if (t == THC_CAPSULE) {
        const thc_capsule *k = (const thc_capsule *)s;
        thc_v2 a = thc__sub(k->a, f->p), b = thc__sub(k->b, f->p);
        if (turn) { a = thc__unrot(f, a); b = thc__unrot(f, b); }
        thc_v2 e = thc__sub(b, a);
        float l = thc__len(e);
        if (!(l > 1e-12f)) return 0;
        float il = 1 / l;
        o->x[0] = a.x; o->y[0] = a.y; o->x[1] = b.x; o->y[1] = b.y;
        o->nx[0] = e.y * il; o->ny[0] = -e.x * il; o->nx[1] = -o->nx[0]; o->ny[1] = -o->ny[0];
        *r = k->r > 0 ? k->r : 0;
        *sum = THC__SUM_CAPSULE(k);
        return 2;
    }
    return 0;
}

/* thc__toi_sweep past the cores: A's and B's lanes (na, nb used, ra, rb their radii) in the frame f, the
   relative motion vw in the world, on the first L lanes (4 when both have at most 4 vertices, else all). */
THC__INLINE int thc__toi_sweep_lanes(const thc__lanes *A, int na, float ra, const thc__lanes *B, int nb, float rb,
                                    const thc_transform *f, thc_v2 vw, thc_v2 vb, int L, thc_toi_result *res)
{
    thc_v2 v = thc__unrot(f, vw);
    float r = ra + rb;
    /* per axis (B's faces in lanes 0..L-1, A's in THC__L..THC__L+L-1): the separation less r and the closing speed */
    float g[2 * THC__L], c[2 * THC__L];
    for (int i = 0; i < L; i++) { g[i] = FLT_MAX; g[THC__L + i] = FLT_MAX; }
    for (int j = 0; j < na; j++) {
        float px = A->x[j], py = A->y[j];
        for (int i = 0; i < L; i++) {
            float e = B->nx[i] * px + B->ny[i] * py;
            g[i] = e < g[i] ? e : g[i];
        }
    }
    for (int j = 0; j < nb; j++) {
        float px = B->x[j], py = B->y[j];
        for (int i = 0; i < L; i++) {
            float e = A->nx[i] * px + A->ny[i] * py;
            g[THC__L + i] = e < g[THC__L + i] ? e : g[THC__L + i];
        }
    }
    for (int i = 0; i < L; i++) {
        g[i] -= B->nx[i] * B->x[i] + B->ny[i] * B->y[i] + r;
        c[i] = -(B->nx[i] * v.x + B->ny[i] * v.y);
        g[THC__L + i] -= A->nx[i] * A->x[i] + A->ny[i] * A->y[i] + r;
        c[THC__L + i] = A->nx[i] * v.x + A->ny[i] * v.y;
    }
    /* per lane the entry time (entering faces, else -FLT_MAX) and the exit time (leaving faces; -FLT_MAX
       for a face apart and not closing: never inside; else FLT_MAX), then the latest entry and the first exit
       over the used lanes */
    float ti[2 * THC__L], to[2 * THC__L], tin = -FLT_MAX, tout = FLT_MAX;
    for (int h = 0; h < 2; h++)
        for (int i = h * THC__L; i < h * THC__L + L; i++) {
            float cc = c[i] != 0 ? c[i] : 1.0f, q = g[i] / cc;
            float never = g[i] > 0 ? -FLT_MAX : FLT_MAX, out = c[i] > 0 ? FLT_MAX : never;
            ti[i] = c[i] > 0 ? q : -FLT_MAX;
            to[i] = c[i] < 0 ? q : out;
        }
    int k = 0;
    for (int i = 0; i < nb; i++) {
        k = ti[i] > tin ? i : k;
        tin = ti[i] > tin ? ti[i] : tin;
        tout = to[i] < tout ? to[i] : tout;
    }
    for (int i = THC__L; i < THC__L + na; i++) {
        k = ti[i] > tin ? i : k;
        tin = ti[i] > tin ? ti[i] : tin;
        tout = to[i] < tout ? to[i] : tout;
    }
    if (tin > tout || tin > 1) return 0;
    if (!(tin > 0)) return -1;   /* the pushed-out faces meet at the start, or none is closing */
    float speed = sqrtf(vw.x * vw.x + vw.y * vw.y);
    thc_v2 m;
    float h, l, eps, shift, blo, bhi, alo, ahi, lo, hi;
    int jlo, jhi, ilo, ihi;
    for (int pass = 0;; pass++) {
        /* the entering face's normal m (from B toward A) and the supports of both shapes along it: their
           vertices within rounding of the extreme, and how far those reach sideways (A's where it enters) */
        if (k < THC__L) {   /* B's face: its offset, and A's least projection from the SAT */
            m = thc__v(B->nx[k], B->ny[k]);
            h = m.x * B->x[k] + m.y * B->y[k];
            l = g[k] + h + r;
        } else {            /* A's face turned around: B's greatest projection, and the face's offset */
            int i = k - THC__L;
            m = thc__v(-A->nx[i], -A->ny[i]);
            l = m.x * A->x[i] + m.y * A->y[i];
            h = l - g[k] - r;
        }
        eps = 2e-6f * (1 + fabsf(h) + fabsf(l));   /* a few roundings of the projections: a vertex counted in too
                                                      could put the touch early by eps along m, so it stays small */
        shift = (m.x * v.y - m.y * v.x) * tin;   /* sideways: (-m.y, m.x) */
        blo = FLT_MAX; bhi = -FLT_MAX; alo = FLT_MAX; ahi = -FLT_MAX;
        jlo = jhi = ilo = ihi = 0;
        for (int j = 0; j < nb; j++) {
            if (m.x * B->x[j] + m.y * B->y[j] < h - eps) continue;
            float s = m.x * B->y[j] - m.y * B->x[j];
            if (s < blo) { blo = s; jlo = j; }
            if (s > bhi) { bhi = s; jhi = j; }
        }
        for (int j = 0; j < na; j++) {
            if (m.x * A->x[j] + m.y * A->y[j] > l + eps) continue;
            float s = m.x * A->y[j] - m.y * A->x[j] + shift;
            if (s < alo) { alo = s; ilo = j; }
            if (s > ahi) { ahi = s; ihi = j; }
        }
        lo = thc__maxf(alo, blo);
        hi = thc__minf(ahi, bhi);
        /* At M's vertex (the supports meet end to end, or miss each other): of the faces the entry lies on (to
           within rounding), the one the motion is most nearly parallel to. Its entry time divides the rounding
           by its small closing speed, so at a grazing pass by the vertex it may come out a hair early while the
           ray runs along it into M: the touch is then on that face, if it lies within that face's part of M;
           else advancement decides. */
        int corner = lo > hi + eps || (hi - lo <= eps && (lo >= bhi - eps || hi <= blo + eps) && (lo >= ahi - eps || hi <= alo + eps));
        if (pass == 0 && corner) {
            float noise = 4e-6f * (1 + speed * tin + fabsf(A->x[0]) + fabsf(A->y[0]) + fabsf(B->x[0]) + fabsf(B->y[0]) + r), ck = c[k];
            int along = k;
            for (int e = 0; e < 2; e++)
                for (int i = e * THC__L; i < e * THC__L + L; i++) {
                    int on = c[i] > 0 && c[i] < ck && g[i] - c[i] * tin >= -noise;
                    along = on ? i : along;
                    ck = on ? c[i] : ck;
                }
            if (along != k) { k = along; continue; }
        }
        if (pass == 1 && !(lo <= hi + eps)) return -1;
        break;
    }
    float t, side;
    thc_v2 n, p;
    if (lo <= hi + eps) {
        /* on the face: the middle of the supports' overlap (apart by a rounding: B's nearer end) */
        side = lo <= hi ? 0.5f * (lo + hi) : alo > bhi ? bhi : blo;
        t = thc__maxf(tin - 0.5f * THC_TOLERANCE / speed, 0);
        n = m;
        p = thc__add(thc__v(m.x * h - m.y * side, m.y * h + m.x * side), thc__scale(m, rb));
    } else if (r == 0) {
        /* Sharp, the entry lies on M, so past the face's end only when the entry time carries rounding: a face
           nearly parallel to the motion (a grazing pass at a corner) divides the rounding by its small closing
           speed and can come out latest; which face the touch is on is then advancement's to prove. */
        return -1;
    } else {
        /* past the face's end: M's vertex there, b - a, grown by r */
        int jb = alo > bhi ? jhi : jlo, ia = alo > bhi ? ilo : ihi;
        thc_v2 w = thc__v(A->x[ia] - B->x[jb], A->y[ia] - B->y[jb]);
        /* solved from where the ray enters the corner (close to the circle), in double: from the start the
           quadratic's terms are the squared distance, and cancel down to r^2 */
        double wx = (double)w.x + (double)v.x * tin, wy = (double)w.y + (double)v.y * tin, rr = r;
        double qa = (double)v.x * v.x + (double)v.y * v.y, qb = wx * v.x + wy * v.y, qc = wx * wx + wy * wy - rr * rr, disc = qb * qb - qa * qc;
        double near = THC_TOLERANCE * (2 * rr + THC_TOLERANCE), s0 = 0;
        if (qc > 0) {
            if (qb >= 0 || disc < 0) return (qb >= 0 ? qc : -disc / qa) < near ? -1 : 0;   /* passes: closer than r + tol is advancement's */
            s0 = qc / (-qb + sqrt(disc));
        }
        double tc = tin + s0;
        if (tc > 1) return 0;
        t = thc__maxf((float)(tc - 0.5 * THC_TOLERANCE / speed), 0);
        double dx = (double)w.x + (double)v.x * t, dy = (double)w.y + (double)v.y * t, dl = sqrt(dx * dx + dy * dy);   /* the normal from the vertex where A stops */
        if (!(dl > 0)) return -1;
        n = thc__v((float)(dx / dl), (float)(dy / dl));
        /* the vertex's circle is M_r's boundary only where n lies in both vertices' normal cones; a short
           face of M past the vertex (near-parallel faces, a short edge) can put the touch beyond it */
        int bp = jb ? jb - 1 : nb - 1, ap = ia ? ia - 1 : na - 1;
        float cone = -1e-4f;
        if (n.y * B->nx[bp] - n.x * B->ny[bp] < cone || n.x * B->ny[jb] - n.y * B->nx[jb] < cone ||
            n.x * A->ny[ap] - n.y * A->nx[ap] < cone || n.y * A->nx[ia] - n.x * A->ny[ia] < cone) return -1;
        p = thc__add(thc__v(B->x[jb], B->y[jb]), thc__scale(n, rb));
    }
    res->hit = 1;
    res->t = t;
    res->n = thc__rot(f, n);
    res->p = thc__add(thc__place(f, p), thc__scale(vb, t));
    return 1;
}

/* Two polygons, boxes or capsules (not two boxes, not a circle): the exact sweep. A only translates relative
   to B, by v = va - vb, so A + v t meets B exactly when v t lies in the Minkowski difference M = B - A grown
   by r = ra + rb. M's faces are B's faces and A's faces turned around (a capsule's core is a 2-vertex polygon
   with the segment's two normals), and M's separation along each is the SAT's: the least projection of the
   other shape's vertices less the face's offset. Cut the ray v t by those half-planes pushed out by r
   (Cyrus-Beck): the latest entry, unless an exit comes first or a still axis separates, is where the ray
   enters the polygon whose faces are M's pushed out by r, computed in B's frame (a polygon as stored, else
   the box's min corner or the capsule's first end) lane by lane like the SAT. Where the entry lies on the
   entering face of M (the supports of A and B along it overlap sideways, at the entry: ties of parallel
   faces count) that is the touch, with the face's own normal. Otherwise, rounded, the ray enters the corner
   past M's vertex b - a at that face's end, which the ray can leave into M_r only through that vertex's
   circle: the touch is on the circle or there is none (sharp, the entry is M's vertex itself). Like two
   boxes, the sweep stops half the tolerance of travel short of the touch, so the gap there lies in
   (0, tol/2], and the point is on B where B is then. -1 for what advancement decides: shapes whose cores
   (the faces pushed out) meet at the start, nil motion, a grazing pass within the tolerance of a corner,
   and what thc__sweep_core declines. */
static int thc__toi_sweep(const void *a, thc_type ta, const thc_transform *ax, thc_v2 va,
                          const void *b, thc_type tb, const thc_transform *bx, thc_v2 vb, thc_toi_result *res)
{
    thc_transform f;
    if (tb == THC_POLY) {
        if (!bx) return -1;
        f = *bx;
    } else {
        f.p = tb == THC_AABB ? ((const thc_aabb *)b)->min : ((const thc_capsule *)b)->a;
        f.c = 1;
        f.s = 0;
    }
    thc__lanes A, B;
    float ra, rb;
    thc__sum4 sa, sb;   /* each shape's numbers, for the look at NaN and infinity on a hit */
    int na = thc__sweep_core(a, ta, ax, &f, 0, &A, &ra, &sa), nb = thc__sweep_core(b, tb, bx, &f, 1, &B, &rb, &sb);
    thc_v2 vw = thc__sub(va, vb);
    if (!na || !nb || !(vw.x != 0 || vw.y != 0)) return -1;
    int got = THC__L >= 8 && na <= 4 && nb <= 4 ? thc__toi_sweep_lanes(&A, na, ra, &B, nb, rb, &f, vw, vb, 4, res)
                                                : thc__toi_sweep_lanes(&A, na, ra, &B, nb, rb, &f, vw, vb, THC__L, res);
    if (got > 0 && res->hit && THC__BAD3(sa, sb, THC__SUM_VEL2(va, vb))) {
        *res = thc__miss();
        return 0;
    }
    return got;
}

static THC__NOINLINE void thc__toi_general(const void *a, thc_type ta, const thc_transform *ax, thc_v2 va,
                                          const void *b, thc_type tb, const thc_transform *bx, thc_v2 vb, thc_toi_result *res);

/* A time of impact is kept only when every number of the input is finite (NaN and infinity: no hit), looked at
   once a hit is found (two boxes: in their sweep's own tests). */
thc_toi_result thc_toi(const void *a, thc_type ta, const thc_transform *ax, thc_v2 va,
                       const void *b, thc_type tb, const thc_transform *bx, thc_v2 vb)
{
    thc_toi_result r = thc__miss();
    if (THC__INVALID(a, ta, b, tb, "thc_toi")) return r;
    if (a && b && ta == THC_AABB && tb == THC_AABB) {
        const thc_aabb *ba = (const thc_aabb *)a, *bb = (const thc_aabb *)b;
        if (thc__toi_boxes(ba, va, bb, vb, &r) >= 0) {
            return r;
        }
    } else if (a && b && ta == THC_CIRCLE) {
        if (thc__toi_circle_cast((const thc_circle *)a, va, b, tb, bx, vb, 1, &r) >= 0) return r;
    } else if (a && b && tb == THC_CIRCLE && ta != THC_CIRCLE) {
        if (thc__toi_circle_cast((const thc_circle *)b, vb, a, ta, ax, va, 0, &r) >= 0) return r;
    } else if (a && b && ta >= THC_AABB && ta <= THC_POLY && tb >= THC_AABB && tb <= THC_POLY) {
        if (thc__toi_sweep(a, ta, ax, va, b, tb, bx, vb, &r) >= 0) return r;
    }
    thc__toi_general(a, ta, ax, va, b, tb, bx, vb, &r);   /* straight into the answer: no copy */
    return r;
}

static void thc__toi_advance(const void *a, thc_type ta, const thc_transform *ax, thc_v2 va,
                             const void *b, thc_type tb, const thc_transform *bx, thc_v2 vb, thc_toi_result *res, int settle)
{
    /* Conservative advancement in B's frame (A moves by v = va - vb, B stands still), with a step that is
       safe by construction. At time t let n be the deciding features' normal (thc__core_closest: a face
       normal for vertex-face pairs) and s the separation of the shapes along n, measured exactly
       (thc__axis_sep). Projection onto an axis never lengthens a distance, so for every later time u
           gap(u) >= s - dot(v, n) (u - t),
       and stepping by (s - tol/2) / dot(v, n) leaves gap >= tol/2 > 0: the step cannot pass the first touch,
       however fast the mover and however shallow its angle, and whatever rounding n carries (a poor n gives
       a smaller s, so a shorter step, never a longer one). If dot(v, n) <= 0 with s > 0 the shapes never
       meet. The gap is also 1-Lipschitz in the displacement, so gap / |v| is a second safe step; the longer
       of the two is taken. The normal never comes from two nearly equal points at a vertex-face contact,
       so at grazing angles the face's own normal gives the exact closing speed and one or two steps land. */
    *res = thc__miss();
    thc__proxy pa, pb;
    thc_v2 o;
    if (!thc__pair_proxies(a, ta, ax, b, tb, bx, &pa, &pb, &o)) return;
    thc_v2 v = thc__sub(va, vb);
    double speed = sqrt((double)v.x * v.x + (double)v.y * v.y), t = 0, tol = THC_TOLERANCE;
    float r = pa.r + pb.r;
    thc__gjk_cache cache;   /* the simplex of one step starts the next: one or two GJK iterations per step */
    cache.n = cache.kind = 0;
    int gjk = pa.count * pb.count >= THC__GJK_PAIRS;   /* fewer vertex-edge pairs: the brute force on a moved copy is cheapest */
    thc__proxy moved;
    if (!gjk) moved = pa;
    for (int iter = 0; iter < 96; iter++) {
        thc_v2 shift = thc__v((float)(v.x * t), (float)(v.y * t));
        thc_v2 qa, qb, n;
        double sep;
        float d;
        if (gjk) d = thc__closest_checked(&pa, shift, &pb, &cache, &qa, &qb, &n, &sep);
        else {
            for (int i = 0; i < pa.count; i++) moved.v[i] = thc__add(pa.v[i], shift);
            int feat[3] = { 0, 0, 0 };
            d = thc__core_closest_feat(&moved, &pb, &qa, &qb, &n, feat);
            sep = thc__axis_sep(&pa, shift, &pb, n);
            cache.kind = feat[0]; cache.fi = feat[1]; cache.fv = feat[2];
        }
        double gap = (double)d - r;
        thc__sat st;
        st.d = 0;
        /* the cores can overlap only at the start (every later step stops short of touching), and not
           when an axis already separates the shapes */
        if (iter == 0 && !(sep > 0) && thc__classify(&pa, &pb, &st) && st.d < 0) {   /* t = 0: A where it starts */
            thc_manifold m;
            thc__manifold(&pa, &pb, o, &m);
            res->hit = 1;
            res->t = (float)t;
            res->n = m.count ? thc__neg(m.n) : thc__v(1, 0);
            res->p = m.count ? thc__add(m.contact_points[0], thc__scale(vb, (float)t)) : o;
            break;
        }
        if (gap <= tol) {
            res->hit = 1;
            res->t = (float)t;
            res->n = thc__neg(n);
            /* on B's surface, where B is at the time of impact */
            res->p = thc__add(thc__add(o, thc__sub(qb, thc__scale(n, pb.r))), thc__scale(vb, (float)t));
            break;
        }
        double closing = (double)v.x * n.x + (double)v.y * n.y, step = 0;
        if (closing <= 0 && sep > 0.5 * tol) break;   /* receding along a separating axis: never meets */
        if (closing > 0 && sep > 0.5 * tol) step = (sep - 0.5 * tol) / closing;
        /* GJK's answer (cache.n > 0) is proven along its axis to within rounding: step by what the exact
           axis proves; the brute force's distance is the distance itself */
        double lb = cache.n > 0 && sep < gap ? sep : gap;
        if (speed > 0 && (lb - 0.5 * tol) / speed > step) step = (lb - 0.5 * tol) / speed;
        if (!(step > 0)) break;
        t += step;
        if (t > 1) break;
        if (settle && cache.kind) {
            /* The vertex-edge pair just proven closest, at the new time: when the vertex still projects inside
               the edge and the pair's distance meets the separation along the same normal there (the old one
               less what the move closed along n, exact since A only translates), the pair is still the closest,
               as the next step's GJK would prove it: when it is within the tolerance this is the hit, with that
               step's very points and normal, and the step that only confirms the touch is saved. */
            thc_v2 s1 = thc__v((float)(v.x * t), (float)(v.y * t)), z = thc__v(0, 0);
            int k = cache.kind, e = cache.fi;
            const thc__proxy *pv = k == 1 ? &pa : &pb, *pe = k == 1 ? &pb : &pa;
            thc_v2 sv = k == 1 ? s1 : z, se = k == 1 ? z : s1;
            thc_v2 p = thc__add(pv->v[cache.fv], sv), e0 = thc__add(pe->v[e], se);
            thc_v2 ev = thc__sub(thc__add(pe->v[e + 1 < pe->count ? e + 1 : 0], se), e0), w = thc__sub(p, e0);
            float ee = thc__dot(ev, ev), u = thc__dot(w, ev);
            if (u > 0 && u < ee) {
                thc_v2 q = thc__add(e0, thc__scale(ev, u / ee));
                thc_v2 qa1 = k == 1 ? p : q, qb1 = k == 1 ? q : p, dq = thc__sub(qb1, qa1);
                float d1 = sqrtf(thc__dot(dq, dq));
                thc_v2 fn = k == 1 ? thc__neg(pb.n[e]) : pa.n[e];
                fn = thc__dot(fn, dq) >= 0 ? fn : thc__neg(fn);
                double sep1 = sep - ((double)n.x * ((double)s1.x - shift.x) + (double)n.y * ((double)s1.y - shift.y));
                float m = thc__maxf(thc__maxf(fabsf(qa1.x), fabsf(qa1.y)), thc__maxf(fabsf(qb1.x), fabsf(qb1.y)));
                if (d1 > 0 && fn.x == n.x && fn.y == n.y && sep1 + r >= d1 - 1e-6 * (m + d1) && (double)d1 - r <= tol) {
                    res->hit = 1;
                    res->t = (float)t;
                    res->n = thc__neg(n);
                    res->p = thc__add(thc__add(o, thc__sub(qb1, thc__scale(n, pb.r))), thc__scale(vb, (float)t));
                    break;
                }
            }
        }
    }
    return;
}

/* thc_toi's general road: conservative advancement, the touch taken from the last step's proven pair when it
   still holds (thc__toi_advance with settle 0 runs GJK at every step, the reference the tests compare with) */
static THC__NOINLINE void thc__toi_general(const void *a, thc_type ta, const thc_transform *ax, thc_v2 va,
                                          const void *b, thc_type tb, const thc_transform *bx, thc_v2 vb, thc_toi_result *res)
{
    thc__toi_advance(a, ta, ax, va, b, tb, bx, vb, res, 1);
    if (res->hit && THC__BAD3(thc__shape_sum(a, ta, ax), thc__shape_sum(b, tb, bx), THC__SUM_VEL(va, vb))) *res = thc__miss();
}

/* ---------------------------------------------------------------- pixel masks */
size_t thc_mask_bytes(int w, int h)
{
    if (w <= 0 || h <= 0) return sizeof(thc_mask);
    return sizeof(thc_mask) + (size_t)((w + 31) / 32) * (size_t)h * sizeof(uint32_t);
}

static const uint32_t *thc__mask_row(const thc_mask *m, int y)
{
    return (const uint32_t *)((const char *)m + m->bits_offset) + (size_t)y * (size_t)m->words_per_row;
}

thc_mask *thc_mask_make(void *mem, size_t bytes, const uint8_t *rgba, int w, int h, int stride_bytes, uint8_t alpha_min)
{
    if (!mem || w < 0 || h < 0 || bytes < thc_mask_bytes(w, h) || ((uintptr_t)mem & 3)) return NULL;
    thc_mask *m = (thc_mask *)mem;
    m->w = w > 0 && h > 0 ? w : 0;
    m->h = w > 0 && h > 0 ? h : 0;
    m->words_per_row = (m->w + 31) / 32;
    m->bits_offset = (int)sizeof(thc_mask);
    if (alpha_min == 0) alpha_min = 128;
    if (stride_bytes <= 0) stride_bytes = w * 4;
    for (int y = 0; y < m->h; y++) {
        uint32_t *row = (uint32_t *)((char *)m + m->bits_offset) + (size_t)y * (size_t)m->words_per_row;
        const uint8_t *px = rgba + (size_t)y * (size_t)stride_bytes;
        memset(row, 0, sizeof(uint32_t) * (size_t)m->words_per_row);
        for (int x = 0; x < m->w; x++)
            if (px[x * 4 + 3] >= alpha_min) row[x >> 5] |= 1u << (x & 31);
    }
    return m;
}

int thc_mask_get(const thc_mask *m, int x, int y)
{
    if (x < 0 || y < 0 || x >= m->w || y >= m->h) return 0;
    return (int)((thc__mask_row(m, y)[x >> 5] >> (x & 31)) & 1u);
}

/* Bits x .. x+31 of a row (x >= 0), zero past its end. */
static uint32_t thc__bits32(const uint32_t *row, int words, int x)
{
    int w = x >> 5, s = x & 31;
    uint32_t lo = w < words ? row[w] : 0;
    if (!s) return lo;
    uint32_t hi = w + 1 < words ? row[w + 1] : 0;
    return (lo >> s) | (hi << (32 - s));
}

int thc_mask_overlap(const thc_mask *a, int ax, int ay, const thc_mask *b, int bx, int by, int *hit_x, int *hit_y)
{
    int x0 = ax > bx ? ax : bx, y0 = ay > by ? ay : by;
    int x1 = ax + a->w < bx + b->w ? ax + a->w : bx + b->w, y1 = ay + a->h < by + b->h ? ay + a->h : by + b->h;
    for (int y = y0; y < y1; y++) {
        const uint32_t *ra = thc__mask_row(a, y - ay), *rb = thc__mask_row(b, y - by);
        for (int x = x0; x < x1; x += 32) {
            uint32_t bits = thc__bits32(ra, a->words_per_row, x - ax) & thc__bits32(rb, b->words_per_row, x - bx);
            if (x1 - x < 32) bits &= (1u << (x1 - x)) - 1u;
            if (bits) {
                int k = 0;
                while (!(bits & 1u)) { bits >>= 1; k++; }
                if (hit_x) *hit_x = x + k;
                if (hit_y) *hit_y = y;
                return 1;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the grid */
/* Bodies are appended by insert; the first query or pairs call after inserts files every body's cells
   into hash buckets with a counting sort, so each bucket's entries sit together with a copy of the box.
   A pair (or a query hit) is reported only in the cell holding the lower-left corner of the two boxes'
   intersection, which both bodies cover, so each comes out exactly once with no "seen" marks. */
typedef struct thc__body { thc_aabb box; uint32_t id; int32_t x0, y0, x1, y1; } thc__body;   /* x1 < x0: on the large list */
typedef struct thc__entry { thc_aabb box; int32_t cx, cy; int32_t body; uint32_t hash; } thc__entry;

struct thc_grid {
    float    cell_size, inv_cell;
    int      max_bodies, body_count;
    int      max_entries, entry_count;
    int      large_count, built;
    uint32_t bucket_mask, pad_;
    /* arrays follow, as offsets from the struct so the grid can be copied or restored anywhere */
    size_t   off_bodies, off_raw, off_sorted, off_starts, off_large;
};

static thc__body  *thc__bodies(thc_grid *g) { return (thc__body *)((char *)g + g->off_bodies); }
static thc__entry *thc__raw(thc_grid *g) { return (thc__entry *)((char *)g + g->off_raw); }
static thc__entry *thc__sorted(thc_grid *g) { return (thc__entry *)((char *)g + g->off_sorted); }
static uint32_t   *thc__starts(thc_grid *g) { return (uint32_t *)((char *)g + g->off_starts); }
static int32_t    *thc__large(thc_grid *g) { return (int32_t *)((char *)g + g->off_large); }

static void thc__grid_sizes(const thc_grid_desc *d, int *bodies, int *entries, uint32_t *buckets)
{
    *bodies = d && d->max_bodies > 0 ? d->max_bodies : 1024;
    *entries = *bodies * 4;
    uint32_t b = 64;
    while (b < (uint32_t)*entries) b <<= 1;
    *buckets = b;
}

static size_t thc__align(size_t x) { return (x + 15) & ~(size_t)15; }

size_t thc_grid_bytes(const thc_grid_desc *d)
{
    int bodies, entries;
    uint32_t buckets;
    thc__grid_sizes(d, &bodies, &entries, &buckets);
    return thc__align(sizeof(thc_grid)) + thc__align(sizeof(thc__body) * (size_t)bodies) +
           2 * thc__align(sizeof(thc__entry) * (size_t)entries) + thc__align(sizeof(uint32_t) * (buckets + 1)) +
           thc__align(sizeof(int32_t) * (size_t)bodies);
}

thc_grid *thc_grid_init(void *mem, size_t bytes, const thc_grid_desc *d)
{
    if (!mem || bytes < thc_grid_bytes(d) || ((uintptr_t)mem & 7)) return NULL;
    thc_grid *g = (thc_grid *)mem;
    memset(g, 0, sizeof *g);
    int bodies, entries;
    uint32_t buckets;
    thc__grid_sizes(d, &bodies, &entries, &buckets);
    g->cell_size = d && d->cell_size > 0 ? d->cell_size : 64.0f;
    g->inv_cell = 1.0f / g->cell_size;
    g->max_bodies = bodies;
    g->max_entries = entries;
    g->bucket_mask = buckets - 1;
    g->off_bodies = thc__align(sizeof(thc_grid));
    g->off_raw = g->off_bodies + thc__align(sizeof(thc__body) * (size_t)bodies);
    g->off_sorted = g->off_raw + thc__align(sizeof(thc__entry) * (size_t)entries);
    g->off_starts = g->off_sorted + thc__align(sizeof(thc__entry) * (size_t)entries);
    g->off_large = g->off_starts + thc__align(sizeof(uint32_t) * (buckets + 1));
    thc_grid_clear(g);
    return g;
}

void thc_grid_clear(thc_grid *g)
{
    g->body_count = g->entry_count = g->large_count = 0;
    g->built = 0;
}

int thc_grid_count(const thc_grid *g) { return g->body_count; }

static uint32_t thc__hash(int32_t cx, int32_t cy) { return ((uint32_t)cx * 73856093u) ^ ((uint32_t)cy * 19349663u); }

static int32_t thc__cell(const thc_grid *g, float v)
{
    float c = floorf(v * g->inv_cell);
    return c < -1e9f ? -1000000000 : c > 1e9f ? 1000000000 : c == c ? (int32_t)c : 0;
}

int thc_grid_insert(thc_grid *g, uint32_t id, thc_aabb box)
{
    if (g->body_count == g->max_bodies) return 0;
    int bi = g->body_count++;
    thc__body *b = &thc__bodies(g)[bi];
    b->id = id;
    b->box = box;
    b->x0 = thc__cell(g, box.min.x); b->x1 = thc__cell(g, box.max.x);
    b->y0 = thc__cell(g, box.min.y); b->y1 = thc__cell(g, box.max.y);
    int64_t cells = ((int64_t)b->x1 - b->x0 + 1) * ((int64_t)b->y1 - b->y0 + 1);
    if (b->x1 < b->x0 || b->y1 < b->y0 || cells > THC_GRID_MAX_CELLS || g->entry_count + cells > g->max_entries) {
        b->x0 = 1; b->x1 = 0;   /* too big for the cells (or inverted): tested against everything */
        thc__large(g)[g->large_count++] = bi;
    } else {
        g->entry_count += (int)cells;
    }
    g->built = 0;
    return 1;
}

static void thc__grid_build(thc_grid *g)
{
    if (g->built) return;
    thc__body *bodies = thc__bodies(g);
    thc__entry *raw = thc__raw(g), *sorted = thc__sorted(g);
    uint32_t *starts = thc__starts(g), mask = g->bucket_mask;
    memset(starts, 0, sizeof(uint32_t) * (mask + 2));
    int n = 0;
    for (int i = 0; i < g->body_count; i++) {
        const thc__body *b = &bodies[i];
        for (int32_t y = b->y0; y <= b->y1; y++)
            for (int32_t x = b->x0; x <= b->x1; x++) {
                thc__entry *e = &raw[n++];
                e->box = b->box;
                e->cx = x;
                e->cy = y;
                e->body = i;
                e->hash = thc__hash(x, y) & mask;
                starts[e->hash]++;
            }
    }
    uint32_t sum = 0;
    for (uint32_t h = 0; h <= mask; h++) { sum += starts[h]; starts[h] = sum; }   /* starts[h] = end of bucket h */
    starts[mask + 1] = sum;
    for (int i = n - 1; i >= 0; i--) sorted[--starts[raw[i].hash]] = raw[i];   /* now starts[h] = its beginning */
    g->built = 1;
}

static int thc__box_overlap(const thc_aabb *a, const thc_aabb *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y;
}

int thc_grid_pairs(thc_grid *g, thc_pair *pairs, int max_pairs)
{
    thc__grid_build(g);
    const thc__entry *sorted = thc__sorted(g);
    const uint32_t *starts = thc__starts(g);
    thc__body *bodies = thc__bodies(g);
    int count = 0;
    for (uint32_t h = 0; h <= g->bucket_mask; h++) {
        uint32_t s = starts[h], e = starts[h + 1];
        for (uint32_t i = s; i + 1 < e; i++) {
            const thc__entry *A = &sorted[i];
            for (uint32_t j = i + 1; j < e; j++) {
                const thc__entry *B = &sorted[j];
                if (!thc__box_overlap(&A->box, &B->box) || A->cx != B->cx || A->cy != B->cy) continue;
                if (thc__cell(g, thc__maxf(A->box.min.x, B->box.min.x)) != A->cx ||
                    thc__cell(g, thc__maxf(A->box.min.y, B->box.min.y)) != A->cy) continue;
                if (count == max_pairs) return count;
                int lo = A->body < B->body ? A->body : B->body, hi = A->body ^ B->body ^ lo;
                pairs[count].a = bodies[lo].id;
                pairs[count].b = bodies[hi].id;
                count++;
            }
        }
    }
    for (int k = 0; k < g->large_count; k++) {
        int bi = thc__large(g)[k];
        for (int j = 0; j < g->body_count; j++) {
            if (j == bi || (bodies[j].x1 < bodies[j].x0 && j < bi)) continue;   /* two large bodies: once */
            if (!thc__box_overlap(&bodies[bi].box, &bodies[j].box)) continue;
            if (count == max_pairs) return count;
            pairs[count].a = bodies[bi < j ? bi : j].id;
            pairs[count].b = bodies[bi < j ? j : bi].id;
            count++;
        }
    }
    return count;
}

int thc_grid_query_aabb(thc_grid *g, thc_aabb box, uint32_t *ids, int max_ids)
{
    thc__grid_build(g);
    thc__body *bodies = thc__bodies(g);
    int n = 0;
    int32_t x0 = thc__cell(g, box.min.x), x1 = thc__cell(g, box.max.x), y0 = thc__cell(g, box.min.y), y1 = thc__cell(g, box.max.y);
    if (x1 < x0 || y1 < y0) return 0;
    if (((int64_t)x1 - x0 + 1) * ((int64_t)y1 - y0 + 1) > (int64_t)g->body_count * 4 + 64) {
        for (int i = 0; i < g->body_count && n < max_ids; i++)   /* a query wider than the scene: scan it */
            if (thc__box_overlap(&bodies[i].box, &box)) ids[n++] = bodies[i].id;
        return n;
    }
    const thc__entry *sorted = thc__sorted(g);
    const uint32_t *starts = thc__starts(g);
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) {
            uint32_t h = thc__hash(x, y) & g->bucket_mask;
            for (uint32_t k = starts[h]; k < starts[h + 1]; k++) {
                const thc__entry *e = &sorted[k];
                if (e->cx != x || e->cy != y || !thc__box_overlap(&e->box, &box)) continue;
                if (thc__cell(g, thc__maxf(e->box.min.x, box.min.x)) != x || thc__cell(g, thc__maxf(e->box.min.y, box.min.y)) != y) continue;
                if (n == max_ids) return n;
                ids[n++] = bodies[e->body].id;
            }
        }
    for (int i = 0; i < g->large_count; i++) {
        const thc__body *b = &bodies[thc__large(g)[i]];
        if (!thc__box_overlap(&b->box, &box)) continue;
        if (n == max_ids) return n;
        ids[n++] = b->id;
    }
    return n;
}

/* Entry t of the ray p + d t, t in [0, tmax], into box; -1 if it misses. */
static float thc__ray_box_t(thc_v2 p, thc_v2 d, float tmax, const thc_aabb *b)
{
    float lo = 0, hi = tmax;
    float pp[2] = { p.x, p.y }, dd[2] = { d.x, d.y }, mn[2] = { b->min.x, b->min.y }, mx[2] = { b->max.x, b->max.y };
    for (int k = 0; k < 2; k++) {
        if (dd[k] == 0) {
            if (pp[k] < mn[k] || pp[k] > mx[k]) return -1;
            continue;
        }
        float t0 = (mn[k] - pp[k]) / dd[k], t1 = (mx[k] - pp[k]) / dd[k];
        if (t0 > t1) { float s = t0; t0 = t1; t1 = s; }
        lo = thc__maxf(lo, t0);
        hi = thc__minf(hi, t1);
        if (lo > hi) return -1;
    }
    return lo;
}

static int thc__ray_add(thc_grid *g, thc_ray ray, int bi, int *idx, int n, int max_ids)
{
    if (n >= max_ids || thc__ray_box_t(ray.p, ray.d, ray.t, &thc__bodies(g)[bi].box) < 0) return n;
    for (int i = 0; i < n; i++)
        if (idx[i] == bi) return n;
    idx[n] = bi;
    return n + 1;
}

int thc_grid_query_ray(thc_grid *g, thc_ray ray, uint32_t *ids, int max_ids)
{
    /* Walk the cells column by column along the ray's longer axis, one cell of margin on the other
       axis so rounding never skips a cell; body indices are kept in ids until the end. */
    int idx[512];
    if (max_ids > 512) max_ids = 512;
    if (max_ids <= 0 || !(ray.t >= 0)) return 0;
    thc__grid_build(g);
    thc__body *bodies = thc__bodies(g);
    int n = 0;
    int major = fabsf(ray.d.x) >= fabsf(ray.d.y) ? 0 : 1;
    float p[2] = { ray.p.x, ray.p.y }, d[2] = { ray.d.x, ray.d.y };
    float end[2] = { p[0] + d[0] * ray.t, p[1] + d[1] * ray.t };
    int32_t c0 = thc__cell(g, p[major]), c1 = thc__cell(g, end[major]);
    int32_t lo_minor = thc__cell(g, thc__minf(p[!major], end[!major])), hi_minor = thc__cell(g, thc__maxf(p[!major], end[!major]));
    int64_t cols = (c1 > c0 ? (int64_t)c1 - c0 : (int64_t)c0 - c1) + 1;
    int64_t budget = (int64_t)g->body_count * 4 + 64;
    if (cols * 3 > budget || (d[major] == 0 && (int64_t)hi_minor - lo_minor + 3 > budget)) {
        for (int i = 0; i < g->body_count; i++) n = thc__ray_add(g, ray, i, idx, n, max_ids);
    } else {
        const thc__entry *sorted = thc__sorted(g);
        const uint32_t *starts = thc__starts(g);
        int32_t step = c1 >= c0 ? 1 : -1;
        for (int32_t c = c0;; c += step) {
            int32_t m0 = lo_minor, m1 = hi_minor;
            if (d[major] != 0) {   /* the ray's extent on the minor axis inside this column */
                float a = ((float)c * g->cell_size - p[major]) / d[major], b = ((float)(c + 1) * g->cell_size - p[major]) / d[major];
                float ta = thc__clamp(thc__minf(a, b), 0, ray.t), tb = thc__clamp(thc__maxf(a, b), 0, ray.t);
                float ya = p[!major] + d[!major] * ta, yb = p[!major] + d[!major] * tb;
                m0 = thc__cell(g, thc__minf(ya, yb));
                m1 = thc__cell(g, thc__maxf(ya, yb));
            }
            for (int32_t mc = m0 - 1; mc <= m1 + 1; mc++) {
                int32_t x = major == 0 ? c : mc, y = major == 0 ? mc : c;
                uint32_t h = thc__hash(x, y) & g->bucket_mask;
                for (uint32_t k = starts[h]; k < starts[h + 1]; k++)
                    if (sorted[k].cx == x && sorted[k].cy == y) n = thc__ray_add(g, ray, sorted[k].body, idx, n, max_ids);
            }
            if (c == c1) break;
        }
        for (int i = 0; i < g->large_count; i++) n = thc__ray_add(g, ray, thc__large(g)[i], idx, n, max_ids);
    }
    /* nearest first */
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i;
        float tv = thc__ray_box_t(ray.p, ray.d, ray.t, &bodies[v].box);
        while (j > 0 && thc__ray_box_t(ray.p, ray.d, ray.t, &bodies[idx[j - 1]].box) > tv) { idx[j] = idx[j - 1]; j--; }
        idx[j] = v;
    }
    for (int i = 0; i < n; i++) ids[i] = bodies[idx[i]].id;
    return n;
}

#endif /* TH_COLLIDE_IMPLEMENTED */
#endif /* TH_COLLIDE_IMPLEMENTATION */

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
