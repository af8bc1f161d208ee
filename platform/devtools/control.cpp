/* control.cpp - the control socket (development; docs/control.md): tests, bots, editors and scripts drive the
   running game through <game build folder>/control.sock (a named pipe on Windows). One JSON object a line in, one
   a line out; each reply carries the request's "id". Read and write the state's fields by path (th_reflect.h's
   paths over the block's description), inject input as an --input script would, pause, step, seek the timeline,
   take a screenshot, and stream the event lines.

   Polled from develop_poll, between frames: requests run where no step is running, in the order they came, and
   a bad one gets {"ok":false,"error":...} and changes nothing. The transport is os.h's os_control_*. */
#include "devtools.h"

#include "th_reflect.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONTROL_CLIENTS  8
#define CONTROL_LINE     16384          /* a longer request is refused and the rest of its line skipped */
#define CONTROL_OUT      (512 * 1024)   /* replies and events a client has not read yet; past it, it is dropped */
#define CONTROL_REPLY    65536          /* one reply (a struct's fields listed) */
#define CONTROL_REQUESTS 64             /* requests a client may have handled in one poll: the rest wait a frame */
#define CONTROL_MAX_STEPS 100000

typedef struct ControlClient {
    int64_t  handle;                    /* -1: a free slot */
    uint32_t serial;                    /* which client held the slot when a request was made (late replies) */
    char     in[CONTROL_LINE];
    size_t   in_len;
    int      skipping;                  /* inside a request that was too long: dropped up to its newline */
    char    *out;                       /* CONTROL_OUT bytes */
    size_t   out_len;
    int      events;                    /* subscribed: every event line is written to it */
} ControlClient;

typedef struct ControlLater {           /* a request answered when the frame loop has done it */
    int      active, client;
    uint32_t serial;
    char     id[80];                    /* the request's id as JSON ("" none) */
    uint64_t until;                     /* step: the step it ends at */
    char     to[HOST_PATH];             /* screenshot: where the PNG goes ("" where F12 puts it) */
} ControlLater;

static struct {
    int64_t       listener;
    char          path[HOST_PATH];      /* the socket file */
    char          address[HOST_PATH];   /* what a client opens (the path, or the pipe's name) */
    uint32_t      serials;
    ControlClient client[CONTROL_CLIENTS];
    ControlLater  step, shot;
    double        poll_us_sum, poll_us_max;
    uint64_t      polls;
    float         poll_us[1024];        /* the last polls' times: a median that a descheduled poll does not move */
} g_control = { -1, "", "", 0, {}, {}, {}, 0, 0, 0, {} };

/* ================================================================ the clients' bytes */
static void client_drop(int i)
{
    ControlClient *c = &g_control.client[i];
    if (c->handle < 0) return;
    os_control_close(c->handle);
    free(c->out);
    memset(c, 0, sizeof *c);
    c->handle = -1;
}

static void client_flush(int i)
{
    ControlClient *c = &g_control.client[i];
    size_t sent = 0;
    while (c->handle >= 0 && sent < c->out_len) {
        int n = os_control_write(c->handle, c->out + sent, c->out_len - sent);
        if (n < 0) { client_drop(i); return; }
        if (n == 0) break;
        sent += (size_t)n;
    }
    if (c->handle < 0) return;
    memmove(c->out, c->out + sent, c->out_len - sent);
    c->out_len -= sent;
}

/* One line to a client (the newline added when missing); one that does not read is dropped, not waited for. */
static void client_send(int i, const char *line)
{
    ControlClient *c = &g_control.client[i];
    size_t n = strlen(line), nl = n && line[n - 1] == '\n' ? 0 : 1;
    if (c->handle < 0) return;
    if (c->out_len + n + nl > CONTROL_OUT) { client_drop(i); return; }
    memcpy(c->out + c->out_len, line, n);
    c->out_len += n;
    if (nl) c->out[c->out_len++] = '\n';
    client_flush(i);
}

