/* host.h - declarations shared by the host's own files (platform/ and its module folders). Not seen by the game.

   The host in layers, lowest first (docs/design.md, "The host's layers"); a file calls into its own folder and
   the folders before it, never after:
   os/        the operating system: os.h, the only seam (os_linux.cpp on Linux; os_win32.cpp and
              os_win32_guard.cpp on Windows; os_web.cpp in a browser, web/shell.html its page; os_template.cpp
              where a new port starts); os_common.cpp what they share; os_service_gate.h the watchdog's
              deferred interrupt both fault backends follow. Nothing else includes system headers.
   core/      what every module uses:
     log.cpp      log lines, JSON-lines events, the game's log/event/time services
     parse.cpp    reading outside input: flags, input scripts, recording headers, JSON escaping
     profile.cpp  the frame profiler: zones (th_profile.h), the game's zone service, --profile and Shift+F4
                  traces, the flame-chart view
     stb_impl.c   stb's implementations (images, rectangle packing, TrueType), compiled in every build
   services/  what the game calls through PlatformAPI:
     render.cpp   drawing services (sprite batch, text, camera, screenshots); render_internal.h holds what it
                  shares with assets.cpp and font.cpp
     assets.cpp   what is loaded from disk for drawing: atlas pages, the packer child
     archive.cpp  where asset bytes come from: the project's files, or (a release) the archive beside the executable
     font.cpp     the text font: checked, baked on a worker, installed
     audio.cpp    the audio device and the mixer behind the game's sound services
     sound_assets.cpp  sound files (WAV, OGG, .sfx) found, decoded in a child process, reloaded on save
     input.cpp    SDL events and --input scripts -> GameInput; the hot keys
     savedata.cpp the game's save data: named blobs in the user's data folder (or --save-dir)
     window.cpp   the window: the game's title, fullscreen, Quit, focus
     notice.cpp   short messages along the bottom of the screen (a corrupt save, a failed asset)
   session/   the running game kept safe (both builds):
     memory.cpp   the game's memory block and the snapshot taken before new code runs
     guard.cpp    running library code guarded: faults and the watchdog (nothing else)
     migrate.cpp  the state across a layout change: the libraries' descriptions of their state, the rewrite
                  of the block from one layout to the next (th_reflect.h)
     record.cpp   the F7 input loop and --record/--replay files
     restart.cpp  the hot restart: the session (block, snapshot, bookkeeping) in a memfd, the host re-executed
                  with it when the process cannot go on safely
   live/      save to new code (development only):
     watch.cpp    debounced batches of changed source/asset files
     build.cpp    the game build in a child process (build.sh game), its output and errors
     game_folder.cpp which game runs (--game DIR): its folder, its build folder, its name
     library.cpp  one game library: versioned copy, open, resolve the entry point, close, verify unmapped
     reload.cpp   the reload policy: build finished -> copy -> load -> stamp check -> snapshot -> swap ->
                  verify unload; crash rollback; the calls into the running game
     tweak.cpp    live TWEAK() literal values from the game sources
   devtools/  what the developer sees:
     overlay.cpp  the F1 overlay, crash and build-error panels
     tweak_panel.cpp  the F4 tweak panel: every TWEAK site read, edited with the mouse, written back into its literal
   platform/ itself:
     main.cpp     the frame loop: poll input, watch/build/reload, fixed steps, render, present
     develop.cpp  the development host's side of HostMode: the project folder, the hot restart's session, watch ->
                  build -> reload polling, F5, TWEAK
     release.cpp  a release (-DHOST_RELEASE): the game linked in, assets from the archive, HostMode's stand-ins
     host.h       this file */
#ifndef HOST_H
#define HOST_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "game_api.h"
#include "os/os.h"

struct SDL_Renderer;
union SDL_Event;

#define HOST_PATH 1024

/* ---------------------------------------------------------------- reading outside input (parse.cpp) */
#define MAX_SCREENSHOTS 32

typedef struct Options {
    char        root[1024];
    const char *game;            /* --game: the game's folder (NULL: <root>/game) */
    uint64_t    memory_mb;
    int         headless;
    int64_t     frames;          /* exit after this many frames; -1 = run until quit */
    const char *log_json;
    const char *log_file;
    const char *frame_log;
    int         shot_count;
    int64_t     shot_frame[MAX_SCREENSHOTS];
    const char *shot_path[MAX_SCREENSHOTS];
    const char *input_path;
    const char *record_path;
    const char *replay_path;
    const char *font_path;
    const char *build_cmd;       /* the game build's command line; NULL = build.sh game (build.bat game on Windows) */
    int         build_game;      /* --build-game: compile and link the game library by compile.cmd, then exit */
    int         print_game_build;/* --print-game-build: print the game's build folder, then exit */
    int         watch;
    int         fast;            /* one fixed step per frame, no waiting for the clock */
    double      watchdog_s;
    int         window_w, window_h;
    const char *save_dir;        /* --save-dir: where save data lives (default: the user's data folder) */
    int         dev_keys;        /* --dev-keys: F1-F9 and F12 in a release (always on in development) */
    const char *profile_path;    /* --profile PATH: the first profile_frames frames as a Chrome trace */
    int         profile_frames;  /* --profile-frames N (default 120); also what Shift+F4 captures */
} Options;

