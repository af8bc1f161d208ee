/* plan.cpp - the game build's plan: what `build/host --build-game` (./build.sh game) and a save both build from.

   A game's roots are the .cpp files of its folder that no other .cpp there #includes (a game whose game.cpp
   #includes all the others has one root). They are packed, in byte order, into chunks of at most
   GAME_CHUNK_LINES lines (400; a bigger file is a chunk of its own); each chunk is one translation unit
   (<game build>/chunks/chunk-N.cpp, a list of #includes, written only when its text changed) with its own object,
   so a save recompiles the chunks whose inputs changed (build.cpp) and links them with the others' objects.
   The files that hand out game_get_api (GAME_GET_API) are the entries: only their chunks read the description of
   the state's types (its templates cost every chunk that includes it about 20 ms at NEON SWARM's 111 fields); the
   others define GAME_NO_STATE_TYPES. When none is found, or one is a .cpp another includes, every chunk reads it.
   With clang, those others read game_engine.h precompiled (::pch in compile.cmd, <game build>/chunks/engine.h made
   into engine.pch by build.cpp before them; GAME_PCH=0 turns it off).

   Two parts are cached by the content of their inputs (a key beside each): build/tinyheaders/tinyheaders.o,
   platform/include/tinyheaders.cpp at -O2 (one for every game folder), and the layout stamp with
   <game build>/state_types.inc (tools/layout_stamp.py). The commands are written to <game build>/compile.cmd,
   one argument a line, which build.cpp runs (and, for editors' tools, <game build>/compile_commands.json: each .cpp
   of the folder with the chunks' flags); a save plans again in the host when the plan may have changed (a .cpp
   added or removed, GAME_GET_API moved, the environment changed). The slow parts (the -O2 compile) are never
   run inside a frame: plan_game's quick form answers PLAN_SLOW, and the save runs `host --build-game` instead. */
#include "live.h"
#include "game_flags.h"

#include <stdlib.h>
#include <string.h>

#define PLAN_MAX_WORDS 192

/* A command as words (argv), kept in one buffer. */
typedef struct Words { char text[16384]; size_t len; int at[PLAN_MAX_WORDS]; int n; } Words;

static void words_add(Words *w, const char *s)
{
    size_t n = strlen(s);
    if (w->n == PLAN_MAX_WORDS || w->len + n + 1 > sizeof w->text) return;
    w->at[w->n++] = (int)w->len;
    memcpy(w->text + w->len, s, n + 1);
    w->len += n + 1;
}

static void words_split(Words *w, const char *s)   /* words at blanks, as the shell splits a variable */
{
    char word[HOST_PATH];
    while (*s) {
        while (*s == ' ' || *s == '\t') s++;
        size_t n = 0;
        while (*s && *s != ' ' && *s != '\t') { if (n + 1 < sizeof word) word[n++] = *s; s++; }
        word[n] = 0;
        if (n) words_add(w, word);
    }
}

static const char *word(const Words *w, int i) { return w->text + w->at[i]; }

static void words_argv(const Words *w, const char **argv)
{
    for (int i = 0; i < w->n; i++) argv[i] = word(w, i);
    argv[w->n] = NULL;
}

static void words_lines(const Words *w, KeyText *k)
{
    for (int i = 0; i < w->n; i++) { key_add(k, word(w, i), strlen(word(w, i))); key_add(k, "\n", 1); }
}

/* ---------------------------------------------------------------- the game's roots, chunks and entries */
static void note_cpp(void *ctx, const char *name, int is_dir)
{
    GameSources *s = (GameSources *)ctx;
    size_t len = strlen(name);
    if (is_dir || name[0] == '.' || len < 5 || strcmp(name + len - 4, ".cpp") != 0) return;
    if (s->count == PLAN_MAX_FILES || len >= sizeof s->name[0]) { s->overflow = 1; return; }
    memcpy(s->name[s->count++], name, len + 1);
}

/* Each "#include "x.cpp"" line of text (blanks allowed around '#'): the file's name without its folder is
   marked as included. */
static void mark_included(GameSources *s, const char *text)
{
    for (const char *p = text; *p;) {
        const char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == '#') {
            q++;
            while (*q == ' ' || *q == '\t') q++;
            if (!strncmp(q, "include", 7)) {
                q += 7;
                while (*q == ' ' || *q == '\t') q++;
                const char *end = *q == '"' ? strchr(q + 1, '"') : NULL;
                const char *nl = strchr(q, '\n');
                if (end && (!nl || end < nl) && end - q > 4 && !strncmp(end - 4, ".cpp", 4)) {
                    const char *base = end;
                    while (base > q + 1 && base[-1] != '/') base--;
                    size_t n = (size_t)(end - base);
                    for (int i = 0; i < s->count; i++)
                        if (strlen(s->name[i]) == n && !strncmp(s->name[i], base, n)) s->root[i] = 0;
                }
            }
        }
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
}

static void sort_names(GameSources *s)   /* insertion sort, byte order (as the shell's LC_ALL=C glob) */
{
    for (int i = 1; i < s->count; i++)
        for (int j = i; j > 0 && strcmp(s->name[j - 1], s->name[j]) > 0; j--) {
            char t[sizeof s->name[0]];
            memcpy(t, s->name[j], sizeof t);
            memcpy(s->name[j], s->name[j - 1], sizeof t);
            memcpy(s->name[j - 1], t, sizeof t);
        }
}

int plan_sources(const char *folder, GameSources *s)
{
    memset(s, 0, sizeof *s);
    if (!os_list_dir(folder, note_cpp, s) || s->overflow) return 0;
    sort_names(s);
    for (int i = 0; i < s->count; i++) s->root[i] = 1;
    for (int i = 0; i < s->count; i++) {
        char p[HOST_PATH];
        snprintf(p, sizeof p, "%s/%s", folder, s->name[i]);
        size_t len = 0;
        char *text = os_read_file(p, &len, (size_t)64 << 20);
        if (!text) return 0;
        for (size_t k = 0; k < len; k++) s->lines[i] += text[k] == '\n';
        s->entry[i] = build_says_entry(text, len);
        mark_included(s, text);
        free(text);
    }
    return 1;
}

