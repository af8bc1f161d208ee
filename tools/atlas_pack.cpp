/* atlas_pack - packs every PNG and Aseprite file under a source directory into atlas pages plus a text manifest.

   usage: atlas_pack [--force] [--no-cache] [--page-size N] [--padding N] <src_dir>... <out_dir>

   Sprite name = the PNG's path below src_dir without ".png", '/'-separated ("player/idle");
   with several src_dirs (a game's own sprites, then the engine's shared ones) a name found in an earlier
   one hides the later ones' PNG and .pivot of that name: the game's art wins.
   id = thal_id(name), the same FNV-1a as game_sprite_id() in platform/include/game_api.h.

   Output in out_dir:
     atlas_<n>.png   pages, at most page-size square (default 512), cropped to the powers of two that
                     hold what they use (so UVs x / size are exact floats). An image too large for
                     a shared page gets a page of its own (up to 4096x4096). 512 rather than 1024 or
                     2048 keeps a reload quick: an edited sprite re-encodes (here, and decodes in the
                     host) one page of 1 MB instead of 4 or 16; the price is a few more batches. Every
                     sprite is surrounded by `padding` pixels (default 1) that repeat its edge pixels,
                     so filtering at the sprite's border never samples a neighbour.
     atlas.txt       the manifest (format: tinyheaders/th_atlas.h).

   Aseprite files (.aseprite, .ase; read by tinyheaders/th_aseprite.h): every frame, composited, is a sprite
   named "<name>#<frame>" ("hero#0", "hero#1"...), and "<name>" is frame 0 again (same place in the page).
   anims.txt beside the manifest says what the frames are for, one TAB-separated record a line:
     th_anims  1
     anim      <name> <file> <frame_count> <duration_ms of each frame, space-separated>
     tag       <name> <from> <to> <direction 0..3> <repeat> <tag name>
     slice     <name> <frame> <x y w h> <centre x y w h> <pivot x y> <flags: 1 9-patch, 2 pivot> <slice name>
                 (one per key: in force from <frame> until the slice's next key; w or h 0: hidden from there)
     end       <records>
   It is written before the manifest, so a reader that sees the new manifest sees its anims.txt. A file that
   does not read is an error record named after the file ("hero.aseprite": the reader's message); its frames
   and its anims.txt lines from the previous run (atlas.cache) are kept, so the game shows its last good art.
   An Aseprite file whose size and mtime did not change is not read again: its frames come from atlas.cache and
   its lines from the old anims.txt, like an unchanged PNG's pixels.

   Pivot: the sprite's centre, unless a sidecar "<name>.pivot" next to the PNG holds two numbers
   "px py" in 0..1 of the sprite's box (0 0 = top-left, 0.5 1 = bottom centre).

   Bad images: a PNG that does not decode (or does not fit a page) prints one line
     atlas_pack: <file>: <reason>
   on stderr, is left out of the pages, and is listed in the manifest as an error record (name,
   file, reason) so the host can draw a placeholder and report it. The rest is packed as usual.

   Only what changed: the manifest lists every input (path, size, mtime in ns) and the settings.
   When they all match the existing manifest and its pages exist, nothing is decoded or written
   ("up to date"; --force skips this check). Otherwise the atlas is re-packed, but:
     - only the PNGs whose (size, mtime) changed are decoded; the others come from atlas.cache, the
       decoded pixels of the previous run (a plain binary file next to the manifest; --no-cache
       decodes everything);
     - a page whose pixels hash to the value the old manifest recorded is not rewritten, so the
       host reloads only changed pages.
   Placement is deterministic: editing the pixels of a PNG without changing its size moves nothing.

   Writes go to temporary names that are renamed into place, pages first and the manifest last,
   so a reader never sees half a file. Exit status: 0 when the manifest was written or is up to
   date (even with bad images), 1 when something could not be written, 2 on bad usage. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_rect_pack.h>

#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"
#define TH_ASEPRITE_IMPLEMENTATION
#define THASE_STB_ZLIB
#include "th_aseprite.h"

struct Input {
    std::string rel;       /* path below src_dir */
    std::string abs;
    int64_t size = 0, mtime_ns = 0;
};

struct Image {
    std::string name, rel, abs;
    std::string key;               /* its entry in atlas.cache: rel, or "rel#frame" for an Aseprite frame */
    std::string alias;             /* also listed under this name (an Aseprite file's name: its frame 0) */
    uint32_t id = 0;
    int w = 0, h = 0;
    unsigned char *pixels = nullptr;
    bool cached = false;           /* pixels point into the cache buffer */
    int64_t size = 0, mtime_ns = 0;
    float pivot_x = 0.5f, pivot_y = 0.5f;
    std::string error;
    int page = -1, x = 0, y = 0;
};

