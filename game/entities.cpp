/* entities.cpp - the placeholder game's three entity kinds. Tuning constants first. */

static const float    BOUNCER_SPEED  = 240.0f;   /* pixels per second */
static const uint32_t BOUNCER_COLOR  = 0x4FC3F7FF;
static const float    ORBIT_RADIUS   = 120.0f;
static const float    ORBIT_SPEED    = 1.5f;      /* radians per second */
static const uint32_t ORBITER_COLOR  = 0xFFB74DFF;
static const float    CHASER_ACCEL   = 500.0f;
static const float    CHASER_MAX     = 200.0f;
static const uint32_t CHASER_COLOR   = 0xE57373FF;

typedef void entity_update_fn(GameState *gs, Entity *e, float dt, const PlatformAPI *pf);

static Entity *entity_get(GameState *gs, thh_handle h)
{
    return thh_valid(&gs->handles, h) ? &gs->entities[thh_index(h)] : NULL;
}

static void bouncer_update(GameState *gs, Entity *e, float dt, const PlatformAPI *pf)
{
    (void)gs;
    e->vel = v2_scale(v2_norm(e->vel), BOUNCER_SPEED);
    e->pos = v2_add(e->pos, v2_scale(e->vel, dt));
    float w = (float)pf->view_width, h = (float)pf->view_height;
    if (e->pos.x < 0 && e->vel.x < 0) e->vel.x = -e->vel.x;
    if (e->pos.y < 0 && e->vel.y < 0) e->vel.y = -e->vel.y;
    if (e->pos.x + e->size.x > w && e->vel.x > 0) e->vel.x = -e->vel.x;
    if (e->pos.y + e->size.y > h && e->vel.y > 0) e->vel.y = -e->vel.y;
}

static void orbiter_update(GameState *gs, Entity *e, float dt, const PlatformAPI *pf)
{
    (void)gs; (void)pf;
    e->phase += ORBIT_SPEED * dt;
    e->pos = v2_add(e->anchor, v2_make(cosf(e->phase) * ORBIT_RADIUS, sinf(e->phase) * ORBIT_RADIUS));
}

static void chaser_update(GameState *gs, Entity *e, float dt, const PlatformAPI *pf)
{
    (void)pf;
    Entity *t = entity_get(gs, e->target);
    if (t) {
        v2 to = v2_sub(t->pos, e->pos);
        e->vel = v2_add(e->vel, v2_scale(v2_norm(to), CHASER_ACCEL * dt));
        if (v2_len(e->vel) > CHASER_MAX) e->vel = v2_scale(v2_norm(e->vel), CHASER_MAX);
    }
    e->pos = v2_add(e->pos, v2_scale(e->vel, dt));
}

/* The per-type table: persistent entities hold only the index, so a reload rebinds them for free. */
static const struct EntityKind {
    const char       *name;
    entity_update_fn *update;
    uint32_t          color;
} ENTITY_KINDS[ENTITY_TYPE_COUNT] = {
    { "bouncer", bouncer_update, BOUNCER_COLOR },
    { "orbiter", orbiter_update, ORBITER_COLOR },
    { "chaser",  chaser_update,  CHASER_COLOR  },
};

static thh_handle entity_spawn(GameState *gs, EntityType type, v2 pos, v2 size)
{
    thh_handle h = thh_alloc(&gs->handles);
    if (!h.value) return h;
    Entity *e = &gs->entities[thh_index(h)];
    memset(e, 0, sizeof *e);
    e->type = (uint32_t)type;
    e->self = h;
    e->pos = e->prev_pos = pos;
    e->size = size;
    return h;
}
