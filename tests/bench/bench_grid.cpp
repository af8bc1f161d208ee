/* The background grid of NEON SWARM (game/fx.cpp): one frame's spring step and line submission, in the
   heaviest case: the whole arena in view (the camera zoomed out), the grid pushed by a brute's explosion
   and sixty bullets every frame. The game is compiled in through tests/unit/game_harness.h (stub services:
   the submission is counted, not drawn). grid_frame_ms, the median over 2,000 frames; the budget is 1 ms. */
#include "../unit/game_harness.h"
#include "bench_time.h"

#include <time.h>
#include <vector>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
    Harness h;
    harness_init(&h);
    GameState *gs = harness_start(&h, 42);
    std::vector<double> t;
    int segments = 0;
    for (int f = 0; f < bench_runs(2000, 100); f++) {
        double t0 = now_ms();
        if (f % 30 == 0) grid_push(gs, v2_make(300.0f + (f * 37) % 1800, 200.0f + (f * 53) % 1100), 260.0f, 900.0f);
        for (int b = 0; b < 60; b++) grid_push(gs, v2_make(100.0f + (b * 97 + f * 11) % 2200, 100.0f + (b * 61 + f * 7) % 1300), 60.0f, 70.0f);
        grid_update(gs, 1.0f / 60.0f);
        g_harness.sprites = 0;
        grid_draw(gs, 0, 0, ARENA_W, ARENA_H, 0.53f, &h.pf);
        t.push_back(now_ms() - t0);
        segments = g_harness.sprites;
    }
    fprintf(stderr, "bench_grid: %d points, %d line segments a frame, %d glowing\n", GRID_COLS * GRID_ROWS, segments, g_harness.glow_sprites / 2000);
    printf("{\"grid_frame_ms\": %.4f}\n", bench_median(t));
    harness_free(&h);
    return 0;
}
