/* th_aseprite.h - reading Aseprite files (.aseprite/.ase) from memory, every byte checked, and
   compositing their frames to RGBA.

   th_aseprite.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and
   in the repository's LICENSE).

   WHAT IT DOES
     thase_load parses an Aseprite file held in memory, following Aseprite's published file format
     (docs/ase-file-specs.md in Aseprite's repository): the header, every frame and its duration,
     and the chunks a game needs - layers (0x2004), cels (0x2005), tags (0x2018), palettes
     (0x2019, and the old 0x0004/0x0011 when no 0x2019 is present) and slices (0x2022). Other
     chunks (cel extra, color profile, user data, external files, tilesets, masks) are skipped.
     Color depths 32 (RGBA), 16 (grayscale + alpha) and 8 (indexed, with the header's transparent
     index) are read.
     thase_composite draws one frame into a caller's buffer, sprite-sized RGBA8 with straight
     alpha, the way Aseprite flattens it: layers bottom to top, visible ones only (a layer is
     visible when it and every group holding it are), each cel at cel opacity x layer opacity.

     Every size, count and offset is checked against the buffer before it is read, so any input -
     random bytes included - ends in either a sprite or an error code with a message naming what
     was wrong, the chunk type and the byte offset (tests/fuzz/fuzz_th_aseprite.cpp holds it to
     that). Nothing is read outside the input and nothing is allocated past the limits below.

   USE
     #define TH_ASEPRITE_IMPLEMENTATION in one C or C++ file before including; C99 or C++.
     Dependencies: <stdint.h>, <stddef.h>, <string.h>, <stdio.h>, <stdlib.h> (the malloc default).

     int  thase_load(const void *data, size_t size, const thase_settings *settings, thase_sprite *out);
                                        THASE_OK (0) or a thase_result; out->error says what and where.
                                        settings may be NULL (all defaults). On failure out holds
                                        nothing to free (thase_free on it is harmless).
     void thase_free(thase_sprite *s);  releases everything thase_load allocated
     int  thase_composite(const thase_sprite *s, int frame, uint8_t *rgba);
                                        frame 0..frame_count-1 into rgba (width*height*4 bytes);
                                        1 ok, 0 on a bad frame number. Allocates nothing.
     int  thase_find_cel(const thase_sprite *s, int layer, int frame);   index into s->cels or -1
     int  thase_find_tag(const thase_sprite *s, const char *name);       index into s->tags or -1
     int  thase_find_slice(const thase_sprite *s, const char *name);     index into s->slices or -1
     const thase_slice_key *thase_slice_at(const thase_slice *sl, int frame);
                                        the key in force at frame (the last one starting at or
                                        before it), NULL when none does
     const char *thase_blend_name(int mode);                             "multiply", ... "?"

   ZLIB (compressed cels, type 2)
     The header has no inflater of its own. thase_settings.inflate is called with the zlib stream
     (RFC 1950: header, deflate data, adler32) and a destination of exactly the cel's pixel size;
     it returns the number of bytes written, or -1 on damaged data or more output than fits.
     When inflate is NULL:
       - with THASE_STB_ZLIB defined before the implementation, stb_image's
         stbi_zlib_decode_buffer is the default (the program links stb_image's implementation;
         the engine does, in platform/core/stb_impl.c; include path: Debian's libstb-dev);
       - otherwise a file with a compressed cel fails with THASE_ERR_UNSUPPORTED.
     A stream that decodes to any size other than the cel's width x height x bytes per pixel, or
     whose adler32 (the last 4 bytes of the cel chunk) does not match the pixels, is an error
     (THASE_ERR_ZLIB). The adler32 is checked by the reader itself: stb_image's inflater skips it.

   MEMORY
     Through thase_settings.alloc/free (with alloc_user), or THASE_MALLOC/THASE_FREE (default
     malloc/free) when those are NULL. The sprite owns: layer, cel, frame, tag and slice arrays,
     names, decoded cel pixels (in the file's depth), and a frame x layer table of cel indices.

   LIMITS (thase_settings fields; 0 takes the default in brackets)
     max_dimension      sprite and cel width and height        [THASE_MAX_DIMENSION 8192]
     max_frames         frames                                 [THASE_MAX_FRAMES 4096]
     max_layers         layers, groups included                [THASE_MAX_LAYERS 256]
     max_cels           cels, linked ones included             [THASE_MAX_CELS 65536]
     max_pixel_bytes    decoded cel pixels, summed over cels   [THASE_MAX_PIXEL_BYTES 256 MiB]
     frames x layers    at most 16M entries (the cel table)
     Tags, slices and slice keys are bounded by the bytes that describe them.

   COMPOSITING
     Blend modes composited: normal, multiply, screen, darken, lighten, difference, addition,
     subtract. Each is the separable W3C compositing formula Aseprite's layer blending follows,
     in 8-bit integers: with backdrop (Cb, ab), source (Cs, Sa), opacity o = cel x layer x
     (enclosing groups' opacity when header flag 2 is set),
       as  = Sa*o/255;  B = blend(Cb, Cs);  Cs' = Cs + (B - Cs)*ab/255   (rounded)
       ao  = as + ab - as*ab/255;  Co = Cb + (Cs' - Cb)*as/ao            (truncated)
     where x*y/255 rounds to nearest. For normal it is Aseprite's own normal blender; for the
     others the result can differ from Aseprite by a unit of rounding where the backdrop is
     partly transparent. Per channel: multiply Cb*Cs/255, screen Cb+Cs-Cb*Cs/255, darken min,
     lighten max, difference |Cb-Cs|, addition min(Cb+Cs,255), subtract max(Cb-Cs,0).
     Other modes (overlay, color dodge/burn, hard/soft light, exclusion, hue, saturation, color,
     luminosity, divide) are drawn as normal; thase_sprite.unsupported_blends has bit (1 << mode)
     set for each one a visible layer uses.
     Groups: their opacity (when the file says it is valid) multiplies their children's; a
     group's blend mode is not applied (children blend straight onto what is below).
     Cel z-index (Aseprite 1.3) is ignored: cels draw in layer order.
     Reference layers (flag 64) are not drawn, as in Aseprite's export.
     Indexed pixels: the transparent index is transparent except on the background layer; an
     index past the palette is opaque black. Grayscale (v, a) draws as (v, v, v, a).
     Not supported: tilemap layers and compressed tilemap cels (type 3) - such cels are skipped
     and counted in thase_sprite.skipped_tilemap_cels; the file still loads.

   EXAMPLE (compiled by tests/unit/test_th_aseprite.cpp)

     thase_sprite s;
     if (thase_load(bytes, size, NULL, &s) == THASE_OK) {
         uint8_t *rgba = (uint8_t *)malloc((size_t)s.width * s.height * 4);
         for (int f = 0; f < s.frame_count; f++) {
             thase_composite(&s, f, rgba);
             use_frame(rgba, s.width, s.height, s.frames[f].duration_ms);
         }
         free(rgba);
         thase_free(&s);
     } else fprintf(stderr, "hero.aseprite: %s\n", s.error);
*/
#ifndef TH_ASEPRITE_H
#define TH_ASEPRITE_H

