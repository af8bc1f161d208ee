/* build.cpp - the game build in a child process at a lower priority. The frame loop never waits for
   it; its output is collected as it comes; a save during a build queues one more.

   The plan (plan.cpp) makes what is cached by content (the -O2 tinyheader object and the layout stamp, when
   their inputs changed), packs the game's files into chunks and writes the commands to compile a chunk and to
   link the library to compile.cmd in the game's build folder (game_folder.cpp); `host --build-game`
   (./build.sh game) plans, then runs this file's compile and link, waited for (build_game_now). A save runs
   the same compile and link while compile.cmd is still the plan (the cached parts' keys hold, the same .cpp
   files, entries and environment); else it plans again here first (build_replan), or, when a cached part
   must be made again, runs `host --build-game` in a child.
   A save of <game>/state.h alone stays here too: the host runs the layout stamp's command that compile.cmd
   names (::stamp), puts the number it prints in the compile's GAME_LAYOUT_HASH, and compiles the chunks that
   include state.h (all of them, side by side); layout.stamp and layout.key keep that number with the CRC of
   the state.h it came from, so the next save of a .cpp file does not stamp again.
   When every chunk is stale (a save of state.h, or of a header all of them read) and there are more chunks than
   cores, the chunks are compiled in groups, one per core (<chunks>/group-<n>.cpp includes its chunks' files, the
   entry chunk first): each compiler started costs a fixed time, so fewer of them reach the new code sooner.
   The library is linked from the groups' objects; the chunks' own objects follow in the background (no link, no
   reload: build_resplit), so the next save of one file compiles one chunk again.
   The precompiled game_engine.h (compile.cmd's ::pch) is one more chunk, made before the chunks that read it when
   one of them is to compile and its key changed; those chunks' keys hold a line of its key. So one code decides
   what is stale (a chunk's key: the content of what its last compile read) for every build, from one plan. */
#include "live.h"

#include <stdlib.h>
#include <string.h>

static BuildStatus g_build_status;   /* the game library's builds, as the frame loop and the overlay see them */

BuildStatus *build_status(void) { return &g_build_status; }

#define BUILD_MAX_ARGS   256
#define BUILD_MAX_CHUNKS PLAN_MAX_CHUNKS

typedef struct BuildCmd {          /* one command of compile.cmd, argv ready to run */
    const char *argv[BUILD_MAX_ARGS];
    int         argc;
} BuildCmd;

#define LAYOUT_ARG "-DGAME_LAYOUT_HASH=" /* the compile's argument that carries the layout stamp */

/* One chunk of the game: a translation unit of a few of its files (plan.cpp),
   with its object, dependency file and key beside it: <base>.cpp, .o, .d, .key. */
typedef struct BuildChunk {
    char     base[HOST_PATH];      /* relative to the project, as compile.cmd names it */
    char    *key;                  /* this build's key of it (malloc'ed): what the compiler reads */
    int      stale, started, ended, ok;
    int      group;                /* a group of chunks (its key is not kept: the chunks' own objects are) */
    int      pch;                  /* it reads the precompiled header (@PCH@): it starts once that is made */
    const BuildCmd *cmd;           /* its command: compile.cmd's ::compile, or ::pch for the precompiled header */
    OsChild  child;
    char     output[8192];
    size_t   output_len;
    double   cpu_ms;
} BuildChunk;

