/* memory.cpp - the game's memory block and the snapshot of its used part taken before new code runs
   (the state a crash rolls back to). */
#include "host.h"

#include <string.h>

#include "th_math.h"

Memory g_memory;

int memory_init(uint64_t bytes)
{
    /* A fixed address in development keeps pointers inside the block valid across host runs
       (recordings, snapshots); any address works if the OS refuses it. */
    void *p = os_reserve(bytes, (uintptr_t)0x200000000000ull);
    if (!p) { host_log(LOG_ERROR, "memory: cannot reserve %llu MB: %s", (unsigned long long)(bytes >> 20), os_error_text()); return 0; }
    void *s = os_reserve(bytes, 0);
    if (!s) { host_log(LOG_ERROR, "memory: cannot reserve the snapshot area: %s", os_error_text()); return 0; }
    g_memory.game.base = p;
    g_memory.game.size = bytes;
    g_memory.game.used = 0;
    g_memory.snapshot = (uint8_t *)s;
    return 1;
}

/* The game reports its high-water mark in GameMemory.used; only that much is copied or cleared. */
uint64_t memory_used(void)
{
    return g_memory.game.used > g_memory.game.size ? g_memory.game.size : g_memory.game.used;
}

/* The first write to a fresh page costs a fault (about 160 ms per 64 MiB here): touch the snapshot
   area a little every frame, ahead of the game's growth, so a reload never pays for it. */
void memory_snapshot_prefault(void)
{
    const uint64_t PER_FRAME = 2u << 20;
    uint64_t want = memory_used();
    if (g_memory.snapshot_faulted >= want) return;
    uint64_t n = want - g_memory.snapshot_faulted < PER_FRAME ? want - g_memory.snapshot_faulted : PER_FRAME;
    memset(g_memory.snapshot + g_memory.snapshot_faulted, 0, n);
    g_memory.snapshot_faulted += n;
}

double memory_snapshot_take(uint64_t step)
{
    double t = os_mono_seconds();
    g_memory.snapshot_used = memory_used();
    memcpy(g_memory.snapshot, g_memory.game.base, g_memory.snapshot_used);
    if (g_memory.snapshot_used > g_memory.snapshot_faulted) g_memory.snapshot_faulted = g_memory.snapshot_used;
    g_memory.snapshot_step = step;
    return (os_mono_seconds() - t) * 1000.0;
}

void memory_snapshot_restore(void)
{
    uint64_t now_used = memory_used();
    memcpy(g_memory.game.base, g_memory.snapshot, g_memory.snapshot_used);
    if (now_used > g_memory.snapshot_used)
        memset((uint8_t *)g_memory.game.base + g_memory.snapshot_used, 0, now_used - g_memory.snapshot_used);
}

void memory_reset(void)
{
    memset(g_memory.game.base, 0, memory_used());
    g_memory.game.used = 0;
}

uint64_t memory_hash(void)
{
    return th_hash_bytes64(g_memory.game.base, (size_t)memory_used());
}

int memory_find_pointers(const OsRange *ranges, int range_count, PointerHit *hits, int max)
{
    if (range_count <= 0) return 0;
    uintptr_t lo = ranges[0].lo, hi = ranges[0].hi;
    for (int r = 1; r < range_count; r++) {
        if (ranges[r].lo < lo) lo = ranges[r].lo;
        if (ranges[r].hi > hi) hi = ranges[r].hi;
    }
    const uint8_t *base = (const uint8_t *)g_memory.game.base;
    uint64_t words = memory_used() / 8;
    int count = 0;
    for (uint64_t i = 0; i < words; i++) {
        uintptr_t v;
        memcpy(&v, base + i * 8, 8);
        if (v < lo || v >= hi) continue;          /* nearly every word: outside the image's span */
        for (int r = 0; r < range_count; r++) {
            if (v < ranges[r].lo || v >= ranges[r].hi) continue;
            if (count < max) { hits[count].state_offset = i * 8; hits[count].value = v; hits[count].range = r; }
            count++;
            break;
        }
    }
    return count;
}
