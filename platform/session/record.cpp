/* record.cpp - input recording and looped playback. A recording is a snapshot of the block followed
   by one GameInput per step. In memory (F7) it loops; on disk (--record/--replay) it has a
   RecordingHeader in front (parse.cpp). */
#include "session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "th_math.h"

static struct {
    LoopMode   mode;
    GameInput *inputs;
    uint64_t   count, cap, cursor;
    uint8_t   *start_state;       /* the recording's own snapshot (separate from crash snapshots) */
    uint64_t   start_used;
    uint32_t   start_layout_hash; /* the layout that snapshot has */
    uint64_t   start_size;
    FILE      *file;              /* --record */
    char       file_path[HOST_PATH];
    uint64_t   file_steps;
    int        replaying_file;    /* --replay: play once, then report the state hash */
    int        start_migrated;    /* the start was rewritten for a new layout: load runs after each restore */
} g_recording;

LoopMode recording_mode(void) { return g_recording.mode; }

/* The F7 loop is kept in the session as well, written as it changes, so a hot restart finds it: its mode, cursor
   and count are this module's slice (core.h), its snapshot and its inputs (up to the area's cap) two areas of the
   session's memory (restart_reserve). A --replay file is not kept. */
#define LOOP_SLICE      "record.loop"
#define LOOP_START      "record.loop_start"
#define LOOP_INPUTS     "record.loop_inputs"
#define LOOP_KEPT_STEPS (60ull * 60 * 10)   /* up to 10 minutes of input across a restart */

typedef struct KeptLoop {
    int      mode;                      /* LoopMode */
    uint64_t count, cursor, cap;        /* recorded steps (at most cap are kept), the next one to play */
    uint64_t start_used;                /* the loop's snapshot: bytes, and the layout it has */
    uint64_t start_hash;                /* th_hash_bytes64 of it: a damaged copy is not looped */
    uint32_t start_version;
    uint64_t start_size;
    int      record_on;                 /* --record: its file is open, and holds record_steps steps (flushed) */
    uint64_t record_steps;
} KeptLoop;

static struct { GameInput *inputs; uint8_t *start_state; } g_kept;

void recording_reserve(uint64_t block_bytes)
{
    restart_reserve(LOOP_START, block_bytes);
    restart_reserve(LOOP_INPUTS, LOOP_KEPT_STEPS * sizeof(GameInput));
}

/* the slice, and the areas into g_kept; NULL without a session (nothing is kept) */
static KeptLoop *kept(void)
{
    uint64_t cap = 0;
    g_kept.start_state = restart_area(LOOP_START, NULL);
    g_kept.inputs = (GameInput *)restart_area(LOOP_INPUTS, &cap);
    if (!g_kept.start_state || !g_kept.inputs) return NULL;
    KeptLoop *k = (KeptLoop *)session_slice(LOOP_SLICE, sizeof(KeptLoop));
    k->cap = cap / sizeof(GameInput);
    return k;
}

static void keep_position(void)
{
    KeptLoop *k = kept();
    if (!k) return;
    k->mode = g_recording.replaying_file ? LOOP_OFF : g_recording.mode;
    k->cursor = g_recording.cursor;
    k->count = g_recording.count < k->cap ? g_recording.count : k->cap;
    restart_area_used(LOOP_INPUTS, k->count * sizeof(GameInput));
}

static void rec_push(const GameInput *gi)
{
    if (g_recording.count == g_recording.cap) {
        g_recording.cap = g_recording.cap ? g_recording.cap * 2 : 1024;
        g_recording.inputs = (GameInput *)realloc(g_recording.inputs, sizeof(GameInput) * g_recording.cap);
    }
    g_recording.inputs[g_recording.count++] = *gi;
    KeptLoop *k = kept();
    if (k && !g_recording.replaying_file && g_recording.count <= k->cap) g_kept.inputs[g_recording.count - 1] = *gi;
}

/* the loop's start state into the session, as it is now (taken, or migrated to a new layout) */
static void keep_start(void)
{
    KeptLoop *k = kept();
    if (!k) return;
    k->mode = LOOP_OFF;   /* until the copy below is whole; keep_position() sets it again */
    memcpy(g_kept.start_state, g_recording.start_state, g_recording.start_used);
    k->start_used = g_recording.start_used;
    restart_area_used(LOOP_START, g_recording.start_used);
    k->start_hash = th_hash_bytes64(g_kept.start_state, (size_t)g_recording.start_used);
    k->start_version = g_recording.start_layout_hash;
    k->start_size = g_recording.start_size;
}

