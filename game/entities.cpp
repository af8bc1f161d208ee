/* entities.cpp - every entity kind: its tuning, its step, its look (how enemies move: enemies.cpp). The per-type table at the bottom
   is what persistent entities index with their integer `type`. */
#include "game.h"

/* ---------------------------------------------------------------- tuning */
static constexpr auto PLAYER_SPEED        = TWEAK(340.0f);   /* pixels per second */
static constexpr auto PLAYER_ACCEL        = TWEAK(3200.0f);
static constexpr auto PLAYER_RADIUS       = TWEAK(15.0f);
static constexpr auto PLAYER_HP           = TWEAK(5.0f);
static constexpr auto PLAYER_INVULNERABLE = TWEAK(1.3f);     /* seconds after a hit */
static constexpr auto FIRE_INTERVAL       = TWEAK(0.10f);    /* seconds between shots */
static constexpr auto FIRE_SPREAD         = TWEAK(0.05f);    /* radians of random spread */
static constexpr auto BULLET_SPEED        = TWEAK(1100.0f);
static constexpr auto BULLET_DAMAGE       = TWEAK(1.0f);
static constexpr auto DASH_SPEED          = TWEAK(950.0f);
static constexpr auto DASH_SECONDS        = TWEAK(0.14f);
static constexpr auto DASH_COOLDOWN       = TWEAK(0.8f);

static constexpr auto DRONE_HP            = TWEAK(1.0f);
static constexpr auto SHOOTER_HP          = TWEAK(3.0f);
static constexpr auto DASHER_HP           = TWEAK(2.0f);
static constexpr auto BRUTE_HP            = TWEAK(14.0f);
static constexpr auto BRUTE_SPLITS_INTO   = TWEAK(3);        /* drones */
static constexpr auto WANDERER_HP         = TWEAK(1.0f);
static constexpr auto SNAKE_HP            = TWEAK(4.0f);     /* the head's; the body takes no damage */
static constexpr auto SNAKE_SEGMENTS      = TWEAK(12);
static constexpr auto PINWHEEL_HP         = TWEAK(2.0f);
static constexpr auto PINWHEEL_SPLITS_INTO = TWEAK(3);       /* small fast ones */
static constexpr auto WELL_HP             = TWEAK(16.0f);
static constexpr auto WELL_BURST_FED      = TWEAK(10.0f);    /* enemies a well swallows before it bursts */
static constexpr auto WELL_BURST_SWARM    = TWEAK(14);       /* small pinwheels out of a burst well */
static constexpr auto WELL_PULL_RADIUS    = TWEAK(430.0f);   /* what a well pulls, this close */
static constexpr auto WELL_BULLET_PULL    = TWEAK(1500.0f);  /* px/s^2 on bullets at the well's rim, more nearer */
static constexpr auto EXPLOSION_SPARKS    = TWEAK(44);       /* sparks of an enemy's death, in its colour (big ones x3) */

static constexpr auto GEM_MAGNET_RANGE    = TWEAK(170.0f);
static constexpr auto PICKUP_SECONDS      = TWEAK(9.0f);
static constexpr auto HEART_DROP_CHANCE   = TWEAK(0.006f);
static constexpr auto HEART_CHANCE_PER_HIT = TWEAK(0.006f);  /* more hearts while hurt: per heart missing */
static constexpr auto UPGRADE_DROP_CHANCE = TWEAK(0.012f);   /* a weapon pickup from a kill */
static constexpr auto UPGRADE_SECONDS     = TWEAK(14.0f);    /* how long an upgrade lasts */
static constexpr auto RAPID_FIRE_FACTOR   = TWEAK(0.55f);    /* shot interval with RAPID */
static constexpr auto SPREAD_ANGLE        = TWEAK(0.17f);    /* radians between the three SPREAD shots */
static constexpr auto PIERCE_HITS         = TWEAK(3);        /* enemies a PIERCE shot goes through */
static constexpr auto EARLY_INVULNERABLE  = TWEAK(2.6f);     /* seconds after a hit in waves 1-2 */
static constexpr auto SPAWN_WARNING       = TWEAK(0.9f);     /* seconds a spawn marker shows before the enemy */
static constexpr auto KILL_SHAKE          = TWEAK(0.3f);     /* trauma a kill adds (a brute's is doubled) */

static constexpr auto PLAYER_BULLET_COLOR = TWEAK_COLOR(0x9FF4FFFF);
static constexpr auto DRONE_COLOR         = TWEAK_COLOR(0xFF4FD8FF);
static constexpr auto SHOOTER_COLOR       = TWEAK_COLOR(0xFF9A3CFF);
static constexpr auto DASHER_COLOR        = TWEAK_COLOR(0xFFE14AFF);
static constexpr auto BRUTE_COLOR         = TWEAK_COLOR(0xFF3B3BFF);
static constexpr auto WANDERER_COLOR      = TWEAK_COLOR(0x5CFF7AFF);
static constexpr auto SNAKE_COLOR         = TWEAK_COLOR(0x4FA8FFFF);
static constexpr auto PINWHEEL_COLOR      = TWEAK_COLOR(0xB46CFFFF);
static constexpr auto WELL_COLOR          = TWEAK_COLOR(0xFF6A3CFF);
static constexpr auto ENEMY_BULLET_COLOR  = TWEAK_COLOR(0xFF5A3CFF);

