/* inspector.cpp - the Shift+F1 state inspector (docs/inspector.md): the game's GameState as a tree, read live from
   the block through the state's description (th_reflect.h's table, session/migrate.cpp's types_of_block()), so it
   works on any game folder with no code in the game. Nested structs expand; an array of structs opens as a table
   (a row per element, a column per scalar field, nested structs one level flat, only the rows on screen formatted)
   with a filter; any scalar is edited in place through thr_store_text (typed and clamped as a migration converts);
   pinned paths show with their live values in the view's corner, open or not, found again by name after a reload.

   What the inspector takes (Shift+F1, its keys while open, the mouse over it, typing into a field) never reaches the
   game's input: hotkeys.cpp asks here first. A release has none of it (tools/cmake/release.cmake's
   ENGINE_DEV_ONLY_SOURCES leave this file out; release.cpp has the stand-ins). */
#include "devtools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th_reflect.h"

/* Layout, in view pixels (docs/inspector.md; the e2e tests aim the scripted mouse with it) */
#define INSP_X     10.0f
#define INSP_W     720.0f
#define INSP_Y     10.0f
#define FILTER_Y   30.0f             /* the filter box */
#define HEAD_Y     50.0f             /* the message line, then the table's column names */
#define LIST_Y     86.0f             /* the first row */
#define ROW_H      16.0f
#define NAME_W     300.0f            /* the tree's names; values to the right of it */
#define INDEX_W    48.0f             /* the table's row numbers */
#define COL_W      74.0f
#define LAYER      30200             /* above the overlay and the tweak panel */
#define MAX_TREE   2048              /* tree rows built a frame (an expanded scalar array shows its first 256) */
#define MAX_COLS   48
#define MAX_WATCH  16
#define SCAN_CELLS 1500              /* cells a frame a filtered table's background refresh formats */

enum { FOCUS_NONE, FOCUS_FILTER, FOCUS_EDIT };

typedef struct TreeRow {
    thr_place place;                 /* the field (or element) the row shows */
    int       depth, kind;           /* kind: ROW_VALUE, ROW_STRUCT, ROW_ARRAY, ROW_TABLE */
    char      path[128];
} TreeRow;
enum { ROW_VALUE, ROW_STRUCT, ROW_ARRAY, ROW_TABLE };

typedef struct Column {
    const thr_field *field;
    uint32_t parent, offset;          /* the struct the field is in; its offset within the element */
    float    w;                       /* on screen: an enum's value names get more room */
    char     name[48];
} Column;

static struct {
    int   open, captured, focus;
    float mx, my;
    /* the table */
    thr_types types;
    int       types_ok;
    const void *types_blob;           /* the table thr_read checked (re-read when the block's changes) */
    uint32_t  types_hash;
    /* the tree, or the table when table[0] */
    char  expanded[64][128];
    int   expanded_count;
    int   sel, first;                 /* selected row, first row on screen (tree or table) */
    int   logged_first, logged_sel;   /* the table's window last told in an inspector_view event */
    char  tree_filter[64];
    char  table[128];                 /* the array of structs shown as a table ("": the tree) */
    int   col, col_first;             /* the table's selected column, first column on screen */
    char  filter[64];                 /* the table's filter */
    uint32_t *match, *next;           /* element indices the filter keeps; the refresh's pass under way */
    uint32_t match_cap, match_count, next_count, scan_at, total;
    int   rematch;                    /* 1: the filter or the table changed, match every row now */
    char  edit[96], edit_path[160];
    char  message[256];
    int   message_bad;
    double frame_ms[120];             /* the inspector's own time, for inspector_frame events */
    int    frame_n;
} g_insp;

static TreeRow g_tree[MAX_TREE];
static int     g_tree_count;
static Column  g_cols[MAX_COLS];
static int     g_col_count;

