// Shapes for the th_collide tests: one tagged shape of any kind, passed to the any-pair entry points
// (thc_overlap, thc_collide, ...) as ptr() / type / x(), plus the names and the printout the tests
// use when a check fails. Included by test_th_collide.cpp and test_th_collide_oracle.cpp after
// th_collide.h.
#ifndef COLLIDE_SHAPES_H
#define COLLIDE_SHAPES_H

#include <stdio.h>
#include "th_collide.h"

static inline thc_v2 V(float x, float y) { thc_v2 r = { x, y }; return r; }

struct Shape {
    thc_type type;
    thc_circle c;
    thc_aabb b;
    thc_capsule k;
    thc_poly p;
    thc_transform xf;
    const void *ptr() const { return type == THC_CIRCLE ? (const void *)&c : type == THC_AABB ? (const void *)&b : type == THC_CAPSULE ? (const void *)&k : (const void *)&p; }
    const thc_transform *x() const { return type == THC_POLY ? &xf : NULL; }
    void move(thc_v2 d) {
        c.p.x += d.x; c.p.y += d.y;
        b.min.x += d.x; b.min.y += d.y; b.max.x += d.x; b.max.y += d.y;
        k.a.x += d.x; k.a.y += d.y; k.b.x += d.x; k.b.y += d.y;
        xf.p.x += d.x; xf.p.y += d.y;
    }
};

static const thc_type TYPES[4] = { THC_CIRCLE, THC_AABB, THC_CAPSULE, THC_POLY };
static inline const char *type_name(thc_type t) { return t == THC_CIRCLE ? "circle" : t == THC_AABB ? "aabb" : t == THC_CAPSULE ? "capsule" : "poly"; }

// One line naming the shape with every float at full precision, so a failing case can be pasted back.
static inline void print_shape(const char *tag, const Shape &s)
{
    switch (s.type) {
    case THC_CIRCLE: printf("  %s circle (%.9g, %.9g) r %.9g\n", tag, s.c.p.x, s.c.p.y, s.c.r); break;
    case THC_AABB: printf("  %s aabb (%.9g, %.9g)-(%.9g, %.9g)\n", tag, s.b.min.x, s.b.min.y, s.b.max.x, s.b.max.y); break;
    case THC_CAPSULE: printf("  %s capsule (%.9g, %.9g)-(%.9g, %.9g) r %.9g\n", tag, s.k.a.x, s.k.a.y, s.k.b.x, s.k.b.y, s.k.r); break;
    default:
        printf("  %s poly at (%.9g, %.9g) c %.9g s %.9g:", tag, s.xf.p.x, s.xf.p.y, s.xf.c, s.xf.s);
        for (int i = 0; i < s.p.count; i++) printf(" (%.9g, %.9g)", s.p.verts[i].x, s.p.verts[i].y);
        printf("\n");
    }
}

#endif
