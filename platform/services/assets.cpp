/* assets.cpp - what is loaded from disk for drawing: atlas pages, fonts, and the atlas_pack child
   that repacks them while the host runs.

   Reload: assets_file_changed() starts atlas_pack as a child process for a changed PNG, .pivot or Aseprite
           file (.aseprite/.ase: a sprite per frame, their tags in anims.txt, see sprite_anim.cpp);
           assets_update() polls it, then decodes the new manifest and only the pages whose hash changed
           on a worker thread, and swaps them in on the frame after. A changed TTF is re-baked on a
           worker thread the same way. The frame never waits for either.
   Errors: a missing or broken manifest, page, image or font is logged once with the file and the
           reason (and an "asset_error" event); what it affects draws as a placeholder until fixed,
           except a font: the last one that baked keeps drawing, and the error shows on screen. */
#include "render_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include <stb_image.h>

#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"

/* ---------------------------------------------------------------- small helpers */
static bool ends_with_ci(const char *s, const char *suffix);

/* A name the game's folder and the engine's assets/ both have: the game's is used, and the host says so once per
   name and run (log, event, a notice on screen). kind: "sprite", "sound", "font". */
void assets_note_override(const char *kind, const char *name, const char *game_file, const char *engine_file)
{
    static std::vector<std::string> noted;
    std::string key = std::string(kind) + ":" + name;
    if (std::find(noted.begin(), noted.end(), key) != noted.end()) return;
    noted.push_back(key);
    log_message(LOG_INFO, "assets: the %s %s is in the game's folder and in the engine's assets/: using %s", kind, name,
                game_file);
    log_event("asset_override", "\"kind\":\"%s\",\"name\":\"%s\",\"game\":\"%s\",\"engine\":\"%s\"", kind,
              assets_json_escaped(name).c_str(), assets_json_escaped(game_file).c_str(),
              assets_json_escaped(engine_file).c_str());
    notice_post(LOG_INFO, "%s %s: the game's own (%s) is used, not the engine's", kind, name, game_file);
}

/* The game's sprites whose names the engine's assets/sprites has too. */
static void note_sprite_overrides(const std::string &dir, const std::string &rel)
{
    struct Walk { std::string dir, rel; } w = { dir, rel };
    os_list_dir(dir.c_str(), [](void *ctx, const char *name, int is_dir) {
        Walk *w = (Walk *)ctx;
        if (name[0] == '.') return;
        std::string r = w->rel.empty() ? std::string(name) : w->rel + "/" + name;
        if (is_dir) { note_sprite_overrides(w->dir + "/" + name, r); return; }
        if (!ends_with_ci(name, ".png")) return;
        std::string engine = g_render.sprites_dir + "/" + r;
        if (os_is_file(engine.c_str()))
            assets_note_override("sprite", r.substr(0, r.size() - 4).c_str(), (w->dir + "/" + name).c_str(),
                                 engine.c_str());
    }, &w);
}

void assets_note_overrides(void)
{
    if (!g_render.game_sprites_dir.empty()) note_sprite_overrides(g_render.game_sprites_dir, "");
}
bool assets_file_exists(const std::string &p) { return os_is_file(p.c_str()); }

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return false;
    for (size_t i = 0; i < m; i++) {
        char a = s[n - m + i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != suffix[i]) return false;
    }
    return true;
}

static bool starts_with(const char *s, const std::string &prefix)
{
    return strncmp(s, prefix.c_str(), prefix.size()) == 0;
}

std::string assets_json_escaped(const std::string &s)
{
    std::vector<char> out(s.size() * 6 + 8);
    parse_json_escape(s.c_str(), out.data(), out.size());
    return std::string(out.data());
}

