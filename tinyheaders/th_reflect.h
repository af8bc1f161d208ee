/* th_reflect.h - a description of plain-data types, its validating reader, and a migrator that
   rewrites bytes laid out for one version of the types into another version.

   th_reflect.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     A description (a "types table") is one flat, pointer-free block: a header, the struct types
     (name, size, alignment, fields), the fields (name, offset, size, kind, element count, flags),
     the enums (name, values) and their values (name, number), and a pool of NUL-terminated names.
     Because it holds only offsets, it can be copied out of a library that is about to unload.

     thr_read checks an untrusted table completely before anything reads through it: every array
     inside the block, every name index inside the pool and terminated, every field inside its
     struct, element size times count equal to the field size, every type and enum index in range,
     no struct containing itself, no duplicate field names, count-of pointing at an integer field
     of the same struct that counts an array.

     thr_migrate takes the old table and bytes, the new table and a default instance of the new
     root type (a default-constructed value: C++ default member initializers included) and writes
     the new bytes:
       - fields are matched by name (or by a declared old name), recursively through nested structs
         and arrays of structs;
       - numbers convert with clamping: every integer width to every other, integers and floats both
         ways, float and double, bool (non-zero is 1);
       - enums are mapped by their value names, so a value inserted in the middle keeps the meaning
         of stored values; a stored value whose name is gone takes the default;
       - fixed arrays grow (new elements from the default instance) or shrink (truncated);
       - removed fields are dropped, new fields take the default instance's value;
       - transient fields are zeroed (caches the owner rebuilds);
       - a count-of field is clamped to the new element count of the array it counts.
     A field whose kind changed with no safe rule (a struct became a number, a pointer became
     anything else) refuses the whole migration with a reason. The report says in words what
     changed: "Entity: added wobble (1); GameState: kills int32 -> int64".

   USE
     #define TH_REFLECT_IMPLEMENTATION in one C or C++ file before including it (the reader and the
     migrator). The table format and, in C++, the kind traits below need no implementation.
     Dependencies: <stdint.h>, <stddef.h>, <string.h>, <stdio.h> (snprintf for the report), <stdlib.h>
     and <errno.h> (text to numbers).

     thr_read(blob, size, &types, err, cap)          1: types points into blob; 0: err says why
     thr_migrate(&m, &old_types, old, old_size, &new_types, defaults, out, out_size)
                                                     1 migrated (m.report); 0 refused (m.error)
     thr_type_name / thr_field_name / thr_kind_name  names for messages

   PATHS: ONE VALUE OF THE BYTES, BY NAME (inspectors, debuggers, scripts)
     thr_find_path(&types, "entities[12].pos.x", &place, err, cap)   1: place says where; 0: err says why
         ("GameState has no field 'enemis'", "entities[4096]: the array has 2048"); "" is the root
     thr_path_at(&types, byte_offset, &place, path, cap)  the scalar holding that byte and its path; 0: none
         (padding, or past the root)
     thr_format(&types, &place, bytes, out, cap)           a scalar's value as text: numbers, true/false, an
                                                           enum's value name (its number when it has none)
     thr_store_text(&types, &place, bytes, "301.5", err, cap)  writes a scalar from text, converted and clamped
         as a migration converts (300 into an int8 is 127; an enum takes a value name or a number; a bool
         true/false/1/0; a field that counts an array is clamped to the array's length); 0: nothing written,
         err says why ("not a number: 'abc'", "a struct holds no single value")

   THE TABLE, MADE BY A COMPILER (C++)
     A generator lists struct and field names; the compiler fills in everything else, so the table
     cannot disagree with the code:
       { name, old_name, offsetof(S, f), sizeof(((S *)0)->f), THR_ELEM_SIZE(S, f), THR_COUNT(S, f),
         THR_KIND(S, f), THR_INDEX(S, f), flags, count_of }
     thr_index<T>::value must be specialized for every described struct and enum (its index in the
     table); THR_KIND reads the kind from decltype: int widths signed or unsigned, float, double,
     bool, enum (from __is_enum), struct, pointer.

   CUSTOMIZATION
     THR_MAX_FIELDS   fields a table may hold (default 4096): thr_migrator keeps one match per field
     THR_MAX_DEPTH    nesting of structs (default 24)

   EXAMPLE (compiled verbatim by tests/unit/test_th_reflect.cpp)

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

   END EXAMPLE
*/
#ifndef TH_REFLECT_H
#define TH_REFLECT_H

#include <stdint.h>
#include <stddef.h>

#ifndef THR_MAX_FIELDS
#define THR_MAX_FIELDS 4096
#endif
#ifndef THR_MAX_DEPTH
#define THR_MAX_DEPTH 24
#endif

#define THR_MAGIC   0x31524854u   /* "THR1" */
#define THR_VERSION 1u
#define THR_NONE    0xFFFFFFFFu

/* kinds */
enum {
    THR_I8 = 1, THR_I16, THR_I32, THR_I64, THR_U8, THR_U16, THR_U32, THR_U64,
    THR_F32, THR_F64, THR_BOOL,
    THR_ENUM,      /* type: enum index; elem_size: the underlying width; THR_SIGNED if it is signed */
    THR_STRUCT,    /* type: struct index */
    THR_PTR,       /* an address: copied only to an address of the same size */
    THR_OPAQUE,    /* a union or anything else: copied only to the same type name and size */
    THR_KIND_END
};

/* field flags */
enum {
    THR_TRANSIENT = 1,   /* a cache its owner rebuilds: zeroed by a migration */
    THR_SIGNED = 2,      /* an enum's underlying type is signed */
    THR_FLAGS_ALL = 3
};

typedef struct thr_header {
    uint32_t magic, version, total_size, root;   /* root: the struct the bytes hold */
    uint32_t type_count, field_count, enum_count, value_count, names_size;
    uint32_t types_at, fields_at, enums_at, values_at, names_at;   /* byte offsets in the block */
} thr_header;

typedef struct thr_type {
    uint32_t name, size, align, first_field, field_count;
} thr_type;

typedef struct thr_field {
    uint32_t name, old_name;     /* offsets in the names pool; old_name 0 = none (the pool starts with "") */
    uint32_t offset, size;       /* bytes, within the struct; size = elem_size * count */
    uint32_t elem_size, count;   /* count 1 for a single value */
    uint32_t kind, type;         /* type: struct or enum index, THR_NONE otherwise */
    uint32_t flags;
    uint32_t count_of;           /* 1 + index (within this struct) of the array this field counts; 0 = none */
} thr_field;

