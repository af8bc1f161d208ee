/* Tests for the host's Tiled maps (platform/services/tilemap.cpp), as a release reads them (maps from an archive,
   here files held in memory): a map's info, its solid boxes from the "collision" layer and from tiles marked
   "solid", its objects and properties (a colour turned into 0xRRGGBBAA), map_draw's culling to the view (every
   cell in view drawn, none far outside it), parallax and offsets, an animated tile's frames, Tiled's eight flip
   combinations against where the sprite batch puts each corner of the image, the tileset image rule, and reloads:
   a good save raises the generation, a bad one (cut short, gzip, a tile past the tileset) keeps the last good
   level with one message. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define THP_DISABLE
#include "services/tilemap.cpp"
#include "asset_report_stubs.h"   /* assets_error, log_message, log_event: kept in g_errors, g_warnings, g_events */

#include <map>
#include <string>
#include <vector>

/* ---------------------------------------------------------------- what tilemap.cpp calls */
static std::map<std::string, std::string> g_files;   /* the archive */
struct Push { uint32_t sprite; float sx, sy, sw, sh, x, y, w, h, rot; int flips; uint32_t color; int layer; };
static std::vector<Push> g_pushes;
static float g_cam_x, g_cam_y, g_zoom = 1;
static int g_view_w = 64, g_view_h = 48;

char *archive_read(const char *path, size_t *len, size_t, char *err, size_t cap)
{
    auto it = g_files.find(path);
    if (it == g_files.end()) { snprintf(err, cap, "%s: not in the archive", path); return NULL; }
    char *out = (char *)malloc(it->second.size() + 1);
    memcpy(out, it->second.data(), it->second.size());
    out[it->second.size()] = 0;
    *len = it->second.size();
    return out;
}
int archive_mounted(void) { return 1; }
int archive_count(void) { return (int)g_files.size(); }
const char *archive_name(int i)
{
    auto it = g_files.begin();
    std::advance(it, i);
    return it->first.c_str();
}
const SpriteInfo *render_sprite_lookup(uint32_t id)
{
    static SpriteInfo tiles = { game_sprite_id("tiles"), 0, 32, 32, 0.5f, 0.5f, 0, 0, 1, 1 };
    return id == tiles.id ? &tiles : nullptr;
}
void render_push_region(uint32_t sprite, float sx, float sy, float sw, float sh, float x, float y, float w, float h,
                        float rot, int flips, uint32_t color, int layer)
{
    g_pushes.push_back({ sprite, sx, sy, sw, sh, x, y, w, h, rot, flips, color, layer });
}
void render_camera(float *x, float *y, float *zoom) { *x = g_cam_x, *y = g_cam_y, *zoom = g_zoom; }
int render_view_size(int *w, int *h) { *w = g_view_w, *h = g_view_h; return 1; }
void assets_note_override(const char *, const char *, const char *, const char *) {}
int os_is_file(const char *path) { return g_files.count(path) != 0; }
int os_list_dir(const char *, os_dir_entry_fn *, void *) { return 0; }
int os_real_path(const char *, char *, size_t) { return 0; }
static double g_now;
double os_mono_seconds(void) { return g_now; }
const HostMode g_host_mode = HostMode();

/* ---------------------------------------------------------------- the map */
/* 20x10 cells of 16 px; a 2x2 tileset of 16 px tiles in sprites/tiles.png (tile 2 "solid"); layers: ground (every
   cell tile 1), deco (offset and parallax, one flipped tile), collision (hidden), objects (a pickup with an int and a
   colour property, a spawn point). */
