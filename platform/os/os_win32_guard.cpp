/* os_win32_guard.cpp - os.h's faults and watchdog on Windows (the rest is in os_win32.cpp).

   The Windows way: a vectored handler sees the exception first; when it happened on
   the main thread inside os_guarded_call it records what and where, then rewrites the thread's context
   so that, once the handler returns, the thread resumes in guard_landing() on the dead part of the
   stack below os_guarded_call's frame - outside any exception dispatch - and that jumps back to the
   guarded call's setjmp. The watchdog does the same from outside: SuspendThread, GetThreadContext,
   point Rip at the landing, SetThreadContext, ResumeThread. abort() arrives as SIGABRT from the C
   runtime on the calling thread and jumps directly. A stack overflow leaves the guard page used up:
   _resetstkoflw() puts it back before the next call; SetThreadStackGuarantee leaves the handler room
   (wine ignores the guarantee, so the handler does no unwinding for an overflow). */
#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include "os.h"
#include "os_service_gate.h"

#include <windows.h>
#include <psapi.h>
#include <malloc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <atomic>

/* MSVC has no __builtin_setjmp; its longjmp unwinds frames, which is right from guard_landing too. */
#if defined(_MSC_VER)
#define GUARD_NOINLINE __declspec(noinline)
typedef jmp_buf GuardJump;
#define guard_setjmp(b) setjmp(b)
#define guard_longjmp(b) longjmp(b, 1)
#else
#define GUARD_NOINLINE __attribute__((noinline))
typedef void *GuardJump[5];
#define guard_setjmp(b) __builtin_setjmp(b)
#define guard_longjmp(b) __builtin_longjmp(b, 1)
#endif

void os_win32_set_error(const char *what);           /* os_win32.cpp */

/* ================================================================ faults and the watchdog */
static struct {
    GuardJump              jmp;
    std::atomic<uint64_t>  running_seq;    /* the guarded call in progress on the main thread; 0 = none */
    OsFault               *fault;
    DWORD                  main_tid;
    HANDLE                 main_thread;    /* a real handle, for the watchdog's SuspendThread */
    uintptr_t              landing_sp;     /* below os_guarded_call's frame: dead stack once fn faulted */
    std::atomic<uint64_t>  jumps;
    volatile int           stack_overflowed;
    OsServiceGate          gate;           /* an interrupt inside a host service waits for its end */
    char                   blocked_in[64]; /* the system DLL a hung call was stuck in, if any */
    /* faults no jump can leave: what is system code, what is the game's, whom to tell */
    os_unsafe_fault_fn    *unsafe_fn;
    OsRange                system[8];      /* ntdll, kernel32, kernelbase (prot 0) and the C runtime (prot 1) */
    int                    system_count;
    std::atomic<uintptr_t> game_lo, game_hi;
    uintptr_t              main_stack_hi;
} g_guard;

/* The system DLLs whose code may hold a lock a jump would strand: the loader and heap (ntdll), the
   Win32 layer and the C runtime (its heap, stdio and locale locks). Marked 1: the C runtime. */
static const struct { const char *name; unsigned crt; } SYSTEM_DLLS[] = {
    {"ntdll.dll", 0}, {"kernel32.dll", 0}, {"kernelbase.dll", 0},
    {"msvcrt.dll", 1}, {"ucrtbase.dll", 1}, {"vcruntime140.dll", 1},
};

static void record_system_code(void)
{
    g_guard.system_count = 0;
    for (const auto &d : SYSTEM_DLLS) {
        HMODULE m = GetModuleHandleA(d.name);
        MODULEINFO mi;
        if (!m || !GetModuleInformation(GetCurrentProcess(), m, &mi, sizeof mi)) continue;
        OsRange *r = &g_guard.system[g_guard.system_count++];
        r->lo = (uintptr_t)mi.lpBaseOfDll;
        r->hi = r->lo + mi.SizeOfImage;
        r->file_offset = 0;
        r->prot = d.crt;
    }
}

