/* record.cpp - input recording and looped playback. A recording is a snapshot of the block followed
   by one GameInput per step. In memory (F7) it loops; on disk (--record/--replay) it has a
   RecordingHeader in front (parse.cpp). */
#include "host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
} g_recording;

LoopMode recording_mode(void) { return g_recording.mode; }

static void rec_push(const GameInput *gi)
{
    if (g_recording.count == g_recording.cap) {
        g_recording.cap = g_recording.cap ? g_recording.cap * 2 : 1024;
        g_recording.inputs = (GameInput *)realloc(g_recording.inputs, sizeof(GameInput) * g_recording.cap);
    }
    g_recording.inputs[g_recording.count++] = *gi;
}

static void rec_capture_start(void)
{
    g_recording.start_used = memory_used();
    g_recording.start_state = (uint8_t *)realloc(g_recording.start_state, g_recording.start_used ? g_recording.start_used : 1);
    memcpy(g_recording.start_state, g_memory.game.base, g_recording.start_used);
    g_recording.start_layout_hash = g_block_layout.layout_hash;
    g_recording.start_size = g_block_layout.state_size;
    g_recording.count = 0;
}

/* The loop's snapshot only goes back into a block laid out the same way (recording_layout_changed ends
   the loop first; this is the last line). */
static int rec_restore_start(void)
{
    if (g_recording.start_layout_hash != g_block_layout.layout_hash || g_recording.start_size != g_block_layout.state_size) {
        host_log(LOG_ERROR, "F7 loop: its snapshot has another state layout (version %u, %llu bytes; running %u, %llu): "
                 "loop ended", g_recording.start_layout_hash, (unsigned long long)g_recording.start_size,
                 g_block_layout.layout_hash, (unsigned long long)g_block_layout.state_size);
        host_event("loop", "\"state\":\"off\",\"reason\":\"layout_mismatch\"");
        g_recording.mode = LOOP_OFF;
        g_recording.replaying_file = 0;
        return 0;
    }
    uint64_t now_used = memory_used();
    memcpy(g_memory.game.base, g_recording.start_state, g_recording.start_used);
    if (now_used > g_recording.start_used)
        memset((uint8_t *)g_memory.game.base + g_recording.start_used, 0, now_used - g_recording.start_used);
    g_recording.cursor = 0;
    return 1;
}

void recording_toggle_loop(void)
{
    if (g_recording.mode == LOOP_OFF) {
        double t = os_mono_seconds();
        rec_capture_start();
        g_recording.mode = LOOP_RECORDING;
        host_event("loop", "\"state\":\"recording\",\"snapshot_ms\":%.2f,\"bytes\":%llu", (os_mono_seconds() - t) * 1000,
                   (unsigned long long)g_recording.start_used);
        host_log(LOG_INFO, "F7: recording input (F7 again to loop it)");
    } else if (g_recording.mode == LOOP_RECORDING) {
        if (g_recording.count == 0) { g_recording.mode = LOOP_OFF; host_log(LOG_INFO, "F7: nothing recorded"); return; }
        g_recording.mode = LOOP_PLAYING;
        if (!rec_restore_start()) return;
        host_event("loop", "\"state\":\"playing\",\"steps\":%llu", (unsigned long long)g_recording.count);
        host_log(LOG_INFO, "F7: looping %llu recorded steps (F7 again to return to live play)", (unsigned long long)g_recording.count);
    } else {
        g_recording.mode = LOOP_OFF;
        host_event("loop", "\"state\":\"off\"");
        host_log(LOG_INFO, "F7: back to live play");
    }
}

void recording_stop(void) { g_recording.mode = LOOP_OFF; }

/* Once per fixed step, before the game sees gi: record it, or replace it with the recorded one. */
void recording_step(GameInput *gi)
{
    if (g_recording.mode == LOOP_RECORDING) rec_push(gi);
    if (g_recording.mode == LOOP_PLAYING && g_recording.count) {
        if (g_recording.cursor >= g_recording.count) {
            if (g_recording.replaying_file) {
                char hash[32];
                snprintf(hash, sizeof hash, "%016llx", (unsigned long long)memory_hash());
                host_event("replay_end", "\"steps\":%llu,\"state_hash\":\"%s\"", (unsigned long long)g_recording.count, hash);
                g_recording.mode = LOOP_OFF;
                g_recording.replaying_file = 0;
            } else if (rec_restore_start()) {
                host_event("loop_restart", "");
            }
        }
        if (g_recording.mode == LOOP_PLAYING) *gi = g_recording.inputs[g_recording.cursor++];
    }
    if (g_recording.file) { fwrite(gi, sizeof *gi, 1, g_recording.file); g_recording.file_steps++; }
}

