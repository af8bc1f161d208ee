/* th_pack.h - one archive file holding many named files: writing it, and reading it without
   trusting a byte of it.

   th_pack.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     A release ships its assets (atlas pages, manifest, fonts, sounds) as one file next to the
     executable. The writer takes (name, bytes) pairs and produces that file; the reader opens it
     from memory or from disk, checks every offset, size, name and checksum before handing out a
     byte, and then finds files by name. A damaged archive is refused with a reason; a damaged file
     inside an otherwise sound archive is refused when it is asked for, and only that file.

   USE
     #define TH_PACK_IMPLEMENTATION   (in exactly one C or C++ file)
     #include "th_pack.h"
     C99 or C++. Allocates with THPK_MALLOC/THPK_REALLOC/THPK_FREE (default malloc/realloc/free).

   EXAMPLE
     thpk_writer w;
     thpk_archive a;
     char err[256];
     size_t n = 0;
     thpk_writer_init(&w);
     thpk_writer_add(&w, "atlas.txt", "th_atlas 1\n", 11, err, sizeof err);
     if (!thpk_writer_save(&w, "game.pak", err, sizeof err)) printf("pack: %s\n", err);
     thpk_writer_free(&w);

     if (thpk_open_file(&a, "game.pak", err, sizeof err)) {
         int i = thpk_find(&a, "atlas.txt");
         const void *bytes = i >= 0 ? thpk_get(&a, i, &n, err, sizeof err) : NULL;
         if (bytes) printf("atlas.txt: %u bytes\n", (unsigned)n);
         thpk_close(&a);
     } else printf("game.pak: %s\n", err);

   THE FORMAT (all integers little-endian)
     header, 32 bytes:
        0  8  magic  'T' 'H' 'P' 'K' '\r' '\n' 0x1A '\n'   (line-ending or text-mode damage shows)
        8  4  version (1)
       12  4  entry count
       16  4  index bytes: count * 32 entry bytes, then the name table
       20  4  index check: low 32 bits of thpk_hash(index bytes, 0)
       24  8  archive size: the whole file's length (catches truncated or appended files)
     index, at 32: one 32-byte entry per file, in strictly ascending byte order of the names
        0  8  data offset from the start of the archive
        8  8  data size
       16  8  data check: thpk_hash(data, 0)
       24  4  name offset inside the name table
       28  4  name length in bytes (the name is followed by a NUL in the table)
     name table: the names, each NUL-terminated
     data: from 32 + index bytes on; entries' data in index order, never overlapping. The writer
       aligns each to 16 bytes and zero-fills the gaps.

   NAMES
     Relative paths with '/' between parts: 1..THPK_NAME_MAX-1 bytes, no control characters, no
     '\\', no leading, trailing or doubled '/', no "." or ".." part. Both the writer and the reader
     enforce this, so a name from an archive is safe to print and never leaves a folder.

   MEMORY
     thpk_open_memory keeps pointers into the caller's buffer (keep it alive until thpk_close);
     thpk_open_file reads the whole file into one THPK_MALLOC'd buffer that thpk_close frees.
     Names and data handed out point into that buffer. The writer copies what it is given.

   ERRORS
     Functions that can fail return 0 / NULL / -1 and write a one-line reason into err (may be NULL).

   CUSTOMIZATION
     THPK_NAME_MAX   (256)  longest name + 1
     THPK_MALLOC, THPK_REALLOC, THPK_FREE

   Names: public thpk_, private thpk__.
*/
#ifndef TH_PACK_H
#define TH_PACK_H

#include <stddef.h>
#include <stdint.h>

#ifndef THPK_NAME_MAX
#define THPK_NAME_MAX 256
#endif

#define THPK_VERSION      1
#define THPK_HEADER_BYTES 32
#define THPK_ENTRY_BYTES  32
#define THPK_ALIGN        16

