/* th_tiled.h - reading Tiled maps saved as JSON (.tmj / .json) and their external tilesets (.tsj), every
   value checked, plus the lookups a game needs and solid tiles merged into few boxes.

   th_tiled.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and
   in the repository's LICENSE).

   WHAT IT DOES
     thtl_load parses a map held in memory with a JSON parser of its own (RFC 8259; every token
     bounded by the buffer, nesting depth capped) and reads what Tiled's JSON map format describes
     (doc.mapeditor.org, "JSON Map Format"):
       - the map: width, height, tilewidth, tileheight, orientation (orthogonal only: others are
         refused with THTL_ERR_UNSUPPORTED), class (or type), custom properties. Infinite maps: each
         tile layer's chunks are placed into one grid over the layer's bounds (startx, starty,
         width, height), so gids[0] is map cell (start_x, start_y), which may be negative.
       - tilesets, embedded or external (.tsj through the read_file hook, see FILES): firstgid,
         name, image path and size, tile size, columns, tilecount, margin, spacing, tile offset,
         custom properties, and per-tile type/class, image (image collections), animation and
         properties.
       - tile layers: data as a JSON array ("csv" in Tiled) or base64, uncompressed or zlib (through
         an inflate hook, see ZLIB); gzip and zstd are refused with a message naming them. Global
         tile ids keep their flip bits (THTL_FLIP_*; thtl_gid_id strips them).
       - object layers: objects with id, name, type (Tiled 1.9 calls it class: both are read),
         x, y, width, height, rotation, visibility, shape (rectangle, point, ellipse, polygon,
         polyline, text, tile) with polygon/polyline points, tile objects' gid, text, custom properties.
       - image layers: the image path.
       - group layers are flattened: each leaf layer gets its groups' offsets and parallax added in
         and their opacity and visibility multiplied in, and names its innermost group.
       - custom properties of type string, int, float, bool, color, file, object (an object id)
         and class (its members are not read; the property keeps its propertytype name).
     Every tile id in a tile layer or tile object is checked to belong to a tileset.

     Any input - random bytes included - ends in either a map or an error code with a message
     naming what was wrong and where: a JSON error with its line and column, a value with the
     layer, object or tileset it belongs to, and the file when a hook loaded it
     (tests/fuzz/fuzz_th_tiled.cpp holds it to that). Nothing is read outside the input and
     nothing is allocated past the limits below.

   USE
     #define TH_TILED_IMPLEMENTATION in one C or C++ file before including; C99 or C++.
     Dependencies: <stdint.h>, <stddef.h>, <string.h>, <stdio.h>, <stdlib.h> (the malloc default).

     int  thtl_load(const void *json, size_t size, const thtl_settings *settings, thtl_map *out);
                         THTL_OK (0) or a thtl_result; out->error says what and where. settings may
                         be NULL. On failure out holds nothing to free (thtl_free on it is harmless).
     int  thtl_load_file(const char *path, const thtl_settings *settings, thtl_map *out);
                         reads path with stdio, then thtl_load; external tilesets are looked for
                         next to the map unless settings->base_dir says otherwise; an error message
                         starts with the path (not with THTL_NO_STDIO)
     void thtl_free(thtl_map *m);

     uint32_t thtl_gid_at(const thtl_layer *l, int x, int y);    the raw gid (flip bits kept) at map cell
                                                                   (x, y), 0 outside the layer
     uint32_t thtl_gid_id(uint32_t gid);                           the gid without its flip bits
     int  thtl_tileset_of(const thtl_map *m, uint32_t gid);       index into m->tilesets, -1 for none
     int  thtl_tile_source(const thtl_map *m, uint32_t gid, thtl_tile_src *src);
                         the tileset, local id and source rectangle in the tileset image; 1 found, 0 not
     int  thtl_find_layer(const thtl_map *m, const char *name);   index into m->layers or -1
     const thtl_object *thtl_find_object(const thtl_map *m, const char *name, int *layer);
                         the first object with that name in layer order (and its layer), or NULL
     const thtl_property *thtl_find_property(const thtl_property *props, int count, const char *name);
     const thtl_tile *thtl_tile_info(const thtl_map *m, uint32_t gid);   per-tile type and properties
     thtl_box *thtl_solid_boxes(const thtl_map *m, const thtl_layer *l, int *count);
                         see COLLISION; free the result with thtl_free_boxes(m, boxes)
     thtl_box *thtl_solid_boxes_if(const thtl_map *m, const thtl_layer *l,
                                   int (*solid)(void *user, const thtl_map *m, uint32_t gid), void *user, int *count);
                         the same, solid where solid(user, m, gid) says so (e.g. a tile's "solid"
                         property through thtl_tile_info); solid is asked about non-zero gids only

   FILES (external tilesets)
     thtl_settings.read_file(user, path, &size) returns the bytes of path, or NULL when it cannot;
     release_file(user, data, size), when given, is called once the reader is done with them.
     path is the tileset's "source" as written in the map, joined to settings.base_dir when that is
     set and the source is relative. When read_file is NULL, stdio reads the file (and the reader
     frees it), unless THTL_NO_STDIO is defined: then an external tileset is THTL_ERR_UNSUPPORTED.
     A file that cannot be read is THTL_ERR_FILE, with the path in the message.

   ZLIB (base64 data compressed with zlib)
     thtl_settings.inflate(user, src, src_size, dst, dst_size) gets the zlib stream (RFC 1950) and
     a destination of exactly width*height*4 bytes; it returns the bytes written, or -1 on damaged
     data. The reader checks the size and the stream's adler32 itself. When inflate is NULL and
     THTL_STB_ZLIB is defined before the implementation, stb_image's stbi_zlib_decode_buffer is
     used (the program links stb_image's implementation); otherwise zlib data is THTL_ERR_UNSUPPORTED.

   COLLISION
     thtl_solid_boxes covers the layer's solid (non-zero) cells with axis-aligned boxes, in map cells:
     runs of solid cells along each row, each run merged into the box above it when that box has
     exactly the same columns. The boxes cover exactly the solid cells, never overlap, and are never
     more than the row runs. Multiply by the map's tile size for pixels (add the layer's offset).
     thtl_solid_boxes_if asks a function which gids are solid; it asks twice per cell (one pass
     counts, one builds): a function that changes its answer gets wrong boxes, never a write
     outside them.
     The result (allocated with the map's allocator) is NULL with *count 0 when nothing is solid,
     NULL with *count -1 when the layer is not a tile layer or memory ran out.

   MEMORY
     Through thtl_settings.alloc/free (with alloc_user), or THTL_MALLOC/THTL_FREE (default
     malloc/free) when those are NULL. The map owns everything it points to, in a few large blocks;
     the JSON parser's token array lives only during thtl_load.

   LIMITS (thtl_settings fields; 0 takes the default in brackets)
     max_dimension      map and layer width and height, in tiles    [THTL_MAX_DIMENSION 16384]
     max_cells          tile layer cells, summed over layers          [THTL_MAX_CELLS 64M]
     max_layers         layers after flattening groups                [THTL_MAX_LAYERS 4096]
     max_objects        objects, summed over layers                   [THTL_MAX_OBJECTS 1M]
     max_depth          JSON nesting                                  [THTL_MAX_DEPTH 64]
     Inputs over 2 GiB are refused. Strings, points and properties are bounded by the input.

   EXAMPLE (compiled by tests/unit/test_th_tiled.cpp)

     thtl_map m;
     if (thtl_load_file(path, NULL, &m) == THTL_OK) {
         int walls = thtl_find_layer(&m, "walls");
         int n = 0;
         thtl_box *boxes = walls >= 0 ? thtl_solid_boxes(&m, &m.layers[walls], &n) : NULL;
         for (int i = 0; i < n; i++)
             add_wall(boxes[i].x * m.tile_width, boxes[i].y * m.tile_height,
                      boxes[i].w * m.tile_width, boxes[i].h * m.tile_height);
         thtl_free_boxes(&m, boxes);
         const thtl_object *spawn = thtl_find_object(&m, "spawn", NULL);
         if (spawn) place_player(spawn->x, spawn->y);
         thtl_free(&m);
     } else fprintf(stderr, "%s\n", m.error);
*/
#ifndef TH_TILED_H
#define TH_TILED_H

#include <stdint.h>
#include <stddef.h>

#ifndef THTL_MAX_DIMENSION
#define THTL_MAX_DIMENSION 16384u
#endif
#ifndef THTL_MAX_CELLS
#define THTL_MAX_CELLS (64u << 20)
#endif
#ifndef THTL_MAX_LAYERS
#define THTL_MAX_LAYERS 4096u
#endif
#ifndef THTL_MAX_OBJECTS
#define THTL_MAX_OBJECTS (1u << 20)
#endif
#ifndef THTL_MAX_DEPTH
#define THTL_MAX_DEPTH 64u
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum thtl_result {
    THTL_OK = 0,
    THTL_ERR_ARGS,           /* NULL data or out */
    THTL_ERR_JSON,           /* not well-formed JSON (truncated included) */
    THTL_ERR_FORMAT,         /* a field missing, of the wrong type or out of its range */
    THTL_ERR_LIMIT,          /* over one of the limits (LIMITS above) */
    THTL_ERR_ZLIB,           /* compressed data that does not decode to the layer's size */
    THTL_ERR_MEMORY,         /* the allocator returned NULL */
    THTL_ERR_UNSUPPORTED,    /* a map feature this reader refuses (orientation, gzip, zstd...) */
    THTL_ERR_FILE            /* an external tileset that could not be read */
} thtl_result;

/* the top bits of a global tile id */
#define THTL_FLIP_H    0x80000000u   /* flipped horizontally */
#define THTL_FLIP_V    0x40000000u   /* flipped vertically */
#define THTL_FLIP_D    0x20000000u   /* flipped along the diagonal (with H/V: rotations by 90 degrees) */
#define THTL_ROTATE_HEX 0x10000000u  /* hexagonal maps' 120-degree rotation (kept, never produced here) */
#define THTL_GID_MASK  0x0FFFFFFFu

enum { THTL_LAYER_TILE = 1, THTL_LAYER_OBJECT = 2, THTL_LAYER_IMAGE = 3 };   /* thtl_layer.type */

enum {   /* thtl_object.shape */
    THTL_SHAPE_RECT, THTL_SHAPE_POINT, THTL_SHAPE_ELLIPSE, THTL_SHAPE_POLYGON, THTL_SHAPE_POLYLINE,
    THTL_SHAPE_TEXT, THTL_SHAPE_TILE
};

enum {   /* thtl_property.type */
    THTL_PROP_STRING, THTL_PROP_INT, THTL_PROP_FLOAT, THTL_PROP_BOOL, THTL_PROP_COLOR, THTL_PROP_FILE,
    THTL_PROP_OBJECT, THTL_PROP_CLASS
};

typedef int (*thtl_inflate_fn)(void *user, const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size);

