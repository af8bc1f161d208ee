/* os_linux.cpp - os.h for Linux: clocks, files, inotify, posix_spawn, dlopen, mmap, pthreads, signals.
   Linux only (inotify and /proc are not POSIX). With os_common.cpp, the only platform file that
   includes system headers beyond the C/C++ standard library. */
#include "os.h"
#include "os_service_gate.h"

#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sched.h>
#include <link.h>
#include <sys/inotify.h>
#include <ucontext.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

extern char **environ;

static void set_errno_error(void) { os_set_error(strerror(errno)); }

/* ================================================================ time and process */
double os_mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

double os_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

void os_format_local_time(double wall, char *out, size_t cap)
{
    time_t t = (time_t)wall;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(out, cap, "%Y-%m-%d %H:%M:%S", &tm);
}

void os_sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

int os_pid(void) { return (int)getpid(); }

int os_cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void (*g_terminate_fn)(void);
static void on_terminate_signal(int sig) { (void)sig; if (g_terminate_fn) g_terminate_fn(); }

void os_on_terminate(void (*fn)(void))
{
    g_terminate_fn = fn;
    signal(SIGINT, on_terminate_signal);
    signal(SIGTERM, on_terminate_signal);
    signal(SIGPIPE, SIG_IGN);
}

void os_attach_console(void) {}
void os_alert(const char *title, const char *text) { (void)title; (void)text; }
void os_run_frames(int (*frame)(void *), void *ctx) { while (frame(ctx)) {} }

/* ================================================================ the host's descriptors */
/* Game code may close descriptors it does not own (a loop closing 0..20 once). The host's own - its logs,
   the watcher, the session's memfd - are moved above HIGH_FD, where such a loop does not reach; 0..2 are
   checked every frame and reopened on /dev/null, so a later open (a log, a pipe) never becomes "stdout". */
#define HIGH_FD 1000
static int fd_high(int fd)
{
    if (fd < 0 || fd >= HIGH_FD) return fd;
    int hi = fcntl(fd, F_DUPFD_CLOEXEC, HIGH_FD);
    if (hi < 0) return fd;   /* a low limit: keep it where it is */
    close(fd);
    return hi;
}

FILE *os_fopen(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    if (!f) { set_errno_error(); return NULL; }
    int hi = fcntl(fileno(f), F_DUPFD_CLOEXEC, HIGH_FD);
    if (hi < 0) return f;
    FILE *g = fdopen(hi, mode);
    if (!g) { close(hi); return f; }
    fclose(f);
    return g;
}

/* Which descriptors are the host's: those open when the frame loop starts (SDL's sockets and pipes, the
   logs, the watcher, the session), each with its file's identity, so a number the host gave up and the
   game opened again is the game's. */
#define HOST_FDS_MAX 64
static struct { int fd; dev_t dev; ino_t ino; } g_host_fds[HOST_FDS_MAX];
static int g_host_fd_count;

void os_host_fds_record(void)
{
    g_host_fd_count = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return;
    int own = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) && g_host_fd_count < HOST_FDS_MAX) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        int fd = atoi(e->d_name);
        struct stat st;
        if (fd == own || fstat(fd, &st) != 0) continue;
        g_host_fds[g_host_fd_count].fd = fd;
        g_host_fds[g_host_fd_count].dev = st.st_dev;
        g_host_fds[g_host_fd_count].ino = st.st_ino;
        g_host_fd_count++;
    }
    closedir(d);
}

int os_fd_is_host(int fd)
{
    struct stat st;
    for (int i = 0; i < g_host_fd_count; i++)
        if (g_host_fds[i].fd == fd)
            return fstat(fd, &st) == 0 && st.st_dev == g_host_fds[i].dev && st.st_ino == g_host_fds[i].ino;
    return 0;
}

int os_fd_host_in(unsigned lo, unsigned hi)
{
    for (int i = 0; i < g_host_fd_count; i++)
        if ((unsigned)g_host_fds[i].fd >= lo && (unsigned)g_host_fds[i].fd <= hi && os_fd_is_host(g_host_fds[i].fd))
            return g_host_fds[i].fd;
    return -1;
}

int os_fd_close(int fd) { return close(fd); }

/* A closed socket or pipe of SDL's (udev's monitor, a wake-up pipe) answers every poll at once and its reader
   loops. Its number gets an eventfd at zero: never readable, never at its end, no writer to lose. */
int os_host_fds_plug(void)
{
    int n = 0;
    for (int i = 0; i < g_host_fd_count; i++) {
        int fd = g_host_fds[i].fd;
        /* not stdio (os_std_fds_check's), not the host's own above HIGH_FD (their owners open them again; a
           child's pipe there closes when the child ends) */
        if (fd <= 2 || fd >= HIGH_FD || fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int quiet = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (quiet < 0) return n;
        int ok = quiet == fd || dup3(quiet, fd, O_CLOEXEC) >= 0;
        if (quiet != fd) close(quiet);
        if (!ok) continue;
        struct stat st;
        if (fstat(fd, &st) == 0) { g_host_fds[i].dev = st.st_dev; g_host_fds[i].ino = st.st_ino; }
        n++;
    }
    return n;
}

int os_file_stamp_of(FILE *f, OsFileStamp *out)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    if (!f || fstat(fileno(f), &st) != 0) return 0;
    out->dev = st.st_dev;
    out->ino = st.st_ino;
    return 1;
}

int os_file_reopen(FILE *f, const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) { set_errno_error(); return 0; }
    int ok = dup3(fd, fileno(f), O_CLOEXEC) >= 0;
    if (!ok) set_errno_error();
    close(fd);
    clearerr(f);
    return ok;
}

/* What /proc/self/fd says descriptor fd is ("anon_inode:inotify", "pipe:[123]"); 0 if /proc cannot say. */
static int fd_link(int fd, char *out, size_t cap)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(p, out, cap - 1);
    if (n <= 0) return 0;
    out[n] = 0;
    return 1;
}

int os_std_fds_check(void)
{
    int reopened = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);   /* the lowest free number: this one */
        if (n >= 0 && n != fd) { dup2(n, fd); close(n); }
        reopened++;
    }
    return reopened;
}

