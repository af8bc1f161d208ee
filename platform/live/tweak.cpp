/* tweak.cpp - the PlatformAPI tweak service: values of TWEAK() literals read from the game's source
   files as they are now, so a saved number shows up on the next frame with no compile and no reload.

   The game calls tweak_query for every read of a TWEAK site, with the site's file, line, counter,
   literal text and compiled value. Each source file with sites has a baseline: its text as the
   running library was compiled from it. Every build copies the game's sources that hold TWEAKs when it
   starts (its source copies, not to be confused with memory.cpp's snapshots of the block); the
   library it produces keeps those copies under its version, and a rollback to an older library
   brings back that library's copies, so the baseline always belongs
   to the code that runs - also for a file first read after a failed build or a crash, whose text on
   disk may be newer than the code. When the file changes and
   differs from the baseline only inside TWEAK literals (thtw_same_shape), each site's new literal is
   parsed and served from then on, and no rebuild is needed. Any other change (code, lines moved, a
   site added or removed) cannot be mapped back safely: the sites keep the last values that were
   mapped, the normal rebuild runs, and the new library brings a new baseline. A compiled site is only
   matched to the line and literal text it was compiled with, so a stale library or an ambiguous line
   (two identical literals) falls back to the compiled value instead of borrowing another's. */
#include "live.h"

#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static_assert((int)TWEAK_FLOAT == THTW_FLOAT && (int)TWEAK_INT == THTW_INT && (int)TWEAK_BOOL == THTW_BOOL &&
              (int)TWEAK_VEC2 == THTW_VEC2 && (int)TWEAK_COLOR == THTW_COLOR && (int)TWEAK_POS == THTW_POS &&
              (int)TWEAK_SCREEN_POS == THTW_SCREEN_POS, "game_api.h and th_tweak.h kinds differ");

#define TWEAK_MAX_FILES   64
#define TWEAK_MAX_SITES   2048    /* per file */
#define TWEAK_TABLE_SLOTS 8192    /* compiled sites seen since the last load (power of two) */

typedef struct TweakText {
    char      *text;
    size_t     len;
    thtw_site *sites;
    int        count;
} TweakText;

typedef struct TweakFile {
    char      path[HOST_PATH];     /* canonical */
    TweakText base;                /* what the running library was compiled from */
    uint64_t (*value)[1];          /* per base site: the value served (8 bytes: float[2] at most) */
    uint8_t   *has_value;          /* per base site: 1 if value holds a parsed literal */
    uint32_t  *gen;                /* per base site: change counter, 0 = as compiled */
    double    *changed_wall;       /* per base site: when the change was seen (wall clock seconds) */
    int        diverged;           /* the file changed beyond its literals; waiting for a rebuild */
    uint8_t   *seen;               /* per base site: the running code has read it (the F4 panel lists it) */
    char      *disk;               /* the file's text as the host last read or wrote it (write-back's check) */
    size_t     disk_len;
    int        own_write;          /* disk holds the host's own write: a watcher event with that text is ours */
    uint64_t (*bad)[1];            /* per base site: a value a crash or hang was blamed on, not served again */
    uint8_t   *has_bad;            /*   until the literal changes to something else */
} TweakFile;

typedef struct TweakEntry {        /* one compiled site, keyed by the library's own strings */
    const char *file_ptr;          /* NULL = empty slot; valid only until the next load */
    int         line, counter;
    int         file;              /* index into g_tweak.files, -1 if the file cannot be read */
    int         site;              /* index into the file's base sites, -1 = not mapped */
    uint32_t    gen_reported;
} TweakEntry;

typedef struct SourceFile { char path[HOST_PATH]; char *text; size_t len; } SourceFile;

typedef struct SourceCopies {      /* the sources one library was built from */
    int         version;           /* the library version it belongs to; 0 = a build not loaded yet */
    int         count;
    SourceFile *files;
} SourceCopies;

#define TWEAK_KEPT_SOURCE_COPIES 4 /* the running library, and the ones a rollback may return to */

/* The values that went live in the last save: if the game crashes or hangs within TWEAK_SUSPECT_STEPS steps
   of it, they are the suspects (reload.cpp rolls back to the state from just before they went live, and
   tweak_revert_suspects serves the old values again). */
#define TWEAK_MAX_SUSPECTS 16
typedef struct TweakSuspect { int file, site; uint64_t old_value; uint8_t had_old; } TweakSuspect;

static struct {
    TweakFile    files[TWEAK_MAX_FILES];
    int          file_count;
    TweakEntry   table[TWEAK_TABLE_SLOTS];
    int          entries;
    uint32_t     gen_counter;
    char         status[256];
    SourceCopies building;         /* taken when the running build started */
    SourceCopies kept[TWEAK_KEPT_SOURCE_COPIES];
    int          loaded_version;   /* whose source copies the baselines come from */
    TweakSuspect suspects[TWEAK_MAX_SUSPECTS];
    int          suspect_count;
    int          collecting;       /* a watcher save is being mapped: its changes are suspects */
    int          batch_fresh;      /* the batch's first live value replaces the last batch's suspects */
} g_tweak;

static double wall_now(void) { return os_wall_seconds(); }

static char *read_text(const char *path, size_t *len) { return os_read_file(path, len, (size_t)1 << 30); }

static void text_free(TweakText *t)
{
    free(t->text);
    free(t->sites);
    memset(t, 0, sizeof *t);
}

static void text_scan(TweakText *t, char *text, size_t len)
{
    t->text = text;
    t->len = len;
    t->sites = (thtw_site *)malloc(sizeof(thtw_site) * TWEAK_MAX_SITES);
    t->count = thtw_scan(text, len, t->sites, TWEAK_MAX_SITES);
    if (t->count > TWEAK_MAX_SITES) t->count = TWEAK_MAX_SITES;
}

