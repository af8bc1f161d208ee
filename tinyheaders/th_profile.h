/* th_profile.h - a frame profiler: named, nested zones in a ring, written out as a Chrome trace.

   th_profile.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     PROFILE_ZONE("name") opens a zone where it stands and closes it at the end of the scope (C++); in C,
     PROFILE_BEGIN("name") ... PROFILE_END() do the same. A zone records its name (a pointer: the string
     must outlive the ring, or be interned, see NAMES), its start and end as raw counter ticks (thp_ns turns
     them into nanoseconds when they are read), its nesting depth and the frame it began in. Zones go into a
     ring of the caller's buffer: the newest zones overwrite the oldest. thp_frame_mark() ends a frame; the
     last THP_MAX_FRAMES frames are remembered (where they start in time and in the ring), so a viewer can
     draw "the last frame" or "the last N frames".

     Time comes from the CPU's timestamp counter (rdtsc on x86 / x86-64), calibrated once against the
     monotonic clock in thp_init (a few milliseconds), so a zone costs two counter reads and no system
     call: one read when it opens, one when it closes, each stored as it is (no conversion, no lookup).
     The reads are most of a zone's cost (an rdtsc takes tens of cycles: 14 ns on a 2.1 GHz VM). Elsewhere
     the monotonic clock itself is read.

     There is no global or thread-local state: everything is in a thp_profile the caller owns. A program
     that loads code it will unload (a hot-reloaded game library) keeps the thp_profile (and a thp_names)
     on its own side and has the library's zones go through a function it provides (THP_BEGIN/THP_END).
     One thp_profile is for one thread; give each thread its own, with its own tid.

   USE
     #define TH_PROFILE_IMPLEMENTATION in exactly one C or C++ file before including it.
     Before including it where zones are used, say which profile they go to:
         #define THP_PROFILE (&my_profile)     // an expression of type thp_profile *
     or how a zone begins and ends (a library calling through its host):
         #define THP_BEGIN(name) host->profile_begin(name)
         #define THP_END()       host->profile_end()
     #define THP_DISABLE before including it to compile every zone out (a release build).

     thp_init(p, zones, capacity, clock)   capacity: a power of two; clock: seconds, monotonic (NULL: built-in)
     thp_begin(p, name) / thp_end(p)       open / close the innermost zone (an extra end is ignored)
     thp_close_to_depth(p, depth)          closes every zone open deeper than depth; returns how many
                                           (a longjmp out of zones, a crash guard's jump)
     thp_frame_mark(p)                     ends the current frame, starts the next
     thp_now_ns(p)                         nanoseconds since thp_init
     thp_ns(p, ticks)                      a zone's start or end (counter ticks) as nanoseconds since thp_init
     thp_zone_at(p, i)                     zone number i (0 = first ever), NULL once overwritten or not yet
     thp_frame_zones(p, back, &first, &end, &t0, &t1)  zones and time span of the frame `back` frames ago
                                           (0 = the last complete frame); 0 when it is gone
     thp_write_trace(p, count, frame_from, frame_to, out, cap, first)  the zones of those frames as Chrome
                                           trace events; returns the length (or what it needs if > cap)

   NAMES
     thp_names_init(t, buf, buf_cap, slots, slot_count)  a table of copied names (slot_count a power of 2)
     thp_intern(t, name)                   a stable copy of name in the table (at most THP_NAME_MAX - 1
                                           chars), the same pointer for the same text; "?" when it is full
     thp_intern_literal(t, name)           the same for a name whose text does not change while the code
                                           holding it is loaded (a string literal): a pointer seen before is
                                           one comparison, its text is not read again (inline, for zones)
     thp_names_forget(t)                   forget the pointers thp_intern_literal has seen (the copies stay):
                                           call it when code is loaded that may reuse an unloaded library's
                                           addresses for other text

   CUSTOMIZATION
     THP_MAX_DEPTH   deepest tracked nesting (default 32); deeper zones are counted, not recorded
     THP_MAX_FRAMES  frames remembered (default 256)
     THP_NAME_MAX    longest interned name with its NUL (default 64)

   EXAMPLE (compiled verbatim by tests/unit/test_th_profile.cpp)

     static int example_profile(thp_profile *p, thp_zone *ring) {
         thp_init(p, ring, 256, NULL);
         {
             PROFILE_ZONE("frame");
             { PROFILE_ZONE("update"); }
             { PROFILE_ZONE("render"); }
         }
         thp_frame_mark(p);
         uint32_t first, end; uint64_t t0, t1;
         if (!thp_frame_zones(p, 0, &first, &end, &t0, &t1)) return 0;
         const thp_zone *update = thp_zone_at(p, first + 1);
         return end - first == 3 && update->depth == 1 && thp_ns(p, update->start) >= t0 &&
                update->end <= thp_zone_at(p, first)->end;
     }

   END EXAMPLE
*/
#ifndef TH_PROFILE_H
#define TH_PROFILE_H

