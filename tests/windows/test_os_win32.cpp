/* test_os_win32.cpp - platform/os/os_win32.cpp, each part of os.h on the real Win32 API (run under wine
   by ./build.sh test-windows).

   usage: test_os_win32.exe <scratch folder> <testlib v1.dll> <testlib v2.dll>
          test_os_win32.exe --child <ms> <exit code>   (a child process for the child tests)
          test_os_win32.exe --fatal                    (a fault outside any guarded call)
   Ends with "N passed, N failed". */
#include "os/os.h"

#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_pass, g_fail;
static void check(int ok, const char *what)
{
    if (ok) g_pass++; else g_fail++;
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    fflush(stdout);
}

static char g_self[1024], g_dir[1024];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (f) { fputs(text, f); fclose(f); }
}

/* ---------------------------------------------------------------- time, files */
static void time_and_files(void)
{
    double t0 = os_mono_seconds();
    os_sleep_ms(30);
    double dt = os_mono_seconds() - t0;
    check(dt > 0.02 && dt < 2.0, "monotonic clock measures a 30 ms sleep");
    check(os_wall_seconds() > 1.6e9, "wall clock is seconds since 1970");
    char stamp[32];
    os_format_local_time(os_wall_seconds(), stamp, sizeof stamp);
    check(strlen(stamp) == 19 && stamp[4] == '-' && stamp[13] == ':', "local time formatted YYYY-MM-DD HH:MM:SS");

    char a[1100], b[1100];
    snprintf(a, sizeof a, "%s/files/a.txt", g_dir);
    snprintf(b, sizeof b, "%s/files/b.txt", g_dir);
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/files", g_dir);
    check(os_make_dir(sub) && os_make_dir(sub), "make_dir, also when it exists");
    write_text(a, "hello windows");
    size_t len = 0;
    char *text = os_read_file(a, &len, 1 << 20);
    check(text && len == 13 && !strcmp(text, "hello windows"), "read_file returns the bytes, NUL-terminated");
    free(text);
    check(os_read_file(a, &len, 4) == NULL && strstr(os_error_text(), "too large"), "read_file refuses a file over max_bytes");
    char missing[1100];
    snprintf(missing, sizeof missing, "%s/files/missing.txt", g_dir);
    check(os_read_file(missing, &len, 100) == NULL && strstr(os_error_text(), "missing.txt"), "a missing file: NULL and a reason naming it");
    check(os_copy_file(a, b) && os_is_file(b), "copy_file");
    OsFileStamp s1, s2, s3;
    check(os_file_stamp(a, &s1) && os_file_stamp(a, &s2) && os_same_stamp(&s1, &s2), "the same file has the same stamp");
    write_text(a, "hello windows, again");
    check(os_file_stamp(a, &s3) && !os_same_stamp(&s1, &s3) && s3.size == 20, "a rewritten file has a new stamp");
    check(os_file_stamp(b, &s2) && s2.ino != s3.ino, "two files have different file ids");
    char real[1100];
    check(os_real_path(a, real, sizeof real) && real[1] == ':' && strstr(real, "/files/a.txt") && !strchr(real, '\\'),
          "real_path is absolute and '/'-separated");
    check(!os_real_path(missing, real, sizeof real), "real_path of a missing file fails");
    struct Seen { int a, b, dir; } seen = {0, 0, 0};
    char subsub[1200];
    snprintf(subsub, sizeof subsub, "%s/inner", sub);
    os_make_dir(subsub);
    os_list_dir(sub, [](void *ctx, const char *name, int is_dir) {
        Seen *s = (Seen *)ctx;
        if (!strcmp(name, "a.txt") && !is_dir) s->a++;
        if (!strcmp(name, "b.txt") && !is_dir) s->b++;
        if (!strcmp(name, "inner") && is_dir) s->dir++;
    }, &seen);
    check(seen.a == 1 && seen.b == 1 && seen.dir == 1, "list_dir names files and folders");
    check(os_remove_file(b) && !os_is_file(b), "remove_file");
    check(!os_remove_file(b), "remove_file of a missing file fails");
}