typedef struct thr_enum {
    uint32_t name, first_value, value_count, pad_;
} thr_enum;

typedef struct thr_value {
    uint32_t name, pad_;
    int64_t  value;
} thr_value;

/* A checked table: pointers into the blob handed to thr_read. */
typedef struct thr_types {
    const thr_header *header;
    const thr_type   *types;
    const thr_field  *fields;
    const thr_enum   *enums;
    const thr_value  *values;
    const char       *names;
} thr_types;

typedef struct thr_migrator {
    char     report[2048];       /* what changed, in words ("" when nothing did) */
    char     error[512];         /* why a migration was refused */
    uint32_t changes;            /* how many changes the report lists */
    /* per new field: the old struct it was matched in and the old field (THR_NONE: none) */
    uint32_t match_type[THR_MAX_FIELDS];
    uint32_t match_field[THR_MAX_FIELDS];
    uint8_t  pair_seen[THR_MAX_FIELDS];
} thr_migrator;

#ifdef __cplusplus
extern "C" {
#endif
int         thr_read(const void *blob, size_t size, thr_types *out, char *err, size_t errcap);
int         thr_migrate(thr_migrator *m, const thr_types *old_types, const void *old_bytes, size_t old_size,
                        const thr_types *new_types, const void *defaults, void *out, size_t out_size);
const char *thr_kind_name(uint32_t kind, uint32_t elem_size);
int         thr_find_type(const thr_types *t, const char *name);           /* index or -1 */

/* A place in bytes laid out by a table: what a path like "entities[12].pos.x" names. */
typedef struct thr_place {
    const thr_field *field;   /* the field the path ends in; NULL: the root struct itself */
    uint32_t parent;          /* the struct the field belongs to (the root when field is NULL) */
    uint32_t index;           /* the element of an array field the path chose (0 for a single value) */
    int      whole;           /* 1: the path named an array field without an index (offset: its element 0) */
    uint64_t offset;          /* of the place (the element) from the start of the root's bytes */
} thr_place;

int         thr_find_path(const thr_types *t, const char *path, thr_place *out, char *err, size_t errcap);
int         thr_path_at(const thr_types *t, uint64_t offset, thr_place *out, char *path, size_t cap);
int         thr_format(const thr_types *t, const thr_place *at, const void *root, char *out, size_t cap);
int         thr_store_text(const thr_types *t, const thr_place *at, void *root, const char *text, char *err,
                           size_t errcap);
const char *thr_enum_name(const thr_types *t, uint32_t enum_index, int64_t value);   /* NULL: no name */
#ifdef __cplusplus
}
#endif

static inline const char *thr_name(const thr_types *t, uint32_t at) { return t->names + at; }

/* ---------------------------------------------------------------- C++: kinds from the compiler */
#ifdef __cplusplus
template <class T> struct thr_index { enum { value = (int)THR_NONE }; };

template <unsigned N, bool S> struct thr__int_kind;
template <> struct thr__int_kind<1, true>  { enum { value = THR_I8 }; };
template <> struct thr__int_kind<2, true>  { enum { value = THR_I16 }; };
template <> struct thr__int_kind<4, true>  { enum { value = THR_I32 }; };
template <> struct thr__int_kind<8, true>  { enum { value = THR_I64 }; };
template <> struct thr__int_kind<1, false> { enum { value = THR_U8 }; };
template <> struct thr__int_kind<2, false> { enum { value = THR_U16 }; };
template <> struct thr__int_kind<4, false> { enum { value = THR_U32 }; };
template <> struct thr__int_kind<8, false> { enum { value = THR_U64 }; };

template <class T, bool IsEnum = __is_enum(T)> struct thr__scalar {
    enum { value = __is_union(T) ? THR_OPAQUE : __is_class(T) ? THR_STRUCT : THR_OPAQUE, is_signed = 0 };
};
template <class T> struct thr__scalar<T, true> {
    enum { value = THR_ENUM, is_signed = (__underlying_type(T))-1 < (__underlying_type(T))0 };
};
#define THR__INT(T) template <> struct thr__scalar<T, false> { enum { value = thr__int_kind<sizeof(T), ((T)-1 < (T)0)>::value, is_signed = 0 }; }
THR__INT(char); THR__INT(signed char); THR__INT(unsigned char); THR__INT(short); THR__INT(unsigned short);
THR__INT(int); THR__INT(unsigned); THR__INT(long); THR__INT(unsigned long); THR__INT(long long);
THR__INT(unsigned long long);
#undef THR__INT
template <> struct thr__scalar<float, false>  { enum { value = THR_F32, is_signed = 0 }; };
template <> struct thr__scalar<double, false> { enum { value = THR_F64, is_signed = 0 }; };
template <> struct thr__scalar<bool, false>   { enum { value = THR_BOOL, is_signed = 0 }; };

/* element type of a (possibly multi-dimensional) array, the type itself otherwise */
template <class T> struct thr__elem { typedef T type; };
template <class T, size_t N> struct thr__elem<T[N]> { typedef typename thr__elem<T>::type type; };
template <class T> struct thr__elem<const T> { typedef typename thr__elem<T>::type type; };
template <class T> struct thr__kind { enum { value = thr__scalar<T>::value, is_signed = thr__scalar<T>::is_signed }; };
template <class T> struct thr__kind<T *> { enum { value = THR_PTR, is_signed = 0 }; };

#define THR_ELEM_T(S, f)     thr__elem<decltype(S::f)>::type
#define THR_ELEM_SIZE(S, f)  ((uint32_t)sizeof(THR_ELEM_T(S, f)))
#define THR_COUNT(S, f)      ((uint32_t)(sizeof(((S *)0)->f) / sizeof(THR_ELEM_T(S, f))))
#define THR_KIND(S, f)       ((uint32_t)thr__kind<THR_ELEM_T(S, f)>::value)
#define THR_KIND_FLAGS(S, f) ((uint32_t)(thr__kind<THR_ELEM_T(S, f)>::is_signed ? THR_SIGNED : 0))
#define THR_INDEX(S, f)      ((uint32_t)thr_index<THR_ELEM_T(S, f)>::value)
#endif /* __cplusplus */

#endif /* TH_REFLECT_H */

/* ================================================================ implementation */
#ifdef TH_REFLECT_IMPLEMENTATION
#ifndef TH_REFLECT_IMPLEMENTED
#define TH_REFLECT_IMPLEMENTED

#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

static int thr__fail(char *err, size_t cap, const char *fmt, const char *a, uint32_t x, uint32_t y)
{
    if (err && cap) snprintf(err, cap, fmt, a, x, y);
    return 0;
}

