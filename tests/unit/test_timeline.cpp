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
#include "session/session_file.cpp"
#include "reflect_build.h"

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
static StateTypes g_types;   /* not valid: the differing byte is named by its offset (the session tests describe it) */
StateTypes *types_of_block(void) { return &g_types; }
static int g_loads;
void running_load(int migrated) { g_loads += migrated; }
static GameAPI g_api;
GameAPI *running_api(void) { return &g_api; }
void types_copy(StateTypes *dst, const StateTypes *src)
{
    if (dst == src) return;
    free(dst->blob);
    *dst = *src;
    dst->blob = NULL;
    if (src->blob) {
        dst->blob = (uint64_t *)malloc(src->size + 8);
        memcpy(dst->blob, src->blob, src->size);
    }
}
/* the layout change's migration: the same bytes (the toy's layout is one array), refused from the n-th call on */
static int g_migrations, g_migrate_fails_at = -1;
int migrate_bytes(const StateTypes *from, const StateTypes *to, const GameAPI *api, const uint8_t *old,
                  uint64_t old_used, uint8_t *out, uint64_t out_cap, char *what, size_t cap)
{
    (void)from; (void)api; (void)old_used; (void)out_cap;
    if (g_migrations++ == g_migrate_fails_at) { snprintf(what, cap, "a field has no rule"); return 0; }
    memcpy(out, old, (size_t)to->state_size);
    return 1;
}
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
    for (StateTypes &t : g_timeline.gens) free(t.blob);
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

/* ---------------------------------------------------------------- sessions as files */
static rb_table g_table;

static void describe_toy(uint32_t layout_hash)
{
    rb_init(&g_table);
    g_table.root = rb_struct(&g_table, "Toy", WORDS * 4, 4);
    rb_field(&g_table, "w", 0, 4, WORDS, THR_U32, THR_NONE);
    size_t n = rb_finish(&g_table);
    free(g_types.blob);
    memset(&g_types, 0, sizeof g_types);
    g_types.blob = (uint64_t *)malloc(n);
    memcpy(g_types.blob, g_table.blob, n);
    g_types.size = n;
    g_types.valid = 1;
    g_types.layout_hash = layout_hash;
    g_types.state_size = WORDS * 4;
}

static std::vector<uint8_t> read_all(const char *path)
{
    size_t n = 0;
    char *p = os_read_file(path, &n, 1u << 30);
    std::vector<uint8_t> v(p ? (uint8_t *)p : NULL, p ? (uint8_t *)p + n : NULL);
    free(p);
    return v;
}

static int check_bytes(const std::vector<uint8_t> &v, char *err, size_t cap)
{
    std::vector<uint64_t> aligned(v.size() / 8 + 1);   /* the reader wants its copy 8-aligned, as malloc's is */
    if (!v.empty()) memcpy(aligned.data(), v.data(), v.size());
    SessionFile f;
    err[0] = 0;
    return session_file_check((const uint8_t *)aligned.data(), v.size(), &f, err, cap);
}

static const char *SESSION_PATH = "/tmp/test_timeline.session";

/* played, saved, opened again in a fresh timeline: the newest step's state, every seek and V as recorded */
static void test_session_round_trip(void)
{
    start();
    describe_toy(7);
    snprintf(g_lib.path, sizeof g_lib.path, "%s/platform/session/timeline.cpp", ENGINE_SOURCE_DIR);  /* "the library" */
    std::vector<uint64_t> hashes;
    play(900, 0, &hashes);
    uint64_t bytes = 0;
    char err[512];
    TH_CHECK(timeline_save_session(SESSION_PATH, "toy", &bytes, err, sizeof err));
    std::vector<uint8_t> file = read_all(SESSION_PATH);
    TH_CHECK(file.size() == bytes && check_bytes(file, err, sizeof err));
    start();
    memset(memory_state()->game.base, 0x55, 64);
    TH_CHECK(!timeline_open_session(SESSION_PATH, "other", err, sizeof err));   /* another game's */
    TH_CHECK(strstr(err, "'toy'") != NULL);
    TH_CHECK(timeline_open_session(SESSION_PATH, "toy", err, sizeof err));
    TimelineInfo ti;
    timeline_info(&ti);
    TH_CHECK(ti.open && ti.head == 900 && ti.cursor == 900 && frame_loop()->step == 900);
    TH_CHECK(block_hash() == hashes[900]);
    TH_CHECK(step_of(899)->epoch == g_timeline.epoch);   /* the same code: compared */
    for (uint64_t t : { (uint64_t)899, ti.oldest, ti.oldest + 5, (uint64_t)700, (uint64_t)900 }) {
        TH_CHECK(timeline_seek(t) >= 0);
        TH_CHECK(block_hash() == hashes[t]);
    }
    TH_CHECK(timeline_verify() == 0);
    timeline_close();
    start();   /* state.h changed since: its states migrated on the way in, its hashes no longer compared */
    describe_toy(12);
    g_migrations = 0;
    TH_CHECK(timeline_open_session(SESSION_PATH, "toy", err, sizeof err));
    TH_CHECK(g_migrations > 0 && types_now()->layout_hash == 12 && step_of(899)->epoch != g_timeline.epoch);
    TH_CHECK(block_hash() == hashes[900]);   /* the toy's migration is a copy */
    timeline_close();
    start();   /* none can be migrated: refused, with the reason, and nothing kept */
    describe_toy(13);
    g_migrate_fails_at = 0;
    g_migrations = 0;
    TH_CHECK(!timeline_open_session(SESSION_PATH, "toy", err, sizeof err));
    g_migrate_fails_at = -1;
    TH_CHECK(strstr(err, "none of its states") && strstr(err, "no rule"));
    TH_CHECK(g_timeline.count == 0 && !g_timeline.open);
    g_lib.path[0] = 0;
}