static void say(int bad, const char *msg)
{
    snprintf(g_insp.message, sizeof g_insp.message, "%s", msg);
    g_insp.message_bad = bad;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

/* ---------------------------------------------------------------- filter matching (pure; tests/unit) */
static int contains_nocase(const char *hay, const char *needle)
{
    for (; *hay; hay++) {
        const char *h = hay, *n = needle;
        while (*n && *h && lower(*h) == lower(*n)) { h++; n++; }
        if (!*n) return 1;
    }
    return !*needle;
}

static int equal_nocase(const char *a, const char *b)
{
    while (*a && lower(*a) == lower(*b)) { a++; b++; }
    return !*a && !*b;
}

/* "drone": any column's text contains it (case ignored); "type=ENTITY_DRONE": that column's text is it */
int inspector_filter_match(const char *filter, const char *const *names, const char *const *values, int n)
{
    const char *eq = strchr(filter, '=');
    if (!eq) {
        for (int i = 0; i < n; i++) if (contains_nocase(values[i], filter)) return 1;
        return !filter[0];
    }
    char column[64];
    snprintf(column, sizeof column, "%.*s", (int)(eq - filter < 63 ? eq - filter : 63), filter);
    for (int i = 0; i < n; i++) if (equal_nocase(names[i], column) && equal_nocase(values[i], eq + 1)) return 1;
    return 0;
}

/* the first row on screen that keeps `sel` in view, `first` moved as little as it can */
int inspector_window(int sel, int first, int visible, int total)
{
    if (sel < first) first = sel;
    if (sel >= first + visible) first = sel - visible + 1;
    if (first > total - visible) first = total - visible;
    return first < 0 ? 0 : first;
}

/* ---------------------------------------------------------------- the state's description */
static uint8_t *block(void) { return (uint8_t *)memory_state()->game.base; }

static void log_watches(void);

/* The block's description, checked once per table (a reload with a new layout hands a new one). */
static int types_ready(void)
{
    const StateTypes *st = types_of_block();
    if (!st->valid || !st->blob) { g_insp.types_ok = 0; g_insp.types_blob = NULL; return 0; }
    if (st->blob == g_insp.types_blob && st->layout_hash == g_insp.types_hash) return g_insp.types_ok;
    char err[256];
    g_insp.types_blob = st->blob;
    g_insp.types_hash = st->layout_hash;
    g_insp.types_ok = thr_read(st->blob, st->size, &g_insp.types, err, sizeof err) &&
                      g_insp.types.types[g_insp.types.header->root].size <= memory_state()->game.size;
    if (!g_insp.types_ok) say(1, "the state's description does not fit the block");
    g_insp.rematch = 1;
    log_watches();
    return g_insp.types_ok;
}

static const char *name_of(const thr_field *f) { return thr_name(&g_insp.types, f->name); }

static int is_scalar(const thr_field *f)
{
    return f->kind != THR_STRUCT && f->kind != THR_PTR && f->kind != THR_OPAQUE;
}

static int value_text(const char *path, char *out, size_t cap)
{
    thr_place at;
    if (!thr_find_path(&g_insp.types, path, &at, NULL, 0)) { snprintf(out, cap, "(gone)"); return 0; }
    if (!thr_format(&g_insp.types, &at, block(), out, cap)) snprintf(out, cap, "(no single value)");
    return 1;
}

/* ---------------------------------------------------------------- the tree */
static int is_expanded(const char *path)
{
    for (int i = 0; i < g_insp.expanded_count; i++) if (!strcmp(g_insp.expanded[i], path)) return i;
    return -1;
}

static void toggle_expanded(const char *path)
{
    int i = is_expanded(path);
    if (i >= 0) {
        memmove(g_insp.expanded[i], g_insp.expanded[i + 1], (size_t)(--g_insp.expanded_count - i) * 128);
        return;
    }
    if (g_insp.expanded_count < 64) snprintf(g_insp.expanded[g_insp.expanded_count++], 128, "%s", path);
}

static void tree_add(const thr_place *at, int depth, int kind, const char *path)
{
    if (g_tree_count >= MAX_TREE) return;
    int shown = !g_insp.tree_filter[0] || contains_nocase(path, g_insp.tree_filter);
    if (!shown) return;
    TreeRow *r = &g_tree[g_tree_count++];
    r->place = *at;
    r->depth = depth;
    r->kind = kind;
    snprintf(r->path, sizeof r->path, "%s", path);
}

static void tree_walk(uint32_t type, uint64_t base, const char *prefix, int depth);

/* an array's elements under its row, when expanded (the first 256: a bigger one is a table's job) */
static void tree_elements(const thr_field *f, uint32_t parent, uint64_t at, const char *path, int depth)
{
    for (uint32_t i = 0; i < f->count && i < 256 && g_tree_count < MAX_TREE; i++) {
        char p[128];
        snprintf(p, sizeof p, "%.100s[%u]", path, i);
        thr_place e = { f, parent, i, 0, at + (uint64_t)i * f->elem_size };
        int sub = f->kind == THR_STRUCT;
        tree_add(&e, depth, sub ? ROW_STRUCT : ROW_VALUE, p);
        if (sub && is_expanded(p) >= 0) tree_walk(f->type, e.offset, p, depth + 1);
    }
}

static void tree_walk(uint32_t type, uint64_t base, const char *prefix, int depth)
{
    const thr_type *ty = &g_insp.types.types[type];
    if (depth > 8) return;
    for (uint32_t i = 0; i < ty->field_count && g_tree_count < MAX_TREE; i++) {
        const thr_field *f = &g_insp.types.fields[ty->first_field + i];
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", name_of(f));
        thr_place at = { f, type, 0, f->count > 1, base + f->offset };
        if (f->count > 1 && f->kind == THR_STRUCT) { tree_add(&at, depth, ROW_TABLE, path); continue; }
        int kind = f->count > 1 ? ROW_ARRAY : f->kind == THR_STRUCT ? ROW_STRUCT : ROW_VALUE;
        tree_add(&at, depth, kind, path);
        if (kind == ROW_VALUE || is_expanded(path) < 0) continue;
        if (kind == ROW_ARRAY) tree_elements(f, type, at.offset, path, depth + 1);
        else tree_walk(f->type, at.offset, path, depth + 1);
    }
}

static void tree_build(void)
{
    g_tree_count = 0;
    tree_walk(g_insp.types.header->root, 0, "", 0);
}

/* ---------------------------------------------------------------- the table */
static void column_add(const thr_field *f, uint32_t parent, uint32_t offset, const char *prefix)
{
    if (g_col_count >= MAX_COLS || !is_scalar(f) || f->count != 1) return;
    Column *c = &g_cols[g_col_count++];
    c->field = f;
    c->parent = parent;
    c->offset = offset;
    c->w = f->kind == THR_ENUM ? 2 * COL_W : COL_W;
    snprintf(c->name, sizeof c->name, "%s%s%s", prefix, prefix[0] ? "." : "", name_of(f));
}

/* the element's scalar fields, and those of its nested structs one level down ("pos.x") */
static void columns_of(uint32_t type)
{
    g_col_count = 0;
    const thr_type *ty = &g_insp.types.types[type];
    for (uint32_t i = 0; i < ty->field_count; i++) {
        const thr_field *f = &g_insp.types.fields[ty->first_field + i];
        if (f->kind != THR_STRUCT || f->count != 1) { column_add(f, type, f->offset, ""); continue; }
        const thr_type *sub = &g_insp.types.types[f->type];
        for (uint32_t j = 0; j < sub->field_count; j++)
            column_add(&g_insp.types.fields[sub->first_field + j], f->type,
                       f->offset + g_insp.types.fields[sub->first_field + j].offset, name_of(f));
    }
}

/* The array the table shows: its place (element 0) and how many rows count (a count_of field's value). */
static int table_place(thr_place *at, uint32_t *rows)
{
    char err[256];
    if (!thr_find_path(&g_insp.types, g_insp.table, at, err, sizeof err) || !at->field ||
        at->field->kind != THR_STRUCT || !at->whole) {
        say(1, err);
        return 0;
    }
    *rows = at->field->count;
    const thr_type *pt = &g_insp.types.types[at->parent];
    uint32_t me = (uint32_t)(at->field - &g_insp.types.fields[pt->first_field]);
    for (uint32_t i = 0; i < pt->field_count; i++) {
        const thr_field *c = &g_insp.types.fields[pt->first_field + i];
        if (c->count_of != me + 1) continue;
        thr_place cp = { c, at->parent, 0, 0, at->offset - at->field->offset + c->offset };
        char v[32];
        if (thr_format(&g_insp.types, &cp, block(), v, sizeof v)) {
            unsigned long long n = strtoull(v, NULL, 10);
            if (n < *rows) *rows = (uint32_t)n;
        }
    }
    return 1;
}

static void cell_text(const thr_place *arr, uint32_t row, const Column *c, char *out, size_t cap)
{
    thr_place at = { c->field, c->parent, 0, 0, arr->offset + (uint64_t)row * arr->field->elem_size + c->offset };
    if (!thr_format(&g_insp.types, &at, block(), out, cap)) snprintf(out, cap, "?");
}

static int row_matches(const thr_place *arr, uint32_t row)
{
    static char texts[MAX_COLS][48];
    const char *names[MAX_COLS], *values[MAX_COLS];
    for (int c = 0; c < g_col_count; c++) {
        cell_text(arr, row, &g_cols[c], texts[c], sizeof texts[c]);
        names[c] = g_cols[c].name;
        values[c] = texts[c];
    }
    return inspector_filter_match(g_insp.filter, names, values, g_col_count);
}

static int grow_matches(uint32_t rows)
{
    if (rows <= g_insp.match_cap) return 1;
    uint32_t *m = (uint32_t *)realloc(g_insp.match, sizeof(uint32_t) * rows);
    if (m) g_insp.match = m;
    uint32_t *n = m ? (uint32_t *)realloc(g_insp.next, sizeof(uint32_t) * rows) : NULL;
    if (n) g_insp.next = n;
    if (!m || !n) return 0;
    g_insp.match_cap = rows;
    return 1;
}

/* the element a shown row holds in the filter's current list (UINT32_MAX past it) */
static uint32_t shown_element(int shown)
{
    return shown >= 0 && (uint32_t)shown < g_insp.match_count ? g_insp.match[shown] : UINT32_MAX;
}

/* where element e is in the (ascending) list of matches; `otherwise` when the filter no longer keeps it */
static int shown_index_of(uint32_t e, int otherwise)
{
    uint32_t lo = 0, hi = g_insp.match_count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (g_insp.match[mid] < e) lo = mid + 1; else hi = mid;
    }
    return lo < g_insp.match_count && g_insp.match[lo] == e ? (int)lo : otherwise;
}

