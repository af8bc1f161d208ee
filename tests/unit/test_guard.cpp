/* Tests for platform/session/guard.cpp and the fault/watchdog part of platform/os/os_linux.cpp, compiled into this
   program with the host's real log.cpp: interrupts carry the guarded call's number (a late or stray one
   is ignored), the watchdog never interrupts a call before its limit even under a flood of stale
   interrupts, a thousand interrupts of code that logs through pf->log leave no lock behind, and a fault
   on a thread other than the main one ends the process cleanly with a report instead of a jump. Time the
   whole process is held (SIGSTOP, a debugger) does not count towards the limit; a call blocked in a system
   call does. */
/* the host is built with -Wno-format-truncation: its paths are truncated on purpose, never overflowed */
#ifndef __clang__   /* a g++ warning (clang, as clangd parses this file, has no such group) */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"
#include "session/guard.cpp"
#include "core/log.cpp"
#include "core/parse.cpp"
#include "services/profile.cpp"
#include "services/notice.cpp"
void render_safe_area(float *x, float *y, float *w, float *h) { *x = *y = 0; *w = 1280; *h = 720; }   /* render.cpp is not part of this program */

#include <atomic>
#include <poll.h>
#include <string>
#include <sys/wait.h>

Options     g_options;
FrameLoop   g_loop;
PlatformAPI g_pf;
const Options *options(void) { return &g_options; }   /* core.cpp's and services.cpp's accessors, over these */
Options     *options_edit(void) { return &g_options; }
FrameLoop   *frame_loop(void) { return &g_loop; }
PlatformAPI *services_api(void) { return &g_pf; }

/* restart.cpp is not part of this program: no session, no hot restart (the old behaviour, exit 70) */
void   restart_check_stall(int running_guarded) { (void)running_guarded; }

static const double LIMIT_S = 0.005;
static std::atomic<uint64_t> g_progress;      /* bumped by every guarded call: the deadlock detector reads it */
static const char *g_self;

static void spin_until(double t) { while (os_mono_seconds() < t) {} }

/* ---------------------------------------------------------------- the interrupt names its call */
static void send_usr2(uint64_t value)
{
    union sigval v;
    v.sival_ptr = (void *)(uintptr_t)value;
    pthread_sigqueue(pthread_self(), SIGUSR2, v);
}

static void late_interrupt_body(void *arg)
{
    (void)arg;
    send_usr2(999);                                     /* meant for a call that already returned */
    TH_CHECK_EQ_INT(os_interrupt_guarded_call(999), 0); /* the watchdog's own check refuses it too */
    spin_until(os_mono_seconds() + 0.005);
}

static void matching_interrupt_body(void *arg)
{
    (void)arg;
    send_usr2(1000);
    spin_until(os_mono_seconds() + 1.0);                /* never reached: the interrupt is for this call */
}

static void test_interrupt_carries_the_call_number(void)
{
    OsFault f;
    TH_CHECK_EQ_INT(os_guarded_call(late_interrupt_body, NULL, 1000, &f), 0);
    TH_CHECK_EQ_INT(f.kind, OS_FAULT_NONE);
    double t = os_mono_seconds();
    TH_CHECK_EQ_INT(os_guarded_call(matching_interrupt_body, NULL, 1000, &f), 1);
    TH_CHECK_EQ_INT(f.kind, OS_FAULT_HANG);
    TH_CHECK(os_mono_seconds() - t < 0.5);
    /* outside any guarded call a stray interrupt (with or without a number) is ignored */
    send_usr2(1000);
    kill(getpid(), SIGUSR2);
    TH_CHECK(1);
}

/* ---------------------------------------------------------------- never before the limit */
static std::atomic<int> g_flooding;

/* Sends interrupts naming the call before the running one, as fast as it can: all of them are late. */
static void *flood_stale(void *arg)
{
    pthread_t main_thread = *(pthread_t *)arg;
    while (g_flooding.load()) {
        uint64_t seq = g_watchdog.seq.load();
        if (seq > 1) {
            union sigval v;
            v.sival_ptr = (void *)(uintptr_t)(seq - 1);
            pthread_sigqueue(main_thread, SIGUSR2, v);
        }
        struct timespec ts = { 0, 50000 };
        nanosleep(&ts, NULL);
    }
    return NULL;
}

struct Spin { double seconds; double elapsed; };

