/* state.h - sprites_batch: everything that survives a reload lives in GameState. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

#define MAX_SPRITES 20000

typedef struct Mover {
    v2       pos, vel;
    float    angle, spin;
    uint32_t layer;          /* 0 back, 1 middle, 2 front */
} Mover;

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    th_rng   rng;
    int32_t  spawned;        /* movers given a start so far; more are spawned when COUNT grows */
    uint32_t paused;         /* Space */
    Mover    movers[MAX_SPRITES];
} GameState;

#endif
