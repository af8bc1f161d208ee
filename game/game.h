/* game.h - what the pieces of the game share: the engine's header, the arena and sprite names, and the functions
   one piece calls in another. Every piece includes it first; the build packs the pieces into a few translation
   units (chunks, docs/design.md, "What a save compiles"), and a piece opened on its own in an editor parses
   (clangd, compile_commands.json). No SDL and no C++ standard library headers here. */
#ifndef GAME_H
#define GAME_H

/* the engine's part, as every game folder starts (docs/game_api.md): the contract, the tinyheaders a game uses
   (math without <cmath>, arenas, handles, collision, TWEAK), PROFILE_ZONE, state.h and the build's description of
   the state's types */
#include "game_engine.h"

static const float ARENA_W = 2400.0f;
static const float ARENA_H = 1500.0f;

enum Layer {
    LAYER_FLOOR = 0, LAYER_WALL = 10, LAYER_PICKUP = 20, LAYER_ENEMY = 30, LAYER_PLAYER = 40,
    LAYER_BULLET = 50, LAYER_FX = 60, LAYER_DEBUG = 80, LAYER_POPUP = 90, LAYER_HUD = GAME_LAYER_UI,
};

#define SPRITE_LIST(X) \
    X(PLAYER, "player/ship") X(DRONE, "enemy/drone") X(SHOOTER, "enemy/shooter") X(DASHER, "enemy/dasher") \
    X(BRUTE, "enemy/brute") X(BULLET, "bullet/player") X(ENEMY_BULLET, "bullet/enemy") X(GEM, "pickup/gem") \
    X(HEART, "pickup/health") X(WALL, "wall/block") X(FX_DOT, "fx/dot") X(FX_RING, "fx/ring") \
    X(FX_SPARK, "fx/spark") X(UI_HEART, "ui/heart")
#define SPRITE_ENUM(id, name) SPR_##id,
#define SPRITE_NAME(id, name) name,
enum SpriteName { SPRITE_LIST(SPRITE_ENUM) SPR_COUNT };
static const char *const SPRITE_NAMES[SPR_COUNT] = { SPRITE_LIST(SPRITE_NAME) };
inline uint32_t g_sprite_ids[SPR_COUNT];   /* library globals (inline: one for every chunk): refilled by every load */
#define SPR(id) g_sprite_ids[SPR_##id]

/* The player's controls for one step: from the keyboard/mouse/gamepad (game.cpp) or the autopilot (bot.cpp). */
typedef struct Controls { v2 move, aim; int fire, dash, bomb; } Controls;
static const uint32_t UPGRADE_COLORS[UPGRADE_COUNT] = { 0x5CFF7AFF, 0xFFE14AFF, 0xC08CFFFF };   /* the weapon upgrades' */
static const char *const UPGRADE_NAMES[UPGRADE_COUNT] = { "SPREAD", "RAPID", "PIERCE" };
inline int g_bombed;   /* a bomb went off this step (game_update reports it) */

/* The game's sounds by name. Their table (asset, volume, priority...) is SOUND_LIST in sound.cpp, row for
   row in this order (a compile-time check there says so when they differ). */
enum SoundName {
    SND_SHOT, SND_DASH, SND_HURT, SND_HIT, SND_EXPLODE, SND_EXPLODE_BIG, SND_ENEMY_SHOOT, SND_SPAWN, SND_CHARGE,
    SND_GEM, SND_HEALTH, SND_START, SND_WAVE_START, SND_GAME_OVER, SND_MUSIC, SND_DODGE, SND_SNAKE, SND_SPLIT,
    SND_WELL, SND_WELL_BURST, SND_COUNT
};

/* ---------------------------------------------------------------- what one file uses of another's
   The build compiles the game's files in a few translation units, not always the same ones together
   (docs/design.md, "What a save compiles"): a function another file calls is declared here and defined without
   `static`; a global more than one file uses is `inline` here (one for the whole library). Both stay inside
   the library (-fvisibility=hidden). Everything else stays `static` in its file, with a name no other file uses. */
/* The per-type table (entities.cpp): update, draw and collision response of each EntityType */
typedef void entity_update_fn(GameState *gs, Entity *e, float dt);
typedef void entity_draw_fn(GameState *gs, Entity *e, v2 pos, float angle, const PlatformAPI *pf);
typedef struct EntityKind {
    const char       *name;
    entity_update_fn *update;
    entity_draw_fn   *draw;
} EntityKind;
extern const EntityKind ENTITY_KINDS[ENTITY_TYPE_COUNT];
inline Controls g_controls;   /* this step's controls, set by game_update before the entities run */

/* fx.cpp */
void    fx_burst(GameState *gs, v2 at, int count, uint32_t color, uint32_t color_end, float speed_lo, float speed_hi,
                 float size, float life);
