// Unit tests for tinyheaders/th_arena.h, compiled as C++17.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "th_arena.h"

#include <stdint.h>
#include <string.h>

// Memory handed to the allocators is prefilled with garbage so zero-filling is observable.
static void fill_garbage(void *mem, size_t n) { memset(mem, 0xAB, n); }

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

static void test_arena_push_basic(void)
{
    alignas(64) static uint8_t mem[256];
    fill_garbage(mem, sizeof mem);
    tha_arena a;
    tha_arena_init(&a, mem, sizeof mem);
    TH_CHECK(a.base == mem && a.size == 256 && a.used == 0 && a.high_water == 0);
    uint8_t *p = (uint8_t *)tha_push(&a, 10, 1);
    TH_CHECK(p == mem);
    TH_CHECK(all_zero(p, 10));
    TH_CHECK(a.used == 10);
    uint8_t *q = (uint8_t *)tha_push(&a, 6, 1);
    TH_CHECK(q == mem + 10);
    TH_CHECK(tha_remaining(&a) == 240);
    // Exactly filling the arena works, one more byte does not.
    uint8_t *rest = (uint8_t *)tha_push(&a, 240, 1);
    TH_CHECK(rest == mem + 16);
    TH_CHECK(all_zero(rest, 240));
    TH_CHECK(a.used == 256);
    TH_CHECK(tha_push(&a, 1, 1) == NULL);
    TH_CHECK(a.used == 256);
    void *z = tha_push(&a, 0, 1);   // zero bytes still fit at the very end
    TH_CHECK(z == mem + 256);
}

static void test_arena_full_returns_null_unchanged(void)
{
    alignas(64) static uint8_t mem[100];
    tha_arena a;
    tha_arena_init(&a, mem, sizeof mem);
    TH_CHECK(tha_push(&a, 101, 1) == NULL);
    TH_CHECK(a.used == 0 && a.high_water == 0);
    TH_CHECK(tha_push(&a, 60, 1) != NULL);
    TH_CHECK(tha_push(&a, 41, 1) == NULL);
    TH_CHECK(a.used == 60);
    // 37 bytes fit at offset 60, but not after padding to 64.
    TH_CHECK(tha_push(&a, 37, 64) == NULL);
    TH_CHECK(a.used == 60);
    TH_CHECK(tha_push(&a, 10, 1) != NULL);                   // used = 70
    TH_CHECK(tha_push(&a, 0, 64) == NULL);                   // padding to 128 alone exceeds the 30 left
    TH_CHECK(tha_push(&a, 20, 32) == NULL);
    TH_CHECK(a.used == 70);
    tha_restore(&a, tha_mark{60});
    TH_CHECK(tha_push(&a, (size_t)-1, 1) == NULL);           // size overflow
    TH_CHECK(tha_push(&a, (size_t)-1 - 2, 16) == NULL);
    TH_CHECK(tha_push(&a, 4, 3) == NULL);                    // not a power of two
    TH_CHECK(a.used == 60);
    TH_CHECK(tha_push_array(&a, uint64_t, ((size_t)-1 / 8) + 2) == NULL);   // count * size overflows
    TH_CHECK(a.used == 60);

    tha_arena empty;
    tha_arena_init(&empty, NULL, 1000);
    TH_CHECK(empty.size == 0);
    TH_CHECK(tha_push(&empty, 1, 1) == NULL);
    TH_CHECK(tha_push(&empty, 0, 1) == NULL);
}

static void test_arena_alignment(void)
{
    alignas(64) static uint8_t mem[4096];
    const size_t aligns[] = { 1, 2, 4, 8, 16, 64 };
    // Start from every misalignment of the buffer itself: the address, not the offset, is aligned.
    for (size_t start = 0; start < 8; start++) {
        tha_arena a;
        tha_arena_init(&a, mem + start, sizeof mem - start);
        for (int round = 0; round < 20; round++) {
            for (size_t k = 0; k < sizeof aligns / sizeof aligns[0]; k++) {
                size_t al = aligns[k];
                size_t before = a.used;
                uint8_t *p = (uint8_t *)tha_push(&a, 3, al);
                TH_CHECK(p != NULL);
                TH_CHECK_MSG(((uintptr_t)p % al) == 0, "start %zu align %zu gave %p", start, al, (void *)p);
                TH_CHECK(p >= mem + start + before);
                TH_CHECK((size_t)(p - (mem + start + before)) < al);   // minimal padding
                TH_CHECK(a.used == (size_t)(p - (mem + start)) + 3);
            }
        }
    }
    tha_arena a;
    tha_arena_init(&a, mem + 1, 100);
    void *d = tha_push(&a, 1, 0);   // 0 = default alignment
    TH_CHECK(((uintptr_t)d % THA_DEFAULT_ALIGN) == 0);
}