static void canonical(const char *file, char *out, size_t cap)
{
    char joined[HOST_PATH * 2];
    int absolute = file[0] == '/' || (file[0] && file[1] == ':');   /* "C:/..." on Windows */
    if (absolute) snprintf(joined, sizeof joined, "%s", file);
    else snprintf(joined, sizeof joined, "%s/%s", host_root(), file);
    char real[HOST_PATH * 2];
    if (os_real_path(joined, real, sizeof real)) snprintf(out, cap, "%s", real);
    else snprintf(out, cap, "%s", joined);
}

static int file_find(const char *canon)
{
    for (int i = 0; i < g_tweak.file_count; i++) if (strcmp(g_tweak.files[i].path, canon) == 0) return i;
    return -1;
}

/* A value about to go live, checked against its kind and the value it replaces: a float must be finite,
   and no number may be more than SANE_FACTOR times the old one (or SANE_FLOOR, when the old one is small):
   TWEAK(1e999f) is inf, and a count of two billion where there were 2 hangs the game on its next use.
   1, or 0 and why. */
#define SANE_FACTOR 1000.0
#define SANE_FLOOR  100000.0
static int number_sane(double v, int has_old, double old, int is_float, char *why, size_t cap)
{
    if (is_float && !isfinite(v)) { snprintf(why, cap, "is not a finite number"); return 0; }
    double limit = has_old ? fabs(old) * SANE_FACTOR : 0;
    if (limit < SANE_FLOOR) limit = SANE_FLOOR;
    if (fabs(v) > limit) {
        snprintf(why, cap, "%.9g is out of range (more than %.0f%s)", v, limit,
                 has_old ? ", a thousand times the old value" : "");
        return 0;
    }
    return 1;
}

static int value_sane(int kind, const uint64_t *now, int has_old, const uint64_t *old, char *why, size_t cap)
{
    float nf[2], of[2] = { 0, 0 };
    int32_t ni, oi = 0;
    switch (kind) {
    case THTW_FLOAT:
        memcpy(nf, now, 4); if (has_old) memcpy(of, old, 4);
        return number_sane(nf[0], has_old, of[0], 1, why, cap);
    case THTW_INT:
        memcpy(&ni, now, 4); if (has_old) memcpy(&oi, old, 4);
        return number_sane(ni, has_old, oi, 0, why, cap);
    case THTW_VEC2: case THTW_POS: case THTW_SCREEN_POS:
        memcpy(nf, now, 8); if (has_old) memcpy(of, old, 8);
        return number_sane(nf[0], has_old, of[0], 1, why, cap) && number_sane(nf[1], has_old, of[1], 1, why, cap);
    default:   /* bool, colour: every value the parser takes is one */
        return 1;
    }
}

static const char *short_name(const char *path);

static void refuse_value(const TweakFile *f, const thtw_site *s, const char *why, int quiet)
{
    char lit[128], old[64] = "";
    snprintf(lit, sizeof lit, "%s", s->literal);
    log_message(LOG_WARN, "tweak: %s:%d: TWEAK(%s) %s: not applied, the old value stays", f->path, s->line, lit, why);
    if (!quiet) notice_post(LOG_WARN, "%s:%d: TWEAK(%s) %s: not applied", short_name(f->path), s->line, lit, why);
    char fesc[HOST_PATH * 2], lesc[300], wesc[300];
    parse_json_escape(f->path, fesc, sizeof fesc);
    parse_json_escape(lit, lesc, sizeof lesc);
    parse_json_escape(why, wesc, sizeof wesc);
    (void)old;
    log_event("tweak_refused", "\"file\":\"%s\",\"line\":%d,\"literal\":\"%s\",\"reason\":\"%s\"", fesc, s->line, lesc,
              wesc);
}

/* Values for every base site: mapped from `now` when it has the base's shape (NULL: the base's own,
   i.e. the compiled values). -1: another shape; -2: a changed literal does not parse (both: the
   compiler's job). A site that is not a literal in the compiled text either (TWEAK(SOME_MACRO)) just
   keeps its compiled value; the file's other sites stay live. */
static int file_values_from(TweakFile *f, const TweakText *now, int report)
{
    const TweakText *src = now ? now : &f->base;
    /* map everything once, before changing anything */
    uint64_t *parsed = (uint64_t *)calloc((size_t)(src->count ? src->count : 1), sizeof *parsed);
    uint8_t *ok = (uint8_t *)calloc((size_t)(src->count ? src->count : 1), 1);
    int mapped = thtw_map(f->base.text, f->base.len, f->base.sites, f->base.count,
                          src->text, src->len, src->sites, src->count, parsed, ok);
    if (mapped != THTW_MAP_OK) { free(parsed); free(ok); return mapped; }
    int changed = 0;
    double t = wall_now();
    for (int i = 0; i < src->count; i++) {
        const thtw_site *s = &src->sites[i];
        if (!ok[i]) { f->has_value[i] = 0; continue; }
        if (f->has_bad[i] && memcmp(f->bad[i], &parsed[i], sizeof parsed[i]) == 0) continue;   /* blamed already */
        f->has_bad[i] = 0;   /* any other literal (the old one too) ends the blame: typed again, it is tried again */
        if (f->has_value[i] && memcmp(f->value[i], &parsed[i], sizeof parsed[i]) == 0) continue;
        if (report) {
            char why[160];
            if (!value_sane(f->base.sites[i].kind, &parsed[i], f->has_value[i], f->value[i], why, sizeof why)) {
                refuse_value(f, s, why, 0);
                continue;
            }
            if (g_tweak.collecting && g_tweak.batch_fresh) { g_tweak.suspect_count = 0; g_tweak.batch_fresh = 0; }
            if (g_tweak.collecting && g_tweak.suspect_count < TWEAK_MAX_SUSPECTS) {
                TweakSuspect *sus = &g_tweak.suspects[g_tweak.suspect_count++];
                sus->file = (int)(f - g_tweak.files);
                sus->site = i;
                sus->had_old = f->has_value[i];
                memcpy(&sus->old_value, f->value[i], sizeof sus->old_value);
            }
        }
        memcpy(f->value[i], &parsed[i], sizeof parsed[i]);
        f->has_value[i] = 1;
        if (report) {
            f->gen[i] = ++g_tweak.gen_counter;
            f->changed_wall[i] = t;
            changed++;
            log_message(LOG_INFO, "tweak: %s:%d = %s", f->path, s->line, s->literal);
            const char *slash = strrchr(f->path, '/');
            snprintf(g_tweak.status, sizeof g_tweak.status, "tweak: %s:%d = %s (live, no rebuild)",
                     slash ? slash + 1 : f->path, s->line, s->literal);
        }
    }
    free(parsed);
    free(ok);
    return changed;
}

