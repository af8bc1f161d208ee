/* log.cpp - log lines (console, log file, event log) and the JSON-lines event log; the game's log,
   event and clock services. */
#include "core.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static struct {
    FILE  *json;           /* --log-json */
    FILE  *file;           /* --log-file, or <root>/build/host.log */
    FILE  *frames;         /* --frame-log */
    double t0;             /* os_mono_seconds() at start */
    OsFileStamp json_id, file_id, frames_id;   /* the files they hold (log_reopen_lost) */
} g_log;

static const char *LEVEL_NAMES[] = { "debug", "info", "warn", "error" };

double log_time(void) { return os_mono_seconds() - g_log.t0; }

int log_open(int restarted, double session_start)
{
    g_log.t0 = session_start > 0 ? session_start : os_mono_seconds();
    const char *mode = restarted ? "a" : "w";   /* a hot restart goes on writing the same logs */
    if (options()->log_json) {
        g_log.json = os_fopen(options()->log_json, mode);
        if (!g_log.json) {
            fprintf(stderr, "host: --log-json %s: %s\n", options()->log_json, strerror(errno));
            return 0;
        }
    }
    /* no --log-file: the development host writes <root>/build/host.log (develop.cpp names it), a release
       nothing beside itself */
    if (options()->log_file) {
        g_log.file = os_fopen(options()->log_file, "a");
        if (!g_log.file) fprintf(stderr, "host: cannot open log file %s: %s\n", options()->log_file, strerror(errno));
    }
    if (options()->frame_log && !(g_log.frames = os_fopen(options()->frame_log, mode))) {
        fprintf(stderr, "host: --frame-log %s: %s\n", options()->frame_log, strerror(errno));
        return 0;
    }
    os_file_stamp_of(g_log.json, &g_log.json_id);
    os_file_stamp_of(g_log.file, &g_log.file_id);
    os_file_stamp_of(g_log.frames, &g_log.frames_id);
    return 1;
}

/* Once a frame: a log whose descriptor game code closed or replaced (close_range, dup2) is opened again on
   the same number, appending. Names what was re-opened into `what` (", "-separated); returns how many. */
int log_reopen_lost(char *what, size_t cap)
{
    struct { FILE *f; OsFileStamp *id; const char *path, *name; } logs[3] = {
        { g_log.json, &g_log.json_id, options()->log_json, "the JSON log" },
        { g_log.file, &g_log.file_id, options()->log_file, "the log file" },
        { g_log.frames, &g_log.frames_id, options()->frame_log, "the frame log" },
    };
    int n = 0;
    for (int i = 0; i < 3; i++) {
        OsFileStamp now;
        if (!logs[i].f || !logs[i].id->ino) continue;
        if (os_file_stamp_of(logs[i].f, &now) && now.dev == logs[i].id->dev && now.ino == logs[i].id->ino) continue;
        if (!os_file_reopen(logs[i].f, logs[i].path)) continue;
        os_file_stamp_of(logs[i].f, logs[i].id);
        size_t len = strlen(what);
        snprintf(what + len, cap - len, "%s%s (%s)", len ? ", " : "", logs[i].name, logs[i].path);
        n++;
    }
    return n;
}

void log_close(void)
{
    if (g_log.file) fclose(g_log.file);
    if (g_log.json) fclose(g_log.json);
    if (g_log.frames) fclose(g_log.frames);
    g_log.file = g_log.json = g_log.frames = NULL;
}

void log_frame_line(double work_ms, int sprites, int draw_calls)
{
    if (g_log.frames)
        fprintf(g_log.frames, "%llu %.3f %d %d\n", (unsigned long long)frame_loop()->frame, work_ms, sprites,
                draw_calls);
}

/* printf writes inf and nan for non-finite numbers, which are not JSON: a reader of the log fails on the
   line. Outside strings, a bare inf/nan word (any case, with its sign) becomes null. Strings (a game's
   text, a path) are copied as they are. */
static int is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static int non_finite_word(const char *p, size_t n)
{
    static const char *const WORDS[] = { "inf", "infinity", "nan" };
    for (int w = 0; w < 3; w++) {
        if (strlen(WORDS[w]) != n) continue;
        size_t i = 0;
        while (i < n && (char)(p[i] | 0x20) == WORDS[w][i]) i++;
        if (i == n) return 1;
    }
    return 0;
}