/* the tuning other pieces read (game.h) */
float player_radius(void) { return PLAYER_RADIUS; }
float upgrade_seconds(void) { return UPGRADE_SECONDS; }
float player_max_hp(void) { return PLAYER_HP; }
float bullet_speed(void) { return BULLET_SPEED; }
float spawn_warning_seconds(void) { return SPAWN_WARNING; }
float well_pull_radius(void) { return WELL_PULL_RADIUS; }

/* What each enemy kind is worth, how big and tough it starts, and its colour (its sparks, ring and marker). */
EnemyInfo enemy_info(uint32_t type)
{
    switch (type) {
    case ENTITY_DRONE:      return { 10, 12, DRONE_HP, DRONE_COLOR };
    case ENTITY_SHOOTER:    return { 30, 17, SHOOTER_HP, SHOOTER_COLOR };
    case ENTITY_DASHER:     return { 25, 15, DASHER_HP, DASHER_COLOR };
    case ENTITY_BRUTE:      return { 100, 30, BRUTE_HP, BRUTE_COLOR };
    case ENTITY_WANDERER:   return { 40, 13, WANDERER_HP, WANDERER_COLOR };
    case ENTITY_SNAKE:      return { 150, 16, SNAKE_HP, SNAKE_COLOR };
    case ENTITY_SNAKE_BODY: return { 0, 11, 1e9f, SNAKE_COLOR };
    case ENTITY_PINWHEEL:   return { 25, 16, PINWHEEL_HP, PINWHEEL_COLOR };
    case ENTITY_WELL:       return { 250, 24, WELL_HP, WELL_COLOR };
    default:                return { 0, 8, 1, 0xFFFFFFFF };
    }
}

/* ---------------------------------------------------------------- helpers */
Entity *entity_get(GameState *gs, thh_handle h)
{
    return thh_fixed_valid(&gs->handles.head, h) ? &gs->entities[thh_index(h)] : NULL;
}

Entity *entity_spawn(GameState *gs, EntityType type, v2 pos)
{
    thh_handle h = thh_fixed_alloc(&gs->handles.head);
    if (!h.value) return NULL;
    Entity *e = &gs->entities[thh_index(h)];
    *e = Entity();   /* zero, and the default member initializers of state.h */
    e->type = type;
    e->self = h;
    e->pos = e->prev_pos = pos;
    return e;
}

int is_enemy(uint32_t type)
{
    return type == ENTITY_DRONE || type == ENTITY_SHOOTER || type == ENTITY_DASHER || type == ENTITY_BRUTE ||
           type == ENTITY_WANDERER || type == ENTITY_SNAKE || type == ENTITY_SNAKE_BODY || type == ENTITY_PINWHEEL ||
           type == ENTITY_WELL;
}

/* A snake: its head, and SNAKE_SEGMENTS segments each following the one ahead. */
static void snake_spawn(GameState *gs, Entity *head)
{
    v2 back = v2_scale(th_rng_unit_v2(&gs->rng), -1.0f);
    uint32_t ahead = head->self.value;
    for (int i = 1; i <= SNAKE_SEGMENTS; i++) {
        Entity *b = entity_spawn(gs, ENTITY_SNAKE_BODY, v2_add(head->pos, v2_scale(back, 14.0f * i)));
        if (!b) return;
        b->radius = enemy_info(ENTITY_SNAKE_BODY).radius * (1.0f - 0.03f * i);
        b->hp = 1e9f;
        b->leader = ahead;
        b->phase = i;
        ahead = b->self.value;
    }
}

/* A pinwheel's small fast ones, or a burst well's swarm: n small pinwheels flung out of at. */
static void pinwheels_fling(GameState *gs, v2 at, int n, float speed)
{
    for (int i = 0; i < n; i++) {
        v2 d = v2_from_angle(i * 6.2831853f / n + th_rng_range(&gs->rng, -0.2f, 0.2f));
        Entity *p = entity_spawn(gs, ENTITY_PINWHEEL, v2_add(at, v2_scale(d, 18)));
        if (!p) return;
        p->phase = 1;
        p->radius = 9;
        p->hp = 1;
        p->vel = v2_scale(d, speed);
        p->timer = th_rng_range(&gs->rng, 0.2f, 0.6f);
    }
}

