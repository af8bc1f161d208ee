/* state.h - sprites_aseprite: the character, where it is and what its animation is doing. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"
#include "th_math.h"

typedef struct GameState {
    uint32_t       initialized;
    uint64_t       steps;
    v2             pos;           /* the character's feet, in game pixels */
    uint32_t       facing_left;
    GameSpriteAnim anim;          /* plain values: the tag, the frame, the time in it */
    uint32_t       frame_changes; /* how many times the frame on screen changed */
    uint32_t       waving;        /* Space pressed: the "wave" tag plays until it is over */
    uint32_t       waves;         /* waves played out */
    GameSlice      hit;           /* the "hitbox" slice at the frame on screen (has_hit: the file has one there) */
    int32_t        has_hit;
} GameState;

#endif
