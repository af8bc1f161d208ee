/* th_tweak.h compiled as C99: the C reading macros (calls that return the value) and the parser. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"

#include <string.h>

static void hook(const char *file, int line, int counter, int kind, const char *literal, void *value)
{
    (void)file; (void)line; (void)counter;
    if (kind == THTW_FLOAT && strcmp(literal, "1.5f") == 0) *(float *)value = 9.0f;
}

static void test_c_macros(void)
{
    TH_CHECK(TWEAK_F(1.5f) == 1.5f);
    TH_CHECK(TWEAK_I(4) == 4);
    TH_CHECK(TWEAK_B(1) == 1);
    TH_CHECK(TWEAK_COLOR(0xFF00FF00u) == 0xFF00FF00u);
    thtw_set_hook(hook);
    TH_CHECK(TWEAK_F(1.5f) == 9.0f);
    TH_CHECK(TWEAK_F(2.5f) == 2.5f);
    thtw_set_hook(NULL);
}

static void test_c_scan(void)
{
    const char *src = "float a = TWEAK_F(1.5f);\n";
    thtw_site s[4];
    float v = 0;
    TH_CHECK(thtw_scan(src, strlen(src), s, 4) == 1);
    TH_CHECK(thtw_parse(THTW_FLOAT, src + s[0].arg_begin, (size_t)(s[0].arg_end - s[0].arg_begin), &v) && v == 1.5f);
}

/* the forms that went wrong before, from C */
static void test_c_edge_forms(void)
{
    int32_t i = 0;
    uint32_t c = 0;
    thtw_site s[4];
    const char *sep = "int a = TWEAK_I(1'000);\nfloat b = TWEAK_F(2.5f);\n";
    const char *splice = "const char *m = \"a\\\nb\"; int x = TWEAK_I(7);\n";
    TH_CHECK(!thtw_parse(THTW_INT, "-9223372036854775808", 20, &i));
    TH_CHECK(thtw_parse(THTW_INT, "-2147483648", 11, &i) && i == INT32_MIN);
    TH_CHECK(thtw_scan(sep, strlen(sep), s, 4) == 2 && s[1].line == 2);
    TH_CHECK(thtw_scan(splice, strlen(splice), s, 4) == 1 && s[0].line == 2);
    TH_CHECK(thtw_parse(THTW_COLOR, "0x5A1E5A", 8, &c) && c == 0x5A1E5AFFu);
    TH_CHECK(TWEAK_COLOR(0x5A1E5A) == 0x5A1E5AFFu);           /* compiled: opaque too */
    TH_CHECK(TWEAK_COLOR(0x005A1E5A) == 0x005A1E5Au);
    {   /* one non-literal site does not stop the others of its file going live */
        const char *base = "float a = TWEAK_F(SOME_MACRO);\nfloat b = TWEAK_F(2.5f);\n";
        const char *edit = "float a = TWEAK_F(SOME_MACRO);\nfloat b = TWEAK_F(4.0f);\n";
        thtw_site bs[4], ns[4];
        uint64_t v[4];
        unsigned char ok[4];
        float f = 0;
        int bn = thtw_scan(base, strlen(base), bs, 4), nn = thtw_scan(edit, strlen(edit), ns, 4);
        TH_CHECK(thtw_map(base, strlen(base), bs, bn, edit, strlen(edit), ns, nn, v, ok) == THTW_MAP_OK);
        memcpy(&f, &v[1], sizeof f);
        TH_CHECK(!ok[0] && ok[1] && f == 4.0f);
    }
}

int main(void)
{
    TH_RUN(test_c_edge_forms);
    TH_RUN(test_c_macros);
    TH_RUN(test_c_scan);
    return th_test_finish();
}
