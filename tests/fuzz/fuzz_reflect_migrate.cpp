/* fuzz_reflect_migrate - th_reflect's migrator on random pairs of layouts (built from the input: structs,
   nested structs, arrays, enums, every number kind, renames, transient and count-of fields) and random
   bytes. Every buffer is exactly as large as its type (ASan sees any access past it), and every field
   matched by name with the same kind and width is copied exactly, element for element. */
#define TH_REFLECT_IMPLEMENTATION
#include "th_reflect.h"
#include "../unit/reflect_build.h"

#include <stdlib.h>
#include <string.h>

static thr_migrator g_m;
static rb_table g_t[2];

typedef struct Input { const uint8_t *p; size_t n; } Input;
static uint32_t take(Input *in, uint32_t mod)
{
    uint32_t v = 0;
    if (in->n) { v = *in->p++; in->n--; }
    return mod ? v % mod : v;
}

static const char *const FIELD_NAMES[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
static const char *const VALUE_NAMES[] = { "ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE" };
static const uint32_t KINDS[] = { THR_I8, THR_I16, THR_I32, THR_I64, THR_U8, THR_U16, THR_U32, THR_U64, THR_F32, THR_F64, THR_BOOL };
static const uint32_t WIDTHS[] = { 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 1 };

/* one layout: two enums, up to four structs each using earlier ones, the last is the root */
static void make_layout(rb_table *t, Input *in)
{
    rb_init(t);
    for (int e = 0; e < 2; e++) {
        const char *names[6]; int64_t values[6];
        uint32_t n = 1 + take(in, 6);
        for (uint32_t i = 0; i < n; i++) { names[i] = VALUE_NAMES[(i + take(in, 2)) % 6]; values[i] = (int64_t)take(in, 0) - 64; }
        /* distinct names: drop repeats */
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            int dup = 0;
            for (uint32_t j = 0; j < k; j++) dup |= !strcmp(names[j], names[i]);
            if (!dup) { names[k] = names[i]; values[k] = values[i]; k++; }
        }
        rb_enum(t, e ? "E1" : "E0", names, values, k);
    }
    uint32_t structs = 1 + take(in, 4);
    static const char *const SNAMES[] = { "S0", "S1", "S2", "S3" };
    for (uint32_t s = 0; s < structs; s++) {
        uint32_t ti = rb_struct(t, SNAMES[s], 0, 1);
        uint32_t nfields = take(in, 8), at = 0, align = 1, used = 0;
        for (uint32_t i = 0; i < nfields; i++) {
            uint32_t name = take(in, 8);
            if (used & (1u << name)) continue;
            used |= 1u << name;
            uint32_t choice = take(in, 16), count = 1 + take(in, 4) * (take(in, 2)), kind, width, type = THR_NONE;
            if (choice < 11) { kind = KINDS[choice]; width = WIDTHS[choice]; }
            else if (choice < 13) { kind = THR_ENUM; width = 1u << take(in, 4); type = choice - 11; }
            else if (choice < 15 && ti > 0) { kind = THR_STRUCT; type = take(in, ti); width = t->types[type].size; }
            else { kind = THR_PTR; width = 8; }
            uint32_t a = kind == THR_STRUCT ? t->types[type].align : width;
            at = (at + a - 1) & ~(a - 1);
            thr_field *f = rb_field(t, FIELD_NAMES[name], at, width, count, kind, type);
            if (kind == THR_ENUM && take(in, 2)) f->flags |= THR_SIGNED;
            if (take(in, 8) == 0) f->flags |= THR_TRANSIENT;
            if (take(in, 4) == 0) f->old_name = rb_name(t, FIELD_NAMES[take(in, 8)]);
            at += width * count;
            if (a > align) align = a;
        }
        /* a count-of: an integer field counting some array of this struct */
        thr_type *ty = &t->types[ti];
        if (ty->field_count >= 2 && take(in, 2)) {
            thr_field *f = &t->fields[ty->first_field + take(in, ty->field_count)];
            if (f->count == 1 && f->kind >= THR_I8 && f->kind <= THR_U64) f->count_of = 1 + take(in, ty->field_count);
        }
        if (at == 0) at = 1;
        ty->size = (at + align - 1) & ~(align - 1);
        ty->align = align;
    }
    t->root = structs - 1;
    /* renames must not name a field twice: a declared old name equal to another field's name is dropped */
    for (uint32_t i = 0; i < t->field_count; i++) if (t->fields[i].old_name == t->fields[i].name) t->fields[i].old_name = 0;
}

static int is_plain(const thr_field *f) { return f->kind != THR_STRUCT && f->kind != THR_ENUM; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in = { data, size };
    make_layout(&g_t[0], &in);
    make_layout(&g_t[1], &in);
    size_t an = rb_finish(&g_t[0]), bn = rb_finish(&g_t[1]);
    thr_types o, n;
    char err[256];
    if (!thr_read(g_t[0].blob, an, &o, err, sizeof err) || !thr_read(g_t[1].blob, bn, &n, err, sizeof err)) __builtin_trap();
    uint32_t osz = o.types[o.header->root].size, nsz = n.types[n.header->root].size;
    uint8_t *old = (uint8_t *)malloc(osz), *def = (uint8_t *)malloc(nsz), *out = (uint8_t *)malloc(nsz);
    for (uint32_t i = 0; i < osz; i++) old[i] = (uint8_t)take(&in, 0);
    for (uint32_t i = 0; i < nsz; i++) def[i] = (uint8_t)(i * 37 + 1);
    if (thr_migrate(&g_m, &o, old, osz, &n, def, out, nsz)) {
        /* the root's fields matched by name (not by a rename), same kind and width: copied exactly */
        const thr_type *ot = &o.types[o.header->root], *nt = &n.types[n.header->root];
        for (uint32_t i = 0; i < nt->field_count; i++) {
            const thr_field *nf = &n.fields[nt->first_field + i];
            if ((nf->flags & THR_TRANSIENT) || nf->count_of || !is_plain(nf)) continue;
            for (uint32_t j = 0; j < ot->field_count; j++) {
                const thr_field *of = &o.fields[ot->first_field + j];
                if (strcmp(thr_name(&o, of->name), thr_name(&n, nf->name))) continue;
                if (of->kind != nf->kind || of->elem_size != nf->elem_size) break;
                uint32_t c = of->count < nf->count ? of->count : nf->count;
                if (memcmp(old + of->offset, out + nf->offset, (size_t)c * nf->elem_size)) __builtin_trap();
                /* elements past the old array: the default's */
                if (nf->count > c && memcmp(def + nf->offset + c * nf->elem_size, out + nf->offset + c * nf->elem_size,
                                            (size_t)(nf->count - c) * nf->elem_size)) __builtin_trap();
                break;
            }
        }
    } else if (!g_m.error[0]) {
        __builtin_trap();
    }
    free(old); free(def); free(out);
    return 0;
}