static std::string level(const std::string &ground_extra = "", const char *image = "../sprites/tiles.png")
{
    std::string ground, deco, collision;
    for (int i = 0; i < 200; i++) {
        ground += std::string(i ? "," : "") + "1";
        deco += std::string(i ? "," : "") + (i == 21 ? std::to_string(0xA0000002u) : "0");   /* D | H, tile 2 */
        collision += std::string(i ? "," : "") + ((i / 20 == 9 || (i % 20 == 5 && i / 20 < 4)) ? "2" : "0");
    }
    return std::string("{\"width\":20,\"height\":10,\"tilewidth\":16,\"tileheight\":16,\"orientation\":\"orthogonal\","
                       "\"infinite\":false,\"properties\":[{\"name\":\"title\",\"type\":\"string\",\"value\":\"Yard\"}],"
                       "\"tilesets\":[{\"firstgid\":1,\"name\":\"tiles\",\"image\":\"") + image +
           "\",\"imagewidth\":32,\"imageheight\":32,\"tilewidth\":16,\"tileheight\":16,\"columns\":2,\"tilecount\":4,"
           "\"margin\":0,\"spacing\":0,\"tiles\":[{\"id\":1,\"properties\":[{\"name\":\"solid\",\"type\":\"bool\","
           "\"value\":true}]}]}],\"layers\":["
           "{\"type\":\"tilelayer\",\"name\":\"ground\",\"id\":1,\"width\":20,\"height\":10,\"visible\":true,"
           "\"opacity\":1,\"x\":0,\"y\":0,\"data\":[" + ground + ground_extra + "]},"
           "{\"type\":\"tilelayer\",\"name\":\"deco\",\"id\":2,\"width\":20,\"height\":10,\"visible\":true,"
           "\"opacity\":0.5,\"x\":0,\"y\":0,\"offsetx\":4,\"offsety\":-2,\"parallaxx\":0.5,\"data\":[" + deco + "]},"
           "{\"type\":\"tilelayer\",\"name\":\"collision\",\"id\":3,\"width\":20,\"height\":10,\"visible\":false,"
           "\"opacity\":1,\"x\":0,\"y\":0,\"data\":[" + collision + "]},"
           "{\"type\":\"objectgroup\",\"name\":\"objects\",\"id\":4,\"visible\":true,\"opacity\":1,\"x\":0,\"y\":0,"
           "\"offsetx\":10,\"objects\":["
           "{\"id\":7,\"name\":\"coin\",\"type\":\"pickup\",\"x\":40,\"y\":50,\"width\":8,\"height\":6,\"rotation\":0,"
           "\"visible\":true,\"properties\":[{\"name\":\"value\",\"type\":\"int\",\"value\":5},"
           "{\"name\":\"tint\",\"type\":\"color\",\"value\":\"#80ff0000\"}]},"
           "{\"id\":9,\"name\":\"spawn\",\"type\":\"spawn\",\"x\":24,\"y\":24,\"width\":0,\"height\":0,\"rotation\":0,"
           "\"visible\":true,\"point\":true}]}]}";
}

static const uint32_t LEVEL = game_sprite_id("level");

/* the ground layer's cells as base64 + gzip (refused before they are decoded) */
static std::string gzip_level(void)
{
    std::string text = level();
    size_t at = text.find("\"data\":[");
    size_t end = text.find(']', at);
    return text.replace(at, end + 1 - at, "\"encoding\":\"base64\",\"compression\":\"gzip\",\"data\":\"H4sIAAAAAAAA\"");
}

static void start(const std::string &text)
{
    g_files.clear();
    g_files["maps/level.tmj"] = text;
    g_errors.clear(), g_warnings.clear(), g_events.clear(), g_pushes.clear();
    tilemap_init(".");
}

/* ---------------------------------------------------------------- tests */
static void test_info_objects_properties(void)
{
    start(level());
    TH_CHECK_MSG(g_errors.empty(), "%s", g_errors.empty() ? "" : g_errors[0].c_str());
    GameMapInfo info;
    TH_CHECK(api_map_info(LEVEL, &info) == 1);
    TH_CHECK(info.width == 20 && info.height == 10 && info.tile_width == 16 && info.pixel_width == 320.0f);
    TH_CHECK(info.layer_count == 4 && info.object_count == 2 && info.generation == 1);
    GameMapObject objs[4];
    TH_CHECK_EQ_INT(api_map_objects(LEVEL, 0, objs, 4), 2);
    TH_CHECK(objs[0].id == 7 && !strcmp(objs[0].name, "coin") && !strcmp(objs[0].type, "pickup"));
    TH_CHECK(objs[0].x == 50 && objs[0].y == 50 && objs[0].w == 8 && objs[0].layer == 3);   /* the layer's offset */
    TH_CHECK(objs[1].shape == MAP_SHAPE_POINT && !strcmp(objs[1].type, "spawn"));
    TH_CHECK_EQ_INT(api_map_objects(LEVEL, 1, objs, 4), 1);
    GameMapValue v;
    TH_CHECK(api_map_property(LEVEL, 7, "value", &v) == 1 && v.type == MAP_VALUE_INT && v.i == 5);
    TH_CHECK(api_map_property(LEVEL, 7, "tint", &v) == 1 && v.type == MAP_VALUE_COLOR && v.i == 0xFF000080);
    TH_CHECK(api_map_property(LEVEL, 0, "title", &v) == 1 && !strcmp(v.s, "Yard"));
    TH_CHECK(api_map_property(LEVEL, 9, "value", &v) == 0 && api_map_property(LEVEL, 8, "value", &v) == 0);
}

