/* build.cpp - the game build in a child process at a lower priority. The frame loop never waits for
   it; its output is collected as it comes; a save during a build queues one more.

   Two ways to build. "build.sh game <folder>" does everything (the -O2 tinyheader object and the layout
   stamp when their inputs changed, then compile and link) and writes the two command lines it used to
   compile.cmd in the game's build folder (game_folder.cpp). When that file is newer than everything the
   cached parts depend on (build.sh, <game>/state.h, platform/include/, tools/layout_stamp.py, the tinyheaders), a save of game
   code needs only those two commands: the host runs the compiler and then the linker itself, saving
   the shell's start and the wrapper's checks on every save. build.sh stays the one place the flags are
   written down; the host never makes up a command line. A library built here has no libgame.so.key
   (build.sh's record of the sources it built from): `./build.sh run` rebuilds it rather than trust it. */
#include "host.h"

#include <stdlib.h>
#include <string.h>

#define BUILD_MAX_ARGS 256

typedef struct BuildCmd {          /* one command of compile.cmd, argv ready to run */
    const char *argv[BUILD_MAX_ARGS];
    int         argc;
} BuildCmd;

static struct {
    OsChild child;
    int     queued;
    int     direct;                /* this build runs compile.cmd's commands, not build.sh */
    int     stage;                 /* direct: 0 compiling, 1 linking */
    double  start_t, stage_t;
    double  stage_ms[2], stage_cpu_ms[2];
    char    root[HOST_PATH];
    char    output[65536];
    size_t  output_len;
    char   *cmd_text;              /* compile.cmd's text, split in place into the two commands */
    BuildCmd cmd[2];               /* compile, link */
    char    obj_tmp[HOST_PATH], lib_tmp[HOST_PATH];
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

/* ---------------------------------------------------------------- the cached command lines */
static int64_t mtime_of(const char *dir, const char *rel)
{
    char p[HOST_PATH];
    OsFileStamp st;
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    return os_file_stamp(p, &st) ? st.mtime_ns : -1;
}

typedef struct NewestCtx { const char *dir; int64_t newest; } NewestCtx;

static void note_header(void *ctx, const char *name, int is_dir)
{
    NewestCtx *n = (NewestCtx *)ctx;
    size_t len = strlen(name);
    if (is_dir || len < 2 || strcmp(name + len - 2, ".h") != 0) return;
    char p[HOST_PATH];
    OsFileStamp st;
    snprintf(p, sizeof p, "%s/%s", n->dir, name);
    if (os_file_stamp(p, &st) && st.mtime_ns > n->newest) n->newest = st.mtime_ns;
}

/* compile.cmd, if it is still what build.sh would run: written after the last change of anything that
   feeds the tinyheader object or the layout stamp, and that object is there. 0: use build.sh. */
static int load_direct_commands(void)
{
    const char *root = g_build.root, *out = game_build_folder();
    int64_t cmd_t = mtime_of(out, "compile.cmd");
    if (cmd_t < 0 || mtime_of(root, "build/tinyheaders/tinyheaders.o") < 0) return 0;
    const char *inputs[] = { "build.sh", "platform/include/tinyheaders.cpp", "tools/layout_stamp.py" };
    for (const char *in : inputs) if (mtime_of(root, in) > cmd_t) return 0;
    if (mtime_of(game_folder(), "state.h") > cmd_t) return 0;
    const char *header_dirs[] = { "tinyheaders", "platform/include" };
    for (const char *d : header_dirs) {
        char dir[HOST_PATH];
        snprintf(dir, sizeof dir, "%s/%s", root, d);
        NewestCtx n = { dir, -1 };
        os_list_dir(dir, note_header, &n);
        if (n.newest > cmd_t) return 0;
    }

    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/compile.cmd", out);
    size_t len = 0;
    char *text = os_read_file(p, &len, 1 << 20);
    if (!text) return 0;
    free(g_build.cmd_text);
    g_build.cmd_text = text;
    memset(g_build.cmd, 0, sizeof g_build.cmd);
    /* one argument per line: "::env" lines, "::compile", its words, "::link", its words, "::end"; @OBJ@ and @LIB@ are
       the temporary object and library, named for this host so a build.sh run beside it never collides */
    snprintf(g_build.obj_tmp, sizeof g_build.obj_tmp, "%s/.game.host%d.o", out, os_pid());
    snprintf(g_build.lib_tmp, sizeof g_build.lib_tmp, "%s/.libgame.host%d" OS_LIB_SUFFIX, out, os_pid());
    int which = -1, ended = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r') line[--n] = 0;
        if (!strncmp(line, "::env ", 6)) {
            /* "::env NAME=value": build.sh chose the compiler and flags from this; ours must match */
            char *eq = strchr(line + 6, '=');
            if (!eq) return 0;
            *eq = 0;
            const char *mine = getenv(line + 6);
            if (strcmp(mine ? mine : "", eq + 1) != 0) return 0;
        }
        else if (!strcmp(line, "::compile")) which = 0;
        else if (!strcmp(line, "::link")) which = 1;
        else if (!strcmp(line, "::end")) { ended = 1; break; }
        else if (line[0] == '#' || which < 0) {}
        else if (g_build.cmd[which].argc < BUILD_MAX_ARGS - 1) {
            const char *a = line;
            if (!strcmp(a, "@OBJ@")) a = g_build.obj_tmp;
            else if (!strcmp(a, "@LIB@")) a = g_build.lib_tmp;
            g_build.cmd[which].argv[g_build.cmd[which].argc++] = a;
        }
        line = nl ? nl + 1 : NULL;
    }
    return ended && g_build.cmd[0].argc > 0 && g_build.cmd[1].argc > 0;
}