static struct {
    OsChild child;                 /* `host --build-game` (or --build-cmd's), or the stamp or link of a direct build */
    int     queued;
    int     direct;                /* this build runs compile.cmd's commands, not a child's whole build */
    int     stage;                 /* direct: 0 compiling, 1 linking */
    double  start_t, stage_t;
    double  stage_ms[2], stage_cpu_ms[2];
    char    root[HOST_PATH];
    char    output[65536];
    size_t  output_len;
    char   *cmd_text;              /* compile.cmd's text, split in place into the commands */
    BuildCmd stamp;                /* the layout stamp's command (prints the number) */
    BuildCmd compile;              /* a chunk's: @SRC@, @OBJ@ and @DEP@ stand for its files */
    int      layout_at;            /* the compile's LAYOUT_ARG argument, -1 if none */
    char     layout_arg[48];       /* its value for this build, when state.h changed since compile.cmd */
    int      restamp;              /* state.h changed and no stamp of it is known: stamp first (stage -1) */
    uint32_t state_crc;            /* the CRC and size of the state.h this build stamps (layout.key) */
    unsigned long long state_size;
    BuildCmd link;                 /* @OBJS@ stands for every chunk's object, @LIB@ for the temporary library */
    BuildCmd pch;                  /* the precompiled game_engine.h's compile (::pch), argc 0 when there is none */
    int      pch_layout_at;        /* its LAYOUT_ARG argument, -1 if none */
    BuildChunk pchc;               /* the precompiled header as a chunk: <base>.h compiled to <base>.pch */
    BuildChunk chunks[BUILD_MAX_CHUNKS];
    int     chunk_count, stale_count, jobs;
    int     plan_chunks, plan_stale;   /* the plan's counts, before grouping */
    char    lib_tmp[HOST_PATH];
    int     active;                /* a build runs (a whole build's child, a chunk's compiler or the link) */
    int     grouped;               /* this build compiles groups of chunks (chunks[] holds the groups) */
    int     objects_only;          /* this build compiles the chunks' own objects after a grouped one: no link */
    int     resplit;               /* a grouped build ended well: the chunks' objects are to be compiled */
    uint32_t resplit_state_crc;    /* state.h when those compiles started: a save that changes it stops them */
    int     ended, ended_ok;       /* it ended within a frame (build_pump): build_poll finishes it */
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
/* The plan's ::files ("a.cpp/b.cpp/") and ::entry lines still name the game folder's .cpp files and the roots
   that say GAME_GET_API (a file added or removed, or game_get_api moved, changes the chunks). */
static int plan_matches(const char *files, const char *entries)
{
    static GameSources s;
    static GameChunks c;
    if (!plan_sources(game_folder(), &s)) return 0;
    plan_chunks(&s, 1 << 30, &c);
    size_t at = 0;
    for (int i = 0; i < s.count; i++) {
        size_t n = strlen(s.name[i]);
        if (strncmp(files + at, s.name[i], n) != 0 || files[at + n] != '/') return 0;
        at += n + 1;
    }
    return files[at] == 0 && !strcmp(entries, c.entries);
}

/* The CRC and size of the game's state.h (through file_crc's cache: a file read again only when it changed). */
static int state_crc(uint32_t *crc, unsigned long long *size)
{
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/state.h", game_folder());
    int entry = 0;
    return build_file_crc(p, crc, size, &entry);
}

/* The layout stamp in the compile: layout.stamp's (the planner's, or the host's own after a save of state.h alone,
   which came after compile.cmd), or, when state.h changed since that stamp, one to make first (restamp). 0 when
   compile.cmd cannot take one (no ::stamp, no GAME_LAYOUT_HASH). */
static int layout_for_state(int state_current)
{
    g_build.layout_at = -1;
    for (int i = 0; i < g_build.compile.argc; i++)
        if (!strncmp(g_build.compile.argv[i], LAYOUT_ARG, strlen(LAYOUT_ARG))) g_build.layout_at = i;
    g_build.pch_layout_at = -1;
    for (int i = 0; i < g_build.pch.argc; i++)
        if (!strncmp(g_build.pch.argv[i], LAYOUT_ARG, strlen(LAYOUT_ARG))) g_build.pch_layout_at = i;
    if (g_build.layout_at < 0) return state_current;
    if (!state_current) {
        if (g_build.stamp.argc == 0 || !state_crc(&g_build.state_crc, &g_build.state_size)) return 0;
        g_build.restamp = 1;
        return 1;
    }
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/layout.stamp", game_build_folder());
    size_t len = 0;
    char *kept = os_read_file(p, &len, 64);
    unsigned long stamp = 0;
    int known = kept && sscanf(kept, "%lu", &stamp) == 1 && stamp <= 0xFFFFFFFFul;
    free(kept);
    if (!known) return 0;
    snprintf(g_build.layout_arg, sizeof g_build.layout_arg, LAYOUT_ARG "%luu", stamp);
    g_build.compile.argv[g_build.layout_at] = g_build.layout_arg;
    if (g_build.pch_layout_at >= 0) g_build.pch.argv[g_build.pch_layout_at] = g_build.layout_arg;
    return 1;
}

/* Compiles through ccache: its depend mode, which hashes a compile by the dependency file the compiler writes (-MMD)
   instead of running the preprocessor first (that run was a third of a save's compile), and a cache of compiles
   that read the precompiled header (which sloppiness pch_defines,time_macros allows). Not where the user set them. */
static void ccache_env(const BuildCmd *cmd)
{
#if !defined(_WIN32)
    if (cmd->argc == 0) return;
    if (!plan_is_ccache(cmd->argv[0])) return;
    if (!getenv("CCACHE_NODEPEND")) setenv("CCACHE_DEPEND", "1", 0);
    setenv("CCACHE_SLOPPINESS", "pch_defines,time_macros", 0);
#else
    (void)cmd;
#endif
}

/* compile.cmd, if it is still the plan (plan.cpp): the tinyheader object and the layout stamp are of the files
   there now (their keys; state.h alone may differ: the build stamps it first), and the game has the same .cpp
   files (a file added or removed changes the chunks), environment and entries. 0: plan again. */
static int load_direct_commands(void)
{
    const char *out = game_build_folder();
    int have = plan_cached(g_build.root);
    if ((have & (PLAN_TINYHEADERS | PLAN_LAYOUT)) != (PLAN_TINYHEADERS | PLAN_LAYOUT)) return 0;

    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/compile.cmd", out);
    size_t len = 0;
    char *text = os_read_file(p, &len, 1 << 20);
    if (!text) return 0;
    free(g_build.cmd_text);
    g_build.cmd_text = text;
    memset(&g_build.stamp, 0, sizeof g_build.stamp);
    memset(&g_build.compile, 0, sizeof g_build.compile);
    memset(&g_build.link, 0, sizeof g_build.link);
    memset(&g_build.pch, 0, sizeof g_build.pch);
    g_build.pchc.base[0] = 0;
    g_build.chunk_count = 0;
    /* one argument per line: "::env" lines, "::files", a "::chunk <base>" line per chunk, "::compile" and a
       chunk's command, "::link" and the link's, "::end"; the temporary library is named for this host so a
       build.sh run beside it never collides */
    snprintf(g_build.lib_tmp, sizeof g_build.lib_tmp, "%s/.libgame.host%d" OS_LIB_SUFFIX, out, os_pid());
    BuildCmd *cmd = NULL;
    int ended = 0, files_ok = 0;
    const char *files = "";
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
            if (!strcmp(line + 6, "GAME_CHUNK_LINES") && !mine) mine = eq + 1;   /* build.sh's default */
            if (strcmp(mine ? mine : "", eq + 1) != 0) return 0;
        } else if (!strncmp(line, "::files ", 8)) {
            files = line + 8;
        } else if (!strncmp(line, "::entry ", 8) || !strcmp(line, "::entry")) {
            if (!plan_matches(files, line[7] ? line + 8 : "")) return 0;
            files_ok = 1;
        } else if (!strncmp(line, "::chunk ", 8)) {
            if (g_build.chunk_count == BUILD_MAX_CHUNKS) return 0;
            BuildChunk *c = &g_build.chunks[g_build.chunk_count++];
            snprintf(c->base, sizeof c->base, "%s", line + 8);
        } else if (!strncmp(line, "::pch ", 6)) {
            snprintf(g_build.pchc.base, sizeof g_build.pchc.base, "%s", line + 6);
            cmd = &g_build.pch;
        } else if (!strcmp(line, "::stamp")) cmd = &g_build.stamp;
        else if (!strcmp(line, "::compile")) cmd = &g_build.compile;
        else if (!strcmp(line, "::link")) cmd = &g_build.link;
        else if (!strcmp(line, "::end")) { ended = 1; break; }
        else if (line[0] == '#' || !cmd) {}
        else if (cmd->argc < BUILD_MAX_ARGS - 1) cmd->argv[cmd->argc++] = line;
        line = nl ? nl + 1 : NULL;
    }
    if (!ended || !files_ok || g_build.chunk_count == 0 || g_build.compile.argc == 0 || g_build.link.argc == 0)
        return 0;
    for (int i = 0; i < g_build.chunk_count; i++) {   /* a chunk file removed (the build folder cleaned) */
        char src[HOST_PATH];
        OsFileStamp st;
        snprintf(src, sizeof src, "%s/%s.cpp", g_build.root, g_build.chunks[i].base);
        if (!os_file_stamp(src, &st)) return 0;
    }
    g_build.restamp = 0;
    ccache_env(&g_build.compile);
    return layout_for_state((have & PLAN_STATE) != 0);   /* may set restamp */
}

/* ---------------------------------------------------------------- a chunk's key */
/* POSIX cksum's CRC of a file's bytes and length (a key's lines read as `cksum` prints them). */
static uint32_t cksum_of(const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i << 24;
            for (int k = 0; k < 8; k++) c = (c & 0x80000000u) ? (c << 1) ^ 0x04C11DB7u : c << 1;
            table[i] = c;
        }
    uint32_t crc = 0;
    for (size_t i = 0; i < n; i++) crc = (crc << 8) ^ table[(crc >> 24) ^ p[i]];
    for (size_t len = n; len; len >>= 8) crc = (crc << 8) ^ table[((crc >> 24) ^ len) & 0xFF];
    return ~crc;
}

void key_add(KeyText *k, const char *text, size_t n)
{
    if (k->len + n + 1 > k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 4096;
        while (cap < k->len + n + 1) cap *= 2;
        char *s = (char *)realloc(k->s, cap);
        if (!s) return;
        k->s = s; k->cap = cap;
    }
    memcpy(k->s + k->len, text, n);
    k->len += n;
    k->s[k->len] = 0;
}

/* The CRCs of files already read, by path and stamp: a save rereads only the files whose inode, size or
   modification time changed (a key is still of the content; this only spares reading what did not change). */
#define CRC_CACHE 1024
static struct { char path[240]; OsFileStamp st; uint32_t crc; int entry; } g_crc_cache[CRC_CACHE];
static int g_crc_cached;

