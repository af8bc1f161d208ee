/* migrate.cpp - the state carried across a layout change. Every library describes its state's types
   (GameAPI.state_types, th_reflect.h's table, made by the build); the description is copied out when the
   library loads - its image is gone by the time the next layout needs it - and checked like any untrusted
   input. When game/state.h changes, the state is rewritten from the old description to the new one into a
   scratch area, new fields taking their values from the new library's default-constructed state, and
   copied over the block only if every field had a rule. reload.cpp decides when; record.cpp migrates the
   F7 loop's start the same way. */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#define TH_REFLECT_IMPLEMENTATION
#include "th_reflect.h"

static StateTypes g_mem_types;    /* the layout the block holds */
static StateTypes g_snap_types;   /* the layout of the crash snapshot (the pre-migration state after a migration) */

StateTypes *types_of_block(void) { return &g_mem_types; }
StateTypes *types_of_snapshot(void) { return &g_snap_types; }

void types_clear(StateTypes *t)
{
    free(t->blob);
    memset(t, 0, sizeof *t);
}

void types_copy(StateTypes *dst, const StateTypes *src)
{
    if (dst == src) return;
    types_clear(dst);
    *dst = *src;
    dst->blob = NULL;
    if (src->blob) {
        dst->blob = (uint64_t *)malloc(src->size + 8);
        memcpy(dst->blob, src->blob, src->size);
    }
}

void types_take(const GameAPI *api, StateTypes *out)
{
    types_clear(out);
    out->layout_hash = api->layout_hash;
    out->state_size = api->state_size;
    out->has_default = api->state_default != NULL;
    if (!api->state_types || !api->state_types_size) {
        snprintf(out->error, sizeof out->error, "the library does not describe its state (no state_types)");
        return;
    }
    if (api->state_types_size > (64u << 20)) {
        snprintf(out->error, sizeof out->error, "its state_types claims %llu bytes",
                 (unsigned long long)api->state_types_size);
        return;
    }
    /* copied while the image is mapped, under the guard: a bad pointer costs the description, not the session */
    size_t n = (size_t)api->state_types_size;
    uint64_t *blob = (uint64_t *)malloc(n + 8);
    const void *src = api->state_types;
    if (guarded(GUARD_OPEN, [blob, src, n] { memcpy(blob, src, n); })) {
        free(blob);
        snprintf(out->error, sizeof out->error, "its state_types pointer cannot be read (%s)", guard_fault_name());
        return;
    }
    out->blob = blob;
    out->size = n;
    thr_types t;
    if (!thr_read(blob, n, &t, out->error, sizeof out->error)) return;
    if (t.types[t.header->root].size != api->state_size) {
        snprintf(out->error, sizeof out->error, "its state_types describes %s as %u bytes, state_size says %llu",
                 t.names + t.types[t.header->root].name, t.types[t.header->root].size,
                 (unsigned long long)api->state_size);
        return;
    }
    out->valid = 1;
}

/* Where a state too big for the block was made big: the root struct's largest field, found in the state
   header by its name; when its array size is a macro defined in the same header (MAX_PARTICLES), the
   #define's line, which is the line a person typed the big number on. "" when neither is found. */
static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    return line;
}

static int is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* the first whole-word `word` in text followed (after spaces) by `next` (0: anything) */
static const char *find_word(const char *text, const char *word, char next)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        if ((p > text && is_ident_char(p[-1])) || is_ident_char(p[n])) continue;
        const char *q = p + n;
        while (*q == ' ' || *q == '\t') q++;
        if (!next || *q == next) return p;
    }
    return NULL;
}

void types_blame_size(const StateTypes *t, const char *state_header, char *out, size_t cap)
{
    out[0] = 0;
    if (!t->valid) return;
    thr_types ty;
    char err[256];
    if (!thr_read(t->blob, t->size, &ty, err, sizeof err)) return;
    const thr_type *root = &ty.types[ty.header->root];
    const thr_field *big = NULL;
    for (uint32_t i = 0; i < root->field_count; i++) {
        const thr_field *f = &ty.fields[root->first_field + i];
        if (!big || f->size > big->size) big = f;
    }
    if (!big) return;
    size_t len = 0;
    char *text = os_read_file(state_header, &len, 4u << 20);
    if (!text) return;
    const char *base = state_header + strlen(state_header);
    while (base > state_header && base[-1] != '/' && base[-1] != '\\') base--;
    const char *decl = find_word(text, ty.names + big->name, big->count > 1 ? '[' : 0);
    if (decl) {
        const char *at = decl;
        if (big->count > 1) {   /* the array size: a macro from the same header? */
            const char *b = strchr(decl, '[') + 1;
            while (*b == ' ') b++;
            char macro[64];
            size_t m = 0;
            while (is_ident_char(b[m]) && m + 1 < sizeof macro) { macro[m] = b[m]; m++; }
            macro[m] = 0;
            if (m && !(macro[0] >= '0' && macro[0] <= '9')) {
                for (const char *d = strstr(text, "#define"); d; d = strstr(d + 1, "#define")) {
                    const char *w = d + 7;
                    while (*w == ' ' || *w == '\t') w++;
                    if (!strncmp(w, macro, m) && !is_ident_char(w[m])) { at = d; break; }
                }
            }
        }
        snprintf(out, cap, "%s:%d", base, line_of(text, at));
    }
    free(text);
}

