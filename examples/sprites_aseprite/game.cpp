/* sprites_aseprite - an animated character from an Aseprite file, its tag chosen by the input.

   assets/sprites/hero.aseprite has three tags: "idle" (ping-pong, slow breathing frames and a blink), "run"
   (forward, quick frames) and "wave" (forward, repeat 2: it plays twice and is over). Arrow keys or WASD move the
   character and play "run"; Space waves; standing still plays "idle". The animation is a GameSpriteAnim in the
   state: sprite_anim_play picks the tag, sprite_anim_update advances it by each frame's duration from the file
   (and says when a tag with a repeat count is over), sprite_anim_frame is the sprite to draw. The file's
   "hitbox" slice (a rectangle with a pivot, one key per tag) is read for the frame on screen: its pivot is where
   the feet stand, and F2 draws its bounds. Save the .aseprite file (new pixels, new durations, a renamed tag, a
   moved slice) while it runs and the next frames follow. */
#include "game_engine.h"

static constexpr auto SPEED = TWEAK(220.0f);     /* pixels per second */
static constexpr auto SCALE = TWEAK(6.0f);       /* the 32x32 art drawn this many times larger */
static constexpr auto BACKDROP = TWEAK_COLOR(0x1B2438);
static constexpr auto GROUND = TWEAK_COLOR(0x2E4A3A);

static const char *const HERO = "hero";

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("sprites_aseprite");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) {
        gs->pos = v2_make(pf->view_width * 0.5f, pf->view_height * 0.7f);
        sprite_anim_play(&gs->anim, game_sprite_id(HERO), "idle");
        gs->initialized = 1;
    }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    v2 move = v2_make(0, 0);
    if (in->down[KEY_LEFT] || in->down[KEY_A]) move.x -= 1;
    if (in->down[KEY_RIGHT] || in->down[KEY_D]) move.x += 1;
    if (in->down[KEY_UP] || in->down[KEY_W]) move.y -= 1;
    if (in->down[KEY_DOWN] || in->down[KEY_S]) move.y += 1;
    if (move.x != 0) gs->facing_left = move.x < 0;
    if (move.x != 0 || move.y != 0) {
        gs->pos = v2_add(gs->pos, v2_scale(v2_norm(move), SPEED * in->dt));
        gs->pos.x = th_clampf(gs->pos.x, 60.0f, pf->view_width - 60.0f);
        gs->pos.y = th_clampf(gs->pos.y, pf->view_height * 0.45f, pf->view_height - 20.0f);
    }
    bool moving = move.x != 0 || move.y != 0;
    if (in->pressed[KEY_SPACE]) gs->waving = 1;
    if (moving) gs->waving = 0;
    sprite_anim_play(&gs->anim, game_sprite_id(HERO), moving ? "run" : gs->waving ? "wave" : "idle");
    uint32_t before = gs->anim.shown;
    if (sprite_anim_update(pf, &gs->anim, in->dt) == 2 && gs->waving) {   /* the wave played out */
        gs->waving = 0;
        gs->waves++;
        pf->event("wave_over", "");
    }
    gs->has_hit = pf->sprite_slice && pf->sprite_slice(sprite_anim_frame(&gs->anim), "hitbox", &gs->hit);
    if (gs->anim.shown != before) {   /* each new frame, for the tests: which one and when */
        gs->frame_changes++;
        char f[128];
        snprintf(f, sizeof f, "\"tag\":\"%s\",\"index\":%d,\"step\":%llu", gs->anim.tag, gs->anim.frame,
                 (unsigned long long)gs->steps);
        pf->event("anim_frame", f);
    }
}