/* 1 when the text says GAME_GET_API( (blanks between allowed), as build.sh's grep for the files that hand out
   game_get_api finds them */
int build_says_entry(const char *p, size_t n)
{
    static const char word[] = "GAME_GET_API";
    const size_t w = sizeof word - 1;
    for (size_t i = 0; i + w < n; i++) {
        if (p[i] != 'G' || memcmp(p + i, word, w) != 0) continue;
        size_t j = i + w;
        while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\v' || p[j] == '\f' || p[j] == '\r')) j++;
        if (j < n && p[j] == '(') return 1;
    }
    return 0;
}

int build_file_crc(const char *p, uint32_t *crc, unsigned long long *size, int *entry)
{
    OsFileStamp st;
    if (!os_file_stamp(p, &st)) return 0;
    size_t n = strlen(p);
    int slot = -1;
    if (n < sizeof g_crc_cache[0].path) {
        for (int i = 0; i < g_crc_cached; i++)
            if (!strcmp(g_crc_cache[i].path, p)) {
                if (os_same_stamp(&g_crc_cache[i].st, &st) && g_crc_cache[i].st.size == st.size) {
                    *crc = g_crc_cache[i].crc;
                    *size = st.size;
                    if (entry) *entry = g_crc_cache[i].entry;
                    return 1;
                }
                slot = i;
                break;
            }
        if (slot < 0 && g_crc_cached < CRC_CACHE) slot = g_crc_cached++;
    }
    size_t len = 0;
    char *data = os_read_file(p, &len, (size_t)64 << 20);
    if (!data) return 0;
    *crc = cksum_of((const unsigned char *)data, len);
    *size = len;
    int says = build_says_entry(data, len);
    if (entry) *entry = says;
    free(data);
    OsFileStamp after;   /* changed while being read: not cached, the next build reads it again */
    if (slot >= 0 && os_file_stamp(p, &after) && os_same_stamp(&after, &st) && after.size == len) {
        memcpy(g_crc_cache[slot].path, p, n + 1);
        g_crc_cache[slot].st = st;
        g_crc_cache[slot].crc = *crc;
        g_crc_cache[slot].entry = says;
    } else if (slot >= 0) g_crc_cache[slot].path[0] = 0;
    return 1;
}

/* One file's line of a key, as cksum prints it ("crc size path"); nothing for a file that cannot be read. */
static void key_add_file(KeyText *k, const char *rel)
{
    char p[HOST_PATH], line[HOST_PATH + 48];
    if (rel[0] == '/') snprintf(p, sizeof p, "%s", rel); else snprintf(p, sizeof p, "%s/%s", g_build.root, rel);
    uint32_t crc;
    unsigned long long size;
    if (!build_file_crc(p, &crc, &size, NULL)) return;
    int n = snprintf(line, sizeof line, "%u %llu %s\n", crc, size, rel);
    if (n > 0 && (size_t)n < sizeof line) key_add(k, line, (size_t)n);
}

/* The files a dependency file names: after the target's colon, words
   split at blanks and backslash line ends, "\ " a space within a name. fn(ctx, name) for each. */
static void for_each_dep(const char *text, void (*fn)(void *, const char *), void *ctx)
{
    const char *p = strchr(text, ':');
    if (!p) return;
    p++;
    char word[HOST_PATH];
    size_t n = 0;
    for (;; p++) {
        char c = *p;
        if (c == '\\' && p[1] == ' ') { if (n + 1 < sizeof word) word[n++] = ' '; p++; continue; }
        if (c == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) c = ' ';
        if (c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || (c == '\\' && n == 0)) {
            if (n) { word[n] = 0; fn(ctx, word); n = 0; }
            if (c == 0) break;
            continue;
        }
        if (n + 1 < sizeof word) word[n++] = c;
    }
}

static void dep_into_key(void *ctx, const char *name) { key_add_file((KeyText *)ctx, name); }

static char *read_rel(const char *rel, const char *suffix)
{
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/%s%s", g_build.root, rel, suffix);
    size_t len = 0;
    return os_read_file(p, &len, 16 << 20);
}

/* The command of chunk c, word by word into out (the key's first line, with "cmd " before it). */
static const char *chunk_arg(const BuildChunk *c, const char *a, char *buf, size_t cap, const char *obj,
                             const char *dep)
{
    if (!strcmp(a, "@SRC@")) { snprintf(buf, cap, "%s%s", c->base, c == &g_build.pchc ? ".h" : ".cpp"); return buf; }
    if (obj && !strcmp(a, "@OBJ@")) return obj;
    if (dep && !strcmp(a, "@DEP@")) return dep;
    return a;
}

/* Chunk c's whole command into argv (NULL after it; bufs hold the words made for it): @PCH@ becomes
   -include-pch <the precompiled header> in a chunk that reads it, nothing in the others. Its count. */
static int chunk_argv(const BuildChunk *c, const char **argv, char (*bufs)[HOST_PATH], const char *obj,
                      const char *dep)
{
    int n = 0;
    static char pch[HOST_PATH];
    for (int i = 0; i < c->cmd->argc; i++) {
        const char *a = c->cmd->argv[i];
        if (!strcmp(a, "@PCH@")) {
            if (!c->pch) continue;
            snprintf(pch, sizeof pch, "%s.pch", g_build.pchc.base);
            argv[n++] = "-include-pch";
            argv[n++] = pch;
            continue;
        }
        argv[n] = chunk_arg(c, a, bufs[i], sizeof bufs[i], obj, dep);
        n++;
    }
    argv[n] = NULL;
    return n;
}

/* A chunk's line for the precompiled header it reads: the CRC of the header's key now, so of what it is made from (a
   chunk's dependency file names those files by absolute paths, which in a copy of the project are another's). */
static void pch_key_line(KeyText *k)
{
    const char *pk = g_build.pchc.key;
    if (!pk) return;
    char line[64];
    int n = snprintf(line, sizeof line, "pch %u %zu\n", cksum_of((const unsigned char *)pk, strlen(pk)), strlen(pk));
    key_add(k, line, (size_t)n);
}

/* This build's key of a chunk: its command, then the line of every file its last compile read (of its
   chunk file alone when it has not been compiled yet). */
static char *chunk_key(const BuildChunk *c)
{
    KeyText k = { NULL, 0, 0 };
    key_add(&k, "cmd", 3);
    const char *argv[BUILD_MAX_ARGS + 2];
    static char bufs[BUILD_MAX_ARGS][HOST_PATH];
    int argc = chunk_argv(c, argv, bufs, NULL, NULL);
    for (int i = 0; i < argc; i++) {
        key_add(&k, " ", 1);
        key_add(&k, argv[i], strlen(argv[i]));
    }
    key_add(&k, "\n", 1);
    if (c == &g_build.pchc) {   /* a precompiled header is the compiler's own format: made again by another one */
        const char *cxx = c->cmd->argc > 1 && plan_is_ccache(c->cmd->argv[0]) ? c->cmd->argv[1] : c->cmd->argv[0];
        char exe[HOST_PATH], real[HOST_PATH];
        if (plan_which(cxx, exe, sizeof exe) && os_real_path(exe, real, sizeof real)) key_add_file(&k, real);
    } else if (c->pch) pch_key_line(&k);
    char *deps = read_rel(c->base, ".d");
    if (deps) for_each_dep(deps, dep_into_key, &k);
    else {
        char src[HOST_PATH];
        chunk_arg(c, "@SRC@", src, sizeof src, NULL, NULL);
        key_add_file(&k, src);
    }
    free(deps);
    return k.s;
}