/* An explosion in the enemy's colour: white-hot sparks cooling to it, a ring, and the grid kicked. */
static void explode(GameState *gs, v2 at, uint32_t c, float radius, int big)
{
    int n = big ? EXPLOSION_SPARKS * 3 : EXPLOSION_SPARKS;
    fx_burst(gs, at, n / 4, 0xFFFFFFFF, c & 0xFFFFFF00u, 80, big ? 520 : 380, 12, 0.5f);
    fx_burst_sparks(gs, at, n, c, big ? 700 : 520, big ? 1.4f : 1.0f);
    fx_ring(gs, at, radius, radius * (big ? 7.0f : 4.5f), big ? 0.5f : 0.35f, c);
    grid_push(gs, at, big ? 300.0f : 170.0f, big ? 1100.0f : 450.0f);
}

/* A well swallows an enemy that touched it; overfed, it bursts into a swarm (no points: nobody shot it). */
void well_feed(GameState *gs, Entity *w, Entity *food)
{
    if (w->dead || food->dead) return;
    food->dead = 1;
    w->fed += 1;
    w->radius += 1.2f;
    w->hp += 1;
    fx_burst_sparks(gs, food->pos, 12, enemy_info(food->type).color, 200, 0.5f);
    if (w->fed < WELL_BURST_FED) return;
    w->dead = 1;
    explode(gs, w->pos, WELL_COLOR, w->radius, 1);
    pinwheels_fling(gs, w->pos, WELL_BURST_SWARM, 340);
    fx_shake(gs, 0.5f);
    sfx(gs, SND_WELL_BURST, w->pos);
}

void steer(Entity *e, v2 desired_vel, float accel, float dt)
{
    v2 dv = v2_sub(desired_vel, e->vel);
    float len = v2_len(dv), step = accel * dt;
    e->vel = len <= step ? desired_vel : v2_add(e->vel, v2_scale(dv, step / len));
}

void move_and_collide(GameState *gs, Entity *e, float dt)
{
    e->pos = v2_add(e->pos, v2_scale(e->vel, dt));
    v2 n = { 0, 0 };   /* set whenever world_push_out hits; g++ -O2 cannot see that */
    if (world_push_out(gs, &e->pos, e->radius, &n)) {
        float into = v2_dot(e->vel, n);
        if (into < 0) e->vel = v2_sub(e->vel, v2_scale(n, into));
    }
}


/* award: 0 for the bomb's kills, which score nothing and drop nothing (the genre's rule). */
void damage_enemy(GameState *gs, Entity *e, float amount, v2 push, int award)
{
    if (e->dead) return;
    if (e->type == ENTITY_SNAKE_BODY && award) {   /* armour: the shot stops, nothing else happens */
        e->flash = 0.05f;
        return;
    }
    e->hp -= amount;
    e->flash = 0.08f;
    if (e->type != ENTITY_WELL) e->vel = v2_add(e->vel, push);
    int big = e->type == ENTITY_BRUTE || e->type == ENTITY_WELL || e->type == ENTITY_SNAKE;
    sfx(gs, e->hp > 0 ? SND_HIT : big ? SND_EXPLODE_BIG : SND_EXPLODE, e->pos);
    if (e->hp > 0) return;
    e->dead = 1;
    EnemyInfo info = enemy_info(e->type);
    explode(gs, e->pos, info.color, e->radius, big);
    if (!award) return;
    fx_shake(gs, big ? 2 * KILL_SHAKE : KILL_SHAKE);
    gs->hitstop = big ? 0.09f : 0.0f;
    score_kill(gs, e, info.points);
    if (e->type == ENTITY_BRUTE) {
        for (int i = 0; i < BRUTE_SPLITS_INTO; i++) {
            v2 at = v2_add(e->pos, v2_scale(v2_from_angle(i * 2.0944f), 26));
            Entity *d = entity_spawn(gs, ENTITY_DRONE, at);
            if (d) { d->radius = 12; d->hp = DRONE_HP; d->vel = v2_scale(v2_from_angle(i * 2.0944f), 300); }
        }
    }
    if (e->type == ENTITY_PINWHEEL && e->phase == 0) {
        pinwheels_fling(gs, e->pos, PINWHEEL_SPLITS_INTO, 300);
        sfx(gs, SND_SPLIT, e->pos);
    }
    Entity *pl = entity_get(gs, gs->player);
    float missing = pl ? th_maxf(0, PLAYER_HP - pl->hp) : 0;
    float r = th_rng_f01(&gs->rng);
    if (r < HEART_DROP_CHANCE + HEART_CHANCE_PER_HIT * missing) {
        Entity *h = entity_spawn(gs, ENTITY_HEART, e->pos);
        if (h) { h->radius = 12; h->timer = PICKUP_SECONDS; }
    } else if (th_rng_f01(&gs->rng) < UPGRADE_DROP_CHANCE) {
        upgrade_drop(gs, e->pos, (int)th_rng_range(&gs->rng, 0, UPGRADE_COUNT - 0.001f));
    } else {
        int gems = big ? 5 : 1;
        for (int i = 0; i < gems; i++) {
            Entity *g = entity_spawn(gs, ENTITY_GEM, e->pos);
            if (g) { g->radius = 9; g->timer = PICKUP_SECONDS; g->vel = v2_scale(th_rng_unit_v2(&gs->rng), th_rng_range(&gs->rng, 40, 160)); }
        }
    }
}

