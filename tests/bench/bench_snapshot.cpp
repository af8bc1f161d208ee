/* bench_snapshot.cpp - cost of the host's state snapshot (crash rollback, F7 loops): a copy of the
   used part of the memory block into the reserved snapshot area, both in one shared memfd mapping as the
   host keeps them (platform/session/restart.cpp: the session outlives the process). snapshot_64mib_ms is the
   steady state (the area has been touched once); the first copy into a never-touched area also pays the
   page faults and is reported beside it. snapshot_64mib_private_ms: the same into private anonymous
   memory (what the host used before the session moved into a memfd), the baseline. */
#include "bench_time.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* steady-state and first copy of `used` bytes from block to snap; returns the median */
static double measure(uint8_t *block, uint8_t *snap, size_t used, double *first_ms)
{
    for (size_t i = 0; i < used; i += 64) block[i] = (uint8_t)(i * 31);
    double t = bench_now_ms();
    memcpy(snap, block, used);
    *first_ms = bench_now_ms() - t;
    std::vector<double> runs(15);
    for (double &r : runs) {
        block[(size_t)(r * 7) % used] ^= 1;
        t = bench_now_ms();
        memcpy(snap, block, used);
        r = bench_now_ms() - t;
    }
    volatile uint8_t sink = snap[used - 1];
    (void)sink;
    return bench_median(runs);
}

int main(void)
{
    const size_t used = 64u << 20, reserved = 256u << 20;
    int fd = (int)syscall(SYS_memfd_create, "bench-session", 1u);
    if (fd < 0 || ftruncate(fd, (off_t)(2 * reserved)) != 0) { perror("memfd"); return 1; }
    uint8_t *session = (uint8_t *)mmap(NULL, 2 * reserved, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    uint8_t *block = (uint8_t *)mmap(NULL, reserved, PROT_READ | PROT_WRITE, flags, -1, 0);
    uint8_t *snap = (uint8_t *)mmap(NULL, reserved, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (session == MAP_FAILED || block == MAP_FAILED || snap == MAP_FAILED) { perror("mmap"); return 1; }
    double first, private_first;
    double shared = measure(session, session + reserved, used, &first);
    double priv = measure(block, snap, used, &private_first);
    fprintf(stderr, "snapshot 64 MiB: first %.2f ms, median %.2f ms (private memory: first %.2f, median %.2f)\n", first,
            shared, private_first, priv);
    printf("{\"snapshot_64mib_ms\": %.3f, \"snapshot_64mib_first_ms\": %.3f, \"snapshot_64mib_private_ms\": %.3f}\n", shared,
           first, priv);
    return 0;
}