static int thr__fail2(char *err, size_t cap, const char *fmt, const char *a, const char *b)
{
    if (err && cap) snprintf(err, cap, fmt, a, b);
    return 0;
}

/* [at, at + count * each) inside size and aligned to align */
static int thr__span_ok(uint32_t at, uint32_t count, uint32_t each, uint32_t align, size_t size)
{
    uint64_t end = (uint64_t)at + (uint64_t)count * each;
    return at % align == 0 && end <= size;
}

static int thr__name_ok(const thr_types *t, uint32_t at)
{
    uint32_t n = t->header->names_size;
    return at < n && memchr(t->names + at, 0, n - at) != NULL;
}

static uint32_t thr__kind_width(uint32_t kind)
{
    switch (kind) {
    case THR_I8: case THR_U8: case THR_BOOL: return 1;
    case THR_I16: case THR_U16: return 2;
    case THR_I32: case THR_U32: case THR_F32: return 4;
    case THR_I64: case THR_U64: case THR_F64: return 8;
    default: return 0;
    }
}

/* Depth-first: 0 if struct ti reaches itself (or nests deeper than THR_MAX_DEPTH). state: 0 new, 1 open, 2 done. */
static int thr__acyclic(const thr_types *t, uint32_t ti, uint8_t *state, int depth)
{
    if (state[ti] == 2) return 1;
    if (state[ti] == 1 || depth > THR_MAX_DEPTH) return 0;
    state[ti] = 1;
    const thr_type *ty = &t->types[ti];
    for (uint32_t i = 0; i < ty->field_count; i++) {
        const thr_field *f = &t->fields[ty->first_field + i];
        if (f->kind == THR_STRUCT && !thr__acyclic(t, f->type, state, depth + 1)) return 0;
    }
    state[ti] = 2;
    return 1;
}

int thr_read(const void *blob, size_t size, thr_types *out, char *err, size_t errcap)
{
    const uint8_t *b = (const uint8_t *)blob;
    memset(out, 0, sizeof *out);
    if (!blob || size < sizeof(thr_header) || ((uintptr_t)b % 8) != 0)
        return thr__fail(err, errcap, "types table: %s (%u bytes)", "too short or misaligned", (uint32_t)size, 0);
    const thr_header *h = (const thr_header *)b;
    if (h->magic != THR_MAGIC || h->version != THR_VERSION)
        return thr__fail(err, errcap, "types table: %s (magic %08x, version %u)", "not a th_reflect table", h->magic, h->version);
    if (h->total_size > size || h->total_size < sizeof(thr_header))
        return thr__fail(err, errcap, "types table: %s (%u bytes, %u given)", "size out of range", h->total_size, (uint32_t)size);
    size_t n = h->total_size;
    if (!thr__span_ok(h->types_at, h->type_count, sizeof(thr_type), 4, n) ||
        !thr__span_ok(h->fields_at, h->field_count, sizeof(thr_field), 4, n) ||
        !thr__span_ok(h->enums_at, h->enum_count, sizeof(thr_enum), 4, n) ||
        !thr__span_ok(h->values_at, h->value_count, sizeof(thr_value), 8, n) ||
        !thr__span_ok(h->names_at, h->names_size, 1, 1, n))
        return thr__fail(err, errcap, "types table: %s (%u types, %u fields)", "an array lies outside the block", h->type_count, h->field_count);
    if (h->names_size == 0 || b[h->names_at] != 0)
        return thr__fail(err, errcap, "types table: %s", "the names pool must start with an empty name", 0, 0);
    if (h->field_count > THR_MAX_FIELDS)
        return thr__fail(err, errcap, "types table: %s (%u, at most %u)", "too many fields", h->field_count, THR_MAX_FIELDS);
    if (h->type_count == 0 || h->root >= h->type_count)
        return thr__fail(err, errcap, "types table: %s (%u of %u)", "root type out of range", h->root, h->type_count);
    out->header = h;
    out->types = (const thr_type *)(b + h->types_at);
    out->fields = (const thr_field *)(b + h->fields_at);
    out->enums = (const thr_enum *)(b + h->enums_at);
    out->values = (const thr_value *)(b + h->values_at);
    out->names = (const char *)(b + h->names_at);

    for (uint32_t e = 0; e < h->enum_count; e++) {
        const thr_enum *en = &out->enums[e];
        if (!thr__name_ok(out, en->name) || (uint64_t)en->first_value + en->value_count > h->value_count)
            return thr__fail(err, errcap, "types table: %s (enum %u)", "an enum's name or values are out of range", e, 0);
        for (uint32_t v = 0; v < en->value_count; v++)
            if (!thr__name_ok(out, out->values[en->first_value + v].name))
                return thr__fail(err, errcap, "types table: %s (enum %u, value %u)", "a value's name is out of range", e, v);
    }
    for (uint32_t ti = 0; ti < h->type_count; ti++) {
        const thr_type *ty = &out->types[ti];
        if (!thr__name_ok(out, ty->name))
            return thr__fail(err, errcap, "types table: %s (type %u)", "a struct's name is out of range", ti, 0);
        const char *tn = out->names + ty->name;
        if (ty->size == 0 || ty->align == 0 || (ty->align & (ty->align - 1)) || ty->align > 4096 || ty->size % ty->align)
            return thr__fail(err, errcap, "types table: %s: size %u, align %u is not a struct's", tn, ty->size, ty->align);
        if ((uint64_t)ty->first_field + ty->field_count > h->field_count)
            return thr__fail(err, errcap, "types table: %s: fields %u+%u out of range", tn, ty->first_field, ty->field_count);
        for (uint32_t i = 0; i < ty->field_count; i++) {
            const thr_field *f = &out->fields[ty->first_field + i];
            if (!thr__name_ok(out, f->name) || !thr__name_ok(out, f->old_name) || !out->names[f->name])
                return thr__fail(err, errcap, "types table: %s: field %u has a bad name%u", tn, i, 0);
            if ((uint64_t)f->offset + f->size > ty->size)
                return thr__fail(err, errcap, "types table: %s: field %u ends past the struct (offset %u)", tn, i, f->offset);
            if (f->count == 0 || f->elem_size == 0 || (uint64_t)f->elem_size * f->count != f->size)
                return thr__fail(err, errcap, "types table: %s: field %u: element size times count is not its size (%u)", tn, i, f->size);
            if (f->kind < THR_I8 || f->kind >= THR_KIND_END || (f->flags & ~(uint32_t)THR_FLAGS_ALL))
                return thr__fail(err, errcap, "types table: %s: field %u: unknown kind %u", tn, i, f->kind);
            uint32_t w = thr__kind_width(f->kind);
            if (w && w != f->elem_size)
                return thr__fail(err, errcap, "types table: %s: field %u: %u bytes for its kind", tn, i, f->elem_size);
            if (f->kind == THR_STRUCT && (f->type >= h->type_count || out->types[f->type].size != f->elem_size))
                return thr__fail(err, errcap, "types table: %s: field %u: struct index %u out of range or of another size", tn, i, f->type);
            if (f->kind == THR_ENUM && (f->type >= h->enum_count || (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 && f->elem_size != 8)))
                return thr__fail(err, errcap, "types table: %s: field %u: enum index %u out of range or of a bad width", tn, i, f->type);
            if (f->count_of) {
                const thr_field *arr = f->count_of - 1 < ty->field_count ? &out->fields[ty->first_field + f->count_of - 1] : NULL;
                if (!arr || f->count != 1 || thr__kind_width(f->kind) == 0 || f->kind == THR_F32 || f->kind == THR_F64 || f->kind == THR_BOOL)
                    return thr__fail(err, errcap, "types table: %s: field %u: count-of %u is not an integer counting a field of this struct", tn, i, f->count_of);
            }
            for (uint32_t j = 0; j < i; j++)
                if (!strcmp(out->names + out->fields[ty->first_field + j].name, out->names + f->name))
                    return thr__fail(err, errcap, "types table: %s: fields %u and %u have the same name", tn, j, i);
        }
    }
    /* no struct contains itself: a 2-bit state per type, on the stack in chunks of what fits */
    {
        uint8_t state[1024];
        if (h->type_count > sizeof state)
            return thr__fail(err, errcap, "types table: %s (%u, at most %u)", "too many types", h->type_count, (uint32_t)sizeof state);
        memset(state, 0, h->type_count);
        for (uint32_t ti = 0; ti < h->type_count; ti++)
            if (!thr__acyclic(out, ti, state, 0))
                return thr__fail(err, errcap, "types table: %s contains itself or nests deeper than %u", out->names + out->types[ti].name, THR_MAX_DEPTH, 0);
    }
    return 1;
}

