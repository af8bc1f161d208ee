/* tweak_panel.cpp - the F4 tweak panel: every TWEAK site the running code has read, grouped by file, each with
   its source line and its value, edited with the mouse and written back into its literal (tweak.cpp's
   tweak_write: the file as it is now, mapped onto the running code's baseline, rewritten in the literal's own
   style, atomically; a save made in between is never overwritten).

   Floats and ints drag sideways (or click and type, Enter to set), bools toggle on a click, colours open a
   hue/saturation/value + alpha picker, vectors show two numbers, positions (TWEAK_POS in the world,
   TWEAK_SCREEN_POS on the screen) get a handle in the view to drag. A change is live at once; a drag is
   written when it pauses (~150 ms) and when it ends. Ctrl+Z / Ctrl+Y undo and redo, on disk too. The
   filter box (click it, type; letters and digits, matched against "file line source" with everything but
   letters and digits left out) narrows the list. Shift+F4 is the profiler's view (profile.cpp).

   What the panel takes (F4, Ctrl+Z/Y, the mouse over the panel or on a handle, typing into a field) never
   reaches the game's input, the F7 loop or a --record file: input.cpp asks here first. */
#include "devtools.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Layout, in view pixels (docs/tweak_panel.md; the e2e tests aim the scripted mouse with it) */
#define PANEL_X      740.0f
#define PANEL_W      530.0f
#define PANEL_Y      10.0f
#define FILTER_Y     32.0f            /* the filter box row */
#define LIST_Y       74.0f            /* the first row of the list */
#define ROW_H        18.0f
#define VALUE_X      (PANEL_X + PANEL_W - 156.0f)   /* a row's value box */
#define VALUE_W      150.0f
#define PICKER_H     112.0f           /* a colour's picker, under its row */
#define HANDLE_R     7.0f
#define LAYER        30100            /* above the overlay */
#define DRAG_PAUSE_S 0.15

enum { FOCUS_NONE, FOCUS_FILTER, FOCUS_VALUE };
enum { DRAG_NONE, DRAG_NUMBER, DRAG_SV, DRAG_HUE, DRAG_ALPHA, DRAG_HANDLE, DRAG_PENDING_CLICK };

typedef struct PanelRow { int file, site; float y; int part; } PanelRow;

static struct {
    int    open;
    float  mx, my;                    /* the pointer */
    int    captured;                  /* the left button went down on the panel or a handle */
    char   filter[64];
    int    focus;
    char   edit[48];                  /* the typed value */
    int    edit_file, edit_site, edit_part;
    int    picker_open, picker_file, picker_site;  /* the open colour picker */
    float  hue;                       /* the picker's hue, kept while saturation or value is 0 */
    /* the drag */
    int    drag, drag_file, drag_site, drag_part;
    float  drag_x0, drag_y0, drag_dx, drag_dy;
    uint8_t drag_value0[8], drag_value[8];
    int    dirty;                     /* the live value is not on disk yet */
    double last_change;
    int    gesture;
    char   message[256];
    int    message_bad;
    float  scroll;
} g_panel;

static int kind_of(int file, int site)
{
    TweakSiteInfo si;
    return tweak_site_info(file, site, &si) ? si.kind : 0;
}

static void say(int bad, const char *msg)
{
    snprintf(g_panel.message, sizeof g_panel.message, "%s", msg);
    g_panel.message_bad = bad;
    if (bad && msg[0]) log_message(LOG_WARN, "tweak panel: %s", msg);
}

static const char *file_short(const char *path) { const char *s = strrchr(path, '/'); return s ? s + 1 : path; }

/* ---------------------------------------------------------------- the list */
static int matches(int file, const TweakSiteInfo *si)
{
    if (!g_panel.filter[0]) return 1;
    char hay[512], squeezed[512];
    snprintf(hay, sizeof hay, "%s %d %s", file_short(tweak_file_path(file)), si->line, si->source);
    size_t n = 0;
    for (const char *p = hay; *p && n + 1 < sizeof squeezed; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) squeezed[n++] = c;
    }
    squeezed[n] = 0;
    return strstr(squeezed, g_panel.filter) != NULL;
}

