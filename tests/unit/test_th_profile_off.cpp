// th_profile.h with THP_DISABLE (what a release build defines unless PROFILE_IN_RELEASE): every zone macro is
// compiled out. THP_PROFILE names a profile that exists only to be counted: no zone may reach it.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define THP_DISABLE
#define TH_PROFILE_IMPLEMENTATION
static struct thp_profile *g_counted;
#define THP_PROFILE g_counted
#include "th_profile.h"

static thp_profile g_prof;
static thp_zone g_ring[64];

static void test_zones_compiled_out(void)
{
    thp_init(&g_prof, g_ring, 64, NULL);
    g_counted = &g_prof;
    {
        PROFILE_ZONE("release");
        PROFILE_BEGIN("c style");
        PROFILE_END();
    }
    TH_CHECK_EQ_INT((int)g_prof.head, 0);
    TH_CHECK_EQ_INT(g_prof.depth, 0);
}

int main(void)
{
    TH_RUN(test_zones_compiled_out);
    return th_test_finish();
}