/* ---------------------------------------------------------------- directory watching */
struct WatchSeen { int id; char names[32][64]; unsigned flags[32]; int n; };
static void on_watch(void *ctx, int id, const char *name, unsigned flags)
{
    WatchSeen *s = (WatchSeen *)ctx;
    if (s->n < 32) { snprintf(s->names[s->n], 64, "%s", name); s->flags[s->n] = flags; s->n++; }
    s->id = id;
}
static int watch_until(WatchSeen *s, const char *name, unsigned flag)
{
    for (int tries = 0; tries < 200; tries++) {
        os_watch_read(on_watch, s);
        for (int i = 0; i < s->n; i++)
            if (!strcmp(s->names[i], name) && (s->flags[i] & flag) == flag) return 1;
        os_sleep_ms(10);
    }
    return 0;
}

static void watching(void)
{
    char dir[1100], path[1200], tmp[1200];
    snprintf(dir, sizeof dir, "%s/watched", g_dir);
    os_make_dir(dir);
    check(os_watch_open(), "watch_open");
    int id = os_watch_add(dir);
    check(id >= 0, "watch_add on a folder");
    check(os_watch_add(dir) == id, "the same folder twice: the same id");
    char nowhere[1200];
    snprintf(nowhere, sizeof nowhere, "%s/no/such/folder", g_dir);
    check(os_watch_add(nowhere) == -1, "watch_add on a missing folder fails");
    WatchSeen seen;
    memset(&seen, 0, sizeof seen);
    os_watch_read(on_watch, &seen);
    check(seen.n == 0, "nothing to read before anything changed (and read does not block)");
    snprintf(path, sizeof path, "%s/new.cpp", dir);
    write_text(path, "int x;");
    check(watch_until(&seen, "new.cpp", OS_WATCH_CREATED) && seen.id == id, "a new file is reported as created, with its watch id");
    memset(&seen, 0, sizeof seen);
    write_text(path, "int x = 2;");
    check(watch_until(&seen, "new.cpp", 0), "a saved file is reported");
    memset(&seen, 0, sizeof seen);
    snprintf(tmp, sizeof tmp, "%s/save.tmp", dir);
    snprintf(path, sizeof path, "%s/renamed.cpp", dir);
    write_text(tmp, "int y;");
    check(MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING) != 0, "rename a temporary file into place");
    check(watch_until(&seen, "renamed.cpp", OS_WATCH_MOVED_IN), "a file renamed into the folder is reported as moved in");
    memset(&seen, 0, sizeof seen);
    snprintf(path, sizeof path, "%s/subfolder", dir);
    os_make_dir(path);
    check(watch_until(&seen, "subfolder", OS_WATCH_CREATED | OS_WATCH_IS_DIR), "a new folder is reported as a created folder");
    os_watch_close();
}

