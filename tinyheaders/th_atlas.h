/* th_atlas.h - the sprite atlas manifest: reading, writing and comparing it.

   th_atlas.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     The atlas packer (tools/atlas_pack) writes pages (PNG images) plus one text manifest that says
     where every sprite is; the host reads it. This header is the one place that knows the format,
     shared by both. It does no image work.

   USE
     #define TH_ATLAS_IMPLEMENTATION   (in exactly one C or C++ file)
     #include "th_atlas.h"
     C99 or C++. Allocates with THAL_MALLOC/THAL_REALLOC/THAL_FREE (default malloc/realloc/free).

   EXAMPLE
     thal_manifest m;
     char err[256];
     thal_init(&m);
     if (!thal_load(&m, "build/assets/atlas.txt", err, sizeof err)) printf("atlas: %s\n", err);
     for (int i = 0; i < m.sprite_count; i++)
         if (m.sprites[i].error) printf("%s: %s\n", m.sprites[i].file, m.sprites[i].reason);
     thal_free(&m);

   THE FORMAT (text, UTF-8, one record per line, fields separated by one TAB)
     th_atlas  1                                   first line: magic and version
     settings  <page_max> <padding>                packer settings the pages were made with
     page      <index> <w> <h> <hash> <file>        index 0, 1, 2... in order; file relative to the
                                                   manifest; hash = 16 hex digits of the pixels
     sprite    <id> <page> <x> <y> <w> <h> <pivot_x> <pivot_y> <name> <file>
                                                   id = 8 hex digits of thal_id(name); x, y, w, h the
                                                   sprite's own pixels in the page (the padding lies
                                                   around them); pivot 0..1 in the sprite's box;
                                                   file = source image relative to the source dir
     error     <id> <name> <file> <reason>          a source image that could not be packed
     source    <size> <mtime_ns> <path>             every input file the pages were built from
     end       <count>                             last line: how many records came before it
   Lines starting with '#' are comments. Names and paths cannot hold TABs or line breaks (the
   writer replaces them with spaces). A manifest without its end line is rejected as truncated.

   IDS
     thal_id(name) is FNV-1a 32 of the name, with 0 mapped to 1 (0 means "no sprite"): the same
     function as game_sprite_id() in platform/include/game_api.h.

   MEMORY
     A manifest is thal_init'ed once; thal_parse/thal_load free what it held before filling it again,
     and leave it empty on failure. thal_free releases everything.

   ERRORS
     Functions that can fail return 0 and write a one-line reason into err (which may be NULL).
*/
#ifndef TH_ATLAS_H
#define TH_ATLAS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define THAL_VERSION  1
#define THAL_NAME_MAX 256

typedef struct thal_page {
    int      w, h;
    uint64_t hash;
    char     file[THAL_NAME_MAX];
} thal_page;

typedef struct thal_sprite {
    uint32_t id;
    int      page;
    int      x, y, w, h;
    float    pivot_x, pivot_y;
    int      error;                   /* 1: not packed; reason says why */
    char     name[THAL_NAME_MAX];
    char     file[THAL_NAME_MAX];
    char     reason[THAL_NAME_MAX];
} thal_sprite;

typedef struct thal_source {
    int64_t size;
    int64_t mtime_ns;
    char    path[THAL_NAME_MAX];
} thal_source;

typedef struct thal_manifest {
    int         page_max, padding;
    thal_page   *pages;   int page_count,   page_cap;
    thal_sprite *sprites; int sprite_count, sprite_cap;
    thal_source *sources; int source_count, source_cap;
} thal_manifest;