int thr_find_type(const thr_types *t, const char *name)
{
    for (uint32_t i = 0; i < t->header->type_count; i++)
        if (!strcmp(t->names + t->types[i].name, name)) return (int)i;
    return -1;
}

const char *thr_kind_name(uint32_t kind, uint32_t elem_size)
{
    switch (kind) {
    case THR_I8: return "int8";   case THR_I16: return "int16";  case THR_I32: return "int32";  case THR_I64: return "int64";
    case THR_U8: return "uint8";  case THR_U16: return "uint16"; case THR_U32: return "uint32"; case THR_U64: return "uint64";
    case THR_F32: return "float"; case THR_F64: return "double"; case THR_BOOL: return "bool";
    case THR_ENUM: return "enum"; case THR_STRUCT: return "struct"; case THR_PTR: return "pointer";
    default: (void)elem_size; return "opaque";
    }
}

/* ---------------------------------------------------------------- the migrator */
typedef struct thr__ctx {
    thr_migrator *m;
    const thr_types *o, *n;
    int refused;
} thr__ctx;

static void thr__say(thr_migrator *m, const char *text)
{
    size_t len = strlen(m->report), add = strlen(text);
    if (len + add + 1 < sizeof m->report) memcpy(m->report + len, text, add + 1);
    else if (len + 4 < sizeof m->report) memcpy(m->report + len, "...", 4);
}

static int thr__is_int(uint32_t k) { return k >= THR_I8 && k <= THR_U64; }

/* a field's type for messages: "int32", "v2", "EntityType" */
static const char *thr__type_word(const thr_types *t, const thr_field *f)
{
    if (f->kind == THR_STRUCT) return t->names + t->types[f->type].name;
    if (f->kind == THR_ENUM) return t->names + t->enums[f->type].name;
    return thr_kind_name(f->kind, f->elem_size);
}

static int thr__refuse(thr__ctx *c, const char *sname, const thr_field *of, const thr_field *nf, const char *why)
{
    if (!c->refused)
        snprintf(c->m->error, sizeof c->m->error, "%s.%s changed from %s to %s, %s", sname, c->n->names + nf->name,
                 thr__type_word(c->o, of), thr__type_word(c->n, nf), why);
    c->refused = 1;
    return 0;
}

/* May an element of old field of become an element of new field nf? */
static int thr__convertible(thr__ctx *c, const thr_field *of, const thr_field *nf)
{
    uint32_t ok_ = of->kind, nk = nf->kind;
    if (ok_ == THR_STRUCT || nk == THR_STRUCT) return ok_ == nk;
    if (ok_ == THR_PTR || nk == THR_PTR) return ok_ == nk && of->elem_size == nf->elem_size;
    if (ok_ == THR_OPAQUE || nk == THR_OPAQUE)
        return ok_ == nk && of->elem_size == nf->elem_size;
    (void)c;
    return 1;   /* numbers and enums: all convert */
}

static void thr__describe_default(char *out, size_t cap, const thr_types *t, const thr_field *f, const uint8_t *def)
{
    out[0] = 0;
    if (!def) return;
    if (f->kind == THR_F32) { float v; memcpy(&v, def, 4); snprintf(out, cap, " (%g)", (double)v); }
    else if (f->kind == THR_F64) { double v; memcpy(&v, def, 8); snprintf(out, cap, " (%g)", v); }
    else if (thr__is_int(f->kind) || f->kind == THR_BOOL) {
        int64_t v = 0; uint64_t u = 0;
        switch (f->kind) {
        case THR_I8:  { int8_t x;  memcpy(&x, def, 1); v = x; break; }
        case THR_I16: { int16_t x; memcpy(&x, def, 2); v = x; break; }
        case THR_I32: { int32_t x; memcpy(&x, def, 4); v = x; break; }
        case THR_I64: { memcpy(&v, def, 8); break; }
        case THR_U8: case THR_BOOL: { uint8_t x; memcpy(&x, def, 1); v = x; break; }
        case THR_U16: { uint16_t x; memcpy(&x, def, 2); v = x; break; }
        case THR_U32: { uint32_t x; memcpy(&x, def, 4); v = x; break; }
        case THR_U64: { memcpy(&u, def, 8); snprintf(out, cap, " (%llu)", (unsigned long long)u); return; }
        }
        snprintf(out, cap, " (%lld)", (long long)v);
    }
    (void)t;
}

