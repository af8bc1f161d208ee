/* parse.cpp - the host's own readers of outside input: command-line flags, scripted input, the
   header of a recording, and the JSON escaping of anything put into the event log. Pure functions
   with no SDL and no globals, so the fuzz targets in tests/fuzz/ can drive them directly. */
#include "core.h"
#include "th_math.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ flags */
/* A release is the game alone: it has no project, sources, compiler or recordings, so the flags that
   drive those are refused by name rather than ignored. */
static const RefusedFlag RELEASE_REFUSED[] = {
    { "--root", "the release reads its assets from game.pak next to the executable" },
    { "--game", "the release is one game, linked in" },
    { "--no-watch", "the release watches no sources" },
    { "--build-cmd", "the release builds nothing" },
    { "--build-game", "the release builds nothing" },
    { "--print-game-build", "the release has no game folder" },
    { "--print-game-compile", "the release builds nothing" },
    { "--write-unity", "the release has no game folder" },
    { "--font", "the release's font is baked into game.pak" },
    { "--record", "recordings belong to the development host" },
    { "--replay", "recordings belong to the development host" },
    { "--timeline", "the timeline belongs to the development host" },
    { "--timeline-mb", "the timeline belongs to the development host" },
    { "--save-session", "the timeline belongs to the development host" },
    { "--open-session", "the timeline belongs to the development host" },
    { "--control", "the control socket belongs to the development host" },
    { "--no-control", "the control socket belongs to the development host" },
#if !defined(PROFILE_IN_RELEASE)
    { "--profile", "a release has no profiler zones (build it with -DPROFILE_IN_RELEASE to have them)" },
    { "--profile-frames", "a release has no profiler zones (build it with -DPROFILE_IN_RELEASE to have them)" },
#endif
    { NULL, NULL },
};

static const RefusedFlag NONE_REFUSED[] = { { NULL, NULL } };

const FlagSet FLAGS_RELEASE = {
    NULL,
        "  --window WxH          window size (64..16384 each way, default 1280x720)\n"
        "  --save-dir DIR        where the save data lives (default: the user's data folder)\n"
        "  --dev-keys            the developer keys F1-F9 and F12 (overlay, pause, step, screenshot)\n"
        "  --memory MB           size of the game's memory block (1..65536, default 256)\n"
        "  --headless            no window (SDL's offscreen driver); with --frames N for a test run\n"
        "  --frames N            exit after N frames\n"
        "  --fast                one fixed step per frame without waiting for the clock\n"
        "  --log-file PATH       human-readable log\n"
        "  --log-json PATH       events as JSON lines\n"
        "  --frame-log PATH      one line per frame: frame, work ms, sprites, draw calls\n"
        "  --screenshot F:PATH   write a PNG of frame F (repeatable)\n"
        "  --input PATH          scripted input events (\"<step> down|up|tap KEY\", ...)\n"
        "  --watchdog SEC        a step running longer than this ends the game with a report\n"
        "                        (0.01..3600, 0: off; default 2)\n"
        "  --help\n",
    RELEASE_REFUSED,
};

const FlagSet FLAGS_DEVELOPMENT = {
    "host",
        "  --root DIR            project root (default: the folder above build/host)\n"
        "  --game DIR            the game's folder: state.h, game.cpp (default: <root>/game)\n"
        "  --memory MB           size of the game's memory block (1..65536, default 256)\n"
        "  --headless            SDL offscreen video driver: real rendering, no display\n"
        "  --frames N            exit after N frames\n"
        "  --fast                run one fixed step per frame without waiting for the clock\n"
        "  --log-json PATH       write events as JSON lines\n"
        "  --log-file PATH       human-readable log (default build/host.log)\n"
        "  --frame-log PATH      one line per frame: frame, work ms, sprites, draw calls\n"
        "  --screenshot F:PATH   write a PNG of frame F (repeatable)\n"
        "  --input PATH          replay scripted input events (\"<step> down|up|tap KEY\", ...)\n"
        "  --record PATH         record a snapshot + every step's input to PATH\n"
        "  --profile PATH        the first --profile-frames N frames' zones (default 120) as a Chrome trace\n"
        "  --replay PATH         restore a recording's snapshot and replay its input\n"
        "  --timeline SEC        seconds of play kept for F8's timeline (0..3600, default 60; 0: off)\n"
        "  --timeline-mb MB      the timeline's memory (1..65536, default 64)\n"
        "  --save-session FILE   write the timeline to FILE at exit (E on the F8 bar: the build folder's sessions/)\n"
        "  --open-session FILE   start paused on the timeline FILE holds (docs/timeline.md)\n"
        "  --no-watch            do not watch the sources (no live reload)\n"
        "  --no-control          no control socket (default: <game build folder>/control.sock, docs/control.md)\n"
        "  --control             the control socket on (the default)\n"
        "  --watchdog SEC        a step running longer than this is interrupted (0.01..3600,\n"
        "                        0: off; default 2; time held by a debugger does not count)\n"
        "  --font PATH           TTF for text (default DejaVu Sans)\n"
        "  --build-cmd CMD       command line that builds the game library (default: the host's own,\n"
        "                        on Windows build.bat game); \"double quotes\" group words\n"
        "  --build-game          plan, compile and link the game library (./build.sh game), then exit\n"
        "  --print-game-build    print the game's build folder, then exit\n"
        "  --print-game-compile  print the game's compiler and flags (a line each), then exit\n"
        "  --write-unity         write the game as one translation unit, print its path, then exit\n"
        "  --window WxH          window size (64..16384 each way, default 1280x720)\n"
        "  --save-dir DIR        where the game's save data lives (default: the user's data folder)\n"
        "  --dev-keys            accepted for the release's sake (the hot keys are always on here)\n"
        "  --help\n",
    NONE_REFUSED,
};

