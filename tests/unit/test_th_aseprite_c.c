/* th_aseprite.h compiled as C99: load a one-pixel sprite written here (one layer, one raw cel), composite it,
   and refuse the same bytes cut short. No inflater: a compressed cel would be THASE_ERR_UNSUPPORTED. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_ASEPRITE_IMPLEMENTATION
#include "th_aseprite.h"

#include <string.h>

static size_t put16(uint8_t *p, size_t at, unsigned v) { p[at] = (uint8_t)v; p[at + 1] = (uint8_t)(v >> 8); return at + 2; }
static size_t put32(uint8_t *p, size_t at, uint32_t v) { at = put16(p, at, v & 0xFFFF); return put16(p, at, v >> 16); }

/* header, one frame: a layer chunk "a" and a 1x1 cel of type cel_type holding (10,20,30,255) uncompressed */
static size_t one_pixel(uint8_t *f, int cel_type)
{
    size_t at, frame;
    memset(f, 0, 512);
    put16(f, 4, 0xA5E0);
    put16(f, 6, 1);
    put16(f, 8, 1);
    put16(f, 10, 1);
    put16(f, 12, 32);
    put32(f, 14, 1);
    frame = 128;
    at = put32(f, frame, 0);
    at = put16(f, at, 0xF1FA);
    at = put16(f, at, 2);
    at = put16(f, at, 40);
    at = put16(f, at, 0);
    at = put32(f, at, 2);
    /* layer: 16 fixed bytes + "a" */
    at = put32(f, at, 6 + 16 + 3);
    at = put16(f, at, 0x2004);
    at = put16(f, at, 1);                        /* visible */
    at += 10;
    f[at++] = 255;                               /* opacity */
    at += 3;
    at = put16(f, at, 1);
    f[at++] = 'a';
    /* cel: 16 fixed bytes + size + one pixel */
    at = put32(f, at, 6 + 16 + 4 + 4);
    at = put16(f, at, 0x2005);
    at = put16(f, at, 0);                        /* layer 0 at (0,0) */
    at += 4;
    f[at++] = 255;
    at = put16(f, at, (unsigned)cel_type);
    at += 7;
    at = put16(f, at, 1);
    at = put16(f, at, 1);
    f[at++] = 10; f[at++] = 20; f[at++] = 30; f[at++] = 255;
    put32(f, frame, (uint32_t)(at - frame));
    put32(f, 0, (uint32_t)at);
    return at;
}

static void test_c_load(void)
{
    uint8_t file[512], px[4];
    size_t n = one_pixel(file, 0), i;
    thase_sprite s;
    int e = thase_load(file, n, NULL, &s);
    TH_CHECK_EQ_INT(e, THASE_OK);
    if (e != THASE_OK) return;
    TH_CHECK(s.frames[0].duration_ms == 40 && s.layer_count == 1 && strcmp(s.layers[0].name, "a") == 0);
    TH_CHECK(thase_composite(&s, 0, px));
    TH_CHECK(px[0] == 10 && px[1] == 20 && px[2] == 30 && px[3] == 255);
    thase_free(&s);
    for (i = 0; i < n; i++) TH_CHECK(thase_load(file, i, NULL, &s) != THASE_OK && s.error[0]);
    n = one_pixel(file, 2);
    TH_CHECK_EQ_INT(thase_load(file, n, NULL, &s), THASE_ERR_UNSUPPORTED);
}

int main(void)
{
    TH_RUN(test_c_load);
    return th_test_finish();
}
