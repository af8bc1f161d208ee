/* fuzz_font_bake - the baked-font reader (thfb_decode), the only code in the host that reads what a
   font turns into. Two ways in: the input as a whole file, and a valid small file (shaped by the
   input's first bytes) with the rest of the input applied as byte edits, which reaches the checks
   deep inside the file that random bytes never get past the header to. Whatever decodes must
   re-encode to the same bytes and hold every promise the reader makes. */
#define TH_FONTBAKE_IMPLEMENTATION
#include "th_fontbake.h"

#include <math.h>
#include <string.h>

#include <vector>

static void check_decoded(const unsigned char *data, size_t size)
{
    static thfb_font f;
    char err[128];
    if (!thfb_decode(data, size, &f, err, sizeof err)) {
        if (!err[0] || f.alpha || f.kerns) __builtin_trap();
        return;
    }
    if (f.page_w < THFB_WHITE || f.page_h < THFB_WHITE || f.page_w > THFB_MAX_SIDE || f.page_h > THFB_MAX_SIDE) __builtin_trap();
    if (f.white_x + THFB_WHITE > f.page_w || f.white_y + THFB_WHITE > f.page_h) __builtin_trap();
    if (!(f.ascent > f.descent) || !(f.unit > 0 && f.unit <= 1) || !isfinite(f.line_gap)) __builtin_trap();
    for (int s = 0; s < THFB_SIZE_COUNT; s++)
        for (int g = 0; g < THFB_GLYPH_COUNT; g++) {
            const thfb_char &c = f.chars[s][g];
            if (c.x0 > c.x1 || c.y0 > c.y1 || c.x1 > f.page_w || c.y1 > f.page_h) __builtin_trap();
            if (!isfinite(c.xoff) || !isfinite(c.yoff) || !isfinite(c.xadvance)) __builtin_trap();
            volatile unsigned char last = c.x1 > c.x0 && c.y1 > c.y0 ? f.alpha[(size_t)(c.y1 - 1) * f.page_w + c.x1 - 1] : 0;
            (void)last;
        }
    for (int k = 0; k < f.kern_count; k++) {
        if (thfb_kern(&f, f.kerns[k].a, f.kerns[k].b) != f.kerns[k].advance) __builtin_trap();
        if (!isfinite(f.kerns[k].advance)) __builtin_trap();
    }
    std::vector<unsigned char> again(thfb_encoded_size(&f));
    if (again.size() != size || thfb_encode(&f, again.data(), again.size()) != size || memcmp(again.data(), data, size) != 0)
        __builtin_trap();
    thfb_free(&f);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_decoded(data, size);
    if (size < 6) return 0;
    /* a valid file shaped by the first bytes, then edited by the rest */
    static thfb_font f;
    memset(&f, 0, sizeof f);
    f.page_w = THFB_WHITE + data[0] % 32;
    f.page_h = THFB_WHITE + data[1] % 32;
    f.white_x = data[2] % (f.page_w - THFB_WHITE + 1);
    f.white_y = data[3] % (f.page_h - THFB_WHITE + 1);
    f.ascent = 800; f.descent = -200; f.line_gap = 10; f.unit = 1.0f / 1000;
    for (int s = 0; s < THFB_SIZE_COUNT; s++)
        for (int g = 0; g < THFB_GLYPH_COUNT; g++) {
            thfb_char &c = f.chars[s][g];
            c.x0 = (uint16_t)(g % f.page_w); c.x1 = c.x0; c.y0 = c.y1 = (uint16_t)(s % f.page_h);
            c.xadvance = thfb_sizes[s] / 2;
        }
    std::vector<thfb_kern_pair> kerns;
    for (int k = 0; k < data[4] % 16; k++) kerns.push_back({ (uint16_t)(k * 7), (uint16_t)(k * 3), (float)(k - 8) });
    f.kerns = kerns.data();
    f.kern_count = (int)kerns.size();
    std::vector<unsigned char> alpha((size_t)f.page_w * f.page_h, data[5]);
    f.alpha = alpha.data();
    std::vector<unsigned char> file(thfb_encoded_size(&f));
    if (thfb_encode(&f, file.data(), file.size()) != file.size()) __builtin_trap();
    for (size_t i = 6; i + 3 <= size; i += 3) {
        size_t at = ((size_t)data[i] << 8 | data[i + 1]) * 7 % (file.size() + 1);
        if (at == file.size()) { file.push_back(data[i + 2]); continue; }        /* grow */
        if (data[i + 2] == 0xA5) { file.resize(at); continue; }                   /* cut */
        file[at] = data[i + 2];
    }
    check_decoded(file.data(), file.size());
    return 0;
}
