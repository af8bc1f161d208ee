/* state.h - savedata_highscore: the round in play and the table, which is also what is saved. */
#ifndef STATE_H
#define STATE_H

#include <stdint.h>
#include "game_api.h"

#define TABLE_SIZE 5
#define TABLE_VERSION 1

/* The blob written with pf->save: plain values with a version, checked when read back. */
typedef struct Highscores {
    uint32_t version;
    int32_t  count;
    int32_t  scores[TABLE_SIZE];   /* best first */
    int32_t  rounds_played;        /* over every run */
} Highscores;

typedef struct GameState {
    uint32_t   initialized;
    uint64_t   steps;
    float      marker;             /* -1..1 across the bar */
    float      direction;          /* +1 or -1 */
    int32_t    round;              /* this run's rounds */
    int32_t    last_score;         /* -1: none yet */
    int32_t    last_rank;          /* where it landed in the table, -1 if it did not */
    float      flash;              /* seconds of the "stopped" flash left */
    Highscores table;
    int32_t    loaded;             /* 1: the table came from save data, 0: fresh, -1: refused (why in the log) */
} GameState;

#endif
