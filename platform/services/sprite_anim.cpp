/* sprite_anim.cpp - the animations and slices of Aseprite files: what PlatformAPI.sprite_anim_info and
   sprite_slice answer.

   tools/atlas_pack turns each .aseprite/.ase file under a sprites folder into one atlas sprite per frame
   ("hero#0", "hero#1"...; "hero" is frame 0) and writes the frames' durations, the tags and the slices' keys to
   anims.txt beside
   the manifest (its format is at the top of tools/atlas_pack.cpp). assets.cpp reads that file with the manifest
   and hands it here when it installs the atlas, so frames and tags always change together.
   Errors: an anims.txt that does not parse is reported with the file and the line, and the previous table
           stays. A tag, slice or file the game asks for and the table does not have is said once by name -
           log, an "anim_missing" or "slice_missing" event and a notice - until the next table comes in; the
           game's helpers keep showing their last frame.
   Lookups are by sprite id in a hash map built when a table comes in (every frame's id, "hero#3", and the
   file's, "hero"), so an animated sprite's update costs a map lookup and a compare per tag of its file. */
#include "render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <unordered_map>
#include <vector>

struct AnimFile {
    uint32_t id;                       /* game_sprite_id(name) */
    std::string name, file;            /* "hero", "hero.aseprite" (below its sprites folder) */
    std::vector<uint16_t> durations;   /* per frame, ms */
    std::vector<uint32_t> frame_ids;   /* per frame, game_sprite_id("hero#<frame>") */
    std::vector<size_t> tags, slices;  /* indices in the table's tags and slices */
};

struct AnimTag {
    size_t file;                       /* index in files */
    std::string name;
    int from, to, direction, repeat;
};

struct AnimSlice {                     /* one key of a slice: in force from its frame until the file's next key */
    size_t file;
    std::string name;
    int frame;
    GameSlice at;                      /* at.frame unused */
};

struct FrameOf { size_t file; int frame; };

struct AnimTable {
    std::vector<AnimFile> files;
    std::vector<AnimTag> tags;
    std::vector<AnimSlice> slices;
    std::unordered_map<uint32_t, FrameOf> frames;   /* any frame's sprite id, and the file's (frame 0) */
};

static AnimTable g_anims;
static std::vector<std::string> g_anims_reported;   /* "<kind>/<file or id>/<name>" said once since the table came in */

static const int ANIM_MAX_FILE_FRAMES = 65536;

/* ---------------------------------------------------------------- reading anims.txt */
static std::vector<std::string> split_tabs(const std::string &line)
{
    std::vector<std::string> out;
    size_t at = 0;
    for (;;) {
        size_t t = line.find('\t', at);
        out.push_back(line.substr(at, t == std::string::npos ? std::string::npos : t - at));
        if (t == std::string::npos) return out;
        at = t + 1;
    }
}

