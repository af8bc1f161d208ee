/* os_template.cpp - where a port of the host to a new operating system starts: every function of os.h
   that a backend implements, each as a stub that compiles and fails politely. Copy it to os_<name>.cpp,
   fill the stubs in (os.h says what each one must do; os_linux.cpp and os_win32*.cpp are worked
   examples), and build it with os_common.cpp instead of the other backends.

   No build links this file into a host. `./build.sh test` compiles it with os_common.cpp and a program
   that takes the address of every function os.h declares (test_os_template), so a function
   added to os.h without a stub here fails the test suite. */
#include "os.h"

#include <stdio.h>
#include <string.h>

static const char NOT_PORTED[] = "not implemented on this platform (platform/os/os_template.cpp)";

/* ---------------------------------------------------------------- time and process */
double os_mono_seconds(void) { return 0; }
double os_wall_seconds(void) { return 0; }
void   os_format_local_time(double, char *out, size_t cap) { if (cap) snprintf(out, cap, "0000-00-00 00:00:00"); }
void   os_sleep_ms(int) {}
int    os_pid(void) { return 0; }
int    os_cpu_count(void) { return 1; }
int    os_wait_readable(const int *, int, double) { return 0; }
void   os_on_terminate(void (*)(void)) {}
void   os_attach_console(void) {}
void   os_alert(const char *, const char *) {}
void   os_run_frames(int (*frame)(void *), void *ctx) { while (frame(ctx)) {} }

/* ---------------------------------------------------------------- files */
char *os_read_file(const char *, size_t *, size_t) { os_set_error(NOT_PORTED); return NULL; }
int   os_copy_file(const char *, const char *) { os_set_error(NOT_PORTED); return 0; }
int   os_make_dir(const char *) { os_set_error(NOT_PORTED); return 0; }
int   os_is_file(const char *) { return 0; }
int   os_file_stamp(const char *, OsFileStamp *out) { memset(out, 0, sizeof *out); return 0; }
int   os_real_path(const char *, char *, size_t) { os_set_error(NOT_PORTED); return 0; }
int   os_exe_path(char *, size_t) { os_set_error(NOT_PORTED); return 0; }
int   os_remove_file(const char *) { os_set_error(NOT_PORTED); return 0; }
int   os_write_file_atomic(const char *, const void *, size_t) { os_set_error(NOT_PORTED); return 0; }
int   os_rename_file(const char *, const char *) { os_set_error(NOT_PORTED); return 0; }
int   os_replace_file(const char *, const void *, size_t) { os_set_error(NOT_PORTED); return 0; }
int   os_list_dir(const char *, os_dir_entry_fn *, void *) { os_set_error(NOT_PORTED); return 0; }

/* ---------------------------------------------------------------- directory watching */
int  os_watch_open(void) { os_set_error(NOT_PORTED); return 0; }
int  os_watch_add(const char *) { os_set_error(NOT_PORTED); return -1; }
void os_watch_read(os_watch_fn *, void *) {}
void os_watch_close(void) {}
int  os_watch_fd(void) { return -1; }

/* ---------------------------------------------------------------- the control channel: not available */
int64_t os_control_listen(const char *, char *address, size_t cap)
{
    if (cap) address[0] = 0;
    os_set_error(NOT_PORTED);
    return -1;
}
int64_t os_control_accept(int64_t) { return -1; }
int     os_control_read(int64_t, char *, size_t) { return -1; }
int     os_control_write(int64_t, const char *, size_t) { return -1; }
void    os_control_close(int64_t) {}
void    os_control_unlisten(int64_t, const char *) {}

/* ---------------------------------------------------------------- child processes */
int os_child_start(OsChild *c, const char *const[], unsigned)
{
    memset(c, 0, sizeof *c);
    os_set_error(NOT_PORTED);
    return 0;
}
int os_child_start_in(OsChild *c, const char *const[], unsigned, const char *)
{
    memset(c, 0, sizeof *c);
    os_set_error(NOT_PORTED);
    return 0;
}
int  os_child_fd(const OsChild *) { return -1; }
int  os_child_read(OsChild *, char *, size_t) { return 0; }
int  os_child_poll(OsChild *, int *, int *) { return -1; }
void os_child_kill(OsChild *c) { memset(c, 0, sizeof *c); }

