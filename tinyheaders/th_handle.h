/* th_handle.h - generational handles: how entities refer to each other.

   th_handle.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     A thh_pool hands out thh_handle values for slots 0..capacity-1. A handle
     packs the slot index (low TH_HANDLE_INDEX_BITS bits) and the slot's
     generation (the remaining high bits). Freeing a slot bumps its
     generation, so every handle to the old occupant is stale: thh_valid says
     0 and thh_free ignores it, even after the slot has been reused.

     The value 0 is never a valid handle ("null handle"): generations start
     at 1 and skip 0 when they wrap, so a zeroed struct holding handles holds
     only null handles.

     Records themselves live in the caller's parallel array of `capacity`
     entries indexed by thh_index(h). The pool also keeps the live handles
     packed in a dense array for iteration: thh_count() entries read with
     thh_at(pool, i).

     All state sits in the struct and the caller's buffer, as indices and
     generations; the struct points only into that buffer, so it may live in
     a hot-reloaded memory block.

   USE
     Header-only: every function is static inline, there is no
     IMPLEMENTATION macro. Include it anywhere, in C99 or C++.
     Dependencies: <stdint.h>, <stddef.h>.

     thh_pool_bytes(capacity)          bytes of buffer to provide (4-byte aligned)
     thh_pool_init(pool, mem, capacity)
     thh_alloc(pool)                   null handle when full
     thh_free(pool, h)                 1 when freed, 0 for a null/stale/foreign handle
     thh_valid(pool, h)                1 while h's slot holds the object h was made for
     thh_index(h)                      slot index for the parallel array; meaningful
                                       only for a valid handle (the null handle gives 0)
     thh_clear(pool)                   frees every slot, all handles become stale
     thh_null, thh_is_null, thh_equal, thh_generation, thh_dense_index

   ITERATION AND FREEING
     thh_free moves the last dense entry into the freed entry's place
     (swap-remove). To free while iterating, iterate backwards:

         for (uint32_t i = thh_count(&pool); i-- > 0;)
             if (is_dead(thh_index(thh_at(&pool, i)))) thh_free(&pool, thh_at(&pool, i));

   FIXED-CAPACITY POOL (plain values)
     THH_FIXED_POOL(capacity) is the body of a struct that holds a pool and its four arrays by value:
     no pointers, so it can be copied, snapshotted, and migrated by th_reflect.h (each array grows or
     shrinks on its own when the capacity changes). Name it once, pass &pool.head:

         typedef struct EntityPool THH_FIXED_POOL(2048) EntityPool;
         thh_fixed_init(&pool.head, 2048);
         thh_handle h = thh_fixed_alloc(&pool.head);

     thh_fixed_alloc/free/valid/count/at/clear mirror the functions above. After the struct was
     rewritten for a new capacity (grown: new slots zeroed; shrunk: cut), thh_fixed_rebuild(&head,
     capacity) makes it whole again: the live slots that still fit keep their index, generation and
     dense order, every other slot is free, and the free list is built anew.

   REUSE ORDER AND WRAP-AROUND
     Freed slots are reused first-in first-out, so a slot's generation only
     advances once every other free slot has been used. With G generation
     bits a handle can falsely become valid again after its slot has been
     freed exactly 2^G - 1 times (4095 with the default 20 index bits).

   CUSTOMIZATION
     TH_HANDLE_INDEX_BITS  index bits, 1..30 (default 20: up to 1,048,576 slots);
                           capacity is clamped to 2^TH_HANDLE_INDEX_BITS

   EXAMPLE (compiled verbatim by tests/unit/test_th_base_c.c)

     #include "th_handle.h"

     typedef struct enemy { float hp; thh_handle target; } enemy;

     static int example_handle(void *mem, enemy *enemies) {
         thh_pool pool;
         thh_pool_init(&pool, mem, 64);       // mem holds thh_pool_bytes(64)
         thh_handle a = thh_alloc(&pool);
         thh_handle b = thh_alloc(&pool);
         enemies[thh_index(a)].hp = 10.0f;
         enemies[thh_index(a)].target = b;
         thh_free(&pool, b);
         int target_alive = thh_valid(&pool, enemies[thh_index(a)].target);
         return !target_alive && thh_count(&pool) == 1;
     }

   END EXAMPLE
*/
#ifndef TH_HANDLE_H
#define TH_HANDLE_H

