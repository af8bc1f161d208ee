/* reload.cpp - the reload policy and the running game. A finished build is copied and opened under a
   fresh name, its layout stamp compared with the state's, the state snapshotted, the libraries
   swapped and the old one unloaded and checked gone. A crash in new code rolls back to the last good
   library and the snapshot taken before it ran. Every call into the game goes through here, guarded. */
#include "live.h"

#include <string.h>

static GAME_LOAD(stub_load) { (void)mem; (void)pf; }
static GAME_UPDATE(stub_update) { (void)mem; (void)in; (void)pf; }
static GAME_RENDER(stub_render) { (void)mem; (void)alpha; (void)pf; }

static void use_stub(void)
{
    memset(running_api(), 0, sizeof *running_api());
    running_api()->load = stub_load;
    running_api()->update = stub_update;
    running_api()->render = stub_render;
}

void reload_init(void)
{
    use_stub();
    running_set_load_hook(reload_run_load);
}

/* ---------------------------------------------------------------- calls into the game */
/* The service table the game is handed: a copy of services_api() refreshed before every call, at one address (a game
   may keep the pointer for the length of a call, its profile zones do). A game that clears or rewrites it
   (memset(pf, 0, sizeof *pf)) spoils its own copy until the next call, never the host's table. */
static PlatformAPI g_pf_lent;
static const PlatformAPI *lend_services(void) { g_pf_lent = *services_api(); return &g_pf_lent; }

/* Each call gets its own copy of GameMemory (memory_lend): a game that rewrites base or size changes
   nothing the host relies on; only `used` is read back, clamped to the block. */
/* Game code that closed the host's standard descriptors (a loop over close(0..20)): they are reopened on the
   null device before anything else can take their numbers (the host's own files live above them), and said. */
static void check_std_fds(void)
{
    int n = os_std_fds_check();
    if (!n) return;
    log_message(LOG_WARN,
                "game version %d closed %d of the host's standard descriptors (stdin, stdout, stderr): reopened on "
                "the null device; the host's logs and watcher were out of reach",
                running_lib()->version, n);
    notice_post(LOG_WARN, "The game closed the host's stdin/stdout/stderr: reopened (console output is lost)");
    log_event("descriptors_closed", "\"version\":%d,\"count\":%d", running_lib()->version, n);
}

int reload_call_update(const GameInput *gi)
{
    GameMemory mem = memory_lend();
    const PlatformAPI *pf = lend_services();
    if (!guarded(GUARD_UPDATE, [gi, &mem, pf] { running_api()->update(&mem, gi, pf); })) {
        memory_take_back(&mem);
        check_std_fds();
        return 0;
    }
    reload_on_crash(GUARD_UPDATE);
    return 1;
}

int reload_call_render(float alpha)
{
    GameMemory mem = memory_lend();
    const PlatformAPI *pf = lend_services();
    if (!guarded(GUARD_RENDER, [alpha, &mem, pf] { running_api()->render(&mem, alpha, pf); })) {
        memory_take_back(&mem);
        return 0;
    }
    reload_on_crash(GUARD_RENDER);
    return 1;
}

void reload_call_stats(char *buf, int cap)
{
    buf[0] = 0;
    GameMemory mem = memory_lend();   /* stats only reads: nothing comes back */
    if (running_api()->stats && running_run()->loaded &&
        guarded(GUARD_STATS, [buf, cap, &mem] { running_api()->stats(&mem, buf, cap); }))
        buf[0] = 0;
}

static int call_migrate(uint32_t old_hash, uint64_t old_ss, int *migrated)
{
    *migrated = 0;
    GameMemory mem = memory_lend();
    const PlatformAPI *pf = lend_services();
    int crashed = guarded(GUARD_MIGRATE, [=, &mem] { *migrated = running_api()->migrate(&mem, old_hash, old_ss, pf); });
    if (!crashed) memory_take_back(&mem);
    return crashed;
}

/* Runs the load hook of a freshly swapped library; a crash there is handled like any other. The hook is
   told (GameMemory.migrated) when the state it finds was just rewritten for its layout. */
static void run_load_hook(void)
{
    GameMemory mem = memory_lend();
    mem.migrated = (uint32_t)running_run()->load_migrated;
    running_run()->load_migrated = 0;
    const PlatformAPI *pf = lend_services();
    if (guarded(GUARD_LOAD, [&mem, pf] { running_api()->load(&mem, pf); })) reload_on_crash(GUARD_LOAD);
    else memory_take_back(&mem);
}

void reload_run_load(int migrated)
{
    if (!running_run()->loaded) return;
    running_run()->load_migrated = migrated;
    run_load_hook();
}

/* ---------------------------------------------------------------- pointers into a library that unloads */
/* Just before a library unloads: any 8-byte word of the game's used memory, at any byte offset, that
   points into its loaded image, .bss included (a string literal, a function pointer, a vtable, a
   static buffer stored in the state) dangles once it is gone. Each is reported with its offset in the
   block: a warning now instead of a crash frames later. */