static void json_null_non_finite(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    int in_string = 0;
    for (const char *p = in; *p && o + 5 < cap;) {
        if (in_string) {
            if (*p == '\\' && p[1]) out[o++] = *p++;
            else if (*p == '"') in_string = 0;
            out[o++] = *p++;
            continue;
        }
        if (*p == '"') { in_string = 1; out[o++] = *p++; continue; }
        if (is_word_char(*p) || *p == '-' || *p == '+') {
            const char *sign = (*p == '-' || *p == '+') ? p : NULL;
            const char *w = sign ? p + 1 : p;
            const char *end = w;
            while (is_word_char(*end)) end++;
            if (end > w && !(w[0] >= '0' && w[0] <= '9') && non_finite_word(w, (size_t)(end - w))) {
                memcpy(out + o, "null", 4);
                o += 4;
                p = end;
                continue;
            }
            if (sign) { out[o++] = *p++; continue; }
            while (p < end && o + 5 < cap) out[o++] = *p++;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
}

static void (*g_listener)(const char *line);
void log_set_listener(void (*fn)(const char *line)) { g_listener = fn; }

void log_event(const char *ev, const char *fields_fmt, ...)
{
    if (!g_log.json && !g_listener) return;
    char fields[16384];
    va_list ap;
    va_start(ap, fields_fmt);
    vsnprintf(fields, sizeof fields, fields_fmt, ap);
    va_end(ap);
    char clean[sizeof fields + 64];
    json_null_non_finite(fields, clean, sizeof clean);
    char line[sizeof clean + 256];
    snprintf(line, sizeof line, "{\"t\":%.4f,\"wall\":%.4f,\"frame\":%llu,\"ev\":\"%s\"%s%s}\n", log_time(),
             os_wall_seconds(), (unsigned long long)frame_loop()->frame, ev, clean[0] ? "," : "", clean);
    if (g_log.json) { fputs(line, g_log.json); fflush(g_log.json); }
    if (g_listener) {
        void (*fn)(const char *) = g_listener;
        g_listener = NULL;   /* a listener that logs does not hear itself */
        fn(line);
        g_listener = fn;
    }
}

static void write_log_line(int level, const char *fmt, va_list ap)
{
    if (level < LOG_DEBUG || level > LOG_ERROR) level = LOG_INFO;
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    double t = log_time();
    FILE *con = level >= LOG_WARN ? stderr : stdout;
    fprintf(con, "[%8.3f] %-5s %s\n", t, LEVEL_NAMES[level], msg);
    fflush(con);
    if (g_log.file) {
        char stamp[32];
        os_format_local_time(os_wall_seconds(), stamp, sizeof stamp);
        fprintf(g_log.file, "%s [%8.3f] %-5s %s\n", stamp, t, LEVEL_NAMES[level], msg);
        fflush(g_log.file);
    }
    char esc[8192];
    parse_json_escape(msg, esc, sizeof esc);
    log_event("log", "\"level\":\"%s\",\"msg\":\"%s\"", LEVEL_NAMES[level], esc);
}

void log_message(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    write_log_line(level, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- services for the game */
/* pf->log and pf->event only queue: a line is formatted into a fixed ring slot (no lock, no allocation,
   no clock) and written to the console, files and event log by log_drain_game() from the frame loop,
   outside game code. A watchdog interrupt cannot land inside them (os_guard_service_enter). */
#define GAME_LOG_SLOTS 512

static struct {
    struct { int level; int is_event; char text[2048]; } slot[GAME_LOG_SLOTS];
    uint32_t head, tail;       /* written by the game's calls, read by the frame loop: one thread */
    uint32_t dropped;
} g_game_log;

static char *game_log_slot(int level, int is_event)
{
    if (g_game_log.head - g_game_log.tail >= GAME_LOG_SLOTS) { g_game_log.dropped++; return NULL; }
    uint32_t i = g_game_log.head % GAME_LOG_SLOTS;
    g_game_log.slot[i].level = level;
    g_game_log.slot[i].is_event = is_event;
    return g_game_log.slot[i].text;
}

static void game_log(int level, const char *fmt, ...)
{
    os_guard_service_enter();
    char *text = game_log_slot(level, 0);
    if (text) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof g_game_log.slot[0].text, fmt ? fmt : "", ap);
        va_end(ap);
        g_game_log.head++;     /* published only when complete */
    }
    os_guard_service_leave();
}

static void game_event(const char *name, const char *fields_json)
{
    os_guard_service_enter();
    char *text = game_log_slot(LOG_INFO, 1);
    if (text) {
        /* the fields go into the line as they are: only the inside of a JSON object that cannot end the
           line or stand in for the line's own keys (parse_event_fields); anything else is written as text */
        char esc[256], fields[1536];
        const char *why = NULL;
        parse_json_escape(name ? name : "", esc, sizeof esc);
        if (parse_event_fields(fields_json, fields, sizeof fields, &why)) {
            snprintf(text, sizeof g_game_log.slot[0].text, "\"name\":\"%s\"%s%s", esc, fields[0] ? "," : "", fields);
        } else {
            char raw[1024];
            parse_json_escape(fields_json, raw, sizeof raw);
            snprintf(text, sizeof g_game_log.slot[0].text,
                     "\"name\":\"%s\",\"fields_refused\":\"%s\",\"fields_text\":\"%s\"", esc, why ? why : "", raw);
        }
        g_game_log.head++;
    }
    os_guard_service_leave();
}

void log_drain_game(void)
{
    while (g_game_log.tail != g_game_log.head) {
        const auto &s = g_game_log.slot[g_game_log.tail % GAME_LOG_SLOTS];
        if (s.is_event) log_event("game", "%s", s.text);
        else log_message(s.level, "game: %s", s.text);
        g_game_log.tail++;
    }
    if (g_game_log.dropped) {
        log_message(LOG_WARN, "game: %u log lines/events dropped (more than %d between frames)", g_game_log.dropped,
                    GAME_LOG_SLOTS);
        g_game_log.dropped = 0;
    }
}

static uint64_t g_game_time_reads;   /* the timeline's determinism check asks whether a replayed step read the clock */
static double   game_time(void) { g_game_time_reads++; return log_time(); }
uint64_t        log_game_time_reads(void) { return g_game_time_reads; }

void log_fill_api(PlatformAPI *pf)
{
    pf->log = game_log;
    pf->event = game_event;
    pf->time_seconds = game_time;
}
