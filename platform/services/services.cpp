/* services.cpp - the table of services handed to the game on every call. Each service fills its entries at
   start (render_fill_api, audio_fill_api, ...; main.cpp calls them), the session's guard wraps them. */
#include "services.h"

static PlatformAPI g_pf;

PlatformAPI *services_api(void) { return &g_pf; }
