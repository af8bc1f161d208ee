/* timeline.cpp - the last seconds of play, kept so the developer can go back to any step of them (docs/timeline.md).
   Every live step leaves its input, the library version and code epoch it ran under, and a hash of the state after
   it; every K steps the state itself is kept, compressed, in one ring allocated at start within the budget. A seek
   restores the nearest kept state at or before the target and replays the recorded inputs to that exact step,
   checking each replayed state's hash against the recorded one: the first mismatch stops the replay, and the state
   at the next kept snapshot is compared field by field (the reflection table names the first differing field). */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "th_math.h"
#include "th_reflect.h"

typedef struct TimelineSnap {   /* a kept state: the block before step `step` ran */
    uint64_t step, at, bytes;   /* where in the ring, compressed size */
    uint64_t used;              /* the block's used bytes then */
    int      migrated;          /* rewritten for a new layout: no caches (the game's load rebuilds them) */
    uint32_t gen;               /* the layout it was packed under (g_timeline.gens) */
} TimelineSnap;

#define TL_MAX_SNAPS 8192
#define TL_MIN_EVERY 4          /* a snapshot every K steps: K is chosen from the budget, within these bounds */
#define TL_MAX_EVERY 30         /* a seek replays at most half a second; past the budget the window shrinks */
#define TL_GENS      8          /* layouts the kept states may hold: a state 8 layout changes old goes */

static struct {
    int           on;
    uint64_t      window;        /* steps kept (seconds x 60) */
    TimelineStep *steps;         /* a ring of `window` entries */
    uint64_t      first, count;  /* the oldest step kept, how many */
    uint8_t      *ring;          /* compressed snapshots */
    uint64_t      ring_cap, head;   /* ring_cap: the budget less the steps and the scratch (which it gives up) */
    TimelineSnap  snaps[TL_MAX_SNAPS];
    int           snap_first, snap_count;
    uint8_t      *scratch;       /* one compressed snapshot before it goes into the ring */
    uint64_t      scratch_cap;
    uint64_t      every;         /* K */
    uint64_t      snap_bytes_sum, snaps_taken;
    double        snap_bytes_recent;   /* a moving average of the last states' packed size */
    uint32_t      epoch;
    int           armed;         /* timeline_before_step kept what it needed: the step may be recorded */
    int           open;          /* paused on the timeline: the block is at `cursor` */
    int           playing;       /* the recorded steps play forward, one a frame (P; after new code loads) */
    uint64_t      cursor;
    int (*update)(const GameInput *gi);   /* the frame loop's guarded update (a hook from above) */
    double        cost_ms;       /* time spent keeping the timeline since the last report */
    uint64_t      cost_steps;
    TimelineDivergence divergence;
    StateTypes    gens[TL_GENS]; /* the layouts the kept states hold: generation g's types at gens[g % TL_GENS] */
    uint32_t      gen;           /* the newest generation (the block's layout at the last snapshot or change) */
    char          dropped_why[512];   /* why the last state that could not take the layout could not */
    int           tainted;       /* the block went through a replayed step of older code since the last restore:
                                    what it holds is comparable with no recorded hash of the current code */
} g_timeline;

/* ---------------------------------------------------------------- a hash fast enough for every step */
/* FNV-1a (th_hash_bytes64) reads a byte at a time: about 1 ms for the sample's 1.3 MB, too slow to run after every
   step. Four lanes of 64-bit words, each xor-multiply-rotate: a changed word always changes its lane. */
static inline uint64_t tl_rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t timeline_hash(const void *data, size_t n)
{
    const uint64_t M = 0x9E3779B97F4A7C15ull;
    const uint8_t *p = (const uint8_t *)data;
    uint64_t a = 0x243F6A8885A308D3ull, b = 0x13198A2E03707344ull, c = 0xA4093822299F31D0ull,
             d = 0x082EFA98EC4E6C89ull;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, sizeof w);
        a = tl_rotl((a ^ w[0]) * M, 29);
        b = tl_rotl((b ^ w[1]) * M, 29);
        c = tl_rotl((c ^ w[2]) * M, 29);
        d = tl_rotl((d ^ w[3]) * M, 29);
    }
    uint64_t h = a ^ tl_rotl(b, 16) ^ tl_rotl(c, 32) ^ tl_rotl(d, 48) ^ (uint64_t)n;
    for (; i < n; i++) h = tl_rotl((h ^ p[i]) * M, 29);
    h ^= h >> 31;
    h *= M;
    return h ^ (h >> 29);
}

/* ---------------------------------------------------------------- snapshots: zero runs packed */
/* Records of (zero words, literal words, the literal words); a zero run shorter than two words stays literal, so the
   packed size never passes n + 16. The last n % 8 bytes follow as they are. */
size_t timeline_pack(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t words = n / 8, o = 0, i = 0;
    while (i < words) {
        uint32_t zeros = 0, lits = 0;
        uint64_t w;
        while (i + zeros < words && (memcpy(&w, src + (i + zeros) * 8, 8), w == 0)) zeros++;
        size_t j = i + zeros;
        while (j + lits < words) {   /* literals up to the next run of two zero words */
            uint64_t w0, w1 = 1;
            memcpy(&w0, src + (j + lits) * 8, 8);
            if (j + lits + 1 < words) memcpy(&w1, src + (j + lits + 1) * 8, 8);
            if (w0 == 0 && w1 == 0) break;
            lits++;
        }
        memcpy(dst + o, &zeros, 4);
        memcpy(dst + o + 4, &lits, 4);
        memcpy(dst + o + 8, src + j * 8, (size_t)lits * 8);
        o += 8 + (size_t)lits * 8;
        i = j + lits;
    }
    memcpy(dst + o, src + words * 8, n % 8);
    return o + n % 8;
}

/* 1 when `packed` (bytes long) unpacks to exactly n bytes */
int timeline_unpack(const uint8_t *packed, size_t bytes, uint8_t *out, size_t n)
{
    size_t words = n / 8, o = 0, i = 0;
    while (i < words) {
        uint32_t zeros, lits;
        if (o + 8 > bytes) return 0;
        memcpy(&zeros, packed + o, 4);
        memcpy(&lits, packed + o + 4, 4);
        o += 8;
        if ((uint64_t)zeros + lits > words - i || (uint64_t)lits * 8 > bytes - o) return 0;
        memset(out + i * 8, 0, (size_t)zeros * 8);
        memcpy(out + (i + zeros) * 8, packed + o, (size_t)lits * 8);
        o += (size_t)lits * 8;
        i += zeros + lits;
    }
    if (bytes - o != n % 8) return 0;
    memcpy(out + words * 8, packed + o, n % 8);
    return 1;
}

