/* timeline_bar.cpp - the timeline's scrub bar (docs/timeline.md): F8 pauses on the timeline and shows it along the
   bottom of the screen; Left/Right go one step, Shift+Left/Right one second, a drag on the bar goes anywhere in it,
   P plays the recorded steps forward (as a save of new code does, from the step shown), V replays all of them and
   checks each, E writes them to a session file (timeline_files.cpp), F9 is one step on, and F8 again goes live from
   the step shown (a branch when it is in the past). The timeline itself is session/timeline.cpp. */
#include "devtools.h"

#include <stdio.h>
#include <string.h>

#define BAR_LAYER 30010            /* above the game and the F1 overlay's panel */
#define BAR_X     40.0f
#define BAR_H     10.0f
#define BAR_PAD   34.0f            /* from the bottom of the view to the bar */

static struct {
    int   dragging;                /* the left button went down on the bar */
    float mouse_x, mouse_y;
} g_bar;

static int bar_open(void)
{
    TimelineInfo ti;
    timeline_info(&ti);
    return frame_loop()->paused && ti.open;
}

static float bar_w(void) { return (float)services_api()->view_width - 2 * BAR_X; }
static float bar_y(void) { return (float)services_api()->view_height - BAR_PAD; }

static void seek_to(uint64_t step) { timeline_seek(step); }

/* the step under x on the bar */
static uint64_t step_at_x(float x)
{
    TimelineInfo ti;
    timeline_info(&ti);
    float f = (x - BAR_X) / bar_w();
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return ti.oldest + (uint64_t)((double)f * (double)(ti.head - ti.oldest) + 0.5);
}

static void seek_by(int64_t delta)
{
    TimelineInfo ti;
    timeline_info(&ti);
    int64_t to = (int64_t)ti.cursor + delta;
    seek_to(to < (int64_t)ti.oldest ? ti.oldest : (uint64_t)to);
}

/* F8 pauses on the timeline (or plainly, when there is nothing on it) and goes live again from the step shown. */
void timeline_bar_toggle(void)
{
    FrameLoop *loop = frame_loop();
    loop->paused = !loop->paused;
    g_bar.dragging = 0;
    if (loop->paused) timeline_open();
    else timeline_close();
    log_event("pause", "\"on\":%s", loop->paused ? "true" : "false");
}

int timeline_bar_key(GameKey k, int down, int shift)
{
    if (!bar_open()) { g_bar.dragging = 0; return 0; }
    if (k == KEY_MOUSE_LEFT) {
        float y = bar_y();
        if (down && g_bar.mouse_y >= y - 14 && g_bar.mouse_y <= y + BAR_H + 14 && g_bar.mouse_x >= BAR_X - 10 &&
            g_bar.mouse_x <= BAR_X + bar_w() + 10) {
            g_bar.dragging = 1;
            timeline_play(0);
            seek_to(step_at_x(g_bar.mouse_x));
            return 1;
        }
        if (!down && g_bar.dragging) { g_bar.dragging = 0; return 1; }
        return 0;
    }
    if (k != KEY_LEFT && k != KEY_RIGHT && k != KEY_P && k != KEY_V && k != KEY_E) return 0;
    if (!down) return 1;
    if (k == KEY_E) { timeline_files_save(NULL); return 1; }
    TimelineInfo ti;
    timeline_info(&ti);
    timeline_play(k == KEY_P && !ti.playing);
    if (k == KEY_LEFT) seek_by(shift ? -60 : -1);
    if (k == KEY_RIGHT) seek_by(shift ? 60 : 1);
    if (k == KEY_V) timeline_verify();
    return 1;
}

int timeline_bar_mouse(float x, float y)
{
    g_bar.mouse_x = x;
    g_bar.mouse_y = y;
    if (!g_bar.dragging || !bar_open()) return 0;
    seek_to(step_at_x(x));
    return 1;
}

/* Once a frame while paused: P's playback and F9's step move along the recorded steps. P's playback takes the steps
   the clock owes (`owed`: the game's own rate, whatever the frame rate; one a frame with --fast), each its own seek.
   0: not on the timeline; 2: playing (the clock keeps its remainder); 1: on it, still. */
int timeline_bar_frame(int single_step, int owed)
{
    if (!bar_open()) return 0;
    TimelineInfo ti;
    timeline_info(&ti);
    if (ti.playing && ti.cursor >= ti.head) {
        timeline_play(0);
        return 1;
    }
    if (!ti.playing) {
        if (single_step) seek_to(ti.cursor + 1);
        return 1;
    }
    for (int i = 0; i < owed && ti.cursor < ti.head; i++) {
        seek_to(ti.cursor + 1);
        timeline_info(&ti);
    }
    return 2;
}

void timeline_bar_draw(void)
{
    if (!bar_open()) return;
    TimelineInfo ti;
    timeline_info(&ti);
    const PlatformAPI *pf = services_api();
    float x = BAR_X, y = bar_y(), w = bar_w();
    pf->draw_rect(x - 12, y - 26, w + 24, BAR_H + 40, 0x000000C0u, BAR_LAYER);
    pf->draw_rect(x, y, w, BAR_H, 0x404858FFu, BAR_LAYER + 1);
    double span = ti.head > ti.oldest ? (double)(ti.head - ti.oldest) : 1.0;
    float cx = x + (float)((double)(ti.cursor - ti.oldest) / span) * w;
    pf->draw_rect(x, y, cx - x, BAR_H, 0x70A0FFFFu, BAR_LAYER + 2);
    pf->draw_rect(cx - 2, y - 5, 4, BAR_H + 10, 0xFFFFFFFFu, BAR_LAYER + 3);
    char line[512];
    snprintf(line, sizeof line,
             "TIMELINE  step %llu  (%+.2f s)   kept %.1f s, a state every %llu steps, %.1f of %.0f MB   "
             "Left/Right step  Shift 1 s  drag  P play  V verify  E save  F8 live%s",
             (unsigned long long)ti.cursor, ((double)ti.cursor - (double)ti.head) / 60.0, span / 60.0,
             (unsigned long long)ti.every, ti.used_bytes / 1048576.0, ti.memory_bytes / 1048576.0,
             ti.cursor < ti.head ? " (branches here)" : "");
    pf->draw_text(line, x, y - 22, 13, 0xFFFFFFFFu, BAR_LAYER + 3);
    if (ti.divergence.count) {
        snprintf(line, sizeof line, "NOT DETERMINISTIC after step %llu: %s: %s (%s)",
                 (unsigned long long)ti.divergence.step, ti.divergence.field, ti.divergence.values,
                 ti.divergence.hint);
        pf->draw_text(line, x, y - 40, 13, 0xFF6060FFu, BAR_LAYER + 3);
    }
}
