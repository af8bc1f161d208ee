/* memory.cpp - the game's memory block and the snapshot of its used part taken before new code runs
   (the state a crash rolls back to). */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "th_math.h"

static Memory g_memory;

Memory *memory_state(void) { return &g_memory; }

#define TWEAK_COPY   "memory.tweak_copy"   /* the session's area for the state before TWEAK values went live */
#define TWEAK_WINDOW "memory.tweak"        /* the session slice of the TWEAK window (TweakWindow) */

int memory_init(uint64_t bytes)
{
    /* Shared memory that outlives the process (restart.cpp), at a fixed address where the OS allows: pointers
       inside the block stay valid across a hot restart, recordings and snapshots. */
    uint8_t *p = NULL, *s = NULL;
    restart_reserve(TWEAK_COPY, bytes);
    if (!restart_memory(bytes, &p, &s)) {
        log_message(LOG_ERROR, "memory: cannot reserve %llu MB: %s", (unsigned long long)(bytes >> 20),
                    os_error_text());
        return 0;
    }
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

/* The game is handed a copy of the block's description on every call: whatever it writes into that
   copy (base, size), the host reads back only `used`, clamped to the block. */
GameMemory memory_lend(void) { return g_memory.game; }

void memory_take_back(const GameMemory *lent)
{
    g_memory.game.used = lent->used > g_memory.game.size ? g_memory.game.size : lent->used;
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

/* Game code may have made the block read-only (mprotect): every host write into it - a rollback's restore, a
   migration, a reset - makes it writable first, or the restore itself faults in host code. */
void memory_make_writable(void)
{
    if (g_memory.game.base && !os_make_writable(g_memory.game.base, g_memory.game.size))
        log_message(LOG_ERROR, "memory: cannot make the block writable again: %s", os_error_text());
}

double memory_snapshot_take(uint64_t step)
{
    double t = os_mono_seconds();
    g_memory.snapshot_used = memory_used();
    memcpy(g_memory.snapshot, g_memory.game.base, g_memory.snapshot_used);
    if (g_memory.snapshot_used > g_memory.snapshot_faulted) g_memory.snapshot_faulted = g_memory.snapshot_used;
    g_memory.snapshot_step = step;
    memory_keep();
    return (os_mono_seconds() - t) * 1000.0;
}

/* A fault inside a restore (game code made the snapshot unreadable, or the block in a way mprotect cannot
   undo) is the crashed library's doing: restart.cpp restarts in rollback mode, never with that library. */
void memory_snapshot_restore(void)
{
    restart_restoring(1);
    memory_make_writable();
    uint64_t now_used = memory_used();
    memcpy(g_memory.game.base, g_memory.snapshot, g_memory.snapshot_used);
    if (now_used > g_memory.snapshot_used)
        memset((uint8_t *)g_memory.game.base + g_memory.snapshot_used, 0, now_used - g_memory.snapshot_used);
    restart_restoring(0);
}

/* The state just before a TWEAK value went live (reload.cpp's tweak window): its own copy, so the crash
   snapshot of the running code stays what it was. In an area of the session (restart_reserve), so a hot restart
   soon after the value went live goes back to it; on the heap without one. The window itself is a slice. */
static struct { uint8_t *bytes; uint64_t cap; } g_tweak_heap;

TweakWindow *memory_tweak_window(void) { return (TweakWindow *)session_slice(TWEAK_WINDOW, sizeof(TweakWindow)); }

static uint8_t *tweak_copy(uint64_t need)
{
    uint64_t cap;
    uint8_t *area = restart_area(TWEAK_COPY, &cap);
    if (area) return need <= cap ? area : NULL;
    if (need > g_tweak_heap.cap) {
        uint8_t *p = (uint8_t *)realloc(g_tweak_heap.bytes, need);
        if (!p) return NULL;
        g_tweak_heap.bytes = p;
        g_tweak_heap.cap = need;
    }
    return g_tweak_heap.bytes;
}

double memory_tweak_snapshot_take(void)
{
    double t = os_mono_seconds();
    uint64_t used = memory_used();
    TweakWindow *tw = memory_tweak_window();
    uint8_t *copy = tweak_copy(used);
    tw->used = 0;
    if (!copy) return -1;
    memcpy(copy, g_memory.game.base, used);
    tw->used = used;
    restart_area_used(TWEAK_COPY, used);
    return (os_mono_seconds() - t) * 1000.0;
}

int memory_tweak_snapshot_restore(void)
{
    TweakWindow *tw = memory_tweak_window();
    uint8_t *copy = tw->used ? tweak_copy(tw->used) : NULL;
    if (!copy) return 0;
    restart_restoring(1);
    memory_make_writable();
    uint64_t now_used = memory_used();
    memcpy(g_memory.game.base, copy, tw->used);
    if (now_used > tw->used) memset((uint8_t *)g_memory.game.base + tw->used, 0, now_used - tw->used);
    g_memory.game.used = tw->used;
    restart_restoring(0);
    return 1;
}

void memory_reset(void)
{
    memory_make_writable();
    memset(g_memory.game.base, 0, memory_used());
    g_memory.game.used = 0;
}

uint64_t memory_hash(void)
{
    return th_hash_bytes64(g_memory.game.base, (size_t)memory_used());
}

/* Which of the ranges holds v: its index, or -1. */
static int pointer_range(const OsRange *ranges, int range_count, uintptr_t v)
{
    for (int r = 0; r < range_count; r++)
        if (v >= ranges[r].lo && v < ranges[r].hi) return r;
    return -1;
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
    uint64_t used = memory_used();
    if (used < sizeof(uintptr_t) || hi <= lo) return 0;
    uint64_t last = used - sizeof(uintptr_t);     /* the last byte a word can start at */
    int count = 0;
    /* Every byte offset, not only aligned words (a packed struct or a memcpy puts a pointer anywhere).
       When the image's span shares its top three bytes (it lies within one 1 TiB-aligned region), a word
       inside it has byte 5 equal to the span's: memchr finds those candidates, nearly every other byte
       is skipped at memchr's speed. Otherwise every offset is read. (32-bit addresses: the top byte.) */
    const int KEY = sizeof(uintptr_t) == 8 ? 5 : 3;
    uint8_t key = (uint8_t)(lo >> (8 * KEY));
    int keyed = (lo >> (8 * KEY)) == ((hi - 1) >> (8 * KEY));
    uint64_t i = 0;
    while (i <= last) {
        if (keyed) {
            const uint8_t *p = (const uint8_t *)memchr(base + i + KEY, key, (size_t)(last - i + 1));
            if (!p) break;
            i = (uint64_t)(p - base) - KEY;
        }
        uintptr_t v;
        memcpy(&v, base + i, sizeof v);
        if (v >= lo && v < hi) {
            int r = pointer_range(ranges, range_count, v);
            if (r >= 0) {
                if (count < max) { hits[count].state_offset = i; hits[count].value = v; hits[count].range = r; }
                count++;
            }
        }
        i++;
    }
    return count;
}

/* ---------------------------------------------------------------- kept across a hot restart */
/* The block and the snapshot themselves are the session's memory (restart_memory); how much of each is in use
   and the snapshot's step are this slice. */
typedef struct KeptMemory { uint64_t used, snapshot_used, snapshot_step; } KeptMemory;

void memory_keep(void)
{
    KeptMemory *k = (KeptMemory *)session_slice("memory.block", sizeof(KeptMemory));
    k->used = g_memory.game.used;
    k->snapshot_used = g_memory.snapshot_used;
    k->snapshot_step = g_memory.snapshot_step;
}

void memory_resume(void)
{
    if (!session_slice_kept("memory.block")) return;
    const KeptMemory *k = (const KeptMemory *)session_slice("memory.block", sizeof(KeptMemory));
    g_memory.game.used = k->used;
    g_memory.snapshot_used = k->snapshot_used;
    g_memory.snapshot_step = k->snapshot_step;
}