/* ================================================================ files */
char *os_read_file(const char *path, size_t *len, size_t max_bytes)
{
    if (len) *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { set_errno_error(); return NULL; }
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 4096;
    if (cap > max_bytes) cap = max_bytes;
    char *buf = (char *)malloc(cap + 1);
    size_t n = 0;
    for (;;) {
        if (!buf) { close(fd); os_set_error("out of memory"); return NULL; }
        if (n == cap) {
            char probe;
            ssize_t more = read(fd, &probe, 1);
            if (more == 0) break;
            if (more < 0) { if (errno == EINTR) continue; set_errno_error(); free(buf); close(fd); return NULL; }
            if (cap >= max_bytes) { os_set_error("file too large"); free(buf); close(fd); return NULL; }
            size_t ncap = cap * 2 > max_bytes ? max_bytes : cap * 2;
            char *nb = (char *)realloc(buf, ncap + 1);
            if (!nb) { free(buf); buf = NULL; continue; }
            buf = nb;
            cap = ncap;
            buf[n++] = probe;
            continue;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got == 0) break;
        if (got < 0) { if (errno == EINTR) continue; set_errno_error(); free(buf); close(fd); return NULL; }
        n += (size_t)got;
    }
    close(fd);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

int os_copy_file(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0) { set_errno_error(); return 0; }
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    if (out < 0) { set_errno_error(); close(in); return 0; }
    char buf[1 << 16];
    ssize_t n;
    int ok = 1;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) { set_errno_error(); ok = 0; break; }
    if (n < 0) { set_errno_error(); ok = 0; }
    close(in);
    if (close(out) != 0) { set_errno_error(); ok = 0; }
    return ok;
}

static int write_file_atomic(const char *path, const void *data, size_t len, int mode)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) { set_errno_error(); return 0; }
    if (mode >= 0 && fchmod(fd, (mode_t)mode) != 0) { set_errno_error(); close(fd); unlink(tmp); return 0; }
    const char *p = (const char *)data;
    size_t left = len;
    int ok = 1;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0) { if (errno == EINTR) continue; set_errno_error(); ok = 0; break; }
        p += n;
        left -= (size_t)n;
    }
    if (ok && fsync(fd) != 0) { set_errno_error(); ok = 0; }
    if (close(fd) != 0 && ok) { set_errno_error(); ok = 0; }
    if (ok && rename(tmp, path) != 0) { set_errno_error(); ok = 0; }
    if (!ok) unlink(tmp);
    return ok;
}

int os_write_file_atomic(const char *path, const void *data, size_t len)
{
    return write_file_atomic(path, data, len, -1);
}

int os_replace_file(const char *path, const void *data, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0) { set_errno_error(); return 0; }
    /* rename would replace a read-only file; no write bit at all is read-only too, even for root */
    if (access(path, W_OK) != 0) { set_errno_error(); return 0; }
    if (!(st.st_mode & 0222)) { os_set_error("Permission denied (read-only)"); return 0; }
    return write_file_atomic(path, data, len, (int)(st.st_mode & 07777));
}

int os_rename_file(const char *from, const char *to)
{
    if (rename(from, to) == 0) return 1;
    set_errno_error();
    return 0;
}

int os_make_dir(const char *path)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 1;
    set_errno_error();
    return 0;
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
    if (stat(path, &st) != 0) { set_errno_error(); return 0; }
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    return 1;
}

int os_real_path(const char *path, char *out, size_t cap)
{
    char *r = realpath(path, NULL);
    if (!r) { set_errno_error(); return 0; }
    int ok = strlen(r) < cap;
    if (ok) memcpy(out, r, strlen(r) + 1);
    else os_set_error("path too long");
    free(r);
    return ok;
}

int os_exe_path(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap);
    if (n < 0) { set_errno_error(); return 0; }
    if ((size_t)n >= cap) { os_set_error("path too long"); return 0; }
    out[n] = 0;
    return 1;
}

int os_remove_file(const char *path)
{
    if (unlink(path) == 0) return 1;
    set_errno_error();
    return 0;
}

int os_list_dir(const char *dir, os_dir_entry_fn *fn, void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) { set_errno_error(); return 0; }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int is_dir = e->d_type == DT_DIR;
        if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
            char full[4096];
            struct stat st;
            snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
            is_dir = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
        }
        fn(ctx, e->d_name, is_dir);
    }
    closedir(d);
    return 1;
}

/* ================================================================ directory watching (inotify) */
static int g_inotify_fd = -1;

int os_watch_open(void)
{
    if (g_inotify_fd >= 0) return 1;
    g_inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (g_inotify_fd < 0) { set_errno_error(); return 0; }
    g_inotify_fd = fd_high(g_inotify_fd);
    return 1;
}

int os_watch_add(const char *dir)
{
    if (g_inotify_fd < 0) { os_set_error("watcher not open"); return -1; }
    uint32_t mask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB;
    int wd = inotify_add_watch(g_inotify_fd, dir, mask);
    if (wd < 0) set_errno_error();
    return wd;
}

void os_watch_read(os_watch_fn *fn, void *ctx)
{
    if (g_inotify_fd < 0) return;
    char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(g_inotify_fd, buf, sizeof buf);
        if (n <= 0) break;
        for (char *q = buf; q < buf + n;) {
            struct inotify_event *e = (struct inotify_event *)q;
            if (e->len) {
                unsigned flags =
                    ((e->mask & IN_CREATE) ? OS_WATCH_CREATED : 0) | ((e->mask & IN_MOVED_TO) ? OS_WATCH_MOVED_IN : 0) |
                    ((e->mask & IN_ISDIR) ? OS_WATCH_IS_DIR : 0) | ((e->mask & IN_CLOSE_WRITE) ? OS_WATCH_CLOSED : 0) |
                    ((e->mask & (IN_DELETE | IN_MOVED_FROM)) ? OS_WATCH_GONE : 0);
                fn(ctx, e->wd, e->name, flags);
            }
            q += sizeof(struct inotify_event) + e->len;
        }
    }
}

int os_watch_fd(void) { return g_inotify_fd; }

int os_watch_lost(void)
{
    if (g_inotify_fd < 0) return 0;
    char link[64];
    if (fcntl(g_inotify_fd, F_GETFD) != -1 &&
        (!fd_link(g_inotify_fd, link, sizeof link) || !strcmp(link, "anon_inode:inotify")))
        return 0;
    g_inotify_fd = -1;   /* not closed: the number is no longer ours */
    return 1;
}

