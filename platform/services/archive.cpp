/* archive.cpp - where asset bytes come from. The development host reads the project's files; a release
   mounts the one archive next to its executable (tinyheaders/th_pack.h: every offset, size, name and
   checksum checked when it is mounted) and from then on every asset read - atlas manifest and pages, the baked font,
   the decoded sounds, the game's pf->read_file - is a lookup in it. Nothing else opens an asset. */
#include "services.h"

#include <stdlib.h>
#include <string.h>

#define TH_PACK_IMPLEMENTATION
#include "th_pack.h"

static struct {
    thpk_archive pack;
    int          mounted;
    char         path[HOST_PATH];
} g_archive;

int archive_mount(const char *path, char *err, size_t cap)
{
    archive_unmount();
    char why[512];
    if (!os_is_file(path)) {
        snprintf(err, cap, "%s: the game's archive is missing (it belongs next to the executable)", path);
        return 0;
    }
    if (!thpk_open_file(&g_archive.pack, path, why, sizeof why)) {
        snprintf(err, cap, "%s: the game's archive is damaged: %s", path, why);
        return 0;
    }
    /* every file's checksum now: a damaged install stops here, named, instead of drawing placeholders */
    for (uint32_t i = 0; i < g_archive.pack.count; i++) {
        size_t n = 0;
        if (!thpk_get(&g_archive.pack, (int)i, &n, why, sizeof why)) {
            snprintf(err, cap, "%s: the game's archive is damaged: %s", path, why);
            thpk_close(&g_archive.pack);
            return 0;
        }
    }
    snprintf(g_archive.path, sizeof g_archive.path, "%s", path);
    g_archive.mounted = 1;
    return 1;
}

void archive_unmount(void)
{
    if (g_archive.mounted) thpk_close(&g_archive.pack);
    g_archive.mounted = 0;
}

int         archive_mounted(void) { return g_archive.mounted; }
const char *archive_path(void) { return g_archive.path; }
int         archive_count(void) { return g_archive.mounted ? (int)g_archive.pack.count : 0; }
const char *archive_name(int i) { return g_archive.mounted ? thpk_name(&g_archive.pack, i) : NULL; }

char *archive_read(const char *path, size_t *len, size_t max_bytes, char *err, size_t cap)
{
    size_t n = 0;
    if (!g_archive.mounted) {
        char *data = os_read_file(path, &n, max_bytes);
        if (!data) { snprintf(err, cap, "cannot open (%s)", os_error_text()); return NULL; }
        if (len) *len = n;
        return data;
    }
    int i = thpk_find(&g_archive.pack, path);
    if (i < 0) { snprintf(err, cap, "not in the archive %s", g_archive.path); return NULL; }
    char why[256];
    const void *bytes = thpk_get(&g_archive.pack, i, &n, why, sizeof why);
    if (!bytes) { snprintf(err, cap, "damaged in the archive %s: %s", g_archive.path, why); return NULL; }
    if (n > max_bytes) {
        snprintf(err, cap, "%zu bytes in the archive, more than the %zu allowed", n, max_bytes);
        return NULL;
    }
    char *copy = (char *)malloc(n + 1);
    if (!copy) { snprintf(err, cap, "out of memory for %zu bytes", n); return NULL; }
    memcpy(copy, bytes, n);
    copy[n] = 0;
    if (len) *len = n;
    return copy;
}
