// Unit tests for parse_json_flat (platform/core/parse.cpp): the control socket's request reader
// (docs/control.md). One flat JSON object a line: strings decoded, numbers and true/false/null as written, arrays of
// those; anything else - broken JSON, nesting, duplicate or long keys, a \u0000, more after the object - refused
// with a reason, never half taken.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "core/parse.cpp"

#include <string>

static JsonFlat g_j;

static int ok(const char *line)
{
    char err[256] = "";
    int r = parse_json_flat(line, &g_j, err, sizeof err);
    if (!r) TH_CHECK_MSG(err[0], "refused without a reason: %s", line);
    return r;
}

static void test_requests_read(void)
{
    TH_CHECK(ok("{}"));
    TH_CHECK(g_j.count == 0);
    TH_CHECK(ok(" {\"id\":7, \"cmd\":\"set\",\"path\":\"entities[3].pos.x\",\"value\":-1.5e2} \r\n"));
    TH_CHECK(g_j.count == 4);
    TH_CHECK(!strcmp(json_flat_get(&g_j, "cmd", 's'), "set"));
    TH_CHECK(!strcmp(json_flat_get(&g_j, "id", 'n'), "7"));
    TH_CHECK(!strcmp(json_flat_get(&g_j, "value", 0), "-1.5e2"));
    TH_CHECK(json_flat_get(&g_j, "value", 's') == NULL);   // a number is not a string
    TH_CHECK(json_flat_get(&g_j, "nothere", 0) == NULL);
    TH_CHECK(ok("{\"cmd\":\"input\",\"tap\":[\"ENTER\",\"SPACE\"],\"mouse\":[10,20.5],\"up\":[],\"on\":true,\"x\":null}"));
    TH_CHECK(!strcmp(json_flat_item(&g_j, "tap", 0), "ENTER") && !strcmp(json_flat_item(&g_j, "tap", 1), "SPACE"));
    TH_CHECK(json_flat_item(&g_j, "tap", 2) == NULL && json_flat_item(&g_j, "up", 0) == NULL);
    TH_CHECK(!strcmp(json_flat_item(&g_j, "mouse", 1), "20.5"));
    TH_CHECK(!strcmp(json_flat_get(&g_j, "on", 'b'), "true") && json_flat_get(&g_j, "x", 'z'));
}

static void test_strings_decoded(void)
{
    TH_CHECK(ok("{\"s\":\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\"}"));
    TH_CHECK(!strcmp(json_flat_get(&g_j, "s", 's'), "a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80"));
    TH_CHECK(ok("{\"s\":\"\\ud800x\"}"));   // a lone surrogate: U+FFFD
    TH_CHECK(!strcmp(json_flat_get(&g_j, "s", 's'), "\xef\xbf\xbdx"));
}

static void test_bad_requests_refused(void)
{
    const char *bad[] = {
        "", "   ", "not json", "[1,2]", "\"cmd\"", "{", "{\"cmd\":\"get\"", "{\"cmd\":\"get\",}", "{\"cmd\" \"get\"}",
        "{cmd:\"get\"}", "{\"cmd\":get}", "{\"a\":1}{\"b\":2}", "{\"a\":1} x", "{\"a\":{\"b\":1}}", "{\"a\":[[1]]}",
        "{\"a\":[{\"b\":1}]}", "{\"a\":[1,]}", "{\"a\":[1 2]}", "{\"a\":[1", "{\"a\":1,\"a\":2}", "{\"a\":01x}",
        "{\"a\":\"\\u0000\"}", "{\"a\":\"\\q\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"open}", "{\"a\":\"raw\nnewline\"}",
        "{\"a\":tru}", "{\"a\":-}", "{\"a\":1.}", "{\"k\\\"ey\":1}",
        "{\"a_key_that_is_longer_than_31_bytes\":1}",
    };
    for (const char *b : bad) TH_CHECK_MSG(!ok(b), "accepted: %s", b);
    std::string many = "{";
    for (int i = 0; i < 17; i++) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
    TH_CHECK(!ok((many + "}").c_str()));   // more members than a request has
    std::string big = "{\"a\":\"" + std::string(9000, 'x') + "\"}";
    TH_CHECK(!ok(big.c_str()));            // longer than the reader's text: refused, not cut
    char err[256];
    TH_CHECK(!parse_json_flat("{\"a\":1,}", &g_j, err, sizeof err) && strstr(err, "at byte"));   // names where
}

int main(void)
{
    TH_RUN(test_requests_read);
    TH_RUN(test_strings_decoded);
    TH_RUN(test_bad_requests_refused);
    return th_test_finish();
}
