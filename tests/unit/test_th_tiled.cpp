// test_th_tiled.cpp - th_tiled.h on maps written by Tiled 1.8.2 (tests/data/tiled, see its README): every
// field of an embedded tileset, flipped tiles, a group's offsets and opacity flattened into its layers, every
// object kind and property type, the same cells as a JSON array, base64, base64+zlib and the external tileset
// (from disk and through the read hook); Tiled 1.9's "class"; the lookups; solid cells merged into boxes on a
// 200x200 map checked cell by cell; then damaged maps: cut at every byte, bytes flipped, wrong types, a gid past
// every tileset, a data array of the wrong length, huge sizes, a missing tileset file, deep nesting, failing
// allocations - each refused with a reason naming the problem and nothing leaked.
#define THTL_STB_ZLIB   // stb_image's implementation is the build's (platform/core/stb_impl.c)
#define TH_TILED_IMPLEMENTATION
#include "th_tiled.h"
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <string>
#include <vector>

static std::string g_data;   // tests/data/tiled/

static std::string slurp(const std::string &path)
{
    std::string s;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) { printf("    cannot read %s\n", path.c_str()); return s; }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

// the text with the first `from` replaced by `to` (the test fails when from is not there)
static std::string edit(std::string s, const std::string &from, const std::string &to)
{
    size_t at = s.find(from);
    TH_CHECK_MSG(at != std::string::npos, "edit: '%s' not in the map", from.c_str());
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
}

// With THTL_SEED_DIR set, the maps the tests read are also written there: the fuzz target's seeds
// (tests/fuzz/seeds/fuzz_th_tiled) come from this.
static void seed(const char *name, const std::string &text)
{
    const char *dir = getenv("THTL_SEED_DIR");
    if (!dir) return;
    std::string path = std::string(dir) + "/" + name;
    FILE *f = fopen(path.c_str(), "wb");
    if (f) { fwrite(text.data(), 1, text.size(), f); fclose(f); }
}

// ---------------------------------------------------------------- a counting allocator

struct Counts { int allocs, frees, fail_after; };
static void *count_alloc(void *user, size_t n)
{
    Counts *c = (Counts *)user;
    if (c->fail_after >= 0 && c->allocs >= c->fail_after) return nullptr;
    c->allocs++;
    return malloc(n);
}
static void count_free(void *user, void *p) { ((Counts *)user)->frees++; free(p); }

static int load_text(const std::string &text, thtl_map *m, const thtl_settings *set = nullptr)
{
    return thtl_load(text.data(), text.size(), set, m);
}

static bool has(const char *msg, const char *part)
{
    if (strstr(msg, part)) return true;
    printf("    message '%s' does not name '%s'\n", msg, part);
    return false;
}

// ---------------------------------------------------------------- the header's example

static int g_walls, g_spawned;
static void add_wall(int x, int y, int w, int h) { (void)x; (void)y; (void)w; (void)h; g_walls++; }
static void place_player(float x, float y) { g_spawned = x == 24 && y == 40; }

static void test_manual_example(void)
{
    std::string p = g_data + "cave.tmj";
    const char *path = p.c_str();
    // the header's EXAMPLE, as written there
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
    TH_CHECK_EQ_INT(g_walls, 4);
    TH_CHECK(g_spawned);
}

// ---------------------------------------------------------------- cave.tmj

static void test_cave_map_and_tileset(void)
{
    std::string text = slurp(g_data + "cave.tmj");
    seed("cave.tmj", text);
    thtl_map m;
    int e = load_text(text, &m);
    TH_CHECK_MSG(e == THTL_OK, "load: %s", m.error);
    if (e) return;
    TH_CHECK(m.width == 6 && m.height == 4 && m.tile_width == 16 && m.tile_height == 16);
    TH_CHECK(strcmp(m.orientation, "orthogonal") == 0 && strcmp(m.render_order, "right-down") == 0);
    TH_CHECK(strcmp(m.tiled_version, "1.8.2") == 0 && strcmp(m.type_class, "") == 0);

    // map properties, one of each type Tiled 1.8 writes
    TH_CHECK_EQ_INT(m.property_count, 6);
    const thtl_property *p = thtl_find_property(m.properties, m.property_count, "title");
    TH_CHECK(p && p->type == THTL_PROP_STRING && strcmp(p->str, "Cave \"one\"") == 0);
    p = thtl_find_property(m.properties, m.property_count, "gravity");
    TH_CHECK(p && p->type == THTL_PROP_FLOAT && p->fval == 9.5);
    p = thtl_find_property(m.properties, m.property_count, "lives");
    TH_CHECK(p && p->type == THTL_PROP_INT && p->ival == 3 && p->fval == 3);
    p = thtl_find_property(m.properties, m.property_count, "dark");
    TH_CHECK(p && p->type == THTL_PROP_BOOL && p->ival == 1);
    p = thtl_find_property(m.properties, m.property_count, "tint");
    TH_CHECK(p && p->type == THTL_PROP_COLOR && p->ival == 0xff336699 && strcmp(p->str, "#ff336699") == 0);
    p = thtl_find_property(m.properties, m.property_count, "music");
    TH_CHECK(p && p->type == THTL_PROP_FILE && strcmp(p->str, "music/cave.ogg") == 0);
    TH_CHECK(thtl_find_property(m.properties, m.property_count, "nope") == NULL);

    // the embedded tileset
    TH_CHECK_EQ_INT(m.tileset_count, 1);
    const thtl_tileset *ts = &m.tilesets[0];
    TH_CHECK(ts->firstgid == 1 && strcmp(ts->name, "tiles") == 0 && strcmp(ts->source, "") == 0);
    TH_CHECK(strcmp(ts->image, "tiles.png") == 0 && ts->image_width == 72 && ts->image_height == 54);
    TH_CHECK(ts->tile_width == 16 && ts->tile_height == 16 && ts->columns == 4 && ts->tile_count == 12);
    TH_CHECK(ts->margin == 1 && ts->spacing == 2);
    TH_CHECK(ts->property_count == 1 && strcmp(ts->properties[0].str, "cave") == 0);
    // per-tile types and properties: local 3 is gid 4, local 9 gid 10
    const thtl_tile *t = thtl_tile_info(&m, 4 | THTL_FLIP_H);
    TH_CHECK(t && t->id == 3 && strcmp(t->type, "wall") == 0);
    if (t) {
        p = thtl_find_property(t->properties, t->property_count, "solid");
        TH_CHECK(p && p->type == THTL_PROP_BOOL && p->ival == 1);
        p = thtl_find_property(t->properties, t->property_count, "friction");
        TH_CHECK(p && p->fval == 0.25);
    }
    t = thtl_tile_info(&m, 10);
    TH_CHECK(t && strcmp(t->type, "spike") == 0 && t->property_count == 1 && t->properties[0].ival == 5);
    // its animation: local ids and milliseconds, in order
    TH_CHECK(t && t->frame_count == 3);
    if (t && t->frame_count == 3) {
        TH_CHECK(t->frames[0].tile_id == 9 && t->frames[0].duration_ms == 100);
        TH_CHECK(t->frames[1].tile_id == 10 && t->frames[1].duration_ms == 150);
        TH_CHECK(t->frames[2].tile_id == 11 && t->frames[2].duration_ms == 50);
    }
    t = thtl_tile_info(&m, 4);
    TH_CHECK(t && t->frame_count == 0 && t->frames == NULL);
    TH_CHECK(thtl_tile_info(&m, 5) == NULL && thtl_tile_info(&m, 0) == NULL);

    // source rectangles: margin 1, spacing 2, four columns
    thtl_tile_src src;
    TH_CHECK(thtl_tile_source(&m, 1, &src) && src.tileset == 0 && src.local_id == 0 && src.x == 1 && src.y == 1 && src.w == 16 && src.h == 16);
    TH_CHECK(thtl_tile_source(&m, 3 | THTL_FLIP_D, &src) && src.local_id == 2 && src.x == 37 && src.y == 1 && src.flips == THTL_FLIP_D);
    TH_CHECK(thtl_tile_source(&m, 7, &src) && src.x == 37 && src.y == 19);
    TH_CHECK(thtl_tile_source(&m, 12, &src) && src.x == 55 && src.y == 37);
    TH_CHECK(!thtl_tile_source(&m, 13, &src) && src.tileset == -1);
    TH_CHECK(!thtl_tile_source(&m, 0, &src));
    thtl_free(&m);
}