/* Matches the fields of one (old struct, new struct) pair, once per pair: fills the match cache, and
   reports what changed. Recurses into nested pairs. 0 when a field has no safe rule. */
static int thr__plan(thr__ctx *c, uint32_t ot, uint32_t nt, const uint8_t *def, int depth)
{
    const thr_types *o = c->o, *n = c->n;
    const thr_type *oty = &o->types[ot], *nty = &n->types[nt];
    const char *sname = n->names + nty->name;
    char part[1024];
    size_t pl = 0;
    int reordered = 0;
    uint32_t last_old = 0;
    if (depth > THR_MAX_DEPTH) { snprintf(c->m->error, sizeof c->m->error, "%s nests too deep", sname); return 0; }
#define THR__PART(...) do { if (pl < sizeof part) { int w_ = snprintf(part + pl, sizeof part - pl, __VA_ARGS__); if (w_ > 0) pl += (size_t)w_; } c->m->changes++; } while (0)
    part[0] = 0;
    for (uint32_t i = 0; i < nty->field_count; i++) {
        uint32_t gi = nty->first_field + i;
        const thr_field *nf = &n->fields[gi];
        const char *fname = n->names + nf->name;
        const char *oldname = n->names + nf->old_name;
        uint32_t found = THR_NONE;
        for (uint32_t j = 0; j < oty->field_count && found == THR_NONE; j++)
            if (!strcmp(o->names + o->fields[oty->first_field + j].name, fname)) found = oty->first_field + j;
        int renamed = 0;
        for (uint32_t j = 0; j < oty->field_count && found == THR_NONE && oldname[0]; j++)
            if (!strcmp(o->names + o->fields[oty->first_field + j].name, oldname)) { found = oty->first_field + j; renamed = 1; }
        c->m->match_type[gi] = ot;
        c->m->match_field[gi] = found;
        const uint8_t *fdef = def ? def + nf->offset : NULL;
        if (nf->flags & THR_TRANSIENT) continue;   /* zeroed whatever it was */
        if (found == THR_NONE) {
            char d[64];
            thr__describe_default(d, sizeof d, n, nf, fdef);
            THR__PART("%sadded %s%s", pl ? ", " : "", fname, d);
            continue;
        }
        const thr_field *of = &o->fields[found];
        if (found < last_old) reordered = 1;
        last_old = found;
        if (renamed) THR__PART("%srenamed %s -> %s", pl ? ", " : "", oldname, fname);
        if (!thr__convertible(c, of, nf)) return thr__refuse(c, sname, of, nf, "no automatic rule");
        if (of->kind != nf->kind || (of->kind != THR_STRUCT && of->elem_size != nf->elem_size) ||
            (of->kind == THR_STRUCT && strcmp(o->names + o->types[of->type].name, n->names + n->types[nf->type].name)))
            THR__PART("%s%s %s -> %s", pl ? ", " : "", fname, thr__type_word(o, of), thr__type_word(n, nf));
        if (of->count != nf->count)
            THR__PART("%s%s %u -> %u elements", pl ? ", " : "", fname, of->count, nf->count);
        if (nf->kind == THR_ENUM && of->kind == THR_ENUM) {
            const thr_enum *oe = &o->enums[of->type], *ne = &n->enums[nf->type];
            for (uint32_t a = 0; a < ne->value_count; a++) {
                const char *vn = n->names + n->values[ne->first_value + a].name;
                uint32_t b;
                for (b = 0; b < oe->value_count; b++) if (!strcmp(o->names + o->values[oe->first_value + b].name, vn)) break;
                if (b == oe->value_count) THR__PART("%s%s gained %s", pl ? ", " : "", fname, vn);
            }
        }
        if (nf->kind == THR_STRUCT && of->kind == THR_STRUCT) {
            /* each nested pair once: pair_seen is keyed by the new struct's first field */
            uint32_t key = n->types[nf->type].field_count ? n->types[nf->type].first_field : THR_NONE;
            if (key != THR_NONE && c->m->pair_seen[key] && c->m->match_type[key] == of->type) continue;
            if (key != THR_NONE) c->m->pair_seen[key] = 1;
            if (!thr__plan(c, of->type, nf->type, fdef, depth + 1)) return 0;
        }
    }
    for (uint32_t j = 0; j < oty->field_count; j++) {
        uint32_t gj = oty->first_field + j, used = 0;
        for (uint32_t i = 0; i < nty->field_count && !used; i++)
            used = c->m->match_field[nty->first_field + i] == gj && !(n->fields[nty->first_field + i].flags & THR_TRANSIENT);
        int transient_now = 0;
        for (uint32_t i = 0; i < nty->field_count; i++)
            if (c->m->match_field[nty->first_field + i] == gj && (n->fields[nty->first_field + i].flags & THR_TRANSIENT)) transient_now = 1;
        if (!used && !transient_now) THR__PART("%sremoved %s", pl ? ", " : "", o->names + o->fields[gj].name);
    }
    if (reordered) THR__PART("%sfields reordered", pl ? ", " : "");
#undef THR__PART
    if (pl) {
        if (c->m->report[0]) thr__say(c->m, "; ");
        thr__say(c->m, sname);
        thr__say(c->m, ": ");
        thr__say(c->m, part);
    }
    return 1;
}

/* ---- one number, read and written with clamping */
typedef struct thr__num { int is_float, is_unsigned; double f; int64_t i; uint64_t u; } thr__num;

static thr__num thr__load(uint32_t kind, const uint8_t *p)
{
    thr__num v;
    memset(&v, 0, sizeof v);
    switch (kind) {
    case THR_I8:  { int8_t x;   memcpy(&x, p, 1); v.i = x; break; }
    case THR_I16: { int16_t x;  memcpy(&x, p, 2); v.i = x; break; }
    case THR_I32: { int32_t x;  memcpy(&x, p, 4); v.i = x; break; }
    case THR_I64: { memcpy(&v.i, p, 8); break; }
    case THR_U8:  { uint8_t x;  memcpy(&x, p, 1); v.u = x; v.is_unsigned = 1; break; }
    case THR_U16: { uint16_t x; memcpy(&x, p, 2); v.u = x; v.is_unsigned = 1; break; }
    case THR_U32: { uint32_t x; memcpy(&x, p, 4); v.u = x; v.is_unsigned = 1; break; }
    case THR_U64: { memcpy(&v.u, p, 8); v.is_unsigned = 1; break; }
    case THR_BOOL: { uint8_t x; memcpy(&x, p, 1); v.u = x != 0; v.is_unsigned = 1; break; }
    case THR_F32: { float x;  memcpy(&x, p, 4); v.f = x; v.is_float = 1; break; }
    case THR_F64: { memcpy(&v.f, p, 8); v.is_float = 1; break; }
    }
    return v;
}