void os_watch_close(void)
{
    if (g_inotify_fd >= 0) close(g_inotify_fd);
    g_inotify_fd = -1;
}

/* ================================================================ child processes */
int os_child_start(OsChild *c, const char *const argv[], unsigned capture)
{
    return os_child_start_in(c, argv, capture, NULL);
}

int os_child_start_in(OsChild *c, const char *const argv[], unsigned capture, const char *cwd)
{
    memset(c, 0, sizeof *c);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) { set_errno_error(); return 0; }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (capture & OS_CHILD_STDOUT) posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    else posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (capture & OS_CHILD_STDERR) posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    else posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        os_set_error(strerror(rc));
        return 0;
    }
    /* before the child's own children start: the compiler driver's cc1 inherits it */
    if (capture & OS_CHILD_LOW_PRIORITY) setpriority(PRIO_PROCESS, pid, 10);
    fds[0] = fd_high(fds[0]);   /* out of a close() loop's reach */
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    c->pid = pid;
    c->out_fd = fds[0];
    struct stat st;
    if (fstat(fds[0], &st) == 0) c->out_id = (uint64_t)st.st_ino;
    return 1;
}

int os_child_read(OsChild *c, char *buf, size_t cap)
{
    if (c->out_fd <= 0 || cap == 0) return 0;
    for (;;) {
        ssize_t n = read(c->out_fd, buf, cap);
        if (n > 0) return (int)n;
        if (n < 0 && errno == EINTR) continue;
        return 0;
    }
}

int os_child_poll(OsChild *c, int *exit_code, int *signal_no)
{
    if (exit_code) *exit_code = -1;
    if (signal_no) *signal_no = 0;
    if (!c->pid) return -1;
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t r = wait4((pid_t)c->pid, &status, WNOHANG, &ru);
    if (r == 0) return 0;
    c->pid = 0;
    c->cpu_ms =
        (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
    if (r < 0) { set_errno_error(); return -1; }  /* reaped elsewhere */
    if (WIFEXITED(status) && exit_code) *exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status) && signal_no) *signal_no = WTERMSIG(status);
    return 1;
}

int os_child_fd(const OsChild *c) { return c->out_fd > 0 ? c->out_fd : -1; }

int os_child_lost(const OsChild *c)
{
    struct stat st;
    return c->out_fd > 0 && c->out_id && (fstat(c->out_fd, &st) != 0 || (uint64_t)st.st_ino != c->out_id);
}

/* ================================================================ the control channel: a Unix domain socket */
static int control_address(const char *path, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a->sun_path) {
        os_set_error("the socket's path is longer than a Unix socket's 107 bytes");
        return 0;
    }
    memcpy(a->sun_path, path, strlen(path) + 1);
    return 1;
}

/* A socket file left by a host that died: nobody accepts on it, so it is removed. One a live host listens on,
   or a file that is not a socket, is left alone and refused. */
static int control_clear_stale(const char *path, const struct sockaddr_un *a)
{
    struct stat st;
    if (lstat(path, &st) != 0) return 1;
    if (!S_ISSOCK(st.st_mode)) { os_set_error("a file that is not a socket is in the way"); return 0; }
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0) { set_errno_error(); return 0; }
    int live = connect(probe, (const struct sockaddr *)a, sizeof *a) == 0;
    close(probe);
    if (live) { os_set_error("another process is listening on it"); return 0; }
    if (unlink(path) != 0 && errno != ENOENT) { set_errno_error(); return 0; }
    return 1;
}

int64_t os_control_listen(const char *path, char *address, size_t cap)
{
    if (cap) snprintf(address, cap, "%s", path);
    struct sockaddr_un a;
    if (!control_address(path, &a) || !control_clear_stale(path, &a)) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { set_errno_error(); return -1; }
    mode_t was = umask(0177);   /* born 0600: no moment where another user could connect */
    int bound = bind(fd, (const struct sockaddr *)&a, sizeof a) == 0;
    umask(was);
    if (!bound || chmod(path, 0600) != 0 || listen(fd, 8) != 0) {
        set_errno_error();
        close(fd);
        if (bound) unlink(path);
        return -1;
    }
    return fd_high(fd);
}

int64_t os_control_accept(int64_t listener)
{
    if (listener < 0) return -1;
    int fd = accept4((int)listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return errno == EBADF || errno == ENOTSOCK || errno == EINVAL ? -2 : -1;
    return fd_high(fd);
}

int os_control_read(int64_t client, char *buf, size_t cap)
{
    ssize_t n = recv((int)client, buf, cap, MSG_DONTWAIT);
    if (n > 0) return (int)n;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    return -1;   /* 0: the client closed its end */
}

int os_control_write(int64_t client, const char *buf, size_t n)
{
    ssize_t w = send((int)client, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);   /* a gone client is -1, not SIGPIPE */
    if (w >= 0) return (int)w;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
}

void os_control_close(int64_t client)
{
    struct stat st;
    if (client >= 0 && fstat((int)client, &st) == 0 && S_ISSOCK(st.st_mode)) close((int)client);
}

void os_control_unlisten(int64_t listener, const char *path)
{
    if (listener < 0) return;
    os_control_close(listener);
    if (path && path[0]) unlink(path);
}

int os_wait_readable(const int *fds, int n, double timeout_s)
{
    struct pollfd p[8];
    int k = 0;
    for (int i = 0; i < n && k < 8; i++)
        if (fds[i] >= 0) {
            p[k].fd = fds[i];
            p[k].events = POLLIN;
            p[k].revents = 0;
            k++;
        }
    if (timeout_s < 0) timeout_s = 0;
    struct timespec ts = { (time_t)timeout_s, (long)((timeout_s - (double)(time_t)timeout_s) * 1e9) };
    int r = ppoll(p, (nfds_t)k, &ts, NULL);
    int readable = 0, invalid = 0;
    for (int i = 0; r > 0 && i < k; i++) {
        if (p[i].revents & POLLNVAL) invalid++;
        else if (p[i].revents) readable = 1;
    }
    /* A descriptor closed under us answers at once, every time: that is no reason to wake. Sleep the
       timeout out instead of spinning (the frame loop goes on at its pace). */
    if (invalid && !readable) { nanosleep(&ts, NULL); return 0; }
    return readable;
}

void os_child_kill(OsChild *c)
{
    if (c->pid) {
        kill((pid_t)c->pid, SIGTERM);
        waitpid((pid_t)c->pid, NULL, 0);
        c->pid = 0;
    }
    if (c->out_fd > 0 && !os_child_lost(c)) close(c->out_fd);   /* a lost number is someone else's now */
    c->out_fd = 0;
}

/* ================================================================ dynamic libraries */
/* A library cut short (a build killed half way, a copy still running) must not reach dlopen: every
   loadable segment and the section table have to lie inside the file. */
int os_lib_complete(const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errcap, "%s: %s", path, strerror(errno)); return 0; }
    struct stat st;
    Elf64_Ehdr eh;
    int ok = fstat(fileno(f), &st) == 0 && fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
             eh.e_ident[EI_CLASS] == ELFCLASS64;
    if (!ok) { snprintf(err, errcap, "%s: not a 64-bit ELF file", path); fclose(f); return 0; }
    uint64_t size = (uint64_t)st.st_size;
    if ((uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize > size ||
        (uint64_t)eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > size) {
        snprintf(err, errcap, "%s: truncated (%llu bytes; its headers reach past the end)", path,
                 (unsigned long long)size);
        fclose(f);
        return 0;
    }
    for (int i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize), SEEK_SET) != 0 ||
            fread(&ph, sizeof ph, 1, f) != 1) {
            snprintf(err, errcap, "%s: unreadable program header %d", path, i);
            fclose(f);
            return 0;
        }
        if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > size) {
            snprintf(err, errcap, "%s: truncated (%llu bytes; segment %d needs %llu)", path, (unsigned long long)size,
                     i, (unsigned long long)(ph.p_offset + ph.p_filesz));
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    return 1;
}