static void test_cave_layers_and_groups(void)
{
    std::string text = slurp(g_data + "cave.tmj");
    thtl_map m;
    int e = load_text(text, &m);
    TH_CHECK_MSG(e == THTL_OK, "load: %s", m.error);
    if (e) return;
    // flattened: ground, decor/walls, decor/inner/hidden, things, sky
    TH_CHECK_EQ_INT(m.layer_count, 5);
    if (m.layer_count != 5) { thtl_free(&m); return; }
    const thtl_layer *g = &m.layers[0], *w = &m.layers[1], *h = &m.layers[2], *o = &m.layers[3], *sky = &m.layers[4];
    TH_CHECK(strcmp(g->name, "ground") == 0 && g->type == THTL_LAYER_TILE && g->id == 1 && g->visible && g->opacity == 1);
    TH_CHECK(g->width == 6 && g->height == 4 && strcmp(g->group, "") == 0);
    TH_CHECK(g->property_count == 1 && g->properties[0].type == THTL_PROP_INT && g->properties[0].ival == -1);
    // flip bits kept, and stripped by thtl_gid_id
    TH_CHECK(thtl_gid_at(g, 0, 0) == 1 && thtl_gid_at(g, 5, 0) == 6 && thtl_gid_at(g, 5, 3) == 4);
    TH_CHECK(thtl_gid_at(g, 0, 1) == (1 | THTL_FLIP_H));
    TH_CHECK(thtl_gid_at(g, 1, 1) == (2 | THTL_FLIP_V));
    TH_CHECK(thtl_gid_at(g, 2, 1) == (3 | THTL_FLIP_D));
    TH_CHECK(thtl_gid_at(g, 3, 1) == (4 | THTL_FLIP_H | THTL_FLIP_V));
    TH_CHECK(thtl_gid_id(thtl_gid_at(g, 3, 1)) == 4 && thtl_gid_at(g, 4, 1) == 0);
    TH_CHECK(thtl_gid_at(g, -1, 0) == 0 && thtl_gid_at(g, 6, 0) == 0 && thtl_gid_at(g, 0, 4) == 0 && thtl_gid_at(NULL, 0, 0) == 0);
    // a group at offset (8,4), opacity 0.5 holds walls at (2,1), 0.5
    TH_CHECK(strcmp(w->name, "walls") == 0 && strcmp(w->group, "decor") == 0 && w->visible);
    TH_CHECK(w->offset_x == 10 && w->offset_y == 5 && w->opacity == 0.25f);
    // a hidden group inside it hides its visible layer, and passes the outer group's offset on
    TH_CHECK(strcmp(h->name, "hidden") == 0 && strcmp(h->group, "inner") == 0 && !h->visible);
    TH_CHECK(h->offset_x == 8 && h->offset_y == 4 && h->opacity == 0.5f);
    TH_CHECK(o->type == THTL_LAYER_OBJECT && strcmp(o->name, "things") == 0 && o->gids == NULL);
    TH_CHECK(sky->type == THTL_LAYER_IMAGE && strcmp(sky->image, "sky.png") == 0 && sky->offset_x == 3 && sky->offset_y == 4);
    TH_CHECK(g->parallax_x == 1 && g->parallax_y == 1);
    thtl_free(&m);
}

