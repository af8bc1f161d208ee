/* th_spritebatch.h compiled as C99: the library claims C support, so it is built and run as C too. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_SPRITEBATCH_IMPLEMENTATION
#include "th_spritebatch.h"
#include <string.h>

static unsigned char memory[1 << 16];

static void test_c_build(void)
{
    thsb_batcher sb;
    thsb_sprite s;
    int i;
    TH_CHECK(thsb_init(&sb, memory, sizeof memory, 64));
    thsb_begin(&sb);
    memset(&s, 0, sizeof s);
    s.w = s.h = 4; s.scale_x = s.scale_y = 1; s.color = 0xFFFFFFFFu; s.u1 = s.v1 = 1;
    for (i = 0; i < 10; i++) {
        s.x = (float)i; s.layer = (int16_t)(i % 3); s.page = (uint16_t)(i % 2); s.rotation = 0.1f * (float)i;
        TH_CHECK(thsb_push(&sb, &s) != NULL);
    }
    TH_CHECK_EQ_INT(thsb_end(&sb), 6);
    TH_CHECK_EQ_INT(sb.vertex_count, 40);
    TH_CHECK_EQ_INT(sb.batches[0].layer, 0);
    TH_CHECK_EQ_INT(sb.batches[0].page, 0);
    TH_CHECK_EQ_INT(sb.batches[5].layer, 2);
    TH_CHECK_EQ_INT(sb.batches[5].page, 1);
    TH_CHECK_EQ_INT(sizeof(thsb_vertex), 20);
}

int main(void)
{
    TH_RUN(test_c_build);
    return th_test_finish();
}