#include <stdint.h>
#include <stddef.h>
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <intrin.h>   /* __rdtsc */
#endif

#define THP_VERSION 2   /* 2: a zone keeps counter ticks (start, end), thp_ns converts them */

#ifndef THP_MAX_DEPTH
#define THP_MAX_DEPTH 32
#endif
#ifndef THP_MAX_FRAMES
#define THP_MAX_FRAMES 256
#endif
#ifndef THP_NAME_MAX
#define THP_NAME_MAX 64
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct thp_zone {
    const char *name;
    uint64_t    start, end;         /* counter ticks (thp_ticks, thp_ns for nanoseconds); end = 0 while open */
    uint32_t    frame;
    uint16_t    depth;
    uint16_t    tid;
} thp_zone;

typedef double (*thp_clock_fn)(void);   /* monotonic seconds */

typedef struct thp_frame {
    uint64_t start_ns;
    uint32_t first_zone;   /* the first zone begun in this frame */
    uint32_t pad_;
} thp_frame;

typedef struct thp_profile {
    thp_zone *zones;
    uint32_t  mask;                     /* capacity - 1 */
    uint32_t  head;                     /* zones begun, ever */
    int32_t   depth;                    /* zones open now (may exceed THP_MAX_DEPTH) */
    uint16_t  tid;
    uint16_t  pad_;
    uint32_t  open[THP_MAX_DEPTH];      /* the zone number of each open zone */
    uint32_t  frame;                    /* the current frame's number */
    thp_frame frames[THP_MAX_FRAMES];   /* frames[n % THP_MAX_FRAMES]: where frame n started */
    uint64_t  tick0;
    double    ns_per_tick;
    thp_clock_fn clock;
} thp_profile;

typedef struct thp_names {
    char     *buf;
    uint32_t  cap, used;
    uint32_t *slots;                    /* offset + 1 into buf, 0 = empty */
    uint32_t  slot_mask;
    uint32_t  count;
    const char *cache_ptr[64];          /* the last pointers seen and their copies (checked by content) */
    const char *cache_copy[64];
    const char *literal_ptr[64];        /* thp_intern_literal's pointers and copies (trusted until forgotten) */
    const char *literal_copy[64];
} thp_names;

void            thp_init(thp_profile *p, thp_zone *zones, uint32_t capacity, thp_clock_fn clock);
uint64_t        thp_now_ns(const thp_profile *p);
uint64_t        thp_ns(const thp_profile *p, uint64_t ticks);
void            thp_frame_mark(thp_profile *p);
int             thp_close_to_depth(thp_profile *p, int depth);
const thp_zone *thp_zone_at(const thp_profile *p, uint32_t i);
int             thp_frame_zones(const thp_profile *p, uint32_t back, uint32_t *first, uint32_t *end, uint64_t *t0, uint64_t *t1);
size_t          thp_write_trace(const thp_profile *const *profiles, int count, uint32_t frame_from, uint32_t frame_to,
                                char *out, size_t cap, int first);
void            thp_names_init(thp_names *t, char *buf, uint32_t buf_cap, uint32_t *slots, uint32_t slot_count);
const char     *thp_intern(thp_names *t, const char *name);
const char     *thp__intern_literal_slow(thp_names *t, const char *name);
void            thp_names_forget(thp_names *t);