/* ---------------------------------------------------------------- the ring */
static TimelineSnap *snap_at(int k) { return &g_timeline.snaps[(g_timeline.snap_first + k) % TL_MAX_SNAPS]; }
static TimelineStep *step_of(uint64_t step) { return &g_timeline.steps[step % g_timeline.window]; }
static uint64_t      head_step(void) { return g_timeline.first + g_timeline.count; }

static void drop_oldest_snap(void)
{
    g_timeline.snap_first = (g_timeline.snap_first + 1) % TL_MAX_SNAPS;
    g_timeline.snap_count--;
}

/* room for n bytes at the ring's head: wraps to the start when the end is too short, and drops the oldest snapshots
   in the way (they were written in order, so the ones in the way are always the oldest) */
static uint64_t ring_room(uint64_t n)
{
    if (g_timeline.head + n > g_timeline.ring_cap) {   /* what is left of the lap before goes first: the oldest */
        while (g_timeline.snap_count && snap_at(0)->at >= g_timeline.head) drop_oldest_snap();
        g_timeline.head = 0;
    }
    uint64_t lo = g_timeline.head, hi = lo + n;
    while (g_timeline.snap_count) {
        TimelineSnap *s = snap_at(0);
        if (s->at >= hi || s->at + s->bytes <= lo) break;
        drop_oldest_snap();
    }
    g_timeline.head = hi;
    return lo;
}

/* K from the budget: as many steps between snapshots as make the window's snapshots fit the ring */
static void choose_every(void)
{
    /* the recent states' size (a fight grows them), and room for a quarter more */
    double fit = (double)g_timeline.ring_cap / (g_timeline.snap_bytes_recent * 1.25);
    uint64_t k = fit >= 1 ? (uint64_t)((double)g_timeline.window / fit) + 1 : TL_MAX_EVERY;
    g_timeline.every = k < TL_MIN_EVERY ? TL_MIN_EVERY : k > TL_MAX_EVERY ? TL_MAX_EVERY : k;
}

/* ---------------------------------------------------------------- layouts: generations of the kept states */
/* A layout change costs the frame nothing but a copy of the new types table: each kept state stays packed under the
   layout it was taken in (its generation) and is migrated from that table when something restores it. */
static StateTypes *types_now(void) { return &g_timeline.gens[g_timeline.gen % TL_GENS]; }

static void say_dropped(int n, uint64_t was_oldest, const char *why);

/* the types table a new generation starts from; states TL_GENS generations old lose theirs and go (the oldest) */
static void new_generation(const StateTypes *t)
{
    g_timeline.gen++;
    int n = g_timeline.snap_count;
    uint64_t was_oldest = n ? snap_at(0)->step : 0;
    while (g_timeline.snap_count && snap_at(0)->gen + TL_GENS <= g_timeline.gen) drop_oldest_snap();
    if (g_timeline.snap_count < n) say_dropped(n, was_oldest, "too many layout changes since");
    types_copy(types_now(), t);
}

/* the kept states' layout follows the block's: a new layout starts a generation (timeline_reloaded does it first) */
static void keep_types(void)
{
    const StateTypes *now = types_of_block(), *was = types_now();
    if (was->layout_hash != now->layout_hash || was->state_size != now->state_size || was->valid != now->valid)
        new_generation(now);
}

static void take_snapshot(uint64_t step)
{
    uint64_t used = memory_used();
    if (used + 64 > g_timeline.scratch_cap) {   /* the scratch comes out of the ring: the budget holds all of it */
        uint64_t grow = used + 64 - g_timeline.scratch_cap;
        if (grow * 4 > g_timeline.ring_cap) {
            static int said;
            if (!said++) log_message(LOG_WARN, "timeline: the state (%.1f MB) is too big for --timeline-mb %.0f: no "
                                     "states kept, nothing to go back to", used / 1048576.0,
                                     (g_timeline.ring_cap + g_timeline.window * sizeof(TimelineStep)) / 1048576.0);
            return;
        }
        uint8_t *p = (uint8_t *)realloc(g_timeline.scratch, used + 64);
        if (!p) return;
        g_timeline.scratch = p;
        g_timeline.scratch_cap = used + 64;
        g_timeline.ring_cap -= grow;
        if (g_timeline.head > g_timeline.ring_cap) g_timeline.head = g_timeline.ring_cap;
    }
    keep_types();
    size_t bytes = timeline_pack((const uint8_t *)memory_state()->game.base, (size_t)used, g_timeline.scratch);
    if (bytes > g_timeline.ring_cap) return;
    if (g_timeline.snap_count == TL_MAX_SNAPS) drop_oldest_snap();
    uint64_t at = ring_room(bytes);
    memcpy(g_timeline.ring + at, g_timeline.scratch, bytes);
    TimelineSnap *s = snap_at(g_timeline.snap_count++);
    s->step = step;
    s->at = at;
    s->bytes = bytes;
    s->used = used;
    s->migrated = 0;
    s->gen = g_timeline.gen;
    g_timeline.snap_bytes_sum += bytes;
    g_timeline.snap_bytes_recent = g_timeline.snaps_taken ? g_timeline.snap_bytes_recent * 0.9 + bytes * 0.1 : bytes;
    g_timeline.snaps_taken++;
    choose_every();
}

/* the snapshots after `step` dropped (a branch, new code): the ring goes on after the newest one left */
static void drop_snaps_after(uint64_t step)
{
    while (g_timeline.snap_count && snap_at(g_timeline.snap_count - 1)->step > step) g_timeline.snap_count--;
    if (g_timeline.snap_count) {
        TimelineSnap *s = snap_at(g_timeline.snap_count - 1);
        g_timeline.head = s->at + s->bytes;
    } else {
        g_timeline.head = 0;
    }
}