void parse_flags_usage(const FlagSet *set, const char *exe_path, FILE *f)
{
    /* without a name of its own, the executable's: a player sees "neon-swarm", not the engine's word for it */
    const char *name = set->program ? set->program : "game";
    if (!set->program && exe_path) {
        const char *slash = strrchr(exe_path, '/');
        name = slash ? slash + 1 : exe_path;
    }
    fprintf(f, "usage: %s [flags]\n%s", name, set->help);
}

static int parse_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end) return 0;
    *out = v;
    return 1;
}

/* A flag that takes no value: 1 if a is one (and o has it now). */
static int set_switch(const char *a, Options *o)
{
    if (!strcmp(a, "--headless")) o->headless = 1;
    else if (!strcmp(a, "--no-watch")) o->watch = 0;
    else if (!strcmp(a, "--fast")) o->fast = 1;
    else if (!strcmp(a, "--build-game")) o->build_game = 1;
    else if (!strcmp(a, "--print-game-build")) o->print_game_build = 1;
    else if (!strcmp(a, "--print-game-compile")) o->print_game_compile = 1;
    else if (!strcmp(a, "--write-unity")) o->write_unity = 1;
    else if (!strcmp(a, "--dev-keys")) o->dev_keys = 1;
    else if (!strcmp(a, "--control")) o->control = 1;
    else if (!strcmp(a, "--no-control")) o->control = 0;
    else return 0;
    return 1;
}

/* A flag with a text value: 1 if a is one. */
static int set_text(const char *a, const char *v, Options *o)
{
    static const struct { const char *flag; size_t field; } TEXT[] = {
        { "--game", offsetof(Options, game) },         { "--log-json", offsetof(Options, log_json) },
        { "--log-file", offsetof(Options, log_file) }, { "--frame-log", offsetof(Options, frame_log) },
        { "--input", offsetof(Options, input_path) },  { "--record", offsetof(Options, record_path) },
        { "--replay", offsetof(Options, replay_path) }, { "--font", offsetof(Options, font_path) },
        { "--save-dir", offsetof(Options, save_dir) }, { "--profile", offsetof(Options, profile_path) },
        { "--save-session", offsetof(Options, save_session) }, { "--open-session", offsetof(Options, open_session) },
    };
    for (const auto &t : TEXT)
        if (!strcmp(a, t.flag)) { *(const char **)((char *)o + t.field) = v; return 1; }
    return 0;
}

/* A flag whose value is checked: 1 set, 0 a bad value (err says which and why), -1 not one of these. */
/* --timeline and --timeline-mb: 1 set, 0 refused (err), -1 another flag */
static int set_timeline(const char *a, const char *v, Options *o, char *err, size_t cap)
{
    int64_t n;
    if (!strcmp(a, "--timeline-mb")) {
        if (!parse_int64(v, &n) || n < 1 || n > 65536) {
            snprintf(err, cap, "--timeline-mb wants megabytes 1..65536, got '%s'", v);
            return 0;
        }
        o->timeline_mb = (uint64_t)n;
        return 1;
    }
    if (strcmp(a, "--timeline")) return -1;
    char *end;
    double s = strtod(v, &end);
    if (end == v || *end || !(s >= 0 && s <= 3600)) {
        snprintf(err, cap, "--timeline wants seconds 0..3600 (0: off), got '%s'", v);
        return 0;
    }
    o->timeline_s = s;
    return 1;
}