void plan_chunks(const GameSources *s, int max_lines, GameChunks *c)
{
    memset(c, 0, sizeof *c);
    int lines = 0;
    for (int i = 0; i < s->count; i++) {
        if (!s->root[i]) continue;
        if (c->root_count > c->first[c->count] && lines + s->lines[i] > max_lines && c->count + 1 < PLAN_MAX_CHUNKS) {
            c->first[++c->count] = c->root_count;
            lines = 0;
        }
        c->roots[c->root_count++] = i;
        lines += s->lines[i];
    }
    if (c->root_count) c->count++;
    c->first[c->count] = c->root_count;
    /* the entries: every file that says GAME_GET_API, each a root; else every chunk reads the description */
    c->entries[0] = 0;
    for (int i = 0; i < s->count; i++) {
        if (!s->entry[i]) continue;
        if (!s->root[i]) { c->entries[0] = 0; break; }
        size_t n = strlen(c->entries);
        snprintf(c->entries + n, sizeof c->entries - n, "%s/", s->name[i]);
    }
}

/* Chunk k's text: a translation unit of #includes (found through -iquote <game folder>). */
int plan_chunk_text(const GameSources *s, const GameChunks *c, int k, char *out, size_t cap)
{
    int has_entry = 0;
    for (int r = c->first[k]; r < c->first[k + 1]; r++) has_entry |= s->entry[c->roots[r]];
    size_t len = (size_t)snprintf(out, cap, "/* chunk %d of the game (written by the host's game build, platform/live/"
                                  "plan.cpp; the game's files are included through -iquote <game folder>) */\n", k);
    if (c->entries[0] && !has_entry && len < cap)
        len += (size_t)snprintf(out + len, cap - len, "#define GAME_NO_STATE_TYPES   /* game_get_api is in another "
                                "chunk: game_engine.h skips state_types.inc */\n");
    for (int r = c->first[k]; r < c->first[k + 1] && len < cap; r++)
        len += (size_t)snprintf(out + len, cap - len, "#include \"%s\"\n", s->name[c->roots[r]]);
    return len < cap;
}

/* ---------------------------------------------------------------- the environment of a plan */
typedef struct PlanEnv {
    const char *root;
    char  game_rel[HOST_PATH];    /* the game folder as the commands name it: relative to the project when below it */
    char  build_rel[HOST_PATH];   /* its build folder, the same way */
    char  cxx[256];               /* GAME_CXX, else default_cxx() */
    Words cxx_words, flags;       /* the compiler (split as the shell would), the flags every game compile has */
    int   chunk_lines, clang;
    int   pch;                    /* the chunks without game_get_api read game_engine.h precompiled (plan_pch) */
} PlanEnv;

/* The next folder of PATH's list at *p into dir (empty for an empty entry), and *p past it; 0 at the list's end */
static int next_path_dir(const char **p, char *dir, size_t cap)
{
    if (!**p) return 0;
    const char *end = strchr(*p, ':');
    size_t n = end ? (size_t)(end - *p) : strlen(*p);
    snprintf(dir, cap, "%.*s", (int)n, *p);
    *p += n + (end ? 1 : 0);
    return 1;
}

/* The file `name` names: itself when it holds a '/', else the first of PATH's folders that has it. 0 if none. */
int plan_which(const char *name, char *out, size_t cap)
{
    if (strchr(name, '/')) { snprintf(out, cap, "%s", name); return os_is_file(name); }
    const char *path = getenv("PATH");
    char dir[HOST_PATH];
    for (const char *p = path ? path : ""; next_path_dir(&p, dir, sizeof dir);) {
        snprintf(out, cap, "%s/%s", dir, name);
        if (dir[0] && os_is_file(out)) return 1;
    }
    return 0;
}

/* 1 when a command's word is ccache (by name or by path) */
int plan_is_ccache(const char *word)
{
    const char *slash = strrchr(word, '/');
    return !strcmp(slash ? slash + 1 : word, "ccache");
}

static int on_path(const char *name)
{
    char f[HOST_PATH];
    return plan_which(name, f, sizeof f);
}

/* The launcher of the game's compiles: ENGINE_COMPILER_LAUNCHER when set (even empty), else ccache when installed */
static void launcher(Words *w)
{
    const char *l = getenv("ENGINE_COMPILER_LAUNCHER");
    if (l) words_split(w, l);
    else if (on_path("ccache")) words_add(w, "ccache");
}

/* A precompiled game_engine.h (<game build>/chunks/engine.pch) for the chunks without game_get_api: a save's compile
   reads the engine's headers and the game's state.h from it instead of parsing them (about a fifth of a chunk's
   compile). With clang, run directly or through ccache (a compiler that runs elsewhere, distcc or icecream, would
   not have the file); GAME_PCH=0 turns it off. */
static int plan_pch(int clang)
{
    const char *want = getenv("GAME_PCH");
    if (!clang || (want && !strcmp(want, "0"))) return 0;
    static Words l;
    memset(&l, 0, sizeof l);
    launcher(&l);
    if (l.n == 0) return 1;
    return l.n == 1 && plan_is_ccache(word(&l, 0));
}

static void relative_to(const char *root, const char *path, char *out, size_t cap)
{
    size_t n = strlen(root);
    if (!strncmp(path, root, n) && path[n] == '/') snprintf(out, cap, "%s", path + n + 1);
    else snprintf(out, cap, "%s", path);
}