/* ---------------------------------------------------------------- dynamic libraries */
int   os_lib_complete(const char *, char *err, size_t cap) { if (cap) snprintf(err, cap, "%s", NOT_PORTED); return 0; }
void *os_lib_open(const char *, char *err, size_t cap) { if (cap) snprintf(err, cap, "%s", NOT_PORTED); return NULL; }
void *os_lib_symbol(void *, const char *) { return NULL; }
void  os_lib_close(void *) {}
int   os_lib_image(const char *, OsRange *, int) { return 0; }
int   os_mapped_ranges(const char *, OsRange *, int) { return 0; }
void  os_describe_code(const char *, uintptr_t, uintptr_t, char *fn, size_t fncap, char *where, size_t wcap)
{
    if (fncap) snprintf(fn, fncap, "?");
    if (wcap) snprintf(where, wcap, "?");
}

/* ---------------------------------------------------------------- address space */
void *os_reserve(uint64_t, uintptr_t) { os_set_error(NOT_PORTED); return NULL; }
int   os_make_writable(void *, uint64_t) { return 1; }

/* ---------------------------------------------------------------- threads */
int os_thread_start(OsThread *t, void *(*)(void *), void *)
{
    memset(t, 0, sizeof *t);
    os_set_error(NOT_PORTED);
    return 0;
}
void os_thread_join(OsThread *) {}

/* ---------------------------------------------------------------- faults and the watchdog */
/* Without a port of these, a fault in game code ends the host and a hang is never interrupted. */
void        os_fault_init(void) {}
int         os_guarded_call(void (*fn)(void *), void *arg, uint64_t, OsFault *fault)
{
    memset(fault, 0, sizeof *fault);
    fn(arg);
    return 0;
}
int         os_interrupt_guarded_call(uint64_t) { return 0; }
const char *os_fault_name(int) { return "fault"; }
uint64_t    os_guard_jumps(void) { return 0; }
void        os_guard_game_exit(void *) {}
FILE       *os_fopen(const char *path, const char *mode) { return fopen(path, mode); }
int         os_std_fds_check(void) { return 0; }
void        os_host_fds_record(void) {}
int         os_fd_is_host(int) { return 0; }
int         os_fd_host_in(unsigned, unsigned) { return -1; }
int         os_fd_close(int) { return -1; }
int   os_file_stamp_of(FILE *, OsFileStamp *out) { memset(out, 0, sizeof *out); return 0; }   /* never checked */
int   os_file_reopen(FILE *, const char *) { return 0; }
int   os_host_fds_plug(void) { return 0; }
int   os_child_lost(const OsChild *) { return 0; }
int   os_watch_lost(void) { return 0; }
int   os_session_renew(int64_t, void *, uint64_t, const OsSpan *, int) { return 0; }
int         os_guard_in_call(void) { return 0; }   /* no guard to return to: the host ends as the game asked */
void        os_guard_service_enter(void) {}
void        os_guard_service_leave(void) {}

/* Without these, a fault that no jump can leave (in the C library, on another thread) ends the host:
   the handler has no one to tell. */
void os_fault_on_unsafe(os_unsafe_fault_fn *) {}
void os_fault_game_code(uintptr_t, uintptr_t) {}
int  os_system_code_ranges(OsRange *, int) { return 0; }

/* ---------------------------------------------------------------- a session that outlives the process */
/* Without a port, the host has no hot restart: restart.cpp's other half keeps the block in os_reserve. */
void *os_session_create(uint64_t, uintptr_t, int64_t *handle)
{
    *handle = -1;
    os_set_error(NOT_PORTED);
    return NULL;
}
int64_t  os_session_inherited(const char *) { return -1; }
int      os_session_read(int64_t, void *, size_t) { os_set_error(NOT_PORTED); return 0; }
void    *os_session_attach(int64_t, uint64_t, uintptr_t) { os_set_error(NOT_PORTED); return NULL; }
void     os_session_close(int64_t, void *, uint64_t) {}
int      os_session_exec_prepare(int64_t, const char *, int, char **) { os_set_error(NOT_PORTED); return 0; }
void     os_session_exec(void) {}
void     os_close_inherited(int64_t) {}
void     os_signals_reset(void) {}
void     os_write_stderr(const char *s) { fputs(s, stderr); }