typedef struct thtl_settings {           /* zero means default, field by field */
    void *(*alloc)(void *user, size_t size);   /* alloc and free go together: both or neither */
    void  (*free)(void *user, void *ptr);
    void   *alloc_user;
    const void *(*read_file)(void *user, const char *path, size_t *size);   /* see FILES */
    void  (*release_file)(void *user, const void *data, size_t size);
    void   *file_user;
    const char *base_dir;                /* external tilesets' folder; NULL: as written (thtl_load_file: the map's) */
    thtl_inflate_fn inflate;             /* see ZLIB */
    void   *inflate_user;
    uint32_t max_dimension, max_cells, max_layers, max_objects, max_depth;
} thtl_settings;

typedef struct thtl_property {
    char    *name;
    int      type;               /* THTL_PROP_* */
    char    *str;                /* string and file: the value; color: as written; class: its propertytype; else "" */
    int64_t  ival;               /* int, bool (0/1), object (the id), color (0xAARRGGBB) */
    double   fval;               /* float; int too */
} thtl_property;

typedef struct thtl_point { float x, y; } thtl_point;

typedef struct thtl_object {
    int      id;
    char    *name;               /* "" when unnamed */
    char    *type;               /* "type" or Tiled 1.9's "class"; "" when neither */
    float    x, y, width, height;
    float    rotation;           /* degrees, clockwise */
    int      visible;
    int      shape;              /* THTL_SHAPE_* */
    uint32_t gid;                /* tile objects: the gid with its flip bits; else 0 */
    int      point_count;        /* polygon and polyline */
    thtl_point *points;          /* relative to (x, y) */
    char    *text;               /* text objects; else "" */
    char    *template_path;      /* objects made from a template (not read: the object's own fields only); else "" */
    int      property_count;
    thtl_property *properties;
} thtl_object;

typedef struct thtl_layer {
    int      id;
    char    *name;
    char    *type_class;         /* the layer's class (Tiled 1.9+); "" */
    char    *group;              /* the innermost group holding it; "" at the top */
    int      type;               /* THTL_LAYER_* */
    int      visible;            /* its own flag and every enclosing group's */
    float    opacity;            /* its own times every enclosing group's */
    float    offset_x, offset_y; /* pixels, groups' added in */
    float    parallax_x, parallax_y;   /* 1 unless set; groups' multiplied in */
    int      width, height;      /* tile layers: cells */
    int      start_x, start_y;   /* tile layers: the map cell of gids[0] (infinite maps; 0 otherwise) */
    uint32_t *gids;              /* tile layers: width*height, row by row, flip bits kept */
    int      object_count;
    thtl_object *objects;        /* object layers, file order */
    char    *image;              /* image layers: the path as written; else "" */
    int      property_count;
    thtl_property *properties;
} thtl_layer;

typedef struct thtl_frame { int tile_id, duration_ms; } thtl_frame;   /* tile_id: local, in the same tileset */

typedef struct thtl_tile {       /* a tileset's "tiles" entry: what Tiled stores per tile */
    int      id;                 /* local id */
    int      frame_count;        /* an animated tile's frames, in order; 0 when not animated */
    thtl_frame *frames;
    char    *type;               /* "type" or "class"; "" */
    char    *image;              /* image-collection tilesets: this tile's image; else "" */
    int      image_width, image_height;
    int      property_count;
    thtl_property *properties;
} thtl_tile;

typedef struct thtl_tileset {
    uint32_t firstgid;
    char    *name;
    char    *source;             /* external tilesets: the path as written in the map; else "" */
    char    *image;              /* path as written (relative to the tileset's file); "" for image collections */
    int      image_width, image_height;
    int      tile_width, tile_height;
    int      columns, tile_count, margin, spacing;
    int      tile_offset_x, tile_offset_y;
    int      tile_info_count;    /* the tiles entries, sorted by id */
    thtl_tile *tiles;
    int      property_count;
    thtl_property *properties;
} thtl_tileset;

typedef struct thtl_tile_src {
    int      tileset;            /* index into map.tilesets */
    int      local_id;
    int      x, y, w, h;         /* the tile in the tileset image, pixels (0 sized for image collections) */
    uint32_t flips;              /* the gid's THTL_FLIP_* bits */
} thtl_tile_src;

typedef struct thtl_box { int x, y, w, h; } thtl_box;   /* cells */

typedef struct thtl_map {
    int      width, height;      /* cells */
    int      tile_width, tile_height;   /* pixels */
    char    *orientation;        /* "orthogonal" */
    char    *render_order;       /* "right-down" ... ("" when absent) */
    char    *type_class;         /* the map's class (Tiled 1.9+); "" */
    char    *tiled_version;      /* as written; "" when absent */
    int      infinite;           /* 1: tile layers hold the chunks' bounds (start_x, start_y, width, height) */
    int      layer_count, tileset_count;
    thtl_layer   *layers;        /* flattened, bottom first */
    thtl_tileset *tilesets;      /* file order (firstgid ascending) */
    int      property_count;
    thtl_property *properties;
    char     error[400];         /* why thtl_load failed */
    /* allocator and storage, kept for thtl_free */
    void *(*alloc_fn)(void *user, size_t size);
    void  (*free_fn)(void *user, void *ptr);
    void   *alloc_user;
    void   *blocks;
} thtl_map;

int  thtl_load(const void *json, size_t size, const thtl_settings *settings, thtl_map *out);
int  thtl_load_file(const char *path, const thtl_settings *settings, thtl_map *out);
void thtl_free(thtl_map *m);
uint32_t thtl_gid_at(const thtl_layer *l, int x, int y);
uint32_t thtl_gid_id(uint32_t gid);
int  thtl_tileset_of(const thtl_map *m, uint32_t gid);
int  thtl_tile_source(const thtl_map *m, uint32_t gid, thtl_tile_src *src);
int  thtl_find_layer(const thtl_map *m, const char *name);
const thtl_object *thtl_find_object(const thtl_map *m, const char *name, int *layer);
const thtl_property *thtl_find_property(const thtl_property *props, int count, const char *name);
const thtl_tile *thtl_tile_info(const thtl_map *m, uint32_t gid);
thtl_box *thtl_solid_boxes(const thtl_map *m, const thtl_layer *l, int *count);
thtl_box *thtl_solid_boxes_if(const thtl_map *m, const thtl_layer *l, int (*solid)(void *user, const thtl_map *m, uint32_t gid),
                              void *user, int *count);
void thtl_free_boxes(const thtl_map *m, thtl_box *boxes);

#ifdef __cplusplus
}
#endif
#endif /* TH_TILED_H */

#ifdef TH_TILED_IMPLEMENTATION
#ifndef TH_TILED_IMPLEMENTED
#define TH_TILED_IMPLEMENTED
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

#ifndef THTL_MALLOC
#define THTL_MALLOC(n) malloc(n)
#define THTL_FREE(p) free(p)
#endif

#ifdef THTL_STB_ZLIB
#ifndef STBI_INCLUDE_STB_IMAGE_H   /* the declarations only, unless the program included them already */
#include <stb_image.h>
#endif
static int thtl__stb_inflate(void *user, const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size)
{
    (void)user;
    if (src_size > INT_MAX || dst_size > INT_MAX) return -1;
    return stbi_zlib_decode_buffer((char *)dst, (int)dst_size, (const char *)src, (int)src_size);
}
#endif

static void *thtl__default_alloc(void *user, size_t size) { (void)user; return THTL_MALLOC(size); }
static void thtl__default_free(void *user, void *ptr) { (void)user; THTL_FREE(ptr); }

/* ---------------------------------------------------------------- JSON tokens */

enum { THTL__OBJ = 1, THTL__ARR, THTL__STR, THTL__NUM, THTL__TRUE, THTL__FALSE, THTL__NULL };

typedef struct thtl__tok {
    uint8_t  type;
    uint32_t start, end;         /* strings: the bytes between the quotes; others: the value's bytes */
    uint32_t count;              /* arrays: elements; objects: members (a key token then a value) */
    uint32_t next;               /* the token after this one's subtree */
} thtl__tok;

typedef struct thtl__json {
    const char *s;
    uint32_t n, pos;
    thtl__tok *t;
    uint32_t count, cap;
    uint32_t max_depth;
    const char *what;            /* for the error message */
} thtl__json;

/* storage of the map: blocks chained through their first word */
typedef struct thtl__block { struct thtl__block *next; size_t size, used; } thtl__block;

typedef struct thtl__reader {
    thtl_map *m;
    thtl_settings set;
    const char *file;            /* the file being read, for messages: "" for the map in memory */
    char where[160];             /* what is being read, for messages */
    uint64_t cells, objects;
    int layer_cap;
} thtl__reader;

static void *thtl__raw_alloc(thtl__reader *r, size_t n) { return r->m->alloc_fn(r->m->alloc_user, n ? n : 1); }
static void thtl__raw_free(thtl__reader *r, void *p) { if (p) r->m->free_fn(r->m->alloc_user, p); }

static int thtl__fail(thtl__reader *r, int code, const char *what)
{
    /* each part bounded so the whole always fits (and the compiler can see it does) */
    if (r->file && r->file[0] && r->where[0]) snprintf(r->m->error, sizeof r->m->error, "%.80s: %.110s: %.200s", r->file, r->where, what);
    else if (r->file && r->file[0]) snprintf(r->m->error, sizeof r->m->error, "%.80s: %.200s", r->file, what);
    else if (r->where[0]) snprintf(r->m->error, sizeof r->m->error, "%.110s: %.200s", r->where, what);
    else snprintf(r->m->error, sizeof r->m->error, "%.200s", what);
    return code;
}

static int thtl__json_fail(thtl__reader *r, thtl__json *j, const char *what)
{
    uint32_t line = 1, col = 1, at = j->pos < j->n ? j->pos : j->n;
    for (uint32_t i = 0; i < at; i++) {
        if (j->s[i] == '\n') { line++; col = 1; } else col++;
    }
    char msg[200];
    if (j->pos >= j->n) snprintf(msg, sizeof msg, "JSON ends early (line %lu, column %lu): %s", (unsigned long)line, (unsigned long)col, what);
    else snprintf(msg, sizeof msg, "JSON error at line %lu, column %lu: %s", (unsigned long)line, (unsigned long)col, what);
    r->where[0] = 0;
    return thtl__fail(r, THTL_ERR_JSON, msg);
}

static void *thtl__alloc(thtl__reader *r, size_t n)
{
    thtl__block *b = (thtl__block *)r->m->blocks;
    n = (n + 7) & ~(size_t)7;
    if (!b || b->size - b->used < n) {
        size_t body = n > 65536 - sizeof(thtl__block) ? n : 65536 - sizeof(thtl__block);
        if (body > (size_t)-1 - 64) return 0;
        thtl__block *nb = (thtl__block *)thtl__raw_alloc(r, sizeof(thtl__block) + body);
        if (!nb) return 0;
        nb->size = body;
        nb->used = 0;
        if (b && n > 4096) {   /* a big one: behind the current block, which keeps filling */
            nb->next = b->next;
            b->next = nb;
            nb->used = n;
            return (uint8_t *)(nb + 1);
        }
        nb->next = b;
        r->m->blocks = nb;
        b = nb;
    }
    void *p = (uint8_t *)(b + 1) + b->used;
    b->used += n;
    return p;
}

