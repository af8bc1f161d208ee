/* profile.cpp - the frame profiler: the host's zones (tinyheaders/th_profile.h), the game's zones through
   PlatformAPI.profile_begin/end with their names copied into the host (a library's string literals go away
   with it), --profile and Shift+F4 captures written as Chrome trace JSON, and the view: a flame chart of one
   frame over bars of the last frames, pausable (P) to look at a spike. See docs/profiling.md. */
#include "services.h"
#define TH_PROFILE_IMPLEMENTATION
#include "th_profile.h"   /* again, for its implementation (host.h included it for the declarations) */

#include <stdlib.h>
#include <string.h>

#define PROFILE_RING   (1u << 16)   /* zones of the main thread (32 bytes each) */
#define AUDIO_RING     (1u << 12)
#define VIEW_FRAMES    120          /* frames the view keeps (bars) */
#define VIEW_ZONES     96           /* zones kept per frame for its flame chart */

static thp_profile g_profile_main;

thp_profile *profile_main(void) { return &g_profile_main; }

/* The audio thread reads the main thread's frame number and publishes its zones (x86 and ARM with GCC/clang;
   MSVC's x86 keeps stores in order). */
#if defined(_MSC_VER)
#define LOAD_RELAXED(x) (*(volatile uint32_t *)&(x))
#define FENCE_RELEASE() ((void)0)
#define FENCE_ACQUIRE() ((void)0)
#else
#define LOAD_RELAXED(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define FENCE_RELEASE() __atomic_thread_fence(__ATOMIC_RELEASE)
#define FENCE_ACQUIRE() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif

typedef struct ViewZone { const char *name; float start_ms, end_ms; uint16_t depth; } ViewZone;
typedef struct ViewFrame { float ms; int zone_count; ViewZone zones[VIEW_ZONES]; } ViewFrame;

static struct {
    thp_zone    ring[PROFILE_RING];
    thp_zone    audio_ring[AUDIO_RING];
    thp_profile audio;                   /* written by the audio thread only */
    thp_names   names;                   /* the game's zone names, copied */
    char        name_buf[1 << 16];
    uint32_t    name_slots[4096];
    int         game_floor;              /* the game's profile_end never closes a zone at or below this depth */
    /* a capture: frames [capture_from, capture_to) of the main ring, appended frame by frame */
    int         capturing;
    uint32_t    capture_from, capture_to;
    char        capture_path[HOST_PATH];
    char       *trace;
    size_t      trace_len, trace_cap;
    int         trace_events;
    /* the view */
    int         view_open, view_paused;
    ViewFrame   frames[VIEW_FRAMES];     /* a ring: frames[view_at - 1] is the newest */
    int         view_at, view_count, view_selected;   /* selected: frames back from the newest */
} g_prof;

/* ---------------------------------------------------------------- the game's zones */
static void profile_service_begin(const char *name)
{
    thp_begin(&g_profile_main, thp_intern_literal(&g_prof.names, name));   /* a literal seen before: one compare */
}

void profile_names_forget(void) { thp_names_forget(&g_prof.names); }

static void profile_service_end(void)
{
    if (g_profile_main.depth > g_prof.game_floor) thp_end(&g_profile_main);
}

static void profile_service_nothing(const char *name) { (void)name; }
static void profile_service_end_nothing(void) {}

void profile_fill_api(PlatformAPI *pf)
{
#if defined(THP_DISABLE)
    (void)profile_service_begin;
    (void)profile_service_end;
    pf->profile_begin = profile_service_nothing;
    pf->profile_end = profile_service_end_nothing;
#else
    (void)profile_service_nothing;
    (void)profile_service_end_nothing;
    pf->profile_begin = profile_service_begin;
    pf->profile_end = profile_service_end;
#endif
}

int profile_guard_enter(void)
{
    int depth = g_profile_main.depth;
    g_prof.game_floor = depth;
    return depth;
}

void profile_guard_leave(int depth)
{
    thp_close_to_depth(&g_profile_main, depth);
    g_prof.game_floor = 0;
}

/* ---------------------------------------------------------------- the audio thread */
void profile_audio_begin(void)
{
#if defined(THP_DISABLE)
    return;
#endif
    g_prof.audio.frame = LOAD_RELAXED(g_profile_main.frame);
    thp_begin(&g_prof.audio, "audio mix");
}

