/* timeline_files.cpp - the timeline as a session file (docs/timeline.md, "Sessions as files"): E on the F8 bar and
   --save-session FILE at exit write one; --open-session FILE starts paused on the one it holds. Where the file goes
   and what the developer is told; the format is session/session_file.cpp, the timeline's side timeline.cpp. */
#include "devtools.h"

#include <stdio.h>
#include <string.h>

static const char *game_name(void)
{
    const char *name = g_host_mode.game_name ? g_host_mode.game_name() : NULL;
    return name ? name : "game";
}

/* <game build>/sessions/<name>-<YYYYmmdd-HHMMSS>.session (the folder made on first use) */
static int default_path(char *out, size_t cap)
{
    const char *build = g_host_mode.game_build_folder ? g_host_mode.game_build_folder() : NULL;
    if (!build) return 0;
    char dir[HOST_PATH], when[32], stamp[32];
    snprintf(dir, sizeof dir, "%s/sessions", build);
    if (!os_make_dir(dir)) return 0;
    os_format_local_time(os_wall_seconds(), when, sizeof when);   /* "YYYY-MM-DD HH:MM:SS" */
    size_t n = 0;
    for (const char *c = when; *c && n + 2 < sizeof stamp; c++)
        if (*c >= '0' && *c <= '9') { stamp[n++] = *c; if (n == 8) stamp[n++] = '-'; }
    stamp[n] = 0;
    snprintf(out, cap, "%s/%s-%s.session", dir, game_name(), stamp);
    return 1;
}

/* path NULL: the default one. 1 written (a log line, a notice and a session_saved event name it) */
int timeline_files_save(const char *path)
{
    char def[HOST_PATH], err[512], esc[HOST_PATH * 2];
    if (!path && !default_path(def, sizeof def)) {
        notice_post(LOG_ERROR, "Session not saved: no game build folder to put it in");
        return 0;
    }
    if (!path) path = def;
    uint64_t bytes = 0;
    if (!timeline_save_session(path, game_name(), &bytes, err, sizeof err)) {
        log_message(LOG_ERROR, "session %s: not saved: %s", path, err);
        notice_post(LOG_ERROR, "Session not saved: %s", err);
        return 0;
    }
    TimelineInfo ti;
    timeline_info(&ti);
    log_message(LOG_INFO, "session saved: %s (%.1f MB, steps %llu..%llu)", path, bytes / 1048576.0,
                (unsigned long long)ti.oldest, (unsigned long long)ti.head);
    notice_post(LOG_INFO, "Session saved: %s (%.1f MB)", path, bytes / 1048576.0);
    parse_json_escape(path, esc, sizeof esc);
    log_event("session_saved", "\"path\":\"%s\",\"bytes\":%llu,\"from\":%llu,\"to\":%llu", esc,
              (unsigned long long)bytes, (unsigned long long)ti.oldest, (unsigned long long)ti.head);
    return 1;
}

/* --open-session: after the first library loaded, before the first step. A file that cannot be opened is said once
   and the game starts as usual. */
void timeline_files_start(void)
{
    const char *path = options()->open_session;
    if (!path || restart_is_restart()) return;   /* a hot restart goes on with the session's own block */
    char err[512], esc[HOST_PATH * 2], eesc[1024];
    if (!timeline_open_session(path, game_name(), err, sizeof err)) {
        log_message(LOG_ERROR, "--open-session %s: %s; the game starts as usual", path, err);
        notice_post(LOG_ERROR, "Session %s not opened: %s", path, err);
        parse_json_escape(path, esc, sizeof esc);
        parse_json_escape(err, eesc, sizeof eesc);
        log_event("session_refused", "\"path\":\"%s\",\"why\":\"%s\"", esc, eesc);
        return;
    }
    frame_loop()->paused = 1;   /* on the bar, at its newest step: F8 plays on from there */
    log_event("pause", "\"on\":true");
    TimelineInfo ti;
    timeline_info(&ti);
    log_message(LOG_INFO, "--open-session %s: %.1f s of play, paused at step %llu", path,
                (double)(ti.head - ti.oldest) / 60.0, (unsigned long long)ti.head);
    notice_post(LOG_INFO, "Session opened: %.1f s of play (F8 plays on, Left/Right scrub)",
                (double)(ti.head - ti.oldest) / 60.0);
}

/* at exit: --save-session FILE */
void timeline_files_exit(void)
{
    if (options()->save_session) timeline_files_save(options()->save_session);
}