/* Of the names "clang++-N" listed, the greatest N into *ctx; any other name is passed over */
static void note_clang_version(void *ctx, const char *name, int is_dir)
{
    int *newest = (int *)ctx, n = 0;
    if (is_dir || strncmp(name, "clang++-", 8) != 0 || !name[8]) return;
    for (const char *c = name + 8; *c; c++) {
        if (*c < '0' || *c > '9' || n > 1000) return;
        n = n * 10 + (*c - '0');
    }
    if (n > *newest) *newest = n;
}

/* The game's compiler when GAME_CXX names none: where PATH finds a clang++, the newest clang++-N in its folder
   unless that is the clang++ itself (a distro installs its clangs side by side there, the default one also as
   clang++; a newer one compiles a save's chunk faster at -O0: Debian 12's clang 14, 19 and 22 took 86.7, 74.3 and
   69.1 ms of CPU for the sample's drone_update chunk, docs/design.md), else that clang++ (a wrapper of the user's
   own, earlier on PATH, stays theirs); with no clang++, the newest clang++-N on PATH; else g++. Looked up again
   only when PATH changes: its folders are long lists (a compiler installed while the host runs is taken after a
   restart). */
static const char *default_cxx(void)
{
    static char chosen[HOST_PATH], for_path[4096];
    const char *path = getenv("PATH");
    if (!path) path = "";
    if (chosen[0] && !strcmp(for_path, path)) return chosen;
    snprintf(for_path, sizeof for_path, "%s", path);
    char plain[HOST_PATH], dirs[HOST_PATH], plain_real[HOST_PATH] = "";
    int have_plain = plan_which("clang++", plain, sizeof plain);
    if (have_plain) {
        os_real_path(plain, plain_real, sizeof plain_real);
        snprintf(dirs, sizeof dirs, "%.*s", (int)(strrchr(plain, '/') - plain), plain);   /* plan_which: dir/name */
    }
    int newest = 0;
    char dir[HOST_PATH];
    if (have_plain) os_list_dir(dirs, note_clang_version, &newest);
    else for (const char *p = path; next_path_dir(&p, dir, sizeof dir);)
        if (dir[0]) os_list_dir(dir, note_clang_version, &newest);
    char name[HOST_PATH + 32], found[HOST_PATH], found_real[HOST_PATH] = "", by_name[HOST_PATH], by_real[HOST_PATH];
    snprintf(name, sizeof name, "%s/clang++-%d", have_plain ? dirs : "", newest);
    const char *bare = strrchr(name, '/') + 1;
    int have_newest = newest && plan_which(have_plain ? name : bare, found, sizeof found) &&
                      os_real_path(found, found_real, sizeof found_real);
    if (have_newest && (!have_plain || strcmp(found_real, plain_real) != 0)) {
        /* by name when PATH finds that one by it, else by its path */
        int same = plan_which(bare, by_name, sizeof by_name) && os_real_path(by_name, by_real, sizeof by_real) &&
                   !strcmp(by_real, found_real);
        snprintf(chosen, sizeof chosen, "%s", same ? bare : found);
    } else snprintf(chosen, sizeof chosen, "%s", have_plain ? "clang++" : "g++");
    return chosen;
}

static void plan_env(const char *root, PlanEnv *e)
{
    memset(e, 0, sizeof *e);
    e->root = root;
    char real[HOST_PATH];
    if (!os_real_path(root, real, sizeof real)) snprintf(real, sizeof real, "%s", root);
    relative_to(real, game_folder(), e->game_rel, sizeof e->game_rel);
    relative_to(real, game_build_folder(), e->build_rel, sizeof e->build_rel);
    const char *want = getenv("GAME_CXX");
    snprintf(e->cxx, sizeof e->cxx, "%s", want && want[0] ? want : default_cxx());
    words_split(&e->cxx_words, e->cxx);
    e->clang = strstr(e->cxx, "clang") != NULL;
    /* -gno-column-info: line tables without columns, 5 % fewer compiler instructions; crash reports need lines only.
       -gdwarf-4: addr2line (binutils 2.40) names a DWARF 5 line table's file 1 as file 0, the chunk.
       g++ marks some symbols STB_GNU_UNIQUE, which makes dlclose a no-op; clang never emits them. */
    words_split(&e->flags, ENGINE_COMMON_FLAGS " " ENGINE_DEV_CHECKS " -gno-column-info -gdwarf-4 -fPIC -fno-exceptions"
                           " -fno-rtti -fvisibility=hidden -fdiagnostics-color=never");
    if (!e->clang) words_add(&e->flags, "-fno-gnu-unique");
    const char *extra = getenv("GAME_EXTRA_FLAGS");
    if (extra) words_split(&e->flags, extra);
    const char *lines = getenv("GAME_CHUNK_LINES");
    e->chunk_lines = lines && atoi(lines) > 0 ? atoi(lines) : 400;
    e->pch = plan_pch(e->clang);
}

/* ---------------------------------------------------------------- the cached parts' keys */
static void key_file(KeyText *k, const char *root, const char *rel)   /* "|crc size path" */
{
    char p[HOST_PATH], line[HOST_PATH + 48];
    if (rel[0] == '/') snprintf(p, sizeof p, "%s", rel); else snprintf(p, sizeof p, "%s/%s", root, rel);
    uint32_t crc;
    unsigned long long size;
    if (!build_file_crc(p, &crc, &size, NULL)) return;
    int n = snprintf(line, sizeof line, "|%u %llu %s", crc, size, rel);
    if (n > 0 && (size_t)n < sizeof line) key_add(k, line, (size_t)n);
}

static void note_h(void *ctx, const char *name, int is_dir)
{
    GameSources *s = (GameSources *)ctx;   /* reused as a list of names */
    size_t len = strlen(name);
    if (is_dir || len < 3 || strcmp(name + len - 2, ".h") != 0 || s->count == PLAN_MAX_FILES) return;
    if (len < sizeof s->name[0]) memcpy(s->name[s->count++], name, len + 1);
}

