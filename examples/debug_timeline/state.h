/* state.h - debug_timeline: everything that survives a reload lives in GameState, and everything a step reads is here
   too (the random generator included): the F8 timeline replays steps from kept states and checks them byte for byte. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

#define MAX_BALLS 24
#define MAX_SHOTS 8

typedef struct Ball {
    v2       pos, vel;
    float    radius;
    uint32_t alive;
    uint32_t hue;            /* an index into the palette */
} Ball;

typedef struct Shot {
    v2       pos;
    uint32_t alive;
} Shot;

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    th_rng   rng;            /* the one source of chance: in the state, so a replay draws the same numbers */
    float    ship_x;
    float    cooldown;       /* seconds until the next shot */
    int32_t  score, shots_fired, hits;
    float    flash;          /* seconds left of the hit flash */
    Ball     balls[MAX_BALLS];
    Shot     shots[MAX_SHOTS];
} GameState;

#endif
