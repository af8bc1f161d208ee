/* C99 build of th_math.h, th_arena.h and th_handle.h: compiles the manuals'
   examples and runs a few checks in C.

   Each manual example is pasted below inside TH__EXAMPLE(...) and checked
   against its header's text (manual_example.h), so the manual and the
   compiled copy cannot drift apart. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "th_math.h"
#include "th_arena.h"
#include "th_handle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manual_example.h"

TH__EXAMPLE(example_math_src,
static float example_math(void) {
    th_rng rng = th_rng_seed(42);
    v2 pos = v2_make(0.0f, 0.0f);
    v2 dir = th_rng_unit_v2(&rng);
    pos = v2_add(pos, v2_scale(dir, th_rng_range(&rng, 1.0f, 2.0f)));
    float dist = v2_len(pos);
    float x = th_damp(0.0f, 10.0f, 0.01f, 1.0f / 60.0f);
    return dist + x * th_ease_out_cubic(0.5f);
}
)

TH__EXAMPLE(example_arena_src,
typedef struct particle { float x, y, life; } particle;

static int example_arena(void *block, size_t block_size) {
    tha_arena perm, frame;
    tha_pool particles;
    tha_mark m;
    particle *p;
    tha_arena_init(&perm, block, block_size);
    frame = tha_sub_arena(&perm, 4096);
    tha_pool_init(&particles, tha_push(&perm, tha_pool_bytes(sizeof(particle), 256), 16),
                  sizeof(particle), 256);
    p = (particle *)tha_pool_alloc(&particles);
    p->life = 1.0f;
    m = tha_save(&frame);
    float *scratch = tha_push_array(&frame, float, 100);
    scratch[99] = p->life;
    tha_restore(&frame, m);
    tha_pool_free(&particles, p);
    return particles.count == 0 && frame.used == 0;
}
)

TH__EXAMPLE(example_handle_src,
typedef struct enemy { float hp; thh_handle target; } enemy;

static int example_handle(void *mem, enemy *enemies) {
    thh_pool pool;
    thh_pool_init(&pool, mem, 64);
    thh_handle a = thh_alloc(&pool);
    thh_handle b = thh_alloc(&pool);
    enemies[thh_index(a)].hp = 10.0f;
    enemies[thh_index(a)].target = b;
    thh_free(&pool, b);
    int target_alive = thh_valid(&pool, enemies[thh_index(a)].target);
    return !target_alive && thh_count(&pool) == 1;
}
)

static void test_examples_match_manuals(void)
{
    check_manual_example("th_math.h", example_math_src);
    check_manual_example("th_arena.h", example_arena_src);
    check_manual_example("th_handle.h", example_handle_src);
}

static void test_examples_run(void)
{
    static uint8_t block[1 << 16];
    static uint32_t handle_mem[4 * 64];
    static enemy enemies[64];
    float m = example_math();
    TH_CHECK(m >= 1.0f && m < 2.0f + 10.0f);
    TH_CHECK(example_arena(block, sizeof block));
    TH_CHECK(thh_pool_bytes(64) <= sizeof handle_mem);
    TH_CHECK(example_handle(handle_mem, enemies));
}

static void test_math_c(void)
{
    th_rng r = th_rng_seed(0);
    v2 z = v2_norm(v2_make(0.0f, 0.0f));
    int i;
    TH_CHECK(th_rng_u32(&r) == 0xe220a839u);
    TH_CHECK(z.x == 0.0f && z.y == 0.0f);
    TH_CHECK(th_hash_str("a") == 0xe40c292cu);
    TH_CHECK(th_ease_out_elastic(0.0f) == 0.0f && th_ease_out_elastic(1.0f) == 1.0f);
    for (i = 0; i < 10000; i++) {
        float f = th_rng_f01(&r);
        int k = th_rng_int(&r, -3, 3);
        TH_CHECK(f >= 0.0f && f < 1.0f);
        TH_CHECK(k >= -3 && k <= 3);
    }
    TH_CHECK_NEAR(v2_len(v2_perp(v2_make(3, 4))), 5.0f, 1e-6f);
}

typedef struct vec4 { double d[4]; } vec4;

static void test_arena_c(void)
{
    static uint8_t mem[512];
    tha_arena a;
    vec4 *v;
    int *ints;
    tha_arena_init(&a, mem + 1, sizeof mem - 1);
    v = tha_push_struct(&a, vec4);
    TH_CHECK(v != NULL && ((uintptr_t)v % THA_ALIGNOF(vec4)) == 0);
    TH_CHECK(THA_ALIGNOF(double) >= 4 && THA_ALIGNOF(char) == 1);
    ints = tha_push_array(&a, int, 10);
    TH_CHECK(ints != NULL && ((uintptr_t)ints % sizeof(int)) == 0 && ints[9] == 0);
    TH_CHECK(tha_push(&a, 1000, 1) == NULL);
}

static void test_handle_c(void)
{
    static uint32_t mem[4 * 8];
    thh_pool p;
    thh_handle a, b;
    thh_pool_init(&p, mem, 8);
    a = thh_alloc(&p);
    TH_CHECK(thh_free(&p, a) == 1);
    b = thh_alloc(&p);
    TH_CHECK(thh_valid(&p, b) && !thh_valid(&p, a));
    TH_CHECK(thh_free(&p, a) == 0);
}

int main(void)
{
    TH_RUN(test_examples_match_manuals);
    TH_RUN(test_examples_run);
    TH_RUN(test_math_c);
    TH_RUN(test_arena_c);
    TH_RUN(test_handle_c);
    return th_test_finish();
}