/* The rows the filter keeps: all of them with no filter. A new filter (or table, or row count) is matched against
   every row at once; after that the matches are refreshed in the background, SCAN_CELLS cells a frame, and swapped
   in when a pass ends (the values on screen are read every frame). */
static void table_rows(const thr_place *arr, uint32_t rows)
{
    if (!g_insp.filter[0]) { g_insp.match_count = g_insp.total = rows; g_insp.scan_at = 0; return; }
    int fresh = g_insp.rematch || rows != g_insp.total;
    if (!grow_matches(rows)) return;
    if (fresh) g_insp.scan_at = g_insp.next_count = 0;
    uint32_t budget = fresh ? rows : SCAN_CELLS / (uint32_t)(g_col_count ? g_col_count : 1) + 1;
    for (; budget && g_insp.scan_at < rows; budget--, g_insp.scan_at++)
        if (row_matches(arr, g_insp.scan_at)) g_insp.next[g_insp.next_count++] = g_insp.scan_at;
    if (g_insp.scan_at < rows) return;
    uint32_t *done = g_insp.next, was = g_insp.match_count;
    uint32_t sel_elem = shown_element(g_insp.sel), first_elem = shown_element(g_insp.first);
    g_insp.next = g_insp.match;
    g_insp.match = done;
    g_insp.match_count = g_insp.next_count;
    if (!fresh) {   /* the selected row and the top row stay on their elements, wherever the new list has them */
        g_insp.sel = shown_index_of(sel_elem, g_insp.sel);
        g_insp.first = shown_index_of(first_elem, g_insp.first);
    }
    g_insp.scan_at = g_insp.next_count = 0;
    g_insp.total = rows;
    g_insp.rematch = 0;
    if (!fresh && was == g_insp.match_count) return;
    char f[160];
    parse_json_escape(g_insp.filter, f, sizeof f);
    log_event("inspector_filter", "\"table\":\"%s\",\"filter\":\"%s\",\"shown\":%u,\"total\":%u,\"first\":%d",
              g_insp.table, f, g_insp.match_count, rows, g_insp.match_count ? (int)g_insp.match[0] : -1);
}

