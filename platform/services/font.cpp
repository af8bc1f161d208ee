/* font.cpp - the text font. Fonts are untrusted input and stb_truetype trusts its input, so the host
   never parses a TTF: the child tools/font_bake does, and the host reads only its output through
   thfb_decode (tinyheaders/th_fontbake.h), which checks every field. A crash, a hang (stopped after
   FONT_BAKE_TIMEOUT_S) or a bad output costs a message naming the file, on screen and in the log; the
   last font that baked keeps drawing (boxes stand in only when none ever did). Baking runs on a worker
   thread (or at start), installing on the main thread. */
#include "render_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TH_FONTBAKE_IMPLEMENTATION
#include "th_fontbake.h"

/* ---------------------------------------------------------------- baking in the child */
enum { WHITE_BLOCK = THFB_WHITE };

static void font_white_only(FontBake *fb)
{
    fb->w = fb->h = WHITE_BLOCK;
    fb->rgba.assign((size_t)WHITE_BLOCK * WHITE_BLOCK * 4, 255);
    fb->white_x = fb->white_y = 0;
}

static std::string signal_text(int sig)
{
    static const struct { int no; const char *name; } NAMES[] = {
        { 4, "SIGILL" }, { 6, "SIGABRT" }, { 7, "SIGBUS" }, { 8, "SIGFPE" }, { 9, "SIGKILL" }, { 11, "SIGSEGV" },
        { 15, "SIGTERM" }, { 24, "SIGXCPU: out of CPU time" } };
    for (const auto &n : NAMES) if (n.no == sig) return "signal " + std::to_string(sig) + ", " + n.name;
    return "signal " + std::to_string(sig);
}

/* Runs font_bake on path and waits for it; "" and the baked bytes in *out, or why not. */
static std::string font_run_baker(const std::string &path, int seq, std::vector<unsigned char> *out)
{
    if (!os_is_file(g_render.font_baker.c_str()))
        return "cannot bake: " + g_render.font_baker + " is missing (run ./build.sh tools)";
    std::string dir = g_render.root + "/build/fonts";
    os_make_dir((g_render.root + "/build").c_str());
    os_make_dir(dir.c_str());
    std::string result = dir + "/bake-" + std::to_string(os_pid()) + "-" + std::to_string(seq) + ".thfb";
    const char *argv[] = { g_render.font_baker.c_str(), path.c_str(), result.c_str(), nullptr };
    OsChild child;
    if (!os_child_start(&child, argv, OS_CHILD_STDERR))
        return std::string("cannot start font_bake: ") + os_error_text();
    std::string said;
    int code = -1, sig = 0, ended = 0;
    const double until = os_mono_seconds() + FONT_BAKE_TIMEOUT_S;
    for (;;) {
        char buf[1024];
        int n = os_child_read(&child, buf, sizeof buf);
        if (n > 0) { if (said.size() < 4096) said.append(buf, (size_t)n); continue; }
        if ((ended = os_child_poll(&child, &code, &sig)) != 0) break;
        if (os_mono_seconds() > until) break;
        os_sleep_ms(2);
    }
    for (char buf[1024]; ended == 1;) {            /* what it said just before it ended */
        int n = os_child_read(&child, buf, sizeof buf);
        if (n <= 0) break;
        if (said.size() < 4096) said.append(buf, (size_t)n);
    }
    os_child_kill(&child);                          /* stops one that ran out of time; closes the pipe */
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
    const std::string prefix = "font_bake: " + path + ": ";
    if (said.compare(0, prefix.size(), prefix) == 0) said.erase(0, prefix.size());
    char b[200];
    std::string why;
    if (ended == 0) {
        snprintf(b, sizeof b, "font_bake took longer than %.0f s and was stopped (a damaged font?)",
                 FONT_BAKE_TIMEOUT_S);
        why = b;
    } else if (ended < 0) {
        why = std::string("lost track of font_bake: ") + os_error_text();
    } else if (sig) {
        snprintf(b, sizeof b, "font_bake crashed reading it (%s): the font is damaged or crafted",
                 signal_text(sig).c_str());
        why = b;
    } else if (code != 0) {
        why = said.empty() ? "font_bake failed (exit " + std::to_string(code) + ")" : said;
    }
    if (!why.empty()) { os_remove_file(result.c_str()); return why; }
    size_t n = 0;
    char *data = os_read_file(result.c_str(), &n, (size_t)THFB_MAX_SIDE * THFB_MAX_SIDE + (64u << 20));
    os_remove_file(result.c_str());
    if (!data) return std::string("cannot read font_bake's output: ") + os_error_text();
    out->assign((unsigned char *)data, (unsigned char *)data + n);
    free(data);
    return "";
}

