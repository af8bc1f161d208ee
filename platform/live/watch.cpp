/* watch.cpp - which files changed: the game's folder, platform/include/, tinyheaders/, assets/ and the game's build
   folder are watched (folders
   created or moved in later too), saves are debounced into one batch, editor noise is dropped.

   Build outputs are never changes: of the game's build folder only a library moved in by an outside build
   counts, and nothing else under <root>/build/ does (its chunks/chunk-N.cpp are written by every build that
   plans the chunks again: taken for a save, each started one more build), wherever the game's folder is.

   The debounce: a batch is handed over once no event came for WATCH_QUIET_S (an editor saving several
   files writes them within a millisecond or two) and no file of it is half written. Where the OS says
   when a writer closes a file (inotify's IN_CLOSE_WRITE), a file that was created or truncated-and-
   recreated stays "open" until it is closed, and a file renamed or deleted away stays "gone" until its
   new version arrives (an editor's rename-over save), up to WATCH_OPEN_MAX_S. Without close reports
   (Windows) the quiet time is the whole debounce, as long as a write burst can take. */
#include "live.h"

#include <string.h>

#if defined(OS_WATCH_REPORTS_CLOSE)
#define WATCH_QUIET_S 0.010
#else
#define WATCH_QUIET_S 0.030
#endif
#define WATCH_OPEN_MAX_S 0.500
#define WATCH_MAX_DIRS 512

static struct {
    int    open;
    int    id[WATCH_MAX_DIRS];
    char   dir[WATCH_MAX_DIRS][HOST_PATH];
    int    dir_count;
    char   root[HOST_PATH];
    char   build_root[HOST_PATH];   /* <real root>/build: what the engine's builds write */
    FileChanges pending;
    unsigned char incomplete[HOST_MAX_CHANGES];   /* per pending path: created and not closed yet, or gone */
    double last_event_t;
} g_watch;

static void watch_add_tree(const char *dir);

static int is_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return n && strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/' || path[n] == '\\');
}

/* A build's output: below the game's build folder, or anywhere below <root>/build/ - but for a game folder that
   itself lives below build/, whose sources are sources. */
static int is_build_output(const char *path)
{
    if (is_under(path, game_build_folder())) return 1;
    if (!is_under(path, g_watch.build_root)) return 0;
    return !(is_under(game_folder(), g_watch.build_root) && is_under(path, game_folder()));
}

static void add_subdir(void *ctx, const char *name, int is_dir)
{
    const char *dir = (const char *)ctx;
    if (name[0] == '.' || !is_dir) return;
    char sub[HOST_PATH];
    snprintf(sub, sizeof sub, "%s/%s", dir, name);
    watch_add_tree(sub);
}

static void watch_add_tree(const char *dir)
{
    if (g_watch.dir_count >= WATCH_MAX_DIRS) return;
    if (is_build_output(dir) && strcmp(dir, game_build_folder()) != 0) return; /* chunks/, loaded/, ...: not watched */
    int id = os_watch_add(dir);
    if (id < 0) return;
    for (int i = 0; i < g_watch.dir_count; i++) if (g_watch.id[i] == id) return;  /* already watched */
    g_watch.id[g_watch.dir_count] = id;
    snprintf(g_watch.dir[g_watch.dir_count], HOST_PATH, "%s", dir);
    g_watch.dir_count++;
    os_list_dir(dir, add_subdir, (void *)dir);
}

static void watch_add_all(void)
{
    const char *trees[] = { "platform/include", "tinyheaders", "assets" };
    for (const char *t : trees) {
        char p[HOST_PATH];
        snprintf(p, sizeof p, "%s/%s", g_watch.root, t);
        os_make_dir(p);
        watch_add_tree(p);
    }
    watch_add_tree(game_folder());
    watch_add_tree(game_build_folder());
}

int watch_init(const char *root)
{
    snprintf(g_watch.root, sizeof g_watch.root, "%s", root);
    char real[HOST_PATH];
    if (!os_real_path(root, real, sizeof real)) snprintf(real, sizeof real, "%s", root);
    snprintf(g_watch.build_root, sizeof g_watch.build_root, "%s/build", real);
    if (!os_watch_open()) {
        log_message(LOG_ERROR, "watch: cannot watch files: %s", os_error_text());
        return 0;
    }
    g_watch.open = 1;
    watch_add_all();
    return 1;
}

