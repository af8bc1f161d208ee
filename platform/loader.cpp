/* loader.cpp - the Linux side of live reload: watch the sources, build the game library in a child
   process, and load/unload versioned copies of it. The frame loop never waits on any of this. */
#include "host.h"

#include <dirent.h>
#include <elf.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* ================================================================ file watcher (inotify) */
#define WATCH_DEBOUNCE_MS 30.0
#define WATCH_MAX_DIRS 512

static struct {
    int    fd;
    int    wd[WATCH_MAX_DIRS];
    char   dir[WATCH_MAX_DIRS][HOST_PATH];
    int    dir_count;
    char   root[HOST_PATH];
    FileChanges pending;
    double last_event_ms;
} W = { -1, {0}, {{0}}, 0, {0}, {0, 0, 0, 0, {{0}}}, 0 };

static void watch_add_tree(const char *dir)
{
    if (W.dir_count >= WATCH_MAX_DIRS) return;
    uint32_t mask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB;
    int wd = inotify_add_watch(W.fd, dir, mask);
    if (wd < 0) return;
    for (int i = 0; i < W.dir_count; i++) if (W.wd[i] == wd) return;  /* already watched */
    W.wd[W.dir_count] = wd;
    snprintf(W.dir[W.dir_count], HOST_PATH, "%s", dir);
    W.dir_count++;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[HOST_PATH];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) watch_add_tree(sub);
    }
    closedir(d);
}

int watch_init(const char *root)
{
    snprintf(W.root, sizeof W.root, "%s", root);
    W.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (W.fd < 0) {
        host_log(LOG_ERROR, "watch: inotify_init1 failed: %s", strerror(errno));
        return 0;
    }
    const char *trees[] = { "game", "tinyheaders", "assets", "build/game" };
    for (const char *t : trees) {
        char p[HOST_PATH];
        snprintf(p, sizeof p, "%s/%s", root, t);
        mkdir(p, 0755);
        watch_add_tree(p);
    }
    return 1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* Editors' swap and backup files are not changes to the project. */
static int is_noise(const char *name)
{
    return name[0] == '.' || ends_with(name, "~") || ends_with(name, ".swp") || ends_with(name, ".swx") ||
           ends_with(name, ".tmp") || strcmp(name, "4913") == 0;
}

static int is_code(const char *name)
{
    return ends_with(name, ".cpp") || ends_with(name, ".c") || ends_with(name, ".h") ||
           ends_with(name, ".hpp") || ends_with(name, ".inl");
}

static void watch_note(const char *dir, const char *name, uint32_t mask)
{
    char path[HOST_PATH];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((mask & IN_ISDIR) && (mask & (IN_CREATE | IN_MOVED_TO))) {
        /* a folder moved in arrives whole: its files were never seen being written */
        watch_add_tree(path);
        DIR *d = opendir(path);
        if (!d) return;
        struct dirent *e;
        while ((e = readdir(d))) if (e->d_name[0] != '.') watch_note(path, e->d_name, IN_MOVED_TO | (e->d_type == DT_DIR ? IN_ISDIR : 0));
        closedir(d);
        return;
    }
    if (mask & IN_ISDIR) return;
    char libdir[HOST_PATH];
    snprintf(libdir, sizeof libdir, "%s/build/game", W.root);
    FileChanges *p = &W.pending;
    if (strcmp(dir, libdir) == 0) {
        if (strcmp(name, "libgame.so") == 0 && (mask & IN_MOVED_TO)) p->library = 1;
        W.last_event_ms = now_ms();
        return;
    }
    if (is_noise(name)) return;
    if (strstr(path, "/assets/")) p->assets = 1;
    else if (is_code(name)) p->code = 1;
    else return;
    for (int i = 0; i < p->count; i++) if (strcmp(p->paths[i], path) == 0) { W.last_event_ms = now_ms(); return; }
    if (p->count < HOST_MAX_CHANGES) snprintf(p->paths[p->count++], HOST_PATH, "%s", path);
    W.last_event_ms = now_ms();
}

int watch_poll(FileChanges *out)
{
    if (W.fd < 0) return 0;
    char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t n = read(W.fd, buf, sizeof buf);
        if (n <= 0) break;
        for (char *q = buf; q < buf + n;) {
            struct inotify_event *e = (struct inotify_event *)q;
            for (int i = 0; i < W.dir_count; i++)
                if (W.wd[i] == e->wd && e->len) { watch_note(W.dir[i], e->name, e->mask); break; }
            q += sizeof(struct inotify_event) + e->len;
        }
    }
    FileChanges *p = &W.pending;
    if ((p->count || p->library) && now_ms() - W.last_event_ms >= WATCH_DEBOUNCE_MS) {
        *out = *p;
        memset(p, 0, sizeof *p);
        return 1;
    }
    return 0;
}