static int thtl__grow_tokens(thtl__reader *r, thtl__json *j)
{
    uint32_t ncap = j->cap ? j->cap * 2 : 256;
    if (ncap < j->cap || (uint64_t)ncap * sizeof(thtl__tok) > ((uint64_t)1 << 40)) return 0;
    thtl__tok *nt = (thtl__tok *)thtl__raw_alloc(r, (size_t)ncap * sizeof(thtl__tok));
    if (!nt) return 0;
    if (j->t) { memcpy(nt, j->t, (size_t)j->count * sizeof(thtl__tok)); thtl__raw_free(r, j->t); }
    j->t = nt;
    j->cap = ncap;
    return 1;
}

static void thtl__ws(thtl__json *j)
{
    while (j->pos < j->n) {
        char c = j->s[j->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        j->pos++;
    }
}

static int thtl__hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int thtl__value(thtl__reader *r, thtl__json *j, uint32_t depth)
{
    thtl__ws(j);
    if (j->pos >= j->n) return thtl__json_fail(r, j, "a value is missing");
    if (depth > j->max_depth) return thtl__json_fail(r, j, "nested deeper than max_depth");
    if (j->count == j->cap && !thtl__grow_tokens(r, j)) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory (JSON tokens)");
    uint32_t me = j->count++;
    thtl__tok *t = &j->t[me];
    memset(t, 0, sizeof *t);
    t->start = j->pos;
    char c = j->s[j->pos];
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        t->type = c == '{' ? THTL__OBJ : THTL__ARR;
        j->pos++;
        thtl__ws(j);
        if (j->pos < j->n && j->s[j->pos] == close) j->pos++;
        else for (;;) {
            if (t->type == THTL__OBJ) {
                thtl__ws(j);
                if (j->pos >= j->n) return thtl__json_fail(r, j, "an object is not closed");
                if (j->s[j->pos] != '"') return thtl__json_fail(r, j, "an object member's name is not a string");
                int e = thtl__value(r, j, depth + 1);
                if (e) return e;
                thtl__ws(j);
                if (j->pos >= j->n) return thtl__json_fail(r, j, "an object is not closed");
                if (j->s[j->pos] != ':') return thtl__json_fail(r, j, "':' expected after a member's name");
                j->pos++;
            }
            int e = thtl__value(r, j, depth + 1);
            if (e) return e;
            t = &j->t[me];   /* the array may have moved */
            if (t->count == UINT32_MAX) return thtl__json_fail(r, j, "too many elements");
            t->count++;
            thtl__ws(j);
            if (j->pos >= j->n) return thtl__json_fail(r, j, t->type == THTL__OBJ ? "an object is not closed" : "an array is not closed");
            if (j->s[j->pos] == ',') { j->pos++; continue; }
            if (j->s[j->pos] == close) { j->pos++; break; }
            return thtl__json_fail(r, j, t->type == THTL__OBJ ? "',' or '}' expected" : "',' or ']' expected");
        }
        t = &j->t[me];
        t->end = j->pos;
    } else if (c == '"') {
        t->type = THTL__STR;
        j->pos++;
        t->start = j->pos;
        for (;;) {
            if (j->pos >= j->n) return thtl__json_fail(r, j, "a string is not closed");
            unsigned char ch = (unsigned char)j->s[j->pos];
            if (ch == '"') break;
            if (ch < 0x20) return thtl__json_fail(r, j, "a control character inside a string");
            if (ch == '\\') {
                j->pos++;
                if (j->pos >= j->n) return thtl__json_fail(r, j, "a string is not closed");
                char e = j->s[j->pos];
                if (e == 'u') {
                    if (j->n - j->pos < 5) { j->pos = j->n; return thtl__json_fail(r, j, "a \\u escape is cut short"); }
                    for (int k = 1; k <= 4; k++)
                        if (thtl__hex(j->s[j->pos + k]) < 0) return thtl__json_fail(r, j, "a \\u escape with a non-hex digit");
                    j->pos += 4;
                } else if (!strchr("\"\\/bfnrt", e) || e == 0) return thtl__json_fail(r, j, "an unknown escape in a string");
            }
            j->pos++;
        }
        t->end = j->pos;
        j->pos++;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        t->type = THTL__NUM;
        uint32_t p = j->pos;
        if (j->s[p] == '-') p++;
        if (p >= j->n || j->s[p] < '0' || j->s[p] > '9') { j->pos = p; return thtl__json_fail(r, j, "a number with no digits"); }
        if (j->s[p] == '0') p++;
        else while (p < j->n && j->s[p] >= '0' && j->s[p] <= '9') p++;
        if (p < j->n && j->s[p] == '.') {
            p++;
            if (p >= j->n || j->s[p] < '0' || j->s[p] > '9') { j->pos = p; return thtl__json_fail(r, j, "a number with no digits after '.'"); }
            while (p < j->n && j->s[p] >= '0' && j->s[p] <= '9') p++;
        }
        if (p < j->n && (j->s[p] == 'e' || j->s[p] == 'E')) {
            p++;
            if (p < j->n && (j->s[p] == '+' || j->s[p] == '-')) p++;
            if (p >= j->n || j->s[p] < '0' || j->s[p] > '9') { j->pos = p; return thtl__json_fail(r, j, "a number with no exponent digits"); }
            while (p < j->n && j->s[p] >= '0' && j->s[p] <= '9') p++;
        }
        j->pos = p;
        t->end = p;
    } else {
        static const char *words[3] = { "true", "false", "null" };
        int k = c == 't' ? 0 : c == 'f' ? 1 : c == 'n' ? 2 : -1;
        size_t len = k >= 0 ? strlen(words[k]) : 0;
        if (k < 0) return thtl__json_fail(r, j, "not a JSON value");
        if (j->n - j->pos < len) { j->pos = j->n; return thtl__json_fail(r, j, "a literal is cut short"); }
        if (memcmp(j->s + j->pos, words[k], len) != 0) return thtl__json_fail(r, j, "not a JSON value");
        t->type = (uint8_t)(k == 0 ? THTL__TRUE : k == 1 ? THTL__FALSE : THTL__NULL);
        j->pos += (uint32_t)len;
        t->end = j->pos;
    }
    j->t[me].next = j->count;
    return THTL_OK;
}

static int thtl__parse_json(thtl__reader *r, thtl__json *j, const void *data, size_t size)
{
    memset(j, 0, sizeof *j);
    if (size > 0x7FFFFFFFu) return thtl__fail(r, THTL_ERR_LIMIT, "over 2 GiB of JSON");
    j->s = (const char *)data;
    j->n = (uint32_t)size;
    j->max_depth = r->set.max_depth;
    /* the token array sized once: every value but the first follows a ',', ':', '[' or '{' (strings holding
       those only make the count high; each token takes at least two bytes of input but the last) */
    uint64_t guess = 1;
    for (size_t i = 0; i < size; i++) {
        char c = j->s[i];
        guess += c == ',' || c == ':' || c == '[' || c == '{';
    }
    if (guess > size / 2 + 2) guess = size / 2 + 2;
    j->cap = (uint32_t)guess;
    j->t = (thtl__tok *)thtl__raw_alloc(r, (size_t)guess * sizeof(thtl__tok));
    if (!j->t) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory (JSON tokens)");
    /* a UTF-8 byte order mark is allowed before the value */
    if (j->n >= 3 && (uint8_t)j->s[0] == 0xEF && (uint8_t)j->s[1] == 0xBB && (uint8_t)j->s[2] == 0xBF) j->pos = 3;
    int e = thtl__value(r, j, 0);
    if (e) return e;
    thtl__ws(j);
    if (j->pos != j->n) return thtl__json_fail(r, j, "more after the JSON value");
    if (j->t[0].type != THTL__OBJ) { r->where[0] = 0; return thtl__fail(r, THTL_ERR_FORMAT, "the JSON is not an object"); }
    return THTL_OK;
}

/* a member of object tok, or -1 (names compared as written: Tiled writes them without escapes) */
static int thtl__get(const thtl__json *j, int tok, const char *key)
{
    if (tok < 0 || j->t[tok].type != THTL__OBJ) return -1;
    size_t klen = strlen(key);
    uint32_t k = (uint32_t)tok + 1;
    for (uint32_t i = 0; i < j->t[tok].count; i++) {
        const thtl__tok *kt = &j->t[k];
        uint32_t v = kt->next;
        if (kt->end - kt->start == klen && memcmp(j->s + kt->start, key, klen) == 0) return (int)v;
        k = j->t[v].next;
    }
    return -1;
}

static const char *thtl__type_name(int type)
{
    switch (type) {
    case THTL__OBJ: return "an object";
    case THTL__ARR: return "an array";
    case THTL__STR: return "a string";
    case THTL__NUM: return "a number";
    case THTL__TRUE: case THTL__FALSE: return "a bool";
    default: return "null";
    }
}

/* the number a NUM token spells: up to 19 significant digits exact, then scaled by powers of ten */
static double thtl__number(const thtl__json *j, int tok)
{
    const char *p = j->s + j->t[tok].start, *e = j->s + j->t[tok].end;
    int neg = 0, exp10 = 0, digits = 0;
    uint64_t mant = 0;
    if (p < e && *p == '-') { neg = 1; p++; }
    for (; p < e && *p >= '0' && *p <= '9'; p++) {
        if (digits < 19) { mant = mant * 10 + (uint64_t)(*p - '0'); if (mant) digits++; }
        else if (exp10 < 100000) exp10++;
    }
    if (p < e && *p == '.') {
        for (p++; p < e && *p >= '0' && *p <= '9'; p++)
            if (digits < 19) { mant = mant * 10 + (uint64_t)(*p - '0'); if (mant) digits++; exp10--; }
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        int eneg = 0, ev = 0;
        p++;
        if (p < e && (*p == '+' || *p == '-')) { eneg = *p == '-'; p++; }
        for (; p < e && *p >= '0' && *p <= '9'; p++) if (ev < 100000) ev = ev * 10 + (*p - '0');
        exp10 += eneg ? -ev : ev;
    }
    double v = (double)mant;
    if (mant == 0) exp10 = 0;
    if (exp10 > 330) v = 1e308 * 10.0;
    else if (exp10 < -400) v = 0;
    else {
        while (exp10 >= 22) { v *= 1e22; exp10 -= 22; }
        while (exp10 <= -22) { v /= 1e22; exp10 += 22; }
        static const double p10[22] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
                                        1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21 };
        v = exp10 >= 0 ? v * p10[exp10] : v / p10[-exp10];
    }
    return neg ? -v : v;
}

static int thtl__utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 63)); return 2; }
    if (cp < 0x10000) { o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 63)); o[2] = (char)(0x80 | (cp & 63)); return 3; }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 63)); o[2] = (char)(0x80 | ((cp >> 6) & 63));
    o[3] = (char)(0x80 | (cp & 63));
    return 4;
}