#ifdef __cplusplus
extern "C" {
#endif

typedef struct thpk_archive {
    const uint8_t *bytes;        /* the whole archive */
    size_t         size;
    uint32_t       count;
    const uint8_t *index;        /* count entries of THPK_ENTRY_BYTES */
    const char    *names;        /* the name table */
    void          *owned;        /* buffer thpk_open_file allocated, or NULL */
} thpk_archive;

typedef struct thpk__item { char *name; uint8_t *data; size_t size; } thpk__item;

typedef struct thpk_writer {
    thpk__item *items;
    int         count, cap;
} thpk_writer;

/* ---------------------------------------------------------------- reading */
int         thpk_open_memory(thpk_archive *a, const void *data, size_t size, char *err, size_t errcap); /* 1 ok */
int         thpk_open_file(thpk_archive *a, const char *path, char *err, size_t errcap);               /* 1 ok */
void        thpk_close(thpk_archive *a);                      /* frees what thpk_open_file read; a is zeroed */
int         thpk_find(const thpk_archive *a, const char *name);                 /* index, or -1 if absent */
const char *thpk_name(const thpk_archive *a, int i);                            /* NULL if i out of range */
uint64_t    thpk_size(const thpk_archive *a, int i);                            /* 0 if i out of range */
const void *thpk_get(const thpk_archive *a, int i, size_t *size, char *err, size_t errcap); /* checked; NULL if damaged */

/* ---------------------------------------------------------------- writing */
void        thpk_writer_init(thpk_writer *w);
void        thpk_writer_free(thpk_writer *w);                  /* frees and re-inits */
int         thpk_writer_add(thpk_writer *w, const char *name, const void *data, size_t size, char *err, size_t errcap);
int         thpk_writer_add_file(thpk_writer *w, const char *name, const char *path, char *err, size_t errcap);
void       *thpk_writer_build(const thpk_writer *w, size_t *size, char *err, size_t errcap); /* THPK_MALLOC'd */
int         thpk_writer_save(const thpk_writer *w, const char *path, char *err, size_t errcap); /* <path>.tmp + rename */

/* ---------------------------------------------------------------- shared */
uint64_t    thpk_hash(const void *data, size_t bytes, uint64_t seed);          /* the checks' hash */
int         thpk_name_valid(const char *name, size_t len);                      /* 1 if a legal name */

#ifdef __cplusplus
}
#endif
#endif /* TH_PACK_H */

/* ==================================================================================== implementation */
#ifdef TH_PACK_IMPLEMENTATION
#ifndef TH_PACK_IMPLEMENTED
#define TH_PACK_IMPLEMENTED
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#ifndef THPK_MALLOC
#define THPK_MALLOC(n) malloc(n)
#define THPK_REALLOC(p, n) realloc(p, n)
#define THPK_FREE(p) free(p)
#endif

