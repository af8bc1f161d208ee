/* library.cpp - one game library: a complete file, copied to a versioned name (a loader hands back the
   old image for a path it has seen), opened, its entry point resolved and checked; closed and checked
   gone from the address space. */
#include "live.h"

#include <string.h>

/* the game's build folder decides (game_folder.cpp) */
const char *library_built_path(void)
{
    static char p[HOST_PATH];
    snprintf(p, sizeof p, "%s/" OS_LIB_PREFIX "game" OS_LIB_SUFFIX, game_build_folder());
    return p;
}

static void discard(GameLib *out)
{
    void *h = out->handle;
    if (h) guarded(GUARD_UNLOAD, [h] { os_lib_close(h); });
    os_remove_file(out->path);
    out->handle = NULL;
}

int library_open(const char *src, int version, GameLib *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (!os_lib_complete(src, err, errcap)) return 0;
    /* dlopen of a path it has seen returns the old image: every load gets a fresh name. */
    char dir[HOST_PATH];
    snprintf(dir, sizeof dir, "%s/loaded", game_build_folder());
    os_make_dir(dir);
    snprintf(out->path, sizeof out->path, "%s/" OS_LIB_PREFIX "game.%d.v%d" OS_LIB_SUFFIX, dir, os_pid(), version);
    if (!os_copy_file(src, out->path)) {
        snprintf(err, errcap, "%s: cannot copy to %s: %s", src, out->path, os_error_text());
        return 0;
    }
    profile_names_forget();   /* the new library may lie where an unloaded one's zone names were */
    /* Opening runs the library's static initializers and game_get_api() is its code too: both guarded,
       so a crash or an endless loop there costs this build, not the session. */
    char why[1024] = "";
    void *handle = NULL;
    const char *path = out->path;
    if (guarded(GUARD_OPEN, [&handle, path, &why] { handle = os_lib_open(path, why, sizeof why); })) {
        guard_describe_backtrace(out->path, err, errcap);
        /* the half-initialised image has no handle to close it by: it stays mapped, unused */
        os_remove_file(out->path);
        return -1;
    }
    out->handle = handle;
    if (!out->handle) {
        snprintf(err, errcap, "%s: dlopen failed: %s", src, why);
        os_remove_file(out->path);
        return 0;
    }
    game_get_api_fn *get = (game_get_api_fn *)os_lib_symbol(out->handle, GAME_ENTRY_SYMBOL);
    if (!get) {
        snprintf(err, errcap, "%s: no entry point %s()", src, GAME_ENTRY_SYMBOL);
        discard(out);
        return 0;
    }
    GameAPI api;
    memset(&api, 0, sizeof api);
    if (guarded(GUARD_GET_API, [&api, get] { api = get(); })) {
        guard_describe_backtrace(out->path, err, errcap);
        discard(out);
        return -1;
    }
    out->api = api;
    out->version = version;
    if (out->api.api_version < GAME_API_OLDEST || out->api.api_version > GAME_API_VERSION) {
        snprintf(err, errcap, "%s: built against contract v%u, this host speaks v%u - rebuild the host "
                 "(./build.sh host) and restart it", src, out->api.api_version, GAME_API_VERSION);
        discard(out);
        return 0;
    }
    if (!out->api.update || !out->api.render || !out->api.load) {
        snprintf(err, errcap, "%s: game_get_api() returned a NULL load/update/render", src);
        discard(out);
        return 0;
    }
    return 1;
}

int library_is_mapped(const char *path)
{
    OsRange r;
    return os_mapped_ranges(path, &r, 1) > 0;
}

int library_close(GameLib *lib, char *err, size_t errcap)
{
    if (!lib->handle) return 1;
    void *h = lib->handle;
    lib->handle = NULL;
    if (guarded(GUARD_UNLOAD, [h] { os_lib_close(h); })) {
        log_message(LOG_ERROR, "unload of %s: %s in its static destructors", lib->path, guard_fault_name());
        /* the loader was left half way through dlclose (its lock, its lists): no later dlopen/dlclose may trust it */
        char why[256];
        snprintf(why, sizeof why,
                 "%s in a static destructor of version %d (a jump out of dlclose leaves the loader inconsistent)",
                 guard_report()->fault.kind == OS_FAULT_HANG ? "a hang" : guard_fault_name(), lib->version);
        restart_request(why);
    }
    int still = library_is_mapped(lib->path);
    os_remove_file(lib->path);
    if (still) {
        snprintf(err, errcap, "%s is still mapped after dlclose (a STB_GNU_UNIQUE symbol, a thread_local or a "
                 "static destructor in the game keeps it alive): its code and globals linger", lib->path);
        return 0;
    }
    return 1;
}