typedef struct ScriptEvent { uint64_t step; int kind; int key; float a, b; } ScriptEvent;
enum { SCRIPT_DOWN, SCRIPT_UP, SCRIPT_TAP, SCRIPT_MOUSE, SCRIPT_AXIS, SCRIPT_QUIT };

/* A recording file: this header, the snapshot, then one GameInput per step to the end. */
#define RECORDING_HEADER_BYTES 48
typedef struct RecordingHeader {
    uint32_t api, layout_hash;
    uint64_t state_size, snapshot_bytes, start_step;
    uint64_t steps;              /* filled by the parser from the file length */
    uint64_t snapshot_hash;      /* th_hash_bytes64 of the snapshot: flipped bytes in it are found, not replayed */
} RecordingHeader;

typedef struct RefusedFlag { const char *flag, *why; } RefusedFlag;
typedef struct FlagSet {         /* the flags one build takes: the development host's or a release's */
    const char        *program;  /* the name --help shows; NULL: the executable's own (a player sees the game's) */
    const char        *help;     /* the flags' lines for --help */
    const RefusedFlag *refused;  /* flags refused by name, and why; ends with { NULL, NULL } */
} FlagSet;
extern const FlagSet FLAGS_DEVELOPMENT, FLAGS_RELEASE;

void        parse_flags_usage(const FlagSet *set, const char *exe_path, FILE *f);  /* --help; exe_path may be NULL */
int         parse_flags(int argc, char **argv, const FlagSet *set, Options *o, char *err, size_t cap); /* 1 ok, 0 error,
                                                                            2 --help; set NULL: refuse none */
const char *parse_key_name(int key);
int         parse_key_by_name(const char *name);                                     /* KEY_NONE if unknown */
int         parse_script(const char *text, const char *name, ScriptEvent **out, int *count, char *err, size_t cap);
void        parse_recording_header_write(uint8_t out[RECORDING_HEADER_BYTES], const RecordingHeader *h);
int         parse_recording_header(const uint8_t *data, size_t len, RecordingHeader *h, char *err, size_t cap);
typedef struct RecordingExpect { uint32_t api, layout_hash; uint64_t state_size, block_size; } RecordingExpect;
int         parse_recording(const uint8_t *data, size_t len, const RecordingExpect *want, RecordingHeader *h,
                            char *err, size_t cap);                              /* header, layout, size, every step */
int         parse_recording_input(const GameInput *gi, char *err, size_t cap);   /* one step as live input makes it */
void        parse_json_escape(const char *in, char *out, size_t cap);            /* for strings inside event fields */
int         parse_event_fields(const char *in, char *out, size_t cap, const char **why); /* a game event's fields:
                                  the inside of a JSON object, one line, none of the line's own keys; 1 + out, or 0 + why */

/* ---------------------------------------------------------------- the frame loop (main.cpp) */
typedef struct FrameLoop {
    int      quit;
    int      paused, single_step;        /* F8, F9 */
    int      want_screenshot;            /* F12 */
    uint64_t frame;                      /* frames drawn since start */
    uint64_t step;                       /* fixed steps run since start */
} FrameLoop;

extern Options     g_options;            /* the command line */
extern FrameLoop   g_loop;
extern PlatformAPI g_pf;                 /* the services handed to the game on every call */
const char *host_root(void);             /* g_options.root: the project root, no trailing slash */

/* ---------------------------------------------------------------- development or release (develop.cpp, release.cpp) */
/* What only the development host has - the project folder, the game's folder, the hot restart's session, watching,
   building and reloading, F5, TWEAK - behind one table. develop.cpp fills it with the real services, release.cpp with a
   release's stand-ins; the frame loop calls through it and never asks which build it is. Each table is filled
   from this one list by name (develop_<name>, release_<name>), so a table missing one does not compile. */
typedef struct ReloadPoll {
    int build_finished;          /* a build child exited (and its library was loaded, or refused) */
    int step_now;                /* new code was loaded or TWEAK values went live: run a step at once */
} ReloadPoll;

