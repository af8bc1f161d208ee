/* window.cpp - the window as the player sees it: the title the game gives itself, fullscreen (F11 or
   Alt+Enter), the game's own Quit, and losing the focus (the game pauses). */
#include "services.h"

#include <SDL.h>

#include <string.h>

static struct {
    SDL_Window *win;
    char        title[128];
    int         focus_lost;      /* latched until the next step reads it */
} g_window;

void window_attach(SDL_Window *win)
{
    g_window.win = win;
    const char *name = g_host_mode.game_name();
    if (win && name && !g_window.title[0]) SDL_SetWindowTitle(win, name);   /* until the game names itself */
}
const char *window_title(void) { return g_window.title; }

static void set_title(const char *utf8)
{
    if (!utf8 || !strcmp(utf8, g_window.title)) return;
    snprintf(g_window.title, sizeof g_window.title, "%s", utf8);
    if (g_window.win) SDL_SetWindowTitle(g_window.win, g_window.title);
}

static void quit_request(void)
{
    log_message(LOG_INFO, "the game asked to quit");
    frame_loop()->quit = 1;
}

void window_fill_api(PlatformAPI *pf)
{
    pf->set_title = set_title;
    pf->quit = quit_request;
}

void window_toggle_fullscreen(void)
{
    if (!g_window.win) return;
    int full = (SDL_GetWindowFlags(g_window.win) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0;
    if (SDL_SetWindowFullscreen(g_window.win, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP) != 0)
        log_message(LOG_WARN, "fullscreen: %s", SDL_GetError());
    log_event("fullscreen", "\"on\":%s", full ? "false" : "true");
}

int window_handle_event(const SDL_Event *e)
{
    if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
        g_window.focus_lost = 1;
        log_event("focus_lost", "");
        return 0;   /* the input keeps its own bookkeeping too */
    }
    if (e->type == SDL_KEYDOWN && !e->key.repeat) {
        SDL_Scancode sc = e->key.keysym.scancode;
        int alt = (e->key.keysym.mod & KMOD_ALT) != 0;
        if (sc == SDL_SCANCODE_F11 || (alt && (sc == SDL_SCANCODE_RETURN || sc == SDL_SCANCODE_KP_ENTER))) {
            window_toggle_fullscreen();
            return 1;   /* Alt+Enter is not also the game's Enter */
        }
    }
    return 0;
}

int window_take_focus_lost(void)
{
    int v = g_window.focus_lost;
    g_window.focus_lost = 0;
    return v;
}