#include <stdint.h>
#include <stddef.h>

#ifndef TH_HANDLE_INDEX_BITS
#define TH_HANDLE_INDEX_BITS 20
#endif

typedef char thh__index_bits_must_be_1_to_30[(TH_HANDLE_INDEX_BITS >= 1 && TH_HANDLE_INDEX_BITS <= 30) ? 1 : -1];

#define THH_INDEX_MASK     ((1u << TH_HANDLE_INDEX_BITS) - 1u)
#define THH_MAX_CAPACITY   (1u << TH_HANDLE_INDEX_BITS)
#define THH_MAX_GENERATION (0xFFFFFFFFu >> TH_HANDLE_INDEX_BITS)
#define THH_NONE           0xFFFFFFFFu

typedef struct thh_handle { uint32_t value; } thh_handle;

typedef struct thh_pool {
    uint32_t capacity;
    uint32_t count;             /* live handles, = length of the dense array */
    uint32_t free_head;         /* oldest free slot, THH_NONE when full */
    uint32_t free_tail;         /* newest free slot */
    uint32_t *generations;      /* per slot: current generation, 1..THH_MAX_GENERATION */
    uint32_t *next_free;        /* per free slot: next free slot in the queue */
    uint32_t *dense_to_sparse;  /* dense position -> slot */
    uint32_t *sparse_to_dense;  /* slot -> dense position, THH_NONE when free */
} thh_pool;

/* ---------------------------------------------------------------- handles */

static inline thh_handle thh_null(void) { thh_handle h; h.value = 0; return h; }
static inline int thh_is_null(thh_handle h) { return h.value == 0; }
static inline int thh_equal(thh_handle a, thh_handle b) { return a.value == b.value; }
static inline uint32_t thh_index(thh_handle h) { return h.value & THH_INDEX_MASK; }
static inline uint32_t thh_generation(thh_handle h) { return h.value >> TH_HANDLE_INDEX_BITS; }

static inline thh_handle thh__make(uint32_t index, uint32_t generation)
{
    thh_handle h;
    h.value = (generation << TH_HANDLE_INDEX_BITS) | (index & THH_INDEX_MASK);
    return h;
}

/* ---------------------------------------------------------------- pool */

static inline uint32_t thh__clamp_capacity(uint32_t capacity)
{
    return capacity > THH_MAX_CAPACITY ? THH_MAX_CAPACITY : capacity;
}

static inline size_t thh_pool_bytes(uint32_t capacity)
{
    return (size_t)thh__clamp_capacity(capacity) * 4u * sizeof(uint32_t);
}

/* Frees every slot; handles handed out before become stale. */
static inline void thh_clear(thh_pool *p)
{
    uint32_t i;
    for (i = 0; i < p->count; i++) {
        uint32_t slot = p->dense_to_sparse[i];
        uint32_t g = p->generations[slot];
        p->generations[slot] = g >= THH_MAX_GENERATION ? 1u : g + 1u;
    }
    for (i = 0; i < p->capacity; i++) {
        p->sparse_to_dense[i] = THH_NONE;
        p->next_free[i] = i + 1 < p->capacity ? i + 1 : THH_NONE;
    }
    p->count = 0;
    p->free_head = p->capacity ? 0u : THH_NONE;
    p->free_tail = p->capacity ? p->capacity - 1u : THH_NONE;
}