#ifdef __cplusplus
extern "C" {
#endif

static const uint8_t thpk__magic[8] = { 'T', 'H', 'P', 'K', '\r', '\n', 0x1A, '\n' };

static void thpk__err(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    if (!err || cap == 0) return;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

static uint32_t thpk__r32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t thpk__r64(const uint8_t *p) { return (uint64_t)thpk__r32(p) | (uint64_t)thpk__r32(p + 4) << 32; }
static void thpk__w32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
static void thpk__w64(uint8_t *p, uint64_t v) { thpk__w32(p, (uint32_t)v); thpk__w32(p + 4, (uint32_t)(v >> 32)); }

uint64_t thpk_hash(const void *data, size_t bytes, uint64_t seed)
{
    const uint8_t *p = (const uint8_t *)data;
    uint64_t h = 14695981039346656037ull ^ seed;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {          /* eight bytes a step, read little-endian on every host */
        h = (h ^ thpk__r64(p + i)) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    h ^= (uint64_t)bytes;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 32);
}

int thpk_name_valid(const char *name, size_t len)
{
    size_t i, part = 0;     /* start of the current part */
    if (!name || len == 0 || len >= THPK_NAME_MAX) return 0;
    for (i = 0; i <= len; i++) {
        unsigned char c = i < len ? (unsigned char)name[i] : '/';
        if (c < 0x20 || c == 0x7F || c == '\\') return 0;
        if (c == '/') {
            size_t n = i - part;
            if (n == 0) return 0;                                            /* leading, doubled, trailing */
            if (n == 1 && name[part] == '.') return 0;
            if (n == 2 && name[part] == '.' && name[part + 1] == '.') return 0;
            part = i + 1;
        }
    }
    return 1;
}

/* Byte order of two names (memcmp, then the shorter first). */
static int thpk__cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c) return c;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* ---------------------------------------------------------------- reading */
int thpk_open_memory(thpk_archive *a, const void *data, size_t size, char *err, size_t errcap)
{
    const uint8_t *b = (const uint8_t *)data;
    uint32_t count, index_bytes, i;
    uint64_t names_bytes, data_start, prev_end;
    const char *prev_name = NULL;
    size_t prev_len = 0;
    memset(a, 0, sizeof *a);
    if (!b || size < THPK_HEADER_BYTES) { thpk__err(err, errcap, "not an archive: %u bytes, shorter than the header", (unsigned)size); return 0; }
    if (memcmp(b, thpk__magic, 8) != 0) { thpk__err(err, errcap, "not an archive (wrong magic bytes)"); return 0; }
    if (thpk__r32(b + 8) != THPK_VERSION) { thpk__err(err, errcap, "archive version %u, this reader knows %d", (unsigned)thpk__r32(b + 8), THPK_VERSION); return 0; }
    if (thpk__r64(b + 24) != (uint64_t)size) {
        thpk__err(err, errcap, "archive is %llu bytes but its header says %llu (truncated or appended to)",
                  (unsigned long long)size, (unsigned long long)thpk__r64(b + 24));
        return 0;
    }
    count = thpk__r32(b + 12);
    index_bytes = thpk__r32(b + 16);
    if ((uint64_t)index_bytes > (uint64_t)size - THPK_HEADER_BYTES) { thpk__err(err, errcap, "index of %u bytes runs past the end", (unsigned)index_bytes); return 0; }
    if ((uint64_t)count * THPK_ENTRY_BYTES > index_bytes) { thpk__err(err, errcap, "%u entries do not fit in an index of %u bytes", (unsigned)count, (unsigned)index_bytes); return 0; }
    if ((uint32_t)thpk_hash(b + THPK_HEADER_BYTES, index_bytes, 0) != thpk__r32(b + 20)) { thpk__err(err, errcap, "index is damaged (check mismatch)"); return 0; }
    names_bytes = index_bytes - (uint64_t)count * THPK_ENTRY_BYTES;
    data_start = THPK_HEADER_BYTES + (uint64_t)index_bytes;
    prev_end = data_start;
    for (i = 0; i < count; i++) {
        const uint8_t *e = b + THPK_HEADER_BYTES + (size_t)i * THPK_ENTRY_BYTES;
        uint64_t off = thpk__r64(e), len = thpk__r64(e + 8);
        uint32_t noff = thpk__r32(e + 24), nlen = thpk__r32(e + 28);
        const char *name;
        if ((uint64_t)noff + nlen + 1 > names_bytes) { thpk__err(err, errcap, "entry %u: name outside the name table", (unsigned)i); return 0; }
        name = (const char *)b + THPK_HEADER_BYTES + (size_t)count * THPK_ENTRY_BYTES + noff;
        if (name[nlen] != 0 || !thpk_name_valid(name, nlen)) { thpk__err(err, errcap, "entry %u: bad name", (unsigned)i); return 0; }
        if (prev_name && thpk__cmp(prev_name, prev_len, name, nlen) >= 0) {
            thpk__err(err, errcap, "entry %u '%s': names out of order or repeated", (unsigned)i, name); return 0;
        }
        if (off < prev_end) { thpk__err(err, errcap, "'%s': data overlaps the index or the previous file", name); return 0; }
        if (off > (uint64_t)size || len > (uint64_t)size - off) {
            thpk__err(err, errcap, "'%s': %llu bytes at %llu run past the end of the archive", name, (unsigned long long)len, (unsigned long long)off);
            return 0;
        }
        prev_end = off + len;
        prev_name = name;
        prev_len = nlen;
    }
    a->bytes = b;
    a->size = size;
    a->count = count;
    a->index = b + THPK_HEADER_BYTES;
    a->names = (const char *)b + THPK_HEADER_BYTES + (size_t)count * THPK_ENTRY_BYTES;
    return 1;
}

int thpk_open_file(thpk_archive *a, const char *path, char *err, size_t errcap)
{
    FILE *f;
    long n;
    uint8_t *buf;
    memset(a, 0, sizeof *a);
    f = fopen(path, "rb");
    if (!f) { thpk__err(err, errcap, "cannot open (%s)", strerror(errno)); return 0; }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f); thpk__err(err, errcap, "cannot read (not a regular file?)"); return 0;
    }
    buf = (uint8_t *)THPK_MALLOC(n > 0 ? (size_t)n : 1);
    if (!buf) { fclose(f); thpk__err(err, errcap, "out of memory for %ld bytes", n); return 0; }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { THPK_FREE(buf); fclose(f); thpk__err(err, errcap, "cannot read all %ld bytes", n); return 0; }
    fclose(f);
    if (!thpk_open_memory(a, buf, (size_t)n, err, errcap)) { THPK_FREE(buf); return 0; }
    a->owned = buf;
    return 1;
}

void thpk_close(thpk_archive *a)
{
    if (a->owned) THPK_FREE(a->owned);
    memset(a, 0, sizeof *a);
}

const char *thpk_name(const thpk_archive *a, int i)
{
    if (i < 0 || (uint32_t)i >= a->count) return NULL;
    return a->names + thpk__r32(a->index + (size_t)i * THPK_ENTRY_BYTES + 24);
}

