/* savedata_highscore - pf->save / pf->load: a high-score table that outlives the process.

   Stop the marker in the middle with Space (or a click): the closer, the more points. The best five go
   into a table saved with pf->save("highscores", ...) after every round; the next start reads it back
   with pf->load and checks it (version, count, range) before trusting it. The host writes a save to a
   temporary file and renames it, so a crash never leaves half a table. R clears the table (and saves that).
   Live edit: SPEED, SPEED_UP, ZONE. */
#include "game_engine.h"

static constexpr auto SPEED = TWEAK(1.2f);          /* bar widths per second */
static constexpr auto SPEED_UP = TWEAK(0.15f);      /* added each round */
static constexpr auto ZONE = TWEAK(0.12f);          /* half width of the bull's eye, in bar units (-1..1) */
static const char SAVE_NAME[] = "highscores";

static void table_load(GameState *gs, const PlatformAPI *pf)
{
    Highscores t;
    memset(&t, 0, sizeof t);
    int64_t n = pf->load(SAVE_NAME, &t, sizeof t);
    gs->loaded = 0;
    memset(&gs->table, 0, sizeof gs->table);
    gs->table.version = TABLE_VERSION;
    if (n < 0) return;                                               /* none yet: an empty table */
    int ok = n == (int64_t)sizeof t && t.version == TABLE_VERSION && t.count >= 0 && t.count <= TABLE_SIZE && t.rounds_played >= 0;
    for (int i = 0; ok && i < t.count; i++) ok = t.scores[i] >= 0 && t.scores[i] <= 100 && (i == 0 || t.scores[i] <= t.scores[i - 1]);
    if (!ok) { pf->log(LOG_WARN, "save data '%s' (%lld bytes) is not a version %d table: starting a new one", SAVE_NAME, (long long)n, TABLE_VERSION); gs->loaded = -1; return; }
    gs->table = t;
    gs->loaded = 1;
}

static int table_insert(Highscores *t, int score)   /* the rank it took, or -1 */
{
    int at = t->count;
    while (at > 0 && t->scores[at - 1] < score) at--;
    if (at >= TABLE_SIZE) return -1;
    for (int i = (t->count < TABLE_SIZE ? t->count : TABLE_SIZE - 1); i > at; i--) t->scores[i] = t->scores[i - 1];
    t->scores[at] = score;
    if (t->count < TABLE_SIZE) t->count++;
    return at;
}

static GAME_LOAD(game_load)
{
    thtw_set_hook(pf->tweak);
    pf->set_title("savedata_highscore");
    GameState *gs = (GameState *)mem->base;
    if (!gs->initialized) {
        gs->direction = 1; gs->marker = -1; gs->last_score = -1; gs->last_rank = -1;
        table_load(gs, pf);
        gs->initialized = 1;
    }
    mem->used = sizeof(GameState);
}

static GAME_UPDATE(game_update)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    gs->steps++;
    if (in->pressed[KEY_R]) {
        memset(&gs->table, 0, sizeof gs->table);
        gs->table.version = TABLE_VERSION;
        pf->save(SAVE_NAME, &gs->table, sizeof gs->table);
    }
    gs->flash = th_maxf(0, gs->flash - in->dt);
    if (gs->flash > 0) return;                                       /* stopped for a moment: the score shows */
    gs->marker += gs->direction * (SPEED + SPEED_UP * (float)gs->round) * 2 * in->dt;
    if (gs->marker > 1) { gs->marker = 2 - gs->marker; gs->direction = -1; }
    if (gs->marker < -1) { gs->marker = -2 - gs->marker; gs->direction = 1; }
    if (in->pressed[KEY_SPACE] || in->pressed[KEY_MOUSE_LEFT] || in->pressed[KEY_PAD_A]) {
        float off = th_absf(gs->marker);
        gs->last_score = off <= ZONE ? 100 : (int)(100 * (1 - off) + 0.5f);
        gs->last_rank = table_insert(&gs->table, gs->last_score);
        gs->table.rounds_played++;
        gs->round++;
        gs->flash = 0.6f;
        pf->save(SAVE_NAME, &gs->table, sizeof gs->table);           /* after every round: quitting loses nothing */
        char f[64];
        snprintf(f, sizeof f, "\"score\":%d,\"rank\":%d", gs->last_score, gs->last_rank);
        pf->event("round", f);
    }
}