uint32_t    thal_id(const char *name);                                   /* FNV-1a, never 0 */
uint64_t    thal_hash(const void *data, size_t bytes, uint64_t seed);    /* content hash for pages */
void        thal_init(thal_manifest *m);                                  /* empty manifest */
void        thal_free(thal_manifest *m);                                  /* frees and re-inits */
thal_page   *thal_add_page(thal_manifest *m);                              /* zeroed; NULL when out of memory */
thal_sprite *thal_add_sprite(thal_manifest *m);
thal_source *thal_add_source(thal_manifest *m);
const thal_sprite *thal_find(const thal_manifest *m, uint32_t id);         /* linear search; NULL if absent */
int         thal_parse(thal_manifest *m, const char *text, size_t len, char *err, size_t errcap);
int         thal_load(thal_manifest *m, const char *path, char *err, size_t errcap);
char       *thal_format(const thal_manifest *m, size_t *len);             /* THAL_MALLOC'd text; NULL on OOM */
int         thal_save(const thal_manifest *m, const char *path, char *err, size_t errcap); /* via <path>.tmp + rename */
int         thal_same_sources(const thal_manifest *a, const thal_manifest *b); /* settings and source lists equal */

#ifdef __cplusplus
}
#endif
#endif /* TH_ATLAS_H */

#ifdef TH_ATLAS_IMPLEMENTATION
#ifndef TH_ATLAS_IMPLEMENTED
#define TH_ATLAS_IMPLEMENTED

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef THAL_MALLOC
#define THAL_MALLOC(n) malloc(n)
#define THAL_REALLOC(p, n) realloc(p, n)
#define THAL_FREE(p) free(p)
#endif

#ifdef __cplusplus
extern "C" {
#endif

uint32_t thal_id(const char *name)
{
    uint32_t h = 2166136261u;
    while (*name) { h ^= (uint8_t)*name++; h *= 16777619u; }
    return h ? h : 1u;
}

uint64_t thal_hash(const void *data, size_t bytes, uint64_t seed)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t h = 14695981039346656037ull ^ seed;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    h ^= (uint64_t)bytes;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 32);
}

void thal_init(thal_manifest *m)
{
    memset(m, 0, sizeof *m);
}

void thal_free(thal_manifest *m)
{
    THAL_FREE(m->pages);
    THAL_FREE(m->sprites);
    THAL_FREE(m->sources);
    thal_init(m);
}

static void *thal__grow(void **arr, int *count, int *cap, size_t elem)
{
    unsigned char *p;
    if (*count >= *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        void *n = THAL_REALLOC(*arr, (size_t)ncap * elem);
        if (!n) return NULL;
        *arr = n;
        *cap = ncap;
    }
    p = (unsigned char *)*arr + (size_t)(*count)++ * elem;
    memset(p, 0, elem);
    return p;
}

thal_page *thal_add_page(thal_manifest *m)
{
    return (thal_page *)thal__grow((void **)&m->pages, &m->page_count, &m->page_cap, sizeof(thal_page));
}

thal_sprite *thal_add_sprite(thal_manifest *m)
{
    return (thal_sprite *)thal__grow((void **)&m->sprites, &m->sprite_count, &m->sprite_cap, sizeof(thal_sprite));
}

thal_source *thal_add_source(thal_manifest *m)
{
    return (thal_source *)thal__grow((void **)&m->sources, &m->source_count, &m->source_cap, sizeof(thal_source));
}

const thal_sprite *thal_find(const thal_manifest *m, uint32_t id)
{
    int i;
    for (i = 0; i < m->sprite_count; i++) if (m->sprites[i].id == id) return &m->sprites[i];
    return NULL;
}

static void thal__err(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    if (!err || !cap) return;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

static int thal__int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    long long v;
    if (!*s) return 0;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end || errno || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int thal__hex(const char *s, int digits, uint64_t *out)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < digits; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0;
        v = v << 4 | (uint64_t)d;
    }
    if (s[digits]) return 0;
    *out = v;
    return 1;
}

static int thal__float(const char *s, float *out)
{
    char *end;
    double v;
    if (!*s) return 0;
    v = strtod(s, &end);
    if (*end || !(v > -1e6 && v < 1e6)) return 0;
    *out = (float)v;
    return 1;
}

static int thal__str(const char *s, char *dst)
{
    size_t n = strlen(s);
    if (n >= THAL_NAME_MAX) return 0;
    memcpy(dst, s, n + 1);
    return 1;
}

#define THAL__MAX_FIELDS 12

