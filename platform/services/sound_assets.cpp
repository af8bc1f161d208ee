/* sound_assets.cpp - sounds as live assets: found on disk, decoded in a child process, reloaded on save.

   Names:  assets/sounds/<name>.wav|.ogg and assets/sfx/<name>.sfx (a parameter file that
           tools/make_sfx renders to build/sounds/<name>.wav), in the game's folder first (its own
           renders go to its build folder), then in the engine's: a name in both is the game's. The game
           plays game_sound_id(name).
   Load:   every file goes through build/tools/sound_decode in a child process (a decoder crash
           costs that file only), which writes build/sounds/decoded/<slot>.pcm; the host validates
           that file (th_wav.h) and hands the samples to the mixer (audio.cpp). A .sfx file is first
           rendered by build/tools/make_sfx, also a child. At most SOUND_CHILDREN run at once; a save
           while a child works on the same sound queues one more run (the latest wins).
   Errors: a missing, corrupt or unrenderable file -> the sound plays silence, one error naming the
           file and the reason (log, overlay, an "asset_error" event); fixing the file reloads it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "services.h"
#include "os/os.h"
#define TH_WAV_IMPLEMENTATION
#include "th_wav.h"

#define SOUND_SLOTS 512      /* = THM_MAX_SOUNDS */
#define SOUND_CHILDREN 3

enum { SRC_NONE, SRC_FILE, SRC_SFX, SRC_PACKED };   /* SRC_PACKED: decoded samples in a release's archive */
enum { STAGE_IDLE, STAGE_RENDER, STAGE_DECODE };

typedef struct SoundSlot {
    uint32_t id;
    char     name[160];
    char     src[HOST_PATH];     /* the file it comes from ("" if none found) */
    int      kind;               /* SRC_* */
    int      dirty;              /* load (again) when a child is free */
    int      dirty_from_scan;    /* found at start: a rendered WAV newer than its .sfx is used as is */
    int      stage;              /* STAGE_*: what its child is doing */
    OsChild  child;
    char     err[512];
    int      err_len;
    double   change_t;           /* when the save was seen, for the reload time */
    int      loaded, failed;
    char     problem[400];       /* the message while failed, for the screen */
    int      from_game;          /* src is in the game's folder */
} SoundSlot;

static struct {
    char      root[HOST_PATH];
    char      game[HOST_PATH];   /* the game's folder when it is not the engine's ("": none) */
    SoundSlot slot[SOUND_SLOTS];
    int       count;
    int       running;
} g_snd;

static int slot_by_name(const char *name)
{
    for (int i = 0; i < g_snd.count; i++) if (strcmp(g_snd.slot[i].name, name) == 0) return i;
    return -1;
}

int sound_slot_of(uint32_t id)
{
    for (int i = 0; i < g_snd.count; i++) if (g_snd.slot[i].id == id) return i;
    return -1;
}

const char *sound_slot_name(int slot) { return slot >= 0 && slot < g_snd.count ? g_snd.slot[slot].name : "?"; }

static int slot_add(const char *name)
{
    int i = slot_by_name(name);
    if (i >= 0) return i;
    if (g_snd.count >= SOUND_SLOTS) {
        log_message(LOG_ERROR, "sound %s: more than %d sounds", name, SOUND_SLOTS);
        return -1;
    }
    i = g_snd.count++;
    SoundSlot *s = &g_snd.slot[i];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->id = game_sound_id(name);
    return i;
}

static void sound_error(SoundSlot *s, const char *file, const char *reason)
{
    char ef[HOST_PATH * 2], er[1200];
    parse_json_escape(file, ef, sizeof ef);
    parse_json_escape(reason, er, sizeof er);
    log_message(LOG_ERROR, "sound %s: %s: %s (playing silence until it is fixed)", s->name, file, reason);
    const char *rel = strncmp(file, g_snd.root, strlen(g_snd.root)) == 0 ? file + strlen(g_snd.root) + 1 : file;
    snprintf(s->problem, sizeof s->problem, "SOUND %s: %s: %s (silent until fixed)", s->name, rel, reason);
    log_event("asset_error", "\"file\":\"%s\",\"reason\":\"%s\",\"sound\":\"%s\"", ef, er, s->name);
    s->failed = 1;
    audio_set_sound((int)(s - g_snd.slot), NULL, 0, 1, 48000);
}

