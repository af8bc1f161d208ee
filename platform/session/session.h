/* session.h - the running game kept safe, in development and in a release: which library runs, the memory block
   and its snapshots, guarded calls, the state across a layout change, the F7 loop and recordings, the hot
   restart. Calls services/, core/ and os/; what it tells the layers above goes through hooks they register. */
#ifndef HOST_SESSION_H
#define HOST_SESSION_H

#include "services/services.h"
#include "session/session_file.h"

/* ---------------------------------------------------------------- memory block and snapshots (memory.cpp) */
typedef struct Memory {
    GameMemory game;
    uint8_t   *snapshot;          /* same size as the block, reserved lazily by the OS */
    uint64_t   snapshot_used;     /* 0 = no snapshot */
    uint64_t   snapshot_step;
    uint64_t   snapshot_faulted;  /* bytes of the snapshot area already touched */
} Memory;

Memory  *memory_state(void);               /* memory.cpp's: the block's description and the snapshot's */

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

typedef struct TweakKept { char path[HOST_PATH]; int site; uint8_t had_old; uint64_t old_value; } TweakKept;
typedef struct TweakWindow {            /* the TWEAK window, a session slice (a hot restart goes back to it) */
    int      window;                    /* values went live at `step`: a crash soon after is theirs */
    uint64_t step, used;                /* used: bytes of the state copied just before they went live */
    double   wall;                      /* when (wall clock) they went live */
    int      suspect_count;             /* the values that went live: where, and the value before */
    TweakKept suspects[16];
} TweakWindow;
TweakWindow *memory_tweak_window(void);   /* its slice (ask each time: it moves into the session when that starts) */

typedef struct PointerHit { uint64_t state_offset; uintptr_t value; int range; } PointerHit;
/* words of the used block, at any byte offset, whose value lies inside one of the ranges; returns how
   many (the first max are stored, in address order) */
int      memory_find_pointers(const OsRange *ranges, int range_count, PointerHit *hits, int max);
void     memory_keep(void);    /* used and the snapshot's size and step into their session slice (each frame, each
                                  snapshot): a hot restart finds the block as it was */
void     memory_resume(void);  /* in a restarted process: used and the snapshot as the old one left them */

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

const GuardReport *guard_report(void);     /* guard.cpp's */

void        guard_init(double watchdog_s);
int         guard_run(GuardWhat what, void (*fn)(void *), void *arg);   /* 0 returned; 1 crashed or hung */
const char *guard_fault_name(void);                                     /* "SIGSEGV", "hang", ... */
void        guard_describe_backtrace(const char *lib_path, char *out, size_t cap); /* "fn (file:line) <- ..." */
void guard_wrap_services(
    PlatformAPI *pf); /* each service finishes before a watchdog interrupt lands; a NULL one is logged */
int guard_missing_services(const PlatformAPI *pf, char *out, size_t cap); /* how many are NULL, their names in out */

/* guarded(GUARD_UPDATE, [&] { ... }): the lambda runs under guard_run. */
template <class F> static inline int guarded(GuardWhat what, F f)
{
    return guard_run(what, [](void *p) { (*(F *)p)(); }, &f);
}

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

StateTypes *types_of_block(void);       /* the layout the block holds (migrate.cpp keeps both) */
StateTypes *types_of_snapshot(void);    /* the layout of the crash snapshot */

void types_take(const GameAPI *api, StateTypes *out);   /* copy the table out of a loaded library and check it */
void types_copy(StateTypes *dst, const StateTypes *src);
void types_clear(StateTypes *t);
int  types_save(const StateTypes *t, const char *path);   /* the table alone, beside a --record file; 0 if none */
int  types_load(const char *path, uint32_t layout_hash, uint64_t state_size, StateTypes *out);  /* read + check */
void types_blame_size(const StateTypes *t, const char *state_header, char *out,
                      size_t cap); /* "state.h:25": what made it big */
/* old (old_used bytes, laid out as from) -> out (to's layout, out_cap bytes); 1 + what changed, or 0 + why not */
int migrate_bytes(const StateTypes *from, const StateTypes *to, const GameAPI *api, const uint8_t *old,
                  uint64_t old_used, uint8_t *out, uint64_t out_cap, char *what, size_t cap);
/* the block itself, through a scratch area: swapped in only when every field had a rule */
int migrate_block(const StateTypes *from, const StateTypes *to, const GameAPI *api, char *what, size_t cap, double *ms);

/* ---------------------------------------------------------------- recording (record.cpp) */
typedef enum LoopMode { LOOP_OFF, LOOP_RECORDING, LOOP_PLAYING } LoopMode;

