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

void overlay_draw(RenderStats rs, double fps)
{
    const int L = 30000;   /* above anything the game draws */
    const float S = 16;
    int show_errors = g_build_status.errors[0] && !g_build_status.last_ok;
    const char *sound_problem = sound_assets_status();
    LoopMode mode = recording_mode();
    const char *loop = mode == LOOP_RECORDING ? "RECORDING (F7 to loop)" : mode == LOOP_PLAYING ? "LOOPING (F7 to stop)" : NULL;
    tweak_panel_draw();   /* F4, beside the overlay */
    if (!g_overlay.visible && !show_errors && !g_crash.text[0] && !g_run.halted && !g_run.pointer_warning[0] && !sound_problem[0] && !loop) return;
    char line[1024];
    float sx, sy, sw, sh;   /* the strip the game leaves free (set_safe_area): never over its score, hearts or ship */
    render_safe_area(&sx, &sy, &sw, &sh);
    float x = sx + 10, y = sy + 10;
    float w = sw - 8 < 600 ? sw - 8 : 600;
    uint32_t white = 0xFFFFFFFFu, grey = 0xB0B0B0FFu, red = 0xFF6060FFu, green = 0x70FF70FFu;
    if (g_overlay.visible) {
        snprintf(line, sizeof line, "%.0f fps   work %.2f ms/frame   step %llu%s", fps,
                 g_overlay.frame_ms[(g_overlay.frame_at + FRAME_HISTORY - 1) % FRAME_HISTORY],
                 (unsigned long long)g_loop.step, g_loop.paused ? "   PAUSED (F8)" : "");
        g_pf.draw_text(line, x, y, S, white, L + 1); y += S + 4;
        /* frame-time graph: one bar per frame, the line marks 16.7 ms */
        float gx = x, gy = y + 40;
        for (int i = 0; i < FRAME_HISTORY; i++) {
            float ms = g_overlay.frame_ms[(g_overlay.frame_at + i) % FRAME_HISTORY];
            float bh = ms > 40 ? 40 : ms * 40 / 33.3f;
            g_pf.draw_rect(gx + i * 4, gy - bh, 3, bh, ms > 16.7f ? 0xFF5050FFu : 0x50FF50FFu, L + 1);
        }
        g_pf.draw_rect(gx, gy - 20, FRAME_HISTORY * 4, 1, 0xFFFFFF80u, L + 2);
        y += 46;
        snprintf(line, sizeof line, "library v%d  reloaded %.1fs ago   build: %s", g_lib.version,
                 g_run.last_reload_t > 0 ? log_time() - g_run.last_reload_t : 0.0,
                 g_build_status.running ? "compiling..." : g_build_status.last_ms <= 0 ? "-" : g_build_status.last_ok ? "ok" : "FAILED");
        g_pf.draw_text(line, x, y, S, g_build_status.running ? grey : g_build_status.last_ok || g_build_status.last_ms <= 0 ? green : red, L + 1); y += S + 4;
        if (g_build_status.last_ms > 0) {
            snprintf(line, sizeof line, "last build %.0f ms", g_build_status.last_ms);
            g_pf.draw_text(line, x, y, S, grey, L + 1); y += S + 4;
        }
        if (tweak_status()[0]) { g_pf.draw_text(tweak_status(), x, y, S, grey, L + 1); y += S + 4; }
        char stats[1024];
        reload_call_stats(stats, sizeof stats);
        snprintf(line, sizeof line, "memory %.2f / %llu MB   sprites %d  batches %d  draws %d",
                 g_memory.game.used / 1048576.0, (unsigned long long)(g_memory.game.size >> 20), rs.sprites, rs.batches, rs.draw_calls);
        g_pf.draw_text(line, x, y, S, white, L + 1); y += S + 4;
        /* the game's stats ("key":value,...) as "key value" pairs, wrapped to the panel */
        char pretty[1200];
        size_t o = 0, col = 0;
        for (const char *p = stats; *p && o + 2 < sizeof pretty; p++) {
            if (*p == '"' || *p == '{' || *p == '}') continue;
            char c = *p == ':' ? ' ' : *p;
            if (c == ',') { if (col > 60) { pretty[o++] = '\n'; col = 0; } else { pretty[o++] = ' '; pretty[o++] = ' '; col += 2; } continue; }
            pretty[o++] = c;
            col++;
        }
        pretty[o] = 0;
        int rows = 1;
        for (size_t i = 0; i < o; i++) rows += pretty[i] == '\n';
        g_pf.draw_text(pretty, x, y, 14, grey, L + 1); y += rows * 17 + 4;
        g_pf.draw_text("F1 overlay F2 shapes F4 tweaks F5 reload F6 restart F7 loop F8 pause F9 step F11 fullscreen F12 shot", x, y, 13, grey, L + 1);
        y += S + 6;
    } else {
        g_pf.draw_text("F1 for the overlay", x, y, S, grey, L + 1); y += S + 4;
    }
    if (loop) { g_pf.draw_text(loop, x, y, S, red, L + 1); y += S + 4; }   /* shown with or without the overlay */
    const float max_w = sw - 32;   /* long messages wrap inside the strip */
    static char wrapped[8192];
    if (g_crash.text[0]) {
        int hung = g_crash.hung;   /* the watchdog, not a fault */
        const char *what = hung ? (g_run.halted ? "HANG - the game stopped responding; waiting for a fix (save a file)"
                                             : "HANG - the game stopped responding; rolled back to the last good code")
                                : (g_run.halted ? "CRASHED - waiting for a fix (save a file)" : "CRASHED - rolled back to the last good code");
        g_pf.draw_text(what, x, y, S, red, L + 1);
        y += S + 4;
        notice_wrap(g_crash.text, 13, max_w, wrapped, sizeof wrapped);
        g_pf.draw_text(wrapped, x, y, 13, white, L + 1);
        float tw, th;
        g_pf.measure_text(wrapped, 13, &tw, &th);
        y += th + 6;
        if (tw + 12 > w) w = tw + 12;
    }
    if (g_run.pointer_warning[0]) {
        g_pf.draw_text("WARNING - the state points into code that was unloaded", x, y, S, 0xFFD040FFu, L + 1);
        y += S + 4;
        g_pf.draw_text(g_run.pointer_warning, x, y, 13, white, L + 1);
        float tw, th;
        g_pf.measure_text(g_run.pointer_warning, 13, &tw, &th);
        y += th + 6;
        if (tw + 12 > w) w = tw + 12;
    }
    if (sound_problem[0]) {
        g_pf.draw_text(sound_problem, x, y, 13, red, L + 1);
        float tw, th;
        g_pf.measure_text(sound_problem, 13, &tw, &th);
        y += th + 4;
        if (tw + 12 > w) w = tw + 12;
    }
    if (show_errors) {
        g_pf.draw_text("BUILD FAILED - still running the last good code", x, y, S, red, L + 1);
        y += S + 4;
        notice_wrap(g_build_status.errors, 13, max_w, wrapped, sizeof wrapped);
        g_pf.draw_text(wrapped, x, y, 13, white, L + 1);
        float tw, th;
        g_pf.measure_text(wrapped, 13, &tw, &th);
        y += th;
        if (tw + 12 > w) w = tw + 12;
    }
    /* the panel goes under the text (a lower layer), sized to what was drawn */
    g_pf.draw_rect(x - 6, sy + 4, w, y - sy - 4 + 6, 0x000000C0u, L);
}
