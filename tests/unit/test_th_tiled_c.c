/* th_tiled.h compiled as C99, with THTL_NO_STDIO and no inflater: load a 3x2 map written here (an array layer
   with a flipped tile, an object layer), look tiles and objects up, merge the solid cells into boxes; refuse
   the same text cut short, zlib data (no inflater) and an external tileset (no read hook, no stdio). */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define THTL_NO_STDIO
#define TH_TILED_IMPLEMENTATION
#include "th_tiled.h"

#include <string.h>

static const char MAP[] =
    "{\"orientation\":\"orthogonal\",\"width\":3,\"height\":2,\"tilewidth\":16,\"tileheight\":16,\"infinite\":false,"
    "\"tilesets\":[{\"firstgid\":1,\"name\":\"t\",\"tilewidth\":16,\"tileheight\":16,\"tilecount\":4,\"columns\":2,"
    "\"image\":\"t.png\",\"imagewidth\":32,\"imageheight\":32}],"
    "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"collision\",\"width\":3,\"height\":2,\"data\":[1,1,0,2147483652,3,0]},"
    "{\"type\":\"objectgroup\",\"name\":\"things\",\"objects\":[{\"id\":1,\"name\":\"door\",\"class\":\"exit\",\"x\":8,\"y\":4,"
    "\"polygon\":[{\"x\":0,\"y\":0},{\"x\":4,\"y\":0},{\"x\":4,\"y\":4}]}]}]}";

static void test_c_load(void)
{
    thtl_map m;
    size_t n = strlen(MAP), i;
    int count = 0, e = thtl_load(MAP, n, NULL, &m);
    thtl_tile_src src;
    thtl_box *boxes;
    const thtl_object *o;
    TH_CHECK_EQ_INT(e, THTL_OK);
    if (e != THTL_OK) return;
    TH_CHECK(m.layer_count == 2 && m.width == 3 && thtl_find_layer(&m, "collision") == 0);
    TH_CHECK(thtl_gid_at(&m.layers[0], 0, 1) == (4u | THTL_FLIP_H) && thtl_gid_id(thtl_gid_at(&m.layers[0], 0, 1)) == 4);
    TH_CHECK(thtl_tile_source(&m, 4u | THTL_FLIP_H, &src) && src.x == 16 && src.y == 16 && src.flips == THTL_FLIP_H);
    o = thtl_find_object(&m, "door", NULL);
    TH_CHECK(o && strcmp(o->type, "exit") == 0 && o->shape == THTL_SHAPE_POLYGON && o->point_count == 3 && o->points[2].y == 4);
    /* rows: [0,2) then [0,2): one box of 2x2 */
    boxes = thtl_solid_boxes(&m, &m.layers[0], &count);
    TH_CHECK(count == 1 && boxes && boxes[0].x == 0 && boxes[0].y == 0 && boxes[0].w == 2 && boxes[0].h == 2);
    thtl_free_boxes(&m, boxes);
    thtl_free(&m);
    for (i = 0; i < n; i++) TH_CHECK(thtl_load(MAP, i, NULL, &m) != THTL_OK && m.error[0]);
}

static void test_c_refusals(void)
{
    static const char zlib[] =
        "{\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,"
        "\"layers\":[{\"type\":\"tilelayer\",\"name\":\"z\",\"width\":1,\"height\":1,\"encoding\":\"base64\","
        "\"compression\":\"zlib\",\"data\":\"eJxjYAAAAAQAAQ==\"}]}";
    static const char external[] =
        "{\"orientation\":\"orthogonal\",\"width\":1,\"height\":1,\"tilewidth\":8,\"tileheight\":8,"
        "\"tilesets\":[{\"firstgid\":1,\"source\":\"t.tsj\"}],\"layers\":[]}";
    thtl_map m;
    TH_CHECK_EQ_INT(thtl_load(zlib, strlen(zlib), NULL, &m), THTL_ERR_UNSUPPORTED);
    TH_CHECK(strstr(m.error, "no inflate function") != NULL);
    TH_CHECK_EQ_INT(thtl_load(external, strlen(external), NULL, &m), THTL_ERR_UNSUPPORTED);
    TH_CHECK(strstr(m.error, "t.tsj") != NULL);
}

int main(void)
{
    TH_RUN(test_c_load);
    TH_RUN(test_c_refusals);
    return th_test_finish();
}
