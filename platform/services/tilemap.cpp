/* tilemap.cpp - Tiled maps as live levels: what PlatformAPI.map_info, map_draw, map_objects, map_property and
   map_solids answer.

   A map is a Tiled JSON file (.tmj) under assets/maps/ - the game folder's first, the engine's as the fallback,
   as for sprites - named by its path there without ".tmj" ("level1", "caves/deep"). tinyheaders/th_tiled.h reads
   it (checked and fuzzed: tests/fuzz/fuzz_th_tiled.cpp), in this process, at start and again on every save of
   the map or of an external tileset (.tsj) it uses. A save that reads replaces the level at once and raises its
   generation (the game's map_changed() sees it); one that does not is one asset_error naming the file and
   th_tiled's message, and the last good level stays. A map whose first read failed has no level: map_info
   says 0, map_draw draws nothing.

   Tileset images are sprites: the image's path, taken relative to the tileset's file (the map's, or the .tsj's),
   must lie in a sprites folder (assets/sprites/ of the game or the engine), and the part below that folder
   without the extension is the sprite's name ("../sprites/tiles.png" from assets/maps/ is "tiles"). Tiles are
   rectangles of that atlas sprite, so a tileset PNG packs, reloads and ships like any sprite. An image that is
   missing or outside a sprites folder is said once when the map loads; its tiles draw as the checker. An animated
   tile draws the frame the host's clock (os_mono_seconds) is in.

   Collision: the tile layer named "collision" (visible or not), every non-zero cell solid; a map without one
   takes the tiles whose tileset entry has a bool property "solid" set, in every tile layer. thtl_solid_boxes
   merges the cells into few boxes, kept in pixels with the layer's offset. */
#include "render_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#define TH_TILED_IMPLEMENTATION
#define THTL_STB_ZLIB
#include "th_tiled.h"

static const size_t MAP_MAX_BYTES = 256u << 20; /* a map or tileset file bigger than this is refused */
static const int64_t MAP_DRAW_MAX_CELLS = 1 << 20; /* cells one layer's draw visits at most */
static const char *const MAPS_DIR = "assets/maps";
static const char *const PACKED_MAPS = "maps"; /* a release's archive: maps/<name>.tmj, tilesets beside */

struct MapLevel { /* one read of a map: what the services answer */
    thtl_map map = {};
    std::vector<std::vector<uint32_t>> tile_sprites; /* per tileset: the sprite per tiles entry (image collections) */
    std::vector<uint32_t> tileset_sprite;            /* per tileset: its image's sprite id (0: none) */
    std::vector<uint8_t> tileset_animated;           /* per tileset: 1 if a tile of it has animation frames */
    std::vector<const thtl_object *> objects;        /* every object layer's, in layer order */
    std::vector<int> object_layer;
    std::vector<GameMapBox> solids;
    int margin = 1;                 /* cells around the view drawn too (tiles bigger than a cell) */
    ~MapLevel() { thtl_free(&map); }
};

struct MapSlot {
    uint32_t id = 0;
    std::string name, path; /* "level1"; the file (a release: the archive entry) */
    int from_game = 0;
    MapLevel *level = nullptr; /* the last good read, NULL until one read */
    uint32_t generation = 0;
    int said_missing = 0; /* map_info on a map with no level: said once */
    std::vector<std::string> files; /* the external tilesets its last read asked for (a save of one reads it again) */
};

static struct TilemapState {
    std::string root, game; /* the engine's folder and the game's ("" when the same) */
    std::vector<MapSlot *> maps;
    std::vector<uint32_t> unknown_said; /* ids no map has, said once each */
} g_tilemap;

/* ---------------------------------------------------------------- paths */
/* dir + "/" + rel with "." and ".." taken out ('\' read as '/'); rel absolute: rel alone. */
static std::string path_join(const std::string &dir, const std::string &rel)
{
    std::string all = (!rel.empty() && (rel[0] == '/' || rel[0] == '\\')) || dir.empty() ? rel : dir + "/" + rel;
    std::vector<std::string> parts;
    size_t at = 0;
    bool absolute = !all.empty() && (all[0] == '/' || all[0] == '\\');
    while (at <= all.size()) {
        size_t e = all.find_first_of("/\\", at);
        if (e == std::string::npos) e = all.size();
        std::string p = all.substr(at, e - at);
        if (p == "..") {
            if (!parts.empty() && parts.back() != "..") parts.pop_back();
            else if (!absolute) parts.push_back(p);
        } else if (!p.empty() && p != ".") parts.push_back(p);
        at = e + 1;
    }
    std::string out = absolute ? "/" : "";
    for (size_t i = 0; i < parts.size(); i++) out += (i ? "/" : "") + parts[i];
    return out;
}

