/* services.h - what the game calls through PlatformAPI (drawing, assets, text, sound, input, save data, the
   window, notices, the profiler) and the table itself. Calls core/ and os/ only. */
#ifndef HOST_SERVICES_H
#define HOST_SERVICES_H

#include "core/core.h"

typedef struct RenderStats {
    int sprites;      /* submissions this frame */
    int batches;      /* (layer, page) runs */
    int draw_calls;   /* SDL_RenderGeometry calls */
} RenderStats;

/* ---------------------------------------------------------------- input (input.cpp) */
typedef struct InputHooks {      /* what the developer's tools take before the game sees it (with --dev-keys) */
    int  (*key)(GameKey k, int down, int shift, int ctrl);  /* the profiler's view, the F4 panel: 1 = taken */
    void (*hot_key)(GameKey k);                             /* F1..F12 went down */
    int  (*mouse)(float x, float y);                        /* every pointer move: 1 = taken */
    int  (*wheel)(float dy);                                /* 1 = taken */
    void (*text)(const char *utf8);                         /* typed characters (SDL_TEXTINPUT) */
    int  (*game_running)(void);                             /* 0: Esc quits the host (no game to pause) */
} InputHooks;
void      input_set_hooks(const InputHooks *hooks);   /* at start: devtools_input_hooks() */
int       input_init(void);                           /* --input script; 0 + message on a bad script */
void      input_handle_event(const union SDL_Event *e);
GameInput input_step(uint64_t step, float dt);        /* the input of one fixed step (scripts applied) */
void      input_frame(uint64_t frame);                /* the script's "@F" events: every frame, paused or not */
void      input_inject(const ScriptEvent *ev, int count); /* the control socket's input: applied now, seen by the
                                                          next step (a tap is down for that step, up after it) */

/* ---------------------------------------------------------------- rendering (render.cpp, assets.cpp, font.cpp) */
int         render_init(SDL_Renderer *r, int view_w, int view_h, const char *font_path); /* 0 on failure */
void        render_shutdown(void);
void        render_fill_api(PlatformAPI *pf);           /* draw_sprite, draw_rect, draw_text, read_file ... */
void        render_begin_frame(void);                   /* clears the submission buffer */
RenderStats render_end_frame(void);                     /* sorts, batches and draws what was submitted */
void        render_between_batches(void (*fn)(void));   /* called after each batch is drawn (the host's pump) */
int         render_screenshot(const char *png_path);    /* reads the back buffer; 0 on failure */
void        render_camera(float *x, float *y, float *zoom); /* the game's camera: screen = (world - xy) * zoom */
void render_safe_area(float *x, float *y, float *w,
                      float *h);                        /* where host banners go (set_safe_area; else the view) */
double      render_glow_ms(void);                       /* the last frame's glow pass (0: none) */
void render_glow_seen(int seen); /* 0: this frame is never shown (headless, no screenshot): no glow pass */
void        assets_file_changed(const char *path);      /* assets.cpp: a file under assets/ changed (absolute path) */
void        assets_note_override(const char *kind, const char *name, const char *game_file, const char *engine_file);
                                                        /* a name in the game's assets/ and the engine's: said once */
void        assets_update(void);                        /* once per frame: finish pending asset reloads */

/* ---------------------------------------------------------------- asset bytes (archive.cpp) */
int archive_mount(const char *path, char *err, size_t cap); /* a release: all asset reads come from it; 0 + why */
void        archive_unmount(void);
int         archive_mounted(void);
const char *archive_path(void);
int         archive_count(void);                        /* files in the mounted archive (0 if none) */
const char *archive_name(int i);
/* The one asset reader: a file path in development, a name inside the archive once one is mounted.
   malloc'ed and NUL-terminated; NULL and why in err. */
char       *archive_read(const char *path, size_t *len, size_t max_bytes, char *err, size_t cap);

/* ---------------------------------------------------------------- sound (audio.cpp, sound_assets.cpp) */
int         audio_init(void);                           /* 0: no device, the game runs silent (logged once) */
void        audio_fill_api(PlatformAPI *pf);            /* sound_play, sound_stop, ... */
void        audio_update(void);                         /* once per frame: frees replaced sample buffers */
void        audio_shutdown(void);
int audio_set_sound(int slot, float *samples, uint32_t frames, uint32_t channels,
                    uint32_t rate);                     /* takes samples (malloc'ed) */