#include <stdint.h>
#include <stddef.h>

#ifndef THASE_MAX_DIMENSION
#define THASE_MAX_DIMENSION 8192u
#endif
#ifndef THASE_MAX_FRAMES
#define THASE_MAX_FRAMES 4096u
#endif
#ifndef THASE_MAX_LAYERS
#define THASE_MAX_LAYERS 256u
#endif
#ifndef THASE_MAX_CELS
#define THASE_MAX_CELS 65536u
#endif
#ifndef THASE_MAX_PIXEL_BYTES
#define THASE_MAX_PIXEL_BYTES (256u << 20)
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum thase_result {
    THASE_OK = 0,
    THASE_ERR_ARGS,          /* NULL data or out */
    THASE_ERR_TRUNCATED,     /* a header, chunk or field runs past its container */
    THASE_ERR_FORMAT,        /* a wrong magic number or a value outside its range */
    THASE_ERR_LIMIT,         /* over one of the limits (LIMITS above) */
    THASE_ERR_ZLIB,          /* a compressed cel that does not decode to its size */
    THASE_ERR_MEMORY,        /* the allocator returned NULL */
    THASE_ERR_UNSUPPORTED    /* a compressed cel with no inflater */
} thase_result;

enum { THASE_DEPTH_INDEXED = 8, THASE_DEPTH_GRAY = 16, THASE_DEPTH_RGBA = 32 };

enum {   /* thase_layer.flags, as in the file */
    THASE_LAYER_VISIBLE = 1, THASE_LAYER_EDITABLE = 2, THASE_LAYER_LOCKED = 4, THASE_LAYER_BACKGROUND = 8,
    THASE_LAYER_PREFER_LINKED = 16, THASE_LAYER_COLLAPSED = 32, THASE_LAYER_REFERENCE = 64
};
enum { THASE_LAYER_NORMAL = 0, THASE_LAYER_GROUP = 1, THASE_LAYER_TILEMAP = 2 };   /* thase_layer.type */

enum {   /* blend modes, numbered as in the file */
    THASE_BLEND_NORMAL, THASE_BLEND_MULTIPLY, THASE_BLEND_SCREEN, THASE_BLEND_OVERLAY, THASE_BLEND_DARKEN,
    THASE_BLEND_LIGHTEN, THASE_BLEND_COLOR_DODGE, THASE_BLEND_COLOR_BURN, THASE_BLEND_HARD_LIGHT,
    THASE_BLEND_SOFT_LIGHT, THASE_BLEND_DIFFERENCE, THASE_BLEND_EXCLUSION, THASE_BLEND_HUE,
    THASE_BLEND_SATURATION, THASE_BLEND_COLOR, THASE_BLEND_LUMINOSITY, THASE_BLEND_ADDITION,
    THASE_BLEND_SUBTRACT, THASE_BLEND_DIVIDE, THASE_BLEND_COUNT
};

enum {   /* thase_tag.direction */
    THASE_DIR_FORWARD = 0, THASE_DIR_REVERSE = 1, THASE_DIR_PING_PONG = 2, THASE_DIR_PING_PONG_REVERSE = 3
};

enum { THASE_SLICE_NINE_PATCH = 1, THASE_SLICE_PIVOT = 2 };   /* thase_slice.flags */

typedef int (*thase_inflate_fn)(void *user, const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size);

typedef struct thase_settings {          /* zero means default, field by field */
    void *(*alloc)(void *user, size_t size);   /* alloc and free go together: both or neither */
    void  (*free)(void *user, void *ptr);
    void   *alloc_user;
    thase_inflate_fn inflate;            /* see ZLIB above */
    void   *inflate_user;
    uint32_t max_dimension, max_frames, max_layers, max_cels;
    uint64_t max_pixel_bytes;
} thase_settings;

typedef struct thase_layer {
    char    *name;               /* NUL-terminated */
    uint16_t flags;              /* THASE_LAYER_VISIBLE ... */
    uint16_t type;               /* THASE_LAYER_NORMAL, _GROUP, _TILEMAP */
    uint16_t child_level;
    uint16_t blend;              /* THASE_BLEND_* (0 for groups) */
    uint8_t  opacity;            /* 255 when the header says layer opacity is not valid */
    int      parent;             /* the group holding it, -1 at the top */
    int      visible;            /* its own flag and every enclosing group's */
} thase_layer;

typedef struct thase_cel {
    int      layer, frame;
    int      x, y;               /* top-left in the sprite; may be negative */
    uint8_t  opacity;
    int      width, height;
    int      linked_frame;       /* the frame whose cel this one shows (type 1), or -1 */
    uint8_t *pixels;             /* width*height pixels in the sprite's depth; shared when linked */
    int      owns_pixels;
} thase_cel;

typedef struct thase_frame { uint32_t duration_ms; } thase_frame;

typedef struct thase_tag {
    char    *name;
    int      from, to;           /* frames, inclusive, from <= to */
    int      direction;          /* THASE_DIR_* */
    int      repeat;             /* 0 = not specified (loops) */
    uint8_t  color[3];
} thase_tag;

typedef struct thase_slice_key {
    int      frame;              /* in force from this frame on */
    int32_t  x, y;
    uint32_t width, height;
    int32_t  center_x, center_y; /* 9-patch centre, relative to the bounds (THASE_SLICE_NINE_PATCH) */
    uint32_t center_width, center_height;
    int32_t  pivot_x, pivot_y;   /* relative to the bounds' origin (THASE_SLICE_PIVOT) */
} thase_slice_key;