/* cut short, a flipped byte, a foreign file, and header fields out of range under a good checksum: each refused,
   with its reason */
static void test_session_reader_refuses_damage(void)
{
    std::vector<uint8_t> good = read_all(SESSION_PATH);
    char err[512];
    TH_CHECK(good.size() > 4096 && check_bytes(good, err, sizeof err));
    for (size_t cut : { (size_t)0, (size_t)7, (size_t)127, (size_t)128, (size_t)1000, good.size() / 2, good.size() - 1 }) {
        std::vector<uint8_t> v(good.begin(), good.begin() + (long)cut);
        TH_CHECK(!check_bytes(v, err, sizeof err) && err[0]);
    }
    std::vector<uint8_t> v = good;
    v.resize(good.size() - 100);
    TH_CHECK(!check_bytes(v, err, sizeof err) && strstr(err, "cut short"));
    th_rng rng = th_rng_seed(5);
    int accepted = 0;
    for (int i = 0; i < 300; i++) {
        v = good;
        v[(size_t)th_rng_int(&rng, 0, (int)good.size() - 1)] ^= (uint8_t)th_rng_int(&rng, 1, 255);
        accepted += check_bytes(v, err, sizeof err);
    }
    TH_CHECK_EQ_INT(accepted, 0);
    v = good;
    v[good.size() / 2] ^= 1;
    TH_CHECK(!check_bytes(v, err, sizeof err) && strstr(err, "checksum"));
    std::vector<uint8_t> foreign(4096, 'x');
    TH_CHECK(!check_bytes(foreign, err, sizeof err) && strstr(err, "not a session file"));
    struct { size_t at; uint64_t value; const char *why; } fields[] = {
        { SH_COUNT, 0, "steps" }, { SH_COUNT, SESSION_FILE_MAX_STEPS + 1, "steps" }, { SH_SNAPS, 1u << 20, "kept states" },
        { SH_TYPES, 1ull << 40, "types table" }, { SH_NAME, 4000, "game name" }, { SH_STATE, 0, "state" },
        { SH_CURSOR, 1ull << 40, "outside its steps" }, { SH_PACKED, 1ull << 50, "claim" }, { SH_FIRST, ~0ull, "first" },
    };
    for (const auto &f : fields) {   /* the checksum made right again: the range checks must stand on their own */
        v = good;
        memcpy(v.data() + f.at, &f.value, 8);
        put64(v.data() + SH_CHECKSUM, checksum_of(v.data(), v.size()));
        TH_CHECK(!check_bytes(v, err, sizeof err) && strstr(err, f.why));
    }
    v = good;   /* the first kept state moved past the steps, checksum fixed */
    uint64_t name = get64(v.data() + SH_NAME), types = get64(v.data() + SH_TYPES), count = get64(v.data() + SH_COUNT);
    size_t snaps_at = SESSION_FILE_HEADER_BYTES + align8(name) + align8(types) + align8(count * sizeof(TimelineStep));
    put64(v.data() + snaps_at, 1ull << 40);
    put64(v.data() + SH_CHECKSUM, checksum_of(v.data(), v.size()));
    TH_CHECK(!check_bytes(v, err, sizeof err) && strstr(err, "kept state 0"));
    v = good;   /* a kept state claiming more packed bytes than its neighbours leave */
    put64(v.data() + snaps_at + 8, get64(v.data() + snaps_at + 8) + 8);
    put64(v.data() + SH_CHECKSUM, checksum_of(v.data(), v.size()));
    TH_CHECK(!check_bytes(v, err, sizeof err));
    remove(SESSION_PATH);
}