static uint32_t element_of(int shown) { return g_insp.filter[0] ? g_insp.match[shown] : (uint32_t)shown; }
static int shown_rows(void) { return g_insp.table[0] ? (int)g_insp.match_count : g_tree_count; }
static int visible_rows(void)
{
    int n = (int)(((float)services_api()->view_height - 20.0f - LIST_Y) / ROW_H);
    return n < 1 ? 1 : n;
}
/* the table's columns from col_first that fit, and where column c starts */
static int visible_cols(void)
{
    float x = INDEX_W + 8;
    int n = 0;
    for (int c = g_insp.col_first; c < g_col_count && (x += g_cols[c].w) <= INSP_W; c++) n++;
    return n ? n : 1;
}
static float col_x(int c)
{
    float x = INSP_X + INDEX_W;
    for (int i = g_insp.col_first; i < c; i++) x += g_cols[i].w;
    return x;
}

/* the path of the selected value: a tree row's, or the selected cell's ("entities[12].pos.x") */
static int selected_path(char *out, size_t cap)
{
    if (!g_insp.table[0]) {
        if (g_insp.sel >= g_tree_count) return 0;
        snprintf(out, cap, "%s", g_tree[g_insp.sel].path);
        return 1;
    }
    if (g_insp.sel >= (int)g_insp.match_count || g_insp.col >= g_col_count) return 0;
    snprintf(out, cap, "%s[%u].%s", g_insp.table, element_of(g_insp.sel), g_cols[g_insp.col].name);
    return 1;
}

/* ---------------------------------------------------------------- editing and the watch list */
static void edit_start(void)
{
    char path[160];
    if (!selected_path(path, sizeof path)) return;
    thr_place at;
    if (!thr_find_path(&g_insp.types, path, &at, NULL, 0) || !at.field || at.whole || !is_scalar(at.field)) return;
    snprintf(g_insp.edit_path, sizeof g_insp.edit_path, "%s", path);
    g_insp.edit[0] = 0;
    g_insp.focus = FOCUS_EDIT;
}

/* The typed text into the live block, converted and clamped as a migration converts; the text shown after is what
   was stored. Refused while paused on the timeline's past: the recorded steps after it would not hold the edit. */
static void edit_commit(void)
{
    char err[256] = "", stored[96] = "", p[320], t[200];
    thr_place at;
    TimelineInfo ti;
    timeline_info(&ti);
    int ok = 0;
    if (frame_loop()->paused && ti.open) snprintf(err, sizeof err, "paused on the timeline: F8 to go live, then edit");
    else if (types_ready() && thr_find_path(&g_insp.types, g_insp.edit_path, &at, err, sizeof err)) {
        memory_make_writable();
        ok = thr_store_text(&g_insp.types, &at, block(), g_insp.edit, err, sizeof err);
    }
    parse_json_escape(g_insp.edit_path, p, sizeof p);
    parse_json_escape(g_insp.edit, t, sizeof t);
    if (!ok) {
        char e[400], msg[440];
        parse_json_escape(err, e, sizeof e);
        log_event("inspector_edit_refused", "\"path\":\"%s\",\"text\":\"%s\",\"error\":\"%s\"", p, t, e);
        snprintf(msg, sizeof msg, "%s: %s", g_insp.edit_path, err);
        say(1, msg);
        return;
    }
    thr_format(&g_insp.types, &at, block(), stored, sizeof stored);
    timeline_clear("an inspector edit");   /* the recorded steps before it do not lead to this state */
    log_event("inspector_edit", "\"path\":\"%s\",\"text\":\"%s\",\"stored\":\"%s\"", p, t, stored);
    char msg[300];
    snprintf(msg, sizeof msg, "%s = %s", g_insp.edit_path, stored);
    say(0, msg);
}

