/* state.h - collision_shapes: the shapes on the table and the drag in progress. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

enum ShapeKind : uint32_t { SHAPE_CIRCLE, SHAPE_AABB, SHAPE_CAPSULE, SHAPE_BOX, SHAPE_TRIANGLE, SHAPE_KIND_COUNT };

typedef struct Shape {
    ShapeKind kind;
    v2        pos;
    float     angle;         /* radians; an AABB ignores it */
    v2        size;          /* circle: radius; AABB/box: half extents; capsule: half length, radius; triangle: radius */
} Shape;

#define MAX_SHAPES 8

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    Shape    shapes[MAX_SHAPES];
    int32_t  shape_count;
    int32_t  dragging;       /* index of the shape under the mouse while the left button is held, -1 none */
    v2       grab;           /* where in the shape it was grabbed (offset from its centre) */
} GameState;

#endif
