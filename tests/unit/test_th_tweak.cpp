// Unit tests for tinyheaders/th_tweak.h: literal parsing, scanning source text, the shape check that
// decides whether a change can go live, and the reading macros with and without a hook.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"

#include <stdint.h>
#include <string.h>

static int parse_f(const char *s, float *v) { return thtw_parse(THTW_FLOAT, s, strlen(s), v); }
static int parse_i(const char *s, int32_t *v) { return thtw_parse(THTW_INT, s, strlen(s), v); }

static void test_parse_float(void)
{
    float v = 0;
    TH_CHECK(parse_f("3.5f", &v) && v == 3.5f);
    TH_CHECK(parse_f("3.5", &v) && v == 3.5f);
    TH_CHECK(parse_f("-3.5f", &v) && v == -3.5f);
    TH_CHECK(parse_f("- 3.5f", &v) && v == -3.5f);          /* what # makes of "-   3.5f" */
    TH_CHECK(parse_f("+2.0F", &v) && v == 2.0f);
    TH_CHECK(parse_f("-.5", &v) && v == -0.5f);
    TH_CHECK(parse_f("2.", &v) && v == 2.0f);
    TH_CHECK(parse_f("1e3", &v) && v == 1000.0f);
    TH_CHECK(parse_f("1e-3f", &v) && v == 1e-3f);
    TH_CHECK(parse_f("2.5E+2f", &v) && v == 250.0f);
    TH_CHECK(parse_f("  7.25f  ", &v) && v == 7.25f);
    TH_CHECK(parse_f("7.25f /* speed */", &v) && v == 7.25f);
    TH_CHECK(parse_f("(-1.5f)", &v) && v == -1.5f);
    TH_CHECK(parse_f("0.1f", &v) && v == 0.1f);              /* same float as the compiler's */
    /* not a float literal: kept out so a change of C++ type goes through the compiler */
    TH_CHECK(!parse_f("3", &v));
    TH_CHECK(!parse_f("3f", &v));
    TH_CHECK(!parse_f("3.5ff", &v));
    TH_CHECK(!parse_f("3.5.1", &v));
    TH_CHECK(!parse_f("1e", &v));
    TH_CHECK(!parse_f("", &v));
    TH_CHECK(!parse_f("-", &v));
    TH_CHECK(!parse_f("SPEED * 2", &v));
    TH_CHECK(!parse_f("3.5f + 1", &v));
    TH_CHECK(!parse_f("0x10", &v));
}

static void test_parse_int_bool_color_vec2(void)
{
    int32_t i = 0;
    TH_CHECK(parse_i("42", &i) && i == 42);
    TH_CHECK(parse_i("-7", &i) && i == -7);
    TH_CHECK(parse_i("0x1F", &i) && i == 31);
    TH_CHECK(parse_i("10u", &i) && i == 10);
    TH_CHECK(parse_i("3L", &i) && i == 3);
    TH_CHECK(parse_i("1'000", &i) && i == 1000);
    TH_CHECK(parse_i("-2147483648", &i) && i == INT32_MIN);
    TH_CHECK(!parse_i("99999999999", &i));
    TH_CHECK(!parse_i("3.0", &i));
    TH_CHECK(!parse_i("0x", &i));
    TH_CHECK(!parse_i("12abc", &i));

    int32_t b = -1;
    TH_CHECK(thtw_parse(THTW_BOOL, "true", 4, &b) && b == 1);
    TH_CHECK(thtw_parse(THTW_BOOL, "false", 5, &b) && b == 0);
    TH_CHECK(thtw_parse(THTW_BOOL, "1", 1, &b) && b == 1);
    TH_CHECK(!thtw_parse(THTW_BOOL, "yes", 3, &b));

    uint32_t c = 0;
    TH_CHECK(thtw_parse(THTW_COLOR, "0xFF8800FF", 10, &c) && c == 0xFF8800FFu);
    TH_CHECK(thtw_parse(THTW_COLOR, "0xff8800ffu", 11, &c) && c == 0xFF8800FFu);
    TH_CHECK(thtw_parse(THTW_COLOR, "0x00FF00", 8, &c) && c == 0x00FF00FFu);   /* 0xRRGGBB: opaque */
    TH_CHECK(thtw_parse(THTW_COLOR, "0x0000FF00", 10, &c) && c == 0x0000FF00u); /* eight digits: as written */
    TH_CHECK(!thtw_parse(THTW_COLOR, "0x1FF8800FF", 11, &c));
    TH_CHECK(!thtw_parse(THTW_COLOR, "-1", 2, &c));

    float v[2] = { 0, 0 };
    TH_CHECK(thtw_parse(THTW_VEC2, "1.0f, -2.5f", 11, v) && v[0] == 1.0f && v[1] == -2.5f);
    TH_CHECK(thtw_parse(THTW_VEC2, "1.0f ,2.5f", 10, v) && v[0] == 1.0f && v[1] == 2.5f);
    TH_CHECK(!thtw_parse(THTW_VEC2, "1.0f", 4, v));
    TH_CHECK(!thtw_parse(THTW_VEC2, "1.0f, x", 7, v));
    TH_CHECK(!thtw_parse(99, "1", 1, v));
}