static void test_solids(void)
{
    start(level());
    GameMapBox b[16];
    int n = api_map_solids(LEVEL, 0, b, 16);
    TH_CHECK_EQ_INT(n, 2);   /* the column x = 5, rows 0-3, and the bottom row: from the collision layer alone */
    float area = 0;
    for (int i = 0; i < n; i++) area += b[i].w * b[i].h;
    TH_CHECK(area == (4 + 20) * 256.0f);
    TH_CHECK(b[0].x == 80 && b[0].y == 0 && b[0].w == 16 && b[0].h == 64);
    /* no collision layer: the tiles marked "solid" (tile 2 in deco: one cell) */
    std::string text = level();
    size_t at = text.find("\"name\":\"collision\"");
    text.replace(at, 18, "\"name\":\"walls_off\"");
    start(text);
    n = api_map_solids(LEVEL, 0, b, 16);
    TH_CHECK_EQ_INT(n, 3);   /* deco's flipped tile 2, then walls_off's tile-2 cells (the column and the row) */
    TH_CHECK(b[0].x == 16 + 4 && b[0].y == 16 - 2);   /* deco's cell (1,1) with the layer's offset */
}

static void test_draw_culls_to_the_view(void)
{
    start(level());
    g_view_w = 64, g_view_h = 48, g_cam_x = 100, g_cam_y = 40, g_zoom = 1;
    g_pushes.clear();
    int n = api_map_draw(LEVEL, "ground", 3);
    TH_CHECK_EQ_INT(n, (int)g_pushes.size());
    /* every cell that meets the view is drawn; nothing beyond a few cells around it */
    for (int cy = 0; cy < 10; cy++)
        for (int cx = 0; cx < 20; cx++) {
            float x = cx * 16.0f, y = cy * 16.0f;
            bool meets = x + 16 > g_cam_x && x < g_cam_x + g_view_w && y + 16 > g_cam_y && y < g_cam_y + g_view_h;
            bool drawn = false;
            for (const Push &p : g_pushes) drawn = drawn || (p.x == x && p.y == y);
            TH_CHECK_MSG(!meets || drawn, "cell (%d,%d) in view not drawn", cx, cy);
        }
    for (const Push &p : g_pushes) {
        TH_CHECK(p.x > g_cam_x - 4 * 16 && p.x < g_cam_x + g_view_w + 3 * 16 && p.layer == 3);
        TH_CHECK(p.sprite == game_sprite_id("tiles") && p.sx == 0 && p.sy == 0 && p.sw == 16 && p.color == 0xFFFFFFFF);
    }
    TH_CHECK(n < 60);
    /* far away or not a number: nothing */
    g_pushes.clear();
    g_cam_x = 1e9f;
    TH_CHECK_EQ_INT(api_map_draw(LEVEL, NULL, 0), 0);
    g_cam_x = __builtin_nanf("");
    TH_CHECK_EQ_INT(api_map_draw(LEVEL, NULL, 0), 0);
    /* a tiny zoom: the whole map, once a layer */
    g_cam_x = g_cam_y = 0, g_zoom = 1e-30f;
    TH_CHECK_EQ_INT(api_map_draw(LEVEL, "ground", 0), 200);
    g_zoom = 1;
    /* NULL: the visible layers (not the hidden collision layer) */
    g_pushes.clear();
    g_cam_x = 0, g_cam_y = 0, g_view_w = 320, g_view_h = 160;
    TH_CHECK_EQ_INT(api_map_draw(LEVEL, NULL, 0), 201);
    /* screen layers ignore the camera */
    g_cam_x = 5000;
    TH_CHECK_EQ_INT(api_map_draw(LEVEL, "ground", GAME_LAYER_UI), 200);
}

