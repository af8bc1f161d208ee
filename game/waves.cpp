/* waves.cpp - the arena, the run, and difficulty that rises wave by wave. */

static constexpr auto WAVE_BREAK_SECONDS   = TWEAK(2.5f);
static constexpr auto WAVE_BASE_ENEMIES    = TWEAK(6);
static constexpr auto WAVE_MORE_PER_WAVE   = TWEAK(4);
static constexpr auto SPAWN_INTERVAL_START = TWEAK(0.55f);   /* seconds between spawns in wave 1 */
static constexpr auto SPAWN_INTERVAL_MIN   = TWEAK(0.18f);
static constexpr auto SPAWN_MIN_DISTANCE   = TWEAK(380.0f);  /* from the player */
static constexpr auto MULTIPLIER_MAX       = TWEAK(8);
static constexpr auto KILLS_PER_MULTIPLIER = TWEAK(6);

static void arena_build(GameState *gs)
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

static void run_start(GameState *gs, const PlatformAPI *pf)
{
    thh_clear(&gs->handles);
    gs->particle_count = 0;
    memset(gs->popups, 0, sizeof gs->popups);
    arena_build(gs);
    Entity *pl = entity_spawn(gs, ENTITY_PLAYER, v2_make(ARENA_W / 2, ARENA_H / 2));
    pl->radius = PLAYER_RADIUS;
    pl->hp = PLAYER_HP;
    gs->player = pl->self;
    gs->aim = v2_make(1, 0);
    gs->cam = gs->prev_cam = pl->pos;
    gs->wave = 0;
    gs->wave_phase = WAVE_BREAK;
    gs->wave_timer = 1.0f;
    gs->score = 0;
    gs->kills = 0;
    gs->multiplier = 1;
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

static void score_kill(GameState *gs, Entity *e, int points)
{
    int gained = points * gs->multiplier;
    gs->score += gained;
    gs->kills++;
    if (gs->kills % KILLS_PER_MULTIPLIER == 0 && gs->multiplier < MULTIPLIER_MAX) gs->multiplier++;
    static const uint32_t COLORS[] = { 0xFFFFFFFF, 0xFF9BEAFF, 0xFFC08AFF, 0xFFF08AFF, 0xFF8A8AFF };
    fx_popup(gs, e->pos, gained, COLORS[e->type < 5 ? e->type : 0]);
}

static int enemies_alive(GameState *gs)
{
    int n = 0;
    for (uint32_t i = 0; i < thh_count(&gs->handles); i++) {
        Entity *e = &gs->entities[thh_index(thh_at(&gs->handles, i))];
        n += !e->dead && (is_enemy(e->type) || e->type == ENTITY_SPAWNER);
    }
    return n;
}

static EntityType wave_pick_enemy(GameState *gs)
{
    int w = gs->wave;
    float shooter = w >= 2 ? 0.10f + 0.03f * w : 0;
    float dasher = w >= 3 ? 0.08f + 0.03f * w : 0;
    float brute = w >= 4 ? 0.04f + 0.01f * w : 0;
    float r = th_rng_f01(&gs->rng);
    if (r < brute) return ENTITY_BRUTE;
    if (r < brute + dasher) return ENTITY_DASHER;
    if (r < brute + dasher + shooter) return ENTITY_SHOOTER;
    return ENTITY_DRONE;
}

static void wave_spawn_one(GameState *gs)
{
    Entity *pl = entity_get(gs, gs->player);
    v2 at = v2_make(ARENA_W / 2, ARENA_H / 2);
    for (int tries = 0; tries < 30; tries++) {
        at = v2_make(th_rng_range(&gs->rng, 100, ARENA_W - 100), th_rng_range(&gs->rng, 100, ARENA_H - 100));
        if ((!pl || v2_dist(at, pl->pos) > SPAWN_MIN_DISTANCE) && !world_blocked(gs, at, 40)) break;
    }
    Entity *s = entity_spawn(gs, ENTITY_SPAWNER, at);
    if (!s) return;
    s->spawn_type = wave_pick_enemy(gs);
    s->timer = SPAWN_WARNING;
    s->radius = 1;
}

/* F3, a stress test: a swarm of every kind at once. */
static void wave_swarm(GameState *gs)
{
    static const EntityType KINDS[] = { ENTITY_DRONE, ENTITY_DRONE, ENTITY_DRONE, ENTITY_SHOOTER, ENTITY_DASHER, ENTITY_BRUTE };
    for (int i = 0; i < 90; i++) {
        v2 at = v2_make(th_rng_range(&gs->rng, 100, ARENA_W - 100), th_rng_range(&gs->rng, 100, ARENA_H - 100));
        if (world_blocked(gs, at, 40)) continue;
        Entity *s = entity_spawn(gs, ENTITY_SPAWNER, at);
        if (!s) return;
        s->spawn_type = KINDS[i % 6];
        s->timer = SPAWN_WARNING;
        s->radius = 1;
    }
    gs->wave_phase = WAVE_FIGHTING;
}

static void waves_update(GameState *gs, float dt, const PlatformAPI *pf)
{
    gs->wave_timer -= dt;
    if (gs->wave_phase == WAVE_BREAK) {
        if (gs->wave_timer > 0) return;
        gs->wave++;
        gs->wave_phase = WAVE_SPAWNING;
        gs->wave_left_to_spawn = WAVE_BASE_ENEMIES + WAVE_MORE_PER_WAVE * (gs->wave - 1);
        gs->wave_timer = 0;
        char f[96];
        snprintf(f, sizeof f, "\"wave\":%d,\"enemies\":%d,\"score\":%d", gs->wave, gs->wave_left_to_spawn, gs->score);
        pf->event("wave_start", f);
        sfx_ui(SND_WAVE_START);
    } else if (gs->wave_phase == WAVE_SPAWNING) {
        if (gs->wave_timer > 0) return;
        wave_spawn_one(gs);
        gs->wave_timer = th_maxf(SPAWN_INTERVAL_MIN, SPAWN_INTERVAL_START - 0.04f * gs->wave);
        if (--gs->wave_left_to_spawn <= 0) gs->wave_phase = WAVE_FIGHTING;
    } else if (enemies_alive(gs) == 0) {
        gs->wave_phase = WAVE_BREAK;
        gs->wave_timer = WAVE_BREAK_SECONDS;
        gs->score += 50 * gs->wave;
    }
}