typedef struct thase_slice {
    char            *name;
    uint32_t         flags;      /* THASE_SLICE_NINE_PATCH | THASE_SLICE_PIVOT */
    int              key_count;
    thase_slice_key *keys;       /* in file order */
} thase_slice;

typedef struct thase_sprite {
    int          width, height;
    int          depth;                  /* THASE_DEPTH_* */
    uint32_t     header_flags;           /* 1 layer opacity valid, 2 group opacity valid, 4 layer UUIDs */
    uint8_t      transparent_index;      /* indexed sprites */
    int          frame_count, layer_count, cel_count, tag_count, slice_count;
    thase_frame *frames;
    thase_layer *layers;                 /* file order: index 0 is the bottom */
    thase_cel   *cels;
    thase_tag   *tags;
    thase_slice *slices;
    uint8_t      palette[256][4];        /* RGBA */
    int          palette_count;
    int         *cel_table;              /* [frame * layer_count + layer] -> cel index or -1 */
    uint32_t     unsupported_blends;     /* bit (1 << mode): a visible layer's mode drawn as normal */
    int          skipped_tilemap_cels;   /* type-3 cels not read */
    char         error[200];             /* why thase_load failed, with chunk type and offset */
    /* allocator, kept for thase_free */
    void *(*alloc_fn)(void *user, size_t size);
    void  (*free_fn)(void *user, void *ptr);
    void   *alloc_user;
} thase_sprite;

int  thase_load(const void *data, size_t size, const thase_settings *settings, thase_sprite *out);
void thase_free(thase_sprite *s);
int  thase_composite(const thase_sprite *s, int frame, uint8_t *rgba);
int  thase_find_cel(const thase_sprite *s, int layer, int frame);
int  thase_find_tag(const thase_sprite *s, const char *name);
int  thase_find_slice(const thase_sprite *s, const char *name);
const thase_slice_key *thase_slice_at(const thase_slice *sl, int frame);
const char *thase_blend_name(int mode);

#ifdef __cplusplus
}
#endif
#endif /* TH_ASEPRITE_H */

#ifdef TH_ASEPRITE_IMPLEMENTATION
#ifndef TH_ASEPRITE_IMPLEMENTED
#define TH_ASEPRITE_IMPLEMENTED
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

#ifndef THASE_MALLOC
#define THASE_MALLOC(n) malloc(n)
#define THASE_FREE(p) free(p)
#endif

#ifdef THASE_STB_ZLIB
#ifndef STBI_INCLUDE_STB_IMAGE_H   /* the declarations only, unless the program included them already */
#include <stb_image.h>
#endif
static int thase__stb_inflate(void *user, const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size)
{
    (void)user;
    if (src_size > INT_MAX || dst_size > INT_MAX) return -1;
    return stbi_zlib_decode_buffer((char *)dst, (int)dst_size, (const char *)src, (int)src_size);
}
#endif

static void *thase__default_alloc(void *user, size_t size) { (void)user; return THASE_MALLOC(size); }
static void thase__default_free(void *user, void *ptr) { (void)user; THASE_FREE(ptr); }

typedef struct thase__reader {
    thase_sprite *s;
    const uint8_t *d;        /* the whole file */
    size_t size;             /* bytes of the file in use (the header's file size) */
    thase_settings set;
    uint64_t pixel_bytes;
    int cel_cap, layer_cap, slice_cap;
    int saw_new_palette;
    uint8_t old_palette[256][4];
    int old_palette_count;
    /* where the chunk being read is, for messages */
    unsigned chunk_type;
    size_t chunk_at;
    int frame;
} thase__reader;

static int thase__fail(thase__reader *r, int code, const char *what)
{
    if (r->chunk_type)
        snprintf(r->s->error, sizeof r->s->error, "frame %d, chunk 0x%04x at byte %lu: %s", r->frame, r->chunk_type,
                 (unsigned long)r->chunk_at, what);
    else
        snprintf(r->s->error, sizeof r->s->error, "%s", what);
    return code;
}

static uint16_t thase__u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t thase__u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static int16_t thase__s16(const uint8_t *p) { return (int16_t)thase__u16(p); }
static int32_t thase__s32(const uint8_t *p) { return (int32_t)thase__u32(p); }

static void *thase__alloc(thase__reader *r, size_t n)
{
    return r->s->alloc_fn(r->s->alloc_user, n ? n : 1);
}

/* a cursor over one chunk's body */
typedef struct thase__cur { const uint8_t *p; size_t n, i; } thase__cur;
static int thase__need(const thase__cur *c, size_t k) { return c->n - c->i >= k; }

/* a STRING (WORD length, bytes) copied into a NUL-terminated allocation */
static int thase__string(thase__reader *r, thase__cur *c, char **out, const char *what)
{
    char msg[96];
    if (!thase__need(c, 2)) { snprintf(msg, sizeof msg, "%s: string length past the chunk's end", what); return thase__fail(r, THASE_ERR_TRUNCATED, msg); }
    size_t len = thase__u16(c->p + c->i);
    c->i += 2;
    if (!thase__need(c, len)) { snprintf(msg, sizeof msg, "%s: %lu-byte string past the chunk's end", what, (unsigned long)len); return thase__fail(r, THASE_ERR_TRUNCATED, msg); }
    char *s = (char *)thase__alloc(r, len + 1);
    if (!s) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    memcpy(s, c->p + c->i, len);
    s[len] = 0;
    c->i += len;
    *out = s;
    return THASE_OK;
}

/* arr, grown to hold one more than count elements (a new allocation when full); NULL when out of memory */
static void *thase__grow(thase__reader *r, void *arr, int count, int *cap, size_t elem)
{
    if (count < *cap) return arr;
    int ncap = *cap ? *cap * 2 : 8;
    void *n = thase__alloc(r, (size_t)ncap * elem);
    if (!n) return 0;
    if (arr) { memcpy(n, arr, (size_t)count * elem); r->s->free_fn(r->s->alloc_user, arr); }
    memset((uint8_t *)n + (size_t)count * elem, 0, (size_t)(ncap - count) * elem);
    *cap = ncap;
    return n;
}