/* 1 if pc lies in a system DLL (crt_only: in the C runtime). No locks, no allocation. */
static int in_system_code(uintptr_t pc, int crt_only)
{
    for (int i = 0; i < g_guard.system_count; i++)
        if (pc >= g_guard.system[i].lo && pc < g_guard.system[i].hi && (!crt_only || g_guard.system[i].prot)) return 1;
    return 0;
}

static int in_game_code(uintptr_t pc) { return pc >= g_guard.game_lo.load() && pc < g_guard.game_hi.load(); }

/* Fills the report of a fault no jump can leave and hands it over (the hot restart); returns only if
   nobody took it. frames: words on the stack between sp and hi that point into the game's code (a scan,
   not an unwind: the unwinder can take the loader's lock). */
static void report_unsafe(int kind, int where, uintptr_t pc, uintptr_t addr, uintptr_t sp, uintptr_t hi)
{
    os_unsafe_fault_fn *fn = g_guard.unsafe_fn;
    if (!fn) return;
    OsUnsafeFault u;
    memset(&u, 0, sizeof u);
    u.kind = kind;
    u.where = where;
    u.guarded = GetCurrentThreadId() == g_guard.main_tid ? where == OS_UNSAFE_SYSTEM_CODE || where == OS_UNSAFE_SERVICE
                                                        : where == OS_UNSAFE_SYSTEM_CODE;
    u.pc = pc;
    u.addr = addr;
    u.mono = os_mono_seconds();
    if (in_game_code(pc)) u.frames[u.frame_count++] = pc;
    if (hi > sp + 256 * 1024) hi = sp + 256 * 1024;
    for (uintptr_t w = (sp + 7) & ~(uintptr_t)7; w + 8 <= hi && u.frame_count < 16; w += 8) {
        uintptr_t v = *(const uintptr_t *)w;
        if (in_game_code(v)) u.frames[u.frame_count++] = v;
    }
    u.game_thread = where == OS_UNSAFE_THREAD && u.frame_count > 0;
    fn(&u);
}

static uintptr_t own_stack_top(void)
{
    ULONG_PTR lo = 0, hi = 0;
    GetCurrentThreadStackLimits(&lo, &hi);
    return (uintptr_t)hi;
}

void os_fault_on_unsafe(os_unsafe_fault_fn *fn) { g_guard.unsafe_fn = fn; }
void os_fault_game_code(uintptr_t lo, uintptr_t hi) { g_guard.game_lo.store(lo); g_guard.game_hi.store(hi); }
int  os_system_code_ranges(OsRange *out, int max)
{
    int n = g_guard.system_count < max ? g_guard.system_count : max;
    for (int i = 0; i < n; i++) { out[i] = g_guard.system[i]; out[i].prot = OS_PROT_READ | OS_PROT_EXEC; }
    return n;
}

/* Before a new process takes the session over from another thread: the main thread stops where it
   holds no loader or heap lock (not inside ntdll), as far as a few tries can tell. */
void os_win32_stop_main_thread(void)
{
    if (GetCurrentThreadId() == g_guard.main_tid || !g_guard.main_thread) return;
    for (int attempt = 0; attempt < 20; attempt++) {
        if (SuspendThread(g_guard.main_thread) == (DWORD)-1) return;
        CONTEXT ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.ContextFlags = CONTEXT_CONTROL;
        if (!GetThreadContext(g_guard.main_thread, &ctx) || !g_guard.system_count ||
            !((uintptr_t)ctx.Rip >= g_guard.system[0].lo && (uintptr_t)ctx.Rip < g_guard.system[0].hi)) return;
        ResumeThread(g_guard.main_thread);
        Sleep(5);
    }
    SuspendThread(g_guard.main_thread);
}

const char *os_fault_name(int kind)
{
    switch (kind) {
    case OS_FAULT_SEGV: return "access violation"; case OS_FAULT_BUS: return "in-page error";
    case OS_FAULT_FPE: return "divide by zero"; case OS_FAULT_ILL: return "illegal instruction";
    case OS_FAULT_ABORT: return "abort"; case OS_FAULT_HANG: return "hang";
    case OS_FAULT_EXIT: return "exit";
    default: return "exception";
    }
}

