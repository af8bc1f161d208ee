/* os_common.cpp - the parts of os.h that are the same on every operating system, written once on top of
   the OS-specific calls (os_linux.cpp on Linux, os_win32.cpp on Windows): the text of the last failure,
   comparing file stamps, and os_run (a blocking child run built from os_child_start/read/poll/kill).
   Includes no system header. */
#include "os.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static thread_local char t_error[512];

void os_set_error(const char *what) { snprintf(t_error, sizeof t_error, "%s", what); }
const char *os_error_text(void) { return t_error; }

int os_same_stamp(const OsFileStamp *a, const OsFileStamp *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

int os_run(const char *const argv[], char *out, size_t cap, double timeout_s)
{
    OsChild c;
    size_t len = 0;
    if (cap) out[0] = 0;
    if (!os_child_start(&c, argv, OS_CHILD_STDOUT)) return -1;
    double until = os_mono_seconds() + timeout_s;
    int code = -1, sig = 0, ended = 0;
    for (;;) {
        char tmp[4096];
        int n = os_child_read(&c, tmp, sizeof tmp);
        if (n > 0) {
            size_t room = cap > len + 1 ? cap - len - 1 : 0;
            size_t take = (size_t)n < room ? (size_t)n : room;
            memcpy(out + len, tmp, take);
            len += take;
            if (cap) out[len] = 0;
            continue;
        }
        if (ended) break;
        if (os_child_poll(&c, &code, &sig) != 0) {
            ended = 1;
            continue;
        } /* one more read for what is left in the pipe */
        if (os_mono_seconds() > until) { os_child_kill(&c); os_set_error("timed out"); return -1; }
        os_sleep_ms(1);
    }
    os_child_kill(&c);
    return sig ? -1 : code;   /* killed by a signal (POSIX): no exit code */
}

/* ---------------------------------------------------------------- the call behind an OS_FAULT_EXIT */
static char g_guard_call[64];

void os_guard_name_call(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_guard_call, sizeof g_guard_call, fmt, ap);
    va_end(ap);
}

const char *os_guard_called(void) { return g_guard_call; }