void assets_error(const std::string &file, const std::string &reason)
{
    log_message(LOG_ERROR, "asset %s: %s", file.c_str(), reason.c_str());
    log_event("asset_error", "\"file\":\"%s\",\"reason\":\"%s\"", assets_json_escaped(file).c_str(),
              assets_json_escaped(reason).c_str());
    notice_post(LOG_ERROR, "asset %s: %s", file.c_str(), reason.c_str());
}

bool assets_same_file(const std::string &a, const std::string &b)
{
    if (a == b) return true;
    char ra[HOST_PATH], rb[HOST_PATH];
    if (os_real_path(a.c_str(), ra, sizeof ra) && os_real_path(b.c_str(), rb, sizeof rb)) return strcmp(ra, rb) == 0;
    return false;
}


void assets_worker_start(Worker *w, void *(*fn)(void *), void *arg)
{
    w->state = 1;
    if (!os_thread_start(&w->th, fn, arg)) fn(arg);   /* no thread: do it now rather than not at all */
}

bool assets_worker_finished(Worker *w)
{
    if (w->state != 2) return false;
    os_thread_join(&w->th);
    w->state = 0;
    return true;
}

void assets_worker_wait(Worker *w)
{
    while (w->state == 1) os_sleep_ms(1);
    assets_worker_finished(w);
}

/* ---------------------------------------------------------------- sprite table */
static void table_build(const thal_manifest *m)
{
    uint32_t cap = 64;
    while (cap < (uint32_t)m->sprite_count * 2 + 16) cap *= 2;
    SpriteInfo *t = (SpriteInfo *)calloc(cap, sizeof(SpriteInfo));
    if (!t) { log_message(LOG_ERROR, "render: out of memory for the sprite table"); return; }
    for (int i = 0; i < m->sprite_count; i++) {
        const thal_sprite *s = &m->sprites[i];
        SpriteInfo info;
        memset(&info, 0, sizeof info);
        info.id = s->id;
        info.page = -1;
        info.w = info.h = PLACEHOLDER_SIZE;
        info.pivot_x = info.pivot_y = 0.5f;
        const SpriteInfo *old = render_sprite_lookup(s->id);
        if (old) { info.w = old->w; info.h = old->h; info.pivot_x = old->pivot_x; info.pivot_y = old->pivot_y; }
        if (!s->error) {
            info.w = (float)s->w;
            info.h = (float)s->h;
            info.pivot_x = s->pivot_x;
            info.pivot_y = s->pivot_y;
            if (s->page < g_render.page_count && g_render.pages[s->page].tex) {
                const Page &p = g_render.pages[s->page];
                info.page = s->page;
                info.u0 = (float)s->x / p.w;
                info.v0 = (float)s->y / p.h;
                info.u1 = (float)(s->x + s->w) / p.w;
                info.v1 = (float)(s->y + s->h) / p.h;
            }
        }
        for (uint32_t k = info.id & (cap - 1);; k = (k + 1) & (cap - 1))
            if (!t[k].id || t[k].id == info.id) { t[k] = info; break; }
    }
    free(g_render.table);
    g_render.table = t;
    g_render.table_mask = cap - 1;
}

