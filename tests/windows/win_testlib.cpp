/* win_testlib.cpp - a small DLL for test_os_win32: a value that tells builds apart, and the faults
   game code can make, compiled the way the game DLL is (clang++ --target=x86_64-w64-mingw32). */
#include <stdlib.h>
#include <windows.h>

#ifndef TESTLIB_VALUE
#define TESTLIB_VALUE 0
#endif

extern "C" __declspec(dllexport) int testlib_value(void) { return TESTLIB_VALUE; }

static volatile int g_zero = 0;
static volatile int *volatile g_null = 0;
static volatile int g_null_store_line;   /* the source line of the null store, for the symbolizer test */

extern "C" __declspec(dllexport) int testlib_null_store_line(void) { return g_null_store_line; }

__attribute__((noinline)) static int recurse(int depth)
{
    volatile char pad[512];
    pad[0] = (char)depth;
    return recurse(depth + 1) + pad[0];
}

/* 1 access violation, 2 integer divide by zero, 3 illegal instruction, 4 abort(), 5 stack overflow,
   6 endless loop, 7 blocked in a kernel wait on the event handle `wait_on`, 0 returns normally. */
extern "C" __declspec(dllexport) int testlib_fault(int kind, void *wait_on)
{
    switch (kind) {
    case 1: g_null_store_line = __LINE__; *g_null = 42; return 1;
    case 2: return 100 / g_zero;
    case 3: __builtin_trap();
    case 4: abort();
    case 5: return recurse(0);
    case 6: for (volatile unsigned i = 0;; i++) {}
    case 7: WaitForSingleObject((HANDLE)wait_on, INFINITE); return 7;
    default: return 0;
    }
}