static int newest_snap_at_or_before(uint64_t step)
{
    for (int k = g_timeline.snap_count - 1; k >= 0; k--)
        if (snap_at(k)->step <= step) return k;
    return -1;
}

/* the oldest step a seek can reach: the oldest snapshot that still has every input after it */
uint64_t timeline_oldest(void)
{
    while (g_timeline.snap_count && snap_at(0)->step < g_timeline.first) drop_oldest_snap();
    return g_timeline.snap_count ? snap_at(0)->step : head_step();
}

/* The state kept at k, packed under an older layout, in the block's (a buffer of *used bytes, the caller frees it):
   migrated from its generation's table (migrate_bytes: the block's own rules), and packed again in its place when
   it fits there, so the next restore is a plain one. NULL when it cannot be: damaged, or it cannot take the layout;
   then it goes with every older state, said as at the change. */
static uint8_t *migrated_snap(int k, uint64_t *used)
{
    keep_types();
    TimelineSnap *s = snap_at(k);
    const StateTypes *from = &g_timeline.gens[s->gen % TL_GENS], *to = types_now();
    double t0 = os_mono_seconds();
    uint64_t size = to->state_size;
    uint32_t was_gen = s->gen;
    uint8_t *old = (uint8_t *)malloc(s->used ? s->used : 1), *mig = (uint8_t *)malloc(size + 16);
    char why[512] = "out of memory";
    int ok = old && mig;
    if (ok && !timeline_unpack(g_timeline.ring + s->at, (size_t)s->bytes, old, (size_t)s->used)) {
        snprintf(why, sizeof why, "the kept state at step %llu is damaged", (unsigned long long)s->step);
        ok = 0;
    }
    ok = ok && migrate_bytes(from, to, running_api(), old, s->used, mig, size, why, sizeof why);
    free(old);
    if (!ok) {
        free(mig);
        int n = g_timeline.snap_count;
        uint64_t was_oldest = snap_at(0)->step;
        for (int i = 0; i <= k; i++) drop_oldest_snap();
        say_dropped(n, was_oldest, why);
        if (!g_timeline.snap_count) timeline_clear("layout_changed");   /* no state left to start a step from */
        return NULL;
    }
    int cached = 0;
    if (g_timeline.scratch_cap >= size + 16) {
        size_t bytes = timeline_pack(mig, (size_t)size, g_timeline.scratch);
        if ((cached = bytes <= s->bytes)) {
            memcpy(g_timeline.ring + s->at, g_timeline.scratch, bytes);
            *s = TimelineSnap{ s->step, s->at, bytes, size, 1, g_timeline.gen };
        }
    }
    log_event("timeline_state_migrated", "\"step\":%llu,\"generation\":%u,\"kept\":%s,\"ms\":%.2f",
              (unsigned long long)s->step, was_gen, cached ? "true" : "false",
              (os_mono_seconds() - t0) * 1000.0);
    *used = size;
    return mig;
}

/* a kept state packed under the block's layout (a library with a new one may have loaded since the last snapshot) */
static int in_block_layout(const TimelineSnap *s)
{
    return s->gen == g_timeline.gen && types_now()->layout_hash == types_of_block()->layout_hash;
}

/* the state kept at k in the block's layout, in a buffer of *used bytes (the caller frees it); NULL if it cannot be */
static uint8_t *snap_state(int k, uint64_t *used)
{
    TimelineSnap *s = snap_at(k);
    if (!in_block_layout(s)) return migrated_snap(k, used);
    uint8_t *out = (uint8_t *)malloc(s->used ? s->used : 1);
    if (out && !timeline_unpack(g_timeline.ring + s->at, (size_t)s->bytes, out, (size_t)s->used)) {
        free(out);
        return NULL;
    }
    *used = s->used;
    return out;
}

static int restore_snap(int k)
{
    TimelineSnap *s = snap_at(k);
    memory_make_writable();
    uint64_t now_used = memory_used(), used = s->used;
    uint8_t *base = (uint8_t *)memory_state()->game.base;
    if (!in_block_layout(s)) {
        uint8_t *mig = migrated_snap(k, &used);   /* the block is left as it was when this fails */
        if (!mig) return 0;
        memcpy(base, mig, (size_t)used);
        free(mig);
        running_load(1);
    } else if (!timeline_unpack(g_timeline.ring + s->at, (size_t)s->bytes, base, (size_t)s->used)) {
        return 0;
    } else if (s->migrated) {
        running_load(1);   /* a migrated state holds no caches: the game's load rebuilds them */
    }
    if (now_used > used) memset(base + used, 0, now_used - used);
    memory_state()->game.used = used;
    g_timeline.tainted = 0;
    return 1;
}

/* the newest kept state at or before *target restored; one that cannot take the layout goes with the older ones and
   the next newer is tried (*target moves up to it). Its index, or -1 */
static int restore_newest(uint64_t *target)
{
    for (;;) {
        uint64_t oldest = timeline_oldest();
        if (*target < oldest) *target = oldest;
        int k = newest_snap_at_or_before(*target), n = g_timeline.snap_count;
        if (k < 0) return -1;
        if (restore_snap(k)) return k;
        if (g_timeline.snap_count == n) return -1;   /* damaged, not dropped */
    }
}

/* ---------------------------------------------------------------- keeping it */
void timeline_init(double seconds, uint64_t budget_mb, int (*update)(const GameInput *gi))
{
    g_timeline.update = update;
    if (seconds <= 0 || budget_mb == 0) return;
    uint64_t budget = budget_mb << 20;
    g_timeline.window = (uint64_t)(seconds * 60.0 + 0.5);
    uint64_t steps_bytes = g_timeline.window * sizeof(TimelineStep);
    if (steps_bytes > budget / 2) {   /* the inputs take at most half: the rest keeps states */
        g_timeline.window = budget / 2 / sizeof(TimelineStep);
        steps_bytes = g_timeline.window * sizeof(TimelineStep);
        log_message(LOG_WARN, "timeline: %llu MB keeps the inputs of %.0f s only", (unsigned long long)budget_mb,
                    g_timeline.window / 60.0);
    }
    g_timeline.steps = (TimelineStep *)malloc(steps_bytes);
    g_timeline.ring_cap = budget - steps_bytes;
    g_timeline.ring = (uint8_t *)malloc(g_timeline.ring_cap);
    if (!g_timeline.steps || !g_timeline.ring || g_timeline.window < 2) {
        log_message(LOG_WARN, "timeline: off (no memory for %llu MB)", (unsigned long long)budget_mb);
        free(g_timeline.steps);
        free(g_timeline.ring);
        g_timeline.steps = NULL;
        g_timeline.ring = NULL;
        return;
    }
    g_timeline.every = 60;
    g_timeline.on = 1;
    log_event("timeline", "\"seconds\":%.1f,\"budget_mb\":%llu,\"steps\":%llu", g_timeline.window / 60.0,
              (unsigned long long)budget_mb, (unsigned long long)g_timeline.window);
}