uint64_t    audio_frames_done(void);                    /* frames the device has mixed */
int         audio_voices_busy(void);

void sound_assets_init(const char *root); /* finds the files under assets/sounds and assets/sfx, queues their loads */
void        sound_asset_changed(const char *path);      /* a file under assets/ changed (absolute path) */
void        sound_assets_update(void);                  /* once per frame: runs and polls the decoder children */
int         sound_assets_pending(void);                 /* sounds waiting for or inside a child */
const char *sound_assets_status(void);                  /* a broken sound's message for the screen, "" if none */
void        sound_assets_shutdown(void);
void        sound_require(const char *name);            /* the game uses this sound: report it if it has no file */
int         sound_slot_of(uint32_t id);                 /* -1 if unknown */
const char *sound_slot_name(int slot);

/* ---------------------------------------------------------------- maps (tilemap.cpp) */
void        tilemap_init(const char *root);             /* every assets/maps .tmj: the game's, the engine's */
void        tilemap_fill_api(PlatformAPI *pf);          /* map_info, map_draw, map_objects, map_property, map_solids */
void        tilemap_file_changed(const char *path);     /* a file under assets/ changed: a map or tileset read again */
void        tilemap_shutdown(void);

/* ---------------------------------------------------------------- save data (savedata.cpp) */
void        savedata_fill_api(PlatformAPI *pf);         /* save, load */
const char *savedata_dir(void);                         /* the folder, once known ("" before the first use) */

/* ---------------------------------------------------------------- the window (window.cpp) */
void        window_attach(struct SDL_Window *win);      /* the window the services below act on */
void        window_fill_api(PlatformAPI *pf);           /* set_title, quit */
const char *window_title(void);                         /* what the game called itself ("" until it did) */
void        window_toggle_fullscreen(void);             /* F11, Alt+Enter */
int         window_handle_event(const union SDL_Event *e); /* 1 if the event was the window's (focus, keys) */
int         window_take_focus_lost(void);               /* 1 once after the window lost focus */

/* ---------------------------------------------------------------- on-screen notices (notice.cpp) */
void        notice_post(int level, const char *fmt, ...);  /* a message for the player, shown ~6 s, wrapped */
void        notice_draw(void);                          /* the current notices, bottom of the screen */
int notice_wrap(const char *text, float px, float max_w, char *out,
                size_t cap); /* '\n' where lines break; line count */

/* ---------------------------------------------------------------- the profiler (profile.cpp) */
/* PROFILE_ZONE("name") in any host file: a zone of the main thread's ring. A release has none unless it is
   built with -DPROFILE_IN_RELEASE. */
#if defined(HOST_RELEASE) && !defined(PROFILE_IN_RELEASE)
#define THP_DISABLE
#endif
struct thp_profile *profile_main(void);                  /* the main thread's zones (profile.cpp) */
#define THP_PROFILE (profile_main())
#include "th_profile.h"
void        profile_init(void);                         /* calibrates the clock; starts --profile's capture */
void profile_fill_api(PlatformAPI *pf); /* profile_begin, profile_end: the game's zones, names interned */
void profile_names_forget(void);        /* before a library is loaded: its literals may reuse old addresses */
void        profile_audio_begin(void);                  /* the audio thread's zone around a mix */
void        profile_audio_end(void);
int profile_guard_enter(void); /* before a guarded call into the game: the depth to return to */
void        profile_guard_leave(int depth);             /* after it: closes the zones the game left open (a jump) */
void        profile_frame_end(void);                    /* the frame marker; writes a finished capture */
void        profile_shutdown(void);                     /* writes a capture still running */
int         profile_key(GameKey k, int down, int shift);/* Shift+F4 and the view's keys; 1 = the game does not see it */
void        profile_view_draw(void);                    /* the flame chart and the frames' bars, when open */

PlatformAPI *services_api(void);   /* services.cpp's table: the services handed to the game on every call */


#endif /* HOST_SERVICES_H */