static int same_text(const char *a, const char *b)   /* equal but for line ends at the end */
{
    size_t na = strlen(a), nb = strlen(b);
    while (na && (a[na - 1] == '\n' || a[na - 1] == '\r')) na--;
    while (nb && (b[nb - 1] == '\n' || b[nb - 1] == '\r')) nb--;
    return na == nb && !memcmp(a, b, na);
}

typedef struct AfterCtx { const char *before; KeyText *k; } AfterCtx;

/* After a compile: the key to keep is, for each file of the new dependency file, its line from the key taken
   before the compile (what the compiler read), or for a file this compile read for the first time, its line now. */
static void dep_after(void *ctx, const char *name)
{
    AfterCtx *a = (AfterCtx *)ctx;
    size_t n = strlen(name);
    for (const char *line = a->before; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *sp = (const char *)memchr(line, ' ', len);
        sp = sp ? (const char *)memchr(sp + 1, ' ', len - (size_t)(sp + 1 - line)) : NULL;
        if (strncmp(line, "cmd ", 4) != 0 && sp && (size_t)(line + len - (sp + 1)) == n && !memcmp(sp + 1, name, n)) {
            key_add(a->k, line, len);
            key_add(a->k, "\n", 1);
            return;
        }
        line = end ? end + 1 : NULL;
    }
    key_add_file(a->k, name);
}

/* A key kept after the compile: its command's line (and the precompiled header's compiler line), the line of the
   header a chunk read (of that header's key after it was made, as the next build's key of it will be), and a line
   for each file the compiler says it read. The precompiled header's kept key becomes its key in this build. */
static void chunk_store_key(BuildChunk *c)
{
    char *deps = read_rel(c->base, ".d");
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/%s.key", g_build.root, c->base);
    if (!deps || !c->key) { os_remove_file(p); free(deps); return; }
    KeyText k = { NULL, 0, 0 };
    const char *nl = strchr(c->key, '\n');
    if (nl && c == &g_build.pchc) nl = strchr(nl + 1, '\n');   /* and the compiler's line */
    key_add(&k, c->key, nl ? (size_t)(nl + 1 - c->key) : strlen(c->key));
    if (c->pch) pch_key_line(&k);
    AfterCtx a = { c->key, &k };
    for_each_dep(deps, dep_after, &a);
    free(deps);
    if (!k.s || !os_write_file_atomic(p, k.s, k.len)) os_remove_file(p);
    if (c == &g_build.pchc && k.s) { free(c->key); c->key = k.s; }
    else free(k.s);
}

/* ---------------------------------------------------------------- the direct build's children */
static void chunk_tmp(const BuildChunk *c, const char *ext, char *out, size_t cap)
{
    snprintf(out, cap, "%s.host%d%s", c->base, os_pid(), ext);
}

static const char *chunk_out_ext(const BuildChunk *c) { return c == &g_build.pchc ? ".pch" : ".o"; }

static int chunk_start(BuildChunk *c)
{
    const char *argv[BUILD_MAX_ARGS + 2];
    static char bufs[BUILD_MAX_ARGS][HOST_PATH];
    char obj[HOST_PATH], dep[HOST_PATH];
    chunk_tmp(c, chunk_out_ext(c), obj, sizeof obj);
    chunk_tmp(c, ".d", dep, sizeof dep);
    chunk_argv(c, argv, bufs, obj, dep);
    c->started = 1;
    c->output_len = 0;
    char key[HOST_PATH];
    snprintf(key, sizeof key, "%s/%s.key", g_build.root, c->base);
    os_remove_file(key);   /* no moment where a key names sources its object was not built from */
    if (!os_child_start_in(&c->child, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR | OS_CHILD_LOW_PRIORITY, g_build.root)) {
        log_message(LOG_ERROR, "build: cannot start %s: %s", argv[0], os_error_text());
        c->ended = 1;
        c->ok = 0;
        return 0;
    }
    return 1;
}

static void chunk_drain(BuildChunk *c)
{
    for (;;) {
        char tmp[4096];
        int n = os_child_read(&c->child, tmp, sizeof tmp);
        if (n <= 0) break;
        size_t room = sizeof c->output - 1 - c->output_len;
        if ((size_t)n > room) n = (int)room;
        memcpy(c->output + c->output_len, tmp, (size_t)n);
        c->output_len += (size_t)n;
        c->output[c->output_len] = 0;
    }
}

static void output_add(const char *text, size_t n)
{
    size_t room = sizeof g_build.output - 1 - g_build.output_len;
    if (n > room) n = room;
    memcpy(g_build.output + g_build.output_len, text, n);
    g_build.output_len += n;
    g_build.output[g_build.output_len] = 0;
}

/* Start compilers for stale chunks while fewer than one per core run: the precompiled header first when it is
   stale, the chunks that read it once it is made (the others beside it). */
static void chunks_fill(void)
{
    BuildChunk *h = &g_build.pchc;
    int running = h->started && !h->ended;
    for (int i = 0; i < g_build.chunk_count; i++) {
        BuildChunk *c = &g_build.chunks[i];
        if (c->started && !c->ended) running++;
    }
    if (h->stale && !h->started && running < g_build.jobs) {
        if (chunk_start(h)) running++;
        else h->ended = 1;
    }
    int pch_ready = !h->stale || (h->ended && h->ok);
    for (int i = 0; i < g_build.chunk_count && running < g_build.jobs; i++) {
        BuildChunk *c = &g_build.chunks[i];
        if (c->stale && !c->started && (!c->pch || pch_ready) && chunk_start(c)) running++;
    }
}

/* A compiler of chunk c (or of the precompiled header) that ended: its files into place, its key kept. */
static void chunk_finish(BuildChunk *c, int r, int code, int sig)
{
    chunk_drain(c);
    os_child_kill(&c->child);
    c->ended = 1;
    c->ok = r > 0 && !sig && code == 0;
    c->cpu_ms = c->child.cpu_ms;
    char obj[HOST_PATH], dep[HOST_PATH], to[HOST_PATH], from[HOST_PATH];
    chunk_tmp(c, chunk_out_ext(c), obj, sizeof obj);
    chunk_tmp(c, ".d", dep, sizeof dep);
    const char *ext[2] = { chunk_out_ext(c), ".d" };
    const char *tmp[2] = { obj, dep };
    for (int e = 0; e < 2; e++) {
        snprintf(from, sizeof from, "%s/%s", g_build.root, tmp[e]);
        snprintf(to, sizeof to, "%s/%s%s", g_build.root, c->base, ext[e]);
        if (c->ok && !os_rename_file(from, to)) c->ok = 0;
        os_remove_file(from);
    }
    if (c->ok && !c->group) chunk_store_key(c);
    output_add(c->output, c->output_len);
}