static void test_normalize(void)
{
    char out[64];
    TH_CHECK(thtw_normalize("  a   b\t\nc  ", 12, out, sizeof out) == 5 && strcmp(out, "a b c") == 0);
    TH_CHECK(thtw_normalize("1.0f/*x*/", 9, out, sizeof out) >= 0 && strcmp(out, "1.0f") == 0);
    TH_CHECK(thtw_normalize("- /* c */ 2.0f", 14, out, sizeof out) >= 0 && strcmp(out, "- 2.0f") == 0);
    TH_CHECK(thtw_normalize("\"a  b\"", 6, out, sizeof out) >= 0 && strcmp(out, "\"a  b\"") == 0);
    TH_CHECK(thtw_normalize("123456789", 9, out, 4) == -1 && strlen(out) < 4);
}

static void test_scan(void)
{
    const char *src =
        "#define TWEAK(x) whatever(x)\n"                             /* line 1: a preprocessor line */
        "static constexpr auto A = TWEAK(340.0f);   // TWEAK(9.0f) in a comment\n"
        "const char *s = \"TWEAK(1.0f)\"; float b = TWEAK( - 2.5f ), c = TWEAK(7);\n"
        "/* TWEAK(3.0f)\n   still a comment */ auto d = TWEAK_COLOR(0xFF0000FF);\n"
        "auto e = TWEAK_V2(1.0f,\n   2.0f); bool f = TWEAK(true);\n"
        "int MYTWEAK(3); int TWEAKY = 1; auto g = TWEAK /* gap */ (1.5f);\n";
    thtw_site s[16];
    int n = thtw_scan(src, strlen(src), s, 16);
    TH_CHECK_EQ_INT(n, 6);
    if (n != 6) return;
    TH_CHECK(s[0].line == 2 && strcmp(s[0].literal, "340.0f") == 0 && s[0].kind == THTW_FLOAT);
    TH_CHECK(s[1].line == 3 && strcmp(s[1].literal, "- 2.5f") == 0 && s[1].kind == THTW_FLOAT);
    TH_CHECK(s[2].line == 3 && strcmp(s[2].literal, "7") == 0 && s[2].kind == THTW_INT);
    TH_CHECK(s[3].line == 5 && strcmp(s[3].literal, "0xFF0000FF") == 0 && s[3].kind == THTW_COLOR);
    TH_CHECK(s[4].line == 6 && strcmp(s[4].literal, "1.0f, 2.0f") == 0 && s[4].kind == THTW_VEC2);
    TH_CHECK(s[5].line == 7 && strcmp(s[5].literal, "true") == 0 && s[5].kind == THTW_BOOL);
    /* the argument offsets cover exactly the text between the parentheses */
    TH_CHECK(strncmp(src + s[0].arg_begin, "340.0f", 6) == 0 && s[0].arg_end - s[0].arg_begin == 6);

    /* a comment between the name and "(" hides the site: it stays at its compiled value */
    const char *gap = "x = TWEAK (1.5f);";
    TH_CHECK_EQ_INT(thtw_scan(gap, strlen(gap), s, 16), 1);

    /* unterminated: counted up to there, no crash */
    const char *bad = "a = TWEAK(1.0f); b = TWEAK(2.0f";
    TH_CHECK_EQ_INT(thtw_scan(bad, strlen(bad), s, 16), 1);
    /* more sites than room: all counted, only max filled */
    const char *many = "TWEAK(1) TWEAK(2) TWEAK(3)";
    TH_CHECK_EQ_INT(thtw_scan(many, strlen(many), s, 2), 3);
}

