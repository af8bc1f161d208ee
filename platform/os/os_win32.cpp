/* os_win32.cpp - os.h for Windows: QueryPerformanceCounter, ReadDirectoryChangesW, CreateProcess with a
   pipe, LoadLibrary, VirtualAlloc, threads. The fault guard and the watchdog are in os_win32_guard.cpp.
   With it, the only platform files that include <windows.h>. Crash locations come from DbgHelp. Built with MSVC
   (build.bat) or mingw-w64 (the Windows leg of build.sh, run under wine). Paths cross this file as UTF-8 and are
   converted here. */
#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include "os.h"

#include <windows.h>
#include <psapi.h>
#include <dbghelp.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <atomic>

void os_win32_set_error(const char *what)
{
    DWORD code = GetLastError();
    char msg[256] = "";
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, msg, sizeof msg, NULL);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == ' ' || msg[n - 1] == '.')) msg[--n] = 0;
    char text[512];
    snprintf(text, sizeof text, "%s: %s (error %lu)", what, n ? msg : "failed", (unsigned long)code);
    os_set_error(text);
}

/* UTF-8 <-> UTF-16, '/' accepted on the way in and given on the way out. */
struct Wide { wchar_t s[4096]; };
static int to_wide(const char *utf8, Wide *out)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, out->s, (int)(sizeof out->s / sizeof out->s[0]));
    if (n <= 0) { os_set_error("path not valid UTF-8 or too long"); out->s[0] = 0; return 0; }
    for (wchar_t *p = out->s; *p; p++) if (*p == L'/') *p = L'\\';
    return 1;
}
static int from_wide(const wchar_t *w, char *out, size_t cap)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)cap, NULL, NULL);
    if (n <= 0) { os_set_error("path too long"); if (cap) out[0] = 0; return 0; }
    for (char *p = out; *p; p++) if (*p == '\\') *p = '/';
    return 1;
}

/* ================================================================ time and process */
static double qpc_period(void)
{
    static double period;
    if (period == 0) { LARGE_INTEGER f; QueryPerformanceFrequency(&f); period = 1.0 / (double)f.QuadPart; }
    return period;
}
double os_mono_seconds(void) { LARGE_INTEGER c; QueryPerformanceCounter(&c); return (double)c.QuadPart * qpc_period(); }

double os_wall_seconds(void)
{
    FILETIME ft;
    GetSystemTimePreciseAsFileTime(&ft);
    uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;   /* 100 ns since 1601 */
    return (double)(t - 116444736000000000ull) / 1e7;
}

void os_format_local_time(double wall, char *out, size_t cap)
{
    time_t t = (time_t)wall;
    struct tm *tm = localtime(&t);   /* the C runtime keeps this per thread */
    if (!tm || !strftime(out, cap, "%Y-%m-%d %H:%M:%S", tm)) { if (cap) out[0] = 0; }
}

void os_sleep_ms(int ms) { Sleep(ms > 0 ? (DWORD)ms : 0); }
/* ================================================================ the control channel: a named pipe */
/* One pipe instance waits for the next client; a connected instance becomes that client and a new one waits.
   PIPE_NOWAIT keeps every call from blocking, so the frame loop polls it as Linux polls its socket. */
static struct {
    HANDLE waiting;
    char   name[256];
} g_control_pipe = { INVALID_HANDLE_VALUE, "" };

static HANDLE control_pipe_instance(int first)
{
    DWORD open = PIPE_ACCESS_DUPLEX | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0);
    HANDLE h = CreateNamedPipeA(g_control_pipe.name, open, PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_NOWAIT |
                                PIPE_REJECT_REMOTE_CLIENTS, PIPE_UNLIMITED_INSTANCES, 65536, 65536, 0, NULL);
    return h;
}

int64_t os_control_listen(const char *path, char *address, size_t cap)
{
    uint32_t h = 2166136261u;   /* the pipe's name from the socket path: one per game build folder */
    for (const char *p = path; *p; p++) { h ^= (uint8_t)*p; h *= 16777619u; }
    snprintf(g_control_pipe.name, sizeof g_control_pipe.name, "\\\\.\\pipe\\engine-control-%08x", h);
    if (cap) snprintf(address, cap, "%s", g_control_pipe.name);
    g_control_pipe.waiting = control_pipe_instance(1);
    if (g_control_pipe.waiting == INVALID_HANDLE_VALUE) {
        os_win32_set_error("CreateNamedPipe");
        return -1;
    }
    return 0;
}

int64_t os_control_accept(int64_t listener)
{
    if (listener < 0 || g_control_pipe.waiting == INVALID_HANDLE_VALUE) return -1;
    if (ConnectNamedPipe(g_control_pipe.waiting, NULL)) return -1;   /* nowait: ready for a client, none yet */
    DWORD e = GetLastError();
    if (e == ERROR_NO_DATA) { DisconnectNamedPipe(g_control_pipe.waiting); return -1; }   /* came and went */
    if (e != ERROR_PIPE_CONNECTED) return -1;
    HANDLE client = g_control_pipe.waiting;
    g_control_pipe.waiting = control_pipe_instance(0);
    return (int64_t)(intptr_t)client;
}

int os_control_read(int64_t client, char *buf, size_t cap)
{
    HANDLE h = (HANDLE)(intptr_t)client;
    DWORD avail = 0, got = 0;
    if (!PeekNamedPipe(h, NULL, 0, NULL, &avail, NULL)) return -1;   /* broken: the client is gone */
    if (!avail) return 0;
    if (!ReadFile(h, buf, (DWORD)(cap < avail ? cap : avail), &got, NULL)) return -1;
    return (int)got;
}

int os_control_write(int64_t client, const char *buf, size_t n)
{
    DWORD put = 0;
    if (!WriteFile((HANDLE)(intptr_t)client, buf, (DWORD)n, &put, NULL)) return -1;
    return (int)put;
}

void os_control_close(int64_t client)
{
    HANDLE h = (HANDLE)(intptr_t)client;
    DisconnectNamedPipe(h);
    CloseHandle(h);
}

void os_control_unlisten(int64_t listener, const char *)
{
    if (listener < 0 || g_control_pipe.waiting == INVALID_HANDLE_VALUE) return;
    CloseHandle(g_control_pipe.waiting);
    g_control_pipe.waiting = INVALID_HANDLE_VALUE;
}