static bool parse_int(const std::string &s, long lo, long hi, int *out)
{
    if (s.empty() || s.size() > 12) return false;
    char *end = nullptr;
    long v = strtol(s.c_str(), &end, 10);
    if (*end || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

static bool parse_anim(const std::vector<std::string> &f, AnimTable *t, std::string *why)
{
    AnimFile af;
    int n = 0;
    if (f.size() != 5 || f[1].empty() || !parse_int(f[3], 1, ANIM_MAX_FILE_FRAMES, &n)) {
        *why = "an anim record needs a name, a file, a frame count and durations";
        return false;
    }
    af.name = f[1];
    af.file = f[2];
    af.id = game_sprite_id(af.name.c_str());
    const char *p = f[4].c_str();
    for (int i = 0; i < n; i++) {
        char *end = nullptr;
        long d = strtol(p, &end, 10);
        if (end == p || d < 0 || d > 65535 || (*end && *end != ' ')) {
            *why = "a frame duration is not 0..65535";
            return false;
        }
        af.durations.push_back((uint16_t)d);
        af.frame_ids.push_back(game_sprite_id((af.name + "#" + std::to_string(i)).c_str()));
        p = *end ? end + 1 : end;
    }
    if (*p) { *why = "more durations than frames"; return false; }
    t->files.push_back(af);
    return true;
}

static size_t file_named(const AnimTable *t, const std::string &name)   /* its index, or files.size() */
{
    for (size_t i = 0; i < t->files.size(); i++) if (t->files[i].name == name) return i;
    return t->files.size();
}

/* "a b c d" into n ints within [lo, hi] */
static bool parse_ints(const std::string &s, int n, long lo, long hi, int *out)
{
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t sp = s.find(' ', at);
        if ((sp == std::string::npos) != (i == n - 1)) return false;
        std::string word = s.substr(at, sp == std::string::npos ? std::string::npos : sp - at);
        if (!parse_int(word, lo, hi, &out[i])) return false;
        at = sp + 1;
    }
    return true;
}

static bool parse_slice(const std::vector<std::string> &f, AnimTable *t, std::string *why)
{
    AnimSlice sl;
    int bounds[4], center[4], pivot[2], flags = 0;
    if (f.size() != 8) { *why = "a slice record has 8 fields"; return false; }
    sl.file = file_named(t, f[1]);
    if (sl.file == t->files.size()) { *why = "a slice of a file with no anim record before it"; return false; }
    const long BIG = 1L << 24;
    if (!parse_int(f[2], 0, (long)t->files[sl.file].durations.size() - 1, &sl.frame) ||
        !parse_ints(f[3], 4, -BIG, BIG, bounds) || bounds[2] < 0 || bounds[3] < 0 ||
        !parse_ints(f[4], 4, -BIG, BIG, center) || !parse_ints(f[5], 2, -BIG, BIG, pivot) ||
        !parse_int(f[6], 0, SLICE_NINE_PATCH | SLICE_PIVOT, &flags) || f[7].empty()) {
        *why = "a slice's frame, bounds, centre, pivot or flags are out of range";
        return false;
    }
    sl.name = f[7];
    memset(&sl.at, 0, sizeof sl.at);
    sl.at.x = (float)bounds[0], sl.at.y = (float)bounds[1], sl.at.w = (float)bounds[2], sl.at.h = (float)bounds[3];
    if (flags & SLICE_NINE_PATCH)
        sl.at.center_x = (float)center[0], sl.at.center_y = (float)center[1], sl.at.center_w = (float)center[2],
        sl.at.center_h = (float)center[3];
    if (flags & SLICE_PIVOT) sl.at.pivot_x = (float)pivot[0], sl.at.pivot_y = (float)pivot[1];
    sl.at.flags = (uint32_t)flags;
    t->slices.push_back(sl);
    return true;
}

static bool parse_tag(const std::vector<std::string> &f, AnimTable *t, std::string *why)
{
    AnimTag tg;
    if (f.size() != 7) { *why = "a tag record has 7 fields"; return false; }
    tg.file = file_named(t, f[1]);
    if (tg.file == t->files.size()) { *why = "a tag of a file with no anim record before it"; return false; }
    int frames = (int)t->files[tg.file].durations.size();
    if (!parse_int(f[2], 0, frames - 1, &tg.from) || !parse_int(f[3], tg.from, frames - 1, &tg.to) ||
        !parse_int(f[4], 0, ANIM_PING_PONG_REVERSE, &tg.direction) || !parse_int(f[5], 0, 65535, &tg.repeat)) {
        *why = "a tag's frames, direction or repeat are out of range";
        return false;
    }
    tg.name = f[6];
    t->tags.push_back(tg);
    return true;
}

/* The whole text, or false with the line and why. */
static bool anims_parse(const char *text, size_t len, AnimTable *t, std::string *why)
{
    std::string all(text, len);
    size_t at = 0;
    int line_no = 0, records = 0;
    bool ended = false;
    while (at < all.size() && !ended) {
        size_t nl = all.find('\n', at);
        if (nl == std::string::npos) { *why = "no end line (cut short?)"; return false; }
        std::vector<std::string> f = split_tabs(all.substr(at, nl - at));
        at = nl + 1;
        line_no++;
        bool ok = true;
        int count = 0;
        if (line_no == 1) ok = f.size() == 2 && f[0] == "th_anims" && f[1] == "1";
        else if (f[0] == "anim") ok = parse_anim(f, t, why);
        else if (f[0] == "tag") ok = parse_tag(f, t, why);
        else if (f[0] == "slice") ok = parse_slice(f, t, why);
        else if (f[0] == "end") ended = f.size() == 2 && parse_int(f[1], 0, 1 << 30, &count) && count == records;
        else ok = f[0].empty() || f[0][0] == '#';
        if (line_no == 1 && !ok) *why = "not an anims file (th_anims 1)";
        if (f[0] == "end" && !ended) { *why = "the end line's count does not match"; ok = false; }
        if (!ok) { *why = "line " + std::to_string(line_no) + ": " + *why; return false; }
        records += f[0] == "anim" || f[0] == "tag" || f[0] == "slice";
    }
    if (!ended) { *why = "no end line (cut short?)"; return false; }
    for (size_t i = 0; i < t->files.size(); i++) {   /* the lookups: the first file of an id keeps it */
        AnimFile &af = t->files[i];
        t->frames.emplace(af.id, FrameOf{ i, 0 });
        for (size_t k = 0; k < af.frame_ids.size(); k++) t->frames.emplace(af.frame_ids[k], FrameOf{ i, (int)k });
    }
    for (size_t i = 0; i < t->tags.size(); i++) t->files[t->tags[i].file].tags.push_back(i);
    for (size_t i = 0; i < t->slices.size(); i++) t->files[t->slices[i].file].slices.push_back(i);
    return true;
}

/* A new atlas came in: its anims.txt (text NULL: it had none, so no animations). */
void sprite_anims_install(const char *text, size_t len, const std::string &path)
{
    AnimTable t;
    std::string why;
    if (text && !anims_parse(text, len, &t, &why)) {
        assets_error(path, why + "; keeping the previous animations");
        return;
    }
    g_anims = std::move(t);
    g_anims_reported.clear();
}

/* ---------------------------------------------------------------- the services */
/* Said once (until the next table): a tag or slice (kind) the file has not, or a sprite id no file has. */
static void report_missing(const char *kind, uint32_t sprite, const char *name, const AnimFile *file)
{
    std::string key = std::string(kind) + "/" + (file ? file->name : std::to_string(sprite)) + "/" + name;
    for (const std::string &k : g_anims_reported) if (k == key) return;
    if (g_anims_reported.size() < 256) g_anims_reported.push_back(key);
    char id[16];
    snprintf(id, sizeof id, "%08x", sprite);
    std::string what = file ? file->file : std::string("sprite id ") + id;
    int slice = kind[0] == 's';
    if (file && slice) log_message(LOG_WARN, "sprite_slice: %s has no slice \"%s\" at that frame (renamed, removed or "
                                   "hidden?)", what.c_str(), name);
    else if (file) log_message(LOG_WARN, "sprite_anim: %s has no tag \"%s\" (renamed or removed?); the animation keeps "
                               "its last frame", what.c_str(), name);
    else log_message(LOG_WARN, "%s: no Aseprite file has the %s (%s \"%s\")", slice ? "sprite_slice" : "sprite_anim",
                     what.c_str(), kind, name);
    log_event(slice ? "slice_missing" : "anim_missing", "\"file\":\"%s\",\"%s\":\"%s\"",
              assets_json_escaped(what).c_str(), kind, assets_json_escaped(name).c_str());
    if (file) notice_post(LOG_WARN, "%s: no %s \"%s\"", what.c_str(), kind, name);
    else notice_post(LOG_WARN, "%s: not an Aseprite file (%s \"%s\")", what.c_str(), kind, name);
}

/* A name the game passed, copied and cut to fit (never read past cap - 1 bytes). */
static void copy_name(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; in && n < cap - 1 && in[n]; n++) out[n] = in[n];
    out[n] = 0;
}