static int thase__layer(thase__reader *r, thase__cur *c)
{
    thase_sprite *s = r->s;
    if (!thase__need(c, 16)) return thase__fail(r, THASE_ERR_TRUNCATED, "layer chunk shorter than its 16 fixed bytes");
    if ((uint32_t)s->layer_count >= r->set.max_layers) return thase__fail(r, THASE_ERR_LIMIT, "more layers than max_layers");
    void *grown = thase__grow(r, s->layers, s->layer_count, &r->layer_cap, sizeof(thase_layer));
    if (!grown) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    s->layers = (thase_layer *)grown;
    const uint8_t *p = c->p;
    thase_layer *l = &s->layers[s->layer_count];
    memset(l, 0, sizeof *l);
    l->flags = thase__u16(p);
    l->type = thase__u16(p + 2);
    l->child_level = thase__u16(p + 4);
    l->blend = thase__u16(p + 10);
    l->opacity = (s->header_flags & 1) ? p[12] : 255;
    c->i = 16;
    if (l->type > THASE_LAYER_TILEMAP) return thase__fail(r, THASE_ERR_FORMAT, "layer type is not 0, 1 or 2");
    if (l->blend >= THASE_BLEND_COUNT) return thase__fail(r, THASE_ERR_FORMAT, "blend mode past 18");
    /* the parent: the nearest group before this layer one level up */
    l->parent = -1;
    if (l->child_level > 0) {
        int i = s->layer_count - 1;
        while (i >= 0 && s->layers[i].child_level >= l->child_level) i--;
        if (i < 0 || s->layers[i].child_level != l->child_level - 1 || s->layers[i].type != THASE_LAYER_GROUP)
            return thase__fail(r, THASE_ERR_FORMAT, "layer's child level has no group one level up");
        l->parent = i;
    }
    l->visible = (l->flags & THASE_LAYER_VISIBLE) && !(l->flags & THASE_LAYER_REFERENCE) &&
                 (l->parent < 0 || s->layers[l->parent].visible);
    s->layer_count++;   /* counted before the name so thase_free releases it */
    return thase__string(r, c, &l->name, "layer name");
}

static int thase__inflate(thase__reader *r, const uint8_t *src, size_t n, uint8_t *dst, size_t want)
{
    thase_inflate_fn fn = r->set.inflate;
    if (!fn) return thase__fail(r, THASE_ERR_UNSUPPORTED, "compressed cel, and no inflate function (settings.inflate or THASE_STB_ZLIB)");
    int got = fn(r->set.inflate_user, src, n, dst, want);
    if (got < 0) return thase__fail(r, THASE_ERR_ZLIB, "compressed cel: damaged zlib data");
    if ((size_t)got != want) {
        char msg[120];
        snprintf(msg, sizeof msg, "compressed cel: zlib data decodes to %d bytes, the cel needs %lu", got, (unsigned long)want);
        return thase__fail(r, THASE_ERR_ZLIB, msg);
    }
    /* the stream's last 4 bytes: adler32 of the output, big-endian (checked here: not every inflater does) */
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < want; i++) {
        a += dst[i];
        if (a >= 65521) a -= 65521;
        b += a;
        if (b >= 65521) b -= 65521;
    }
    if (n < 6) return thase__fail(r, THASE_ERR_ZLIB, "compressed cel: shorter than a zlib header and adler32");
    const uint8_t *t = src + n - 4;
    if (((uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3]) != (b << 16 | a))
        return thase__fail(r, THASE_ERR_ZLIB, "compressed cel: adler32 does not match the pixels");
    return THASE_OK;
}

static int thase__cel(thase__reader *r, thase__cur *c)
{
    thase_sprite *s = r->s;
    char msg[120];
    if (!thase__need(c, 16)) return thase__fail(r, THASE_ERR_TRUNCATED, "cel chunk shorter than its 16 fixed bytes");
    const uint8_t *p = c->p;
    int layer = thase__u16(p);
    int type = thase__u16(p + 7);
    c->i = 16;
    if (layer >= s->layer_count) {
        snprintf(msg, sizeof msg, "cel on layer %d, and only %d layers so far", layer, s->layer_count);
        return thase__fail(r, THASE_ERR_FORMAT, msg);
    }
    if (type == 3 || s->layers[layer].type == THASE_LAYER_TILEMAP) { s->skipped_tilemap_cels++; return THASE_OK; }
    if (type > 3) return thase__fail(r, THASE_ERR_FORMAT, "cel type is not 0, 1, 2 or 3");
    if (s->layers[layer].type == THASE_LAYER_GROUP) return thase__fail(r, THASE_ERR_FORMAT, "cel on a group layer");
    for (int i = s->cel_count - 1; i >= 0 && s->cels[i].frame == r->frame; i--)
        if (s->cels[i].layer == layer) return thase__fail(r, THASE_ERR_FORMAT, "second cel for one layer in one frame");
    if ((uint32_t)s->cel_count >= r->set.max_cels) return thase__fail(r, THASE_ERR_LIMIT, "more cels than max_cels");
    void *grown = thase__grow(r, s->cels, s->cel_count, &r->cel_cap, sizeof(thase_cel));
    if (!grown) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    s->cels = (thase_cel *)grown;
    thase_cel cel;
    memset(&cel, 0, sizeof cel);
    cel.layer = layer;
    cel.frame = r->frame;
    cel.x = thase__s16(p + 2);
    cel.y = thase__s16(p + 4);
    cel.opacity = p[6];
    cel.linked_frame = -1;
    if (type == 1) {
        if (!thase__need(c, 2)) return thase__fail(r, THASE_ERR_TRUNCATED, "linked cel: frame number past the chunk's end");
        int link = thase__u16(p + 16);
        if (link >= r->frame) return thase__fail(r, THASE_ERR_FORMAT, "linked cel points at this frame or a later one");
        /* cels are stored in frame order: the first of frame link by bisection, then that frame's few */
        int lo = 0, hi = s->cel_count, src = -1;
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (s->cels[mid].frame < link) lo = mid + 1; else hi = mid;
        }
        for (int i = lo; i < s->cel_count && s->cels[i].frame == link; i++)
            if (s->cels[i].layer == layer) { src = i; break; }
        if (src < 0) return thase__fail(r, THASE_ERR_FORMAT, "linked cel points at a frame with no cel on its layer");
        /* shares the pixels and size; position and opacity are the linked cel's own */
        cel.width = s->cels[src].width;
        cel.height = s->cels[src].height;
        cel.pixels = s->cels[src].pixels;
        cel.linked_frame = link;
        s->cels[s->cel_count++] = cel;
        return THASE_OK;
    }
    if (!thase__need(c, 4)) return thase__fail(r, THASE_ERR_TRUNCATED, "cel size past the chunk's end");
    cel.width = thase__u16(p + 16);
    cel.height = thase__u16(p + 18);
    c->i += 4;
    if (cel.width == 0 || cel.height == 0) return thase__fail(r, THASE_ERR_FORMAT, "cel with zero width or height");
    if ((uint32_t)cel.width > r->set.max_dimension || (uint32_t)cel.height > r->set.max_dimension)
        return thase__fail(r, THASE_ERR_LIMIT, "cel larger than max_dimension");
    size_t bytes = (size_t)cel.width * (size_t)cel.height * (size_t)(s->depth / 8);
    if (r->pixel_bytes + bytes > r->set.max_pixel_bytes) return thase__fail(r, THASE_ERR_LIMIT, "cel pixels past max_pixel_bytes");
    if (type == 0 && !thase__need(c, bytes)) {
        snprintf(msg, sizeof msg, "raw cel: %lu pixel bytes past the chunk's end", (unsigned long)bytes);
        return thase__fail(r, THASE_ERR_TRUNCATED, msg);
    }
    cel.pixels = (uint8_t *)thase__alloc(r, bytes);
    if (!cel.pixels) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    cel.owns_pixels = 1;
    s->cels[s->cel_count++] = cel;   /* owned from here on: thase_free releases the pixels */
    r->pixel_bytes += bytes;
    if (type == 0) { memcpy(cel.pixels, c->p + c->i, bytes); return THASE_OK; }
    return thase__inflate(r, c->p + c->i, c->n - c->i, cel.pixels, bytes);
}