/* Poll the compilers: 1 when every stale chunk's has ended (ok says whether all succeeded). */
static int chunks_poll(int *ok)
{
    int pending = 0;
    *ok = 1;
    BuildChunk *h = &g_build.pchc;
    if (h->stale && h->started && !h->ended) {
        chunk_drain(h);
        int code = -1, sig = 0;
        int r = os_child_poll(&h->child, &code, &sig);
        if (r != 0) {
            chunk_finish(h, r, code, sig);
            log_event("build_pch", "\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f", h->ok ? "true" : "false",
                      (os_mono_seconds() - g_build.stage_t) * 1000.0, h->cpu_ms);
        }
    }
    if (h->stale && h->ended && !h->ok)   /* the header did not compile: its message is the build's output */
        for (int i = 0; i < g_build.chunk_count; i++) {
            BuildChunk *c = &g_build.chunks[i];
            if (c->stale && c->pch && !c->started) c->started = c->ended = 1;
        }
    if (h->stale && !h->ended) pending = 1;
    for (int i = 0; i < g_build.chunk_count; i++) {
        BuildChunk *c = &g_build.chunks[i];
        if (!c->stale) continue;
        if (c->started && !c->ended) {
            chunk_drain(c);
            int code = -1, sig = 0;
            int r = os_child_poll(&c->child, &code, &sig);
            if (r == 0) { pending = 1; continue; }
            chunk_finish(c, r, code, sig);
            log_event("build_chunk", "\"chunk\":%d,\"ok\":%s,\"cpu_ms\":%.1f,\"group\":%s%s", i,
                      c->ok ? "true" : "false", c->cpu_ms, c->group ? "true" : "false",
                      g_build.objects_only ? ",\"resplit\":true" : "");
        }
        if (!c->started) pending = 1;
        if (c->ended && !c->ok) *ok = 0;
    }
    if (pending) chunks_fill();
    return !pending;
}

static void chunk_clear(BuildChunk *c)
{
    if (c->started && !c->ended) os_child_kill(&c->child);
    free(c->key);
    c->key = NULL;
    c->stale = c->started = c->ended = c->ok = c->group = c->pch = 0;
    c->cpu_ms = 0;
}

static void chunks_reset(void)
{
    for (int i = 0; i < g_build.chunk_count; i++) chunk_clear(&g_build.chunks[i]);
    chunk_clear(&g_build.pchc);
}

/* A stage's one child (the stamp, the link) at a low priority, in the project's folder. */
static int stage_start(int stage, const char *const *argv)
{
    g_build.stage = stage;
    g_build.stage_t = os_mono_seconds();
    if (!os_child_start_in(&g_build.child, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR | OS_CHILD_LOW_PRIORITY,
                           g_build.root)) {
        log_message(LOG_ERROR, "build: cannot start %s: %s", argv[0], os_error_text());
        return 0;
    }
    return 1;
}

/* The link: every chunk's object in place of @OBJS@. */
static int spawn_link(void)
{
    static const char *argv[BUILD_MAX_ARGS + BUILD_MAX_CHUNKS];
    static char objs[BUILD_MAX_CHUNKS][HOST_PATH];
    int n = 0;
    for (int i = 0; i < g_build.link.argc; i++) {
        const char *a = g_build.link.argv[i];
        if (!strcmp(a, "@OBJS@")) {
            for (int k = 0; k < g_build.chunk_count; k++) {
                snprintf(objs[k], sizeof objs[k], "%s.o", g_build.chunks[k].base);
                argv[n++] = objs[k];
            }
        } else argv[n++] = !strcmp(a, "@LIB@") ? g_build.lib_tmp : a;
    }
    argv[n] = NULL;
    return stage_start(1, argv);
}

/* Chunk c's key, and whether it is stale: no object, no stored key, or a key that differs. */
static void chunk_mark(BuildChunk *c)
{
    if (!c->key) c->key = chunk_key(c);
    char *stored = read_rel(c->base, ".key");
    char obj[HOST_PATH];
    snprintf(obj, sizeof obj, "%s/%s%s", g_build.root, c->base, chunk_out_ext(c));
    OsFileStamp st;
    c->stale = !c->key || !stored || !same_text(stored, c->key) || !os_file_stamp(obj, &st);
    free(stored);
}

/* The key of every chunk, and which are stale. */
static void chunks_mark_stale(void)
{
    chunks_reset();
    int cores = os_cpu_count();
    g_build.jobs = cores > 16 ? 16 : cores;
    g_build.stale_count = 0;
    if (g_build.pch.argc) {   /* the precompiled header's key first: the chunks that read it name it in theirs */
        g_build.pchc.cmd = &g_build.pch;
        g_build.pchc.key = chunk_key(&g_build.pchc);
    }
    for (int i = 0; i < g_build.chunk_count; i++) {
        BuildChunk *c = &g_build.chunks[i];
        c->cmd = &g_build.compile;
        if (g_build.pch.argc) {
            char *text = read_rel(c->base, ".cpp");
            c->pch = text && strstr(text, "#define GAME_NO_STATE_TYPES") != NULL;
            free(text);
        }
        chunk_mark(c);
        g_build.stale_count += c->stale;
    }
}

/* The precompiled header is made in this build when a chunk to compile reads it and it is stale. */
static void pch_mark_stale(void)
{
    BuildChunk *h = &g_build.pchc;
    int wanted = 0;
    for (int i = 0; i < g_build.chunk_count; i++) wanted |= g_build.chunks[i].stale && g_build.chunks[i].pch;
    h->stale = 0;
    if (wanted) chunk_mark(h);
}

/* The link's command as one line of text, its record beside the library (<lib>.link): a library linked by
   another command (a flag added to the link) is linked again even when no object changed. */
static void link_text(KeyText *k)
{
    for (int i = 0; i < g_build.link.argc; i++) {
        if (i) key_add(k, " ", 1);
        const char *a = !strcmp(g_build.link.argv[i], "@LIB@") ? "@LIB@" : g_build.link.argv[i];
        key_add(k, a, strlen(a));
    }
    key_add(k, "\n", 1);
}

static void link_record(int linked)
{
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s.link", library_built_path());
    KeyText k = { NULL, 0, 0 };
    if (linked) link_text(&k);
    if (!k.s || !os_write_file_atomic(p, k.s, k.len)) os_remove_file(p);
    free(k.s);
}

/* The library needs no link: it is there, linked by this command, and newer than every object it is made of. */
static int library_current(void)
{
    const char *lib = library_built_path();
    OsFileStamp ls, st;
    if (!os_file_stamp(lib, &ls)) return 0;
    for (int i = 0; i < g_build.chunk_count; i++) {
        char obj[HOST_PATH];
        snprintf(obj, sizeof obj, "%s/%s.o", g_build.root, g_build.chunks[i].base);
        if (!os_file_stamp(obj, &st) || st.mtime_ns > ls.mtime_ns) return 0;
    }
    for (int i = 0; i < g_build.link.argc; i++) {   /* the other objects the link names (the tinyheaders' -O2 object) */
        const char *a = g_build.link.argv[i];
        size_t n = strlen(a);
        if (n < 3 || strcmp(a + n - 2, ".o") != 0 || a[0] == '-') continue;
        char p[HOST_PATH];
        if (a[0] == '/') snprintf(p, sizeof p, "%s", a); else snprintf(p, sizeof p, "%s/%s", g_build.root, a);
        if (!os_file_stamp(p, &st) || st.mtime_ns > ls.mtime_ns) return 0;
    }
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s.link", lib);
    size_t len = 0;
    char *stored = os_read_file(p, &len, 1 << 20);
    KeyText k = { NULL, 0, 0 };
    link_text(&k);
    int same = stored && k.s && same_text(stored, k.s);
    free(stored);
    free(k.s);
    return same;
}