FontBake *font_bake(const std::string &path, int seq)
{
    FontBake *fb = new FontBake;
    fb->path = path;
    std::vector<unsigned char> bytes;
    std::string why;
    if (archive_mounted()) {   /* a release: baked when it was packed, read from the archive */
        char err[512];
        size_t n = 0;
        char *data =
            archive_read(path.c_str(), &n, (size_t)THFB_MAX_SIDE * THFB_MAX_SIDE + (64u << 20), err, sizeof err);
        if (data) bytes.assign((unsigned char *)data, (unsigned char *)data + n);
        else why = err;
        free(data);
    } else {
        why = font_run_baker(path, seq, &bytes);
    }
    char err[256];
    if (why.empty() && !thfb_decode(bytes.data(), bytes.size(), &fb->baked, err, sizeof err))
        why = std::string("font_bake's output is invalid: ") + err;
    if (!why.empty()) {
        fb->error = why;
        font_white_only(fb);
        return fb;
    }
    const thfb_font &bf = fb->baked;
    fb->w = bf.page_w;
    fb->h = bf.page_h;
    fb->white_x = bf.white_x;
    fb->white_y = bf.white_y;
    fb->rgba.resize((size_t)bf.page_w * bf.page_h * 4);
    for (size_t i = 0; i < (size_t)bf.page_w * bf.page_h; i++) {
        fb->rgba[i * 4 + 0] = fb->rgba[i * 4 + 1] = fb->rgba[i * 4 + 2] = 255;
        fb->rgba[i * 4 + 3] = bf.alpha[i];
    }
    free(fb->baked.alpha);
    fb->baked.alpha = nullptr;
    fb->ok = 1;
    return fb;
}

FontBake::~FontBake() { thfb_free(&baked); }

static void *font_thread(void *arg)
{
    (void)arg;
    g_render.font_job = font_bake(g_render.font_job_path, g_render.font_job_seq);
    g_render.font_worker.state = 2;
    return nullptr;
}

/* Installs a bake. A failed one replaces nothing that works: the last good font keeps drawing and
   the error stays on screen until the font bakes (boxes stand in only when no font ever baked). */
