/* game_api.h - the contract between the host (platform/) and the game library (game/).

   This is the only file both sides include. The host owns the process, memory, window, input,
   rendering, assets and the build; the game is one translation unit compiled into a shared library
   that the host reloads while it runs.

   Rules the game follows (see docs/design.md):
   - All persistent state lives in GameMemory.base. The game never calls malloc.
   - Nothing stored in that block points into the library image: no function pointers, no vtables,
     no string literals. Per-type behaviour is an integer index into a static table in the library.
   - The PlatformAPI pointer is handed in on every call and never stored: a reload resets globals.
   - layout_hash / state_size name the layout of the block, state_types describes it. When the layout
     changes the host never runs new code on old memory: it rewrites the state with the description
     (fields matched by name, see "the state's description" below), else calls migrate, else restarts.
*/
#ifndef GAME_API_H
#define GAME_API_H

#include <stdint.h>
#include <stddef.h>

#define GAME_API_VERSION 9   /* bump when anything in this header changes shape (5: TWEAK_POS kinds; 6: glow, blend and
                                safe area; 7: sprite_anim_info, after the view fields; 8: sprite_slice; 9: the map_* services) */
#define GAME_API_OLDEST  6   /* the oldest version whose libraries the host still loads: each later one only appended */

/* ------------------------------------------------------------------ input */
typedef enum GameKey {
    KEY_NONE = 0,
    KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I, KEY_J, KEY_K, KEY_L, KEY_M,
    KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R, KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z,
    KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9,
    KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT,
    KEY_SPACE, KEY_ENTER, KEY_ESCAPE, KEY_TAB, KEY_BACKSPACE, KEY_LSHIFT, KEY_RSHIFT, KEY_LCTRL,
    KEY_RCTRL, KEY_LALT, KEY_RALT,
    KEY_F1, KEY_F2, KEY_F3, KEY_F4, KEY_F5, KEY_F6, KEY_F7, KEY_F8, KEY_F9, KEY_F10, KEY_F11, KEY_F12,
    KEY_MOUSE_LEFT, KEY_MOUSE_RIGHT, KEY_MOUSE_MIDDLE,
    KEY_PAD_A, KEY_PAD_B, KEY_PAD_X, KEY_PAD_Y, KEY_PAD_START, KEY_PAD_BACK,
    KEY_PAD_LB, KEY_PAD_RB, KEY_PAD_UP, KEY_PAD_DOWN, KEY_PAD_LEFT, KEY_PAD_RIGHT,
    KEY_COUNT
} GameKey;

typedef enum GameAxis {
    AXIS_LEFT_X, AXIS_LEFT_Y, AXIS_RIGHT_X, AXIS_RIGHT_Y, AXIS_TRIGGER_LEFT, AXIS_TRIGGER_RIGHT,
    AXIS_COUNT
} GameAxis;

/* One fixed step's input. Plain data: recordings are arrays of these. */
typedef struct GameInput {
    uint64_t step;              /* index of this fixed step since the host started the state */
    float    dt;                /* fixed step length in seconds (1/60) */
    uint8_t  down[KEY_COUNT];   /* 1 while held */
    uint8_t  pressed[KEY_COUNT];/* 1 on the step the key went down */
    uint8_t  released[KEY_COUNT];
    float    axis[AXIS_COUNT];  /* gamepad, -1..1 (triggers 0..1), dead zone applied */
    float    mouse_x, mouse_y;  /* in game pixels (the logical resolution) */
    float    wheel;
    uint8_t  gamepad_connected;
    uint8_t  focus_lost;        /* 1 on the step the window lost the keyboard focus (a game pauses) */
    uint8_t  pad_[6];
} GameInput;

/* ------------------------------------------------------------------ drawing */
/* Colors are 0xRRGGBBAA. */
#define GAME_RGBA(r, g, b, a) (((uint32_t)(r) << 24) | ((uint32_t)(g) << 16) | ((uint32_t)(b) << 8) | (uint32_t)(a))

/* flags of a sprite. ADDITIVE adds the sprite's light to what is under it instead of covering it (within a
   layer, additive sprites draw after the alpha-blended ones). GLOW also draws the sprite, blurred, into the
   host's glow pass: a soft halo added over the world's layers, under the screen-space ones from GAME_LAYER_UI
   up (set_glow scales it). draw_text and draw_rect are plain. */