static void report_image_pointers(const GameLib *lib)
{
    OsRange ranges[32];
    int n = os_lib_image(lib->path, ranges, 32);
    if (n <= 0) return;
    PointerHit hits[16];
    int count = memory_find_pointers(ranges, n, hits, 16);
    if (!count) return;
    uintptr_t image = ranges[0].lo;
    for (int r = 0; r < n; r++) if (ranges[r].file_offset == 0 && ranges[r].lo < image) image = ranges[r].lo;
    char json[8192], text[1024];
    size_t jl = 0, tl = 0;
    json[0] = text[0] = 0;
    int shown = count < 16 ? count : 16;
    for (int i = 0; i < shown; i++) {
        const OsRange *r = &ranges[hits[i].range];
        const char *kind = (r->prot & OS_PROT_EXEC) ? "code" : (r->prot & OS_PROT_WRITE) ? "data" : "read-only data";
        /* read-only data is where string literals live: show the text it points at */
        char str[48] = "";
        if (!(r->prot & (OS_PROT_EXEC | OS_PROT_WRITE)) && (r->prot & OS_PROT_READ)) {
            const char *p = (const char *)hits[i].value;
            size_t k = 0;
            while (k + 1 < sizeof str && hits[i].value + k < r->hi && p[k] >= 32 && p[k] < 127) { str[k] = p[k]; k++; }
            str[k] = 0;
        }
        char sesc[128];
        parse_json_escape(str, sesc, sizeof sesc);
        int w =
            snprintf(json + jl, sizeof json - jl,
                     "%s{\"offset\":%llu,\"library_offset\":%llu,\"kind\":\"%s\",\"text\":\"%s\"}", i ? "," : "",
                     (unsigned long long)hits[i].state_offset, (unsigned long long)(hits[i].value - image), kind, sesc);
        if (w > 0 && (size_t)w < sizeof json - jl) jl += (size_t)w;
        w = snprintf(text + tl, sizeof text - tl, "%sblock+0x%llx -> %s%s%s%s", i ? "; " : "",
                     (unsigned long long)hits[i].state_offset, kind, str[0] ? " \"" : "", str, str[0] ? "\"" : "");
        if (w > 0 && (size_t)w < sizeof text - tl) tl += (size_t)w;
    }
    log_message(LOG_WARN,
                "reload: the game state holds %d pointer%s into version %d's image, which unloads now: %s%s - "
                "they dangle from here on (store an index or an id, never a pointer into the library)",
                count, count == 1 ? "" : "s", lib->version, text, count > shown ? "; ..." : "");
    log_event("image_pointers", "\"version\":%d,\"count\":%d,\"hits\":[%s]", lib->version, count, json);
    snprintf(running_run()->pointer_warning, sizeof running_run()->pointer_warning,
             "%d pointer%s into unloaded version %d: %s", count, count == 1 ? "" : "s", lib->version, text);
}

/* ---------------------------------------------------------------- the reload sequence */
/* The crash event, for running code and for a new build's own code alike: what crashed (or hung) where,
   the version it rolled back to (0: none) and whether the game is halted. */
static void crash_event(int version, const char *kind, const char *in, const char *where, int rolled_back_to,
                        int halted, int restarted = 0)
{
    char wesc[3000];
    parse_json_escape(where, wesc, sizeof wesc);
    log_event("crash",
              "\"version\":%d,\"signal\":\"%s\",\"in\":\"%s\",\"where\":\"%s\",\"rolled_back_to\":%d,"
              "\"halted\":%s,\"snapshot_step\":%llu,\"step\":%llu%s",
              version, kind, in, wesc, rolled_back_to, halted ? "true" : "false",
              (unsigned long long)memory_state()->snapshot_step, (unsigned long long)frame_loop()->step,
              restarted ? ",\"restarted\":true" : "");
}

/* The new library's own code (static initializers, game_get_api) crashed or hung while it was being
   opened: nothing was swapped and the state was never touched, so the running code simply goes on. */
static void report_load_crash(int version, const char *where)
{
    const char *kind = guard_fault_name();
    const char *in = GUARD_NAMES[guard_report()->what];
    int hang = guard_report()->fault.kind == OS_FAULT_HANG;
    log_message(LOG_ERROR, "reload: the new build (version %d) %s in %s%s%s; %s", version,
                hang ? "hung (watchdog)" : kind, in, where[0] ? ": " : "", where,
                running_run()->loaded ? "still running the last good code" : "nothing loaded: fix it and save");
    snprintf(running_crash()->text, sizeof running_crash()->text, "version %d: %s in %s %s", version, kind, in, where);
    running_crash()->hung = hang;
    if (!running_run()->loaded) running_run()->halted = 1;
    crash_event(version, kind, in, where, running_run()->loaded ? running_lib()->version : 0, !running_run()->loaded);
}

