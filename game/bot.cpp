/* bot.cpp - the autopilot (F10): plays from the same Controls a person produces. It keeps away from
   enemies and their bullets, collects pickups, shoots the nearest threat, and dashes out of trouble.
   Good enough to clear a few waves, not good enough to live forever. */
#include "game.h"

static constexpr auto BOT_FEAR_RADIUS   = TWEAK(230.0f);
static constexpr auto BOT_BULLET_RADIUS = TWEAK(140.0f);
static constexpr auto BOT_GREED_RADIUS  = TWEAK(380.0f);
static constexpr auto BOT_CENTER_PULL   = TWEAK(0.35f);
static constexpr auto BOT_WELL_FEAR     = TWEAK(380.0f);
static constexpr auto BOT_CROWD_RADIUS  = TWEAK(170.0f);
static constexpr auto BOT_CROWD_BOMB    = TWEAK(12);        /* this many that close: bomb */
static constexpr auto BOT_HOME          = TWEAK_POS(1200.0f, 750.0f);   /* where the autopilot drifts back to */

Controls bot_controls(GameState *gs, float dt)
{
    Controls c;
    memset(&c, 0, sizeof c);
    Entity *pl = entity_get(gs, gs->player);
    if (!pl) return c;
    v2 push = v2_make(0, 0);
    Entity *nearest = NULL;
    float nearest_d = 1e9f;
    int crowd = 0;   /* enemies close enough to hurt in the next second */
    for (uint32_t i = 0; i < thh_fixed_count(&gs->handles.head); i++) {
        Entity *e = &gs->entities[thh_index(thh_fixed_at(&gs->handles.head, i))];
        if (e->dead) continue;
        v2 to = v2_sub(e->pos, pl->pos);
        float d = th_maxf(1, v2_len(to));
        if (is_enemy(e->type)) {
            if (d < nearest_d) { nearest_d = d; nearest = e; }
            crowd += d < BOT_CROWD_RADIUS;
            float fear = e->type == ENTITY_WELL ? BOT_WELL_FEAR : BOT_FEAR_RADIUS;   /* a well's pull reaches further */
            if (d < fear) push = v2_sub(push, v2_scale(to, (fear - d) / (d * fear) * (e->type == ENTITY_WELL ? 6.0f : 2.5f)));
        } else if (e->type == ENTITY_ENEMY_BULLET && d < BOT_BULLET_RADIUS) {
            v2 side = v2_perp(v2_norm(e->vel));
            if (v2_dot(side, to) > 0) side = v2_neg(side);
            push = v2_add(push, v2_scale(side, 2.0f * (BOT_BULLET_RADIUS - d) / BOT_BULLET_RADIUS));
        } else if ((e->type == ENTITY_GEM || e->type == ENTITY_HEART) && d < BOT_GREED_RADIUS) {
            float want = e->type == ENTITY_HEART && pl->hp < player_max_hp() ? 2.5f : 0.6f;   /* hurt: a heart first */
            push = v2_add(push, v2_scale(to, want / (d + 60)));
        } else if (e->type == ENTITY_SPAWNER && d < 120) {
            push = v2_sub(push, v2_scale(to, 1.0f / d));
        }
    }
    v2 home = BOT_HOME;
    v2 to_center = v2_sub(home, pl->pos);
    push = v2_add(push, v2_scale(to_center, BOT_CENTER_PULL / 800.0f));
    /* now and then a committed sidestep, so it does not just orbit */
    gs->bot_dodge_timer -= dt;
    if (gs->bot_dodge_timer <= 0) {
        gs->bot_dodge_timer = th_rng_range(&gs->rng, 0.6f, 1.4f);
        gs->bot_dodge = v2_scale(th_rng_unit_v2(&gs->rng), 0.35f);
    }
    push = v2_add(push, gs->bot_dodge);
    c.move = v2_len2(push) > 0.0001f ? v2_norm(push) : push;
    if (nearest) {
        v2 lead = v2_add(nearest->pos, v2_scale(nearest->vel, nearest_d / bullet_speed()));
        c.aim = v2_norm(v2_sub(lead, pl->pos));
        c.fire = nearest_d < 900;
        c.dash = (nearest_d < nearest->radius + pl->radius + 30 || crowd >= 6) && pl->cooldown2 <= 0;
        /* the panic button: cornered while hurt */
        c.bomb = gs->bombs > 0 && pl->timer <= 0 && ((pl->hp <= 2 && (nearest_d < nearest->radius + pl->radius + 50 || crowd >= 5)) ||
                                                     crowd >= BOT_CROWD_BOMB);
    }
    return c;
}
