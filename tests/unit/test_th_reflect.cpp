// Unit tests for tinyheaders/th_reflect.h: the kinds the compiler fills in, the table reader on good and
// bad tables, and the migrator's rules (match by name, numbers clamped, enums by name, arrays resized,
// defaults, renames, transient fields, count-of, refusals and the report).
#define TH_TEST_IMPLEMENTATION
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "th_test.h"
#define TH_REFLECT_IMPLEMENTATION
#include "th_reflect.h"
#include "reflect_build.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "manual_example.h"

TH__EXAMPLE(example_reflect_src,
static int example_reflect(const void *old_blob, size_t old_blob_size, const void *old_bytes,
                           const void *new_blob, size_t new_blob_size, const void *defaults,
                           void *out, size_t out_size) {
    thr_types was, now;
    char err[256];
    if (!thr_read(old_blob, old_blob_size, &was, err, sizeof err)) return 0;
    if (!thr_read(new_blob, new_blob_size, &now, err, sizeof err)) return 0;
    static thr_migrator m;
    if (!thr_migrate(&m, &was, old_bytes, was.types[was.header->root].size, &now, defaults, out, out_size))
        return 0;   // m.error: "Entity.pos changed from v2 to float, no automatic rule"
    return 1;       // m.report: "Entity: added wobble (1)"
}
)

// ---------------------------------------------------------------- kinds from decltype
enum Color : uint8_t { RED, GREEN };
enum Signed : int16_t { NEG = -1, POS = 1 };
struct V2 { float x, y; };
union U { int a; float b; };
struct Kinds {
    int8_t a; uint16_t b; int32_t c; uint64_t d; long long e; unsigned long f; char g;
    float h; double i; bool j; Color k; Signed l; V2 m; V2 n[3]; int o[2][3]; void *p; U q;
};
template <> struct thr_index<V2> { enum { value = 7 }; };

static void test_kinds_from_the_compiler(void)
{
    TH_CHECK_EQ_INT(THR_KIND(Kinds, a), THR_I8);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, b), THR_U16);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, c), THR_I32);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, d), THR_U64);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, e), THR_I64);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, f), sizeof(unsigned long) == 8 ? THR_U64 : THR_U32);
    TH_CHECK(THR_KIND(Kinds, g) == THR_I8 || THR_KIND(Kinds, g) == THR_U8);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, h), THR_F32);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, i), THR_F64);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, j), THR_BOOL);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, k), THR_ENUM);
    TH_CHECK_EQ_INT(THR_KIND_FLAGS(Kinds, k), 0);
    TH_CHECK_EQ_INT(THR_ELEM_SIZE(Kinds, k), 1);
    TH_CHECK_EQ_INT(THR_KIND_FLAGS(Kinds, l), THR_SIGNED);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, m), THR_STRUCT);
    TH_CHECK_EQ_INT(THR_INDEX(Kinds, m), 7);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, n), THR_STRUCT);
    TH_CHECK_EQ_INT(THR_COUNT(Kinds, n), 3);
    TH_CHECK_EQ_INT(THR_ELEM_SIZE(Kinds, n), sizeof(V2));
    TH_CHECK_EQ_INT(THR_COUNT(Kinds, o), 6);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, o), THR_I32);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, p), THR_PTR);
    TH_CHECK_EQ_INT(THR_KIND(Kinds, q), THR_OPAQUE);
    TH_CHECK(THR_INDEX(Kinds, c) == THR_NONE);
}