static void rec_capture_start(void)
{
    g_recording.start_used = memory_used();
    g_recording.start_state =
        (uint8_t *)realloc(g_recording.start_state, g_recording.start_used ? g_recording.start_used : 1);
    memcpy(g_recording.start_state, memory_state()->game.base, g_recording.start_used);
    g_recording.start_layout_hash = running_layout()->layout_hash;
    g_recording.start_size = running_layout()->state_size;
    g_recording.start_migrated = 0;
    g_recording.count = 0;
    keep_start();
    KeptLoop *k = kept();
    if (k) k->count = k->cursor = 0;
}

/* The loop's snapshot only goes back into a block laid out the same way (recording_layout_changed ends
   the loop first; this is the last line). */
static int rec_restore_start(void)
{
    if (g_recording.start_layout_hash != running_layout()->layout_hash ||
        g_recording.start_size != running_layout()->state_size) {
        log_message(LOG_ERROR,
                    "F7 loop: its snapshot has another state layout (version %u, %llu bytes; running %u, %llu): "
                    "loop ended",
                    g_recording.start_layout_hash, (unsigned long long)g_recording.start_size,
                    running_layout()->layout_hash, (unsigned long long)running_layout()->state_size);
        log_event("loop", "\"state\":\"off\",\"reason\":\"layout_mismatch\"");
        g_recording.mode = LOOP_OFF;
        g_recording.replaying_file = 0;
        return 0;
    }
    uint64_t now_used = memory_used();
    memcpy(memory_state()->game.base, g_recording.start_state, g_recording.start_used);
    if (now_used > g_recording.start_used)
        memset((uint8_t *)memory_state()->game.base + g_recording.start_used, 0, now_used - g_recording.start_used);
    g_recording.cursor = 0;
    /* a migrated start holds no caches (they are transient): the game's load rebuilds them */
    if (g_recording.start_migrated) running_load(1);
    return 1;
}

void recording_toggle_loop(void)
{
    if (g_recording.mode == LOOP_OFF) {
        double t = os_mono_seconds();
        rec_capture_start();
        g_recording.mode = LOOP_RECORDING;
        log_event("loop", "\"state\":\"recording\",\"snapshot_ms\":%.2f,\"bytes\":%llu", (os_mono_seconds() - t) * 1000,
                  (unsigned long long)g_recording.start_used);
        log_message(LOG_INFO, "F7: recording input (F7 again to loop it)");
    } else if (g_recording.mode == LOOP_RECORDING) {
        if (g_recording.count == 0) {
            g_recording.mode = LOOP_OFF;
            log_message(LOG_INFO, "F7: nothing recorded");
            return;
        }
        g_recording.mode = LOOP_PLAYING;
        if (!rec_restore_start()) return;
        log_event("loop", "\"state\":\"playing\",\"steps\":%llu", (unsigned long long)g_recording.count);
        log_message(LOG_INFO, "F7: looping %llu recorded steps (F7 again to return to live play)",
                    (unsigned long long)g_recording.count);
    } else {
        g_recording.mode = LOOP_OFF;
        log_event("loop", "\"state\":\"off\"");
        log_message(LOG_INFO, "F7: back to live play");
    }
    keep_position();
}

void recording_stop(void) { g_recording.mode = LOOP_OFF; keep_position(); }

static void recording_file_continue(const char *path, uint64_t steps);

void recording_resume(void)
{
    KeptLoop *k = kept();
    if (k && k->record_on && options()->record_path) recording_file_continue(options()->record_path, k->record_steps);
    if (!k || k->mode == LOOP_OFF || k->count == 0 || k->start_used > memory_state()->game.size) return;
    /* the session's copy lies beside the block: a wild write in game code can reach it */
    if (th_hash_bytes64(g_kept.start_state, (size_t)k->start_used) != k->start_hash) {
        log_message(LOG_ERROR,
                    "F7 loop: its snapshot kept over the hot restart is damaged (%llu bytes whose hash is not the "
                    "one taken): not looped; live play goes on (F7 records a new loop)",
                    (unsigned long long)k->start_used);
        log_event("loop", "\"state\":\"off\",\"reason\":\"damaged\"");
        k->mode = LOOP_OFF;
        return;
    }
    g_recording.inputs = (GameInput *)realloc(g_recording.inputs, sizeof(GameInput) * k->count);
    g_recording.start_state = (uint8_t *)realloc(g_recording.start_state, k->start_used ? k->start_used : 1);
    if (!g_recording.inputs || !g_recording.start_state) return;
    memcpy(g_recording.inputs, g_kept.inputs, sizeof(GameInput) * k->count);
    memcpy(g_recording.start_state, g_kept.start_state, k->start_used);
    g_recording.cap = g_recording.count = k->count;
    g_recording.cursor = k->cursor <= k->count ? k->cursor : 0;
    g_recording.start_used = k->start_used;
    g_recording.start_layout_hash = k->start_version;
    g_recording.start_size = k->start_size;
    g_recording.mode = (LoopMode)k->mode;
    log_event("loop", "\"state\":\"%s\",\"steps\":%llu,\"resumed\":true",
              g_recording.mode == LOOP_PLAYING ? "playing" : "recording", (unsigned long long)g_recording.count);
    log_message(LOG_INFO, "F7 loop kept over the restart: %s %llu steps",
                g_recording.mode == LOOP_PLAYING ? "looping" : "recording", (unsigned long long)g_recording.count);
}

