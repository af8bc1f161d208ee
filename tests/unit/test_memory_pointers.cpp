/* Tests for memory_find_pointers and the GameMemory copy (platform/session/memory.cpp): words at any byte offset
   of the used block whose value lies inside a library's ranges are found, in address order, both when the
   ranges share their top bytes (the memchr path) and when they cross a 1 TiB boundary (every offset read);
   a game's rewrite of its GameMemory copy brings back only `used`, clamped to the block. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#include "session/memory.cpp"
#include "core/core.cpp"   /* the session slices memory.cpp keeps its sizes in (none attached: its own memory) */

#include <stdarg.h>

void log_message(int level, const char *fmt, ...)
{
    (void)level;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

#include "memory_no_session.h"

static void put(uint64_t offset, uintptr_t v) { memcpy((uint8_t *)g_memory.game.base + offset, &v, sizeof v); }

static void check_scan(uintptr_t lo, uintptr_t hi)
{
    memset(g_memory.game.base, 0, 8192);
    g_memory.game.used = 8192;
    OsRange r[2] = { { lo, lo + 0x1000, 0, OS_PROT_READ }, { hi - 0x2000, hi, 0x3000, OS_PROT_READ | OS_PROT_WRITE } };
    put(8, lo + 0x10);            /* aligned, first range */
    put(19, hi - 0x10);           /* unaligned, second range */
    put(4001, lo + 0xfff);        /* unaligned, the first range's last byte */
    put(5000, lo + 0x1000);       /* between the ranges: not a hit */
    put(6000, lo - 1);            /* just below */
    put(7000, hi);                /* just above */
    put(8192 - 8, hi - 1);        /* the block's last word */
    PointerHit hits[8];
    int n = memory_find_pointers(r, 2, hits, 8);
    TH_CHECK_EQ_INT(n, 4);
    const uint64_t want[] = { 8, 19, 4001, 8192 - 8 };
    const int want_range[] = { 0, 1, 0, 1 };
    for (int i = 0; i < 4 && i < n; i++) {
        TH_CHECK_MSG(hits[i].state_offset == want[i] && hits[i].range == want_range[i], "hit %d: offset %llu range %d", i,
                     (unsigned long long)hits[i].state_offset, hits[i].range);
    }
    TH_CHECK_EQ_INT(memory_find_pointers(r, 2, hits, 2), 4);   /* counted past max, only max stored */
    g_memory.game.used = 8192 - 1;                               /* the last word is no longer inside the used part */
    TH_CHECK_EQ_INT(memory_find_pointers(r, 2, hits, 8), 3);
}

static void test_pointers_at_any_offset(void)
{
    check_scan((uintptr_t)0x7f1234560000ull, (uintptr_t)0x7f1234580000ull);   /* one 1 TiB region: memchr path */
    check_scan((uintptr_t)0x00fffffff000ull, (uintptr_t)0x010000010000ull);   /* across a 1 TiB boundary */
}

static void test_game_memory_copy(void)
{
    GameMemory lent = memory_lend();
    TH_CHECK(lent.base == g_memory.game.base && lent.size == g_memory.game.size);
    void *base = g_memory.game.base;
    lent.base = NULL;
    lent.size = lent.used = 1ull << 44;
    memory_take_back(&lent);
    TH_CHECK(g_memory.game.base == base && g_memory.game.size == (1u << 20) && g_memory.game.used == (1u << 20));
    lent = memory_lend();
    lent.used = 1234;
    memory_take_back(&lent);
    TH_CHECK(g_memory.game.used == 1234);
}

int main(void)
{
    if (!memory_init(1 << 20)) return 1;
    TH_RUN(test_pointers_at_any_offset);
    TH_RUN(test_game_memory_copy);
    return th_test_finish();
}
