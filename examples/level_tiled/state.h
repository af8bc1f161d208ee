/* state.h - level_tiled: the player, what the map placed, and the level's boxes as the game holds them. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

#define LEVEL_MAX_SOLIDS  1024
#define LEVEL_MAX_PICKUPS 64

typedef struct Pickup {
    uint32_t id;                  /* the map object's id: a pickup taken stays taken across a level change */
    v2       pos;                 /* centre */
    int32_t  value;
    uint32_t taken;
} Pickup;

typedef struct GameState {
    uint32_t   initialized;
    uint64_t   steps;
    v2         player;            /* centre, in map pixels: kept when the level changes */
    v2         cam;               /* the view's top-left */
    uint32_t   level_generation;  /* the map's generation the level below was built from (map_changed) */
    uint32_t   level_changes;     /* level-changed calls seen, the first load included */
    uint32_t   blocked_x;         /* 1 while a wall stops the player's horizontal move */
    int32_t    score;
    float      level_w, level_h;  /* map pixels */
    int32_t    solid_count;
    GameMapBox solids[LEVEL_MAX_SOLIDS];
    int32_t    pickup_count;
    Pickup     pickups[LEVEL_MAX_PICKUPS];
} GameState;

#endif