/* ---------------------------------------------------------------- atlas loading */
static void atlas_job_run(AtlasJob *j)
{
    thal_init(&j->m);
    j->have_st = os_file_stamp(j->manifest_path.c_str(), &j->manifest_st);
    size_t len = 0;
    char *text = archive_read(j->manifest_path.c_str(), &len, 64u << 20, j->manifest_err, sizeof j->manifest_err);
    j->manifest_ok = text && thal_parse(&j->m, text, len, j->manifest_err, sizeof j->manifest_err);
    free(text);
    if (!j->manifest_ok) return;
    char anims_err[512];
    size_t anims_len = 0;
    char *anims = archive_read((j->dir + "/anims.txt").c_str(), &anims_len, 64u << 20, anims_err, sizeof anims_err);
    j->have_anims = anims != nullptr;
    if (anims) j->anims_text.assign(anims, anims_len);
    free(anims);
    int n = j->m.page_count < MAX_ATLAS_PAGES ? j->m.page_count : MAX_ATLAS_PAGES;
    j->pages.resize((size_t)n);
    for (int i = 0; i < n; i++) {
        const thal_page &p = j->m.pages[i];
        AtlasJob::Out &o = j->pages[(size_t)i];
        if (i < (int)j->current.size()) {
            const AtlasJob::Snap &c = j->current[(size_t)i];
            if (c.loaded && c.file == p.file && c.hash == p.hash && c.w == p.w && c.h == p.h) {
                o.reuse = true;
                continue;
            }
        }
        std::string path = j->dir + "/" + p.file;
        int w = 0, h = 0, comp = 0;
        char err[512];
        size_t n = 0;
        char *png = archive_read(path.c_str(), &n, 256u << 20, err, sizeof err);
        o.pixels =
            png && n <= 0x7fffffff ? stbi_load_from_memory((const stbi_uc *)png, (int)n, &w, &h, &comp, 4) : nullptr;
        free(png);
        if (!png) {
            o.err = err;
        } else if (!o.pixels) {
            const char *why = stbi_failure_reason();
            o.err = std::string("cannot decode: ") + (why ? why : "unknown error");
        } else if (w != p.w || h != p.h) {
            char b[160];
            snprintf(b, sizeof b, "is %dx%d but the manifest says %dx%d (repack with ./build.sh assets)", w, h, p.w,
                     p.h);
            o.err = b;
            stbi_image_free(o.pixels);
            o.pixels = nullptr;
        }
    }
}

static void *atlas_thread(void *arg)
{
    atlas_job_run((AtlasJob *)arg);
    g_render.atlas_worker.state = 2;
    return nullptr;
}

static AtlasJob *atlas_job_new(const std::string &trigger, double change_t)
{
    AtlasJob *j = new AtlasJob;
    j->dir = g_render.assets_out;
    j->manifest_path = g_render.manifest_path;
    for (int i = 0; i < g_render.page_count; i++)
        j->current.push_back({ g_render.pages[i].file, g_render.pages[i].hash, g_render.pages[i].w, g_render.pages[i].h,
                               g_render.pages[i].tex != nullptr });
    j->trigger = trigger;
    j->change_t = change_t;
    return j;
}

static void atlas_job_free(AtlasJob *j)
{
    for (AtlasJob::Out &o : j->pages) if (o.pixels) stbi_image_free(o.pixels);
    thal_free(&j->m);
    delete j;
}