static int set_checked(const char *a, const char *v, Options *o, char *err, size_t cap)
{
    int64_t n;
    int timeline = set_timeline(a, v, o, err, cap);
    if (timeline >= 0) return timeline;
    if (!strcmp(a, "--root")) snprintf(o->root, sizeof o->root, "%s", v);
    else if (!strcmp(a, "--build-cmd")) {
        if (!v[strspn(v, " \t")]) {
            snprintf(err, cap, "--build-cmd wants a command line, got an empty one");
            return 0;
        }
        o->build_cmd = v;
    } else if (!strcmp(a, "--profile-frames")) {
        if (!parse_int64(v, &n) || n < 1 || n > 100000) {
            snprintf(err, cap, "--profile-frames wants a count 1..100000, got '%s'", v);
            return 0;
        }
        o->profile_frames = (int)n;
    } else if (!strcmp(a, "--memory")) {
        if (!parse_int64(v, &n) || n < 1 || n > 65536) {
            snprintf(err, cap, "--memory wants megabytes 1..65536, got '%s'", v);
            return 0;
        }
        o->memory_mb = (uint64_t)n;
    } else if (!strcmp(a, "--frames")) {
        if (!parse_int64(v, &n) || n < 0) { snprintf(err, cap, "--frames wants a count >= 0, got '%s'", v); return 0; }
        o->frames = n;
    } else if (!strcmp(a, "--watchdog")) {
        char *end;
        double s = strtod(v, &end);
        /* the documented range, both ends included; 0 switches the watchdog off */
        if (end == v || *end || !(s == 0 || (s >= 0.01 && s <= 3600))) {
            snprintf(err, cap, "--watchdog wants seconds 0.01..3600 (0: off), got '%s'", v);
            return 0;
        }
        o->watchdog_s = s;
    } else if (!strcmp(a, "--window")) {
        int w, h;
        char x, extra;
        if (sscanf(v, "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w < 64 || h < 64 || w > 16384 || h > 16384) {
            snprintf(err, cap, "--window wants WxH like 1280x720, got '%s'", v);
            return 0;
        }
        o->window_w = w;
        o->window_h = h;
    } else if (!strcmp(a, "--screenshot")) {
        const char *colon = strchr(v, ':');
        char num[32];
        if (!colon || colon == v || (size_t)(colon - v) >= sizeof num || !colon[1]) {
            snprintf(err, cap, "--screenshot wants FRAME:PATH, got '%s'", v);
            return 0;
        }
        snprintf(num, sizeof num, "%.*s", (int)(colon - v), v);
        if (!parse_int64(num, &n) || n < 0) {
            snprintf(err, cap, "--screenshot frame '%s' is not a number", num);
            return 0;
        }
        if (o->shot_count == MAX_SCREENSHOTS) {
            snprintf(err, cap, "at most %d --screenshot flags", MAX_SCREENSHOTS);
            return 0;
        }
        o->shot_frame[o->shot_count] = n;
        o->shot_path[o->shot_count++] = colon + 1;
    } else {
        return -1;
    }
    return 1;
}

int parse_flags(int argc, char **argv, const FlagSet *set, Options *o, char *err, size_t cap)
{
    memset(o, 0, sizeof *o);
    o->memory_mb = 256;
    o->frames = -1;
    o->watch = 1;
    o->watchdog_s = 2.0;
    o->window_w = 1280;
    o->window_h = 720;
    o->profile_frames = 120;
    o->timeline_s = 60;
    o->timeline_mb = 64;
    o->control = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        for (const RefusedFlag *d = set ? set->refused : NULL; d && d->flag; d++)
            if (!strcmp(a, d->flag)) {
                snprintf(err, cap, "%s is a development flag: %s (see --help)", a, d->why);
                return 0;
            }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return 2;
        if (set_switch(a, o)) continue;
        /* the rest take a value: the next argument, whatever it looks like */
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        Options probe = *o;
        int r = set_text(a, v, &probe) ? 1 : set_checked(a, v, &probe, err, cap);
        if (r < 0) { snprintf(err, cap, "unknown flag '%s' (see --help)", a); return 0; }
        if (i + 1 >= argc) { snprintf(err, cap, "%s needs a value", a); return 0; }
        if (!r) return 0;
        *o = probe;
        i++;
    }
    if (o->record_path && o->replay_path) {
        snprintf(err, cap, "--record and --replay cannot be used together");
        return 0;
    }
    return 1;
}

/* ================================================================ key and axis names */
static const char *KEY_NAMES[KEY_COUNT] = {
    "NONE", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T",
    "U", "V", "W", "X", "Y", "Z", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "UP", "DOWN", "LEFT", "RIGHT", "SPACE", "ENTER", "ESCAPE", "TAB", "BACKSPACE", "LSHIFT", "RSHIFT", "LCTRL",
    "RCTRL", "LALT", "RALT", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12",
    "MOUSE_LEFT", "MOUSE_RIGHT", "MOUSE_MIDDLE",
    "PAD_A", "PAD_B", "PAD_X", "PAD_Y", "PAD_START", "PAD_BACK", "PAD_LB", "PAD_RB", "PAD_UP", "PAD_DOWN",
    "PAD_LEFT", "PAD_RIGHT",
};

