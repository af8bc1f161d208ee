/* session_file.cpp - the timeline as one file: the checked reader and the writer (session_file.h has the format).
   A session file comes from another run, maybe another machine: every size, count and offset is checked against the
   file's length and the format's limits before anything points into it, and a checksum catches a flipped byte. */
#include "session/session_file.h"

#include <stdio.h>
#include <string.h>

#include "th_math.h"
#include "th_reflect.h"

/* the header's fields, at their offsets */
enum {
    SH_MAGIC = 0, SH_VERSION = 8, SH_API = 12, SH_INPUT = 16, SH_LAYOUT = 20, SH_STATE = 24, SH_FIRST = 32,
    SH_COUNT = 40, SH_SNAPS = 48, SH_TYPES = 56, SH_NAME = 64, SH_CODE = 72, SH_EPOCH = 80, SH_STEP_BYTES = 84,
    SH_CURSOR = 88, SH_PACKED = 96, SH_CHECKSUM = 120
};

static uint64_t align8(uint64_t n) { return (n + 7) & ~7ull; }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void     put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void     put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* the header and every part but the checksum's own 8 bytes */
static uint64_t checksum_of(const uint8_t *data, size_t n)
{
    uint64_t body = th_hash_bytes64(data + SESSION_FILE_HEADER_BYTES, n - SESSION_FILE_HEADER_BYTES);
    return th_hash_bytes64(data, SH_CHECKSUM) ^ body * 0x9E3779B97F4A7C15ull;
}

/* where each part starts; 0 when the counts cannot describe a file (checked before: no overflow) */
static uint64_t parts_end(const SessionFile *f, uint64_t packed_bytes, uint64_t *name_at, uint64_t *types_at,
                          uint64_t *steps_at, uint64_t *snaps_at, uint64_t *packed_at)
{
    *name_at = SESSION_FILE_HEADER_BYTES;
    *types_at = *name_at + align8(strlen(f->game));
    *steps_at = *types_at + align8(f->types_bytes);
    *snaps_at = *steps_at + align8(f->count * sizeof(TimelineStep));
    *packed_at = *snaps_at + f->snap_count * sizeof(SessionSnap);
    return *packed_at + packed_bytes;
}

#define BAD(...) do { snprintf(err, cap, __VA_ARGS__); return 0; } while (0)

static int check_header(const uint8_t *data, size_t n, SessionFile *out, uint64_t *packed_bytes, char *err, size_t cap)
{
    if (n < SESSION_FILE_HEADER_BYTES) BAD("not a session file: %zu bytes, shorter than its header", n);
    if (memcmp(data + SH_MAGIC, SESSION_FILE_MAGIC, 8)) BAD("not a session file (its first bytes are not " "THSESS)");
    if (get32(data + SH_VERSION) != SESSION_FILE_VERSION)
        BAD("session format %u, this host reads %d", get32(data + SH_VERSION), SESSION_FILE_VERSION);
    if (get32(data + SH_API) != GAME_API_VERSION)
        BAD("written by a host of game API %u, this one is %d", get32(data + SH_API), GAME_API_VERSION);
    if (get32(data + SH_INPUT) != sizeof(GameInput) || get32(data + SH_STEP_BYTES) != sizeof(TimelineStep))
        BAD("its input records are %u bytes, this host's %zu", get32(data + SH_INPUT), sizeof(GameInput));
    out->layout_hash = get32(data + SH_LAYOUT);
    out->state_size = get64(data + SH_STATE);
    out->first = get64(data + SH_FIRST);
    out->count = get64(data + SH_COUNT);
    out->snap_count = get64(data + SH_SNAPS);
    out->types_bytes = get64(data + SH_TYPES);
    out->code_id = get64(data + SH_CODE);
    out->epoch = get32(data + SH_EPOCH);
    out->cursor = get64(data + SH_CURSOR);
    uint64_t name_bytes = get64(data + SH_NAME);
    *packed_bytes = get64(data + SH_PACKED);
    if (out->count < 1 || out->count > SESSION_FILE_MAX_STEPS)
        BAD("it claims %llu steps", (unsigned long long)out->count);
    if (out->first > UINT64_MAX / 2) BAD("its first step (%llu) is out of range", (unsigned long long)out->first);
    if (out->snap_count < 1 || out->snap_count > SESSION_FILE_MAX_SNAPS)
        BAD("it claims %llu kept states (1..%d)", (unsigned long long)out->snap_count, SESSION_FILE_MAX_SNAPS);
    if (out->types_bytes < 8 || out->types_bytes > SESSION_FILE_MAX_TYPES)
        BAD("its types table claims %llu bytes", (unsigned long long)out->types_bytes);
    if (name_bytes > SESSION_FILE_MAX_NAME) BAD("its game name claims %llu bytes", (unsigned long long)name_bytes);
    if (out->state_size < 1 || out->state_size > SESSION_FILE_MAX_STATE)
        BAD("its state claims %llu bytes", (unsigned long long)out->state_size);
    if (out->cursor < out->first || out->cursor > out->first + out->count)
        BAD("the step it shows (%llu) is outside its steps", (unsigned long long)out->cursor);
    if (*packed_bytes > n) BAD("its states claim %llu bytes, the file has %zu", (unsigned long long)*packed_bytes, n);
    memcpy(out->game, data + SESSION_FILE_HEADER_BYTES, n >= SESSION_FILE_HEADER_BYTES + name_bytes ? name_bytes : 0);
    out->game[n >= SESSION_FILE_HEADER_BYTES + name_bytes ? name_bytes : 0] = 0;
    if (strlen(out->game) != name_bytes) BAD("its game name is cut short or holds a zero byte");
    return 1;
}

