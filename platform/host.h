/* host.h - declarations shared by the host's own files (the .cpp files in platform/). Not seen by the game.

   Each platform file owns one job and exposes it here under a short banner:
     main.cpp    process, flags, SDL window/input, the frame loop, snapshots, crash recovery
     loader.cpp  watching files, running the build, loading/unloading the game library
     render.cpp  the PlatformAPI drawing services: sprite batch, atlas, text, screenshots
     tweak.cpp   the PlatformAPI tweak service: live literal values from the game sources
*/
#ifndef HOST_H
#define HOST_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "game_api.h"

struct SDL_Renderer;

/* ---------------------------------------------------------------- host services (main.cpp) */
void        host_log(int level, const char *fmt, ...);                /* console + log file + event log */
void        host_event(const char *ev, const char *fields_fmt, ...);  /* one JSON line: {"t":..,"ev":ev,<fields>} */
double      host_time(void);                                          /* seconds since start */
const char *host_root(void);                                          /* project root, no trailing slash */
void        host_json_escape(const char *in, char *out, size_t cap);  /* for strings inside event fields */

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
    int         watch;
    int         fast;            /* one fixed step per frame, no waiting for the clock */
    double      watchdog_s;
    int         window_w, window_h;
} Options;

typedef struct ScriptEvent { uint64_t step; int kind; int key; float a, b; } ScriptEvent;
enum { SCRIPT_DOWN, SCRIPT_UP, SCRIPT_TAP, SCRIPT_MOUSE, SCRIPT_AXIS, SCRIPT_QUIT };

/* A recording file: this header, the snapshot, then one GameInput per step to the end. */
#define RECORDING_HEADER_BYTES 40
typedef struct RecordingHeader {
    uint32_t api, state_version;
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

/* ---------------------------------------------------------------- watching, building, loading (loader.cpp) */
#define HOST_MAX_CHANGES 64
#define HOST_PATH 1024

typedef struct FileChanges {            /* one debounced batch of changed files */
    int  count;
    int  code;                          /* 1 if a game/ or tinyheaders/ source file is among them */
    int  assets;                        /* 1 if something under assets/ is among them */
    int  library;                       /* 1 if build/game/libgame.so was replaced by an outside build */
    char paths[HOST_MAX_CHANGES][HOST_PATH];
} FileChanges;

typedef struct BuildResult {
    int    finished;                    /* 1 on the frame the build child exited */
    int    ok;
    double ms;
    int    error_count;
    char   output[8192];                /* compiler output (truncated) */
} BuildResult;

typedef struct GameLib {
    void   *handle;
    GameAPI api;
    int     version;                    /* 1, 2, 3... in load order */
    char    path[HOST_PATH];            /* the versioned copy that was dlopen'ed */
} GameLib;

int    watch_init(const char *root);            /* inotify on game/, tinyheaders/, assets/, build/game/ */
int    watch_poll(FileChanges *out);            /* 1 when a debounced batch is ready */
void   watch_shutdown(void);

void   build_start(const char *root);           /* runs "build.sh game" in a child; a running build queues one more */
int    build_running(void);
void   build_poll(BuildResult *out);            /* non-blocking */
void   build_shutdown(void);

const char *library_built_path(const char *root);                  /* <root>/build/game/libgame.so */
int    library_open(const char *src, int version, GameLib *out, char *err, size_t errcap); /* copy, dlopen, resolve */
int    library_close(GameLib *lib, char *err, size_t errcap);       /* dlclose + unmapped check; 0 if still mapped */
int    library_is_mapped(const char *path);                         /* reads /proc/self/maps */

/* ---------------------------------------------------------------- rendering (render.cpp) */
typedef struct RenderStats {
    int sprites;      /* submissions this frame */
    int batches;      /* (layer, page) runs */
    int draw_calls;   /* SDL_RenderGeometry calls */
} RenderStats;

int         render_init(SDL_Renderer *r, int view_w, int view_h, const char *font_path); /* 0 on failure */
void        render_shutdown(void);
void        render_fill_api(PlatformAPI *pf);           /* draw_sprite, draw_rect, draw_text, ... */
void        render_begin_frame(void);                   /* clears the submission buffer */
RenderStats render_end_frame(void);                     /* sorts, batches and draws what was submitted */
void        render_asset_changed(const char *path);     /* a file under assets/ changed (absolute path) */
void        render_update(void);                        /* once per frame: finish pending asset reloads */
int         render_screenshot(const char *png_path);    /* reads the back buffer; 0 on failure */

/* ---------------------------------------------------------------- tweakables (tweak.cpp) */
void        tweak_query(const char *file, int line, int counter, int kind, const char *literal, void *value_inout);
int         tweak_file_changed(const char *path);       /* 1: only TWEAK literals changed and are live; 0: rebuild */
void        tweak_build_started(void);                  /* remember the sources the build compiles */
void        tweak_library_loaded(void);                 /* new code: its build's sources are the new baseline */
void        tweak_shutdown(void);
const char *tweak_status(void);                         /* the last live change, for the overlay ("" if none) */

#endif /* HOST_H */