static const char *AXIS_NAMES[AXIS_COUNT] = { "LX", "LY", "RX", "RY", "LT", "RT" };

/* ASCII case-insensitive equality (POSIX's <strings.h> is not in MSVC's C library). */
static int same_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'a' && *a <= 'z' ? (char)(*a - 32) : *a, y = *b >= 'a' && *b <= 'z' ? (char)(*b - 32) : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

const char *parse_key_name(int key) { return key > KEY_NONE && key < KEY_COUNT ? KEY_NAMES[key] : "NONE"; }

int parse_key_by_name(const char *name)
{
    for (int k = KEY_NONE + 1; k < KEY_COUNT; k++) if (same_nocase(KEY_NAMES[k], name)) return k;
    return KEY_NONE;
}

/* ================================================================ scripted input */
int parse_script(const char *text, const char *name, ScriptEvent **out, int *count, char *err, size_t cap)
{
    *out = NULL;
    *count = 0;
    int n_cap = 0, ln = 0;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        p += len + (end ? 1 : 0);
        ln++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *at = line + strspn(line, " \t");
        int by_frame = *at == '@';   /* "@F ...": at frame F, paused or not (the timeline's keys) */
        if (by_frame) *at = ' ';
        unsigned long long step;
        char verb[32] = "", arg[64] = "";
        float a = 0, b = 0;
        int n = sscanf(line, "%llu %31s %63s %f %f", &step, verb, arg, &a, &b);
        if (n <= 0) continue;
        ScriptEvent e = { step, 0, 0, 0, 0, by_frame };
        if (n >= 3 && (!strcmp(verb, "down") || !strcmp(verb, "up") || !strcmp(verb, "tap"))) {
            e.kind = !strcmp(verb, "down") ? SCRIPT_DOWN : !strcmp(verb, "up") ? SCRIPT_UP : SCRIPT_TAP;
            e.key = parse_key_by_name(arg);
            if (!e.key) {
                snprintf(err, cap, "%s:%d: unknown key '%s'", name, ln, arg);
                free(*out);
                *out = NULL;
                return 0;
            }
        } else if (n >= 2 && !strcmp(verb, "mouse") && sscanf(line, "%llu %31s %f %f", &step, verb, &a, &b) == 4) {
            e.kind = SCRIPT_MOUSE; e.a = a; e.b = b;
        } else if (n >= 4 && !strcmp(verb, "axis")) {
            e.kind = SCRIPT_AXIS; e.key = -1; e.a = a < -1 ? -1 : a > 1 ? 1 : a;
            for (int i = 0; i < AXIS_COUNT; i++) if (same_nocase(arg, AXIS_NAMES[i])) e.key = i;
            if (e.key < 0) {
                snprintf(err, cap, "%s:%d: unknown axis '%s' (LX LY RX RY LT RT)", name, ln, arg);
                free(*out);
                *out = NULL;
                return 0;
            }
        } else if (n >= 2 && !strcmp(verb, "quit")) {
            e.kind = SCRIPT_QUIT;
        } else {
            snprintf(err, cap, "%s:%d: cannot read '%s' (want '<step> down|up|tap KEY', '<step> mouse X Y', "
                     "'<step> axis LX 0.5' or '<step> quit')", name, ln, line);
            free(*out);
            *out = NULL;
            return 0;
        }
        if (*count == n_cap) {
            n_cap = n_cap ? n_cap * 2 : 64;
            ScriptEvent *grown = (ScriptEvent *)realloc(*out, sizeof(ScriptEvent) * (size_t)n_cap);
            if (!grown) { snprintf(err, cap, "%s: out of memory", name); free(*out); *out = NULL; return 0; }
            *out = grown;
        }
        (*out)[(*count)++] = e;
    }
    /* Events apply in step order whatever order the file lists them in. */
    for (int i = 1; i < *count; i++)
        for (int j = i; j > 0 && (*out)[j - 1].step > (*out)[j].step; j--) {
            ScriptEvent t = (*out)[j]; (*out)[j] = (*out)[j - 1]; (*out)[j - 1] = t;
        }
    return 1;
}

/* ================================================================ recordings */
static const char REC_MAGIC[8] = { 'T', 'H', 'R', 'E', 'C', '0', '0', '2' };   /* 002: the snapshot's hash */

void parse_recording_header_write(uint8_t out[RECORDING_HEADER_BYTES], const RecordingHeader *h)
{
    memcpy(out, REC_MAGIC, 8);
    memcpy(out + 8, &h->api, 4);
    memcpy(out + 12, &h->layout_hash, 4);
    memcpy(out + 16, &h->state_size, 8);
    memcpy(out + 24, &h->snapshot_bytes, 8);
    memcpy(out + 32, &h->start_step, 8);
    memcpy(out + 40, &h->snapshot_hash, 8);
}