static int thase__tags(thase__reader *r, thase__cur *c)
{
    thase_sprite *s = r->s;
    if (s->tags) return thase__fail(r, THASE_ERR_FORMAT, "a second tags chunk");
    if (!thase__need(c, 10)) return thase__fail(r, THASE_ERR_TRUNCATED, "tags chunk shorter than its 10 fixed bytes");
    int n = thase__u16(c->p);
    c->i = 10;
    if ((size_t)n * 19 > c->n - c->i) return thase__fail(r, THASE_ERR_TRUNCATED, "tag count past the chunk's end");
    s->tags = (thase_tag *)thase__alloc(r, (size_t)n * sizeof(thase_tag));
    if (!s->tags) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    memset(s->tags, 0, (size_t)n * sizeof(thase_tag));
    for (int i = 0; i < n; i++) {
        if (!thase__need(c, 17)) return thase__fail(r, THASE_ERR_TRUNCATED, "tag past the chunk's end");
        const uint8_t *p = c->p + c->i;
        thase_tag *t = &s->tags[i];
        t->from = thase__u16(p);
        t->to = thase__u16(p + 2);
        t->direction = p[4];
        t->repeat = thase__u16(p + 5);
        memcpy(t->color, p + 13, 3);
        c->i += 17;
        s->tag_count = i + 1;
        int e = thase__string(r, c, &t->name, "tag name");
        if (e) return e;
        if (t->from > t->to || t->to >= s->frame_count) return thase__fail(r, THASE_ERR_FORMAT, "tag's frame range is outside the sprite");
        if (t->direction > THASE_DIR_PING_PONG_REVERSE) return thase__fail(r, THASE_ERR_FORMAT, "tag direction is not 0..3");
    }
    return THASE_OK;
}

static int thase__palette(thase__reader *r, thase__cur *c)
{
    thase_sprite *s = r->s;
    if (!thase__need(c, 20)) return thase__fail(r, THASE_ERR_TRUNCATED, "palette chunk shorter than its 20 fixed bytes");
    uint32_t size = thase__u32(c->p), first = thase__u32(c->p + 4), last = thase__u32(c->p + 8);
    c->i = 20;
    if (first > last || last >= size) return thase__fail(r, THASE_ERR_FORMAT, "palette range outside the palette");
    if ((uint64_t)(last - first + 1) * 6 > c->n - c->i) return thase__fail(r, THASE_ERR_TRUNCATED, "palette entries past the chunk's end");
    r->saw_new_palette = 1;
    s->palette_count = size > 256 ? 256 : (int)size;
    for (uint32_t k = first; k <= last; k++) {
        if (!thase__need(c, 6)) return thase__fail(r, THASE_ERR_TRUNCATED, "palette entry past the chunk's end");
        const uint8_t *p = c->p + c->i;
        uint16_t flags = thase__u16(p);
        if (k < 256) memcpy(s->palette[k], p + 2, 4);
        c->i += 6;
        if (flags & 1) {   /* a name: skipped */
            if (!thase__need(c, 2) || !thase__need(c, 2 + (size_t)thase__u16(c->p + c->i)))
                return thase__fail(r, THASE_ERR_TRUNCATED, "palette entry's name past the chunk's end");
            c->i += 2 + (size_t)thase__u16(c->p + c->i);
        }
    }
    return THASE_OK;
}

/* 0x0004 (0..255 components) and 0x0011 (0..63): used only when the file has no 0x2019 */
static int thase__old_palette(thase__reader *r, thase__cur *c, int six_bit)
{
    if (!thase__need(c, 2)) return thase__fail(r, THASE_ERR_TRUNCATED, "old palette chunk shorter than 2 bytes");
    int packets = thase__u16(c->p);
    int at = 0;
    c->i = 2;
    for (int k = 0; k < packets; k++) {
        if (!thase__need(c, 2)) return thase__fail(r, THASE_ERR_TRUNCATED, "old palette packet past the chunk's end");
        at += c->p[c->i];
        int n = c->p[c->i + 1] ? c->p[c->i + 1] : 256;
        c->i += 2;
        if (!thase__need(c, (size_t)n * 3)) return thase__fail(r, THASE_ERR_TRUNCATED, "old palette colors past the chunk's end");
        for (int j = 0; j < n; j++, at++) {
            const uint8_t *p = c->p + c->i + (size_t)j * 3;
            if (at >= 256) return thase__fail(r, THASE_ERR_FORMAT, "old palette past 256 colors");
            for (int q = 0; q < 3; q++) r->old_palette[at][q] = six_bit ? (uint8_t)((p[q] & 63) * 255 / 63) : p[q];
            r->old_palette[at][3] = 255;
        }
        c->i += (size_t)n * 3;
        if (at > r->old_palette_count) r->old_palette_count = at;
    }
    return THASE_OK;
}