static const FrameOf *frame_of(uint32_t sprite)
{
    auto it = g_anims.frames.find(sprite);
    return it == g_anims.frames.end() ? nullptr : &it->second;
}

int sprite_anim_info_api(uint32_t sprite, const char *tag_in, GameAnimInfo *out)
{
    char tag[GAME_ANIM_TAG_MAX];
    copy_name(tag_in, tag, sizeof tag);
    if (!out) return 0;
    const FrameOf *at = frame_of(sprite);
    const AnimFile *file = at ? &g_anims.files[at->file] : nullptr;
    int from = 0, to = 0, direction = ANIM_FORWARD, repeat = 0, found = file != nullptr;
    if (file) to = (int)file->durations.size() - 1;
    if (file && tag[0]) {
        found = 0;
        for (size_t i : file->tags) {
            const AnimTag &t = g_anims.tags[i];
            if (t.name != tag) continue;
            from = t.from, to = t.to, direction = t.direction, repeat = t.repeat, found = 1;
            break;
        }
    }
    if (!found) { report_missing("tag", sprite, tag, file); return 0; }
    memset(out, 0, sizeof *out);
    int count = to - from + 1 < GAME_ANIM_MAX_FRAMES ? to - from + 1 : GAME_ANIM_MAX_FRAMES;
    out->frame_count = (uint32_t)count;
    out->direction = (uint32_t)direction;
    out->first_frame = (uint32_t)from;
    out->repeat = (uint32_t)repeat;
    for (int i = 0; i < count; i++) {
        out->sprites[i] = file->frame_ids[(size_t)(from + i)];
        out->duration_ms[i] = file->durations[(size_t)(from + i)];
    }
    return 1;
}

int sprite_slice_api(uint32_t sprite, const char *name_in, GameSlice *out)
{
    char name[64];
    copy_name(name_in, name, sizeof name);
    if (!out) return 0;
    const FrameOf *at = frame_of(sprite);
    const AnimFile *file = at ? &g_anims.files[at->file] : nullptr;
    const AnimSlice *key = nullptr;
    if (file)
        for (size_t i : file->slices) {
            const AnimSlice &k = g_anims.slices[i];
            if (k.name == name && k.frame <= at->frame && (!key || k.frame >= key->frame)) key = &k;
        }
    if (!key) { report_missing("slice", sprite, name, file); return 0; }
    if (key->at.w <= 0 || key->at.h <= 0) return 0;   /* hidden from this key on (Aseprite: a zero-sized key) */
    *out = key->at;
    out->frame = (uint32_t)at->frame;
    return 1;
}