int parse_recording_header(const uint8_t *data, size_t len, RecordingHeader *h, char *err, size_t cap)
{
    if (len >= 8 && memcmp(data, REC_MAGIC, 7) == 0 && data[7] == '1') {
        snprintf(err, cap, "an older recording format (THREC001, no check of its snapshot): record it again");
        return 0;
    }
    if (len < RECORDING_HEADER_BYTES || memcmp(data, REC_MAGIC, 8) != 0) {
        snprintf(err, cap, "not a recording (bad header)");
        return 0;
    }
    memcpy(&h->api, data + 8, 4);
    memcpy(&h->layout_hash, data + 12, 4);
    memcpy(&h->state_size, data + 16, 8);
    memcpy(&h->snapshot_bytes, data + 24, 8);
    memcpy(&h->start_step, data + 32, 8);
    memcpy(&h->snapshot_hash, data + 40, 8);
    uint64_t body = len - RECORDING_HEADER_BYTES;
    if (h->snapshot_bytes > body) {
        snprintf(err, cap, "truncated: the snapshot needs %llu bytes, the file has %llu after its header",
                 (unsigned long long)h->snapshot_bytes, (unsigned long long)body);
        return 0;
    }
    if ((body - h->snapshot_bytes) % sizeof(GameInput) != 0) {
        snprintf(err, cap, "truncated: the input records do not fill whole steps (%llu bytes, %zu per step)",
                 (unsigned long long)(body - h->snapshot_bytes), sizeof(GameInput));
        return 0;
    }
    h->steps = (body - h->snapshot_bytes) / sizeof(GameInput);
    return 1;
}

/* One recorded step as live input could have made it: finite numbers in their ranges, keys 0 or 1. */
int parse_recording_input(const GameInput *gi, char *err, size_t cap)
{
    if (!(gi->dt > 0 && gi->dt <= 0.25f)) { snprintf(err, cap, "a step length of %g s", (double)gi->dt); return 0; }
    for (int k = 0; k < KEY_COUNT; k++)
        if (gi->down[k] > 1 || gi->pressed[k] > 1 || gi->released[k] > 1) {
            snprintf(err, cap, "key %d is neither up nor down", k);
            return 0;
        }
    for (int a = 0; a < AXIS_COUNT; a++)
        if (!(gi->axis[a] >= -1.0f && gi->axis[a] <= 1.0f)) {
            snprintf(err, cap, "gamepad axis %d is %g (want -1..1)", a, (double)gi->axis[a]);
            return 0;
        }
    const float far = 1e6f;
    if (!(gi->mouse_x >= -far && gi->mouse_x <= far && gi->mouse_y >= -far && gi->mouse_y <= far))
        { snprintf(err, cap, "the mouse is at (%g, %g)", (double)gi->mouse_x, (double)gi->mouse_y); return 0; }
    if (!(gi->wheel >= -far && gi->wheel <= far)) {
        snprintf(err, cap, "a wheel turn of %g", (double)gi->wheel);
        return 0;
    }
    if (gi->gamepad_connected > 1) { snprintf(err, cap, "gamepad_connected is %u", gi->gamepad_connected); return 0; }
    return 1;
}

/* Everything --replay checks before the game sees a byte of a recording: the header, that it was
   recorded with the layout the running game has (new code never sees old-layout bytes), that the
   snapshot fits the block, and every step record. */
int parse_recording(const uint8_t *data, size_t len, const RecordingExpect *want, RecordingHeader *h, char *err,
                    size_t cap)
{
    if (!parse_recording_header(data, len, h, err, cap)) return 0;
    if (h->api != want->api || h->layout_hash != want->layout_hash || h->state_size != want->state_size) {
        snprintf(err, cap, "recorded with another state layout (api %u version %u size %llu; running %u %u %llu)",
                 h->api, h->layout_hash, (unsigned long long)h->state_size, want->api, want->layout_hash,
                 (unsigned long long)want->state_size);
        return 0;
    }
    if (h->snapshot_bytes > want->block_size) {
        snprintf(err, cap, "snapshot of %llu bytes exceeds --memory", (unsigned long long)h->snapshot_bytes);
        return 0;
    }
    if (th_hash_bytes64(data + RECORDING_HEADER_BYTES, (size_t)h->snapshot_bytes) != h->snapshot_hash) {
        snprintf(err, cap,
                 "its snapshot is damaged (%llu bytes whose hash is not the one recorded): the file changed after "
                 "it was written; not loaded",
                 (unsigned long long)h->snapshot_bytes);
        return 0;
    }
    const uint8_t *steps = data + RECORDING_HEADER_BYTES + h->snapshot_bytes;
    for (uint64_t i = 0; i < h->steps; i++) {
        GameInput gi;
        char why[160];
        memcpy(&gi, steps + i * sizeof gi, sizeof gi);
        if (!parse_recording_input(&gi, why, sizeof why)) {
            snprintf(err, cap, "step %llu of the recording is damaged: %s", (unsigned long long)i, why);
            return 0;
        }
    }
    return 1;
}

