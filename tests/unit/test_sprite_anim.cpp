/* Tests for the animations of Aseprite files: the host's table (platform/services/sprite_anim.cpp: anims.txt
   parsed, sprite_anim_info answered, a missing tag said once) and the game's helpers in game_api.h
   (sprite_anim_play / update / frame): forward, reverse, ping-pong and ping-pong reverse stepping with per-frame
   durations, a dt longer than a frame or than a whole round, a tag removed or shortened while playing, a repeat
   count played out and held (each direction), and the slices (sprite_slice: the key in force at a frame, hidden
   keys, a missing slice said once, bad slice records refused). */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "services/sprite_anim.cpp"

#include "asset_report_stubs.h"   /* what sprite_anim.cpp calls to report: kept in g_errors, g_warnings, g_events */

/* ---------------------------------------------------------------- helpers */
/* hero: 8 frames. walk 0-2 forward (100, 50, 200 ms), back 0-2 reverse, bob 3-5 ping-pong (10, 20, 30),
   rbob 3-5 ping-pong reverse, one 6-6 ping-pong, still 7-7 forward. */
static const char ANIMS[] =
    "th_anims\t1\n"
    "anim\thero\thero.aseprite\t8\t100 50 200 10 20 30 40 70\n"
    "tag\thero\t0\t2\t0\t0\twalk\n"
    "tag\thero\t0\t2\t1\t0\tback\n"
    "tag\thero\t3\t5\t2\t0\tbob\n"
    "tag\thero\t3\t5\t3\t0\trbob\n"
    "tag\thero\t6\t6\t2\t0\tone\n"
    "tag\thero\t7\t7\t0\t0\tstill\n"
    "end\t7\n";

static PlatformAPI g_pf_test;

static void install(const char *text)
{
    sprite_anims_install(text, strlen(text), "build/assets/anims.txt");
}

static uint32_t frame_id(int f)
{
    char name[32];
    snprintf(name, sizeof name, "hero#%d", f);
    return game_sprite_id(name);
}

/* The frames shown after each of n updates of dt seconds. */
static std::vector<int> run(GameSpriteAnim *a, float dt, int n)
{
    std::vector<int> out;
    for (int i = 0; i < n; i++) {
        sprite_anim_update(&g_pf_test, a, dt);
        int f = -1;
        for (int k = 0; k < 8; k++) if (sprite_anim_frame(a) == frame_id(k)) f = k;
        out.push_back(f);
    }
    return out;
}

static GameSpriteAnim playing(const char *tag)
{
    GameSpriteAnim a;
    memset(&a, 0, sizeof a);
    sprite_anim_play(&a, game_sprite_id("hero"), tag);
    return a;
}

/* ---------------------------------------------------------------- tests */
static void test_info(void)
{
    install(ANIMS);
    GameAnimInfo info;
    TH_CHECK(sprite_anim_info_api(game_sprite_id("hero"), "bob", &info) == 1);
    TH_CHECK(info.frame_count == 3 && info.direction == ANIM_PING_PONG && info.first_frame == 3);
    TH_CHECK(info.sprites[0] == frame_id(3) && info.sprites[2] == frame_id(5));
    TH_CHECK(info.duration_ms[0] == 10 && info.duration_ms[1] == 20 && info.duration_ms[2] == 30);
    TH_CHECK(sprite_anim_info_api(game_sprite_id("hero"), "", &info) == 1);   /* the whole file */
    TH_CHECK(info.frame_count == 8 && info.direction == ANIM_FORWARD && info.duration_ms[7] == 70);
    TH_CHECK(sprite_anim_info_api(game_sprite_id("hero"), nullptr, &info) == 1 && info.frame_count == 8);
}

static void test_forward_durations(void)
{
    install(ANIMS);
    GameSpriteAnim a = playing("walk");
    TH_CHECK(sprite_anim_frame(&a) == game_sprite_id("hero"));   /* before any update: the file's frame 0 */
    /* 10 ms steps: frame 0 for 100 ms, 1 for 50, 2 for 200, then 0 again */
    std::vector<int> f = run(&a, 0.010f, 36);
    TH_CHECK(f[0] == 0 && f[8] == 0 && f[9] == 1);     /* after 100 ms: frame 1 */
    TH_CHECK(f[13] == 1 && f[14] == 2);                /* after 150 ms: frame 2 */
    TH_CHECK(f[33] == 2 && f[34] == 0 && f[35] == 0);  /* after 350 ms: round again */
    TH_CHECK(a.loops == 1);
}