/* Every per-site array of a file, in one place: what file_alloc_sites makes, tweak_shutdown frees. */
template <class T> static void drop(T *&p)
{
    free(p);
    p = nullptr;
}

static void file_free_sites(TweakFile *f)
{
    drop(f->value), drop(f->has_value), drop(f->gen), drop(f->changed_wall), drop(f->seen), drop(f->bad);
    drop(f->has_bad);
}

static void file_alloc_sites(TweakFile *f)
{
    int n = f->base.count ? f->base.count : 1;
    file_free_sites(f);
    f->bad = (uint64_t(*)[1])calloc((size_t)n, sizeof *f->bad);
    f->has_bad = (uint8_t *)calloc((size_t)n, 1);
    f->seen = (uint8_t *)calloc((size_t)n, 1);
    f->value = (uint64_t(*)[1])calloc((size_t)n, sizeof *f->value);
    f->has_value = (uint8_t *)calloc((size_t)n, 1);
    f->gen = (uint32_t *)calloc((size_t)n, sizeof *f->gen);
    f->changed_wall = (double *)calloc((size_t)n, sizeof *f->changed_wall);
}

static void disk_remember(TweakFile *f, const char *text, size_t len, int own)
{
    free(f->disk);
    f->disk = (char *)malloc(len + 1);
    memcpy(f->disk, text, len);
    f->disk[len] = 0;
    f->disk_len = len;
    f->own_write = own;
}

static int disk_is(const TweakFile *f, const char *text, size_t len)
{
    return f->disk && f->disk_len == len && memcmp(f->disk, text, len) == 0;
}

/* New baseline: `base` (taken over), then the values of the file as it is on disk now. */
static void file_rebase(TweakFile *f, char *base, size_t base_len)
{
    text_free(&f->base);
    text_scan(&f->base, base, base_len);
    file_alloc_sites(f);
    file_values_from(f, NULL, 0);      /* the compiled values */
    f->diverged = 0;
    size_t len;
    char *now = read_text(f->path, &len);
    if (!now) return;
    disk_remember(f, now, len, 0);
    TweakText cur;
    text_scan(&cur, now, len);
    if (file_values_from(f, &cur, 1) < 0) f->diverged = 1;
    text_free(&cur);
}

/* ---------------------------------------------------------------- source copies (the baselines' origin) */
static void sources_free(SourceCopies *s)
{
    for (int i = 0; i < s->count; i++) free(s->files[i].text);
    free(s->files);
    memset(s, 0, sizeof *s);
}

static const SourceFile *sources_find(const SourceCopies *s, const char *canon)
{
    for (int i = 0; i < s->count; i++) if (strcmp(s->files[i].path, canon) == 0) return &s->files[i];
    return NULL;
}

static void sources_add(SourceCopies *s, const char *canon, char *text, size_t len)
{
    if (sources_find(s, canon)) { free(text); return; }
    s->files = (SourceFile *)realloc(s->files, sizeof(SourceFile) * (size_t)(s->count + 1));
    SourceFile *f = &s->files[s->count++];
    snprintf(f->path, sizeof f->path, "%s", canon);
    f->text = text;
    f->len = len;
}

static int is_source_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcmp(dot, ".cpp") || !strcmp(dot, ".h") || !strcmp(dot, ".c") || !strcmp(dot, ".cc") ||
                   !strcmp(dot, ".hpp") || !strcmp(dot, ".inl"));
}

typedef struct SourcesWalk { SourceCopies *copies; char dir[HOST_PATH]; int depth; } SourcesWalk;

static void sources_walk_entry(void *ctx, const char *name, int is_dir)
{
    SourcesWalk *w = (SourcesWalk *)ctx;
    char path[HOST_PATH * 2];
    snprintf(path, sizeof path, "%s/%s", w->dir, name);
    if (is_dir) {
        if (w->depth >= 8 || name[0] == '.') return;
        SourcesWalk sub = { w->copies, "", w->depth + 1 };
        snprintf(sub.dir, sizeof sub.dir, "%s", path);
        os_list_dir(sub.dir, sources_walk_entry, &sub);
        return;
    }
    if (!is_source_name(name)) return;
    size_t len;
    char *text = read_text(path, &len);
    if (!text) return;
    if (!strstr(text, "TWEAK")) { free(text); return; }   /* read_text ends it with a NUL (no memmem on Windows) */
    char canon[HOST_PATH];
    canonical(path, canon, sizeof canon);
    sources_add(w->copies, canon, text, len);
}

/* The sources as they are now: every file in the game's folder that holds a TWEAK, and every file open here. */
static SourceCopies sources_copy_now(void)
{
    SourceCopies s = { 0, 0, NULL };
    SourcesWalk w = { &s, "", 0 };
    snprintf(w.dir, sizeof w.dir, "%s", game_folder());
    os_list_dir(w.dir, sources_walk_entry, &w);
    for (int i = 0; i < g_tweak.file_count; i++) {
        size_t len;
        char *text = read_text(g_tweak.files[i].path, &len);
        if (text) sources_add(&s, g_tweak.files[i].path, text, len);
    }
    return s;
}

