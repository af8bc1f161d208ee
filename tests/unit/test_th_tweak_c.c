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

int main(void)
{
    TH_RUN(test_c_macros);
    TH_RUN(test_c_scan);
    return th_test_finish();
}