/* Installs what the job read. Returns the number of atlas errors reported. */
static int atlas_apply(AtlasJob *j, bool announce)
{
    int errors = 0, reloaded = 0;
    g_render.have_manifest_st = j->have_st;
    if (j->have_st) g_render.manifest_st = j->manifest_st;
    if (!j->manifest_ok) {
        assets_error(j->manifest_path, std::string(j->manifest_err) +
                                           (j->have_st ? "; every sprite draws as a placeholder"
                                                       : "; run ./build.sh assets (sprites draw as placeholders)"));
        for (int i = 0; i < g_render.page_count; i++)
            if (g_render.pages[i].tex) SDL_DestroyTexture(g_render.pages[i].tex);
        for (int i = 0; i < g_render.page_count; i++) g_render.pages[i] = Page();
        g_render.page_count = 0;
        thal_manifest empty;
        thal_init(&empty);
        /* keep the ids that were known, now broken, so they keep their size */
        for (uint32_t k = 0; g_render.table && k <= g_render.table_mask; k++) {
            if (!g_render.table[k].id) continue;
            thal_sprite *s = thal_add_sprite(&empty);
            if (!s) break;
            s->id = g_render.table[k].id;
            s->error = 1;
        }
        table_build(&empty);
        thal_free(&empty);
        return 1;
    }
    Page next[MAX_ATLAS_PAGES];
    int n = (int)j->pages.size();
    for (int i = 0; i < n; i++) {
        const thal_page &mp = j->m.pages[i];
        AtlasJob::Out &o = j->pages[(size_t)i];
        next[i].w = mp.w;
        next[i].h = mp.h;
        next[i].hash = mp.hash;
        next[i].file = mp.file;
        if (o.reuse && i < g_render.page_count && g_render.pages[i].tex) {
            next[i].tex = g_render.pages[i].tex;
            g_render.pages[i].tex = nullptr;
            continue;
        }
        if (o.pixels) {
            next[i].tex = render_make_texture(o.pixels, mp.w, mp.h, g_render.page_filter);
            if (!next[i].tex) o.err = std::string("cannot create a texture: ") + SDL_GetError();
            else reloaded++;
        }
        if (!next[i].tex) {
            assets_error(j->dir + "/" + mp.file, o.err + "; its sprites draw as placeholders");
            errors++;
        }
    }
    if (j->m.page_count > MAX_ATLAS_PAGES) {
        assets_error(j->manifest_path, "more than " + std::to_string(MAX_ATLAS_PAGES) +
                                           " pages; the sprites beyond them draw as placeholders");
        errors++;
    }
    for (int i = 0; i < g_render.page_count; i++) if (g_render.pages[i].tex) SDL_DestroyTexture(g_render.pages[i].tex);
    for (int i = 0; i < MAX_ATLAS_PAGES; i++) g_render.pages[i] = i < n ? next[i] : Page();
    g_render.page_count = n;
    table_build(&j->m);
    sprite_anims_install(j->have_anims ? j->anims_text.data() : nullptr, j->anims_text.size(), j->dir + "/anims.txt");
    for (int i = 0; i < j->m.sprite_count; i++) {
        const thal_sprite &s = j->m.sprites[i];
        if (!s.error) continue;
        std::string own = g_render.game_sprites_dir + "/" + s.file;   /* the folder it came from: the game's first */
        bool game = !g_render.game_sprites_dir.empty() && os_is_file(own.c_str());
        assets_error(game ? own : g_render.sprites_dir + "/" + s.file, s.reason);
        errors++;
    }
    if (announce) {
        double ms = j->change_t >= 0 ? (log_time() - j->change_t) * 1000.0 : -1.0;
        log_message(LOG_INFO, "assets: atlas reloaded (%d pages, %d new) %.1f ms after %s", n, reloaded, ms,
                    j->trigger.c_str());
        log_event("asset_reload", "\"file\":\"%s\",\"ms\":%.1f,\"pages\":%d,\"pages_reloaded\":%d,\"errors\":%d",
                  assets_json_escaped(j->trigger).c_str(), ms, n, reloaded, errors);
    }
    return errors;
}

/* ---------------------------------------------------------------- the packer child */
/* from_change: started while handling a batch of changes, so it sees every file of that batch. */
static void pack_start(const std::string &trigger, double change_t, bool force, bool from_change)
{
    if (!os_is_file(g_render.packer.c_str())) {
        assets_error(trigger, "cannot repack: " + g_render.packer + " is missing (run ./build.sh tools)");
        return;
    }
    std::vector<const char *> argv;
    argv.push_back(g_render.packer.c_str());
    if (force) argv.push_back("--force");
    if (!g_render.game_sprites_dir.empty()) argv.push_back(g_render.game_sprites_dir.c_str());   /* first: it wins */
    argv.push_back(g_render.sprites_dir.c_str());
    argv.push_back(g_render.assets_out.c_str());
    argv.push_back(nullptr);
    if (!os_child_start(&g_render.pack, argv.data(), OS_CHILD_STDERR)) {
        assets_error(trigger, std::string("cannot start atlas_pack: ") + os_error_text());
        return;
    }
    g_render.pack_err.clear();
    g_render.pack_trigger = trigger;
    g_render.pack_change_t = change_t;
    g_render.pack_started_this_frame = from_change;
}