/* ---------------------------------------------------------------- child processes */
static void children(void)
{
    char out[4096];
    const char *echo[] = {g_self, "--child", "0", "0", NULL};
    int code = os_run(echo, out, sizeof out, 20.0);
    check(code == 0 && strstr(out, "child says hello") && strstr(out, "child done"), "os_run: exit code 0 and the output");
    const char *three[] = {g_self, "--child", "0", "3", NULL};
    check(os_run(three, out, sizeof out, 20.0) == 3, "os_run: the child's exit code");
    const char *spaced[] = {"cmd", "/c", "echo", "two words \"quoted\"", NULL};
    check(os_run(spaced, out, sizeof out, 20.0) == 0 && strstr(out, "two words"), "an argument with spaces and quotes reaches the child");
    const char *slow[] = {g_self, "--child", "5000", "0", NULL};
    double t0 = os_mono_seconds();
    check(os_run(slow, out, sizeof out, 0.5) == -1 && strstr(os_error_text(), "timed out") && os_mono_seconds() - t0 < 4.0,
          "os_run: a child past its timeout is killed");
    const char *nothing[] = {"no_such_program_here.exe", NULL};
    OsChild c;
    check(!os_child_start(&c, nothing, OS_CHILD_STDOUT) && strstr(os_error_text(), "no_such_program_here"),
          "starting a missing program fails with a reason naming it");

    /* Non-blocking: a child that takes 600 ms; poll and read return at once meanwhile. */
    const char *mid[] = {g_self, "--child", "600", "7", NULL};
    check(os_child_start(&c, mid, OS_CHILD_STDOUT | OS_CHILD_STDERR), "child_start");
    int polls = 0, ec = -1, sig = -1, r = 0;
    double worst = 0;
    size_t got = 0;
    char buf[4096];
    double until = os_mono_seconds() + 20;
    while (os_mono_seconds() < until) {
        double a = os_mono_seconds();
        int n = os_child_read(&c, buf + got, sizeof buf - 1 - got);
        r = os_child_poll(&c, &ec, &sig);
        double spent = os_mono_seconds() - a;
        if (spent > worst) worst = spent;
        if (n > 0) got += (size_t)n;
        polls++;
        if (r != 0) break;
        os_sleep_ms(5);
    }
    for (int n; (n = os_child_read(&c, buf + got, sizeof buf - 1 - got)) > 0;) got += (size_t)n;
    buf[got] = 0;
    os_child_kill(&c);
    printf("child: %d polls, slowest poll+read %.1f ms\n", polls, worst * 1000);
    check(r == 1 && ec == 7 && sig == 0, "child_poll reports the end and exit code 7");
    check(polls > 10 && worst < 0.05, "poll and read never waited for the child");
    check(strstr(buf, "child says hello") && strstr(buf, "child stderr line") && strstr(buf, "child done"),
          "stdout and stderr captured");
}

/* ---------------------------------------------------------------- dynamic libraries, memory */
typedef int testlib_value_fn(void);
typedef int testlib_fault_fn(int kind, void *wait_on);
static void *g_faultlib;
static testlib_fault_fn *g_fault;
static char g_faultlib_path[1200];

static int load_copy(const char *src, int version, void **lib_out, char *copy, size_t cap)
{
    snprintf(copy, cap, "%s/testlib_%d.dll", g_dir, version);
    char err[512];
    *lib_out = NULL;
    if (!os_copy_file(src, copy) || !os_lib_complete(copy, err, sizeof err)) return -1;
    *lib_out = os_lib_open(copy, err, sizeof err);
    testlib_value_fn *value = *lib_out ? (testlib_value_fn *)os_lib_symbol(*lib_out, "testlib_value") : NULL;
    return value ? value() : -1;
}

static void libraries(const char *v1, const char *v2)
{
    char copy1[1200], copy2[1200], err[512];
    void *lib1, *lib2;
    check(load_copy(v1, 1, &lib1, copy1, sizeof copy1) == 1, "load a versioned copy of build 1");
    OsRange ranges[16];
    int n = os_mapped_ranges(copy1, ranges, 16);
    check(n > 0 && ranges[0].lo < ranges[0].hi, "mapped_ranges finds the loaded image");
    check(load_copy(v2, 2, &lib2, copy2, sizeof copy2) == 2, "load a versioned copy of build 2 beside it");
    uintptr_t code = (uintptr_t)os_lib_symbol(lib1, "testlib_value");
    os_lib_close(lib1);
    check(os_mapped_ranges(copy1, ranges, 16) == 0, "after close, build 1 is mapped nowhere");
    MEMORY_BASIC_INFORMATION mbi;
    check(VirtualQuery((void *)code, &mbi, sizeof mbi) && mbi.State == MEM_FREE, "its code pages are MEM_FREE");
    check(os_remove_file(copy1), "and its file can be deleted");
    check(os_mapped_ranges(copy2, ranges, 16) > 0, "build 2 is still loaded");
    g_faultlib = lib2;
    snprintf(g_faultlib_path, sizeof g_faultlib_path, "%s", copy2);
    g_fault = (testlib_fault_fn *)os_lib_symbol(lib2, "testlib_fault");
    check(g_fault != NULL && os_lib_symbol(lib2, "no_such_symbol") == NULL, "lib_symbol finds exports, NULL for others");

    /* A DLL cut short, and not a DLL at all: refused before LoadLibrary. */
    size_t len = 0;
    char *bytes = os_read_file(v1, &len, 1 << 26);
    char cut[1200];
    snprintf(cut, sizeof cut, "%s/cut.dll", g_dir);
    FILE *f = fopen(cut, "wb");
    if (f && bytes) { fwrite(bytes, 1, len * 2 / 3, f); fclose(f); }
    free(bytes);
    check(!os_lib_complete(cut, err, sizeof err) && strstr(err, "truncated"), "a DLL cut short is refused as truncated");
    printf("  (%s)\n", err);
    snprintf(cut, sizeof cut, "%s/text.dll", g_dir);
    write_text(cut, "this is not a library at all, just some text that is long enough");
    check(!os_lib_complete(cut, err, sizeof err) && strstr(err, "not a PE"), "a text file is refused as not a PE file");
    check(os_lib_open(cut, err, sizeof err) == NULL && err[0], "lib_open on it fails with a reason");

    uint64_t size = 64ull << 20;
    uint8_t *block = (uint8_t *)os_reserve(size, (uintptr_t)0x300000000000ull);
    check(block == (uint8_t *)(uintptr_t)0x300000000000ull, "reserve at the preferred fixed address");
    if (block) {
        check(block[0] == 0 && block[size - 1] == 0, "reserved pages read as zero");
        block[12345] = 7;
        check(block[12345] == 7, "and are writable");
    }
    uint8_t *again = (uint8_t *)os_reserve(4096, (uintptr_t)0x300000000000ull);
    check(again && again != (uint8_t *)(uintptr_t)0x300000000000ull, "a taken address falls back to anywhere");
}

