/* waves.cpp - the arena, the run, and a rhythm that rises: a short breath between waves, then packs
   of one enemy kind arriving together from just off screen, a new kind introduced every early wave,
   every fifth wave a swarm. The last few enemies of a wave stop keeping their distance and come for
   the player (no hunting for stragglers), and a wave that drags on is overrun by the next. */
#include "game.h"

static constexpr auto WAVE_BREAK_SECONDS   = TWEAK(2.5f);
static constexpr auto WAVE_BASE_ENEMIES    = TWEAK(12);
static constexpr auto WAVE_MORE_PER_WAVE   = TWEAK(6);
static constexpr auto PACK_SPACING         = TWEAK(0.12f);   /* seconds between spawns inside a pack */
static constexpr auto PACK_INTERVAL_START  = TWEAK(2.0f);    /* seconds between packs in wave 1 */
static constexpr auto PACK_INTERVAL_MIN    = TWEAK(0.8f);
static constexpr auto PACK_DISTANCE        = TWEAK(560.0f);  /* from the player: just off screen */
static constexpr auto SPAWN_MIN_DISTANCE   = TWEAK(380.0f);  /* from the player */
static constexpr auto STRAGGLERS           = TWEAK(3);       /* this few left: they hunt the player */
static constexpr auto WAVE_OVERRUN_SECONDS = TWEAK(30.0f);   /* after the last spawn, the next wave comes anyway */
static constexpr auto EARLY_OVERRUN_SECONDS = TWEAK(50.0f);  /* ... in waves 1-3 */
static constexpr auto EARLY_PACK_DELAY     = TWEAK(1.4f);    /* extra seconds between packs in wave 1 (half in wave 2) */
static constexpr auto MULTIPLIER_MAX       = TWEAK(30);
static constexpr auto KILLS_PER_MULTIPLIER = TWEAK(6);       /* plus one more for every third step up */
static constexpr auto BOMBS_START          = TWEAK(2);
static constexpr auto BOMBS_MAX            = TWEAK(4);
static constexpr auto BOMB_EVERY_WAVES     = TWEAK(3);       /* a bomb back for clearing this many waves */
static constexpr auto PLAYER_SPAWN         = TWEAK_POS(1200.0f, 750.0f);   /* where a run starts (the F4 panel drags it) */

static const char *const SAVE_NAME = "best";   /* the save-data blob with the best score */

void arena_build(GameState *gs)
{
    const float T = 40;   /* border thickness */
    struct { float x, y, hw, hh, rot; } walls[] = {
        { ARENA_W / 2, T / 2, ARENA_W / 2, T / 2, 0 },
        { ARENA_W / 2, ARENA_H - T / 2, ARENA_W / 2, T / 2, 0 },
        { T / 2, ARENA_H / 2, T / 2, ARENA_H / 2 - T, 0 },
        { ARENA_W - T / 2, ARENA_H / 2, T / 2, ARENA_H / 2 - T, 0 },
        { 620, 420, 140, 24, 0 },  { 1780, 420, 140, 24, 0 },
        { 620, 1080, 140, 24, 0 }, { 1780, 1080, 140, 24, 0 },
        { 1200, 300, 24, 96, 0 },  { 1200, 1200, 24, 96, 0 },
        { 880, 750, 44, 44, 0.785f }, { 1520, 750, 44, 44, 0.785f },
    };
    for (auto &w : walls) {
        Entity *e = entity_spawn(gs, ENTITY_WALL, v2_make(w.x, w.y));
        if (!e) return;
        e->half = v2_make(w.hw, w.hh);
        e->rot = w.rot;
    }
}

/* ---------------------------------------------------------------- save data: the best score */
typedef struct SaveBest { uint32_t magic, version; int32_t best, runs; } SaveBest;
enum { SAVE_MAGIC = 0x5453454Eu /* "NEST" */, SAVE_VERSION = 1 };

void best_load(GameState *gs, const PlatformAPI *pf)
{
    SaveBest sb;
    memset(&sb, 0, sizeof sb);
    int64_t n = pf->load(SAVE_NAME, &sb, sizeof sb);
    if (n < 0) return;   /* none yet, or corrupt (the host said which file): start from 0 */
    if (n != (int64_t)sizeof sb || sb.magic != SAVE_MAGIC || sb.version != SAVE_VERSION || sb.best < 0) {
        pf->log(LOG_WARN, "save data '%s' is not a NEON SWARM best score (%lld bytes): starting from 0", SAVE_NAME, (long long)n);
        return;
    }
    gs->best_score = gs->best_saved = sb.best;
}

