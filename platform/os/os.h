/* os.h - the only place the operating system shows. Everything else in platform/ calls these.

   One backend per operating system, and one build links exactly one:
     os_linux.cpp                      Linux only (inotify, /proc/self/maps and /proc/self/exe, posix_spawn,
                                       dlopen, mmap, signals). macOS or a BSD needs its own backend (kqueue
                                       or FSEvents, dyld's image list, its own fault context), not this one.
     os_win32.cpp + os_win32_guard.cpp Windows (ReadDirectoryChangesW, CreateProcess, LoadLibrary, VEH).
     os_template.cpp                   every function below as a stub that compiles: a new port starts
                                       from a copy of it (the test suite compiles it, so it stays complete).
   os_common.cpp holds what is the same on every backend, written on top of them (os_run, the error
   text). No other platform file includes <dlfcn.h>, <signal.h>, <pthread.h>, <unistd.h>, <execinfo.h>,
   <sys/...> or <windows.h>.

   Conventions: functions return 1 (or a handle/count) on success and 0/NULL/-1 on failure; the reason
   of the last failure is os_error_text(). Paths are UTF-8, '/'-separated. Nothing here logs: callers
   decide what a failure means and say so. */
#ifndef OS_H
#define OS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* ---------------------------------------------------------------- time and process */
double      os_mono_seconds(void);                                /* monotonic clock (the one clock for durations) */
double      os_wall_seconds(void);                                /* seconds since 1970, for event stamps */
void os_format_local_time(double wall, char *out, size_t cap);    /* "YYYY-MM-DD HH:MM:SS"; call outside game code */
void        os_sleep_ms(int ms);
int         os_pid(void);
int         os_cpu_count(void);   /* processors this process may run on, at least 1 */
int         os_wait_readable(const int *fds, int n, double timeout_s); /* sleeps until one fd (< 0: skipped) is
                                                                   readable or the time is up; 1 readable, 0 timeout */
const char *os_error_text(void);                                  /* why the last os_ call failed */
void        os_set_error(const char *what);                       /* for the backends: sets os_error_text() */
void        os_on_terminate(void (*fn)(void));                    /* Ctrl-C / termination request -> fn (async) */
/* A Windows GUI program (the release) has no console of its own: os_attach_console sends stdout/stderr to
   the console it was started from, if any; os_alert shows a message box when nobody reads stderr (started
   from Explorer). Both do nothing where stderr is always there (Linux, console programs). */
void        os_attach_console(void);
void        os_alert(const char *title, const char *text);
/* Runs frame(ctx) until it returns 0. A desktop backend loops here (frame does its own pacing); a web
   page cannot block, so there each frame is one browser animation frame and this never returns: what
   follows the call in main runs only on a desktop. */
void        os_run_frames(int (*frame)(void *ctx), void *ctx);

/* ---------------------------------------------------------------- files */
typedef struct OsFileStamp { uint64_t dev, ino, size; int64_t mtime_ns; } OsFileStamp;

FILE *os_fopen(const char *path, const char *mode);   /* fopen, its descriptor kept out of the game's reach
                                                        (Linux: moved above 1000, close-on-exec) */
void  os_host_fds_record(void);                         /* the descriptors open now are the host's (at start) */
int   os_fd_is_host(int fd);                            /* recorded at start and still the same file */
int   os_fd_host_in(unsigned lo, unsigned hi);          /* the first host descriptor numbered lo..hi, or -1 */
int   os_fd_close(int fd);                              /* close(); -1 + errno on failure */
int   os_std_fds_check(void);                           /* 0..2 closed (by game code)? reopened on the null
                                                        device, so no later open takes them; returns how many */
/* Game code can reach past the close() wrapper (syscall(SYS_close), close_range, dup2 onto a host number): the
   host checks its own descriptors each frame and re-opens what was lost, on the same number. */
int   os_file_stamp_of(FILE *f, OsFileStamp *out);     /* the file f's descriptor holds now; 0 if it is closed */
int   os_file_reopen(FILE *f, const char *path);       /* path opened again (appending) on f's descriptor number */
int   os_host_fds_plug(void);                           /* descriptors recorded at start and closed since (SDL's
                                                        sockets, pipes): a never-readable placeholder on each
                                                        number, so no poll loop spins on it; returns how many */
char *os_read_file(const char *path, size_t *len,
                   size_t max_bytes); /* malloc'ed + NUL-terminated; NULL on error or too big */