enum { SPRITE_FLIP_X = 1, SPRITE_FLIP_Y = 2, SPRITE_ADDITIVE = 4, SPRITE_GLOW = 8 };

/* Layers below GAME_LAYER_UI are in world space and move with the camera (set_camera);
   layers from GAME_LAYER_UI up are in screen space (HUD, menus, the host's overlay). */
#define GAME_LAYER_UI 1000

/* One sprite submission. sprite == 0 is a solid white 1x1 pixel: with scale_x/scale_y as
   width/height it draws rectangles. Any other id is game_sprite_id("name") of an atlas sprite. */
typedef struct GameSprite {
    uint32_t sprite;
    uint32_t color;             /* tint multiplied with the texels; 0xFFFFFFFF = unchanged */
    float    x, y;              /* where the origin lands, in game pixels */
    float    scale_x, scale_y;  /* 1 = natural size */
    float    rotation;          /* radians, clockwise on screen, about the origin */
    float    origin_x, origin_y;/* origin inside the sprite, 0..1; see GAME_ORIGIN_PIVOT */
    int16_t  layer;             /* drawn in ascending layer order */
    uint16_t flags;             /* SPRITE_FLIP_X | SPRITE_FLIP_Y | SPRITE_ADDITIVE | SPRITE_GLOW */
} GameSprite;

#define GAME_ORIGIN_PIVOT (-1.0f) /* origin_x = GAME_ORIGIN_PIVOT: use the pivot from the atlas */

/* FNV-1a of the sprite's name (its path under assets/sprites without ".png", e.g. "player/idle").
   Stable across runs, builds and atlas repacks: the game may compute ids once per load. */
static inline uint32_t game_sprite_id(const char *name)
{
    uint32_t h = 2166136261u;
    while (*name) { h ^= (uint8_t)*name++; h *= 16777619u; }
    return h ? h : 1u;
}

/* ------------------------------------------------------------------ animations (Aseprite files) */
/* An Aseprite file under assets/sprites ("hero.aseprite") is one sprite per frame: game_sprite_id("hero#0"),
   "hero#1"..., and "hero" is frame 0. Its tags are animations: sprite_anim_info tells the frames of one. */
#define GAME_ANIM_MAX_FRAMES 64
enum { ANIM_FORWARD = 0, ANIM_REVERSE = 1, ANIM_PING_PONG = 2, ANIM_PING_PONG_REVERSE = 3 };
typedef struct GameAnimInfo {
    uint32_t frame_count;                       /* 1..GAME_ANIM_MAX_FRAMES (a longer tag is cut) */
    uint32_t direction;                         /* ANIM_FORWARD ... ANIM_PING_PONG_REVERSE */
    uint32_t first_frame;                       /* the tag's first frame in the file */
    uint32_t repeat;                            /* Aseprite's repeat count, 0 = forever (the helpers play it out) */
    uint32_t sprites[GAME_ANIM_MAX_FRAMES];     /* each frame's sprite id, in file order from first_frame */
    uint16_t duration_ms[GAME_ANIM_MAX_FRAMES]; /* each frame's time on screen */
} GameAnimInfo;

/* A slice of an Aseprite file (a named rectangle drawn in Aseprite: a hitbox, a hand, a pivot), as it is at one
   frame: sprite_slice answers it. In the frame's pixels, (0, 0) its top-left, as the sprite is drawn at scale 1
   (frames are not trimmed). A slice that changes over the animation has a key per change: the key in force at a
   frame is the last one at or before it. */
enum { SLICE_NINE_PATCH = 1, SLICE_PIVOT = 2 };
typedef struct GameSlice {
    float    x, y, w, h;                 /* the bounds */
    float    center_x, center_y;         /* SLICE_NINE_PATCH: the stretchable centre, relative to the bounds */
    float    center_w, center_h;
    float    pivot_x, pivot_y;           /* SLICE_PIVOT: relative to the bounds' top-left */
    uint32_t flags;                      /* SLICE_NINE_PATCH | SLICE_PIVOT */
    uint32_t frame;                      /* the frame asked about, in the file */
} GameSlice;

/* ------------------------------------------------------------------ maps (Tiled) */
/* A Tiled map saved as JSON under assets/maps ("level1.tmj") is game_map_id("level1"): its path there without
   ".tmj". Positions and sizes are in map pixels; docs/assets.md says what is read. */
static inline uint32_t game_map_id(const char *name) { return game_sprite_id(name); }

