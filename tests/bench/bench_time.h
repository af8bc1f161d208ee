/* bench_time.h - the clock and the statistic of the C++ benchmarks: a monotonic time in milliseconds,
   and the median of a set of runs (the number every benchmark reports, robust to a busy machine). */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

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

#endif /* BENCH_TIME_H */
