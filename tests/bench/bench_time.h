/* bench_time.h - the clock and the statistic of the C++ benchmarks: a monotonic time in milliseconds,
   and the median of a set of runs (the number every benchmark reports, robust to a busy machine), and the
   quick mode's repeat count. */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

#include <stdlib.h>
#include <time.h>
#include <algorithm>
#include <vector>

static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline double bench_median(std::vector<double> runs)
{
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

/* How many times to repeat a measurement: `full` for ./build.sh bench, `quick` under BENCH_QUICK=1 (the suite's
   bench smoke leg: every part runs once with few iterations and must still print all its metrics). */
static inline int bench_runs(int full, int quick)
{
    const char *q = getenv("BENCH_QUICK");
    return q && q[0] == '1' ? quick : full;
}

#endif /* BENCH_TIME_H */
