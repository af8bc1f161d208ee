/* Tests for the timeline (platform/session/timeline.cpp) without a game library: a small deterministic "update" runs
   on the real memory block; a budget small enough that the ring wraps and drops its oldest states. Every seek must
   land on the state the live run had at that step (its hash, kept aside by the test), a branch must replay exactly,
   an update that reads a static of its own must be caught at the step it first differs, and the zero-run packing must
   give back every byte, stay within n + 16, and refuse a damaged record. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#include "session/memory.cpp"
#include "core/core.cpp"
#define TH_REFLECT_IMPLEMENTATION
#include "session/timeline.cpp"

#include <stdarg.h>

#include <vector>

/* ---------------------------------------------------------------- what timeline.cpp and memory.cpp call */
static int g_errors_logged;   /* the timeline's own (memory_make_writable's mprotect of a heap block fails here) */
void log_message(int level, const char *fmt, ...)
{
    if (level == LOG_ERROR && !strncmp(fmt, "timeline:", 9)) g_errors_logged++;
}
void log_event(const char *ev, const char *fields_fmt, ...) { (void)ev; (void)fields_fmt; }
uint64_t log_game_time_reads(void) { return 0; }
void notice_post(int level, const char *fmt, ...) { (void)level; (void)fmt; }
void parse_json_escape(const char *in, char *out, size_t cap) { snprintf(out, cap, "%s", in); }
LoopMode recording_mode(void) { return LOOP_OFF; }
int recording_writes_file(void) { return 0; }
static GameLib g_lib;
GameLib *running_lib(void) { return &g_lib; }
static StateTypes g_types;   /* not valid: the differing byte is named by its offset */
StateTypes *types_of_block(void) { return &g_types; }
#include "memory_no_session.h"

/* ---------------------------------------------------------------- a small game on the block */
#define WORDS 40000     /* 320 KB of state, mostly zeros, as a game's fixed arrays are */
static int g_use_static;

static int toy_update(const GameInput *gi)
{
    static uint32_t hidden;   /* carried from step to step outside the state: what the check must catch */
    uint32_t *w = (uint32_t *)memory_state()->game.base;
    uint32_t x = w[0] * 1664525u + 1013904223u + (uint32_t)gi->mouse_x;
    w[0] = x;
    w[1 + x % 64] += gi->down[KEY_SPACE] + 1;   /* a few live slots, the rest stays zero */
    w[100 + (x >> 8) % 2000] = x;
    if (g_use_static) w[5000] = ++hidden;
    uint32_t n = (uint32_t)(gi->step % 240) * 25;   /* a part that fills and empties: packed states of every size */
    for (uint32_t i = 0; i < 6000; i++) w[10000 + i] = i < n ? x | 1 : 0;
    memory_state()->game.used = WORDS * 4;
    return 0;
}

static GameInput input_of(uint64_t step, int variant)
{
    GameInput gi;
    memset(&gi, 0, sizeof gi);
    gi.step = step;
    gi.dt = 1.0f / 60;
    gi.mouse_x = (float)((step * 7 + (uint64_t)variant * 13) % 300);
    gi.down[KEY_SPACE] = (step + (uint64_t)variant) % 5 == 0;
    return gi;
}

static uint64_t block_hash(void) { return timeline_hash(memory_state()->game.base, (size_t)memory_used()); }

/* the kept states never share a byte of the ring */
static int g_overlaps;
static void check_ring(void)
{
    for (int i = 0; i < g_timeline.snap_count; i++)
        for (int j = i + 1; j < g_timeline.snap_count; j++) {
            const TimelineSnap *a = snap_at(i), *b = snap_at(j);
            g_overlaps += a->at < b->at + b->bytes && b->at < a->at + a->bytes;
        }
}

/* live steps from frame_loop()->step, as main.cpp runs them; hashes[s] = the state's hash before step s */
static void play(uint64_t steps, int variant, std::vector<uint64_t> *hashes)
{
    for (uint64_t i = 0; i < steps; i++) {
        uint64_t s = frame_loop()->step;
        if (hashes->size() <= s) hashes->resize(s + 1);
        (*hashes)[s] = block_hash();
        GameInput gi = input_of(s, variant);
        timeline_before_step(s);
        toy_update(&gi);
        timeline_after_step(&gi);
        check_ring();
        frame_loop()->step = s + 1;
    }
    if (hashes->size() <= frame_loop()->step) hashes->resize(frame_loop()->step + 1);
    (*hashes)[frame_loop()->step] = block_hash();
}

static void start(void)
{
    static int once;
    if (!once) { memory_init(1u << 20); once = 1; }
    memset(memory_state()->game.base, 0, WORDS * 4);
    memory_state()->game.used = WORDS * 4;
    ((uint32_t *)memory_state()->game.base)[0] = 1;
    frame_loop()->step = 0;
    g_use_static = 0;
    g_timeline.on = 0;
    free(g_timeline.steps);
    free(g_timeline.ring);
    free(g_timeline.scratch);
    memset(&g_timeline, 0, sizeof g_timeline);
    timeline_init(10, 1, toy_update);   /* 600 steps, 1 MB: the ring wraps */
}