struct big_aligned { alignas(64) float v[3]; };
struct small_thing { char c; short s; };

static void test_push_struct_and_array(void)
{
    alignas(64) static uint8_t mem[2048];
    fill_garbage(mem, sizeof mem);
    tha_arena a;
    tha_arena_init(&a, mem + 1, sizeof mem - 1);
    small_thing *s = tha_push_struct(&a, small_thing);
    TH_CHECK(s && ((uintptr_t)s % alignof(small_thing)) == 0);
    TH_CHECK(s->c == 0 && s->s == 0);
    big_aligned *b = tha_push_struct(&a, big_aligned);
    TH_CHECK(b && ((uintptr_t)b % 64) == 0);
    TH_CHECK(b->v[0] == 0.0f && b->v[2] == 0.0f);
    double *arr = tha_push_array(&a, double, 50);
    TH_CHECK(arr && ((uintptr_t)arr % alignof(double)) == 0);
    TH_CHECK(all_zero(arr, 50 * sizeof(double)));
    TH_CHECK((uint8_t *)(arr + 50) <= mem + 2048);
    TH_CHECK(THA_ALIGNOF(uint64_t) == alignof(uint64_t));
    TH_CHECK(tha_push_array(&a, double, 1000) == NULL);
}

static void test_marks_and_high_water(void)
{
    static uint8_t mem[1024];
    fill_garbage(mem, sizeof mem);
    tha_arena a;
    tha_arena_init(&a, mem, sizeof mem);
    tha_push(&a, 100, 1);
    tha_mark m1 = tha_save(&a);
    TH_CHECK(m1.used == 100);
    uint8_t *p = (uint8_t *)tha_push(&a, 200, 1);
    memset(p, 0x55, 200);
    tha_mark m2 = tha_save(&a);
    tha_push(&a, 300, 1);
    TH_CHECK(a.used == 600 && a.high_water == 600);
    tha_restore(&a, m2);
    TH_CHECK(a.used == 300);
    tha_restore(&a, m1);
    TH_CHECK(a.used == 100);
    TH_CHECK(a.high_water == 600);
    tha_restore(&a, m2);                 // a mark above the top is ignored
    TH_CHECK(a.used == 100);
    uint8_t *again = (uint8_t *)tha_push(&a, 200, 1);
    TH_CHECK(again == p);
    TH_CHECK(all_zero(again, 200));      // reused memory is zeroed again
    tha_reset(&a);
    TH_CHECK(a.used == 0 && a.high_water == 600);
    TH_CHECK(tha_push(&a, 1024, 1) == mem);
    TH_CHECK(a.high_water == 1024);

    // Nested scratch scopes, many rounds: used always returns to the mark.
    tha_reset(&a);
    tha_push(&a, 10, 1);
    for (int round = 0; round < 100; round++) {
        tha_mark outer = tha_save(&a);
        tha_push(&a, (size_t)(round % 37) + 1, 8);
        tha_mark inner = tha_save(&a);
        tha_push(&a, 50, 16);
        tha_restore(&a, inner);
        TH_CHECK(a.used == inner.used);
        tha_restore(&a, outer);
        TH_CHECK(a.used == 10);
    }
}

static void test_sub_arena(void)
{
    alignas(16) static uint8_t mem[1000];
    tha_arena parent;
    tha_arena_init(&parent, mem, sizeof mem);
    tha_push(&parent, 3, 1);
    tha_arena child = tha_sub_arena(&parent, 400);
    TH_CHECK(child.base != NULL && child.size == 400 && child.used == 0);
    TH_CHECK(((uintptr_t)child.base % THA_DEFAULT_ALIGN) == 0);
    TH_CHECK(child.base >= mem + 3 && child.base + 400 <= mem + 1000);
    TH_CHECK(parent.used == (size_t)(child.base - mem) + 400);
    TH_CHECK(tha_push(&child, 400, 1) == child.base);
    TH_CHECK(tha_push(&child, 1, 1) == NULL);
    // The parent's next piece does not overlap the child.
    uint8_t *after = (uint8_t *)tha_push(&parent, 8, 1);
    TH_CHECK(after >= child.base + 400);
    // Too big: an empty child, every push fails, parent unchanged.
    size_t used = parent.used;
    tha_arena none = tha_sub_arena(&parent, 10000);
    TH_CHECK(none.base == NULL && none.size == 0);
    TH_CHECK(tha_push(&none, 1, 1) == NULL);
    TH_CHECK(parent.used == used);
}

