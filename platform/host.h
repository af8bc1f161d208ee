/* host.h - declarations shared by the host's own files (platform/*.cpp). Not seen by the game.

   Each platform file owns one job and exposes it here under a short banner:
     main.cpp    process, flags, SDL window/input, the frame loop, snapshots, crash recovery
     loader.cpp  watching files, running the build, loading/unloading the game library
     render.cpp  the PlatformAPI drawing services: sprite batch, atlas, text, screenshots
     tweak.cpp   the PlatformAPI tweak service: live literal values from the game sources
*/
#ifndef HOST_H
#define HOST_H

#include <stdint.h>
#include <stddef.h>
#include "game_api.h"

struct SDL_Renderer;

/* ---------------------------------------------------------------- host services (main.cpp) */
void        host_log(int level, const char *fmt, ...);                /* console + log file + event log */
void        host_event(const char *ev, const char *fields_fmt, ...);  /* one JSON line: {"t":..,"ev":ev,<fields>} */
double      host_time(void);                                          /* seconds since start */
const char *host_root(void);                                          /* project root, no trailing slash */
void        host_json_escape(const char *in, char *out, size_t cap);  /* for strings inside event fields */

/* ---------------------------------------------------------------- rendering (render.cpp) */
typedef struct RenderStats {
    int sprites;      /* submissions this frame */
    int batches;      /* (layer, page) runs */
    int draw_calls;   /* SDL_RenderGeometry calls */
} RenderStats;

int         render_init(SDL_Renderer *r, int view_w, int view_h, const char *font_path); /* 0 on failure */
void        render_shutdown(void);
void        render_fill_api(PlatformAPI *pf);           /* draw_sprite, draw_rect, draw_text, ... */
void        render_begin_frame(void);                   /* clears the submission buffer */
RenderStats render_end_frame(void);                     /* sorts, batches and draws what was submitted */
void        render_asset_changed(const char *path);     /* a file under assets/ changed (absolute path) */
void        render_update(void);                        /* once per frame: finish pending asset reloads */
int         render_screenshot(const char *png_path);    /* reads the back buffer; 0 on failure */

/* ---------------------------------------------------------------- tweakables (tweak.cpp) */
void        tweak_query(const char *file, int line, int counter, int kind, const char *literal, void *value_inout);
int         tweak_file_changed(const char *path);       /* re-parse; returns how many values changed */
void        tweak_library_loaded(void);                 /* new code: take the sources as the new baseline */

#endif /* HOST_H */