/* Sizes as a person reads them: 2.13 GB, 40.0 MB, 512 bytes. */
static void size_text(uint64_t n, char *out, size_t cap)
{
    if (n >= 1000000000ull) snprintf(out, cap, "%.2f GB", n / 1e9);
    else if (n >= 1000000ull) snprintf(out, cap, "%.1f MB", n / 1e6);
    else if (n >= 1000ull) snprintf(out, cap, "%.1f KB", n / 1e3);
    else snprintf(out, cap, "%llu bytes", (unsigned long long)n);
}

/* A build whose state does not fit the block: said on screen (as a build error is) and in the log, with the
   line of the state header that made it big. */
static void refuse_too_big(const GameLib *next, const StateTypes *types)
{
    char state_header[HOST_PATH], blame[HOST_PATH + 16], big[32];
    snprintf(state_header, sizeof state_header, "%s/state.h", game_folder());
    types_blame_size(types, state_header, blame, sizeof blame);
    size_text(next->api.state_size, big, sizeof big);
    char msg[1024];
    snprintf(msg, sizeof msg, "state %s does not fit the %llu MB block: raise --memory or fix %s", big,
             (unsigned long long)(memory_state()->game.size >> 20), blame[0] ? blame : "state.h");
    log_message(LOG_ERROR, "reload: version %d refused: %s; still running version %d", next->version, msg,
                running_lib()->version);
    notice_post(LOG_ERROR, "%s", msg);
    snprintf(build_status()->errors, sizeof build_status()->errors, "%s", msg);
    build_status()->last_ok = 0;   /* the overlay shows it until a build loads */
    char esc[2048], besc[HOST_PATH * 2];
    parse_json_escape(msg, esc, sizeof esc);
    parse_json_escape(blame, besc, sizeof besc);
    log_event("reload_refused",
              "\"version\":%d,\"state_size\":%llu,\"block_size\":%llu,\"at\":\"%s\",\"reason\":\"%s\","
              "\"running\":%d",
              next->version, (unsigned long long)next->api.state_size, (unsigned long long)memory_state()->game.size,
              besc, esc, running_lib()->version);
}

/* The one way a library becomes the running game: a load, a rollback and a hot restart's resume all install
   through here. Its first good step says which code runs (new_code_running, rolled_back). */
static void install(const GameLib *lib, int code_of_version)
{
    *running_lib() = *lib;
    *running_api() = lib->api;
    running_run()->loaded = 1;
    running_run()->halted = 0;
    running_run()->fresh = 1;
    running_run()->code_of_version = code_of_version;
}

/* No library runs: the stub game, halted (waiting for a fix) when something crashed or could not load. */
static void run_stub(int halted)
{
    use_stub();
    running_run()->loaded = 0;
    running_run()->halted = halted;
}

/* reload_from, phase 1: the new build opened under a fresh name and its description of the state taken; 0 when it
   crashed while opening, was refused, or its state cannot fit the block (the old code and state run on). */
static int open_next(const char *src, int version, GameLib *next, StateTypes *types)
{
    char err[2048];
    int opened = library_open(src, version, next, err, sizeof err);
    if (opened < 0) {
        running_run()->version_counter = version;
        report_load_crash(version, err);
        restart_note_library();
        return 0;
    }
    if (!opened) {
        log_message(LOG_ERROR, "reload: %s", err);
        char esc[4096];
        parse_json_escape(err, esc, sizeof esc);
        log_event("reload_failed", "\"version\":%d,\"reason\":\"%s\"", version, esc);
        return 0;
    }
    running_run()->version_counter = version;
    memset(types, 0, sizeof *types);
    types_take(&next->api, types);   /* now: the image this points into unloads with the library */
    if (next->api.state_size > memory_state()->game.size) {
        /* A state that cannot fit would be swapped in only to crash in load with nothing to go back to:
           refuse it here, while the old code and its state still run. */
        refuse_too_big(next, types);
        types_clear(types);
        char uerr[1024];
        library_close(next, uerr, sizeof uerr);
        return 0;
    }
    return 1;
}

/* phase 2: what a crash of the new code goes back to: a copy of the running library and a snapshot of the
   state, with the layout the block had (a first load's empty snapshot fits the new one). Returns its ms. */
static double keep_rollback_point(const BlockLayout *old, const StateTypes *next_types)
{
    if (running_run()->loaded && !running_run()->halted) {
        char keep[HOST_PATH];
        snprintf(keep, sizeof keep, "%s/loaded/rollback.%d.so", game_build_folder(), os_pid());
        if (os_copy_file(running_lib()->path, keep)) {
            snprintf(running_run()->prev_good_path, sizeof running_run()->prev_good_path, "%s", keep);
            running_run()->prev_good_version = running_lib()->version;
        }
    }
    double ms = memory_snapshot_take(frame_loop()->step);
    running_run()->snap_layout_hash = old->known ? old->layout_hash : running_layout()->layout_hash;
    running_run()->snap_state_size = old->known ? old->state_size : running_layout()->state_size;
    types_copy(types_of_snapshot(), old->known ? types_of_block() : next_types);
    return ms;
}

