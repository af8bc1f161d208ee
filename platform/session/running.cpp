/* running.cpp - the running game, as both builds keep it: which library runs and what a rollback returns to,
   its entry points, the layout of the state in the block, the last crash. live/reload.cpp changes them in
   development, release.cpp in a release. */
#include "session.h"

#include <string.h>

static GameRun     g_run;
static CrashReport g_crash;
static BlockLayout g_block_layout;
static GameLib     g_lib;
static GameAPI     g_api;

GameRun     *running_run(void) { return &g_run; }
CrashReport *running_crash(void) { return &g_crash; }
BlockLayout *running_layout(void) { return &g_block_layout; }
GameLib     *running_lib(void) { return &g_lib; }
GameAPI     *running_api(void) { return &g_api; }

/* the running library's load hook, guarded: live/reload.cpp's in development, release.cpp's in a release */
static void (*g_load_hook)(int migrated);
void running_set_load_hook(void (*hook)(int migrated)) { g_load_hook = hook; }
void running_load(int migrated)
{
    if (g_load_hook) g_load_hook(migrated);
}

/* ---------------------------------------------------------------- kept across a hot restart */
#define KEPT_RUN "running.game"   /* a session slice (core.h) */

void running_keep(uintptr_t *code_lo, uintptr_t *code_hi)
{
    KeptRun *k = (KeptRun *)session_slice(KEPT_RUN, sizeof(KeptRun));
    k->version_counter = g_run.version_counter;
    k->running_version = g_lib.version;
    snprintf(k->running_path, sizeof k->running_path, "%s", g_lib.handle ? g_lib.path : "");
    k->prev_good_version = g_run.prev_good_version;
    snprintf(k->prev_good_path, sizeof k->prev_good_path, "%s", g_run.prev_good_path);
    k->mem_has_layout = g_block_layout.known;
    k->mem_layout_hash = g_block_layout.layout_hash;
    k->mem_state_size = g_block_layout.state_size;
    OsRange r[32];
    int n = g_lib.handle ? os_mapped_ranges(g_lib.path, r, 32) : 0;
    uintptr_t lo = 0, hi = 0, base = 0;
    for (int i = 0; i < n; i++) {
        if (r[i].file_offset == 0 && (!base || r[i].lo < base)) base = r[i].lo;
        if (!(r[i].prot & OS_PROT_EXEC)) continue;
        if (!lo || r[i].lo < lo) lo = r[i].lo;
        if (r[i].hi > hi) hi = r[i].hi;
    }
    k->running_base = base;
    *code_lo = lo;
    *code_hi = hi;
}

int running_kept(KeptRun *out)
{
    if (!session_slice_kept(KEPT_RUN)) return 0;
    *out = *(const KeptRun *)session_slice(KEPT_RUN, sizeof(KeptRun));
    return 1;
}

/* the crashed code, named while its file is still there */
void running_describe_frames(const KeptRun *k, const uintptr_t *frames, int count, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < count && k->running_path[0] && k->running_base && len + 200 < cap; i++) {
        char fn[256], loc[300];
        os_describe_code(k->running_path, (uintptr_t)k->running_base, frames[i] - (i ? 1 : 0), fn, sizeof fn, loc,
                         sizeof loc);
        if (!strcmp(fn, "?") && !strcmp(loc, "?")) continue;
        int w = snprintf(out + len, cap - len, "%s%s (%s)", len ? " <- " : "", fn, loc);
        if (w > 0 && (size_t)w < cap - len) len += (size_t)w;
    }
}