static void test_seeks_land_on_recorded_states(void)
{
    start();
    TH_CHECK(timeline_on());
    std::vector<uint64_t> hashes;
    g_overlaps = 0;
    play(2000, 0, &hashes);
    TH_CHECK_EQ_INT(g_overlaps, 0);
    TH_CHECK(timeline_open());
    TimelineInfo ti;
    timeline_info(&ti);
    TH_CHECK(ti.head == 2000);
    TH_CHECK(ti.oldest >= 2000 - 600 && ti.oldest < 2000 - 400);   /* the window, less what the ring could keep */
    TH_CHECK(ti.every >= TL_MIN_EVERY && ti.used_bytes <= ti.memory_bytes);
    uint64_t targets[] = { 1999, 1998, ti.oldest, ti.oldest + 1, 1700, 1701, 1650, 2000, ti.oldest + 37, 1999 };
    for (uint64_t t : targets) {
        TH_CHECK(timeline_seek(t) >= 0);
        TH_CHECK(frame_loop()->step == t);
        TH_CHECK(block_hash() == hashes[t]);
    }
    int wrong = 0;   /* every kept state in turn (a seek back to each restores it) */
    for (uint64_t t = 2000; t > ti.oldest; t -= 3) {
        timeline_seek(t);
        wrong += block_hash() != hashes[t];
    }
    TH_CHECK_EQ_INT(wrong, 0);
    TH_CHECK(timeline_verify() == 0);
    TH_CHECK(block_hash() == hashes[2000]);
    TH_CHECK(g_timeline.divergence.count == 0);
    timeline_close();
}

static void test_branch_replays_exactly(void)
{
    start();
    std::vector<uint64_t> hashes;
    play(900, 0, &hashes);
    TH_CHECK(timeline_open());
    TH_CHECK(timeline_seek(800) >= 0);
    timeline_close();   /* at 800: steps 800..899 dropped */
    TimelineInfo ti;
    timeline_info(&ti);
    TH_CHECK(ti.head == 800 && frame_loop()->step == 800);
    play(150, 1, &hashes);   /* other input from the branch on */
    TH_CHECK(timeline_open());
    TH_CHECK(timeline_verify() == 0);
    TH_CHECK(timeline_seek(820) >= 0);
    TH_CHECK(block_hash() == hashes[820]);
    TH_CHECK(timeline_seek(790) >= 0);
    TH_CHECK(block_hash() == hashes[790]);
    timeline_close();
}

static void test_a_static_is_caught(void)
{
    start();
    g_use_static = 1;
    std::vector<uint64_t> hashes;
    play(300, 0, &hashes);
    TH_CHECK(timeline_open());
    g_errors_logged = 0;
    TH_CHECK(timeline_seek(290) >= 0);
    TH_CHECK(g_timeline.divergence.count == 1);
    TH_CHECK(g_timeline.divergence.step < 290);
    TH_CHECK(g_timeline.divergence.offset == 5000 * 4);   /* the static's word, found by diffing the next state */
    TH_CHECK(strstr(g_timeline.divergence.hint, "static") != NULL);
    TH_CHECK_EQ_INT(g_errors_logged, 1);
    TH_CHECK(timeline_verify() > 0);
    timeline_close();
}

static void test_pack_round_trip(void)
{
    th_rng rng = th_rng_seed(43);
    for (int round = 0; round < 200; round++) {
        size_t n = th_rng_int(&rng, 0, 5000);
        std::vector<uint8_t> src(n), packed(n + 16), back(n);
        int density = th_rng_int(&rng, 0, 100);
        for (size_t i = 0; i < n; i++) src[i] = th_rng_int(&rng, 0, 99) < density ? (uint8_t)th_rng_int(&rng, 1, 255) : 0;
        size_t bytes = timeline_pack(src.data(), n, packed.data());
        TH_CHECK(bytes <= n + 16);
        TH_CHECK(timeline_unpack(packed.data(), bytes, back.data(), n));
        TH_CHECK(n == 0 || memcmp(src.data(), back.data(), n) == 0);
        if (bytes > 8) TH_CHECK(!timeline_unpack(packed.data(), bytes - 8, back.data(), n));   /* cut short */
    }
    std::vector<uint8_t> zeros(1 << 20, 0), packed((1 << 20) + 16);
    TH_CHECK(timeline_pack(zeros.data(), zeros.size(), packed.data()) == 8);   /* one record */
}

static void test_hash_sees_every_word(void)
{
    std::vector<uint8_t> b(1000, 0);
    uint64_t h0 = timeline_hash(b.data(), b.size());
    for (size_t i = 0; i < b.size(); i += 37) {
        b[i] ^= 1;
        TH_CHECK(timeline_hash(b.data(), b.size()) != h0);
        b[i] ^= 1;
    }
    TH_CHECK(timeline_hash(b.data(), 999) != h0);
}

int main(void)
{
    TH_RUN(test_pack_round_trip);
    TH_RUN(test_hash_sees_every_word);
    TH_RUN(test_seeks_land_on_recorded_states);
    TH_RUN(test_branch_replays_exactly);
    TH_RUN(test_a_static_is_caught);
    return th_test_finish();
}