/* Pinned paths, as text: found again by name in whatever layout the block has now. A session slice, so a hot
   restart (a new process) keeps them too. */
typedef struct WatchList { int count; char path[MAX_WATCH][160]; } WatchList;
static WatchList *watches(void)
{
    WatchList *w = (WatchList *)session_slice("inspector.watches", sizeof(WatchList));
    if (w->count < 0 || w->count > MAX_WATCH) w->count = 0;   /* a kept slice is checked like any input */
    for (int i = 0; i < w->count; i++) w->path[i][sizeof w->path[i] - 1] = 0;
    return w;
}

static void log_watch(int i)
{
    char v[96], p[320], e[200];
    if (g_insp.types_ok) value_text(watches()->path[i], v, sizeof v);
    else snprintf(v, sizeof v, "(gone)");
    parse_json_escape(watches()->path[i], p, sizeof p);
    parse_json_escape(v, e, sizeof e);
    log_event("inspector_watch", "\"path\":\"%s\",\"value\":\"%s\"", p, e);
}

static void log_watches(void) { for (int i = 0; i < watches()->count; i++) log_watch(i); }

static void watch_toggle(void)
{
    char path[160];
    if (!selected_path(path, sizeof path)) return;
    WatchList *w = watches();
    for (int i = 0; i < w->count; i++) {
        if (strcmp(w->path[i], path)) continue;
        memmove(w->path[i], w->path[i + 1], sizeof w->path[0] * (size_t)(--w->count - i));
        log_event("inspector_unwatch", "\"path\":\"%s\"", path);
        return;
    }
    if (w->count == MAX_WATCH) { say(1, "the watch list is full"); return; }
    snprintf(w->path[w->count++], sizeof w->path[0], "%s", path);
    log_watch(w->count - 1);
}

/* ---------------------------------------------------------------- moving around */
static void open_table(const char *path)
{
    snprintf(g_insp.table, sizeof g_insp.table, "%s", path);
    g_insp.sel = g_insp.first = g_insp.col = g_insp.col_first = 0;
    g_insp.filter[0] = 0;
    g_insp.logged_first = -1;
    g_insp.rematch = 1;
    log_event("inspector_table", "\"path\":\"%s\"", path);
}

static void close_table(void)
{
    g_insp.table[0] = 0;
    g_insp.sel = g_insp.first = 0;
    g_insp.focus = FOCUS_NONE;
}

/* Enter on a tree row: a value is edited, a struct or an array opens or closes, an array of structs is a table. */
static void activate(void)
{
    if (g_insp.table[0]) { edit_start(); return; }
    if (g_insp.sel >= g_tree_count) return;
    const TreeRow *r = &g_tree[g_insp.sel];
    if (r->kind == ROW_VALUE) edit_start();
    else if (r->kind == ROW_TABLE) open_table(r->path);
    else toggle_expanded(r->path);
}

static void move_sel(int by)
{
    int n = shown_rows();
    int s = g_insp.sel + by;
    g_insp.sel = s >= n ? n - 1 : s < 0 ? 0 : s;
    if (g_insp.sel < 0) g_insp.sel = 0;
    g_insp.first = inspector_window(g_insp.sel, g_insp.first, visible_rows(), n);
}

static void move_col(int by)
{
    int c = g_insp.col + by;
    g_insp.col = c < 0 ? g_col_count - 1 : c >= g_col_count ? 0 : c;
    if (g_insp.col < g_insp.col_first) g_insp.col_first = g_insp.col;
    while (g_insp.col >= g_insp.col_first + visible_cols()) g_insp.col_first++;
}

/* the focused field's text: a value being typed, the table's filter or the tree's */
static char *focused_text(void)
{
    return g_insp.focus == FOCUS_EDIT ? g_insp.edit : g_insp.table[0] ? g_insp.filter : g_insp.tree_filter;
}

static void text_changed(void)
{
    if (g_insp.focus == FOCUS_FILTER) { g_insp.rematch = 1; g_insp.sel = g_insp.first = 0; }
}

static void type_char(char c)
{
    char *buf = focused_text();
    size_t cap = g_insp.focus == FOCUS_EDIT ? sizeof g_insp.edit : sizeof g_insp.filter;
    size_t n = strlen(buf);
    if (n + 1 < cap) { buf[n] = c; buf[n + 1] = 0; }
    text_changed();
}

static void focused_key(GameKey k, int shift)
{
    char *buf = focused_text();
    if (k >= KEY_A && k <= KEY_Z) type_char((char)((shift ? 'A' : 'a') + (k - KEY_A)));
    else if (k >= KEY_0 && k <= KEY_9) type_char((char)('0' + (k - KEY_0)));
    else if (k == KEY_BACKSPACE && buf[0]) {
        buf[strlen(buf) - 1] = 0;
        text_changed();
    } else if (k == KEY_ENTER) {
        if (g_insp.focus == FOCUS_EDIT) edit_commit();
        g_insp.focus = FOCUS_NONE;
    } else if (k == KEY_ESCAPE) g_insp.focus = FOCUS_NONE;
}