static int thase__slice(thase__reader *r, thase__cur *c)
{
    thase_sprite *s = r->s;
    if (!thase__need(c, 12)) return thase__fail(r, THASE_ERR_TRUNCATED, "slice chunk shorter than its 12 fixed bytes");
    uint32_t nkeys = thase__u32(c->p), flags = thase__u32(c->p + 4);
    c->i = 12;
    void *grown = thase__grow(r, s->slices, s->slice_count, &r->slice_cap, sizeof(thase_slice));
    if (!grown) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    s->slices = (thase_slice *)grown;
    int e;
    thase_slice *sl = &s->slices[s->slice_count++];
    memset(sl, 0, sizeof *sl);
    sl->flags = flags & 3;
    if ((e = thase__string(r, c, &sl->name, "slice name")) != 0) return e;
    size_t key_bytes = 20 + (flags & 1 ? 16 : 0) + (flags & 2 ? 8 : 0);
    if (nkeys == 0) return thase__fail(r, THASE_ERR_FORMAT, "slice with no keys");
    if ((uint64_t)nkeys * key_bytes > c->n - c->i) return thase__fail(r, THASE_ERR_TRUNCATED, "slice keys past the chunk's end");
    sl->keys = (thase_slice_key *)thase__alloc(r, (size_t)nkeys * sizeof(thase_slice_key));
    if (!sl->keys) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    memset(sl->keys, 0, (size_t)nkeys * sizeof(thase_slice_key));
    sl->key_count = (int)nkeys;
    for (uint32_t k = 0; k < nkeys; k++) {
        const uint8_t *p = c->p + c->i;
        thase_slice_key *key = &sl->keys[k];
        uint32_t frame = thase__u32(p);
        if (frame >= (uint32_t)s->frame_count) return thase__fail(r, THASE_ERR_FORMAT, "slice key's frame past the last frame");
        key->frame = (int)frame;
        key->x = thase__s32(p + 4);
        key->y = thase__s32(p + 8);
        key->width = thase__u32(p + 12);
        key->height = thase__u32(p + 16);
        p += 20;
        if (flags & 1) {
            key->center_x = thase__s32(p);
            key->center_y = thase__s32(p + 4);
            key->center_width = thase__u32(p + 8);
            key->center_height = thase__u32(p + 12);
            p += 16;
        }
        if (flags & 2) { key->pivot_x = thase__s32(p); key->pivot_y = thase__s32(p + 4); }
        c->i += key_bytes;
    }
    return THASE_OK;
}