typedef struct GameMapInfo {
    int32_t  width, height;              /* cells */
    int32_t  tile_width, tile_height;    /* pixels */
    float    pixel_width, pixel_height;  /* width * tile_width, height * tile_height */
    int32_t  layer_count;                /* after Tiled's groups are flattened */
    int32_t  object_count;               /* every object layer's, in layer order */
    int32_t  solid_count;                /* boxes map_solids gives */
    uint32_t generation;                 /* 1 after the first load, +1 on every reload that read */
} GameMapInfo;

enum { MAP_SHAPE_RECT, MAP_SHAPE_POINT, MAP_SHAPE_ELLIPSE, MAP_SHAPE_POLYGON, MAP_SHAPE_POLYLINE, MAP_SHAPE_TEXT,
       MAP_SHAPE_TILE };
typedef struct GameMapObject {
    uint32_t id;                         /* Tiled's object id, unique in the map (map_property takes it) */
    uint32_t gid;                        /* tile objects: the tile, flip bits kept; else 0 */
    float    x, y, w, h;                 /* pixels, the layer's offset added (a tile object's y is its bottom) */
    float    rotation;                   /* degrees, clockwise */
    uint32_t shape;                      /* MAP_SHAPE_* */
    int32_t  layer;                      /* its layer's index */
    char     name[32];                   /* cut to 31 bytes */
    char     type[32];                   /* Tiled's type (1.9+: class) */
} GameMapObject;

typedef struct GameMapBox { float x, y, w, h; } GameMapBox;   /* pixels */

enum { MAP_VALUE_NONE, MAP_VALUE_STRING, MAP_VALUE_INT, MAP_VALUE_FLOAT, MAP_VALUE_BOOL, MAP_VALUE_COLOR,
       MAP_VALUE_FILE, MAP_VALUE_OBJECT };
typedef struct GameMapValue {            /* one custom property */
    uint32_t type;                       /* MAP_VALUE_* */
    uint32_t reserved_;
    int64_t  i;                          /* int, bool (0/1), object (its id), color (0xRRGGBBAA, as GAME_RGBA) */
    double   f;                          /* float (int too) */
    char     s[96];                      /* string, file: the text (cut to 95 bytes); else "" */
} GameMapValue;

/* ------------------------------------------------------------------ sound */
/* FNV-1a of the sound's name: its path under assets/sounds without ".wav"/".ogg", or under
   assets/sfx without ".sfx" (rendered by tools/make_sfx), e.g. "enemy/explode". Same hash as sprites. */
static inline uint32_t game_sound_id(const char *name) { return game_sprite_id(name); }

enum { SOUND_BUS_MASTER = 0, SOUND_BUS_MUSIC = 1, SOUND_BUS_EFFECTS = 2 };
enum { SOUND_LOOP = 1, SOUND_UNIQUE = 2 };   /* UNIQUE: if the sound already plays, return that handle */

/* How to play one sound; zero means default (volume 1, pitch 1, centre, effects bus, priority 0). */
typedef struct GameSoundPlay {
    float    volume, pan, pitch; /* pan -1 (left)..1 (right); pitch 2 = an octave up */
    float    fade_in;            /* seconds */
    float    cooldown;           /* seconds: a play of the same sound sooner than this is refused */
    uint8_t  bus;                /* SOUND_BUS_MUSIC or SOUND_BUS_EFFECTS */
    uint8_t  priority;           /* when every voice is busy, a play takes the lowest-priority, oldest voice
                                    at or below its own priority, or is refused */
    uint16_t max_instances;      /* 0 = any; beyond it the oldest instance of this sound is cut (faded) */
    uint32_t flags;              /* SOUND_LOOP | SOUND_UNIQUE */
} GameSoundPlay;

/* A handle is a uint32_t (voice index + generation, 0 = none); it may be kept in the state: a stale
   handle (sound over, voice reused, state rolled back) is ignored by every call. */
#define PLATFORM_SOUND_PLAY(name)    uint32_t name(uint32_t sound_id, const GameSoundPlay *how)  /* handle or 0 */
#define PLATFORM_SOUND_STOP(name)    void name(uint32_t handle, float fade_s)
#define PLATFORM_SOUND_SET(name)     void name(uint32_t handle, float volume, float pan, float pitch)
#define PLATFORM_SOUND_PLAYING(name) int name(uint32_t handle)
#define PLATFORM_SOUND_BUS(name)     void name(int bus, float volume, float fade_s)
#define PLATFORM_SOUND_NAME(name)    void name(const char *sound_name)  /* "I use this sound": a missing file is reported by name */