#define HOST_MODE_SERVICES(X)                                                                                         \
    X(int,        start,       (int argc, char **argv, char *err, size_t cap)) /* the root, the defaults of the     \
                                                     build's flags, the session a hot restart handed over; 0 + why */ \
    X(int,        start_game,  (int argc, char **argv)) /* the first game: 1 resumed after a hot restart, 0 started,  \
                                                     -1 stop (too many restarts) */                                   \
    X(void,       fill_api,    (PlatformAPI *pf))      /* tweak */                                                    \
    X(void,       frame_begin, (void))                 /* between frames: a hot restart that was asked for */        \
    X(ReloadPoll, poll,        (void))                 /* saved files and a finished build, handled */                \
    X(void,       pump,        (void))  /* within a frame: saved code handed to the build, a finished compile's link \
                                           started; never a reload or an asset (those wait for poll) */              \
    X(void,       wake_on,     (int fds[2], double *due_in)) /* what ends the wait between frames early */           \
    X(void,       rebuild,     (void))                 /* F5 */                                                       \
    X(void,       frame_end,   (void))                 /* the frame is done: the hot restart's session notes it */   \
    X(void,       shutdown,    (void))                 /* the build child, the watcher, the library, TWEAK */        \
    X(const char *, game_folder, (void))               /* where the game's files are read first (a release: root) */ \
    X(const char *, game_build_folder, (void))         /* its build outputs (a release: NULL) */                      \
    X(const char *, game_name,   (void))  /* the game folder's name, the window's and save data's until the game     \
                                             names itself; NULL in a release (one game: its title or "game") */       \
    X(void,       save_folder, (const char *app, const char **org, const char **name)) /* SDL_GetPrefPath's words */

#define HOST_MODE_FIELD(ret, name, args) ret (*name) args;
#define HOST_MODE_DEVELOP(ret, name, args) develop_##name,
#define HOST_MODE_RELEASE(ret, name, args) release_##name,
typedef struct HostMode {
    const FlagSet *flags;        /* the flags it takes (parse.cpp) */
    HOST_MODE_SERVICES(HOST_MODE_FIELD)
} HostMode;

extern const HostMode g_host_mode;

/* ---------------------------------------------------------------- log and events (log.cpp) */
int         log_open(void);                                           /* the files named by g_options; 0 + message */
void        log_close(void);
int         log_reopen_lost(char *what, size_t cap);                  /* logs game code closed: re-opened, named */
void        log_frame_line(double work_ms, int sprites, int draw_calls);  /* --frame-log */
void        log_fill_api(PlatformAPI *pf);                            /* log, event, time_seconds */
void        log_drain_game(void);   /* the game's log lines and events, queued during its calls, written now */
void        log_message(int level, const char *fmt, ...);             /* console + log file + event log */
void        log_event(const char *ev, const char *fields_fmt, ...);   /* one JSON line: {"t":..,"ev":ev,<fields>} */
double      log_time(void);                                           /* seconds since start */

/* ---------------------------------------------------------------- the game's folder (game_folder.cpp) */
const char *game_folder(void);        /* real path of the game's folder (--game; <root>/game by default) */
const char *game_build_folder(void);  /* its build outputs: <root>/build/game, or build/games/<name>-<hash> */
const char *game_folder_name(void);   /* the folder's name: the window's title until the game sets one */

/* ---------------------------------------------------------------- memory block and snapshots (memory.cpp) */
typedef struct Memory {
    GameMemory game;
    uint8_t   *snapshot;          /* same size as the block, reserved lazily by the OS */
    uint64_t   snapshot_used;     /* 0 = no snapshot */
    uint64_t   snapshot_step;
    uint64_t   snapshot_faulted;  /* bytes of the snapshot area already touched */
} Memory;

extern Memory g_memory;

int      memory_init(uint64_t bytes);
uint64_t memory_used(void);                /* the game's high-water mark, clamped to the block */
GameMemory memory_lend(void);              /* a copy of the block's description, for one call into the game */
void     memory_take_back(const GameMemory *lent); /* after the call: only `used` comes back, clamped */
void     memory_reset(void);               /* zero the used part: a fresh state */
uint64_t memory_hash(void);                /* of the used part (replay checks) */
void     memory_snapshot_prefault(void);   /* touch a little more of the snapshot area each frame */
double   memory_snapshot_take(uint64_t step); /* returns ms */
void     memory_snapshot_restore(void);
void     memory_make_writable(void);       /* before the host writes the block: the game may have protected it */
double   memory_tweak_snapshot_take(void);  /* the state before a TWEAK value goes live (ms; -1: no memory) */
int      memory_tweak_snapshot_restore(void); /* 0 if none was taken */

typedef struct PointerHit { uint64_t state_offset; uintptr_t value; int range; } PointerHit;
/* words of the used block, at any byte offset, whose value lies inside one of the ranges; returns how
   many (the first max are stored, in address order) */
int      memory_find_pointers(const OsRange *ranges, int range_count, PointerHit *hits, int max);

/* ---------------------------------------------------------------- guarded calls (guard.cpp) */
typedef enum GuardWhat {
    GUARD_LOAD, GUARD_UPDATE, GUARD_RENDER, GUARD_MIGRATE, GUARD_STATS,
    GUARD_OPEN,                  /* dlopen: the library's static initializers */
    GUARD_GET_API,               /* game_get_api() */
    GUARD_UNLOAD                 /* dlclose: the library's static destructors */
} GuardWhat;
extern const char *const GUARD_NAMES[];