void inspector_text(const char *utf8)
{
    if (!g_insp.open || g_insp.focus == FOCUS_NONE) return;
    for (const char *p = utf8; *p; p++) {   /* letters and digits come as keys (scripts type those too) */
        char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
        if ((unsigned char)c >= 32 && (unsigned char)c < 128) type_char(c);
    }
}

/* ---------------------------------------------------------------- the mouse and the keys */
static int inside(float x, float y, float rx, float ry, float rw, float rh)
{
    return x >= rx && x < rx + rw && y >= ry && y < ry + rh;
}

static float bottom(void) { return (float)services_api()->view_height - 10.0f; }
static int over(float x, float y) { return g_insp.open && inside(x, y, INSP_X, INSP_Y, INSP_W, bottom() - INSP_Y); }

/* a left (pick: 1) or right (pin: 0) click in the list */
static void click_list(int pick)
{
    int row = g_insp.first + (int)((g_insp.my - LIST_Y) / ROW_H);
    if (row >= shown_rows()) return;
    g_insp.sel = row;
    if (g_insp.table[0]) {
        float cx = g_insp.mx - INSP_X - INDEX_W;
        if (cx < 0) return;
        int col = g_insp.col_first;
        while (col < g_col_count && g_insp.mx >= col_x(col) + g_cols[col].w) col++;
        if (col >= g_col_count) return;
        g_insp.col = col;
        if (pick) edit_start(); else watch_toggle();
        return;
    }
    if (!pick) { watch_toggle(); return; }
    if (g_tree[row].kind != ROW_VALUE || g_insp.mx >= INSP_X + NAME_W) activate();
}

static void press(int pick)
{
    g_insp.focus = FOCUS_NONE;
    if (g_insp.my < FILTER_Y) { if (g_insp.table[0] && pick) close_table(); return; }
    if (g_insp.my < FILTER_Y + ROW_H) { g_insp.focus = FOCUS_FILTER; return; }
    if (g_insp.my >= LIST_Y && types_ready()) click_list(pick);
}

int inspector_mouse(float x, float y)
{
    g_insp.mx = x;
    g_insp.my = y;
    return g_insp.captured || over(x, y);
}

int inspector_wheel(float dy)
{
    if (!over(g_insp.mx, g_insp.my)) return 0;
    int n = shown_rows(), f = g_insp.first - (int)(dy * 3);
    g_insp.first = f > n - visible_rows() ? n - visible_rows() : f;
    if (g_insp.first < 0) g_insp.first = 0;
    if (g_insp.sel < g_insp.first || g_insp.sel >= g_insp.first + visible_rows()) g_insp.sel = g_insp.first;
    return 1;
}

/* the keys the open inspector uses: Up/Down (Shift: a page, Ctrl: the ends), Tab, Enter, Esc, Ctrl+F, Ctrl+W */
static int nav_key(GameKey k, int shift, int ctrl)
{
    int page = visible_rows();
    if (k == KEY_UP || k == KEY_DOWN) {
        int dir = k == KEY_UP ? -1 : 1;
        move_sel(ctrl ? dir * (1 << 30) : shift ? dir * page : dir);
    } else if (k == KEY_TAB && g_insp.table[0]) move_col(shift ? -1 : 1);
    else if (k == KEY_ENTER) activate();
    else if (k == KEY_ESCAPE && g_insp.table[0]) close_table();
    else if (ctrl && k == KEY_F) g_insp.focus = FOCUS_FILTER;
    else if (ctrl && k == KEY_W) watch_toggle();
    else return 0;
    return 1;
}

int inspector_key(GameKey k, int down, int shift, int ctrl)
{
    if (k == KEY_F1 && shift) {
        if (down) {
            g_insp.open = !g_insp.open;
            g_insp.focus = FOCUS_NONE;
            g_insp.captured = 0;
            log_event("inspector", "\"open\":%s", g_insp.open ? "true" : "false");
        }
        return 1;
    }
    if (!g_insp.open) return 0;
    if (k == KEY_MOUSE_LEFT || k == KEY_MOUSE_RIGHT) {
        if (down && !over(g_insp.mx, g_insp.my)) { g_insp.focus = FOCUS_NONE; return 0; }   /* the game's click */
        if (down) { g_insp.captured = 1; press(k == KEY_MOUSE_LEFT); return 1; }
        int was = g_insp.captured;
        g_insp.captured = 0;
        return was;
    }
    if (k >= KEY_F1 && k <= KEY_F12) return 0;   /* the hot keys stay hot */
    if (g_insp.focus != FOCUS_NONE) {            /* a focused field takes the keyboard */
        if (down) focused_key(k, shift);
        return 1;
    }
    if (!types_ready()) return 0;
    if (!down) return k == KEY_UP || k == KEY_DOWN || k == KEY_TAB || k == KEY_ENTER;
    return nav_key(k, shift, ctrl);
}

/* ---------------------------------------------------------------- drawing */
static void text(const char *s, float x, float y, uint32_t colour)
{
    services_api()->draw_text(s, x, y, 12, colour, LAYER + 2);
}