/* the snapshot table: in step order, within the steps, sizes that add up to the packed bytes */
static int check_snaps(const SessionFile *f, uint64_t packed_bytes, char *err, size_t cap)
{
    uint64_t sum = 0;
    for (uint64_t k = 0; k < f->snap_count; k++) {
        const SessionSnap *s = &f->snaps[k];
        if (s->step < f->first || s->step > f->first + f->count || (k && s->step <= f->snaps[k - 1].step))
            BAD("kept state %llu is at step %llu, outside its steps or out of order", (unsigned long long)k,
                (unsigned long long)s->step);
        if (s->used < f->state_size || s->used > SESSION_FILE_MAX_STATE || s->bytes > s->used + 16 ||
            s->bytes > packed_bytes - sum)
            BAD("kept state %llu claims %llu bytes packed, %llu unpacked", (unsigned long long)k,
                (unsigned long long)s->bytes, (unsigned long long)s->used);
        sum += s->bytes;
    }
    if (sum != packed_bytes) BAD("its kept states add up to %llu bytes, the header says %llu",
                                 (unsigned long long)sum, (unsigned long long)packed_bytes);
    return 1;
}

int session_file_check(const uint8_t *data, size_t n, SessionFile *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    uint64_t packed_bytes, name_at, types_at, steps_at, snaps_at, packed_at;
    if (!check_header(data, n, out, &packed_bytes, err, cap)) return 0;
    uint64_t end = parts_end(out, packed_bytes, &name_at, &types_at, &steps_at, &snaps_at, &packed_at);
    if (end != n) BAD("%zu bytes, its header describes %llu (cut short or with bytes after it)", n,
                      (unsigned long long)end);
    if (get64(data + SH_CHECKSUM) != checksum_of(data, n)) BAD("damaged: its checksum does not match its bytes");
    out->types = (const uint64_t *)(data + types_at);
    out->steps = (const TimelineStep *)(data + steps_at);
    out->snaps = (const SessionSnap *)(data + snaps_at);
    out->packed = data + packed_at;
    if (!check_snaps(out, packed_bytes, err, cap)) return 0;
    for (uint64_t i = 0; i < out->count; i++)
        if (out->steps[i].input.step != out->first + i)
            BAD("step record %llu holds step %llu", (unsigned long long)i,
                (unsigned long long)out->steps[i].input.step);
    thr_types t;
    char terr[256];
    if (!thr_read(out->types, (size_t)out->types_bytes, &t, terr, sizeof terr)) BAD("its types table: %s", terr);
    if (t.types[t.header->root].size != out->state_size)
        BAD("its types table describes a %u-byte state, its header %llu", t.types[t.header->root].size,
            (unsigned long long)out->state_size);
    return 1;
}

size_t session_file_size(const SessionFile *f)
{
    uint64_t packed = 0, a, b, c, d, e;
    for (uint64_t k = 0; k < f->snap_count; k++) packed += f->snaps[k].bytes;
    return (size_t)parts_end(f, packed, &a, &b, &c, &d, &e);
}

void session_file_write(const SessionFile *f, const TimelineStep *(*step_at)(uint64_t step),
                        const uint8_t *(*snap_bytes)(uint64_t k), uint8_t *out)
{
    uint64_t packed = 0, name_at, types_at, steps_at, snaps_at, packed_at;
    for (uint64_t k = 0; k < f->snap_count; k++) packed += f->snaps[k].bytes;
    size_t n = (size_t)parts_end(f, packed, &name_at, &types_at, &steps_at, &snaps_at, &packed_at);
    memset(out, 0, n);
    memcpy(out + SH_MAGIC, SESSION_FILE_MAGIC, 8);
    put32(out + SH_VERSION, SESSION_FILE_VERSION);
    put32(out + SH_API, GAME_API_VERSION);
    put32(out + SH_INPUT, sizeof(GameInput));
    put32(out + SH_STEP_BYTES, sizeof(TimelineStep));
    put32(out + SH_LAYOUT, f->layout_hash);
    put64(out + SH_STATE, f->state_size);
    put64(out + SH_FIRST, f->first);
    put64(out + SH_COUNT, f->count);
    put64(out + SH_SNAPS, f->snap_count);
    put64(out + SH_TYPES, f->types_bytes);
    put64(out + SH_NAME, strlen(f->game));
    put64(out + SH_CODE, f->code_id);
    put32(out + SH_EPOCH, f->epoch);
    put64(out + SH_CURSOR, f->cursor);
    put64(out + SH_PACKED, packed);
    memcpy(out + name_at, f->game, strlen(f->game));
    memcpy(out + types_at, f->types, (size_t)f->types_bytes);
    for (uint64_t i = 0; i < f->count; i++)
        memcpy(out + steps_at + i * sizeof(TimelineStep), step_at(f->first + i), sizeof(TimelineStep));
    memcpy(out + snaps_at, f->snaps, (size_t)f->snap_count * sizeof(SessionSnap));
    uint64_t at = packed_at;
    for (uint64_t k = 0; k < f->snap_count; k++) {
        memcpy(out + at, snap_bytes(k), (size_t)f->snaps[k].bytes);
        at += f->snaps[k].bytes;
    }
    put64(out + SH_CHECKSUM, checksum_of(out, n));
}