static void test_same_shape(void)
{
    const char *a = "float x = TWEAK(1.0f) * 2; // one\nint n = TWEAK(3);\n";
    const char *b = "float x = TWEAK(  4.5f ) * 2; // one\nint n = TWEAK(-9);\n";   /* literals only */
    const char *c = "float x = TWEAK(1.0f) * 3; // one\nint n = TWEAK(3);\n";       /* code changed */
    const char *d = "\nfloat x = TWEAK(1.0f) * 2; // one\nint n = TWEAK(3);\n";     /* lines moved */
    const char *e = "float x = TWEAK(1.0f) * 2; // one\nint n = TWEAK(3.5f);\n";    /* int became float */
    const char *f = "float x = TWEAK(1.0f) * 2; // one\nint n = 3;\n";              /* site removed */
    thtw_site sa[8], sb[8];
    int na = thtw_scan(a, strlen(a), sa, 8);
    int nb;
    nb = thtw_scan(b, strlen(b), sb, 8);
    TH_CHECK(thtw_same_shape(a, strlen(a), sa, na, b, strlen(b), sb, nb));
    TH_CHECK(thtw_same_shape(a, strlen(a), sa, na, a, strlen(a), sa, na));
    nb = thtw_scan(c, strlen(c), sb, 8);
    TH_CHECK(!thtw_same_shape(a, strlen(a), sa, na, c, strlen(c), sb, nb));
    nb = thtw_scan(d, strlen(d), sb, 8);
    TH_CHECK(!thtw_same_shape(a, strlen(a), sa, na, d, strlen(d), sb, nb));
    nb = thtw_scan(e, strlen(e), sb, 8);
    TH_CHECK(!thtw_same_shape(a, strlen(a), sa, na, e, strlen(e), sb, nb));
    nb = thtw_scan(f, strlen(f), sb, 8);
    TH_CHECK(!thtw_same_shape(a, strlen(a), sa, na, f, strlen(f), sb, nb));
}

static void test_find(void)
{
    const char *src = "a = TWEAK(1.0f) + TWEAK(2.0f);\nb = TWEAK(3) + TWEAK(3);\n";
    thtw_site s[8];
    int n = thtw_scan(src, strlen(src), s, 8);
    TH_CHECK_EQ_INT(thtw_find(s, n, 1, "2.0f"), 1);
    TH_CHECK_EQ_INT(thtw_find(s, n, 1, "1.0f"), 0);
    TH_CHECK_EQ_INT(thtw_find(s, n, 1, "3"), -1);
    TH_CHECK_EQ_INT(thtw_find(s, n, 2, "3"), -2);       /* ambiguous */
    TH_CHECK_EQ_INT(thtw_find(s, n, 9, "1.0f"), -1);
}

/* ---------------------------------------------------------------- the reading side */
static int g_calls;
static char g_last_lit[64];
static int g_last_line, g_last_kind;
static void hook(const char *file, int line, int counter, int kind, const char *literal, void *value)
{
    (void)counter;
    g_calls++;
    g_last_line = line;
    g_last_kind = kind;
    snprintf(g_last_lit, sizeof g_last_lit, "%s", literal);
    if (!strstr(file, "test_th_tweak")) return;
    if (kind == THTW_FLOAT) *(float *)value *= 2.0f;
    if (kind == THTW_INT) *(int32_t *)value += 1;
    if (kind == THTW_BOOL) *(int32_t *)value = !*(int32_t *)value;
    if (kind == THTW_COLOR) *(uint32_t *)value = 0x11223344u;
    if (kind == THTW_VEC2) { ((float *)value)[0] = -1.0f; ((float *)value)[1] = -2.0f; }
}