int thal_parse(thal_manifest *m, const char *text, size_t len, char *err, size_t errcap)
{
    char line[4 * THAL_NAME_MAX + 256];
    char *f[THAL__MAX_FIELDS];
    size_t at = 0;
    int lineno = 0, records = 0, seen_header = 0, seen_end = 0, i;
    thal_free(m);
    while (at < len) {
        size_t e = at, n;
        int nf = 0;
        long long v[8];
        uint64_t hx;
        char *c;
        while (e < len && text[e] != '\n') e++;
        n = e - at;
        lineno++;
        if (n >= sizeof line) { thal__err(err, errcap, "line %d: too long", lineno); goto fail; }
        memcpy(line, text + at, n);
        line[n] = 0;
        at = e + 1;
        if (n && line[n - 1] == '\r') line[--n] = 0;
        if (!n || line[0] == '#') continue;
        if (seen_end) { thal__err(err, errcap, "line %d: text after the end line", lineno); goto fail; }
        if (memchr(line, 0, n)) { thal__err(err, errcap, "line %d: NUL byte", lineno); goto fail; }
        f[nf++] = line;
        for (c = line; *c; c++)
            if (*c == '\t') {
                *c = 0;
                if (nf == THAL__MAX_FIELDS) { thal__err(err, errcap, "line %d: too many fields", lineno); goto fail; }
                f[nf++] = c + 1;
            }
        if (!seen_header) {
            if (nf != 2 || strcmp(f[0], "th_atlas") != 0) { thal__err(err, errcap, "not an atlas manifest (no th_atlas header)"); goto fail; }
            if (!thal__int(f[1], 1, 1000, v) || v[0] != THAL_VERSION) { thal__err(err, errcap, "unsupported manifest version '%s'", f[1]); goto fail; }
            seen_header = 1;
            continue;
        }
        if (!strcmp(f[0], "end")) {
            if (nf != 2 || !thal__int(f[1], 0, 1 << 30, v)) { thal__err(err, errcap, "line %d: bad end record", lineno); goto fail; }
            if (v[0] != records) { thal__err(err, errcap, "line %d: end says %lld records, found %d", lineno, v[0], records); goto fail; }
            seen_end = 1;
            continue;
        }
        records++;
        if (!strcmp(f[0], "settings")) {
            if (nf != 3 || !thal__int(f[1], 1, 1 << 16, &v[0]) || !thal__int(f[2], 0, 64, &v[1])) { thal__err(err, errcap, "line %d: bad settings record", lineno); goto fail; }
            m->page_max = (int)v[0];
            m->padding = (int)v[1];
        } else if (!strcmp(f[0], "page")) {
            thal_page *p;
            if (nf != 6 || !thal__int(f[1], 0, 1 << 16, &v[0]) || !thal__int(f[2], 1, 1 << 16, &v[1]) ||
                !thal__int(f[3], 1, 1 << 16, &v[2]) || !thal__hex(f[4], 16, &hx) || !f[5][0]) {
                thal__err(err, errcap, "line %d: bad page record", lineno); goto fail;
            }
            if (v[0] != m->page_count) { thal__err(err, errcap, "line %d: page %lld out of order", lineno, v[0]); goto fail; }
            if (!(p = thal_add_page(m))) { thal__err(err, errcap, "out of memory"); goto fail; }
            p->w = (int)v[1]; p->h = (int)v[2]; p->hash = hx;
            if (!thal__str(f[5], p->file)) { thal__err(err, errcap, "line %d: file name too long", lineno); goto fail; }
        } else if (!strcmp(f[0], "sprite")) {
            thal_sprite *s;
            if (nf != 11 || !thal__hex(f[1], 8, &hx) || !thal__int(f[2], 0, 1 << 16, &v[0]) ||
                !thal__int(f[3], 0, 1 << 16, &v[1]) || !thal__int(f[4], 0, 1 << 16, &v[2]) ||
                !thal__int(f[5], 1, 1 << 16, &v[3]) || !thal__int(f[6], 1, 1 << 16, &v[4])) {
                thal__err(err, errcap, "line %d: bad sprite record", lineno); goto fail;
            }
            if (!(s = thal_add_sprite(m))) { thal__err(err, errcap, "out of memory"); goto fail; }
            s->id = (uint32_t)hx; s->page = (int)v[0];
            s->x = (int)v[1]; s->y = (int)v[2]; s->w = (int)v[3]; s->h = (int)v[4];
            if (!thal__float(f[7], &s->pivot_x) || !thal__float(f[8], &s->pivot_y)) { thal__err(err, errcap, "line %d: bad pivot", lineno); goto fail; }
            if (!thal__str(f[9], s->name) || !thal__str(f[10], s->file) || !s->name[0]) { thal__err(err, errcap, "line %d: bad sprite name or file", lineno); goto fail; }
        } else if (!strcmp(f[0], "error")) {
            thal_sprite *s;
            if (nf != 5 || !thal__hex(f[1], 8, &hx)) { thal__err(err, errcap, "line %d: bad error record", lineno); goto fail; }
            if (!(s = thal_add_sprite(m))) { thal__err(err, errcap, "out of memory"); goto fail; }
            s->id = (uint32_t)hx; s->error = 1; s->page = -1;
            if (!thal__str(f[2], s->name) || !thal__str(f[3], s->file) || !thal__str(f[4], s->reason)) { thal__err(err, errcap, "line %d: field too long", lineno); goto fail; }
        } else if (!strcmp(f[0], "source")) {
            thal_source *s;
            if (nf != 4 || !thal__int(f[1], 0, INT64_MAX, &v[0]) || !thal__int(f[2], INT64_MIN, INT64_MAX, &v[1])) { thal__err(err, errcap, "line %d: bad source record", lineno); goto fail; }
            if (!(s = thal_add_source(m))) { thal__err(err, errcap, "out of memory"); goto fail; }
            s->size = v[0]; s->mtime_ns = v[1];
            if (!thal__str(f[3], s->path)) { thal__err(err, errcap, "line %d: path too long", lineno); goto fail; }
        } else {
            thal__err(err, errcap, "line %d: unknown record '%.40s'", lineno, f[0]);
            goto fail;
        }
    }
    if (!seen_header) { thal__err(err, errcap, "empty file"); goto fail; }
    if (!seen_end) { thal__err(err, errcap, "truncated (no end line)"); goto fail; }
    for (i = 0; i < m->sprite_count; i++) {
        const thal_sprite *s = &m->sprites[i];
        const thal_page *p;
        if (s->error) continue;
        if (s->page >= m->page_count) { thal__err(err, errcap, "sprite '%s' is on page %d of %d", s->name, s->page, m->page_count); goto fail; }
        p = &m->pages[s->page];
        if (s->x + s->w > p->w || s->y + s->h > p->h) { thal__err(err, errcap, "sprite '%s' lies outside its page", s->name); goto fail; }
    }
    return 1;
fail:
    thal_free(m);
    return 0;
}

