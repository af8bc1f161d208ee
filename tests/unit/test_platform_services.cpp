/* Tests for the one list of services, PLATFORM_SERVICES (platform/include/game_api.h), and what platform/session/guard.cpp
   generates from it: the struct keeps the member order and offsets of API version 5, every service but
   the self-guarded log and event gets a wrapper that runs the real one inside a service (the watchdog's
   interrupt waits for it), and a service the host left NULL is named and stays NULL. And the gate that
   makes the interrupt wait (os_service_gate.h): it jumps when the outermost service returns, for the
   call still running only. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#include "session/guard.cpp"
#include "core/log.cpp"
#include "core/parse.cpp"
#include "services/profile.cpp"
#include "services/notice.cpp"
void render_safe_area(float *x, float *y, float *w, float *h) { *x = *y = 0; *w = 1280; *h = 720; }   /* render.cpp is not part of this program */

#include "host_core_stubs.h"   /* no hot restart, the frame loop's globals */

/* ---------------------------------------------------------------- the ABI of version 5, by hand */
struct PlatformAPIv5 {
    void     (*log)(int level, const char *fmt, ...);
    void     (*event)(const char *name, const char *fields_json);
    int64_t  (*read_file)(const char *path, void *dst, int64_t cap);
    double   (*time_seconds)(void);
    void     (*draw_sprite)(const GameSprite *s);
    void     (*draw_rect)(float x, float y, float w, float h, uint32_t color, int layer);
    float    (*draw_text)(const char *utf8, float x, float y, float px_size, uint32_t color, int layer);
    void     (*measure_text)(const char *utf8, float px_size, float *w, float *h);
    int      (*sprite_size)(uint32_t sprite, float *w, float *h);
    void     (*set_camera)(float x, float y, float zoom);
    void     (*tweak)(const char *file, int line, int counter, int kind, const char *literal, void *value_inout);
    uint32_t (*sound_play)(uint32_t sound_id, const GameSoundPlay *how);
    void     (*sound_stop)(uint32_t handle, float fade_s);
    void     (*sound_set)(uint32_t handle, float volume, float pan, float pitch);
    int      (*sound_playing)(uint32_t handle);
    void     (*sound_bus)(int bus, float volume, float fade_s);
    void     (*sound_name)(const char *sound_name);
    int      (*save)(const char *name, const void *data, int64_t size);
    int64_t  (*load)(const char *name, void *dst, int64_t cap);
    void     (*set_title)(const char *utf8);
    void     (*quit)(void);
    void     (*profile_begin)(const char *name);
    void     (*profile_end)(void);
    void     (*set_glow)(float intensity);
    void     (*set_safe_area)(float x, float y, float w, float h);
    int      view_width, view_height;
    int      debug_draw;
};
static_assert(GAME_API_VERSION == 9, "the hand-written copy above is version 5, whose layout versions 6 to 9 keep "
              "(6 added tweak kinds, 7 appended sprite_anim_info after the view fields, 8 sprite_slice after it, 9 the "
              "map_* services after that)");