uint64_t thpk_size(const thpk_archive *a, int i)
{
    if (i < 0 || (uint32_t)i >= a->count) return 0;
    return thpk__r64(a->index + (size_t)i * THPK_ENTRY_BYTES + 8);
}

int thpk_find(const thpk_archive *a, const char *name)
{
    size_t len = name ? strlen(name) : 0;
    uint32_t lo = 0, hi = a->count;
    if (!name) return -1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const uint8_t *e = a->index + (size_t)mid * THPK_ENTRY_BYTES;
        int c = thpk__cmp(a->names + thpk__r32(e + 24), thpk__r32(e + 28), name, len);
        if (c == 0) return (int)mid;
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return -1;
}

const void *thpk_get(const thpk_archive *a, int i, size_t *size, char *err, size_t errcap)
{
    const uint8_t *e, *p;
    uint64_t len;
    if (size) *size = 0;
    if (i < 0 || (uint32_t)i >= a->count) { thpk__err(err, errcap, "no entry %d in the archive", i); return NULL; }
    e = a->index + (size_t)i * THPK_ENTRY_BYTES;
    p = a->bytes + (size_t)thpk__r64(e);          /* bounds checked when the archive was opened */
    len = thpk__r64(e + 8);
    if (thpk_hash(p, (size_t)len, 0) != thpk__r64(e + 16)) {
        thpk__err(err, errcap, "'%s' is damaged inside the archive (check mismatch)", thpk_name(a, i));
        return NULL;
    }
    if (size) *size = (size_t)len;
    return p;
}

/* ---------------------------------------------------------------- writing */
void thpk_writer_init(thpk_writer *w) { memset(w, 0, sizeof *w); }

void thpk_writer_free(thpk_writer *w)
{
    int i;
    for (i = 0; i < w->count; i++) { THPK_FREE(w->items[i].name); THPK_FREE(w->items[i].data); }
    THPK_FREE(w->items);
    memset(w, 0, sizeof *w);
}

int thpk_writer_add(thpk_writer *w, const char *name, const void *data, size_t size, char *err, size_t errcap)
{
    size_t nlen = name ? strlen(name) : 0;
    thpk__item it;
    int i;
    if (!thpk_name_valid(name, nlen)) { thpk__err(err, errcap, "'%s' is not a valid archive name", name ? name : "(null)"); return 0; }
    for (i = 0; i < w->count; i++)
        if (strcmp(w->items[i].name, name) == 0) { thpk__err(err, errcap, "'%s' added twice", name); return 0; }
    if (w->count == w->cap) {
        int ncap = w->cap ? w->cap * 2 : 16;
        thpk__item *n = (thpk__item *)THPK_REALLOC(w->items, (size_t)ncap * sizeof *n);
        if (!n) { thpk__err(err, errcap, "out of memory"); return 0; }
        w->items = n;
        w->cap = ncap;
    }
    it.name = (char *)THPK_MALLOC(nlen + 1);
    it.data = (uint8_t *)THPK_MALLOC(size ? size : 1);
    it.size = size;
    if (!it.name || !it.data) { THPK_FREE(it.name); THPK_FREE(it.data); thpk__err(err, errcap, "out of memory"); return 0; }
    memcpy(it.name, name, nlen + 1);
    if (size) memcpy(it.data, data, size);
    w->items[w->count++] = it;
    return 1;
}

int thpk_writer_add_file(thpk_writer *w, const char *name, const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    long n;
    uint8_t *buf;
    int ok;
    if (!f) { thpk__err(err, errcap, "%s: cannot open (%s)", path, strerror(errno)); return 0; }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f); thpk__err(err, errcap, "%s: cannot read", path); return 0;
    }
    buf = (uint8_t *)THPK_MALLOC(n > 0 ? (size_t)n : 1);
    if (!buf) { fclose(f); thpk__err(err, errcap, "%s: out of memory", path); return 0; }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { THPK_FREE(buf); fclose(f); thpk__err(err, errcap, "%s: cannot read", path); return 0; }
    fclose(f);
    ok = thpk_writer_add(w, name, buf, (size_t)n, err, errcap);
    THPK_FREE(buf);
    return ok;
}

static int thpk__item_cmp(const void *x, const void *y)
{
    const thpk__item *a = (const thpk__item *)x, *b = (const thpk__item *)y;
    return thpk__cmp(a->name, strlen(a->name), b->name, strlen(b->name));
}