/* One command of the direct build, in the project folder (compile.cmd names files relative to it). */
static int spawn_stage(int stage)
{
    g_build.stage = stage;
    g_build.stage_t = os_mono_seconds();
    if (!os_child_start_in(&g_build.child, g_build.cmd[stage].argv, OS_CHILD_STDOUT | OS_CHILD_STDERR | OS_CHILD_LOW_PRIORITY,
                           g_build.root)) {
        host_log(LOG_ERROR, "build: cannot start %s: %s", g_build.cmd[stage].argv[0], os_error_text());
        return 0;
    }
    return 1;
}

static void build_spawn(void)
{
    g_build.output_len = 0;
    g_build.output[0] = 0;
    g_build.stage_ms[0] = g_build.stage_ms[1] = g_build.stage_cpu_ms[0] = g_build.stage_cpu_ms[1] = 0;
#if !defined(_WIN32)
    g_build.direct = !g_options.build_cmd && load_direct_commands();
    if (g_build.direct) {
        tweak_build_started();
        if (!spawn_stage(0)) { tweak_build_finished(0); return; }
        g_build.start_t = g_build.stage_t;
        host_event("build_start", "\"pid\":%d,\"direct\":true", (int)g_build.child.pid);
        return;
    }
#endif
    char script[HOST_PATH], words[4096];
    const char *argv[64];
    if (g_options.build_cmd) {
        split_command(g_options.build_cmd, words, sizeof words, argv, 64);
        snprintf(script, sizeof script, "%s", argv[0]);
    } else {
#if defined(_WIN32)
        snprintf(script, sizeof script, "%s/build.bat", g_build.root);
        const char *def[] = { "cmd", "/c", script, "game", game_folder(), game_build_folder(), NULL };
#else
        snprintf(script, sizeof script, "%s/build.sh", g_build.root);
        const char *def[] = { "bash", script, "game", game_folder(), NULL };
#endif
        memcpy(argv, def, sizeof def);
    }
    tweak_build_started();
    /* at a lower priority: on a machine with few cores the compiler must not take the frame loop's time */
    if (!os_child_start(&g_build.child, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR | OS_CHILD_LOW_PRIORITY)) {
        host_log(LOG_ERROR, "build: cannot start %s: %s", script, os_error_text());
        tweak_build_finished(0);
        return;
    }
    g_build.start_t = os_mono_seconds();
    host_event("build_start", "\"pid\":%d,\"direct\":false", (int)g_build.child.pid);
}

void build_start(const char *root)
{
    snprintf(g_build.root, sizeof g_build.root, "%s", root);
    if (g_build.child.pid) { g_build.queued = 1; return; }  /* the save that arrives mid-build wins: one more build */
    build_spawn();
}

int build_running(void) { return g_build.child.pid != 0; }

int build_fd(void) { return g_build.child.pid ? os_child_fd(&g_build.child) : -1; }

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

/* ---------------------------------------------------------------- compiler errors */
/* Where needle starts within p[0, n), or NULL (memmem is not in every C library). */
static const char *find_in(const char *p, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(p + i, needle, k)) return p + i;
    return NULL;
}

int build_next_error(const char **cursor, BuildError *e)
{
    const char *p = *cursor;
    while (*p) {
        const char *line = p, *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        p += n + (end ? 1 : 0);
        if (!find_in(line, n, ": error") && !find_in(line, n, "fatal error")) continue;
        memset(e, 0, sizeof *e);
        e->text = line;
        e->len = n;
        char l[1024], kind[32];
        snprintf(l, sizeof l, "%.*s", (int)(n < sizeof l - 1 ? n : sizeof l - 1), line);
        int consumed = 0;
        if (sscanf(l, "%511[^:]:%d:%d: %31[^:]: %n", e->file, &e->line, &e->col, kind, &consumed) == 4 && consumed > 0 &&
            (!strcmp(kind, "error") || !strcmp(kind, "fatal error"))) {
            snprintf(e->message, sizeof e->message, "%s", l + consumed);                  /* gcc, clang */
        } else if (consumed = 0, sscanf(l, "%511[^(](%d): %31[^:]: %n", e->file, &e->line, kind, &consumed) == 3 &&
                   consumed > 0 && (!strncmp(kind, "error ", 6) || !strncmp(kind, "fatal error ", 12))) {
            e->col = 0;                                                                   /* MSVC */
            snprintf(e->message, sizeof e->message, "%s", l + consumed);
        } else {
            e->file[0] = 0;                                                               /* a linker's */
            e->line = e->col = 0;
            snprintf(e->message, sizeof e->message, "%s", l);
        }
        *cursor = p;
        return 1;
    }
    *cursor = p;
    return 0;
}