struct vec { float x, y; };
static const int SPEED_LINE = __LINE__ + 1;
static constexpr auto SPEED = TWEAK(340.0f);
static constexpr auto LIVES = TWEAK(3);
static constexpr auto ON = TWEAK(false);
static constexpr auto TINT = TWEAK_COLOR(0xFF8800FF);
static constexpr auto GRAVITY = TWEAK_V2(0.0f, 980.0f);
static constexpr auto HALF = TWEAK(0.5);                 /* a double literal reads as float */

/* ---------------------------------------------------------------- the forms that used to go wrong */
static void test_integer_range_without_overflow(void)
{
    int32_t i = 0;
    uint32_t c = 0;
    /* magnitudes past int32/uint32 are refused, the 64-bit edge included (this overflowed before) */
    TH_CHECK(!parse_i("-9223372036854775808", &i));
    TH_CHECK(!parse_i("9223372036854775808", &i));
    TH_CHECK(!parse_i("-18446744073709551615", &i));
    TH_CHECK(!parse_i("18446744073709551616", &i));        /* does not fit 64 bits */
    TH_CHECK(!parse_i("0xFFFFFFFFFFFFFFFF", &i));
    TH_CHECK(!parse_i("0x10000000000000000", &i));
    TH_CHECK(!parse_i("-2147483649", &i));
    TH_CHECK(parse_i("4294967295", &i) && i == -1);         /* uint32 wraps like the compiled value */
    TH_CHECK(parse_i("2147483647", &i) && i == INT32_MAX);
    TH_CHECK(!thtw_parse(THTW_COLOR, "-9223372036854775808", 20, &c));
    TH_CHECK(!thtw_parse(THTW_COLOR, "-0", 2, &c));
    /* octal and binary mean what C means */
    TH_CHECK(parse_i("017", &i) && i == 15);
    TH_CHECK(parse_i("0b101", &i) && i == 5);
    TH_CHECK(parse_i("0", &i) && i == 0);
    TH_CHECK(parse_i("0u", &i) && i == 0);
    TH_CHECK(!parse_i("08", &i));
    TH_CHECK(!parse_i("0b2", &i));
}

static void test_digit_separators(void)
{
    int32_t i = 0;
    float f = 0;
    TH_CHECK(parse_i("1'000'000", &i) && i == 1000000);
    TH_CHECK(parse_i("0xFF'FF", &i) && i == 0xFFFF);
    TH_CHECK(!parse_i("1''000", &i));
    TH_CHECK(!parse_i("1000'", &i));
    TH_CHECK(parse_f("1'000.5f", &f) && f == 1000.5f);
    /* the scanner sees the site and every site after it (a separator is not a character literal) */
    const char *src = "int a = TWEAK(1'000);\nfloat b = TWEAK(2.5f);\nint c = TWEAK(0x00'FF);\n";
    thtw_site s[8];
    int n = thtw_scan(src, strlen(src), s, 8);
    TH_CHECK_EQ_INT(n, 3);
    if (n != 3) return;
    TH_CHECK(strcmp(s[0].literal, "1'000") == 0 && s[0].kind == THTW_INT && s[0].line == 1);
    TH_CHECK(strcmp(s[1].literal, "2.5f") == 0 && s[1].line == 2);
    TH_CHECK(s[2].line == 3);
    TH_CHECK(parse_i(s[0].literal, &i) && i == 1000);
    /* a separator outside a site does not hide the sites after it either */
    const char *outside = "int big = 1'000'000; char q = 'x';\nfloat v = TWEAK(1.5f);\n";
    n = thtw_scan(outside, strlen(outside), s, 8);
    TH_CHECK(n == 1 && s[0].line == 2);
    char out[32];
    TH_CHECK(thtw_normalize("1'000 /* k */", 13, out, sizeof out) == 5 && strcmp(out, "1'000") == 0);
}

