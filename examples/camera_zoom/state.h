/* state.h - camera_zoom: the ship, the camera and the zoom. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    v2       ship, ship_vel;
    float    ship_angle;
    v2       cam;                /* the world point at the view's centre */
    float    zoom, zoom_target;  /* 1 = one world unit per game pixel */
} GameState;

#endif