/* Once per fixed step, before the game sees gi: record it, or replace it with the recorded one. */
void recording_step(GameInput *gi)
{
    if (g_recording.mode == LOOP_RECORDING) rec_push(gi);
    if (g_recording.mode == LOOP_PLAYING && g_recording.count) {
        if (g_recording.cursor >= g_recording.count) {
            if (g_recording.replaying_file) {
                char hash[32];
                snprintf(hash, sizeof hash, "%016llx", (unsigned long long)memory_hash());
                log_event("replay_end", "\"steps\":%llu,\"state_hash\":\"%s\"", (unsigned long long)g_recording.count,
                          hash);
                g_recording.mode = LOOP_OFF;
                g_recording.replaying_file = 0;
            } else if (rec_restore_start()) {
                log_event("loop_restart", "");
            }
        }
        if (g_recording.mode == LOOP_PLAYING) *gi = g_recording.inputs[g_recording.cursor++];
    }
    keep_position();
    if (g_recording.file) {
        fwrite(gi, sizeof *gi, 1, g_recording.file);
        g_recording.file_steps++;
        /* in the file at every step: nothing can be flushed at a fault, and a hot restart goes on from here */
        fflush(g_recording.file);
        KeptLoop *k = kept();
        if (k) k->record_steps = g_recording.file_steps;
    }
}

/* The loop's start state is rewritten for the new layout as the block was (from NULL: the block was not
   migrated by description, so the loop ends). */
static int rec_migrate_start(const StateTypes *from, const StateTypes *to, const GameAPI *api)
{
    if (!from || g_recording.mode == LOOP_OFF || g_recording.start_layout_hash != from->layout_hash ||
        g_recording.start_size != from->state_size)
        return 0;
    uint64_t size = to->state_size;
    uint8_t *out = (uint8_t *)malloc(size ? size : 1);
    char what[2048];
    if (!out ||
        !migrate_bytes(from, to, api, g_recording.start_state, g_recording.start_used, out, size, what, sizeof what)) {
        log_message(LOG_WARN, "F7 loop: its start could not be migrated (%s)", out ? what : "out of memory");
        free(out);
        return 0;
    }
    free(g_recording.start_state);
    g_recording.start_state = out;
    g_recording.start_used = size;
    g_recording.start_layout_hash = to->layout_hash;
    g_recording.start_size = to->state_size;
    g_recording.start_migrated = 1;
    keep_start();
    keep_position();
    log_message(LOG_INFO, "F7 loop: its start migrated to the new layout; it keeps looping");
    log_event("loop", "\"state\":\"migrated\",\"steps\":%llu", (unsigned long long)g_recording.count);
    return 1;
}

void recording_layout_changed(const StateTypes *from, const StateTypes *to, const GameAPI *api)
{
    if (g_recording.mode != LOOP_OFF && !rec_migrate_start(from, to, api)) {
        log_message(LOG_WARN, "F7 loop ended: the state layout changed, and a loop recorded on the old layout cannot "
                    "play on the new one without a migration (F7 records a new loop)");
        log_event("loop", "\"state\":\"off\",\"reason\":\"layout_changed\"");
        g_recording.mode = LOOP_OFF;
        g_recording.replaying_file = 0;
        g_recording.count = g_recording.cursor = 0;
        g_recording.start_used = 0;
        keep_position();
    }
    if (g_recording.file) {
        char esc[HOST_PATH * 2];
        parse_json_escape(g_recording.file_path, esc, sizeof esc);
        log_message(LOG_WARN,
                    "--record %s: ended after %llu steps: the state layout changed (the file holds the old one)",
                    g_recording.file_path, (unsigned long long)g_recording.file_steps);
        log_event("record_end", "\"path\":\"%s\",\"steps\":%llu,\"reason\":\"layout_changed\"", esc,
                  (unsigned long long)g_recording.file_steps);
        recording_close();
    }
}