static void test_line_splices(void)
{
    /* a backslash-newline inside a string or a line comment is still a line of the file */
    const char *src =
        "const char *msg = \"one \\\ntwo\";\n"            /* lines 1-2 */
        "// a comment \\\n continued\n"                    /* lines 3-4 */
        "float a = TWEAK(1.5f);\n"                           /* line 5 */
        "auto b = TWEAK_V2(1.0f, /* \\\n */ \"x\\\ny\" == 0 ? 1.0f : 2.0f); float c = TWEAK(3.0f);\n";  /* 6-8 */
    thtw_site s[8];
    int n = thtw_scan(src, strlen(src), s, 8);
    TH_CHECK_EQ_INT(n, 3);
    if (n != 3) return;
    TH_CHECK_EQ_INT(s[0].line, 5);
    TH_CHECK_EQ_INT(s[1].line, 6);
    TH_CHECK_EQ_INT(s[2].line, 8);
    /* CRLF files too */
    const char *crlf = "const char *m = \"a\\\r\nb\";\r\nint x = TWEAK(7);\r\n";
    n = thtw_scan(crlf, strlen(crlf), s, 8);
    TH_CHECK(n == 1 && s[0].line == 3);
}

static void test_color_six_digits_is_opaque(void)
{
    uint32_t c = 0;
    TH_CHECK(thtw_parse(THTW_COLOR, "0x5A1E5A", 8, &c) && c == 0x5A1E5AFFu);
    TH_CHECK(thtw_parse(THTW_COLOR, "0x5a1e5au", 9, &c) && c == 0x5A1E5AFFu);
    TH_CHECK(thtw_parse(THTW_COLOR, "0x5A'1E'5A", 10, &c) && c == 0x5A1E5AFFu);
    TH_CHECK(thtw_parse(THTW_COLOR, "0x005A1E5A", 10, &c) && c == 0x005A1E5Au);
    TH_CHECK(thtw_parse(THTW_COLOR, "0xFF", 4, &c) && c == 0xFFu);
    TH_CHECK(thtw_parse(THTW_COLOR, "255", 3, &c) && c == 255u);
    /* the compiled value agrees with the parsed one, with and without a hook */
    thtw_set_hook(NULL);
    constexpr auto PURPLE = TWEAK_COLOR(0x5A1E5A);
    constexpr auto SEE_THROUGH = TWEAK_COLOR(0x005A1E5A);
    static_assert(PURPLE.value == 0x5A1E5AFFu, "0xRRGGBB compiles to an opaque colour");
    TH_CHECK((uint32_t)PURPLE == 0x5A1E5AFFu);
    TH_CHECK((uint32_t)SEE_THROUGH == 0x005A1E5Au);
    TH_CHECK(thtw_color_value("0x5A1E5A", 0x5A1E5Au) == 0x5A1E5AFFu);
    TH_CHECK(thtw_color_value("0x5A1E5AFF", 0x5A1E5AFFu) == 0x5A1E5AFFu);
}

static void test_map_non_literal_site_falls_back_alone(void)
{
    const char *base = "float a = TWEAK(SOME_MACRO);\nfloat b = TWEAK(2.5f);\nint c = TWEAK(3);\n";
    const char *edit = "float a = TWEAK(SOME_MACRO);\nfloat b = TWEAK(4.0f);\nint c = TWEAK(-8);\n";
    const char *macro = "float a = TWEAK(OTHER_MACRO);\nfloat b = TWEAK(2.5f);\nint c = TWEAK(3);\n";
    const char *junk = "float a = TWEAK(SOME_MACRO);\nfloat b = TWEAK(2.5f);\nint c = TWEAK(3 + 1);\n";
    const char *moved = "\nfloat a = TWEAK(SOME_MACRO);\nfloat b = TWEAK(2.5f);\nint c = TWEAK(3);\n";
    thtw_site bs[4], ns[4];
    uint64_t v[4];
    unsigned char ok[4];
    int bn = thtw_scan(base, strlen(base), bs, 4), nn;
    TH_CHECK_EQ_INT(bn, 3);
    nn = thtw_scan(edit, strlen(edit), ns, 4);
    /* the other sites of the file stay live; only the macro site keeps its compiled value */
    TH_CHECK_EQ_INT(thtw_map(base, strlen(base), bs, bn, edit, strlen(edit), ns, nn, v, ok), THTW_MAP_OK);
    float f;
    int32_t i;
    memcpy(&f, &v[1], 4);
    memcpy(&i, &v[2], 4);
    TH_CHECK(!ok[0] && ok[1] && ok[2] && f == 4.0f && i == -8);
    /* the compiled text maps onto itself */
    TH_CHECK_EQ_INT(thtw_map(base, strlen(base), bs, bn, base, strlen(base), bs, bn, v, ok), THTW_MAP_OK);
    /* a change to the macro site itself, a literal that does not parse, or moved lines: the compiler's */
    nn = thtw_scan(macro, strlen(macro), ns, 4);
    TH_CHECK_EQ_INT(thtw_map(base, strlen(base), bs, bn, macro, strlen(macro), ns, nn, v, ok), THTW_MAP_UNPARSED);
    nn = thtw_scan(junk, strlen(junk), ns, 4);
    TH_CHECK_EQ_INT(thtw_map(base, strlen(base), bs, bn, junk, strlen(junk), ns, nn, v, ok), THTW_MAP_UNPARSED);
    nn = thtw_scan(moved, strlen(moved), ns, 4);
    TH_CHECK_EQ_INT(thtw_map(base, strlen(base), bs, bn, moved, strlen(moved), ns, nn, v, ok), THTW_MAP_SHAPE);
}

