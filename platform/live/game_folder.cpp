/* game_folder.cpp - which game runs: its folder (--game DIR; <root>/game, the sample, by default), the
   folder its build outputs live in, and its name (the window's first title).

   The build folder is <root>/build/game/ for the sample, and <root>/build/games/<name>-<FNV-1a of the
   folder's real path, 8 hex digits>/ for any other, so two game folders with the same name never share a
   library, a layout stamp or a loaded/ copy; build.sh asks for it (--print-game-build). In a release there
   is no game folder: nothing here is used but the name. */
#include "live.h"

#include <string.h>

static struct {
    int  ready;
    char dir[HOST_PATH];     /* real path of the game's folder */
    char build[HOST_PATH];   /* its build outputs: libgame.so, compile.cmd, state_types.inc, loaded/ */
    char name[128];          /* the folder's name, lower case, [a-z0-9_-] */
} g_game;

static uint32_t path_hash(const char *s)   /* FNV-1a 32 (build.sh asks: build/host --print-game-build) */
{
    uint32_t h = 2166136261u;
    for (; *s; s++) { h ^= (uint8_t)*s; h *= 16777619u; }
    return h;
}

static void resolve(void)
{
    if (g_game.ready) return;
    g_game.ready = 1;
    char root[HOST_PATH], sample[HOST_PATH], sample_real[HOST_PATH];
    if (!os_real_path(host_root(), root, sizeof root)) snprintf(root, sizeof root, "%s", host_root());
    snprintf(sample, sizeof sample, "%s/game", root);
    /* compared as the OS spells a real path (on Windows: its own separators and case) */
    if (!os_real_path(sample, sample_real, sizeof sample_real)) snprintf(sample_real, sizeof sample_real, "%s", sample);
    const char *want = options()->game && options()->game[0] ? options()->game : sample;
    if (!os_real_path(want, g_game.dir, sizeof g_game.dir)) {
        log_message(LOG_ERROR, "game folder %s: %s", want, os_error_text());
        snprintf(g_game.dir, sizeof g_game.dir, "%s", want);
    }
    size_t n = strlen(g_game.dir);
    while (n > 1 && (g_game.dir[n - 1] == '/' || g_game.dir[n - 1] == '\\')) g_game.dir[--n] = 0;
    const char *base = g_game.dir + n;
    while (base > g_game.dir && base[-1] != '/' && base[-1] != '\\') base--;
    size_t o = 0;
    for (const char *p = base; *p && o + 1 < sizeof g_game.name; p++) {
        char c = *p;
        g_game.name[o++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a')
                         : ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') ? c : '-';
    }
    g_game.name[o] = 0;
    char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/build", root);
    os_make_dir(p);
    if (!strcmp(g_game.dir, sample_real)) snprintf(g_game.build, sizeof g_game.build, "%s/build/game", root);
    else {
        snprintf(p, sizeof p, "%s/build/games", root);
        os_make_dir(p);
        snprintf(g_game.build, sizeof g_game.build, "%s/build/games/%s-%08x", root, g_game.name, path_hash(g_game.dir));
    }
    os_make_dir(g_game.build);   /* made on first use: the loaded/ copies and the watch need it */
}

const char *game_folder(void) { resolve(); return g_game.dir; }
const char *game_build_folder(void) { resolve(); return g_game.build; }
const char *game_folder_name(void) { resolve(); return g_game.name; }