static double now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool ends_with_ci(const std::string &s, const char *suffix)
{
    size_t n = strlen(suffix);
    if (s.size() < n) return false;
    for (size_t i = 0; i < n; i++) {
        char a = s[s.size() - n + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return false;
    }
    return true;
}

static bool is_aseprite(const std::string &rel)
{
    return ends_with_ci(rel, ".aseprite") || ends_with_ci(rel, ".ase");
}

static bool is_noise(const char *name)
{
    std::string n = name;
    return name[0] == '.' || ends_with_ci(n, "~") || ends_with_ci(n, ".tmp") || ends_with_ci(n, ".swp");
}

static void scan(const std::string &dir, const std::string &rel, std::vector<Input> &out)
{
    DIR *d = opendir(dir.c_str());
    if (!d) return;
    while (struct dirent *e = readdir(d)) {
        if (is_noise(e->d_name)) continue;
        std::string abs = dir + "/" + e->d_name, r = rel.empty() ? std::string(e->d_name) : rel + "/" + e->d_name;
        struct stat st;
        if (stat(abs.c_str(), &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) { scan(abs, r, out); continue; }
        if (!S_ISREG(st.st_mode) || !(ends_with_ci(r, ".png") || ends_with_ci(r, ".pivot") || is_aseprite(r))) continue;
        Input in;
        in.rel = r;
        in.abs = abs;
        in.size = (int64_t)st.st_size;
        in.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        out.push_back(in);
    }
    closedir(d);
}

static bool mkdirs(const std::string &path)
{
    std::string cur;
    size_t i = 0;
    while (i <= path.size()) {
        size_t e = path.find('/', i);
        if (e == std::string::npos) e = path.size();
        cur = path.substr(0, e);
        if (!cur.empty() && mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
        i = e + 1;
    }
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

static bool file_exists(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

static bool read_pivot(const std::string &path, float *px, float *py)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return false;
    char buf[128] = { 0 };
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *end;
    double x = strtod(buf, &end);
    if (end == buf) return false;
    char *p2 = end;
    double y = strtod(p2, &end);
    if (end == p2) return false;
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
    if (*end || !(x > -100 && x < 100) || !(y > -100 && y < 100)) return false;
    *px = (float)x;
    *py = (float)y;
    return true;
}

/* Copies the image into the page at (x, y) and repeats its edge pixels `pad` times around it. */
static void blit_extruded(unsigned char *page, int pw, const Image &im, int pad)
{
    for (int yy = -pad; yy < im.h + pad; yy++) {
        int sy = yy < 0 ? 0 : yy >= im.h ? im.h - 1 : yy;
        const unsigned char *src = im.pixels + (size_t)sy * im.w * 4;
        unsigned char *dst = page + ((size_t)(im.y + yy) * pw + im.x) * 4;
        memcpy(dst, src, (size_t)im.w * 4);
        for (int k = 1; k <= pad; k++) {
            memcpy(dst - 4 * k, src, 4);
            memcpy(dst + 4 * (im.w - 1 + k), src + 4 * (im.w - 1), 4);
        }
    }
}

/* Page sizes are powers of two: x / size is then exact in float, so UVs hit texel edges exactly. */
static int pow2_at_least(int v)
{
    int p = 1;
    while (p < v) p *= 2;
    return p;
}

static void release(Image &im)
{
    if (im.pixels && !im.cached) stbi_image_free(im.pixels);
    im.pixels = nullptr;
    im.cached = false;
}

/* ---- atlas.cache: "THACACHE" u32 count, then per image: u32 path_len, path, i64 size, i64 mtime_ns,
   i32 w, i32 h, w*h*4 bytes RGBA. Native byte order; anything unexpected discards the whole cache. */
struct Cached { int64_t size, mtime_ns; int w, h; const unsigned char *px; };

/* The cache is mapped, not read: pixels of sprites on pages that need no redrawing are never touched. */
struct Mapped {
    const unsigned char *p = nullptr;
    size_t n = 0;
    ~Mapped() { if (p) munmap((void *)p, n); }
};

static bool map_file(const std::string &path, Mapped *m)
{
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size > 0) p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return false;
    m->p = (const unsigned char *)p;
    m->n = (size_t)st.st_size;
    return true;
}

static std::map<std::string, Cached> cache_parse(const unsigned char *buf, size_t n)
{
    std::map<std::string, Cached> out;
    size_t at = 0;
    auto take = [&](void *dst, size_t len) { if (n - at < len) return false; memcpy(dst, &buf[at], len); at += len; return true; };
    char magic[8];
    uint32_t count = 0;
    if (!take(magic, 8) || memcmp(magic, "THACACHE", 8) != 0 || !take(&count, 4)) return out;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t len = 0;
        Cached c;
        if (!take(&len, 4) || len > 4096 || n - at < len) return {};
        std::string path((const char *)&buf[at], len);
        at += len;
        if (!take(&c.size, 8) || !take(&c.mtime_ns, 8) || !take(&c.w, 4) || !take(&c.h, 4)) return {};
        if (c.w <= 0 || c.h <= 0 || c.w > 65536 || c.h > 65536 || (uint64_t)(n - at) < (uint64_t)c.w * c.h * 4) return {};
        c.px = &buf[at];
        at += (size_t)c.w * c.h * 4;
        out[path] = c;
    }
    return out;
}

static bool cache_write(const std::string &path, const std::vector<Image> &images)
{
    std::string tmp = path + ".tmp";
    FILE *f = fopen(tmp.c_str(), "wb");
    if (!f) return false;
    uint32_t count = 0;
    for (const Image &im : images) count += im.pixels != nullptr;
    bool ok = fwrite("THACACHE", 1, 8, f) == 8 && fwrite(&count, 4, 1, f) == 1;
    for (const Image &im : images) {
        if (!ok || !im.pixels) continue;
        uint32_t len = (uint32_t)im.key.size();
        ok = fwrite(&len, 4, 1, f) == 1 && fwrite(im.key.data(), 1, len, f) == len && fwrite(&im.size, 8, 1, f) == 1 &&
             fwrite(&im.mtime_ns, 8, 1, f) == 1 && fwrite(&im.w, 4, 1, f) == 1 && fwrite(&im.h, 4, 1, f) == 1 &&
             fwrite(im.pixels, 1, (size_t)im.w * im.h * 4, f) == (size_t)im.w * im.h * 4;
    }
    ok = (fclose(f) == 0) && ok;
    if (ok) ok = rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) remove(tmp.c_str());
    return ok;
}

static const int BIG_PAGE_MAX = 4096;   /* an image larger than a shared page gets a page of its own, up to this */

static void usage()
{
    fprintf(stderr, "usage: atlas_pack [--force] [--no-cache] [--page-size N] [--padding N] <src_dir>... <out_dir>\n");
}

struct Settings {
    bool force = false, no_cache = false;
    int page_max = 512, padding = 1;
    std::vector<std::string> src_dirs;   /* in order of precedence */
    std::string out_dir;
};

struct PageInfo { int w = 1, h = 1; };

/* The command line; false after printing the usage. */
static bool parse_args(int argc, char **argv, Settings *st)
{
    std::vector<std::string> paths;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--force")) st->force = true;
        else if (!strcmp(argv[i], "--no-cache")) st->no_cache = true;
        else if (!strcmp(argv[i], "--page-size") && i + 1 < argc) st->page_max = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--padding") && i + 1 < argc) st->padding = atoi(argv[++i]);
        else if (argv[i][0] == '-') { usage(); return false; }
        else paths.push_back(argv[i]);
    }
    if (paths.size() < 2 || st->page_max < 16 || st->page_max > 16384 || st->padding < 0 || st->padding > 16) { usage(); return false; }
    for (std::string &p : paths) while (p.size() > 1 && p.back() == '/') p.pop_back();
    st->out_dir = paths.back();
    paths.pop_back();
    st->src_dirs = paths;
    return true;
}

