/* make_art - draws the sprites of NEON SWARM procedurally and writes them as PNGs.

   usage: make_art <out_dir>          e.g.  build/tools/make_art assets/sprites

   Writes <out_dir>/<name>.png for every sprite the game lists in SPRITE_LIST (game/game.cpp),
   creating the folders. The output is deterministic: the same program writes the same bytes.

   How a sprite is drawn: shapes are signed distance functions in pixels (negative inside), with
   the origin at the image centre, +x right and +y down. Layers are composited back to front into
   a premultiplied float canvas: a soft glow (falling off to zero a few pixels outside the shape), a fill and
   a stroke, each anti-aliased by the distance itself (coverage = 0.5 - d, clamped). The canvas is
   written with straight alpha; fully transparent pixels are stored as 0 0 0 0.

   What the game expects of each sprite (read from game/entities.cpp, fx.cpp, ui.cpp):
     - everything is drawn at scale 1 with the centre as origin, so the natural size is the size on
       screen: the body of an entity is about 2 * its collision radius, the rest is glow;
     - ships, enemies and player bullets are rotated to their heading: they are drawn facing +x;
       the drone spins, the enemy bullet and the pickups are never rotated;
     - entities, walls and the HUD heart are drawn untinted (white), so they carry their own
       colours, matching the colours the game uses for their rings and bursts;
     - fx/dot, fx/ring and fx/spark are tinted by every particle: they are white;
     - fx/dot is 16 px (scale = size / 16), fx/ring 64 px (size / 64), fx/spark 8 px long
       (scale_x = size / 8, scale_y = 1);
     - wall/block is a 64 px opaque tile: axis-aligned walls repeat it at scales 0.6..1, rotated
       walls stretch one copy. Its lines are 2 px or more so nearest sampling never drops them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <functional>
#include <string>
#include <vector>

#include <stb_image_write.h>

/* ---------------------------------------------------------------- colours */
struct Color { float r, g, b, a; };

static Color rgb(unsigned hex, float a = 1.0f)
{
    return { ((hex >> 16) & 255) / 255.0f, ((hex >> 8) & 255) / 255.0f, (hex & 255) / 255.0f, a };
}

static const unsigned WHITE      = 0xFFFFFF;
static const unsigned PLAYER_HI  = 0x6FF0FF;   /* player: cyan, as its trail and bullets */
static const unsigned PLAYER_LO  = 0x12527A;
static const unsigned DRONE_HI   = 0xFF4FD8;   /* the game's DRONE_COLOR */
static const unsigned DRONE_LO   = 0x4A0F44;
static const unsigned SHOOT_HI   = 0xFF9A3C;   /* SHOOTER_COLOR */
static const unsigned SHOOT_LO   = 0x4D2408;
static const unsigned DASH_HI    = 0xFFE14A;   /* DASHER_COLOR */
static const unsigned DASH_LO    = 0x4A3C06;
static const unsigned BRUTE_HI   = 0xFF3B3B;   /* BRUTE_COLOR */
static const unsigned BRUTE_LO   = 0x4A0C0E;
static const unsigned BULLET_HI  = 0x9FF4FF;   /* PLAYER_BULLET_COLOR */
static const unsigned EBULLET_HI = 0xFF7A2E;   /* enemy shots: hot orange, as their wall sparks */
static const unsigned GEM_HI     = 0xC08CFF;   /* the gem's pick-up burst: D8B0FF -> 8A4FFF */
static const unsigned GEM_LO     = 0x3A1670;
static const unsigned HEAL_HI    = 0x5CFF7A;   /* the health pick-up ring */
static const unsigned HEAL_LO    = 0x0D4A1C;
static const unsigned HEART_HI   = 0xFF5C7A;   /* UI_WARN */
static const unsigned HEART_LO   = 0x7A0F26;

/* ---------------------------------------------------------------- canvas */
struct Canvas {
    int w, h;
    std::vector<float> px;   /* premultiplied RGBA */
    Canvas(int w_, int h_) : w(w_), h(h_), px((size_t)w_ * h_ * 4, 0.0f) {}
};

