/* bench_migrate.cpp - the cost of migrating the sample game's whole state (GameState: 2048 entities, 4096
   particles, the handle pool, popups) across a field added to Entity, with th_reflect.h and the build's
   own description of state.h (build/game/state_types.inc). The old layout is the same table with one
   Entity field under another name, so every entity, particle and handle takes the element-by-element
   road a real edit takes. migrate_ms is the migrator (plan, rewrite into a scratch area) and the copy
   over the block; migrate_with_default_ms adds constructing the default instance new fields come from.
   Medians of 15 runs after one warm-up (the host keeps its scratch areas, so their page faults are paid
   once a session). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <new>
#include <time.h>

#include "state.h"
#define TH_REFLECT_IMPLEMENTATION
#include "th_reflect.h"
#include "../../build/game/state_types.inc"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static thr_migrator g_m;

int main(void)
{
    size_t n = sizeof GAME_STATE_TYPES;
    uint64_t *now_blob = (uint64_t *)malloc(n), *old_blob = (uint64_t *)malloc(n);
    memcpy(now_blob, &GAME_STATE_TYPES, n);
    memcpy(old_blob, &GAME_STATE_TYPES, n);
    thr_types now, was;
    char err[256];
    if (!thr_read(now_blob, n, &now, err, sizeof err)) { fprintf(stderr, "bench_migrate: %s\n", err); return 1; }
    /* the old Entity called its hp field "initialized": the new one gains hp, the old one's goes */
    thr_field *fields = (thr_field *)((uint8_t *)old_blob + now.header->fields_at);
    int ent = thr_find_type(&now, "Entity"), gs = thr_find_type(&now, "GameState");
    uint32_t hp_name = 0, other = 0;
    for (uint32_t i = 0; i < now.types[gs].field_count; i++)
        if (!strcmp(now.names + now.fields[now.types[gs].first_field + i].name, "initialized")) other = now.fields[now.types[gs].first_field + i].name;
    for (uint32_t i = 0; i < now.types[ent].field_count; i++) {
        thr_field *f = &fields[now.types[ent].first_field + i];
        if (!strcmp(now.names + f->name, "hp")) { hp_name = f->name; f->name = other; }
    }
    if (!hp_name || !other || !thr_read(old_blob, n, &was, err, sizeof err)) { fprintf(stderr, "bench_migrate: no Entity.hp to rename\n"); return 1; }

    /* a state in play: every slot filled with something */
    GameState *old = (GameState *)calloc(1, sizeof(GameState));
    for (int i = 0; i < MAX_ENTITIES; i++) { old->entities[i].pos = v2_make((float)i, (float)-i); old->entities[i].type = ENTITY_DRONE; }
    for (int i = 0; i < MAX_PARTICLES; i++) old->particles[i].life = 1;
    old->particle_count = MAX_PARTICLES;
    uint8_t *scratch = (uint8_t *)malloc(sizeof(GameState)), *block = (uint8_t *)malloc(sizeof(GameState) + 4096);
    void *def_mem = malloc(sizeof(GameState));
    double with_def[15], alone[15];
    for (int r = -1; r < 15; r++) {
        memcpy(block, old, sizeof(GameState));
        double t0 = now_ms();
        GameState *def = new (def_mem) GameState();
        double t1 = now_ms();
        if (!thr_migrate(&g_m, &was, block, sizeof(GameState), &now, def, scratch, sizeof(GameState))) {
            fprintf(stderr, "bench_migrate: refused: %s\n", g_m.error);
            return 1;
        }
        memcpy(block, scratch, sizeof(GameState));
        double t2 = now_ms();
        if (r >= 0) { alone[r] = t2 - t1; with_def[r] = t2 - t0; }
    }
    if (strcmp(g_m.report, "Entity: added hp (0), removed initialized")) { fprintf(stderr, "bench_migrate: report %s\n", g_m.report); return 1; }
    if (((GameState *)block)->entities[7].pos.x != 7.0f) { fprintf(stderr, "bench_migrate: entity 7 moved\n"); return 1; }
    std::sort(alone, alone + 15);
    std::sort(with_def, with_def + 15);
    fprintf(stderr, "bench_migrate: %zu-byte state, %d entities: %.3f ms (%.3f with the default instance)\n",
            sizeof(GameState), MAX_ENTITIES, alone[7], with_def[7]);
    printf("{\"migrate_ms\": %.3f, \"migrate_with_default_ms\": %.3f, \"migrate_state_bytes\": %zu}\n", alone[7], with_def[7],
           sizeof(GameState));
    return 0;
}