/* ---------------------------------------------------------------- the clock */
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
static inline uint64_t thp_ticks(void) { uint32_t lo, hi; __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi)); return ((uint64_t)hi << 32) | lo; }
#define THP__HAS_TSC 1
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
static inline uint64_t thp_ticks(void) { return __rdtsc(); }
#define THP__HAS_TSC 1
#else
uint64_t thp__clock_ticks(void);   /* nanoseconds of the monotonic clock */
static inline uint64_t thp_ticks(void) { return thp__clock_ticks(); }
#define THP__HAS_TSC 0
#endif

/* ---------------------------------------------------------------- zones (inline: two counter reads, stored raw) */

static inline void thp_begin(thp_profile *p, const char *name)
{
    int32_t d = p->depth++;
    if (d >= THP_MAX_DEPTH) return;
    uint32_t i = p->head++;
    thp_zone *z = &p->zones[i & p->mask];
    z->name = name;
    z->end = 0;
    z->frame = p->frame;
    z->depth = (uint16_t)d;
    z->tid = p->tid;
    p->open[d] = i;
    z->start = thp_ticks();
}

static inline void thp_end(thp_profile *p)
{
    uint64_t t = thp_ticks();
    if (p->depth <= 0) return;
    int32_t d = --p->depth;
    if (d >= THP_MAX_DEPTH) return;
    uint32_t i = p->open[d];
    if (p->head - i <= p->mask + 1) p->zones[i & p->mask].end = t;
}

/* A literal seen before costs a load and a compare. literal_ptr is never NULL while literal_copy holds a copy:
   an empty slot is {NULL, "?"}, which is also what a NULL name interns to. */
static inline const char *thp_intern_literal(thp_names *t, const char *name)
{
    uint32_t c = (uint32_t)(((uintptr_t)name >> 3) & 63u);
    if (t->literal_ptr[c] == name) return t->literal_copy[c];
    return thp__intern_literal_slow(t, name);
}

#ifdef __cplusplus
}
#endif

/* ---------------------------------------------------------------- the macros */
#define THP__CAT2(a, b) a##b
#define THP__CAT(a, b) THP__CAT2(a, b)
#if defined(THP_DISABLE)
#define PROFILE_BEGIN(name) ((void)0)
#define PROFILE_END() ((void)0)
#define PROFILE_ZONE(name) ((void)0)
#elif defined(THP_BEGIN) || defined(THP_PROFILE)   /* where zones go is known: the macros exist */
#ifndef THP_BEGIN
#define THP_BEGIN(name) thp_begin(THP_PROFILE, name)
#define THP_END() thp_end(THP_PROFILE)
#endif
#define PROFILE_BEGIN(name) THP_BEGIN(name)
#define PROFILE_END() THP_END()
#ifdef __cplusplus
#define PROFILE_ZONE(name) thp__scope THP__CAT(thp__zone_, __LINE__)(name)
struct thp__scope {
    explicit thp__scope(const char *name) { THP_BEGIN(name); }
    ~thp__scope() { THP_END(); }
    thp__scope(const thp__scope &) = delete;
    thp__scope &operator=(const thp__scope &) = delete;
};
#endif
#endif

#endif /* TH_PROFILE_H */

/* ================================================================ implementation */
#ifdef TH_PROFILE_IMPLEMENTATION
#ifndef TH_PROFILE_IMPLEMENTED
#define TH_PROFILE_IMPLEMENTED
#include <string.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The clock a profile is calibrated against when the caller passes none. On Windows the C library has
   neither clock_gettime (mingw-w64 takes it from winpthreads, which a program may not link) nor a
   dependable timespec_get: clock() there is wall time in milliseconds, so pass a finer clock to thp_init. */