static void key_headers(KeyText *k, const char *root)   /* game_api.h and every tinyheader, in byte order */
{
    key_file(k, root, "platform/include/game_api.h");
    static GameSources h;
    memset(&h, 0, sizeof h);
    char dir[HOST_PATH];
    snprintf(dir, sizeof dir, "%s/tinyheaders", root);
    os_list_dir(dir, note_h, &h);
    sort_names(&h);
    for (int i = 0; i < h.count; i++) {
        char rel[HOST_PATH];
        snprintf(rel, sizeof rel, "tinyheaders/%s", h.name[i]);
        key_file(k, root, rel);
    }
}

/* The keys of the environment `e` and the files there now: the tinyheader object's (the compiler, the flags, its
   sources), the layout stamp's but for state.h (the compiler, the script, the headers), and state.h's line. */
static void plan_keys(const PlanEnv *e, KeyText *th, KeyText *stamp, KeyText *state)
{
    key_add(th, e->cxx, strlen(e->cxx));
    for (int i = 0; i < e->flags.n; i++) {
        key_add(th, " ", 1);
        key_add(th, word(&e->flags, i), strlen(word(&e->flags, i)));
    }
    key_file(th, e->root, "platform/include/tinyheaders.cpp");
    key_headers(th, e->root);
    key_add(stamp, e->cxx, strlen(e->cxx));
    key_file(stamp, e->root, "tools/layout_stamp.py");
    key_headers(stamp, e->root);
    key_file(state, game_folder(), "state.h");   /* by its name alone: the key holds in a copy of the project */
    key_add(th, "\n", 1);
    key_add(stamp, "\n", 1);
    key_add(state, "\n", 1);
}

static int file_is(const char *path, const char *text)   /* the file holds exactly text */
{
    size_t len = 0;
    char *have = os_read_file(path, &len, 1 << 20);
    int same = have && text && len == strlen(text) && !memcmp(have, text, len);
    free(have);
    return same;
}

static void tiny_path(const char *root, const char *ext, char *out, size_t cap)
{
    snprintf(out, cap, "%s/build/tinyheaders/tinyheaders%s", root, ext);
}

static void layout_path(const char *ext, char *out, size_t cap)
{
    snprintf(out, cap, "%s/layout%s", game_build_folder(), ext);
}

/* What is cached and current for the environment of this process: PLAN_TINYHEADERS (the -O2 object is of the
   tinyheaders there now), PLAN_LAYOUT (the layout stamp's key matches but for state.h), PLAN_STATE (and state.h's). */
int plan_cached(const char *root)
{
    static PlanEnv e;
    plan_env(root, &e);
    KeyText th = { NULL, 0, 0 }, stamp = { NULL, 0, 0 }, state = { NULL, 0, 0 };
    plan_keys(&e, &th, &stamp, &state);
    char p[HOST_PATH], key[HOST_PATH];
    int have = 0;
    tiny_path(root, ".o", p, sizeof p);
    tiny_path(root, ".key", key, sizeof key);
    if (os_is_file(p) && file_is(key, th.s)) have |= PLAN_TINYHEADERS;
    layout_path(".stamp", p, sizeof p);
    layout_path(".key", key, sizeof key);
    KeyText both = { NULL, 0, 0 };
    key_add(&both, stamp.s, stamp.len);
    key_add(&both, state.s, state.len);
    char types[HOST_PATH];
    snprintf(types, sizeof types, "%s/state_types.inc", game_build_folder());
    size_t len = 0;
    char *kept = os_read_file(key, &len, 1 << 20);
    if (kept && os_is_file(p) && os_is_file(types) && !strncmp(kept, stamp.s, stamp.len)) {
        have |= PLAN_LAYOUT;
        if (!strcmp(kept, both.s)) have |= PLAN_STATE;
    }
    free(kept);
    free(th.s); free(stamp.s); free(state.s); free(both.s);
    return have;
}

/* After a stamp of the state.h whose line is `state` ("crc size"): the stamp and its key, for every later plan. */
void plan_keep_stamp(const char *root, unsigned long stamp, uint32_t state_crc, unsigned long long state_size)
{
    static PlanEnv e;
    plan_env(root, &e);
    KeyText th = { NULL, 0, 0 }, rest = { NULL, 0, 0 }, state = { NULL, 0, 0 };
    plan_keys(&e, &th, &rest, &state);
    char line[96], p[HOST_PATH];
    int n = snprintf(line, sizeof line, "|%u %llu state.h\n", state_crc, state_size);   /* as plan_keys has it */
    key_add(&rest, line, (size_t)n);
    n = snprintf(line, sizeof line, "%lu\n", stamp);
    layout_path(".stamp", p, sizeof p);
    int ok = rest.s && os_write_file_atomic(p, line, (size_t)n);
    layout_path(".key", p, sizeof p);
    if (!ok || !os_write_file_atomic(p, rest.s, rest.len)) os_remove_file(p);
    free(th.s); free(rest.s); free(state.s);
}

/* The tinyheader object's key, kept once it was compiled from the files there now. */
void plan_keep_tinyheaders(const char *root)
{
    static PlanEnv e;
    plan_env(root, &e);
    KeyText th = { NULL, 0, 0 }, rest = { NULL, 0, 0 }, state = { NULL, 0, 0 };
    plan_keys(&e, &th, &rest, &state);
    char key[HOST_PATH];
    tiny_path(root, ".key", key, sizeof key);
    if (!th.s || !os_write_file_atomic(key, th.s, th.len)) os_remove_file(key);
    free(th.s); free(rest.s); free(state.s);
}

