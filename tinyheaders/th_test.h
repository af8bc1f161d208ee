/* th_test.h - a tiny test harness for C and C++ test programs.

   th_test.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     Counts checks, prints every failure with file and line, and ends the
     program with the one summary line the build's test runner reads:

         <N> passed, <N> failed

   USE
     #define TH_TEST_IMPLEMENTATION   (in exactly one file, usually the test)
     #include "th_test.h"

     static void test_adds(void) {
         TH_CHECK(1 + 1 == 2);
         TH_CHECK_NEAR(0.1f + 0.2f, 0.3f, 1e-6f);
         TH_CHECK_EQ_INT(2 * 21, 42);
     }
     int main(void) {
         TH_RUN(test_adds);
         return th_test_finish();    // prints the summary, returns 1 on any failure
     }

   A "passed" is one test function whose checks all held; a "failed" is one
   with at least one failed check. Checks inside a test keep running after a
   failure so one run shows every broken check.

   CUSTOMIZATION
     TH_TEST_MAX_FAIL_LINES   failures printed per test before going quiet (default 20)
*/
#ifndef TH_TEST_H
#define TH_TEST_H

#include <stdio.h>
#include <math.h>

#ifndef TH_TEST_MAX_FAIL_LINES
#define TH_TEST_MAX_FAIL_LINES 20
#endif

#ifdef __cplusplus
extern "C" {
#endif

void th_test__fail(const char *file, int line, const char *what);
void th_test__run(void (*fn)(void), const char *name);
int  th_test_finish(void);
extern int th_test__current_failures;

#ifdef __cplusplus
}
#endif

#define TH_CHECK(cond) \
    do { if (!(cond)) th_test__fail(__FILE__, __LINE__, #cond); } while (0)

#define TH_CHECK_MSG(cond, ...) \
    do { if (!(cond)) { char th__buf[512]; snprintf(th__buf, sizeof th__buf, __VA_ARGS__); \
         th_test__fail(__FILE__, __LINE__, th__buf); } } while (0)

#define TH_CHECK_NEAR(a, b, eps) \
    do { double th__a = (double)(a), th__b = (double)(b); \
         if (!(fabs(th__a - th__b) <= (double)(eps))) { char th__buf[256]; \
           snprintf(th__buf, sizeof th__buf, "%s ~= %s (%.9g vs %.9g, eps %.3g)", #a, #b, th__a, th__b, (double)(eps)); \
           th_test__fail(__FILE__, __LINE__, th__buf); } } while (0)

#define TH_CHECK_EQ_INT(a, b) \
    do { long long th__a = (long long)(a), th__b = (long long)(b); \
         if (th__a != th__b) { char th__buf[256]; \
           snprintf(th__buf, sizeof th__buf, "%s == %s (%lld vs %lld)", #a, #b, th__a, th__b); \
           th_test__fail(__FILE__, __LINE__, th__buf); } } while (0)

#define TH_RUN(fn) th_test__run(fn, #fn)

#endif /* TH_TEST_H */

#ifdef TH_TEST_IMPLEMENTATION
#ifndef TH_TEST_IMPLEMENTED
#define TH_TEST_IMPLEMENTED

int th_test__current_failures = 0;
static int th_test__passed = 0;
static int th_test__failed = 0;
static const char *th_test__name = "(none)";

void th_test__fail(const char *file, int line, const char *what)
{
    th_test__current_failures++;
    if (th_test__current_failures <= TH_TEST_MAX_FAIL_LINES)
        printf("FAIL %s  %s:%d  %s\n", th_test__name, file, line, what);
}

void th_test__run(void (*fn)(void), const char *name)
{
    th_test__name = name;
    th_test__current_failures = 0;
    fn();
    if (th_test__current_failures) {
        th_test__failed++;
        printf("not ok  %s (%d failed checks)\n", name, th_test__current_failures);
    } else {
        th_test__passed++;
        printf("ok      %s\n", name);
    }
    fflush(stdout);
}

int th_test_finish(void)
{
    printf("%d passed, %d failed\n", th_test__passed, th_test__failed);
    fflush(stdout);
    return th_test__failed ? 1 : 0;
}
#endif
#endif /* TH_TEST_IMPLEMENTATION */

/*
   LICENCE - this file is offered under your choice of A or B.

   A - MIT License

   Copyright (c) 2026 the engine's maintainers

   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all copies or
   substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
   NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
   OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

   B - Public domain

   The authors dedicate this file to the public domain, giving up every copyright interest in
   it, for the benefit of the public and to the detriment of their heirs and successors, and
   meaning it as a permanent act. Anyone may copy, modify, publish, use, compile, sell or distribute
   it, as source or as a compiled binary, for any purpose, commercial or not, and by any means,
   with no need to name the authors. Where a dedication to the public domain is not recognised, the
   authors grant everyone the same rights under the MIT License above, without its condition.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED. IN NO EVENT
   SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