// ---------------------------------------------------------------- two versions of a small state
namespace v1 {
enum Type : uint32_t { T_PLAYER, T_DRONE, T_GEM, T_COUNT };
struct Vec { float x, y; };
struct Ent { Type type; Vec pos; float hp; int32_t frags; };
struct State {
    int32_t kills; uint32_t mode; Ent ents[4]; uint32_t ent_count; float cache; int64_t big; double d; uint8_t flag; float nan_to_int;
    int32_t removed_me;
};
}
namespace v2 {
enum Type : uint32_t { T_PLAYER, T_BOSS, T_DRONE, T_GEM, T_COUNT };   // T_BOSS inserted in the middle
struct Vec { float x, y; };
struct Ent { Vec pos; float wobble = 1.5f; float hp; Type type; int32_t score; };   // frags -> score (declared)
struct State {
    uint32_t mode; int64_t kills; Ent ents[2]; uint32_t ent_count; float cache; int32_t big; float d; bool flag;
    int32_t nan_to_int; int32_t fresh = 7;
};
}

static void describe_v1(rb_table *t)
{
    rb_init(t);
    const char *names[] = { "T_PLAYER", "T_DRONE", "T_GEM", "T_COUNT" };
    const int64_t values[] = { 0, 1, 2, 3 };
    uint32_t type_enum = rb_enum(t, "Type", names, values, 4);
    uint32_t vec = rb_struct(t, "Vec", sizeof(v1::Vec), 4);
    rb_field(t, "x", offsetof(v1::Vec, x), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "y", offsetof(v1::Vec, y), 4, 1, THR_F32, THR_NONE);
    uint32_t ent = rb_struct(t, "Ent", sizeof(v1::Ent), 4);
    rb_field(t, "type", offsetof(v1::Ent, type), 4, 1, THR_ENUM, type_enum);
    rb_field(t, "pos", offsetof(v1::Ent, pos), sizeof(v1::Vec), 1, THR_STRUCT, vec);
    rb_field(t, "hp", offsetof(v1::Ent, hp), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "frags", offsetof(v1::Ent, frags), 4, 1, THR_I32, THR_NONE);
    t->root = rb_struct(t, "State", sizeof(v1::State), 8);
    rb_field(t, "kills", offsetof(v1::State, kills), 4, 1, THR_I32, THR_NONE);
    rb_field(t, "mode", offsetof(v1::State, mode), 4, 1, THR_U32, THR_NONE);
    rb_field(t, "ents", offsetof(v1::State, ents), sizeof(v1::Ent), 4, THR_STRUCT, ent);
    rb_field(t, "ent_count", offsetof(v1::State, ent_count), 4, 1, THR_U32, THR_NONE)->count_of = 3;
    rb_field(t, "cache", offsetof(v1::State, cache), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "big", offsetof(v1::State, big), 8, 1, THR_I64, THR_NONE);
    rb_field(t, "d", offsetof(v1::State, d), 8, 1, THR_F64, THR_NONE);
    rb_field(t, "flag", offsetof(v1::State, flag), 1, 1, THR_U8, THR_NONE);
    rb_field(t, "nan_to_int", offsetof(v1::State, nan_to_int), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "removed_me", offsetof(v1::State, removed_me), 4, 1, THR_I32, THR_NONE);
}