LoopMode recording_mode(void);
void     recording_toggle_loop(void);                 /* F7 */
void     recording_stop(void);                        /* back to live play */
void     recording_step(GameInput *gi);               /* records or replaces this step's input */
int      recording_file_open(const char *path);       /* --record */
int      recording_file_load(const char *path);       /* --replay */
void     recording_close(void);
int      recording_writes_file(void);                 /* a --record file is open */
/* new code, new layout: the F7 loop's start is migrated (or the loop ends); a --record file ends */
void     recording_layout_changed(const StateTypes *from, const StateTypes *to, const GameAPI *api);
void     recording_resume(void);                      /* after a hot restart: the F7 loop as it was */
void     recording_reserve(uint64_t block_bytes);     /* before memory_init: the F7 loop's areas in the session
                                                         (develop.cpp; a release has no session) */
/* ---------------------------------------------------------------- the timeline (timeline.cpp; docs/timeline.md) */
typedef struct TimelineDivergence {     /* the last replay that differed from its recording */
    uint64_t count;                     /* 0: none yet */
    uint64_t step;                      /* the first step whose state differed */
    uint64_t compared_at;               /* the kept state the fields were compared at (0: none) */
    uint64_t offset;                    /* the first differing byte of the block there */
    int      transient;                 /* it lies in a cache (the arena, a STATE_TRANSIENT field) */
    char     field[256];                /* "entities[12].pos.x" */
    char     values[160];               /* "301.25 -> 301.5" (recorded -> replayed) */
    char     hint[256];                 /* the likely cause */
} TimelineDivergence;

typedef struct TimelineInfo {           /* what the scrub bar shows */
    int      on, open, playing;          /* playing: P, or new code loaded while paused in the past */
    uint64_t oldest, head, cursor;      /* the steps a seek reaches, the live one, the block's */
    uint64_t every, snapshots, snapshot_bytes;   /* K, kept states, a kept state's average size */
    uint64_t memory_bytes, used_bytes;  /* allocated, in use */
    double   cost_ms_per_step;          /* hash + snapshots, per live step */
    TimelineDivergence divergence;
} TimelineInfo;

void     timeline_init(double seconds, uint64_t budget_mb, int (*update)(const GameInput *gi)); /* update: the frame
                                                   loop's guarded call; seconds or budget 0: off */
int      timeline_on(void);
void     timeline_before_step(uint64_t step);         /* a live step: its state kept every K steps */
void     timeline_after_step(const GameInput *gi);    /* its input, code and the state's hash after it */
void     timeline_clear(const char *why);             /* the state jumped (F6, a crash rollback, the F7 loop) */
void     timeline_code_changed(void);                 /* new code or live TWEAK values: a new epoch (not compared) */
void     timeline_reloaded(int layout_changed);       /* a reload: the states after the cursor go; a new layout
                                                         migrates the kept states (the older ones that cannot: go) */
int      timeline_open(void);                         /* paused on it, at the live step; 0: nothing to show */
double   timeline_seek(uint64_t step);                /* restore + replay to step, checked; ms, -1 */
int64_t  timeline_verify(void);                       /* replay all of it, checked: the mismatches; -1 */
void     timeline_close(void);                        /* live again; at a past step the newer steps go (a branch) */
void     timeline_play(int on);                       /* recorded steps forward at the game's rate (timeline_bar.cpp) */
uint64_t timeline_oldest(void);
void     timeline_info(TimelineInfo *out);
uint64_t timeline_hash(const void *data, size_t n);   /* the per-step hash (fast, 64-bit) */
/* sessions as files (session_file.h): the kept steps and states written to path; 1 + its size, or 0 + why */
int      timeline_save_session(const char *path, const char *game, uint64_t *bytes, char *err, size_t cap);
/* a session file loaded, paused at its newest step (states migrated to this layout); 0 + why, the game as it was */
int      timeline_open_session(const char *path, const char *game, char *err, size_t cap);
size_t   timeline_pack(const uint8_t *src, size_t n, uint8_t *dst); /* zero runs packed; dst holds n + 16 */
int      timeline_unpack(const uint8_t *packed, size_t bytes, uint8_t *out, size_t n); /* 1: exactly n bytes */

typedef struct KeptRun {                /* the running game as a hot restart finds it again (running.cpp's slice) */
    int      version_counter, running_version, prev_good_version;
    int      mem_has_layout;                 /* the block holds state laid out by some library ... */
    uint32_t mem_layout_hash;                /* ... with this stamp and size */
    uint64_t mem_state_size;
    char     running_path[HOST_PATH];        /* the running library's versioned copy ("" when none runs) */
    char     prev_good_path[HOST_PATH];      /* the copy a rollback goes back to */
    uint64_t running_base;                   /* the running image's base (to name code in a crash report) */
} KeptRun;