/* "<root>/assets/sounds/a/b.wav" -> kind SRC_FILE, name "a/b", *from_game 0 (1: below the game's folder);
   0 if the path is no sound source */
static int sound_name_of(const char *path, char *name, size_t cap, int *kind, int *from_game)
{
    static const struct { const char *dir; const char *ext[2]; int kind; } SOURCES[] = {
        { "/assets/sounds/", { ".wav", ".ogg" }, SRC_FILE },
        { "/assets/sfx/", { ".sfx", NULL }, SRC_SFX },
    };
    size_t gl = strlen(g_snd.game), rl = strlen(g_snd.root);
    const char *rel;
    if (gl && strncmp(path, g_snd.game, gl) == 0 && path[gl] == '/') { rel = path + gl; *from_game = 1; }
    else if (strncmp(path, g_snd.root, rl) == 0) { rel = path + rl; *from_game = 0; }
    else return 0;
    for (const auto &src : SOURCES) {
        size_t dl = strlen(src.dir);
        if (strncmp(rel, src.dir, dl) != 0) continue;
        const char *n = rel + dl;
        size_t nl = strlen(n);
        for (const char *ext : src.ext) {
            if (!ext) continue;
            size_t el = strlen(ext);
            int same = nl > el;
            for (size_t k = 0; same && k < el; k++) same = (n[nl - el + k] | 0x20) == ext[k];   /* ".WAV" too */
            if (same && nl - el < cap) {
                memcpy(name, n, nl - el);
                name[nl - el] = 0;
                *kind = src.kind;
                return 1;
            }
        }
    }
    return 0;
}

static void scan_entry(void *ctx, const char *entry, int is_dir)
{
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/%s", (const char *)ctx, entry);
    if (entry[0] == '.') return;
    if (is_dir) { os_list_dir(p, scan_entry, p); return; }
    char name[160];
    int kind, from_game;
    if (!sound_name_of(p, name, sizeof name, &kind, &from_game)) return;
    int i = slot_add(name);
    if (i < 0) return;
    SoundSlot *s = &g_snd.slot[i];
    if (s->kind && s->from_game != from_game) {   /* the game's folder is scanned first: its sound wins */
        assets_note_override("sound", name, s->from_game ? s->src : p, s->from_game ? p : s->src);
        if (s->from_game) return;
    } else {
        if (s->kind && strcmp(s->src, p) != 0)
            log_message(LOG_WARN, "sound %s: both %s and %s exist; using %s", name, s->src, p,
                        s->kind == SRC_SFX ? s->src : p);
        if (s->kind == SRC_SFX && kind == SRC_FILE) return;   /* a parameter file wins: it is the source */
    }
    snprintf(s->src, sizeof s->src, "%s", p);
    s->kind = kind;
    s->from_game = from_game;
    s->dirty = 1;
    s->dirty_from_scan = 1;
    s->change_t = log_time();
}

/* ---------------------------------------------------------------- the children */
static void mkdirs_for(const char *file)
{
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s", file);
    for (char *c = p + 1; *c; c++) if (*c == '/') { *c = 0; os_make_dir(p); *c = '/'; }
}