/* phase 4, on a layout change: never run new code on memory laid out for the old code. The block is rewritten
   with the two descriptions, else by the game's migrate hook, else the state restarts. The pre-migration snapshot
   stays the crash snapshot, with its own layout: a crash in the new code goes back to it under the old library.
   Returns the state's fate ("migrated", "restarted"). */
static const char *carry_state(const BlockLayout *old, const StateTypes *next_types, int version)
{
    char what[2048] = "", why[1024] = "";
    double migrate_ms = 0;
    const char *how = "";
    int migrated = migrate_block(types_of_block(), next_types, running_api(), what, sizeof what, &migrate_ms);
    if (migrated) how = "description";
    else snprintf(why, sizeof why, "%s", what);
    if (!migrated && running_api()->migrate) {
        if (call_migrate(old->layout_hash, old->state_size, &migrated)) { migrated = 0; memory_snapshot_restore(); }
        if (migrated) { how = "hook"; snprintf(what, sizeof what, "the game's migrate hook rewrote it"); }
    }
    /* the F7 loop's start follows when the descriptions carried the block; a --record file ends */
    recording_layout_changed(!strcmp(how, "description") ? types_of_block() : NULL, next_types, running_api());
    if (migrated) {
        running_run()->load_migrated = 1;
        log_message(LOG_INFO, "reload: the state's layout changed and the state was migrated: %s", what);
        notice_post(LOG_INFO, "State migrated: %s", what);
        parse_json_escape(what, running_run()->migrate_what, sizeof running_run()->migrate_what);
        running_run()->migrate_ms = migrate_ms;
        snprintf(running_run()->migrate_how, sizeof running_run()->migrate_how, "%s", how);
        return "migrated";
    }
    memory_reset();
    timeline_clear("state_restart");   /* the state jumped: the kept states are not its past */
    log_message(LOG_WARN,
                "reload: the state's layout changed and the state could not be carried over (%s): the game state "
                "restarted from scratch",
                why);
    notice_post(LOG_WARN, "Restarted: %s", why);
    char wesc[4096];
    parse_json_escape(why, wesc, sizeof wesc);
    log_event("migrate_refused", "\"version\":%d,\"why\":\"%s\"", version, wesc);
    memory_snapshot_take(frame_loop()->step);
    running_run()->snap_layout_hash = running_api()->layout_hash;
    running_run()->snap_state_size = running_api()->state_size;
    types_copy(types_of_snapshot(), next_types);
    return "restarted";
}

/* phase 5: the old library closed, checked gone, and pointers into it reported; 0 if it stayed mapped. */
static int unload_old(GameLib *old, char *err, size_t cap)
{
    running_run()->pointer_warning[0] = 0;
    if (!old->handle) return 1;
    report_image_pointers(old);
    return library_close(old, err, cap);
}

/* phase 6: the reload said (log, event), then the new code's load hook, and after a migration the game's own
   view of the state before and after it (the "migrated" event). */
static void announce(int version, const char *why, double t0, double snap_ms, const char *state_action, int unmapped,
                     const char *uerr, const BlockLayout *old, const char *stats_before)
{
    double swap_ms = (os_mono_seconds() - t0) * 1000.0;
    running_run()->last_reload_t = log_time();
    char path_json[HOST_PATH * 2];
    parse_json_escape(running_lib()->path, path_json, sizeof path_json);
    log_event("reload",
              "\"version\":%d,\"why\":\"%s\",\"swap_ms\":%.3f,\"snapshot_ms\":%.3f,\"state\":\"%s\","
              "\"layout_hash\":%u,\"state_size\":%llu,\"old_unmapped\":%s,\"step\":%llu,\"path\":\"%s\"",
              version, why, swap_ms, snap_ms, state_action, running_api()->layout_hash,
              (unsigned long long)running_api()->state_size, unmapped ? "true" : "false",
              (unsigned long long)frame_loop()->step, path_json);
    if (!unmapped) {
        log_message(LOG_ERROR, "reload: %s", uerr);
        char esc[4096];
        parse_json_escape(uerr, esc, sizeof esc);
        log_event("unload_failed", "\"reason\":\"%s\"", esc);
        restart_note_unload_failed();
    }
    log_message(LOG_INFO, "reload: version %d loaded in %.2f ms (%s), state %s", version, swap_ms, why, state_action);
    tweak_library_loaded(version, 0);
    int migrated_now = running_run()->load_migrated;
    run_load_hook();
    if (migrated_now && running_lib()->version == version) {   /* (not when its load crashed and rolled back) */
        static char stats_after[2048];
        reload_call_stats(stats_after, sizeof stats_after);
        log_event("migrated",
                  "\"version\":%d,\"by\":\"%s\",\"what\":\"%s\",\"ms\":%.3f,\"from_size\":%llu,\"to_size\":%llu,"
                  "\"step\":%llu,\"before\":{%s},\"after\":{%s}",
                  version, running_run()->migrate_how, running_run()->migrate_what, running_run()->migrate_ms,
                  (unsigned long long)old->state_size, (unsigned long long)running_api()->state_size,
                  (unsigned long long)frame_loop()->step, stats_before, stats_after);
    }
}