static void thr__store(uint32_t kind, uint8_t *p, thr__num v)
{
    if (kind == THR_F32 || kind == THR_F64) {
        double d = v.is_float ? v.f : v.is_unsigned ? (double)v.u : (double)v.i;
        if (kind == THR_F64) { memcpy(p, &d, 8); return; }
        float x;
        if (d != d) x = (float)d;                      /* NaN stays NaN */
        else if (d > 3.4028234663852886e38) x = 3.4028234663852886e38f;
        else if (d < -3.4028234663852886e38) x = -3.4028234663852886e38f;
        else x = (float)d;
        memcpy(p, &x, 4);
        return;
    }
    if (kind == THR_BOOL) {
        uint8_t b = v.is_float ? (v.f != 0) : v.is_unsigned ? (v.u != 0) : (v.i != 0);
        memcpy(p, &b, 1);
        return;
    }
    /* integers: to a clamped int64 or uint64 first */
    int64_t lo; uint64_t hi;
    switch (kind) {
    case THR_I8:  lo = -128; hi = 127; break;
    case THR_I16: lo = -32768; hi = 32767; break;
    case THR_I32: lo = -2147483647 - 1; hi = 2147483647; break;
    case THR_I64: lo = INT64_MIN; hi = INT64_MAX; break;
    case THR_U8:  lo = 0; hi = 255; break;
    case THR_U16: lo = 0; hi = 65535; break;
    case THR_U32: lo = 0; hi = 4294967295u; break;
    default:      lo = 0; hi = UINT64_MAX; break;
    }
    int neg = 0;   /* value below zero: clamp to lo */
    uint64_t mag = 0;   /* value as unsigned when not negative */
    int64_t sv = 0;
    if (v.is_float) {
        double d = v.f;
        if (d != d) d = 0;
        if (d < 0) {
            neg = 1;
            sv = d <= -9223372036854775808.0 ? INT64_MIN : (int64_t)d;
            if (sv == 0) neg = 0;
        } else {
            mag = d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
        }
    } else if (v.is_unsigned) {
        mag = v.u;
    } else if (v.i < 0) {
        neg = 1; sv = v.i;
    } else {
        mag = (uint64_t)v.i;
    }
    uint64_t out;
    if (neg) out = (uint64_t)(sv < lo ? lo : sv);
    else out = mag > hi ? hi : mag;
    switch (kind) {
    case THR_I8:  case THR_U8:  { uint8_t x = (uint8_t)out; memcpy(p, &x, 1); break; }
    case THR_I16: case THR_U16: { uint16_t x = (uint16_t)out; memcpy(p, &x, 2); break; }
    case THR_I32: case THR_U32: { uint32_t x = (uint32_t)out; memcpy(p, &x, 4); break; }
    default: memcpy(p, &out, 8); break;
    }
}

static uint32_t thr__width_kind(uint32_t width, int is_signed)
{
    switch (width) {
    case 1: return is_signed ? THR_I8 : THR_U8;
    case 2: return is_signed ? THR_I16 : THR_U16;
    case 4: return is_signed ? THR_I32 : THR_U32;
    default: return is_signed ? THR_I64 : THR_U64;
    }
}

/* an enum element's value as a number */
static int64_t thr__enum_load(const thr_field *f, const uint8_t *p)
{
    thr__num v = thr__load(thr__width_kind(f->elem_size, (f->flags & THR_SIGNED) != 0), p);
    return v.is_unsigned ? (int64_t)v.u : v.i;
}

static void thr__copy_struct(thr__ctx *c, uint32_t ot, const uint8_t *op, uint32_t nt, uint8_t *np, int depth);

static void thr__copy_field(thr__ctx *c, const thr_field *of, const uint8_t *ob, const thr_field *nf, uint8_t *nb, int depth)
{
    uint32_t count = of->count < nf->count ? of->count : nf->count;
    const uint8_t *src = ob + of->offset;
    uint8_t *dst = nb + nf->offset;
    if (of->kind == nf->kind && of->elem_size == nf->elem_size && of->kind != THR_STRUCT && of->kind != THR_ENUM) {
        memcpy(dst, src, (size_t)count * nf->elem_size);   /* the same representation: exactly */
        return;
    }
    for (uint32_t e = 0; e < count; e++) {
        const uint8_t *s = src + (size_t)e * of->elem_size;
        uint8_t *d = dst + (size_t)e * nf->elem_size;
        if (nf->kind == THR_STRUCT) { thr__copy_struct(c, of->type, s, nf->type, d, depth + 1); continue; }
        if (of->kind == THR_ENUM && nf->kind == THR_ENUM) {
            const thr_enum *oe = &c->o->enums[of->type], *ne = &c->n->enums[nf->type];
            int64_t ov = thr__enum_load(of, s);
            const char *vn = NULL;
            for (uint32_t a = 0; a < oe->value_count && !vn; a++)
                if (c->o->values[oe->first_value + a].value == ov) vn = c->o->names + c->o->values[oe->first_value + a].name;
            if (!vn) continue;   /* a number the old enum did not name: the default */
            for (uint32_t b = 0; b < ne->value_count; b++) {
                if (strcmp(c->n->names + c->n->values[ne->first_value + b].name, vn)) continue;
                thr__num v;
                memset(&v, 0, sizeof v);
                v.i = c->n->values[ne->first_value + b].value;
                thr__store(thr__width_kind(nf->elem_size, (nf->flags & THR_SIGNED) != 0), d, v);
                break;
            }
            continue;   /* a name the new enum lost: the default */
        }
        thr__num v;
        if (of->kind == THR_ENUM) { memset(&v, 0, sizeof v); v.i = thr__enum_load(of, s); }
        else v = thr__load(of->kind, s);
        uint32_t nk = nf->kind == THR_ENUM ? thr__width_kind(nf->elem_size, (nf->flags & THR_SIGNED) != 0) : nf->kind;
        thr__store(nk, d, v);
    }
}

