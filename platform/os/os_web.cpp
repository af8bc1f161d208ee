/* os_web.cpp - the host's operating system in a web browser (Emscripten, WebAssembly). Only a release
   runs here (./build.sh dist-web): the game is linked in, its assets come from game.pak, which the page
   preloads into Emscripten's in-memory file system, and save data lives in the browser's persistent
   storage (IDBFS, mounted by the page at /save and synced after every write: os_write_file_atomic).

   What a browser does not have, this backend says it has not: no child processes, no directory
   watching, no dynamic libraries, no second address space, no signals. WebAssembly has no faults to
   catch either: a null pointer reads memory 0, and a trap (an unreachable, a division by zero, an
   abort) unwinds to the page, which shows the report (platform/os/web/shell.html). So a guarded call here
   is a plain call, and the watchdog never starts: a browser stops a page that hangs. */
#include "os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <emscripten.h>

static const char NOT_IN_BROWSER[] = "not available in a web browser (platform/os/os_web.cpp)";

static void set_errno_error(const char *what, const char *path)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s %s: %s", what, path, strerror(errno));
    os_set_error(buf);
}

/* ---------------------------------------------------------------- time and process */
double os_mono_seconds(void) { return emscripten_get_now() / 1000.0; }
double os_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
void   os_format_local_time(double wall, char *out, size_t cap)
{
    time_t t = (time_t)wall;
    struct tm tm;
    localtime_r(&t, &tm);
    if (cap) strftime(out, cap, "%Y-%m-%d %H:%M:%S", &tm);
}
void   os_sleep_ms(int) {}          /* the browser paces frames (requestAnimationFrame): never block it */
int    os_pid(void) { return 1; }
int    os_cpu_count(void) { return 1; }
int    os_wait_readable(const int *, int, double) { return 0; }
void   os_on_terminate(void (*)(void)) {}
void   os_attach_console(void) {}
void   os_alert(const char *title, const char *text)
{
    /* the page's report box (shell.html), not window.alert: the page keeps running its message loop */
    EM_ASM({ if (Module.showReport) Module.showReport(UTF8ToString($0), UTF8ToString($1)); }, title, text);
}

/* One call of frame per browser animation frame. Module.hostFrames counts them and Module.firstFrameMs is
   the page's clock at the end of the first (the web test and web_first_frame_ms read them). When frame
   says the game is over (Quit), the loop stops and the page says so. */
static int (*g_frame)(void *);
static void *g_frame_ctx;
static void web_frame(void)
{
    if (!g_frame(g_frame_ctx)) {
        emscripten_cancel_main_loop();
        EM_ASM({ if (Module.showReport) Module.showReport("The game has ended", "Reload the page to play again."); });
        return;
    }
    EM_ASM({
        Module.hostFrames = (Module.hostFrames || 0) + 1;
        if (Module.hostFrames == 1) Module.firstFrameMs = performance.now();
    });
}
void os_run_frames(int (*frame)(void *), void *ctx)
{
    g_frame = frame;
    g_frame_ctx = ctx;
    emscripten_set_main_loop(web_frame, 0, 1);   /* 0: the browser's frame rate; 1: never returns here */
}

/* ---------------------------------------------------------------- files (Emscripten's file system) */
char *os_read_file(const char *path, size_t *len, size_t max_bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f) { set_errno_error("cannot open", path); return NULL; }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || (uint64_t)st.st_size > max_bytes) {
        fclose(f);
        os_set_error("file too big or unreadable");
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    char *buf = (char *)malloc(n + 1);
    if (!buf) { fclose(f); os_set_error("out of memory"); return NULL; }
    size_t got = fread(buf, 1, n, f);
    fclose(f);
    if (got != n) { free(buf); set_errno_error("short read of", path); return NULL; }
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

int os_copy_file(const char *src, const char *dst)
{
    size_t n = 0;
    char *data = os_read_file(src, &n, (size_t)1 << 30);
    if (!data) return 0;
    int ok = os_write_file_atomic(dst, data, n);
    free(data);
    return ok;
}

int os_make_dir(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, 0777);
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) { set_errno_error("cannot make the folder", path); return 0; }
    return 1;
}

int os_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int os_file_stamp(const char *path, OsFileStamp *out)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    if (stat(path, &st) != 0) return 0;
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    return 1;
}

