/* notice.cpp - short messages for the person at the screen, not only the terminal: a save file that
   was corrupt, an asset that failed, a state that restarted and why. Each shows for a few seconds at
   the bottom of the screen on a dark plate, wrapped to the screen's width. */
#include "services.h"

#include <stdarg.h>
#include <string.h>

enum { NOTICE_MAX = 4, NOTICE_LEN = 600 };
static const double NOTICE_SECONDS = 7.0;

static struct { char text[NOTICE_LEN]; int level; double t; } g_notices[NOTICE_MAX];

void notice_post(int level, const char *fmt, ...)
{
    memmove(&g_notices[1], &g_notices[0], sizeof g_notices[0] * (NOTICE_MAX - 1));   /* newest first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_notices[0].text, NOTICE_LEN, fmt, ap);
    va_end(ap);
    g_notices[0].level = level;
    g_notices[0].t = log_time();
    char esc[NOTICE_LEN * 2];
    parse_json_escape(g_notices[0].text, esc, sizeof esc);
    log_event("notice", "\"level\":%d,\"text\":\"%s\"", level, esc);
}

/* Breaks text into lines no wider than max_w at spaces (or anywhere, for a long path). */
int notice_wrap(const char *text, float size, float max_w, char *out, size_t cap)
{
    size_t o = 0, line_start = 0;
    int lines = 1;
    size_t last_space = (size_t)-1;
    for (const char *p = text; *p && o + 2 < cap; p++) {
        out[o++] = *p == '\n' ? '\n' : *p;
        out[o] = 0;
        if (*p == '\n') { line_start = o; last_space = (size_t)-1; lines++; continue; }
        if (*p == ' ') last_space = o - 1;
        float w, h;
        services_api()->measure_text(out + line_start, size, &w, &h);
        if (w <= max_w) continue;
        if (last_space != (size_t)-1 && last_space > line_start) {
            out[last_space] = '\n';
            line_start = last_space + 1;
        } else {   /* no space to break at: break before this character */
            char c = out[o - 1];
            out[o - 1] = '\n';
            out[o++] = c;
            out[o] = 0;
            line_start = o - 1;
        }
        last_space = (size_t)-1;
        lines++;
    }
    out[o] = 0;
    return lines;
}

void notice_draw(void)
{
    const int L = 30000;
    const float S = 16, PAD = 10;
    float sx, sy, sw, sh;   /* along the bottom of the strip the game leaves free (set_safe_area) */
    render_safe_area(&sx, &sy, &sw, &sh);
    float y = sy + sh - 12;
    double now = log_time();
    for (int i = 0; i < NOTICE_MAX; i++) {
        if (!g_notices[i].text[0] || now - g_notices[i].t > NOTICE_SECONDS) continue;
        char wrapped[NOTICE_LEN * 2];
        int lines = notice_wrap(g_notices[i].text, S, sw - 80 - 2 * PAD, wrapped, sizeof wrapped);
        float h = lines * (S + 4) + 2 * PAD;
        y -= h;
        uint32_t color = g_notices[i].level >= LOG_ERROR  ? 0xFF7070FFu
                         : g_notices[i].level == LOG_WARN ? 0xFFD060FFu
                                                          : 0xE0E8F0FFu;
        services_api()->draw_rect(sx + 40, y, sw - 80, h, 0x000000D8u, L + 10);
        services_api()->draw_rect(sx + 40, y, 4, h, color, L + 11);
        services_api()->draw_text(wrapped, sx + 40 + PAD + 4, y + PAD, S, color, L + 11);
        y -= 6;
    }
}
