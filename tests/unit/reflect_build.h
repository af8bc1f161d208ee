/* reflect_build.h - assembles th_reflect tables at run time for the tests and the fuzz targets (the game's
   tables are made by the build: tools/layout_stamp.py --types). Not a tinyheader: test code only. */
#ifndef REFLECT_BUILD_H
#define REFLECT_BUILD_H

#include "th_reflect.h"

#include <stdlib.h>
#include <string.h>

typedef struct rb_table {
    thr_type  types[64];
    thr_field fields[512];
    thr_enum  enums[16];
    thr_value values[256];
    char      names[8192];
    uint32_t  type_count, field_count, enum_count, value_count, names_size, root;
    uint64_t  blob[(sizeof(thr_header) + 64 * sizeof(thr_type) + 512 * sizeof(thr_field) + 16 * sizeof(thr_enum) +
                    256 * sizeof(thr_value) + 8192) / 8 + 8];
} rb_table;

static inline void rb_init(rb_table *t) { memset(t, 0, sizeof *t); t->names_size = 1; }

static inline uint32_t rb_name(rb_table *t, const char *s)
{
    if (!s || !*s) return 0;
    for (uint32_t at = 1; at < t->names_size; at += (uint32_t)strlen(t->names + at) + 1)
        if (!strcmp(t->names + at, s)) return at;
    size_t n = strlen(s) + 1;
    if (t->names_size + n > sizeof t->names) return 0;
    memcpy(t->names + t->names_size, s, n);
    t->names_size += (uint32_t)n;
    return t->names_size - (uint32_t)n;
}

/* a struct; its fields are the ones added until the next rb_struct */
static inline uint32_t rb_struct(rb_table *t, const char *name, uint32_t size, uint32_t align)
{
    thr_type *ty = &t->types[t->type_count];
    ty->name = rb_name(t, name);
    ty->size = size;
    ty->align = align;
    ty->first_field = t->field_count;
    ty->field_count = 0;
    return t->type_count++;
}

static inline thr_field *rb_field(rb_table *t, const char *name, uint32_t offset, uint32_t elem_size, uint32_t count,
                                  uint32_t kind, uint32_t type)
{
    thr_field *f = &t->fields[t->field_count++];
    memset(f, 0, sizeof *f);
    f->name = rb_name(t, name);
    f->offset = offset;
    f->elem_size = elem_size;
    f->count = count;
    f->size = elem_size * count;
    f->kind = kind;
    f->type = type;
    t->types[t->type_count - 1].field_count++;
    return f;
}

static inline uint32_t rb_enum(rb_table *t, const char *name, const char *const *value_names, const int64_t *values, uint32_t n)
{
    thr_enum *e = &t->enums[t->enum_count];
    e->name = rb_name(t, name);
    e->first_value = t->value_count;
    e->value_count = n;
    for (uint32_t i = 0; i < n; i++) {
        t->values[t->value_count].name = rb_name(t, value_names[i]);
        t->values[t->value_count].value = values[i];
        t->value_count++;
    }
    return t->enum_count++;
}

/* the flat blob thr_read checks; returns its size */
static inline size_t rb_finish(rb_table *t)
{
    uint8_t *b = (uint8_t *)t->blob;
    thr_header h;
    memset(&h, 0, sizeof h);
    h.magic = THR_MAGIC;
    h.version = THR_VERSION;
    h.root = t->root;
    h.type_count = t->type_count; h.field_count = t->field_count; h.enum_count = t->enum_count;
    h.value_count = t->value_count; h.names_size = t->names_size;
    size_t at = sizeof h;
    h.types_at = (uint32_t)at;  memcpy(b + at, t->types, t->type_count * sizeof(thr_type));   at += t->type_count * sizeof(thr_type);
    h.fields_at = (uint32_t)at; memcpy(b + at, t->fields, t->field_count * sizeof(thr_field)); at += t->field_count * sizeof(thr_field);
    h.enums_at = (uint32_t)at;  memcpy(b + at, t->enums, t->enum_count * sizeof(thr_enum));   at += t->enum_count * sizeof(thr_enum);
    at = (at + 7) & ~(size_t)7;
    h.values_at = (uint32_t)at; memcpy(b + at, t->values, t->value_count * sizeof(thr_value)); at += t->value_count * sizeof(thr_value);
    h.names_at = (uint32_t)at;  memcpy(b + at, t->names, t->names_size);                      at += t->names_size;
    h.total_size = (uint32_t)at;
    memcpy(b, &h, sizeof h);
    return at;
}

#endif
