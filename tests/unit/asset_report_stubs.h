/* asset_report_stubs.h - what a host service's unit test (test_sprite_anim, test_tilemap) gives it in place of the
   host's reporting: assets_error, log_message and log_event kept in g_errors, g_warnings (LOG_WARN and up) and
   g_events for the test to read; notices dropped; JSON escaping copies. Include after the service's .cpp. */
#ifndef ASSET_REPORT_STUBS_H
#define ASSET_REPORT_STUBS_H

#include <stdarg.h>
#include <stdio.h>

#include <string>
#include <vector>

static std::vector<std::string> g_errors, g_warnings, g_events;

void assets_error(const std::string &file, const std::string &reason) { g_errors.push_back(file + ": " + reason); }
std::string assets_json_escaped(const std::string &s) { return s; }
void log_message(int level, const char *fmt, ...)
{
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (level >= LOG_WARN) g_warnings.push_back(b);
}
void log_event(const char *ev, const char *fmt, ...)
{
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    g_events.push_back(std::string(ev) + " " + b);
}
void notice_post(int, const char *, ...) {}

#endif