static void test_offset_parallax_opacity(void)
{
    start(level());
    g_view_w = 320, g_view_h = 160, g_cam_x = 40, g_cam_y = 0, g_zoom = 1;
    g_pushes.clear();
    TH_CHECK_EQ_INT(api_map_draw(LEVEL, "deco", 0), 1);
    const Push &p = g_pushes[0];
    /* cell (1,1): 16 + offset 4 + camera 40 x (1 - parallax 0.5); y 16 - 2; half opacity; tile 2's rectangle */
    TH_CHECK_MSG(p.x == 16 + 4 + 20 && p.y == 14, "at %g %g", p.x, p.y);
    TH_CHECK(p.color == 0xFFFFFF80 && p.sx == 16 && p.sy == 0 && p.sw == 16 && p.sh == 16);
}

/* Where the sprite batch puts the image corner (u, v) (0 or 1 each) of a quad drawn with these flips and
   rotation, as a corner of the cell: th_spritebatch.h turns the local box by `rot` about its centre and swaps the
   UVs for the flips. */
static void batch_corner(int flips, float rot, int u, int v, int *cx, int *cy)
{
    /* the local corner holding (u, v): the flips swap which side the texel is on */
    float lx = ((u ^ ((flips & THSB_FLIP_X) != 0)) ? 0.5f : -0.5f), ly = ((v ^ ((flips & THSB_FLIP_Y) != 0)) ? 0.5f : -0.5f);
    float s = sinf(rot), c = cosf(rot);
    float x = lx * c - ly * s, y = lx * s + ly * c;
    *cx = x > 0, *cy = y > 0;
}

/* Tiled: the diagonal flip swaps x and y, then H mirrors x, then V mirrors y. */
static void tiled_corner(uint32_t gid, int u, int v, int *cx, int *cy)
{
    int x = u, y = v;
    if (gid & THTL_FLIP_D) { int t = x; x = y; y = t; }
    if (gid & THTL_FLIP_H) x = 1 - x;
    if (gid & THTL_FLIP_V) y = 1 - y;
    *cx = x, *cy = y;
}

static void test_flips_as_tiled_draws_them(void)
{
    for (uint32_t k = 0; k < 8; k++) {
        uint32_t gid = 2 | (k & 1 ? THTL_FLIP_H : 0) | (k & 2 ? THTL_FLIP_V : 0) | (k & 4 ? THTL_FLIP_D : 0);
        std::string text = level();
        std::string was = std::to_string(0xA0000002u);
        text.replace(text.find(was), was.size(), std::to_string(gid));
        start(text);
        g_cam_x = g_cam_y = 0, g_view_w = 320, g_view_h = 160;
        g_pushes.clear();
        TH_CHECK_EQ_INT(api_map_draw(LEVEL, "deco", 0), 1);
        const Push &p = g_pushes[0];
        for (int u = 0; u < 2; u++)
            for (int v = 0; v < 2; v++) {
                int bx, by, tx, ty;
                batch_corner(p.flips, p.rot, u, v, &bx, &by);
                tiled_corner(gid, u, v, &tx, &ty);
                TH_CHECK_MSG(bx == tx && by == ty, "gid flags %x: image corner (%d,%d) lands at (%d,%d), Tiled: (%d,%d)",
                             gid >> 28, u, v, bx, by, tx, ty);
            }
    }
}

/* A tile with Tiled's animation frames draws the frame the host's clock is in, looping. */
static void test_animated_tile(void)
{
    std::string text = level();
    std::string was = std::to_string(0xA0000002u);
    text.replace(text.find(was), was.size(), std::to_string(3u | THTL_FLIP_H));   /* local tile 2, flipped */
    const char *solid = "\"tiles\":[{\"id\":1,";
    text.replace(text.find(solid), strlen(solid), "\"tiles\":[{\"id\":2,\"animation\":[{\"tileid\":1,\"duration\":100},"
                                                  "{\"tileid\":3,\"duration\":50}]},{\"id\":1,");
    start(text);
    TH_CHECK_MSG(g_errors.empty(), "%s", g_errors.empty() ? "" : g_errors[0].c_str());
    g_cam_x = g_cam_y = 0, g_view_w = 320, g_view_h = 160, g_zoom = 1;
    struct { double now; float sx, sy; } want[] = { { 0.05, 16, 0 }, { 0.12, 16, 16 }, { 0.16, 16, 0 }, { 10.16, 16, 16 } };
    for (auto &w : want) {
        g_now = w.now;
        g_pushes.clear();
        TH_CHECK_EQ_INT(api_map_draw(LEVEL, "deco", 0), 1);
        TH_CHECK_MSG(g_pushes[0].sx == w.sx && g_pushes[0].sy == w.sy && g_pushes[0].flips == THSB_FLIP_X,
                     "at %.2f s: (%g, %g) flips %d", w.now, g_pushes[0].sx, g_pushes[0].sy, g_pushes[0].flips);
    }
    g_now = 0;
}

