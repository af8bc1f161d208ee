/* state.h - every type that lives in the persistent memory block, and nothing else.

   The build stamps the library with a hash of this file (comments and spacing ignored): change a
   struct here and the host sees a new layout, so it migrates or restarts the state instead of running
   new code on old memory. Keep tuning constants out of this file - they belong at the top of the code
   that uses them. */
#ifndef GAME_STATE_H
#define GAME_STATE_H

#define MAX_ENTITIES 1024

typedef enum EntityType {
    ENTITY_BOUNCER,   /* bounces around the screen */
    ENTITY_ORBITER,   /* circles a fixed centre */
    ENTITY_CHASER,    /* steers towards its target entity (a handle) */
    ENTITY_TYPE_COUNT
} EntityType;

typedef struct Entity {
    uint32_t   type;          /* EntityType: index into the per-type table in entities.cpp */
    thh_handle self;
    thh_handle target;        /* another entity, or null; checked with thh_valid before use */
    v2         pos, prev_pos; /* prev_pos: where it was one step ago, for render interpolation */
    v2         vel;
    v2         size;
    v2         anchor;        /* orbit centre */
    float      phase;
    uint32_t   color;
} Entity;

typedef struct GameState {
    uint32_t   initialized;
    uint64_t   steps;         /* fixed steps this state has run: survives reloads */
    th_rng     rng;
    tha_arena  arena;         /* everything after this struct in the block */
    thh_pool   handles;
    Entity    *entities;      /* MAX_ENTITIES records, indexed by thh_index(handle) */
} GameState;

#endif