typedef std::function<float(float, float)> Sdf;

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* "over" with a per-pixel alpha from cover(x, y). */
static void paint(Canvas &c, Color col, const std::function<float(float, float)> &cover)
{
    for (int y = 0; y < c.h; y++)
        for (int x = 0; x < c.w; x++) {
            float sx = x + 0.5f - c.w * 0.5f, sy = y + 0.5f - c.h * 0.5f;
            float a = clampf(cover(sx, sy), 0, 1) * col.a;
            if (a <= 0) continue;
            float *p = &c.px[((size_t)y * c.w + x) * 4];
            p[0] = col.r * a + p[0] * (1 - a);
            p[1] = col.g * a + p[1] * (1 - a);
            p[2] = col.b * a + p[2] * (1 - a);
            p[3] = a + p[3] * (1 - a);
        }
}

static void fill(Canvas &c, const Sdf &d, Color col)
{
    paint(c, col, [&](float x, float y) { return 0.5f - d(x, y); });
}

static void stroke(Canvas &c, const Sdf &d, float width, Color col)
{
    paint(c, col, [&](float x, float y) { return 0.5f - (fabsf(d(x, y)) - width * 0.5f); });
}

/* Light outside the shape that fades to nothing `reach` pixels away (cubic falloff, so it never
   ends in a visible edge at the border of the image). */
static void glow(Canvas &c, const Sdf &d, float reach, Color col)
{
    paint(c, col, [&](float x, float y) {
        float t = 1.0f - clampf(d(x, y) / reach, 0, 1);
        return t * t * t;
    });
}

static bool write_png(const Canvas &c, const std::string &path)
{
    std::vector<unsigned char> out((size_t)c.w * c.h * 4, 0);
    for (size_t i = 0; i < (size_t)c.w * c.h; i++) {
        const float *p = &c.px[i * 4];
        int a = (int)lrintf(clampf(p[3], 0, 1) * 255.0f);
        if (a == 0) continue;
        for (int k = 0; k < 3; k++) out[i * 4 + k] = (unsigned char)lrintf(clampf(p[k] / p[3], 0, 1) * 255.0f);
        out[i * 4 + 3] = (unsigned char)a;
    }
    return stbi_write_png(path.c_str(), c.w, c.h, 4, out.data(), c.w * 4) != 0;
}

/* ---------------------------------------------------------------- distance functions */
struct V { float x, y; };

static float len(float x, float y) { return sqrtf(x * x + y * y); }

static Sdf circle(float cx, float cy, float r)
{
    return [=](float x, float y) { return len(x - cx, y - cy) - r; };
}

static Sdf box(float cx, float cy, float hw, float hh, float round = 0)
{
    return [=](float x, float y) {
        float qx = fabsf(x - cx) - hw + round, qy = fabsf(y - cy) - hh + round;
        return len(fmaxf(qx, 0), fmaxf(qy, 0)) + fminf(fmaxf(qx, qy), 0.0f) - round;
    };
}

static Sdf segment(float ax, float ay, float bx, float by, float r)
{
    return [=](float x, float y) {
        float px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
        float t = clampf((px * dx + py * dy) / (dx * dx + dy * dy), 0, 1);
        return len(px - dx * t, py - dy * t) - r;
    };
}

/* Exact distance to a closed polygon (any winding, convex or not). */
static Sdf polygon(std::vector<V> v, float round = 0)
{
    return [=](float x, float y) {
        size_t n = v.size();
        float d = (x - v[0].x) * (x - v[0].x) + (y - v[0].y) * (y - v[0].y), s = 1;
        for (size_t i = 0, j = n - 1; i < n; j = i, i++) {
            float ex = v[j].x - v[i].x, ey = v[j].y - v[i].y, wx = x - v[i].x, wy = y - v[i].y;
            float t = clampf((wx * ex + wy * ey) / (ex * ex + ey * ey), 0, 1);
            float bx = wx - ex * t, by = wy - ey * t;
            d = fminf(d, bx * bx + by * by);
            bool c1 = y >= v[i].y, c2 = y < v[j].y, c3 = ex * wy > ey * wx;
            if ((c1 && c2 && c3) || (!c1 && !c2 && !c3)) s = -s;
        }
        return s * sqrtf(d) - round;
    };
}

static std::vector<V> regular(int n, float r, float phase)
{
    std::vector<V> v;
    for (int i = 0; i < n; i++) {
        float a = phase + i * 6.2831853f / n;
        v.push_back({ r * cosf(a), r * sinf(a) });
    }
    return v;
}

static std::vector<V> rotated(const std::vector<V> &v, float a)
{
    std::vector<V> o;
    float c = cosf(a), s = sinf(a);
    for (V p : v) o.push_back({ p.x * c - p.y * s, p.x * s + p.y * c });
    return o;
}