static void rendered_path(const SoundSlot *s, char *out, size_t cap)
{
    const char *game_build = g_host_mode.game_build_folder ? g_host_mode.game_build_folder() : NULL;
    if (s->from_game && game_build)
        snprintf(out, cap, "%s/sounds/%s.wav", game_build, s->name); /* not the engine's render */
    else snprintf(out, cap, "%s/build/sounds/%s.wav", g_snd.root, s->name);
}
static int rendered_is_current(const SoundSlot *s)
{
    char wav[HOST_PATH];
    rendered_path(s, wav, sizeof wav);
    OsFileStamp a, b;
    return os_file_stamp(s->src, &a) && os_file_stamp(wav, &b) && b.mtime_ns >= a.mtime_ns;
}
static void decoded_path(const SoundSlot *s, char *out, size_t cap)
{
    snprintf(out, cap, "%s/build/sounds/decoded/%d.pcm", g_snd.root, (int)(s - g_snd.slot));
}

static int rendered_is_current(const SoundSlot *s);

static int child_start(SoundSlot *s, int stage)
{
    char tool[HOST_PATH], in[HOST_PATH], out[HOST_PATH];
    snprintf(tool, sizeof tool, "%s/build/tools/%s" OS_EXE_SUFFIX, g_snd.root,
             stage == STAGE_RENDER ? "make_sfx" : "sound_decode");
    if (stage == STAGE_RENDER) { snprintf(in, sizeof in, "%s", s->src); rendered_path(s, out, sizeof out); }
    else {
        if (s->kind == SRC_SFX) rendered_path(s, in, sizeof in); else snprintf(in, sizeof in, "%s", s->src);
        decoded_path(s, out, sizeof out);
    }
    if (!os_is_file(tool)) {
        char why[HOST_PATH + 64];
        snprintf(why, sizeof why, "cannot load it: %s is missing (run ./build.sh tools)", tool);
        sound_error(s, s->src, why);
        return 0;
    }
    mkdirs_for(out);
    const char *argv[] = { tool, in, out, NULL };
    memset(&s->child, 0, sizeof s->child);
    if (!os_child_start(&s->child, argv, OS_CHILD_STDERR)) {
        sound_error(s, s->src, os_error_text());
        return 0;
    }
    s->err_len = 0;
    s->err[0] = 0;
    s->stage = stage;
    g_snd.running++;
    return 1;
}

static void child_drain(SoundSlot *s)
{
    char buf[512];
    int n;
    while ((n = os_child_read(&s->child, buf, sizeof buf)) > 0) {
        int room = (int)sizeof s->err - 1 - s->err_len;
        if (room > 0) {
            memcpy(s->err + s->err_len, buf, (size_t)(n < room ? n : room));
            s->err_len += n < room ? n : room;
            s->err[s->err_len] = 0;
        }
    }
}

/* Checks decoded samples (a decoder child's output, or a release's archive entry) and hands them to
   the mixer; takes buf (malloc'ed, len bytes; NULL = nothing readable, why says so). */
static void install_pcm(SoundSlot *s, char *buf, size_t len, const char *why)
{
    thw_sound view;
    if (!buf || !thw_pcm_parse(buf, len, &view)) {
        free(buf);
        sound_error(s, s->src, buf ? thw_error() : why);
        return;
    }
    /* the mixer takes a buffer it frees itself: move the samples to the front of ours */
    size_t n = (size_t)view.frames * view.channels;
    memmove(buf, view.samples, n * sizeof(float));
    float *samples = (float *)realloc(buf, n ? n * sizeof(float) : sizeof(float));
    if (!samples) samples = (float *)buf;
    int slot = (int)(s - g_snd.slot);
    if (!audio_set_sound(slot, samples, view.frames, view.channels, view.rate)) {
        sound_error(s, s->src, "the mixer's queue is full");
        return;
    }
    double ms = (log_time() - s->change_t) * 1000.0;
    char ef[HOST_PATH * 2];
    parse_json_escape(s->src, ef, sizeof ef);
    if (s->failed) log_message(LOG_INFO, "sound %s: fixed, loaded from %s", s->name, s->src);
    log_event("sound_loaded",
              "\"name\":\"%s\",\"file\":\"%s\",\"frames\":%u,\"channels\":%u,\"rate\":%u,\"ms\":%.1f,\"reload\":%s",
              s->name, ef, view.frames, view.channels, view.rate, ms, s->loaded ? "true" : "false");
    s->loaded = 1;
    s->failed = 0;
}

