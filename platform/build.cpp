/* build.cpp - the game build ("build.sh game") in a child process at a lower priority. The frame loop
   never waits for it; its output is collected as it comes; a save during a build queues one more. */
#include "host.h"

#include <string.h>

static struct {
    OsChild child;
    int     queued;
    double  start_t;
    char    root[HOST_PATH];
    char    output[65536];
    size_t  output_len;
} g_build;

/* --build-cmd split into words; "double quotes" group words with spaces. */
static int split_command(const char *cmd, char *buf, size_t cap, const char **argv, int max)
{
    int argc = 0;
    size_t len = 0;
    const char *p = cmd;
    while (*p && argc < max - 1) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        argv[argc++] = buf + len;
        int quoted = 0;
        for (; *p && (quoted || (*p != ' ' && *p != '\t')); p++) {
            if (*p == '"') { quoted = !quoted; continue; }
            if (len + 1 < cap) buf[len++] = *p;
        }
        if (len < cap) buf[len++] = 0;
    }
    argv[argc] = NULL;
    return argc;
}

static void build_spawn(void)
{
    char script[HOST_PATH], words[4096];
    const char *argv[64];
    if (g_options.build_cmd) {
        split_command(g_options.build_cmd, words, sizeof words, argv, 64);
        snprintf(script, sizeof script, "%s", argv[0]);
    } else {
#if defined(_WIN32)
        snprintf(script, sizeof script, "%s/build.bat", g_build.root);
        const char *def[] = { "cmd", "/c", script, "game", NULL };
#else
        snprintf(script, sizeof script, "%s/build.sh", g_build.root);
        /* at a lower priority: on a machine with few cores the compiler must not take the frame loop's time */
        const char *def[] = { "nice", "-n", "10", "bash", script, "game", NULL };
#endif
        memcpy(argv, def, sizeof def);
    }
    tweak_build_started();
    if (!os_child_start(&g_build.child, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR)) {
        host_log(LOG_ERROR, "build: cannot start %s: %s", script, os_error_text());
        return;
    }
    g_build.start_t = os_mono_seconds();
    g_build.output_len = 0;
    g_build.output[0] = 0;
    host_event("build_start", "\"pid\":%d", (int)g_build.child.pid);
}

void build_start(const char *root)
{
    snprintf(g_build.root, sizeof g_build.root, "%s", root);
    if (g_build.child.pid) { g_build.queued = 1; return; }  /* the save that arrives mid-build wins: one more build */
    build_spawn();
}

int build_running(void) { return g_build.child.pid != 0; }

static void build_drain(void)
{
    for (;;) {
        char tmp[4096];
        int n = os_child_read(&g_build.child, tmp, sizeof tmp);
        if (n <= 0) break;
        size_t room = sizeof g_build.output - 1 - g_build.output_len;
        if ((size_t)n > room) n = (int)room;
        memcpy(g_build.output + g_build.output_len, tmp, (size_t)n);
        g_build.output_len += (size_t)n;
        g_build.output[g_build.output_len] = 0;
    }
}

/* Compiler diagnostics "file:line:col: error: message" become one JSON object each. */
static int build_report_errors(char *json, size_t cap)
{
    int count = 0;
    size_t len = 0;
    json[0] = 0;
    const char *line = g_build.output;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char l[1024];
        snprintf(l, sizeof l, "%.*s", (int)(n < sizeof l - 1 ? n : sizeof l - 1), line);
        char file[512]; int ln = 0, col = 0; char kind[32]; int consumed = 0;
        if (sscanf(l, "%511[^:]:%d:%d: %31[^:]: %n", file, &ln, &col, kind, &consumed) == 4 && consumed > 0 &&
            (strcmp(kind, "error") == 0 || strcmp(kind, "fatal error") == 0)) {
            count++;
            if (count <= 10 && len + 64 < cap) {
                char ef[1024], em[1024];
                host_json_escape(file, ef, sizeof ef);
                host_json_escape(l + consumed, em, sizeof em);
                int w = snprintf(json + len, cap - len, "%s{\"file\":\"%s\",\"line\":%d,\"col\":%d,\"message\":\"%s\"}",
                                 count > 1 ? "," : "", ef, ln, col, em);
                if (w > 0 && (size_t)w < cap - len) len += (size_t)w; else json[len] = 0;
            }
        }
        line += n + (end ? 1 : 0);
    }
    return count;
}

void build_poll(BuildResult *out)
{
    out->finished = 0;
    if (!g_build.child.pid) return;
    build_drain();
    int code = -1, sig = 0;
    int r = os_child_poll(&g_build.child, &code, &sig);
    if (r == 0) return;
    build_drain();
    os_child_kill(&g_build.child);   /* already ended: closes the pipe */
    out->finished = 1;
    out->ok = r > 0 && !sig && code == 0;
    tweak_build_finished(out->ok);
    out->ms = (os_mono_seconds() - g_build.start_t) * 1000.0;
    static char errors[8192];
    out->error_count = build_report_errors(errors, sizeof errors);
    if (!out->ok && out->error_count == 0) out->error_count = 1;
    snprintf(out->output, sizeof out->output, "%s", g_build.output);
    char esc[4096];
    host_json_escape(g_build.output, esc, sizeof esc);
    host_event("build_end", "\"ok\":%s,\"ms\":%.1f,\"error_count\":%d,\"errors\":[%s],\"output\":\"%s\",\"queued\":%s",
               out->ok ? "true" : "false", out->ms, out->error_count, errors, esc, g_build.queued ? "true" : "false");
    if (g_build.queued) {
        /* A newer save arrived while building: this result is already stale. */
        g_build.queued = 0;
        out->finished = 0;
        build_spawn();
    }
}

void build_shutdown(void)
{
    os_child_kill(&g_build.child);
}