static void describe_v2(rb_table *t)
{
    rb_init(t);
    const char *names[] = { "T_PLAYER", "T_BOSS", "T_DRONE", "T_GEM", "T_COUNT" };
    const int64_t values[] = { 0, 1, 2, 3, 4 };
    uint32_t type_enum = rb_enum(t, "Type", names, values, 5);
    uint32_t vec = rb_struct(t, "Vec", sizeof(v2::Vec), 4);
    rb_field(t, "x", offsetof(v2::Vec, x), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "y", offsetof(v2::Vec, y), 4, 1, THR_F32, THR_NONE);
    uint32_t ent = rb_struct(t, "Ent", sizeof(v2::Ent), 4);
    rb_field(t, "pos", offsetof(v2::Ent, pos), sizeof(v2::Vec), 1, THR_STRUCT, vec);
    rb_field(t, "wobble", offsetof(v2::Ent, wobble), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "hp", offsetof(v2::Ent, hp), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "type", offsetof(v2::Ent, type), 4, 1, THR_ENUM, type_enum);
    rb_field(t, "score", offsetof(v2::Ent, score), 4, 1, THR_I32, THR_NONE)->old_name = rb_name(t, "frags");
    t->root = rb_struct(t, "State", sizeof(v2::State), 8);
    rb_field(t, "mode", offsetof(v2::State, mode), 4, 1, THR_U32, THR_NONE);
    rb_field(t, "kills", offsetof(v2::State, kills), 8, 1, THR_I64, THR_NONE);
    rb_field(t, "ents", offsetof(v2::State, ents), sizeof(v2::Ent), 2, THR_STRUCT, ent);
    rb_field(t, "ent_count", offsetof(v2::State, ent_count), 4, 1, THR_U32, THR_NONE)->count_of = 3;
    rb_field(t, "cache", offsetof(v2::State, cache), 4, 1, THR_F32, THR_NONE)->flags = THR_TRANSIENT;
    rb_field(t, "big", offsetof(v2::State, big), 4, 1, THR_I32, THR_NONE);
    rb_field(t, "d", offsetof(v2::State, d), 4, 1, THR_F32, THR_NONE);
    rb_field(t, "flag", offsetof(v2::State, flag), 1, 1, THR_BOOL, THR_NONE);
    rb_field(t, "nan_to_int", offsetof(v2::State, nan_to_int), 4, 1, THR_I32, THR_NONE);
    rb_field(t, "fresh", offsetof(v2::State, fresh), 4, 1, THR_I32, THR_NONE);
}

static rb_table g_a, g_b;
static thr_migrator g_m;

static void test_migrate_by_name(void)
{
    describe_v1(&g_a);
    describe_v2(&g_b);
    size_t an = rb_finish(&g_a), bn = rb_finish(&g_b);
    thr_types ta, tb;
    char err[256];
    TH_CHECK_MSG(thr_read(g_a.blob, an, &ta, err, sizeof err), "%s", err);
    TH_CHECK_MSG(thr_read(g_b.blob, bn, &tb, err, sizeof err), "%s", err);

    v1::State old;
    memset(&old, 0, sizeof old);
    old.kills = -12;
    old.mode = 2;
    old.ents[0] = { v1::T_PLAYER, { 1.5f, -2.25f }, 3, 11 };
    old.ents[1] = { v1::T_DRONE, { 100, 200 }, 1, 0 };
    old.ents[2] = { v1::T_GEM, { 5, 6 }, 0, 0 };
    old.ents[3] = { (v1::Type)9, { 7, 8 }, 0, 0 };   // a number the enum does not name
    old.ent_count = 4;
    old.cache = 99;
    old.big = (int64_t)1 << 40;
    old.d = 1e300;
    old.flag = 5;
    old.nan_to_int = NAN;
    v2::State def = v2::State(), out;
    def.cache = 5;                                      // transient: zeroed, not the default
    memset((void *)&out, 0xAB, sizeof out);
    TH_CHECK_MSG(thr_migrate(&g_m, &ta, &old, sizeof old, &tb, &def, &out, sizeof out), "%s", g_m.error);
    TH_CHECK_EQ_INT(out.mode, 2);
    TH_CHECK(out.kills == -12);
    TH_CHECK(out.ents[0].pos.x == 1.5f && out.ents[0].pos.y == -2.25f);
    TH_CHECK(out.ents[0].hp == 3);
    TH_CHECK_EQ_INT(out.ents[0].score, 11);             // renamed from frags
    TH_CHECK(out.ents[0].wobble == 1.5f);               // new field: the default member initializer
    TH_CHECK(out.ents[1].wobble == 1.5f);
    TH_CHECK_EQ_INT(out.ents[0].type, v2::T_PLAYER);
    TH_CHECK_EQ_INT(out.ents[1].type, v2::T_DRONE);      // 1 -> 2: mapped by name
    TH_CHECK(out.ents[1].pos.x == 100);
    TH_CHECK_EQ_INT(out.ent_count, 2);                  // clamped to the shrunk array
    TH_CHECK(out.cache == 0);                           // transient: zeroed
    TH_CHECK_EQ_INT(out.big, INT32_MAX);                // clamped
    TH_CHECK(out.d == FLT_MAX);                         // double -> float, clamped
    TH_CHECK(out.flag == true);
    TH_CHECK_EQ_INT(out.nan_to_int, 0);
    TH_CHECK_EQ_INT(out.fresh, 7);
    printf("report: %s\n", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "Ent: ") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "added wobble (1.5)") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "renamed frags -> score") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "type gained T_BOSS") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "State: ") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "kills int32 -> int64") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "ents 4 -> 2 elements") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "removed removed_me") != NULL, "%s", g_m.report);
    TH_CHECK_MSG(strstr(g_m.report, "added fresh (7)") != NULL, "%s", g_m.report);

    // the other way: arrays grow, new elements from the default instance, an enum value that went away
    v1::State back, def1;
    memset(&def1, 0, sizeof def1);
    def1.ents[2].hp = 42;
    out.ents[1].type = v2::T_BOSS;
    TH_CHECK_MSG(thr_migrate(&g_m, &tb, &out, sizeof out, &ta, &def1, &back, sizeof back), "%s", g_m.error);
    TH_CHECK_EQ_INT(back.kills, -12);
    TH_CHECK_EQ_INT(back.ents[1].type, v1::T_PLAYER);   // T_BOSS has no old name: the default's 0
    TH_CHECK(back.ents[2].hp == 42);                    // grown: from the default
    TH_CHECK_EQ_INT(back.ents[0].frags, 0);             // renames are declared on the new side only
    TH_CHECK_EQ_INT(back.ent_count, 2);
}