static SourceCopies *sources_of(int version)
{
    for (int i = 0; i < TWEAK_KEPT_SOURCE_COPIES; i++)
        if (g_tweak.kept[i].files && g_tweak.kept[i].version == version) return &g_tweak.kept[i];
    return NULL;
}

/* A file's baseline text: as the loaded library's source copies have it, or (a file it does not hold) as on
   disk. Malloc'ed; NULL if neither has it. */
static char *baseline_text(const char *canon, size_t *len)
{
    const SourceCopies *s = sources_of(g_tweak.loaded_version);
    const SourceFile *sf = s ? sources_find(s, canon) : NULL;
    if (!sf) return read_text(canon, len);
    char *copy = (char *)malloc(sf->len + 1);
    memcpy(copy, sf->text, sf->len);
    copy[sf->len] = 0;
    *len = sf->len;
    return copy;
}

static int file_open(const char *canon)
{
    int i = file_find(canon);
    if (i >= 0) return i;
    if (g_tweak.file_count >= TWEAK_MAX_FILES) return -1;
    size_t len;
    char *text = baseline_text(canon, &len);
    if (!text) return -1;
    TweakFile *f = &g_tweak.files[g_tweak.file_count];
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", canon);
    file_rebase(f, text, len);
    return g_tweak.file_count++;
}

static uint32_t entry_hash(const char *p, int line, int counter)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)line * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)counter * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return (uint32_t)h;
}

static TweakEntry *entry_resolve(const char *file, int line, int counter, int kind, const char *literal)
{
    uint32_t mask = TWEAK_TABLE_SLOTS - 1, i = entry_hash(file, line, counter) & mask;
    for (;;) {
        TweakEntry *e = &g_tweak.table[i];
        if (e->file_ptr == file && e->line == line && e->counter == counter) return e;
        if (!e->file_ptr) break;
        i = (i + 1) & mask;
    }
    if (g_tweak.entries >= TWEAK_TABLE_SLOTS * 3 / 4) return NULL;   /* full: compiled values from here on */
    TweakEntry *e = &g_tweak.table[i];
    e->file_ptr = file;
    e->line = line;
    e->counter = counter;
    e->site = -1;
    e->gen_reported = 0;
    g_tweak.entries++;
    char canon[HOST_PATH];
    canonical(file, canon, sizeof canon);
    e->file = file_open(canon);
    if (e->file < 0) return e;
    TweakFile *f = &g_tweak.files[e->file];
    int site = thtw_find(f->base.sites, f->base.count, line, literal);
    if (site == -2)
        log_message(LOG_WARN,
                    "tweak: %s:%d has two TWEAKs with the literal %s: put them on separate lines to tweak them live",
                    f->path, line, literal);
    if (site >= 0 && f->base.sites[site].kind != kind) site = -1;
    e->site = site;
    return e;
}

/* A number for the JSON log: null when it is not finite (inf and nan are not JSON). */
static const char *json_number(double v, char *buf, size_t cap)
{
    if (!isfinite(v)) snprintf(buf, cap, "null");
    else snprintf(buf, cap, "%.9g", v);
    return buf;
}

void tweak_query(const char *file, int line, int counter, int kind, const char *literal, void *value_inout)
{
    if (!file || !literal || !value_inout) return;
    TweakEntry *e = entry_resolve(file, line, counter, kind, literal);
    if (!e || e->file < 0 || e->site < 0) return;
    TweakFile *f = &g_tweak.files[e->file];
    f->seen[e->site] = 1;
    if (!f->has_value[e->site]) return;
    size_t size = THTW_IS_PAIR(kind) ? 8 : 4;
    memcpy(value_inout, f->value[e->site], size);
    uint32_t g = f->gen[e->site];
    if (g && g != e->gen_reported) {
        /* the first read of a changed value: how long it took from the save */
        e->gen_reported = g;
        const thtw_site *s = &f->base.sites[e->site];
        char esc[HOST_PATH * 2];
        parse_json_escape(f->path, esc, sizeof esc);
        char val[64], a[32], b[32];
        if (kind == TWEAK_FLOAT) snprintf(val, sizeof val, "%s", json_number(*(float *)value_inout, a, sizeof a));
        else if (THTW_IS_PAIR(kind))
            snprintf(val, sizeof val, "[%s,%s]", json_number(((float *)value_inout)[0], a, sizeof a),
                     json_number(((float *)value_inout)[1], b, sizeof b));
        else if (kind == TWEAK_COLOR) snprintf(val, sizeof val, "%u", *(uint32_t *)value_inout);
        else snprintf(val, sizeof val, "%d", *(int32_t *)value_inout);
        log_event("tweak_applied", "\"file\":\"%s\",\"line\":%d,\"value\":%s,\"since_change_ms\":%.2f",
                  esc, s->line, val, (wall_now() - f->changed_wall[e->site]) * 1000.0);
    }
}

/* ---------------------------------------------------------------- the values of the last save, as suspects */
void tweak_batch_begin(void) { g_tweak.batch_fresh = 1; }
/* The suspects in the session too (the TWEAK window, memory.cpp's slice): a hot restart soon after they went
   live blames them there. */
static void suspects_keep(void)
{
    TweakWindow *tw = memory_tweak_window();
    int n = 0;
    for (int k = 0; k < g_tweak.suspect_count && n < (int)(sizeof tw->suspects / sizeof tw->suspects[0]); k++) {
        const TweakSuspect *sus = &g_tweak.suspects[k];
        if (sus->file < 0 || sus->file >= g_tweak.file_count) continue;
        TweakKept *kept = &tw->suspects[n++];
        snprintf(kept->path, sizeof kept->path, "%s", g_tweak.files[sus->file].path);
        kept->site = sus->site;
        kept->had_old = sus->had_old;
        kept->old_value = sus->old_value;
    }
    tw->suspect_count = n;
}