static int exception_kind(DWORD code)
{
    switch (code) {
    case EXCEPTION_ACCESS_VIOLATION: case EXCEPTION_STACK_OVERFLOW: case EXCEPTION_ARRAY_BOUNDS_EXCEEDED:
    case EXCEPTION_DATATYPE_MISALIGNMENT: return OS_FAULT_SEGV;
    case EXCEPTION_IN_PAGE_ERROR: return OS_FAULT_BUS;
    case EXCEPTION_INT_DIVIDE_BY_ZERO: case EXCEPTION_INT_OVERFLOW: case EXCEPTION_FLT_DIVIDE_BY_ZERO:
    case EXCEPTION_FLT_INVALID_OPERATION: case EXCEPTION_FLT_OVERFLOW: return OS_FAULT_FPE;
    case EXCEPTION_ILLEGAL_INSTRUCTION: case EXCEPTION_PRIV_INSTRUCTION: return OS_FAULT_ILL;
    default: return OS_FAULT_NONE;
    }
}

/* Return addresses from a thread context, unwound with the images' own unwind tables (.pdata). */
static int walk_stack(CONTEXT ctx, void **bt, int max)
{
    int n = 0;
    while (n < max && ctx.Rip) {
        bt[n++] = (void *)ctx.Rip;
        DWORD64 image = 0;
        PRUNTIME_FUNCTION fn = RtlLookupFunctionEntry(ctx.Rip, &image, NULL);
        if (!fn) {   /* a leaf function: the return address is on top of the stack */
            if (IsBadReadPtr((void *)ctx.Rsp, sizeof(DWORD64))) break;
            ctx.Rip = *(DWORD64 *)ctx.Rsp;
            ctx.Rsp += 8;
            continue;
        }
        void *handler_data = NULL;
        DWORD64 frame = 0;
        RtlVirtualUnwind(UNW_FLAG_NHANDLER, image, ctx.Rip, fn, &ctx, &handler_data, &frame, NULL);
    }
    return n;
}

/* Where a faulted or interrupted guarded call resumes, in an ordinary frame. */
static void guard_landing(void) { guard_longjmp(g_guard.jmp); }

static void redirect_to_landing(CONTEXT *ctx)
{
    ctx->Rsp = (g_guard.landing_sp & ~(uintptr_t)15) - 8;   /* as if called: 16-byte aligned after the push */
    ctx->Rip = (DWORD64)(uintptr_t)guard_landing;
}

static void report_fatal(EXCEPTION_POINTERS *ep)
{
    void *bt[OS_MAX_BACKTRACE];
    int n = walk_stack(*ep->ContextRecord, bt, OS_MAX_BACKTRACE);
    fprintf(stderr, "host: fatal exception 0x%08lx on thread %lu%s, address %p; backtrace:\n",
            (unsigned long)ep->ExceptionRecord->ExceptionCode, (unsigned long)GetCurrentThreadId(),
            GetCurrentThreadId() == g_guard.main_tid ? " (main thread, outside game code)" : " (not the main thread)",
            ep->ExceptionRecord->ExceptionAddress);
    for (int i = 0; i < n; i++) {
        HMODULE m = NULL;
        char name[MAX_PATH] = "?";
        if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                               (LPCSTR)bt[i], &m))
            GetModuleFileNameA(m, name, sizeof name);
        fprintf(stderr, "  %p %s+0x%llx\n", bt[i], name, (unsigned long long)((uintptr_t)bt[i] - (uintptr_t)m));
    }
    fprintf(stderr, "host: ended (exit code 70) - the host cannot continue safely after a fault outside game code\n");
    fflush(stderr);
    TerminateProcess(GetCurrentProcess(), 70);
}