static void test_numbers_clamp(void)
{
    rb_table *a = &g_a, *b = &g_b;
    const uint32_t kinds[] = { THR_I8, THR_I16, THR_I32, THR_I64, THR_U8, THR_U16, THR_U32, THR_U64, THR_F32, THR_F64, THR_BOOL };
    const uint32_t widths[] = { 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1 };
    // one field a kind on both sides; every pair in turn through one struct of 8 bytes
    int pairs = 0;
    for (int i = 0; i < 11; i++) for (int j = 0; j < 11; j++) {
        rb_init(a); a->root = rb_struct(a, "S", 8, 8); rb_field(a, "v", 0, widths[i], 1, kinds[i], THR_NONE);
        rb_init(b); b->root = rb_struct(b, "S", 8, 8); rb_field(b, "v", 0, widths[j], 1, kinds[j], THR_NONE);
        size_t an = rb_finish(a), bn = rb_finish(b);
        thr_types ta, tb;
        TH_CHECK(thr_read(a->blob, an, &ta, NULL, 0) && thr_read(b->blob, bn, &tb, NULL, 0));
        const double probes[] = { 0, 1, -1, 300, -300, 1e10, -1e10, 1e30, 0.75 };
        for (double p : probes) {
            uint8_t in[8] = { 0 }, out[8], def[8] = { 0 };
            switch (kinds[i]) {
            case THR_I8: { int8_t x = (int8_t)(p > 127 ? 127 : p < -128 ? -128 : p); memcpy(in, &x, 1); break; }
            case THR_I16: { int16_t x = (int16_t)(p > 32767 ? 32767 : p < -32768 ? -32768 : p); memcpy(in, &x, 2); break; }
            case THR_I32: { int32_t x = (int32_t)(p > 2e9 ? 2000000000 : p < -2e9 ? -2000000000 : p); memcpy(in, &x, 4); break; }
            case THR_I64: { int64_t x = (int64_t)(p > 1e18 ? 1e18 : p < -1e18 ? -1e18 : p); memcpy(in, &x, 8); break; }
            case THR_U8: { uint8_t x = (uint8_t)(p < 0 ? 0 : p > 255 ? 255 : p); memcpy(in, &x, 1); break; }
            case THR_U16: { uint16_t x = (uint16_t)(p < 0 ? 0 : p > 65535 ? 65535 : p); memcpy(in, &x, 2); break; }
            case THR_U32: { uint32_t x = (uint32_t)(p < 0 ? 0 : p > 4e9 ? 4000000000u : p); memcpy(in, &x, 4); break; }
            case THR_U64: { uint64_t x = (uint64_t)(p < 0 ? 0 : p > 1e19 ? 1e19 : p); memcpy(in, &x, 8); break; }
            case THR_F32: { float x = (float)p; memcpy(in, &x, 4); break; }
            case THR_F64: memcpy(in, &p, 8); break;
            case THR_BOOL: in[0] = p != 0; break;
            }
            TH_CHECK(thr_migrate(&g_m, &ta, in, 8, &tb, def, out, 8));
            // the value read back lies within the target's range and keeps its sign (or is 0)
            double got = 0;
            switch (kinds[j]) {
            case THR_I8: { int8_t x; memcpy(&x, out, 1); got = x; break; }
            case THR_I16: { int16_t x; memcpy(&x, out, 2); got = x; break; }
            case THR_I32: { int32_t x; memcpy(&x, out, 4); got = x; break; }
            case THR_I64: { int64_t x; memcpy(&x, out, 8); got = (double)x; break; }
            case THR_U8: { uint8_t x; memcpy(&x, out, 1); got = x; break; }
            case THR_U16: { uint16_t x; memcpy(&x, out, 2); got = x; break; }
            case THR_U32: { uint32_t x; memcpy(&x, out, 4); got = x; break; }
            case THR_U64: { uint64_t x; memcpy(&x, out, 8); got = (double)x; break; }
            case THR_F32: { float x; memcpy(&x, out, 4); got = x; break; }
            case THR_F64: memcpy(&got, out, 8); break;
            case THR_BOOL: got = out[0]; TH_CHECK(out[0] <= 1); break;
            }
            double src = 0;
            switch (kinds[i]) {   // what the source really held
            case THR_I8: { int8_t x; memcpy(&x, in, 1); src = x; break; }
            case THR_I16: { int16_t x; memcpy(&x, in, 2); src = x; break; }
            case THR_I32: { int32_t x; memcpy(&x, in, 4); src = x; break; }
            case THR_I64: { int64_t x; memcpy(&x, in, 8); src = (double)x; break; }
            case THR_U8: src = in[0]; break;
            case THR_U16: { uint16_t x; memcpy(&x, in, 2); src = x; break; }
            case THR_U32: { uint32_t x; memcpy(&x, in, 4); src = x; break; }
            case THR_U64: { uint64_t x; memcpy(&x, in, 8); src = (double)x; break; }
            case THR_F32: { float x; memcpy(&x, in, 4); src = x; break; }
            case THR_F64: memcpy(&src, in, 8); break;
            case THR_BOOL: src = in[0]; break;
            }
            if (kinds[j] == THR_BOOL) { TH_CHECK(got == (src != 0)); continue; }
            double lo = 0, hi = 0;
            switch (kinds[j]) {
            case THR_I8: lo = -128; hi = 127; break;
            case THR_I16: lo = -32768; hi = 32767; break;
            case THR_I32: lo = -2147483648.0; hi = 2147483647.0; break;
            case THR_I64: lo = -9223372036854775808.0; hi = 9223372036854775807.0; break;
            case THR_U8: hi = 255; break;
            case THR_U16: hi = 65535; break;
            case THR_U32: hi = 4294967295.0; break;
            case THR_U64: hi = 18446744073709551615.0; break;
            case THR_F32: lo = -FLT_MAX; hi = FLT_MAX; break;
            case THR_F64: lo = -DBL_MAX; hi = DBL_MAX; break;
            }
            double want = src < lo ? lo : src > hi ? hi : src;
            if (kinds[j] != THR_F32 && kinds[j] != THR_F64) want = want < 0 ? ceil(want) : floor(want);
            double tol = fabs(want) * 1e-6 + (kinds[j] == THR_I64 || kinds[j] == THR_U64 ? 1e13 * (fabs(want) > 9e18) : 0);
            TH_CHECK_MSG(fabs(got - want) <= tol, "%s -> %s: %.17g gave %.17g, want %.17g", thr_kind_name(kinds[i], 0),
                         thr_kind_name(kinds[j], 0), src, got, want);
            pairs++;
        }
    }
    TH_CHECK(pairs > 800);
}