int   os_copy_file(const char *src, const char *dst);                 /* 1 when every byte was written */
int   os_make_dir(const char *path);                                  /* 1 if the directory exists afterwards */
int   os_is_file(const char *path);
int   os_file_stamp(const char *path, OsFileStamp *out);              /* 0 if it does not exist */
int   os_same_stamp(const OsFileStamp *a, const OsFileStamp *b);
int   os_real_path(const char *path, char *out, size_t cap);          /* absolute, symlinks resolved; 0 if missing */
int   os_exe_path(char *out, size_t cap);                             /* this executable, absolute, '/'-separated */
int   os_remove_file(const char *path);
int   os_write_file_atomic(const char *path, const void *data, size_t len);  /* temp file, flushed, renamed over path */
int   os_rename_file(const char *from, const char *to);
int   os_replace_file(const char *path, const void *data, size_t len);  /* an existing file, atomically, its mode
                                                                          kept; 0 if it is read-only or missing */
typedef void os_dir_entry_fn(void *ctx, const char *name, int is_dir);
int   os_list_dir(const char *dir, os_dir_entry_fn *fn, void *ctx);   /* skips "." and ".." */

/* ---------------------------------------------------------------- directory watching */
enum { OS_WATCH_CREATED = 1, OS_WATCH_MOVED_IN = 2, OS_WATCH_IS_DIR = 4,
       OS_WATCH_CLOSED = 8,      /* a writer closed the file (only where the OS reports it: OS_WATCH_REPORTS_CLOSE) */
       OS_WATCH_GONE = 16 };     /* deleted or renamed away */
#if !defined(_WIN32)
#define OS_WATCH_REPORTS_CLOSE 1 /* inotify's IN_CLOSE_WRITE: a file created is complete once it is closed */
#endif
typedef void os_watch_fn(void *ctx, int id, const char *name, unsigned flags);

int  os_watch_open(void);
int  os_watch_add(const char *dir);                  /* a watch id >= 0 (the same id for a dir already watched), -1 */
void os_watch_read(os_watch_fn *fn, void *ctx);      /* non-blocking: every event since the last read */
void os_watch_close(void);
int  os_watch_fd(void);                              /* readable when events wait (for os_wait_readable); -1 if none */
int  os_watch_lost(void);                            /* 1: its descriptor was closed or replaced; the watch is then
                                                        closed (os_watch_open starts a new one) */

/* ---------------------------------------------------------------- a local control channel (development) */
/* A listening endpoint only this user reaches, and the clients connected to it, all non-blocking (polled once a
   frame: no threads). Linux: a Unix domain socket at `path`, mode 0600; a stale socket file that no process
   listens on any more is replaced; os_control_unlisten removes it. Windows: a named pipe whose name is made from
   `path` (\\.\pipe\engine-<hash>), local clients only. Elsewhere: -1, "not available". */
int64_t os_control_listen(const char *path, char *address, size_t cap); /* a listener, -1; address: what clients
                                                                          open (the path, or the pipe's name) */
int64_t os_control_accept(int64_t listener);  /* a client waiting to be taken; -1 none now; -2 the listener is gone
                                                 (its descriptor closed or replaced by game code): listen again */
int     os_control_read(int64_t client, char *buf, size_t cap); /* bytes read now; 0 none yet; -1 it is gone */
int     os_control_write(int64_t client, const char *buf, size_t n); /* bytes taken now (maybe fewer); -1 gone */
void    os_control_close(int64_t client);                      /* only while it is still a socket (not a number
                                                                  game code closed and something else took) */
void    os_control_unlisten(int64_t listener, const char *path); /* closed, its socket file removed */

/* ---------------------------------------------------------------- child processes */
typedef struct OsChild {
    int64_t pid;
    int     out_fd;     /* all zero = none; out_fd > 0 while open */
    double  cpu_ms;     /* once ended: user + system CPU time of the child and the children it waited for */
    uint64_t out_id;    /* the pipe's identity (os_child_lost) */
} OsChild;
enum { OS_CHILD_STDOUT = 1, OS_CHILD_STDERR = 2,              /* streams sent to the pipe; the rest to /dev/null */
       OS_CHILD_LOW_PRIORITY = 4 };                           /* below the host's priority (nice 10) */

int  os_child_start(OsChild *c, const char *const argv[], unsigned capture);  /* argv[0] looked up in PATH */
int os_child_start_in(OsChild *c, const char *const argv[], unsigned capture,
                      const char *cwd);                 /* cwd NULL: the host's */