static void test_pool_basic(void)
{
    struct item { uint64_t a; uint32_t b; };
    const uint32_t cap = 8;
    alignas(16) static uint8_t mem[8 * 16];
    TH_CHECK(tha_pool_bytes(sizeof(item), cap) == 8 * sizeof(item));
    fill_garbage(mem, sizeof mem);
    tha_pool p;
    tha_pool_init(&p, mem, sizeof(item), cap);
    item *got[8];
    for (uint32_t i = 0; i < cap; i++) {
        got[i] = (item *)tha_pool_alloc(&p);
        TH_CHECK(got[i] != NULL);
        TH_CHECK(all_zero(got[i], sizeof(item)));
        TH_CHECK(((uintptr_t)got[i] % alignof(item)) == 0);
        TH_CHECK(tha_pool_index(&p, got[i]) == i);
        TH_CHECK(tha_pool_at(&p, i) == got[i]);
        got[i]->a = 0x1111111111111111ull * (i + 1);
    }
    TH_CHECK(p.count == cap);
    TH_CHECK(tha_pool_alloc(&p) == NULL);          // exhausted
    TH_CHECK(tha_pool_alloc(&p) == NULL);
    TH_CHECK(p.count == cap);
    tha_pool_free(&p, got[3]);
    tha_pool_free(&p, got[5]);
    TH_CHECK(p.count == cap - 2);
    TH_CHECK(got[4]->a == 0x5555555555555555ull);   // neighbours untouched by the free list
    item *r1 = (item *)tha_pool_alloc(&p);
    item *r2 = (item *)tha_pool_alloc(&p);
    TH_CHECK((r1 == got[5] && r2 == got[3]) || (r1 == got[3] && r2 == got[5]));
    TH_CHECK(all_zero(r1, sizeof(item)) && all_zero(r2, sizeof(item)));
    TH_CHECK(tha_pool_alloc(&p) == NULL);

    // Foreign and misaligned pointers are rejected and change nothing.
    uint32_t before = p.count;
    int outside;
    tha_pool_free(&p, &outside);
    tha_pool_free(&p, (uint8_t *)got[2] + 1);
    tha_pool_free(&p, NULL);
    tha_pool_free(&p, mem + sizeof mem);
    TH_CHECK(p.count == before);
    TH_CHECK(tha_pool_index(&p, (uint8_t *)got[2] + 1) == THA_POOL_NONE);
    TH_CHECK(tha_pool_index(&p, mem + sizeof mem) == THA_POOL_NONE);
    TH_CHECK(tha_pool_at(&p, cap) == NULL);

    // An item that was never handed out cannot be freed.
    tha_pool_clear(&p);
    tha_pool_alloc(&p);
    tha_pool_free(&p, tha_pool_at(&p, 5));
    TH_CHECK(p.count == 1);
    TH_CHECK(tha_pool_index(&p, tha_pool_alloc(&p)) == 1);

    tha_pool_clear(&p);
    TH_CHECK(p.count == 0);
    for (uint32_t i = 0; i < cap; i++) TH_CHECK(tha_pool_alloc(&p) != NULL);
    TH_CHECK(tha_pool_alloc(&p) == NULL);
}

static void test_pool_small_items_and_empty(void)
{
    // Items smaller than the 4-byte free-list link are widened to 4.
    static uint8_t mem[64];
    TH_CHECK(tha_pool_bytes(1, 16) == 64);
    tha_pool p;
    tha_pool_init(&p, mem, 1, 16);
    TH_CHECK(p.item_size == 4);
    uint8_t *a = (uint8_t *)tha_pool_alloc(&p);
    uint8_t *b = (uint8_t *)tha_pool_alloc(&p);
    TH_CHECK(b == a + 4);
    tha_pool_free(&p, a);
    TH_CHECK(tha_pool_alloc(&p) == a);

    tha_pool empty;
    tha_pool_init(&empty, NULL, 16, 100);
    TH_CHECK(empty.capacity == 0);
    TH_CHECK(tha_pool_alloc(&empty) == NULL);
    tha_pool zero_cap;
    tha_pool_init(&zero_cap, mem, 16, 0);
    TH_CHECK(tha_pool_alloc(&zero_cap) == NULL);
}