static void test_refuses_with_a_reason(void)
{
    rb_init(&g_a);
    uint32_t vec = rb_struct(&g_a, "v2", 8, 4);
    rb_field(&g_a, "x", 0, 4, 1, THR_F32, THR_NONE);
    rb_field(&g_a, "y", 4, 4, 1, THR_F32, THR_NONE);
    uint32_t ent = rb_struct(&g_a, "Entity", 8, 4);
    rb_field(&g_a, "pos", 0, 8, 1, THR_STRUCT, vec);
    g_a.root = rb_struct(&g_a, "GameState", 8, 4);
    rb_field(&g_a, "player", 0, 8, 1, THR_STRUCT, ent);
    rb_init(&g_b);
    ent = rb_struct(&g_b, "Entity", 4, 4);
    rb_field(&g_b, "pos", 0, 4, 1, THR_F32, THR_NONE);
    g_b.root = rb_struct(&g_b, "GameState", 4, 4);
    rb_field(&g_b, "player", 0, 4, 1, THR_STRUCT, ent);
    size_t an = rb_finish(&g_a), bn = rb_finish(&g_b);
    thr_types ta, tb;
    TH_CHECK(thr_read(g_a.blob, an, &ta, NULL, 0) && thr_read(g_b.blob, bn, &tb, NULL, 0));
    uint8_t in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, def[4] = { 0 }, out[4];
    TH_CHECK(!thr_migrate(&g_m, &ta, in, 8, &tb, def, out, 4));
    TH_CHECK_MSG(!strcmp(g_m.error, "Entity.pos changed from v2 to float, no automatic rule"), "%s", g_m.error);
    // the same size budget is checked: bytes shorter than the old root
    TH_CHECK(!thr_migrate(&g_m, &ta, in, 4, &ta, in, out, 4));
}

