// Unit tests for parse_event_fields (platform/core/parse.cpp): what a game's pf->event fields must be before
// they go into a line of the event log - the inside of a JSON object, on one line, without the line's own keys.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "core/parse.cpp"

#include <string>

static int ok(const char *in, char *out = nullptr, size_t cap = 0)
{
    char buf[512];
    const char *why = nullptr;
    int r = parse_event_fields(in, out ? out : buf, out ? cap : sizeof buf, &why);
    if (!r) TH_CHECK_MSG(why && why[0], "refused without a reason: %s", in);
    return r;
}

static void test_valid_fields_pass(void)
{
    TH_CHECK(ok(""));
    TH_CHECK(ok("\"score\":12,\"x\":3.5"));
    TH_CHECK(ok("\"a\":-1e-3,\"b\":true,\"c\":null,\"d\":false,\"e\":\"x\\\"y\\\\z\\u00e9\""));
    TH_CHECK(ok("\"o\":{\"p\":[1,2,{\"q\":[]}],\"r\":{}}"));
    TH_CHECK(ok("\"ev2\":1,\"names\":\"ev\""));   // only the line's own keys at the top are refused
    TH_CHECK(ok("\"o\":{\"ev\":1}"));
    char out[128];
    TH_CHECK(ok("\"n\":1,\n\t\"s\":\"a\\nb\"", out, sizeof out));
    TH_CHECK(!strchr(out, '\n') && !strchr(out, '\t'));   // whitespace between tokens becomes spaces
    TH_CHECK(!strcmp(out, "\"n\":1,\"s\":\"a\\nb\""));
}

static void test_line_breakers_refused(void)
{
    TH_CHECK(!ok("\"a\":1}\n{\"ev\":\"crash\""));   // the audit's forged line
    TH_CHECK(!ok("\"a\":\"line\nbreak\""));          // a raw newline inside a string
    TH_CHECK(!ok("\"a\":\"\x01\""));
    TH_CHECK(!ok("\"ev\":\"crash\""));               // the line's own keys
    TH_CHECK(!ok("\"t\":0"));
    TH_CHECK(!ok("\"name\":\"x\""));
    TH_CHECK(!ok("\"wall\":1,\"frame\":2"));
}

static void test_malformed_refused(void)
{
    const char *bad[] = { "score:12", "\"a\"", "\"a\":", "\"a\":1,", "\"a\":01x", "\"a\":1.", "\"a\":-", "\"a\":tru",
                          "\"a\":[1,2", "\"a\":{\"b\":1", "\"a\":\"open", "\"a\":\"\\q\"", "\"a\":\"\\u12\"", "\"a\":1}",
                          "\"a\":1 \"b\":2", ",\"a\":1" };
    for (const char *b : bad) TH_CHECK_MSG(!ok(b), "accepted: %s", b);
    std::string deep = "\"a\":";
    for (int i = 0; i < 40; i++) deep += "[";
    for (int i = 0; i < 40; i++) deep += "]";
    TH_CHECK(!ok(deep.c_str()));
    char tiny[8];
    TH_CHECK(!ok("\"abcdef\":12345", tiny, sizeof tiny));   // too long for the line: refused, never cut
    TH_CHECK(tiny[0] == 0);
}

int main(void)
{
    TH_RUN(test_valid_fields_pass);
    TH_RUN(test_line_breakers_refused);
    TH_RUN(test_malformed_refused);
    return th_test_finish();
}
