/* NEON SWARM's collision broadphases (game/world.cpp), checked against brute force on seeded crowds, without the
   host (game_harness.h):
   - the grid world_begin_step fills (movers as boxes, 96 px cells) gives exactly the overlapping pairs a test of
     every pair gives, each once: random crowds with boxes on cell borders, at and past the arena's edges, radii
     from 1 px to larger than the grid's per-body cell limit;
   - the step's wall list gives world_push_out and world_sweep_walls the same answers, to the bit, as a scan of
     every entity for walls (the code before the list): circles in, on and around every wall, rotated ones too;
   - a step with about 1,600 enemies (F3 twenty times) ends in the same state as it did before the list: a hash
     of every entity, the random numbers and the score after a fixed script, recorded from the scan's code. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "game_scenes.h"
#include <algorithm>
#include <vector>

static Harness g_h;

/* ---------------------------------------------------------------- crowds */
/* An arena with the player and n enemies placed by rng: anywhere (and a little past the walls), with a box
   edge or the centre exactly on a cell border, or on the arena's edge; radii mostly an enemy's, some half a
   cell, some past THC_GRID_MAX_CELLS cells (the grid's large list). A few are dead (not in the grid). */
static GameState *crowd(uint64_t seed, int n)
{
    GameState *gs = scene_start_play(&g_h, seed);
    th_rng rng = th_rng_seed(seed * 7919u + 17u);
    const float CELL = 96.0f;
    for (int i = 0; i < n; i++) {
        float k = th_rng_f01(&rng), r;
        if (k < 0.80f) r = th_rng_range(&rng, 1.0f, 30.0f);
        else if (k < 0.90f) r = CELL / 2;
        else if (k < 0.97f) r = th_rng_range(&rng, 100.0f, 300.0f);
        else r = th_rng_range(&rng, 300.0f, 900.0f);
        v2 p = v2_make(th_rng_range(&rng, -100.0f, ARENA_W + 100.0f), th_rng_range(&rng, -100.0f, ARENA_H + 100.0f));
        int place = (int)th_rng_range(&rng, 0.0f, 5.999f);
        float cx = CELL * (float)(int)th_rng_range(&rng, 0.0f, 26.0f), cy = CELL * (float)(int)th_rng_range(&rng, 0.0f, 16.0f);
        if (place == 1) p = v2_make(cx, cy);                  /* the centre on a cell corner */
        else if (place == 2) p = v2_make(cx + r, cy - r);     /* box edges on cell borders */
        else if (place == 3) p.x = th_rng_f01(&rng) < 0.5f ? 0.0f : ARENA_W;
        else if (place == 4) p.y = th_rng_f01(&rng) < 0.5f ? 0.0f : ARENA_H;
        Entity *e = entity_spawn(gs, (EntityType)(ENTITY_DRONE + i % 4), p);
        if (!e) break;
        e->radius = r;
        e->hp = 1;
        e->dead = th_rng_f01(&rng) < 0.03f;
    }
    return gs;
}

static bool pair_less(const thc_pair &x, const thc_pair &y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }
static thc_pair ordered(uint32_t a, uint32_t b) { thc_pair p; p.a = a < b ? a : b; p.b = a ^ b ^ p.a; return p; }