void recording_layout_changed(void)
{
    if (g_recording.mode != LOOP_OFF) {
        host_log(LOG_WARN, "F7 loop ended: the state layout changed, and a loop recorded on the old layout cannot "
                 "play on the new one (F7 records a new loop)");
        host_event("loop", "\"state\":\"off\",\"reason\":\"layout_changed\"");
        g_recording.mode = LOOP_OFF;
        g_recording.replaying_file = 0;
        g_recording.count = g_recording.cursor = 0;
        g_recording.start_used = 0;
    }
    if (g_recording.file) {
        char esc[HOST_PATH * 2];
        host_json_escape(g_recording.file_path, esc, sizeof esc);
        host_log(LOG_WARN, "--record %s: ended after %llu steps: the state layout changed (the file holds the old one)",
                 g_recording.file_path, (unsigned long long)g_recording.file_steps);
        host_event("record_end", "\"path\":\"%s\",\"steps\":%llu,\"reason\":\"layout_changed\"", esc,
                   (unsigned long long)g_recording.file_steps);
        recording_close();
    }
}

int recording_file_open(const char *path)
{
    g_recording.file = fopen(path, "wb");
    if (!g_recording.file) { host_log(LOG_ERROR, "--record %s: %s", path, strerror(errno)); return 0; }
    snprintf(g_recording.file_path, sizeof g_recording.file_path, "%s", path);
    g_recording.file_steps = 0;
    RecordingHeader h;
    memset(&h, 0, sizeof h);
    h.api = GAME_API_VERSION;
    h.layout_hash = g_api.layout_hash;
    h.state_size = g_api.state_size;
    h.snapshot_bytes = memory_used();
    h.start_step = g_loop.step;
    uint8_t head[RECORDING_HEADER_BYTES];
    recording_header_write(head, &h);
    fwrite(head, 1, sizeof head, g_recording.file);
    fwrite(g_memory.game.base, 1, h.snapshot_bytes, g_recording.file);
    char esc[HOST_PATH * 2];
    host_json_escape(path, esc, sizeof esc);
    host_event("record_start", "\"path\":\"%s\",\"bytes\":%llu", esc, (unsigned long long)h.snapshot_bytes);
    return 1;
}

int recording_file_load(const char *path)
{
    size_t got = 0;
    uint8_t *data = (uint8_t *)os_read_file(path, &got, (size_t)g_memory.game.size + (1ull << 30));
    if (!data) { host_log(LOG_ERROR, "--replay %s: %s", path, os_error_text()); return 0; }
    RecordingHeader h;
    char err[512];
    const RecordingExpect want = { GAME_API_VERSION, g_api.layout_hash, g_api.state_size, g_memory.game.size };
    if (!recording_parse(data, got, &want, &h, err, sizeof err)) {
        host_log(LOG_ERROR, "--replay %s: %s", path, err);
        free(data);
        return 0;
    }
    const uint8_t *snap = data + RECORDING_HEADER_BYTES;
    g_recording.start_used = h.snapshot_bytes;
    g_recording.start_state = (uint8_t *)realloc(g_recording.start_state, h.snapshot_bytes ? h.snapshot_bytes : 1);
    memcpy(g_recording.start_state, snap, h.snapshot_bytes);
    g_recording.count = 0;
    for (uint64_t i = 0; i < h.steps; i++) {
        GameInput gi;
        memcpy(&gi, snap + h.snapshot_bytes + i * sizeof gi, sizeof gi);
        rec_push(&gi);
    }
    free(data);
    memcpy(g_memory.game.base, g_recording.start_state, h.snapshot_bytes);
    g_memory.game.used = h.snapshot_bytes;
    g_recording.start_layout_hash = h.layout_hash;
    g_recording.start_size = h.state_size;
    g_recording.cursor = 0;
    g_recording.mode = LOOP_PLAYING;
    g_recording.replaying_file = 1;
    char esc[HOST_PATH * 2];
    host_json_escape(path, esc, sizeof esc);
    host_event("replay_start", "\"path\":\"%s\",\"steps\":%llu", esc, (unsigned long long)g_recording.count);
    return 1;
}

void recording_close(void)
{
    if (g_recording.file) fclose(g_recording.file);
    g_recording.file = NULL;
}