void build_error_summary(const char *output, char *out, size_t cap)
{
    out[0] = 0;
    size_t len = 0;
    int lines = 0;
    BuildError e;
    for (const char *p = output; lines < 6 && build_next_error(&p, &e);) {
        if (len + e.len + 2 >= cap) continue;
        const char *base = e.text;
        const char *game = find_in(e.text, e.len, "/game/");
        if (!game) game = find_in(e.text, e.len, "\\game\\");
        if (game) base = game + 1;
        size_t m = e.len - (size_t)(base - e.text);
        if (m > 110) m = 110;
        memcpy(out + len, base, m);
        len += m;
        out[len++] = '\n';
        out[len] = 0;
        lines++;
    }
    if (!lines) snprintf(out, cap, "%.300s", output);
}

/* The located errors (a file and a line) of the build's output, one JSON object each (the first 10);
   returns how many there are. */
static int build_report_errors(char *json, size_t cap)
{
    int count = 0;
    size_t len = 0;
    json[0] = 0;
    BuildError e;
    for (const char *p = g_build.output; build_next_error(&p, &e);) {
        if (!e.line) continue;
        count++;
        if (count <= 10 && len + 64 < cap) {
            char ef[1024], em[2048];
            host_json_escape(e.file, ef, sizeof ef);
            host_json_escape(e.message, em, sizeof em);
            int w = snprintf(json + len, cap - len, "%s{\"file\":\"%s\",\"line\":%d,\"col\":%d,\"message\":\"%s\"}",
                             count > 1 ? "," : "", ef, e.line, e.col, em);
            if (w > 0 && (size_t)w < cap - len) len += (size_t)w; else json[len] = 0;
        }
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
    int ok = r > 0 && !sig && code == 0;
    double cpu_ms = g_build.child.cpu_ms;
    if (g_build.direct) {
        int st = g_build.stage;
        g_build.stage_ms[st] = (os_mono_seconds() - g_build.stage_t) * 1000.0;
        g_build.stage_cpu_ms[st] = cpu_ms;
        host_event("build_stage", "\"stage\":\"%s\",\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f", st == 0 ? "compile" : "link",
                   ok ? "true" : "false", g_build.stage_ms[st], cpu_ms);
        if (ok && st == 0 && !g_build.queued) {
            if (spawn_stage(1)) return;   /* the link; the build ends when it does */
            ok = 0;
        }
        if (ok && st == 1) {
            /* into place in one step: a reader never sees half a library */
            char from[HOST_PATH], to[HOST_PATH], key[HOST_PATH];
            snprintf(from, sizeof from, "%s", g_build.lib_tmp);
            snprintf(to, sizeof to, "%s", library_built_path(g_build.root));
            snprintf(key, sizeof key, "%s.key", to);
            os_remove_file(key);   /* build.sh's key named the sources of the library this one replaces */
            if (!os_rename_file(from, to)) {
                host_log(LOG_ERROR, "build: cannot move %s to %s: %s", from, to, os_error_text());
                ok = 0;
            }
        }
        os_remove_file(g_build.obj_tmp);
        if (!ok) os_remove_file(g_build.lib_tmp);
        cpu_ms = g_build.stage_cpu_ms[0] + g_build.stage_cpu_ms[1];
    }
    out->finished = 1;
    out->ok = ok;
    tweak_build_finished(out->ok);
    out->ms = (os_mono_seconds() - g_build.start_t) * 1000.0;
    static char errors[8192];
    out->error_count = build_report_errors(errors, sizeof errors);
    if (!out->ok && out->error_count == 0) out->error_count = 1;
    snprintf(out->output, sizeof out->output, "%s", g_build.output);
    char esc[4096];
    host_json_escape(g_build.output, esc, sizeof esc);
    host_event("build_end", "\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f,\"direct\":%s,\"compile_ms\":%.1f,\"link_ms\":%.1f,"
               "\"error_count\":%d,\"errors\":[%s],\"output\":\"%s\",\"queued\":%s",
               out->ok ? "true" : "false", out->ms, cpu_ms, g_build.direct ? "true" : "false", g_build.stage_ms[0],
               g_build.stage_ms[1], out->error_count, errors, esc, g_build.queued ? "true" : "false");
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
    free(g_build.cmd_text);
    g_build.cmd_text = NULL;
}