/* The new manifest's settings and inputs (path, size, mtime): what "up to date" compares. */
static bool list_sources(const std::vector<Input> &inputs, const Settings &st, thal_manifest *now)
{
    now->page_max = st.page_max;
    now->padding = st.padding;
    for (const Input &in : inputs) {
        thal_source *s = thal_add_source(now);
        if (!s) { fprintf(stderr, "atlas_pack: out of memory\n"); return false; }
        s->size = in.size;
        s->mtime_ns = in.mtime_ns;
        snprintf(s->path, sizeof s->path, "%s", in.rel.c_str());
    }
    return true;
}

/* The old manifest lists the same inputs and settings, and its pages are there. */
static bool up_to_date(const thal_manifest &old, const thal_manifest &now, const Settings &st)
{
    if (st.force || !thal_same_sources(&old, &now)) return false;
    for (int i = 0; i < old.page_count; i++)
        if (!file_exists(st.out_dir + "/" + old.pages[i].file)) return false;
    return true;
}

/* One Image per PNG, in path order, with its name, id and pivot; a bad name is its error. */
static std::vector<Image> name_images(const std::vector<Input> &inputs)
{
    std::vector<Image> images;
    for (const Input &in : inputs) {
        if (!ends_with_ci(in.rel, ".png") && !is_aseprite(in.rel)) continue;
        Image im;
        im.rel = in.rel;
        im.abs = in.abs;
        im.size = in.size;
        im.mtime_ns = in.mtime_ns;
        im.name = in.rel.substr(0, in.rel.rfind('.'));
        im.key = im.rel;
        im.id = thal_id(im.name.c_str());
        if (im.name.size() >= THAL_NAME_MAX || in.rel.size() >= THAL_NAME_MAX) im.error = "path too long for the manifest";
        else if (im.name.find_first_of("\t\r\n") != std::string::npos) im.error = "name contains a tab or line break";
        for (const Image &o : images) {
            if (!im.error.empty()) break;
            if (o.name == im.name) im.error = "duplicate sprite name (also " + o.rel + ")";
            else if (o.id == im.id) im.error = "id collides with sprite '" + o.name + "'; rename one";
        }
        std::string pivot_rel = im.name + ".pivot";
        for (const Input &p : inputs)
            if (p.rel == pivot_rel && !read_pivot(p.abs, &im.pivot_x, &im.pivot_y))
                fprintf(stderr, "atlas_pack: %s: expected two numbers like \"0.5 1\", using the centre\n", p.abs.c_str());
        images.push_back(im);
    }
    return images;
}