static void test_tileset_image_rule(void)
{
    start(level("", "../art/tiles.png"));
    TH_CHECK_EQ_INT((int)g_errors.size(), 1);
    TH_CHECK_MSG(g_errors[0].find("not in a sprites folder") != std::string::npos, "%s", g_errors[0].c_str());
    g_cam_x = g_cam_y = 0, g_view_w = 32, g_view_h = 16;
    g_pushes.clear();
    TH_CHECK(api_map_draw(LEVEL, "ground", 0) > 0 && g_pushes[0].sprite == 0);   /* the checker */
    start(level("", "../sprites/other.png"));   /* in a sprites folder, not in the atlas */
    TH_CHECK_MSG(g_errors.size() == 1 && g_errors[0].find("sprites/other.png' is missing") != std::string::npos, "%s",
                 g_errors.empty() ? "" : g_errors[0].c_str());
    TH_CHECK(path_join("maps", "../sprites/a/b.png") == "sprites/a/b.png");
    TH_CHECK(path_join("/g/assets/maps", "..\\sprites\\.\\t.png") == "/g/assets/sprites/t.png");
    TH_CHECK(path_join("", "../../x") == "../../x" && path_join("/a", "../../x") == "/x");
    std::string name;
    TH_CHECK(sprite_name_of("/g/assets/sprites/enemies/bat.png", &name) && name == "enemies/bat");
    TH_CHECK(!sprite_name_of("/g/assets/mysprites/bat.png", &name));
}

static void test_reloads(void)
{
    start(level());
    tilemap_file_changed("maps/level.tmj");
    GameMapInfo info;
    TH_CHECK(api_map_info(LEVEL, &info) && info.generation == 2);
    struct { const char *name; std::string text; const char *says; } bad[] = {
        { "cut short", level().substr(0, 700), "JSON" },
        { "gzip", gzip_level(), "gzip" },
        { "a tile past the tileset", level(",9"), "" },
    };
    for (auto &b : bad) {
        g_errors.clear();
        g_files["maps/level.tmj"] = b.text;
        tilemap_file_changed("maps/level.tmj");
        TH_CHECK_MSG(g_errors.size() == 1 && g_errors[0].find(b.says) != std::string::npos &&
                         g_errors[0].find("keeping the last good level") != std::string::npos,
                     "%s: %s", b.name, g_errors.empty() ? "(none)" : g_errors[0].c_str());
        TH_CHECK(api_map_info(LEVEL, &info) && info.generation == 2 && info.object_count == 2);
    }
    /* a first read that fails: no level, said once, and a later good save brings it */
    start(level().substr(0, 100));
    TH_CHECK_EQ_INT((int)g_errors.size(), 1);
    g_warnings.clear();
    TH_CHECK(api_map_info(LEVEL, &info) == 0 && api_map_draw(LEVEL, NULL, 0) == 0);
    TH_CHECK_EQ_INT((int)g_warnings.size(), 1);
    g_files["maps/level.tmj"] = level();
    tilemap_file_changed("maps/level.tmj");
    TH_CHECK(api_map_info(LEVEL, &info) == 1 && info.generation == 1);
    /* an id no map has: said once */
    g_warnings.clear();
    TH_CHECK(api_map_info(12345, &info) == 0 && api_map_info(12345, &info) == 0);
    TH_CHECK_EQ_INT((int)g_warnings.size(), 1);
    tilemap_shutdown();
}

int main(void)
{
    TH_RUN(test_info_objects_properties);
    TH_RUN(test_solids);
    TH_RUN(test_draw_culls_to_the_view);
    TH_RUN(test_offset_parallax_opacity);
    TH_RUN(test_flips_as_tiled_draws_them);
    TH_RUN(test_animated_tile);
    TH_RUN(test_tileset_image_rule);
    TH_RUN(test_reloads);
    return th_test_finish();
}