/* a STR token, unescaped, NUL-terminated, in the map's storage (escapes never grow the text) */
static char *thtl__string(thtl__reader *r, const thtl__json *j, int tok)
{
    const char *p = j->s + j->t[tok].start, *e = j->s + j->t[tok].end;
    char *out = (char *)thtl__alloc(r, (size_t)(e - p) + 1), *o = out;
    if (!out) return 0;
    while (p < e) {
        if (*p != '\\') { *o++ = *p++; continue; }
        p++;   /* the tokenizer checked every escape is whole */
        char c = *p++;
        switch (c) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            uint32_t cp = (uint32_t)(thtl__hex(p[0]) << 12 | thtl__hex(p[1]) << 8 | thtl__hex(p[2]) << 4 | thtl__hex(p[3]));
            p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && e - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                int h0 = thtl__hex(p[2]), h1 = thtl__hex(p[3]), h2 = thtl__hex(p[4]), h3 = thtl__hex(p[5]);
                uint32_t lo = (uint32_t)(h0 << 12 | h1 << 8 | h2 << 4 | h3);
                if (h0 >= 0 && h1 >= 0 && h2 >= 0 && h3 >= 0 && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                }
            }
            if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;   /* a lone surrogate */
            if (cp == 0) cp = 0xFFFD;                       /* keeps the text one C string */
            o += thtl__utf8(o, cp);
            break;
        }
        default: *o++ = c; break;   /* " \ / */
        }
    }
    *o = 0;
    return out;
}

static char *thtl__empty(thtl__reader *r) { char *s = (char *)thtl__alloc(r, 1); if (s) *s = 0; return s; }

/* ---------------------------------------------------------------- typed fields, with messages */

static int thtl__wrong(thtl__reader *r, const thtl__json *j, int tok, const char *key, const char *want)
{
    char msg[160];
    snprintf(msg, sizeof msg, "\"%s\" is %s, not %s", key, thtl__type_name(j->t[tok].type), want);
    return thtl__fail(r, THTL_ERR_FORMAT, msg);
}

static int thtl__missing(thtl__reader *r, const char *key)
{
    char msg[120];
    snprintf(msg, sizeof msg, "\"%s\" is missing", key);
    return thtl__fail(r, THTL_ERR_FORMAT, msg);
}

/* an integer member in [lo, hi]; absent: def, or an error when required */
static int thtl__int(thtl__reader *r, const thtl__json *j, int obj, const char *key, int required, int64_t lo, int64_t hi,
                     int64_t def, int64_t *out)
{
    int v = thtl__get(j, obj, key);
    *out = def;
    if (v < 0) return required ? thtl__missing(r, key) : THTL_OK;
    if (j->t[v].type != THTL__NUM) return thtl__wrong(r, j, v, key, "an integer");
    double d = thtl__number(j, v);
    if (d != d || d < (double)lo || d > (double)hi || d != (double)(int64_t)d) {
        char msg[200];
        snprintf(msg, sizeof msg, "\"%s\" is %.*s, not an integer from %lld to %lld", key, (int)(j->t[v].end - j->t[v].start > 24 ? 24 : j->t[v].end - j->t[v].start),
                 j->s + j->t[v].start, (long long)lo, (long long)hi);
        return thtl__fail(r, THTL_ERR_FORMAT, msg);
    }
    *out = (int64_t)d;
    return THTL_OK;
}

static int thtl__int32(thtl__reader *r, const thtl__json *j, int obj, const char *key, int required, int64_t lo, int64_t hi,
                       int def, int *out)
{
    int64_t v;
    int e = thtl__int(r, j, obj, key, required, lo, hi, def, &v);
    *out = (int)v;
    return e;
}

static int thtl__float(thtl__reader *r, const thtl__json *j, int obj, const char *key, float def, float *out)
{
    int v = thtl__get(j, obj, key);
    *out = def;
    if (v < 0) return THTL_OK;
    if (j->t[v].type != THTL__NUM) return thtl__wrong(r, j, v, key, "a number");
    double d = thtl__number(j, v);
    if (!(d >= -1e30 && d <= 1e30)) {
        char msg[120];
        snprintf(msg, sizeof msg, "\"%s\" is out of range", key);
        return thtl__fail(r, THTL_ERR_FORMAT, msg);
    }
    *out = (float)d;
    return THTL_OK;
}

static int thtl__bool(thtl__reader *r, const thtl__json *j, int obj, const char *key, int def, int *out)
{
    int v = thtl__get(j, obj, key);
    *out = def;
    if (v < 0) return THTL_OK;
    if (j->t[v].type != THTL__TRUE && j->t[v].type != THTL__FALSE) return thtl__wrong(r, j, v, key, "a bool");
    *out = j->t[v].type == THTL__TRUE;
    return THTL_OK;
}

/* a string member copied out ("" when absent and not required) */
static int thtl__str(thtl__reader *r, const thtl__json *j, int obj, const char *key, int required, char **out)
{
    int v = thtl__get(j, obj, key);
    *out = 0;
    if (v < 0) {
        if (required) return thtl__missing(r, key);
        *out = thtl__empty(r);
    } else {
        if (j->t[v].type != THTL__STR) return thtl__wrong(r, j, v, key, "a string");
        *out = thtl__string(r, j, v);
    }
    return *out ? THTL_OK : thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
}

/* a string member compared in place (no copy): 1 equal, 0 not or absent */
static int thtl__str_is(const thtl__json *j, int tok, const char *s)
{
    size_t n = strlen(s);
    return tok >= 0 && j->t[tok].type == THTL__STR && j->t[tok].end - j->t[tok].start == n && memcmp(j->s + j->t[tok].start, s, n) == 0;
}

/* "type", or "class" when "type" is absent or empty */
static int thtl__class(thtl__reader *r, const thtl__json *j, int obj, char **out)
{
    int e = thtl__str(r, j, obj, "type", 0, out);
    if (e || (*out)[0]) return e;
    return thtl__str(r, j, obj, "class", 0, out);
}

/* ---------------------------------------------------------------- properties */

static int thtl__color(const char *s, int64_t *out)
{
    size_t n = strlen(s);
    uint32_t v = 0;
    if (n == 0) { *out = 0; return 1; }
    if (s[0] != '#' || (n != 7 && n != 9)) return 0;
    for (size_t i = 1; i < n; i++) {
        int h = thtl__hex(s[i]);
        if (h < 0) return 0;
        v = v << 4 | (uint32_t)h;
    }
    if (n == 7) v |= 0xFF000000u;
    *out = (int64_t)v;
    return 1;
}

static int thtl__properties(thtl__reader *r, const thtl__json *j, int obj, thtl_property **out, int *count)
{
    static const char *types[] = { "string", "int", "float", "bool", "color", "file", "object", "class" };
    int a = thtl__get(j, obj, "properties");
    *out = 0;
    *count = 0;
    if (a < 0) return THTL_OK;
    if (j->t[a].type != THTL__ARR) return thtl__wrong(r, j, a, "properties", "an array");
    uint32_t n = j->t[a].count;
    if (n == 0) return THTL_OK;
    thtl_property *props = (thtl_property *)thtl__alloc(r, (size_t)n * sizeof(thtl_property));
    if (!props) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
    memset(props, 0, (size_t)n * sizeof(thtl_property));
    uint32_t k = (uint32_t)a + 1;
    char msg[200];
    for (uint32_t i = 0; i < n; i++, k = j->t[k].next) {
        thtl_property *p = &props[i];
        int po = (int)k;
        if (j->t[po].type != THTL__OBJ) return thtl__wrong(r, j, po, "properties[]", "an object");
        int e = thtl__str(r, j, po, "name", 1, &p->name);
        if (e) return e;
        int tt = thtl__get(j, po, "type");
        p->type = THTL_PROP_STRING;
        if (tt >= 0) {
            int found = -1;
            for (int q = 0; q < (int)(sizeof types / sizeof types[0]); q++) if (thtl__str_is(j, tt, types[q])) found = q;
            if (found < 0) {
                if (j->t[tt].type != THTL__STR) return thtl__wrong(r, j, tt, "type", "a string");
                snprintf(msg, sizeof msg, "property '%.60s' has an unknown type", p->name);
                return thtl__fail(r, THTL_ERR_FORMAT, msg);
            }
            p->type = found;
        }
        int v = thtl__get(j, po, "value");
        if (v < 0) {
            snprintf(msg, sizeof msg, "property '%.60s' has no value", p->name);
            return thtl__fail(r, THTL_ERR_FORMAT, msg);
        }
        int vt = j->t[v].type;
        const char *want = 0;
        switch (p->type) {
        case THTL_PROP_STRING: case THTL_PROP_FILE: case THTL_PROP_COLOR:
            if (vt != THTL__STR) { want = "a string"; break; }
            if (!(p->str = thtl__string(r, j, v))) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
            if (p->type == THTL_PROP_COLOR && !thtl__color(p->str, &p->ival)) {
                snprintf(msg, sizeof msg, "property '%.60s': color '%.20s' is not #RRGGBB or #AARRGGBB", p->name, p->str);
                return thtl__fail(r, THTL_ERR_FORMAT, msg);
            }
            break;
        case THTL_PROP_INT: case THTL_PROP_OBJECT: {
            if (vt != THTL__NUM) { want = "an integer"; break; }
            double d = thtl__number(j, v);
            if (!(d >= -9.2e18 && d <= 9.2e18) || d != (double)(int64_t)d) { want = "an integer"; break; }
            p->ival = (int64_t)d;
            p->fval = d;
            break;
        }
        case THTL_PROP_FLOAT:
            if (vt != THTL__NUM) { want = "a number"; break; }
            p->fval = thtl__number(j, v);
            break;
        case THTL_PROP_BOOL:
            if (vt != THTL__TRUE && vt != THTL__FALSE) { want = "a bool"; break; }
            p->ival = vt == THTL__TRUE;
            break;
        default:   /* class: the members are not read */
            if (vt != THTL__OBJ) { want = "an object"; break; }
            if ((e = thtl__str(r, j, po, "propertytype", 0, &p->str))) return e;
            break;
        }
        if (want) {
            snprintf(msg, sizeof msg, "property '%.60s' of type %s: its value is %s, not %s", p->name, types[p->type],
                     thtl__type_name(vt), want);
            return thtl__fail(r, THTL_ERR_FORMAT, msg);
        }
        if (!p->str && !(p->str = thtl__empty(r))) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
    }
    *out = props;
    *count = (int)n;
    return THTL_OK;
}

/* ---------------------------------------------------------------- tilesets */

static int thtl__tile_cmp(const void *a, const void *b)
{
    int x = ((const thtl_tile *)a)->id, y = ((const thtl_tile *)b)->id;
    return x < y ? -1 : x > y;
}