void tweak_suspects_resume(void)
{
    const TweakWindow *tw = memory_tweak_window();
    g_tweak.suspect_count = 0;
    for (int k = 0; k < tw->suspect_count && k < TWEAK_MAX_SUSPECTS; k++) {
        int file = file_find(tw->suspects[k].path);
        if (file < 0) file = file_open(tw->suspects[k].path);
        if (file < 0) continue;
        TweakSuspect *sus = &g_tweak.suspects[g_tweak.suspect_count++];
        sus->file = file;
        sus->site = tw->suspects[k].site;
        sus->had_old = tw->suspects[k].had_old;
        sus->old_value = tw->suspects[k].old_value;
    }
}

int tweak_batch_end(void)
{
    int fresh = !g_tweak.batch_fresh && g_tweak.suspect_count > 0;
    g_tweak.batch_fresh = 0;
    suspects_keep();
    return fresh;
}
void tweak_suspects_clear(void) { g_tweak.suspect_count = 0; suspects_keep(); }

/* The game crashed or hung just after the last save's values went live: serve the old ones again, and do
   not serve the blamed ones until their literal changes. Writes "entities.cpp:23 TWEAK(7)" for each. */
void tweak_revert_suspects(char *what, size_t cap)
{
    size_t len = 0;
    what[0] = 0;
    for (int k = 0; k < g_tweak.suspect_count; k++) {
        const TweakSuspect *sus = &g_tweak.suspects[k];
        if (sus->file < 0 || sus->file >= g_tweak.file_count) continue;
        TweakFile *f = &g_tweak.files[sus->file];
        if (sus->site >= f->base.count) continue;
        memcpy(f->bad[sus->site], f->value[sus->site], sizeof f->bad[sus->site]);
        f->has_bad[sus->site] = 1;
        memcpy(f->value[sus->site], &sus->old_value, sizeof sus->old_value);
        f->has_value[sus->site] = sus->had_old;
        f->gen[sus->site] = ++g_tweak.gen_counter;
        f->changed_wall[sus->site] = wall_now();
        /* the literal as the file has it now is the blamed one: name it */
        char lit[96] = "";
        size_t n;
        char *text = read_text(f->path, &n);
        if (text) {
            TweakText cur;
            text_scan(&cur, text, n);
            if (sus->site < cur.count) snprintf(lit, sizeof lit, "%s", cur.sites[sus->site].literal);
            text_free(&cur);
        }
        int w = snprintf(what + len, cap - len, "%s%s:%d TWEAK(%s)", len ? ", " : "", short_name(f->path),
                         f->base.sites[sus->site].line, lit);
        if (w < 0 || (size_t)w >= cap - len) break;
        len += (size_t)w;
    }
    g_tweak.suspect_count = 0;
    suspects_keep();
}

int tweak_file_changed(const char *path)
{
    PROFILE_ZONE("tweak");
    char canon[HOST_PATH];
    canonical(path, canon, sizeof canon);
    int i = file_find(canon);
    if (i < 0) return 0;
    TweakFile *f = &g_tweak.files[i];
    size_t len;
    char *text = read_text(f->path, &len);
    char esc[HOST_PATH * 2];
    parse_json_escape(f->path, esc, sizeof esc);
    if (!text) {
        log_event("tweak", "\"file\":\"%s\",\"live\":false,\"reason\":\"unreadable\"", esc);
        return 0;
    }
    if (f->own_write && disk_is(f, text, len)) {   /* the panel's write-back: already live, nothing to build */
        free(text);
        log_event("tweak_own_write", "\"file\":\"%s\"", esc);
        return 2;
    }
    disk_remember(f, text, len, 0);
    TweakText now;
    text_scan(&now, text, len);
    g_tweak.collecting = 1;
    int changed = file_values_from(f, &now, 1);
    g_tweak.collecting = 0;
    text_free(&now);
    if (changed < 0) {
        /* the compiler has to see this one; the values mapped so far stay until the new library loads */
        f->diverged = 1;
        log_event("tweak", "\"file\":\"%s\",\"live\":false,\"reason\":\"%s\"", esc,
                  changed == -2 ? "a literal does not parse" : "more than literals changed");
        return 0;
    }
    f->diverged = 0;
    log_event("tweak", "\"file\":\"%s\",\"live\":true,\"changed\":%d", esc, changed);
    return 1;
}

void tweak_build_started(void)
{
    sources_free(&g_tweak.building);
    g_tweak.building = sources_copy_now();
}

void tweak_build_finished(int ok)
{
    if (!ok) sources_free(&g_tweak.building);   /* nothing will be loaded from it */
}

/* ---------------------------------------------------------------- kept over a hot restart */
/* The kept source copies are written into an area of the session as well (restart_reserve), each time they change: a
   restarted host maps a literal changed live against the text its library was built from, not against
   the file on disk (which holds the changed literal and would make it look compiled in).
   Layout: u32 count (0 while being written), then per copy i32 version, u32 files, and per file u32
   path length, the path, u64 text length, the text. */
#define TWEAK_SOURCES       "tweak.sources"
#define TWEAK_SOURCES_BYTES (16ull << 20)

void tweak_reserve(void) { restart_reserve(TWEAK_SOURCES, TWEAK_SOURCES_BYTES); }