/* A weapon pickup of the given UpgradeKind. */
void upgrade_drop(GameState *gs, v2 at, int kind)
{
    Entity *u = entity_spawn(gs, ENTITY_UPGRADE, at);
    if (!u) return;
    u->radius = 16;
    u->timer = PICKUP_SECONDS * 1.5f;
    u->phase = kind < 0 ? 0 : kind % UPGRADE_COUNT;
    u->vel = v2_scale(th_rng_unit_v2(&gs->rng), 60);
}

void player_hurt(GameState *gs, Entity *pl, v2 from)
{
    if (pl->timer > 0 || pl->dead) return;   /* timer: invulnerability */
    pl->hp -= 1;
    pl->timer = gs->wave <= 2 ? EARLY_INVULNERABLE : PLAYER_INVULNERABLE;
    pl->flash = 0.15f;
    pl->vel = v2_add(pl->vel, v2_scale(dir_to(from, pl->pos), 500));
    gs->multiplier = 1;
    gs->multiplier_kills = 0;
    gs->tier = 1;
    fx_shake(gs, 0.55f);
    gs->hitstop = 0.06f;
    fx_burst(gs, pl->pos, 18, 0xFFFFFFFF, 0x4FE3FF00, 100, 300, 10, 0.4f);
    sfx(gs, pl->hp <= 0 ? SND_EXPLODE_BIG : SND_HURT, pl->pos);
    if (pl->hp <= 0) {
        pl->dead = 1;
        fx_burst(gs, pl->pos, 90, 0xFFFFFFFF, 0x4FE3FF00, 100, 650, 18, 1.0f);
        fx_ring(gs, pl->pos, 10, 260, 0.6f, 0x4FE3FFFF);
        fx_shake(gs, 1.0f);
        gs->hitstop = 0.2f;
    }
}

/* The panic button: every enemy, spawn marker and enemy bullet in the arena goes, the grid heaves, and the
   player gets a moment of safety. Limited uses (gs->bombs). */
void bomb_fire(GameState *gs)
{
    Entity *pl = entity_get(gs, gs->player);
    if (gs->bombs <= 0 || !pl || pl->dead || gs->mode != MODE_PLAY) return;
    gs->bombs--;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead) continue;
        if (is_enemy(e->type)) damage_enemy(gs, e, 1e9f, v2_scale(dir_to(pl->pos, e->pos), 300), 0);
        else if (e->type == ENTITY_SPAWNER || e->type == ENTITY_ENEMY_BULLET) { e->dead = 1; fx_burst(gs, e->pos, 4, 0xFFFFFFFF, 0x4FE3FF00, 40, 160, 6, 0.3f); }
    }
    pl->timer = th_maxf(pl->timer, 1.0f);
    gs->bomb_flash = 0.6f;
    gs->hitstop = 0;
    fx_ring(gs, pl->pos, 20, 900, 0.7f, 0xFFFFFFFF);
    fx_ring(gs, pl->pos, 10, 600, 0.5f, 0x4FE3FFFF);
    fx_shake(gs, 1.0f);
    grid_push(gs, pl->pos, 900.0f, 2200.0f);
    sfx(gs, SND_EXPLODE_BIG, pl->pos);
    g_bombed = 1;
}

/* ---------------------------------------------------------------- per-type steps */