static GAME_RENDER(game_render)
{
    thtw_set_hook(pf->tweak);
    GameState *gs = (GameState *)mem->base;
    (void)alpha;
    pf->draw_rect(0, 0, (float)pf->view_width, (float)pf->view_height, 0x14121AFF, 0);
    pf->draw_text("savedata_highscore", 24, 18, 32, 0xFFFFFFFF, 5);
    pf->draw_text("Space / click stops the marker: the nearer the middle, the more points  -  the best five are saved  -  R clears",
                  24, 58, 16, 0xA8B4C8FF, 5);
    const float bx = 140, by = 180, bw = 1000, bh = 60;               /* the bar */
    pf->draw_rect(bx, by, bw, bh, 0x262232FF, 1);
    float zone = th_clampf(ZONE, 0, 1);
    pf->draw_rect(bx + bw / 2 - zone * bw / 2, by, zone * bw, bh, 0x50C87880, 2);
    pf->draw_rect(bx + bw / 2 - 1, by - 10, 2, bh + 20, 0x50C878FF, 3);
    float mx = bx + (gs->marker + 1) / 2 * bw;
    uint32_t mc = gs->flash > 0 ? 0xFFFFFFFF : 0xFFB040FF;
    pf->draw_rect(mx - 4, by - 16, 8, bh + 32, mc, 4);
    char text[128];
    if (gs->last_score >= 0) {
        snprintf(text, sizeof text, gs->last_rank >= 0 ? "%d points - #%d in the table" : "%d points", gs->last_score, gs->last_rank + 1);
        float w, h;
        pf->measure_text(text, 40, &w, &h);
        pf->draw_text(text, (pf->view_width - w) / 2, 270, 40, gs->last_score == 100 ? 0x50E890FF : 0xFFD070FF, 5);
    }
    const float tx = 440, ty = 360;                                   /* the table */
    pf->draw_rect(tx, ty, 400, 250, 0x1E1B28FF, 1);
    pf->draw_text("HIGH SCORES", tx + 20, ty + 14, 24, 0xFFFFFFFF, 5);
    for (int i = 0; i < TABLE_SIZE; i++) {
        int has = i < gs->table.count;
        snprintf(text, sizeof text, "%d.", i + 1);
        uint32_t c = i == gs->last_rank && gs->flash > 0 ? 0xFFFFFFFF : i == gs->last_rank ? 0xFFD070FF : 0xC0C8D8FF;
        pf->draw_text(text, tx + 30, ty + 60 + i * 36, 24, c, 5);
        snprintf(text, sizeof text, has ? "%d" : "---", has ? gs->table.scores[i] : 0);
        float w, h;
        pf->measure_text(text, 24, &w, &h);
        pf->draw_text(text, tx + 370 - w, ty + 60 + i * 36, 24, c, 5);   /* right-aligned */
    }
    snprintf(text, sizeof text, "%s  -  %d rounds over every run, %d this run",
             gs->loaded == 1 ? "table read from save data at start" : gs->loaded == 0 ? "no save data at start: a new table" : "save data refused (see the log): a new table",
             gs->table.rounds_played, gs->round);
    pf->draw_text(text, 24, (float)pf->view_height - 40, 16, 0x80C0FFFF, 5);
}

static GAME_STATS(game_stats)
{
    GameState *gs = (GameState *)mem->base;
    return snprintf(buf, (size_t)cap, "\"steps\":%llu,\"best\":%d,\"entries\":%d,\"loaded\":%d", (unsigned long long)gs->steps,
                    gs->table.count ? gs->table.scores[0] : -1, gs->table.count, gs->loaded);
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