void *os_lib_open(const char *path, char *err, size_t cap)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, cap, "%s", why ? why : "dlopen failed");
    }
    return h;
}

void *os_lib_symbol(void *lib, const char *name) { return lib ? dlsym(lib, name) : NULL; }
void  os_lib_close(void *lib) { if (lib) dlclose(lib); }

int os_mapped_ranges(const char *path, OsRange *out, int max)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) { set_errno_error(); return 0; }
    char line[4096 + 256];
    size_t plen = strlen(path);
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi, off;
        char perms[8];
        int name_at = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &lo, &hi, perms, &off, &name_at) != 4 || !name_at) continue;
        const char *name = line + name_at;
        /* the path exactly, or followed by " (deleted)" once the file is unlinked */
        if (strncmp(name, path, plen) != 0 || (name[plen] != '\n' && name[plen] != 0 && name[plen] != ' ')) continue;
        if (count < max) {
            out[count].lo = lo;
            out[count].hi = hi;
            out[count].file_offset = off;
            out[count].prot = (perms[0] == 'r' ? OS_PROT_READ : 0) | (perms[1] == 'w' ? OS_PROT_WRITE : 0) |
                              (perms[2] == 'x' ? OS_PROT_EXEC : 0);
        }
        count++;
    }
    fclose(f);
    return count < max ? count : max;
}

/* The loader's own record of the image (its program headers), not names in /proc/self/maps: the .bss
   past the file's last page is an anonymous mapping with no name there. */
typedef struct ImageQuery { const char *path; OsRange *out; int max, count; } ImageQuery;

static int image_segments(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    ImageQuery *q = (ImageQuery *)ctx;
    if (!info->dlpi_name || strcmp(info->dlpi_name, q->path) != 0) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !ph->p_memsz) continue;
        if (q->count < q->max) {
            OsRange *r = &q->out[q->count];
            uintptr_t at = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
            r->lo = at & ~(page - 1);
            r->hi = (at + (uintptr_t)ph->p_memsz + page - 1) & ~(page - 1);
            r->file_offset = (uint64_t)ph->p_offset & ~(uint64_t)(page - 1);
            r->prot = ((ph->p_flags & PF_R) ? OS_PROT_READ : 0) | ((ph->p_flags & PF_W) ? OS_PROT_WRITE : 0) |
                      ((ph->p_flags & PF_X) ? OS_PROT_EXEC : 0);
        }
        q->count++;
    }
    return 1;
}

int os_lib_image(const char *path, OsRange *out, int max)
{
    ImageQuery q = { path, out, max, 0 };
    dl_iterate_phdr(image_segments, &q);
    return q.count < max ? q.count : max;
}

void os_describe_code(const char *path, uintptr_t base, uintptr_t pc, char *fn, size_t fncap, char *where, size_t wcap)
{
    snprintf(fn, fncap, "?");
    snprintf(where, wcap, "?");
    char addr[32], text[600];
    snprintf(addr, sizeof addr, "0x%lx", (unsigned long)(pc - base));
    const char *argv[] = { "addr2line", "-f", "-C", "-s", "-e", path, addr, NULL };
    if (os_run(argv, text, sizeof text, 5.0) != 0) return;
    char *nl = strchr(text, '\n');
    if (!nl) return;
    *nl = 0;
    snprintf(fn, fncap, "%s", text);
    snprintf(where, wcap, "%s", nl + 1);
    where[strcspn(where, "\n")] = 0;
}

/* ================================================================ address space */
int os_make_writable(void *p, uint64_t bytes)
{
    if (mprotect(p, (size_t)bytes, PROT_READ | PROT_WRITE) == 0) return 1;
    set_errno_error();
    return 0;
}

void *os_reserve(uint64_t bytes, uintptr_t preferred)
{
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    void *p = MAP_FAILED;
#ifdef MAP_FIXED_NOREPLACE
    if (preferred) p = mmap((void *)preferred, bytes, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, -1, 0);
#else
    if (preferred) p = mmap((void *)preferred, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
#endif
    if (p == MAP_FAILED) p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED) { set_errno_error(); return NULL; }
    return p;
}

/* ================================================================ threads */
int os_thread_start(OsThread *t, void *(*fn)(void *), void *arg)
{
    pthread_t th;
    t->started = 0;
    int rc = pthread_create(&th, NULL, fn, arg);
    if (rc != 0) { os_set_error(strerror(rc)); return 0; }
    t->handle = (uint64_t)th;
    t->started = 1;
    return 1;
}