void font_install(FontBake *fb, bool announce, const std::string &trigger, double change_t)
{
    const bool have_good = g_render.font && g_render.font->ok;
    if (!fb->ok) {
        std::string reason = fb->error + (have_good ? "; text keeps drawing in " + g_render.font->path
                                                    : std::string("; text draws as boxes until a font loads"));
        assets_error(fb->path, reason);
        g_render.notice = "font " + fb->path + ": " + reason;   /* on screen until this font bakes */
        g_render.notice_file = fb->path;
    } else if (g_render.notice_file == fb->path || fb->path == g_render.font_path) {
        g_render.notice.clear();
        g_render.notice_file.clear();
    }
    if (announce) {
        double ms = change_t >= 0 ? (log_time() - change_t) * 1000.0 : -1.0;
        log_message(fb->ok ? LOG_INFO : LOG_WARN, "assets: font %s %s %.1f ms after the change", fb->path.c_str(),
                    fb->ok ? "re-baked" : "failed to bake", ms);
        log_event("asset_reload", "\"file\":\"%s\",\"ms\":%.1f,\"font\":true,\"ok\":%s",
                  assets_json_escaped(trigger).c_str(), ms, fb->ok ? "true" : "false");
    }
    if (!fb->ok && have_good) { delete fb; return; }
    SDL_Texture *t = render_make_texture(fb->rgba.data(), fb->w, fb->h, SDL_ScaleModeLinear);
    if (!t) {
        log_message(LOG_ERROR, "render: cannot create the text texture: %s", SDL_GetError());
        delete fb;
        return;
    }
    if (g_render.system) SDL_DestroyTexture(g_render.system);
    g_render.system = t;
    delete g_render.font;
    g_render.font = fb;
    g_render.white_u0 = (float)(fb->white_x + 2) / fb->w;
    g_render.white_v0 = (float)(fb->white_y + 2) / fb->h;
    g_render.white_u1 = (float)(fb->white_x + 4) / fb->w;
    g_render.white_v1 = (float)(fb->white_y + 4) / fb->h;
    fb->rgba.clear();
    fb->rgba.shrink_to_fit();
}

/* At start: the font asked for, and when it is broken the default font stands in for it (text still
   reads) until a save of it bakes. 1 if the font asked for baked. */
int font_init(const char *configured)
{
    g_render.font_configured = configured && *configured;
    g_render.font_baker = g_render.root + "/build/tools/font_bake" OS_EXE_SUFFIX;
    g_render.font_path = font_resolve(configured);
    FontBake *wanted = font_bake(g_render.font_path, ++g_render.font_seq);
    const int ok = wanted->ok;
    if (!ok && !archive_mounted() && !assets_same_file(g_render.font_path, DEFAULT_FONT) &&
        assets_file_exists(DEFAULT_FONT)) {
        FontBake *fallback = font_bake(DEFAULT_FONT, ++g_render.font_seq);
        if (fallback->ok) font_install(fallback, false, "", -1);
        else {
            log_message(LOG_WARN, "assets: the fallback font %s does not bake either: %s", DEFAULT_FONT,
                        fallback->error.c_str());
            delete fallback;
        }
    }
    font_install(wanted, false, "", -1);
    return ok;
}

std::string font_resolve(const char *configured)
{
    if (archive_mounted()) return PACKED_FONT;
    if (configured && *configured) {
        if (configured[0] == '/' || assets_file_exists(configured)) return configured;
        std::string in_root = g_render.root + "/" + configured;
        return assets_file_exists(in_root) ? in_root : std::string(configured);
    }
    const char *game = g_host_mode.game_folder ? g_host_mode.game_folder() : nullptr;
    std::string own = game ? std::string(game) + "/" + PROJECT_FONT : std::string();   /* the game's font first */
    if (!own.empty() && assets_file_exists(own)) {
        std::string engine = g_render.root + "/" + PROJECT_FONT;
        if (assets_file_exists(engine) && !assets_same_file(own, engine))
            assets_note_override("font", "default", own.c_str(), engine.c_str());
        return own;
    }
    std::string project = g_render.root + "/" + PROJECT_FONT;
    return assets_file_exists(project) ? project : std::string(DEFAULT_FONT);
}

void font_start_bake(const std::string &path, const std::string &trigger, double change_t)
{
    if (g_render.font_worker.state != 0) {
        g_render.font_queued = 1;
        g_render.font_queued_trigger = trigger;
        if (g_render.font_queued_change_t < 0) g_render.font_queued_change_t = change_t;
        return;
    }
    g_render.font_path = path;
    g_render.font_job_path = path;
    g_render.font_job_seq = ++g_render.font_seq;
    g_render.font_job_trigger = trigger;
    g_render.font_job_change_t = change_t;
    assets_worker_start(&g_render.font_worker, font_thread, nullptr);
}