/* the fields of a tileset object (embedded in the map, or the root of a .tsj) */
static int thtl__tileset_body(thtl__reader *r, const thtl__json *j, int o, thtl_tileset *ts)
{
    int e;
    if ((e = thtl__str(r, j, o, "name", 0, &ts->name))) return e;
    if ((e = thtl__str(r, j, o, "image", 0, &ts->image))) return e;
    if ((e = thtl__int32(r, j, o, "imagewidth", 0, 0, INT_MAX, 0, &ts->image_width))) return e;
    if ((e = thtl__int32(r, j, o, "imageheight", 0, 0, INT_MAX, 0, &ts->image_height))) return e;
    if ((e = thtl__int32(r, j, o, "tilewidth", 1, 1, 1 << 20, 0, &ts->tile_width))) return e;
    if ((e = thtl__int32(r, j, o, "tileheight", 1, 1, 1 << 20, 0, &ts->tile_height))) return e;
    if ((e = thtl__int32(r, j, o, "columns", 0, 0, 1 << 24, 0, &ts->columns))) return e;
    if ((e = thtl__int32(r, j, o, "tilecount", 1, 0, 1 << 26, 0, &ts->tile_count))) return e;
    if ((e = thtl__int32(r, j, o, "margin", 0, 0, 1 << 20, 0, &ts->margin))) return e;
    if ((e = thtl__int32(r, j, o, "spacing", 0, 0, 1 << 20, 0, &ts->spacing))) return e;
    int off = thtl__get(j, o, "tileoffset");
    if (off >= 0) {
        if (j->t[off].type != THTL__OBJ) return thtl__wrong(r, j, off, "tileoffset", "an object");
        if ((e = thtl__int32(r, j, off, "x", 0, -(1 << 20), 1 << 20, 0, &ts->tile_offset_x))) return e;
        if ((e = thtl__int32(r, j, off, "y", 0, -(1 << 20), 1 << 20, 0, &ts->tile_offset_y))) return e;
    }
    if (ts->image[0] && ts->columns == 0) return thtl__fail(r, THTL_ERR_FORMAT, "a tileset with an image has 0 columns");
    if ((uint64_t)ts->firstgid + (uint64_t)ts->tile_count > (uint64_t)THTL_GID_MASK + 1)
        return thtl__fail(r, THTL_ERR_FORMAT, "firstgid + tilecount is past the largest gid");
    if ((e = thtl__properties(r, j, o, &ts->properties, &ts->property_count))) return e;
    int a = thtl__get(j, o, "tiles");
    if (a >= 0) {
        if (j->t[a].type != THTL__ARR) return thtl__wrong(r, j, a, "tiles", "an array");
        uint32_t n = j->t[a].count;
        if (n > 0) {
            ts->tiles = (thtl_tile *)thtl__alloc(r, (size_t)n * sizeof(thtl_tile));
            if (!ts->tiles) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
            memset(ts->tiles, 0, (size_t)n * sizeof(thtl_tile));
        }
        uint32_t k = (uint32_t)a + 1;
        for (uint32_t i = 0; i < n; i++, k = j->t[k].next) {
            thtl_tile *t = &ts->tiles[i];
            int to = (int)k;
            if (j->t[to].type != THTL__OBJ) return thtl__wrong(r, j, to, "tiles[]", "an object");
            int id_limit = ts->columns > 0 ? ts->tile_count - 1 : (int)THTL_GID_MASK - (int)ts->firstgid;
            if ((e = thtl__int32(r, j, to, "id", 1, 0, id_limit < 0 ? 0 : id_limit, 0, &t->id))) return e;
            if ((e = thtl__class(r, j, to, &t->type))) return e;
            if ((e = thtl__str(r, j, to, "image", 0, &t->image))) return e;
            if ((e = thtl__int32(r, j, to, "imagewidth", 0, 0, INT_MAX, 0, &t->image_width))) return e;
            if ((e = thtl__int32(r, j, to, "imageheight", 0, 0, INT_MAX, 0, &t->image_height))) return e;
            if ((e = thtl__properties(r, j, to, &t->properties, &t->property_count))) return e;
            int an = thtl__get(j, to, "animation");
            if (an >= 0) {
                if (j->t[an].type != THTL__ARR) return thtl__wrong(r, j, an, "animation", "an array");
                uint32_t fn = j->t[an].count, fk = (uint32_t)an + 1;
                if (fn && !(t->frames = (thtl_frame *)thtl__alloc(r, (size_t)fn * sizeof(thtl_frame))))
                    return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
                for (uint32_t f = 0; f < fn; f++, fk = j->t[fk].next) {
                    if (j->t[fk].type != THTL__OBJ) return thtl__wrong(r, j, (int)fk, "animation[]", "an object");
                    if ((e = thtl__int32(r, j, (int)fk, "tileid", 1, 0, id_limit < 0 ? 0 : id_limit, 0, &t->frames[f].tile_id)) ||
                        (e = thtl__int32(r, j, (int)fk, "duration", 1, 0, INT_MAX, 0, &t->frames[f].duration_ms)))
                        return e;
                }
                t->frame_count = (int)fn;
            }
        }
        ts->tile_info_count = (int)n;
        if (n > 1) qsort(ts->tiles, n, sizeof(thtl_tile), thtl__tile_cmp);
        for (uint32_t i = 1; i < n; i++)
            if (ts->tiles[i].id == ts->tiles[i - 1].id) return thtl__fail(r, THTL_ERR_FORMAT, "two \"tiles\" entries with the same id");
    }
    return THTL_OK;
}

#ifndef THTL_NO_STDIO
static const void *thtl__stdio_read(void *user, const char *path, size_t *size)
{
    thtl__reader *r = (thtl__reader *)user;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    void *buf = 0;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n >= 0 && (unsigned long)n <= 0x7FFFFFFFul && fseek(f, 0, SEEK_SET) == 0) {
        buf = thtl__raw_alloc(r, (size_t)n);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { thtl__raw_free(r, buf); buf = 0; }
    }
    fclose(f);
    if (buf) *size = (size_t)n;
    return buf;
}
static void thtl__stdio_release(void *user, const void *data, size_t size)
{
    (void)size;
    thtl__raw_free((thtl__reader *)user, (void *)(uintptr_t)data);
}
#endif

static void thtl__json_free(thtl__reader *r, thtl__json *j) { thtl__raw_free(r, j->t); j->t = 0; }

static int thtl__tileset(thtl__reader *r, const thtl__json *j, int o, thtl_tileset *ts, int index)
{
    char msg[360];
    int e;
    snprintf(r->where, sizeof r->where, "tilesets[%d]", index);
    if (j->t[o].type != THTL__OBJ) return thtl__wrong(r, j, o, "tilesets[]", "an object");
    int64_t first;
    if ((e = thtl__int(r, j, o, "firstgid", 1, 1, THTL_GID_MASK, 0, &first))) return e;
    ts->firstgid = (uint32_t)first;
    if ((e = thtl__str(r, j, o, "source", 0, &ts->source))) return e;
    if (!ts->source[0]) {
        e = thtl__tileset_body(r, j, o, ts);
        if (!e && ts->name[0]) snprintf(r->where, sizeof r->where, "tileset '%.100s'", ts->name);
        return e;
    }
    /* external: the file through the hook */
    char path[1024];
    const char *base = r->set.base_dir;
    int absolute = ts->source[0] == '/' || ts->source[0] == '\\' || (ts->source[0] && ts->source[1] == ':');
    if (base && base[0] && !absolute) {
        size_t bl = strlen(base);
        int sep = base[bl - 1] == '/' || base[bl - 1] == '\\';
        if ((size_t)snprintf(path, sizeof path, "%s%s%s", base, sep ? "" : "/", ts->source) >= sizeof path)
            return thtl__fail(r, THTL_ERR_FILE, "external tileset's path is too long");
    } else if ((size_t)snprintf(path, sizeof path, "%s", ts->source) >= sizeof path)
        return thtl__fail(r, THTL_ERR_FILE, "external tileset's path is too long");
    const void *(*read)(void *, const char *, size_t *) = r->set.read_file;
    void (*release)(void *, const void *, size_t) = r->set.release_file;
    void *user = r->set.file_user;
    if (!read) {
#ifndef THTL_NO_STDIO
        read = thtl__stdio_read;
        release = thtl__stdio_release;
        user = r;
#else
        snprintf(msg, sizeof msg, "external tileset '%.200s' and no read_file hook (THTL_NO_STDIO)", ts->source);
        return thtl__fail(r, THTL_ERR_UNSUPPORTED, msg);
#endif
    }
    size_t size = 0;
    const void *data = read(user, path, &size);
    if (!data) {
        snprintf(msg, sizeof msg, "external tileset '%.300s' could not be read", path);
        return thtl__fail(r, THTL_ERR_FILE, msg);
    }
    thtl__json tj;
    const char *keep_file = r->file;
    r->file = ts->source;
    r->where[0] = 0;
    e = thtl__parse_json(r, &tj, data, size);
    if (!e) {
        int type = thtl__get(&tj, 0, "type");
        if (type >= 0 && !thtl__str_is(&tj, type, "tileset")) e = thtl__fail(r, THTL_ERR_FORMAT, "\"type\" is not \"tileset\"");
        else e = thtl__tileset_body(r, &tj, 0, ts);
    }
    thtl__json_free(r, &tj);
    if (release) release(user, data, size);
    if (!e) r->file = keep_file;
    return e;
}

/* ---------------------------------------------------------------- layers */

static int thtl__base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* base64 text (whitespace skipped, '=' padding optional) into out; the byte count, or -1 on a bad character */
static int64_t thtl__base64(const char *s, size_t n, uint8_t *out, size_t cap)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0, i = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') break;
        int v = thtl__base64_value(c);
        if (v < 0) return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o < cap) out[o] = (uint8_t)(acc >> bits);
            o++;
        }
    }
    for (; i < n; i++) if (s[i] != '=' && s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\t') return -1;
    return (int64_t)o;
}