void     running_keep(uintptr_t *code_lo, uintptr_t *code_hi); /* running.cpp: the running game into its session
                                                   slice; the running image's code range (for the fault handler) */
int      running_kept(KeptRun *out);                  /* in a restarted process: what the old one kept; 0: none */
void     running_describe_frames(const KeptRun *k, const uintptr_t *frames, int count, char *out, size_t cap);
                                                   /* "fn (file:line) <- ..." of the frames in k's running image */
void     running_set_load_hook(void (*hook)(int migrated)); /* running.cpp: reload_init sets reload_run_load */
void     running_load(int migrated);                  /* the hook, if one is set (record.cpp: a migrated loop start) */

/* ---------------------------------------------------------------- hot restart (restart.cpp) */
typedef struct RestartResume {          /* what a restarted process goes on from (restart.cpp -> reload.cpp) */
    int         rollback;               /* the running code was at fault: its snapshot and the code before it */
    int         what;                   /* GuardWhat at the fault, -1 */
    const char *signal, *reason, *where;
    KeptRun     run;                    /* the old process's running game */
    int         restarts;
    double      since_fault_ms;
    uint64_t    step;                   /* the step at the fault */
} RestartResume;

int    restart_open(int argc, char **argv);     /* first thing: finds the session a previous process handed over */
int    restart_is_restart(void);                /* this process is a hot restart (the session kept or not) */
double restart_start_mono(void);                /* the session's start (event times go on from it); 0 if none */
int    restart_memory(uint64_t bytes, uint8_t **block, uint8_t **snapshot); /* the block and snapshot, shared */
int    restart_arm(int argc, char **argv);      /* after the services start; 0: too many restarts, stop */
int    restart_pending_mode(void);              /* non-zero in a restarted process: call restart_resume */
void   restart_resume(void (*resume)(const RestartResume *r)); /* instead of reload_start: resume (reload_resume) is
                                                   handed what the old process ran, the session's state restored */
void   restart_reason(char *out, size_t cap);
void   restart_note_library(void);              /* the reload bookkeeping changed */
void   restart_restoring(int on);
int    restart_session_renew(void);
    /* the session's memfd closed by game code: re-created, 1 */ /* the host writes a snapshot back: a fault now
                                                                    restarts in rollback mode */
void   restart_note_unload_failed(void);        /* a library stayed mapped; enough of them restart */
void   restart_note_frame(void);                /* at the end of every frame */
/* An area of the session's memory past the block and its snapshot, for what is too big for a slice (core.h): asked
   for by name before the session starts (memory_init), found by name in it, in a restarted process too. */
void     restart_reserve(const char *name, uint64_t bytes);
uint8_t *restart_area(const char *name, uint64_t *cap);      /* its bytes; NULL (cap 0) without a session */
void     restart_area_used(const char *name, uint64_t used); /* how much is in use: what a renewed session copies */
void   restart_request(const char *reason);     /* a planned restart at the end of this frame */
int    restart_requested(void);
void   restart_now(void);
void   restart_check_stall(int running_guarded); /* the watchdog's thread, every poll */
GuardWhat guard_current(void);                  /* guard.cpp: the guarded call running now (any thread may ask) */

typedef struct GameLib {
    void   *handle;
    GameAPI api;
    int     version;                    /* 1, 2, 3... in load order */
    char    path[HOST_PATH];            /* the versioned copy that was opened */
} GameLib;

typedef struct GameRun {         /* which library runs, and what a rollback returns to */
    int      loaded;             /* a library is loaded */
    int      halted;             /* crashed with nothing to roll back to: wait for a fix */
    int      fresh;              /* the current library has not run an update yet */
    int code_of_version; /* the version whose code runs: the library's, or after a rollback the one rolled back to */
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

typedef struct CrashReport {     /* the last crash or hang of game code, for the overlay; cleared by a load */
    char     text[2048];         /* "" = none */
    int      hung;               /* the watchdog stopped it (a hang), not a fault */
} CrashReport;

typedef struct BlockLayout {     /* the layout of the state in the memory block (kept while halted on the stub) */
    int      known;              /* the block holds state laid out by some library ... */
    uint32_t layout_hash;        /* ... with this stamp and size */
    uint64_t state_size;
} BlockLayout;

/* running.cpp keeps these; the reload policy (live/reload.cpp, release.cpp) changes them, the rest reads them */
GameRun     *running_run(void);
CrashReport *running_crash(void);
BlockLayout *running_layout(void);
GameLib     *running_lib(void);        /* the running library */
GameAPI     *running_api(void);        /* its entry points (a stub until a library loads) */

#endif /* HOST_SESSION_H */