/* A new build becomes the running code: open it, keep the rollback point, swap, carry the state across a layout
   change, unload the old one and check it is gone, run the new load hook. */
int reload_from(const char *src, const char *why)
{
    double t0 = os_mono_seconds();
    int version = running_run()->version_counter + 1;
    GameLib next;
    StateTypes next_types;
    if (!open_next(src, version, &next, &next_types)) return 0;
    BlockLayout old_layout = *running_layout();
    int layout_changed = old_layout.known && (next.api.layout_hash != old_layout.layout_hash ||
                                              next.api.state_size != old_layout.state_size);
    running_layout()->known = 1;
    running_layout()->layout_hash = next.api.layout_hash;
    running_layout()->state_size = next.api.state_size;
    double snap_ms = keep_rollback_point(&old_layout, &next_types);

    /* phase 3, the swap; the game's own view of the state on both sides of a layout change, at the same step */
    static char stats_before[2048];
    stats_before[0] = 0;
    if (layout_changed) reload_call_stats(stats_before, sizeof stats_before);
    GameLib old = *running_lib();
    install(&next, version);
    memory_tweak_window()->window = 0;   /* new code: a crash from here on is the code's */
    tweak_suspects_clear();
    memset(running_crash(), 0, sizeof *running_crash());
    restart_note_library();   /* before the old one unloads: a restart from here on goes on with the new code */

    const char *state_action = !old_layout.known ? "new"
                               : layout_changed  ? carry_state(&old_layout, &next_types, version)
                                                 : "kept";
    types_copy(types_of_block(), &next_types);
    types_clear(&next_types);
    char uerr[2048] = "";
    int unmapped = unload_old(&old, uerr, sizeof uerr);
    announce(version, why, t0, snap_ms, state_action, unmapped, uerr, &old_layout, stats_before);
    if (running_lib()->version == version) timeline_reloaded(layout_changed);   /* new epoch; new layout: cleared */
    return 1;
}

/* ---------------------------------------------------------------- rollback */
/* TWEAK values that went live: the state from just before is kept aside, and a crash or hang within
   TWEAK_SUSPECT_STEPS steps goes back to it with the old values (reload_on_crash), not to the older
   snapshot of the last code reload. */
#define TWEAK_SUSPECT_STEPS 300

static void tweak_went_live(void)
{
    double ms = memory_tweak_snapshot_take();
    /* as new code: steps before the new values are not compared with replays under them, and while paused in the
       past the same seconds play again with them */
    timeline_reloaded(0);
    TweakWindow *tw = memory_tweak_window();
    tw->window = ms >= 0;
    tw->step = frame_loop()->step;
    tw->wall = os_wall_seconds();
    if (ms < 0)
        log_message(LOG_WARN, "tweak: no memory for the state before the new values: a crash goes back further");
}

/* A TWEAK rollback, said: the old values served again and the crash blamed on the new ones, in one process
   (tweak_rollback) or after a hot restart (reload_resume). The state from just before they went live is back. */
typedef struct TweakBlame {
    int         version;                /* the version that crashed, with the new values */
    const char *kind, *in, *where;      /* the signal ("hang"), the call, the frames */
    uint64_t    step;                   /* the step at the fault */
    int         restarted;              /* after a hot restart */
    int         rolled_back_to, halted; /* the crash event's */
} TweakBlame;

