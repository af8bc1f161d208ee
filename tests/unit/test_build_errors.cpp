/* Tests for the one reader of compiler errors, build_next_error (platform/live/build.cpp), and its two users:
   the build_end event's located errors and the overlay's summary. gcc/clang, MSVC and linker lines, a
   warning that mentions an error, and the summary's path cut at game/. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "build_test_host.h"
const char *library_built_path(void) { return "libgame.so"; }
const char *game_folder(void) { return "/src/proj/game"; }          /* game_folder.cpp is not part of this program */
const char *game_build_folder(void) { return "/src/proj/build/game"; }

static const char OUTPUT[] =
    "In file included from /src/proj/game/game.cpp:3:\n"
    "/src/proj/game/world.cpp:12:5: error: 'foo' was not declared in this scope\n"
    "/src/proj/game/world.cpp:20:1: warning: unused variable: error here is only a word\n"
    "C:\\proj\\game\\ui.cpp(41): error C2065: 'bar': undeclared identifier\n"
    "/src/proj/game/fx.cpp:7:10: fatal error: missing.h: No such file or directory\n"
    "/usr/bin/ld: error: undefined reference to `baz'\n"
    "collect2: error: ld returned 1 exit status";

static void test_each_kind_of_error_line(void)
{
    const char *p = OUTPUT;
    BuildError e;
    TH_CHECK(build_next_error(&p, &e));
    TH_CHECK(!strcmp(e.file, "/src/proj/game/world.cpp") && e.line == 12 && e.col == 5);
    TH_CHECK_MSG(!strcmp(e.message, "'foo' was not declared in this scope"), "message: %s", e.message);
    TH_CHECK(build_next_error(&p, &e));   /* the warning holds ": error" in its text: no location */
    TH_CHECK_EQ_INT(e.line, 0);
    TH_CHECK(build_next_error(&p, &e));
    TH_CHECK(!strcmp(e.file, "C:\\proj\\game\\ui.cpp") && e.line == 41 && e.col == 0);
    TH_CHECK_MSG(!strcmp(e.message, "'bar': undeclared identifier"), "message: %s", e.message);
    TH_CHECK(build_next_error(&p, &e));
    TH_CHECK(!strcmp(e.file, "/src/proj/game/fx.cpp") && e.line == 7 && e.col == 10);
    TH_CHECK(!strcmp(e.message, "missing.h: No such file or directory"));
    TH_CHECK(build_next_error(&p, &e));
    TH_CHECK(e.line == 0 && e.file[0] == 0 && !strcmp(e.message, "/usr/bin/ld: error: undefined reference to `baz'"));
    TH_CHECK(build_next_error(&p, &e));
    TH_CHECK(e.line == 0 && (size_t)(e.text - OUTPUT) + e.len == sizeof OUTPUT - 1);   /* the last line, no newline */
    TH_CHECK(!build_next_error(&p, &e));
    TH_CHECK(!build_next_error(&p, &e));
}

static void test_event_json_lists_located_errors(void)
{
    snprintf(g_build.output, sizeof g_build.output, "%s", OUTPUT);
    char json[4096];
    TH_CHECK_EQ_INT(build_report_errors(json, sizeof json), 3);
    TH_CHECK_MSG(strstr(json, "{\"file\":\"/src/proj/game/world.cpp\",\"line\":12,\"col\":5,\"message\":\"'foo' was not declared in this scope\"}") == json,
                 "json: %s", json);
    TH_CHECK_MSG(strstr(json, "{\"file\":\"C:\\\\proj\\\\game\\\\ui.cpp\",\"line\":41,\"col\":0,"), "json: %s", json);
}

static void test_overlay_summary(void)
{
    char out[1024];
    build_error_summary(OUTPUT, out, sizeof out);
    TH_CHECK_MSG(!strncmp(out, "game/world.cpp:12:5: error: 'foo'", 33), "summary: %s", out);
    TH_CHECK_MSG(strstr(out, "\ngame\\ui.cpp(41): error C2065"), "summary: %s", out);
    TH_CHECK_MSG(strstr(out, "\ncollect2: error: ld returned 1 exit status\n"), "summary: %s", out);
    int lines = 0;
    for (const char *c = out; *c; c++) lines += *c == '\n';
    TH_CHECK_EQ_INT(lines, 6);
    build_error_summary("make: nothing to do\n", out, sizeof out);   /* no error line: the output's start */
    TH_CHECK(!strcmp(out, "make: nothing to do\n"));
}

int main(void)
{
    TH_RUN(test_each_kind_of_error_line);
    TH_RUN(test_event_json_lists_located_errors);
    TH_RUN(test_overlay_summary);
    return th_test_finish();
}
