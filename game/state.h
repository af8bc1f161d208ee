/* state.h - every type that lives in the persistent memory block, and nothing else.

   The build stamps the library with a hash of the types declared here and of every type they embed,
   down into the tinyheaders (tools/layout_stamp.py; comments, spacing and function bodies ignored):
   change a struct here, or a tinyheader struct the state holds, and the host sees a new layout, so it
   migrates or restarts the state instead of running new code on old memory. Tuning constants stay
   out of this file - they sit at the top of the code that uses them.

   The state is plain values: fixed arrays, enums with a fixed underlying type, handles as index +
   generation, no pointers except the transient ones. The build also describes these types field by
   field, so an edit here migrates the running game instead of restarting it (game_api.h, "the state's
   description"): a field added takes its default member initializer, a field removed is dropped, enums
   keep their values' names. STATE_RENAMED(old) in front of a renamed field carries its value over,
   STATE_TRANSIENT marks a cache load rebuilds, STATE_COUNT_OF(array) a count that must fit its array. */
#ifndef GAME_STATE_H
#define GAME_STATE_H

#include <stdint.h>
#include "game_api.h"    /* STATE_TRANSIENT, STATE_RENAMED, STATE_COUNT_OF */
#include "th_math.h"     /* v2, th_rng */
#include "th_arena.h"    /* tha_arena */
#include "th_handle.h"   /* thh_handle, THH_FIXED_POOL */

#define MAX_ENTITIES  2048
#define MAX_PARTICLES 8192
#define MAX_POPUPS    48

/* Index into ENTITY_KINDS (entities.cpp): per-type update, draw and collision response. */
enum EntityType : uint32_t {
    ENTITY_PLAYER,
    ENTITY_DRONE,         /* swarms straight at the player */
    ENTITY_SHOOTER,       /* keeps its distance and fires */
    ENTITY_DASHER,        /* aims, then charges in a straight line */
    ENTITY_BRUTE,         /* slow and tough; splits into drones */
    ENTITY_BULLET,        /* the player's */
    ENTITY_ENEMY_BULLET,
    ENTITY_GEM,           /* score pickup */
    ENTITY_HEART,         /* health pickup */
    ENTITY_WALL,
    ENTITY_SPAWNER,       /* a warning marker that becomes an enemy */
    ENTITY_UPGRADE,       /* weapon pickup; phase is its UpgradeKind */
    ENTITY_WANDERER,      /* drifts in, sidesteps out of the player's aim */
    ENTITY_SNAKE,         /* a snake's head: the only part a shot hurts */
    ENTITY_SNAKE_BODY,    /* a segment following `leader`; stops shots, hurts on contact */
    ENTITY_PINWHEEL,      /* tumbles across the arena; a big one (phase 0) splits into small fast ones */
    ENTITY_WELL,          /* a gravity well: pulls the ship, bullets, sparks and grid; eats enemies, bursts overfed */
    ENTITY_TYPE_COUNT
};

typedef struct Entity {
    EntityType type;
    uint32_t   dead;         /* removed at the end of the step */
    thh_handle self;
    v2         pos, prev_pos;/* prev_pos: one step ago, for render interpolation */
    v2         vel;
    float      radius;       /* movers collide as circles */
    float      angle, prev_angle;
    float      hp;
    float      timer;        /* per type: invulnerability, fire cooldown, lifetime... */
    float      cooldown;     /* player: seconds until the next shot */
    float      cooldown2;    /* player: seconds until the next dash */
    float      flash;        /* seconds of hit flash left */
    int32_t    phase;        /* per-type state machine (player: steps of dash left) */
    EntityType spawn_type;   /* ENTITY_SPAWNER: what it becomes */
    v2         half;         /* ENTITY_WALL: half extents */
    float      rot;          /* ENTITY_WALL: rotation in radians (0 = axis aligned) */
    uint32_t   last_hit;     /* ENTITY_BULLET: handle value of the enemy it last went through (pierce) */
    uint32_t   leader;       /* ENTITY_SNAKE_BODY: handle value of the segment ahead of it */
    float      fed;          /* ENTITY_WELL: enemies swallowed */
} Entity;

/* Weapon upgrades, each for a while after its pickup. */
enum UpgradeKind : uint32_t { UPGRADE_SPREAD, UPGRADE_RAPID, UPGRADE_PIERCE, UPGRADE_COUNT };

/* The background grid: springs, pushed by explosions and bullets (fx.cpp). */
#define GRID_COLS 25
#define GRID_ROWS 16
typedef struct GridPoint { v2 d, v; } GridPoint;   /* displacement from rest, velocity */

enum ParticleLook : uint32_t { LOOK_DOT, LOOK_SPARK, LOOK_RING, LOOK_COUNT };

typedef struct Particle {
    v2       pos, vel;
    float    life, max_life;
    float    size, size_end;
    float    drag;           /* fraction of speed left after one second */
    float    angle;
    uint32_t color, color_end;
    ParticleLook look;
} Particle;

