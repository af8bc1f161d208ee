/* th_tweak.h with THTW_LITERALS (the release build): every TWEAK site is its literal - same value, the type
   the reading object converts to, usable in constant expressions, and the hook is never asked. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define THTW_LITERALS
#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"

#include <type_traits>

struct v2 { float x, y; };

static constexpr auto SPEED = TWEAK(340.0f);
static constexpr auto HALF = TWEAK(0.5);          /* a double literal reads as float, as in the live build */
static constexpr auto LIVES = TWEAK(3);
static constexpr auto MASK = TWEAK(7u);
static constexpr auto GODMODE = TWEAK(false);
static constexpr auto TINT = TWEAK_COLOR(0xFF8800FF);
static constexpr auto GRAVITY = TWEAK_V2(0.0f, 980.0f);
static constexpr auto OPAQUE = TWEAK_COLOR(0x4FE3FF);     /* six digits: opaque, as in the live build */

/* constant expressions: nothing is read at run time */
static_assert(SPEED == 340.0f && HALF == 0.5f && LIVES == 3 && MASK == 7 && !GODMODE && TINT == 0xFF8800FFu, "values");
static_assert(OPAQUE == 0x4FE3FFFFu, "0xRRGGBB is opaque");
static_assert(GRAVITY.get_y() == 980.0f && TWEAK_F(1.5f) == 1.5f && TWEAK_I(4) == 4 && TWEAK_B(2) == 1, "macros");
static_assert(std::is_same<decltype(SPEED), const float>::value && std::is_same<decltype(HALF), const float>::value, "float");
static_assert(std::is_same<decltype(LIVES), const int32_t>::value && std::is_same<decltype(MASK), const int32_t>::value, "int");
static_assert(std::is_same<decltype(GODMODE), const bool>::value && std::is_same<decltype(TINT), const uint32_t>::value, "bool, color");
/* the live objects convert to these same types */
static_assert(std::is_convertible<thtw_float, float>::value && std::is_convertible<thtw_int, int32_t>::value, "live float/int");
static_assert(std::is_convertible<thtw_bool, bool>::value && std::is_convertible<thtw_color, uint32_t>::value, "live bool/color");

static int g_hook_calls;
static void hook(const char *, int, int, int, const char *, void *value)
{
    g_hook_calls++;
    *(float *)value = -1.0f;
}

static void test_hook_never_asked(void)
{
    thtw_set_hook(hook);
    volatile float x = SPEED * 2.0f;
    v2 g = GRAVITY;
    float inline_use = 10.0f * TWEAK(2.0f);
    TH_CHECK(x == 680.0f);
    TH_CHECK(g.x == 0.0f && g.y == 980.0f);
    TH_CHECK(inline_use == 20.0f);
    TH_CHECK(LIVES + 1 == 4 && !GODMODE && (TINT >> 24) == 0xFF);
    TH_CHECK_EQ_INT(g_hook_calls, 0);
    thtw_set_hook(nullptr);
}

/* the watching side still works in a literal build (a tool may scan sources while built for release) */
static void test_scanner_unaffected(void)
{
    const char *src = "auto a = TWEAK(1.0f);";
    thtw_site s[2];
    TH_CHECK_EQ_INT(thtw_scan(src, 21, s, 2), 1);
}

int main(void)
{
    TH_RUN(test_hook_never_asked);
    TH_RUN(test_scanner_unaffected);
    return th_test_finish();
}