/* ================================================================ replies */
/* A reply: {"id":..,"ok":true|false,<fields>} to the client, if it is still the one that asked. */
static void reply_to(int client, uint32_t serial, const char *id, int ok, const char *fields)
{
    if (client < 0 || g_control.client[client].handle < 0 || g_control.client[client].serial != serial) return;
    static char line[CONTROL_REPLY + 256];
    snprintf(line, sizeof line, "{%s%s%s\"ok\":%s%s%s}", id[0] ? "\"id\":" : "", id, id[0] ? "," : "",
             ok ? "true" : "false", fields[0] ? "," : "", fields);
    client_send(client, line);
}

static void reply_error(int client, uint32_t serial, const char *id, const char *fmt, ...)
{
    char why[1024], esc[2200], fields[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    parse_json_escape(why, esc, sizeof esc);
    snprintf(fields, sizeof fields, "\"error\":\"%s\"", esc);
    reply_to(client, serial, id, 0, fields);
}

/* A request being handled: who asked, its id, what it said. */
typedef struct Request {
    int         client;
    uint32_t    serial;
    char        id[80];
    const JsonFlat *j;
    char       *out;                    /* the reply's fields, CONTROL_REPLY bytes */
    char        error[1024];            /* set: the reply is this error, and nothing was changed */
} Request;

static int fail(Request *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    return 0;
}

static void add(Request *r, const char *fmt, ...)
{
    size_t n = strlen(r->out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->out + n, CONTROL_REPLY - n, fmt, ap);
    va_end(ap);
}

static void add_string(Request *r, const char *key, const char *text)
{
    char esc[HOST_PATH * 2];
    parse_json_escape(text, esc, sizeof esc);
    add(r, "%s\"%s\":\"%s\"", r->out[0] ? "," : "", key, esc);
}

double control_poll_us(void) { return g_control.polls ? g_control.poll_us_sum / g_control.polls : 0; }

static int float_order(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

static double poll_us_median(void)
{
    static float sorted[sizeof g_control.poll_us / sizeof g_control.poll_us[0]];
    size_t cap = sizeof sorted / sizeof sorted[0], n = g_control.polls < cap ? (size_t)g_control.polls : cap;
    if (!n) return 0;
    memcpy(sorted, g_control.poll_us, n * sizeof sorted[0]);
    qsort(sorted, n, sizeof sorted[0], float_order);
    return sorted[n / 2];
}

/* ================================================================ the state by path */
static uint8_t *state_bytes(void) { return (uint8_t *)memory_state()->game.base; }

static int state_types(Request *r, thr_types *t)
{
    const StateTypes *st = types_of_block();
    char err[320];
    if (!running_run()->loaded) return fail(r, "no game is running");
    if (!st->valid) return fail(r, "the running game's state has no description: %s", st->error);
    if (!thr_read(st->blob, st->size, t, err, sizeof err)) return fail(r, "the state's description: %s", err);
    return 1;
}

/* The path's place: 1, or 0 + why. A scalar is a field that is not a struct and not a whole array. */
static int find_place(Request *r, thr_types *t, thr_place *at, int want_scalar)
{
    const char *path = json_flat_get(r->j, "path", 's');
    char err[512];
    if (!path) return fail(r, "'path' is missing (a string: \"entities[3].pos.x\"; \"\" is the whole state)");
    if (!state_types(r, t)) return 0;
    if (!thr_find_path(t, path, at, err, sizeof err)) return fail(r, "%s", err);
    int scalar = at->field && at->field->kind != THR_STRUCT && !at->whole;
    if (want_scalar && !scalar)
        return fail(r, "%s holds no single value (a struct or an array): 'list' shows what is inside", path);
    return 1;
}

static void add_value(Request *r, const thr_types *t, const thr_place *at)
{
    char text[256];
    thr_format(t, at, state_bytes(), text, sizeof text);
    add_string(r, "value", text);
    add(r, ",\"kind\":\"%s\"", thr_kind_name(at->field->kind, at->field->elem_size));
}

static int cmd_get(Request *r)
{
    thr_types t;
    thr_place at;
    if (!find_place(r, &t, &at, 1)) return 0;
    add_string(r, "path", json_flat_get(r->j, "path", 's'));
    add_value(r, &t, &at);
    return 1;
}

/* "value" as a string or a JSON number/true/false: stored converted and clamped (thr_store_text), then read back.
   The timeline's recorded steps no longer lead to this state: it starts again from here. */
static int cmd_set(Request *r)
{
    thr_types t;
    thr_place at;
    const char *value = json_flat_get(r->j, "value", 0);
    char err[512];
    if (!value || json_flat_get(r->j, "value", 'a') || json_flat_get(r->j, "value", 'z'))
        return fail(r, "'value' is missing (a number, true/false, or a string: an enum's value name)");
    if (!find_place(r, &t, &at, 1)) return 0;
    if (!thr_store_text(&t, &at, state_bytes(), value, err, sizeof err)) return fail(r, "%s", err);
    timeline_clear("the control socket wrote the state");
    add_string(r, "path", json_flat_get(r->j, "path", 's'));
    add_value(r, &t, &at);
    return 1;
}

/* The fields of the struct at path: name, kind, count, and the value of each single one. */
static int cmd_list(Request *r)
{
    thr_types t;
    thr_place at;
    if (!find_place(r, &t, &at, 0)) return 0;
    if (at.field && (at.field->kind != THR_STRUCT || at.whole))
        return fail(r, "%s is not a struct%s", json_flat_get(r->j, "path", 's'),
                    at.whole ? " (an array: name one element, as in path[0])" : ": 'get' reads it");
    uint32_t type = at.field ? at.field->type : t.header->root;
    add_string(r, "type", thr_name(&t, t.types[type].name));
    add(r, ",\"fields\":[");
    uint32_t i = 0, count = t.types[type].field_count;
    for (; i < count && strlen(r->out) + 1024 < CONTROL_REPLY; i++) {   /* room for one more, and the end */
        const thr_field *f = &t.fields[t.types[type].first_field + i];
        add(r, "%s{\"name\":\"%s\",\"kind\":\"%s\",\"count\":%u", i ? "," : "", thr_name(&t, f->name),
            f->kind == THR_STRUCT ? thr_name(&t, t.types[f->type].name) : thr_kind_name(f->kind, f->elem_size),
            f->count);
        if (f->kind != THR_STRUCT && f->count == 1) {
            thr_place one = { f, type, 0, 0, at.offset + f->offset };
            char text[256], esc[600];
            thr_format(&t, &one, state_bytes(), text, sizeof text);
            parse_json_escape(text, esc, sizeof esc);
            add(r, ",\"value\":\"%s\"", esc);
        }
        add(r, "}");
    }
    add(r, "],\"more\":%u", count - i);   /* fields left out of a reply that would pass 64 KB */
    return 1;
}

/* ================================================================ input, pause, step, seek */
/* What an --input script says, for the next step: "down"/"up"/"tap" (key names), "mouse" [x, y], "axis" [name,
   value], "script" (lines of a script without their step number). All of it is read before any is applied. */
static void script_add(char *script, size_t cap, size_t *n, const char *line_fmt, const char *a, const char *b)
{
    if (*n < cap) *n += (size_t)snprintf(script + *n, cap - *n, line_fmt, a, b ? b : "?");
}

static int cmd_input(Request *r)
{
    static const char *const VERBS[] = { "down", "up", "tap", "script" };
    char script[4096] = "";
    size_t n = 0;
    for (int m = 0; m < r->j->count; m++) {   /* one script line each: text that would start another is refused */
        const char *p = r->j->text + r->j->m[m].at;
        for (int i = 0; i < r->j->m[m].items; i++, p += strlen(p) + 1)
            if (strpbrk(p, "\n\r#")) return fail(r, "'%s' holds a line break or a '#'", r->j->m[m].key);
    }
    for (int v = 0; v < 4; v++)
        for (int i = 0; json_flat_item(r->j, VERBS[v], i); i++)
            script_add(script, sizeof script, &n, v < 3 ? "0 %s %s\n" : "0 %.0s%s\n", VERBS[v],
                       json_flat_item(r->j, VERBS[v], i));
    static const char *const PAIRS[] = { "mouse", "axis" };
    for (int v = 0; v < 2; v++) {
        if (!json_flat_get(r->j, PAIRS[v], 'a')) continue;
        script_add(script, sizeof script, &n, "0 %s %s", PAIRS[v], json_flat_item(r->j, PAIRS[v], 0));
        script_add(script, sizeof script, &n, " %.0s%s\n", "", json_flat_item(r->j, PAIRS[v], 1));
    }
    if (n >= sizeof script) return fail(r, "the input is longer than %zu bytes of script", sizeof script);
    if (!n) return fail(r, "no input: give \"down\", \"up\", \"tap\" (key names), \"mouse\" [x, y], \"axis\" "
                           "[\"LX\", 0.5] or \"script\" [lines of an --input script without the step]");
    ScriptEvent *ev = NULL;
    int count = 0;
    char err[512];
    if (!parse_script(script, "input", &ev, &count, err, sizeof err)) return fail(r, "%s", err);
    input_inject(ev, count);
    free(ev);
    add(r, "\"events\":%d,\"step\":%llu", count, (unsigned long long)frame_loop()->step);
    return 1;
}

/* The request is answered when the frame loop has done it (its command returns -1); one of a kind at a time. */
static int answer_later(Request *r, ControlLater *l, const char *what)
{
    if (l->active) return fail(r, "a %s request is still running", what);
    l->active = 1;
    l->client = r->client;
    l->serial = r->serial;
    snprintf(l->id, sizeof l->id, "%s", r->id);
    return 1;
}

static void add_status(Request *r)
{
    TimelineInfo ti;
    timeline_info(&ti);
    add(r, "%s\"frame\":%llu,\"step\":%llu,\"paused\":%s,\"timeline\":%s,\"cursor\":%llu,\"oldest\":%llu,"
           "\"head\":%llu", r->out[0] ? "," : "", (unsigned long long)frame_loop()->frame,
        (unsigned long long)frame_loop()->step, frame_loop()->paused ? "true" : "false", ti.open ? "true" : "false",
        (unsigned long long)ti.cursor, (unsigned long long)ti.oldest, (unsigned long long)ti.head);
}

static int cmd_pause(Request *r)
{
    if (!frame_loop()->paused) {   /* plainly, as F8 with no timeline: a step runs live steps */
        frame_loop()->paused = 1;
        log_event("pause", "\"on\":true,\"by\":\"control\"");
    }
    add_status(r);
    return 1;
}

static int cmd_resume(Request *r)
{
    if (frame_loop()->paused) timeline_bar_toggle();   /* live again (from the timeline: a branch), as F8 */
    add_status(r);
    return 1;
}

/* n steps while paused: live steps, one a frame, answered when the last has run; on the timeline, n recorded
   steps on at once. */
static int cmd_step(Request *r)
{
    const char *ns = json_flat_get(r->j, "n", 'n');
    long long n = ns ? strtoll(ns, NULL, 10) : 1;
    TimelineInfo ti;
    timeline_info(&ti);
    if (json_flat_get(r->j, "n", 0) && !ns) return fail(r, "'n' is not a number");
    if (n < 1 || n > CONTROL_MAX_STEPS) return fail(r, "'n' wants 1..%d steps, got %lld", CONTROL_MAX_STEPS, n);
    if (!frame_loop()->paused) return fail(r, "not paused: send {\"cmd\":\"pause\"} first");
    if (!running_run()->loaded) return fail(r, "no game is running");
    if (ti.open) {
        if (timeline_seek(ti.cursor + (uint64_t)n) < 0) return fail(r, "the timeline could not replay to there");
        add_status(r);
        return 1;
    }
    if (!answer_later(r, &g_control.step, "step")) return 0;
    g_control.step.until = frame_loop()->step + (uint64_t)n;
    return -1;
}

static void step_progress(void)
{
    ControlLater *l = &g_control.step;
    if (!l->active) return;
    FrameLoop *loop = frame_loop();
    if (!loop->paused || !running_run()->loaded) {
        l->active = 0;
        reply_error(l->client, l->serial, l->id, "the steps stopped at %llu: %s", (unsigned long long)loop->step,
                    loop->paused ? "no game is running" : "the game was resumed");
        return;
    }
    if (loop->step < l->until) { loop->single_step = 1; return; }
    l->active = 0;
    char fields[256];
    snprintf(fields, sizeof fields, "\"step\":%llu,\"frame\":%llu", (unsigned long long)loop->step,
             (unsigned long long)loop->frame);
    reply_to(l->client, l->serial, l->id, 1, fields);
}

/* Paused on the timeline at "step" (clamped to what it keeps), its state replayed and checked. */
static int cmd_seek(Request *r)
{
    const char *s = json_flat_get(r->j, "step", 'n');
    if (!s || s[0] == '-') return fail(r, "'step' is missing (a step number on the timeline)");
    if (!timeline_on()) return fail(r, "the timeline is off (--timeline 0)");
    if (!running_run()->loaded) return fail(r, "no game is running");
    TimelineInfo ti;
    timeline_info(&ti);
    if (!frame_loop()->paused) timeline_bar_toggle();   /* paused on the timeline, as F8 */
    else if (!ti.open && !timeline_open()) return fail(r, "nothing on the timeline yet");
    double ms = timeline_seek(strtoull(s, NULL, 10));
    if (ms < 0) return fail(r, "the timeline could not replay to step %s", s);
    add_status(r);
    add(r, ",\"ms\":%.3f", ms);
    return 1;
}

/* ================================================================ screenshot, subscribe, status */
static int cmd_screenshot(Request *r)
{
    const char *to = json_flat_get(r->j, "path", 's');
    if (json_flat_get(r->j, "path", 0) && !to) return fail(r, "'path' is not a string");
    if (to && !to[0]) return fail(r, "'path' is empty");
    if (!answer_later(r, &g_control.shot, "screenshot")) return 0;
    snprintf(g_control.shot.to, sizeof g_control.shot.to, "%s", to ? to : "");
    frame_loop()->want_screenshot = 1;   /* written after the next frame is drawn: its "screenshot" event answers */
    return -1;
}

/* The "screenshot" event of the frame drawn after the request: the file moved where it was asked for. */
static void shot_written(const char *line)
{
    ControlLater *l = &g_control.shot;
    JsonFlat *ev = (JsonFlat *)malloc(sizeof *ev);
    char err[128];
    if (!ev) return;
    const char *path = parse_json_flat(line, ev, err, sizeof err) ? json_flat_get(ev, "path", 's') : NULL;
    const char *ok = path ? json_flat_get(ev, "ok", 'b') : NULL;
    if (path) {
        char at[HOST_PATH], esc[HOST_PATH * 2], fields[HOST_PATH * 2 + 16];
        snprintf(at, sizeof at, "%s", l->to[0] ? l->to : path);
        int moved = !l->to[0] || os_rename_file(path, l->to) || (os_copy_file(path, l->to) && os_remove_file(path));
        l->active = 0;
        parse_json_escape(at, esc, sizeof esc);
        snprintf(fields, sizeof fields, "\"path\":\"%s\"", esc);
        if (ok && !strcmp(ok, "true") && moved) reply_to(l->client, l->serial, l->id, 1, fields);
        else reply_error(l->client, l->serial, l->id, "the screenshot %s was not written: %s", at,
                         moved ? "see the log" : os_error_text());
    }
    free(ev);
}

static int cmd_subscribe(Request *r)
{
    const char *on = json_flat_get(r->j, "events", 'b');
    if (!on) return fail(r, "'events' is missing (true: every event line is sent to this client; false: none)");
    g_control.client[r->client].events = !strcmp(on, "true");
    add(r, "\"events\":%s", on);
    return 1;
}

static int cmd_status(Request *r)
{
    add_status(r);
    add(r, ",\"loaded\":%s,\"version\":%d", running_run()->loaded ? "true" : "false", running_lib()->version);
    add_string(r, "game_folder", game_folder());
    add_string(r, "game_build_folder", game_build_folder());
    add_string(r, "address", g_control.address);
    add(r, ",\"poll_us_avg\":%.3f,\"poll_us_median\":%.3f,\"poll_us_max\":%.3f", control_poll_us(),
        poll_us_median(), g_control.poll_us_max);
    return 1;
}

/* ================================================================ one request */
typedef struct ControlCommand { const char *name; int (*run)(Request *r); } ControlCommand;
static const ControlCommand COMMANDS[] = {
    { "get", cmd_get },       { "set", cmd_set },       { "list", cmd_list },           { "input", cmd_input },
    { "pause", cmd_pause },   { "resume", cmd_resume }, { "step", cmd_step },           { "seek", cmd_seek },
    { "screenshot", cmd_screenshot }, { "subscribe", cmd_subscribe }, { "status", cmd_status },
};

/* The request's id as JSON, for its reply: a string (escaped again) or a number, as given. */
static void take_id(const JsonFlat *j, char *id, size_t cap)
{
    const char *s = json_flat_get(j, "id", 's'), *n = json_flat_get(j, "id", 'n');
    char esc[64];
    id[0] = 0;
    if (s && strlen(s) < 24) { parse_json_escape(s, esc, sizeof esc); snprintf(id, cap, "\"%s\"", esc); }
    else if (n && strlen(n) < 24) snprintf(id, cap, "%s", n);
}

static void handle_line(int client, const char *line)
{
    static JsonFlat j;                  /* requests are handled one at a time, on the frame loop's thread */
    static char out[CONTROL_REPLY];
    Request r = { client, g_control.client[client].serial, "", &j, out, "" };
    char err[256];
    out[0] = 0;
    if (!parse_json_flat(line, &j, err, sizeof err)) {
        memset(&j, 0, sizeof j);
        reply_error(client, r.serial, "", "not a request: %s", err);
        return;
    }
    take_id(&j, r.id, sizeof r.id);
    const char *cmd = json_flat_get(&j, "cmd", 's');
    const ControlCommand *c = NULL;
    for (const ControlCommand &k : COMMANDS) if (cmd && !strcmp(cmd, k.name)) c = &k;
    if (!c) {
        reply_error(client, r.serial, r.id, cmd ? "unknown command '%s' (docs/control.md)" : "'cmd' is missing%s",
                    cmd ? cmd : "");
        return;
    }
    int done = c->run(&r);
    if (done > 0) reply_to(client, r.serial, r.id, 1, out);
    else if (!done) reply_error(client, r.serial, r.id, "%s", r.error);
}

/* ================================================================ the frame loop's side */
/* Whole lines out of what came in; a line longer than CONTROL_LINE is refused whole. 0: the client is gone. */
static int client_read(int i)
{
    ControlClient *c = &g_control.client[i];
    int handled = 0;
    for (;;) {
        if (handled >= CONTROL_REQUESTS) return 1;   /* the rest next poll */
        char *nl = (char *)memchr(c->in, '\n', c->in_len);
        if (nl) {
            *nl = 0;
            if (nl > c->in && nl[-1] == '\r') nl[-1] = 0;
            if (!c->skipping && c->in[strspn(c->in, " \t\r")]) { handle_line(i, c->in); handled++; }
            if (c->handle < 0) return 0;   /* dropped while answering */
            c->skipping = 0;
            size_t used = (size_t)(nl + 1 - c->in);
            memmove(c->in, nl + 1, c->in_len - used);
            c->in_len -= used;
            continue;
        }
        if (c->in_len == sizeof c->in) {   /* no newline in a full buffer: refused, the rest of the line skipped */
            if (!c->skipping) reply_error(i, c->serial, "", "a request longer than %d bytes", CONTROL_LINE);
            c->skipping = 1;
            c->in_len = 0;
        }
        int n = os_control_read(c->handle, c->in + c->in_len, sizeof c->in - c->in_len);
        if (n < 0) return 0;               /* gone, maybe mid-line: dropped quietly */
        if (n == 0) return 1;
        c->in_len += (size_t)n;
    }
}

static void control_listen(void);

static void accept_clients(void)
{
    for (;;) {
        int64_t h = os_control_accept(g_control.listener);
        if (h == -2) {   /* game code closed it (close_range, dup2): its number is not ours any more */
            log_message(LOG_WARN, "control socket: its descriptor was closed or replaced (by game code?): listening "
                        "again");
            g_control.listener = -1;
            control_listen();
        }
        if (h < 0) return;
        int slot = -1;
        for (int i = 0; i < CONTROL_CLIENTS && slot < 0; i++) if (g_control.client[i].handle < 0) slot = i;
        char *out = slot >= 0 ? (char *)malloc(CONTROL_OUT) : NULL;
        if (!out) {
            static const char FULL[] = "{\"ok\":false,\"error\":\"too many control clients at once\"}\n";
            os_control_write(h, FULL, sizeof FULL - 1);
            os_control_close(h);
            continue;
        }
        ControlClient *c = &g_control.client[slot];
        memset(c, 0, sizeof *c);
        c->handle = h;
        c->serial = ++g_control.serials;
        c->out = out;
    }
}

/* Every event line, to the subscribed clients; a screenshot's answers the request waiting for it. */
static void on_event_line(const char *line)
{
    for (int i = 0; i < CONTROL_CLIENTS; i++)
        if (g_control.client[i].handle >= 0 && g_control.client[i].events) client_send(i, line);
    if (g_control.shot.active && strstr(line, "\"ev\":\"screenshot\"")) shot_written(line);
}

static void control_listen(void)
{
    g_control.listener = os_control_listen(g_control.path, g_control.address, sizeof g_control.address);
    char esc[HOST_PATH * 2];
    if (g_control.listener < 0) {
        log_message(LOG_WARN, "control socket %s: %s (the game runs without it)", g_control.path, os_error_text());
        return;
    }
    log_set_listener(on_event_line);
    log_message(LOG_INFO, "control socket: %s (docs/control.md; --no-control turns it off)", g_control.address);
    parse_json_escape(g_control.address, esc, sizeof esc);
    log_event("control", "\"path\":\"%s\"", esc);
}

void control_start(void)
{
    for (int i = 0; i < CONTROL_CLIENTS; i++) g_control.client[i].handle = -1;
    if (!options()->control) return;
    snprintf(g_control.path, sizeof g_control.path, "%s/control.sock", game_build_folder());
    control_listen();
}

/* Between frames: new clients, their requests, the steps a request waits for. Its cost is kept (status). */
void control_poll(void)
{
    if (g_control.listener < 0) return;
    double t0 = os_mono_seconds();
    accept_clients();
    for (int i = 0; i < CONTROL_CLIENTS; i++) {
        if (g_control.client[i].handle < 0) continue;
        if (!client_read(i)) client_drop(i);
        else if (g_control.client[i].out_len) client_flush(i);
    }
    step_progress();
    double us = (os_mono_seconds() - t0) * 1e6;
    g_control.poll_us_sum += us;
    if (us > g_control.poll_us_max) g_control.poll_us_max = us;
    g_control.poll_us[g_control.polls % (sizeof g_control.poll_us / sizeof g_control.poll_us[0])] = (float)us;
    g_control.polls++;
}

void control_stop(void)
{
    if (g_control.listener < 0) return;
    log_event("control_end", "\"polls\":%llu,\"poll_us_avg\":%.3f,\"poll_us_median\":%.3f,\"poll_us_max\":%.3f",
              (unsigned long long)g_control.polls, control_poll_us(), poll_us_median(), g_control.poll_us_max);
    log_set_listener(NULL);
    for (int i = 0; i < CONTROL_CLIENTS; i++) client_drop(i);
    os_control_unlisten(g_control.listener, g_control.path);
    g_control.listener = -1;
}