static void draw_edit_box(float x, float y, float w)
{
    char v[128];
    snprintf(v, sizeof v, "%s_", g_insp.edit);
    services_api()->draw_rect(x, y, w, ROW_H, 0x3A4A66FFu, LAYER + 1);
    text(v, x + 2, y + 1, 0xFFFFFFFFu);
}

static void draw_tree_row(const TreeRow *r, float y, int selected)
{
    const thr_field *f = r->place.field;
    char label[160], v[96];
    const char *leaf = strrchr(r->path, '.');
    leaf = leaf && r->place.index == 0 && !strchr(leaf, '[') ? leaf + 1 : leaf ? leaf + 1 : r->path;
    int open = r->kind != ROW_VALUE && r->kind != ROW_TABLE && is_expanded(r->path) >= 0;
    const char *mark = r->kind == ROW_VALUE ? "  " : r->kind == ROW_TABLE ? "> " : open ? "- " : "+ ";
    snprintf(label, sizeof label, "%s%s", mark, leaf);
    text(label, INSP_X + 6 + (float)r->depth * 12, y + 1, selected ? 0xFFFFFFFFu : 0xB8C8E0FFu);
    if (selected && g_insp.focus == FOCUS_EDIT) { draw_edit_box(INSP_X + NAME_W, y, 200); return; }
    if (r->kind == ROW_VALUE && is_scalar(f)) thr_format(&g_insp.types, &r->place, block(), v, sizeof v);
    else if (r->kind == ROW_VALUE) snprintf(v, sizeof v, "(%s)", thr_kind_name(f->kind, f->elem_size));
    else if (r->kind == ROW_STRUCT)
        snprintf(v, sizeof v, "%s", thr_name(&g_insp.types, g_insp.types.types[f->type].name));
    else snprintf(v, sizeof v, "[%u]%s", f->count, r->kind == ROW_TABLE ? "  table: Enter" : "");
    text(v, INSP_X + NAME_W, y + 1, r->kind == ROW_VALUE ? 0xFFFFFFFFu : 0x9FB8FFFFu);
}

static void draw_tree(void)
{
    tree_build();
    if (g_insp.sel >= g_tree_count) g_insp.sel = g_tree_count ? g_tree_count - 1 : 0;
    g_insp.first = inspector_window(g_insp.sel, g_insp.first, visible_rows(), g_tree_count);
    for (int i = g_insp.first; i < g_tree_count && i < g_insp.first + visible_rows(); i++) {
        float y = LIST_Y + (float)(i - g_insp.first) * ROW_H;
        if (i == g_insp.sel) services_api()->draw_rect(INSP_X + 2, y, INSP_W - 4, ROW_H, 0x26303FFFu, LAYER + 1);
        draw_tree_row(&g_tree[i], y, i == g_insp.sel);
    }
}

static void draw_table_row(const thr_place *arr, int shown, float y)
{
    uint32_t e = element_of(shown);
    char v[64];
    int selected = shown == g_insp.sel;
    /* a row the filter kept that changed since (the background refresh has not come by yet): greyed, not hidden,
       so the rows on screen do not jump while the game runs */
    uint32_t ink = g_insp.filter[0] && !row_matches(arr, e) ? 0x707070FFu : 0xFFFFFFFFu;
    if (selected) services_api()->draw_rect(INSP_X + 2, y, INSP_W - 4, ROW_H, 0x26303FFFu, LAYER + 1);
    snprintf(v, sizeof v, "%u", e);
    text(v, INSP_X + 6, y + 1, ink == 0xFFFFFFFFu ? 0x9FB8FFFFu : ink);
    for (int c = g_insp.col_first; c < g_col_count && c < g_insp.col_first + visible_cols(); c++) {
        float x = col_x(c), w = g_cols[c].w;
        if (selected && c == g_insp.col && g_insp.focus == FOCUS_EDIT) { draw_edit_box(x, y, w - 2); continue; }
        if (selected && c == g_insp.col) services_api()->draw_rect(x, y, w - 2, ROW_H, 0x3A4A66FFu, LAYER + 1);
        cell_text(arr, e, &g_cols[c], v, sizeof v);
        v[(int)(w / 6.5f)] = 0;   /* what fits the column */
        text(v, x + 2, y + 1, ink);
    }
}