static void keep_in_session(void)
{
    uint64_t cap = 0;
    uint8_t *area = restart_area(TWEAK_SOURCES, &cap);
    if (!area || cap < 8) return;
    uint32_t count = 0;
    memcpy(area, &count, 4);
    uint64_t at = 8;
    for (int k = 0; k < TWEAK_KEPT_SOURCE_COPIES; k++) {
        const SourceCopies *s = &g_tweak.kept[k];
        if (!s->files || s->version <= 0) continue;
        uint64_t need = 8;
        for (int i = 0; i < s->count; i++) need += 12 + strlen(s->files[i].path) + s->files[i].len;
        if (at + need > cap) continue;   /* too big to keep: a restart falls back to the files on disk */
        int32_t v = s->version;
        uint32_t n = (uint32_t)s->count;
        memcpy(area + at, &v, 4); memcpy(area + at + 4, &n, 4); at += 8;
        for (int i = 0; i < s->count; i++) {
            uint32_t pl = (uint32_t)strlen(s->files[i].path);
            uint64_t tl = s->files[i].len;
            memcpy(area + at, &pl, 4); memcpy(area + at + 4, s->files[i].path, pl); at += 4 + pl;
            memcpy(area + at, &tl, 8); memcpy(area + at + 8, s->files[i].text, tl); at += 8 + tl;
        }
        count++;
    }
    memcpy(area, &count, 4);
    restart_area_used(TWEAK_SOURCES, at);
}

/* The source copies the previous process kept for its library `version`; 0 if it has none. Checked like any
   input: the area may be anything. */
static int from_session(int version, SourceCopies *out)
{
    uint64_t cap = 0;
    const uint8_t *area = restart_area(TWEAK_SOURCES, &cap);
    if (!area || cap < 8) return 0;
    uint32_t count;
    memcpy(&count, area, 4);
    uint64_t at = 8;
    for (uint32_t k = 0; k < count && k < TWEAK_KEPT_SOURCE_COPIES; k++) {
        if (at + 8 > cap) return 0;
        int32_t v;
        uint32_t n;
        memcpy(&v, area + at, 4); memcpy(&n, area + at + 4, 4); at += 8;
        SourceCopies s = { 0, 0, NULL };
        for (uint32_t i = 0; i < n; i++) {
            uint32_t pl;
            uint64_t tl;
            if (at + 4 > cap) { sources_free(&s); return 0; }
            memcpy(&pl, area + at, 4);
            if (pl >= HOST_PATH || at + 4 + pl + 8 > cap) { sources_free(&s); return 0; }
            char path[HOST_PATH];
            memcpy(path, area + at + 4, pl);
            path[pl] = 0;
            at += 4 + pl;
            memcpy(&tl, area + at, 8);
            if (tl > cap - at - 8) { sources_free(&s); return 0; }
            if (v == version) {
                char *text = (char *)malloc(tl + 1);
                if (!text) { sources_free(&s); return 0; }
                memcpy(text, area + at + 8, tl);
                text[tl] = 0;
                sources_add(&s, path, text, tl);
            }
            at += 8 + tl;
        }
        if (v == version) { *out = s; return 1; }
    }
    return 0;
}

static void install_baseline(SourceCopies s, int version);

void tweak_library_resumed(int version, int code_of_version)
{
    SourceCopies s = { 0, 0, NULL };
    if (!from_session(code_of_version, &s)) {
        log_message(LOG_WARN, "tweak: the restarted host has no sources kept for the code it runs; taking the files on "
                              "disk as its baseline");
        s = sources_copy_now();
    }
    install_baseline(s, version);
}

void tweak_library_loaded(int version, int code_of_version)
{
    SourceCopies s = { 0, 0, NULL };
    const SourceCopies *older = code_of_version > 0 ? sources_of(code_of_version) : NULL;
    if (older) {                          /* a rollback: the sources of the code it returns to */
        for (int i = 0; i < older->count; i++) {
            char *copy = (char *)malloc(older->files[i].len + 1);
            memcpy(copy, older->files[i].text, older->files[i].len + 1);
            sources_add(&s, older->files[i].path, copy, older->files[i].len);
        }
    } else if (g_tweak.building.files && code_of_version == 0) {
        s = g_tweak.building;                   /* the build this library came from */
        memset(&g_tweak.building, 0, sizeof g_tweak.building);
    } else {
        if (code_of_version > 0)
            log_message(LOG_WARN, "tweak: no sources kept for version %d; taking the files on disk as its baseline",
                        code_of_version);
        s = sources_copy_now();          /* at start, or a library built outside the host */
    }
    install_baseline(s, version);
}

static void install_baseline(SourceCopies s, int version)
{
    s.version = version;
    int slot = 0;                         /* replaces the oldest */
    for (int i = 0; i < TWEAK_KEPT_SOURCE_COPIES; i++) {
        if (!g_tweak.kept[i].files) { slot = i; break; }
        if (g_tweak.kept[i].version < g_tweak.kept[slot].version) slot = i;
    }
    sources_free(&g_tweak.kept[slot]);
    g_tweak.kept[slot] = s;
    g_tweak.loaded_version = version;

    memset(g_tweak.table, 0, sizeof g_tweak.table);
    g_tweak.entries = 0;
    for (int i = 0; i < g_tweak.file_count; i++) {
        TweakFile *f = &g_tweak.files[i];
        size_t base_len = 0;
        char *base = baseline_text(f->path, &base_len);
        if (!base) { base = (char *)calloc(1, 1); base_len = 0; }
        file_rebase(f, base, base_len);
    }
    keep_in_session();
}

const char *tweak_status(void) { return g_tweak.status; }

void tweak_shutdown(void)
{
    for (int i = 0; i < g_tweak.file_count; i++) {
        TweakFile *f = &g_tweak.files[i];
        text_free(&f->base);
        file_free_sites(f);
        free(f->disk);
    }
    sources_free(&g_tweak.building);
    for (int i = 0; i < TWEAK_KEPT_SOURCE_COPIES; i++) sources_free(&g_tweak.kept[i]);
    memset(&g_tweak, 0, sizeof g_tweak);
}


/* ---------------------------------------------------------------- the F4 panel's side: sites, live values, write-back
 */