/* ================================================================ JSON strings */
/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the bytes there are not one. */
static int utf8_sequence(const unsigned char *s)
{
    unsigned char c = s[0];
    int n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4)) return 0;
    for (int i = 1; i < n; i++) if ((s[i] & 0xC0) != 0x80) return 0;
    if (n == 3) {
        unsigned cp = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
        if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    }
    if (n == 4) {
        unsigned cp = ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
        if (cp < 0x10000 || cp > 0x10FFFF) return 0;
    }
    return n;
}

/* Escapes text for the inside of a JSON string. Bytes that are not UTF-8 become U+FFFD, and the
   output is cut only between whole characters, so every event line stays valid JSON. */
void parse_json_escape(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)in;
    if (cap == 0) return;
    while (*s) {
        char tmp[8];
        size_t n;
        int seq = utf8_sequence(s);
        if (*s == '"' || *s == '\\') { tmp[0] = '\\'; tmp[1] = (char)*s; n = 2; seq = 1; }
        else if (*s == '\n') { memcpy(tmp, "\\n", 2); n = 2; }
        else if (*s == '\t') { memcpy(tmp, "\\t", 2); n = 2; }
        else if (*s < 0x20) { n = (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", *s); }
        else if (seq == 0) { memcpy(tmp, "\\ufffd", 6); n = 6; seq = 1; }
        else { memcpy(tmp, s, (size_t)seq); n = (size_t)seq; }
        if (o + n + 1 > cap) break;
        memcpy(out + o, tmp, n);
        o += n;
        s += seq;
    }
    out[o] = 0;
}

/* ---------------------------------------------------------------- a game event's fields */
/* The fields a game hands pf->event go into one line of the event log as they are, so they are checked
   as the inside of a JSON object: members "key": value, values of any JSON kind (nested at most 16 deep),
   no raw control character inside a string (the one way to break the line: JSON escapes them), and
   none of the keys the log line itself carries at the top. Whitespace between tokens becomes spaces.
   Nothing is allocated: this runs inside the game's call. */
typedef struct FieldsParser { const char *p; char *out; size_t o, cap; const char *why; } FieldsParser;

static int fp_fail(FieldsParser *f, const char *why) { if (!f->why) f->why = why; return 0; }
static int fp_put(FieldsParser *f, char c)
{
    if (f->o + 1 >= f->cap) return fp_fail(f, "longer than the event line allows");
    f->out[f->o++] = c;
    return 1;
}
static void fp_space(FieldsParser *f)
{
    while (*f->p == ' ' || *f->p == '\n' || *f->p == '\r' || *f->p == '\t') { f->p++; }
}
static int fp_string(FieldsParser *f, char *key, size_t keycap)
{
    if (*f->p != '"') return fp_fail(f, "a string was expected");
    size_t k = 0;
    if (!fp_put(f, *f->p++)) return 0;
    for (;;) {
        unsigned char c = (unsigned char)*f->p;
        if (!c) return fp_fail(f, "a string is not closed");
        if (c < 0x20) return fp_fail(f, "a control character (a newline?) inside a string: escape it as \\n");
        if (c == '"') { f->p++; if (key) key[k] = 0; return fp_put(f, '"'); }
        if (c == '\\') {
            char e = f->p[1];
            if (!e || !strchr("\"\\/bfnrtu", e)) return fp_fail(f, "a bad escape inside a string");
            if (e == 'u') {
                for (int i = 2; i < 6; i++)
                    if (!isxdigit((unsigned char)f->p[i])) return fp_fail(f, "a bad \\u escape");
            }
            if (!fp_put(f, *f->p++)) return 0;
            c = (unsigned char)*f->p;
        }
        if (key && k + 1 < keycap) key[k++] = (char)c;
        if (!fp_put(f, *f->p++)) return 0;
    }
}
static int fp_value(FieldsParser *f, int depth);
static int fp_members(FieldsParser *f, int depth, char close)
{
    fp_space(f);
    if (*f->p == close) return 1;
    for (;;) {
        char key[16];
        if (close == ']') {
            if (!fp_value(f, depth)) return 0;
        } else {
            if (!fp_string(f, key, sizeof key)) return 0;
            if (!depth && (!strcmp(key, "t") || !strcmp(key, "wall") || !strcmp(key, "frame") || !strcmp(key, "ev") ||
                           !strcmp(key, "name")))
                return fp_fail(f, "a key the event line itself carries (t, wall, frame, ev, name)");
            fp_space(f);
            if (*f->p != ':') return fp_fail(f, "':' was expected after a key");
            if (!fp_put(f, *f->p++)) return 0;
            fp_space(f);
            if (!fp_value(f, depth)) return 0;
        }
        fp_space(f);
        if (*f->p != ',') return 1;
        if (!fp_put(f, *f->p++)) return 0;
        fp_space(f);
    }
}
static int fp_value(FieldsParser *f, int depth)
{
    char c = *f->p;
    if (c == '"') return fp_string(f, NULL, 0);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        if (depth >= 16) return fp_fail(f, "nested more than 16 deep");
        if (!fp_put(f, *f->p++) || !fp_members(f, depth + 1, close)) return 0;
        if (*f->p != close) return fp_fail(f, c == '{' ? "an object is not closed" : "an array is not closed");
        return fp_put(f, *f->p++);
    }
    static const char *const WORDS[] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(WORDS[i]);
        if (!strncmp(f->p, WORDS[i], n)) {
            for (size_t k = 0; k < n; k++) if (!fp_put(f, *f->p++)) return 0;
            return 1;
        }
    }
    /* a number: -?digits(.digits)?([eE][+-]?digits)? */
    const char *start = f->p;
    if (*f->p == '-') f->p++;
    if (!isdigit((unsigned char)*f->p)) {
        f->p = start;
        return fp_fail(f, "a value was expected (string, number, true, false, null, object, array)");
    }
    while (isdigit((unsigned char)*f->p)) f->p++;
    if (*f->p == '.') {
        f->p++;
        if (!isdigit((unsigned char)*f->p)) return fp_fail(f, "a bad number");
        while (isdigit((unsigned char)*f->p)) f->p++;
    }
    if (*f->p == 'e' || *f->p == 'E') {
        f->p++;
        if (*f->p == '+' || *f->p == '-') f->p++;
        if (!isdigit((unsigned char)*f->p)) return fp_fail(f, "a bad number");
        while (isdigit((unsigned char)*f->p)) f->p++;
    }
    for (const char *q = start; q < f->p; q++) if (!fp_put(f, *q)) return 0;
    return 1;
}