/* The rows as drawn: a file's name, then its sites (part 0), and a colour's picker when open (part 1). */
#define MAX_ROWS 1024
static PanelRow g_rows[MAX_ROWS];
static int      g_row_count;

static void layout(void)
{
    g_row_count = 0;
    float y = LIST_Y - g_panel.scroll;
    for (int f = 0; f < tweak_file_count(); f++) {
        int header = 0;
        for (int s = 0; s < tweak_site_count(f) && g_row_count + 3 < MAX_ROWS; s++) {
            TweakSiteInfo si;
            if (!tweak_site_info(f, s, &si) || !matches(f, &si)) continue;
            if (!header) { g_rows[g_row_count++] = PanelRow{ f, -1, y, 0 }; y += ROW_H; header = 1; }
            g_rows[g_row_count++] = PanelRow{ f, s, y, 0 };
            y += ROW_H;
            if (g_panel.picker_open && g_panel.picker_file == f && g_panel.picker_site == s) {
                g_rows[g_row_count++] = PanelRow{ f, s, y, 1 };
                y += PICKER_H;
            }
        }
    }
}

static int inside(float x, float y, float rx, float ry, float rw, float rh)
{
    return x >= rx && x < rx + rw && y >= ry && y < ry + rh;
}

static float list_bottom(void) { return (float)services_api()->view_height - 10.0f; }

static int over_panel(float x, float y)
{
    return g_panel.open && inside(x, y, PANEL_X, PANEL_Y, PANEL_W, list_bottom() - PANEL_Y);
}

/* ---------------------------------------------------------------- colours */
static void rgb_to_hsv(uint32_t c, float *h, float *s, float *v)
{
    float r = (float)((c >> 24) & 255) / 255, g = (float)((c >> 16) & 255) / 255, b = (float)((c >> 8) & 255) / 255;
    float mx = fmaxf(r, fmaxf(g, b)), mn = fminf(r, fminf(g, b)), d = mx - mn;
    *v = mx;
    *s = mx > 0 ? d / mx : 0;
    if (d <= 0) { *h = g_panel.hue; return; }
    float hh = mx == r ? (g - b) / d : mx == g ? 2 + (b - r) / d : 4 + (r - g) / d;
    hh /= 6;
    *h = hh < 0 ? hh + 1 : hh;
}

static uint32_t hsv_to_rgb(float h, float s, float v, uint32_t alpha)
{
    float r, g, b, f = h * 6 - floorf(h * 6);
    float p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
    switch ((int)floorf(h * 6) % 6) {
    case 0: r = v; g = t; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
    }
    return ((uint32_t)lroundf(r * 255) << 24) | ((uint32_t)lroundf(g * 255) << 16) | ((uint32_t)lroundf(b * 255) << 8) |
           (alpha & 255);
}

