/* profile_zone_ns: the cost of one PROFILE_ZONE (open and close: two reads of the timestamp counter stored as
   they are, one ring slot) in a host file, median of 15 runs of 200,000 zones nested two deep as a frame's are,
   timed by the thread's CPU time; the loop without zones is measured in the same runs and taken off. Also
   reported, from the same runs: profile_counter_read_ns, one read of the counter (rdtsc) in the same loop
   (four reads an iteration where the zones' loop has two zones): a zone cannot cost less than two of these;
   and profile_game_zone_ns, a zone of the game's, through the contract's function pointers and the host's
   name lookup (thp_intern_literal). docs/profiling.md has the numbers and what they mean. */
#define TH_PROFILE_IMPLEMENTATION
#include "th_profile.h"

#include <stdio.h>
#include <time.h>
#include <algorithm>

static thp_profile g_p;
static thp_zone g_ring[1 << 16];
static thp_names g_names;
static char g_name_buf[1 << 14];
static uint32_t g_slots[1024];

static double now_ns(void)   /* this thread's time on the CPU: a loaded machine's other processes do not count */
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* the host's service to the game, as profile.cpp does it */
static void svc_begin(const char *name) { thp_begin(&g_p, thp_intern_literal(&g_names, name)); }
static void svc_end(void) { if (g_p.depth > 0) thp_end(&g_p); }
struct Services { void (*begin)(const char *); void (*end)(void); };
static Services *volatile g_services;

static volatile uint32_t g_sink;

static void zones_host(int n)
{
    for (int i = 0; i < n; i += 2) {
        thp_begin(&g_p, "outer");
        g_sink = g_sink + 1;
        thp_begin(&g_p, "inner");
        g_sink = g_sink + 1;
        thp_end(&g_p);
        thp_end(&g_p);
    }
}

static void zones_game(int n)
{
    Services *s = g_services;
    for (int i = 0; i < n; i += 2) {
        s->begin("game outer");
        g_sink = g_sink + 1;
        s->begin("game inner");
        g_sink = g_sink + 1;
        s->end();
        s->end();
    }
}

static void counter_reads(int n)   /* what a zone cannot go below: its two reads of the counter, in the zones' loop */
{
    for (int i = 0; i < n; i += 2) {
        g_sink = g_sink + (uint32_t)thp_ticks() + (uint32_t)thp_ticks();
        g_sink = g_sink + (uint32_t)thp_ticks() + (uint32_t)thp_ticks();
    }
}

static void no_zones(int n)
{
    for (int i = 0; i < n; i += 2) { g_sink = g_sink + 1; g_sink = g_sink + 1; }
}

static double per_zone(void (*fn)(int), int n)
{
    double t0 = now_ns();
    fn(n);
    return (now_ns() - t0) / n;
}

int main(void)
{
    static Services services = { svc_begin, svc_end };
    g_services = &services;
    thp_init(&g_p, g_ring, 1 << 16, NULL);
    thp_names_init(&g_names, g_name_buf, sizeof g_name_buf, g_slots, 1024);
    const int N = 200000, RUNS = 15;
    double host[RUNS], game[RUNS], base[RUNS], reads[RUNS];
    zones_host(N); zones_game(N); no_zones(N);   /* warm */
    for (int r = 0; r < RUNS; r++) {
        base[r] = per_zone(no_zones, N);
        host[r] = per_zone(zones_host, N);
        game[r] = per_zone(zones_game, N);
        reads[r] = per_zone(counter_reads, N);
    }
    std::sort(reads, reads + RUNS);
    std::sort(host, host + RUNS);
    std::sort(game, game + RUNS);
    std::sort(base, base + RUNS);
    double h = host[RUNS / 2] - base[RUNS / 2], g = game[RUNS / 2] - base[RUNS / 2], c = (reads[RUNS / 2] - base[RUNS / 2]) / 2;
    fprintf(stderr, "bench_profile: %.2f ns per tick, zone %.1f ns (host), %.1f ns (game, through the service), one counter read "
            "%.1f ns (a zone is %.1f ns more than its two reads), loop %.1f ns\n", g_p.ns_per_tick, h, g, c, h - 2 * c,
            base[RUNS / 2]);
    /* a zone reads the counter twice: where a read is slow (a VM), the reads are most of the zone */
    printf("{\"profile_zone_ns\": %.2f, \"profile_game_zone_ns\": %.2f, \"profile_counter_read_ns\": %.2f}\n", h, g, c);
    return 0;
}