int parse_event_fields(const char *in, char *out, size_t cap, const char **why)
{
    FieldsParser f = { in ? in : "", out, 0, cap, NULL };
    if (!cap) return 0;
    out[0] = 0;
    int ok = fp_members(&f, 0, 0);
    if (ok && *f.p) ok = fp_fail(&f, "',' or the end was expected");
    out[ok ? f.o : 0] = 0;
    *why = f.why;
    return ok;
}

/* ---------------------------------------------------------------- a control request */
/* One flat JSON object (devtools/control.cpp's requests): its values are strings, numbers, true, false, null, or
   arrays of those; a nested object is refused. Tokens are checked by the event fields' reader above (fp_string,
   fp_value), then strings are decoded. Nothing is allocated; out is filled only as far as it got. */
static int jf_fail(char *err, size_t cap, const char *why, const char *at, const char *line)
{
    snprintf(err, cap, "%s (at byte %d)", why, (int)(at - line));
    return 0;
}

static void jf_put_utf8(unsigned cp, char *out, size_t *o)
{
    if (cp < 0x80) out[(*o)++] = (char)cp;
    else if (cp < 0x800) { out[(*o)++] = (char)(0xC0 | (cp >> 6)); out[(*o)++] = (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xE0 | (cp >> 12));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*o)++] = (char)(0xF0 | (cp >> 18));
        out[(*o)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static unsigned jf_hex4(const char *s)   /* four checked hex digits */
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++)
        v = v * 16 + (unsigned)(isdigit((unsigned char)s[i]) ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
    return v;
}

/* A checked string's inside (escapes valid, no control characters) decoded into out (room for n + 1 bytes:
   no escape decodes longer than it is written). 0: a \u0000, which would end the text early. */
static int jf_decode(const char *raw, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (raw[i] != '\\') { out[o++] = raw[i]; continue; }
        char e = raw[++i];
        if (e != 'u') {
            static const char FROM[] = "\"\\/bfnrt", TO[] = "\"\\/\b\f\n\r\t";
            out[o++] = TO[strchr(FROM, e) - FROM];
            continue;
        }
        unsigned cp = jf_hex4(raw + i + 1);
        i += 4;
        if (cp == 0) return 0;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < n && raw[i + 1] == '\\' && raw[i + 2] == 'u') {
            unsigned lo = jf_hex4(raw + i + 3);
            if (lo >= 0xDC00 && lo < 0xE000) { cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00); i += 6; }
        }
        if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;   /* a lone surrogate */
        jf_put_utf8(cp, out, &o);
    }
    out[o] = 0;
    return 1;
}