/* A change from the panel is live at once (the next read returns it) and is written back into the literal at
   its file:line: the file as it is now must still map onto the running code's baseline (thtw_map), and must
   be what the host last read or wrote of it - a save made in between is never overwritten. */
#define TWEAK_UNDO_MAX 256

typedef struct TweakUndo {
    int  file, site, line, gesture;
    char before[THTW_MAX_LITERAL * 2], after[THTW_MAX_LITERAL * 2];   /* the raw text between the parentheses */
} TweakUndo;

static struct {
    TweakUndo entries[TWEAK_UNDO_MAX];
    int       count, applied;     /* entries[0..applied) are on disk; [applied..count) can be redone */
} g_undo;

int tweak_file_count(void) { return g_tweak.file_count; }

const char *tweak_file_path(int file) { return file >= 0 && file < g_tweak.file_count ? g_tweak.files[file].path : ""; }

int tweak_site_count(int file) { return file >= 0 && file < g_tweak.file_count ? g_tweak.files[file].base.count : 0; }

int tweak_site_info(int file, int site, TweakSiteInfo *out)
{
    if (file < 0 || file >= g_tweak.file_count) return 0;
    const TweakFile *f = &g_tweak.files[file];
    if (site < 0 || site >= f->base.count || !f->seen[site]) return 0;
    const thtw_site *s = &f->base.sites[site];
    memset(out, 0, sizeof *out);
    out->line = s->line;
    out->kind = s->kind;
    out->has_value = f->has_value[site];
    memcpy(out->value, f->value[site], 8);
    /* the source line, trimmed: from the line's start to its end. As the file is now when it maps onto the
       running code (a literal saved or written back since the build, whose value is the one served), else
       as the running code was compiled. */
    const char *text = f->base.text;
    int a = s->arg_begin, b = s->arg_begin;
    while (a > 0 && text[a - 1] != '\n') a--;
    if (f->disk && !f->diverged) {   /* the same line in the file on disk: same shape, so same line numbers */
        const char *p = f->disk, *end = f->disk + f->disk_len;
        for (int l = 1; l < s->line && p; l++) { p = (const char *)memchr(p, '\n', (size_t)(end - p)); if (p) p++; }
        if (p) { text = f->disk; a = (int)(p - f->disk); }
    }
    size_t text_len = text == f->disk ? f->disk_len : f->base.len;
    b = a;
    while ((size_t)b < text_len && text[b] != '\n') b++;
    while (a < b && (text[a] == ' ' || text[a] == '\t')) a++;
    static const char DECL[] = "static constexpr auto ";   /* the usual start of a site's line says nothing */
    if (b - a > (int)sizeof DECL && memcmp(text + a, DECL, sizeof DECL - 1) == 0) a += (int)sizeof DECL - 1;
    size_t n = 0;
    for (int i = a; i < b && n + 1 < sizeof out->source; i++) {   /* runs of blanks as one */
        char c = text[i] == '\t' ? ' ' : text[i];
        if (c == ' ' && n > 0 && out->source[n - 1] == ' ') continue;
        out->source[n++] = c;
    }
    out->source[n] = 0;
    return 1;
}

void tweak_set_live(int file, int site, const void *value)
{
    if (file < 0 || file >= g_tweak.file_count) return;
    TweakFile *f = &g_tweak.files[file];
    if (site < 0 || site >= f->base.count) return;
    memcpy(f->value[site], value, 8);
    f->has_value[site] = 1;
    f->gen[site] = ++g_tweak.gen_counter;
    f->changed_wall[site] = wall_now();
}

static const char *short_name(const char *path) { const char *s = strrchr(path, '/'); return s ? s + 1 : path; }

/* The file as it is on disk, checked and mapped: 1 + text and sites; 0 + why (the value stays live in memory). */
static int disk_mapped(TweakFile *f, char **text, size_t *len, TweakText *cur, char *msg, size_t cap)
{
    *text = read_text(f->path, len);
    if (!*text) {
        snprintf(msg, cap, "%s: cannot read it (%s): live in memory only", short_name(f->path), os_error_text());
        return 0;
    }
    if (!disk_is(f, *text, *len)) {
        snprintf(msg, cap, "%s changed on disk: read again, not overwritten", short_name(f->path));
        free(*text);
        tweak_file_changed(f->path);
        return 0;
    }
    text_scan(cur, *text, *len);
    *text = NULL;   /* cur owns it */
    if (f->diverged || !thtw_same_shape(f->base.text, f->base.len, f->base.sites, f->base.count, cur->text, cur->len,
                                        cur->sites, cur->count)) {
        snprintf(
            msg, cap,
            "%s differs from the running code beyond its literals (a rebuild or rollback pending): live in memory only",
            short_name(f->path));
        text_free(cur);
        return 0;
    }
    return 1;
}

/* Replaces site `site`'s argument text in `cur` with `lit` and writes the file (temp file, rename, mode kept). */
static int write_literal(TweakFile *f, int site, TweakText *cur, const char *lit, char *msg, size_t cap)
{
    double t0 = wall_now();
    const thtw_site *s = &cur->sites[site];
    size_t ll = strlen(lit), head = (size_t)s->arg_begin, tail = cur->len - (size_t)s->arg_end;
    size_t len = head + ll + tail;
    char *out = (char *)malloc(len + 1);
    memcpy(out, cur->text, head);
    memcpy(out + head, lit, ll);
    memcpy(out + head + ll, cur->text + s->arg_end, tail);
    out[len] = 0;
    char esc[HOST_PATH * 2];
    parse_json_escape(f->path, esc, sizeof esc);
    if (!os_replace_file(f->path, out, len)) {
        int readonly = !os_is_file(f->path) ? 0 : 1;
        snprintf(msg, cap, "%s:%d: %s%s: live in memory only", short_name(f->path), s->line,
                 readonly ? "cannot write the file - read-only? " : "cannot write the file: ", os_error_text());
        log_event("tweak_write_refused", "\"file\":\"%s\",\"line\":%d,\"reason\":\"write\"", esc, s->line);
        free(out);
        return 0;
    }
    disk_remember(f, out, len, 1);
    char lesc[THTW_MAX_LITERAL * 4];
    parse_json_escape(lit, lesc, sizeof lesc);
    log_event("tweak_written", "\"file\":\"%s\",\"line\":%d,\"literal\":\"%s\",\"write_ms\":%.3f", esc, s->line, lesc,
               (wall_now() - t0) * 1000.0);
    snprintf(msg, cap, "%s:%d = %s (written)", short_name(f->path), s->line, lit);
    free(out);
    return 1;
}