int timeline_on(void) { return g_timeline.on; }

void timeline_clear(const char *why)
{
    if (!g_timeline.on) return;
    if (g_timeline.count) log_event("timeline_cleared", "\"why\":\"%s\",\"steps\":%llu", why,
                                    (unsigned long long)g_timeline.count);
    g_timeline.count = 0;
    g_timeline.snap_count = 0;
    g_timeline.head = 0;
    g_timeline.open = g_timeline.playing = 0;
}

void timeline_code_changed(void) { g_timeline.epoch++; }

/* Before a live step runs: the state is kept when the step is a snapshot step (and always for the first one). */
void timeline_before_step(uint64_t step)
{
    if (!g_timeline.on || g_timeline.open) return;
    if (recording_mode() == LOOP_PLAYING) {   /* the F7 loop jumps back to its start: not one line of play */
        if (g_timeline.count) timeline_clear("f7_loop");
        return;
    }
    if (g_timeline.count && step != head_step()) timeline_clear("gap");
    g_timeline.armed = 0;
    /* a state the game has not claimed yet (used 0) cannot be kept: what its load wrote lies past `used` */
    if (!g_timeline.count && memory_used() == 0) return;
    g_timeline.armed = 1;
    double t = os_mono_seconds();
    if (!g_timeline.count) g_timeline.first = step;
    int k = g_timeline.snap_count - 1;
    if (k < 0 || step >= snap_at(k)->step + g_timeline.every) take_snapshot(step);
    g_timeline.cost_ms += (os_mono_seconds() - t) * 1000.0;
}

/* After a live step ran: its input, the code it ran and the state's hash. */
void timeline_after_step(const GameInput *gi)
{
    if (!g_timeline.on || g_timeline.open || !g_timeline.armed || gi->step != head_step()) return;
    g_timeline.armed = 0;
    double t = os_mono_seconds();
    if (g_timeline.count == g_timeline.window) { g_timeline.first++; g_timeline.count--; }
    TimelineStep *s = step_of(gi->step);
    s->input = *gi;
    s->hash = timeline_hash(memory_state()->game.base, (size_t)memory_used());
    s->epoch = g_timeline.epoch;
    s->version = running_lib()->version;
    g_timeline.count++;
    g_timeline.cost_ms += (os_mono_seconds() - t) * 1000.0;
    g_timeline.cost_steps++;
}

void timeline_info(TimelineInfo *out)
{
    memset(out, 0, sizeof *out);
    out->on = g_timeline.on;
    out->open = g_timeline.open;
    out->playing = g_timeline.playing;
    out->oldest = timeline_oldest();
    out->head = head_step();
    out->cursor = g_timeline.open ? g_timeline.cursor : out->head;
    out->every = g_timeline.every;
    out->snapshots = g_timeline.snap_count;
    out->snapshot_bytes = g_timeline.snaps_taken ? g_timeline.snap_bytes_sum / g_timeline.snaps_taken : 0;
    out->memory_bytes = g_timeline.window * sizeof(TimelineStep) + g_timeline.ring_cap + g_timeline.scratch_cap;
    uint64_t in_ring = 0;
    for (int k = 0; k < g_timeline.snap_count; k++) in_ring += snap_at(k)->bytes;
    out->used_bytes = g_timeline.count * sizeof(TimelineStep) + in_ring + g_timeline.scratch_cap;
    out->cost_ms_per_step = g_timeline.cost_steps ? g_timeline.cost_ms / (double)g_timeline.cost_steps : 0;
    out->divergence = g_timeline.divergence;
}

/* ---------------------------------------------------------------- the first differing field */
/* The path of the field at byte `off` of the state ("entities[12].pos.x"), with its two values; 0 when the byte lies
   in no described field (padding, or the arena past the state's struct), 2 when the field is transient. */
static int field_at(const thr_types *t, uint64_t off, const uint8_t *was, const uint8_t *now, char *path, size_t pcap,
                    char *values, size_t vcap)
{
    thr_place at;
    char a[64], b[64];
    if (!thr_path_at(t, off, &at, path, pcap)) return 0;
    if (!thr_format(t, &at, was, a, sizeof a) || !thr_format(t, &at, now, b, sizeof b)) {
        snprintf(a, sizeof a, "%u", (unsigned)was[off]);   /* a pointer or an opaque field: its byte */
        snprintf(b, sizeof b, "%u", (unsigned)now[off]);
    }
    snprintf(values, vcap, "%s -> %s", a, b);
    return at.field->flags & THR_TRANSIENT ? 2 : 1;
}

/* The replayed block against the recorded state `was` (used bytes): the first differing field, named. */
static void name_difference(const uint8_t *was, uint64_t used, TimelineDivergence *d)
{
    const uint8_t *now = (const uint8_t *)memory_state()->game.base;
    uint64_t n = used < memory_used() ? used : memory_used(), off = 0;
    while (off < n && was[off] == now[off]) off++;
    d->offset = off;
    thr_types t;
    char err[256];
    const StateTypes *st = types_of_block();
    int found = 0;
    if (off < n && st->valid && thr_read(st->blob, st->size, &t, err, sizeof err))
        found = field_at(&t, off, was, now, d->field, sizeof d->field, d->values, sizeof d->values);
    if (!found && off < n) {
        snprintf(d->field, sizeof d->field, "byte %llu of the block", (unsigned long long)off);
        snprintf(d->values, sizeof d->values, "%u -> %u", (unsigned)was[off], (unsigned)now[off]);
    } else if (!found && used == memory_used()) {
        snprintf(d->field, sizeof d->field, "(no field: the two states are equal again)");
        d->values[0] = 0;
    } else if (!found) {
        snprintf(d->field, sizeof d->field, "the used size");
        snprintf(d->values, sizeof d->values, "%llu -> %llu bytes", (unsigned long long)used,
                 (unsigned long long)memory_used());
    }
    d->transient = found == 2 || (!found && st->valid && off >= st->state_size);
}

