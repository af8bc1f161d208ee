/* spritebatch_100k_build_ms: 100,000 sprites spread over 4 layers and 4 pages in random order, half of
   them rotated; the time of thsb_end (sort + vertex build) on one core, median of the repeats.
   Also reports the same build when the pushes already arrive in (layer, page) order. */
#define TH_SPRITEBATCH_IMPLEMENTATION
#include "th_spritebatch.h"
#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>


int main(void)
{
    const int N = 100000, REPEATS = bench_runs(41, 3);
    std::vector<unsigned char> mem(thsb_memory_size(N));
    thsb_batcher sb;
    if (!thsb_init(&sb, mem.data(), mem.size(), N)) { fprintf(stderr, "init failed\n"); return 1; }
    std::vector<thsb_sprite> input((size_t)N);
    srand(7);
    for (int i = 0; i < N; i++) {
        thsb_sprite &s = input[(size_t)i];
        memset(&s, 0, sizeof s);
        s.x = (float)(rand() % 1280); s.y = (float)(rand() % 720);
        s.w = s.h = 32; s.scale_x = s.scale_y = 1;
        s.rotation = (i & 1) ? (float)(rand() % 6283) / 1000.0f : 0.0f;
        s.origin_x = s.origin_y = 0.5f;
        int tile = rand() % 64;
        s.u0 = (float)(tile % 8) / 8; s.v0 = (float)(tile / 8) / 8; s.u1 = s.u0 + 0.125f; s.v1 = s.v0 + 0.125f;
        s.color = 0xFFFFFFFFu;
        s.layer = (int16_t)(rand() % 4);
        s.page = (uint16_t)(rand() % 4);
        s.flags = (uint16_t)(rand() % 4);
    }
    std::vector<thsb_sprite> ordered = input;
    std::stable_sort(ordered.begin(), ordered.end(), [](const thsb_sprite &a, const thsb_sprite &b) {
        return a.layer != b.layer ? a.layer < b.layer : a.page < b.page;
    });

    std::vector<double> t_random, t_ordered;
    int batches = 0;
    double sink = 0;
    for (int r = 0; r < REPEATS; r++) {
        const std::vector<thsb_sprite> *sets[2] = { &input, &ordered };
        for (int k = 0; k < 2; k++) {
            thsb_begin(&sb);
            for (const thsb_sprite &s : *sets[k]) thsb_push(&sb, &s);
            double t0 = bench_now_ms();
            batches = thsb_end(&sb);
            double t1 = bench_now_ms();
            (k ? t_ordered : t_random).push_back(t1 - t0);
            sink += sb.vertices[sb.vertex_count - 1].x;
        }
    }
    fprintf(stderr, "bench_spritebatch: %d sprites -> %d batches, %d vertices (checksum %.1f)\n", N, batches, sb.vertex_count, sink);
    printf("{\"spritebatch_100k_build_ms\": %.3f, \"spritebatch_100k_presorted_build_ms\": %.3f}\n",
           bench_median(t_random), bench_median(t_ordered));
    return 0;
}