static void install_decoded(SoundSlot *s)
{
    char path[HOST_PATH];
    decoded_path(s, path, sizeof path);
    size_t len = 0;
    char *buf = os_read_file(path, &len, thw_pcm_bytes(THW_MAX_FRAMES, 2));
    os_remove_file(path);
    install_pcm(s, buf, len, "the decoder wrote no readable output");
}

/* A release: every "sounds/<name>.pcm" in the archive, decoded when it was packed, loaded now. */
static void load_packed(void)
{
    static const char PREFIX[] = "sounds/", EXT[] = ".pcm";
    for (int i = 0; i < archive_count(); i++) {
        const char *entry = archive_name(i);
        size_t n = strlen(entry), pl = sizeof PREFIX - 1, el = sizeof EXT - 1;
        if (n <= pl + el || strncmp(entry, PREFIX, pl) != 0 || strcmp(entry + n - el, EXT) != 0) continue;
        char name[160];
        if (n - pl - el >= sizeof name) continue;
        memcpy(name, entry + pl, n - pl - el);
        name[n - pl - el] = 0;
        int k = slot_add(name);
        if (k < 0) continue;
        SoundSlot *s = &g_snd.slot[k];
        snprintf(s->src, sizeof s->src, "%s", entry);
        s->kind = SRC_PACKED;
        s->change_t = log_time();
        char err[512];
        size_t len = 0;
        char *buf = archive_read(entry, &len, thw_pcm_bytes(THW_MAX_FRAMES, 2), err, sizeof err);
        install_pcm(s, buf, len, err);
    }
}

static void child_poll(SoundSlot *s)
{
    child_drain(s);
    int code = 0, sig = 0;
    int r = os_child_poll(&s->child, &code, &sig);
    if (r == 0) return;
    child_drain(s);
    os_child_kill(&s->child);   /* ended: closes the pipe */
    memset(&s->child, 0, sizeof s->child);
    g_snd.running--;
    int stage = s->stage;
    s->stage = STAGE_IDLE;
    if (s->dirty) return;   /* saved again meanwhile: this result is already old */
    while (s->err_len > 0 && (s->err[s->err_len - 1] == '\n' || s->err[s->err_len - 1] == '\r'))
        s->err[--s->err_len] = 0;
    if (r < 0 || sig || code != 0) {
        char why[700];
        const char *tool = stage == STAGE_RENDER ? "make_sfx" : "sound_decode";
        if (sig) snprintf(why, sizeof why, "%s crashed on it (signal %d)", tool, sig);
        else if (!s->err[0]) snprintf(why, sizeof why, "cannot be decoded");
        else if (strncmp(s->err, s->src, strlen(s->src)) == 0 && s->err[strlen(s->src)] == ':')   /* "<file>:4: what" */
            snprintf(why, sizeof why, "line %s", s->err + strlen(s->src) + 1);
        else snprintf(why, sizeof why, "%s", s->err);
        sound_error(s, s->src, why);
        return;
    }
    if (stage == STAGE_RENDER) { child_start(s, STAGE_DECODE); return; }
    install_decoded(s);
}

/* ---------------------------------------------------------------- public: sound assets section of host.h */
void sound_assets_init(const char *root)
{
    memset(&g_snd, 0, sizeof g_snd);
    snprintf(g_snd.root, sizeof g_snd.root, "%s", root);
    if (archive_mounted()) { load_packed(); return; }
    char d[HOST_PATH];
    const char *game = g_host_mode.game_folder ? g_host_mode.game_folder() : NULL;
    char real_root[HOST_PATH];
    if (!os_real_path(root, real_root, sizeof real_root)) snprintf(real_root, sizeof real_root, "%s", root);
    if (game && strcmp(game, real_root) != 0 && strcmp(game, root) != 0) {   /* the game's own, first */
        snprintf(g_snd.game, sizeof g_snd.game, "%s", game);
        snprintf(d, sizeof d, "%s/assets/sfx", game);
        os_list_dir(d, scan_entry, d);
        snprintf(d, sizeof d, "%s/assets/sounds", game);
        os_list_dir(d, scan_entry, d);
    }
    snprintf(d, sizeof d, "%s/assets/sfx", root);
    os_list_dir(d, scan_entry, d);
    snprintf(d, sizeof d, "%s/assets/sounds", root);
    os_list_dir(d, scan_entry, d);
}

