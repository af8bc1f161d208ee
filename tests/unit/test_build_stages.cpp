/* Tests for the stages of the host's own build (platform/live/build.cpp), run on a project folder made here whose
   compile.cmd runs shell commands in place of a compiler and a linker: build_pump, which the frame loop calls
   within a frame, starts the link as soon as the chunks have compiled and keeps the build's end for build_poll,
   which alone finishes it (the library is loaded between frames); a failed chunk ends the build without a link;
   and build_poll alone, with no pump, still runs the build through. And which chunks a save makes stale: a
   .cpp save its own chunk, a header the chunks that include it, a changed literal its chunk, no change none. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "build_test_host.h"

#include <string>
#include <sys/stat.h>
#include <unistd.h>

static std::string g_root;
static std::string g_game, g_out, g_libpath;
const char *library_built_path(void) { return g_libpath.c_str(); }
const char *game_folder(void) { return g_game.c_str(); }
const char *game_build_folder(void) { return g_out.c_str(); }

static void write(const std::string &path, const std::string &text)
{
    FILE *f = fopen(path.c_str(), "w");
    if (!f) return;
    fputs(text.c_str(), f);
    fclose(f);
}

static bool exists(const std::string &path) { OsFileStamp st; return os_file_stamp(path.c_str(), &st) != 0; }

/* The cached parts (the tinyheader object, the layout stamp) current: their keys kept for the files there now. */
static void keep_cached_keys(void)
{
    uint32_t crc = 0;
    unsigned long long size = 0;
    TH_CHECK(build_file_crc((g_game + "/state.h").c_str(), &crc, &size, NULL));
    plan_keep_tinyheaders(g_root.c_str());
    plan_keep_stamp(g_root.c_str(), 1, crc, size);
    TH_CHECK((plan_cached(g_root.c_str()) & (PLAN_TINYHEADERS | PLAN_LAYOUT | PLAN_STATE)) ==
             (PLAN_TINYHEADERS | PLAN_LAYOUT | PLAN_STATE));
}

/* A project folder in a fresh temporary folder: every input the plan's cached parts read (empty, their keys kept),
   the game and chunk folders. */
static void make_folders(char *tmpl)
{
    g_root = mkdtemp(tmpl);
    g_game = g_root + "/game";
    g_out = g_root + "/build/game";
    g_libpath = g_out + "/libgame.so";
    std::string mk = "mkdir -p '" + g_game + "' '" + g_out + "/chunks' '" + g_root + "/build/tinyheaders' '" + g_root +
                     "/tinyheaders' '" + g_root + "/platform/include' '" + g_root + "/tools'";
    TH_CHECK(system(mk.c_str()) == 0);
    for (const char *f : { "/build.sh", "/platform/include/tinyheaders.cpp", "/tools/layout_stamp.py",
                           "/build/tinyheaders/tinyheaders.o", "/game/state.h", "/build/game/state_types.inc" })
        write(g_root + f, "\n");
    keep_cached_keys();
}

/* compile.cmd (written after the inputs, by more than the file system's clock step: newer than every one), with the
   environment it names as the host's */
static void write_commands(const std::string &text)
{
    os_sleep_ms(30);
    write(g_out + "/compile.cmd", "::env GAME_CXX=\n::env GAME_EXTRA_FLAGS=\n::env GAME_CHUNK_LINES=400\n" + text);
    unsetenv("GAME_CXX");
    unsetenv("GAME_EXTRA_FLAGS");
    unsetenv("GAME_CHUNK_LINES");
}

/* The project: the plan's cached parts current; one chunk whose "compile" waits `compile_s`
   and writes its object (or fails), a "link" that waits 0.2 s and writes the library. */
static void make_project(const char *compile_s, bool compile_fails)
{
    char tmpl[] = "/tmp/build_stages_XXXXXX";
    make_folders(tmpl);
    write(g_game + "/a.cpp", "int a;\n");
    write(g_out + "/chunks/chunk-0.cpp", "#include \"a.cpp\"\n");
    std::string compile = std::string("sleep ") + compile_s + (compile_fails ? "; echo 'a.cpp:1:1: error: no' >&2; exit 1"
                                                                             : "; : > \"$0\"; : > \"$1\"");
    write_commands("::files a.cpp/\n::entry \n::chunk build/game/chunks/chunk-0\n"
                   "::compile\n/bin/sh\n-c\n" + compile + "\n@OBJ@\n@DEP@\n"
                   "::link\n/bin/sh\n-c\nsleep 0.2; : > \"$0\"\n@LIB@\n::end\n");
}

