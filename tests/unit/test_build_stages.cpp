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

/* A project folder in a fresh temporary folder: every input build.sh reads (empty), the game and chunk folders. */
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
                           "/build/tinyheaders/tinyheaders.o", "/game/state.h" })
        write(g_root + f, "\n");
}

/* The project: every input build.sh reads, older than compile.cmd; one chunk whose "compile" waits `compile_s`
   and writes its object (or fails), a "link" that waits 0.2 s and writes the library. */
static void make_project(const char *compile_s, bool compile_fails)
{
    char tmpl[] = "/tmp/build_stages_XXXXXX";
    make_folders(tmpl);
    write(g_game + "/a.cpp", "int a;\n");
    write(g_out + "/chunks/chunk-0.cpp", "#include \"a.cpp\"\n");
    os_sleep_ms(30);   /* compile.cmd newer than every input, by more than the file system's clock step */
    std::string compile = std::string("sleep ") + compile_s + (compile_fails ? "; echo 'a.cpp:1:1: error: no' >&2; exit 1"
                                                                             : "; : > \"$0\"; : > \"$1\"");
    write(g_out + "/compile.cmd",
          "::env GAME_CXX=\n::env GAME_EXTRA_FLAGS=\n::env GAME_CHUNK_LINES=400\n::files a.cpp/\n::entry \n"
          "::chunk build/game/chunks/chunk-0\n"
          "::compile\n/bin/sh\n-c\n" + compile + "\n@OBJ@\n@DEP@\n"
          "::link\n/bin/sh\n-c\nsleep 0.2; : > \"$0\"\n@LIB@\n::end\n");
    unsetenv("GAME_CXX");
    unsetenv("GAME_EXTRA_FLAGS");
    unsetenv("GAME_CHUNK_LINES");
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
    os_sleep_ms(30);
    /* the "compiler": the real preprocessor's dependency list of the chunk, then an empty object */
    write(g_out + "/compile.cmd",
          "::env GAME_CXX=\n::env GAME_EXTRA_FLAGS=\n::env GAME_CHUNK_LINES=400\n::files a.cpp/b.cpp/\n::entry \n"
          "::chunk build/game/chunks/chunk-0\n::chunk build/game/chunks/chunk-1\n"
          "::compile\n/bin/sh\n-c\ng++ -MM -iquote game -MT \"$0\" -MF \"$1\" \"$2\" && : > \"$0\"\n@OBJ@\n@DEP@\n@SRC@\n"
          "::link\n/bin/sh\n-c\n: > \"$0\"\n@LIB@\n::end\n");
    unsetenv("GAME_CXX");
    unsetenv("GAME_EXTRA_FLAGS");
    unsetenv("GAME_CHUNK_LINES");

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

int main(void)
{
    TH_RUN(test_only_the_saved_chunks_are_stale);
    TH_RUN(test_pump_links_and_keeps_the_end);
    TH_RUN(test_failed_chunk_ends_without_a_link);
    TH_RUN(test_poll_alone);
    return th_test_finish();
}
