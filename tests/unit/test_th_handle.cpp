// Unit tests for tinyheaders/th_handle.h, compiled as C++17.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "th_handle.h"

#include <stdint.h>
#include <string.h>

static uint32_t g_mem[4 * 4096];

static void make_pool(thh_pool *p, uint32_t cap)
{
    TH_CHECK(thh_pool_bytes(cap) <= sizeof g_mem);
    memset(g_mem, 0xCD, sizeof g_mem);
    thh_pool_init(p, g_mem, cap);
}

// Every structural invariant the pool relies on, checked from the outside.
static int pool_consistent(const thh_pool *p)
{
    if (p->count > p->capacity) return 0;
    for (uint32_t i = 0; i < p->count; i++) {
        thh_handle h = thh_at(p, i);
        if (!thh_valid(p, h)) return 0;
        if (thh_dense_index(p, h) != i) return 0;
        for (uint32_t j = 0; j < i; j++)
            if (p->count <= 64 && thh_index(thh_at(p, j)) == thh_index(h)) return 0;
    }
    uint32_t free_n = 0;
    for (uint32_t s = p->free_head; s != THH_NONE && free_n <= p->capacity; s = p->next_free[s]) {
        if (s >= p->capacity || p->sparse_to_dense[s] != THH_NONE) return 0;
        free_n++;
    }
    return free_n + p->count == p->capacity;
}

static void test_handle_encoding(void)
{
    thh_handle n = thh_null();
    TH_CHECK(n.value == 0 && thh_is_null(n));
    TH_CHECK(THH_MAX_CAPACITY == (1u << 20));
    TH_CHECK(THH_MAX_GENERATION == 4095u);
    thh_pool p;
    make_pool(&p, 16);
    thh_handle h = thh_alloc(&p);
    TH_CHECK(!thh_is_null(h));
    TH_CHECK(thh_index(h) == 0);
    TH_CHECK(thh_generation(h) == 1);
    TH_CHECK(h.value == (1u << 20));
    thh_handle h2 = thh_alloc(&p);
    TH_CHECK(thh_index(h2) == 1 && thh_generation(h2) == 1);
    TH_CHECK(!thh_equal(h, h2) && thh_equal(h, h));
    TH_CHECK(!thh_valid(&p, n));
    TH_CHECK(thh_free(&p, n) == 0);
    // A zeroed record holds only null handles.
    struct rec { thh_handle target; } r;
    memset(&r, 0, sizeof r);
    TH_CHECK(!thh_valid(&p, r.target));
}

static void test_alloc_until_full(void)
{
    thh_pool p;
    make_pool(&p, 100);
    TH_CHECK(thh_pool_bytes(100) == 100 * 16);
    int seen[100] = { 0 };
    for (int i = 0; i < 100; i++) {
        thh_handle h = thh_alloc(&p);
        TH_CHECK(!thh_is_null(h) && thh_valid(&p, h));
        TH_CHECK(thh_index(h) < 100);
        if (thh_index(h) < 100) seen[thh_index(h)]++;
    }
    for (int i = 0; i < 100; i++) TH_CHECK(seen[i] == 1);
    TH_CHECK(thh_count(&p) == 100);
    TH_CHECK(thh_is_null(thh_alloc(&p)));      // full
    TH_CHECK(thh_is_null(thh_alloc(&p)));
    TH_CHECK(thh_count(&p) == 100);
    TH_CHECK(pool_consistent(&p));
    TH_CHECK(thh_is_null(thh_at(&p, 100)));
}

static void test_stale_after_reuse(void)
{
    thh_pool p;
    make_pool(&p, 1);
    thh_handle a = thh_alloc(&p);
    TH_CHECK(thh_valid(&p, a));
    TH_CHECK(thh_free(&p, a) == 1);
    TH_CHECK(!thh_valid(&p, a));
    TH_CHECK(thh_free(&p, a) == 0);            // double free is a no-op
    TH_CHECK(thh_count(&p) == 0);
    thh_handle b = thh_alloc(&p);
    TH_CHECK(thh_index(b) == thh_index(a));     // the one slot is reused...
    TH_CHECK(!thh_equal(a, b));
    TH_CHECK(thh_valid(&p, b));
    TH_CHECK(!thh_valid(&p, a));               // ...and the old handle stays dead
    TH_CHECK(thh_free(&p, a) == 0);            // freeing the stale handle does not free b
    TH_CHECK(thh_valid(&p, b) && thh_count(&p) == 1);
    TH_CHECK(thh_dense_index(&p, a) == THH_NONE);

    // Handles for slots outside the pool, or with a forged generation, are invalid.
    thh_handle outside;
    outside.value = (1u << 20) | 5u;
    TH_CHECK(!thh_valid(&p, outside));
    TH_CHECK(thh_free(&p, outside) == 0);
    thh_handle forged;
    forged.value = b.value + (1u << 20);
    TH_CHECK(!thh_valid(&p, forged));
}

