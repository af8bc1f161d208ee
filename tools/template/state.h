/* state.h - everything the game keeps from one frame to the next, and from one edit to the next.

   The host keeps this struct in its memory block across every reload: edit game.cpp and the ship stays
   where it is. Add a field (with a default: `float spin = 0.0f;`) and the running state is migrated
   to the new layout, keeping every value it had (docs/state_migration.md). Plain values only: no
   pointers, no std:: types, no virtual functions. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"   /* v2 */

struct GameState {
    uint32_t initialized = 0;
    v2       pos = {640.0f, 360.0f};   /* the ship, in game pixels */
    v2       vel = {180.0f, 120.0f};
    float    time = 0.0f;              /* seconds played */
    int32_t  bounces = 0;              /* this run */
    int32_t  best = 0;                 /* the most bounces ever: kept in the save blob "best" */
};

#endif