static void test_cave_objects(void)
{
    std::string text = slurp(g_data + "cave.tmj");
    thtl_map m;
    int e = load_text(text, &m);
    TH_CHECK_MSG(e == THTL_OK, "load: %s", m.error);
    if (e) return;
    int layer = -2;
    const thtl_object *o = thtl_find_object(&m, "spawn", &layer);
    TH_CHECK(o && layer == 3);
    if (!o || layer != 3) { thtl_free(&m); return; }
    const thtl_layer *l = &m.layers[layer];
    TH_CHECK_EQ_INT(l->object_count, 8);
    TH_CHECK(o->id == 1 && strcmp(o->type, "player") == 0 && o->shape == THTL_SHAPE_RECT && o->visible);
    TH_CHECK(o->x == 24 && o->y == 40 && o->width == 16 && o->height == 16 && o->rotation == 0 && o->gid == 0);
    // every property type on one object
    TH_CHECK_EQ_INT(o->property_count, 7);
    const thtl_property *p = thtl_find_property(o->properties, o->property_count, "label");
    TH_CHECK(p && p->type == THTL_PROP_STRING && strcmp(p->str, "Start here") == 0);
    p = thtl_find_property(o->properties, o->property_count, "hp");
    TH_CHECK(p && p->type == THTL_PROP_INT && p->ival == 12);
    p = thtl_find_property(o->properties, o->property_count, "speed");
    TH_CHECK(p && p->type == THTL_PROP_FLOAT && p->fval == 1.5);
    p = thtl_find_property(o->properties, o->property_count, "friendly");
    TH_CHECK(p && p->type == THTL_PROP_BOOL && p->ival == 0);
    p = thtl_find_property(o->properties, o->property_count, "glow");
    TH_CHECK(p && p->type == THTL_PROP_COLOR && p->ival == 0x80ff0000);
    p = thtl_find_property(o->properties, o->property_count, "script");
    TH_CHECK(p && p->type == THTL_PROP_FILE && strcmp(p->str, "scripts/spawn.lua") == 0);
    p = thtl_find_property(o->properties, o->property_count, "target");
    TH_CHECK(p && p->type == THTL_PROP_OBJECT && p->ival == 7);

    o = thtl_find_object(&m, "flag", NULL);
    TH_CHECK(o && o->shape == THTL_SHAPE_POINT && o->x == 80 && o->y == 16 && o->width == 0);
    o = thtl_find_object(&m, "pond", NULL);
    TH_CHECK(o && o->shape == THTL_SHAPE_ELLIPSE && o->rotation == 45 && o->width == 30 && o->height == 12);
    o = thtl_find_object(&m, "ramp", NULL);
    TH_CHECK(o && o->shape == THTL_SHAPE_POLYGON && o->point_count == 3 && o->y == 64);
    if (o && o->point_count == 3) TH_CHECK(o->points[0].x == 0 && o->points[1].x == 32 && o->points[2].x == 32 && o->points[2].y == -16);
    o = thtl_find_object(&m, "rope", NULL);
    TH_CHECK(o && o->shape == THTL_SHAPE_POLYLINE && o->point_count == 3);
    if (o && o->point_count == 3) TH_CHECK(o->points[1].y == 24 && o->points[2].x == 8 && o->points[2].y == 32);
    o = thtl_find_object(&m, "sign", NULL);
    TH_CHECK(o && o->shape == THTL_SHAPE_TEXT && strcmp(o->text, "Hello cave") == 0 && o->width == 60);
    o = thtl_find_object(&m, "chest", NULL);
    TH_CHECK(o && o->shape == THTL_SHAPE_TILE && o->gid == (4 | THTL_FLIP_H) && o->y == 48);
    o = &l->objects[7];
    TH_CHECK(o->id == 8 && !o->visible && strcmp(o->name, "") == 0 && o->shape == THTL_SHAPE_RECT && o->height == 4);
    TH_CHECK(thtl_find_object(&m, "nobody", &layer) == NULL && layer == -1);
    TH_CHECK(thtl_find_layer(&m, "sky") == 4 && thtl_find_layer(&m, "decor") == -1 && thtl_find_layer(&m, NULL) == -1);
    thtl_free(&m);
}

// ---------------------------------------------------------------- the data formats

static const uint32_t SMALL[12] = { 0, 1, 2, 3, 4 | THTL_FLIP_H, 5, 6 | THTL_FLIP_V, 7, 16, 15 | THTL_FLIP_D, 0, 1 };

static bool small_cells(const thtl_map *m)
{
    if (m->layer_count != 1 || m->layers[0].width != 4 || m->layers[0].height != 3) return false;
    for (int i = 0; i < 12; i++)
        if (m->layers[0].gids[i] != SMALL[i]) { printf("    cell %d is %u, expected %u\n", i, m->layers[0].gids[i], SMALL[i]); return false; }
    return true;
}

static void test_array_base64_zlib_external(void)
{
    const char *files[] = { "csv.tmj", "zlib.tmj", "external_base64.tmj" };
    for (const char *f : files) {
        thtl_map m;
        int e = thtl_load_file((g_data + f).c_str(), NULL, &m);
        TH_CHECK_MSG(e == THTL_OK, "%s: %s", f, m.error);
        if (e) continue;
        seed(f, slurp(g_data + f));
        TH_CHECK_MSG(small_cells(&m), "%s", f);
        TH_CHECK(m.tileset_count == 1 && m.tilesets[0].tile_count == 16 && m.tilesets[0].columns == 4);
        thtl_tile_src src;
        TH_CHECK(thtl_tile_source(&m, 16, &src) && src.x == 24 && src.y == 24 && src.w == 8);
        thtl_free(&m);
    }
    // the external tileset read from disk, next to the map
    thtl_map m;
    int e = thtl_load_file((g_data + "external_base64.tmj").c_str(), NULL, &m);
    TH_CHECK_MSG(e == THTL_OK, "%s", m.error);
    if (!e) {
        TH_CHECK(strcmp(m.tilesets[0].source, "terrain.tsj") == 0 && strcmp(m.tilesets[0].name, "terrain") == 0);
        const thtl_tile *t = thtl_tile_info(&m, 6);
        TH_CHECK(t && strcmp(t->type, "lava") == 0 && t->properties[0].ival == 1);
        thtl_free(&m);
    }
    // gzip (as Tiled writes it) is refused by name
    e = thtl_load_file((g_data + "gzip.tmj").c_str(), NULL, &m);
    TH_CHECK_EQ_INT(e, THTL_ERR_UNSUPPORTED);
    TH_CHECK(has(m.error, "gzip") && has(m.error, "gzip.tmj") && has(m.error, "layer 'gz'"));
    // zstd likewise (Debian's Tiled does not write it: the zlib map with its compression renamed)
    std::string z = edit(slurp(g_data + "zlib.tmj"), "\"zlib\"", "\"zstd\"");
    TH_CHECK_EQ_INT(load_text(z, &m), THTL_ERR_UNSUPPORTED);
    TH_CHECK(has(m.error, "zstd"));
    // a map file passed a tileset
    TH_CHECK_EQ_INT(thtl_load_file((g_data + "terrain.tsj").c_str(), NULL, &m), THTL_ERR_FORMAT);
    TH_CHECK(has(m.error, "tileset"));
}

static int refuse_inflate(void *user, const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    (void)src; (void)n; (void)dst; (void)cap;
    ++*(int *)user;
    return -1;
}

static int short_inflate(void *user, const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    (void)user;
    int got = stbi_zlib_decode_buffer((char *)dst, (int)cap, (const char *)src, (int)n);
    return got > 4 ? got - 4 : got;
}

