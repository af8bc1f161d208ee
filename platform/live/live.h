/* live.h - save to new code, development only: watching the sources, building the game, opening its library,
   the reload policy (load, rollback, resume), TWEAK values. A release links release.cpp's stand-ins instead. */
#ifndef HOST_LIVE_H
#define HOST_LIVE_H

#include "session/session.h"

/* ---------------------------------------------------------------- the game's folder (game_folder.cpp) */
const char *game_folder(void);        /* real path of the game's folder (--game; <root>/game by default) */
const char *game_build_folder(void);  /* its build outputs: <root>/build/game, or build/games/<name>-<hash> */
const char *game_folder_name(void);   /* the folder's name: the window's title until the game sets one */

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

int watch_init(const char *root); /* the game folder, platform/include/, tinyheaders/, assets/, its build folder */
int    watch_poll(FileChanges *out);            /* 1 when a debounced batch is ready */
int    watch_poll_code(FileChanges *out);       /* the same, for a batch of code alone (no asset, no library) */
double watch_due_in(void);                      /* seconds until the pending batch is ready (0 now), -1: none */
int    watch_is_asset(const char *path);        /* 1 if path is under <root>/assets/ */
void   watch_shutdown(void);
int    watch_reopen_lost(void);
int    watch_catch_up(double since_wall, char *first, size_t cap); /* code written after since_wall: pending; count */
double watch_pending_since(void);
    /* the oldest save not handed over yet (wall clock); 0 */ /* the watcher's descriptor closed by game code: a new
                                                                 watch, 1 */

/* ---------------------------------------------------------------- building (build.cpp) */
typedef struct BuildResult {
    int    finished;                    /* 1 on the frame the build child exited */
    int    ok;
    double ms;
    int    error_count;
    char   output[8192];                /* compiler output (truncated) */
} BuildResult;

void   build_start(const char *root);           /* the game build's children started; a running build queues one more */
int    build_running(void);
int    build_fd(void);                          /* readable when the build child writes or ends; -1 */
void   build_poll(BuildResult *out);            /* non-blocking */
int    build_game_now(const char *root);        /* --build-game: the same compile and link, waited for; 1 when done */
void build_pump(void); /* within a frame: the next stage started, the end kept for build_poll */
int    build_ended(void);                       /* 1: build_pump saw the build end, build_poll has not finished it */
void   build_shutdown(void);
int    build_restart_lost(void);                /* a running build's pipe closed by game code: it starts again, 1 */

/* Shared by build.cpp and plan.cpp: a growing text (a key, a command file), a file's CRC (POSIX cksum's, cached by
   the file's stamp; *entry: it says GAME_GET_API), and the stamp a layout stamp's output ends with. */
typedef struct KeyText { char *s; size_t len, cap; } KeyText;
void key_add(KeyText *k, const char *text, size_t n);
int  build_file_crc(const char *path, uint32_t *crc, unsigned long long *size, int *entry);
int  build_says_entry(const char *text, size_t n);
int  build_stamp_parsed(const char *output, unsigned long *stamp);

/* ---------------------------------------------------------------- the game build's plan (plan.cpp) */
#define PLAN_MAX_FILES  64    /* .cpp files in a game folder */
#define PLAN_MAX_CHUNKS 256   /* a chunk holds one file or more: more than enough */
typedef struct GameSources {     /* a game folder's .cpp files, in byte order */
    int  count, overflow;
    char name[PLAN_MAX_FILES][128];
    int  lines[PLAN_MAX_FILES];
    int  root[PLAN_MAX_FILES];   /* no other .cpp of the folder #includes it */
    int  entry[PLAN_MAX_FILES];  /* it says GAME_GET_API( */
} GameSources;
typedef struct GameChunks {      /* the roots packed into translation units */
    int  count, root_count;
    int  roots[PLAN_MAX_FILES];          /* indexes into GameSources, in byte order */
    int  first[PLAN_MAX_CHUNKS + 1];     /* chunk k holds roots[first[k]] .. roots[first[k + 1] - 1] */
    char entries[PLAN_MAX_FILES * 130];  /* "a.cpp/b.cpp/": the roots that say GAME_GET_API; "": every chunk */
} GameChunks;
enum { PLAN_READY, PLAN_SLOW, PLAN_FAILED };
enum { PLAN_TINYHEADERS = 1, PLAN_LAYOUT = 2, PLAN_STATE = 4 };
int  plan_sources(const char *folder, GameSources *s);                 /* 0: unreadable, or too many files */
void plan_chunks(const GameSources *s, int max_lines, GameChunks *c);
int  plan_chunk_text(const GameSources *s, const GameChunks *c, int k, char *out, size_t cap);
int  plan_game(const char *root, int quick, char *msg, size_t cap);    /* PLAN_*; the chunk files and compile.cmd */
int  plan_cached(const char *root);                                    /* PLAN_TINYHEADERS | ... of what is current */
int  plan_is_ccache(const char *word);   /* the word names ccache (by name or by path) */
int  plan_which(const char *name, char *out, size_t cap);   /* a command's file: as named with a '/', else on PATH */
void plan_keep_stamp(const char *root, unsigned long stamp, uint32_t state_crc, unsigned long long state_size);
void plan_keep_tinyheaders(const char *root);
int  plan_write_unity(const char *root, char *out, size_t cap);        /* --write-unity: a release's one unit */
void plan_print_compile(const char *root);   /* --print-game-compile: the compiler, then the flags (stdout) */

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
const char *library_built_path(void);                  /* <game build folder>/libgame.so */
int    library_open(const char *src, int version, GameLib *out, char *err, size_t errcap); /* copy, open, resolve:
                                                      1 ok; 0 refused (err says why); -1 its code crashed or hung
                                                      (guard_report() says where, err the backtrace) */
int    library_close(GameLib *lib, char *err, size_t errcap);       /* close + unmapped check; 0 if still mapped */
int    library_is_mapped(const char *path);

/* ---------------------------------------------------------------- reload policy and the running game (reload.cpp) */
/* A release's release.cpp has its own reload_init/start/run_load/restart_state/on_crash and reload_call_*: the
   game linked in, a crash reported and the game ended. */
typedef struct BuildStatus {     /* the game library's builds, as the frame loop and the overlay see them */
    int      running;            /* a build is compiling */
    double   last_ms;
    int      last_ok;
    double   frame_max_ms;       /* the longest frame while it compiled */
    char     errors[4096];       /* first errors of the last failed build, for the overlay */
    OsFileStamp built_stamp;     /* the libgame.so our own build produced last */
    double   change_seen_t;      /* when the watcher delivered the save that led to this build */
} BuildStatus;
BuildStatus *build_status(void);   /* build.cpp's (a release's stand-in: never set) */


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
void        tweak_reserve(void);                        /* before the session starts: its area for the kept sources */
void        tweak_batch_begin(void);                    /* a watcher batch: its live values are the next suspects */
int         tweak_batch_end(void);                      /* 1: values of this batch went live (the new suspects) */
void        tweak_suspects_clear(void);
void        tweak_suspects_resume(void);                /* after a hot restart: the suspects the session kept */
void tweak_revert_suspects(char *what, size_t cap);     /* serve the old values again; what: "file:line TWEAK(lit)" */
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

void   reload_resume(const RestartResume *r);   /* reload.cpp: libraries and state after a restart */
void     reload_run_load(int migrated);               /* the running library's load hook, guarded */

#endif /* HOST_LIVE_H */