/* the cells of one "data" token d (an array, or base64 with the encoding and compression layer o names) into out */
static int thtl__cells(thtl__reader *r, const thtl__json *j, int o, int d, uint32_t *out, size_t cells)
{
    char msg[200];
    if (j->t[d].type == THTL__ARR) {
        if (j->t[d].count != cells) {
            snprintf(msg, sizeof msg, "\"data\" has %lu entries, width x height is %lu", (unsigned long)j->t[d].count, (unsigned long)cells);
            return thtl__fail(r, THTL_ERR_FORMAT, msg);
        }
        uint32_t k = (uint32_t)d + 1;
        for (size_t i = 0; i < cells; i++, k = j->t[k].next) {
            double v = j->t[k].type == THTL__NUM ? thtl__number(j, (int)k) : -1;
            if (!(v >= 0 && v <= 4294967295.0) || v != (double)(uint32_t)v) {
                snprintf(msg, sizeof msg, "\"data\"[%lu] is not a gid (an integer from 0 to 4294967295)", (unsigned long)i);
                return thtl__fail(r, THTL_ERR_FORMAT, msg);
            }
            out[i] = (uint32_t)v;
        }
        return THTL_OK;
    }
    if (j->t[d].type != THTL__STR) return thtl__wrong(r, j, d, "data", "an array or a base64 string");
    int enc = thtl__get(j, o, "encoding");
    if (!thtl__str_is(j, enc, "base64")) return thtl__fail(r, THTL_ERR_FORMAT, "\"data\" is a string and \"encoding\" is not \"base64\"");
    int comp = thtl__get(j, o, "compression");
    int zlib = 0;
    if (comp >= 0 && !thtl__str_is(j, comp, "")) {
        if (thtl__str_is(j, comp, "zlib")) zlib = 1;
        else if (thtl__str_is(j, comp, "gzip")) return thtl__fail(r, THTL_ERR_UNSUPPORTED, "gzip-compressed data is not supported (save with zlib or no compression)");
        else if (thtl__str_is(j, comp, "zstd")) return thtl__fail(r, THTL_ERR_UNSUPPORTED, "zstd-compressed data is not supported (save with zlib or no compression)");
        else return thtl__fail(r, THTL_ERR_FORMAT, "\"compression\" is not \"\", \"zlib\", \"gzip\" or \"zstd\"");
    }
    const char *text = j->s + j->t[d].start;
    size_t tn = j->t[d].end - j->t[d].start;
    if (!zlib) {
        int64_t got = thtl__base64(text, tn, (uint8_t *)out, cells * 4);
        if (got < 0) return thtl__fail(r, THTL_ERR_FORMAT, "\"data\" is not base64");
        if ((uint64_t)got != (uint64_t)cells * 4) {
            snprintf(msg, sizeof msg, "\"data\" decodes to %llu bytes, width x height x 4 is %llu", (unsigned long long)got,
                     (unsigned long long)cells * 4);
            return thtl__fail(r, THTL_ERR_FORMAT, msg);
        }
    } else {
        if (!r->set.inflate) return thtl__fail(r, THTL_ERR_UNSUPPORTED, "zlib-compressed data, and no inflate function (settings.inflate or THTL_STB_ZLIB)");
        size_t zcap = tn / 4 * 3 + 3;
        uint8_t *z = (uint8_t *)thtl__raw_alloc(r, zcap);
        if (!z) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
        int64_t zn = thtl__base64(text, tn, z, zcap);
        int e = THTL_OK;
        if (zn < 0) e = thtl__fail(r, THTL_ERR_FORMAT, "\"data\" is not base64");
        else if (zn < 6) e = thtl__fail(r, THTL_ERR_ZLIB, "zlib data shorter than its header and adler32");
        else {
            int got = r->set.inflate(r->set.inflate_user, z, (size_t)zn, (uint8_t *)out, cells * 4);
            if (got < 0) e = thtl__fail(r, THTL_ERR_ZLIB, "damaged zlib data");
            else if ((size_t)got != cells * 4) {
                snprintf(msg, sizeof msg, "zlib data decodes to %d bytes, width x height x 4 is %lu", got, (unsigned long)(cells * 4));
                e = thtl__fail(r, THTL_ERR_ZLIB, msg);
            } else {
                uint32_t a = 1, b = 0;
                const uint8_t *p = (const uint8_t *)out, *t = z + zn - 4;
                for (size_t i = 0; i < cells * 4; i++) {
                    a += p[i]; if (a >= 65521) a -= 65521;
                    b += a; if (b >= 65521) b -= 65521;
                }
                if (((uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3]) != (b << 16 | a))
                    e = thtl__fail(r, THTL_ERR_ZLIB, "zlib data's adler32 does not match");
            }
        }
        thtl__raw_free(r, z);
        if (e) return e;
    }
    /* little-endian in the file: turned around on a big-endian machine */
    const uint16_t one = 1;
    if (*(const uint8_t *)&one == 0)
        for (size_t i = 0; i < cells; i++) {
            uint32_t v = out[i];
            out[i] = v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
        }
    return THTL_OK;
}

static int thtl__tile_data(thtl__reader *r, const thtl__json *j, int o, thtl_layer *l)
{
    char msg[200];
    size_t cells = (size_t)l->width * (size_t)l->height;
    l->gids = (uint32_t *)thtl__alloc(r, cells * 4);
    if (!l->gids) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
    int d = thtl__get(j, o, "data");
    if (d >= 0) return thtl__cells(r, j, o, d, l->gids, cells);
    /* infinite maps: chunks placed in the layer's bounds (startx, starty, width, height) */
    int a = thtl__get(j, o, "chunks");
    if (a < 0) return thtl__missing(r, "data");
    if (j->t[a].type != THTL__ARR) return thtl__wrong(r, j, a, "chunks", "an array");
    memset(l->gids, 0, cells * 4);
    char keep[sizeof r->where];
    memcpy(keep, r->where, sizeof keep);
    uint32_t k = (uint32_t)a + 1;
    for (uint32_t i = 0; i < j->t[a].count; i++, k = j->t[k].next) {
        int c = (int)k, e;
        snprintf(r->where, sizeof r->where, "%.120s, chunks[%lu]", keep, (unsigned long)i);
        if (j->t[c].type != THTL__OBJ) return thtl__wrong(r, j, c, "chunks[]", "an object");
        int64_t cx, cy, cw, ch;
        if ((e = thtl__int(r, j, c, "x", 1, -(1 << 30), 1 << 30, 0, &cx)) || (e = thtl__int(r, j, c, "y", 1, -(1 << 30), 1 << 30, 0, &cy)) ||
            (e = thtl__int(r, j, c, "width", 1, 0, l->width, 0, &cw)) || (e = thtl__int(r, j, c, "height", 1, 0, l->height, 0, &ch)))
            return e;
        int64_t lx = cx - l->start_x, ly = cy - l->start_y;
        if (lx < 0 || ly < 0 || lx + cw > l->width || ly + ch > l->height) {
            snprintf(msg, sizeof msg, "a %lldx%lld chunk at (%lld,%lld) is outside the layer's %dx%d cells from (%d,%d)", (long long)cw,
                     (long long)ch, (long long)cx, (long long)cy, l->width, l->height, l->start_x, l->start_y);
            return thtl__fail(r, THTL_ERR_FORMAT, msg);
        }
        int cd = thtl__get(j, c, "data");
        if (cd < 0) return thtl__missing(r, "data");
        size_t n = (size_t)cw * (size_t)ch;
        uint32_t *buf = (uint32_t *)thtl__raw_alloc(r, n * 4);
        if (!buf) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
        e = thtl__cells(r, j, o, cd, buf, n);
        for (int64_t y = 0; !e && y < ch; y++)
            memcpy(l->gids + (size_t)(ly + y) * (size_t)l->width + (size_t)lx, buf + (size_t)y * (size_t)cw, (size_t)cw * 4);
        thtl__raw_free(r, buf);
        if (e) return e;
    }
    memcpy(r->where, keep, sizeof keep);
    return THTL_OK;
}

static int thtl__object(thtl__reader *r, const thtl__json *j, int o, thtl_object *ob)
{
    int e;
    if (j->t[o].type != THTL__OBJ) return thtl__wrong(r, j, o, "objects[]", "an object");
    if ((e = thtl__int32(r, j, o, "id", 0, 0, INT_MAX, 0, &ob->id))) return e;
    if ((e = thtl__str(r, j, o, "name", 0, &ob->name))) return e;
    if ((e = thtl__class(r, j, o, &ob->type))) return e;
    if ((e = thtl__float(r, j, o, "x", 0, &ob->x)) || (e = thtl__float(r, j, o, "y", 0, &ob->y)) ||
        (e = thtl__float(r, j, o, "width", 0, &ob->width)) || (e = thtl__float(r, j, o, "height", 0, &ob->height)) ||
        (e = thtl__float(r, j, o, "rotation", 0, &ob->rotation)) || (e = thtl__bool(r, j, o, "visible", 1, &ob->visible)))
        return e;
    if ((e = thtl__str(r, j, o, "template", 0, &ob->template_path))) return e;
    int64_t gid;
    if ((e = thtl__int(r, j, o, "gid", 0, 0, 0xFFFFFFFFll, 0, &gid))) return e;
    ob->gid = (uint32_t)gid;
    int is_point, is_ellipse;
    if ((e = thtl__bool(r, j, o, "point", 0, &is_point)) || (e = thtl__bool(r, j, o, "ellipse", 0, &is_ellipse))) return e;
    int poly = thtl__get(j, o, "polygon"), line = thtl__get(j, o, "polyline"), text = thtl__get(j, o, "text");
    ob->shape = THTL_SHAPE_RECT;
    if (ob->gid) ob->shape = THTL_SHAPE_TILE;
    else if (is_point) ob->shape = THTL_SHAPE_POINT;
    else if (is_ellipse) ob->shape = THTL_SHAPE_ELLIPSE;
    else if (poly >= 0 || line >= 0) {
        int a = poly >= 0 ? poly : line;
        const char *key = poly >= 0 ? "polygon" : "polyline";
        ob->shape = poly >= 0 ? THTL_SHAPE_POLYGON : THTL_SHAPE_POLYLINE;
        if (j->t[a].type != THTL__ARR) return thtl__wrong(r, j, a, key, "an array");
        uint32_t n = j->t[a].count;
        if (n) {
            ob->points = (thtl_point *)thtl__alloc(r, (size_t)n * sizeof(thtl_point));
            if (!ob->points) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
        }
        uint32_t k = (uint32_t)a + 1;
        for (uint32_t i = 0; i < n; i++, k = j->t[k].next) {
            if (j->t[k].type != THTL__OBJ) return thtl__wrong(r, j, (int)k, key, "an array of objects");
            if ((e = thtl__float(r, j, (int)k, "x", 0, &ob->points[i].x)) || (e = thtl__float(r, j, (int)k, "y", 0, &ob->points[i].y))) return e;
        }
        ob->point_count = (int)n;
    }
    if (text >= 0) {
        if (j->t[text].type != THTL__OBJ) return thtl__wrong(r, j, text, "text", "an object");
        if (ob->shape == THTL_SHAPE_RECT) ob->shape = THTL_SHAPE_TEXT;
        if ((e = thtl__str(r, j, text, "text", 0, &ob->text))) return e;
    } else if (!(ob->text = thtl__empty(r))) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
    return thtl__properties(r, j, o, &ob->properties, &ob->property_count);
}

typedef struct thtl__inherit {
    int visible;
    float opacity, offset_x, offset_y, parallax_x, parallax_y;
    char *group;
} thtl__inherit;

static int thtl__layers(thtl__reader *r, const thtl__json *j, int arr, const thtl__inherit *up, const char *path);