static void refused_event(const TweakFile *f, int site, const char *why)
{
    char esc[HOST_PATH * 2];
    parse_json_escape(f->path, esc, sizeof esc);
    log_event("tweak_write_refused", "\"file\":\"%s\",\"line\":%d,\"reason\":\"%s\"", esc, f->base.sites[site].line,
              why);
}

int tweak_write(int file, int site, const void *value, int gesture, char *msg, size_t cap)
{
    msg[0] = 0;
    if (file < 0 || file >= g_tweak.file_count) return 0;
    TweakFile *f = &g_tweak.files[file];
    if (site < 0 || site >= f->base.count) return 0;
    tweak_set_live(file, site, value);
    char *text;
    size_t len;
    TweakText cur;
    if (!disk_mapped(f, &text, &len, &cur, msg, cap)) {
        refused_event(f, site, strstr(msg, "changed on disk") ? "changed on disk" : "not mapped");
        return 0;
    }
    const thtw_site *s = &cur.sites[site];
    char before[THTW_MAX_LITERAL * 2], lit[THTW_MAX_LITERAL * 2];
    size_t raw = (size_t)(s->arg_end - s->arg_begin);
    /* The style is the literal's as the gesture found it: a drag writes when it pauses, and a pause at 48.48f
       must not make the end of the drag 67.20f where the literal was 48.0f. */
    const TweakUndo *top = g_undo.applied > 0 ? &g_undo.entries[g_undo.applied - 1] : NULL;
    int same_gesture = top && gesture && top->gesture == gesture && top->file == file && top->site == site &&
                       g_undo.applied == g_undo.count;
    const char *style = same_gesture ? top->before : cur.text + s->arg_begin;
    size_t style_len = same_gesture ? strlen(top->before) : raw;
    if (raw >= sizeof before || thtw_format(s->kind, style, style_len, value, lit, sizeof lit) < 0) {
        snprintf(msg, cap, "%s:%d: not a plain literal: live in memory only", short_name(f->path), s->line);
        refused_event(f, site, "not a literal");
        text_free(&cur);
        return 0;
    }
    memcpy(before, cur.text + s->arg_begin, raw);
    before[raw] = 0;
    if (!strcmp(before, lit)) { text_free(&cur); return 1; }   /* nothing to write */
    int ok = write_literal(f, site, &cur, lit, msg, cap);
    text_free(&cur);
    if (!ok) return 0;
    /* one undo step per gesture (a drag writes when it pauses and when it ends) */
    TweakUndo *entry = same_gesture ? &g_undo.entries[g_undo.applied - 1] : NULL;
    if (!entry) {
        if (g_undo.applied == TWEAK_UNDO_MAX) {
            memmove(g_undo.entries, g_undo.entries + 1, sizeof g_undo.entries[0] * (TWEAK_UNDO_MAX - 1));
            g_undo.applied--;
        }
        entry = &g_undo.entries[g_undo.applied++];
        entry->file = file;
        entry->site = site;
        entry->line = f->base.sites[site].line;
        entry->gesture = gesture;
        snprintf(entry->before, sizeof entry->before, "%s", before);
    }
    g_undo.count = g_undo.applied;
    snprintf(entry->after, sizeof entry->after, "%s", lit);
    return 1;
}

int tweak_undo(int redo, char *msg, size_t cap)
{
    msg[0] = 0;
    if (redo ? g_undo.applied >= g_undo.count : g_undo.applied <= 0) {
        snprintf(msg, cap, "nothing to %s", redo ? "redo" : "undo");
        return 0;
    }
    TweakUndo *u = &g_undo.entries[redo ? g_undo.applied : g_undo.applied - 1];
    if (u->file >= g_tweak.file_count) return 0;
    TweakFile *f = &g_tweak.files[u->file];
    if (u->site >= f->base.count || f->base.sites[u->site].line != u->line) {
        snprintf(msg, cap, "%s was rebuilt since: nothing to %s", short_name(f->path), redo ? "redo" : "undo");
        return 0;
    }
    char *text;
    size_t len;
    TweakText cur;
    if (!disk_mapped(f, &text, &len, &cur, msg, cap)) { refused_event(f, u->site, "changed on disk"); return 0; }
    const thtw_site *s = &cur.sites[u->site];
    const char *expect = redo ? u->before : u->after, *put = redo ? u->after : u->before;
    size_t raw = (size_t)(s->arg_end - s->arg_begin);
    if (raw != strlen(expect) || memcmp(cur.text + s->arg_begin, expect, raw) != 0) {
        snprintf(msg, cap, "%s:%d changed since: nothing to %s", short_name(f->path), s->line, redo ? "redo" : "undo");
        text_free(&cur);
        return 0;
    }
    int ok = write_literal(f, u->site, &cur, put, msg, cap);
    text_free(&cur);
    if (!ok) return 0;
    uint64_t v = 0;
    if (thtw_parse(f->base.sites[u->site].kind, put, strlen(put), &v)) tweak_set_live(u->file, u->site, &v);
    g_undo.applied += redo ? 1 : -1;
    log_event(redo ? "tweak_redo" : "tweak_undo", "\"line\":%d", f->base.sites[u->site].line);
    return 1;
}