/* ---------------------------------------------------------------- the session (hot restart) */
static void session(void)
{
    const uintptr_t AT = 0x310000000000ull, ELSEWHERE = 0x320000000000ull;
    int64_t h = -1;
    uint8_t *p = (uint8_t *)os_session_create(1 << 20, AT, &h);
    check(p == (uint8_t *)AT && h >= 0, "session: a paging-file section mapped at the preferred address");
    if (!p) return;
    memcpy(p, "session!", 8);
    p[(1 << 20) - 1] = 9;
    char head[8] = "";
    check(os_session_read(h, head, 8) && !memcmp(head, "session!", 8), "session: its first bytes read without mapping it");
    check(os_session_attach(h, 1 << 20, AT) == NULL && strstr(os_error_text(), "not free"),
          "session: a taken address is refused with the reason (no mapping elsewhere)");
    uint8_t *q = (uint8_t *)os_session_attach(h, 1 << 20, ELSEWHERE);
    check(q == (uint8_t *)ELSEWHERE && q[(1 << 20) - 1] == 9, "session: attached at a required address, the same memory");
    if (q) { q[100] = 5; check(p[100] == 5, "session: a write through one view shows in the other"); }
    os_session_close(-1, q, 1 << 20);
    os_session_close(h, p, 1 << 20);
    SetEnvironmentVariableA("TEST_SESSION_VAR", NULL);
    check(os_session_inherited("TEST_SESSION_VAR") == -1, "session: none inherited without the variable");
    SetEnvironmentVariableA("TEST_SESSION_VAR", "12345678:0");
    check(os_session_inherited("TEST_SESSION_VAR") == -1 && !GetEnvironmentVariableA("TEST_SESSION_VAR", head, sizeof head),
          "session: a handle that is not open is refused, and the variable cleared");
}

/* ---------------------------------------------------------------- faults, watchdog */
struct FaultCall { int kind; void *wait_on; int result; };
static void call_fault(void *p) { FaultCall *c = (FaultCall *)p; c->result = g_fault(c->kind, c->wait_on); }

struct Watchdog { uint64_t seq; int delay_ms; int result; char error[512]; HANDLE release; };
static void *watchdog_thread(void *p)
{
    Watchdog *w = (Watchdog *)p;
    os_sleep_ms(w->delay_ms);
    w->result = os_interrupt_guarded_call(w->seq);
    snprintf(w->error, sizeof w->error, "%s", os_error_text());
    if (w->release) SetEvent(w->release);
    return NULL;
}