static void thr__copy_struct(thr__ctx *c, uint32_t ot, const uint8_t *op, uint32_t nt, uint8_t *np, int depth)
{
    const thr_type *nty = &c->n->types[nt];
    if (depth > THR_MAX_DEPTH) return;
    for (uint32_t i = 0; i < nty->field_count; i++) {
        uint32_t gi = nty->first_field + i;
        const thr_field *nf = &c->n->fields[gi];
        if (nf->flags & THR_TRANSIENT) { memset(np + nf->offset, 0, nf->size); continue; }
        if (c->m->match_type[gi] != ot) {   /* the same new struct paired with another old one: match again */
            const thr_type *oty = &c->o->types[ot];
            const char *fname = c->n->names + nf->name, *oldname = c->n->names + nf->old_name;
            uint32_t found = THR_NONE;
            for (uint32_t j = 0; j < oty->field_count && found == THR_NONE; j++)
                if (!strcmp(c->o->names + c->o->fields[oty->first_field + j].name, fname)) found = oty->first_field + j;
            for (uint32_t j = 0; j < oty->field_count && found == THR_NONE && oldname[0]; j++)
                if (!strcmp(c->o->names + c->o->fields[oty->first_field + j].name, oldname)) found = oty->first_field + j;
            if (found != THR_NONE && !thr__convertible(c, &c->o->fields[found], nf)) found = THR_NONE;
            c->m->match_type[gi] = ot;
            c->m->match_field[gi] = found;
        }
        uint32_t of = c->m->match_field[gi];
        if (of == THR_NONE) continue;   /* added: the default instance's value is already there */
        thr__copy_field(c, &c->o->fields[of], op, nf, np, depth);
    }
    /* counts of arrays, clamped to their arrays' new lengths */
    for (uint32_t i = 0; i < nty->field_count; i++) {
        const thr_field *nf = &c->n->fields[nty->first_field + i];
        if (!nf->count_of) continue;
        const thr_field *arr = &c->n->fields[nty->first_field + nf->count_of - 1];
        thr__num v = thr__load(nf->kind, np + nf->offset), lim;
        int over = v.is_unsigned ? v.u > arr->count : v.i > (int64_t)arr->count;
        int under = !v.is_unsigned && v.i < 0;
        if (!over && !under) continue;
        memset(&lim, 0, sizeof lim);
        lim.is_unsigned = 1;
        lim.u = over ? arr->count : 0;
        thr__store(nf->kind, np + nf->offset, lim);
    }
}

int thr_migrate(thr_migrator *m, const thr_types *o, const void *old_bytes, size_t old_size,
                const thr_types *n, const void *defaults, void *out, size_t out_size)
{
    thr__ctx c;
    c.m = m; c.o = o; c.n = n; c.refused = 0;
    m->report[0] = m->error[0] = 0;
    m->changes = 0;
    uint32_t ot = o->header->root, nt = n->header->root;
    if (o->types[ot].size > old_size) {
        snprintf(m->error, sizeof m->error, "the old state is %llu bytes, its type %s needs %u", (unsigned long long)old_size,
                 o->names + o->types[ot].name, o->types[ot].size);
        return 0;
    }
    if (n->types[nt].size > out_size) {
        snprintf(m->error, sizeof m->error, "the new state (%s) needs %u bytes, %llu given", n->names + n->types[nt].name,
                 n->types[nt].size, (unsigned long long)out_size);
        return 0;
    }
    for (uint32_t i = 0; i < n->header->field_count; i++) { m->match_type[i] = THR_NONE; m->match_field[i] = THR_NONE; m->pair_seen[i] = 0; }
    if (!thr__plan(&c, ot, nt, (const uint8_t *)defaults, 0)) {
        if (!m->error[0]) snprintf(m->error, sizeof m->error, "no automatic rule");
        return 0;
    }
    memcpy(out, defaults, n->types[nt].size);
    thr__copy_struct(&c, ot, (const uint8_t *)old_bytes, nt, (uint8_t *)out, 0);
    return 1;
}

/* ---------------------------------------------------------------- paths */
static const thr_field *thr__field_named(const thr_types *t, uint32_t type, const char *name, size_t len)
{
    const thr_type *ty = &t->types[type];
    for (uint32_t i = 0; i < ty->field_count; i++) {
        const thr_field *f = &t->fields[ty->first_field + i];
        const char *fn = t->names + f->name;
        if (strlen(fn) == len && !memcmp(fn, name, len)) return f;
    }
    return NULL;
}

/* "[N]" at *s: 1 and the number, s moved past it */
static int thr__index(const char **s, uint64_t *n)
{
    const char *p = *s + 1;
    *n = 0;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') { if (*n > 100000000000ull) return 0; *n = *n * 10 + (uint64_t)(*p++ - '0'); }
    if (*p != ']') return 0;
    *s = p + 1;
    return 1;
}

int thr_find_path(const thr_types *t, const char *path, thr_place *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    out->parent = t->header->root;
    uint32_t type = t->header->root;
    const char *s = path;
    for (int depth = 0; *s; depth++) {
        if (type == THR_NONE || depth > THR_MAX_DEPTH)
            return thr__fail2(err, errcap, "%s: %s holds no fields", path, out->field ? t->names + out->field->name : "it");
        size_t len = strcspn(s, ".[");
        const thr_field *f = len ? thr__field_named(t, type, s, len) : NULL;
        if (!f) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), s);
            if (err && errcap) snprintf(err, errcap, "%s has no field '%s'", t->names + t->types[type].name, name);
            return 0;
        }
        out->field = f; out->parent = type; out->index = 0; out->whole = f->count > 1;
        out->offset += f->offset;
        s += len;
        if (*s == '[') {
            uint64_t n;
            if (!thr__index(&s, &n)) return thr__fail2(err, errcap, "%s: a bad index after '%s'", path, t->names + f->name);
            if (n >= f->count) {
                if (err && errcap) snprintf(err, errcap, "%s[%llu]: the array has %u", t->names + f->name, (unsigned long long)n, f->count);
                return 0;
            }
            out->index = (uint32_t)n; out->whole = 0;
            out->offset += n * f->elem_size;
        }
        type = f->kind == THR_STRUCT && !out->whole ? f->type : THR_NONE;
        if (*s == '.') s++;
        else if (*s) return thr__fail2(err, errcap, "%s: '%s' cannot follow", path, s);
    }
    return 1;
}