int os_wait_readable(const int *fds, int n, double timeout_s)
{
    (void)fds; (void)n;   /* nothing to wait on here (os_watch_fd, os_child_fd are -1): a plain sleep */
    if (timeout_s > 0) Sleep((DWORD)(timeout_s * 1000.0));
    return 0;
}

int os_pid(void) { return (int)GetCurrentProcessId(); }

int os_cpu_count(void)
{
    DWORD_PTR process = 0, system = 0;
    int n = 0;
    if (GetProcessAffinityMask(GetCurrentProcess(), &process, &system))
        for (; process; process &= process - 1) n++;
    return n > 0 ? n : 1;
}

static void (*g_terminate_fn)(void);
static int stand_in_ctrl(void);   /* a session's stand-in passes Ctrl-C on (below) */
static BOOL WINAPI on_console_ctrl(DWORD type)
{
    (void)type;
    if (stand_in_ctrl()) return TRUE;
    if (g_terminate_fn) g_terminate_fn();
    return TRUE;
}
void os_on_terminate(void (*fn)(void))
{
    g_terminate_fn = fn;
    SetConsoleCtrlHandler(on_console_ctrl, TRUE);
}

static int g_console_attached;
static int stderr_is_read(void)
{
    HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
    return g_console_attached || (h && h != INVALID_HANDLE_VALUE && GetFileType(h) != FILE_TYPE_UNKNOWN);
}

void os_attach_console(void)
{
    if (stderr_is_read() || !AttachConsole(ATTACH_PARENT_PROCESS)) return;
    g_console_attached = 1;
    if (!freopen("CONOUT$", "w", stdout) || !freopen("CONOUT$", "w", stderr)) g_console_attached = 0;
}

void os_alert(const char *title, const char *text)
{
    if (stderr_is_read()) return;
    int tn = MultiByteToWideChar(CP_UTF8, 0, title, -1, NULL, 0),
        n = MultiByteToWideChar(CP_UTF8, 0, text, -1, NULL, 0);
    wchar_t *wt = (wchar_t *)calloc((size_t)(tn > 0 ? tn : 1) + (size_t)(n > 0 ? n : 1), sizeof(wchar_t));
    if (!wt) return;
    wchar_t *w = wt + (tn > 0 ? tn : 1);
    MultiByteToWideChar(CP_UTF8, 0, title, -1, wt, tn);
    MultiByteToWideChar(CP_UTF8, 0, text, -1, w, n);
    MessageBoxW(NULL, w, wt, MB_OK | MB_ICONERROR | MB_SETFOREGROUND);
    free(wt);
}

void os_run_frames(int (*frame)(void *), void *ctx) { while (frame(ctx)) {} }

/* ================================================================ files */
static HANDLE open_for_read(const char *path)
{
    Wide w;
    if (!to_wide(path, &w)) return INVALID_HANDLE_VALUE;
    HANDLE h = CreateFileW(w.s, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) os_win32_set_error(path);
    return h;
}

/* Windows hands a game's close() no host handle by number: a plain fopen, nothing to check. */
FILE *os_fopen(const char *path, const char *mode) { return fopen(path, mode); }
int   os_std_fds_check(void) { return 0; }
void  os_host_fds_record(void) {}
int   os_fd_is_host(int) { return 0; }
int   os_fd_host_in(unsigned, unsigned) { return -1; }
int   os_fd_close(int fd) { return _close(fd); }
int   os_file_stamp_of(FILE *, OsFileStamp *out) { memset(out, 0, sizeof *out); return 0; }   /* never checked */
int   os_file_reopen(FILE *, const char *) { return 0; }
int   os_host_fds_plug(void) { return 0; }
int   os_child_lost(const OsChild *) { return 0; }
int   os_watch_lost(void) { return 0; }
int   os_session_renew(int64_t, void *, uint64_t, const OsSpan *, int) { return 0; }