void watch_shutdown(void)
{
    if (W.fd >= 0) close(W.fd);
    W.fd = -1;
}

/* ================================================================ build runner */
static struct {
    pid_t  pid;
    int    out_fd;
    int    queued;
    double start_ms;
    char   root[HOST_PATH];
    char   output[65536];
    size_t output_len;
} BR = { 0, -1, 0, 0, {0}, {0}, 0 };

static void build_spawn(void)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) { host_log(LOG_ERROR, "build: pipe failed: %s", strerror(errno)); return; }
    char script[HOST_PATH];
    snprintf(script, sizeof script, "%s/build.sh", BR.root);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    /* at a lower priority: on a machine with few cores the compiler must not take the frame loop's time */
    char *argv[] = { (char *)"nice", (char *)"-n", (char *)"10", (char *)"bash", script, (char *)"game", NULL };
    tweak_build_started();
    pid_t pid;
    int rc = posix_spawnp(&pid, "nice", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        host_log(LOG_ERROR, "build: cannot start %s: %s", script, strerror(rc));
        return;
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    BR.pid = pid;
    BR.out_fd = fds[0];
    BR.start_ms = now_ms();
    BR.output_len = 0;
    BR.output[0] = 0;
    host_event("build_start", "\"pid\":%d", (int)pid);
}

void build_start(const char *root)
{
    snprintf(BR.root, sizeof BR.root, "%s", root);
    if (BR.pid) { BR.queued = 1; return; }  /* the save that arrives mid-build wins: one more build */
    build_spawn();
}

int build_running(void) { return BR.pid != 0; }

static void build_drain(void)
{
    for (;;) {
        char tmp[4096];
        ssize_t n = read(BR.out_fd, tmp, sizeof tmp);
        if (n <= 0) break;
        size_t room = sizeof BR.output - 1 - BR.output_len;
        if ((size_t)n > room) n = (ssize_t)room;
        memcpy(BR.output + BR.output_len, tmp, (size_t)n);
        BR.output_len += (size_t)n;
        BR.output[BR.output_len] = 0;
    }
}

/* Compiler diagnostics "file:line:col: error: message" become one JSON object each. */
static int build_report_errors(char *json, size_t cap)
{
    int count = 0;
    size_t len = 0;
    json[0] = 0;
    const char *line = BR.output;
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
    if (!BR.pid) return;
    build_drain();
    int status;
    pid_t r = waitpid(BR.pid, &status, WNOHANG);
    if (r == 0) return;
    build_drain();
    close(BR.out_fd);
    BR.out_fd = -1;
    BR.pid = 0;
    out->finished = 1;
    out->ok = r > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    out->ms = now_ms() - BR.start_ms;
    static char errors[8192];
    out->error_count = build_report_errors(errors, sizeof errors);
    if (!out->ok && out->error_count == 0) out->error_count = 1;
    snprintf(out->output, sizeof out->output, "%s", BR.output);
    char esc[4096];
    host_json_escape(BR.output, esc, sizeof esc);
    host_event("build_end", "\"ok\":%s,\"ms\":%.1f,\"error_count\":%d,\"errors\":[%s],\"output\":\"%s\",\"queued\":%s",
               out->ok ? "true" : "false", out->ms, out->error_count, errors, esc, BR.queued ? "true" : "false");
    if (BR.queued) {
        /* A newer save arrived while building: this result is already stale. */
        BR.queued = 0;
        out->finished = 0;
        build_spawn();
    }
}