/* Stage -1 of a direct build after a save of state.h: the layout stamp's command (compile.cmd's ::stamp). */
static int stamp_start(void)
{
    const char *argv[BUILD_MAX_ARGS];
    for (int i = 0; i < g_build.stamp.argc; i++) argv[i] = g_build.stamp.argv[i];
    argv[g_build.stamp.argc] = NULL;
    return stage_start(-1, argv);
}

/* The stamp the command printed: its last line of digits alone (its messages go to the same pipe). */
int build_stamp_parsed(const char *output, unsigned long *out)
{
    int found = 0;
    for (const char *line = output; *line;) {
        const char *end = line;
        while (*end && *end != '\n') end++;
        size_t n = (size_t)(end - line);
        while (n && line[n - 1] == '\r') n--;
        size_t digits = 0;
        while (digits < n && line[digits] >= '0' && line[digits] <= '9') digits++;
        if (n && digits == n && n <= 10) {
            unsigned long v = strtoul(line, NULL, 10);
            if (v <= 0xFFFFFFFFul) { *out = v; found = 1; }
        }
        line = *end ? end + 1 : end;
    }
    return found;
}

/* The stamp in this build's compile, and kept for the next builds and plans (layout.stamp, layout.key) */
static void stamp_use(unsigned long stamp)
{
    snprintf(g_build.layout_arg, sizeof g_build.layout_arg, LAYOUT_ARG "%luu", stamp);
    g_build.compile.argv[g_build.layout_at] = g_build.layout_arg;
    if (g_build.pch_layout_at >= 0) g_build.pch.argv[g_build.pch_layout_at] = g_build.layout_arg;
    plan_keep_stamp(g_build.root, stamp, g_build.state_crc, g_build.state_size);
}

/* Every chunk stale and more chunks than compilers: chunks[] becomes one group per compiler, each a file that
   includes its chunks' files in plan order, the chunks that read the state's description (no GAME_NO_STATE_TYPES:
   the entry) first, so game_engine.h is read with it. 1 when grouped. */
static int chunks_group(void)
{
    int n = g_build.chunk_count, groups = g_build.jobs;
    if (g_build.objects_only || g_build.stale_count != n || groups < 1 || n <= groups || groups > 16) return 0;
    int order[BUILD_MAX_CHUNKS], k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            char *text = read_rel(g_build.chunks[i].base, ".cpp");
            int entry = text && !strstr(text, "#define GAME_NO_STATE_TYPES");
            free(text);
            if (entry == (pass == 0)) order[k++] = i;
        }
    char bases[16][HOST_PATH];
    for (int g = 0; g < groups; g++) {
        int from = g * n / groups, to = (g + 1) * n / groups;
        char text[8192];
        size_t len = (size_t)snprintf(text, sizeof text, "/* group %d of the game's chunks, compiled as one when every "
                                      "chunk is stale (written by the host) */\n", g);
        const char *dir_end = strrchr(g_build.chunks[0].base, '/');
        size_t dir_len = dir_end ? (size_t)(dir_end - g_build.chunks[0].base) : 0;
        for (int j = from; j < to && len < sizeof text; j++) {
            const char *base = g_build.chunks[order[j]].base, *name = strrchr(base, '/');
            len += (size_t)snprintf(text + len, sizeof text - len, "#include \"%s.cpp\"\n", name ? name + 1 : base);
        }
        snprintf(bases[g], sizeof bases[g], "%.*s%sgroup-%d", (int)dir_len, g_build.chunks[0].base,
                 dir_len ? "/" : "", g);
        char p[HOST_PATH];
        snprintf(p, sizeof p, "%s/%s.cpp", g_build.root, bases[g]);
        if (len >= sizeof text || !os_write_file_atomic(p, text, len)) return 0;
    }
    chunks_reset();
    for (int g = 0; g < groups; g++) {
        BuildChunk *c = &g_build.chunks[g];
        snprintf(c->base, sizeof c->base, "%s", bases[g]);
        c->stale = c->group = 1;
        c->cmd = &g_build.compile;
    }
    g_build.chunk_count = g_build.stale_count = groups;
    g_build.grouped = 1;
    return 1;
}

/* A direct build: the key of every chunk; compilers for the stale ones (one per core), then the link. */
static int direct_start(void)
{
    chunks_mark_stale();
    g_build.stage = 0;
    g_build.stage_t = os_mono_seconds();
    g_build.grouped = 0;
    g_build.plan_chunks = g_build.chunk_count;
    g_build.plan_stale = g_build.stale_count;
    if (!g_build.stale_count) return g_build.objects_only ? 0 : spawn_link();
    chunks_group();
    pch_mark_stale();
    chunks_fill();
    for (int i = 0; i < g_build.chunk_count; i++) if (g_build.chunks[i].started) return 1;
    return g_build.pchc.started && !g_build.pchc.ended;
}

/* The plan may have changed (a .cpp added or removed, game_get_api moved, the environment, a chunk file gone):
   planned again here, while the cached parts are current (plan.cpp's quick plan: no compile of its own). 1 when
   compile.cmd is the plan now. */
static int build_replan(void)
{
    char msg[1024];
    double t = os_mono_seconds();
    int r = plan_game(g_build.root, 1, msg, sizeof msg);
    log_event("build_plan", "\"ok\":%s,\"slow\":%s,\"ms\":%.1f", r == PLAN_READY ? "true" : "false",
              r == PLAN_SLOW ? "true" : "false", (os_mono_seconds() - t) * 1000.0);
    return r == PLAN_READY && load_direct_commands();
}

/* Linux: the whole build in a child, `host --build-game` (its plan's -O2 compile and layout stamp, then the
   compile and link), when the cached parts are stale; or --build-cmd's command. Windows: build.bat. */
static int build_child(const char **argv, char *words, size_t cap)
{
    static char exe[HOST_PATH];
    if (options()->build_cmd) { split_command(options()->build_cmd, words, cap, argv, 64); return 1; }
#if defined(_WIN32)
    snprintf(exe, sizeof exe, "%s/build.bat", g_build.root);
    const char *def[] = { "cmd", "/c", exe, "game", game_folder(), game_build_folder(), NULL };
#else
    if (!os_exe_path(exe, sizeof exe)) return 0;
    const char *def[] = { exe, "--root", g_build.root, "--game", game_folder(), "--build-game", NULL };
#endif
    memcpy(argv, def, sizeof def);
    return 1;
}

