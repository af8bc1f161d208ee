/* Tests for tinyheaders/th_spritebatch.h: order, stability, batch boundaries, vertex positions for
   rotation/flip/origin, culling and capacity overflow. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_SPRITEBATCH_IMPLEMENTATION
#include "th_spritebatch.h"

#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>

/* The manual's example, verbatim (test_example_matches_manual checks it against the header). */
/* EXAMPLE BEGIN */
static unsigned char sb_memory[64 * 1024];

static void my_draw(int page, const thsb_vertex *v, int nv, const int *idx, int ni)
{
    (void)page; (void)v; (void)nv; (void)idx; (void)ni;   // e.g. SDL_RenderGeometry
}

static int draw_two_sprites(void)
{
    thsb_batcher sb;
    thsb_sprite s;
    int i;
    if (!thsb_init(&sb, sb_memory, sizeof sb_memory, 100)) return -1;
    thsb_begin(&sb);
    memset(&s, 0, sizeof s);
    s.w = 32; s.h = 32;                 // pixel size of the source rectangle
    s.scale_x = s.scale_y = 1;
    s.u1 = s.v1 = 1;                    // whole page; u0 = v0 = 0
    s.color = 0xFFFFFFFFu;              // 0xRRGGBBAA
    s.x = 100; s.y = 50; s.layer = 2; s.page = 0;
    thsb_push(&sb, &s);
    s.x = 10; s.layer = 1; s.page = 3;
    s.rotation = 0.5f; s.origin_x = s.origin_y = 0.5f;
    thsb_push(&sb, &s);
    thsb_end(&sb);
    for (i = 0; i < sb.batch_count; i++) {
        const thsb_batch *b = &sb.batches[i];
        my_draw(b->page, sb.vertices + b->first_vertex, b->vertex_count, sb.indices, b->index_count);
    }
    return sb.batch_count;              // 2: layer 1 (page 3) first, then layer 2
}
/* EXAMPLE END */

static std::string repo_file(const char *rel)
{
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/unit/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/unit/");
    std::string root = at == std::string::npos ? std::string(".") : here.substr(0, at);
    std::string path = root + rel;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return std::string();
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

/* Non-empty lines with leading whitespace removed: the header's copy sits in an indented comment. */
static std::vector<std::string> trimmed_lines(const std::string &text)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
        size_t e = text.find('\n', i);
        if (e == std::string::npos) e = text.size();
        std::string line = text.substr(i, e - i);
        size_t b = line.find_first_not_of(" \t");
        if (b != std::string::npos) out.push_back(line.substr(b));
        i = e + 1;
    }
    return out;
}

static void test_example_matches_manual(void)
{
    TH_CHECK_EQ_INT(draw_two_sprites(), 2);
    std::string header = repo_file("tinyheaders/th_spritebatch.h");
    std::string me = repo_file("tests/unit/test_spritebatch.cpp");
    TH_CHECK(!header.empty() && !me.empty());
    size_t hb = header.find("   EXAMPLE ("), he = header.find("   OUTPUT");
    size_t mb = me.find("/* EXAMPLE BEGIN */"), mend = me.find("/* EXAMPLE END */");
    TH_CHECK(hb != std::string::npos && he != std::string::npos && mb != std::string::npos && mend != std::string::npos);
    if (hb == std::string::npos || he == std::string::npos || mb == std::string::npos || mend == std::string::npos) return;
    hb = header.find('\n', hb) + 1;
    mb = me.find('\n', mb) + 1;
    std::vector<std::string> a = trimmed_lines(header.substr(hb, he - hb));
    std::vector<std::string> b = trimmed_lines(me.substr(mb, mend - mb));
    TH_CHECK_EQ_INT(a.size(), b.size());
    for (size_t i = 0; i < a.size() && i < b.size(); i++)
        TH_CHECK_MSG(a[i] == b[i], "example line %d differs:\n  header: %s\n  test:   %s", (int)i, a[i].c_str(), b[i].c_str());
}

/* ---------------------------------------------------------------- helpers */
struct Batcher {
    std::vector<unsigned char> mem;
    thsb_batcher sb;
    explicit Batcher(int cap) : mem(thsb_memory_size(cap)) { thsb_init(&sb, mem.data(), mem.size(), cap); }
};