static void test_reverse(void)
{
    install(ANIMS);
    GameSpriteAnim a = playing("back");
    std::vector<int> f = run(&a, 0.010f, 36);
    TH_CHECK(f[0] == 2 && f[19] == 1 && f[20] == 1 && f[24] == 0 && f[33] == 0 && f[34] == 2);
    TH_CHECK_EQ_INT(f[18], 2);
}

static void test_ping_pong(void)
{
    install(ANIMS);
    GameSpriteAnim a = playing("bob");   /* frames 3 (10 ms), 4 (20), 5 (30): 3 4 5 4 3 4 5 ... */
    std::vector<int> f = run(&a, 0.010f, 12);
    int want[12] = { 4, 4, 5, 5, 5, 4, 4, 3, 4, 4, 5, 5 };
    for (int i = 0; i < 12; i++) TH_CHECK_MSG(f[(size_t)i] == want[i], "step %d: frame %d, want %d", i, f[(size_t)i], want[i]);
    GameSpriteAnim r = playing("rbob");   /* 5 4 3 4 5 4 ... */
    f = run(&r, 0.010f, 10);
    int rwant[10] = { 5, 5, 4, 4, 3, 4, 4, 5, 5, 5 };
    for (int i = 0; i < 10; i++) TH_CHECK_MSG(f[(size_t)i] == rwant[i], "rbob step %d: frame %d, want %d", i, f[(size_t)i], rwant[i]);
    GameSpriteAnim one = playing("one");
    f = run(&one, 0.5f, 3);
    TH_CHECK(f[0] == 6 && f[1] == 6 && f[2] == 6 && one.frame == 0);
}

static void test_dt_longer_than_frames(void)
{
    install(ANIMS);
    GameSpriteAnim a = playing("walk");
    run(&a, 0.275f, 1);   /* 100 + 50 + 125 into frame 2 */
    TH_CHECK(a.frame == 2 && a.time_ms > 124.0f && a.time_ms < 126.0f);
    GameSpriteAnim b = playing("walk");
    run(&b, 0.350f * 1000 + 0.120f, 1);   /* 1000 rounds and 120 ms: frame 1, 20 ms in */
    TH_CHECK(b.frame == 1 && b.loops == 1000 && b.time_ms > 19.0f && b.time_ms < 21.5f);
    GameSpriteAnim p = playing("bob");    /* a ping-pong round is 10 + 20 + 30 + 20 = 80 ms */
    run(&p, 0.080f * 7 + 0.015f, 1);
    TH_CHECK(p.frame == 1 && p.loops == 7);
    GameSpriteAnim h = playing("walk");
    run(&h, 1e9f, 1);                     /* absurd: ignored, never a hang */
    TH_CHECK(h.frame >= 0 && h.frame < 3);
}

static void test_play_keeps_or_restarts(void)
{
    install(ANIMS);
    GameSpriteAnim a = playing("walk");
    run(&a, 0.120f, 1);
    TH_CHECK(a.frame == 1);
    sprite_anim_play(&a, game_sprite_id("hero"), "walk");   /* the same tag: goes on */
    TH_CHECK(a.frame == 1);
    sprite_anim_play(&a, game_sprite_id("hero"), "bob");    /* another: from its start */
    run(&a, 0.001f, 1);
    TH_CHECK(a.frame == 0 && sprite_anim_frame(&a) == frame_id(3));
    sprite_anim_play(&a, game_sprite_id("hero"), "a tag name longer than the thirty-one characters kept");
    TH_CHECK(a.tag[GAME_ANIM_TAG_MAX - 1] == 0);
}