static Sdf unite(Sdf a, Sdf b) { return [=](float x, float y) { return fminf(a(x, y), b(x, y)); }; }
static Sdf inset(Sdf a, float by) { return [=](float x, float y) { return a(x, y) + by; }; }

/* The usual neon body: halo, dark fill, bright rim. */
static void neon_body(Canvas &c, const Sdf &d, unsigned hi, unsigned lo, float rim = 2.0f, float reach = 3.0f, float halo = 0.55f)
{
    glow(c, d, reach, rgb(hi, halo));
    fill(c, d, rgb(lo));
    stroke(c, inset(d, rim * 0.5f), rim, rgb(hi));
}

/* ---------------------------------------------------------------- the sprites */
/* player/ship, radius 15: a wide arrowhead with a notched tail and a white cockpit. */
static Canvas draw_player()
{
    Canvas c(48, 48);
    Sdf hull = polygon({ { 18, 0 }, { -1, 6 }, { -12, 14 }, { -7, 0 }, { -12, -14 }, { -1, -6 } });
    neon_body(c, hull, PLAYER_HI, PLAYER_LO, 2.5f, 6.0f, 0.6f);
    glow(c, circle(-8, 0, 1.5f), 5.0f, rgb(PLAYER_HI, 0.9f));         /* engine */
    fill(c, circle(-8, 0, 1.6f), rgb(WHITE));
    Sdf cockpit = polygon({ { 9, 0 }, { 1, 3 }, { -2, 0 }, { 1, -3 } });
    fill(c, cockpit, rgb(WHITE));
    return c;
}

/* enemy/drone, radius 12, spins: a four-bladed pinwheel (each blade a half of a square's quarter). */
static Canvas draw_drone()
{
    Canvas c(36, 36);
    std::vector<V> blade = { { 0, 0 }, { 10, 0 }, { 10, -10 } };
    Sdf wheel = polygon(blade);
    for (int k = 1; k < 4; k++) wheel = unite(wheel, polygon(rotated(blade, k * 1.5707963f)));
    neon_body(c, wheel, DRONE_HI, DRONE_LO, 2.0f, 4.5f, 0.55f);
    for (int k = 0; k < 4; k++) {                                      /* blade folds */
        std::vector<V> tip = rotated({ { 10, -10 } }, k * 1.5707963f);
        fill(c, segment(0, 0, tip[0].x * 0.75f, tip[0].y * 0.75f, 0.6f), rgb(DRONE_HI, 0.8f));
    }
    fill(c, circle(0, 0, 3.0f), rgb(WHITE));
    return c;
}

/* enemy/shooter, radius 17, faces its target: a hexagon turret with a barrel forward. */
static Canvas draw_shooter()
{
    Canvas c(60, 60);
    Sdf hex = polygon(regular(6, 15.5f, 0.5235988f), 1.0f);
    Sdf barrel = box(16, 0, 8, 3.5f, 1.0f);
    Sdf body = unite(hex, barrel);
    neon_body(c, body, SHOOT_HI, SHOOT_LO, 2.0f, 6.0f, 0.55f);
    stroke(c, polygon(regular(6, 7.5f, 0.5235988f)), 2.0f, rgb(SHOOT_HI, 0.8f));
    fill(c, circle(0, 0, 3.0f), rgb(WHITE));
    fill(c, box(19, 0, 4, 1.2f), rgb(WHITE, 0.9f));                    /* muzzle */
    return c;
}

/* enemy/dasher, radius 15, charges along its heading: a long thin lance with swept fins. */
static Canvas draw_dasher()
{
    Canvas c(60, 60);
    Sdf lance = polygon({ { 22, 0 }, { 0, 6 }, { -15, 0 }, { 0, -6 } });
    Sdf fins = unite(polygon({ { -2, 4 }, { -14, 15 }, { -9, 4 } }), polygon({ { -2, -4 }, { -14, -15 }, { -9, -4 } }));
    Sdf body = unite(lance, fins);
    neon_body(c, body, DASH_HI, DASH_LO, 2.0f, 6.0f, 0.55f);
    fill(c, segment(-8, 0, 12, 0, 1.0f), rgb(WHITE));                   /* spine */
    return c;
}