static void pack_drain(void)
{
    char buf[4096];
    int n;
    while ((n = os_child_read(&g_render.pack, buf, sizeof buf)) > 0)
        if (g_render.pack_err.size() < 16384) g_render.pack_err.append(buf, (size_t)n);
}

/* Returns 1 on the frame the child finished; *ok says whether it wrote a manifest. */
static int pack_poll(int *ok)
{
    if (!g_render.pack.pid) return 0;
    pack_drain();
    int code = -1, sig = 0;
    int r = os_child_poll(&g_render.pack, &code, &sig);
    if (r == 0) return 0;
    pack_drain();
    os_child_kill(&g_render.pack);          /* ended: closes the pipe */
    if (r < 0) { *ok = 1; return 1; }      /* reaped elsewhere: look at what is on disk */
    *ok = !sig && code == 0;
    if (!*ok) {
        std::string out = g_render.pack_err;
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        char b[64];
        if (!sig) snprintf(b, sizeof b, "atlas_pack exited with %d", code);
        else snprintf(b, sizeof b, "atlas_pack killed by signal %d", sig);
        assets_error(g_render.assets_out,
                     std::string(b) + (out.empty() ? "" : ": " + out) + "; keeping the previous atlas");
    }
    return 1;
}

static void pack_request(const std::string &trigger, double now)
{
    if (!g_render.pack.pid && g_render.atlas_worker.state == 0 && !g_render.pack_queued) {
        pack_start(trigger, now, true, true);
        return;
    }
    if (g_render.pack_started_this_frame) return;   /* started after this change was already on disk */
    if (!g_render.pack_queued) g_render.queued_change_t = now;
    g_render.pack_queued = 1;
    g_render.queued_trigger = trigger;
}

static bool manifest_changed_on_disk(void)
{
    OsFileStamp st;
    if (!os_file_stamp(g_render.manifest_path.c_str(), &st)) return g_render.have_manifest_st;
    if (!g_render.have_manifest_st) return true;
    return !os_same_stamp(&st, &g_render.manifest_st);
}

void assets_file_changed(const char *path)
{
    if (!path || !g_render.ren) return;
    double now = log_time();
    std::string sprites_prefix = g_render.sprites_dir + "/", game_prefix = g_render.game_sprites_dir + "/";
    bool sprite_dir =
        starts_with(path, sprites_prefix) || (!g_render.game_sprites_dir.empty() && starts_with(path, game_prefix));
    if (sprite_dir && (ends_with_ci(path, ".png") || ends_with_ci(path, ".pivot") || ends_with_ci(path, ".aseprite") ||
                       ends_with_ci(path, ".ase"))) {
        assets_note_overrides();   /* a new file of the game's may hide one of the engine's */
        pack_request(path, now);
        return;
    }
    if (ends_with_ci(path, ".ttf") || ends_with_ci(path, ".otf")) {
        std::string p = path, target;
        if (g_render.font_configured) {
            if (assets_same_file(p, g_render.font_path)) target = g_render.font_path;
        } else if (p == g_render.root + "/" + PROJECT_FONT ||
                   (g_host_mode.game_folder && p == std::string(g_host_mode.game_folder()) + "/" + PROJECT_FONT)) {
            target = font_resolve(nullptr);
        } else if (assets_same_file(p, g_render.font_path)) {
            target = g_render.font_path;
        }
        if (!target.empty()) font_start_bake(target, p, now);
    }
}