void profile_audio_end(void)
{
#if defined(THP_DISABLE)
    return;
#endif
    thp_end(&g_prof.audio);
    FENCE_RELEASE();
}

/* ---------------------------------------------------------------- captures */
static void trace_append_frame(uint32_t frame)
{
    const thp_profile *ps[2] = { &g_profile_main, &g_prof.audio };
    FENCE_ACQUIRE();
    for (;;) {
        size_t room = g_prof.trace_cap - g_prof.trace_len;
        size_t n =
            thp_write_trace(ps, 2, frame, frame + 1, g_prof.trace + g_prof.trace_len, room, g_prof.trace_events == 0);
        if (n < room) {
            for (size_t i = 0; i < n; i++)
                g_prof.trace_events += g_prof.trace[g_prof.trace_len + i] == '{' &&
                                       (i == 0 || g_prof.trace[g_prof.trace_len + i - 1] == '\n');
            g_prof.trace_len += n;
            return;
        }
        size_t cap = (g_prof.trace_cap + n + 1) * 2;
        char *grown = (char *)realloc(g_prof.trace, cap);
        if (!grown) {
            log_message(LOG_ERROR, "profile: out of memory for the trace of %s", g_prof.capture_path);
            g_prof.capturing = 0;
            return;
        }
        g_prof.trace = grown;
        g_prof.trace_cap = cap;
    }
}

static void capture_start(const char *path, int frames)
{
    snprintf(g_prof.capture_path, sizeof g_prof.capture_path, "%s", path);
    g_prof.capture_from = g_profile_main.frame;
    g_prof.capture_to = g_profile_main.frame + (uint32_t)frames;
    g_prof.trace_len = 0;
    g_prof.trace_events = 0;
    g_prof.capturing = 1;
}

static void capture_write(void)
{
    g_prof.capturing = 0;
    uint32_t frames = g_profile_main.frame - g_prof.capture_from;
    static const char head[] = "{\"traceEvents\":[\n", tail[] = "\n],\"displayTimeUnit\":\"ms\"}\n";
    size_t len = sizeof head - 1 + g_prof.trace_len + sizeof tail - 1;
    char *text = (char *)malloc(len + 1);
    int ok = 0;
    if (text) {
        memcpy(text, head, sizeof head - 1);
        if (g_prof.trace_len) memcpy(text + sizeof head - 1, g_prof.trace, g_prof.trace_len);
        memcpy(text + sizeof head - 1 + g_prof.trace_len, tail, sizeof tail);
        ok = os_write_file_atomic(g_prof.capture_path, text, len);
        free(text);
    }
    char esc[HOST_PATH * 2];
    parse_json_escape(g_prof.capture_path, esc, sizeof esc);
    log_event("profile_written", "\"path\":\"%s\",\"ok\":%s,\"frames\":%u,\"zones\":%d", esc, ok ? "true" : "false",
              frames, g_prof.trace_events);
    if (ok) {
        log_message(LOG_INFO,
                    "profile: %u frames, %d zones written to %s (open it in ui.perfetto.dev or chrome://tracing)",
                    frames, g_prof.trace_events, g_prof.capture_path);
        notice_post(LOG_INFO, "profile: %u frames written to %s", frames, g_prof.capture_path);
    } else {
        log_message(LOG_ERROR, "profile: cannot write %s: %s", g_prof.capture_path, os_error_text());
        notice_post(LOG_ERROR, "profile: cannot write %s", g_prof.capture_path);
    }
}

void profile_init(void)
{
    thp_init(&g_profile_main, g_prof.ring, PROFILE_RING, os_mono_seconds);
    g_profile_main.tid = 1;
    thp_init(&g_prof.audio, g_prof.audio_ring, AUDIO_RING, NULL);   /* one time base: the main thread's */
    g_prof.audio.tick0 = g_profile_main.tick0;
    g_prof.audio.ns_per_tick = g_profile_main.ns_per_tick;
    g_prof.audio.tid = 2;
    thp_names_init(&g_prof.names, g_prof.name_buf, sizeof g_prof.name_buf, g_prof.name_slots, 4096);
    log_event("profile_clock", "\"ns_per_tick\":%.6f", g_profile_main.ns_per_tick);
    if (options()->profile_path) capture_start(options()->profile_path, options()->profile_frames);
}