/* Only a run a person played is a BEST: one the autopilot or F3 touched is a demo (gs->demo). */
void best_save(GameState *gs, const PlatformAPI *pf)
{
    if (gs->demo || gs->best_score <= gs->best_saved) return;
    SaveBest sb;
    memset(&sb, 0, sizeof sb);
    sb.magic = SAVE_MAGIC;
    sb.version = SAVE_VERSION;
    sb.best = gs->best_score;
    sb.runs = gs->runs;
    if (pf->save(SAVE_NAME, &sb, sizeof sb)) gs->best_saved = gs->best_score;
}

/* Points count only while the player is alive: bullets still flying after death score nothing. */
static int scoring(GameState *gs)
{
    Entity *pl = entity_get(gs, gs->player);
    return gs->mode == MODE_PLAY && pl && !pl->dead;
}

int score_add(GameState *gs, int points)
{
    if (!scoring(gs)) return 0;
    gs->score += points;
    if (!gs->demo && gs->score > gs->best_score) gs->best_score = gs->score;
    return 1;
}

void run_start(GameState *gs, const PlatformAPI *pf)
{
    thh_fixed_clear(&gs->handles.head);
    gs->particle_count = 0;
    memset(gs->popups, 0, sizeof gs->popups);
    arena_build(gs);
    v2 spawn = PLAYER_SPAWN;
    Entity *pl = entity_spawn(gs, ENTITY_PLAYER, spawn);
    pl->radius = player_radius();
    pl->hp = player_max_hp();
    gs->player = pl->self;
    gs->aim = v2_make(1, 0);
    gs->cam = gs->prev_cam = pl->pos;
    gs->wave = 0;
    gs->wave_phase = WAVE_BREAK;
    gs->wave_timer = 1.0f;
    gs->wave_total = gs->wave_killed = gs->enemies_left = 0;
    gs->pack_left = 0;
    gs->paused = 0;
    gs->best_before_run = gs->best_score;
    gs->score = 0;
    gs->kills = 0;
    gs->multiplier = 1;
    gs->tier = 1;
    gs->tier_flash = 0;
    gs->multiplier_kills = 0;
    gs->demo = gs->autopilot;
    gs->bombs = BOMBS_START;
    gs->bomb_flash = 0;
    for (int k = 0; k < (int)UPGRADE_COUNT; k++) gs->upgrade_time[k] = 0;
    gs->zoom = gs->prev_zoom = 1.0f;
    gs->trauma = 0;
    gs->hitstop = 0;
    gs->runs++;
    gs->mode = MODE_PLAY;
    gs->mode_time = 0;
    char f[64];
    snprintf(f, sizeof f, "\"run\":%d", gs->runs);
    pf->event("run_start", f);
    sfx_ui(SND_START);
}

void score_kill(GameState *gs, Entity *e, int points)
{
    gs->wave_killed++;
    int gained = points * gs->multiplier;
    if (!score_add(gs, gained)) return;
    gs->kills++;
    gs->multiplier_kills++;
    if (gs->multiplier_kills >= KILLS_PER_MULTIPLIER + gs->multiplier / 3 && gs->multiplier < MULTIPLIER_MAX) {
        gs->multiplier_kills = 0;
        gs->multiplier++;
        int tier = 1 + (gs->multiplier >= 5) + (gs->multiplier >= 10) + (gs->multiplier >= 20);
        if (tier > gs->tier) {   /* a new tier: its name on the HUD, and a weapon to go with it */
            gs->tier = tier;
            gs->tier_flash = 1.5f;
            Entity *pl = entity_get(gs, gs->player);
            if (pl) upgrade_drop(gs, v2_add(pl->pos, v2_scale(th_rng_unit_v2(&gs->rng), 90)), tier - 2);
        }
    }
    static const uint32_t COLORS[] = { 0xFFFFFFFF, 0xFF9BEAFF, 0xFFC08AFF, 0xFFF08AFF, 0xFF8A8AFF };
    fx_popup(gs, e->pos, gained, COLORS[e->type < 5 ? (uint32_t)e->type : 0u]);
}

static int enemies_alive(GameState *gs)
{
    int n = 0;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        n += !e->dead && (is_enemy(e->type) || e->type == ENTITY_SPAWNER);
    }
    return n;
}

/* What a wave is about. Early waves introduce one kind each; later ones cycle, every fifth a swarm. */
typedef enum WaveTheme { THEME_DRONES, THEME_SHOOTERS, THEME_DASHERS, THEME_BRUTES, THEME_SWARM, THEME_MIXED, THEME_CROWD } WaveTheme;
static const char *const THEME_NAMES[] = { "DRONES", "GUNNERS", "CHARGERS", "BRUTES", "SWARM", "EVERYTHING", "CROWD" };

