/* core.cpp - what every module reads: the command line and the frame loop's counters; the session's slices. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

static Options   g_options;
static FrameLoop g_loop;

const Options *options(void) { return &g_options; }
Options   *options_edit(void) { return &g_options; }
FrameLoop *frame_loop(void) { return &g_loop; }

const char *host_root(void) { return g_options.root; }

/* the frame loop's counters across a hot restart: a session slice (below) */
typedef struct KeptFrame { uint64_t step, frame; } KeptFrame;

void frame_keep(void)
{
    KeptFrame *k = (KeptFrame *)session_slice("core.frame", sizeof(KeptFrame));
    k->step = g_loop.step;
    k->frame = g_loop.frame;
}

int frame_resume(void)
{
    if (!session_slice_kept("core.frame")) return 0;
    const KeptFrame *k = (const KeptFrame *)session_slice("core.frame", sizeof(KeptFrame));
    g_loop.step = k->step;
    g_loop.frame = k->frame;
    return 1;
}

/* ---------------------------------------------------------------- session slices */
/* In the session's area: a table of the slices by name, then their bytes (16-byte aligned). */
#define SLICE_MAX   32
#define SLICE_MAGIC 0x31736563696c73ull   /* "slices1" */
typedef struct SliceEntry { char name[32]; uint32_t offset, size; } SliceEntry;
typedef struct SliceTable { uint64_t magic; uint32_t count, end, kept_count; SliceEntry e[SLICE_MAX]; } SliceTable;

static struct {
    SliceTable *table;   /* NULL until restart.cpp attaches the area */
    size_t      cap;
    struct { char name[32]; size_t size; void *own; } asked[SLICE_MAX];   /* every slice asked for, and its memory */
    int         asked_count;
} g_slices;

static SliceEntry *slice_in_table(const char *name)
{
    SliceTable *t = g_slices.table;
    for (uint32_t i = 0; t && i < t->count; i++)
        if (!strncmp(t->e[i].name, name, sizeof t->e[i].name)) return &t->e[i];
    return NULL;
}

/* the slice's bytes in the area, appended (a copy of what the module wrote so far) when the table lacks it */
static void *slice_place(const char *name, size_t size, const void *own)
{
    SliceTable *t = g_slices.table;
    SliceEntry *e = slice_in_table(name);
    if (e) return e->size == size ? (uint8_t *)t + e->offset : NULL;   /* another size: another layout, not kept */
    uint32_t at = (t->end + 15u) & ~15u;
    if (t->count == SLICE_MAX || at + size > g_slices.cap) return NULL;
    e = &t->e[t->count++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->offset = at;
    e->size = (uint32_t)size;
    t->end = at + (uint32_t)size;
    memcpy((uint8_t *)t + at, own, size);
    return (uint8_t *)t + at;
}

void *session_slice(const char *name, size_t size)
{
    int i = 0;
    while (i < g_slices.asked_count && strncmp(g_slices.asked[i].name, name, sizeof g_slices.asked[i].name)) i++;
    if (i == g_slices.asked_count) {
        if (i == SLICE_MAX) abort();   /* a host with more kinds of kept state than this is a host bug */
        snprintf(g_slices.asked[i].name, sizeof g_slices.asked[i].name, "%s", name);
        g_slices.asked[i].size = size;
        g_slices.asked[i].own = calloc(1, size ? size : 1);
        if (!g_slices.asked[i].own) abort();
        g_slices.asked_count++;
    }
    void *in_session = g_slices.table ? slice_place(name, size, g_slices.asked[i].own) : NULL;
    return in_session ? in_session : g_slices.asked[i].own;
}

int session_slice_kept(const char *name)
{
    SliceEntry *e = slice_in_table(name);
    return e && (uint32_t)(e - g_slices.table->e) < g_slices.table->kept_count;
}

void session_slices_attach(void *area, size_t cap, int kept)
{
    SliceTable *t = (SliceTable *)area;
    if (!area || cap < sizeof *t) { g_slices.table = NULL; return; }
    if (!kept || t->magic != SLICE_MAGIC || t->count > SLICE_MAX || t->end > cap) {
        memset(t, 0, sizeof *t);
        t->magic = SLICE_MAGIC;
        t->end = sizeof *t;
    }
    t->kept_count = t->count;   /* the slices the old process left are the kept ones */
    g_slices.table = t;
    g_slices.cap = cap;
    /* what modules wrote before the session started goes in now (a kept slice keeps the old process's bytes) */
    for (int i = 0; i < g_slices.asked_count; i++)
        slice_place(g_slices.asked[i].name, g_slices.asked[i].size, g_slices.asked[i].own);
}