// 100k random alloc/free operations against a model: a "live" flag per slot plus a
// tag written into each live item that must survive other operations untouched.
static void test_pool_random_against_model(void)
{
    enum { CAP = 300, SIZE = 12 };
    alignas(16) static uint8_t mem[CAP * SIZE];
    static void *live[CAP];
    static uint32_t tags[CAP];
    fill_garbage(mem, sizeof mem);
    tha_pool p;
    tha_pool_init(&p, mem, SIZE, CAP);
    uint32_t n_live = 0;
    uint64_t x = 0x243F6A8885A308D3ull;
    int bad = 0;
    for (int op = 0; op < 100000 && bad < 5; op++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int do_alloc = (x % 100) < (op % 2000 < 1000 ? 60u : 40u);   // phases of growth and shrink
        if (do_alloc) {
            uint8_t *it = (uint8_t *)tha_pool_alloc(&p);
            if (n_live == CAP) {
                if (it != NULL) { TH_CHECK_MSG(0, "op %d: alloc succeeded on a full pool", op); bad++; }
                continue;
            }
            if (!it) { TH_CHECK_MSG(0, "op %d: alloc failed with %u live", op, n_live); bad++; continue; }
            uint32_t idx = tha_pool_index(&p, it);
            if (idx >= CAP || live[idx]) { TH_CHECK_MSG(0, "op %d: handed out live or bad slot %u", op, idx); bad++; continue; }
            if (!all_zero(it, SIZE)) { TH_CHECK_MSG(0, "op %d: item not zeroed", op); bad++; }
            live[idx] = it;
            tags[idx] = (uint32_t)(x >> 32);
            memcpy(it, &tags[idx], 4);
            memcpy(it + SIZE - 4, &tags[idx], 4);
            n_live++;
        } else if (n_live) {
            uint32_t pick = (uint32_t)(x >> 20) % CAP;
            while (!live[pick]) pick = (pick + 1) % CAP;
            uint32_t t0, t1;
            memcpy(&t0, live[pick], 4);
            memcpy(&t1, (uint8_t *)live[pick] + SIZE - 4, 4);
            if (t0 != tags[pick] || t1 != tags[pick]) { TH_CHECK_MSG(0, "op %d: slot %u contents clobbered", op, pick); bad++; }
            tha_pool_free(&p, live[pick]);
            live[pick] = NULL;
            n_live--;
        }
        if (p.count != n_live) { TH_CHECK_MSG(0, "op %d: count %u, model %u", op, p.count, n_live); bad++; }
    }
    TH_CHECK(bad == 0);
}

// Everything lives inside the block: a byte copy of block + structs is an equivalent allocator.
static void test_pool_snapshot_copy(void)
{
    struct state { tha_arena arena; tha_pool pool; uint8_t block[1024]; };
    static state s, snap;
    tha_arena_init(&s.arena, s.block, sizeof s.block);
    void *pm = tha_push(&s.arena, tha_pool_bytes(16, 32), 16);
    tha_pool_init(&s.pool, pm, 16, 32);
    void *items[10];
    for (int i = 0; i < 10; i++) items[i] = tha_pool_alloc(&s.pool);
    tha_pool_free(&s.pool, items[2]);
    tha_pool_free(&s.pool, items[7]);
    memcpy(&snap, &s, sizeof s);
    void *a1 = tha_pool_alloc(&s.pool);
    void *a2 = tha_pool_alloc(&s.pool);
    memcpy(&s, &snap, sizeof s);          // roll back
    TH_CHECK(tha_pool_alloc(&s.pool) == a1);
    TH_CHECK(tha_pool_alloc(&s.pool) == a2);
    TH_CHECK(s.pool.count == 10);
}

int main(void)
{
    TH_RUN(test_arena_push_basic);
    TH_RUN(test_arena_full_returns_null_unchanged);
    TH_RUN(test_arena_alignment);
    TH_RUN(test_push_struct_and_array);
    TH_RUN(test_marks_and_high_water);
    TH_RUN(test_sub_arena);
    TH_RUN(test_pool_basic);
    TH_RUN(test_pool_small_items_and_empty);
    TH_RUN(test_pool_random_against_model);
    TH_RUN(test_pool_snapshot_copy);
    return th_test_finish();
}