static int thase__parse(thase__reader *r)
{
    thase_sprite *s = r->s;
    const uint8_t *d = r->d;
    char msg[160];
    if (r->size < 128) return thase__fail(r, THASE_ERR_TRUNCATED, "shorter than the 128-byte header");
    if (thase__u16(d + 4) != 0xA5E0) return thase__fail(r, THASE_ERR_FORMAT, "not an Aseprite file (magic at byte 4 is not 0xA5E0)");
    uint32_t file_size = thase__u32(d);
    if (file_size < 128) return thase__fail(r, THASE_ERR_FORMAT, "header's file size is under 128 bytes");
    if (file_size > r->size) {
        snprintf(msg, sizeof msg, "truncated: the header says %lu bytes, the buffer has %lu", (unsigned long)file_size, (unsigned long)r->size);
        return thase__fail(r, THASE_ERR_TRUNCATED, msg);
    }
    r->size = file_size;
    uint32_t frames = thase__u16(d + 6);
    s->width = thase__u16(d + 8);
    s->height = thase__u16(d + 10);
    s->depth = thase__u16(d + 12);
    s->header_flags = thase__u32(d + 14);
    uint32_t speed = thase__u16(d + 18);
    s->transparent_index = d[28];
    if (s->depth != 8 && s->depth != 16 && s->depth != 32) return thase__fail(r, THASE_ERR_FORMAT, "color depth is not 8, 16 or 32");
    if (s->width == 0 || s->height == 0) return thase__fail(r, THASE_ERR_FORMAT, "zero width or height");
    if ((uint32_t)s->width > r->set.max_dimension || (uint32_t)s->height > r->set.max_dimension) {
        snprintf(msg, sizeof msg, "sprite is %dx%d, over max_dimension %lu", s->width, s->height, (unsigned long)r->set.max_dimension);
        return thase__fail(r, THASE_ERR_LIMIT, msg);
    }
    if (frames == 0) return thase__fail(r, THASE_ERR_FORMAT, "no frames");
    if (frames > r->set.max_frames) return thase__fail(r, THASE_ERR_LIMIT, "more frames than max_frames");
    /* every frame needs its 16-byte header: a count the file cannot hold is refused before allocating */
    if ((uint64_t)frames * 16 > r->size - 128) return thase__fail(r, THASE_ERR_TRUNCATED, "frame count past the end of the file");
    s->frames = (thase_frame *)thase__alloc(r, frames * sizeof(thase_frame));
    if (!s->frames) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
    s->frame_count = (int)frames;

    size_t at = 128;
    for (uint32_t f = 0; f < frames; f++) {
        r->frame = (int)f;
        r->chunk_type = 0;
        if (r->size - at < 16) {
            snprintf(msg, sizeof msg, "frame %lu header at byte %lu past the end", (unsigned long)f, (unsigned long)at);
            return thase__fail(r, THASE_ERR_TRUNCATED, msg);
        }
        const uint8_t *fh = d + at;
        uint32_t fbytes = thase__u32(fh);
        if (thase__u16(fh + 4) != 0xF1FA) {
            snprintf(msg, sizeof msg, "frame %lu at byte %lu: magic is not 0xF1FA", (unsigned long)f, (unsigned long)at);
            return thase__fail(r, THASE_ERR_FORMAT, msg);
        }
        if (fbytes < 16 || fbytes > r->size - at) {
            snprintf(msg, sizeof msg, "frame %lu at byte %lu: its %lu bytes run past the end", (unsigned long)f, (unsigned long)at, (unsigned long)fbytes);
            return thase__fail(r, THASE_ERR_TRUNCATED, msg);
        }
        uint32_t chunks = thase__u16(fh + 6);
        uint32_t new_chunks = thase__u32(fh + 12);
        if (chunks == 0xFFFF && new_chunks != 0) chunks = new_chunks;
        uint32_t dur = thase__u16(fh + 8);
        s->frames[f].duration_ms = dur ? dur : speed;
        size_t end = at + fbytes, ck = at + 16;
        for (uint32_t k = 0; k < chunks; k++) {
            r->chunk_type = 0;
            if (end - ck < 6) {
                snprintf(msg, sizeof msg, "frame %lu: chunk %lu at byte %lu past the frame's end", (unsigned long)f, (unsigned long)k, (unsigned long)ck);
                return thase__fail(r, THASE_ERR_TRUNCATED, msg);
            }
            uint32_t csize = thase__u32(d + ck);
            r->chunk_type = thase__u16(d + ck + 4);
            r->chunk_at = ck;
            if (csize < 6 || csize > end - ck) return thase__fail(r, THASE_ERR_TRUNCATED, "chunk size past the frame's end");
            thase__cur c;
            c.p = d + ck + 6;
            c.n = csize - 6;
            c.i = 0;
            int e = THASE_OK;
            switch (r->chunk_type) {
            case 0x0004: e = thase__old_palette(r, &c, 0); break;
            case 0x0011: e = thase__old_palette(r, &c, 1); break;
            case 0x2004: e = thase__layer(r, &c); break;
            case 0x2005: e = thase__cel(r, &c); break;
            case 0x2018: e = thase__tags(r, &c); break;
            case 0x2019: e = thase__palette(r, &c); break;
            case 0x2022: e = thase__slice(r, &c); break;
            default: break;   /* cel extra, color profile, user data, tilesets, ...: not needed to draw */
            }
            if (e) return e;
            ck += csize;
        }
        at = end;
    }
    r->chunk_type = 0;
    if (!r->saw_new_palette && r->old_palette_count) {
        memcpy(s->palette, r->old_palette, sizeof s->palette);
        s->palette_count = r->old_palette_count;
    }
    /* the frame x layer table */
    if (s->layer_count) {
        uint64_t n = (uint64_t)s->frame_count * (uint64_t)s->layer_count;
        if (n > (1u << 24)) return thase__fail(r, THASE_ERR_LIMIT, "frames x layers over 16M");
        s->cel_table = (int *)thase__alloc(r, (size_t)n * sizeof(int));
        if (!s->cel_table) return thase__fail(r, THASE_ERR_MEMORY, "out of memory");
        for (uint64_t i = 0; i < n; i++) s->cel_table[i] = -1;
        for (int i = 0; i < s->cel_count; i++) s->cel_table[(size_t)s->cels[i].frame * (size_t)s->layer_count + (size_t)s->cels[i].layer] = i;
    }
    for (int i = 0; i < s->layer_count; i++) {
        const thase_layer *l = &s->layers[i];
        if (l->visible && l->type == THASE_LAYER_NORMAL && l->blend != THASE_BLEND_NORMAL && l->blend != THASE_BLEND_MULTIPLY &&
            l->blend != THASE_BLEND_SCREEN && l->blend != THASE_BLEND_DARKEN && l->blend != THASE_BLEND_LIGHTEN &&
            l->blend != THASE_BLEND_DIFFERENCE && l->blend != THASE_BLEND_ADDITION && l->blend != THASE_BLEND_SUBTRACT)
            s->unsupported_blends |= 1u << l->blend;
    }
    return THASE_OK;
}

int thase_load(const void *data, size_t size, const thase_settings *settings, thase_sprite *out)
{
    if (!out) return THASE_ERR_ARGS;
    memset(out, 0, sizeof *out);
    thase__reader r;
    memset(&r, 0, sizeof r);
    if (settings) r.set = *settings;
    if (!r.set.alloc || !r.set.free) { r.set.alloc = thase__default_alloc; r.set.free = thase__default_free; r.set.alloc_user = 0; }
#ifdef THASE_STB_ZLIB
    if (!r.set.inflate) r.set.inflate = thase__stb_inflate;
#endif
    if (!r.set.max_dimension) r.set.max_dimension = THASE_MAX_DIMENSION;
    if (!r.set.max_frames) r.set.max_frames = THASE_MAX_FRAMES;
    if (!r.set.max_layers) r.set.max_layers = THASE_MAX_LAYERS;
    if (!r.set.max_cels) r.set.max_cels = THASE_MAX_CELS;
    if (!r.set.max_pixel_bytes) r.set.max_pixel_bytes = THASE_MAX_PIXEL_BYTES;
    out->alloc_fn = r.set.alloc;
    out->free_fn = r.set.free;
    out->alloc_user = r.set.alloc_user;
    r.s = out;
    r.frame = -1;
    if (!data) { snprintf(out->error, sizeof out->error, "no data"); return THASE_ERR_ARGS; }
    r.d = (const uint8_t *)data;
    r.size = size;
    int e = thase__parse(&r);
    if (e) {
        char keep[sizeof out->error];
        memcpy(keep, out->error, sizeof keep);
        thase_free(out);
        memcpy(out->error, keep, sizeof keep);
    }
    return e;
}

void thase_free(thase_sprite *s)
{
    if (!s || !s->free_fn) return;
    void (*fr)(void *, void *) = s->free_fn;
    void *u = s->alloc_user;
    for (int i = 0; i < s->layer_count; i++) if (s->layers[i].name) fr(u, s->layers[i].name);
    for (int i = 0; i < s->cel_count; i++) if (s->cels[i].owns_pixels) fr(u, s->cels[i].pixels);
    for (int i = 0; i < s->tag_count; i++) if (s->tags[i].name) fr(u, s->tags[i].name);
    for (int i = 0; i < s->slice_count; i++) {
        if (s->slices[i].name) fr(u, s->slices[i].name);
        if (s->slices[i].keys) fr(u, s->slices[i].keys);
    }
    void *arrays[] = { s->frames, s->layers, s->cels, s->tags, s->slices, s->cel_table };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) if (arrays[i]) fr(u, arrays[i]);
    memset(s, 0, sizeof *s);
}