void build_shutdown(void)
{
    if (BR.pid) {
        kill(BR.pid, SIGTERM);
        waitpid(BR.pid, NULL, 0);
        BR.pid = 0;
    }
    if (BR.out_fd >= 0) close(BR.out_fd);
    BR.out_fd = -1;
}

/* ================================================================ library loading */
const char *library_built_path(const char *root)
{
    static char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/build/game/libgame.so", root);
    return p;
}

static int copy_file(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0) return 0;
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    if (out < 0) { close(in); return 0; }
    char buf[1 << 16];
    ssize_t n;
    int ok = 1;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) { ok = 0; break; }
    if (n < 0) ok = 0;
    close(in);
    close(out);
    return ok;
}

/* A library cut short (a build killed half way, a copy still running) must not reach dlopen: every
   loadable segment and the section table have to lie inside the file. */
static int library_complete(const char *path, char *err, size_t errcap)
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
        snprintf(err, errcap, "%s: truncated (%llu bytes; its headers reach past the end)", path, (unsigned long long)size);
        fclose(f);
        return 0;
    }
    for (int i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize), SEEK_SET) != 0 || fread(&ph, sizeof ph, 1, f) != 1) {
            snprintf(err, errcap, "%s: unreadable program header %d", path, i);
            fclose(f);
            return 0;
        }
        if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > size) {
            snprintf(err, errcap, "%s: truncated (%llu bytes; segment %d needs %llu)", path, (unsigned long long)size, i,
                     (unsigned long long)(ph.p_offset + ph.p_filesz));
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    return 1;
}

int library_open(const char *src, int version, GameLib *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (!library_complete(src, err, errcap)) return 0;
    /* dlopen of a path it has seen returns the old image: every load gets a fresh name. */
    char dir[HOST_PATH];
    snprintf(dir, sizeof dir, "%s/build/game/loaded", host_root());
    mkdir(dir, 0755);
    snprintf(out->path, sizeof out->path, "%s/libgame.%d.v%d.so", dir, (int)getpid(), version);
    if (!copy_file(src, out->path)) {
        snprintf(err, errcap, "%s: cannot copy to %s: %s", src, out->path, strerror(errno));
        return 0;
    }
    out->handle = dlopen(out->path, RTLD_NOW | RTLD_LOCAL);
    if (!out->handle) {
        snprintf(err, errcap, "%s: dlopen failed: %s", src, dlerror());
        unlink(out->path);
        return 0;
    }
    game_get_api_fn *get = (game_get_api_fn *)dlsym(out->handle, GAME_ENTRY_SYMBOL);
    if (!get) {
        snprintf(err, errcap, "%s: no entry point %s()", src, GAME_ENTRY_SYMBOL);
        dlclose(out->handle);
        unlink(out->path);
        out->handle = NULL;
        return 0;
    }
    out->api = get();
    out->version = version;
    if (out->api.api_version != GAME_API_VERSION) {
        snprintf(err, errcap, "%s: built against contract v%u, this host speaks v%u - rebuild the host "
                 "(./build.sh host) and restart it", src, out->api.api_version, GAME_API_VERSION);
        dlclose(out->handle);
        unlink(out->path);
        out->handle = NULL;
        return 0;
    }
    if (!out->api.update || !out->api.render || !out->api.load) {
        snprintf(err, errcap, "%s: game_get_api() returned a NULL load/update/render", src);
        dlclose(out->handle);
        unlink(out->path);
        out->handle = NULL;
        return 0;
    }
    return 1;
}

int library_is_mapped(const char *path)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    char line[HOST_PATH + 256];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, path) != NULL;
    fclose(f);
    return found;
}

int library_close(GameLib *lib, char *err, size_t errcap)
{
    if (!lib->handle) return 1;
    dlclose(lib->handle);
    lib->handle = NULL;
    int still = library_is_mapped(lib->path);
    unlink(lib->path);
    if (still) {
        snprintf(err, errcap, "%s is still mapped after dlclose (a STB_GNU_UNIQUE symbol, a thread_local or a "
                 "static destructor in the game keeps it alive): its code and globals linger", lib->path);
        return 0;
    }
    return 1;
}