static void divergence_hint(TimelineDivergence *d, uint64_t time_reads)
{
    if (time_reads)
        snprintf(d->hint, sizeof d->hint, "time read outside the input: the step called pf->time_seconds (use in->dt "
                 "and in->step)");
    else if (d->transient)
        snprintf(d->hint, sizeof d->hint, "a cache outside the described state (the arena, a STATE_TRANSIENT field) "
                 "depends on more than the state: rebuild it from the state each step");
    else
        snprintf(d->hint, sizeof d->hint, "a static or global in the library carried from step to step, or memory "
                 "read before it was written (uninitialised): keep everything a step reads in the state");
}

/* ---------------------------------------------------------------- seeking */
static int replay_one(uint64_t step, uint64_t *time_reads)
{
    TimelineStep *s = step_of(step);
    if (g_timeline.tainted && s->epoch == g_timeline.epoch) {   /* back on the current code's steps: from its state */
        int k = newest_snap_at_or_before(step);
        if (k >= 0 && snap_at(k)->step == step && !restore_snap(k)) return -1;
    }
    frame_loop()->step = step;
    uint64_t reads = log_game_time_reads();
    if (g_timeline.update(&s->input)) return -1;   /* crashed: the rollback cleared the timeline */
    *time_reads += log_game_time_reads() - reads;
    frame_loop()->step = step + 1;
    uint64_t hash = timeline_hash(memory_state()->game.base, (size_t)memory_used());
    if (s->epoch == g_timeline.epoch && !g_timeline.tainted) return hash == s->hash ? 0 : 1;
    /* recorded under other code: nothing to compare. Past the newest kept state, this replay is the new code's
       future of the same inputs: it is recorded as that (hash, code, states every K steps) */
    int k = g_timeline.snap_count - 1;
    if (k >= 0 && snap_at(k)->step <= step) {
        s->hash = hash;
        s->epoch = g_timeline.epoch;
        s->version = running_lib()->version;
        if (step + 1 >= snap_at(k)->step + g_timeline.every) take_snapshot(step + 1);
    } else if (s->epoch != g_timeline.epoch) {
        g_timeline.tainted = 1;
    }
    return 0;
}

/* The replay differs from the recording after step `bad`: replayed on to the next snapshot, compared there, said,
   and the recorded state of that snapshot restored (the block is at `*at` after). */
static void diverged(uint64_t bad, uint64_t time_reads, uint64_t *at)
{
    TimelineDivergence *d = &g_timeline.divergence;
    memset(d, 0, sizeof *d);
    d->count = 1;
    d->step = bad;
    int k = g_timeline.snap_count - 1;
    while (k > 0 && snap_at(k - 1)->step > bad) k--;
    TimelineSnap *s = k >= 0 && snap_at(k)->step > bad ? snap_at(k) : NULL;
    uint64_t ignored = 0;
    for (uint64_t i = bad + 1; s && i < s->step; i++)
        if (replay_one(i, &ignored) < 0) return;
    uint64_t used = 0;
    uint8_t *was = s ? snap_state(k, &used) : NULL;
    if (was) {
        d->compared_at = s->step;
        name_difference(was, used, d);
        restore_snap(k);
        frame_loop()->step = *at = s->step;
    } else {
        snprintf(d->field, sizeof d->field, "(no later snapshot to compare with)");
        *at = bad + 1;
    }
    free(was);
    divergence_hint(d, time_reads);
    log_message(LOG_ERROR, "timeline: the replay differs from the recording after step %llu: %s: %s at step %llu "
                "(likely: %s)", (unsigned long long)bad, d->field, d->values, (unsigned long long)d->compared_at,
                d->hint);
    notice_post(LOG_ERROR, "Not deterministic: %s: %s at step %llu (%s)", d->field, d->values,
                (unsigned long long)bad, d->hint);
    char fesc[512], vesc[256], hesc[512];
    parse_json_escape(d->field, fesc, sizeof fesc);
    parse_json_escape(d->values, vesc, sizeof vesc);
    parse_json_escape(d->hint, hesc, sizeof hesc);
    log_event("timeline_divergence",
              "\"step\":%llu,\"field\":\"%s\",\"values\":\"%s\",\"compared_at\":%llu,\"offset\":%llu,\"hint\":\"%s\"",
              (unsigned long long)bad, fesc, vesc, (unsigned long long)d->compared_at, (unsigned long long)d->offset,
              hesc);
}

/* Replays from the block's step `from` to `to` (recorded inputs), checking each step: 0 ok, 1 diverged (the block is
   at *at), -1 crashed. check = 0: the first mismatch stops; 1: counts every one, going on from the next snapshot. */
static int replay_range(uint64_t from, uint64_t to, uint64_t *at, int count_all, uint64_t *mismatches)
{
    uint64_t time_reads = 0;
    for (uint64_t i = from; i < to; i++) {
        int r = replay_one(i, &time_reads);
        if (r < 0) return -1;
        if (!r) continue;
        diverged(i, time_reads, at);
        if (mismatches) (*mismatches)++;
        if (!count_all || *at <= i) return 1;
        i = *at - 1;
    }
    *at = to;
    return 0;
}