static thsb_sprite unit_sprite(float x, float y, int layer, int page)
{
    thsb_sprite s;
    memset(&s, 0, sizeof s);
    s.x = x; s.y = y; s.w = 1; s.h = 1; s.scale_x = s.scale_y = 1;
    s.u0 = 0; s.v0 = 0; s.u1 = 1; s.v1 = 1;
    s.color = 0xFFFFFFFFu;
    s.layer = (int16_t)layer; s.page = (uint16_t)page;
    return s;
}

/* Pushes sprites whose x is their submission index, builds, and checks the order against a stable
   sort by (layer, page) and the batches against the runs of equal keys. */
static void check_order(const std::vector<std::pair<int, int>> &keys, int *runs_out)
{
    Batcher B((int)keys.size() + 1);
    thsb_begin(&B.sb);
    for (size_t i = 0; i < keys.size(); i++) {
        thsb_sprite s = unit_sprite((float)i, 0, keys[i].first, keys[i].second);
        TH_CHECK(thsb_push(&B.sb, &s) != NULL);
    }
    thsb_end(&B.sb);
    std::vector<int> expect(keys.size());
    for (size_t i = 0; i < keys.size(); i++) expect[i] = (int)i;
    std::stable_sort(expect.begin(), expect.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    TH_CHECK_EQ_INT(B.sb.vertex_count, 4 * (int)keys.size());
    int bad = 0;
    for (size_t i = 0; i < keys.size(); i++) if ((int)B.sb.vertices[4 * i].x != expect[i]) bad++;
    TH_CHECK_EQ_INT(bad, 0);
    int runs = 0;
    for (size_t i = 0; i < expect.size(); i++) if (i == 0 || keys[expect[i]] != keys[expect[i - 1]]) runs++;
    TH_CHECK_EQ_INT(B.sb.batch_count, runs);
    int at = 0;
    for (int b = 0; b < B.sb.batch_count; b++) {
        const thsb_batch &bt = B.sb.batches[b];
        TH_CHECK_EQ_INT(bt.first_vertex, at * 4);
        TH_CHECK_EQ_INT(bt.first_index, at * 6);
        TH_CHECK_EQ_INT(bt.index_count * 4, bt.vertex_count * 6);
        int n = bt.vertex_count / 4;
        for (int k = 0; k < n; k++) {
            const std::pair<int, int> &key = keys[expect[at + k]];
            if (key.first != bt.layer || key.second != bt.page) { TH_CHECK_MSG(0, "batch %d holds a foreign sprite", b); break; }
        }
        if (b > 0) {
            const thsb_batch &p = B.sb.batches[b - 1];
            TH_CHECK(std::make_pair(p.layer, p.page) < std::make_pair(bt.layer, bt.page));
        }
        at += n;
    }
    TH_CHECK_EQ_INT(at, (int)keys.size());
    if (runs_out) *runs_out = runs;
}

/* ---------------------------------------------------------------- tests */
static void test_crafted_order(void)
{
    int runs = 0;
    /* layer 1 page 0, layer 0 page 1, layer 0 page 0, layer 1 page 0, layer 0 page 1 */
    check_order({ { 1, 0 }, { 0, 1 }, { 0, 0 }, { 1, 0 }, { 0, 1 } }, &runs);
    TH_CHECK_EQ_INT(runs, 3);
    check_order({ { 5, 2 } }, &runs);
    TH_CHECK_EQ_INT(runs, 1);
    check_order({ { -32768, 65535 }, { 32767, 0 }, { -1, 1 }, { 0, 0 }, { -1, 0 }, { 32767, 65535 }, { -32768, 0 } }, &runs);
    TH_CHECK_EQ_INT(runs, 7);
    /* interleaved pages in one layer: one batch per page, submission order inside each */
    check_order({ { 3, 1 }, { 3, 0 }, { 3, 1 }, { 3, 0 }, { 3, 1 } }, &runs);
    TH_CHECK_EQ_INT(runs, 2);
}

static void test_random_order_and_stability(void)
{
    srand(1234);
    for (int round = 0; round < 20; round++) {
        int n = 1 + rand() % 3000;
        int layers = 1 + rand() % (round < 10 ? 4 : 3000), pages = 1 + rand() % (round < 10 ? 4 : 600);
        std::vector<std::pair<int, int>> keys((size_t)n);
        for (auto &k : keys) { k.first = rand() % layers - (round & 1 ? layers / 2 : 0); k.second = rand() % pages; }
        check_order(keys, NULL);
    }
}

static void test_sorted_input_skips_sort(void)
{
    Batcher B(16);
    thsb_begin(&B.sb);
    for (int i = 0; i < 8; i++) { thsb_sprite s = unit_sprite((float)i, 0, i / 3, i % 2 && i / 3 == 2 ? 1 : 0); thsb_push(&B.sb, &s); }
    thsb_end(&B.sb);
    TH_CHECK_EQ_INT(B.sb.stats.sorted, 0);
    thsb_begin(&B.sb);
    thsb_sprite a = unit_sprite(0, 0, 2, 0), b = unit_sprite(1, 0, 1, 0);
    thsb_push(&B.sb, &a);
    thsb_push(&B.sb, &b);
    thsb_end(&B.sb);
    TH_CHECK_EQ_INT(B.sb.stats.sorted, 1);
    TH_CHECK_NEAR(B.sb.vertices[0].x, 1, 0);
}

static void test_vertices_plain_origin_scale(void)
{
    Batcher B(4);
    thsb_begin(&B.sb);
    thsb_sprite s = unit_sprite(100, 50, 0, 0);
    s.w = 20; s.h = 10; s.scale_x = 2; s.scale_y = 3;
    s.origin_x = 0.25f; s.origin_y = 1.0f;
    s.u0 = 0.1f; s.v0 = 0.2f; s.u1 = 0.3f; s.v1 = 0.4f;
    s.color = 0x11223344u;
    thsb_push(&B.sb, &s);
    thsb_end(&B.sb);
    const thsb_vertex *v = B.sb.vertices;
    /* box 40 x 30, origin at (10, 30) inside it */
    TH_CHECK_NEAR(v[0].x, 90, 1e-4); TH_CHECK_NEAR(v[0].y, 20, 1e-4);
    TH_CHECK_NEAR(v[1].x, 130, 1e-4); TH_CHECK_NEAR(v[1].y, 20, 1e-4);
    TH_CHECK_NEAR(v[2].x, 130, 1e-4); TH_CHECK_NEAR(v[2].y, 50, 1e-4);
    TH_CHECK_NEAR(v[3].x, 90, 1e-4); TH_CHECK_NEAR(v[3].y, 50, 1e-4);
    TH_CHECK_NEAR(v[0].u, 0.1f, 0); TH_CHECK_NEAR(v[0].v, 0.2f, 0);
    TH_CHECK_NEAR(v[2].u, 0.3f, 0); TH_CHECK_NEAR(v[2].v, 0.4f, 0);
    for (int i = 0; i < 4; i++) {
        TH_CHECK_EQ_INT(v[i].r, 0x11); TH_CHECK_EQ_INT(v[i].g, 0x22);
        TH_CHECK_EQ_INT(v[i].b, 0x33); TH_CHECK_EQ_INT(v[i].a, 0x44);
    }
}

static void test_vertices_rotation(void)
{
    Batcher B(4);
    thsb_begin(&B.sb);
    /* 20 x 10 box rotated a quarter turn clockwise about its centre at (50, 50) */
    thsb_sprite s = unit_sprite(50, 50, 0, 0);
    s.w = 20; s.h = 10; s.origin_x = s.origin_y = 0.5f;
    s.rotation = 3.14159265f / 2;
    thsb_push(&B.sb, &s);
    /* rotated about the top-left corner by 30 degrees */
    thsb_sprite t = unit_sprite(0, 0, 1, 0);
    t.w = 10; t.h = 0; t.rotation = 3.14159265f / 6;
    thsb_push(&B.sb, &t);
    thsb_end(&B.sb);
    const thsb_vertex *v = B.sb.vertices;
    /* the top-left corner (-10, -5) turns to (5, -10) */
    TH_CHECK_NEAR(v[0].x, 55, 1e-3); TH_CHECK_NEAR(v[0].y, 40, 1e-3);
    TH_CHECK_NEAR(v[1].x, 55, 1e-3); TH_CHECK_NEAR(v[1].y, 60, 1e-3);
    TH_CHECK_NEAR(v[2].x, 45, 1e-3); TH_CHECK_NEAR(v[2].y, 60, 1e-3);
    TH_CHECK_NEAR(v[3].x, 45, 1e-3); TH_CHECK_NEAR(v[3].y, 40, 1e-3);
    /* clockwise on screen (y down): the right edge goes down */
    TH_CHECK_NEAR(v[5].x, 10 * cos(3.14159265 / 6), 1e-3);
    TH_CHECK_NEAR(v[5].y, 10 * sin(3.14159265 / 6), 1e-3);
}

static void test_flips_swap_uvs_not_positions(void)
{
    Batcher B(4);
    thsb_begin(&B.sb);
    thsb_sprite s = unit_sprite(0, 0, 0, 0);
    s.w = 8; s.h = 8; s.origin_x = 0.25f;
    s.u0 = 0.0f; s.v0 = 0.5f; s.u1 = 0.25f; s.v1 = 1.0f;
    s.flags = THSB_FLIP_X;
    thsb_push(&B.sb, &s);
    s.flags = THSB_FLIP_Y; s.layer = 1;
    thsb_push(&B.sb, &s);
    s.flags = THSB_FLIP_X | THSB_FLIP_Y; s.layer = 2;
    thsb_push(&B.sb, &s);
    thsb_end(&B.sb);
    const thsb_vertex *v = B.sb.vertices;
    for (int k = 0; k < 3; k++) {
        TH_CHECK_NEAR(v[4 * k].x, -2, 1e-5);
        TH_CHECK_NEAR(v[4 * k + 2].x, 6, 1e-5);
    }
    TH_CHECK_NEAR(v[0].u, 0.25f, 0); TH_CHECK_NEAR(v[0].v, 0.5f, 0); TH_CHECK_NEAR(v[2].u, 0.0f, 0);
    TH_CHECK_NEAR(v[4].u, 0.0f, 0); TH_CHECK_NEAR(v[4].v, 1.0f, 0); TH_CHECK_NEAR(v[6].v, 0.5f, 0);
    TH_CHECK_NEAR(v[8].u, 0.25f, 0); TH_CHECK_NEAR(v[8].v, 1.0f, 0);
    TH_CHECK_NEAR(v[10].u, 0.0f, 0); TH_CHECK_NEAR(v[10].v, 0.5f, 0);
}

static void test_sincos_accuracy(void)
{
    double worst = 0;
    for (int i = -200000; i <= 200000; i++) {
        float a = (float)i * 0.00173f;
        float s, c;
        thsb__sincos(a, &s, &c);
        double es = fabs(s - sin((double)a)), ec = fabs(c - cos((double)a));
        if (es > worst) worst = es;
        if (ec > worst) worst = ec;
    }
    float big[] = { 1e5f, -7.5e6f, 3e8f, 1e20f, -1e30f };
    for (float a : big) {
        float s, c;
        thsb__sincos(a, &s, &c);
        double es = fabs(s - sin((double)a)), ec = fabs(c - cos((double)a));
        if (es > worst) worst = es;
        if (ec > worst) worst = ec;
    }
    TH_CHECK_MSG(worst < 1e-6, "worst sin/cos error %g", worst);
    /* the vectorized block version, including the angles it hands to the scalar one */
    double worst_block = 0;
    float a[THSB__BLOCK], s[THSB__BLOCK], c[THSB__BLOCK];
    for (int round = 0; round < 4000; round++) {
        for (int j = 0; j < THSB__BLOCK; j++) a[j] = (float)((round * THSB__BLOCK + j) - 128000) * 0.0471f;
        if (round == 7) { a[3] = 1e7f; a[9] = -6000.5f; a[10] = 6000.0f; a[11] = -1e25f; }
        thsb__sincos_block(a, s, c);
        for (int j = 0; j < THSB__BLOCK; j++) {
            double es = fabs(s[j] - sin((double)a[j])), ec = fabs(c[j] - cos((double)a[j]));
            if (es > worst_block) worst_block = es;
            if (ec > worst_block) worst_block = ec;
        }
    }
    TH_CHECK_MSG(worst_block < 1e-6, "worst block sin/cos error %g", worst_block);
}

static void test_indices_and_subrange_drawing(void)
{
    Batcher B(3);
    for (int q = 0; q < 3; q++) {
        static const int pat[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) TH_CHECK_EQ_INT(B.sb.indices[6 * q + k], 4 * q + pat[k]);
    }
}

static void test_capacity_overflow(void)
{
    Batcher B(4);
    thsb_begin(&B.sb);
    int accepted = 0;
    for (int i = 0; i < 6; i++) {
        thsb_sprite s = unit_sprite((float)i, 0, 5 - i, 0);
        if (thsb_push(&B.sb, &s)) accepted++;
    }
    TH_CHECK_EQ_INT(accepted, 4);
    TH_CHECK_EQ_INT(B.sb.stats.dropped, 2);
    TH_CHECK_EQ_INT(B.sb.stats.sprites, 4);
    thsb_end(&B.sb);
    TH_CHECK_EQ_INT(B.sb.vertex_count, 16);
    TH_CHECK_EQ_INT(B.sb.batch_count, 4);
    TH_CHECK_NEAR(B.sb.vertices[0].x, 3, 0);
    /* the next frame starts clean */
    thsb_begin(&B.sb);
    TH_CHECK_EQ_INT(B.sb.stats.dropped, 0);
    thsb_end(&B.sb);
    TH_CHECK_EQ_INT(B.sb.batch_count, 0);
    TH_CHECK_EQ_INT(B.sb.vertex_count, 0);
}

static void test_init_rejects_bad_memory(void)
{
    thsb_batcher sb;
    unsigned char small[256];
    TH_CHECK_EQ_INT(thsb_init(&sb, small, sizeof small, 100), 0);
    TH_CHECK_EQ_INT(thsb_init(&sb, small, sizeof small, 0), 0);
    TH_CHECK_EQ_INT(thsb_init(&sb, NULL, 1u << 20, 10), 0);
    TH_CHECK(thsb_memory_size(THSB_MAX_CAPACITY + 1) == 0);
    std::vector<unsigned char> mem(thsb_memory_size(10) + 1);
    /* misaligned start still works */
    TH_CHECK_EQ_INT(thsb_init(&sb, mem.data() + 1, mem.size() - 1, 10), 1);
}

static void test_culling(void)
{
    Batcher B(8);
    thsb_set_cull(&B.sb, 0, 0, 100, 100);
    thsb_begin(&B.sb);
    thsb_sprite in = unit_sprite(50, 50, 0, 0), out = unit_sprite(200, 50, 0, 1), edge = unit_sprite(-0.5f, 10, 0, 2);
    out.w = out.h = 10; edge.w = edge.h = 1;
    thsb_push(&B.sb, &in);
    thsb_push(&B.sb, &out);
    thsb_push(&B.sb, &edge);
    thsb_end(&B.sb);
    TH_CHECK_EQ_INT(B.sb.stats.culled, 1);
    TH_CHECK_EQ_INT(B.sb.batch_count, 2);
    TH_CHECK_EQ_INT(B.sb.batches[1].page, 2);
    TH_CHECK_EQ_INT(B.sb.batches[1].first_vertex, 4);
    thsb_set_cull(&B.sb, 0, 0, 0, 0);
    thsb_begin(&B.sb);
    thsb_push(&B.sb, &out);
    thsb_end(&B.sb);
    TH_CHECK_EQ_INT(B.sb.stats.culled, 0);
    TH_CHECK_EQ_INT(B.sb.batch_count, 1);
}

int main(void)
{
    TH_RUN(test_example_matches_manual);
    TH_RUN(test_crafted_order);
    TH_RUN(test_random_order_and_stability);
    TH_RUN(test_sorted_input_skips_sort);
    TH_RUN(test_vertices_plain_origin_scale);
    TH_RUN(test_vertices_rotation);
    TH_RUN(test_flips_swap_uvs_not_positions);
    TH_RUN(test_sincos_accuracy);
    TH_RUN(test_indices_and_subrange_drawing);
    TH_RUN(test_capacity_overflow);
    TH_RUN(test_init_rejects_bad_memory);
    TH_RUN(test_culling);
    return th_test_finish();
}