static double thp__builtin_clock(void)
{
#if defined(CLOCK_MONOTONIC) && !defined(_WIN32)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
#elif defined(TIME_UTC) && !defined(_WIN32)
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

#if !THP__HAS_TSC
uint64_t thp__clock_ticks(void) { return (uint64_t)(thp__builtin_clock() * 1e9); }
#endif

void thp_init(thp_profile *p, thp_zone *zones, uint32_t capacity, thp_clock_fn clock_fn)
{
    uint32_t cap = 1;
    while (cap * 2 <= capacity && cap < 0x80000000u) cap *= 2;   /* the largest power of two that fits */
    memset(p, 0, sizeof *p);
    p->zones = zones;
    p->mask = cap - 1;
    p->clock = clock_fn ? clock_fn : thp__builtin_clock;
#if THP__HAS_TSC
    {   /* the counter's rate against the clock over ~5 ms */
        double c0 = p->clock(), c1;
        uint64_t t0 = thp_ticks(), t1;
        do { c1 = p->clock(); t1 = thp_ticks(); } while (c1 - c0 < 0.005);
        p->ns_per_tick = t1 > t0 ? (c1 - c0) * 1e9 / (double)(t1 - t0) : 1.0;
        p->tick0 = t0;
    }
#else
    p->ns_per_tick = 1.0;
    p->tick0 = thp_ticks();
#endif
    p->frames[0].start_ns = thp_now_ns(p);
}

uint64_t thp_ns(const thp_profile *p, uint64_t ticks)
{
    int64_t d = (int64_t)(ticks - p->tick0);
    return d > 0 ? (uint64_t)((double)d * p->ns_per_tick) : 0;
}

uint64_t thp_now_ns(const thp_profile *p) { return thp_ns(p, thp_ticks()); }

void thp_frame_mark(thp_profile *p)
{
    p->frame++;
    thp_frame *f = &p->frames[p->frame % THP_MAX_FRAMES];
    f->start_ns = thp_now_ns(p);
    f->first_zone = p->head;
}

int thp_close_to_depth(thp_profile *p, int depth)
{
    int n = 0;
    if (depth < 0) depth = 0;
    while (p->depth > depth) { thp_end(p); n++; }
    return n;
}

const thp_zone *thp_zone_at(const thp_profile *p, uint32_t i)
{
    if (i >= p->head || p->head - i > p->mask + 1) return NULL;
    return &p->zones[i & p->mask];
}

int thp_frame_zones(const thp_profile *p, uint32_t back, uint32_t *first, uint32_t *end, uint64_t *t0, uint64_t *t1)
{
    if (back >= p->frame || back >= THP_MAX_FRAMES - 1) return 0;
    uint32_t n = p->frame - 1 - back;   /* a complete frame: n + 1 has started */
    const thp_frame *a = &p->frames[n % THP_MAX_FRAMES], *b = &p->frames[(n + 1) % THP_MAX_FRAMES];
    if (p->head - a->first_zone > p->mask + 1) return 0;   /* overwritten */
    *first = a->first_zone;
    *end = b->first_zone;
    *t0 = a->start_ns;
    *t1 = b->start_ns;
    return 1;
}

static void thp__json_name(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') { out[o++] = '\\'; out[o++] = (char)c; }
        else if (c < 0x20) o += (size_t)snprintf(out + o, cap - o, "\\u%04x", c);
        else out[o++] = (char)c;
    }
    out[o] = 0;
}

size_t thp_write_trace(const thp_profile *const *profiles, int count, uint32_t frame_from, uint32_t frame_to,
                       char *out, size_t cap, int first)
{
    size_t n = 0;
    char line[THP_NAME_MAX * 6 + 160], name[THP_NAME_MAX * 6];
    if (cap) out[0] = 0;
    for (int k = 0; k < count; k++) {
        const thp_profile *p = profiles[k];
        uint32_t lo = p->head > p->mask + 1 ? p->head - (p->mask + 1) : 0;
        for (uint32_t i = lo; i < p->head; i++) {
            const thp_zone *z = &p->zones[i & p->mask];
            if (z->frame < frame_from || z->frame >= frame_to || !z->end || z->end < z->start) continue;
            uint64_t start_ns = thp_ns(p, z->start), end_ns = thp_ns(p, z->end);
            thp__json_name(z->name ? z->name : "?", name, sizeof name);
            int len = snprintf(line, sizeof line, "%s{\"name\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":%u,"
                               "\"args\":{\"frame\":%u,\"depth\":%u}}",
                               first ? "" : ",\n", name, start_ns / 1000.0, (end_ns - start_ns) / 1000.0,
                               (unsigned)z->tid, (unsigned)z->frame, (unsigned)z->depth);
            first = 0;
            if (len > 0 && n + (size_t)len < cap) memcpy(out + n, line, (size_t)len + 1);
            n += len > 0 ? (size_t)len : 0;
        }
    }
    if (n < cap) out[n] = 0;
    return n;
}