/* ------------------------------------------------------------------ tweakables */
/* Kinds a tweak query carries (th_tweak.h's THTW_*). TWEAK_POS and TWEAK_SCREEN_POS (version 5) are float[2]
   like TWEAK_VEC2, and tell the host the pair is a place (in the world, or on the screen): the F4 panel gives
   them a handle to drag. */
enum { TWEAK_FLOAT = 1, TWEAK_INT, TWEAK_BOOL, TWEAK_VEC2, TWEAK_COLOR, TWEAK_POS, TWEAK_SCREEN_POS };

/* ------------------------------------------------------------------ platform services */
enum { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR };

/* Every service, once, in the order of the struct (the order is the ABI: append only, and bump
   GAME_API_VERSION). X(ret, name, params, args): the member `ret (*name) params`, and `args` forwards
   the parameters (unused by SELF entries). The struct below, the host's guard wrappers and its check
   that every service is filled (platform/session/guard.cpp) are generated from this list: a new service is
   one line here plus the host function that implements it. Varargs cannot be forwarded, so log and
   event are SELF entries: they keep the watchdog out themselves (platform/core/log.cpp). */
#define PLATFORM_SERVICES(X, SELF) PLATFORM_SERVICES_V6(X, SELF) PLATFORM_SERVICES_ADDED(X, SELF)
#define PLATFORM_SERVICES_V6(X, SELF) \
    /* Logging: to the console, the log file and the event log. */ \
    SELF(void,    log,          (int level, const char *fmt, ...), ()) \
    /* A game event in the JSON-lines event log: {"ev":"game","name":name, <fields_json>}. \
       fields_json is the inside of a JSON object, e.g. "\"score\":12,\"x\":3.5" (may be ""); fields that are \
       not (a raw newline in a string, a key "t"/"wall"/"frame"/"ev"/"name") are written as text instead. */ \
    SELF(void,    event,        (const char *name, const char *fields_json), (name, fields_json)) \
    /* Reads a file below the project root into dst (at most cap bytes); returns the size or -1. A path that \
       resolves outside the project (.., an absolute path, a symlink) and a cap < 0 or > 1 GiB are refused. */ \
    X(int64_t,    read_file,    (const char *path, void *dst, int64_t cap), (path, dst, cap)) \
    X(double,     time_seconds, (void), ())   /* wall clock since the host started */ \
    \
    /* Drawing: submissions are batched by the host and drawn after render() returns. */ \
    X(void,       draw_sprite,  (const GameSprite *s), (s)) \
    X(void,       draw_rect,    (float x, float y, float w, float h, uint32_t color, int layer), (x, y, w, h, color, layer)) \
    X(float,      draw_text,    (const char *utf8, float x, float y, float px_size, uint32_t color, int layer), \
                                (utf8, x, y, px_size, color, layer))   /* returns width */ \
    X(void,       measure_text, (const char *utf8, float px_size, float *w, float *h), (utf8, px_size, w, h)) \
    X(int,        sprite_size,  (uint32_t sprite, float *w, float *h), (sprite, w, h))   /* 0 if the id is unknown */ \
    X(void,       set_camera,   (float x, float y, float zoom), (x, y, zoom))   /* world point at the view's top-left */ \
    \
    /* Live tweaking: value_inout holds the compiled value; the host overwrites it with the value \
       now in the source file when it can map the literal back. See tinyheaders/th_tweak.h. */ \
    X(void,       tweak,        (const char *file, int line, int counter, int kind, const char *literal, void *value_inout), \
                                (file, line, counter, kind, literal, value_inout)) \
    \
    /* Sound: the host's mixer plays on while the library reloads or the state rolls back. */ \
    X(uint32_t,   sound_play,    (uint32_t sound_id, const GameSoundPlay *how), (sound_id, how)) \
    X(void,       sound_stop,    (uint32_t handle, float fade_s), (handle, fade_s)) \
    X(void,       sound_set,     (uint32_t handle, float volume, float pan, float pitch), (handle, volume, pan, pitch)) \
    X(int,        sound_playing, (uint32_t handle), (handle)) \
    X(void,       sound_bus,     (int bus, float volume, float fade_s), (bus, volume, fade_s)) \
    X(void,       sound_name,    (const char *sound_name), (sound_name)) \
    \
    /* Save data: small named blobs kept across runs in the user's data folder (SDL_GetPrefPath, or \
       the host's --save-dir). name is 1..64 of [A-Za-z0-9_-]. A save is written to a temporary file \
       and renamed into place, so a crash never leaves half a file. load returns the size, or -1 when \
       there is no such blob or the file is corrupt (the host then says which file, on screen and in \
       the log, and sets it aside); the game starts from its defaults either way. */ \
    X(int,        save,         (const char *name, const void *data, int64_t size), (name, data, size))   /* 1 written, 0 failed (logged) */ \
    X(int64_t,    load,         (const char *name, void *dst, int64_t cap), (name, dst, cap)) \
    \
    /* The window: its title (the game's name), and a request to end the session (the game's Quit). */ \
    X(void,       set_title,    (const char *utf8), (utf8)) \
    X(void,       quit,         (void), ()) \
    \
    /* Profiler zones (tinyheaders/th_profile.h; the game's PROFILE_ZONE("name") calls these). The host \
       copies the name, so a string literal of the library is fine; end closes the innermost zone the game \
       opened (an extra end is ignored; zones left open when a call returns or faults are closed by the host). */ \
    X(void,       profile_begin, (const char *name), (name)) \
    X(void,       profile_end,   (void), ()) \
    \
    /* The look: the glow pass's strength (0 = off, 1 = the default; kept until changed), and the strip of \
       the screen (game pixels) the game leaves free for the host's banners and notices (crash, build errors, \
       loop recording): w or h <= 0 = the whole screen. Both may be called every frame. */ \
    X(void,       set_glow,      (float intensity), (intensity)) \
    X(void,       set_safe_area, (float x, float y, float w, float h), (x, y, w, h))