static LONG CALLBACK guard_vectored_handler(EXCEPTION_POINTERS *ep)
{
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    int kind = exception_kind(code);
    if (kind == OS_FAULT_NONE) return EXCEPTION_CONTINUE_SEARCH;   /* debug strings, C++ throws, thread names... */
    if (GetCurrentThreadId() != g_guard.main_tid || !g_guard.running_seq.load())
        return EXCEPTION_CONTINUE_SEARCH; /* -> the unhandled filter */
    g_guard.running_seq.store(0);
    /* Inside the C runtime, ntdll (the loader, the heap) or a host service, a jump would strand the
       lock held there: the hot restart takes over (it returns only when it cannot). */
    uintptr_t pc = (uintptr_t)ep->ExceptionRecord->ExceptionAddress;
    int where = in_system_code(pc, 0) ? OS_UNSAFE_SYSTEM_CODE : g_guard.gate.depth > 0 ? OS_UNSAFE_SERVICE : 0;
    if (where && code != EXCEPTION_STACK_OVERFLOW)
        report_unsafe(kind, where, pc, code == EXCEPTION_ACCESS_VIOLATION && ep->ExceptionRecord->NumberParameters >= 2
                                       ? (uintptr_t)ep->ExceptionRecord->ExceptionInformation[1] : pc,
                      (uintptr_t)ep->ContextRecord->Rsp, own_stack_top());
    OsFault *f = g_guard.fault;
    if (f) {
        f->kind = kind;
        f->addr = code == EXCEPTION_ACCESS_VIOLATION && ep->ExceptionRecord->NumberParameters >= 2
                      ? (void *)ep->ExceptionRecord->ExceptionInformation[1] : ep->ExceptionRecord->ExceptionAddress;
        /* After a stack overflow only a page or so is left (wine ignores SetThreadStackGuarantee):
           no unwinding here, just where it happened. */
        f->pc = ep->ExceptionRecord->ExceptionAddress;
        if (code == EXCEPTION_STACK_OVERFLOW) { f->bt[0] = ep->ExceptionRecord->ExceptionAddress; f->bt_count = 1; }
        else f->bt_count = walk_stack(*ep->ContextRecord, f->bt, OS_MAX_BACKTRACE);
    }
    if (code == EXCEPTION_STACK_OVERFLOW) g_guard.stack_overflowed = 1;
    g_guard.jumps.fetch_add(1);
    redirect_to_landing(ep->ContextRecord);
    return EXCEPTION_CONTINUE_EXECUTION;
}

static LONG WINAPI guard_unhandled_filter(EXCEPTION_POINTERS *ep)
{
    /* nobody handled it: on another thread (a game's thread, SDL's) or in the host's own code. Not after a
       stack overflow: what is left of the stack cannot start a process. */
    DWORD code = ep->ExceptionRecord->ExceptionCode;
    int kind = exception_kind(code);
    if (kind != OS_FAULT_NONE && code != EXCEPTION_STACK_OVERFLOW)
        report_unsafe(kind, GetCurrentThreadId() == g_guard.main_tid ? OS_UNSAFE_HOST : OS_UNSAFE_THREAD,
                      (uintptr_t)ep->ExceptionRecord->ExceptionAddress,
                      code == EXCEPTION_ACCESS_VIOLATION && ep->ExceptionRecord->NumberParameters >= 2
                          ? (uintptr_t)ep->ExceptionRecord->ExceptionInformation[1] : 0,
                      (uintptr_t)ep->ContextRecord->Rsp, own_stack_top());
    report_fatal(ep);
    return EXCEPTION_EXECUTE_HANDLER;
}