int os_real_path(const char *path, char *out, size_t cap)
{
    char buf[4096];
    if (!realpath(path, buf)) { set_errno_error("cannot resolve", path); return 0; }
    if (strlen(buf) + 1 > cap) { os_set_error("path too long"); return 0; }
    memcpy(out, buf, strlen(buf) + 1);
    return 1;
}

/* The page preloads game.pak beside this "executable": /game/<name>. */
int os_exe_path(char *out, size_t cap)
{
    if (cap < sizeof "/game/game") { os_set_error("path too long"); return 0; }
    snprintf(out, cap, "/game/game");
    return 1;
}

int os_remove_file(const char *path)
{
    if (unlink(path) != 0 && errno != ENOENT) { set_errno_error("cannot remove", path); return 0; }
    return 1;
}

/* Below /save (IDBFS): the write is pushed to the browser's storage at once, so a tab closed a moment
   later keeps it. Module.syncSave (shell.html) runs the asynchronous sync and reports a failure. */
int os_write_file_atomic(const char *path, const void *data, size_t len)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) { set_errno_error("cannot write", tmp); return 0; }
    size_t put = len ? fwrite(data, 1, len, f) : 0;
    if (fclose(f) != 0 || put != len) { unlink(tmp); set_errno_error("cannot write", tmp); return 0; }
    if (rename(tmp, path) != 0) { unlink(tmp); set_errno_error("cannot rename over", path); return 0; }
    if (strncmp(path, "/save/", 6) == 0) EM_ASM({ if (Module.syncSave) Module.syncSave(); });
    return 1;
}

int os_rename_file(const char *from, const char *to)
{
    if (rename(from, to) != 0) { set_errno_error("cannot rename", from); return 0; }
    return 1;
}

/* Only the development host rewrites sources (the F4 panel); a page has none to rewrite. */
int os_replace_file(const char *path, const void *data, size_t len)
{
    (void)path; (void)data; (void)len;
    os_set_error("not in a web page");
    return 0;
}

int os_list_dir(const char *dir, os_dir_entry_fn *fn, void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) { set_errno_error("cannot list", dir); return 0; }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        struct stat st;
        fn(ctx, e->d_name, stat(full, &st) == 0 && S_ISDIR(st.st_mode));
    }
    closedir(d);
    return 1;
}

/* ---------------------------------------------------------------- directory watching: none (a release) */
int  os_watch_open(void) { os_set_error(NOT_IN_BROWSER); return 0; }
int  os_watch_add(const char *) { os_set_error(NOT_IN_BROWSER); return -1; }
void os_watch_read(os_watch_fn *, void *) {}
void os_watch_close(void) {}
int  os_watch_fd(void) { return -1; }

/* ---------------------------------------------------------------- the control channel: not available */
int64_t os_control_listen(const char *, char *address, size_t cap)
{
    if (cap) address[0] = 0;
    os_set_error(NOT_IN_BROWSER);
    return -1;
}
int64_t os_control_accept(int64_t) { return -1; }
int     os_control_read(int64_t, char *, size_t) { return -1; }
int     os_control_write(int64_t, const char *, size_t) { return -1; }
void    os_control_close(int64_t) {}
void    os_control_unlisten(int64_t, const char *) {}

/* ---------------------------------------------------------------- child processes: none */
int os_child_start(OsChild *c, const char *const[], unsigned)
{
    memset(c, 0, sizeof *c);
    os_set_error(NOT_IN_BROWSER);
    return 0;
}
int os_child_start_in(OsChild *c, const char *const[], unsigned, const char *)
{
    memset(c, 0, sizeof *c);
    os_set_error(NOT_IN_BROWSER);
    return 0;
}
int  os_child_fd(const OsChild *) { return -1; }
int  os_child_read(OsChild *, char *, size_t) { return 0; }
int  os_child_poll(OsChild *, int *, int *) { return -1; }
void os_child_kill(OsChild *c) { memset(c, 0, sizeof *c); }