static int thtl__layer(thtl__reader *r, const thtl__json *j, int o, const thtl__inherit *up, const char *path)
{
    thtl_map *m = r->m;
    int e;
    snprintf(r->where, sizeof r->where, "%.150s", path);
    if (j->t[o].type != THTL__OBJ) return thtl__wrong(r, j, o, "layers[]", "an object");
    int type = thtl__get(j, o, "type");
    if (type < 0) return thtl__missing(r, "type");
    int kind = thtl__str_is(j, type, "tilelayer") ? THTL_LAYER_TILE : thtl__str_is(j, type, "objectgroup") ? THTL_LAYER_OBJECT
             : thtl__str_is(j, type, "imagelayer") ? THTL_LAYER_IMAGE : thtl__str_is(j, type, "group") ? 0 : -1;
    if (kind < 0) {
        if (j->t[type].type != THTL__STR) return thtl__wrong(r, j, type, "type", "a string");
        return thtl__fail(r, THTL_ERR_FORMAT, "\"type\" is not tilelayer, objectgroup, imagelayer or group");
    }
    thtl_layer l;
    memset(&l, 0, sizeof l);
    if ((e = thtl__str(r, j, o, "name", 0, &l.name))) return e;
    char here[160];
    snprintf(here, sizeof here, "%.60s%slayer '%.60s'", up->group ? path : "", up->group ? " > " : "", l.name);
    snprintf(r->where, sizeof r->where, "%s", here);
    thtl__inherit mine;
    int visible;
    float opacity, ox, oy, px, py;
    if ((e = thtl__int32(r, j, o, "id", 0, 0, INT_MAX, 0, &l.id)) || (e = thtl__bool(r, j, o, "visible", 1, &visible)) ||
        (e = thtl__float(r, j, o, "opacity", 1, &opacity)) || (e = thtl__float(r, j, o, "offsetx", 0, &ox)) ||
        (e = thtl__float(r, j, o, "offsety", 0, &oy)) || (e = thtl__float(r, j, o, "parallaxx", 1, &px)) ||
        (e = thtl__float(r, j, o, "parallaxy", 1, &py)))
        return e;
    if (opacity < 0 || opacity > 1) return thtl__fail(r, THTL_ERR_FORMAT, "\"opacity\" is outside 0..1");
    mine.visible = up->visible && visible;
    mine.opacity = up->opacity * opacity;
    mine.offset_x = up->offset_x + ox;
    mine.offset_y = up->offset_y + oy;
    mine.parallax_x = up->parallax_x * px;
    mine.parallax_y = up->parallax_y * py;
    mine.group = l.name;
    if (kind == 0) {
        int a = thtl__get(j, o, "layers");
        if (a < 0) return THTL_OK;   /* an empty group */
        return thtl__layers(r, j, a, &mine, here);
    }
    if ((uint32_t)m->layer_count >= r->set.max_layers) return thtl__fail(r, THTL_ERR_LIMIT, "more layers than max_layers");
    l.type = kind;
    l.visible = mine.visible;
    l.opacity = mine.opacity;
    l.offset_x = mine.offset_x;
    l.offset_y = mine.offset_y;
    l.parallax_x = mine.parallax_x;
    l.parallax_y = mine.parallax_y;
    l.group = up->group;
    if (!l.group && !(l.group = thtl__empty(r))) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
    if ((e = thtl__str(r, j, o, "class", 0, &l.type_class))) return e;
    if ((e = thtl__str(r, j, o, "image", 0, &l.image))) return e;
    if ((e = thtl__properties(r, j, o, &l.properties, &l.property_count))) return e;
    if (kind == THTL_LAYER_TILE) {
        int64_t w, h;
        if ((e = thtl__int(r, j, o, "width", 1, 0, 0x7FFFFFFF, 0, &w)) || (e = thtl__int(r, j, o, "height", 1, 0, 0x7FFFFFFF, 0, &h))) return e;
        if ((uint64_t)w > r->set.max_dimension || (uint64_t)h > r->set.max_dimension) {
            char msg[160];
            snprintf(msg, sizeof msg, "%lldx%lld cells, over max_dimension %lu", (long long)w, (long long)h, (unsigned long)r->set.max_dimension);
            return thtl__fail(r, THTL_ERR_LIMIT, msg);
        }
        r->cells += (uint64_t)w * (uint64_t)h;
        if (r->cells > r->set.max_cells) return thtl__fail(r, THTL_ERR_LIMIT, "more tile cells than max_cells");
        l.width = (int)w;
        l.height = (int)h;
        if ((e = thtl__int32(r, j, o, "startx", 0, -(1 << 30), 1 << 30, 0, &l.start_x)) ||
            (e = thtl__int32(r, j, o, "starty", 0, -(1 << 30), 1 << 30, 0, &l.start_y)))
            return e;
        if ((e = thtl__tile_data(r, j, o, &l))) return e;
    } else if (kind == THTL_LAYER_OBJECT) {
        int a = thtl__get(j, o, "objects");
        if (a >= 0) {
            if (j->t[a].type != THTL__ARR) return thtl__wrong(r, j, a, "objects", "an array");
            uint32_t n = j->t[a].count;
            r->objects += n;
            if (r->objects > r->set.max_objects) return thtl__fail(r, THTL_ERR_LIMIT, "more objects than max_objects");
            if (n) {
                l.objects = (thtl_object *)thtl__alloc(r, (size_t)n * sizeof(thtl_object));
                if (!l.objects) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
                memset(l.objects, 0, (size_t)n * sizeof(thtl_object));
            }
            uint32_t k = (uint32_t)a + 1;
            for (uint32_t i = 0; i < n; i++, k = j->t[k].next) {
                snprintf(r->where, sizeof r->where, "%.120s, objects[%lu]", here, (unsigned long)i);
                if ((e = thtl__object(r, j, (int)k, &l.objects[i]))) return e;
            }
            l.object_count = (int)n;
        }
    }
    if (m->layer_count == r->layer_cap) {
        int ncap = r->layer_cap ? r->layer_cap * 2 : 16;
        thtl_layer *nl = (thtl_layer *)thtl__alloc(r, (size_t)ncap * sizeof(thtl_layer));
        if (!nl) return thtl__fail(r, THTL_ERR_MEMORY, "out of memory");
        if (m->layers) memcpy(nl, m->layers, (size_t)m->layer_count * sizeof(thtl_layer));
        m->layers = nl;
        r->layer_cap = ncap;
    }
    m->layers[m->layer_count++] = l;
    return THTL_OK;
}

static int thtl__layers(thtl__reader *r, const thtl__json *j, int arr, const thtl__inherit *up, const char *path)
{
    if (j->t[arr].type != THTL__ARR) return thtl__wrong(r, j, arr, "layers", "an array");
    uint32_t k = (uint32_t)arr + 1;
    for (uint32_t i = 0; i < j->t[arr].count; i++, k = j->t[k].next) {
        int e = thtl__layer(r, j, (int)k, up, path);
        if (e) return e;
    }
    return THTL_OK;
}

/* ---------------------------------------------------------------- the map */

static int thtl__tile_known(const thtl_map *m, uint32_t gid)
{
    int t = thtl_tileset_of(m, gid);
    if (t < 0) return 0;
    const thtl_tileset *ts = &m->tilesets[t];
    uint32_t local = (gid & THTL_GID_MASK) - ts->firstgid;
    if (ts->columns == 0) return thtl_tile_info(m, gid) != 0;   /* image collections: the tiles listed, whatever their ids */
    return local < (uint32_t)ts->tile_count;
}

static int thtl__parse(thtl__reader *r, const void *data, size_t size)
{
    thtl_map *m = r->m;
    thtl__json j;
    char msg[220];
    int e = thtl__parse_json(r, &j, data, size);
    if (e) { thtl__json_free(r, &j); return e; }
    snprintf(r->where, sizeof r->where, "map");
    do {
        int type = thtl__get(&j, 0, "type");
        if (thtl__str_is(&j, type, "tileset")) { e = thtl__fail(r, THTL_ERR_FORMAT, "this is a tileset (.tsj), not a map"); break; }
        if (type >= 0 && !thtl__str_is(&j, type, "map")) { e = thtl__fail(r, THTL_ERR_FORMAT, "\"type\" is not \"map\""); break; }
        if ((e = thtl__str(r, &j, 0, "orientation", 1, &m->orientation))) break;
        if (strcmp(m->orientation, "orthogonal") != 0) {
            snprintf(msg, sizeof msg, "orientation '%.60s' is not supported (orthogonal maps only)", m->orientation);
            e = thtl__fail(r, THTL_ERR_UNSUPPORTED, msg);
            break;
        }
        if ((e = thtl__bool(r, &j, 0, "infinite", 0, &m->infinite))) break;
        int64_t w, h;
        if ((e = thtl__int(r, &j, 0, "width", 1, 0, 0x7FFFFFFF, 0, &w)) || (e = thtl__int(r, &j, 0, "height", 1, 0, 0x7FFFFFFF, 0, &h))) break;
        if ((uint64_t)w > r->set.max_dimension || (uint64_t)h > r->set.max_dimension) {
            snprintf(msg, sizeof msg, "%lldx%lld cells, over max_dimension %lu", (long long)w, (long long)h, (unsigned long)r->set.max_dimension);
            e = thtl__fail(r, THTL_ERR_LIMIT, msg);
            break;
        }
        m->width = (int)w;
        m->height = (int)h;
        if ((e = thtl__int32(r, &j, 0, "tilewidth", 1, 1, 1 << 20, 0, &m->tile_width)) ||
            (e = thtl__int32(r, &j, 0, "tileheight", 1, 1, 1 << 20, 0, &m->tile_height)) ||
            (e = thtl__str(r, &j, 0, "renderorder", 0, &m->render_order)) || (e = thtl__str(r, &j, 0, "class", 0, &m->type_class)) ||
            (e = thtl__str(r, &j, 0, "tiledversion", 0, &m->tiled_version)) ||
            (e = thtl__properties(r, &j, 0, &m->properties, &m->property_count)))
            break;
        int a = thtl__get(&j, 0, "tilesets");
        if (a >= 0) {
            if (j.t[a].type != THTL__ARR) { e = thtl__wrong(r, &j, a, "tilesets", "an array"); break; }
            uint32_t n = j.t[a].count;
            if (n > 65536) { e = thtl__fail(r, THTL_ERR_LIMIT, "over 65536 tilesets"); break; }
            if (n) {
                m->tilesets = (thtl_tileset *)thtl__alloc(r, (size_t)n * sizeof(thtl_tileset));
                if (!m->tilesets) { e = thtl__fail(r, THTL_ERR_MEMORY, "out of memory"); break; }
                memset(m->tilesets, 0, (size_t)n * sizeof(thtl_tileset));
            }
            uint32_t k = (uint32_t)a + 1;
            for (uint32_t i = 0; i < n && !e; i++, k = j.t[k].next) {
                e = thtl__tileset(r, &j, (int)k, &m->tilesets[i], (int)i);
                if (!e && i > 0 && m->tilesets[i].firstgid < m->tilesets[i - 1].firstgid + (uint32_t)m->tilesets[i - 1].tile_count)
                    e = thtl__fail(r, THTL_ERR_FORMAT, "firstgid overlaps the tileset before it");
                m->tileset_count = (int)i + 1;
            }
            if (e) break;
        }
        snprintf(r->where, sizeof r->where, "map");
        a = thtl__get(&j, 0, "layers");
        if (a < 0) { e = thtl__missing(r, "layers"); break; }
        thtl__inherit top = { 1, 1, 0, 0, 1, 1, 0 };
        if ((e = thtl__layers(r, &j, a, &top, ""))) break;
    } while (0);
    thtl__json_free(r, &j);
    if (e) return e;
    /* every tile belongs to a tileset */
    for (int li = 0; li < m->layer_count; li++) {
        const thtl_layer *l = &m->layers[li];
        size_t cells = (size_t)l->width * (size_t)l->height;
        uint32_t ok_from = 1, ok_to = 0;   /* the last tileset's range that matched */
        for (size_t i = 0; i < cells; i++) {
            uint32_t id = l->gids[i] & THTL_GID_MASK;
            if (id == 0 || (id >= ok_from && id <= ok_to)) continue;
            if (!thtl__tile_known(m, id)) {
                snprintf(r->where, sizeof r->where, "layer '%.100s'", l->name);
                snprintf(msg, sizeof msg, "cell (%ld,%ld) has gid %lu, past every tileset", (long)(i % (size_t)l->width) + l->start_x,
                         (long)(i / (size_t)l->width) + l->start_y, (unsigned long)id);
                return thtl__fail(r, THTL_ERR_FORMAT, msg);
            }
            const thtl_tileset *ts = &m->tilesets[thtl_tileset_of(m, id)];
            if (ts->columns) { ok_from = ts->firstgid; ok_to = ts->firstgid + (uint32_t)ts->tile_count - 1; }
        }
        for (int i = 0; i < l->object_count; i++) {
            uint32_t id = l->objects[i].gid & THTL_GID_MASK;
            if (id && !thtl__tile_known(m, id)) {
                snprintf(r->where, sizeof r->where, "layer '%.100s', object %d", l->name, l->objects[i].id);
                snprintf(msg, sizeof msg, "gid %lu is past every tileset", (unsigned long)id);
                return thtl__fail(r, THTL_ERR_FORMAT, msg);
            }
        }
    }
    return THTL_OK;
}