static void remove_project(void)
{
    build_shutdown();
    TH_CHECK(system(("rm -rf '" + g_root + "'").c_str()) == 0);
}

/* waits up to `seconds` for cond(), calling step() between looks */
template <class Cond, class Step> static bool within(double seconds, Cond cond, Step step)
{
    double end = os_mono_seconds() + seconds;
    while (!cond()) {
        if (os_mono_seconds() > end) return false;
        step();
        os_sleep_ms(5);
    }
    return true;
}

static void test_pump_links_and_keeps_the_end(void)
{
    make_project("0.2", false);
    build_start(g_root.c_str());
    TH_CHECK(build_running() && g_build.direct && g_build.stage == 0);
    /* only the pump from here: the frame is being drawn */
    TH_CHECK(within(10, [] { return g_build.stage == 1; }, build_pump));
    TH_CHECK(exists(g_root + "/build/game/chunks/chunk-0.o"));   /* compiled, then linked: no build_poll */
    TH_CHECK(!build_ended());
    TH_CHECK(within(10, [] { return build_ended() != 0; }, build_pump));
    TH_CHECK(exists(g_libpath));           /* in place already */
    TH_CHECK(build_running());         /* but not finished: that is build_poll's, between frames */
    build_pump();
    TH_CHECK(build_ended());
    BuildResult r;
    build_poll(&r);
    TH_CHECK(r.finished && r.ok);
    TH_CHECK(!build_running() && !build_ended());
    build_poll(&r);
    TH_CHECK(!r.finished);
    remove_project();
}

static void test_failed_chunk_ends_without_a_link(void)
{
    make_project("0.1", true);
    build_start(g_root.c_str());
    TH_CHECK(g_build.direct);
    TH_CHECK(within(10, [] { return build_ended() != 0; }, build_pump));
    TH_CHECK(g_build.stage == 0);      /* no link was started */
    BuildResult r;
    build_poll(&r);
    TH_CHECK(r.finished && !r.ok && r.error_count == 1);
    TH_CHECK(!exists(g_libpath));
    remove_project();
}

