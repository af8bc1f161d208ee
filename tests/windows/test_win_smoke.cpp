/* test_win_smoke.cpp - the Windows build's ground floor, run under wine by ./build.sh test-windows.

   Checks what every other Windows test stands on:
   - SDL2 (cross-built for mingw) starts with the offscreen video driver and its software renderer
     draws pixels that can be read back;
   - the game library cross-built as a DLL loads from a versioned copy and exports game_get_api with
     this header's GAME_API_VERSION; a block can be reserved at the host's fixed address;
   - FreeLibrary really unloads it: GetModuleHandle no longer finds it, its code pages are MEM_FREE,
     and the copy can then be deleted (Windows keeps a loaded DLL's file locked).

   usage: test_win_smoke.exe <game.dll> <scratch folder>
   Ends with "N passed, N failed". */
#define SDL_MAIN_HANDLED
#include <SDL.h>
#include <windows.h>
#include <stdio.h>
#include <string.h>

#include "game_api.h"

static int g_pass, g_fail;
static void check(int ok, const char *what)
{
    if (ok) g_pass++; else g_fail++;
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
}

static void sdl_checks(void)
{
    check(SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS | SDL_INIT_TIMER) == 0, "SDL_Init (video, events, timer)");
    const char *driver = SDL_GetCurrentVideoDriver();
    check(driver && strcmp(driver, "offscreen") == 0, "video driver is offscreen");
    SDL_Window *win = SDL_CreateWindow("smoke", 0, 0, 64, 48, 0);
    SDL_Renderer *r = win ? SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE) : NULL;
    check(r != NULL, "software renderer on the offscreen window");
    if (r) {
        SDL_SetRenderDrawColor(r, 10, 200, 30, 255);
        SDL_RenderClear(r);
        SDL_SetRenderDrawColor(r, 250, 5, 100, 255);
        SDL_Rect box = {20, 10, 8, 8};
        SDL_RenderFillRect(r, &box);
        Uint32 outside = 0, inside = 0;
        SDL_Rect p1 = {2, 2, 1, 1}, p2 = {23, 13, 1, 1};
        SDL_RenderReadPixels(r, &p1, SDL_PIXELFORMAT_ARGB8888, &outside, 4);
        SDL_RenderReadPixels(r, &p2, SDL_PIXELFORMAT_ARGB8888, &inside, 4);
        printf("pixels: %08x %08x\n", (unsigned)outside, (unsigned)inside);
        check(outside == 0xff0ac81eu && inside == 0xfffa0564u, "drawn pixels read back");
        SDL_DestroyRenderer(r);
    }
    if (win) SDL_DestroyWindow(win);
    SDL_Quit();
}

static void game_checks(const char *dll, const char *scratch)
{
    char copy[MAX_PATH];
    snprintf(copy, sizeof copy, "%s\\game_smoke_1.dll", scratch);
    check(CopyFileA(dll, copy, FALSE) != 0, "copy the game DLL to a versioned name");

    HMODULE lib = LoadLibraryA(copy);
    check(lib != NULL, "LoadLibrary on the copy");
    if (!lib) { printf("LoadLibrary error %lu\n", GetLastError()); return; }
    game_get_api_fn *get_api = (game_get_api_fn *)(void *)GetProcAddress(lib, GAME_ENTRY_SYMBOL);
    check(get_api != NULL, "game_get_api exported");
    if (!get_api) return;
    GameAPI api = get_api();
    check(api.api_version == GAME_API_VERSION && api.state_size > 0 && api.load && api.update && api.render,
          "entry points and state size");

    /* The block at a fixed address, as the host reserves it in development. */
    const uint64_t size = 64ull << 20;
    void *base = VirtualAlloc((void *)(uintptr_t)0x200000000000ull, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    check(base == (void *)(uintptr_t)0x200000000000ull, "block reserved at the fixed address");
    if (!base) return;

    /* Running the game is the e2e test's job, with the real host's PlatformAPI. */
    uint8_t *bytes = (uint8_t *)base;
    bytes[0] = 1;
    bytes[size - 1] = 2;
    check(bytes[0] == 1 && bytes[size - 1] == 2, "the block is writable end to end");

    /* Unload and verify the image is gone, not just dereferenced. */
    void *code = (void *)api.update;
    check(FreeLibrary(lib) != 0, "FreeLibrary");
    check(GetModuleHandleA("game_smoke_1.dll") == NULL, "GetModuleHandle no longer finds the DLL");
    MEMORY_BASIC_INFORMATION mbi;
    check(VirtualQuery(code, &mbi, sizeof mbi) == sizeof mbi && mbi.State == MEM_FREE, "its code pages are MEM_FREE");
    check(DeleteFileA(copy) != 0, "the unloaded copy can be deleted");
}

int main(int argc, char **argv)
{
    if (argc < 3) { printf("usage: %s <game.dll> <scratch folder>\n0 passed, 1 failed\n", argv[0]); return 2; }
    sdl_checks();
    game_checks(argv[1], argv[2]);
    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