typedef struct Popup {       /* "+30" floating over a kill */
    v2       pos;
    float    life;
    int32_t  value;
    uint32_t color;
} Popup;

enum GameMode : uint32_t { MODE_TITLE, MODE_PLAY, MODE_GAMEOVER };
enum PauseItem { PAUSE_RESUME, PAUSE_RESTART, PAUSE_QUIT, PAUSE_ITEM_COUNT };
enum WavePhase : uint32_t { WAVE_BREAK, WAVE_SPAWNING, WAVE_FIGHTING };
/* What a banner says (ui.cpp): one at a time, from a short queue, so they never overlap. */
enum BannerKind : uint32_t { BANNER_NONE, BANNER_PHASE, BANNER_TIER, BANNER_BOMB };
#define MAX_BANNERS 4

/* The entities' handles: a pool with its arrays inside (th_handle.h); entity i is entities[i]. */
typedef struct EntityPool THH_FIXED_POOL(MAX_ENTITIES) EntityPool;

typedef struct GameState {
    uint32_t   initialized;
    GameMode   mode;
    uint64_t   steps;         /* fixed steps this state has run: survives reloads */
    float      mode_time;     /* seconds in the current mode */
    th_rng     rng;
    EntityPool handles;
    Entity     entities[MAX_ENTITIES];   /* indexed by thh_index(handle) */
    thh_handle player;
    Particle   particles[MAX_PARTICLES]; /* the first particle_count alive */
    STATE_COUNT_OF(particles) uint32_t particle_count;
    Popup      popups[MAX_POPUPS];
    STATE_TRANSIENT tha_arena arena;     /* the block after this struct: only caches that load rebuilds */
    STATE_TRANSIENT void *grid_mem;      /* the broadphase's buffers, carved from the arena */
    STATE_TRANSIENT uint64_t grid_bytes;

    /* the run */
    int32_t    wave;
    WavePhase  wave_phase;
    float      wave_timer;
    int32_t    wave_left_to_spawn;
    int32_t    wave_total;    /* enemies this wave sends (brute splits add to it) */
    int32_t    wave_killed;   /* of those, dead */
    int32_t    enemies_left;  /* alive + warning markers + still to spawn, counted once a step */
    float      wave_clock;    /* seconds since the wave's first spawn */
    int32_t    pack_left;     /* spawns left in the current pack */
    EntityType pack_type;     /* of the current pack */
    v2         pack_at;       /* where the current pack comes in */
    int32_t    score, best_score, multiplier, kills;
    int32_t    best_before_run;/* the best when this run started: "NEW BEST" compares with it */
    int32_t    best_saved;    /* the best last written to save data */
    float      multiplier_timer;
    int32_t    runs, deaths;

    /* feel */
    float      trauma;        /* screen shake, 0..1 */
    float      hitstop;       /* seconds the world stays frozen after a big hit */
    v2         cam, prev_cam; /* camera centre in world units */
    v2         aim;           /* last aim direction */
    float      shot_speed;    /* the speed the last player shot left at (game_stats: a BULLET_SPEED edit) */
    uint32_t   autopilot;     /* F10: the demo bot plays */
    uint32_t   paused;        /* the pause menu is open (Esc, or the window lost focus) */
    int32_t    pause_item;    /* PauseItem under the cursor */
    float      pause_time;    /* seconds the menu has been open */
    v2         mouse;         /* last mouse position, screen pixels */
    float      mouse_idle;    /* seconds since the mouse last moved or clicked */
    float      bot_dodge_timer;
    v2         bot_dodge;

    /* a best you earned */
    uint32_t   demo;          /* the autopilot (F10) or F3 played in this run: its score is never a BEST */
    /* the camera's zoom: out with the action */
    float      zoom = 1.0f, prev_zoom = 1.0f;
    /* something to grow into */
    int32_t    bombs;
    float      bomb_flash;    /* seconds of the bomb's flash left */
    float      upgrade_time[UPGRADE_COUNT];   /* seconds left of each weapon upgrade */
    int32_t    multiplier_kills; /* kills since the multiplier last went up */
    int32_t    tier;          /* multiplier tier, 1.. (HUD) */
    float      tier_flash;    /* seconds of the "TIER n" flash left */
    /* a continuous flow */
    float      run_time;      /* seconds of play in this run */
    float      spawn_budget;  /* enemies owed to the flow, spent a pack at a time */
    int32_t    alive_peak;    /* the most enemies alive at once in this run */
    int32_t    alive_now;     /* enemies alive (snake bodies not counted), counted once a step */
    /* banners, one at a time */
    BannerKind banner_kind[MAX_BANNERS];
    int32_t    banner_value[MAX_BANNERS];
    STATE_COUNT_OF(banner_kind) uint32_t banner_count;
    float      banner_time;   /* seconds the front banner has shown */
    STATE_TRANSIENT GridPoint grid[GRID_ROWS][GRID_COLS];   /* at rest after a migration */
} GameState;

#endif