static void test_removed_and_shortened_tag(void)
{
    install(ANIMS);
    g_events.clear();
    GameSpriteAnim a = playing("walk");
    run(&a, 0.160f, 1);
    uint32_t shown = sprite_anim_frame(&a);
    TH_CHECK(shown == frame_id(2));
    /* the file saved with "walk" renamed: the frame stays, the host says so once, by name */
    install("th_anims\t1\nanim\thero\thero.aseprite\t3\t100 50 200\ntag\thero\t0\t2\t0\t0\tstroll\nend\t2\n");
    for (int i = 0; i < 5; i++) TH_CHECK(sprite_anim_update(&g_pf_test, &a, 0.1f) == 0);
    TH_CHECK(sprite_anim_frame(&a) == shown && a.frame == 2);
    int said = 0;
    for (const std::string &e : g_events) said += e.find("anim_missing") == 0 && e.find("hero.aseprite") != std::string::npos &&
                                                 e.find("\"walk\"") != std::string::npos;
    TH_CHECK_EQ_INT(said, 1);
    /* back, one frame long: the index is clamped, never read past the tag */
    install("th_anims\t1\nanim\thero\thero.aseprite\t3\t100 50 200\ntag\thero\t1\t1\t0\t0\twalk\nend\t2\n");
    TH_CHECK(sprite_anim_update(&g_pf_test, &a, 0.01f) == 1);
    TH_CHECK(a.frame == 0 && sprite_anim_frame(&a) == frame_id(1));
    /* an unknown file: nothing to animate, the id given is what draws */
    GameSpriteAnim u;
    memset(&u, 0, sizeof u);
    sprite_anim_play(&u, game_sprite_id("nobody"), "idle");
    TH_CHECK(sprite_anim_update(&g_pf_test, &u, 0.1f) == 0 && sprite_anim_frame(&u) == game_sprite_id("nobody"));
    /* an old host (no such service): the helpers do nothing */
    PlatformAPI old;
    memset(&old, 0, sizeof old);
    TH_CHECK(sprite_anim_update(&old, &a, 0.1f) == 0);
}

/* The same file with repeat counts and slices: walk2 forward x2, back1 reverse x1, bob3 ping-pong x3 (each way
   counts), rbob1 ping-pong reverse x1; "hitbox" moves at frame 2 and hides from frame 5, "panel" is a 9-patch. */
static const char FINITE[] =
    "th_anims\t1\n"
    "anim\thero\thero.aseprite\t8\t100 50 200 10 20 30 40 70\n"
    "tag\thero\t0\t2\t0\t2\twalk2\n"
    "tag\thero\t0\t2\t1\t1\tback1\n"
    "tag\thero\t3\t5\t2\t3\tbob3\n"
    "tag\thero\t3\t5\t3\t1\trbob1\n"
    "slice\thero\t0\t4 5 10 20\t0 0 0 0\t5 18\t2\thitbox\n"
    "slice\thero\t2\t6 5 12 20\t0 0 0 0\t6 19\t2\thitbox\n"
    "slice\thero\t5\t0 0 0 0\t0 0 0 0\t0 0\t2\thitbox\n"
    "slice\thero\t0\t0 0 32 32\t8 8 16 16\t0 0\t1\tpanel\n"
    "end\t9\n";

/* Updates of dt until the helper says the play is over (at most n); the frames shown and the update it said so. */
static std::vector<int> run_out(GameSpriteAnim *a, float dt, int n, int *over_at)
{
    std::vector<int> out;
    *over_at = -1;
    for (int i = 0; i < n; i++) {
        int r = sprite_anim_update(&g_pf_test, a, dt);
        int f = -1;
        for (int k = 0; k < 8; k++) if (sprite_anim_frame(a) == frame_id(k)) f = k;
        out.push_back(f);
        if (r == 2 && *over_at < 0) *over_at = i;
        if (*over_at >= 0) TH_CHECK_MSG(r == 2, "update %d: over once, over from then on (got %d)", i, r);
    }
    return out;
}