/* A host service called from game code: the watchdog's interrupt waits until it returns. */
static volatile int g_service_done, g_after_service;
static void call_service(void *)
{
    os_guard_service_enter();
    double until = os_mono_seconds() + 0.6;
    while (os_mono_seconds() < until) {}
    g_service_done = 1;
    os_guard_service_leave();
    g_after_service = 1;   /* never reached: the deferred interrupt jumps at leave */
}

/* The faulting frame named by DbgHelp. The test DLL is built like game.dll: a PDB (-gcodeview) for
   Microsoft's DbgHelp and DWARF sections (-gdwarf-4) for wine's, which does not read lld's PDB lines. */
static void describe_fault(const OsFault *fault)
{
    OsRange ranges[16];
    int n = os_mapped_ranges(g_faultlib_path, ranges, 16);
    uintptr_t base = 0;
    for (int i = 0; i < n; i++) if (ranges[i].file_offset == 0) base = ranges[i].lo;
    uintptr_t pc = fault->bt_count > 0 ? (uintptr_t)fault->bt[0] : 0;
    check(base && pc > base, "the faulting frame lies inside the test DLL");
    char fn[256], where[300];
    os_describe_code(g_faultlib_path, base, pc, fn, sizeof fn, where, sizeof where);
    printf("  (described: %s (%s))\n", fn, where);
    check(strstr(fn, "testlib_fault") != NULL, "describe_code names the faulting function");
    typedef int line_fn(void);
    line_fn *store_line = (line_fn *)os_lib_symbol(g_faultlib, "testlib_null_store_line");
    char want[64];
    snprintf(want, sizeof want, "win_testlib.cpp:%d", store_line ? store_line() : -1);
    check(!strcmp(where, want), "describe_code gives the file:line of the null store");
    /* a module DbgHelp cannot open: the place is still module + offset */
    char fn2[256], where2[300];
    os_describe_code("Z:/no/such/dir/testlib_2.dll", base, pc, fn2, sizeof fn2, where2, sizeof where2);
    printf("  (no symbols: %s (%s))\n", fn2, where2);
    check(!strcmp(fn2, "?") && !strncmp(where2, "testlib_2.dll!+0x", 17) && strtoull(where2 + 15, NULL, 16) == pc - base,
          "without symbols: module!+offset");
}