static void test_fifo_reuse(void)
{
    thh_pool p;
    make_pool(&p, 4);
    thh_handle h[4];
    for (int i = 0; i < 4; i++) h[i] = thh_alloc(&p);
    thh_free(&p, h[2]);
    thh_free(&p, h[0]);
    thh_handle x = thh_alloc(&p), y = thh_alloc(&p);
    TH_CHECK(thh_index(x) == 2 && thh_index(y) == 0);   // oldest free slot first
    TH_CHECK(thh_generation(x) == 2 && thh_generation(y) == 2);
    TH_CHECK(pool_consistent(&p));
}

static void test_generation_wraps_skipping_zero(void)
{
    thh_pool p;
    make_pool(&p, 1);
    thh_handle first = thh_alloc(&p);
    thh_handle h = first;
    uint32_t prev_gen = thh_generation(h);
    int wrapped = 0;
    for (uint32_t i = 0; i < 2 * THH_MAX_GENERATION + 5; i++) {
        TH_CHECK(thh_free(&p, h) == 1);
        h = thh_alloc(&p);
        uint32_t g = thh_generation(h);
        TH_CHECK(h.value != 0 && g != 0);
        TH_CHECK(g <= THH_MAX_GENERATION);
        if (g < prev_gen) {
            TH_CHECK(prev_gen == THH_MAX_GENERATION && g == 1);
            wrapped++;
        } else {
            TH_CHECK(g == prev_gen + 1);
        }
        // Between wraps the first handle is dead.
        if (g != 1) TH_CHECK(!thh_valid(&p, first));
        prev_gen = g;
    }
    TH_CHECK(wrapped == 2);
}

static void test_iteration_and_swap_remove(void)
{
    thh_pool p;
    make_pool(&p, 10);
    thh_handle h[10];
    for (int i = 0; i < 10; i++) h[i] = thh_alloc(&p);
    for (uint32_t i = 0; i < 10; i++) TH_CHECK(thh_equal(thh_at(&p, i), h[i]));
    thh_free(&p, h[3]);
    // The last live handle moved into the freed position.
    TH_CHECK(thh_count(&p) == 9);
    TH_CHECK(thh_equal(thh_at(&p, 3), h[9]));
    TH_CHECK(thh_dense_index(&p, h[9]) == 3);
    // Freeing during a backwards iteration visits every live handle once.
    int visited[10] = { 0 };
    for (uint32_t i = thh_count(&p); i-- > 0;) {
        thh_handle e = thh_at(&p, i);
        visited[thh_index(e)]++;
        if (thh_index(e) % 2 == 0) thh_free(&p, e);
    }
    for (int i = 0; i < 10; i++) TH_CHECK(visited[i] == (i == 3 ? 0 : 1));
    TH_CHECK(thh_count(&p) == 4);               // 1, 5, 7, 9 remain
    for (uint32_t i = 0; i < thh_count(&p); i++) TH_CHECK(thh_index(thh_at(&p, i)) % 2 == 1);
    TH_CHECK(pool_consistent(&p));
    thh_clear(&p);
    TH_CHECK(thh_count(&p) == 0);
    TH_CHECK(!thh_valid(&p, h[1]) && !thh_valid(&p, h[9]));
    TH_CHECK(pool_consistent(&p));
    for (int i = 0; i < 10; i++) TH_CHECK(!thh_is_null(thh_alloc(&p)));
    TH_CHECK(thh_is_null(thh_alloc(&p)));
    for (int i = 0; i < 10; i++) TH_CHECK(!thh_valid(&p, h[i]));   // every slot reused, old handles stay dead
}