int recording_file_open(const char *path)
{
    g_recording.file = os_fopen(path, "wb");
    if (!g_recording.file) { log_message(LOG_ERROR, "--record %s: %s", path, strerror(errno)); return 0; }
    snprintf(g_recording.file_path, sizeof g_recording.file_path, "%s", path);
    g_recording.file_steps = 0;
    RecordingHeader h;
    memset(&h, 0, sizeof h);
    h.api = GAME_API_VERSION;
    h.layout_hash = running_api()->layout_hash;
    h.state_size = running_api()->state_size;
    h.snapshot_bytes = memory_used();
    h.start_step = frame_loop()->step;
    h.snapshot_hash = th_hash_bytes64(memory_state()->game.base, (size_t)h.snapshot_bytes);
    uint8_t head[RECORDING_HEADER_BYTES];
    parse_recording_header_write(head, &h);
    fwrite(head, 1, sizeof head, g_recording.file);
    fwrite(memory_state()->game.base, 1, h.snapshot_bytes, g_recording.file);
    /* the description of the snapshot's layout beside it: a replay under a later state.h migrates it */
    char types_path[HOST_PATH + 8];
    snprintf(types_path, sizeof types_path, "%s.types", path);
    if (!types_save(types_of_block(), types_path)) os_remove_file(types_path);
    char esc[HOST_PATH * 2];
    parse_json_escape(path, esc, sizeof esc);
    log_event("record_start", "\"path\":\"%s\",\"bytes\":%llu", esc, (unsigned long long)h.snapshot_bytes);
    fflush(g_recording.file);
    KeptLoop *k = kept();
    if (k) { k->record_on = 1; k->record_steps = 0; }
    return 1;
}

/* After a hot restart: the --record file goes on from the steps the previous process wrote (it is cut
   there, should a step have been half written), appended by this one; the same file, one recording. */
static void recording_file_continue(const char *path, uint64_t steps)
{
    size_t got = 0;
    uint8_t *data = (uint8_t *)os_read_file(path, &got, (size_t)memory_state()->game.size + (1ull << 30));
    RecordingHeader h;
    char err[512] = "";
    uint64_t keep = 0;
    if (!data) snprintf(err, sizeof err, "%s", os_error_text());
    else if (parse_recording_header(data, got, &h, err, sizeof err)) {
        keep = RECORDING_HEADER_BYTES + h.snapshot_bytes + steps * sizeof(GameInput);
        if (keep > got) {
            snprintf(err, sizeof err, "it holds fewer than the %llu steps recorded", (unsigned long long)steps);
            keep = 0;
        }
    }
    if (keep && !os_write_file_atomic(path, data, keep)) { snprintf(err, sizeof err, "%s", os_error_text()); keep = 0; }
    free(data);
    if (keep && !(g_recording.file = os_fopen(path, "ab"))) {
        snprintf(err, sizeof err, "%s", strerror(errno));
        keep = 0;
    }
    char esc[HOST_PATH * 2];
    parse_json_escape(path, esc, sizeof esc);
    KeptLoop *k = kept();
    if (!keep) {
        log_message(LOG_WARN, "--record %s: ended at the hot restart after %llu steps: %s", path,
                    (unsigned long long)steps, err);
        log_event("record_end", "\"path\":\"%s\",\"steps\":%llu,\"reason\":\"restart\"", esc,
                  (unsigned long long)steps);
        if (k) k->record_on = 0;
        return;
    }
    snprintf(g_recording.file_path, sizeof g_recording.file_path, "%s", path);
    g_recording.file_steps = steps;
    log_message(LOG_INFO, "--record %s: goes on after the hot restart from step %llu", path, (unsigned long long)steps);
    log_event("record_continue", "\"path\":\"%s\",\"steps\":%llu", esc, (unsigned long long)steps);
}

/* A --replay file recorded on another layout: its snapshot migrated to the running one (with the description
   --record wrote beside it) becomes the loop's start; 0 + the reason logged when it cannot be. */