static void test_no_interrupt_before_the_limit(void)
{
    pthread_t self = pthread_self();
    pthread_t flooder;
    g_flooding = 1;
    pthread_create(&flooder, NULL, flood_stale, &self);
    uint32_t rng = 12345;
    int early = 0, hung = 0, calls = 1500;
    for (int i = 0; i < calls; i++) {
        rng = rng * 1664525u + 1013904223u;
        double d = LIMIT_S * (0.5 + (rng >> 8) / 16777216.0);   /* 0.5 .. 1.5 x the limit */
        double t0 = os_mono_seconds();
        int r = guarded(GUARD_UPDATE, [d, t0] { spin_until(t0 + d); });
        double elapsed = os_mono_seconds() - t0;
        g_progress++;
        if (r) {
            hung++;
            if (elapsed < LIMIT_S) early++;
        }
    }
    g_flooding = 0;
    pthread_join(flooder, NULL);
    printf("  %d calls around the %.0f ms limit: %d interrupted, %d before the limit\n", calls, LIMIT_S * 1000, hung, early);
    TH_CHECK_EQ_INT(early, 0);
    TH_CHECK(hung > 0);           /* the long ones were interrupted: the watchdog is on */
    TH_CHECK(hung < calls);
}

/* ---------------------------------------------------------------- a thousand jumps out of logging code */
static void test_thousand_interrupts_while_logging(void)
{
    const int JUMPS = 1000;
    int jumped = 0;
    uint64_t before = os_guard_jumps();
    for (int i = 0; i < JUMPS; i++) {
        jumped += guarded(GUARD_STATS, [] {
            for (unsigned turn = 0;; turn++) g_pf.log(LOG_INFO, "turn %u: %.3f %s", turn, turn * 0.25, "spinning");
        });
        g_progress++;
        if (i % 100 == 99) log_drain_game();   /* console, log file (local time), event log: after the call */
    }
    log_drain_game();
    TH_CHECK_EQ_INT(jumped, JUMPS);
    TH_CHECK_EQ_INT((int)(os_guard_jumps() - before), JUMPS);
    /* the log still works: a line written now comes out */
    log_message(LOG_INFO, "after %d interrupts the log still writes", JUMPS);
    TH_CHECK(1);
}