typedef struct GuardReport {     /* the last guarded call that did not return normally */
    GuardWhat what;
    OsFault   fault;
} GuardReport;

extern GuardReport g_guard_report;

void        guard_init(double watchdog_s);
int         guard_run(GuardWhat what, void (*fn)(void *), void *arg);   /* 0 returned; 1 crashed or hung */
const char *guard_fault_name(void);                                     /* "SIGSEGV", "hang", ... */
void        guard_describe_backtrace(const char *lib_path, char *out, size_t cap); /* "fn (file:line) <- ..." */
void        guard_wrap_services(PlatformAPI *pf);   /* each service finishes before a watchdog interrupt lands; a NULL one is logged */
int         guard_missing_services(const PlatformAPI *pf, char *out, size_t cap);  /* how many are NULL, their names in out */
void        guard_service_enter(void);              /* the same by hand, for services with varargs */
void        guard_service_leave(void);

/* guarded(GUARD_UPDATE, [&] { ... }): the lambda runs under guard_run. */
template <class F> static inline int guarded(GuardWhat what, F f)
{
    return guard_run(what, [](void *p) { (*(F *)p)(); }, &f);
}

/* ---------------------------------------------------------------- watching (watch.cpp) */
#define HOST_MAX_CHANGES 64

typedef struct FileChanges {            /* one debounced batch of changed files */
    int  count;
    int  code;                          /* 1 if a game/ or tinyheaders/ source file is among them */
    int  assets;                        /* 1 if something under assets/ is among them */
    int  library;                       /* 1 if the game build folder's libgame.so was replaced by an outside build */
    double first_seen_t;                /* when the watcher read the batch's first event (os_mono_seconds) */
    double first_seen_wall;             /* the same on the wall clock (events) */
    char paths[HOST_MAX_CHANGES][HOST_PATH];
} FileChanges;

int    watch_init(const char *root);            /* the game folder, platform/include/, tinyheaders/, assets/, its build folder */
int    watch_poll(FileChanges *out);            /* 1 when a debounced batch is ready */
int    watch_poll_code(FileChanges *out);       /* the same, for a batch of code alone (no asset, no library) */
double watch_due_in(void);                      /* seconds until the pending batch is ready (0 now), -1: none */
int    watch_is_asset(const char *path);        /* 1 if path is under <root>/assets/ */
void   watch_shutdown(void);
int    watch_reopen_lost(void);
int    watch_catch_up(double since_wall, char *first, size_t cap); /* code written after since_wall: pending; count */
double watch_pending_since(void);               /* the oldest save not handed over yet (wall clock); 0 */                 /* the watcher's descriptor closed by game code: a new watch, 1 */

/* ---------------------------------------------------------------- building (build.cpp) */
typedef struct BuildResult {
    int    finished;                    /* 1 on the frame the build child exited */
    int    ok;
    double ms;
    int    error_count;
    char   output[8192];                /* compiler output (truncated) */
} BuildResult;

void   build_start(const char *root);           /* runs "build.sh game" in a child; a running build queues one more */
int    build_running(void);
int    build_fd(void);                          /* readable when the build child writes or ends; -1 */
void   build_poll(BuildResult *out);            /* non-blocking */
int    build_game_now(const char *root);        /* --build-game: the same compile and link, waited for; 1 when done */
void   build_pump(void);                        /* within a frame: the next stage started, the end kept for build_poll */
int    build_ended(void);                       /* 1: build_pump saw the build end, build_poll has not finished it */
void   build_shutdown(void);
int    build_restart_lost(void);                /* a running build's pipe closed by game code: it starts again, 1 */

/* One error line of a build's output: a line holding ": error" or "fatal error", with its location when
   it has one, "file:line:col: error: message" (gcc, clang) or "file(line): error C1234: message" (MSVC);
   a linker's error has none (line 0, message = the whole line). */
typedef struct BuildError {
    const char *text;                   /* the line in the output, len bytes, no newline */
    size_t      len;
    char        file[512];
    int         line, col;              /* 0 when not given */
    char        message[1024];
} BuildError;
int    build_next_error(const char **cursor, BuildError *e);  /* the next one from *cursor on; 0 at the end */
void   build_error_summary(const char *output, char *out, size_t cap);  /* the first 6, for the overlay */

/* ---------------------------------------------------------------- one game library (library.cpp) */
typedef struct GameLib {
    void   *handle;
    GameAPI api;
    int     version;                    /* 1, 2, 3... in load order */
    char    path[HOST_PATH];            /* the versioned copy that was opened */
} GameLib;

const char *library_built_path(const char *root);                  /* <game build folder>/libgame.so (root: unused) */
int    library_open(const char *src, int version, GameLib *out, char *err, size_t errcap); /* copy, open, resolve:
                                                      1 ok; 0 refused (err says why); -1 its code crashed or hung
                                                      (g_guard_report says where, err the backtrace) */
int    library_close(GameLib *lib, char *err, size_t errcap);       /* close + unmapped check; 0 if still mapped */
int    library_is_mapped(const char *path);