int thr_path_at(const thr_types *t, uint64_t offset, thr_place *out, char *path, size_t cap)
{
    uint32_t type = t->header->root;
    uint64_t base = 0;
    memset(out, 0, sizeof *out);
    if (cap) path[0] = 0;
    for (int depth = 0; depth < THR_MAX_DEPTH; depth++) {
        const thr_type *ty = &t->types[type];
        const thr_field *hit = NULL;
        for (uint32_t i = 0; i < ty->field_count && !hit; i++) {
            const thr_field *f = &t->fields[ty->first_field + i];
            if (offset >= base + f->offset && offset < base + f->offset + f->size) hit = f;
        }
        if (!hit || !hit->elem_size) return 0;
        uint64_t index = (offset - base - hit->offset) / hit->elem_size;
        size_t len = cap ? strlen(path) : 0;
        if (cap && hit->count > 1)
            snprintf(path + len, cap - len, "%s%s[%llu]", len ? "." : "", t->names + hit->name, (unsigned long long)index);
        else if (cap)
            snprintf(path + len, cap - len, "%s%s", len ? "." : "", t->names + hit->name);
        base += hit->offset + index * hit->elem_size;
        out->field = hit; out->parent = type; out->index = (uint32_t)index; out->whole = 0; out->offset = base;
        if (hit->kind == THR_STRUCT && hit->type != THR_NONE) { type = hit->type; continue; }
        return 1;
    }
    return 0;
}

const char *thr_enum_name(const thr_types *t, uint32_t enum_index, int64_t value)
{
    if (enum_index >= t->header->enum_count) return NULL;
    const thr_enum *e = &t->enums[enum_index];
    for (uint32_t i = 0; i < e->value_count; i++)
        if (t->values[e->first_value + i].value == value) return t->names + t->values[e->first_value + i].name;
    return NULL;
}

static int thr__scalar_place(const thr_place *at)
{
    const thr_field *f = at->field;
    return f && !at->whole && f->kind != THR_STRUCT && f->kind != THR_PTR && f->kind != THR_OPAQUE;
}

int thr_format(const thr_types *t, const thr_place *at, const void *root, char *out, size_t cap)
{
    if (!cap) return 0;
    out[0] = 0;
    if (!thr__scalar_place(at)) return 0;
    const thr_field *f = at->field;
    const uint8_t *p = (const uint8_t *)root + at->offset;
    if (f->kind == THR_ENUM) {
        int64_t v = thr__enum_load(f, p);
        const char *name = thr_enum_name(t, f->type, v);
        if (name) snprintf(out, cap, "%s", name);
        else snprintf(out, cap, "%lld", (long long)v);
        return 1;
    }
    thr__num v = thr__load(f->kind, p);
    if (f->kind == THR_BOOL) snprintf(out, cap, "%s", v.u ? "true" : "false");
    else if (f->kind == THR_F32) snprintf(out, cap, "%.9g", v.f);
    else if (v.is_float) snprintf(out, cap, "%.17g", v.f);
    else if (v.is_unsigned) snprintf(out, cap, "%llu", (unsigned long long)v.u);
    else snprintf(out, cap, "%lld", (long long)v.i);
    return 1;
}

/* text to a number: an integer (decimal, or 0x hex) when it is one, else a float; 0 when it is neither */
static int thr__parse_num(const char *text, thr__num *v)
{
    char *end = NULL;
    memset(v, 0, sizeof *v);
    errno = 0;
    while (*text == ' ') text++;
    if (!*text) return 0;
    int hex = (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'));
    if (text[0] == '-') { v->i = strtoll(text, &end, hex ? 16 : 10); }
    else { v->u = strtoull(text, &end, hex ? 16 : 10); v->is_unsigned = 1; }
    if (end && end != text && *end == 0 && errno != ERANGE) return 1;
    errno = 0;
    memset(v, 0, sizeof *v);
    v->f = strtod(text, &end);
    v->is_float = 1;
    return end && end != text && *end == 0;
}

static int thr__enum_value(const thr_types *t, const thr_field *f, const char *text, thr__num *v)
{
    if (f->type < t->header->enum_count) {
        const thr_enum *e = &t->enums[f->type];
        for (uint32_t i = 0; i < e->value_count; i++)
            if (!strcmp(t->names + t->values[e->first_value + i].name, text)) {
                memset(v, 0, sizeof *v);
                v->i = t->values[e->first_value + i].value;
                return 1;
            }
    }
    return thr__parse_num(text, v) && !v->is_float;
}

/* a field that counts an array of its struct: the array's length, else the value's own limit */
static void thr__count_clamp(const thr_types *t, const thr_place *at, thr__num *v)
{
    const thr_field *f = at->field;
    if (!f->count_of) return;
    const thr_field *arr = &t->fields[t->types[at->parent].first_field + f->count_of - 1];
    double d = v->is_float ? v->f : v->is_unsigned ? (double)v->u : (double)v->i;
    if (d < 0 || d != d) { memset(v, 0, sizeof *v); v->is_unsigned = 1; }
    else if (d > (double)arr->count) { memset(v, 0, sizeof *v); v->is_unsigned = 1; v->u = arr->count; }
}

int thr_store_text(const thr_types *t, const thr_place *at, void *root, const char *text, char *err, size_t errcap)
{
    if (!thr__scalar_place(at))
        return thr__fail2(err, errcap, "%s holds no single value%s", at->field ? t->names + at->field->name
                          : t->names + t->types[at->parent].name, " (a struct, an array or a pointer)");
    const thr_field *f = at->field;
    uint8_t *p = (uint8_t *)root + at->offset;
    thr__num v;
    if (f->kind == THR_BOOL && (!strcmp(text, "true") || !strcmp(text, "false"))) {
        memset(&v, 0, sizeof v); v.is_unsigned = 1; v.u = text[0] == 't';
    } else if (f->kind == THR_ENUM) {
        if (!thr__enum_value(t, f, text, &v))
            return thr__fail2(err, errcap, "not a value of %s: '%s'", thr__type_word(t, f), text);
        thr__store(thr__width_kind(f->elem_size, (f->flags & THR_SIGNED) != 0), p, v);
        return 1;
    } else if (!thr__parse_num(text, &v)) {
        return thr__fail2(err, errcap, "not a number%s: '%s'", "", text);
    }
    thr__count_clamp(t, at, &v);
    thr__store(f->kind, p, v);
    return 1;
}

#endif /* TH_REFLECT_IMPLEMENTED */
#endif /* TH_REFLECT_IMPLEMENTATION */

/*
   LICENCE - this file is offered under your choice of A or B.

   A - MIT License

   Copyright (c) 2026 the engine's maintainers

   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all copies or
   substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
   NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
   OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

   B - Public domain

   The authors dedicate this file to the public domain, giving up every copyright interest in
   it, for the benefit of the public and to the detriment of their heirs and successors, and
   meaning it as a permanent act. Anyone may copy, modify, publish, use, compile, sell or distribute
   it, as source or as a compiled binary, for any purpose, commercial or not, and by any means,
   with no need to name the authors. Where a dedication to the public domain is not recognised, the
   authors grant everyone the same rights under the MIT License above, without its condition.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED. IN NO EVENT
   SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
