/* Tests for os_write_file_atomic (platform/os/os_linux.cpp): a writer killed at any point of its save leaves the
   file it was replacing exactly as it was, and a writer that finishes leaves exactly the new bytes. Every save
   the host makes of a player's data, a recording, a tweak written back or a build key goes through it.

   Each case forks a writer that saves 1 MiB of new bytes over a file holding old ones, and SIGKILLs itself at
   one point of the save: before its first write, half way through the bytes, after the write (at the flush),
   and after the flush (at the rename). The calls are interposed here: this program defines write, fsync and
   rename, which os_linux.cpp (compiled into it) calls; each passes through to the system call until the point
   the case names. A save that wrote in place, or renamed before its bytes were all out, fails a case. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "os/os_linux.cpp"
#include "os/os_common.cpp"

#include <string>
#include <vector>

enum KillPoint { KILL_NONE, KILL_BEFORE_WRITE, KILL_MID_WRITE, KILL_AT_FSYNC, KILL_AT_RENAME };
static KillPoint g_kill_at = KILL_NONE;   /* set in the forked writer only */
static int       g_saving = 0;            /* only the save under test is interrupted, not the test's own I/O */

static void die_here(void) { kill(getpid(), SIGKILL); for (;;) pause(); }

extern "C" ssize_t write(int fd, const void *buf, size_t n)
{
    if (g_saving && g_kill_at == KILL_BEFORE_WRITE) die_here();
    if (g_saving && g_kill_at == KILL_MID_WRITE && n > 1) {
        syscall(SYS_write, fd, buf, n / 2);   /* half the bytes reach the file, then the writer dies */
        die_here();
    }
    return syscall(SYS_write, fd, buf, n);
}

extern "C" int fsync(int fd)
{
    if (g_saving && g_kill_at == KILL_AT_FSYNC) die_here();
    return (int)syscall(SYS_fsync, fd);
}

extern "C" int rename(const char *from, const char *to)
{
    if (g_saving && g_kill_at == KILL_AT_RENAME) die_here();
    return (int)syscall(SYS_rename, from, to);
}

static std::string read_all(const char *path)
{
    std::string s;
    FILE *f = fopen(path, "rb");
    if (!f) return "<missing>";
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

static std::string g_dir;

/* Saves `now` over a file holding `old` in a forked writer that dies at `at`; returns the file's bytes after. */
static std::string save_killed_at(KillPoint at, const std::string &old, const std::string &now, int *writer_killed)
{
    std::string path = g_dir + "/save.bin";
    FILE *f = fopen(path.c_str(), "wb");
    fwrite(old.data(), 1, old.size(), f);
    fclose(f);
    pid_t pid = fork();
    if (pid == 0) {
        g_kill_at = at;
        g_saving = 1;
        int ok = os_write_file_atomic(path.c_str(), now.data(), now.size());
        g_saving = 0;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    *writer_killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    return read_all(path.c_str());
}

static std::string bytes(size_t n, uint32_t seed)
{
    std::string s(n, '\0');
    for (size_t i = 0; i < n; i++) { seed = seed * 1664525u + 1013904223u; s[i] = (char)(seed >> 24); }
    return s;
}

static void test_killed_writer_leaves_the_old_file(void)
{
    const std::string old = bytes(300000, 1), now = bytes(1 << 20, 2);
    const struct { KillPoint at; const char *name; } POINTS[] = {
        { KILL_BEFORE_WRITE, "before the first write" },
        { KILL_MID_WRITE, "half way through the bytes" },
        { KILL_AT_FSYNC, "after the write, at the flush" },
        { KILL_AT_RENAME, "after the flush, at the rename" },
    };
    for (const auto &p : POINTS) {
        int killed = 0;
        std::string after = save_killed_at(p.at, old, now, &killed);
        TH_CHECK_MSG(killed, "the writer was not killed %s", p.name);
        TH_CHECK_MSG(after == old, "a writer killed %s left %zu bytes where the old %zu were (%s)", p.name, after.size(), old.size(),
                     after == now ? "the new bytes: the rename came too early" : "neither old nor new");
    }
}

static void test_finished_writer_leaves_the_new_file(void)
{
    const std::string old = bytes(300000, 3), now = bytes(1 << 20, 4);
    int killed = 0;
    std::string after = save_killed_at(KILL_NONE, old, now, &killed);
    TH_CHECK(!killed);
    TH_CHECK_MSG(after == now, "a finished save left %zu bytes, not the %zu written", after.size(), now.size());
    /* a save over a file that was not there, and an empty save */
    std::string fresh = g_dir + "/fresh.bin";
    TH_CHECK(os_write_file_atomic(fresh.c_str(), "abc", 3));
    TH_CHECK(read_all(fresh.c_str()) == "abc");
    TH_CHECK(os_write_file_atomic(fresh.c_str(), "", 0));
    TH_CHECK(read_all(fresh.c_str()).empty());
    /* a folder that does not exist: refused with a reason, nothing created */
    std::string nowhere = g_dir + "/no/such/folder/x.bin";
    TH_CHECK(!os_write_file_atomic(nowhere.c_str(), "abc", 3));
    TH_CHECK(os_error_text()[0] != 0);
}

int main(void)
{
    char dir[] = "/tmp/test_os_atomic_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    g_dir = dir;
    TH_RUN(test_killed_writer_leaves_the_old_file);
    TH_RUN(test_finished_writer_leaves_the_new_file);
    std::string cmd = "rm -rf '" + g_dir + "'";
    if (system(cmd.c_str()) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return th_test_finish();
}
