/* text_fonts - the host's text: pf->draw_text and pf->measure_text with the baked font.

   Every baked size from 12 to 64 pixels, colours with alpha, several lines in one call, boxes fitted
   with measure_text and aligned by it (Tab cycles left / centre / right), accented Latin text, and a
   typewriter that shows a line a few characters per step. Text is UTF-8; characters the font does not
   bake show as U+FFFD. Live edit: HEADLINE_SIZE, TYPE_SPEED, the colours. */
#include "game_engine.h"

static constexpr auto HEADLINE_SIZE = TWEAK(48.0f);
static constexpr auto TYPE_SPEED = TWEAK(30.0f);      /* characters per second */
static constexpr auto INK = TWEAK_COLOR(0xF2E8D0);
static constexpr auto ACCENT = TWEAK_COLOR(0xFF9A3C);

static constexpr auto WRAP_WIDTH = TWEAK(360.0f);     /* the wrapped paragraph's column */
static const float SIZES[] = { 12, 14, 16, 20, 24, 28, 32, 40, 48, 64 };
static const char TYPED[] = "The quick brown fox jumps over the lazy dog - and the host lays out every glyph.";
static const char *const ALIGN_NAMES[ALIGN_COUNT] = { "left", "centre", "right" };

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("text_fonts");
    GameState *gs = (GameState *)mem->base;
    gs->initialized = 1;
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    gs->typed += TYPE_SPEED * in->dt;
    if (gs->typed > sizeof TYPED + 40) gs->typed = 0;   /* a pause at the end, then again */
    if (in->pressed[KEY_TAB]) gs->align = (Align)((gs->align + 1) % ALIGN_COUNT);
}

/* A text in a box measure_text fits around it, aligned inside a column of width w. */
static void boxed(const PlatformAPI *pf, const char *text, float x, float y, float w, float size, Align align, uint32_t color)
{
    float tw, th;
    pf->measure_text(text, size, &tw, &th);
    float tx = align == ALIGN_LEFT ? x : align == ALIGN_CENTER ? x + (w - tw) / 2 : x + w - tw;
    pf->draw_rect(x, y, w, th + 12, 0x1E2430FF, 2);
    pf->draw_rect(tx - 4, y + 4, tw + 8, th + 4, 0x34405AFF, 3);
    pf->draw_text(text, tx, y + 6, size, color, 4);
}

/* Word wrap: draw_text breaks only at '\n', so the game measures and breaks. Returns the height used. */
static float wrapped(const PlatformAPI *pf, const char *text, float x, float y, float width, float size, uint32_t color)
{
    char line[256] = "", trial[256];
    float top = y, w, h = size;
    for (const char *p = text; *p;) {
        const char *end = p;
        while (*end && *end != ' ') end++;                           /* the next word: [p, end) */
        snprintf(trial, sizeof trial, "%s%s%.*s", line, line[0] ? " " : "", (int)(end - p), p);
        pf->measure_text(trial, size, &w, &h);
        if (w > width && line[0]) {                                  /* it does not fit: the line is done */
            pf->draw_text(line, x, y, size, color, 5);
            y += h;
            snprintf(line, sizeof line, "%.*s", (int)(end - p), p);
        } else memcpy(line, trial, sizeof line);
        p = *end ? end + 1 : end;
    }
    if (line[0]) { pf->draw_text(line, x, y, size, color, 5); y += h; }
    return y - top;
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x12141AFF, 0);
    pf->draw_text("text_fonts", 24, 18, 32, 0xFFFFFFFF, 5);
    pf->draw_text("draw_text / measure_text with the baked sizes 12-64 px  -  Tab changes the alignment", 24, 58, 16, 0xA8B4C8FF, 5);

    float y = 96;                                                    /* the size ladder */
    for (unsigned i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        char label[32];
        snprintf(label, sizeof label, "%.0f px Ag", (double)SIZES[i]);
        float w = pf->draw_text(label, 24, y, SIZES[i], i == 8 ? (uint32_t)ACCENT : (uint32_t)INK, 5);
        pf->draw_rect(24, y + SIZES[i] * 1.2f, w, 1, 0xFFFFFF30, 5);   /* the width draw_text returned */
        y += SIZES[i] * 1.15f + 4;
    }

    float x = 420;                                                   /* a headline and colours with alpha */
    pf->draw_text("Headline", x, 96, HEADLINE_SIZE, ACCENT, 5);
    for (int i = 0; i < 5; i++)
        pf->draw_text("fading", x + i * 110, 104 + HEADLINE_SIZE, 24, (INK & 0xFFFFFF00u) | (uint32_t)(255 - i * 50), 5);

    float col = 420, cw = 420;                                       /* boxes fitted with measure_text */
    pf->draw_text("measure_text fits the boxes:", col, 200, 16, 0x8890A0FF, 5);
    boxed(pf, "Score 12 345", col, 224, cw, 24, gs->align, INK);
    boxed(pf, "Two lines\nin one call", col, 276, cw, 20, gs->align, INK);
    boxed(pf, "the box follows the text", col, 350, cw, 16, gs->align, ACCENT);
    char align_line[64];
    snprintf(align_line, sizeof align_line, "alignment: %s (Tab)", ALIGN_NAMES[gs->align]);
    pf->draw_text(align_line, col, 392, 14, 0x8890A0FF, 5);

    pf->draw_text("UTF-8, Latin-1 and Latin Extended-A:", 880, 200, 16, 0x8890A0FF, 5);
    pf->draw_text("Größe · Déjà vu · Łódź\nčšž ŒÆØ ñ ¿¡ € … “quotes”\nnot baked: \xE2\x98\x83 (shown as U+FFFD)", 880, 224, 20, INK, 5);

    float ww = th_clampf(WRAP_WIDTH, 80, 380);                      /* word wrap to a width */
    pf->draw_text("wrapped by the game to WRAP_WIDTH with measure_text:", 880, 330, 14, 0x8890A0FF, 5);
    pf->draw_rect(880 + ww, 352, 1, 72, 0xFF9A3C80, 5);
    wrapped(pf, "draw_text breaks lines only at a newline; the game measures each word and breaks where the next "
            "one would cross the column. Change WRAP_WIDTH and save: it wraps again at once.", 880, 354, ww, 16, INK);

    char typed[sizeof TYPED];                                        /* the typewriter */
    int n = (int)gs->typed;
    n = n < 0 ? 0 : n > (int)sizeof TYPED - 1 ? (int)sizeof TYPED - 1 : n;
    memcpy(typed, TYPED, (size_t)n);
    typed[n] = 0;
    pf->draw_text("a typewriter: a prefix of the line each step", 420, 440, 14, 0x8890A0FF, 5);
    pf->draw_rect(420, 462, 836, 72, 0x1E2430FF, 2);
    float tw = pf->draw_text(typed, 436, 482, 24, INK, 5);
    if ((gs->steps / 20) % 2 == 0) pf->draw_rect(438 + tw, 484, 3, 26, ACCENT, 5);   /* the caret blinks by steps */
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"align\":%u", (unsigned long long)gs->steps, (unsigned)gs->align);
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