int  os_child_fd(const OsChild *c);                     /* readable on output or exit (os_wait_readable); -1 if none */
int  os_child_read(OsChild *c, char *buf, size_t cap);  /* non-blocking: bytes read now (0 = nothing yet) */
int  os_child_poll(OsChild *c, int *exit_code, int *signal_no);  /* 0 running; 1 ended (and reaped); -1 lost */
void os_child_kill(OsChild *c);                         /* terminate and reap */
int  os_child_lost(const OsChild *c);                   /* 1: its pipe was closed or replaced (by game code) */
int  os_run(const char *const argv[], char *out, size_t cap, double timeout_s);  /* blocking; exit code, -1 */

/* ---------------------------------------------------------------- dynamic libraries */
enum { OS_PROT_READ = 1, OS_PROT_WRITE = 2, OS_PROT_EXEC = 4 };
typedef struct OsRange { uintptr_t lo, hi; uint64_t file_offset; unsigned prot; } OsRange;
#if defined(_WIN32)
#define OS_LIB_PREFIX ""                 /* build/game/game.dll */
#define OS_LIB_SUFFIX ".dll"
#else
#define OS_LIB_PREFIX "lib"              /* build/game/libgame.so */
#define OS_LIB_SUFFIX ".so"
#endif
#if defined(_WIN32)
#define OS_EXE_SUFFIX ".exe"             /* build/tools/atlas_pack.exe */
#else
#define OS_EXE_SUFFIX ""
#endif

int   os_lib_complete(const char *path, char *err, size_t cap);  /* 0 if the file is cut short (never load it) */
void *os_lib_open(const char *path, char *err, size_t cap);  /* runs the library's static initializers */
void *os_lib_symbol(void *lib, const char *name);
void  os_lib_close(void *lib);
int   os_mapped_ranges(const char *path, OsRange *out, int max);  /* where the file is mapped now; count */
/* The whole image of the library opened from path, as the loader laid it out (every loaded segment,
   including zero-filled .bss pages that no file backs); count, 0 if it is not loaded. */
int   os_lib_image(const char *path, OsRange *out, int max);
/* Names the code at pc inside the library at path, mapped from base: fn gets the function, where gets
   "file:line", each "?" when the symbolizer does not know (Linux: addr2line in a child). On Windows
   (DbgHelp: the build's PDB, else the export table) where is "module!+0xOFFSET" when no line is known,
   and a function known only from the export table is "export+0xDISP". Call outside game code. */
void os_describe_code(const char *path, uintptr_t base, uintptr_t pc, char *fn, size_t fncap, char *where, size_t wcap);

/* ---------------------------------------------------------------- address space */
void *os_reserve(uint64_t bytes, uintptr_t preferred);   /* zeroed read/write pages, committed on first touch */
int   os_make_writable(void *p, uint64_t bytes);          /* read/write again (game code may have protected it) */

/* ---------------------------------------------------------------- threads */
typedef struct OsThread { uint64_t handle; int started; } OsThread;

int  os_thread_start(OsThread *t, void *(*fn)(void *), void *arg);
void os_thread_join(OsThread *t);

/* ---------------------------------------------------------------- faults and the watchdog */
/* os_guarded_call runs fn(arg) on the main thread so that a fault inside it (or an interrupt from the
   watchdog naming this call's sequence number) returns to the caller instead of ending the process.
   A fault on any other thread, or outside a guarded call, is not recoverable: it is reported with a
   backtrace on stderr and the process ends (exit code 70) - never a jump across stacks. */
enum { OS_FAULT_NONE, OS_FAULT_SEGV, OS_FAULT_BUS, OS_FAULT_FPE, OS_FAULT_ILL, OS_FAULT_ABORT, OS_FAULT_HANG,
       OS_FAULT_EXIT };                /* the game called exit(), _exit(), quick_exit() (os_guard_game_exit) */
#define OS_MAX_BACKTRACE 32

typedef struct OsFault {
    int    kind;                       /* OS_FAULT_* */
    void  *addr;                       /* faulting address, if any */
    void  *bt[OS_MAX_BACKTRACE];       /* return addresses at the fault */
    int    bt_count;
    void  *pc;                         /* the interrupted instruction itself, where the backend knows it
                                          (NULL: treat bt[] as return addresses throughout) */
} OsFault;

void        os_fault_init(void);                       /* installs the handlers; the caller is the main thread */
int os_guarded_call(void (*fn)(void *), void *arg, uint64_t seq, OsFault *fault); /* 0 returned; 1 faulted/hung */
int         os_interrupt_guarded_call(uint64_t seq);   /* from another thread; ignored unless call seq still runs */
const char *os_fault_name(int kind);                   /* "SIGSEGV", ..., "hang" */
uint64_t    os_guard_jumps(void);                      /* guarded calls that ended by a jump, since start */
/* Around a host service called from guarded code: a watchdog interrupt that arrives inside it waits
   until it returns (a jump out of it could strand a lock the service holds), then jumps. */