/* The tag's frames side by side, each with its duration: what the file says. */
static void draw_strip(const PlatformAPI *pf, const GameSpriteAnim *a, float x, float y)
{
    GameAnimInfo info;
    if (!pf->sprite_anim_info(a->sprite, a->tag, &info)) return;
    static const char *const DIRS[4] = { "forward", "reverse", "ping-pong", "ping-pong reverse" };
    char line[96];
    snprintf(line, sizeof line, "tag \"%s\": %u frames, %s", a->tag, info.frame_count, DIRS[info.direction & 3]);
    pf->draw_text(line, x, y, 16, 0xC8D0F0FF, GAME_LAYER_UI + 1);
    for (uint32_t i = 0; i < info.frame_count && i < 10; i++) {
        float fx = x + (float)i * 84;
        bool on = (int32_t)i == a->frame;
        pf->draw_rect(fx, y + 26, 76, 76, on ? 0x4060A0FF : 0x101828FF, GAME_LAYER_UI);
        GameSprite s = {};
        s.sprite = info.sprites[i];
        s.color = 0xFFFFFFFF;
        s.x = fx + 6;
        s.y = y + 32;
        s.scale_x = s.scale_y = 2;
        s.layer = GAME_LAYER_UI + 1;
        pf->draw_sprite(&s);
        snprintf(line, sizeof line, "%u ms", info.duration_ms[i]);
        pf->draw_text(line, fx + 4, y + 106, 14, on ? 0xFFFFFFFF : 0x8890B0FF, GAME_LAYER_UI + 1);
    }
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    float w = (float)pf->view_width, h = (float)pf->view_height;
    pf->draw_rect(0, 0, w, h, BACKDROP, -10);
    pf->draw_rect(0, h * 0.45f, w, h * 0.55f, GROUND, -9);
    GameSprite s = {};
    s.sprite = sprite_anim_frame(&gs->anim);
    s.color = 0xFFFFFFFF;
    s.x = gs->pos.x;
    s.y = gs->pos.y;
    s.scale_x = s.scale_y = SCALE;
    s.origin_x = 0.5f;
    s.origin_y = 30.0f / 32.0f;   /* the feet, unless the hitbox slice's pivot says where they are */
    float sw = 32, sh = 32;
    pf->sprite_size(s.sprite, &sw, &sh);
    const GameSlice &hit = gs->hit;
    bool has_hit = gs->has_hit;
    if (has_hit && (hit.flags & SLICE_PIVOT) && sw > 0 && sh > 0) {
        s.origin_x = (hit.x + hit.pivot_x) / sw;
        s.origin_y = (hit.y + hit.pivot_y) / sh;
    }
    if (gs->facing_left) s.origin_x = 1.0f - s.origin_x;   /* the art is mirrored about its centre */
    s.flags = gs->facing_left ? SPRITE_FLIP_X : 0;
    pf->draw_sprite(&s);
    if (has_hit && pf->debug_draw) {   /* F2: the hitbox, where the sprite puts it on screen */
        float left = s.x - s.origin_x * sw * SCALE, top = s.y - s.origin_y * sh * SCALE;
        float hx = gs->facing_left ? sw - hit.x - hit.w : hit.x;
        float x = left + hx * SCALE, y = top + hit.y * SCALE, w = hit.w * SCALE, h = hit.h * SCALE;
        const uint32_t LINE = 0x50FF70FF;
        pf->draw_rect(x, y, w, 2, LINE, 5);
        pf->draw_rect(x, y + h - 2, w, 2, LINE, 5);
        pf->draw_rect(x, y, 2, h, LINE, 5);
        pf->draw_rect(x + w - 2, y, 2, h, LINE, 5);
    }
    pf->draw_rect(16, 16, 540, 176, 0x05060CE8, GAME_LAYER_UI);
    pf->draw_text("sprites_aseprite", 28, 24, 28, 0xFFFFFFFF, GAME_LAYER_UI + 1);
    draw_strip(pf, &gs->anim, 28, 60);
    pf->draw_text("arrows / WASD run  -  Space waves  -  F2 hitbox  -  save assets/sprites/hero.aseprite", 28, h - 34, 16,
                  0x8890B0FF, GAME_LAYER_UI + 1);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    const GameSlice &hit = gs->hit;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"tag\":\"%s\",\"frame\":%d,\"shown\":%u,\"frame_changes\":%u,"
                    "\"waves\":%u,\"hitbox\":[%d,%g,%g,%g,%g]", (unsigned long long)gs->steps, gs->anim.tag,
                    gs->anim.frame, gs->anim.shown, gs->frame_changes, gs->waves, gs->has_hit, hit.x, hit.y, hit.w, hit.h);
}

GAME_EXPORT GAME_GET_API(game_get_api)
{
    GameAPI api = game_api_defaults();
    api.load = game_load;
    api.update = game_update;
    api.render = game_render;
    api.stats = game_stats;
    return api;
}