void sound_asset_changed(const char *path)
{
    char name[160];
    int kind, from_game;
    if (!sound_name_of(path, name, sizeof name, &kind, &from_game)) return;
    int i = slot_add(name);
    if (i < 0) return;
    SoundSlot *s = &g_snd.slot[i];
    if (!os_is_file(path)) {   /* deleted or renamed away */
        if (strcmp(s->src, path) != 0) return;
        s->dirty = 0;
        s->kind = SRC_NONE;
        sound_error(s, path, "the file is gone");
        return;
    }
    if (s->kind && s->from_game && !from_game) return;   /* the game's own hides the engine's */
    if (s->kind && !s->from_game && from_game) assets_note_override("sound", name, path, s->src);
    else if (s->kind == SRC_SFX && kind == SRC_FILE && strcmp(s->src, path) != 0) return;   /* the .sfx is the source */
    snprintf(s->src, sizeof s->src, "%s", path);
    s->kind = kind;
    s->from_game = from_game;
    s->dirty = 1;
    s->change_t = log_time();
}

void sound_require(const char *name)
{
    if (!name || !name[0]) return;
    int i = slot_add(name);
    if (i < 0) return;
    SoundSlot *s = &g_snd.slot[i];
    if (s->kind == SRC_NONE && !s->failed) {
        char where[HOST_PATH], why[HOST_PATH + 32];
        if (archive_mounted()) {
            snprintf(where, sizeof where, "sounds/%s.pcm", name);
            snprintf(why, sizeof why, "not in the archive %s", archive_path());
        } else {
            snprintf(where, sizeof where, "assets/sounds/%s.wav", name);
            snprintf(why, sizeof why,
                     "missing (nor .ogg, nor assets/sfx/<name>.sfx, in the game's folder or the engine's)");
        }
        sound_error(s, where, why);
    }
}

void sound_assets_update(void)
{
    for (int i = 0; i < g_snd.count; i++) if (g_snd.slot[i].child.pid) child_poll(&g_snd.slot[i]);
    for (int i = 0; i < g_snd.count && g_snd.running < SOUND_CHILDREN; i++) {
        SoundSlot *s = &g_snd.slot[i];
        if (!s->dirty || s->child.pid || s->kind == SRC_NONE || s->kind == SRC_PACKED) continue;
        s->dirty = 0;
        child_start(s, s->kind == SRC_SFX && !(s->dirty_from_scan && rendered_is_current(s)) ? STAGE_RENDER
                                                                                             : STAGE_DECODE);
        s->dirty_from_scan = 0;
    }
}

const char *sound_assets_status(void)
{
    static char line[480];
    int bad = 0;
    const SoundSlot *first = NULL;
    for (int i = 0; i < g_snd.count; i++)
        if (g_snd.slot[i].failed) { bad++; if (!first) first = &g_snd.slot[i]; }
    if (!first) return "";
    if (bad == 1) return first->problem;
    snprintf(line, sizeof line, "%.400s (and %d more)", first->problem, bad - 1);
    return line;
}

int sound_assets_pending(void)
{
    int n = 0;
    for (int i = 0; i < g_snd.count; i++) n += g_snd.slot[i].dirty || g_snd.slot[i].child.pid;
    return n;
}

void sound_assets_shutdown(void)
{
    for (int i = 0; i < g_snd.count; i++) {
        SoundSlot *s = &g_snd.slot[i];
        if (s->child.pid) os_child_kill(&s->child);
    }
}
