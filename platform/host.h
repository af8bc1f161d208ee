/* host.h - declarations shared by the host's own files (the .cpp files in platform/). Not seen by the game.

   One file per job; each exposes its part here under a banner naming the file:
     main.cpp     the frame loop: poll input, watch/build/reload, fixed steps, render, present
     log.cpp      log lines, JSON-lines events, the game's log/event/time services
     memory.cpp   the game's memory block and the snapshot taken before new code runs
     guard.cpp    running library code guarded: faults and the watchdog (nothing else)
     reload.cpp   the reload policy: build finished -> copy -> load -> stamp check -> snapshot -> swap ->
                  verify unload; crash rollback; the calls into the running game
     library.cpp  one game library: versioned copy, open, resolve the entry point, close, verify unmapped
     watch.cpp    debounced batches of changed source/asset files
     build.cpp    the game build in a child process (build.sh game), its output and errors
     record.cpp   the F7 input loop and --record/--replay files
     input.cpp    SDL events and --input scripts -> GameInput; the hot keys
     overlay.cpp  the F1 overlay, crash and build-error panels
     render.cpp   drawing services (sprite batch, text, camera, screenshots)
     assets.cpp   what is loaded from disk for drawing: atlas pages, the packer child
     archive.cpp  where asset bytes come from: the project's files, or (a release) the archive beside the executable
     font.cpp     the text font: checked, baked on a worker, installed
     tweak.cpp    live TWEAK() literal values from the game sources
     audio.cpp    the audio device and the mixer behind the game's sound services
     sound_assets.cpp  sound files (WAV, OGG, .sfx) found, decoded in a child process, reloaded on save
     savedata.cpp the game's save data: named blobs in the user's data folder (or --save-dir)
     window.cpp   the window: the game's title, fullscreen, Quit, focus
     notice.cpp   short messages along the bottom of the screen (a corrupt save, a failed asset)
     parse.cpp    reading outside input: flags, input scripts, recording headers, JSON escaping
     release.cpp  a release (-DHOST_RELEASE): the game linked in, assets from the archive, no reload/watch/build/tweak
     stb_impl.c   stb's implementations (images, rectangle packing, TrueType), compiled in every build
     os.h         the operating system (os_linux.cpp / os_win32*.cpp, shared parts in os_common.cpp,
                  os_template.cpp where a new port starts); nothing else includes system headers */
#ifndef HOST_H
#define HOST_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "game_api.h"
#include "os.h"

struct SDL_Renderer;
union SDL_Event;

#define HOST_PATH 1024

/* ---------------------------------------------------------------- reading outside input (parse.cpp) */
#define MAX_SCREENSHOTS 32

typedef struct Options {
    char        root[1024];
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
    int         watch;
    int         fast;            /* one fixed step per frame, no waiting for the clock */
    double      watchdog_s;
    int         window_w, window_h;
    const char *save_dir;        /* --save-dir: where save data lives (default: the user's data folder) */
    int         dev_keys;        /* --dev-keys: F1-F9 and F12 in a release (always on in development) */
} Options;

typedef struct ScriptEvent { uint64_t step; int kind; int key; float a, b; } ScriptEvent;
enum { SCRIPT_DOWN, SCRIPT_UP, SCRIPT_TAP, SCRIPT_MOUSE, SCRIPT_AXIS, SCRIPT_QUIT };

/* A recording file: this header, the snapshot, then one GameInput per step to the end. */
#define RECORDING_HEADER_BYTES 40
typedef struct RecordingHeader {
    uint32_t api, layout_hash;
    uint64_t state_size, snapshot_bytes, start_step;
    uint64_t steps;              /* filled by the parser from the file length */
} RecordingHeader;

void        options_usage(FILE *f);
int         options_parse(int argc, char **argv, Options *o, char *err, size_t cap);  /* 1 ok, 0 error, 2 --help */
const char *key_name(int key);
int         key_by_name(const char *name);                                           /* KEY_NONE if unknown */
int         script_parse(const char *text, const char *name, ScriptEvent **out, int *count, char *err, size_t cap);
void        recording_header_write(uint8_t out[RECORDING_HEADER_BYTES], const RecordingHeader *h);
int         recording_header_parse(const uint8_t *data, size_t len, RecordingHeader *h, char *err, size_t cap);
typedef struct RecordingExpect { uint32_t api, layout_hash; uint64_t state_size, block_size; } RecordingExpect;
int         recording_parse(const uint8_t *data, size_t len, const RecordingExpect *want, RecordingHeader *h,
                            char *err, size_t cap);                               /* header, layout, size, every step */
int         recording_input_check(const GameInput *gi, char *err, size_t cap);    /* one step as live input makes it */
void        host_json_escape(const char *in, char *out, size_t cap);  /* for strings inside event fields */

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

/* ---------------------------------------------------------------- log and events (log.cpp) */
int         log_open(void);                                           /* the files named by g_options; 0 + message */
void        log_close(void);
void        log_frame_line(double work_ms, int sprites, int draw_calls);  /* --frame-log */
void        log_fill_api(PlatformAPI *pf);                            /* log, event, time_seconds */
void        log_drain_game(void);   /* the game's log lines and events, queued during its calls, written now */
void        host_log(int level, const char *fmt, ...);                /* console + log file + event log */
void        host_event(const char *ev, const char *fields_fmt, ...);  /* one JSON line: {"t":..,"ev":ev,<fields>} */
double      host_time(void);                                          /* seconds since start */
const char *host_root(void);                                          /* project root, no trailing slash */

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
void     memory_reset(void);               /* zero the used part: a fresh state */
uint64_t memory_hash(void);                /* of the used part (replay checks) */
void     memory_snapshot_prefault(void);   /* touch a little more of the snapshot area each frame */
double   memory_snapshot_take(uint64_t step); /* returns ms */
void     memory_snapshot_restore(void);