static void test_macros(void)
{
    thtw_set_hook(NULL);
    TH_CHECK(SPEED == 340.0f);
    TH_CHECK(LIVES == 3);
    TH_CHECK(!ON);
    TH_CHECK((uint32_t)TINT == 0xFF8800FFu);
    vec g = GRAVITY;
    TH_CHECK(g.x == 0.0f && g.y == 980.0f);
    TH_CHECK(HALF * 2.0f == 1.0f);
    TH_CHECK(TWEAK(1.5f) * 2 == 3.0f);

    thtw_set_hook(hook);
    g_calls = 0;
    float dt = 0.5f;
    TH_CHECK(SPEED * dt == 340.0f);
    TH_CHECK(g_last_kind == THTW_FLOAT && strcmp(g_last_lit, "340.0f") == 0 && g_last_line == SPEED_LINE);
    TH_CHECK(LIVES + 0 == 4);
    TH_CHECK(ON);
    TH_CHECK((uint32_t)TINT == 0x11223344u);
    g = GRAVITY;
    TH_CHECK(g.x == -1.0f && g.y == -2.0f);
    TH_CHECK(GRAVITY.get_y() == -2.0f);
    int line = __LINE__ + 1;
    float z = TWEAK(  - 4.0f  ) + 0.0f;
    TH_CHECK(z == -8.0f && strcmp(g_last_lit, "- 4.0f") == 0 && g_last_line == line);
    TH_CHECK(g_calls == 7);
    TH_CHECK(TWEAK_F(2.0f) == 4.0f && TWEAK_I(5) == 6 && TWEAK_B(0) == 1);
    thtw_set_hook(NULL);
    TH_CHECK(thtw_get_hook() == NULL);
}

/* ---------------------------------------------------------------- thtw_format: a value written back in its literal's style */
static const char *fmt_f(const char *old, float v)
{
    static char out[128];
    if (thtw_format(THTW_FLOAT, old, strlen(old), &v, out, sizeof out) < 0) return "<refused>";
    return out;
}
static const char *fmt_k(int kind, const char *old, const void *v)
{
    static char out[128];
    if (thtw_format(kind, old, strlen(old), v, out, sizeof out) < 0) return "<refused>";
    return out;
}
#define SAME(a, b) TH_CHECK(strcmp((a), (b)) == 0)