/* ---------------------------------------------------------------- the commands */
/* argv run in the project's folder, waited for; its output (stdout and stderr) in out. The exit code, -1. */
static int run_in(const char *root, const char *const *argv, char *out, size_t cap)
{
    OsChild c;
    memset(&c, 0, sizeof c);
    out[0] = 0;
    if (!os_child_start_in(&c, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR, root)) {
        snprintf(out, cap, "game: cannot start %s: %s\n", argv[0], os_error_text());
        return -1;
    }
    size_t len = 0;
    for (;;) {
        char tmp[4096];
        int n = os_child_read(&c, tmp, sizeof tmp);
        if (n > 0) {
            size_t m = (size_t)n < cap - 1 - len ? (size_t)n : cap - 1 - len;
            memcpy(out + len, tmp, m);
            out[len += m] = 0;
            continue;
        }
        int code = -1, sig = 0, r = os_child_poll(&c, &code, &sig);
        if (r != 0) {
            while ((n = os_child_read(&c, tmp, sizeof tmp)) > 0 && len + (size_t)n < cap) {
                memcpy(out + len, tmp, (size_t)n);
                out[len += (size_t)n] = 0;
            }
            os_child_kill(&c);
            return r > 0 && !sig ? code : -1;
        }
        int fd = os_child_fd(&c);
        os_wait_readable(&fd, 1, 0.05);
    }
}

/* The layout stamp's command: the distro's python3 when there is one (a version manager's shim in front of it costs
   a few hundred ms a run, on the path of every state.h save). */
static void stamp_command(const PlanEnv *e, Words *w)
{
    char a[HOST_PATH];
    words_add(w, os_is_file("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
    words_add(w, "tools/layout_stamp.py");
    snprintf(a, sizeof a, "--types=%s/state_types.inc", e->build_rel);
    words_add(w, a);
    words_add(w, e->cxx);
    snprintf(a, sizeof a, "%s/state.h", e->game_rel);
    words_add(w, a);
    words_split(w, "-std=c++17 -Itinyheaders -Iplatform/include");
    snprintf(a, sizeof a, "-I%s", e->game_rel);
    words_add(w, a);
    words_add(w, "-DTH_MATH_NO_MATH_H");
}

static int compile_tinyheaders(const PlanEnv *e, char *out, size_t cap)
{
    Words w;
    memset(&w, 0, sizeof w);
    char tmp[HOST_PATH], obj[HOST_PATH], dir[HOST_PATH];
    snprintf(dir, sizeof dir, "%s/build/tinyheaders", e->root);
    os_make_dir(dir);
    snprintf(tmp, sizeof tmp, "build/tinyheaders/.tinyheaders.%d.o", os_pid());
    for (int i = 0; i < e->cxx_words.n; i++) words_add(&w, word(&e->cxx_words, i));
    for (int i = 0; i < e->flags.n; i++) words_add(&w, word(&e->flags, i));
    words_split(&w, "-O2 -c platform/include/tinyheaders.cpp -o");
    words_add(&w, tmp);
    const char *argv[PLAN_MAX_WORDS + 1];
    words_argv(&w, argv);
    /* the key of the files as they are before the compile: one saved during it makes the next plan compile again */
    KeyText th = { NULL, 0, 0 }, rest = { NULL, 0, 0 }, state = { NULL, 0, 0 };
    plan_keys(e, &th, &rest, &state);
    fprintf(stderr, "game: compiling the tinyheader implementations at -O2 (only when a tinyheader changed)\n");
    int ok = run_in(e->root, argv, out, cap) == 0;
    fputs(out, stderr);
    snprintf(dir, sizeof dir, "%s/%s", e->root, tmp);
    tiny_path(e->root, ".o", obj, sizeof obj);
    if (ok && !os_rename_file(dir, obj)) ok = 0;
    os_remove_file(dir);
    tiny_path(e->root, ".key", obj, sizeof obj);
    if (!ok || !th.s || !os_write_file_atomic(obj, th.s, th.len)) os_remove_file(obj);
    free(th.s); free(rest.s); free(state.s);
    return ok;
}

static int make_stamp(const PlanEnv *e, char *out, size_t cap)
{
    Words w;
    memset(&w, 0, sizeof w);
    stamp_command(e, &w);
    const char *argv[PLAN_MAX_WORDS + 1];
    words_argv(&w, argv);
    uint32_t crc = 0;
    unsigned long long size = 0;
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/state.h", game_folder());
    unsigned long stamp = 0;
    int ok = build_file_crc(p, &crc, &size, NULL) && run_in(e->root, argv, out, cap) == 0 &&
             build_stamp_parsed(out, &stamp);
    if (!ok) {
        fprintf(stderr, "%sgame: no layout stamp, so no library (the reason is above)\n", out);
        return 0;
    }
    plan_keep_stamp(e->root, stamp, crc, size);
    return 1;
}

/* A chunk's compiler and flags, without the launcher and the files; the layout stamp is layout.stamp's. */
static void compile_flags(const PlanEnv *e, Words *w)
{
    char a[HOST_PATH], p[HOST_PATH];
    for (int i = 0; i < e->cxx_words.n; i++) words_add(w, word(&e->cxx_words, i));
    for (int i = 0; i < e->flags.n; i++) words_add(w, word(&e->flags, i));
    words_add(w, "-O0");
    layout_path(".stamp", p, sizeof p);
    size_t len = 0;
    char *stamp = os_read_file(p, &len, 64);
    snprintf(a, sizeof a, "-DGAME_LAYOUT_HASH=%luu", stamp ? strtoul(stamp, NULL, 10) : 0ul);
    free(stamp);
    words_add(w, a);
    words_add(w, "-iquote");
    words_add(w, e->game_rel);
    snprintf(a, sizeof a, "-I%s", e->game_rel);
    words_add(w, a);
    snprintf(a, sizeof a, "-I%s", e->build_rel);
    words_add(w, a);
}

/* A chunk's compile: @SRC@, @OBJ@ and @DEP@ stand for its files, @PCH@ for the precompiled header's use (build.cpp:
   in the chunks without game_get_api). */
static void compile_command(const PlanEnv *e, Words *w)
{
    launcher(w);
    compile_flags(e, w);
    if (e->pch) words_add(w, "@PCH@");
    words_split(w, "-MMD -MF @DEP@ -c @SRC@ -o @OBJ@");
}

/* The precompiled header's compile: the chunks' compiler and flags (a mismatch would make clang refuse it), without
   its files' dates in it (-fno-pch-timestamp: the build's keys say when it is stale, by content). */
static void pch_command(const PlanEnv *e, Words *w)
{
    launcher(w);
    compile_flags(e, w);
    words_split(w, "-Xclang -fno-pch-timestamp -x c++-header -MMD -MF @DEP@ -c @SRC@ -o @OBJ@");
}

/* The words of the last line `clang -###` printed ("word" "word" ...); 0 when it is not such a line. */
static int driver_words(const char *out, Words *w)
{
    const char *line = out, *p = out;
    for (; *p; p++) if (*p == '\n' && p[1]) line = p + 1;
    char buf[HOST_PATH];
    for (p = line; *p && *p != '\n';) {
        while (*p == ' ') p++;
        if (*p != '"') return *p == 0 || *p == '\n' ? 1 : 0;
        size_t n = 0;
        for (p++; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1]) p++;
            if (n + 1 < sizeof buf) buf[n++] = *p;
        }
        if (*p != '"') return 0;
        p++;
        buf[n] = 0;
        words_add(w, buf);
    }
    return 1;
}