static void player_update(GameState *gs, Entity *e, float dt)
{
    Controls c = g_controls;
    e->timer = th_maxf(0, e->timer - dt);
    e->flash = th_maxf(0, e->flash - dt);
    if (v2_len2(c.aim) > 0.01f) gs->aim = v2_norm(c.aim);
    e->prev_angle = e->angle;
    e->angle = face(gs->aim);
    e->cooldown2 -= dt;
    if (e->phase > 0) {
        e->phase--;
        if (gs->steps % 2 == 0) fx_trail(gs, e->pos, v2_make(0, 0), 0x4FE3FFC0, 22);
    } else {
        v2 move = v2_len2(c.move) > 1 ? v2_norm(c.move) : c.move;
        steer(e, v2_scale(move, PLAYER_SPEED), PLAYER_ACCEL, dt);
        if (c.dash && e->cooldown2 <= 0) {
            v2 d = v2_len2(move) > 0.01f ? v2_norm(move) : gs->aim;
            e->vel = v2_scale(d, DASH_SPEED);
            e->phase = (int32_t)(DASH_SECONDS / dt);
            e->cooldown2 = DASH_COOLDOWN;
            fx_ring(gs, e->pos, 10, 50, 0.2f, 0x4FE3FFFF);
            sfx(gs, SND_DASH, e->pos);
        }
        if (v2_len2(e->vel) > 100 * 100 && gs->steps % 3 == 0)
            fx_trail(gs, v2_sub(e->pos, v2_scale(gs->aim, 14)), v2_scale(e->vel, -0.3f), 0x2FB8FF90, 9);
    }
    move_and_collide(gs, e, dt);
    e->cooldown -= dt;
    for (int k = 0; k < (int)UPGRADE_COUNT; k++) gs->upgrade_time[k] = th_maxf(0, gs->upgrade_time[k] - dt);
    if (c.bomb) bomb_fire(gs);
    if (c.fire && e->cooldown <= 0) {
        e->cooldown = FIRE_INTERVAL * (gs->upgrade_time[UPGRADE_RAPID] > 0 ? RAPID_FIRE_FACTOR : 1.0f);
        float base = e->angle + th_rng_range(&gs->rng, -FIRE_SPREAD, FIRE_SPREAD);
        int shots = gs->upgrade_time[UPGRADE_SPREAD] > 0 ? 3 : 1;
        for (int k = 0; k < shots; k++) {
            float a = base + (k - (shots - 1) * 0.5f) * SPREAD_ANGLE;
            v2 d = v2_from_angle(a);
            Entity *b = entity_spawn(gs, ENTITY_BULLET, v2_add(e->pos, v2_scale(d, 18)));
            if (!b) break;
            b->vel = v2_scale(d, BULLET_SPEED);
            b->radius = 4;
            b->angle = b->prev_angle = a;
            b->timer = 1.2f;
            b->phase = gs->upgrade_time[UPGRADE_PIERCE] > 0 ? PIERCE_HITS - 1 : 0;   /* enemies it goes on through */
            gs->shot_speed = v2_len(b->vel);
        }
        v2 d = v2_from_angle(base);
        fx_trail(gs, v2_add(e->pos, v2_scale(d, 22)), v2_scale(d, 120), 0xCFFFFFFF, 12);
        sfx(gs, SND_SHOT, e->pos);
    }
}

/* Bullets sweep their path against walls and the broadphase, so none passes through anything thin. */
static void bullet_update(GameState *gs, Entity *e, float dt)
{
    e->timer -= dt;
    if (e->timer <= 0) { e->dead = 1; return; }
    e->vel = v2_add(e->vel, v2_scale(well_pull(e->pos, WELL_BULLET_PULL), dt));   /* wells bend every shot */
    if (e->type == ENTITY_BULLET) e->angle = face(e->vel);
    e->prev_angle = e->angle;
    v2 from = e->pos, to = v2_add(e->pos, v2_scale(e->vel, dt));
    float t_wall = 1.0f;
    v2 n_wall;
    int hit_wall = world_sweep_walls(gs, from, to, e->radius, &t_wall, &n_wall);
    float t_hit = t_wall;
    Entity *victim = NULL;
    if (e->type == ENTITY_BULLET) {
        victim = world_sweep_enemies(gs, from, to, e->radius, &t_hit, e->last_hit);
        if (victim && t_hit > t_wall) victim = NULL;
        if (gs->steps % 2 == 0) grid_push(gs, from, 60.0f, 70.0f);
    } else {
        Entity *pl = entity_get(gs, gs->player);
        float t;
        if (pl && !pl->dead && world_sweep_circle(from, to, e->radius, pl->pos, pl->radius, &t) && t <= t_wall) { victim = pl; t_hit = t; }
    }
    if (victim && victim->type != ENTITY_PLAYER && e->phase > 0) {   /* PIERCE: on through it */
        e->phase--;
        e->last_hit = victim->self.value;
        damage_enemy(gs, victim, BULLET_DAMAGE, v2_scale(v2_norm(e->vel), victim->type == ENTITY_BRUTE ? 12 : 60));
        fx_sparks(gs, v2_lerp(from, to, t_hit), v2_neg(v2_norm(e->vel)), 0xC08CFFFF, 4);
        e->pos = v2_lerp(from, to, t_wall);
        if (hit_wall) e->dead = 1;
        return;
    }
    e->pos = v2_lerp(from, to, victim ? t_hit : t_wall);
    if (victim) {
        e->dead = 1;
        if (victim->type == ENTITY_PLAYER) player_hurt(gs, victim, from);
        else {
            damage_enemy(gs, victim, BULLET_DAMAGE, v2_scale(v2_norm(e->vel), victim->type == ENTITY_BRUTE ? 12 : 60));
            fx_sparks(gs, e->pos, v2_neg(v2_norm(e->vel)), 0xFFFFFFFF, 4);
        }
    } else if (hit_wall) {
        e->dead = 1;
        fx_sparks(gs, e->pos, n_wall, e->type == ENTITY_BULLET ? PLAYER_BULLET_COLOR : ENEMY_BULLET_COLOR, 6);
    }
}

