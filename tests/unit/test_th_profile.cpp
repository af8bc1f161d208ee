// Unit tests for tinyheaders/th_profile.h, compiled as C++17: nesting, the ring wrapping, the Chrome trace
// parsed back, closing zones left open by a jump, interning names.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_PROFILE_IMPLEMENTATION
static struct thp_profile *g_p;
#define THP_PROFILE g_p
#include "th_profile.h"
#include "manual_example.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

TH__EXAMPLE(example_profile_src,
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
)

static thp_profile g_prof;
static thp_zone g_ring[4096];

static void test_example(void)
{
    g_p = &g_prof;
    TH_CHECK(example_profile(&g_prof, g_ring));
    check_manual_example("th_profile.h", example_profile_src);
}

static void busy(void) { volatile int x = 0; for (int i = 0; i < 2000; i++) x = x + i; }

static void test_nesting(void)
{
    g_p = &g_prof;
    thp_init(&g_prof, g_ring, 4096, NULL);
    {
        PROFILE_ZONE("a");
        busy();
        {
            PROFILE_ZONE("b");
            busy();
            { PROFILE_ZONE("c"); busy(); }
        }
        { PROFILE_ZONE("d"); busy(); }
    }
    thp_frame_mark(&g_prof);
    TH_CHECK_EQ_INT((int)g_prof.head, 4);
    TH_CHECK_EQ_INT(g_prof.depth, 0);
    const char *names = "abcd";
    int depths[4] = { 0, 1, 2, 1 };
    for (int i = 0; i < 4; i++) {
        const thp_zone *z = thp_zone_at(&g_prof, (uint32_t)i);
        TH_CHECK(z && z->name[0] == names[i]);
        TH_CHECK_EQ_INT(z->depth, depths[i]);
        TH_CHECK(z->end > z->start);
        TH_CHECK_EQ_INT((int)z->frame, 0);
    }
    const thp_zone *a = thp_zone_at(&g_prof, 0), *b = thp_zone_at(&g_prof, 1), *c = thp_zone_at(&g_prof, 2), *d = thp_zone_at(&g_prof, 3);
    TH_CHECK(b->start >= a->start && b->end <= a->end);
    TH_CHECK(c->start >= b->start && c->end <= b->end);
    TH_CHECK(d->start >= b->end && d->end <= a->end);
    // an extra end is ignored, it never reopens or corrupts a zone
    thp_end(&g_prof);
    TH_CHECK_EQ_INT(g_prof.depth, 0);
    // the ring keeps counter ticks and thp_ns makes them nanoseconds of the monotonic clock: a zone spinning 2 ms
    // by that clock lasts 2 ms, and no longer than the clock saw around it (a factor of ns_per_tick missing fails)
    double c0 = g_prof.clock();
    thp_begin(&g_prof, "sleep");
    while (g_prof.clock() - c0 < 0.002) {}
    thp_end(&g_prof);
    double around = (g_prof.clock() - c0) * 1e9;
    const thp_zone *s = thp_zone_at(&g_prof, 4);
    uint64_t ns = thp_ns(&g_prof, s->end) - thp_ns(&g_prof, s->start);
    TH_CHECK_MSG(ns > 1900000 && ns < around * 1.02 + 20000, "2 ms measured as %llu ns (the clock saw %.0f ns)",
                 (unsigned long long)ns, around);
    TH_CHECK(thp_ns(&g_prof, s->start) > 0 && thp_ns(&g_prof, s->start) < thp_now_ns(&g_prof));
}