/* The linker a save's link runs: GAME_LINKER (mold, lld, gold, bfd) when set, else mold, else lld, else the
   compiler's own. Most of an lld link of a game is lld's start (it loads the LLVM library: about 80 ms of a 100 ms
   link here), where mold starts in about 20 ms and links the sample in under half of lld's time. Not gold by
   default: it puts read-only data in the code's segment, and the host tells a pointer into a string literal from
   one into code by the segment (platform/live/reload.cpp, report_image_pointers). */
static int choose_linker(char *out, size_t cap)
{
    const char *want = getenv("GAME_LINKER");
    if (want && want[0]) return snprintf(out, cap, "-fuse-ld=%s", want) > 0;
    const char *order[] = { "mold", "lld" };
    for (const char *name : order) {
        char exe[32];
        snprintf(exe, sizeof exe, "ld.%s", name);
        if (on_path(exe)) return snprintf(out, cap, "-fuse-ld=%s", name) > 0;
    }
    return 0;
}

/* The link: @OBJS@ stands for every chunk's object, @LIB@ for a temporary name (renamed into place: a reader never
   sees half a library). With clang, the linker itself, as the driver would run it (`-###` prints that command): the
   driver's own start is a third of the link's instructions; and without libstdc++: reading its symbols is a fifth
   of the link, and the host loads it anyway, so a game that calls into it finds it there when it is loaded. */
static void link_command(const PlanEnv *e, Words *w)
{
    /* exit() and its kin in game code go to the host's stand-ins (platform/session/guard.cpp): a crash, not a quit */
    static const char wrap[] = "-Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit,--wrap=close,"
                               "--wrap=close_range,--wrap=dup2,--wrap=dup3,--wrap=syscall";
    Words d;
    memset(&d, 0, sizeof d);
    char probe[HOST_PATH];
    snprintf(probe, sizeof probe, "%s/.probe.%d.o", e->build_rel, os_pid());
    for (int pass = 0; pass < 2; pass++) {   /* the command, then the probe's (an input that exists: -### leaves
                                                out one that does not) */
        Words *to = pass ? &d : w;
        for (int i = 0; i < e->cxx_words.n; i++) {
            words_add(to, word(&e->cxx_words, i));
            if (i == 0 && e->clang) words_add(to, "-nostdlib++");
        }
        words_add(to, "-shared");
        char ld[HOST_PATH] = "";
        if (choose_linker(ld, sizeof ld)) words_add(to, ld);
        /* mold links in a forked child by default and the command ends when that child says it is done: on a busy
           machine, one more process to be scheduled at the build's low priority before the library is there */
        if (!strcmp(ld, "-fuse-ld=mold")) words_add(to, "-Wl,--no-fork");
        words_add(to, wrap);
        words_add(to, pass ? probe : "@OBJS@");
        words_split(to, "build/tinyheaders/tinyheaders.o -o @LIB@");
    }
    if (!e->clang) return;
    words_add(&d, "-###");
    char p[HOST_PATH], out[16384];
    snprintf(p, sizeof p, "%s/%s", e->root, probe);
    if (!os_write_file_atomic(p, "", 0)) return;
    const char *argv[PLAN_MAX_WORDS + 1];
    words_argv(&d, argv);
    int ran = run_in(e->root, argv, out, sizeof out) == 0;
    os_remove_file(p);
    Words linker;
    memset(&linker, 0, sizeof linker);
    int at = -1;
    if (!ran || !driver_words(out, &linker) || linker.n <= 4) return;
    for (int i = 0; i < linker.n; i++) if (!strcmp(word(&linker, i), probe)) at = i;
    if (at < 0) return;
    memset(w, 0, sizeof *w);
    for (int i = 0; i < linker.n; i++) words_add(w, i == at ? "@OBJS@" : word(&linker, i));
}

typedef struct OldChunks { const char *dir; int count; } OldChunks;

static void remove_old_chunk(void *ctx, const char *name, int is_dir)   /* chunk-N.* with N past the plan's */
{
    const OldChunks *o = (const OldChunks *)ctx;
    char *end = NULL;
    if (is_dir || strncmp(name, "chunk-", 6) != 0 || name[6] < '0' || name[6] > '9') return;
    long k = strtol(name + 6, &end, 10);
    if (*end != '.' || k < o->count) return;
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/%s", o->dir, name);
    os_remove_file(p);
}

