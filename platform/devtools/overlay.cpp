/* overlay.cpp - the F1 overlay (frame times, library and build status, memory, the game's stats, hot
   keys) and the panels that show without it: a crash and its rollback, build errors. */
#include "devtools.h"

#include <stdio.h>
#include <string.h>

#define FRAME_HISTORY 120

static struct {
    int   visible;                       /* F1 */
    float frame_ms[FRAME_HISTORY];       /* work time of the last frames, a ring */
    int   frame_at;
} g_overlay;

void overlay_toggle(void) { g_overlay.visible = !g_overlay.visible; }

void overlay_note_frame(double work_ms)
{
    g_overlay.frame_ms[g_overlay.frame_at] = (float)work_ms;
    g_overlay.frame_at = (g_overlay.frame_at + 1) % FRAME_HISTORY;
}

#define OVERLAY_LAYER 30000   /* above anything the game draws; the panel under the text, the text above it */
static const uint32_t WHITE = 0xFFFFFFFFu, GREY = 0xB0B0B0FFu, RED = 0xFF6060FFu, GREEN = 0x70FF70FFu;

/* Where the next line goes, and how wide the panel under the lines has grown. */
typedef struct Pen { float x, y, w, max_w; } Pen;

static void pen_line(Pen *p, const char *text, float size, uint32_t color)
{
    services_api()->draw_text(text, p->x, p->y, size, color, OVERLAY_LAYER + 1);
    p->y += size + 4;
}

/* A headline and its text below it, wrapped to the strip; the panel widens to fit. */
static void pen_block(Pen *p, const char *headline, uint32_t color, const char *text, float after)
{
    static char wrapped[8192];
    if (headline) pen_line(p, headline, 16, color);
    notice_wrap(text, 13, p->max_w, wrapped, sizeof wrapped);
    services_api()->draw_text(wrapped, p->x, p->y, 13, headline ? WHITE : color, OVERLAY_LAYER + 1);
    float tw, th;
    services_api()->measure_text(wrapped, 13, &tw, &th);
    p->y += th + after;
    if (tw + 12 > p->w) p->w = tw + 12;
}

/* The game's stats ("key":value,...) as "key value" pairs, wrapped to the panel. */
static void pen_stats(Pen *p, const char *stats)
{
    char pretty[1200];
    size_t o = 0, col = 0;
    for (const char *c = stats; *c && o + 2 < sizeof pretty; c++) {
        if (*c == '"' || *c == '{' || *c == '}') continue;
        char ch = *c == ':' ? ' ' : *c;
        if (ch == ',') {
            if (col > 60) {
                pretty[o++] = '\n';
                col = 0;
            } else {
                pretty[o++] = ' ';
                pretty[o++] = ' ';
                col += 2;
            }
            continue;
        }
        pretty[o++] = ch;
        col++;
    }
    pretty[o] = 0;
    int rows = 1;
    for (size_t i = 0; i < o; i++) rows += pretty[i] == '\n';
    services_api()->draw_text(pretty, p->x, p->y, 14, GREY, OVERLAY_LAYER + 1);
    p->y += rows * 17 + 4;
}