static void test_reader_rejects(void)
{
    thr_types t;
    char err[256];
    describe_v1(&g_a);
    size_t n = rb_finish(&g_a);
    TH_CHECK(thr_read(g_a.blob, n, &t, err, sizeof err));
    TH_CHECK(!thr_read(g_a.blob, n - 1, &t, err, sizeof err));   // the names run past the block
    TH_CHECK(!thr_read(g_a.blob, 3, &t, err, sizeof err));

    describe_v1(&g_a); g_a.fields[3].offset = sizeof(v1::Ent) - 4;  // Ent.pos (8 bytes) ends past Ent
    n = rb_finish(&g_a);
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    TH_CHECK_MSG(strstr(err, "ends past the struct") != NULL, "%s", err);

    describe_v1(&g_a); g_a.fields[3].type = 60; n = rb_finish(&g_a);   // struct index out of range
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.fields[2].type = 5; n = rb_finish(&g_a);    // enum index out of range
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.fields[0].kind = 99; n = rb_finish(&g_a);
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.fields[0].elem_size = 8; n = rb_finish(&g_a);  // size and count disagree
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.types[1].first_field = 500; n = rb_finish(&g_a);
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.root = 9; n = rb_finish(&g_a);
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.fields[7].count_of = 40; n = rb_finish(&g_a);
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); g_a.fields[1].name = g_a.fields[0].name; n = rb_finish(&g_a);       // two fields named alike
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    describe_v1(&g_a); n = rb_finish(&g_a);                                 // an unterminated name pool
    ((char *)g_a.blob)[n - 1] = 'x';
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));

    // a struct that contains itself (size-consistent: one field at offset 0 as large as the struct)
    rb_init(&g_a);
    g_a.root = rb_struct(&g_a, "Loop", 8, 4);
    rb_field(&g_a, "self", 0, 8, 1, THR_STRUCT, 0);
    n = rb_finish(&g_a);
    TH_CHECK(!thr_read(g_a.blob, n, &t, err, sizeof err));
    TH_CHECK_MSG(strstr(err, "contains itself") != NULL, "%s", err);
}

