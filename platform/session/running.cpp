/* running.cpp - the running game, as both builds keep it: which library runs and what a rollback returns to,
   its entry points, the layout of the state in the block, the last crash. live/reload.cpp changes them in
   development, release.cpp in a release. */
#include "session.h"

GameRun     g_run;
CrashReport g_crash;
BlockLayout g_block_layout;
GameLib     g_lib;
GameAPI     g_api;

/* the running library's load hook, guarded: live/reload.cpp's in development, release.cpp's in a release */
static void (*g_load_hook)(int migrated);
void running_set_load_hook(void (*hook)(int migrated)) { g_load_hook = hook; }
void running_load(int migrated)
{
    if (g_load_hook) g_load_hook(migrated);
}