void        os_guard_service_enter(void);
void        os_guard_service_leave(void);
/* Game code asked to end the process (exit and its kin, interposed at the game's link: guard.cpp). On the
   main thread inside a guarded call it returns there as a fault of kind OS_FAULT_EXIT, caller (the
   return address in game code) its first frame; anywhere else it is handed to os_fault_on_unsafe's
   function (a restart). Returns only if neither could take it. */
void        os_guard_game_exit(void *caller);
int         os_guard_in_call(void);                    /* 1 on the main thread inside a guarded call */
void        os_guard_name_call(const char *fmt, ...);  /* the call the next OS_FAULT_EXIT names ("exit(0)", "close(3) of
                                                          a host descriptor"); os_common.cpp */
const char *os_guard_called(void);                     /* that name, "" before any */

/* A fault or stop that no jump can leave safely: its code was in the C library or the loader (which may
   hold a lock: malloc's arena, stdio, the loader's own), inside a host service, on another thread, or on
   the main thread outside any guarded call. The handler fills this and calls the function given to
   os_fault_on_unsafe, inside the signal handler (async-signal-safe code only); if that returns, the old
   behaviour follows (a jump, or exit code 70). System code is libc and ld.so, their ranges recorded by
   os_fault_init. frames: return addresses found on the stack inside the range given by os_fault_game_code
   (main thread only; a scan, not an unwind, so a stale word may be among them). */
enum { OS_UNSAFE_SYSTEM_CODE = 1, OS_UNSAFE_SERVICE, OS_UNSAFE_THREAD, OS_UNSAFE_HOST };
typedef struct OsUnsafeFault {
    int       kind;                    /* OS_FAULT_* */
    int       where;                   /* OS_UNSAFE_* */
    int       game_thread;             /* OS_UNSAFE_THREAD: the thread was started by code in the game's range */
    int       guarded;                 /* a guarded call was running on the main thread */
    uintptr_t pc, addr;
    uintptr_t frames[16];
    int       frame_count;
    double    mono;                    /* os_mono_seconds() at the fault */
} OsUnsafeFault;
typedef void os_unsafe_fault_fn(const OsUnsafeFault *f);
void        os_fault_on_unsafe(os_unsafe_fault_fn *fn);
void        os_fault_game_code(uintptr_t lo, uintptr_t hi);    /* the running library's code (0, 0: none) */
int         os_system_code_ranges(OsRange *out, int max);      /* what os_fault_init recorded; count */

/* ---------------------------------------------------------------- a session that outlives the process */
/* Shared memory that a re-executed host finds again: Linux a memfd handed over as an inherited file
   descriptor, named by an environment variable. os_session_create maps it at `preferred` if free (else
   anywhere); os_session_attach only at exactly `required` (NULL, and why, if that address is taken).
   os_session_exec_prepare records everything os_session_exec needs (the executable, argv, the environment
   plus name=<handle>); os_session_exec is async-signal-safe and returns only if the exec failed. */
void    *os_session_create(uint64_t bytes, uintptr_t preferred, int64_t *handle);
int64_t os_session_inherited(const char *env_name); /* the handle a previous process left, -1; clears the variable */
int      os_session_read(int64_t handle, void *out, size_t n); /* the first n bytes, without mapping */
void    *os_session_attach(int64_t handle, uint64_t bytes, uintptr_t required);
void     os_session_close(int64_t handle, void *base, uint64_t bytes);
int      os_session_exec_prepare(int64_t handle, const char *env_name, int argc, char **argv);
void     os_session_exec(void);
typedef struct OsSpan { uint64_t offset, bytes; } OsSpan;
int      os_session_renew(int64_t handle, void *base, uint64_t bytes, const OsSpan *keep, int keep_count);
/* the handle closed or replaced (by game code)? a new
  one on the same number, `keep` copied into it and mapped
  in place: 1; still the session: 0; -1 (os_error_text) */
void     os_close_inherited(int64_t keep);                     /* closes every descriptor above stderr but keep: what
                                                                 the previous image left open (its window's display
                                                                 connection would keep its window alive) */
void     os_signals_reset(void);                               /* no signal blocked (an exec keeps the caller's mask) */
void     os_write_stderr(const char *s);                       /* async-signal-safe */

#endif /* OS_H */