/* Opens the timeline at the live step: paused, the state there kept, so coming back to it is a seek like any other. */
int timeline_open(void)
{
    /* a loop or a --record file holds live steps only: a branch would undo some of them */
    if (!g_timeline.on || g_timeline.open || !g_timeline.count || recording_mode() != LOOP_OFF ||
        recording_writes_file())
        return 0;
    uint64_t head = head_step();
    int k = g_timeline.snap_count - 1;
    if (k < 0 || snap_at(k)->step != head) take_snapshot(head);
    g_timeline.open = 1;
    g_timeline.cursor = head;
    TimelineInfo ti;
    timeline_info(&ti);
    log_event("timeline_open",
              "\"step\":%llu,\"oldest\":%llu,\"every\":%llu,\"snapshots\":%llu,\"snapshot_bytes\":%llu,"
              "\"used_mb\":%.2f,\"memory_mb\":%.2f,\"state_bytes\":%llu,\"cost_ms_per_step\":%.4f",
              (unsigned long long)head, (unsigned long long)ti.oldest, (unsigned long long)ti.every,
              (unsigned long long)ti.snapshots, (unsigned long long)ti.snapshot_bytes, ti.used_bytes / 1048576.0,
              ti.memory_bytes / 1048576.0, (unsigned long long)memory_used(), ti.cost_ms_per_step);
    return 1;
}

double timeline_seek(uint64_t target)
{
    if (!g_timeline.open) return -1;
    double t0 = os_mono_seconds();
    uint64_t oldest = timeline_oldest(), head = head_step();
    if (target < oldest) target = oldest;
    if (target > head) target = head;
    int k = newest_snap_at_or_before(target);
    uint64_t from = g_timeline.cursor;
    /* forward within reach of the current state: no restore */
    if (!(from <= target && (k < 0 || snap_at(k)->step <= from))) {
        if ((k = restore_newest(&target)) < 0) return -1;
        from = snap_at(k)->step;
    }
    frame_loop()->step = from;
    uint64_t at = target;
    int r = replay_range(from, target, &at, 0, NULL);
    if (r < 0) return -1;
    g_timeline.cursor = at;
    frame_loop()->step = at;
    double ms = (os_mono_seconds() - t0) * 1000.0;
    uint64_t recorded = at > g_timeline.first ? step_of(at - 1)->hash : 0;
    log_event("timeline_seek",
              "\"to\":%llu,\"at\":%llu,\"from\":%llu,\"replayed\":%llu,\"ms\":%.3f,\"hash\":\"%016llx\","
              "\"recorded\":\"%016llx\"",
              (unsigned long long)target, (unsigned long long)at, (unsigned long long)from,
              (unsigned long long)(at - from), ms,
              (unsigned long long)timeline_hash(memory_state()->game.base, (size_t)memory_used()),
              (unsigned long long)recorded);
    return ms;
}

/* Every kept step replayed from the oldest snapshot to the live step and checked; returns the mismatches. */
int64_t timeline_verify(void)
{
    if (!g_timeline.open) return -1;
    double t0 = os_mono_seconds();
    uint64_t oldest = timeline_oldest(), head = head_step(), at = head, mismatches = 0;
    if (restore_newest(&oldest) < 0) return -1;
    if (replay_range(oldest, head, &at, 1, &mismatches) < 0) return -1;
    g_timeline.cursor = at;
    frame_loop()->step = at;
    log_event("timeline_verify", "\"from\":%llu,\"to\":%llu,\"mismatches\":%llu,\"ms\":%.1f,\"hash\":\"%016llx\"",
              (unsigned long long)oldest, (unsigned long long)head, (unsigned long long)mismatches,
              (os_mono_seconds() - t0) * 1000.0,
              (unsigned long long)timeline_hash(memory_state()->game.base, (size_t)memory_used()));
    return (int64_t)mismatches;
}

/* Leaves the timeline: at a past step the steps after it are dropped and live play goes on from there (a branch). */
void timeline_close(void)
{
    if (!g_timeline.open) return;
    g_timeline.open = g_timeline.playing = 0;
    uint64_t head = head_step(), at = g_timeline.cursor;
    if (at < head) {
        g_timeline.count = at - g_timeline.first;
        drop_snaps_after(at);
    }
    frame_loop()->step = at;
    log_event("timeline_close", "\"step\":%llu,\"branched\":%s,\"dropped\":%llu", (unsigned long long)at,
              at < head ? "true" : "false", (unsigned long long)(head - at));
}

void timeline_play(int on) { g_timeline.playing = on && g_timeline.open; }

/* ---------------------------------------------------------------- the kept states across a layout change */
typedef struct MigratedSnap { uint64_t step, off, bytes, used; int migrated; } MigratedSnap;

static double dropped_seconds(uint64_t was_oldest)
{
    return g_timeline.snap_count ? (double)(snap_at(0)->step - was_oldest) / 60.0 : (double)g_timeline.count / 60.0;
}

static void say_migrated(int n, int kept, uint64_t was_oldest, double ms, const char *why)
{
    double dropped_s = dropped_seconds(was_oldest);
    char esc[1024];
    parse_json_escape(why, esc, sizeof esc);
    log_event("timeline_migrated", "\"states\":%d,\"dropped\":%d,\"dropped_s\":%.2f,\"ms\":%.2f,\"why\":\"%s\"", kept,
              n - kept, dropped_s, ms, esc);
    log_message(kept < n ? LOG_WARN : LOG_INFO, "timeline: %d kept states migrated to the new layout in %.1f ms%s%s",
                kept, ms, kept < n ? "; the older ones could not be: " : "", kept < n ? why : "");
    if (kept < n)
        notice_post(LOG_WARN, "Timeline: %.1f s dropped, its states cannot take the new layout (%s)", dropped_s, why);
}

/* states found unable to take the layout (n kept before): gone with the older ones, said when found */
static void say_dropped(int n, uint64_t was_oldest, const char *why)
{
    double dropped_s = dropped_seconds(was_oldest);
    char esc[1024];
    snprintf(g_timeline.dropped_why, sizeof g_timeline.dropped_why, "%s", why);
    parse_json_escape(why, esc, sizeof esc);
    log_event("timeline_dropped", "\"states\":%d,\"dropped\":%d,\"dropped_s\":%.2f,\"why\":\"%s\"",
              g_timeline.snap_count, n - g_timeline.snap_count, dropped_s, esc);
    log_message(LOG_WARN, "timeline: %d kept states dropped, they cannot take the new layout: %s",
                n - g_timeline.snap_count, why);
    notice_post(LOG_WARN, "Timeline: %.1f s dropped, its states cannot take the new layout (%s)", dropped_s, why);
}

/* Every kept state of an older layout rewritten to the block's from its generation's table (migrate_bytes, the rules
   the block's migration follows), newest first: the first one that cannot be goes, with every older one. What a
   session file needs (one layout); a layout change itself leaves them to restore_snap. Returns how many are left. */