static void test_grid_pairs_are_the_brute_force_pairs(void)
{
    static const int SIZES[] = { 40, 300, 900, 1600 };
    std::vector<thc_pair> got(1u << 20);
    for (uint64_t seed = 1; seed <= 12; seed++) {
        GameState *gs = crowd(seed, SIZES[seed % 4]);
        world_begin_step(gs);
        int n = thc_grid_pairs(world_grid(gs), got.data(), (int)got.size());
        TH_CHECK(n < (int)got.size());
        std::vector<thc_pair> grid, brute;
        for (int i = 0; i < n; i++) grid.push_back(ordered(got[i].a, got[i].b));
        std::vector<Entity *> in;
        for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
            Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
            if (!e->dead && (is_enemy(e->type) || e->type == ENTITY_PLAYER)) in.push_back(e);
        }
        TH_CHECK_EQ_INT(thc_grid_count(world_grid(gs)), (int)in.size());
        for (size_t i = 0; i < in.size(); i++)
            for (size_t j = i + 1; j < in.size(); j++) {
                v2 a0 = v2_sub(in[i]->pos, v2_make(in[i]->radius, in[i]->radius)), a1 = v2_add(in[i]->pos, v2_make(in[i]->radius, in[i]->radius));
                v2 b0 = v2_sub(in[j]->pos, v2_make(in[j]->radius, in[j]->radius)), b1 = v2_add(in[j]->pos, v2_make(in[j]->radius, in[j]->radius));
                if (a0.x <= b1.x && b0.x <= a1.x && a0.y <= b1.y && b0.y <= a1.y) brute.push_back(ordered(in[i]->self.value, in[j]->self.value));
            }
        std::sort(grid.begin(), grid.end(), pair_less);
        std::sort(brute.begin(), brute.end(), pair_less);
        int dup = 0;
        for (size_t i = 1; i < grid.size(); i++) dup += grid[i].a == grid[i - 1].a && grid[i].b == grid[i - 1].b;
        TH_CHECK_MSG(dup == 0, "seed %llu: %d pairs reported twice", (unsigned long long)seed, dup);
        bool same = grid.size() == brute.size();
        for (size_t i = 0; same && i < grid.size(); i++) same = grid[i].a == brute[i].a && grid[i].b == brute[i].b;
        TH_CHECK_MSG(same, "seed %llu: %zu bodies, the grid gives %zu pairs, brute force %zu", (unsigned long long)seed,
                     in.size(), grid.size(), brute.size());
    }
}

/* ---------------------------------------------------------------- walls */
/* world_push_out and world_sweep_walls as they were before the step's wall list: every entity scanned for walls,
   each wall's shape made at each call. */
static int scan_push_out(GameState *gs, v2 *pos, float radius, v2 *normal)
{
    int hit = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
            Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
            if (e->type != ENTITY_WALL) continue;
            WallShape w;
            wall_shape(e, &w);
            thc_manifold m;
            if (!circle_wall_manifold(&w, *pos, radius, &m)) continue;
            v2 n = from_thc(m.n);
            *pos = v2_sub(*pos, v2_scale(n, m.depths[0]));
            *normal = v2_neg(n);
            hit = 1;
        }
    return hit;
}

static int scan_sweep_walls(GameState *gs, v2 from, v2 to, float radius, float *t, v2 *normal)
{
    int hit = 0;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->type != ENTITY_WALL) continue;
        WallShape w;
        wall_shape(e, &w);
        float wt;
        v2 wn;
        if (circle_wall_toi(&w, from, to, radius, &wt, &wn) && wt <= *t) {
            *t = wt;
            *normal = wn;
            hit = 1;
        }
    }
    return hit;
}

static int same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

static void test_wall_list_answers_as_the_scan(void)
{
    GameState *gs = crowd(3, 600);
    world_begin_step(gs);
    TH_CHECK(g_wall_count >= 10);   /* the step's list, not the scan */
    std::vector<Entity *> walls;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->type == ENTITY_WALL) walls.push_back(e);
    }
    TH_CHECK(walls.size() >= 10);
    th_rng rng = th_rng_seed(99);
    int pushed = 0, swept = 0, bad_push = 0, bad_sweep = 0;
    for (int i = 0; i < 20000; i++) {
        Entity *w = walls[(size_t)i % walls.size()];
        float r = th_rng_range(&rng, 1.0f, 60.0f);
        v2 at = v2_add(w->pos, v2_make(th_rng_range(&rng, -1.3f, 1.3f) * (w->half.x + r), th_rng_range(&rng, -1.3f, 1.3f) * (w->half.y + r)));
        if (i % 7 == 0) at.x = w->pos.x + w->half.x + r;   /* just touching a side */
        if (i % 11 == 0) at.y = w->pos.y - w->half.y;      /* centre on an edge */
        v2 p1 = at, p2 = at, n1 = v2_make(0, 0), n2 = v2_make(0, 0);
        int h1 = world_push_out(gs, &p1, r, &n1), h2 = scan_push_out(gs, &p2, r, &n2);
        pushed += h1;
        bad_push += h1 != h2 || !same_bits(&p1, &p2, sizeof p1) || !same_bits(&n1, &n2, sizeof n1);
        v2 to = v2_add(at, v2_scale(th_rng_unit_v2(&rng), th_rng_range(&rng, 0.0f, 400.0f)));
        float t1 = 1.0f, t2 = 1.0f;
        v2 m1 = v2_make(0, 0), m2 = v2_make(0, 0);
        int s1 = world_sweep_walls(gs, at, to, r, &t1, &m1), s2 = scan_sweep_walls(gs, at, to, r, &t2, &m2);
        swept += s1;
        bad_sweep += s1 != s2 || !same_bits(&t1, &t2, sizeof t1) || !same_bits(&m1, &m2, sizeof m1);
    }
    TH_CHECK_MSG(bad_push == 0, "world_push_out differs from the scan %d times (%d hits)", bad_push, pushed);
    TH_CHECK_MSG(bad_sweep == 0, "world_sweep_walls differs from the scan %d times (%d hits)", bad_sweep, swept);
    TH_CHECK(pushed > 5000 && swept > 2000);   /* the circles really met the walls */
}