void os_thread_join(OsThread *t)
{
    if (!t->started) return;
    pthread_join((pthread_t)t->handle, NULL);
    t->started = 0;
}

/* ================================================================ faults and the watchdog */
/* Only the main thread, inside os_guarded_call, may leave a fault by a jump: its stack is the one the
   jump buffer belongs to. The watchdog's interrupt (SIGUSR2) carries the sequence number of the call
   it means; a signal that arrives after that call returned finds another number (or none) and is
   ignored. Any other fault is reported and ends the process. */
static struct {
    sigjmp_buf             jmp;
    std::atomic<uint64_t>  running_seq;   /* the guarded call in progress on the main thread; 0 = none */
    OsFault               *fault;
    pthread_t              main_thread;
    std::atomic<uint64_t>  jumps;
    OsServiceGate          gate;          /* an interrupt inside a host service waits for its end */
    uintptr_t              guard_sp;      /* the stack of os_guarded_call: the top of a frame scan */
    os_unsafe_fault_fn    *on_unsafe;
    OsRange                system_code[8];/* libc's and ld.so's executable segments */
    int                    system_count;
    std::atomic<uintptr_t> game_lo, game_hi;
    uint8_t                altstack[1 << 16];
} g_faults;

/* Threads other than the main one get their own signal stack, so that a stack overflow there reaches the
   handler (which ends or restarts the process) instead of killing it silently. The host's executable
   exports pthread_create (build.sh: --export-dynamic-symbol), so the threads SDL and the game start come
   through here too. Not under AddressSanitizer, which intercepts pthread_create itself. */
static __thread int t_game_thread;   /* started by code inside os_fault_game_code's range */

#if !defined(__SANITIZE_ADDRESS__) && !defined(HOST_RELEASE)
#define OS_ALTSTACK_BYTES (1 << 16)
typedef struct ThreadStart { void *(*fn)(void *); void *arg; int game; } ThreadStart;
static pthread_key_t  g_altstack_key;
static pthread_once_t g_altstack_once = PTHREAD_ONCE_INIT;

static void altstack_release(void *p)
{
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, NULL);
    munmap(p, OS_ALTSTACK_BYTES);
}
static void altstack_key_init(void) { pthread_key_create(&g_altstack_key, altstack_release); }

static void *thread_start(void *p)
{
    ThreadStart ts = *(ThreadStart *)p;
    free(p);
    t_game_thread = ts.game;
    void *stack = mmap(NULL, OS_ALTSTACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack != MAP_FAILED) {
        stack_t ss;
        ss.ss_sp = stack;
        ss.ss_size = OS_ALTSTACK_BYTES;
        ss.ss_flags = 0;
        if (sigaltstack(&ss, NULL) == 0) pthread_setspecific(g_altstack_key, stack);
        else munmap(stack, OS_ALTSTACK_BYTES);
    }
    return ts.fn(ts.arg);
}

extern "C" int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    typedef int real_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    static real_fn *real;
    if (!real) real = (real_fn *)dlsym(RTLD_NEXT, "pthread_create");
    if (!real) return EAGAIN;
    pthread_once(&g_altstack_once, altstack_key_init);
    ThreadStart *ts = (ThreadStart *)malloc(sizeof *ts);
    if (!ts) return real(th, attr, fn, arg);
    uintptr_t caller = (uintptr_t)__builtin_return_address(0);
    ts->fn = fn;
    ts->arg = arg;
    ts->game = caller >= g_faults.game_lo.load() && caller < g_faults.game_hi.load();
    int rc = real(th, attr, thread_start, ts);
    if (rc != 0) free(ts);
    return rc;
}
#endif

const char *os_fault_name(int kind)
{
    switch (kind) {
    case OS_FAULT_SEGV: return "SIGSEGV"; case OS_FAULT_BUS: return "SIGBUS"; case OS_FAULT_FPE: return "SIGFPE";
    case OS_FAULT_ILL: return "SIGILL"; case OS_FAULT_ABORT: return "SIGABRT"; case OS_FAULT_HANG: return "hang";
    case OS_FAULT_EXIT: return "exit";
    default: return "signal";
    }
}

static int fault_kind(int sig)
{
    switch (sig) {
    case SIGSEGV: return OS_FAULT_SEGV; case SIGBUS: return OS_FAULT_BUS; case SIGFPE: return OS_FAULT_FPE;
    case SIGILL: return OS_FAULT_ILL; case SIGABRT: return OS_FAULT_ABORT; default: return OS_FAULT_NONE;
    }
}

static void write_str(const char *s) { ssize_t r = write(2, s, strlen(s)); (void)r; }
void os_write_stderr(const char *s) { write_str(s); }

static void write_num(unsigned long long v)
{
    char b[24];
    int i = (int)sizeof b;
    b[--i] = 0;
    do { b[--i] = (char)('0' + v % 10); v /= 10; } while (v && i > 0);
    write_str(b + i);
}

/* Not recoverable: a fault on a thread that has no guarded call to return to. Async-signal-safe. */
static void fault_fatal(int sig, const siginfo_t *si)
{
    write_str("host: fatal ");
    write_str(os_fault_name(fault_kind(sig)));
    write_str(" on thread ");
    write_num((unsigned long long)gettid());
    write_str(pthread_equal(pthread_self(), g_faults.main_thread) ? " (main thread, outside game code)"
                                                                  : " (not the main thread)");
    write_str(", address 0x");
    char hex[20];
    uintptr_t a = si ? (uintptr_t)si->si_addr : 0;
    int i = (int)sizeof hex;
    hex[--i] = 0;
    do { hex[--i] = "0123456789abcdef"[a & 15]; a >>= 4; } while (a && i > 0);
    write_str(hex + i);
    write_str("; backtrace:\n");
    void *bt[OS_MAX_BACKTRACE];
    int n = backtrace(bt, OS_MAX_BACKTRACE);
    backtrace_symbols_fd(bt, n, 2);
    write_str("host: ended (exit code 70) - the host cannot continue safely after a fault outside game code\n");
    _exit(70);
}

static int in_system_code(uintptr_t pc)
{
    for (int i = 0; i < g_faults.system_count; i++)
        if (pc >= g_faults.system_code[i].lo && pc < g_faults.system_code[i].hi) return 1;
    return 0;
}