static float clamp01(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* ---------------------------------------------------------------- positions */
static int is_pos(int kind) { return kind == TWEAK_POS || kind == TWEAK_SCREEN_POS; }

static void to_screen(int kind, const float w[2], float *sx, float *sy)
{
    if (kind == TWEAK_SCREEN_POS) { *sx = w[0]; *sy = w[1]; return; }
    float cx, cy, z;
    render_camera(&cx, &cy, &z);
    *sx = (w[0] - cx) * z;
    *sy = (w[1] - cy) * z;
}

static void to_value(int kind, float sx, float sy, float out[2])
{
    if (kind == TWEAK_SCREEN_POS) { out[0] = sx; out[1] = sy; return; }
    float cx, cy, z;
    render_camera(&cx, &cy, &z);
    out[0] = sx / z + cx;
    out[1] = sy / z + cy;
}

/* the handle under the pointer: 1 + file, site */
static int handle_at(float x, float y, int *file, int *site)
{
    for (int f = 0; f < tweak_file_count(); f++)
        for (int s = 0; s < tweak_site_count(f); s++) {
            TweakSiteInfo si;
            if (!tweak_site_info(f, s, &si) || !is_pos(si.kind)) continue;
            float sx, sy;
            to_screen(si.kind, (const float *)si.value, &sx, &sy);
            if (fabsf(x - sx) <= HANDLE_R + 3 && fabsf(y - sy) <= HANDLE_R + 3) { *file = f; *site = s; return 1; }
        }
    return 0;
}

/* ---------------------------------------------------------------- changes */
static void change_live(int file, int site, const void *value)
{
    tweak_set_live(file, site, value);
    g_panel.dirty = 1;
    g_panel.last_change = os_mono_seconds();
    TweakSiteInfo si;
    if (!tweak_site_info(file, site, &si)) return;
    char v[64];   /* as the tweak_applied event writes it */
    const float *f = (const float *)value;
    if (si.kind == TWEAK_FLOAT) snprintf(v, sizeof v, "%.9g", (double)f[0]);
    else if (si.kind == TWEAK_VEC2 || is_pos(si.kind)) snprintf(v, sizeof v, "[%.9g,%.9g]", (double)f[0], (double)f[1]);
    else if (si.kind == TWEAK_COLOR) snprintf(v, sizeof v, "%u", *(const uint32_t *)value);
    else snprintf(v, sizeof v, "%d", *(const int32_t *)value);
    log_event("tweak_panel_change", "\"file\":\"%s\",\"line\":%d,\"value\":%s", file_short(tweak_file_path(file)),
              si.line, v);
}

static void write_back(int file, int site)
{
    TweakSiteInfo si;
    if (!tweak_site_info(file, site, &si)) return;
    char msg[256];
    int ok = tweak_write(file, site, si.value, g_panel.gesture, msg, sizeof msg);
    g_panel.dirty = 0;
    if (msg[0]) say(!ok, msg);
}

/* A whole change at once (a click, a typed value): live, then on disk. */
static void change_and_write(int file, int site, const void *value)
{
    g_panel.gesture++;
    change_live(file, site, value);
    write_back(file, site);
}

static void drag_start(int mode, int file, int site, int part)
{
    TweakSiteInfo si;
    if (!tweak_site_info(file, site, &si)) return;
    g_panel.drag = mode;
    g_panel.drag_file = file;
    g_panel.drag_site = site;
    g_panel.drag_part = part;
    g_panel.drag_x0 = g_panel.mx;
    g_panel.drag_y0 = g_panel.my;
    memcpy(g_panel.drag_value0, si.value, 8);
    memcpy(g_panel.drag_value, si.value, 8);
    g_panel.gesture++;
    g_panel.dirty = 0;
    if (mode == DRAG_HANDLE) {
        float sx, sy;
        to_screen(si.kind, (const float *)si.value, &sx, &sy);
        g_panel.drag_dx = sx - g_panel.mx;
        g_panel.drag_dy = sy - g_panel.my;
    }
    char src[sizeof si.source * 2];   /* the source column as the panel shows it */
    parse_json_escape(si.source, src, sizeof src);
    log_event("tweak_drag_start", "\"line\":%d,\"source\":\"%s\"", si.line, src);
}

/* The pointer moved with a drag on: the value it makes, live at once. */
static void drag_update(void)
{
    int kind = kind_of(g_panel.drag_file, g_panel.drag_site);
    uint8_t v[8];
    memcpy(v, g_panel.drag_value0, 8);
    float dx = g_panel.mx - g_panel.drag_x0;
    if (g_panel.drag == DRAG_NUMBER) {
        if (kind == TWEAK_INT) {
            int32_t i;
            memcpy(&i, v, 4);
            i += (int32_t)lroundf(dx / 8);
            memcpy(v, &i, 4);
        } else {
            float *f = (float *)v + (g_panel.drag_part == 1 ? 1 : 0);
            float base = fabsf(*f) > 1e-3f ? fabsf(*f) : 1.0f;
            *f += dx * base * 0.01f;
        }
    } else if (g_panel.drag == DRAG_HANDLE) {
        to_value(kind, g_panel.mx + g_panel.drag_dx, g_panel.my + g_panel.drag_dy, (float *)v);
    } else if (g_panel.drag == DRAG_SV || g_panel.drag == DRAG_HUE || g_panel.drag == DRAG_ALPHA) {
        uint32_t c;
        memcpy(&c, v, 4);
        float h, s, val;
        rgb_to_hsv(c, &h, &s, &val);
        float py = 0;
        for (int r = 0; r < g_row_count; r++)
            if (g_rows[r].part == 1 && g_rows[r].file == g_panel.drag_file && g_rows[r].site == g_panel.drag_site)
                py = g_rows[r].y;
        float px = PANEL_X + 20;
        if (g_panel.drag == DRAG_SV) {
            s = clamp01((g_panel.mx - px) / 100);
            val = 1 - clamp01((g_panel.my - py - 4) / 100);
            h = g_panel.hue;
        }
        if (g_panel.drag == DRAG_HUE) {
            h = clamp01((g_panel.my - py - 4) / 100);
            if (h >= 1) h = 0.999f;
            g_panel.hue = h;
        }
        uint32_t a = c & 255;
        if (g_panel.drag == DRAG_ALPHA) a = (uint32_t)lroundf((1 - clamp01((g_panel.my - py - 4) / 100)) * 255);
        c = g_panel.drag == DRAG_ALPHA ? (c & 0xFFFFFF00u) | a : hsv_to_rgb(h, s, val, a);
        memcpy(v, &c, 4);
    }
    if (memcmp(v, g_panel.drag_value, 8) == 0) return;
    memcpy(g_panel.drag_value, v, 8);
    change_live(g_panel.drag_file, g_panel.drag_site, v);
}

static void drag_end(void)
{
    int was = g_panel.drag;
    g_panel.drag = DRAG_NONE;
    if (was == DRAG_PENDING_CLICK || was == DRAG_NONE) return;
    TweakSiteInfo si;
    int line = tweak_site_info(g_panel.drag_file, g_panel.drag_site, &si) ? si.line : 0;
    log_event("tweak_drag_end", "\"line\":%d,\"dirty\":%s", line, g_panel.dirty ? "true" : "false");
    if (g_panel.dirty) write_back(g_panel.drag_file, g_panel.drag_site);
}

/* ---------------------------------------------------------------- typing */
static void edit_commit(void)
{
    int kind = kind_of(g_panel.edit_file, g_panel.edit_site);
    TweakSiteInfo si;
    if (!kind || !tweak_site_info(g_panel.edit_file, g_panel.edit_site, &si)) return;
    uint8_t v[8];
    memcpy(v, si.value, 8);
    char *end = NULL;
    if (kind == TWEAK_INT) { long n = strtol(g_panel.edit, &end, 0); int32_t i = (int32_t)n; memcpy(v, &i, 4); }
    else { float f = strtof(g_panel.edit, &end); memcpy((float *)v + (g_panel.edit_part == 1 ? 1 : 0), &f, 4); }
    if (!end || end == g_panel.edit || *end) { say(1, "not a number: the value is unchanged"); return; }
    change_and_write(g_panel.edit_file, g_panel.edit_site, v);
}

static void type_char(char c)
{
    char *buf = g_panel.focus == FOCUS_FILTER ? g_panel.filter : g_panel.edit;
    size_t cap = g_panel.focus == FOCUS_FILTER ? sizeof g_panel.filter : sizeof g_panel.edit;
    size_t n = strlen(buf);
    if (g_panel.focus == FOCUS_FILTER) {
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return;
        g_panel.scroll = 0;
    }
    if (n + 1 < cap) { buf[n] = c; buf[n + 1] = 0; }
}

void tweak_panel_text(const char *utf8)
{
    if (!g_panel.open || g_panel.focus == FOCUS_NONE) return;
    for (const char *p = utf8; *p; p++) {   /* letters and digits come as keys (scripts type those too) */
        char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
        if ((unsigned char)c < 128) type_char(c);
    }
}

/* ---------------------------------------------------------------- the mouse */
static void press(void)
{
    float x = g_panel.mx, y = g_panel.my;
    int f, s;
    if (g_panel.focus == FOCUS_VALUE) { g_panel.focus = FOCUS_NONE; }
    if (!inside(x, y, PANEL_X, PANEL_Y, PANEL_W, list_bottom() - PANEL_Y) && handle_at(x, y, &f, &s)) {
        drag_start(DRAG_HANDLE, f, s, 0);
        return;
    }
    if (inside(x, y, PANEL_X + 6, FILTER_Y, PANEL_W - 12, ROW_H)) {
        g_panel.focus = g_panel.focus == FOCUS_FILTER ? FOCUS_NONE : FOCUS_FILTER;
        return;
    }
    if (g_panel.focus == FOCUS_FILTER) g_panel.focus = FOCUS_NONE;
    layout();
    for (int r = 0; r < g_row_count; r++) {
        const PanelRow *row = &g_rows[r];
        if (row->site < 0 || row->y < LIST_Y - 1 || row->y + ROW_H > list_bottom()) continue;
        int kind = kind_of(row->file, row->site);
        if (row->part == 1) {   /* the picker */
            float px = PANEL_X + 20, py = row->y + 4;
            if (inside(x, y, px, py, 100, 100)) drag_start(DRAG_SV, row->file, row->site, 0);
            else if (inside(x, y, px + 110, py, 16, 100)) drag_start(DRAG_HUE, row->file, row->site, 0);
            else if (inside(x, y, px + 134, py, 16, 100)) drag_start(DRAG_ALPHA, row->file, row->site, 0);
            else continue;
            drag_update();
            return;
        }
        if (!inside(x, y, VALUE_X, row->y, VALUE_W, ROW_H)) continue;
        TweakSiteInfo si;
        tweak_site_info(row->file, row->site, &si);
        if (kind == TWEAK_BOOL) {
            int32_t b = !*(int32_t *)si.value;
            change_and_write(row->file, row->site, &b);
        } else if (kind == TWEAK_COLOR) {
            int same = g_panel.picker_open && g_panel.picker_file == row->file && g_panel.picker_site == row->site;
            g_panel.picker_open = !same;
            g_panel.picker_file = row->file;
            g_panel.picker_site = row->site;
            float h, sat, v;
            g_panel.hue = 0;
            rgb_to_hsv(*(uint32_t *)si.value, &h, &sat, &v);
            g_panel.hue = h;
        } else {
            int part = (kind == TWEAK_VEC2 || is_pos(kind)) && x >= VALUE_X + VALUE_W / 2 ? 1 : 0;
            drag_start(DRAG_NUMBER, row->file, row->site, part);
            g_panel.drag = DRAG_PENDING_CLICK;   /* a drag once it moves; a click opens the value for typing */
        }
        return;
    }
}

static void release(void)
{
    if (g_panel.drag == DRAG_PENDING_CLICK) {   /* a click on a number: type a new one */
        g_panel.drag = DRAG_NONE;
        g_panel.focus = FOCUS_VALUE;
        g_panel.edit_file = g_panel.drag_file;
        g_panel.edit_site = g_panel.drag_site;
        g_panel.edit_part = g_panel.drag_part;
        g_panel.edit[0] = 0;
        return;
    }
    drag_end();
}

int tweak_panel_mouse(float x, float y)
{
    g_panel.mx = x;
    g_panel.my = y;
    if (!g_panel.open) return 0;
    if (g_panel.drag == DRAG_PENDING_CLICK && fabsf(x - g_panel.drag_x0) >= 3) g_panel.drag = DRAG_NUMBER;
    if (g_panel.drag != DRAG_NONE && g_panel.drag != DRAG_PENDING_CLICK) drag_update();
    int f, s;
    return g_panel.captured || over_panel(x, y) || handle_at(x, y, &f, &s);
}

int tweak_panel_wheel(float dy)
{
    if (!over_panel(g_panel.mx, g_panel.my)) return 0;
    g_panel.scroll -= dy * ROW_H * 3;
    if (g_panel.scroll < 0) g_panel.scroll = 0;
    return 1;
}

/* ---------------------------------------------------------------- keys */
int tweak_panel_key(GameKey k, int down, int ctrl)
{
    if (k == KEY_F4) {
        if (down) {
            g_panel.open = !g_panel.open;
            if (!g_panel.open) { drag_end(); g_panel.focus = FOCUS_NONE; g_panel.captured = 0; }
            log_event("tweak_panel", "\"open\":%s", g_panel.open ? "true" : "false");
        }
        return 1;
    }
    if (!g_panel.open) return 0;
    if (k == KEY_MOUSE_LEFT) {
        if (down) {
            int f, s;
            if (!over_panel(g_panel.mx, g_panel.my) && !handle_at(g_panel.mx, g_panel.my, &f, &s)) {
                g_panel.focus = FOCUS_NONE;
                return 0;   /* the game's click */
            }
            g_panel.captured = 1;
            press();
            return 1;
        }
        if (!g_panel.captured) return 0;
        g_panel.captured = 0;
        release();
        return 1;
    }
    if (k == KEY_MOUSE_RIGHT || k == KEY_MOUSE_MIDDLE) return over_panel(g_panel.mx, g_panel.my);
    if (ctrl && (k == KEY_Z || k == KEY_Y)) {
        if (down) {
            char msg[256];
            int ok = tweak_undo(k == KEY_Y, msg, sizeof msg);
            say(!ok, msg);
        }
        return 1;
    }
    if (g_panel.focus == FOCUS_NONE) return 0;
    /* a focused field takes the keyboard */
    if (!down) return 1;
    if (k >= KEY_A && k <= KEY_Z) type_char((char)('a' + (k - KEY_A)));
    else if (k >= KEY_0 && k <= KEY_9) type_char((char)('0' + (k - KEY_0)));
    else if (k == KEY_BACKSPACE) {
        char *b = g_panel.focus == FOCUS_FILTER ? g_panel.filter : g_panel.edit;
        size_t n = strlen(b);
        if (n) b[n - 1] = 0;
    } else if (k == KEY_ENTER) {
        if (g_panel.focus == FOCUS_VALUE) edit_commit();
        g_panel.focus = FOCUS_NONE;
    } else if (k == KEY_ESCAPE) g_panel.focus = FOCUS_NONE;
    return 1;
}

/* ---------------------------------------------------------------- drawing */
static void value_text(int kind, const uint8_t *v, int part, char *out, size_t cap)
{
    float f[2];
    memcpy(f, v, 8);
    switch (kind) {
    case TWEAK_FLOAT: snprintf(out, cap, "%.6g", (double)f[0]); break;
    case TWEAK_INT: snprintf(out, cap, "%d", *(const int32_t *)v); break;
    case TWEAK_BOOL: snprintf(out, cap, "%s", *(const int32_t *)v ? "true" : "false"); break;
    case TWEAK_COLOR: snprintf(out, cap, "%08X", *(const uint32_t *)v); break;
    default: snprintf(out, cap, "%.6g", (double)f[part]); break;
    }
}

static void draw_box(float x, float y, float w, const char *text, int hot)
{
    services_api()->draw_rect(x, y + 1, w, ROW_H - 2, hot ? 0x3A4A66FFu : 0x26303FFFu, LAYER + 1);
    services_api()->draw_text(text, x + 4, y + 2, 12, 0xFFFFFFFFu, LAYER + 2);
}

static void draw_picker(const PanelRow *row, uint32_t c)
{
    float px = PANEL_X + 20, py = row->y + 4;
    float h, s, v;
    rgb_to_hsv(c, &h, &s, &v);
    if (s > 0 && v > 0) g_panel.hue = h;
    const int N = 10;   /* the saturation/value square as 10x10 cells */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            services_api()->draw_rect(px + i * 10, py + j * 10, 10, 10,
                           hsv_to_rgb(g_panel.hue, (i + 0.5f) / N, 1 - (j + 0.5f) / N, 255), LAYER + 1);
    for (int j = 0; j < 20; j++)
        services_api()->draw_rect(px + 110, py + j * 5, 16, 5, hsv_to_rgb((j + 0.5f) / 20, 1, 1, 255), LAYER + 1);
    for (int j = 0; j < 10; j++)
        services_api()->draw_rect(px + 134 + (j & 1) * 8, py + j * 10, 8, 10, 0x909090FFu,
                                  LAYER); /* a checker under the alpha */
    for (int j = 0; j < 20; j++)
        services_api()->draw_rect(px + 134, py + j * 5, 16, 5, (c & 0xFFFFFF00u) | (uint32_t)(255 - j * 255 / 19),
                                  LAYER + 1);
    services_api()->draw_rect(px + s * 100 - 2, py + (1 - v) * 100 - 2, 5, 5, 0xFFFFFFFFu, LAYER + 3);
    services_api()->draw_rect(px + 108, py + g_panel.hue * 100 - 1, 20, 3, 0xFFFFFFFFu, LAYER + 3);
    services_api()->draw_rect(px + 132, py + (1 - (c & 255) / 255.0f) * 100 - 1, 20, 3, 0xFFFFFFFFu, LAYER + 3);
    services_api()->draw_rect(px + 160, py, 60, 40, c, LAYER + 1);
    char t[64];
    snprintf(t, sizeof t, "H %.0f  S %.0f%%  V %.0f%%  A %u", (double)(g_panel.hue * 360), (double)(s * 100),
             (double)(v * 100), c & 255);
    services_api()->draw_text(t, px + 160, py + 46, 12, 0xD0D0D0FFu, LAYER + 2);
}

static void draw_handles(void)
{
    for (int f = 0; f < tweak_file_count(); f++)
        for (int s = 0; s < tweak_site_count(f); s++) {
            TweakSiteInfo si;
            if (!tweak_site_info(f, s, &si) || !is_pos(si.kind)) continue;
            float sx, sy;
            to_screen(si.kind, (const float *)si.value, &sx, &sy);
            int hot = g_panel.drag == DRAG_HANDLE && g_panel.drag_file == f && g_panel.drag_site == s;
            uint32_t col = si.kind == TWEAK_POS ? 0xFFD040FFu : 0x40E0FFFFu;
            services_api()->draw_rect(sx - HANDLE_R - 1, sy - HANDLE_R - 1, 2 * HANDLE_R + 2, 2 * HANDLE_R + 2,
                                      0x000000FFu, LAYER - 2);
            services_api()->draw_rect(sx - HANDLE_R, sy - HANDLE_R, 2 * HANDLE_R, 2 * HANDLE_R, hot ? 0xFFFFFFFFu : col,
                           LAYER - 1);
            services_api()->draw_rect(sx - 1, sy - 1, 2, 2, 0x000000FFu, LAYER);
            char label[64];
            snprintf(label, sizeof label, "%s:%d", file_short(tweak_file_path(f)), si.line);
            services_api()->draw_text(label, sx + HANDLE_R + 3, sy - 7, 12, col, LAYER);
        }
}

void tweak_panel_draw(void)
{
    /* a drag that paused: written now, the drag goes on */
    if (g_panel.dirty && g_panel.drag != DRAG_NONE && g_panel.drag != DRAG_PENDING_CLICK &&
        os_mono_seconds() - g_panel.last_change >= DRAG_PAUSE_S) {
        log_event("tweak_drag_pause", "\"line\":0");
        write_back(g_panel.drag_file, g_panel.drag_site);
    }
    if (!g_panel.open) return;
    draw_handles();
    const float bottom = list_bottom();
    services_api()->draw_rect(PANEL_X, PANEL_Y, PANEL_W, bottom - PANEL_Y, 0x0B0F18E8u, LAYER);
    services_api()->draw_text("TWEAKS   F4 close   Shift+F4 profiler   Ctrl+Z/Y undo/redo", PANEL_X + 6, PANEL_Y + 2,
                              13, 0xFFFFFFFFu, LAYER + 2);
    char line[256];
    snprintf(line, sizeof line, "filter: %s%s", g_panel.filter, g_panel.focus == FOCUS_FILTER ? "_" : "");
    draw_box(PANEL_X + 6, FILTER_Y, PANEL_W - 12, line, g_panel.focus == FOCUS_FILTER);
    if (g_panel.message[0])
        services_api()->draw_text(g_panel.message, PANEL_X + 6, FILTER_Y + ROW_H + 3, 12,
                       g_panel.message_bad ? 0xFF7070FFu : 0x80FF90FFu, LAYER + 2);
    layout();
    for (int r = 0; r < g_row_count; r++) {
        const PanelRow *row = &g_rows[r];
        if (row->y < LIST_Y - 1 || row->y + (row->part ? PICKER_H : ROW_H) > bottom) continue;
        if (row->site < 0) {
            services_api()->draw_text(file_short(tweak_file_path(row->file)), PANEL_X + 6, row->y + 2, 13, 0x9FB8FFFFu,
                                      LAYER + 2);
            continue;
        }
        TweakSiteInfo si;
        if (!tweak_site_info(row->file, row->site, &si)) continue;
        if (row->part == 1) { draw_picker(row, *(uint32_t *)si.value); continue; }
        char src[80];
        snprintf(line, sizeof line, "%4d  %s", si.line, si.source);
        snprintf(src, sizeof src, "%.58s", line);
        services_api()->draw_text(src, PANEL_X + 14, row->y + 3, 11, 0xB8C0CCFFu, LAYER + 2);
        int editing = g_panel.focus == FOCUS_VALUE && g_panel.edit_file == row->file && g_panel.edit_site == row->site;
        int dragging = g_panel.drag != DRAG_NONE && g_panel.drag_file == row->file && g_panel.drag_site == row->site;
        char v[64];
        if (si.kind == TWEAK_COLOR) {
            services_api()->draw_rect(VALUE_X, row->y + 2, 36, ROW_H - 4, *(uint32_t *)si.value, LAYER + 1);
            value_text(si.kind, si.value, 0, v, sizeof v);
            services_api()->draw_text(v, VALUE_X + 42, row->y + 2, 12, 0xFFFFFFFFu, LAYER + 2);
        } else if (si.kind == TWEAK_VEC2 || is_pos(si.kind)) {
            for (int p = 0; p < 2; p++) {
                if (editing && g_panel.edit_part == p) snprintf(v, sizeof v, "%s_", g_panel.edit);
                else value_text(si.kind, si.value, p, v, sizeof v);
                draw_box(VALUE_X + p * (VALUE_W / 2), row->y, VALUE_W / 2 - 4, v,
                         (editing || dragging) && (g_panel.edit_part == p || dragging));
            }
        } else {
            if (editing) snprintf(v, sizeof v, "%s_", g_panel.edit);
            else value_text(si.kind, si.value, 0, v, sizeof v);
            draw_box(VALUE_X, row->y, VALUE_W, v, editing || dragging);
        }
    }
    if (g_row_count == 0)
        services_api()->draw_text(g_panel.filter[0] ? "no TWEAK matches the filter" : "no TWEAK read yet", PANEL_X + 14,
                       LIST_Y + 2, 12, 0xB0B0B0FFu, LAYER + 2);
}