static void test_ring_wrap(void)
{
    static thp_zone small[16];
    g_p = &g_prof;
    thp_init(&g_prof, small, 16, NULL);
    for (int f = 0; f < 10; f++) {
        for (int i = 0; i < 3; i++) { PROFILE_ZONE("z"); }
        thp_frame_mark(&g_prof);
    }
    TH_CHECK_EQ_INT((int)g_prof.head, 30);
    TH_CHECK(thp_zone_at(&g_prof, 13) == NULL);   // overwritten
    TH_CHECK(thp_zone_at(&g_prof, 14) != NULL);
    TH_CHECK(thp_zone_at(&g_prof, 30) == NULL);   // not yet
    TH_CHECK_EQ_INT((int)thp_zone_at(&g_prof, 29)->frame, 9);
    uint32_t first, end; uint64_t t0, t1;
    TH_CHECK(thp_frame_zones(&g_prof, 0, &first, &end, &t0, &t1));
    TH_CHECK_EQ_INT((int)first, 27);
    TH_CHECK_EQ_INT((int)end, 30);
    TH_CHECK(t1 >= t0);
    TH_CHECK(thp_frame_zones(&g_prof, 4, &first, &end, &t0, &t1));   // zones 15..17: still in the ring
    TH_CHECK_EQ_INT((int)first, 15);
    TH_CHECK(!thp_frame_zones(&g_prof, 5, &first, &end, &t0, &t1)); // zones 12..14: partly overwritten
    // a zone that closes after the ring has wrapped over it writes nothing into its slot's new occupant
    thp_init(&g_prof, small, 16, NULL);
    thp_begin(&g_prof, "long");
    for (int i = 0; i < 20; i++) { PROFILE_ZONE("short"); }
    thp_end(&g_prof);
    for (uint32_t i = 5; i < 21; i++) TH_CHECK(thp_zone_at(&g_prof, i)->end != 0 && !strcmp(thp_zone_at(&g_prof, i)->name, "short"));
}

// ---- a small JSON reader: enough to parse the whole trace strictly and pull out each event's fields
struct Ev { char name[64]; char ph[4]; double ts, dur; int pid, tid; };
static const char *js;
static int jerr;
static void ws(void) { while (*js == ' ' || *js == '\n' || *js == '\t' || *js == '\r') js++; }
static int jstring(char *out, int cap)
{
    ws();
    if (*js != '"') return jerr = 1, 0;
    js++;
    int n = 0;
    while (*js && *js != '"') {
        char c = *js++;
        if (c == '\\') {
            c = *js++;
            if (c == 'u') { char hex[5] = { js[0], js[1], js[2], js[3], 0 }; c = (char)strtol(hex, NULL, 16); js += 4; }
            else if (c != '"' && c != '\\' && c != '/') return jerr = 1, 0;
        } else if ((unsigned char)c < 0x20) return jerr = 1, 0;
        if (n < cap - 1) out[n++] = c;
    }
    if (*js != '"') return jerr = 1, 0;
    js++;
    out[n] = 0;
    return 1;
}
static double jnumber(void)
{
    ws();
    char *end;
    double v = strtod(js, &end);
    if (end == js) jerr = 1;
    js = end;
    return v;
}
static void jvalue(void);
static void jobject(Ev *ev)
{
    ws();
    if (*js++ != '{') { jerr = 1; return; }
    ws();
    if (*js == '}') { js++; return; }
    for (;;) {
        char key[64];
        if (!jstring(key, sizeof key)) return;
        ws();
        if (*js++ != ':') { jerr = 1; return; }
        ws();
        if (ev && !strcmp(key, "name")) jstring(ev->name, sizeof ev->name);
        else if (ev && !strcmp(key, "ph")) jstring(ev->ph, sizeof ev->ph);
        else if (ev && !strcmp(key, "ts")) ev->ts = jnumber();
        else if (ev && !strcmp(key, "dur")) ev->dur = jnumber();
        else if (ev && !strcmp(key, "pid")) ev->pid = (int)jnumber();
        else if (ev && !strcmp(key, "tid")) ev->tid = (int)jnumber();
        else jvalue();
        if (jerr) return;
        ws();
        if (*js == ',') { js++; continue; }
        if (*js == '}') { js++; return; }
        jerr = 1;
        return;
    }
}
static void jvalue(void)
{
    ws();
    char tmp[256];
    if (*js == '{') jobject(NULL);
    else if (*js == '"') jstring(tmp, sizeof tmp);
    else jnumber();
}
static int parse_trace(const char *text, Ev *evs, int cap)
{
    js = text; jerr = 0;
    ws();
    if (strncmp(js, "{\"traceEvents\":[", 16) != 0) return -1;
    js += 16;
    int n = 0;
    ws();
    if (*js == ']') js++;
    else for (;;) {
        Ev e; memset(&e, 0, sizeof e);
        jobject(&e);
        if (jerr) return -1;
        if (n < cap) evs[n] = e;
        n++;
        ws();
        if (*js == ',') { js++; continue; }
        if (*js == ']') { js++; break; }
        return -1;
    }
    ws();
    if (*js++ != '}') return -1;
    ws();
    return *js ? -1 : n;
}