static void test_repeat_count(void)
{
    install(FINITE);
    int over = -1;
    /* forward x2: 0 1 2 0 1 2 (350 ms a round), held on 2 once its 200 ms are up, at 700 ms */
    GameSpriteAnim a = playing("walk2");
    std::vector<int> f = run_out(&a, 0.010f, 120, &over);
    TH_CHECK_MSG(over >= 68 && over <= 70, "walk2 over after %d updates, want ~69 (700 ms)", over);
    TH_CHECK(f[40] == 0 && f[46] == 1 && f[55] == 2);   /* the second round: from 350 ms, 450 ms, 500 ms */
    for (size_t i = 60; i < f.size(); i++) TH_CHECK_MSG(f[i] == 2, "walk2 holds frame 2, update %zu shows %d", i, f[i]);
    /* reverse x1: 2 1 0, held on 0 */
    GameSpriteAnim b = playing("back1");
    f = run_out(&b, 0.010f, 60, &over);
    TH_CHECK_MSG(over >= 33 && over <= 35, "back1 over after %d updates, want ~34 (350 ms)", over);
    TH_CHECK(f[0] == 2 && f[25] == 0 && f[59] == 0);
    /* ping-pong x3 (each way is one): 3 4 5 4 3 4 5, held on 5; 10+20+30+20+10+20+30 = 140 ms */
    GameSpriteAnim c = playing("bob3");
    f = run_out(&c, 0.005f, 60, &over);
    std::vector<int> seen;
    for (int x : f) if (seen.empty() || seen.back() != x) seen.push_back(x);
    std::vector<int> want = { 3, 4, 5, 4, 3, 4, 5 };
    TH_CHECK_MSG(seen == want, "bob3 went through %zu frames", seen.size());
    TH_CHECK_MSG(over >= 26 && over <= 28, "bob3 over after %d updates of 5 ms, want ~27 (140 ms)", over);
    /* ping-pong reverse x1: 5 4 3, held on 3 */
    GameSpriteAnim d = playing("rbob1");
    f = run_out(&d, 0.005f, 40, &over);
    TH_CHECK(f[0] == 5 && f[39] == 3 && over > 0);
    /* a dt longer than the whole play: over at once, on the final frame; the round skip stops short of it */
    GameSpriteAnim e = playing("walk2");
    TH_CHECK(sprite_anim_update(&g_pf_test, &e, 100.0f) == 2);
    TH_CHECK(sprite_anim_frame(&e) == frame_id(2) && e.loops == 1);
    TH_CHECK(sprite_anim_update(&g_pf_test, &e, 0.001f) == 2 && sprite_anim_frame(&e) == frame_id(2));
    /* playing the tag again keeps it over; another tag starts afresh */
    sprite_anim_play(&e, game_sprite_id("hero"), "walk2");
    TH_CHECK(sprite_anim_update(&g_pf_test, &e, 0.001f) == 2);
    sprite_anim_play(&e, game_sprite_id("hero"), "back1");
    TH_CHECK(sprite_anim_update(&g_pf_test, &e, 0.001f) == 1 && sprite_anim_frame(&e) == frame_id(2));
}

