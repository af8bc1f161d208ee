/* render_host_stubs.h - what test programs that compile render.cpp and assets.cpp (test_render_glow,
   test_game_screens) give them in place of the rest of the host: the clock, the project root in g_root, the
   game's folder at <g_root>/game through g_host_mode, and a JSON escape that copies. Each program writes its
   own log_message and log_event (what it keeps of them differs). Include after host.h. */
#ifndef RENDER_HOST_STUBS_H
#define RENDER_HOST_STUBS_H

#include <string>
#include <string.h>
#include <time.h>

static std::string g_root;
double log_time(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
const char *host_root(void) { return g_root.c_str(); }
static const char *game_folder_here(void) { static std::string f; f = g_root + "/game"; return f.c_str(); }
/* assets.cpp reads the game's files through g_host_mode: the game's folder here, nothing else of it */
static HostMode game_only_mode(void)
{
    HostMode m;
    memset(&m, 0, sizeof m);
    m.game_folder = game_folder_here;
    return m;
}
const HostMode g_host_mode = game_only_mode();
void parse_json_escape(const char *in, char *out, size_t cap) { snprintf(out, cap, "%s", in); }

#endif
