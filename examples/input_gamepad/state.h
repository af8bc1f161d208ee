/* state.h - input_gamepad: a ship driven by any device, and its trail. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

#define TRAIL 64

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;          /* rewinds with the F7 loop: the loop restores the state it started from */
    v2       ship, ship_vel;
    float    ship_angle;
    v2       trail[TRAIL];   /* the ship's last positions, a ring */
    uint32_t trail_next;
    float    wheel_total;    /* the mouse wheel, summed */
    uint32_t clicks;
} GameState;

#endif
