/* state.h - sound_mixer: the mixer settings and the last sounds played. Sound handles may live in the
   state: a stale one (sound over, voice reused, state rolled back) is ignored by every call. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"

#define RECENT 24

typedef struct Played {
    uint64_t step;           /* when; 0 = empty slot */
    int32_t  sound;          /* index into SOUNDS (game.cpp) */
    float    pan, pitch;
} Played;

typedef struct GameState {
    uint32_t initialized;
    uint64_t steps;
    float    pan = 0.0f;             /* -1 left .. 1 right, for the keys 1-5 */
    float    pitch = 1.0f;           /* 0.5 .. 2 */
    float    bus_volume[3] = { 1.0f, 0.6f, 1.0f };   /* master, music, effects */
    uint32_t music;                  /* handle of the music loop, 0 = off */
    uint32_t music_on = 1;
    uint32_t demo_on = 1;            /* the automatic sweep */
    Played   recent[RECENT];
    uint32_t recent_next;
} GameState;

#endif