/* A direct build: the layout stamp first when state.h alone changed, else the chunks' compiles. */
static void build_spawn_direct(int planned)
{
    tweak_build_started();   /* before the keys: a save after this point makes the next build's keys differ */
    g_build.start_t = os_mono_seconds();
    if (g_build.restamp) {   /* state.h alone changed: its stamp first, then every chunk that includes it */
        if (!stamp_start()) { tweak_build_finished(0); return; }
        g_build.active = 1;
        log_event("build_start", "\"direct\":true,\"planned\":%s,\"stamp\":true,\"chunks\":%d",
                  planned ? "true" : "false", g_build.chunk_count);
        return;
    }
    if (!direct_start()) { chunks_reset(); tweak_build_finished(0); return; }
    g_build.active = 1;
    log_event("build_start", "\"direct\":true,\"planned\":%s,\"chunks\":%d,\"stale\":%d,\"groups\":%d",
              planned ? "true" : "false", g_build.plan_chunks, g_build.plan_stale,
              g_build.grouped ? g_build.chunk_count : 0);
}

static void build_spawn(void)
{
    g_build.output_len = 0;
    g_build.output[0] = 0;
    g_build.stage_ms[0] = g_build.stage_ms[1] = g_build.stage_cpu_ms[0] = g_build.stage_cpu_ms[1] = 0;
#if !defined(_WIN32)
    int planned = 0;
    g_build.direct = !options()->build_cmd && load_direct_commands();
    if (!g_build.direct && !options()->build_cmd) g_build.direct = planned = build_replan();
    if (g_build.direct) { build_spawn_direct(planned); return; }
#endif
    char words[4096];
    const char *argv[64] = { NULL };
    tweak_build_started();
    /* at a lower priority: on a machine with few cores the compiler must not take the frame loop's time */
    if (!build_child(argv, words, sizeof words) ||
        !os_child_start(&g_build.child, argv, OS_CHILD_STDOUT | OS_CHILD_STDERR | OS_CHILD_LOW_PRIORITY)) {
        log_message(LOG_ERROR, "build: cannot start the game build (%s): %s", argv[0] ? argv[0] : "", os_error_text());
        tweak_build_finished(0);
        return;
    }
    g_build.start_t = os_mono_seconds();
    g_build.active = 1;
    log_event("build_start", "\"pid\":%d,\"direct\":false", (int)g_build.child.pid);
}

static uint32_t state_crc_now(void)
{
    uint32_t crc = 0;
    unsigned long long size = 0;
    return state_crc(&crc, &size) ? crc : 0;
}

/* The chunks' own objects after a grouped build, in the background: no link, no reload, not shown as a build. */
static void resplit_start(void)
{
    g_build.resplit = 0;
#if !defined(_WIN32)
    if (options()->build_cmd || !load_direct_commands() || g_build.restamp) return;
    g_build.direct = g_build.objects_only = 1;
    g_build.output_len = 0;
    g_build.output[0] = 0;
    g_build.start_t = os_mono_seconds();
    if (!direct_start()) { chunks_reset(); g_build.objects_only = 0; return; }
    g_build.active = 1;
    g_build.resplit_state_crc = state_crc_now();
    log_event("build_resplit", "\"chunks\":%d", g_build.stale_count);
#endif
}

/* A save during the background compiles waits for them (they are the objects its build links), then compiles what
   it changed: stopping them would leave every chunk stale, and the next build grouped again. But a save that
   changed state.h makes every chunk stale anyway: the background compiles stop, and its build starts at once. */
void build_start(const char *root)
{
    snprintf(g_build.root, sizeof g_build.root, "%s", root);
    g_build.resplit = 0;
    if (g_build.active && g_build.objects_only && state_crc_now() != g_build.resplit_state_crc) {
        chunks_reset();
        g_build.active = g_build.objects_only = g_build.ended = 0;
        log_event("build_resplit_end", "\"ok\":false,\"stopped\":true");
    }
    if (g_build.active) { g_build.queued = 1; return; }  /* the save that arrives mid-build wins: one more build */
    build_spawn();
}

int build_running(void) { return g_build.active && !g_build.objects_only; }

int build_fd(void)
{
    if (g_build.child.pid) return os_child_fd(&g_build.child);
    if (g_build.pchc.started && !g_build.pchc.ended) return os_child_fd(&g_build.pchc.child);
    for (int i = 0; i < g_build.chunk_count; i++) {
        const BuildChunk *c = &g_build.chunks[i];
        if (c->started && !c->ended) return os_child_fd(&c->child);
    }
    return -1;
}

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
        if (sscanf(l, "%511[^:]:%d:%d: %31[^:]: %n", e->file, &e->line, &e->col, kind, &consumed) == 4 &&
            consumed > 0 && (!strcmp(kind, "error") || !strcmp(kind, "fatal error"))) {
            snprintf(e->message, sizeof e->message, "%s", l + consumed);                  /* gcc, clang */
        } else if (consumed = 0, sscanf(l, "%511[^(](%d): %31[^:]: %n", e->file, &e->line, kind, &consumed) == 3 &&
                                     consumed > 0 &&
                                     (!strncmp(kind, "error ", 6) || !strncmp(kind, "fatal error ", 12))) {
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
            parse_json_escape(e.file, ef, sizeof ef);
            parse_json_escape(e.message, em, sizeof em);
            int w = snprintf(json + len, cap - len, "%s{\"file\":\"%s\",\"line\":%d,\"col\":%d,\"message\":\"%s\"}",
                             count > 1 ? "," : "", ef, e.line, e.col, em);
            if (w > 0 && (size_t)w < cap - len) len += (size_t)w; else json[len] = 0;
        }
    }
    return count;
}

/* The running build's next stage, when the one before has ended: a direct build's link once its chunks have
   compiled. 1 when the whole build has ended (*ok: it succeeded, the library is in place), 0 while it runs. */
static int build_advance(int *ok)
{
    if (g_build.direct && g_build.stage == -1) {   /* the layout stamp */
        build_drain();
        int code = -1, sig = 0;
        int r = os_child_poll(&g_build.child, &code, &sig);
        if (r == 0) return 0;
        build_drain();
        os_child_kill(&g_build.child);
        unsigned long stamp = 0;
        *ok = r > 0 && !sig && code == 0 && build_stamp_parsed(g_build.output, &stamp);
        log_event("build_stage", "\"stage\":\"stamp\",\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f",
                  *ok ? "true" : "false", (os_mono_seconds() - g_build.stage_t) * 1000.0, g_build.child.cpu_ms);
        if (!*ok) return 1;   /* its message is the build's output */
        stamp_use(stamp);
        g_build.output_len = 0;
        g_build.output[0] = 0;
        if (direct_start()) return 0;
        *ok = 0;
        return 1;
    }
    if (g_build.direct && g_build.stage == 0) {
        if (!chunks_poll(ok)) return 0;
        g_build.stage_ms[0] = (os_mono_seconds() - g_build.stage_t) * 1000.0;
        for (int i = 0; i < g_build.chunk_count; i++)
            if (g_build.chunks[i].stale) g_build.stage_cpu_ms[0] += g_build.chunks[i].cpu_ms;
        g_build.stage_cpu_ms[0] += g_build.pchc.cpu_ms;
        log_event("build_stage", "\"stage\":\"compile\",\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f,\"chunks\":%d,"
                  "\"grouped\":%s%s", *ok ? "true" : "false", g_build.stage_ms[0], g_build.stage_cpu_ms[0],
                  g_build.stale_count, g_build.grouped ? "true" : "false",
                  g_build.objects_only ? ",\"resplit\":true" : "");
        if (*ok && !g_build.queued && !g_build.objects_only) {
            if (spawn_link()) return 0;   /* the link; the build ends when it does */
            *ok = 0;
        }
        return 1;
    }
    build_drain();
    int code = -1, sig = 0;
    int r = os_child_poll(&g_build.child, &code, &sig);
    if (r == 0) return 0;
    build_drain();
    os_child_kill(&g_build.child);   /* already ended: closes the pipe */
    *ok = r > 0 && !sig && code == 0;
    if (g_build.direct) {
        g_build.stage_ms[1] = (os_mono_seconds() - g_build.stage_t) * 1000.0;
        g_build.stage_cpu_ms[1] = g_build.child.cpu_ms;
        log_event("build_stage", "\"stage\":\"link\",\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f", *ok ? "true" : "false",
                  g_build.stage_ms[1], g_build.stage_cpu_ms[1]);
        if (*ok) {
            /* into place in one step: a reader never sees half a library */
            char to[HOST_PATH], key[HOST_PATH];
            snprintf(to, sizeof to, "%s", library_built_path());
            snprintf(key, sizeof key, "%s.key", to);
            os_remove_file(key);   /* an older build's key named the sources of the library this one replaces */
            link_record(0);        /* no moment where the record names a link this library did not come from */
            if (!os_rename_file(g_build.lib_tmp, to)) {
                log_message(LOG_ERROR, "build: cannot move %s to %s: %s", g_build.lib_tmp, to, os_error_text());
                *ok = 0;
            } else link_record(1);
        }
    }
    return 1;
}

