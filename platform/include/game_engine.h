/* game_engine.h - the engine's part of a game's own header: what every game folder includes first.

   A game folder (docs/game_api.md, "The game folder") holds state.h and game.cpp; game.cpp includes this
   file, which brings in the contract (game_api.h), the tinyheaders a game uses (math without <cmath>,
   arenas, handles, collision, TWEAK, profile zones), the game's own state.h, and the build's description
   of the state's types (state_types.inc, from the game's build folder). game_api_defaults() fills the
   parts of GameAPI that are the same for every game; game_get_api adds the game's functions:

       GAME_EXPORT GAME_GET_API(game_get_api)
       {
           GameAPI api = game_api_defaults();
           api.load = game_load; api.update = game_update; api.render = game_render;
           return api;
       }

   No SDL and no C++ standard library headers here: this file is compiled on every save. */
#ifndef GAME_ENGINE_H
#define GAME_ENGINE_H

#include "game_api.h"
#include <stdio.h>
#include <string.h>

#define TH_MATH_NO_MATH_H   /* th_math.h declares sqrtf, sinf & co. itself instead of pulling in <cmath> */
#include "th_math.h"
#include "th_arena.h"
#include "th_handle.h"
#include "th_collide.h" /* the implementations of these two: platform/include/tinyheaders.cpp, built once at -O2 */
#include "th_tweak.h"   /* TWEAK(340.0f): constants that change on save, no rebuild */

/* PROFILE_ZONE("name"): a zone in the host's profiler (docs/profiling.md). Set g_zone_pf = pf in every entry
   point (a reload resets the library's globals); a release has no zones. */
inline const PlatformAPI *g_zone_pf;   /* inline: one for the whole library, whichever file sets it */
#if defined(THTW_LITERALS) && !defined(PROFILE_IN_RELEASE)
#define THP_DISABLE
#endif
#define THP_BEGIN(name) g_zone_pf->profile_begin(name)
#define THP_END() g_zone_pf->profile_end()
#include "th_profile.h"

#include "state.h"      /* the game folder's own: GameState and every type it holds */
#include "th_reflect.h" /* the table format of state_types.inc */
/* GAME_NO_STATE_TYPES: the build compiles this file in a chunk without game_get_api, which needs no
   description of the state (its templates cost a chunk about 20 ms at 100 fields) */
#if defined(__has_include) && !defined(GAME_NO_STATE_TYPES)
#if __has_include("state_types.inc")
#include "state_types.inc"
#define GAME_HAS_STATE_TYPES 1
#endif
#endif

#ifndef GAME_LAYOUT_HASH
#error "GAME_LAYOUT_HASH is the layout stamp of state.h; build the game with ./build.sh game [folder]"
#endif

/* A default-constructed state (the default member initializers): where a migration takes new fields from. */
struct GamePlacement {};   /* new (GamePlacement(), p) T(): construction in place without <new> */
inline void *operator new(size_t, GamePlacement, void *p) { return p; }
inline void operator delete(void *, GamePlacement, void *) {}
static inline GAME_STATE_DEFAULT(game_state_default)
{
    if (cap >= sizeof(GameState)) new (GamePlacement(), dst) GameState();
}

#ifdef GAME_NO_STATE_TYPES
/* Called where the build found no GAME_GET_API: a compile error that says so, rather than a library that
   would load without its state's description (and so without migration). */
template <int N = 0> static inline GameAPI game_api_defaults(void)
{
    static_assert(N != 0, "game_api_defaults() in a file the build did not find GAME_GET_API in: write "
                          "GAME_EXPORT GAME_GET_API(game_get_api) in the .cpp that defines it, then ./build.sh game");
    return GameAPI();
}
#else
/* The contract's version, the layout stamp, the state's size and description. */
static inline GameAPI game_api_defaults(void)
{
    GameAPI api;
    memset(&api, 0, sizeof api);
    api.api_version = GAME_API_VERSION;
    api.layout_hash = GAME_LAYOUT_HASH;
    api.state_size = sizeof(GameState);
#ifdef GAME_HAS_STATE_TYPES
    api.state_types = &GAME_STATE_TYPES;
    api.state_types_size = sizeof GAME_STATE_TYPES;
    api.state_default = game_state_default;
#endif
    return api;
}
#endif

#endif