static uintptr_t context_pc(void *uc, uintptr_t *sp)
{
    ucontext_t *u = (ucontext_t *)uc;
    *sp = 0;
    if (!u) return 0;
#if defined(__x86_64__)
    *sp = (uintptr_t)u->uc_mcontext.gregs[REG_RSP];
    return (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    *sp = (uintptr_t)u->uc_mcontext.sp;
    return (uintptr_t)u->uc_mcontext.pc;
#else
    return 0;
#endif
}

/* Hands an unsafe fault to the host (which restarts the process and does not return) - see os.h. The
   frame scan reads the stack's raw words, redzones included: not instrumented under AddressSanitizer. */
#if defined(__SANITIZE_ADDRESS__)
__attribute__((no_sanitize_address))
#endif
static void report_unsafe(int kind, int where, int is_main, uint64_t running, const siginfo_t *si, void *uc)
{
    if (!g_faults.on_unsafe) return;
    OsUnsafeFault f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.where = where;
    f.game_thread = !is_main && t_game_thread;
    f.guarded = is_main && running != 0;
    uintptr_t sp;
    f.pc = context_pc(uc, &sp);
    f.addr = si && kind != OS_FAULT_HANG ? (uintptr_t)si->si_addr : 0;
    f.mono = os_mono_seconds();
    uintptr_t lo = g_faults.game_lo.load(), hi = g_faults.game_hi.load();
    if (f.pc >= lo && f.pc < hi) f.frames[f.frame_count++] = f.pc;
    /* the live part of the main thread's stack, from the interrupted frame up to the guarded call */
    int overflow = f.addr && f.addr + 65536 > sp && f.addr < sp + 65536;
    if (f.guarded && sp && !overflow && g_faults.guard_sp > sp && g_faults.guard_sp - sp < (8u << 20))
        for (uintptr_t a = sp & ~(uintptr_t)7; a + 8 <= g_faults.guard_sp && f.frame_count < 16; a += 8) {
            uintptr_t v = *(const uintptr_t *)a;
            if (v >= lo && v < hi && v != f.pc) f.frames[f.frame_count++] = v;
        }
    g_faults.on_unsafe(&f);
}

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
    int is_main = pthread_equal(pthread_self(), g_faults.main_thread);
    uint64_t running = g_faults.running_seq.load();
    int kind;
    uintptr_t sp;
    uintptr_t pc = context_pc(uc, &sp);
    if (sig == SIGUSR2) {
        uint64_t meant = si && si->si_code == SI_QUEUE ? (uint64_t)(uintptr_t)si->si_value.sival_ptr : 0;
        if (!is_main || !meant || meant != running) return;   /* late or stray: that call already returned */
        if (os_gate_defer(&g_faults.gate, meant)) return;   /* jump when the service returns */
        kind = OS_FAULT_HANG;
        if (in_system_code(pc)) report_unsafe(kind, OS_UNSAFE_SYSTEM_CODE, is_main, running, si, uc);
    } else {
        if (!is_main) report_unsafe(fault_kind(sig), OS_UNSAFE_THREAD, is_main, running, si, uc);
        else if (!running) report_unsafe(fault_kind(sig), OS_UNSAFE_HOST, is_main, running, si, uc);
        else if (in_system_code(pc)) report_unsafe(fault_kind(sig), OS_UNSAFE_SYSTEM_CODE, is_main, running, si, uc);
        else if (g_faults.gate.depth) report_unsafe(fault_kind(sig), OS_UNSAFE_SERVICE, is_main, running, si, uc);
        if (!is_main || !running) {
            if (is_main && sig == SIGABRT) { signal(sig, SIG_DFL); raise(sig); return; }
            fault_fatal(sig, si);
        }
        kind = fault_kind(sig);
    }
    g_faults.running_seq.store(0);
    OsFault *f = g_faults.fault;
    if (f) {
        f->kind = kind;
        f->addr = sig == SIGUSR2 ? NULL : (si ? si->si_addr : NULL);
        f->pc = (void *)pc;
        f->bt_count = backtrace(f->bt, OS_MAX_BACKTRACE);
    }
    g_faults.jumps.fetch_add(1);
    siglongjmp(g_faults.jmp, 1);
}

/* libc's and ld.so's executable segments, recorded once at start (the handler only compares numbers) */
static int record_system_code(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size; (void)ctx;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    if (strncmp(base, "libc.so", 7) != 0 && strncmp(base, "ld-linux", 8) != 0 && strncmp(base, "ld64.so", 7) != 0 &&
        strncmp(base, "libpthread.so", 13) != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && g_faults.system_count < 8; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        OsRange *r = &g_faults.system_code[g_faults.system_count++];
        r->lo = info->dlpi_addr + ph->p_vaddr;
        r->hi = r->lo + ph->p_memsz;
        r->file_offset = ph->p_offset;
        r->prot = OS_PROT_READ | OS_PROT_EXEC;
    }
    return 0;
}

void os_fault_on_unsafe(os_unsafe_fault_fn *fn) { g_faults.on_unsafe = fn; }

void os_fault_game_code(uintptr_t lo, uintptr_t hi)
{
    g_faults.game_lo.store(0);
    g_faults.game_hi.store(hi);
    g_faults.game_lo.store(lo);
}

int os_system_code_ranges(OsRange *out, int max)
{
    int n = g_faults.system_count < max ? g_faults.system_count : max;
    memcpy(out, g_faults.system_code, sizeof(OsRange) * (size_t)n);
    return n;
}

void os_fault_init(void)
{
    g_faults.system_count = 0;
    dl_iterate_phdr(record_system_code, NULL);
    void *warm[2];
    backtrace(warm, 2);  /* loads the unwinder now, not inside a signal handler */
    stack_t ss;
    ss.ss_sp = g_faults.altstack;
    ss.ss_size = sizeof g_faults.altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGUSR2 };
    for (int s : sigs) sigaction(s, &sa, NULL);
    g_faults.main_thread = pthread_self();
}