int thtl_load(const void *json, size_t size, const thtl_settings *settings, thtl_map *out)
{
    if (!out) return THTL_ERR_ARGS;
    memset(out, 0, sizeof *out);
    thtl__reader r;
    memset(&r, 0, sizeof r);
    if (settings) r.set = *settings;
    if (!r.set.alloc || !r.set.free) { r.set.alloc = thtl__default_alloc; r.set.free = thtl__default_free; r.set.alloc_user = 0; }
#ifdef THTL_STB_ZLIB
    if (!r.set.inflate) r.set.inflate = thtl__stb_inflate;
#endif
    if (!r.set.max_dimension) r.set.max_dimension = THTL_MAX_DIMENSION;
    if (!r.set.max_cells) r.set.max_cells = THTL_MAX_CELLS;
    if (!r.set.max_layers) r.set.max_layers = THTL_MAX_LAYERS;
    if (!r.set.max_objects) r.set.max_objects = THTL_MAX_OBJECTS;
    if (!r.set.max_depth) r.set.max_depth = THTL_MAX_DEPTH;
    out->alloc_fn = r.set.alloc;
    out->free_fn = r.set.free;
    out->alloc_user = r.set.alloc_user;
    r.m = out;
    if (!json) { snprintf(out->error, sizeof out->error, "no data"); return THTL_ERR_ARGS; }
    int e = thtl__parse(&r, json, size);
    if (e) {
        char keep[sizeof out->error];
        memcpy(keep, out->error, sizeof keep);
        thtl_free(out);
        memcpy(out->error, keep, sizeof keep);
    }
    return e;
}

#ifndef THTL_NO_STDIO
int thtl_load_file(const char *path, const thtl_settings *settings, thtl_map *out)
{
    if (!out) return THTL_ERR_ARGS;
    memset(out, 0, sizeof *out);
    if (!path) { snprintf(out->error, sizeof out->error, "no path"); return THTL_ERR_ARGS; }
    thtl_settings set;
    if (settings) set = *settings;
    else memset(&set, 0, sizeof set);
    void *(*al)(void *, size_t) = set.alloc && set.free ? set.alloc : thtl__default_alloc;
    void (*fr)(void *, void *) = set.alloc && set.free ? set.free : thtl__default_free;
    void *au = set.alloc && set.free ? set.alloc_user : 0;
    char dir[1024];
    if (!set.base_dir) {
        const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
        if (back && (!slash || back > slash)) slash = back;
        size_t n = slash ? (size_t)(slash - path) + 1 : 0;
        if (n >= sizeof dir) n = 0;
        memcpy(dir, path, n);
        dir[n] = 0;
        set.base_dir = dir;
    }
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(out->error, sizeof out->error, "%.200s: cannot open", path); return THTL_ERR_FILE; }
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n < 0 || (unsigned long)n > 0x7FFFFFFFul || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        snprintf(out->error, sizeof out->error, "%.200s: cannot read", path);
        return THTL_ERR_FILE;
    }
    void *buf = al(au, n ? (size_t)n : 1);
    if (!buf) { fclose(f); snprintf(out->error, sizeof out->error, "out of memory"); return THTL_ERR_MEMORY; }
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    if (got != (size_t)n) { fr(au, buf); snprintf(out->error, sizeof out->error, "%.200s: cannot read", path); return THTL_ERR_FILE; }
    int e = thtl_load(buf, (size_t)n, &set, out);
    fr(au, buf);
    if (e) {   /* the message names the map's file first */
        char keep[sizeof out->error];
        memcpy(keep, out->error, sizeof keep);
        snprintf(out->error, sizeof out->error, "%.60s: %.330s", path, keep);
    }
    return e;
}
#endif

void thtl_free(thtl_map *m)
{
    if (!m || !m->free_fn) return;
    thtl__block *b = (thtl__block *)m->blocks;
    while (b) {
        thtl__block *next = b->next;
        m->free_fn(m->alloc_user, b);
        b = next;
    }
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- lookups */

uint32_t thtl_gid_at(const thtl_layer *l, int x, int y)
{
    if (!l || !l->gids) return 0;
    int64_t lx = (int64_t)x - l->start_x, ly = (int64_t)y - l->start_y;
    if (lx < 0 || ly < 0 || lx >= l->width || ly >= l->height) return 0;
    return l->gids[(size_t)ly * (size_t)l->width + (size_t)lx];
}

uint32_t thtl_gid_id(uint32_t gid) { return gid & THTL_GID_MASK; }

int thtl_tileset_of(const thtl_map *m, uint32_t gid)
{
    uint32_t id = gid & THTL_GID_MASK;
    int lo = 0, hi = m ? m->tileset_count - 1 : -1, best = -1;
    if (id == 0) return -1;
    while (lo <= hi) {   /* the last tileset starting at or before id (firstgid ascends: checked at load) */
        int mid = lo + (hi - lo) / 2;
        if (m->tilesets[mid].firstgid <= id) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
}

int thtl_tile_source(const thtl_map *m, uint32_t gid, thtl_tile_src *src)
{
    int t = thtl_tileset_of(m, gid);
    if (!src) return 0;
    memset(src, 0, sizeof *src);
    src->tileset = -1;
    if (t < 0) return 0;
    const thtl_tileset *ts = &m->tilesets[t];
    uint32_t local = (gid & THTL_GID_MASK) - ts->firstgid;
    if (ts->columns > 0 && local >= (uint32_t)ts->tile_count) return 0;
    src->tileset = t;
    src->local_id = (int)local;
    src->flips = gid & ~THTL_GID_MASK;
    if (ts->columns > 0) {
        src->x = ts->margin + (int)(local % (uint32_t)ts->columns) * (ts->tile_width + ts->spacing);
        src->y = ts->margin + (int)(local / (uint32_t)ts->columns) * (ts->tile_height + ts->spacing);
        src->w = ts->tile_width;
        src->h = ts->tile_height;
    } else {
        const thtl_tile *info = thtl_tile_info(m, gid);
        if (!info) { src->tileset = -1; return 0; }
        src->w = info->image_width;
        src->h = info->image_height;
    }
    return 1;
}

const thtl_tile *thtl_tile_info(const thtl_map *m, uint32_t gid)
{
    int t = thtl_tileset_of(m, gid);
    if (t < 0) return 0;
    const thtl_tileset *ts = &m->tilesets[t];
    int local = (int)((gid & THTL_GID_MASK) - ts->firstgid), lo = 0, hi = ts->tile_info_count - 1;
    while (lo <= hi) {   /* sorted by id at load */
        int mid = lo + (hi - lo) / 2;
        if (ts->tiles[mid].id == local) return &ts->tiles[mid];
        if (ts->tiles[mid].id < local) lo = mid + 1; else hi = mid - 1;
    }
    return 0;
}

int thtl_find_layer(const thtl_map *m, const char *name)
{
    for (int i = 0; m && name && i < m->layer_count; i++) if (strcmp(m->layers[i].name, name) == 0) return i;
    return -1;
}

const thtl_object *thtl_find_object(const thtl_map *m, const char *name, int *layer)
{
    for (int i = 0; m && name && i < m->layer_count; i++)
        for (int k = 0; k < m->layers[i].object_count; k++)
            if (strcmp(m->layers[i].objects[k].name, name) == 0) {
                if (layer) *layer = i;
                return &m->layers[i].objects[k];
            }
    if (layer) *layer = -1;
    return 0;
}

const thtl_property *thtl_find_property(const thtl_property *props, int count, const char *name)
{
    for (int i = 0; props && name && i < count; i++) if (strcmp(props[i].name, name) == 0) return &props[i];
    return 0;
}

/* ---------------------------------------------------------------- collision boxes */

static int thtl__is_solid(const thtl_map *m, const thtl_layer *l, size_t i, int (*solid)(void *, const thtl_map *, uint32_t), void *user)
{
    uint32_t g = l->gids[i];
    return g != 0 && (!solid || solid(user, m, g));
}

thtl_box *thtl_solid_boxes_if(const thtl_map *m, const thtl_layer *l, int (*solid)(void *user, const thtl_map *m, uint32_t gid),
                              void *user, int *count)
{
    int dummy;
    if (!count) count = &dummy;
    *count = -1;
    if (!m || !m->alloc_fn || !l || l->type != THTL_LAYER_TILE || (!l->gids && l->width > 0 && l->height > 0)) return 0;
    int w = l->width, h = l->height;
    /* the row runs bound the boxes */
    size_t runs = 0;
    for (int y = 0; y < h; y++) {
        int prev = 0;
        for (int x = 0; x < w; x++) {
            int now = thtl__is_solid(m, l, (size_t)y * (size_t)w + (size_t)x, solid, user);
            runs += now && !prev;
            prev = now;
        }
    }
    *count = 0;
    if (runs == 0) return 0;
    /* the boxes, two rows of "the box whose bottom run starts at column x" (-1 for none), one row of solidity */
    size_t bytes = runs * sizeof(thtl_box) + 2 * (size_t)w * sizeof(int) + (size_t)w;
    thtl_box *boxes = (thtl_box *)m->alloc_fn(m->alloc_user, bytes);
    if (!boxes) { *count = -1; return 0; }
    int *above = (int *)(boxes + runs), *here = above + w, n = 0;
    uint8_t *row = (uint8_t *)(here + w);
    for (int x = 0; x < w; x++) above[x] = -1;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            here[x] = -1;
            row[x] = (uint8_t)thtl__is_solid(m, l, (size_t)y * (size_t)w + (size_t)x, solid, user);
        }
        for (int x = 0; x < w;) {
            if (!row[x]) { x++; continue; }
            int x0 = x;
            while (x < w && row[x]) x++;
            int b = above[x0];
            if (b >= 0 && boxes[b].w == x - x0) boxes[b].h++;
            else if ((size_t)n == runs) continue;   /* only a predicate changing its mind gets here */
            else {
                b = n++;
                boxes[b].x = x0; boxes[b].y = y; boxes[b].w = x - x0; boxes[b].h = 1;   /* layer cells: moved below */
            }
            here[x0] = b;
        }
        int *t = above; above = here; here = t;
    }
    for (int i = 0; i < n; i++) { boxes[i].x += l->start_x; boxes[i].y += l->start_y; }
    *count = n;
    return boxes;
}

thtl_box *thtl_solid_boxes(const thtl_map *m, const thtl_layer *l, int *count)
{
    return thtl_solid_boxes_if(m, l, 0, 0, count);
}

void thtl_free_boxes(const thtl_map *m, thtl_box *boxes)
{
    if (m && m->free_fn && boxes) m->free_fn(m->alloc_user, boxes);
}

#endif /* TH_TILED_IMPLEMENTED */
#endif /* TH_TILED_IMPLEMENTATION */

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
