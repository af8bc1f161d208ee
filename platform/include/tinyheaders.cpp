/* tinyheaders.cpp - the tinyheader implementations the game library links, kept out of game.cpp.
   build.sh compiles this file apart, at -O2, into build/game/tinyheaders.o and rebuilds it only when a
   tinyheader changes: collision runs optimized inside the game while game.cpp, rebuilt on every save,
   stays at -O0 and skips ~150 ms of code generation. */
#define TH_COLLIDE_IMPLEMENTATION
#include "th_collide.h"
#define TH_TWEAK_IMPLEMENTATION
#include "th_tweak.h"