void    fx_burst_sparks(GameState *gs, v2 at, int count, uint32_t color, float speed_hi, float life);   /* sparks in color */
void    fx_ring(GameState *gs, v2 at, float from, float to, float life, uint32_t color);
void    fx_sparks(GameState *gs, v2 at, v2 normal, uint32_t color, int count);
void    fx_swirl(GameState *gs, v2 at, float radius, uint32_t color);   /* a spark falling into a well */
void    fx_trail(GameState *gs, v2 at, v2 vel, uint32_t color, float size);
void    fx_shake(GameState *gs, float amount);
void    fx_popup(GameState *gs, v2 at, int value, uint32_t color);
void    grid_push(GameState *gs, v2 at, float radius, float strength);   /* the background grid's springs */
void    grid_draw(GameState *gs, float x0, float y0, float x1, float y1, float zoom, const PlatformAPI *pf);
void    camera_view(GameState *gs, float alpha, v2 *centre, float *zoom);   /* where the view is, how far out */
void    camera_apply(GameState *gs, float alpha, const PlatformAPI *pf);
void    camera_update(GameState *gs, float dt, const PlatformAPI *pf);
void    fx_draw(GameState *gs, const PlatformAPI *pf);
void    fx_update(GameState *gs, float dt);
void    grid_update(GameState *gs, float dt);
/* sound.cpp */
void    sfx(GameState *gs, SoundName s, v2 pos);   /* a sound at a place in the world */
void    sfx_ui(SoundName s);                        /* a sound with no place (menus, the HUD) */
void    sound_flush(GameState *gs, const PlatformAPI *pf);
void    sound_load(const PlatformAPI *pf);
/* entities.cpp */
Entity *entity_get(GameState *gs, thh_handle h);
Entity *entity_spawn(GameState *gs, EntityType type, v2 pos);
int     is_enemy(uint32_t type);
void    damage_enemy(GameState *gs, Entity *e, float amount, v2 push, int award = 1);
typedef struct EnemyInfo { int points; float radius, hp; uint32_t color; } EnemyInfo;
EnemyInfo enemy_info(uint32_t type);                /* points, size, toughness and colour of a kind */
void    well_feed(GameState *gs, Entity *w, Entity *food);   /* swallowed; overfed, the well bursts */
float   well_pull_radius(void);
/* The wells of this step (world_begin_step fills them): where they are and how hard they pull. */
#define MAX_WELLS 8
inline struct { v2 pos; float strength; } g_wells[MAX_WELLS];
inline int g_well_count;
v2      well_pull(v2 at, float strength);            /* the acceleration every well puts on a thing at `at` */
void    player_hurt(GameState *gs, Entity *pl, v2 from);
void    upgrade_drop(GameState *gs, v2 at, int kind);
void    bomb_fire(GameState *gs);
void    steer(Entity *e, v2 desired_vel, float accel, float dt);   /* turn the velocity toward desired_vel */
void    move_and_collide(GameState *gs, Entity *e, float dt);     /* move, slide along walls */
inline v2 dir_to(v2 from, v2 to) { return v2_norm(v2_sub(to, from)); }
inline float face(v2 d) { return atan2f(d.y, d.x); }
float   player_radius(void);                        /* the tuning at the top of entities.cpp */
float   upgrade_seconds(void);                      /* how long a weapon upgrade lasts */
float   player_max_hp(void);
float   bullet_speed(void);
float   spawn_warning_seconds(void);
/* world.cpp */
int     world_push_out(GameState *gs, v2 *pos, float radius, v2 *normal);
int     world_sweep_walls(GameState *gs, v2 from, v2 to, float radius, float *t, v2 *normal);
Entity *world_sweep_enemies(GameState *gs, v2 from, v2 to, float radius, float *t, uint32_t skip = 0);
int     world_sweep_circle(v2 from, v2 to, float radius, v2 center, float center_radius, float *t);
int     world_blocked(GameState *gs, v2 at, float radius);
void    world_begin_step(GameState *gs);
void    world_debug_draw(GameState *gs, const PlatformAPI *pf);
void    world_init(GameState *gs);
void    world_resolve_contacts(GameState *gs);
/* waves.cpp */
int     score_add(GameState *gs, int points);
int     stragglers_hunt(GameState *gs);
int     wave_shown(GameState *gs);
const char *wave_theme_name(int wave);
float   wave_break_seconds(void);
float   phase_seconds(void);
void    best_load(GameState *gs, const PlatformAPI *pf);
void    best_save(GameState *gs, const PlatformAPI *pf);
void    run_start(GameState *gs, const PlatformAPI *pf);
void    score_kill(GameState *gs, Entity *e, int points);
void    multiplier_feed(GameState *gs);             /* a geom picked up: the multiplier grows */
void    banner_push(GameState *gs, BannerKind kind, int value);
void    wave_swarm(GameState *gs);
void    waves_update(GameState *gs, float dt, const PlatformAPI *pf);
void    arena_build(GameState *gs);
/* enemies.cpp */
void    drone_update(GameState *gs, Entity *e, float dt);
void    shooter_update(GameState *gs, Entity *e, float dt);
void    dasher_update(GameState *gs, Entity *e, float dt);
void    brute_update(GameState *gs, Entity *e, float dt);
void    wanderer_update(GameState *gs, Entity *e, float dt);
void    snake_update(GameState *gs, Entity *e, float dt);
void    snake_body_update(GameState *gs, Entity *e, float dt);
void    pinwheel_update(GameState *gs, Entity *e, float dt);
void    well_update(GameState *gs, Entity *e, float dt);
/* bot.cpp */
Controls bot_controls(GameState *gs, float dt);
/* ui.cpp */
void    crosshair_draw(GameState *gs, float alpha, const PlatformAPI *pf);
void    floor_draw(GameState *gs, float alpha, const PlatformAPI *pf);
void    gameover_draw(GameState *gs, const PlatformAPI *pf);
void    hud_draw(GameState *gs, const PlatformAPI *pf);
void    offscreen_markers_draw(GameState *gs, float alpha, const PlatformAPI *pf);
void    pause_draw(GameState *gs, const PlatformAPI *pf);
int     pause_item_at(const PlatformAPI *pf, v2 p);
void    safe_area_report(GameState *gs, float alpha, const PlatformAPI *pf);
void    title_draw(GameState *gs, const PlatformAPI *pf);
void    wave_banner_draw(GameState *gs, const PlatformAPI *pf);
void    banner_update(GameState *gs, float dt);

#endif
