/* core.h - what every module of the host uses: the command line and its flags, the frame loop's counters, the
   project root, HostMode (what development and a release do differently, one table each build fills: develop.cpp
   or release.cpp), the log and events. The layer above os/ (docs/design.md, "The host's layers"). */
#ifndef HOST_CORE_H
#define HOST_CORE_H

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
    const char *build_cmd;       /* the game build's command line; NULL = the host's own (build.bat game on Windows) */
    int         build_game;      /* --build-game: compile and link the game library by compile.cmd, then exit */
    int         print_game_build;/* --print-game-build: print the game's build folder, then exit */
    int         print_game_compile; /* --print-game-compile: the game's compiler and flags (plan.cpp), then exit */
    int         write_unity;     /* --write-unity: a release's one translation unit of the game, its path, then exit */
    int         watch;
    int         fast;            /* one fixed step per frame, no waiting for the clock */
    double      watchdog_s;
    int         window_w, window_h;
    const char *save_dir;        /* --save-dir: where save data lives (default: the user's data folder) */
    int         dev_keys;        /* --dev-keys: F1-F9 and F12 in a release (always on in development) */
    const char *profile_path;    /* --profile PATH: the first profile_frames frames as a Chrome trace */
    int         profile_frames;  /* --profile-frames N (default 120); also what Shift+F4 captures */
    double      timeline_s;      /* --timeline SECONDS of play kept (default 60; 0: off; a release: off) */
    uint64_t    timeline_mb;     /* --timeline-mb: its memory (default 64) */
    const char *save_session;    /* --save-session FILE: the timeline written at exit */
    const char *open_session;    /* --open-session FILE: start paused on the timeline it holds */
    int         control;         /* the control socket (default on; --no-control: off; a release: none) */
} Options;

typedef struct ScriptEvent {
    uint64_t step;               /* the step it applies at; with by_frame, the frame */
    int      kind, key;
    float    a, b;
    int      by_frame;           /* "@F ..." in the script: applied at frame F even while paused */
} ScriptEvent;
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
int parse_event_fields(const char *in, char *out, size_t cap, const char **why); /* a game event's fields:
                          the inside of a JSON object, one line, none of the line's own keys; 1 + out, or 0 + why */
#define JSON_FLAT_MAX 16
typedef struct JsonFlatMember {
    char     key[32];
    char     kind;               /* 's' string, 'n' number, 'b' true/false, 'z' null, 'a' array (of those) */
    int      items;              /* an array's length (1 for the rest) */
    uint32_t at;                 /* its text in JsonFlat.text: a string decoded, a number as written; an array's items
                                    one after another, each NUL-terminated */
} JsonFlatMember;
typedef struct JsonFlat { int count; JsonFlatMember m[JSON_FLAT_MAX]; uint32_t used; char text[8192]; } JsonFlat;
int parse_json_flat(const char *line, JsonFlat *out, char *err, size_t cap);  /* one flat object (a control request):
                                                                                 1, or 0 + why (and where) */
const char *json_flat_get(const JsonFlat *j, const char *key, char kind); /* the value's text; NULL: absent or not of
                                                                            that kind (0: any kind) */
const char *json_flat_item(const JsonFlat *j, const char *key, int index); /* an array's item; NULL past its end */

/* ---------------------------------------------------------------- the frame loop (main.cpp) */
typedef struct FrameLoop {
    int      quit;
    int      paused, single_step;        /* F8, F9 */
    int      want_screenshot;            /* F12 */
    uint64_t frame;                      /* frames drawn since start */
    uint64_t step;                       /* fixed steps run since start */
} FrameLoop;

const Options *options(void);            /* the command line (core.cpp keeps it) */
Options   *options_edit(void);           /* main's parse and the build's start hook complete it; nothing else writes */
FrameLoop *frame_loop(void);             /* the frame loop's counters and what is asked of it (quit, pause, shot) */
const char *host_root(void);             /* options()->root: the project root, no trailing slash */

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

/* ---------------------------------------------------------------- session slices (core.cpp) */
/* What a module keeps across a hot restart is its slice: plain data it writes straight into the session's memory,
   so the slice is current at any moment a restart can happen (nothing is saved at fault time) and a restarted
   process finds it again by name. session/restart.cpp gives the slices their place when the session starts
   (session_slices_attach); before that, and with no session (a release, Windows without one), a slice is the
   module's own zeroed memory. Ask for the slice each time it is read or written: it moves into the session. */
void *session_slice(const char *name, size_t size);   /* zeroed the first time; never NULL */
int   session_slice_kept(const char *name);           /* 1: the process before a hot restart handed it over */
void  session_slices_attach(void *area, size_t cap, int kept); /* restart.cpp: where the slices live; kept: a
                                                                  restarted process's area, as the old one left it */
void  frame_keep(void);     /* the frame loop's step and frame into their slice (the end of every frame) */
int   frame_resume(void);   /* in a restarted process: the step and frame as the old one left them; 0: none */

/* ---------------------------------------------------------------- log and events (log.cpp) */
int log_open(int restarted, double session_start); /* the files named by the options (a hot restart appends,
                                                    its event times go on from the session's start); 0 + message */
void        log_close(void);
int         log_reopen_lost(char *what, size_t cap);                  /* logs game code closed: re-opened, named */
void        log_frame_line(double work_ms, int sprites, int draw_calls);  /* --frame-log */
void        log_fill_api(PlatformAPI *pf);                            /* log, event, time_seconds */
void        log_drain_game(void);   /* the game's log lines and events, queued during its calls, written now */
void        log_message(int level, const char *fmt, ...);             /* console + log file + event log */
void        log_event(const char *ev, const char *fields_fmt, ...);   /* one JSON line: {"t":..,"ev":ev,<fields>} */
double      log_time(void);                                           /* seconds since start */
void        log_set_listener(void (*fn)(const char *line));  /* every event line as written (with or without
                                                                --log-json): the control socket's subscribers */
uint64_t    log_game_time_reads(void);   /* how many times the game called pf->time_seconds */

#endif /* HOST_CORE_H */