static void draw_table(void)
{
    thr_place arr;
    uint32_t rows;
    if (!table_place(&arr, &rows)) { close_table(); return; }
    columns_of(arr.field->type);
    table_rows(&arr, rows);
    if (g_insp.col >= g_col_count) g_insp.col = 0;
    int n = (int)g_insp.match_count;
    if (g_insp.sel >= n) g_insp.sel = n ? n - 1 : 0;
    g_insp.first = inspector_window(g_insp.sel, g_insp.first, visible_rows(), n);
    char line[200];
    snprintf(line, sizeof line, "#");
    text(line, INSP_X + 6, HEAD_Y + 18, 0xFFD040FFu);
    for (int c = g_insp.col_first; c < g_col_count && c < g_insp.col_first + visible_cols(); c++) {
        snprintf(line, sizeof line, "%.*s", (int)(g_cols[c].w / 6.5f), g_cols[c].name);
        text(line, col_x(c) + 2, HEAD_Y + 18, 0xFFD040FFu);
    }
    int last = g_insp.first + visible_rows() < n ? g_insp.first + visible_rows() : n;
    for (int i = g_insp.first; i < last; i++) draw_table_row(&arr, i, LIST_Y + (float)(i - g_insp.first) * ROW_H);
    if (g_insp.first != g_insp.logged_first || g_insp.sel != g_insp.logged_sel) {   /* for scripted checks */
        g_insp.logged_first = g_insp.first;
        g_insp.logged_sel = g_insp.sel;
        log_event("inspector_view", "\"table\":\"%s\",\"first\":%u,\"last\":%u,\"selected\":%u,\"shown\":%d",
                  g_insp.table, n ? element_of(g_insp.first) : 0, last ? element_of(last - 1) : 0,
                  n ? element_of(g_insp.sel) : 0, n);
    }
    snprintf(line, sizeof line, "%u / %u rows   columns %d-%d of %d (Tab)", g_insp.match_count, rows,
             g_insp.col_first + 1, g_insp.col_first + visible_cols() < g_col_count ? g_insp.col_first + visible_cols()
                                                                                  : g_col_count, g_col_count);
    text(line, INSP_X + INSP_W - 300, FILTER_Y + 2, 0xB0B0B0FFu);
}

/* the pinned paths with their live values, in the view's bottom right corner, open or not */
static void draw_watches(void)
{
    WatchList *wl = watches();
    if (!wl->count) return;
    const PlatformAPI *pf = services_api();
    float w = 360, x = (float)pf->view_width - w - 10;
    float y = (float)pf->view_height - 60 - ROW_H * (float)wl->count;
    pf->draw_rect(x - 4, y - 4, w + 8, ROW_H * (float)(wl->count + 1) + 8, 0x000000C0u, LAYER);
    text("WATCH (Shift+F1: Ctrl+W pins, unpins)", x, y, 0xFFD040FFu);
    for (int i = 0; i < wl->count; i++) {
        char v[96], line[300];
        if (!types_ready()) snprintf(v, sizeof v, "(gone)");
        else value_text(wl->path[i], v, sizeof v);
        snprintf(line, sizeof line, "%s = %s", wl->path[i], v);
        text(line, x, y + ROW_H * (float)(i + 1), 0xFFFFFFFFu);
    }
}

static void draw_panel(void)
{
    const PlatformAPI *pf = services_api();
    pf->draw_rect(INSP_X, INSP_Y, INSP_W, bottom() - INSP_Y, 0x0B0F18F0u, LAYER);
    char line[256];
    if (g_insp.table[0]) snprintf(line, sizeof line, "< %s  (click or Esc: back)   Tab column  Enter edit  Ctrl+W pin",
                                  g_insp.table);
    else snprintf(line, sizeof line, "STATE   Shift+F1 close   Up/Down  Enter open/edit  Ctrl+F filter  Ctrl+W pin");
    pf->draw_text(line, INSP_X + 6, INSP_Y + 2, 13, 0xFFFFFFFFu, LAYER + 2);
    snprintf(line, sizeof line, "filter: %s%s", g_insp.table[0] ? g_insp.filter : g_insp.tree_filter,
             g_insp.focus == FOCUS_FILTER ? "_" : "");
    uint32_t box = g_insp.focus == FOCUS_FILTER ? 0x3A4A66FFu : 0x26303FFFu;
    pf->draw_rect(INSP_X + 6, FILTER_Y, 400, ROW_H, box, LAYER + 1);
    text(line, INSP_X + 10, FILTER_Y + 1, 0xFFFFFFFFu);
    if (g_insp.message[0]) text(g_insp.message, INSP_X + 6, HEAD_Y, g_insp.message_bad ? 0xFF7070FFu : 0x80FF90FFu);
    if (!types_ready()) { text("the running library describes no state", INSP_X + 6, LIST_Y, 0xB0B0B0FFu); return; }
    if (g_insp.table[0]) draw_table();
    else draw_tree();
}

/* the inspector's own time a frame, as inspector_frame events (tests/bench) */
static void note_time(double ms)
{
    g_insp.frame_ms[g_insp.frame_n++] = ms;
    if (g_insp.frame_n < 120) return;
    g_insp.frame_n = 0;
    double s[120];
    memcpy(s, g_insp.frame_ms, sizeof s);
    qsort(s, 120, sizeof s[0], [](const void *a, const void *b) {
        double d = *(const double *)a - *(const double *)b;
        return d < 0 ? -1 : d > 0 ? 1 : 0;
    });
    log_event("inspector_frame", "\"median_ms\":%.4f,\"max_ms\":%.4f,\"table\":\"%s\",\"rows\":%u,\"filtered\":%s",
              s[60], s[119], g_insp.table, g_insp.table[0] ? g_insp.match_count : (uint32_t)g_tree_count,
              g_insp.table[0] && g_insp.filter[0] ? "true" : "false");
}

void inspector_draw(void)
{
    if (!g_insp.open && !watches()->count) return;
    PROFILE_ZONE("inspector");
    double t0 = os_mono_seconds();
    draw_watches();
    if (!g_insp.open) return;
    draw_panel();
    note_time((os_mono_seconds() - t0) * 1000.0);
}
