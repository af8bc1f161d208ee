/* th_fontbake.h compiled as C99: encode a small font, decode it, look up a kerning pair. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_FONTBAKE_IMPLEMENTATION
#include "th_fontbake.h"

#include <stdlib.h>
#include <string.h>

static void test_c_round_trip(void)
{
    static thfb_font f, back;
    static unsigned char alpha[8 * 8];
    thfb_kern_pair kern = { 33, 54, -120.0f };
    unsigned char *bytes;
    size_t n;
    char err[128];
    memset(&f, 0, sizeof f);
    f.page_w = f.page_h = 8;
    f.ascent = 10; f.descent = -2; f.unit = 1.0f / 12;
    f.kern_count = 1; f.kerns = &kern; f.alpha = alpha;
    n = thfb_encoded_size(&f);
    bytes = (unsigned char *)malloc(n);
    TH_CHECK(thfb_encode(&f, bytes, n) == n);
    TH_CHECK(thfb_decode(bytes, n, &back, err, sizeof err));
    TH_CHECK(thfb_kern(&back, thfb_slot('A'), thfb_slot('V')) == -120.0f);
    thfb_free(&back);
    TH_CHECK(!thfb_decode(bytes, n - 1, &back, err, sizeof err) && strstr(err, "truncated"));
    free(bytes);
}

int main(void)
{
    TH_RUN(test_c_round_trip);
    return th_test_finish();
}