/* Chunk files of this plan written (when their text changed: an unchanged file keeps its date), those of a
   longer plan before it removed. */
static int write_chunks(const GameSources *s, const GameChunks *c, int pch, char *msg, size_t cap)
{
    char dir[HOST_PATH], p[HOST_PATH], text[16384];
    snprintf(dir, sizeof dir, "%s/chunks", game_build_folder());
    os_make_dir(dir);
    for (int k = 0; k < c->count; k++) {
        snprintf(p, sizeof p, "%s/chunk-%d.cpp", dir, k);
        if (!plan_chunk_text(s, c, k, text, sizeof text)) {
            snprintf(msg, cap, "game: chunk %d is too long\n", k);
            return 0;
        }
        if (!file_is(p, text) && !os_write_file_atomic(p, text, strlen(text))) {
            snprintf(msg, cap, "game: cannot write %s: %s\n", p, os_error_text());
            return 0;
        }
    }
    OldChunks old = { dir, c->count };
    os_list_dir(dir, remove_old_chunk, &old);
    if (!pch) return 1;
    static const char engine[] =
        "/* game_engine.h as the chunks without game_get_api read it, precompiled (written by the host's game build,\n"
        "   platform/live/plan.cpp) */\n#define GAME_NO_STATE_TYPES\n#include \"game_engine.h\"\n";
    snprintf(p, sizeof p, "%s/engine.h", dir);
    if (!file_is(p, engine) && !os_write_file_atomic(p, engine, sizeof engine - 1)) {
        snprintf(msg, cap, "game: cannot write %s: %s\n", p, os_error_text());
        return 0;
    }
    return 1;
}

static void cmd_line(KeyText *k, const char *a, const char *b)
{
    key_add(k, a, strlen(a));
    key_add(k, b, strlen(b));
    key_add(k, "\n", 1);
}

/* compile.cmd: the plan as build.cpp reads it (one argument a line; "::" lines name what the plan was made from:
   the environment, the game's .cpp files, the entries; then the chunks and the three commands). */
static int write_commands(const PlanEnv *e, const GameSources *s, const GameChunks *c, char *msg, size_t cap)
{
    KeyText k = { NULL, 0, 0 };
    cmd_line(&k, "# the game library's compile and link, planned by the host (platform/live/plan.cpp); ",
             "one argument a line");
    const char *env[] = { "GAME_CXX", "GAME_EXTRA_FLAGS", "GAME_CHUNK_LINES", "GAME_LINKER", "GAME_PCH" };
    for (const char *name : env) {
        char line[HOST_PATH];
        const char *v = getenv(name);
        if (!strcmp(name, "GAME_CHUNK_LINES")) snprintf(line, sizeof line, "%s=%d", name, e->chunk_lines);
        else snprintf(line, sizeof line, "%s=%s", name, v ? v : "");
        cmd_line(&k, "::env ", line);
    }
    key_add(&k, "::files ", 8);
    for (int i = 0; i < s->count; i++) { key_add(&k, s->name[i], strlen(s->name[i])); key_add(&k, "/", 1); }
    key_add(&k, "\n", 1);
    cmd_line(&k, "::entry ", c->entries);
    for (int i = 0; i < c->count; i++) {
        char line[HOST_PATH];
        snprintf(line, sizeof line, "%s/chunks/chunk-%d", e->build_rel, i);
        cmd_line(&k, "::chunk ", line);
    }
    static Words stamp, compile, pch, link;
    memset(&stamp, 0, sizeof stamp); memset(&compile, 0, sizeof compile); memset(&link, 0, sizeof link);
    memset(&pch, 0, sizeof pch);
    stamp_command(e, &stamp);
    compile_command(e, &compile);
    link_command(e, &link);
    cmd_line(&k, "::stamp", "");
    words_lines(&stamp, &k);
    cmd_line(&k, "::compile", "");
    words_lines(&compile, &k);
    if (e->pch) {
        char line[HOST_PATH];
        snprintf(line, sizeof line, "%s/chunks/engine", e->build_rel);
        cmd_line(&k, "::pch ", line);
        pch_command(e, &pch);
        words_lines(&pch, &k);
    }
    cmd_line(&k, "::link", "");
    words_lines(&link, &k);
    cmd_line(&k, "::end", "");
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/compile.cmd", game_build_folder());
    int ok = k.s && (file_is(p, k.s) || os_write_file_atomic(p, k.s, k.len));
    if (!ok) snprintf(msg, cap, "game: cannot write %s: %s\n", p, os_error_text());
    free(k.s);
    return ok;
}

/* ---------------------------------------------------------------- the editor database */
static void json_text(KeyText *k, const char *s)   /* s as a JSON string */
{
    key_add(k, "\"", 1);
    for (; *s; s++) {
        char esc[8];
        if (*s == '"' || *s == '\\') { esc[0] = '\\'; esc[1] = *s; key_add(k, esc, 2); }
        else if ((unsigned char)*s < 0x20) key_add(k, esc, (size_t)snprintf(esc, sizeof esc, "\\u%04x", *s));
        else key_add(k, s, 1);
    }
    key_add(k, "\"", 1);
}

/* One entry: the chunks' compiler and flags on `file` (a path), run in `dir`. A piece (a .cpp a chunk includes
   but game.cpp) is no translation unit of its own: it stands alone through game.h, and the warnings about the
   statics other files use are left out. */