/* ---------------------------------------------------------------- dynamic libraries: none (the game is linked in) */
int os_lib_complete(const char *, char *err, size_t cap)
{
    if (cap) snprintf(err, cap, "%s", NOT_IN_BROWSER);
    return 0;
}
void *os_lib_open(const char *, char *err, size_t cap)
{
    if (cap) snprintf(err, cap, "%s", NOT_IN_BROWSER);
    return NULL;
}
void *os_lib_symbol(void *, const char *) { return NULL; }
void  os_lib_close(void *) {}
int   os_lib_image(const char *, OsRange *, int) { return 0; }
int   os_mapped_ranges(const char *, OsRange *, int) { return 0; }
void  os_describe_code(const char *, uintptr_t, uintptr_t, char *fn, size_t fncap, char *where, size_t wcap)
{
    if (fncap) snprintf(fn, fncap, "?");
    if (wcap) snprintf(where, wcap, "?");
}

/* ---------------------------------------------------------------- address space: the module's heap */
int os_make_writable(void *, uint64_t) { return 1; }   /* wasm memory has no protection */

void *os_reserve(uint64_t bytes, uintptr_t)
{
    if (bytes > ((uint64_t)1 << 31)) { os_set_error("more memory than a web page may have (2 GiB)"); return NULL; }
    void *p = calloc(1, (size_t)bytes);
    if (!p) os_set_error("out of memory (the page's WebAssembly heap)");
    return p;
}

/* ---------------------------------------------------------------- threads: none (no SharedArrayBuffer needed) */
int os_thread_start(OsThread *t, void *(*)(void *), void *)
{
    memset(t, 0, sizeof *t);
    os_set_error(NOT_IN_BROWSER);
    return 0;
}
void os_thread_join(OsThread *) {}

/* ---------------------------------------------------------------- faults: WebAssembly traps go to the page */
void        os_fault_init(void) {}
int         os_guarded_call(void (*fn)(void *), void *arg, uint64_t, OsFault *fault)
{
    memset(fault, 0, sizeof *fault);
    fn(arg);
    return 0;
}
int         os_interrupt_guarded_call(uint64_t) { return 0; }
const char *os_fault_name(int kind) { return kind == OS_FAULT_HANG ? "hang" : "trap"; }
uint64_t    os_guard_jumps(void) { return 0; }
void        os_guard_game_exit(void *) {}
FILE       *os_fopen(const char *path, const char *mode) { return fopen(path, mode); }
int         os_std_fds_check(void) { return 0; }
void        os_host_fds_record(void) {}
int         os_fd_is_host(int) { return 0; }
int         os_fd_host_in(unsigned, unsigned) { return -1; }
int         os_fd_close(int) { return -1; }
int   os_file_stamp_of(FILE *, OsFileStamp *out) { memset(out, 0, sizeof *out); return 0; }   /* never checked */
int   os_file_reopen(FILE *, const char *) { return 0; }
int   os_host_fds_plug(void) { return 0; }
int   os_child_lost(const OsChild *) { return 0; }
int   os_watch_lost(void) { return 0; }
int   os_session_renew(int64_t, void *, uint64_t, const OsSpan *, int) { return 0; }
int         os_guard_in_call(void) { return 0; }
void        os_guard_service_enter(void) {}
void        os_guard_service_leave(void) {}
void        os_fault_on_unsafe(os_unsafe_fault_fn *) {}
void        os_fault_game_code(uintptr_t, uintptr_t) {}
int         os_system_code_ranges(OsRange *, int) { return 0; }

/* ---------------------------------------------------------------- no session outlives the page */
void *os_session_create(uint64_t, uintptr_t, int64_t *handle)
{
    *handle = -1;
    os_set_error(NOT_IN_BROWSER);
    return NULL;
}
int64_t  os_session_inherited(const char *) { return -1; }
int      os_session_read(int64_t, void *, size_t) { os_set_error(NOT_IN_BROWSER); return 0; }
void    *os_session_attach(int64_t, uint64_t, uintptr_t) { os_set_error(NOT_IN_BROWSER); return NULL; }
void     os_session_close(int64_t, void *, uint64_t) {}
int      os_session_exec_prepare(int64_t, const char *, int, char **) { os_set_error(NOT_IN_BROWSER); return 0; }
void     os_session_exec(void) {}
void     os_close_inherited(int64_t) {}
void     os_signals_reset(void) {}
void     os_write_stderr(const char *s) { fputs(s, stderr); }
