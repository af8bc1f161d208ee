/* savedata.cpp - the game's save data: small named blobs that outlive the process.

   Where: --save-dir DIR if given (tests use a temporary folder), otherwise SDL_GetPrefPath's user data
   folder for the game's title (on Linux $XDG_DATA_HOME/<title>/ or ~/.local/share/<title>/; "NEON SWARM"
   is neon-swarm/, where its players' saves have always been). A development host keeps its saves apart,
   in <title>/dev/: a live session's experiments never overwrite a player's progress. A game that sets no
   title is named by its folder (game_folder.cpp).
   A blob NAME is the file NAME.sav: a 24-byte header ("ENGSAVE1", payload size, FNV-1a of the payload,
   0) and the payload. Writes go to a temporary file that is flushed and renamed over the old one, so a
   crash or a full disk leaves the previous save intact. A file that does not check out (wrong magic,
   size or hash) is renamed to NAME.sav.corrupt, named in the log and on screen, and load() reports
   "none": the game starts from its defaults and its next save writes a good file. */
#include "services.h"

#include <SDL.h>

#include <stdlib.h>
#include <string.h>

#define SAVE_MAGIC "ENGSAVE1"
enum { SAVE_HEADER = 24, SAVE_MAX = 1 << 20 };

static char g_save_dir[HOST_PATH];   /* with a trailing '/', "" until first used */

static void put_u32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put_u64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static uint32_t get_u32(const uint8_t *p) { uint32_t v = 0; for (int i = 3; i >= 0; i--) v = v << 8 | p[i]; return v; }
static uint64_t get_u64(const uint8_t *p) { uint64_t v = 0; for (int i = 7; i >= 0; i--) v = v << 8 | p[i]; return v; }

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 16777619u; }
    return h;
}

static int name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 1 || n > 64) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* The folder, decided on first use: by then the game has named itself (set_title in its load). */
const char *savedata_dir(void)
{
    if (g_save_dir[0]) return g_save_dir;
    if (options()->save_dir) {
        snprintf(g_save_dir, sizeof g_save_dir, "%s/", options()->save_dir);
        if (!os_make_dir(options()->save_dir)) {
            log_message(LOG_ERROR, "save data: cannot create --save-dir %s: %s", options()->save_dir, os_error_text());
            g_save_dir[0] = 0;
        }
        return g_save_dir;
    }
    char app[128];
    const char *title = window_title()[0] ? window_title() : g_host_mode.game_name() ? g_host_mode.game_name() : "game";
    size_t o = 0;
    for (const char *p = title; *p && o + 1 < sizeof app; p++) {
        char c = *p;
        app[o++] = (c >= 'A' && c <= 'Z')                               ? (char)(c - 'A' + 'a')
                   : ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c
                                                                        : '-';
    }
    app[o] = 0;
    const char *org, *name;
    g_host_mode.save_folder(app, &org, &name);
    char *pref = SDL_GetPrefPath(org, name);   /* creates the folder */
    if (!pref) { log_message(LOG_ERROR, "save data: no user data folder: %s", SDL_GetError()); return g_save_dir; }
    snprintf(g_save_dir, sizeof g_save_dir, "%s", pref);
    SDL_free(pref);
    log_message(LOG_INFO, "save data lives in %s", g_save_dir);
    return g_save_dir;
}

static int save_path(const char *name, char *out, size_t cap)
{
    if (!name_ok(name)) {
        log_message(LOG_ERROR, "save data: bad blob name '%.80s' (want 1..64 of A-Z a-z 0-9 _ -)",
                    name ? name : "(null)");
        return 0;
    }
    const char *dir = savedata_dir();
    if (!dir[0]) return 0;
    snprintf(out, cap, "%s%s.sav", dir, name);
    return 1;
}

static int save_blob(const char *name, const void *data, int64_t size)
{
    char path[HOST_PATH];
    if (!save_path(name, path, sizeof path)) return 0;
    if (size < 0 || size > SAVE_MAX || (size > 0 && !data)) {
        log_message(LOG_ERROR, "save data %s: %lld bytes is not a size it keeps (0..%d)", path, (long long)size,
                    SAVE_MAX);
        return 0;
    }
    uint8_t *buf = (uint8_t *)malloc(SAVE_HEADER + (size_t)size);
    if (!buf) return 0;
    memcpy(buf, SAVE_MAGIC, 8);
    put_u64(buf + 8, (uint64_t)size);
    put_u32(buf + 16, fnv1a((const uint8_t *)data, (size_t)size));
    put_u32(buf + 20, 0);
    if (size) memcpy(buf + SAVE_HEADER, data, (size_t)size);
    int ok = os_write_file_atomic(path, buf, SAVE_HEADER + (size_t)size);
    free(buf);
    char esc[HOST_PATH * 2];
    parse_json_escape(path, esc, sizeof esc);
    if (!ok) {
        log_message(LOG_ERROR, "save data %s: not written: %s", path, os_error_text());
        notice_post(LOG_ERROR, "could not write save data %s: %s", path, os_error_text());
    }
    log_event("save", "\"name\":\"%s\",\"path\":\"%s\",\"bytes\":%lld,\"ok\":%s", name, esc, (long long)size,
              ok ? "true" : "false");
    return ok;
}

static int64_t load_blob(const char *name, void *dst, int64_t cap)
{
    char path[HOST_PATH];
    if (!save_path(name, path, sizeof path)) return -1;
    if (!os_is_file(path)) return -1;   /* nothing saved yet: not an error */
    size_t len = 0;
    uint8_t *buf = (uint8_t *)os_read_file(path, &len, SAVE_HEADER + SAVE_MAX);
    const char *why = NULL;
    char whybuf[160];
    if (!buf) why = os_error_text();
    else if (len < SAVE_HEADER || memcmp(buf, SAVE_MAGIC, 8) != 0) why = "not a save file (bad header)";
    else if (get_u64(buf + 8) != len - SAVE_HEADER) {
        snprintf(whybuf, sizeof whybuf, "cut short or padded (header says %llu bytes, file holds %llu)",
                 (unsigned long long)get_u64(buf + 8), (unsigned long long)(len - SAVE_HEADER));
        why = whybuf;
    } else if (fnv1a(buf + SAVE_HEADER, len - SAVE_HEADER) != get_u32(buf + 16)) why = "checksum mismatch (damaged)";
    char esc[HOST_PATH * 2];
    parse_json_escape(path, esc, sizeof esc);
    if (why) {
        free(buf);
        char aside[HOST_PATH + 16];
        snprintf(aside, sizeof aside, "%s.corrupt", path);
        int moved = os_rename_file(path, aside);
        log_message(LOG_WARN, "save data %s is corrupt: %s; starting from defaults%s%s", path, why,
                    moved ? ", the file was kept as " : "", moved ? aside : "");
        notice_post(LOG_WARN, "save data %s is corrupt (%s): starting from defaults", path, why);
        char wesc[512];
        parse_json_escape(why, wesc, sizeof wesc);
        log_event("save_corrupt", "\"name\":\"%s\",\"path\":\"%s\",\"reason\":\"%s\"", name, esc, wesc);
        return -1;
    }
    int64_t size = (int64_t)(len - SAVE_HEADER);
    int64_t n = size < cap ? size : cap;
    if (n > 0) memcpy(dst, buf + SAVE_HEADER, (size_t)n);
    free(buf);
    log_event("load", "\"name\":\"%s\",\"path\":\"%s\",\"bytes\":%lld", name, esc, (long long)size);
    return size;
}

void savedata_fill_api(PlatformAPI *pf)
{
    pf->save = save_blob;
    pf->load = load_blob;
}