/* Within a frame (the frame loop calls it after the step and after drawing): a compile that ended starts its link
   now rather than at the frame's end. A build that ended is kept for build_poll, which loads it between frames. */
void build_pump(void)
{
    if (!g_build.active && g_build.resplit) resplit_start();
    if (!g_build.active || g_build.ended) return;
    int ok;
    if (build_advance(&ok)) { g_build.ended = 1; g_build.ended_ok = ok; }
}

int build_ended(void) { return g_build.active && g_build.ended; }

void build_poll(BuildResult *out)
{
    out->finished = 0;
    if (!g_build.active) return;
    int ok;
    if (g_build.ended) ok = g_build.ended_ok;
    else if (!build_advance(&ok)) return;
    g_build.ended = 0;
    if (g_build.objects_only) {   /* the background compiles ended: nothing to load */
        chunks_reset();
        g_build.active = g_build.objects_only = 0;
        log_event("build_resplit_end", "\"ok\":%s,\"ms\":%.1f", ok ? "true" : "false",
                  (os_mono_seconds() - g_build.start_t) * 1000.0);
        if (g_build.queued) { g_build.queued = 0; build_spawn(); }
        return;
    }
    g_build.resplit = ok && g_build.grouped;
    double cpu_ms = g_build.direct ? g_build.stage_cpu_ms[0] + g_build.stage_cpu_ms[1] : g_build.child.cpu_ms;
    if (g_build.direct) {
        os_remove_file(g_build.lib_tmp);
        chunks_reset();
    }
    g_build.active = 0;
    out->finished = 1;
    out->ok = ok;
    tweak_build_finished(out->ok);
    out->ms = (os_mono_seconds() - g_build.start_t) * 1000.0;
    static char errors[8192];
    out->error_count = build_report_errors(errors, sizeof errors);
    if (!out->ok && out->error_count == 0) {
        /* failed with no file:line:col error (the layout stamp, the linker, build.sh): its first line that says
           something is the one error, so error_count and errors always agree */
        const char *p = g_build.output;
        while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t') p++;
        char first[1024];
        size_t n = 0;
        while (p[n] && p[n] != '\n' && p[n] != '\r' && n + 1 < sizeof first) { first[n] = p[n]; n++; }
        first[n] = 0;
        char fesc[2048];
        parse_json_escape(n ? first : "the build failed with no output", fesc, sizeof fesc);
        snprintf(errors, sizeof errors, "{\"file\":\"\",\"line\":0,\"col\":0,\"message\":\"%s\"}", fesc);
        out->error_count = 1;
    }
    snprintf(out->output, sizeof out->output, "%s", g_build.output);
    char esc[4096];
    parse_json_escape(g_build.output, esc, sizeof esc);
    log_event("build_end", "\"ok\":%s,\"ms\":%.1f,\"cpu_ms\":%.1f,\"direct\":%s,\"compile_ms\":%.1f,\"link_ms\":%.1f,"
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

/* --build-game (./build.sh game, after it wrote compile.cmd): the build a save runs, waited for here, with
   its output on stderr and one line of what it did. Nothing stale: no compile, and no link either when the
   library is current (library_current). */
int build_game_now(const char *root)
{
#if defined(_WIN32)
    (void)root;
    fprintf(stderr, "game: --build-game is for Linux (build.bat game builds the game on Windows)\n");
    return 0;
#else
    snprintf(g_build.root, sizeof g_build.root, "%s", root);
    char msg[1024];
    if (plan_game(root, 0, msg, sizeof msg) != PLAN_READY) { fputs(msg, stderr); return 0; }
    if (!load_direct_commands()) {
        fprintf(stderr, "game: %s/compile.cmd does not match the game folder it was planned from\n",
                game_build_folder());
        return 0;
    }
    g_build.direct = 1;
    g_build.output_len = 0;
    g_build.output[0] = 0;
    chunks_mark_stale();
    if (!g_build.stale_count && library_current()) {
        chunks_reset();
        fprintf(stderr, "game: up to date\n");
        return 1;
    }
    g_build.stage = 0;
    g_build.stage_t = g_build.start_t = os_mono_seconds();
    int ok = 0;
    if (!g_build.stale_count) { if (!spawn_link()) return 0; }
    else { pch_mark_stale(); chunks_fill(); }
    while (!build_advance(&ok)) {
        int fd = build_fd();
        os_wait_readable(&fd, 1, 0.05);
    }
    fputs(g_build.output, stderr);
    int stale = g_build.stale_count, chunks = g_build.chunk_count;
    os_remove_file(g_build.lib_tmp);
    chunks_reset();
    if (!ok) { fprintf(stderr, "game: the build failed\n"); return 0; }
    fprintf(stderr, "game: compile %d ms (%d of %d chunks), link %d ms\n", (int)g_build.stage_ms[0], stale, chunks,
            (int)g_build.stage_ms[1]);
    return 1;
#endif
}

/* Once a frame: game code that closed or replaced a running build's pipe (close_range, dup2) took its output
   (the errors a person reads). That build starts again. */
int build_restart_lost(void)
{
    if (!g_build.active || g_build.ended) return 0;
    int lost = g_build.child.pid && os_child_lost(&g_build.child);
    for (int i = 0; i < g_build.chunk_count && !lost; i++) {
        const BuildChunk *c = &g_build.chunks[i];
        lost = c->started && !c->ended && os_child_lost(&c->child);
    }
    if (!lost) return 0;
    os_child_kill(&g_build.child);
    chunks_reset();
    g_build.active = 0;
    tweak_build_finished(0);
    build_spawn();
    return 1;
}

void build_shutdown(void)
{
    os_child_kill(&g_build.child);
    chunks_reset();
    free(g_build.cmd_text);
    g_build.cmd_text = NULL;
}