static void test_trace_parse_back(void)
{
    static thp_zone ring2[64];
    static thp_profile audio;
    g_p = &g_prof;
    thp_init(&g_prof, g_ring, 4096, NULL);
    thp_init(&audio, ring2, 64, NULL);
    audio.tid = 2;
    for (int f = 0; f < 3; f++) {
        PROFILE_ZONE("frame \"quoted\"\\");
        { PROFILE_ZONE("update"); busy(); }
        thp_begin(&audio, "mix");
        thp_end(&audio);
        thp_frame_mark(&audio);
        { PROFILE_ZONE("render"); busy(); }
    }
    thp_frame_mark(&g_prof);   // frames 0..2 were one frame of g_prof here: mark three more to have frames
    const thp_profile *ps[2] = { &g_prof, &audio };
    static char buf[1 << 16];
    strcpy(buf, "{\"traceEvents\":[");
    size_t head = strlen(buf);
    size_t n = thp_write_trace(ps, 2, 0, 1, buf + head, sizeof buf - head - 8, 1);
    TH_CHECK(n < sizeof buf - head - 8);
    strcat(buf, "]}");
    Ev evs[32];
    int count = parse_trace(buf, evs, 32);
    TH_CHECK_MSG(count == 10, "parsed %d events from %.400s", count, buf);   // 9 on the main thread (one frame), 1 mix (frame 0)
    int mains = 0, mixes = 0;
    for (int i = 0; i < count && i < 32; i++) {
        TH_CHECK(!strcmp(evs[i].ph, "X"));
        TH_CHECK(evs[i].dur >= 0 && evs[i].ts >= 0);
        TH_CHECK_EQ_INT(evs[i].pid, 1);
        if (!strcmp(evs[i].name, "frame \"quoted\"\\")) mains++;
        if (!strcmp(evs[i].name, "mix")) { mixes++; TH_CHECK_EQ_INT(evs[i].tid, 2); }
    }
    TH_CHECK_EQ_INT(mains, 3);
    TH_CHECK_EQ_INT(mixes, 1);
    // a buffer too small: the length needed is returned and nothing is written past cap
    char tiny[40];
    memset(tiny, 'x', sizeof tiny);
    size_t need = thp_write_trace(ps, 2, 0, 1, tiny, 20, 1);
    TH_CHECK(need == n);
    TH_CHECK(tiny[20] == 'x');
}

static jmp_buf g_jump;
static void game_code_that_faults(void)
{
    PROFILE_ZONE("game");
    PROFILE_BEGIN("inner");
    PROFILE_BEGIN("innermost");
    longjmp(g_jump, 1);
}

static void test_close_at_depth(void)
{
    g_p = &g_prof;
    thp_init(&g_prof, g_ring, 4096, NULL);
    PROFILE_BEGIN("host frame");
    PROFILE_BEGIN("update");
    int depth = g_prof.depth;
    if (!setjmp(g_jump)) game_code_that_faults();
    TH_CHECK_EQ_INT(g_prof.depth, 5);
    TH_CHECK_EQ_INT(thp_close_to_depth(&g_prof, depth), 3);
    TH_CHECK_EQ_INT(g_prof.depth, 2);
    for (uint32_t i = 2; i < 5; i++) TH_CHECK_MSG(thp_zone_at(&g_prof, i)->end != 0, "zone %u closed", i);
    TH_CHECK(thp_zone_at(&g_prof, 1)->end == 0);   // the host's own zones stay open
    PROFILE_END();
    PROFILE_END();
    TH_CHECK(thp_zone_at(&g_prof, 0)->end >= thp_zone_at(&g_prof, 4)->end);
    TH_CHECK_EQ_INT(thp_close_to_depth(&g_prof, 0), 0);
    // deeper than THP_MAX_DEPTH: counted, not recorded, and closed the same way
    for (int i = 0; i < THP_MAX_DEPTH + 5; i++) thp_begin(&g_prof, "deep");
    TH_CHECK_EQ_INT((int)g_prof.head, 5 + THP_MAX_DEPTH);
    TH_CHECK_EQ_INT(thp_close_to_depth(&g_prof, 0), THP_MAX_DEPTH + 5);
    for (uint32_t i = 5; i < g_prof.head; i++) TH_CHECK(thp_zone_at(&g_prof, i)->end != 0);
}

