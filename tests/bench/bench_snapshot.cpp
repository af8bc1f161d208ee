/* bench_snapshot.cpp - cost of the host's state snapshot (crash rollback, F7 loops): a copy of the
   used part of the memory block into the reserved snapshot area, both mmap'ed as the host does.
   snapshot_64mib_ms is the steady state (the area has been touched once); the first copy into a
   never-touched area also pays the page faults and is reported beside it. */
#include "bench_time.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <algorithm>
#include <sys/mman.h>
#include <time.h>

int main(void)
{
    const size_t used = 64u << 20, reserved = 256u << 20;
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    uint8_t *block = (uint8_t *)mmap(NULL, reserved, PROT_READ | PROT_WRITE, flags, -1, 0);
    uint8_t *snap = (uint8_t *)mmap(NULL, reserved, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (block == MAP_FAILED || snap == MAP_FAILED) { perror("mmap"); return 1; }
    for (size_t i = 0; i < used; i += 64) block[i] = (uint8_t)(i * 31);
    double t = bench_now_ms();
    memcpy(snap, block, used);
    double first = bench_now_ms() - t;
    std::vector<double> runs(15);
    for (double &r : runs) {
        block[(size_t)(r * 7) % used] ^= 1;
        t = bench_now_ms();
        memcpy(snap, block, used);
        r = bench_now_ms() - t;
    }
    volatile uint8_t sink = snap[used - 1];
    (void)sink;
    fprintf(stderr, "snapshot 64 MiB: first %.2f ms, median %.2f ms\n", first, bench_median(runs));
    printf("{\"snapshot_64mib_ms\": %.3f, \"snapshot_64mib_first_ms\": %.3f}\n", bench_median(runs), first);
    return 0;
}