/* ---------------------------------------------------------------- reload policy and the running game (reload.cpp) */
/* A release's release.cpp has its own reload_init/start/run_load/restart_state/on_crash and reload_call_*: the
   game linked in, a crash reported and the game ended. */
typedef struct GameRun {         /* which library runs, and what a rollback returns to */
    int      loaded;             /* a library is loaded */
    int      halted;             /* crashed with nothing to roll back to: wait for a fix */
    int      fresh;              /* the current library has not run an update yet */
    int      code_of_version;    /* the version whose code runs: g_lib.version, or after a rollback the one rolled back to */
    int      version_counter;
    char     prev_good_path[HOST_PATH];  /* a copy of the library that ran before this one */
    int      prev_good_version;
    double   last_reload_t;
    char     pointer_warning[1024]; /* the state held pointers into an unloaded library (overlay) */
    uint32_t snap_layout_hash;   /* the layout of the crash snapshot: the old one after a migration */
    uint64_t snap_state_size;
    int      load_migrated;      /* the next load is told the state was migrated */
    char     migrate_what[4096]; /* the last migration: what changed (JSON-escaped), by what, how long */
    char     migrate_how[16];
    double   migrate_ms;
} GameRun;

typedef struct BuildStatus {     /* the game library's builds, as the frame loop and the overlay see them */
    int      running;            /* a build is compiling */
    double   last_ms;
    int      last_ok;
    double   frame_max_ms;       /* the longest frame while it compiled */
    char     errors[4096];       /* first errors of the last failed build, for the overlay */
    OsFileStamp built_stamp;     /* the libgame.so our own build produced last */
    double   change_seen_t;      /* when the watcher delivered the save that led to this build */
} BuildStatus;

typedef struct CrashReport {     /* the last crash or hang of game code, for the overlay; cleared by a load */
    char     text[2048];         /* "" = none */
    int      hung;               /* the watchdog stopped it (a hang), not a fault */
} CrashReport;

typedef struct BlockLayout {     /* the layout of the state in the memory block (kept while halted on the stub) */
    int      known;              /* the block holds state laid out by some library ... */
    uint32_t layout_hash;        /* ... with this stamp and size */
    uint64_t state_size;
} BlockLayout;

extern GameRun     g_reload;
extern BuildStatus g_build_status;
extern CrashReport g_crash;
extern BlockLayout g_block_layout;
extern GameLib     g_lib;        /* the running library */
extern GameAPI     g_api;        /* its entry points (a stub until a library loads) */

void reload_init(void);                          /* the stub game until a library loads */
int  reload_from(const char *src, const char *why);
void reload_start(void);                         /* load the game's libgame.so, or build it */
int  reload_handle_changes(const FileChanges *c);  /* 1 if TWEAK values went live (step them at once) */
void reload_handle_build(const BuildResult *b);
void reload_restart_state(void);                 /* F6 */
void reload_on_crash(GuardWhat what);            /* roll back to the last good code and state */
int  reload_call_update(const GameInput *gi);    /* 1 if it crashed (already rolled back) */
int  reload_call_render(float alpha);
void reload_call_stats(char *buf, int cap);      /* "" when there are none */

/* ---------------------------------------------------------------- the state across a layout change (migrate.cpp) */
typedef struct StateTypes {      /* a library's description of its state, copied out of its image */
    uint64_t *blob;              /* th_reflect.h's table (malloc'ed), NULL if none */
    size_t    size;
    int       valid;             /* checked by thr_read and against state_size */
    int       has_default;
    char      error[320];        /* why not valid */
    uint32_t  layout_hash;
    uint64_t  state_size;
} StateTypes;

extern StateTypes g_mem_types;   /* the layout the block holds */
extern StateTypes g_snap_types;  /* the layout of the crash snapshot */

void types_take(const GameAPI *api, StateTypes *out);   /* copy the table out of a loaded library and check it */
void types_copy(StateTypes *dst, const StateTypes *src);
void types_clear(StateTypes *t);
int  types_save(const StateTypes *t, const char *path);   /* the table alone, beside a --record file; 0 if none */
int  types_load(const char *path, uint32_t layout_hash, uint64_t state_size, StateTypes *out);  /* read + check */
void types_blame_size(const StateTypes *t, const char *state_header, char *out, size_t cap); /* "state.h:25": what made it big */
/* old (old_used bytes, laid out as from) -> out (to's layout, out_cap bytes); 1 + what changed, or 0 + why not */
int  migrate_bytes(const StateTypes *from, const StateTypes *to, const GameAPI *api, const uint8_t *old, uint64_t old_used,
                   uint8_t *out, uint64_t out_cap, char *what, size_t cap);
/* the block itself, through a scratch area: swapped in only when every field had a rule */
int  migrate_block(const StateTypes *from, const StateTypes *to, const GameAPI *api, char *what, size_t cap, double *ms);

