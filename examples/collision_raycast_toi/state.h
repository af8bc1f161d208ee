/* state.h - collision_raycast_toi: where the eye looks. The obstacles are built from constants. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    v2       eye;            /* where the rays and the ball start; the right mouse button moves it */
    v2       aim;            /* the point looked at: follows the mouse */
    float    fan_angle;      /* the fan of rays turns slowly */
} GameState;

#endif