static void test_poll_alone(void)
{
    make_project("0.1", false);
    build_start(g_root.c_str());
    BuildResult r;
    r.finished = 0;
    TH_CHECK(within(10, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK(r.ok && exists(g_libpath));
    remove_project();
}

/* ---------------------------------------------------------------- which chunks a save makes stale */
/* Two chunks compiled by the real preprocessor (g++ -MM writes each chunk's dependency file, a real list of what
   it reads): chunk-0 holds a.cpp (which includes shared.h and common.h), chunk-1 holds b.cpp (common.h). Each
   save below must make stale exactly the chunks whose inputs changed, as the host's direct build decides. */
static void write_game_file(const char *name, const char *text)
{
    write(g_game + "/" + name, text);
}

/* Starts a build, returns "01"-style flags of which chunks it found stale, and runs it to its end. */
static std::string build_and_see_stale(void)
{
    build_start(g_root.c_str());
    std::string stale;
    if (!g_build.direct) return "not direct";
    for (int i = 0; i < g_build.chunk_count; i++) stale += g_build.chunks[i].stale ? '1' : '0';
    BuildResult r;
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK(r.ok);
    return stale;
}

static void test_only_the_saved_chunks_are_stale(void)
{
    char tmpl[] = "/tmp/build_stale_XXXXXX";
    make_folders(tmpl);
    write_game_file("common.h", "static const int COMMON = 1;\n");
    write_game_file("shared.h", "static const int SHARED = 1;\n");
    write_game_file("a.cpp", "#include \"shared.h\"\n#include \"common.h\"\nint a = SHARED + COMMON;\n");
    write_game_file("b.cpp", "#include \"common.h\"\nfloat b = 1.5f * COMMON;   /* a TWEAK-style literal */\n");
    write(g_out + "/chunks/chunk-0.cpp", "#include \"a.cpp\"\n");
    write(g_out + "/chunks/chunk-1.cpp", "#include \"b.cpp\"\n");
    /* the "compiler": the real preprocessor's dependency list of the chunk, then an empty object */
    write_commands("::files a.cpp/b.cpp/\n::entry \n::chunk build/game/chunks/chunk-0\n::chunk build/game/chunks/chunk-1\n"
                   "::compile\n/bin/sh\n-c\ng++ -MM -iquote game -MT \"$0\" -MF \"$1\" \"$2\" && : > \"$0\"\n@OBJ@\n@DEP@\n"
                   "@SRC@\n::link\n/bin/sh\n-c\n: > \"$0\"\n@LIB@\n::end\n");

    TH_CHECK_MSG(build_and_see_stale() == "11", "the first build compiles every chunk");
    TH_CHECK_MSG(build_and_see_stale() == "00", "nothing saved: nothing stale");
    write_game_file("a.cpp", "#include \"shared.h\"\n#include \"common.h\"\nint a = SHARED + COMMON + 1;\n");
    std::string s = build_and_see_stale();
    TH_CHECK_MSG(s == "10", "a .cpp save: its chunk alone (stale %s)", s.c_str());
    write_game_file("shared.h", "static const int SHARED = 2;\n");
    s = build_and_see_stale();
    TH_CHECK_MSG(s == "10", "a header one chunk includes: that chunk alone (stale %s)", s.c_str());
    write_game_file("common.h", "static const int COMMON = 2;\n");
    s = build_and_see_stale();
    TH_CHECK_MSG(s == "11", "a header both include: both (stale %s)", s.c_str());
    write_game_file("b.cpp", "#include \"common.h\"\nfloat b = 2.5f * COMMON;   /* a TWEAK-style literal */\n");
    s = build_and_see_stale();
    TH_CHECK_MSG(s == "01", "a literal changed (a TWEAK saved): the next build compiles its chunk (stale %s)", s.c_str());
    write_game_file("b.cpp", "#include \"common.h\"\nfloat b = 2.5f * COMMON;   /* a TWEAK-style literal */\n");
    s = build_and_see_stale();
    TH_CHECK_MSG(s == "00", "saved with the same bytes: nothing stale (stale %s)", s.c_str());
    remove_project();
}

/* The precompiled header (compile.cmd's ::pch, clang): made before the chunks that read it (those that define
   GAME_NO_STATE_TYPES; the entry chunk compiles beside it), again only when what it read changed, and its
   failure is the build's message. Real clang compiles, so a chunk given a stale header would fail: clang checks
   the size of each file the header was made from. */
static void test_precompiled_header(void)
{
    char tmpl[] = "/tmp/build_pch_XXXXXX";
    make_folders(tmpl);
    /* top.h as game.h is, a guarded header that includes the one the precompiled header holds (as game_engine.h) */
    write_game_file("top.h", "#ifndef TOP_H\n#define TOP_H\n#include \"eng.h\"\n#endif\n");
    write_game_file("eng.h", "#pragma once\nstatic const int ENG = 1;\n");
    write_game_file("a.cpp", "#include \"top.h\"\nint a = ENG;\n");
    write_game_file("game.cpp", "#include \"top.h\"\nint g = ENG + 1;   /* GAME_GET_API(x) */\n");
    write(g_out + "/chunks/chunk-0.cpp", "#define GAME_NO_STATE_TYPES\n#include \"a.cpp\"\n");
    write(g_out + "/chunks/chunk-1.cpp", "#include \"game.cpp\"\n");
    write(g_out + "/chunks/engine.h", "#define GAME_NO_STATE_TYPES\n#include \"top.h\"\n");
    write_commands("::files a.cpp/game.cpp/\n::entry game.cpp/\n"
                   "::chunk build/game/chunks/chunk-0\n::chunk build/game/chunks/chunk-1\n"
                   "::compile\nclang++\n-iquote\ngame\n@PCH@\n-MMD\n-MF\n@DEP@\n-c\n@SRC@\n-o\n@OBJ@\n"
                   "::pch build/game/chunks/engine\nclang++\n-iquote\ngame\n-Xclang\n-fno-pch-timestamp\n-x\n"
                   "c++-header\n-MMD\n-MF\n@DEP@\n-c\n@SRC@\n-o\n@OBJ@\n"
                   "::link\n/bin/sh\n-c\n: > \"$0\"\n@LIB@\n::end\n");
    std::string pch = g_out + "/chunks/engine.pch";

    build_start(g_root.c_str());
    TH_CHECK_MSG(g_build.pchc.stale && g_build.pchc.started && !g_build.chunks[0].started &&
                 (g_build.jobs < 2 || g_build.chunks[1].started),
                 "the first build: the header first, the entry chunk beside it");
    TH_CHECK(g_build.chunks[0].pch && !g_build.chunks[1].pch);   /* the entry chunk does not read it */
    BuildResult r;
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK_MSG(r.ok && exists(pch), "then the chunk that reads it: %s", r.output);
    TH_CHECK_MSG(build_and_see_stale() == "00", "nothing saved: nothing stale");
    write_game_file("a.cpp", "#include \"top.h\"\nint a = ENG * 2;\n");
    build_start(g_root.c_str());
    TH_CHECK_MSG(g_build.chunks[0].stale && !g_build.chunks[1].stale && !g_build.pchc.stale,
                 "a .cpp save: its chunk, and the header is not made again");
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK_MSG(r.ok, "%s", r.output);
    write_game_file("eng.h", "#pragma once\nstatic const int ENG = 22;\n");   /* a size clang would refuse */
    build_start(g_root.c_str());
    TH_CHECK_MSG(g_build.chunks[0].stale && g_build.chunks[1].stale && g_build.pchc.stale,
                 "a header it was made from: made again, and both chunks compiled");
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK_MSG(r.ok, "the chunk reads the header made again: %s", r.output);
    os_sleep_ms(20);
    write_game_file("eng.h", "#pragma once\nstatic const int ENG = 22;\n");   /* the same bytes, a newer date */
    TH_CHECK_MSG(build_and_see_stale() == "00", "a header saved with the same bytes: nothing stale");
    write_game_file("a.cpp", "#include \"top.h\"\nint a = ENG * 3;\n");
    TH_CHECK_MSG(build_and_see_stale() == "10", "and the header made before that save still serves");
    TH_CHECK(os_remove_file(pch.c_str()));
    TH_CHECK_MSG(build_and_see_stale() == "00", "the header removed: nothing to compile, nothing made");
    write_game_file("a.cpp", "#include \"top.h\"\nint a = ENG * 4;\n");
    build_start(g_root.c_str());
    TH_CHECK_MSG(g_build.pchc.stale, "the header removed, a chunk to compile: made first");
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK(r.ok && exists(pch));
    OsFileStamp before, after;
    TH_CHECK(os_file_stamp((g_out + "/chunks/chunk-0.o").c_str(), &before));
    os_sleep_ms(20);
    write_game_file("eng.h", "#pragma once\nstatic const int ENG = ;\n");
    build_start(g_root.c_str());
    TH_CHECK(g_build.pchc.stale && g_build.chunks[0].stale && !g_build.chunks[0].started);   /* waits for the header */
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK_MSG(!r.ok && strstr(r.output, "engine.h:2:") && strstr(r.output, "eng.h:2:"),
                 "the header does not compile: its error is the build's: %s", r.output);
    TH_CHECK_MSG(os_file_stamp((g_out + "/chunks/chunk-0.o").c_str(), &after) && os_same_stamp(&before, &after),
                 "and the chunk that reads it never compiled");
    /* a copy of the project, built objects and all: the chunk's dependency file names the header's inputs by their
       absolute paths, the original's; a save of one of them in the copy still makes its chunk stale */
    write_game_file("eng.h", "#pragma once\nstatic const int ENG = 5;\n");
    TH_CHECK(build_and_see_stale() == "11");
    std::string original = g_root;
    TH_CHECK(system(("cp -a '" + original + "' '" + original + "-copy'").c_str()) == 0);
    g_root = original + "-copy";
    g_game = g_root + "/game";
    g_out = g_root + "/build/game";
    g_libpath = g_out + "/libgame.so";
    TH_CHECK_MSG(build_and_see_stale() == "00", "the copy's objects hold");
    write_game_file("eng.h", "#pragma once\nstatic const int ENG = 66;\n");
    build_start(g_root.c_str());
    TH_CHECK_MSG(g_build.chunks[0].stale && g_build.pchc.stale, "a header save in the copy: the chunk that reads it");
    r.finished = 0;
    TH_CHECK(within(30, [&r] { return r.finished != 0; }, [&r] { build_poll(&r); }));
    TH_CHECK_MSG(r.ok, "%s", r.output);
    remove_project();
    TH_CHECK(system(("rm -rf '" + original + "'").c_str()) == 0);
}

/* ---------------------------------------------------------------- the plan (plan.cpp) */
static std::string chunk_names(const GameSources &s, const GameChunks &c, int k)
{
    std::string names;
    for (int r = c.first[k]; r < c.first[k + 1]; r++) names += std::string(s.name[c.roots[r]]) + " ";
    return names;
}

/* The roots are the .cpp files no other includes, packed in byte order up to the line bound (a bigger file a chunk
   of its own); the entries are the roots that say GAME_GET_API, and only their chunks read the state's types. */
static void test_plan_roots_chunks_entries(void)
{
    char tmpl[] = "/tmp/build_plan_XXXXXX";
    make_folders(tmpl);
    write_game_file("game.cpp", "#include \"game.h\"\n  # include \"parts/bits.cpp\"\nGAME_GET_API (x)\n");
    write_game_file("bits.cpp", "int bits;\n");                        /* included: not a root */
    write_game_file("a.cpp", "int a;\nint a2;\n");
    write_game_file("big.cpp", "1\n2\n3\n4\n5\n6\n7\n");              /* more than the bound: a chunk of its own */
    write_game_file("z.cpp", "int z;\n");
    static GameSources s;
    static GameChunks c;
    TH_CHECK(plan_sources(g_game.c_str(), &s));
    TH_CHECK(s.count == 5 && !strcmp(s.name[0], "a.cpp") && !strcmp(s.name[4], "z.cpp"));
    TH_CHECK(s.root[0] && s.root[1] && !s.root[2] && s.root[3] && s.root[4]);   /* bits.cpp is included */
    plan_chunks(&s, 4, &c);
    TH_CHECK_MSG(c.count == 3, "chunks %d", c.count);
    TH_CHECK(chunk_names(s, c, 0) == "a.cpp ");
    TH_CHECK(chunk_names(s, c, 1) == "big.cpp ");
    TH_CHECK_MSG(chunk_names(s, c, 2) == "game.cpp z.cpp ", "%s", chunk_names(s, c, 2).c_str());
    TH_CHECK(!strcmp(c.entries, "game.cpp/"));
    char text[4096];
    TH_CHECK(plan_chunk_text(&s, &c, 0, text, sizeof text) && strstr(text, "#define GAME_NO_STATE_TYPES") &&
             strstr(text, "#include \"a.cpp\"\n"));
    TH_CHECK(plan_chunk_text(&s, &c, 2, text, sizeof text) && !strstr(text, "GAME_NO_STATE_TYPES") &&
             strstr(text, "#include \"game.cpp\"\n#include \"z.cpp\"\n"));
    plan_chunks(&s, 400, &c);
    TH_CHECK(c.count == 1 && chunk_names(s, c, 0) == "a.cpp big.cpp game.cpp z.cpp ");
    /* game_get_api in a file another includes: every chunk reads the state's types */
    write_game_file("bits.cpp", "GAME_GET_API(y)\n");
    TH_CHECK(plan_sources(g_game.c_str(), &s));
    plan_chunks(&s, 4, &c);
    TH_CHECK(c.entries[0] == 0);
    TH_CHECK(plan_chunk_text(&s, &c, 0, text, sizeof text) && !strstr(text, "GAME_NO_STATE_TYPES"));
    remove_project();
}

/* A quick plan writes the chunk files (an unchanged one keeps its date), removes those of a longer plan, and
   writes compile.cmd, which the build then runs; the plan's cached parts stale: PLAN_SLOW, nothing written. */
static void test_plan_writes_chunks_and_commands(void)
{
    char tmpl[] = "/tmp/build_plan_XXXXXX";
    setenv("GAME_CXX", "clang++", 1);   /* one compiler throughout: the cached parts' keys name it */
    make_folders(tmpl);
    setenv("GAME_CHUNK_LINES", "1", 1);
    write_game_file("a.cpp", "int a;\n");
    write_game_file("b.cpp", "int b;\n");
    write(g_out + "/chunks/chunk-0.cpp", "old\n");
    write(g_out + "/chunks/chunk-7.cpp", "a longer plan's\n");
    write(g_out + "/chunks/chunk-7.o", "");
    char msg[512];
    TH_CHECK_MSG(plan_game(g_root.c_str(), 1, msg, sizeof msg) == PLAN_READY, "%s", msg);
    TH_CHECK(exists(g_out + "/chunks/chunk-1.cpp") && !exists(g_out + "/chunks/chunk-2.cpp"));
    TH_CHECK(!exists(g_out + "/chunks/chunk-7.cpp") && !exists(g_out + "/chunks/chunk-7.o"));
    size_t len = 0;
    char *cmd = os_read_file((g_out + "/compile.cmd").c_str(), &len, 1 << 20);
    TH_CHECK(cmd && strstr(cmd, "::files a.cpp/b.cpp/\n") && strstr(cmd, "::chunk build/game/chunks/chunk-1\n") &&
             strstr(cmd, "::env GAME_CHUNK_LINES=1\n") && strstr(cmd, "-DGAME_LAYOUT_HASH=1u\n"));
    free(cmd);
    OsFileStamp before, after;
    TH_CHECK(os_file_stamp((g_out + "/chunks/chunk-0.cpp").c_str(), &before));
    os_sleep_ms(20);
    TH_CHECK(plan_game(g_root.c_str(), 1, msg, sizeof msg) == PLAN_READY);
    TH_CHECK(os_file_stamp((g_out + "/chunks/chunk-0.cpp").c_str(), &after) && os_same_stamp(&before, &after));
    /* the precompiled engine header: planned for clang run directly or through ccache, not through a launcher that
       compiles on other machines, nor with GAME_PCH=0 (g++ here would be GAME_CXX's) */
    struct { const char *launcher, *pch; bool planned; } cases[] = {
        { "", NULL, true }, { "ccache", NULL, true }, { "/usr/bin/ccache", NULL, true },
        { "distcc", NULL, false }, { "ccache distcc", NULL, false }, { "", "0", false } };
    for (const auto &k : cases) {
        setenv("ENGINE_COMPILER_LAUNCHER", k.launcher, 1);
        if (k.pch) setenv("GAME_PCH", k.pch, 1); else unsetenv("GAME_PCH");
        TH_CHECK(plan_game(g_root.c_str(), 1, msg, sizeof msg) == PLAN_READY);
        char *text = os_read_file((g_out + "/compile.cmd").c_str(), &len, 1 << 20);
        bool planned = text && strstr(text, "::pch build/game/chunks/engine\n") && strstr(text, "\n@PCH@\n") &&
                       exists(g_out + "/chunks/engine.h");
        TH_CHECK_MSG(planned == k.planned, "launcher '%s', GAME_PCH %s: planned %d", k.launcher, k.pch ? k.pch : "unset",
                     (int)planned);
        free(text);
    }
    unsetenv("ENGINE_COMPILER_LAUNCHER");
    unsetenv("GAME_PCH");
    unsetenv("GAME_CXX");
    write(g_root + "/tinyheaders/th_new.h", "\n");   /* a tinyheader changed: the -O2 object is stale */
    TH_CHECK(plan_game(g_root.c_str(), 1, msg, sizeof msg) == PLAN_SLOW);
    unsetenv("GAME_CHUNK_LINES");
    remove_project();
}

/* The compiler a plan names with GAME_CXX unset (plan.cpp, default_cxx), for a PATH of folders of stand-ins (each
   time a new PATH: the choice is looked up again when PATH changes) */
static std::string default_compiler(const std::string &path)
{
    static int calls;
    setenv("PATH", (path + ":/nonexistent-" + std::to_string(++calls)).c_str(), 1);
    keep_cached_keys();
    char msg[512];
    TH_CHECK_MSG(plan_game(g_root.c_str(), 1, msg, sizeof msg) == PLAN_READY, "%s", msg);
    size_t len = 0;
    char *cmd = os_read_file((g_out + "/compile.cmd").c_str(), &len, 1 << 20);
    const char *at = cmd ? strstr(cmd, "::compile\n") : NULL;
    std::string word = at ? std::string(at + 10, strcspn(at + 10, "\n")) : "";
    free(cmd);
    return word;
}

/* With GAME_CXX unset: the newest clang++-N beside the clang++ PATH finds, unless it is that clang++; a clang++ with
   none beside it (a wrapper earlier on PATH) as it is; with no clang++, the newest clang++-N on PATH; else g++ */
static void test_default_compiler(void)
{
    char tmpl[] = "/tmp/build_cxx_XXXXXX";
    unsetenv("GAME_CXX");
    setenv("ENGINE_COMPILER_LAUNCHER", "", 1);
    make_folders(tmpl);
    write_game_file("a.cpp", "int a;\n");
    std::string was = getenv("PATH") ? getenv("PATH") : "", one = g_root + "/bin1", two = g_root + "/bin2";
    std::string both = one + ":" + two, wrap = g_root + "/wrap";
    TH_CHECK(system(("mkdir -p '" + one + "' '" + two + "' '" + wrap + "'").c_str()) == 0);
    auto stand_in = [](const std::string &f) {
        write(f, "#!/bin/sh\nexit 1\n");
        TH_CHECK(chmod(f.c_str(), 0755) == 0);
    };
    TH_CHECK_MSG(default_compiler(one) == "g++", "no clang: %s", default_compiler(one).c_str());
    stand_in(one + "/clang++");
    TH_CHECK_MSG(default_compiler(one) == "clang++", "clang++ alone: %s", default_compiler(one).c_str());
    for (const char *n : { "/clang++-7", "/clang++-9", "/clang++-", "/clang++-12x", "/clang++-3.9" }) stand_in(one + n);
    stand_in(two + "/clang++-12");
    TH_CHECK_MSG(default_compiler(both) == "clang++-9", "the newest beside clang++ (not another folder's): %s",
                 default_compiler(both).c_str());
    stand_in(wrap + "/clang++");
    TH_CHECK_MSG(default_compiler(wrap + ":" + both) == "clang++", "a clang++ wrapper first on PATH: %s",
                 default_compiler(wrap + ":" + both).c_str());
    TH_CHECK(unlink((one + "/clang++").c_str()) == 0);
    TH_CHECK(symlink((one + "/clang++-9").c_str(), (one + "/clang++").c_str()) == 0);
    TH_CHECK_MSG(default_compiler(both) == "clang++", "the newest is clang++ itself: %s", default_compiler(both).c_str());
    stand_in(two + "/clang++-9");   /* PATH finds this clang++-9 by name after one's: named by its path */
    TH_CHECK(unlink((one + "/clang++").c_str()) == 0);
    TH_CHECK(symlink((one + "/clang++-7").c_str(), (one + "/clang++").c_str()) == 0);
    TH_CHECK_MSG(default_compiler(two + ":" + one) == one + "/clang++-9", "shadowed by name: %s",
                 default_compiler(two + ":" + one).c_str());
    TH_CHECK(unlink((one + "/clang++").c_str()) == 0);
    TH_CHECK_MSG(default_compiler(both) == "clang++-12", "no clang++: the newest clang++-N on PATH: %s",
                 default_compiler(both).c_str());
    setenv("GAME_CXX", "my-cxx", 1);
    TH_CHECK_MSG(default_compiler(one) == "my-cxx", "GAME_CXX: %s", default_compiler(one).c_str());
    unsetenv("GAME_CXX");
    unsetenv("ENGINE_COMPILER_LAUNCHER");
    setenv("PATH", was.c_str(), 1);
    remove_project();
}

int main(void)
{
    TH_RUN(test_plan_roots_chunks_entries);
    TH_RUN(test_plan_writes_chunks_and_commands);
    TH_RUN(test_only_the_saved_chunks_are_stale);
    TH_RUN(test_precompiled_header);
    TH_RUN(test_pump_links_and_keeps_the_end);
    TH_RUN(test_failed_chunk_ends_without_a_link);
    TH_RUN(test_poll_alone);
    TH_RUN(test_default_compiler);
    return th_test_finish();
}