/* ---------------------------------------------------------------- recording (record.cpp) */
typedef enum LoopMode { LOOP_OFF, LOOP_RECORDING, LOOP_PLAYING } LoopMode;

LoopMode recording_mode(void);
void     recording_toggle_loop(void);                 /* F7 */
void     recording_stop(void);                        /* back to live play */
void     recording_step(GameInput *gi);               /* records or replaces this step's input */
int      recording_file_open(const char *path);       /* --record */
int      recording_file_load(const char *path);       /* --replay */
void     recording_close(void);
/* new code, new layout: the F7 loop's start is migrated (or the loop ends); a --record file ends */
void     recording_layout_changed(const StateTypes *from, const StateTypes *to, const GameAPI *api);
void     recording_resume(void);                      /* after a hot restart: the F7 loop as it was */
void     reload_run_load(int migrated);               /* the running library's load hook, guarded */

/* ---------------------------------------------------------------- input (input.cpp) */
int       input_init(void);                           /* --input script; 0 + message on a bad script */
void      input_handle_event(const union SDL_Event *e);
GameInput input_step(uint64_t step, float dt);        /* the input of one fixed step (scripts applied) */

/* ---------------------------------------------------------------- overlay (overlay.cpp) */
typedef struct RenderStats {
    int sprites;      /* submissions this frame */
    int batches;      /* (layer, page) runs */
    int draw_calls;   /* SDL_RenderGeometry calls */
} RenderStats;

void overlay_toggle(void);
void overlay_note_frame(double work_ms);
void overlay_draw(RenderStats rs, double fps);

/* ---------------------------------------------------------------- rendering (render.cpp, assets.cpp, font.cpp) */
int         render_init(SDL_Renderer *r, int view_w, int view_h, const char *font_path); /* 0 on failure */
void        render_shutdown(void);
void        render_fill_api(PlatformAPI *pf);           /* draw_sprite, draw_rect, draw_text, read_file ... */
void        render_begin_frame(void);                   /* clears the submission buffer */
RenderStats render_end_frame(void);                     /* sorts, batches and draws what was submitted */
void        render_between_batches(void (*fn)(void));   /* called after each batch is drawn (the host's pump) */
int         render_screenshot(const char *png_path);    /* reads the back buffer; 0 on failure */
void        render_camera(float *x, float *y, float *zoom); /* the game's camera: screen = (world - xy) * zoom */
void        render_safe_area(float *x, float *y, float *w, float *h);  /* where host banners go (set_safe_area; else the view) */
double      render_glow_ms(void);                       /* the last frame's glow pass (0: none) */
void        render_glow_seen(int seen);                 /* 0: this frame is never shown (headless, no screenshot): no glow pass */
void        assets_file_changed(const char *path);      /* assets.cpp: a file under assets/ changed (absolute path) */
void        assets_note_override(const char *kind, const char *name, const char *game_file, const char *engine_file);
                                                        /* a name in the game's assets/ and the engine's: said once */
void        assets_update(void);                        /* once per frame: finish pending asset reloads */

/* ---------------------------------------------------------------- asset bytes (archive.cpp) */
int         archive_mount(const char *path, char *err, size_t cap);  /* a release: all asset reads come from it; 0 + why */
void        archive_unmount(void);
int         archive_mounted(void);
const char *archive_path(void);
int         archive_count(void);                        /* files in the mounted archive (0 if none) */
const char *archive_name(int i);
/* The one asset reader: a file path in development, a name inside the archive once one is mounted.
   malloc'ed and NUL-terminated; NULL and why in err. */
char       *archive_read(const char *path, size_t *len, size_t max_bytes, char *err, size_t cap);

/* ---------------------------------------------------------------- tweakables (tweak.cpp) */
void        tweak_query(const char *file, int line, int counter, int kind, const char *literal, void *value_inout);
int         tweak_file_changed(const char *path);       /* 1: only TWEAK literals changed and are live; 0: rebuild;
                                                           2: the host's own write-back (nothing to do) */
void        tweak_build_started(void);                  /* snapshot the sources the build compiles */
void        tweak_build_finished(int ok);               /* 0: its snapshot will never be loaded */
void        tweak_library_loaded(int version, int code_of_version); /* baselines: the sources of the last build
                                                           (code_of_version 0) or of an earlier version (rollback) */
void        tweak_library_resumed(int version, int code_of_version); /* after a hot restart: the baseline the
                                                           previous process kept for its version code_of_version */