static int migrate_snaps(char *why_out, size_t why_cap)
{
    keep_types();
    const StateTypes *to = types_of_block();
    double t0 = os_mono_seconds();
    timeline_oldest();   /* states older than the oldest input are not worth the work */
    int n = g_timeline.snap_count, kept = 0;
    uint64_t was_oldest = n ? snap_at(0)->step : 0, max_used = 1, size = to->state_size, cap = 0, end = 0;
    for (int k = 0; k < n; k++) max_used = snap_at(k)->used > max_used ? snap_at(k)->used : max_used;
    uint8_t *old = (uint8_t *)malloc(max_used), *mig = (uint8_t *)malloc(size + 16), *tmp = NULL;
    MigratedSnap *list = (MigratedSnap *)malloc(sizeof(MigratedSnap) * (size_t)(n > 0 ? n : 1));
    char why[2048] = "out of memory";
    for (int k = n - 1; k >= 0 && old && mig && list; k--, kept++) {
        TimelineSnap *s = snap_at(k);
        int same = s->gen == g_timeline.gen;   /* already the block's layout: its packed bytes as they are */
        if (!same && !timeline_unpack(g_timeline.ring + s->at, (size_t)s->bytes, old, (size_t)s->used)) {
            snprintf(why, sizeof why, "the kept state at step %llu is damaged", (unsigned long long)s->step);
            break;
        }
        const StateTypes *from = &g_timeline.gens[s->gen % TL_GENS];
        if (!same && !migrate_bytes(from, to, running_api(), old, s->used, mig, size, why, sizeof why)) break;
        if (end + size + s->bytes + 16 > cap) {
            uint8_t *p = (uint8_t *)realloc(tmp, cap = (end + size + s->bytes + 16) * 2);
            if (!p) { snprintf(why, sizeof why, "out of memory"); break; }
            tmp = p;
        }
        if (same) memcpy(tmp + end, g_timeline.ring + s->at, (size_t)s->bytes);
        list[kept] = MigratedSnap{ s->step, end, same ? s->bytes : timeline_pack(mig, (size_t)size, tmp + end),
                                   same ? s->used : size, same ? s->migrated : 1 };
        end += list[kept].bytes;
    }
    g_timeline.snap_first = g_timeline.snap_count = 0;   /* written back oldest first, from the ring's start */
    g_timeline.head = 0;
    for (int i = kept - 1; i >= 0; i--) {
        if (list[i].bytes > g_timeline.ring_cap) continue;
        uint64_t at = ring_room(list[i].bytes);
        memcpy(g_timeline.ring + at, tmp + list[i].off, list[i].bytes);
        *snap_at(g_timeline.snap_count++) =
            TimelineSnap{ list[i].step, at, list[i].bytes, list[i].used, list[i].migrated, g_timeline.gen };
    }
    free(old);
    free(mig);
    free(tmp);
    free(list);
    say_migrated(n, g_timeline.snap_count, was_oldest, (os_mono_seconds() - t0) * 1000.0, why);
    snprintf(why_out, why_cap, "%s", why);
    return g_timeline.snap_count;
}

/* New code while paused in the past: the recorded steps after the cursor ran under the old code, and their kept states
   with them: the states go (the inputs stay, replayed under the new code). A new layout starts a generation: the
   kept states stay as they are, each migrated when a seek restores it (restore_snap), so the frame the new library
   loads in pays for the types table, not for the ring. */
void timeline_reloaded(int layout_changed)
{
    timeline_code_changed();
    if (!g_timeline.on) return;
    if (layout_changed) {
        double t0 = os_mono_seconds();
        keep_types();
        log_event("timeline_layout", "\"generation\":%u,\"states\":%d,\"migrated\":0,\"ms\":%.3f", g_timeline.gen,
                  g_timeline.snap_count, (os_mono_seconds() - t0) * 1000.0);
    }
    if (!g_timeline.open) {   /* the new code's first state: its steps are checked from there */
        int k = g_timeline.snap_count - 1;
        if (g_timeline.count && (k < 0 || snap_at(k)->step != head_step())) take_snapshot(head_step());
        return;
    }
    uint64_t at = g_timeline.cursor;
    drop_snaps_after(at);
    int k = g_timeline.snap_count - 1;
    if (k < 0 || snap_at(k)->step != at) take_snapshot(at);
    g_timeline.playing = at < head_step();   /* the same seconds again, with the new code */
    log_event("timeline_new_code", "\"step\":%llu,\"version\":%d", (unsigned long long)at, running_lib()->version);
}

/* ---------------------------------------------------------------- sessions as files (session_file.h) */
static const TimelineStep *file_step(uint64_t step) { return step_of(step); }
static const uint8_t      *file_snap(uint64_t k) { return g_timeline.ring + snap_at((int)k)->at; }

/* the running library's file, hashed: a session opened with the same code compares its recorded hashes */
static uint64_t library_code_id(void)
{
    size_t n = 0;
    char *bytes = running_lib()->path[0] ? os_read_file(running_lib()->path, &n, (size_t)1 << 30) : NULL;
    uint64_t id = bytes ? th_hash_bytes64(bytes, n) : 0;
    free(bytes);
    return id;
}

/* The kept states from the oldest one, every step after it, the types table: one file at path (written whole, then
   renamed into place). 1 and its size in *bytes, or 0 and err says why. */