/* mem: thh_pool_bytes(capacity) bytes, 4-byte aligned. NULL mem gives capacity 0. */
static inline void thh_pool_init(thh_pool *p, void *mem, uint32_t capacity)
{
    uint32_t *words = (uint32_t *)mem;
    uint32_t i;
    p->capacity = mem ? thh__clamp_capacity(capacity) : 0u;
    p->generations = words;
    p->next_free = words ? words + p->capacity : NULL;
    p->dense_to_sparse = words ? words + 2u * (size_t)p->capacity : NULL;
    p->sparse_to_dense = words ? words + 3u * (size_t)p->capacity : NULL;
    for (i = 0; i < p->capacity; i++) {
        p->generations[i] = 1u;
        p->dense_to_sparse[i] = THH_NONE;
    }
    p->count = 0;
    thh_clear(p);
}

static inline int thh_valid(const thh_pool *p, thh_handle h)
{
    uint32_t index = thh_index(h);
    if (h.value == 0 || index >= p->capacity) return 0;
    return p->generations[index] == thh_generation(h) && p->sparse_to_dense[index] != THH_NONE;
}

static inline thh_handle thh_alloc(thh_pool *p)
{
    uint32_t slot = p->free_head;
    if (slot == THH_NONE) return thh_null();
    p->free_head = p->next_free[slot];
    if (p->free_head == THH_NONE) p->free_tail = THH_NONE;
    p->next_free[slot] = THH_NONE;
    p->sparse_to_dense[slot] = p->count;
    p->dense_to_sparse[p->count] = slot;
    p->count++;
    return thh__make(slot, p->generations[slot]);
}

static inline int thh_free(thh_pool *p, thh_handle h)
{
    uint32_t slot, dense, last_slot, g;
    if (!thh_valid(p, h)) return 0;
    slot = thh_index(h);
    dense = p->sparse_to_dense[slot];
    last_slot = p->dense_to_sparse[p->count - 1u];
    p->dense_to_sparse[dense] = last_slot;
    p->sparse_to_dense[last_slot] = dense;
    p->dense_to_sparse[p->count - 1u] = THH_NONE;
    p->count--;
    p->sparse_to_dense[slot] = THH_NONE;
    g = p->generations[slot];
    p->generations[slot] = g >= THH_MAX_GENERATION ? 1u : g + 1u;
    p->next_free[slot] = THH_NONE;
    if (p->free_tail == THH_NONE) p->free_head = slot;
    else p->next_free[p->free_tail] = slot;
    p->free_tail = slot;
    return 1;
}

static inline uint32_t thh_count(const thh_pool *p) { return p->count; }

/* The live handle at dense position i, null when i >= thh_count. */
static inline thh_handle thh_at(const thh_pool *p, uint32_t dense_i)
{
    uint32_t slot;
    if (dense_i >= p->count) return thh_null();
    slot = p->dense_to_sparse[dense_i];
    return thh__make(slot, p->generations[slot]);
}

/* Dense position of a live handle (for arrays kept parallel to the dense order), THH_NONE if not live. */
static inline uint32_t thh_dense_index(const thh_pool *p, thh_handle h)
{
    return thh_valid(p, h) ? p->sparse_to_dense[thh_index(h)] : THH_NONE;
}

/* ---------------------------------------------------------------- fixed-capacity pool */

typedef struct thh_fixed {
    uint32_t capacity, count, free_head, free_tail;
} thh_fixed;

/* The four arrays follow the head in this order, each `capacity` long. */
#define THH_FIXED_POOL(capacity) { thh_fixed head; uint32_t generations[capacity]; uint32_t next_free[capacity]; \
                                   uint32_t dense_to_sparse[capacity]; uint32_t sparse_to_dense[capacity]; }

static inline thh_pool thh__fixed_view(const thh_fixed *f)
{
    thh_pool p;
    uint32_t *w = (uint32_t *)(f + 1);
    p.capacity = f->capacity;
    p.count = f->count;
    p.free_head = f->free_head;
    p.free_tail = f->free_tail;
    p.generations = w;
    p.next_free = w + f->capacity;
    p.dense_to_sparse = w + 2u * (size_t)f->capacity;
    p.sparse_to_dense = w + 3u * (size_t)f->capacity;
    return p;
}