/* abort() in game code: the C runtime raises SIGABRT on the calling thread, from an ordinary call. */
static void guard_abort_handler(int sig)
{
    (void)sig;
    if (GetCurrentThreadId() == g_guard.main_tid && g_guard.running_seq.load()) {
        g_guard.running_seq.store(0);
        OsFault *f = g_guard.fault;
        if (f) {
            f->kind = OS_FAULT_ABORT;
            f->addr = NULL;
            f->bt_count = (int)RtlCaptureStackBackTrace(1, OS_MAX_BACKTRACE, f->bt, NULL);
        }
        g_guard.jumps.fetch_add(1);
        signal(SIGABRT, guard_abort_handler);   /* the runtime resets it to the default before the call */
        guard_longjmp(g_guard.jmp);
    }
    volatile char here = 0;
    report_unsafe(OS_FAULT_ABORT, GetCurrentThreadId() == g_guard.main_tid ? OS_UNSAFE_HOST : OS_UNSAFE_THREAD, 0, 0,
                  (uintptr_t)&here, own_stack_top());
    fprintf(stderr, "host: abort() outside game code; ended (exit code 70)\n");
    fflush(stderr);
    TerminateProcess(GetCurrentProcess(), 70);
}

void os_fault_init(void)
{
    g_guard.main_tid = GetCurrentThreadId();
    DuplicateHandle(GetCurrentProcess(), GetCurrentThread(), GetCurrentProcess(), &g_guard.main_thread,
                    THREAD_SUSPEND_RESUME | THREAD_GET_CONTEXT | THREAD_SET_CONTEXT | THREAD_QUERY_INFORMATION, FALSE,
                    0);
    ULONG guarantee = 64 * 1024;   /* stack left for the handler when the guard page is hit */
    SetThreadStackGuarantee(&guarantee);
    g_guard.main_stack_hi = own_stack_top();
    record_system_code();
    AddVectoredExceptionHandler(1, guard_vectored_handler);
    SetUnhandledExceptionFilter(guard_unhandled_filter);
    signal(SIGABRT, guard_abort_handler);
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
}

/* Kept out of line so its frame, and the setjmp in it, stay put while fn runs below it. */
GUARD_NOINLINE int os_guarded_call(void (*fn)(void *), void *arg, uint64_t seq, OsFault *fault)
{
    memset(fault, 0, sizeof *fault);
    g_guard.fault = fault;
    g_guard.blocked_in[0] = 0;
    os_gate_reset(&g_guard.gate);
    volatile char below;   /* the landing runs under this frame, on the stack fn was using */
    g_guard.landing_sp = (uintptr_t)&below - 512;
    if (guard_setjmp(g_guard.jmp)) {
        g_guard.running_seq.store(0);
        g_guard.gate.depth = 0;
        if (g_guard.stack_overflowed) {   /* the guard page was used up: put it back for the next overflow */
            g_guard.stack_overflowed = 0;
            _resetstkoflw();
        }
        return 1;
    }
    g_guard.running_seq.store(seq);
    fn(arg);
    g_guard.running_seq.store(0);
    return 0;
}

/* A thread stopped inside a system call (a wait, I/O) cannot be redirected: its new context would
   only take effect when the call returns, which for a wait on something that never happens is never.
   Such a call is left alone and the reason is in os_error_text(). */
static int in_system_module(DWORD64 rip, char *name, size_t cap)
{
    HMODULE m = NULL;
    if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCSTR)(uintptr_t)rip, &m))
        return 0;
    char path[MAX_PATH];
    if (!GetModuleFileNameA(m, path, sizeof path)) return 0;
    const char *base = strrchr(path, '\\');
    base = base ? base + 1 : path;
    static const char *const system[] = {"ntdll.dll", "kernel32.dll", "kernelbase.dll", "win32u.dll", "user32.dll"};
    for (const char *s : system)
        if (!_stricmp(base, s)) { snprintf(name, cap, "%s", base); return 1; }
    return 0;
}