/* ---- Aseprite files: each frame is a sprite "<name>#<frame>", frame 0 is also "<name>"; the frames' durations
   and the tags go to anims.txt. A file that does not read keeps the frames and lines of the previous run (from
   atlas.cache and the old anims.txt) and is listed as an error record named after the file ("hero.aseprite"). */
static std::map<std::string, std::string> anims_read(const std::string &path)   /* name -> its lines */
{
    std::map<std::string, std::string> out;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return out;
    char *line = nullptr;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        std::string l = line;
        if (l.compare(0, 5, "anim\t") != 0 && l.compare(0, 4, "tag\t") != 0 && l.compare(0, 6, "slice\t") != 0) continue;
        size_t a = l.find('\t') + 1, b = l.find('\t', a);
        if (b != std::string::npos) out[l.substr(a, b - a)] += l;
    }
    free(line);
    fclose(f);
    return out;
}

static std::string one_line(const char *s)
{
    std::string out = s ? s : "";
    for (char &c : out) if (c == '\t' || c == '\r' || c == '\n') c = ' ';
    return out;
}

static Image ase_frame_image(const Image &file, int f)
{
    Image fr;
    fr.name = file.name + "#" + std::to_string(f);
    fr.rel = file.rel;
    fr.abs = file.abs;
    fr.key = file.rel + "#" + std::to_string(f);
    fr.id = thal_id(fr.name.c_str());
    fr.size = file.size;
    fr.mtime_ns = file.mtime_ns;
    fr.pivot_x = file.pivot_x;
    fr.pivot_y = file.pivot_y;
    if (f == 0) fr.alias = file.name;
    if (fr.name.size() >= THAL_NAME_MAX) fr.error = "path too long for the manifest";
    return fr;
}

/* Reads and composites one file into frames; "" or the reader's message. */
static std::string ase_read(const Image &file, std::vector<Image> &out, std::string *lines)
{
    FILE *fp = fopen(file.abs.c_str(), "rb");
    if (!fp) return strerror(errno);
    std::vector<unsigned char> data(file.size > 0 && file.size < (256 << 20) ? (size_t)file.size : 0);
    size_t got = data.empty() ? 0 : fread(data.data(), 1, data.size(), fp);
    fclose(fp);
    if (got != data.size() || data.empty()) return data.empty() ? "empty or larger than 256 MiB" : "short read";
    thase_sprite spr;
    if (thase_load(data.data(), data.size(), nullptr, &spr) != THASE_OK) return spr.error;
    *lines += "anim\t" + file.name + "\t" + file.rel + "\t" + std::to_string(spr.frame_count) + "\t";
    for (int f = 0; f < spr.frame_count; f++) {
        Image fr = ase_frame_image(file, f);
        fr.w = spr.width;
        fr.h = spr.height;
        if (fr.error.empty()) fr.pixels = (unsigned char *)malloc((size_t)spr.width * spr.height * 4);
        if (fr.pixels) thase_composite(&spr, f, fr.pixels);
        else if (fr.error.empty()) fr.error = "out of memory";
        out.push_back(fr);
        *lines += (f ? " " : "") + std::to_string(spr.frames[f].duration_ms);
    }
    *lines += "\n";
    for (int t = 0; t < spr.tag_count; t++) {
        const thase_tag &tg = spr.tags[t];
        char b[96];
        snprintf(b, sizeof b, "\t%d\t%d\t%d\t%d\t", tg.from, tg.to, tg.direction, tg.repeat);
        *lines += "tag\t" + file.name + b + one_line(tg.name) + "\n";
    }
    for (int i = 0; i < spr.slice_count; i++) {
        const thase_slice &sl = spr.slices[i];
        for (int k = 0; k < sl.key_count; k++) {
            const thase_slice_key &key = sl.keys[k];
            char b[256];
            snprintf(b, sizeof b, "\t%d\t%d %d %u %u\t%d %d %u %u\t%d %d\t%u\t", key.frame, key.x, key.y, key.width,
                     key.height, key.center_x, key.center_y, key.center_width, key.center_height, key.pivot_x,
                     key.pivot_y, sl.flags & 3u);
            *lines += "slice\t" + file.name + b + one_line(sl.name) + "\n";
        }
    }
    thase_free(&spr);
    return "";
}