static void test_empty_and_clamped(void)
{
    thh_pool p;
    thh_pool_init(&p, NULL, 10);
    TH_CHECK(p.capacity == 0);
    TH_CHECK(thh_is_null(thh_alloc(&p)));
    make_pool(&p, 0);
    TH_CHECK(thh_is_null(thh_alloc(&p)));
    TH_CHECK(thh_count(&p) == 0);
    thh_handle any;
    any.value = 1u << 20;
    TH_CHECK(!thh_valid(&p, any));
    TH_CHECK(thh_pool_bytes(0xFFFFFFFFu) == (size_t)THH_MAX_CAPACITY * 16);
}

// 100k random operations against a model that keeps, per slot, the last handle
// handed out and whether it is live, plus every handle ever freed (which must stay dead
// until its slot's generation could have wrapped).
static void test_random_against_model(void)
{
    enum { CAP = 500 };
    thh_pool p;
    make_pool(&p, CAP);
    static thh_handle current[CAP];
    static int live[CAP];
    static thh_handle dead[CAP];       // the most recently freed handle of each slot
    uint32_t n_live = 0;
    uint64_t x = 0x9E3779B97F4A7C15ull;
    int bad = 0;
    for (int op = 0; op < 100000 && bad < 5; op++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint32_t r = (uint32_t)(x >> 32);
        int phase_grow = (op / 3000) % 2 == 0;
        uint32_t kind = r % 100;
        if (kind < (phase_grow ? 55u : 35u)) {
            thh_handle h = thh_alloc(&p);
            if (n_live == CAP) {
                if (!thh_is_null(h)) { TH_CHECK_MSG(0, "op %d: alloc on full pool", op); bad++; }
                continue;
            }
            uint32_t s = thh_index(h);
            if (thh_is_null(h) || s >= CAP || live[s]) { TH_CHECK_MSG(0, "op %d: bad alloc %08x", op, h.value); bad++; continue; }
            if (dead[s].value && thh_equal(dead[s], h)) { TH_CHECK_MSG(0, "op %d: reissued a freed handle", op); bad++; }
            current[s] = h;
            live[s] = 1;
            n_live++;
        } else if (kind < 95u) {
            // Free a live handle, or try a stale one.
            uint32_t s = (r >> 8) % CAP;
            if (live[s]) {
                if (thh_free(&p, current[s]) != 1) { TH_CHECK_MSG(0, "op %d: free of live failed", op); bad++; }
                live[s] = 0;
                dead[s] = current[s];
                n_live--;
            } else if (dead[s].value) {
                if (thh_free(&p, dead[s]) != 0) { TH_CHECK_MSG(0, "op %d: stale free succeeded", op); bad++; }
            }
        } else {
            // Validity of a sample of slots, live and stale.
            for (uint32_t k = 0; k < 8; k++) {
                uint32_t s = (r + k * 61) % CAP;
                if (live[s] && !thh_valid(&p, current[s])) { TH_CHECK_MSG(0, "op %d: live invalid", op); bad++; }
                if (dead[s].value && thh_valid(&p, dead[s])) { TH_CHECK_MSG(0, "op %d: stale valid", op); bad++; }
            }
        }
        if (thh_count(&p) != n_live) { TH_CHECK_MSG(0, "op %d: count %u model %u", op, thh_count(&p), n_live); bad++; }
        if (op % 997 == 0) {
            if (!pool_consistent(&p)) { TH_CHECK_MSG(0, "op %d: inconsistent", op); bad++; }
            // The dense array holds exactly the model's live set.
            uint32_t matched = 0;
            for (uint32_t i = 0; i < thh_count(&p); i++) {
                thh_handle h = thh_at(&p, i);
                uint32_t s = thh_index(h);
                if (s < CAP && live[s] && thh_equal(current[s], h)) matched++;
            }
            if (matched != n_live) { TH_CHECK_MSG(0, "op %d: dense array differs from model", op); bad++; }
        }
    }
    TH_CHECK(bad == 0);
}