/* ---------------------------------------------------------------- the swarm's step */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ ((const uint8_t *)p)[i]) * 1099511628211ull;
    return h;
}

/* Every entity in the live list's order (type, place, speed, health...), the random numbers, the run's counts. */
static uint64_t state_hash(GameState *gs)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        h = fnv(h, &e->type, sizeof e->type);
        h = fnv(h, &e->self, sizeof e->self);
        h = fnv(h, &e->pos, sizeof e->pos);
        h = fnv(h, &e->vel, sizeof e->vel);
        h = fnv(h, &e->radius, sizeof e->radius);
        h = fnv(h, &e->hp, sizeof e->hp);
        h = fnv(h, &e->timer, sizeof e->timer);
        h = fnv(h, &e->phase, sizeof e->phase);
        h = fnv(h, &e->angle, sizeof e->angle);
    }
    h = fnv(h, &gs->rng, sizeof gs->rng);
    h = fnv(h, &gs->score, sizeof gs->score);
    h = fnv(h, &gs->kills, sizeof gs->kills);
    h = fnv(h, &gs->particle_count, sizeof gs->particle_count);
    return h;
}

static const uint64_t SWARM_HASH_BEFORE = 0x7e9dc9c3b0af3529ull, SWARM_HASH_AFTER = 0xac230ccf00b908b7ull;

/* The reproduction's script (Enter, then F3 every 5 steps from step 100, twenty times) on a fixed seed, the ship
   kept alive; then 120 steps of the crowd. The hashes were recorded from the code that scanned every entity
   for walls. */
static void test_swarm_step_same_state(void)
{
    GameState *gs = scene_start_play(&g_h, 42);
    scene_steps(&g_h, 69);
    for (int i = 0; i < 20; i++) { scene_keep_alive(gs); scene_steps(&g_h, 5, KEY_F3); }
    for (int i = 0; i < 60; i++) { scene_keep_alive(gs); scene_steps(&g_h, 1); }
    uint64_t before = state_hash(gs);
    int alive = gs->alive_now;
    for (int i = 0; i < 120; i++) { scene_keep_alive(gs); scene_steps(&g_h, 1); }
    uint64_t after = state_hash(gs);
    printf("  swarm: %d enemies alive, %u entities; state hashes %016llx %016llx\n", alive, thh_fixed_count(&gs->handles.head),
           (unsigned long long)before, (unsigned long long)after);
    TH_CHECK_MSG(alive >= 1400, "F3 x20 made %d enemies", alive);
    TH_CHECK(before == SWARM_HASH_BEFORE);
    TH_CHECK(after == SWARM_HASH_AFTER);
}

int main(void)
{
    harness_init(&g_h);
    TH_RUN(test_grid_pairs_are_the_brute_force_pairs);
    TH_RUN(test_wall_list_answers_as_the_scan);
    TH_RUN(test_swarm_step_same_state);
    harness_free(&g_h);
    return th_test_finish();
}