void *thpk_writer_build(const thpk_writer *w, size_t *size, char *err, size_t errcap)
{
    thpk__item *sorted;
    uint64_t names_bytes = 0, index_bytes, total;
    uint8_t *out;
    size_t pos, npos = 0;
    int i;
    if (size) *size = 0;
    sorted = (thpk__item *)THPK_MALLOC((size_t)(w->count ? w->count : 1) * sizeof *sorted);
    if (!sorted) { thpk__err(err, errcap, "out of memory"); return NULL; }
    if (w->count) memcpy(sorted, w->items, (size_t)w->count * sizeof *sorted);
    qsort(sorted, (size_t)w->count, sizeof *sorted, thpk__item_cmp);
    for (i = 0; i < w->count; i++) names_bytes += strlen(sorted[i].name) + 1;
    index_bytes = (uint64_t)w->count * THPK_ENTRY_BYTES + names_bytes;
    if (index_bytes > 0xFFFFFFFFu) { THPK_FREE(sorted); thpk__err(err, errcap, "too many names for one archive"); return NULL; }
    total = THPK_HEADER_BYTES + index_bytes;
    for (i = 0; i < w->count; i++) {
        total = (total + THPK_ALIGN - 1) / THPK_ALIGN * THPK_ALIGN;
        total += sorted[i].size;
    }
    if (total > (uint64_t)(size_t)-1) { THPK_FREE(sorted); thpk__err(err, errcap, "archive too big for memory"); return NULL; }
    out = (uint8_t *)THPK_MALLOC((size_t)total);
    if (!out) { THPK_FREE(sorted); thpk__err(err, errcap, "out of memory for %llu bytes", (unsigned long long)total); return NULL; }
    memset(out, 0, (size_t)total);
    memcpy(out, thpk__magic, 8);
    thpk__w32(out + 8, THPK_VERSION);
    thpk__w32(out + 12, (uint32_t)w->count);
    thpk__w32(out + 16, (uint32_t)index_bytes);
    thpk__w64(out + 24, total);
    pos = (size_t)(THPK_HEADER_BYTES + index_bytes);
    for (i = 0; i < w->count; i++) {
        uint8_t *e = out + THPK_HEADER_BYTES + (size_t)i * THPK_ENTRY_BYTES;
        char *names = (char *)out + THPK_HEADER_BYTES + (size_t)w->count * THPK_ENTRY_BYTES;
        size_t nlen = strlen(sorted[i].name);
        pos = (pos + THPK_ALIGN - 1) / THPK_ALIGN * THPK_ALIGN;
        thpk__w64(e, pos);
        thpk__w64(e + 8, sorted[i].size);
        thpk__w64(e + 16, thpk_hash(sorted[i].data, sorted[i].size, 0));
        thpk__w32(e + 24, (uint32_t)npos);
        thpk__w32(e + 28, (uint32_t)nlen);
        memcpy(names + npos, sorted[i].name, nlen + 1);
        npos += nlen + 1;
        if (sorted[i].size) memcpy(out + pos, sorted[i].data, sorted[i].size);
        pos += sorted[i].size;
    }
    thpk__w32(out + 20, (uint32_t)thpk_hash(out + THPK_HEADER_BYTES, (size_t)index_bytes, 0));
    THPK_FREE(sorted);
    if (size) *size = (size_t)total;
    return out;
}

int thpk_writer_save(const thpk_writer *w, const char *path, char *err, size_t errcap)
{
    size_t n = 0, plen = strlen(path);
    void *bytes = thpk_writer_build(w, &n, err, errcap);
    char *tmp;
    FILE *f;
    int ok;
    if (!bytes) return 0;
    tmp = (char *)THPK_MALLOC(plen + 5);
    if (!tmp) { THPK_FREE(bytes); thpk__err(err, errcap, "out of memory"); return 0; }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    f = fopen(tmp, "wb");
    if (!f) { thpk__err(err, errcap, "%s: cannot create (%s)", tmp, strerror(errno)); THPK_FREE(tmp); THPK_FREE(bytes); return 0; }
    ok = fwrite(bytes, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    THPK_FREE(bytes);
    if (!ok) { thpk__err(err, errcap, "%s: write failed (disk full?)", tmp); remove(tmp); THPK_FREE(tmp); return 0; }
    if (rename(tmp, path) != 0) {
        remove(path);                         /* Windows' rename refuses to replace a file */
        if (rename(tmp, path) != 0) { thpk__err(err, errcap, "%s: cannot rename into place (%s)", path, strerror(errno)); remove(tmp); THPK_FREE(tmp); return 0; }
    }
    THPK_FREE(tmp);
    return 1;
}

#ifdef __cplusplus
}
#endif
#endif /* TH_PACK_IMPLEMENTED */
#endif /* TH_PACK_IMPLEMENTATION */

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