/* enemy/brute, radius 30: a heavy armoured octagon with a thick front plate and a hot core. */
static Canvas draw_brute()
{
    Canvas c(80, 80);
    Sdf hull = polygon(regular(8, 29.0f, 0.3926991f), 2.0f);
    neon_body(c, hull, BRUTE_HI, BRUTE_LO, 3.0f, 8.0f, 0.55f);
    /* front plate: the part of a ring in front, cut square */
    Sdf ring = [](float x, float y) { return fabsf(len(x, y) - 21.0f) - 3.5f; };
    Sdf front = [ring](float x, float y) { return fmaxf(ring(x, y), 7.0f - x); };
    fill(c, front, rgb(BRUTE_HI));
    /* side plates */
    stroke(c, box(-6, -13, 8, 3, 1.5f), 2.0f, rgb(BRUTE_HI, 0.75f));
    stroke(c, box(-6, 13, 8, 3, 1.5f), 2.0f, rgb(BRUTE_HI, 0.75f));
    glow(c, circle(0, 0, 5.0f), 6.0f, rgb(BRUTE_HI, 0.8f));
    fill(c, circle(0, 0, 5.5f), rgb(0xFFB0A0));
    fill(c, circle(0, 0, 3.0f), rgb(WHITE));
    return c;
}

/* bullet/player, radius 4, rotated to its velocity: a cyan bolt with a white core. */
static Canvas draw_player_bullet()
{
    Canvas c(26, 14);
    Sdf bolt = segment(-6, 0, 6, 0, 2.6f);
    glow(c, bolt, 4.0f, rgb(BULLET_HI, 0.8f));
    fill(c, bolt, rgb(BULLET_HI));
    fill(c, segment(-4, 0, 5, 0, 1.1f), rgb(WHITE));
    return c;
}

/* bullet/enemy, radius 6, never rotated: a hot orange orb. */
static Canvas draw_enemy_bullet()
{
    Canvas c(20, 20);
    Sdf orb = circle(0, 0, 5.5f);
    glow(c, orb, 4.5f, rgb(EBULLET_HI, 0.85f));
    fill(c, orb, rgb(EBULLET_HI));
    fill(c, circle(0, 0, 3.0f), rgb(0xFFE0B0));
    fill(c, circle(-1, -1, 1.5f), rgb(WHITE));
    return c;
}

/* pickup/gem, radius 9: a violet crystal with facets. */
static Canvas draw_gem()
{
    Canvas c(28, 28);
    Sdf gem = polygon({ { 0, -10 }, { 7.5f, -1 }, { 0, 10 }, { -7.5f, -1 } });
    glow(c, gem, 4.0f, rgb(GEM_HI, 0.6f));
    fill(c, gem, rgb(GEM_LO));
    fill(c, polygon({ { 0, -10 }, { 7.5f, -1 }, { 0, 1.5f } }), rgb(0x8A4FFF));   /* lit facet */
    fill(c, polygon({ { 0, -10 }, { 0, 1.5f }, { -7.5f, -1 } }), rgb(0xD8B0FF));  /* bright facet */
    stroke(c, inset(gem, 0.5f), 1.5f, rgb(0xE8D0FF));
    fill(c, circle(-2.5f, -4, 1.2f), rgb(WHITE));
    return c;
}

/* pickup/health, radius 12: a green cross in a ring. */
static Canvas draw_health()
{
    Canvas c(32, 32);
    Sdf ring = [](float x, float y) { return fabsf(len(x, y) - 11.0f) - 1.0f; };
    glow(c, circle(0, 0, 12.0f), 4.0f, rgb(HEAL_HI, 0.5f));
    fill(c, circle(0, 0, 11.0f), rgb(HEAL_LO, 0.85f));
    fill(c, ring, rgb(HEAL_HI));
    Sdf cross = unite(box(0, 0, 7, 2.5f, 0.8f), box(0, 0, 2.5f, 7, 0.8f));
    glow(c, cross, 3.0f, rgb(HEAL_HI, 0.8f));
    fill(c, cross, rgb(0xD8FFE0));
    return c;
}