static void tweak_rollback_report(const TweakBlame *b, const TweakWindow *tw)
{
    char values[1024];
    tweak_revert_suspects(values, sizeof values);
    int hang = !strcmp(b->kind, "hang");
    log_message(LOG_ERROR,
                "game version %d %s in %s%s%s, %llu steps after %s went live: %sback to the state from just "
                "before it and to the old value; fix the literal and save",
                b->version, hang && !b->restarted ? "hung (watchdog)" : b->kind, b->in, b->where[0] ? ": " : "",
                b->where, (unsigned long long)(b->step - tw->step), values, b->restarted ? "the host restarted; " : "");
    notice_post(LOG_WARN, "%s %s the game: the state from just before it and the old value are back", values,
                hang ? "hung" : "crashed");
    snprintf(running_crash()->text, sizeof running_crash()->text, "version %d: %s in %s after %s (old value back) %s",
             b->version, b->kind, b->in, values, b->where);
    running_crash()->hung = hang;
    crash_event(b->version, b->kind, b->in, b->where, b->rolled_back_to, b->halted, b->restarted);
    char vesc[2048], more[64];
    parse_json_escape(values, vesc, sizeof vesc);
    if (b->restarted) snprintf(more, sizeof more, "\"restarted\":true");
    else snprintf(more, sizeof more, "\"since_live_ms\":%.1f", (os_wall_seconds() - tw->wall) * 1000.0);
    log_event("tweak_rollback",
              "\"version\":%d,\"signal\":\"%s\",\"values\":\"%s\",\"tweak_step\":%llu,\"step\":%llu,%s",
              running_lib()->version, b->kind, vesc, (unsigned long long)tw->step, (unsigned long long)b->step, more);
}

/* A crash or hang in update/render soon after TWEAK values went live: theirs. The state from just before
   they went live comes back, the old values are served again (the blamed ones not until the literal
   changes), and the code that runs stays: it ran fine before the values changed. 0: not a tweak's. */
static int tweak_rollback(GuardWhat what, const char *kind, const char *where)
{
    TweakWindow *tw = memory_tweak_window();
    if (!tw->window) return 0;
    tw->window = 0;
    if ((what != GUARD_UPDATE && what != GUARD_RENDER) || frame_loop()->step - tw->step > TWEAK_SUSPECT_STEPS) return 0;
    if (!memory_tweak_snapshot_restore()) return 0;
    TweakBlame b = { running_lib()->version, kind, GUARD_NAMES[what],      where,
                     frame_loop()->step,     0,    running_lib()->version, 0 };
    tweak_rollback_report(&b, tw);
    return 1;
}

void reload_on_crash(GuardWhat what)
{
    int hang = guard_report()->fault.kind == OS_FAULT_HANG;
    const char *kind = guard_fault_name();
    char where[1500];
    guard_describe_backtrace(running_lib()->path, where, sizeof where);
    timeline_clear("crash_rollback");   /* the state goes back to a snapshot the timeline does not hold */
    if (tweak_rollback(what, kind, where)) return;
    int crashed_version = running_lib()->version;
    log_message(LOG_ERROR, "game version %d %s in %s%s%s", crashed_version, hang ? "hung (watchdog)" : kind,
                GUARD_NAMES[what], where[0] ? ": " : "", where);
    snprintf(running_crash()->text, sizeof running_crash()->text, "version %d: %s in %s %s", crashed_version, kind,
             GUARD_NAMES[what], where);
    running_crash()->hung = hang;

    /* Back to the state from just before this code first ran, and to the code that ran before it; after a
       migration that state has the old layout. */
    memory_snapshot_restore();
    running_layout()->layout_hash = running_run()->snap_layout_hash;
    running_layout()->state_size = running_run()->snap_state_size;
    types_copy(types_of_block(), types_of_snapshot());
    char err[1024];
    GameLib bad = *running_lib();
    memset(running_lib(), 0, sizeof *running_lib());
    report_image_pointers(&bad);
    library_close(&bad, err, sizeof err);
    int rolled_back = 0;
    if (running_run()->prev_good_path[0]) {
        GameLib prev;
        running_run()->version_counter++;
        /* The restored memory has the layout of the crashed code; older code may only run on it if it matches. */
        if (library_open(running_run()->prev_good_path, running_run()->version_counter, &prev, err, sizeof err) > 0 &&
            prev.api.layout_hash == running_layout()->layout_hash &&
            prev.api.state_size == running_layout()->state_size) {
            install(&prev, running_run()->prev_good_version);
            rolled_back = 1;
        } else if (prev.handle) {
            library_close(&prev, err, sizeof err);
        }
    }
    /* A rolled-back library is not a target to roll back to again. */
    running_run()->prev_good_path[0] = 0;
    if (!rolled_back) run_stub(1);
    crash_event(crashed_version, kind, GUARD_NAMES[what], where, rolled_back ? running_run()->prev_good_version : 0,
                running_run()->halted);
    restart_note_library();
    if (rolled_back)
        tweak_library_loaded(running_lib()->version, running_run()->prev_good_version); /* the old code's sources */
    if (rolled_back) {
        log_message(LOG_WARN, "rolled back to version %d and the state from step %llu; fix the code and save",
                    running_run()->prev_good_version, (unsigned long long)memory_state()->snapshot_step);
        run_load_hook();
    } else {
        log_message(LOG_WARN, "nothing to roll back to: the game is halted until a build loads");
    }
}

/* ---------------------------------------------------------------- after a hot restart */
/* A new process, the same session: the block is as it was (session/restart.cpp mapped it back). When the running
   code was at fault, its snapshot goes back and the code before it loads (as reload_on_crash does);
   otherwise the running library loads again over the state as it is. The old process's copies go. */
