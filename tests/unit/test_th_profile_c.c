/* th_profile.h compiled as C99: the begin/end macros, closing at a depth, the trace writer. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_PROFILE_IMPLEMENTATION
static struct thp_profile g_prof;
#define THP_PROFILE (&g_prof)
#include "th_profile.h"

#include <string.h>

static thp_zone g_ring[64];

static void test_c(void)
{
    const thp_profile *ps[1];
    char buf[2048];
    size_t n;
    thp_init(&g_prof, g_ring, 64, NULL);
    PROFILE_BEGIN("outer");
    PROFILE_BEGIN("inner");
    PROFILE_END();
    PROFILE_BEGIN("left open");
    TH_CHECK_EQ_INT(thp_close_to_depth(&g_prof, 0), 2);
    thp_frame_mark(&g_prof);
    TH_CHECK_EQ_INT((int)thp_zone_at(&g_prof, 1)->depth, 1);
    ps[0] = &g_prof;
    n = thp_write_trace(ps, 1, 0, 1, buf, sizeof buf, 1);
    TH_CHECK(n > 0 && n < sizeof buf);
    TH_CHECK(strstr(buf, "{\"name\":\"outer\",\"ph\":\"X\",\"ts\":") == buf);
    TH_CHECK(strstr(buf, "\"name\":\"left open\"") != NULL);
}

int main(void)
{
    TH_RUN(test_c);
    return th_test_finish();
}
