/* waves.cpp - the arena, the run, and a flow that never stops: packs of one enemy kind arriving
   together away from the ship, as many as keep the arena at a population that climbs with the run's
   time; every 30 s a new phase brings in a new kind or a harder mix, with no pause between. */
#include "game.h"

static constexpr auto WAVE_BREAK_SECONDS   = TWEAK(1.0f);    /* before the first phase */
static constexpr auto PHASE_SECONDS        = TWEAK(30.0f);   /* each phase this long, then the next, no pause */
static constexpr auto FLOW_START           = TWEAK(10.0f);   /* enemies the flow keeps alive at the start ... */
static constexpr auto FLOW_AT_1MIN         = TWEAK(50.0f);   /* ... at one minute ... */
static constexpr auto FLOW_AT_3MIN         = TWEAK(200.0f);  /* ... at three ... */
static constexpr auto FLOW_LATE_PER_MIN    = TWEAK(50.0f);   /* ... and this many more each minute after */
static constexpr auto FLOW_MAX             = TWEAK(400.0f);
static constexpr auto FLOW_TRICKLE         = TWEAK(1.0f);    /* enemies a second even when the target is met */
static constexpr auto FLOW_CATCH_UP        = TWEAK(0.5f);   /* spawns a second per enemy short of the target */
static constexpr auto WELLS_MAX            = TWEAK(3);       /* alive at once */
static constexpr auto SNAKES_MAX           = TWEAK(5);
static constexpr auto GUNNERS_MAX          = TWEAK(10);      /* their shots are for pressure, not a bullet hell */
static constexpr auto PACK_SPACING         = TWEAK(0.06f);   /* seconds between spawns inside a pack */
static constexpr auto PACK_INTERVAL_MIN    = TWEAK(0.2f);   /* seconds between packs */
static constexpr auto PACK_DISTANCE        = TWEAK(560.0f);  /* from the player: just off screen */
static constexpr auto SPAWN_MIN_DISTANCE   = TWEAK(380.0f);  /* from the player */
static constexpr auto MULTIPLIER_MAX       = TWEAK(30);
static constexpr auto GEMS_PER_MULTIPLIER  = TWEAK(5);       /* geoms per step up, plus one more for every third step */
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
    gs->run_time = 0;
    gs->spawn_budget = 0;
    gs->alive_peak = gs->alive_now = 0;
    gs->banner_count = 0;
    gs->banner_time = 0;
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
    fx_popup(gs, e->pos, gained, enemy_info(e->type).color | 0x40404000u);
}

/* Geoms feed the multiplier (kills only drop them): each step up takes a few more than the last. */
void multiplier_feed(GameState *gs)
{
    if (!scoring(gs)) return;
    gs->multiplier_kills++;
    if (gs->multiplier_kills < GEMS_PER_MULTIPLIER + gs->multiplier / 3 || gs->multiplier >= MULTIPLIER_MAX) return;
    gs->multiplier_kills = 0;
    gs->multiplier++;
    int tier = 1 + (gs->multiplier >= 5) + (gs->multiplier >= 10) + (gs->multiplier >= 20);
    if (tier > gs->tier) {   /* a new tier: its banner, and a weapon to go with it */
        gs->tier = tier;
        gs->tier_flash = 1.5f;
        banner_push(gs, BANNER_TIER, tier);
        Entity *pl = entity_get(gs, gs->player);
        if (pl) upgrade_drop(gs, v2_add(pl->pos, v2_scale(th_rng_unit_v2(&gs->rng), 90)), tier - 2);
    }
}

/* Banners wait their turn: the queue drops the newest when full (the HUD's own numbers still say it). */
void banner_push(GameState *gs, BannerKind kind, int value)
{
    if (gs->banner_count >= MAX_BANNERS) return;
    gs->banner_kind[gs->banner_count] = kind;
    gs->banner_value[gs->banner_count] = value;
    if (gs->banner_count == 0) gs->banner_time = 0;
    gs->banner_count++;
}