static std::string dir_of(const std::string &path)
{
    size_t s = path.find_last_of('/');
    return s == std::string::npos ? std::string() : path.substr(0, s);
}

/* The sprite name of an image path: the part below its last "sprites" folder, without the extension. */
static bool sprite_name_of(const std::string &image, std::string *name)
{
    size_t at = std::string::npos;
    for (size_t p = image.find("sprites/"); p != std::string::npos; p = image.find("sprites/", p + 1))
        if (p == 0 || image[p - 1] == '/') at = p + 8;
    if (at == std::string::npos || at >= image.size()) return false;
    std::string rest = image.substr(at);
    size_t dot = rest.find_last_of('.');
    *name = dot == std::string::npos || dot == 0 ? rest : rest.substr(0, dot);
    return true;
}

/* "level1" for <game or root>/assets/maps/level1.tmj (a release: maps/level1.tmj); from_game set. */
static bool map_name_of(const char *path, std::string *name, int *from_game)
{
    std::string p = path, rel;
    size_t n = p.size();
    if (n < 5 || p.compare(n - 4, 4, ".tmj") != 0) return false;
    std::string dirs[2] = { g_tilemap.game.empty() ? std::string() : g_tilemap.game + "/" + MAPS_DIR + "/",
                            archive_mounted() ? std::string(PACKED_MAPS) + "/"
                                              : g_tilemap.root + "/" + MAPS_DIR + "/" };
    for (int k = 0; k < 2; k++) {
        const std::string &d = dirs[k];
        if (d.empty() || p.compare(0, d.size(), d) != 0 || n - 4 <= d.size()) continue;
        *name = p.substr(d.size(), n - 4 - d.size());
        *from_game = k == 0;
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------- reading a map */
static const void *read_tileset(void *user, const char *path, size_t *size)
{
    std::vector<std::string> *files = (std::vector<std::string> *)user;
    std::string p = path_join("", path);
    files->push_back(p);
    char err[256];
    return archive_read(p.c_str(), size, MAP_MAX_BYTES, err, sizeof err);
}

static void release_tileset(void *, const void *data, size_t) { free((void *)data); }

static int solid_tile(void *, const thtl_map *m, uint32_t gid)
{
    const thtl_tile *t = thtl_tile_info(m, gid);
    const thtl_property *p = t ? thtl_find_property(t->properties, t->property_count, "solid") : nullptr;
    return p && p->type == THTL_PROP_BOOL && p->ival;
}

static void add_boxes(MapLevel *lv, const thtl_layer *l, thtl_box *boxes, int count)
{
    const thtl_map *m = &lv->map;
    for (int i = 0; i < count; i++) {
        GameMapBox b = { boxes[i].x * (float)m->tile_width + l->offset_x,
                         boxes[i].y * (float)m->tile_height + l->offset_y, boxes[i].w * (float)m->tile_width,
                         boxes[i].h * (float)m->tile_height };
        lv->solids.push_back(b);
    }
    thtl_free_boxes(m, boxes);
}

/* One tileset image's sprite id; a problem goes to *why (the first one said). */
static uint32_t image_sprite(const std::string &tileset_file, const char *image, const char *tileset, std::string *why)
{
    std::string resolved = path_join(dir_of(tileset_file), image), name;
    if (!sprite_name_of(resolved, &name)) {
        if (why->empty())
            *why = std::string("tileset '") + tileset + "': image '" + image +
                   "' is not in a sprites folder (assets/sprites/); its tiles draw as a checker";
        return 0;
    }
    uint32_t id = game_sprite_id(name.c_str());
    bool there = archive_mounted() ? render_sprite_lookup(id) != nullptr : os_is_file(resolved.c_str());
    if (!there && why->empty())
        *why =
            std::string("tileset '") + tileset + "': image '" + resolved + "' is missing; its tiles draw as a checker";
    return id;
}

/* Reads the slot's file into a new level; NULL and why on failure. */
static MapLevel *level_read(const MapSlot *s, std::vector<std::string> *files, std::string *why,
                            std::string *image_problem)
{
    char err[320];
    size_t len = 0;
    char *json = archive_read(s->path.c_str(), &len, MAP_MAX_BYTES, err, sizeof err);
    if (!json) {
        *why = err;
        return nullptr;
    }
    MapLevel *lv = new MapLevel;
    thtl_settings set;
    memset(&set, 0, sizeof set);
    std::string base = dir_of(s->path);
    set.base_dir = base.c_str();
    set.read_file = read_tileset;
    set.release_file = release_tileset;
    set.file_user = files;
    int r = thtl_load(json, len, &set, &lv->map);
    free(json);
    if (r != THTL_OK) {
        *why = lv->map.error;
        delete lv;
        return nullptr;
    }
    thtl_map *m = &lv->map;
    if (m->tile_width <= 0 || m->tile_height <= 0) {
        *why = "tile size is 0";
        delete lv;
        return nullptr;
    }
    int max_w = m->tile_width, max_h = m->tile_height;
    for (int t = 0; t < m->tileset_count; t++) {
        const thtl_tileset *ts = &m->tilesets[t];
        std::string file = ts->source[0] ? path_join(base, ts->source) : s->path;
        lv->tileset_sprite.push_back(ts->image[0] ? image_sprite(file, ts->image, ts->name, image_problem) : 0);
        std::vector<uint32_t> per_tile;
        for (int k = 0; k < ts->tile_info_count; k++) {
            const thtl_tile *tile = &ts->tiles[k];
            per_tile.push_back(tile->image[0] ? image_sprite(file, tile->image, ts->name, image_problem) : 0);
            if (tile->image_width > max_w) max_w = tile->image_width;
            if (tile->image_height > max_h) max_h = tile->image_height;
        }
        lv->tile_sprites.push_back(per_tile);
        uint8_t animated = 0;
        for (int k = 0; k < ts->tile_info_count; k++) animated |= ts->tiles[k].frame_count > 0;
        lv->tileset_animated.push_back(animated);
        max_w = std::max(max_w, ts->tile_width + abs(ts->tile_offset_x));
        max_h = std::max(max_h, ts->tile_height + abs(ts->tile_offset_y));
    }
    /* cells past the view's edge whose tile can still reach into it: a tile bigger than a cell (drawn up and right
       from its cell's bottom-left), and one more for the tile offset */
    lv->margin = 1 + std::max((max_w - 1) / m->tile_width, (max_h - 1) / m->tile_height);
    int collision = thtl_find_layer(m, "collision");
    for (int i = 0; i < m->layer_count; i++) {
        const thtl_layer *l = &m->layers[i];
        for (int k = 0; k < l->object_count; k++) {
            lv->objects.push_back(&l->objects[k]);
            lv->object_layer.push_back(i);
        }
        if (l->type != THTL_LAYER_TILE || (collision >= 0 && i != collision)) continue;
        int n = 0;
        thtl_box *boxes =
            collision >= 0 ? thtl_solid_boxes(m, l, &n) : thtl_solid_boxes_if(m, l, solid_tile, nullptr, &n);
        if (boxes) add_boxes(lv, l, boxes, n);
    }
    return lv;
}

/* (Re)reads a slot: a good read replaces the level and raises the generation; a bad one is said and changes
   nothing. */
static void slot_load(MapSlot *s, const char *why_now)
{
    double t0 = os_mono_seconds();
    std::string why, image_problem;
    std::vector<std::string> files;
    MapLevel *lv = level_read(s, &files, &why, &image_problem);
    s->files.swap(files);
    double ms = (os_mono_seconds() - t0) * 1000.0;
    if (!lv) {
        assets_error(s->path,
                     why + (s->level ? "; keeping the last good level" : "; the map has no level until it reads"));
        return;
    }
    if (!image_problem.empty()) assets_error(s->path, image_problem);
    delete s->level;
    s->level = lv;
    s->generation++;
    s->said_missing = 0;
    const thtl_map *m = &lv->map;
    log_message(LOG_INFO, "map %s: %dx%d cells, %d layers, %zu objects, %zu solid boxes (%s, %.1f ms)", s->name.c_str(),
                m->width, m->height, m->layer_count, lv->objects.size(), lv->solids.size(), why_now, ms);
    log_event("map_loaded",
              "\"name\":\"%s\",\"file\":\"%s\",\"generation\":%u,\"ms\":%.3f,\"objects\":%zu,\"solids\":%zu",
              assets_json_escaped(s->name).c_str(), assets_json_escaped(s->path).c_str(), s->generation, ms,
              lv->objects.size(), lv->solids.size());
}

static MapSlot *slot_find(uint32_t id)
{
    for (MapSlot *s : g_tilemap.maps)
        if (s->id == id) return s;
    return nullptr;
}

static MapSlot *slot_add(const std::string &name, const std::string &path, int from_game)
{
    uint32_t id = game_sprite_id(name.c_str());
    MapSlot *s = slot_find(id);
    if (s && s->from_game && !from_game) return nullptr; /* the game's own hides the engine's */
    if (s && !s->from_game && from_game) assets_note_override("map", name.c_str(), path.c_str(), s->path.c_str());
    if (s && s->name != name) {
        assets_error(path, "its name's id collides with map '" + s->name + "'; left out");
        return nullptr;
    }
    if (!s) {
        s = new MapSlot;
        s->id = id;
        s->name = name;
        g_tilemap.maps.push_back(s);
    }
    s->path = path;
    s->from_game = from_game;
    return s;
}

static void scan_entry(void *ctx, const char *entry, int is_dir)
{
    if (entry[0] == '.') return;
    std::string p = std::string((const char *)ctx) + "/" + entry, name;
    if (is_dir) {
        os_list_dir(p.c_str(), scan_entry, (void *)p.c_str());
        return;
    }
    int from_game = 0;
    if (map_name_of(p.c_str(), &name, &from_game)) slot_add(name, p, from_game);
}

/* ---------------------------------------------------------------- the module's functions (services.h) */
void tilemap_init(const char *root)
{
    tilemap_shutdown();
    g_tilemap.root = root;
    const char *game = g_host_mode.game_folder ? g_host_mode.game_folder() : NULL;
    char real_root[HOST_PATH];
    if (!os_real_path(root, real_root, sizeof real_root)) snprintf(real_root, sizeof real_root, "%s", root);
    g_tilemap.game = game && strcmp(game, real_root) != 0 && strcmp(game, root) != 0 ? game : "";
    if (archive_mounted()) {
        for (int i = 0; i < archive_count(); i++) {
            std::string name;
            int from_game = 0;
            if (map_name_of(archive_name(i), &name, &from_game)) slot_add(name, archive_name(i), 0);
        }
    } else {
        std::string dirs[2] = { g_tilemap.game.empty() ? std::string() : g_tilemap.game + "/" + MAPS_DIR,
                                g_tilemap.root + "/" + MAPS_DIR };
        for (const std::string &d : dirs)
            if (!d.empty()) os_list_dir(d.c_str(), scan_entry, (void *)d.c_str());
    }
    for (MapSlot *s : g_tilemap.maps) slot_load(s, "start");
}

void tilemap_file_changed(const char *path)
{
    std::string name;
    int from_game = 0;
    if (map_name_of(path, &name, &from_game)) {
        MapSlot *known = slot_find(game_sprite_id(name.c_str()));
        if (!os_is_file(path)) {
            if (known && known->path == path)
                assets_error(path, known->level ? "the file is gone; keeping the last good level" : "the file is gone");
            return;
        }
        if (known && known->from_game && !from_game) return;
        if (MapSlot *s = slot_add(name, path, from_game)) slot_load(s, "saved");
        return;
    }
    std::string p = path_join("", path); /* an external tileset: every map whose last read asked for it */
    for (MapSlot *s : g_tilemap.maps) {
        bool uses = false;
        for (const std::string &f : s->files) uses = uses || f == p;
        if (uses) slot_load(s, "tileset saved");
    }
}

void tilemap_shutdown(void)
{
    for (MapSlot *s : g_tilemap.maps) {
        delete s->level;
        delete s;
    }
    g_tilemap.maps.clear();
    g_tilemap.unknown_said.clear();
}

/* ---------------------------------------------------------------- the services */
/* The slot's level, or NULL said once: an id no map has, or a map that never read. */
static const MapLevel *level_of(uint32_t id, const char *service)
{
    MapSlot *s = slot_find(id);
    if (s && s->level) return s->level;
    if (s && !s->said_missing) {
        s->said_missing = 1;
        log_message(LOG_WARN, "%s: map '%s' has no level (%s did not read)", service, s->name.c_str(), s->path.c_str());
        notice_post(LOG_WARN, "map '%s' has no level (%s did not read)", s->name.c_str(), s->path.c_str());
    } else if (!s) {
        for (uint32_t u : g_tilemap.unknown_said)
            if (u == id) return nullptr;
        if (g_tilemap.unknown_said.size() < 256) g_tilemap.unknown_said.push_back(id);
        log_message(LOG_WARN, "%s: no map has id 0x%08x (a file assets/maps/<name>.tmj, id game_map_id(\"<name>\"))",
                    service, id);
        notice_post(LOG_WARN, "%s: no map has id 0x%08x", service, id);
    }
    return nullptr;
}

static int api_map_info(uint32_t map, GameMapInfo *out)
{
    const MapLevel *lv = level_of(map, "map_info");
    if (!lv || !out) return 0;
    const thtl_map *m = &lv->map;
    memset(out, 0, sizeof *out);
    out->width = m->width;
    out->height = m->height;
    out->tile_width = m->tile_width;
    out->tile_height = m->tile_height;
    out->pixel_width = (float)m->width * (float)m->tile_width;
    out->pixel_height = (float)m->height * (float)m->tile_height;
    out->layer_count = m->layer_count;
    out->object_count = (int32_t)lv->objects.size();
    out->solid_count = (int32_t)lv->solids.size();
    out->generation = slot_find(map)->generation;
    return 1;
}

/* An animated tile's frame at now_ms (Tiled's frames: a local tile id and a duration each, looping), the gid's
   flips kept; the gid itself when the tile is not animated. */
static uint32_t animated_gid(const thtl_map *m, uint32_t gid, double now_ms)
{
    const thtl_tile *info = thtl_tile_info(m, gid);
    if (!info || info->frame_count <= 0) return gid;
    int64_t total = 0;
    for (int f = 0; f < info->frame_count; f++) total += std::max(0, info->frames[f].duration_ms);
    if (total <= 0 || !(now_ms >= 0)) return gid;
    int64_t t = (int64_t)fmod(now_ms, (double)total);
    const thtl_tileset *ts = &m->tilesets[thtl_tileset_of(m, gid)];
    for (int f = 0; f < info->frame_count; f++) {
        int d = std::max(0, info->frames[f].duration_ms);
        if (t < d) return (gid & ~THTL_GID_MASK) | ((ts->firstgid + (uint32_t)info->frames[f].tile_id) & THTL_GID_MASK);
        t -= d;
    }
    return gid;
}

/* One tile layer's cells in view (cam_* in world pixels, view_* its size): returns the tiles submitted. */
static int draw_layer_cells(const MapLevel *lv, const thtl_layer *l, float cam_x, float cam_y, float view_w,
                            float view_h, int draw_layer, double now_ms)
{
    const thtl_map *m = &lv->map;
    const float tw = (float)m->tile_width, th = (float)m->tile_height;
    /* parallax: the layer moves with the camera by its factor (1: with the world) */
    float ox = l->offset_x + cam_x * (1.0f - l->parallax_x), oy = l->offset_y + cam_y * (1.0f - l->parallax_y);
    float fx0 = floorf((cam_x - ox) / tw), fy0 = floorf((cam_y - oy) / th);
    float fx1 = floorf((cam_x + view_w - ox) / tw), fy1 = floorf((cam_y + view_h - oy) / th);
    int lx0 = l->start_x, ly0 = l->start_y, lx1 = l->start_x + l->width - 1, ly1 = l->start_y + l->height - 1;
    if (!(fx0 <= (float)lx1 + lv->margin && fx1 >= (float)lx0 - lv->margin && fy0 <= (float)ly1 + lv->margin &&
          fy1 >= (float)ly0 - lv->margin))
        return 0; /* out of view, or the numbers are not finite */
    /* clamped as floats first: a far camera or a tiny zoom gives numbers no int holds */
    int x0 = std::max(lx0, (int)std::max(fx0, (float)lx0) - lv->margin);
    int x1 = std::min(lx1, (int)std::min(fx1, (float)lx1) + lv->margin);
    int y0 = std::max(ly0, (int)std::max(fy0, (float)ly0) - lv->margin);
    int y1 = std::min(ly1, (int)std::min(fy1, (float)ly1) + lv->margin);
    /* a view over more cells than the sprite batch could ever take (a tiny zoom on a huge map) is cut to its top
       rows: the call stays a few milliseconds, never a stall inside a service the watchdog waits for */
    if ((int64_t)(x1 - x0 + 1) * (y1 - y0 + 1) > MAP_DRAW_MAX_CELLS)
        y1 = y0 + (int)(MAP_DRAW_MAX_CELLS / (x1 - x0 + 1));
    float a = l->opacity < 0 ? 0 : l->opacity > 1 ? 1 : l->opacity;
    uint32_t color = 0xFFFFFF00u | (uint32_t)(a * 255.0f + 0.5f);
    int drawn = 0;
    for (int cy = y0; cy <= y1; cy++) {
        const uint32_t *row = l->gids + (size_t)(cy - l->start_y) * (size_t)l->width;
        for (int cx = x0; cx <= x1; cx++) {
            uint32_t gid = row[cx - l->start_x];
            thtl_tile_src src;
            if (!gid) continue;
            int t = thtl_tileset_of(m, gid);
            if (t >= 0 && lv->tileset_animated[(size_t)t]) {   /* a frame that names no tile keeps the tile itself */
                uint32_t frame = animated_gid(m, gid, now_ms);
                if (frame != gid && thtl_tile_source(m, frame, &src)) gid = frame;
            }
            if (!thtl_tile_source(m, gid, &src)) continue;
            const thtl_tileset *ts = &m->tilesets[src.tileset];
            uint32_t sprite = lv->tileset_sprite[(size_t)src.tileset];
            float sw = (float)src.w, sh = (float)src.h;
            if (!ts->image[0]) { /* an image collection: the tile's own image, whole */
                const thtl_tile *info = thtl_tile_info(m, gid);
                if (!info) continue;
                sprite = lv->tile_sprites[(size_t)src.tileset][(size_t)(info - ts->tiles)];
                sw = (float)info->image_width, sh = (float)info->image_height;
            }
            /* Tiled draws a tile with its bottom-left at the cell's, moved by the tileset's tile offset */
            float x = (float)cx * tw + ox + (float)ts->tile_offset_x;
            float y = (float)(cy + 1) * th - sh + oy + (float)ts->tile_offset_y;
            int flips = ((src.flips & THTL_FLIP_H) ? THSB_FLIP_X : 0) | ((src.flips & THTL_FLIP_V) ? THSB_FLIP_Y : 0);
            float rot = 0;
            if (src.flips & THTL_FLIP_D) { /* the diagonal first (a quarter turn of the V-flipped image), then H, V */
                rot = 1.5707963f;
                flips = ((src.flips & THTL_FLIP_V) ? THSB_FLIP_X : 0) | ((src.flips & THTL_FLIP_H) ? 0 : THSB_FLIP_Y);
            }
            render_push_region(sprite, (float)src.x, (float)src.y, sw, sh, x, y, sw, sh, rot, flips, color, draw_layer);
            drawn++;
        }
    }
    return drawn;
}

static int api_map_draw(uint32_t map, const char *layer, int draw_layer)
{
    const MapLevel *lv = level_of(map, "map_draw");
    if (!lv) return 0;
    PROFILE_ZONE("map_draw");
    float cam_x = 0, cam_y = 0, zoom = 1;
    if (draw_layer < GAME_LAYER_UI) render_camera(&cam_x, &cam_y, &zoom);
    int vw = 0, vh = 0;
    render_view_size(&vw, &vh);
    float view_w = (float)vw / zoom, view_h = (float)vh / zoom;
    char want[128];
    size_t n = 0;
    for (; layer && n < sizeof want - 1 && layer[n]; n++) want[n] = layer[n];
    want[n] = 0;
    int drawn = 0;
    double now_ms = os_mono_seconds() * 1000.0;   /* animated tiles: the host's clock, the same for every layer */
    for (int i = 0; i < lv->map.layer_count; i++) {
        const thtl_layer *l = &lv->map.layers[i];
        if (l->type != THTL_LAYER_TILE || (layer ? strcmp(l->name, want) != 0 : !l->visible)) continue;
        drawn += draw_layer_cells(lv, l, cam_x, cam_y, view_w, view_h, draw_layer, now_ms);
    }
    return drawn;
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = 0;
    for (; src && src[n] && n < cap - 1; n++) dst[n] = src[n];
    memset(dst + n, 0, cap - n);
}

static int api_map_objects(uint32_t map, int32_t first, GameMapObject *out, int32_t cap)
{
    const MapLevel *lv = level_of(map, "map_objects");
    if (!lv || !out || first < 0 || cap <= 0) return 0;
    int32_t count = (int32_t)lv->objects.size(), written = 0;
    for (int32_t i = first; i < count && written < cap; i++, written++) {
        const thtl_object *o = lv->objects[(size_t)i];
        const thtl_layer *l = &lv->map.layers[lv->object_layer[(size_t)i]];
        GameMapObject *g = &out[written];
        memset(g, 0, sizeof *g);
        g->id = (uint32_t)o->id;
        g->gid = o->gid;
        g->x = o->x + l->offset_x;
        g->y = o->y + l->offset_y;
        g->w = o->width;
        g->h = o->height;
        g->rotation = o->rotation;
        g->shape = (uint32_t)o->shape;
        g->layer = lv->object_layer[(size_t)i];
        copy_text(g->name, sizeof g->name, o->name);
        copy_text(g->type, sizeof g->type, o->type);
    }
    return written;
}

static int api_map_property(uint32_t map, uint32_t object_id, const char *name, GameMapValue *out)
{
    const MapLevel *lv = level_of(map, "map_property");
    if (!lv || !out || !name) return 0;
    char key[128];
    copy_text(key, sizeof key, name);
    const thtl_property *p = nullptr;
    if (object_id == 0) p = thtl_find_property(lv->map.properties, lv->map.property_count, key);
    for (const thtl_object *o : lv->objects)
        if (object_id && (uint32_t)o->id == object_id) {
            p = thtl_find_property(o->properties, o->property_count, key);
            break;
        }
    if (!p) return 0;
    static const uint32_t TYPES[] = { MAP_VALUE_STRING, MAP_VALUE_INT,  MAP_VALUE_FLOAT,  MAP_VALUE_BOOL,
                                      MAP_VALUE_COLOR,  MAP_VALUE_FILE, MAP_VALUE_OBJECT, MAP_VALUE_STRING };
    memset(out, 0, sizeof *out);
    out->type = p->type >= 0 && p->type <= THTL_PROP_CLASS ? TYPES[p->type] : (uint32_t)MAP_VALUE_NONE;
    out->i = p->ival;
    out->f = p->fval;
    if (p->type == THTL_PROP_COLOR) /* Tiled's 0xAARRGGBB as the engine's 0xRRGGBBAA */
        out->i = (int64_t)((((uint32_t)p->ival << 8) | ((uint32_t)p->ival >> 24)) & 0xFFFFFFFFu);
    copy_text(out->s, sizeof out->s, p->str);
    return 1;
}

static int api_map_solids(uint32_t map, int32_t first, GameMapBox *out, int32_t cap)
{
    const MapLevel *lv = level_of(map, "map_solids");
    if (!lv || !out || first < 0 || cap <= 0) return 0;
    int32_t count = (int32_t)lv->solids.size(), written = 0;
    for (int32_t i = first; i < count && written < cap; i++) out[written++] = lv->solids[(size_t)i];
    return written;
}

void tilemap_fill_api(PlatformAPI *pf)   /* the map services, in the contract's order */
{
    pf->map_info = api_map_info, pf->map_draw = api_map_draw, pf->map_objects = api_map_objects;
    pf->map_property = api_map_property, pf->map_solids = api_map_solids;
}