/* wall/block, 64 px opaque tile: dark panel, bevelled edge, an inset neon line. */
static Canvas draw_wall()
{
    Canvas c(64, 64);
    fill(c, box(0, 0, 32, 32), rgb(0x1A2034));
    /* a faint glow from the middle of the panel */
    paint(c, rgb(0x263052), [](float x, float y) { return 0.9f - len(x, y) / 34.0f; });
    /* bevel: light top/left, dark bottom/right, 3 px */
    paint(c, rgb(0x3A4A70), [](float x, float y) { return (y < -29 || x < -29) && !(y > 29 || x > 29) ? 1.0f : 0.0f; });
    paint(c, rgb(0x0C0F18), [](float x, float y) { return (y > 29 || x > 29) ? 1.0f : 0.0f; });
    /* inset neon outline */
    Sdf line = box(0, 0, 24, 24, 4);
    glow(c, [line](float x, float y) { return fabsf(line(x, y)) - 1.0f; }, 5.0f, rgb(0x4F7BFF, 0.35f));
    stroke(c, line, 2.0f, rgb(0x6A9CFF));
    return c;
}

/* fx/dot, 16 px, tinted: a white disc with a soft edge. */
static Canvas draw_dot()
{
    Canvas c(16, 16);
    Sdf d = circle(0, 0, 3.5f);
    glow(c, d, 4.5f, rgb(WHITE, 1.0f));
    fill(c, d, rgb(WHITE));
    return c;
}

/* fx/ring, 64 px, tinted: a thin white ring near the edge with a glow on both sides. */
static Canvas draw_ring()
{
    Canvas c(64, 64);
    Sdf d = [](float x, float y) { return fabsf(len(x, y) - 27.5f) - 1.5f; };
    glow(c, d, 3.0f, rgb(WHITE, 0.7f));
    fill(c, d, rgb(WHITE));
    return c;
}

/* fx/spark, 8 px long along +x, tinted: a streak bright at the head, fading to the tail. */
static Canvas draw_spark()
{
    Canvas c(8, 4);
    Sdf d = segment(-3, 0, 3, 0, 1.0f);
    paint(c, rgb(WHITE), [d](float x, float y) {
        float body = clampf(0.5f - d(x, y), 0, 1) + 0.35f * expf(-fmaxf(d(x, y), 0.0f) / 0.8f);
        return body * (0.45f + 0.55f * clampf((x + 4) / 8, 0, 1));
    });
    return c;
}

/* ui/heart, HUD life (drawn at 1.2x, 30 px apart; dimmed when lost): a red-pink heart. */
static Canvas draw_ui_heart()
{
    Canvas c(26, 24);
    Sdf lobes = unite(circle(-4.3f, -2.5f, 4.8f), circle(4.3f, -2.5f, 4.8f));
    Sdf heart = unite(lobes, polygon({ { -8.9f, -0.8f }, { 8.9f, -0.8f }, { 0, 8.5f } }, 0.3f));
    glow(c, heart, 3.0f, rgb(HEART_HI, 0.6f));
    fill(c, heart, rgb(HEART_HI));
    fill(c, inset(heart, 2.5f), rgb(0xFF8098));
    fill(c, segment(-6.0f, -2.0f, -4.0f, -4.8f, 1.1f), rgb(WHITE, 0.9f));   /* shine */
    return c;
}

/* ---------------------------------------------------------------- main */
struct Sprite { const char *name; Canvas (*draw)(); };

static const Sprite SPRITES[] = {
    { "player/ship",   draw_player },
    { "enemy/drone",   draw_drone },
    { "enemy/shooter", draw_shooter },
    { "enemy/dasher",  draw_dasher },
    { "enemy/brute",   draw_brute },
    { "bullet/player", draw_player_bullet },
    { "bullet/enemy",  draw_enemy_bullet },
    { "pickup/gem",    draw_gem },
    { "pickup/health", draw_health },
    { "wall/block",    draw_wall },
    { "fx/dot",        draw_dot },
    { "fx/ring",       draw_ring },
    { "fx/spark",      draw_spark },
    { "ui/heart",      draw_ui_heart },
};

static bool make_dirs(const std::string &path)   /* every folder of path's parent */
{
    for (size_t i = 1; i < path.size(); i++) {
        if (path[i] != '/') continue;
        std::string d = path.substr(0, i);
        if (mkdir(d.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_art <out_dir>\n");
        return 2;
    }
    std::string out = argv[1];
    int failed = 0;
    for (const Sprite &s : SPRITES) {
        std::string path = out + "/" + s.name + ".png";
        Canvas c = s.draw();
        if (!make_dirs(path) || !write_png(c, path)) {
            fprintf(stderr, "make_art: cannot write %s: %s\n", path.c_str(), strerror(errno));
            failed++;
            continue;
        }
        printf("%-14s %3dx%-3d %s\n", s.name, c.w, c.h, path.c_str());
    }
    return failed ? 1 : 0;
}
