/* state.h - tweak_live: the balls. The values they obey are TWEAKs in game.cpp, not state. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

#define MAX_BALLS 64

typedef struct Ball { v2 pos, vel; } Ball;

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    th_rng   rng;
    Ball     balls[MAX_BALLS];
    int32_t  spawned;        /* balls given a start so far; BALLS may grow while it runs */
} GameState;

#endif