int os_interrupt_guarded_call(uint64_t seq)
{
    if (!seq || g_guard.running_seq.load() != seq) return 0;
    for (int attempt = 0; attempt < 50; attempt++) {
        if (SuspendThread(g_guard.main_thread) == (DWORD)-1) { os_win32_set_error("SuspendThread"); return 0; }
        if (g_guard.running_seq.load() != seq) {
            ResumeThread(g_guard.main_thread);
            return 0;
        } /* returned meanwhile */
        CONTEXT ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.ContextFlags = CONTEXT_FULL;
        if (!GetThreadContext(g_guard.main_thread, &ctx)) {
            os_win32_set_error("GetThreadContext");
            ResumeThread(g_guard.main_thread);
            return 0;
        }
        if (os_gate_defer(&g_guard.gate, seq)) {
            /* inside a host service (it may hold a lock): the jump happens when the service returns */
            ResumeThread(g_guard.main_thread);
            return 1;
        }
        if (in_system_code((uintptr_t)ctx.Rip, 1) && g_guard.unsafe_fn) {
            /* inside the C runtime (malloc, stdio, the locale): a jump would strand its lock; the main
               thread stays stopped while the hot restart takes over, and goes on only if it cannot */
            g_guard.running_seq.store(0);
            report_unsafe(OS_FAULT_HANG, OS_UNSAFE_SYSTEM_CODE, (uintptr_t)ctx.Rip, 0, (uintptr_t)ctx.Rsp,
                          g_guard.main_stack_hi);
            g_guard.running_seq.store(seq);
        }
        char sys[64];
        if (in_system_module(ctx.Rip, sys, sizeof sys)) {
            /* Maybe a short call (a platform service); look again in a moment. */
            ResumeThread(g_guard.main_thread);
            snprintf(g_guard.blocked_in, sizeof g_guard.blocked_in, "%s", sys);
            Sleep(10);
            continue;
        }
        g_guard.running_seq.store(0);
        OsFault *f = g_guard.fault;
        if (f) {
            f->kind = OS_FAULT_HANG;
            f->addr = (void *)ctx.Rip;
            f->bt_count = walk_stack(ctx, f->bt, OS_MAX_BACKTRACE);
        }
        g_guard.jumps.fetch_add(1);
        redirect_to_landing(&ctx);
        int ok = SetThreadContext(g_guard.main_thread, &ctx) != 0;
        if (!ok) os_win32_set_error("SetThreadContext");
        ResumeThread(g_guard.main_thread);
        return ok;
    }
    char text[512];
    snprintf(text, sizeof text,
             "the game code is blocked inside a system call (%s) and cannot be interrupted on Windows; "
             "it continues when that call returns", g_guard.blocked_in);
    os_set_error(text);
    return 0;
}

uint64_t os_guard_jumps(void) { return g_guard.jumps.load(); }

/* The game's link on Windows does not interpose exit (no --wrap there): nothing calls this yet. When it is
   called on the main thread inside a guarded call it jumps back as Linux does; elsewhere it returns. */
int os_guard_in_call(void) { return GetCurrentThreadId() == g_guard.main_tid && g_guard.running_seq.load() != 0; }

void os_guard_game_exit(void *caller)
{
    if (GetCurrentThreadId() != g_guard.main_tid || !g_guard.running_seq.load()) return;
    g_guard.running_seq.store(0);
    OsFault *f = g_guard.fault;
    if (f) {
        f->kind = OS_FAULT_EXIT;
        f->addr = NULL;
        f->pc = (void *)((uintptr_t)caller - 1);
        f->bt_count = (int)RtlCaptureStackBackTrace(1, OS_MAX_BACKTRACE, f->bt, NULL);
    }
    g_guard.gate.depth = 0;
    g_guard.jumps.fetch_add(1);
    guard_longjmp(g_guard.jmp);
}

void os_guard_service_enter(void) { os_gate_enter(&g_guard.gate); }

void os_guard_service_leave(void)
{
    if (!os_gate_leave(&g_guard.gate, &g_guard.running_seq)) return;
    /* the watchdog's interrupt for this call came while a service ran: the service is done, jump now */
    g_guard.running_seq.store(0);
    OsFault *f = g_guard.fault;
    if (f) {
        f->kind = OS_FAULT_HANG;
        f->addr = NULL;
        f->bt_count = (int)RtlCaptureStackBackTrace(1, OS_MAX_BACKTRACE, f->bt, NULL);
    }
    g_guard.jumps.fetch_add(1);
    guard_longjmp(g_guard.jmp);
}

#endif /* _WIN32 */