static void json_entry(KeyText *k, const char *dir, const Words *flags, const char *file, int piece)
{
    key_add(k, k->len ? ",\n" : "[\n", 2);
    key_add(k, " {\"directory\": ", 15);
    json_text(k, dir);
    key_add(k, ", \"file\": ", 10);
    json_text(k, file);
    key_add(k, ", \"arguments\": [", 16);
    for (int i = 0; i < flags->n; i++) {
        json_text(k, word(flags, i));
        key_add(k, ", ", 2);
    }
    if (piece) {
        static const char extra[] = "\"-Wno-unused-function\", \"-Wno-undefined-internal\", "
                                    "\"-Wno-unused-const-variable\", ";
        key_add(k, extra, sizeof extra - 1);
    }
    key_add(k, "\"-c\", ", 6);
    json_text(k, file);
    key_add(k, "]}", 2);
}

/* <game build>/compile_commands.json: how an editor's tools (clangd) compile each .cpp of the game folder and
   platform/include/tinyheaders.cpp (whose neighbour game_engine.h includes the game's state.h): the chunks' compiler
   and flags, run in the project's folder. Written when its text changed; build.sh merges it into the project's. */
static int write_database(const PlanEnv *e, const GameSources *s, char *msg, size_t cap)
{
    static Words flags;
    memset(&flags, 0, sizeof flags);
    compile_flags(e, &flags);
    char root[HOST_PATH], p[HOST_PATH];
    if (!os_real_path(e->root, root, sizeof root)) snprintf(root, sizeof root, "%s", e->root);
    KeyText k = { NULL, 0, 0 };
    for (int i = 0; i < s->count; i++) {
        snprintf(p, sizeof p, "%s/%s", game_folder(), s->name[i]);
        json_entry(&k, root, &flags, p, strcmp(s->name[i], "game.cpp") != 0);
    }
    snprintf(p, sizeof p, "%s/platform/include/tinyheaders.cpp", root);
    json_entry(&k, root, &flags, p, 0);
    key_add(&k, "\n]\n", 3);
    snprintf(p, sizeof p, "%s/compile_commands.json", game_build_folder());
    int ok = k.s && (file_is(p, k.s) || os_write_file_atomic(p, k.s, k.len));
    if (!ok) snprintf(msg, cap, "game: cannot write %s: %s\n", p, os_error_text());
    free(k.s);
    return ok;
}

/* The game's sources and their chunks; 0 with a message when there is nothing to compile. */
static int plan_read(GameSources *s, GameChunks *c, int chunk_lines, char *msg, size_t cap)
{
    if (!plan_sources(game_folder(), s)) {
        snprintf(msg, cap, "game: cannot read the .cpp files of %s (at most %d)\n", game_folder(), PLAN_MAX_FILES);
        return 0;
    }
    plan_chunks(s, chunk_lines, c);
    if (!c->count) { snprintf(msg, cap, "game: %s has no .cpp file to compile\n", game_folder()); return 0; }
    return 1;
}

/* The plan of the game build: the cached parts (unless quick: PLAN_SLOW when one is stale), the chunk files and
   compile.cmd. PLAN_READY when compile.cmd is the plan; PLAN_FAILED with the reason in msg. A state.h changed since
   the last stamp is left to the build (its stage of its own, build.cpp) when quick. */
int plan_game(const char *root, int quick, char *msg, size_t cap)
{
    static PlanEnv e;
    static GameSources s;
    static GameChunks c;
    static char out[65536];
    msg[0] = 0;
    plan_env(root, &e);
    int have = plan_cached(root);
    if (quick && (have & (PLAN_TINYHEADERS | PLAN_LAYOUT)) != (PLAN_TINYHEADERS | PLAN_LAYOUT)) return PLAN_SLOW;
    if (!(have & PLAN_TINYHEADERS) && !compile_tinyheaders(&e, out, sizeof out)) {
        snprintf(msg, cap, "game: the tinyheader implementations did not compile (above)\n");
        return PLAN_FAILED;
    }
    if (!quick && !(have & PLAN_STATE) && !make_stamp(&e, out, sizeof out)) {
        snprintf(msg, cap, "game: no layout stamp of %s/state.h\n", game_folder());
        return PLAN_FAILED;
    }
    if (!plan_read(&s, &c, e.chunk_lines, msg, cap) || !write_chunks(&s, &c, e.pch, msg, cap) ||
        !write_commands(&e, &s, &c, msg, cap) || !write_database(&e, &s, msg, cap))
        return PLAN_FAILED;
    return PLAN_READY;
}

/* A release's translation unit: every root of the game, one file (<game build>/unity.cpp, when its text changed);
   its path, relative to the project when below it, in out. */
int plan_write_unity(const char *root, char *out, size_t cap)
{
    static GameSources s;
    static GameChunks c;
    static char text[16384];
    char msg[HOST_PATH + 64], p[HOST_PATH];
    if (!plan_read(&s, &c, 1 << 30, msg, sizeof msg)) { fputs(msg, stderr); return 0; }
    size_t len = (size_t)snprintf(text, sizeof text, "/* every file of the game, one translation unit (written by "
                                  "the host, platform/live/plan.cpp; included through -iquote <game folder>) */\n");
    for (int r = 0; r < c.root_count && len < sizeof text; r++)
        len += (size_t)snprintf(text + len, sizeof text - len, "#include \"%s\"\n", s.name[c.roots[r]]);
    snprintf(p, sizeof p, "%s/unity.cpp", game_build_folder());
    if (len >= sizeof text || (!file_is(p, text) && !os_write_file_atomic(p, text, len))) {
        fprintf(stderr, "game: cannot write %s\n", p);
        return 0;
    }
    char real[HOST_PATH];
    if (!os_real_path(root, real, sizeof real)) snprintf(real, sizeof real, "%s", root);
    relative_to(real, p, out, cap);
    return 1;
}

/* The game's compiler and its flags, a line each (those of <game build>/compile_commands.json's entries). */
void plan_print_compile(const char *root)
{
    static PlanEnv e;
    plan_env(root, &e);
    printf("%s\n", e.cxx);
    for (int i = 0; i < e.flags.n; i++) printf("%s%s", i ? " " : "", word(&e.flags, i));
    printf("\n");
}