static void test_manual_example(void)
{
    describe_v1(&g_a);
    describe_v2(&g_b);
    size_t an = rb_finish(&g_a), bn = rb_finish(&g_b);
    v1::State old;
    memset(&old, 0, sizeof old);
    old.ents[0].frags = 3;
    v2::State def, out;
    TH_CHECK(example_reflect(g_a.blob, an, &old, g_b.blob, bn, &def, &out, sizeof out));
    TH_CHECK_EQ_INT(out.ents[0].score, 3);
    check_manual_example("th_reflect.h", example_reflect_src);
}

// ---------------------------------------------------------------- paths: one value by name
static void test_paths(void)
{
    describe_v2(&g_b);
    size_t bn = rb_finish(&g_b);
    thr_types t;
    char err[256], text[64], path[128];
    TH_CHECK_MSG(thr_read(g_b.blob, bn, &t, err, sizeof err), "%s", err);
    v2::State s = v2::State();
    s.ents[1].pos.y = 301.25f;
    s.ents[1].type = v2::T_DRONE;
    s.kills = -5;

    thr_place at;
    TH_CHECK_MSG(thr_find_path(&t, "ents[1].pos.y", &at, err, sizeof err), "%s", err);
    TH_CHECK_EQ_INT((int)at.offset, (int)offsetof(v2::State, ents[1].pos.y));
    TH_CHECK(thr_format(&t, &at, &s, text, sizeof text));
    TH_CHECK_MSG(!strcmp(text, "301.25"), "%s", text);
    TH_CHECK(thr_store_text(&t, &at, &s, "-2.5", err, sizeof err));
    TH_CHECK(s.ents[1].pos.y == -2.5f);

    // enums by name, both ways; a number that has no name is shown as the number
    TH_CHECK(thr_find_path(&t, "ents[1].type", &at, err, sizeof err));
    TH_CHECK(thr_format(&t, &at, &s, text, sizeof text));
    TH_CHECK_MSG(!strcmp(text, "T_DRONE"), "%s", text);
    TH_CHECK(thr_store_text(&t, &at, &s, "T_BOSS", err, sizeof err));
    TH_CHECK_EQ_INT((int)s.ents[1].type, (int)v2::T_BOSS);
    TH_CHECK(thr_store_text(&t, &at, &s, "9", err, sizeof err));
    TH_CHECK(thr_format(&t, &at, &s, text, sizeof text));
    TH_CHECK_MSG(!strcmp(text, "9"), "%s", text);
    TH_CHECK(!thr_store_text(&t, &at, &s, "T_NOPE", err, sizeof err));
    TH_CHECK(strstr(err, "T_NOPE") != NULL);

    // numbers clamped as a migration clamps; a count clamped to its array; a bool from words
    TH_CHECK(thr_find_path(&t, "big", &at, err, sizeof err));
    TH_CHECK(thr_store_text(&t, &at, &s, "99999999999", err, sizeof err));
    TH_CHECK_EQ_INT(s.big, 2147483647);
    TH_CHECK(thr_store_text(&t, &at, &s, "-7.9", err, sizeof err));
    TH_CHECK_EQ_INT(s.big, -7);
    TH_CHECK(thr_find_path(&t, "mode", &at, err, sizeof err));
    TH_CHECK(thr_store_text(&t, &at, &s, "-3", err, sizeof err));
    TH_CHECK_EQ_INT((int)s.mode, 0);
    TH_CHECK(thr_find_path(&t, "ent_count", &at, err, sizeof err));
    TH_CHECK(thr_store_text(&t, &at, &s, "40", err, sizeof err));
    TH_CHECK_EQ_INT((int)s.ent_count, 2);
    TH_CHECK(thr_find_path(&t, "flag", &at, err, sizeof err));
    TH_CHECK(thr_store_text(&t, &at, &s, "true", err, sizeof err));
    TH_CHECK(s.flag == true);
    TH_CHECK(thr_format(&t, &at, &s, text, sizeof text));
    TH_CHECK_MSG(!strcmp(text, "true"), "%s", text);
    TH_CHECK(thr_find_path(&t, "kills", &at, err, sizeof err));
    TH_CHECK(thr_format(&t, &at, &s, text, sizeof text));
    TH_CHECK_MSG(!strcmp(text, "-5"), "%s", text);

    // refused, with nothing written
    v2::State before = s;
    TH_CHECK(!thr_store_text(&t, &at, &s, "12abc", err, sizeof err));
    TH_CHECK(strstr(err, "12abc") != NULL);
    TH_CHECK(!thr_store_text(&t, &at, &s, "", err, sizeof err));
    TH_CHECK(thr_find_path(&t, "ents[0]", &at, err, sizeof err));
    TH_CHECK(!thr_store_text(&t, &at, &s, "1", err, sizeof err));
    TH_CHECK(thr_find_path(&t, "ents", &at, err, sizeof err) && at.whole);
    TH_CHECK(!thr_format(&t, &at, &s, text, sizeof text));
    TH_CHECK(!memcmp(&before, &s, sizeof s));

    // bad paths say why
    TH_CHECK(!thr_find_path(&t, "ents[2].hp", &at, err, sizeof err));
    TH_CHECK_MSG(!strcmp(err, "ents[2]: the array has 2"), "%s", err);
    TH_CHECK(!thr_find_path(&t, "enst[0]", &at, err, sizeof err));
    TH_CHECK_MSG(!strcmp(err, "State has no field 'enst'"), "%s", err);
    TH_CHECK(!thr_find_path(&t, "kills.x", &at, err, sizeof err));
    TH_CHECK(!thr_find_path(&t, "ents[1x]", &at, err, sizeof err));
    TH_CHECK(!thr_find_path(&t, "ents[1].pos.y.z", &at, err, sizeof err));
    TH_CHECK(thr_find_path(&t, "", &at, err, sizeof err) && at.field == NULL);

    // a byte's path, the inverse: every scalar byte of the state goes back to a path that finds it again
    TH_CHECK(thr_path_at(&t, offsetof(v2::State, ents[1].pos.y) + 2, &at, path, sizeof path));
    TH_CHECK_MSG(!strcmp(path, "ents[1].pos.y"), "%s", path);
    int round_trips = 0;
    for (size_t off = 0; off < sizeof(v2::State); off++) {
        if (!thr_path_at(&t, off, &at, path, sizeof path)) continue;
        thr_place again;
        TH_CHECK_MSG(thr_find_path(&t, path, &again, err, sizeof err) && again.offset == at.offset, "%s", path);
        round_trips++;
    }
    TH_CHECK(round_trips > 40);
}

int main(void)
{
    TH_RUN(test_kinds_from_the_compiler);
    TH_RUN(test_migrate_by_name);
    TH_RUN(test_numbers_clamp);
    TH_RUN(test_refuses_with_a_reason);
    TH_RUN(test_reader_rejects);
    TH_RUN(test_manual_example);
    TH_RUN(test_paths);
    return th_test_finish();
}
