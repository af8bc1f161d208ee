/* th_reflect.h compiled as C99: the reader and the migrator on a small table made at run time. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_REFLECT_IMPLEMENTATION
#include "th_reflect.h"
#include "reflect_build.h"

#include <string.h>

typedef struct Old { int32_t hp; float x; } Old;
typedef struct New { float x; int64_t hp; float wobble; } New;

static rb_table g_a, g_b;
static thr_migrator g_m;

static void test_c_migrate(void)
{
    thr_types a, b;
    char err[256];
    Old old = { -7, 2.5f };
    New def = { 0, 0, 1.0f }, out;
    rb_init(&g_a);
    g_a.root = rb_struct(&g_a, "S", sizeof(Old), 4);
    rb_field(&g_a, "hp", offsetof(Old, hp), 4, 1, THR_I32, THR_NONE);
    rb_field(&g_a, "x", offsetof(Old, x), 4, 1, THR_F32, THR_NONE);
    rb_init(&g_b);
    g_b.root = rb_struct(&g_b, "S", sizeof(New), 8);
    rb_field(&g_b, "x", offsetof(New, x), 4, 1, THR_F32, THR_NONE);
    rb_field(&g_b, "hp", offsetof(New, hp), 8, 1, THR_I64, THR_NONE);
    rb_field(&g_b, "wobble", offsetof(New, wobble), 4, 1, THR_F32, THR_NONE);
    TH_CHECK(thr_read(g_a.blob, rb_finish(&g_a), &a, err, sizeof err));
    TH_CHECK(thr_read(g_b.blob, rb_finish(&g_b), &b, err, sizeof err));
    TH_CHECK(thr_migrate(&g_m, &a, &old, sizeof old, &b, &def, &out, sizeof out));
    TH_CHECK(out.hp == -7 && out.x == 2.5f && out.wobble == 1.0f);
    TH_CHECK_MSG(!strcmp(g_m.report, "S: hp int32 -> int64, added wobble (1), fields reordered"), "%.400s", g_m.report);
}

int main(void)
{
    TH_RUN(test_c_migrate);
    return th_test_finish();
}
