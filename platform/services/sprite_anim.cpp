/* sprite_anim.cpp - the animations of Aseprite files: what PlatformAPI.sprite_anim_info answers.

   tools/atlas_pack turns each .aseprite/.ase file under a sprites folder into one atlas sprite per frame
   ("hero#0", "hero#1"...; "hero" is frame 0) and writes the frames' durations and the tags to anims.txt beside
   the manifest (its format is at the top of tools/atlas_pack.cpp). assets.cpp reads that file with the manifest
   and hands it here when it installs the atlas, so frames and tags always change together.
   Errors: an anims.txt that does not parse is reported with the file and the line, and the previous table
           stays. A tag (or file) the game asks for and the table does not have is said once by name - log,
           an "anim_missing" event and a notice - until the next table comes in; the game's helpers keep
           showing their last frame. */
#include "render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

struct AnimFile {
    uint32_t id;                       /* game_sprite_id(name) */
    std::string name, file;            /* "hero", "hero.aseprite" (below its sprites folder) */
    std::vector<uint16_t> durations;   /* per frame, ms */
};

struct AnimTag {
    size_t file;                       /* index in files */
    std::string name;
    int from, to, direction, repeat;
};

struct AnimTable {
    std::vector<AnimFile> files;
    std::vector<AnimTag> tags;
};

static AnimTable g_anims;
static std::vector<std::string> g_anims_reported;   /* "<id>/<tag>" said once since the table came in */

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
        p = *end ? end + 1 : end;
    }
    if (*p) { *why = "more durations than frames"; return false; }
    t->files.push_back(af);
    return true;
}

static bool parse_tag(const std::vector<std::string> &f, AnimTable *t, std::string *why)
{
    AnimTag tg;
    if (f.size() != 7) { *why = "a tag record has 7 fields"; return false; }
    tg.file = t->files.size();
    for (size_t i = 0; i < t->files.size(); i++) if (t->files[i].name == f[1]) tg.file = i;
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
        else if (f[0] == "end") ended = f.size() == 2 && parse_int(f[1], 0, 1 << 30, &count) && count == records;
        else ok = f[0].empty() || f[0][0] == '#';
        if (line_no == 1 && !ok) *why = "not an anims file (th_anims 1)";
        if (f[0] == "end" && !ended) { *why = "the end line's count does not match"; ok = false; }
        if (!ok) { *why = "line " + std::to_string(line_no) + ": " + *why; return false; }
        records += f[0] == "anim" || f[0] == "tag";
    }
    if (!ended) { *why = "no end line (cut short?)"; return false; }
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
    g_anims.files.swap(t.files);
    g_anims.tags.swap(t.tags);
    g_anims_reported.clear();
}

/* ---------------------------------------------------------------- the service */
static void report_missing(uint32_t sprite, const char *tag, const AnimFile *file)
{
    std::string key = std::to_string(sprite) + "/" + tag;
    for (const std::string &k : g_anims_reported) if (k == key) return;
    if (g_anims_reported.size() < 256) g_anims_reported.push_back(key);
    char id[16];
    snprintf(id, sizeof id, "%08x", sprite);
    std::string what = file ? file->file : std::string("sprite id ") + id;
    if (file) log_message(LOG_WARN, "sprite_anim: %s has no tag \"%s\" (renamed or removed?); the animation keeps its "
                          "last frame", what.c_str(), tag);
    else log_message(LOG_WARN, "sprite_anim: no Aseprite file has the %s (tag \"%s\"); nothing to animate",
                     what.c_str(), tag);
    log_event("anim_missing", "\"file\":\"%s\",\"tag\":\"%s\"", assets_json_escaped(what).c_str(),
              assets_json_escaped(tag).c_str());
    notice_post(LOG_WARN, file ? "%s: no tag \"%s\"" : "%s: not an Aseprite file (tag \"%s\")", what.c_str(), tag);
}

int sprite_anim_info_api(uint32_t sprite, const char *tag_in, GameAnimInfo *out)
{
    char tag[GAME_ANIM_TAG_MAX];
    size_t n = 0;
    for (; tag_in && n < sizeof tag - 1 && tag_in[n]; n++) tag[n] = tag_in[n];
    tag[n] = 0;
    if (!out) return 0;
    const AnimFile *file = nullptr;
    for (const AnimFile &f : g_anims.files) if (f.id == sprite) { file = &f; break; }
    int from = 0, to = 0, direction = ANIM_FORWARD, repeat = 0, found = file != nullptr;
    if (file) to = (int)file->durations.size() - 1;
    if (file && tag[0]) {
        found = 0;
        for (const AnimTag &t : g_anims.tags)
            if (&g_anims.files[t.file] == file && t.name == tag) {
                from = t.from, to = t.to, direction = t.direction, repeat = t.repeat, found = 1;
                break;
            }
    }
    if (!found) { report_missing(sprite, tag, file); return 0; }
    memset(out, 0, sizeof *out);
    int count = to - from + 1 < GAME_ANIM_MAX_FRAMES ? to - from + 1 : GAME_ANIM_MAX_FRAMES;
    out->frame_count = (uint32_t)count;
    out->direction = (uint32_t)direction;
    out->first_frame = (uint32_t)from;
    out->repeat = (uint32_t)repeat;
    for (int i = 0; i < count; i++) {
        std::string frame = file->name + "#" + std::to_string(from + i);
        out->sprites[i] = game_sprite_id(frame.c_str());
        out->duration_ms[i] = file->durations[(size_t)(from + i)];
    }
    return 1;
}