int thal_load(thal_manifest *m, const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    int ok;
    thal_free(m);
    if (!f) { thal__err(err, errcap, "cannot open (%s)", strerror(errno)); return 0; }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f); thal__err(err, errcap, "cannot read"); return 0;
    }
    buf = (char *)THAL_MALLOC((size_t)n + 1);
    if (!buf) { fclose(f); thal__err(err, errcap, "out of memory"); return 0; }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { THAL_FREE(buf); fclose(f); thal__err(err, errcap, "cannot read"); return 0; }
    fclose(f);
    buf[n] = 0;
    ok = thal_parse(m, buf, (size_t)n, err, errcap);
    THAL_FREE(buf);
    return ok;
}

typedef struct thal__buf { char *p; size_t len, cap; int oom; } thal__buf;

static void thal__put(thal__buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->oom) return;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) { b->oom = 1; return; }
        if ((size_t)n < room) { b->len += (size_t)n; return; }
        {
            size_t ncap = b->cap ? b->cap * 2 : 4096;
            char *np;
            while (ncap - b->len <= (size_t)n) ncap *= 2;
            np = (char *)THAL_REALLOC(b->p, ncap);
            if (!np) { b->oom = 1; return; }
            b->p = np;
            b->cap = ncap;
        }
    }
}

/* A copy of s that fits in one field. */
static const char *thal__clean(const char *s, char *tmp)
{
    size_t i;
    for (i = 0; s[i] && i < THAL_NAME_MAX - 1; i++) tmp[i] = (s[i] == '\t' || s[i] == '\n' || s[i] == '\r') ? ' ' : s[i];
    tmp[i] = 0;
    return tmp;
}