/* Services added after version 6 sit after the view fields, so a version-6 library finds everything where it was. */
#define PLATFORM_SERVICES_ADDED(X, SELF) \
    /* An animation of an Aseprite file: sprite = game_sprite_id("hero"), tag = a tag's name (NULL or "": every \
       frame, forward). 1 and *out filled, or 0 (no such file or tag: the host says so once by name, and the \
       sprite_anim_* helpers below keep showing their last frame). */ \
    X(int,        sprite_anim_info, (uint32_t sprite, const char *tag, GameAnimInfo *out), (sprite, tag, out)) \
    /* A slice of an Aseprite file at one frame: sprite = any frame's id ("hero#3", or sprite_anim_frame(&anim)) or \
       the file's ("hero", frame 0). 1 and *out filled, or 0 (no such file or slice at that frame: said once by \
       name). Version 8. */ \
    X(int,        sprite_slice,     (uint32_t sprite, const char *name, GameSlice *out), (sprite, name, out)) \
    \
    /* Maps (version 9): map = game_map_id("level1"). A map that is not there or never read answers 0 (said once \
       by name); a save that does not read keeps the last good one. map_changed() below is the level-changed call. */ \
    X(int,        map_info,     (uint32_t map, GameMapInfo *out), (map, out))   /* 1 and *out filled, or 0 */ \
    /* Draws a tile layer by name (NULL: every visible tile layer, bottom first) at draw_layer, culled to the view \
       (set_camera first), with the layers' offset, opacity and parallax; returns the tiles submitted. */ \
    X(int,        map_draw,     (uint32_t map, const char *layer, int draw_layer), (map, layer, draw_layer)) \
    /* Objects first.. into out (at most cap); returns how many were written. */ \
    X(int,        map_objects,  (uint32_t map, int32_t first, GameMapObject *out, int32_t cap), (map, first, out, cap)) \
    /* A custom property of an object (its id), or of the map itself (object_id 0): 1 and *out, or 0. */ \
    X(int,        map_property, (uint32_t map, uint32_t object_id, const char *name, GameMapValue *out), \
                                (map, object_id, name, out)) \
    /* The solid cells merged into few boxes (the "collision" layer; docs/assets.md), first.. into out. */ \
    X(int,        map_solids,   (uint32_t map, int32_t first, GameMapBox *out, int32_t cap), (map, first, out, cap))

#define PLATFORM_SERVICE_MEMBER(ret, name, params, args) ret (*name) params;

