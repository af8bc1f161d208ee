/* state.h - text_fonts: the typewriter's progress and the chosen alignment. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"

enum Align : uint32_t { ALIGN_LEFT, ALIGN_CENTER, ALIGN_RIGHT, ALIGN_COUNT };

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    float    typed;          /* characters of the typewriter line shown so far */
    Align    align;          /* Tab cycles */
} GameState;

#endif