/* The old process's versioned copies (one it was loading when it stopped, say): nothing maps them now. */
typedef struct StaleCopies { char dir[HOST_PATH]; char prefix[64]; const char *keep; } StaleCopies;
static void remove_stale_copy(void *ctx, const char *name, int is_dir)
{
    StaleCopies *sc = (StaleCopies *)ctx;
    if (is_dir || strncmp(name, sc->prefix, strlen(sc->prefix)) != 0) return;
    char path[HOST_PATH];
    snprintf(path, sizeof path, "%s/%s", sc->dir, name);
    if (strcmp(path, sc->keep) != 0) os_remove_file(path);
}

static void remove_stale_copies(const char *keep)
{
    StaleCopies sc;
    snprintf(sc.dir, sizeof sc.dir, "%s/loaded", game_build_folder());
    snprintf(sc.prefix, sizeof sc.prefix, OS_LIB_PREFIX "game.%d.v", os_pid());
    sc.keep = keep;
    os_list_dir(sc.dir, remove_stale_copy, &sc);
}

void reload_resume(const RestartResume *r)
{
    running_run()->version_counter = r->run.version_counter;
    running_layout()->known = r->run.mem_has_layout;
    running_layout()->layout_hash = r->run.mem_layout_hash;
    running_layout()->state_size = r->run.mem_state_size;
    /* A fault soon after TWEAK values went live is theirs, as tweak_rollback judges it in one process: the state
       from just before they went live (the session kept it), the same code, the old values. */
    TweakWindow *tw = memory_tweak_window();
    int tweak_back = r->rollback && tw->window && tw->used && (r->what == GUARD_UPDATE || r->what == GUARD_RENDER) &&
                     r->step - tw->step <= TWEAK_SUSPECT_STEPS && r->run.running_path[0];
    tw->window = 0;
    int rollback = r->rollback && !tweak_back;
    if (tweak_back) memory_tweak_snapshot_restore();
    else if (rollback) memory_snapshot_restore();
    const char *path = rollback ? r->run.prev_good_path : r->run.running_path;
    GameLib next;
    memset(&next, 0, sizeof next);
    char err[2048] = "";
    int ok = 0;
    if (path[0]) {
        int opened = library_open(path, ++running_run()->version_counter, &next, err, sizeof err);
        if (opened > 0 && r->run.mem_has_layout &&
            (next.api.layout_hash != r->run.mem_layout_hash || next.api.state_size != r->run.mem_state_size)) {
            snprintf(err, sizeof err, "%s has another state layout than the kept state", path);
            library_close(&next, err + strlen(err), sizeof err - strlen(err));
        } else {
            ok = opened > 0;
        }
    }
    if (r->run.running_path[0]) os_remove_file(r->run.running_path);
    remove_stale_copies(ok ? next.path : "");
    if (rollback && r->run.prev_good_path[0]) os_remove_file(r->run.prev_good_path);
    /* a rolled-back library is not a target to roll back to again */
    snprintf(running_run()->prev_good_path, sizeof running_run()->prev_good_path, "%s",
             rollback ? "" : r->run.prev_good_path);
    running_run()->prev_good_version = r->run.prev_good_version;
    if (ok) {
        install(&next, rollback ? r->run.prev_good_version : next.version);
        types_clear(types_of_block());   /* the block's layout is this library's: its description, for a later */
        types_take(&next.api, types_of_block());   /* migration, the timeline's names and the inspector */
    } else {
        run_stub(path[0] != 0 || rollback);
        if (path[0]) log_message(LOG_ERROR, "hot restart: cannot load %s again: %s", path, err);
    }
    os_file_stamp(library_built_path(), &build_status()->built_stamp);   /* not loaded again as an outside build */
    const char *in = r->what >= 0 && r->what <= GUARD_UNLOAD ? GUARD_NAMES[r->what] : "host";
    char resc[1100];
    parse_json_escape(r->reason, resc, sizeof resc);
    if (rollback) {
        snprintf(running_crash()->text, sizeof running_crash()->text, "version %d: %s in %s %s", r->run.running_version,
                 r->signal, in, r->where);
        running_crash()->hung = !strcmp(r->signal, "hang");
        log_message(LOG_ERROR, "game version %d %s in %s%s%s", r->run.running_version, r->signal, in,
                    r->where[0] ? ": " : "", r->where);
        crash_event(r->run.running_version, r->signal, in, r->where, ok ? r->run.prev_good_version : 0,
                    running_run()->halted, 1);
    }
    log_event("hot_restart",
              "\"kept\":true,\"reason\":\"%s\",\"mode\":\"%s\",\"version\":%d,\"loaded\":%s,\"restarts\":%d,"
              "\"since_fault_ms\":%.1f,\"step\":%llu",
              resc, r->rollback ? "rollback" : "keep", running_lib()->version, ok ? "true" : "false", r->restarts,
              r->since_fault_ms, (unsigned long long)frame_loop()->step);
    if (ok) tweak_library_resumed(running_lib()->version, rollback ? r->run.prev_good_version : r->run.running_version);
    if (tweak_back) {   /* the fault was the TWEAK values that had just gone live: the old values again */
        tweak_suspects_resume();
        running_run()->code_of_version = r->run.running_version;
        TweakBlame b = { r->run.running_version, r->signal, in, r->where, r->step, 1, ok ? running_lib()->version : 0,
                         running_run()->halted };
        tweak_rollback_report(&b, tw);
    }
    if (ok) run_load_hook();
}

