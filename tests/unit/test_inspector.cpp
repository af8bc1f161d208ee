/* Tests for the pure parts of platform/devtools/inspector.cpp, compiled into this program with stub host services:
   the table's filter (a word any column's text contains, case ignored; column=value one column's whole text) and
   the window of rows on screen that keeps the selected one in view. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_REFLECT_IMPLEMENTATION
#include "devtools/inspector.cpp"

/* ---------------------------------------------------------------- host stubs: nothing here reaches them */
PlatformAPI g_pf;
FrameLoop   g_loop;
Memory      g_memory;
StateTypes  g_types;
PlatformAPI *services_api(void) { return &g_pf; }
FrameLoop   *frame_loop(void) { return &g_loop; }
Memory      *memory_state(void) { return &g_memory; }
StateTypes  *types_of_block(void) { return &g_types; }
void        memory_make_writable(void) {}
GameRun     g_run;
GameLib     g_lib;
GameAPI     g_api;
GameRun     *running_run(void) { return &g_run; }
GameLib     *running_lib(void) { return &g_lib; }
GameAPI     *running_api(void) { return &g_api; }
void        types_take(const GameAPI *api, StateTypes *out) { (void)api; memset(out, 0, sizeof *out); }
void        timeline_info(TimelineInfo *ti) { memset(ti, 0, sizeof *ti); }
void        timeline_clear(const char *why) { (void)why; }
double      os_mono_seconds(void) { return 0; }
void        parse_json_escape(const char *in, char *out, size_t cap) { snprintf(out, cap, "%s", in); }
void        log_event(const char *ev, const char *fields_fmt, ...) { (void)ev; (void)fields_fmt; }
void *session_slice(const char *name, size_t size)
{
    static uint64_t slice[1024];
    (void)name;
    return size <= sizeof slice ? slice : NULL;
}
struct thp_profile g_profile_main;   /* profile.cpp is not part of this program */
struct thp_profile *profile_main(void) { return &g_profile_main; }

static const char *const NAMES[] = { "type", "hp", "pos.x" };

static int match(const char *filter, const char *type, const char *hp, const char *x)
{
    const char *values[] = { type, hp, x };
    return inspector_filter_match(filter, NAMES, values, 3);
}

static void test_filter_word_any_column_case_ignored(void)
{
    TH_CHECK(match("", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(match("drone", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(match("DRONE", "entity_drone", "3", "1.5"));
    TH_CHECK(match("1.5", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(!match("shooter", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(!match("drones", "ENTITY_DRONE", "3", "1.5"));
}

static void test_filter_column_equals_value(void)
{
    TH_CHECK(match("type=ENTITY_DRONE", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(match("TYPE=entity_drone", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(!match("type=DRONE", "ENTITY_DRONE", "3", "1.5"));    /* the whole text, not a part of it */
    TH_CHECK(match("hp=3", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(!match("hp=30", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(!match("hp=3", "ENTITY_DRONE", "30", "1.5"));
    TH_CHECK(match("pos.x=1.5", "ENTITY_DRONE", "3", "1.5"));
    TH_CHECK(!match("speed=3", "ENTITY_DRONE", "3", "1.5"));       /* no such column: nothing */
    TH_CHECK(!match("type=", "ENTITY_DRONE", "3", "1.5"));
}

static void test_window_keeps_selection_in_view(void)
{
    TH_CHECK(inspector_window(0, 0, 40, 2048) == 0);
    TH_CHECK(inspector_window(39, 0, 40, 2048) == 0);
    TH_CHECK(inspector_window(40, 0, 40, 2048) == 1);          /* one down past the last: moves one */
    TH_CHECK(inspector_window(2047, 0, 40, 2048) == 2008);     /* the end: the last page */
    TH_CHECK(inspector_window(2000, 2008, 40, 2048) == 2000);  /* up from the end */
    TH_CHECK(inspector_window(100, 2008, 40, 2048) == 100);
    TH_CHECK(inspector_window(5, 0, 40, 10) == 0);             /* fewer rows than the screen holds */
    TH_CHECK(inspector_window(0, 500, 40, 0) == 0);            /* an empty table */
    TH_CHECK(inspector_window(30, 2040, 40, 2048) == 30);
}

int main(void)
{
    TH_RUN(test_filter_word_any_column_case_ignored);
    TH_RUN(test_filter_column_equals_value);
    TH_RUN(test_window_keeps_selection_in_view);
    return th_test_finish();
}