void assets_update(void)
{
    if (!g_render.ren) return;
    int ok = 0;
    g_render.pack_started_this_frame = 0;
    if (pack_poll(&ok)) {
        if (ok && (manifest_changed_on_disk() || g_render.pack_trigger != "start")) {
            g_render.atlas_job = atlas_job_new(g_render.pack_trigger, g_render.pack_change_t);
            assets_worker_start(&g_render.atlas_worker, atlas_thread, g_render.atlas_job);
        }
    }
    if (assets_worker_finished(&g_render.atlas_worker) && g_render.atlas_job) {
        atlas_apply(g_render.atlas_job, true);
        atlas_job_free(g_render.atlas_job);
        g_render.atlas_job = nullptr;
    }
    if (!g_render.pack.pid && g_render.atlas_worker.state == 0 && g_render.pack_queued) {
        g_render.pack_queued = 0;
        double t = g_render.queued_change_t;
        g_render.queued_change_t = -1;
        pack_start(g_render.queued_trigger, t, true, false);
    }
    if (assets_worker_finished(&g_render.font_worker) && g_render.font_job) {
        FontBake *fb = g_render.font_job;
        g_render.font_job = nullptr;
        font_install(fb, true, g_render.font_job_trigger, g_render.font_job_change_t);
    }
    if (g_render.font_worker.state == 0 && g_render.font_queued) {
        g_render.font_queued = 0;
        double t = g_render.font_queued_change_t;
        g_render.font_queued_change_t = -1;
        std::string target = g_render.font_configured ? g_render.font_path : font_resolve(nullptr);
        font_start_bake(target, g_render.font_queued_trigger, t);
    }
}


/* ---------------------------------------------------------------- start and stop */
int assets_init(const char *font_path)
{
    bool font_ok = font_init(font_path);

    /* A game's own atlas the first time: packed now, so the first frame has it (later starts check it in the
       background, below) */
    if (!archive_mounted() && !g_render.game_sprites_dir.empty() && !os_is_file(g_render.manifest_path.c_str()) &&
        os_is_file(g_render.packer.c_str())) {
        const char *argv[] = { g_render.packer.c_str(), g_render.game_sprites_dir.c_str(), g_render.sprites_dir.c_str(),
                               g_render.assets_out.c_str(), nullptr };
        char out[2048];
        int code = os_run(argv, out, sizeof out, 120);
        if (code != 0) assets_error(g_render.assets_out, std::string("atlas_pack failed: ") + out);
    }
    assets_note_overrides();

    AtlasJob *j = atlas_job_new("start", -1);
    atlas_job_run(j);
    bool atlas_ok = j->manifest_ok;
    int errors = atlas_apply(j, false);
    atlas_job_free(j);

    /* the assets may have changed while the host was not running: a no-op when they did not (a release
       has no sources to pack) */
    if (!archive_mounted() && os_is_file(g_render.packer.c_str())) pack_start("start", log_time(), false, false);
    return font_ok && atlas_ok && errors == 0;
}

void assets_shutdown(void)
{
    os_child_kill(&g_render.pack);
    assets_worker_wait(&g_render.atlas_worker);
    if (g_render.atlas_job) { atlas_job_free(g_render.atlas_job); g_render.atlas_job = nullptr; }
    assets_worker_wait(&g_render.font_worker);
    delete g_render.font_job;
    g_render.font_job = nullptr;
    for (int i = 0; i < g_render.page_count; i++) if (g_render.pages[i].tex) SDL_DestroyTexture(g_render.pages[i].tex);
    for (int i = 0; i < MAX_ATLAS_PAGES; i++) g_render.pages[i] = Page();
    g_render.page_count = 0;
    if (g_render.system) SDL_DestroyTexture(g_render.system);
    g_render.system = nullptr;
    delete g_render.font;
    g_render.font = nullptr;
    free(g_render.table);
    g_render.table = nullptr;
    g_render.table_mask = 0;
    g_render.pack_queued = g_render.font_queued = 0;
    g_render.notice.clear();
    g_render.notice_file.clear();
    g_render.queued_change_t = g_render.font_queued_change_t = -1;
    g_render.have_manifest_st = 0;
}