/* An unchanged file (its size and mtime) whose frames and lines the previous run kept: nothing to read again,
   and its page need not be redrawn. */
static bool ase_from_cache(const Image &im, const std::map<std::string, Cached> &cache,
                           std::map<std::string, std::string> &old, std::vector<Image> &out, std::string *lines)
{
    if (old[im.name].empty()) return false;
    std::vector<Image> frames;
    for (auto it = cache.find(im.rel + "#0"); it != cache.end() && it->second.size == im.size &&
                                              it->second.mtime_ns == im.mtime_ns;
         it = cache.find(im.rel + "#" + std::to_string(frames.size()))) {
        Image fr = ase_frame_image(im, (int)frames.size());
        fr.pixels = (unsigned char *)it->second.px;
        fr.cached = true;
        fr.w = it->second.w;
        fr.h = it->second.h;
        frames.push_back(fr);
    }
    std::string want = "anim\t" + im.name + "\t" + im.rel + "\t" + std::to_string(frames.size()) + "\t";
    if (frames.empty() || old[im.name].compare(0, want.size(), want) != 0) return false;
    out.insert(out.end(), frames.begin(), frames.end());
    *lines += old[im.name];
    return true;
}

/* Replaces each Aseprite file in images by its frames; returns the text of anims.txt. */
static std::string expand_aseprite(std::vector<Image> &images, const Settings &st, Mapped *cache_map)
{
    std::map<std::string, std::string> old = anims_read(st.out_dir + "/anims.txt");
    std::map<std::string, Cached> cache;
    if (!st.no_cache && map_file(st.out_dir + "/atlas.cache", cache_map))
        cache = cache_parse(cache_map->p, cache_map->n);
    std::vector<Image> out;
    std::string lines;
    for (Image &im : images) {
        if (!is_aseprite(im.rel) || !im.error.empty()) { out.push_back(im); continue; }
        if (ase_from_cache(im, cache, old, out, &lines)) continue;
        std::string err = ase_read(im, out, &lines);
        if (err.empty()) continue;
        int kept = 0;   /* the previous run's frames, whatever the file's stamp was */
        for (auto it = cache.find(im.rel + "#0"); it != cache.end();
             it = cache.find(im.rel + "#" + std::to_string(kept))) {
            Image fr = ase_frame_image(im, kept++);
            fr.size = fr.mtime_ns = -1;   /* kept, never current: the cache never takes them for the file on disk */
            fr.pixels = (unsigned char *)it->second.px;
            fr.cached = true;
            fr.w = it->second.w;
            fr.h = it->second.h;
            out.push_back(fr);
        }
        lines += old[im.name];
        Image bad = im;
        bad.name = im.rel;   /* its own id: the frames' names stay taken by the kept frames */
        bad.id = thal_id(bad.name.c_str());
        bad.error = err + (kept ? "; its last good frames stay" : "");
        out.push_back(bad);
    }
    images.swap(out);
    return lines;
}

static bool write_anims(const std::string &path, const std::string &lines)
{
    std::string tmp = path + ".tmp";
    FILE *f = fopen(tmp.c_str(), "wb");
    if (!f) return false;
    int records = 0;
    for (char c : lines) records += c == '\n';
    bool ok = fprintf(f, "th_anims\t1\n%send\t%d\n", lines.c_str(), records) > 0;
    ok = fclose(f) == 0 && ok && rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) remove(tmp.c_str());
    return ok;
}

/* The pixels: unchanged PNGs from the mapped cache, the others decoded on a few threads. An image that
   does not decode or is too large for any page gets its error (printed). Returns how many were decoded. */