/* x*y/255 rounded, for 0..255 operands */
static int thase__mul(int a, int b) { int t = a * b + 128; return ((t >> 8) + t) >> 8; }
/* x/255 rounded to nearest, for signed x */
static int thase__div255(int x) { return x >= 0 ? (x + 127) / 255 : -((-x + 127) / 255); }

static int thase__blend_channel(int mode, int b, int s)
{
    switch (mode) {
    case THASE_BLEND_MULTIPLY: return thase__mul(b, s);
    case THASE_BLEND_SCREEN: return b + s - thase__mul(b, s);
    case THASE_BLEND_DARKEN: return b < s ? b : s;
    case THASE_BLEND_LIGHTEN: return b > s ? b : s;
    case THASE_BLEND_DIFFERENCE: return b > s ? b - s : s - b;
    case THASE_BLEND_ADDITION: return b + s > 255 ? 255 : b + s;
    case THASE_BLEND_SUBTRACT: return b - s < 0 ? 0 : b - s;
    default: return s;
    }
}

static void thase__blend(uint8_t *dst, const uint8_t *src, int opacity, int mode)
{
    int as = thase__mul(src[3], opacity);
    if (as == 0) return;
    int ab = dst[3];
    if (ab == 0) { dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2]; dst[3] = (uint8_t)as; return; }
    int ao = as + ab - thase__mul(ab, as);
    for (int k = 0; k < 3; k++) {
        int cb = dst[k], cs = src[k];
        if (mode != THASE_BLEND_NORMAL) cs += thase__div255((thase__blend_channel(mode, cb, cs) - cs) * ab);
        dst[k] = (uint8_t)(cb + (cs - cb) * as / ao);
    }
    dst[3] = (uint8_t)ao;
}

int thase_composite(const thase_sprite *s, int frame, uint8_t *rgba)
{
    if (!s || !rgba || frame < 0 || frame >= s->frame_count) return 0;
    memset(rgba, 0, (size_t)s->width * (size_t)s->height * 4);
    for (int li = 0; li < s->layer_count; li++) {
        const thase_layer *l = &s->layers[li];
        if (!l->visible || l->type != THASE_LAYER_NORMAL) continue;
        int ci = s->cel_table[(size_t)frame * (size_t)s->layer_count + (size_t)li];
        if (ci < 0) continue;
        const thase_cel *c = &s->cels[ci];
        int opacity = thase__mul(c->opacity, l->opacity);
        if (s->header_flags & 2)
            for (int g = l->parent; g >= 0; g = s->layers[g].parent) opacity = thase__mul(opacity, s->layers[g].opacity);
        int mode = (s->unsupported_blends >> l->blend) & 1 ? (int)THASE_BLEND_NORMAL : (int)l->blend;
        int background = (l->flags & THASE_LAYER_BACKGROUND) != 0;
        int x0 = c->x < 0 ? -c->x : 0, y0 = c->y < 0 ? -c->y : 0;
        int x1 = c->width, y1 = c->height;
        if (c->x + x1 > s->width) x1 = s->width - c->x;
        if (c->y + y1 > s->height) y1 = s->height - c->y;
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                size_t i = (size_t)y * (size_t)c->width + (size_t)x;
                uint8_t px[4];
                if (s->depth == THASE_DEPTH_RGBA) memcpy(px, c->pixels + i * 4, 4);
                else if (s->depth == THASE_DEPTH_GRAY) { px[0] = px[1] = px[2] = c->pixels[i * 2]; px[3] = c->pixels[i * 2 + 1]; }
                else {
                    int idx = c->pixels[i];
                    if (idx == s->transparent_index && !background) continue;
                    if (idx < s->palette_count) memcpy(px, s->palette[idx], 4);
                    else { px[0] = px[1] = px[2] = 0; px[3] = 255; }
                }
                thase__blend(rgba + ((size_t)(c->y + y) * (size_t)s->width + (size_t)(c->x + x)) * 4, px, opacity, mode);
            }
        }
    }
    return 1;
}

int thase_find_cel(const thase_sprite *s, int layer, int frame)
{
    if (!s || !s->cel_table || layer < 0 || layer >= s->layer_count || frame < 0 || frame >= s->frame_count) return -1;
    return s->cel_table[(size_t)frame * (size_t)s->layer_count + (size_t)layer];
}

int thase_find_tag(const thase_sprite *s, const char *name)
{
    for (int i = 0; s && name && i < s->tag_count; i++) if (strcmp(s->tags[i].name, name) == 0) return i;
    return -1;
}

int thase_find_slice(const thase_sprite *s, const char *name)
{
    for (int i = 0; s && name && i < s->slice_count; i++) if (strcmp(s->slices[i].name, name) == 0) return i;
    return -1;
}

const thase_slice_key *thase_slice_at(const thase_slice *sl, int frame)
{
    const thase_slice_key *best = 0;
    for (int i = 0; sl && i < sl->key_count; i++)
        if (sl->keys[i].frame <= frame && (!best || sl->keys[i].frame >= best->frame)) best = &sl->keys[i];
    return best;
}

const char *thase_blend_name(int mode)
{
    static const char *names[THASE_BLEND_COUNT] = {
        "normal", "multiply", "screen", "overlay", "darken", "lighten", "color dodge", "color burn", "hard light",
        "soft light", "difference", "exclusion", "hue", "saturation", "color", "luminosity", "addition", "subtract", "divide"
    };
    return mode >= 0 && mode < THASE_BLEND_COUNT ? names[mode] : "?";
}

#endif /* TH_ASEPRITE_IMPLEMENTED */
#endif /* TH_ASEPRITE_IMPLEMENTATION */

/*
   LICENCE - this file is offered under your choice of A or B.

   A - MIT License

   Copyright (c) 2026 the engine's maintainers

   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all copies or
   substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
   NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
   OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

   B - Public domain

   The authors dedicate this file to the public domain, giving up every copyright interest in
   it, for the benefit of the public and to the detriment of their heirs and successors, and
   meaning it as a permanent act. Anyone may copy, modify, publish, use, compile, sell or distribute
   it, as source or as a compiled binary, for any purpose, commercial or not, and by any means,
   with no need to name the authors. Where a dedication to the public domain is not recognised, the
   authors grant everyone the same rights under the MIT License above, without its condition.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED. IN NO EVENT
   SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