/* One value at f->p (not an object): its text appended to j's text; kind 's', 'n', 'b' or 'z'. */
static int jf_scalar(FieldsParser *f, JsonFlat *j, char *kind, const char *line, char *err, size_t cap)
{
    char raw[sizeof j->text];
    FieldsParser v = { f->p, raw, 0, sizeof raw, NULL };
    char c = *f->p;
    if (c == '{' || c == '[') return jf_fail(err, cap, "a nested object or array (values are strings, numbers, "
                                             "true, false, null or arrays of those)", f->p, line);
    if (!(c == '"' ? fp_string(&v, NULL, 0) : fp_value(&v, 0))) return jf_fail(err, cap, v.why, v.p, line);
    f->p = v.p;
    *kind = c == '"' ? 's' : c == 't' || c == 'f' ? 'b' : c == 'n' ? 'z' : 'n';
    size_t n = c == '"' ? v.o - 2 : v.o;
    if (j->used + n + 1 > sizeof j->text) return jf_fail(err, cap, "the request is too long", f->p, line);
    char *dst = j->text + j->used;
    if (c == '"' && !jf_decode(raw + 1, n, dst)) return jf_fail(err, cap, "a \\u0000 inside a string", f->p, line);
    if (c != '"') { memcpy(dst, raw, n); dst[n] = 0; }
    j->used += (uint32_t)strlen(dst) + 1;
    return 1;
}

static int jf_member(FieldsParser *f, JsonFlat *j, const char *line, char *err, size_t cap)
{
    char raw[64];
    FieldsParser k = { f->p, raw, 0, sizeof raw, NULL };
    if (!fp_string(&k, NULL, 0)) return jf_fail(err, cap, k.why ? k.why : "a key was expected", k.p, line);
    if (k.o - 2 >= sizeof j->m[0].key || memchr(raw, '\\', k.o))
        return jf_fail(err, cap, "a key longer than 31 bytes or with escapes", f->p, line);
    if (j->count == JSON_FLAT_MAX) return jf_fail(err, cap, "more than 16 members", f->p, line);
    char key[sizeof j->m[0].key];
    snprintf(key, sizeof key, "%.*s", (int)(k.o - 2), raw + 1);
    for (int i = 0; i < j->count; i++)
        if (!strcmp(j->m[i].key, key)) return jf_fail(err, cap, "a key given twice", f->p, line);
    f->p = k.p;
    fp_space(f);
    if (*f->p != ':') return jf_fail(err, cap, "':' was expected after a key", f->p, line);
    f->p++;
    fp_space(f);
    JsonFlatMember *m = &j->m[j->count];
    snprintf(m->key, sizeof m->key, "%s", key);
    m->at = j->used;
    m->items = 1;
    if (*f->p != '[') {
        if (!jf_scalar(f, j, &m->kind, line, err, cap)) return 0;
    } else {
        m->kind = 'a';
        m->items = 0;
        f->p++;
        fp_space(f);
        while (*f->p != ']') {
            char kind;
            if (m->items && *f->p++ != ',') return jf_fail(err, cap, "',' or ']' was expected", f->p - 1, line);
            fp_space(f);
            if (!jf_scalar(f, j, &kind, line, err, cap)) return 0;
            m->items++;
            fp_space(f);
        }
        f->p++;
    }
    j->count++;
    return 1;
}

int parse_json_flat(const char *line, JsonFlat *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    FieldsParser f = { line, NULL, 0, 0, NULL };
    fp_space(&f);
    if (*f.p != '{') return jf_fail(err, cap, "not a JSON object (one per line: {\"cmd\":...})", f.p, line);
    f.p++;
    fp_space(&f);
    while (*f.p != '}') {
        if (out->count && *f.p++ != ',') return jf_fail(err, cap, "',' or '}' was expected", f.p - 1, line);
        fp_space(&f);
        if (!jf_member(&f, out, line, err, cap)) return 0;
        fp_space(&f);
        if (!*f.p) return jf_fail(err, cap, "the object is not closed", f.p, line);
    }
    f.p++;
    fp_space(&f);
    if (*f.p) return jf_fail(err, cap, "more after the object", f.p, line);
    return 1;
}

const char *json_flat_get(const JsonFlat *j, const char *key, char kind)
{
    for (int i = 0; i < j->count; i++)
        if (!strcmp(j->m[i].key, key)) return !kind || j->m[i].kind == kind ? j->text + j->m[i].at : NULL;
    return NULL;
}

const char *json_flat_item(const JsonFlat *j, const char *key, int index)
{
    for (int i = 0; i < j->count; i++) {
        if (strcmp(j->m[i].key, key) || j->m[i].kind != 'a' || index < 0 || index >= j->m[i].items) continue;
        const char *s = j->text + j->m[i].at;
        while (index--) s += strlen(s) + 1;
        return s;
    }
    return NULL;
}