int timeline_save_session(const char *path, const char *game, uint64_t *bytes, char *err, size_t cap)
{
    uint64_t oldest = timeline_oldest(), head = head_step();
    if (!g_timeline.on || !g_timeline.count) { snprintf(err, cap, "the timeline holds no step"); return 0; }
    int k = g_timeline.snap_count - 1;   /* paused, the state at the live step was kept when F8 opened the bar */
    if (!g_timeline.open && (k < 0 || snap_at(k)->step != head)) take_snapshot(head);
    char why[512];
    for (int i = 0; i < g_timeline.snap_count; i++)   /* the file holds one layout: older states migrated first */
        if (snap_at(i)->gen != g_timeline.gen && !migrate_snaps(why, sizeof why)) {
            snprintf(err, cap, "none of its states can take the layout (%s)", why);
            return 0;
        }
    oldest = timeline_oldest();
    const StateTypes *types = types_now();
    if (!types->valid) {
        snprintf(err, cap, "the state has no description (%s)", types->error);
        return 0;
    }
    if (head <= oldest) { snprintf(err, cap, "no step is kept after the oldest state yet"); return 0; }
    SessionFile f;
    memset(&f, 0, sizeof f);
    snprintf(f.game, sizeof f.game, "%s", game);
    f.layout_hash = types->layout_hash;
    f.state_size = types->state_size;
    f.first = oldest;
    f.count = head - oldest;
    f.cursor = g_timeline.open ? g_timeline.cursor : head;
    f.code_id = library_code_id();
    f.epoch = g_timeline.epoch;
    f.types = types->blob;
    f.types_bytes = types->size;
    f.snap_count = (uint64_t)g_timeline.snap_count;
    SessionSnap *snaps = (SessionSnap *)malloc(sizeof(SessionSnap) * f.snap_count);
    for (uint64_t i = 0; snaps && i < f.snap_count; i++) {
        const TimelineSnap *s = snap_at((int)i);
        snaps[i] = SessionSnap{ s->step, s->bytes, s->used };
    }
    f.snaps = snaps;
    *bytes = snaps ? session_file_size(&f) : 0;
    uint8_t *out = snaps ? (uint8_t *)malloc((size_t)*bytes) : NULL;
    if (out) session_file_write(&f, file_step, file_snap, out);
    int ok = out && os_write_file_atomic(path, out, (size_t)*bytes);
    if (!ok) snprintf(err, cap, "%s", out ? os_error_text() : "out of memory");
    free(out);
    free(snaps);
    return ok;
}

/* the file's steps and states into the timeline, as the file's layout (a generation of its own; the newest `window`
   steps, what the ring holds); the steps of the same code as this one (its newest epoch, the same library and
   layout) are compared */
static void load_session(const SessionFile *f, int same_code)
{
    timeline_clear("session_open");
    uint64_t skip = f->count > g_timeline.window ? f->count - g_timeline.window : 0;
    g_timeline.first = f->first + skip;
    g_timeline.epoch++;
    for (uint64_t i = skip; i < f->count; i++) {
        TimelineStep *s = step_of(f->first + i);
        *s = f->steps[i];
        s->epoch = same_code && f->steps[i].epoch == f->epoch ? g_timeline.epoch : g_timeline.epoch - 1;
    }
    g_timeline.count = f->count - skip;
    const uint8_t *p = f->packed;
    for (uint64_t k = 0; k < f->snap_count; p += f->snaps[k].bytes, k++) {
        const SessionSnap *s = &f->snaps[k];
        if (s->bytes > g_timeline.ring_cap) continue;
        if (g_timeline.snap_count == TL_MAX_SNAPS) drop_oldest_snap();
        uint64_t at = ring_room(s->bytes);
        memcpy(g_timeline.ring + at, p, (size_t)s->bytes);
        *snap_at(g_timeline.snap_count++) = TimelineSnap{ s->step, at, s->bytes, s->used, 0, g_timeline.gen };
    }
}

/* A session file opened: its steps on the timeline, paused at the newest one with the block restored to it, its
   states migrated when state.h has changed since. 0 and err says why (the game goes on as it was). */
int timeline_open_session(const char *path, const char *game, char *err, size_t cap)
{
    if (!g_timeline.on) { snprintf(err, cap, "the timeline is off (--timeline 0)"); return 0; }
    size_t n = 0;
    uint8_t *data = (uint8_t *)os_read_file(path, &n, (size_t)1 << 31);
    if (!data) { snprintf(err, cap, "cannot be read (%s)", os_error_text()); return 0; }
    SessionFile f;
    int ok = session_file_check(data, n, &f, err, cap);
    for (uint64_t k = 0; ok && k < f.snap_count; k++)
        if (f.snaps[k].used > memory_state()->game.size) {
            snprintf(err, cap, "its states need %llu bytes, the block has %llu (raise --memory)",
                     (unsigned long long)f.snaps[k].used, (unsigned long long)memory_state()->game.size);
            ok = 0;
        }
    if (ok && strcmp(f.game, game)) snprintf(err, cap, "it was written by the game '%s', this is '%s'", f.game, game);
    ok = ok && !strcmp(f.game, game);
    const StateTypes *now = types_of_block();
    int same_layout = ok && now->layout_hash == f.layout_hash && now->state_size == f.state_size;
    if (ok) {   /* the file's layout a generation of its own: its states migrated as seeks restore them */
        StateTypes from;
        memset(&from, 0, sizeof from);
        from.blob = (uint64_t *)f.types;
        from.size = (size_t)f.types_bytes;
        from.valid = 1;
        from.layout_hash = f.layout_hash;
        from.state_size = f.state_size;
        timeline_clear("session_open");
        new_generation(&from);
        load_session(&f, same_layout && f.code_id && f.code_id == library_code_id());
        keep_types();
    }
    free(data);
    if (!ok) return 0;
    g_timeline.open = 1;
    g_timeline.cursor = UINT64_MAX;   /* nothing to go on from: the seek restores a kept state */
    g_timeline.dropped_why[0] = 0;
    uint64_t head = head_step();
    if (timeline_seek(head) < 0) {
        if (g_timeline.dropped_why[0])
            snprintf(err, cap, "none of its states can take this state.h's layout (%s)", g_timeline.dropped_why);
        else
            snprintf(err, cap, "its states do not unpack");
        timeline_clear("session_refused");
        g_timeline.open = 0;
        return 0;
    }
    log_event("session_open", "\"steps\":%llu,\"from\":%llu,\"to\":%llu,\"states\":%d,\"migrated\":%s,\"compared\":%s,"
              "\"hash\":\"%016llx\",\"recorded\":\"%016llx\"",
              (unsigned long long)g_timeline.count, (unsigned long long)timeline_oldest(), (unsigned long long)head,
              g_timeline.snap_count, same_layout ? "false" : "true",
              step_of(head - 1)->epoch == g_timeline.epoch ? "true" : "false",
              (unsigned long long)timeline_hash(memory_state()->game.base, (size_t)memory_used()),
              (unsigned long long)step_of(head - 1)->hash);
    return 1;
}