int types_save(const StateTypes *t, const char *path)
{
    if (!t->valid) return 0;
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(t->blob, 1, t->size, f) == t->size;
    return fclose(f) == 0 && ok;
}

int types_load(const char *path, uint32_t layout_hash, uint64_t state_size, StateTypes *out)
{
    types_clear(out);
    out->layout_hash = layout_hash;
    out->state_size = state_size;
    size_t n = 0;
    void *data = os_read_file(path, &n, 64u << 20);
    if (!data) { snprintf(out->error, sizeof out->error, "%s: %s", path, os_error_text()); return 0; }
    out->blob = (uint64_t *)malloc(n + 8);
    memcpy(out->blob, data, n);
    free(data);
    out->size = n;
    thr_types t;
    char err[256];
    if (!thr_read(out->blob, n, &t, err, sizeof err)) {
        snprintf(out->error, sizeof out->error, "%s: %s", path, err);
        return 0;
    }
    if (t.types[t.header->root].size != state_size) {
        snprintf(out->error, sizeof out->error, "%s describes a %u-byte state, the recording holds %llu", path,
                 t.types[t.header->root].size, (unsigned long long)state_size);
        return 0;
    }
    out->valid = 1;
    return 1;
}

/* A default-constructed state of the new library, under the guard; NULL if it crashed. */
static uint8_t *default_state(const GameAPI *api, uint64_t size)
{
    static uint8_t *buf;
    static uint64_t cap;
    if (size > cap) {
        free(buf);
        buf = (uint8_t *)malloc(size);
        cap = buf ? size : 0;
        if (!buf) return NULL;
    }
    memset(buf, 0, size);
    game_state_default_fn *fn = api->state_default;
    uint8_t *dst = buf;
    if (guarded(GUARD_MIGRATE, [fn, dst, size] { fn(dst, size); })) return NULL;
    return buf;
}

int migrate_bytes(const StateTypes *from, const StateTypes *to, const GameAPI *api, const uint8_t *old,
                  uint64_t old_used, uint8_t *out, uint64_t out_cap, char *what, size_t cap)
{
    static thr_migrator m;
    what[0] = 0;
    if (!from->valid) {
        snprintf(what, cap, "the running code's state has no usable description: %s", from->error);
        return 0;
    }
    if (!to->valid) { snprintf(what, cap, "the new code's state has no usable description: %s", to->error); return 0; }
    if (!api->state_default) { snprintf(what, cap, "the new code has no state_default"); return 0; }
    if (old_used < from->state_size) {
        snprintf(what, cap, "the state holds %llu bytes, its layout needs %llu", (unsigned long long)old_used,
                 (unsigned long long)from->state_size);
        return 0;
    }
    thr_types o, n;
    char err[256];
    if (!thr_read(from->blob, from->size, &o, err, sizeof err) || !thr_read(to->blob, to->size, &n, err, sizeof err)) {
        snprintf(what, cap, "%s", err);
        return 0;
    }
    const uint8_t *def = default_state(api, to->state_size);
    if (!def) { snprintf(what, cap, "the new code's state_default crashed (%s)", guard_fault_name()); return 0; }
    if (!thr_migrate(&m, &o, old, (size_t)from->state_size, &n, def, out, (size_t)out_cap)) {
        snprintf(what, cap, "%s", m.error);
        return 0;
    }
    snprintf(what, cap, "%s", m.report[0] ? m.report : "no field changed");
    return 1;
}

int migrate_block(const StateTypes *from, const StateTypes *to, const GameAPI *api, char *what, size_t cap, double *ms)
{
    static uint8_t *scratch;
    static uint64_t scratch_cap;
    double t0 = os_mono_seconds();
    *ms = 0;
    if (to->state_size > memory_state()->game.size) {
        snprintf(what, cap, "the new state (%llu bytes) does not fit the block", (unsigned long long)to->state_size);
        return 0;
    }
    if (to->state_size > scratch_cap) {
        free(scratch);
        scratch = (uint8_t *)malloc(to->state_size);
        scratch_cap = scratch ? to->state_size : 0;
        if (!scratch) { snprintf(what, cap, "out of memory for the scratch area"); return 0; }
    }
    if (!migrate_bytes(from, to, api, (const uint8_t *)memory_state()->game.base, memory_used(), scratch,
                       to->state_size, what, cap))
        return 0;
    /* the swap: the new state over the old, the rest of the used block (caches) cleared for load to rebuild */
    memory_make_writable();
    uint64_t used = memory_used();
    memcpy(memory_state()->game.base, scratch, to->state_size);
    if (used > to->state_size) memset((uint8_t *)memory_state()->game.base + to->state_size, 0, used - to->state_size);
    memory_state()->game.used = to->state_size > used ? to->state_size : used;
    *ms = (os_mono_seconds() - t0) * 1000.0;
    return 1;
}