/* ---------------------------------------------------------------- names */
void thp_names_init(thp_names *t, char *buf, uint32_t buf_cap, uint32_t *slots, uint32_t slot_count)
{
    uint32_t sc = 1;
    while (sc * 2 <= slot_count && sc < 0x80000000u) sc *= 2;
    memset(t, 0, sizeof *t);
    t->buf = buf;
    t->cap = buf_cap;
    t->slots = slots;
    t->slot_mask = sc - 1;
    memset(slots, 0, sc * sizeof *slots);
    thp_names_forget(t);
}

void thp_names_forget(thp_names *t)
{
    for (int i = 0; i < 64; i++) { t->literal_ptr[i] = NULL; t->literal_copy[i] = "?"; }
}

const char *thp__intern_literal_slow(thp_names *t, const char *name)
{
    const char *copy = thp_intern(t, name);
    if (name && strcmp(copy, "?") != 0) {   /* a full table is not remembered: a later call may find room */
        uint32_t c = (uint32_t)(((uintptr_t)name >> 3) & 63u);
        t->literal_ptr[c] = name;
        t->literal_copy[c] = copy;
    }
    return copy;
}

const char *thp_intern(thp_names *t, const char *name)
{
    if (!name) return "?";
    uint32_t c = (uint32_t)(((uintptr_t)name >> 3) & 63u);
    /* a pointer seen before, still holding the same text (a reloaded library may put another name there) */
    if (t->cache_ptr[c] == name && strncmp(name, t->cache_copy[c], THP_NAME_MAX - 1) == 0) return t->cache_copy[c];
    uint32_t h = 2166136261u, len = 0;
    while (len < THP_NAME_MAX - 1 && name[len]) { h ^= (uint8_t)name[len++]; h *= 16777619u; }
    for (uint32_t s = h & t->slot_mask, probes = 0; probes <= t->slot_mask; s = (s + 1) & t->slot_mask, probes++) {
        if (!t->slots[s]) {
            if (t->count * 4 >= (t->slot_mask + 1) * 3 || t->used + len + 1 > t->cap) return "?";   /* full */
            char *copy = t->buf + t->used;
            memcpy(copy, name, len);
            copy[len] = 0;
            t->slots[s] = t->used + 1;
            t->used += len + 1;
            t->count++;
            t->cache_ptr[c] = name;
            t->cache_copy[c] = copy;
            return copy;
        }
        const char *have = t->buf + t->slots[s] - 1;
        if (strncmp(have, name, len) == 0 && have[len] == 0) {
            t->cache_ptr[c] = name;
            t->cache_copy[c] = have;
            return have;
        }
    }
    return "?";
}

#ifdef __cplusplus
}
#endif
#endif /* TH_PROFILE_IMPLEMENTED */
#endif /* TH_PROFILE_IMPLEMENTATION */

/*
   LICENCE - this file is offered under your choice of A or B.

   A - MIT License

   Copyright (c) 2026 the engine's maintainers

   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all copies or
   substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
   NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
   OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

   B - Public domain

   The authors dedicate this file to the public domain, giving up every copyright interest in
   it, for the benefit of the public and to the detriment of their heirs and successors, and
   meaning it as a permanent act. Anyone may copy, modify, publish, use, compile, sell or distribute
   it, as source or as a compiled binary, for any purpose, commercial or not, and by any means,
   with no need to name the authors. Where a dedication to the public domain is not recognised, the
   authors grant everyone the same rights under the MIT License above, without its condition.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED. IN NO EVENT
   SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