void        tweak_shutdown(void);
void        tweak_batch_begin(void);                    /* a watcher batch: its live values are the next suspects */
int         tweak_batch_end(void);                      /* 1: values of this batch went live (the new suspects) */
void        tweak_suspects_clear(void);
void        tweak_suspects_resume(void);                /* after a hot restart: the suspects the session kept */
void        tweak_revert_suspects(char *what, size_t cap); /* serve the old values again; what: "file:line TWEAK(lit)" */
const char *tweak_status(void);                         /* the last live change, for the overlay ("" if none) */
/* The F4 panel's side (tweak.cpp): files and sites as the running code compiled them. */
typedef struct TweakSiteInfo {
    int     line, kind;                                 /* TWEAK_FLOAT ... TWEAK_SCREEN_POS */
    int     has_value;                                  /* value holds the literal (0: a macro name, compiled value) */
    uint8_t value[8];                                   /* float, int32, int32 0/1, uint32 colour, float[2] */
    char    source[160];                                /* the site's source line, trimmed */
} TweakSiteInfo;
int         tweak_file_count(void);
const char *tweak_file_path(int file);
int         tweak_site_count(int file);
int         tweak_site_info(int file, int site, TweakSiteInfo *out); /* 0 if the running code has not read it */
void        tweak_set_live(int file, int site, const void *value);  /* the next read returns it (in memory only) */
int         tweak_write(int file, int site, const void *value, int gesture, char *msg, size_t cap); /* live, and the
                                                           literal rewritten on disk in its style: 1; 0 + why not */
int         tweak_undo(int redo, char *msg, size_t cap);  /* Ctrl+Z / Ctrl+Y: the last write-back, on disk too */

/* ---------------------------------------------------------------- the tweak panel (tweak_panel.cpp, F4) */
int         tweak_panel_key(GameKey k, int down, int ctrl);  /* F4, Ctrl+Z/Y, the mouse and typing while open: 1 = taken */
int         tweak_panel_mouse(float x, float y);        /* every pointer move; 1 = the panel has it (not the game) */
void        tweak_panel_text(const char *utf8);         /* typed characters (SDL_TEXTINPUT) for a focused field */
int         tweak_panel_wheel(float dy);                /* 1 = it scrolled the panel (not the game's wheel) */
void        tweak_panel_draw(void);                     /* once per frame: a paused drag written back, the panel */

/* ---------------------------------------------------------------- sound (audio.cpp, sound_assets.cpp) */
int         audio_init(void);                           /* 0: no device, the game runs silent (logged once) */
void        audio_fill_api(PlatformAPI *pf);            /* sound_play, sound_stop, ... */
void        audio_update(void);                         /* once per frame: frees replaced sample buffers */
void        audio_shutdown(void);
int         audio_set_sound(int slot, float *samples, uint32_t frames, uint32_t channels, uint32_t rate); /* takes samples (malloc'ed) */
uint64_t    audio_frames_done(void);                    /* frames the device has mixed */
int         audio_voices_busy(void);

void        sound_assets_init(const char *root);        /* finds the files under assets/sounds and assets/sfx, queues their loads */
void        sound_asset_changed(const char *path);      /* a file under assets/ changed (absolute path) */
void        sound_assets_update(void);                  /* once per frame: runs and polls the decoder children */
int         sound_assets_pending(void);                 /* sounds waiting for or inside a child */
const char *sound_assets_status(void);                  /* a broken sound's message for the screen, "" if none */
void        sound_assets_shutdown(void);
void        sound_require(const char *name);            /* the game uses this sound: report it if it has no file */
int         sound_slot_of(uint32_t id);                 /* -1 if unknown */
const char *sound_slot_name(int slot);

/* ---------------------------------------------------------------- save data (savedata.cpp) */
void        savedata_fill_api(PlatformAPI *pf);         /* save, load */
const char *savedata_dir(void);                         /* the folder, once known ("" before the first use) */

/* ---------------------------------------------------------------- the window (window.cpp) */
void        window_attach(struct SDL_Window *win);      /* the window the services below act on */
void        window_fill_api(PlatformAPI *pf);           /* set_title, quit */
const char *window_title(void);                         /* what the game called itself ("" until it did) */
void        window_toggle_fullscreen(void);             /* F11, Alt+Enter */
int         window_handle_event(const union SDL_Event *e); /* 1 if the event was the window's (focus, keys) */
int         window_take_focus_lost(void);               /* 1 once after the window lost focus */

/* ---------------------------------------------------------------- hot restart (restart.cpp) */
typedef struct RestartResume {          /* what a restarted process goes on from (restart.cpp -> reload.cpp) */
    int         rollback;               /* the running code was at fault: its snapshot and the code before it */
    int         what;                   /* GuardWhat at the fault, -1 */
    const char *signal, *reason, *where;
    int         version_counter, running_version, prev_good_version;
    const char *running_path, *prev_good_path;
    int         mem_has_layout;
    uint32_t    mem_state_version;
    uint64_t    mem_state_size;
    int         restarts;
    double      since_fault_ms;
    uint64_t    step;                   /* the step at the fault */
} RestartResume;

typedef struct TweakKept { char path[HOST_PATH]; int site; uint8_t had_old; uint64_t old_value; } TweakKept;
typedef struct SessionTweak {           /* the TWEAK window, kept in the session (a hot restart goes back to it) */
    int      window;                    /* values went live at `step`: a crash soon after is theirs */
    uint64_t step, used;                /* used: bytes of the state copied just before they went live */
    double   wall;                      /* when (wall clock) they went live */
    int      suspect_count;             /* the values that went live: where, and the value before */
    TweakKept suspects[16];
} SessionTweak;