int os_guarded_call(void (*fn)(void *), void *arg, uint64_t seq, OsFault *fault)
{
    memset(fault, 0, sizeof *fault);
    g_faults.fault = fault;
    os_gate_reset(&g_faults.gate);
    if (sigsetjmp(g_faults.jmp, 1)) {
        g_faults.running_seq.store(0);
        g_faults.gate.depth = 0;
        return 1;
    }
    volatile char top;
    g_faults.guard_sp = (uintptr_t)&top;
    g_faults.running_seq.store(seq);
    fn(arg);
    g_faults.running_seq.store(0);
    return 0;
}

int os_interrupt_guarded_call(uint64_t seq)
{
    if (!seq || g_faults.running_seq.load() != seq) return 0;
    union sigval v;
    v.sival_ptr = (void *)(uintptr_t)seq;
    return pthread_sigqueue(g_faults.main_thread, SIGUSR2, v) == 0;
}

uint64_t os_guard_jumps(void) { return g_faults.jumps.load(); }

int os_guard_in_call(void)
{
    return pthread_equal(pthread_self(), g_faults.main_thread) && g_faults.running_seq.load() != 0;
}

void os_guard_game_exit(void *caller)
{
    int is_main = pthread_equal(pthread_self(), g_faults.main_thread);
    uint64_t running = g_faults.running_seq.load();
    if (!is_main || !running) {   /* a thread the game started, or no guarded call: nothing to jump back to */
        report_unsafe(OS_FAULT_EXIT, is_main ? OS_UNSAFE_HOST : OS_UNSAFE_THREAD, is_main, running, NULL, NULL);
        return;
    }
    g_faults.running_seq.store(0);
    OsFault *f = g_faults.fault;
    if (f) {
        /* the call's own instruction (a return address points after it): the line that called exit */
        uintptr_t at = (uintptr_t)caller - 1;
        f->kind = OS_FAULT_EXIT;
        f->addr = NULL;
        f->pc = (void *)at;
        f->bt_count = backtrace(f->bt, OS_MAX_BACKTRACE);
        for (int i = 0; i < f->bt_count; i++)
            if ((uintptr_t)f->bt[i] == (uintptr_t)caller) {
                f->bt[i] = (void *)at;
                break;
            }
    }
    g_faults.gate.depth = 0;
    g_faults.jumps.fetch_add(1);
    siglongjmp(g_faults.jmp, 1);
}

void os_guard_service_enter(void) { os_gate_enter(&g_faults.gate); }

void os_guard_service_leave(void)
{
    if (!os_gate_leave(&g_faults.gate, &g_faults.running_seq)) return;
    /* the watchdog's interrupt for this call came while a service ran: the service is done, jump now */
    g_faults.running_seq.store(0);
    OsFault *f = g_faults.fault;
    if (f) {
        f->kind = OS_FAULT_HANG;
        f->addr = NULL;
        f->bt_count = backtrace(f->bt, OS_MAX_BACKTRACE);
    }
    g_faults.jumps.fetch_add(1);
    siglongjmp(g_faults.jmp, 1);
}

/* ================================================================ a session that outlives the process */
static struct {
    char  exe[64];
    char *argv[256];
    char *envp[1024];
    char  env_entry[128];
    int   fd;
} g_session_exec = { "", {}, {}, "", -1 };
static struct stat g_session_id;   /* the memfd's identity: game code may close or replace its number */

static void session_remember(int fd)
{
    if (fstat(fd, &g_session_id) != 0) memset(&g_session_id, 0, sizeof g_session_id);
}

void *os_session_create(uint64_t bytes, uintptr_t preferred, int64_t *handle)
{
    *handle = -1;
    int fd = (int)syscall(SYS_memfd_create, "engine-session", 1u /* MFD_CLOEXEC */);
    if (fd < 0) { set_errno_error(); return NULL; }
    fd = fd_high(fd);
    if (ftruncate(fd, (off_t)bytes) != 0) { set_errno_error(); close(fd); return NULL; }
    void *p = MAP_FAILED;
#ifdef MAP_FIXED_NOREPLACE
    if (preferred)
        p = mmap((void *)preferred, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, fd,
                 0);
#endif
    if (p == MAP_FAILED) p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED) { set_errno_error(); close(fd); return NULL; }
    *handle = fd;
    session_remember(fd);
    return p;
}

int64_t os_session_inherited(const char *env_name)
{
    const char *v = getenv(env_name);
    if (!v) return -1;
    char *end;
    long fd = strtol(v, &end, 10);
    unsetenv(env_name);
    if (end == v || *end || fd < 3 || fd > 65535 || fcntl((int)fd, F_GETFD) < 0) return -1;
    fcntl((int)fd, F_SETFD, FD_CLOEXEC);   /* build children must not hold the session */
    return fd;
}

int os_session_read(int64_t handle, void *out, size_t n)
{
    ssize_t r = pread((int)handle, out, n, 0);
    if (r != (ssize_t)n) {
        if (r < 0) set_errno_error();
        else os_set_error("the session is shorter than its header");
        return 0;
    }
    return 1;
}

void *os_session_attach(int64_t handle, uint64_t bytes, uintptr_t required)
{
    struct stat st;
    if (fstat((int)handle, &st) != 0) { set_errno_error(); return NULL; }
    if ((uint64_t)st.st_size < bytes) { os_set_error("the session memory is smaller than it says"); return NULL; }
#ifdef MAP_FIXED_NOREPLACE
    void *p = mmap((void *)required, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                   (int)handle, 0);
    if (p == MAP_FAILED) {
        char why[160];
        snprintf(why, sizeof why, "address 0x%llx is not free (%s)", (unsigned long long)required, strerror(errno));
        os_set_error(why);
        return NULL;
    }
    if ((uintptr_t)p != required) {   /* a kernel older than 4.17 takes the flag as a hint */
        munmap(p, bytes);
        os_set_error("the kernel placed the session elsewhere (MAP_FIXED_NOREPLACE unsupported)");
        return NULL;
    }
    session_remember((int)handle);
    return p;
#else
    (void)required;
    os_set_error("no MAP_FIXED_NOREPLACE on this system");
    return NULL;
#endif
}

void os_session_close(int64_t handle, void *base, uint64_t bytes)
{
    if (base) munmap(base, bytes);
    if (handle >= 0) close((int)handle);
}

/* The memfd's number closed or replaced: its pages are still mapped, but a re-executed host could not find them.
   A new memfd gets what is in use (`keep`), is mapped over the old one at the same address and takes the old
   number (the exec's environment names it). */