static WaveTheme wave_theme(int wave)
{
    static const WaveTheme EARLY[6] = { THEME_DRONES, THEME_DRONES, THEME_SHOOTERS, THEME_CROWD, THEME_DASHERS, THEME_BRUTES };
    if (wave <= 5) return EARLY[wave < 0 ? 0 : wave];
    static const WaveTheme CYCLE[5] = { THEME_SWARM, THEME_MIXED, THEME_SHOOTERS, THEME_DASHERS, THEME_BRUTES };
    return CYCLE[wave % 5];
}
const char *wave_theme_name(int wave) { return THEME_NAMES[wave_theme(wave)]; }
float wave_break_seconds(void) { return WAVE_BREAK_SECONDS; }

static int wave_size(int wave)
{
    int n = WAVE_BASE_ENEMIES + WAVE_MORE_PER_WAVE * (wave - 1);
    return wave_theme(wave) == THEME_SWARM ? n * 3 / 2 : n;
}

/* One pack is one kind: a cloud of drones, a line of gunners, a pair of chargers, a brute and escort. */
static EntityType pack_kind(GameState *gs)
{
    int w = gs->wave;
    float r = th_rng_f01(&gs->rng);
    switch (wave_theme(w)) {
    case THEME_DRONES:   return ENTITY_DRONE;
    case THEME_CROWD:    return r < 0.3f ? ENTITY_SHOOTER : ENTITY_DRONE;
    case THEME_SWARM:    return r < 0.85f ? ENTITY_DRONE : ENTITY_DASHER;
    case THEME_SHOOTERS: return r < 0.55f ? ENTITY_SHOOTER : ENTITY_DRONE;
    case THEME_DASHERS:  return r < 0.5f ? ENTITY_DASHER : r < 0.8f ? ENTITY_DRONE : (w > 3 ? ENTITY_SHOOTER : ENTITY_DRONE);
    case THEME_BRUTES:   return r < 0.3f ? ENTITY_BRUTE : r < 0.65f ? ENTITY_DRONE : r < 0.85f ? ENTITY_SHOOTER : ENTITY_DASHER;
    default:             return r < 0.15f ? ENTITY_BRUTE : r < 0.4f ? ENTITY_SHOOTER : r < 0.65f ? ENTITY_DASHER : ENTITY_DRONE;
    }
}

static int pack_size(GameState *gs, EntityType kind)
{
    int grow = gs->wave / 3;
    switch (kind) {
    case ENTITY_DRONE:   return (gs->wave <= 1 ? 3 : 4) + grow + (int)th_rng_range(&gs->rng, 0, 3);
    case ENTITY_SHOOTER: return 2 + grow / 2;
    case ENTITY_DASHER:  return 2 + grow / 2;
    default:             return 1;
    }
}

static void spawn_marker(GameState *gs, v2 at, EntityType kind)
{
    Entity *s = entity_spawn(gs, ENTITY_SPAWNER, at);
    if (!s) return;
    s->spawn_type = kind;
    s->timer = spawn_warning_seconds();
    s->radius = 1;
}

/* A pack comes in just beyond the edge of the view, where the player can see the markers by turning. */
static void pack_begin(GameState *gs)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 centre = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    v2 at = centre;
    for (int tries = 0; tries < 40; tries++) {
        at = v2_add(centre, v2_scale(th_rng_unit_v2(&gs->rng), PACK_DISTANCE * th_rng_range(&gs->rng, 0.8f, 1.3f)));
        at.x = th_clampf(at.x, 140, ARENA_W - 140);
        at.y = th_clampf(at.y, 140, ARENA_H - 140);
        if (v2_dist(at, centre) > SPAWN_MIN_DISTANCE && !world_blocked(gs, at, 60)) break;
    }
    gs->pack_at = at;
    EntityType kind = pack_kind(gs);
    gs->pack_left = pack_size(gs, kind);
    if (gs->pack_left > gs->wave_left_to_spawn) gs->pack_left = gs->wave_left_to_spawn;
    gs->pack_type = kind;
}

static void pack_spawn_one(GameState *gs)
{
    v2 at = gs->pack_at;
    for (int tries = 0; tries < 12; tries++) {
        at = v2_add(gs->pack_at, v2_scale(th_rng_unit_v2(&gs->rng), th_rng_range(&gs->rng, 0, 110)));
        Entity *pl = entity_get(gs, gs->player);
        if ((!pl || v2_dist(at, pl->pos) > SPAWN_MIN_DISTANCE * 0.8f) && !world_blocked(gs, at, 30)) break;
    }
    spawn_marker(gs, at, (EntityType)gs->pack_type);
    gs->pack_left--;
    gs->wave_left_to_spawn--;
}