static void test_interning(void)
{
    static char buf[256];
    static uint32_t slots[16];
    thp_names t;
    thp_names_init(&t, buf, sizeof buf, slots, 16);
    char lib[32];   // a "library's" string literal, in memory that will be reused
    strcpy(lib, "update");
    const char *a = thp_intern(&t, lib);
    TH_CHECK(a != lib && !strcmp(a, "update"));
    TH_CHECK(thp_intern(&t, lib) == a);                   // the same pointer again
    TH_CHECK(thp_intern(&t, "update") == a);              // the same text elsewhere
    strcpy(lib, "render");                                // the library is replaced: same address, new text
    const char *b = thp_intern(&t, lib);
    TH_CHECK(b != a && !strcmp(b, "render"));
    TH_CHECK(!strcmp(a, "update"));                       // the first copy is untouched
    memset(lib, 0, sizeof lib);                           // unloaded
    TH_CHECK(!strcmp(a, "update") && !strcmp(b, "render"));
    char longname[200];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    const char *l = thp_intern(&t, longname);
    TH_CHECK_EQ_INT((int)strlen(l), THP_NAME_MAX - 1);
    TH_CHECK(thp_intern(&t, longname) == l);
    // full: "?" rather than an overrun
    int full = 0;
    for (int i = 0; i < 40; i++) {
        char n[16];
        snprintf(n, sizeof n, "zone%d", i);
        const char *c = thp_intern(&t, n);
        if (!strcmp(c, "?")) full = 1;
        else TH_CHECK(!strcmp(c, n));
    }
    TH_CHECK(full);
    TH_CHECK(t.used <= sizeof buf);
    TH_CHECK(!strcmp(thp_intern(&t, NULL), "?"));
}

static void test_interning_literals(void)
{
    static char buf[256];
    static uint32_t slots[16];
    thp_names t;
    thp_names_init(&t, buf, sizeof buf, slots, 16);
    static char lib[32];   // a "library's" literal
    strcpy(lib, "update");
    const char *a = thp_intern_literal(&t, lib);
    TH_CHECK(a != lib && !strcmp(a, "update"));
    TH_CHECK(thp_intern_literal(&t, lib) == a);           // seen before
    TH_CHECK(thp_intern_literal(&t, "update") == a);      // the same text elsewhere: the same copy
    TH_CHECK(thp_intern(&t, lib) == a);                   // one table with thp_intern
    // a literal's text is trusted while its code is loaded: the pointer alone finds the copy
    strcpy(lib, "render");
    TH_CHECK(thp_intern_literal(&t, lib) == a);
    // another library loaded where the first was: forgotten, the text is read again; the old copy stays
    thp_names_forget(&t);
    const char *b = thp_intern_literal(&t, lib);
    TH_CHECK_MSG(b != a && !strcmp(b, "render"), "after thp_names_forget: \"%s\"", b);
    TH_CHECK(!strcmp(a, "update"));
    memset(lib, 0, sizeof lib);
    TH_CHECK(!strcmp(b, "render"));
    TH_CHECK(!strcmp(thp_intern_literal(&t, NULL), "?"));   // an empty slot never answers for NULL
    thp_names_forget(&t);
    TH_CHECK(!strcmp(thp_intern_literal(&t, NULL), "?"));
    // full: "?", and not remembered for the pointer
    char many[40][16];
    int full = 0;
    for (int i = 0; i < 40; i++) {
        snprintf(many[i], sizeof many[i], "zone%d", i);
        const char *c = thp_intern_literal(&t, many[i]);
        if (!strcmp(c, "?")) full = 1;
        else TH_CHECK(!strcmp(c, many[i]));
    }
    TH_CHECK(full);
    TH_CHECK(t.used <= sizeof buf);
}

int main(void)
{
    TH_RUN(test_example);
    TH_RUN(test_nesting);
    TH_RUN(test_ring_wrap);
    TH_RUN(test_trace_parse_back);
    TH_RUN(test_close_at_depth);
    TH_RUN(test_interning);
    TH_RUN(test_interning_literals);
    return th_test_finish();
}