typedef struct PlatformAPI {
    PLATFORM_SERVICES_V6(PLATFORM_SERVICE_MEMBER, PLATFORM_SERVICE_MEMBER)

    int      view_width, view_height;   /* logical resolution in game pixels */
    int      debug_draw;                /* 1 while the collision debug view (F2) is on */

    PLATFORM_SERVICES_ADDED(PLATFORM_SERVICE_MEMBER, PLATFORM_SERVICE_MEMBER)
} PlatformAPI;

/* ------------------------------------------------------------------ playing an animation
   A GameSpriteAnim is plain values: keep it in the game's state, where it survives reloads and migrations.
     sprite_anim_play(&a, game_sprite_id("hero"), "run");   every step is fine: the same tag does not restart
     sprite_anim_update(pf, &a, in->dt);                    advances by the tag's per-frame durations
     s.sprite = sprite_anim_frame(&a);                      the sprite id to draw
   A tag with a repeat count (Aseprite's "Repeat" field) plays that many times and holds its final frame; a
   ping-pong tag counts each way as one (repeat 1: there, 2: there and back). sprite_anim_update returns 2 once the
   final frame's time is up, and from then on, so the game knows an "attack" is over. Repeat 0 (Aseprite's infinity) loops for ever.
   A tag that goes away (renamed or removed in the file) keeps the last frame shown; the host names it once. */
#define GAME_ANIM_TAG_MAX 32
typedef struct GameSpriteAnim {
    uint32_t sprite;                 /* the file: game_sprite_id("hero") */
    char     tag[GAME_ANIM_TAG_MAX]; /* the tag playing ("" = every frame) */
    uint32_t shown;                  /* the sprite id of the frame on screen (0 before the first update) */
    int32_t  frame;                  /* index in the tag, 0..frame_count-1 */
    int32_t  step;                   /* +1 or -1 (ping-pong's way); 0 = not started: the first update starts it */
    float    time_ms;                /* time spent in the current frame */
    uint32_t loops;                  /* times the tag went round */
} GameSpriteAnim;

static inline void sprite_anim_play(GameSpriteAnim *a, uint32_t sprite, const char *tag)
{
    int same = a->sprite == sprite, i = 0;
    for (; tag && tag[i] && i < GAME_ANIM_TAG_MAX - 1; i++) same = same && a->tag[i] == tag[i];
    if (same && a->tag[i] == 0) return;
    a->sprite = sprite;
    for (i = 0; tag && tag[i] && i < GAME_ANIM_TAG_MAX - 1; i++) a->tag[i] = tag[i];
    for (; i < GAME_ANIM_TAG_MAX; i++) a->tag[i] = 0;
    a->frame = 0;
    a->step = 0;
    a->time_ms = 0;
    a->loops = 0;
}

static inline int sprite_anim__dur(const GameAnimInfo *info, int32_t f)
{
    return info->duration_ms[f] ? info->duration_ms[f] : 1;
}

/* One frame on in the tag's direction; 1 when that brought it back to its first frame (a round). */
static inline int sprite_anim__advance(GameSpriteAnim *a, const GameAnimInfo *info)
{
    int32_t n = (int32_t)info->frame_count;
    int32_t start = info->direction == ANIM_REVERSE || info->direction == ANIM_PING_PONG_REVERSE ? n - 1 : 0;
    a->frame += a->step;
    if (a->frame < 0 || a->frame >= n) {
        if (info->direction >= ANIM_PING_PONG && n > 1) { a->step = -a->step; a->frame += 2 * a->step; }
        else a->frame = start;
    }
    return a->frame == start;
}

/* How far a play has gone, in frames shown since it started (a round of n frames is n, a ping-pong round 2(n-1)),
   and the position of the final frame of a tag with a repeat count. */
static inline uint32_t sprite_anim__round(const GameAnimInfo *info)
{
    int32_t n = (int32_t)info->frame_count;
    return info->direction >= ANIM_PING_PONG && n > 1 ? (uint32_t)(2 * (n - 1)) : (uint32_t)n;
}
static inline uint32_t sprite_anim__position(const GameSpriteAnim *a, const GameAnimInfo *info)
{
    int32_t n = (int32_t)info->frame_count;
    int back = info->direction == ANIM_REVERSE || info->direction == ANIM_PING_PONG_REVERSE;
    int32_t start = back ? n - 1 : 0, gone = a->frame > start ? a->frame - start : start - a->frame;
    uint32_t at = a->loops * sprite_anim__round(info);
    if (info->direction < ANIM_PING_PONG || n < 2 || gone == 0 || a->step == (back ? -1 : 1)) return at + (uint32_t)gone;
    return at + sprite_anim__round(info) - (uint32_t)gone;   /* on the way back */
}
static inline uint32_t sprite_anim__last(const GameAnimInfo *info)
{
    int32_t n = (int32_t)info->frame_count;
    return info->direction >= ANIM_PING_PONG && n > 1 ? info->repeat * (uint32_t)(n - 1) : info->repeat * (uint32_t)n - 1;
}