/* a layout change migrates nothing at the change, however full the ring (the frame the new library loads in does not
   pay for it): a seek across it migrates the state it restores from the layout that state was kept in, and keeps it
   migrated; one that cannot be goes with the older ones when it is found, and the seek lands on the next one */
static void test_ring_migrates_on_layout_change(void)
{
    start();
    describe_toy(7);
    std::vector<uint64_t> hashes;
    play(900, 0, &hashes);
    uint64_t oldest = timeline_oldest();
    int before = g_timeline.snap_count;
    describe_toy(8);   /* the new library's layout */
    g_migrations = g_loads = 0;
    timeline_reloaded(1);
    TH_CHECK_EQ_INT(g_migrations, 0);   /* none at the change */
    TH_CHECK_EQ_INT(g_timeline.snap_count, before + 1);   /* all kept (and the new code's first state) */
    TH_CHECK(timeline_oldest() == oldest && types_now()->layout_hash == 8 && snap_at(0)->gen != g_timeline.gen);
    TH_CHECK(timeline_open());
    TH_CHECK(timeline_seek(oldest + 3) >= 0 && block_hash() == hashes[oldest + 3]);   /* the toy's migration: a copy */
    TH_CHECK_EQ_INT(g_migrations, 1);   /* the one state restored */
    TH_CHECK(g_loads > 0);   /* a migrated state holds no caches: the game's load ran */
    TH_CHECK(snap_at(0)->gen == g_timeline.gen && snap_at(0)->migrated);   /* packed again in its place */
    TH_CHECK(timeline_seek(oldest + 400) >= 0 && block_hash() == hashes[oldest + 400]);
    g_migrations = 0;
    TH_CHECK(timeline_seek(oldest + 3) >= 0 && block_hash() == hashes[oldest + 3] && g_migrations == 0);
    TH_CHECK(timeline_verify() == 0);
    timeline_close();
    uint64_t bytes = 0;   /* a file holds one layout: the rest are migrated on the way out */
    char err[512];
    TH_CHECK(timeline_save_session(SESSION_PATH, "toy", &bytes, err, sizeof err));
    for (int k = 0; k < g_timeline.snap_count; k++) TH_CHECK(snap_at(k)->gen == g_timeline.gen);
    remove(SESSION_PATH);

    start();
    describe_toy(7);
    play(900, 0, &hashes);
    describe_toy(9);
    timeline_reloaded(1);
    TH_CHECK(timeline_open());
    g_migrations = 0;
    g_migrate_fails_at = 0;   /* the first state restored cannot take the layout: it and the older ones go */
    timeline_oldest();   /* (the states older than the oldest input go first) */
    before = g_timeline.snap_count - 1;   /* the old layout's */
    uint64_t mid = snap_at(before / 2)->step, next = snap_at(before / 2 + 1)->step;
    TH_CHECK(timeline_seek(mid + 2) >= 0);
    g_migrate_fails_at = -1;
    TH_CHECK_EQ_INT(g_migrations, 2);   /* the one that failed, then the next newer one */
    TH_CHECK(g_timeline.snap_count == before + 1 - (before / 2 + 1) && timeline_oldest() == next);
    TH_CHECK(g_timeline.cursor == next && block_hash() == hashes[next]);
    g_migrations = 0;
    TH_CHECK(timeline_seek(head_step()) >= 0 && block_hash() == hashes[head_step()] && g_migrations == 0);
    timeline_close();
    for (int i = 0; i < TL_GENS; i++) {   /* a state TL_GENS layouts old has lost its table: it goes */
        describe_toy((uint32_t)(20 + i));
        timeline_reloaded(1);
    }
    TH_CHECK(g_timeline.snap_count >= 1 && snap_at(0)->gen + TL_GENS > g_timeline.gen);
    free(g_types.blob);
    memset(&g_types, 0, sizeof g_types);
}

int main(void)
{
    TH_RUN(test_pack_round_trip);
    TH_RUN(test_hash_sees_every_word);
    TH_RUN(test_seeks_land_on_recorded_states);
    TH_RUN(test_branch_replays_exactly);
    TH_RUN(test_a_static_is_caught);
    TH_RUN(test_session_round_trip);
    TH_RUN(test_session_reader_refuses_damage);
    TH_RUN(test_ring_migrates_on_layout_change);
    return th_test_finish();
}