// The pool struct plus its buffer, copied byte for byte, is the same pool (a snapshot).
static void test_snapshot_copy(void)
{
    struct state { thh_pool pool; uint32_t mem[4 * 32]; };
    static state s, snap;
    thh_pool_init(&s.pool, s.mem, 32);
    thh_handle a = thh_alloc(&s.pool), b = thh_alloc(&s.pool);
    thh_free(&s.pool, a);
    memcpy(&snap, &s, sizeof s);
    thh_handle c = thh_alloc(&s.pool);
    thh_free(&s.pool, b);
    memcpy(&s, &snap, sizeof s);
    TH_CHECK(thh_valid(&s.pool, b) && !thh_valid(&s.pool, a));
    TH_CHECK(thh_equal(thh_alloc(&s.pool), c));
}

// The fixed-capacity pool: plain values, and whole again after its arrays were grown or cut the way a
// migration rewrites them (each array on its own: new slots zeroed, cut slots gone).
typedef struct Pool8 THH_FIXED_POOL(8) Pool8;
typedef struct Pool12 THH_FIXED_POOL(12) Pool12;
typedef struct Pool4 THH_FIXED_POOL(4) Pool4;

template <class A, class B> static void resize_like_a_migration(const A *from, B *to)
{
    memset(to, 0, sizeof *to);
    to->head = from->head;
    uint32_t a = sizeof from->generations / 4, b = sizeof to->generations / 4, n = a < b ? a : b;
    memcpy(to->generations, from->generations, n * 4);
    memcpy(to->next_free, from->next_free, n * 4);
    memcpy(to->dense_to_sparse, from->dense_to_sparse, n * 4);
    memcpy(to->sparse_to_dense, from->sparse_to_dense, n * 4);
}

static void test_fixed_pool_rebuilt_after_resize(void)
{
    Pool8 p;
    thh_fixed_init(&p.head, 8);
    thh_handle h[8];
    for (int i = 0; i < 8; i++) h[i] = thh_fixed_alloc(&p.head);
    TH_CHECK(thh_is_null(thh_fixed_alloc(&p.head)));
    thh_fixed_free(&p.head, h[2]);
    thh_fixed_free(&p.head, h[6]);
    h[2] = thh_fixed_alloc(&p.head);   // generation 2 in slot 2
    TH_CHECK(thh_generation(h[2]) == 2);

    Pool12 big;
    resize_like_a_migration(&p, &big);
    thh_fixed_rebuild(&big.head, 12);
    thh_pool view = thh__fixed_view(&big.head);
    TH_CHECK(pool_consistent(&view));
    TH_CHECK_EQ_INT(thh_fixed_count(&big.head), 7);
    for (int i = 0; i < 8; i++) TH_CHECK(thh_fixed_valid(&big.head, h[i]) == (i != 6));
    for (uint32_t i = 0; i < 7; i++) TH_CHECK(thh_fixed_at(&big.head, i).value == thh_fixed_at(&p.head, i).value);
    int got = 0;   // the new slots and the freed one are free
    while (!thh_is_null(thh_fixed_alloc(&big.head))) got++;
    TH_CHECK_EQ_INT(got, 5);

    Pool4 small;
    resize_like_a_migration(&p, &small);
    thh_fixed_rebuild(&small.head, 4);
    view = thh__fixed_view(&small.head);
    TH_CHECK(pool_consistent(&view));
    TH_CHECK_EQ_INT(thh_fixed_count(&small.head), 4);
    for (int i = 0; i < 8; i++) TH_CHECK(thh_fixed_valid(&small.head, h[i]) == (i < 4));

    // garbage in the arrays (a state that was never a pool): still a consistent pool
    memset(&p, 0x5A, sizeof p);
    thh_fixed_rebuild(&p.head, 8);
    view = thh__fixed_view(&p.head);
    TH_CHECK(pool_consistent(&view));
}

int main(void)
{
    TH_RUN(test_handle_encoding);
    TH_RUN(test_alloc_until_full);
    TH_RUN(test_stale_after_reuse);
    TH_RUN(test_fifo_reuse);
    TH_RUN(test_generation_wraps_skipping_zero);
    TH_RUN(test_iteration_and_swap_remove);
    TH_RUN(test_empty_and_clamped);
    TH_RUN(test_random_against_model);
    TH_RUN(test_snapshot_copy);
    TH_RUN(test_fixed_pool_rebuilt_after_resize);
    return th_test_finish();
}