/* Advances by dt seconds; 0 when the file or tag is not there (the frame shown stays), 2 when a tag with a repeat
   count has played out (its final frame stays), else 1. */
static inline int sprite_anim_update(const PlatformAPI *pf, GameSpriteAnim *a, float dt)
{
    GameAnimInfo info;
    if (!pf->sprite_anim_info || !pf->sprite_anim_info(a->sprite, a->tag, &info)) return 0;
    int32_t n = (int32_t)info.frame_count;
    if (n < 1 || n > GAME_ANIM_MAX_FRAMES) return 0;
    int pp = info.direction >= ANIM_PING_PONG, back = info.direction == ANIM_REVERSE ||
                                                     info.direction == ANIM_PING_PONG_REVERSE;
    if (a->step == 0) { a->step = back ? -1 : 1; a->frame = back ? n - 1 : 0; a->time_ms = 0; }
    if (a->frame < 0 || a->frame >= n) a->frame = a->frame < 0 ? 0 : n - 1;   /* the tag got shorter */
    if (!pp) a->step = back ? -1 : 1;                                          /* ... or changed direction */
    if (!(a->time_ms >= 0 && a->time_ms < 1e9f)) a->time_ms = 0;
    if (dt > 0 && dt < 1e6f) a->time_ms += dt * 1000.0f;
    int finite = info.repeat > 0 && info.repeat < 65536;
    int32_t cycle = 0;   /* one whole round in ms: skipped at once, whatever dt was (a finite play: short of its end) */
    for (int32_t f = 0; f < n; f++) cycle += sprite_anim__dur(&info, f) * (pp && n > 1 ? 2 : 1);
    if (pp && n > 1) cycle -= sprite_anim__dur(&info, 0) + sprite_anim__dur(&info, n - 1);
    if (a->time_ms >= (float)cycle) {
        uint32_t rounds = (uint32_t)(a->time_ms / (float)cycle), at = sprite_anim__position(a, &info);
        if (finite) {
            uint32_t left = at < sprite_anim__last(&info) ? (sprite_anim__last(&info) - at) / sprite_anim__round(&info) : 0;
            rounds = rounds < left ? rounds : left;
        }
        a->time_ms -= (float)rounds * (float)cycle;
        a->loops += rounds;
    }
    int over = 0;
    while (a->time_ms >= (float)sprite_anim__dur(&info, a->frame)) {
        if (finite && sprite_anim__position(a, &info) >= sprite_anim__last(&info)) {   /* the final frame's time is up */
            a->time_ms = (float)sprite_anim__dur(&info, a->frame);
            over = 1;
            break;
        }
        a->time_ms -= (float)sprite_anim__dur(&info, a->frame);
        a->loops += (uint32_t)sprite_anim__advance(a, &info);
    }
    a->shown = info.sprites[a->frame];
    return over ? 2 : 1;
}

/* The sprite id to draw: the frame on screen, or the file's first frame before any update. */
static inline uint32_t sprite_anim_frame(const GameSpriteAnim *a) { return a->shown ? a->shown : a->sprite; }

/* ------------------------------------------------------------------ the level-changed call
   The host reads a map again when its file is saved; each reload that reads raises the map's generation. Keep
   the generation the game built its level from in GameState and ask once a step, in update:
     if (map_changed(pf, game_map_id("level1"), &gs->level_generation)) respawn_from_map(gs, pf);
   It is 1 on the first step (the first load) and once after every reload; the game decides what to keep (the
   player keeps its state, what the map placed respawns). A call from update, not a new entry point: a release
   links the game in, and GameAPI keeps its size for older libraries. */
static inline int map_changed(const PlatformAPI *pf, uint32_t map, uint32_t *seen_generation)
{
    GameMapInfo info;
    if (!pf->map_info || !pf->map_info(map, &info) || info.generation == *seen_generation) return 0;
    *seen_generation = info.generation;
    return 1;
}