static void *deadlock_detector(void *arg)
{
    (void)arg;
    uint64_t last = g_progress.load();
    double since = os_mono_seconds();
    for (;;) {
        os_sleep_ms(500);
        uint64_t now = g_progress.load();
        if (now != last) { last = now; since = os_mono_seconds(); continue; }
        if (os_mono_seconds() - since > 20) {
            fprintf(stderr, "test_guard: no progress for 20 s: deadlock\n0 passed, 1 failed\n");
            _exit(1);
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------- faults on other threads */
/* The null store is the fault under test: UBSan must not stop it first in the sanitizer build. */
__attribute__((no_sanitize("undefined")))   /* the spelling g++ and clang both know */
static void *fault_on_worker(void *arg)
{
    (void)arg;
    os_sleep_ms(50);
    volatile int *volatile p = NULL;
    *p = 1;
    return NULL;
}

static int child_worker_fault(int in_guarded_call)
{
    guard_init(10.0);
    pthread_t t;
    pthread_create(&t, NULL, fault_on_worker, NULL);
    if (in_guarded_call) {
        int r = guarded(GUARD_UPDATE, [] { spin_until(os_mono_seconds() + 5.0); });
        printf("main: guarded call returned %d\n", r);   /* must never print: the worker's fault is fatal */
    } else {
        os_sleep_ms(5000);
        printf("main: still running\n");
    }
    return 3;
}

static void check_child(const char *mode)
{
    char cmd[4096], out[16384];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", g_self, mode);
    const char *argv[] = { "sh", "-c", cmd, NULL };
    double t = os_mono_seconds();
    int code = os_run(argv, out, sizeof out, 30.0);
    printf("  child %s: exit %d after %.2f s\n%s", mode, code, os_mono_seconds() - t, out);
    TH_CHECK_EQ_INT(code, 70);
    TH_CHECK(strstr(out, "fatal SIGSEGV on thread") != NULL);
    TH_CHECK(strstr(out, "(not the main thread)") != NULL);
    int frames = 0;
    for (const char *p = strstr(out, "backtrace:"); p && (p = strstr(p, ")[0x")); p++) frames++;
    TH_CHECK(frames >= 3);   /* the faulting thread's backtrace */
    TH_CHECK(strstr(out, "main: guarded call returned") == NULL);
    TH_CHECK(strstr(out, "main: still running") == NULL);
    TH_CHECK(os_mono_seconds() - t < 4.0);   /* it ended at the fault, not when the main thread finished */
}

/* ---------------------------------------------------------------- the game's zones and a jump */
static void test_zones_closed_at_the_jump(void)
{
    profile_init();
    profile_fill_api(&g_pf);
    PROFILE_BEGIN("host update");
    uint32_t first = g_profile_main.head;
    int r = guarded(GUARD_UPDATE, [] {
        g_pf.profile_begin("game update");
        g_pf.profile_begin("stuck");
        spin_until(os_mono_seconds() + 2.0);   /* the watchdog jumps out of both zones */
    });
    TH_CHECK_EQ_INT(r, 1);
    TH_CHECK_EQ_INT(g_profile_main.depth, 1);  /* the host's zone is still open, the game's are closed */
    for (uint32_t i = first; i < first + 2; i++) TH_CHECK_MSG(thp_zone_at(&g_profile_main, i)->end != 0, "zone %u open", i);
    TH_CHECK(!strcmp(thp_zone_at(&g_profile_main, first)->name, "game update"));
    /* a call that returns with a zone open, and one that ends more zones than it began */
    guarded(GUARD_UPDATE, [] { g_pf.profile_begin("no end"); });
    TH_CHECK_EQ_INT(g_profile_main.depth, 1);
    guarded(GUARD_UPDATE, [] { g_pf.profile_end(); g_pf.profile_end(); });
    TH_CHECK_EQ_INT(g_profile_main.depth, 1);
    TH_CHECK(thp_zone_at(&g_profile_main, first - 1)->end == 0);   /* the host's zone was not closed by the game */
    PROFILE_END();
    TH_CHECK_EQ_INT(g_profile_main.depth, 0);
}

/* ---------------------------------------------------------------- held is not hung */
/* Under a 0.3 s limit: the process stops itself inside a guarded call and a helper continues it 1.5 s later
   (a breakpoint held that long); the call then runs 0.05 s more (0.25 s of margin for a busy machine) and must return normally. Then a call
   blocked 3 s in poll() is a hang all the same: interrupted after about 0.3 s. */
static int child_held(void)
{
    guard_init(0.3);
    pid_t helper = fork();
    if (helper == 0) { usleep(1500 * 1000); kill(getppid(), SIGCONT); _exit(0); }
    double t = os_mono_seconds();
    int held = guarded(GUARD_UPDATE, [] { kill(getpid(), SIGSTOP); spin_until(os_mono_seconds() + 0.05); });
    printf("held: %.2f s, guarded call returned %d (%s)\n", os_mono_seconds() - t, held, held ? guard_fault_name() : "-");
    waitpid(helper, NULL, 0);
    t = os_mono_seconds();
    int blocked = guarded(GUARD_UPDATE, [] { poll(NULL, 0, 3000); });
    double took = os_mono_seconds() - t;
    printf("blocked: guarded call returned %d after %.2f s\n", blocked, took);
    return held == 0 && blocked == 1 && took < 2.0 ? 0 : 1;
}

static void test_held_process_is_not_a_hang(void)
{
    char cmd[4096], out[16384];
    snprintf(cmd, sizeof cmd, "'%s' --child-held 2>&1", g_self);
    const char *argv[] = { "sh", "-c", cmd, NULL };
    int code = os_run(argv, out, sizeof out, 30.0);
    printf("  child --child-held: exit %d\n%s", code, out);
    TH_CHECK(strstr(out, "held: ") && strstr(out, "guarded call returned 0"));
    TH_CHECK(strstr(out, "blocked: guarded call returned 1"));
    TH_CHECK_EQ_INT(code, 0);
}

static void test_fault_on_worker_during_guarded_call(void) { check_child("--child-worker-fault-guarded"); }
static void test_fault_on_worker_outside_guarded_call(void) { check_child("--child-worker-fault"); }

int main(int argc, char **argv)
{
    g_self = argv[0];
    if (argc > 1 && !strcmp(argv[1], "--child-worker-fault-guarded")) return child_worker_fault(1);
    if (argc > 1 && !strcmp(argv[1], "--child-worker-fault")) return child_worker_fault(0);
    if (argc > 1 && !strcmp(argv[1], "--child-held")) return child_held();
    char logfile[] = "/tmp/test_guard_log_XXXXXX";
    int fd = mkstemp(logfile);
    if (fd >= 0) close(fd);
    g_options.log_file = logfile;
    snprintf(g_options.root, sizeof g_options.root, "/tmp");
    log_open(0, 0);
    log_fill_api(&g_pf);
    guard_init(LIMIT_S);
    pthread_t detector;
    pthread_create(&detector, NULL, deadlock_detector, NULL);
    TH_RUN(test_interrupt_carries_the_call_number);
    TH_RUN(test_no_interrupt_before_the_limit);
    TH_RUN(test_thousand_interrupts_while_logging);
    TH_RUN(test_zones_closed_at_the_jump);
    TH_RUN(test_fault_on_worker_during_guarded_call);
    TH_RUN(test_fault_on_worker_outside_guarded_call);
    TH_RUN(test_held_process_is_not_a_hang);
    log_close();
    remove(logfile);
    return th_test_finish();
}