/* The last few of a wave come for the player instead of keeping their distance. */
int stragglers_hunt(GameState *gs)
{
    return gs->wave_phase == WAVE_FIGHTING && gs->enemies_left > 0 && gs->enemies_left <= STRAGGLERS;
}

static void wave_begin(GameState *gs, const PlatformAPI *pf)
{
    gs->wave++;
    gs->wave_phase = WAVE_SPAWNING;
    gs->wave_left_to_spawn = wave_size(gs->wave);
    gs->wave_total = gs->wave_left_to_spawn + enemies_alive(gs);   /* an overrun wave keeps its survivors */
    gs->wave_killed = 0;
    gs->wave_clock = 0;
    gs->pack_left = 0;
    gs->wave_timer = 0;
    char f[160];
    snprintf(f, sizeof f, "\"wave\":%d,\"enemies\":%d,\"theme\":\"%s\",\"score\":%d", gs->wave, gs->wave_left_to_spawn,
             THEME_NAMES[wave_theme(gs->wave)], gs->score);
    pf->event("wave_start", f);
    sfx_ui(SND_WAVE_START);
}

/* F3, a stress test: a swarm of every kind at once. */
void wave_swarm(GameState *gs)
{
    static const EntityType KINDS[] = { ENTITY_DRONE, ENTITY_DRONE, ENTITY_DRONE, ENTITY_SHOOTER, ENTITY_DASHER, ENTITY_BRUTE };
    for (int i = 0; i < 90; i++) {
        v2 at = v2_make(th_rng_range(&gs->rng, 100, ARENA_W - 100), th_rng_range(&gs->rng, 100, ARENA_H - 100));
        if (world_blocked(gs, at, 40)) continue;
        Entity *s = entity_spawn(gs, ENTITY_SPAWNER, at);
        if (!s) return;
        s->spawn_type = KINDS[i % 6];
        s->timer = spawn_warning_seconds();
        s->radius = 1;
    }
    gs->wave_phase = WAVE_FIGHTING;
}

void waves_update(GameState *gs, float dt, const PlatformAPI *pf)
{
    gs->wave_timer -= dt;
    gs->wave_clock += dt;
    gs->enemies_left = enemies_alive(gs) + (gs->wave_phase == WAVE_SPAWNING ? gs->wave_left_to_spawn : 0);
    if (gs->mode != MODE_PLAY) return;   /* after death the world moves on, the waves do not */
    if (gs->wave_phase == WAVE_BREAK) {
        if (gs->wave_timer <= 0) wave_begin(gs, pf);
    } else if (gs->wave_phase == WAVE_SPAWNING) {
        if (gs->wave_timer > 0) return;
        if (gs->pack_left <= 0) pack_begin(gs);
        pack_spawn_one(gs);
        if (gs->pack_left > 0) gs->wave_timer = PACK_SPACING;
        else gs->wave_timer = th_maxf(PACK_INTERVAL_MIN, PACK_INTERVAL_START - 0.15f * (gs->wave - 1))
                            + (gs->wave <= 1 ? EARLY_PACK_DELAY : gs->wave == 2 ? EARLY_PACK_DELAY * 0.5f : 0.0f);
        if (gs->wave_left_to_spawn <= 0) { gs->wave_phase = WAVE_FIGHTING; gs->wave_clock = 0; }
    } else if (gs->enemies_left == 0) {
        int bonus = 50 * gs->wave;
        score_add(gs, bonus);
        char f[96];
        snprintf(f, sizeof f, "\"wave\":%d,\"bonus\":%d,\"score\":%d", gs->wave, bonus, gs->score);
        pf->event("wave_cleared", f);
        gs->wave_phase = WAVE_BREAK;
        gs->wave_timer = WAVE_BREAK_SECONDS;
        if (gs->wave % BOMB_EVERY_WAVES == 0 && gs->bombs < BOMBS_MAX) gs->bombs++;
    } else if (gs->wave_clock > (gs->wave <= 3 ? EARLY_OVERRUN_SECONDS : WAVE_OVERRUN_SECONDS)) {
        wave_begin(gs, pf);   /* too slow: the next wave joins the survivors */
    }
}

/* The number the HUD shows: between waves, the one about to start (as the banner does). */
int wave_shown(GameState *gs)
{
    return gs->wave_phase == WAVE_BREAK ? gs->wave + 1 : gs->wave > 1 ? gs->wave : 1;
}
