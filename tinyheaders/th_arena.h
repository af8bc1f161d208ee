/* th_arena.h - a linear arena and a fixed-size pool over caller memory.

   th_arena.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     tha_arena hands out zero-filled, aligned pieces of one caller-provided
     buffer by bumping an offset. It never frees single pieces: save a mark
     and restore it (scratch memory), or reset the whole arena (per level).
     tha_pool hands out equal-size items from a caller-provided buffer and
     takes them back in any order. Free items are chained by INDEX, stored in
     the first 4 bytes of each free item, so a pool copied with its buffer
     (a snapshot of the memory block) stays consistent.

     Both structs point only into the buffer they manage: they may live in
     a hot-reloaded memory block. Nothing allocates; nothing aborts: a
     request that does not fit returns NULL and leaves the allocator as it
     was.

   USE
     Header-only: every function is static inline, there is no
     IMPLEMENTATION macro. Include it anywhere, in C99 or C++.
     Dependencies: <stdint.h>, <stddef.h>, <string.h>.

   ARENA
     tha_push(a, size, align)     align must be a power of two, or 0 for
                                  THA_DEFAULT_ALIGN. The address itself is
                                  aligned, whatever the alignment of the buffer.
     tha_push_struct(a, T)        one zeroed T
     tha_push_array(a, T, n)      n zeroed T; NULL if n * sizeof(T) overflows
     tha_sub_arena(parent, size)  a child arena carved from the parent (its
                                  buffer is aligned to THA_DEFAULT_ALIGN); an
                                  empty arena (every push NULL) if it does not fit
     tha_save / tha_restore       restore frees everything pushed since the
                                  mark; a mark above the current top is ignored
     tha_reset                    frees everything
     tha_remaining                bytes left (before alignment padding)
     high_water                   the largest `used` ever seen, for sizing budgets

   POOL
     tha_pool_bytes(item_size, capacity) is the buffer size to provide. Items
     are item_size apart (item_size is raised to 4 if smaller), so a buffer
     aligned for T with item_size = sizeof(T) gives aligned items.
     tha_pool_free accepts only pointers it handed out (others, and NULL, are
     ignored); freeing the same item twice is NOT detected and corrupts the
     free list. tha_pool_index/tha_pool_at convert between items and indices
     in [0, capacity) for parallel arrays and for storing references in
     persistent data. tha_pool_clear frees every item at once.

   CUSTOMIZATION
     THA_DEFAULT_ALIGN   alignment used for align 0 and sub-arenas (default 16)
     THA_ALIGNOF(T)      alignment of a type: alignof in C++, _Alignof in C11,
                         __alignof__ in GNU C99, an offsetof trick otherwise

   EXAMPLE (compiled verbatim by tests/unit/test_th_base_c.c)

     #include "th_arena.h"

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
         float *scratch = tha_push_array(&frame, float, 100);  // per-frame scratch
         scratch[99] = p->life;
         tha_restore(&frame, m);
         tha_pool_free(&particles, p);
         return particles.count == 0 && frame.used == 0;
     }

   END EXAMPLE
*/
#ifndef TH_ARENA_H
#define TH_ARENA_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#ifndef THA_DEFAULT_ALIGN
#define THA_DEFAULT_ALIGN 16
#endif

#ifndef THA_ALIGNOF
#  if defined(__cplusplus)
#    define THA_ALIGNOF(T) alignof(T)
#  elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#    define THA_ALIGNOF(T) _Alignof(T)
#  elif defined(__GNUC__) || defined(__clang__)
#    define THA_ALIGNOF(T) __alignof__(T)
#  else
#    define THA_ALIGNOF(T) offsetof(struct { char c; T t; }, t)
#  endif
#endif

typedef struct tha_arena { uint8_t *base; size_t size; size_t used; size_t high_water; } tha_arena;
typedef struct tha_mark { size_t used; } tha_mark;

typedef struct tha_pool {
    uint8_t *items;
    uint32_t item_size;
    uint32_t capacity;
    uint32_t count;        /* items currently allocated */
    uint32_t free_head;    /* index of the first freed item, THA_POOL_NONE if none */
    uint32_t fresh;        /* items [fresh, capacity) were never handed out */
} tha_pool;

#define THA_POOL_NONE 0xFFFFFFFFu

#define tha_push_struct(a, T) ((T *)tha_push((a), sizeof(T), THA_ALIGNOF(T)))
#define tha_push_array(a, T, n) ((T *)tha__push_n((a), sizeof(T), (size_t)(n), THA_ALIGNOF(T)))