int os_session_renew(int64_t handle, void *base, uint64_t bytes, const OsSpan *keep, int keep_count)
{
    struct stat st;
    int fd = (int)handle;
    if (fd < 0 || !base || !g_session_id.st_ino) return 0;
    if (fstat(fd, &st) == 0 && st.st_dev == g_session_id.st_dev && st.st_ino == g_session_id.st_ino) return 0;
    int nfd = (int)syscall(SYS_memfd_create, "engine-session", 1u /* MFD_CLOEXEC */);
    if (nfd < 0) { set_errno_error(); return -1; }
    if (ftruncate(nfd, (off_t)bytes) != 0) { set_errno_error(); close(nfd); return -1; }
    mprotect(base, bytes, PROT_READ | PROT_WRITE);   /* game code may have made a part unreadable */
    for (int i = 0; i < keep_count; i++) {
        uint64_t off = keep[i].offset, len = keep[i].bytes;
        if (off >= bytes) continue;
        if (len > bytes - off) len = bytes - off;
        while (len) {
            ssize_t w = pwrite(nfd, (const char *)base + off, len, (off_t)off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) { set_errno_error(); close(nfd); return -1; }
            off += (uint64_t)w;
            len -= (uint64_t)w;
        }
    }
    void *p = mmap(base, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, nfd, 0);
    if (p == MAP_FAILED) { set_errno_error(); close(nfd); return -1; }
    int ok = dup3(nfd, fd, O_CLOEXEC) >= 0;
    if (!ok) set_errno_error();
    close(nfd);
    if (!ok) return -1;
    session_remember(fd);
    return 1;
}

int os_session_exec_prepare(int64_t handle, const char *env_name, int argc, char **argv)
{
    snprintf(g_session_exec.exe, sizeof g_session_exec.exe, "/proc/self/exe");
    int n = 0;
    for (int i = 0; i < argc && n < 255; i++) g_session_exec.argv[n++] = strdup(argv[i]);
    g_session_exec.argv[n] = NULL;
    snprintf(g_session_exec.env_entry, sizeof g_session_exec.env_entry, "%s=%d", env_name, (int)handle);
    size_t nlen = strlen(env_name);
    int e = 0;
    for (char **v = environ; v && *v && e < 1022; v++)
        if (!(strncmp(*v, env_name, nlen) == 0 && (*v)[nlen] == '=')) g_session_exec.envp[e++] = strdup(*v);
    g_session_exec.envp[e++] = g_session_exec.env_entry;
    g_session_exec.envp[e] = NULL;
    g_session_exec.fd = (int)handle;
    return 1;
}

void os_session_exec(void)
{
    if (g_session_exec.fd < 0) return;
    /* the session survives the exec; a watchdog interrupt still pending must not end the new process */
    fcntl(g_session_exec.fd, F_SETFD, 0);
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGUSR2, &ign, NULL);
    execve(g_session_exec.exe, g_session_exec.argv, g_session_exec.envp);
    fcntl(g_session_exec.fd, F_SETFD, FD_CLOEXEC);
}

void os_close_inherited(int64_t keep)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) return;
    int fds[1024];
    int n = 0, own = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) && n < 1024) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (end == e->d_name || *end || fd <= 2 || fd == keep || fd == own) continue;
        fds[n++] = (int)fd;
    }
    closedir(d);
    for (int i = 0; i < n; i++) close(fds[i]);
}

/* The new process starts with the signal mask of the thread that called execve (abort() blocks signals). */
void os_signals_reset(void)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* ---------------------------------------------------------------- descriptors game code must not take */
/* Linux's other ways to take a descriptor from the host, each wrapped like close() (--wrap=close_range,dup2,
   dup3,syscall; close() itself and the exit calls are session/guard.cpp's): close_range over a host number, dup2/dup3
   onto one (the host's file replaced by the game's), and syscall() with those numbers. Inside a guarded call each is a
   crash of the library, rolled back, the message naming the call; on a thread of the game's it is refused (-1, EBADF).
   A raw syscall instruction gets past them: the host's check of its descriptors each frame re-opens what that lost
   (develop.cpp). */
static int refuse_host_fd(const char *what, int fd, void *caller)
{
    os_guard_name_call("%s of host descriptor %d", what, fd);
    if (os_guard_in_call()) os_guard_game_exit(caller);
    errno = EBADF;
    return -1;
}

extern "C" {
__attribute__((visibility("default"), noinline)) int __wrap_close_range(unsigned lo, unsigned hi, int flags)
{
    int fd = os_fd_host_in(lo, hi);
    if (fd >= 0) return refuse_host_fd("close_range", fd, __builtin_return_address(0));
    return (int)syscall(SYS_close_range, lo, hi, flags);
}

__attribute__((visibility("default"), noinline)) int __wrap_dup2(int from, int to)
{
    if (from != to && os_fd_is_host(to)) return refuse_host_fd("dup2 onto", to, __builtin_return_address(0));
    return dup2(from, to);
}

__attribute__((visibility("default"), noinline)) int __wrap_dup3(int from, int to, int flags)
{
    if (os_fd_is_host(to)) return refuse_host_fd("dup3 onto", to, __builtin_return_address(0));
    return dup3(from, to, flags);
}

/* syscall(n, ...): the six argument registers passed on as they came (what libc's syscall() does too) */
__attribute__((visibility("default"), noinline)) long __wrap_syscall(long n, ...)
{
    va_list ap;
    va_start(ap, n);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    int fd = -1;
    if (n == SYS_close && os_fd_is_host((int)a[0])) fd = (int)a[0];
    else if (n == SYS_close_range) fd = os_fd_host_in((unsigned)a[0], (unsigned)a[1]);
#ifdef SYS_dup2
    else if (n == SYS_dup2 && a[0] != a[1] && os_fd_is_host((int)a[1])) fd = (int)a[1];
#endif
    else if (n == SYS_dup3 && os_fd_is_host((int)a[1])) fd = (int)a[1];
    if (fd >= 0)
        return refuse_host_fd(n == SYS_close         ? "syscall(close)"
                              : n == SYS_close_range ? "syscall(close_range)"
                                                     : "syscall(dup) onto",
                              fd, __builtin_return_address(0));
    return syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
}