static inline void thh__fixed_keep(thh_fixed *f, const thh_pool *p)
{
    f->count = p->count;
    f->free_head = p->free_head;
    f->free_tail = p->free_tail;
}

static inline void thh_fixed_init(thh_fixed *f, uint32_t capacity)
{
    thh_pool p;
    f->capacity = thh__clamp_capacity(capacity);
    thh_pool_init(&p, f + 1, f->capacity);
    thh__fixed_keep(f, &p);
}

static inline thh_handle thh_fixed_alloc(thh_fixed *f)
{
    thh_pool p = thh__fixed_view(f);
    thh_handle h = thh_alloc(&p);
    thh__fixed_keep(f, &p);
    return h;
}

static inline int thh_fixed_free(thh_fixed *f, thh_handle h)
{
    thh_pool p = thh__fixed_view(f);
    int r = thh_free(&p, h);
    thh__fixed_keep(f, &p);
    return r;
}

static inline void thh_fixed_clear(thh_fixed *f)
{
    thh_pool p = thh__fixed_view(f);
    thh_clear(&p);
    thh__fixed_keep(f, &p);
}

static inline int thh_fixed_valid(const thh_fixed *f, thh_handle h)
{
    thh_pool p = thh__fixed_view(f);
    return thh_valid(&p, h);
}

static inline uint32_t thh_fixed_count(const thh_fixed *f) { return f->count; }

static inline thh_handle thh_fixed_at(const thh_fixed *f, uint32_t dense_i)
{
    thh_pool p = thh__fixed_view(f);
    return thh_at(&p, dense_i);
}

/* After the pool's struct was rewritten for `capacity` (any values in it; nothing is trusted that the
   arrays do not confirm): a slot below capacity is live if its dense entry points back at it, or - its
   dense entry cut off with a shrunk array - if its dense position is below the old count. Live slots keep
   their index and generation, so their handles stay valid; the dense order is kept (the cut-off ones
   follow in slot order); every other slot is free, in slot order. */
static inline void thh_fixed_rebuild(thh_fixed *f, uint32_t capacity)
{
    uint32_t i, k, n = 0, old_count = f->count;
    thh_pool p;
    f->capacity = thh__clamp_capacity(capacity);
    p = thh__fixed_view(f);
    for (i = 0; i < p.capacity; i++) {
        if (p.generations[i] == 0 || p.generations[i] > THH_MAX_GENERATION) p.generations[i] = 1u;
        p.next_free[i] = 0;   /* scratch until the free list is built: 1 = taken */
    }
    for (k = 0; k < old_count && k < p.capacity; k++) {
        uint32_t slot = p.dense_to_sparse[k];
        if (slot >= p.capacity || p.sparse_to_dense[slot] != k || p.next_free[slot]) continue;
        p.next_free[slot] = 1;
        p.dense_to_sparse[n++] = slot;
    }
    for (i = 0; i < p.capacity; i++) {
        uint32_t d = p.sparse_to_dense[i];
        if (p.next_free[i] || d < p.capacity || d >= old_count) continue;
        p.next_free[i] = 1;
        p.dense_to_sparse[n++] = i;
    }
    for (i = 0; i < p.capacity; i++) p.sparse_to_dense[i] = THH_NONE;
    for (k = 0; k < n; k++) p.sparse_to_dense[p.dense_to_sparse[k]] = k;
    for (k = n; k < p.capacity; k++) p.dense_to_sparse[k] = THH_NONE;
    p.count = n;
    p.free_head = p.free_tail = THH_NONE;
    for (i = 0; i < p.capacity; i++) {
        if (p.sparse_to_dense[i] != THH_NONE) continue;
        p.next_free[i] = THH_NONE;
        if (p.free_tail == THH_NONE) p.free_head = i;
        else p.next_free[p.free_tail] = i;
        p.free_tail = i;
    }
    thh__fixed_keep(f, &p);
}

#endif /* TH_HANDLE_H */

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