/* Enemies alive (a snake counts once: its body is not counted), and the warning markers in *markers. */
static int enemies_alive(GameState *gs, int *markers)
{
    int n = 0, m = 0;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead) continue;
        n += is_enemy(e->type) && e->type != ENTITY_SNAKE_BODY;
        m += e->type == ENTITY_SPAWNER;
    }
    *markers = m;
    return n;
}

static int count_of(GameState *gs, EntityType type)
{
    int n = 0;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        n += !e->dead && (e->type == type || (e->type == ENTITY_SPAWNER && e->spawn_type == type));
    }
    return n;
}

/* A run is a continuous flow of enemies in escalating phases: every PHASE_SECONDS a new phase brings a new
   kind or a harder mix, and the population the flow keeps up (flow_target) rises with the run's time. There
   are no pauses: enemies keep coming while the player lives. */
typedef enum WaveTheme { THEME_DRONES, THEME_WANDERERS, THEME_PINWHEELS, THEME_SHOOTERS, THEME_SNAKES, THEME_WELLS,
                         THEME_DASHERS, THEME_BRUTES, THEME_SWARM, THEME_MIXED } WaveTheme;
static const char *const THEME_NAMES[] = { "DRONES", "WANDERERS", "PINWHEELS", "GUNNERS", "SNAKES", "GRAVITY WELLS",
                                           "CHARGERS", "BRUTES", "SWARM", "EVERYTHING" };

static WaveTheme wave_theme(int wave)
{
    static const WaveTheme EARLY[9] = { THEME_DRONES, THEME_DRONES, THEME_WANDERERS, THEME_PINWHEELS, THEME_SHOOTERS,
                                        THEME_SNAKES, THEME_WELLS, THEME_DASHERS, THEME_BRUTES };
    if (wave <= 8) return EARLY[wave < 0 ? 0 : wave];
    static const WaveTheme CYCLE[4] = { THEME_SWARM, THEME_MIXED, THEME_WELLS, THEME_SNAKES };
    return CYCLE[wave % 4];
}
const char *wave_theme_name(int wave) { return THEME_NAMES[wave_theme(wave)]; }
float wave_break_seconds(void) { return WAVE_BREAK_SECONDS; }
float phase_seconds(void) { return PHASE_SECONDS; }

/* How many enemies the flow keeps alive at time t (seconds into the run): a teaching start, then a climb. */
static float flow_target(float t)
{
    if (t < 60) return FLOW_START + (FLOW_AT_1MIN - FLOW_START) * t / 60.0f;
    if (t < 180) return FLOW_AT_1MIN + (FLOW_AT_3MIN - FLOW_AT_1MIN) * (t - 60) / 120.0f;
    return th_minf(FLOW_MAX, FLOW_AT_3MIN + FLOW_LATE_PER_MIN * (t - 180) / 60.0f);
}