static void pickup_update(GameState *gs, Entity *e, float dt)
{
    e->timer -= dt;
    if (e->timer <= 0) { e->dead = 1; return; }
    Entity *pl = entity_get(gs, gs->player);
    e->vel = v2_scale(e->vel, powf(0.05f, dt));
    if (pl && !pl->dead) {
        v2 to = v2_sub(pl->pos, e->pos);
        float d = v2_len(to);
        if (d < GEM_MAGNET_RANGE) e->vel = v2_add(e->vel, v2_scale(v2_norm(to), 2400 * dt * (1.2f - d / GEM_MAGNET_RANGE)));
        if (d < pl->radius + e->radius) {
            e->dead = 1;
            if (e->type == ENTITY_UPGRADE) {
                int k = e->phase % UPGRADE_COUNT;
                gs->upgrade_time[k] = UPGRADE_SECONDS;
                fx_ring(gs, pl->pos, 10, 90, 0.35f, UPGRADE_COLORS[k]);
                sfx(gs, SND_HEALTH, e->pos);
            } else if (e->type == ENTITY_HEART) {
                pl->hp = th_minf(PLAYER_HP, pl->hp + 1);
                fx_ring(gs, pl->pos, 10, 60, 0.3f, 0x5CFF7AFF);
                sfx(gs, SND_HEALTH, e->pos);
            } else {
                score_add(gs, 5 * gs->multiplier);
                multiplier_feed(gs);   /* geoms raise the multiplier */
                fx_burst(gs, e->pos, 5, 0xD8B0FFFF, 0x8A4FFF00, 40, 140, 7, 0.25f);
                sfx(gs, SND_GEM, e->pos);
            }
        }
    }
    move_and_collide(gs, e, dt);
}

static void spawner_update(GameState *gs, Entity *e, float dt)
{
    e->timer -= dt;
    if (gs->steps % 6 == 0) fx_ring(gs, e->pos, 50, 8, 0.3f, 0xFFFFFF90);
    if (e->timer > 0) return;
    e->dead = 1;
    Entity *n = entity_spawn(gs, (EntityType)e->spawn_type, e->pos);
    if (!n) return;
    EnemyInfo info = enemy_info(e->spawn_type);
    n->radius = info.radius;
    n->hp = info.hp;
    n->timer = th_rng_range(&gs->rng, 0.5f, 1.5f);
    n->vel = v2_scale(th_rng_unit_v2(&gs->rng), 60);
    fx_burst(gs, e->pos, 10, 0xFFFFFFFF, info.color & 0xFFFFFF00u, 50, 200, 8, 0.3f);
    if (n->type == ENTITY_SNAKE) { snake_spawn(gs, n); sfx(gs, SND_SNAKE, e->pos); }
    else if (n->type == ENTITY_WELL) sfx(gs, SND_WELL, e->pos);
    else sfx(gs, SND_SPAWN, e->pos);
}

static void no_update(GameState *gs, Entity *e, float dt) { (void)gs; (void)e; (void)dt; }

/* ---------------------------------------------------------------- looks */
static void draw_entity_sprite(const PlatformAPI *pf, uint32_t sprite, v2 p, float angle, float scale, uint32_t color, int layer,
                               uint16_t flags = SPRITE_GLOW)
{
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.sprite = sprite;
    s.x = p.x;
    s.y = p.y;
    s.scale_x = s.scale_y = scale;
    s.rotation = angle;
    s.origin_x = s.origin_y = 0.5f;
    s.color = color;
    s.layer = (int16_t)layer;
    s.flags = flags;
    pf->draw_sprite(&s);
}

static void draw_upgrade(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)angle;
    int k = e->phase % UPGRADE_COUNT;
    uint32_t c = UPGRADE_COLORS[k];
    if (e->timer < 2.0f && ((int)(e->timer * 10) & 1)) c = (c & 0xFFFFFF00u) | 0x50u;
    float pulse = 1.0f + 0.12f * sinf((float)gs->steps * 0.15f);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, 0.62f * pulse, c, LAYER_PICKUP);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, 1.1f, c, LAYER_PICKUP, SPRITE_GLOW | SPRITE_ADDITIVE);
    static const char *const LETTER[UPGRADE_COUNT] = { "S", "R", "P" };
    pf->draw_text(LETTER[k], p.x - 6, p.y - 11, 20, 0x0A0E18FF, LAYER_PICKUP + 1);
}