typedef struct PointerHit { uint64_t state_offset; uintptr_t value; int range; } PointerHit;
/* 8-byte-aligned words of the used block whose value lies inside one of the ranges; returns how many
   (the first max are stored, in address order) */
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
void        guard_wrap_services(PlatformAPI *pf);   /* each service finishes before a watchdog interrupt lands */
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
    int  library;                       /* 1 if build/game/libgame.so was replaced by an outside build */
    double first_seen_t;                /* when the watcher read the batch's first event (os_mono_seconds) */
    double first_seen_wall;             /* the same on the wall clock (events) */
    char paths[HOST_MAX_CHANGES][HOST_PATH];
} FileChanges;

int    watch_init(const char *root);            /* game/, tinyheaders/, assets/, build/game/ */
int    watch_poll(FileChanges *out);            /* 1 when a debounced batch is ready */
double watch_due_in(void);                      /* seconds until the pending batch is ready (0 now), -1: none */
int    watch_is_asset(const char *path);        /* 1 if path is under <root>/assets/ */
void   watch_shutdown(void);

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
void   build_shutdown(void);

/* ---------------------------------------------------------------- one game library (library.cpp) */
typedef struct GameLib {
    void   *handle;
    GameAPI api;
    int     version;                    /* 1, 2, 3... in load order */
    char    path[HOST_PATH];            /* the versioned copy that was opened */
} GameLib;

const char *library_built_path(const char *root);                  /* <root>/build/game/libgame.so */
int    library_open(const char *src, int version, GameLib *out, char *err, size_t errcap); /* copy, open, resolve:
                                                      1 ok; 0 refused (err says why); -1 its code crashed or hung
                                                      (g_guard_report says where, err the backtrace) */
int    library_close(GameLib *lib, char *err, size_t errcap);       /* close + unmapped check; 0 if still mapped */
int    library_is_mapped(const char *path);

/* ---------------------------------------------------------------- reload policy and the running game (reload.cpp) */
typedef struct GameRun {         /* which library runs, and what a rollback returns to */
    int      loaded;             /* a library is loaded */
    int      halted;             /* crashed with nothing to roll back to: wait for a fix */
    int      fresh;              /* the current library has not run an update yet */
    int      version_counter;
    char     prev_good_path[HOST_PATH];  /* a copy of the library that ran before this one */
    int      prev_good_version;
    double   last_reload_t;
    char     pointer_warning[1024]; /* the state held pointers into an unloaded library (overlay) */
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
void reload_start(void);                         /* load build/game/libgame.so, or build it */
int  reload_handle_changes(const FileChanges *c);  /* 1 if TWEAK values went live (step them at once) */
void reload_handle_build(const BuildResult *b);
void reload_restart_state(void);                 /* F6 */
void reload_on_crash(GuardWhat what);            /* roll back to the last good code and state */
int  game_call_update(const GameInput *gi);      /* 1 if it crashed (already rolled back) */
int  game_call_render(float alpha);
void game_call_stats(char *buf, int cap);        /* "" when there are none */

/* ---------------------------------------------------------------- a release (release.cpp, only with -DHOST_RELEASE) */
/* The folder of the executable becomes the root and its game.pak is mounted; 0 + why (naming the file).
   In a release, release.cpp also supplies the reload, library, watch, build and tweak functions above. */
int  release_start(char *err, size_t cap);

/* ---------------------------------------------------------------- recording (record.cpp) */
typedef enum LoopMode { LOOP_OFF, LOOP_RECORDING, LOOP_PLAYING } LoopMode;

LoopMode recording_mode(void);
void     recording_toggle_loop(void);                 /* F7 */
void     recording_stop(void);                        /* back to live play */
void     recording_step(GameInput *gi);               /* records or replaces this step's input */
int      recording_file_open(const char *path);       /* --record */
int      recording_file_load(const char *path);       /* --replay */
void     recording_close(void);
void     recording_layout_changed(void);              /* new code, new layout: old-layout recordings end */

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
int         render_screenshot(const char *png_path);    /* reads the back buffer; 0 on failure */
void        assets_file_changed(const char *path);      /* assets.cpp: a file under assets/ changed (absolute path) */
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
int         tweak_file_changed(const char *path);       /* 1: only TWEAK literals changed and are live; 0: rebuild */
void        tweak_build_started(void);                  /* snapshot the sources the build compiles */
void        tweak_build_finished(int ok);               /* 0: its snapshot will never be loaded */
void        tweak_library_loaded(int version, int code_of_version); /* baselines: the sources of the last build
                                                           (code_of_version 0) or of an earlier version (rollback) */
void        tweak_shutdown(void);
const char *tweak_status(void);                         /* the last live change, for the overlay ("" if none) */

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

/* ---------------------------------------------------------------- on-screen notices (notice.cpp) */
void        notice_post(int level, const char *fmt, ...);  /* a message for the player, shown ~6 s, wrapped */
void        notice_draw(void);                          /* the current notices, bottom of the screen */
int         notice_wrap(const char *text, float px, float max_w, char *out, size_t cap); /* '\n' where lines break; line count */

#endif /* HOST_H */