static int decode_images(std::vector<Image> &images, const Settings &st, Mapped *cache_map)
{
    std::map<std::string, Cached> cache;
    if (!st.no_cache && map_file(st.out_dir + "/atlas.cache", cache_map)) cache = cache_parse(cache_map->p, cache_map->n);
    for (Image &im : images) {
        auto it = cache.find(im.key);
        if (im.pixels || !im.error.empty() || it == cache.end()) continue;
        if (it->second.size != im.size || it->second.mtime_ns != im.mtime_ns) continue;
        im.pixels = (unsigned char *)it->second.px;
        im.cached = true;
        im.w = it->second.w;
        im.h = it->second.h;
    }
    const int padding = st.padding;
    std::atomic<size_t> next_image{ 0 };
    auto decode = [&]() {
        for (size_t i; (i = next_image++) < images.size();) {
            Image &im = images[i];
            if (!im.error.empty()) continue;
            int comp = 0;
            if (!im.pixels) im.pixels = stbi_load(im.abs.c_str(), &im.w, &im.h, &comp, 4);
            if (!im.pixels) {
                const char *why = stbi_failure_reason();
                im.error = std::string("cannot decode: ") + (why ? why : "unknown error");
            } else if (im.w + 2 * padding > BIG_PAGE_MAX || im.h + 2 * padding > BIG_PAGE_MAX) {
                char b[160];
                snprintf(b, sizeof b, "%dx%d is larger than the largest page (%dx%d with %dpx padding)", im.w, im.h,
                         BIG_PAGE_MAX, BIG_PAGE_MAX, padding);
                im.error = b;
                release(im);
            }
        }
    };
    unsigned nthreads = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    if (images.size() < 16) nthreads = 1;
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < nthreads; t++) pool.emplace_back(decode);
    decode();
    for (std::thread &t : pool) t.join();
    int decoded = 0;
    for (const Image &im : images) {
        if (!im.error.empty()) fprintf(stderr, "atlas_pack: %s: %s\n", im.abs.c_str(), im.error.c_str());
        decoded += im.pixels && !im.cached;
    }
    return decoded;
}

/* Fill page 0, whatever did not fit goes to page 1, and so on; then one page for each image too big for
   a shared page. Sets each image's page and place; returns the pages' sizes. */
static std::vector<PageInfo> place_images(std::vector<Image> &images, const Settings &st)
{
    const int page_max = st.page_max, padding = st.padding;
    std::vector<int> todo, big;
    for (int i = 0; i < (int)images.size(); i++) {
        const Image &im = images[(size_t)i];
        if (!im.pixels) continue;
        if (im.w + 2 * padding > page_max || im.h + 2 * padding > page_max) big.push_back(i);
        else todo.push_back(i);
    }
    std::vector<stbrp_node> nodes((size_t)page_max);
    std::vector<PageInfo> pages;
    while (!todo.empty()) {
        std::vector<stbrp_rect> rects(todo.size());
        for (size_t k = 0; k < todo.size(); k++) {
            rects[k].id = (int)k;
            rects[k].w = images[(size_t)todo[k]].w + 2 * padding;
            rects[k].h = images[(size_t)todo[k]].h + 2 * padding;
            rects[k].x = rects[k].y = 0;
            rects[k].was_packed = 0;
        }
        stbrp_context ctx;
        stbrp_init_target(&ctx, page_max, page_max, nodes.data(), (int)nodes.size());
        stbrp_pack_rects(&ctx, rects.data(), (int)rects.size());
        PageInfo pi;
        std::vector<int> rest;
        int placed = 0;
        for (size_t k = 0; k < rects.size(); k++) {
            Image &im = images[(size_t)todo[(size_t)rects[k].id]];
            if (!rects[k].was_packed) { rest.push_back(todo[(size_t)rects[k].id]); continue; }
            im.page = (int)pages.size();
            im.x = rects[k].x + padding;
            im.y = rects[k].y + padding;
            pi.w = std::max(pi.w, rects[k].x + rects[k].w);
            pi.h = std::max(pi.h, rects[k].y + rects[k].h);
            placed++;
        }
        if (!placed) {
            for (int i : rest) { images[(size_t)i].error = "could not be placed"; release(images[(size_t)i]); }
            break;
        }
        std::sort(rest.begin(), rest.end());
        pi.w = pow2_at_least(pi.w);
        pi.h = pow2_at_least(pi.h);
        pages.push_back(pi);
        todo.swap(rest);
    }
    for (int i : big) {
        Image &im = images[(size_t)i];
        PageInfo pi;
        pi.w = pow2_at_least(im.w + 2 * padding);
        pi.h = pow2_at_least(im.h + 2 * padding);
        im.page = (int)pages.size();
        im.x = im.y = padding;
        pages.push_back(pi);
    }
    return pages;
}