static_assert(offsetof(PlatformAPI, sprite_anim_info) == sizeof(PlatformAPIv5), "services added since 6 come last");
#define SAME_PLACE(ret, name, params, args) \
    static_assert(offsetof(PlatformAPI, name) == offsetof(PlatformAPIv5, name), "PlatformAPI." #name " moved"); \
    static_assert(std::is_same_v<decltype(PlatformAPI::name), decltype(PlatformAPIv5::name)>, "PlatformAPI." #name " changed type");
PLATFORM_SERVICES_V6(SAME_PLACE, SAME_PLACE)
static_assert(offsetof(PlatformAPI, view_width) == offsetof(PlatformAPIv5, view_width), "view_width moved");
static_assert(offsetof(PlatformAPI, debug_draw) == offsetof(PlatformAPIv5, debug_draw), "debug_draw moved");

/* ---------------------------------------------------------------- fakes, generated from the same list */
static int g_calls, g_calls_in_service;
#define FAKE(ret, name, params, args) \
    static ret fake_##name params { g_calls++; g_calls_in_service += g_faults.gate.depth > 0; return ret(); }
PLATFORM_SERVICES(FAKE, FAKE)

static PlatformAPI fake_api(void)
{
    PlatformAPI pf;
    memset(&pf, 0, sizeof pf);
#define FILL(ret, name, params, args) pf.name = fake_##name;
    PLATFORM_SERVICES(FILL, FILL)
    return pf;
}

static void test_every_service_is_wrapped(void)
{
    PlatformAPI pf = fake_api();
    char missing[512];
    TH_CHECK_EQ_INT(guard_missing_services(&pf, missing, sizeof missing), 0);
    TH_CHECK(!strcmp(missing, ""));
    guard_wrap_services(&pf);
    int wrapped = 0, self = 0;
#define WRAPPED(ret, name, params, args) wrapped += (void *)pf.name != (void *)fake_##name;
#define SELF(ret, name, params, args) self += (void *)pf.name == (void *)fake_##name;
    PLATFORM_SERVICES(WRAPPED, SELF)
    TH_CHECK_EQ_INT(wrapped, 30);
    TH_CHECK_EQ_INT(self, 2);   /* log and event keep the watchdog out themselves */

    /* each wrapper calls its service once, inside a service */
    g_calls = g_calls_in_service = 0;
    float w = 0, h = 0;
    GameSprite s;
    memset(&s, 0, sizeof s);
    char buf[4];
    pf.read_file("x", buf, sizeof buf);
    pf.time_seconds();
    pf.draw_sprite(&s);
    pf.draw_rect(0, 0, 1, 1, 0, 0);
    pf.draw_text("x", 0, 0, 10, 0, 0);
    pf.measure_text("x", 10, &w, &h);
    pf.sprite_size(1, &w, &h);
    pf.set_camera(0, 0, 1);
    pf.tweak("f", 1, 0, TWEAK_FLOAT, "1", &w);
    pf.sound_play(1, NULL);
    pf.sound_stop(1, 0);
    pf.sound_set(1, 1, 0, 1);
    pf.sound_playing(1);
    pf.sound_bus(0, 1, 0);
    pf.sound_name("x");
    pf.save("x", buf, 1);
    pf.load("x", buf, sizeof buf);
    pf.set_title("x");
    pf.quit();
    pf.profile_begin("x");
    pf.profile_end();
    pf.set_glow(1);
    pf.set_safe_area(0, 0, 1, 1);
    GameAnimInfo info;
    pf.sprite_anim_info(1, "x", &info);
    TH_CHECK_EQ_INT(g_calls, 24);
    TH_CHECK_EQ_INT(g_calls_in_service, 24);
    TH_CHECK_EQ_INT(g_faults.gate.depth, 0);
}

static void test_a_null_service_is_named(void)
{
    PlatformAPI pf = fake_api();
    pf.draw_text = NULL;
    pf.quit = NULL;
    char missing[512];
    TH_CHECK_EQ_INT(guard_missing_services(&pf, missing, sizeof missing), 2);
    TH_CHECK_MSG(!strcmp(missing, "draw_text, quit"), "missing: %s", missing);
    guard_wrap_services(&pf);
    TH_CHECK(pf.draw_text == NULL && pf.quit == NULL);

    PlatformAPI none;
    memset(&none, 0, sizeof none);
    TH_CHECK_EQ_INT(guard_missing_services(&none, missing, 8), 32);   /* a short buffer is cut, not overrun */
    TH_CHECK_MSG(strlen(missing) == 7 && !strncmp(missing, "log, ev", 7), "missing: %s", missing);
}

/* ---------------------------------------------------------------- the deferred interrupt (os_service_gate.h) */
static void test_interrupt_waits_for_the_outermost_service(void)
{
    OsServiceGate g;
    std::atomic<uint64_t> running{ 5 };
    os_gate_reset(&g);
    TH_CHECK_EQ_INT(os_gate_defer(&g, 5), 0);          /* outside a service: interrupt now */
    os_gate_enter(&g);
    os_gate_enter(&g);
    TH_CHECK_EQ_INT(os_gate_defer(&g, 5), 1);          /* inside: noted */
    TH_CHECK_EQ_INT(os_gate_leave(&g, &running), 0);   /* the inner service returns: not yet */
    TH_CHECK_EQ_INT(os_gate_leave(&g, &running), 1);   /* the outermost returns: jump now */
    TH_CHECK_EQ_INT(g.depth, 0);
    os_gate_enter(&g);
    TH_CHECK_EQ_INT(os_gate_leave(&g, &running), 0);   /* nothing deferred: return normally */

    os_gate_enter(&g);
    TH_CHECK_EQ_INT(os_gate_defer(&g, 5), 1);
    running.store(6);                                  /* that call returned; another runs */
    TH_CHECK_EQ_INT(os_gate_leave(&g, &running), 0);   /* a stale interrupt is dropped */
    os_gate_enter(&g);
    TH_CHECK_EQ_INT(os_gate_leave(&g, &running), 0);
}

int main(void)
{
    char logfile[] = "/tmp/test_platform_services_log_XXXXXX";
    int fd = mkstemp(logfile);
    if (fd >= 0) close(fd);
    g_options.log_file = logfile;
    snprintf(g_options.root, sizeof g_options.root, "/tmp");
    log_open(0, 0);
    TH_RUN(test_every_service_is_wrapped);
    TH_RUN(test_a_null_service_is_named);
    TH_RUN(test_interrupt_waits_for_the_outermost_service);
    log_close();
    remove(logfile);
    return th_test_finish();
}