/* F1: frame rate and the frame-time graph, the library and its builds, memory and drawing, the game's stats. */
static void draw_numbers(Pen *p, RenderStats rs, double fps)
{
    char line[1024];
    snprintf(line, sizeof line, "%.0f fps   work %.2f ms/frame   step %llu%s", fps,
             g_overlay.frame_ms[(g_overlay.frame_at + FRAME_HISTORY - 1) % FRAME_HISTORY],
             (unsigned long long)frame_loop()->step, frame_loop()->paused ? "   PAUSED (F8)" : "");
    pen_line(p, line, 16, WHITE);
    /* frame-time graph: one bar per frame, the line marks 16.7 ms */
    float gx = p->x, gy = p->y + 40;
    for (int i = 0; i < FRAME_HISTORY; i++) {
        float ms = g_overlay.frame_ms[(g_overlay.frame_at + i) % FRAME_HISTORY];
        float bh = ms > 40 ? 40 : ms * 40 / 33.3f;
        services_api()->draw_rect(gx + i * 4, gy - bh, 3, bh, ms > 16.7f ? 0xFF5050FFu : 0x50FF50FFu,
                                  OVERLAY_LAYER + 1);
    }
    services_api()->draw_rect(gx, gy - 20, FRAME_HISTORY * 4, 1, 0xFFFFFF80u, OVERLAY_LAYER + 2);
    p->y += 46;
    const BuildStatus *b = build_status();
    snprintf(line, sizeof line, "library v%d  reloaded %.1fs ago   build: %s", running_lib()->version,
             running_run()->last_reload_t > 0 ? log_time() - running_run()->last_reload_t : 0.0,
             b->running ? "compiling..." : b->last_ms <= 0 ? "-" : b->last_ok ? "ok" : "FAILED");
    pen_line(p, line, 16, b->running ? GREY : b->last_ok || b->last_ms <= 0 ? GREEN : RED);
    if (b->last_ms > 0) {
        snprintf(line, sizeof line, "last build %.0f ms", b->last_ms);
        pen_line(p, line, 16, GREY);
    }
    if (tweak_status()[0]) pen_line(p, tweak_status(), 16, GREY);
    snprintf(line, sizeof line, "memory %.2f / %llu MB   sprites %d  batches %d  draws %d",
             memory_state()->game.used / 1048576.0, (unsigned long long)(memory_state()->game.size >> 20), rs.sprites,
             rs.batches, rs.draw_calls);
    pen_line(p, line, 16, WHITE);
    char stats[1024];
    reload_call_stats(stats, sizeof stats);
    pen_stats(p, stats);
    pen_line(p,
             "F1 overlay F2 shapes F4 tweaks F5 reload F6 restart F7 loop F8 timeline F9 step F11 fullscreen F12 shot "
             "Shift+F1 state",
             13, GREY);
    p->y += 5;
}

void overlay_draw(RenderStats rs, double fps)
{
    int show_errors = build_status()->errors[0] && !build_status()->last_ok;
    const char *sound_problem = sound_assets_status();
    LoopMode mode = recording_mode();
    const char *loop = mode == LOOP_RECORDING ? "RECORDING (F7 to loop)"
                       : mode == LOOP_PLAYING ? "LOOPING (F7 to stop)"
                                              : NULL;
    tweak_panel_draw();   /* F4, beside the overlay */
    timeline_bar_draw();  /* F8, along the bottom */
    inspector_draw();     /* Shift+F1, and the pinned watches in the corner */
    if (!g_overlay.visible && !show_errors && !running_crash()->text[0] && !running_run()->halted &&
        !running_run()->pointer_warning[0] && !sound_problem[0] && !loop)
        return;
    float sx, sy, sw, sh;   /* the strip the game leaves free (set_safe_area): never over its score, hearts or ship */
    render_safe_area(&sx, &sy, &sw, &sh);
    Pen p = { sx + 10, sy + 10, sw - 8 < 600 ? sw - 8 : 600, sw - 32 };   /* long messages wrap inside the strip */
    if (g_overlay.visible) draw_numbers(&p, rs, fps);
    else pen_line(&p, "F1 for the overlay", 16, GREY);
    if (loop) pen_line(&p, loop, 16, RED);   /* shown with or without the overlay */
    if (running_crash()->text[0]) {
        const char *what =
            running_crash()->hung
                ? (running_run()->halted ? "HANG - the game stopped responding; waiting for a fix (save a file)"
                                         : "HANG - the game stopped responding; rolled back to the last good code")
                : (running_run()->halted ? "CRASHED - waiting for a fix (save a file)"
                                         : "CRASHED - rolled back to the last good code");
        pen_block(&p, what, RED, running_crash()->text, 6);
    }
    if (running_run()->pointer_warning[0])
        pen_block(&p, "WARNING - the state points into code that was unloaded", 0xFFD040FFu,
                  running_run()->pointer_warning, 6);
    if (sound_problem[0]) pen_block(&p, NULL, RED, sound_problem, 4);
    if (show_errors) pen_block(&p, "BUILD FAILED - still running the last good code", RED, build_status()->errors, 0);
    /* the panel goes under the text (a lower layer), sized to what was drawn */
    services_api()->draw_rect(p.x - 6, sy + 4, p.w, p.y - sy - 4 + 6, 0x000000C0u, OVERLAY_LAYER);
}