static int replay_migrate_start(const char *path, const StateTypes *was, const uint8_t *snap, RecordingHeader *h)
{
    char what[2048];
    uint8_t *out = (uint8_t *)malloc(running_api()->state_size ? running_api()->state_size : 1);
    if (!out || !migrate_bytes(was, types_of_block(), running_api(), snap, h->snapshot_bytes, out,
                               running_api()->state_size, what, sizeof what)) {
        log_message(LOG_ERROR, "--replay %s: recorded on another state layout, and its snapshot cannot be migrated: %s",
                    path, out ? what : "out of memory");
        free(out);
        return 0;
    }
    log_message(LOG_INFO, "--replay %s: recorded on another state layout; its snapshot migrated: %s", path, what);
    free(g_recording.start_state);
    g_recording.start_state = out;
    h->snapshot_bytes = running_api()->state_size;
    g_recording.start_migrated = 1;
    return 1;
}

int recording_file_load(const char *path)
{
    size_t got = 0;
    uint8_t *data = (uint8_t *)os_read_file(path, &got, (size_t)memory_state()->game.size + (1ull << 30));
    if (!data) { log_message(LOG_ERROR, "--replay %s: %s", path, os_error_text()); return 0; }
    RecordingHeader h;
    char err[512];
    RecordingExpect want = { GAME_API_VERSION, running_api()->layout_hash, running_api()->state_size,
                             memory_state()->game.size };
    /* recorded on another layout: with its description (<file>.types, written by --record) the snapshot is
       migrated to the running one; without it the file is refused below */
    StateTypes was;
    memset(&was, 0, sizeof was);
    char types_path[HOST_PATH + 8];
    snprintf(types_path, sizeof types_path, "%s.types", path);
    int migrate = 0;
    OsFileStamp types_stamp;
    if (parse_recording_header(data, got, &h, err, sizeof err) && h.api == GAME_API_VERSION &&
        (h.layout_hash != running_api()->layout_hash || h.state_size != running_api()->state_size) &&
        os_file_stamp(types_path, &types_stamp)) {
        if (!types_load(types_path, h.layout_hash, h.state_size, &was)) {
            log_message(LOG_ERROR,
                        "--replay %s: recorded on another state layout, and its description cannot be used: %s", path,
                        was.error);
            free(data);
            return 0;
        }
        want.layout_hash = h.layout_hash;
        want.state_size = h.state_size;
        migrate = 1;
    }
    if (!parse_recording(data, got, &want, &h, err, sizeof err)) {
        log_message(LOG_ERROR, "--replay %s: %s", path, err);
        free(data);
        types_clear(&was);
        return 0;
    }
    const uint8_t *snap = data + RECORDING_HEADER_BYTES;
    g_recording.start_migrated = 0;
    if (migrate && !replay_migrate_start(path, &was, snap, &h)) {
        free(data);
        types_clear(&was);
        return 0;
    }
    if (migrate) snap = NULL;
    types_clear(&was);
    g_recording.start_used = h.snapshot_bytes;
    if (snap) {
        g_recording.start_state = (uint8_t *)realloc(g_recording.start_state, h.snapshot_bytes ? h.snapshot_bytes : 1);
        memcpy(g_recording.start_state, snap, h.snapshot_bytes);
    }
    const uint8_t *inputs =
        data + RECORDING_HEADER_BYTES + (got - RECORDING_HEADER_BYTES - h.steps * sizeof(GameInput));
    g_recording.count = 0;
    for (uint64_t i = 0; i < h.steps; i++) {
        GameInput gi;
        memcpy(&gi, inputs + i * sizeof gi, sizeof gi);
        rec_push(&gi);
    }
    free(data);
    memcpy(memory_state()->game.base, g_recording.start_state, h.snapshot_bytes);
    memory_state()->game.used = h.snapshot_bytes;
    g_recording.start_layout_hash = g_recording.start_migrated ? running_api()->layout_hash : h.layout_hash;
    g_recording.start_size = g_recording.start_migrated ? running_api()->state_size : h.state_size;
    if (g_recording.start_migrated) running_load(1);
    g_recording.cursor = 0;
    g_recording.mode = LOOP_PLAYING;
    g_recording.replaying_file = 1;
    char esc[HOST_PATH * 2];
    parse_json_escape(path, esc, sizeof esc);
    log_event("replay_start", "\"path\":\"%s\",\"steps\":%llu", esc, (unsigned long long)g_recording.count);
    return 1;
}

int recording_writes_file(void) { return g_recording.file != NULL; }

void recording_close(void)
{
    if (g_recording.file) fclose(g_recording.file);
    g_recording.file = NULL;
    KeptLoop *k = kept();
    if (k) k->record_on = 0;   /* ended: a restart does not take it up again */
}