/* One pack is one kind. The phase's own kind comes most often; the kinds met before stay in the mix. */
static EntityType pack_kind(GameState *gs)
{
    static const EntityType OF_THEME[] = { ENTITY_DRONE, ENTITY_WANDERER, ENTITY_PINWHEEL, ENTITY_SHOOTER, ENTITY_SNAKE,
                                           ENTITY_WELL, ENTITY_DASHER, ENTITY_BRUTE, ENTITY_DRONE, ENTITY_DRONE };
    int w = gs->wave;
    WaveTheme theme = wave_theme(w);
    float r = th_rng_f01(&gs->rng);
    if (theme != THEME_MIXED && r < 0.4f) {
        EntityType k = OF_THEME[theme];
        if (k == ENTITY_WELL && count_of(gs, ENTITY_WELL) >= WELLS_MAX) return ENTITY_PINWHEEL;
        if (k == ENTITY_SNAKE && count_of(gs, ENTITY_SNAKE) >= SNAKES_MAX) return ENTITY_WANDERER;
        if (k == ENTITY_SHOOTER && count_of(gs, ENTITY_SHOOTER) >= GUNNERS_MAX) return ENTITY_DRONE;
        return k;
    }
    /* the mix: every kind met so far, weighted; wells and snakes rare */
    static const struct { EntityType kind; int from_wave; float weight; } MIX[] = {
        { ENTITY_DRONE, 1, 3.0f }, { ENTITY_WANDERER, 3, 2.5f }, { ENTITY_PINWHEEL, 4, 3.0f }, { ENTITY_SHOOTER, 5, 0.8f },
        { ENTITY_SNAKE, 6, 0.25f }, { ENTITY_WELL, 7, 0.12f }, { ENTITY_DASHER, 8, 1.0f }, { ENTITY_BRUTE, 9, 0.5f },
    };
    float total = 0;
    for (auto &m : MIX) if (w >= m.from_wave) total += m.weight;
    float pick = th_rng_f01(&gs->rng) * total;
    for (auto &m : MIX) {
        if (w < m.from_wave) continue;
        pick -= m.weight;
        if (pick > 0) continue;
        if (m.kind == ENTITY_WELL && count_of(gs, ENTITY_WELL) >= WELLS_MAX) return ENTITY_PINWHEEL;
        if (m.kind == ENTITY_SNAKE && count_of(gs, ENTITY_SNAKE) >= SNAKES_MAX) return ENTITY_WANDERER;
        if (m.kind == ENTITY_SHOOTER && count_of(gs, ENTITY_SHOOTER) >= GUNNERS_MAX) return ENTITY_DRONE;
        return m.kind;
    }
    return ENTITY_DRONE;
}

static int pack_size(GameState *gs, EntityType kind)
{
    int grow = (int)(gs->run_time / 60.0f);
    switch (kind) {
    case ENTITY_DRONE:    return 4 + grow + (int)th_rng_range(&gs->rng, 0, 4);
    case ENTITY_WANDERER: return 3 + grow + (int)th_rng_range(&gs->rng, 0, 3);
    case ENTITY_PINWHEEL: return 3 + grow / 2 + (int)th_rng_range(&gs->rng, 0, 3);
    case ENTITY_SHOOTER:  return 2 + grow / 3;
    case ENTITY_DASHER:   return 2 + grow / 3;
    default:              return 1;
    }
}

static void spawn_marker(GameState *gs, v2 at, EntityType kind, float delay)
{
    Entity *s = entity_spawn(gs, ENTITY_SPAWNER, at);
    if (!s) return;
    s->spawn_type = kind;
    s->timer = spawn_warning_seconds() + delay;
    s->radius = 1;
}

/* A pack comes in away from the ship (anywhere in the arena once the view shows it all), its members
   a little apart in time. */
static int pack_spawn(GameState *gs)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 centre = pl ? pl->pos : v2_make(ARENA_W / 2, ARENA_H / 2);
    v2 at = centre;
    float reach = gs->run_time < 40 ? PACK_DISTANCE : PACK_DISTANCE * 1.6f;
    for (int tries = 0; tries < 40; tries++) {
        at = v2_add(centre, v2_scale(th_rng_unit_v2(&gs->rng), reach * th_rng_range(&gs->rng, 0.8f, 1.3f)));
        at.x = th_clampf(at.x, 140, ARENA_W - 140);
        at.y = th_clampf(at.y, 140, ARENA_H - 140);
        if (v2_dist(at, centre) > SPAWN_MIN_DISTANCE && !world_blocked(gs, at, 60)) break;
    }
    gs->pack_at = at;
    EntityType kind = pack_kind(gs);
    gs->pack_type = kind;
    int n = pack_size(gs, kind);
    for (int i = 0; i < n; i++) {
        v2 p = at;
        for (int tries = 0; tries < 12; tries++) {
            p = v2_add(at, v2_scale(th_rng_unit_v2(&gs->rng), th_rng_range(&gs->rng, 0, 40.0f + 12.0f * n)));
            if ((!pl || v2_dist(p, pl->pos) > SPAWN_MIN_DISTANCE * 0.8f) && !world_blocked(gs, p, 30)) break;
        }
        spawn_marker(gs, p, kind, i * PACK_SPACING);
    }
    return kind == ENTITY_SNAKE ? 3 : kind == ENTITY_WELL ? 4 : kind == ENTITY_BRUTE ? 2 : n;
}