static void draw_mover(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)gs;
    static const int SPRITE_OF[ENTITY_TYPE_COUNT] = {
        SPR_PLAYER, SPR_DRONE, SPR_SHOOTER, SPR_DASHER, SPR_BRUTE, SPR_BULLET, SPR_ENEMY_BULLET, SPR_GEM, SPR_HEART, 0, 0,
    };
    int layer = e->type == ENTITY_PLAYER ? LAYER_PLAYER : is_enemy(e->type) ? LAYER_ENEMY
              : (e->type == ENTITY_BULLET || e->type == ENTITY_ENEMY_BULLET) ? LAYER_BULLET : LAYER_PICKUP;
    float scale = 1.0f + e->flash * 3.0f;
    uint32_t color = 0xFFFFFFFF;
    if (e->type == ENTITY_PLAYER && e->timer > 0 && ((int)(e->timer * 20) & 1)) color = 0xFFFFFF50;
    if (e->type == ENTITY_DASHER && e->phase == 1 && ((int)(e->timer * 16) & 1)) scale *= 1.15f;
    if ((e->type == ENTITY_GEM || e->type == ENTITY_HEART) && e->timer < 2.0f && ((int)(e->timer * 10) & 1)) color = 0xFFFFFF40;
    draw_entity_sprite(pf, g_sprite_ids[SPRITE_OF[e->type]], p, angle, scale, color, layer);
    if (e->flash > 0) draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, e->radius / 5.0f, 0xFFFFFFC0, LAYER_FX);
}

/* A line of light from a to b: one stretched spark (8 px long at scale 1). */
static void draw_bar(const PlatformAPI *pf, v2 a, v2 b, float width, uint32_t color, int layer)
{
    v2 d = v2_sub(b, a);
    GameSprite s;
    memset(&s, 0, sizeof s);
    s.sprite = g_sprite_ids[SPR_FX_SPARK];
    s.x = (a.x + b.x) * 0.5f;
    s.y = (a.y + b.y) * 0.5f;
    s.scale_x = v2_len(d) / 8.0f + width / 8.0f;
    s.scale_y = width / 3.0f;
    s.rotation = atan2f(d.y, d.x);
    s.origin_x = s.origin_y = 0.5f;
    s.color = color;
    s.layer = (int16_t)layer;
    s.flags = SPRITE_GLOW | SPRITE_ADDITIVE;
    pf->draw_sprite(&s);
}

/* A regular polygon outline of n sides, radius r, turned by angle. */
static void draw_outline(const PlatformAPI *pf, v2 p, int n, float r, float angle, float width, uint32_t color, int layer)
{
    for (int i = 0; i < n; i++) {
        v2 a = v2_add(p, v2_scale(v2_from_angle(angle + i * 6.2831853f / n), r));
        v2 b = v2_add(p, v2_scale(v2_from_angle(angle + (i + 1) * 6.2831853f / n), r));
        draw_bar(pf, a, b, width, color, layer);
    }
}

static uint32_t hit_color(Entity *e, uint32_t c) { return e->flash > 0 ? 0xFFFFFFFF : c; }

/* The wanderer: a green square in a square, turning; it flashes brighter while it sidesteps. */
static void draw_wanderer(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)gs;
    uint32_t c = hit_color(e, WANDERER_COLOR);
    draw_outline(pf, p, 4, e->radius * 1.25f, angle, 4, c, LAYER_ENEMY);
    draw_outline(pf, p, 4, e->radius * 0.6f, -angle, 3, e->phase ? 0xFFFFFFFF : c, LAYER_ENEMY);
}

/* The pinwheel: four purple blades around a hub, spinning. */
static void draw_pinwheel(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)gs;
    uint32_t c = hit_color(e, PINWHEEL_COLOR);
    float r = e->radius * 1.2f;
    for (int i = 0; i < 4; i++) {
        float a = angle + i * 1.5707963f;
        v2 tip = v2_add(p, v2_scale(v2_from_angle(a), r));
        draw_bar(pf, p, tip, e->phase ? 3 : 4, c, LAYER_ENEMY);
        draw_bar(pf, tip, v2_add(p, v2_scale(v2_from_angle(a + 0.9f), r * 0.55f)), 3, c, LAYER_ENEMY);
    }
}

/* The snake: a blue head with eyes; the body a chain of rings, dimmer to the tail. */
static void draw_snake(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)gs;
    uint32_t c = hit_color(e, SNAKE_COLOR);
    if (e->type == ENTITY_SNAKE) {
        draw_outline(pf, p, 3, e->radius * 1.3f, angle, 5, c, LAYER_ENEMY + 1);
        draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], v2_add(p, v2_scale(v2_from_angle(angle), e->radius * 0.3f)), 0, e->radius / 14.0f, 0xC8E4FFFF, LAYER_ENEMY + 1, SPRITE_ADDITIVE);
        return;
    }
    uint32_t a = (uint32_t)th_clampf(230.0f - 9.0f * (float)e->phase, 90, 230);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, e->radius / 30.0f, (c & 0xFFFFFF00u) | a, LAYER_ENEMY, SPRITE_GLOW | SPRITE_ADDITIVE);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, e->radius / 10.0f, (c & 0xFFFFFF00u) | (a / 2), LAYER_ENEMY, SPRITE_ADDITIVE);
}