char *os_read_file(const char *path, size_t *len, size_t max_bytes)
{
    if (len) *len = 0;
    HANDLE h = open_for_read(path);
    if (h == INVALID_HANDLE_VALUE) return NULL;
    LARGE_INTEGER size;
    if (!GetFileSizeEx(h, &size)) { os_win32_set_error(path); CloseHandle(h); return NULL; }
    if ((uint64_t)size.QuadPart > max_bytes) { os_set_error("file too large"); CloseHandle(h); return NULL; }
    size_t cap = (size_t)size.QuadPart, n = 0;
    char *buf = (char *)malloc(cap + 1);
    if (!buf) { os_set_error("out of memory"); CloseHandle(h); return NULL; }
    while (n < cap) {
        DWORD got = 0, want = (DWORD)((cap - n) > (1u << 30) ? (1u << 30) : (cap - n));
        if (!ReadFile(h, buf + n, want, &got, NULL)) {
            os_win32_set_error(path);
            free(buf);
            CloseHandle(h);
            return NULL;
        }
        if (got == 0) break;   /* shrank while reading */
        n += got;
    }
    CloseHandle(h);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

int os_copy_file(const char *src, const char *dst)
{
    Wide ws, wd;
    if (!to_wide(src, &ws) || !to_wide(dst, &wd)) return 0;
    if (CopyFileW(ws.s, wd.s, FALSE)) return 1;
    os_win32_set_error(dst);
    return 0;
}

int os_rename_file(const char *from, const char *to)
{
    Wide wf, wt;
    if (!to_wide(from, &wf) || !to_wide(to, &wt)) return 0;
    if (MoveFileExW(wf.s, wt.s, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return 1;
    os_win32_set_error(to);
    return 0;
}

/* Written to a temporary name, flushed, then moved over path: a reader sees the old file or the new one. */
int os_write_file_atomic(const char *path, const void *data, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%lu", path, (unsigned long)GetCurrentProcessId());
    Wide w;
    if (!to_wide(tmp, &w)) return 0;
    HANDLE h = CreateFileW(w.s, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) { os_win32_set_error(tmp); return 0; }
    const char *p = (const char *)data;
    size_t left = len;
    int ok = 1;
    while (left > 0) {
        DWORD put = 0, want = (DWORD)(left > (1u << 30) ? (1u << 30) : left);
        if (!WriteFile(h, p, want, &put, NULL) || put == 0) { os_win32_set_error(tmp); ok = 0; break; }
        p += put;
        left -= put;
    }
    if (ok && !FlushFileBuffers(h)) { os_win32_set_error(tmp); ok = 0; }
    CloseHandle(h);
    if (ok) ok = os_rename_file(tmp, path);
    if (!ok) DeleteFileW(w.s);
    return ok;
}

/* Windows keeps no mode bits beyond read-only: a read-only file is refused, anything else is replaced. */
int os_replace_file(const char *path, const void *data, size_t len)
{
    Wide w;
    if (!to_wide(path, &w)) return 0;
    DWORD attr = GetFileAttributesW(w.s);
    if (attr == INVALID_FILE_ATTRIBUTES) { os_win32_set_error(path); return 0; }
    if (attr & FILE_ATTRIBUTE_READONLY) { os_set_error("Permission denied (read-only)"); return 0; }
    return os_write_file_atomic(path, data, len);
}

int os_make_dir(const char *path)
{
    Wide w;
    if (!to_wide(path, &w)) return 0;
    if (CreateDirectoryW(w.s, NULL) || GetLastError() == ERROR_ALREADY_EXISTS) return 1;
    os_win32_set_error(path);
    return 0;
}

int os_is_file(const char *path)
{
    Wide w;
    if (!to_wide(path, &w)) return 0;
    DWORD a = GetFileAttributesW(w.s);
    return a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);
}

int os_file_stamp(const char *path, OsFileStamp *out)
{
    memset(out, 0, sizeof *out);
    HANDLE h = open_for_read(path);
    if (h == INVALID_HANDLE_VALUE) return 0;
    BY_HANDLE_FILE_INFORMATION info;
    int ok = GetFileInformationByHandle(h, &info) != 0;
    if (!ok) os_win32_set_error(path);
    CloseHandle(h);
    if (!ok) return 0;
    out->dev = info.dwVolumeSerialNumber;
    out->ino = ((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow;
    out->size = ((uint64_t)info.nFileSizeHigh << 32) | info.nFileSizeLow;
    uint64_t t = ((uint64_t)info.ftLastWriteTime.dwHighDateTime << 32) | info.ftLastWriteTime.dwLowDateTime;
    out->mtime_ns = (int64_t)(t * 100);
    return 1;
}

int os_real_path(const char *path, char *out, size_t cap)
{
    Wide w, full;
    if (!to_wide(path, &w)) return 0;
    DWORD n = GetFullPathNameW(w.s, (DWORD)(sizeof full.s / sizeof full.s[0]), full.s, NULL);
    if (n == 0 || n >= sizeof full.s / sizeof full.s[0]) { os_win32_set_error(path); return 0; }
    if (GetFileAttributesW(full.s) == INVALID_FILE_ATTRIBUTES) { os_win32_set_error(path); return 0; }
    return from_wide(full.s, out, cap);
}

int os_exe_path(char *out, size_t cap)
{
    Wide w;
    DWORD n = GetModuleFileNameW(NULL, w.s, (DWORD)(sizeof w.s / sizeof w.s[0]));
    if (n == 0 || n >= sizeof w.s / sizeof w.s[0]) { os_win32_set_error("GetModuleFileNameW"); return 0; }
    return from_wide(w.s, out, cap);
}

int os_remove_file(const char *path)
{
    Wide w;
    if (!to_wide(path, &w)) return 0;
    if (DeleteFileW(w.s)) return 1;
    os_win32_set_error(path);
    return 0;
}

int os_list_dir(const char *dir, os_dir_entry_fn *fn, void *ctx)
{
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/*", dir);
    Wide w;
    if (!to_wide(pattern, &w)) return 0;
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(w.s, &fd);
    if (h == INVALID_HANDLE_VALUE) { os_win32_set_error(dir); return 0; }
    do {
        if (!wcscmp(fd.cFileName, L".") || !wcscmp(fd.cFileName, L"..")) continue;
        char name[1024];
        if (from_wide(fd.cFileName, name, sizeof name))
            fn(ctx, name, (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0);
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    return 1;
}

/* ================================================================ directory watching */
/* One handle per folder (like one inotify watch per folder), each with an overlapped
   ReadDirectoryChangesW kept armed; os_watch_read collects what completed and re-arms. */
enum { WATCH_MAX = 256 };
struct Watch {
    HANDLE     dir;
    OVERLAPPED ov;
    DWORD      buf[4096];   /* FILE_NOTIFY_INFORMATION records, DWORD-aligned */
    char       path[1024];
    int        armed;
};
static Watch *g_watches[WATCH_MAX];
static int g_watch_count, g_watch_open;

static int watch_arm(Watch *w)
{
    memset(&w->ov, 0, sizeof w->ov);
    w->ov.hEvent = w->ov.hEvent ? w->ov.hEvent : CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD filter = FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_DIR_NAME | FILE_NOTIFY_CHANGE_LAST_WRITE |
                   FILE_NOTIFY_CHANGE_SIZE | FILE_NOTIFY_CHANGE_ATTRIBUTES;
    w->armed = ReadDirectoryChangesW(w->dir, w->buf, sizeof w->buf, FALSE, filter, NULL, &w->ov, NULL) != 0;
    if (!w->armed) os_win32_set_error(w->path);
    return w->armed;
}

int os_watch_open(void) { g_watch_open = 1; return 1; }

int os_watch_add(const char *dir)
{
    if (!g_watch_open) { os_set_error("watcher not open"); return -1; }
    char full[1024];
    if (!os_real_path(dir, full, sizeof full)) return -1;
    for (int i = 0; i < g_watch_count; i++)
        if (!_stricmp(g_watches[i]->path, full)) return i;
    if (g_watch_count == WATCH_MAX) { os_set_error("too many watched folders"); return -1; }
    Wide w;
    if (!to_wide(full, &w)) return -1;
    HANDLE h = CreateFileW(w.s, FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OVERLAPPED, NULL);
    if (h == INVALID_HANDLE_VALUE) { os_win32_set_error(dir); return -1; }
    Watch *watch = (Watch *)calloc(1, sizeof(Watch));
    if (!watch) { CloseHandle(h); os_set_error("out of memory"); return -1; }
    watch->dir = h;
    snprintf(watch->path, sizeof watch->path, "%s", full);
    if (!watch_arm(watch)) {
        CloseHandle(h);
        if (watch->ov.hEvent) CloseHandle(watch->ov.hEvent);
        free(watch);
        return -1;
    }
    g_watches[g_watch_count] = watch;
    return g_watch_count++;
}

void os_watch_read(os_watch_fn *fn, void *ctx)
{
    for (int i = 0; i < g_watch_count; i++) {
        Watch *w = g_watches[i];
        DWORD got = 0;
        if (!w->armed) { watch_arm(w); continue; }
        if (!GetOverlappedResult(w->dir, &w->ov, &got, FALSE)) {
            if (GetLastError() == ERROR_IO_INCOMPLETE) continue;
            got = 0;   /* the folder went away or the buffer overflowed: re-arm, nothing to report */
        }
        for (DWORD at = 0; got >= sizeof(FILE_NOTIFY_INFORMATION) && at < got;) {
            FILE_NOTIFY_INFORMATION *e = (FILE_NOTIFY_INFORMATION *)((char *)w->buf + at);
            wchar_t wname[1024];
            size_t wlen = e->FileNameLength / sizeof(wchar_t);
            if (wlen >= sizeof wname / sizeof wname[0]) wlen = sizeof wname / sizeof wname[0] - 1;
            memcpy(wname, e->FileName, wlen * sizeof(wchar_t));
            wname[wlen] = 0;
            char name[1024];
            if (e->Action != FILE_ACTION_REMOVED && e->Action != FILE_ACTION_RENAMED_OLD_NAME &&
                from_wide(wname, name, sizeof name)) {
                unsigned flags = e->Action == FILE_ACTION_ADDED ? OS_WATCH_CREATED
                               : e->Action == FILE_ACTION_RENAMED_NEW_NAME ? OS_WATCH_MOVED_IN : 0;
                char full[2048];
                snprintf(full, sizeof full, "%s/%s", w->path, name);
                Wide wf;
                DWORD attr = to_wide(full, &wf) ? GetFileAttributesW(wf.s) : INVALID_FILE_ATTRIBUTES;
                if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) flags |= OS_WATCH_IS_DIR;
                fn(ctx, i, name, flags);
            }
            if (!e->NextEntryOffset) break;
            at += e->NextEntryOffset;
        }
        watch_arm(w);
    }
}

int os_watch_fd(void) { return -1; }   /* the watch is polled each frame */

void os_watch_close(void)
{
    for (int i = 0; i < g_watch_count; i++) {
        Watch *w = g_watches[i];
        CancelIoEx(w->dir, &w->ov);
        DWORD got;
        GetOverlappedResult(w->dir, &w->ov, &got, TRUE);
        CloseHandle(w->dir);
        if (w->ov.hEvent) CloseHandle(w->ov.hEvent);
        free(w);
        g_watches[i] = NULL;
    }
    g_watch_count = 0;
    g_watch_open = 0;
}

/* ================================================================ child processes */
/* The command line from argv, quoted the way the C runtime splits it back. */
static void append_quoted(char *out, size_t cap, size_t *len, const char *arg)
{
    int plain = arg[0] != 0 && !strpbrk(arg, " \t\"");
    if (*len && *len + 1 < cap) out[(*len)++] = ' ';
    if (plain) {
        for (const char *p = arg; *p && *len + 1 < cap; p++) out[(*len)++] = *p;
    } else {
        if (*len + 1 < cap) out[(*len)++] = '"';
        for (const char *p = arg;; p++) {
            size_t slashes = 0;
            while (*p == '\\') { slashes++; p++; }
            size_t times = !*p ? slashes * 2 : *p == '"' ? slashes * 2 + 1 : slashes;
            for (size_t k = 0; k < times && *len + 1 < cap; k++) out[(*len)++] = '\\';
            if (!*p) break;
            if (*len + 1 < cap) out[(*len)++] = *p;
        }
        if (*len + 1 < cap) out[(*len)++] = '"';
    }
    out[*len] = 0;
}

int os_child_start(OsChild *c, const char *const argv[], unsigned capture)
{
    return os_child_start_in(c, argv, capture, NULL);
}

int os_child_start_in(OsChild *c, const char *const argv[], unsigned capture, const char *cwd)
{
    memset(c, 0, sizeof *c);
    static wchar_t wcwd[4096];
    if (cwd && MultiByteToWideChar(CP_UTF8, 0, cwd, -1, wcwd, 4096) <= 0) {
        os_set_error("working folder name too long");
        return 0;
    }
    static char cmdline[32768];
    size_t len = 0;
    cmdline[0] = 0;
    for (int i = 0; argv[i]; i++) append_quoted(cmdline, sizeof cmdline, &len, argv[i]);
    static wchar_t wcmd[32768];
    if (MultiByteToWideChar(CP_UTF8, 0, cmdline, -1, wcmd, 32768) <= 0) {
        os_set_error("command line too long");
        return 0;
    }

    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE rd = NULL, wr = NULL;
    if (!CreatePipe(&rd, &wr, &sa, 1 << 16)) { os_win32_set_error("CreatePipe"); return 0; }
    SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
    HANDLE nul_in = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
    HANDLE nul_out =
        CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
    STARTUPINFOW si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = nul_in;
    si.hStdOutput = (capture & OS_CHILD_STDOUT) ? wr : nul_out;
    si.hStdError = (capture & OS_CHILD_STDERR) ? wr : nul_out;
    PROCESS_INFORMATION pi;
    memset(&pi, 0, sizeof pi);
    DWORD how = CREATE_NO_WINDOW | ((capture & OS_CHILD_LOW_PRIORITY) ? BELOW_NORMAL_PRIORITY_CLASS : 0);
    BOOL ok = CreateProcessW(NULL, wcmd, NULL, NULL, TRUE, how, NULL, cwd ? wcwd : NULL, &si, &pi);
    if (!ok) os_win32_set_error(argv[0]);
    CloseHandle(wr);
    if (nul_in != INVALID_HANDLE_VALUE) CloseHandle(nul_in);
    if (nul_out != INVALID_HANDLE_VALUE) CloseHandle(nul_out);
    if (!ok) { CloseHandle(rd); return 0; }
    CloseHandle(pi.hThread);
    /* Kernel handles fit in 32 bits on 64-bit Windows (documented, for 32/64-bit interop). */
    c->pid = (int64_t)(intptr_t)pi.hProcess;
    c->out_fd = (int)(intptr_t)rd;
    return 1;
}

int os_child_read(OsChild *c, char *buf, size_t cap)
{
    if (c->out_fd <= 0 || cap == 0) return 0;
    HANDLE rd = (HANDLE)(intptr_t)c->out_fd;
    DWORD avail = 0;
    if (!PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL) || avail == 0) return 0;   /* never blocks */
    DWORD got = 0;
    if (!ReadFile(rd, buf, (DWORD)(cap < avail ? cap : avail), &got, NULL)) return 0;
    return (int)got;
}

int os_child_poll(OsChild *c, int *exit_code, int *signal_no)
{
    if (exit_code) *exit_code = -1;
    if (signal_no) *signal_no = 0;
    if (!c->pid) return -1;
    HANDLE p = (HANDLE)(intptr_t)c->pid;
    DWORD w = WaitForSingleObject(p, 0);
    if (w == WAIT_TIMEOUT) return 0;
    DWORD code = 0;
    int ok = w == WAIT_OBJECT_0 && GetExitCodeProcess(p, &code);
    FILETIME created, ended, kernel, user;
    if (ok && GetProcessTimes(p, &created, &ended, &kernel, &user)) {   /* the process itself, not its children */
        uint64_t k = ((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime;
        uint64_t u = ((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime;
        c->cpu_ms = (double)(k + u) / 10000.0;
    }
    if (!ok) os_win32_set_error("waiting for the child");
    CloseHandle(p);
    c->pid = 0;
    if (!ok) return -1;
    if (exit_code) *exit_code = (int)code;
    return 1;
}

int os_child_fd(const OsChild *c) { (void)c; return -1; }   /* a pipe HANDLE is not a descriptor to wait on */

void os_child_kill(OsChild *c)
{
    if (c->pid) {
        HANDLE p = (HANDLE)(intptr_t)c->pid;
        TerminateProcess(p, 1);
        WaitForSingleObject(p, 5000);
        CloseHandle(p);
        c->pid = 0;
    }
    if (c->out_fd > 0) CloseHandle((HANDLE)(intptr_t)c->out_fd);
    c->out_fd = 0;
}

/* ================================================================ dynamic libraries */
/* A DLL cut short must never reach LoadLibrary: the headers and every section's raw data have to
   lie inside the file. */
int os_lib_complete(const char *path, char *err, size_t errcap)
{
    size_t len = 0;
    char *f = os_read_file(path, &len, (size_t)1 << 30);
    if (!f) { snprintf(err, errcap, "%s: %s", path, os_error_text()); return 0; }
    int ok = 0;
    const IMAGE_DOS_HEADER *dos = (const IMAGE_DOS_HEADER *)f;
    if (len < sizeof *dos || dos->e_magic != IMAGE_DOS_SIGNATURE ||
        (size_t)dos->e_lfanew + sizeof(IMAGE_NT_HEADERS64) > len) {
        snprintf(err, errcap, "%s: not a PE file, or cut short before its headers (%llu bytes)", path,
                 (unsigned long long)len);
    } else {
        const IMAGE_NT_HEADERS64 *nt = (const IMAGE_NT_HEADERS64 *)(f + dos->e_lfanew);
        size_t sec_at =
            (size_t)dos->e_lfanew + offsetof(IMAGE_NT_HEADERS64, OptionalHeader) + nt->FileHeader.SizeOfOptionalHeader;
        if (nt->Signature != IMAGE_NT_SIGNATURE || nt->OptionalHeader.Magic != IMAGE_NT_OPTIONAL_HDR64_MAGIC) {
            snprintf(err, errcap, "%s: not a 64-bit PE image", path);
        } else if (sec_at + (size_t)nt->FileHeader.NumberOfSections * sizeof(IMAGE_SECTION_HEADER) > len) {
            snprintf(err, errcap, "%s: truncated (%llu bytes; its section table reaches past the end)", path,
                     (unsigned long long)len);
        } else {
            ok = 1;
            const IMAGE_SECTION_HEADER *s = (const IMAGE_SECTION_HEADER *)(f + sec_at);
            for (int i = 0; i < nt->FileHeader.NumberOfSections && ok; i++) {
                uint64_t end = (uint64_t)s[i].PointerToRawData + s[i].SizeOfRawData;
                if (s[i].SizeOfRawData && end > len) {
                    snprintf(err, errcap, "%s: truncated (%llu bytes; section %.8s needs %llu)", path,
                             (unsigned long long)len, (const char *)s[i].Name, (unsigned long long)end);
                    ok = 0;
                }
            }
        }
    }
    free(f);
    return ok;
}

void *os_lib_open(const char *path, char *err, size_t cap)
{
    Wide w;
    if (!to_wide(path, &w)) { snprintf(err, cap, "%s: %s", path, os_error_text()); return NULL; }
    /* No "missing DLL" dialog box: a headless host reports the error instead. */
    UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    HMODULE h = LoadLibraryExW(w.s, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
    SetErrorMode(old_mode);
    if (!h) { os_win32_set_error(path); snprintf(err, cap, "%s", os_error_text()); }
    return (void *)h;
}

void *os_lib_symbol(void *lib, const char *name) { return lib ? (void *)GetProcAddress((HMODULE)lib, name) : NULL; }
void  os_lib_close(void *lib) { if (lib) FreeLibrary((HMODULE)lib); }

/* Where the file is mapped now: the loaded module whose file is this path, as one range per
   committed run of its image. After FreeLibrary there is none (and its pages are MEM_FREE). */
int os_mapped_ranges(const char *path, OsRange *out, int max)
{
    char want[1024];
    if (!os_real_path(path, want, sizeof want)) snprintf(want, sizeof want, "%s", path);
    HMODULE mods[1024];
    DWORD bytes = 0;
    if (!K32EnumProcessModules(GetCurrentProcess(), mods, sizeof mods, &bytes)) {
        os_win32_set_error("EnumProcessModules");
        return 0;
    }
    int count = 0;
    for (DWORD i = 0; i < bytes / sizeof(HMODULE) && i < 1024; i++) {
        wchar_t wname[4096];
        char name[1024];
        if (!GetModuleFileNameW(mods[i], wname, 4096) || !from_wide(wname, name, sizeof name) || _stricmp(name, want))
            continue;
        MODULEINFO mi;
        if (!K32GetModuleInformation(GetCurrentProcess(), mods[i], &mi, sizeof mi)) continue;
        uintptr_t at = (uintptr_t)mi.lpBaseOfDll, end = at + mi.SizeOfImage;
        while (at < end) {
            MEMORY_BASIC_INFORMATION mbi;
            if (!VirtualQuery((void *)at, &mbi, sizeof mbi)) break;
            uintptr_t hi = (uintptr_t)mbi.BaseAddress + mbi.RegionSize;
            if (mbi.State != MEM_FREE) {
                if (count < max) {
                    DWORD p = mbi.Protect & 0xff;
                    out[count].lo = at;
                    out[count].hi = hi < end ? hi : end;
                    out[count].file_offset = at - (uintptr_t)mi.lpBaseOfDll;
                    out[count].prot = (p == PAGE_NOACCESS ? 0 : OS_PROT_READ) |
                                      (p == PAGE_READWRITE || p == PAGE_WRITECOPY || p == PAGE_EXECUTE_READWRITE ||
                                               p == PAGE_EXECUTE_WRITECOPY
                                           ? OS_PROT_WRITE
                                           : 0) |
                                      (p == PAGE_EXECUTE || p == PAGE_EXECUTE_READ || p == PAGE_EXECUTE_READWRITE ||
                                               p == PAGE_EXECUTE_WRITECOPY
                                           ? OS_PROT_EXEC
                                           : 0);
                }
                count++;
            }
            at = hi;
        }
    }
    return count < max ? count : max;
}

/* A module's committed runs above cover its whole image (SizeOfImage includes .bss). */
int os_lib_image(const char *path, OsRange *out, int max) { return os_mapped_ranges(path, out, max); }

/* DbgHelp reads the PDB the build wrote (clang/lld -gcodeview, or MSVC /Zi); it looks where the DLL's
   debug directory says, then in the DLL's folder and the one above it (the host runs a copy from
   build\game\loaded\, the PDB stays in build\game\). Without a PDB it knows the exported names only. Each
   call loads the module and unloads it again, so a later library at the same address starts afresh.
   dbghelp.dll is loaded on the first crash, not imported: an executable without it still starts. */
static struct {
    int ready;   /* 0 not yet, 1 loaded and initialized, -1 not available */
    decltype(&SymSetOptions) set_options;
    decltype(&SymInitializeW) initialize;
    decltype(&SymSetSearchPathW) set_search_path;
    decltype(&SymLoadModuleExW) load_module;
    decltype(&SymGetModuleInfoW64) module_info;
    decltype(&SymFromAddrW) from_addr;
    decltype(&SymGetLineFromAddrW64) line_from_addr;
    decltype(&SymUnloadModule64) unload_module;
} g_dbghelp;

static int dbghelp_ready(void)
{
    if (g_dbghelp.ready) return g_dbghelp.ready > 0;
    g_dbghelp.ready = -1;
    HMODULE m = LoadLibraryW(L"dbghelp.dll");
    if (!m) { os_win32_set_error("dbghelp.dll"); return 0; }
#define DBGHELP_FN(field, name) \
    (g_dbghelp.field = (decltype(g_dbghelp.field))(void (*)(void))GetProcAddress(m, name)) != NULL
    if (!(DBGHELP_FN(set_options, "SymSetOptions") && DBGHELP_FN(initialize, "SymInitializeW") &&
          DBGHELP_FN(set_search_path, "SymSetSearchPathW") && DBGHELP_FN(load_module, "SymLoadModuleExW") &&
          DBGHELP_FN(module_info, "SymGetModuleInfoW64") && DBGHELP_FN(from_addr, "SymFromAddrW") &&
          DBGHELP_FN(line_from_addr, "SymGetLineFromAddrW64") && DBGHELP_FN(unload_module, "SymUnloadModule64"))) {
        os_set_error("dbghelp.dll lacks a Sym* function");
        return 0;
    }
#undef DBGHELP_FN
    g_dbghelp.set_options(SYMOPT_UNDNAME | SYMOPT_LOAD_LINES | SYMOPT_FAIL_CRITICAL_ERRORS | SYMOPT_NO_PROMPTS);
    if (!g_dbghelp.initialize(GetCurrentProcess(), NULL, FALSE)) { os_win32_set_error("SymInitialize"); return 0; }
    g_dbghelp.ready = 1;
    return 1;
}

void os_describe_code(const char *path, uintptr_t base, uintptr_t pc, char *fn, size_t fncap, char *where, size_t wcap)
{
    const char *slash = path;
    for (const char *p = path; *p; p++) if (*p == '/' || *p == '\\') slash = p + 1;
    snprintf(fn, fncap, "?");
    snprintf(where, wcap, "%s!+0x%llx", slash, (unsigned long long)(pc - base));
    if (!dbghelp_ready()) return;
    HANDLE proc = GetCurrentProcess();
    Wide w, dirs;
    if (!to_wide(path, &w)) return;
    size_t dl = wcslen(w.s);
    while (dl && w.s[dl - 1] != L'\\') dl--;
    if (dl && dl * 2 + 8 < sizeof dirs.s / sizeof dirs.s[0]) {   /* "<dir>;<dir>.." */
        memcpy(dirs.s, w.s, dl * sizeof(wchar_t));
        dirs.s[dl] = L';';
        memcpy(dirs.s + dl + 1, w.s, dl * sizeof(wchar_t));
        wcscpy(dirs.s + 2 * dl + 1, L"..");
        g_dbghelp.set_search_path(proc, dirs.s);
    }
    if (!g_dbghelp.load_module(proc, NULL, w.s, NULL, (DWORD64)base, 0, NULL, 0) && GetLastError() != ERROR_SUCCESS) {
        os_win32_set_error("SymLoadModuleEx");
        return;
    }
    IMAGEHLP_MODULEW64 mi;
    memset(&mi, 0, sizeof mi);
    mi.SizeOfStruct = sizeof mi;
    int exports_only =
        g_dbghelp.module_info(proc, (DWORD64)base, &mi) && (mi.SymType == SymExport || mi.SymType == SymNone);
    union { SYMBOL_INFOW info; char bytes[sizeof(SYMBOL_INFOW) + 256 * sizeof(wchar_t)]; } sym;
    memset(&sym, 0, sizeof sym);
    sym.info.SizeOfStruct = sizeof sym.info;
    sym.info.MaxNameLen = 255;
    DWORD64 disp = 0;
    char name[512];
    if (g_dbghelp.from_addr(proc, (DWORD64)pc, &disp, &sym.info) && from_wide(sym.info.Name, name, sizeof name)) {
        if (exports_only) snprintf(fn, fncap, "%s+0x%llx", name, (unsigned long long)disp);
        else snprintf(fn, fncap, "%s", name);
    }
    IMAGEHLP_LINEW64 line;
    memset(&line, 0, sizeof line);
    line.SizeOfStruct = sizeof line;
    DWORD ldisp = 0;
    char file[1024];
    if (g_dbghelp.line_from_addr(proc, (DWORD64)pc, &ldisp, &line) && line.FileName &&
        from_wide(line.FileName, file, sizeof file)) {
        const char *f = file;
        for (const char *p = file; *p; p++) if (*p == '/' || *p == '\\') f = p + 1;
        snprintf(where, wcap, "%s:%lu", f, (unsigned long)line.LineNumber);
    }
    g_dbghelp.unload_module(proc, (DWORD64)base);
}

/* ================================================================ address space */
int os_make_writable(void *p, uint64_t bytes)
{
    DWORD old;
    if (VirtualProtect(p, (SIZE_T)bytes, PAGE_READWRITE, &old)) return 1;
    os_win32_set_error("VirtualProtect");
    return 0;
}

void *os_reserve(uint64_t bytes, uintptr_t preferred)
{
    /* Committed pages are zero and only backed by memory once touched. */
    void *p = NULL;
    if (preferred) p = VirtualAlloc((void *)preferred, (SIZE_T)bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!p) p = VirtualAlloc(NULL, (SIZE_T)bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!p) os_win32_set_error("VirtualAlloc");
    return p;
}

/* ================================================================ a session that outlives the process */
/* A section backed by the paging file (CreateFileMapping on INVALID_HANDLE_VALUE), inherited by a new
   host.exe that CreateProcess starts with the same command line. The handle values travel in the
   environment: "<name>=<section>:<this process>". Windows has no exec, so the old process stays as the
   session's stand-in - the process a terminal, a debugger's parent or a test harness waits on: it waits
   for the new one and exits with its exit code, and the new one ends (as on Ctrl-C) when it sees the
   stand-in gone. The section is committed against the paging file in full (SEC_COMMIT); pages cost
   memory only once touched. */
void os_win32_stop_main_thread(void);                /* os_win32_guard.cpp */

static struct {
    HANDLE            section;
    HANDLE            self;        /* this process, for the new one to watch */
    HANDLE            parent;      /* the stand-in that started this process, NULL if none */
    wchar_t           exe[MAX_PATH];
    wchar_t          *cmdline;     /* prepared at start: nothing is allocated at fault time */
    wchar_t          *env;
    HANDLE            child;
    std::atomic<int>  standing_in;
} g_session_win;

void *os_session_create(uint64_t bytes, uintptr_t preferred, int64_t *handle)
{
    *handle = -1;
    HANDLE s = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, (DWORD)(bytes >> 32), (DWORD)bytes, NULL);
    if (!s) { os_win32_set_error("CreateFileMapping"); return NULL; }
    void *p = preferred ? MapViewOfFileEx(s, FILE_MAP_ALL_ACCESS, 0, 0, (SIZE_T)bytes, (void *)preferred) : NULL;
    if (!p) p = MapViewOfFileEx(s, FILE_MAP_ALL_ACCESS, 0, 0, (SIZE_T)bytes, NULL);
    if (!p) { os_win32_set_error("MapViewOfFileEx"); CloseHandle(s); return NULL; }
    *handle = (int64_t)(uintptr_t)s;
    return p;
}

/* The new process's thread that watches its stand-in: the stand-in gone (killed, its console closed)
   ends this process the way Ctrl-C does, and for good after 10 s. */
static DWORD WINAPI watch_stand_in(LPVOID parent)
{
    WaitForSingleObject((HANDLE)parent, INFINITE);
    if (g_terminate_fn) g_terminate_fn();
    else TerminateProcess(GetCurrentProcess(), 1);
    Sleep(10000);
    TerminateProcess(GetCurrentProcess(), 1);
    return 0;
}

int64_t os_session_inherited(const char *env_name)
{
    char v[64];
    DWORD n = GetEnvironmentVariableA(env_name, v, sizeof v);
    if (!n || n >= sizeof v) return -1;
    SetEnvironmentVariableA(env_name, NULL);   /* build children must not see it */
    char *end;
    unsigned long long section = strtoull(v, &end, 10), parent = *end == ':' ? strtoull(end + 1, NULL, 10) : 0;
    DWORD flags;
    HANDLE s = (HANDLE)(uintptr_t)section, p = (HANDLE)(uintptr_t)parent;
    if (p && GetHandleInformation(p, &flags)) {
        SetHandleInformation(p, HANDLE_FLAG_INHERIT, 0);
        g_session_win.parent = p;
        HANDLE t = CreateThread(NULL, 64 * 1024, watch_stand_in, p, 0, NULL);
        if (t) CloseHandle(t);
    }
    if (!s || !GetHandleInformation(s, &flags)) return -1;
    SetHandleInformation(s, HANDLE_FLAG_INHERIT, 0);   /* build children must not hold the session */
    return (int64_t)section;
}

int os_session_read(int64_t handle, void *out, size_t n)
{
    void *p = MapViewOfFile((HANDLE)(uintptr_t)handle, FILE_MAP_READ, 0, 0, n);
    if (!p) { os_win32_set_error("MapViewOfFile"); return 0; }
    memcpy(out, p, n);
    UnmapViewOfFile(p);
    return 1;
}

void *os_session_attach(int64_t handle, uint64_t bytes, uintptr_t required)
{
    void *p = MapViewOfFileEx((HANDLE)(uintptr_t)handle, FILE_MAP_ALL_ACCESS, 0, 0, (SIZE_T)bytes, (void *)required);
    if (!p) {
        char what[96];
        snprintf(what, sizeof what, "address 0x%llx is not free (MapViewOfFileEx)", (unsigned long long)required);
        os_win32_set_error(what);
        return NULL;
    }
    if ((uintptr_t)p != required) {
        UnmapViewOfFile(p);
        os_set_error("the section was mapped at another address");
        return NULL;
    }
    return p;
}

void os_session_close(int64_t handle, void *base, uint64_t bytes)
{
    (void)bytes;
    if (base) UnmapViewOfFile(base);
    if (handle >= 0) CloseHandle((HANDLE)(uintptr_t)handle);
}

int os_session_exec_prepare(int64_t handle, const char *env_name, int argc, char **argv)
{
    (void)argc; (void)argv;   /* the command line as this process got it, unparsed */
    if (!GetModuleFileNameW(NULL, g_session_win.exe, MAX_PATH)) { os_win32_set_error("GetModuleFileName"); return 0; }
    if (!g_session_win.self && !DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(),
                                                &g_session_win.self, SYNCHRONIZE, FALSE, 0)) {
        os_win32_set_error("DuplicateHandle");
        return 0;
    }
    const wchar_t *cmd = GetCommandLineW();
    free(g_session_win.cmdline);
    g_session_win.cmdline = _wcsdup(cmd);
    char entry8[160];
    snprintf(entry8, sizeof entry8, "%s=%llu:%llu", env_name, (unsigned long long)handle,
             (unsigned long long)(uintptr_t)g_session_win.self);
    wchar_t entry[160], name[64];
    if (!MultiByteToWideChar(CP_UTF8, 0, env_name, -1, name, 64) ||
        !MultiByteToWideChar(CP_UTF8, 0, entry8, -1, entry, 160)) {
        os_set_error("the session's variable name is too long");
        return 0;
    }
    wchar_t *block = GetEnvironmentStringsW();
    size_t total = 0, nlen = wcslen(name);
    for (const wchar_t *e = block; *e; e += wcslen(e) + 1) total += wcslen(e) + 1;
    free(g_session_win.env);
    g_session_win.env = (wchar_t *)malloc((total + wcslen(entry) + 2) * sizeof(wchar_t));
    if (!g_session_win.cmdline || !g_session_win.env) {
        FreeEnvironmentStringsW(block);
        os_set_error("out of memory");
        return 0;
    }
    wchar_t *out = g_session_win.env;
    for (const wchar_t *e = block; *e; e += wcslen(e) + 1) {
        if (!_wcsnicmp(e, name, nlen) && e[nlen] == L'=') continue;
        size_t l = wcslen(e) + 1;
        memcpy(out, e, l * sizeof(wchar_t));
        out += l;
    }
    FreeEnvironmentStringsW(block);
    size_t l = wcslen(entry) + 1;
    memcpy(out, entry, l * sizeof(wchar_t));
    out[l] = 0;
    g_session_win.section = (HANDLE)(uintptr_t)handle;
    return 1;
}

static BOOL CALLBACK hide_own_window(HWND w, LPARAM self)
{
    DWORD pid = 0, tid = GetWindowThreadProcessId(w, &pid);
    if (pid == (DWORD)self) {
        if (tid == GetCurrentThreadId()) ShowWindow(w, SW_HIDE);
        else ShowWindowAsync(w, SW_HIDE);
    }
    return TRUE;
}

/* The stand-in: Ctrl-C reaches the new process too; its exit code becomes this one's. */
static int stand_in_ctrl(void)
{
    if (!g_session_win.standing_in.load()) return 0;
    DWORD code = 130;
    if (WaitForSingleObject(g_session_win.child, 10000) == WAIT_OBJECT_0)
        GetExitCodeProcess(g_session_win.child, &code);
    TerminateProcess(GetCurrentProcess(), code);
    return 1;
}

void os_session_exec(void)
{
    if (!g_session_win.section || !g_session_win.cmdline) return;
    os_win32_stop_main_thread();   /* from another thread: the frame loop must not write the session any more */
    HANDLE std3[3] = {GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE), GetStdHandle(STD_ERROR_HANDLE)};
    for (HANDLE h : std3)
        if (h && h != INVALID_HANDLE_VALUE) SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    SetHandleInformation(g_session_win.section, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    SetHandleInformation(g_session_win.self, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    STARTUPINFOW si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = std3[0];
    si.hStdOutput = std3[1];
    si.hStdError = std3[2];
    PROCESS_INFORMATION pi;
    memset(&pi, 0, sizeof pi);
    BOOL ok = CreateProcessW(g_session_win.exe, g_session_win.cmdline, NULL, NULL, TRUE, CREATE_UNICODE_ENVIRONMENT,
                             g_session_win.env, NULL, &si, &pi);
    SetHandleInformation(g_session_win.section, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(g_session_win.self, HANDLE_FLAG_INHERIT, 0);
    if (!ok) { os_win32_set_error("CreateProcess"); return; }
    CloseHandle(pi.hThread);
    g_session_win.child = pi.hProcess;
    g_session_win.standing_in.store(1);
    EnumWindows(hide_own_window, (LPARAM)GetCurrentProcessId());
    HANDLE waits[2] = {pi.hProcess, g_session_win.parent};
    DWORD r = WaitForMultipleObjects(g_session_win.parent ? 2 : 1, waits, FALSE, INFINITE);
    DWORD code = 1;
    if (r == WAIT_OBJECT_0) GetExitCodeProcess(pi.hProcess, &code);
    TerminateProcess(GetCurrentProcess(), code);
}

/* Only handles made inheritable pass to a new process: nothing to close. */
void os_close_inherited(int64_t keep) { (void)keep; }
void os_signals_reset(void) {}

void os_write_stderr(const char *s)
{
    DWORD n;
    WriteFile(GetStdHandle(STD_ERROR_HANDLE), s, (DWORD)strlen(s), &n, NULL);
}

/* ================================================================ threads */
struct ThreadStart { void *(*fn)(void *); void *arg; };
static DWORD WINAPI thread_trampoline(LPVOID p)
{
    ThreadStart s = *(ThreadStart *)p;
    free(p);
    s.fn(s.arg);
    return 0;
}

int os_thread_start(OsThread *t, void *(*fn)(void *), void *arg)
{
    t->started = 0;
    ThreadStart *s = (ThreadStart *)malloc(sizeof *s);
    if (!s) { os_set_error("out of memory"); return 0; }
    s->fn = fn;
    s->arg = arg;
    HANDLE h = CreateThread(NULL, 0, thread_trampoline, s, 0, NULL);
    if (!h) { free(s); os_win32_set_error("CreateThread"); return 0; }
    t->handle = (uint64_t)(uintptr_t)h;
    t->started = 1;
    return 1;
}

void os_thread_join(OsThread *t)
{
    if (!t->started) return;
    HANDLE h = (HANDLE)(uintptr_t)t->handle;
    WaitForSingleObject(h, INFINITE);
    CloseHandle(h);
    t->started = 0;
}

#endif /* _WIN32 */