/* ------------------------------------------------------------------ memory */
/* Each call gets its own copy of this struct: the host reads back only `used` (clamped to `size`). */
typedef struct GameMemory {
    void    *base;        /* the block, zeroed when the state (re)starts; position-stable */
    uint64_t size;
    uint64_t used;        /* the game keeps this at its high-water mark: snapshots copy [0, used) */
    uint32_t migrated;    /* 1 during the load right after the host rewrote the state for a new layout */
    uint32_t reserved_;
} GameMemory;

/* ------------------------------------------------------------------ the state's description
   The build describes the state's types (tools/layout_stamp.py writes the names, the compiler fills in
   sizes, offsets, kinds and enum values: tinyheaders/th_reflect.h's table). When game/state.h changes, the
   host migrates the running state with it: fields matched by name through nested structs and arrays,
   numbers converted with clamping, enums mapped by value name, fixed arrays grown or cut, new fields from
   the default member initializers (`float wobble = 1.0f;`), removed fields dropped. Three declarations,
   written in front of a field, say what the build cannot guess:
     STATE_TRANSIENT            a cache that load rebuilds: a migration zeroes it
     STATE_RENAMED(old_name)    the field was called old_name: a migration carries its value over
     STATE_COUNT_OF(array)      counts the first elements of array: clamped when the array shrinks */
#ifdef STATE_REFLECT_PASS   /* the build's own pass: the markers stay in the text it reads */
#define STATE_TRANSIENT          __state_transient
#define STATE_RENAMED(old_name)  __state_renamed(old_name)
#define STATE_COUNT_OF(array)    __state_count_of(array)
#else
#define STATE_TRANSIENT
#define STATE_RENAMED(old_name)
#define STATE_COUNT_OF(array)
#endif

/* ------------------------------------------------------------------ the game's entry points */
#define GAME_LOAD(name)    void name(GameMemory *mem, const PlatformAPI *pf)
#define GAME_UPDATE(name)  void name(GameMemory *mem, const GameInput *in, const PlatformAPI *pf)
#define GAME_RENDER(name)  void name(GameMemory *mem, float alpha, const PlatformAPI *pf)
#define GAME_MIGRATE(name) int  name(GameMemory *mem, uint32_t old_layout_hash, uint64_t old_size, const PlatformAPI *pf)
#define GAME_STATS(name)   int  name(GameMemory *mem, char *buf, int cap)
#define GAME_STATE_DEFAULT(name) void name(void *dst, uint64_t cap)

typedef GAME_LOAD(game_load_fn);       /* after every load, before the first update */
typedef GAME_UPDATE(game_update_fn);   /* one fixed step */
typedef GAME_RENDER(game_render_fn);   /* once per displayed frame; alpha in [0,1) between steps */
typedef GAME_MIGRATE(game_migrate_fn); /* rewrite an old layout in place; 1 = done, 0 = restart */
typedef GAME_STATS(game_stats_fn);     /* a JSON object's inside for the overlay and event log */
typedef GAME_STATE_DEFAULT(game_state_default_fn); /* a default-constructed root state into dst (cap >= state_size) */

typedef struct GameAPI {
    uint32_t api_version;        /* GAME_API_VERSION the library was built with */
    uint32_t layout_hash;        /* the game's layout stamp: GAME_LAYOUT_HASH */
    uint64_t state_size;         /* sizeof the game's root state struct */
    game_load_fn    *load;
    game_update_fn  *update;
    game_render_fn  *render;
    game_migrate_fn *migrate;    /* may be NULL */
    game_stats_fn   *stats;      /* may be NULL */
    const void      *state_types;       /* th_reflect.h table of the state's types, or NULL; the host copies */
    uint64_t         state_types_size;  /* it out at load and checks it like any untrusted input */
    game_state_default_fn *state_default; /* with state_types: where new fields take their defaults from */
} GameAPI;

#if defined(_WIN32)
#define GAME_EXPORT extern "C" __declspec(dllexport)
#else
#define GAME_EXPORT extern "C" __attribute__((visibility("default")))
#endif
#define GAME_GET_API(name) GameAPI name(void)
typedef GAME_GET_API(game_get_api_fn);
#define GAME_ENTRY_SYMBOL "game_get_api"

#endif /* GAME_API_H */
