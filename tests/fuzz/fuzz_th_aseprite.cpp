/* fuzz_th_aseprite - th_aseprite.h's reader on arbitrary bytes, inflating with stb_image's zlib (the
   engine's default). Each input is tried twice: as is, and with the header's file-size field set to the
   input's length so the fuzzer gets past that check to the frames and chunks. A refusal must carry a
   reason; a sprite that loads must be self-consistent (layer parents before their children, cels on
   existing layers and frames with pixels, tags inside the frames) and composite every frame without
   touching memory outside the sprite's buffer. Limits are lowered so one input stays cheap. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#include <stb_image.h>
#define THASE_STB_ZLIB
#define TH_ASEPRITE_IMPLEMENTATION
#include "th_aseprite.h"

#include <stdlib.h>
#include <string.h>

static void check(const uint8_t *data, size_t size)
{
    thase_settings set;
    memset(&set, 0, sizeof set);
    set.max_dimension = 128;
    set.max_frames = 64;
    set.max_layers = 32;
    set.max_cels = 512;
    set.max_pixel_bytes = 1u << 20;
    thase_sprite s;
    if (thase_load(data, size, &set, &s) != THASE_OK) {
        if (!s.error[0] || memchr(s.error, 0, sizeof s.error) == NULL) __builtin_trap();
        return;
    }
    if (s.width < 1 || s.height < 1 || s.width > 128 || s.height > 128 || s.frame_count < 1) __builtin_trap();
    for (int i = 0; i < s.layer_count; i++) {
        const thase_layer *l = &s.layers[i];
        if (!l->name || l->parent >= i || (l->parent >= 0 && s.layers[l->parent].type != THASE_LAYER_GROUP)) __builtin_trap();
    }
    for (int i = 0; i < s.cel_count; i++) {
        const thase_cel *c = &s.cels[i];
        if (c->layer < 0 || c->layer >= s.layer_count || c->frame < 0 || c->frame >= s.frame_count || !c->pixels) __builtin_trap();
        if (thase_find_cel(&s, c->layer, c->frame) != i) __builtin_trap();
        /* every pixel byte is readable: ASan reports a cel whose buffer is smaller than its size */
        size_t bytes = (size_t)c->width * (size_t)c->height * (size_t)(s.depth / 8);
        volatile uint8_t sum = 0;
        sum = (uint8_t)(sum + c->pixels[0] + c->pixels[bytes - 1]);
    }
    for (int i = 0; i < s.tag_count; i++)
        if (!s.tags[i].name || s.tags[i].from > s.tags[i].to || s.tags[i].to >= s.frame_count) __builtin_trap();
    for (int i = 0; i < s.slice_count; i++)
        if (!s.slices[i].name || s.slices[i].key_count < 1) __builtin_trap();
    size_t n = (size_t)s.width * (size_t)s.height * 4;
    uint8_t *rgba = (uint8_t *)malloc(n);
    int frames = s.frame_count < 8 ? s.frame_count : 8;
    for (int f = 0; f < frames; f++)
        if (!thase_composite(&s, f, rgba)) __builtin_trap();
    if (thase_composite(&s, s.frame_count, rgba)) __builtin_trap();
    free(rgba);
    thase_free(&s);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = (uint8_t *)malloc(size ? size : 1);   /* exactly size bytes: a read past them is reported */
    memcpy(copy, data, size);
    check(copy, size);
    if (size >= 4) {
        uint32_t n = (uint32_t)size;
        copy[0] = (uint8_t)n; copy[1] = (uint8_t)(n >> 8); copy[2] = (uint8_t)(n >> 16); copy[3] = (uint8_t)(n >> 24);
        check(copy, size);
    }
    free(copy);
    return 0;
}