static void test_zlib_hook(void)
{
    std::string text = slurp(g_data + "zlib.tmj");
    thtl_settings set;
    memset(&set, 0, sizeof set);
    int calls = 0;
    set.inflate = refuse_inflate;
    set.inflate_user = &calls;
    thtl_map m;
    TH_CHECK_EQ_INT(load_text(text, &m, &set), THTL_ERR_ZLIB);
    TH_CHECK(calls == 1 && has(m.error, "damaged zlib"));
    set.inflate = short_inflate;
    TH_CHECK_EQ_INT(load_text(text, &m, &set), THTL_ERR_ZLIB);
    TH_CHECK(has(m.error, "decodes to 44 bytes"));
    // the stream's adler32 is checked by the reader: one byte of it changed
    const char *key = "\"data\":\"";
    size_t at = text.find(key);
    TH_CHECK(at != std::string::npos);
    if (at == std::string::npos) return;
    at += strlen(key);
    size_t end = text.find('"', at);
    std::string b64 = text.substr(at, end - at);
    std::vector<uint8_t> raw(b64.size());
    int64_t n = thtl__base64(b64.data(), b64.size(), raw.data(), raw.size());
    TH_CHECK(n > 10);
    if (n <= 10) return;
    raw.resize((size_t)n);
    raw.back() ^= 1;
    static const char *abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string enc;
    for (size_t i = 0; i < raw.size(); i += 3) {
        uint32_t v = (uint32_t)raw[i] << 16 | (i + 1 < raw.size() ? raw[i + 1] << 8 : 0) | (i + 2 < raw.size() ? raw[i + 2] : 0);
        enc += abc[v >> 18 & 63];
        enc += abc[v >> 12 & 63];
        enc += i + 1 < raw.size() ? abc[v >> 6 & 63] : '=';
        enc += i + 2 < raw.size() ? abc[v & 63] : '=';
    }
    TH_CHECK_EQ_INT(load_text(text.substr(0, at) + enc + text.substr(end), &m), THTL_ERR_ZLIB);
    TH_CHECK(has(m.error, "adler32"));
}

// ---------------------------------------------------------------- the read hook

struct Files { std::string tileset; int reads, releases; std::string last_path; };
static const void *read_hook(void *user, const char *path, size_t *size)
{
    Files *f = (Files *)user;
    f->reads++;
    f->last_path = path;
    if (f->tileset.empty()) return NULL;
    *size = f->tileset.size();
    return f->tileset.data();
}
static void release_hook(void *user, const void *data, size_t size) { (void)data; (void)size; ((Files *)user)->releases++; }

static void test_read_hook(void)
{
    std::string map = slurp(g_data + "external_base64.tmj");
    Files files = { slurp(g_data + "terrain.tsj"), 0, 0, "" };
    thtl_settings set;
    memset(&set, 0, sizeof set);
    set.read_file = read_hook;
    set.release_file = release_hook;
    set.file_user = &files;
    set.base_dir = "levels/";
    thtl_map m;
    int e = load_text(map, &m, &set);
    TH_CHECK_MSG(e == THTL_OK, "%s", m.error);
    TH_CHECK(files.reads == 1 && files.releases == 1 && files.last_path == "levels/terrain.tsj");
    if (!e) { TH_CHECK(small_cells(&m)); thtl_free(&m); }
    // the hook cannot find it: the message names the file
    files.tileset.clear();
    TH_CHECK_EQ_INT(load_text(map, &m, &set), THTL_ERR_FILE);
    TH_CHECK(has(m.error, "levels/terrain.tsj") && has(m.error, "could not be read"));
    // the tileset file is damaged: the message names it, and what is wrong in it
    files.tileset = edit(slurp(g_data + "terrain.tsj"), "\"tilewidth\":8", "\"tilewidth\":\"8\"");
    TH_CHECK_EQ_INT(load_text(map, &m, &set), THTL_ERR_FORMAT);
    TH_CHECK(has(m.error, "terrain.tsj") && has(m.error, "\"tilewidth\" is a string, not an integer"));
    files.tileset = slurp(g_data + "terrain.tsj").substr(0, 100);
    TH_CHECK_EQ_INT(load_text(map, &m, &set), THTL_ERR_JSON);
    TH_CHECK(has(m.error, "terrain.tsj: JSON ends early"));
    TH_CHECK(files.releases == files.reads - 1);   // every buffer it was given back, but the missing one
    // no base_dir: the source as written
    set.base_dir = NULL;
    files.tileset = slurp(g_data + "terrain.tsj");
    TH_CHECK(load_text(map, &m, &set) == THTL_OK && files.last_path == "terrain.tsj");
    thtl_free(&m);
    // from disk: a map whose tileset is not there
    char dir[] = "/tmp/th_tiled_test_XXXXXX";
    if (mkdtemp(dir)) {
        std::string path = std::string(dir) + "/lost.tmj";
        FILE *f = fopen(path.c_str(), "wb");
        std::string lost = edit(map, "terrain.tsj", "missing.tsj");
        if (f) { fwrite(lost.data(), 1, lost.size(), f); fclose(f); }
        TH_CHECK_EQ_INT(thtl_load_file(path.c_str(), NULL, &m), THTL_ERR_FILE);
        TH_CHECK(has(m.error, "lost.tmj") && has(m.error, (std::string(dir) + "/missing.tsj").c_str()));
        unlink(path.c_str());
        rmdir(dir);
    }
    TH_CHECK_EQ_INT(thtl_load_file("/nonexistent/map.tmj", NULL, &m), THTL_ERR_FILE);
    TH_CHECK(has(m.error, "/nonexistent/map.tmj"));
}

// ---------------------------------------------------------------- infinite maps

static int check_boxes(const thtl_layer *l, const thtl_box *boxes, int n);

static void test_infinite_chunks(void)
{
    // two 16x16 chunks, at (-16,-16) and (16,0): the layer's bounds are 48x32 cells from (-16,-16)
    const char *files[] = { "infinite.tmj", "infinite_zlib.tmj" };
    for (const char *f : files) {
        std::string text = slurp(g_data + f);
        seed(f, text);
        thtl_map m;
        int e = load_text(text, &m);
        TH_CHECK_MSG(e == THTL_OK, "%s: %s", f, m.error);
        if (e) continue;
        const thtl_layer *l = &m.layers[0];
        TH_CHECK(m.infinite == 1 && l->start_x == -16 && l->start_y == -16 && l->width == 48 && l->height == 32);
        TH_CHECK(thtl_gid_at(l, -16, -16) == (2 | THTL_FLIP_H) && thtl_gid_at(l, -15, -16) == 0);
        int wall = 0, column = 0;
        for (int x = -16; x < 0; x++) wall += thtl_gid_at(l, x, -1) == 4;
        for (int y = 0; y < 16; y++) column += thtl_gid_at(l, 19, y) == 5;
        TH_CHECK(wall == 16 && column == 16);
        TH_CHECK(thtl_gid_at(l, 0, 0) == 0 && thtl_gid_at(l, -17, -1) == 0 && thtl_gid_at(l, 32, 0) == 0 && thtl_gid_at(l, 19, 16) == 0);
        int n = 0;
        thtl_box *b = thtl_solid_boxes(&m, l, &n);
        TH_CHECK_MSG(n == 3, "%s: %d boxes", f, n);
        if (n == 3) {   // in map cells
            TH_CHECK(b[0].x == -16 && b[0].y == -16 && b[0].w == 1 && b[0].h == 1);
            TH_CHECK(b[1].x == -16 && b[1].y == -1 && b[1].w == 16 && b[1].h == 1);
            TH_CHECK(b[2].x == 19 && b[2].y == 0 && b[2].w == 1 && b[2].h == 16);
        }
        check_boxes(l, b, n);
        thtl_free_boxes(&m, b);
        thtl_free(&m);
    }
}