/* Once a frame: game code that closed or replaced the watcher's descriptor (close_range, dup2) left saves
   unseen. A new watch over the same folders; a save made while it was gone is not seen (the message says so). */
int watch_reopen_lost(void)
{
    if (!g_watch.open || !os_watch_lost()) return 0;
    g_watch.dir_count = 0;
    if (!os_watch_open()) {
        log_message(LOG_ERROR, "watch: cannot watch files again: %s", os_error_text());
        g_watch.open = 0;
        return 1;
    }
    watch_add_all();
    return 1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* Editors' swap and backup files are not changes to the project. */
static int is_noise(const char *name)
{
    return name[0] == '.' || ends_with(name, "~") || ends_with(name, ".swp") || ends_with(name, ".swx") ||
           ends_with(name, ".tmp") || strcmp(name, "4913") == 0;
}

static int is_code(const char *name)
{
    return ends_with(name, ".cpp") || ends_with(name, ".c") || ends_with(name, ".h") ||
           ends_with(name, ".hpp") || ends_with(name, ".inl");
}

/* Under <root>/assets/ or <game>/assets/ - judged from those folders, so a folder named "assets" above them
   means nothing. */
int watch_is_asset(const char *path)
{
    const char *roots[] = { g_watch.root, game_folder() };
    for (const char *r : roots) {
        size_t n = strlen(r);
        if (strncmp(path, r, n) == 0 && strncmp(path + n, "/assets/", 8) == 0) return 1;
    }
    return 0;
}

static void watch_note(const char *dir, const char *name, unsigned flags);

/* The library just moved in is the host's own build's: that build is still running (its end not handled yet)
   or the library is the one it loaded. Only an outside build's library is a change to hand over; the host's
   own would hold up the next save's batch (a batch with a library waits for the frame's end) for nothing. */
static int library_is_ours(void)
{
    if (build_running()) return 1;
    OsFileStamp st;
    const OsFileStamp *own = &build_status()->built_stamp;
    return os_file_stamp(library_built_path(), &st) && os_same_stamp(&st, own) && st.size == own->size;
}

static void note_moved_in(void *ctx, const char *name, int is_dir)
{
    if (name[0] != '.') watch_note((const char *)ctx, name, OS_WATCH_MOVED_IN | (is_dir ? OS_WATCH_IS_DIR : 0));
}

static void watch_note(const char *dir, const char *name, unsigned flags)
{
    char path[HOST_PATH];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (strcmp(dir, game_build_folder()) != 0 && is_build_output(path)) return;   /* below the build folder's top */
    if ((flags & OS_WATCH_IS_DIR) && (flags & (OS_WATCH_CREATED | OS_WATCH_MOVED_IN))) {
        /* a folder moved in arrives whole: its files were never seen being written */
        if (is_build_output(path)) return;   /* the build folder's chunks/, loaded/ */
        watch_add_tree(path);
        os_list_dir(path, note_moved_in, path);
        return;
    }
    if (flags & OS_WATCH_IS_DIR) return;
    FileChanges *p = &g_watch.pending;
    if (strcmp(dir, game_build_folder()) == 0) {
        if (strcmp(name, OS_LIB_PREFIX "game" OS_LIB_SUFFIX) == 0 && (flags & OS_WATCH_MOVED_IN) &&
            !library_is_ours()) {
            if (!p->count && !p->library) {
                p->first_seen_t = os_mono_seconds();
                p->first_seen_wall = os_wall_seconds();
            }
            p->library = 1;
        }
        if (p->library) g_watch.last_event_t = os_mono_seconds();   /* an outside build still writing */
        return;
    }
    if (is_noise(name)) return;
    if (watch_is_asset(path)) p->assets = 1;
    else if (is_code(name)) p->code = 1;
    else return;
    double now = os_mono_seconds();
    if (!p->count && !p->library) { p->first_seen_t = now; p->first_seen_wall = os_wall_seconds(); }
    g_watch.last_event_t = now;
    int i = 0;
    while (i < p->count && strcmp(p->paths[i], path) != 0) i++;
    if (i == p->count) {
        if (p->count >= HOST_MAX_CHANGES) return;
        snprintf(p->paths[p->count++], HOST_PATH, "%s", path);
        g_watch.incomplete[i] = 0;
    }
    if (flags & OS_WATCH_GONE) g_watch.incomplete[i] = 1;
#if defined(OS_WATCH_REPORTS_CLOSE)
    else if (flags & OS_WATCH_CREATED) g_watch.incomplete[i] = 1;   /* empty until its writer closes it */
    else if (flags & (OS_WATCH_CLOSED | OS_WATCH_MOVED_IN)) g_watch.incomplete[i] = 0;
#else
    else if (flags & (OS_WATCH_CREATED | OS_WATCH_MOVED_IN)) g_watch.incomplete[i] = 0;
#endif
}

static void on_watch_event(void *ctx, int id, const char *name, unsigned flags)
{
    (void)ctx;
    for (int i = 0; i < g_watch.dir_count; i++)
        if (g_watch.id[i] == id) { watch_note(g_watch.dir[i], name, flags); break; }
}

/* Seconds until the pending batch may be handed over (0: now), or -1 if nothing is pending. */
double watch_due_in(void)
{
    const FileChanges *p = &g_watch.pending;
    if (!g_watch.open || !(p->count || p->library)) return -1;
    int incomplete = 0;
    for (int i = 0; i < p->count; i++) incomplete |= g_watch.incomplete[i];
    double due = g_watch.last_event_t + (incomplete ? WATCH_OPEN_MAX_S : WATCH_QUIET_S) - os_mono_seconds();
    return due > 0 ? due : 0;
}

static int watch_take(FileChanges *out, int code_only)
{
    if (!g_watch.open) return 0;
    os_watch_read(on_watch_event, NULL);
    if (code_only && (g_watch.pending.assets || g_watch.pending.library)) return 0;
    if (watch_due_in() == 0) {
        FileChanges *p = &g_watch.pending;
        *out = *p;
        memset(p, 0, sizeof *p);
        return 1;
    }
    return 0;
}

/* After a hot restart: a file saved while no watcher listened (the old process about to exec, this one not
   watching yet) or seen by the old process but not built, is taken as saved now: every watched file written
   after `since_wall` goes into the pending batch, as its save would have. Returns how many. */
typedef struct CatchUp { const char *dir; double since; int count; char first[HOST_PATH]; } CatchUp;

static void catch_up_entry(void *ctx, const char *name, int is_dir)
{
    CatchUp *c = (CatchUp *)ctx;
    if (is_dir || is_noise(name) || !is_code(name)) return;
    char path[HOST_PATH];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    OsFileStamp st;
    if (is_build_output(path) || !os_file_stamp(path, &st) || (double)st.mtime_ns / 1e9 <= c->since) return;
    watch_note(c->dir, name, OS_WATCH_CLOSED);
    if (!c->count++) snprintf(c->first, sizeof c->first, "%s", path);
}

int watch_catch_up(double since_wall, char *first, size_t cap)
{
    CatchUp c;
    memset(&c, 0, sizeof c);
    c.since = since_wall;
    for (int i = 0; g_watch.open && i < g_watch.dir_count; i++) {
        c.dir = g_watch.dir[i];
        os_list_dir(g_watch.dir[i], catch_up_entry, &c);
    }
    snprintf(first, cap, "%s", c.first);
    return c.count;
}

/* The wall time of the oldest save not handed over yet (0: none pending). */
double watch_pending_since(void)
{
    const FileChanges *p = &g_watch.pending;
    return g_watch.open && (p->count || p->library) ? p->first_seen_wall : 0;
}

int watch_poll(FileChanges *out) { return watch_take(out, 0); }
int watch_poll_code(FileChanges *out) { return watch_take(out, 1); }

void watch_shutdown(void)
{
    os_watch_close();
    g_watch.open = 0;
}