/* Compose and write the pages that changed, each added to the new manifest with its hash. A page is left
   alone without even composing it when it holds the same sprites at the same places as before and none
   of their pixels changed. False when a page could not be written. */
static bool write_pages(const std::vector<PageInfo> &pages, const std::vector<Image> &images, const thal_manifest &old,
                        bool have_old, const Settings &st, thal_manifest *now, int *written)
{
    std::vector<int> old_on_page((size_t)std::max(old.page_count, 0), 0);
    std::map<std::string, const thal_sprite *> old_by_name;
    bool old_comparable = have_old && old.page_max == st.page_max && old.padding == st.padding;
    if (old_comparable)
        for (int i = 0; i < old.sprite_count; i++)
            if (!old.sprites[i].error) { old_by_name[old.sprites[i].name] = &old.sprites[i]; old_on_page[(size_t)old.sprites[i].page]++; }
    for (int p = 0; p < (int)pages.size(); p++) {
        const PageInfo &pi = pages[(size_t)p];
        thal_page *tp = thal_add_page(now);
        if (!tp) { fprintf(stderr, "atlas_pack: out of memory\n"); return false; }
        tp->w = pi.w;
        tp->h = pi.h;
        snprintf(tp->file, sizeof tp->file, "atlas_%d.png", p);
        std::string final_path = st.out_dir + "/" + tp->file;
        bool untouched = old_comparable && p < old.page_count && old.pages[p].w == pi.w && old.pages[p].h == pi.h &&
                         !strcmp(old.pages[p].file, tp->file) && file_exists(final_path);
        int on_page = 0;
        for (const Image &im : images) {
            if (!untouched) break;
            if (!im.pixels || im.page != p) continue;
            on_page += im.alias.empty() ? 1 : 2;
            auto it = old_by_name.find(im.name);
            untouched = im.cached && it != old_by_name.end() && it->second->page == p && it->second->x == im.x &&
                        it->second->y == im.y && it->second->w == im.w && it->second->h == im.h;
        }
        if (untouched && on_page == old_on_page[(size_t)p]) {
            tp->hash = old.pages[p].hash;
            continue;
        }
        std::vector<unsigned char> px((size_t)pi.w * pi.h * 4, 0);
        for (const Image &im : images)
            if (im.pixels && im.page == p) blit_extruded(px.data(), pi.w, im, st.padding);
        tp->hash = thal_hash(px.data(), px.size(), ((uint64_t)(uint32_t)pi.w << 32) | (uint32_t)pi.h);
        bool same = have_old && p < old.page_count && old.pages[p].hash == tp->hash && old.pages[p].w == tp->w &&
                    old.pages[p].h == tp->h && !strcmp(old.pages[p].file, tp->file) && file_exists(final_path);
        if (same) continue;
        std::string tmp = st.out_dir + "/.atlas_" + std::to_string(p) + ".png.tmp";
        stbi_write_png_compression_level = 5;
        stbi_write_force_png_filter = 1;    /* one filter for every row: 2-3x faster to write, similar size */
        if (!stbi_write_png(tmp.c_str(), pi.w, pi.h, 4, px.data(), pi.w * 4)) {
            fprintf(stderr, "atlas_pack: %s: cannot write the page\n", tmp.c_str());
            remove(tmp.c_str());
            return false;
        }
        if (rename(tmp.c_str(), final_path.c_str()) != 0) {
            fprintf(stderr, "atlas_pack: %s: cannot rename into place (%s)\n", final_path.c_str(), strerror(errno));
            remove(tmp.c_str());
            return false;
        }
        (*written)++;
    }
    return true;
}

/* The manifest's sprites: in name order, then the errors. */
static bool list_sprites(const std::vector<Image> &images, thal_manifest *now)
{
    for (int pass = 0; pass < 2; pass++)
        for (const Image &im : images) {
            bool bad = !im.pixels;
            if (bad != (pass == 1)) continue;
            thal_sprite *s = thal_add_sprite(now);
            if (!s) { fprintf(stderr, "atlas_pack: out of memory\n"); return false; }
            s->id = im.id;
            snprintf(s->name, sizeof s->name, "%s", im.name.c_str());
            snprintf(s->file, sizeof s->file, "%s", im.rel.c_str());
            if (bad) {
                s->error = 1;
                s->page = -1;
                snprintf(s->reason, sizeof s->reason, "%s", im.error.c_str());
            } else {
                s->page = im.page;
                s->x = im.x; s->y = im.y; s->w = im.w; s->h = im.h;
                s->pivot_x = im.pivot_x; s->pivot_y = im.pivot_y;
                if (!im.alias.empty()) {   /* an Aseprite file's name: its frame 0 */
                    thal_sprite *a = thal_add_sprite(now);
                    if (!a) { fprintf(stderr, "atlas_pack: out of memory\n"); return false; }
                    *a = *s;
                    a->id = thal_id(im.alias.c_str());
                    snprintf(a->name, sizeof a->name, "%s", im.alias.c_str());
                }
            }
        }
    return true;
}

