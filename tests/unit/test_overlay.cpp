/* Tests for platform/devtools/overlay.cpp, compiled into this program with notice.cpp and stub host services:
   the crash panel names a hang when the crash report says the watchdog stopped the call (g_crash.hung),
   whatever words the report's text holds, and a fault as a crash; the crash panel and the notices stay inside
   the strip the game left free (set_safe_area). */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "devtools/overlay.cpp"
#include "services/notice.cpp"

#include <string>
#include <vector>

/* ---------------------------------------------------------------- host stubs */
PlatformAPI g_pf;                      /* the host state overlay.cpp and notice.cpp read, through its accessors */
FrameLoop   g_loop;
Memory      g_memory;
GameLib     g_lib;
GameRun     g_run;
BuildStatus g_build_status;
CrashReport g_crash;
PlatformAPI *services_api(void) { return &g_pf; }
FrameLoop   *frame_loop(void) { return &g_loop; }
Memory      *memory_state(void) { return &g_memory; }
GameLib     *running_lib(void) { return &g_lib; }
GameRun     *running_run(void) { return &g_run; }
BuildStatus *build_status(void) { return &g_build_status; }
CrashReport *running_crash(void) { return &g_crash; }

double      log_time(void) { return 1.0; }
void        parse_json_escape(const char *in, char *out, size_t cap) { snprintf(out, cap, "%s", in); }
void        log_event(const char *ev, const char *fields_fmt, ...) { (void)ev; (void)fields_fmt; }
void        reload_call_stats(char *buf, int cap) { if (cap > 0) buf[0] = 0; }
LoopMode    recording_mode(void) { return LOOP_OFF; }
const char *tweak_status(void) { return ""; }
void tweak_panel_draw(void) {}   /* tweak_panel.cpp is not part of this program */
void timeline_bar_draw(void) {}  /* nor timeline_bar.cpp */
void inspector_draw(void) {}     /* nor inspector.cpp */
const char *sound_assets_status(void) { return ""; }

static float g_safe[4] = { 0, 0, 1280, 720 };
void        render_safe_area(float *x, float *y, float *w, float *h) { *x = g_safe[0]; *y = g_safe[1]; *w = g_safe[2]; *h = g_safe[3]; }

static std::vector<std::string> g_drawn;   /* every text the overlay drew this frame */
static float g_box[4];                     /* the bounds of everything drawn: x0, y0, x1, y1 */
static void drawn_box(float x, float y, float w, float h)
{
    if (x < g_box[0]) g_box[0] = x;
    if (y < g_box[1]) g_box[1] = y;
    if (x + w > g_box[2]) g_box[2] = x + w;
    if (y + h > g_box[3]) g_box[3] = y + h;
}

static float stub_draw_text(const char *utf8, float x, float y, float px, uint32_t color, int layer)
{
    (void)color; (void)layer;
    g_drawn.push_back(utf8);
    drawn_box(x, y, 1, px);
    return (float)strlen(utf8) * px * 0.5f;
}
static void stub_measure_text(const char *utf8, float px, float *w, float *h) { *w = (float)strlen(utf8) * px * 0.5f; *h = px; }
static void stub_draw_rect(float x, float y, float w, float h, uint32_t color, int layer)
{
    (void)color; (void)layer;
    drawn_box(x, y, w, h);
}

static bool drew_starting(const char *prefix)
{
    for (const std::string &s : g_drawn) if (s.compare(0, strlen(prefix), prefix) == 0) return true;
    return false;
}

static void draw_with(const char *text, int hung, int halted)
{
    memset(&g_crash, 0, sizeof g_crash);
    snprintf(g_crash.text, sizeof g_crash.text, "%s", text);
    g_crash.hung = hung;
    g_run.halted = halted;
    g_drawn.clear();
    g_box[0] = g_box[1] = 1e9f;
    g_box[2] = g_box[3] = -1e9f;
    RenderStats rs;
    memset(&rs, 0, sizeof rs);
    overlay_draw(rs, 60);
}

/* ---------------------------------------------------------------- tests */
static void test_hang_from_the_report_not_its_words(void)
{
    static const struct { const char *text; int hung, halted; const char *shown, *not_shown; } CASES[] = {
        { "version 3: watchdog in update game/game.cpp:12", 1, 0, "HANG - the game stopped responding; rolled back", "CRASHED" },
        { "version 3: watchdog in update game/game.cpp:12", 1, 1, "HANG - the game stopped responding; waiting for a fix", "CRASHED" },
        /* a fault whose backtrace happens to hold the words ": hang in" (a function of the game's) */
        { "version 4: SIGSEGV in update player.cpp:40: hang in the air", 0, 0, "CRASHED - rolled back to the last good code", "HANG" },
        { "version 4: SIGSEGV in update", 0, 1, "CRASHED - waiting for a fix", "HANG" },
    };
    for (const auto &c : CASES) {
        draw_with(c.text, c.hung, c.halted);
        TH_CHECK_MSG(drew_starting(c.shown) && !drew_starting(c.not_shown), "hung %d, \"%s\": \"%s\" not shown", c.hung, c.text, c.shown);
    }
}

/* The game left the bottom-right quarter free: the crash panel and a notice are drawn inside it. */
static void test_banners_in_the_safe_area(void)
{
    g_safe[0] = 660; g_safe[1] = 430; g_safe[2] = 600; g_safe[3] = 230;
    notice_post(LOG_ERROR, "assets/sprites/x.png: not a PNG");
    draw_with("version 4: SIGSEGV in update game/entities.cpp:40", 0, 0);
    notice_draw();
    TH_CHECK(drew_starting("CRASHED"));
    TH_CHECK_MSG(g_box[0] >= 660 && g_box[1] >= 430 && g_box[2] <= 1260 && g_box[3] <= 660,
                 "drawn in %.0f,%.0f .. %.0f,%.0f", g_box[0], g_box[1], g_box[2], g_box[3]);
    g_safe[0] = 0; g_safe[1] = 0; g_safe[2] = 1280; g_safe[3] = 720;
}

static void test_no_crash_no_panel(void)
{
    draw_with("", 0, 0);
    TH_CHECK(!drew_starting("CRASHED") && !drew_starting("HANG"));
}

int main(void)
{
    g_pf.draw_text = stub_draw_text;
    g_pf.measure_text = stub_measure_text;
    g_pf.draw_rect = stub_draw_rect;
    g_pf.view_width = 1280;
    g_pf.view_height = 720;
    TH_RUN(test_hang_from_the_report_not_its_words);
    TH_RUN(test_no_crash_no_panel);
    TH_RUN(test_banners_in_the_safe_area);
    return th_test_finish();
}