/* The gravity well: a dark core in a hot ring that pulses, swelling with what it has eaten; a faint halo
   shows how far it pulls. */
static void draw_well(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)angle;
    float pulse = 1.0f + 0.12f * sinf((float)gs->steps * (0.12f + 0.02f * e->fed));
    uint32_t c = hit_color(e, WELL_COLOR);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, e->radius / 5.0f, 0x000000E0, LAYER_ENEMY - 1, 0);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, e->radius * pulse / 26.0f, c, LAYER_ENEMY, SPRITE_GLOW | SPRITE_ADDITIVE);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, e->radius * 0.7f / 32.0f, 0xFFE0A0FF, LAYER_ENEMY, SPRITE_ADDITIVE);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, WELL_PULL_RADIUS / 32.0f, (c & 0xFFFFFF00u) | 0x18u, LAYER_FLOOR + 1, SPRITE_ADDITIVE);
}

/* An enemy shot: a hot red core in a glowing ring, twice a player shot's size, so it reads at a glance. */
static void draw_enemy_bullet(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)angle;
    float pulse = 1.0f + 0.15f * sinf((float)gs->steps * 0.5f);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, e->radius * 2.6f / 16.0f * pulse, ENEMY_BULLET_COLOR, LAYER_BULLET, SPRITE_GLOW | SPRITE_ADDITIVE);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, e->radius * 1.6f / 32.0f, 0xFFD0A0FF, LAYER_BULLET, SPRITE_GLOW | SPRITE_ADDITIVE);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, e->radius / 16.0f, 0xFFFFFFFF, LAYER_BULLET + 1, SPRITE_ADDITIVE);
}

static void draw_wall(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)gs; (void)angle;
    if (e->rot != 0) {
        GameSprite s;
        memset(&s, 0, sizeof s);
        s.sprite = g_sprite_ids[SPR_WALL];
        s.x = p.x; s.y = p.y;
        s.scale_x = e->half.x * 2 / 64.0f;
        s.scale_y = e->half.y * 2 / 64.0f;
        s.rotation = e->rot;
        s.origin_x = s.origin_y = 0.5f;
        s.color = 0xFFFFFFFF;
        s.layer = LAYER_WALL;
        pf->draw_sprite(&s);
        return;
    }
    /* axis-aligned walls are tiled so the bevel keeps its size */
    float x0 = p.x - e->half.x, y0 = p.y - e->half.y, w = e->half.x * 2, h = e->half.y * 2;
    int nx = (int)ceilf(w / 64.0f), ny = (int)ceilf(h / 64.0f);
    float tw = w / nx, th = h / ny;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            GameSprite s;
            memset(&s, 0, sizeof s);
            s.sprite = g_sprite_ids[SPR_WALL];
            s.x = x0 + i * tw; s.y = y0 + j * th;
            s.scale_x = tw / 64.0f; s.scale_y = th / 64.0f;
            s.color = 0xFFFFFFFF;
            s.layer = LAYER_WALL;
            pf->draw_sprite(&s);
        }
}

static void draw_spawner(GameState *gs, Entity *e, v2 p, float angle, const PlatformAPI *pf)
{
    (void)gs; (void)angle;
    float t = th_clampf(1.0f - e->timer / SPAWN_WARNING, 0, 1);
    uint32_t c = (enemy_info(e->spawn_type).color & 0xFFFFFF00u) | (uint32_t)(80 + 150 * t);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_RING], p, 0, (1.4f - t) * 1.2f, c, LAYER_PICKUP);
    draw_entity_sprite(pf, g_sprite_ids[SPR_FX_DOT], p, 0, 1 + 2 * t, c, LAYER_PICKUP);
}

/* ---------------------------------------------------------------- the per-type table (EntityKind: game.h) */
const EntityKind ENTITY_KINDS[ENTITY_TYPE_COUNT] = {
    { "player",       player_update,  draw_mover   },
    { "drone",        drone_update,   draw_mover   },
    { "shooter",      shooter_update, draw_mover   },
    { "dasher",       dasher_update,  draw_mover   },
    { "brute",        brute_update,   draw_mover   },
    { "bullet",       bullet_update,  draw_mover   },
    { "enemy_bullet", bullet_update,  draw_enemy_bullet },
    { "gem",          pickup_update,  draw_mover   },
    { "heart",        pickup_update,  draw_mover   },
    { "wall",         no_update,      draw_wall    },
    { "spawner",      spawner_update, draw_spawner },
    { "upgrade",      pickup_update,  draw_upgrade },
    { "wanderer",     wanderer_update, draw_wanderer },
    { "snake",        snake_update,    draw_snake    },
    { "snake_body",   snake_body_update, draw_snake  },
    { "pinwheel",     pinwheel_update, draw_pinwheel },
    { "well",         well_update,     draw_well     },
};