/* Pages beyond the new count belong to an older, larger atlas. */
static void remove_stale_pages(const std::string &out_dir, int page_count)
{
    if (DIR *d = opendir(out_dir.c_str())) {
        while (struct dirent *e = readdir(d)) {
            int n = -1;
            if (sscanf(e->d_name, "atlas_%d", &n) == 1 && n >= page_count &&
                std::string(e->d_name) == "atlas_" + std::to_string(n) + ".png")
                remove((out_dir + "/" + e->d_name).c_str());
        }
        closedir(d);
    }
}

int main(int argc, char **argv)
{
    double t0 = now_ms();
    Settings st;
    if (!parse_args(argc, argv, &st)) return 2;
    if (!mkdirs(st.out_dir)) {
        fprintf(stderr, "atlas_pack: %s: cannot create the output directory (%s)\n", st.out_dir.c_str(), strerror(errno));
        return 1;
    }
    struct stat sst;
    if (st.src_dirs.size() == 1 && (stat(st.src_dirs[0].c_str(), &sst) != 0 || !S_ISDIR(sst.st_mode)))
        fprintf(stderr, "atlas_pack: %s: no such directory, writing an empty atlas\n", st.src_dirs[0].c_str());

    std::vector<Input> inputs;
    std::map<std::string, size_t> taken;   /* sprite name -> the source folder it comes from */
    for (size_t d = 0; d < st.src_dirs.size(); d++) {   /* a missing folder (a game with no art) has nothing */
        std::vector<Input> found;
        scan(st.src_dirs[d], "", found);
        for (const Input &in : found) {
            std::string name = in.rel.substr(0, in.rel.rfind('.'));
            auto t = taken.find(name);
            if (t != taken.end() && t->second != d) continue;   /* an earlier folder has this name */
            taken[name] = d;
            inputs.push_back(in);
        }
    }
    std::sort(inputs.begin(), inputs.end(), [](const Input &a, const Input &b) { return a.rel < b.rel; });
    thal_manifest now;
    thal_init(&now);
    if (!list_sources(inputs, st, &now)) return 1;

    std::string manifest_path = st.out_dir + "/atlas.txt";
    thal_manifest old;
    thal_init(&old);
    char err[512];
    bool have_old = thal_load(&old, manifest_path.c_str(), err, sizeof err);
    if (have_old && up_to_date(old, now, st)) {
        printf("atlas_pack: up to date (%d sprites, %d pages)\n", old.sprite_count, old.page_count);
        thal_free(&old);
        thal_free(&now);
        return 0;
    }

    std::vector<Image> images = name_images(inputs);
    Mapped ase_cache;   /* a file that does not read keeps its frames from here: mapped until the end */
    std::string anims = expand_aseprite(images, st, &ase_cache);
    Mapped cache_map;
    int decoded = decode_images(images, st, &cache_map);
    std::vector<PageInfo> pages = place_images(images, st);
    int written = 0;
    if (!write_pages(pages, images, old, have_old, st, &now, &written)) return 1;
    if (!list_sprites(images, &now)) return 1;
    if (!write_anims(st.out_dir + "/anims.txt", anims)) {
        fprintf(stderr, "atlas_pack: %s/anims.txt: cannot write (%s)\n", st.out_dir.c_str(), strerror(errno));
        return 1;
    }
    if (!thal_save(&now, manifest_path.c_str(), err, sizeof err)) {
        fprintf(stderr, "atlas_pack: %s: %s\n", manifest_path.c_str(), err);
        return 1;
    }
    remove_stale_pages(st.out_dir, (int)pages.size());

    std::string cache_path = st.out_dir + "/atlas.cache";
    if (!cache_write(cache_path, images)) fprintf(stderr, "atlas_pack: %s: cannot write the cache (next run decodes everything)\n", cache_path.c_str());
    int errors = 0;
    for (Image &im : images) {
        if (!im.pixels) errors++;
        release(im);
    }
    printf("atlas_pack: %d sprites on %d pages (%d written, %d images decoded), %d errors, %.1f ms\n", (int)images.size() - errors,
           (int)pages.size(), written, decoded, errors, now_ms() - t0);
    thal_free(&old);
    thal_free(&now);
    return 0;
}