// ---------------------------------------------------------------- image collections

static void test_image_collection(void)
{
    // a tileset of separate images: no columns, each tile listed with its image; ids need not be contiguous
    auto map = [](const char *data) {
        return std::string("{\"orientation\":\"orthogonal\",\"width\":3,\"height\":1,\"tilewidth\":8,\"tileheight\":8,"
                           "\"tilesets\":[{\"firstgid\":1,\"name\":\"props\",\"columns\":0,\"tilecount\":2,\"tilewidth\":40,\"tileheight\":30,"
                           "\"tiles\":[{\"id\":7,\"image\":\"tree.png\",\"imagewidth\":40,\"imageheight\":30},"
                           "{\"id\":0,\"image\":\"rock.png\",\"imagewidth\":12,\"imageheight\":9,\"class\":\"solid\"}]}],"
                           "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"p\",\"width\":3,\"height\":1,\"data\":") + data + "}]}";
    };
    thtl_map m;
    int e = load_text(map("[1,0,8]"), &m);
    TH_CHECK_MSG(e == THTL_OK, "%s", m.error);
    if (!e) {
        thtl_tile_src src;
        TH_CHECK(thtl_tile_source(&m, 8, &src) && src.local_id == 7 && src.w == 40 && src.h == 30 && src.x == 0);
        TH_CHECK(thtl_tile_source(&m, 1, &src) && src.w == 12 && src.h == 9);
        const thtl_tile *t = thtl_tile_info(&m, 1);
        TH_CHECK(t && strcmp(t->image, "rock.png") == 0 && strcmp(t->type, "solid") == 0);
        TH_CHECK(m.tilesets[0].tiles[0].id == 0 && m.tilesets[0].tiles[1].id == 7);   // sorted by id
        thtl_free(&m);
    }
    // gid 2 is below tilecount but no tile has id 1: refused, as no image would draw it
    TH_CHECK_EQ_INT(load_text(map("[1,2,8]"), &m), THTL_ERR_FORMAT);
    TH_CHECK(has(m.error, "cell (1,0) has gid 2, past every tileset"));
}

// ---------------------------------------------------------------- Tiled 1.9's class

static void test_class_field(void)
{
    // Tiled 1.9 renamed an object's "type" to "class" (and gave maps, layers and tiles a "class")
    std::string text = slurp(g_data + "cave.tmj");
    text = edit(text, "\"type\":\"player\"", "\"class\":\"hero\"");
    text = edit(text, "\"name\":\"ground\",", "\"name\":\"ground\", \"class\":\"floor\",");
    text = edit(text, "\"type\":\"wall\"", "\"class\":\"solid\"");
    text = edit(text, "\"compressionlevel\":-1,", "\"compressionlevel\":-1, \"class\":\"dungeon\",");
    seed("cave_class.tmj", text);
    thtl_map m;
    int e = load_text(text, &m);
    TH_CHECK_MSG(e == THTL_OK, "%s", m.error);
    if (e) return;
    const thtl_object *o = thtl_find_object(&m, "spawn", NULL);
    TH_CHECK(o && strcmp(o->type, "hero") == 0);
    TH_CHECK(strcmp(m.layers[0].type_class, "floor") == 0 && strcmp(m.type_class, "dungeon") == 0);
    const thtl_tile *t = thtl_tile_info(&m, 4);
    TH_CHECK(t && strcmp(t->type, "solid") == 0);
    thtl_free(&m);
}

// ---------------------------------------------------------------- collision boxes

static std::string tile_map_json(int w, int h, const std::vector<uint32_t> &cells, const char *name = "collision")
{
    std::string s = "{\"orientation\":\"orthogonal\",\"width\":" + std::to_string(w) + ",\"height\":" + std::to_string(h) +
                    ",\"tilewidth\":16,\"tileheight\":16,\"infinite\":false,\"type\":\"map\",\"tilesets\":[{\"firstgid\":1,\"name\":\"t\","
                    "\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,\"columns\":2,\"image\":\"t.png\",\"imagewidth\":32,\"imageheight\":32}],"
                    "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"" + std::string(name) + "\",\"id\":1,\"width\":" + std::to_string(w) +
                    ",\"height\":" + std::to_string(h) + ",\"data\":[";
    for (size_t i = 0; i < cells.size(); i++) { if (i) s += ','; s += std::to_string(cells[i]); }
    return s + "]}]}";
}

// boxes cover exactly the solid cells, once each; returns the row-run count
static int check_boxes(const thtl_layer *l, const thtl_box *boxes, int n)
{
    std::vector<int> cover((size_t)l->width * l->height, 0);
    for (int i = 0; i < n; i++) {
        const thtl_box &b = boxes[i];
        int bx = b.x - l->start_x, by = b.y - l->start_y;   // boxes are in map cells
        TH_CHECK(b.w > 0 && b.h > 0 && bx >= 0 && by >= 0 && bx + b.w <= l->width && by + b.h <= l->height);
        if (!(b.w > 0 && b.h > 0 && bx >= 0 && by >= 0 && bx + b.w <= l->width && by + b.h <= l->height)) continue;
        for (int y = by; y < by + b.h; y++)
            for (int x = bx; x < bx + b.w; x++) cover[(size_t)y * l->width + x]++;
    }
    int bad = 0, runs = 0;
    for (int y = 0; y < l->height; y++)
        for (int x = 0; x < l->width; x++) {
            bool solid = thtl_gid_at(l, x + l->start_x, y + l->start_y) != 0;
            if (solid && (x == 0 || thtl_gid_at(l, x - 1 + l->start_x, y + l->start_y) == 0)) runs++;
            if (cover[(size_t)y * l->width + x] != (solid ? 1 : 0)) bad++;
        }
    TH_CHECK_EQ_INT(bad, 0);
    return runs;
}

static int tile_is_solid(void *user, const thtl_map *m, uint32_t gid)
{
    (void)user;
    const thtl_tile *t = thtl_tile_info(m, gid);
    const thtl_property *p = t ? thtl_find_property(t->properties, t->property_count, "solid") : NULL;
    return p && p->type == THTL_PROP_BOOL && p->ival;
}