static void test_slices(void)
{
    install(FINITE);
    GameSlice s;
    g_warnings.clear();
    TH_CHECK(sprite_slice_api(frame_id(0), "hitbox", &s) == 1);
    TH_CHECK(s.x == 4 && s.y == 5 && s.w == 10 && s.h == 20 && s.flags == SLICE_PIVOT && s.pivot_x == 5 &&
             s.pivot_y == 18 && s.frame == 0);
    TH_CHECK(sprite_slice_api(game_sprite_id("hero"), "hitbox", &s) == 1 && s.x == 4 && s.frame == 0);   /* the file */
    TH_CHECK(sprite_slice_api(frame_id(1), "hitbox", &s) == 1 && s.x == 4 && s.frame == 1);   /* frame 0's key */
    TH_CHECK(sprite_slice_api(frame_id(2), "hitbox", &s) == 1 && s.x == 6 && s.w == 12 && s.pivot_x == 6);
    TH_CHECK(sprite_slice_api(frame_id(4), "hitbox", &s) == 1 && s.x == 6 && s.frame == 4);
    TH_CHECK(sprite_slice_api(frame_id(5), "hitbox", &s) == 0);   /* hidden from frame 5 on: not a mistake */
    TH_CHECK(sprite_slice_api(frame_id(7), "hitbox", &s) == 0);
    TH_CHECK_EQ_INT((int)g_warnings.size(), 0);
    TH_CHECK(sprite_slice_api(frame_id(3), "panel", &s) == 1 && s.flags == SLICE_NINE_PATCH && s.center_x == 8 &&
             s.center_w == 16 && s.w == 32);
    /* the frame a slice plays from: an animation's current frame */
    GameSpriteAnim a = playing("bob3");
    sprite_anim_update(&g_pf_test, &a, 0.001f);
    TH_CHECK(sprite_slice_api(sprite_anim_frame(&a), "hitbox", &s) == 1 && s.frame == 3 && s.x == 6);
    /* a name the file has not: 0, said once */
    TH_CHECK(sprite_slice_api(frame_id(0), "hurtbox", &s) == 0);
    TH_CHECK(sprite_slice_api(frame_id(1), "hurtbox", &s) == 0);
    TH_CHECK_EQ_INT((int)g_warnings.size(), 1);
    TH_CHECK(g_warnings[0].find("hero.aseprite has no slice \"hurtbox\"") != std::string::npos);
    TH_CHECK(sprite_slice_api(12345, "hitbox", &s) == 0 && g_warnings.size() == 2);   /* no such sprite */
    TH_CHECK(sprite_slice_api(frame_id(0), "hitbox", nullptr) == 0);
    TH_CHECK(sprite_slice_api(frame_id(0), nullptr, &s) == 0);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    TH_CHECK(sprite_slice_api(frame_id(0), longname, &s) == 0);   /* cut to fit, never read past */
}

static void test_bad_anims_file_keeps_the_table(void)
{
    install(ANIMS);
    const char *bad[] = {
        "th_anims\t2\nend\t0\n",                                                     /* version */
        "th_anims\t1\nanim\thero\thero.aseprite\t3\t100 50\nend\t1\n",               /* too few durations */
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50 7\nend\t1\n",             /* too many */
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\ntag\thero\t1\t2\t0\t0\tx\nend\t2\n",   /* past the end */
        "th_anims\t1\ntag\tnobody\t0\t0\t0\t0\tx\nend\t1\n",                          /* no file */
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\ntag\thero\t0\t1\t9\t0\tx\nend\t2\n",   /* direction */
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\n",                        /* cut short */
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\nend\t5\n",                /* wrong count */
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\nslice\thero\t2\t0 0 1 1\t0 0 0 0\t0 0\t0\ts\nend\t2\n",
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\nslice\thero\t0\t0 0 -1 1\t0 0 0 0\t0 0\t0\ts\nend\t2\n",
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\nslice\thero\t0\t0 0 1\t0 0 0 0\t0 0\t0\ts\nend\t2\n",
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\nslice\thero\t0\t0 0 1 1\t0 0 0 0\t0 0\t4\ts\nend\t2\n",
        "th_anims\t1\nanim\thero\thero.aseprite\t2\t100 50\nslice\thero\t0\t0 0 1 1\t0 0 0 0\t0 0\t0\t\nend\t2\n",
        "th_anims\t1\nslice\thero\t0\t0 0 1 1\t0 0 0 0\t0 0\t0\ts\nend\t1\n",
    };
    for (const char *b : bad) {
        g_errors.clear();
        install(b);
        TH_CHECK_MSG(g_errors.size() == 1, "refused with one message: %s", b);
        GameAnimInfo info;
        TH_CHECK(sprite_anim_info_api(game_sprite_id("hero"), "bob", &info) == 1);   /* the previous table */
    }
}

int main(void)
{
    memset(&g_pf_test, 0, sizeof g_pf_test);
    g_pf_test.sprite_anim_info = sprite_anim_info_api;
    TH_RUN(test_info);
    TH_RUN(test_forward_durations);
    TH_RUN(test_reverse);
    TH_RUN(test_ping_pong);
    TH_RUN(test_dt_longer_than_frames);
    TH_RUN(test_play_keeps_or_restarts);
    TH_RUN(test_removed_and_shortened_tag);
    TH_RUN(test_repeat_count);
    TH_RUN(test_slices);
    TH_RUN(test_bad_anims_file_keeps_the_table);
    return th_test_finish();
}