/* PlatformAPI read_file: a file below the game's folder or the project root (the engine's shared files),
   looked up in that order, into the game's buffer; in a release, the file of that name in the archive. The
   path is resolved (symlinks, "..") and must stay below the resolved root it was found in: the game reads
   its own folder and the engine's, never the rest of the disk. cap is the game's buffer size:
   negative or beyond READ_FILE_MAX_CAP is refused (never handed to fread as a huge size). */
#define READ_FILE_MAX_CAP (1ll << 30)

static int path_below(const char *real, const char *root_in)   /* real lies below the folder root_in */
{
    char root[HOST_PATH];
    snprintf(root, sizeof root, "%s", root_in);
    size_t rl = strlen(root);
    while (rl > 1 && root[rl - 1] == '/') root[--rl] = 0;
    int below = strlen(real) > rl && real[rl] == '/';
    for (size_t i = 0; below && i < rl; i++) {
#if defined(_WIN32)
        below = tolower((unsigned char)real[i]) == tolower((unsigned char)root[i]);   /* drive letters, NTFS */
#else
        below = real[i] == root[i];
#endif
    }
    return below;
}

int64_t assets_read_file(const char *path, void *dst, int64_t cap)
{
    if (!path || !path[0]) { log_message(LOG_WARN, "read_file: an empty path"); return -1; }
    if (cap < 0 || cap > READ_FILE_MAX_CAP || (!dst && cap > 0)) {
        log_message(LOG_WARN, "read_file: %s: refused: buffer size %lld (0..%lld bytes, and a buffer)", path,
                    (long long)cap, (long long)READ_FILE_MAX_CAP);
        return -1;
    }
    if (archive_mounted()) {
        char err[512];
        size_t n = 0;
        char *data = cap >= 0 ? archive_read(path, &n, (size_t)-2, err, sizeof err) : NULL;
        if (!data) { log_message(LOG_WARN, "read_file: %s: %s", path, cap >= 0 ? err : "negative size"); return -1; }
        int64_t take = (int64_t)n < cap ? (int64_t)n : cap;
        memcpy(dst, data, (size_t)take);
        free(data);
        return take;
    }
    char full[HOST_PATH], real[HOST_PATH], root[HOST_PATH];
    int absolute = path[0] == '/' || path[0] == '\\' || (path[0] && path[1] == ':');
    const char *roots[] = { g_host_mode.game_folder(), host_root() };   /* the same folder twice in a release */
    int found = -1, below = 0;
    for (int r = 0; r < (int)(sizeof roots / sizeof roots[0]) && !below; r++) {
        if (absolute) snprintf(full, sizeof full, "%s", path);
        else snprintf(full, sizeof full, "%s/%s", roots[r], path);
        if (!os_real_path(full, real, sizeof real)) continue;
        if (found < 0) found = r;
        if (!os_real_path(roots[r], root, sizeof root)) snprintf(root, sizeof root, "%s", roots[r]);
        below = path_below(real, root);
        if (!absolute) break;   /* a relative name is the first root's that has it */
    }
    if (found < 0) {
        if (!absolute) snprintf(full, sizeof full, "%s/%s", roots[0], path);
        log_message(LOG_WARN, "read_file: %s: %s", full, os_error_text());
        return -1;
    }
    if (!below) {
        log_message(LOG_WARN,
                    "read_file: %s: refused: it resolves to %s, outside the game's folder and the project %s (the game "
                    "reads only files below them)",
                    path, real, host_root());
        return -1;
    }
    FILE *f = fopen(real, "rb");
    if (!f) { log_message(LOG_WARN, "read_file: %s: %s", real, strerror(errno)); return -1; }
    int64_t n = (int64_t)fread(dst, 1, (size_t)cap, f);
    /* a read that failed is -1, never a count: a directory opens on some systems and reads nothing (EISDIR) */
    int failed = ferror(f);
    int err = errno;
    fclose(f);
    if (failed) { log_message(LOG_WARN, "read_file: %s: %s", real, strerror(err)); return -1; }
    return n;
}