static void test_format_float(void)
{
    SAME(fmt_f("0.10f", 0.1f), "0.10f");          /* unchanged value: unchanged text */
    SAME(fmt_f("0.10f", 0.25f), "0.25f");         /* keeps the f and two decimals */
    SAME(fmt_f("0.10f", 0.3f), "0.30f");
    SAME(fmt_f("0.10f", 0.125f), "0.125f");       /* more decimals only when the value needs them */
    SAME(fmt_f("1100.0f", 1234.5678f), "1234.57f"); /* at most 6 significant digits */
    SAME(fmt_f("1100.0f", 1800.0f), "1800.0f");
    SAME(fmt_f("1100.0", 5.0f), "5.0");           /* no suffix stays without */
    SAME(fmt_f("2.F", 3.0f), "3.F");
    SAME(fmt_f("-.5", -0.75f), "-0.75");
    SAME(fmt_f("3.5f", -2.0f), "-2.0f");
    SAME(fmt_f("0.5f", -0.0f), "0.0f");
    SAME(fmt_f(" 0.5f  ", 1.5f), " 1.5f  ");     /* spacing untouched */
    SAME(fmt_f("(-1.5f)", 2.5f), "(2.5f)");
    SAME(fmt_f("1e-3f", 2e-3f), "2e-03f");
    SAME(fmt_f("0.004f", 0.0001234567f), "0.000123457f");
    SAME(fmt_f("SPEED", 1.0f), "<refused>");      /* not a literal */
    SAME(fmt_f("1.0f /* x */", 1.0f), "<refused>");
    float back;
    TH_CHECK(thtw_parse(THTW_FLOAT, "1234.57f", 8, &back) && back == 1234.57f);
}

static void test_format_int_bool_color_pair(void)
{
    int32_t i = 7;
    SAME(fmt_k(THTW_INT, "3", &i), "7");
    i = -12; SAME(fmt_k(THTW_INT, "5", &i), "-12");
    i = 31; SAME(fmt_k(THTW_INT, "0x10", &i), "0x1F");
    i = 31; SAME(fmt_k(THTW_INT, "0x0a", &i), "0x1f");
    i = 5; SAME(fmt_k(THTW_INT, "0b0001", &i), "0b0101");
    i = 9; SAME(fmt_k(THTW_INT, "10u", &i), "9u");
    i = -1; SAME(fmt_k(THTW_INT, "0xFFFFFFFF", &i), "0xFFFFFFFF");
    int32_t b = 0;
    SAME(fmt_k(THTW_BOOL, "true", &b), "false");
    b = 1; SAME(fmt_k(THTW_BOOL, "0", &b), "1");
    uint32_t c = 0x1B2433FFu;
    SAME(fmt_k(THTW_COLOR, "0x1B2433FF", &c), "0x1B2433FF");
    c = 0x11223380u; SAME(fmt_k(THTW_COLOR, "0x1B2433FF", &c), "0x11223380");
    c = 0x112233FFu; SAME(fmt_k(THTW_COLOR, "0x5A1E5A", &c), "0x112233");      /* opaque: stays 6 digits */
    c = 0x11223380u; SAME(fmt_k(THTW_COLOR, "0x5A1E5A", &c), "0x11223380");    /* alpha < FF: grows to 8 */
    c = 0xaabbccffu; SAME(fmt_k(THTW_COLOR, "0xff00ffff", &c), "0xaabbccff");  /* case kept */
    uint32_t back;
    TH_CHECK(thtw_parse(THTW_COLOR, "0x112233", 8, &back) && back == 0x112233FFu);
    float v[2] = { 12.5f, -3.0f };
    SAME(fmt_k(THTW_VEC2, "1.0f, 2.0f", v), "12.5f, -3.0f");
    SAME(fmt_k(THTW_POS, "640.0f,360.0f", v), "12.5f,-3.0f");
    SAME(fmt_k(THTW_SCREEN_POS, " 1.f ,  2.f", v), " 12.5f ,  -3.f");
    SAME(fmt_k(THTW_POS, "1.0f", v), "<refused>");
    char small[4];
    TH_CHECK(thtw_format(THTW_FLOAT, "1100.0f", 7, &v[0], small, sizeof small) < 0);   /* too small: refused, terminated */
    TH_CHECK(small[0] == 0);
}

int main(void)
{
    TH_RUN(test_parse_float);
    TH_RUN(test_parse_int_bool_color_vec2);
    TH_RUN(test_normalize);
    TH_RUN(test_scan);
    TH_RUN(test_same_shape);
    TH_RUN(test_find);
    TH_RUN(test_macros);
    TH_RUN(test_integer_range_without_overflow);
    TH_RUN(test_digit_separators);
    TH_RUN(test_line_splices);
    TH_RUN(test_color_six_digits_is_opaque);
    TH_RUN(test_map_non_literal_site_falls_back_alone);
    TH_RUN(test_format_float);
    TH_RUN(test_format_int_bool_color_pair);
    return th_test_finish();
}