/* ---------------------------------------------------------------- the view's history */
static void view_note_frame(void)
{
    uint32_t first, end;
    uint64_t t0, t1;
    if (!thp_frame_zones(&g_profile_main, 0, &first, &end, &t0, &t1)) return;
    ViewFrame *f = &g_prof.frames[g_prof.view_at];
    f->ms = (float)((t1 - t0) / 1e6);
    f->zone_count = 0;
    for (uint32_t i = first; i != end && f->zone_count < VIEW_ZONES; i++) {
        const thp_zone *z = thp_zone_at(&g_profile_main, i);
        if (!z || !z->end) continue;
        ViewZone *v = &f->zones[f->zone_count++];
        v->name = z->name;
        v->start_ms = (float)((double)(int64_t)(thp_ns(&g_profile_main, z->start) - t0) / 1e6);
        v->end_ms = (float)((double)(int64_t)(thp_ns(&g_profile_main, z->end) - t0) / 1e6);
        v->depth = z->depth;
    }
    g_prof.view_at = (g_prof.view_at + 1) % VIEW_FRAMES;
    if (g_prof.view_count < VIEW_FRAMES) g_prof.view_count++;
}

void profile_frame_end(void)
{
    thp_frame_mark(&g_profile_main);
    uint32_t done = g_profile_main.frame - 1;   /* the frame that just ended */
    if (g_prof.capturing && done >= g_prof.capture_from && done < g_prof.capture_to) trace_append_frame(done);
    if (g_prof.capturing && g_profile_main.frame >= g_prof.capture_to) capture_write();
    if (g_prof.view_open && !g_prof.view_paused) view_note_frame();
}

void profile_shutdown(void)
{
    if (g_prof.capturing) capture_write();
    free(g_prof.trace);
    g_prof.trace = NULL;
    g_prof.trace_cap = g_prof.trace_len = 0;
}

/* ---------------------------------------------------------------- keys */
static void capture_to_build_folder(void)
{
    char dir[HOST_PATH], stamp[64], path[HOST_PATH];
    snprintf(dir, sizeof dir, "%s/build", options()->root);
    os_make_dir(dir);
    os_format_local_time(os_wall_seconds(), stamp, sizeof stamp);   /* "YYYY-MM-DD HH:MM:SS" -> YYYYMMDD-HHMMSS */
    char compact[32];
    size_t o = 0;
    for (const char *s = stamp; *s && o + 1 < sizeof compact; s++) {
        if (*s >= '0' && *s <= '9') compact[o++] = *s;
        else if (*s == ' ') compact[o++] = '-';
    }
    compact[o] = 0;
    snprintf(path, sizeof path, "%s/profile-%s.json", dir, compact);
    capture_start(path, options()->profile_frames);
    notice_post(LOG_INFO, "profile: capturing %d frames to %s", options()->profile_frames, path);
    log_message(LOG_INFO, "Shift+F4: capturing %d frames to %s", options()->profile_frames, path);
}

int profile_key(GameKey k, int down, int shift)
{
#if defined(THP_DISABLE)
    (void)k; (void)down; (void)shift;
    (void)capture_to_build_folder;
    return 0;
#else
    if (k == KEY_F4 && shift) {
        if (!down) return 1;
        g_prof.view_open = !g_prof.view_open;
        g_prof.view_paused = 0;
        g_prof.view_selected = 0;
        log_event("profile_view", "\"open\":%s", g_prof.view_open ? "true" : "false");
        if (g_prof.view_open && !g_prof.capturing) capture_to_build_folder();
        return 1;
    }
    if (!g_prof.view_open) return 0;
    if (k != KEY_P && k != KEY_C && k != KEY_LEFT && k != KEY_RIGHT) return 0;
    if (!down) return 1;
    if (k == KEY_P) {
        g_prof.view_paused = !g_prof.view_paused;
        g_prof.view_selected = 0;
        log_event("profile_view", "\"open\":true,\"paused\":%s", g_prof.view_paused ? "true" : "false");
    } else if (k == KEY_C) {
        if (!g_prof.capturing) capture_to_build_folder();
    } else if (g_prof.view_paused) {
        int n = g_prof.view_count;
        if (k == KEY_LEFT && g_prof.view_selected + 1 < n) g_prof.view_selected++;
        if (k == KEY_RIGHT && g_prof.view_selected > 0) g_prof.view_selected--;
    }
    return 1;
#endif
}