/* Continuous play has no stragglers to hunt. */
int stragglers_hunt(GameState *gs)
{
    (void)gs;
    return 0;
}

static void wave_begin(GameState *gs, const PlatformAPI *pf)
{
    if (gs->wave > 0) {   /* the phase survived: its bonus */
        int bonus = 50 * gs->wave;
        score_add(gs, bonus);
        char f[96];
        snprintf(f, sizeof f, "\"wave\":%d,\"bonus\":%d,\"score\":%d", gs->wave, bonus, gs->score);
        pf->event("wave_cleared", f);
        if (gs->wave % BOMB_EVERY_WAVES == 0 && gs->bombs < BOMBS_MAX) { gs->bombs++; banner_push(gs, BANNER_BOMB, gs->bombs); }
    }
    gs->wave++;
    gs->wave_phase = WAVE_SPAWNING;
    gs->wave_total = gs->alive_now;
    gs->wave_killed = 0;
    gs->wave_clock = 0;
    gs->wave_timer = 0;
    banner_push(gs, BANNER_PHASE, gs->wave);
    char f[160];
    snprintf(f, sizeof f, "\"wave\":%d,\"enemies\":%d,\"theme\":\"%s\",\"score\":%d,\"alive\":%d", gs->wave, (int)flow_target(gs->run_time),
             THEME_NAMES[wave_theme(gs->wave)], gs->score, gs->alive_now);
    pf->event("wave_start", f);
    sfx_ui(SND_WAVE_START);
}

/* F3, a stress test: a swarm of every kind at once. */
void wave_swarm(GameState *gs)
{
    static const EntityType KINDS[] = { ENTITY_DRONE, ENTITY_WANDERER, ENTITY_PINWHEEL, ENTITY_SHOOTER, ENTITY_DASHER, ENTITY_BRUTE };
    for (int i = 0; i < 90; i++) {
        v2 at = v2_make(th_rng_range(&gs->rng, 100, ARENA_W - 100), th_rng_range(&gs->rng, 100, ARENA_H - 100));
        if (world_blocked(gs, at, 40)) continue;
        spawn_marker(gs, at, KINDS[i % 6], 0);
    }
}

void waves_update(GameState *gs, float dt, const PlatformAPI *pf)
{
    gs->wave_timer -= dt;
    gs->wave_clock += dt;
    int markers = 0;
    gs->alive_now = enemies_alive(gs, &markers);
    gs->enemies_left = gs->alive_now + markers;
    if (gs->alive_now > gs->alive_peak) gs->alive_peak = gs->alive_now;
    if (gs->mode != MODE_PLAY) return;   /* after death the world moves on, the flow does not */
    if (gs->wave_phase == WAVE_BREAK) {   /* only the run's first second */
        if (gs->wave_timer <= 0) wave_begin(gs, pf);
        return;
    }
    gs->run_time += dt;
    if (gs->run_time >= PHASE_SECONDS * (float)gs->wave) wave_begin(gs, pf);
    /* the flow: a steady trickle, and more while the arena holds fewer than the target */
    float target = flow_target(gs->run_time);
    int owed = gs->alive_now + markers;
    float rate = FLOW_TRICKLE + th_maxf(0, target - (float)owed) * FLOW_CATCH_UP;
    if ((float)owed > target * 1.2f) rate = 0;
    gs->spawn_budget = th_minf(gs->spawn_budget + rate * dt, 40.0f);
    if (gs->spawn_budget >= 1.0f && gs->wave_timer <= 0) {
        gs->spawn_budget -= (float)pack_spawn(gs);
        gs->wave_timer = PACK_INTERVAL_MIN;
    }
}

/* The number the HUD shows: between waves, the one about to start (as the banner does). */
int wave_shown(GameState *gs)
{
    return gs->wave_phase == WAVE_BREAK ? gs->wave + 1 : gs->wave > 1 ? gs->wave : 1;
}