typedef struct SessionLoop {            /* the F7 loop as the session keeps it (record.cpp writes it every step) */
    int      mode;                      /* LoopMode */
    uint64_t count, cursor, cap;        /* recorded steps (at most cap are kept), the next one to play */
    uint64_t start_used;                /* the loop's snapshot: bytes, and the layout it has */
    uint64_t start_hash;                /* th_hash_bytes64 of it: a damaged copy is not looped */
    uint32_t start_version;
    uint64_t start_size;
    int      record_on;                 /* --record: its file is open, and holds record_steps steps (flushed) */
    uint64_t record_steps;
} SessionLoop;

int    restart_open(int argc, char **argv);     /* first thing: finds the session a previous process handed over */
int    restart_is_restart(void);                /* this process is a hot restart (the session kept or not) */
double restart_start_mono(void);                /* the session's start (event times go on from it); 0 if none */
int    restart_memory(uint64_t bytes, uint8_t **block, uint8_t **snapshot); /* the block and snapshot, shared */
int    restart_arm(int argc, char **argv);      /* after the services start; 0: too many restarts, stop */
int    restart_pending_mode(void);              /* non-zero in a restarted process: call restart_resume */
void   restart_resume(void);                    /* instead of reload_start */
void   restart_reason(char *out, size_t cap);
void   restart_note_library(void);              /* the reload bookkeeping changed */
void   restart_note_snapshot(void);
void   restart_restoring(int on);
int    restart_session_renew(void);
void   restart_note_sources(double seen_wall);  /* every save written before this (wall clock) was handled */
double restart_sources_seen(void);              /* in a restarted process: the old one's, 0 if unknown */             /* the session's memfd closed by game code: re-created, 1 */               /* the host writes a snapshot back: a fault now restarts in rollback mode */
void   restart_note_bus(int bus, float volume);
int    restart_bus(int bus, float *volume);     /* 1 if the session holds this bus's volume */
void   restart_note_unload_failed(void);        /* a library stayed mapped; enough of them restart */
void   restart_note_frame(void);                /* at the end of every frame */
SessionLoop *restart_loop(GameInput **inputs, uint8_t **start_state); /* the loop's shared part; NULL without a session */
uint8_t *restart_tweak_area(uint64_t *cap);      /* tweak.cpp's kept sources; NULL without a session */
SessionTweak *restart_tweak(uint8_t **copy, uint64_t *cap); /* the TWEAK window and the state copy's area (NULL, 0:
                                                    no session, the copy lives on the heap) */
void   restart_request(const char *reason);     /* a planned restart at the end of this frame */
int    restart_requested(void);
void   restart_now(void);
void   restart_check_stall(int running_guarded); /* the watchdog's thread, every poll */
void   reload_resume(const RestartResume *r);   /* reload.cpp: libraries and state after a restart */
GuardWhat guard_current(void);                  /* guard.cpp: the guarded call running now (any thread may ask) */

/* ---------------------------------------------------------------- on-screen notices (notice.cpp) */
void        notice_post(int level, const char *fmt, ...);  /* a message for the player, shown ~6 s, wrapped */
void        notice_draw(void);                          /* the current notices, bottom of the screen */
int         notice_wrap(const char *text, float px, float max_w, char *out, size_t cap); /* '\n' where lines break; line count */

/* ---------------------------------------------------------------- the profiler (profile.cpp) */
/* PROFILE_ZONE("name") in any host file: a zone of the main thread's ring. A release has none unless it is
   built with -DPROFILE_IN_RELEASE. */
#if defined(HOST_RELEASE) && !defined(PROFILE_IN_RELEASE)
#define THP_DISABLE
#endif
extern struct thp_profile g_profile_main;               /* the main thread's zones */
#define THP_PROFILE (&g_profile_main)
#include "th_profile.h"
void        profile_init(void);                         /* calibrates the clock; starts --profile's capture */
void        profile_fill_api(PlatformAPI *pf);          /* profile_begin, profile_end: the game's zones, names interned */
void        profile_names_forget(void);                 /* before a library is loaded: its literals may reuse old addresses */
void        profile_audio_begin(void);                  /* the audio thread's zone around a mix */
void        profile_audio_end(void);
int         profile_guard_enter(void);                  /* before a guarded call into the game: the depth to return to */
void        profile_guard_leave(int depth);             /* after it: closes the zones the game left open (a jump) */
void        profile_frame_end(void);                    /* the frame marker; writes a finished capture */
void        profile_shutdown(void);                     /* writes a capture still running */
int         profile_key(GameKey k, int down, int shift);/* Shift+F4 and the view's keys; 1 = the game does not see it */
void        profile_view_draw(void);                    /* the flame chart and the frames' bars, when open */

#endif /* HOST_H */