void reload_restart_state(void)
{
    memory_reset();
    recording_stop();
    timeline_clear("state_restart");
    log_event("state_restart", "");
    log_message(LOG_INFO, "F6: game state restarted");
    if (running_run()->loaded) run_load_hook();
}

/* ---------------------------------------------------------------- what starts a reload */
void reload_start(void)
{
    /* Start from the library on disk if it is there; build it otherwise (the frames don't wait). */
    const char *lib = library_built_path();
    OsFileStamp st;
    if (os_file_stamp(lib, &st)) {
        build_status()->built_stamp = st;
        reload_from(lib, "start");
    }
    if (!running_run()->loaded) {
        log_message(LOG_INFO, "no game library yet: building it");
        build_start(options()->root);
    }
}

int reload_handle_changes(const FileChanges *c)
{
    int rebuild = 0, live = 0, others = 0;   /* others: changes that are not the F4 panel's own writes */
    /* the debounce: from the batch's first event to now, when it is handed over */
    log_event("watch_batch", "\"count\":%d,\"code\":%s,\"seen_wall\":%.4f,\"debounce_ms\":%.2f", c->count,
              c->code ? "true" : "false", c->first_seen_wall, (os_mono_seconds() - c->first_seen_t) * 1000.0);
    tweak_batch_begin();
    for (int i = 0; i < c->count; i++) {
        char esc[HOST_PATH * 2];
        parse_json_escape(c->paths[i], esc, sizeof esc);
        log_event("file_changed", "\"path\":\"%s\"", esc);
        if (watch_is_asset(c->paths[i])) {
            assets_file_changed(c->paths[i]);
            sound_asset_changed(c->paths[i]);
            tilemap_file_changed(c->paths[i]);
        }
        else {
            int r = tweak_file_changed(c->paths[i]);   /* 2: the host's own write-back, live already */
            if (r == 0) rebuild = 1;                   /* more than TWEAK literals changed */
            else if (r == 1) live = 1;
            if (r != 2) others++;
        }
    }
    if (tweak_batch_end()) tweak_went_live();
    /* After a rollback, a save that brings the sources back to the code that runs (only literals differ, so
       nothing rebuilds) is the fix: the crash banner goes. */
    if (live && !rebuild && running_crash()->text[0] && running_run()->loaded && !running_run()->halted) {
        memset(running_crash(), 0, sizeof *running_crash());
        log_message(LOG_INFO, "the saved code is the code that runs (version %d): the crash is behind us",
                    running_run()->code_of_version);
        log_event("crash_cleared", "\"version\":%d,\"code_of_version\":%d", running_lib()->version,
                  running_run()->code_of_version);
    }
    /* after a failed build, any save rebuilds: the errors on screen must go when the code is fixed */
    if (c->code && (rebuild || (build_status()->errors[0] && others))) {
        build_status()->change_seen_t = log_time();
        build_start(options()->root);
    }
    if (c->library && !build_running()) {
        OsFileStamp st;
        const char *lib = library_built_path();
        if (os_file_stamp(lib, &st) &&
            (st.ino != build_status()->built_stamp.ino ||
             st.mtime_ns / 1000000000 != build_status()->built_stamp.mtime_ns / 1000000000)) {
            build_status()->built_stamp = st;
            reload_from(lib, "outside build");
        }
    }
    return live;
}

void reload_handle_build(const BuildResult *b)
{
    log_event("build_frames", "\"max_frame_interval_ms\":%.2f,\"ok\":%s", build_status()->frame_max_ms,
              b->ok ? "true" : "false");
    build_status()->frame_max_ms = 0;
    build_status()->last_ms = b->ms;
    build_status()->last_ok = b->ok;
    if (!b->ok) {
        build_error_summary(b->output, build_status()->errors, sizeof build_status()->errors);
        log_message(LOG_ERROR, "build failed in %.0f ms; still running version %d\n%s", b->ms, running_lib()->version,
                    build_status()->errors);
        return;
    }
    build_status()->errors[0] = 0;
    os_file_stamp(library_built_path(), &build_status()->built_stamp);
    reload_from(library_built_path(), "build");
}