static void faults(void)
{
    if (!g_fault) { check(0, "fault tests need the test DLL"); return; }
    os_fault_init();
    uint64_t seq = 100;
    OsFault fault;
    FaultCall call = {0, NULL, -1};
    check(os_guarded_call(call_fault, &call, ++seq, &fault) == 0 && call.result == 0, "a guarded call that returns normally");
    struct { int kind; int expect; const char *what; } cases[] = {
        {1, OS_FAULT_SEGV, "access violation"}, {2, OS_FAULT_FPE, "divide by zero"}, {3, OS_FAULT_ILL, "illegal instruction"},
        {4, OS_FAULT_ABORT, "abort()"}, {5, OS_FAULT_SEGV, "stack overflow"}, {5, OS_FAULT_SEGV, "a second stack overflow"},
        {1, OS_FAULT_SEGV, "access violation after the overflows"},
    };
    uint64_t jumps0 = os_guard_jumps();
    int faulted = 0;
    for (auto &k : cases) {
        call.kind = k.kind;
        call.result = -1;
        int r = os_guarded_call(call_fault, &call, ++seq, &fault);
        char what[160];
        snprintf(what, sizeof what, "%s in the DLL returns to the caller as '%s'", k.what, os_fault_name(k.expect));
        check(r == 1 && fault.kind == k.expect && call.result == -1, what);
        faulted += r == 1;
        if (r == 1) printf("  (%s at %p, %d frames)\n", os_fault_name(fault.kind), fault.addr, fault.bt_count);
        if (r == 1 && k.kind == 1 && faulted == 1) describe_fault(&fault);
        call.kind = 0;
        check(os_guarded_call(call_fault, &call, ++seq, &fault) == 0 && call.result == 0, "  the next guarded call runs normally");
    }
    check(os_guard_jumps() - jumps0 == (uint64_t)faulted, "guard_jumps counts the faults");

    /* The watchdog interrupts an endless loop. */
    Watchdog dog;
    memset(&dog, 0, sizeof dog);
    dog.seq = ++seq;
    dog.delay_ms = 300;
    OsThread th;
    call.kind = 6;
    check(os_thread_start(&th, watchdog_thread, &dog), "thread_start (the watchdog)");
    double t0 = os_mono_seconds();
    int r = os_guarded_call(call_fault, &call, dog.seq, &fault);
    double took = os_mono_seconds() - t0;
    os_thread_join(&th);
    check(r == 1 && fault.kind == OS_FAULT_HANG && dog.result == 1 && took < 10, "an endless loop is interrupted by the watchdog");
    call.kind = 0;
    check(os_guarded_call(call_fault, &call, ++seq, &fault) == 0, "  the next guarded call runs normally");
    check(os_interrupt_guarded_call(dog.seq) == 0, "an interrupt for a call that already returned is ignored");

    /* An interrupt inside a host service is deferred to the service's end. */
    memset(&dog, 0, sizeof dog);
    dog.seq = ++seq;
    dog.delay_ms = 200;
    os_thread_start(&th, watchdog_thread, &dog);
    r = os_guarded_call(call_service, NULL, dog.seq, &fault);
    os_thread_join(&th);
    check(r == 1 && fault.kind == OS_FAULT_HANG && dog.result == 1 && g_service_done && !g_after_service,
          "an interrupt inside a host service waits for it to return, then jumps");
    call.kind = 0;
    check(os_guarded_call(call_fault, &call, ++seq, &fault) == 0, "  the next guarded call runs normally");

    /* Blocked in a kernel wait: cannot be interrupted; said so, and the call finishes once released. */
    memset(&dog, 0, sizeof dog);
    dog.seq = ++seq;
    dog.delay_ms = 200;
    dog.release = CreateEventW(NULL, TRUE, FALSE, NULL);
    call.kind = 7;
    call.wait_on = dog.release;
    os_thread_start(&th, watchdog_thread, &dog);
    r = os_guarded_call(call_fault, &call, dog.seq, &fault);
    os_thread_join(&th);
    printf("  (%s)\n", dog.error);
    check(r == 0 && call.result == 7 && dog.result == 0 && strstr(dog.error, "cannot be interrupted"),
          "a call blocked in a kernel wait is reported as not interruptible, and completes when released");
    CloseHandle(dog.release);
}

static void fatal_outside_guard(void)
{
    char out[8192];
    size_t len = 0;
    const char *argv[] = {g_self, "--fatal", NULL};
    OsChild c;
    int code = -1, sig = 0;
    if (os_child_start(&c, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR)) {
        double until = os_mono_seconds() + 30;
        for (int ended = 0; os_mono_seconds() < until;) {
            int n = os_child_read(&c, out + len, sizeof out - 1 - len);
            if (n > 0) { len += (size_t)n; continue; }
            if (ended) break;
            ended = os_child_poll(&c, &code, &sig) != 0;
            if (!ended) os_sleep_ms(5);
        }
        os_child_kill(&c);
    }
    out[len] = 0;
    check(code == 70 && strstr(out, "fatal exception") && strstr(out, "backtrace"),
          "a fault outside a guarded call ends the process with code 70 and a backtrace");
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "--child")) {
        printf("child says hello\n");
        fflush(stdout);
        fprintf(stderr, "child stderr line\n");
        fflush(stderr);
        Sleep((DWORD)atoi(argv[2]));
        printf("child done\n");
        return atoi(argv[3]);
    }
    if (argc >= 2 && !strcmp(argv[1], "--fatal")) {
        os_fault_init();
        fprintf(stderr, "about to fault\n");
        *(volatile int *)(uintptr_t)16 = 1;
        return 0;
    }
    if (argc < 4) { printf("usage: %s <scratch> <v1.dll> <v2.dll>\n0 passed, 1 failed\n", argv[0]); return 2; }
    GetModuleFileNameA(NULL, g_self, sizeof g_self);
    snprintf(g_dir, sizeof g_dir, "%s", argv[1]);
    os_make_dir(g_dir);
    time_and_files();
    watching();
    children();
    libraries(argv[2], argv[3]);
    session();
    faults();
    fatal_outside_guard();
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