/* ---------------------------------------------------------------- the view */
static uint32_t name_color(const char *name)
{
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++) { h ^= (uint8_t)*s; h *= 16777619u; }
    uint32_t r = 90 + (h & 127), g = 90 + ((h >> 8) & 127), b = 90 + ((h >> 16) & 127);
    return (r << 24) | (g << 16) | (b << 8) | 0xE0u;
}

void profile_view_draw(void)
{
    if (!g_prof.view_open) return;
    const int L = 30100;   /* above the overlay */
    const float X = 20, W = (float)services_api()->view_width - 40, TOP = 300, ROW = 18;
    char line[256];
    services_api()->draw_rect(X - 10, TOP - 10, W + 20, services_api()->view_height - TOP, 0x101018E8u, L);
    if (!g_prof.view_count) {
        services_api()->draw_text("profiler: collecting frames...", X, TOP, 16, 0xFFFFFFFFu, L + 1);
        return;
    }
    /* bars: the last frames, oldest on the left; the selected one outlined */
    const float BAR_H = 60, bar_w = W / VIEW_FRAMES;
    float by = TOP + 24 + BAR_H;
    float max_ms = 16.7f;
    for (int i = 0; i < g_prof.view_count; i++) if (g_prof.frames[i].ms > max_ms) max_ms = g_prof.frames[i].ms;
    for (int back = 0; back < g_prof.view_count; back++) {
        const ViewFrame *f = &g_prof.frames[(g_prof.view_at - 1 - back + 2 * VIEW_FRAMES) % VIEW_FRAMES];
        float x = X + W - (back + 1) * bar_w;
        for (int z = 0; z < f->zone_count; z++) {   /* the frame's top-level zones, stacked */
            const ViewZone *v = &f->zones[z];
            if (v->depth != 1) continue;
            float y0 = by - v->end_ms / max_ms * BAR_H, y1 = by - v->start_ms / max_ms * BAR_H;
            services_api()->draw_rect(x, y0, bar_w - 1, y1 - y0 > 1 ? y1 - y0 : 1, name_color(v->name), L + 1);
        }
        services_api()->draw_rect(x, by - f->ms / max_ms * BAR_H, bar_w - 1, 1, 0xFFFFFFFFu, L + 2);
        if (back == g_prof.view_selected) services_api()->draw_rect(x, by + 2, bar_w - 1, 4, 0xFFFF40FFu, L + 2);
    }
    services_api()->draw_rect(X, by - 16.7f / max_ms * BAR_H, W, 1, 0xFF404080u, L + 2);
    /* the selected frame's flame chart */
    const ViewFrame *f = &g_prof.frames[(g_prof.view_at - 1 - g_prof.view_selected + 2 * VIEW_FRAMES) % VIEW_FRAMES];
    snprintf(line, sizeof line, "profiler   frame %d back: %.2f ms   %s   Shift+F4 close  C capture %d frames",
             g_prof.view_selected, f->ms, g_prof.view_paused ? "PAUSED (P)  Left/Right: older/newer" : "P pause",
             options()->profile_frames);
    services_api()->draw_text(line, X, TOP, 15, 0xFFFFFFFFu, L + 1);
    float fy = by + 16, span = f->ms > 0 ? f->ms : 1;
    for (int z = 0; z < f->zone_count; z++) {
        const ViewZone *v = &f->zones[z];
        float x0 = X + v->start_ms / span * W, x1 = X + v->end_ms / span * W;
        float y = fy + v->depth * ROW;
        if (y + ROW > services_api()->view_height) continue;
        float w = x1 - x0 > 1 ? x1 - x0 : 1;
        services_api()->draw_rect(x0, y, w, ROW - 2, name_color(v->name), L + 1);
        if (w > 40) {
            snprintf(line, sizeof line, "%s %.2f", v->name, v->end_ms - v->start_ms);
            float tw, th;
            services_api()->measure_text(line, 12, &tw, &th);
            if (tw > w - 4) snprintf(line, sizeof line, "%s", v->name);
            services_api()->draw_text(line, x0 + 2, y + 2, 12, 0x000000FFu, L + 2);
        }
    }
}