char *thal_format(const thal_manifest *m, size_t *len)
{
    thal__buf b = { NULL, 0, 0, 0 };
    char t1[THAL_NAME_MAX], t2[THAL_NAME_MAX], t3[THAL_NAME_MAX];
    int i, records = 0;
    thal__put(&b, "th_atlas\t%d\n", THAL_VERSION);
    thal__put(&b, "# written by atlas_pack; format described in tinyheaders/th_atlas.h\n");
    if (m->page_max > 0) { thal__put(&b, "settings\t%d\t%d\n", m->page_max, m->padding); records++; }   /* absent: never packed */
    for (i = 0; i < m->page_count; i++, records++) {
        const thal_page *p = &m->pages[i];
        thal__put(&b, "page\t%d\t%d\t%d\t%016llx\t%s\n", i, p->w, p->h, (unsigned long long)p->hash, thal__clean(p->file, t1));
    }
    for (i = 0; i < m->sprite_count; i++, records++) {
        const thal_sprite *s = &m->sprites[i];
        if (s->error)
            thal__put(&b, "error\t%08x\t%s\t%s\t%s\n", (unsigned)s->id, thal__clean(s->name, t1), thal__clean(s->file, t2),
                     thal__clean(s->reason[0] ? s->reason : "unknown", t3));
        else
            thal__put(&b, "sprite\t%08x\t%d\t%d\t%d\t%d\t%d\t%.9g\t%.9g\t%s\t%s\n", (unsigned)s->id, s->page, s->x, s->y, s->w, s->h,
                     (double)s->pivot_x, (double)s->pivot_y, thal__clean(s->name, t1), thal__clean(s->file, t2));
    }
    for (i = 0; i < m->source_count; i++, records++) {
        const thal_source *s = &m->sources[i];
        thal__put(&b, "source\t%lld\t%lld\t%s\n", (long long)s->size, (long long)s->mtime_ns, thal__clean(s->path, t1));
    }
    thal__put(&b, "end\t%d\n", records);
    if (b.oom) { THAL_FREE(b.p); return NULL; }
    if (len) *len = b.len;
    return b.p;
}

int thal_save(const thal_manifest *m, const char *path, char *err, size_t errcap)
{
    size_t len, plen = strlen(path);
    char *text = thal_format(m, &len), *tmp;
    FILE *f;
    int ok;
    if (!text) { thal__err(err, errcap, "out of memory"); return 0; }
    tmp = (char *)THAL_MALLOC(plen + 5);
    if (!tmp) { THAL_FREE(text); thal__err(err, errcap, "out of memory"); return 0; }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp", 5);
    f = fopen(tmp, "wb");
    if (!f) { thal__err(err, errcap, "cannot write %s (%s)", tmp, strerror(errno)); THAL_FREE(text); THAL_FREE(tmp); return 0; }
    ok = fwrite(text, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
#ifdef _WIN32
    if (ok) remove(path);
#endif
    if (ok && rename(tmp, path) != 0) { thal__err(err, errcap, "cannot rename %s to %s (%s)", tmp, path, strerror(errno)); ok = 0; }
    else if (!ok) thal__err(err, errcap, "cannot write %s (%s)", tmp, strerror(errno));
    if (!ok) remove(tmp);
    THAL_FREE(text);
    THAL_FREE(tmp);
    return ok;
}

int thal_same_sources(const thal_manifest *a, const thal_manifest *b)
{
    int i;
    if (a->page_max != b->page_max || a->padding != b->padding || a->source_count != b->source_count) return 0;
    for (i = 0; i < a->source_count; i++) {
        const thal_source *x = &a->sources[i], *y = &b->sources[i];
        if (x->size != y->size || x->mtime_ns != y->mtime_ns || strcmp(x->path, y->path) != 0) return 0;
    }
    return 1;
}

#ifdef __cplusplus
}
#endif
#endif /* TH_ATLAS_IMPLEMENTED */
#endif /* TH_ATLAS_IMPLEMENTATION */

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