static void test_solid_boxes(void)
{
    // cave's walls: two columns of two, a run of two in the middle, the floor
    thtl_map m;
    TH_CHECK(thtl_load_file((g_data + "cave.tmj").c_str(), NULL, &m) == THTL_OK);
    int n = -5;
    thtl_box *b = thtl_solid_boxes(&m, &m.layers[thtl_find_layer(&m, "walls")], &n);
    TH_CHECK_EQ_INT(n, 4);
    if (n == 4) {
        TH_CHECK(b[0].x == 0 && b[0].y == 1 && b[0].w == 1 && b[0].h == 2);
        TH_CHECK(b[1].x == 5 && b[1].y == 1 && b[1].w == 1 && b[1].h == 2);
        TH_CHECK(b[2].x == 2 && b[2].y == 2 && b[2].w == 2 && b[2].h == 1);
        TH_CHECK(b[3].x == 0 && b[3].y == 3 && b[3].w == 6 && b[3].h == 1);
    }
    thtl_free_boxes(&m, b);
    TH_CHECK(thtl_solid_boxes(&m, &m.layers[thtl_find_layer(&m, "things")], &n) == NULL && n == -1);
    // solid by the tileset's word: ground's tiles whose "solid" property is true (gid 4, flipped or not) -
    // (3,0) and the flipped one below it, and the bottom row
    b = thtl_solid_boxes_if(&m, &m.layers[0], tile_is_solid, NULL, &n);
    TH_CHECK_EQ_INT(n, 2);
    if (n == 2) {
        TH_CHECK(b[0].x == 3 && b[0].y == 0 && b[0].w == 1 && b[0].h == 2);
        TH_CHECK(b[1].x == 0 && b[1].y == 3 && b[1].w == 6 && b[1].h == 1);
    }
    thtl_free_boxes(&m, b);
    thtl_free(&m);

    // 200x200: a border, rooms, pillars and noise from a fixed LCG (flip bits on some walls: still solid)
    const int W = 200, H = 200;
    std::vector<uint32_t> cells((size_t)W * H, 0);
    uint32_t rng = 12345;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            rng = rng * 1664525u + 1013904223u;
            bool wall = x == 0 || y == 0 || x == W - 1 || y == H - 1 || (x % 40 == 20 && y % 50 != 25) || (y % 30 == 15 && x % 33 > 3) ||
                        (x % 17 < 3 && y % 23 < 4) || (rng >> 24) < 6;
            if (wall) cells[(size_t)y * W + x] = (1 + (rng >> 8) % 4) | ((rng >> 4) & 1 ? THTL_FLIP_H : 0);
        }
    std::string text = tile_map_json(W, H, cells);
    seed("walls_40x40.tmj", tile_map_json(40, 40, std::vector<uint32_t>(cells.begin(), cells.begin() + 1600)));
    // a quick timing (not asserted: a shared machine): the median of 5 loads
    std::vector<double> ms;
    int e = THTL_OK;
    for (int k = 0; k < 5; k++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        e = load_text(text, &m);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ms.push_back((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
        if (k < 4 && !e) thtl_free(&m);
        if (e) break;
    }
    TH_CHECK_MSG(e == THTL_OK, "%s", m.error);
    if (e) return;
    std::sort(ms.begin(), ms.end());
    printf("    200x200 map, %lu bytes of JSON: parsed in %.2f ms (median of 5)\n", (unsigned long)text.size(), ms[2]);
    int layer = thtl_find_layer(&m, "collision");
    TH_CHECK(layer == 0);
    b = thtl_solid_boxes(&m, &m.layers[layer], &n);
    TH_CHECK(b != NULL && n > 0);
    int runs = check_boxes(&m.layers[layer], b, n);
    TH_CHECK_MSG(n <= runs, "%d boxes, %d row runs", n, runs);
    TH_CHECK_MSG(n < runs * 3 / 4, "vertical merging did little: %d boxes, %d row runs", n, runs);
    printf("    %d row runs merged into %d boxes\n", runs, n);
    thtl_free_boxes(&m, b);
    thtl_free(&m);

    // nothing solid, and everything solid
    std::vector<uint32_t> none(12, 0), all(12, 2);
    TH_CHECK(load_text(tile_map_json(4, 3, none), &m) == THTL_OK);
    TH_CHECK(thtl_solid_boxes(&m, &m.layers[0], &n) == NULL && n == 0);
    thtl_free(&m);
    TH_CHECK(load_text(tile_map_json(4, 3, all), &m) == THTL_OK);
    b = thtl_solid_boxes(&m, &m.layers[0], &n);
    TH_CHECK(n == 1 && b && b[0].w == 4 && b[0].h == 3);
    thtl_free_boxes(&m, b);
    thtl_free(&m);
}

// ---------------------------------------------------------------- damaged maps

static void test_truncated_at_every_byte(void)
{
    const char *files[] = { "cave.tmj", "zlib.tmj", "external_base64.tmj", "infinite_zlib.tmj" };
    Counts c = { 0, 0, -1 };
    thtl_settings set;
    memset(&set, 0, sizeof set);
    set.alloc = count_alloc;
    set.free = count_free;
    set.alloc_user = &c;
    set.base_dir = g_data.c_str();
    for (const char *f : files) {
        std::string text = slurp(g_data + f);
        size_t last = text.rfind('}');
        int accepted = 0, unnamed = 0;
        for (size_t i = 0; i < last; i++) {
            thtl_map m;
            std::vector<char> exact(text.begin(), text.begin() + (long)i);   // exactly i bytes: a read past them is ASan's
            if (thtl_load(exact.data(), i, &set, &m) == THTL_OK) { accepted++; thtl_free(&m); }
            else if (!m.error[0]) unnamed++;
        }
        TH_CHECK_MSG(accepted == 0, "%s: %d cut maps accepted", f, accepted);
        TH_CHECK_EQ_INT(unnamed, 0);
    }
    TH_CHECK_MSG(c.allocs == c.frees, "%d allocations, %d frees", c.allocs, c.frees);
    thtl_map m;
    TH_CHECK_EQ_INT(thtl_load("{\"width\":", 9, NULL, &m), THTL_ERR_JSON);
    TH_CHECK(has(m.error, "JSON ends early (line 1, column 10)"));
    TH_CHECK_EQ_INT(thtl_load("{\n \"a\": tru }", 13, NULL, &m), THTL_ERR_JSON);
    TH_CHECK(has(m.error, "line 2"));
    TH_CHECK_EQ_INT(thtl_load(NULL, 0, NULL, &m), THTL_ERR_ARGS);
    TH_CHECK_EQ_INT(thtl_load("", 0, NULL, NULL), THTL_ERR_ARGS);
    thtl_free(&m);
}

static void test_every_byte_flipped(void)
{
    std::string text = slurp(g_data + "csv.tmj");
    Counts c = { 0, 0, -1 };
    thtl_settings set;
    memset(&set, 0, sizeof set);
    set.alloc = count_alloc;
    set.free = count_free;
    set.alloc_user = &c;
    const char with[3] = { '"', '9', '\0' };
    int loaded = 0;
    for (size_t i = 0; i < text.size(); i++)
        for (char w : with) {
            std::string t = text;
            t[i] = w;
            thtl_map m;
            int e = load_text(t, &m, &set);
            if (e == THTL_OK) {
                loaded++;
                // what loads is consistent: every tile in a tileset, a source rectangle for each
                for (int li = 0; li < m.layer_count; li++)
                    for (int k = 0; k < m.layers[li].width * m.layers[li].height; k++) {
                        uint32_t g = m.layers[li].gids[k];
                        thtl_tile_src src;
                        if (thtl_gid_id(g) && !thtl_tile_source(&m, g, &src)) TH_CHECK_MSG(0, "byte %lu: gid %u has no source", (unsigned long)i, g);
                    }
                thtl_free(&m);
            } else TH_CHECK(m.error[0] != 0);
        }
    TH_CHECK(loaded > 0);   // some flips land in numbers that stay valid
    TH_CHECK_MSG(c.allocs == c.frees, "%d allocations, %d frees", c.allocs, c.frees);
}

static void test_bad_values(void)
{
    std::string cave = slurp(g_data + "cave.tmj"), csv = slurp(g_data + "csv.tmj");
    struct Case { std::string text; int code; const char *says; };
    std::vector<Case> cases = {
        { edit(cave, "\"version\":\"1.8\",\n \"width\":6", "\"width\":\"6\""), THTL_ERR_FORMAT, "map: \"width\" is a string, not an integer" },
        { edit(cave, "\"width\":6", "\"width\":\"6\""), THTL_ERR_FORMAT, "layer 'ground': \"width\" is a string, not an integer" },
        { edit(cave, "\"tilewidth\":16", "\"tilewidth\":16.5"), THTL_ERR_FORMAT, "\"tilewidth\" is 16.5, not an integer" },
        { edit(cave, "\"orientation\":\"orthogonal\"", "\"orientation\":\"isometric\""), THTL_ERR_UNSUPPORTED, "orientation 'isometric'" },
        { edit(slurp(g_data + "infinite.tmj"), "\"x\":16,", "\"x\":17,"), THTL_ERR_FORMAT, "layer 'world', chunks[1]: a 16x16 chunk at (17,0) is outside the layer's 48x32 cells from (-16,-16)" },
        { edit(slurp(g_data + "infinite.tmj"), "\"width\":16,", "\"width\":-16,"), THTL_ERR_FORMAT, "chunks[0]: \"width\" is -16, not an integer from 0 to 48" },
        { edit(slurp(g_data + "infinite.tmj"), "\"width\":48", "\"width\":47"), THTL_ERR_FORMAT, "outside the layer's 47x32 cells" },
        { edit(cave, "\"infinite\":false", "\"infinite\":1"), THTL_ERR_FORMAT, "\"infinite\" is a number, not a bool" },
        { edit(cave, "2147483649, 1073741826", "99, 1073741826"), THTL_ERR_FORMAT, "layer 'ground': cell (0,1) has gid 99, past every tileset" },
        { edit(cave, "\"gid\":2147483652", "\"gid\":2147483661"), THTL_ERR_FORMAT, "object 7: gid 13 is past every tileset" },
        { edit(cave, "[1, 2, 3, 4, 5, 6, 2147483649", "[1, 2, 3, 4, 5, 2147483649"), THTL_ERR_FORMAT, "\"data\" has 23 entries, width x height is 24" },
        { edit(cave, "[1, 2, 3, 4, 5, 6, 2147483649", "[1, 2, 3, 4, 5, 6, 7, 2147483649"), THTL_ERR_FORMAT, "\"data\" has 25 entries, width x height is 24" },
        { edit(cave, "[1, 2, 3, 4, 5, 6,", "[1, 2, -3, 4, 5, 6,"), THTL_ERR_FORMAT, "\"data\"[2] is not a gid" },
        { edit(cave, "[1, 2, 3, 4, 5, 6,", "[1, 2, 3.5, 4, 5, 6,"), THTL_ERR_FORMAT, "\"data\"[2] is not a gid" },
        { edit(cave, "[1, 2, 3, 4, 5, 6,", "[1, 2, 4294967296, 4, 5, 6,"), THTL_ERR_FORMAT, "\"data\"[2] is not a gid" },
        { edit(cave, "\"data\":[1, 2, 3", "\"data\":{\"a\":1}, \"x\":[1, 2, 3"), THTL_ERR_FORMAT, "\"data\" is an object, not an array or a base64 string" },
        { edit(cave, "\"type\":\"tilelayer\"", "\"type\":\"tiles\""), THTL_ERR_FORMAT, "\"type\" is not tilelayer" },
        { edit(cave, "\"type\":\"bool\"", "\"type\":\"boolean\""), THTL_ERR_FORMAT, "layer 'things', objects[0]: property 'friendly' has an unknown type" },
        { edit(cave, "\"value\":true", "\"value\":\"yes\""), THTL_ERR_FORMAT, "property 'dark' of type bool: its value is a string, not a bool" },
        { edit(cave, "\"value\":\"#ff336699\"", "\"value\":\"red\""), THTL_ERR_FORMAT, "color 'red'" },
        { edit(cave, "\"value\":3", "\"value\":3.25"), THTL_ERR_FORMAT, "property 'lives' of type int" },
        { edit(cave, "\"opacity\":0.5", "\"opacity\":1.5"), THTL_ERR_FORMAT, "layer 'decor' > layer 'walls': \"opacity\" is outside 0..1" },
        { edit(cave, "\"polygon\":[", "\"polygon\":7, \"x_\":["), THTL_ERR_FORMAT, "objects[3]: \"polygon\" is a number, not an array" },
        { edit(cave, "\"tileid\":11", "\"tileid\":12"), THTL_ERR_FORMAT, "\"tileid\" is 12, not an integer from 0 to 11" },
        { edit(cave, "\"firstgid\":1", "\"firstgid\":0"), THTL_ERR_FORMAT, "tilesets[0]: \"firstgid\" is 0" },
        { edit(cave, "\"columns\":4", "\"columns\":0"), THTL_ERR_FORMAT, "tileset with an image has 0 columns" },
        { edit(cave, "\"tilecount\":12", "\"tilecount\":268435455"), THTL_ERR_FORMAT, "tilecount" },
        { edit(cave, "\"layers\":[", "\"layerz\":["), THTL_ERR_FORMAT, "map: \"layers\" is missing" },
        // huge sizes: refused before anything is allocated for them
        { edit(edit(csv, "\"width\":4", "\"width\":2147483647"), "\"width\":4", "\"width\":2147483647"), THTL_ERR_LIMIT, "over max_dimension" },
        { edit(csv, "\"width\":4", "\"width\":1e300"), THTL_ERR_FORMAT, "\"width\" is 1e300, not an integer" },
        { edit(csv, "\"width\":4", "\"width\":4294967300"), THTL_ERR_FORMAT, "not an integer from 0 to 2147483647" },
        { edit(edit(csv, "\"height\":3,\n         \"id\"", "\"height\":16384, \"id\""), "\"width\":4", "\"width\":16384"), THTL_ERR_LIMIT, "more tile cells than max_cells" },
        { edit(csv, "\"width\":4", "\"width\":5"), THTL_ERR_FORMAT, "\"data\" has 12 entries, width x height is 15" },
        { edit(slurp(g_data + "external_base64.tmj"), "\"width\":4", "\"width\":5"), THTL_ERR_FORMAT, "\"data\" decodes to 48 bytes, width x height x 4 is 60" },
        { edit(slurp(g_data + "external_base64.tmj"), "\"data\":\"AAAA", "\"data\":\"A*AA"), THTL_ERR_FORMAT, "\"data\" is not base64" },
        { edit(slurp(g_data + "external_base64.tmj"), "\"encoding\":\"base64\"", "\"encoding\":\"csv\""), THTL_ERR_FORMAT, "\"encoding\" is not \"base64\"" },
        { edit(cave, "\"orientation\":\"orthogonal\"", "\"orientation\":\"orthogonal\", \"orientation\\u0000\":1, \"bad\":\"\\x\""), THTL_ERR_JSON, "unknown escape" },
        { "[1,2]", THTL_ERR_FORMAT, "not an object" },
        { "{} {}", THTL_ERR_JSON, "more after the JSON value" },
        { "{\"a\":01}", THTL_ERR_JSON, "',' or '}' expected" },
        { "{\"a\":\"\x01\"}", THTL_ERR_JSON, "control character" },
        { "{\"a\":-}", THTL_ERR_JSON, "no digits" },
        { "{\"a\":1.}", THTL_ERR_JSON, "no digits after" },
        { "{\"a\":1e}", THTL_ERR_JSON, "no exponent digits" },
        { "{\"a\":\"\\u12\"}", THTL_ERR_JSON, "non-hex" },
        { "{a:1}", THTL_ERR_JSON, "name is not a string" },
    };
    thtl_settings from_data;   // external tilesets next to the maps
    memset(&from_data, 0, sizeof from_data);
    from_data.base_dir = g_data.c_str();
    for (const Case &k : cases) {
        thtl_map m;
        int e = load_text(k.text, &m, &from_data);
        TH_CHECK_MSG(e == k.code, "expected code %d, got %d (%s) for '%s'", k.code, e, m.error, k.says);
        TH_CHECK_MSG(strstr(m.error, k.says) != NULL, "message '%s' does not say '%s'", m.error, k.says);
        if (e == THTL_OK) thtl_free(&m);
    }
    // deep nesting stops at max_depth, long before the stack does
    std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
    thtl_map m;
    TH_CHECK_EQ_INT(load_text(deep, &m), THTL_ERR_JSON);
    TH_CHECK(has(m.error, "max_depth"));
    // escapes decode (\u with a surrogate pair) and a UTF-8 byte order mark is allowed
    std::string esc = "\xEF\xBB\xBF" + edit(cave, "\"name\":\"ground\"", "\"name\":\"gr\\u00f6und \\ud83d\\ude00 \\\"q\\\"\"");
    TH_CHECK(load_text(esc, &m) == THTL_OK);
    TH_CHECK(m.layer_count > 0 && strcmp(m.layers[0].name, "gr\xC3\xB6und \xF0\x9F\x98\x80 \"q\"") == 0);
    thtl_free(&m);
    // a color written #RRGGBB is opaque; an empty one (Tiled's "no color") is 0
    TH_CHECK(load_text(edit(edit(cave, "\"#ff336699\"", "\"#336699\""), "\"#80ff0000\"", "\"\""), &m) == THTL_OK);
    const thtl_property *p = thtl_find_property(m.properties, m.property_count, "tint");
    TH_CHECK(p && p->ival == 0xff336699);
    const thtl_object *o = thtl_find_object(&m, "spawn", NULL);
    p = o ? thtl_find_property(o->properties, o->property_count, "glow") : NULL;
    TH_CHECK(p && p->type == THTL_PROP_COLOR && p->ival == 0 && strcmp(p->str, "") == 0);
    thtl_free(&m);
    // a lower limit refuses what the default takes
    thtl_settings set;
    memset(&set, 0, sizeof set);
    set.max_layers = 2;
    TH_CHECK_EQ_INT(load_text(cave, &m, &set), THTL_ERR_LIMIT);
    TH_CHECK(has(m.error, "max_layers"));
    set.max_layers = 0;
    set.max_objects = 7;
    TH_CHECK_EQ_INT(load_text(cave, &m, &set), THTL_ERR_LIMIT);
    set.max_objects = 0;
    set.max_depth = 3;
    TH_CHECK_EQ_INT(load_text(cave, &m, &set), THTL_ERR_JSON);
}

static void test_failing_allocations(void)
{
    std::string text = slurp(g_data + "cave.tmj");
    int refused = 0;
    for (int k = 0; k < 64; k++) {
        Counts c = { 0, 0, k };
        thtl_settings set;
        memset(&set, 0, sizeof set);
        set.alloc = count_alloc;
        set.free = count_free;
        set.alloc_user = &c;
        thtl_map m;
        int e = load_text(text, &m, &set);
        if (e == THTL_OK) { thtl_free(&m); break; }
        refused++;
        TH_CHECK_MSG(e == THTL_ERR_MEMORY && has(m.error, "out of memory"), "allocation %d: %d %s", k, e, m.error);
        TH_CHECK_MSG(c.allocs == c.frees, "allocation %d failing: %d allocations, %d frees", k, c.allocs, c.frees);
    }
    TH_CHECK(refused >= 2 && refused < 64);
}

int main(void)
{
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/unit/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/unit/");
    g_data = (at == std::string::npos ? std::string("./") : here.substr(0, at)) + "tests/data/tiled/";
    TH_RUN(test_manual_example);
    TH_RUN(test_cave_map_and_tileset);
    TH_RUN(test_cave_layers_and_groups);
    TH_RUN(test_cave_objects);
    TH_RUN(test_array_base64_zlib_external);
    TH_RUN(test_zlib_hook);
    TH_RUN(test_read_hook);
    TH_RUN(test_infinite_chunks);
    TH_RUN(test_image_collection);
    TH_RUN(test_class_field);
    TH_RUN(test_solid_boxes);
    TH_RUN(test_truncated_at_every_byte);
    TH_RUN(test_every_byte_flipped);
    TH_RUN(test_bad_values);
    TH_RUN(test_failing_allocations);
    return th_test_finish();
}
