/* fuzz_th_tiled - th_tiled.h's reader on arbitrary bytes, inflating with stb_image's zlib (the engine's
   default). The input is a map; when it holds a line "----", what follows that line is also every external
   tileset file the map names (through the read hook), so the fuzzer reaches the .tsj reader too. A refusal
   must carry a reason; a map that loads must be self-consistent (every tile and tile object in a tileset with a
   source rectangle, names and strings present, points where counted) and its solid boxes must cover exactly
   the solid cells of each tile layer. Limits are lowered so one input stays cheap. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#include <stb_image.h>
#define THTL_STB_ZLIB
#define TH_TILED_IMPLEMENTATION
#include "th_tiled.h"

#include <stdlib.h>
#include <string.h>

struct Part { const uint8_t *data; size_t size; };

static const void *read_part(void *user, const char *path, size_t *size)
{
    const Part *p = (const Part *)user;
    if (!path || !p->data) return NULL;
    *size = p->size;
    return p->data;
}

static int odd_gid(void *user, const thtl_map *m, uint32_t gid) { (void)user; (void)m; return (int)(gid & 1); }

static void check_props(const thtl_property *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!p[i].name || !p[i].str || p[i].type < THTL_PROP_STRING || p[i].type > THTL_PROP_CLASS) __builtin_trap();
}

static void check(const uint8_t *map, size_t map_size, const uint8_t *tileset, size_t tileset_size)
{
    Part part = { tileset, tileset_size };
    thtl_settings set;
    memset(&set, 0, sizeof set);
    set.read_file = read_part;
    set.file_user = &part;
    set.max_dimension = 256;
    set.max_cells = 1u << 16;
    set.max_layers = 64;
    set.max_objects = 4096;
    set.max_depth = 32;
    thtl_map m;
    if (thtl_load(map, map_size, &set, &m) != THTL_OK) {
        if (!m.error[0] || memchr(m.error, 0, sizeof m.error) == NULL) __builtin_trap();
        return;
    }
    if (m.width > 256 || m.height > 256 || m.tile_width < 1 || !m.orientation || strcmp(m.orientation, "orthogonal") != 0) __builtin_trap();
    check_props(m.properties, m.property_count);
    for (int t = 0; t < m.tileset_count; t++) {
        const thtl_tileset *ts = &m.tilesets[t];
        if (!ts->name || !ts->image || !ts->source || ts->firstgid < 1) __builtin_trap();
        if (t > 0 && ts->firstgid < m.tilesets[t - 1].firstgid) __builtin_trap();
        for (int k = 0; k < ts->tile_info_count; k++) {
            if (!ts->tiles[k].type || (k > 0 && ts->tiles[k].id <= ts->tiles[k - 1].id)) __builtin_trap();
            if (ts->tiles[k].frame_count < 0 || (ts->tiles[k].frame_count && !ts->tiles[k].frames)) __builtin_trap();
            for (int f = 0; f < ts->tiles[k].frame_count; f++)
                if (ts->tiles[k].frames[f].tile_id < 0 || ts->tiles[k].frames[f].duration_ms < 0) __builtin_trap();
            check_props(ts->tiles[k].properties, ts->tiles[k].property_count);
        }
        check_props(ts->properties, ts->property_count);
    }
    for (int li = 0; li < m.layer_count; li++) {
        const thtl_layer *l = &m.layers[li];
        if (!l->name || !l->group || !l->image || !l->type_class || thtl_find_layer(&m, l->name) > li) __builtin_trap();
        check_props(l->properties, l->property_count);
        if (l->type == THTL_LAYER_TILE) {
            thtl_tile_src src;
            for (int y = 0; y < l->height; y++)
                for (int x = 0; x < l->width; x++) {
                    uint32_t g = thtl_gid_at(l, x + l->start_x, y + l->start_y);
                    if (thtl_gid_id(g) && !thtl_tile_source(&m, g, &src)) __builtin_trap();
                }
            int n = 0;
            thtl_box *b = thtl_solid_boxes(&m, l, &n);
            if (n < 0) __builtin_trap();
            unsigned char *cover = (unsigned char *)calloc((size_t)l->width * (size_t)l->height + 1, 1);
            for (int i = 0; i < n; i++) {   /* boxes are in map cells */
                int bx = b[i].x - l->start_x, by = b[i].y - l->start_y;
                if (b[i].w < 1 || b[i].h < 1 || bx < 0 || by < 0 || bx + b[i].w > l->width || by + b[i].h > l->height) __builtin_trap();
                for (int y = by; y < by + b[i].h; y++)
                    for (int x = bx; x < bx + b[i].w; x++) cover[(size_t)y * (size_t)l->width + (size_t)x]++;
            }
            for (int y = 0; y < l->height; y++)
                for (int x = 0; x < l->width; x++)
                    if (cover[(size_t)y * (size_t)l->width + (size_t)x] != (thtl_gid_at(l, x + l->start_x, y + l->start_y) ? 1 : 0)) __builtin_trap();
            free(cover);
            thtl_free_boxes(&m, b);
            /* a predicate: odd gids solid; the boxes cover exactly those */
            b = thtl_solid_boxes_if(&m, l, odd_gid, NULL, &n);
            int covered = 0, odd = 0;
            for (int i = 0; i < n; i++) covered += b[i].w * b[i].h;
            for (int y = 0; y < l->height; y++)
                for (int x = 0; x < l->width; x++) odd += thtl_gid_at(l, x + l->start_x, y + l->start_y) & 1;
            if (n < 0 || covered != odd) __builtin_trap();
            thtl_free_boxes(&m, b);
        }
        for (int i = 0; i < l->object_count; i++) {
            const thtl_object *o = &l->objects[i];
            if (!o->name || !o->type || !o->text || !o->template_path || o->point_count < 0 || (o->point_count && !o->points)) __builtin_trap();
            volatile float sum = 0;
            for (int k = 0; k < o->point_count; k++) sum = sum + o->points[k].x + o->points[k].y;
            if (thtl_gid_id(o->gid) && thtl_tileset_of(&m, o->gid) < 0) __builtin_trap();
            if (thtl_find_object(&m, o->name, NULL) == NULL) __builtin_trap();
            check_props(o->properties, o->property_count);
        }
    }
    thtl_free(&m);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* exactly-sized copies: a read past either part is reported */
    const uint8_t *cut = NULL;
    for (size_t i = 0; i + 6 <= size; i++)
        if (memcmp(data + i, "\n----\n", 6) == 0) { cut = data + i; break; }
    size_t map_size = cut ? (size_t)(cut - data) : size;
    uint8_t *map = (uint8_t *)malloc(map_size ? map_size : 1);
    memcpy(map, data, map_size);
    uint8_t *tileset = NULL;
    size_t tileset_size = 0;
    if (cut) {
        tileset_size = size - map_size - 6;
        tileset = (uint8_t *)malloc(tileset_size ? tileset_size : 1);
        memcpy(tileset, cut + 6, tileset_size);
    }
    check(map, map_size, tileset, tileset_size);
    free(map);
    free(tileset);
    return 0;
}