/* ---------------------------------------------------------------- arena */

static inline void tha_arena_init(tha_arena *a, void *mem, size_t size)
{
    a->base = (uint8_t *)mem;
    a->size = mem ? size : 0;
    a->used = 0;
    a->high_water = 0;
}

static inline void *tha_push(tha_arena *a, size_t size, size_t align)
{
    size_t avail, pad;
    uint8_t *p;
    if (align == 0) align = THA_DEFAULT_ALIGN;
    if ((align & (align - 1)) != 0 || !a->base || size > (size_t)PTRDIFF_MAX) return NULL;
    avail = a->size - a->used;
    pad = (size_t)(0u - (uintptr_t)(a->base + a->used)) & (align - 1);
    if (pad > avail || size > avail - pad) return NULL;
    p = a->base + a->used + pad;
    a->used += pad + size;
    if (a->used > a->high_water) a->high_water = a->used;
    memset(p, 0, size);
    return p;
}

static inline void *tha__push_n(tha_arena *a, size_t elem_size, size_t n, size_t align)
{
    if (elem_size != 0 && n > (size_t)-1 / elem_size) return NULL;
    return tha_push(a, elem_size * n, align);
}

static inline size_t tha_remaining(const tha_arena *a) { return a->size - a->used; }

static inline tha_arena tha_sub_arena(tha_arena *parent, size_t size)
{
    tha_arena child;
    void *mem = tha_push(parent, size, THA_DEFAULT_ALIGN);
    tha_arena_init(&child, mem, size);
    return child;
}

static inline tha_mark tha_save(tha_arena *a) { tha_mark m; m.used = a->used; return m; }

static inline void tha_restore(tha_arena *a, tha_mark m)
{
    if (m.used <= a->used) a->used = m.used;
}

static inline void tha_reset(tha_arena *a) { a->used = 0; }

/* ---------------------------------------------------------------- pool */

static inline uint32_t tha__pool_stride(uint32_t item_size) { return item_size < 4u ? 4u : item_size; }

static inline size_t tha_pool_bytes(uint32_t item_size, uint32_t capacity)
{
    return (size_t)tha__pool_stride(item_size) * (size_t)capacity;
}

/* A NULL mem gives a pool of capacity 0. */
static inline void tha_pool_init(tha_pool *p, void *mem, uint32_t item_size, uint32_t capacity)
{
    p->items = (uint8_t *)mem;
    p->item_size = tha__pool_stride(item_size);
    p->capacity = mem ? capacity : 0;
    p->count = 0;
    p->free_head = THA_POOL_NONE;
    p->fresh = 0;
}

static inline void *tha_pool_at(const tha_pool *p, uint32_t index)
{
    if (index >= p->capacity) return NULL;
    return p->items + (size_t)index * p->item_size;
}

/* Index of an item of this pool, THA_POOL_NONE for any other pointer. */
static inline uint32_t tha_pool_index(const tha_pool *p, const void *item)
{
    uintptr_t at = (uintptr_t)item, start = (uintptr_t)p->items;
    uintptr_t off;
    if (!item || !p->items || at < start) return THA_POOL_NONE;
    off = at - start;
    if (off % p->item_size != 0 || off / p->item_size >= p->capacity) return THA_POOL_NONE;
    return (uint32_t)(off / p->item_size);
}

static inline void *tha_pool_alloc(tha_pool *p)
{
    uint32_t index;
    uint8_t *item;
    if (p->free_head != THA_POOL_NONE) {
        index = p->free_head;
        if (index >= p->capacity) return NULL;   /* corrupted list (double free, stray write) */
        memcpy(&p->free_head, p->items + (size_t)index * p->item_size, sizeof(uint32_t));
    } else if (p->fresh < p->capacity) {
        index = p->fresh++;
    } else {
        return NULL;
    }
    p->count++;
    item = p->items + (size_t)index * p->item_size;
    memset(item, 0, p->item_size);
    return item;
}

static inline void tha_pool_free(tha_pool *p, void *item)
{
    uint32_t index = tha_pool_index(p, item);
    if (index == THA_POOL_NONE || index >= p->fresh || p->count == 0) return;
    memcpy(item, &p->free_head, sizeof(uint32_t));
    p->free_head = index;
    p->count--;
}

static inline void tha_pool_clear(tha_pool *p)
{
    p->count = 0;
    p->free_head = THA_POOL_NONE;
    p->fresh = 0;
}

#endif /* TH_ARENA_H */

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
